//! The first check a request meets: no control character in its path or query.
//!
//! Ids and parameters are plain text: a game id, a seat, a channel, a signature. A control
//! character in one (`/api/games/%00`) can only be a mistake or an attack, and U+0000 in
//! particular would reach PostgreSQL, which cannot hold it in `text` and would fail the query.
//! So the request is refused with `400` before any handler runs, the same on both backends.
//! JSON bodies are checked field by field by the games service (`games::input`), since a move's
//! text may hold line breaks.

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::Error;

use super::error::bad_body;

/// Refuses a request whose path or query holds a percent-encoded control character. The refusal
/// is an answer, not an error, so the access log and the metrics around it see it like any other.
pub async fn refuse_control_characters(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, Error> {
    let uri = req.uri();
    let found = [("path", uri.path()), ("query", uri.query().unwrap_or(""))]
        .into_iter()
        .find_map(|(part, text)| encoded_control(text).map(|byte| (part, byte)));
    if let Some((part, byte)) = found {
        let refusal = bad_body(
            format!(
                "the request's {part} holds the control character U+{byte:04X} (as %{byte:02X}); \
                 no id or parameter may contain one"
            ),
            false,
        );
        return Ok(req
            .into_response(refusal.error_response())
            .map_into_right_body());
    }
    next.call(req)
        .await
        .map(ServiceResponse::map_into_left_body)
}

/// The first control character (0x00–0x1F, 0x7F) written as `%XX` in `text`. A URI cannot hold
/// one unencoded, so this finds them all.
fn encoded_control(text: &str) -> Option<u8> {
    let bytes = text.as_bytes();
    bytes.windows(3).find_map(|w| {
        let [b'%', hi, lo] = *w else { return None };
        let value = (hex(hi)? << 4) | hex(lo)?;
        (value < 0x20 || value == 0x7f).then_some(value)
    })
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

#[cfg(test)]
mod tests {
    use super::encoded_control;

    #[test]
    fn finds_encoded_control_characters_in_either_case() {
        assert_eq!(encoded_control("/api/games/%00"), Some(0));
        assert_eq!(encoded_control("seat=a%0d%0ABcc"), Some(0x0d));
        assert_eq!(encoded_control("x=%7f"), Some(0x7f));
        assert_eq!(encoded_control("/api/games/abc%20def?log=all"), None);
        assert_eq!(encoded_control("100%"), None);
        assert_eq!(encoded_control("%zz%4"), None);
    }
}
