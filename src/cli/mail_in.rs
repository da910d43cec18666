//! `mail-in`: one email message on standard input, as a mail server hands it to a program,
//! played and answered.

use std::process::ExitCode;

use super::database::{base_url, register};
use super::Failure;
use crate::config::Settings;
use crate::games::Games;
use crate::store::Store;

/// `mail-in`: one message from standard input, answered once. The configuration is checked
/// before any database work; every failure after it is temporary for the mail server (75), so
/// that the message is delivered again rather than lost, and what a player could read in a
/// bounce never holds the error's details: they go to the log.
pub(super) async fn run(settings: &Settings) -> Result<ExitCode, Failure> {
    let domain = settings.notify.dispatch.reply_domain.clone().ok_or_else(|| {
        Failure::config(
            "DESPATCH_REPLY_DOMAIN is not set: there are no reply addresses to answer (set it in the config file, --config)",
        )
    })?;
    if settings.notify.secret_key.is_none() && !settings.key_file.exists() {
        return Err(Failure::config(format!(
            "no key to check reply addresses with: DESPATCH_SECRET_KEY is not set and the key file {} does not exist (DESPATCH_KEY_FILE; `despatch migrate` with the same configuration makes it)",
            settings.key_file.display()
        )));
    }
    let tempfail = |what: &str, e: String| {
        tracing::error!(error = %e, "mail-in: {what}; the mail server will deliver the message again");
        Failure {
            code: crate::config::EX_TEMPFAIL,
            message: format!("{what}; the message will be delivered again later"),
        }
    };
    let mut raw = Vec::new();
    std::io::Read::read_to_end(&mut std::io::stdin(), &mut raw)
        .map_err(|e| tempfail("cannot read the message", e.to_string()))?;
    let store = Store::connect(&settings.database_url)
        .await
        .map_err(|e| tempfail("cannot open the database", e.to_string()))?;
    let pending = store
        .pending_migrations()
        .await
        .map_err(|e| tempfail("cannot read the database", e.to_string()))?;
    if pending > 0 {
        return Err(Failure::config(format!(
            "the database lacks {pending} migration(s) of this version: run `despatch migrate` with the same configuration"
        )));
    }
    let unlocked = store
        .unlock_with(
            settings.notify.secret_key.as_deref(),
            &settings.notify.retired_secret_keys,
            &settings.key_file,
        )
        .await
        .map_err(|e| tempfail("cannot open the database's secrets", e.to_string()))?;
    let base = base_url(settings, &unlocked.store)
        .await
        .map_err(|e| tempfail("cannot read the database", e))?;
    let registration = register(&unlocked.store, "mail-in")
        .await
        .map_err(|e| tempfail("cannot register with the database", e))?;
    let files = crate::games::files::FileStore::open(&settings.files).map_err(Failure::config)?;
    let games = Games::new(unlocked.store, base)
        .with_secret(unlocked.link_secret.as_deref())
        .with_logged_move_rate(crate::games::rate::MoveRate::from_env())
        .with_files(files);
    let receipt = crate::mail_in::receive(&games, &domain, &raw)
        .await
        .map_err(|e| tempfail("cannot handle the message now", e.to_string()))?;
    crate::mail_in::queue(&games, &domain, &receipt)
        .await
        .map_err(|e| tempfail("cannot queue the answer now", e.to_string()))?;
    // The move's announcement to open pages (PostgreSQL's NOTIFY) is sent before the process
    // ends, not left to a task that would end with it.
    games.flush_announcements().await;
    registration.end().await;
    match receipt {
        crate::mail_in::Receipt::Answered { reply, .. } => {
            println!("answered {}: {}", reply.to, reply.subject)
        }
        crate::mail_in::Receipt::Ignored(why) => println!("ignored: {why}"),
    }
    Ok(ExitCode::SUCCESS)
}
