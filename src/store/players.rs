//! What signing in by email keeps (`games::players`): the seats an address holds, one-time
//! login tokens and sessions — each stored only as the SHA-256 of its token — and a seat's
//! address when a seat is claimed. Times are seconds since the Unix epoch on the service's
//! clock, which the caller passes in, so that expiry is tested without waiting.
//!
//! Two of these queries name no game: an address's seats are looked up across games (by the
//! `seats_email` index), and the login tables belong to an address, not to a game.

use serde::{Deserialize, Serialize};

use super::{GameId, Result, Store};

/// A seat an email address holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct PlayerSeat {
    #[sqlx(try_from = "String")]
    pub game_id: GameId,
    pub seat: String,
    /// The seat's player name.
    pub name: String,
    /// The seat's link generation (`games::links::seat_token`).
    pub link_generation: i64,
}

impl Store {
    /// Every seat whose email is `email`, in any case, newest game first.
    pub async fn seats_by_email(&self, email: &str) -> Result<Vec<PlayerSeat>> {
        let sql = "SELECT s.game_id, s.seat, s.name, s.link_generation FROM seats s JOIN games g ON g.game_id = s.game_id
                   WHERE lower(s.email) = lower($1) ORDER BY g.created_at DESC, s.game_id, s.position";
        Ok(db_run!(self, writer pool => {
            sqlx::query_as(sql).bind(email).fetch_all(pool).await?
        }))
    }

