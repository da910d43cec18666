//! The web table: server-rendered pages a player opens from the link in their email — the lobby,
//! a seat's game page, the spectator page, the replay of a finished game, the audit page of one
//! event and the verify page. Plain HTML forms with POST-redirect-GET, so reading and moving work
//! without JavaScript. Handlers only translate between forms and the games service; a refused
//! form answers with the same page and the reason on it, and changes nothing.

use actix_web::http::StatusCode;
use actix_web::{web, FromRequest, HttpRequest, HttpResponse};
use minijinja::{context, Value};
use serde::{Deserialize, Serialize};

use super::flash::{self, Answer};
use super::seat_cookie;
use super::templates::render;
use crate::engine::canonical::random16;
use crate::engine::ruleset::Viewer;
use crate::games::table::{check_export, Table};
use crate::games::{Caller, CommandInput, GameId, Games, ServiceError, Submit};

/// The largest export the server checks for readers without JavaScript.
pub const VERIFY_LIMIT: usize = 2 * 1024 * 1024;

/// Security headers of every page: nothing is loaded from elsewhere, no inline script runs, and
/// no page's address (a seat link carries a token until its page moves it into the seat cookie)
/// leaks through the Referer header.
pub(super) const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/// A rendered page.
pub fn html(status: StatusCode, body: String) -> HttpResponse {
    HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .insert_header(("Content-Security-Policy", CSP))
        .insert_header(("Referrer-Policy", "no-referrer"))
        .insert_header(("X-Content-Type-Options", "nosniff"))
        // Seat pages show what only their seat may see.
        .insert_header(("Cache-Control", "no-store"))
        .body(body)
}

pub(super) fn rendered(status: StatusCode, name: &str, ctx: minijinja::Value) -> HttpResponse {
    match render(name, ctx) {
        Ok(body) => html(status, body),
        Err(e) => {
            tracing::error!(error = %format!("{e:#}"), template = name, "a page failed to render");
            HttpResponse::InternalServerError()
                .content_type("text/plain; charset=utf-8")
                .body("the page failed to render; nothing was changed")
        }
    }
}

/// A page that says what went wrong and what to do.
pub fn message_page(
    status: StatusCode,
    heading: &str,
    message: &str,
    hint: Option<&str>,
) -> HttpResponse {
    message_page_with_links(status, heading, message, hint, &[])
}

/// A page that asks to confirm an action before it is done: a button that POSTs to `action`.
pub fn confirm_page(heading: &str, message: &str, action: &str, button: &str) -> HttpResponse {
    rendered(
        StatusCode::OK,
        "confirm.html",
        context! { heading, message, action, button, flash => None::<String>, error => None::<String> },
    )
}

/// A link on a message page: where to, and its text.
pub(super) struct PageLink {
    pub(super) href: String,
    pub(super) text: &'static str,
}

/// A message page with links to where the reader can go next (besides the start page).
pub(super) fn message_page_with_links(
    status: StatusCode,
    heading: &str,
    message: &str,
    hint: Option<&str>,
    links: &[PageLink],
) -> HttpResponse {
    let links: Vec<_> = links
        .iter()
        .map(|l| context! { href => l.href.as_str(), text => l.text })
        .collect();
    rendered(
        status,
        "error.html",
        context! { heading, message, hint, links, flash => None::<String>, error => None::<String> },
    )
}

/// What a seat's page says when the game moved on while the player wrote.
fn moved_on(sent: u64, current_seq: u64) -> String {
    let new = current_seq.saturating_sub(sent);
    format!(
        "the game moved on while you wrote: {new} new event{} since your page was drawn, and nothing of yours was recorded",
        if new == 1 { "" } else { "s" }
    )
}

/// The seat the request's seat cookie opens in `game_id`, or the error page that says why none.
pub(super) async fn cookie_seat(
    games: &Games,
    game_id: &GameId,
    req: &HttpRequest,
) -> Result<Caller, HttpResponse> {
    let token = seat_cookie::read(req);
    games
        .authenticate(game_id, token.as_deref())
        .await
        .map_err(|e| error_page(&e, game_id))
}

/// The game a page's path names, or the page that says it names none.
pub(super) fn game_of(path: &str) -> Result<GameId, Box<HttpResponse>> {
    GameId::parse(path).map_err(|e| Box::new(error_page(&e.into(), path)))
}

/// `cookie_seat` in the game a page's path names.
pub(super) async fn path_seat(
    games: &Games,
    path: &str,
    req: &HttpRequest,
) -> Result<Caller, HttpResponse> {
    cookie_seat(games, &game_of(path).map_err(|page| *page)?, req).await
}

