//! Searching for Glory driven by the random-legal-move bot: games at 3 and 6 players, with
//! both deck readings and both scenarios, play to the end without a panic, fold identically
//! twice, verify from their export, and never show a seat another seat's hand or plan, nor an
//! NPC's hand to anyone but its runner (3.4), nor through a reactive window's prompts who holds
//! a reactive card (1.e).

use despatch::engine::bot::{self, check_no_sealed_leak, check_properties, MemorySecrets};
use despatch::engine::game::Game;
use despatch::engine::ruleset::{SeatDef, Setup, Viewer};
use despatch::rules;
use despatch::rules::searching_for_glory::state::State;
use serde_json::json;

#[path = "common/sfg_seats.rs"]
mod sfg_seats;

fn setup(players: usize, n: u64) -> Setup {
    let (scenario, seats) = sfg_seats::danube(players, n);
    Setup {
        game_id: format!("sfg-bot-{players}-{n}"),
        scenario: scenario.into(),
        // Every other game with the optional battle cards (4.).
        options: match (n.is_multiple_of(3), n.is_multiple_of(2)) {
            (true, true) => json!({"deck_counts": "additive", "battle_cards": "cards"}),
            (true, false) => json!({"deck_counts": "additive"}),
            (false, true) => json!({"battle_cards": "cards"}),
            (false, false) => json!({}),
        },
        seats: SeatDef::named_by_id(seats).unwrap(),
    }
}

/// The hidden-information check of this game: no seat's view (nor a spectator's) holds another
/// seat's hand or planned cards, nor the deck's order; and no sealed plan shows before it opens.
pub fn check_no_hand_leak(game: &Game, secrets: &MemorySecrets) -> Result<(), String> {
    check_no_sealed_leak(game, secrets)?;
    if game.ended {
        return Ok(());
    }
    let state: &State = game.state.downcast().expect("a Searching for Glory state");
    // 1.e: a reactive window prompts a seat holding a reactive card as it prompts one without.
    if state.window.is_some() {
        let prompts = game.prompts();
        if let Some(first) = prompts.first() {
            for p in &prompts {
                if (&p.decision, &p.options, p.kind)
                    != (&first.decision, &first.options, first.kind)
                {
                    return Err(format!(
                        "the window's prompts differ between {} and {} at seq {}",
                        first.seat,
                        p.seat,
                        game.next_seq - 1
                    ));
                }
            }
        }
    }
    let mut viewers = vec![Viewer::Spectator];
    viewers.extend(
        game.created
            .seats
            .iter()
            .map(|s| Viewer::Seat(s.seat.clone())),
    );
    for viewer in viewers {
        let view = game.view(&viewer);
        if view.get("deck").is_some() {
            return Err(format!("{viewer:?} sees the deck"));
        }
        // 3.4: an NPC's hand is its runner's alone.
        if let Some(n) = &state.npc {
            let runner = Viewer::Seat(state.players[n.runner].seat.clone());
            if view["npc"].get("hand").is_some() != (viewer == runner) {
                return Err(format!(
                    "{viewer:?} and the hand of the NPC {} at seq {}",
                    n.character,
                    game.next_seq - 1
                ));
            }
        }
        for (p, shown) in state
            .players
            .iter()
            .zip(view["players"].as_array().expect("players"))
        {
            let own = viewer == Viewer::Seat(p.seat.clone());
            if !own && (shown.get("hand").is_some() || shown.get("planned").is_some()) {
                return Err(format!(
                    "{viewer:?} sees {}'s hand or plan at seq {}",
                    p.seat,
                    game.next_seq - 1
                ));
            }
        }
    }
    Ok(())
}

fn play_many(players: usize, games: u64) {
    let ruleset = rules::find("searching-for-glory").unwrap();
    let mut total_moves = 0;
    let mut fought_by_plan = 0;
    let started = std::time::Instant::now();
    for n in 0..games {
        let game = bot::play(
            ruleset.clone(),
            setup(players, n),
            n * 7919 + players as u64,
            3_000,
            &mut check_no_hand_leak,
        )
        .unwrap_or_else(|e| panic!("{players} players, game {n}: {e}"));
        assert!(
            game.game.ended,
            "{players} players, game {n} did not end in {} moves",
            game.moves
        );
        total_moves += game.moves;
        // 4.f: the bot seals battle plans in the games with battle cards; some battle opens
        // them and is fought with `fight`.
        let log = serde_json::to_string(&game.events).unwrap();
        if log.contains("\"battle_plan\":{") && log.contains("\"type\":\"fight\"") {
            fought_by_plan += 1;
        }
        check_properties(&game).unwrap_or_else(|e| panic!("{players} players, game {n}: {e}"));
    }
    eprintln!(
        "{players} players: {games} games, {total_moves} moves, {fought_by_plan} with a battle \
         fought by sealed battle plans, in {:?}",
        started.elapsed()
    );
    assert!(
        fought_by_plan > 0,
        "no battle was fought by sealed battle plans"
    );
}

#[test]
fn three_player_bot_games_end_fold_verify_and_keep_hands_hidden() {
    play_many(3, 200);
}

#[test]
fn six_player_bot_games_end_fold_verify_and_keep_hands_hidden() {
    play_many(6, 200);
}
