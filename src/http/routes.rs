//! Every path the server serves, one resource each with a handler per method.
//!
//! A resource is declared once, with its methods and their handlers (`resource`); the router
//! answers a method it lacks with `405 Method Not Allowed` and those methods in `Allow`
//! (`methods::not_allowed`), and a path no resource matches with 404 (`methods::not_found`).
//! The same declarations list the paths and methods for the test that holds them to the
//! OpenAPI document (`methods::routes`).

use actix_web::http::Method;
use actix_web::web::{self, to};
use actix_web::{Resource, Route};

use super::{
    account, account_api, api, assets, files, inbound, lobby, methods, notify_api, pages, settings,
    talk_api,
};

/// One path, the methods it answers and the resource that serves them.
pub struct Served {
    pub path: &'static str,
    pub methods: Vec<Method>,
    pub resource: Resource,
}

impl Served {
    /// The resource with more set on it (its own body limits).
    fn with(mut self, set: impl FnOnce(Resource) -> Resource) -> Served {
        self.resource = set(self.resource);
        self
    }
}

/// `path` answering each method with its handler, and any other method with 405 and `Allow`.
fn resource<const N: usize>(path: &'static str, handlers: [(Method, Route); N]) -> Served {
    let mut methods: Vec<Method> = handlers.iter().map(|(method, _)| method.clone()).collect();
    methods.sort_unstable_by(|a, b| a.as_str().cmp(b.as_str()));
    let allow = methods::allow(&methods);
    let mut resource = web::resource(path).default_service(web::to(move |req| {
        let allow = allow.clone();
        async move { methods::not_allowed(req, &allow) }
    }));
    for (method, route) in handlers {
        resource = resource.route(route.method(method));
    }
    Served {
        path,
        methods,
        resource,
    }
}

