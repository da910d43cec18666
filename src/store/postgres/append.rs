//! Appends on PostgreSQL: one statement writes a whole batch of appends, and a few writer lanes
//! gather the appends that arrive while the previous batch is being committed.
//!
//! The statement is a data-modifying `WITH`. For each append it moves the game's `next_seq` on
//! from the seq the caller expected (`UPDATE … FROM` the batch) and, only for the appends whose
//! game moved, inserts their events, secrets, outbox rows and idempotency key from column arrays
//! (`UNNEST`). An append whose key was used before moves nothing and gets the saved response back.
//! One statement is one implicit transaction: any error (a secret name taken, say) undoes the
//! whole batch, and then every append of it is written again on its own, so an append still
//! succeeds or fails by itself.
//!
//! Why batch: a commit waits for the WAL to reach the disk, and a round trip costs CPU on a small
//! machine; committing the appends of several games together pays that once for all of them.
//! A lane sends what is waiting as soon as it is free, so a lone append is not delayed.
//!
//! Races: a game always goes to the same lane (by a hash of its id), so two appends to one game in
//! one process either meet in one batch — the `UPDATE` applies one of them, the other no longer
//! matches — or follow each other. Across processes, the second `UPDATE` waits for the first's
//! row lock, re-reads the row once the first commits and no longer matches `next_seq = expected`.
//! Either way the loser writes nothing and is told the current seq.

use std::hash::{Hash, Hasher};
use std::sync::{Arc, OnceLock};

use sqlx::postgres::PgPool;
use sqlx::{Executor, Postgres, Row};
use tokio::sync::{mpsc, oneshot};

use crate::store::rows::AppendRows;
use crate::store::{Result, StoreError};

/// Most appends one statement carries.
const MAX_BATCH: usize = 64;

