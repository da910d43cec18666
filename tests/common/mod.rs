//! Helpers shared by the integration tests: a freshly migrated store per test, on its own
//! PostgreSQL database or its own SQLite file, thrown away when the test ends.
//!
//! PostgreSQL is reached through the admin URL in `DESPATCH_TEST_POSTGRES` (default
//! `postgres://postgres@127.0.0.1:5432/postgres`), which must be allowed to create databases.

// Each test binary compiles this module and uses only some of it.
#![allow(dead_code)]

/// Runs each named `async fn(app)` twice: on a fresh PostgreSQL database and on a fresh SQLite
/// file. The test file provides `spawn(backend)`, which makes the `app` its tests take (most
/// with `common::spawn_app(backend)`).
#[allow(unused_macros)]
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        mod postgres {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() {
                super::$name(super::spawn(super::common::Backend::Postgres).await).await;
            })*
        }
        mod sqlite {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() {
                super::$name(super::spawn(super::common::Backend::Sqlite).await).await;
            })*
        }
    };
}

pub mod app;
pub mod bot;
pub mod forms;
pub mod mail_in;
pub mod notify;
pub mod proxy;
pub mod raw_http;

// Each test binary uses some of them, as with the rest of this module.
#[allow(unused_imports)]
pub use app::{app_on, fresh, over, spawn_app, Backend, TestApp};

use despatch::store::{SecretKey, Store};
use sqlx::{AssertSqlSafe, Connection, Executor, PgConnection};

const DEFAULT_ADMIN_URL: &str = "postgres://postgres@127.0.0.1:5432/postgres";

/// A test's database; dropping it drops the database (PostgreSQL) or deletes the file (SQLite).
pub struct TestDb {
    url: String,
    kind: Kind,
}

enum Kind {
    Postgres { admin_url: String, name: String },
    Sqlite { _dir: tempfile::TempDir },
}

impl TestDb {
    /// The URL of this database, for a server started on it (`DATABASE_URL`).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The number of rows in `table`, read straight from the database: what a test checks to
    /// see that a refused request wrote nothing.
    pub async fn count_rows(&self, table: &str) -> i64 {
        let sql = AssertSqlSafe(format!("SELECT count(*) FROM {table}"));
        match self.kind {
            Kind::Postgres { .. } => {
                let mut c = PgConnection::connect(&self.url).await.expect("connect");
                sqlx::query_scalar(sql)
                    .fetch_one(&mut c)
                    .await
                    .expect("count")
            }
            Kind::Sqlite { .. } => {
                let mut c = sqlx::SqliteConnection::connect(&self.url)
                    .await
                    .expect("open");
                sqlx::query_scalar(sql)
                    .fetch_one(&mut c)
                    .await
                    .expect("count")
            }
        }
    }

    /// Runs one SQL statement straight on the database, past every check of the service: how a
    /// test writes a row as an older version (or an attacker with the database) could have.
    pub async fn execute(&self, sql: &str) {
        let sql = AssertSqlSafe(sql.to_owned());
        match self.kind {
            Kind::Postgres { .. } => {
                let mut c = PgConnection::connect(&self.url).await.expect("connect");
                c.execute(sql).await.expect("execute");
            }
            Kind::Sqlite { .. } => {
                let mut c = sqlx::SqliteConnection::connect(&self.url)
                    .await
                    .expect("open");
                c.execute(sql).await.expect("execute");
            }
        }
    }

    /// A copy of the whole database as an operator's backup or a thief would take it, while the
    /// service runs: `pg_dump`'s plain SQL on PostgreSQL; on SQLite the bytes of the database
    /// file and its write-ahead log as `cp` copies them (pages freed since included).
    pub async fn copy(&self) -> Vec<u8> {
        match &self.kind {
            Kind::Postgres { .. } => {
                let out = std::process::Command::new("pg_dump")
                    .arg("--no-owner")
                    .arg(&self.url)
                    .output()
                    .expect("pg_dump runs (Debian's postgresql-client)");
                assert!(
                    out.status.success(),
                    "pg_dump failed: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                out.stdout
            }
            Kind::Sqlite { _dir: dir } => {
                let mut bytes = Vec::new();
                for name in ["despatch.db", "despatch.db-wal"] {
                    if let Ok(b) = std::fs::read(dir.path().join(name)) {
                        bytes.extend(b);
                    }
                }
                assert!(!bytes.is_empty(), "the SQLite file is there");
                bytes
            }
        }
    }

    /// Which backend holds it: "postgres" or "sqlite".
    pub fn backend(&self) -> &'static str {
        match self.kind {
            Kind::Postgres { .. } => "postgres",
            Kind::Sqlite { .. } => "sqlite",
        }
    }
}

