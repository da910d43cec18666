//! The OpenAPI document, generated from the handlers' annotations.

use utoipa::OpenApi;

use super::{api, notify_api};

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
        api::events,
        api::export,
        api::proof,
        notify_api::stream,
        notify_api::channels,
        notify_api::set_channels,
        notify_api::unsubscribe,
        notify_api::add_webhook,
        notify_api::webhooks,
        notify_api::delete_webhook,
        notify_api::vacation,
        notify_api::clock
    ),
    components(schemas(
        crate::games::NewGame,
        crate::games::NewSeat,
        crate::games::CreatedGame,
        crate::games::SeatAccess,
        crate::games::Summary,
        crate::games::Submit,
        crate::games::CommandInput,
        crate::games::MoveResult,
        crate::games::proof::Proof,
        crate::games::NewWebhook,
        crate::games::Webhook,
        crate::games::VacationRequest,
        crate::notify::clock::ClockChoice,
        crate::notify::clock::ClockPolicy,
        crate::notify::clock::OnDeadline
    ))
)]
struct ApiDoc;

pub fn document() -> String {
    ApiDoc::openapi()
        .to_pretty_json()
        .expect("the OpenAPI document serialises")
}
