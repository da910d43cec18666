//! Secrets at rest (`store::sealing`): what the `secrets` table and webhook secrets hold is
//! sealed under a key kept outside the database, so a copied database predicts no die. Each test
//! runs on PostgreSQL and on SQLite: read the tables with plain SQL, swap rows, take the key
//! away, give a wrong one, rotate it, and start on a database written before sealing existed.

use crate::common;

use std::path::Path;
use std::process::{Command, Output};

use despatch::engine::ruleset::{Seat, Viewer};
use despatch::engine::verify::verify;
use despatch::games::{Caller, CommandInput, GameId, Games, NewGame, NewSeat, NewWebhook, Submit};
use despatch::rules;
use despatch::store::sealing::key_id;
use despatch::store::{SecretKey, Store, StoreError};
use serde_json::Value;

use common::TEST_SECRET;

/// How a value sealed under `secret`'s key begins: `v2:` and the key's id.
fn sealed_by(secret: &str) -> String {
    format!("v2:{}:", key_id(secret))
}

/// The tests drive the store and the games service directly: a fresh store and its database.
async fn spawn(backend: common::Backend) -> (Store, common::TestDb) {
    common::fresh(backend).await
}

/// An open-table game between anna and bert, with a webhook.
struct Table {
    games: Games,
    game_id: GameId,
    hook_secret: String,
}

async fn table(store: &Store) -> Table {
    // The hook's address is on this machine: the operator's allowance lets it be added.
    let games = common::over(store.clone())
        .webhook_allow_hosts("127.0.0.1")
        .games();
    let created = games
        .create(NewGame {
            name: None,
            ruleset: "open-table".into(),
            scenario: "default".into(),
            options: Value::Null,
            seats: ["anna", "bert"]
                .iter()
                .map(|s| NewSeat {
                    seat: Some((*s).into()),
                    name: (*s).into(),
                    email: None,
                })
                .collect(),
            clock: None,
        })
        .await
        .unwrap();
    let hook = games
        .add_webhook(
            &caller(&created.game_id, "anna"),
            &NewWebhook {
                url: "http://127.0.0.1:9/hook".into(),
                scope: None,
                format: None,
            },
        )
        .await
        .unwrap();
    Table {
        games,
        game_id: created.game_id,
        hook_secret: hook.secret.expect("shown once"),
    }
}

fn caller(game_id: &GameId, seat: &str) -> Caller {
    Caller {
        game_id: game_id.clone(),
        seat: Seat::parse(seat).unwrap(),
    }
}

async fn play(games: &Games, game_id: &GameId, seat: &str, order: &str) {
    let next = games.load(game_id).await.unwrap().game.next_seq;
    games
        .submit(
            &caller(game_id, seat),
            Submit {
                expected_seq: next,
                command: CommandInput::Text(order.into()),
                client_entropy: format!("{seat}-{next}"),
                idempotency_key: None,
            },
        )
        .await
        .unwrap_or_else(|e| panic!("{seat} plays '{order}': {e}"));
}

/// The opening: dice rolled and a note sealed, so every kind of secret is stored.
async fn opening(games: &Games, game_id: &GameId) {
    play(
        games,
        game_id,
        "anna",
        "Advance\nroll 2d6 attack\nseal the ambush is at the ford",
    )
    .await;
    play(games, game_id, "bert", "Hold the ridge\nroll 1d6 morale").await;
}

/// The end: the note revealed, dice rolled, a draw agreed (which reveals the hidden seed).
async fn ending(games: &Games, game_id: &GameId) {
    play(games, game_id, "anna", "reveal 1\nroll 1d6\nresult draw").await;
    play(games, game_id, "bert", "result draw").await;
}

async fn verifies(games: &Games, game_id: &GameId) {
    let text = games.export(game_id, &Viewer::Spectator).await.unwrap();
    let report = verify(&text, &rules::find);
    assert!(report.ok(), "the export verifies:\n{}", report.render());
    assert!(report.complete, "the finished game's export is complete");
}

/// `(name, value)` of a game's rows of `secrets`, as SQL reads them.
async fn raw_secrets(store: &Store, game_id: &GameId) -> Vec<(String, String)> {
    let sql = "SELECT name, value FROM secrets WHERE game_id = $1 ORDER BY name";
    match store {
        Store::Postgres(s) => sqlx::query_as(sql).bind(game_id).fetch_all(s.pool()).await,
        Store::Sqlite(s) => sqlx::query_as(sql).bind(game_id).fetch_all(s.pool()).await,
    }
    .unwrap()
}

/// `(hook_id, secret)` of a game's webhooks, as SQL reads them.
async fn raw_webhooks(store: &Store, game_id: &GameId) -> Vec<(String, String)> {
    let sql = "SELECT hook_id, secret FROM webhooks WHERE game_id = $1 ORDER BY hook_id";
    match store {
        Store::Postgres(s) => sqlx::query_as(sql).bind(game_id).fetch_all(s.pool()).await,
        Store::Sqlite(s) => sqlx::query_as(sql).bind(game_id).fetch_all(s.pool()).await,
    }
    .unwrap()
}

