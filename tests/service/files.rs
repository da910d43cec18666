//! Files with a move (docs/files.md), over real HTTP on both backends: uploaded with an order
//! (the API's multipart move, the seat page's form without JavaScript), listed in the log and
//! the page, downloaded byte for byte by the game's seats only; over-limit files and bad names
//! refused with nothing kept or appended.

use crate::common;

use common::TestApp;
use despatch::engine::canonical::sha256_hex;
use despatch::engine::verify::verify;
use despatch::games::files::{FileStore, Limits};
use despatch::rules;
use reqwest::multipart::{Form, Part};
use serde_json::{json, Value};

async fn spawn(backend: common::Backend) -> TestApp {
    common::spawn_app(backend)
        .move_rate(None)
        .no_redirects()
        .spawn()
        .await
}

struct Table {
    game_id: String,
    tokens: Vec<String>,
    links: Vec<String>,
}

const VLOG: &[u8] = b"VASSAL log: turn 3, the 1st Corps crosses the Sambre\x00\x01\x02";
const PNG: &[u8] = b"\x89PNG\r\n\x1a\nnot really an image";

async fn open_table(app: &TestApp) -> Table {
    let resp = app
        .http
        .post(app.url("/api/games"))
        .json(&json!({ "ruleset": "open-table", "seats": [
            { "name": "Ann", "email": "ann@example.org" },
            { "name": "Ben", "email": "ben@example.org" } ] }))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 201);
    let body: Value = resp.json().await.unwrap();
    let seats = body["seats"].as_array().unwrap();
    Table {
        game_id: body["game_id"].as_str().unwrap().to_owned(),
        tokens: seats
            .iter()
            .map(|s| s["token"].as_str().unwrap().to_owned())
            .collect(),
        links: seats
            .iter()
            .map(|s| s["link"].as_str().unwrap().to_owned())
            .collect(),
    }
}

async fn next_seq(app: &TestApp, t: &Table) -> u64 {
    let body: Value = app
        .http
        .get(app.url(&format!("/api/games/{}", t.game_id)))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    body["next_seq"].as_u64().unwrap()
}

/// The bytes of the file `sha` of `t`'s game, downloaded over the API with seat `seat`'s token:
/// it must be served (`200`).
async fn downloaded(app: &TestApp, t: &Table, seat: usize, sha: &str) -> Vec<u8> {
    let resp = app
        .http
        .get(app.url(&format!("/api/games/{}/files/{sha}", t.game_id)))
        .bearer_auth(&t.tokens[seat])
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    resp.bytes().await.unwrap().to_vec()
}

async fn event_count(app: &TestApp, t: &Table) -> usize {
    app.store.events(&t.game_id, 0, None).await.unwrap().len()
}

/// A move with `files` ((name, declared type, bytes)) through the API's multipart body.
async fn move_with_files(
    app: &TestApp,
    t: &Table,
    seat: usize,
    order: &str,
    files: &[(&str, Option<&str>, &[u8])],
) -> (u16, Value) {
    let seq = next_seq(app, t).await;
    move_at(app, t, seat, seq, order, files).await
}

async fn move_at(
    app: &TestApp,
    t: &Table,
    seat: usize,
    seq: u64,
    order: &str,
    files: &[(&str, Option<&str>, &[u8])],
) -> (u16, Value) {
    let mut form = Form::new().text(
        "order",
        json!({ "expected_seq": seq, "command": order }).to_string(),
    );
    for (name, media_type, bytes) in files {
        let mut part = Part::bytes(bytes.to_vec()).file_name(name.to_string());
        if let Some(t) = media_type {
            part = part.mime_str(t).unwrap();
        }
        form = form.part("file", part);
    }
    let resp = app
        .http
        .post(app.url(&format!("/api/games/{}/moves", t.game_id)))
        .bearer_auth(&t.tokens[seat])
        .multipart(form)
        .send()
        .await
        .unwrap();
    let status = resp.status().as_u16();
    (status, resp.json().await.unwrap_or(Value::Null))
}

on_both_backends!(
    a_move_s_files_are_uploaded_listed_and_downloaded_byte_for_byte,
    only_the_game_s_own_seats_may_download_its_files,
    a_file_name_that_is_no_name_is_refused_and_nothing_is_kept,
    a_move_refused_as_stale_keeps_none_of_its_files,
    the_seat_page_sends_an_order_with_files_and_lists_them_without_javascript,
);

