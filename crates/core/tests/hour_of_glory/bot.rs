//! Hour of Glory driven by the random-legal-move bot: 1,000 games each with 1, 2 and 3
//! Intruders play to an end without a panic, fold identically twice, verify from their export,
//! and never show an unexplored room's intelligence card to a seat that may not see it.

use despatch_core::engine::bot::{self, check_no_sealed_leak, check_properties, MemorySecrets};
use despatch_core::engine::game::Game;
use despatch_core::engine::ruleset::{SeatDef, Setup, Viewer};
use despatch_core::rules;
use despatch_core::rules::hour_of_glory::state::State;
use despatch_core::rules::hour_of_glory::view::map_holders;
use serde_json::json;

fn setup(intruders: usize, n: u64) -> Setup {
    let names = ["defender", "harris", "link", "volkov"];
    Setup {
        game_id: format!("hog-bot-{intruders}-{n}"),
        scenario: "mission".into(),
        // Some games choose their cards at set-up and read covering fire as "any".
        options: match (intruders, n % 5) {
            (1, 1) => {
                json!({"loadouts": {"harris": {"weapons": ["smg", "rifle"], "equipment": "first-aid-kit"}}})
            }
            (_, 2) => json!({"covering_fire": "any"}),
            _ => json!({}),
        },
        seats: SeatDef::named_by_id(&names[..=intruders]).unwrap(),
    }
}

/// The hidden-information check of this game: no face-down card of an unexplored room appears
/// in the view of a spectator or of any seat but an Intruder holding the Stronghold Map.
pub fn check_no_card_leak(game: &Game, secrets: &MemorySecrets) -> Result<(), String> {
    check_no_sealed_leak(game, secrets)?;
    if game.ended {
        return Ok(());
    }
    let state: &State = game.state.downcast().expect("an Hour of Glory state");
    let holders = map_holders(state);
    let mut viewers = vec![Viewer::Spectator];
    viewers.extend(
        game.created
            .seats
            .iter()
            .filter(|s| !holders.contains(&&s.seat))
            .map(|s| Viewer::Seat(s.seat.clone())),
    );
    for viewer in viewers {
        let view = serde_json::to_string(&game.view(&viewer)).expect("serialisable");
        for room in state.rooms.iter().filter(|r| !r.explored) {
            if let Some(card) = room.card {
                let needle = serde_json::to_string(&card).expect("serialisable");
                if view.contains(&needle) {
                    return Err(format!(
                        "{viewer:?} sees room {}'s face-down card {needle} at seq {}",
                        room.room,
                        game.next_seq - 1
                    ));
                }
            }
        }
    }
    Ok(())
}

fn play_many(intruders: usize, games: u64) {
    let ruleset = rules::find("hour-of-glory").unwrap();
    let mut intruder_wins = 0;
    let mut total_moves = 0;
    let started = std::time::Instant::now();
    for n in 0..games {
        let game = bot::play(
            ruleset.clone(),
            setup(intruders, n),
            n * 7919 + intruders as u64,
            2_000,
            &mut check_no_card_leak,
        )
        .unwrap_or_else(|e| panic!("{intruders} intruder(s), game {n}: {e}"));
        assert!(
            game.game.ended,
            "{intruders} intruder(s), game {n} did not end in {} moves",
            game.moves
        );
        total_moves += game.moves;
        check_properties(&game)
            .unwrap_or_else(|e| panic!("{intruders} intruder(s), game {n}: {e}"));
        if let despatch_core::engine::ruleset::Outcome::Finished { winners, .. } =
            game.game.outcome()
        {
            intruder_wins += usize::from(!winners.iter().any(|w| w.as_str() == "defender"));
        }
    }
    eprintln!("{intruders} intruder(s): {intruder_wins} of {games} games won by the Intruders; {total_moves} moves in {:?}", started.elapsed());
}

#[test]
fn one_intruder_bot_games_end_fold_verify_and_keep_cards_hidden() {
    play_many(1, 1000);
}

#[test]
fn two_intruder_bot_games_end_fold_verify_and_keep_cards_hidden() {
    play_many(2, 1000);
}

#[test]
fn three_intruder_bot_games_end_fold_verify_and_keep_cards_hidden() {
    play_many(3, 1000);
}
