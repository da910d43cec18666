//! The golden databases (issue 37): a SQLite file and a PostgreSQL dump made by this build,
//! holding games of every ruleset in every state a server keeps — running with a clock,
//! deadlines, a seat on vacation and a webhook; a sealed choice committed and not yet revealed;
//! finished — with the outbox rows their moves queued and the snapshots they wrote. Every later
//! build must migrate them and serve every game in them (`tests/service/golden_databases.rs`;
//! docs/operations.md, "Golden databases").
//!
//! ```sh
//! cargo run --example golden_databases -- tests/golden/databases/<version>
//! ```
//!
//! writes `despatch.sqlite`, `despatch.postgres.sql` (plain SQL from `pg_dump`, restored with
//! `psql`) and `manifest.json` (the build, the key the secrets are sealed with, and each
//! database's games and what state each was left in) into the folder. PostgreSQL is reached
//! through `DESPATCH_TEST_POSTGRES` (default `postgres://postgres@127.0.0.1:5432/postgres`),
//! which must be allowed to create databases; `pg_dump` must be on the path. The dice are the
//! server's own, so two runs make different games of the same shapes.

#[path = "../tests/common/bot.rs"]
mod bot;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use despatch::engine::bot::Rng;
use despatch::engine::ruleset::{Ruleset, Seat};
use despatch::games::clock::ClockChoice;
use despatch::games::{Caller, GameId, Games, NewSeat, NewWebhook, VacationRequest};
use despatch::rules;
use despatch::store::Store;
use serde_json::{json, Value};
use sqlx::{AssertSqlSafe, Connection, Executor};

/// The secret the golden databases' secrets at rest are sealed with (and their links signed
/// with): public, since the games in them are made up.
const SECRET: &str = "despatch golden databases: not a real key";

/// Events between snapshots: small, so that every game past a few moves has one.
const SNAPSHOT_EVERY: u64 = 4;

/// How many moves a bot plays at most to reach a sealed choice, or the end.
const MOVES: usize = 1500;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let out = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            eprintln!(
                "usage: cargo run --example golden_databases -- tests/golden/databases/<version>"
            );
            std::process::exit(2);
        });
    std::fs::create_dir_all(&out).expect("the folder can be made");
    let sqlite = sqlite(&out).await;
    let postgres = postgres(&out).await;
    let manifest = json!({
        "made_by": format!("despatch {}", env!("CARGO_PKG_VERSION")),
        "secret_key": SECRET,
        "sqlite": { "file": "despatch.sqlite", "games": sqlite },
        "postgres": { "file": "despatch.postgres.sql", "games": postgres },
    });
    let text = serde_json::to_string_pretty(&manifest).expect("serialisable") + "\n";
    std::fs::write(out.join("manifest.json"), text).expect("the manifest is written");
    println!("wrote the golden databases to {}", out.display());
}

/// The SQLite database: made in a scratch folder, then copied whole into one file
/// (`VACUUM INTO`: no write-ahead log beside it).
async fn sqlite(out: &Path) -> Value {
    let scratch = tempfile::tempdir().expect("a scratch folder");
    let url = format!("sqlite:{}?mode=rwc", scratch.path().join("d.db").display());
    let games = populate(&url, scratch.path()).await;
    let file = out.join("despatch.sqlite");
    if file.exists() {
        std::fs::remove_file(&file).expect("the old file can be removed");
    }
    let mut c = sqlx::SqliteConnection::connect(&url).await.expect("open");
    let into = file.display().to_string().replace('\'', "''");
    c.execute(AssertSqlSafe(format!("VACUUM INTO '{into}'")))
        .await
        .expect("the database is copied into one file");
    games
}