async fn a_move_s_files_are_uploaded_listed_and_downloaded_byte_for_byte(app: TestApp) {
    let t = open_table(&app).await;
    let (status, body) = move_with_files(
        &app,
        &t,
        0,
        "Turn 3 played in VASSAL; roll 2d6 for the bridge",
        &[
            (
                "C:\\pbem\\turn 3.vlog",
                Some("application/octet-stream"),
                VLOG,
            ),
            ("map.png", None, PNG),
        ],
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let event = &body["events"][0];
    assert_eq!(
        event["payload"]["files"],
        json!([
            { "name": "turn 3.vlog", "size": VLOG.len(), "media_type": "application/octet-stream", "sha256": sha256_hex(VLOG) },
            { "name": "map.png", "size": PNG.len(), "media_type": "image/png", "sha256": sha256_hex(PNG) },
        ]),
        "the event lists each file's base name, size, type and SHA-256"
    );
    let seq = event["seq"].as_u64().unwrap();

    // The API lists them with their move's seq and a link.
    let listed: Value = app
        .http
        .get(app.url(&format!("/api/games/{}/files", t.game_id)))
        .bearer_auth(&t.tokens[1])
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 2, "{listed}");
    assert_eq!(listed[0]["seq"], seq);
    assert_eq!(listed[0]["name"], "turn 3.vlog");

    // The other seat downloads each, byte for byte, as an attachment of its type.
    for (entry, bytes) in listed.as_array().unwrap().iter().zip([VLOG, PNG]) {
        let resp = app
            .http
            .get(app.url(entry["url"].as_str().unwrap()))
            .bearer_auth(&t.tokens[1])
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status().as_u16(), 200);
        let headers = resp.headers().clone();
        assert_eq!(
            headers["content-type"],
            entry["media_type"].as_str().unwrap()
        );
        let disposition = headers["content-disposition"].to_str().unwrap().to_owned();
        assert!(
            disposition.starts_with("attachment")
                && disposition.contains(entry["name"].as_str().unwrap()),
            "{disposition}"
        );
        assert_eq!(headers["x-content-type-options"], "nosniff");
        assert_eq!(resp.bytes().await.unwrap().as_ref(), bytes);
    }

    // The export lists them under the hash chain, and verifies.
    let export = app
        .http
        .get(app.url(&format!("/api/games/{}/export", t.game_id)))
        .bearer_auth(&t.tokens[0])
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let report = verify(&export, &rules::find);
    assert!(report.ok(), "{}", report.render());
    assert_eq!(report.files_listed, 2, "{}", report.render());
}

async fn only_the_game_s_own_seats_may_download_its_files(app: TestApp) {
    let t = open_table(&app).await;
    let other = open_table(&app).await;
    let (status, body) =
        move_with_files(&app, &t, 0, "see the log", &[("turn.vlog", None, VLOG)]).await;
    assert_eq!(status, 201, "{body}");
    let (status, _) = move_with_files(&app, &other, 0, "mine", &[("mine.png", None, PNG)]).await;
    assert_eq!(status, 201);
    let url = format!("/api/games/{}/files/{}", t.game_id, sha256_hex(VLOG));
    let get = |token: Option<String>, url: String| {
        let app = &app;
        async move {
            let mut req = app.http.get(app.url(&url));
            if let Some(token) = token {
                req = req.bearer_auth(token);
            }
            let resp = req.send().await.unwrap();
            (resp.status().as_u16(), resp.text().await.unwrap())
        }
    };
    assert_eq!(get(Some(t.tokens[1].clone()), url.clone()).await.0, 200);
    let (status, body) = get(Some(other.tokens[0].clone()), url.clone()).await;
    assert_eq!(status, 403, "another game's seat is refused: {body}");
    assert!(!body.contains("VASSAL log"), "{body}");
    assert_eq!(get(None, url.clone()).await.0, 401, "no token, no file");
    // A file kept for another game is not this game's to serve, though the store holds it.
    let (status, body) = get(
        Some(t.tokens[0].clone()),
        format!("/api/games/{}/files/{}", t.game_id, sha256_hex(PNG)),
    )
    .await;
    assert_eq!(status, 404, "{body}");
    assert!(body.contains("lists no file"), "{body}");
    // The page's link too: a stranger without the seat's cookie gets no bytes.
    let page_url = format!("/games/{}/files/{}/turn.vlog", t.game_id, sha256_hex(VLOG));
    let (status, body) = get(None, page_url.clone()).await;
    assert!(status == 401 || status == 403, "{status}: {body}");
    assert!(!body.contains("VASSAL log"));
    let (status, _) = get(Some(other.tokens[1].clone()), page_url).await;
    assert_eq!(status, 403);
}

