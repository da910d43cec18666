//! A player's pages (docs/web.md, "Signing in"): the sign-in form (which also sends a player
//! their seat links again), the page a sign-in link opens, **My games**, signing out, and a
//! seat claimed by an email from its seat page. Handlers only translate: `games::players` does
//! the work. The answer to the form is the same whether or not the address holds a seat.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use minijinja::context;
use serde::Deserialize;

use super::limits::{check_login, TrustedProxies};
use super::pages::{cookie_seat, error_page, game_of, message_page, rendered, v};
use super::{seat_cookie, session_cookie};
use crate::games::players::LOGIN_LIFETIME;
use crate::games::{Games, ServiceError};

/// What the sign-in form says once sent, whatever the address.
pub fn sent_message(links: bool) -> String {
    if links {
        "If this address holds a seat here, an email with a link to each of its seats is on its way.".into()
    } else {
        format!(
            "If this address holds a seat here, an email with a sign-in link is on its way. The link works once, for {} minutes.",
            LOGIN_LIFETIME.as_secs() / 60
        )
    }
}

fn login_page(
    status: StatusCode,
    email: &str,
    flash: Option<String>,
    error: Option<String>,
) -> HttpResponse {
    rendered(status, "login.html", context! { email, flash, error })
}

fn see_other(location: &str) -> actix_web::HttpResponseBuilder {
    let mut answer = HttpResponse::SeeOther();
    answer
        .insert_header(("Location", location))
        .insert_header(("Referrer-Policy", "no-referrer"))
        .insert_header(("Cache-Control", "no-store"));
    answer
}

/// The page's answer to a refused request: 429 with `Retry-After`.
fn too_many(email: &str, retry_after_secs: u64) -> HttpResponse {
    let mut page = login_page(
        StatusCode::TOO_MANY_REQUESTS,
        email,
        None,
        Some(format!(
            "Too many requests from your address; nothing was sent. Try again in {retry_after_secs} s."
        )),
    );
    page.headers_mut().insert(
        actix_web::http::header::RETRY_AFTER,
        retry_after_secs.into(),
    );
    page
}

pub async fn login_get() -> HttpResponse {
    login_page(StatusCode::OK, "", None, None)
}

#[derive(Debug, Deserialize)]
pub struct LoginForm {
    #[serde(default)]
    email: String,
    /// `links` for "send me my links"; anything else signs in.
    #[serde(default)]
    what: String,
}

/// The sign-in form: a sign-in link, or the seat links, to the address if it holds a seat.
pub async fn login_post(
    games: web::Data<Games>,
    proxies: web::Data<TrustedProxies>,
    req: HttpRequest,
    form: web::Form<LoginForm>,
) -> HttpResponse {
    let email = form.email.trim();
    let links = form.what == "links";
    if let Err(limited) = check_login(&games, &proxies, &req) {
        return too_many(email, limited.retry_after_secs());
    }
    let sent = if links {
        games.send_links(email).await
    } else {
        games.request_login(email).await
    };
    match sent {
        Ok(()) => login_page(StatusCode::OK, "", Some(sent_message(links)), None),
        Err(ServiceError::BadRequest(m)) => {
            login_page(StatusCode::BAD_REQUEST, email, None, Some(m))
        }
        Err(e) => error_page(&e, ""),
    }
}

#[derive(Debug, Deserialize)]
pub struct TokenForm {
    #[serde(default)]
    token: String,
}

/// The page a sign-in link opens: one button that signs in. Following the link changes
/// nothing, so a mail scanner that fetches it does not use the link up.
pub async fn confirm_get(query: web::Query<TokenForm>) -> HttpResponse {
    rendered(
        StatusCode::OK,
        "login_confirm.html",
        context! { token => query.token.trim(), flash => None::<String>, error => None::<String> },
    )
}

