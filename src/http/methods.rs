//! What a request for no route answers: `405 Method Not Allowed` with `Allow` when its path is
//! served with other methods, `404` otherwise.
//!
//! The handlers are registered one resource per method (`#[get("/games/{game_id}/moves")]`,
//! `#[post(...)]`), and actix-web tries the next resource when a method does not match, so a
//! path served only for GET would answer a POST with 404 and no hint. The table below names
//! each path and its methods; the app's default service looks the request up in it. A route
//! added without a row here still works, and answers a wrong method with 404 as before; the
//! tests check the table against the OpenAPI document (tests/service/openapi.rs).

use std::sync::LazyLock;

use actix_web::dev::ResourceDef;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse};
use serde_json::json;

/// Every path the server serves (the API under `/api`, the pages, the files) and its methods.
const ROUTES: &[(&str, &[&str])] = &[
    ("/health", &["GET"]),
    ("/api/openapi.json", &["GET"]),
    ("/api/rulesets", &["GET"]),
    ("/api/games", &["POST"]),
    ("/api/games/{game_id}", &["GET"]),
    ("/api/games/{game_id}/view", &["GET"]),
    ("/api/games/{game_id}/moves", &["GET", "POST"]),
    ("/api/games/{game_id}/resign", &["POST"]),
    ("/api/games/{game_id}/events", &["GET"]),
    ("/api/games/{game_id}/export", &["GET"]),
    ("/api/games/{game_id}/events/{seq}/proof", &["GET"]),
    ("/api/games/{game_id}/stream", &["GET"]),
    ("/api/games/{game_id}/channels", &["GET", "PUT"]),
    ("/api/games/{game_id}/unsubscribe", &["GET", "POST"]),
    ("/api/games/{game_id}/webhooks", &["GET", "POST"]),
    ("/api/games/{game_id}/webhooks/{hook_id}", &["DELETE"]),
    ("/api/games/{game_id}/vacation", &["POST"]),
    ("/api/games/{game_id}/clock", &["GET"]),
    ("/api/login", &["POST"]),
    ("/api/login/links", &["POST"]),
    ("/api/me", &["GET"]),
    ("/api/logout", &["POST"]),
    ("/api/logout/everywhere", &["POST"]),
    ("/api/games/{game_id}/claim", &["POST"]),
    ("/api/games/{game_id}/new-link", &["POST"]),
    ("/api/games/{game_id}/talk", &["GET", "POST"]),
    ("/api/inbound/email", &["POST"]),
    ("/api/inbound/mailgun/mime", &["POST"]),
    ("/", &["GET"]),
    ("/games", &["POST"]),
    ("/games/{game_id}", &["GET"]),
    ("/games/{game_id}/watch", &["GET"]),
    ("/games/{game_id}/moves", &["POST"]),
    ("/games/{game_id}/resign", &["POST"]),
    ("/games/{game_id}/talk", &["POST"]),
    ("/games/{game_id}/replay", &["GET"]),
    ("/games/{game_id}/events/{seq}", &["GET"]),
    ("/games/{game_id}/claim", &["POST"]),
    ("/games/{game_id}/new-link", &["POST"]),
    ("/games/{game_id}/claim/confirm", &["GET", "POST"]),
    ("/games/{game_id}/settings", &["GET", "POST"]),
    ("/games/{game_id}/settings/webhooks", &["POST"]),
    (
        "/games/{game_id}/settings/webhooks/{hook_id}/delete",
        &["POST"],
    ),
    ("/games/{game_id}/settings/vacation", &["POST"]),
    ("/games/{game_id}/settings/time-zone", &["POST"]),
    ("/login", &["GET", "POST"]),
    ("/login/confirm", &["GET", "POST"]),
    ("/me", &["GET"]),
    ("/me/settings", &["GET", "POST"]),
    ("/me/settings/vacation", &["POST"]),
    ("/me/settings/time-zone", &["POST"]),
    ("/logout", &["POST"]),
    ("/logout/everywhere", &["POST"]),
    ("/verify", &["GET", "POST"]),
    ("/static/{name}", &["GET"]),
];

static TABLE: LazyLock<Vec<(ResourceDef, &'static [&'static str])>> = LazyLock::new(|| {
    ROUTES
        .iter()
        .map(|(pattern, methods)| (ResourceDef::new(*pattern), *methods))
        .collect()
});

/// The methods `path` is served with (none: no such path).
pub fn allowed(path: &str) -> Vec<&'static str> {
    let mut methods: Vec<&'static str> = TABLE
        .iter()
        .filter(|(def, _)| def.is_match(path))
        .flat_map(|(_, methods)| methods.iter().copied())
        .collect();
    methods.sort_unstable();
    methods.dedup();
    methods
}

/// The table itself, for the test that holds it to the OpenAPI document.
pub fn routes() -> &'static [(&'static str, &'static [&'static str])] {
    ROUTES
}

/// The app's default service: 405 with `Allow` for a known path, else 404 (JSON under `/api`).
pub async fn unrouted(req: HttpRequest) -> HttpResponse {
    let path = req.path();
    let methods = allowed(path);
    let api = path.starts_with("/api/");
    if methods.is_empty() {
        return if api {
            HttpResponse::NotFound().json(json!({
                "error": "not_found",
                "message": format!("there is no {path} in this API; see /api/openapi.json"),
            }))
        } else {
            HttpResponse::NotFound().finish()
        };
    }
    let allow = methods.join(", ");
    let message = format!(
        "{path} does not answer {}; it answers {allow}",
        req.method()
    );
    let mut response = HttpResponse::MethodNotAllowed();
    response.insert_header((header::ALLOW, allow));
    if api {
        response.json(json!({ "error": "method_not_allowed", "message": message }))
    } else {
        response
            .content_type("text/plain; charset=utf-8")
            .body(message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_looked_up_with_its_placeholders() {
        assert_eq!(allowed("/api/games/g1/moves"), ["GET", "POST"]);
        assert_eq!(allowed("/api/games"), ["POST"]);
        assert_eq!(allowed("/api/games/g1/webhooks/h1"), ["DELETE"]);
        assert_eq!(allowed("/verify"), ["GET", "POST"]);
        assert!(allowed("/api/games/g1/nothing").is_empty());
        assert!(allowed("/api/games/g1/moves/extra").is_empty());
    }
}
