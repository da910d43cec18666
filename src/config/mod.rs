//! Configuration from the environment, with defaults that need no set-up: SQLite in `./data/`,
//! the service on 127.0.0.1:8080, email written to files under `./data/mail/`. A config file
//! (`file`) holds the same variables for commands started without them, as a mail server's pipe
//! is.

pub mod file;

use std::path::{Path, PathBuf};
use std::time::Duration;

/// Where the service keeps its data and where it listens.
#[derive(Debug, Clone)]
pub struct Settings {
    /// `DESPATCH_DATA_DIR`, default `./data` (with a config file: `data` beside it): where the
    /// defaults of the SQLite file, the key file and the mail folder are.
    pub data_dir: PathBuf,
    /// `postgres://…` or `sqlite:…`; from `DATABASE_URL`, else `despatch.db` in the data folder.
    pub database_url: String,
    /// `DESPATCH_BIND`, default `127.0.0.1:8080`; port 0 picks a free port.
    pub bind: String,
    /// The address players reach the service at, for links: `DESPATCH_BASE_URL`.
    pub base_url: Option<String>,
    /// The shared secret of `POST /api/inbound/email`: `DESPATCH_INBOUND_SECRET`. Unset, the
    /// endpoint refuses every message (`despatch mail-in` needs none).
    pub inbound_secret: Option<String>,
    /// The webhook signing key of Mailgun's inbound route (`POST /api/inbound/mailgun/mime`):
    /// `DESPATCH_MAILGUN_SIGNING_KEY`. Unset, that route refuses every message.
    pub mailgun_signing_key: Option<String>,
    /// `DESPATCH_KEY_FILE`, default `secret.key` in the data folder: the file holding the key that seals
    /// secrets at rest when `DESPATCH_SECRET_KEY` is unset; made (0600) on a fresh database only.
    pub key_file: PathBuf,
    pub notify: NotifySettings,
    /// Where the files moves carry are kept, and how large they may be (docs/files.md).
    pub files: FileSettings,
}

/// The files a move may carry (docs/files.md): where they are kept and their limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileSettings {
    /// `DESPATCH_FILES_URL`: `file:///var/lib/despatch/files` or `s3://bucket/prefix` (with
    /// the usual `AWS_*` variables, and `DESPATCH_FILES_S3_ENDPOINT` for an S3-compatible
    /// server); default `file://` the folder `files` in the data folder.
    pub url: String,
    /// `DESPATCH_FILES_S3_ENDPOINT`: the S3-compatible server's address (`http://…` allowed).
    pub s3_endpoint: Option<String>,
    /// `DESPATCH_FILE_MAX_BYTES`, default 10 MiB: the largest file a move may carry.
    pub per_file: u64,
    /// `DESPATCH_MOVE_FILES_MAX_BYTES`, default 25 MiB: the most a move's files may hold together.
    pub per_move: u64,
    /// `DESPATCH_ATTACH_MAX_BYTES`, default 5 MiB: a notice carries a move's files as
    /// attachments while they hold at most this together, and links to them otherwise.
    pub attach_up_to: u64,
}

/// 10 MiB: the default limit of one file.
pub const DEFAULT_FILE_MAX: u64 = 10 * 1024 * 1024;
/// 25 MiB: the default limit of a move's files together.
pub const DEFAULT_MOVE_FILES_MAX: u64 = 25 * 1024 * 1024;
/// 5 MiB: the default limit of a notice's attachments.
pub const DEFAULT_ATTACH_MAX: u64 = 5 * 1024 * 1024;

impl FileSettings {
    /// From the environment; `data_dir` holds the default folder.
    pub fn from_env(data_dir: &Path) -> FileSettings {
        let folder = data_dir.join("files");
        let folder = std::path::absolute(&folder).unwrap_or(folder);
        FileSettings {
            url: var("DESPATCH_FILES_URL")
                .unwrap_or_else(|| format!("file://{}", folder.display())),
            s3_endpoint: var("DESPATCH_FILES_S3_ENDPOINT"),
            per_file: number("DESPATCH_FILE_MAX_BYTES", DEFAULT_FILE_MAX).max(1),
            per_move: number("DESPATCH_MOVE_FILES_MAX_BYTES", DEFAULT_MOVE_FILES_MAX).max(1),
            attach_up_to: number("DESPATCH_ATTACH_MAX_BYTES", DEFAULT_ATTACH_MAX),
        }
    }
}

