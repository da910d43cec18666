//! Telling open pages that a game moved on, whichever process moved it. The games service
//! announces every append here; it does not know who listens.
//!
//! - **PostgreSQL**: the announcement is a `NOTIFY` on the database, which every server process
//!   `LISTEN`s to (`listen`), so a page open on one server hears moves made through another, by
//!   `despatch mail-in` or by the clocks of `despatch dispatch`.
//! - **SQLite**: this process's appends are told to the listener in-process at once. Another
//!   process's (`mail-in`, `dispatch`, a second server on the file) cannot be told, so the
//!   server notices them itself: while a page of this process watches a game (`Games::watch`,
//!   held by its live stream), a task asks the database every `POLL_EVERY` whether anyone has
//!   committed (`PRAGMA data_version`, one statement on a connection of its own, reading no
//!   table) and, if so, reads the next seq of the watched games in one statement and tells the
//!   listener of each that moved. With no page open it rests and holds no connection.
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
//! (BENCHMARKS.md, issue 16). A process that exits after its move (`mail-in`, `dispatch
//! --once`) calls `Games::flush_announcements` first, which sends what is waiting and waits
//! for it: the task would otherwise die with the process's runtime, its tick unsent.

use crate::store::GameId;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use crate::store::outbox::LIVE_CHANNEL;
use crate::store::{SqliteStore, Store};

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

/// How long `Games::flush_announcements` waits for the waiting ticks to be sent: a database
/// that does not answer must not keep a finished process from exiting.
const FLUSH_WAIT: Duration = Duration::from_secs(5);

/// How often, on SQLite, a server with pages open asks whether another connection committed.
/// A move made by another process reaches an open page at most this much later (and a page
/// that hears late loses nothing).
const POLL_EVERY: Duration = Duration::from_millis(500);

/// Ticks on their way to the database's `NOTIFY`, once a task sends them.
#[derive(Clone, Default)]
pub(crate) struct Outgoing(Arc<Mutex<Option<Sending>>>);

/// The task sending ticks, and the way to hand it more.
struct Sending {
    ticks: mpsc::UnboundedSender<Tick>,
    task: tokio::task::JoinHandle<()>,
}

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

/// The games the open pages of this process watch, each with how many pages watch it.
#[derive(Clone, Default)]
pub(crate) struct Watched(Arc<WatchedGames>);

#[derive(Default)]
struct WatchedGames {
    games: Mutex<HashMap<String, usize>>,
    /// Woken when a game comes to be watched, so that the poller stops resting.
    first: tokio::sync::Notify,
}

impl Watched {
    fn games(&self) -> std::sync::MutexGuard<'_, HashMap<String, usize>> {
        self.0.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn add(&self, game_id: &str) {
        *self.games().entry(game_id.to_owned()).or_default() += 1;
        // Stores a permit if the poller is not waiting yet, so the wake is never lost.
        self.0.first.notify_one();
    }

    fn remove(&self, game_id: &str) {
        let mut games = self.games();
        if let Some(pages) = games.get_mut(game_id) {
            *pages -= 1;
            if *pages == 0 {
                games.remove(game_id);
            }
        }
    }

    fn ids(&self) -> Vec<String> {
        self.games().keys().cloned().collect()
    }

    fn is_empty(&self) -> bool {
        self.games().is_empty()
    }
}

/// A page's watch on a game (`Games::watch`); dropping it ends the watch.
pub struct Watch {
    watched: Watched,
    game_id: String,
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.watched.remove(&self.game_id);
    }
}

