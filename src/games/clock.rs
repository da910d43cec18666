//! Time for slow games: the clock policy a game chooses at creation, the source of "now" (a
//! trait, so tests inject the instant they need), and the arithmetic of deadlines — a move
//! deadline counts only time the game's clock runs, so weekends (when the policy pauses them, in
//! the game's own time zone, daylight saving included) and a seat's vacations push it later.
//!
//! A game's clock is the game's business, so it lives with the games service: the policy is
//! chosen when the game is created, vacations and deadlines are read from its log. Nothing here
//! touches the store: the scheduler (`notify::scheduler`) reads the log, asks this module when
//! things fall due, and appends what happened through `Games`.

use std::sync::{Arc, Mutex};

use chrono::{DateTime, Datelike, Duration, NaiveDate, TimeZone, Utc, Weekday};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::engine::event::{kind, Event};

/// Where "now" comes from.
pub trait Clock: Send + Sync {
    fn now(&self) -> DateTime<Utc>;
}

/// The system's clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// A clock that says what it is told: for tests and benchmarks.
#[derive(Debug, Clone)]
pub struct ManualClock(Arc<Mutex<DateTime<Utc>>>);

impl ManualClock {
    pub fn new(at: DateTime<Utc>) -> ManualClock {
        ManualClock(Arc::new(Mutex::new(at)))
    }
    pub fn set(&self, at: DateTime<Utc>) {
        *self.0.lock().expect("clock lock") = at;
    }
    pub fn advance(&self, by: Duration) {
        *self.0.lock().expect("clock lock") += by;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> DateTime<Utc> {
        *self.0.lock().expect("clock lock")
    }
}

/// What a missed deadline does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum OnDeadline {
    /// Tell the seat (and start a new deadline of the same length).
    Remind,
    /// Play the decision as a pass where the rules allow one; otherwise remind.
    Pass,
    /// Stop the clock until someone moves.
    Pause,
    /// Remind, and resign the seat at its `forfeit_after`-th missed deadline.
    Forfeit,
}

/// A game's clock, chosen at creation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClockPolicy {
    /// Hours of running clock a seat has for each decision.
    #[schema(minimum = 1, maximum = 1440)]
    pub move_deadline_hours: u32,
    /// Reminders, in hours before the deadline (`[24, 2]`).
    #[serde(default)]
    pub reminders_hours: Vec<u32>,
    /// Whether Saturday and Sunday (in `time_zone`) stop the clock.
    #[serde(default)]
    pub pause_weekends: bool,
    /// An IANA time zone (`Europe/London`): where the weekend is.
    #[serde(default = "utc")]
    pub time_zone: String,
    /// Vacation days each seat may take per calendar year, in advance, through the API.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 366)]
    pub vacation_days_per_year: u32,
    pub on_deadline: OnDeadline,
    /// With `forfeit`: the missed deadline at which the seat resigns.
    #[serde(default = "three")]
    pub forfeit_after: u32,
}

fn utc() -> String {
    "UTC".into()
}
fn three() -> u32 {
    3
}

/// A preset by name, or a policy spelled out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum ClockChoice {
    Preset(String),
    Policy(ClockPolicy),
}

/// The presets, for days-long play.
pub const PRESETS: &[&str] = &["relaxed", "standard", "brisk"];

impl ClockPolicy {
    /// `relaxed`: 72 h a move, reminders 24 h and 2 h before, weekends off, 21 vacation days,
    /// a missed deadline only reminds. `standard`: 48 h, reminders 12 h and 2 h before, weekends
    /// off, 14 days, a missed deadline passes where the rules allow. `brisk`: 24 h, a reminder
    /// 4 h before, weekends count, 7 days, the third missed deadline forfeits.
    pub fn preset(name: &str) -> Option<ClockPolicy> {
        let p = |hours, reminders: &[u32], weekends, days, on, after| ClockPolicy {
            move_deadline_hours: hours,
            reminders_hours: reminders.to_vec(),
            pause_weekends: weekends,
            time_zone: "UTC".into(),
            vacation_days_per_year: days,
            on_deadline: on,
            forfeit_after: after,
        };
        match name {
            "relaxed" => Some(p(72, &[24, 2], true, 21, OnDeadline::Remind, 3)),
            "standard" => Some(p(48, &[12, 2], true, 14, OnDeadline::Pass, 3)),
            "brisk" => Some(p(24, &[4], false, 7, OnDeadline::Forfeit, 3)),
            _ => None,
        }
    }

    /// Resolves a choice into a checked policy, or says what is wrong.
    pub fn choose(choice: &ClockChoice) -> Result<ClockPolicy, ClockError> {
        let policy = match choice {
            ClockChoice::Preset(name) => {
                ClockPolicy::preset(name).ok_or_else(|| ClockError::NoSuchPreset(name.clone()))?
            }
            ClockChoice::Policy(p) => p.clone(),
        };
        policy.check()?;
        Ok(policy)
    }

