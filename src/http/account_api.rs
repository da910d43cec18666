//! The API of players (docs/web.md, "Signing in"): ask for a sign-in link or for the seat links,
//! read My games with the session cookie, sign out, and claim a seat by an email with the seat's
//! token. The sign-in link itself opens a page (`/login/confirm`), which sets the cookie.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::ToSchema;

use super::account::sent_message;
use super::api::{bearer, ErrorBody};
use super::error::ApiError;
use super::limits::{check_login, TrustedProxies};
use super::session_cookie;
use crate::games::{GameId, Games, MyGame};

type Answer = Result<HttpResponse, ApiError>;

/// An email address.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct EmailRequest {
    #[schema(max_length = 254)]
    pub email: String,
}

/// A player's games (`GET /api/me`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MyGames {
    pub email: String,
    pub games: Vec<MyGame>,
}

fn limited(retry_after_secs: u64) -> HttpResponse {
    HttpResponse::TooManyRequests()
        .insert_header(("Retry-After", retry_after_secs.to_string()))
        .json(json!({
            "error": "rate_limited",
            "message": format!("too many sign-in requests from this address; nothing was sent — try again in {retry_after_secs} s"),
            "retry_after_secs": retry_after_secs,
        }))
}

fn accepted(links: bool) -> HttpResponse {
    HttpResponse::Accepted().json(json!({ "status": "accepted", "message": sent_message(links) }))
}

