//! The store's side of notifications: claiming outbox rows for delivery (several dispatchers
//! at once), recording every attempt, retrying with a due time, turning a notice into its
//! deliveries, and telling other server processes of appends. Webhooks, each seat's channels,
//! clock policies and server keys are modules of their own (`webhooks`, `channels`, `clocks`,
//! `keys`).
//!
//! A claim is a lease: it counts an attempt and moves the row's due time to the end of the lease.
//! A dispatcher that dies mid-send leaves the row to be claimed again when the lease runs out, so
//! every row is delivered at least once. On PostgreSQL the claim reads with
//! `FOR UPDATE SKIP LOCKED`, so racing dispatchers take different rows without waiting on each
//! other; on SQLite the claim is one `UPDATE … RETURNING` statement, which holds the database's
//! single write lock from the read to the write, so two claims never take the same row either.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::Row;

use super::rows;
use super::{OutboxRecord, OutboxRow, Result, Store, StoreError};
use crate::engine::event::timestamp;

/// An outbox row a dispatcher holds a lease on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Claimed {
    pub row: OutboxRow,
    /// Which attempt this is (1 for the first).
    pub attempt: i32,
    /// When the lease was taken.
    pub claimed_at: DateTime<Utc>,
}

/// One finished delivery attempt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, sqlx::FromRow)]
pub struct Attempt {
    pub outbox_id: i64,
    pub attempt: i32,
    pub dispatcher: String,
    pub ok: bool,
    pub error: Option<String>,
}

/// What one `Store::supersede_waiting` did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Superseded {
    /// Due notices looked at: the statement's limit when more may wait (on SQLite counted just
    /// before, so another dispatcher's work may make it differ).
    pub looked: u64,
    /// Notices let go.
    pub let_go: u64,
}

/// An outbox row with its delivery bookkeeping.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutboxState {
    pub row: OutboxRow,
    pub attempts: i32,
    pub sent: bool,
    pub last_error: Option<String>,
    /// The later notice that said all this one would have: it was let go unsent
    /// (`Store::supersede_waiting`).
    pub superseded_by: Option<i64>,
}

/// The whole outbox at a glance (`Store::outbox_health`).
#[derive(Debug, Clone, Copy, PartialEq, sqlx::FromRow)]
pub struct OutboxHealth {
    /// Rows not yet delivered.
    pub waiting: i64,
    /// Rows due now that no dispatcher holds.
    pub due: i64,
    /// Seconds since the longest-waiting due row fell due; 0 when none is due.
    #[sqlx(rename = "oldest")]
    pub oldest_due_secs: f64,
}

const PG_CLAIM: &str = "
WITH due AS (
    SELECT game_id, id FROM outbox
    WHERE sent_at IS NULL AND next_attempt_at <= $1::timestamptz
    ORDER BY next_attempt_at, id
    LIMIT $3
    FOR UPDATE SKIP LOCKED
)
UPDATE outbox o SET attempts = o.attempts + 1, next_attempt_at = $2::timestamptz, claimed_by = $4
FROM due WHERE o.game_id = due.game_id AND o.id = due.id
RETURNING o.id, o.game_id, o.seq, o.channel, o.seat, o.payload, o.attempts";

const SQLITE_CLAIM: &str = "
UPDATE outbox SET attempts = attempts + 1, next_attempt_at = $2, claimed_by = $4
WHERE id IN (
    SELECT id FROM outbox WHERE sent_at IS NULL AND next_attempt_at <= $1
    ORDER BY next_attempt_at, id LIMIT $3
)
RETURNING id, game_id, seq, channel, seat, payload, attempts";

/// The latest waiting notice of kind `$3` that says all a notice `o` says: same game and
/// seat, a later event (or the same event, written later).
macro_rules! later_notice {
    () => {
        "
    SELECT l.id FROM outbox l
    WHERE l.game_id = o.game_id AND l.seat = o.seat AND l.sent_at IS NULL AND l.channel = $3
      AND (l.seq > o.seq OR (l.seq = o.seq AND l.id > o.id))
    ORDER BY l.seq DESC, l.id DESC LIMIT 1"
    };
}

