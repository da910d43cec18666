//! Loading a game: the cached fold moved on by what was appended since, or on a miss the latest
//! snapshot and the events after it (`snapshots`).

use crate::store::GameId;
use std::sync::Arc;

use crate::engine::event::Event;
use crate::engine::game::Game;
use crate::store::{GameRecord, SeatRecord};

use super::secrets::GameSecrets;
use super::{cache, Games, Result};

/// A loaded game: its record, its seats and its folded state.
pub struct Loaded {
    pub record: GameRecord,
    pub seats: Vec<SeatRecord>,
    /// The log from seq `log_from` on, shared with the fold cache (`cache`): cloning a
    /// `Loaded` copies no event. `log_from` is 0 unless the game was loaded from a snapshot and
    /// its earlier events have not been read since: `Games::whole_log` gives the whole log.
    pub(super) tail: Arc<Vec<Event>>,
    pub(super) log_from: u64,
    /// Shared with the fold cache: reading it copies nothing, and a move plays it into a new
    /// `Game` (`Game::play`) that the cache keeps in its place.
    pub game: Arc<Game>,
    pub secrets: GameSecrets,
}

impl Games {
    /// Loads a game folded to its latest event: the cached fold (`cache`) moved on by the events
    /// appended since — asked of the store every time, so a move made by another process is
    /// never missed — or, on a miss, its latest snapshot moved on by the events after it (or the
    /// whole log folded), and kept.
    ///
    /// The store is asked before the cached fold is taken: a move of the game while the query
    /// is out extends the cached log in place, where a load holding it would make the move copy
    /// the whole log to extend it (`FoldCache::advance`).
    pub async fn load(&self, game_id: &GameId) -> Result<Loaded> {
        if let Some(from) = self.folds.next_seq(game_id) {
            let tail = self.store.events(game_id, from, None).await?;
            // Moved on meanwhile by a move here: the events it holds are not folded again.
            let cached = self.folds.get(game_id).filter(|c| c.game.next_seq >= from);
            if let Some(cached) = cached {
                let at = cached.game.next_seq;
                let unfolded: Vec<Event> = tail.into_iter().filter(|e| e.seq >= at).collect();
                if unfolded.is_empty() {
                    return Ok(cached);
                }
                if let Some(l) = self.fold_on(game_id, cached, unfolded).await? {
                    return Ok(l);
                }
            }
        }
        let l = self.load_cold(game_id).await?;
        self.folds.put(&l);
        Ok(l)
    }

    /// Folds events appended by another process (or by a clock event here) onto the cached
    /// game, with the secrets they may have added read again, and keeps it; `None` when they
    /// do not fold (the fold is forgotten) or the cache let the game go meanwhile.
    async fn fold_on(
        &self,
        game_id: &str,
        cached: Loaded,
        tail: Vec<Event>,
    ) -> Result<Option<Loaded>> {
        let from = cached.game.next_seq;
        // The shared log let go of at once, so that `advance` extends it in place.
        let Loaded {
            game, tail: held, ..
        } = cached;
        drop(held);
        let mut game = Arc::unwrap_or_clone(game);
        if tail
            .iter()
            .try_for_each(|e| game.fold_event_quietly(e))
            .is_err()
        {
            self.folds.forget(game_id);
            return Ok(None);
        }
        let secrets = GameSecrets::from_records(&self.store.secrets(game_id).await?);
        let reloaded = cache::Secrets::Reloaded(secrets);
        if self.folds.advance(game_id, from, game, tail, reloaded) {
            return Ok(self.folds.get(game_id));
        }
        Ok(None)
    }
}

impl Loaded {
    /// The events this load holds, and the seq of the first: the whole log (from 0), or the
    /// events after the snapshot it was loaded from (see `Games::whole_log`).
    pub fn held(&self) -> (u64, &[Event]) {
        (self.log_from, &self.tail)
    }

    /// Lets go of the events this load holds (it then holds none): a reader done with the log
    /// lets go of it so that a move of the game meanwhile extends the cached log in place
    /// rather than copying it (`FoldCache::advance`).
    pub fn let_go_of_log(&mut self) {
        self.tail = Arc::default();
        self.log_from = self.game.next_seq;
    }

    /// The events from `seq` on, if this load holds them all (see `Games::whole_log`).
    pub fn events_from(&self, seq: u64) -> Option<&[Event]> {
        let skip = usize::try_from(seq.checked_sub(self.log_from)?).ok()?;
        self.tail.get(skip..)
    }
}
