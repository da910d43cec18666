//! The store: the event log, seats, secrets, idempotency keys and the outbox, behind one
//! interface with two backends — PostgreSQL (production) and SQLite (the embedded default,
//! used when no `DATABASE_URL` is set). One contract test suite runs against both
//! (`tests/service/store_contract.rs`). The store holds no game logic.
//!
//! Every table carries `game_id` and every query names it, so the data shards by game.
//! Events are stored as the exact JSON text that was hashed; nothing rewrites them.

/// Runs a block against whichever backend is live, after vaultwarden's `db_run!`: the block is
/// written once and compiled once per backend, so the same SQL serves PostgreSQL and SQLite.
/// The one dispatch idiom of the store:
///
/// - `db_run!(store, reader pool => body)`: `pool` is the pool reads use (PostgreSQL's pool,
///   SQLite's read pool).
/// - `db_run!(store, writer pool => body)`: `pool` is the pool writes queue for (PostgreSQL's
///   pool, SQLite's one writer), for statements that write or must see the latest write.
/// - `db_run!(store, s => body)`: `s` is the backend's own store (`PgStore`, `SqliteStore`),
///   whose methods of the same name do what each backend does its own way.
/// - `db_run!(store, postgres s => body, sqlite s => body)`: the backend named, only where the
///   SQL truly differs (appends, claims, supersession, the database's clock…).
/// - `db_run!(retried store, …)`: a read, which is safe to send again: one that meets a
///   connection that died while idle (`dead_connection`) is sent again on another, up to
///   `READ_RETRIES` times, rather than failing the request that happened to draw it. The pool
///   does not ping a connection before handing it out (`PgStore::pool_options`), and with the
///   fold cache a process reads little enough that dead connections may wait in the pool long
///   after the database came back. Its body is a `Result`, and a `?` in it ends that attempt.
///
/// Defined before the modules so that every one of them shares it.
macro_rules! db_run {
    (retried $store:expr, $($rest:tt)*) => {{
        let mut tries = 0;
        loop {
            let result: $crate::store::Result<_> = async { db_run!($store, $($rest)*) }.await;
            tries += 1;
            if tries > $crate::store::READ_RETRIES || !$crate::store::dead_connection(&result) {
                break result;
            }
        }
    }};
    ($store:expr, reader $pool:ident => $body:expr) => {
        db_run!($store, postgres s => {
            let $pool = s.pool();
            $body
        }, sqlite s => {
            let $pool = s.pool();
            $body
        })
    };
    ($store:expr, writer $pool:ident => $body:expr) => {
        db_run!($store, postgres s => {
            let $pool = s.pool();
            $body
        }, sqlite s => {
            let $pool = s.writer();
            $body
        })
    };
    ($store:expr, postgres $pg:pat => $on_pg:expr, sqlite $lite:pat => $on_lite:expr $(,)?) => {
        match $store {
            $crate::store::Store::Postgres($pg) => $on_pg,
            $crate::store::Store::Sqlite($lite) => $on_lite,
        }
    };
    ($store:expr, $s:ident => $body:expr) => {
        db_run!($store, postgres $s => $body, sqlite $s => $body)
    };
}

mod at_rest;
mod channels;
mod clocks;
mod game_id;
mod inbound_tokens;
mod keys;
mod outage;
pub mod outbox;
mod pg_batch;
mod players;
mod postgres;
pub mod preferences;
pub mod processes;
mod rows;
pub mod sealing;
mod snapshots;
mod sqlite;
mod talk;
mod webhooks;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::event::Event;

pub use at_rest::{Resealed, Unlocked};
pub use channels::Channels;
pub use game_id::{GameId, GameIdError, MAX_GAME_ID};
pub use outbox::{Attempt, Claimed, OutboxHealth, OutboxState, Superseded};
pub use pg_batch::Batched;
pub use players::PlayerSeat;
pub use postgres::PgStore;
pub use processes::{ProcessRecord, Registration};
pub use sealing::SecretKey;
pub use sqlite::{CommitWatch, SqliteStore};
pub use talk::TalkRecord;
pub use webhooks::WebhookRecord;

