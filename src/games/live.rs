//! Telling open pages that a game moved on. The games service announces every append here; it
//! does not know who listens. On PostgreSQL the announcement is a `NOTIFY` on the database,
//! which every server process `LISTEN`s to (`listen`), so a page open on one server hears moves
//! made through another (or appended by a scheduler running in `despatch dispatch`); on SQLite —
//! one process owns the file — the listener is told in-process.
//!
//! The listener is a trait so that the games service need not know the face that serves the
//! pages: notify's live hub (`notify::live::Hub`) implements it, and whoever builds the service
//! hands it over (`Games::with_listener`). Announcing is best effort: a lost push costs a page a
//! refresh, never an event.
//!
//! The `NOTIFY` is off the move's path: `announce` hands the tick to a task (started on first
//! use), which sends the ticks waiting in one statement, the latest of each game only, and then
//! rests `NOTIFY_EVERY` before the next. A move's answer does not wait for a round trip that
//! only pages need, and however fast moves come, a process costs the database at most one
//! `NOTIFY` statement per `NOTIFY_EVERY`. That matters: a statement that notifies is a
//! transaction of its own, with its own commit flushed to disk, and PostgreSQL lets one
//! notifying transaction commit at a time; sent as fast as moves came (every tick waiting, no
//! rest), 16 busy games made about 1,100 of them a second, one for every four moves
//! (BENCHMARKS.md, issue 16).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use crate::store::outbox::LIVE_CHANNEL;
use crate::store::Store;

/// "Game `game_id` now has `next_seq`": what an append announces.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tick {
    pub game_id: String,
    pub next_seq: u64,
}

/// Who hears, in this process, that a game moved on.
pub trait Listener: Send + Sync {
    /// Game `tick.game_id` has `tick.next_seq` now. Must not block.
    fn appended(&self, tick: Tick);
}

/// Nobody: a service that serves no pages (the CLI's one-shot commands, `dispatch`).
pub struct Nobody;

impl Listener for Nobody {
    fn appended(&self, _tick: Tick) {}
}

/// The most ticks one `NOTIFY` statement carries.
const TICKS_PER_STATEMENT: usize = 256;

/// The least time between two `NOTIFY` statements of one process. A page hears of a move at
/// most this much later than it would otherwise: far less than a player can tell, and a page
/// that hears late loses nothing (each tick carries the game's `next_seq`).
const NOTIFY_EVERY: Duration = Duration::from_millis(50);

/// Ticks on their way to the database's `NOTIFY`, once a task sends them.
#[derive(Clone, Default)]
pub(crate) struct Outgoing(Arc<Mutex<Option<mpsc::UnboundedSender<Tick>>>>);

/// Sends the ticks queued by `announce`: the latest of each game among those waiting, in
/// statements of at most `TICKS_PER_STATEMENT`, then a rest of `NOTIFY_EVERY`; if the database
/// cannot be told, tells `listener` in-process.
async fn send_ticks(
    listener: Arc<dyn Listener>,
    store: Store,
    ticks: mpsc::UnboundedReceiver<Tick>,
) {
    in_rounds(ticks, |latest| {
        let (listener, store) = (&listener, &store);
        async move {
            for batch in latest.chunks(TICKS_PER_STATEMENT) {
                let payloads: Vec<String> = batch
                    .iter()
                    .map(|t| serde_json::to_string(t).expect("a tick serialises"))
                    .collect();
                if let Err(e) = store.notify_appended_all(&payloads).await {
                    tracing::warn!(error = %e, "could not NOTIFY appends; pushing in-process only");
                    for tick in batch {
                        listener.appended(tick.clone());
                    }
                }
            }
        }
    })
    .await;
}

/// Hands `send` every tick waiting, the latest of each game only, and rests `NOTIFY_EVERY`
/// after each round; ends when every sender has gone.
async fn in_rounds<F, Sent>(mut ticks: mpsc::UnboundedReceiver<Tick>, mut send: F)
where
    F: FnMut(Vec<Tick>) -> Sent,
    Sent: std::future::Future<Output = ()>,
{
    let mut waiting = Vec::new();
    while ticks.recv_many(&mut waiting, usize::MAX).await > 0 {
        send(latest_of_each_game(waiting.drain(..))).await;
        tokio::time::sleep(NOTIFY_EVERY).await;
    }
}

/// One tick per game, the one with the highest `next_seq`, in the order the games first
/// appear: a page told of the latest fetches every event before it.
fn latest_of_each_game(ticks: impl IntoIterator<Item = Tick>) -> Vec<Tick> {
    let mut latest: Vec<Tick> = Vec::new();
    let mut at: HashMap<String, usize> = HashMap::new();
    for tick in ticks {
        match at.get(&tick.game_id) {
            Some(&i) => {
                if tick.next_seq > latest[i].next_seq {
                    latest[i] = tick;
                }
            }
            None => {
                at.insert(tick.game_id.clone(), latest.len());
                latest.push(tick);
            }
        }
    }
    latest
}

