//! The API of notifications and time: the live stream of a game, a seat's channels and
//! webhooks, unsubscribing from a signed link, vacations, and the clock. Handlers only
//! translate: the games service does the work.

use std::time::Duration;

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::broadcast::error::RecvError;
use utoipa::IntoParams;

use super::api::bearer;
use super::api::ErrorBody;
use super::error::ApiError;
use crate::games::clock::seat_deadline;
use crate::games::live::{Tick, Watch};
use crate::games::outbox::Channels;
use crate::games::{GameId, Games, NewWebhook, ServiceError, VacationRequest};
use crate::notify::live::Hub;

type Answer = Result<HttpResponse, ApiError>;

/// How often an idle stream sends a comment, so proxies keep it open.
const KEEPALIVE: Duration = Duration::from_secs(15);

fn frame(tick: &Tick) -> web::Bytes {
    web::Bytes::from(format!(
        "event: game\ndata: {}\n\n",
        serde_json::to_string(tick).expect("serialisable")
    ))
}

struct StreamState {
    first: Option<Tick>,
    rx: tokio::sync::broadcast::Receiver<Tick>,
    game_id: GameId,
    games: Games,
    keepalive: tokio::time::Interval,
    /// The `next_seq` last sent: pushes that arrive late (a NOTIFY from before the page
    /// connected) or twice are not repeated.
    sent: u64,
    /// The page's watch on the game, while the stream is open: on SQLite, what makes the
    /// server notice other processes' appends (`games::live`).
    _watch: Watch,
}

