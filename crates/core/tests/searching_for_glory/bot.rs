//! Searching for Glory driven by the random-legal-move bot: games at 3 and 6 players, with
//! both deck readings and both scenarios, with and without the battle cards (4.), played by
//! sealed battle plans or card by card, play to the end without a panic, fold identically
//! twice, verify from their export, and never show a seat another seat's hand or plan, nor an
//! NPC's hand to anyone but its runner (3.4), nor a side's battle hand to anyone but its
//! commander (4.f), nor through a reactive window's prompts who holds a reactive card (1.e).

use despatch_core::engine::bot::{self, check_no_sealed_leak, check_properties, MemorySecrets};
use despatch_core::engine::game::Game;
use despatch_core::engine::ruleset::{SeatDef, Setup, Viewer};
use despatch_core::rules;
use despatch_core::rules::searching_for_glory::state::State;
use despatch_core::rules::searching_for_glory::{self, battle_cards};
use serde_json::json;

use crate::sfg_seats;

fn setup(players: usize, n: u64) -> Setup {
    let (scenario, seats) = sfg_seats::danube(players, n);
    Setup {
        game_id: format!("sfg-bot-{players}-{n}"),
        scenario: scenario.into(),
        // Every other game with the optional battle cards (4.), half of those played card by
        // card (battle_play=interactive), the others by sealed battle plans.
        options: {
            let mut o = json!({});
            if n.is_multiple_of(3) {
                o["deck_counts"] = json!("additive");
            }
            if n.is_multiple_of(2) {
                o["battle_cards"] = json!("cards");
            }
            if n.is_multiple_of(4) {
                o["battle_play"] = json!("interactive");
            }
            o
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
    // 3.4: an NPC runner's prompt (public) is the order's forms, whatever the NPC's hand.
    if let Some(n) = state.npc.as_ref().filter(|n| state.runs_npc(n.runner)) {
        let runner = &state.players[n.runner].seat;
        for p in game
            .prompts()
            .iter()
            .filter(|p| &p.seat == runner && p.decision.contains("run the NPC"))
        {
            if p.options != searching_for_glory::NPC_OPERATION_FORMS {
                return Err(format!(
                    "the NPC {}'s prompt to {runner} lists {:?} at seq {}",
                    n.character,
                    p.options,
                    game.next_seq - 1
                ));
            }
        }
    }
    // 4.f: a card battle's prompts (public in the game's summary) name no battle card.
    if state
        .pending
        .as_ref()
        .and_then(|pd| pd.battle.as_ref())
        .is_some()
    {
        for p in game.prompts() {
            if let Some(o) = p.options.iter().find(|o| {
                battle_cards::cards()
                    .iter()
                    .any(|c| o.split_whitespace().any(|w| w == c.key))
            }) {
                if !o.starts_with("battle-plan") {
                    return Err(format!(
                        "{}'s battle prompt names a card: {o} at seq {}",
                        p.seat,
                        game.next_seq - 1
                    ));
                }
            }
        }
    }
    let commanders = state
        .pending
        .as_ref()
        .and_then(|pd| pd.battle.as_ref())
        .map(|b| b.commanders)
        .unwrap_or_default();
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
        // 4.f: a side's battle hand to its commander alone.
        if let Some(sides) = view["battle"]["play"]["sides"].as_array() {
            for (i, side) in sides.iter().enumerate() {
                let commander = commanders[i].map(|c| Viewer::Seat(state.players[c].seat.clone()));
                if side.get("hand").is_some() != (Some(&viewer) == commander.as_ref()) {
                    return Err(format!(
                        "{viewer:?} and the {} battle hand at seq {}",
                        side["side"],
                        game.next_seq - 1
                    ));
                }
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
    let mut played_by_card = 0;
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
        // battle_play=interactive: a commander chose a card.
        if log.contains("\"type\":\"play\"") {
            played_by_card += 1;
        }
        check_properties(&game).unwrap_or_else(|e| panic!("{players} players, game {n}: {e}"));
    }
    eprintln!(
        "{players} players: {games} games, {total_moves} moves, {fought_by_plan} with a battle \
         fought by sealed battle plans, {played_by_card} with one played card by card, in {:?}",
        started.elapsed()
    );
    assert!(
        fought_by_plan > 0,
        "no battle was fought by sealed battle plans"
    );
    assert!(played_by_card > 0, "no battle was played card by card");
}

/// Games a test plays: 200, or `DESPATCH_BOT_GAMES` for a longer run (the 1,000 each:
/// docs/rules/searching-for-glory.md, "Bot").
fn games() -> u64 {
    std::env::var("DESPATCH_BOT_GAMES")
        .map(|n| n.parse().expect("DESPATCH_BOT_GAMES is a number of games"))
        .unwrap_or(200)
}

#[test]
fn three_player_bot_games_end_fold_verify_and_keep_hands_hidden() {
    play_many(3, games());
}

#[test]
fn six_player_bot_games_end_fold_verify_and_keep_hands_hidden() {
    play_many(6, games());
}
