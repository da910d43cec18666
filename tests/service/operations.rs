//! What an operator sees, from the `despatch` binary run as an operator runs it (`despatch
//! serve`, its standard error a pipe): a log with no colour codes and no token, signature or
//! webhook secret in it, JSON lines when asked, and `/metrics` — off by default, and when on,
//! counting moves by ruleset and outcome. Each test that touches the store runs on PostgreSQL
//! and on SQLite.

use crate::common;

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use common::TestApp;
use serde_json::{json, Value};

/// A fresh database for a server the test starts itself (`serve`), and the store on it.
async fn spawn(backend: common::Backend) -> TestApp {
    common::spawn_app(backend).services().await
}

/// A running `despatch serve`, its standard error collected as it is written.
struct Served {
    child: Child,
    base: String,
    /// The address of `/metrics` when served on an address of its own.
    metrics: Option<String>,
    stderr: Arc<Mutex<Vec<u8>>>,
    reader: std::thread::JoinHandle<()>,
    http: reqwest::Client,
    _dir: tempfile::TempDir,
}

/// Variables of the test's own environment that would change what the server does.
const CLEARED: &[&str] = &[
    "DESPATCH_METRICS",
    "DESPATCH_METRICS_BIND",
    "DESPATCH_LOG_FORMAT",
    "DESPATCH_BASE_URL",
    "DESPATCH_SMTP_URL",
    "DESPATCH_MOVE_BURST",
    "DESPATCH_MOVE_RATE",
    "DESPATCH_INBOUND_SECRET",
    "DESPATCH_REPLY_DOMAIN",
    "DESPATCH_WEBHOOK_ALLOW_HOSTS",
    "NO_COLOR",
];

/// What this file's tests ask of the app (a trait, so that each test module keeps its own
/// helpers in the one service test binary).
trait OperationsCalls {
    fn serve(&self, vars: &[(&str, &str)]) -> Served;
}

impl OperationsCalls for TestApp {
    /// Starts `despatch serve` on port 0 with `vars` set, and waits until it listens.
    fn serve(&self, vars: &[(&str, &str)]) -> Served {
        // The test's HTTP client takes its TLS provider from the library, as the server does.
        despatch::notify::webhook::install_crypto();
        let dir = tempfile::tempdir().unwrap();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_despatch"));
        cmd.arg("serve")
            .current_dir(dir.path())
            .env("DATABASE_URL", self.db.url())
            .env("DESPATCH_BIND", "127.0.0.1:0")
            .env("DESPATCH_MAIL_DIR", dir.path().join("mail"))
            .env("DESPATCH_POLL_MS", "50")
            // One attempt per delivery within a test.
            .env("DESPATCH_RETRY_BASE_SECS", "3600")
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for v in CLEARED {
            cmd.env_remove(v);
        }
        for (k, v) in vars {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().expect("the binary runs");
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let mut pipe = child.stderr.take().unwrap();
        let sink = stderr.clone();
        let reader = std::thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&chunk[..n]);
            }
        });
        let (tx, rx) = mpsc::channel();
        let out = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        let mut metrics = None;
        let base = loop {
            let line = rx
                .recv_timeout(Duration::from_secs(120))
                .unwrap_or_else(|_| {
                    panic!(
                        "the server did not start: {}",
                        String::from_utf8_lossy(&stderr.lock().unwrap())
                    )
                });
            if let Some(rest) = line.strip_prefix("Metrics are served at ") {
                metrics = Some(rest.trim().to_owned());
            }
            if let Some(rest) = line.strip_prefix("Despatch is listening on ") {
                break rest.split(' ').next().unwrap().to_owned();
            }
        };
        Served {
            child,
            base,
            metrics,
            stderr,
            reader,
            http: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap(),
            _dir: dir,
        }
    }
}

impl Served {
    fn log(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }

