//! What went wrong, for the caller: one error type for every call of the service, which each face
//! maps to its own words (an HTTP status, a mail reply, a CLI message).

use crate::engine::ruleset::RuleError;
use crate::store::{GameIdError, StoreError};

use super::rate;

/// What went wrong, for the caller.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    #[error("{0}")]
    BadRequest(String),
    /// A request with several things wrong (a new game's fields): every one of them, each
    /// naming its field, in the order of the request; nothing was done.
    #[error("{}", Problem::sentence(.0))]
    Invalid(Vec<Problem>),
    #[error("{0}")]
    NotFound(String),
    /// Files over a limit (`files::Limits`); the message names the limit.
    #[error("{0}")]
    TooLarge(String),
    #[error("a seat token is needed: send 'Authorization: Bearer <seat token>'")]
    Unauthorized,
    #[error("{0}")]
    Forbidden(String),
    #[error("the game has moved on: you sent expected_seq {sent}, the next event is seq {current_seq}; reload and try again")]
    Stale { sent: u64, current_seq: u64 },
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// The seat has used up its moves for now (`rate`); nothing was read or written.
    #[error("seat {seat} is making moves too fast ({limit}); this move was not recorded — try again in {retry_after_secs} s", limit = .limited.rate, retry_after_secs = .limited.retry_after_secs())]
    RateLimited {
        seat: String,
        limited: rate::Limited,
    },
    /// The idempotency key was used for a different request (`keys`); nothing was written.
    #[error("idempotency_key '{key}' was already used for a different move (another expected_seq, command or client_entropy); nothing was recorded — use a new key for a new move")]
    KeyReused { key: String },
    /// A request with the same idempotency key is being handled now (`keys`).
    #[error("a move with idempotency_key '{key}' is still being handled; send it again in a moment to get its answer")]
    InProgress { key: String },
    /// The database is out of reach or too busy for now; try again shortly.
    #[error("the database is unavailable for now ({0}); try again in a few seconds (a move sent again with the same idempotency_key is never recorded twice)")]
    Unavailable(String),
    #[error("the stored log does not fold: {0}")]
    Corrupt(String),
    /// A stored game this build cannot fold (issue 37): nothing a player can do about it; an
    /// operator runs `despatch check` (docs/operations.md).
    #[error(transparent)]
    WouldNotLoad(Box<WouldNotLoad>),
    #[error(transparent)]
    Store(StoreError),
}

/// One thing wrong with a request: the field (`seats[1].email`, `scenario`) and what is wrong
/// with it, in words a player reads.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct Problem {
    pub field: String,
    pub message: String,
}

impl Problem {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Problem {
        Problem {
            field: field.into(),
            message: message.into(),
        }
    }

    /// The problems as one sentence: each message (which names its field), separated by
    /// semicolons.
    pub fn sentence(problems: &[Problem]) -> String {
        problems
            .iter()
            .map(|p| p.message.as_str())
            .collect::<Vec<_>>()
            .join("; ")
    }
}

impl From<StoreError> for ServiceError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Unavailable(e) => ServiceError::Unavailable(e.to_string()),
            // A face meets no store error it must tell apart: a missing game is one like any other.
            StoreError::NoGame(id) => ServiceError::NotFound(format!("there is no game {id}")),
            e => ServiceError::Store(e),
        }
    }
}

/// A proof asked of an event that has none is the asker's "not found"; one the log cannot
/// give is the log's fault.
impl From<super::proof::ProofError> for ServiceError {
    fn from(e: super::proof::ProofError) -> Self {
        if e.is_corrupt_log() {
            ServiceError::Corrupt(e.to_string())
        } else {
            ServiceError::NotFound(e.to_string())
        }
    }
}

/// A path, an address or an argument that is no game id names no game: "not found", as for an
/// id no game has, with what a game id is (`store::GameId`).
impl From<GameIdError> for ServiceError {
    fn from(e: GameIdError) -> Self {
        ServiceError::NotFound(e.to_string())
    }
}

/// Why a stored game does not load with this build: the game, the rules it was begun under,
/// the first event that does not fold and what is wrong with it. What `despatch check` reports
/// and what a page or the API answers for the game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("game {game_id} ({ruleset}, rules version {ruleset_version}) does not load with this server: event {seq}: {problem}. The server's operator should run `despatch check` (docs/operations.md, \"Upgrading a server with running campaigns\")")]
pub struct WouldNotLoad {
    pub game_id: String,
    pub ruleset: String,
    /// The rules version its `GameCreated` records ("unknown" when that cannot be read).
    pub ruleset_version: String,
    /// The first event that does not fold.
    pub seq: u64,
    pub problem: String,
}

impl From<WouldNotLoad> for ServiceError {
    fn from(e: WouldNotLoad) -> Self {
        ServiceError::WouldNotLoad(Box::new(e))
    }
}

pub type Result<T, E = ServiceError> = std::result::Result<T, E>;
