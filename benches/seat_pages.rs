//! Benchmark: every ruleset's seat page in the middle of a game, as a player's browser gets it
//! (issue 38): the bytes on the wire and the time the server takes.
//!
//! For each ruleset, a game of its first scenario that is not a practice set-up is played by
//! the random legal bot (`tests/common/bot.rs`) for [`MOVES`] moves through the games service,
//! on the embedded SQLite store; then the real server on port 0 answers the seat page of the
//! seat the game waits for, asked for as a browser asks (`Accept-Encoding: br, gzip`).
//!
//! - **On the wire**: the compressed page, and what it loads besides. The pages load their
//!   static files at fingerprinted addresses that a browser keeps for good
//!   (`src/http/assets.rs`), so a player coming back to the page loads the page alone; the
//!   first visit adds the files once. Target: the page a player comes back to at most
//!   **30 KB** (issue 38).
//! - **Server time**: [`SAMPLES`] requests one after another after [`WARMUP`], timed from
//!   the request to the last byte over loopback (an upper bound of the server's time).
//!   Target: p95 at most **5 ms**.
//!
//! Exits 1 when a ruleset misses a target. Run with `cargo bench --bench seat_pages`
//! (`DESPATCH_BENCH_MOVES=n` to play another number of moves); figures are in BENCHMARKS.md.

use std::sync::Arc;
use std::time::{Duration, Instant};

use despatch::engine::bot::Rng;
use despatch::engine::ruleset::Ruleset;
use despatch::games::{Games, NewGame, NewSeat};
use despatch::http::{Application, ServerSettings};
use despatch::store::Store;

#[path = "../tests/common/bot.rs"]
#[allow(dead_code)]
mod bot;

/// The service's allocator (src/main.rs), so that the figures are the service's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const MOVES: usize = 40;
const WARMUP: usize = 20;
const SAMPLES: usize = 200;
const TARGET_BYTES: usize = 30 * 1024;
const TARGET_P95: Duration = Duration::from_millis(5);
const ACCEPT_ENCODING: &str = "br, gzip";

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

fn kb(bytes: usize) -> String {
    format!("{:.1} KB", bytes as f64 / 1024.0)
}

/// A game of the ruleset's first scenario that is not a practice set-up, with as few seats as
/// it takes (two at least).
fn new_game(ruleset: &Arc<dyn Ruleset>) -> NewGame {
    let info = ruleset.info();
    let scenario = info
        .scenarios
        .iter()
        .find(|s| !s.practice)
        .unwrap_or(&info.scenarios[0]);
    let count = scenario.min_seats.max(2).min(scenario.max_seats);
    let seats = (0..count)
        .map(|i| NewSeat {
            seat: scenario.seats.get(i).cloned(),
            name: ["Anna", "Ben", "Carl", "Dora"][i % 4].into(),
            email: None,
        })
        .collect();
    NewGame {
        name: None,
        ruleset: info.id,
        scenario: scenario.id.clone(),
        options: serde_json::json!({}),
        seats,
        clock: None,
    }
}

/// One GET as a browser sends it after opening its seat link: the seat cookie, and the
/// encodings it accepts. The body as it came over the wire.
async fn get(http: &reqwest::Client, url: &str, token: Option<&str>) -> reqwest::Response {
    let mut req = http.get(url).header("Accept-Encoding", ACCEPT_ENCODING);
    if let Some(token) = token {
        req = req.header("Cookie", format!("despatch_seat={token}"));
    }
    let r = req.send().await.unwrap();
    assert_eq!(r.status().as_u16(), 200, "{url}");
    r
}

/// The static files a page loads: the fingerprinted `/static/…?v=…` addresses in it.
fn static_files(html: &str) -> Vec<String> {
    let mut files: Vec<String> = html
        .split("\"/static/")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|a| a.contains("?v="))
        .map(|a| format!("/static/{a}"))
        .collect();
    files.sort();
    files.dedup();
    files
}

struct Figures {
    ruleset: String,
    events: u64,
    page_raw: usize,
    page_wire: usize,
    encoding: String,
    files_wire: usize,
    uncached_wire: usize,
    p50: Duration,
    p95: Duration,
    p99: Duration,
}

