//! For Honor and Glory driven by the random-legal-move bot: 1,000 games per scenario (and per
//! campaign) play to an end without a panic, re-fold to the same state, and verify from their
//! export. The optional rules are switched on in turn so that each is exercised.

use despatch_core::engine::bot::{self, check_properties};
use despatch_core::engine::ruleset::{SeatDef, Setup};
use despatch_core::rules;
use serde_json::{json, Value};

fn setup(scenario: &str, options: Value, n: u64) -> Setup {
    Setup {
        game_id: format!("fhg-bot-{scenario}-{n}"),
        scenario: scenario.into(),
        options,
        seats: SeatDef::named_by_id(&["american", "british"]).unwrap(),
    }
}

/// Options for game `n`: none, all, or one optional rule at a time; now and then the other
/// readings of 8.1.2, 3.4.6 and 8.2 with every optional rule.
fn options(n: u64) -> Value {
    match n % 16 {
        0 if n % 32 == 16 => json!({
            "optional_rules": "all",
            "hits_one_at_a_time": true,
            "indians_advance": true,
            "flat_line_of_sight": true,
        }),
        0 => json!({}),
        1 => json!({ "optional_rules": "all" }),
        14 => json!({ "command_ap": { "american": 4, "british": 1 } }),
        15 => json!({ "optional_rules": "all", "command_ap": { "american": 0 } }),
        k => json!({ "optional_rules": [format!("11.{}", k - 1)] }),
    }
}

fn play_many(scenario: &str, games: u64) {
    let ruleset = rules::find("for-honor-and-glory").unwrap();
    let mut ended = 0;
    for n in 0..games {
        let game = bot::play(
            ruleset.clone(),
            setup(scenario, options(n), n),
            n,
            2_000,
            &mut |_, _| Ok(()),
        )
        .unwrap_or_else(|e| panic!("{scenario} game {n}: {e}"));
        assert!(
            game.game.ended,
            "{scenario} game {n} did not end in {} moves",
            game.moves
        );
        check_properties(&game).unwrap_or_else(|e| panic!("{scenario} game {n}: {e}"));
        ended += 1;
    }
    assert_eq!(ended, games);
}

const GAMES: u64 = 1_000;

#[test]
fn queenston_heights_bot_games_end_fold_and_verify() {
    play_many("queenston-heights", GAMES);
}

#[test]
fn chippawa_bot_games_end_fold_and_verify() {
    play_many("chippawa", GAMES);
}

#[test]
fn lundys_lane_bot_games_end_fold_and_verify() {
    play_many("lundys-lane", GAMES);
}

#[test]
fn bladensburg_bot_games_end_fold_and_verify() {
    play_many("bladensburg", GAMES);
}

#[test]
fn north_point_bot_games_end_fold_and_verify() {
    play_many("north-point", GAMES);
}

#[test]
fn jacksons_night_attack_bot_games_end_fold_and_verify() {
    play_many("jacksons-night-attack", GAMES);
}

#[test]
fn new_orleans_bot_games_end_fold_and_verify() {
    play_many("new-orleans", GAMES);
}

#[test]
fn new_orleans_campaign_bot_games_end_fold_and_verify() {
    play_many("new-orleans-campaign", GAMES / 4);
}

#[test]
fn niagara_campaign_bot_games_end_fold_and_verify() {
    play_many("niagara-campaign", GAMES / 4);
}

#[test]
fn chesapeake_campaign_bot_games_end_fold_and_verify() {
    play_many("chesapeake-campaign", GAMES / 4);
}