/// Runs one statement with text parameters.
async fn execute(store: &Store, sql: &'static str, args: &[&str]) -> u64 {
    macro_rules! run {
        ($pool:expr) => {{
            let mut q = sqlx::query(sql);
            for a in args {
                q = q.bind(*a);
            }
            q.execute($pool).await.unwrap().rows_affected()
        }};
    }
    match store {
        Store::Postgres(s) => run!(s.pool()),
        Store::Sqlite(s) => run!(s.pool()),
    }
}

/// Every stored secret of a game in plain text, as the store opens them.
async fn plain_secrets(store: &Store, game_id: &GameId) -> Vec<(String, String)> {
    store
        .secrets(game_id)
        .await
        .unwrap()
        .into_iter()
        .map(|s| (s.name, s.value.to_string()))
        .collect()
}

/// The same database, reached by a new store with `key` (another server process).
async fn reopen(db: &common::TestDb, key: SecretKey) -> Store {
    Store::connect(db.url()).await.unwrap().with_key(key)
}

async fn secrets_read_straight_from_the_tables_are_sealed_and_hold_no_plain_text(
    (store, _db): (Store, common::TestDb),
) {
    let t = table(&store).await;
    opening(&t.games, &t.game_id).await;
    let plain = plain_secrets(&store, &t.game_id).await;
    let names: Vec<&str> = plain.iter().map(|(n, _)| n.as_str()).collect();
    assert!(names.contains(&"hidden_seed") && names.contains(&"chain:0"));
    assert!(
        names.iter().any(|n| n.starts_with("sealed:")),
        "the note is a stored secret: {names:?}"
    );
    let raw = raw_secrets(&store, &t.game_id).await;
    assert_eq!(raw.len(), plain.len());
    for ((name, sealed), (_, open)) in raw.iter().zip(&plain) {
        assert!(
            sealed.starts_with(&sealed_by(TEST_SECRET)),
            "{name} is sealed: {sealed}"
        );
        assert_ne!(sealed, open);
        let value: Value = serde_json::from_str(open).unwrap();
        for field in ["seed", "tip", "choice", "salt"] {
            if let Some(text) = value.get(field).map(|v| v.to_string()) {
                let text = text.trim_matches('"');
                assert!(!sealed.contains(text), "{name}'s {field} shows through");
            }
        }
    }
    assert!(
        !raw.iter().any(|(_, v)| v.contains("ambush")),
        "the sealed note's text is not in the table"
    );
    let hooks = raw_webhooks(&store, &t.game_id).await;
    assert_eq!(hooks.len(), 1);
    assert!(hooks[0].1.starts_with(&sealed_by(TEST_SECRET)));
    assert!(!hooks[0].1.contains(&t.hook_secret));
    let opened = store.webhooks(&t.game_id).await.unwrap();
    assert_eq!(opened[0].secret, t.hook_secret, "the store opens it again");
}