/// A service error as a page.
pub(super) fn error_page(e: &ServiceError, game_id: &str) -> HttpResponse {
    match e {
        ServiceError::NotFound(m) => message_page(
            StatusCode::NOT_FOUND,
            "No such game",
            m,
            Some("Check that you copied the whole link from your email."),
        ),
        // A seat link replaced by a newer one (`Games::authenticate`) says so.
        ServiceError::Forbidden(m) if m.contains("replaced by a newer one") => {
            message_page_with_links(
                StatusCode::FORBIDDEN,
                "This link has been replaced",
                &format!("{m}. Nothing was changed."),
                Some("Use the newest link of your seat: the latest turn email carries it, and signing in by email lists it. Anyone may watch the game."),
                &[PageLink {
                    href: format!("/games/{game_id}/watch"),
                    text: "Watch this game",
                }],
            )
        }
        ServiceError::Unauthorized | ServiceError::Forbidden(_) => message_page_with_links(
            StatusCode::FORBIDDEN,
            "This link does not open a seat",
            &format!("The link's token is not a seat of game {game_id}. Nothing was changed."),
            Some("Use the link from your own turn email, whole. Anyone may watch the game."),
            &[PageLink {
                href: format!("/games/{game_id}/watch"),
                text: "Watch this game",
            }],
        ),
        ServiceError::BadRequest(_) | ServiceError::Invalid(_) => {
            message_page(StatusCode::BAD_REQUEST, "Not done", &e.to_string(), None)
        }
        ServiceError::Rule(r) => message_page(
            StatusCode::UNPROCESSABLE_ENTITY,
            "Refused by the rules",
            &r.to_string(),
            None,
        ),
        ServiceError::Stale { sent, current_seq } => message_page_with_links(
            StatusCode::CONFLICT,
            "The game has moved on",
            &moved_on(*sent, *current_seq),
            None,
            &[PageLink {
                href: format!("/games/{game_id}"),
                text: "Back to the game",
            }],
        ),
        ServiceError::RateLimited { limited, .. } => {
            let mut page = message_page(
                StatusCode::TOO_MANY_REQUESTS,
                "Too many moves at once",
                &e.to_string(),
                Some("Nothing was changed. Wait a moment, then make the move again."),
            );
            page.headers_mut().insert(
                actix_web::http::header::RETRY_AFTER,
                actix_web::http::header::HeaderValue::from(limited.retry_after_secs()),
            );
            page
        }
        ServiceError::KeyReused { .. } | ServiceError::InProgress { .. } => {
            message_page(StatusCode::CONFLICT, "Already sent", &e.to_string(), None)
        }
        ServiceError::TooLarge(m) => message_page(
            StatusCode::PAYLOAD_TOO_LARGE,
            "The files are too large",
            m,
            Some("Send the order with fewer or smaller files."),
        ),
        ServiceError::Unavailable(_) => {
            tracing::warn!(error = %e, "database unavailable on a page");
            let mut page = message_page(
                StatusCode::SERVICE_UNAVAILABLE,
                "The database is unavailable",
                "The server cannot reach its database just now.",
                Some("Try again in a few seconds; a move sent again from the same page is never recorded twice."),
            );
            page.headers_mut().insert(
                actix_web::http::header::RETRY_AFTER,
                actix_web::http::header::HeaderValue::from(
                    super::error::UNAVAILABLE_RETRY_AFTER_SECS,
                ),
            );
            page
        }
        ServiceError::WouldNotLoad(why) => {
            tracing::error!(error = %e, "a stored game does not load on a page");
            // The page's own link leads back to the start page.
            message_page(
                StatusCode::SERVICE_UNAVAILABLE,
                "This game cannot be shown",
                &format!(
                    "Game {} ({}, rules version {}) does not load on this server: its event {} does not fold ({}). Nothing was changed, and the game's log is kept.",
                    why.game_id, why.ruleset, why.ruleset_version, why.seq, why.problem
                ),
                Some("This is the server's trouble, not yours. Tell the server's operator: they should run `despatch check` (docs/operations.md, \"Upgrading a server with running campaigns\")."),
            )
        }
        ServiceError::Corrupt(_) | ServiceError::Store(_) => {
            tracing::error!(error = %e, "internal error on a page");
            message_page(
                StatusCode::INTERNAL_SERVER_ERROR,
                "The server failed",
                "Something went wrong on the server; nothing was changed. Try again in a moment.",
                None,
            )
        }
    }
}

