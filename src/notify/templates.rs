//! Email templates: `templates/email/<name>/{subject.txt, body.txt, body.html}`, rendered with
//! minijinja. They are compiled into the binary (a server needs no template folder beside it) and
//! rendered with strict undefined variables, so a template that names a missing value fails
//! loudly — the tests render every template with the context the dispatcher builds.

use std::sync::OnceLock;

use minijinja::{Environment, UndefinedBehavior};
use serde::Serialize;

/// Every email template, by name: subject, text body, HTML body.
pub const TEMPLATES: &[(&str, &str, &str, &str)] = &[
    (
        "your_turn",
        include_str!("../../templates/email/your_turn/subject.txt"),
        include_str!("../../templates/email/your_turn/body.txt"),
        include_str!("../../templates/email/your_turn/body.html"),
    ),
    (
        "invitation",
        include_str!("../../templates/email/invitation/subject.txt"),
        include_str!("../../templates/email/invitation/body.txt"),
        include_str!("../../templates/email/invitation/body.html"),
    ),
    (
        "reminder",
        include_str!("../../templates/email/reminder/subject.txt"),
        include_str!("../../templates/email/reminder/body.txt"),
        include_str!("../../templates/email/reminder/body.html"),
    ),
    (
        "deadline_passed",
        include_str!("../../templates/email/deadline_passed/subject.txt"),
        include_str!("../../templates/email/deadline_passed/body.txt"),
        include_str!("../../templates/email/deadline_passed/body.html"),
    ),
    (
        "game_over",
        include_str!("../../templates/email/game_over/subject.txt"),
        include_str!("../../templates/email/game_over/body.txt"),
        include_str!("../../templates/email/game_over/body.html"),
    ),
    (
        "talk",
        include_str!("../../templates/email/talk/subject.txt"),
        include_str!("../../templates/email/talk/body.txt"),
        include_str!("../../templates/email/talk/body.html"),
    ),
];

/// The mails a player asks for by address rather than by seat (`games::players`): the sign-in
/// link, the seat links and the daily digest (`games::settings`). Kept apart from the notices (`templates/account/`): they are
/// rendered from their outbox row's payload, not from a notice's context.
pub const ACCOUNT_TEMPLATES: &[(&str, &str, &str, &str)] = &[
    (
        "sign_in",
        include_str!("../../templates/account/sign_in/subject.txt"),
        include_str!("../../templates/account/sign_in/body.txt"),
        include_str!("../../templates/account/sign_in/body.html"),
    ),
    (
        "seat_links",
        include_str!("../../templates/account/seat_links/subject.txt"),
        include_str!("../../templates/account/seat_links/body.txt"),
        include_str!("../../templates/account/seat_links/body.html"),
    ),
    (
        "digest",
        include_str!("../../templates/account/digest/subject.txt"),
        include_str!("../../templates/account/digest/body.txt"),
        include_str!("../../templates/account/digest/body.html"),
    ),
];

/// A rendered email.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Rendered {
    pub subject: String,
    pub text: String,
    pub html: String,
}

fn environment() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        env.set_syntax(
            minijinja::syntax::SyntaxConfig::builder()
                .keep_trailing_newline(true)
                .build()
                .expect("the default syntax with trailing newlines kept"),
        );
        env.add_filter("when", |at: String| when(&at, chrono::Utc::now()));
        for (name, subject, text, html) in TEMPLATES.iter().chain(ACCOUNT_TEMPLATES) {
            // `.html` turns HTML escaping on; `.txt` leaves text as it is.
            env.add_template(leak(format!("{name}/subject.txt")), subject)
                .expect("the subject template parses");
            env.add_template(leak(format!("{name}/body.txt")), text)
                .expect("the text template parses");
            env.add_template(leak(format!("{name}/body.html")), html)
                .expect("the HTML template parses");
        }
        env
    })
}

/// A moment as a player reads it in mail: "Wed 25 Nov, 19:21 UTC (in 2 days)", from the RFC 3339
/// timestamp the notices carry, and how far it is from `now`. Anything else is shown as it is.
pub fn when(at: &str, now: chrono::DateTime<chrono::Utc>) -> String {
    let Ok(at) = chrono::DateTime::parse_from_rfc3339(at) else {
        return at.to_owned();
    };
    let at = at.with_timezone(&chrono::Utc);
    let away = at - now;
    let (ahead, span) = if away >= chrono::TimeDelta::zero() {
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
    let relative = if ahead {
        format!("in {size}")
    } else {
        format!("{size} ago")
    };
    format!("{} UTC ({relative})", at.format("%a %-d %b, %H:%M"))
}

/// Template names live as long as the process (the environment is built once).
fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// Renders template `name` with `context`.
pub fn render<C: Serialize>(name: &str, context: &C) -> Result<Rendered, String> {
    let env = environment();
    let one = |part: &str| -> Result<String, String> {
        env.get_template(&format!("{name}/{part}"))
            .map_err(|e| format!("no email template {name}/{part}: {e}"))?
            .render(minijinja::Value::from(minijinja::value::Serde(context)))
            .map_err(|e| format!("email template {name}/{part} failed: {e:#}"))
    };
    Ok(Rendered {
        // A subject is one line, whatever the template's trailing newline.
        subject: one("subject.txt")?.trim().replace(['\r', '\n'], " "),
        text: one("body.txt")?,
        html: one("body.html")?,
    })
}

#[cfg(test)]
mod tests {
    use super::when;

    fn at(s: &str) -> chrono::DateTime<chrono::Utc> {
        chrono::DateTime::parse_from_rfc3339(s).unwrap().into()
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
            assert_eq!(when(deadline, at(now)), shown, "now {now}");
        }
        assert_eq!(when("soon", at("2026-11-23T12:00:00Z")), "soon");
    }
}
