//! Cross-site request forgery: no other site's page can make a reader's browser act for them
//! (docs/web.md, "Cross-site requests"). The seat and session cookies are `SameSite=Lax`, but a
//! browser that ignores it, a sibling site, or a sign-in link's form posted by a foreign page
//! (login CSRF: the visitor signed in as the attacker) need more. As GitHub and Django do, every
//! form a page sends back meets two checks here, before any handler runs:
//!
//! - **its origin**: a POST whose `Origin` names another site than the service's own (the
//!   configured base URL's origin; without one, the `Host` the request came to), or that has no
//!   `Origin` but says `Sec-Fetch-Site: cross-site`, is refused. `Origin: null` is what a
//!   browser sends with a page's own form under the pages' `Referrer-Policy: no-referrer`, and
//!   from a sandboxed frame: then `Sec-Fetch-Site` decides (only `same-origin` or `none` pass).
//!   A request with neither (an old browser, curl) goes on to the token.
//! - **its token**: every form carries a hidden field `csrf`, HMAC-SHA256 under the link key of
//!   the form's action and the credential the form acts with — the seat cookie for a seat's
//!   forms, the session cookie for a signed-in player's, else a random cookie of its own
//!   (`despatch_csrf`) for forms anyone may send (the lobby, signing in, the sign-in link's
//!   button). Another site can neither read a page's token nor make one without the key, and a
//!   token taken from the attacker's own page is bound to the attacker's cookie, not the
//!   visitor's.
//!
//! A refused form answers `403` with a page that says what happened and to reload the page, and
//! nothing is changed. The pages get their tokens from the template function `csrf_token`, which
//! reads what this middleware put in the request's task (`FormKeys`): pages render without the
//! request, so the cookies and the key travel beside them.
//!
//! Bearer calls to the API carry no cookie and are not checked. Of the API, only `POST
//! /api/logout` and `POST /api/logout/everywhere` act with a cookie and no JSON body a foreign
//! form could not send: they have the origin check (they have no form to carry a token, and the
//! worst they can do is sign out, or make a player sign in again for new links).

use std::cell::{Cell, RefCell};

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderValue, SET_COOKIE};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::{web, Error, HttpMessage, HttpResponse, ResponseError};

use super::error::ApiError;
use super::pages::{message_page_with_links, PageLink};
use super::seat_cookie::{self, cookie_value, secure_for};
use super::session_cookie;
use crate::games::{links, Games, ServiceError};

/// The hidden field a form's token travels in.
pub const FIELD: &str = "csrf";

/// The cookie that binds the tokens of forms sent without a seat or a session.
pub const COOKIE: &str = "despatch_csrf";

/// How long a browser keeps that cookie: a lobby page left open for days still sends.
const MAX_AGE_SECS: u64 = 180 * 24 * 3600;

/// The origins a form may be sent from: the configured base URL's, or, when none is
/// configured, the `Host` each request came to.
#[derive(Debug, Clone)]
pub struct Origins {
    configured: Option<String>,
}

impl Origins {
    /// From the base URL the operator configured (`DESPATCH_BASE_URL`), if any. A service
    /// behind a reverse proxy is reached at its base URL, whatever `Host` the proxy sends on.
    pub fn new(configured_base_url: Option<&str>) -> Origins {
        Origins {
            configured: configured_base_url.and_then(origin_of),
        }
    }

    /// Whether `origin` (an `Origin` header) is the service's own, for a request that came to
    /// `host`.
    fn allows(&self, origin: &str, host: Option<&str>) -> bool {
        let Some(origin) = origin_of(origin) else {
            return false; // `null` (a sandboxed frame, a redirect from elsewhere) or garbage
        };
        match &self.configured {
            Some(own) => origin == *own,
            None => host.is_some_and(|host| {
                let scheme_end = origin.find("://").map_or(0, |i| i + 3);
                let (scheme, authority) = origin.split_at(scheme_end);
                authority == authority_of(scheme.trim_end_matches("://"), host)
            }),
        }
    }
}

