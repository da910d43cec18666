//! How service errors answer over HTTP: a status and a JSON body a player can read.

use actix_web::dev::ServiceResponse;
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::ErrorHandlerResponse;
use actix_web::{HttpResponse, ResponseError};
use serde_json::json;

use crate::games::ServiceError;

/// How long a client is asked to wait (`Retry-After`) when the database is unavailable: long
/// enough for a restart or a failover to begin answering, short enough for a player.
pub const UNAVAILABLE_RETRY_AFTER_SECS: u64 = 5;

/// A service error as an HTTP answer.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct ApiError(#[from] pub ServiceError);

impl From<crate::games::GameIdError> for ApiError {
    fn from(e: crate::games::GameIdError) -> Self {
        ApiError(e.into())
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match &self.0 {
            ServiceError::BadRequest(_) | ServiceError::Invalid(_) => StatusCode::BAD_REQUEST,
            ServiceError::NotFound(_) => StatusCode::NOT_FOUND,
            ServiceError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ServiceError::Unauthorized => StatusCode::UNAUTHORIZED,
            ServiceError::Forbidden(_) => StatusCode::FORBIDDEN,
            ServiceError::Stale { .. } | ServiceError::InProgress { .. } => StatusCode::CONFLICT,
            ServiceError::KeyReused { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            ServiceError::Unavailable(_) | ServiceError::WouldNotLoad(_) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            ServiceError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            ServiceError::Rule(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ServiceError::Corrupt(_) | ServiceError::Store(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let status = self.status_code();
        let body = match &self.0 {
            ServiceError::Stale { current_seq, .. } => {
                json!({ "error": "stale_seq", "message": self.0.to_string(), "current_seq": current_seq })
            }
            ServiceError::Rule(e) => {
                json!({ "error": "rule", "rule": e.rule, "message": e.message })
            }
            // Every field that is wrong, each with its own message, and all of them in one.
            ServiceError::Invalid(problems) => json!({
                "error": "bad_request",
                "message": self.0.to_string(),
                "problems": problems,
            }),
            ServiceError::RateLimited { seat, limited } => json!({
                "error": "rate_limited",
                "message": self.0.to_string(),
                "seat": seat,
                "burst": limited.rate.burst.get(),
                "refill_secs": limited.rate.per.as_secs_f64(),
                "retry_after_secs": limited.retry_after_secs(),
            }),
            ServiceError::Unavailable(_) => {
                tracing::warn!(error = %self.0, "database unavailable");
                json!({ "error": "unavailable", "message": self.0.to_string(), "retry_after_secs": UNAVAILABLE_RETRY_AFTER_SECS })
            }
            // Not the player's doing and not passing: the game waits for an operator (issue 37).
            ServiceError::WouldNotLoad(why) => {
                tracing::error!(error = %self.0, "a stored game does not load");
                json!({
                    "error": "game_does_not_load",
                    "message": self.0.to_string(),
                    "game_id": why.game_id,
                    "ruleset": why.ruleset,
                    "ruleset_version": why.ruleset_version,
                    "seq": why.seq,
                    "problem": why.problem,
                })
            }
            ServiceError::Corrupt(_) | ServiceError::Store(_) => {
                tracing::error!(error = %self.0, "internal error");
                json!({ "error": "internal", "message": "the server failed; the move was not recorded" })
            }
            other => json!({ "error": code(other), "message": other.to_string() }),
        };
        let mut response = HttpResponse::build(status);
        if status == StatusCode::UNAUTHORIZED {
            response.insert_header(("WWW-Authenticate", "Bearer"));
        }
        match &self.0 {
            ServiceError::RateLimited { limited, .. } => {
                response.insert_header(("Retry-After", limited.retry_after_secs().to_string()));
            }
            ServiceError::Unavailable(_) => {
                response.insert_header(("Retry-After", UNAVAILABLE_RETRY_AFTER_SECS.to_string()));
            }
            ServiceError::InProgress { .. } => {
                response.insert_header(("Retry-After", "1"));
            }
            _ => {}
        }
        let mut response = response.json(body);
        if matches!(self.0, ServiceError::Corrupt(_) | ServiceError::Store(_)) {
            response.extensions_mut().insert(Internal);
        }
        response
    }
}

/// Marks the answer of an internal error, so that `word_internal` can say what it means for
/// the request that got it.
struct Internal;

/// Rewords an internal error's answer for a request that changes nothing (GET, HEAD): "the
/// move was not recorded" would make no sense to someone reading a page or an export.
pub fn word_internal<B>(res: ServiceResponse<B>) -> actix_web::Result<ErrorHandlerResponse<B>> {
    let reads = matches!(*res.request().method(), Method::GET | Method::HEAD);
    if !reads || res.response().extensions().get::<Internal>().is_none() {
        return Ok(ErrorHandlerResponse::Response(res.map_into_left_body()));
    }
    let (req, _) = res.into_parts();
    let response = HttpResponse::InternalServerError().json(json!({
        "error": "internal",
        "message": "the server failed to answer; try again later",
    }));
    Ok(ErrorHandlerResponse::Response(
        ServiceResponse::new(req, response).map_into_right_body(),
    ))
}

fn code(e: &ServiceError) -> &'static str {
    match e {
        ServiceError::BadRequest(_) | ServiceError::Invalid(_) => "bad_request",
        ServiceError::NotFound(_) => "not_found",
        ServiceError::TooLarge(_) => "too_large",
        ServiceError::Unauthorized => "unauthorized",
        ServiceError::Forbidden(_) => "forbidden",
        ServiceError::KeyReused { .. } => "idempotency_mismatch",
        ServiceError::InProgress { .. } => "in_progress",
        _ => "error",
    }
}

/// A 400 or 413 for a body that cannot be read.
pub fn bad_body(message: String, too_large: bool) -> actix_web::Error {
    let status = if too_large {
        StatusCode::PAYLOAD_TOO_LARGE
    } else {
        StatusCode::BAD_REQUEST
    };
    let code = if too_large {
        "too_large"
    } else {
        "bad_request"
    };
    actix_web::error::InternalError::from_response(
        message.clone(),
        HttpResponse::build(status).json(json!({ "error": code, "message": message })),
    )
    .into()
}