async fn a_game_plays_reveals_and_its_export_verifies_as_before(
    (store, _db): (Store, common::TestDb),
) {
    let t = table(&store).await;
    let seed = |secrets: &[(String, String)]| {
        let (_, v) = secrets.iter().find(|(n, _)| n == "hidden_seed").unwrap();
        serde_json::from_str::<Value>(v).unwrap()["seed"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let hidden = seed(&plain_secrets(&store, &t.game_id).await);
    opening(&t.games, &t.game_id).await;
    ending(&t.games, &t.game_id).await;
    verifies(&t.games, &t.game_id).await;
    let export = t
        .games
        .export(&t.game_id, &Viewer::Spectator)
        .await
        .unwrap();
    assert!(
        export.contains(&hidden),
        "the final event reveals the hidden seed the store kept"
    );
    assert!(
        export.contains("the ambush is at the ford"),
        "the note is revealed"
    );
}

async fn a_store_with_the_wrong_key_refuses_clearly_and_changes_nothing(
    (store, db): (Store, common::TestDb),
) {
    let t = table(&store).await;
    opening(&t.games, &t.game_id).await;
    let before = raw_secrets(&store, &t.game_id).await;
    let next = store.game(&t.game_id).await.unwrap().unwrap().next_seq;

    let wrong = reopen(&db, SecretKey::from_secret("not the key")).await;
    let err = wrong.secrets(&t.game_id).await.unwrap_err();
    assert!(matches!(err, StoreError::Sealing(_)), "{err}");
    let message = err.to_string();
    assert!(
        message.contains("does not open with this secret key")
            && message.contains("DESPATCH_SECRET_KEY"),
        "{message}"
    );
    assert!(wrong.check_key().await.is_err(), "refused at start-up too");
    assert!(wrong.webhooks(&t.game_id).await.is_err());
    let games = common::over(wrong.clone()).games();
    let refused = games
        .submit(
            &caller(&t.game_id, "anna"),
            Submit {
                expected_seq: next,
                command: CommandInput::Text("roll 1d6".into()),
                client_entropy: String::new(),
                idempotency_key: None,
            },
        )
        .await;
    assert!(refused.is_err(), "no die is rolled without the chain's tip");

    let dir = tempfile::tempdir().unwrap();
    let key_file = dir.path().join("secret.key");
    let Err(why) = Store::connect(db.url())
        .await
        .unwrap()
        .unlock(Some("not the key"), &key_file)
        .await
    else {
        panic!("a wrong key starts nothing");
    };
    let why = why.to_string();
    assert!(why.contains("does not open with this secret key"), "{why}");
    assert!(
        !key_file.exists(),
        "no key file is made beside a configured key"
    );

    assert_eq!(
        raw_secrets(&store, &t.game_id).await,
        before,
        "nothing changed"
    );
    assert_eq!(
        store.game(&t.game_id).await.unwrap().unwrap().next_seq,
        next
    );
    play(&t.games, &t.game_id, "anna", "roll 1d6").await;
}

async fn a_sealed_value_moved_to_another_row_does_not_open((store, _db): (Store, common::TestDb)) {
    let one = table(&store).await;
    let two = table(&store).await;
    // Game two's chain tip copied over game one's: the row is bound to its game.
    let theirs = raw_secrets(&store, &two.game_id).await;
    let (_, chain) = theirs.iter().find(|(n, _)| n == "chain:0").unwrap();
    let sql = "UPDATE secrets SET value = $3 WHERE game_id = $1 AND name = $2";
    assert_eq!(
        execute(&store, sql, &[&one.game_id, "chain:0", chain]).await,
        1
    );
    let err = store.secrets(&one.game_id).await.unwrap_err();
    assert!(
        err.to_string()
            .contains(&format!("secret chain:0 of game {}", one.game_id)),
        "the error names the row: {err}"
    );
    // Within game two: the hidden seed's value under the chain's name.
    let (_, seed) = theirs.iter().find(|(n, _)| n == "hidden_seed").unwrap();
    execute(&store, sql, &[&two.game_id, "chain:0", seed]).await;
    assert!(store.secrets(&two.game_id).await.is_err());
    // One game's webhook secret under another's hook.
    let sql = "UPDATE webhooks SET secret = $2 WHERE game_id = $1";
    let (_, hook) = &raw_webhooks(&store, &two.game_id).await[0];
    execute(&store, sql, &[&one.game_id, hook]).await;
    assert!(store.webhooks(&one.game_id).await.is_err());
}

async fn rotating_the_key_reseals_everything_and_the_games_play_on(
    (store, db): (Store, common::TestDb),
) {
    let t = table(&store).await;
    opening(&t.games, &t.game_id).await;
    let plain = plain_secrets(&store, &t.game_id).await;
    let before = raw_secrets(&store, &t.game_id).await;
    let new = SecretKey::from_secret("the new key");

    let done = store.rotate_key(&new).await.unwrap();
    assert_eq!(done.secrets, plain.len() as u64);
    assert_eq!(done.webhooks, 1);
    let after = raw_secrets(&store, &t.game_id).await;
    for ((name, old), (_, now)) in before.iter().zip(&after) {
        assert!(
            now.starts_with(&sealed_by("the new key")) && now != old,
            "{name} is re-sealed"
        );
    }
    let err = store.secrets(&t.game_id).await.unwrap_err();
    assert!(err.to_string().contains("does not open"), "{err}");

    let rotated = reopen(&db, new).await;
    assert_eq!(plain_secrets(&rotated, &t.game_id).await, plain);
    assert_eq!(
        rotated.webhooks(&t.game_id).await.unwrap()[0].secret,
        t.hook_secret
    );
    rotated.check_key().await.unwrap();
    let games = common::over(rotated).games();
    ending(&games, &t.game_id).await;
    verifies(&games, &t.game_id).await;
}

async fn a_rotation_that_cannot_open_a_row_changes_nothing((store, _db): (Store, common::TestDb)) {
    let one = table(&store).await;
    let two = table(&store).await;
    // A row sealed under another key: the rotation cannot open it, so it writes nothing at all.
    let foreign = SecretKey::from_secret("another key").seal(
        despatch::store::sealing::RowId::Secret {
            game_id: &two.game_id,
            name: "chain:0",
            seat: None,
        },
        "{}",
    );
    let sql = "UPDATE secrets SET value = $3 WHERE game_id = $1 AND name = $2";
    execute(&store, sql, &[&two.game_id, "chain:0", &foreign]).await;
    let before = raw_secrets(&store, &one.game_id).await;
    let err = store
        .rotate_key(&SecretKey::from_secret("the new key"))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("does not open"), "{err}");
    assert_eq!(raw_secrets(&store, &one.game_id).await, before);
    play(&one.games, &one.game_id, "anna", "roll 1d6").await;
}

async fn a_missing_key_with_sealed_secrets_is_a_clear_error_and_no_key_is_made(
    (store, db): (Store, common::TestDb),
) {
    let t = table(&store).await;
    let dir = tempfile::tempdir().unwrap();
    let key_file = dir.path().join("data").join("secret.key");
    let Err(why) = Store::connect(db.url())
        .await
        .unwrap()
        .unlock(None, &key_file)
        .await
    else {
        panic!("no key, sealed secrets: the server must not start");
    };
    let why = why.to_string();
    assert!(
        why.contains("no key to open them")
            && why.contains("DESPATCH_SECRET_KEY")
            && why.contains("DESPATCH_KEY_FILE")
            && why.contains(&key_file.display().to_string()),
        "{why}"
    );
    assert!(!key_file.exists(), "no new key orphans the secrets");
    // A store never given a key refuses to read or write secrets rather than guess one.
    let keyless = Store::connect(db.url()).await.unwrap();
    assert!(keyless.secrets(&t.game_id).await.is_err());
    assert!(
        common::over(keyless)
            .base_url("http://x")
            .games()
            .create(new_game())
            .await
            .is_err(),
        "no game is made whose dice could not be read back"
    );
}

async fn a_link_key_kept_in_the_database_signs_nothing((store, db): (Store, common::TestDb)) {
    // Before key files, a server with no DESPATCH_SECRET_KEY drew a link key into the database;
    // a copy of the database would open every seat with it (issue 35).
    let stored = store.server_key("links").await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let key_file = dir.path().join("secret.key");
    let unlocked = Store::connect(db.url())
        .await
        .unwrap()
        .unlock(None, &key_file)
        .await
        .unwrap();
    assert_eq!(
        unlocked.link_secret.as_deref(),
        Some(unlocked.secret.as_str()),
        "links are signed with the key file's secret"
    );
    let games = common::over(unlocked.store.clone())
        .base_url("http://x")
        .link_secret(unlocked.link_secret.as_deref())
        .games();
    let signing = games.link_key().await.unwrap();
    assert_ne!(signing, stored, "the database's link key signs nothing");
    assert_eq!(
        signing,
        despatch::games::links::key_from_secret(&unlocked.secret)
    );
    // A configured key signs links whatever the database kept.
    let configured = Store::connect(db.url())
        .await
        .unwrap()
        .unlock(Some(&unlocked.secret), &key_file)
        .await
        .unwrap();
    assert_eq!(configured.link_secret, Some(unlocked.secret));
}

fn new_game() -> NewGame {
    NewGame {
        name: None,
        ruleset: "open-table".into(),
        scenario: "default".into(),
        options: Value::Null,
        seats: ["anna", "bert"]
            .iter()
            .map(|s| NewSeat {
                seat: Some((*s).into()),
                name: (*s).into(),
                email: None,
            })
            .collect(),
        clock: None,
    }
}

async fn a_fresh_database_gets_a_key_file_once_and_keeps_using_it(
    (_store, db): (Store, common::TestDb),
) {
    let dir = tempfile::tempdir().unwrap();
    let key_file = dir.path().join("data").join("secret.key");
    let first = Store::connect(db.url())
        .await
        .unwrap()
        .unlock(None, &key_file)
        .await
        .unwrap();
    assert!(first.created_key_file);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&key_file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "readable by its owner only");
    }
    let t = table(&first.store).await;
    opening(&t.games, &t.game_id).await;
    let again = Store::connect(db.url())
        .await
        .unwrap()
        .unlock(None, &key_file)
        .await
        .unwrap();
    assert!(!again.created_key_file);
    assert_eq!(again.secret, first.secret);
    assert_eq!(
        again.link_secret.as_deref(),
        Some(first.secret.as_str()),
        "links are signed with the key file's secret, not a key in the database"
    );
    let games = common::over(again.store).games();
    ending(&games, &t.game_id).await;
    verifies(&games, &t.game_id).await;
}

