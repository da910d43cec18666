//! The event envelope and the hash chain that links a game's events (DESIGN.md, "Events").
//!
//! `hash` is SHA-256 of the RFC 8785 canonical JSON of the envelope without its `hash` field;
//! `prev_hash` of event 0 is 64 zeros.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::canonical::hash_json;
use super::dice::Roll;

/// `prev_hash` of event 0.
pub const GENESIS_HASH: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// The seat of events that no player submitted.
pub const SYSTEM_SEAT: &str = "system";

/// The kinds of event the engine knows. Rulesets never define their own: a seat's move is a
/// `Command` whose payload carries the ruleset's command.
pub mod kind {
    pub const GAME_CREATED: &str = "GameCreated";
    pub const COMMAND: &str = "Command";
    pub const REVEALED: &str = "Revealed";
    pub const TIMEOUT: &str = "Timeout";
    pub const RESIGNED: &str = "Resigned";
    pub const DICE_CHAIN_COMMITTED: &str = "DiceChainCommitted";
    pub const GAME_ENDED: &str = "GameEnded";
    /// The game's clock spoke: a reminder, a missed deadline, a vacation, a pause. The seat is
    /// `system`; `payload.clock` names what happened. The fold records it and the ruleset never
    /// sees it: the clock changes who is told what and when, never the state of play (a missed
    /// deadline that passes or forfeits is followed by its own `Timeout` or `Resigned`).
    pub const CLOCK: &str = "Clock";
}

/// The public dice of one event: which link of which chain keyed them, and every die in draw
/// order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceRecord {
    pub chain: u32,
    pub index: u32,
    pub link: String,
    pub client_entropy: String,
    pub rolls: Vec<Roll>,
}

/// One event as stored and exported.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub game_id: String,
    pub seq: u64,
    pub kind: String,
    pub seat: String,
    pub payload: Value,
    pub recorded_at: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub dice: Option<DiceRecord>,
    pub prev_hash: String,
    pub hash: String,
}

/// The envelope without its hash: what the hash is computed over.
#[derive(Serialize)]
struct Unhashed<'a> {
    game_id: &'a str,
    seq: u64,
    kind: &'a str,
    seat: &'a str,
    payload: &'a Value,
    recorded_at: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    dice: Option<&'a DiceRecord>,
    prev_hash: &'a str,
}

impl Event {
    /// Builds an event and computes its hash.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        game_id: &str,
        seq: u64,
        kind: &str,
        seat: &str,
        payload: Value,
        recorded_at: String,
        dice: Option<DiceRecord>,
        prev_hash: &str,
    ) -> Self {
        let mut event = Event {
            game_id: game_id.to_owned(),
            seq,
            kind: kind.to_owned(),
            seat: seat.to_owned(),
            payload,
            recorded_at,
            dice,
            prev_hash: prev_hash.to_owned(),
            hash: String::new(),
        };
        event.hash = event.compute_hash();
        event
    }

    /// `count` copies of this event's kind, seat, payload and time (without dice) after it, each
    /// with the next seq and chained to the one before by hash: how a test or a benchmark grows
    /// a long game quickly, with the rows a player's moves of that kind write.
    pub fn copies_after(&self, count: u64) -> Vec<Event> {
        let mut out: Vec<Event> = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let prev = out.last().unwrap_or(self);
            let next = Event::new(
                &self.game_id,
                prev.seq + 1,
                &self.kind,
                &self.seat,
                self.payload.clone(),
                self.recorded_at.clone(),
                None,
                &prev.hash,
            );
            out.push(next);
        }
        out
    }

    /// SHA-256 of the canonical JSON of every field but `hash`.
    pub fn compute_hash(&self) -> String {
        hash_json(&Unhashed {
            game_id: &self.game_id,
            seq: self.seq,
            kind: &self.kind,
            seat: &self.seat,
            payload: &self.payload,
            recorded_at: &self.recorded_at,
            dice: self.dice.as_ref(),
            prev_hash: &self.prev_hash,
        })
    }
}

/// The time format of `recorded_at`: RFC 3339, UTC, milliseconds.
pub fn timestamp(at: chrono::DateTime<chrono::Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}
