//! What both backends share: checking that an append fits the log it is written to, and turning
//! records into the column values the tables hold (and back). Keeping this in one place means
//! PostgreSQL and SQLite store byte-identical text for the same append.

use serde_json::Value;

use super::sealing::{RowId, SecretKey};
use super::{Append, GameRecord, Result, StoreError, KEY_LIFETIME};
use crate::engine::event::{kind, timestamp, Event};

/// One event row: the exact JSON text plus the columns queries and checks read without parsing.
pub(super) struct EventRow {
    pub seq: i64,
    pub kind: String,
    pub seat: String,
    pub hash: String,
    pub prev_hash: String,
    pub body: String,
}

pub(super) struct SecretRow {
    pub name: String,
    pub seat: Option<String>,
    pub value: String,
}

pub(super) struct OutboxInsert {
    pub seq: i64,
    pub channel: String,
    pub seat: Option<String>,
    pub payload: String,
    /// Written only when no row of its channel waits for its seat (`Append::once_per_seat`).
    pub once: bool,
    /// Seconds after the append the row falls due (`OutboxRecord::delay`).
    pub delay: f64,
}

pub(super) struct IdempotencyRow {
    pub seat: String,
    pub key: String,
    pub request_hash: String,
    /// When the key was used (RFC 3339, as `timestamp` writes it).
    pub used_at: String,
    /// Keys used at or before this instant have expired (`key_cutoff`).
    pub since: String,
    pub response: String,
}

/// A `games` row as read: a `GameRecord` once its next seq is checked.
#[derive(sqlx::FromRow)]
pub(super) struct GameRow {
    game_id: String,
    ruleset: String,
    scenario: String,
    created_at: String,
    next_seq: i64,
    ended: bool,
    name: String,
}

impl GameRow {
    pub(super) fn record(self) -> Result<GameRecord> {
        Ok(GameRecord {
            game_id: stored_id(&self.game_id)?,
            ruleset: self.ruleset,
            scenario: self.scenario,
            created_at: self.created_at,
            next_seq: to_u64(self.next_seq)?,
            ended: self.ended,
            name: self.name,
        })
    }
}

/// A `secrets` row as read, its value still sealed.
#[derive(sqlx::FromRow)]
pub(super) struct StoredSecret {
    pub name: String,
    pub seat: Option<String>,
    pub value: String,
}

/// An append checked against its game and expected seq, ready to be written.
pub(super) struct AppendRows {
    pub expected_seq: i64,
    /// `next_seq` of the game once the append is written.
    pub next_seq: i64,
    /// Whether one of the events ends the game.
    pub ends: bool,
    pub events: Vec<EventRow>,
    pub secrets: Vec<SecretRow>,
    pub outbox: Vec<OutboxInsert>,
    pub idempotency: Option<IdempotencyRow>,
}

/// Checks that every event, secret and outbox row of `append` belongs to `game_id` and that the
/// events run on without a gap from `expected_seq`, and serialises them, sealing each secret
/// with `key` (`sealing`). A mismatch is a bug in the caller, refused before anything is
/// written: a gap in the log would break its hash chain.
pub(super) fn append_rows(
    game_id: &str,
    expected_seq: u64,
    append: &Append,
    key: Option<&SecretKey>,
) -> Result<AppendRows> {
    let refuse =
        |why: String| StoreError::Corrupt(format!("append to game {game_id} refused: {why}"));
    let expected = to_i64(expected_seq)?;
    let mut events = Vec::with_capacity(append.events.len());
    for (offset, event) in append.events.iter().enumerate() {
        let want = expected_seq + offset as u64;
        if event.game_id != game_id {
            return Err(refuse(format!(
                "event {} belongs to game {}",
                event.seq, event.game_id
            )));
        }
        if event.seq != want {
            return Err(refuse(format!(
                "event at position {offset} has seq {}, expected {want}",
                event.seq
            )));
        }
        events.push(EventRow {
            seq: to_i64(event.seq)?,
            kind: event.kind.clone(),
            seat: event.seat.clone(),
            hash: event.hash.clone(),
            prev_hash: event.prev_hash.clone(),
            body: to_text(event)?,
        });
    }
    let mut secrets = Vec::with_capacity(append.secrets.len());
    for secret in &append.secrets {
        if secret.game_id != game_id {
            return Err(refuse(format!(
                "secret {} belongs to game {}",
                secret.name, secret.game_id
            )));
        }
        let row = RowId::Secret {
            game_id,
            name: &secret.name,
            seat: secret.seat.as_deref(),
        };
        secrets.push(SecretRow {
            name: secret.name.clone(),
            seat: secret.seat.clone(),
            value: key.ok_or_else(no_key)?.seal(row, &to_text(&secret.value)?),
        });
    }
    let mut outbox = Vec::with_capacity(append.outbox.len());
    for row in &append.outbox {
        if row.game_id != game_id {
            return Err(refuse(format!(
                "an outbox row belongs to game {}",
                row.game_id
            )));
        }
        outbox.push(OutboxInsert {
            seq: to_i64(row.seq)?,
            channel: row.channel.clone(),
            seat: row.seat.clone(),
            payload: to_text(&row.payload)?,
            once: row.seat.is_some() && append.once_per_seat.contains(&row.channel),
            delay: row.delay.as_secs_f64(),
        });
    }
    let idempotency = match &append.idempotency {
        Some(i) => Some(IdempotencyRow {
            seat: i.seat.clone(),
            key: i.key.clone(),
            request_hash: i.request_hash.clone(),
            used_at: timestamp(i.used_at),
            since: key_cutoff(i.used_at),
            response: to_text(&i.response)?,
        }),
        None => None,
    };
    Ok(AppendRows {
        expected_seq: expected,
        next_seq: expected + events.len() as i64,
        ends: append.events.iter().any(|e| e.kind == kind::GAME_ENDED),
        events,
        secrets,
        outbox,
        idempotency,
    })
}

