//! The PostgreSQL backend. An append is one statement: a data-modifying `WITH` that inserts the
//! events at the seq the caller expected — and, with them, the secrets, outbox rows and
//! idempotency record — only if the event before the expected seq is in the log and the
//! idempotency key is unused. One statement is one implicit transaction and one round trip; any
//! failure (a duplicate secret name, say) undoes all of it. The statement is written for each
//! append's shape (`append_statement`), so an append carries no part it does not need; the common
//! one-event append is written together with other games' appends by `pg_batch`.
//!
//! The events' primary key `(game_id, seq)` is what refuses a stale append: no `games` row is
//! updated per append (the game's next seq is the log's last seq + 1, read from that index).
//! Two racing appends at the same seq: the second `INSERT` waits for the first's uncommitted key,
//! and once the first commits fails with a unique violation on `events_pkey`, which is answered
//! as `Stale` (or `Replayed` if its key was used meanwhile) — the loser writes nothing. An append
//! ahead of the log finds no event before its seq and writes nothing. Only the append that ends
//! the game updates the `games` row (`ended`).

use std::time::Duration;

use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::{Executor, Postgres, QueryBuilder, Row};

use super::pg_batch::{Batched, Batcher};
use super::rows::{self, AppendRows, EventRow, IdempotencyRow, OutboxInsert};
use super::sealing::SecretKey;
use super::{Append, Result, StoreError};

/// How many connections `connect` opens at most; `from_pool` takes a pool sized by the caller.
const MAX_CONNECTIONS: u32 = 16;

#[derive(Clone, Debug)]
pub struct PgStore {
    pool: PgPool,
    /// Writes the common one-event append together with others (`pg_batch`).
    batcher: Option<Batcher>,
    /// Seals and opens secrets at rest (`sealing`); none until `with_key`.
    pub(super) key: Option<SecretKey>,
}

/// Why an append did not move the game on: where the game is now, the event now at the seq the
/// append expected (its own, if an earlier attempt whose answer was lost wrote it), and the saved
/// answer and request hash if the idempotency key has been used meanwhile (and not expired).
const AFTER_MISS: &str = "
SELECT (SELECT COALESCE(max(e.seq) + 1, 0) FROM events e WHERE e.game_id = g.game_id) AS next_seq,
       (SELECT e.hash FROM events e WHERE e.game_id = g.game_id AND e.seq = $5) AS hash_at,
       i.response, i.request_hash
FROM games g
LEFT JOIN idempotency i ON i.game_id = g.game_id AND i.seat = $2 AND i.key = $3
     AND i.created_at > $4::timestamptz
WHERE g.game_id = $1";

/// How long an append whose outcome is unknown — its connection broke while the statement was
/// on its way — is retried to learn it, before it answers `Unavailable`.
const SETTLE_WITHIN: Duration = Duration::from_secs(10);

impl PgStore {
    pub async fn connect(url: &str) -> Result<PgStore> {
        let pool = PgStore::pool_options()
            .max_connections(MAX_CONNECTIONS)
            .connect(url)
            .await?;
        Ok(PgStore::from_pool(pool))
    }

    /// How the store's connection pool is set up. A connection taken from the pool is not
    /// pinged first (sqlx's `test_before_acquire` is on by default): the ping is a round trip
    /// to the server before every statement, about as costly as an append itself. A connection
    /// that died while idle (a server restart) fails its next statement instead, and the pool
    /// drops it; the request that met it gets an error, and the next one a fresh connection.
    pub fn pool_options() -> PgPoolOptions {
        PgPoolOptions::new()
            .test_before_acquire(false)
            .acquire_timeout(Duration::from_secs(10))
    }

    /// A store on a pool the caller configured (size, timeouts) — the benchmark sizes
    /// `pool_options` to its number of games.
    pub fn from_pool(pool: PgPool) -> PgStore {
        PgStore {
            batcher: Batcher::start(pool.clone()),
            pool,
            key: None,
        }
    }