    /// Waits until the log holds `text` (the access log writes a line once its answer is sent).
    async fn log_shows(&self, text: &str) -> String {
        for _ in 0..600 {
            let log = self.log();
            if log.contains(text) {
                return log;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("the log never showed {text:?}:\n{}", self.log());
    }

    /// Stops the server and returns all it logged.
    fn stop(mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        // The reader ends when the pipe closes: then it has read all there is.
        let log = self.stderr.clone();
        self.reader.join().unwrap();
        let text = String::from_utf8_lossy(&log.lock().unwrap()).into_owned();
        text
    }

    async fn get(&self, path: &str, bearer: Option<&str>) -> reqwest::Response {
        let mut req = self.http.get(format!("{}{path}", self.base));
        if let Some(t) = bearer {
            req = req.bearer_auth(t);
        }
        req.send().await.unwrap()
    }

    async fn post(&self, path: &str, bearer: Option<&str>, body: Value) -> (u16, Value) {
        let mut req = self.http.post(format!("{}{path}", self.base)).json(&body);
        if let Some(t) = bearer {
            req = req.bearer_auth(t);
        }
        let resp = req.send().await.unwrap();
        let status = resp.status().as_u16();
        (status, resp.json().await.unwrap_or(Value::Null))
    }

    /// An open-table game of Anna and Ben: its id and each seat's token.
    async fn game(&self) -> (String, Vec<String>) {
        let (status, body) = self
            .post(
                "/api/games",
                None,
                json!({ "ruleset": "open-table", "seats": [
                    { "name": "Anna", "email": "anna@example.org" },
                    { "name": "Ben", "email": "ben@example.org" },
                ] }),
            )
            .await;
        assert_eq!(status, 201, "{body}");
        let tokens = body["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["token"].as_str().unwrap().to_owned())
            .collect();
        (body["game_id"].as_str().unwrap().to_owned(), tokens)
    }

    async fn metrics_page(&self, url: &str) -> (u16, String, String) {
        let resp = self.http.get(url).send().await.unwrap();
        let status = resp.status().as_u16();
        let kind = resp
            .headers()
            .get("content-type")
            .map(|v| v.to_str().unwrap().to_owned())
            .unwrap_or_default();
        (status, kind, resp.text().await.unwrap())
    }
}

/// The value of one sample on a metrics page, if it is there.
fn sample(page: &str, series: &str) -> Option<f64> {
    page.lines().find_map(|l| {
        l.strip_prefix(series)?
            .strip_prefix(' ')?
            .trim()
            .parse()
            .ok()
    })
}

on_both_backends!(
    the_log_holds_no_token_signature_or_webhook_secret_and_no_colour,
    metrics_count_moves_by_ruleset_and_outcome_when_turned_on,
    metrics_are_off_by_default_and_can_have_an_address_of_their_own,
    the_outbox_gauges_say_how_long_the_oldest_due_row_has_waited,
);

async fn the_outbox_gauges_say_how_long_the_oldest_due_row_has_waited(ctx: TestApp) {
    let now = chrono::Utc::now();
    let empty = ctx.store.outbox_health(now).await.unwrap();
    assert_eq!(
        (empty.waiting, empty.due, empty.oldest_due_secs),
        (0, 0, 0.0)
    );
    // A row due from the moment it is written, looked at as if a minute had passed unsent.
    ctx.store
        .enqueue(&despatch::store::OutboxRecord {
            game_id: "g".into(),
            seq: 0,
            channel: "email".into(),
            seat: Some("anna".into()),
            payload: json!({}),
            delay: std::time::Duration::ZERO,
        })
        .await
        .unwrap();
    let later = ctx
        .store
        .outbox_health(chrono::Utc::now() + chrono::Duration::seconds(60))
        .await
        .unwrap();
    assert_eq!((later.waiting, later.due), (1, 1));
    assert!(later.oldest_due_secs >= 59.0, "{later:?}");
    // Before it fell due it waits, but is not due.
    let before = ctx
        .store
        .outbox_health(now - chrono::Duration::hours(1))
        .await
        .unwrap();
    assert_eq!(
        (before.waiting, before.due, before.oldest_due_secs),
        (1, 0, 0.0)
    );
}

async fn the_log_holds_no_token_signature_or_webhook_secret_and_no_colour(ctx: TestApp) {
    // The webhook below is on this machine: the operator's allowance lets it be added and
    // tried (and fail, as nothing listens there).
    let server = ctx.serve(&[("DESPATCH_WEBHOOK_ALLOW_HOSTS", "127.0.0.1")]);
    let (game, tokens) = server.game().await;
    let token = &tokens[0];
    // A magic link, an API call with the token as a bearer and as a query, an unsubscribe link.
    let link = server
        .get(&format!("/games/{game}?token={token}"), None)
        .await;
    assert_eq!(link.status().as_u16(), 303);
    let moves = server
        .get(&format!("/api/games/{game}/moves"), Some(token))
        .await;
    assert_eq!(moves.status().as_u16(), 200);
    let view = server
        .get(&format!("/api/games/{game}/view?token={token}"), None)
        .await;
    assert_eq!(view.status().as_u16(), 200);
    let sig = "c0ffee".repeat(10);
    server
        .get(
            &format!("/api/games/{game}/unsubscribe?seat=anna&channel=email&sig={sig}"),
            None,
        )
        .await;
    // A webhook whose URL holds a secret (as Discord's do), at an address that refuses it.
    let secret_path = "hooks/1234/SECRETPART-of-the-hook-url";
    let (status, hook) = server
        .post(
            &format!("/api/games/{game}/webhooks"),
            Some(token),
            json!({ "url": format!("http://127.0.0.1:9/{secret_path}"), "scope": "game" }),
        )
        .await;
    assert_eq!(status, 201, "{hook}");
    let hook_id = hook["hook_id"].as_str().unwrap().to_owned();
    let (status, moved) = server
        .post(
            &format!("/api/games/{game}/moves"),
            Some(token),
            json!({ "expected_seq": 1, "command": "roll 2d6" }),
        )
        .await;
    assert_eq!(status, 201, "{moved}");
    // A request refused at the boundary (a control character in its path) is logged like any
    // other, with its token redacted all the same.
    let refused = server
        .get(&format!("/games/{game}%00?token={token}"), None)
        .await;
    assert_eq!(refused.status().as_u16(), 400);
    server.log_shows("delivery failed").await;
    server.log_shows("/unsubscribe?").await;
    server.log_shows("%00?token=[redacted] HTTP/1.1 400").await;
    let log = server.stop();

    assert!(!log.contains(token.as_str()), "a token in the log:\n{log}");
    assert!(!log.contains(&sig), "a signature in the log:\n{log}");
    assert!(
        !log.contains("SECRETPART"),
        "a webhook's URL in the log:\n{log}"
    );
    assert!(
        log.contains(&format!("GET /games/{game}?token=[redacted] HTTP/1.1 303")),
        "{log}"
    );
    assert!(log.contains("/view?token=[redacted]"), "{log}");
    assert!(
        log.contains("unsubscribe?seat=anna&channel=email&sig=[redacted]"),
        "{log}"
    );
    // Each failed delivery is logged once, with its row and its error. The hook hears the move's
    // turn notice, and the game's first one too when the dispatcher composed that notice after
    // the hook was registered: how many deliveries there are depends on timing, not on the log.
    let failures: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("delivery failed") && l.contains(&hook_id))
        .collect();
    assert!(!failures.is_empty(), "no failed delivery logged:\n{log}");
    let mut rows: Vec<&str> = failures
        .iter()
        .map(|l| {
            assert!(l.contains("attempt=1"), "{l}");
            l.split_whitespace()
                .find(|w| w.starts_with("outbox="))
                .unwrap_or_else(|| panic!("no outbox row in {l}"))
        })
        .collect();
    rows.sort_unstable();
    rows.dedup();
    assert_eq!(
        rows.len(),
        failures.len(),
        "a delivery logged twice:\n{log}"
    );
    // Standard error is a pipe here: no colour codes.
    assert!(!log.contains('\u{1b}'), "escape codes in the log:\n{log:?}");
}

async fn metrics_count_moves_by_ruleset_and_outcome_when_turned_on(ctx: TestApp) {
    let server = ctx.serve(&[
        ("DESPATCH_METRICS", "on"),
        ("DESPATCH_INBOUND_SECRET", "inbound-s3cret"),
        ("DESPATCH_REPLY_DOMAIN", "play.example"),
    ]);
    let (game, tokens) = server.game().await;
    let moves = format!("/api/games/{game}/moves");
    let command = |seq: u64, text: &str| json!({ "expected_seq": seq, "command": text });
    let (status, _) = server
        .post(&moves, Some(&tokens[0]), command(1, "roll 2d6"))
        .await;
    assert_eq!(status, 201);
    // The same seq again: stale. Anna again, out of turn: refused by a rule.
    let (status, _) = server
        .post(&moves, Some(&tokens[1]), command(1, "roll 1d6"))
        .await;
    assert_eq!(status, 409);
    let (status, _) = server
        .post(&moves, Some(&tokens[0]), command(2, "roll 1d6"))
        .await;
    assert_eq!(status, 422);
    // A message to no game's reply address.
    let inbound = server
        .http
        .post(format!("{}/api/inbound/email", server.base))
        .bearer_auth("inbound-s3cret")
        .body("From: someone@example.net\r\nTo: nobody@example.net\r\nSubject: hello\r\nMessage-ID: <m1@example.net>\r\n\r\nhello\r\n")
        .send()
        .await
        .unwrap();
    assert_eq!(inbound.status().as_u16(), 200);

    let url = format!("{}/metrics", server.base);
    let (status, kind, page) = server.metrics_page(&url).await;
    assert_eq!(status, 200, "{page}");
    assert!(kind.starts_with("text/plain; version=0.0.4"), "{kind}");
    let moved = |outcome: &str| {
        sample(
            &page,
            &format!("despatch_moves_total{{outcome=\"{outcome}\",ruleset=\"open-table\"}}"),
        )
    };
    assert_eq!(moved("accepted"), Some(1.0), "{page}");
    assert_eq!(moved("stale"), Some(1.0), "{page}");
    assert_eq!(moved("rule"), Some(1.0), "{page}");
    assert_eq!(moved("rate_limited"), None, "{page}");
    assert_eq!(sample(&page, "despatch_append_seconds_count"), Some(1.0));
    assert!(page.contains("despatch_append_seconds_bucket{le=\"0.005\"}"));
    assert_eq!(
        sample(
            &page,
            "despatch_http_request_duration_seconds_count{method=\"POST\",route=\"/api/games/{game_id}/moves\",status=\"409\"}"
        ),
        Some(1.0),
        "{page}"
    );
    assert!(!page.contains(&game), "no game id is a label");
    assert_eq!(
        sample(&page, "despatch_mail_in_total{result=\"refused\"}"),
        Some(1.0),
        "{page}"
    );
    for gauge in [
        "despatch_outbox_depth",
        "despatch_outbox_due",
        "despatch_outbox_oldest_due_age_seconds",
    ] {
        let v = sample(&page, gauge).unwrap_or_else(|| panic!("no {gauge} in {page}"));
        assert!(v >= 0.0);
    }
    assert!(page.contains("# TYPE despatch_dispatcher_panics_total counter"));
    // The dispatcher running in the server expands the turn notice and writes its email.
    let mut sent = None;
    for _ in 0..600 {
        let (_, _, page) = server.metrics_page(&url).await;
        sent = sample(
            &page,
            "despatch_deliveries_total{channel=\"email\",result=\"sent\"}",
        );
        if sent.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(sent.unwrap_or(0.0) >= 1.0, "no email counted as sent");
    server.stop();
}

async fn metrics_are_off_by_default_and_can_have_an_address_of_their_own(ctx: TestApp) {
    let server = ctx.serve(&[]);
    assert!(server.metrics.is_none());
    let (status, _, _) = server
        .metrics_page(&format!("{}/metrics", server.base))
        .await;
    assert_eq!(status, 404);
    server.stop();

    let server = ctx.serve(&[("DESPATCH_METRICS_BIND", "127.0.0.1:0")]);
    let own = server
        .metrics
        .clone()
        .expect("the metrics address is printed");
    assert!(!own.starts_with(&server.base), "{own}");
    let (status, _, page) = server.metrics_page(&own).await;
    assert_eq!(status, 200);
    assert!(page.contains("despatch_outbox_depth"), "{page}");
    let (status, _, _) = server
        .metrics_page(&format!("{}/metrics", server.base))
        .await;
    assert_eq!(status, 404, "not on the API port as well");
    server.stop();
}

#[tokio::test]
async fn json_logs_are_one_object_per_line() {
    let ctx = spawn(common::Backend::Sqlite).await;
    let server = ctx.serve(&[("DESPATCH_LOG_FORMAT", "json")]);
    assert_eq!(server.get("/health", None).await.status().as_u16(), 200);
    server.log_shows("GET /health").await;
    let log = server.stop();
    let mut access = 0;
    for line in log.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert!(v["level"].is_string() && v["fields"].is_object(), "{line}");
        if v["fields"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("GET /health"))
        {
            access += 1;
        }
    }
    assert_eq!(access, 1, "{log}");
}

#[test]
fn a_metrics_setting_that_is_not_understood_stops_the_server_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_despatch"))
        .arg("serve")
        .current_dir(dir.path())
        .env(
            "DATABASE_URL",
            format!("sqlite:{}/d.db?mode=rwc", dir.path().display()),
        )
        .env("DESPATCH_BIND", "127.0.0.1:0")
        .env("DESPATCH_METRICS", "maybe")
        .env_remove("DESPATCH_METRICS_BIND")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("DESPATCH_METRICS=maybe is not understood: write on or off"),
        "{err}"
    );
    assert!(!dir.path().join("d.db").exists(), "nothing was created");
}
