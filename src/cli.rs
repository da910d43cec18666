//! The command line: `serve`, `migrate`, `rotate-key`, `new-game`, `export`, `verify`, `replay`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use serde_json::Value;

use crate::config::Settings;
use crate::engine::replay;
use crate::engine::ruleset::{SeatDef, Setup, Viewer};
use crate::engine::verify;
use crate::games::clock::ClockChoice;
use crate::games::webhook_targets::WebhookTargets;
use crate::games::{Games, NewGame, NewSeat};
use crate::http::inbound::InboundConfig;
use crate::http::Application;
use crate::mail_in;
use crate::notify::scheduler::Scheduler;
use crate::rules;
use crate::store::Store;

#[derive(Parser)]
#[command(
    name = "despatch",
    version,
    about = "Board wargames by email and over the web, with dice anyone can check"
)]
pub struct Cli {
    /// A config file of `KEY=value` lines holding what the environment variables hold (the
    /// environment wins); relative paths in it are taken from its folder. See README.md.
    #[arg(long, global = true, env = "DESPATCH_CONFIG", value_name = "FILE")]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

impl Cli {
    /// Reads the config file, if one is named, into the environment. Call before any thread
    /// starts.
    pub fn load_config(&self) -> Result<(), String> {
        match &self.config {
            Some(path) => crate::config::file::load(path),
            None => Ok(()),
        }
    }
}

/// Why a command failed, and the exit code that says so (`config::EX_*`, else 1).
#[derive(Debug)]
pub struct Failure {
    code: u8,
    message: String,
}

impl Failure {
    fn config(message: impl Into<String>) -> Failure {
        Failure {
            code: crate::config::EX_CONFIG,
            message: message.into(),
        }
    }
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure { code: 1, message }
    }
}

impl From<&str> for Failure {
    fn from(message: &str) -> Failure {
        Failure::from(message.to_owned())
    }
}

