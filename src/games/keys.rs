//! Idempotency keys, as Stripe's behave. A move sent with a key is answered once: a retry with
//! the same key and the same request gets the saved answer (`replayed: true`) and writes
//! nothing; the same key with a different request (another `expected_seq`, command or
//! `client_entropy`) is refused with `idempotency_mismatch`, since answering it with another
//! move's answer would tell the client a move it never made was recorded; a retry that arrives
//! while the first is still being handled gets `409 in_progress` (try again in a moment), never
//! a `stale_seq` caused by its own first attempt. Keys live `store::KEY_LIFETIME` (24 hours).
//!
//! This module holds the request digest and the set of keys in flight in this process. Across
//! processes the store does the same job: a key is written in the move's own transaction, so a
//! racing duplicate finds it and is answered with the saved answer (`store::Replayed`).

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use serde_json::json;

use super::{CommandInput, Submit};
use crate::engine::canonical::hash_json;
use crate::engine::files::FileRef;

/// The digest a key is saved with: SHA-256 of the canonical JSON of the request's
/// `expected_seq`, `command` and `client_entropy` (not the key itself, nor the seat: keys are
/// per seat already).
pub fn request_hash(submit: &Submit, files: &[FileRef]) -> String {
    let command = match &submit.command {
        CommandInput::Text(text) => json!(text),
        CommandInput::Json(value) => value.clone(),
    };
    let mut request = json!({
        "expected_seq": submit.expected_seq,
        "command": command,
        "client_entropy": submit.client_entropy,
    });
    // A move without files hashes as it did before moves carried any.
    if !files.is_empty() {
        request["files"] = json!(files);
    }
    hash_json(&request)
}

/// The keys whose moves this process is handling now, by (game, seat, key).
#[derive(Clone, Default)]
pub struct InFlight(Arc<Mutex<HashSet<(String, String, String)>>>);

/// A key held while its move is handled; dropping it lets the key be used again.
pub struct Held {
    set: InFlight,
    entry: (String, String, String),
}

impl InFlight {
    /// Holds a key for the length of one request; `None` if another request holds it now.
    pub fn hold(&self, game_id: &str, seat: &str, key: &str) -> Option<Held> {
        let entry = (game_id.to_owned(), seat.to_owned(), key.to_owned());
        let mut held = self.0.lock().unwrap_or_else(|e| e.into_inner());
        held.insert(entry.clone()).then(|| Held {
            set: self.clone(),
            entry,
        })
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut held = self.set.0.lock().unwrap_or_else(|e| e.into_inner());
        held.remove(&self.entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn submit(seq: u64, command: &str, entropy: &str) -> Submit {
        Submit {
            expected_seq: seq,
            command: CommandInput::Text(command.into()),
            client_entropy: entropy.into(),
            idempotency_key: Some("k".into()),
        }
    }

    #[test]
    fn the_hash_covers_seq_command_and_entropy_but_not_the_key() {
        let first = request_hash(&submit(1, "roll 2d6", "e"), &[]);
        let mut same = submit(1, "roll 2d6", "e");
        same.idempotency_key = Some("other".into());
        assert_eq!(request_hash(&same, &[]), first);
        for other in [
            submit(2, "roll 2d6", "e"),
            submit(1, "roll 3d6", "e"),
            submit(1, "roll 2d6", "f"),
        ] {
            assert_ne!(request_hash(&other, &[]), first, "{other:?}");
        }
        let log = FileRef::of("turn.vlog", "application/octet-stream", b"log");
        assert_ne!(
            request_hash(&submit(1, "roll 2d6", "e"), &[log]),
            first,
            "the files a move carries are part of its request"
        );
    }

    #[test]
    fn a_held_key_is_refused_until_released() {
        let keys = InFlight::default();
        let held = keys.hold("g", "a", "k").expect("a free key");
        assert!(keys.hold("g", "a", "k").is_none());
        assert!(keys.hold("g", "b", "k").is_some(), "keys are per seat");
        drop(held);
        assert!(keys.hold("g", "a", "k").is_some());
    }
}