async fn plain_rows_written_before_sealing_are_sealed_at_start_and_the_game_plays_and_verifies(
    (store, db): (Store, common::TestDb),
) {
    let t = table(&store).await;
    opening(&t.games, &t.game_id).await;
    // Write the rows back the old way: the JSON text itself, the hook's secret as given.
    let plain = plain_secrets(&store, &t.game_id).await;
    for (name, value) in &plain {
        let sql = "UPDATE secrets SET value = $3 WHERE game_id = $1 AND name = $2";
        assert_eq!(execute(&store, sql, &[&t.game_id, name, value]).await, 1);
    }
    let sql = "UPDATE webhooks SET secret = $2 WHERE game_id = $1";
    execute(&store, sql, &[&t.game_id, &t.hook_secret]).await;
    let err = store.secrets(&t.game_id).await.unwrap_err();
    assert!(err.to_string().contains("plain text"), "{err}");

    // Started with no key file and only plain rows: a key is made and they are sealed.
    let dir = tempfile::tempdir().unwrap();
    let key_file = dir.path().join("secret.key");
    let unlocked = Store::connect(db.url())
        .await
        .unwrap()
        .unlock(None, &key_file)
        .await
        .unwrap();
    assert!(unlocked.created_key_file, "plain rows orphan nothing");
    assert_eq!(unlocked.sealed.secrets, plain.len() as u64);
    assert_eq!(unlocked.sealed.webhooks, 1);
    for (name, value) in raw_secrets(&store, &t.game_id).await {
        assert!(value.starts_with("v2:"), "{name} is sealed");
    }
    assert!(raw_webhooks(&store, &t.game_id).await[0]
        .1
        .starts_with("v2:"));
    let sealed = unlocked.store;
    assert_eq!(plain_secrets(&sealed, &t.game_id).await, plain);
    assert_eq!(
        sealed.webhooks(&t.game_id).await.unwrap()[0].secret,
        t.hook_secret
    );
    // A second start seals nothing more.
    let again = Store::connect(db.url())
        .await
        .unwrap()
        .unlock(None, &key_file)
        .await
        .unwrap();
    assert_eq!(again.sealed, Default::default());
    let games = common::over(sealed).games();
    ending(&games, &t.game_id).await;
    verifies(&games, &t.game_id).await;
}

