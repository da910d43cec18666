//! For Honor and Glory's written positions read back to the battle they were written from, and
//! play on identically (issue 39; the harness: `tests/common/written.rs`): three games of every
//! scenario and campaign, each played to its end, and again with every optional rule in force
//! (11.12's dragoons' standing choice).

use despatch_core::engine::ruleset::{SeatDef, Setup};
use despatch_core::rules;
use serde_json::json;

use crate::written::{default_setup, positions_round_trip, positions_round_trip_with};

const ID: &str = "for-honor-and-glory";

fn scenarios() -> u64 {
    rules::find(ID).unwrap().info().scenarios.len() as u64
}

#[test]
fn for_honor_and_glory_positions_written_from_every_scenarios_bot_games_read_back_and_play_on_identically(
) {
    positions_round_trip(ID, 3 * scenarios(), 2000);
}

#[test]
fn for_honor_and_glory_positions_written_with_every_optional_rule_read_back_and_play_on_identically(
) {
    positions_round_trip_with(ID, 3 * scenarios(), 2000, 1, &|n| Setup {
        game_id: format!("written-fhg-optional-{n}"),
        options: json!({ "optional_rules": "all", "hits_one_at_a_time": n % 2 == 0 }),
        seats: SeatDef::named_by_id(&["american", "british"]).unwrap(),
        ..default_setup(ID, n)
    });
}
