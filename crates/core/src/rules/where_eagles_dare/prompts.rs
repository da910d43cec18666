//! The prompts: what the game waits for (`waiting`), with examples that are legal now, taken
//! from the list of legal orders (`legal`) — one of each kind in an impulse, every answer of a
//! window (a prompt's worth).
//!
//! Imports: `waiting` and `legal`, and the order language to write the examples in.

use crate::engine::ruleset::{Prompt, Rules};

use super::legal::{self, Reach};
use super::order::{self, Command};
use super::state::State;
use super::waiting::waiting;

/// Who may act now, what is decided, and orders the rules accept now as examples.
pub fn prompts<R>(rules: &R, s: &State) -> Vec<Prompt>
where
    R: Rules<State = State, Command = Command>,
{
    let Some(w) = waiting(s) else {
        return Vec::new();
    };
    let options = legal::orders(rules, s, w.side, Reach::Examples)
        .iter()
        .map(|l| order::describe(&l.command))
        .collect();
    vec![Prompt {
        seat: w.side.seat(),
        kind: w.kind,
        decision: w.decision,
        options,
        pass_on_timeout: w.pass,
    }]
}
