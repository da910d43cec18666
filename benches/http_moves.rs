//! Moves over HTTP as a player meets them (issue 16's benchmark): the `despatch serve` binary as a
//! child process on 127.0.0.1, durable appends on PostgreSQL, against pgbench's raw single-row
//! INSERT on the same server in the same run.
//!
//! What it measures, in order:
//! - moves/s, p50 and p99 at 1, 4 and 16 concurrent open-table games (closed loop: each game has
//!   one client, whose seat moves `roll 1d6` with the right `expected_seq` as soon as its last
//!   move is answered), interleaved with pgbench at the same client counts, and the ratio;
//! - a move's p50 at seq 10 and at seq 10,000 (the long game is grown by appending events through
//!   the store, then the server is restarted);
//! - `GET /api/games/{id}/view` of the 10,000-event game right after that restart (cold) and
//!   again (warm);
//! - moves/s at 16 games with the dispatcher off, on, and on with a backlog of 50,000 due notices
//!   written straight into the outbox (email goes to files in a temporary folder: no SMTP). The
//!   notices the rows before left waiting (every move writes two, and until then no dispatcher
//!   ran) are marked sent before the "on" row and again before the backlog is written, so that
//!   "on" measures a dispatcher keeping up with the moves it is timed beside and the backlog row
//!   exactly 50,000 due notices, as issue 16's target reads; how many the earlier rows left, and
//!   how many are unsent at the end, is printed;
//! - `despatch verify` of the long game's export, as a whole process (by hyperfine when it is
//!   installed), in events/s.
//!
//! ```text
//! cargo bench --bench http_moves
//! DESPATCH_BENCH_SECS=5 cargo bench --bench http_moves
//! ```
//! `DESPATCH_BENCH_ONLY=dispatcher` runs the dispatcher's three rows alone.
//! `DESPATCH_BENCH_GROW=http` grows the long game by moves over HTTP instead of through the store
//! (slower; then the move path's own writes beside the events, such as snapshots, are there).
//! `DESPATCH_BENCH_SECS` (default 10) bounds each timed loop; `DESPATCH_BENCH_BIN` names the server
//! binary (default: the `despatch` cargo built beside the bench, a release build under
//! `cargo bench`). PostgreSQL: `DESPATCH_BENCH_POSTGRES`, else `DESPATCH_TEST_POSTGRES`, else
//! `postgres://postgres@127.0.0.1:5432/postgres`, as an admin that may create the run's own
//! database (dropped at the end). pgbench comes with PostgreSQL's client tools (Debian:
//! `apt-get install postgresql-client`, or `postgresql-contrib` on older releases).
//! Every request goes to 127.0.0.1 and every loop is bounded in time and count.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use despatch::store::{Append, SecretKey, Store};
use futures_util::FutureExt;
use serde_json::{json, Value};
use sqlx::{AssertSqlSafe, Connection, Executor, PgConnection};

mod support;
use support::{cpus, free_port, percentiles, pgbench, with_database, Measured};

/// The service's allocator (src/main.rs).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const SECRET: &str = "http-moves-bench-secret-key-0123456789";
const CONCURRENCY: [usize; 3] = [1, 4, 16];
const WARM_UP: Duration = Duration::from_secs(1);
/// The long game's length and the backlog's size (issue 16).
const LONG: u64 = 10_000;
const BACKLOG: usize = 50_000;
/// Moves timed at each length, and the most any closed loop makes.
const SAMPLES: usize = 30;
const MAX_MOVES_PER_LOOP: usize = 200_000;

