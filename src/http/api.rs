//! The JSON API under `/api`. Handlers only translate: the games service does the work.

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use serde::Deserialize;
use utoipa::IntoParams;

use super::error::ApiError;
use crate::engine::ruleset::Viewer;
use crate::games::{Games, NewGame, Submit};
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
async fn viewer(games: &Games, game_id: &str, req: &HttpRequest) -> Result<Viewer, ApiError> {
    match bearer(req) {
        None => Ok(Viewer::Spectator),
        Some(token) => Ok(Viewer::Seat(
            games.authenticate(game_id, Some(&token)).await?.seat,
        )),
    }
}

/// The service is up and its database answers.
#[utoipa::path(get, path = "/health", responses((status = 200, description = "healthy")))]
#[get("/health")]
pub async fn health(games: web::Data<Games>) -> HttpResponse {
    super::health::report(&games).await
}

/// The rulesets this server plays, with their scenarios, options and order language.
#[utoipa::path(get, path = "/api/rulesets", responses((status = 200, description = "ruleset list")))]
#[get("/rulesets")]
pub async fn rulesets() -> HttpResponse {
    let infos: Vec<_> = rules::all().iter().map(|r| r.info()).collect();
    HttpResponse::Ok().json(infos)
}

/// Creates a game. Each seat's token and link are in this answer only.
#[utoipa::path(post, path = "/api/games", request_body = NewGame,
    responses((status = 201, body = crate::games::CreatedGame), (status = 400, description = "bad request")))]
#[post("/games")]
pub async fn create_game(games: web::Data<Games>, body: web::Json<NewGame>) -> Answer {
    let created = games.create(body.into_inner()).await?;
    Ok(HttpResponse::Created().json(created))
}

/// A game's public summary.
#[utoipa::path(get, path = "/api/games/{game_id}", responses((status = 200, body = crate::games::Summary), (status = 404, description = "no such game")))]
#[get("/games/{game_id}")]
pub async fn summary(games: web::Data<Games>, path: web::Path<String>) -> Answer {
    Ok(HttpResponse::Ok().json(games.summary(&path).await?))
}

/// What the caller may see: its seat's view with a bearer token, the public view without.
#[utoipa::path(get, path = "/api/games/{game_id}/view", responses((status = 200, description = "summary, the view, and board_text: the board in plain text where the game draws one"), (status = 403, description = "bad token")))]
#[get("/games/{game_id}/view")]
pub async fn view(games: web::Data<Games>, path: web::Path<String>, req: HttpRequest) -> Answer {
    let viewer = viewer(&games, &path, &req).await?;
    Ok(HttpResponse::Ok().json(games.view(&path, &viewer).await?))
}

/// The caller's legal moves now.
#[utoipa::path(get, path = "/api/games/{game_id}/moves", responses((status = 200, description = "prompts"), (status = 401, description = "no token")))]
#[get("/games/{game_id}/moves")]
pub async fn legal_moves(
    games: web::Data<Games>,
    path: web::Path<String>,
    req: HttpRequest,
) -> Answer {
    let caller = games.authenticate(&path, bearer(&req).as_deref()).await?;
    Ok(HttpResponse::Ok().json(games.legal_moves(&caller).await?))
}

/// Submits a command, as JSON or in the game's order language.
#[utoipa::path(post, path = "/api/games/{game_id}/moves", request_body = Submit,
    responses((status = 201, body = crate::games::MoveResult), (status = 409, description = "stale expected_seq"),
        (status = 429, description = "the seat is making moves too fast (DESPATCH_MOVE_RATE / DESPATCH_MOVE_BURST); nothing was recorded; retry after the Retry-After header's seconds",
            headers(("Retry-After" = u64, description = "seconds until the seat may move again"))),
        (status = 422, description = "refused by a rule"), (status = 401, description = "no token"), (status = 403, description = "not a seat of this game")))]
#[post("/games/{game_id}/moves")]
pub async fn submit(
    games: web::Data<Games>,
    path: web::Path<String>,
    req: HttpRequest,
    body: web::Json<Submit>,
) -> Answer {
    let caller = games.authenticate(&path, bearer(&req).as_deref()).await?;
    let result = games.submit(&caller, body.into_inner()).await?;
    Ok(HttpResponse::Created().json(result))
}

/// The caller's seat resigns.
#[utoipa::path(post, path = "/api/games/{game_id}/resign", responses((status = 201, body = crate::games::MoveResult)))]
#[post("/games/{game_id}/resign")]
pub async fn resign(games: web::Data<Games>, path: web::Path<String>, req: HttpRequest) -> Answer {
    let caller = games.authenticate(&path, bearer(&req).as_deref()).await?;
    Ok(HttpResponse::Created().json(games.resign(&caller).await?))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct After {
    /// Return the events with a seq greater than this; omit for all.
    after: Option<u64>,
}

/// Events after seq N. Events carry no secret, so every caller gets the same events.
#[utoipa::path(get, path = "/api/games/{game_id}/events", params(After), responses((status = 200, description = "events")))]
#[get("/games/{game_id}/events")]
pub async fn events(
    games: web::Data<Games>,
    path: web::Path<String>,
    query: web::Query<After>,
    req: HttpRequest,
) -> Answer {
    viewer(&games, &path, &req).await?;
    let from = query.after.map_or(0, |n| n + 1);
    Ok(HttpResponse::Ok().json(games.events_after(&path, from).await?))
}

/// The export (JSON Lines): redacted for the caller while the game runs, complete after.
#[utoipa::path(get, path = "/api/games/{game_id}/export", responses((status = 200, description = "JSON Lines export", content_type = "application/x-ndjson")))]
#[get("/games/{game_id}/export")]
pub async fn export(games: web::Data<Games>, path: web::Path<String>, req: HttpRequest) -> Answer {
    let viewer = viewer(&games, &path, &req).await?;
    let text = games.export(&path, &viewer).await?;
    Ok(HttpResponse::Ok()
        .content_type("application/x-ndjson")
        .insert_header((
            "Content-Disposition",
            format!("attachment; filename=\"{}.jsonl\"", path.as_str()),
        ))
        .body(text))
}

/// The proof of one event's dice.
#[utoipa::path(get, path = "/api/games/{game_id}/events/{seq}/proof", responses((status = 200, body = crate::games::proof::Proof), (status = 404, description = "no dice there")))]
#[get("/games/{game_id}/events/{seq}/proof")]
pub async fn proof(games: web::Data<Games>, path: web::Path<(String, u64)>) -> Answer {
    let (game_id, seq) = path.into_inner();
    Ok(HttpResponse::Ok().json(games.proof(&game_id, seq).await?))
}

/// The OpenAPI document of this API.
#[get("/openapi.json")]
pub async fn openapi() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(super::openapi::document())
}
