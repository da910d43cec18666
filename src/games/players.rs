//! Players and their games (issue 21): a game's name, signing in by email with a one-time link,
//! a player's list of games ("My games"), their seat links sent again, and a seat claimed by an
//! email through its seat link. There are no passwords and no accounts to make: a player is an
//! email address, and the seats whose email is that address (in any case) are theirs.
//!
//! - **Sign-in link**: `request_login` makes a one-time token (`links::one_time_token`, from a
//!   random nonce and the link key), keeps only its SHA-256 with the address and an expiry
//!   `LOGIN_LIFETIME` ahead on the service's clock, and queues a `sign_in` outbox row holding the
//!   nonce, from which notify mints the link as it sends the mail (`links::pending`). The link is used once: `sign_in` takes
//!   the token in one statement (`Store::take_login`) and opens a session.
//! - **Session**: 32 random bytes, kept as their SHA-256, open `SESSION_LIFETIME`; the HTTP face
//!   holds it in a cookie. `session_email` reads it back, `sign_out` ends it.
//! - **The same answer for any address**: `request_login` and `send_links` succeed alike for an
//!   address that holds no seat — they queue nothing then — so an answer tells no one whether
//!   an address plays here. A malformed address is refused (that says nothing about anyone).
//! - **Mail per address is limited** (`ADDRESS_MAIL`): past it a request is answered as usual
//!   and sends nothing, so nobody can flood a player's mailbox through the form.

use crate::store::GameId;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::ToSchema;

use super::links::pending::{Credential, Pending};
use super::{input, links, rate, Caller, Games, Loaded, Result, ServiceError};
use crate::engine::canonical::{random32, sha256_hex};
use crate::engine::event::{kind, timestamp};
use crate::engine::ruleset::Outcome;
use crate::store::OutboxRecord;

/// How long a sign-in link works: 20 minutes, and once.
pub const LOGIN_LIFETIME: Duration = Duration::from_secs(20 * 60);
/// How long a session lasts: 30 days (signing out ends it sooner).
pub const SESSION_LIFETIME: Duration = Duration::from_secs(30 * 24 * 3600);
/// The longest game name, in characters.
pub const MAX_GAME_NAME: usize = 200;

/// How many sign-in or seat-link mails one address gets: 6 at once, then one every 5 minutes.
pub const ADDRESS_MAIL: rate::MoveRate = rate::MoveRate {
    burst: NonZeroU32::new(6).expect("non-zero"),
    per: Duration::from_secs(300),
};

/// How many sign-in requests one client address may make.
pub struct LoginRate;

impl LoginRate {
    /// 10 at once, then one every 2 minutes (30 an hour): a player who mistyped their address
    /// a few times, not a script trying addresses.
    pub const DEFAULT: rate::MoveRate = rate::MoveRate {
        burst: NonZeroU32::new(10).expect("non-zero"),
        per: Duration::from_secs(120),
    };

    /// Reads `DESPATCH_LOGIN_RATE` (`<n>/<s|min|h>`, `off`; default `30/h`) and
    /// `DESPATCH_LOGIN_BURST` (default 10).
    pub fn from_env() -> Option<rate::MoveRate> {
        rate::MoveRate::from_vars(
            "DESPATCH_LOGIN_BURST",
            "DESPATCH_LOGIN_RATE",
            LoginRate::DEFAULT,
        )
    }
}

/// The outbox row kinds of this module, which notify renders from `templates/account/`.
pub const SIGN_IN: &str = "sign_in";
pub const SEAT_LINKS: &str = "seat_links";
/// A seat's claim, mailed to the address claimed for it to confirm.
pub const CLAIM: &str = "claim";

/// How long a claim's confirmation link works: 24 hours, and once.
pub const CLAIM_LIFETIME: Duration = Duration::from_secs(24 * 3600);

/// A session just opened: its token (for the cookie, shown nowhere else) and its address.
#[derive(Debug, Clone)]
pub struct Session {
    pub token: String,
    pub email: String,
}

