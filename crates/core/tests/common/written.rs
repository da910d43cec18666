//! The written-position round trip (issue 39): over bot games of a ruleset, a position written
//! from a state the game reached (`Ruleset::write_position`) reads back (`Ruleset::position`,
//! onto the game's own set-up) to the same state, which then plays on identically. So a
//! position can set whatever a game can reach, and the docs' statements say every fact of the
//! state. `#[path]`-included by each ruleset's test binary.
//!
//! At every checked state the harness asserts:
//!
//! 1. `write_position` gives a position (`Some`);
//! 2. that position reads back, onto the set-up of the game's scenario, seats and options and
//!    nothing else, to a state whose `state_json` equals the original's (a failure names every
//!    JSON path that differs, with both values, and prints the position);
//! 3. it plays on identically: the game with its state swapped for the read-back one and the
//!    game itself play the same next bot moves, in the same world (clock, seals, dice chain,
//!    hidden seed), and give the same events, the same lines and the same state after each.
//!
//! Decisions where a state holds more than a position can say:
//!
//! - The position is a referee's view: it states every fact, hidden ones too (Hour of Glory's
//!   Intruder, a face-down card), as the state holds them.
//! - A sealed choice's content lives in the server's secrets, not in the state: the state holds
//!   its commitment, and that is what the position states (a ruleset's statement naming the
//!   commitment), so the read-back state holds the same commitment and the original's secrets
//!   open it when the rules ask. Nothing is left out of the comparison for it.
//! - Derived caches (`#[serde(skip)]`) are not in `state_json` and are not compared; the plays
//!   on check that they are rebuilt to the same effect.
//!
//! Nothing is skipped: every state of every game up to `steps` moves is checked (a game that
//! ends sooner is checked to its end), and the test fails if no state was checked.

// Each test binary uses the part it needs.
#![allow(dead_code)]

use std::sync::Arc;

use despatch_core::engine::bot::{self, MemorySecrets, Rng, TestWorld};
use despatch_core::engine::dice::hidden_stream;
use despatch_core::engine::game::{Game, Move, Played};
use despatch_core::engine::ruleset::{Ruleset, Seat, SeatDef, Setup};
use despatch_core::rules;
use serde_json::{json, Value};

#[path = "sfg_seats.rs"]
mod sfg_seats;

/// How many bot moves each checked state plays on, in both games.
const PLAY_ON: usize = 3;

/// Plays `games` bot games of `ruleset` (each at most `steps` moves, the scenarios in turn) and
/// checks the round trip at every state; panics naming the game, the seq and what differs.
pub fn positions_round_trip(ruleset: &str, games: u64, steps: usize) {
    positions_round_trip_with(ruleset, games, steps, 1, &|n| default_setup(ruleset, n));
}

/// The same, with the set-up of game `n` given (a scenario's options, Searching for Glory's
/// seats), checking every `every`th state (1: every state; the first and the last are always
/// checked).
pub fn positions_round_trip_with(
    ruleset: &str,
    games: u64,
    steps: usize,
    every: usize,
    setup: &dyn Fn(u64) -> Setup,
) {
    let rs = rules::find(ruleset).unwrap_or_else(|| panic!("no ruleset '{ruleset}'"));
    let mut checked = 0usize;
    for n in 0..games {
        let set_up = setup(n);
        let scenario = set_up.scenario.clone();
        let mut state_no = 0usize;
        let seed = n * 7_919 + 13;
        let mut check = |game: &Game, secrets: &MemorySecrets| {
            state_no += 1;
            if !(state_no - 1).is_multiple_of(every.max(1)) && !game.ended {
                return Ok(());
            }
            checked += 1;
            round_trip(&rs, game, secrets, seed ^ state_no as u64)
        };
        bot::play(rs.clone(), set_up, seed, steps, &mut check)
            .unwrap_or_else(|e| panic!("{ruleset}, game {n} ({scenario}): {e}"));
    }
    assert!(checked > 0, "{ruleset}: no state was checked");
    eprintln!("{ruleset}: {checked} written positions read back and played on");
}

/// Game `n` of a ruleset: its scenarios in turn (practice ones too), with as few seats as each
/// takes (two at least); Searching for Glory's at three characters (`sfg_seats`).
pub fn default_setup(ruleset: &str, n: u64) -> Setup {
    let rs = rules::find(ruleset).unwrap_or_else(|| panic!("no ruleset '{ruleset}'"));
    let info = rs.info();
    let (scenario, seats): (String, Vec<String>) = if ruleset == "searching-for-glory" {
        let (scenario, seats) = sfg_seats::danube(3, n);
        (
            scenario.into(),
            seats.iter().map(|s| s.to_string()).collect(),
        )
    } else {
        let sc = &info.scenarios[n as usize % info.scenarios.len()];
        let count = sc.min_seats.max(2).min(sc.max_seats);
        let seats = (0..count)
            .map(|i| sc.seats.get(i).cloned().unwrap_or(format!("p{i}")))
            .collect();
        (sc.id.clone(), seats)
    };
    Setup {
        game_id: format!("written-{ruleset}-{n}"),
        scenario,
        options: json!({}),
        seats: SeatDef::named_by_id(&seats).unwrap(),
    }
}

