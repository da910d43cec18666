//! Where Eagles Dare driven by the random-legal-move bot: games of each short scenario (with
//! and without sealed free drop plans) and campaigns play to an end without a panic, fold
//! identically twice, verify from their export, and never show a sealed choice (the Air Drop?
//! counters, a drop plan) in the other seat's view before it is revealed.

use despatch::engine::bot::{self, check_no_sealed_leak, check_properties};
use despatch::engine::ruleset::{Outcome, SeatDef, Setup};
use despatch::rules;
use serde_json::json;

fn setup(scenario: &str, free_drop: bool, n: u64) -> Setup {
    Setup {
        game_id: format!("wed-bot-{scenario}-{n}"),
        scenario: scenario.into(),
        options: json!({ "free_drop": free_drop }),
        seats: SeatDef::named_by_id(&["allied", "german"]).unwrap(),
    }
}

/// Plays `games` bot games; returns how many sealed choices were seen open (and checked).
fn play_many(scenario: &str, games: u64, max_moves: usize) -> usize {
    let ruleset = rules::find("where-eagles-dare").unwrap();
    let mut seen_open = 0;
    for n in 0..games {
        let free_drop = n % 2 == 1;
        let mut check = |game: &despatch::engine::game::Game, secrets: &bot::MemorySecrets| {
            seen_open += game.open_seals.len();
            check_no_sealed_leak(game, secrets)
        };
        let game = bot::play(
            ruleset.clone(),
            setup(scenario, free_drop, n),
            n * 7919 + 3,
            max_moves,
            &mut check,
        )
        .unwrap_or_else(|e| panic!("{scenario}, game {n}: {e}"));
        assert!(
            game.game.ended,
            "{scenario}, game {n} did not end in {} moves",
            game.moves
        );
        assert!(matches!(game.game.outcome(), Outcome::Finished { .. }));
        check_properties(&game).unwrap_or_else(|e| panic!("{scenario}, game {n}: {e}"));
    }
    seen_open
}

#[test]
fn a_ride_in_the_country_bot_games_end_fold_verify_and_keep_secrets() {
    play_many("a-ride-in-the-country", 50, 5_000);
}

#[test]
fn the_best_laid_plans_bot_games_end_fold_verify_and_keep_the_air_drop_sealed() {
    let seen = play_many("the-best-laid-plans", 50, 5_000);
    assert!(
        seen > 0,
        "no sealed choice was ever open: the leak check checked nothing"
    );
}

#[test]
fn campaign_bot_games_of_nine_days_end_fold_verify_and_keep_secrets() {
    let seen = play_many("campaign", 3, 20_000);
    assert!(seen > 0, "no sealed choice was ever open");
}