/// The server under test; killed on drop.
struct Server {
    child: Child,
    base: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What every run shares: the binary, the database, a folder for mail, logs and exports.
struct Bench {
    bin: PathBuf,
    url: String,
    work: tempfile::TempDir,
    http: reqwest::Client,
    seconds: u64,
}

/// One seat of one game, as its player's client knows it.
struct Seat {
    game_id: String,
    token: String,
    next_seq: u64,
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    despatch::notify::webhook::install_crypto();
    let seconds: u64 = std::env::var("DESPATCH_BENCH_SECS")
        .ok()
        .map(|s| s.parse().expect("DESPATCH_BENCH_SECS takes a whole number"))
        .unwrap_or(10);
    let bin = std::env::var("DESPATCH_BENCH_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(env!("CARGO_BIN_EXE_despatch")));
    let admin_url = std::env::var("DESPATCH_BENCH_POSTGRES")
        .or_else(|_| std::env::var("DESPATCH_TEST_POSTGRES"))
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned());
    let mut suffix = [0u8; 6];
    getrandom::fill(&mut suffix).expect("the OS random source");
    let name = format!("despatch_bench_{}", hex::encode(suffix));
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
    let bench = Bench {
        bin,
        url: with_database(&admin_url, &name),
        work: tempfile::tempdir().expect("a temporary folder"),
        http: reqwest::Client::builder()
            .timeout(Duration::from_secs(60))
            .pool_max_idle_per_host(64)
            // Shorter than the server's keep-alive (5 s), so that no request goes out on a
            // connection the server is closing after a pause (pgbench's turn).
            .pool_idle_timeout(Duration::from_secs(2))
            .build()
            .unwrap(),
        seconds,
    };
    println!(
        "HTTP moves: {} on PostgreSQL {version}, {seconds} s per timed loop, {} CPUs, load average {}",
        bench.bin.display(),
        cpus(),
        load()
    );
    println!("database {name}, dropped at the end");
    // Drop the database even when a step fails, then report the failure.
    let outcome = std::panic::AssertUnwindSafe(run(&bench))
        .catch_unwind()
        .await;
    println!("load average at the end: {}", load());
    admin
        .execute(AssertSqlSafe(format!(
            "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
        )))
        .await
        .ok();
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic);
    }
}

async fn run(bench: &Bench) {
    let migrate = Command::new(&bench.bin)
        .arg("migrate")
        .envs(bench.env(false))
        .output()
        .expect("run despatch migrate");
    assert!(migrate.status.success(), "{migrate:?}");
    let script = bench.work.path().join("insert.sql");
    prepare_baseline(&bench.url, &script).await;

    if std::env::var("DESPATCH_BENCH_ONLY").as_deref() == Ok("dispatcher") {
        return dispatcher_rows(bench).await;
    }

    // Throughput against the raw INSERT rate, interleaved so that the machine's other load falls
    // on both alike.
    let server = bench.serve(false).await;
    println!();
    println!("| games | raw INSERT/s | p50 ms | p99 ms | HTTP moves/s | p50 ms | p99 ms | moves / INSERTs |");
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
    for n in CONCURRENCY {
        let raw = pgbench(&bench.url, &script, n, bench.seconds, bench.work.path(), 0);
        let moves = bench.closed_loop(&server, n).await;
        println!(
            "| {n} | {:.0} | {} | {} | {:.0} | {} | {} | {:.1}% |",
            raw.per_second,
            ms(raw.p50),
            ms(raw.p99),
            moves.per_second,
            ms(moves.p50),
            ms(moves.p99),
            100.0 * moves.per_second / raw.per_second
        );
    }
    println!("(target at 16 games: ≥ 30% of the raw INSERT rate, p99 < 15 ms)");

    // A move's cost by the game's length.
    let mut short = bench.new_game(&server).await;
    for _ in 0..10 {
        bench.play(&server, &mut short).await;
    }
    let at_10 = bench.timed_moves(&server, &mut short).await;
    let mut long = bench.new_game(&server).await;
    bench
        .say(&server, &mut long, "The brigade holds the ford.")
        .await;
    if std::env::var("DESPATCH_BENCH_GROW").as_deref() == Ok("http") {
        // Every event a move over HTTP, so that whatever the move path writes beside the events
        // (snapshots, once there are any) is there too.
        while long.next_seq < LONG {
            bench.play(&server, &mut long).await;
        }
    } else {
        grow(bench, &long.game_id, LONG).await;
        long.next_seq = LONG;
    }
    drop(server);

    // Cold and warm loads of the long game: the first view after a restart, then again.
    let server = bench.serve(false).await;
    let view = format!("{}/api/games/{}/view", server.base, long.game_id);
    let began = Instant::now();
    bench.get(&view).await;
    let cold = began.elapsed();
    let mut warm = Vec::new();
    for _ in 0..10 {
        let began = Instant::now();
        bench.get(&view).await;
        warm.push(began.elapsed());
    }
    let (warm_p50, _) = percentiles(&mut warm);
    let at_long = bench.timed_moves(&server, &mut long).await;
    println!();
    println!(
        "a move's p50: {} ms at seq 10, {} ms at seq {LONG} ({:.1}×; target ≤ 1.5×)",
        ms(at_10),
        ms(at_long),
        at_long.as_secs_f64() / at_10.as_secs_f64()
    );
    println!(
        "GET view of the {LONG}-event game: cold (first after a restart) {} ms, warm p50 {} ms (target cold < 20 ms)",
        ms(cold),
        ms(warm_p50)
    );

    // `despatch verify` of the long game's export, as a player would run it.
    let export = bench
        .get(&format!(
            "{}/api/games/{}/export",
            server.base, long.game_id
        ))
        .await;
    // A header line, then one line per event.
    let events = export.lines().filter(|l| !l.trim().is_empty()).count() - 1;
    let file = bench.work.path().join("long.jsonl");
    std::fs::write(&file, &export).unwrap();
    drop(server);
    let (verify, how) = time_verify(&bench.bin, &file, bench.work.path());
    println!(
        "despatch verify of a {events}-event export: median {} ms ({how}), {:.0} events/s",
        ms(verify),
        events as f64 / verify.as_secs_f64()
    );
    dispatcher_rows(bench).await;
}

