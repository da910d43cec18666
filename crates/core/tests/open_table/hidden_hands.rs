//! Hidden stays hidden (issue 40): bots play random card operations at tables with components,
//! every card named once so that a name tells exactly one card. After every event no card in a
//! hand, neither played nor shown, appears in another seat's view or a spectator's, in a line
//! another seat may read, or in the log's commands (what an export redacted for a seat holds).
//! The log re-folds to the same state, and the ended game's export verifies, every shuffle and
//! private draw re-made from the revealed hidden seed. A forged seed or a swapped card in an
//! export is refused naming the seq.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use despatch_core::engine::bot::{check_properties, BotGame, Rng, TestWorld};
use despatch_core::engine::canonical::sha256_hex;
use despatch_core::engine::event::{kind, Event};
use despatch_core::engine::game::{Game, Move};
use despatch_core::engine::ruleset::{Ruleset, Seat, SeatDef, Setup, Viewer};
use despatch_core::engine::verify;
use despatch_core::rules;
use serde_json::json;

/// Two decks and a cup, every card and chit of its own name.
fn components() -> String {
    let mut text = String::from("deck strategy\n");
    for i in 1..=14 {
        text.push_str(&format!("card Strategy-{i:02}\n"));
    }
    text.push_str("set late\n");
    for i in 1..=4 {
        text.push_str(&format!("card Late-{i:02}\n"));
    }
    text.push_str("deck events\n");
    for i in 1..=8 {
        text.push_str(&format!("card Event-{i:02}\n"));
    }
    text.push_str("cup reserves\n");
    for i in 1..=6 {
        text.push_str(&format!("chit Reserve-{i:02}\n"));
    }
    text
}

fn setup(n: u64, seats: &[&str]) -> Setup {
    Setup {
        game_id: format!("hands-{n}"),
        scenario: "default".into(),
        options: json!({ "components": components(), "order": if n % 3 == 2 { "free" } else { "fixed" } }),
        seats: SeatDef::named_by_id(seats).unwrap(),
    }
}

/// Adds the cards face up now (shown in a hand, on a discard pile) to `revealed`.
fn reveal_face_up(game: &Game, revealed: &mut BTreeSet<String>) {
    let table = &game.view(&Viewer::Everyone)["table"];
    let face_up = table["piles"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|p| p["discard"].as_array().into_iter().flatten())
        .chain(
            table["hands"]
                .as_object()
                .into_iter()
                .flatten()
                .flat_map(|(_, h)| h["shown"].as_array().into_iter().flatten()),
        );
    revealed.extend(face_up.filter_map(|c| c.as_str().map(str::to_owned)));
}

/// Every seat's hidden cards (in hand, not shown), from the referee's view.
fn hidden_cards(game: &Game) -> BTreeMap<String, Vec<String>> {
    let everyone = game.view(&Viewer::Everyone);
    let mut out = BTreeMap::new();
    if let Some(hands) = everyone["table"]["hands"].as_object() {
        for (seat, hand) in hands {
            let cards = hand["cards"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|h| h["shown"] != json!(true))
                .filter_map(|h| h["card"].as_str().map(str::to_owned))
                .collect();
            out.insert(seat.clone(), cards);
        }
    }
    out
}