    /// The same database and key on a pool of its own (`Store::side`), which writes no
    /// batched appends of its own: an append there takes the one-statement path.
    pub fn side(&self, connections: u32) -> PgStore {
        let options = (*self.pool.connect_options()).clone();
        PgStore {
            pool: PgStore::pool_options()
                .max_connections(connections.max(1))
                .connect_lazy_with(options),
            batcher: None,
            key: self.key.clone(),
        }
    }

    /// The same store, sealing and opening secrets at rest with `key`.
    pub fn with_key(mut self, key: SecretKey) -> PgStore {
        self.key = Some(key);
        self
    }

    /// How this store's group-commit appends have gone; `None` when it has no lanes.
    pub fn batched_appends(&self) -> Option<Batched> {
        self.batcher.as_ref().map(Batcher::batched)
    }

    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// The transaction of a pass over every secret at rest (`at_rest`). New secrets wait until
    /// the pass is done, so none is left under the old key; with `processes`, so do new
    /// processes' rows, so none starts unseen by the pass's guard.
    pub(super) async fn begin_upkeep(
        &self,
        processes: bool,
    ) -> Result<sqlx::Transaction<'static, Postgres>> {
        let mut tx = self.pool.begin().await?;
        let lock = if processes {
            "LOCK TABLE secrets, webhooks, processes IN SHARE ROW EXCLUSIVE MODE"
        } else {
            "LOCK TABLE secrets, webhooks IN SHARE ROW EXCLUSIVE MODE"
        };
        sqlx::query(lock).execute(&mut *tx).await?;
        Ok(tx)
    }

    /// The transaction of a write that is more than an append (`Store::create_game`).
    pub(super) async fn begin_write(&self) -> Result<sqlx::Transaction<'static, Postgres>> {
        Ok(self.pool.begin().await?)
    }

    /// Writes an append's rows in `tx`, in one statement (`append_statement`): whether the game
    /// moved on (it was at the append's expected seq).
    pub(super) async fn write_rows(
        &self,
        tx: &mut sqlx::Transaction<'static, Postgres>,
        game_id: &str,
        rows: &AppendRows,
    ) -> Result<bool> {
        Ok(write(&mut **tx, game_id, rows).await?.moved)
    }

    pub async fn append(&self, game_id: &str, expected_seq: u64, append: &Append) -> Result<()> {
        let mut rows = rows::append_rows(game_id, expected_seq, append, self.key.as_ref())?;
        let mut unsure = false;
        if let Some(batcher) = self.batcher.as_ref().filter(|_| Batcher::takes(&rows)) {
            match batcher.append(game_id, rows).await {
                Ok(true) => return Ok(()),
                // A definite answer: another append got there first.
                Ok(false) => return self.after_miss(game_id, None, None, expected_seq).await,
                Err(back) => {
                    // The batch failed, perhaps after it was written: learn which.
                    rows = back;
                    unsure = true;
                }
            }
        }
        self.settle(game_id, &rows, unsure).await
    }

    /// Writes an append on its own. A connection that breaks while the statement is on its way
    /// leaves its outcome unknown: the server may have committed it. Such an append is written
    /// again, for up to `SETTLE_WITHIN`, until the database answers: an append is idempotent —
    /// its events have fixed seqs and hashes — so a second write either goes in (the first never
    /// did) or finds its own event already there (`after_miss`) and answers as written. Only an
    /// append refused before it was sent (no connection to be had) answers `Unavailable` at
    /// once; one whose outcome stays unknown answers `Unavailable` after `SETTLE_WITHIN`.
    async fn settle(&self, game_id: &str, rows: &AppendRows, mut unsure: bool) -> Result<()> {
        let started = std::time::Instant::now();
        let mut pause = Duration::from_millis(50);
        loop {
            let outcome = match self.pool.acquire().await {
                Ok(mut conn) => {
                    let written = self.write_alone(&mut conn, game_id, rows, unsure).await;
                    if matches!(written, Err(StoreError::Unavailable(_))) {
                        unsure = true;
                    }
                    written
                }
                Err(e) => Err(e.into()),
            };
            match outcome {
                Err(StoreError::Unavailable(e)) if unsure && started.elapsed() < SETTLE_WITHIN => {
                    tracing::warn!(
                        "an append to game {game_id} may not have been written ({e}); trying again"
                    );
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(Duration::from_secs(1));
                }
                other => return other,
            }
        }
    }

    /// One attempt at writing an append on its own, and what its answer means. Only when an
    /// earlier attempt may have been written (`unsure`) does finding an event with this append's
    /// hash at its seq mean "written": otherwise it is another writer's event that happens to be
    /// identical (two schedulers noting the same deadline at the same instant), and this append
    /// lost the race like any other.
    async fn write_alone(
        &self,
        conn: &mut sqlx::PgConnection,
        game_id: &str,
        rows: &AppendRows,
        unsure: bool,
    ) -> Result<()> {
        let ours = rows
            .events
            .first()
            .map(|e| e.hash.as_str())
            .filter(|_| unsure);
        let key = rows.idempotency.as_ref();
        let expected = rows::to_u64(rows.expected_seq)?;
        match write(&mut *conn, game_id, rows).await {
            Ok(w) if w.moved => Ok(()),
            Ok(Written {
                prior: Some(prior),
                prior_hash,
                ..
            }) => {
                let request_hash = key.map_or("", |k| k.request_hash.as_str());
                Err(rows::used_key(prior_hash.as_deref(), &prior, request_hash)?)
            }
            Ok(_) => self.after_miss(game_id, ours, key, expected).await,
            // The events' primary key refused the append: another append got that seq first —
            // or an earlier attempt of this one, whose answer was lost.
            // Also where a retry lands that waited for its first attempt's uncommitted event:
            // the key check ran on the snapshot from before that commit, so `after_miss`
            // finds the key and answers with the first response.
            Err(StoreError::Db(e))
                if rows::is_unique_violation(&e)
                    && e.as_database_error().and_then(|d| d.constraint())
                        == Some("events_pkey") =>
            {
                self.after_miss(game_id, ours, key, expected).await
            }
            // Another key: a key row written some other way still answers as a replay, and a
            // secret's name taken by the append that moved the game on is the same race seen
            // from another table (two moves that both use a dice chain's last link both write
            // the next chain's secret, and the loser may trip over that row before it reaches
            // its event): `Stale`. A name taken while the game stood still is a fault.
            Err(StoreError::Db(e)) if rows::is_unique_violation(&e) => {
                match self.after_miss(game_id, ours, key, expected).await {
                    Err(replayed @ (StoreError::Replayed { .. } | StoreError::KeyReused)) => {
                        Err(replayed)
                    }
                    Err(StoreError::Stale { current_seq }) if current_seq > expected => {
                        Err(StoreError::Stale { current_seq })
                    }
                    _ => Err(StoreError::Db(e)),
                }
            }
            Err(e) => Err(e),
        }
    }

    /// The answer for an append that moved nothing: written after all (its first event, hash
    /// `ours`, is at the expected seq: an earlier attempt wrote it), the game is missing, the key
    /// was used, or another append got there first.
    async fn after_miss(
        &self,
        game_id: &str,
        ours: Option<&str>,
        idempotency: Option<&IdempotencyRow>,
        expected_seq: u64,
    ) -> Result<()> {
        let row = sqlx::query(AFTER_MISS)
            .bind(game_id)
            .bind(idempotency.map(|i| i.seat.as_str()))
            .bind(idempotency.map(|i| i.key.as_str()))
            .bind(idempotency.map(|i| i.since.as_str()))
            .bind(rows::to_i64(expected_seq)?)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else {
            return Err(StoreError::NoGame(game_id.to_owned()));
        };
        let hash_at: Option<String> = row.try_get("hash_at")?;
        if ours.is_some() && hash_at.as_deref() == ours {
            return Ok(());
        }
        if let (Some(response), Some(key)) =
            (row.try_get::<Option<String>, _>("response")?, idempotency)
        {
            let saved_hash: Option<String> = row.try_get("request_hash")?;
            return Err(rows::used_key(
                saved_hash.as_deref(),
                &response,
                &key.request_hash,
            )?);
        }
        Err(StoreError::Stale {
            current_seq: rows::to_u64(row.try_get("next_seq")?)?,
        })
    }
}

