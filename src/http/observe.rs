//! What the HTTP face tells its operator: the access log, with every credential a URL can carry
//! redacted; each request's time for `/metrics`; and the `/metrics` page itself, on the API port
//! or on an address of its own (docs/operations.md).
//!
//! Seat tokens travel in magic links (`?token=`), unsubscribe links carry signatures (`?sig=`),
//! and the API takes the seat's token as a bearer. DESIGN.md: a token is never written to a log.
//! The access log therefore prints the request line with those values replaced by
//! `[redacted]`, and never prints a header.

use std::net::TcpListener;
use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{Server, ServiceRequest, ServiceResponse};
use actix_web::middleware::{Logger, Next};
use actix_web::{web, App, HttpResponse, HttpServer};

use crate::games::Games;

/// Query parameters whose values are credentials, compared without regard to case.
const SECRET_PARAMS: &[&str] = &[
    "token",
    "sig",
    "signature",
    "secret",
    "key",
    "password",
    "access_token",
    "auth",
];

/// What a redacted value is replaced by.
pub const REDACTED: &str = "[redacted]";

/// A query's name or value as the server reads it (`%XX` and `+` decoded), so that an encoded
/// `to%6Ben` is still `token`.
fn decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => {
                let hex = |b: u8| (b as char).to_digit(16);
                match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                    (Some(hi), Some(lo)) => {
                        out.push((hi * 16 + lo) as u8);
                        i += 3;
                        continue;
                    }
                    _ => out.push(b'%'),
                }
            }
            b'+' => out.push(b' '),
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether a value is a signed seat token (`s1.<seat>.<mac>`, games::links), whatever the
/// parameter that carries it.
fn is_seat_link(value: &str) -> bool {
    decoded(value)
        .trim()
        .to_ascii_lowercase()
        .starts_with("s1.")
}

/// A query string with the value of every credential replaced by `[redacted]`; the other
/// parameters, and their order, as they were.
pub fn redact_query(query: &str) -> String {
    query
        .split('&')
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let plain = decoded(name);
            let secret = SECRET_PARAMS
                .iter()
                .any(|s| plain.trim().eq_ignore_ascii_case(s))
                || is_seat_link(value)
                || is_seat_link(name);
            if secret {
                if is_seat_link(name) {
                    REDACTED.to_owned()
                } else {
                    format!("{name}={REDACTED}")
                }
            } else {
                pair.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// The request line the access log prints: method, path, redacted query, version.
fn request_line(req: &ServiceRequest) -> String {
    let query = req.query_string();
    let target = if query.is_empty() {
        req.path().to_owned()
    } else {
        format!("{}?{}", req.path(), redact_query(query))
    };
    format!("{} {} {:?}", req.method(), target, req.version())
}

/// The access log: the redacted request line, status and time. No header is printed, so
/// `Authorization` never reaches the log.
pub fn access_log() -> Logger {
    Logger::new("%{request}xi %s %Dms").custom_request_replace("request", request_line)
}

/// A method as a label: the standard ones by name, anything else as `other`, so a client cannot
/// make up labels.
fn method_label(method: &actix_web::http::Method) -> &'static str {
    use actix_web::http::Method as M;
    match *method {
        M::GET => "GET",
        M::POST => "POST",
        M::PUT => "PUT",
        M::DELETE => "DELETE",
        M::HEAD => "HEAD",
        M::OPTIONS => "OPTIONS",
        M::PATCH => "PATCH",
        _ => "other",
    }
}

/// Middleware: records each request's time under its route's pattern.
pub async fn timed(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let started = Instant::now();
    let method = method_label(req.method());
    let res = next.call(req).await?;
    let route = res
        .request()
        .match_pattern()
        .unwrap_or_else(|| "unmatched".to_owned());
    crate::metrics::request(method, &route, res.status().as_u16(), started.elapsed());
    Ok(res)
}

/// `GET /metrics`: every metric in Prometheus' text format.
pub async fn metrics(games: web::Data<Games>) -> HttpResponse {
    match games.metrics_page().await {
        Ok(text) => HttpResponse::Ok()
            .content_type(crate::metrics::CONTENT_TYPE)
            .insert_header(("Cache-Control", "no-store"))
            .body(text),
        Err(e) => {
            tracing::warn!(error = %e, "the metrics page failed");
            HttpResponse::ServiceUnavailable()
                .content_type("text/plain; charset=utf-8")
                .body(format!("the metrics could not be read: {e}"))
        }
    }
}

/// A server of `/metrics` alone on `bind` (`DESPATCH_METRICS_BIND`), for `serve` and `dispatch`.
/// Returns the server and the address it bound (port 0 picks one).
pub fn metrics_server(bind: &str, games: Games) -> std::io::Result<(Server, std::net::SocketAddr)> {
    let listener = TcpListener::bind(bind)?;
    let address = listener.local_addr()?;
    let games = web::Data::new(games);
    let server = HttpServer::new(move || {
        App::new()
            .app_data(games.clone())
            .route("/metrics", web::get().to(metrics))
    })
    .workers(1)
    .listen(listener)?
    .run();
    Ok((server, address))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_in_a_query_are_redacted_and_the_rest_kept() {
        assert_eq!(
            redact_query("token=abc123&log=all"),
            "token=[redacted]&log=all"
        );
        assert_eq!(
            redact_query("seat=anna&channel=email&sig=deadbeef"),
            "seat=anna&channel=email&sig=[redacted]"
        );
        assert_eq!(redact_query("TOKEN=x"), "TOKEN=[redacted]");
        assert_eq!(
            redact_query("to%6Ben=x&log=all"),
            "to%6Ben=[redacted]&log=all"
        );
        assert_eq!(redact_query("%zz=1&a%"), "%zz=1&a%");
        assert_eq!(
            redact_query("access%5Ftoken=x"),
            "access%5Ftoken=[redacted]"
        );
        // A signed seat token is redacted under any name, and bare.
        assert_eq!(redact_query("link=s1.anna.ffee&x=1"), "link=[redacted]&x=1");
        assert_eq!(redact_query("s1.anna.ffee"), "[redacted]");
        assert_eq!(redact_query("moved=3"), "moved=3");
    }
}
