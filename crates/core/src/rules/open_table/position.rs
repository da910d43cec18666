//! Positions set by hand at the open table, for `despatch replay` (docs/rules/open-table.md,
//! "Positions (despatch replay)"): the seats as set up, then one statement a line.

use serde_json::json;

use super::dice_expr::DiceExpr;
use super::order::Proposal;
use super::{Note, OpenTable, Order, RolledExpression, State};
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
note <seat> revealed: <text>       a note sealed and revealed
  ... [at <move>] [commitment <hex>] before the colon: the move it was sealed at, its commitment
note <seat> sealed commitment <hex> [at <move>]   a game's sealed note, its text unknown
rolled <dice> <total>: <expression> [(<label>)]   the latest roll's expressions, for the tray
pile <pile> draw: <card> | <card> ...   a deck's or cup's face-down cards, the top first
pile <pile> discard: <card> | ...       its discard pile, the latest last
added <pile> <set>                 a set no longer held aside: added to its pile
hand <seat> <pile> [shown]: <card> | ...   cards of a pile in a hand, after those stated";

const KNOWN: [&str; 9] = [
    "to-act", "moves", "resigned", "proposal", "note", "rolled", "pile", "added", "hand",
];

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
                let note = note(&state, &s, &mut sealed)?;
                state.notes.push(note);
            }
            "rolled" => {
                let rolled = rolled(&s)?;
                state.last_rolls.push(rolled);
            }
            "pile" => pile(&mut state, &s)?,
            "added" => added(&mut state, &s)?,
            "hand" => hand(&mut state, &s)?,
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

/// `note <seat> sealed|revealed [at <move>] [commitment <hex>]: <text>`, or
/// `note <seat> sealed commitment <hex> [at <move>]` (a game's sealed note, its text in the
/// server's secrets): the next note of the table. A note sealed with its text is sealed in the
/// sandbox (`sealed`), under the sandbox's commitment.
fn note(
    state: &State,
    s: &Statement,
    sealed: &mut Vec<(Seat, serde_json::Value)>,
) -> Result<Note, PositionError> {
    const FORM: &str = "write note <seat> sealed: <text>, note <seat> revealed: <text>, \
                        or note <seat> sealed commitment <hex> (each may add at <move> and \
                        commitment <hex> before the colon)";
    let (head, body) = match s.text.split_once(':') {
        Some((head, body)) => (head, Some(body.trim())),
        None => (s.text, None),
    };
    let head: Vec<&str> = head.split_whitespace().collect();
    if head.len() < 3 || body == Some("") {
        return Err(s.error(FORM));
    }
    let owner = seat_of(state, s, head[1])?;
    let revealed = match head[2] {
        "sealed" => false,
        "revealed" => true,
        w => return Err(s.error(format!("'{w}': a note is sealed or revealed"))),
    };
    let (mut at, mut given) = (None, None);
    for pair in head[3..].chunks(2) {
        match pair {
            ["at", n] => {
                let n: u64 = n
                    .parse()
                    .map_err(|_| s.error(format!("'{n}' is not a move number")))?;
                if n > state.moves {
                    return Err(s.error(format!(
                        "a note is sealed by a move made, at most {} (the moves stated so far), not {n}",
                        state.moves
                    )));
                }
                at = Some(n);
            }
            ["commitment", hex] => {
                if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return Err(s.error(format!(
                        "'{hex}' is not a commitment: 64 hex digits, as the game's log shows it"
                    )));
                }
                given = Some(hex.to_ascii_lowercase());
            }
            _ => return Err(s.error(FORM)),
        }
    }
    let number = state.notes.len() + 1;
    let sealed_at_move = at.unwrap_or(state.moves);
    let commitment = match (revealed, body, given) {
        (true, Some(text), given) => {
            let choice = json!({ "note": text });
            given.unwrap_or_else(|| sandbox_commitment(&owner, SealedAt::Revealed(number), &choice))
        }
        (true, None, _) => {
            return Err(s.error("a revealed note states its text: note <seat> revealed: <text>"))
        }
        (false, Some(_), Some(_)) => {
            return Err(s.error(
                "a sealed note gives its text (the sandbox seals it) or a game's commitment \
                 (its text unknown), not both",
            ))
        }
        (false, Some(text), None) => {
            let choice = json!({ "note": text });
            let c = sandbox_commitment(&owner, SealedAt::Position(sealed.len()), &choice);
            sealed.push((owner.clone(), choice));
            c
        }
        (false, None, Some(c)) => c,
        (false, None, None) => return Err(s.error(FORM)),
    };
    Ok(Note {
        number,
        owner,
        commitment,
        sealed_at_move,
        revealed: revealed.then(|| body.unwrap_or_default().to_owned()),
    })
}