/// The append, in one statement, written for this append's shape: only the parts it has (an
/// idempotency key, secrets, outbox rows, the end of the game) are in it, and its rows are given
/// as `VALUES` lists. Every part reads `ok`, which holds a row only if the idempotency key is
/// unused and the event before the expected seq is in the log; a used key's saved answer comes
/// back as `prior`. sqlx prepares each shape once per connection (it caches statements by their
/// text). A lean statement is what keeps an append near a raw `INSERT`: the executor's start-up
/// for parts with nothing to write, and unpacking column arrays, were most of the server's extra
/// work per append (BENCHMARKS.md).
///
/// ```sql
/// WITH prior AS (SELECT response, request_hash FROM idempotency
///                WHERE game_id = $1 AND seat = $2 AND key = $3 AND created_at > $4),
/// expired AS (DELETE FROM idempotency WHERE game_id = $1 AND created_at <= $4 AND NOT (…this key)),
/// ok AS (SELECT 1 WHERE true AND NOT EXISTS (SELECT 1 FROM prior)
///        AND EXISTS (SELECT 1 FROM events WHERE game_id = $1 AND seq = $5)),
/// new_events AS (INSERT INTO events (…) SELECT v.* FROM ok, (VALUES ($6, $7, …)) AS v (…)),
/// new_outbox AS (INSERT INTO outbox (…) SELECT … FROM ok, (VALUES …) AS v (…) ORDER BY v.ord),
/// …
/// new_key AS (INSERT INTO idempotency … FROM ok ON CONFLICT … DO UPDATE … WHERE expired),
/// SELECT (SELECT count(*) FROM ok) AS moved, (SELECT response FROM prior) AS prior, …
/// ```
fn append_statement(game_id: &str, rows: &AppendRows) -> QueryBuilder<Postgres> {
    let mut q = QueryBuilder::new("WITH ");
    if let Some(key) = &rows.idempotency {
        // The key counts only while it lives; the game's other expired keys go.
        q.push("prior AS (SELECT response, request_hash FROM idempotency WHERE game_id = ")
            .push_bind(game_id)
            .push(" AND seat = ")
            .push_bind(key.seat.as_str())
            .push(" AND key = ")
            .push_bind(key.key.as_str())
            .push(" AND created_at > ")
            .push_bind(key.since.as_str())
            .push("::timestamptz), expired AS (DELETE FROM idempotency WHERE game_id = ")
            .push_bind(game_id)
            .push(" AND created_at <= ")
            .push_bind(key.since.as_str())
            .push("::timestamptz AND NOT (seat = ")
            .push_bind(key.seat.as_str())
            .push(" AND key = ")
            .push_bind(key.key.as_str())
            .push(")), ");
    }
    q.push("ok AS (SELECT 1 WHERE true");
    if rows.idempotency.is_some() {
        q.push(" AND NOT EXISTS (SELECT 1 FROM prior)");
    }
    if rows.expected_seq > 0 {
        q.push(" AND EXISTS (SELECT 1 FROM events WHERE game_id = ")
            .push_bind(game_id)
            .push(" AND seq = ")
            .push_bind(rows.expected_seq - 1)
            .push(")");
    }
    q.push(")");
    if !rows.events.is_empty() {
        q.push(
            ", new_events AS (INSERT INTO events (game_id, seq, kind, seat, hash, prev_hash, body) \
             SELECT v.* FROM ok, (",
        );
        push_event_values(&mut q, rows.events.iter().map(|e| (game_id, e)));
        q.push(") AS v (game_id, seq, kind, seat, hash, prev_hash, body))");
    }
    if rows.ends {
        q.push(", ended AS (UPDATE games SET ended = true FROM ok WHERE games.game_id = ")
            .push_bind(game_id)
            .push(")");
    }
    if !rows.secrets.is_empty() {
        q.push(
            ", new_secrets AS (INSERT INTO secrets (game_id, name, seat, value) \
             SELECT v.* FROM ok, (",
        );
        q.push_values(&rows.secrets, |mut v, s| {
            v.push_bind(game_id)
                .push_bind(s.name.as_str())
                .push_bind(s.seat.as_deref())
                .push_bind(s.value.as_str());
        });
        q.push(") AS v (game_id, name, seat, value))");
    }
    if !rows.outbox.is_empty() {
        // In the order given, so that ids run oldest first.
        q.push(", notices (game_id, seq, channel, seat, payload, ord, once, delay) AS (");
        push_outbox_values(&mut q, rows.outbox.iter().map(|o| (game_id, o)));
        q.push("), ");
        q.push(WAITING_ONCE);
        q.push(", ");
        q.push(retime_waiting("CROSS JOIN ok"));
        q.push(
            ", new_outbox AS (INSERT INTO outbox (game_id, seq, channel, seat, payload, next_attempt_at) \
             SELECT v.game_id, v.seq, v.channel, v.seat, v.payload, ",
        );
        q.push(DUE);
        q.push(" FROM ok, notices v WHERE ");
        q.push(NOT_WAITING);
        if rows.outbox.len() > 1 {
            q.push(" ORDER BY v.ord");
        }
        q.push(")");
    }
    if let Some(key) = &rows.idempotency {
        // The key's own expired row, if any, is taken over. A live row cannot be in the way: a
        // live key in the snapshot leaves `ok` empty, and one committed since by a racing append
        // means that append's events took this one's seq, so this statement fails on
        // `events_pkey` anyway.
        q.push(
            ", new_key AS (INSERT INTO idempotency (game_id, seat, key, request_hash, response, created_at) SELECT ",
        )
        .push_bind(game_id)
        .push(", ")
        .push_bind(key.seat.as_str())
        .push(", ")
        .push_bind(key.key.as_str())
        .push(", ")
        .push_bind(key.request_hash.as_str())
        .push(", ")
        .push_bind(key.response.as_str())
        .push(", ")
        .push_bind(key.used_at.as_str())
        .push(
            "::timestamptz FROM ok ON CONFLICT (game_id, seat, key) DO UPDATE SET \
             request_hash = EXCLUDED.request_hash, response = EXCLUDED.response, \
             created_at = EXCLUDED.created_at WHERE idempotency.created_at <= ",
        )
        .push_bind(key.since.as_str())
        .push("::timestamptz)");
    }
    q.push(" SELECT (SELECT count(*) FROM ok) AS moved, ");
    q.push(if rows.idempotency.is_some() {
        "(SELECT response FROM prior) AS prior, (SELECT request_hash FROM prior) AS prior_hash"
    } else {
        "NULL::text AS prior, NULL::text AS prior_hash"
    });
    q
}