/// `scheme://host[:port]` of a URL, lower-cased, the scheme's default port left out: what a
/// browser sends as `Origin`. `None` for anything that is not an http(s) URL.
fn origin_of(url: &str) -> Option<String> {
    let url = url.trim();
    let (scheme, rest) = url.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return None;
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if authority.is_empty() || authority.contains('@') {
        return None;
    }
    Some(format!("{scheme}://{}", authority_of(&scheme, authority)))
}

/// A `host[:port]` lower-cased, without the default port of `scheme`.
fn authority_of(scheme: &str, authority: &str) -> String {
    let authority = authority.trim().to_ascii_lowercase();
    let default = if scheme == "https" { ":443" } else { ":80" };
    authority
        .strip_suffix(default)
        .map(str::to_owned)
        .unwrap_or(authority)
}

/// What a form acts with, which its token is bound to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Binding {
    /// A seat's forms (`/games/{id}/…`): the seat cookie.
    Seat,
    /// A signed-in player's (`/me/…`, `/logout`): the session cookie.
    Session,
    /// Anyone's (the lobby, signing in, a claim's confirmation): the form cookie.
    Anonymous,
}

/// The credential the form at `action` (a path) is bound to.
fn binding_of(action: &str) -> Binding {
    let path = action.split(['?', '#']).next().unwrap_or_default();
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    match segments.as_slice() {
        // A claim's confirmation is opened from the email by whoever holds the address.
        ["games", _, "claim", "confirm"] => Binding::Anonymous,
        ["games", _, _, ..] => Binding::Seat,
        ["me", ..] | ["logout"] => Binding::Session,
        _ => Binding::Anonymous,
    }
}

/// What a request needs before its handler runs.
#[derive(Debug, PartialEq, Eq)]
enum Check {
    /// Nothing: a read, the API's bearer calls, `/verify` (which reads no cookie and changes
    /// nothing).
    None,
    /// The origin only: `POST /api/logout` and `POST /api/logout/everywhere`.
    Origin,
    /// The origin and the form's token: every other POST.
    Form,
}

fn check_of(method: &Method, path: &str) -> Check {
    if method != Method::POST || path == "/verify" {
        Check::None
    } else if path == "/api/logout" || path == "/api/logout/everywhere" {
        Check::Origin
    } else if path.starts_with("/api/") || path == "/api" {
        Check::None
    } else {
        Check::Form
    }
}

/// Whether a request may render a page with forms, and so needs `FormKeys`.
fn renders_pages(path: &str) -> bool {
    !(path.starts_with("/api/") || path.starts_with("/static/") || path == "/health")
}

/// The token of the form at `action` bound to `credential` (of the kind `binding`).
fn token(key: &[u8; 32], action: &str, binding: Binding, credential: &str) -> String {
    links::form_token(key, action, &format!("{binding:?}"), credential)
}

/// What a page needs to sign its forms: the key and the request's cookies. Kept in the
/// request's task while its handler runs.
pub struct FormKeys {
    key: Option<[u8; 32]>,
    seat: Option<String>,
    session: Option<String>,
    /// The form cookie the request sent, or one made for it (then `made`).
    anonymous: RefCell<Option<String>>,
    /// Whether a page used a form cookie made for this request: the answer then sets it.
    made: Cell<bool>,
}

impl FormKeys {
    fn of(req: &ServiceRequest, key: Option<[u8; 32]>) -> FormKeys {
        FormKeys {
            key,
            seat: seat_cookie::read(req.request()),
            session: session_cookie::read(req.request()),
            anonymous: RefCell::new(cookie_value(req.request(), COOKIE)),
            made: Cell::new(false),
        }
    }

    /// The binding a form at `action` has with this request's cookies, and its credential:
    /// without the seat or session cookie it is bound to the form cookie.
    fn credential(&self, action: &str) -> (Binding, Option<String>) {
        match binding_of(action) {
            Binding::Seat if self.seat.is_some() => (Binding::Seat, self.seat.clone()),
            Binding::Session if self.session.is_some() => (Binding::Session, self.session.clone()),
            _ => (Binding::Anonymous, self.anonymous.borrow().clone()),
        }
    }

