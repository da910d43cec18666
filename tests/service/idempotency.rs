//! Idempotency keys over real HTTP, as Stripe's behave (`src/games/keys.rs`): the same key with
//! a different move is refused with `422 idempotency_mismatch` and records nothing; duplicates
//! sent at once record one move, and every other answer is the saved `201` or
//! `409 in_progress`, never `stale_seq`; a key older than 24 hours is a new key. Every test runs
//! on PostgreSQL and on SQLite, with the service on an injected clock.

use crate::common;

use std::sync::Arc;

use chrono::{Duration, Utc};
use common::TestApp;
use despatch::games::clock::ManualClock;
use serde_json::{json, Value};

async fn spawn(backend: common::Backend) -> TestApp {
    common::spawn_app(backend)
        .clock(ManualClock::new(Utc::now()))
        .spawn()
        .await
}

/// A two-seat open table: its id and the first seat's token.
struct Table {
    game_id: String,
    token: String,
}

/// What this file's tests ask of the app (a trait, so that each test module keeps its own
/// helpers in the one service test binary).
trait IdempotentCalls {
    async fn post(&self, path: &str, token: Option<&str>, body: &Value) -> (u16, Value);
    async fn table(&self) -> Table;
    async fn play(&self, t: &Table, body: &Value) -> (u16, Value);
    async fn events(&self, t: &Table) -> Vec<despatch::engine::event::Event>;
}

