//! Small things kept beside the games: a seat's time zone (in `seat_channels`, beside its
//! channels; `games::when` writes its deadlines in it) and the service's own settings
//! (`service_settings`: the base URL `despatch serve` stores so that `despatch mail-in`'s links
//! match the notices).

use super::{Result, Store};

/// The service setting that holds the base URL players reach the service at.
pub const BASE_URL: &str = "base_url";

impl Store {
    /// The seat's time zone (an IANA name), if it set one.
    pub async fn seat_time_zone(&self, game_id: &str, seat: &str) -> Result<Option<String>> {
        let sql = "SELECT time_zone FROM seat_channels WHERE game_id = $1 AND seat = $2";
        let found: Option<Option<String>> = db_run!(self, writer pool => {
            sqlx::query_scalar(sql).bind(game_id).bind(seat).fetch_optional(pool).await?
        });
        Ok(found.flatten())
    }

    /// Sets (or with `None` clears) the seat's time zone; its channels stay as they are (a seat
    /// with no row gets the default channels).
    pub async fn set_seat_time_zone(
        &self,
        game_id: &str,
        seat: &str,
        time_zone: Option<&str>,
    ) -> Result<()> {
        let sql = "INSERT INTO seat_channels (game_id, seat, email, webhooks, time_zone) VALUES ($1, $2, TRUE, TRUE, $3)
                   ON CONFLICT (game_id, seat) DO UPDATE SET time_zone = excluded.time_zone";
        db_run!(self, writer pool => {
            sqlx::query(sql).bind(game_id).bind(seat).bind(time_zone).execute(pool).await?;
        });
        Ok(())
    }

    /// Sets the time zone of every seat `email` holds (in any case): a player's settings page.
    /// How many seats it set.
    pub async fn set_time_zone_by_email(
        &self,
        email: &str,
        time_zone: Option<&str>,
    ) -> Result<u64> {
        let sql = "INSERT INTO seat_channels (game_id, seat, email, webhooks, time_zone)
                   SELECT s.game_id, s.seat, TRUE, TRUE, $2 FROM seats s WHERE lower(s.email) = lower($1)
                   ON CONFLICT (game_id, seat) DO UPDATE SET time_zone = excluded.time_zone";
        Ok(db_run!(self, writer pool => {
            sqlx::query(sql).bind(email).bind(time_zone).execute(pool).await?.rows_affected()
        }))
    }

    /// A setting of the service's (`BASE_URL`), if stored.
    pub async fn service_setting(&self, name: &str) -> Result<Option<String>> {
        let sql = "SELECT value FROM service_settings WHERE name = $1";
        Ok(db_run!(self, writer pool => {
            sqlx::query_scalar(sql).bind(name).fetch_optional(pool).await?
        }))
    }

    /// Stores a setting of the service's, replacing what was there.
    pub async fn set_service_setting(&self, name: &str, value: &str) -> Result<()> {
        let sql = "INSERT INTO service_settings (name, value) VALUES ($1, $2)
                   ON CONFLICT (name) DO UPDATE SET value = excluded.value";
        db_run!(self, writer pool => {
            sqlx::query(sql).bind(name).bind(value).execute(pool).await?;
        });
        Ok(())
    }
}
