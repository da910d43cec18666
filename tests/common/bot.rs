//! A random legal player through the games service, for the tests that grow games of every
//! ruleset (the fold cache, snapshots).

use std::sync::Arc;

use despatch::engine::bot::Rng;
use despatch::engine::ruleset::Ruleset;
use despatch::games::{
    Caller, CommandInput, GameId, Games, NewGame, NewSeat, ServiceError, Submit,
};
use serde_json::json;

/// A game of the ruleset's first scenario with as few seats as it takes (two at least), named
/// after game `n`.
pub fn new_game(ruleset: &Arc<dyn Ruleset>, n: usize) -> NewGame {
    let info = ruleset.info();
    let scenario = &info.scenarios[0];
    let count = scenario.min_seats.max(2).min(scenario.max_seats);
    let seats = (0..count)
        .map(|i| match scenario.seats.get(i) {
            Some(id) => NewSeat {
                seat: Some(id.clone()),
                name: format!("{id} {n}"),
                email: None,
            },
            None => NewSeat {
                seat: None,
                name: format!("player{i}"),
                email: None,
            },
        })
        .collect();
    NewGame {
        name: None,
        ruleset: info.id,
        scenario: scenario.id.clone(),
        options: json!({}),
        seats,
        clock: None,
    }
}

/// One random legal move through `games` (or a timeout where the seat may pass on one);
/// `false` when the game is over or no move was found in 50 tries.
pub async fn bot_move(
    games: &Games,
    game_id: &GameId,
    rng: &mut Rng,
) -> Result<bool, ServiceError> {
    let l = games.load(game_id).await?;
    if l.game.ended {
        return Ok(false);
    }
    let prompts = l.game.prompts();
    assert!(!prompts.is_empty(), "game {game_id} is stuck");
    let prompt = &prompts[rng.below(prompts.len())];
    let caller = Caller {
        game_id: game_id.clone(),
        seat: prompt.seat.clone(),
    };
    for _ in 0..50 {
        let command = l
            .game
            .ruleset
            .random_command(&l.game.state, &prompt.seat, &mut |n| rng.below(n));
        let Some(command) = command else {
            if prompt.pass_on_timeout {
                games.timeout(game_id, &prompt.seat).await?;
                return Ok(true);
            }
            return Ok(false);
        };
        let submit = Submit {
            expected_seq: l.game.next_seq,
            command: CommandInput::Json(command),
            client_entropy: format!("bot-{}", rng.below(1 << 20)),
            idempotency_key: None,
        };
        match games.submit(&caller, submit).await {
            Ok(_) => return Ok(true),
            Err(ServiceError::Rule(_)) => continue,
            Err(e) => return Err(e),
        }
    }
    Ok(false)
}
