//! Notices per second through the outbox: games are created (each writes a turn notice in its
//! creation transaction), then one dispatcher drains the outbox — composing each notice,
//! expanding it into its delivery, sending it, recording the attempt — to a local SMTP server
//! (aiosmtpd) and to a local webhook receiver. A baseline in the same run sends the same number
//! of messages straight through the transport, without the outbox, so the figures can be read
//! against this machine's speed on the day.
//!
//! `cargo bench --bench notices [-- N]` (N notices per phase, default 300). SMTP: the server in
//! `DESPATCH_TEST_SMTP`, else aiosmtpd from the virtual environment `scripts/test` installs.
//! PostgreSQL: `DESPATCH_TEST_POSTGRES` (admin URL), skipped if it does not answer.

use std::process::{Child, Command};
use std::sync::Arc;
use std::time::{Duration, Instant};

use actix_web::{web, App, HttpResponse, HttpServer};
use despatch::config::DispatchSettings;
use despatch::games::outbox::EmailDelivery;
use despatch::games::webhook_targets::WebhookTargets;
use despatch::games::{Games, NewGame, NewSeat};
use despatch::notify::dispatcher::Dispatcher;
use despatch::notify::email::Mailer;
use despatch::notify::webhook::{install_crypto, Hooks, WebhookDelivery};
use despatch::store::{Store, WebhookRecord};
use futures_util::future::join_all;
use serde_json::Value;
use sqlx::{AssertSqlSafe, Connection, Executor, PgConnection};

/// The service's allocator (src/main.rs), so that the figures are the service's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

struct Smtp {
    addr: String,
    _child: Option<ChildGuard>,
}