/// `rolled <dice> <total>: <expression> [(<label>)]`: one expression of the latest move that
/// rolled, as the dice tray sums it.
fn rolled(s: &Statement) -> Result<RolledExpression, PositionError> {
    const FORM: &str =
        "write rolled <dice> <total>: <expression> [(<label>)], as rolled 3 11: 3d6+1 (attack)";
    let (head, asked) = s.text.split_once(':').ok_or_else(|| s.error(FORM))?;
    let head: Vec<&str> = head.split_whitespace().collect();
    let asked = asked.trim();
    if head.len() != 3 || asked.is_empty() {
        return Err(s.error(FORM));
    }
    let dice: usize = head[1]
        .parse()
        .map_err(|_| s.error(format!("'{}' is not a number of dice", head[1])))?;
    let total: i64 = head[2]
        .parse()
        .map_err(|_| s.error(format!("'{}' is not a total", head[2])))?;
    let expr: DiceExpr = asked
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .parse()
        .map_err(|e: String| s.error(e))?;
    if dice != expr.count as usize {
        return Err(s.error(format!("{expr} rolls {} dice, not {dice}", expr.count)));
    }
    let (low, high) = (
        i64::from(expr.count) + expr.modifier,
        i64::from(expr.count) * i64::from(expr.sides) + expr.modifier,
    );
    if !(low..=high).contains(&total) {
        return Err(s.error(format!("{expr} totals {low} to {high}, not {total}")));
    }
    Ok(RolledExpression {
        asked: asked.to_owned(),
        dice,
        total,
    })
}

/// The pile of this table a statement names.
fn pile_of(state: &State, s: &Statement, word: &str) -> Result<usize, PositionError> {
    state.table.pile_index(word).map_err(|e| s.error(e))
}

/// The cards after the line's colon, `|` between them, each a card of pile `p`.
fn cards_of(state: &State, s: &Statement, p: usize) -> Result<Vec<String>, PositionError> {
    let pile = &state.table.piles[p];
    let text = s.after_colon().ok_or_else(|| {
        s.error(format!(
            "write the cards after a colon, like {} draw: A | B",
            s.text
        ))
    })?;
    if text.is_empty() {
        return Ok(Vec::new());
    }
    text.split('|')
        .map(|c| {
            let c = c.trim();
            if pile.cards.contains_key(c) {
                Ok(c.to_owned())
            } else {
                Err(s.error(format!(
                    "'{c}' is not a card of {} (the components give its cards)",
                    pile.name
                )))
            }
        })
        .collect()
}

/// `pile <pile> draw|discard: <card> | ...`.
fn pile(state: &mut State, s: &Statement) -> Result<(), PositionError> {
    const FORM: &str = "write pile <pile> draw: <card> | ..., or pile <pile> discard: <card> | ...";
    let head = s.before_colon();
    if head.len() != 3 {
        return Err(s.error(FORM));
    }
    let p = pile_of(state, s, head[1])?;
    let cards = cards_of(state, s, p)?;
    let pile = &mut state.table.piles[p];
    match head[2] {
        "draw" => pile.draw = cards,
        "discard" => pile.discard = cards,
        _ => return Err(s.error(FORM)),
    }
    Ok(())
}

/// `added <pile> <set>`.
fn added(state: &mut State, s: &Statement) -> Result<(), PositionError> {
    s.expect_words(3, "added <pile> <set>")?;
    let p = pile_of(state, s, s.words[1])?;
    let pile = &mut state.table.piles[p];
    let i = pile
        .aside
        .iter()
        .position(|a| a.set == s.words[2])
        .ok_or_else(|| s.error(format!("{} holds no set '{}' aside", pile.name, s.words[2])))?;
    pile.aside.remove(i);
    Ok(())
}

