//! Benchmark: how long the game page of a long game takes, measured over real HTTP.
//!
//! Builds an open-table game of 2,000 events (two seats taking turns, every other move rolling
//! 2d6, now and then a sealed note) on the embedded SQLite store, starts the real
//! server on port 0, and times `GET /games/{id}` with the seat cookie (a seat's page: load, fold with the
//! log, draw the board, render) and the spectator page, each requested one after another.
//! Then plays a For Honor and Glory battle to its middle and times its seat page (drawn map,
//! legal moves, orders by pointing), which must stay under 20 ms at p95 (issue 20).
//! Fails when the seat page's p95 is 50 ms or more. Run with
//! `cargo bench --bench game_page`; figures are in BENCHMARKS.md.

use std::time::{Duration, Instant};

use despatch::engine::ruleset::Seat;
use despatch::games::{Caller, CommandInput, Games, NewGame, NewSeat, Submit};
use despatch::http::{Application, ServerSettings};
use despatch::store::Store;

/// The service's allocator (src/main.rs), so that the figures are the service's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const EVENTS: u64 = 2_000;
const WARMUP: usize = 20;
const SAMPLES: usize = 300;
const TARGET_P95: Duration = Duration::from_millis(50);
/// Issue 20: a For Honor and Glory battle's seat page, drawn board, legal moves and orders by
/// pointing included, in the middle of the battle. The issue asks for 1,000 events, but a
/// battle is at most its scenario's turns (Chippawa: 10 a side), one order each, so it never
/// reaches that length; the page's cost does not grow with the log anyway (the open-table game
/// above shows it at 2,000 events).
const BATTLE_EVENTS: u64 = 11;
const TARGET_BATTLE_P95: Duration = Duration::from_millis(20);

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

async fn measure(http: &reqwest::Client, url: &str, label: &str) -> Duration {
    let start = Instant::now();
    let r = http.get(url).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 200);
    r.bytes().await.unwrap();
    println!(
        "{label:<28} first view (nothing cached): {}",
        ms(start.elapsed())
    );
    for _ in 0..WARMUP {
        let r = http.get(url).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 200);
        r.bytes().await.unwrap();
    }
    let mut times = Vec::with_capacity(SAMPLES);
    let mut bytes = 0;
    for _ in 0..SAMPLES {
        let start = Instant::now();
        let r = http.get(url).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 200);
        bytes = r.bytes().await.unwrap().len();
        times.push(start.elapsed());
    }
    times.sort();
    let mean = times.iter().sum::<Duration>() / times.len() as u32;
    let p95 = percentile(&times, 0.95);
    println!(
        "{label:<28} n={SAMPLES} mean {} · p50 {} · p95 {} · p99 {} · max {} · {} KB",
        ms(mean),
        ms(percentile(&times, 0.50)),
        ms(p95),
        ms(percentile(&times, 0.99)),
        ms(*times.last().unwrap()),
        bytes / 1024
    );
    p95
}