/// Up to `$4` due notices of the kinds `$2`, oldest due first as the claim takes rows (read
/// along the `outbox_due` index: no sort, however long the outbox has grown).
macro_rules! due_notices {
    () => {
        "SELECT id FROM outbox
    WHERE sent_at IS NULL AND next_attempt_at <= $1 AND seat IS NOT NULL
      AND channel IN (SELECT value FROM json_each($2))
    ORDER BY next_attempt_at, id
    LIMIT $4"
    };
}

/// The oldest due notices first, in the claim's order, so that the claim after it takes rows
/// already looked at. Each row let go is updated by its `ctid`, found by the locking read of
/// the same statement (so it cannot move meanwhile): joined back by its key, the planner
/// hashed the whole outbox for every statement, a cost that grew with the table rather than
/// the batch (BENCHMARKS.md, issue 16).
const PG_SUPERSEDE: &str = concat!(
    "
WITH due AS (
    SELECT ctid AS row, game_id, id, seat, seq FROM outbox
    WHERE sent_at IS NULL AND next_attempt_at <= $1::timestamptz AND seat IS NOT NULL
      AND channel = ANY($2::text[])
    ORDER BY next_attempt_at, id
    LIMIT $4
    FOR UPDATE SKIP LOCKED
), gone AS MATERIALIZED (
    SELECT o.row, (",
    later_notice!(),
    ") AS later FROM due o
), let_go AS (
    UPDATE outbox o SET sent_at = $1::timestamptz, superseded_by = g.later
    FROM gone g
    WHERE o.ctid = ANY(ARRAY(SELECT row FROM gone WHERE later IS NOT NULL)) AND o.ctid = g.row
    RETURNING 1
)
SELECT (SELECT count(*) FROM due) AS looked, (SELECT count(*) FROM let_go) AS let_go"
);

const SQLITE_SUPERSEDE: &str = concat!(
    "
UPDATE outbox AS o SET sent_at = $1, superseded_by = (",
    later_notice!(),
    ")
WHERE o.id IN (",
    due_notices!(),
    ") AND EXISTS (",
    later_notice!(),
    ")"
);

const SQLITE_DUE_NOTICES: &str = concat!("SELECT count(*) FROM (", due_notices!(), ")");

fn outbox_row<R>(row: &R) -> Result<OutboxRow>
where
    R: Row,
    for<'c> &'c str: sqlx::ColumnIndex<R>,
    for<'q> i64: sqlx::Decode<'q, R::Database> + sqlx::Type<R::Database>,
    for<'q> String: sqlx::Decode<'q, R::Database> + sqlx::Type<R::Database>,
    for<'q> Option<String>: sqlx::Decode<'q, R::Database> + sqlx::Type<R::Database>,
{
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
            delay: std::time::Duration::ZERO,
        },
    })
}