/// One of a player's games, as "My games" lists it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MyGame {
    #[schema(value_type = String)]
    pub game_id: GameId,
    pub name: String,
    /// The ruleset's title.
    pub ruleset: String,
    pub seat: String,
    pub seat_name: String,
    /// Whether this seat must act now.
    pub your_turn: bool,
    /// The names of the seats the game waits for.
    pub waiting_for: Vec<String>,
    /// When the current decision is due (RFC 3339 UTC), in a clocked game.
    pub deadline: Option<String>,
    /// The seat's time zone (an IANA name), when the game has a deadline and the seat set one.
    #[serde(default)]
    pub time_zone: Option<String>,
    /// The deadline as the seat reads it (`games::when`): "Wed 25 Nov, 19:21 JST (in 2 days)".
    #[serde(default)]
    pub deadline_shown: Option<String>,
    /// When the last event was recorded (RFC 3339 UTC), and what it was.
    pub last_move_at: String,
    /// When the last event was recorded as the seat reads it (`games::when`): "Sun 29 Nov,
    /// 05:59 CET" in the seat's time zone (UTC without one), and "3 hours ago".
    #[serde(default)]
    pub last_move_shown: Option<super::when::Moment>,
    pub last_move: String,
    pub ended: bool,
    pub result: Option<String>,
    /// The seat's link (a signed seat link): it opens the seat page.
    pub link: String,
}

/// A game's name as players read it: the stored one, or for a game made before games had names
/// "<ruleset title> — <seat names>".
pub fn display_name<'a>(stored: &str, title: &str, seats: impl Iterator<Item = &'a str>) -> String {
    if stored.trim().is_empty() {
        default_name(title, seats)
    } else {
        stored.to_owned()
    }
}

/// "<ruleset title> — <seat names>": the name of a game created without one.
pub fn default_name<'a>(title: &str, seats: impl Iterator<Item = &'a str>) -> String {
    let names: Vec<&str> = seats.collect();
    format!("{title} — {}", names.join(", "))
}

/// A game name as asked for at creation: trimmed, one line, at most `MAX_GAME_NAME` characters;
/// `None` when empty (the default name is used).
pub fn check_game_name(name: Option<&str>) -> Result<Option<String>> {
    let Some(name) = name.map(str::trim).filter(|n| !n.is_empty()) else {
        return Ok(None);
    };
    input::single_line("name", name, MAX_GAME_NAME)?;
    Ok(Some(name.to_owned()))
}

/// An email address as a player types it: trimmed and in lower case, one line of at most 254
/// characters with an `@` and no space.
pub fn check_email(field: &str, email: &str) -> Result<String> {
    let email = email.trim();
    input::single_line(field, email, 254)?;
    let (local, domain) = email.split_once('@').unwrap_or_default();
    if local.is_empty() || domain.is_empty() || email.contains(char::is_whitespace) {
        return Err(ServiceError::BadRequest(format!(
            "{field}: '{email}' is not an email address; write it as name@example.org"
        )));
    }
    Ok(email.to_lowercase())
}

fn epoch(at: chrono::DateTime<chrono::Utc>) -> i64 {
    at.timestamp()
}

fn secs(d: Duration) -> i64 {
    i64::try_from(d.as_secs()).unwrap_or(i64::MAX)
}

impl Games {
    /// Limits sign-in and seat-link requests per client address to `rate` (`None`: no limit);
    /// the server sets it from `LoginRate::from_env`. Mail per email address is limited
    /// whatever this says (`ADDRESS_MAIL`).
    pub fn with_login_rate(mut self, rate: Option<rate::MoveRate>) -> Self {
        self.logins = rate.map(rate::Buckets::new);
        self
    }

    /// The buckets of `with_login_rate`, keyed by client address (the HTTP face keys them).
    pub fn login_limit(&self) -> Option<&rate::Buckets<IpAddr>> {
        self.logins.as_ref()
    }

    /// Whether `email` may be sent one more account mail now.
    fn address_may_get_mail(&self, email: &str) -> bool {
        self.address_mail.check(&email.to_owned()).is_ok()
    }