/// `hand <seat> <pile> [shown]: <card> | ...`.
fn hand(state: &mut State, s: &Statement) -> Result<(), PositionError> {
    const FORM: &str = "write hand <seat> <pile>: <card> | ..., or hand <seat> <pile> shown: ...";
    let head = s.before_colon();
    let shown = match head.get(3) {
        None => false,
        Some(&"shown") if head.len() == 4 => true,
        _ => return Err(s.error(FORM)),
    };
    if head.len() < 3 {
        return Err(s.error(FORM));
    }
    let seat = seat_of(state, s, head[1])?;
    let p = pile_of(state, s, head[2])?;
    let cards = cards_of(state, s, p)?;
    let name = state.table.piles[p].name.clone();
    let hand = state.table.hand_mut(&seat);
    for card in cards {
        hand.push(super::table::Held {
            card,
            pile: name.clone(),
            shown,
            fresh: false,
        });
    }
    state.table.settle();
    Ok(())
}

/// The table's statements: every pile's two piles (an empty one too, since the set-up's is
/// not), the sets added, and each hand in runs of one pile and one face.
fn write_table(state: &State, out: &mut Vec<String>) {
    for p in &state.table.piles {
        out.push(
            format!("pile {} draw: {}", p.name, p.draw.join(" | "))
                .trim_end()
                .to_owned(),
        );
        out.push(
            format!("pile {} discard: {}", p.name, p.discard.join(" | "))
                .trim_end()
                .to_owned(),
        );
    }
    let sets =
        |p: &super::table::Pile| -> Vec<String> { p.aside.iter().map(|a| a.set.clone()).collect() };
    // The sets the set-up holds aside are the components', which the state's piles were built
    // from: a set no longer aside was added.
    for p in &state.table.piles {
        let aside = sets(p);
        for set in &p.sets {
            if !aside.contains(set) {
                out.push(format!("added {} {set}", p.name));
            }
        }
    }
    for (seat, hand) in &state.table.hands {
        let mut runs: Vec<(&str, bool, Vec<&str>)> = Vec::new();
        for h in hand {
            match runs.last_mut() {
                Some((pile, shown, cards)) if *pile == h.pile && *shown == h.shown => {
                    cards.push(&h.card)
                }
                _ => runs.push((&h.pile, h.shown, vec![&h.card])),
            }
        }
        for (pile, shown, cards) in runs {
            out.push(format!(
                "hand {seat} {pile}{}: {}",
                if shown { " shown" } else { "" },
                cards.join(" | ")
            ));
        }
    }
}

/// `state` as a position: the statements [`onto`] reads back to it, on the table as set up
/// with the same seats and order. `None` if a text the table holds cannot be written on a
/// line (a line break, or a `#`, which starts a comment).
pub fn write(state: &State) -> Option<String> {
    let mut out = Vec::new();
    if state.order == Order::Fixed {
        out.push(format!("to-act {}", state.seats[state.to_act]));
    }
    out.push(format!("moves {}", state.moves));
    if !state.resigned.is_empty() {
        let seats: Vec<&str> = state.resigned.iter().map(Seat::as_str).collect();
        out.push(format!("resigned {}", seats.join(" ")));
    }
    for (seat, proposal) in &state.proposals {
        out.push(match proposal {
            Proposal::Draw => format!("proposal {seat} draw"),
            Proposal::Win { winners } => {
                let w: Vec<&str> = winners.iter().map(Seat::as_str).collect();
                format!("proposal {seat} win {}", w.join(" "))
            }
        });
    }
    for n in &state.notes {
        let head = format!(
            "note {} {} at {} commitment {}",
            n.owner,
            if n.revealed.is_some() {
                "revealed"
            } else {
                "sealed"
            },
            n.sealed_at_move,
            n.commitment
        );
        out.push(match &n.revealed {
            Some(text) => format!("{head}: {}", one_line(text)?),
            None => head,
        });
    }
    for r in &state.last_rolls {
        out.push(format!(
            "rolled {} {}: {}",
            r.dice,
            r.total,
            one_line(&r.asked)?
        ));
    }
    write_table(state, &mut out);
    Some(out.join("\n") + "\n")
}

