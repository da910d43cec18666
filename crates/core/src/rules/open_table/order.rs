//! The open table's order language: free text, one clause per line (or after `;`).
//!
//! ```text
//! Advance the Guards to the ridge
//! roll 2d6 to hit; roll d100 morale
//! seal The reserve is behind the wood
//! reveal 2
//! next bob
//! result win alice        (or: result draw)
//! ```
//! A line that starts with a keyword is that clause; any other line is the move's text. `;`
//! starts a new clause only where a keyword follows it, so prose keeps its semicolons. `say`
//! marks a line as text even when it starts with a keyword. At a table with components (rules
//! version 3) the card operations are clauses too (`cards.rs`: `draw 2 from strategy`,
//! `play Ambush` …); anywhere else a line starting with their words is text.

use serde::{Deserialize, Serialize};

use super::cards::{self, CardOp};
use super::dice_expr::DiceExpr;
use crate::engine::ruleset::{RuleError, Seat};

/// One roll asked for in a move, with an optional label.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollRequest {
    pub dice: DiceExpr,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub label: String,
}

/// A result a seat proposes; the game ends when every seat still playing proposes the same.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum Proposal {
    Win { winners: Vec<Seat> },
    Draw,
}

/// A move at the open table.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Move {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rolls: Vec<RollRequest>,
    /// A hidden note to seal. Only its commitment goes into the log; the public command records
    /// that a note was sealed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seal: Option<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub sealed_note: bool,
    /// Notes of this seat to reveal, by number.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reveal: Vec<usize>,
    /// The seat to act next (fixed order), instead of the next in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<Seat>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Proposal>,
    /// Card operations, carried out in order (rules version 3, a table with components).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cards: Vec<CardOp>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

const KEYWORDS: [&str; 6] = ["roll", "seal", "reveal", "next", "result", "say"];

