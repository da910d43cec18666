//! Pages keep up with every move, whoever made it (issue 38): a page's live stream
//! (`GET /api/games/{id}/stream`, what the seat page's script listens to) hears a move made
//! by another process — a real `despatch mail-in` run as a mail server runs it — within a few
//! seconds, on PostgreSQL (the mail-in process's `NOTIFY`, sent before it exits) and on SQLite
//! (the server noticing another connection's commit while a page is open).

use crate::common;

use std::time::Duration;

use common::TestApp;
use futures_util::StreamExt;
use serde_json::{json, Value};

/// How long a move made elsewhere may take to reach the stream: generous, since the test
/// measures nothing but that it arrives (the server checks every half second on SQLite).
const DEADLINE: Duration = Duration::from_secs(20);

async fn spawn(backend: common::Backend) -> TestApp {
    // The server signs with the secret the mail-in process is given, as one deployment would.
    common::spawn_app(backend)
        .link_secret(Some(common::TEST_SECRET))
        .spawn()
        .await
}

on_both_backends!(
    a_move_by_mail_in_reaches_the_open_page_s_stream,
    a_page_opened_after_a_move_elsewhere_starts_from_it_and_hears_the_next,
);

/// An open-table game between Anna and Ben, both with addresses: its id.
async fn game(app: &TestApp) -> despatch::games::GameId {
    let resp: Value = app
        .http
        .post(app.url("/api/games"))
        .json(&json!({ "ruleset": "open-table", "seats": [
            { "name": "Anna", "email": "anna@example.org" },
            { "name": "Ben", "email": "ben@example.org" }] }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    despatch::games::GameId::parse(resp["game_id"].as_str().expect("a game")).unwrap()
}

/// A page's live stream of `game_id`, and the `next_seq` of its first event.
struct Page {
    stream: std::pin::Pin<
        Box<dyn futures_util::Stream<Item = reqwest::Result<actix_web::web::Bytes>> + Send>,
    >,
    buffer: String,
}

impl Page {
    async fn open(app: &TestApp, game_id: &str) -> (Page, u64) {
        let resp = app
            .http
            .get(app.url(&format!("/api/games/{game_id}/stream")))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status().as_u16(), 200);
        let mut page = Page {
            stream: Box::pin(resp.bytes_stream()),
            buffer: String::new(),
        };
        let first = page.next_seq_within(DEADLINE).await;
        (page, first.expect("the stream's first event, at once"))
    }

    /// The `next_seq` of the next `event: game` within `limit`, or `None`.
    async fn next_seq_within(&mut self, limit: Duration) -> Option<u64> {
        let until = tokio::time::Instant::now() + limit;
        loop {
            while let Some(end) = self.buffer.find("\n\n") {
                let frame: String = self.buffer.drain(..end + 2).collect();
                if frame.lines().any(|l| l == "event: game") {
                    let data = frame
                        .lines()
                        .find_map(|l| l.strip_prefix("data: "))
                        .expect("a game event has data");
                    let tick: Value = serde_json::from_str(data).unwrap();
                    return tick["next_seq"].as_u64();
                }
            }
            let chunk = tokio::time::timeout_at(until, self.stream.next())
                .await
                .ok()?
                .expect("the stream stays open")
                .unwrap();
            self.buffer.push_str(&String::from_utf8_lossy(&chunk));
        }
    }
}

/// A reply with `body` from the player of seat `seat` (0: Anna, 1: Ben).
fn reply(game_id: &str, seat: usize, id: &str, body: &str) -> Vec<u8> {
    let from = ["Anna <anna@example.org>", "Ben <ben@example.org>"][seat];
    common::mail_in::reply(game_id, seat, from, id, body)
}

/// `despatch mail-in`, a process of its own, with `message`.
fn mail_in(app: &TestApp, message: &[u8]) -> String {
    tokio::task::block_in_place(|| common::mail_in::mail_in(app, message))
}

async fn a_move_by_mail_in_reaches_the_open_page_s_stream(app: TestApp) {
    let game_id = game(&app).await;
    let (mut page, first) = Page::open(&app, &game_id).await;
    assert_eq!(first, 1, "a new game's stream starts at its next seq");
    let out = mail_in(&app, &reply(&game_id, 0, "live-1@example.org", "roll 2d6"));
    assert!(out.starts_with("answered anna@example.org"), "{out}");
    let moved_to = app.games.next_seq(&game_id).await.unwrap().unwrap();
    assert!(moved_to > first, "the reply was played: {out}");
    assert_eq!(
        page.next_seq_within(DEADLINE).await,
        Some(moved_to),
        "the open page hears of the move made by another process"
    );

    // And Ben's answer, once more, while the page stays open.
    let out = mail_in(
        &app,
        &reply(&game_id, 1, "live-2@example.org", "roll 1d6 to rally"),
    );
    assert!(out.starts_with("answered"), "{out}");
    let then = app.games.next_seq(&game_id).await.unwrap().unwrap();
    assert!(then > moved_to, "the second reply was played: {out}");
    assert_eq!(page.next_seq_within(DEADLINE).await, Some(then));
}

/// A page that opens after another process moved starts from that move, and still hears the
/// next one made elsewhere: what the server watches follows the pages that are open.
async fn a_page_opened_after_a_move_elsewhere_starts_from_it_and_hears_the_next(app: TestApp) {
    let game_id = game(&app).await;
    // A page of another game comes and goes first: the watch ends with its stream.
    let other = game(&app).await;
    let (page, _) = Page::open(&app, &other).await;
    drop(page);
    mail_in(&app, &reply(&game_id, 0, "before@example.org", "roll 2d6"));
    let now = app.games.next_seq(&game_id).await.unwrap().unwrap();
    let (mut page, first) = Page::open(&app, &game_id).await;
    assert_eq!(first, now, "the stream starts where the game is");
    mail_in(&app, &reply(&game_id, 1, "after@example.org", "roll 1d6"));
    let then = app.games.next_seq(&game_id).await.unwrap().unwrap();
    assert!(then > now);
    assert_eq!(page.next_seq_within(DEADLINE).await, Some(then));
}
