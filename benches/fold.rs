//! Fold throughput: re-folds a 100,000-event open-table game and reports
//! events per second (median of several runs). `cargo bench --bench fold`.

use std::time::Instant;

use despatch::engine::game::Game;

mod support;

/// The service's allocator (src/main.rs), so that the figures are the service's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let events_wanted: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    // A long game of ordinary moves (text and a roll), played through the real move path.
    let start = Instant::now();
    let support::long_game::LongGame {
        ruleset,
        events,
        secrets,
        ..
    } = support::long_game::open_table("bench-fold", events_wanted);
    println!(
        "built a {}-event game in {:.1} s",
        events.len(),
        start.elapsed().as_secs_f64()
    );

    let mut times = Vec::new();
    for _ in 0..7 {
        let t = Instant::now();
        let folded = Game::fold(ruleset.clone(), &events, secrets.hidden_seed).expect("folds");
        times.push(t.elapsed().as_secs_f64());
        assert_eq!(folded.next_seq as usize, events.len());
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let median = times[times.len() / 2];
    println!(
        "fold: {} events in {:.1} ms (median of {}), {:.0} events/s",
        events.len(),
        median * 1e3,
        times.len(),
        events.len() as f64 / median
    );
}