#[derive(Subcommand)]
enum Command {
    /// Runs the service (SQLite under ./data/ unless DATABASE_URL says otherwise).
    Serve,
    /// Reads one email message on standard input, the way a mail server hands a message to a
    /// program, plays what it holds and queues the answer. Exits 0 when the message was
    /// answered or deliberately ignored, 75 (EX_TEMPFAIL: deliver it again later) when the
    /// database or anything else transient failed, 78 (EX_CONFIG) when the configuration is
    /// wrong. It never migrates: run `despatch migrate` first.
    MailIn,
    /// Applies the database migrations, seals any secrets still kept in plain text, and exits.
    Migrate,
    /// Re-seals every secret at rest (dice chains, hidden seeds, sealed choices, webhook
    /// secrets) under a new key, in one transaction. The current key is DESPATCH_SECRET_KEY or
    /// DESPATCH_KEY_FILE (with DESPATCH_RETIRED_SECRET_KEYS). Refuses while a running server
    /// does not seal with the new key already: restart the servers with the new key as their
    /// key and the old one retired first (docs/operations.md, "Rotating the key"), or stop them.
    RotateKey {
        /// A file holding the new key; made with a random key (mode 0600) if it does not exist.
        /// Or give the key in DESPATCH_NEW_SECRET_KEY.
        #[arg(long)]
        new_key_file: Option<PathBuf>,
    },
    /// Creates a game and prints each seat's token and link (shown once).
    NewGame {
        #[arg(long, default_value = "open-table")]
        ruleset: String,
        #[arg(long, default_value = "default")]
        scenario: String,
        /// A seat: `name`, `name <email>`, or `seat-id=name <email>`; repeat for each seat.
        #[arg(long = "seat", required = true)]
        seats: Vec<String>,
        /// Ruleset options as a JSON object.
        #[arg(long, default_value = "{}")]
        options: String,
        /// A clock preset (relaxed, standard, brisk) or a policy as JSON.
        #[arg(long)]
        clock: Option<String>,
    },
    /// Sends the outbox (email, webhooks) and runs the game clocks, without serving HTTP.
    /// Several may run beside `serve` on one PostgreSQL database.
    Dispatch {
        /// Drain what is due now and exit, instead of running until stopped.
        #[arg(long)]
        once: bool,
    },
    /// Writes a game's export (JSON Lines) to stdout or a file.
    Export {
        game: String,
        #[arg(long, short)]
        out: Option<PathBuf>,
    },
    /// Verifies an export with no database and no server: the hash chain, every roll, every
    /// reveal, a re-fold, the final state hash. Exits non-zero naming the first bad seq.
    Verify {
        file: PathBuf,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// What you were shown: saved notice emails (.eml, a mailbox, or a folder of them) or
        /// a text file of `seq hash` lines. The export must hold each hash at its seq. Repeat
        /// for several.
        #[arg(long = "witness")]
        witness: Vec<PathBuf>,
    },
    /// A sandbox: runs a script of orders with dice given by hand, from a scenario's set-up or
    /// from a position set by hand. UNVERIFIABLE by design; for rules examples, tutorials and
    /// bug reports.
    #[command(after_long_help = replay_help())]
    Replay {
        /// The ruleset (default: the script's `# ruleset:` header, else open-table).
        #[arg(long)]
        ruleset: Option<String>,
        /// The scenario (default: the script's `# scenario:` header, else the ruleset's first).
        #[arg(long)]
        scenario: Option<String>,
        /// Seat ids, comma separated (default: the script's `# seats:` header, else the
        /// scenario's seats).
        #[arg(long, value_delimiter = ',')]
        seats: Vec<String>,
        #[arg(long, default_value = "{}")]
        options: String,
        /// The dice faces to use, in order: `--dice 5,5,6` (default: the script's `# dice:`
        /// header lines).
        #[arg(long, value_delimiter = ',')]
        dice: Vec<u32>,
        /// Start from this position instead of the scenario's set-up, in the ruleset's
        /// position format (see below, and docs/rules/<game>.md, "Positions (despatch replay)").
        #[arg(long, value_name = "FILE")]
        position: Option<PathBuf>,
        /// Stop at the first refused step (exit 1), instead of showing it and going on.
        #[arg(long)]
        stop_on_refusal: bool,
        /// List the rulesets, their scenarios and their position formats, and exit.
        #[arg(long)]
        list: bool,
        /// The script: `seat: order` per line; `-` for stdin.
        #[arg(required_unless_present = "list")]
        script: Option<PathBuf>,
        /// Print the transcript as JSON, with the view after every step.
        #[arg(long)]
        json: bool,
    },
}

/// The long help of `replay`: the script's format, and each ruleset's position format.
fn replay_help() -> String {
    let mut out = String::from(
        "A script is one step a line: `seat: order` (an indented line continues the order), \
`!timeout seat`, `!resign seat`; `#` starts a comment. A header of comments names what the \
script plays, so that the options are rarely needed:

  # ruleset: for-honor-and-glory
  # scenario: example-forest-fire
  # seats: american, british
  # dice: 4, 2
  position:
    turn 2
  american: fire C4 at C3

A `position:` block (its lines indented, before the first step) or --position FILE starts \
the script from a position set by hand: the scenario's set-up, changed one statement a line, \
checked as a scenario is; an error names the line. `# dice:` lines give the dice when \
--dice gives none (several add up, in order). A step the rules refuse is shown with its \
error and the position it met, and changes nothing; the script goes on (or stops, with \
--stop-on-refusal). `despatch replay --list` lists the rulesets and scenarios with their titles
and seats.

Rulesets, their scenarios and position formats:
",
    );
    for rs in rules::all() {
        let info = rs.info();
        let scenarios: Vec<&str> = info.scenarios.iter().map(|s| s.id.as_str()).collect();
        out.push_str(&format!(
            "\n{} (scenarios: {}):\n",
            info.id,
            scenarios.join(", ")
        ));
        for l in rs.position_format().lines() {
            out.push_str(&format!("  {l}\n"));
        }
    }
    out
}

/// `replay --list`: every ruleset, its scenarios and its position format.
fn replay_list() -> String {
    let mut out = String::new();
    for rs in rules::all() {
        let info = rs.info();
        out.push_str(&format!("{} — {}\n  scenarios:\n", info.id, info.title));
        for s in &info.scenarios {
            let seats = if s.seats.is_empty() {
                format!("{}-{} seats named by the players", s.min_seats, s.max_seats)
            } else {
                s.seats.join(", ")
            };
            out.push_str(&format!("    {} — {} ({seats})\n", s.id, s.title));
        }
        out.push_str("  position format:\n");
        for l in rs.position_format().lines() {
            out.push_str(&format!("    {l}\n"));
        }
        out.push('\n');
    }
    out
}