/// The checks of one move: `events` the events it appended, `lines` the lines it wrote. (A
/// command that played a card by name may name it again once the card is back in a hand: the
/// card was public when that command was made.)
fn check_hidden(
    game: &Game,
    events: &[Event],
    lines: &[(Option<Vec<Seat>>, String)],
    acting: &Seat,
    revealed: &BTreeSet<String>,
) -> Result<(), String> {
    let seq = game.next_seq - 1;
    let mut hidden = hidden_cards(game);
    // A card face up before this move (played, shown) is known to all wherever it went since.
    for cards in hidden.values_mut() {
        cards.retain(|c| !revealed.contains(c));
    }
    let mut viewers = vec![Viewer::Spectator];
    viewers.extend(
        game.created
            .seats
            .iter()
            .map(|s| Viewer::Seat(s.seat.clone())),
    );
    for (holder, cards) in &hidden {
        for viewer in &viewers {
            if matches!(viewer, Viewer::Seat(s) if s.as_str() == holder) {
                continue;
            }
            let view = game.view(viewer).to_string();
            if let Some(c) = cards.iter().find(|c| view.contains(c.as_str())) {
                return Err(format!("seq {seq}: {viewer:?} sees {holder}'s {c}"));
            }
        }
        for (to, text) in lines {
            let may = match to {
                None => false,
                // A private line goes to the seat that acted and to the holder (a card given).
                Some(to) => to.iter().all(|s| s.as_str() == holder || s == acting),
            };
            if let Some(c) = cards.iter().find(|c| text.contains(c.as_str())) {
                if !may {
                    return Err(format!(
                        "seq {seq}: the line {text:?} for {to:?} tells {holder}'s {c}"
                    ));
                }
            }
        }
        for e in events.iter().filter(|e| e.kind == kind::COMMAND) {
            let command = e.payload["command"].to_string();
            if let Some(c) = cards.iter().find(|c| command.contains(c.as_str())) {
                return Err(format!(
                    "seq {seq}: the command of seq {} names {holder}'s {c}",
                    e.seq
                ));
            }
        }
    }
    Ok(())
}

/// A bot game with the hidden checks after every event.
fn play_checked(n: u64, seats: &[&str], max_moves: usize) -> Result<BotGame, String> {
    let ruleset = rules::find("open-table").unwrap();
    let mut world = TestWorld::new(n);
    let mut bot = BotGame::start(ruleset, setup(n, seats), &mut world)?;
    let mut rng = Rng::new(n ^ 0xCA4D);
    let mut revealed = BTreeSet::new();
    while bot.moves < max_moves && !bot.game.ended {
        reveal_face_up(&bot.game, &mut revealed);
        let prompts = bot.game.prompts();
        let seat = prompts[rng.below(prompts.len())].seat.clone();
        let mut played = None;
        for _ in 0..50 {
            let command = bot
                .game
                .ruleset
                .random_command(&bot.game.state, &seat, &mut |k| rng.below(k))
                .ok_or("the bot has no move")?;
            let mv = Move::Command {
                seat: seat.clone(),
                command,
                client_entropy: format!("e{}", rng.below(1 << 20)),
            };
            if let Ok(p) = bot.game.play(mv, &bot.secrets, &mut world) {
                played = Some(p);
                break;
            }
        }
        let played = played
            .ok_or_else(|| format!("no legal move for {seat} at seq {}", bot.game.next_seq))?;
        bot.secrets.keep(&played.secrets);
        let new_events = played.events.clone();
        bot.events.extend(played.events);
        bot.game = played.game;
        bot.moves += 1;
        if !bot.game.ended {
            let lines: Vec<_> = played
                .applied
                .lines
                .iter()
                .map(|l| (l.to.clone(), l.text.clone()))
                .collect();
            check_hidden(&bot.game, &new_events, &lines, &seat, &revealed)?;
        }
    }
    Ok(bot)
}

#[test]
fn no_card_in_a_hand_shows_to_another_seat_and_every_shuffle_verifies_after_the_end() {
    let mut ended = 0;
    let mut moves_with_cards = 0;
    for n in 0..60u64 {
        let seats: &[&str] = if n % 2 == 0 {
            &["anna", "ben"]
        } else {
            &["anna", "ben", "cy"]
        };
        let bot = play_checked(n, seats, 300).unwrap_or_else(|e| panic!("game {n}: {e}"));
        check_properties(&bot).unwrap_or_else(|e| panic!("game {n}: {e}"));
        ended += usize::from(bot.game.ended);
        moves_with_cards += bot
            .events
            .iter()
            .filter(|e| e.payload["command"].get("cards").is_some())
            .count();
    }
    assert!(
        ended > 30,
        "most games should end by agreement; {ended} of 60 did"
    );
    assert!(
        moves_with_cards > 1_000,
        "the bots should play card operations; {moves_with_cards} did"
    );
}