/// A form that could not be read (too large, or malformed) as a page.
pub fn form_error(err: actix_web::error::UrlencodedError) -> actix_web::Error {
    use actix_web::error::UrlencodedError as E;
    let (status, message) = match &err {
        E::Overflow { size, limit } => (
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("The form sent {size} bytes; this page accepts at most {limit}. Nothing was changed."),
        ),
        _ => (
            StatusCode::BAD_REQUEST,
            format!("The form could not be read ({err}). Nothing was changed."),
        ),
    };
    let page = message_page(status, "The form was refused", &message, None);
    actix_web::error::InternalError::from_response(err, page).into()
}

/// A page's query that cannot be read (`/?seats=x`, `?step=-1`): a page saying so, not JSON.
pub fn query_error(err: actix_web::error::QueryPayloadError, query: &str) -> actix_web::Error {
    let query: String = query.chars().take(200).collect();
    let message = format!(
        "The address's query '{query}' could not be read ({err}). Check the link, or start \
         again from the first page. Nothing was changed."
    );
    let page = message_page(
        StatusCode::BAD_REQUEST,
        "The address was not understood",
        &message,
        None,
    );
    actix_web::error::InternalError::from_response(err, page).into()
}

/// A serialisable value for a template.
pub(super) fn v<T: Serialize>(value: &T) -> Value {
    Value::from(minijinja::value::Serde(value))
}

fn random_hex() -> String {
    hex::encode(random16())
}

// ---------------------------------------------------------------------------------------------
// A seat's page, the spectator page and the replay.

#[derive(Debug, Deserialize)]
pub struct GameQuery {
    token: Option<String>,
    /// Set by the redirect after the seat was claimed by an email (`account`): the
    /// confirmation link is on its way.
    claim_sent: Option<String>,
    log: Option<String>,
    moved: Option<u64>,
    /// Set by the redirect after the seat resigned from its page.
    resigned: Option<u64>,
    /// Set by the redirect after the seat's table talk was sent.
    said: Option<String>,
    /// Set by the redirect after the seat asked for a new link (`account::new_link`).
    new_link: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
struct MoveFormView {
    order: String,
    expected_seq: u64,
    client_entropy: String,
    idempotency_key: String,
}

#[derive(Debug, Clone, Serialize)]
struct ReplaySteps {
    prev_step: Option<u64>,
    next_step: Option<u64>,
}

/// What a game page says besides the game: its status, the order to keep in the box, and an
/// error or a notice.
struct Notes {
    status: StatusCode,
    order: String,
    error: Option<String>,
    flash: Option<String>,
    /// The answer to the seat's recorded order, shown once beside the order box: what the
    /// page says, and what of the order was not carried out.
    recorded: Option<(String, Option<String>)>,
    /// The answer to the seat's table talk, shown once beside the talk form.
    talk: Option<TalkNote>,
}

/// What the talk form says once after a message: sent, or refused with the reason and the
/// message kept in the form.
#[derive(Debug, Clone, Default, Serialize)]
struct TalkNote {
    error: Option<String>,
    to: String,
    text: String,
    sent: bool,
}

impl Notes {
    fn none() -> Notes {
        Notes {
            status: StatusCode::OK,
            order: String::new(),
            error: None,
            flash: None,
            recorded: None,
            talk: None,
        }
    }