struct ChildGuard(Child);
impl Drop for ChildGuard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn smtp() -> Smtp {
    if let Ok(addr) = std::env::var("DESPATCH_TEST_SMTP") {
        return Smtp { addr, _child: None };
    }
    let target = std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".into());
    let python = format!("{target}/aiosmtpd-venv/bin/python");
    let port = free_port();
    let child = ChildGuard(
        Command::new(&python)
            .args(["-m", "aiosmtpd", "-n", "-l", &format!("127.0.0.1:{port}"), "-c", "aiosmtpd.handlers.Sink"])
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start aiosmtpd from {python} ({e}): run ./scripts/test once to install it, or set DESPATCH_TEST_SMTP")),
    );
    let addr = format!("127.0.0.1:{port}");
    for _ in 0..100 {
        if std::net::TcpStream::connect(&addr).is_ok() {
            return Smtp {
                addr,
                _child: Some(child),
            };
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("aiosmtpd did not start");
}

async fn receiver() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    let server = HttpServer::new(|| {
        App::new().default_service(web::to(|| async { HttpResponse::Ok().finish() }))
    })
    .workers(2)
    .listen(listener)
    .unwrap()
    .run();
    tokio::spawn(server);
    url
}

fn dispatcher(games: &Games, smtp: &str) -> Dispatcher {
    let mailer = Mailer::new(
        Some(&format!("smtp://{smtp}")),
        std::env::temp_dir(),
        "Despatch <bench@test.invalid>",
        Duration::from_secs(10),
    )
    .unwrap();
    Dispatcher::new(
        games.clone(),
        Arc::new(mailer),
        Arc::new(Hooks::new(Duration::from_secs(10), local_hooks()).unwrap()),
        DispatchSettings {
            batch: 32,
            ..DispatchSettings::default()
        },
    )
}

/// Creates `n` games whose first notice goes by email (`email`) or to a webhook, and drains
/// them; returns notices per second of the drain.
async fn phase(store: &Store, smtp: &str, hook_url: &str, n: usize, email: bool) -> f64 {
    let games = Games::new(store.clone(), "http://bench.invalid");
    for i in 0..n {
        let created = games
            .create(NewGame {
                name: None,
                ruleset: "open-table".into(),
                scenario: "default".into(),
                options: Value::Null,
                seats: vec![
                    NewSeat {
                        seat: Some("anna".into()),
                        name: "Anna".into(),
                        email: email.then(|| format!("anna{i}@bench.invalid")),
                    },
                    NewSeat {
                        seat: Some("bert".into()),
                        name: "Bert".into(),
                        email: None,
                    },
                ],
                clock: None,
            })
            .await
            .unwrap();
        if !email {
            store
                .add_webhook(&WebhookRecord {
                    game_id: created.game_id.clone(),
                    hook_id: "h".into(),
                    seat: Some("anna".into()),
                    url: hook_url.into(),
                    secret: "bench-secret".into(),
                    format: "json".into(),
                })
                .await
                .unwrap();
        }
    }
    let d = dispatcher(&games, smtp);
    let started = Instant::now();
    let handled = d.drain().await.unwrap();
    let secs = started.elapsed().as_secs_f64();
    assert_eq!(handled, 2 * n, "each notice and its delivery");
    assert_eq!(store.outbox_pending().await.unwrap(), 0);
    n as f64 / secs
}

/// The benchmark's webhook receiver listens on 127.0.0.1: the operator's allowance
/// (`DESPATCH_WEBHOOK_ALLOW_HOSTS`) lets webhooks reach it.
fn local_hooks() -> Arc<WebhookTargets> {
    Arc::new(WebhookTargets::from_setting("127.0.0.1"))
}

/// The transport alone: `n` messages, 32 at a time, as the dispatcher sends them.
async fn baseline(smtp: &str, hook_url: &str, n: usize) -> (f64, f64) {
    let mailer = Mailer::new(
        Some(&format!("smtp://{smtp}")),
        std::env::temp_dir(),
        "Despatch <bench@test.invalid>",
        Duration::from_secs(10),
    )
    .unwrap();
    let hooks = Hooks::new(Duration::from_secs(10), local_hooks()).unwrap();
    let email = |i: usize| EmailDelivery {
        to: format!("base{i}@bench.invalid"),
        to_name: "Base".into(),
        subject: "baseline".into(),
        text: "x".repeat(1500),
        html: format!("<p>{}</p>", "x".repeat(2000)),
        reply_to: None,
        message_id: format!("base-{i}@bench.invalid"),
        // As every notice does, so that the baseline sends the same headers.
        head: Some(despatch::games::outbox::LogHead {
            game_id: format!("base-{i}"),
            seq: 1,
            hash: "ab".repeat(32),
        }),
        in_reply_to: None,
        references: Vec::new(),
        unsubscribe: Some(format!(
            "https://bench.invalid/api/games/base-{i}/unsubscribe?seat=a&channel=email&sig=00"
        )),
        attachments: Vec::new(),
    };
    let started = Instant::now();
    for chunk in (0..n).collect::<Vec<_>>().chunks(32) {
        join_all(chunk.iter().map(|i| {
            let m = email(*i);
            let mailer = &mailer;
            async move { mailer.send(&m).await.unwrap() }
        }))
        .await;
    }
    let smtp_rate = n as f64 / started.elapsed().as_secs_f64();
    let started = Instant::now();
    for chunk in (0..n).collect::<Vec<_>>().chunks(32) {
        join_all(chunk.iter().map(|i| {
            let d = WebhookDelivery {
                hook_id: "h".into(),
                url: hook_url.into(),
                event: "turn".into(),
                delivery_id: format!("b{i}"),
                body: "{\"event\":\"turn\"}".into(),
            };
            let hooks = &hooks;
            async move { hooks.send(&d, "bench-secret").await.unwrap() }
        }))
        .await;
    }
    (smtp_rate, n as f64 / started.elapsed().as_secs_f64())
}

async fn postgres_store() -> Option<(Store, String, String)> {
    let admin = std::env::var("DESPATCH_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
    let mut conn = PgConnection::connect(&admin).await.ok()?;
    let mut b = [0u8; 6];
    getrandom::fill(&mut b).unwrap();
    let name = format!("despatch_bench_{}", hex::encode(b));
    conn.execute(AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .await
        .ok()?;
    let url = format!("{}/{name}", admin.rsplit_once('/').unwrap().0);
    let store = Store::connect(&url)
        .await
        .ok()?
        .with_key(despatch::store::SecretKey::from_secret("bench"));
    store.migrate().await.ok()?;
    Some((store, admin, name))
}

#[tokio::main]
async fn main() {
    install_crypto();
    let n: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(300);
    let smtp = smtp();
    let hook_url = receiver().await;
    let (smtp_base, hook_base) = baseline(&smtp.addr, &hook_url, n).await;
    println!("baseline, transport alone ({n} messages, 32 concurrent): SMTP {smtp_base:.0}/s, webhook {hook_base:.0}/s");

    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}?mode=rwc", dir.path().join("bench.db").display());
    let sqlite = Store::connect(&url)
        .await
        .unwrap()
        .with_key(despatch::store::SecretKey::from_secret("bench"));
    sqlite.migrate().await.unwrap();
    let e = phase(&sqlite, &smtp.addr, &hook_url, n, true).await;
    let w = phase(&sqlite, &smtp.addr, &hook_url, n, false).await;
    println!("sqlite:   {e:.0} notices/s by email, {w:.0} notices/s by webhook ({n} notices each)");

    match postgres_store().await {
        Some((pg, admin, name)) => {
            let e = phase(&pg, &smtp.addr, &hook_url, n, true).await;
            let w = phase(&pg, &smtp.addr, &hook_url, n, false).await;
            println!("postgres: {e:.0} notices/s by email, {w:.0} notices/s by webhook ({n} notices each)");
            drop(pg);
            if let Ok(mut c) = PgConnection::connect(&admin).await {
                let _ = c
                    .execute(AssertSqlSafe(format!(
                        "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
                    )))
                    .await;
            }
        }
        None => println!("postgres: skipped (no server at DESPATCH_TEST_POSTGRES)"),
    }
}
