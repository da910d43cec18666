//! The store's upkeep of secrets at rest (`sealing`): telling whether a database already holds
//! sealed secrets (so a missing key is an error, not a fresh start), checking that a key opens
//! them, sealing the plain-text rows a database kept before sealing existed, and re-sealing every
//! secret under a new key — but only while no live process (`processes`) would be left behind. These are the only queries that scan every game's secrets; each runs
//! at start-up or from the command line, never on a move's path.
//!
//! The SQL migrations cannot seal anything — the key is not in the database — so the rows of an
//! older database are sealed here, by `seal_plain_rows`, once the server knows its key.

use std::path::Path;

use sqlx::Row;

use super::processes::{self, ProcessRecord};
use super::sealing::{self, is_sealed, RowId, SecretKey};
use super::{Result, Store, StoreError};

/// How many rows an upkeep pass sealed anew.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Resealed {
    /// Rows of `secrets`.
    pub secrets: u64,
    /// Webhook secrets.
    pub webhooks: u64,
}

/// A store given its key, as a server starts (`Store::unlock`).
pub struct Unlocked {
    pub store: Store,
    /// The operator's secret the key derives from: `DESPATCH_SECRET_KEY` or the key file's.
    pub secret: String,
    /// The secret that signs links (`Games::with_secret`): the operator's secret, always.
    pub link_secret: Option<String>,
    /// Whether the key file was made just now (a fresh database).
    pub created_key_file: bool,
    /// The plain-text rows sealed just now (a database from before sealing).
    pub sealed: Resealed,
}

/// One stored secret, as read for upkeep.
#[derive(sqlx::FromRow)]
struct Stored {
    game_id: String,
    /// The secret's name, or the hook's id.
    name: String,
    seat: Option<String>,
    value: String,
}

impl Stored {
    fn row(&self, webhook: bool) -> RowId<'_> {
        if webhook {
            RowId::Webhook {
                game_id: &self.game_id,
                hook_id: &self.name,
            }
        } else {
            RowId::Secret {
                game_id: &self.game_id,
                name: &self.name,
                seat: self.seat.as_deref(),
            }
        }
    }
}

const SECRETS: &str = "SELECT game_id, name, seat, value FROM secrets ORDER BY game_id, name";
const WEBHOOKS: &str =
    "SELECT game_id, hook_id AS name, NULL AS seat, secret AS value FROM webhooks ORDER BY game_id, hook_id";
// A sealed value starts `v2:` (naming its key) or `v1:` (from before key ids); anything else
// is plain text.
const PLAIN_SECRETS: &str = "SELECT game_id, name, seat, value FROM secrets WHERE substr(value, 1, 3) NOT IN ('v1:', 'v2:') ORDER BY game_id, name";
const PLAIN_WEBHOOKS: &str = "SELECT game_id, hook_id AS name, NULL AS seat, secret AS value FROM webhooks WHERE substr(secret, 1, 3) NOT IN ('v1:', 'v2:') ORDER BY game_id, hook_id";
const ANY_PLAIN: &str = "SELECT (SELECT count(*) FROM (SELECT 1 FROM secrets WHERE substr(value, 1, 3) NOT IN ('v1:', 'v2:') LIMIT 1) s) + (SELECT count(*) FROM (SELECT 1 FROM webhooks WHERE substr(secret, 1, 3) NOT IN ('v1:', 'v2:') LIMIT 1) w)";
/// How many values each key sealed: its id, or '' for `v1:` values, which name none.
const KEYS_IN_USE: &str = "SELECT kid, count(*) AS n FROM (\
 SELECT CASE WHEN substr(value, 1, 3) = 'v2:' THEN substr(value, 4, 16) ELSE '' END AS kid FROM secrets WHERE substr(value, 1, 3) IN ('v1:', 'v2:') \
 UNION ALL SELECT CASE WHEN substr(secret, 1, 3) = 'v2:' THEN substr(secret, 4, 16) ELSE '' END AS kid FROM webhooks WHERE substr(secret, 1, 3) IN ('v1:', 'v2:')\
) k GROUP BY kid ORDER BY kid";
const UPDATE_SECRET: &str =
    "UPDATE secrets SET value = $3 WHERE game_id = $1 AND name = $2 AND value = $4";
