//! The HTTP API over real HTTP (a server on port 0) against a fresh PostgreSQL database and a
//! fresh SQLite file per test: every test runs on both.

use crate::common;

use std::num::NonZeroU32;
use std::time::Duration;

use common::TestApp;
use despatch::engine::export;
use despatch::engine::verify::verify;
use despatch::games::rate::MoveRate;
use despatch::rules;
use serde_json::{json, Value};

async fn spawn(backend: common::Backend) -> TestApp {
    common::spawn_app(backend).spawn().await
}

struct Table {
    game_id: String,
    tokens: Vec<String>,
}

/// What this file's tests ask of the app (a trait, so that each test module keeps its own
/// helpers in the one service test binary).
trait ApiCalls {
    async fn post(&self, path: &str, token: Option<&str>, body: Value) -> (u16, Value);
    async fn get(&self, path: &str, token: Option<&str>) -> (u16, Value);
    async fn text(&self, path: &str, token: Option<&str>) -> String;
    async fn open_table(&self, seats: &[&str]) -> Table;
    async fn next_seq(&self, t: &Table) -> u64;
    async fn event_count(&self, t: &Table) -> usize;
    async fn play(&self, t: &Table, seat: usize, order: &str) -> Value;
}

impl ApiCalls for TestApp {
    async fn post(&self, path: &str, token: Option<&str>, body: Value) -> (u16, Value) {
        let mut req = self.http.post(self.url(path)).json(&body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let resp = req.send().await.unwrap();
        let status = resp.status().as_u16();
        (status, resp.json().await.unwrap_or(Value::Null))
    }

    async fn get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        let mut req = self.http.get(self.url(path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let resp = req.send().await.unwrap();
        let status = resp.status().as_u16();
        (status, resp.json().await.unwrap_or(Value::Null))
    }

    async fn text(&self, path: &str, token: Option<&str>) -> String {
        let mut req = self.http.get(self.url(path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let resp = req.send().await.unwrap();
        assert_eq!(resp.status().as_u16(), 200, "GET {path}");
        resp.text().await.unwrap()
    }

    async fn open_table(&self, seats: &[&str]) -> Table {
        let seats: Vec<Value> = seats
            .iter()
            .map(|s| json!({ "name": s, "email": format!("{s}@example.org") }))
            .collect();
        let (status, body) = self
            .post(
                "/api/games",
                None,
                json!({ "ruleset": "open-table", "seats": seats }),
            )
            .await;
        assert_eq!(status, 201, "{body}");
        Table {
            game_id: body["game_id"].as_str().unwrap().to_owned(),
            tokens: body["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["token"].as_str().unwrap().to_owned())
                .collect(),
        }
    }

    async fn next_seq(&self, t: &Table) -> u64 {
        self.get(&format!("/api/games/{}", t.game_id), None).await.1["next_seq"]
            .as_u64()
            .unwrap()
    }

    async fn event_count(&self, t: &Table) -> usize {
        self.store.events(&t.game_id, 0, None).await.unwrap().len()
    }

    async fn play(&self, t: &Table, seat: usize, order: &str) -> Value {
        let seq = self.next_seq(t).await;
        let (status, body) = self
            .post(&format!("/api/games/{}/moves", t.game_id), Some(&t.tokens[seat]), json!({ "expected_seq": seq, "command": order, "client_entropy": format!("e{seq}") }))
            .await;
        assert_eq!(status, 201, "{order}: {body}");
        body
    }
}

on_both_backends!(
    a_game_is_created_played_exported_and_verified,
    health_and_the_openapi_document_answer,
    creating_a_game_with_bad_input_is_refused_and_creates_nothing,
    a_game_of_names_only_takes_the_scenarios_seats_in_order_and_the_first_scenario,
    a_game_wrong_in_several_fields_is_refused_naming_every_one_and_creates_nothing,
    malformed_json_and_oversized_bodies_are_refused_and_change_nothing,
    a_stale_seq_gets_409_with_the_current_seq_and_changes_nothing,
    a_replayed_idempotency_key_returns_the_first_answer_and_writes_nothing,
    a_move_out_of_turn_gets_422_naming_the_rule_and_changes_nothing,
    missing_or_wrong_tokens_get_401_and_403,
    two_concurrent_moves_one_wins_the_other_gets_409,
    the_proof_of_a_roll_recomputes_its_faces,
    a_sealed_note_stays_out_of_other_seats_views_and_exports_until_revealed,
    a_finished_game_exports_complete_and_verifies_everything,
    events_after_a_seq_are_returned_in_order,
    a_seat_moving_too_fast_gets_429_with_retry_after_and_changes_nothing,
    a_name_with_a_line_break_is_refused_naming_the_field_and_creates_nothing,
    nul_anywhere_is_refused_with_400_and_changes_nothing,
    creating_games_too_fast_from_one_address_gets_429_with_retry_after_and_creates_nothing,
    seqs_out_of_range_are_refused_by_name_and_change_nothing,
    an_internal_error_on_a_get_does_not_say_a_move_was_not_recorded,
    a_body_trickled_past_its_deadline_gets_408_and_a_slow_one_within_it_is_taken,
    a_path_that_is_no_game_id_gets_404_saying_what_a_game_id_is,
);

/// The seconds a refusal's `Retry-After` asks for.
fn retry_after(refused: &reqwest::Response) -> u64 {
    refused.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap()
}

async fn a_game_is_created_played_exported_and_verified(app: TestApp) {
    let t = app.open_table(&["Anna", "Ben"]).await;
    let (status, summary) = app.get(&format!("/api/games/{}", t.game_id), None).await;
    assert_eq!(status, 200);
    assert_eq!(summary["waiting_for"][0]["seat"], "anna");
    let moves = app
        .get(
            &format!("/api/games/{}/moves", t.game_id),
            Some(&t.tokens[0]),
        )
        .await
        .1;
    assert_eq!(moves["your_turn"], true);

    let result = app
        .play(&t, 0, "The Guards advance to the ridge\nroll 2d6 to hit")
        .await;
    let events = result["events"].as_array().unwrap();
    assert_eq!(events.len(), 1);
    let dice = &events[0]["dice"];
    assert_eq!(dice["index"], 1);
    assert_eq!(dice["rolls"].as_array().unwrap().len(), 2);
    assert!(result["lines"].as_array().unwrap().iter().any(|l| l["text"]
        .as_str()
        .unwrap()
        .starts_with("Anna rolls 2d6 (to hit)")));

    let view = app
        .get(
            &format!("/api/games/{}/view", t.game_id),
            Some(&t.tokens[1]),
        )
        .await
        .1;
    assert_eq!(view["view"]["to_act"][0], "ben");
    app.play(&t, 1, "Hold the line; roll d100 morale").await;

    let text = app
        .text(
            &format!("/api/games/{}/export", t.game_id),
            Some(&t.tokens[0]),
        )
        .await;
    let (header, events) = export::read(&text).unwrap();
    assert!(!header.complete);
    assert_eq!(header.redacted_for.as_deref(), Some("anna"));
    assert_eq!(events.len(), 3);
    // After the header, the export is the stored (hashed) text, byte for byte.
    let stored = app.store.events_json(&t.game_id, 0, None).await.unwrap();
    assert_eq!(text.lines().skip(1).collect::<Vec<_>>(), stored);
    let report = verify(&text, &rules::find);
    assert!(report.ok(), "{}", report.render());
    assert_eq!(report.rolls_checked, 3);
}

async fn health_and_the_openapi_document_answer(app: TestApp) {
    let (status, body) = app.get("/health", None).await;
    assert_eq!(status, 200);
    assert_eq!(body["status"], "ok");
    let (status, doc) = app.get("/api/openapi.json", None).await;
    assert_eq!(status, 200);
    for path in [
        "/api/games",
        "/api/games/{game_id}/moves",
        "/api/games/{game_id}/export",
        "/api/games/{game_id}/events/{seq}/proof",
    ] {
        assert!(
            doc["paths"].get(path).is_some(),
            "the OpenAPI document lacks {path}"
        );
    }
    assert!(
        doc["paths"]["/api/games/{game_id}/moves"]["post"]["responses"]
            .get("429")
            .is_some(),
        "the OpenAPI document lacks the rate limit's 429"
    );
    let (_, rulesets) = app.get("/api/rulesets", None).await;
    assert!(rulesets
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["id"] == "open-table"));
}

async fn creating_a_game_with_bad_input_is_refused_and_creates_nothing(app: TestApp) {
    let cases = [
        (
            json!({ "ruleset": "chess", "seats": [{ "name": "a" }] }),
            "unknown ruleset 'chess'",
        ),
        (
            json!({ "ruleset": "open-table", "scenario": "waterloo", "seats": [{ "name": "a" }] }),
            "no scenario 'waterloo'",
        ),
        (
            json!({ "ruleset": "open-table", "seats": [] }),
            "open-table / default takes 1 to 16 players; none was given",
        ),
        (
            json!({ "ruleset": "open-table", "seats": [{ "name": "a" }, { "name": "A" }] }),
            "two seats are both 'a'",
        ),
        (
            json!({ "ruleset": "open-table", "seats": [{ "name": "a", "email": "not-an-address" }] }),
            "not an email address",
        ),
        (
            json!({ "ruleset": "open-table", "options": { "order": "random" }, "seats": [{ "name": "a" }] }),
            "order must be",
        ),
        (
            json!({ "ruleset": "open-table", "seats": [{ "seat": "System", "name": "a" }] }),
            "not a seat id",
        ),
    ];
    for (body, expected) in cases {
        let (status, answer) = app.post("/api/games", None, body.clone()).await;
        assert!(status == 400 || status == 422, "{body} gave {status}");
        assert!(
            answer["message"].as_str().unwrap().contains(expected),
            "{body}: {answer}"
        );
    }
}

/// Issue 38: a game asked for with players' names only gets the scenario's seats in order (the
/// roles the lobby lists), and one with no scenario the ruleset's first, as the lobby and
/// `despatch replay` do.
async fn a_game_of_names_only_takes_the_scenarios_seats_in_order_and_the_first_scenario(
    app: TestApp,
) {
    let (_, rulesets) = app.get("/api/rulesets", None).await;
    let info = |id: &str| {
        rulesets
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .unwrap_or_else(|| panic!("{id} in {rulesets}"))
            .clone()
    };
    let seats_of = |created: &Value| -> Vec<String> {
        created["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["seat"].as_str().unwrap().to_owned())
            .collect()
    };
    // Searching for Glory: three names, no scenario.
    let sfg = info("searching-for-glory");
    let first = &sfg["scenarios"][0];
    let (status, created) = app
        .post(
            "/api/games",
            None,
            json!({ "ruleset": "searching-for-glory",
                    "seats": [{ "name": "a" }, { "name": "b" }, { "name": "c" }] }),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let wanted: Vec<String> = first["seats"].as_array().unwrap()[..3]
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(seats_of(&created), wanted);
    let names: Vec<&str> = created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["a", "b", "c"]);
    let (_, summary) = app
        .get(
            &format!("/api/games/{}", created["game_id"].as_str().unwrap()),
            None,
        )
        .await;
    assert_eq!(summary["scenario"], first["id"], "{summary}");
    // The roles the lobby names the seats by are the API's too: each side's.
    assert_eq!(
        first["roles"].as_array().unwrap().len(),
        first["seats"].as_array().unwrap().len()
    );
    assert!(
        first["roles"][0].as_str().unwrap().contains("French side"),
        "{first}"
    );
    assert!(
        first["roles"][1]
            .as_str()
            .unwrap()
            .contains("Austrian side"),
        "{first}"
    );
    // For Honor and Glory: a seat named by its id keeps it, the other takes the one left.
    let (status, created) = app
        .post(
            "/api/games",
            None,
            json!({ "ruleset": "for-honor-and-glory", "scenario": "chippawa",
                    "seats": [{ "name": "Riall", "seat": "british" }, { "name": "Scott" }] }),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(seats_of(&created), ["british", "american"]);
    // Where Eagles Dare by names alone, in the order its rules seat them.
    let (status, created) = app
        .post(
            "/api/games",
            None,
            json!({ "ruleset": "where-eagles-dare", "seats": [{ "name": "Monty" }, { "name": "Model" }] }),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(seats_of(&created), ["allied", "german"]);
    let (_, summary) = app
        .get(
            &format!("/api/games/{}", created["game_id"].as_str().unwrap()),
            None,
        )
        .await;
    assert_eq!(
        summary["scenario"],
        info("where-eagles-dare")["scenarios"][0]["id"]
    );
}

/// Issue 38: a request wrong in several fields is answered with every one of them, each by
/// its field and in words, and nothing is made.
async fn a_game_wrong_in_several_fields_is_refused_naming_every_one_and_creates_nothing(
    app: TestApp,
) {
    let games_before = app.db.count_rows("games").await;
    let (status, body) = app
        .post(
            "/api/games",
            None,
            json!({ "ruleset": "searching-for-glory", "scenario": "danube-1809",
                    "seats": [{ "name": "a", "email": "not-an-address" }],
                    "options": 3, "clock": "hourly" }),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"], "bad_request");
    let problems = body["problems"].as_array().expect("a list of problems");
    let fields: Vec<&str> = problems
        .iter()
        .map(|p| p["field"].as_str().unwrap())
        .collect();
    assert_eq!(
        fields,
        ["seats", "seats[0].email", "options", "clock"],
        "{body}"
    );
    let said = |field: &str| {
        problems.iter().find(|p| p["field"] == field).unwrap()["message"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert!(
        said("seats").contains("3 to 6 players; 1 was given"),
        "{body}"
    );
    assert!(said("seats[0].email").contains("'not-an-address' is not an email address"));
    assert!(said("options").contains("must be a JSON object"), "{body}");
    assert!(said("clock").contains("hourly"), "{body}");
    // The message says them all in one.
    let message = body["message"].as_str().unwrap();
    for p in problems {
        assert!(message.contains(p["message"].as_str().unwrap()), "{body}");
    }
    // A seat id the scenario does not have, and a scenario the ruleset does not: both.
    let (status, body) = app
        .post(
            "/api/games",
            None,
            json!({ "ruleset": "for-honor-and-glory", "scenario": "waterloo",
                    "seats": [{ "name": "x", "seat": "french" }, { "name": "" }] }),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    let fields: Vec<&str> = body["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["scenario", "seats[1].name"], "{body}");
    assert!(
        body["message"].as_str().unwrap().contains(
            "for-honor-and-glory has no scenario 'waterloo'; choose one of queenston-heights"
        ),
        "{body}"
    );
    let (status, body) = app
        .post(
            "/api/games",
            None,
            json!({ "ruleset": "for-honor-and-glory", "scenario": "chippawa",
                    "seats": [{ "name": "x", "seat": "french" }, { "name": "y" }] }),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["problems"][0]["field"], "seats[0].seat", "{body}");
    assert!(
        body["problems"][0]["message"]
            .as_str()
            .unwrap()
            .contains("'french' is not a seat of for-honor-and-glory / chippawa; its seats are american, british"),
        "{body}"
    );
    assert_eq!(
        app.db.count_rows("games").await,
        games_before,
        "nothing was made"
    );
}

async fn malformed_json_and_oversized_bodies_are_refused_and_change_nothing(app: TestApp) {
    let t = app.open_table(&["a", "b"]).await;
    let path = app.url(&format!("/api/games/{}/moves", t.game_id));
    let resp = app
        .http
        .post(&path)
        .bearer_auth(&t.tokens[0])
        .header("content-type", "application/json")
        .body("{\"expected_seq\": 1, \"command\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 400);
    let body: Value = resp.json().await.unwrap();
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("could not be read"),
        "{body}"
    );

    let huge = "x".repeat(100 * 1024);
    let (status, body) = app
        .post(
            &format!("/api/games/{}/moves", t.game_id),
            Some(&t.tokens[0]),
            json!({ "expected_seq": 1, "command": huge }),
        )
        .await;
    assert_eq!(status, 413, "{body}");
    assert_eq!(app.event_count(&t).await, 1, "nothing was appended");
}

async fn a_stale_seq_gets_409_with_the_current_seq_and_changes_nothing(app: TestApp) {
    let t = app.open_table(&["a", "b"]).await;
    app.play(&t, 0, "first").await;
    let (status, body) = app
        .post(
            &format!("/api/games/{}/moves", t.game_id),
            Some(&t.tokens[1]),
            json!({ "expected_seq": 1, "command": "late" }),
        )
        .await;
    assert_eq!(status, 409);
    assert_eq!(body["current_seq"], 2);
    assert_eq!(app.event_count(&t).await, 2);
}

async fn a_replayed_idempotency_key_returns_the_first_answer_and_writes_nothing(app: TestApp) {
    let t = app.open_table(&["a", "b"]).await;
    let path = format!("/api/games/{}/moves", t.game_id);
    let body = json!({ "expected_seq": 1, "command": "roll 3d6", "idempotency_key": "mail-123" });
    let (s1, first) = app.post(&path, Some(&t.tokens[0]), body.clone()).await;
    let (s2, second) = app.post(&path, Some(&t.tokens[0]), body).await;
    assert_eq!((s1, s2), (201, 201));
    assert_eq!(first["events"], second["events"]);
    assert_eq!(second["replayed"], true);
    assert_eq!(app.event_count(&t).await, 2);
}

async fn a_move_out_of_turn_gets_422_naming_the_rule_and_changes_nothing(app: TestApp) {
    let t = app.open_table(&["a", "b"]).await;
    let path = format!("/api/games/{}/moves", t.game_id);
    let (status, body) = app
        .post(
            &path,
            Some(&t.tokens[1]),
            json!({ "expected_seq": 1, "command": "me first" }),
        )
        .await;
    assert_eq!(status, 422);
    assert_eq!(body["rule"], "turn order");
    assert!(
        body["message"].as_str().unwrap().contains("waits for a"),
        "{body}"
    );
    let (status, body) = app
        .post(
            &path,
            Some(&t.tokens[0]),
            json!({ "expected_seq": 1, "command": "roll 3x6" }),
        )
        .await;
    assert_eq!(status, 422);
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("'3x6' is not a dice expression"),
        "{body}"
    );
    let (status, body) = app
        .post(
            &path,
            Some(&t.tokens[0]),
            json!({ "expected_seq": 1, "command": { "rolls": "many" } }),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(app.event_count(&t).await, 1);
}

async fn missing_or_wrong_tokens_get_401_and_403(app: TestApp) {
    let t = app.open_table(&["a", "b"]).await;
    let other = app.open_table(&["c", "d"]).await;
    let path = format!("/api/games/{}/moves", t.game_id);
    let (status, _) = app
        .post(&path, None, json!({ "expected_seq": 1, "command": "x" }))
        .await;
    assert_eq!(status, 401);
    let (status, _) = app
        .post(
            &path,
            Some("not-a-token"),
            json!({ "expected_seq": 1, "command": "x" }),
        )
        .await;
    assert_eq!(status, 403);
    let (status, body) = app
        .post(
            &path,
            Some(&other.tokens[0]),
            json!({ "expected_seq": 1, "command": "x" }),
        )
        .await;
    assert_eq!(
        status, 403,
        "a seat of another game is not a seat of this one: {body}"
    );
    let (status, _) = app.get("/api/games/no-such-game", None).await;
    assert_eq!(status, 404);
    assert_eq!(app.event_count(&t).await, 1);
}

/// A game id is parsed where it enters (`store::GameId`): a path segment that cannot be one
/// names no game, and the answer says what a game id is; nothing is read or written.
async fn a_path_that_is_no_game_id_gets_404_saying_what_a_game_id_is(app: TestApp) {
    let t = app.open_table(&["a", "b"]).await;
    for path in [
        "/api/games/a.b",
        "/api/games/a.b/view",
        "/api/games/a.b/events",
        &format!("/api/games/{}.x/moves", t.game_id),
    ] {
        let (status, body) = app.get(path, Some(&t.tokens[0])).await;
        assert_eq!(status, 404, "{path}: {body}");
        assert_eq!(body["error"], "not_found", "{path}: {body}");
        let message = body["message"].as_str().unwrap();
        assert!(
            message
                .contains("is not a game id: a game id is 1-64 ASCII letters, digits, '-' or '_'"),
            "{path}: {message}"
        );
    }
    let (status, body) = app
        .post(
            &format!("/api/games/{}.x/moves", t.game_id),
            Some(&t.tokens[0]),
            json!({ "expected_seq": 1, "command": "x" }),
        )
        .await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(app.event_count(&t).await, 1);
    // An id that could be one and names no game is answered as it always was.
    let (status, body) = app.get("/api/games/no-such-game", None).await;
    assert_eq!(status, 404);
    assert_eq!(body["message"], "there is no game no-such-game");
}

async fn two_concurrent_moves_one_wins_the_other_gets_409(app: TestApp) {
    for round in 0..5 {
        let t = app.open_table(&["a", "b"]).await;
        let path = format!("/api/games/{}/moves", t.game_id);
        let a = app.post(
            &path,
            Some(&t.tokens[0]),
            json!({ "expected_seq": 1, "command": format!("a {round}") }),
        );
        let b = app.post(
            &path,
            Some(&t.tokens[0]),
            json!({ "expected_seq": 1, "command": format!("b {round}") }),
        );
        let ((sa, _), (sb, loser)) = tokio::join!(a, b);
        let mut statuses = [sa, sb];
        statuses.sort();
        assert_eq!(statuses, [201, 409], "round {round}");
        if sb == 409 {
            assert_eq!(loser["current_seq"], 2);
        }
        assert_eq!(app.event_count(&t).await, 2);
    }
}

async fn the_proof_of_a_roll_recomputes_its_faces(app: TestApp) {
    let t = app.open_table(&["a", "b"]).await;
    let result = app.play(&t, 0, "roll 4d6").await;
    let seq = result["events"][0]["seq"].as_u64().unwrap();
    let (status, proof) = app
        .get(
            &format!("/api/games/{}/events/{seq}/proof", t.game_id),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(proof["link_checks"], true);
    assert_eq!(proof["faces_check"], true);
    assert_eq!(
        proof["previous_link_seq"], 0,
        "the first roll opens the chain committed in GameCreated"
    );
    let faces: Vec<u64> = result["events"][0]["dice"]["rolls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["face"].as_u64().unwrap())
        .collect();
    let recomputed: Vec<u64> = proof["recomputed_faces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_u64().unwrap())
        .collect();
    assert_eq!(faces, recomputed);
    let (status, _) = app
        .get(&format!("/api/games/{}/events/0/proof", t.game_id), None)
        .await;
    assert_eq!(status, 404, "GameCreated rolled nothing");
}

async fn a_sealed_note_stays_out_of_other_seats_views_and_exports_until_revealed(app: TestApp) {
    let t = app.open_table(&["a", "b"]).await;
    app.play(&t, 0, "Deploying\nseal The reserve waits behind Hougoumont")
        .await;
    let secret = "behind Hougoumont";
    let mine = app
        .get(
            &format!("/api/games/{}/view", t.game_id),
            Some(&t.tokens[0]),
        )
        .await
        .1;
    assert!(
        mine.to_string().contains(secret),
        "the author sees their own note"
    );
    let theirs = app
        .get(
            &format!("/api/games/{}/view", t.game_id),
            Some(&t.tokens[1]),
        )
        .await
        .1;
    assert!(!theirs.to_string().contains(secret));
    let public = app
        .get(&format!("/api/games/{}/view", t.game_id), None)
        .await
        .1;
    assert!(!public.to_string().contains(secret));
    let export = app
        .text(
            &format!("/api/games/{}/export", t.game_id),
            Some(&t.tokens[1]),
        )
        .await;
    assert!(!export.contains(secret));
    let events = app
        .get(
            &format!("/api/games/{}/events", t.game_id),
            Some(&t.tokens[1]),
        )
        .await
        .1;
    assert!(!events.to_string().contains(secret));

    app.play(&t, 1, "Probe the farm").await;
    let result = app.play(&t, 0, "reveal 1").await;
    assert_eq!(
        result["events"].as_array().unwrap().len(),
        2,
        "the move and its reveal"
    );
    assert_eq!(result["events"][1]["kind"], "Revealed");
    let export = app
        .text(
            &format!("/api/games/{}/export", t.game_id),
            Some(&t.tokens[1]),
        )
        .await;
    assert!(export.contains(secret));
    let report = verify(&export, &rules::find);
    assert!(report.ok(), "{}", report.render());
    assert_eq!(report.reveals_checked, 1);
}

async fn a_finished_game_exports_complete_and_verifies_everything(app: TestApp) {
    let t = app.open_table(&["a", "b"]).await;
    app.play(&t, 0, "seal a secret plan\nresult draw").await;
    let result = app.play(&t, 1, "result draw").await;
    let kinds: Vec<&str> = result["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["Command", "Revealed", "GameEnded"],
        "the end opens every sealed note and the hidden seed"
    );
    let summary = app.get(&format!("/api/games/{}", t.game_id), None).await.1;
    assert_eq!(summary["ended"], true);
    assert_eq!(summary["outcome"]["status"], "finished");
    let text = app
        .text(&format!("/api/games/{}/export", t.game_id), None)
        .await;
    let (header, _) = export::read(&text).unwrap();
    assert!(header.complete);
    let report = verify(&text, &rules::find);
    assert!(
        report.ok() && report.refolded && report.final_state_hash.is_some(),
        "{}",
        report.render()
    );
    let (status, body) = app
        .post(
            &format!("/api/games/{}/moves", t.game_id),
            Some(&t.tokens[0]),
            json!({ "expected_seq": 5, "command": "more" }),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["rule"], "game over");
}

async fn events_after_a_seq_are_returned_in_order(app: TestApp) {
    let t = app.open_table(&["a", "b"]).await;
    for i in 0..4 {
        app.play(&t, i % 2, &format!("move {i}")).await;
    }
    let (status, events) = app
        .get(&format!("/api/games/{}/events?after=2", t.game_id), None)
        .await;
    assert_eq!(status, 200);
    let seqs: Vec<u64> = events
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["seq"].as_u64().unwrap())
        .collect();
    assert_eq!(seqs, [3, 4]);
    let (status, _) = app
        .get(
            &format!("/api/games/{}/events?after=minus-one", t.game_id),
            None,
        )
        .await;
    assert_eq!(status, 400);
}

async fn a_seat_moving_too_fast_gets_429_with_retry_after_and_changes_nothing(app: TestApp) {
    // A second server on the same database that allows one move a seat per hour.
    let base = app
        .another()
        .move_rate(Some(MoveRate {
            burst: NonZeroU32::new(1).unwrap(),
            per: Duration::from_secs(3600),
        }))
        .serve()
        .await
        .base;
    let t = app.open_table(&["anna", "ben"]).await;
    let moves = format!("{base}/api/games/{}/moves", t.game_id);
    let submit = |seat: usize, seq: u64| {
        app.http
            .post(&moves)
            .bearer_auth(&t.tokens[seat])
            .json(&json!({ "expected_seq": seq, "command": "Advance", "client_entropy": "e" }))
            .send()
    };

    assert_eq!(submit(0, 1).await.unwrap().status().as_u16(), 201);
    let seq = app.next_seq(&t).await;
    let events = app.event_count(&t).await;
    let outbox = app.store.outbox(&t.game_id).await.unwrap().len();

    let refused = submit(0, seq).await.unwrap();
    assert_eq!(refused.status().as_u16(), 429);
    let retry_after = retry_after(&refused);
    assert!(retry_after > 3000 && retry_after <= 3600, "{retry_after}");
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"], "rate_limited");
    assert_eq!(body["seat"], "anna");
    let message = body["message"].as_str().unwrap();
    assert!(
        message.contains("at most 1 moves at once, then one every 60 min")
            && message.contains("try again in"),
        "{message}"
    );
    assert_eq!(app.next_seq(&t).await, seq);
    assert_eq!(app.event_count(&t).await, events);
    assert_eq!(app.store.outbox(&t.game_id).await.unwrap().len(), outbox);

    // Ben is not affected by Anna's limit, and the limited server still takes his move.
    assert_eq!(submit(1, seq).await.unwrap().status().as_u16(), 201);
    assert_eq!(app.event_count(&t).await, events + 1);
}

/// Issue 15: a seat name holding CR/LF reached the `To:` header of its notices, where lettre
/// panicked in the dispatcher. Such a name is refused at the API, naming the field.
async fn a_name_with_a_line_break_is_refused_naming_the_field_and_creates_nothing(app: TestApp) {
    let cases = [
        (
            json!({ "name": "Evil\r\nBcc: victim@example.com" }),
            "seats[1].name contains the control character U+000D (carriage return)",
        ),
        (
            json!({ "name": "Tab\tbed" }),
            "seats[1].name contains the control character U+0009 (tab)",
        ),
        (
            json!({ "name": "Ben", "email": "ben@example.org\r\nBcc: victim@example.com" }),
            "seats[1].email contains the control character U+000D",
        ),
        (
            json!({ "name": "Ben", "seat": "ben\n" }),
            "seats[1].seat contains the control character U+000A (line feed)",
        ),
        (
            json!({ "name": "ж".repeat(101) }),
            "seats[1].name is 101 characters long; it may have at most 100",
        ),
    ];
    for (seat, expected) in cases {
        let body = json!({ "ruleset": "open-table", "seats": [{ "name": "Anna" }, seat] });
        let (status, answer) = app.post("/api/games", None, body.clone()).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert_eq!(answer["error"], "bad_request", "{answer}");
        assert!(
            answer["message"].as_str().unwrap().starts_with(expected),
            "{body}: {answer}"
        );
    }
    assert_eq!(app.db.count_rows("games").await, 0, "nothing was created");
    assert_eq!(app.db.count_rows("outbox").await, 0, "no notice was queued");
    // A long name in a script of many bytes per letter has the room an ASCII one has.
    let (status, answer) = app
        .post(
            "/api/games",
            None,
            json!({ "ruleset": "open-table", "seats": [{ "seat": "zhenya", "name": "ж".repeat(100) }] }),
        )
        .await;
    assert_eq!(status, 201, "{answer}");
}

/// Issue 15: PostgreSQL cannot store U+0000, so a NUL anywhere answered 500 there. It is refused
/// with 400 before it reaches either backend, and nothing changes.
async fn nul_anywhere_is_refused_with_400_and_changes_nothing(app: TestApp) {
    let t = app.open_table(&["Anna", "Ben"]).await;
    let (games, events, outbox) = (
        app.db.count_rows("games").await,
        app.db.count_rows("events").await,
        app.db.count_rows("outbox").await,
    );
    let moves = format!("/api/games/{}/moves", t.game_id);
    let cases: Vec<(String, Option<&str>, Value, &str)> = vec![
        (
            "/api/games".into(),
            None,
            json!({ "ruleset": "open-table", "seats": [{ "name": "An\u{0}na" }] }),
            "seats[0].name contains the control character U+0000 (NUL)",
        ),
        (
            "/api/games".into(),
            None,
            json!({ "ruleset": "open-table", "seats": [{ "name": "Anna", "email": "a\u{0}@example.org" }] }),
            "seats[0].email contains the control character U+0000 (NUL)",
        ),
        (
            moves.clone(),
            Some(&t.tokens[0]),
            json!({ "expected_seq": 1, "command": "advance\u{0}", "client_entropy": "e" }),
            "command contains the control character U+0000 (NUL)",
        ),
        (
            moves.clone(),
            Some(&t.tokens[0]),
            json!({ "expected_seq": 1, "command": { "say": ["x\u{0}"] } }),
            "command.say[0] contains the control character U+0000 (NUL)",
        ),
        (
            moves.clone(),
            Some(&t.tokens[0]),
            json!({ "expected_seq": 1, "command": "advance", "idempotency_key": "k\u{0}" }),
            "idempotency_key contains the control character U+0000 (NUL)",
        ),
        (
            moves.clone(),
            Some(&t.tokens[0]),
            json!({ "expected_seq": 1, "command": "advance", "client_entropy": "\u{0}" }),
            "client_entropy contains the control character U+0000 (NUL)",
        ),
        (
            format!("/api/games/{}/webhooks", t.game_id),
            Some(&t.tokens[0]),
            json!({ "url": "https://example.org/\u{0}" }),
            "url contains the control character U+0000 (NUL)",
        ),
    ];
    for (path, token, body, expected) in cases {
        let (status, answer) = app.post(&path, token, body.clone()).await;
        assert_eq!(status, 400, "{path} {body}: {answer}");
        assert!(
            answer["message"].as_str().unwrap().starts_with(expected),
            "{path} {body}: {answer}"
        );
    }
    // In a path or a query: refused before any handler reads the id.
    for path in [
        "/api/games/%00".to_owned(),
        format!("/api/games/{}%00/view", t.game_id),
        format!("/api/games/{}/events?after=%00", t.game_id),
        format!("/games/{}?token=%00", t.game_id),
    ] {
        let (status, answer) = app.get(&path, None).await;
        assert_eq!(status, 400, "{path}: {answer}");
        assert!(
            answer["message"]
                .as_str()
                .unwrap()
                .contains("control character U+0000 (as %00)"),
            "{path}: {answer}"
        );
    }
    assert_eq!(app.db.count_rows("games").await, games);
    assert_eq!(app.db.count_rows("events").await, events);
    assert_eq!(app.db.count_rows("outbox").await, outbox);
    assert_eq!(app.db.count_rows("webhooks").await, 0);
    // The game plays on.
    app.play(&t, 0, "advance").await;
}

async fn creating_games_too_fast_from_one_address_gets_429_with_retry_after_and_creates_nothing(
    app: TestApp,
) {
    // A second server on the same database that allows two games an address per hour.
    let base = app
        .another()
        .create_rate(Some(MoveRate {
            burst: NonZeroU32::new(2).unwrap(),
            per: Duration::from_secs(3600),
        }))
        .serve()
        .await
        .base;
    let create = || {
        app.http
            .post(format!("{base}/api/games"))
            .json(&json!({ "ruleset": "open-table", "seats": [{ "name": "a" }, { "name": "b" }] }))
            .send()
    };
    assert_eq!(create().await.unwrap().status().as_u16(), 201);
    assert_eq!(create().await.unwrap().status().as_u16(), 201);
    let games = app.db.count_rows("games").await;
    assert_eq!(games, 2);

    let refused = create().await.unwrap();
    assert_eq!(refused.status().as_u16(), 429);
    let retry_after = retry_after(&refused);
    assert!(retry_after > 3000 && retry_after <= 3600, "{retry_after}");
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"], "rate_limited");
    let message = body["message"].as_str().unwrap();
    assert!(
        message.contains("127.0.0.1 has created too many games")
            && message.contains("no game was created"),
        "{message}"
    );
    assert_eq!(app.db.count_rows("games").await, games);

    // The lobby's form draws on the same bucket: refused too, with the page saying why. It is
    // sent as the lobby sends it, with the page's token and form cookie.
    let lobby = app.http.get(format!("{base}/")).send().await.unwrap();
    let cookie = common::forms::with_form_cookie(None, lobby.headers()).unwrap();
    let token = common::forms::token_in(&lobby.text().await.unwrap(), "/games").unwrap();
    let page = app
        .http
        .post(format!("{base}/games"))
        .header("Cookie", cookie)
        .form(&[
            ("csrf", token.as_str()),
            ("game", "open-table/default"),
            ("name_0", "a"),
            ("name_1", "b"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(page.status().as_u16(), 429);
    assert!(page.headers().contains_key("retry-after"));
    assert!(page.text().await.unwrap().contains("too many games"));
    assert_eq!(app.db.count_rows("games").await, games);

    // The unlimited server beside it is not affected.
    app.open_table(&["c", "d"]).await;
    assert_eq!(app.db.count_rows("games").await, games + 1);
}

/// A name is "1 to 100 characters": letters beyond ASCII count once each, not by their bytes.
async fn seqs_out_of_range_are_refused_by_name_and_change_nothing(app: TestApp) {
    let t = app.open_table(&["anna", "ben"]).await;
    let events = app.event_count(&t).await;
    let too_big = "9223372036854775808"; // i64::MAX + 1
    for (query, name) in [
        (format!("events?after={too_big}"), "after"),
        ("events?after=-1".to_owned(), "after"),
        ("events?after=1.5".to_owned(), "after"),
        (format!("events/{too_big}/proof"), "seq"),
        ("events/-1/proof".to_owned(), "seq"),
    ] {
        let (status, body) = app
            .get(&format!("/api/games/{}/{query}", t.game_id), None)
            .await;
        assert_eq!(status, 400, "{query}: {body}");
        let message = body["message"].as_str().unwrap();
        assert!(
            message.starts_with(&format!(
                "{name} must be a whole number from 0 to 9223372036854775807"
            )),
            "{query}: {message}"
        );
    }
    // The largest seq in range answers, rather than overflowing.
    let (status, body) = app
        .get(
            &format!("/api/games/{}/events?after=9223372036854775807", t.game_id),
            None,
        )
        .await;
    assert_eq!((status, body), (200, json!([])));
    let (status, _) = app
        .get(
            &format!("/api/games/{}/events/9223372036854775807/proof", t.game_id),
            None,
        )
        .await;
    assert_eq!(status, 404);

    for expected_seq in [
        json!(9223372036854775808u64),
        json!(-1),
        json!(1.5),
        json!("1"),
    ] {
        let (status, body) = app
            .post(
                &format!("/api/games/{}/moves", t.game_id),
                Some(&t.tokens[0]),
                json!({ "expected_seq": expected_seq, "command": "Advance", "client_entropy": "e" }),
            )
            .await;
        assert_eq!(status, 400, "{expected_seq}: {body}");
        assert!(
            body["message"]
                .as_str()
                .unwrap()
                .contains("expected_seq must be a whole number from 0 to 9223372036854775807"),
            "{expected_seq}: {body}"
        );
    }
    assert_eq!(app.event_count(&t).await, events);
}

async fn an_internal_error_on_a_get_does_not_say_a_move_was_not_recorded(app: TestApp) {
    let t = app.open_table(&["anna", "ben"]).await;
    // Damage the stored log so that the game no longer loads: every answer about it is a 500.
    app.db
        .execute(&format!(
            "UPDATE events SET body = 'not an event' WHERE game_id = '{}' AND seq = 0",
            t.game_id
        ))
        .await;

    let (status, body) = app.get(&format!("/api/games/{}", t.game_id), None).await;
    assert_eq!(status, 500, "{body}");
    assert_eq!(body["error"], "internal");
    let message = body["message"].as_str().unwrap();
    assert!(!message.contains("recorded"), "{message}");
    assert!(message.contains("try again later"), "{message}");

    // A move that fails so does say that nothing of it was kept.
    let (status, body) = app
        .post(
            &format!("/api/games/{}/moves", t.game_id),
            Some(&t.tokens[0]),
            json!({ "expected_seq": 1, "command": "Advance", "client_entropy": "e" }),
        )
        .await;
    assert_eq!(status, 500, "{body}");
    assert!(
        body["message"].as_str().unwrap().contains("not recorded"),
        "{body}"
    );
}

async fn a_body_trickled_past_its_deadline_gets_408_and_a_slow_one_within_it_is_taken(
    app: TestApp,
) {
    use common::raw_http::{connect, read_answer, send_head};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let bound = Duration::from_secs(2);
    let server = app.another().body_timeout(bound).serve().await;
    let host = server.base.trim_start_matches("http://").to_owned();
    let body = json!({ "ruleset": "open-table", "seats": [{ "name": "Anna" }] }).to_string();
    let head = |length: usize| {
        format!(
            "POST /api/games HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {length}"
        )
    };

    // A byte every quarter second of a body declared 1000 bytes long: cut off at the bound,
    // answered 408, and the connection closed (the guard, ten times the bound, only catches a
    // hang).
    let (mut read, mut write) = connect(&server.base).await;
    send_head(&mut write, &head(1000)).await;
    let trickle = tokio::spawn(async move {
        for _ in 0..1000 {
            if write.write_all(b" ").await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    });
    let answer = read_answer(&mut read, bound * 10)
        .await
        .expect("an answer within ten times the bound");
    assert_eq!(answer.status, 408, "{answer:?}");
    assert!(
        answer.body.contains("did not arrive within 2 s"),
        "{answer:?}"
    );
    let mut rest = [0u8; 64];
    let closed = tokio::time::timeout(bound * 10, read.read(&mut rest))
        .await
        .expect("the connection is closed");
    assert!(matches!(closed, Ok(0) | Err(_)), "{closed:?}");
    trickle.abort();
    assert_eq!(app.db.count_rows("games").await, 0, "nothing was created");

    // The same body sent slowly, in three parts, but whole within the bound: taken.
    let (mut read, mut write) = connect(&server.base).await;
    send_head(&mut write, &head(body.len())).await;
    let third = body.len() / 3;
    for part in [&body[..third], &body[third..2 * third], &body[2 * third..]] {
        write.write_all(part.as_bytes()).await.unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    let answer = read_answer(&mut read, bound * 10).await.expect("an answer");
    assert_eq!(answer.status, 201, "{answer:?}");
    assert_eq!(app.db.count_rows("games").await, 1);
}