/// The command line as an operator runs it, on the test's database, with no key in the
/// environment unless the test gives one.
fn despatch(db: &common::TestDb, dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_despatch"));
    command
        .args(args)
        .current_dir(dir)
        .env("DATABASE_URL", db.url())
        .env("RUST_LOG", "warn")
        .env_remove("DESPATCH_SECRET_KEY")
        .env_remove("DESPATCH_KEY_FILE")
        .env_remove("DESPATCH_NEW_SECRET_KEY");
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().expect("the binary runs")
}

fn says(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

async fn the_command_line_makes_a_key_refuses_to_start_without_it_and_rotates_it(
    (_store, db): (Store, common::TestDb),
) {
    let dir = tempfile::tempdir().unwrap();
    // No key configured and a fresh database: the key file is made where the README says.
    let made = despatch(
        &db,
        dir.path(),
        &["new-game", "--seat", "anna", "--seat", "bert"],
        &[],
    );
    assert!(made.status.success(), "{}", says(&made));
    let first = dir.path().join("data").join("secret.key");
    assert!(
        first.exists(),
        "a fresh database gets a key file at ./data/secret.key"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&first).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "readable by its owner only");
    }
    let first_env = [("DESPATCH_KEY_FILE", first.to_str().unwrap())];
    let game_id = GameId::parse(
        says(&made)
            .lines()
            .find_map(|l| l.strip_prefix("game "))
            .unwrap()
            .trim(),
    )
    .unwrap();

    let missing = despatch(
        &db,
        dir.path(),
        &["migrate"],
        &[("DESPATCH_KEY_FILE", "gone.key")],
    );
    assert!(!missing.status.success());
    assert!(
        says(&missing).contains("no key to open them") && says(&missing).contains("gone.key"),
        "{}",
        says(&missing)
    );
    assert!(!dir.path().join("gone.key").exists());
    let wrong = despatch(
        &db,
        dir.path(),
        &["migrate"],
        &[("DESPATCH_SECRET_KEY", "wrong")],
    );
    assert!(!wrong.status.success());
    assert!(
        says(&wrong).contains("does not open with this secret key"),
        "{}",
        says(&wrong)
    );

    let unasked = despatch(&db, dir.path(), &["rotate-key"], &first_env);
    assert!(!unasked.status.success());
    assert!(
        says(&unasked).contains("--new-key-file"),
        "{}",
        says(&unasked)
    );
    let second = dir.path().join("second.key");
    let rotated = despatch(
        &db,
        dir.path(),
        &["rotate-key", "--new-key-file", second.to_str().unwrap()],
        &first_env,
    );
    assert!(rotated.status.success(), "{}", says(&rotated));
    assert!(
        says(&rotated).contains("re-sealed 2 secret(s)"),
        "{}",
        says(&rotated)
    );
    assert!(second.exists());

    let old = despatch(&db, dir.path(), &["migrate"], &first_env);
    assert!(!old.status.success(), "the old key opens nothing now");
    let second_env = [("DESPATCH_KEY_FILE", second.to_str().unwrap())];
    let new = despatch(&db, dir.path(), &["migrate"], &second_env);
    assert!(new.status.success(), "{}", says(&new));

    let secret = std::fs::read_to_string(&second).unwrap();
    let store = reopen(&db, SecretKey::from_secret(secret.trim())).await;
    let games = common::over(store).games();
    opening(&games, &game_id).await;
    ending(&games, &game_id).await;
    verifies(&games, &game_id).await;
}

/// An HTTP client, its TLS provider taken from the library as the server's clients do.
fn http() -> reqwest::Client {
    despatch::notify::webhook::install_crypto();
    reqwest::Client::new()
}