    /// Mails a sign-in link to `email` if it holds a seat here; answers the same either way.
    pub async fn request_login(&self, email: &str) -> Result<()> {
        let email = check_email("email", email)?;
        let seats = self.store.seats_by_email(&email).await?;
        if seats.is_empty() || !self.address_may_get_mail(&email) {
            return Ok(());
        }
        // The link is minted as the mail is sent (`links::pending`): the outbox keeps its
        // nonce, the store the hash of its token, and neither opens a session without the key.
        let (credential, token_hash) = self.one_time(SIGN_IN).await?;
        let now = self.clock.now();
        self.store
            .put_login(
                &token_hash,
                &email,
                epoch(now),
                epoch(now) + secs(LOGIN_LIFETIME),
            )
            .await?;
        let mut pending = Pending::new();
        let link = format!(
            "{}/login/confirm?token={}",
            self.base_url,
            pending.placeholder(credential)
        );
        let mut payload = json!({
            "to": email,
            "link": link,
            "minutes": LOGIN_LIFETIME.as_secs() / 60,
            "expires_at": timestamp(now + chrono::Duration::from_std(LOGIN_LIFETIME).expect("small")),
            "games": seats.len(),
        });
        pending.attach(&mut payload);
        self.queue_account_mail(SIGN_IN, payload).await
    }

    /// Opens a session with a sign-in token: once, within `LOGIN_LIFETIME`.
    pub async fn sign_in(&self, token: &str) -> Result<Session> {
        let now = epoch(self.clock.now());
        let email = self
            .store
            .take_login(&sha256_hex(token.trim().as_bytes()), now)
            .await?
            .ok_or_else(|| {
                ServiceError::Forbidden(
                    "this sign-in link has been used, has expired (a link works once, for 20 minutes) or was never sent; ask for a new one".into(),
                )
            })?;
        let session = hex::encode(random32());
        self.store
            .put_session(
                &sha256_hex(session.as_bytes()),
                &email,
                now,
                now + secs(SESSION_LIFETIME),
            )
            .await?;
        Ok(Session {
            token: session,
            email,
        })
    }

    /// The address a session token was opened for, if the session is open.
    pub async fn session_email(&self, token: Option<&str>) -> Result<String> {
        let token = token
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .ok_or(ServiceError::Unauthorized)?;
        self.store
            .session_email(&sha256_hex(token.as_bytes()), epoch(self.clock.now()))
            .await?
            .ok_or_else(|| ServiceError::Forbidden("this session has ended; sign in again".into()))
    }

    /// Ends a session.
    pub async fn sign_out(&self, token: &str) -> Result<()> {
        self.store
            .drop_session(&sha256_hex(token.trim().as_bytes()))
            .await?;
        Ok(())
    }

    /// Mails `email` a signed link to each of its seats, if it holds any; answers the same
    /// either way.
    pub async fn send_links(&self, email: &str) -> Result<()> {
        let email = check_email("email", email)?;
        let mut games = self.my_games(&email).await?;
        if games.is_empty() || !self.address_may_get_mail(&email) {
            return Ok(());
        }
        // Each link is minted as the mail is sent, at its seat's generation then.
        let mut pending = Pending::new();
        for g in &mut games {
            let placeholder = pending.placeholder(Credential::SeatLink {
                game_id: g.game_id.to_string(),
                seat: g.seat.clone(),
            });
            g.link = self.seat_link(&g.game_id, &placeholder);
        }
        let mut payload = json!({ "to": email, "games": games });
        pending.attach(&mut payload);
        self.queue_account_mail(SEAT_LINKS, payload).await
    }

    async fn queue_account_mail(&self, kind: &str, payload: serde_json::Value) -> Result<()> {
        let row = OutboxRecord {
            game_id: String::new(),
            seq: 0,
            channel: kind.into(),
            seat: None,
            payload,
            delay: std::time::Duration::ZERO,
        };
        self.store.enqueue(&row).await?;
        Ok(())
    }