impl Store {
    /// Queues one outbox row outside an append (the answer to an inbound mail).
    pub async fn enqueue(&self, row: &OutboxRecord) -> Result<()> {
        let sql =
            "INSERT INTO outbox (game_id, seq, channel, seat, payload) VALUES ($1, $2, $3, $4, $5)";
        db_run!(self, writer pool => {
            sqlx::query(sql)
                .bind(&row.game_id)
                .bind(row.seq as i64)
                .bind(&row.channel)
                .bind(&row.seat)
                .bind(row.payload.to_string())
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Outbox rows of a game, oldest first.
    pub async fn outbox(&self, game_id: &str) -> Result<Vec<OutboxRow>> {
        let sql = "SELECT id, game_id, seq, channel, seat, payload FROM outbox WHERE game_id = $1 ORDER BY id";
        db_run!(self, reader pool => {
            let found = sqlx::query(sql).bind(game_id).fetch_all(pool).await?;
            found.iter().map(outbox_row).collect()
        })
    }

    /// Takes a lease on up to `limit` rows due at `now`, until `lease_until`, oldest due first.
    pub async fn claim_outbox(
        &self,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: i64,
        dispatcher: &str,
    ) -> Result<Vec<Claimed>> {
        let (now_s, until) = (timestamp(now), timestamp(lease_until));
        let sql = db_run!(self, postgres _ => PG_CLAIM, sqlite _ => SQLITE_CLAIM);
        let mut claimed = db_run!(self, reader pool => {
            let found = sqlx::query(sql)
                .bind(&now_s)
                .bind(&until)
                .bind(limit)
                .bind(dispatcher)
                .fetch_all(pool)
                .await?;
            found
                .iter()
                .map(|r| {
                    Ok(Claimed {
                        row: outbox_row(r)?,
                        attempt: r.try_get("attempts")?,
                        claimed_at: now,
                    })
                })
                .collect::<Result<Vec<_>>>()?
        });
        claimed.sort_by_key(|c| c.row.id);
        Ok(claimed)
    }

    /// Lets go every due notice of a kind in `kinds`, among the `limit` oldest due, that a later
    /// notice of kind `by_kind` for the same game and seat, still waiting, says all of: it is
    /// marked done unsent, naming that notice in `superseded_by`. "Later" is by the event the
    /// notice follows (its seq), then by id. The latest waiting notice of each seat is never let
    /// go, so whatever a seat is owed still reaches it, once. Rows another dispatcher holds are
    /// left to it. One statement, so a burst of moves in one game costs its waiting seats one
    /// composed notice each, not one per move.
    pub async fn supersede_waiting(
        &self,
        now: DateTime<Utc>,
        kinds: &[&str],
        by_kind: &str,
        limit: i64,
    ) -> Result<Superseded> {
        let now_s = timestamp(now);
        db_run!(self, postgres s => {
            let kinds: Vec<String> = kinds.iter().map(|k| (*k).to_owned()).collect();
            let (looked, let_go): (i64, i64) = sqlx::query_as(PG_SUPERSEDE)
                .bind(&now_s)
                .bind(&kinds)
                .bind(by_kind)
                .bind(limit)
                .fetch_one(s.pool())
                .await?;
            Ok(Superseded {
                looked: rows::to_u64(looked)?,
                let_go: rows::to_u64(let_go)?,
            })
        }, sqlite s => {
            let kinds = serde_json::to_string(kinds).expect("a list of names is JSON");
            // Counted apart (a hint for the dispatcher's pace, not a promise): a transaction
            // that reads before it writes could not take SQLite's write lock while another
            // dispatcher holds it.
            let looked: i64 = sqlx::query_scalar(SQLITE_DUE_NOTICES)
                .bind(&now_s)
                .bind(&kinds)
                .bind(by_kind)
                .bind(limit)
                .fetch_one(s.pool())
                .await?;
            let let_go = sqlx::query(SQLITE_SUPERSEDE)
                .bind(&now_s)
                .bind(&kinds)
                .bind(by_kind)
                .bind(limit)
                .execute(s.pool())
                .await?
                .rows_affected();
            Ok(Superseded {
                looked: rows::to_u64(looked)?,
                let_go,
            })
        })
    }

    /// Marks a claimed row delivered and records the attempt.
    pub async fn outbox_sent(
        &self,
        claim: &Claimed,
        dispatcher: &str,
        now: DateTime<Utc>,
    ) -> Result<()> {
        self.finish(claim, dispatcher, now, None, None).await
    }

    /// Records a failed attempt and makes the row due again at `retry_at`.
    pub async fn outbox_failed(
        &self,
        claim: &Claimed,
        dispatcher: &str,
        now: DateTime<Utc>,
        error: &str,
        retry_at: DateTime<Utc>,
    ) -> Result<()> {
        self.finish(claim, dispatcher, now, Some(error), Some(retry_at))
            .await
    }

    /// Only the row's bookkeeping changes; a row already marked sent (by a dispatcher whose
    /// lease ran out while this one worked) stays sent. The update and the attempt commit
    /// together.
    async fn finish(
        &self,
        claim: &Claimed,
        dispatcher: &str,
        now: DateTime<Utc>,
        error: Option<&str>,
        retry_at: Option<DateTime<Utc>>,
    ) -> Result<()> {
        let game_id = &claim.row.record.game_id;
        let when = timestamp(retry_at.unwrap_or(now));
        db_run!(self, postgres s => {
            // One statement, one round trip: the update and the attempt commit together, as
            // the transaction on SQLite does. A data-modifying `WITH` runs whether or not the
            // statement reads its rows.
            let sql = if error.is_none() {
                "WITH u AS (UPDATE outbox SET sent_at = $5::timestamptz, last_error = NULL
                            WHERE game_id = $1 AND id = $2 AND sent_at IS NULL)
                 INSERT INTO outbox_attempts (game_id, outbox_id, attempt, dispatcher, started_at, finished_at, ok, error)
                 VALUES ($1, $2, $3, $4, $6::timestamptz, $5::timestamptz, true, $7) ON CONFLICT DO NOTHING"
            } else {
                "WITH u AS (UPDATE outbox SET next_attempt_at = $8::timestamptz, last_error = $7
                            WHERE game_id = $1 AND id = $2 AND sent_at IS NULL)
                 INSERT INTO outbox_attempts (game_id, outbox_id, attempt, dispatcher, started_at, finished_at, ok, error)
                 VALUES ($1, $2, $3, $4, $6::timestamptz, $5::timestamptz, false, $7) ON CONFLICT DO NOTHING"
            };
            let mut q = sqlx::query(sql)
                .bind(game_id)
                .bind(claim.row.id)
                .bind(claim.attempt)
                .bind(dispatcher)
                .bind(timestamp(now))
                .bind(timestamp(claim.claimed_at))
                .bind(error);
            if error.is_some() {
                q = q.bind(&when);
            }
            q.execute(s.pool()).await?;
        }, sqlite s => {
            let update = if error.is_none() {
                "UPDATE outbox SET sent_at = $3, last_error = NULL WHERE game_id = $1 AND id = $2 AND sent_at IS NULL"
            } else {
                "UPDATE outbox SET next_attempt_at = $3, last_error = $4 WHERE game_id = $1 AND id = $2 AND sent_at IS NULL"
            };
            let mut tx = s.pool().begin().await?;
            let mut q = sqlx::query(update)
                .bind(game_id)
                .bind(claim.row.id)
                .bind(&when);
            if let Some(error) = error {
                q = q.bind(error);
            }
            q.execute(&mut *tx).await?;
            sqlx::query(
                "INSERT INTO outbox_attempts (game_id, outbox_id, attempt, dispatcher, started_at, finished_at, ok, error)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING",
            )
            .bind(game_id)
            .bind(claim.row.id)
            .bind(claim.attempt)
            .bind(dispatcher)
            .bind(timestamp(claim.claimed_at))
            .bind(timestamp(now))
            .bind(error.is_none())
            .bind(error)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
        });
        Ok(())
    }

    /// Turns a claimed notice into its deliveries: marks the notice done and inserts one outbox
    /// row per delivery, in one transaction. The deliveries are written already claimed by
    /// `dispatcher` until `lease_until` (their first attempt) and returned, so that it sends
    /// them at once instead of claiming them in a round of their own; one it cannot send is
    /// retried as any other. `None` (and nothing written) when the notice was already expanded
    /// — by a dispatcher whose lease ran out while it worked.
    pub async fn expand_notice(
        &self,
        claim: &Claimed,
        dispatcher: &str,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        deliveries: &[OutboxRecord],
    ) -> Result<Option<Vec<Claimed>>> {
        let game_id = &claim.row.record.game_id;
        if let Some(d) = deliveries.iter().find(|d| &d.game_id != game_id) {
            return Err(StoreError::Corrupt(format!(
                "a delivery of game {} given for a notice of game {game_id}",
                d.game_id
            )));
        }
        let until = timestamp(lease_until);
        db_run!(self,
            postgres s => expand_notice_pg(s.pool(), claim, dispatcher, now, &until, deliveries).await,
            sqlite s => expand_notice_sqlite(s.pool(), claim, dispatcher, now, &until, deliveries).await,
        )
    }

    /// Every outbox row of a game with its bookkeeping, oldest first.
    pub async fn outbox_states(&self, game_id: &str) -> Result<Vec<OutboxState>> {
        let sql = "SELECT id, game_id, seq, channel, seat, payload, attempts, sent_at IS NOT NULL AS sent, last_error, superseded_by
                   FROM outbox WHERE game_id = $1 ORDER BY id";
        db_run!(self, reader pool => {
            let found = sqlx::query(sql).bind(game_id).fetch_all(pool).await?;
            found
                .iter()
                .map(|r| {
                    Ok(OutboxState {
                        row: outbox_row(r)?,
                        attempts: r.try_get("attempts")?,
                        sent: r.try_get("sent")?,
                        last_error: r.try_get("last_error")?,
                        superseded_by: r.try_get("superseded_by")?,
                    })
                })
                .collect()
        })
    }

    /// How many outbox rows of any game wait to be delivered.
    pub async fn outbox_pending(&self) -> Result<i64> {
        let sql = "SELECT count(*) FROM outbox WHERE sent_at IS NULL";
        Ok(db_run!(self, reader pool => sqlx::query_scalar(sql).fetch_one(pool).await?))
    }

    /// What an operator watches of the whole outbox as of `now` (`/metrics`): rows waiting,
    /// rows due and not taken by a dispatcher, and how long the longest-waiting due row has been
    /// due.
    pub async fn outbox_health(&self, now: DateTime<Utc>) -> Result<OutboxHealth> {
        let now = timestamp(now);
        let sql = db_run!(self,
            postgres _ => "SELECT count(*) AS waiting,
                    count(*) FILTER (WHERE next_attempt_at <= $1::timestamptz) AS due,
                    COALESCE(EXTRACT(EPOCH FROM ($1::timestamptz - min(next_attempt_at)
                        FILTER (WHERE next_attempt_at <= $1::timestamptz))), 0)::float8 AS oldest
             FROM outbox WHERE sent_at IS NULL",
            sqlite _ => "SELECT count(*) AS waiting,
                    COALESCE(sum(next_attempt_at <= $1), 0) AS due,
                    COALESCE((julianday($1) - julianday(min(CASE WHEN next_attempt_at <= $1
                        THEN next_attempt_at END))) * 86400.0, 0.0) AS oldest
             FROM outbox WHERE sent_at IS NULL",
        );
        Ok(db_run!(self, reader pool => {
            sqlx::query_as(sql).bind(&now).fetch_one(pool).await?
        }))
    }

    /// Every finished attempt at a game's deliveries.
    pub async fn outbox_attempts(&self, game_id: &str) -> Result<Vec<Attempt>> {
        let sql = "SELECT outbox_id, attempt, dispatcher, ok, error FROM outbox_attempts
                   WHERE game_id = $1 ORDER BY outbox_id, attempt, dispatcher";
        Ok(db_run!(self, reader pool => {
            sqlx::query_as(sql).bind(game_id).fetch_all(pool).await?
        }))
    }
}

/// `Store::expand_notice` on PostgreSQL: one statement, so one round trip and one commit,
/// where the transaction on SQLite takes one per row. The notice is marked, its deliveries
/// inserted and the attempt recorded only if the mark took (a notice already expanded by a
/// dispatcher whose lease ran out is left alone).
async fn expand_notice_pg(
    pool: &sqlx::PgPool,
    claim: &Claimed,
    dispatcher: &str,
    now: DateTime<Utc>,
    until: &str,
    deliveries: &[OutboxRecord],
) -> Result<Option<Vec<Claimed>>> {
    const EXPAND: &str = "
WITH m AS (
    UPDATE outbox SET sent_at = $3::timestamptz
    WHERE game_id = $1 AND id = $2 AND sent_at IS NULL
    RETURNING id
), d AS (
    INSERT INTO outbox (game_id, seq, channel, seat, payload, attempts, next_attempt_at, claimed_by)
    SELECT $1, n.seq, n.channel, n.seat, n.payload, 1, $11::timestamptz, $5
    FROM m, unnest($6::bigint[], $7::text[], $8::text[], $9::text[]) WITH ORDINALITY AS n(seq, channel, seat, payload, ord)
    ORDER BY n.ord
    RETURNING id
), a AS (
    INSERT INTO outbox_attempts (game_id, outbox_id, attempt, dispatcher, started_at, finished_at, ok, error)
    SELECT $1, m.id, $4, $5, $10::timestamptz, $3::timestamptz, true, NULL FROM m
    ON CONFLICT DO NOTHING
)
SELECT (SELECT count(*) FROM m) AS marked, (SELECT array_agg(id ORDER BY id) FROM d) AS ids";
    let game_id = &claim.row.record.game_id;
    let mut seqs = Vec::with_capacity(deliveries.len());
    let mut channels = Vec::with_capacity(deliveries.len());
    let mut seats = Vec::with_capacity(deliveries.len());
    let mut payloads = Vec::with_capacity(deliveries.len());
    for d in deliveries {
        seqs.push(rows::to_i64(d.seq)?);
        channels.push(d.channel.clone());
        seats.push(d.seat.clone());
        payloads.push(payload_text(d)?);
    }
    let (marked, ids): (i64, Option<Vec<i64>>) = sqlx::query_as(EXPAND)
        .bind(game_id)
        .bind(claim.row.id)
        .bind(timestamp(now))
        .bind(claim.attempt)
        .bind(dispatcher)
        .bind(&seqs)
        .bind(&channels)
        .bind(&seats)
        .bind(&payloads)
        .bind(timestamp(claim.claimed_at))
        .bind(until)
        .fetch_one(pool)
        .await?;
    if marked == 0 {
        return Ok(None);
    }
    let ids = ids.unwrap_or_default();
    if ids.len() != deliveries.len() {
        return Err(StoreError::Corrupt(format!(
            "{} deliveries written for notice {} of game {game_id}, {} given",
            ids.len(),
            claim.row.id,
            deliveries.len()
        )));
    }
    // Identity ids are drawn in the order the rows are inserted, which is the order given.
    Ok(Some(
        ids.into_iter()
            .zip(deliveries)
            .map(|(id, d)| first_attempt(id, d.clone(), now))
            .collect(),
    ))
}

/// `Store::expand_notice` on SQLite: the mark and the deliveries in one transaction, then the
/// attempt (a notice already expanded by a dispatcher whose lease ran out is left alone).
async fn expand_notice_sqlite(
    pool: &sqlx::SqlitePool,
    claim: &Claimed,
    dispatcher: &str,
    now: DateTime<Utc>,
    until: &str,
    deliveries: &[OutboxRecord],
) -> Result<Option<Vec<Claimed>>> {
    let game_id = &claim.row.record.game_id;
    let mut tx = pool.begin().await?;
    let marked = sqlx::query(
        "UPDATE outbox SET sent_at = $3 WHERE game_id = $1 AND id = $2 AND sent_at IS NULL",
    )
    .bind(game_id)
    .bind(claim.row.id)
    .bind(timestamp(now))
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if marked == 0 {
        return Ok(None);
    }
    let mut claimed = Vec::with_capacity(deliveries.len());
    for d in deliveries {
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO outbox (game_id, seq, channel, seat, payload, attempts, next_attempt_at, claimed_by) \
             VALUES ($1, $2, $3, $4, $5, 1, $6, $7) RETURNING id",
        )
        .bind(game_id)
        .bind(rows::to_i64(d.seq)?)
        .bind(&d.channel)
        .bind(&d.seat)
        .bind(payload_text(d)?)
        .bind(until)
        .bind(dispatcher)
        .fetch_one(&mut *tx)
        .await?;
        claimed.push(first_attempt(id, d.clone(), now));
    }
    tx.commit().await?;
    sqlx::query(
        "INSERT INTO outbox_attempts (game_id, outbox_id, attempt, dispatcher, started_at, finished_at, ok, error)
         VALUES ($1, $2, $3, $4, $5, $6, 1, NULL) ON CONFLICT DO NOTHING",
    )
    .bind(game_id)
    .bind(claim.row.id)
    .bind(claim.attempt)
    .bind(dispatcher)
    .bind(timestamp(claim.claimed_at))
    .bind(timestamp(now))
    .execute(pool)
    .await?;
    Ok(Some(claimed))
}