    /// Sets the email of a seat (a seat claimed through its link). False if there is no such seat.
    pub async fn set_seat_email(&self, game_id: &str, seat: &str, email: &str) -> Result<bool> {
        let sql = "UPDATE seats SET email = $3 WHERE game_id = $1 AND seat = $2";
        let n = db_run!(self, writer pool => {
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
        db_run!(self, writer pool => {
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
        Ok(db_run!(self, writer pool => {
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
        db_run!(self, writer pool => {
            sqlx::query(purge).bind(now).execute(pool).await?;
            sqlx::query(insert).bind(session_hash).bind(email).bind(expires_at).execute(pool).await?;
        });
        Ok(())
    }

    /// The email of a session still open at `now`.
    pub async fn session_email(&self, session_hash: &str, now: i64) -> Result<Option<String>> {
        let sql = "SELECT email FROM sessions WHERE session_hash = $1 AND expires_at > $2";
        Ok(db_run!(self, writer pool => {
            sqlx::query_scalar(sql).bind(session_hash).bind(now).fetch_optional(pool).await?
        }))
    }

    /// Ends a session (signing out).
    pub async fn drop_session(&self, session_hash: &str) -> Result<()> {
        let sql = "DELETE FROM sessions WHERE session_hash = $1";
        db_run!(self, writer pool => {
            sqlx::query(sql).bind(session_hash).execute(pool).await?;
        });
        Ok(())
    }

    /// Signs an address out everywhere, in one transaction: every session opened for it ends,
    /// and every seat whose email it is moves its link generation on, so that no link mailed
    /// to it before opens a seat. How many seats that was.
    pub async fn sign_out_everywhere(&self, email: &str) -> Result<u64> {
        let sessions = "DELETE FROM sessions WHERE lower(email) = lower($1)";
        let seats =
            "UPDATE seats SET link_generation = link_generation + 1 WHERE lower(email) = lower($1)";
        Ok(db_run!(self, writer pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(sessions).bind(email).execute(&mut *tx).await?;
            let n = sqlx::query(seats).bind(email).execute(&mut *tx).await?.rows_affected();
            tx.commit().await?;
            n
        }))
    }

    /// A seat's link generation, if the game has the seat.
    pub async fn seat_link_generation(&self, game_id: &str, seat: &str) -> Result<Option<i64>> {
        let sql = "SELECT link_generation FROM seats WHERE game_id = $1 AND seat = $2";
        Ok(db_run!(self, reader pool => {
            sqlx::query_scalar(sql).bind(game_id).bind(seat).fetch_optional(pool).await?
        }))
    }

    /// Moves a seat's link generation on, so that every seat link signed before stops opening
    /// it. The new generation, if the game has the seat.
    pub async fn revoke_seat_links(&self, game_id: &str, seat: &str) -> Result<Option<i64>> {
        let sql = "UPDATE seats SET link_generation = link_generation + 1
                   WHERE game_id = $1 AND seat = $2 RETURNING link_generation";
        Ok(db_run!(self, writer pool => {
            sqlx::query_scalar(sql).bind(game_id).bind(seat).fetch_optional(pool).await?
        }))
    }

    /// The addresses that asked for a daily digest on at least one seat of a running game
    /// (with email on), in lower case.
    pub async fn digest_addresses(&self) -> Result<Vec<String>> {
        let sql = "SELECT DISTINCT lower(s.email) FROM seats s
                   JOIN seat_channels c ON c.game_id = s.game_id AND c.seat = s.seat
                   JOIN games g ON g.game_id = s.game_id
                   WHERE s.email IS NOT NULL AND c.digest AND c.email AND NOT g.ended
                   ORDER BY 1";
        Ok(db_run!(self, writer pool => {
            sqlx::query_scalar(sql).fetch_all(pool).await?
        }))
    }

    /// Sets the channels of every seat `email` holds (in any case) to `channels`: a player's
    /// settings page. How many seats it set.
    pub async fn set_channels_by_email(
        &self,
        email: &str,
        channels: super::Channels,
    ) -> Result<u64> {
        let sql = "INSERT INTO seat_channels (game_id, seat, email, webhooks, reminders, digest, auto_pass)
                   SELECT s.game_id, s.seat, $2, $3, $4, $5, $6 FROM seats s WHERE lower(s.email) = lower($1)
                   ON CONFLICT (game_id, seat) DO UPDATE SET email = excluded.email,
                   webhooks = excluded.webhooks, reminders = excluded.reminders, digest = excluded.digest,
                   auto_pass = excluded.auto_pass";
        Ok(db_run!(self, writer pool => {
            sqlx::query(sql)
                .bind(email)
                .bind(channels.email)
                .bind(channels.webhooks)
                .bind(channels.reminders)
                .bind(channels.digest)
                .bind(channels.auto_pass)
                .execute(pool)
                .await?
                .rows_affected()
        }))
    }

    /// Queues `row`, the digest of `email` for `day`, unless that day's digest was queued
    /// already: the day's mark and the row in one transaction, so that of several schedulers
    /// exactly one queues it and a failure queues nothing; marks of days before
    /// `forget_before` (`YYYY-MM-DD`) are forgotten. Whether it was queued.
    pub async fn queue_digest(
        &self,
        email: &str,
        day: &str,
        forget_before: &str,
        row: &super::OutboxRecord,
    ) -> Result<bool> {
        let purge = "DELETE FROM digests WHERE day < $1";
        let mark = "INSERT INTO digests (email, day) VALUES ($1, $2) ON CONFLICT DO NOTHING";
        let insert =
            "INSERT INTO outbox (game_id, seq, channel, seat, payload) VALUES ($1, $2, $3, $4, $5)";
        let seq = i64::try_from(row.seq).unwrap_or(i64::MAX);
        Ok(db_run!(self, writer pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(purge).bind(forget_before).execute(&mut *tx).await?;
            let marked = sqlx::query(mark).bind(email).bind(day).execute(&mut *tx).await?.rows_affected() == 1;
            if marked {
                sqlx::query(insert)
                    .bind(&row.game_id)
                    .bind(seq)
                    .bind(&row.channel)
                    .bind(&row.seat)
                    .bind(row.payload.to_string())
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            marked
        }))
    }
}

impl Store {
    /// Keeps a claim token's hash: seat `seat` of `game_id` asks to be `email`'s, until
    /// `expires_at`. Forgets the game's claims expired before `now`.
    pub async fn put_claim(
        &self,
        game_id: &str,
        token_hash: &str,
        seat: &str,
        email: &str,
        now: i64,
        expires_at: i64,
    ) -> Result<()> {
        let purge = "DELETE FROM claim_tokens WHERE game_id = $1 AND expires_at < $2";
        let insert = "INSERT INTO claim_tokens (game_id, token_hash, seat, email, expires_at) VALUES ($1, $2, $3, $4, $5)";
        db_run!(self, writer pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(purge).bind(game_id).bind(now).execute(&mut *tx).await?;
            sqlx::query(insert).bind(game_id).bind(token_hash).bind(seat).bind(email).bind(expires_at).execute(&mut *tx).await?;
            tx.commit().await?;
        });
        Ok(())
    }

    /// Uses a claim token of `game_id` that is unused and unexpired at `now`, and gives its seat
    /// its address, in one transaction: of two racing uses one wins, and a token is never used
    /// up without the address set. A seat whose address changes moves its link generation on,
    /// so the links mailed to the address it had stop opening it. The seat and the address, or
    /// `None`.
    pub async fn take_claim(
        &self,
        game_id: &str,
        token_hash: &str,
        now: i64,
    ) -> Result<Option<(String, String)>> {
        let take = "UPDATE claim_tokens SET used_at = $3
                    WHERE game_id = $1 AND token_hash = $2 AND used_at IS NULL AND expires_at > $3
                    RETURNING seat, email";
        let set = "UPDATE seats SET email = $3,
                       link_generation = link_generation
                           + CASE WHEN email IS NULL OR email <> $3 THEN 1 ELSE 0 END
                   WHERE game_id = $1 AND seat = $2";
        Ok(db_run!(self, writer pool => {
            let mut tx = pool.begin().await?;
            let taken: Option<(String, String)> = sqlx::query_as(take)
                .bind(game_id)
                .bind(token_hash)
                .bind(now)
                .fetch_optional(&mut *tx)
                .await?;
            if let Some((seat, email)) = &taken {
                sqlx::query(set).bind(game_id).bind(seat).bind(email).execute(&mut *tx).await?;
            }
            tx.commit().await?;
            taken
        }))
    }
}
