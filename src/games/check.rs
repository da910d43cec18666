//! Whether the stored games load with this build (issue 37), for `despatch check`: an operator
//! runs it with a new build, against a copy of the database, before switching a server over.
//!
//! A game is loaded as a server loads it when no fold is cached (`snapshots`: its latest usable
//! snapshot and the events after it, else its whole log), by a service that writes no snapshot
//! and caches nothing, so that checking changes nothing in the database. A game loaded from a
//! snapshot has its whole log folded too, since its log page and its export fold that.

use crate::engine::game::Game;
use crate::store::GameId;

use super::snapshots::would_not_load;
use super::{Games, Result, ServiceError, WouldNotLoad};

impl Games {
    /// The games `despatch check` folds: those not ended, or every one with `ended_too`, oldest
    /// first.
    pub async fn games_to_check(&self, ended_too: bool) -> Result<Vec<GameId>> {
        Ok(self.store.game_ids(ended_too).await?)
    }

    /// Why the game does not load with this build, or `None` when it does.
    pub async fn check_loads(&self, game_id: &GameId) -> Result<Option<WouldNotLoad>> {
        let loaded = match self.load_cold(game_id).await {
            Ok(loaded) => loaded,
            Err(ServiceError::WouldNotLoad(why)) => return Ok(Some(*why)),
            Err(e) => return Err(e),
        };
        if loaded.log_from == 0 {
            return Ok(None);
        }
        let events = self.store.events(game_id, 0, None).await?;
        let hidden_seed = loaded.secrets.hidden_seed;
        match Game::fold(loaded.game.ruleset.clone(), &events, hidden_seed) {
            Ok(_) => Ok(None),
            Err(e) => Ok(Some(would_not_load(
                &loaded.record,
                events.first(),
                e.seq,
                format!(
                    "{} (the game loads from its snapshot at seq {}, but its whole log, which its log page and its export fold, does not)",
                    e.problem, loaded.log_from
                ),
            ))),
        }
    }
}
