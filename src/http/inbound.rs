//! `POST /api/inbound/email`: raw RFC 5322 messages from a mail provider's inbound webhook,
//! authenticated by a shared secret (`Authorization: Bearer <DESPATCH_INBOUND_SECRET>`).

use actix_web::{web, HttpRequest, HttpResponse};
use serde_json::json;

use super::api::{bearer, ErrorBody};
use super::error::ApiError;
use crate::games::{Games, ServiceError};
use crate::mail_in::{self, Receipt};

/// The largest message accepted.
pub const MAX_BYTES: usize = mail_in::message::MAX_MESSAGE_BYTES;

/// How inbound mail is set up.
#[derive(Debug, Clone)]
pub struct InboundConfig {
    /// The domain of reply addresses (`DESPATCH_REPLY_DOMAIN`); without one there are none.
    pub domain: Option<String>,
    /// The shared secret a provider's webhook sends; without one the endpoint is closed.
    pub secret: Option<String>,
}

fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// Receives one raw message from a mail provider's inbound webhook and answers it as a reply
/// to a notice would be answered.
#[utoipa::path(post, path = "/api/inbound/email", security(("inbound_secret" = [])),
    request_body(content = String, content_type = "text/plain", description = "the raw RFC 5322 message, as the provider received it (any content type is read as such)"),
    responses(
        (status = 200, description = "`{status: answered, game_id, reply}` or `{status: ignored, reason}`"),
        (status = 400, description = "the message is not valid", body = ErrorBody),
        (status = 401, description = "no secret was sent", body = ErrorBody),
        (status = 403, description = "the secret is wrong, or the server has none (DESPATCH_INBOUND_SECRET)", body = ErrorBody),
        (status = 404, description = "inbound mail is not set up on this server", body = ErrorBody),
        (status = 413, description = "the message is larger than the limit", body = ErrorBody),
        (status = 503, description = "the database is unavailable", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn email(
    games: web::Data<Games>,
    config: web::Data<Option<InboundConfig>>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let Some(config) = config.get_ref() else {
        return Err(
            ServiceError::NotFound("inbound mail is not set up on this server".into()).into(),
        );
    };
    let Some(secret) = &config.secret else {
        return Err(ServiceError::Forbidden(
            "inbound mail over HTTP needs DESPATCH_INBOUND_SECRET on the server".into(),
        )
        .into());
    };
    match bearer(&req) {
        None => return Err(ServiceError::Unauthorized.into()),
        Some(token) if !same(&token, secret) => {
            return Err(ServiceError::Forbidden("wrong inbound secret".into()).into())
        }
        Some(_) => {}
    }
    let Some(domain) = &config.domain else {
        return Err(ServiceError::NotFound(
            "inbound mail needs DESPATCH_REPLY_DOMAIN on the server".into(),
        )
        .into());
    };
    let receipt = mail_in::receive(&games, domain, &body).await?;
    mail_in::queue(&games, domain, &receipt).await?;
    Ok(HttpResponse::Ok().json(match receipt {
        Receipt::Answered { game_id, reply, .. } => {
            json!({ "status": "answered", "game_id": game_id, "reply": reply })
        }
        Receipt::Ignored(why) => json!({ "status": "ignored", "reason": why }),
    }))
}
