//! The settings pages (issue 21; docs/web.md, "Settings"): a seat's (`/games/{id}/settings`,
//! behind the seat cookie a seat link sets) and a player's (`/me/settings`, behind the session
//! cookie). Forms that POST and redirect, so they work without JavaScript; a refused form shows
//! the page again with the reason and changes nothing. Handlers only translate:
//! `games::settings`, `games::channels` and `games::webhooks` do the work.
//!
//! Both cookies are `SameSite=Lax`, so another site's form cannot post with them.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use minijinja::context;
use serde::Deserialize;

use super::pages::{error_page, path_seat, rendered, v};
use super::session_cookie;
use crate::games::outbox::Channels;
use crate::games::settings::vacation_from_days;
use crate::games::{Caller, Games, NewWebhook, ServiceError, Webhook};

/// The checkboxes of a settings form: a box sends `on` when ticked and nothing when not.
#[derive(Debug, Deserialize)]
pub struct ChannelsForm {
    #[serde(default)]
    email: Option<String>,
    #[serde(default)]
    webhooks: Option<String>,
    #[serde(default)]
    reminders: Option<String>,
    #[serde(default)]
    digest: Option<String>,
    #[serde(default)]
    auto_pass: Option<String>,
}

impl ChannelsForm {
    fn channels(&self) -> Channels {
        let on = |b: &Option<String>| b.as_deref().is_some_and(|v| !v.is_empty());
        Channels {
            email: on(&self.email),
            webhooks: on(&self.webhooks),
            reminders: on(&self.reminders),
            digest: on(&self.digest),
            auto_pass: on(&self.auto_pass),
        }
    }
}

#[derive(Debug, Deserialize)]
pub struct VacationForm {
    #[serde(default)]
    from: String,
    #[serde(default)]
    until: String,
}

/// A time zone as typed: an IANA name, or empty for UTC.
#[derive(Debug, Deserialize)]
pub struct TimeZoneForm {
    #[serde(default)]
    time_zone: String,
}

#[derive(Debug, Deserialize)]
pub struct HookForm {
    #[serde(default)]
    url: String,
    #[serde(default)]
    scope: String,
    #[serde(default)]
    format: String,
}

#[derive(Debug, Deserialize)]
pub struct Flash {
    saved: Option<String>,
    /// Set by the redirect after a time zone was saved: its name, or empty for UTC.
    zone: Option<String>,
    removed: Option<String>,
    vacation: Option<String>,
}

impl Flash {
    fn message(&self) -> Option<String> {
        if self.saved.is_some() {
            Some("Saved.".into())
        } else if let Some(zone) = &self.zone {
            Some(format!(
                "Deadlines are now written in {}.",
                if zone.is_empty() { "UTC" } else { zone }
            ))
        } else if let Some(hook) = &self.removed {
            Some(format!(
                "Webhook {hook} removed: nothing more is sent to it."
            ))
        } else {
            self.vacation
                .as_ref()
                .map(|days| format!("Your vacation is recorded in the game's log: {days} days."))
        }
    }
}

fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header(("Location", location))
        .insert_header(("Cache-Control", "no-store"))
        .finish()
}

/// What a refused form says on its page again: the page's status and the reason.
struct Refusal {
    status: StatusCode,
    error: String,
}

/// A seat's settings page, with a note, an error, or a new webhook's secret shown once.
async fn seat_page(
    games: &Games,
    caller: &Caller,
    status: StatusCode,
    flash: Option<String>,
    refusal: Option<Refusal>,
    new_hook: Option<Webhook>,
) -> HttpResponse {
    let game_id = &caller.game_id;
    let page = async {
        let l = games.load(game_id).await?;
        let record = l
            .seats
            .iter()
            .find(|s| s.seat == caller.seat.as_str())
            .cloned()
            .ok_or_else(|| {
                ServiceError::NotFound(format!("game {game_id} has no seat {}", caller.seat))
            })?;
        let channels = games.channels(caller).await?;
        let hooks = games.webhooks(caller).await?;
        let policy = games.clock_policy(game_id).await?;
        let time_zone = games.time_zone(caller).await?;
        Ok::<_, ServiceError>(context! {
            time_zone,
            game_id => game_id.as_str(),
            game_name => crate::games::players::name_of_loaded(&l),
            seat_name => record.name,
            email => record.email,
            channels => v(&channels),
            hooks => v(&hooks),
            new_hook => new_hook.as_ref().map(v),
            clocked => policy.is_some(),
            vacation_days => policy.map(|p| p.vacation_days_per_year),
            flash,
            error => refusal.as_ref().map(|r| r.error.clone()),
        })
    }
    .await;
    match page {
        Ok(ctx) => rendered(refusal.map_or(status, |r| r.status), "settings.html", ctx),
        Err(e) => error_page(&e, game_id),
    }
}