/// Writes to standard output; a reader that went away (a closed pipe: `| head`) ends the
/// command quietly, as a filter's output is read no further.
fn print_out(text: &str) -> Result<(), Failure> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("cannot write the output: {e}").into()),
    }
}

/// Starts logging to standard error, at the level `RUST_LOG` asks (default `info`): text, in
/// colour only when standard error is a terminal (and `NO_COLOR` is unset), so files and log
/// collectors get no escape codes; or one JSON object per line with `DESPATCH_LOG_FORMAT=json`,
/// for log shippers. With `DESPATCH_LOG_FILE`, appended to that file instead (a mail server
/// keeps a piped command's standard error in its own log, and may quote it in a bounce).
pub fn init_logging() -> Result<(), String> {
    use std::io::IsTerminal;
    use tracing_subscriber::fmt::writer::BoxMakeWriter;
    let filter =
        tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into());
    let (writer, terminal) = match std::env::var_os("DESPATCH_LOG_FILE").filter(|f| !f.is_empty()) {
        Some(path) => {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .map_err(|e| {
                    format!(
                        "cannot open the log file {} (DESPATCH_LOG_FILE): {e}",
                        std::path::Path::new(&path).display()
                    )
                })?;
            (BoxMakeWriter::new(std::sync::Mutex::new(file)), false)
        }
        None => (
            BoxMakeWriter::new(std::io::stderr),
            std::io::stderr().is_terminal(),
        ),
    };
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer);
    let format = std::env::var("DESPATCH_LOG_FORMAT").unwrap_or_default();
    match format.trim().to_ascii_lowercase().as_str() {
        "json" => builder.json().with_ansi(false).init(),
        other => {
            let colour = terminal && std::env::var_os("NO_COLOR").is_none();
            builder.with_ansi(colour).init();
            if !matches!(other, "" | "text") {
                tracing::warn!(
                    "DESPATCH_LOG_FORMAT={other} is not understood (text or json); writing text"
                );
            }
        }
    }
    Ok(())
}

/// Serves `/metrics` on an address of its own when `DESPATCH_METRICS_BIND` asks for it.
fn metrics_on_own_address(games: &Games) -> Result<(), String> {
    let exposure = crate::metrics::Exposure::from_env()?;
    if let Some(bind) = exposure.bind {
        let (server, address) = crate::http::observe::metrics_server(&bind, games.clone())
            .map_err(|e| format!("cannot serve metrics on {bind} (DESPATCH_METRICS_BIND): {e}"))?;
        tokio::spawn(server);
        tracing::info!("metrics at http://{address}/metrics");
        println!("Metrics are served at http://{address}/metrics");
    }
    Ok(())
}

pub async fn run(cli: Cli) -> ExitCode {
    match execute(cli.command).await {
        Ok(code) => code,
        Err(Failure { code, message }) => {
            eprintln!("despatch: {message}");
            ExitCode::from(code)
        }
    }
}

/// The store, migrated and given its key for secrets at rest, and the secret that signs links.
struct Opened {
    store: Store,
    /// `DESPATCH_SECRET_KEY`, else the key file's secret; `None` on a database that kept its own
    /// link key before key files existed, so the links already sent stay valid.
    link_secret: Option<String>,
    /// The operator's secret the store's key derives from.
    secret: String,
}

async fn store(settings: &Settings) -> Result<Opened, String> {
    store_opening(settings, &[]).await
}

