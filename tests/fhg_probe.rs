use despatch::engine::bot::{self, check_properties};
use despatch::engine::ruleset::{Seat, SeatDef, Setup};
use despatch::rules;
use serde_json::json;
use std::time::Instant;

#[test]
fn probe() {
    let ruleset = rules::find("for-honor-and-glory").unwrap();
    for scen in ["queenston-heights", "chippawa", "lundys-lane"] {
        let mut moves = 0;
        let mut tp = 0.0;
        let mut tc = 0.0;
        let mut events = 0;
        let mut winners = std::collections::BTreeMap::new();
        for n in 0..10u64 {
            let setup = Setup {
                game_id: format!("p{n}"),
                scenario: scen.into(),
                options: json!({}),
                seats: ["american", "british"]
                    .iter()
                    .map(|s| SeatDef {
                        seat: Seat::parse(s).unwrap(),
                        name: s.to_string(),
                    })
                    .collect(),
            };
            let t = Instant::now();
            let g = bot::play(ruleset.clone(), setup, n, 2000, &mut |_, _| Ok(())).unwrap();
            tp += t.elapsed().as_secs_f64();
            let t = Instant::now();
            check_properties(&g).unwrap();
            tc += t.elapsed().as_secs_f64();
            moves += g.moves;
            events += g.events.len();
            *winners
                .entry(format!("{:?}", g.game.outcome()))
                .or_insert(0) += 1;
        }
        println!("{scen}: moves {moves} events {events} play {tp:.2}s check {tc:.2}s");
        for (k, v) in winners {
            println!("  {v} × {}", &k[..k.len().min(200)]);
        }
    }
}

#[test]
fn probe_chain() {
    let c = despatch::engine::dice::Chain::new([7; 32], 1024);
    let t = Instant::now();
    for k in 0..100 {
        std::hint::black_box(c.link(k));
    }
    println!("chain link x100: {:?}", t.elapsed());
    let ruleset = rules::find("for-honor-and-glory").unwrap();
    let setup = Setup {
        game_id: "p".into(),
        scenario: "lundys-lane".into(),
        options: json!({}),
        seats: ["american", "british"]
            .iter()
            .map(|s| SeatDef {
                seat: Seat::parse(s).unwrap(),
                name: s.to_string(),
            })
            .collect(),
    };
    let mut h = despatch::engine::dice::hidden_stream(&[0; 32], "p", 0);
    let st = ruleset.setup(&setup, &mut h).unwrap();
    let t = Instant::now();
    for _ in 0..100 {
        std::hint::black_box(ruleset.prompts(&st));
    }
    println!("prompts x100: {:?}", t.elapsed());
    let t = Instant::now();
    let mut r = despatch::engine::bot::Rng::new(1);
    for _ in 0..100 {
        std::hint::black_box(ruleset.random_command(
            &st,
            &Seat::parse("american").unwrap(),
            &mut |n| r.below(n),
        ));
    }
    println!("random x100: {:?}", t.elapsed());
}