/// Event rows as a `VALUES` list: `(game_id, seq, kind, seat, hash, prev_hash, body)`.
pub(super) fn push_event_values<'a>(
    q: &mut QueryBuilder<Postgres>,
    events: impl IntoIterator<Item = (&'a str, &'a EventRow)>,
) {
    q.push_values(events, |mut v, (game_id, e)| {
        v.push_bind(game_id)
            .push_bind(e.seq)
            .push_bind(e.kind.as_str())
            .push_bind(e.seat.as_str())
            .push_bind(e.hash.as_str())
            .push_bind(e.prev_hash.as_str())
            .push_bind(e.body.as_str());
    });
}

/// The CTE `waiting`: of the outbox rows `notices` (`push_outbox_values`) written only once per seat
/// (`Append::once_per_seat`), those a row of the same channel for the same seat already waits
/// for, unclaimed (not sent, and due or never tried: a delayed notice). Each such row is locked
/// for the statement, so that no dispatcher claims it in between and composes it without this
/// append's events; one that a dispatcher or another append holds is skipped, and the new row
/// is written.
pub(super) const WAITING_ONCE: &str = "waiting AS (\
    SELECT w.game_id, w.id, w.seat, w.channel, w.next_attempt_at FROM outbox w \
    WHERE w.sent_at IS NULL AND (w.next_attempt_at <= now() OR w.attempts = 0) \
      AND (w.game_id, w.seat, w.channel) IN (SELECT n.game_id, n.seat, n.channel FROM notices n WHERE n.once) \
    FOR UPDATE OF w SKIP LOCKED)";

