//! How long a request's body may take to arrive (`DESPATCH_BODY_TIMEOUT_SECS`, default 30 s).
//!
//! actix-web bounds the head of a request (`HttpServer::client_request_timeout`, 5 s) but not
//! its body: a client declaring a large body and sending it a byte a second held a connection,
//! and a handler waiting on it, for as long as it liked. So every request's payload is read
//! through a deadline that starts when its head has arrived: a body not wholly arrived by then
//! ends in an error for whatever reads it, and the request is answered `408 Request Timeout`
//! and its connection closed. A handler that reads no body never meets the deadline, and a body
//! that has arrived is never cut off however long its handler then takes.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::middleware::Next;
use actix_web::web::Bytes;
use actix_web::{web, Error, HttpMessage, HttpResponse};
use futures_util::Stream;
use serde_json::json;
use tokio::time::{Instant, Sleep};

/// How long a body may take to arrive after its request's head.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyDeadline(pub Duration);

impl Default for BodyDeadline {
    fn default() -> Self {
        BodyDeadline(Duration::from_secs(30))
    }
}

impl BodyDeadline {
    /// Reads `DESPATCH_BODY_TIMEOUT_SECS` (whole seconds, at least 1); a value that is not one
    /// is reported and the default kept.
    pub fn from_env() -> BodyDeadline {
        let Ok(text) = std::env::var("DESPATCH_BODY_TIMEOUT_SECS") else {
            return BodyDeadline::default();
        };
        match text.trim().parse::<u64>() {
            Ok(secs) if secs > 0 => BodyDeadline(Duration::from_secs(secs)),
            _ => {
                let default = BodyDeadline::default();
                tracing::warn!(
                    "DESPATCH_BODY_TIMEOUT_SECS: '{text}' is not a whole number of seconds above \
                     0; request bodies get {} s",
                    default.0.as_secs()
                );
                default
            }
        }
    }
}

/// Reads the request's body through its deadline (the app's `BodyDeadline`), and answers 408
/// when the deadline cut it off, whatever the handler made of the error it met.
pub async fn bound_body(
    mut req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, Error> {
    let limit = req
        .app_data::<web::Data<BodyDeadline>>()
        .map(|d| *d.get_ref())
        .unwrap_or_default()
        .0;
    let late = Arc::new(AtomicBool::new(false));
    let payload = req.take_payload();
    let deadlined: Pin<Box<dyn Stream<Item = Result<Bytes, PayloadError>>>> = Box::pin(Deadlined {
        inner: payload,
        at: Instant::now() + limit,
        timer: None,
        late: late.clone(),
    });
    req.set_payload(Payload::Stream { payload: deadlined });
    let res = next.call(req).await?;
    if !late.load(Ordering::Relaxed) {
        return Ok(res.map_into_left_body());
    }
    let message = format!(
        "the request's body did not arrive within {} s of its head; nothing was done — send \
         it again, whole",
        limit.as_secs()
    );
    let timeout = HttpResponse::RequestTimeout()
        .force_close()
        .json(json!({ "error": "timeout", "message": message }));
    let (req, _) = res.into_parts();
    Ok(ServiceResponse::new(req, timeout).map_into_right_body())
}

/// A payload that fails once its deadline has passed and it has not ended.
struct Deadlined {
    inner: Payload,
    at: Instant,
    /// Made on the first read, so that a request whose body is never read costs no timer.
    timer: Option<Pin<Box<Sleep>>>,
    late: Arc<AtomicBool>,
}

impl Stream for Deadlined {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        if this.late.load(Ordering::Relaxed) {
            return Poll::Ready(None);
        }
        // The inner payload first: a body that has wholly arrived ends, however late it is read.
        let polled = Pin::new(&mut this.inner).poll_next(cx);
        if let Poll::Ready(None) = polled {
            this.timer = None;
            return polled;
        }
        let at = this.at;
        let timer = this
            .timer
            .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(at)));
        // Asked even when a chunk came, so that a body trickled byte by byte meets it too.
        if timer.as_mut().poll(cx).is_ready() {
            this.late.store(true, Ordering::Relaxed);
            return Poll::Ready(Some(Err(PayloadError::Io(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the request's body did not arrive in time",
            )))));
        }
        polled
    }
}
