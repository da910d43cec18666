//! Append throughput and latency through the store on PostgreSQL, beside a raw single-row INSERT
//! baseline measured with pgbench on the same server in the same run (issue 2's benchmark).
//!
//! For 1, 4 and 16 concurrent games (clients) it runs pgbench on a table with a unique
//! (game_id, seq) for a while, then the same number of tasks, each appending realistic moves to
//! its own game through `Store::append` (one event of a few hundred bytes and one outbox row), in
//! several interleaved rounds, and prints the median rates, their p50/p99 latencies and the
//! ratio. Absolute figures wander from day to
//! day on shared machines; the ratio measured in one run is what the target is about.
//!
//! ```text
//! cargo bench --bench store_append                 # 10 s per measurement
//! cargo bench --bench store_append -- --seconds 5 --rounds 5 --games 16
//! ```
//! The server is `DESPATCH_BENCH_POSTGRES` (else `DESPATCH_TEST_POSTGRES`, else
//! `postgres://postgres@127.0.0.1:5432/postgres`); the run creates and drops its own database.

use std::path::Path;
use std::time::{Duration, Instant};

use despatch::engine::event::{kind, Event, GENESIS_HASH};
use despatch::store::{Append, GameRecord, OutboxRecord, PgStore, SeatRecord, Store};
use serde_json::json;
use sqlx::{AssertSqlSafe, Connection, Executor, PgConnection};

mod support;
use support::{cpus, percentiles, pgbench, with_database, Measured};

/// The service's allocator (src/main.rs), so that the figures are the service's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const CONCURRENCY: [usize; 3] = [1, 4, 16];
const WARM_UP: Duration = Duration::from_secs(1);
const AT: &str = "2026-11-22T09:00:00.000Z";

impl Measured {
    /// The median of each figure over the rounds.
    fn median(mut rounds: Vec<Measured>) -> Measured {
        fn mid<T: Copy + PartialOrd>(mut v: Vec<T>) -> T {
            v.sort_by(|a, b| a.partial_cmp(b).expect("no NaN"));
            v[v.len() / 2]
        }
        let per_second = mid(rounds.iter().map(|m| m.per_second).collect());
        let p50 = mid(rounds.iter().map(|m| m.p50).collect());
        let p99 = mid(rounds.drain(..).map(|m| m.p99).collect());
        Measured {
            per_second,
            p50,
            p99,
        }
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let seconds = seconds_from_args();
    let admin_url = std::env::var("DESPATCH_BENCH_POSTGRES")
        .or_else(|_| std::env::var("DESPATCH_TEST_POSTGRES"))
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned());
    let mut suffix = [0u8; 6];
    getrandom::fill(&mut suffix).expect("the OS random source failed");
    let name = format!("despatch_bench_{}", hex::encode(suffix));
    let url = with_database(&admin_url, &name);

    let mut admin = PgConnection::connect(&admin_url)
        .await
        .expect("reach the PostgreSQL server");
    let version: String = sqlx::query_scalar("SHOW server_version")
        .fetch_one(&mut admin)
        .await
        .unwrap();
    admin
        .execute(AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .await
        .expect("create the bench database");

    let work = tempfile::tempdir().expect("a temporary folder");
    let script = work.path().join("insert.sql");
    prepare_baseline(&url, &script).await;

    let rounds = arg("--rounds").unwrap_or(3) as usize;
    println!(
        "Store appends (PostgreSQL {version}), {rounds} rounds of {seconds} s per measurement, {} CPUs",
        cpus()
    );
    println!("Each figure is the median over the rounds; the ratio's range over the rounds is in brackets.");
    println!();
    println!("| games | raw INSERT/s | p50 ms | p99 ms | store appends/s | p50 ms | p99 ms | appends / INSERTs |");
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut last_ratio = 0.0;
    let only = arg("--games").map(|n| n as usize);
    for n in CONCURRENCY
        .into_iter()
        .filter(|n| only.is_none_or(|only| only == *n))
    {
        // Interleaved, so that load from elsewhere on the machine falls on both alike.
        let (mut raw, mut store) = (Vec::new(), Vec::new());
        for round in 0..rounds {
            raw.push(pgbench(&url, &script, n, seconds, work.path(), round));
            store.push(appends(&url, n, seconds, round).await);
        }
        let ratios: Vec<f64> = store
            .iter()
            .zip(&raw)
            .map(|(s, r)| s.per_second / r.per_second)
            .collect();
        let (raw, store) = (Measured::median(raw), Measured::median(store));
        last_ratio = store.per_second / raw.per_second;
        println!(
            "| {n} | {:.0} | {} | {} | {:.0} | {} | {} | {} |",
            raw.per_second,
            ms(raw.p50),
            ms(raw.p99),
            store.per_second,
            ms(store.p50),
            ms(store.p99),
            percent(last_ratio, &ratios),
        );
    }
    println!();
    let verdict = if last_ratio >= 0.7 { "meets" } else { "misses" };
    println!(
        "At {} games the store appends at {:.0}% of the raw INSERT rate ({verdict} the 70% target at 16 games).",
        only.unwrap_or(16),
        100.0 * last_ratio
    );

    admin
        .execute(AssertSqlSafe(format!(
            "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
        )))
        .await
        .ok();
}

/// `--seconds N` (and `--games N` to measure one column) after `cargo bench --bench store_append --`; cargo's own `--bench` is ignored.
fn seconds_from_args() -> u64 {
    arg("--seconds").unwrap_or(10)
}

/// The value after `name` on the command line.
fn arg(name: &str) -> Option<u64> {
    let args: Vec<String> = std::env::args().collect();
    args.windows(2).find(|pair| pair[0] == name).map(|pair| {
        pair[1]
            .parse()
            .unwrap_or_else(|_| panic!("{name} takes a whole number"))
    })
}

/// `71% [64–80%]`: the ratio of the medians and the range of the per-round ratios.
fn percent(ratio: f64, rounds: &[f64]) -> String {
    let low = rounds.iter().cloned().fold(f64::INFINITY, f64::min);
    let high = rounds.iter().cloned().fold(0.0, f64::max);
    format!(
        "{:.0}% [{:.0}–{:.0}%]",
        100.0 * ratio,
        100.0 * low,
        100.0 * high
    )
}

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1000.0)
}

