//! The export: JSON Lines, a header and then every event as stored (DESIGN.md, "Wire formats").

use serde::{Deserialize, Serialize};

use super::event::Event;

pub const FORMAT: &str = "despatch-log";
pub const VERSION: u32 = 1;

/// Line 1 of an export.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub format: String,
    pub version: u32,
    pub game_id: String,
    pub ruleset: String,
    pub ruleset_version: String,
    pub exported_at: String,
    /// True once the game is over: every secret is in the log and everything can be checked.
    pub complete: bool,
    /// Whose view the export was made for while the game runs (`spectator` or a seat).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub redacted_for: Option<String>,
    pub events: u64,
}

/// Writes an export.
pub fn write(header: &Header, events: &[Event]) -> String {
    let mut out = serde_json::to_string(header).expect("serialisable");
    out.push('\n');
    for e in events {
        out.push_str(&serde_json::to_string(e).expect("serialisable"));
        out.push('\n');
    }
    out
}

/// Why an export cannot be read at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    #[error("the file is empty")]
    Empty,
    #[error("line 1 is not a despatch-log header: {0}")]
    Header(String),
    #[error("line {line} is not an event: {problem}")]
    Event { line: usize, problem: String },
}

/// Reads an export into its header and events. Checks nothing beyond the shape.
pub fn read(text: &str) -> Result<(Header, Vec<Event>), ReadError> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (_, first) = lines.next().ok_or(ReadError::Empty)?;
    let header: Header =
        serde_json::from_str(first).map_err(|e| ReadError::Header(e.to_string()))?;
    if header.format != FORMAT {
        return Err(ReadError::Header(format!(
            "format is '{}', not '{FORMAT}'",
            header.format
        )));
    }
    let events = lines
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|e| ReadError::Event {
                line: i + 1,
                problem: e.to_string(),
            })
        })
        .collect::<Result<Vec<Event>, _>>()?;
    Ok((header, events))
}