async fn a_file_name_that_is_no_name_is_refused_and_nothing_is_kept(app: TestApp) {
    let t = open_table(&app).await;
    let before = event_count(&app, &t).await;
    for bad in ["..", "games/..", "turn\u{7}3.vlog"] {
        let bytes = format!("bytes of {bad}").into_bytes();
        let (status, body) =
            move_with_files(&app, &t, 0, "a move", &[(bad, None, &bytes[..])]).await;
        assert_eq!(status, 400, "{bad:?}: {body}");
        assert!(
            // Named by our check, or by the multipart reader for a name it cannot take.
            body["message"].as_str().unwrap().contains("name"),
            "{body}"
        );
        assert_eq!(
            app.games.files().get(&sha256_hex(&bytes)).await.unwrap(),
            None
        );
    }
    assert_eq!(event_count(&app, &t).await, before);
}

async fn a_move_refused_as_stale_keeps_none_of_its_files(app: TestApp) {
    let t = open_table(&app).await;
    let seq = next_seq(&app, &t).await;
    let (status, _) = move_at(&app, &t, 0, seq, "first", &[]).await;
    assert_eq!(status, 201);
    let (status, body) = move_at(&app, &t, 1, seq, "late", &[("late.vlog", None, VLOG)]).await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(
        app.games.files().get(&sha256_hex(VLOG)).await.unwrap(),
        None
    );
}

/// The `name="…" value="…"` of a hidden field in a page.
fn hidden(body: &str, name: &str) -> String {
    let at = body
        .find(&format!("name=\"{name}\""))
        .unwrap_or_else(|| panic!("no {name}"));
    let rest = &body[at..];
    let rest = &rest[rest.find("value=\"").unwrap() + 7..];
    rest[..rest.find('"').unwrap()].to_owned()
}

async fn the_seat_page_sends_an_order_with_files_and_lists_them_without_javascript(app: TestApp) {
    let t = open_table(&app).await;
    // The seat link sets the seat cookie, as a browser's first visit does.
    let first = app.http.get(&t.links[0]).send().await.unwrap();
    assert_eq!(first.status().as_u16(), 303);
    let cookie = first
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("despatch_seat="))
        .map(|v| v.split(';').next().unwrap().to_owned())
        .expect("the seat cookie");
    let action = format!("/games/{}/moves", t.game_id);
    let (token, cookie) = app.form_token(&action, &[], Some(&cookie)).await;
    let cookie = cookie.unwrap();
    let page = app
        .http
        .get(app.url(&format!("/games/{}", t.game_id)))
        .header("Cookie", &cookie)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        page.contains("enctype=\"multipart/form-data\""),
        "the order form sends files"
    );
    assert!(
        page.contains("type=\"file\""),
        "the order form has a file input"
    );
    let form = Form::new()
        .text("csrf", token.expect("the form's token"))
        .text("expected_seq", hidden(&page, "expected_seq"))
        .text("client_entropy", hidden(&page, "client_entropy"))
        .text("idempotency_key", hidden(&page, "idempotency_key"))
        .text("order", "My turn is in the log attached")
        .part("file", Part::bytes(VLOG.to_vec()).file_name("turn 4.vlog"));
    let sent = app
        .http
        .post(app.url(&action))
        .header("Cookie", &cookie)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(
        sent.status().as_u16(),
        303,
        "{}",
        sent.text().await.unwrap()
    );
    let events = app.store.events(&t.game_id, 0, None).await.unwrap();
    let last = events.last().unwrap();
    assert_eq!(last.payload["files"][0]["name"], "turn 4.vlog");
    // Both seats' pages list the file with its link; the link serves it to the seat's cookie.
    let page = app
        .http
        .get(app.url(&format!("/games/{}", t.game_id)))
        .header("Cookie", &cookie)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let link = format!(
        "/games/{}/files/{}/turn%204.vlog",
        t.game_id,
        sha256_hex(VLOG)
    );
    assert!(page.contains(&link), "the log lists the file with its link");
    let resp = app
        .http
        .get(app.url(&link))
        .header("Cookie", &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    assert!(resp.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .starts_with("attachment"));
    assert_eq!(resp.bytes().await.unwrap().as_ref(), VLOG);
}

