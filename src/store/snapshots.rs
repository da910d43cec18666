//! Snapshots of folded games (`engine::snapshot`), the same SQL on both backends: a write keeps
//! only the latest snapshot of a game, and a read gives that one. The store neither checks nor
//! reads a snapshot's body; `games::snapshots` decides whether one may be used.

use sqlx::Row;

use crate::engine::snapshot::Snapshot;

use super::rows;
use super::{Result, Store};

/// Inserts a snapshot (a second one at the same seq is the same fold, and is not written).
const INSERT: &str = "INSERT INTO snapshots
    (game_id, seq, event_hash, ruleset, rules_version, state_hash, body)
    VALUES ($1, $2, $3, $4, $5, $6, $7)
    ON CONFLICT (game_id, seq) DO NOTHING";

/// Drops the game's snapshots older than its latest, in the same transaction as `INSERT`.
const PRUNE: &str = "DELETE FROM snapshots
    WHERE game_id = $1 AND seq < (SELECT max(seq) FROM snapshots WHERE game_id = $1)";

/// The game's latest snapshot.
const LATEST: &str = "SELECT seq, event_hash, ruleset, rules_version, state_hash, body
    FROM snapshots WHERE game_id = $1 ORDER BY seq DESC LIMIT 1";

impl Store {
    /// Keeps a snapshot of a game's fold (`engine::snapshot`) in place of the game's older
    /// ones. Not part of any append: a snapshot is written after its events, best effort.
    pub async fn put_snapshot(&self, snapshot: &Snapshot) -> Result<()> {
        let seq = rows::to_i64(snapshot.seq)?;
        db_run!(self, writer pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(INSERT)
                .bind(&snapshot.game_id)
                .bind(seq)
                .bind(&snapshot.event_hash)
                .bind(&snapshot.ruleset)
                .bind(&snapshot.rules_version)
                .bind(&snapshot.state_hash)
                .bind(&snapshot.body)
                .execute(&mut *tx)
                .await?;
            sqlx::query(PRUNE)
                .bind(&snapshot.game_id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
        });
        Ok(())
    }

    /// The game's latest snapshot, unchecked: whether it may be used is the caller's to decide.
    pub async fn latest_snapshot(&self, game_id: &str) -> Result<Option<Snapshot>> {
        db_run!(retried self, reader pool => {
            let found = sqlx::query(LATEST).bind(game_id).fetch_optional(pool).await?;
            found
                .map(|row| {
                    let texts = [
                        row.try_get("event_hash")?,
                        row.try_get("ruleset")?,
                        row.try_get("rules_version")?,
                        row.try_get("state_hash")?,
                        row.try_get("body")?,
                    ];
                    from_columns(game_id, row.try_get("seq")?, texts)
                })
                .transpose()
        })
    }
}

/// A snapshot from the columns `LATEST` reads.
fn from_columns(game_id: &str, seq: i64, texts: [String; 5]) -> Result<Snapshot> {
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