    /// The notes of a page showing the answer a flash cookie carried (`flash`).
    fn of_answer(answer: Answer) -> Notes {
        match answer {
            Answer::Refused { message, order, .. } => Notes {
                order,
                error: Some(message),
                ..Notes::none()
            },
            Answer::Recorded { notice, not_done } => Notes {
                recorded: Some((notice, not_done)),
                ..Notes::none()
            },
            Answer::TalkRefused {
                message, to, text, ..
            } => Notes {
                talk: Some(TalkNote {
                    error: Some(message),
                    to,
                    text,
                    sent: false,
                }),
                ..Notes::none()
            },
            Answer::Said => Notes {
                talk: Some(TalkNote {
                    sent: true,
                    ..TalkNote::default()
                }),
                ..Notes::none()
            },
        }
    }
}

fn game_page(
    game_id: &GameId,
    mode: &str,
    t: &Table,
    notes: Notes,
    steps: Option<ReplaySteps>,
) -> HttpResponse {
    let form = MoveFormView {
        order: notes.order,
        expected_seq: t.summary.next_seq,
        client_entropy: random_hex(),
        idempotency_key: random_hex(),
    };
    let recorded = notes
        .recorded
        .map(|(notice, not_done)| context! { notice, not_done });
    rendered(
        notes.status,
        "game.html",
        context! {
            game_id => game_id.as_str(), mode,
            t => v(t),
            form => v(&form),
            error => notes.error,
            flash => notes.flash,
            recorded,
            talk_note => v(&notes.talk),
            replay => v(&steps),
        },
    )
}

/// A seat's page for `caller`, with an error or a notice on it. It holds no token: the seat
/// cookie carries it (`seat_cookie`).
async fn seat_page(
    games: &Games,
    game_id: &GameId,
    caller: &Caller,
    whole_log: bool,
    notes: Notes,
) -> HttpResponse {
    match games
        .table(game_id, &Viewer::Seat(caller.seat.clone()), None, whole_log)
        .await
    {
        Ok(t) => game_page(game_id, "seat", &t, notes, None),
        Err(e) => error_page(&e, game_id),
    }
}

async fn watch(games: &Games, game_id: &GameId, whole_log: bool) -> HttpResponse {
    match games
        .table(game_id, &Viewer::Spectator, None, whole_log)
        .await
    {
        Ok(t) => game_page(game_id, "watch", &t, Notes::none(), None),
        Err(e) => error_page(&e, game_id),
    }
}

/// What the seat page says of the seat's order recorded as event `seq`.
fn recorded_order(seq: u64) -> String {
    format!(
        "Your order is recorded as event {seq}. Its dice, if any, are in the log with their proof."
    )
}

/// What the seat page reports after a redirect: the seat's order, or its resignation, recorded
/// as event N (`?moved=N`, `?resigned=N`).
#[derive(Debug, Clone, Copy)]
enum Recorded {
    Order(u64),
    Resignation(u64),
}

/// A redirect to the seat page of `game_id` (`?log=all` and what was recorded kept), setting
/// the seat cookie to `token` when one is given.
fn to_seat_page(
    games: &Games,
    game_id: &GameId,
    token: Option<&str>,
    whole_log: bool,
    recorded: Option<Recorded>,
) -> HttpResponse {
    to_seat_page_with(games, game_id, token, whole_log, recorded, None)
}

/// `to_seat_page`, and with a flash cookie (`flash`): its `Set-Cookie` value, and the place on
/// the page its answer stands at (the address's fragment), where the browser scrolls to.
fn to_seat_page_with(
    games: &Games,
    game_id: &GameId,
    token: Option<&str>,
    whole_log: bool,
    recorded: Option<Recorded>,
    flash: Option<(String, &str)>,
) -> HttpResponse {
    let mut query = Vec::new();
    if whole_log {
        query.push("log=all".to_owned());
    }
    match recorded {
        Some(Recorded::Order(seq)) => query.push(format!("moved={seq}")),
        Some(Recorded::Resignation(seq)) => query.push(format!("resigned={seq}")),
        None => {}
    }
    let mut location = if query.is_empty() {
        format!("/games/{game_id}")
    } else {
        format!("/games/{game_id}?{}", query.join("&"))
    };
    if let Some((_, fragment)) = &flash {
        location.push('#');
        location.push_str(fragment);
    }
    let mut answer = HttpResponse::SeeOther();
    answer
        .insert_header(("Location", location))
        .insert_header(("Referrer-Policy", "no-referrer"))
        .insert_header(("Cache-Control", "no-store"));
    if let Some(cookie) =
        token.and_then(|t| seat_cookie::set(game_id, t, seat_cookie::secure_for(&games.base_url)))
    {
        answer.append_header(("Set-Cookie", cookie));
    }
    if let Some((cookie, _)) = flash {
        answer.append_header(("Set-Cookie", cookie));
    }
    answer.finish()
}

/// The answer to the seat's form, shown once on the page it is sent back to: the `Set-Cookie`
/// value of its flash cookie, or `None` when it cannot be carried (too large for a cookie, or
/// the link key unreadable) and the answer is to be given with the page itself.
async fn flash_cookie(
    games: &Games,
    game_id: &GameId,
    seat: &str,
    answer: Answer,
) -> Option<String> {
    let key = games.link_key().await.ok()?;
    flash::set(&key, &games.base_url, game_id, seat, answer)
}

/// The page a seat link opens. A link's token (`?token=`) that opens a seat is moved into the
/// seat cookie and the browser sent to the same page without it; the page itself authenticates
/// from the cookie. Without either, the spectator page.
pub async fn game(
    games: web::Data<Games>,
    path: web::Path<String>,
    query: web::Query<GameQuery>,
    req: HttpRequest,
) -> HttpResponse {
    let game_id = &match game_of(&path) {
        Ok(g) => g,
        Err(page) => return *page,
    };
    let whole_log = query.log.as_deref() == Some("all");
    let from_link = query.token.as_deref().filter(|t| !t.trim().is_empty());
    let Some(token) = from_link
        .map(str::to_owned)
        .or_else(|| seat_cookie::read(&req))
    else {
        return watch(&games, game_id, whole_log).await;
    };
    let caller = match games.authenticate(game_id, Some(&token)).await {
        Ok(c) => c,
        Err(e) => {
            let mut page = error_page(&e, game_id);
            // A cookie that no longer opens the seat (the server's key was rotated) is removed,
            // so that the page opens for watching when reloaded. A bad link's token is never set.
            if from_link.is_none() && matches!(e, ServiceError::Forbidden(_)) {
                if let Some(clear) =
                    seat_cookie::clear(game_id, seat_cookie::secure_for(&games.base_url))
                {
                    if let Ok(value) = actix_web::http::header::HeaderValue::from_str(&clear) {
                        page.headers_mut()
                            .append(actix_web::http::header::SET_COOKIE, value);
                    }
                }
            }
            return page;
        }
    };
    if from_link.is_some() && seat_cookie::set(game_id, &token, false).is_some() {
        let recorded = query.moved.map(Recorded::Order);
        return to_seat_page(&games, game_id, Some(&token), whole_log, recorded);
    }
    let flash = query
        .moved
        .map(recorded_order)
        .or_else(|| {
            query
                .resigned
                .map(|seq| format!("Your resignation is recorded as event {seq}."))
        })
        .or_else(|| {
            query
                .said
                .as_ref()
                .map(|_| "Your message is sent; it is kept apart from the game's log.".to_owned())
        })
        .or_else(|| query.new_link.as_ref().map(|_| {
            format!(
                "This seat has a new link: {}. Keep it (bookmark it): the links sent or shown before no longer open this seat. This browser keeps the seat.",
                games.seat_link(game_id, &token)
            )
        }))
        .or_else(|| query.claim_sent.as_ref().map(|_| {
            "A confirmation link is on its way to the address you gave. Once it is followed, the seat's notices go there and signing in with it lists this game among your games; until then nothing changes.".to_owned()
        }));
    // The answer to the seat's own form, carried across the redirect: shown once, then gone.
    let carried = if flash::present(&req) {
        let key = games.link_key().await.ok();
        Some(key.and_then(|key| flash::read(&key, &req, game_id, caller.seat.as_str())))
    } else {
        None
    };
    let notes = match carried.clone().flatten() {
        Some(answer) => Notes {
            flash,
            ..Notes::of_answer(answer)
        },
        None => Notes {
            flash,
            ..Notes::none()
        },
    };
    let mut page = seat_page(&games, game_id, &caller, whole_log, notes).await;
    if carried.is_some() {
        if let Ok(value) =
            actix_web::http::header::HeaderValue::from_str(&flash::clear(&games.base_url, game_id))
        {
            page.headers_mut()
                .append(actix_web::http::header::SET_COOKIE, value);
        }
    }
    page
}

/// `GET /games/{id}/moves`: the address a browser showed after a form that answered with the
/// page itself (and shows when a page is reloaded from its history): the game's page.
pub async fn moves_get(path: web::Path<String>) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header(("Location", format!("/games/{}", path.as_str())))
        .insert_header(("Cache-Control", "no-store"))
        .finish()
}

