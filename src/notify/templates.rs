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
        for (name, subject, text, html) in TEMPLATES {
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
