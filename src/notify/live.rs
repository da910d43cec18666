//! Live pages: every open page of a game hears, through a server-sent events stream, that the
//! game has a new event. The games service announces each append to a listener it is given
//! (`games::live`: through PostgreSQL's `NOTIFY`, which every server process `LISTEN`s to, or
//! in-process on SQLite); this hub is that listener in a server: it fans each tick out to the
//! streams open in this process (`http::notify_api::stream`).
//!
//! A page that misses a push (a slow reader, a lost connection) loses nothing: each push carries
//! the game's `next_seq`, and the page fetches the events after the last one it has.

use tokio::sync::broadcast;

use crate::games::live::{Listener, Tick};

/// The in-process fan-out of ticks to open streams.
#[derive(Clone)]
pub struct Hub {
    tx: broadcast::Sender<Tick>,
}

impl Default for Hub {
    fn default() -> Self {
        Hub::new()
    }
}

impl Hub {
    pub fn new() -> Hub {
        let (tx, _) = broadcast::channel(1024);
        Hub { tx }
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Tick> {
        self.tx.subscribe()
    }
}

impl Listener for Hub {
    /// Tells the open streams of this process.
    fn appended(&self, tick: Tick) {
        // No receiver is no error: nobody has the game open.
        let _ = self.tx.send(tick);
    }
}
