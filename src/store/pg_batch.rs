//! Group commit for the common append on PostgreSQL: one move's event and its outbox rows, with
//! no idempotency key, no secrets, not ending the game. Appends of different games that arrive
//! together are written by one statement — one transaction, one round trip, one WAL flush —
//! instead of one each. A few writer lanes take turns at a shared queue: a lane takes every
//! append waiting (up to `MAX_BATCH`, one per game) while the others' statements are in flight.
//!
//! Each append keeps its own answer. Its event is inserted with `ON CONFLICT DO NOTHING` and only
//! if the event before it is in the log; its outbox rows are inserted only if its event was, so
//! an append that lost a race or ran ahead of the log writes nothing while the others in its
//! batch go through, and learns why from `PgStore::after_miss` as a lone append does. One
//! event per append is what makes `DO NOTHING` safe: an append's rows are all written or none.
//! If the batch's statement fails (a lost connection, say), each of its appends is written
//! again on its own, so that it gets its own error. That fallback keeps every answer right, so
//! a statement that can never succeed (a mistake in its SQL) would pass every test while it
//! halves the moves: each batch is counted, written or failed, for `/metrics`
//! (`despatch_append_batches_total`) and for the store's tests (`Store::batched_appends`).
//!
//! Measured in BENCHMARKS.md ("Store appends"): on the project's 2-core machine, four appends
//! per statement did about 1.6 times the raw single-row `INSERT` rate in pgbench.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use sqlx::postgres::PgPool;
use sqlx::{Postgres, QueryBuilder, Row};
use tokio::sync::{mpsc, oneshot, Mutex};

use super::postgres::{
    push_event_values, push_outbox_values, retime_waiting, DUE, NOT_WAITING, WAITING_ONCE,
};
use super::rows::AppendRows;

/// How many writer lanes, each with at most one statement in flight.
const LANES: usize = 4;
/// The most appends one statement writes.
const MAX_BATCH: usize = 32;

/// One append waiting for its lane.
struct Waiting {
    game_id: String,
    rows: AppendRows,
    /// `Ok(true)` written, `Ok(false)` not moved (stale, ahead, no game), `Err(rows)`: the
    /// batch failed; write these rows on their own.
    reply: oneshot::Sender<Result<bool, AppendRows>>,
}

/// The queue the lanes share. Dropping the last clone of the store ends the lanes.
#[derive(Clone, Debug)]
pub(super) struct Batcher {
    queue: mpsc::UnboundedSender<Waiting>,
    counts: Arc<Counts>,
}

/// What the lanes of one store have written so far.
#[derive(Debug, Default)]
struct Counts {
    statements: AtomicU64,
    appends: AtomicU64,
    failed: AtomicU64,
}

/// How a store's batched appends went (`Store::batched_appends`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Batched {
    /// Batch statements that went through.
    pub statements: u64,
    /// Appends those statements carried.
    pub appends: u64,
    /// Batch statements that failed, whose appends were then written one by one.
    pub failed: u64,
}

impl Batcher {
    /// Starts the lanes on a thread of their own, with a runtime of its own: they must not
    /// depend on a caller's runtime being driven (a test that waits synchronously, say). `None`
    /// if the thread cannot be started; appends are then written one by one.
    pub(super) fn start(pool: PgPool) -> Option<Batcher> {
        let (queue, receiver) = mpsc::unbounded_channel();
        let counts = Arc::new(Counts::default());
        let lane_counts = counts.clone();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .ok()?;
        std::thread::Builder::new()
            .name("despatch-appends".into())
            .spawn(move || {
                let receiver = Arc::new(Mutex::new(receiver));
                runtime.block_on(async {
                    let lanes: Vec<_> = (0..LANES)
                        .map(|_| {
                            tokio::spawn(lane(pool.clone(), receiver.clone(), lane_counts.clone()))
                        })
                        .collect();
                    for lane in lanes {
                        let _ = lane.await;
                    }
                });
            })
            .ok()?;
        Some(Batcher { queue, counts })
    }

    /// How this store's batches have gone so far.
    pub(super) fn batched(&self) -> Batched {
        Batched {
            statements: self.counts.statements.load(Ordering::Relaxed),
            appends: self.counts.appends.load(Ordering::Relaxed),
            failed: self.counts.failed.load(Ordering::Relaxed),
        }
    }

    /// Whether an append can share a statement with others.
    pub(super) fn takes(rows: &AppendRows) -> bool {
        rows.events.len() == 1
            && rows.expected_seq > 0
            && rows.secrets.is_empty()
            && rows.idempotency.is_none()
            && !rows.ends
    }

