//! A player's and a seat's settings (issue 21; docs/notifications.md, "Settings"): email,
//! webhooks and reminders on or off, a daily digest in place of one email per turn, and
//! vacations given as days. The pages (`/me/settings` behind the session, `/games/{id}/settings`
//! behind the seat) only translate; this module does the work.
//!
//! - **A player's settings** are the settings of every seat their address holds when they save
//!   them: a seat made later starts with the defaults (email, webhooks and reminders on, no
//!   digest), and a seat's own page may still change its own.
//! - **The digest** (`send_digests`): once a day, at the first scheduler pass from
//!   `DIGEST_HOUR_UTC` on, every address with the digest on in some seat is sent one email
//!   listing the games waiting for those seats, with a link to each. An address with nothing
//!   waiting gets none that day (and may get one later that day, once something waits). The
//!   day's mark and the outbox row are written in one transaction, so of several schedulers
//!   exactly one sends it. With the digest on, a seat's turn notices go by webhook only;
//!   invitations, reminders, missed deadlines and results are still mailed as they happen.

use crate::store::GameId;
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::outbox::Channels;
use super::{Caller, Games, MyGame, Result, ServiceError, VacationRequest};
use crate::engine::event::timestamp;
use crate::store::OutboxRecord;

/// The outbox row kind of a digest, which notify renders from `templates/account/digest/`.
pub const DIGEST: &str = "digest";
/// The hour (UTC) from which a day's digest goes out.
pub const DIGEST_HOUR_UTC: u32 = 7;
/// How many days of digest marks are kept (they only stop a second digest the same day).
const DIGEST_MARKS_DAYS: i64 = 7;

/// One of a player's seats as their settings page lists it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SeatSettings {
    pub game: MyGame,
    pub channels: Channels,
    /// The seat's time zone (an IANA name); `None`: UTC.
    pub time_zone: Option<String>,
}

/// A player's settings: every seat of their address with its own, and the settings the form
/// starts from (those of the address's newest game).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PlayerSettings {
    pub email: String,
    pub current: Channels,
    /// The time zone the form starts from (that of the address's newest game).
    pub time_zone: Option<String>,
    pub seats: Vec<SeatSettings>,
}

/// A vacation given as calendar days (UTC), as the settings forms ask for it: from the start of
/// `from` (or now, when `from` is today) to the end of `until`.
pub fn vacation_from_days(from: &str, until: &str, now: DateTime<Utc>) -> Result<VacationRequest> {
    let day = |what: &str, text: &str| {
        NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d").map_err(|_| {
            ServiceError::BadRequest(format!(
                "{what} '{}' is not a date; write it as 2026-12-24",
                text.trim()
            ))
        })
    };
    let (first, last) = (day("from", from)?, day("until", until)?);
    if last < first {
        return Err(ServiceError::BadRequest(format!(
            "the vacation ends ({last}) before it starts ({first}); give the last day after the first"
        )));
    }
    let start = first.and_hms_opt(0, 0, 0).expect("midnight").and_utc();
    let start = if first == now.date_naive() {
        now
    } else {
        start
    };
    let end = last
        .succ_opt()
        .ok_or_else(|| ServiceError::BadRequest(format!("until '{last}' is too far ahead")))?
        .and_hms_opt(0, 0, 0)
        .expect("midnight")
        .and_utc();
    Ok(VacationRequest {
        from: timestamp(start),
        until: timestamp(end),
    })
}

impl Games {
    /// Every seat `email` holds, with its settings.
    pub async fn player_settings(&self, email: &str) -> Result<PlayerSettings> {
        let games = self.my_games(email).await?;
        let mut seats = Vec::with_capacity(games.len());
        for game in games {
            let channels = self.store.channels(&game.game_id, &game.seat).await?;
            let time_zone = self.store.seat_time_zone(&game.game_id, &game.seat).await?;
            seats.push(SeatSettings {
                game,
                channels,
                time_zone,
            });
        }
        let newest = self.store.seats_by_email(email).await?;
        let (current, time_zone) = match newest.first() {
            Some(s) => (
                self.store.channels(&s.game_id, &s.seat).await?,
                self.store.seat_time_zone(&s.game_id, &s.seat).await?,
            ),
            None => (Channels::default(), None),
        };
        Ok(PlayerSettings {
            email: email.to_owned(),
            current,
            time_zone,
            seats,
        })
    }

    /// The caller's time zone (an IANA name), if the seat set one: its deadlines, in its mail
    /// and on its page, are written in it (`games::when`).
    pub async fn time_zone(&self, caller: &Caller) -> Result<Option<String>> {
        self.seat_time_zone(&caller.game_id, caller.seat.as_str())
            .await
    }

    /// The time zone of seat `seat` of `game_id`, if it set one (a notice's).
    pub async fn seat_time_zone(&self, game_id: &GameId, seat: &str) -> Result<Option<String>> {
        Ok(self.store.seat_time_zone(game_id, seat).await?)
    }

