//! Positions set by hand at the open table, for `despatch replay` (docs/rules/open-table.md,
//! "Positions (despatch replay)"): the seats as set up, then one statement a line.

use serde_json::json;

use super::order::Proposal;
use super::{Note, OpenTable, Order, State};
use crate::engine::dice::DiceStream;
use crate::engine::position::{
    sandbox_commitment, statements, unknown, PositionError, Positioned, SealedAt, Statement,
};
use crate::engine::ruleset::{Rules, Seat, Setup};

/// The statements, for `despatch replay --list`.
pub const FORMAT: &str = "\
to-act <seat>                      the seat to move (fixed order)
moves <n>                          moves made so far
resigned <seat> [<seat>...]        seats that have left the table
proposal <seat> draw | proposal <seat> win <seat> [<seat>...]
note <seat> sealed: <text>         a note sealed, not yet revealed (the sandbox can reveal it)
note <seat> revealed: <text>       a note sealed and revealed";

const KNOWN: [&str; 5] = ["to-act", "moves", "resigned", "proposal", "note"];

/// A seat of this table, named on line `s`.
fn seat_of(state: &State, s: &Statement, word: &str) -> Result<Seat, PositionError> {
    let seat = Seat::parse(word).map_err(|e| s.error(e))?;
    if state.seats.contains(&seat) {
        Ok(seat)
    } else {
        Err(s.error(format!(
            "'{word}' is not a seat at this table; the seats are {}",
            state
                .seats
                .iter()
                .map(Seat::as_str)
                .collect::<Vec<_>>()
                .join(", ")
        )))
    }
}

/// The table of `setup`, then the statements of `text`.
pub fn read(
    rules: &OpenTable,
    setup: &Setup,
    text: &str,
    hidden: &mut DiceStream,
) -> Result<Positioned<State>, PositionError> {
    let state = rules
        .setup(setup, hidden)
        .map_err(|e| PositionError::new(0, format!("the set-up: {e}")))?;
    onto(state, text)
}

/// Reads `text` onto the table `state` as set up.
pub fn onto(mut state: State, text: &str) -> Result<Positioned<State>, PositionError> {
    let mut sealed = Vec::new();
    let mut to_act_line = 0;
    for s in statements(text) {
        match s.keyword() {
            "to-act" => {
                s.expect_words(2, "to-act <seat>")?;
                let seat = seat_of(&state, &s, s.words[1])?;
                if state.order == Order::Free {
                    return Err(s.error(
                        "in free order every seat may move at any time; there is no seat to act",
                    ));
                }
                state.to_act = state.seats.iter().position(|x| x == &seat).unwrap_or(0);
                to_act_line = s.line;
            }
            "moves" => {
                s.expect_words(2, "moves <n>")?;
                state.moves = s.number(1, "a number of moves")?;
            }
            "resigned" => {
                s.word(1, "a seat")?;
                for w in &s.words[1..] {
                    let seat = seat_of(&state, &s, w)?;
                    if !state.resigned.contains(&seat) {
                        state.resigned.push(seat);
                    }
                }
            }
            "proposal" => {
                let seat = seat_of(&state, &s, s.word(1, "a seat")?)?;
                let proposal =
                    match s.word(2, "draw or win <seats>")? {
                        "draw" if s.words.len() == 3 => Proposal::Draw,
                        "win" if s.words.len() > 3 => Proposal::Win {
                            winners: s.words[3..]
                                .iter()
                                .map(|w| seat_of(&state, &s, w))
                                .collect::<Result<_, _>>()?,
                        },
                        _ => return Err(s.error(
                            "write proposal <seat> draw, or proposal <seat> win <seat> [<seat>...]",
                        )),
                    };
                state.proposals.insert(seat, proposal);
            }
            "note" => {
                let (head, body) = s
                    .text
                    .split_once(':')
                    .ok_or_else(|| s.error("write note <seat> sealed: <text>"))?;
                let head: Vec<&str> = head.split_whitespace().collect();
                let body = body.trim();
                if head.len() != 3 || body.is_empty() {
                    return Err(s.error(
                        "write note <seat> sealed: <text> or note <seat> revealed: <text>",
                    ));
                }
                let owner = seat_of(&state, &s, head[1])?;
                let choice = json!({ "note": body });
                let revealed = match head[2] {
                    "sealed" => None,
                    "revealed" => Some(body.to_owned()),
                    w => return Err(s.error(format!("'{w}': a note is sealed or revealed"))),
                };
                let number = state.notes.len() + 1;
                let at = match revealed {
                    None => SealedAt::Position(sealed.len()),
                    Some(_) => SealedAt::Revealed(number),
                };
                let commitment = sandbox_commitment(&owner, at, &choice);
                if revealed.is_none() {
                    sealed.push((owner.clone(), choice.clone()));
                }
                state.notes.push(Note {
                    number,
                    owner,
                    commitment,
                    sealed_at_move: state.moves,
                    revealed,
                });
            }
            _ => return Err(unknown(&s, &KNOWN)),
        }
    }
    // Checked as a set-up is: a seat still plays, and the seat to act is one of them.
    if state.resigned.len() == state.seats.len() {
        return Err(PositionError::new(
            0,
            "every seat has resigned: at least one must still play",
        ));
    }
    if state.order == Order::Fixed
        && to_act_line == 0
        && state.resigned.contains(&state.seats[state.to_act])
    {
        state.advance_from(state.to_act);
    }
    if state.order == Order::Fixed && state.resigned.contains(&state.seats[state.to_act]) {
        return Err(PositionError::new(
            to_act_line,
            format!(
                "{} has resigned and cannot be the seat to act",
                state.seats[state.to_act]
            ),
        ));
    }
    state.settle();
    Ok(Positioned { state, sealed })
}