/// `text` if it can stand on a statement's line as it is.
fn one_line(text: &str) -> Option<&str> {
    (!text.contains(['\n', '\r', '#']) && text.trim() == text && !text.is_empty()).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ruleset::SeatDef;

    const C: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    fn table() -> State {
        let setup = Setup {
            game_id: "t".into(),
            scenario: "default".into(),
            options: json!({}),
            seats: SeatDef::named_by_id(&["alice", "bob"]).unwrap(),
        };
        OpenTable
            .setup(
                &setup,
                &mut crate::engine::dice::hidden_stream(&[0; 32], "t", 0),
            )
            .unwrap()
    }

    fn read(text: &str) -> Result<Positioned<State>, PositionError> {
        onto(table(), text)
    }

    fn refused(text: &str, line: usize, says: &str) {
        let e = read(text).err().expect("refused");
        assert_eq!(e.line, line, "{e}");
        assert!(e.message.contains(says), "{e}");
    }

    #[test]
    fn a_note_states_the_move_it_was_sealed_at_and_its_commitment() {
        let p = read(&format!(
            "moves 5\nnote bob revealed at 2 commitment {C}: the ford\nnote alice sealed at 4: hill"
        ))
        .unwrap();
        let n = &p.state.notes;
        assert_eq!((n[0].sealed_at_move, n[0].commitment.as_str()), (2, C));
        assert_eq!(n[0].revealed.as_deref(), Some("the ford"));
        assert_eq!((n[1].sealed_at_move, n[1].revealed.as_deref()), (4, None));
        assert_eq!(
            p.sealed.len(),
            1,
            "a note sealed with its text is sealed in the sandbox"
        );
    }

    #[test]
    fn a_games_sealed_note_is_stated_by_its_commitment_and_not_sealed_in_the_sandbox() {
        let p = read(&format!("moves 3\nnote alice sealed commitment {C} at 3")).unwrap();
        let n = &p.state.notes[0];
        assert_eq!((n.commitment.as_str(), n.sealed_at_move), (C, 3));
        assert_eq!(n.revealed, None);
        assert!(p.sealed.is_empty());
    }

    #[test]
    fn a_bad_note_is_refused_naming_its_line_and_what_was_wrong() {
        refused(
            "moves 2\nnote alice sealed at 3: hill",
            2,
            "at most 2 (the moves stated so far), not 3",
        );
        refused(
            "note alice revealed commitment abc: hill",
            1,
            "'abc' is not a commitment: 64 hex digits",
        );
        refused(
            &format!("note alice sealed commitment {C}: hill"),
            1,
            "its text (the sandbox seals it) or a game's commitment",
        );
        refused(
            &format!("note alice revealed commitment {C}"),
            1,
            "a revealed note states its text",
        );
        refused(
            "note alice sealed at",
            1,
            "write note <seat> sealed: <text>",
        );
    }

    #[test]
    fn rolled_lines_are_the_latest_rolls_expressions_for_the_dice_tray() {
        let p = read("rolled 3 11: 3d6+1 (attack)\nrolled 1 57: d100").unwrap();
        let r = &p.state.last_rolls;
        assert_eq!(
            (r[0].asked.as_str(), r[0].dice, r[0].total),
            ("3d6+1 (attack)", 3, 11)
        );
        assert_eq!(
            (r[1].asked.as_str(), r[1].dice, r[1].total),
            ("d100", 1, 57)
        );
    }

    #[test]
    fn a_bad_rolled_line_is_refused_naming_its_line_and_what_was_wrong() {
        refused(
            "moves 1\nrolled 2 11: 3d6+1",
            2,
            "3d6+1 rolls 3 dice, not 2",
        );
        refused("rolled 3 20: 3d6+1", 1, "3d6+1 totals 4 to 19, not 20");
        refused("rolled 3 11: pike", 1, "'pike' is not a dice expression");
        refused(
            "rolled 3: 3d6",
            1,
            "write rolled <dice> <total>: <expression>",
        );
    }

    #[test]
    fn a_table_is_written_as_the_statements_that_read_back_to_it() {
        let text = format!(
            "to-act bob\nmoves 4\nresigned alice\nproposal bob win bob\n\
             note alice revealed at 1 commitment {C}: north\nnote bob sealed at 3: south\n\
             rolled 2 7: 2d6"
        );
        let p = read(&text).unwrap();
        let written = write(&p.state).expect("written");
        assert!(
            written.contains("note bob sealed at 3 commitment "),
            "{written}"
        );
        assert_eq!(read(&written).unwrap().state, p.state, "{written}");
    }

    #[test]
    fn a_text_that_cannot_stand_on_a_line_is_not_written() {
        let mut t = table();
        t.last_rolls.push(RolledExpression {
            asked: "2d6 (#1)".into(),
            dice: 2,
            total: 7,
        });
        assert_eq!(write(&t), None);
    }
}