    /// Sets the caller's time zone from what the player typed (empty: UTC); the zone's
    /// canonical name, or why it is not one, with nothing changed.
    pub async fn set_time_zone(&self, caller: &Caller, typed: &str) -> Result<Option<String>> {
        let zone = super::when::check_zone(typed).map_err(ServiceError::BadRequest)?;
        self.store
            .set_seat_time_zone(&caller.game_id, caller.seat.as_str(), zone.as_deref())
            .await?;
        Ok(zone)
    }

    /// Gives every seat `email` holds the time zone typed (empty: UTC), or says why it is not
    /// one and changes nothing.
    pub async fn set_player_time_zone(&self, email: &str, typed: &str) -> Result<Option<String>> {
        let zone = super::when::check_zone(typed).map_err(ServiceError::BadRequest)?;
        self.store
            .set_time_zone_by_email(email, zone.as_deref())
            .await?;
        Ok(zone)
    }

    /// Gives every seat `email` holds the settings `channels`; how many seats.
    pub async fn set_player_channels(&self, email: &str, channels: Channels) -> Result<u64> {
        Ok(self.store.set_channels_by_email(email, channels).await?)
    }

    /// Takes the same vacation in every clocked game of `email`'s: for each game, its name and
    /// what happened (the vacation recorded, or why not). A game without a clock is left out.
    pub async fn player_vacation(
        &self,
        email: &str,
        req: &VacationRequest,
    ) -> Result<Vec<(String, std::result::Result<String, String>)>> {
        let mut out = Vec::new();
        for game in self.my_games(email).await? {
            if game.ended || self.clock_policy(&game.game_id).await?.is_none() {
                continue;
            }
            let caller = Caller {
                game_id: game.game_id.clone(),
                seat: crate::engine::ruleset::Seat::parse(&game.seat)
                    .map_err(ServiceError::Corrupt)?,
            };
            let done = match self.take_vacation(&caller, req).await {
                Ok(v) => {
                    let days = v["days"].as_i64().unwrap_or_default();
                    Ok(format!(
                        "{days} day{}, {} left this year",
                        if days == 1 { "" } else { "s" },
                        v["days_left"]
                    ))
                }
                Err(ServiceError::BadRequest(m)) => Err(m),
                Err(e) => return Err(e),
            };
            out.push((game.name, done));
        }
        Ok(out)
    }

    /// Queues today's digest for every address that asked for one and has a game waiting for
    /// it, once a day from `DIGEST_HOUR_UTC` (the scheduler calls this on every pass). How
    /// many it queued.
    pub async fn send_digests(&self) -> Result<usize> {
        let now = self.clock.now();
        if chrono::Timelike::hour(&now) < DIGEST_HOUR_UTC {
            return Ok(0);
        }
        let day = now.date_naive();
        let forget = (day - chrono::Duration::days(DIGEST_MARKS_DAYS)).to_string();
        let mut queued = 0;
        for email in self.store.digest_addresses().await? {
            let mut waiting = Vec::new();
            for game in self.my_games(&email).await? {
                if game.your_turn
                    && !game.ended
                    && self.store.channels(&game.game_id, &game.seat).await?.digest
                {
                    waiting.push(game);
                }
            }
            if waiting.is_empty() {
                continue;
            }
            let row = OutboxRecord {
                game_id: String::new(),
                seq: 0,
                channel: DIGEST.into(),
                seat: None,
                payload: json!({
                    "to": email,
                    "day": day.format("%a %-d %b %Y").to_string(),
                    "games": waiting,
                    "settings_link": format!("{}/me/settings", self.base_url),
                }),
                delay: std::time::Duration::ZERO,
            };
            if self
                .store
                .queue_digest(&email, &day.to_string(), &forget, &row)
                .await?
            {
                queued += 1;
            }
        }
        Ok(queued)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn a_vacation_in_days_runs_from_the_first_days_start_to_the_last_days_end() {
        let now = Utc.with_ymd_and_hms(2026, 11, 24, 15, 30, 0).unwrap();
        let v = vacation_from_days("2026-12-01", "2026-12-07", now).unwrap();
        assert_eq!(v.from, "2026-12-01T00:00:00.000Z");
        assert_eq!(v.until, "2026-12-08T00:00:00.000Z");
        // Today starts now: a vacation is never taken in the past.
        let v = vacation_from_days("2026-11-24", "2026-11-24", now).unwrap();
        assert_eq!(v.from, "2026-11-24T15:30:00.000Z");
        assert_eq!(v.until, "2026-11-25T00:00:00.000Z");
        assert!(vacation_from_days("2026-12-07", "2026-12-01", now).is_err());
        assert!(vacation_from_days("next week", "2026-12-01", now).is_err());
    }
}
