//! `rotate-key`: re-seals every secret at rest under a new key, in one transaction.

use std::process::ExitCode;

use super::database::store_opening;
use super::{Failure, RotateKeyArgs};
use crate::config::Settings;

pub(super) async fn run(settings: &Settings, args: RotateKeyArgs) -> Result<ExitCode, Failure> {
    let (new, next) = new_secret(args.new_key_file.as_deref())?;
    let retiring = !settings.notify.retired_secret_keys.is_empty();
    // The servers may already seal with the new key (the safe way, docs/operations.md):
    // this command opens what it sealed too.
    let opened = store_opening(settings, std::slice::from_ref(&new)).await?;
    if new == opened.secret && !retiring {
        return Err("the new key is the key in use: give another".into());
    }
    let new_key = crate::store::SecretKey::from_secret(&new);
    let done = opened
        .store
        .rotate_key(&new_key)
        .await
        .map_err(|e| format!("nothing was changed: {e}"))?;
    println!(
        "re-sealed {} secret(s) and {} webhook secret(s) under the new key (id {}); the old key opens none of them now.\n{next}.",
        done.secrets, done.webhooks, new_key.id()
    );
    if retiring {
        println!("The keys in DESPATCH_RETIRED_SECRET_KEYS open nothing now: remove them, and restart the servers.");
    }
    if opened.link_secret.is_some() && new != opened.secret {
        println!("Links signed with the old key (seat links, unsubscribe links, reply addresses) no longer open.");
    }
    Ok(ExitCode::SUCCESS)
}

/// `rotate-key`: the new secret, from `DESPATCH_NEW_SECRET_KEY` or `--new-key-file` (made with
/// a random key if it does not exist), and a line saying where it is.
fn new_secret(file: Option<&std::path::Path>) -> Result<(String, String), String> {
    let from_env = std::env::var("DESPATCH_NEW_SECRET_KEY")
        .ok()
        .filter(|v| !v.trim().is_empty());
    match (from_env, file) {
        (Some(_), Some(_)) => Err(
            "give the new key once: DESPATCH_NEW_SECRET_KEY or --new-key-file, not both".into(),
        ),
        (None, None) => Err(
            "give the new key: --new-key-file FILE (made if it does not exist) or DESPATCH_NEW_SECRET_KEY"
                .into(),
        ),
        (Some(secret), None) => Ok((
            secret,
            "start Despatch with DESPATCH_SECRET_KEY set to the new key".into(),
        )),
        (None, Some(path)) => {
            let secret = match crate::store::sealing::read_key_file(path) {
                Ok(Some(secret)) => secret,
                Ok(None) => {
                    crate::store::sealing::create_key_file(path).map_err(|e| e.to_string())?
                }
                Err(e) => return Err(e.to_string()),
            };
            Ok((
                secret,
                format!(
                    "start Despatch with DESPATCH_KEY_FILE={} (or move it to where DESPATCH_KEY_FILE points), and DESPATCH_SECRET_KEY unset",
                    path.display()
                ),
            ))
        }
    }
}
