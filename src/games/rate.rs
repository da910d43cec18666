//! Per-seat move rate limits (DESIGN.md, Security: "move rates are limited per seat").
//!
//! Every move a seat submits — over HTTP, by email or from the CLI — goes through
//! `Games::submit`, which asks this limiter first. The limit is a token bucket per
//! (game, seat): a burst of moves at once, then one more each refill period. A refused move is
//! refused before anything is read or written, so it changes nothing. The clock's timeouts and
//! events are not moves of a seat and are never limited.
//!
//! Game creation over HTTP is limited the same way, per client address (`CreateRate`,
//! `Buckets<IpAddr>`): the HTTP face keys the buckets, since only it knows the address.
//!
//! The buckets live in the process's memory: with several server processes on one PostgreSQL
//! database each process limits on its own, so a seat whose requests are spread over `n`
//! processes may make up to `n` times the configured rate. The limit is there to stop a runaway
//! client, not to meter play, and that bound is good enough for it.

use std::fmt;
use std::hash::Hash;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};

/// How many moves a seat may make at once, and how fast its allowance comes back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveRate {
    /// Moves at once.
    pub burst: NonZeroU32,
    /// One more move each `per`.
    pub per: Duration,
}

impl MoveRate {
    /// 60 moves at once, then one every 2 s (30 a minute): far above a person clicking through
    /// a multi-step turn or a mail client sending one message a move, far below a script in a
    /// loop.
    pub const DEFAULT: MoveRate = MoveRate {
        burst: NonZeroU32::new(60).expect("non-zero"),
        per: Duration::from_secs(2),
    };

    /// Reads `DESPATCH_MOVE_RATE` (`<moves>/<s|min|h>`, `off` for no limit; default `30/min`) and
    /// `DESPATCH_MOVE_BURST` (default 60). A value that does not parse is reported and the
    /// default used.
    pub fn from_env() -> Option<MoveRate> {
        Self::from_vars(
            "DESPATCH_MOVE_BURST",
            "DESPATCH_MOVE_RATE",
            MoveRate::DEFAULT,
        )
    }

    /// A bucket's size from the variable `burst_var` and its refill from `rate_var`
    /// (`<n>/<s|min|h>`, `off` for no limit), `default` for either when unset. A value that
    /// does not parse is reported and the default used.
    pub fn from_vars(burst_var: &str, rate_var: &str, default: MoveRate) -> Option<MoveRate> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let burst = match var(burst_var) {
            None => default.burst,
            Some(v) => v.trim().parse().unwrap_or_else(|_| {
                tracing::warn!(
                    "{burst_var}={v} is not a whole number above 0; using {}",
                    default.burst
                );
                default.burst
            }),
        };
        let per = match var(rate_var) {
            None => default.per,
            Some(v) if v.trim().eq_ignore_ascii_case("off") => return None,
            Some(v) => parse_rate(&v).unwrap_or_else(|| {
                tracing::warn!(
                    "{rate_var}={v} is not <n>/<s|min|h> (e.g. 30/min) or off; using one every {}",
                    seconds(default.per)
                );
                default.per
            }),
        };
        Some(MoveRate { burst, per })
    }
}

/// How many games one client address may create at once, and how fast that comes back.
pub struct CreateRate;

impl CreateRate {
    /// 20 games at once, then one a minute (60 an hour): more than a club setting up a
    /// tournament's tables by hand, far fewer than a script filling the database.
    pub const DEFAULT: MoveRate = MoveRate {
        burst: NonZeroU32::new(20).expect("non-zero"),
        per: Duration::from_secs(60),
    };

    /// Reads `DESPATCH_CREATE_RATE` (`<games>/<s|min|h>`, `off` for no limit; default `60/h`)
    /// and `DESPATCH_CREATE_BURST` (default 20).
    pub fn from_env() -> Option<MoveRate> {
        MoveRate::from_vars(
            "DESPATCH_CREATE_BURST",
            "DESPATCH_CREATE_RATE",
            CreateRate::DEFAULT,
        )
    }
}

/// `30/min` → one move every 2 s.
fn parse_rate(text: &str) -> Option<Duration> {
    let (moves, unit) = text.trim().split_once('/')?;
    let moves: u32 = moves.trim().parse().ok().filter(|&m| m > 0)?;
    let unit = match unit.trim() {
        "s" | "sec" | "second" => Duration::from_secs(1),
        "min" | "minute" => Duration::from_secs(60),
        "h" | "hour" => Duration::from_secs(3600),
        _ => return None,
    };
    Some(unit / moves).filter(|d| !d.is_zero())
}

