//! Inbound mail over HTTP, for a mail provider instead of a mail server of one's own:
//!
//! - `POST /api/inbound/email`: the raw RFC 5322 message as the body, authenticated by a shared
//!   secret (`Authorization: Bearer <DESPATCH_INBOUND_SECRET>`);
//! - `POST /api/inbound/mailgun/mime`: Mailgun's inbound route (`forward()` to a URL ending in
//!   `mime`, so that Mailgun posts the raw message as `body-mime`), authenticated by Mailgun's
//!   signature of `timestamp` and `token` with the domain's webhook signing key
//!   (`DESPATCH_MAILGUN_SIGNING_KEY`).
//!
//! Both answer the message as `despatch mail-in` does, and both say "try again later" (503)
//! when the database is away, which a provider's retries turn into a delivery once it is back.

use actix_web::http::header::CONTENT_TYPE;
use actix_web::{web, HttpRequest, HttpResponse};
use futures_util::StreamExt;
use hmac::{Hmac, KeyInit, Mac};
use serde_json::json;
use sha2::Sha256;

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
    /// Mailgun's webhook signing key (`DESPATCH_MAILGUN_SIGNING_KEY`); without one Mailgun's
    /// route is closed.
    pub mailgun_signing_key: Option<String>,
}

/// How inbound mail is set up, if it is.
fn set_up(config: &Option<InboundConfig>) -> Result<&InboundConfig, ServiceError> {
    config
        .as_ref()
        .ok_or_else(|| ServiceError::NotFound("inbound mail is not set up on this server".into()))
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
    let config = set_up(&config)?;
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
    answer(&games, config, &body).await
}

/// Answers a message that came in over HTTP as `despatch mail-in` answers one from a pipe.
async fn answer(
    games: &Games,
    config: &InboundConfig,
    message: &[u8],
) -> Result<HttpResponse, ApiError> {
    let Some(domain) = &config.domain else {
        return Err(ServiceError::NotFound(
            "inbound mail needs DESPATCH_REPLY_DOMAIN on the server".into(),
        )
        .into());
    };
    let receipt = mail_in::receive(games, domain, message).await?;
    mail_in::queue(games, domain, &receipt).await?;
    Ok(HttpResponse::Ok().json(match receipt {
        Receipt::Answered { game_id, reply, .. } => {
            json!({ "status": "answered", "game_id": game_id, "reply": reply })
        }
        Receipt::Ignored(why) => json!({ "status": "ignored", "reason": why }),
    }))
}

/// The largest form accepted from Mailgun: the largest message, URL-encoded (at most three
/// bytes for one), with room for the other fields. A message over `MAX_BYTES` in it is
/// answered as one from a pipe is (the player is told the limit).
pub const MAILGUN_MAX_BYTES: usize = 3 * MAX_BYTES + (64 << 10);

/// How old a Mailgun signature may be. Mailgun retries a route's POST for 8 hours after a
/// failure; a retry is accepted whether it is signed anew or carries the first signature.
/// Replaying a signed request gains nothing: a message is applied once (its Message-ID).
const MAILGUN_SIGNATURE_MAX_AGE_SECS: i64 = 12 * 3600;

/// How far ahead of this server's clock a signature's timestamp may be.
const MAILGUN_CLOCK_SKEW_SECS: i64 = 300;

/// The fields of Mailgun's route POST that Despatch reads (its others are ignored).
#[derive(serde::Deserialize, utoipa::ToSchema)]
#[allow(dead_code)] // Documents the form: `MailgunForm` reads it, in either encoding.
pub struct MailgunRoutePost {
    /// The message as Mailgun received it.
    #[serde(rename = "body-mime")]
    pub body_mime: String,
    /// Unix seconds, signed.
    pub timestamp: String,
    /// Mailgun's random token, signed.
    pub token: String,
    /// Hex HMAC-SHA256 of `timestamp` then `token` under the webhook signing key.
    pub signature: String,
}