/// Limits of 1,000 bytes a file and 1,500 a move.
mod small {
    use super::*;

    async fn spawn(backend: common::Backend) -> TestApp {
        common::spawn_app(backend)
            .move_rate(None)
            .files(FileStore::in_memory().with_limits(Limits {
                per_file: 1000,
                per_move: 1500,
            }))
            .spawn()
            .await
    }

    on_both_backends!(a_file_over_the_limit_is_refused_with_413_and_nothing_is_kept_or_appended);

    async fn a_file_over_the_limit_is_refused_with_413_and_nothing_is_kept_or_appended(
        app: TestApp,
    ) {
        let t = open_table(&app).await;
        let before = event_count(&app, &t).await;
        let big = vec![7u8; 1001];
        let (status, body) =
            move_with_files(&app, &t, 0, "too big", &[("big.vsav", None, &big[..])]).await;
        assert_eq!(status, 413, "{body}");
        assert_eq!(body["error"], "too_large");
        let message = body["message"].as_str().unwrap();
        assert!(
            message.contains("big.vsav") && message.contains("1000 bytes per file"),
            "{message}"
        );
        assert!(message.contains("nothing was recorded"), "{message}");
        // Two files each within the limit, over the move's.
        let half = vec![8u8; 800];
        let (status, body) = move_with_files(
            &app,
            &t,
            0,
            "too much",
            &[("a.vsav", None, &half[..]), ("b.vsav", None, &half[..799])],
        )
        .await;
        assert_eq!(status, 413, "{body}");
        assert!(
            body["message"].as_str().unwrap().contains("per move"),
            "{body}"
        );
        assert_eq!(event_count(&app, &t).await, before, "nothing was appended");
        for bytes in [&big[..], &half[..], &half[..799]] {
            assert_eq!(
                app.games.files().get(&sha256_hex(bytes)).await.unwrap(),
                None
            );
        }
    }
}