/// The error for a store given no key, asked to seal or open a secret.
pub(super) fn no_key() -> StoreError {
    StoreError::Sealing(
        "this store has no secret key to seal or open secrets with (Store::with_key)".into(),
    )
}

/// Opens a stored secret of `game_id` and parses its JSON.
pub(super) fn open_secret(
    key: Option<&SecretKey>,
    game_id: &str,
    name: &str,
    seat: Option<&str>,
    stored: &str,
) -> Result<Value> {
    let row = RowId::Secret {
        game_id,
        name,
        seat,
    };
    let plain = key.ok_or_else(no_key)?.open(row, stored)?;
    json_from_text(&row.to_string(), &plain)
}

pub(super) fn to_i64(n: u64) -> Result<i64> {
    i64::try_from(n)
        .map_err(|_| StoreError::Corrupt(format!("seq {n} is beyond what the store can hold")))
}

pub(super) fn to_u64(n: i64) -> Result<u64> {
    u64::try_from(n).map_err(|_| StoreError::Corrupt(format!("negative seq {n} in the store")))
}

fn to_text<T: serde::Serialize>(value: &T) -> Result<String> {
    serde_json::to_string(value)
        .map_err(|e| StoreError::Corrupt(format!("cannot serialise for storage: {e}")))
}

/// Parses a stored event, which must be the one the row says it is.
pub(super) fn event_from_text(game_id: &str, seq: i64, body: &str) -> Result<Event> {
    let event: Event = serde_json::from_str(body).map_err(|e| {
        StoreError::Corrupt(format!(
            "event {seq} of game {game_id} is not a valid event: {e}"
        ))
    })?;
    if event.game_id != game_id || i64::try_from(event.seq).ok() != Some(seq) {
        return Err(StoreError::Corrupt(format!(
            "the row for event {seq} of game {game_id} holds event {} of game {}",
            event.seq, event.game_id
        )));
    }
    Ok(event)
}

pub(super) fn json_from_text(what: &str, text: &str) -> Result<Value> {
    serde_json::from_str(text)
        .map_err(|e| StoreError::Corrupt(format!("{what} is not valid JSON: {e}")))
}

/// The instant before which (inclusive) idempotency keys have expired, as of `now`: RFC 3339
/// text with milliseconds, which both backends compare correctly (SQLite as text).
pub(super) fn key_cutoff(now: chrono::DateTime<chrono::Utc>) -> String {
    let lifetime = chrono::Duration::from_std(KEY_LIFETIME).expect("a day fits");
    timestamp(now - lifetime)
}

/// The answer to a request whose idempotency key was used before: the saved response if the
/// saved request hash is the same (or absent: keys saved before hashes were kept), else
/// `KeyReused`.
pub(super) fn used_key(
    saved_hash: Option<&str>,
    response: &str,
    request_hash: &str,
) -> Result<StoreError> {
    if saved_hash.is_some_and(|saved| saved != request_hash) {
        return Ok(StoreError::KeyReused);
    }
    Ok(StoreError::Replayed {
        response: json_from_text("a saved response", response)?,
    })
}

/// Whether `err` is a unique-constraint violation (a key already taken).
pub(super) fn is_unique_violation(err: &sqlx::Error) -> bool {
    err.as_database_error()
        .is_some_and(|e| e.is_unique_violation())
}

/// A seq range as the tables hold it: a bound past what a seq can be means no bound.
pub(super) fn seq_range(from: u64, to: Option<u64>) -> (i64, Option<i64>) {
    (
        i64::try_from(from).unwrap_or(i64::MAX),
        to.and_then(|to| i64::try_from(to).ok()),
    )
}

/// A game id read back from a row: valid, or the row is corrupt (ids are checked on the way in).
pub(super) fn stored_id(text: &str) -> Result<super::GameId> {
    super::GameId::parse(text).map_err(|e| StoreError::Corrupt(e.to_string()))
}