/// On SQLite, tells `listener` of the appends any connection commits to a watched game:
/// while a game is watched, every `POLL_EVERY` asks whether anything was committed since
/// (`CommitWatch`) and, if so, or if a game has come to be watched since, reads the watched
/// games' next seqs and tells of each that is not the one last told. Rests, holding no
/// connection, while no game is watched. Ends with its runtime.
async fn poll_commits(store: SqliteStore, watched: Watched, listener: Arc<dyn Listener>) {
    loop {
        while watched.is_empty() {
            watched.0.first.notified().await;
        }
        let mut commits = match store.commit_watch().await {
            Ok(commits) => commits,
            Err(e) => {
                tracing::warn!(error = %e, "cannot watch the database for other processes' moves");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        let mut told: HashMap<String, u64> = HashMap::new();
        while !watched.is_empty() {
            if let Err(e) = poll_once(&store, &mut commits, &watched, &mut told, &*listener).await {
                tracing::warn!(error = %e, "cannot read the database for other processes' moves");
                tokio::time::sleep(Duration::from_secs(1)).await;
                break;
            }
            tokio::time::sleep(POLL_EVERY).await;
        }
    }
}

/// One round of `poll_commits`. The commit check comes first: whatever commits after it is
/// seen by the next round, and whatever committed before it is in the seqs read now.
async fn poll_once(
    store: &SqliteStore,
    commits: &mut crate::store::CommitWatch,
    watched: &Watched,
    told: &mut HashMap<String, u64>,
    listener: &dyn Listener,
) -> crate::store::Result<()> {
    let changed = commits.changed().await?;
    let ids = watched.ids();
    told.retain(|id, _| ids.contains(id));
    if !changed && ids.iter().all(|id| told.contains_key(id)) {
        return Ok(());
    }
    for (game_id, next_seq) in store.next_seqs(&ids).await? {
        if told.insert(game_id.clone(), next_seq) != Some(next_seq) {
            listener.appended(Tick { game_id, next_seq });
        }
    }
    Ok(())
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
                    Some(sending) => sending.ticks.send(tick),
                    None => Err(mpsc::error::SendError(tick)),
                };
                // No task yet, or its runtime has gone: start one here.
                if let Err(mpsc::error::SendError(tick)) = queued {
                    let (sender, ticks) = mpsc::unbounded_channel();
                    let _ = sender.send(tick);
                    let task =
                        tokio::spawn(send_ticks(self.live.clone(), self.store.clone(), ticks));
                    *outgoing = Some(Sending {
                        ticks: sender,
                        task,
                    });
                }
            }
            Store::Sqlite(_) => self.live.appended(tick),
        }
    }

    /// Sends the announcements still waiting (PostgreSQL's `NOTIFY`) and waits for them, up to
    /// `FLUSH_WAIT`. A process that exits right after it appends calls this first: its
    /// announcements are sent by a task that dies with the process. A later append starts a
    /// new task. Nothing to do on SQLite, whose servers notice other processes' commits.
    pub async fn flush_announcements(&self) {
        let sending = self
            .outgoing
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(Sending { ticks, task }) = sending {
            // Without a sender the task sends what is waiting and ends.
            drop(ticks);
            if tokio::time::timeout(FLUSH_WAIT, task).await.is_err() {
                tracing::warn!("the database was not told of the last appends in time: open pages will hear of them at their next refresh");
            }
        }
    }

    /// A page's watch on `game_id`, held while its live stream is open: on SQLite, while any
    /// game is watched the server notices the appends other processes make (`poll_commits`).
    pub fn watch(&self, game_id: &GameId) -> Watch {
        self.watched.add(game_id);
        Watch {
            watched: self.watched.clone(),
            game_id: game_id.to_string(),
        }
    }

    /// The same service, telling `listener` of every append this process hears of (the
    /// server's live hub).
    pub fn with_listener(mut self, listener: Arc<dyn Listener>) -> Self {
        self.live = listener;
        self
    }

    /// Starts hearing of the appends other processes make, and tells this service's listener
    /// of each: on PostgreSQL by `LISTEN`, on SQLite by watching for commits while pages are
    /// open. Must run inside a Tokio runtime; call it once per server.
    pub fn listen_for_appends(&self) {
        match &self.store {
            Store::Postgres(_) => listen(&self.store, self.live.clone()),
            Store::Sqlite(sqlite) => {
                tokio::spawn(poll_commits(
                    sqlite.clone(),
                    self.watched.clone(),
                    self.live.clone(),
                ));
            }
        }
    }

    /// The game's next seq as the store has it now (one read, no fold), or `None` when there
    /// is no such game: where a live stream starts, and what an answer by mail follows.
    pub async fn next_seq(&self, game_id: &GameId) -> super::Result<Option<u64>> {
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
