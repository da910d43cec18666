//! Inbound mail over HTTP, for a mail provider instead of a mail server of one's own:
//!
//! - `POST /api/inbound/email`: the raw RFC 5322 message as the body, authenticated by a shared
//!   secret (`Authorization: Bearer <DESPATCH_INBOUND_SECRET>`);
//! - `POST /api/inbound/mailgun/mime`: Mailgun's inbound route (`forward()` to a URL ending in
//!   `mime`, so that Mailgun posts the raw message as `body-mime`), authenticated by Mailgun's
//!   signature of `timestamp` and `token` with the domain's webhook signing key
//!   (`DESPATCH_MAILGUN_SIGNING_KEY`), fresh within 5 minutes, each token accepted once.
//!
//! Both answer the message as `despatch mail-in` does, and both say "try again later" (503)
//! when the database is away, which a provider's retries turn into a delivery once it is back.

use actix_web::error::PayloadError;
use actix_web::http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use actix_web::{web, HttpRequest, HttpResponse};
use futures_util::{Stream, StreamExt};
use hmac::{Hmac, KeyInit, Mac};
use serde_json::json;
use sha2::Sha256;

use super::api::{bearer, ErrorBody};
use super::error::{bad_body, ApiError};
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

/// The largest post accepted from Mailgun, comparable to `/api/inbound/email`'s `MAX_BYTES`
/// (10 MiB, above Postfix's default limit): the largest message read whole, with 1 MiB for the
/// other fields and the multipart framing. Mailgun posts a message with attachments as
/// multipart/form-data, where `body-mime` is the message as it came, unencoded, so the whole
/// of such a message fits; only a message without attachments is posted URL-encoded, and its
/// text is far smaller than this even at three bytes a byte. A post declaring more is refused
/// with 413 before its body is read, and one that sends more is cut off at the cap: no post
/// holds more than this in memory. (It was three times `MAX_BYTES`, room for the largest
/// message URL-encoded: 24 unsigned posts of it held about 1 GB.)
pub const MAILGUN_MAX_BYTES: usize = MAX_BYTES + (1 << 20);

/// How far a Mailgun signature's timestamp may be from this server's clock, either way: five
/// minutes, Stripe's tolerance and the Standard Webhooks default. Mailgun's guidance is to check
/// that the timestamp is fresh and to remember tokens; a post is refused once its signature is
/// older than this, and its token is remembered for as long as it could be accepted
/// (`MAILGUN_TOKEN_KEPT`), so a captured signature carries no other message.
const MAILGUN_SIGNATURE_MAX_AGE_SECS: i64 = 5 * 60;

/// How far ahead of this server's clock a signature's timestamp may be.
const MAILGUN_CLOCK_SKEW_SECS: i64 = 5 * 60;

/// How long a token taken by a post is remembered: a timestamp is accepted from
/// `MAILGUN_CLOCK_SKEW_SECS` before it until `MAILGUN_SIGNATURE_MAX_AGE_SECS` after it, so a
/// token seen at the first instant could still be sent at the last.
const MAILGUN_TOKEN_KEPT: std::time::Duration = std::time::Duration::from_secs(
    (MAILGUN_SIGNATURE_MAX_AGE_SECS + MAILGUN_CLOCK_SKEW_SECS) as u64,
);

/// The longest `timestamp`, `token` or `signature` read (Mailgun's are 10, 50 and 64
/// characters): a longer one is refused before more of the post is read.
const SIGNATURE_FIELD_MAX_BYTES: usize = 1024;

/// The fields of Mailgun's route POST that Despatch reads (its others are ignored).
#[derive(serde::Deserialize, utoipa::ToSchema)]
#[allow(dead_code)] // Documents the form: `MailgunForm` reads it, in either encoding.
pub struct MailgunRoutePost {
    /// The message as Mailgun received it.
    #[serde(rename = "body-mime")]
    pub body_mime: String,
    /// Unix seconds, signed.
    pub timestamp: String,
    /// Mailgun's random token, signed; a token is accepted once.
    pub token: String,
    /// Hex HMAC-SHA256 of `timestamp` then `token` under the webhook signing key.
    pub signature: String,
}

