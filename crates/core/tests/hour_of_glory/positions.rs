//! Hour of Glory's written positions read back to the mission they were written from, and play
//! on identically (issue 39; the harness: `tests/common/written.rs`): with one, two and three
//! Intruders, a position stating every fact, the face-down deal and the Intruders' too.

use despatch_core::engine::ruleset::{SeatDef, Setup};
use serde_json::json;

use crate::written::positions_round_trip_with;

fn setup(n: u64) -> Setup {
    let names = ["defender", "harris", "link", "volkov"];
    let intruders = 1 + n as usize % 3;
    Setup {
        game_id: format!("written-hog-{n}"),
        scenario: "mission".into(),
        options: if n % 4 == 3 {
            json!({"covering_fire": "any"})
        } else {
            json!({})
        },
        seats: SeatDef::named_by_id(&names[..=intruders]).unwrap(),
    }
}

#[test]
fn hour_of_glory_positions_written_from_bot_games_read_back_and_play_on_identically() {
    positions_round_trip_with("hour-of-glory", 24, 5000, 1, &setup);
}
