//! The processes that seal secrets at rest, as the database knows them: each `serve`,
//! `dispatch`, `mail-in` and `new-game` writes a row naming its host, its pid and the ids of the
//! keys its ring holds (`sealing::SecretKey::ids`), refreshes it every `HEARTBEAT` and deletes it
//! when it stops. A row not refreshed for `GONE_AFTER` is a process that died without saying so.
//!
//! `despatch rotate-key` reads them (`at_rest`): it re-seals under a new key only when every
//! live process seals with that key already, so no process is left sealing under, or unable to
//! open, a key the operator is about to drop.

use std::time::Duration;

use sqlx::Row;

use super::{Result, Store};

/// How often a live process refreshes its row.
pub const HEARTBEAT: Duration = Duration::from_secs(10);
/// How long a row may go unrefreshed before its process counts as gone: three heartbeats.
pub const GONE_AFTER: Duration = Duration::from_secs(30);

/// A process that seals secrets, as its row says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcessRecord {
    pub process_id: String,
    /// `serve`, `dispatch`, `mail-in`, `new-game`.
    pub kind: String,
    pub host: String,
    pub pid: i64,
    /// The id of the key it seals with.
    pub primary_key_id: String,
    /// The ids of every key it opens with, the primary first.
    pub key_ids: Vec<String>,
    /// Unix seconds, by the database's clock.
    pub started_at: i64,
    pub heartbeat_at: i64,
}

impl std::fmt::Display for ProcessRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} (pid {} on {}, sealing with key {})",
            self.kind, self.pid, self.host, self.primary_key_id
        )
    }
}

/// The statements on each backend, which differ only in how they read the database's clock in
/// Unix seconds. The 30 and 86400 are `GONE_AFTER` and a day.
macro_rules! statements {
    ($now:literal) => {
        Statements {
            live: concat!(
                "SELECT process_id, kind, host, pid, primary_key_id, key_ids, started_at, heartbeat_at ",
                "FROM processes WHERE heartbeat_at > ", $now, " - 30 ORDER BY started_at, process_id"
            ),
            forget: concat!("DELETE FROM processes WHERE heartbeat_at <= ", $now, " - 86400"),
            write: concat!(
                "INSERT INTO processes (process_id, kind, host, pid, primary_key_id, key_ids, started_at, heartbeat_at) ",
                "VALUES ($1, $2, $3, $4, $5, $6, ", $now, ", ", $now, ") ",
                "ON CONFLICT (process_id) DO UPDATE SET heartbeat_at = ", $now
            ),
        }
    };
}

struct Statements {
    live: &'static str,
    forget: &'static str,
    write: &'static str,
}

const POSTGRES: Statements = statements!("CAST(EXTRACT(EPOCH FROM now()) AS BIGINT)");
const SQLITE: Statements = statements!("CAST(strftime('%s', 'now') AS INTEGER)");

fn statements(store: &Store) -> &'static Statements {
    db_run!(store, postgres _ => &POSTGRES, sqlite _ => &SQLITE)
}

/// The live processes' query on `store`'s backend, for `at_rest` to run in its transaction.
pub(super) fn live_query(store: &Store) -> &'static str {
    statements(store).live
}

/// A row of the live processes' query.
pub(super) fn record<R>(row: &R) -> Result<ProcessRecord>
where
    R: Row,
    for<'c> &'c str: sqlx::ColumnIndex<R>,
    for<'q> String: sqlx::Decode<'q, R::Database> + sqlx::Type<R::Database>,
    for<'q> i64: sqlx::Decode<'q, R::Database> + sqlx::Type<R::Database>,
{
    let key_ids: String = row.try_get("key_ids")?;
    Ok(ProcessRecord {
        process_id: row.try_get("process_id")?,
        kind: row.try_get("kind")?,
        host: row.try_get("host")?,
        pid: row.try_get("pid")?,
        primary_key_id: row.try_get("primary_key_id")?,
        key_ids: key_ids.split(',').map(str::to_owned).collect(),
        started_at: row.try_get("started_at")?,
        heartbeat_at: row.try_get("heartbeat_at")?,
    })
}

/// This machine's name, for an operator to find a process by: the kernel's, else `HOSTNAME`.
fn host_name() -> String {
    ["/proc/sys/kernel/hostname", "/etc/hostname"]
        .iter()
        .find_map(|p| std::fs::read_to_string(p).ok())
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "an unnamed host".into())
}

