//! Which database errors are an outage rather than a fault: the database cannot be reached, has
//! gone away, or is too busy to answer in time. Such an error says nothing about the request, so
//! it becomes `StoreError::Unavailable`, which the service answers with `503` and `Retry-After`
//! (try again shortly) instead of `500` (something is wrong). Every other error stays
//! `StoreError::Db`.

use super::StoreError;

impl From<sqlx::Error> for StoreError {
    fn from(err: sqlx::Error) -> Self {
        if is_outage(&err) {
            StoreError::Unavailable(err)
        } else {
            StoreError::Db(err)
        }
    }
}

/// Whether `err` means the database is out of reach for now.
pub(super) fn is_outage(err: &sqlx::Error) -> bool {
    match err {
        // No connection in time, the pool shut, the socket broke or never opened, the driver's
        // worker thread died.
        sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(db) => {
            let sqlite = db.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some();
            db.code().is_some_and(|code| {
                if sqlite {
                    sqlite_outage(&code)
                } else {
                    postgres_outage(&code)
                }
            })
        }
        _ => false,
    }
}

/// An SQLite extended result code (a number) that means an outage: SQLITE_BUSY (5) and
/// SQLITE_LOCKED (6), with their extended codes — another connection held the lock past the
/// busy timeout.
fn sqlite_outage(code: &str) -> bool {
    code.parse::<i32>()
        .is_ok_and(|code| matches!(code & 0xff, 5 | 6))
}

/// A PostgreSQL SQLSTATE that means an outage.
fn postgres_outage(code: &str) -> bool {
    // Class 08: connection exceptions (cannot connect, connection lost).
    code.starts_with("08")
        // admin_shutdown, crash_shutdown, cannot_connect_now (starting up or shutting down).
        || matches!(code, "57P01" | "57P02" | "57P03")
        // too_many_connections: the server is full for now.
        || code == "53300"
}

#[cfg(test)]
mod tests {
    use super::{postgres_outage, sqlite_outage};

    #[test]
    fn connection_classes_are_outages_and_constraints_are_not_on_postgres() {
        for code in ["08006", "08001", "08P01", "57P01", "57P03", "53300"] {
            assert!(postgres_outage(code), "{code}");
        }
        for code in ["23505", "40001", "42P01", "57014"] {
            assert!(!postgres_outage(code), "{code}");
        }
    }

    #[test]
    fn busy_and_locked_are_outages_and_constraints_are_not_on_sqlite() {
        for code in ["5", "517", "261", "6", "262"] {
            assert!(sqlite_outage(code), "{code}");
        }
        for code in ["19", "2067", "1555", "1", "11"] {
            assert!(!sqlite_outage(code), "{code}");
        }
    }
}