/// A refusal of the games service as the form's answer, or the error page when it is not the
/// form's fault.
fn refused(e: ServiceError) -> Result<Refusal, ServiceError> {
    match e {
        ServiceError::BadRequest(m) => Ok(Refusal {
            status: StatusCode::BAD_REQUEST,
            error: format!("{m}. Nothing was changed."),
        }),
        ServiceError::NotFound(m) => Ok(Refusal {
            status: StatusCode::NOT_FOUND,
            error: format!("{m}. Nothing was changed."),
        }),
        e => Err(e),
    }
}

pub async fn seat_get(
    games: web::Data<Games>,
    path: web::Path<String>,
    query: web::Query<Flash>,
    req: HttpRequest,
) -> HttpResponse {
    let caller = match path_seat(&games, &path, &req).await {
        Ok(c) => c,
        Err(page) => return page,
    };
    seat_page(&games, &caller, StatusCode::OK, query.message(), None, None).await
}

/// Saves the seat's channels, reminders and digest.
pub async fn seat_post(
    games: web::Data<Games>,
    path: web::Path<String>,
    form: web::Form<ChannelsForm>,
    req: HttpRequest,
) -> HttpResponse {
    let caller = match path_seat(&games, &path, &req).await {
        Ok(c) => c,
        Err(page) => return page,
    };
    match games.set_channels(&caller, form.channels()).await {
        Ok(_) => see_other(&format!("/games/{}/settings?saved=1", caller.game_id)),
        Err(e) => error_page(&e, &caller.game_id),
    }
}

/// Adds a webhook: the page again, with its secret shown this once (no redirect, which would
/// lose it).
pub async fn hook_add(
    games: web::Data<Games>,
    path: web::Path<String>,
    form: web::Form<HookForm>,
    req: HttpRequest,
) -> HttpResponse {
    let caller = match path_seat(&games, &path, &req).await {
        Ok(c) => c,
        Err(page) => return page,
    };
    let hook = NewWebhook {
        url: form.url.clone(),
        scope: Some(form.scope.clone()).filter(|s| !s.trim().is_empty()),
        format: Some(form.format.clone()).filter(|s| !s.trim().is_empty()),
    };
    match games.add_webhook(&caller, &hook).await {
        Ok(added) => {
            seat_page(
                &games,
                &caller,
                StatusCode::CREATED,
                None,
                None,
                Some(added),
            )
            .await
        }
        Err(e) => match refused(e) {
            Ok(r) => seat_page(&games, &caller, StatusCode::OK, None, Some(r), None).await,
            Err(e) => error_page(&e, &caller.game_id),
        },
    }
}

pub async fn hook_delete(
    games: web::Data<Games>,
    path: web::Path<(String, String)>,
    req: HttpRequest,
) -> HttpResponse {
    let (game_id, hook_id) = path.into_inner();
    let caller = match path_seat(&games, &game_id, &req).await {
        Ok(c) => c,
        Err(page) => return page,
    };
    match games.delete_webhook(&caller, &hook_id).await {
        Ok(()) => see_other(&format!(
            "/games/{game_id}/settings?removed={}",
            urlencoding(&hook_id)
        )),
        Err(e) => match refused(e) {
            Ok(r) => seat_page(&games, &caller, StatusCode::OK, None, Some(r), None).await,
            Err(e) => error_page(&e, &game_id),
        },
    }
}

/// A hook id as a query value: ids are `hook_<hex>`; anything else is left out.
fn urlencoding(id: &str) -> String {
    id.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

pub async fn seat_vacation(
    games: web::Data<Games>,
    path: web::Path<String>,
    form: web::Form<VacationForm>,
    req: HttpRequest,
) -> HttpResponse {
    let caller = match path_seat(&games, &path, &req).await {
        Ok(c) => c,
        Err(page) => return page,
    };
    let taken = match vacation_from_days(&form.from, &form.until, games.clock.now()) {
        Ok(request) => games.take_vacation(&caller, &request).await,
        Err(e) => Err(e),
    };
    match taken {
        Ok(v) => see_other(&format!(
            "/games/{}/settings?vacation={}",
            caller.game_id,
            v["days"].as_i64().unwrap_or_default()
        )),
        Err(e) => match refused(e) {
            Ok(r) => seat_page(&games, &caller, StatusCode::OK, None, Some(r), None).await,
            Err(e) => error_page(&e, &caller.game_id),
        },
    }
}

/// A zone's name as a query value (IANA names are letters, digits, `/`, `_`, `-` and `+`).
fn zone_query(zone: Option<&str>) -> String {
    zone.unwrap_or_default()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '_' | '-'))
        .collect()
}