    /// The token for a form at `action` on the page being rendered; makes a form cookie when
    /// the request has none and the form needs one. Empty without the key (the database could
    /// not be reached): the form is then refused when sent, with a page that says so.
    fn token_for(&self, action: &str) -> String {
        let Some(key) = &self.key else {
            return String::new();
        };
        let (binding, credential) = self.credential(action);
        let credential = credential.unwrap_or_else(|| {
            let fresh = hex::encode(crate::engine::canonical::random16());
            *self.anonymous.borrow_mut() = Some(fresh.clone());
            self.made.set(true);
            fresh
        });
        token(key, action, binding, &credential)
    }

    /// Whether `sent` is the token of the form at `action` for this request.
    fn accepts(&self, action: &str, sent: &str) -> bool {
        let (Some(key), (binding, Some(credential))) = (&self.key, self.credential(action)) else {
            return false;
        };
        links::check_form_token(
            key,
            action,
            &format!("{binding:?}"),
            &credential,
            sent.trim(),
        )
    }
}

tokio::task_local! {
    static FORM_KEYS: FormKeys;
}

/// The template function `csrf_token(action)`: the token of the form at `action` on the page
/// being rendered (`templates/csrf.html` puts it in the form). Empty outside a request.
pub fn csrf_token(action: &str) -> String {
    FORM_KEYS
        .try_with(|keys| keys.token_for(action))
        .unwrap_or_default()
}

