//! Live pages: every open page of a game hears, through a server-sent events stream, that the
//! game has a new event. The games service announces each append; on PostgreSQL the
//! announcement is a `NOTIFY` on the database, which every server process `LISTEN`s to, so a
//! page open on one server hears moves made through another (or appended by a scheduler running
//! in `despatch dispatch`); on SQLite — one process owns the file — the hub is told in-process.
//!
//! A page that misses a push (a slow reader, a lost connection) loses nothing: each push carries
//! the game's `next_seq`, and the page fetches the events after the last one it has.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

use crate::store::outbox::LIVE_CHANNEL;
use crate::store::Store;

/// "Game `game_id` now has `next_seq`": the `data` of an `event: game` on the stream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tick {
    pub game_id: String,
    pub next_seq: u64,
}

/// The in-process fan-out of ticks to open streams.
#[derive(Clone)]
pub struct Hub {
    tx: broadcast::Sender<Tick>,
    listening: Arc<AtomicBool>,
}

impl Default for Hub {
    fn default() -> Self {
        Hub::new()
    }
}

impl Hub {
    pub fn new() -> Hub {
        let (tx, _) = broadcast::channel(1024);
        Hub {
            tx,
            listening: Arc::new(AtomicBool::new(false)),
        }
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Tick> {
        self.tx.subscribe()
    }

    /// Tells the open streams of this process.
    pub fn publish_local(&self, tick: Tick) {
        // No receiver is no error: nobody has the game open.
        let _ = self.tx.send(tick);
    }

    /// Announces an append: through the database on PostgreSQL (every listening process hears
    /// it, this one included), in-process on SQLite. Best effort: a lost push costs a page a
    /// refresh, never an event.
    pub async fn announce(&self, store: &Store, game_id: &str, next_seq: u64) {
        let tick = Tick {
            game_id: game_id.to_owned(),
            next_seq,
        };
        match store {
            Store::Postgres(_) => {
                if let Err(e) = store.notify_appended(game_id, next_seq).await {
                    tracing::warn!(error = %e, "could not NOTIFY an append; pushing in-process only");
                    self.publish_local(tick);
                }
            }
            Store::Sqlite(_) => self.publish_local(tick),
        }
    }

    /// On PostgreSQL, starts (once) a task that `LISTEN`s for appends and feeds them to this
    /// hub, reconnecting whenever the connection drops. Nothing to do on SQLite.
    pub fn listen(&self, store: &Store) {
        let Store::Postgres(pg) = store else {
            return;
        };
        if self.listening.swap(true, Ordering::SeqCst) {
            return;
        }
        let pool = pg.pool().clone();
        let hub = self.clone();
        tokio::spawn(async move {
            loop {
                match sqlx::postgres::PgListener::connect_with(&pool).await {
                    Ok(mut listener) => {
                        if let Err(e) = listener.listen(LIVE_CHANNEL).await {
                            tracing::warn!(error = %e, "cannot LISTEN for live pushes");
                        } else {
                            loop {
                                match listener.recv().await {
                                    Ok(n) => match serde_json::from_str::<Tick>(n.payload()) {
                                        Ok(tick) => hub.publish_local(tick),
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
}