    pub fn check(&self) -> Result<(), ClockError> {
        if self.move_deadline_hours == 0 || self.move_deadline_hours > 24 * 60 {
            return Err(ClockError::DeadlineHours);
        }
        if let Some(r) = self
            .reminders_hours
            .iter()
            .find(|r| **r == 0 || **r >= self.move_deadline_hours)
        {
            return Err(ClockError::Reminder {
                hours: *r,
                deadline: self.move_deadline_hours,
            });
        }
        self.tz()?;
        if self.vacation_days_per_year > 366 {
            return Err(ClockError::VacationDays);
        }
        if self.on_deadline == OnDeadline::Forfeit && self.forfeit_after == 0 {
            return Err(ClockError::ForfeitAfter);
        }
        Ok(())
    }

    pub fn tz(&self) -> Result<Tz, ClockError> {
        self.time_zone
            .parse::<Tz>()
            .map_err(|_| ClockError::TimeZone(self.time_zone.clone()))
    }

    pub fn deadline_length(&self) -> Duration {
        Duration::hours(i64::from(self.move_deadline_hours))
    }
}

/// What is wrong with a clock policy, said to the player who chose it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    #[error("there is no clock preset '{0}'; choose one of {presets} or spell the policy out", presets = PRESETS.join(", "))]
    NoSuchPreset(String),
    #[error("move_deadline_hours must be between 1 and 1440 (60 days)")]
    DeadlineHours,
    #[error("a reminder {hours} h before the deadline must be between 1 h and the {deadline} h deadline")]
    Reminder { hours: u32, deadline: u32 },
    #[error("'{0}' is not an IANA time zone (try Europe/London)")]
    TimeZone(String),
    #[error("vacation_days_per_year is at most 366")]
    VacationDays,
    #[error("forfeit_after must be at least 1")]
    ForfeitAfter,
}

/// A stretch of time during which a clock does not run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pause {
    pub from: DateTime<Utc>,
    pub until: DateTime<Utc>,
}

/// The instant `local` midnight of `date` is in `tz` (the first such instant if the clocks go
/// back over midnight, the first instant after the gap if they go forward).
fn midnight(tz: &Tz, date: NaiveDate) -> DateTime<Utc> {
    let naive = date.and_hms_opt(0, 0, 0).expect("midnight exists");
    match tz.from_local_datetime(&naive).earliest() {
        Some(t) => t.with_timezone(&Utc),
        // Midnight itself skipped by a daylight-saving jump: the hour after it exists.
        None => tz
            .from_local_datetime(&(naive + Duration::hours(1)))
            .earliest()
            .expect("an hour after a gap exists")
            .with_timezone(&Utc),
    }
}

/// The weekends (Saturday 00:00 to Monday 00:00 local) in `tz` that end after `from`, the first
/// few years of them — far more than any deadline needs.
fn weekends_after(tz: &Tz, from: DateTime<Utc>) -> impl Iterator<Item = Pause> + '_ {
    let local = from.with_timezone(tz).date_naive();
    let back = local.weekday().num_days_from_monday() as i64; // to this week's Monday
    let monday = local - Duration::days(back);
    (0..520).filter_map(move |week| {
        let saturday = monday + Duration::days(5 + 7 * week);
        let p = Pause {
            from: midnight(tz, saturday),
            until: midnight(tz, saturday + Duration::days(2)),
        };
        (p.until > from).then_some(p)
    })
}

/// The instant a clock started at `start` has run for `length`, not counting weekends (when
/// `pause_weekends`) nor the `pauses` given (vacations).
pub fn deadline(
    start: DateTime<Utc>,
    length: Duration,
    pause_weekends: bool,
    tz: &Tz,
    pauses: &[Pause],
) -> DateTime<Utc> {
    let mut t = start;
    let mut left = length;
    let mut weekends = weekends_after(tz, start).peekable();
    loop {
        // The earliest pause that has not ended by t.
        while weekends.peek().is_some_and(|w| w.until <= t) {
            weekends.next();
        }
        let weekend = if pause_weekends {
            weekends.peek().copied()
        } else {
            None
        };
        let next = pauses
            .iter()
            .copied()
            .filter(|p| p.until > t && p.until > p.from)
            .chain(weekend)
            .min_by_key(|p| p.from.max(t));
        match next {
            Some(p) if p.from <= t => t = p.until,
            Some(p) if t + left > p.from => {
                left -= p.from - t;
                t = p.until;
            }
            _ => return t + left,
        }
    }
}

/// Whether `at` falls on a weekend in `tz`.
pub fn is_weekend(tz: &Tz, at: DateTime<Utc>) -> bool {
    matches!(at.with_timezone(tz).weekday(), Weekday::Sat | Weekday::Sun)
}

/// A `Clock` event's payload when it records `what` (`reminder`, `deadline`, `vacation`, …).
pub fn clock_of<'e>(e: &'e Event, what: &str) -> Option<&'e Value> {
    (e.kind == kind::CLOCK && e.payload.get("clock").and_then(Value::as_str) == Some(what))
        .then_some(&e.payload)
}

/// The seat a `Clock` event's payload names.
pub fn seat_of(payload: &Value) -> &str {
    payload
        .get("seat")
        .and_then(Value::as_str)
        .unwrap_or_default()
}

