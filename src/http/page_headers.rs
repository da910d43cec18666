//! The pages' security headers on every answer of a page route, errors included.
//!
//! A page handler sets them (`pages::html`), but some answers of a page route never reach its
//! handler: actix's extractors refuse a bad query (`/?seats=x`, `/games/{id}/replay?step=-1`)
//! before it runs, a middleware may refuse the request, and the fallback answers an unknown
//! path. So every answer outside the API (`/api/…`, `/health`, `/metrics`) that lacks a
//! `Content-Security-Policy` gets the pages' own, with their `Referrer-Policy` and
//! `X-Content-Type-Options`: an error a browser shows runs no script and leaks no address.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{
    HeaderName, HeaderValue, CONTENT_SECURITY_POLICY, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
};
use actix_web::middleware::Next;
use actix_web::Error;

use super::pages::CSP;

/// Adds the pages' headers to an answer of a page route that has none.
pub async fn on_every_page(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let page = is_page_route(req.path());
    let mut res = next.call(req).await?;
    let headers = res.headers_mut();
    if page && !headers.contains_key(CONTENT_SECURITY_POLICY) {
        let set: [(HeaderName, &'static str); 3] = [
            (CONTENT_SECURITY_POLICY, CSP),
            (REFERRER_POLICY, "no-referrer"),
            (X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ];
        for (name, value) in set {
            if !headers.contains_key(&name) {
                headers.insert(name, HeaderValue::from_static(value));
            }
        }
    }
    Ok(res)
}

/// Whether `path` is a page's (or a static file's) rather than the API's or an operator's.
pub(super) fn is_page_route(path: &str) -> bool {
    !(path == "/api" || path.starts_with("/api/") || path == "/health" || path == "/metrics")
}

#[cfg(test)]
mod tests {
    use super::is_page_route;

    #[test]
    fn the_api_health_and_metrics_are_not_pages() {
        for page in [
            "/",
            "/games/g1/replay",
            "/login",
            "/verify",
            "/static/style.css",
        ] {
            assert!(is_page_route(page), "{page}");
        }
        for other in ["/api", "/api/games", "/health", "/metrics"] {
            assert!(!is_page_route(other), "{other}");
        }
    }
}