/// A game as the store knows it (the rest is in its events).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    pub game_id: GameId,
    pub ruleset: String,
    pub scenario: String,
    /// RFC 3339.
    pub created_at: String,
    /// The seq the next appended event will have.
    pub next_seq: u64,
    /// Whether the game has ended (its last event is `GameEnded`).
    pub ended: bool,
    /// The game's name, as players read it (`games::players::display_name`); empty for a game
    /// made before games had names.
    #[serde(default)]
    pub name: String,
}

/// A seat of a game. The token is stored only as its SHA-256.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, sqlx::FromRow)]
pub struct SeatRecord {
    #[sqlx(try_from = "String")]
    pub game_id: GameId,
    pub seat: String,
    pub name: String,
    pub email: Option<String>,
    pub token_hash: String,
}

/// A secret kept apart from the log: a dice chain's tip, the hidden seed, a sealed choice.
/// Never part of an export; a secret becomes public only through an event that reveals it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SecretRecord {
    pub game_id: String,
    /// `hidden_seed`, `chain:<n>`, `sealed:<commitment>`.
    pub name: String,
    /// The seat the secret belongs to, if any (the author of a sealed choice).
    pub seat: Option<String>,
    pub value: Value,
}

/// A notification to send, written in the same transaction as the event that caused it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutboxRecord {
    pub game_id: String,
    /// The event that caused it.
    pub seq: u64,
    /// `email`, `webhook`, `live`, …
    pub channel: String,
    /// The seat it is for, if any.
    pub seat: Option<String>,
    pub payload: Value,
    /// How long after the append the row falls due: zero for at once. A notice written once per
    /// seat (`Append::once_per_seat`) that finds one of its kind already waiting for its seat is
    /// not written, and moves that row's due time instead: a row at once pulls a later one
    /// forward to now, a later row pushes a waiting later one back to its own due time (the
    /// gathered notices of reactive windows, docs/notifications.md).
    #[serde(skip)]
    pub delay: std::time::Duration,
}

impl OutboxRecord {
    /// The game the row is about, parsed as it leaves the store. An account mail (a sign-in
    /// link) is about no game: its `game_id` is empty, and this refuses it.
    pub fn game(&self) -> std::result::Result<GameId, GameIdError> {
        GameId::parse(&self.game_id)
    }
}

/// An outbox row as read back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutboxRow {
    pub id: i64,
    #[serde(flatten)]
    pub record: OutboxRecord,
}

/// How long an idempotency key is remembered: a key first used longer ago than this is a new
/// key (as Stripe's are). Expired keys are deleted by the next keyed append to their game.
pub const KEY_LIFETIME: std::time::Duration = std::time::Duration::from_secs(24 * 60 * 60);

/// The saved answer to a command with an idempotency key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Idempotency {
    pub seat: String,
    pub key: String,
    /// A digest of the request the key came with; the same key with another request is refused
    /// (`KeyReused`) rather than answered with the first request's answer.
    pub request_hash: String,
    /// When the key was used, by the service's clock; it is forgotten `KEY_LIFETIME` later.
    pub used_at: DateTime<Utc>,
    pub response: Value,
}