/// Sets the seat's time zone (empty: UTC); a name that is no zone gets the page again with
/// the reason, and nothing changed.
pub async fn seat_time_zone(
    games: web::Data<Games>,
    path: web::Path<String>,
    form: web::Form<TimeZoneForm>,
    req: HttpRequest,
) -> HttpResponse {
    let caller = match path_seat(&games, &path, &req).await {
        Ok(c) => c,
        Err(page) => return page,
    };
    match games.set_time_zone(&caller, &form.time_zone).await {
        Ok(zone) => see_other(&format!(
            "/games/{}/settings?zone={}",
            caller.game_id,
            zone_query(zone.as_deref())
        )),
        Err(e) => match refused(e) {
            Ok(r) => seat_page(&games, &caller, StatusCode::OK, None, Some(r), None).await,
            Err(e) => error_page(&e, &caller.game_id),
        },
    }
}

/// The address of the request's session, or the sign-in page to answer with.
async fn player(games: &Games, req: &HttpRequest) -> Result<String, HttpResponse> {
    let token = session_cookie::read(req);
    match games.session_email(token.as_deref()).await {
        Ok(email) => Ok(email),
        Err(ServiceError::Unauthorized | ServiceError::Forbidden(_)) => Err(rendered(
            StatusCode::UNAUTHORIZED,
            "login.html",
            context! {
                email => "", flash => None::<String>,
                error => Some("Sign in to see your settings: we email you a link."),
            },
        )),
        Err(e) => Err(error_page(&e, "")),
    }
}

/// One game's answer to a vacation taken in every game, for the page.
#[derive(serde::Serialize)]
struct VacationResult {
    name: String,
    ok: Option<String>,
    error: Option<String>,
}

/// A player's settings page, with a note, a refused form's reason, or the answers of a
/// vacation taken in every game.
async fn player_page(
    games: &Games,
    email: &str,
    flash: Option<String>,
    refusal: Option<Refusal>,
    results: Option<Vec<VacationResult>>,
) -> HttpResponse {
    match games.player_settings(email).await {
        Ok(s) => rendered(
            refusal.as_ref().map_or(StatusCode::OK, |r| r.status),
            "me_settings.html",
            context! {
                email => s.email,
                current => v(&s.current),
                time_zone => s.time_zone,
                seats => v(&s.seats),
                results => results.as_ref().map(v),
                flash,
                error => refusal.map(|r| r.error),
            },
        ),
        Err(e) => error_page(&e, ""),
    }
}

pub async fn me_get(
    games: web::Data<Games>,
    query: web::Query<Flash>,
    req: HttpRequest,
) -> HttpResponse {
    match player(&games, &req).await {
        Ok(email) => player_page(&games, &email, query.message(), None, None).await,
        Err(page) => page,
    }
}

/// Saves the same settings for every seat of the session's address.
pub async fn me_post(
    games: web::Data<Games>,
    form: web::Form<ChannelsForm>,
    req: HttpRequest,
) -> HttpResponse {
    let email = match player(&games, &req).await {
        Ok(email) => email,
        Err(page) => return page,
    };
    match games.set_player_channels(&email, form.channels()).await {
        Ok(_) => see_other("/me/settings?saved=1"),
        Err(e) => error_page(&e, ""),
    }
}

/// Gives every seat of the session's address the time zone typed (empty: UTC).
pub async fn me_time_zone(
    games: web::Data<Games>,
    form: web::Form<TimeZoneForm>,
    req: HttpRequest,
) -> HttpResponse {
    let email = match player(&games, &req).await {
        Ok(email) => email,
        Err(page) => return page,
    };
    match games.set_player_time_zone(&email, &form.time_zone).await {
        Ok(zone) => see_other(&format!(
            "/me/settings?zone={}",
            zone_query(zone.as_deref())
        )),
        Err(e) => match refused(e) {
            Ok(r) => player_page(&games, &email, None, Some(r), None).await,
            Err(e) => error_page(&e, ""),
        },
    }
}

/// Takes a vacation in every clocked game of the session's address; the page lists each
/// game's answer.
pub async fn me_vacation(
    games: web::Data<Games>,
    form: web::Form<VacationForm>,
    req: HttpRequest,
) -> HttpResponse {
    let email = match player(&games, &req).await {
        Ok(email) => email,
        Err(page) => return page,
    };
    let request = match vacation_from_days(&form.from, &form.until, games.clock.now()) {
        Ok(r) => r,
        Err(e) => {
            return match refused(e) {
                Ok(r) => player_page(&games, &email, None, Some(r), None).await,
                Err(e) => error_page(&e, ""),
            }
        }
    };
    match games.player_vacation(&email, &request).await {
        Ok(done) => {
            let results = done
                .into_iter()
                .map(|(name, r)| match r {
                    Ok(ok) => VacationResult {
                        name,
                        ok: Some(ok),
                        error: None,
                    },
                    Err(error) => VacationResult {
                        name,
                        ok: None,
                        error: Some(error),
                    },
                })
                .collect();
            player_page(&games, &email, None, None, Some(results)).await
        }
        Err(e) => error_page(&e, ""),
    }
}
