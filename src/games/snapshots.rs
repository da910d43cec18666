//! Snapshots for cold games (issue 16): a game that no process holds folded is loaded from its
//! latest snapshot and the events after it, not from its whole log.
//!
//! Every [`Every`] events (256 unless `DESPATCH_SNAPSHOT_EVERY` says otherwise) the move path
//! writes the game it has just played to the store (`engine::snapshot`), after the append has
//! succeeded and in a task of its own, so that a move never waits for it; a failure is only
//! logged. A cold load that had to fold more than N events (a game older than its snapshots)
//! writes one too.
//!
//! A snapshot is an optimisation only: the log stays the truth, and `verify` and exports never
//! read one. A cold load ignores (and logs) a snapshot of another ruleset or rules version, one
//! whose body does not parse or whose state does not hash to its recorded hash, and one whose
//! event hash is not the hash of the log's own event at its seq, and folds the whole log instead.
//! The events before the snapshot are read only when a reader asks for the whole log
//! (`Games::whole_log`): the log and replay pages, notices, deadlines and vacations.

use std::sync::Arc;

use crate::engine::event::Event;
use crate::engine::game::Game;
use crate::engine::ruleset::Ruleset;
use crate::engine::snapshot::Snapshot;
use crate::store::GameRecord;

use super::error::WouldNotLoad;
use super::secrets::GameSecrets;
use super::{Games, Loaded, Result, ServiceError};

/// How often a game is snapshotted, in events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Every(pub u64);

impl Default for Every {
    /// 256 events: a cold load folds at most about that many, while a game of 10,000 events
    /// keeps one snapshot (older ones are dropped) written 39 times over its life.
    fn default() -> Self {
        Every(256)
    }
}

impl Every {
    /// Reads `DESPATCH_SNAPSHOT_EVERY` (default 256; 0 writes none). A value that does not parse
    /// is reported and the default used.
    pub fn from_env() -> Every {
        match std::env::var("DESPATCH_SNAPSHOT_EVERY") {
            Err(_) => Every::default(),
            Ok(text) => text.trim().parse().map(Every).unwrap_or_else(|_| {
                let default = Every::default();
                tracing::warn!(
                    "DESPATCH_SNAPSHOT_EVERY='{text}' is not a whole number; using the default, {}",
                    default.0
                );
                default
            }),
        }
    }

    /// Whether a game moved on from `from` to `to` passed a multiple of N.
    fn crossed(self, from: u64, to: u64) -> bool {
        self.0 > 0 && from / self.0 != to / self.0
    }
}

impl Games {
    /// After an append moved a game on from `from` to `game`: writes its snapshot when it
    /// passed a multiple of N.
    pub(super) fn snapshot_after_append(&self, from: u64, game: &Game) {
        if self.snapshots.crossed(from, game.next_seq) {
            self.write_snapshot(game.clone());
        }
    }

    /// Writes a game's snapshot in a task of its own, best effort.
    fn write_snapshot(&self, game: Game) {
        let store = self.store.clone();
        tokio::spawn(async move {
            let snapshot = Snapshot::of(&game);
            if let Err(e) = store.put_snapshot(&snapshot).await {
                tracing::warn!(
                    game_id = %snapshot.game_id,
                    seq = snapshot.seq,
                    "the game's snapshot was not written (loads fold from the last one): {e}"
                );
            }
        });
    }