/// `store`, its ring also opening what the `also` secrets sealed (`rotate-key`'s new key).
async fn store_opening(settings: &Settings, also: &[String]) -> Result<Opened, String> {
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
        .await?;
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

/// The base URL of the links a command beside the service writes (`mail-in`, `dispatch`):
/// `DESPATCH_BASE_URL`, else the one `serve` stored when it started (so that the links match
/// the notices'), else `http://<DESPATCH_BIND>`.
async fn base_url(settings: &Settings, store: &Store) -> Result<String, String> {
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
async fn register(store: &Store, kind: &str) -> Result<crate::store::Registration, String> {
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

/// `mail-in`: one message from standard input, answered once. The configuration is checked
/// before any database work; every failure after it is temporary for the mail server (75), so
/// that the message is delivered again rather than lost, and what a player could read in a
/// bounce never holds the error's details: they go to the log.
async fn mail_in(settings: &Settings) -> Result<ExitCode, Failure> {
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
        .map_err(|e| tempfail("cannot open the database's secrets", e))?;
    let base = base_url(settings, &unlocked.store)
        .await
        .map_err(|e| tempfail("cannot read the database", e))?;
    let registration = register(&unlocked.store, "mail-in")
        .await
        .map_err(|e| tempfail("cannot register with the database", e))?;
    let games = Games::new(unlocked.store, base)
        .with_secret(unlocked.link_secret.as_deref())
        .with_logged_move_rate(crate::games::rate::MoveRate::from_env());
    let receipt = mail_in::receive(&games, &domain, &raw)
        .await
        .map_err(|e| tempfail("cannot handle the message now", e.to_string()))?;
    mail_in::queue(&games, &domain, &receipt)
        .await
        .map_err(|e| tempfail("cannot queue the answer now", e.to_string()))?;
    registration.end().await;
    match receipt {
        mail_in::Receipt::Answered { reply, .. } => {
            println!("answered {}: {}", reply.to, reply.subject)
        }
        mail_in::Receipt::Ignored(why) => println!("ignored: {why}"),
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
            let secret = match crate::store::sealing::read_key_file(path)? {
                Some(secret) => secret,
                None => crate::store::sealing::create_key_file(path)?,
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

async fn execute(command: Command) -> Result<ExitCode, Failure> {
    let settings = Settings::from_env();
    match command {
        Command::Serve => {
            crate::metrics::Exposure::from_env()?;
            let Opened {
                store,
                link_secret: secret,
                ..
            } = store(&settings).await?;
            let registration = register(&store, "serve").await?.keep_alive();
            let backend = store.backend();
            let inbound = InboundConfig {
                domain: settings.notify.dispatch.reply_domain.clone(),
                secret: settings.inbound_secret.clone(),
                mailgun_signing_key: settings.mailgun_signing_key.clone(),
            };
            let targets = WebhookTargets::from_setting(&settings.notify.webhook_allow_hosts);
            let app = Application::build_full(
                store,
                &settings.bind,
                settings.base_url.clone(),
                |games| {
                    games
                        .with_secret(secret.as_deref())
                        .with_webhook_targets(targets)
                },
                Some(inbound),
            )
            .map_err(|e| format!("cannot listen on {}: {e}", settings.bind))?;
            metrics_on_own_address(app.games())?;
            // Commands run beside the service (`mail-in` from the mail server) read it, so
            // that their links are the notices' own.
            app.games()
                .keep_base_url(app.base_url())
                .await
                .map_err(|e| format!("cannot store the base URL: {e}"))?;
            if settings.notify.run_in_serve {
                let games = app.games().clone();
                let dispatcher = crate::notify::dispatcher(&games, &settings.notify)?;
                tokio::spawn(dispatcher.run());
                tokio::spawn(Scheduler::new(games).run(settings.notify.scheduler_every));
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
            let stopped = app.run_until_stopped().await;
            registration.end().await;
            stopped.map_err(|e| e.to_string())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::MailIn => mail_in(&settings).await,
        Command::Dispatch { once } => {
            let Opened {
                store, link_secret, ..
            } = store(&settings).await?;
            let registration = register(&store, "dispatch").await?.keep_alive();
            let base_url = base_url(&settings, &store).await?;
            let games = Games::new(store, base_url)
                .with_secret(link_secret.as_deref())
                .with_webhook_targets(WebhookTargets::from_setting(
                    &settings.notify.webhook_allow_hosts,
                ));
            let dispatcher = crate::notify::dispatcher(&games, &settings.notify)?;
            if !once {
                metrics_on_own_address(&games)?;
            }
            let scheduler = Scheduler::new(games);
            if once {
                let fired = scheduler.tick().await?;
                let sent = dispatcher.drain().await?;
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
            registration.end().await;
            Ok(ExitCode::SUCCESS)
        }
        Command::Migrate => {
            let store = store(&settings).await?.store;
            println!("migrated the {} database", store.backend());
            Ok(ExitCode::SUCCESS)
        }
        Command::RotateKey { new_key_file } => {
            let (new, next) = new_secret(new_key_file.as_deref())?;
            let retiring = !settings.notify.retired_secret_keys.is_empty();
            // The servers may already seal with the new key (the safe way, docs/operations.md):
            // this command opens what it sealed too.
            let opened = store_opening(&settings, std::slice::from_ref(&new)).await?;
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
        Command::NewGame {
            ruleset,
            scenario,
            seats,
            options,
            clock,
        } => {
            let clock = clock
                .map(|c| {
                    if c.trim_start().starts_with('{') {
                        serde_json::from_str(&c).map_err(|e| format!("--clock is not JSON: {e}"))
                    } else {
                        Ok(ClockChoice::Preset(c))
                    }
                })
                .transpose()?;
            let options: Value = serde_json::from_str(&options)
                .map_err(|e| format!("--options is not JSON: {e}"))?;
            let seats = seats
                .iter()
                .map(|s| parse_seat(s))
                .collect::<Result<Vec<_>, _>>()?;
            let opened = store(&settings).await?;
            let registration = register(&opened.store, "new-game").await?;
            let games = Games::new(
                opened.store,
                settings
                    .base_url
                    .clone()
                    .unwrap_or_else(|| format!("http://{}", settings.bind)),
            )
            .with_secret(opened.link_secret.as_deref());
            let created = games
                .create(NewGame {
                    name: None,
                    ruleset,
                    scenario,
                    options,
                    seats,
                    clock,
                })
                .await
                .map_err(|e| e.to_string());
            registration.end().await;
            let created = created?;
            println!("game {}", created.game_id);
            for s in created.seats {
                println!(
                    "  {} ({}): token {}\n    {}",
                    s.seat, s.name, s.token, s.link
                );
            }
            println!("The tokens are shown once: pass each to its player.");
            Ok(ExitCode::SUCCESS)
        }
        Command::Export { game, out } => {
            let games = Games::new(store(&settings).await?.store, "");
            let text = games
                .export(&game, &Viewer::Spectator)
                .await
                .map_err(|e| e.to_string())?;
            match out {
                Some(path) => std::fs::write(&path, text)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
                None => print!("{text}"),
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Verify {
            file,
            json,
            witness,
        } => {
            let text = std::fs::read_to_string(&file)
                .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
            let found = read_witnesses(&witness)?;
            let mut report = verify::verify_witnessed(&text, &rules::find, &found.witnesses);
            report.without_head = found.without_head;
            if json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&report).expect("serialisable")
                );
            } else {
                print!("{}", report.render());
            }
            Ok(if report.ok() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Command::Replay {
            ruleset,
            scenario,
            seats,
            options,
            dice,
            position,
            stop_on_refusal,
            list,
            script,
            json,
        } => {
            if list {
                print_out(&replay_list())?;
                return Ok(ExitCode::SUCCESS);
            }
            let script = script.ok_or("name a script, or - for standard input")?;
            let text = if script.as_os_str() == "-" {
                std::io::read_to_string(std::io::stdin()).map_err(|e| e.to_string())?
            } else {
                std::fs::read_to_string(&script)
                    .map_err(|e| format!("cannot read {}: {e}", script.display()))?
            };
            let parsed = replay::parse_script(&text).map_err(|e| format!("script: {e}"))?;
            let dice = if dice.is_empty() {
                parsed.dice.clone()
            } else {
                dice
            };
            let ruleset = ruleset
                .or_else(|| parsed.ruleset.clone())
                .unwrap_or_else(|| rules::open_table::ID.to_owned());
            let rs = rules::find(&ruleset).ok_or_else(|| {
                format!("unknown ruleset '{ruleset}' (despatch replay --list shows them)")
            })?;
            let info = rs.info();
            let scenario = scenario
                .or_else(|| parsed.scenario.clone())
                .or_else(|| info.scenarios.first().map(|s| s.id.clone()))
                .unwrap_or_default();
            let sc = info
                .scenarios
                .iter()
                .find(|s| s.id == scenario)
                .ok_or_else(|| {
                    format!(
                        "{ruleset} has no scenario '{scenario}' (despatch replay --list shows them)"
                    )
                })?;
            let seat_ids = match (seats.is_empty(), parsed.seats.is_empty()) {
                (false, _) => seats,
                (true, false) => parsed.seats.clone(),
                (true, true) => sc.seats.clone(),
            };
            let seats = SeatDef::named_by_id(&seat_ids)?;
            let options: Value = serde_json::from_str(&options)
                .map_err(|e| format!("--options is not JSON: {e}"))?;
            let position = position
                .map(|p| {
                    std::fs::read_to_string(&p)
                        .map_err(|e| format!("cannot read the position {}: {e}", p.display()))
                })
                .transpose()?;
            let setup = Setup {
                game_id: "replay".into(),
                scenario,
                options,
                seats,
            };
            let run = replay::RunOptions {
                stop_on_refusal,
                views: json,
            };
            let transcript = replay::run_script(rs, setup, &parsed, position.as_deref(), dice, run)
                .map_err(|e| format!("replay stopped: {e}"))?;
            if json {
                print_out(&format!(
                    "{}\n",
                    serde_json::to_string_pretty(&transcript).expect("serialisable")
                ))?;
            } else {
                print_out(&replay::render(&transcript))?;
            }
            match transcript.stopped_at {
                Some(n) => Err(format!("replay stopped at step {n}: the rules refused it").into()),
                None => Ok(ExitCode::SUCCESS),
            }
        }
    }
}

/// `name`, `name <email>`, or `seat-id=name <email>`.
fn parse_seat(text: &str) -> Result<NewSeat, String> {
    let (seat, rest) = match text.split_once('=') {
        Some((id, rest)) => (Some(id.trim().to_owned()), rest),
        None => (None, text),
    };
    let (name, email) = match rest.split_once('<') {
        Some((name, email)) => (
            name.trim(),
            Some(email.trim_end_matches('>').trim().to_owned()),
        ),
        None => (rest.trim(), None),
    };
    if name.is_empty() {
        return Err(format!("--seat '{text}' has no name"));
    }
    Ok(NewSeat {
        seat,
        name: name.to_owned(),
        email,
    })
}

/// Reads `--witness` files: each a file, or a folder (a maildir) whose files are read in turn.
/// What carries no head — a sign-in mail, an answer, a mail folder's index files — is counted
/// and set aside, so a whole mailbox can be given; a malformed head is still an error.
fn read_witnesses(paths: &[PathBuf]) -> Result<crate::engine::witness::Found, String> {
    use crate::engine::witness;
    // Each file, and whether it was found in a folder (where only email is read).
    let mut files = Vec::new();
    let mut pending: Vec<(PathBuf, bool)> = paths.iter().map(|p| (p.clone(), false)).collect();
    while let Some((path, in_folder)) = pending.pop() {
        if path.is_dir() {
            let entries = std::fs::read_dir(&path)
                .map_err(|e| format!("cannot read the folder {}: {e}", path.display()))?;
            for entry in entries {
                let entry =
                    entry.map_err(|e| format!("cannot read the folder {}: {e}", path.display()))?;
                pending.push((entry.path(), true));
            }
        } else {
            files.push((path, in_folder));
        }
    }
    if files.is_empty() && !paths.is_empty() {
        return Err("--witness names no file to read: the folder is empty".into());
    }
    files.sort();
    let mut out = witness::Found::default();
    for (path, in_folder) in files {
        let text = std::fs::read(&path)
            .map_err(|e| format!("cannot read the witness {}: {e}", path.display()))?;
        let text = String::from_utf8_lossy(&text);
        if in_folder && !witness::looks_like_email(&text) {
            out.without_head += 1;
            continue;
        }
        let found = witness::read(&text, &path.display().to_string())?;
        out.witnesses.extend(found.witnesses);
        out.without_head += found.without_head;
    }
    Ok(out)
}
