//! Campaigns across upgrades (issue 37): `despatch check` names each stored game this build
//! would not load, and changes nothing; such a game answers a page and an API error that name
//! it, the event and the problem, never a bare 500.

use std::process::{Command, Output};

use despatch::engine::bot::Rng;
use despatch::engine::event::Event;
use despatch::games::{GameId, Games, NewGame, NewSeat};
use despatch::rules;
use serde_json::{json, Value};

use super::common::{self, bot, Backend, TestApp};

async fn spawn(backend: Backend) -> TestApp {
    common::spawn_app(backend).spawn().await
}

on_both_backends!(
    check_passes_a_database_whose_games_all_load,
    check_names_a_game_whose_log_no_longer_folds_and_changes_nothing,
    check_and_the_server_name_a_game_of_a_rules_version_this_build_does_not_play,
    a_game_that_does_not_load_answers_a_page_and_an_api_error_naming_the_problem,
    check_folds_the_whole_log_of_a_game_that_loads_from_its_snapshot,
);

/// `despatch check` on the app's database, as an operator runs it.
async fn check(app: &TestApp, args: &[&str]) -> Output {
    let url = app.db.url().to_owned();
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    tokio::task::spawn_blocking(move || {
        let data = tempfile::tempdir().unwrap();
        Command::new(env!("CARGO_BIN_EXE_despatch"))
            .arg("check")
            .args(&args)
            .env("DATABASE_URL", url)
            .env("DESPATCH_SECRET_KEY", common::TEST_SECRET)
            .env("DESPATCH_DATA_DIR", data.path())
            .env_remove("DESPATCH_CONFIG")
            .env("RUST_LOG", "warn")
            .output()
            .expect("the binary runs")
    })
    .await
    .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// An open-table game of alice and bob; its id and alice's token.
async fn open_table_game(games: &Games) -> (GameId, String) {
    let seat = |name: &str| NewSeat {
        seat: None,
        name: name.into(),
        email: None,
    };
    let created = games
        .create(NewGame {
            name: None,
            ruleset: rules::open_table::ID.into(),
            scenario: "default".into(),
            options: json!({}),
            seats: vec![seat("alice"), seat("bob")],
            clock: None,
        })
        .await
        .expect("the game is created");
    let token = created.seats[0].token.clone();
    (created.game_id, token)
}

/// Writes event 1 of `game_id` by hand, past every check of the service, as an older build (or
/// a build whose rules have changed since) could have: a move the open table's rules refuse,
/// since it does nothing.
async fn write_refused_move(app: &TestApp, game_id: &GameId) {
    let first = app.store.events(game_id, 0, Some(1)).await.unwrap();
    let created = &first[0];
    let seat = created.payload["seats"][0]["seat"].as_str().unwrap();
    let event = Event {
        game_id: game_id.to_string(),
        seq: 1,
        kind: "Command".into(),
        seat: seat.into(),
        payload: json!({ "command": {} }),
        recorded_at: created.recorded_at.clone(),
        dice: None,
        prev_hash: created.hash.clone(),
        hash: "0".repeat(64),
    };
    let body = serde_json::to_string(&event).unwrap().replace('\'', "''");
    app.db
        .execute(&format!(
            "INSERT INTO events (game_id, seq, kind, seat, hash, prev_hash, body) VALUES ('{game_id}', 1, 'Command', '{seat}', '{}', '{}', '{body}')",
            event.hash, event.prev_hash
        ))
        .await;
    if app.db.backend() == "sqlite" {
        app.db
            .execute(&format!(
                "UPDATE games SET next_seq = 2 WHERE game_id = '{game_id}'"
            ))
            .await;
    }
}

/// What a check must leave as it found it: the rows of every table that holds a game, and
/// every event's stored text.
async fn contents(app: &TestApp) -> Value {
    let mut out = serde_json::Map::new();
    for table in ["games", "events", "seats", "secrets", "snapshots", "outbox"] {
        out.insert(table.into(), json!(app.db.count_rows(table).await));
    }
    for id in app.games.games_to_check(true).await.unwrap() {
        let events = app.store.events_json(&id, 0, None).await.unwrap();
        out.insert(id.to_string(), json!(events));
    }
    Value::Object(out)
}

async fn check_passes_a_database_whose_games_all_load(app: TestApp) {
    // A game of every ruleset, a few moves in; every third event snapshotted, so that some load
    // from a snapshot as the service would load them.
    let games = app.games.clone().with_snapshots_every(3);
    let mut rng = Rng::new(37);
    let mut running = 0;
    for (n, ruleset) in rules::all().iter().enumerate() {
        let created = games.create(bot::new_game(ruleset, n)).await.unwrap();
        for _ in 0..8 {
            if !bot::bot_move(&games, &created.game_id, &mut rng)
                .await
                .unwrap()
            {
                break;
            }
        }
        if !games.load(&created.game_id).await.unwrap().game.ended {
            running += 1;
        }
    }
    for _ in 0..100 {
        if app.db.count_rows("snapshots").await > 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(
        app.db.count_rows("snapshots").await > 0,
        "snapshots were written"
    );
    let out = check(&app, &[]).await;
    assert!(
        out.status.success(),
        "{}{}",
        stdout(&out),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        stdout(&out),
        format!("{running} games (not finished) checked, 0 would not load\n")
    );
}

async fn check_names_a_game_whose_log_no_longer_folds_and_changes_nothing(app: TestApp) {
    let (healthy, _) = open_table_game(&app.games).await;
    let (broken, _) = open_table_game(&app.games).await;
    write_refused_move(&app, &broken).await;
    let before = contents(&app).await;
    let out = check(&app, &[]).await;
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let text = stdout(&out);
    let version = rules::find(rules::open_table::ID).unwrap().info().version;
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with(&format!(
            "game {broken}: open-table version {version}, seq 1: the rules refuse this event: "
        )) && lines[0].contains("an empty move"),
        "{text}"
    );
    assert!(!text.contains(healthy.as_str()), "{text}");
    assert_eq!(lines[1], "2 games (not finished) checked, 1 would not load");
    // `--all` counts the finished games too; here there are none.
    let out = check(&app, &["--all"]).await;
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).ends_with("\n2 games checked, 1 would not load\n"),
        "{}",
        stdout(&out)
    );
    assert_eq!(contents(&app).await, before, "a check changes nothing");
}

