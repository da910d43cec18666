//! A moment as a player reads it, in mail and on the pages: "Wed 25 Nov, 19:21 CET (in 2
//! days)" — the day, the time in the reader's time zone with its abbreviation, and how far it
//! is from now. One formatter for the notices (`notify::templates`' `when` filter), the seat
//! page's deadline and the clock's lines in the log.
//!
//! The time zone is the seat's (`Games::set_time_zone`, an IANA name), UTC when it has none.

use chrono::{DateTime, TimeDelta, Utc};
use chrono_tz::Tz;

/// A moment: when, in the reader's zone, and how far from now.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
pub struct Moment {
    /// "Wed 25 Nov, 19:21 CET".
    pub at: String,
    /// "in 2 days", "3 hours ago": none where the moment is read long after it was written
    /// (the log).
    pub relative: Option<String>,
}

impl std::fmt::Display for Moment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.relative {
            Some(r) => write!(f, "{} ({r})", self.at),
            None => f.write_str(&self.at),
        }
    }
}

/// The time zone an IANA name gives, or `None` (unknown names included: UTC is then shown).
pub fn zone(name: Option<&str>) -> Option<Tz> {
    name.and_then(|n| n.trim().parse::<Tz>().ok())
}

/// Checks a time zone a player typed: `None` for an empty one (UTC), its canonical name, or a
/// message that says what to write instead.
pub fn check_zone(name: &str) -> Result<Option<String>, String> {
    let name = name.trim();
    if name.is_empty() {
        return Ok(None);
    }
    name.parse::<Tz>()
        .map(|tz| Some(tz.name().to_owned()))
        .map_err(|_| {
            format!(
                "'{name}' is not an IANA time zone; write one such as Europe/Paris, America/New_York or UTC"
            )
        })
}

/// How far `at` is from `now`, in words: "in 2 days", "in 81 minutes", "3 days ago".
pub fn relative(at: DateTime<Utc>, now: DateTime<Utc>) -> String {
    let away = at - now;
    let (ahead, span) = if away >= TimeDelta::zero() {
        (true, away)
    } else {
        (false, -away)
    };
    let count = |n: i64, unit: &str| format!("{n} {unit}{}", if n == 1 { "" } else { "s" });
    let size = if span.num_days() >= 2 {
        count(span.num_days(), "day")
    } else if span.num_hours() >= 2 {
        count(span.num_hours(), "hour")
    } else {
        count(span.num_minutes().max(1), "minute")
    };
    if ahead {
        format!("in {size}")
    } else {
        format!("{size} ago")
    }
}

/// `at` in `tz` (UTC without one), and how far it is from `now` when given.
pub fn moment(at: DateTime<Utc>, tz: Option<Tz>, now: Option<DateTime<Utc>>) -> Moment {
    let tz = tz.unwrap_or(Tz::UTC);
    let local = at.with_timezone(&tz);
    Moment {
        at: local.format("%a %-d %b, %H:%M %Z").to_string(),
        relative: now.map(|now| relative(at, now)),
    }
}

/// The same from an RFC 3339 timestamp, as events and notices carry them; anything else is
/// shown as it is.
pub fn when(at: &str, tz: Option<&str>, now: Option<DateTime<Utc>>) -> String {
    match DateTime::parse_from_rfc3339(at) {
        Ok(t) => moment(t.with_timezone(&Utc), zone(tz), now).to_string(),
        Err(_) => at.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().into()
    }

    #[test]
    fn a_deadline_reads_as_a_day_a_time_and_how_far_off_it_is() {
        let deadline = "2026-11-25T19:21:00.000Z";
        let cases = [
            ("2026-11-23T12:00:00Z", "Wed 25 Nov, 19:21 UTC (in 2 days)"),
            ("2026-11-25T17:00:00Z", "Wed 25 Nov, 19:21 UTC (in 2 hours)"),
            (
                "2026-11-25T18:00:00Z",
                "Wed 25 Nov, 19:21 UTC (in 81 minutes)",
            ),
            (
                "2026-11-25T19:20:50Z",
                "Wed 25 Nov, 19:21 UTC (in 1 minute)",
            ),
            ("2026-11-28T20:00:00Z", "Wed 25 Nov, 19:21 UTC (3 days ago)"),
        ];
        for (now, shown) in cases {
            assert_eq!(when(deadline, None, Some(at(now))), shown, "now {now}");
        }
        assert_eq!(when("soon", None, Some(at("2026-11-23T12:00:00Z"))), "soon");
    }

    #[test]
    fn a_seat_with_a_time_zone_reads_its_own_clock_and_the_zone_abbreviation() {
        let now = Some(at("2026-11-23T12:00:00Z"));
        let deadline = "2026-11-25T18:21:00Z";
        assert_eq!(
            when(deadline, Some("Europe/Paris"), now),
            "Wed 25 Nov, 19:21 CET (in 2 days)"
        );
        assert_eq!(
            when(deadline, Some("America/New_York"), now),
            "Wed 25 Nov, 13:21 EST (in 2 days)"
        );
        // Summer time has its own abbreviation; a day may change with the zone.
        assert_eq!(
            when("2026-07-01T23:30:00Z", Some("Europe/London"), None),
            "Thu 2 Jul, 00:30 BST"
        );
        // A name that is no zone is read as UTC rather than refused: it was checked when set.
        assert_eq!(
            when(deadline, Some("Mars/Olympus"), now),
            "Wed 25 Nov, 18:21 UTC (in 2 days)"
        );
    }

    #[test]
    fn a_typed_zone_is_checked_and_named_canonically() {
        assert_eq!(
            check_zone(" Europe/Paris "),
            Ok(Some("Europe/Paris".into()))
        );
        assert_eq!(check_zone(""), Ok(None));
        let refused = check_zone("Paris").unwrap_err();
        assert!(
            refused.contains("'Paris' is not an IANA time zone"),
            "{refused}"
        );
        assert!(refused.contains("Europe/Paris"), "{refused}");
    }
}