/// The round trip of the state `game` stands at.
fn round_trip(
    rs: &Arc<dyn Ruleset>,
    game: &Game,
    secrets: &MemorySecrets,
    seed: u64,
) -> Result<(), String> {
    let at = game.next_seq;
    let text = rs
        .write_position(&game.state)
        .ok_or_else(|| format!("seq {at}: write_position gave no position"))?;
    let set_up = Setup {
        game_id: game.game_id.clone(),
        scenario: game.created.scenario.clone(),
        options: game.created.options.clone(),
        seats: game.created.seats.clone(),
    };
    let (read, _sealed) = rs
        .position(
            &set_up,
            &text,
            &mut hidden_stream(&[0; 32], &game.game_id, 0),
        )
        .map_err(|e| format!("seq {at}: the written position does not read back: {e}\n{text}"))?;
    let (want, got) = (rs.state_json(&game.state), rs.state_json(&read));
    if want != got {
        return Err(format!(
            "seq {at}: the written position reads back to a different state:\n{}\nthe position:\n{text}",
            differences(&want, &got).join("\n")
        ));
    }
    let mut copy = game.clone();
    copy.state = read;
    play_on(game.clone(), copy, secrets, seed).map_err(|e| format!("seq {at}: {e}\n{text}"))
}

/// Plays the same bot moves on `game` and on `copy` (the read-back state), comparing each.
fn play_on(
    mut game: Game,
    mut copy: Game,
    secrets: &MemorySecrets,
    seed: u64,
) -> Result<(), String> {
    let mut secrets = secrets.clone();
    let mut rng = Rng::new(seed);
    for step in 1..=PLAY_ON {
        if game.ended {
            return Ok(());
        }
        let Some(mv) = next_move(&game, &secrets, &mut rng) else {
            return Ok(());
        };
        let world_seed = seed.wrapping_add(step as u64);
        let a = game.play(mv.clone(), &secrets, &mut TestWorld::new(world_seed));
        let b = copy.play(mv.clone(), &secrets, &mut TestWorld::new(world_seed));
        let (a, b) = match (a, b) {
            (Ok(a), Ok(b)) => (a, b),
            (Ok(_), Err(e)) => {
                return Err(format!(
                    "play on, move {step} ({mv:?}): the game takes it, the read-back state refuses it: {e}"
                ))
            }
            (Err(e), Ok(_)) => {
                return Err(format!(
                    "play on, move {step} ({mv:?}): the read-back state takes it, the game refused it: {e}"
                ))
            }
            (Err(_), Err(_)) => return Err(format!("play on, move {step}: the bot's move {mv:?} was refused by both")),
        };
        compare(&a, &b).map_err(|e| format!("play on, move {step} ({mv:?}): {e}"))?;
        secrets.keep(&a.secrets);
        game = a.game;
        copy = b.game;
    }
    Ok(())
}

/// A bot move the game takes (as `bot::play` picks one), or `None` if nobody may act.
fn next_move(game: &Game, secrets: &MemorySecrets, rng: &mut Rng) -> Option<Move> {
    let prompts = game.prompts();
    if prompts.is_empty() {
        return None;
    }
    let prompt = &prompts[rng.below(prompts.len())];
    let seat: Seat = prompt.seat.clone();
    for _ in 0..50 {
        let mv = match game
            .ruleset
            .random_command(&game.state, &seat, &mut |n| rng.below(n))
        {
            Some(command) => Move::Command {
                seat: seat.clone(),
                command,
                client_entropy: format!("written-{}", rng.below(1 << 20)),
            },
            None if prompt.pass_on_timeout => Move::Timeout { seat: seat.clone() },
            None => return None,
        };
        if game
            .play(mv.clone(), secrets, &mut TestWorld::new(0))
            .is_ok()
        {
            return Some(mv);
        }
    }
    None
}

/// The same events, lines and state from both plays, or what differs.
fn compare(a: &Played, b: &Played) -> Result<(), String> {
    let lines =
        |p: &Played| -> Vec<String> { p.applied.lines.iter().map(|l| l.text.clone()).collect() };
    if lines(a) != lines(b) {
        return Err(format!(
            "the lines differ:\n  the game:      {:?}\n  the position:  {:?}",
            lines(a),
            lines(b)
        ));
    }
    if a.events != b.events {
        let ev = |p: &Played| serde_json::to_value(&p.events).expect("events serialise");
        return Err(format!(
            "the events differ:\n{}",
            differences(&ev(a), &ev(b)).join("\n")
        ));
    }
    let (sa, sb) = (
        a.game.ruleset.state_json(&a.game.state),
        b.game.ruleset.state_json(&b.game.state),
    );
    if sa != sb {
        return Err(format!(
            "the states differ after the move:\n{}",
            differences(&sa, &sb).join("\n")
        ));
    }
    Ok(())
}

/// Every JSON path where `want` (the game's) and `got` (the read-back) differ, with both values.
pub fn differences(want: &Value, got: &Value) -> Vec<String> {
    let mut out = Vec::new();
    diff_at("", want, got, &mut out);
    out
}

fn diff_at(path: &str, want: &Value, got: &Value, out: &mut Vec<String>) {
    match (want, got) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, va) in a {
                let p = format!("{path}.{k}");
                match b.get(k) {
                    Some(vb) => diff_at(&p, va, vb, out),
                    None => out.push(format!(
                        "  {p}: the game has {}, the position nothing",
                        short(va)
                    )),
                }
            }
            for (k, vb) in b {
                if !a.contains_key(k) {
                    out.push(format!(
                        "  {path}.{k}: the game has nothing, the position {}",
                        short(vb)
                    ));
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (va, vb)) in a.iter().zip(b).enumerate() {
                diff_at(&format!("{path}[{i}]"), va, vb, out);
            }
        }
        _ if want != got => out.push(format!(
            "  {}: the game has {}, the position {}",
            if path.is_empty() { "." } else { path },
            short(want),
            short(got)
        )),
        _ => {}
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    let count = s.chars().count();
    if count > 300 {
        format!(
            "{}… ({count} chars)",
            s.chars().take(300).collect::<String>()
        )
    } else {
        s
    }
}