pub fn postgres_admin_url() -> String {
    std::env::var("DESPATCH_TEST_POSTGRES").unwrap_or_else(|_| DEFAULT_ADMIN_URL.to_owned())
}

/// A new, migrated PostgreSQL database `despatch_test_<random>` and a store on it.
pub async fn fresh_postgres() -> (Store, TestDb) {
    let db = empty_postgres().await;
    let store = Store::connect(&db.url)
        .await
        .expect("connect to the fresh database")
        .with_key(test_key());
    store.migrate().await.expect("migrate the fresh database");
    (store, db)
}

/// A new, empty PostgreSQL database `despatch_test_<random>`, not migrated: for a test that
/// restores a dump into it.
pub async fn empty_postgres() -> TestDb {
    let admin_url = postgres_admin_url();
    let mut suffix = [0u8; 8];
    getrandom::fill(&mut suffix).expect("the OS random source failed");
    let name = format!("despatch_test_{}", hex::encode(suffix));
    let mut admin = PgConnection::connect(&admin_url).await.unwrap_or_else(|e| {
        panic!("cannot reach PostgreSQL at {admin_url} (set DESPATCH_TEST_POSTGRES): {e}")
    });
    admin
        .execute(AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .await
        .unwrap_or_else(|e| panic!("cannot create database {name}: {e}"));
    admin.close().await.ok();
    TestDb {
        url: with_database(&admin_url, &name),
        kind: Kind::Postgres { admin_url, name },
    }
}

/// A migrated SQLite database in a new temporary folder and a store on it.
pub async fn fresh_sqlite() -> (Store, TestDb) {
    let dir = tempfile::tempdir().expect("create a temporary folder");
    let url = format!(
        "sqlite:{}?mode=rwc",
        dir.path().join("despatch.db").display()
    );
    let store = Store::connect(&url)
        .await
        .expect("open the SQLite file")
        .with_key(test_key());
    store.migrate().await.expect("migrate the SQLite file");
    (
        store,
        TestDb {
            url,
            kind: Kind::Sqlite { _dir: dir },
        },
    )
}

/// The secret the tests' stores seal secrets at rest with (`Store::with_key`).
pub const TEST_SECRET: &str = "despatch tests: not a real key";

/// The key of the tests' stores.
pub fn test_key() -> SecretKey {
    SecretKey::from_secret(TEST_SECRET)
}

/// `admin_url` with its database name replaced by `name` (query parameters kept).
fn with_database(admin_url: &str, name: &str) -> String {
    let (base, query) = match admin_url.split_once('?') {
        Some((base, query)) => (base, format!("?{query}")),
        None => (admin_url, String::new()),
    };
    let after_scheme = base.find("://").map_or(0, |i| i + 3);
    let host_part = match base[after_scheme..].find('/') {
        Some(slash) => &base[..after_scheme + slash],
        None => base,
    };
    format!("{host_part}/{name}{query}")
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let Kind::Postgres { admin_url, name } = &self.kind else {
            return;
        };
        let (admin_url, name) = (admin_url.clone(), name.clone());
        // Drop may run inside the test's runtime, which cannot be blocked on; a thread with its
        // own small runtime can. Best effort: a database left behind only costs disk.
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .ok()?;
            runtime.block_on(async {
                let mut admin = PgConnection::connect(&admin_url).await.ok()?;
                admin
                    .execute(AssertSqlSafe(format!(
                        "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
                    )))
                    .await
                    .ok()?;
                admin.close().await.ok()
            })
        })
        .join();
        if !matches!(dropped, Ok(Some(()))) {
            eprintln!("note: could not drop the test database {}", self.url);
        }
    }
}
