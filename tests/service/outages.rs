//! Database outages over real HTTP. PostgreSQL is cut off by a TCP proxy between the service and
//! the database (`common::proxy`); SQLite by a write lock held from another connection. While the
//! database is out of reach the service answers `503` with `Retry-After` and a code, `/health`
//! says the database is down, reads on SQLite go on, nothing half-done is recorded, and once the
//! database is back the service recovers by itself. A bounded load test makes moves through a
//! cut: every move answered `201` is in the log, every refused one is not.
//!
//! Timeouts here are hang guards, never assertions about speed.

use crate::common;

use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::TestApp;
use despatch::engine::verify::verify;
use despatch::rules;
use despatch::store::{PgStore, Store};
use serde_json::{json, Value};
use sqlx::postgres::PgConnectOptions;
use sqlx::{Connection, Executor};

/// How long any one request may take before the test calls it a hang.
const HANG: Duration = Duration::from_secs(60);

struct Answer {
    status: u16,
    retry_after: Option<String>,
    body: Value,
}

/// What this file's tests ask of the app (a trait, so that each test module keeps its own
/// helpers in the one service test binary).
trait OutageCalls {
    async fn send(&self, req: reqwest::RequestBuilder, guard: Duration) -> Answer;
    async fn get(&self, path: &str, token: Option<&str>, guard: Duration) -> Answer;
    async fn post(&self, path: &str, token: Option<&str>, body: &Value) -> Answer;
    async fn table(&self) -> (String, String);
    async fn moves(&self, game_id: &str, token: &str, seq: u64, order: &str) -> Answer;
}

impl OutageCalls for TestApp {
    async fn send(&self, req: reqwest::RequestBuilder, guard: Duration) -> Answer {
        let resp = tokio::time::timeout(guard, req.send())
            .await
            .expect("the request hung")
            .unwrap();
        let status = resp.status().as_u16();
        let retry_after = resp
            .headers()
            .get("Retry-After")
            .map(|v| v.to_str().unwrap().to_owned());
        let text = resp.text().await.unwrap();
        Answer {
            status,
            retry_after,
            body: serde_json::from_str(&text).unwrap_or(Value::String(text)),
        }
    }

    async fn get(&self, path: &str, token: Option<&str>, guard: Duration) -> Answer {
        let mut req = self.http.get(format!("{}{path}", self.base));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        self.send(req, guard).await
    }

