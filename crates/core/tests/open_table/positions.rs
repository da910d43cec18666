//! The open table's written positions read back to the table they were written from, and play
//! on identically (issue 39; the harness: `tests/common/written.rs`).

use despatch_core::engine::ruleset::{SeatDef, Setup};
use serde_json::json;

use crate::written::{positions_round_trip, positions_round_trip_with};

#[test]
fn open_table_positions_written_from_bot_games_read_back_and_play_on_identically() {
    positions_round_trip("open-table", 12, 300);
}

#[test]
fn open_table_positions_written_in_free_order_with_three_seats_read_back_and_play_on_identically() {
    positions_round_trip_with("open-table", 6, 300, 1, &|n| Setup {
        game_id: format!("written-open-table-free-{n}"),
        scenario: "default".into(),
        options: json!({"order": "free"}),
        seats: SeatDef::named_by_id(&["anna", "ben", "cy"]).unwrap(),
    });
}

#[test]
fn open_table_positions_with_decks_hands_and_cups_read_back_and_play_on_identically() {
    let components = "deck strategy\ncard 3x Ambush | Before a battle\ncard Blockade\ncard Coup\n\
                      card Duel\nset late\ncard Famine\ncup morale\nchit 3x Steady\nchit Shaken\n";
    positions_round_trip_with("open-table", 8, 200, 1, &|n| Setup {
        game_id: format!("written-open-table-cards-{n}"),
        scenario: "default".into(),
        options: json!({"components": components, "order": if n % 2 == 0 { "fixed" } else { "free" }}),
        seats: SeatDef::named_by_id(&["anna", "ben", "cy"]).unwrap(),
    });
}
