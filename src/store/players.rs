//! What signing in by email keeps (`games::players`): the seats an address holds, one-time
//! login tokens and sessions — each stored only as the SHA-256 of its token — and a seat's
//! address when a seat is claimed. Times are seconds since the Unix epoch on the service's
//! clock, which the caller passes in, so that expiry is tested without waiting.
//!
//! Two of these queries name no game: an address's seats are looked up across games (by the
//! `seats_email` index), and the login tables belong to an address, not to a game.

use serde::{Deserialize, Serialize};

use super::{Result, Store};

/// A seat an email address holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerSeat {
    pub game_id: String,
    pub seat: String,
    /// The seat's player name.
    pub name: String,
}

/// The same statement on either backend: `$pool` is PostgreSQL's pool, or SQLite's writer
/// (every statement here either writes or must see the latest write).
macro_rules! both {
    ($self:ident, $pool:ident => $body:expr) => {
        match $self {
            Store::Postgres(s) => {
                let $pool = s.pool();
                $body
            }
            Store::Sqlite(s) => {
                let $pool = s.writer();
                $body
            }
        }
    };
}

impl Store {
    /// Every seat whose email is `email`, in any case, newest game first.
    pub async fn seats_by_email(&self, email: &str) -> Result<Vec<PlayerSeat>> {
        let sql = "SELECT s.game_id, s.seat, s.name FROM seats s JOIN games g ON g.game_id = s.game_id
                   WHERE lower(s.email) = lower($1) ORDER BY g.created_at DESC, s.game_id, s.position";
        let rows: Vec<(String, String, String)> = both!(self, pool => {
            sqlx::query_as(sql).bind(email).fetch_all(pool).await?
        });
        Ok(rows
            .into_iter()
            .map(|(game_id, seat, name)| PlayerSeat {
                game_id,
                seat,
                name,
            })
            .collect())
    }

    /// Sets the email of a seat (a seat claimed through its link). False if there is no such seat.
    pub async fn set_seat_email(&self, game_id: &str, seat: &str, email: &str) -> Result<bool> {
        let sql = "UPDATE seats SET email = $3 WHERE game_id = $1 AND seat = $2";
        let n = both!(self, pool => {
            sqlx::query(sql).bind(game_id).bind(seat).bind(email).execute(pool).await?.rows_affected()
        });
        Ok(n == 1)
    }

    /// Keeps a login token's hash for `email` until `expires_at`, and forgets tokens expired
    /// before `now`.
    pub async fn put_login(
        &self,
        token_hash: &str,
        email: &str,
        now: i64,
        expires_at: i64,
    ) -> Result<()> {
        let purge = "DELETE FROM login_tokens WHERE expires_at < $1";
        let insert = "INSERT INTO login_tokens (token_hash, email, expires_at) VALUES ($1, $2, $3)";
        both!(self, pool => {
            sqlx::query(purge).bind(now).execute(pool).await?;
            sqlx::query(insert).bind(token_hash).bind(email).bind(expires_at).execute(pool).await?;
        });
        Ok(())
    }

    /// Uses up a login token: the email it was made for, if the token is known, unused and not
    /// expired at `now`. One statement, so of two racing uses exactly one gets the email.
    pub async fn take_login(&self, token_hash: &str, now: i64) -> Result<Option<String>> {
        let sql = "UPDATE login_tokens SET used_at = $2
                   WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2
                   RETURNING email";
        Ok(both!(self, pool => {
            sqlx::query_scalar(sql).bind(token_hash).bind(now).fetch_optional(pool).await?
        }))
    }

    /// Keeps a session's hash for `email` until `expires_at`, and forgets sessions expired
    /// before `now`.
    pub async fn put_session(
        &self,
        session_hash: &str,
        email: &str,
        now: i64,
        expires_at: i64,
    ) -> Result<()> {
        let purge = "DELETE FROM sessions WHERE expires_at < $1";
        let insert = "INSERT INTO sessions (session_hash, email, expires_at) VALUES ($1, $2, $3)";
        both!(self, pool => {
            sqlx::query(purge).bind(now).execute(pool).await?;
            sqlx::query(insert).bind(session_hash).bind(email).bind(expires_at).execute(pool).await?;
        });
        Ok(())
    }

    /// The email of a session still open at `now`.
    pub async fn session_email(&self, session_hash: &str, now: i64) -> Result<Option<String>> {
        let sql = "SELECT email FROM sessions WHERE session_hash = $1 AND expires_at > $2";
        Ok(both!(self, pool => {
            sqlx::query_scalar(sql).bind(session_hash).bind(now).fetch_optional(pool).await?
        }))
    }

    /// Ends a session (signing out).
    pub async fn drop_session(&self, session_hash: &str) -> Result<()> {
        let sql = "DELETE FROM sessions WHERE session_hash = $1";
        both!(self, pool => {
            sqlx::query(sql).bind(session_hash).execute(pool).await?;
        });
        Ok(())
    }
}
