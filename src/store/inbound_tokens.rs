//! The tokens of signed inbound posts already delivered (`inbound_tokens`): a provider that signs
//! a timestamp and a random token but not the message (Mailgun) is safe from replays only if each
//! token is taken once. Kept in the database, so that every server process on it refuses a token
//! another took, and forgotten once no timestamp that could carry it is accepted any more.

use super::{Result, Store};

impl Store {
    /// Takes `token` at `now` (Unix seconds): `true` if no post took it before, `false` if one
    /// did. Tokens taken before `forget_before` are forgotten first: one indexed delete of the
    /// few rows that have aged out, so the table holds minutes of tokens, never more. One
    /// insert decides, so of two racing posts with one token exactly one takes it.
    pub async fn take_inbound_token(
        &self,
        token: &str,
        now: i64,
        forget_before: i64,
    ) -> Result<bool> {
        let purge = "DELETE FROM inbound_tokens WHERE used_at < $1";
        let insert = "INSERT INTO inbound_tokens (token, used_at) VALUES ($1, $2)
                      ON CONFLICT (token) DO NOTHING";
        let taken = db_run!(self, writer pool => {
            sqlx::query(purge).bind(forget_before).execute(pool).await?;
            sqlx::query(insert).bind(token).bind(now).execute(pool).await?.rows_affected()
        });
        Ok(taken == 1)
    }

    /// Gives `token` back: its post was not delivered (the database failed under it), so the
    /// provider's retry of the same post may take it again.
    pub async fn release_inbound_token(&self, token: &str) -> Result<()> {
        let sql = "DELETE FROM inbound_tokens WHERE token = $1";
        db_run!(self, writer pool => {
            sqlx::query(sql).bind(token).execute(pool).await?;
        });
        Ok(())
    }
}