/// Mails a sign-in link (one use, 20 minutes) to the address if it holds a seat. The answer is
/// the same whether or not it does.
#[utoipa::path(post, path = "/api/login", request_body = EmailRequest, responses(
    (status = 202, description = "accepted: if the address holds a seat, a sign-in link is on its way (the same answer for any well-formed address)"),
    (status = 400, description = "the address is not an email address", body = ErrorBody),
    (status = 413, description = "the body is larger than 64 KiB", body = ErrorBody),
    (status = 429, description = "too many sign-in requests from this client address (DESPATCH_LOGIN_BURST / DESPATCH_LOGIN_RATE); nothing was sent", body = ErrorBody,
        headers(("Retry-After" = u64, description = "seconds to wait"))),
    (status = 503, description = "the database is unavailable; nothing was sent", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn login(
    games: web::Data<Games>,
    proxies: web::Data<TrustedProxies>,
    req: HttpRequest,
    body: web::Json<EmailRequest>,
) -> Answer {
    mail_by_address(&games, &proxies, &req, &body.email, false).await
}

/// The two requests by address: rate-limited per client, then the sign-in link (`links`
/// false) or the seat links mailed, and the same answer for any well-formed address.
async fn mail_by_address(
    games: &Games,
    proxies: &TrustedProxies,
    req: &HttpRequest,
    email: &str,
    links: bool,
) -> Answer {
    if let Err(l) = check_login(games, proxies, req) {
        return Ok(limited(l.retry_after_secs()));
    }
    if links {
        games.send_links(email).await?;
    } else {
        games.request_login(email).await?;
    }
    Ok(accepted(links))
}

/// Mails the address a signed link to each of its seats, if it holds any. The answer is the
/// same whether or not it does.
#[utoipa::path(post, path = "/api/login/links", request_body = EmailRequest, responses(
    (status = 202, description = "accepted: if the address holds seats, their links are on their way (the same answer for any well-formed address)"),
    (status = 400, description = "the address is not an email address", body = ErrorBody),
    (status = 413, description = "the body is larger than 64 KiB", body = ErrorBody),
    (status = 429, description = "too many requests from this client address; nothing was sent", body = ErrorBody,
        headers(("Retry-After" = u64, description = "seconds to wait"))),
    (status = 503, description = "the database is unavailable; nothing was sent", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn login_links(
    games: web::Data<Games>,
    proxies: web::Data<TrustedProxies>,
    req: HttpRequest,
    body: web::Json<EmailRequest>,
) -> Answer {
    mail_by_address(&games, &proxies, &req, &body.email, true).await
}

/// The signed-in player's games: every game whose seat has the session's address, the seats
/// whose turn it is first.
#[utoipa::path(get, path = "/api/me", security(("session" = [])), responses(
    (status = 200, description = "the player's games", body = MyGames),
    (status = 401, description = "no session cookie: sign in first", body = ErrorBody),
    (status = 403, description = "the session has ended (signed out or expired)", body = ErrorBody),
    (status = 503, description = "the database is unavailable", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn me(games: web::Data<Games>, req: HttpRequest) -> Answer {
    let email = games
        .session_email(session_cookie::read(&req).as_deref())
        .await?;
    let list = games.my_games(&email).await?;
    Ok(HttpResponse::Ok().json(MyGames { email, games: list }))
}

/// Ends the session and removes its cookie (nothing to do without one).
#[utoipa::path(post, path = "/api/logout", security((), ("session" = [])), responses(
    (status = 204, description = "signed out"),
    (status = 403, description = "sent from another site (its `Origin`, or `Sec-Fetch-Site: cross-site`): nothing was done", body = ErrorBody),
    (status = 503, description = "the database is unavailable", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn logout(games: web::Data<Games>, req: HttpRequest) -> Answer {
    if let Some(token) = session_cookie::read(&req) {
        games.sign_out(&token).await?;
    }
    Ok(HttpResponse::NoContent()
        .insert_header(("Set-Cookie", session_cookie::clear(&games.base_url)))
        .finish())
}

/// Asks to give the caller's seat an email address: a link that confirms it is mailed to the
/// address, and once it is followed the seat's notices go there and signing in with it lists
/// the game. Anyone holding the seat's token may ask; only the address can confirm.
#[utoipa::path(post, path = "/api/games/{game_id}/claim", request_body = EmailRequest, security(("seat_token" = []), ("seat_link" = [])), responses(
    (status = 202, description = "the confirmation link is on its way to the address; the seat's address is unchanged until it is followed"),
    (status = 400, description = "the game id or the address is not valid, or the address was sent several links in the last minutes; nothing was sent", body = ErrorBody),
    (status = 401, description = "no seat token", body = ErrorBody),
    (status = 403, description = "the token is not a seat of this game", body = ErrorBody),
    (status = 404, description = "no such game (or the path's id cannot be a game id: the answer says what one is)", body = ErrorBody),
    (status = 413, description = "the body is larger than 64 KiB", body = ErrorBody),
    (status = 503, description = "the database is unavailable", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn claim(
    games: web::Data<Games>,
    path: web::Path<String>,
    req: HttpRequest,
    body: web::Json<EmailRequest>,
) -> Answer {
    let caller = games
        .authenticate(&GameId::parse(&path)?, bearer(&req).as_deref())
        .await?;
    let email = games.claim_seat(&caller, &body.email).await?;
    Ok(HttpResponse::Accepted().json(json!({
        "status": "confirmation_sent",
        "game_id": caller.game_id,
        "seat": caller.seat.to_string(),
        "email": email,
        "message": format!("a link that confirms the address is on its way to {email}; the seat's address changes when it is followed"),
    })))
}

/// A seat's new link, made at the seat's request.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct NewSeatLink {
    pub game_id: String,
    pub seat: String,
    /// The seat's new link: the only seat link that opens the seat from now on.
    pub link: String,
}

/// Replaces the caller's seat link by a new one: every seat link mailed or shown before (and a
/// browser's seat cookie holding one) stops opening the seat. The seat's own token, shown once
/// at creation for programs, keeps working. The new link is in the answer, once.
#[utoipa::path(post, path = "/api/games/{game_id}/new-link", security(("seat_token" = []), ("seat_link" = [])), responses(
    (status = 201, description = "the seat's new link; the links before it no longer open the seat", body = NewSeatLink),
    (status = 400, description = "the path or the query holds a control character (the message says where); nothing was done", body = ErrorBody),
    (status = 401, description = "no seat token", body = ErrorBody),
    (status = 403, description = "the token is not a seat of this game, or is a seat link already replaced", body = ErrorBody),
    (status = 404, description = "no such game (or the path's id cannot be a game id: the answer says what one is)", body = ErrorBody),
    (status = 503, description = "the database is unavailable; nothing was changed", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn new_link(
    games: web::Data<Games>,
    path: web::Path<String>,
    req: HttpRequest,
) -> Answer {
    let caller = games
        .authenticate(&GameId::parse(&path)?, bearer(&req).as_deref())
        .await?;
    let token = games.new_seat_link(&caller).await?;
    Ok(HttpResponse::Created().json(NewSeatLink {
        link: games.seat_link(&caller.game_id, &token),
        game_id: caller.game_id.into(),
        seat: caller.seat.to_string(),
    }))
}

/// Signs the session's address out everywhere: every session of the address ends (this one
/// too, and its cookie is removed), and every seat of the address gets a new link generation,
/// so no seat link mailed before opens a seat. Sign in again by email for the new links.
#[utoipa::path(post, path = "/api/logout/everywhere", security(("session" = [])), responses(
    (status = 200, description = "signed out everywhere: how many seats' links were revoked"),
    (status = 401, description = "no session cookie: sign in first", body = ErrorBody),
    (status = 403, description = "the session has ended (signed out or expired)", body = ErrorBody),
    (status = 503, description = "the database is unavailable; nothing was changed", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn logout_everywhere(games: web::Data<Games>, req: HttpRequest) -> Answer {
    let token = session_cookie::read(&req).ok_or(crate::games::ServiceError::Unauthorized)?;
    let seats = games.sign_out_everywhere(&token).await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Set-Cookie", session_cookie::clear(&games.base_url)))
        .json(json!({
            "status": "signed_out_everywhere",
            "seats": seats,
            "message": format!("every session of this address has ended and the links of its {seats} seat(s) no longer open them; sign in again by email for the new links"),
        })))
}
