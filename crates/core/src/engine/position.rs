//! Positions set by hand, for `despatch replay`: a ruleset reads a short text, one statement a
//! line, onto the set-up of a scenario, and checks the result as it checks a scenario. Each
//! ruleset documents its statements in docs/rules/<game>.md, "Positions (despatch replay)".
//!
//! The common shape, which every ruleset's format follows: `#` starts a comment, blank lines
//! are skipped, a line is a keyword and its words; an error names the line.

use serde_json::Value;

use super::canonical::sha256;
use super::ruleset::Seat;
use super::sealed::SealedChoice;

/// A position that does not read, or is not a legal position of the ruleset.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct PositionError {
    /// The line of the position text, from 1; 0 when the error is of the whole position.
    pub line: usize,
    pub message: String,
}

impl PositionError {
    pub fn new(line: usize, message: impl Into<String>) -> Self {
        PositionError {
            line,
            message: message.into(),
        }
    }

    /// The same error, its line counted from `first` (the line of a script that holds the
    /// position's first line).
    pub fn shifted(self, first: usize) -> Self {
        PositionError {
            line: if self.line == 0 {
                0
            } else {
                self.line + first - 1
            },
            message: self.message,
        }
    }
}

/// A position as a ruleset read it: the state, and the sealed choices it holds (a note sealed
/// at the open table), each under the commitment [`sandbox_commitment`] gives for its seat and
/// its place in this list (`SealedAt::Position`), so that the sandbox can open them when the
/// rules ask.
pub struct Positioned<S> {
    pub state: S,
    pub sealed: Vec<(Seat, Value)>,
}

impl<S> Positioned<S> {
    pub fn new(state: S) -> Self {
        Positioned {
            state,
            sealed: Vec::new(),
        }
    }
}

/// Where a choice was sealed in the sandbox: the position's `n`th sealed choice (from 0, in
/// the order of [`Positioned::sealed`]), a choice the position states already revealed (its
/// own number), or the choice of script step `n` (from 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SealedAt {
    Position(usize),
    Revealed(usize),
    Step(usize),
}

/// The commitment of a choice sealed in the sandbox. Nothing in a replay is secret or proven,
/// so the salt is not random, but it is the seat's and the choice's own, as a live game's is:
/// two seats that seal the same choice (`plan none`) make two commitments, not one.
pub fn sandbox_commitment(seat: &Seat, at: SealedAt, choice: &Value) -> String {
    let (kind, n) = match at {
        SealedAt::Position(n) => ("position", n),
        SealedAt::Revealed(n) => ("revealed", n),
        SealedAt::Step(n) => ("step", n),
    };
    let salt = sha256(format!("despatch sandbox salt\n{seat}\n{kind} {n}").as_bytes());
    SealedChoice::with_salt(choice.clone(), &salt[..16]).commitment
}

/// One statement of a position: its line number and its words.
#[derive(Debug, Clone)]
pub struct Statement<'a> {
    pub line: usize,
    /// The whole line, comment and indentation removed.
    pub text: &'a str,
    pub words: Vec<&'a str>,
}

impl<'a> Statement<'a> {
    /// An error of this line.
    pub fn error(&self, message: impl Into<String>) -> PositionError {
        PositionError::new(self.line, message)
    }

    pub fn keyword(&self) -> &'a str {
        self.words[0]
    }

    /// The words before the line's `:` (all of them without one).
    pub fn before_colon(&self) -> Vec<&'a str> {
        self.text
            .split_once(':')
            .map_or(self.text, |(head, _)| head)
            .split_whitespace()
            .collect()
    }

    /// The text after a `:` on the line (`hand alice: a b c` gives `a b c`).
    pub fn after_colon(&self) -> Option<&'a str> {
        self.text.split_once(':').map(|(_, rest)| rest.trim())
    }

    /// Word `i`, or an error saying what was expected there.
    pub fn word(&self, i: usize, what: &str) -> Result<&'a str, PositionError> {
        self.words
            .get(i)
            .copied()
            .ok_or_else(|| self.error(format!("'{}' needs {what}", self.keyword())))
    }

    /// Word `i` as a number.
    pub fn number<T: std::str::FromStr>(&self, i: usize, what: &str) -> Result<T, PositionError> {
        let w = self.word(i, what)?;
        w.parse()
            .map_err(|_| self.error(format!("'{w}' is not {what}")))
    }

    /// Exactly `n` words, keyword included.
    pub fn expect_words(&self, n: usize, form: &str) -> Result<(), PositionError> {
        if self.words.len() == n {
            Ok(())
        } else {
            Err(self.error(format!("write {form}")))
        }
    }
}

/// The statements of a position text, comments and blank lines left out.
pub fn statements(text: &str) -> Vec<Statement<'_>> {
    text.lines()
        .enumerate()
        .filter_map(|(n, raw)| {
            let line = raw.split_once('#').map_or(raw, |(l, _)| l).trim();
            (!line.is_empty()).then(|| Statement {
                line: n + 1,
                text: line,
                words: line.split_whitespace().collect(),
            })
        })
        .collect()
}

/// `yes`/`no`, `on`/`off`, `true`/`false`.
pub fn flag(s: &Statement, i: usize) -> Result<bool, PositionError> {
    match s.word(i, "yes or no")? {
        "yes" | "on" | "true" => Ok(true),
        "no" | "off" | "false" => Ok(false),
        w => Err(s.error(format!("'{w}' is not yes or no"))),
    }
}

/// The error for an unknown keyword, listing the ones the ruleset knows.
pub fn unknown(s: &Statement, known: &[&str]) -> PositionError {
    s.error(format!(
        "unknown statement '{}'; a position knows: {}",
        s.keyword(),
        known.join(", ")
    ))
}