impl IdempotentCalls for TestApp {
    async fn post(&self, path: &str, token: Option<&str>, body: &Value) -> (u16, Value) {
        let mut req = self.http.post(format!("{}{path}", self.base)).json(body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let resp = req.send().await.unwrap();
        let status = resp.status().as_u16();
        (status, resp.json().await.unwrap_or(Value::Null))
    }

    async fn table(&self) -> Table {
        let (status, body) = self
            .post(
                "/api/games",
                None,
                &json!({ "ruleset": "open-table", "options": { "order": "free" }, "seats": [{ "name": "Anna" }, { "name": "Ben" }] }),
            )
            .await;
        assert_eq!(status, 201, "{body}");
        Table {
            game_id: body["game_id"].as_str().unwrap().to_owned(),
            token: body["seats"][0]["token"].as_str().unwrap().to_owned(),
        }
    }

    async fn play(&self, t: &Table, body: &Value) -> (u16, Value) {
        self.post(
            &format!("/api/games/{}/moves", t.game_id),
            Some(&t.token),
            body,
        )
        .await
    }

    async fn events(&self, t: &Table) -> Vec<despatch::engine::event::Event> {
        self.store.events(&t.game_id, 0, None).await.unwrap()
    }
}

on_both_backends!(
    the_same_key_with_a_different_move_gets_422_idempotency_mismatch_and_records_nothing,
    duplicates_sent_at_once_record_one_move_and_are_answered_201_or_409_in_progress_never_stale,
    a_key_older_than_24_hours_is_a_new_key,
);

async fn the_same_key_with_a_different_move_gets_422_idempotency_mismatch_and_records_nothing(
    app: TestApp,
) {
    let t = app.table().await;
    let first = json!({ "expected_seq": 1, "command": "roll 2d6", "client_entropy": "e1", "idempotency_key": "k-1" });
    let (status, body) = app.play(&t, &first).await;
    assert_eq!(status, 201, "{body}");
    let after_first = app.events(&t).await;
    assert_eq!(after_first.len(), 2);

    // The same key with another command, another seq, another entropy: each is refused.
    for other in [
        json!({ "expected_seq": 2, "command": "roll 3d6", "client_entropy": "e1", "idempotency_key": "k-1" }),
        json!({ "expected_seq": 1, "command": "roll 3d6", "client_entropy": "e1", "idempotency_key": "k-1" }),
        json!({ "expected_seq": 1, "command": "roll 2d6", "client_entropy": "e2", "idempotency_key": "k-1" }),
        json!({ "expected_seq": 2, "command": "roll 2d6", "client_entropy": "e1", "idempotency_key": "k-1" }),
    ] {
        let (status, body) = app.play(&t, &other).await;
        assert_eq!(status, 422, "{other}: {body}");
        assert_eq!(body["error"], "idempotency_mismatch", "{body}");
        assert!(
            body["message"]
                .as_str()
                .unwrap()
                .contains("idempotency_key 'k-1'"),
            "{body}"
        );
    }
    assert_eq!(app.events(&t).await, after_first, "nothing was recorded");

    // The same request again is the saved answer; a new key is a new move.
    let (status, again) = app.play(&t, &first).await;
    assert_eq!(status, 201, "{again}");
    assert_eq!(again["replayed"], true);
    assert_eq!(again["events"], body_events(&app, &t, 1).await);
    let (status, body) = app
        .play(
            &t,
            &json!({ "expected_seq": 2, "command": "roll 3d6", "idempotency_key": "k-2" }),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(app.events(&t).await.len(), 3);
}

/// The events from `seq` on, as JSON.
async fn body_events(app: &TestApp, t: &Table, seq: u64) -> Value {
    let events = app
        .store
        .events(&t.game_id, seq, Some(seq + 1))
        .await
        .unwrap();
    serde_json::to_value(events).unwrap()
}

async fn duplicates_sent_at_once_record_one_move_and_are_answered_201_or_409_in_progress_never_stale(
    app: TestApp,
) {
    const COPIES: usize = 12;
    let app = Arc::new(app);
    for round in 0..4u64 {
        let t = Arc::new(app.table().await);
        let body = json!({ "expected_seq": 1, "command": format!("roll 2d6 round {round}"), "client_entropy": "e", "idempotency_key": format!("dup-{round}") });
        let barrier = Arc::new(tokio::sync::Barrier::new(COPIES));
        let sends: Vec<_> = (0..COPIES)
            .map(|_| {
                let (app, t, body, barrier) =
                    (app.clone(), t.clone(), body.clone(), barrier.clone());
                tokio::spawn(async move {
                    barrier.wait().await;
                    app.play(&t, &body).await
                })
            })
            .collect();
        let mut answers = Vec::new();
        for send in sends {
            answers.push(send.await.unwrap());
        }
        let events = app.events(&t).await;
        assert_eq!(
            events.len(),
            2,
            "round {round}: exactly one move was recorded"
        );
        let recorded = serde_json::to_value(&events[1..]).unwrap();
        let mut created = 0;
        for (status, answer) in &answers {
            match status {
                201 => {
                    created += 1;
                    assert_eq!(answer["events"], recorded, "round {round}: {answer}");
                }
                409 => assert_eq!(answer["error"], "in_progress", "round {round}: {answer}"),
                _ => panic!("round {round}: a duplicate got {status}: {answer}"),
            }
        }
        assert!(
            created >= 1,
            "round {round}: the move itself was answered 201"
        );
        // Once the first is done, a duplicate always gets the saved answer.
        let (status, answer) = app.play(&t, &body).await;
        assert_eq!(
            (status, &answer["replayed"]),
            (201, &json!(true)),
            "{answer}"
        );
        assert_eq!(answer["events"], recorded);
    }
}

async fn a_key_older_than_24_hours_is_a_new_key(app: TestApp) {
    let t = app.table().await;
    let (status, first) = app
        .play(
            &t,
            &json!({ "expected_seq": 1, "command": "roll 2d6", "idempotency_key": "daily" }),
        )
        .await;
    assert_eq!(status, 201, "{first}");

    // Within a day the key is remembered, however it is used.
    app.clock().set(Utc::now() + Duration::hours(23));
    let (status, body) = app
        .play(
            &t,
            &json!({ "expected_seq": 2, "command": "roll 3d6", "idempotency_key": "daily" }),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(app.events(&t).await.len(), 2);

    // After a day it is a new key: the move is made.
    app.clock().set(Utc::now() + Duration::hours(25));
    let (status, second) = app
        .play(
            &t,
            &json!({ "expected_seq": 2, "command": "roll 3d6", "idempotency_key": "daily" }),
        )
        .await;
    assert_eq!(status, 201, "{second}");
    assert_eq!(second["replayed"], false);
    assert_eq!(app.events(&t).await.len(), 3);
    // And is remembered from then on.
    let (status, again) = app
        .play(
            &t,
            &json!({ "expected_seq": 2, "command": "roll 3d6", "idempotency_key": "daily" }),
        )
        .await;
    assert_eq!((status, &again["replayed"]), (201, &json!(true)), "{again}");
    assert_eq!(again["events"], second["events"]);
    assert_eq!(app.events(&t).await.len(), 3);
}
