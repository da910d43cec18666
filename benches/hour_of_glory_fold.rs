//! Re-folding a long Hour of Glory game: a bot game of at least 10,000 events (three Intruders,
//! a long Mission Timer as the `minutes` variant allows) is folded from its log several times;
//! the median is printed. The target is under 10 ms.

use std::time::Instant;

use despatch::engine::bot;
use despatch::engine::game::Game;
use despatch::engine::ruleset::{Seat, SeatDef, Setup};
use despatch::rules;
use serde_json::json;

const EVENTS: usize = 10_000;

/// This thread's CPU time in nanoseconds, where Linux tells it (`/proc/thread-self/schedstat`):
/// on a shared machine wall time includes waiting for a core, CPU time does not.
fn cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

fn main() {
    let ruleset = rules::find("hour-of-glory").expect("registered");
    // HOG_FOLD_SEED skips the search when the seed of a long game is known (it is printed).
    let mut seed: u64 = std::env::var("HOG_FOLD_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let game = loop {
        let setup = Setup {
            game_id: format!("bench-{seed}"),
            scenario: "mission".into(),
            options: json!({ "minutes": 6000 }),
            seats: ["defender", "harris", "link", "volkov"]
                .iter()
                .map(|s| SeatDef {
                    seat: Seat::parse(s).unwrap(),
                    name: s.to_string(),
                })
                .collect(),
        };
        let g = bot::play(
            ruleset.clone(),
            setup,
            seed,
            EVENTS + 10,
            &mut |_, _| Ok(()),
        )
        .expect("the bot plays");
        if g.events.len() >= EVENTS {
            break g;
        }
        eprintln!(
            "seed {seed}: only {} events; trying another",
            g.events.len()
        );
        seed += 1;
    };
    eprintln!("seed {seed}: {} events", game.events.len());
    let events = &game.events;
    let hidden = game.secrets.hidden_seed;
    let mut times = Vec::new();
    let mut cpu = Vec::new();
    let runs: usize = std::env::var("HOG_FOLD_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(9);
    for _ in 0..runs {
        let start = Instant::now();
        let cpu_start = cpu_ns();
        let folded = Game::fold(ruleset.clone(), events, hidden).expect("the log folds");
        times.push(start.elapsed());
        if let (Some(a), Some(b)) = (cpu_start, cpu_ns()) {
            cpu.push(b - a);
        }
        assert_eq!(folded.state_hash(), game.game.state_hash());
    }
    times.sort();
    cpu.sort();
    let median = times[times.len() / 2];
    if !cpu.is_empty() {
        println!(
            "hour-of-glory: re-folding {} events uses {:.2} ms of CPU (median; min {:.2} ms)",
            events.len(),
            cpu[cpu.len() / 2] as f64 / 1e6,
            cpu[0] as f64 / 1e6
        );
    }
    println!(
        "hour-of-glory: re-folding {} events takes {:.2} ms (median of {}; min {:.2} ms, max {:.2} ms; target < 10 ms)",
        events.len(),
        median.as_secs_f64() * 1e3,
        times.len(),
        times[0].as_secs_f64() * 1e3,
        times[times.len() - 1].as_secs_f64() * 1e3
    );
}