/// The CTE `retimed`: a waiting row not due yet (a delayed notice, `OutboxRecord::delay`) takes
/// the due time of the new row that is not written for it — now, for a row at once; its own
/// or the new row's, whichever is later, for a delayed one. `guard` joins what the append's
/// success is read from (`ok`, `new_events`), so that an append that does not go in moves
/// nothing.
pub(super) fn retime_waiting(guard: &str) -> String {
    format!(
        "retimed AS (UPDATE outbox o SET next_attempt_at = CASE WHEN v.delay = 0 THEN now() \
         ELSE GREATEST(o.next_attempt_at, now() + v.delay * interval '1 second') END \
         FROM waiting w JOIN notices v ON v.once AND v.game_id = w.game_id \
           AND v.seat = w.seat AND v.channel = w.channel {guard} \
         WHERE o.game_id = w.game_id AND o.id = w.id AND w.next_attempt_at > now())"
    )
}

/// The due time of a new row `v` of `notices`.
pub(super) const DUE: &str = "now() + v.delay * interval '1 second'";

/// The condition on a row `v` of `notices` that it is written: not once per seat, or none waits.
pub(super) const NOT_WAITING: &str = "NOT (v.once AND EXISTS (SELECT 1 FROM waiting w \
    WHERE w.game_id = v.game_id AND w.seat = v.seat AND w.channel = v.channel))";