    async fn post(&self, path: &str, token: Option<&str>, body: &Value) -> Answer {
        let mut req = self.http.post(format!("{}{path}", self.base)).json(body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        self.send(req, HANG).await
    }

    /// A one-seat open table: its id and the seat's token.
    async fn table(&self) -> (String, String) {
        let a = self
            .post(
                "/api/games",
                None,
                &json!({ "ruleset": "open-table", "seats": [{ "name": "Anna" }] }),
            )
            .await;
        assert_eq!(a.status, 201, "{}", a.body);
        (
            a.body["game_id"].as_str().unwrap().to_owned(),
            a.body["seats"][0]["token"].as_str().unwrap().to_owned(),
        )
    }

    async fn moves(&self, game_id: &str, token: &str, seq: u64, order: &str) -> Answer {
        self.post(
            &format!("/api/games/{game_id}/moves"),
            Some(token),
            &json!({ "expected_seq": seq, "command": order }),
        )
        .await
    }
}

/// A 503 as the service gives it: `Retry-After` and the `unavailable` code.
fn assert_unavailable(a: &Answer, what: &str) {
    assert_eq!(a.status, 503, "{what}: {}", a.body);
    assert!(
        a.retry_after
            .as_deref()
            .is_some_and(|s| s.parse::<u64>().is_ok()),
        "{what}: no Retry-After"
    );
    assert_eq!(a.body["error"], "unavailable", "{what}: {}", a.body);
}

/// A PostgreSQL test database, and a store that reaches it through a proxy.
async fn postgres_behind_a_proxy() -> (Store, common::TestDb, common::proxy::Proxy) {
    let (direct, db) = common::fresh_postgres().await;
    drop(direct);
    let options = PgConnectOptions::from_str(db.url()).unwrap();
    let upstream = tokio::net::lookup_host((options.get_host(), options.get_port()))
        .await
        .unwrap()
        .next()
        .expect("the database's address");
    let proxy = common::proxy::Proxy::start(upstream).await;
    let through = options.host("127.0.0.1").port(proxy.addr().port());
    let pool = PgStore::pool_options()
        .max_connections(8)
        .connect_with(through)
        .await
        .unwrap();
    (
        Store::Postgres(PgStore::from_pool(pool)).with_key(common::test_key()),
        db,
        proxy,
    )
}

/// A store straight to the test database, to read what was recorded.
async fn direct(db: &common::TestDb) -> Store {
    Store::connect(db.url())
        .await
        .unwrap()
        .with_key(common::test_key())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_outage_answers_503_with_retry_after_and_health_names_the_database() {
    let (store, db, proxy) = postgres_behind_a_proxy().await;
    let app = common::app_on(store, db).spawn().await;
    let (game, token) = app.table().await;
    let health = app.get("/health", None, HANG).await;
    assert_eq!(health.status, 200, "{}", health.body);
    assert_eq!(health.body["database"]["status"], "ok");

    proxy.cut();
    let a = app.get(&format!("/api/games/{game}"), None, HANG).await;
    assert_unavailable(&a, "a read");
    let a = app.moves(&game, &token, 1, "roll 2d6 in the dark").await;
    assert_unavailable(&a, "a move");
    let health = app.get("/health", None, HANG).await;
    assert_unavailable(&health, "/health");
    assert_eq!(health.body["status"], "down", "{}", health.body);
    assert_eq!(health.body["database"]["status"], "down", "{}", health.body);
    assert!(
        health.body["database"]["error"]
            .as_str()
            .is_some_and(|e| !e.is_empty()),
        "{}",
        health.body
    );

    proxy.restore();
    // The pool reconnects by itself: the first request after the cut may still meet a
    // connection that died in it, so ask until one answers (bounded).
    let mut summary = app.get(&format!("/api/games/{game}"), None, HANG).await;
    for _ in 0..20 {
        if summary.status == 200 {
            break;
        }
        assert_unavailable(&summary, "a read after the cut");
        tokio::time::sleep(Duration::from_millis(100)).await;
        summary = app.get(&format!("/api/games/{game}"), None, HANG).await;
    }
    assert_eq!(summary.status, 200, "{}", summary.body);
    assert_eq!(
        summary.body["next_seq"], 1,
        "the refused move was not recorded"
    );
    let a = app.moves(&game, &token, 1, "roll 2d6 in the light").await;
    assert_eq!(a.status, 201, "{}", a.body);
    assert_eq!(app.get("/health", None, HANG).await.status, 200);
    assert_eq!(
        direct(&app.db)
            .await
            .events(&game, 0, None)
            .await
            .unwrap()
            .len(),
        2
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_sqlite_write_lock_held_elsewhere_leaves_reads_answering_and_writes_get_503() {
    let app = Arc::new(common::spawn_app(common::Backend::Sqlite).spawn().await);
    let (game, token) = app.table().await;
    let a = app.moves(&game, &token, 1, "roll 2d6").await;
    assert_eq!(a.status, 201, "{}", a.body);

    // Another connection — another process, as far as the service can tell — takes the write
    // lock and keeps it.
    let mut other = sqlx::SqliteConnection::connect(app.db.url()).await.unwrap();
    other.execute("BEGIN EXCLUSIVE").await.unwrap();
    other
        .execute("CREATE TABLE held_elsewhere (x INTEGER)")
        .await
        .unwrap();

    // Moves queue for the lock: more of them than the read connections.
    let writes: Vec<_> = (0..10)
        .map(|n| {
            let (app, game, token) = (app.clone(), game.clone(), token.clone());
            tokio::spawn(async move { app.moves(&game, &token, 2, &format!("blocked {n}")).await })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(300)).await;

    // Reads answer while the writes wait (a hang guard, not a timing: they must not queue
    // behind the writes).
    let guard = Duration::from_secs(5);
    let view = app
        .get(&format!("/api/games/{game}/view"), Some(&token), guard)
        .await;
    assert_eq!(view.status, 200, "{}", view.body);
    let export = app
        .get(&format!("/api/games/{game}/export"), Some(&token), guard)
        .await;
    assert_eq!(export.status, 200, "{}", export.body);
    let summary = app.get(&format!("/api/games/{game}"), None, guard).await;
    assert_eq!(summary.status, 200, "{}", summary.body);
    let health = app.get("/health", None, guard).await;
    assert_eq!(health.status, 200, "{}", health.body);

    // Each write gives up after its busy timeout: 503 with Retry-After, not a hang, not a 500.
    for write in writes {
        let a = write.await.unwrap();
        assert_unavailable(&a, "a move while the lock is held elsewhere");
    }
    other.execute("ROLLBACK").await.unwrap();
    other.close().await.unwrap();

    let a = app.moves(&game, &token, 2, "roll 2d6 again").await;
    assert_eq!(a.status, 201, "{}", a.body);
    let events = app.store.events(&game, 0, None).await.unwrap();
    assert_eq!(events.len(), 3, "none of the refused moves was recorded");
}

/// The load test: a few games' seats make moves as fast as they are answered while the database
/// is cut off for a few seconds. Bounded: at most `MOVES` accepted moves per game and `ATTEMPTS`
/// tries per game, against 127.0.0.1 only.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_through_a_database_cut_are_in_the_log_exactly_when_they_were_answered_201() {
    const GAMES: usize = 6;
    const MOVES: u64 = 30;
    const ATTEMPTS: usize = 400;
    let (store, db, proxy) = postgres_behind_a_proxy().await;
    let app = Arc::new(common::app_on(store, db).spawn().await);
    let mut tables = Vec::new();
    for _ in 0..GAMES {
        tables.push(app.table().await);
    }

    // Moves accepted so far, in all games. Each game makes two moves, then waits for the cut
    // before it goes on: the cut falls while the rest are being made, however fast the machine
    // is and however late the test's own task runs on a loaded one.
    let progress = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let (cut_made, cut) = tokio::sync::watch::channel(false);
    let players: Vec<_> = tables
        .iter()
        .cloned()
        .map(|(game, token)| {
            let (app, progress, mut cut) = (app.clone(), progress.clone(), cut.clone());
            tokio::spawn(async move {
                // (order, status) of every try, in order, and when each was on its way.
                let mut tries: Vec<(String, u16)> = Vec::new();
                let mut spans: Vec<(Instant, Instant)> = Vec::new();
                let mut seq = 1u64;
                let mut accepted = 0;
                while accepted < MOVES && tries.len() < ATTEMPTS {
                    if accepted == 2 {
                        cut.wait_for(|made| *made).await.expect("the test cuts");
                    }
                    let order = format!("move {} of {game}", tries.len());
                    let sent = Instant::now();
                    let a = app.moves(&game, &token, seq, &order).await;
                    spans.push((sent, Instant::now()));
                    match a.status {
                        201 => {
                            accepted += 1;
                            progress.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            seq = a.body["next_seq"].as_u64().unwrap();
                        }
                        409 => seq = a.body["current_seq"].as_u64().unwrap(),
                        503 => {
                            assert!(a.retry_after.is_some(), "{}", a.body);
                            tokio::time::sleep(Duration::from_millis(50)).await;
                        }
                        other => panic!("move {order}: {other} {}", a.body),
                    }
                    tries.push((order, a.status));
                }
                (game, tries, spans)
            })
        })
        .collect();

    for _ in 0..10_000 {
        if progress.load(std::sync::atomic::Ordering::Relaxed) >= GAMES as u64 * 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    proxy.cut();
    let cut_at = Instant::now();
    cut_made.send_replace(true);
    tokio::time::sleep(Duration::from_secs(2)).await;
    proxy.restore();
    let restored_at = Instant::now();

    let reader = direct(&app.db).await;
    let mut met_the_cut = 0;
    for player in players {
        let (game, tries, spans) = player.await.unwrap();
        let events = reader.events(&game, 1, None).await.unwrap();
        let logged: Vec<String> = events
            .iter()
            .map(|e| e.payload["command"]["text"].as_str().unwrap().to_owned())
            .collect();
        for (order, status) in &tries {
            let times = logged.iter().filter(|l| *l == order).count();
            if *status == 201 {
                assert_eq!(
                    times, 1,
                    "{order} was answered 201 but is in the log {times} times"
                );
            } else {
                assert_eq!(times, 0, "{order} was answered {status} but is in the log");
            }
        }
        assert_eq!(
            logged.len() as u64,
            MOVES,
            "game {game} recovered and made all its moves ({} tries)",
            tries.len()
        );
        assert_eq!(tries.last().unwrap().1, 201, "the last move went through");
        // A try on its way while the database was cut off: refused with 503, or held by the
        // store until the database came back and answered then.
        met_the_cut += spans
            .iter()
            .filter(|(sent, answered)| *sent < restored_at && *answered > cut_at)
            .count();

        // The log is whole: its hash chain and every roll check out.
        let export = app
            .get(&format!("/api/games/{game}/export"), None, HANG)
            .await;
        let report = verify(export.body.as_str().unwrap(), &rules::find);
        assert!(report.ok(), "{}", report.render());
    }
    assert!(
        met_the_cut >= GAMES,
        "only {met_the_cut} moves met the cut: the test did not test an outage"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_database_not_accepting_connections_answers_503_with_retry_after() {
    // PostgreSQL refuses new sessions to a database with `ALLOW_CONNECTIONS false` (SQLSTATE
    // 55000, "database … is not currently accepting connections"), as during maintenance.
    let app = common::spawn_app(common::Backend::Postgres).spawn().await;
    let (game, token) = app.table().await;
    let name = app
        .db
        .url()
        .rsplit('/')
        .next()
        .unwrap()
        .split('?')
        .next()
        .unwrap()
        .to_owned();
    let mut admin = sqlx::PgConnection::connect(&common::postgres_admin_url())
        .await
        .unwrap();
    let allow = |yes: bool| {
        sqlx::AssertSqlSafe(format!(
            "ALTER DATABASE {name} WITH ALLOW_CONNECTIONS {yes}"
        ))
    };
    admin.execute(allow(false)).await.unwrap();
    // The sessions open now end, so every request needs a new one.
    sqlx::query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1")
        .bind(&name)
        .execute(&mut admin)
        .await
        .unwrap();
    // The pool's dead connections are dropped as requests meet them (a read tries up to 16):
    // a few reads clear them, whatever they answer, before the ones asserted.
    for _ in 0..4 {
        app.get(&format!("/api/games/{game}"), None, HANG).await;
    }
    for _ in 0..3 {
        let a = app.get(&format!("/api/games/{game}"), None, HANG).await;
        assert_unavailable(&a, "a read");
        let a = app.moves(&game, &token, 1, "roll 2d6 while refused").await;
        assert_unavailable(&a, "a move");
    }
    let page = app.get(&format!("/games/{game}/watch"), None, HANG).await;
    assert_eq!(page.status, 503, "a page: {}", page.body);

    admin.execute(allow(true)).await.unwrap();
    let mut summary = app.get(&format!("/api/games/{game}"), None, HANG).await;
    for _ in 0..20 {
        if summary.status == 200 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        summary = app.get(&format!("/api/games/{game}"), None, HANG).await;
    }
    assert_eq!(summary.status, 200, "{}", summary.body);
    assert_eq!(summary.body["next_seq"], 1, "no refused move was recorded");
    let a = app.moves(&game, &token, 1, "roll 2d6 once allowed").await;
    assert_eq!(a.status, 201, "{}", a.body);
}