impl fmt::Display for MoveRate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "at most {} moves at once, then one every {}",
            self.burst,
            seconds(self.per)
        )
    }
}

/// A refused move: the limit, and how long until the seat may move again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limited {
    pub rate: MoveRate,
    pub retry_after: Duration,
}

impl Limited {
    /// Whole seconds to wait (at least 1), for `Retry-After`.
    pub fn retry_after_secs(&self) -> u64 {
        let d = self.retry_after;
        (d.as_secs() + u64::from(d.subsec_nanos() > 0)).max(1)
    }
}

/// One token bucket per key, all of one rate, shared by clones.
#[derive(Clone)]
pub struct Buckets<K: Hash + Eq + Clone> {
    rate: MoveRate,
    buckets: Arc<DefaultKeyedRateLimiter<K>>,
    /// Checks since the idle buckets were last dropped.
    checks: Arc<AtomicU32>,
}

/// How often (in checks) buckets that are full again are dropped, to keep memory bounded.
const SWEEP_EVERY: u32 = 4096;

impl<K: Hash + Eq + Clone> Buckets<K> {
    pub fn new(rate: MoveRate) -> Buckets<K> {
        let quota = Quota::with_period(rate.per)
            .expect("a rate's period is never zero")
            .allow_burst(rate.burst);
        Buckets {
            rate,
            buckets: Arc::new(DefaultKeyedRateLimiter::keyed(quota)),
            checks: Arc::new(AtomicU32::new(0)),
        }
    }

    pub fn rate(&self) -> MoveRate {
        self.rate
    }

    /// Takes one token from `key`'s bucket, or says how long until there is one.
    pub fn check(&self, key: &K) -> Result<(), Limited> {
        if self.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            self.buckets.retain_recent();
        }
        self.buckets.check_key(key).map_err(|not_until| Limited {
            rate: self.rate,
            retry_after: not_until.wait_time_from(DefaultClock::default().now()),
        })
    }
}

/// The move limiter of a service: one bucket per (game, seat), shared by clones.
#[derive(Clone)]
pub struct MoveLimiter(Buckets<(String, String)>);

impl MoveLimiter {
    pub fn new(rate: MoveRate) -> MoveLimiter {
        MoveLimiter(Buckets::new(rate))
    }

    pub fn rate(&self) -> MoveRate {
        self.0.rate()
    }

    /// Takes one move from the seat's bucket, or says how long until there is one.
    pub fn check(&self, game_id: &str, seat: &str) -> Result<(), Limited> {
        self.0.check(&(game_id.to_owned(), seat.to_owned()))
    }
}

/// `2 s`, `1.5 s`, `2 min`.
fn seconds(d: Duration) -> String {
    if d.as_secs() >= 120 && d.as_secs().is_multiple_of(60) {
        format!("{} min", d.as_secs() / 60)
    } else if d.subsec_millis() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rate_reads_as_moves_per_unit() {
        assert_eq!(parse_rate("30/min"), Some(Duration::from_secs(2)));
        assert_eq!(parse_rate(" 2 / s "), Some(Duration::from_millis(500)));
        assert_eq!(parse_rate("1/h"), Some(Duration::from_secs(3600)));
        assert_eq!(parse_rate("0/min"), None);
        assert_eq!(parse_rate("30"), None);
        assert_eq!(parse_rate("30/fortnight"), None);
    }

    #[test]
    fn a_seat_gets_its_burst_then_waits_and_other_seats_are_not_affected() {
        let limiter = MoveLimiter::new(MoveRate {
            burst: NonZeroU32::new(2).unwrap(),
            per: Duration::from_secs(3600),
        });
        assert!(limiter.check("g", "anna").is_ok());
        assert!(limiter.check("g", "anna").is_ok());
        let refused = limiter.check("g", "anna").unwrap_err();
        assert!(refused.retry_after > Duration::from_secs(3500));
        assert!(refused.retry_after_secs() > 3500);
        assert!(limiter.check("g", "ben").is_ok());
        assert!(limiter.check("other", "anna").is_ok());
    }
}