fn keyword_of(clause: &str, with_cards: bool) -> Option<(&'static str, &str)> {
    let clause = clause.trim_start();
    let card_words: &[&'static str] = if with_cards { &cards::KEYWORDS } else { &[] };
    KEYWORDS.iter().chain(card_words).find_map(|k| {
        let rest = clause.strip_prefix(k)?;
        if rest.is_empty() {
            Some((*k, ""))
        } else if rest.starts_with(char::is_whitespace) {
            Some((*k, rest.trim()))
        } else {
            None
        }
    })
}

/// Splits a line into clauses at each `;` that a keyword follows.
fn clauses(line: &str, with_cards: bool) -> Vec<&str> {
    if keyword_of(line, with_cards).is_some_and(|(k, _)| k == "say" || k == "seal") {
        return vec![line];
    }
    let mut out = Vec::new();
    let mut start = 0;
    for (i, _) in line.match_indices(';') {
        if keyword_of(&line[i + 1..], with_cards).is_some() {
            out.push(&line[start..i]);
            start = i + 1;
            if keyword_of(&line[start..], with_cards)
                .is_some_and(|(k, _)| k == "say" || k == "seal")
            {
                break;
            }
        }
    }
    out.push(&line[start..]);
    out
}

fn error(message: impl Into<String>) -> RuleError {
    RuleError::new("open table: order language", message)
}

/// Reads a move at a table without components.
pub fn parse(text: &str) -> Result<Move, RuleError> {
    parse_with(text, false)
}

/// Reads a move; `with_cards`: the card operations are clauses (a table with components).
pub fn parse_with(text: &str, with_cards: bool) -> Result<Move, RuleError> {
    let mut m = Move::default();
    let mut prose = Vec::new();
    for (n, line) in text.lines().enumerate() {
        for clause in clauses(line, with_cards) {
            let at = || format!("line {}", n + 1);
            match keyword_of(clause, with_cards) {
                None => prose.push(clause.trim().to_owned()),
                Some(("say", rest)) => prose.push(rest.to_owned()),
                Some(("roll", rest)) => {
                    let (expr, label) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                    if expr.is_empty() {
                        return Err(error(format!("{}: 'roll' needs dice, like roll 2d6", at())));
                    }
                    let dice = expr
                        .parse::<DiceExpr>()
                        .map_err(|e| error(format!("{}: {e}", at())))?;
                    m.rolls.push(RollRequest {
                        dice,
                        label: label.trim().to_owned(),
                    });
                }
                Some(("seal", rest)) => {
                    if rest.is_empty() {
                        return Err(error(format!("{}: 'seal' needs the note to seal", at())));
                    }
                    if m.seal.is_some() {
                        return Err(error(format!("{}: seal one note per move", at())));
                    }
                    m.seal = Some(rest.to_owned());
                }
                Some(("reveal", rest)) => {
                    let number = rest.trim_start_matches('#').parse::<usize>().map_err(|_| {
                        error(format!(
                            "{}: 'reveal' takes a note number, like reveal 2 (not '{rest}')",
                            at()
                        ))
                    })?;
                    m.reveal.push(number);
                }
                Some(("next", rest)) => {
                    let seat = Seat::parse(rest).map_err(|e| error(format!("{}: {e}", at())))?;
                    m.next = Some(seat);
                }
                Some(("result", rest)) => {
                    m.result =
                        Some(parse_result(rest).map_err(|e| error(format!("{}: {e}", at())))?)
                }
                Some((keyword, rest)) => m.cards.push(
                    cards::parse(keyword, rest).map_err(|e| error(format!("{}: {e}", at())))?,
                ),
            }
        }
    }
    while prose.last().is_some_and(|l| l.is_empty()) {
        prose.pop();
    }
    while prose.first().is_some_and(|l| l.is_empty()) {
        prose.remove(0);
    }
    m.text = prose.join("\n");
    Ok(m)
}

fn parse_result(rest: &str) -> Result<Proposal, String> {
    let mut words = rest.split_whitespace();
    match words.next() {
        Some("draw") if words.next().is_none() => Ok(Proposal::Draw),
        Some("win") => {
            let mut winners = words.map(Seat::parse).collect::<Result<Vec<_>, _>>()?;
            if winners.is_empty() {
                return Err("'result win' names the winning seats, like result win alice".into());
            }
            winners.sort();
            winners.dedup();
            Ok(Proposal::Win { winners })
        }
        _ => Err(format!(
            "write 'result win <seat> …' or 'result draw', not 'result {rest}'"
        )),
    }
}

/// Writes a move in the order language; [`parse`] reads it back to the same move.
pub fn describe(m: &Move) -> String {
    let mut lines = Vec::new();
    for line in m.text.lines() {
        let needs_say = keyword_of(line, true).is_some()
            || clauses(line, true).len() > 1
            || line.trim() != line
            || line.is_empty();
        lines.push(if needs_say {
            format!("say {line}")
        } else {
            line.to_owned()
        });
    }
    for op in &m.cards {
        lines.push(cards::describe(op));
    }
    for r in &m.rolls {
        lines.push(if r.label.is_empty() {
            format!("roll {}", r.dice)
        } else {
            format!("roll {} {}", r.dice, r.label)
        });
    }
    if let Some(note) = &m.seal {
        lines.push(format!("seal {note}"));
    } else if m.sealed_note {
        lines.push("seal (a sealed note)".into());
    }
    for n in &m.reveal {
        lines.push(format!("reveal {n}"));
    }
    if let Some(seat) = &m.next {
        lines.push(format!("next {seat}"));
    }
    match &m.result {
        Some(Proposal::Draw) => lines.push("result draw".into()),
        Some(Proposal::Win { winners }) => {
            let names: Vec<_> = winners.iter().map(Seat::as_str).collect();
            lines.push(format!("result win {}", names.join(" ")));
        }
        None => {}
    }
    lines.join("\n")
}
