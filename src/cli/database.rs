//! What the commands that touch the database share: opening it (connect, migrate, unlock the
//! secrets at rest; or, for a command that only reads, as it stands), registering the process
//! among those that seal secrets, and the base URL of the links a command beside the service
//! writes.

use crate::config::Settings;
use crate::store::Store;

/// The store, migrated and given its key for secrets at rest, and the secret that signs links.
pub(super) struct Opened {
    pub(super) store: Store,
    /// `DESPATCH_SECRET_KEY`, else the key file's secret; `None` on a database that kept its own
    /// link key before key files existed, so the links already sent stay valid.
    pub(super) link_secret: Option<String>,
    /// The operator's secret the store's key derives from.
    pub(super) secret: String,
}

/// The database `settings` name, migrated and unlocked.
pub(super) async fn store(settings: &Settings) -> Result<Opened, String> {
    store_opening(settings, &[]).await
}

/// `store`, its ring also opening what the `also` secrets sealed (`rotate-key`'s new key).
pub(super) async fn store_opening(settings: &Settings, also: &[String]) -> Result<Opened, String> {
    settings
        .prepare()
        .map_err(|e| format!("cannot create the data directory: {e}"))?;
    let store = Store::connect(&settings.database_url)
        .await
        .map_err(|e| format!("cannot open the database: {e}"))?;
    store
        .migrate()
        .await
        .map_err(|e| format!("cannot migrate the database: {e}"))?;
    let configured = settings.notify.secret_key.as_deref();
    let mut retired = settings.notify.retired_secret_keys.clone();
    retired.extend_from_slice(also);
    let unlocked = store
        .unlock_with(configured, &retired, &settings.key_file)
        .await
        .map_err(|e| e.to_string())?;
    if unlocked.created_key_file {
        tracing::info!(
            "made the key file {} for the secrets at rest: keep it, and keep it out of database backups",
            settings.key_file.display()
        );
    }
    let sealed = unlocked.sealed;
    if sealed.secrets + sealed.webhooks > 0 {
        tracing::info!(
            secrets = sealed.secrets,
            webhooks = sealed.webhooks,
            "sealed the secrets kept in plain text"
        );
    }
    Ok(Opened {
        store: unlocked.store,
        link_secret: unlocked.link_secret,
        secret: unlocked.secret,
    })
}

/// The database `settings` name as it stands, with the key to its secrets at rest: nothing is
/// migrated, sealed or made (no key file), so that a command that only reads (`check`) changes
/// nothing. A database that lacks migrations of this version is refused, naming them.
pub(super) async fn store_as_is(settings: &Settings) -> Result<Store, String> {
    let store = Store::connect(&settings.database_url)
        .await
        .map_err(|e| format!("cannot open the database: {e}"))?;
    let pending = store
        .pending_migrations()
        .await
        .map_err(|e| format!("cannot read the database: {e}"))?;
    if pending > 0 {
        return Err(format!(
            "the database lacks {pending} migration(s) of this version: run `despatch migrate` with this version first (on a copy of the database, before an upgrade: docs/operations.md)"
        ));
    }
    let secret = match &settings.notify.secret_key {
        Some(secret) => secret.clone(),
        None => crate::store::sealing::read_key_file(&settings.key_file)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| {
            format!(
                "no key to open the secrets at rest: DESPATCH_SECRET_KEY is not set and the key file {} does not exist (DESPATCH_KEY_FILE)",
                settings.key_file.display()
            )
        })?,
    };
    let key = crate::store::SecretKey::from_secret(&secret)
        .with_retired(&settings.notify.retired_secret_keys);
    let store = store.with_key(key);
    store
        .check_key()
        .await
        .map_err(|e| format!("cannot open the secrets at rest: {e}"))?;
    Ok(store)
}

/// The base URL of the links a command beside the service writes (`mail-in`, `dispatch`):
/// `DESPATCH_BASE_URL`, else the one `serve` stored when it started (so that the links match
/// the notices'), else `http://<DESPATCH_BIND>`.
pub(super) async fn base_url(settings: &Settings, store: &Store) -> Result<String, String> {
    if let Some(configured) = &settings.base_url {
        return Ok(configured.clone());
    }
    let stored = store
        .service_setting(crate::store::preferences::BASE_URL)
        .await
        .map_err(|e| e.to_string())?;
    Ok(stored.unwrap_or_else(|| {
        tracing::warn!(
            "DESPATCH_BASE_URL is not set and no service has stored its own: links point at http://{}",
            settings.bind
        );
        format!("http://{}", settings.bind)
    }))
}

/// Registers this process among those that seal secrets (`store::processes`), so that
/// `rotate-key` knows it is there, and warns of any live process that cannot open what this one
/// seals: during a key rotation every process must hold the new key before any seals with it.
pub(super) async fn register(
    store: &Store,
    kind: &str,
) -> Result<crate::store::Registration, String> {
    let registration = store
        .register_process(kind)
        .await
        .map_err(|e| format!("cannot start: {e}"))?;
    let ours = &registration.record().primary_key_id;
    match store.live_processes().await {
        Ok(live) => {
            for p in live.iter().filter(|p| !p.key_ids.contains(ours)) {
                tracing::warn!(
                    "{p} cannot open the secrets this process seals with key {ours}: give it this key (as DESPATCH_RETIRED_SECRET_KEYS while it seals with its own) before it meets them (docs/operations.md, \"Rotating the key\")"
                );
            }
        }
        Err(e) => tracing::warn!(error = %e, "cannot read the processes sealing secrets"),
    }
    Ok(registration)
}