/// `despatch export --files DIR` writes each file the game lists, named by its SHA-256, and
/// `despatch verify --files DIR` checks each against the log: a file changed on disk, or
/// missing, fails naming the seq and the file.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn export_files_and_verify_files_catch_a_changed_or_missing_file() {
    use despatch::config::FileSettings;
    use std::process::Command;

    let dir = tempfile::tempdir().unwrap();
    let kept = dir.path().join("kept");
    let settings = FileSettings {
        url: format!("file://{}", kept.display()),
        s3_endpoint: None,
        per_file: 1 << 20,
        per_move: 1 << 20,
        attach_up_to: 1 << 20,
    };
    let (store, db) = common::fresh_sqlite().await;
    let app = common::app_on(store, db)
        .move_rate(None)
        .files(FileStore::open(&settings).unwrap())
        .spawn()
        .await;
    let t = open_table(&app).await;
    let (status, body) =
        move_with_files(&app, &t, 0, "turn 1", &[("turn 1.vlog", None, VLOG)]).await;
    assert_eq!(status, 201, "{body}");
    let seq = body["events"][0]["seq"].as_u64().unwrap();
    let despatch = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_despatch"))
            .args(args)
            .current_dir(dir.path())
            .env("DATABASE_URL", app.db.url())
            .env("DESPATCH_FILES_URL", &settings.url)
            .env("DESPATCH_SECRET_KEY", common::TEST_SECRET)
            .env("RUST_LOG", "warn")
            .output()
            .expect("the binary runs");
        (
            out.status.code(),
            format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ),
        )
    };
    let (code, out) = despatch(&[
        "export",
        &t.game_id,
        "--out",
        "game.jsonl",
        "--files",
        "out",
    ]);
    assert_eq!(code, Some(0), "{out}");
    let written = dir.path().join("out").join(sha256_hex(VLOG));
    assert_eq!(std::fs::read(&written).unwrap(), VLOG);

    let (code, out) = despatch(&["verify", "game.jsonl", "--files", "out"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("file bytes: 1 file given match"), "{out}");

    let mut changed = VLOG.to_vec();
    changed[0] ^= 1;
    std::fs::write(&written, &changed).unwrap();
    let (code, out) = despatch(&["verify", "game.jsonl", "--files", "out"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains(&format!(
            "FAILED at seq {seq}: file turn 1.vlog does not match"
        )),
        "{out}"
    );

    std::fs::remove_file(&written).unwrap();
    let (code, out) = despatch(&["verify", "game.jsonl", "--files", "out"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains(&format!("FAILED at seq {seq}: file turn 1.vlog")) && out.contains("missing"),
        "{out}"
    );
}

/// The files kept in S3 — moto's S3-compatible server, which scripts/test installs from PyPI and
/// starts (`DESPATCH_TEST_S3_ENDPOINT`) — are stored there under their hash and served back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_s_file_is_kept_in_s3_and_served_from_it() {
    use despatch::config::FileSettings;

    let Ok(endpoint) = std::env::var("DESPATCH_TEST_S3_ENDPOINT") else {
        eprintln!(
            "SKIPPED a_move_s_file_is_kept_in_s3_and_served_from_it: DESPATCH_TEST_S3_ENDPOINT is not set (scripts/test starts moto's S3 server and sets it)"
        );
        return;
    };
    despatch::notify::webhook::install_crypto();
    // moto takes any credentials; object_store reads them from the environment.
    std::env::set_var("AWS_ACCESS_KEY_ID", "despatch-test");
    std::env::set_var("AWS_SECRET_ACCESS_KEY", "despatch-test");
    std::env::set_var("AWS_DEFAULT_REGION", "us-east-1");
    let bucket = format!(
        "despatch-{}",
        &sha256_hex(format!("{:?}", std::time::SystemTime::now()).as_bytes())[..16]
    );
    let made = reqwest::Client::new()
        .put(format!("{endpoint}/{bucket}"))
        .send()
        .await
        .unwrap();
    assert!(made.status().is_success(), "the bucket: {}", made.status());
    let settings = FileSettings {
        url: format!("s3://{bucket}/games"),
        s3_endpoint: Some(endpoint.clone()),
        per_file: 1 << 20,
        per_move: 1 << 20,
        attach_up_to: 1 << 20,
    };
    let app = common::spawn_app(common::Backend::Sqlite)
        .move_rate(None)
        .files(FileStore::open(&settings).unwrap())
        .spawn()
        .await;
    let t = open_table(&app).await;
    let (status, body) = move_with_files(&app, &t, 0, "by S3", &[("turn.vsav", None, VLOG)]).await;
    assert_eq!(status, 201, "{body}");
    let sha = sha256_hex(VLOG);
    // In the bucket: another client of it (a second process, say) reads the bytes back.
    let other = FileStore::open(&settings).unwrap();
    assert_eq!(other.get(&sha).await.unwrap().as_deref(), Some(VLOG));
    // And served from it to a seat.
    assert_eq!(downloaded(&app, &t, 1, &sha).await, VLOG);
}

/// A reply whose attachment is the move's file, through a real `despatch mail-in` process on the
/// same database and file folder as the server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_s_attachment_becomes_the_move_s_file_through_mail_in() {
    use despatch::config::FileSettings;
    use despatch::games::links::address::reply_address;
    use despatch::games::links::key_from_secret;

    let dir = tempfile::tempdir().unwrap();
    let settings = FileSettings {
        url: format!("file://{}", dir.path().join("kept").display()),
        s3_endpoint: None,
        per_file: 1 << 20,
        per_move: 1 << 20,
        attach_up_to: 1 << 20,
    };
    let app = common::spawn_app(common::Backend::Sqlite)
        .move_rate(None)
        .files(FileStore::open(&settings).unwrap())
        .spawn()
        .await;
    let t = open_table(&app).await;
    let log = b"VASSAL log, turn 2: the Guard attacks at dusk";
    let to = reply_address(
        &key_from_secret(common::TEST_SECRET),
        common::mail_in::DOMAIN,
        &t.game_id,
        0,
    );
    let message = format!(
        "From: Ann <ann@example.org>\r\nTo: {to}\r\nSubject: Re: Your turn\r\n\
         Message-ID: <files-1@example.org>\r\nDate: Sun, 29 Nov 2026 10:00:00 +0000\r\n\
         MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b1\"\r\n\r\n\
         --b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nTurn 2 is in the log attached\r\n\
         --b1\r\nContent-Type: application/octet-stream; name=\"turn 2.vlog\"\r\n\
         Content-Disposition: attachment; filename=\"turn 2.vlog\"\r\n\r\n{}\r\n--b1--\r\n",
        String::from_utf8_lossy(log)
    );
    let url = settings.url.clone();
    let out = tokio::task::block_in_place(|| {
        common::mail_in::mail_in_with(
            &app,
            message.as_bytes(),
            &[("DESPATCH_FILES_URL", url.as_str())],
        )
    });
    assert!(out.starts_with("answered"), "{out}");
    let events = app.store.events(&t.game_id, 0, None).await.unwrap();
    let moved = events
        .iter()
        .rev()
        .find(|e| e.kind == "Command")
        .expect("the move");
    assert_eq!(
        moved.payload["command"]["text"],
        "Turn 2 is in the log attached"
    );
    assert_eq!(moved.payload["files"][0]["name"], "turn 2.vlog");
    assert_eq!(moved.payload["files"][0]["sha256"], sha256_hex(log));
    // Kept where the server reads it: a seat downloads it.
    assert_eq!(downloaded(&app, &t, 1, &sha256_hex(log)).await, log);
}

