//! Fold throughput: re-folds a 100,000-event open-table game and reports
//! events per second (median of several runs). `cargo bench --bench fold`.

use std::time::Instant;

use despatch::engine::bot::{MemorySecrets, TestWorld};
use despatch::engine::game::{Game, Move};
use despatch::engine::ruleset::{SeatDef, Setup};
use despatch::rules;
use serde_json::json;

/// The service's allocator (src/main.rs), so that the figures are the service's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let events_wanted: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    let ruleset = rules::find("open-table").expect("registered");
    let setup = Setup {
        game_id: "bench-fold".into(),
        scenario: "default".into(),
        options: json!({}),
        seats: SeatDef::named_by_id(&["alice", "bob", "carol"]).unwrap(),
    };
    // A long game of ordinary moves (text and a roll), played through the real move path.
    let start = Instant::now();
    let mut world = TestWorld::new(7);
    let created = Game::create(ruleset.clone(), setup, &mut world).expect("created");
    let mut secrets = MemorySecrets {
        hidden_seed: Some(created.hidden_seed),
        ..Default::default()
    };
    secrets.chains.insert(0, created.chain_tip);
    let mut game = created.game;
    let mut events = vec![created.event];
    while events.len() < events_wanted {
        let seat = game.prompts()[0].seat.clone();
        let command = ruleset
            .parse(
                &game.state,
                &seat,
                &format!("Advance to hex {}\nroll 2d6", events.len()),
            )
            .expect("parses");
        let played = game
            .play(
                Move::Command {
                    seat,
                    command,
                    client_entropy: format!("{}", events.len()),
                },
                &secrets,
                &mut world,
            )
            .expect("legal");
        secrets.keep(&played.secrets);
        events.extend(played.events);
        game = played.game;
    }
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