/// Receives one message from a Mailgun inbound route in raw MIME form and answers it as a reply
/// to a notice would be answered. Mailgun retries anything but 200 and 406 for 8 hours.
///
/// Nothing of the body is read before the route is known to be set up and the declared length
/// to be within `MAILGUN_MAX_BYTES`; the form is read as it streams in, its signature checked as
/// soon as its three fields have arrived (before a message part that follows them is read), and
/// its token taken once.
#[utoipa::path(post, path = "/api/inbound/mailgun/mime",
    request_body(content = MailgunRoutePost, content_type = "application/x-www-form-urlencoded", description = "Mailgun's route POST in raw MIME form (the route forwards to a URL ending in `mime`); multipart/form-data is read alike"),
    responses(
        (status = 200, description = "`{status: answered, game_id, reply}` or `{status: ignored, reason}`"),
        (status = 400, description = "the form holds no `body-mime`, or cannot be read", body = ErrorBody),
        (status = 401, description = "the form holds no signature", body = ErrorBody),
        (status = 403, description = "the signature is wrong, more than 5 minutes from the server's clock, or its token was used before; or the server has no signing key (DESPATCH_MAILGUN_SIGNING_KEY)", body = ErrorBody),
        (status = 404, description = "inbound mail is not set up on this server", body = ErrorBody),
        (status = 413, description = "the form is larger than the limit", body = ErrorBody),
        (status = 503, description = "the database is unavailable", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn mailgun(
    games: web::Data<Games>,
    config: web::Data<Option<InboundConfig>>,
    req: HttpRequest,
    body: web::Payload,
) -> actix_web::Result<HttpResponse> {
    let config = set_up(&config).map_err(ApiError::from)?;
    let Some(key) = &config.mailgun_signing_key else {
        return Err(ApiError::from(ServiceError::Forbidden(
            "Mailgun's inbound route needs DESPATCH_MAILGUN_SIGNING_KEY on the server".into(),
        ))
        .into());
    };
    if declared_length(&req).is_some_and(|n| n > MAILGUN_MAX_BYTES) {
        return Err(too_large());
    }
    let now = games.clock.now().timestamp();
    let form = MailgunForm::read(&req, body, key, now).await?;
    form.check_signature(key, now).map_err(ApiError::from)?;
    let Some(message) = &form.body_mime else {
        return Err(ApiError::from(ServiceError::BadRequest(
            "the form holds no body-mime: Mailgun's route must forward to a URL ending in \
             /mime (this one, /api/inbound/mailgun/mime), so that it posts the raw message"
                .into(),
        ))
        .into());
    };
    let token = form.token.as_deref().unwrap_or_default();
    if !games
        .take_inbound_token(token, MAILGUN_TOKEN_KEPT)
        .await
        .map_err(ApiError::from)?
    {
        return Err(ApiError::from(ServiceError::Forbidden(
            "this Mailgun signature was used before (its token is accepted once): a replayed \
             post is refused and nothing was delivered"
                .into(),
        ))
        .into());
    }
    match answer(&games, config, message).await {
        // Not delivered for now: Mailgun's retry of this very post must not meet the token.
        Err(e) if matches!(e.0, ServiceError::Unavailable(_)) => {
            if let Err(release) = games.release_inbound_token(token).await {
                tracing::warn!(error = %release, "could not give back a Mailgun token");
            }
            Err(e.into())
        }
        answered => Ok(answered?),
    }
}

/// The body's length as the request declares it, if it does.
fn declared_length(req: &HttpRequest) -> Option<usize> {
    req.headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse().ok())
}

/// The answer to a post over `MAILGUN_MAX_BYTES`.
fn too_large() -> actix_web::Error {
    bad_body(
        format!(
            "the post is larger than {} MiB; a message over {} MiB is not read (its orders \
             would not be), so send a shorter one",
            MAILGUN_MAX_BYTES >> 20,
            MAX_BYTES >> 20
        ),
        true,
    )
}

/// The body as it arrives, ending in `PayloadError::Overflow` once more than `cap` bytes came.
fn capped(
    body: web::Payload,
    cap: usize,
) -> impl Stream<Item = Result<web::Bytes, PayloadError>> + 'static {
    let mut seen = 0usize;
    body.map(move |chunk| {
        let chunk = chunk?;
        seen = seen.saturating_add(chunk.len());
        if seen > cap {
            Err(PayloadError::Overflow)
        } else {
            Ok(chunk)
        }
    })
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
    /// Reads the form as it arrives, URL-encoded (as Mailgun posts a message without
    /// attachments) or multipart (with them), at most `MAILGUN_MAX_BYTES` of it. In a multipart
    /// form the signature is checked (with `key`, at `now`) as soon as its three fields have
    /// come, so that a post signed wrongly is refused before a message part after them is read;
    /// fields Despatch does not read (attachments) pass without being kept.
    async fn read(
        req: &HttpRequest,
        body: web::Payload,
        key: &str,
        now: i64,
    ) -> actix_web::Result<MailgunForm> {
        let content_type = req
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        let body = capped(body, MAILGUN_MAX_BYTES);
        let mut form = MailgunForm::default();
        if content_type
            .to_ascii_lowercase()
            .starts_with("multipart/form-data")
        {
            let mut parts = actix_multipart::Multipart::new(req.headers(), body);
            let mut checked = false;
            while let Some(field) = parts.next().await {
                let mut field = field.map_err(unreadable_part)?;
                let name = field.name().unwrap_or_default().to_owned();
                let keep = match name.as_str() {
                    "body-mime" => Some(MAILGUN_MAX_BYTES),
                    "timestamp" | "token" | "signature" => Some(SIGNATURE_FIELD_MAX_BYTES),
                    _ => None,
                };
                let mut value = Vec::new();
                while let Some(chunk) = field.next().await {
                    let chunk = chunk.map_err(unreadable_part)?;
                    let Some(limit) = keep else { continue };
                    if value.len() + chunk.len() > limit {
                        return Err(unreadable(&format!("its field {name} is too long")));
                    }
                    value.extend_from_slice(&chunk);
                }
                if keep.is_some() {
                    form.set(&name, value);
                }
                if !checked && form.signed() {
                    form.check_signature(key, now).map_err(ApiError::from)?;
                    checked = true;
                }
            }
        } else {
            let mut whole = Vec::new();
            let mut body = std::pin::pin!(body);
            while let Some(chunk) = body.next().await {
                whole.extend_from_slice(&chunk.map_err(unreadable_body)?);
            }
            let pairs: Vec<(String, String)> =
                serde_urlencoded::from_bytes(&whole).map_err(|e| unreadable(&e))?;
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

    /// Whether the three signed fields have come.
    fn signed(&self) -> bool {
        self.timestamp.is_some() && self.token.is_some() && self.signature.is_some()
    }

    /// Mailgun's signature: the hex HMAC-SHA256 of `timestamp` followed by `token`, under the
    /// webhook signing key, compared in constant time; and the timestamp within
    /// `MAILGUN_SIGNATURE_MAX_AGE_SECS` of `now` (Unix seconds). Whether the token was used
    /// before is the caller's to ask, once the post is read.
    fn check_signature(&self, key: &str, now: i64) -> Result<(), ServiceError> {
        let (Some(timestamp), Some(token), Some(signature)) =
            (&self.timestamp, &self.token, &self.signature)
        else {
            return Err(ServiceError::Unauthorized);
        };
        let forbidden = |why: &str| Err(ServiceError::Forbidden(why.into()));
        if token.is_empty() {
            return forbidden("the signature's token is empty");
        }
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
            Ok(t) if t > now + MAILGUN_CLOCK_SKEW_SECS => forbidden(
                "the signature's timestamp is more than 5 minutes in the future; check the \
                 server's clock",
            ),
            Ok(t) if now - t > MAILGUN_SIGNATURE_MAX_AGE_SECS => forbidden(
                "the signature is more than 5 minutes old (a signed post is accepted for 5 \
                 minutes; check the server's clock if Mailgun's posts all meet this)",
            ),
            Ok(_) => Ok(()),
            Err(_) => forbidden("the signature's timestamp is not a number of seconds"),
        }
    }
}

/// A 400 for a form that cannot be read.
fn unreadable(e: &dyn std::fmt::Display) -> actix_web::Error {
    bad_body(format!("the form cannot be read: {e}"), false)
}

/// A body that failed to arrive: 413 when it was cut off at the cap, else 400.
fn unreadable_body(e: PayloadError) -> actix_web::Error {
    match e {
        PayloadError::Overflow => too_large(),
        e => unreadable(&e),
    }
}

/// A multipart form that failed to read, by the same rule.
fn unreadable_part(e: actix_multipart::MultipartError) -> actix_web::Error {
    match e {
        actix_multipart::MultipartError::Payload(e) => unreadable_body(e),
        e => unreadable(&e),
    }
}