/// Every path of the server, in the order the router tries them: the API under `/api`, the
/// pages, the files.
pub fn served() -> Vec<Served> {
    use Method as M;
    vec![
        resource("/health", [(M::GET, to(api::health))]),
        resource("/api/openapi.json", [(M::GET, to(api::openapi))]),
        resource("/api/rulesets", [(M::GET, to(api::rulesets))]),
        resource("/api/games", [(M::POST, to(api::create_game))]),
        resource("/api/games/{game_id}", [(M::GET, to(api::summary))]),
        resource("/api/games/{game_id}/view", [(M::GET, to(api::view))]),
        resource(
            "/api/games/{game_id}/moves",
            [(M::GET, to(api::legal_moves)), (M::POST, to(api::submit))],
        ),
        resource("/api/games/{game_id}/resign", [(M::POST, to(api::resign))]),
        resource("/api/games/{game_id}/files", [(M::GET, to(files::list))]),
        resource(
            "/api/games/{game_id}/files/{sha256}",
            [(M::GET, to(files::get))],
        ),
        resource("/api/games/{game_id}/events", [(M::GET, to(api::events))]),
        resource("/api/games/{game_id}/export", [(M::GET, to(api::export))]),
        resource(
            "/api/games/{game_id}/events/{seq}/proof",
            [(M::GET, to(api::proof))],
        ),
        resource(
            "/api/games/{game_id}/stream",
            [(M::GET, to(notify_api::stream))],
        ),
        resource(
            "/api/games/{game_id}/channels",
            [
                (M::GET, to(notify_api::channels)),
                (M::PUT, to(notify_api::set_channels)),
            ],
        ),
        resource(
            "/api/games/{game_id}/unsubscribe",
            [
                (M::GET, to(notify_api::unsubscribe_page)),
                (M::POST, to(notify_api::unsubscribe)),
            ],
        ),
        resource(
            "/api/games/{game_id}/webhooks",
            [
                (M::POST, to(notify_api::add_webhook)),
                (M::GET, to(notify_api::webhooks)),
            ],
        ),
        resource(
            "/api/games/{game_id}/webhooks/{hook_id}",
            [(M::DELETE, to(notify_api::delete_webhook))],
        ),
        resource(
            "/api/games/{game_id}/vacation",
            [(M::POST, to(notify_api::vacation))],
        ),
        resource(
            "/api/games/{game_id}/clock",
            [(M::GET, to(notify_api::clock))],
        ),
        resource("/api/login", [(M::POST, to(account_api::login))]),
        resource(
            "/api/login/links",
            [(M::POST, to(account_api::login_links))],
        ),
        resource("/api/me", [(M::GET, to(account_api::me))]),
        resource(
            "/api/logout/everywhere",
            [(M::POST, to(account_api::logout_everywhere))],
        ),
        resource("/api/logout", [(M::POST, to(account_api::logout))]),
        resource(
            "/api/games/{game_id}/claim",
            [(M::POST, to(account_api::claim))],
        ),
        resource(
            "/api/games/{game_id}/new-link",
            [(M::POST, to(account_api::new_link))],
        ),
        resource(
            "/api/games/{game_id}/talk",
            [(M::GET, to(talk_api::read)), (M::POST, to(talk_api::say))],
        ),
        resource("/api/inbound/email", [(M::POST, to(inbound::email))])
            .with(|r| r.app_data(web::PayloadConfig::default().limit(inbound::MAX_BYTES))),
        // Reads its own body, bounded (inbound::MAILGUN_MAX_BYTES).
        resource(
            "/api/inbound/mailgun/mime",
            [(M::POST, to(inbound::mailgun))],
        ),
        resource("/static/{name}", [(M::GET, to(assets::asset))]),
        resource("/", [(M::GET, to(lobby::lobby_page))]),
        resource("/games", [(M::POST, to(lobby::create_game))]),
        resource("/games/{game_id}", [(M::GET, to(pages::game))]),
        resource("/games/{game_id}/watch", [(M::GET, to(pages::watch_page))]),
        resource(
            "/games/{game_id}/moves",
            [
                (M::GET, to(pages::moves_get)),
                (M::POST, to(pages::submit_move)),
            ],
        ),
        resource("/games/{game_id}/resign", [(M::POST, to(pages::resign))]),
        resource(
            "/games/{game_id}/files/{sha256}/{name}",
            [(M::GET, to(files::page_get))],
        ),
        resource("/games/{game_id}/talk", [(M::POST, to(pages::talk))]),
        resource("/games/{game_id}/replay", [(M::GET, to(pages::replay))]),
        resource(
            "/games/{game_id}/events/{seq}",
            [(M::GET, to(pages::audit))],
        ),
        resource(
            "/login",
            [
                (M::GET, to(account::login_get)),
                (M::POST, to(account::login_post)),
            ],
        ),
        resource(
            "/login/confirm",
            [
                (M::GET, to(account::confirm_get)),
                (M::POST, to(account::confirm_post)),
            ],
        ),
        resource("/me", [(M::GET, to(account::me))]),
        resource(
            "/logout/everywhere",
            [(M::POST, to(account::logout_everywhere))],
        ),
        resource("/logout", [(M::POST, to(account::logout))]),
        resource("/games/{game_id}/claim", [(M::POST, to(account::claim))]),
        resource(
            "/games/{game_id}/new-link",
            [(M::POST, to(account::new_link))],
        ),
        resource(
            "/games/{game_id}/claim/confirm",
            [
                (M::GET, to(account::claim_confirm_get)),
                (M::POST, to(account::claim_confirm_post)),
            ],
        ),
        resource(
            "/games/{game_id}/settings",
            [
                (M::GET, to(settings::seat_get)),
                (M::POST, to(settings::seat_post)),
            ],
        ),
        resource(
            "/games/{game_id}/settings/webhooks",
            [(M::POST, to(settings::hook_add))],
        ),
        resource(
            "/games/{game_id}/settings/webhooks/{hook_id}/delete",
            [(M::POST, to(settings::hook_delete))],
        ),
        resource(
            "/games/{game_id}/settings/vacation",
            [(M::POST, to(settings::seat_vacation))],
        ),
        resource(
            "/games/{game_id}/settings/time-zone",
            [(M::POST, to(settings::seat_time_zone))],
        ),
        resource(
            "/me/settings",
            [
                (M::GET, to(settings::me_get)),
                (M::POST, to(settings::me_post)),
            ],
        ),
        resource(
            "/me/settings/vacation",
            [(M::POST, to(settings::me_vacation))],
        ),
        resource(
            "/me/settings/time-zone",
            [(M::POST, to(settings::me_time_zone))],
        ),
        resource(
            "/verify",
            [
                (M::GET, to(pages::verify_get)),
                (M::POST, to(pages::verify_post)),
            ],
        )
        .with(|r| {
            // The POST's bounds; a GET has no body.
            r.app_data(web::PayloadConfig::default().limit(pages::VERIFY_LIMIT))
                .app_data(
                    web::FormConfig::default()
                        .limit(pages::VERIFY_LIMIT)
                        .error_handler(|err, _req| pages::verify_form_error(err)),
                )
        }),
    ]
}

/// Registers every resource; a path none matches answers 404.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.default_service(web::to(methods::not_found));
    for served in served() {
        cfg.service(served.resource);
    }
}