/// `despatch serve` as an operator starts it, on a free port, its dispatcher off.
struct Served {
    child: std::process::Child,
    base: String,
}

impl Served {
    fn start(db: &common::TestDb, dir: &Path, env: &[(&str, &str)]) -> Served {
        use std::io::BufRead;
        let mut command = Command::new(env!("CARGO_BIN_EXE_despatch"));
        command
            .arg("serve")
            .current_dir(dir)
            .env("DATABASE_URL", db.url())
            .env("DESPATCH_BIND", "127.0.0.1:0")
            .env("DESPATCH_DISPATCHER", "off")
            .env("RUST_LOG", "warn")
            .env_remove("DESPATCH_SECRET_KEY")
            .env_remove("DESPATCH_KEY_FILE")
            .env_remove("DESPATCH_RETIRED_SECRET_KEYS")
            .stdout(std::process::Stdio::piped());
        for (k, v) in env {
            command.env(k, v);
        }
        let mut child = command.spawn().expect("the binary runs");
        let out = child.stdout.take().unwrap();
        let mut lines = std::io::BufReader::new(out).lines();
        let base = loop {
            let line = lines
                .next()
                .expect("serve says where it listens before it stops")
                .unwrap();
            if let Some(rest) = line.strip_prefix("Despatch is listening on ") {
                break rest.split_whitespace().next().unwrap().to_owned();
            }
        };
        Served { child, base }
    }