/// How notices are sent and clocks run.
#[derive(Debug, Clone)]
pub struct NotifySettings {
    /// `DESPATCH_SMTP_URL`: `smtp://host:port` (plain), `smtp://user:pass@host:587?tls=required`
    /// (STARTTLS), `smtps://user:pass@host:465` (TLS). Unset: email goes to files.
    pub smtp_url: Option<String>,
    /// `DESPATCH_MAIL_DIR`, default `mail` in the data folder: where email goes without SMTP.
    pub mail_dir: PathBuf,
    /// `DESPATCH_MAIL_FROM`, default `Despatch <despatch@localhost>`.
    pub mail_from: String,
    /// `DESPATCH_SMTP_TIMEOUT_SECS`, default 30.
    pub smtp_timeout: Duration,
    /// `DESPATCH_WEBHOOK_TIMEOUT_SECS`, default 10.
    pub webhook_timeout: Duration,
    /// `DESPATCH_WEBHOOK_ALLOW_HOSTS`, default none: the internal hosts webhooks may reach,
    /// separated by commas — host names (`hooks.internal`: any address it resolves to),
    /// addresses (`127.0.0.1`, `[::1]`) and networks (`10.1.0.0/16`). Every other loopback,
    /// private, link-local or otherwise internal address is refused (`games::webhook_targets`).
    pub webhook_allow_hosts: String,
    /// `DESPATCH_SECRET_KEY`: seals secrets at rest (`store::sealing`) and signs magic links,
    /// unsubscribe links and reply-to addresses. Unset: the key file's secret does both (a
    /// database that already kept a link key keeps signing links with it).
    pub secret_key: Option<String>,
    /// `DESPATCH_RETIRED_SECRET_KEYS`: earlier secrets, comma-separated, that still open the
    /// secrets at rest they sealed but seal nothing and sign no link (`store::sealing`), for
    /// rotating the key without stopping the service (docs/operations.md, "Rotating the key").
    pub retired_secret_keys: Vec<String>,
    /// `DESPATCH_DISPATCHER`, default `on`: whether `serve` runs a dispatcher and a scheduler
    /// itself (`off` when `despatch dispatch` processes do it).
    pub run_in_serve: bool,
    /// `DESPATCH_SCHEDULER_SECS`, default 30: how often the scheduler looks at the clocks.
    pub scheduler_every: Duration,
    /// `DESPATCH_LEASE_SECS` (120), `DESPATCH_BATCH` (32), `DESPATCH_RETRY_BASE_SECS` (10),
    /// `DESPATCH_RETRY_MAX_SECS` (3600), `DESPATCH_POLL_MS` (500), `DESPATCH_REPLY_DOMAIN`.
    pub dispatch: DispatchSettings,
}

/// How a dispatcher paces itself (`notify::dispatcher`).
#[derive(Debug, Clone)]
pub struct DispatchSettings {
    /// How long a claim holds a row before another dispatcher may take it.
    pub lease: Duration,
    /// Rows claimed at once (and sent concurrently).
    pub batch: i64,
    pub retry_base: Duration,
    pub retry_max: Duration,
    /// How long to sleep when nothing is due.
    pub poll: Duration,
    /// The domain of reply-to addresses (`DESPATCH_REPLY_DOMAIN`), if replies are taken.
    pub reply_domain: Option<String>,
}

impl Default for DispatchSettings {
    fn default() -> Self {
        DispatchSettings {
            lease: Duration::from_secs(120),
            batch: 32,
            retry_base: Duration::from_secs(10),
            retry_max: Duration::from_secs(3600),
            poll: Duration::from_millis(500),
            reply_domain: None,
        }
    }
}

/// The data folder when neither `DESPATCH_DATA_DIR` nor a config file names one.
pub const DEFAULT_DATA_DIR: &str = "./data";

/// sysexits(3): a transient failure (the database, say): a mail server defers the message and
/// delivers it again later.
pub const EX_TEMPFAIL: u8 = 75;
/// sysexits(3): the configuration is wrong or missing (Postfix returns the message to its sender).
pub const EX_CONFIG: u8 = 78;

