//! The command line: `serve`, `mail-in`, `dispatch`, `migrate`, `rotate-key`, `new-game`,
//! `export`, `verify`, `replay`, `check`. This file holds what the commands take (clap's definitions)
//! and hands each to its module; the environment is read here, once, and handed on.

mod check;
mod database;
mod dispatch;
mod export;
mod logging;
mod mail_in;
mod migrate;
mod new_game;
mod replay;
mod rotate_key;
mod rules_versions;
mod serve;
mod verify;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::config::Settings;
use crate::games::GameId;

pub use logging::init_logging;

#[derive(Parser)]
#[command(
    name = "despatch",
    version,
    long_version = rules_versions::long_version(),
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
    pub fn load_config(&self) -> Result<(), crate::config::file::ConfigFileError> {
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
    RotateKey(RotateKeyArgs),
    /// Creates a game and prints each seat's token and link (shown once).
    NewGame(NewGameArgs),
    /// Sends the outbox (email, webhooks) and runs the game clocks, without serving HTTP.
    /// Several may run beside `serve` on one PostgreSQL database.
    Dispatch(DispatchArgs),
    /// Writes a game's export (JSON Lines) to stdout or a file.
    Export(ExportArgs),
    /// Verifies an export with no database and no server: the hash chain, every roll, every
    /// reveal, a re-fold, the final state hash. Exits non-zero naming the first bad seq.
    #[command(after_long_help = rules_versions::verify_help())]
    Verify(VerifyArgs),
    /// A sandbox: runs a script of orders with dice given by hand, from a scenario's set-up or
    /// from a position set by hand. UNVERIFIABLE by design; for rules examples, tutorials and
    /// bug reports.
    #[command(after_long_help = replay::help())]
    Replay(ReplayArgs),
    /// Folds every game of the database that is not finished (every game with --all) with this
    /// build, as the service loads them, and names each that would not load: the game, its
    /// ruleset and rules version, the event and the problem. Changes nothing and migrates
    /// nothing: run it with a new build against a migrated copy of the database before an
    /// upgrade (docs/operations.md). Exits 0 when every game loads, 1 otherwise.
    Check(CheckArgs),
}

// What `rotate-key` takes.
#[derive(Args)]
struct RotateKeyArgs {
    /// A file holding the new key; made with a random key (mode 0600) if it does not exist.
    /// Or give the key in DESPATCH_NEW_SECRET_KEY.
    #[arg(long)]
    new_key_file: Option<PathBuf>,
}

// What `new-game` takes.
#[derive(Args)]
struct NewGameArgs {
    #[arg(long, default_value = "open-table")]
    ruleset: String,
    /// The scenario (default: the ruleset's first).
    #[arg(long, default_value = "")]
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
}

// What `dispatch` takes.
#[derive(Args)]
struct DispatchArgs {
    /// Drain what is due now and exit, instead of running until stopped.
    #[arg(long)]
    once: bool,
}

// What `export` takes.
#[derive(Args)]
struct ExportArgs {
    game: GameId,
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// Also write every file the game's moves carried into this folder, each named by its
    /// SHA-256 (what `verify --files` reads).
    #[arg(long)]
    files: Option<PathBuf>,
}

// What `verify` takes.
#[derive(Args)]
struct VerifyArgs {
    file: PathBuf,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// What you were shown: saved notice emails (.eml, a mailbox, or a folder of them) or
    /// a text file of `seq hash` lines. The export must hold each hash at its seq. Repeat
    /// for several.
    #[arg(long = "witness")]
    witness: Vec<PathBuf>,
    /// A folder of the files the moves carried, each named by its SHA-256 (`export --files`):
    /// every file the log lists must be there with the bytes its hash names.
    #[arg(long)]
    files: Option<PathBuf>,
}

// What `check` takes.
#[derive(Args)]
struct CheckArgs {
    /// Check the finished games too.
    #[arg(long)]
    all: bool,
}

// What `replay` takes.
#[derive(Args)]
struct ReplayArgs {
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

async fn execute(command: Command) -> Result<ExitCode, Failure> {
    let settings = Settings::from_env();
    match command {
        Command::Serve => serve::run(&settings).await,
        Command::MailIn => mail_in::run(&settings).await,
        Command::Dispatch(args) => dispatch::run(&settings, args).await,
        Command::Migrate => migrate::run(&settings).await,
        Command::RotateKey(args) => rotate_key::run(&settings, args).await,
        Command::NewGame(args) => new_game::run(&settings, args).await,
        Command::Export(args) => export::run(&settings, args).await,
        Command::Verify(args) => verify::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Check(args) => check::run(&settings, args).await,
    }
}