const UPDATE_WEBHOOK: &str =
    "UPDATE webhooks SET secret = $3 WHERE game_id = $1 AND hook_id = $2 AND secret = $4";
const ANY_SEALED: &str =
    "SELECT game_id, name, seat, value FROM secrets WHERE substr(value, 1, 3) IN ('v1:', 'v2:') LIMIT 1";
const ANY_SEALED_WEBHOOK: &str = "SELECT game_id, hook_id AS name, NULL AS seat, secret AS value FROM webhooks WHERE substr(secret, 1, 3) IN ('v1:', 'v2:') LIMIT 1";

/// What a pass over every stored secret does to one value: `None` leaves it as it is.
type Rewrite<'a> = dyn Fn(RowId<'_>, &str) -> Result<Option<String>> + Send + Sync + 'a;

/// Why a store could not be given its key, for the operator: what to set or restore.
#[derive(Debug, thiserror::Error)]
pub enum UnlockError {
    #[error(transparent)]
    KeyFile(#[from] sealing::KeyFileError),
    #[error("the database holds sealed secrets (dice chains, hidden seeds, sealed choices, webhook secrets) but there is no key to open them: set DESPATCH_SECRET_KEY, or DESPATCH_KEY_FILE to the file holding the key they were sealed with ({} does not exist). Despatch makes a new key only for a database with no sealed secrets.", .0.display())]
    NoKey(std::path::PathBuf),
    #[error("cannot open the secrets at rest: {0}")]
    Open(StoreError),
    #[error("cannot seal the secrets kept in plain text: {0}")]
    SealPlain(StoreError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What a pass asks of the live processes before it writes anything (`rotate_key`): an error
/// refuses the pass.
type Guard<'a> = dyn Fn(&[ProcessRecord]) -> Result<()> + Send + Sync + 'a;

impl Store {
    /// Gives a migrated store its key for secrets at rest, as every command that opens the
    /// database does: the `configured` secret (`DESPATCH_SECRET_KEY`) if there is one, else the
    /// one in `key_file`. The key file is made — 32 random bytes, readable by its owner only —
    /// only while the database holds no sealed secret, so a fresh install needs no set-up; with
    /// sealed secrets and no key, or a key that does not open them, it refuses with a message
    /// saying what to set. Then it seals any rows still in plain text.
    pub async fn unlock(
        self,
        configured: Option<&str>,
        key_file: &Path,
    ) -> Result<Unlocked, UnlockError> {
        self.unlock_with(configured, &[], key_file).await
    }

    /// `unlock`, with the `retired` secrets (`DESPATCH_RETIRED_SECRET_KEYS`) in the ring: they
    /// open what they sealed and seal nothing. Links are signed with the primary secret only: a
    /// retired key may be one that leaked.
    pub async fn unlock_with(
        self,
        configured: Option<&str>,
        retired: &[String],
        key_file: &Path,
    ) -> Result<Unlocked, UnlockError> {
        let mut created_key_file = false;
        let secret = match configured {
            Some(secret) => secret.to_owned(),
            None => match sealing::read_key_file(key_file)? {
                Some(secret) => secret,
                None => {
                    if self.holds_sealed_secrets().await? {
                        return Err(UnlockError::NoKey(key_file.to_owned()));
                    }
                    match sealing::create_key_file(key_file) {
                        Ok(secret) => {
                            created_key_file = true;
                            secret
                        }
                        // Another process made it first: use theirs.
                        Err(why) => sealing::read_key_file(key_file)?.ok_or(why)?,
                    }
                }
            },
        };
        let store = self.with_key(SecretKey::from_secret(&secret).with_retired(retired));
        store.check_key().await.map_err(UnlockError::Open)?;
        let sealed = store
            .seal_plain_rows()
            .await
            .map_err(UnlockError::SealPlain)?;
        // Links are signed with the operator's secret, kept outside the database, always: a
        // link key kept in the database (older databases; a service built without a secret)
        // would let a copy of the database open every seat (issue 35).
        let link_secret = Some(secret.clone());
        Ok(Unlocked {
            store,
            secret,
            link_secret,
            created_key_file,
            sealed,
        })
    }

    /// Whether the database holds any sealed secret (a dice chain, a hidden seed, a sealed
    /// choice or a webhook's secret). A server with no key may start afresh only when it does
    /// not: a new key would orphan them.
    pub async fn holds_sealed_secrets(&self) -> Result<bool> {
        Ok(self.any_sealed().await?.is_some())
    }

    /// Checks that the store's key opens the secrets already sealed in the database, so a wrong
    /// key is refused at start-up rather than at the next die rolled.
    /// Every key that sealed a value must be in the ring, so a server started without a key
    /// still in use (a retired key dropped before `rotate-key` ran) is refused too.
    pub async fn check_key(&self) -> Result<()> {
        let key = self.key()?;
        if let Some((webhook, stored)) = self.any_sealed().await? {
            key.open(stored.row(webhook), &stored.value)?;
        }
        let missing: Vec<String> = self
            .keys_in_use()
            .await?
            .into_iter()
            .filter(|(id, _)| !id.is_empty() && !key.holds(id))
            .map(|(id, n)| format!("{n} under key {id}"))
            .collect();
        if !missing.is_empty() {
            return Err(StoreError::Sealing(format!(
                "secrets at rest are sealed with keys this process does not hold ({}; it holds {}): give it those keys (DESPATCH_SECRET_KEY or the key file, or DESPATCH_RETIRED_SECRET_KEYS), or re-seal them with `despatch rotate-key` run with them",
                missing.join(", "),
                key.ids().join(", ")
            )));
        }
        Ok(())
    }

    /// How many sealed values each key id sealed (`''`: values from before key ids).
    pub async fn keys_in_use(&self) -> Result<Vec<(String, i64)>> {
        db_run!(self, reader pool => {
            let rows = sqlx::query(KEYS_IN_USE).fetch_all(pool).await?;
            rows.iter()
                .map(|r| Ok((r.try_get("kid")?, r.try_get("n")?)))
                .collect::<Result<Vec<_>>>()
        })
    }

    /// Seals, with the store's key, every secret still stored in plain text (written before
    /// secrets were sealed), in one transaction.
    /// Only the plain rows are read, and a database with none (every start after the first)
    /// takes no lock.
    pub async fn seal_plain_rows(&self) -> Result<Resealed> {
        let key = self.key()?.clone();
        let any: i64 = db_run!(self, reader pool => {
            sqlx::query_scalar(ANY_PLAIN).fetch_one(pool).await?
        });
        if any == 0 {
            return Ok(Resealed::default());
        }
        self.rewrite_all([PLAIN_SECRETS, PLAIN_WEBHOOKS], None, &move |row, value| {
            Ok((!is_sealed(value)).then(|| key.seal(row, value)))
        })
        .await
    }

    /// Re-seals every secret under `new`'s primary key, in one transaction: each is opened with
    /// the store's keyring or `new`'s (and must open) and sealed again with `new`; values
    /// already sealed with it are left as they are. Afterwards only `new` is needed to open them.
    ///
    /// It refuses, changing nothing, while a live process (`processes`) does not seal with
    /// `new` already: one that cannot open it would fail on the re-sealed values, and one that
    /// still seals under another key would go on writing values under a key about to be
    /// dropped. The check and the pass are one transaction that new processes' rows wait for
    /// (a table lock on PostgreSQL, `BEGIN IMMEDIATE` on SQLite), as new secrets do.
    pub async fn rotate_key(&self, new: &SecretKey) -> Result<Resealed> {
        let ring = self.key()?.clone().also_opening(new);
        let new = new.clone();
        let new_id = new.id().to_owned();
        let guard = move |live: &[ProcessRecord]| {
            let behind: Vec<String> = live
                .iter()
                .filter(|p| p.primary_key_id != new_id)
                .map(|p| {
                    let why = if p.key_ids.contains(&new_id) {
                        "holds the new key but still seals with another".to_owned()
                    } else {
                        "cannot open values sealed with the new key".to_owned()
                    };
                    format!("  - {p}: it {why}")
                })
                .collect();
            if behind.is_empty() {
                return Ok(());
            }
            Err(StoreError::Sealing(format!(
                "{} running process(es) would be left behind if the secrets were re-sealed under the new key (id {new_id}):\n{}\n\
                 To rotate the key without stopping the service: restart each process with the new key as its key (DESPATCH_SECRET_KEY or DESPATCH_KEY_FILE) and the old key in DESPATCH_RETIRED_SECRET_KEYS; run `despatch rotate-key` again; then remove the old key from DESPATCH_RETIRED_SECRET_KEYS and restart once more. (A process stopped without a goodbye counts as gone {} s after its last heartbeat; docs/operations.md, \"Rotating the key\".)",
                behind.len(),
                behind.join("\n"),
                processes::GONE_AFTER.as_secs()
            )))
        };
        self.rewrite_all([SECRETS, WEBHOOKS], Some(&guard), &move |row, value| {
            if new.is_primary(value) {
                return Ok(None);
            }
            let plain = if is_sealed(value) {
                ring.open(row, value)?
            } else {
                value.to_owned()
            };
            Ok(Some(new.seal(row, &plain)))
        })
        .await
    }

    /// A sealed row of `secrets` or `webhooks`, if there is one (and whether it is a webhook's).
    async fn any_sealed(&self) -> Result<Option<(bool, Stored)>> {
        db_run!(self, reader pool => {
            if let Some(s) = sqlx::query_as(ANY_SEALED).fetch_optional(pool).await? {
                return Ok(Some((false, s)));
            }
            if let Some(s) = sqlx::query_as(ANY_SEALED_WEBHOOK).fetch_optional(pool).await? {
                return Ok(Some((true, s)));
            }
            Ok(None)
        })
    }

    /// Passes the stored secrets `selects` reads (rows of `secrets`, then of `webhooks`)
    /// through `rewrite` and writes what it returns, all in one transaction: either every row is
    /// rewritten or none is. Each update names the value it replaces, so a row changed meanwhile
    /// is an error, not a silent overwrite. With a `guard`, the live processes are read in the
    /// same transaction, after its lock, and the guard may refuse the pass.
    async fn rewrite_all(
        &self,
        selects: [&'static str; 2],
        guard: Option<&Guard<'_>>,
        rewrite: &Rewrite<'_>,
    ) -> Result<Resealed> {
        let mut done = Resealed::default();
        let live = processes::live_query(self);
        // Every pass waits for the database's write lock (`begin_upkeep`), as new secrets do.
        db_run!(self, s => {
            let mut tx = s.begin_upkeep(guard.is_some()).await?;
            if let Some(guard) = guard {
                let rows = sqlx::query(live).fetch_all(&mut *tx).await?;
                let records = rows
                    .iter()
                    .map(processes::record)
                    .collect::<Result<Vec<_>>>()?;
                guard(&records)?;
            }
            for (webhook, select, update) in [
                (false, selects[0], UPDATE_SECRET),
                (true, selects[1], UPDATE_WEBHOOK),
            ] {
                let found: Vec<Stored> = sqlx::query_as(select).fetch_all(&mut *tx).await?;
                for s in &found {
                    let Some(value) = rewrite(s.row(webhook), &s.value)? else {
                        continue;
                    };
                    let n = sqlx::query(update)
                        .bind(&s.game_id)
                        .bind(&s.name)
                        .bind(&value)
                        .bind(&s.value)
                        .execute(&mut *tx)
                        .await?
                        .rows_affected();
                    if n != 1 {
                        return Err(StoreError::Sealing(format!(
                            "{} changed while it was being sealed; nothing was changed",
                            s.row(webhook)
                        )));
                    }
                    if webhook {
                        done.webhooks += 1;
                    } else {
                        done.secrets += 1;
                    }
                }
            }
            tx.commit().await?;
        });
        Ok(done)
    }
}
