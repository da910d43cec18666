//! Re-entry of the eliminated (II.1.A.3, 3.4): a player whose CU is captured, or loses its last
//! SP with no lone SP of its side to join, is out of the game; from the next round's Planning
//! Phase on he may resume play by taking a character no other player controls — an NPC whose
//! CU is on the map — and begins anew with no glory. He is asked at the start of each round
//! while such a character is free (`enter <character>` or `enter none`); a missed deadline is
//! `enter none`. A CU that leaves by an off-map exit (2.i) is not eliminated so: its player's
//! game ends with the glory he has.

use super::data;
use super::deck;
use super::state::{Plan, State};
use crate::engine::ruleset::{Ctx, RuleError};

fn entry_error(message: impl Into<String>) -> RuleError {
    RuleError::new("II.1.A.3 Re-entry", message)
}

/// The characters a player may take: no player controls them and their CU is on the map.
pub fn free(state: &State) -> Vec<String> {
    state
        .cus
        .iter()
        .filter(|c| c.seat.is_none() && c.lp.is_some() && !c.captured)
        .map(|c| c.character.clone())
        .collect()
}

/// At a round's start: every eliminated player is asked whether he re-enters, while a character
/// is free.
pub fn ask(state: &mut State) {
    let any = !free(state).is_empty();
    for p in &mut state.players {
        p.entering = p.out && p.eliminated && any;
    }
}

/// Player `p` re-enters as `character`, or (`None`) stays out this round.
pub fn enter(
    state: &mut State,
    p: usize,
    character: Option<&str>,
    ctx: &mut Ctx,
) -> Result<(), RuleError> {
    if !state.players[p].entering {
        return Err(entry_error(
            "only a player whose character was eliminated re-enters, at a round's start",
        ));
    }
    let Some(character) = character else {
        state.players[p].entering = false;
        ctx.say(format!(
            "{} stays out of the game this round",
            state.players[p].seat
        ));
        return Ok(());
    };
    let free = free(state);
    if !free.iter().any(|c| c == character) {
        return Err(entry_error(format!(
            "'{character}' is not free: take a character no player controls whose CU is on the map ({}), or 'enter none'",
            free.join(", ")
        )));
    }
    let seat = state.players[p].seat.clone();
    let old = state.players[p].character.clone();
    state.cu_mut(&old).seat = None;
    let cu = state.cu_mut(character);
    cu.seat = Some(seat.clone());
    cu.glory = 0;
    let player = &mut state.players[p];
    player.character = character.to_owned();
    player.out = false;
    player.eliminated = false;
    player.entering = false;
    player.plan = Plan::Waiting;
    player.planned.clear();
    player.keep.clear();
    player.hand.clear();
    let size = data::role(character).expect("a role").hand_size;
    let mut hidden = |n: u32| ctx.hidden(n);
    let mut hand = Vec::with_capacity(size);
    for _ in 0..size {
        match deck::draw_one(state, &mut hidden)? {
            Some(card) => hand.push(card),
            None => break,
        }
    }
    deck::add_personal(state, character, &mut hand, &mut hidden)?;
    let names: Vec<&str> = hand
        .iter()
        .map(|k| data::card(k).expect("a card").name.as_str())
        .collect();
    ctx.say_to(
        std::slice::from_ref(&seat),
        format!("round {}: your hand is {}", state.round, names.join(", ")),
    );
    state.players[p].hand = hand;
    ctx.say(format!(
        "{seat} re-enters the game as {character} and begins anew with no glory (II.1.A.3)"
    ));
    Ok(())
}