async fn measure(games: &Games, base: &str, ruleset: &Arc<dyn Ruleset>, moves: usize) -> Figures {
    let created = games.create(new_game(ruleset)).await.unwrap();
    let game_id = created.game_id.clone();
    let mut rng = Rng::new(0x5ea7_0000 + moves as u64);
    for _ in 0..moves {
        if !bot::bot_move(games, &game_id, &mut rng).await.unwrap() {
            break;
        }
    }
    let summary = games.summary(&game_id).await.unwrap();
    let to_act = summary
        .waiting_for
        .first()
        .map(|p| p.seat.to_string())
        .unwrap_or_else(|| created.seats[0].seat.clone());
    let token = created
        .seats
        .iter()
        .find(|s| s.seat == to_act)
        .map(|s| s.token.clone())
        .unwrap();
    let http = reqwest::Client::new();
    let url = format!("{base}/games/{game_id}");

    let first = get(&http, &url, Some(&token)).await;
    let encoding = first
        .headers()
        .get("content-encoding")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_else(|| "none".into());
    let page_wire = first.bytes().await.unwrap().len();
    let plain = http
        .get(&url)
        .header("Cookie", format!("despatch_seat={token}"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let (mut files_wire, mut uncached_wire) = (0, 0);
    for file in static_files(&plain) {
        let r = get(&http, &format!("{base}{file}"), None).await;
        let kept = r
            .headers()
            .get("cache-control")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|c| c.contains("immutable") || c.contains("max-age=31536000"));
        let n = r.bytes().await.unwrap().len();
        files_wire += n;
        if !kept {
            uncached_wire += n;
        }
    }
    for _ in 0..WARMUP {
        get(&http, &url, Some(&token)).await.bytes().await.unwrap();
    }
    let mut times = Vec::with_capacity(SAMPLES);
    for _ in 0..SAMPLES {
        let start = Instant::now();
        get(&http, &url, Some(&token)).await.bytes().await.unwrap();
        times.push(start.elapsed());
    }
    times.sort();
    Figures {
        ruleset: ruleset.info().id,
        events: summary.next_seq - 1,
        page_raw: plain.len(),
        page_wire,
        encoding,
        files_wire,
        uncached_wire,
        p50: percentile(&times, 0.50),
        p95: percentile(&times, 0.95),
        p99: percentile(&times, 0.99),
    }
}

fn main() {
    let moves = std::env::var("DESPATCH_BENCH_MOVES")
        .ok()
        .and_then(|m| m.parse().ok())
        .unwrap_or(MOVES);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let missed = runtime.block_on(async {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite:{}?mode=rwc", dir.path().join("bench.db").display());
        let store = Store::connect(&url)
            .await
            .unwrap()
            .with_key(despatch::store::SecretKey::from_secret("bench"));
        store.migrate().await.unwrap();
        let games = Games::new(store.clone(), "http://bench");
        let app = Application::build(store.clone(), ServerSettings::new("127.0.0.1:0"), |g| g)
            .unwrap();
        let base = format!("http://127.0.0.1:{}", app.port());
        tokio::spawn(app.run_until_stopped());
        println!(
            "each ruleset's seat page after {moves} bot moves; {SAMPLES} requests after {WARMUP}; Accept-Encoding: {ACCEPT_ENCODING}"
        );
        println!(
            "{:<22} {:>6} {:>9} {:>17} {:>15} {:>13} {:>8} {:>8} {:>8}",
            "ruleset",
            "events",
            "page",
            "on the wire",
            "files (1st)",
            "coming back",
            "p50",
            "p95",
            "p99"
        );
        let mut missed = Vec::new();
        for ruleset in despatch::rules::all() {
            let f = measure(&games, &base, &ruleset, moves).await;
            let back = f.page_wire + f.uncached_wire;
            println!(
                "{:<22} {:>6} {:>9} {:>10} ({:<4}) {:>15} {:>13} {:>8} {:>8} {:>8}",
                f.ruleset,
                f.events,
                kb(f.page_raw),
                kb(f.page_wire),
                f.encoding,
                kb(f.files_wire),
                kb(back),
                ms(f.p50),
                ms(f.p95),
                ms(f.p99)
            );
            if back > TARGET_BYTES {
                missed.push(format!(
                    "{}: {} on the wire coming back, the target is at most {}",
                    f.ruleset,
                    kb(back),
                    kb(TARGET_BYTES)
                ));
            }
            if f.p95 > TARGET_P95 {
                missed.push(format!(
                    "{}: p95 {}, the target is at most {}",
                    f.ruleset,
                    ms(f.p95),
                    ms(TARGET_P95)
                ));
            }
        }
        missed
    });
    if missed.is_empty() {
        println!(
            "ok: every ruleset's seat page within {} and a p95 of {}",
            kb(TARGET_BYTES),
            ms(TARGET_P95)
        );
    } else {
        for m in &missed {
            eprintln!("FAIL: {m}");
        }
        std::process::exit(1);
    }
}
