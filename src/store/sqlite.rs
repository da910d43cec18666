//! The SQLite backend, the embedded default. A file database in WAL mode (readers never wait for
//! the writer); every write runs in a `BEGIN IMMEDIATE` transaction, which takes the write lock
//! before reading anything, so two racing appends run one after the other and the second sees
//! the first's `next_seq`. A deferred transaction would instead fail with `SQLITE_BUSY` when it
//! tried to upgrade a stale read.
//!
//! Reads and writes have pools of their own. The store's writes queue for one writer connection
//! (SQLite has one writer at a time anyway), so a write lock held elsewhere — another process,
//! a backup, an operator's shell — stalls only the writer: reads go on from their own
//! connections, which in WAL mode never wait for a lock, and `/health` still answers. The
//! writer waits `BUSY_TIMEOUT` for a lock held elsewhere, then fails with `SQLITE_BUSY`, which
//! the service answers as unavailable (`503`, `Retry-After`) rather than hanging.
//!
//! `sqlite::memory:` works but is one connection's private database, so the pool keeps exactly
//! one connection open for it.

use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::{
    SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePool, SqlitePoolOptions,
};
use sqlx::Row;

use super::rows::{self, AppendRows};
use super::sealing::SecretKey;
use super::{Append, Result, StoreError};

/// Connections for reads.
const MAX_CONNECTIONS: u32 = 8;

/// How long a connection waits for a lock another connection (of another process) holds before
/// it gives up with `SQLITE_BUSY`. The store's own writes queue for the writer connection
/// instead, so this only has to outlast another process's short transaction.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// How long a write waits for the writer connection: a queue of appends, each a few
/// milliseconds, or one stuck behind a lock held elsewhere for up to `BUSY_TIMEOUT`.
const WRITER_WAIT: Duration = Duration::from_secs(10);

#[derive(Clone, Debug)]
pub struct SqliteStore {
    /// Connections for reads (and for callers of `pool`).
    pool: SqlitePool,
    /// The one connection the store's writes take turns at; the same pool as `pool` for an
    /// in-memory database or a pool given by the caller.
    writer: SqlitePool,
    /// Seals and opens secrets at rest (`sealing`); none until `with_key`.
    pub(super) key: Option<SecretKey>,
}

impl SqliteStore {
    /// Connects to `url` (`sqlite:path/to/file.db`, `sqlite::memory:`), creating the file and its
    /// folder if they are missing.
    pub async fn connect(url: &str) -> Result<SqliteStore> {
        let in_memory = url.contains(":memory:") || url.contains("mode=memory");
        let options = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .busy_timeout(BUSY_TIMEOUT)
            .foreign_keys(true);
        if in_memory {
            let pool = SqlitePoolOptions::new()
                .max_connections(1)
                .min_connections(1)
                .idle_timeout(None)
                .max_lifetime(None)
                .connect_with(options)
                .await?;
            return Ok(SqliteStore::from_pool(pool));
        }
        if let Some(folder) = options
            .get_filename()
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
        {
            std::fs::create_dir_all(folder).map_err(|e| {
                StoreError::Db(sqlx::Error::Configuration(
                    format!(
                        "cannot create the folder {} for the database: {e}",
                        folder.display()
                    )
                    .into(),
                ))
            })?;
        }
        // The writer first: it creates the file and turns WAL on, which needs the write lock.
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .acquire_timeout(WRITER_WAIT)
            .connect_with(options.clone())
            .await?;
        let pool = SqlitePoolOptions::new()
            .max_connections(MAX_CONNECTIONS)
            .acquire_timeout(BUSY_TIMEOUT)
            .connect_with(options)
            .await?;
        Ok(SqliteStore {
            pool,
            writer,
            key: None,
        })
    }

    /// A store on a pool the caller configured, for reads and writes alike.
    pub fn from_pool(pool: SqlitePool) -> SqliteStore {
        SqliteStore {
            writer: pool.clone(),
            pool,
            key: None,
        }
    }

    /// The same store, sealing and opening secrets at rest with `key`.
    pub fn with_key(mut self, key: SecretKey) -> SqliteStore {
        self.key = Some(key);
        self
    }

