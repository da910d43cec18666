//! The golden databases (issue 37; docs/operations.md, "Golden databases"): every database a
//! released build made (`tests/golden/databases/<version>/`, by `cargo run --example
//! golden_databases`) is restored into a fresh database and migrated by this build as a server
//! migrates it; every game in it loads, takes a move, plays on to its end, and exports a log that
//! verifies.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use despatch::engine::bot::Rng;
use despatch::engine::ruleset::Viewer;
use despatch::engine::verify;
use despatch::games::{Caller, GameId, Games, ServiceError};
use despatch::rules;
use despatch::store::Store;
use serde_json::Value;
use sqlx::Connection;

use super::common::{self, bot};

/// One folder per released version.
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/databases");

/// The released versions' folders, oldest name first.
fn releases() -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(ROOT)
        .expect("tests/golden/databases is there")
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.is_dir())
        .collect();
    found.sort();
    assert!(!found.is_empty(), "no golden database under {ROOT}");
    found
}

fn manifest(release: &Path) -> Value {
    let text = std::fs::read_to_string(release.join("manifest.json")).expect("manifest.json");
    serde_json::from_str(&text).expect("manifest.json is JSON")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_golden_sqlite_database_migrates_and_serves_every_game() {
    for release in releases() {
        let manifest = manifest(&release);
        let copy = tempfile::tempdir().unwrap();
        let file = copy.path().join("despatch.db");
        let golden = manifest["sqlite"]["file"].as_str().unwrap();
        std::fs::copy(release.join(golden), &file).expect("the golden file is copied");
        let url = format!("sqlite:{}?mode=rwc", file.display());
        holds_every_kind_of_row(&url, &release).await;
        let store = open(&url, &manifest, copy.path()).await;
        serve_every_game(store, &manifest["sqlite"]["games"], &release).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_golden_postgres_dump_restores_migrates_and_serves_every_game() {
    for release in releases() {
        let manifest = manifest(&release);
        let db = common::empty_postgres().await;
        let dump = release.join(manifest["postgres"]["file"].as_str().unwrap());
        let restored = std::process::Command::new("psql")
            .args(["--quiet", "--no-psqlrc", "-v", "ON_ERROR_STOP=1", "--file"])
            .arg(&dump)
            .arg(db.url())
            .output()
            .expect("psql runs (Debian's postgresql-client)");
        assert!(
            restored.status.success(),
            "{} does not restore: {}",
            dump.display(),
            String::from_utf8_lossy(&restored.stderr)
        );
        holds_every_kind_of_row(db.url(), &release).await;
        let keys = tempfile::tempdir().unwrap();
        let store = open(db.url(), &manifest, keys.path()).await;
        serve_every_game(store, &manifest["postgres"]["games"], &release).await;
    }
}

/// The golden database holds what it promises besides games: clocks, webhooks, notices in the
/// outbox, snapshots, sealed secrets, and a vacation in some game's log.
async fn holds_every_kind_of_row(url: &str, release: &Path) {
    let count = |sql: &'static str| {
        let url = url.to_owned();
        async move {
            if url.starts_with("sqlite:") {
                let mut c = sqlx::SqliteConnection::connect(&url).await.unwrap();
                sqlx::query_scalar::<_, i64>(sql)
                    .fetch_one(&mut c)
                    .await
                    .unwrap()
            } else {
                let mut c = sqlx::PgConnection::connect(&url).await.unwrap();
                sqlx::query_scalar::<_, i64>(sql)
                    .fetch_one(&mut c)
                    .await
                    .unwrap()
            }
        }
    };
    for (what, sql) in [
        ("clocks", "SELECT count(*) FROM clocks"),
        ("webhooks", "SELECT count(*) FROM webhooks"),
        ("outbox rows", "SELECT count(*) FROM outbox"),
        ("snapshots", "SELECT count(*) FROM snapshots"),
        ("secrets", "SELECT count(*) FROM secrets"),
        (
            "a vacation",
            "SELECT count(*) FROM events WHERE body LIKE '%\"clock\":\"vacation\"%'",
        ),
    ] {
        assert!(count(sql).await > 0, "{}: no {what}", release.display());
    }
}

/// The database at `url` opened as the service opens it: migrated (what `despatch migrate` and
/// `serve` run), its secrets unlocked with the key the manifest names.
async fn open(url: &str, manifest: &Value, scratch: &Path) -> Store {
    let store = Store::connect(url).await.expect("the database opens");
    store
        .migrate()
        .await
        .expect("this build migrates the golden database (migrations are forward-only)");
    let secret = manifest["secret_key"].as_str().expect("the manifest's key");
    store
        .unlock(Some(secret), &scratch.join("unused.key"))
        .await
        .expect("the secrets at rest open with the golden key")
        .store
}

/// Every game the manifest lists is the database's, loads, plays on and verifies.
async fn serve_every_game(store: Store, listed: &Value, release: &Path) {
    let release = release.display();
    let games = Games::new(store, "http://despatch.test");
    let listed = listed.as_array().expect("the manifest lists games");
    let ids: BTreeSet<String> = listed
        .iter()
        .map(|g| g["game_id"].as_str().unwrap().to_owned())
        .collect();
    let stored: BTreeSet<String> = games
        .games_to_check(true)
        .await
        .unwrap()
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(
        stored, ids,
        "{release}: the database holds the games listed"
    );
    let mut rng = Rng::new(37);
    for entry in listed {
        let game_id = &GameId::parse(entry["game_id"].as_str().unwrap()).unwrap();
        let what = format!(
            "{release}: {} game {game_id} ({})",
            entry["ruleset"], entry["state"]
        );
        assert_eq!(games.check_loads(game_id).await.unwrap(), None, "{what}");
        let l = games
            .load(game_id)
            .await
            .unwrap_or_else(|e| panic!("{what} does not load: {e}"));
        assert_eq!(l.game.ended, entry["state"] == "finished", "{what}");
        if !l.game.ended {
            let mut moved = false;
            for _ in 0..10 {
                moved = bot::bot_move(&games, game_id, &mut rng)
                    .await
                    .unwrap_or_else(|e| panic!("{what}: a move fails: {e}"));
                if moved {
                    break;
                }
            }
            assert!(moved, "{what}: no move could be played");
            // Played on to its end (its seats resign), so that its export reveals the hidden
            // seed and verifies whole: a running game's export cannot re-fold what it hides.
            end(&games, game_id, &what).await;
        }
        let export = games
            .export(game_id, &Viewer::Spectator)
            .await
            .unwrap_or_else(|e| panic!("{what}: no export: {e}"));
        let report = verify::verify(&export, &rules::find);
        assert!(
            report.ok(),
            "{what}: the export does not verify: {}",
            report.render()
        );
    }
}

/// Ends a game: its seats resign in turn until it is over.
async fn end(games: &Games, game_id: &GameId, what: &str) {
    let seats = games
        .load(game_id)
        .await
        .unwrap()
        .game
        .created
        .seats
        .clone();
    for seat in seats {
        if games.load(game_id).await.unwrap().game.ended {
            break;
        }
        let caller = Caller {
            game_id: game_id.clone(),
            seat: seat.seat,
        };
        match games.resign(&caller).await {
            // A seat that resigned before, say.
            Ok(_) | Err(ServiceError::Rule(_)) => {}
            Err(e) => panic!("{what}: a resignation fails: {e}"),
        }
    }
    assert!(
        games.load(game_id).await.unwrap().game.ended,
        "{what}: the game ends"
    );
}