/// An ended bot game that played cards, and the seq of a `play <card>` in it.
fn ended_game_with_a_play() -> (BotGame, u64) {
    for n in 100..200u64 {
        let bot = play_checked(n, &["anna", "ben"], 400).unwrap();
        if !bot.game.ended {
            continue;
        }
        let play = bot.events.iter().find(|e| {
            e.payload["command"]["cards"].as_array().is_some_and(|ops| {
                ops.iter()
                    .any(|op| op["op"] == "play" && op["card"].is_string())
            })
        });
        if let Some(seq) = play.map(|e| e.seq) {
            return (bot, seq);
        }
    }
    panic!("no ended game played a card by name");
}

/// The export of `events` after `change`, every hash from the changed event on made again, as
/// a forger would.
fn forged(bot: &BotGame, change: impl Fn(&mut Vec<Event>)) -> String {
    let mut events = bot.events.clone();
    change(&mut events);
    for i in 0..events.len() {
        let prev = if i == 0 {
            events[0].prev_hash.clone()
        } else {
            events[i - 1].hash.clone()
        };
        let e = &events[i];
        events[i] = Event::new(
            &e.game_id,
            e.seq,
            &e.kind,
            &e.seat,
            e.payload.clone(),
            e.recorded_at.clone(),
            e.dice.clone(),
            &prev,
        );
    }
    BotGame {
        game: bot.game.clone(),
        events,
        secrets: bot.secrets.clone(),
        moves: 0,
    }
    .export()
}

fn verify_text(ruleset: &Arc<dyn Ruleset>, text: &str) -> verify::Report {
    verify::verify(text, &|id| (id == "open-table").then(|| ruleset.clone()))
}

#[test]
fn a_card_swapped_in_an_ended_games_export_is_refused_naming_its_seq() {
    let (bot, seq) = ended_game_with_a_play();
    let ruleset = bot.game.ruleset.clone();
    assert!(
        verify_text(&ruleset, &bot.export()).ok(),
        "the real export verifies"
    );
    // A card of the components that the seat did not hold then, from the log folded to there.
    let before = Game::fold(
        ruleset.clone(),
        &bot.events[..seq as usize],
        bot.secrets.hidden_seed,
    )
    .unwrap();
    let seat = bot.events[seq as usize].seat.clone();
    let held = before.view(&Viewer::Everyone)["table"]["hands"][&seat]["cards"].to_string();
    let swap = (1..=14)
        .map(|i| format!("Strategy-{i:02}"))
        .find(|c| !held.contains(c.as_str()))
        .unwrap();
    let text = forged(&bot, |events| {
        let ops = events[seq as usize].payload["command"]["cards"]
            .as_array_mut()
            .unwrap();
        let op = ops
            .iter_mut()
            .find(|op| op["op"] == "play" && op["card"].is_string())
            .unwrap();
        op["card"] = json!(swap);
    });
    let report = verify_text(&ruleset, &text);
    let failure = report.failure.expect("refused");
    assert_eq!(failure.seq, seq, "{}", failure.problem);
    assert!(
        failure
            .problem
            .contains(&format!("your hand holds no {swap}")),
        "{}",
        failure.problem
    );
}

#[test]
fn a_forged_hidden_seed_shuffles_otherwise_and_the_export_is_refused_naming_the_seq() {
    let (bot, _) = ended_game_with_a_play();
    let ruleset = bot.game.ruleset.clone();
    let forged_seed = [9u8; 32];
    let text = forged(&bot, |events| {
        events[0].payload["dice_commitments"]["hidden"] = json!(sha256_hex(&forged_seed));
        let last = events
            .iter_mut()
            .rev()
            .find(|e| e.kind == kind::GAME_ENDED)
            .unwrap();
        last.payload["hidden_seed"] = json!(hex::encode(forged_seed));
    });
    let report = verify_text(&ruleset, &text);
    let failure = report.failure.expect("refused");
    let ended_seq = bot.events.last().unwrap().seq;
    assert!(failure.seq > 0 && failure.seq <= ended_seq, "{failure:?}");
    let command = &bot.events[failure.seq as usize].payload["command"]["cards"];
    assert!(
        command.is_array() && failure.problem.contains("hand holds"),
        "the first card named that the forged shuffles did not deal is refused: {failure:?}"
    );
}