/// The dispatcher's cost to the move path: 16 games with it off, on, and on with a backlog.
async fn dispatcher_rows(bench: &Bench) {
    println!();
    println!("| 16 games | moves/s | p50 ms | p99 ms | vs dispatcher off |");
    println!("|---|---:|---:|---:|---:|");
    let off = {
        let server = bench.serve(false).await;
        bench.closed_loop(&server, 16).await
    };
    row("dispatcher off", &off, &off);
    let left = settle(&bench.url).await;
    let on = {
        let server = bench.serve(true).await;
        bench.closed_loop(&server, 16).await
    };
    row("dispatcher on", &on, &off);
    let left_by_on = settle(&bench.url).await;
    backlog(bench).await;
    let backlogged = {
        let server = bench.serve(true).await;
        bench.closed_loop(&server, 16).await
    };
    row(
        &format!("dispatcher on, backlog of {BACKLOG}"),
        &backlogged,
        &off,
    );
    println!(
        "(target: with the dispatcher on, and with the backlog, within 20% of off; the rows before \
         left {left} notices waiting, marked sent before \"on\"; \"on\" left {left_by_on}, marked \
         sent before the backlog; {} were still unsent at the end)",
        pending(&bench.url).await
    );
}

/// The median wall time of `despatch verify FILE` as a whole process: by hyperfine when it is on
/// the PATH (Debian: `apt-get install hyperfine`), else by timing 5 runs here.
fn time_verify(bin: &Path, file: &Path, work: &Path) -> (Duration, &'static str) {
    let json = work.join("verify.json");
    let hyperfine = Command::new("hyperfine")
        .args([
            "-N",
            "--warmup",
            "1",
            "--runs",
            "10",
            "--style",
            "none",
            "--export-json",
        ])
        .arg(&json)
        .arg(format!("{} verify {}", bin.display(), file.display()))
        .output();
    if let Ok(out) = hyperfine {
        assert!(out.status.success(), "hyperfine: {out:?}");
        let report: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        let median = report["results"][0]["median"]
            .as_f64()
            .expect("hyperfine's median");
        return (
            Duration::from_secs_f64(median),
            "hyperfine, 10 runs after 1 warm-up",
        );
    }
    let mut runs = Vec::new();
    for _ in 0..5 {
        let began = Instant::now();
        let out = Command::new(bin)
            .arg("verify")
            .arg(file)
            .output()
            .expect("run despatch verify");
        runs.push(began.elapsed());
        assert!(out.status.success(), "verify failed: {out:?}");
    }
    (percentiles(&mut runs).0, "5 runs timed here")
}

