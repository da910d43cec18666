//! 3.4 Non-player characters' operations: after every player has operated, each character no
//! seat plays operates in turn (the scenario's order). The player of its side whose CU is
//! farthest from it (in CLs) runs it: he draws a normal hand for it (the role's hand size) that
//! he alone sees, and gives its order from that hand as from planned cards — each card a face,
//! one colour each (1.b), so four cards at most. The others may play reactive cards at its
//! operation as at any other (1.e). The NPC keeps no card: its hand is discarded after its
//! operation. With no player of its side in play, the NPC stands where it is.

use super::data;
use super::deck;
use super::round;
use super::state::{NpcTurn, Phase, State};
use crate::engine::ruleset::{Ctx, RuleError};

/// The NPCs that operate this round, in the scenario's order: characters no seat plays whose
/// CU is on the map.
fn npcs(state: &State) -> Vec<String> {
    state
        .cus
        .iter()
        .filter(|c| c.seat.is_none() && c.lp.is_some() && !c.captured)
        .map(|c| c.character.clone())
        .collect()
}

/// The player who runs `character` (3.4): of its side, still in, with his CU on the map, the
/// farthest from it in CLs (no way there at all counts as farthest); ties go to the first in
/// seat order.
pub fn runner(state: &State, character: &str) -> Option<usize> {
    let cu = state.cu(character);
    let at = cu.lp.as_deref()?;
    let dist = state.map().distances(at);
    let mut best: Option<(usize, usize)> = None;
    for i in state.active() {
        let own = state.cu(&state.players[i].character);
        let Some(lp) = own.lp.as_deref() else {
            continue;
        };
        if own.side != cu.side {
            continue;
        }
        let d = dist.get(lp).copied().unwrap_or(usize::MAX);
        if best.is_none_or(|(_, bd)| d > bd) {
            best = Some((i, d));
        }
    }
    best.map(|(i, _)| i)
}

/// The players' operations are over: the NPCs' begin (or, with none, or with the option
/// `npcs=stand`, the round ends).
pub fn begin(state: &mut State, ctx: &mut Ctx) -> Result<(), RuleError> {
    if let Phase::Operations { order, .. } = &state.phase {
        state.draw_order = order.clone();
    }
    let order = npcs(state);
    if state.npcs_stand || order.is_empty() {
        return round::end_round(state, ctx);
    }
    ctx.say(format!(
        "the non-player characters operate (3.4): {}",
        order.join(", ")
    ));
    state.phase = Phase::Npcs { order, next: 0 };
    activate(state, ctx)
}

/// The NPC's operation is over: its hand goes to the discard pile and the next NPC operates.
pub fn advance(state: &mut State, ctx: &mut Ctx) -> Result<(), RuleError> {
    if let Some(turn) = state.npc.take() {
        deck::discard(state, turn.hand.into_iter().map(|(card, _)| card));
    }
    if let Phase::Npcs { next, .. } = &mut state.phase {
        *next += 1;
    }
    activate(state, ctx)
}

/// The runner of the NPC operating now left the game: another player of its side runs it with
/// the same hand, or, with none, it stands.
pub fn rerun(state: &mut State, ctx: &mut Ctx) -> Result<(), RuleError> {
    let Some(turn) = state.npc.as_ref() else {
        return Ok(());
    };
    let character = turn.character.clone();
    match runner(state, &character) {
        Some(r) => {
            state.npc.as_mut().expect("an NPC").runner = r;
            tell_hand(state, ctx);
            ctx.say(format!(
                "{} runs {character} now (3.4)",
                state.players[r].character
            ));
            Ok(())
        }
        None => advance(state, ctx),
    }
}

/// The NPC at `next` operates: its runner draws its hand; an NPC no longer on the map, or with
/// nobody of its side to run it, is passed over. After the last, the round ends.
fn activate(state: &mut State, ctx: &mut Ctx) -> Result<(), RuleError> {
    fn skip(state: &mut State) {
        if let Phase::Npcs { next, .. } = &mut state.phase {
            *next += 1;
        }
    }
    loop {
        let Phase::Npcs { order, next } = &state.phase else {
            return Ok(());
        };
        let Some(character) = order.get(*next).cloned() else {
            return round::end_round(state, ctx);
        };
        let cu = state.cu(&character);
        if cu.seat.is_some() || cu.lp.is_none() {
            skip(state);
            continue;
        }
        let Some(r) = runner(state, &character) else {
            ctx.say(format!(
                "{character} (NPC) has no player of its side in play to run it: it stands"
            ));
            skip(state);
            continue;
        };
        let size = data::role(&character).expect("a role").hand_size;
        let mut hidden = |n: u32| ctx.hidden(n);
        let mut hand = Vec::with_capacity(size);
        for _ in 0..size {
            match deck::draw_one(state, &mut hidden)? {
                Some(card) => hand.push((card, false)),
                None => break,
            }
        }
        let mut cards: Vec<String> = hand.into_iter().map(|(c, _)| c).collect();
        deck::add_personal(state, &character, &mut cards, &mut hidden)?;
        let hand: Vec<(String, bool)> = cards.into_iter().map(|c| (c, false)).collect();
        let drawn = hand.len();
        state.npc = Some(NpcTurn {
            character: character.clone(),
            runner: r,
            hand,
        });
        ctx.say(format!(
            "{} runs {character} (NPC, 3.4): {drawn} card(s) drawn for its operation",
            state.players[r].character
        ));
        tell_hand(state, ctx);
        return Ok(());
    }
}

/// The NPC's hand, to its runner alone.
fn tell_hand(state: &State, ctx: &mut Ctx) {
    let Some(turn) = &state.npc else { return };
    let names: Vec<String> = turn
        .hand
        .iter()
        .enumerate()
        .map(|(i, (k, _))| format!("{} {}", i + 1, data::card(k).expect("a card").name))
        .collect();
    let seat = state.players[turn.runner].seat.clone();
    ctx.say_to(
        std::slice::from_ref(&seat),
        format!(
            "round {}: {}'s hand for its operation: {}",
            state.round,
            turn.character,
            names.join(", ")
        ),
    );
}