/// Uses the sign-in link: a session cookie, and on to My games.
pub async fn confirm_post(games: web::Data<Games>, form: web::Form<TokenForm>) -> HttpResponse {
    match games.sign_in(&form.token).await {
        Ok(session) => see_other("/me")
            .append_header((
                "Set-Cookie",
                session_cookie::set(&session.token, &games.base_url),
            ))
            .finish(),
        Err(ServiceError::Forbidden(m)) => login_page(StatusCode::FORBIDDEN, "", None, Some(m)),
        Err(e) => error_page(&e, ""),
    }
}

/// My games: every game whose seat has the session's address, its turn first.
pub async fn me(games: web::Data<Games>, req: HttpRequest) -> HttpResponse {
    let token = session_cookie::read(&req);
    let email = match games.session_email(token.as_deref()).await {
        Ok(email) => email,
        Err(ServiceError::Unauthorized | ServiceError::Forbidden(_)) => {
            let mut page = login_page(
                StatusCode::UNAUTHORIZED,
                "",
                None,
                Some("Sign in to see your games: we email you a link.".into()),
            );
            if token.is_some() {
                if let Ok(clear) = actix_web::http::header::HeaderValue::from_str(
                    &session_cookie::clear(&games.base_url),
                ) {
                    page.headers_mut()
                        .append(actix_web::http::header::SET_COOKIE, clear);
                }
            }
            return page;
        }
        Err(e) => return error_page(&e, ""),
    };
    match games.my_games(&email).await {
        Ok(list) => rendered(
            StatusCode::OK,
            "me.html",
            context! { email, games => v(&list), flash => None::<String>, error => None::<String> },
        ),
        Err(e) => error_page(&e, ""),
    }
}

/// Signs out: the session ends on the server and the cookie is removed.
pub async fn logout(games: web::Data<Games>, req: HttpRequest) -> HttpResponse {
    if let Some(token) = session_cookie::read(&req) {
        if let Err(e) = games.sign_out(&token).await {
            return error_page(&e, "");
        }
    }
    see_other("/login")
        .append_header(("Set-Cookie", session_cookie::clear(&games.base_url)))
        .finish()
}

/// Signs the session's address out everywhere: every session of the address ends, and every
/// seat of the address gets a new link, so no link mailed before opens a seat.
pub async fn logout_everywhere(games: web::Data<Games>, req: HttpRequest) -> HttpResponse {
    let Some(token) = session_cookie::read(&req) else {
        return see_other("/login").finish();
    };
    let seats = match games.sign_out_everywhere(&token).await {
        Ok(n) => n,
        Err(e) => return error_page(&e, ""),
    };
    let mut page = message_page(
        StatusCode::OK,
        "Signed out everywhere",
        &format!(
            "Every browser signed in with this address is signed out, and the links of its {seats} seat(s) no longer open them — those in old mails and bookmarks included."
        ),
        Some("Sign in again by email: My games lists each seat with its new link, and the next notices carry it."),
    );
    if let Ok(clear) =
        actix_web::http::header::HeaderValue::from_str(&session_cookie::clear(&games.base_url))
    {
        page.headers_mut()
            .append(actix_web::http::header::SET_COOKIE, clear);
    }
    page
}

/// A new link for the seat of the seat cookie: the links before it stop opening the seat, and
/// this browser keeps it with the new one (the seat page then shows the new link, once).
pub async fn new_link(
    games: web::Data<Games>,
    path: web::Path<String>,
    req: HttpRequest,
) -> HttpResponse {
    let game_id = &match game_of(&path) {
        Ok(g) => g,
        Err(page) => return *page,
    };
    let caller = match cookie_seat(&games, game_id, &req).await {
        Ok(c) => c,
        Err(page) => return page,
    };
    let token = match games.new_seat_link(&caller).await {
        Ok(t) => t,
        Err(e) => return error_page(&e, game_id),
    };
    let mut answer = see_other(&format!("/games/{game_id}?new_link=1"));
    if let Some(cookie) =
        seat_cookie::set(game_id, &token, seat_cookie::secure_for(&games.base_url))
    {
        answer.append_header(("Set-Cookie", cookie));
    }
    answer.finish()
}

