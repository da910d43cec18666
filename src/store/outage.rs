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
            if let Some(pg) = db.try_downcast_ref::<sqlx::postgres::PgDatabaseError>() {
                let ends_session = matches!(
                    pg.severity(),
                    sqlx::postgres::PgSeverity::Fatal | sqlx::postgres::PgSeverity::Panic
                );
                return postgres_outage(pg.code(), ends_session);
            }
            let sqlite = db.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some();
            db.code().is_some_and(|code| {
                if sqlite {
                    sqlite_outage(&code)
                } else {
                    postgres_outage(&code, false)
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

/// A PostgreSQL SQLSTATE that means an outage; `ends_session`: the error came as FATAL (or
/// PANIC), which PostgreSQL raises when it refuses or ends a session, never for a statement.
fn postgres_outage(code: &str, ends_session: bool) -> bool {
    // Class 08: connection exceptions (cannot connect, connection lost).
    code.starts_with("08")
        // admin_shutdown, crash_shutdown, cannot_connect_now (starting up or shutting down).
        || matches!(code, "57P01" | "57P02" | "57P03")
        // too_many_connections: the server is full for now.
        || code == "53300"
        // object_not_in_prerequisite_state, raised FATAL while connecting: the database "is not
        // currently accepting connections" (`ALTER DATABASE … ALLOW_CONNECTIONS false`, as
        // during maintenance). The same code raised as an ERROR by a statement (`currval`
        // before `nextval`, a replication slot in use) is a fault, and stays one. The severity
        // is read from the field PostgreSQL never translates, so this holds whatever the
        // server's `lc_messages`.
        || (code == "55000" && ends_session)
}

#[cfg(test)]
mod tests {
    use super::{postgres_outage, sqlite_outage};

    #[test]
    fn connection_classes_are_outages_and_constraints_are_not_on_postgres() {
        for code in ["08006", "08001", "08P01", "57P01", "57P03", "53300"] {
            assert!(postgres_outage(code, false), "{code}");
        }
        for code in ["23505", "40001", "42P01", "57014", "55000"] {
            assert!(!postgres_outage(code, false), "{code}");
        }
        // Refused while connecting (FATAL): the database is not accepting connections.
        assert!(postgres_outage("55000", true));
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