/// Outbox rows as a `VALUES` list: `(game_id, seq, channel, seat, payload, ord, once, delay)`,
/// `ord` their place in the list, so that an `ORDER BY` can give them ids oldest first, `once`
/// whether the row is written only when none of its channel waits for its seat, `delay` the
/// seconds until it falls due.
pub(super) fn push_outbox_values<'a>(
    q: &mut QueryBuilder<Postgres>,
    outbox: impl IntoIterator<Item = (&'a str, &'a OutboxInsert)>,
) {
    q.push_values(
        outbox.into_iter().zip(0i32..),
        |mut v, ((game_id, o), ord)| {
            v.push_bind(game_id)
                .push_bind(o.seq)
                .push_bind(o.channel.as_str())
                .push_bind(o.seat.as_deref())
                .push_bind(o.payload.as_str())
                .push_bind(ord)
                .push_bind(o.once)
                .push_bind(o.delay);
        },
    );
}

/// What the append statement answered.
struct Written {
    /// Whether the game moved on.
    moved: bool,
    /// The saved answer and request hash, if the idempotency key was in use.
    prior: Option<String>,
    prior_hash: Option<String>,
}

async fn write<'e, E>(executor: E, game_id: &str, rows: &AppendRows) -> Result<Written>
where
    E: Executor<'e, Database = Postgres>,
{
    let mut statement = append_statement(game_id, rows);
    let row = statement.build().fetch_one(executor).await?;
    let moved: i64 = row.try_get("moved")?;
    Ok(Written {
        moved: moved > 0,
        prior: row.try_get("prior")?,
        prior_hash: row.try_get("prior_hash")?,
    })
}
