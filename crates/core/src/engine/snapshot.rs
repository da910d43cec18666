//! A folded game written down, so that a cold load folds only the events after it.
//!
//! A snapshot is an optimisation only: the log stays the truth. `verify` and exports never read
//! one, and a snapshot that does not restore to exactly the game the log folds to at its seq is
//! refused by [`Snapshot::restore`] (another ruleset or rules version, a body that does not
//! parse, a state whose hash is not the one recorded), so that the caller folds the log instead.
//! The caller also checks `event_hash` against the log's own event at `seq - 1`.
//!
//! A snapshot holds no secret: the hidden seed is given again on restore, from the secrets a
//! load reads anyway, and is written down only once the game has ended (when `GameEnded` has
//! made it public).

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::canonical::{hash_json, hex32, sha256_hex};
use super::game::{ChainCursor, Created, Game, OpenSeal};
use super::ruleset::Ruleset;

/// The version of the body's layout; a body of another is refused (and the log folded).
pub const FORMAT: u32 = 1;

/// A game folded up to (not including) event `seq`, as the store keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    pub game_id: String,
    /// The game's `next_seq` when it was taken: events `0..seq` are folded into it, and a load
    /// folds the events from `seq` on.
    pub seq: u64,
    /// The hash of event `seq - 1`, the last one folded.
    pub event_hash: String,
    /// The ruleset id, and the rules version the game plays under (its `GameCreated`'s), which
    /// folded it; a snapshot of another, or of a version this build does not play, is ignored.
    pub ruleset: String,
    pub rules_version: String,
    /// `Game::state_hash` of the state it holds.
    pub state_hash: String,
    /// The serialised game (`Body` as JSON).
    pub body: String,
}

/// What a snapshot's body holds: everything a `Game` folds, but its ruleset and hidden seed.
#[derive(Serialize, Deserialize)]
struct Body {
    format: u32,
    created: Created,
    state: Value,
    next_seq: u64,
    last_hash: String,
    chain: ChainCursor,
    open_seals: BTreeMap<String, OpenSeal>,
    ended: bool,
    /// The hidden seed as `GameEnded` revealed it (hex), once the game has ended; never before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    revealed_seed: Option<String>,
}

impl Snapshot {
    /// Writes a game down as it stands.
    pub fn of(game: &Game) -> Snapshot {
        let state = game.ruleset.state_json(&game.state);
        let body = Body {
            format: FORMAT,
            created: game.created.clone(),
            state,
            next_seq: game.next_seq,
            last_hash: game.last_hash.clone(),
            chain: game.chain.clone(),
            open_seals: game.open_seals.clone(),
            ended: game.ended,
            revealed_seed: game
                .ended
                .then(|| game.hidden_seed.map(hex::encode))
                .flatten(),
        };
        Snapshot {
            game_id: game.game_id.clone(),
            seq: game.next_seq,
            event_hash: game.last_hash.clone(),
            ruleset: game.created.ruleset.clone(),
            rules_version: game.created.ruleset_version.clone(),
            state_hash: hash_json(&body.state),
            body: serde_json::to_string(&body).expect("a game serialises to JSON"),
        }
    }

    /// The game this snapshot holds, folded by `ruleset` with the game's `hidden_seed` (from its
    /// secrets, as for a fold of the log), or why it cannot be used: then fold the log.
    pub fn restore(
        &self,
        ruleset: Arc<dyn Ruleset>,
        hidden_seed: Option<[u8; 32]>,
    ) -> Result<Game, String> {
        let id = ruleset.id();
        if self.ruleset != id || !ruleset.versions().contains(&self.rules_version.as_str()) {
            return Err(format!(
                "the snapshot was taken by {} {}, not {id} {}",
                self.ruleset,
                self.rules_version,
                super::game::versions_text(ruleset.versions())
            ));
        }
        let body: Body = serde_json::from_str(&self.body)
            .map_err(|e| format!("the snapshot's body does not parse: {e}"))?;
        if body.format != FORMAT {
            return Err(format!(
                "the snapshot's body is format {}, not {FORMAT}",
                body.format
            ));
        }
        if body.next_seq != self.seq || body.last_hash != self.event_hash {
            return Err("the snapshot's body is not at its seq and event hash".into());
        }
        if body.created.ruleset != id || body.created.ruleset_version != self.rules_version {
            return Err(format!(
                "the snapshot holds a {} game of rules version {}",
                body.created.ruleset, body.created.ruleset_version
            ));
        }
        let commitment = body.created.dice_commitments.hidden.as_deref();
        let hidden_seed = match (&body.revealed_seed, hidden_seed) {
            (Some(revealed), _) => {
                Some(hex32(revealed).ok_or("the snapshot's revealed seed is not 32 bytes of hex")?)
            }
            (None, Some(seed)) if commitment.is_some_and(|c| c != sha256_hex(&seed)) => {
                return Err("the hidden seed does not match its commitment".into())
            }
            (None, seed) => seed,
        };
        let state = ruleset
            .state_from_json(body.state)
            .map_err(|e| format!("the snapshot's state does not read: {e}"))?;
        let game = Game {
            ruleset,
            game_id: self.game_id.clone(),
            created: body.created,
            state,
            next_seq: body.next_seq,
            last_hash: body.last_hash,
            chain: body.chain,
            open_seals: body.open_seals,
            hidden_seed,
            ended: body.ended,
        };
        // The state read back must be the state written: a corrupted body, or rules that no
        // longer read their own JSON the same, are refused here.
        if game.state_hash() != self.state_hash {
            return Err("the snapshot's state does not hash to its recorded state hash".into());
        }
        Ok(game)
    }
}