/// A process's row, kept while the process runs.
pub struct Registration {
    store: Store,
    record: ProcessRecord,
    heartbeat: Option<tokio::task::JoinHandle<()>>,
}

impl Registration {
    /// The row as written.
    pub fn record(&self) -> &ProcessRecord {
        &self.record
    }

    /// Refreshes the row every `HEARTBEAT` until `end`. A refresh that fails is logged and tried
    /// again at the next beat: a database away for a while does not stop the process.
    pub fn keep_alive(mut self) -> Registration {
        let store = self.store.clone();
        let record = self.record.clone();
        self.heartbeat = Some(tokio::spawn(async move {
            let mut beat = tokio::time::interval(HEARTBEAT);
            beat.tick().await;
            loop {
                beat.tick().await;
                if let Err(e) = store.write_process(&record).await {
                    tracing::warn!(error = %e, "cannot refresh this process's row in processes");
                }
            }
        }));
        self
    }

    /// Deletes the row: the process stops sealing.
    pub async fn end(mut self) {
        if let Some(beat) = self.heartbeat.take() {
            beat.abort();
        }
        if let Err(e) = self.store.delete_process(&self.record.process_id).await {
            tracing::warn!(error = %e, "cannot delete this process's row in processes; it counts as gone in {} s", GONE_AFTER.as_secs());
        }
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        if let Some(beat) = self.heartbeat.take() {
            beat.abort();
        }
    }
}

impl Store {
    /// Registers this process as one that seals secrets with the store's keyring (`kind`:
    /// `serve`, `dispatch`, …), and checks the key again once registered: a `rotate-key` that
    /// committed between this process's start and its row either saw the row (and refused), or
    /// re-sealed everything first, and then a ring without the new key opens nothing and is
    /// refused here.
    pub async fn register_process(&self, kind: &str) -> Result<Registration> {
        let key = self.key()?;
        let mut id = [0u8; 8];
        getrandom::fill(&mut id).expect("the OS random source failed");
        let record = ProcessRecord {
            process_id: hex::encode(id),
            kind: kind.to_owned(),
            host: host_name(),
            pid: i64::from(std::process::id()),
            primary_key_id: key.id().to_owned(),
            key_ids: key.ids(),
            started_at: 0,
            heartbeat_at: 0,
        };
        // Rows long gone (a day: for an operator to read meanwhile) are forgotten.
        let forget = statements(self).forget;
        db_run!(self, writer pool => {
            sqlx::query(forget).execute(pool).await?;
        });
        self.write_process(&record).await?;
        let registration = Registration {
            store: self.clone(),
            record,
            heartbeat: None,
        };
        if let Err(e) = self.check_key().await {
            registration.end().await;
            return Err(e);
        }
        Ok(registration)
    }

    /// Writes (or refreshes) a process's row, its heartbeat now.
    async fn write_process(&self, record: &ProcessRecord) -> Result<()> {
        let sql = statements(self).write;
        db_run!(self, writer pool => {
            sqlx::query(sql)
                .bind(&record.process_id)
                .bind(&record.kind)
                .bind(&record.host)
                .bind(record.pid)
                .bind(&record.primary_key_id)
                .bind(record.key_ids.join(","))
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    async fn delete_process(&self, process_id: &str) -> Result<()> {
        let sql = "DELETE FROM processes WHERE process_id = $1";
        db_run!(self, writer pool => {
            sqlx::query(sql).bind(process_id).execute(pool).await?;
        });
        Ok(())
    }

    /// The processes whose row was refreshed within `GONE_AFTER`, oldest first.
    pub async fn live_processes(&self) -> Result<Vec<ProcessRecord>> {
        let sql = live_query(self);
        db_run!(self, writer pool => {
            let rows = sqlx::query(sql).fetch_all(pool).await?;
            rows.iter().map(record).collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_statements_count_a_process_gone_after_gone_after() {
        let gone = format!(" - {} ORDER BY", GONE_AFTER.as_secs());
        assert!(POSTGRES.live.contains(&gone) && SQLITE.live.contains(&gone));
        assert_eq!(GONE_AFTER, HEARTBEAT * 3);
    }
}