/// The SQLite URL of `despatch.db` in `data_dir`.
pub fn sqlite_in(data_dir: &Path) -> String {
    format!("sqlite:{}?mode=rwc", data_dir.join("despatch.db").display())
}

fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

fn number(name: &str, default: u64) -> u64 {
    match var(name) {
        None => default,
        Some(v) => v.trim().parse().unwrap_or_else(|_| {
            tracing::warn!("{name}={v} is not a whole number; using {default}");
            default
        }),
    }
}

/// `DESPATCH_DATA_DIR`, else `./data`.
pub fn data_dir() -> PathBuf {
    PathBuf::from(var("DESPATCH_DATA_DIR").unwrap_or_else(|| DEFAULT_DATA_DIR.to_owned()))
}

impl NotifySettings {
    pub fn from_env() -> NotifySettings {
        NotifySettings {
            smtp_url: var("DESPATCH_SMTP_URL"),
            mail_dir: var("DESPATCH_MAIL_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| data_dir().join("mail")),
            mail_from: var("DESPATCH_MAIL_FROM")
                .unwrap_or_else(|| "Despatch <despatch@localhost>".into()),
            smtp_timeout: Duration::from_secs(number("DESPATCH_SMTP_TIMEOUT_SECS", 30)),
            webhook_timeout: Duration::from_secs(number("DESPATCH_WEBHOOK_TIMEOUT_SECS", 10)),
            webhook_allow_hosts: var("DESPATCH_WEBHOOK_ALLOW_HOSTS").unwrap_or_default(),
            secret_key: var("DESPATCH_SECRET_KEY"),
            retired_secret_keys: var("DESPATCH_RETIRED_SECRET_KEYS")
                .map(|v| {
                    v.split(',')
                        .map(str::trim)
                        .filter(|k| !k.is_empty())
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default(),
            run_in_serve: !matches!(
                var("DESPATCH_DISPATCHER").as_deref(),
                Some("off" | "0" | "false" | "no")
            ),
            scheduler_every: Duration::from_secs(number("DESPATCH_SCHEDULER_SECS", 30).max(1)),
            dispatch: DispatchSettings {
                lease: Duration::from_secs(number("DESPATCH_LEASE_SECS", 120).max(1)),
                batch: number("DESPATCH_BATCH", 32).clamp(1, 1000) as i64,
                retry_base: Duration::from_secs(number("DESPATCH_RETRY_BASE_SECS", 10).max(1)),
                retry_max: Duration::from_secs(number("DESPATCH_RETRY_MAX_SECS", 3600).max(1)),
                poll: Duration::from_millis(number("DESPATCH_POLL_MS", 500).max(10)),
                reply_domain: var("DESPATCH_REPLY_DOMAIN"),
            },
        }
    }
}

impl Settings {
    pub fn from_env() -> Settings {
        let data_dir = data_dir();
        Settings {
            database_url: var("DATABASE_URL").unwrap_or_else(|| sqlite_in(&data_dir)),
            bind: var("DESPATCH_BIND").unwrap_or_else(|| "127.0.0.1:8080".to_owned()),
            base_url: var("DESPATCH_BASE_URL"),
            inbound_secret: var("DESPATCH_INBOUND_SECRET"),
            mailgun_signing_key: var("DESPATCH_MAILGUN_SIGNING_KEY"),
            key_file: var("DESPATCH_KEY_FILE")
                .map(PathBuf::from)
                .unwrap_or_else(|| data_dir.join("secret.key")),
            notify: NotifySettings::from_env(),
            files: FileSettings::from_env(&data_dir),
            data_dir,
        }
    }

    /// Makes sure the directory of a SQLite file exists.
    pub fn prepare(&self) -> std::io::Result<()> {
        if let Some(path) = self.database_url.strip_prefix("sqlite:") {
            let path = path
                .trim_start_matches("//")
                .split('?')
                .next()
                .unwrap_or_default();
            if let Some(dir) = std::path::Path::new(path)
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
            {
                std::fs::create_dir_all(dir)?;
            }
        }
        Ok(())
    }
}
