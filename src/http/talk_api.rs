//! Table talk through the API (docs/web.md, "Table talk"): `GET /api/games/{id}/talk` reads
//! what the seat may read, `POST` says something to the table or tells one seat — the same
//! rules as the seat page's form and a reply's `say`/`tell` lines (`games::talk`), with the
//! seat's token. Handlers only translate.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::api::{bearer, ErrorBody};
use super::error::ApiError;
use crate::games::talk::TalkLine;
use crate::games::{GameId, Games};

type Answer = Result<HttpResponse, ApiError>;

/// Something to say: to the whole table, or with `to` (a seat's id, or its player's name) to
/// that seat alone.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TalkRequest {
    /// 1 to 2,000 characters; no control characters but line breaks and tabs.
    #[schema(max_length = 2000)]
    pub text: String,
    /// A seat to tell; absent or empty: the whole table.
    #[serde(default)]
    pub to: Option<String>,
}

/// The talk a seat may read (`GET /api/games/{id}/talk`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TalkList {
    pub game_id: String,
    pub seat: String,
    /// Oldest first: to the table, from this seat or to it while the game runs; every message
    /// after the end.
    pub talk: Vec<TalkLine>,
}

/// The table talk the seat may read, oldest first.
#[utoipa::path(get, path = "/api/games/{game_id}/talk", security(("seat_token" = []), ("seat_link" = [])), responses(
    (status = 200, description = "the messages this seat may read", body = TalkList),
    (status = 400, description = "the path or the query holds a control character (the message says where); nothing was done", body = ErrorBody),
    (status = 401, description = "no seat token was sent", body = ErrorBody),
    (status = 403, description = "the token is not a seat of this game", body = ErrorBody),
    (status = 404, description = "no such game (or the path's id cannot be a game id: the answer says what one is)", body = ErrorBody),
    (status = 503, description = "the database is unavailable", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn read(games: web::Data<Games>, path: web::Path<String>, req: HttpRequest) -> Answer {
    let caller = games
        .authenticate(&GameId::parse(&path)?, bearer(&req).as_deref())
        .await?;
    let talk = games.talk_of(&caller).await?;
    Ok(HttpResponse::Ok().json(TalkList {
        game_id: caller.game_id.into(),
        seat: caller.seat.to_string(),
        talk,
    }))
}

/// Says something to the table, or tells one seat; delivered to its readers through the
/// outbox (mail, their webhooks) and shown on their pages. Kept outside the game's log.
#[utoipa::path(post, path = "/api/games/{game_id}/talk", request_body = TalkRequest, security(("seat_token" = []), ("seat_link" = [])), responses(
    (status = 201, description = "said: the message as its readers see it", body = TalkLine),
    (status = 400, description = "an empty or over-long message, no such seat, or the seat's own; nothing was sent", body = ErrorBody),
    (status = 401, description = "no seat token was sent", body = ErrorBody),
    (status = 403, description = "the token is not a seat of this game", body = ErrorBody),
    (status = 404, description = "no such game (or the path's id cannot be a game id: the answer says what one is)", body = ErrorBody),
    (status = 413, description = "the body is larger than 64 KiB", body = ErrorBody),
    (status = 422, description = "the rules allow no such `tell` now (the message names the rule); nothing was sent", body = ErrorBody),
    (status = 503, description = "the database is unavailable", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn say(
    games: web::Data<Games>,
    path: web::Path<String>,
    req: HttpRequest,
    body: web::Json<TalkRequest>,
) -> Answer {
    let caller = games
        .authenticate(&GameId::parse(&path)?, bearer(&req).as_deref())
        .await?;
    let line = games.talk(&caller, body.to.as_deref(), &body.text).await?;
    Ok(HttpResponse::Created().json(line))
}
