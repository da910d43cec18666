//! 3 Victory: immediate victories (the scenario's conditions, `data/victory.txt`,
//! reconstructed) and the winners. A capture condition is checked after every operation; a
//! hold condition at the end of every round. The game then ends at once; the winner is the
//! player of the winning side (by the character he plays now) with the most glory, ties
//! sharing. Without an immediate victory, the highest glory after the last round wins.

use super::data::{self, Condition, Side};
use super::state::{Phase, State, Victory};
use crate::engine::ruleset::Ctx;

/// The first condition of `kind` that is met, if any: `rounds_end` also checks hold conditions.
fn met(state: &State, rounds_end: bool) -> Option<Victory> {
    for v in data::immediate_victories(&state.scenario) {
        match &v.condition {
            Condition::Capture(who) if state.cu(who).captured => {
                return Some(Victory {
                    side: v.side,
                    reason: format!("{who} is captured"),
                })
            }
            Condition::Hold(lps)
                if rounds_end
                    && lps
                        .iter()
                        .all(|lp| state.holds(lp, v.side) && !state.holds(lp, v.side.enemy())) =>
            {
                return Some(Victory {
                    side: v.side,
                    reason: format!("the {} side holds {}", v.side.name(), lps.join(" and ")),
                })
            }
            _ => {}
        }
    }
    None
}

/// Checks the immediate victories (hold conditions too at a round's end): if one is met, the
/// game ends at once. Gives whether it ended.
pub fn check(state: &mut State, rounds_end: bool, ctx: &mut Ctx) -> bool {
    let Some(v) = met(state, rounds_end) else {
        return false;
    };
    ctx.say(format!(
        "immediate victory for the {} side: {} (3 Victory)",
        v.side.name(),
        v.reason
    ));
    if let Some(turn) = state.npc.take() {
        super::deck::discard(state, turn.hand.into_iter().map(|(card, _)| card));
    }
    state.pending = None;
    state.window = None;
    state.victory = Some(v);
    state.phase = Phase::Ended;
    true
}

/// The seats that win and the summary: after an immediate victory, the winning side's player
/// with the most glory; else the highest glory of all. Ties share.
pub fn winners(state: &State) -> (Vec<usize>, String) {
    let side: Option<Side> = state.victory.as_ref().map(|v| v.side);
    let mut pool: Vec<usize> = (0..state.players.len())
        .filter(|&i| side.is_none_or(|s| state.cu(&state.players[i].character).side == s))
        .collect();
    if pool.is_empty() {
        pool = (0..state.players.len()).collect();
    }
    let glory = |i: usize| state.cu(&state.players[i].character).glory;
    let best = pool.iter().map(|&i| glory(i)).max().unwrap_or(0);
    let won: Vec<usize> = pool.into_iter().filter(|&i| glory(i) == best).collect();
    let names: Vec<&str> = won
        .iter()
        .map(|&i| state.players[i].seat.as_str())
        .collect();
    let summary = match &state.victory {
        Some(v) => format!(
            "immediate victory of the {} side ({}): {} with {best} glory",
            v.side.name(),
            v.reason,
            names.join(" and ")
        ),
        None => format!("{} with {best} glory", names.join(" and ")),
    };
    (won, summary)
}
