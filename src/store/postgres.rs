//! The PostgreSQL backend. Appends are written by `append` (one statement per batch of appends,
//! gathered by writer lanes); reads are plain queries, each naming its game.

mod append;

use std::sync::Arc;
use std::time::Duration;

use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::Row;

use self::append::{Job, Lanes, Written};
use super::rows;
use super::{Append, GameRecord, OutboxRecord, OutboxRow, Result, SeatRecord, SecretRecord, StoreError};
use crate::engine::event::Event;

/// How many connections `connect` opens at most; `from_pool` takes a pool sized by the caller.
const MAX_CONNECTIONS: u32 = 16;

/// Writer lanes per store: enough to keep a few batches committing at once.
const LANES: usize = 4;

#[derive(Clone, Debug)]
pub struct PgStore {
    pool: PgPool,
    /// `None`: each append is its own statement.
    lanes: Option<Arc<Lanes>>,
}

/// Why an append did not move the game on: where the game is now, and the saved answer if the
/// idempotency key has been used meanwhile.
const AFTER_MISS: &str = "
SELECT g.next_seq,
       (SELECT response FROM idempotency i WHERE i.game_id = $1 AND i.seat = $2 AND i.key = $3) AS response
FROM games g WHERE g.game_id = $1";

impl PgStore {
    pub async fn connect(url: &str) -> Result<PgStore> {
        let pool = PgPoolOptions::new()
            .max_connections(MAX_CONNECTIONS)
            .acquire_timeout(Duration::from_secs(10))
            .connect(url)
            .await?;
        Ok(PgStore::from_pool(pool))
    }

    /// A store on a pool the caller configured (size, timeouts). Appends that arrive together
    /// are committed together (see `append.rs`).
    pub fn from_pool(pool: PgPool) -> PgStore {
        PgStore { lanes: Some(Lanes::new(pool.clone(), LANES)), pool }
    }

    /// A store that writes each append in a statement of its own: the same results, one commit
    /// per append. For comparison (the benchmark) and for tests of that path.
    pub fn unbatched(pool: PgPool) -> PgStore {
        PgStore { pool, lanes: None }
    }

    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    pub async fn migrate(&self) -> Result<()> {
        sqlx::migrate!("./migrations/postgres").run(&self.pool).await?;
        Ok(())
    }