pub async fn watch_page(
    games: web::Data<Games>,
    path: web::Path<String>,
    query: web::Query<GameQuery>,
) -> HttpResponse {
    match game_of(&path) {
        Ok(game_id) => watch(&games, &game_id, query.log.as_deref() == Some("all")).await,
        Err(page) => *page,
    }
}

#[derive(Debug, Default, Deserialize)]
pub struct MoveForm {
    #[serde(default)]
    token: String,
    #[serde(default)]
    expected_seq: String,
    #[serde(default)]
    order: String,
    #[serde(default)]
    client_entropy: String,
    #[serde(default)]
    idempotency_key: String,
}

/// A seat's order from the game page's form: POST, then a redirect to the page (GET). The seat
/// is the seat cookie's (or, from a form that carries one, the form's `token`, which is then
/// moved into the cookie).
///
/// The form is sent as `multipart/form-data` with the files the order carries (its file input;
/// docs/files.md), or URL-encoded without any.
pub async fn submit_move(
    games: web::Data<Games>,
    path: web::Path<String>,
    body: web::Payload,
    req: HttpRequest,
) -> HttpResponse {
    let game_id = &match game_of(&path) {
        Ok(g) => g,
        Err(page) => return *page,
    };
    let (form, uploads, unread) = if super::uploads::is_multipart(&req) {
        match super::uploads::read(req.headers(), body.into_inner(), games.files().limits()).await {
            Ok(parts) => (
                MoveForm {
                    token: parts.text("token"),
                    expected_seq: parts.text("expected_seq"),
                    order: parts.text("order"),
                    client_entropy: parts.text("client_entropy"),
                    idempotency_key: parts.text("idempotency_key"),
                },
                parts.uploads,
                None,
            ),
            // The order is lost with the form; the reason is shown on the page.
            Err(e) => (MoveForm::default(), Vec::new(), Some(e)),
        }
    } else {
        match web::Form::<MoveForm>::from_request(&req, &mut body.into_inner()).await {
            Ok(form) => (form.into_inner(), Vec::new(), None),
            Err(e) => return HttpResponse::from_error(e),
        }
    };
    let from_form = Some(form.token.trim()).filter(|t| !t.is_empty());
    let token = from_form
        .map(str::to_owned)
        .or_else(|| seat_cookie::read(&req));
    let caller = match games.authenticate(game_id, token.as_deref()).await {
        Ok(c) => c,
        Err(e) => return error_page(&e, game_id),
    };
    // A refusal goes back to the page with the order kept and the reason beside the order box
    // (POST, redirect, GET: the flash cookie carries both), or, when it cannot be carried, is
    // answered with the page itself.
    let again = |status: StatusCode, message: String| {
        let games = games.clone();
        let caller = caller.clone();
        let order = form.order.clone();
        async move {
            let answer = Answer::Refused {
                status: status.as_u16(),
                message: message.clone(),
                order: order.clone(),
            };
            if let Some(cookie) = flash_cookie(&games, game_id, caller.seat.as_str(), answer).await
            {
                return to_seat_page_with(
                    &games,
                    game_id,
                    from_form,
                    false,
                    None,
                    Some((cookie, "error")),
                );
            }
            let notes = Notes {
                status,
                order,
                error: Some(message),
                ..Notes::none()
            };
            seat_page(&games, game_id, &caller, false, notes).await
        }
    };
    if let Some(e) = unread {
        let status = match e {
            ServiceError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            _ => StatusCode::BAD_REQUEST,
        };
        return again(status, e.to_string()).await;
    }
    if form.order.trim().eq_ignore_ascii_case("resign") {
        return again(
            StatusCode::BAD_REQUEST,
            "nothing was sent: to resign, open \"Resign this game\" below the order box and confirm there (an order box never resigns by accident)".into(),
        )
        .await;
    }
    let Ok(expected_seq) = form.expected_seq.trim().parse::<u64>() else {
        return again(
            StatusCode::BAD_REQUEST,
            "the form lost its event number; your order is below, send it again".into(),
        )
        .await;
    };
    let submit = Submit {
        expected_seq,
        command: CommandInput::Text(form.order.clone()),
        client_entropy: form.client_entropy.clone(),
        idempotency_key: Some(form.idempotency_key.clone()).filter(|k| !k.trim().is_empty()),
    };
    match games.submit_with_files(&caller, submit, &uploads).await {
        Ok(result) => {
            let first = result.events.first().map_or(expected_seq, |e| e.seq);
            let answer = Answer::Recorded {
                notice: recorded_order(first),
                not_done: result
                    .unexecuted
                    .as_ref()
                    .map(crate::mail_in::not_carried_out),
            };
            match flash_cookie(&games, game_id, caller.seat.as_str(), answer).await {
                Some(cookie) => to_seat_page_with(
                    &games,
                    game_id,
                    from_form,
                    false,
                    None,
                    Some((cookie, "answer")),
                ),
                None => to_seat_page(
                    &games,
                    game_id,
                    from_form,
                    false,
                    Some(Recorded::Order(first)),
                ),
            }
        }
        Err(ServiceError::Rule(r)) => {
            again(
                StatusCode::UNPROCESSABLE_ENTITY,
                files_again(
                    format!("{r}. Your order is below: correct it and send it again."),
                    &uploads,
                ),
            )
            .await
        }
        Err(ServiceError::Stale { sent, current_seq }) => {
            let message = format!(
                "{}. The board, the log and your legal moves are the latest now; your order is below, unsent — check it against them and send it again.",
                moved_on(sent, current_seq)
            );
            again(StatusCode::CONFLICT, files_again(message, &uploads)).await
        }
        Err(ServiceError::BadRequest(m)) => {
            again(StatusCode::BAD_REQUEST, files_again(m, &uploads)).await
        }
        Err(ServiceError::TooLarge(m)) => {
            again(StatusCode::PAYLOAD_TOO_LARGE, files_again(m, &uploads)).await
        }
        Err(e) => error_page(&e, game_id),
    }
}