async fn a_game_that_does_not_load_answers_a_page_and_an_api_error_naming_the_problem(
    app: TestApp,
) {
    let (game_id, token) = open_table_game(&app.games).await;
    // Served once, so that the server holds the game folded: the new event must still be seen.
    let page = app
        .http
        .get(app.url(&format!("/games/{game_id}/watch")))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    write_refused_move(&app, &game_id).await;

    let answer = app
        .http
        .get(app.url(&format!("/api/games/{game_id}/moves")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 503);
    let body: Value = answer.json().await.unwrap();
    assert_eq!(body["error"], "game_does_not_load", "{body}");
    assert_eq!(body["game_id"], game_id.as_str());
    assert_eq!(body["ruleset"], "open-table");
    assert_eq!(body["seq"], 1);
    let problem = body["problem"].as_str().unwrap();
    assert!(problem.contains("an empty move"), "{body}");
    let message = body["message"].as_str().unwrap();
    assert!(
        message.contains(game_id.as_str())
            && message.contains("event 1")
            && message.contains(problem),
        "{body}"
    );
    assert!(message.contains("despatch check"), "{body}");

    // A move is refused the same way, and nothing is recorded.
    let answer = app
        .http
        .post(app.url(&format!("/api/games/{game_id}/moves")))
        .bearer_auth(&token)
        .json(&json!({ "expected_seq": 2, "command": "roll 2d6" }))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 503);
    let body: Value = answer.json().await.unwrap();
    assert_eq!(body["error"], "game_does_not_load", "{body}");
    assert_eq!(app.db.count_rows("events").await, 2);

    let page = app
        .http
        .get(app.url(&format!("/games/{game_id}/watch")))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 503);
    assert!(page
        .headers()
        .get("content-type")
        .unwrap()
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let html = page.text().await.unwrap();
    assert!(html.contains("This game cannot be shown"), "{html}");
    assert!(
        html.contains(game_id.as_str()) && html.contains("its event 1 does not fold"),
        "{html}"
    );
    assert!(html.contains("an empty move"), "{html}");
    assert!(html.contains("despatch check"), "{html}");
    assert!(html.contains("<a href=\"/\">"), "a way back: {html}");
}