/// Receives one message from a Mailgun inbound route in raw MIME form and answers it as a reply
/// to a notice would be answered. Mailgun retries anything but 200 and 406 for 8 hours.
#[utoipa::path(post, path = "/api/inbound/mailgun/mime",
    request_body(content = MailgunRoutePost, content_type = "application/x-www-form-urlencoded", description = "Mailgun's route POST in raw MIME form (the route forwards to a URL ending in `mime`); multipart/form-data is read alike"),
    responses(
        (status = 200, description = "`{status: answered, game_id, reply}` or `{status: ignored, reason}`"),
        (status = 400, description = "the form holds no `body-mime`, or cannot be read", body = ErrorBody),
        (status = 401, description = "the form holds no signature", body = ErrorBody),
        (status = 403, description = "the signature is wrong or too old, or the server has no signing key (DESPATCH_MAILGUN_SIGNING_KEY)", body = ErrorBody),
        (status = 404, description = "inbound mail is not set up on this server", body = ErrorBody),
        (status = 413, description = "the form is larger than the limit", body = ErrorBody),
        (status = 503, description = "the database is unavailable", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn mailgun(
    games: web::Data<Games>,
    config: web::Data<Option<InboundConfig>>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let config = set_up(&config)?;
    let Some(key) = &config.mailgun_signing_key else {
        return Err(ServiceError::Forbidden(
            "Mailgun's inbound route needs DESPATCH_MAILGUN_SIGNING_KEY on the server".into(),
        )
        .into());
    };
    let form = MailgunForm::read(&req, body).await?;
    form.check_signature(key, chrono::Utc::now().timestamp())?;
    let Some(message) = &form.body_mime else {
        return Err(ServiceError::BadRequest(
            "the form holds no body-mime: Mailgun's route must forward to a URL ending in \
             /mime (this one, /api/inbound/mailgun/mime), so that it posts the raw message"
                .into(),
        )
        .into());
    };
    answer(&games, config, message).await
}

/// The fields of Mailgun's route POST that Despatch reads.
#[derive(Default)]
struct MailgunForm {
    body_mime: Option<Vec<u8>>,
    timestamp: Option<String>,
    token: Option<String>,
    signature: Option<String>,
}

impl MailgunForm {
    /// Reads the form, URL-encoded (as Mailgun posts a message without attachments) or
    /// multipart (with them).
    async fn read(req: &HttpRequest, body: web::Bytes) -> Result<MailgunForm, ServiceError> {
        let content_type = req
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        let unreadable = |e: &dyn std::fmt::Display| {
            ServiceError::BadRequest(format!("the form cannot be read: {e}"))
        };
        let mut form = MailgunForm::default();
        if content_type
            .to_ascii_lowercase()
            .starts_with("multipart/form-data")
        {
            let stream = futures_util::stream::once(async move { Ok(body) });
            let mut parts = actix_multipart::Multipart::new(req.headers(), stream);
            while let Some(field) = parts.next().await {
                let mut field = field.map_err(|e| unreadable(&e))?;
                let name = field.name().unwrap_or_default().to_owned();
                let mut value = Vec::new();
                while let Some(chunk) = field.next().await {
                    value.extend_from_slice(&chunk.map_err(|e| unreadable(&e))?);
                }
                form.set(&name, value);
            }
        } else {
            let pairs: Vec<(String, String)> =
                serde_urlencoded::from_bytes(&body).map_err(|e| unreadable(&e))?;
            for (name, value) in pairs {
                form.set(&name, value.into_bytes());
            }
        }
        Ok(form)
    }

    fn set(&mut self, name: &str, value: Vec<u8>) {
        let text = || String::from_utf8_lossy(&value).trim().to_owned();
        match name {
            "body-mime" => self.body_mime = Some(value),
            "timestamp" => self.timestamp = Some(text()),
            "token" => self.token = Some(text()),
            "signature" => self.signature = Some(text()),
            _ => {}
        }
    }

    /// Mailgun's signature: the hex HMAC-SHA256 of `timestamp` followed by `token`, under the
    /// webhook signing key, compared in constant time; and the timestamp no older than
    /// `MAILGUN_SIGNATURE_MAX_AGE_SECS` (`now` in Unix seconds).
    fn check_signature(&self, key: &str, now: i64) -> Result<(), ServiceError> {
        let (Some(timestamp), Some(token), Some(signature)) =
            (&self.timestamp, &self.token, &self.signature)
        else {
            return Err(ServiceError::Unauthorized);
        };
        let forbidden = |why: &str| Err(ServiceError::Forbidden(why.into()));
        let Ok(signature) = hex::decode(signature) else {
            return forbidden("the signature is not hexadecimal");
        };
        let mut mac = Hmac::<Sha256>::new_from_slice(key.as_bytes()).expect("any key length");
        mac.update(timestamp.as_bytes());
        mac.update(token.as_bytes());
        if mac.verify_slice(&signature).is_err() {
            return forbidden("wrong Mailgun signature (is DESPATCH_MAILGUN_SIGNING_KEY the domain's webhook signing key?)");
        }
        match timestamp.parse::<i64>() {
            Ok(t) if t > now + MAILGUN_CLOCK_SKEW_SECS => {
                forbidden("the signature's timestamp is in the future; check the server's clock")
            }
            Ok(t) if now - t > MAILGUN_SIGNATURE_MAX_AGE_SECS => {
                forbidden("the signature is more than 12 hours old")
            }
            Ok(_) => Ok(()),
            Err(_) => forbidden("the signature's timestamp is not a number of seconds"),
        }
    }
}
