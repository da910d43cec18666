//! A long open-table game of ordinary moves (a line of text and a `2d6` roll each), played
//! through the real move path: what `fold` re-folds and `verify_process` exports.

use std::sync::Arc;

use despatch::engine::bot::{MemorySecrets, TestWorld};
use despatch::engine::event::Event;
use despatch::engine::game::{Game, Move};
use despatch::engine::ruleset::{Ruleset, SeatDef, Setup};
use despatch::rules;
use serde_json::json;

/// The game as it stands after its last move, its log and the secrets it was played with.
pub struct LongGame {
    pub ruleset: Arc<dyn Ruleset>,
    pub game: Game,
    pub events: Vec<Event>,
    pub secrets: MemorySecrets,
}

/// Plays `game_id` until it holds at least `events_wanted` events.
pub fn open_table(game_id: &str, events_wanted: usize) -> LongGame {
    let ruleset = rules::find("open-table").expect("registered");
    let setup = Setup {
        game_id: game_id.into(),
        scenario: "default".into(),
        options: json!({}),
        seats: SeatDef::named_by_id(&["alice", "bob", "carol"]).unwrap(),
    };
    let mut world = TestWorld::new(7);
    let created = Game::create(ruleset.clone(), setup, &mut world).expect("created");
    let mut secrets = MemorySecrets {
        hidden_seed: Some(created.hidden_seed),
        ..Default::default()
    };
    secrets.chains.insert(0, created.chain_tip);
    let mut game = created.game;
    let mut events = vec![created.event];
    while events.len() < events_wanted {
        let seat = game.prompts()[0].seat.clone();
        let command = ruleset
            .parse(
                &game.state,
                &seat,
                &format!("Advance to hex {}\nroll 2d6", events.len()),
            )
            .expect("parses");
        let played = game
            .play(
                Move::Command {
                    seat,
                    command,
                    client_entropy: format!("{}", events.len()),
                },
                &secrets,
                &mut world,
            )
            .expect("legal");
        secrets.keep(&played.secrets);
        events.extend(played.events);
        game = played.game;
    }
    LongGame {
        ruleset,
        game,
        events,
        secrets,
    }
}
