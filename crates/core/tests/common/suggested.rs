//! A suggested order played on a copy of a game (issue 38): the suggestion tests of the engine
//! (every ruleset) and of Where Eagles Dare (every scenario with its options) share it.

use despatch_core::engine::bot::{MemorySecrets, TestWorld};
use despatch_core::engine::game::{Game, Move};
use despatch_core::engine::ruleset::Seat;

/// Plays `order` for `seat` on a copy of `game` (`Game::play` leaves the game as it was); the
/// rules must accept it. `what` names the suggestion in the error.
pub fn accepted(
    game: &Game,
    secrets: &MemorySecrets,
    seat: &Seat,
    order: &str,
    what: &str,
) -> Result<(), String> {
    let command = game
        .ruleset
        .parse(&game.state, seat, order)
        .map_err(|e| format!("{what} '{order}' for {seat} does not parse: {e}"))?;
    let mv = Move::Command {
        seat: seat.clone(),
        command,
        client_entropy: "suggested".into(),
    };
    game.play(mv, secrets, &mut TestWorld::new(game.next_seq))
        .map(|_| ())
        .map_err(|e| {
            format!(
                "{what} '{order}' for {seat} at seq {} is refused: {e}",
                game.next_seq
            )
        })
}