/// The middleware: refuses a form from elsewhere, or without its token, before its handler
/// runs; and lends the page the handler renders what it needs to sign its forms.
pub async fn guard(
    mut req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, Error> {
    let path = req.path().to_owned();
    let check = check_of(req.method(), &path);
    if check != Check::None {
        if let Some(from) = foreign_origin(&req) {
            tracing::warn!(path = %path, "a request from another site was refused");
            let why = format!("it was sent from {from}, not from this service's own page");
            let refusal = if check == Check::Origin {
                // The API answers in JSON, as its other refusals do.
                ApiError(ServiceError::Forbidden(format!(
                    "this request was refused: {why}. Nothing was done."
                )))
                .error_response()
            } else {
                refused(&path, &why, false)
            };
            return Ok(req.into_response(refusal).map_into_right_body());
        }
    }
    if check == Check::Origin || !renders_pages(&path) {
        return next
            .call(req)
            .await
            .map(ServiceResponse::map_into_left_body);
    }
    let games = req.app_data::<web::Data<Games>>().cloned();
    let base_url = games
        .as_ref()
        .map(|g| g.base_url.clone())
        .unwrap_or_default();
    let key = match &games {
        Some(games) => match games.link_key().await {
            Ok(key) => Some(key),
            Err(e) => {
                tracing::warn!(error = %e, "the form key could not be read");
                None
            }
        },
        None => None,
    };
    let keys = FormKeys::of(&req, key);
    if check == Check::Form && super::uploads::is_multipart(req.request()) {
        // A form with files (the seat page's order form): read it whole, within the limit of
        // a move's files, find the token among its text fields, and hand the same bytes on.
        let limits = games
            .as_ref()
            .map(|g| g.files().limits())
            .unwrap_or_default();
        let cap = limits.per_move + 4 * super::uploads::FIELD_MAX as u64;
        let mut payload = req.take_payload();
        let bytes = match super::uploads::whole(&mut payload, cap).await {
            Ok(bytes) => bytes,
            Err(e) => {
                return Ok(req
                    .into_response(too_large(&path, &e))
                    .map_into_right_body())
            }
        };
        let open = super::uploads::Limits {
            per_file: u64::MAX,
            per_move: u64::MAX,
        };
        let sent = super::uploads::read(
            req.headers(),
            actix_web::dev::Payload::from(bytes.clone()),
            open,
        )
        .await
        .ok()
        .and_then(|parts| parts.field(FIELD).map(str::to_owned))
        .unwrap_or_default();
        if !keys.accepts(&path, &sent) {
            let refusal = refused(
                &path,
                if sent.is_empty() {
                    "it carried no security token"
                } else {
                    "its security token is not this page's"
                },
                keys.key.is_none(),
            );
            return Ok(req.into_response(refusal).map_into_right_body());
        }
        req.set_payload(actix_web::dev::Payload::from(bytes));
    } else if check == Check::Form {
        // Read the form, keep its bytes for the handler, and find the token among its fields.
        let form = match req.extract::<web::Form<Vec<(String, String)>>>().await {
            Ok(form) => form.into_inner(),
            Err(e) => return Ok(req.error_response(e).map_into_right_body()),
        };
        let sent = form
            .iter()
            .rev()
            .find(|(name, _)| name == FIELD)
            .map(|(_, value)| value.as_str())
            .unwrap_or_default();
        if !keys.accepts(&path, sent) {
            let refusal = refused(
                &path,
                if sent.is_empty() {
                    "it carried no security token"
                } else {
                    "its security token is not this page's"
                },
                keys.key.is_none(),
            );
            return Ok(req.into_response(refusal).map_into_right_body());
        }
        let body = serde_urlencoded::to_string(&form).unwrap_or_default();
        req.set_payload(actix_web::dev::Payload::from(web::Bytes::from(body)));
    }
    let (mut res, keys) = FORM_KEYS
        .scope(keys, async move {
            let res = next.call(req).await;
            (res, FORM_KEYS.with(|k| (k.made.get(), k.anonymous.take())))
        })
        .await;
    if let (Ok(res), (true, Some(made))) = (&mut res, keys) {
        let cookie = format!(
            "{COOKIE}={made}; Path=/; Max-Age={MAX_AGE_SECS}; HttpOnly; SameSite=Lax{}",
            if secure_for(&base_url) {
                "; Secure"
            } else {
                ""
            }
        );
        if let Ok(value) = HeaderValue::from_str(&cookie) {
            res.headers_mut().append(SET_COOKIE, value);
        }
    }
    res.map(ServiceResponse::map_into_left_body)
}

/// Where a POST from another site came from (for its refusal), or `None` when its origin is the
/// service's own or unknown (then its token decides).
fn foreign_origin(req: &ServiceRequest) -> Option<String> {
    let header = |name: &str| {
        req.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let origins = req
        .app_data::<web::Data<Origins>>()
        .map(|o| o.get_ref().clone())
        .unwrap_or(Origins { configured: None });
    let fetch_site = header("sec-fetch-site").map(|s| s.to_ascii_lowercase());
    let from = match header("origin") {
        // The pages' `Referrer-Policy: no-referrer` makes a browser send `Origin: null` with
        // their own forms too (the Fetch standard's rule for a POST under that policy); the
        // browser's `Sec-Fetch-Site` then says where the form came from, and without it the
        // token decides.
        Some(origin) if origin.trim() == "null" => match fetch_site.as_deref() {
            None | Some("same-origin") | Some("none") => return None,
            Some(site) => format!(
                "another site (Origin: null, Sec-Fetch-Site: {})",
                shown(site)
            ),
        },
        Some(origin) => {
            let host = header("host");
            if origins.allows(&origin, host.as_deref()) {
                return None;
            }
            format!("another site ({})", shown(&origin))
        }
        None if fetch_site.as_deref() == Some("cross-site") => {
            "another site (the browser says so: Sec-Fetch-Site: cross-site)".to_owned()
        }
        None => return None,
    };
    Some(from)
}

/// An `Origin` as the refusal shows it: short, and only the characters an origin has.
fn shown(origin: &str) -> String {
    origin
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, ':' | '/' | '.' | '-' | '[' | ']'))
        .take(100)
        .collect()
}

