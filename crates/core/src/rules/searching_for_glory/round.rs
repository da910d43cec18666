//! The round (Narrative sequence of play): the Draw Phase (1.a), the Initiative step (3.1) and
//! the end of the round (3.5). The cards are drawn and discarded through `deck.rs`.

use super::data::{self, Side};
use super::deck::{add_personal, draw_one, Hidden};
use super::state::{Phase, Plan, State};
use crate::engine::ruleset::{Ctx, RuleError};

/// 1.a Draw Phase: each player still in draws his role's hand size, in `draw_order`; the cards
/// he kept from last round go in at random places; the hand keeps its order, never sorted.
pub fn draw_phase(state: &mut State, hidden: &mut Hidden) -> Result<(), RuleError> {
    let order = state.draw_order.clone();
    for i in order {
        if state.players[i].out {
            continue;
        }
        let size = data::role(&state.players[i].character)
            .expect("a role")
            .hand_size;
        let kept = std::mem::take(&mut state.players[i].hand);
        let mut hand = Vec::with_capacity(size + kept.len());
        for _ in 0..size {
            match draw_one(state, hidden)? {
                Some(card) => hand.push(card),
                None => break,
            }
        }
        for card in kept {
            let at = hidden(hand.len() as u32 + 1)? as usize - 1;
            hand.insert(at, card);
        }
        let character = state.players[i].character.clone();
        add_personal(state, &character, &mut hand, hidden)?;
        let p = &mut state.players[i];
        p.hand = hand;
        p.plan = Plan::Waiting;
        p.planned.clear();
    }
    state.phase = Phase::Plan;
    Ok(())
}

/// 3.1 Determining initiative: the order in which the players operate this round.
pub fn initiative(state: &mut State, ctx: &mut Ctx) -> Vec<usize> {
    let active: Vec<usize> = state.active().collect();
    let holder = active
        .iter()
        .copied()
        .find(|&i| state.players[i].hand.iter().any(|c| c == "initiative"));
    let first = if let Some(i) = holder {
        let p = &mut state.players[i];
        let at = p.hand.iter().position(|c| c == "initiative").expect("held");
        p.hand.remove(at);
        state.discard.push("initiative".into());
        ctx.say(format!(
            "{} shows Reap the Initiative! and acts first",
            state.players[i].character
        ));
        i
    } else if let Some(i) = active
        .iter()
        .copied()
        .find(|&i| state.players[i].character == "napoleon")
    {
        ctx.say("Napoleon is in play and acts first");
        i
    } else {
        let mut contenders = active.clone();
        loop {
            let mut best = i64::MIN;
            let mut totals = Vec::new();
            for &i in &contenders {
                let role = data::role(&state.players[i].character).expect("a role");
                let die = ctx.roll(10);
                let total = i64::from(die) + i64::from(role.initiative);
                ctx.say(format!(
                    "{} rolls {die}{:+} = {total} for the initiative",
                    role.id, role.initiative
                ));
                best = best.max(total);
                totals.push((i, total));
            }
            contenders = totals
                .into_iter()
                .filter(|&(_, t)| t == best)
                .map(|(i, _)| i)
                .collect();
            if contenders.len() <= 1 {
                break;
            }
            ctx.say("the leaders tie and roll again");
        }
        let i = contenders[0];
        ctx.say(format!("{} has the initiative", state.players[i].character));
        i
    };
    let n = state.players.len();
    (0..n)
        .map(|k| (first + k) % n)
        .filter(|i| active.contains(i))
        .collect()
}

/// 3.5 Finish the round: planned cards and every card the player did not `keep` (1.d, up to
/// the role's retention, checked with his order) go to the discard pile; then the next round's Draw Phase, or the end after the last round.
pub fn end_round(state: &mut State, ctx: &mut Ctx) -> Result<(), RuleError> {
    for p in &mut state.players {
        let planned: Vec<String> = p.planned.drain(..).map(|(card, _)| card).collect();
        state
            .discard
            .extend(planned.into_iter().filter(|c| !data::is_personal(c)));
        // 1.d: the cards the player named in his `keep`, those still in his hand.
        let mut keep = if p.out {
            Vec::new()
        } else {
            std::mem::take(&mut p.keep)
        };
        p.keep.clear();
        let mut kept = Vec::new();
        for card in std::mem::take(&mut p.hand) {
            match keep.iter().position(|k| *k == card) {
                Some(i) => {
                    keep.remove(i);
                    kept.push(card);
                }
                None if data::is_personal(&card) => {}
                None => state.discard.push(card),
            }
        }
        p.hand = kept;
    }
    state.truce.clear();
    // 2.b holds while the enemy CU stays: entries of CUs that moved on lapse.
    let cus = state.cus.clone();
    state.entries.retain(|e| {
        cus.iter()
            .any(|c| c.character == e.character && c.lp.as_deref() == Some(e.lp.as_str()))
    });
    if let Phase::Operations { order, .. } = &state.phase {
        state.draw_order = order.clone();
    }
    // III: the role cards' `hold` glory conditions (reconstructed).
    super::roles::at_round_end(state, ctx);
    ctx.say(format!("round {} ends", state.round));
    // 3: an immediate victory (a capture, or the scenario's LPs held) ends the game now.
    if super::victory::check(state, true, ctx) {
        return Ok(());
    }
    // II.1.A.3: the eliminated are asked whether they re-enter.
    super::reentry::ask(state);
    let nobody = state.active().next().is_none() && !state.players.iter().any(|p| p.entering);
    if state.round >= state.rounds || nobody {
        state.phase = Phase::Ended;
        ctx.say("the campaign is over");
        return Ok(());
    }
    state.round += 1;
    let mut hidden = |n: u32| ctx.hidden(n);
    draw_phase(state, &mut hidden)?;
    for p in state.players.iter().filter(|p| !p.out) {
        let names: Vec<&str> = p
            .hand
            .iter()
            .map(|k| data::card(k).expect("a card").name.as_str())
            .collect();
        ctx.say_to(
            std::slice::from_ref(&p.seat),
            format!("round {}: your hand is {}", state.round, names.join(", ")),
        );
    }
    ctx.say(format!(
        "round {} begins: plan your operations",
        state.round
    ));
    Ok(())
}

/// The side a character fights for.
pub fn side_of(character: &str) -> Side {
    data::role(character).expect("a role").side
}