    pub async fn create_game(&self, game: &GameRecord, seats: &[SeatRecord], append: &Append) -> Result<()> {
        let rows = rows::append_rows(&game.game_id, 0, append)?;
        let mut tx = self.pool.begin().await?;
        let inserted = sqlx::query(
            "INSERT INTO games (game_id, ruleset, scenario, created_at, next_seq, ended)
             VALUES ($1, $2, $3, $4, 0, false) ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(&game.game_id)
        .bind(&game.ruleset)
        .bind(&game.scenario)
        .bind(&game.created_at)
        .execute(&mut *tx)
        .await?;
        if inserted.rows_affected() == 0 {
            return Err(StoreError::Duplicate(game.game_id.clone()));
        }
        for (position, seat) in seats.iter().enumerate() {
            if seat.game_id != game.game_id {
                return Err(StoreError::Corrupt(format!(
                    "seat {} of game {} given with game {}",
                    seat.seat, seat.game_id, game.game_id
                )));
            }
            sqlx::query(
                "INSERT INTO seats (game_id, seat, position, name, email, token_hash)
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(&game.game_id)
            .bind(&seat.seat)
            .bind(position as i32)
            .bind(&seat.name)
            .bind(&seat.email)
            .bind(&seat.token_hash)
            .execute(&mut *tx)
            .await?;
        }
        let job = Job { game_id: game.game_id.clone(), rows };
        let written = append::write_batch(&mut *tx, &[&job]).await?;
        if !matches!(written.as_slice(), [Written::Moved]) {
            return Err(StoreError::Corrupt(format!("game {} was not at seq 0 when created", game.game_id)));
        }
        tx.commit().await?;
        Ok(())
    }

    pub async fn append(&self, game_id: &str, expected_seq: u64, append: &Append) -> Result<()> {
        let rows = rows::append_rows(game_id, expected_seq, append)?;
        let key = rows.idempotency.as_ref().map(|i| (i.seat.clone(), i.key.clone()));
        let job = Job { game_id: game_id.to_owned(), rows };
        let written = match &self.lanes {
            Some(lanes) => lanes.write(job).await,
            None => append::write_one(&self.pool, &job).await,
        };
        match written {
            Ok(Written::Moved) => Ok(()),
            Ok(Written::Replayed(response)) => {
                Err(StoreError::Replayed { response: rows::json_from_text("a saved response", &response)? })
            }
            Ok(Written::Missed) => Err(self.why_not_moved(game_id, key).await?),
            // A key used by an append that committed after this one's snapshot was taken.
            Err(StoreError::Db(e)) if rows::is_unique_violation(&e) => match self.why_not_moved(game_id, key).await? {
                replayed @ StoreError::Replayed { .. } => Err(replayed),
                _ => Err(StoreError::Db(e)),
            },
            Err(e) => Err(e),
        }
    }

    /// The error for an append that moved nothing: the game is missing, the key was used, or
    /// another append got there first.
    async fn why_not_moved(&self, game_id: &str, key: Option<(String, String)>) -> Result<StoreError> {
        let (seat, key) = key.unzip();
        let row = sqlx::query(AFTER_MISS).bind(game_id).bind(seat).bind(key).fetch_optional(&self.pool).await?;
        let Some(row) = row else {
            return Ok(StoreError::NoGame(game_id.to_owned()));
        };
        if let Some(response) = row.try_get::<Option<String>, _>("response")? {
            return Ok(StoreError::Replayed { response: rows::json_from_text("a saved response", &response)? });
        }
        Ok(StoreError::Stale { current_seq: rows::to_u64(row.try_get("next_seq")?)? })
    }

    pub async fn game(&self, game_id: &str) -> Result<Option<GameRecord>> {
        let row = sqlx::query(
            "SELECT game_id, ruleset, scenario, created_at, next_seq, ended FROM games WHERE game_id = $1",
        )
        .bind(game_id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| {
            Ok(GameRecord {
                game_id: row.try_get("game_id")?,
                ruleset: row.try_get("ruleset")?,
                scenario: row.try_get("scenario")?,
                created_at: row.try_get("created_at")?,
                next_seq: rows::to_u64(row.try_get("next_seq")?)?,
                ended: row.try_get("ended")?,
            })
        })
        .transpose()
    }

    pub async fn events(&self, game_id: &str, from: u64, to: Option<u64>) -> Result<Vec<Event>> {
        self.event_rows(game_id, from, to)
            .await?
            .into_iter()
            .map(|(seq, body)| rows::event_from_text(game_id, seq, &body))
            .collect()
    }

    pub async fn events_json(&self, game_id: &str, from: u64, to: Option<u64>) -> Result<Vec<String>> {
        Ok(self.event_rows(game_id, from, to).await?.into_iter().map(|(_, body)| body).collect())
    }

    async fn event_rows(&self, game_id: &str, from: u64, to: Option<u64>) -> Result<Vec<(i64, String)>> {
        let (from, to) = rows::seq_range(from, to);
        let found = sqlx::query(
            "SELECT seq, body FROM events
             WHERE game_id = $1 AND seq >= $2 AND ($3::bigint IS NULL OR seq < $3)
             ORDER BY seq",
        )
        .bind(game_id)
        .bind(from)
        .bind(to)
        .fetch_all(&self.pool)
        .await?;
        found.iter().map(|row| Ok((row.try_get("seq")?, row.try_get("body")?))).collect()
    }

    pub async fn seats(&self, game_id: &str) -> Result<Vec<SeatRecord>> {
        let found = sqlx::query(
            "SELECT game_id, seat, name, email, token_hash FROM seats WHERE game_id = $1 ORDER BY position",
        )
        .bind(game_id)
        .fetch_all(&self.pool)
        .await?;
        found.iter().map(seat_record).collect()
    }

    pub async fn seat_by_token(&self, game_id: &str, token_hash: &str) -> Result<Option<SeatRecord>> {
        let found = sqlx::query(
            "SELECT game_id, seat, name, email, token_hash FROM seats WHERE game_id = $1 AND token_hash = $2",
        )
        .bind(game_id)
        .bind(token_hash)
        .fetch_optional(&self.pool)
        .await?;
        found.as_ref().map(seat_record).transpose()
    }

    pub async fn secrets(&self, game_id: &str) -> Result<Vec<SecretRecord>> {
        let found = sqlx::query("SELECT game_id, name, seat, value FROM secrets WHERE game_id = $1 ORDER BY name")
            .bind(game_id)
            .fetch_all(&self.pool)
            .await?;
        found
            .iter()
            .map(|row| {
                let name: String = row.try_get("name")?;
                let value: String = row.try_get("value")?;
                Ok(SecretRecord {
                    game_id: row.try_get("game_id")?,
                    value: rows::json_from_text(&format!("secret {name}"), &value)?,
                    name,
                    seat: row.try_get("seat")?,
                })
            })
            .collect()
    }

    pub async fn idempotent(&self, game_id: &str, seat: &str, key: &str) -> Result<Option<serde_json::Value>> {
        let found: Option<String> =
            sqlx::query_scalar("SELECT response FROM idempotency WHERE game_id = $1 AND seat = $2 AND key = $3")
                .bind(game_id)
                .bind(seat)
                .bind(key)
                .fetch_optional(&self.pool)
                .await?;
        found.map(|text| rows::json_from_text("a saved response", &text)).transpose()
    }

    pub async fn outbox(&self, game_id: &str) -> Result<Vec<OutboxRow>> {
        let found =
            sqlx::query("SELECT id, game_id, seq, channel, seat, payload FROM outbox WHERE game_id = $1 ORDER BY id")
                .bind(game_id)
                .fetch_all(&self.pool)
                .await?;
        found
            .iter()
            .map(|row| {
                let id: i64 = row.try_get("id")?;
                let payload: String = row.try_get("payload")?;
                Ok(OutboxRow {
                    id,
                    record: OutboxRecord {
                        game_id: row.try_get("game_id")?,
                        seq: rows::to_u64(row.try_get("seq")?)?,
                        channel: row.try_get("channel")?,
                        seat: row.try_get("seat")?,
                        payload: rows::json_from_text(&format!("outbox row {id}"), &payload)?,
                    },
                })
            })
            .collect()
    }
}

fn seat_record(row: &sqlx::postgres::PgRow) -> Result<SeatRecord> {
    Ok(SeatRecord {
        game_id: row.try_get("game_id")?,
        seat: row.try_get("seat")?,
        name: row.try_get("name")?,
        email: row.try_get("email")?,
        token_hash: row.try_get("token_hash")?,
    })
}