/// The raw baseline's table and pgbench script: one single-row INSERT of a body the size of an
/// event, with a unique (game_id, seq) as the events table has.
async fn prepare_baseline(url: &str, script: &Path) {
    let mut conn = PgConnection::connect(url)
        .await
        .expect("reach the bench database");
    conn.execute(
        "CREATE TABLE raw_inserts (game_id text NOT NULL, seq bigint NOT NULL, body text NOT NULL, \
         PRIMARY KEY (game_id, seq))",
    )
    .await
    .expect("create the baseline table");
    conn.close().await.ok();
    let body = serde_json::to_string(&sample_event("game-raw", 1, GENESIS_HASH))
        .unwrap()
        .replace('\'', "''");
    let text = format!(
        "\\set seq random(1, 9000000000000000000)\n\
         INSERT INTO raw_inserts (game_id, seq, body) VALUES ('game-' || :client_id, :seq, '{body}');\n"
    );
    std::fs::write(script, text).expect("write the pgbench script");
}

/// `games` tasks, each appending moves to its own game as fast as the store takes them.
async fn appends(url: &str, games: usize, seconds: u64, round: usize) -> Measured {
    let pool = PgStore::pool_options()
        .max_connections(games as u32)
        .connect(url)
        .await
        .expect("connect");
    let store = Store::Postgres(
        PgStore::from_pool(pool).with_key(despatch::store::SecretKey::from_secret("bench")),
    );
    store.migrate().await.expect("migrate the bench database");
    let mut heads = Vec::new();
    for g in 0..games {
        let game_id = format!("bench-{games}-{round}-{g}");
        heads.push(create(&store, &game_id).await);
    }
    let tasks: Vec<_> = heads
        .into_iter()
        .map(|head| {
            let store = store.clone();
            tokio::spawn(async move {
                let mut head = head;
                let start = Instant::now();
                let measure_from = start + WARM_UP;
                let until = measure_from + Duration::from_secs(seconds);
                let mut latencies = Vec::new();
                loop {
                    let event = sample_event(&head.game_id, head.seq + 1, &head.hash);
                    let append = Append {
                        outbox: vec![OutboxRecord {
                            game_id: head.game_id.clone(),
                            seq: event.seq,
                            channel: "email".into(),
                            seat: Some("bob".into()),
                            payload: json!({ "template": "your_turn", "seq": event.seq, "to": "bob" }),
                            delay: std::time::Duration::ZERO,
                        }],
                        events: vec![event.clone()],
                        ..Append::default()
                    };
                    let began = Instant::now();
                    store.append(&head.game_id, event.seq, &append).await.expect("an uncontended append");
                    let done = Instant::now();
                    if began >= measure_from {
                        latencies.push(done - began);
                    }
                    head = event;
                    if done >= until {
                        return latencies;
                    }
                }
            })
        })
        .collect();
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.extend(task.await.expect("an append task"));
    }
    let per_second = latencies.len() as f64 / seconds as f64;
    let (p50, p99) = percentiles(&mut latencies);
    Measured {
        per_second,
        p50,
        p99,
    }
}

async fn create(store: &Store, game_id: &str) -> Event {
    let created = Event::new(
        game_id,
        0,
        kind::GAME_CREATED,
        "system",
        json!({ "ruleset": "open-table", "seats": ["alice", "bob"] }),
        AT.into(),
        None,
        GENESIS_HASH,
    );
    let game = GameRecord {
        game_id: despatch::store::GameId::parse(game_id).unwrap(),
        ruleset: "open-table".into(),
        scenario: "default".into(),
        created_at: AT.into(),
        next_seq: 0,
        ended: false,
        name: String::new(),
    };
    let seats: Vec<_> = ["alice", "bob"]
        .iter()
        .map(|seat| SeatRecord {
            game_id: despatch::store::GameId::parse(game_id).unwrap(),
            seat: (*seat).into(),
            name: (*seat).into(),
            email: None,
            token_hash: format!("{game_id}-{seat}"),
        })
        .collect();
    let append = Append {
        events: vec![created.clone()],
        ..Append::default()
    };
    store
        .create_game(&game, &seats, &append)
        .await
        .expect("create a bench game");
    created
}

/// A move of the size real ones have: a few hundred bytes of JSON once enveloped.
fn sample_event(game_id: &str, seq: u64, prev_hash: &str) -> Event {
    Event::new(
        game_id,
        seq,
        kind::COMMAND,
        "alice",
        json!({ "command": {
            "text": "3rd Guards Brigade marches from 1204 to 1305 and bombards 1406; cavalry screens the ford",
            "dice": ["2d6", "d10+1"],
        } }),
        AT.into(),
        None,
        prev_hash,
    )
}
