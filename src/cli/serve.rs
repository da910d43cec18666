//! `serve`: the HTTP service, and (unless `DESPATCH_DISPATCHER=off`) a dispatcher and the
//! clocks' scheduler beside it.

use std::process::ExitCode;

use super::database::{register, store, Opened};
use super::Failure;
use crate::config::Settings;
use crate::games::files::FileStore;
use crate::games::players::LoginRate;
use crate::games::rate::{CreateRate, MoveRate};
use crate::games::webhook_targets::WebhookTargets;
use crate::games::Games;
use crate::http::body_deadline::BodyDeadline;
use crate::http::inbound::InboundConfig;
use crate::http::limits::TrustedProxies;
use crate::http::{Application, ServerSettings};
use crate::notify::scheduler::Scheduler;

pub(super) async fn run(settings: &Settings) -> Result<ExitCode, Failure> {
    crate::metrics::Exposure::from_env().map_err(|e| e.to_string())?;
    let Opened {
        store,
        link_secret: secret,
        ..
    } = store(settings).await?;
    let registration = register(&store, "serve").await?.keep_alive();
    let backend = store.backend();
    let targets = WebhookTargets::from_setting(&settings.notify.webhook_allow_hosts);
    let files = FileStore::open(&settings.files).map_err(Failure::config)?;
    let app = Application::build(store, server_settings(settings)?, |games| {
        games
            .with_secret(secret.as_deref())
            .with_webhook_targets(targets)
            .with_files(files)
    })
    .map_err(|e| format!("cannot listen on {}: {e}", settings.bind))?;
    metrics_on_own_address(app.games())?;
    // Commands run beside the service (`mail-in` from the mail server) read it, so
    // that their links are the notices' own.
    app.games()
        .keep_base_url(app.base_url())
        .await
        .map_err(|e| format!("cannot store the base URL: {e}"))?;
    if settings.notify.run_in_serve {
        start_dispatching(app.games(), settings)?;
    }
    tracing::info!(
        database = backend,
        "Despatch listening on {}",
        app.base_url()
    );
    println!(
        "Despatch is listening on {} ({backend} database)",
        app.base_url()
    );
    let games = app.games().clone();
    let stopped = app.run_until_stopped().await;
    games.flush_announcements().await;
    registration.end().await;
    stopped.map_err(|e| e.to_string())?;
    Ok(ExitCode::SUCCESS)
}

/// What the server is handed: the configuration's addresses and inbound mail, and the limits
/// read from the environment here, at the edge.
fn server_settings(settings: &Settings) -> Result<ServerSettings, String> {
    let body_deadline = BodyDeadline::from_env();
    let metrics = crate::metrics::Exposure::from_env()
        .map_err(|e| e.to_string())?
        .on_api_port;
    Ok(ServerSettings {
        bind: settings.bind.clone(),
        base_url: settings.base_url.clone(),
        inbound: Some(InboundConfig {
            domain: settings.notify.dispatch.reply_domain.clone(),
            secret: settings.inbound_secret.clone(),
            mailgun_signing_key: settings.mailgun_signing_key.clone(),
        }),
        body_deadline,
        metrics,
        trusted_proxies: TrustedProxies::from_env(),
        move_rate: MoveRate::from_env(),
        create_rate: CreateRate::from_env(),
        login_rate: LoginRate::from_env(),
    })
}

/// A dispatcher for the outbox and the clocks' scheduler, run beside the server.
fn start_dispatching(games: &Games, settings: &Settings) -> Result<(), String> {
    let games = games.clone();
    let dispatcher = crate::notify::dispatcher(&games, &settings.notify)?;
    tokio::spawn(dispatcher.run());
    tokio::spawn(Scheduler::new(games).run(settings.notify.scheduler_every));
    Ok(())
}

/// Serves `/metrics` on an address of its own when `DESPATCH_METRICS_BIND` asks for it.
pub(super) fn metrics_on_own_address(games: &Games) -> Result<(), String> {
    let exposure = crate::metrics::Exposure::from_env().map_err(|e| e.to_string())?;
    if let Some(bind) = exposure.bind {
        let (server, address) = crate::http::observe::metrics_server(&bind, games.clone())
            .map_err(|e| format!("cannot serve metrics on {bind} (DESPATCH_METRICS_BIND): {e}"))?;
        tokio::spawn(server);
        tracing::info!("metrics at http://{address}/metrics");
        println!("Metrics are served at http://{address}/metrics");
    }
    Ok(())
}