/// The next player's notice carries the move's files as attachments, read back from the real
/// SMTP server; over `DESPATCH_ATTACH_MAX_BYTES` it links to them instead.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_next_player_s_notice_attaches_the_files_or_links_to_large_ones() {
    use common::notify::wait_for_mail;
    use mail_parser::MimeHeaders;

    for (attach_up_to, attached) in [(1u64 << 20, true), (10, false)] {
        let app = common::spawn_app(common::Backend::Sqlite)
            .move_rate(None)
            .files(FileStore::in_memory().with_attach_up_to(attach_up_to))
            .spawn()
            .await;
        let tag =
            &sha256_hex(format!("{:?}{attach_up_to}", std::time::SystemTime::now()).as_bytes())
                [..12];
        let resp = app
            .http
            .post(app.url("/api/games"))
            .json(&json!({ "ruleset": "open-table", "seats": [
                { "name": "Anna", "email": format!("anna-{tag}@example.org") },
                { "name": "Bert", "email": format!("bert-{tag}@example.org") } ] }))
            .send()
            .await
            .unwrap();
        let body: Value = resp.json().await.unwrap();
        let t = Table {
            game_id: body["game_id"].as_str().unwrap().to_owned(),
            tokens: body["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["token"].as_str().unwrap().to_owned())
                .collect(),
            links: Vec::new(),
        };
        let d = app.smtp_dispatcher();
        d.drain().await.unwrap();
        let before = wait_for_mail(&format!("bert-{tag}"), 1).await.len();
        let (status, body) = move_with_files(
            &app,
            &t,
            0,
            "Turn 1 attached",
            &[("turn 1.vlog", None, VLOG)],
        )
        .await;
        assert_eq!(status, 201, "{body}");
        d.drain().await.unwrap();
        let mails = wait_for_mail(&format!("bert-{tag}"), before + 1).await;
        let notice = mails
            .iter()
            .find(|m| m.text.contains("Files with these moves"))
            .unwrap_or_else(|| panic!("no notice tells Bert of the file: {mails:?}"));
        let parsed = mail_parser::MessageParser::default()
            .parse(notice.raw.as_bytes())
            .unwrap();
        let files: Vec<(String, Vec<u8>)> = parsed
            .attachments()
            .map(|a| {
                (
                    a.attachment_name().unwrap_or_default().to_owned(),
                    a.contents().to_vec(),
                )
            })
            .collect();
        if attached {
            assert_eq!(files, vec![("turn 1.vlog".to_owned(), VLOG.to_vec())]);
            assert!(notice.text.contains("turn 1.vlog") && notice.text.contains("attached"));
        } else {
            assert!(files.is_empty(), "a large file is linked, not attached");
            let link = format!(
                "/games/{}/files/{}/turn%201.vlog?token=",
                t.game_id,
                sha256_hex(VLOG)
            );
            assert!(notice.text.contains(&link), "{}", notice.text);
        }
    }
}