/// A delivery's payload as the outbox keeps it.
fn payload_text(d: &OutboxRecord) -> Result<String> {
    serde_json::to_string(&d.payload)
        .map_err(|e| StoreError::Corrupt(format!("cannot serialise a delivery: {e}")))
}

/// A delivery written claimed by the dispatcher that wrote it: its first attempt.
fn first_attempt(id: i64, record: OutboxRecord, now: DateTime<Utc>) -> Claimed {
    Claimed {
        row: OutboxRow { id, record },
        attempt: 1,
        claimed_at: now,
    }
}

impl Store {
    /// Tells every listening server process that games have new `next_seq`s (`games::live`),
    /// each payload a tick's JSON, in order, in one statement. Nothing to do on SQLite: one
    /// process owns the file and tells its listener directly.
    pub async fn notify_appended_all(&self, payloads: &[String]) -> Result<()> {
        db_run!(self, postgres s => {
            sqlx::query(
                "SELECT count(pg_notify($1, p)) FROM unnest($2::text[]) WITH ORDINALITY AS t(p, n)",
            )
            .bind(LIVE_CHANNEL)
            .bind(payloads)
            .execute(s.pool())
            .await?;
        }, sqlite _ => {});
        Ok(())
    }
}

/// The PostgreSQL channel `notify_appended_all` speaks on.
pub const LIVE_CHANNEL: &str = "despatch_appended";