/// Everything one append writes, in one transaction.
#[derive(Debug, Clone, Default)]
pub struct Append {
    pub events: Vec<Event>,
    pub secrets: Vec<SecretRecord>,
    pub outbox: Vec<OutboxRecord>,
    pub idempotency: Option<Idempotency>,
    /// Outbox channels a seat needs one waiting row of: a row of one of them is not written
    /// when a row of the same channel for the same seat of the game already waits unclaimed
    /// (not sent, held by no dispatcher, and either due or never tried: a delayed row, whose due
    /// time the new row moves, `OutboxRecord::delay`). That row is composed from the log as it
    /// stands when a dispatcher takes it, so it says this append's events too
    /// (docs/notifications.md, "One mail for many moves").
    pub once_per_seat: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Another append got there first: the game is now at `current_seq` (the next seq).
    #[error("the game has moved on: the next event is seq {current_seq}")]
    Stale { current_seq: u64 },
    /// The idempotency key was used before, for the same request; here is the first answer.
    #[error("this idempotency key was already used")]
    Replayed { response: Value },
    /// The idempotency key was used before for a different request; nothing was written.
    #[error("this idempotency key was already used for a different request")]
    KeyReused,
    #[error("no game {0}")]
    NoGame(String),
    #[error("a game with id {0} already exists")]
    Duplicate(String),
    /// The database is out of reach or too busy for now (`outage`): try again shortly.
    #[error("the database is unavailable: {0}")]
    Unavailable(sqlx::Error),
    #[error("database: {0}")]
    Db(sqlx::Error),
    #[error("migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    /// A secret at rest did not open (the wrong key, plain text, a row moved), or the store was
    /// given no key to seal or open secrets with (`sealing`).
    #[error("{0}")]
    Sealing(String),
}