    /// Every game whose seat has `email`, the seat's turn first, then the latest moved.
    pub async fn my_games(&self, email: &str) -> Result<Vec<MyGame>> {
        let seats = self.store.seats_by_email(email).await?;
        let key = self.link_key().await?;
        let mut out = Vec::new();
        for s in seats {
            let l = match self.load(&s.game_id).await {
                Ok(l) => l,
                // A game that no longer folds is left out of the list, not the whole list.
                Err(e @ (ServiceError::Corrupt(_) | ServiceError::WouldNotLoad(_))) => {
                    tracing::error!(game = %s.game_id, error = %e, "a player's game does not fold");
                    continue;
                }
                Err(e) => return Err(e),
            };
            let token = links::seat_token(&key, &s.game_id, &s.seat, s.link_generation);
            out.push(self.my_game(&l, &s.seat, &token).await?);
        }
        out.sort_by(|a, b| {
            (b.your_turn, &b.last_move_at, &b.game_id).cmp(&(
                a.your_turn,
                &a.last_move_at,
                &a.game_id,
            ))
        });
        Ok(out)
    }

    /// One of a player's games, with the seat's link carrying `token`.
    async fn my_game(&self, l: &Loaded, seat: &str, token: &str) -> Result<MyGame> {
        let game = &l.game;
        let game_id = &l.record.game_id;
        let info = game.ruleset.info();
        let name_of = |id: &str| {
            l.seats
                .iter()
                .find(|s| s.seat == id)
                .map(|s| s.name.clone())
                .unwrap_or_else(|| id.to_owned())
        };
        let prompts = if game.ended {
            Vec::new()
        } else {
            game.prompts()
        };
        let your_turn = prompts.iter().any(|p| p.seat.as_str() == seat);
        let last = match l.events_from(game.next_seq.saturating_sub(1)) {
            Some(tail) if !tail.is_empty() => tail.last().cloned(),
            _ => self
                .store
                .events(game_id, game.next_seq.saturating_sub(1), None)
                .await?
                .pop(),
        }
        .ok_or_else(|| ServiceError::Corrupt(format!("game {game_id} has no events")))?;
        let deadline = match self.clock_policy(game_id).await? {
            Some(policy) if !prompts.is_empty() => {
                let who = if your_turn {
                    seat.to_owned()
                } else {
                    prompts[0].seat.to_string()
                };
                let log = self.whole_log(l).await?;
                super::clock::seat_deadline(&policy, &log, &who).map(timestamp)
            }
            _ => None,
        };
        let seat_zone = self.seat_time_zone(game_id, seat).await?;
        let now = Some(self.clock.now());
        let time_zone = deadline.as_ref().and(seat_zone.clone());
        let deadline_shown = deadline
            .as_deref()
            .map(|d| super::when::when(d, time_zone.as_deref(), now));
        let last_move_shown = chrono::DateTime::parse_from_rfc3339(&last.recorded_at)
            .ok()
            .map(|t| {
                let zone = super::when::zone(seat_zone.as_deref());
                super::when::moment(t.with_timezone(&chrono::Utc), zone, now)
            });
        Ok(MyGame {
            game_id: game_id.clone(),
            name: display_name(
                &l.record.name,
                &info.title,
                l.seats.iter().map(|s| s.name.as_str()),
            ),
            ruleset: info.title.clone(),
            seat: seat.to_owned(),
            seat_name: name_of(seat),
            your_turn,
            waiting_for: prompts.iter().map(|p| name_of(p.seat.as_str())).collect(),
            deadline,
            time_zone,
            deadline_shown,
            last_move_at: last.recorded_at.clone(),
            last_move_shown,
            last_move: last_move(&last.kind, &name_of(&last.seat)),
            ended: game.ended,
            result: match game.outcome() {
                Outcome::Finished { summary, .. } => Some(summary),
                Outcome::Running => None,
            },
            link: self.seat_link(game_id, token),
        })
    }