/// A refusal of an order that carried files: a browser cannot fill the file input again, so the
/// player is told to choose them again.
fn files_again(message: String, uploads: &[crate::games::files::Upload]) -> String {
    match (uploads.is_empty(), message.ends_with('.')) {
        (true, _) => message,
        (false, true) => format!("{message} Choose the files again when you send it again."),
        (false, false) => format!("{message}. Choose the files again when you send it again."),
    }
}

#[derive(Debug, Deserialize)]
pub struct TalkForm {
    /// A seat's id (or name) to tell; empty: to the whole table.
    #[serde(default)]
    to: String,
    #[serde(default)]
    text: String,
}

/// Table talk from the seat page (`games::talk`): to the table, or to the seat `to`. Sent →
/// `303` back to the page's talk; refused (a ruleset that allows no such talk now, an empty or
/// over-long message, no such seat) → `303` back to the talk form, which shows the reason and
/// keeps the message; nothing is sent.
pub async fn talk(
    games: web::Data<Games>,
    path: web::Path<String>,
    form: web::Form<TalkForm>,
    req: HttpRequest,
) -> HttpResponse {
    let game_id = &match game_of(&path) {
        Ok(g) => g,
        Err(page) => return *page,
    };
    let caller = match cookie_seat(&games, game_id, &req).await {
        Ok(c) => c,
        Err(page) => return page,
    };
    // Sent or refused, the answer is shown once beside the talk form (POST, redirect, GET: the
    // flash cookie carries it, the refused message and its addressee included), or, when it
    // cannot be carried, with the page itself.
    let answered = |answer: Answer, status: StatusCode| {
        let games = games.clone();
        let caller = caller.clone();
        async move {
            let fragment = match answer {
                Answer::Said => "talk",
                _ => "talk-error",
            };
            if let Some(cookie) =
                flash_cookie(&games, game_id, caller.seat.as_str(), answer.clone()).await
            {
                return to_seat_page_with(
                    &games,
                    game_id,
                    None,
                    false,
                    None,
                    Some((cookie, fragment)),
                );
            }
            if answer == Answer::Said {
                return HttpResponse::SeeOther()
                    .insert_header(("Location", format!("/games/{game_id}?said=1#talk")))
                    .insert_header(("Cache-Control", "no-store"))
                    .finish();
            }
            let notes = Notes {
                status,
                ..Notes::of_answer(answer)
            };
            seat_page(&games, game_id, &caller, false, notes).await
        }
    };
    let refused = |status: StatusCode, message: String| {
        answered(
            Answer::TalkRefused {
                status: status.as_u16(),
                message: format!("{message}. Nothing was sent: your message is below."),
                to: form.to.clone(),
                text: form.text.clone(),
            },
            status,
        )
    };
    match games
        .talk(&caller, Some(form.to.as_str()), &form.text)
        .await
    {
        Ok(_) => answered(Answer::Said, StatusCode::OK).await,
        Err(ServiceError::Rule(r)) => {
            refused(StatusCode::UNPROCESSABLE_ENTITY, r.to_string()).await
        }
        Err(ServiceError::BadRequest(m)) => refused(StatusCode::BAD_REQUEST, m).await,
        Err(e) => error_page(&e, game_id),
    }
}