    /// Writes `rows` in the next batch: `Ok(true)` written, `Ok(false)` not moved, `Err(rows)`
    /// when the batch could not be written (or the lanes are gone) and the caller should write
    /// the rows itself.
    pub(super) async fn append(&self, game_id: &str, rows: AppendRows) -> Result<bool, AppendRows> {
        let (reply, answer) = oneshot::channel();
        let waiting = Waiting {
            game_id: game_id.to_owned(),
            rows,
            reply,
        };
        if let Err(mpsc::error::SendError(waiting)) = self.queue.send(waiting) {
            return Err(waiting.rows);
        }
        // A lane drops the reply only if its thread ends mid-batch (the process shutting down):
        // answered as not moved, `after_miss` then reads where the game is (and finds the event, if the batch wrote it).
        answer.await.unwrap_or(Ok(false))
    }
}

async fn lane(
    pool: PgPool,
    queue: Arc<Mutex<mpsc::UnboundedReceiver<Waiting>>>,
    counts: Arc<Counts>,
) {
    let mut held: Option<Waiting> = None;
    loop {
        let mut batch: Vec<Waiting> = held.take().into_iter().collect();
        if batch.is_empty() {
            // Idle: wait for the queue, then for an append.
            let mut queue = queue.lock().await;
            match queue.recv().await {
                Some(w) => batch.push(w),
                None => return,
            }
            gather(&mut queue, &mut batch, &mut held);
        } else if let Ok(mut queue) = queue.try_lock() {
            // With an append in hand, never wait for the queue: the lane holding it may be
            // waiting for an append that only this one's answer would bring.
            gather(&mut queue, &mut batch, &mut held);
        }
        let outcome = write(&pool, &batch).await;
        crate::metrics::append_batch(outcome.is_ok());
        match outcome {
            Ok(written) => {
                counts.statements.fetch_add(1, Ordering::Relaxed);
                counts
                    .appends
                    .fetch_add(batch.len() as u64, Ordering::Relaxed);
                for w in batch {
                    let moved = written.contains(&w.game_id);
                    let _ = w.reply.send(Ok(moved));
                }
            }
            Err(e) => {
                counts.failed.fetch_add(1, Ordering::Relaxed);
                tracing::warn!(
                    "a batch of {} appends failed, writing each on its own: {e}",
                    batch.len()
                );
                for w in batch {
                    let _ = w.reply.send(Err(w.rows));
                }
            }
        }
    }
}

/// Adds to `batch` the appends already waiting, one per game: the first of a game already in the
/// batch is held back for the lane's next statement, and the gathering stops there.
fn gather(
    queue: &mut mpsc::UnboundedReceiver<Waiting>,
    batch: &mut Vec<Waiting>,
    held: &mut Option<Waiting>,
) {
    while batch.len() < MAX_BATCH {
        let Ok(next) = queue.try_recv() else { break };
        if batch.iter().any(|w| w.game_id == next.game_id) {
            *held = Some(next);
            break;
        }
        batch.push(next);
    }
}

/// Writes one batch; answers the games whose event went in.
async fn write(pool: &PgPool, batch: &[Waiting]) -> Result<Vec<String>, sqlx::Error> {
    let mut q: QueryBuilder<Postgres> =
        QueryBuilder::new("WITH v (game_id, seq, kind, seat, hash, prev_hash, body) AS (");
    push_event_values(
        &mut q,
        batch
            .iter()
            .map(|w| (w.game_id.as_str(), &w.rows.events[0])),
    );
    q.push(
        "), new_events AS (INSERT INTO events (game_id, seq, kind, seat, hash, prev_hash, body) \
         SELECT v.* FROM v WHERE EXISTS \
         (SELECT 1 FROM events e WHERE e.game_id = v.game_id AND e.seq = v.seq - 1) \
         ON CONFLICT (game_id, seq) DO NOTHING RETURNING game_id)",
    );
    let outbox = batch
        .iter()
        .flat_map(|w| w.rows.outbox.iter().map(move |o| (w.game_id.as_str(), o)));
    if batch.iter().any(|w| !w.rows.outbox.is_empty()) {
        // In the order given, so that ids run oldest first.
        q.push(", notices (game_id, seq, channel, seat, payload, ord, once, delay) AS (");
        push_outbox_values(&mut q, outbox);
        q.push("), ");
        q.push(WAITING_ONCE);
        q.push(", ");
        q.push(retime_waiting("JOIN new_events n ON n.game_id = v.game_id"));
        q.push(
            ", new_outbox AS (INSERT INTO outbox (game_id, seq, channel, seat, payload, next_attempt_at) \
             SELECT v.game_id, v.seq, v.channel, v.seat, v.payload, ",
        );
        q.push(DUE);
        q.push(" FROM notices v JOIN new_events n ON n.game_id = v.game_id WHERE ");
        q.push(NOT_WAITING);
        q.push(" ORDER BY v.ord)");
    }
    q.push(" SELECT game_id FROM new_events");
    let rows = q.build().fetch_all(pool).await?;
    rows.iter().map(|r| r.try_get("game_id")).collect()
}
