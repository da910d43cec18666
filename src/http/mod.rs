//! The HTTP face of Despatch (actix-web): the JSON API under `/api`, its OpenAPI document,
//! `/health`, and the web table's pages and static files. It holds no game logic.

pub mod account;
pub mod account_api;
pub mod api;
pub mod assets;
pub mod body_deadline;
pub mod boundary;
pub mod csrf;
pub mod error;
pub mod files;
pub mod flash;
pub mod health;
pub mod inbound;
pub mod limits;
pub mod lobby;
pub mod methods;
pub mod notify_api;
pub mod observe;
pub mod openapi;
pub mod page_headers;
pub mod pages;
pub mod routes;
pub mod seat_cookie;
pub mod session_cookie;
pub mod settings;
pub mod talk_api;
pub mod templates;
pub mod uploads;

use std::net::TcpListener;
use std::sync::Arc;

use actix_web::dev::Server;
use actix_web::http::StatusCode;
use actix_web::{web, App, HttpServer};

use crate::games::players::LoginRate;
use crate::games::rate::{CreateRate, MoveRate};
use crate::games::Games;
use crate::games::Store;
use crate::notify::live::Hub;

/// The largest request body accepted.
pub const BODY_LIMIT: usize = 64 * 1024;

/// What the server is handed: where it listens, where players reach it, and what it allows.
/// Nothing here is read from the environment: the command line reads it (`cli::serve`), the
/// tests write it (tests/common/app.rs).
#[derive(Debug, Clone)]
pub struct ServerSettings {
    /// The address to listen on (`DESPATCH_BIND`); port 0 picks a free port.
    pub bind: String,
    /// The address players reach the server at, for links (`DESPATCH_BASE_URL`); `None`: the
    /// bound address. Forms are accepted from its origin (`csrf`), or, without one, from the
    /// Host each request came to.
    pub base_url: Option<String>,
    /// Inbound mail (`POST /api/inbound/email`, Mailgun's route); `None`: not set up.
    pub inbound: Option<inbound::InboundConfig>,
    /// How long a request body may take to arrive (`DESPATCH_BODY_TIMEOUT_SECS`).
    pub body_deadline: body_deadline::BodyDeadline,
    /// The proxies whose `X-Forwarded-For` names the client (`DESPATCH_TRUSTED_PROXIES`).
    pub trusted_proxies: limits::TrustedProxies,
    /// `/metrics` served on this port too (`DESPATCH_METRICS=on`).
    pub metrics: bool,
    /// Each seat's moves (`DESPATCH_MOVE_RATE` / `DESPATCH_MOVE_BURST`); `None`: no limit.
    pub move_rate: Option<MoveRate>,
    /// Games created per client address (`DESPATCH_CREATE_RATE` / `_BURST`); `None`: no limit.
    pub create_rate: Option<MoveRate>,
    /// Sign-in requests per client address (`DESPATCH_LOGIN_RATE` / `_BURST`); `None`: no limit.
    pub login_rate: Option<MoveRate>,
}

impl ServerSettings {
    /// Listening on `bind`, everything else at the service's defaults: links to the bound
    /// address, no inbound mail, no `/metrics`, no trusted proxy, the default limits.
    pub fn new(bind: impl Into<String>) -> ServerSettings {
        ServerSettings {
            bind: bind.into(),
            base_url: None,
            inbound: None,
            body_deadline: body_deadline::BodyDeadline::default(),
            trusted_proxies: limits::TrustedProxies::default(),
            metrics: false,
            move_rate: Some(MoveRate::DEFAULT),
            create_rate: Some(CreateRate::DEFAULT),
            login_rate: Some(LoginRate::DEFAULT),
        }
    }
}

/// A bound, not yet running server. Binding port 0 picks a free port, which tests use.
pub struct Application {
    port: u16,
    games: Games,
    base_url: String,
    server: Server,
}

