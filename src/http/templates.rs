//! The page templates in `templates/`, compiled into the binary and rendered with minijinja.
//! Undefined values are errors (strict), so a template that names a field the page did not give
//! fails loudly; the test below renders every template with the context its page gives.

use std::sync::OnceLock;

use minijinja::{Environment, UndefinedBehavior, Value};

/// Every template, by name.
pub const TEMPLATES: &[(&str, &str)] = &[
    ("base.html", include_str!("../../templates/base.html")),
    ("csrf.html", include_str!("../../templates/csrf.html")),
    ("answer.html", include_str!("../../templates/answer.html")),
    ("error.html", include_str!("../../templates/error.html")),
    ("lobby.html", include_str!("../../templates/lobby.html")),
    ("created.html", include_str!("../../templates/created.html")),
    ("game.html", include_str!("../../templates/game.html")),
    ("audit.html", include_str!("../../templates/audit.html")),
    ("verify.html", include_str!("../../templates/verify.html")),
    ("confirm.html", include_str!("../../templates/confirm.html")),
    ("login.html", include_str!("../../templates/login.html")),
    (
        "login_confirm.html",
        include_str!("../../templates/login_confirm.html"),
    ),
    ("me.html", include_str!("../../templates/me.html")),
    (
        "claim_confirm.html",
        include_str!("../../templates/claim_confirm.html"),
    ),
    (
        "settings.html",
        include_str!("../../templates/settings.html"),
    ),
    (
        "me_settings.html",
        include_str!("../../templates/me_settings.html"),
    ),
];

fn env() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        // Every form's token (`templates/csrf.html`), signed for the request being answered.
        env.add_function("csrf_token", |action: String| {
            super::csrf::csrf_token(&action)
        });
        // A static file's address with its fingerprint (`assets::url`): cached for good.
        env.add_function("asset", |name: String| {
            Value::from_safe_string(super::assets::url(&name))
        });
        for (name, source) in TEMPLATES {
            env.add_template(name, source)
                .unwrap_or_else(|e| panic!("template {name} does not compile: {e:#}"));
        }
        env
    })
}

/// Renders a template; an error here is a bug in a page or a template.
pub fn render(name: &str, context: Value) -> Result<String, minijinja::Error> {
    env().get_template(name)?.render(context)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_in_templates_is_compiled_in_and_compiles() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/templates");
        // Page templates sit at the top; templates/email/ holds the notices' own (notify).
        let mut on_disk: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap())
            .filter(|e| e.file_type().unwrap().is_file())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        on_disk.sort();
        let mut listed: Vec<String> = TEMPLATES.iter().map(|(n, _)| n.to_string()).collect();
        listed.sort();
        assert_eq!(on_disk, listed, "templates/ and TEMPLATES differ");
        for (name, _) in TEMPLATES {
            env().get_template(name).unwrap();
        }
    }

    #[test]
    fn a_value_the_page_did_not_give_is_an_error_not_a_blank() {
        let err = render("error.html", minijinja::context! { heading => "x" }).unwrap_err();
        assert!(format!("{err:#}").contains("undefined"), "{err:#}");
    }

    #[test]
    fn text_is_escaped_in_html_templates() {
        let html = render(
            "error.html",
            minijinja::context! {
                heading => "<b>", message => "<script>alert(1)</script>", hint => None::<String>,
                links => Vec::<String>::new(), flash => None::<String>, error => None::<String>,
            },
        )
        .unwrap();
        assert!(html.contains("&lt;script&gt;"));
        assert!(!html.contains("<script>alert"));
    }
}