/// The `403` page of a refused form: what happened, that nothing changed, and the way back to
/// the page the form is on.
fn refused(path: &str, why: &str, no_key: bool) -> HttpResponse {
    let mut page = message_page_with_links(
        StatusCode::FORBIDDEN,
        "The form was refused",
        &format!("This form was not accepted: {why}. Nothing was changed."),
        Some(if no_key {
            "The server could not reach its database to check the form. Reload the page in a moment and send the form again."
        } else {
            "Reload the page the form is on, then send it again from there. If the page was open for a long time, or you opened another seat's link in this browser since, its forms are out of date. If you did not mean to send this form, another site tried to act for you: nothing was done."
        }),
        &[PageLink {
            href: page_of(path),
            text: "Back to the page",
        }],
    );
    page.headers_mut().insert(
        actix_web::http::header::CACHE_CONTROL,
        HeaderValue::from_static("no-store"),
    );
    page
}

/// The `413` page of a form whose files are over the limit: nothing was recorded.
fn too_large(path: &str, e: &ServiceError) -> HttpResponse {
    message_page_with_links(
        StatusCode::PAYLOAD_TOO_LARGE,
        "The files are too large",
        &format!("{e}."),
        Some("Go back to the page and send the order with fewer or smaller files."),
        &[PageLink {
            href: page_of(path),
            text: "Back to the page",
        }],
    )
}

