//! The JSON API under `/api`. Handlers only translate: the games service does the work.

use actix_web::{web, FromRequest, HttpRequest, HttpResponse};
use serde::Deserialize;
use utoipa::IntoParams;

use super::error::ApiError;
use super::limits::{check_create, TrustedProxies};
use super::uploads;
use crate::engine::ruleset::Viewer;
use crate::games::{GameId, Games, NewGame, ServiceError, Submit, MAX_SEQ};
use crate::rules;

type Answer = Result<HttpResponse, ApiError>;

/// The seat token of a request, if it sent one: `Authorization: Bearer <token>`, or a
/// `?token=` query parameter (what a notice's magic link carries).
pub fn bearer(req: &HttpRequest) -> Option<String> {
    let header = req
        .headers()
        .get("Authorization")
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.split_once(' '))
        .and_then(|(scheme, token)| {
            scheme
                .eq_ignore_ascii_case("bearer")
                .then(|| token.trim().to_owned())
        });
    header.or_else(|| {
        web::Query::<TokenQuery>::from_query(req.query_string())
            .ok()
            .and_then(|q| q.into_inner().token)
            .filter(|t| !t.trim().is_empty())
    })
}

#[derive(Debug, Deserialize)]
struct TokenQuery {
    token: Option<String>,
}

/// The viewer a request speaks for: its seat if it sent a valid token, else a spectator. A token
/// that does not open a seat is refused rather than silently downgraded.
async fn viewer(games: &Games, game_id: &GameId, req: &HttpRequest) -> Result<Viewer, ApiError> {
    match bearer(req) {
        None => Ok(Viewer::Spectator),
        Some(token) => Ok(Viewer::Seat(
            games.authenticate(game_id, Some(&token)).await?.seat,
        )),
    }
}

/// The service is up and its database answers.
#[utoipa::path(get, path = "/health", responses(
    (status = 200, description = "healthy"),
    (status = 503, description = "the database does not answer", headers(("Retry-After" = u64, description = "seconds to wait before asking again")))))]
pub async fn health(games: web::Data<Games>) -> HttpResponse {
    super::health::report(&games).await
}

/// The rulesets this server plays, with their scenarios, options and order language.
#[utoipa::path(get, path = "/api/rulesets", responses((status = 200, description = "ruleset list")))]
pub async fn rulesets() -> HttpResponse {
    let infos: Vec<_> = rules::all().iter().map(|r| r.info()).collect();
    HttpResponse::Ok().json(infos)
}

/// Creates a game. Each seat's token and link are in this answer only.
#[utoipa::path(post, path = "/api/games", request_body = NewGame,
    responses((status = 201, description = "created: each seat's token and link, shown this once", body = crate::games::CreatedGame),
        (status = 400, description = "the request is not a valid game: `problems` names every field that is wrong and what is wrong with it (`message` says them all in one); nothing was created", body = ErrorBody),
        (status = 413, description = "the body is larger than 64 KiB", body = ErrorBody),
        (status = 429, description = "this client address has created too many games lately (DESPATCH_CREATE_BURST / DESPATCH_CREATE_RATE); nothing was created; retry after the Retry-After header's seconds", body = ErrorBody,
            headers(("Retry-After" = u64, description = "seconds until this address may create a game again"))),
        (status = 503, description = "the database is unavailable; nothing was created", body = ErrorBody,
            headers(("Retry-After" = u64, description = "seconds to wait before trying again")))))]
pub async fn create_game(
    games: web::Data<Games>,
    proxies: web::Data<TrustedProxies>,
    req: HttpRequest,
    body: web::Json<NewGame>,
) -> Answer {
    if let Err(refused) = check_create(&games, &proxies, &req) {
        return Ok(refused.response());
    }
    let created = games.create(body.into_inner()).await?;
    Ok(HttpResponse::Created().json(created))
}