/// The batch statement. Every table is named with its `game_id`. Parameters are column arrays:
/// $1–$5 the appends (position in the batch, game, expected seq, next seq, ends the game),
/// $6–$9 their idempotency keys, $10–$16 events, $17–$20 secrets, $21–$25 outbox rows; every
/// row names the append it belongs to by its position.
const APPEND_BATCH: &str = "
WITH batch AS (
    SELECT * FROM UNNEST($1::int4[], $2::text[], $3::int8[], $4::int8[], $5::bool[])
        AS b (idx, game_id, expected, next, ends)
), keys AS (
    SELECT * FROM UNNEST($6::int4[], $7::text[], $8::text[], $9::text[]) AS k (idx, seat, key, response)
), prior AS (
    SELECT k.idx, i.response
    FROM keys k
    JOIN batch b ON b.idx = k.idx
    JOIN idempotency i ON i.game_id = b.game_id AND i.seat = k.seat AND i.key = k.key
), moved AS (
    UPDATE games g SET next_seq = b.next, ended = g.ended OR b.ends
    FROM batch b
    WHERE g.game_id = b.game_id AND g.next_seq = b.expected
      AND NOT EXISTS (SELECT 1 FROM prior p WHERE p.idx = b.idx)
    RETURNING b.idx, g.game_id
), new_events AS (
    INSERT INTO events (game_id, seq, kind, seat, hash, prev_hash, body)
    SELECT m.game_id, e.seq, e.kind, e.seat, e.hash, e.prev_hash, e.body
    FROM UNNEST($10::int4[], $11::int8[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[])
        AS e (idx, seq, kind, seat, hash, prev_hash, body)
    JOIN moved m ON m.idx = e.idx
), new_secrets AS (
    INSERT INTO secrets (game_id, name, seat, value)
    SELECT m.game_id, s.name, s.seat, s.value
    FROM UNNEST($17::int4[], $18::text[], $19::text[], $20::text[]) AS s (idx, name, seat, value)
    JOIN moved m ON m.idx = s.idx
), new_outbox AS (
    -- In the order given, so that ids run oldest first.
    INSERT INTO outbox (game_id, seq, channel, seat, payload)
    SELECT m.game_id, o.seq, o.channel, o.seat, o.payload
    FROM UNNEST($21::int4[], $22::int8[], $23::text[], $24::text[], $25::text[]) WITH ORDINALITY
        AS o (idx, seq, channel, seat, payload, ord)
    JOIN moved m ON m.idx = o.idx
    ORDER BY o.ord
), new_keys AS (
    INSERT INTO idempotency (game_id, seat, key, response)
    SELECT m.game_id, k.seat, k.key, k.response FROM keys k JOIN moved m ON m.idx = k.idx
)
SELECT idx, NULL::text AS prior FROM moved
UNION ALL
SELECT idx, response FROM prior";

/// What the statement did with one append.
#[derive(Debug)]
pub(super) enum Written {
    /// The game moved on and everything was inserted.
    Moved,
    /// The idempotency key had been used; the saved response.
    Replayed(String),
    /// The game was not at the expected seq (or does not exist): nothing was written.
    Missed,
}

/// One append to write: its game, its rows.
pub(super) struct Job {
    pub game_id: String,
    pub rows: AppendRows,
}

/// Writes `jobs` in one statement on `executor`; an outcome per job, in order.
pub(super) async fn write_batch<'e, E>(executor: E, jobs: &[&Job]) -> Result<Vec<Written>>
where
    E: Executor<'e, Database = Postgres>,
{
    let idx = |i: usize| i as i32;
    let mut q = sqlx::query(APPEND_BATCH)
        .bind((0..jobs.len()).map(idx).collect::<Vec<_>>())
        .bind(jobs.iter().map(|j| j.game_id.as_str()).collect::<Vec<_>>())
        .bind(jobs.iter().map(|j| j.rows.expected_seq).collect::<Vec<_>>())
        .bind(jobs.iter().map(|j| j.rows.next_seq).collect::<Vec<_>>())
        .bind(jobs.iter().map(|j| j.rows.ends).collect::<Vec<_>>());

    let keys: Vec<_> = jobs.iter().enumerate().filter_map(|(i, j)| Some((idx(i), j.rows.idempotency.as_ref()?))).collect();
    q = q
        .bind(keys.iter().map(|(i, _)| *i).collect::<Vec<_>>())
        .bind(keys.iter().map(|(_, k)| k.seat.as_str()).collect::<Vec<_>>())
        .bind(keys.iter().map(|(_, k)| k.key.as_str()).collect::<Vec<_>>())
        .bind(keys.iter().map(|(_, k)| k.response.as_str()).collect::<Vec<_>>());

    let events: Vec<_> = jobs.iter().enumerate().flat_map(|(i, j)| j.rows.events.iter().map(move |e| (idx(i), e))).collect();
    q = q
        .bind(events.iter().map(|(i, _)| *i).collect::<Vec<_>>())
        .bind(events.iter().map(|(_, e)| e.seq).collect::<Vec<_>>())
        .bind(events.iter().map(|(_, e)| e.kind.as_str()).collect::<Vec<_>>())
        .bind(events.iter().map(|(_, e)| e.seat.as_str()).collect::<Vec<_>>())
        .bind(events.iter().map(|(_, e)| e.hash.as_str()).collect::<Vec<_>>())
        .bind(events.iter().map(|(_, e)| e.prev_hash.as_str()).collect::<Vec<_>>())
        .bind(events.iter().map(|(_, e)| e.body.as_str()).collect::<Vec<_>>());

    let secrets: Vec<_> = jobs.iter().enumerate().flat_map(|(i, j)| j.rows.secrets.iter().map(move |s| (idx(i), s))).collect();
    q = q
        .bind(secrets.iter().map(|(i, _)| *i).collect::<Vec<_>>())
        .bind(secrets.iter().map(|(_, s)| s.name.as_str()).collect::<Vec<_>>())
        .bind(secrets.iter().map(|(_, s)| s.seat.as_deref()).collect::<Vec<_>>())
        .bind(secrets.iter().map(|(_, s)| s.value.as_str()).collect::<Vec<_>>());

    let outbox: Vec<_> = jobs.iter().enumerate().flat_map(|(i, j)| j.rows.outbox.iter().map(move |o| (idx(i), o))).collect();
    q = q
        .bind(outbox.iter().map(|(i, _)| *i).collect::<Vec<_>>())
        .bind(outbox.iter().map(|(_, o)| o.seq).collect::<Vec<_>>())
        .bind(outbox.iter().map(|(_, o)| o.channel.as_str()).collect::<Vec<_>>())
        .bind(outbox.iter().map(|(_, o)| o.seat.as_deref()).collect::<Vec<_>>())
        .bind(outbox.iter().map(|(_, o)| o.payload.as_str()).collect::<Vec<_>>());

    let mut written: Vec<Written> = jobs.iter().map(|_| Written::Missed).collect();
    for row in q.fetch_all(executor).await? {
        let at: i32 = row.try_get("idx")?;
        let slot = usize::try_from(at).ok().and_then(|at| written.get_mut(at));
        let Some(slot) = slot else { continue };
        *slot = match row.try_get::<Option<String>, _>("prior")? {
            Some(response) => Written::Replayed(response),
            None => Written::Moved,
        };
    }
    Ok(written)
}

/// The writer lanes of one pool, started on first use (starting them needs a runtime).
#[derive(Debug)]
pub(super) struct Lanes {
    pool: PgPool,
    count: usize,
    senders: OnceLock<Vec<mpsc::UnboundedSender<Queued>>>,
}

struct Queued {
    job: Job,
    reply: oneshot::Sender<Result<Written>>,
}

impl Lanes {
    pub(super) fn new(pool: PgPool, count: usize) -> Arc<Lanes> {
        Arc::new(Lanes { pool, count: count.max(1), senders: OnceLock::new() })
    }

    /// Writes `job` in the next batch of its game's lane. If the lane is gone (its runtime shut
    /// down), writes it directly.
    pub(super) async fn write(&self, job: Job) -> Result<Written> {
        let senders = self.senders.get_or_init(|| {
            (0..self.count)
                .map(|_| {
                    let (tx, rx) = mpsc::unbounded_channel();
                    tokio::spawn(lane(self.pool.clone(), rx));
                    tx
                })
                .collect()
        });
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        job.game_id.hash(&mut hasher);
        let sender = &senders[(hasher.finish() % senders.len() as u64) as usize];
        let (reply, answer) = oneshot::channel();
        match sender.send(Queued { job, reply }) {
            // A lane answers every append it takes; if its runtime stops first, it cannot be
            // known whether the append was written, so the caller hears a database error (and
            // may retry with its idempotency key).
            Ok(()) => answer.await.unwrap_or(Err(StoreError::Db(sqlx::Error::WorkerCrashed))),
            Err(mpsc::error::SendError(queued)) => write_one(&self.pool, &queued.job).await,
        }
    }
}

pub(super) async fn write_one(pool: &PgPool, job: &Job) -> Result<Written> {
    Ok(write_batch(pool, &[job]).await?.pop().unwrap_or(Written::Missed))
}

/// Takes what is waiting (up to `MAX_BATCH`), writes it in one statement, answers each append,
/// and goes on while any `PgStore` holds the lane.
async fn lane(pool: PgPool, mut rx: mpsc::UnboundedReceiver<Queued>) {
    while let Some(first) = rx.recv().await {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        if batch.len() == 1 {
            let Queued { job, reply } = batch.remove(0);
            let _ = reply.send(write_one(&pool, &job).await);
            continue;
        }
        let jobs: Vec<&Job> = batch.iter().map(|q| &q.job).collect();
        match write_batch(&pool, &jobs).await {
            Ok(outcomes) => {
                for (queued, outcome) in batch.into_iter().zip(outcomes) {
                    let _ = queued.reply.send(Ok(outcome));
                }
            }
            // One append spoiled the batch (a secret name taken, say): write each on its own so
            // that each gets its own answer.
            Err(_) => {
                for Queued { job, reply } in batch {
                    let _ = reply.send(write_one(&pool, &job).await);
                }
            }
        }
    }
}