fn parse_time(text: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// A seat's vacations as recorded in the log.
pub fn vacations(events: &[Event], seat: &str) -> Vec<Pause> {
    events
        .iter()
        .filter_map(|e| clock_of(e, "vacation"))
        .filter(|p| seat_of(p) == seat)
        .filter_map(|p| {
            Some(Pause {
                from: parse_time(p.get("from")?.as_str()?)?,
                until: parse_time(p.get("until")?.as_str()?)?,
            })
        })
        .collect()
}

/// When `seat`'s current decision is due, by the log: `None` while the clock is paused.
///
/// The clock starts at the game's last event that was not the clock's own (the move that made
/// the seat's decision due). After a missed deadline that leaves the seat to move, a new
/// deadline of the same length starts at the one missed. A `pause` stops the clock until
/// someone moves.
pub fn seat_deadline(policy: &ClockPolicy, events: &[Event], seat: &str) -> Option<DateTime<Utc>> {
    let last_play = events.iter().rposition(|e| e.kind != kind::CLOCK)?;
    let since = &events[last_play + 1..];
    let paused = since.iter().any(|e| {
        clock_of(e, "deadline")
            .is_some_and(|p| p.get("action").and_then(Value::as_str) == Some("pause"))
    });
    if paused {
        return None;
    }
    let mut start = parse_time(&events[last_play].recorded_at)?;
    if let Some(missed) = since
        .iter()
        .filter_map(|e| clock_of(e, "deadline"))
        .filter(|p| seat_of(p) == seat)
        .filter_map(|p| parse_time(p.get("deadline")?.as_str()?))
        .max()
    {
        start = start.max(missed);
    }
    let tz = policy.tz().ok()?;
    Some(deadline(
        start,
        policy.deadline_length(),
        policy.pause_weekends,
        &tz,
        &vacations(events, seat),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    #[test]
    fn every_preset_passes_its_own_checks() {
        for name in PRESETS {
            ClockPolicy::choose(&ClockChoice::Preset((*name).into())).unwrap();
        }
        assert!(ClockPolicy::choose(&ClockChoice::Preset("lightning".into())).is_err());
    }

    #[test]
    fn a_deadline_without_pauses_is_the_start_plus_its_length() {
        let tz: Tz = "UTC".parse().unwrap();
        let d = deadline(
            at("2026-03-02T10:00:00Z"),
            Duration::hours(72),
            false,
            &tz,
            &[],
        );
        assert_eq!(d, at("2026-03-05T10:00:00Z"));
    }

    #[test]
    fn a_paused_weekend_does_not_count() {
        let tz: Tz = "UTC".parse().unwrap();
        // Friday 18:00 + 24 h: 6 h of Friday, the weekend off, 18 h of Monday.
        let d = deadline(
            at("2026-03-06T18:00:00Z"),
            Duration::hours(24),
            true,
            &tz,
            &[],
        );
        assert_eq!(d, at("2026-03-09T18:00:00Z"));
        // Started on a Saturday: the clock starts on Monday.
        let d = deadline(
            at("2026-03-07T12:00:00Z"),
            Duration::hours(2),
            true,
            &tz,
            &[],
        );
        assert_eq!(d, at("2026-03-09T02:00:00Z"));
    }

    #[test]
    fn a_weekend_across_the_clocks_going_back_is_forty_nine_hours() {
        // Europe/London leaves summer time on Sunday 25 October 2026.
        let tz: Tz = "Europe/London".parse().unwrap();
        // Friday 23 Oct 22:00 BST (21:00 UTC) + 4 h: 2 h of Friday, then Monday 00:00 GMT + 2 h.
        let d = deadline(
            at("2026-10-23T21:00:00Z"),
            Duration::hours(4),
            true,
            &tz,
            &[],
        );
        assert_eq!(d, at("2026-10-26T02:00:00Z"));
        // The weekend began at Saturday 00:00 BST = Friday 23:00 UTC and ended Monday 00:00 GMT.
        // 30 min before it, 30 min after it: the weekend took 49 h of wall time.
        let d = deadline(
            at("2026-10-23T22:30:00Z"),
            Duration::hours(1),
            true,
            &tz,
            &[],
        );
        assert_eq!(d, at("2026-10-26T00:30:00Z"));
        assert_eq!(d - at("2026-10-23T22:30:00Z"), Duration::hours(50));
        // A deadline that lands exactly as the weekend starts is not pushed past it.
        let d = deadline(
            at("2026-10-23T22:00:00Z"),
            Duration::hours(1),
            true,
            &tz,
            &[],
        );
        assert_eq!(d, at("2026-10-23T23:00:00Z"));
    }

    #[test]
    fn a_vacation_extends_the_deadline_by_its_overlap() {
        let tz: Tz = "UTC".parse().unwrap();
        let vacation = Pause {
            from: at("2026-03-03T00:00:00Z"),
            until: at("2026-03-05T00:00:00Z"),
        };
        let d = deadline(
            at("2026-03-02T10:00:00Z"),
            Duration::hours(24),
            false,
            &tz,
            &[vacation],
        );
        assert_eq!(d, at("2026-03-05T10:00:00Z"));
    }
}
