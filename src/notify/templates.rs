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
/// link, the seat links, a claim's confirmation and the daily digest (`games::settings`). Kept apart from the notices (`templates/account/`): they are
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
        "claim",
        include_str!("../../templates/account/claim/subject.txt"),
        include_str!("../../templates/account/claim/body.txt"),
        include_str!("../../templates/account/claim/body.html"),
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
        // `deadline|when` in UTC, `deadline|when(time_zone)` in the seat's zone.
        env.add_filter("when", |at: String, tz: Option<String>| {
            when(&at, tz.as_deref(), chrono::Utc::now())
        });
        // `board|fit_px`: the font size the text board is set in (`board_font_px`).
        env.add_filter("fit_px", |board: String| board_font_px(&board));
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

/// A moment as a player reads it in mail: "Wed 25 Nov, 19:21 CET (in 2 days)", from the RFC
/// 3339 timestamp the notices carry, in the time zone `tz` (an IANA name; UTC without one), and
/// how far it is from `now`: `games::when`, the one formatter of the pages and the mail.
pub fn when(at: &str, tz: Option<&str>, now: chrono::DateTime<chrono::Utc>) -> String {
    crate::games::when::when(at, tz, Some(now))
}

/// The width a mail's text board has on a phone: 390 px less the mail's padding (12 px a side).
const PHONE_BOARD_PX: f64 = 366.0;
/// How wide a monospace character is, in ems (0.6 in Courier, Menlo and DejaVu Sans Mono; a
/// little more, so a board never just overflows).
const MONOSPACE_EM: f64 = 0.61;
/// The size the mail sets a board in when it fits.
const BOARD_PX: f64 = 13.0;
/// The smallest size a board is set in: a wider board scrolls in its own box instead.
const BOARD_MIN_PX: f64 = 7.0;

/// Whether a line of a text board must keep its width: a row of the map or of a list, which
/// lines its columns up with runs of spaces. A line of prose (words one space apart) wraps
/// instead: the mail sets the board `white-space: pre-wrap`.
fn laid_out(line: &str) -> bool {
    line.trim().contains("  ")
}

/// The font size, in pixels, at which the widest row of text board `board` (`laid_out`; its
/// prose wraps) fits a phone's mail (390 px wide): the mail's 13 px where it fits, smaller
/// where it does not, by half pixels, down to 7 px. So a reader sees the whole board without
/// scrolling it sideways, as large as it can be.
pub fn board_font_px(board: &str) -> f64 {
    let columns = board
        .lines()
        .filter(|l| laid_out(l))
        .map(|l| l.trim_end().chars().count())
        .max()
        .unwrap_or(0);
    if columns == 0 {
        return BOARD_PX;
    }
    let fits = PHONE_BOARD_PX / (MONOSPACE_EM * columns as f64);
    ((fits * 2.0).floor() / 2.0).clamp(BOARD_MIN_PX, BOARD_PX)
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
    use super::{board_font_px, when};

    #[test]
    fn a_board_is_set_small_enough_to_fit_a_phones_mail() {
        // A board that fits at 13 px keeps it.
        assert_eq!(board_font_px("A  B\n1  a\n2  b"), 13.0);
        assert_eq!(board_font_px(""), 13.0);
        // 60 columns need 366 / (0.61 × 60) = 10 px.
        let row = |n: usize| format!("1  {}", "x".repeat(n - 3));
        let wide = format!("{}\nshort", row(60));
        assert_eq!(board_font_px(&wide), 10.0);
        // Whatever the width, the widest row fits 366 px, down to the 7 px floor.
        for columns in 3..=85 {
            let px = board_font_px(&format!("é  {}", "é".repeat(columns - 3)));
            assert!(
                px * 0.61 * columns as f64 <= 366.0,
                "{columns} columns at {px} px"
            );
            assert!((7.0..=13.0).contains(&px), "{columns} columns at {px} px");
        }
        assert_eq!(board_font_px(&row(200)), 7.0);
        // Prose wraps: a long line of words one space apart does not shrink the map.
        let legend = "Odd columns (B, D, F ...) sit half a hex lower, on the line below their row.";
        assert_eq!(board_font_px(&format!("{}\n{legend}", row(28))), 13.0);
        // Templates call it as a filter.
        let html = super::environment()
            .render_str("{{ b|fit_px }}", minijinja::context! { b => wide })
            .unwrap();
        assert_eq!(html, "10.0");
    }

    #[test]
    fn the_when_filter_takes_the_seats_time_zone() {
        let now = chrono::DateTime::parse_from_rfc3339("2026-11-23T12:00:00Z")
            .unwrap()
            .into();
        assert_eq!(
            when("2026-11-25T18:21:00Z", Some("Europe/Paris"), now),
            "Wed 25 Nov, 19:21 CET (in 2 days)"
        );
        // The filter itself, as a template calls it, with and without a zone.
        let env = super::environment();
        let paris = env
            .render_str(
                "{{ d|when(tz) }}",
                minijinja::context! { d => "2099-11-25T18:21:00Z", tz => "Europe/Paris" },
            )
            .unwrap();
        assert!(paris.starts_with("Wed 25 Nov, 19:21 CET (in "), "{paris}");
        let utc = env
            .render_str(
                "{{ d|when(none) }} / {{ d|when }}",
                minijinja::context! { d => "2099-11-25T18:21:00Z" },
            )
            .unwrap();
        assert!(utc.starts_with("Wed 25 Nov, 18:21 UTC (in "), "{utc}");
    }
}