impl From<sealing::OpenError> for StoreError {
    fn from(e: sealing::OpenError) -> Self {
        StoreError::Sealing(e.to_string())
    }
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// The store, by backend. Chosen from the URL: `postgres://…` or `sqlite:…`.
#[derive(Clone)]
pub enum Store {
    Postgres(PgStore),
    Sqlite(SqliteStore),
}

/// How many times a read is sent again after meeting a connection that died while idle.
pub(crate) const READ_RETRIES: usize = 16;

/// Whether a read failed on a connection that died while idle (the database restarted, or the
/// network between was cut and restored): the pool drops that connection, so the same read
/// sent again gets another.
pub(crate) fn dead_connection<T>(result: &Result<T>) -> bool {
    matches!(result, Err(StoreError::Unavailable(sqlx::Error::Io(_))))
}

impl Store {
    /// Connects to `url` (`postgres://…`, `postgresql://…` or `sqlite:…`).
    pub async fn connect(url: &str) -> Result<Store> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(Store::Postgres(PgStore::connect(url).await?))
        } else if url.starts_with("sqlite:") {
            Ok(Store::Sqlite(SqliteStore::connect(url).await?))
        } else {
            Err(StoreError::Corrupt(format!(
                "DATABASE_URL must start with postgres:// or sqlite:, not '{url}'"
            )))
        }
    }

    /// The same store, sealing and opening secrets at rest with `key`. A store without a key
    /// refuses to write or read secrets (`StoreError::Sealing`): there is no default key.
    pub fn with_key(self, key: SecretKey) -> Store {
        db_run!(self,
            postgres s => Store::Postgres(s.with_key(key)),
            sqlite s => Store::Sqlite(s.with_key(key)),
        )
    }

    /// The key secrets at rest are sealed with, or an error saying none was given.
    pub(crate) fn key(&self) -> Result<&SecretKey> {
        self.sealing_key().ok_or_else(rows::no_key)
    }

    /// The same store on a pool of its own of at most `connections` connections (PostgreSQL;
    /// SQLite has one writer anyway and is handed back as it is). For background work — the
    /// dispatcher — whose statements must never queue the move path's behind them for a
    /// connection, and whose share of the database is bounded by its pool. Connects lazily.
    pub fn side(&self, connections: u32) -> Store {
        db_run!(self,
            postgres s => Store::Postgres(s.side(connections)),
            sqlite _ => self.clone(),
        )
    }

    pub fn backend(&self) -> &'static str {
        db_run!(self, postgres _ => "postgres", sqlite _ => "sqlite")
    }

    /// The embedded migrations of this store's backend.
    fn migrator(&self) -> sqlx::migrate::Migrator {
        db_run!(self,
            postgres _ => sqlx::migrate!("./migrations/postgres"),
            sqlite _ => sqlx::migrate!("./migrations/sqlite"),
        )
    }

    /// Applies the embedded migrations.
    pub async fn migrate(&self) -> Result<()> {
        let migrator = self.migrator();
        db_run!(self, writer pool => migrator.run(pool).await?);
        Ok(())
    }

    /// How many embedded migrations the database lacks: a command that does not migrate
    /// (`mail-in`) refuses to work on a database that is behind. All of them on a database
    /// Despatch never migrated.
    pub async fn pending_migrations(&self) -> Result<usize> {
        let migrator = self.migrator();
        let kept = db_run!(self,
            postgres _ => "SELECT to_regclass('_sqlx_migrations') IS NOT NULL",
            sqlite _ => "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'",
        );
        let applied: Vec<i64> = db_run!(self, reader pool => {
            let kept: bool = sqlx::query_scalar(kept).fetch_one(pool).await?;
            if kept {
                sqlx::query_scalar("SELECT version FROM _sqlx_migrations WHERE success")
                    .fetch_all(pool)
                    .await?
            } else {
                Vec::new()
            }
        });
        Ok(migrator
            .iter()
            .filter(|m| !m.migration_type.is_down_migration() && !applied.contains(&m.version))
            .count())
    }

    /// Creates a game with its seats, its first event and its secrets, in one transaction.
    pub async fn create_game(
        &self,
        game: &GameRecord,
        seats: &[SeatRecord],
        append: &Append,
    ) -> Result<()> {
        let rows = rows::append_rows(&game.game_id, 0, append, self.sealing_key())?;
        // SQLite keeps the game's next seq in `games`; PostgreSQL reads it from the log.
        let insert = db_run!(self,
            postgres _ => "INSERT INTO games (game_id, ruleset, scenario, created_at, ended, name)
                 VALUES ($1, $2, $3, $4, false, $5) ON CONFLICT (game_id) DO NOTHING",
            sqlite _ => "INSERT INTO games (game_id, ruleset, scenario, created_at, next_seq, ended, name)
                 VALUES ($1, $2, $3, $4, 0, 0, $5) ON CONFLICT (game_id) DO NOTHING",
        );
        let seat_insert = "INSERT INTO seats (game_id, seat, position, name, email, token_hash)
                 VALUES ($1, $2, $3, $4, $5, $6)";
        db_run!(self, s => {
            let mut tx = s.begin_write().await?;
            let inserted = sqlx::query(insert)
                .bind(&game.game_id)
                .bind(&game.ruleset)
                .bind(&game.scenario)
                .bind(&game.created_at)
                .bind(&game.name)
                .execute(&mut *tx)
                .await?;
            if inserted.rows_affected() == 0 {
                return Err(StoreError::Duplicate(game.game_id.to_string()));
            }
            for (position, seat) in seats.iter().enumerate() {
                if seat.game_id != game.game_id {
                    return Err(StoreError::Corrupt(format!(
                        "seat {} of game {} given with game {}",
                        seat.seat, seat.game_id, game.game_id
                    )));
                }
                sqlx::query(seat_insert)
                    .bind(&game.game_id)
                    .bind(&seat.seat)
                    .bind(position as i32)
                    .bind(&seat.name)
                    .bind(&seat.email)
                    .bind(&seat.token_hash)
                    .execute(&mut *tx)
                    .await?;
            }
            if !s.write_rows(&mut tx, &game.game_id, &rows).await? {
                return Err(StoreError::Corrupt(format!(
                    "game {} was not at seq 0 when created",
                    game.game_id
                )));
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// Appends events whose first seq must be `expected_seq`, with their secrets, outbox rows and
    /// idempotency record, in one transaction. Exactly one of two racing appends wins; the other
    /// gets `Stale` with the current seq. A used idempotency key gets `Replayed` and writes
    /// nothing.
    pub async fn append(&self, game_id: &str, expected_seq: u64, append: &Append) -> Result<()> {
        db_run!(self, s => s.append(game_id, expected_seq, append).await)
    }

    /// How this store's group-commit appends have gone (PostgreSQL; `None` on SQLite and on a
    /// `side` store, which write every append on its own).
    pub fn batched_appends(&self) -> Option<Batched> {
        db_run!(self, postgres s => s.batched_appends(), sqlite _ => None)
    }

    pub async fn game(&self, game_id: &str) -> Result<Option<GameRecord>> {
        // PostgreSQL's appends update no `games` row: the next seq is one past the last event
        // in the log (read from the events' primary key). SQLite's keep it in `games`.
        let sql = db_run!(self,
            postgres _ => "SELECT g.game_id, g.ruleset, g.scenario, g.created_at, g.ended, g.name,
                    (SELECT COALESCE(max(e.seq) + 1, 0) FROM events e WHERE e.game_id = g.game_id) AS next_seq
             FROM games g WHERE g.game_id = $1",
            sqlite _ => "SELECT game_id, ruleset, scenario, created_at, next_seq, ended, name FROM games WHERE game_id = $1",
        );
        let found: Option<rows::GameRow> = db_run!(retried self, reader pool => {
            Ok(sqlx::query_as(sql).bind(game_id).fetch_optional(pool).await?)
        })?;
        found.map(rows::GameRow::record).transpose()
    }

    /// The ids of the games not ended, or of every game with `ended_too`, oldest first
    /// (`despatch check`).
    pub async fn game_ids(&self, ended_too: bool) -> Result<Vec<GameId>> {
        let sql = "SELECT game_id FROM games WHERE $1 OR NOT ended ORDER BY created_at, game_id";
        let ids: Vec<String> = db_run!(retried self, reader pool => {
            Ok(sqlx::query_scalar(sql).bind(ended_too).fetch_all(pool).await?)
        })?;
        ids.iter().map(|id| rows::stored_id(id)).collect()
    }

    /// Events with `from <= seq < to` (`to = None`: to the end), in order.
    pub async fn events(&self, game_id: &str, from: u64, to: Option<u64>) -> Result<Vec<Event>> {
        self.event_rows(game_id, from, to)
            .await?
            .into_iter()
            .map(|(seq, body)| rows::event_from_text(game_id, seq, &body))
            .collect()
    }

    /// The same events as the exact JSON text that was stored (and hashed), one string per
    /// event: what an export writes, byte for byte.
    pub async fn events_json(
        &self,
        game_id: &str,
        from: u64,
        to: Option<u64>,
    ) -> Result<Vec<String>> {
        Ok(self
            .event_rows(game_id, from, to)
            .await?
            .into_iter()
            .map(|(_, body)| body)
            .collect())
    }

    /// The seqs and stored texts of events with `from <= seq < to`.
    async fn event_rows(
        &self,
        game_id: &str,
        from: u64,
        to: Option<u64>,
    ) -> Result<Vec<(i64, String)>> {
        let (from, to) = rows::seq_range(from, to);
        // PostgreSQL must be told the type of a bound that may be NULL.
        let sql = db_run!(self,
            postgres _ => "SELECT seq, body FROM events
             WHERE game_id = $1 AND seq >= $2 AND ($3::bigint IS NULL OR seq < $3)
             ORDER BY seq",
            sqlite _ => "SELECT seq, body FROM events
             WHERE game_id = $1 AND seq >= $2 AND ($3 IS NULL OR seq < $3)
             ORDER BY seq",
        );
        db_run!(retried self, reader pool => {
            Ok(sqlx::query_as(sql).bind(game_id).bind(from).bind(to).fetch_all(pool).await?)
        })
    }

    pub async fn seats(&self, game_id: &str) -> Result<Vec<SeatRecord>> {
        let sql = "SELECT game_id, seat, name, email, token_hash FROM seats WHERE game_id = $1 ORDER BY position";
        db_run!(retried self, reader pool => {
            Ok(sqlx::query_as(sql).bind(game_id).fetch_all(pool).await?)
        })
    }

    /// The seat whose token hashes to `token_hash`.
    pub async fn seat_by_token(
        &self,
        game_id: &str,
        token_hash: &str,
    ) -> Result<Option<SeatRecord>> {
        let sql = "SELECT game_id, seat, name, email, token_hash FROM seats WHERE game_id = $1 AND token_hash = $2";
        Ok(db_run!(self, reader pool => {
            sqlx::query_as(sql).bind(game_id).bind(token_hash).fetch_optional(pool).await?
        }))
    }

    /// A game's secrets, opened with the store's key.
    pub async fn secrets(&self, game_id: &str) -> Result<Vec<SecretRecord>> {
        let sql = "SELECT game_id, name, seat, value FROM secrets WHERE game_id = $1 ORDER BY name";
        let found: Vec<rows::StoredSecret> = db_run!(retried self, reader pool => {
            Ok(sqlx::query_as(sql).bind(game_id).fetch_all(pool).await?)
        })?;
        let key = self.sealing_key();
        found
            .into_iter()
            .map(|s| {
                Ok(SecretRecord {
                    game_id: game_id.to_owned(),
                    value: rows::open_secret(key, game_id, &s.name, s.seat.as_deref(), &s.value)?,
                    name: s.name,
                    seat: s.seat,
                })
            })
            .collect()
    }

    /// The saved answer for a seat's idempotency key, if it was used.
    pub async fn idempotent(&self, game_id: &str, seat: &str, key: &str) -> Result<Option<Value>> {
        let sql = "SELECT response FROM idempotency WHERE game_id = $1 AND seat = $2 AND key = $3";
        let found: Option<String> = db_run!(self, reader pool => {
            sqlx::query_scalar(sql).bind(game_id).bind(seat).bind(key).fetch_optional(pool).await?
        });
        found
            .map(|text| rows::json_from_text("a saved response", &text))
            .transpose()
    }

    /// How many moves sent with an idempotency key (every move by mail is) `seat` of `game_id`
    /// made after `since`: the per-seat move limit of a process that lives for one message
    /// (`despatch mail-in`) and so keeps no bucket of its own.
    pub async fn keyed_moves_since(
        &self,
        game_id: &str,
        seat: &str,
        since: DateTime<Utc>,
    ) -> Result<u64> {
        let since = crate::engine::event::timestamp(since);
        // PostgreSQL keeps `created_at` as a timestamptz; SQLite compares the text.
        let sql = db_run!(self,
            postgres _ => "SELECT count(*) FROM idempotency WHERE game_id = $1 AND seat = $2 AND created_at > $3::timestamptz",
            sqlite _ => "SELECT count(*) FROM idempotency WHERE game_id = $1 AND seat = $2 AND created_at > $3",
        );
        let n: i64 = db_run!(retried self, reader pool => {
            Ok(sqlx::query_scalar(sql).bind(game_id).bind(seat).bind(&since).fetch_one(pool).await?)
        })?;
        Ok(n.max(0) as u64)
    }

    /// The saved answer for a seat's idempotency key used less than `KEY_LIFETIME` before `now`:
    /// `None` if the key is new (or expired), `KeyReused` if it was used for a request with
    /// another hash.
    pub async fn saved_answer(
        &self,
        game_id: &str,
        seat: &str,
        key: &str,
        request_hash: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<Value>> {
        let since = rows::key_cutoff(now);
        let sql = db_run!(self,
            postgres _ => "SELECT request_hash, response FROM idempotency
             WHERE game_id = $1 AND seat = $2 AND key = $3 AND created_at > $4::timestamptz",
            sqlite _ => sqlite::SAVED_KEY,
        );
        let saved: Option<(Option<String>, String)> = db_run!(self, reader pool => {
            sqlx::query_as(sql)
                .bind(game_id)
                .bind(seat)
                .bind(key)
                .bind(&since)
                .fetch_optional(pool)
                .await?
        });
        saved
            .map(|(hash, response)| {
                match rows::used_key(hash.as_deref(), &response, request_hash)? {
                    StoreError::Replayed { response } => Ok(response),
                    other => Err(other),
                }
            })
            .transpose()
    }

    /// Whether the database answers, by a trivial query on the connections reads use.
    pub async fn ping(&self) -> Result<()> {
        db_run!(self, reader pool => {
            sqlx::query("SELECT 1").execute(pool).await?;
        });
        Ok(())
    }

    /// The key secrets at rest are sealed with, if the store was given one.
    fn sealing_key(&self) -> Option<&SecretKey> {
        db_run!(self, s => s.key.as_ref())
    }
}
