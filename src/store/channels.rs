//! Which channels each seat hears on (`seat_channels`), and whether a notice for a seat would
//! reach anyone at all.

use serde::{Deserialize, Serialize};

use super::{Result, Store};

/// Which channels a seat hears on, and how: email, webhooks and reminders are on and the
/// daily digest off until the seat (or its player, from their settings page) chooses otherwise.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema, sqlx::FromRow,
)]
pub struct Channels {
    pub email: bool,
    pub webhooks: bool,
    /// Reminders before a deadline (email and the seat's own webhooks). Absent: on.
    #[serde(default = "on")]
    pub reminders: bool,
    /// One email a day listing the games waiting for the seat's address, in place of an email
    /// per turn. Absent: off.
    #[serde(default)]
    pub digest: bool,
    /// In a game with reactive windows (Searching for Glory's, 1.e): when a window opens and
    /// the seat holds no card that can answer it, the server plays `pass` for it at once, as
    /// the seat's own event — which tells the table the seat held no answering card. Absent:
    /// off.
    #[serde(default)]
    pub auto_pass: bool,
}

fn on() -> bool {
    true
}

impl Default for Channels {
    fn default() -> Self {
        Channels {
            email: true,
            webhooks: true,
            reminders: true,
            digest: false,
            auto_pass: false,
        }
    }
}

impl Store {
    pub async fn channels(&self, game_id: &str, seat: &str) -> Result<Channels> {
        let sql = "SELECT email, webhooks, reminders, digest, auto_pass FROM seat_channels WHERE game_id = $1 AND seat = $2";
        let found: Option<Channels> = db_run!(self, reader pool => {
            sqlx::query_as(sql).bind(game_id).bind(seat).fetch_optional(pool).await?
        });
        Ok(found.unwrap_or_default())
    }

    /// Whether a notice for `seat` would go anywhere: the seat has an email address it has not
    /// turned off, or the game has a hook that hears it (a game-wide hook, or the seat's own
    /// while its webhooks are on). One read, so that a notice nobody hears is let go without
    /// composing it. A seat the game does not have counts as heard: composing it says why not.
    pub async fn reaches(&self, game_id: &str, seat: &str) -> Result<bool> {
        let sql = "SELECT ((s.email IS NOT NULL AND COALESCE(c.email, TRUE))
                       OR EXISTS (SELECT 1 FROM webhooks w WHERE w.game_id = s.game_id
                                  AND (w.seat IS NULL OR (w.seat = s.seat AND COALESCE(c.webhooks, TRUE)))))
                   FROM seats s LEFT JOIN seat_channels c ON c.game_id = s.game_id AND c.seat = s.seat
                   WHERE s.game_id = $1 AND s.seat = $2";
        let found: Option<bool> = db_run!(self, reader pool => {
            sqlx::query_scalar(sql).bind(game_id).bind(seat).fetch_optional(pool).await?
        });
        Ok(found.unwrap_or(true))
    }

    pub async fn set_channels(&self, game_id: &str, seat: &str, channels: Channels) -> Result<()> {
        let sql = "INSERT INTO seat_channels (game_id, seat, email, webhooks, reminders, digest, auto_pass) VALUES ($1, $2, $3, $4, $5, $6, $7)
                   ON CONFLICT (game_id, seat) DO UPDATE SET email = excluded.email, webhooks = excluded.webhooks,
                   reminders = excluded.reminders, digest = excluded.digest, auto_pass = excluded.auto_pass";
        db_run!(self, reader pool => {
            sqlx::query(sql)
                .bind(game_id)
                .bind(seat)
                .bind(channels.email)
                .bind(channels.webhooks)
                .bind(channels.reminders)
                .bind(channels.digest)
                .bind(channels.auto_pass)
                .execute(pool)
                .await?;
        });
        Ok(())
    }
}