    /// Loads a game no cache holds: its latest usable snapshot and the events after it, or the
    /// whole log folded. The events the load did not read are left to `Games::whole_log`.
    pub(super) async fn load_cold(&self, game_id: &str) -> Result<Loaded> {
        let record = self
            .store
            .game(game_id)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("there is no game {game_id}")))?;
        let Some(ruleset) = crate::rules::find(&record.ruleset) else {
            let problem = format!("this server does not play the ruleset '{}'", record.ruleset);
            let first = self.store.events(game_id, 0, Some(1)).await?;
            return Err(would_not_load(&record, first.first(), 0, problem).into());
        };
        let seats = self.store.seats(game_id).await?;
        let secrets = GameSecrets::from_records(&self.store.secrets(game_id).await?);
        let restored = match self.store.latest_snapshot(game_id).await? {
            Some(snapshot) => self.restore(&snapshot, ruleset.clone(), &secrets).await?,
            None => None,
        };
        let (game, events, log_from) = match restored {
            Some(restored) => restored,
            None => {
                let events = self.store.events(game_id, 0, None).await?;
                let game = Game::fold(ruleset, &events, secrets.hidden_seed)
                    .map_err(|e| would_not_load(&record, events.first(), e.seq, e.problem))?;
                (game, events, 0)
            }
        };
        if self.snapshots.0 > 0 && game.next_seq - log_from > self.snapshots.0 {
            self.write_snapshot(game.clone());
        }
        // The record is read before the events: it may be behind them.
        let record = GameRecord {
            next_seq: game.next_seq,
            ended: game.ended,
            ..record
        };
        Ok(Loaded {
            record,
            seats,
            tail: Arc::new(events),
            log_from,
            game: Arc::new(game),
            secrets,
        })
    }

    /// The game a snapshot holds folded on to the end of the log, with the events after the
    /// snapshot and its seq; `None` (logged) when the snapshot may not be used.
    async fn restore(
        &self,
        snapshot: &Snapshot,
        ruleset: Arc<dyn Ruleset>,
        secrets: &GameSecrets,
    ) -> Result<Option<(Game, Vec<Event>, u64)>> {
        let game_id = &snapshot.game_id;
        let ignored = |why: &str| {
            tracing::warn!(
                %game_id,
                seq = snapshot.seq,
                "the game's snapshot is ignored and its whole log folded: {why}"
            );
            Ok(None)
        };
        let mut game = match snapshot.restore(ruleset, secrets.hidden_seed) {
            Ok(game) => game,
            Err(why) => return ignored(&why),
        };
        // From the event the snapshot follows, to check that it is the log's.
        let mut events = self.store.events(game_id, snapshot.seq - 1, None).await?;
        match events.first() {
            Some(e) if e.seq + 1 == snapshot.seq && e.hash == snapshot.event_hash => {}
            _ => return ignored("its event hash is not the hash of the log's event"),
        }
        events.remove(0);
        if let Err(e) = events.iter().try_for_each(|e| game.fold_event_quietly(e)) {
            return ignored(&format!("the events after it do not fold onto it: {e}"));
        }
        Ok(Some((game, events, snapshot.seq)))
    }

    /// The whole log of the game as `l` holds it: the events `l` holds, after the ones a cold
    /// load from a snapshot did not read (read now, and kept in the fold cache for the next
    /// reader).
    pub async fn whole_log(&self, l: &Loaded) -> Result<Arc<Vec<Event>>> {
        if l.log_from == 0 {
            return Ok(l.tail.clone());
        }
        let game_id = &l.record.game_id;
        let mut events = self.store.events(game_id, 0, Some(l.log_from)).await?;
        if events.len() as u64 != l.log_from {
            return Err(ServiceError::Corrupt(format!(
                "the log of {game_id} has {} events before seq {}",
                events.len(),
                l.log_from
            )));
        }
        self.folds.fill_log(game_id, &events);
        events.extend(l.tail.iter().cloned());
        Ok(Arc::new(events))
    }
}

/// Why the game of `record` does not load: the first event that does not fold, `seq`, and what
/// is wrong with it, with the rules version its `GameCreated` (`first`) records.
pub(super) fn would_not_load(
    record: &GameRecord,
    first: Option<&Event>,
    seq: u64,
    problem: String,
) -> WouldNotLoad {
    let ruleset_version = first
        .and_then(|e| e.payload.get("ruleset_version"))
        .and_then(serde_json::Value::as_str)
        .unwrap_or("unknown")
        .to_owned();
    WouldNotLoad {
        game_id: record.game_id.to_string(),
        ruleset: record.ruleset.clone(),
        ruleset_version,
        seq,
        problem,
    }
}