    /// Asks to give a seat an email address through its seat link (the caller holds the seat):
    /// mails that address a link that confirms it (`CLAIM`, one use, `CLAIM_LIFETIME`). Nothing
    /// about the seat changes until the link is followed (`confirm_claim`), so a seat's notices
    /// never go to an address that did not agree. The address, as it will be kept.
    pub async fn claim_seat(&self, caller: &Caller, email: &str) -> Result<String> {
        let email = check_email("email", email)?;
        let l = self.load(&caller.game_id).await?;
        let seat = l
            .seats
            .iter()
            .find(|s| s.seat == caller.seat.as_str())
            .ok_or_else(|| {
                ServiceError::NotFound(format!(
                    "game {} has no seat {}",
                    caller.game_id, caller.seat
                ))
            })?;
        if !self.address_may_get_mail(&email) {
            return Err(ServiceError::BadRequest(format!(
                "{email} has been sent several links in the last minutes; wait five minutes and claim the seat again"
            )));
        }
        let (credential, token_hash) = self.one_time(CLAIM).await?;
        let now = self.clock.now();
        self.store
            .put_claim(
                &caller.game_id,
                &token_hash,
                caller.seat.as_str(),
                &email,
                epoch(now),
                epoch(now) + secs(CLAIM_LIFETIME),
            )
            .await?;
        let mut pending = Pending::new();
        let mut payload = json!({
            "to": email,
            "link": format!(
                "{}/games/{}/claim/confirm?token={}",
                self.base_url,
                caller.game_id,
                pending.placeholder(credential)
            ),
            "game_name": name_of_loaded(&l),
            "seat_name": seat.name,
            "hours": CLAIM_LIFETIME.as_secs() / 3600,
            "expires_at": timestamp(now + chrono::Duration::from_std(CLAIM_LIFETIME).expect("small")),
        });
        pending.attach(&mut payload);
        let row = OutboxRecord {
            game_id: caller.game_id.to_string(),
            seq: 0,
            channel: CLAIM.into(),
            seat: None,
            payload,
            delay: std::time::Duration::ZERO,
        };
        self.store.enqueue(&row).await?;
        Ok(email)
    }

    /// Follows a claim's confirmation link: the seat it names gets the address it was mailed
    /// to — once, within `CLAIM_LIFETIME`. A seat whose address changes gets a new link
    /// generation: the links mailed to its old address stop opening it. The seat and the address.
    pub async fn confirm_claim(&self, game_id: &GameId, token: &str) -> Result<(String, String)> {
        let taken = self
            .store
            .take_claim(
                game_id,
                &sha256_hex(token.trim().as_bytes()),
                epoch(self.clock.now()),
            )
            .await?
            .ok_or_else(|| {
                ServiceError::Forbidden(format!(
                    "this confirmation link has been used, has expired (a link works once, for {} hours) or was never sent; claim the seat again from its page",
                    CLAIM_LIFETIME.as_secs() / 3600
                ))
            })?;
        // The cached fold holds the seats as they were read.
        self.folds.forget(game_id);
        Ok(taken)
    }
}

/// What the last event of a game was, as My games says it.
fn last_move(event: &str, seat_name: &str) -> String {
    match event {
        kind::GAME_CREATED => "the game was created".into(),
        kind::COMMAND => format!("a move by {seat_name}"),
        kind::REVEALED => "a sealed choice revealed".into(),
        kind::TIMEOUT => "a missed deadline".into(),
        kind::RESIGNED => format!("{seat_name} resigned"),
        kind::GAME_ENDED => "the game ended".into(),
        kind::CLOCK => "the game's clock".into(),
        other => other.to_owned(),
    }
}

/// The name of a game as its loaded record and seats give it.
pub fn name_of_loaded(l: &Loaded) -> String {
    display_name(
        &l.record.name,
        &l.game.ruleset.info().title,
        l.seats.iter().map(|s| s.name.as_str()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_without_a_name_is_named_after_its_rules_and_seats() {
        let seats = ["José", "Zoë Ångström", "李雷"];
        assert_eq!(
            display_name("", "The Open Table", seats.iter().copied()),
            "The Open Table — José, Zoë Ångström, 李雷"
        );
        assert_eq!(
            display_name("Friday night", "The Open Table", seats.iter().copied()),
            "Friday night"
        );
        assert_eq!(check_game_name(Some("  ")).unwrap(), None);
        assert!(check_game_name(Some("a\r\nBcc: x")).is_err());
    }

    #[test]
    fn an_email_is_one_line_with_an_at_and_is_compared_in_lower_case() {
        assert_eq!(
            check_email("email", " Zoe@Example.ORG ").unwrap(),
            "zoe@example.org"
        );
        for bad in [
            "",
            "zoe",
            "@example.org",
            "zoe@",
            "zo e@example.org",
            "z\r\n@x.org",
        ] {
            assert!(check_email("email", bad).is_err(), "{bad:?}");
        }
    }
}
