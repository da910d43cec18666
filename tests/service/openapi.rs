//! The OpenAPI document held to the server that serves it, over real HTTP (a server on port 0,
//! PostgreSQL and SQLite): openapi-spec-validator checks the document, and schemathesis sends
//! generated requests — valid and not — with a seat's token and fails on any 5xx and on any
//! status the document does not declare for that operation. Both tools come from PyPI into the
//! virtual environment that ./scripts/test makes and names in `DESPATCH_TEST_PYTHON_VENV`.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::TestApp;
use despatch::http::methods;
use serde_json::{json, Value};

async fn spawn(backend: common::Backend) -> TestApp {
    common::spawn_app(backend).spawn().await
}

on_both_backends!(
    the_document_validates_and_the_live_server_answers_only_what_it_declares,
    every_documented_path_answers_other_methods_with_405_and_allow,
);

/// The virtual environment with openapi-spec-validator and schemathesis. Never skipped: a bare
/// `cargo test` fails here and says how to run the tests.
fn venv() -> PathBuf {
    let dir = std::env::var_os("DESPATCH_TEST_PYTHON_VENV").unwrap_or_else(|| {
        panic!(
            "DESPATCH_TEST_PYTHON_VENV is not set: run the tests with ./scripts/test, which \
             installs openapi-spec-validator and schemathesis from PyPI into a virtual \
             environment and names it there"
        )
    });
    PathBuf::from(dir)
}

fn tool(venv: &Path, name: &str) -> PathBuf {
    let path = venv.join("bin").join(name);
    assert!(
        path.exists(),
        "{} is missing: run ./scripts/test, which installs it",
        path.display()
    );
    path
}

/// Runs `command` to its end, or kills it after `limit` (a guard against a hang, not a
/// measure of speed).
fn run(mut command: Command, limit: Duration) -> Output {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tool starts");
    let started = Instant::now();
    while child
        .try_wait()
        .expect("the tool can be waited for")
        .is_none()
    {
        if started.elapsed() > limit {
            child.kill().ok();
            let out = child.wait_with_output().expect("the killed tool is reaped");
            panic!(
                "{command:?} was still running after {limit:?}:\n{}",
                String::from_utf8_lossy(&out.stdout)
            );
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    child.wait_with_output().expect("the tool's output is read")
}

async fn document(app: &TestApp) -> Value {
    let resp = app
        .http
        .get(format!("{}/api/openapi.json", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    resp.json().await.unwrap()
}

async fn the_document_validates_and_the_live_server_answers_only_what_it_declares(app: TestApp) {
    let venv = venv();
    let dir = tempfile::tempdir().unwrap();
    let doc = document(&app).await;
    let file = dir.path().join("openapi.json");
    std::fs::write(&file, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();

    let mut validate = Command::new(tool(&venv, "openapi-spec-validator"));
    validate.arg(&file);
    let out = tokio::task::spawn_blocking(move || run(validate, Duration::from_secs(120)))
        .await
        .unwrap();
    assert!(
        out.status.success(),
        "openapi-spec-validator refuses the document:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );

    // A game and one seat's token, so that the seat's operations get past authentication.
    let resp = app
        .http
        .post(format!("{}/api/games", app.base))
        .json(&json!({ "ruleset": "open-table", "seats": [{ "name": "Anna" }, { "name": "Ben" }] }))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 201);
    let created: Value = resp.json().await.unwrap();
    let game_id = created["game_id"].as_str().unwrap().to_owned();
    let token = created["seats"][0]["token"].as_str().unwrap().to_owned();

    // Every `{game_id}` is the game's, so requests reach the handlers' logic rather than stop
    // at 404.
    let config = dir.path().join("schemathesis.toml");
    std::fs::write(
        &config,
        format!("[parameters]\n\"path.game_id\" = \"{game_id}\"\n"),
    )
    .unwrap();
    let mut schemathesis = Command::new(tool(&venv, "schemathesis"));
    schemathesis
        .current_dir(dir.path())
        .arg("--config-file")
        .arg(&config)
        .arg("run")
        .arg(format!("{}/api/openapi.json", app.base))
        .args(["--header", &format!("Authorization: Bearer {token}")])
        .args(["--checks", "not_a_server_error,status_code_conformance"])
        .args(["--max-examples", "10", "--seed", "15", "--workers", "1"])
        .args(["--request-timeout", "30", "--no-color"])
        .args(["--generation-database", "none"])
        // The live stream answers 200 and never ends by design: there is nothing to read to
        // its end. Its errors are the same as the view's.
        .args(["--exclude-path", "/api/games/{game_id}/stream"])
        .args(["--report", "junit", "--report-dir"])
        .arg(dir.path().join("report"));
    let out = tokio::task::spawn_blocking(move || run(schemathesis, Duration::from_secs(600)))
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "schemathesis found answers the document does not allow:\n{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("passed") && !stdout.contains("Tested: 0"),
        "schemathesis ran no test:\n{stdout}"
    );
}

/// The table that answers 405 (src/http/methods.rs) knows every operation of the document, and
/// a method the document does not list answers 405 with the ones it does.
async fn every_documented_path_answers_other_methods_with_405_and_allow(app: TestApp) {
    let doc = document(&app).await;
    let paths = doc["paths"].as_object().unwrap();
    for (path, operations) in paths {
        let mut documented: Vec<String> = operations
            .as_object()
            .unwrap()
            .keys()
            .map(|m| m.to_uppercase())
            .collect();
        documented.sort();
        let table = methods::routes()
            .iter()
            .find(|(pattern, _)| pattern == path)
            .unwrap_or_else(|| panic!("{path} is documented but not in src/http/methods.rs"));
        let mut listed: Vec<String> = table.1.iter().map(|m| m.to_string()).collect();
        listed.sort();
        assert_eq!(listed, documented, "the methods of {path}");

        let concrete = path
            .replace("{game_id}", "no-such-game")
            .replace("{seq}", "0")
            .replace("{hook_id}", "h1");
        let unlisted = ["GET", "POST", "PUT", "DELETE", "PATCH"]
            .into_iter()
            .find(|m| !documented.iter().any(|d| d == m))
            .unwrap();
        let resp = app
            .http
            .request(unlisted.parse().unwrap(), format!("{}{concrete}", app.base))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status().as_u16(), 405, "{unlisted} {concrete}");
        let allow = resp.headers()["allow"].to_str().unwrap().to_owned();
        assert_eq!(allow, documented.join(", "), "Allow of {concrete}");
        if path.starts_with("/api/") {
            let body: Value = resp.json().await.unwrap();
            assert_eq!(body["error"], "method_not_allowed", "{body}");
        }
    }
    // The pages too: a form's path answers GET with 405, a page's path answers PUT so.
    for (method, path, allow) in [
        ("GET", "/games", "POST"),
        ("PUT", "/games/no-such-game", "GET"),
        ("DELETE", "/verify", "GET, POST"),
        ("GET", "/api/inbound/email", "POST"),
    ] {
        let resp = app
            .http
            .request(method.parse().unwrap(), format!("{}{path}", app.base))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status().as_u16(), 405, "{method} {path}");
        assert_eq!(resp.headers()["allow"], allow, "Allow of {path}");
    }
    // An unknown path is still 404.
    let resp = app
        .http
        .get(format!("{}/api/no-such-thing", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 404);
}
