//! What a request no handler takes answers: `405 Method Not Allowed` with `Allow` when its path
//! is served with other methods, `404` otherwise.
//!
//! Each resource answers a method it lacks with its own methods (`routes::resource` hands them
//! to `not_allowed`); the app answers a path no resource matches (`not_found`).

use std::sync::LazyLock;

use actix_web::http::{header, Method};
use actix_web::{HttpRequest, HttpResponse};
use serde_json::json;

use super::routes;

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

/// A path no resource matches: 404, in JSON under `/api`.
pub async fn not_found(req: HttpRequest) -> HttpResponse {
    let path = req.path();
    if path.starts_with("/api/") {
        HttpResponse::NotFound().json(json!({
            "error": "not_found",
            "message": format!("there is no {path} in this API; see /api/openapi.json"),
        }))
    } else {
        HttpResponse::NotFound().finish()
    }
}

/// A method the resource does not serve: 405 naming the ones it does (`allow`), in JSON under
/// `/api`, else as plain text.
pub fn not_allowed(req: HttpRequest, allow: &str) -> HttpResponse {
    let path = req.path();
    let message = format!(
        "{path} does not answer {}; it answers {allow}",
        req.method()
    );
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
    fn no_path_is_served_twice() {
        let mut paths: Vec<&str> = routes().iter().map(|(path, _)| *path).collect();
        let all = paths.len();
        paths.sort_unstable();
        paths.dedup();
        assert_eq!(paths.len(), all);
    }
}
