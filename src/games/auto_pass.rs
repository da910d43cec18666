//! The automatic pass (issue 38; docs/notifications.md, "Settings"): a seat that turned on
//! "pass reactive windows for me when I hold no card that can answer" (`Channels::auto_pass`)
//! and is prompted in a reaction window it holds nothing to answer (`Rules::auto_pass`) passes
//! at once. The server plays the seat's `pass` after the move that opened the window, in that
//! move's own append: an ordinary command event of the seat's, so the log and the export tell
//! it as it was, and the seat gets no notice for a window it had no say in. Every path of a move
//! goes through it (the page, the API, mail-in, a deadline's timeout), since all of them commit
//! through `moves`.

use crate::engine::game::{Game, Move, Played};
use crate::engine::ruleset::{PromptKind, Seat};
use serde_json::Value;

use super::secrets::{self, GameSecrets};
use super::{Games, Result};

/// At most this many passes after one move: a window passes each seat once, and the next
/// window opens only after a move of the rules' own; a bound all the same.
const MAX_PASSES: usize = 64;

/// What a pass played by the server carries as the seat's client entropy: the server chose it,
/// and the export says so.
pub const ENTROPY: &str = "auto-pass";

impl Games {
    /// `played` with the passes the server plays after it for the seats that asked for them.
    pub(super) async fn auto_passes(
        &self,
        game_id: &str,
        mut played: Played,
        secrets: &mut GameSecrets,
    ) -> Result<Played> {
        let mut known = 0;
        for _ in 0..MAX_PASSES {
            let Some((seat, command)) = self.next_auto_pass(game_id, &played.game).await? else {
                break;
            };
            // The secrets the moves so far made (a new dice chain) are the next one's too.
            secrets.add(&secrets::records(game_id, &played.secrets[known..]));
            known = played.secrets.len();
            let more = match played.game.play(
                Move::Command {
                    seat: seat.clone(),
                    command,
                    client_entropy: ENTROPY.into(),
                },
                secrets,
                &mut self.world(),
            ) {
                Ok(more) => more,
                // The rules offered a pass they then refuse: the seat is asked as ever, and
                // the move it followed stands.
                Err(e) => {
                    tracing::warn!(game_id, seat = %seat, rule = %e.rule, "an automatic pass was refused: {}", e.message);
                    break;
                }
            };
            played.events.extend(more.events);
            played.secrets.extend(more.secrets);
            played.game = more.game;
        }
        Ok(played)
    }

    /// The first seat prompted in a reaction window that holds nothing to answer it and asked
    /// to pass then, with its pass.
    async fn next_auto_pass(&self, game_id: &str, game: &Game) -> Result<Option<(Seat, Value)>> {
        for p in game.prompts() {
            if p.kind != PromptKind::Reaction {
                continue;
            }
            let Some(command) = game.ruleset.auto_pass(&game.state, &p.seat) else {
                continue;
            };
            if self
                .store
                .channels(game_id, p.seat.as_str())
                .await?
                .auto_pass
            {
                return Ok(Some((p.seat, command)));
            }
        }
        Ok(None)
    }
}