impl Application {
    /// Binds `settings.bind` and serves the store. `configure` finishes the games service once
    /// its base URL is known (its link secret, its webhook targets; the tests' clock). Must run
    /// inside a Tokio runtime: on PostgreSQL it starts listening for live pushes.
    pub fn build(
        store: Store,
        settings: ServerSettings,
        configure: impl FnOnce(Games) -> Games,
    ) -> std::io::Result<Application> {
        // TLS for outgoing calls (webhooks) uses ring; install it before any client is built.
        crate::notify::webhook::install_crypto();
        let listener = TcpListener::bind(&settings.bind)?;
        let address = listener.local_addr()?;
        let base_url = settings
            .base_url
            .clone()
            .unwrap_or_else(|| format!("http://{address}"));
        // Appends are announced to the streams open on this server through the live hub.
        let hub = Hub::new();
        let service = configure(
            Games::new(store, base_url.clone())
                .with_listener(Arc::new(hub.clone()))
                .with_move_rate(settings.move_rate)
                .with_create_rate(settings.create_rate)
                .with_login_rate(settings.login_rate),
        );
        service.listen_for_appends();
        let shared = Shared {
            games: web::Data::new(service.clone()),
            hub: web::Data::new(hub),
            mail: web::Data::new(settings.inbound),
            proxies: web::Data::new(settings.trusted_proxies),
            deadline: web::Data::new(settings.body_deadline),
            // Forms are accepted from the configured base URL's origin, or, without one, from
            // the Host each request came to (`csrf`).
            origins: web::Data::new(csrf::Origins::new(settings.base_url.as_deref())),
            metrics: settings.metrics,
        };
        let server = HttpServer::new(move || {
            App::new()
                .app_data(shared.games.clone())
                .app_data(shared.hub.clone())
                .app_data(shared.mail.clone())
                .app_data(shared.proxies.clone())
                .app_data(shared.deadline.clone())
                .app_data(shared.origins.clone())
                .configure(extractors)
                .wrap(actix_web::middleware::from_fn(csrf::guard))
                .wrap(actix_web::middleware::from_fn(body_deadline::bound_body))
                .wrap(actix_web::middleware::from_fn(
                    boundary::refuse_control_characters,
                ))
                .wrap(
                    actix_web::middleware::ErrorHandlers::new()
                        .handler(StatusCode::INTERNAL_SERVER_ERROR, error::word_internal),
                )
                .wrap(actix_web::middleware::from_fn(page_headers::on_every_page))
                // Pages, assets and API answers are sent compressed (gzip or brotli) to a client
                // that accepts it; a stream (`/api/games/{id}/stream`) is flushed as it goes.
                .wrap(actix_web::middleware::Compress::default())
                .wrap(actix_web::middleware::from_fn(observe::timed))
                .wrap(observe::access_log())
                .configure(|cfg| {
                    // `/metrics` on this port only when configured (DESPATCH_METRICS=on).
                    if shared.metrics {
                        cfg.route("/metrics", web::get().to(observe::metrics));
                    }
                })
                .configure(routes::configure)
        })
        // A compressed page goes out in several writes (headers, then the encoder's chunks):
        // with Nagle's algorithm on, the last waits for the reader's delayed ACK, 40 ms on
        // Linux, on every such answer (BENCHMARKS.md, "Every ruleset's seat page").
        .tcp_nodelay(true)
        .listen(listener)?
        .run();
        Ok(Application {
            port: address.port(),
            games: service,
            base_url,
            server,
        })
    }

    /// The games service the server runs (to start a dispatcher beside it).
    pub fn games(&self) -> &Games {
        &self.games
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// The address players reach this server at.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.server.await
    }
}

/// What every worker's app is given.
struct Shared {
    games: web::Data<Games>,
    hub: web::Data<Hub>,
    mail: web::Data<Option<inbound::InboundConfig>>,
    proxies: web::Data<limits::TrustedProxies>,
    deadline: web::Data<body_deadline::BodyDeadline>,
    origins: web::Data<csrf::Origins>,
    metrics: bool,
}

/// How the extractors read a request, and what they answer when they cannot: bodies bounded by
/// `BODY_LIMIT`; a bad query answered with a page on a page route, in JSON in the API.
fn extractors(cfg: &mut web::ServiceConfig) {
    cfg.app_data(
        web::JsonConfig::default()
            .limit(BODY_LIMIT)
            .error_handler(|err, _req| {
                let too_large = matches!(
                    err,
                    actix_web::error::JsonPayloadError::OverflowKnownLength { .. }
                        | actix_web::error::JsonPayloadError::Overflow { .. }
                );
                error::bad_body(
                    format!("the request body could not be read: {err}"),
                    too_large,
                )
            }),
    )
    .app_data(web::PayloadConfig::default().limit(BODY_LIMIT))
    .app_data(web::QueryConfig::default().error_handler(|err, req| {
        // A page's bad query is answered with a page, the API's in JSON.
        if page_headers::is_page_route(req.path()) {
            pages::query_error(err, req.query_string())
        } else {
            error::bad_body(format!("bad query: {err}"), false)
        }
    }))
    .app_data(
        web::PathConfig::default()
            .error_handler(|err, _req| error::bad_body(format!("bad path: {err}"), false)),
    )
    .app_data(
        web::FormConfig::default()
            .limit(BODY_LIMIT)
            .error_handler(|err, _req| pages::form_error(err)),
    );
}