/// A client that sends the seat's cookie: the seat page reads the seat's token from it (a seat
/// link's first request only moves the token there).
fn seat_client(token: &str) -> reqwest::Client {
    let mut cookie = reqwest::header::HeaderMap::new();
    cookie.insert(
        reqwest::header::COOKIE,
        format!("despatch_seat={token}").parse().unwrap(),
    );
    reqwest::Client::builder()
        .default_headers(cookie)
        .build()
        .unwrap()
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite:{}?mode=rwc", dir.path().join("bench.db").display());
        let store = Store::connect(&url)
            .await
            .unwrap()
            .with_key(despatch::store::SecretKey::from_secret("bench"));
        store.migrate().await.unwrap();
        let games = Games::new(store.clone(), "http://bench");
        let created = games
            .create(NewGame {
                name: None,
                ruleset: "open-table".into(),
                scenario: "default".into(),
                options: serde_json::json!({}),
                seats: ["Anna", "Ben"]
                    .iter()
                    .map(|n| NewSeat {
                        seat: None,
                        name: (*n).into(),
                        email: None,
                    })
                    .collect(),
                clock: None,
            })
            .await
            .unwrap();
        let game_id = created.game_id.clone();
        let seats: Vec<Seat> = created
            .seats
            .iter()
            .map(|s| Seat::parse(&s.seat).unwrap())
            .collect();
        let start = Instant::now();
        let mut next_seq = 1;
        let mut turn = 0;
        while next_seq < EVENTS {
            let seat = turn % 2;
            let mut order = format!("Move {turn}: the column marches on");
            if turn % 2 == 0 {
                order.push_str("\nroll 2d6 to hit");
            }
            if turn % 50 == 7 && next_seq + 2 < EVENTS {
                order.push_str(&format!("\nseal plan {turn}"));
            }
            let caller = Caller {
                game_id: game_id.clone(),
                seat: seats[seat].clone(),
            };
            let result = games
                .submit(
                    &caller,
                    Submit {
                        expected_seq: next_seq,
                        command: CommandInput::Text(order),
                        client_entropy: format!("bench-{turn}"),
                        idempotency_key: None,
                    },
                )
                .await
                .unwrap();
            next_seq = result.next_seq;
            turn += 1;
        }
        println!(
            "built a game of {next_seq} events ({turn} moves) in {:.1} s",
            start.elapsed().as_secs_f64()
        );

        let app = Application::build(store.clone(), ServerSettings::new("127.0.0.1:0"), |games| {
            games
        })
        .unwrap();
        let base = format!("http://127.0.0.1:{}", app.port());
        tokio::spawn(app.run_until_stopped());
        let http = reqwest::Client::new();
        let token = &created.seats[0].token;
        let seat_http = seat_client(token);
        let seat_p95 = measure(
            &seat_http,
            &format!("{base}/games/{game_id}"),
            "seat page (GET /games/{id})",
        )
        .await;
        measure(
            &http,
            &format!("{base}/games/{game_id}/watch"),
            "spectator page",
        )
        .await;
        measure(
            &http,
            &format!("{base}/games/{game_id}/events/{}", next_seq - 2),
            "audit page of one event",
        )
        .await;
        // The view that follows a move: the page folds the events appended since it last looked.
        let mut times = Vec::new();
        let seat_page = format!("{base}/games/{game_id}");
        for i in 0..60u64 {
            let seat = (next_seq as usize + 1) % 2;
            let caller = Caller {
                game_id: game_id.clone(),
                seat: seats[seat].clone(),
            };
            let moved = games
                .submit(
                    &caller,
                    Submit {
                        expected_seq: next_seq,
                        command: CommandInput::Text(format!("after {i}\nroll 1d6")),
                        client_entropy: format!("after-{i}"),
                        idempotency_key: None,
                    },
                )
                .await;
            next_seq = match moved {
                Ok(r) => r.next_seq,
                // Not this seat's turn: the other one moves.
                Err(_) => {
                    let other = Caller {
                        game_id: game_id.clone(),
                        seat: seats[1 - seat].clone(),
                    };
                    games
                        .submit(
                            &other,
                            Submit {
                                expected_seq: next_seq,
                                command: CommandInput::Text(format!("after {i}\nroll 1d6")),
                                client_entropy: format!("after-{i}"),
                                idempotency_key: None,
                            },
                        )
                        .await
                        .unwrap()
                        .next_seq
                }
            };
            let start = Instant::now();
            let r = seat_http.get(&seat_page).send().await.unwrap();
            assert_eq!(r.status().as_u16(), 200);
            r.bytes().await.unwrap();
            times.push(start.elapsed());
        }
        times.sort();
        println!(
            "{:<28} n={} p50 {} · p95 {} · max {}",
            "seat page right after a move",
            times.len(),
            ms(percentile(&times, 0.50)),
            ms(percentile(&times, 0.95)),
            ms(*times.last().unwrap())
        );
        let battle_p95 = battle_page(&games, &base).await;
        if battle_p95 >= TARGET_BATTLE_P95 {
            eprintln!(
                "FAIL: the battle's seat page p95 is {}, the target is under {}",
                ms(battle_p95),
                ms(TARGET_BATTLE_P95)
            );
            std::process::exit(1);
        }
        if seat_p95 >= TARGET_P95 {
            eprintln!(
                "FAIL: the seat page's p95 is {}, the target is under {}",
                ms(seat_p95),
                ms(TARGET_P95)
            );
            std::process::exit(1);
        }
        println!("ok: the seat page's p95 is under {}", ms(TARGET_P95));
    });
}

/// A For Honor and Glory battle (Chippawa) played to its middle, each turn the first legal
/// action of the side to act's prompt (or a pass), then that side's seat page timed.
async fn battle_page(games: &Games, base: &str) -> Duration {
    let created = games
        .create(NewGame {
            name: Some("Chippawa, a long battle".into()),
            ruleset: "for-honor-and-glory".into(),
            scenario: "chippawa".into(),
            options: serde_json::json!({}),
            seats: [("american", "Anna"), ("british", "Ben")]
                .iter()
                .map(|(seat, name)| NewSeat {
                    seat: Some((*seat).into()),
                    name: (*name).into(),
                    email: None,
                })
                .collect(),
            clock: None,
        })
        .await
        .unwrap();
    let game_id = created.game_id.clone();
    let mut next_seq = games.summary(&game_id).await.unwrap().next_seq;
    let mut i = 0u64;
    while next_seq < BATTLE_EVENTS {
        let summary = games.summary(&game_id).await.unwrap();
        let Some(to_act) = summary.waiting_for.first() else {
            break;
        };
        let caller = Caller {
            game_id: game_id.clone(),
            seat: to_act.seat.clone(),
        };
        let legal = games.legal_moves(&caller).await.unwrap();
        let first = legal["prompts"][0]["options"][0]
            .as_str()
            .unwrap_or("pass")
            .to_owned();
        let orders = [first, "pass".to_owned()];
        for order in orders {
            let submitted = games
                .submit(
                    &caller,
                    Submit {
                        expected_seq: next_seq,
                        command: CommandInput::Text(order),
                        client_entropy: format!("battle-{i}"),
                        idempotency_key: None,
                    },
                )
                .await;
            if let Ok(r) = submitted {
                next_seq = r.next_seq;
                break;
            }
        }
        i += 1;
    }
    let summary = games.summary(&game_id).await.unwrap();
    println!(
        "built a battle of {next_seq} events ({})",
        if summary.ended { "ended" } else { "running" }
    );
    let to_act = summary
        .waiting_for
        .first()
        .map(|p| p.seat.to_string())
        .unwrap_or_else(|| "american".into());
    let token = &created
        .seats
        .iter()
        .find(|s| s.seat == to_act)
        .unwrap()
        .token;
    let seat_http = seat_client(token);
    measure(
        &seat_http,
        &format!("{base}/games/{game_id}"),
        "battle seat page (FHG)",
    )
    .await
}
