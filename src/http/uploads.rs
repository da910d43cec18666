//! A move sent as `multipart/form-data` with the files it carries (docs/files.md): the API's
//! `POST /api/games/{id}/moves` (a part `order` holding the move's JSON, and file parts) and the
//! seat page's order form (its fields, and a file input). The parts are read as they arrive,
//! with the limits of the files service (`games::files::Limits`): a file or a move over its
//! limit is refused with 413 as soon as the limit is passed, before anything is kept.

use actix_web::http::header::CONTENT_TYPE;
use actix_web::{web, HttpRequest};
use futures_util::StreamExt;

pub use crate::games::files::Limits;
use crate::games::files::{Upload, MAX_FILES};
use crate::games::ServiceError;

/// The most a text field of a multipart move may hold (the JSON body's limit).
pub const FIELD_MAX: usize = super::BODY_LIMIT;

/// Whether the request's body is `multipart/form-data`.
pub fn is_multipart(req: &HttpRequest) -> bool {
    content_type(req.headers()).starts_with("multipart/form-data")
}

/// The request's `Content-Type`, lowercased.
pub fn content_type(headers: &actix_web::http::header::HeaderMap) -> String {
    headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_ascii_lowercase()
}

/// A multipart move as read: its text fields, and its files.
#[derive(Debug, Default)]
pub struct MoveParts {
    pub fields: Vec<(String, String)>,
    pub uploads: Vec<Upload>,
}

impl MoveParts {
    /// The last value of the text field `name`.
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The text field `name`, or empty.
    pub fn text(&self, name: &str) -> String {
        self.field(name).unwrap_or_default().to_owned()
    }
}

/// Reads a multipart move. A part with a file name is a file (an empty one with an empty name,
/// which a browser sends for a file input left empty, is skipped); any other part is a text
/// field of at most `FIELD_MAX` bytes.
pub async fn read(
    headers: &actix_web::http::header::HeaderMap,
    body: actix_web::dev::Payload,
    limits: Limits,
) -> Result<MoveParts, ServiceError> {
    let mut parts = actix_multipart::Multipart::new(headers, body);
    let mut out = MoveParts::default();
    let mut total = 0u64;
    while let Some(field) = parts.next().await {
        let mut field = field.map_err(unreadable)?;
        let name = field.name().unwrap_or_default().to_owned();
        let file_name = field
            .content_disposition()
            .and_then(|d| d.get_filename())
            .map(str::to_owned);
        let declared = field.content_type().map(|m| m.essence_str().to_owned());
        let mut value = Vec::new();
        while let Some(chunk) = field.next().await {
            let chunk = chunk.map_err(unreadable)?;
            value.extend_from_slice(&chunk);
            match &file_name {
                Some(file) => {
                    total += chunk.len() as u64;
                    if value.len() as u64 > limits.per_file {
                        return Err(limits.file_too_large(file));
                    }
                    if total > limits.per_move {
                        return Err(limits.move_too_large());
                    }
                }
                None if value.len() > FIELD_MAX => {
                    return Err(ServiceError::TooLarge(format!(
                        "the field {name} is longer than {} KiB; nothing was recorded",
                        FIELD_MAX / 1024
                    )))
                }
                None => {}
            }
        }
        match file_name {
            Some(file) if file.is_empty() && value.is_empty() => {}
            Some(file) => {
                if out.uploads.len() == MAX_FILES {
                    return Err(ServiceError::BadRequest(format!(
                        "a move carries at most {MAX_FILES} files"
                    )));
                }
                out.uploads.push(Upload {
                    name: file,
                    media_type: declared,
                    bytes: value,
                });
            }
            None => {
                let text = String::from_utf8(value).map_err(|_| {
                    ServiceError::BadRequest(format!("the field {name} is not UTF-8 text"))
                })?;
                out.fields.push((name, text));
            }
        }
    }
    Ok(out)
}

/// The move's form could not be read: a 400 naming why, or the 413 of a body cut off.
fn unreadable(e: actix_multipart::MultipartError) -> ServiceError {
    match e {
        actix_multipart::MultipartError::Payload(actix_web::error::PayloadError::Overflow) => {
            ServiceError::TooLarge("the move's form is larger than the server takes".into())
        }
        e => ServiceError::BadRequest(format!(
            "the move's form cannot be read ({e}); nothing was recorded — check that each file has a plain file name, such as turn3.vlog"
        )),
    }
}

/// The whole of a request's body, at most `cap` bytes: for the form check (`csrf`), which reads
/// a multipart form's token and hands the same bytes on.
pub async fn whole(
    body: &mut actix_web::dev::Payload,
    cap: u64,
) -> Result<web::Bytes, ServiceError> {
    let mut whole = web::BytesMut::new();
    while let Some(chunk) = body.next().await {
        let chunk = chunk.map_err(|e| {
            ServiceError::BadRequest(format!("the move's form cannot be read: {e}"))
        })?;
        if (whole.len() + chunk.len()) as u64 > cap {
            return Err(ServiceError::TooLarge(format!(
                "the form is larger than the limit of {} for a move's files; nothing was recorded — send fewer or smaller files",
                crate::games::files::bytes(cap)
            )));
        }
        whole.extend_from_slice(&chunk);
    }
    Ok(whole.freeze())
}