/// Server-sent events: `event: game` with `data: {"game_id": …, "next_seq": …}` at once and
/// after every append to the game, whichever process made it (never twice for one `next_seq`,
/// never going back). `?token=` (a seat
/// token or seat link) is checked when given; the stream says nothing a spectator may not know.
#[utoipa::path(get, path = "/api/games/{game_id}/stream", security((), ("seat_token" = []), ("seat_link" = [])), responses(
    (status = 200, description = "text/event-stream of `event: game`", content_type = "text/event-stream"),
    (status = 403, description = "the token is not a seat of this game", body = ErrorBody), (status = 400, description = "the path or the query holds a control character (the message says where); nothing was done", body = ErrorBody), (status = 404, description = "no such game (or the path's id cannot be a game id: the answer says what one is)", body = ErrorBody), (status = 503, description = "the database is unavailable", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn stream(
    games: web::Data<Games>,
    hub: web::Data<Hub>,
    path: web::Path<String>,
    req: HttpRequest,
) -> Answer {
    let game_id = GameId::parse(&path)?;
    if let Some(token) = bearer(&req) {
        games.authenticate(&game_id, Some(&token)).await?;
    }
    // Watch and subscribe before reading next_seq, so no append falls between them.
    let watch = games.watch(&game_id);
    let rx = hub.subscribe();
    let next_seq = games
        .next_seq(&game_id)
        .await?
        .ok_or_else(|| ServiceError::NotFound(format!("there is no game {game_id}")))?;
    let mut keepalive = tokio::time::interval(KEEPALIVE);
    keepalive.reset();
    let state = StreamState {
        first: Some(Tick {
            game_id: game_id.to_string(),
            next_seq,
        }),
        rx,
        game_id: game_id.clone(),
        games: games.get_ref().clone(),
        keepalive,
        sent: 0,
        _watch: watch,
    };
    let body = futures_util::stream::unfold(state, |mut s| async move {
        if let Some(first) = s.first.take() {
            s.sent = first.next_seq;
            let mut bytes = b"retry: 3000\n".to_vec();
            bytes.extend_from_slice(&frame(&first));
            return Some((Ok::<_, actix_web::Error>(web::Bytes::from(bytes)), s));
        }
        loop {
            tokio::select! {
                got = s.rx.recv() => match got {
                    Ok(tick) if s.game_id == tick.game_id.as_str() && tick.next_seq > s.sent => {
                        s.sent = tick.next_seq;
                        return Some((Ok(frame(&tick)), s));
                    }
                    Ok(_) => continue,
                    // Pushes were missed: say where the game is now.
                    Err(RecvError::Lagged(_)) => {
                        if let Ok(Some(next_seq)) = s.games.next_seq(&s.game_id).await {
                            if next_seq > s.sent {
                                s.sent = next_seq;
                                let tick = Tick { game_id: s.game_id.to_string(), next_seq };
                                return Some((Ok(frame(&tick)), s));
                            }
                        }
                    }
                    Err(RecvError::Closed) => return None,
                },
                _ = s.keepalive.tick() => {
                    return Some((Ok(web::Bytes::from_static(b": keepalive\n\n")), s));
                }
            }
        }
    });
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header(("Cache-Control", "no-cache"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(body))
}

/// The channels the caller's seat hears on.
#[utoipa::path(get, path = "/api/games/{game_id}/channels", security(("seat_token" = []), ("seat_link" = [])), responses(
    (status = 200, description = "{email, webhooks}"), (status = 401, description = "no seat token was sent", body = ErrorBody), (status = 403, description = "the token is not a seat of this game", body = ErrorBody), (status = 400, description = "the path or the query holds a control character (the message says where); nothing was done", body = ErrorBody), (status = 404, description = "no such game (or the path's id cannot be a game id: the answer says what one is)", body = ErrorBody), (status = 503, description = "the database is unavailable", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn channels(
    games: web::Data<Games>,
    path: web::Path<String>,
    req: HttpRequest,
) -> Answer {
    let caller = games
        .authenticate(&GameId::parse(&path)?, bearer(&req).as_deref())
        .await?;
    Ok(HttpResponse::Ok().json(games.channels(&caller).await?))
}

/// Chooses the caller's seat's channels.
#[utoipa::path(put, path = "/api/games/{game_id}/channels", security(("seat_token" = []), ("seat_link" = [])),
    request_body(content = Object, description = "`{\"email\": bool, \"webhooks\": bool}`"), responses(
    (status = 200, description = "{email, webhooks}"),
    (status = 400, description = "the body is not `{email, webhooks}`", body = ErrorBody),
    (status = 401, description = "no seat token was sent", body = ErrorBody), (status = 403, description = "the token is not a seat of this game", body = ErrorBody), (status = 404, description = "no such game (or the path's id cannot be a game id: the answer says what one is)", body = ErrorBody), (status = 413, description = "the body is larger than 64 KiB", body = ErrorBody), (status = 503, description = "the database is unavailable", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn set_channels(
    games: web::Data<Games>,
    path: web::Path<String>,
    req: HttpRequest,
    body: web::Json<Channels>,
) -> Answer {
    let caller = games
        .authenticate(&GameId::parse(&path)?, bearer(&req).as_deref())
        .await?;
    Ok(HttpResponse::Ok().json(games.set_channels(&caller, body.into_inner()).await?))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Unsubscribe {
    /// The seat whose channel is turned off.
    seat: String,
    /// `email` or `webhooks`.
    channel: String,
    /// The link's signature over the game, the seat and the channel.
    sig: String,
}

/// The page a notice's unsubscribe link opens: it checks the link and asks for a confirmation,
/// changing nothing, since mail scanners and link previews open links on their own.
#[utoipa::path(get, path = "/api/games/{game_id}/unsubscribe", params(Unsubscribe), responses(
    (status = 200, description = "the link is valid: a page with a button that confirms (a POST)", content_type = "text/html"),
    (status = 400, description = "a parameter is missing or not valid, or the channel is not `email` or `webhooks` (a page saying which)", content_type = "text/html"),
    (status = 403, description = "the signature does not match: the link was altered (a page)", content_type = "text/html"),
    (status = 404, description = "no such game (a page)", content_type = "text/html"), (status = 503, description = "the database is unavailable (a page)", content_type = "text/html", headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn unsubscribe_page(
    games: web::Data<Games>,
    path: web::Path<String>,
    query: Result<web::Query<Unsubscribe>, actix_web::Error>,
    req: HttpRequest,
) -> HttpResponse {
    let Ok(q) = query else {
        return incomplete_link();
    };
    let game_id = match GameId::parse(&path) {
        Ok(g) => g,
        Err(e) => return unsubscribe_refused(&e.into()),
    };
    match games
        .check_unsubscribe(&game_id, &q.seat, &q.channel, &q.sig)
        .await
    {
        Ok(()) => super::pages::confirm_page(
            "Stop these emails?",
            &format!(
                "Seat {} of game {} will get no more {} from this game.",
                q.seat,
                game_id,
                what(&q.channel)
            ),
            &format!("{}?{}", req.path(), req.query_string()),
            "Yes, stop them",
        ),
        Err(e) => unsubscribe_refused(&e),
    }
}

/// Turns one channel off for one seat from the signed link in a notice, without a login: the
/// confirmation of the link's page, or a mail client's one-click request (RFC 8058: a POST with
/// the body `List-Unsubscribe=One-Click`, which needs no reading).
#[utoipa::path(post, path = "/api/games/{game_id}/unsubscribe", params(Unsubscribe), responses(
    (status = 200, description = "unsubscribed (a page saying so)", content_type = "text/html"),
    (status = 400, description = "a parameter is missing or not valid, or the channel is not `email` or `webhooks` (a page saying which)", content_type = "text/html"),
    (status = 403, description = "the signature does not match: the link was altered (a page)", content_type = "text/html"),
    (status = 404, description = "no such game (a page)", content_type = "text/html"), (status = 503, description = "the database is unavailable (a page)", content_type = "text/html", headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn unsubscribe(
    games: web::Data<Games>,
    path: web::Path<String>,
    query: Result<web::Query<Unsubscribe>, actix_web::Error>,
) -> HttpResponse {
    let Ok(q) = query else {
        return incomplete_link();
    };
    let game_id = match GameId::parse(&path) {
        Ok(g) => g,
        Err(e) => return unsubscribe_refused(&e.into()),
    };
    match games
        .unsubscribe(&game_id, &q.seat, &q.channel, &q.sig)
        .await
    {
        Ok(_) => super::pages::message_page(
            actix_web::http::StatusCode::OK,
            "Done",
            &format!(
                "Seat {} gets no more {} from game {}.",
                q.seat,
                what(&q.channel),
                game_id
            ),
            Some("To turn them on again, open the seat's settings from its page (Settings for this seat), or PUT /api/games/{game}/channels with the seat's token."),
        ),
        Err(e) => unsubscribe_refused(&e),
    }
}

fn what(channel: &str) -> &'static str {
    if channel == "email" {
        "emails"
    } else {
        "webhook calls"
    }
}

/// An unsubscribe link without its seat, channel or signature, as a page.
fn incomplete_link() -> HttpResponse {
    unsubscribe_refused(&ServiceError::BadRequest(
        "the link lacks its seat, channel or signature; copy the whole link from the email".into(),
    ))
}

/// A refused unsubscribe link as a page (its reader followed a link from an email).
fn unsubscribe_refused(e: &ServiceError) -> HttpResponse {
    use actix_web::http::StatusCode;
    let (status, heading) = match e {
        ServiceError::BadRequest(_) => (StatusCode::BAD_REQUEST, "This link is incomplete"),
        ServiceError::Forbidden(_) | ServiceError::Unauthorized => {
            (StatusCode::FORBIDDEN, "This link is not valid")
        }
        ServiceError::NotFound(_) => (StatusCode::NOT_FOUND, "No such game"),
        ServiceError::Unavailable(_) => (
            StatusCode::SERVICE_UNAVAILABLE,
            "The database is unavailable",
        ),
        _ => (StatusCode::INTERNAL_SERVER_ERROR, "The server failed"),
    };
    let message = if status == StatusCode::INTERNAL_SERVER_ERROR {
        tracing::error!(error = %e, "internal error on an unsubscribe link");
        "Something went wrong on the server. Nothing was changed; try again in a moment.".to_owned()
    } else {
        format!("{e}. Nothing was changed.")
    };
    let mut page = super::pages::message_page(
        status,
        heading,
        &message,
        Some("Use the whole link from the email, or ask the game's organiser."),
    );
    if status == StatusCode::SERVICE_UNAVAILABLE {
        page.headers_mut().insert(
            actix_web::http::header::RETRY_AFTER,
            actix_web::http::header::HeaderValue::from(super::error::UNAVAILABLE_RETRY_AFTER_SECS),
        );
    }
    page
}

/// Registers a webhook; its secret (the HMAC key of `X-Despatch-Signature`) is in this answer
/// only.
#[utoipa::path(post, path = "/api/games/{game_id}/webhooks", request_body = NewWebhook, security(("seat_token" = []), ("seat_link" = [])), responses(
    (status = 201, description = "registered; the secret is in this answer only", body = crate::games::Webhook),
    (status = 400, description = "the webhook is not valid (the message says which field)", body = ErrorBody),
    (status = 401, description = "no seat token was sent", body = ErrorBody), (status = 403, description = "the token is not a seat of this game", body = ErrorBody), (status = 404, description = "no such game (or the path's id cannot be a game id: the answer says what one is)", body = ErrorBody), (status = 413, description = "the body is larger than 64 KiB", body = ErrorBody), (status = 503, description = "the database is unavailable", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn add_webhook(
    games: web::Data<Games>,
    path: web::Path<String>,
    req: HttpRequest,
    body: web::Json<NewWebhook>,
) -> Answer {
    let caller = games
        .authenticate(&GameId::parse(&path)?, bearer(&req).as_deref())
        .await?;
    Ok(HttpResponse::Created().json(games.add_webhook(&caller, &body).await?))
}

/// The caller's seat's webhooks and the game-wide ones (without secrets).
#[utoipa::path(get, path = "/api/games/{game_id}/webhooks", security(("seat_token" = []), ("seat_link" = [])), responses(
    (status = 200, description = "hooks"), (status = 401, description = "no seat token was sent", body = ErrorBody), (status = 403, description = "the token is not a seat of this game", body = ErrorBody), (status = 400, description = "the path or the query holds a control character (the message says where); nothing was done", body = ErrorBody), (status = 404, description = "no such game (or the path's id cannot be a game id: the answer says what one is)", body = ErrorBody), (status = 503, description = "the database is unavailable", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn webhooks(
    games: web::Data<Games>,
    path: web::Path<String>,
    req: HttpRequest,
) -> Answer {
    let caller = games
        .authenticate(&GameId::parse(&path)?, bearer(&req).as_deref())
        .await?;
    Ok(HttpResponse::Ok().json(games.webhooks(&caller).await?))
}

/// Deletes one of the caller's seat's webhooks (or a game-wide one).
#[utoipa::path(delete, path = "/api/games/{game_id}/webhooks/{hook_id}", security(("seat_token" = []), ("seat_link" = [])), responses(
    (status = 204, description = "deleted"),
    (status = 400, description = "the game id or hook id is not valid", body = ErrorBody),
    (status = 401, description = "no seat token was sent", body = ErrorBody), (status = 403, description = "the token is not a seat of this game", body = ErrorBody),
    (status = 404, description = "no such game, or no such webhook of this seat", body = ErrorBody), (status = 503, description = "the database is unavailable", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn delete_webhook(
    games: web::Data<Games>,
    path: web::Path<(String, String)>,
    req: HttpRequest,
) -> Answer {
    let (game_id, hook_id) = path.into_inner();
    let caller = games
        .authenticate(&GameId::parse(&game_id)?, bearer(&req).as_deref())
        .await?;
    games.delete_webhook(&caller, &hook_id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Takes a vacation in advance, within the seat's yearly allowance.
#[utoipa::path(post, path = "/api/games/{game_id}/vacation", request_body = VacationRequest, security(("seat_token" = []), ("seat_link" = [])), responses(
    (status = 201, description = "recorded"),
    (status = 400, description = "the vacation is not valid or not allowed (the message says why); nothing was recorded", body = ErrorBody),
    (status = 401, description = "no seat token was sent", body = ErrorBody), (status = 403, description = "the token is not a seat of this game", body = ErrorBody), (status = 404, description = "no such game (or the path's id cannot be a game id: the answer says what one is)", body = ErrorBody), (status = 413, description = "the body is larger than 64 KiB", body = ErrorBody), (status = 503, description = "the database is unavailable", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn vacation(
    games: web::Data<Games>,
    path: web::Path<String>,
    req: HttpRequest,
    body: web::Json<VacationRequest>,
) -> Answer {
    let caller = games
        .authenticate(&GameId::parse(&path)?, bearer(&req).as_deref())
        .await?;
    Ok(HttpResponse::Created().json(games.take_vacation(&caller, &body).await?))
}

/// The game's clock policy and each waiting seat's deadline.
#[utoipa::path(get, path = "/api/games/{game_id}/clock", responses(
    (status = 200, description = "policy and deadlines"), (status = 400, description = "the path or the query holds a control character (the message says where); nothing was done", body = ErrorBody), (status = 404, description = "no such game (or the path's id cannot be a game id: the answer says what one is)", body = ErrorBody), (status = 503, description = "the database is unavailable", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn clock(games: web::Data<Games>, path: web::Path<String>) -> Answer {
    let game_id = GameId::parse(&path)?;
    let l = games.load(&game_id).await?;
    let Some(policy) = games.clock_policy(&game_id).await? else {
        return Ok(HttpResponse::Ok().json(json!({ "policy": null, "deadlines": {} })));
    };
    let mut deadlines = serde_json::Map::new();
    let log = games.whole_log(&l).await?;
    for p in l.game.prompts() {
        let due =
            seat_deadline(&policy, &log, p.seat.as_str()).map(crate::engine::event::timestamp);
        deadlines.insert(p.seat.to_string(), json!(due));
    }
    Ok(HttpResponse::Ok().json(json!({ "policy": policy, "deadlines": deadlines })))
}