    /// The writer connection's pool: writes made through it queue in the pool rather than in
    /// SQLite's busy handler.
    pub fn writer(&self) -> &SqlitePool {
        &self.writer
    }

    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// The transaction of a pass over every secret at rest (`at_rest`): `BEGIN IMMEDIATE` takes
    /// the database's one write lock, which new secrets and processes' rows wait for.
    pub(super) async fn begin_upkeep(
        &self,
        _processes: bool,
    ) -> Result<sqlx::Transaction<'static, sqlx::Sqlite>> {
        Ok(self.pool.begin_with("BEGIN IMMEDIATE").await?)
    }

    /// The transaction of a write that is more than an append (`Store::create_game`): `BEGIN
    /// IMMEDIATE` on the writer, as an append's.
    pub(super) async fn begin_write(&self) -> Result<sqlx::Transaction<'static, sqlx::Sqlite>> {
        Ok(self.writer.begin_with("BEGIN IMMEDIATE").await?)
    }

    /// Writes an append's rows in `tx`: whether the game moved on (it was at the append's
    /// expected seq); nothing is written if it did not.
    pub(super) async fn write_rows(
        &self,
        tx: &mut sqlx::Transaction<'static, sqlx::Sqlite>,
        game_id: &str,
        rows: &AppendRows,
    ) -> Result<bool> {
        if !move_on(tx, game_id, rows).await? {
            return Ok(false);
        }
        insert(tx, game_id, rows).await?;
        Ok(true)
    }

    pub async fn append(&self, game_id: &str, expected_seq: u64, append: &Append) -> Result<()> {
        let rows = rows::append_rows(game_id, expected_seq, append, self.key.as_ref())?;
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        if let Some(idem) = &rows.idempotency {
            // The game's expired keys go (this one's too, if it expired): a key counts only
            // while it lives.
            sqlx::query("DELETE FROM idempotency WHERE game_id = $1 AND created_at <= $2")
                .bind(game_id)
                .bind(&idem.since)
                .execute(&mut *tx)
                .await?;
            if let Some((hash, response)) =
                saved_key(&mut tx, game_id, &idem.seat, &idem.key, &idem.since).await?
            {
                return Err(rows::used_key(
                    hash.as_deref(),
                    &response,
                    &idem.request_hash,
                )?);
            }
        }
        if !move_on(&mut tx, game_id, &rows).await? {
            let current: Option<i64> =
                sqlx::query_scalar("SELECT next_seq FROM games WHERE game_id = $1")
                    .bind(game_id)
                    .fetch_optional(&mut *tx)
                    .await?;
            return Err(match current {
                None => StoreError::NoGame(game_id.to_owned()),
                Some(seq) => StoreError::Stale {
                    current_seq: rows::to_u64(seq)?,
                },
            });
        }
        if let Err(err) = insert(&mut tx, game_id, &rows).await {
            drop(tx); // rolls back
                      // The write lock has been held since BEGIN, so the key cannot have been taken
                      // meanwhile; this mirrors the PostgreSQL backend all the same.
            if let (StoreError::Db(e), Some(idem)) = (&err, &rows.idempotency) {
                if rows::is_unique_violation(e) {
                    let mut conn = self.pool.acquire().await?;
                    if let Some((hash, response)) =
                        saved_key(&mut conn, game_id, &idem.seat, &idem.key, &idem.since).await?
                    {
                        return Err(rows::used_key(
                            hash.as_deref(),
                            &response,
                            &idem.request_hash,
                        )?);
                    }
                }
            }
            return Err(err);
        }
        tx.commit().await?;
        Ok(())
    }
}

/// A seat's key used after `since` (`$4`): its request hash (if saved) and its answer.
pub(super) const SAVED_KEY: &str = "SELECT request_hash, response FROM idempotency
         WHERE game_id = $1 AND seat = $2 AND key = $3 AND created_at > $4";

/// A seat's key used after `since`: its request hash (if saved) and its answer.
async fn saved_key(
    conn: &mut SqliteConnection,
    game_id: &str,
    seat: &str,
    key: &str,
    since: &str,
) -> Result<Option<(Option<String>, String)>> {
    let found = sqlx::query(SAVED_KEY)
        .bind(game_id)
        .bind(seat)
        .bind(key)
        .bind(since)
        .fetch_optional(&mut *conn)
        .await?;
    found
        .map(|row| Ok((row.try_get("request_hash")?, row.try_get("response")?)))
        .transpose()
}

/// Moves the game's `next_seq` on if it is still the seq the append expected.
async fn move_on(conn: &mut SqliteConnection, game_id: &str, rows: &AppendRows) -> Result<bool> {
    let moved = sqlx::query(
        "UPDATE games SET next_seq = $3, ended = (ended OR $4) WHERE game_id = $1 AND next_seq = $2",
    )
    .bind(game_id)
    .bind(rows.expected_seq)
    .bind(rows.next_seq)
    .bind(rows.ends)
    .execute(&mut *conn)
    .await?;
    Ok(moved.rows_affected() == 1)
}

