//! The OpenAPI document, generated from the handlers' annotations. Each operation declares every
//! status it can answer and the security scheme it takes; the tests run openapi-spec-validator
//! over it and schemathesis against a live server (tests/service/openapi.rs), so a handler whose
//! answers drift from its annotation fails there.

use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use super::{account_api, api, files, inbound, notify_api, talk_api};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Despatch",
        description = "Board wargames played asynchronously on an event log with verifiable dice. Seats authenticate with `Authorization: Bearer <seat token>`."
    ),
    paths(
        api::health,
        api::rulesets,
        api::create_game,
        api::summary,
        api::view,
        api::legal_moves,
        api::submit,
        api::resign,
        files::list,
        files::get,
        api::events,
        api::export,
        api::proof,
        notify_api::stream,
        notify_api::channels,
        notify_api::set_channels,
        notify_api::unsubscribe_page,
        notify_api::unsubscribe,
        notify_api::add_webhook,
        notify_api::webhooks,
        notify_api::delete_webhook,
        notify_api::vacation,
        notify_api::clock,
        account_api::login,
        account_api::login_links,
        account_api::me,
        account_api::logout,
        account_api::logout_everywhere,
        account_api::claim,
        account_api::new_link,
        talk_api::read,
        talk_api::say,
        inbound::email,
        inbound::mailgun
    ),
    modifiers(&SecuritySchemes),
    components(schemas(
        api::ErrorBody,
        crate::games::Problem,
        inbound::MailgunRoutePost,
        crate::games::NewGame,
        crate::games::NewSeat,
        crate::games::CreatedGame,
        crate::games::SeatAccess,
        crate::games::MyGame,
        account_api::EmailRequest,
        account_api::MyGames,
        account_api::NewSeatLink,
        talk_api::TalkRequest,
        talk_api::TalkList,
        crate::games::talk::TalkLine,
        crate::games::Summary,
        crate::games::Submit,
        api::MoveWithFiles,
        files::ListedFile,
        crate::games::CommandInput,
        crate::games::MoveResult,
        crate::games::proof::Proof,
        crate::games::NewWebhook,
        crate::games::Webhook,
        crate::games::VacationRequest,
        crate::games::clock::ClockChoice,
        crate::games::clock::ClockPolicy,
        crate::games::clock::OnDeadline
    ))
)]
struct ApiDoc;

/// The security schemes: a seat's token (as a bearer header, or as a link's `?token=`), and the
/// shared secret of the inbound-mail webhook.
struct SecuritySchemes;

impl Modify for SecuritySchemes {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "seat_token",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "A seat's token, shown once when the game is created \
                         (`Authorization: Bearer <seat token>`).",
                    ))
                    .build(),
            ),
        );
        components.add_security_scheme(
            "seat_link",
            SecurityScheme::ApiKey(ApiKey::Query(ApiKeyValue::with_description(
                "token",
                "The same token as a seat link's `?token=`, for clients that cannot send a \
                 header (a notice's link, an EventSource). The header is preferred: a URL can \
                 end up in logs and browser history.",
            ))),
        );
        components.add_security_scheme(
            "session",
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
                "despatch_session",
                "A player's session, set when a sign-in link from `POST /api/login` is \
                 followed (HttpOnly; it opens the player's list of games, no seat).",
            ))),
        );
        components.add_security_scheme(
            "inbound_secret",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "The server's DESPATCH_INBOUND_SECRET, sent by a mail provider's \
                         inbound webhook.",
                    ))
                    .build(),
            ),
        );
    }
}

pub fn document() -> String {
    ApiDoc::openapi()
        .to_pretty_json()
        .expect("the OpenAPI document serialises")
}