#[derive(Debug, Deserialize)]
pub struct ResignForm {
    #[serde(default)]
    confirm: String,
}

/// A seat resigns from its page: only with the confirmation box ticked; without it, the page
/// again with the reason, and nothing recorded.
pub async fn resign(
    games: web::Data<Games>,
    path: web::Path<String>,
    form: web::Form<ResignForm>,
    req: HttpRequest,
) -> HttpResponse {
    let game_id = &match game_of(&path) {
        Ok(g) => g,
        Err(page) => return *page,
    };
    let caller = match cookie_seat(&games, game_id, &req).await {
        Ok(c) => c,
        Err(page) => return page,
    };
    let refused = |status, message: String| {
        let notes = Notes {
            status,
            error: Some(message),
            ..Notes::none()
        };
        seat_page(&games, game_id, &caller, false, notes)
    };
    if form.confirm != "yes" {
        return refused(
            StatusCode::BAD_REQUEST,
            "you did not resign: tick \"Yes, I resign\" under \"Resign this game\" to confirm, then press Resign".into(),
        )
        .await;
    }
    match games.resign(&caller).await {
        Ok(result) => {
            let seq = result.events.first().map_or(result.next_seq, |e| e.seq);
            to_seat_page(
                &games,
                game_id,
                None,
                false,
                Some(Recorded::Resignation(seq)),
            )
        }
        Err(ServiceError::Rule(r)) => {
            refused(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("{r}; you have not resigned"),
            )
            .await
        }
        Err(e) => error_page(&e, game_id),
    }
}