/// Inserts what the append carries. SQLite runs in-process, so a statement per row costs no
/// round trips.
async fn insert(conn: &mut SqliteConnection, game_id: &str, rows: &AppendRows) -> Result<()> {
    for e in &rows.events {
        sqlx::query(
            "INSERT INTO events (game_id, seq, kind, seat, hash, prev_hash, body) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(game_id)
        .bind(e.seq)
        .bind(&e.kind)
        .bind(&e.seat)
        .bind(&e.hash)
        .bind(&e.prev_hash)
        .bind(&e.body)
        .execute(&mut *conn)
        .await?;
    }
    for s in &rows.secrets {
        sqlx::query("INSERT INTO secrets (game_id, name, seat, value) VALUES ($1, $2, $3, $4)")
            .bind(game_id)
            .bind(&s.name)
            .bind(&s.seat)
            .bind(&s.value)
            .execute(&mut *conn)
            .await?;
    }
    for o in &rows.outbox {
        // A row written once per seat (`Append::once_per_seat`) is not written while one of its
        // channel waits for its seat unclaimed, due or delayed; a delayed one takes the new
        // row's due time first (`OutboxRecord::delay`). This transaction holds the only write
        // lock, so no dispatcher claims that row until the append's events are in.
        let due = format!("+{:.3} seconds", o.delay);
        if o.once {
            sqlx::query(
                "UPDATE outbox SET next_attempt_at = CASE WHEN $4 = 0
                     THEN strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
                     ELSE max(next_attempt_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', $5)) END
                 WHERE game_id = $1 AND seat = $2 AND channel = $3 AND sent_at IS NULL
                   AND attempts = 0 AND next_attempt_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
            )
            .bind(game_id)
            .bind(&o.seat)
            .bind(&o.channel)
            .bind(o.delay)
            .bind(&due)
            .execute(&mut *conn)
            .await?;
        }
        sqlx::query(
            "INSERT INTO outbox (game_id, seq, channel, seat, payload, next_attempt_at)
             SELECT $1, $2, $3, $4, $5, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', $7)
             WHERE NOT ($6 AND EXISTS (
                 SELECT 1 FROM outbox w WHERE w.game_id = $1 AND w.seat = $4 AND w.channel = $3
                   AND w.sent_at IS NULL
                   AND (w.attempts = 0
                        OR w.next_attempt_at <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))))",
        )
        .bind(game_id)
        .bind(o.seq)
        .bind(&o.channel)
        .bind(&o.seat)
        .bind(&o.payload)
        .bind(o.once)
        .bind(&due)
        .execute(&mut *conn)
        .await?;
    }
    if let Some(i) = &rows.idempotency {
        sqlx::query(
            "INSERT INTO idempotency (game_id, seat, key, request_hash, response, created_at)
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(game_id)
        .bind(&i.seat)
        .bind(&i.key)
        .bind(&i.request_hash)
        .bind(&i.response)
        .bind(&i.used_at)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// A connection of its own that tells whether any other connection — of this process or of
/// another — has committed since it last asked: SQLite's `PRAGMA data_version`, which changes
/// for a connection only when another connection commits. One statement, no table read: what
/// a server asks every few hundred milliseconds while pages are open (`games::live`).
pub struct CommitWatch {
    connection: SqliteConnection,
    /// The version last read; `None` before the first reading.
    seen: Option<i64>,
}

impl CommitWatch {
    /// Whether another connection has committed since the last call; `true` on the first, which
    /// has nothing to compare with.
    pub async fn changed(&mut self) -> Result<bool> {
        let version: i64 = sqlx::query_scalar("PRAGMA data_version")
            .fetch_one(&mut self.connection)
            .await?;
        Ok(self.seen.replace(version) != Some(version))
    }
}

impl SqliteStore {
    /// A new connection to the same database, watching for commits (`CommitWatch`). It is the
    /// caller's own, outside both pools, so that it is the same connection every time it asks.
    pub async fn commit_watch(&self) -> Result<CommitWatch> {
        let options = self.pool.connect_options();
        Ok(CommitWatch {
            connection: <SqliteConnection as sqlx::Connection>::connect_with(&options).await?,
            seen: None,
        })
    }

    /// The next seq of each of `game_ids` that is a game, in one statement.
    pub async fn next_seqs(&self, game_ids: &[String]) -> Result<Vec<(String, u64)>> {
        let ids = serde_json::to_string(game_ids).expect("a list of ids is JSON");
        let found: Vec<(String, i64)> = sqlx::query_as(
            "SELECT game_id, next_seq FROM games WHERE game_id IN (SELECT value FROM json_each($1))",
        )
        .bind(ids)
        .fetch_all(&self.pool)
        .await?;
        found
            .into_iter()
            .map(|(id, seq)| Ok((id, rows::to_u64(seq)?)))
            .collect()
    }
}