/// On PostgreSQL, starts a task that `LISTEN`s for appends and tells `listener` of each,
/// reconnecting whenever the connection drops. Nothing to do on SQLite.
pub(crate) fn listen(store: &Store, listener: Arc<dyn Listener>) {
    let Store::Postgres(pg) = store else {
        return;
    };
    let pool = pg.pool().clone();
    tokio::spawn(async move {
        loop {
            match sqlx::postgres::PgListener::connect_with(&pool).await {
                Ok(mut pg_listener) => {
                    if let Err(e) = pg_listener.listen(LIVE_CHANNEL).await {
                        tracing::warn!(error = %e, "cannot LISTEN for live pushes");
                    } else {
                        loop {
                            match pg_listener.recv().await {
                                Ok(n) => match serde_json::from_str::<Tick>(n.payload()) {
                                    Ok(tick) => listener.appended(tick),
                                    Err(e) => {
                                        tracing::warn!(error = %e, "a malformed live push")
                                    }
                                },
                                Err(e) => {
                                    tracing::warn!(error = %e, "the live-push listener lost its connection");
                                    break;
                                }
                            }
                        }
                    }
                }
                Err(e) => tracing::warn!(error = %e, "cannot connect the live-push listener"),
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    });
}

impl super::Games {
    /// Announces an append: through the database on PostgreSQL (every listening process hears
    /// it, this one included), to the listener directly on SQLite. Does not wait: on
    /// PostgreSQL the tick is queued for the sender task (`send_ticks`).
    pub(super) fn announce(&self, game_id: &str, next_seq: u64) {
        let tick = Tick {
            game_id: game_id.to_owned(),
            next_seq,
        };
        match &self.store {
            Store::Postgres(_) => {
                let mut outgoing = self.outgoing.0.lock().unwrap_or_else(|e| e.into_inner());
                let queued = match outgoing.as_ref() {
                    Some(sender) => sender.send(tick),
                    None => Err(mpsc::error::SendError(tick)),
                };
                // No task yet, or its runtime has gone: start one here.
                if let Err(mpsc::error::SendError(tick)) = queued {
                    let (sender, ticks) = mpsc::unbounded_channel();
                    let _ = sender.send(tick);
                    *outgoing = Some(sender);
                    tokio::spawn(send_ticks(self.live.clone(), self.store.clone(), ticks));
                }
            }
            Store::Sqlite(_) => self.live.appended(tick),
        }
    }

    /// The same service, telling `listener` of every append this process hears of (the
    /// server's live hub).
    pub fn with_listener(mut self, listener: Arc<dyn Listener>) -> Self {
        self.live = listener;
        self
    }

    /// On PostgreSQL, starts listening for the appends every process announces, and tells this
    /// service's listener of each. Must run inside a Tokio runtime; call it once per server.
    pub fn listen_for_appends(&self) {
        listen(&self.store, self.live.clone());
    }

    /// The game's next seq as the store has it now (one read, no fold), or `None` when there
    /// is no such game: where a live stream starts, and what an answer by mail follows.
    pub async fn next_seq(&self, game_id: &str) -> super::Result<Option<u64>> {
        Ok(self.store.game(game_id).await?.map(|g| g.next_seq))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tick(game_id: &str, next_seq: u64) -> Tick {
        Tick {
            game_id: game_id.into(),
            next_seq,
        }
    }

    #[test]
    fn one_tick_per_game_the_latest_in_the_order_games_first_appear() {
        let ticks = [
            tick("b", 4),
            tick("a", 9),
            tick("b", 6),
            tick("b", 5),
            tick("c", 1),
        ];
        assert_eq!(
            latest_of_each_game(ticks),
            [tick("b", 6), tick("a", 9), tick("c", 1)]
        );
        assert!(latest_of_each_game([]).is_empty());
    }

    /// However fast games move, the ticks go out at most once per `NOTIFY_EVERY`: the first
    /// at once, those that come meanwhile together after the rest, one per game.
    #[tokio::test(start_paused = true)]
    async fn ticks_go_out_at_once_then_at_most_once_per_notify_every() {
        let (sender, ticks) = mpsc::unbounded_channel();
        let sent = Arc::new(Mutex::new(Vec::new()));
        let began = tokio::time::Instant::now();
        let rounds = tokio::spawn(in_rounds(ticks, {
            let sent = sent.clone();
            move |latest| {
                sent.lock().unwrap().push((began.elapsed(), latest));
                async {}
            }
        }));
        let at = |ms: u64| tokio::time::sleep_until(began + Duration::from_millis(ms));
        sender.send(tick("a", 2)).unwrap();
        at(1).await;
        for (game, seq) in [("a", 3), ("b", 7), ("a", 4)] {
            sender.send(tick(game, seq)).unwrap();
        }
        at(30).await;
        sender.send(tick("a", 5)).unwrap();
        at(200).await;
        sender.send(tick("c", 1)).unwrap();
        drop(sender);
        rounds.await.unwrap();
        let ms = |ms| Duration::from_millis(ms);
        assert_eq!(
            *sent.lock().unwrap(),
            [
                (ms(0), vec![tick("a", 2)]),
                (ms(50), vec![tick("a", 5), tick("b", 7)]),
                (ms(200), vec![tick("c", 1)]),
            ]
        );
    }
}