/// The page the form posting to `path` is on.
fn page_of(path: &str) -> String {
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let plain = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'))
    };
    match segments.as_slice() {
        ["games", id, "settings", ..] if plain(id) => format!("/games/{id}/settings"),
        ["games", id, ..] if plain(id) => format!("/games/{id}"),
        ["me", "settings", ..] => "/me/settings".into(),
        ["logout"] | ["me"] => "/me".into(),
        ["login", ..] => "/login".into(),
        _ => "/".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_origin_is_its_scheme_host_and_port() {
        assert_eq!(
            origin_of("https://Despatch.Example/games?x").as_deref(),
            Some("https://despatch.example")
        );
        assert_eq!(
            origin_of("https://despatch.example:443").as_deref(),
            Some("https://despatch.example")
        );
        assert_eq!(
            origin_of("http://127.0.0.1:8080/").as_deref(),
            Some("http://127.0.0.1:8080")
        );
        assert_eq!(origin_of("null"), None);
        assert_eq!(origin_of("ftp://x"), None);
        assert_eq!(origin_of("https://user@x"), None);
    }

    #[test]
    fn the_configured_base_url_decides_when_there_is_one() {
        let own = Origins::new(Some("https://despatch.example/"));
        assert!(own.allows("https://despatch.example", Some("127.0.0.1:8080")));
        assert!(!own.allows("https://evil.example", Some("evil.example")));
        assert!(
            !own.allows("http://despatch.example", None),
            "another scheme"
        );
        assert!(!own.allows("null", None));
        let none = Origins::new(None);
        assert!(none.allows("http://127.0.0.1:8080", Some("127.0.0.1:8080")));
        assert!(none.allows("https://despatch.example", Some("despatch.example:443")));
        assert!(!none.allows("https://evil.example", Some("despatch.example")));
        assert!(!none.allows("https://despatch.example", None));
    }

    #[test]
    fn a_null_origin_is_judged_by_sec_fetch_site() {
        let refused = |headers: &[(&'static str, &'static str)]| {
            let mut req = actix_web::test::TestRequest::post().uri("/games");
            for h in headers {
                req = req.insert_header(*h);
            }
            foreign_origin(&req.to_srv_request()).is_some()
        };
        // A page's own form under `Referrer-Policy: no-referrer`, as Chromium sends it.
        assert!(!refused(&[
            ("Origin", "null"),
            ("Sec-Fetch-Site", "same-origin")
        ]));
        assert!(!refused(&[("Origin", "null")]), "the token decides");
        assert!(!refused(&[]), "curl: the token decides");
        assert!(refused(&[
            ("Origin", "null"),
            ("Sec-Fetch-Site", "cross-site")
        ]));
        assert!(refused(&[
            ("Origin", "null"),
            ("Sec-Fetch-Site", "same-site")
        ]));
        assert!(refused(&[("Sec-Fetch-Site", "cross-site")]));
        assert!(refused(&[("Origin", "https://evil.example")]));
    }

    #[test]
    fn each_form_is_bound_to_what_it_acts_with() {
        assert_eq!(binding_of("/games/g1/moves"), Binding::Seat);
        assert_eq!(binding_of("/games/g1/settings/webhooks"), Binding::Seat);
        assert_eq!(binding_of("/games/g1/claim/confirm"), Binding::Anonymous);
        assert_eq!(binding_of("/games"), Binding::Anonymous);
        assert_eq!(binding_of("/me/settings/vacation"), Binding::Session);
        assert_eq!(binding_of("/logout"), Binding::Session);
        assert_eq!(binding_of("/login/confirm"), Binding::Anonymous);
    }

    #[test]
    fn every_post_but_the_apis_and_verify_is_checked() {
        assert_eq!(check_of(&Method::POST, "/games/g/moves"), Check::Form);
        assert_eq!(check_of(&Method::POST, "/login/confirm"), Check::Form);
        assert_eq!(check_of(&Method::POST, "/games"), Check::Form);
        assert_eq!(check_of(&Method::POST, "/verify"), Check::None);
        assert_eq!(check_of(&Method::POST, "/api/games/g/moves"), Check::None);
        assert_eq!(check_of(&Method::POST, "/api/logout"), Check::Origin);
        assert_eq!(
            check_of(&Method::POST, "/api/logout/everywhere"),
            Check::Origin
        );
        assert_eq!(check_of(&Method::GET, "/games/g"), Check::None);
    }

    #[test]
    fn a_token_holds_for_its_form_and_credential_only() {
        let key = links::key_from_secret("k");
        let keys = FormKeys {
            key: Some(key),
            seat: Some("s1.anna.ff".into()),
            session: None,
            anonymous: RefCell::new(Some("aa".into())),
            made: Cell::new(false),
        };
        let moves = keys.token_for("/games/g/moves");
        assert!(keys.accepts("/games/g/moves", &moves));
        assert!(!keys.accepts("/games/g/resign", &moves), "another form");
        assert!(!keys.accepts("/games/g/moves", ""));
        let other_seat = FormKeys {
            seat: Some("s1.bert.ee".into()),
            anonymous: RefCell::new(Some("aa".into())),
            made: Cell::new(false),
            ..keys
        };
        assert!(
            !other_seat.accepts("/games/g/moves", &moves),
            "another seat"
        );
        // Without a session the player's forms are bound to the form cookie.
        let lobby = other_seat.token_for("/logout");
        assert!(other_seat.accepts("/logout", &lobby));
        assert!(!other_seat.made.get());
    }

    #[test]
    fn a_page_without_a_form_cookie_makes_one() {
        let keys = FormKeys {
            key: Some(links::key_from_secret("k")),
            seat: None,
            session: None,
            anonymous: RefCell::new(None),
            made: Cell::new(false),
        };
        assert!(!keys.accepts("/games", "x"));
        let t = keys.token_for("/games");
        assert!(keys.made.get());
        assert!(keys.accepts("/games", &t));
        let without_key = FormKeys { key: None, ..keys };
        assert_eq!(without_key.token_for("/games"), "");
        assert!(!without_key.accepts("/games", ""));
    }

    #[test]
    fn a_refusal_leads_back_to_the_forms_page() {
        assert_eq!(page_of("/games/g-1/moves"), "/games/g-1");
        assert_eq!(
            page_of("/games/g-1/settings/webhooks"),
            "/games/g-1/settings"
        );
        assert_eq!(page_of("/games/g\"x/moves"), "/");
        assert_eq!(page_of("/me/settings/time-zone"), "/me/settings");
        assert_eq!(page_of("/logout"), "/me");
        assert_eq!(page_of("/login/confirm"), "/login");
        assert_eq!(page_of("/games"), "/");
    }
}
