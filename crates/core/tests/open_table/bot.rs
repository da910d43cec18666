//! The open table driven by the random-legal-move bot: no panic, identical re-fold, the export
//! verifies, and no sealed note shows in another seat's view.

use despatch_core::engine::bot::{self, check_no_sealed_leak, check_properties};
use despatch_core::engine::ruleset::{SeatDef, Setup};
use despatch_core::rules;
use serde_json::json;

fn setup(seats: &[&str], order: &str, n: u64) -> Setup {
    Setup {
        game_id: format!("bot-{n}"),
        scenario: "default".into(),
        options: json!({ "order": order }),
        seats: SeatDef::named_by_id(seats).unwrap(),
    }
}

#[test]
fn random_open_table_games_fold_verify_and_keep_notes_sealed() {
    let ruleset = rules::find("open-table").unwrap();
    let mut ended = 0;
    for n in 0..200u64 {
        let seats: &[&str] = match n % 3 {
            0 => &["alice", "bob"],
            1 => &["alice", "bob", "carol"],
            _ => &["a", "b", "c", "d"],
        };
        let order = if n % 4 == 3 { "free" } else { "fixed" };
        let game = bot::play(
            ruleset.clone(),
            setup(seats, order, n),
            n,
            400,
            &mut check_no_sealed_leak,
        )
        .unwrap();
        check_properties(&game).unwrap_or_else(|e| panic!("game {n}: {e}"));
        ended += usize::from(game.game.ended);
    }
    assert!(
        ended > 100,
        "most bot games should reach an agreed result; {ended} of 200 did"
    );
}