#[derive(Debug, Deserialize)]
pub struct ReplayQuery {
    step: Option<u64>,
    log: Option<String>,
}

/// A finished game, one event at a time.
pub async fn replay(
    games: web::Data<Games>,
    path: web::Path<String>,
    query: web::Query<ReplayQuery>,
) -> HttpResponse {
    let game_id = &match game_of(&path) {
        Ok(g) => g,
        Err(page) => return *page,
    };
    let step = query.step.unwrap_or(0);
    let whole_log = query.log.as_deref() == Some("all");
    match games
        .table(game_id, &Viewer::Everyone, Some(step), whole_log)
        .await
    {
        Ok(t) => {
            let steps = ReplaySteps {
                prev_step: t.shown_seq.checked_sub(1),
                next_step: (t.shown_seq + 1 < t.events_total).then_some(t.shown_seq + 1),
            };
            game_page(game_id, "replay", &t, Notes::none(), Some(steps))
        }
        Err(e) => error_page(&e, game_id.as_str()),
    }
}

// ---------------------------------------------------------------------------------------------
// The audit page and the verify page.

pub async fn audit(games: web::Data<Games>, path: web::Path<(String, String)>) -> HttpResponse {
    let (game_id, seq) = path.into_inner();
    let Ok(seq) = seq.parse::<u64>() else {
        return message_page(
            StatusCode::BAD_REQUEST,
            "No such event",
            &format!("'{seq}' is not an event number; events are numbered 0, 1, 2 …"),
            None,
        );
    };
    let game_id = match game_of(&game_id) {
        Ok(g) => g,
        Err(page) => return *page,
    };
    match games.audit(&game_id, seq).await {
        Ok(a) => rendered(
            StatusCode::OK,
            "audit.html",
            context! { game_id => game_id.as_str(), a => v(&a), flash => None::<String>, error => None::<String> },
        ),
        // The game exists but not the event: say so, and lead back to the game.
        Err(ServiceError::NotFound(m)) if games.summary(&game_id).await.is_ok() => {
            message_page_with_links(
                StatusCode::NOT_FOUND,
                "No such event",
                &m,
                None,
                &[PageLink {
                    href: format!("/games/{game_id}"),
                    text: "Back to the game",
                }],
            )
        }
        Err(e) => error_page(&e, game_id.as_str()),
    }
}

fn verify_page(
    status: StatusCode,
    pasted: &str,
    report: Option<(bool, String)>,
    error: Option<String>,
) -> HttpResponse {
    let server_report = report.map(|(ok, text)| context! { ok, text });
    let error = error.map(Value::from);
    rendered(
        status,
        "verify.html",
        context! {
            pasted,
            server_report,
            error,
            flash => None::<String>,
            max_mb => 16,
            server_max_kb => VERIFY_LIMIT / 1024,
        },
    )
}

pub async fn verify_get() -> HttpResponse {
    verify_page(StatusCode::OK, "", None, None)
}

#[derive(Debug, Deserialize)]
pub struct VerifyForm {
    #[serde(default)]
    export: String,
}

/// The verify form without JavaScript: the server checks the pasted export.
pub async fn verify_post(form: web::Form<VerifyForm>) -> HttpResponse {
    let text = form.export.trim();
    if text.is_empty() {
        return verify_page(
            StatusCode::BAD_REQUEST,
            "",
            None,
            Some("paste an export (the text of the .jsonl file) into the box first".into()),
        );
    }
    let report = check_export(text);
    verify_page(
        StatusCode::OK,
        text,
        Some((report.ok(), report.render())),
        None,
    )
}

/// The verify form when its body is too large or unreadable: the verify page with the reason.
pub fn verify_form_error(err: actix_web::error::UrlencodedError) -> actix_web::Error {
    use actix_web::error::UrlencodedError as E;
    let message = match &err {
        E::Overflow { size, limit } => format!(
            "the export sent is {} KB; the server checks at most {} KB. Nothing was checked. Use the file box (with JavaScript on), which checks larger files in your browser, or `despatch verify`.",
            size / 1024,
            limit / 1024
        ),
        _ => format!("the form could not be read ({err}); nothing was checked"),
    };
    let status = if matches!(err, E::Overflow { .. }) {
        StatusCode::PAYLOAD_TOO_LARGE
    } else {
        StatusCode::BAD_REQUEST
    };
    let page = verify_page(status, "", None, Some(message));
    actix_web::error::InternalError::from_response(err, page).into()
}
