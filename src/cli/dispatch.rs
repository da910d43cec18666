//! `dispatch`: sends the outbox and runs the game clocks without serving HTTP, until stopped or
//! (`--once`) until what is due now is done.

use std::process::ExitCode;

use super::database::{base_url, register, store, Opened};
use super::serve::metrics_on_own_address;
use super::{DispatchArgs, Failure};
use crate::config::Settings;
use crate::games::files::FileStore;
use crate::games::webhook_targets::WebhookTargets;
use crate::games::Games;
use crate::notify::scheduler::Scheduler;

pub(super) async fn run(settings: &Settings, args: DispatchArgs) -> Result<ExitCode, Failure> {
    let DispatchArgs { once } = args;
    let Opened {
        store, link_secret, ..
    } = store(settings).await?;
    let registration = register(&store, "dispatch").await?.keep_alive();
    let base_url = base_url(settings, &store).await?;
    let games = Games::new(store, base_url)
        .with_secret(link_secret.as_deref())
        .with_webhook_targets(WebhookTargets::from_setting(
            &settings.notify.webhook_allow_hosts,
        ))
        .with_files(FileStore::open(&settings.files).map_err(Failure::config)?);
    let dispatcher = crate::notify::dispatcher(&games, &settings.notify)?;
    if !once {
        metrics_on_own_address(&games)?;
    }
    let scheduler = Scheduler::new(games.clone());
    if once {
        let fired = scheduler.tick().await?;
        let sent = dispatcher.drain().await?;
        // What the clocks appended reaches open pages before the process ends.
        games.flush_announcements().await;
        registration.end().await;
        println!(
            "the clocks fired {} time(s); {sent} outbox row(s) handled",
            fired.len()
        );
        return Ok(ExitCode::SUCCESS);
    }
    println!("dispatching ({})", dispatcher.id());
    let clocks = tokio::spawn(scheduler.run(settings.notify.scheduler_every));
    tokio::select! {
        () = dispatcher.run() => {}
        () = stop_asked() => clocks.abort(),
    }
    games.flush_announcements().await;
    registration.end().await;
    Ok(ExitCode::SUCCESS)
}

/// Resolves when the process is asked to stop (Ctrl-C, SIGTERM).
async fn stop_asked() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = term.recv() => {}
                _ = tokio::signal::ctrl_c() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}