    /// Asks it to stop, as systemd does (SIGTERM), and waits until it has.
    fn stop(mut self) {
        let pid = self.child.id().to_string();
        assert!(Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success());
        self.child.wait().unwrap();
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The failure: a server runs on the old key while `rotate-key` re-seals under a new one;
/// the server goes on sealing under the old key, and after a restart on the new key the games it
/// made meanwhile do not open. Now the rotation is refused, naming the server, and changes
/// nothing; once the server has stopped it goes through, and every game plays on the new key.
async fn a_rotation_beside_a_server_on_the_old_key_is_refused_and_changes_nothing(
    (store, db): (Store, common::TestDb),
) {
    let t = table(&store).await;
    opening(&t.games, &t.game_id).await;
    let dir = tempfile::tempdir().unwrap();
    let old = [("DESPATCH_SECRET_KEY", TEST_SECRET)];
    let server = Served::start(&db, dir.path(), &old);
    let before = (
        raw_secrets(&store, &t.game_id).await,
        raw_webhooks(&store, &t.game_id).await,
    );

    let rotate = [
        ("DESPATCH_SECRET_KEY", TEST_SECRET),
        ("DESPATCH_NEW_SECRET_KEY", "the new key"),
    ];
    let refused = despatch(&db, dir.path(), &["rotate-key"], &rotate);
    let said = says(&refused);
    assert!(
        !refused.status.success(),
        "refused beside the server: {said}"
    );
    assert!(
        said.contains(&format!("serve (pid {}", server.child.id()))
            && said.contains("nothing was changed")
            && said.contains("DESPATCH_RETIRED_SECRET_KEYS"),
        "names the server and the safe way: {said}"
    );
    assert_eq!(
        (
            raw_secrets(&store, &t.game_id).await,
            raw_webhooks(&store, &t.game_id).await
        ),
        before,
        "nothing changed"
    );

    // The server goes on making games, sealed under its key.
    let created: Value = http()
        .post(format!("{}/api/games", server.base))
        .json(&serde_json::json!({
            "ruleset": "open-table",
            "seats": [{ "seat": "anna", "name": "anna" }, { "seat": "bert", "name": "bert" }],
        }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let made = GameId::parse(created["game_id"].as_str().expect("a game is made")).unwrap();
    server.stop();
    assert_eq!(
        store.live_processes().await.unwrap(),
        vec![],
        "gone on SIGTERM"
    );

    let rotated = despatch(&db, dir.path(), &["rotate-key"], &rotate);
    assert!(rotated.status.success(), "{}", says(&rotated));
    let games = common::over(reopen(&db, SecretKey::from_secret("the new key")).await).games();
    for game_id in [&t.game_id, &made] {
        if *game_id == made {
            opening(&games, game_id).await;
        }
        ending(&games, game_id).await;
        verifies(&games, game_id).await;
    }
}

/// The way the operator's guide gives, under load: a server runs with the new key as its key
/// and the old one retired while moves are played and games made, and `rotate-key` runs meanwhile;
/// then a server on the new key alone reads every game, plays it to its end, and every export
/// verifies.
async fn a_rotation_under_load_beside_a_server_on_the_new_key_loses_nothing(
    (store, db): (Store, common::TestDb),
) {
    const NEW: &str = "the new key";
    let mut game_ids = Vec::new();
    for _ in 0..3 {
        let t = table(&store).await;
        opening(&t.games, &t.game_id).await;
        game_ids.push(t.game_id);
    }
    let ring = reopen(
        &db,
        SecretKey::from_secret(NEW).with_retired(&[TEST_SECRET]),
    )
    .await;
    let registration = ring.register_process("serve").await.unwrap().keep_alive();
    let server = common::over(ring.clone()).serve().await;
    let started = std::time::Instant::now();
    let rotated = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut load = Vec::new();
    for _ in 0..4 {
        let games = server.games.clone();
        let rotated = rotated.clone();
        load.push(tokio::spawn(async move {
            let mut made = Vec::new();
            let mut after = 0;
            // Bounded by count and time: until two rounds after the rotation, at most 40.
            for _ in 0..40 {
                if after >= 2 || started.elapsed() > std::time::Duration::from_secs(60) {
                    break;
                }
                if rotated.load(std::sync::atomic::Ordering::SeqCst) {
                    after += 1;
                }
                let created = games.create(new_game()).await.unwrap();
                opening(&games, &created.game_id).await;
                made.push(created.game_id);
            }
            made
        }));
    }
    // Moves on the older games while the rotation runs, from the same server.
    let older = {
        let games = server.games.clone();
        let ids = game_ids.clone();
        tokio::spawn(async move {
            for id in &ids {
                play(&games, id, "anna", "roll 1d6").await;
                play(&games, id, "bert", "roll 2d6").await;
            }
        })
    };
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let url = db.url().to_owned();
    let rotation = tokio::task::spawn_blocking(move || {
        let mut command = Command::new(env!("CARGO_BIN_EXE_despatch"));
        command
            .arg("rotate-key")
            .env("DATABASE_URL", url)
            .env("RUST_LOG", "warn")
            .env("DESPATCH_SECRET_KEY", TEST_SECRET)
            .env("DESPATCH_NEW_SECRET_KEY", NEW)
            .env_remove("DESPATCH_KEY_FILE")
            .env_remove("DESPATCH_RETIRED_SECRET_KEYS");
        command.output().unwrap()
    })
    .await
    .unwrap();
    rotated.store(true, std::sync::atomic::Ordering::SeqCst);
    assert!(rotation.status.success(), "{}", says(&rotation));
    older.await.unwrap();
    for task in load {
        game_ids.extend(task.await.unwrap());
    }
    registration.end().await;
    assert!(
        game_ids.len() >= 3 + 4 * 2,
        "the load made games: {}",
        game_ids.len()
    );

    // A restart on the new key alone: nothing is left under the old one.
    let fresh = reopen(&db, SecretKey::from_secret(NEW)).await;
    fresh.check_key().await.unwrap();
    let in_use = fresh.keys_in_use().await.unwrap();
    assert!(
        in_use.iter().all(|(id, _)| *id == key_id(NEW)),
        "only the new key sealed what is stored: {in_use:?}"
    );
    let restarted = common::over(fresh).serve().await;
    let http = http();
    for game_id in &game_ids {
        let page = http
            .get(format!("{}/api/games/{game_id}", restarted.base))
            .send()
            .await
            .unwrap();
        assert_eq!(page.status(), 200, "game {game_id} loads");
        ending(&restarted.games, game_id).await;
        verifies(&restarted.games, game_id).await;
    }
}

/// The value as a version before key ids wrote it: `v1:` and the same hex (the key id is not
/// part of what is sealed).
fn as_v1(sealed: &str) -> String {
    let (_, body) = sealed[3..].split_once(':').unwrap();
    format!("v1:{body}")
}

/// Values from an older database (`v1:`, no key id) and values under a retired key open; a
/// process row not refreshed for a while blocks nothing; `rotate-key` re-seals all of it under
/// the primary; a ring without a key still in use is refused at start rather than failing later.
async fn old_values_and_retired_keys_open_and_rotation_reseals_them_under_the_primary(
    (store, db): (Store, common::TestDb),
) {
    const NEW: &str = "the new key";
    let t = table(&store).await;
    opening(&t.games, &t.game_id).await;
    let plain = plain_secrets(&store, &t.game_id).await;
    // Half the secrets and the webhook's as a version before key ids left them.
    for (i, (name, value)) in raw_secrets(&store, &t.game_id).await.iter().enumerate() {
        if i % 2 == 0 {
            let sql = "UPDATE secrets SET value = $3 WHERE game_id = $1 AND name = $2";
            execute(&store, sql, &[&t.game_id, name, &as_v1(value)]).await;
        }
    }
    let (hook_id, hook) = raw_webhooks(&store, &t.game_id).await.remove(0);
    let sql = "UPDATE webhooks SET secret = $3 WHERE game_id = $1 AND hook_id = $2";
    execute(&store, sql, &[&t.game_id, &hook_id, &as_v1(&hook)]).await;
    assert!(raw_secrets(&store, &t.game_id)
        .await
        .iter()
        .any(|(_, v)| v.starts_with("v1:")));
    assert_eq!(
        plain_secrets(&store, &t.game_id).await,
        plain,
        "v1 still opens"
    );
    store.check_key().await.unwrap();

    // A server with the new key and the old one retired opens all of it, and seals anew under
    // the new key only.
    let ring = reopen(
        &db,
        SecretKey::from_secret(NEW).with_retired(&[TEST_SECRET]),
    )
    .await;
    assert_eq!(plain_secrets(&ring, &t.game_id).await, plain);
    assert_eq!(
        ring.webhooks(&t.game_id).await.unwrap()[0].secret,
        t.hook_secret
    );
    let games = common::over(ring.clone()).games();
    play(&games, &t.game_id, "anna", "roll 1d6").await;
    // A game made now is sealed under the new key.
    let later = table(&ring).await;
    assert!(raw_webhooks(&ring, &later.game_id).await[0]
        .1
        .starts_with(&sealed_by(NEW)));
    let by_key = ring.keys_in_use().await.unwrap();
    assert!(
        by_key.iter().any(|(id, _)| *id == key_id(NEW)),
        "{by_key:?}"
    );
    assert!(
        by_key.iter().any(|(id, _)| *id == key_id(TEST_SECRET)),
        "{by_key:?}"
    );
    assert!(by_key.iter().any(|(id, _)| id.is_empty()), "{by_key:?}");

    // The new key alone, before the rotation, is refused at start: values under the old key
    // would not open.
    let alone = reopen(&db, SecretKey::from_secret(NEW)).await;
    assert!(alone.check_key().await.is_err());
    assert!(
        alone.register_process("serve").await.is_err(),
        "no server starts on it"
    );
    assert_eq!(ring.live_processes().await.unwrap(), vec![]);

    // A process that stopped without a goodbye 60 s ago, on the old key: gone, blocks nothing.
    let stale = "INSERT INTO processes (process_id, kind, host, pid, primary_key_id, key_ids, started_at, heartbeat_at) VALUES ($1, 'serve', 'elsewhere', 4242, $2, $3, 0, 0)";
    let old_id = key_id(TEST_SECRET);
    execute(&ring, stale, &["stale", &old_id, &old_id]).await;
    assert_eq!(ring.live_processes().await.unwrap(), vec![]);
    // A live one on the new key blocks nothing either; one still sealing with the old key does.
    let live = ring.register_process("serve").await.unwrap();
    let behind = reopen(
        &db,
        SecretKey::from_secret(TEST_SECRET).with_retired(&[NEW]),
    )
    .await;
    let blocker = behind.register_process("dispatch").await.unwrap();
    let err = ring
        .rotate_key(&SecretKey::from_secret(NEW))
        .await
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(&format!("dispatch (pid {}", std::process::id()))
            && err.contains("still seals with another")
            && !err.contains("4242"),
        "{err}"
    );
    blocker.end().await;

    let done = ring.rotate_key(&SecretKey::from_secret(NEW)).await.unwrap();
    assert!(done.secrets > 0 && done.webhooks == 1, "{done:?}");
    live.end().await;
    for (name, value) in raw_secrets(&ring, &t.game_id).await {
        assert!(
            value.starts_with(&sealed_by(NEW)),
            "{name} is re-sealed: {value}"
        );
    }
    assert!(raw_webhooks(&ring, &t.game_id).await[0]
        .1
        .starts_with(&sealed_by(NEW)));

    let alone = reopen(&db, SecretKey::from_secret(NEW)).await;
    alone.check_key().await.unwrap();
    assert_eq!(
        alone.webhooks(&t.game_id).await.unwrap()[0].secret,
        t.hook_secret
    );
    let games = common::over(alone).games();
    play(&games, &t.game_id, "bert", "roll 1d6").await;
    ending(&games, &t.game_id).await;
    verifies(&games, &t.game_id).await;
}

on_both_backends!(
    a_rotation_beside_a_server_on_the_old_key_is_refused_and_changes_nothing,
    a_rotation_under_load_beside_a_server_on_the_new_key_loses_nothing,
    old_values_and_retired_keys_open_and_rotation_reseals_them_under_the_primary,
    secrets_read_straight_from_the_tables_are_sealed_and_hold_no_plain_text,
    a_game_plays_reveals_and_its_export_verifies_as_before,
    a_store_with_the_wrong_key_refuses_clearly_and_changes_nothing,
    a_sealed_value_moved_to_another_row_does_not_open,
    rotating_the_key_reseals_everything_and_the_games_play_on,
    a_rotation_that_cannot_open_a_row_changes_nothing,
    a_missing_key_with_sealed_secrets_is_a_clear_error_and_no_key_is_made,
    a_fresh_database_gets_a_key_file_once_and_keeps_using_it,
    a_link_key_kept_in_the_database_signs_nothing,
    plain_rows_written_before_sealing_are_sealed_at_start_and_the_game_plays_and_verifies,
    the_command_line_makes_a_key_refuses_to_start_without_it_and_rotates_it,
);
