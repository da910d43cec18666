//! The files moves carry, served to the seats of their game (docs/files.md): the API's list
//! and download (`/api/games/{id}/files`, with the seat's bearer token) and the pages' download
//! link (`/games/{id}/files/{sha256}/{name}`, with the seat cookie). Only a hash the game's log
//! lists is served, as an attachment of the type the log records.

use actix_web::http::header::{
    self, ContentDisposition, DispositionParam, DispositionType, ExtendedValue,
};
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

use super::api::{bearer, ErrorBody};
use super::error::ApiError;
use super::seat_cookie;
use crate::engine::files::FileRef;
use crate::games::{GameId, Games};

/// A file a move carried, as the API lists it.
#[derive(Debug, Serialize, ToSchema)]
pub struct ListedFile {
    /// The seq of the move that carried it.
    pub seq: u64,
    pub name: String,
    pub size: u64,
    pub media_type: String,
    pub sha256: String,
    /// Where the API serves it (with the seat's token).
    pub url: String,
}

/// The link a page gives to a file of game `game_id`.
pub fn page_link(game_id: &str, file: &FileRef) -> String {
    format!(
        "/games/{game_id}/files/{}/{}",
        file.sha256,
        url::form_urlencoded::byte_serialize(file.name.as_bytes()).collect::<String>()
    )
}

/// Every file the moves of the game carried, for a seat of the game.
#[utoipa::path(get, path = "/api/games/{game_id}/files", security(("seat_token" = []), ("seat_link" = [])), responses(
    (status = 200, description = "the files the game's moves carried, oldest first", body = Vec<ListedFile>),
    (status = 400, description = "the game id is not valid", body = ErrorBody),
    (status = 401, description = "no seat token was sent", body = ErrorBody),
    (status = 403, description = "the token is not a seat of this game", body = ErrorBody),
    (status = 404, description = "no such game", body = ErrorBody),
    (status = 503, description = "the database is unavailable", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn list(
    games: web::Data<Games>,
    path: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let game_id = GameId::parse(&path)?;
    let caller = games
        .authenticate(&game_id, bearer(&req).as_deref())
        .await?;
    let listed: Vec<ListedFile> = games
        .files_listed(&caller)
        .await?
        .into_iter()
        .map(|l| ListedFile {
            url: format!("/api/games/{game_id}/files/{}", l.file.sha256),
            seq: l.seq,
            name: l.file.name,
            size: l.file.size,
            media_type: l.file.media_type,
            sha256: l.file.sha256,
        })
        .collect();
    Ok(HttpResponse::Ok().json(listed))
}

/// One file a move of the game carried, by its SHA-256, for a seat of the game.
#[utoipa::path(get, path = "/api/games/{game_id}/files/{sha256}", security(("seat_token" = []), ("seat_link" = [])), responses(
    (status = 200, description = "the file's bytes, as an attachment of its recorded media type"),
    (status = 400, description = "the game id is not valid", body = ErrorBody),
    (status = 401, description = "no seat token was sent", body = ErrorBody),
    (status = 403, description = "the token is not a seat of this game", body = ErrorBody),
    (status = 404, description = "no such game, or its log lists no file with this SHA-256", body = ErrorBody),
    (status = 503, description = "the database or the file store is unavailable", body = ErrorBody, headers(("Retry-After" = u64, description = "seconds to wait")))))]
pub async fn get(
    games: web::Data<Games>,
    path: web::Path<(String, String)>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let (game_id, sha256) = path.into_inner();
    let game_id = GameId::parse(&game_id)?;
    let caller = games
        .authenticate(&game_id, bearer(&req).as_deref())
        .await?;
    let (file, bytes) = games.file(&caller, &sha256).await?;
    Ok(download(&file, bytes))
}

/// A file from a page's link: the seat cookie (or a seat token in the link) opens it.
pub async fn page_get(
    games: web::Data<Games>,
    path: web::Path<(String, String, String)>,
    req: HttpRequest,
) -> HttpResponse {
    let (game_id, sha256, _name) = path.into_inner();
    let game_id = match GameId::parse(&game_id) {
        Ok(g) => g,
        Err(e) => return super::pages::error_page(&ApiError::from(e).0, ""),
    };
    let token = bearer(&req).or_else(|| seat_cookie::read(&req));
    let found = match games.authenticate(&game_id, token.as_deref()).await {
        Ok(caller) => games.file(&caller, &sha256).await,
        Err(e) => Err(e),
    };
    match found {
        Ok((file, bytes)) => download(&file, bytes),
        Err(e) => super::pages::error_page(&e, &game_id),
    }
}

/// The answer carrying a file: its recorded type, as an attachment under its recorded name, not
/// to be sniffed or kept by a shared cache.
fn download(file: &FileRef, bytes: Vec<u8>) -> HttpResponse {
    let ascii: String = file
        .name
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() || c == ' ' {
                c
            } else {
                '_'
            }
        })
        .filter(|c| *c != '"' && *c != '\\')
        .collect();
    let disposition = ContentDisposition {
        disposition: DispositionType::Attachment,
        parameters: vec![
            DispositionParam::Filename(ascii),
            DispositionParam::FilenameExt(ExtendedValue {
                charset: header::Charset::Ext("UTF-8".into()),
                language_tag: None,
                value: file.name.as_bytes().to_vec(),
            }),
        ],
    };
    let media_type = file
        .media_type
        .parse::<mime_guess::mime::Mime>()
        .unwrap_or(mime_guess::mime::APPLICATION_OCTET_STREAM);
    HttpResponse::Ok()
        .insert_header(header::ContentType(media_type))
        .insert_header(disposition)
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::CACHE_CONTROL, "private, no-store"))
        .body(bytes)
}
