//! Re-folding a long Hour of Glory game: a bot game of at least 10,000 events (three Intruders,
//! a long Mission Timer as the `minutes` variant allows) is folded from its log several times;
//! the median is printed. The target is under 10 ms.

use std::time::Instant;

use despatch::engine::bot;
use despatch::engine::game::Game;
use despatch::engine::ruleset::{SeatDef, Setup};
use despatch::rules;
use serde_json::json;

/// The service's allocator (src/main.rs), so that the figures are the service's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
            seats: SeatDef::named_by_id(&["defender", "harris", "link", "volkov"]).unwrap(),
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
    let runs: usize = std::env::var("HOG_FOLD_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(9);
    // As the service loads a game: its own log, each order accepted when it was played.
    let accepted = measure(runs, || {
        Game::fold(ruleset.clone(), events, hidden).expect("the log folds")
    });
    // As `verify` folds an export it does not trust: every order checked again.
    let checked = measure(runs, || {
        let mut folded = Game::fold(ruleset.clone(), &events[..1], hidden).expect("GameCreated");
        for event in &events[1..] {
            folded.fold_event_quietly(event).expect("the log folds");
        }
        folded
    });
    for (how, folded) in [("re-folding", &accepted), ("verify's fold of", &checked)] {
        assert_eq!(folded.hash, game.game.state_hash());
        println!(
            "hour-of-glory: {how} {} events uses {:.2} ms of CPU (median; min {:.2} ms) and takes {:.2} ms (median of {runs}; min {:.2} ms, max {:.2} ms){}",
            events.len(),
            folded.cpu_median_ms,
            folded.cpu_min_ms,
            folded.wall_median_ms,
            folded.wall_min_ms,
            folded.wall_max_ms,
            if how == "re-folding" { "; target < 10 ms" } else { "" },
        );
    }
}

/// What `runs` folds measured.
struct Measured {
    hash: String,
    cpu_median_ms: f64,
    cpu_min_ms: f64,
    wall_median_ms: f64,
    wall_min_ms: f64,
    wall_max_ms: f64,
}

fn measure(runs: usize, fold: impl Fn() -> Game) -> Measured {
    let (mut wall, mut cpu) = (Vec::new(), Vec::new());
    let mut hash = String::new();
    for _ in 0..runs {
        let start = Instant::now();
        let cpu_start = cpu_ns();
        let folded = fold();
        wall.push(start.elapsed().as_secs_f64() * 1e3);
        if let (Some(a), Some(b)) = (cpu_start, cpu_ns()) {
            cpu.push((b - a) as f64 / 1e6);
        }
        hash = folded.state_hash();
    }
    let sort = |v: &mut Vec<f64>| v.sort_by(|a, b| a.partial_cmp(b).expect("no NaN"));
    sort(&mut wall);
    sort(&mut cpu);
    Measured {
        hash,
        cpu_median_ms: cpu.get(cpu.len() / 2).copied().unwrap_or(f64::NAN),
        cpu_min_ms: cpu.first().copied().unwrap_or(f64::NAN),
        wall_median_ms: wall[wall.len() / 2],
        wall_min_ms: wall[0],
        wall_max_ms: wall[wall.len() - 1],
    }
}
