//! Snapshots of folded games (`engine::snapshot`), the same SQL on both backends: a write keeps
//! only the latest snapshot of a game, and a read gives that one. The store neither checks nor
//! reads a snapshot's body; `games::snapshots` decides whether one may be used.

use crate::engine::snapshot::Snapshot;

use super::rows;
use super::Result;

/// Inserts a snapshot (a second one at the same seq is the same fold, and is not written).
pub(super) const INSERT: &str = "INSERT INTO snapshots
    (game_id, seq, event_hash, ruleset, rules_version, state_hash, body)
    VALUES ($1, $2, $3, $4, $5, $6, $7)
    ON CONFLICT (game_id, seq) DO NOTHING";

/// Drops the game's snapshots older than its latest, in the same transaction as `INSERT`.
pub(super) const PRUNE: &str = "DELETE FROM snapshots
    WHERE game_id = $1 AND seq < (SELECT max(seq) FROM snapshots WHERE game_id = $1)";

/// The game's latest snapshot.
pub(super) const LATEST: &str = "SELECT seq, event_hash, ruleset, rules_version, state_hash, body
    FROM snapshots WHERE game_id = $1 ORDER BY seq DESC LIMIT 1";

/// A snapshot from the columns `LATEST` reads.
pub(super) fn from_columns(game_id: &str, seq: i64, texts: [String; 5]) -> Result<Snapshot> {
    let [event_hash, ruleset, rules_version, state_hash, body] = texts;
    Ok(Snapshot {
        game_id: game_id.to_owned(),
        seq: rows::to_u64(seq)?,
        event_hash,
        ruleset,
        rules_version,
        state_hash,
        body,
    })
}
