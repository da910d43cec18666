//! Files carried by a move (docs/files.md): a VASSAL log, a save, an image, a PDF.
//!
//! A `Command` event's payload lists them beside its command, as `files`: an array of
//! `{name, size, media_type, sha256}`, omitted when the move carries none, so that every event
//! written before files existed hashes as it did. The list is inside the payload, so the hash
//! chain covers each file's name, size, type and SHA-256; the bytes are kept outside the log,
//! content-addressed by their SHA-256, and checked against it (`check`). The rules never see a
//! file: the fold reads only `command`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::canonical::sha256_hex;
use super::event::{kind, Event};
use super::verify::Finding;

/// One file as the log lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileRef {
    /// The file's base name, as the player gave it (never a path).
    pub name: String,
    /// Its length in bytes.
    pub size: u64,
    /// Its media type, `type/subtype`.
    pub media_type: String,
    /// SHA-256 of its bytes, 64 lowercase hex digits: where it is kept.
    pub sha256: String,
}

impl FileRef {
    /// The entry for `bytes` named `name` of type `media_type`.
    pub fn of(name: &str, media_type: &str, bytes: &[u8]) -> FileRef {
        FileRef {
            name: name.to_owned(),
            size: bytes.len() as u64,
            media_type: media_type.to_owned(),
            sha256: sha256_hex(bytes),
        }
    }
}

/// A file listed by the event at `seq`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Listed {
    pub seq: u64,
    pub file: FileRef,
}

/// Whether `s` is a SHA-256 as the log writes it: 64 lowercase hex digits.
pub fn is_sha256(s: &str) -> bool {
    s.len() == 64
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The files one event lists: none for an event of another kind or a move without files; a
/// `files` that is not a list of well-formed entries is an error naming the entry.
pub fn of_event(event: &Event) -> Result<Vec<FileRef>, String> {
    let Some(files) = event.payload.get("files") else {
        return Ok(Vec::new());
    };
    if event.kind != kind::COMMAND {
        return Err(format!(
            "a {} event lists files; only a Command may",
            event.kind
        ));
    }
    let Value::Array(entries) = files else {
        return Err("files is not a list".into());
    };
    entries
        .iter()
        .enumerate()
        .map(|(n, entry)| {
            let file: FileRef = serde_json::from_value(entry.clone())
                .map_err(|e| format!("file {} of the move is malformed: {e}", n + 1))?;
            if !is_sha256(&file.sha256) {
                return Err(format!(
                    "file {} ({}) has a sha256 that is not 64 lowercase hex digits",
                    n + 1,
                    file.name
                ));
            }
            Ok(file)
        })
        .collect()
}

/// Every file the log lists, in order, with the seq of the move that carried it.
pub fn listed(events: &[Event]) -> Result<Vec<Listed>, Finding> {
    let mut out = Vec::new();
    for event in events {
        let files = of_event(event).map_err(|problem| Finding {
            seq: event.seq,
            problem,
        })?;
        out.extend(files.into_iter().map(|file| Listed {
            seq: event.seq,
            file,
        }));
    }
    Ok(out)
}

/// Checks every file the log lists against the bytes `bytes_of` finds for its SHA-256: a file
/// missing, of another length, or whose bytes hash to something else is a finding naming the
/// seq and the file. Returns how many files were checked, or the first finding.
pub fn check(
    events: &[Event],
    bytes_of: &mut dyn FnMut(&str) -> Option<Vec<u8>>,
) -> Result<usize, Finding> {
    let listed = listed(events)?;
    for Listed { seq, file } in &listed {
        let fail = |problem: String| Finding { seq: *seq, problem };
        let Some(bytes) = bytes_of(&file.sha256) else {
            return Err(fail(format!(
                "file {} ({}) is missing: no file named {} was given",
                file.name, file.sha256, file.sha256
            )));
        };
        let actual = sha256_hex(&bytes);
        if actual != file.sha256 || bytes.len() as u64 != file.size {
            return Err(fail(format!(
                "file {} does not match the log: the log lists {} bytes with SHA-256 {}, the file given holds {} bytes with SHA-256 {actual}",
                file.name,
                file.size,
                file.sha256,
                bytes.len()
            )));
        }
    }
    Ok(listed.len())
}
