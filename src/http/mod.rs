//! The HTTP face of Despatch (actix-web): the JSON API under `/api`, its OpenAPI document,
//! `/health`, and the web table's pages and static files. It holds no game logic.

pub mod api;
pub mod assets;
pub mod error;
pub mod inbound;
pub mod openapi;
pub mod pages;
pub mod templates;

use std::net::TcpListener;

use actix_web::dev::Server;
use actix_web::{web, App, HttpServer};

use crate::games::Games;
use crate::store::Store;

/// The largest request body accepted.
pub const BODY_LIMIT: usize = 64 * 1024;

/// A bound, not yet running server. Binding port 0 picks a free port, which tests use.
pub struct Application {
    port: u16,
    base_url: String,
    server: Server,
}

impl Application {
    /// Binds `bind` and serves the store. Links point at `base_url`, or at the bound address
    /// when none is configured.
    pub fn build(
        store: Store,
        bind: &str,
        base_url: Option<String>,
    ) -> std::io::Result<Application> {
        Self::build_with_mail(store, bind, base_url, None)
    }

    /// As `build`, answering inbound mail at `POST /api/inbound/email` when `mail` is given.
    pub fn build_with_mail(
        store: Store,
        bind: &str,
        base_url: Option<String>,
        mail: Option<inbound::InboundConfig>,
    ) -> std::io::Result<Application> {
        let mail = web::Data::new(mail);
        let listener = TcpListener::bind(bind)?;
        let address = listener.local_addr()?;
        let port = address.port();
        let base_url = base_url.unwrap_or_else(|| format!("http://{address}"));
        let games = web::Data::new(Games::new(store, base_url.clone()));
        let server =
            HttpServer::new(move || {
                App::new()
                    .app_data(games.clone())
                    .app_data(mail.clone())
                    .app_data(web::JsonConfig::default().limit(BODY_LIMIT).error_handler(
                        |err, _req| {
                            let too_large = matches!(
                                err,
                                actix_web::error::JsonPayloadError::OverflowKnownLength { .. }
                                    | actix_web::error::JsonPayloadError::Overflow { .. }
                            );
                            error::bad_body(
                                format!("the request body could not be read: {err}"),
                                too_large,
                            )
                        },
                    ))
                    .app_data(web::PayloadConfig::default().limit(BODY_LIMIT))
                    .app_data(web::QueryConfig::default().error_handler(|err, _req| {
                        error::bad_body(format!("bad query: {err}"), false)
                    }))
                    .app_data(web::PathConfig::default().error_handler(|err, _req| {
                        error::bad_body(format!("bad path: {err}"), false)
                    }))
                    .app_data(
                        web::FormConfig::default()
                            .limit(BODY_LIMIT)
                            .error_handler(|err, _req| pages::form_error(err)),
                    )
                    .wrap(actix_web::middleware::Logger::new("%r %s %Dms"))
                    .service(api::health)
                    .service(
                        web::scope("/api")
                            .service(api::openapi)
                            .service(api::rulesets)
                            .service(api::create_game)
                            .service(api::summary)
                            .service(api::view)
                            .service(api::legal_moves)
                            .service(api::submit)
                            .service(api::resign)
                            .service(api::events)
                            .service(api::export)
                            .service(api::proof)
                            .service(
                                web::resource("/inbound/email")
                                    .app_data(
                                        web::PayloadConfig::default().limit(inbound::MAX_BYTES),
                                    )
                                    .route(web::post().to(inbound::email)),
                            ),
                    )
                    .service(assets::asset)
                    .service(pages::lobby_page)
                    .service(pages::create_game)
                    .service(pages::game)
                    .service(pages::watch_page)
                    .service(pages::submit_move)
                    .service(pages::replay)
                    .service(pages::audit)
                    .service(pages::verify_get)
                    .service(
                        web::resource("/verify")
                            .app_data(web::PayloadConfig::default().limit(pages::VERIFY_LIMIT))
                            .app_data(
                                web::FormConfig::default()
                                    .limit(pages::VERIFY_LIMIT)
                                    .error_handler(|err, _req| pages::verify_form_error(err)),
                            )
                            .route(web::post().to(pages::verify_post)),
                    )
            })
            .listen(listener)?
            .run();
        Ok(Application {
            port,
            base_url,
            server,
        })
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