/// A game's public summary.
#[utoipa::path(get, path = "/api/games/{game_id}", responses(
    (status = 200, description = "the game's public summary", body = crate::games::Summary),
    (status = 400, description = "the path or the query holds a control character (the message says where); nothing was done", body = ErrorBody),
    (status = 404, description = "no such game (or the path's id cannot be a game id: the answer says what one is)", body = ErrorBody),
    (status = 503, description = "`unavailable`: the database is unavailable; or `game_does_not_load`: the game's stored log does not fold with this server (the answer names the event and the problem)", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn summary(games: web::Data<Games>, path: web::Path<String>) -> Answer {
    let game_id = GameId::parse(&path)?;
    Ok(HttpResponse::Ok().json(games.summary(&game_id).await?))
}

/// What the caller may see: its seat's view with a bearer token, the public view without.
#[utoipa::path(get, path = "/api/games/{game_id}/view", security((), ("seat_token" = []), ("seat_link" = [])), responses(
    (status = 200, description = "summary, the view, and board_text: the board in plain text where the game draws one"),
    (status = 400, description = "the path or the query holds a control character (the message says where); nothing was done", body = ErrorBody),
    (status = 403, description = "the token is not a seat of this game", body = ErrorBody),
    (status = 404, description = "no such game (or the path's id cannot be a game id: the answer says what one is)", body = ErrorBody),
    (status = 503, description = "`unavailable`: the database is unavailable; or `game_does_not_load`: the game's stored log does not fold with this server (the answer names the event and the problem)", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn view(games: web::Data<Games>, path: web::Path<String>, req: HttpRequest) -> Answer {
    let game_id = GameId::parse(&path)?;
    let viewer = viewer(&games, &game_id, &req).await?;
    Ok(HttpResponse::Ok().json(games.view(&game_id, &viewer).await?))
}

/// The caller's legal moves now.
#[utoipa::path(get, path = "/api/games/{game_id}/moves", security(("seat_token" = []), ("seat_link" = [])), responses(
    (status = 200, description = "prompts"),
    (status = 400, description = "the path or the query holds a control character (the message says where); nothing was done", body = ErrorBody),
    (status = 401, description = "no seat token was sent", body = ErrorBody),
    (status = 403, description = "the token is not a seat of this game", body = ErrorBody),
    (status = 404, description = "no such game (or the path's id cannot be a game id: the answer says what one is)", body = ErrorBody),
    (status = 503, description = "`unavailable`: the database is unavailable; or `game_does_not_load`: the game's stored log does not fold with this server (the answer names the event and the problem)", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn legal_moves(
    games: web::Data<Games>,
    path: web::Path<String>,
    req: HttpRequest,
) -> Answer {
    let game_id = GameId::parse(&path)?;
    let caller = games
        .authenticate(&game_id, bearer(&req).as_deref())
        .await?;
    Ok(HttpResponse::Ok().json(games.legal_moves(&caller).await?))
}

/// Submits a command, as JSON or in the game's order language; with files (docs/files.md),
/// as `multipart/form-data`: a part `order` holding the same JSON, and a part per file.
#[utoipa::path(post, path = "/api/games/{game_id}/moves", request_body(content((Submit = "application/json"), (MoveWithFiles = "multipart/form-data"))), security(("seat_token" = []), ("seat_link" = [])),
    responses((status = 201, description = "the move is recorded", body = crate::games::MoveResult),
        (status = 400, description = "the request is not valid (the message says which field); nothing was recorded", body = ErrorBody),
        (status = 401, description = "no seat token was sent", body = ErrorBody),
        (status = 403, description = "the token is not a seat of this game", body = ErrorBody),
        (status = 404, description = "no such game (or the path's id cannot be a game id: the answer says what one is)", body = ErrorBody),
        (status = 409, description = "`stale_seq`: expected_seq is not the game's next seq (the answer carries `current_seq`); or `in_progress`: a move with the same idempotency key is still being recorded. Nothing was recorded", body = ErrorBody),
        (status = 413, description = "`too_large`: the JSON body is larger than 64 KiB, or a file or the move's files are over their limit (DESPATCH_FILE_MAX_BYTES, DESPATCH_MOVE_FILES_MAX_BYTES; the message names it). Nothing was recorded and no file kept", body = ErrorBody),
        (status = 422, description = "`rule`: refused by a rule (the answer names it); or `idempotency_mismatch`: the idempotency key was used with another body. Nothing was recorded", body = ErrorBody),
        (status = 429, description = "the seat is making moves too fast (DESPATCH_MOVE_RATE / DESPATCH_MOVE_BURST); nothing was recorded; retry after the Retry-After header's seconds", body = ErrorBody,
            headers(("Retry-After" = u64, description = "seconds until the seat may move again"))),
        (status = 503, description = "`unavailable`: the database is unavailable; or `game_does_not_load`: the game's stored log does not fold with this server (the answer names the event and the problem); nothing was recorded", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn submit(
    games: web::Data<Games>,
    path: web::Path<String>,
    req: HttpRequest,
    body: web::Payload,
) -> actix_web::Result<HttpResponse> {
    let game_id = GameId::parse(&path).map_err(ApiError::from)?;
    if !uploads::is_multipart(&req) {
        // The JSON body as before: read (and refused, by the JSON error handler) first.
        let body = web::Json::<Submit>::from_request(&req, &mut body.into_inner()).await?;
        let caller = games
            .authenticate(&game_id, bearer(&req).as_deref())
            .await
            .map_err(ApiError::from)?;
        let result = games
            .submit(&caller, body.into_inner())
            .await
            .map_err(ApiError::from)?;
        return Ok(HttpResponse::Created().json(result));
    }
    Ok(submit_with_files(&games, &game_id, &req, body).await?)
}

/// A move with files: the seat first (a stranger's files are not read), then the parts.
async fn submit_with_files(
    games: &Games,
    game_id: &GameId,
    req: &HttpRequest,
    body: web::Payload,
) -> Answer {
    let caller = games.authenticate(game_id, bearer(req).as_deref()).await?;
    let parts = uploads::read(req.headers(), body.into_inner(), games.files().limits()).await?;
    let order = parts.field("order").ok_or_else(|| {
        ServiceError::BadRequest(
            "a move with files needs a part named order holding the move as JSON ({\"expected_seq\": …, \"command\": …}), beside a part per file".into(),
        )
    })?;
    let submit: Submit = serde_json::from_str(order)
        .map_err(|e| ServiceError::BadRequest(format!("the order part is not a move: {e}")))?;
    let result = games
        .submit_with_files(&caller, submit, &parts.uploads)
        .await?;
    Ok(HttpResponse::Created().json(result))
}

/// A move with files, as `multipart/form-data` (docs/files.md).
#[derive(utoipa::ToSchema)]
#[allow(dead_code)]
pub struct MoveWithFiles {
    /// The move as JSON, as the JSON body would be: `{"expected_seq": …, "command": …}`.
    order: String,
    /// A file the move carries; send one part per file, each with its file name.
    #[schema(value_type = Vec<String>, format = Binary)]
    file: Vec<Vec<u8>>,
}

/// The caller's seat resigns.
#[utoipa::path(post, path = "/api/games/{game_id}/resign", security(("seat_token" = []), ("seat_link" = [])), responses(
    (status = 201, description = "the resignation is recorded", body = crate::games::MoveResult),
    (status = 400, description = "the path or the query holds a control character (the message says where); nothing was done", body = ErrorBody),
    (status = 401, description = "no seat token was sent", body = ErrorBody),
    (status = 403, description = "the token is not a seat of this game", body = ErrorBody),
    (status = 404, description = "no such game (or the path's id cannot be a game id: the answer says what one is)", body = ErrorBody),
    (status = 409, description = "the game moved on while the resignation was recorded; nothing was recorded", body = ErrorBody),
    (status = 422, description = "refused by a rule (the game has ended, for one); nothing was recorded", body = ErrorBody),
    (status = 503, description = "`unavailable`: the database is unavailable; or `game_does_not_load`: the game's stored log does not fold with this server (the answer names the event and the problem); nothing was recorded", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn resign(games: web::Data<Games>, path: web::Path<String>, req: HttpRequest) -> Answer {
    let game_id = GameId::parse(&path)?;
    let caller = games
        .authenticate(&game_id, bearer(&req).as_deref())
        .await?;
    Ok(HttpResponse::Created().json(games.resign(&caller).await?))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct After {
    /// Return the events with a seq greater than this; omit for all.
    // Read as text and checked by `seq_param`, so that a bad value is refused by name.
    #[param(value_type = Option<u64>, minimum = 0, maximum = 9223372036854775807_u64)]
    after: Option<String>,
}

/// `value` as a seq: a whole number from 0 to `MAX_SEQ`, or a 400 naming `name`.
fn seq_param(name: &str, value: &str) -> Result<u64, ApiError> {
    value
        .trim()
        .parse::<u64>()
        .ok()
        .filter(|&n| n <= MAX_SEQ)
        .ok_or_else(|| {
            ServiceError::BadRequest(format!(
                "{name} must be a whole number from 0 to {MAX_SEQ}; '{value}' is not"
            ))
            .into()
        })
}

/// Events after seq N. Events carry no secret, so every caller gets the same events.
#[utoipa::path(get, path = "/api/games/{game_id}/events", params(After), security((), ("seat_token" = []), ("seat_link" = [])), responses(
    (status = 200, description = "events"),
    (status = 400, description = "`after` is not a seq (a whole number from 0 to 9223372036854775807)", body = ErrorBody),
    (status = 403, description = "the token is not a seat of this game", body = ErrorBody),
    (status = 404, description = "no such game (or the path's id cannot be a game id: the answer says what one is)", body = ErrorBody),
    (status = 503, description = "`unavailable`: the database is unavailable; or `game_does_not_load`: the game's stored log does not fold with this server (the answer names the event and the problem)", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn events(
    games: web::Data<Games>,
    path: web::Path<String>,
    query: web::Query<After>,
    req: HttpRequest,
) -> Answer {
    let after = query
        .after
        .as_deref()
        .map(|a| seq_param("after", a))
        .transpose()?;
    let game_id = GameId::parse(&path)?;
    viewer(&games, &game_id, &req).await?;
    let from = after.map_or(0, |n| n + 1);
    Ok(HttpResponse::Ok().json(games.events_after(&game_id, from).await?))
}

/// The export (JSON Lines): redacted for the caller while the game runs, complete after.
#[utoipa::path(get, path = "/api/games/{game_id}/export", security((), ("seat_token" = []), ("seat_link" = [])), responses(
    (status = 200, description = "JSON Lines export", content_type = "application/x-ndjson"),
    (status = 400, description = "the path or the query holds a control character (the message says where); nothing was done", body = ErrorBody),
    (status = 403, description = "the token is not a seat of this game", body = ErrorBody),
    (status = 404, description = "no such game (or the path's id cannot be a game id: the answer says what one is)", body = ErrorBody),
    (status = 503, description = "`unavailable`: the database is unavailable; or `game_does_not_load`: the game's stored log does not fold with this server (the answer names the event and the problem)", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn export(games: web::Data<Games>, path: web::Path<String>, req: HttpRequest) -> Answer {
    let game_id = GameId::parse(&path)?;
    let viewer = viewer(&games, &game_id, &req).await?;
    let text = games.export(&game_id, &viewer).await?;
    Ok(HttpResponse::Ok()
        .content_type("application/x-ndjson")
        .insert_header((
            "Content-Disposition",
            format!("attachment; filename=\"{game_id}.jsonl\""),
        ))
        .body(text))
}

/// The proof of one event's dice.
#[utoipa::path(get, path = "/api/games/{game_id}/events/{seq}/proof",
    params(("game_id" = String, Path, description = "the game"),
        ("seq" = u64, Path, minimum = 0, maximum = 9223372036854775807_u64, description = "the event's seq")),
    responses(
        (status = 200, description = "the event's dice and how to check them", body = crate::games::proof::Proof),
        (status = 400, description = "`seq` is not a seq (a whole number from 0 to 9223372036854775807)", body = ErrorBody),
        (status = 404, description = "no such game, no such event, or no dice there", body = ErrorBody),
        (status = 503, description = "`unavailable`: the database is unavailable; or `game_does_not_load`: the game's stored log does not fold with this server (the answer names the event and the problem)", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn proof(games: web::Data<Games>, path: web::Path<(String, String)>) -> Answer {
    let (game_id, seq) = path.into_inner();
    let seq = seq_param("seq", &seq)?;
    let game_id = GameId::parse(&game_id)?;
    Ok(HttpResponse::Ok().json(games.proof(&game_id, seq).await?))
}

/// The body of every error answer: `error` is a code a program can match (`bad_request`,
/// `not_found`, `unauthorized`, `forbidden`, `stale_seq`, `rule`, `rate_limited`, `too_large`,
/// …), `message` says in words what was wrong and what to do. Some codes add fields
/// (`current_seq`, `rule`, `retry_after_secs`); a new game refused for its fields adds
/// `problems`, one for every field that is wrong. A stored game this server cannot load answers
/// 503 `game_does_not_load` with `game_id`, `ruleset`, `ruleset_version`, `seq` and `problem`
/// (an operator runs `despatch check`; docs/operations.md).
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    pub error: String,
    pub message: String,
    /// Every field of the request that is wrong (`POST /api/games`): the field
    /// (`seats[1].email`) and what is wrong with it; `message` holds them all in one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problems: Option<Vec<crate::games::Problem>>,
}

/// The OpenAPI document of this API.
pub async fn openapi() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(super::openapi::document())
}