#[derive(Debug, Deserialize)]
pub struct ClaimForm {
    #[serde(default)]
    email: String,
}

/// A seat claimed by an email from its seat page (the seat cookie says which seat): a link that
/// confirms it is mailed to the address; the seat's email is set when it is followed.
pub async fn claim(
    games: web::Data<Games>,
    path: web::Path<String>,
    form: web::Form<ClaimForm>,
    req: HttpRequest,
) -> HttpResponse {
    let game_id = &match game_of(&path) {
        Ok(g) => g,
        Err(page) => return *page,
    };
    let caller = match cookie_seat(&games, game_id, &req).await {
        Ok(c) => c,
        Err(page) => return page,
    };
    match games.claim_seat(&caller, &form.email).await {
        Ok(_) => see_other(&format!("/games/{game_id}?claim_sent=1")).finish(),
        Err(ServiceError::BadRequest(m)) => message_page(
            StatusCode::BAD_REQUEST,
            "Not done",
            &m,
            Some("Go back to your seat page and write the address again. Nothing was changed."),
        ),
        Err(e) => error_page(&e, game_id),
    }
}

#[derive(Debug, Deserialize)]
pub struct ClaimToken {
    #[serde(default)]
    token: String,
}

fn claim_confirm_page(
    status: StatusCode,
    game_id: &str,
    token: &str,
    error: Option<String>,
) -> HttpResponse {
    rendered(
        status,
        "claim_confirm.html",
        context! { game_id, token, done => false, flash => None::<String>, error },
    )
}

/// The page a claim's confirmation link opens: one button. It changes nothing, so a mail
/// scanner that fetches the link does not use it up.
pub async fn claim_confirm_get(
    path: web::Path<String>,
    query: web::Query<ClaimToken>,
) -> HttpResponse {
    claim_confirm_page(StatusCode::OK, &path, &query.token, None)
}

/// Uses a claim's confirmation link: the seat gets the address the link was mailed to.
pub async fn claim_confirm_post(
    games: web::Data<Games>,
    path: web::Path<String>,
    form: web::Form<ClaimToken>,
) -> HttpResponse {
    let game_id = &match game_of(&path) {
        Ok(g) => g,
        Err(page) => return *page,
    };
    let (seat, email) = match games.confirm_claim(game_id, &form.token).await {
        Ok(taken) => taken,
        Err(ServiceError::Forbidden(m)) => {
            return claim_confirm_page(StatusCode::FORBIDDEN, game_id, &form.token, Some(m))
        }
        Err(e) => return error_page(&e, game_id),
    };
    let loaded = match games.load(game_id).await {
        Ok(l) => l,
        Err(e) => return error_page(&e, game_id),
    };
    let seat_name = loaded
        .seats
        .iter()
        .find(|s| s.seat == seat)
        .map_or_else(|| seat.clone(), |s| s.name.clone());
    // The seat is the address's now, and its links before are revoked when the address changed:
    // this browser, which holds the address's link, keeps the seat with the seat's link as it
    // stands (what the next notice to the address carries).
    let link_token = match games.seat_link_token(game_id, &seat).await {
        Ok(t) => t,
        Err(e) => return error_page(&e, game_id),
    };
    let mut page = rendered(
        StatusCode::OK,
        "claim_confirm.html",
        context! {
            game_id => game_id.as_str(), done => true, seat_name, email,
            game_name => crate::games::players::name_of_loaded(&loaded),
            token => "", flash => None::<String>, error => None::<String>,
        },
    );
    if let Some(cookie) = seat_cookie::set(
        game_id,
        &link_token,
        seat_cookie::secure_for(&games.base_url),
    ) {
        if let Ok(value) = actix_web::http::header::HeaderValue::from_str(&cookie) {
            page.headers_mut()
                .append(actix_web::http::header::SET_COOKIE, value);
        }
    }
    page
}