async fn check_folds_the_whole_log_of_a_game_that_loads_from_its_snapshot(app: TestApp) {
    // A game snapshotted every third event, a dozen moves in.
    let games = app.games.clone().with_snapshots_every(3);
    let (game_id, _) = open_table_game(&games).await;
    let mut rng = Rng::new(7);
    for _ in 0..12 {
        assert!(bot::bot_move(&games, &game_id, &mut rng).await.unwrap());
    }
    for _ in 0..100 {
        if app.db.count_rows("snapshots").await > 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(
        app.db.count_rows("snapshots").await > 0,
        "a snapshot was written"
    );
    // Event 1, before the snapshot, becomes a move the rules refuse: the game still loads from
    // its snapshot, but its log page and its export, which fold the whole log, would fail.
    let mut event = app
        .store
        .events(&game_id, 1, Some(2))
        .await
        .unwrap()
        .remove(0);
    event.payload = json!({ "command": {} });
    event.dice = None;
    let body = serde_json::to_string(&event).unwrap().replace('\'', "''");
    app.db
        .execute(&format!(
            "UPDATE events SET body = '{body}' WHERE game_id = '{game_id}' AND seq = 1"
        ))
        .await;
    let out = check(&app, &[]).await;
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let text = stdout(&out);
    let first = text.lines().next().unwrap();
    assert!(
        first.starts_with(&format!("game {game_id}: open-table version "))
            && first.contains(", seq 1: ")
            && first.contains("the game loads from its snapshot at seq"),
        "{text}"
    );
    // The log page of a server started on the database now (holding no fold of the game, as
    // after an upgrade) says the same, not "the server failed".
    let server = common::over(app.store.clone()).serve().await;
    let page = app
        .http
        .get(format!("{}/games/{game_id}/watch?log=all", server.base))
        .send()
        .await
        .unwrap();
    let status = page.status();
    let html = page.text().await.unwrap();
    assert_eq!(status, 503, "{html}");
    assert!(html.contains("its event 1 does not fold"), "{html}");
}

/// A game created under a rules version this build does not play (a build that rolled back,
/// or a version never released) is named by `check` and answered with the versions the build
/// plays by a server that meets it, never folded under rules it did not begin with.
async fn check_and_the_server_name_a_game_of_a_rules_version_this_build_does_not_play(
    app: TestApp,
) {
    let (game_id, _) = open_table_game(&app.games).await;
    let ruleset = rules::find(rules::open_table::ID).unwrap();
    let played = despatch::engine::game::versions_text(ruleset.versions());
    let first = app.store.events(&game_id, 0, Some(1)).await.unwrap();
    let mut created = first[0].clone();
    created.payload["ruleset_version"] = json!("0");
    let body = serde_json::to_string(&created).unwrap().replace('\'', "''");
    app.db
        .execute(&format!(
            "UPDATE events SET body = '{body}' WHERE game_id = '{game_id}' AND seq = 0"
        ))
        .await;
    let refusal = format!(
        "this game was created under open-table rules version 0, which this build does not play (it plays {played})"
    );
    let out = check(&app, &[]).await;
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with(&format!("game {game_id}: open-table version 0, seq 0: ")),
        "{text}"
    );
    assert!(text.contains(&refusal), "{text}");
    // A server started on the database now (holding no fold of the game, as after an upgrade).
    let server = common::over(app.store.clone()).serve().await;
    let answer = app
        .http
        .get(format!("{}/api/games/{game_id}", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 503);
    let body: Value = answer.json().await.unwrap();
    assert_eq!(body["error"], "game_does_not_load", "{body}");
    assert!(body.to_string().contains(&refusal), "{body}");
}
