//! Every order the game suggests is one the rules accept at that moment (issue 38): over bot
//! games of every scenario, at each step, each example of each prompt and each order pointing
//! offers is played on a copy of the game (`Game::play` leaves the game as it was) and must be
//! accepted. The examples and the pointed orders come from one list of legal orders
//! (`legal`), as the bot's choices do.

use despatch_core::engine::bot::{self, MemorySecrets};
use despatch_core::engine::game::Game;
use despatch_core::engine::ruleset::{SeatDef, Setup};
use despatch_core::rules;
use despatch_core::rules::where_eagles_dare::data::DATA;
use serde_json::json;

use crate::suggested::accepted;

/// What the games suggested and played.
#[derive(Debug, Default)]
struct Played {
    examples: usize,
    pointed: usize,
    /// Steps where a prompt's examples held an order other than a pass or the impulse's end.
    rich_prompts: usize,
}

fn check(
    game: &Game,
    secrets: &MemorySecrets,
    step: u64,
    played: &mut Played,
) -> Result<(), String> {
    if game.ended {
        return Ok(());
    }
    for p in game.prompts() {
        if p.options.iter().any(|o| o != "pass" && o != "end") {
            played.rich_prompts += 1;
        }
        for o in &p.options {
            accepted(game, secrets, &p.seat, o, "the example")?;
            played.examples += 1;
        }
    }
    // Pointing on every eighth step: each order it offers, a check's at its lowest and
    // highest threshold (the faces are not checked before the die: the others are the same
    // order).
    if step.is_multiple_of(8) {
        for sd in &game.created.seats {
            for p in game.ruleset.pointing(&game.state, &sd.seat) {
                let threshold = p.order.split(" pass ").nth(1);
                if threshold.is_some_and(|t| t != "0" && t != "0-8") {
                    continue;
                }
                accepted(game, secrets, &sd.seat, &p.order, "the pointed order")?;
                played.pointed += 1;
            }
        }
    }
    Ok(())
}

#[test]
fn every_prompt_example_and_pointed_order_of_bot_games_is_accepted_when_suggested() {
    let ruleset = rules::find("where-eagles-dare").unwrap();
    let mut played = Played::default();
    for sc in &DATA.scenarios {
        for n in 0..2u64 {
            // Every other game a free drop, the optional rules with it.
            let options = if n % 2 == 1 {
                json!({ "free_drop": true, "covering_fire": true, "german_lost": true })
            } else {
                json!({})
            };
            let setup = Setup {
                game_id: format!("wed-suggested-{}-{n}", sc.id),
                scenario: sc.id.clone(),
                options,
                seats: SeatDef::named_by_id(&["allied", "german"]).unwrap(),
            };
            let mut step = 0;
            bot::play(
                ruleset.clone(),
                setup,
                n * 6_007 + 5,
                100,
                &mut |game, secrets| {
                    step += 1;
                    check(game, secrets, step, &mut played)
                },
            )
            .unwrap_or_else(|e| panic!("{}, game {n}: {e}", sc.id));
        }
    }
    eprintln!("{played:?}");
    assert!(played.examples > 0 && played.pointed > 0, "{played:?}");
    assert!(
        played.rich_prompts > 0,
        "no prompt ever suggested more than a pass or the end: {played:?}"
    );
}