fn row(what: &str, m: &Measured, off: &Measured) {
    println!(
        "| {what} | {:.0} | {} | {} | {:.0}% |",
        m.per_second,
        ms(m.p50),
        ms(m.p99),
        100.0 * m.per_second / off.per_second
    );
}

impl Bench {
    fn env(&self, dispatcher: bool) -> Vec<(&'static str, String)> {
        vec![
            ("DATABASE_URL", self.url.clone()),
            ("DESPATCH_SECRET_KEY", SECRET.into()),
            (
                "DESPATCH_KEY_FILE",
                self.work.path().join("key").display().to_string(),
            ),
            (
                "DESPATCH_MAIL_DIR",
                self.work.path().join("mail").display().to_string(),
            ),
            (
                "DESPATCH_DISPATCHER",
                if dispatcher { "on" } else { "off" }.into(),
            ),
            ("DESPATCH_MOVE_RATE", "off".into()),
            ("DESPATCH_CREATE_RATE", "off".into()),
            ("DESPATCH_BASE_URL", "http://127.0.0.1".into()),
        ]
    }

    /// Starts `despatch serve` on a free port and waits for `/health`.
    async fn serve(&self, dispatcher: bool) -> Server {
        let port = free_port();
        let log =
            std::fs::File::create(self.work.path().join(format!("serve-{port}.log"))).unwrap();
        let child = Command::new(&self.bin)
            .arg("serve")
            .envs(self.env(dispatcher))
            .env("DESPATCH_BIND", format!("127.0.0.1:{port}"))
            .env_remove("DESPATCH_SMTP_URL")
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .stdin(Stdio::null())
            .spawn()
            .expect("start despatch serve");
        let server = Server {
            child,
            base: format!("http://127.0.0.1:{port}"),
        };
        for _ in 0..300 {
            if let Ok(r) = self
                .http
                .get(format!("{}/health", server.base))
                .send()
                .await
            {
                if r.status().is_success() {
                    return server;
                }
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("despatch serve did not answer /health within 30 s");
    }

    async fn get(&self, url: &str) -> String {
        let r = self.http.get(url).send().await.expect("a GET");
        assert!(r.status().is_success(), "GET {url}: {}", r.status());
        r.text().await.unwrap()
    }

    /// An open table in free order: anna moves (no email), bert has an email address, so that
    /// moves write notices for the dispatcher to send.
    async fn new_game(&self, server: &Server) -> Seat {
        let r = self
            .http
            .post(format!("{}/api/games", server.base))
            .json(&json!({
                "ruleset": "open-table",
                "options": { "order": "free" },
                "seats": [
                    { "seat": "anna", "name": "Anna" },
                    { "seat": "bert", "name": "Bert", "email": "bert@bench.invalid" },
                ],
            }))
            .send()
            .await
            .expect("create a game");
        assert_eq!(r.status().as_u16(), 201, "create a game");
        let created: Value = r.json().await.unwrap();
        Seat {
            game_id: created["game_id"].as_str().unwrap().to_owned(),
            token: created["seats"][0]["token"].as_str().unwrap().to_owned(),
            next_seq: 1,
        }
    }

    /// One move: `roll 1d6` at the seat's next seq.
    async fn play(&self, server: &Server, seat: &mut Seat) -> Duration {
        self.say(server, seat, "roll 1d6").await
    }

    /// One move of `command` at the seat's next seq; how long its answer took.
    async fn say(&self, server: &Server, seat: &mut Seat, command: &str) -> Duration {
        let began = Instant::now();
        let r = self
            .http
            .post(format!("{}/api/games/{}/moves", server.base, seat.game_id))
            .bearer_auth(&seat.token)
            .json(&json!({ "expected_seq": seat.next_seq, "command": command }))
            .send()
            .await
            .expect("a move");
        let status = r.status().as_u16();
        let body: Value = r.json().await.unwrap_or(Value::Null);
        let took = began.elapsed();
        assert_eq!(status, 201, "a move: {body}");
        seat.next_seq = body["next_seq"].as_u64().expect("next_seq");
        took
    }

    /// The p50 of `SAMPLES` moves, one after another.
    async fn timed_moves(&self, server: &Server, seat: &mut Seat) -> Duration {
        let mut took = Vec::new();
        for _ in 0..SAMPLES {
            took.push(self.play(server, seat).await);
        }
        percentiles(&mut took).0
    }

    /// `games` fresh games, each with one client moving as fast as its answers come back, for a
    /// second of warm-up and then `seconds`.
    async fn closed_loop(&self, server: &Server, games: usize) -> Measured {
        let mut seats = Vec::new();
        for _ in 0..games {
            seats.push(self.new_game(server).await);
        }
        let start = Instant::now();
        let measure_from = start + WARM_UP;
        let until = measure_from + Duration::from_secs(self.seconds);
        let loops = seats.into_iter().map(|mut seat| async move {
            let mut latencies = Vec::new();
            for _ in 0..MAX_MOVES_PER_LOOP {
                let began = Instant::now();
                let took = self.play(server, &mut seat).await;
                if began >= measure_from {
                    latencies.push(took);
                }
                if Instant::now() >= until {
                    break;
                }
            }
            latencies
        });
        let mut latencies: Vec<Duration> = futures_util::future::join_all(loops)
            .await
            .into_iter()
            .flatten()
            .collect();
        let per_second = latencies.len() as f64 / (Instant::now() - measure_from).as_secs_f64();
        let (p50, p99) = percentiles(&mut latencies);
        Measured {
            per_second,
            p50,
            p99,
        }
    }
}

/// Grows `game_id` (whose last event is a free-text move made over HTTP) to `len` events by
/// appending copies of that move through the store, 500 at a time: much faster than over HTTP
/// today, and the same rows a player's moves write.
async fn grow(bench: &Bench, game_id: &str, len: u64) {
    let store = Store::connect(&bench.url)
        .await
        .expect("connect the store")
        .with_key(SecretKey::from_secret(SECRET));
    let events = store
        .events(game_id, 0, None)
        .await
        .expect("the game's events");
    let model = events.last().expect("a move");
    for batch in model
        .copies_after((len - 1).saturating_sub(model.seq))
        .chunks(500)
    {
        let append = Append {
            events: batch.to_vec(),
            ..Append::default()
        };
        store
            .append(game_id, batch[0].seq, &append)
            .await
            .expect("grow the long game");
    }
}

/// `BACKLOG` due notices, copies of the turn notices already in the outbox.
async fn backlog(bench: &Bench) {
    let mut conn = PgConnection::connect(&bench.url).await.unwrap();
    let copied = sqlx::query(
        "INSERT INTO outbox (game_id, seq, channel, seat, payload) \
         SELECT o.game_id, o.seq, o.channel, o.seat, o.payload \
         FROM (SELECT * FROM outbox ORDER BY id LIMIT 64) o, generate_series(1, $1) g \
         LIMIT $1",
    )
    .bind(BACKLOG as i64)
    .execute(&mut conn)
    .await
    .expect("write the backlog");
    assert_eq!(
        copied.rows_affected(),
        BACKLOG as u64,
        "the outbox had notices to copy"
    );
}

/// Marks every waiting outbox row sent, as if a dispatcher had caught up; returns how many.
async fn settle(url: &str) -> u64 {
    let mut conn = PgConnection::connect(url).await.unwrap();
    sqlx::query("UPDATE outbox SET sent_at = now() WHERE sent_at IS NULL")
        .execute(&mut conn)
        .await
        .expect("settle the outbox")
        .rows_affected()
}

async fn pending(url: &str) -> i64 {
    let mut conn = PgConnection::connect(url).await.unwrap();
    sqlx::query_scalar("SELECT count(*) FROM outbox WHERE sent_at IS NULL")
        .fetch_one(&mut conn)
        .await
        .unwrap()
}

/// The raw baseline as in `store_append`: one single-row INSERT of an event-sized body into a
/// table with a unique (game_id, seq).
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
    let body =
        json!({ "command": { "text": "roll 1d6", "dice": ["1d6"] }, "padding": "x".repeat(300) })
            .to_string();
    let text = format!(
        "\\set seq random(1, 9000000000000000000)\n\
         INSERT INTO raw_inserts (game_id, seq, body) VALUES ('game-' || :client_id, :seq, '{body}');\n"
    );
    std::fs::write(script, text).expect("write the pgbench script");
}

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1000.0)
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}
