//! What a request no handler takes answers: `405 Method Not Allowed` with `Allow` when its path
//! is served with other methods, `404` otherwise. A browser (`Accept: text/html`) asking for a
//! page's address gets a page that says so, with a way back (the game's page, the start page);
//! API clients, and anything under `/api`, keep the JSON (or plain text) answers.
//!
//! Each resource answers a method it lacks with its own methods (`routes::resource` hands them
//! to `not_allowed`); the app answers a path no resource matches (`not_found`).

use std::sync::LazyLock;

use actix_web::http::{header, Method, StatusCode};
use actix_web::{HttpRequest, HttpResponse};
use serde_json::json;

use super::pages::{message_page_with_links, PageLink};
use super::{page_headers, routes};

/// Every path and its methods, as the router serves them: for the test that holds them to the
/// OpenAPI document (tests/service/openapi.rs).
pub fn routes() -> &'static [(&'static str, Vec<String>)] {
    static ROUTES: LazyLock<Vec<(&'static str, Vec<String>)>> = LazyLock::new(|| {
        routes::served()
            .into_iter()
            .map(|served| {
                let methods = served.methods.iter().map(Method::to_string).collect();
                (served.path, methods)
            })
            .collect()
    });
    &ROUTES
}

/// The `Allow` header of a resource served with `methods`, in the order given.
pub fn allow(methods: &[Method]) -> String {
    methods
        .iter()
        .map(Method::as_str)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether `req` is a browser's asking for a page: a page's path, with `text/html` among what it
/// accepts.
pub(super) fn wants_a_page(req: &HttpRequest) -> bool {
    page_headers::is_page_route(req.path())
        && req
            .headers()
            .get_all(header::ACCEPT)
            .filter_map(|v| v.to_str().ok())
            .any(|v| v.to_ascii_lowercase().contains("text/html"))
}

/// The way back from an error page at `path`: the game's own page when the path is one of a
/// game's (`/games/{id}/…`).
fn ways_back(path: &str) -> Vec<PageLink> {
    let game = path
        .strip_prefix("/games/")
        .and_then(|rest| rest.split('/').next())
        .filter(|id| {
            !id.is_empty()
                && id
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'))
        });
    game.map(|id| PageLink {
        href: format!("/games/{id}"),
        text: "Back to the game",
    })
    .into_iter()
    .collect()
}

/// A path no resource matches: 404, in JSON under `/api`, a page for a browser.
pub async fn not_found(req: HttpRequest) -> HttpResponse {
    let path = req.path();
    if path.starts_with("/api/") {
        HttpResponse::NotFound().json(json!({
            "error": "not_found",
            "message": format!("there is no {path} in this API; see /api/openapi.json"),
        }))
    } else if wants_a_page(&req) {
        message_page_with_links(
            StatusCode::NOT_FOUND,
            "No such page",
            &format!("There is no page at {path} on this server."),
            Some("Check the address, or use the link from your email whole."),
            &ways_back(path),
        )
    } else {
        HttpResponse::NotFound().finish()
    }
}

/// A method the resource does not serve: 405 naming the ones it does (`allow`), in JSON under
/// `/api`, a page for a browser, else as plain text.
pub fn not_allowed(req: HttpRequest, allow: &str) -> HttpResponse {
    let path = req.path();
    let message = format!(
        "{path} does not answer {}; it answers {allow}",
        req.method()
    );
    if wants_a_page(&req) {
        let mut page = message_page_with_links(
            StatusCode::METHOD_NOT_ALLOWED,
            "This address is not a page to open",
            &format!("{message}: it is where a form is sent, and opening it shows nothing. Nothing was changed."),
            Some("Go back to the page the form was on, or follow the link below."),
            &ways_back(path),
        );
        if let Ok(value) = header::HeaderValue::from_str(allow) {
            page.headers_mut().insert(header::ALLOW, value);
        }
        return page;
    }
    let mut response = HttpResponse::MethodNotAllowed();
    response.insert_header((header::ALLOW, allow.to_owned()));
    if path.starts_with("/api/") {
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

    fn methods_of(path: &str) -> &'static [String] {
        &routes()
            .iter()
            .find(|(pattern, _)| *pattern == path)
            .unwrap_or_else(|| panic!("{path} is not served"))
            .1
    }

    #[test]
    fn each_path_lists_the_methods_it_is_served_with_in_order() {
        assert_eq!(methods_of("/api/games/{game_id}/moves"), ["GET", "POST"]);
        assert_eq!(methods_of("/api/games/{game_id}/webhooks"), ["GET", "POST"]);
        assert_eq!(methods_of("/api/games"), ["POST"]);
        assert_eq!(methods_of("/verify"), ["GET", "POST"]);
        assert_eq!(allow(&[Method::GET, Method::PUT]), "GET, PUT");
    }

    #[test]
    fn an_error_page_leads_back_to_the_game_its_path_names() {
        let back = ways_back("/games/g-1/resign");
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].href, "/games/g-1");
        assert!(ways_back("/nowhere").is_empty());
        assert!(ways_back("/games/a%22b/x").is_empty());
    }

    #[test]
    fn only_a_browser_asking_for_a_page_gets_one() {
        let req = |path: &str, accept: &str| {
            actix_web::test::TestRequest::get()
                .uri(path)
                .insert_header(("Accept", accept))
                .to_http_request()
        };
        assert!(wants_a_page(&req(
            "/games/g/resign",
            "text/html,application/xhtml+xml,*/*;q=0.8"
        )));
        assert!(!wants_a_page(&req("/games/g/resign", "application/json")));
        assert!(!wants_a_page(&req("/api/games/g/resign", "text/html")));
    }

    #[test]
    fn no_path_is_served_twice() {
        let mut paths: Vec<&str> = routes().iter().map(|(path, _)| *path).collect();
        let all = paths.len();
        paths.sort_unstable();
        paths.dedup();
        assert_eq!(paths.len(), all);
    }
}