/// The PostgreSQL dump: a database of its own, dumped as plain SQL, then dropped.
async fn postgres(out: &Path) -> Value {
    let admin = std::env::var("DESPATCH_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
    let mut suffix = [0u8; 6];
    getrandom::fill(&mut suffix).expect("random");
    let name = format!("despatch_golden_{}", hex::encode(suffix));
    let mut c = sqlx::PgConnection::connect(&admin)
        .await
        .expect("PostgreSQL answers at DESPATCH_TEST_POSTGRES");
    c.execute(AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .await
        .expect("the database is created");
    let (base, query) = admin.split_once('?').unwrap_or((&admin, ""));
    let host = &base[..base.rfind('/').expect("a database URL")];
    let url = if query.is_empty() {
        format!("{host}/{name}")
    } else {
        format!("{host}/{name}?{query}")
    };
    let scratch = tempfile::tempdir().expect("a scratch folder");
    let games = populate(&url, scratch.path()).await;
    let dumped = std::process::Command::new("pg_dump")
        .args(["--no-owner", "--no-privileges", "--file"])
        .arg(out.join("despatch.postgres.sql"))
        .arg(&url)
        .status()
        .expect("pg_dump runs");
    assert!(dumped.success(), "pg_dump failed");
    c.execute(AssertSqlSafe(format!("DROP DATABASE {name} WITH (FORCE)")))
        .await
        .expect("the database is dropped");
    games
}

/// Fills the database at `url` (migrated, its secrets sealed with `SECRET`): for every ruleset
/// a game left running, one left with a sealed choice pending, and one finished. The games
/// made, and their states, for the manifest.
async fn populate(url: &str, scratch: &Path) -> Value {
    let store = Store::connect(url).await.expect("the database opens");
    store.migrate().await.expect("the database migrates");
    let store = store
        .unlock(Some(SECRET), &scratch.join("unused.key"))
        .await
        .expect("the secrets open")
        .store;
    let games = Games::new(store, "https://despatch.golden.test")
        .with_secret(Some(SECRET))
        .with_snapshots_every(SNAPSHOT_EVERY);
    let mut rng = Rng::new(0x601d);
    let mut made = Vec::new();
    for (n, ruleset) in rules::all().iter().enumerate() {
        let id = ruleset.info().id;
        let running = running(&games, ruleset, n, &mut rng).await;
        made.push(json!({ "game_id": running, "ruleset": id, "state": "running: a clock with deadlines, a seat on vacation, a webhook, notices queued" }));
        let (sealed, tried) = sealed(&games, ruleset, n, &mut rng).await;
        match sealed {
            Some(game_id) => made.push(json!({ "game_id": game_id, "ruleset": id, "state": "a sealed choice committed, not yet revealed" })),
            None => println!("{id}: the bots met no sealed choice within {MOVES} moves of any scenario"),
        }
        // The scenarios tried on the way are ended, so that every running game is one whose
        // bots were still finding moves.
        for game_id in tried {
            end(&games, &game_id).await;
            made.push(json!({ "game_id": game_id, "ruleset": id, "state": "finished" }));
        }
        let finished = finished(&games, ruleset, n, &mut rng).await;
        made.push(json!({ "game_id": finished, "ruleset": id, "state": "finished" }));
    }
    // The snapshots are written in tasks of their own: let them land before the copy is made.
    tokio::time::sleep(Duration::from_secs(2)).await;
    Value::Array(made)
}

/// A new game of `ruleset`, its seats with email addresses (so that moves queue notices), with
/// the `relaxed` clock when `clocked`.
async fn create(games: &Games, ruleset: &Arc<dyn Ruleset>, n: usize, clocked: bool) -> GameId {
    let mut new = bot::new_game(ruleset, n);
    for (i, seat) in new.seats.iter_mut().enumerate() {
        seat.email = Some(format!("player{i}.game{n}@golden.test"));
    }
    if clocked {
        new.clock = Some(ClockChoice::Preset("relaxed".into()));
    }
    games
        .create(new)
        .await
        .expect("the game is created")
        .game_id
}

/// The seats of a game, as its `GameCreated` names them.
async fn seats(games: &Games, game_id: &GameId) -> Vec<Seat> {
    let l = games.load(game_id).await.expect("the game loads");
    l.game
        .created
        .seats
        .iter()
        .map(|s| s.seat.clone())
        .collect()
}

/// A running game: clocked, a webhook on its first seat, a vacation ahead for its second,
/// a dozen moves in.
async fn running(games: &Games, ruleset: &Arc<dyn Ruleset>, n: usize, rng: &mut Rng) -> GameId {
    let game_id = create(games, ruleset, n, true).await;
    let seats = seats(games, &game_id).await;
    let caller = |seat: &Seat| Caller {
        game_id: game_id.clone(),
        seat: seat.clone(),
    };
    let hook = NewWebhook {
        url: "https://hooks.golden.invalid/despatch".into(),
        scope: None,
        format: None,
    };
    games
        .add_webhook(&caller(&seats[0]), &hook)
        .await
        .expect("the webhook is added");
    let now = chrono::Utc::now();
    let vacation = VacationRequest {
        from: (now + chrono::Duration::days(1)).to_rfc3339(),
        until: (now + chrono::Duration::days(4)).to_rfc3339(),
    };
    games
        .take_vacation(&caller(&seats[1]), &vacation)
        .await
        .expect("the vacation is taken");
    for _ in 0..12 {
        if !bot::bot_move(games, &game_id, rng).await.expect("a move") {
            break;
        }
    }
    game_id
}

/// A game stopped at its first sealed choice committed and not yet revealed, of the first
/// scenario in which the bots meet one; `None` when they meet none. The games that met none stay
/// in the database, running.
async fn sealed(
    games: &Games,
    ruleset: &Arc<dyn Ruleset>,
    n: usize,
    rng: &mut Rng,
) -> (Option<GameId>, Vec<GameId>) {
    let mut tried = Vec::new();
    for scenario in ruleset.info().scenarios {
        let count = scenario.min_seats.max(2).min(scenario.max_seats);
        let mut new = bot::new_game(ruleset, n);
        new.scenario = scenario.id.clone();
        new.seats = (0..count)
            .map(|i| NewSeat {
                seat: scenario.seats.get(i).cloned(),
                name: match scenario.seats.get(i) {
                    Some(id) => format!("{id} {n}"),
                    None => format!("player{i}"),
                },
                email: Some(format!("player{i}.game{n}@golden.test")),
            })
            .collect();
        let Ok(created) = games.create(new).await else {
            continue;
        };
        let game_id = created.game_id;
        for _ in 0..MOVES {
            if !bot::bot_move(games, &game_id, rng).await.expect("a move") {
                break;
            }
            let l = games.load(&game_id).await.expect("the game loads");
            if l.game.ended {
                break;
            }
            if !l.game.open_seals.is_empty() {
                return (Some(game_id), tried);
            }
        }
        tried.push(game_id);
    }
    (None, tried)
}

/// A finished game: played by the bots to its end, or ended by resignations.
async fn finished(games: &Games, ruleset: &Arc<dyn Ruleset>, n: usize, rng: &mut Rng) -> GameId {
    let game_id = create(games, ruleset, n, false).await;
    for _ in 0..MOVES {
        if !bot::bot_move(games, &game_id, rng).await.expect("a move") {
            break;
        }
    }
    end(games, &game_id).await;
    game_id
}

/// Ends a game the bots did not finish: its seats resign in turn.
async fn end(games: &Games, game_id: &GameId) {
    for seat in seats(games, game_id).await {
        if games.load(game_id).await.expect("loads").game.ended {
            break;
        }
        let caller = Caller {
            game_id: game_id.clone(),
            seat,
        };
        games.resign(&caller).await.expect("the seat resigns");
    }
    assert!(
        games.load(game_id).await.expect("loads").game.ended,
        "{game_id} ended"
    );
}
