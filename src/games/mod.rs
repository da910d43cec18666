//! The application service: the one path of a move. Load and fold, apply, append with outbox
//! rows in one transaction, answer. HTTP, email, the CLI and the clock all call it, so a move is
//! handled in one place. It speaks neither HTTP nor SMTP.

pub mod cache;
mod health;
pub mod input;
pub mod keys;
pub mod proof;
pub mod rate;
pub mod secrets;
pub mod table;

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use utoipa::ToSchema;

use crate::engine::canonical::{random32, sha256_hex};
use crate::engine::event::{kind, timestamp, Event};
use crate::engine::export::{self, Header};
use crate::engine::game::World;
use crate::engine::game::{Game, Move, CHAIN_LENGTH};
use crate::engine::ruleset::{
    Line, Outcome, Prompt, RuleError, Ruleset, Seat, SeatDef, Setup, Unexecuted, Viewer,
};
use crate::engine::sealed::SealedChoice;
use crate::notify::clock::{ClockChoice, ClockPolicy, SystemClock};
use crate::notify::live::Hub;
use crate::notify::{links, notice};
use crate::rules;
use crate::store::{
    Append, Channels, GameRecord, Idempotency, OutboxRecord, SeatRecord, Store, StoreError,
    WebhookRecord,
};
use secrets::{GameSecrets, SystemWorld};

pub use crate::notify::clock::Clock;

/// What went wrong, for the caller.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    NotFound(String),
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
    #[error(transparent)]
    Store(StoreError),
}

impl From<StoreError> for ServiceError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Unavailable(e) => ServiceError::Unavailable(e.to_string()),
            e => ServiceError::Store(e),
        }
    }
}

pub type Result<T, E = ServiceError> = std::result::Result<T, E>;

/// A seat asked for at creation.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct NewSeat {
    /// The seat id; for rulesets with fixed seats one of the scenario's seats. Derived from the
    /// name when omitted.
    #[serde(default)]
    pub seat: Option<String>,
    #[schema(min_length = 1, max_length = 100)]
    pub name: String,
    #[serde(default)]
    pub email: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct NewGame {
    /// A ruleset id (`open-table`, …).
    pub ruleset: String,
    #[serde(default = "default_scenario")]
    pub scenario: String,
    #[serde(default)]
    #[schema(value_type = Object)]
    pub options: Value,
    pub seats: Vec<NewSeat>,
    /// The game's clock: a preset (`relaxed`, `standard`, `brisk`) or a policy spelled out.
    /// Without one the game has no deadlines.
    #[serde(default)]
    pub clock: Option<ClockChoice>,
}

fn default_scenario() -> String {
    "default".into()
}

/// A seat's secret token and link: shown once, at creation.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SeatAccess {
    pub seat: String,
    pub name: String,
    pub token: String,
    pub link: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct CreatedGame {
    pub game_id: String,
    pub seats: Vec<SeatAccess>,
}

/// A game's public summary.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Summary {
    pub game_id: String,
    pub ruleset: String,
    pub ruleset_version: String,
    pub scenario: String,
    #[schema(value_type = Object)]
    pub options: Value,
    #[schema(value_type = Vec<Object>)]
    pub seats: Vec<SeatDef>,
    pub next_seq: u64,
    /// Who may act now.
    #[schema(value_type = Vec<Object>)]
    pub waiting_for: Vec<Prompt>,
    #[schema(value_type = Object)]
    pub outcome: Outcome,
    pub ended: bool,
}

/// A command as submitted: JSON, or text in the game's order language.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum CommandInput {
    Text(String),
    #[schema(value_type = Object)]
    Json(Value),
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Submit {
    /// The seq the move's first event must have (the game's `next_seq` when the move was made).
    #[serde(deserialize_with = "seq_number")]
    #[schema(minimum = 0, maximum = 9223372036854775807_u64)]
    pub expected_seq: u64,
    pub command: CommandInput,
    /// Any string the player's client chooses; it goes into the dice derivation.
    #[serde(default)]
    pub client_entropy: String,
    /// Retrying with the same key returns the first answer and writes nothing.
    #[serde(default)]
    pub idempotency_key: Option<String>,
}

/// The largest seq the service takes from a caller: the store numbers events in a signed 64-bit
/// column, so a larger one could never match and is refused as a bad request instead.
pub const MAX_SEQ: u64 = i64::MAX as u64;

/// `expected_seq`: a whole number from 0 to `MAX_SEQ`, refused by name otherwise (serde's own
/// message would not say which field).
fn seq_number<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<u64, D::Error> {
    let value = Value::deserialize(d)?;
    value
        .as_u64()
        .filter(|&n| n <= MAX_SEQ)
        .ok_or_else(|| {
            serde::de::Error::custom(format!(
                "expected_seq must be a whole number from 0 to {MAX_SEQ} (the game's next_seq); {value} is not"
            ))
        })
}

/// The answer to an accepted move.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MoveResult {
    /// The events appended, with their dice proofs.
    #[schema(value_type = Vec<Object>)]
    pub events: Vec<Event>,
    /// What happened, as far as this seat may read.
    #[schema(value_type = Vec<Object>)]
    pub lines: Vec<Line>,
    /// The part of the order not carried out, and why.
    #[schema(value_type = Option<Object>)]
    pub unexecuted: Option<Unexecuted>,
    pub next_seq: u64,
    /// The order as the game understood it, in its order language.
    pub described: String,
    /// True when this is the saved answer to a repeated idempotency key.
    #[serde(default)]
    pub replayed: bool,
}

/// One event of a game's log, as a viewer may read it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LogEntry {
    pub seq: u64,
    pub kind: String,
    pub seat: String,
    pub lines: Vec<String>,
    /// (sides, face) of each public die.
    pub rolls: Vec<(u32, u32)>,
}

/// An idempotency key as one request uses it.
struct KeyUse {
    key: String,
    /// `keys::request_hash` of the request.
    request_hash: String,
    /// When it was used, by the service's clock (keys expire `store::KEY_LIFETIME` later).
    at: chrono::DateTime<chrono::Utc>,
}

/// An authenticated caller.
#[derive(Debug, Clone)]
pub struct Caller {
    pub game_id: String,
    pub seat: Seat,
}

/// A loaded game: its record, its seats and its folded state.
pub struct Loaded {
    pub record: GameRecord,
    pub seats: Vec<SeatRecord>,
    /// The whole log, shared with the fold cache (`cache`): cloning a `Loaded` copies no event.
    pub events: Arc<Vec<Event>>,
    pub game: Game,
    pub secrets: GameSecrets,
}

/// The service.
#[derive(Clone)]
pub struct Games {
    pub store: Store,
    pub base_url: String,
    /// The folded games every load reads through (`cache`).
    folds: cache::FoldCache,
    /// "Now", for the events it records and the deadlines it checks.
    pub clock: Arc<dyn Clock>,
    /// Where appends are announced to open pages.
    pub live: Hub,
    /// The key that signs links: configured, or fetched from the store on first use.
    secret: Option<[u8; 32]>,
    /// Per-seat move rate limits; none unless configured (`with_move_rate`).
    moves: Option<rate::MoveLimiter>,
    /// Idempotency keys whose moves are being handled now.
    keys: keys::InFlight,
    /// Games created per client address over HTTP; none unless configured (`with_create_rate`).
    creations: Option<rate::Buckets<std::net::IpAddr>>,
    link_key: Arc<tokio::sync::OnceCell<[u8; 32]>>,
}

/// The world of a move made by this service: the service's clock, the OS's randomness.
struct ServiceWorld<'a>(&'a dyn Clock);

impl World for ServiceWorld<'_> {
    fn now(&self) -> String {
        timestamp(self.0.now())
    }
    fn random32(&mut self) -> [u8; 32] {
        SystemWorld.random32()
    }
    fn seal(&mut self, choice: Value) -> SealedChoice {
        SystemWorld.seal(choice)
    }
}

/// A webhook as registered: its secret is in this answer only.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct NewWebhook {
    /// Where to `POST` notices (http or https).
    pub url: String,
    /// `seat` (default): this seat's notices, with its links. `game`: every seat's notices,
    /// without links, for a table's shared channel.
    #[serde(default)]
    pub scope: Option<String>,
    /// `json` (default) or `discord`.
    #[serde(default)]
    pub format: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Webhook {
    pub hook_id: String,
    pub url: String,
    pub scope: String,
    pub format: String,
    /// Shown once, when the hook is registered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
}

/// A vacation asked for in advance.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct VacationRequest {
    /// RFC 3339.
    pub from: String,
    /// RFC 3339.
    pub until: String,
}

const MAX_ENTROPY: usize = 256;
/// The longest seat name, in characters.
pub const MAX_NAME: usize = 100;

impl Games {
    pub fn new(store: Store, base_url: impl Into<String>) -> Self {
        Games {
            store,
            base_url: base_url.into().trim_end_matches('/').to_owned(),
            folds: cache::FoldCache::new(cache::Limits::from_env()),
            clock: Arc::new(SystemClock),
            live: Hub::new(),
            secret: None,
            moves: None,
            keys: keys::InFlight::default(),
            creations: None,
            link_key: Arc::new(tokio::sync::OnceCell::new()),
        }
    }

    /// The same service with a fold cache of other bounds (tests; the server reads
    /// `DESPATCH_FOLD_CACHE_GAMES` / `DESPATCH_FOLD_CACHE_MB`).
    pub fn with_fold_cache(mut self, limits: cache::Limits) -> Self {
        self.folds = cache::FoldCache::new(limits);
        self
    }

    /// The fold cache, for tests that look inside it.
    pub fn fold_cache(&self) -> &cache::FoldCache {
        &self.folds
    }

    /// The same service on another clock (tests and benchmarks inject one).
    pub fn with_clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.clock = clock;
        self
    }

    /// Limits each seat's moves to `rate` (`None`: no limit). The server sets this from
    /// `DESPATCH_MOVE_RATE` / `DESPATCH_MOVE_BURST`; a service made with `new` has no limit.
    pub fn with_move_rate(mut self, rate: Option<rate::MoveRate>) -> Self {
        self.moves = rate.map(rate::MoveLimiter::new);
        self
    }

    /// Limits the games each client address creates over HTTP to `rate` (`None`: no limit).
    /// The server sets this from `DESPATCH_CREATE_RATE` / `DESPATCH_CREATE_BURST`; the HTTP
    /// face asks `creation_limit` before it calls `create`, since only it knows the address.
    pub fn with_create_rate(mut self, rate: Option<rate::MoveRate>) -> Self {
        self.creations = rate.map(rate::Buckets::new);
        self
    }

    /// The buckets of `with_create_rate`, if any.
    pub fn creation_limit(&self) -> Option<&rate::Buckets<std::net::IpAddr>> {
        self.creations.as_ref()
    }

    /// Signs links with a configured secret instead of the key kept in the database.
    pub fn with_secret(mut self, secret: Option<&str>) -> Self {
        self.secret = secret.map(links::key_from_secret);
        self
    }

    /// The key that signs seat links, unsubscribe links and reply-to addresses.
    pub async fn link_key(&self) -> Result<[u8; 32]> {
        if let Some(key) = self.secret {
            return Ok(key);
        }
        let store = self.store.clone();
        Ok(*self
            .link_key
            .get_or_try_init(|| async move { store.server_key("links").await })
            .await?)
    }

    fn world(&self) -> ServiceWorld<'_> {
        ServiceWorld(self.clock.as_ref())
    }

    fn ruleset(id: &str) -> Result<Arc<dyn Ruleset>> {
        rules::find(id).ok_or_else(|| {
            let known: Vec<String> = rules::all().iter().map(|r| r.info().id).collect();
            ServiceError::BadRequest(format!(
                "unknown ruleset '{id}'; this server plays {}",
                known.join(", ")
            ))
        })
    }

    /// The link a seat opens to play.
    pub fn seat_link(&self, game_id: &str, token: &str) -> String {
        format!("{}/games/{game_id}?token={token}", self.base_url)
    }

    /// Creates a game: each seat's token and link are in the answer and nowhere else.
    pub async fn create(&self, req: NewGame) -> Result<CreatedGame> {
        let ruleset = Self::ruleset(&req.ruleset)?;
        let info = ruleset.info();
        let scenario = info
            .scenarios
            .iter()
            .find(|s| s.id == req.scenario)
            .ok_or_else(|| {
                let ids: Vec<&str> = info.scenarios.iter().map(|s| s.id.as_str()).collect();
                ServiceError::BadRequest(format!(
                    "{} has no scenario '{}'; choose one of {}",
                    info.id,
                    req.scenario,
                    ids.join(", ")
                ))
            })?;
        let n = req.seats.len();
        if n < scenario.min_seats || n > scenario.max_seats {
            return Err(ServiceError::BadRequest(format!(
                "{} / {} seats {} to {} players; {n} were given",
                info.id, scenario.id, scenario.min_seats, scenario.max_seats
            )));
        }
        let mut seats = Vec::new();
        for (i, s) in req.seats.iter().enumerate() {
            let name = s.name.trim();
            if name.is_empty() {
                return Err(ServiceError::BadRequest(format!(
                    "seats[{i}].name is empty: every seat needs a name of 1 to {MAX_NAME} characters"
                )));
            }
            input::single_line(&format!("seats[{i}].name"), name, MAX_NAME)?;
            if let Some(id) = &s.seat {
                input::single_line(&format!("seats[{i}].seat"), id, 32)?;
            }
            let seat = match &s.seat {
                Some(id) => Seat::parse(id),
                None => Seat::from_name(name),
            }
            .map_err(ServiceError::BadRequest)?;
            if !scenario.seats.is_empty() && !scenario.seats.iter().any(|s| s == seat.as_str()) {
                return Err(ServiceError::BadRequest(format!(
                    "'{seat}' is not a seat of {} / {}; its seats are {}",
                    info.id,
                    scenario.id,
                    scenario.seats.join(", ")
                )));
            }
            if seats.iter().any(|d: &SeatDef| d.seat == seat) {
                return Err(ServiceError::BadRequest(format!(
                    "two seats are both '{seat}'; give each seat its own id or name"
                )));
            }
            if let Some(email) = &s.email {
                input::single_line(&format!("seats[{i}].email"), email, 254)?;
                if !email.contains('@') || email.contains(char::is_whitespace) {
                    return Err(ServiceError::BadRequest(format!(
                        "'{email}' is not an email address"
                    )));
                }
            }
            seats.push(SeatDef {
                seat,
                name: name.to_owned(),
            });
        }
        let game_id = new_game_id();
        let options = if req.options.is_null() {
            json!({})
        } else {
            req.options.clone()
        };
        if !options.is_object() {
            return Err(ServiceError::BadRequest(
                "options must be a JSON object".into(),
            ));
        }
        let setup = Setup {
            game_id: game_id.clone(),
            scenario: scenario.id.clone(),
            options,
            seats: seats.clone(),
        };
        let clock = req
            .clock
            .as_ref()
            .map(ClockPolicy::choose)
            .transpose()
            .map_err(ServiceError::BadRequest)?;
        let mut world = self.world();
        let created = Game::create(ruleset, setup, &mut world)?;
        // A clocked game's log opens with its policy, so the log tells the whole story.
        let mut events = vec![created.event.clone()];
        let mut game = created.game.clone();
        if let Some(policy) = &clock {
            let (event, next) =
                game.note_clock(json!({ "clock": "policy", "policy": policy }), &mut world)?;
            events.push(event);
            game = next;
        }
        let mut access = Vec::new();
        let mut records = Vec::new();
        for (def, s) in seats.iter().zip(&req.seats) {
            let token = hex::encode(random32());
            records.push(SeatRecord {
                game_id: game_id.clone(),
                seat: def.seat.to_string(),
                name: def.name.clone(),
                email: s.email.clone(),
                token_hash: sha256_hex(token.as_bytes()),
            });
            access.push(SeatAccess {
                seat: def.seat.to_string(),
                name: def.name.clone(),
                link: self.seat_link(&game_id, &token),
                token,
            });
        }
        let record = GameRecord {
            game_id: game_id.clone(),
            ruleset: info.id,
            scenario: scenario.id.clone(),
            created_at: created.event.recorded_at.clone(),
            next_seq: events.len() as u64,
            ended: false,
        };
        if let Some(policy) = &clock {
            // Written first: a clocked game never exists without its policy row (an orphan
            // row, if creation fails, names no game and is never read).
            self.store
                .set_clock(
                    &game_id,
                    &serde_json::to_value(policy).expect("serialisable"),
                )
                .await?;
        }
        let append = Append {
            outbox: turn_notices(&game, &events),
            events,
            secrets: secrets::for_new_game(
                &game_id,
                created.hidden_seed,
                created.chain_tip,
                CHAIN_LENGTH,
            ),
            idempotency: None,
        };
        self.store.create_game(&record, &records, &append).await?;
        self.live
            .announce(&self.store, &game_id, record.next_seq)
            .await;
        Ok(CreatedGame {
            game_id,
            seats: access,
        })
    }

    /// Loads a game folded to its latest event: the cached fold (`cache`) moved on by the events
    /// appended since — asked of the store every time, so a move made by another process is
    /// never missed — or, on a miss, the whole log folded and kept.
    pub async fn load(&self, game_id: &str) -> Result<Loaded> {
        if let Some(cached) = self.folds.get(game_id) {
            let from = cached.game.next_seq;
            let tail = self.store.events(game_id, from, None).await?;
            if tail.is_empty() {
                return Ok(cached);
            }
            // Appended by another process (or by a clock event here): fold those onto the
            // cached state, with the secrets they may have added read again.
            let Loaded { mut game, .. } = cached;
            let folded = tail.iter().try_for_each(|e| game.fold_event_quietly(e));
            if folded.is_ok() {
                let secrets = GameSecrets::from_records(&self.store.secrets(game_id).await?);
                let reloaded = cache::Secrets::Reloaded(secrets);
                if let Some(l) = self.folds.advance(game_id, from, game, tail, reloaded) {
                    return Ok(l);
                }
            } else {
                self.folds.forget(game_id);
            }
        }
        let l = self.load_whole(game_id).await?;
        self.folds.put(&l);
        Ok(l)
    }

    /// Loads a game and folds its whole log.
    async fn load_whole(&self, game_id: &str) -> Result<Loaded> {
        let record = self
            .store
            .game(game_id)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("there is no game {game_id}")))?;
        let ruleset = Self::ruleset(&record.ruleset)?;
        let seats = self.store.seats(game_id).await?;
        let events = self.store.events(game_id, 0, None).await?;
        let secrets = GameSecrets::from_records(&self.store.secrets(game_id).await?);
        let game = Game::fold(ruleset, &events, secrets.hidden_seed)
            .map_err(|e| ServiceError::Corrupt(e.to_string()))?;
        // The record is read before the events: it may be behind them.
        let record = GameRecord {
            next_seq: game.next_seq,
            ended: game.ended,
            ..record
        };
        Ok(Loaded {
            record,
            seats,
            events: Arc::new(events),
            game,
            secrets,
        })
    }

    /// The seat a bearer token opens.
    /// A seat's own token or a signed seat link token (`s1.…`, from a notice's magic link) both
    /// open the seat.
    pub async fn authenticate(&self, game_id: &str, token: Option<&str>) -> Result<Caller> {
        let token = token.ok_or(ServiceError::Unauthorized)?;
        self.store
            .game(game_id)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("there is no game {game_id}")))?;
        if links::is_seat_token(token.trim()) {
            let key = self.link_key().await?;
            let seat = links::open_seat_token(&key, game_id, token.trim()).ok_or_else(|| {
                ServiceError::Forbidden(format!("this link is not a seat link of game {game_id}"))
            })?;
            return Ok(Caller {
                game_id: game_id.to_owned(),
                seat: Seat::parse(&seat).map_err(ServiceError::Corrupt)?,
            });
        }
        let seat = self
            .store
            .seat_by_token(game_id, &sha256_hex(token.trim().as_bytes()))
            .await?
            .ok_or_else(|| {
                ServiceError::Forbidden(format!("this token is not a seat of game {game_id}"))
            })?;
        Ok(Caller {
            game_id: game_id.to_owned(),
            seat: Seat::parse(&seat.seat).map_err(ServiceError::Corrupt)?,
        })
    }

    pub async fn summary(&self, game_id: &str) -> Result<Summary> {
        let l = self.load(game_id).await?;
        Ok(summary_of(&l.game))
    }

    /// What a viewer may see of the game.
    pub async fn view(&self, game_id: &str, viewer: &Viewer) -> Result<Value> {
        let l = self.load(game_id).await?;
        let viewer = if l.game.ended {
            Viewer::Everyone
        } else {
            viewer.clone()
        };
        let mut view = l.game.view(&viewer);
        if let (Viewer::Seat(seat), Some(obj)) = (&viewer, view.as_object_mut()) {
            // The seat's own sealed choices, which only the server's secrets hold.
            let mine: Vec<Value> = l
                .secrets
                .sealed_by(seat.as_str())
                .filter(|s| l.game.open_seals.contains_key(&s.commitment))
                .map(|s| json!({ "commitment": s.commitment, "choice": s.choice }))
                .collect();
            obj.insert("your_sealed".into(), Value::Array(mine));
        }
        let board_text = l.game.ruleset.board_text(&l.game.state, &viewer);
        Ok(json!({ "summary": summary_of(&l.game), "view": view, "board_text": board_text }))
    }

    /// What the seat may do now.
    pub async fn legal_moves(&self, caller: &Caller) -> Result<Value> {
        let l = self.load(&caller.game_id).await?;
        let prompts: Vec<Prompt> = l
            .game
            .prompts()
            .into_iter()
            .filter(|p| p.seat == caller.seat)
            .collect();
        Ok(json!({
            "seat": caller.seat,
            "next_seq": l.game.next_seq,
            "your_turn": !prompts.is_empty(),
            "prompts": prompts,
            "grammar": l.game.ruleset.info().grammar,
        }))
    }

    /// Submits a command: the one path of a move. Its outcome is counted (`crate::metrics`).
    pub async fn submit(&self, caller: &Caller, submit: Submit) -> Result<MoveResult> {
        let result = self.submit_counted(caller, submit).await;
        crate::metrics::moved(&caller.game_id, &result);
        result
    }

    async fn submit_counted(&self, caller: &Caller, submit: Submit) -> Result<MoveResult> {
        if let Some(moves) = &self.moves {
            moves
                .check(&caller.game_id, caller.seat.as_str())
                .map_err(|limited| ServiceError::RateLimited {
                    seat: caller.seat.to_string(),
                    limited,
                })?;
        }
        check_submit(&submit)?;
        if submit.client_entropy.len() > MAX_ENTROPY {
            return Err(ServiceError::BadRequest(format!(
                "client_entropy is at most {MAX_ENTROPY} characters"
            )));
        }
        let key = submit
            .idempotency_key
            .as_deref()
            .map(str::trim)
            .filter(|k| !k.is_empty());
        let keyed = match key {
            Some(key) => Some(self.hold_key(caller, key, &submit).await?),
            None => None,
        };
        if let Some((_, k)) = &keyed {
            if let Some(saved) = self.saved_answer(caller, k).await? {
                return replayed(saved);
            }
        }
        let key = keyed.as_ref().map(|(_, k)| k);
        let l = self.load(&caller.game_id).await?;
        crate::metrics::note_ruleset(&caller.game_id, &l.record.ruleset);
        if submit.expected_seq != l.game.next_seq {
            return self
                .stale_or_saved(caller, key, submit.expected_seq, l.game.next_seq)
                .await;
        }
        let command = match &submit.command {
            CommandInput::Text(text) => l.game.ruleset.parse(&l.game.state, &caller.seat, text)?,
            CommandInput::Json(value) => l.game.ruleset.check_json(value)?,
        };
        let described = l.game.ruleset.describe(&command)?;
        let mv = Move::Command {
            seat: caller.seat.clone(),
            command,
            client_entropy: submit.client_entropy.clone(),
        };
        match self
            .commit(l, mv, &Viewer::Seat(caller.seat.clone()), described, key)
            .await
        {
            Err(ServiceError::Stale { sent, current_seq }) => {
                self.stale_or_saved(caller, key, sent, current_seq).await
            }
            other => other,
        }
    }

    /// Checks an idempotency key and holds it while its move is handled (`keys`): a key held
    /// by another request now is `InProgress`.
    async fn hold_key(
        &self,
        caller: &Caller,
        key: &str,
        submit: &Submit,
    ) -> Result<(keys::Held, KeyUse)> {
        if key.len() > 200 {
            return Err(ServiceError::BadRequest(
                "idempotency_key is at most 200 characters".into(),
            ));
        }
        let held = self
            .keys
            .hold(&caller.game_id, caller.seat.as_str(), key)
            .ok_or_else(|| ServiceError::InProgress { key: key.into() })?;
        let used = KeyUse {
            key: key.to_owned(),
            request_hash: keys::request_hash(submit),
            at: self.clock.now(),
        };
        Ok((held, used))
    }

    /// The saved answer to a key used before for the same request; `KeyReused` if it was used
    /// for another.
    async fn saved_answer(&self, caller: &Caller, k: &KeyUse) -> Result<Option<Value>> {
        match self
            .store
            .saved_answer(
                &caller.game_id,
                caller.seat.as_str(),
                &k.key,
                &k.request_hash,
                k.at,
            )
            .await
        {
            Err(StoreError::KeyReused) => Err(ServiceError::KeyReused { key: k.key.clone() }),
            other => Ok(other?),
        }
    }

    /// A move found the game moved on. If it carries a key, the move that moved the game may
    /// be its own first attempt (handled by another process, or finished since the key was
    /// checked): then the answer is that attempt's, not `stale_seq`.
    async fn stale_or_saved(
        &self,
        caller: &Caller,
        key: Option<&KeyUse>,
        sent: u64,
        current_seq: u64,
    ) -> Result<MoveResult> {
        if let Some(k) = key {
            if let Some(saved) = self.saved_answer(caller, k).await? {
                return replayed(saved);
            }
        }
        Err(ServiceError::Stale { sent, current_seq })
    }

    /// A seat resigns.
    pub async fn resign(&self, caller: &Caller) -> Result<MoveResult> {
        let l = self.load(&caller.game_id).await?;
        self.commit(
            l,
            Move::Resign {
                seat: caller.seat.clone(),
            },
            &Viewer::Seat(caller.seat.clone()),
            "resign".into(),
            None,
        )
        .await
    }

    /// A prompt's deadline passed: play it as a pass where the rules allow.
    pub async fn timeout(&self, game_id: &str, seat: &Seat) -> Result<MoveResult> {
        let l = self.load(game_id).await?;
        self.commit(
            l,
            Move::Timeout { seat: seat.clone() },
            &Viewer::Spectator,
            format!("timeout {seat}"),
            None,
        )
        .await
    }

    async fn commit(
        &self,
        l: Loaded,
        mv: Move,
        viewer: &Viewer,
        described: String,
        key: Option<&KeyUse>,
    ) -> Result<MoveResult> {
        let seat = match &mv {
            Move::Command { seat, .. } | Move::Resign { seat } | Move::Timeout { seat } => {
                seat.clone()
            }
        };
        // Let go of the shared log, so that the cache can extend it in place afterwards.
        let Loaded {
            record,
            game,
            secrets,
            ..
        } = l;
        let game_id = record.game_id;
        let played = game.play(mv, &secrets, &mut self.world())?;
        let result = MoveResult {
            lines: played
                .applied
                .lines
                .iter()
                .filter(|line| viewer.may_see(line.to.as_deref()))
                .cloned()
                .collect(),
            unexecuted: played.applied.unexecuted.clone(),
            next_seq: played.game.next_seq,
            events: played.events.clone(),
            described,
            replayed: false,
        };
        let append = Append {
            outbox: turn_notices(&played.game, &played.events),
            secrets: secrets::records(&game_id, &played.secrets),
            idempotency: key.map(|k| Idempotency {
                seat: seat.to_string(),
                key: k.key.clone(),
                request_hash: k.request_hash.clone(),
                used_at: k.at,
                response: serde_json::to_value(&result).expect("serialisable"),
            }),
            events: played.events,
        };
        match crate::metrics::timed_append(self.store.append(&game_id, game.next_seq, &append))
            .await
        {
            Ok(()) => {
                // The state just played is the state the next load would fold to.
                self.folds.advance(
                    &game_id,
                    game.next_seq,
                    played.game,
                    append.events,
                    cache::Secrets::Written(&append.secrets),
                );
                self.live
                    .announce(&self.store, &game_id, result.next_seq)
                    .await;
                Ok(result)
            }
            Err(StoreError::Stale { current_seq }) => {
                // Another process appended first: the next load folds what it wrote.
                Err(ServiceError::Stale {
                    sent: game.next_seq,
                    current_seq,
                })
            }
            Err(StoreError::Replayed { response }) => replayed(response),
            Err(StoreError::KeyReused) => Err(ServiceError::KeyReused {
                key: key.map(|k| k.key.clone()).unwrap_or_default(),
            }),
            Err(e) => Err(e.into()),
        }
    }

    /// Appends what the game's clock did — a `Clock` event with its notices — and, when a
    /// missed deadline has a consequence, the move it makes (a pass or a resignation), all in one
    /// append at the seq `l` was loaded at. A racing append makes it `Stale`.
    pub async fn clock_event(
        &self,
        l: &Loaded,
        payload: Value,
        notices: Vec<OutboxRecord>,
        then: Option<Move>,
    ) -> Result<u64> {
        let mut world = self.world();
        let (event, game) = l.game.note_clock(payload, &mut world)?;
        let mut events = vec![event];
        let mut outbox = notices;
        let mut new_secrets = Vec::new();
        let mut next_seq = game.next_seq;
        if let Some(mv) = then {
            let played = game.play(mv, &l.secrets, &mut world)?;
            outbox.extend(turn_notices(&played.game, &played.events));
            new_secrets = secrets::records(&l.record.game_id, &played.secrets);
            next_seq = played.game.next_seq;
            events.extend(played.events);
        }
        let append = Append {
            events,
            secrets: new_secrets,
            outbox,
            idempotency: None,
        };
        match self
            .store
            .append(&l.record.game_id, l.game.next_seq, &append)
            .await
        {
            Ok(()) => {
                self.live
                    .announce(&self.store, &l.record.game_id, next_seq)
                    .await;
                Ok(next_seq)
            }
            Err(StoreError::Stale { current_seq }) => Err(ServiceError::Stale {
                sent: l.game.next_seq,
                current_seq,
            }),
            Err(e) => Err(e.into()),
        }
    }

    /// The game's clock policy, if it has one.
    pub async fn clock_policy(&self, game_id: &str) -> Result<Option<ClockPolicy>> {
        match self.store.clock(game_id).await? {
            None => Ok(None),
            Some(v) => serde_json::from_value(v)
                .map(Some)
                .map_err(|e| ServiceError::Corrupt(format!("the clock policy is malformed: {e}"))),
        }
    }

    /// A seat takes a vacation, in advance, within its yearly allowance: its deadlines do not
    /// run while it lasts. Recorded as a `Clock` event.
    pub async fn take_vacation(&self, caller: &Caller, req: &VacationRequest) -> Result<Value> {
        let policy = self.clock_policy(&caller.game_id).await?.ok_or_else(|| {
            ServiceError::BadRequest("this game has no clock, so it has no vacations".into())
        })?;
        let parse = |what: &str, text: &str| {
            chrono::DateTime::parse_from_rfc3339(text)
                .map(|t| t.with_timezone(&chrono::Utc))
                .map_err(|_| {
                    ServiceError::BadRequest(format!(
                        "{what} '{text}' is not an RFC 3339 time (2026-12-24T00:00:00Z)"
                    ))
                })
        };
        let (from, until) = (parse("from", &req.from)?, parse("until", &req.until)?);
        let now = self.clock.now();
        if from < now - chrono::Duration::minutes(5) {
            return Err(ServiceError::BadRequest(
                "a vacation is taken in advance: 'from' must not be in the past".into(),
            ));
        }
        if until <= from {
            return Err(ServiceError::BadRequest(
                "'until' must come after 'from'".into(),
            ));
        }
        let days = ((until - from).num_minutes() as f64 / (24.0 * 60.0)).ceil() as i64;
        for _ in 0..5 {
            let l = self.load(&caller.game_id).await?;
            let year = chrono::Datelike::year(&from);
            let taken: i64 = l
                .events
                .iter()
                .filter(|e| e.kind == kind::CLOCK)
                .filter(|e| e.payload.get("clock").and_then(Value::as_str) == Some("vacation"))
                .filter(|e| {
                    e.payload.get("seat").and_then(Value::as_str) == Some(caller.seat.as_str())
                })
                .filter(|e| {
                    e.payload
                        .get("from")
                        .and_then(Value::as_str)
                        .and_then(|f| chrono::DateTime::parse_from_rfc3339(f).ok())
                        .is_some_and(|f| chrono::Datelike::year(&f) == year)
                })
                .filter_map(|e| e.payload.get("days").and_then(Value::as_i64))
                .sum();
            let allowance = i64::from(policy.vacation_days_per_year);
            if taken + days > allowance {
                return Err(ServiceError::BadRequest(format!(
                    "{} has {} vacation days left in {year} ({allowance} a year, {taken} taken); this vacation is {days}",
                    caller.seat,
                    (allowance - taken).max(0)
                )));
            }
            let payload = json!({
                "clock": "vacation", "seat": caller.seat, "from": timestamp(from),
                "until": timestamp(until), "days": days,
            });
            match self.clock_event(&l, payload, Vec::new(), None).await {
                Ok(next_seq) => {
                    return Ok(
                        json!({ "seat": caller.seat, "from": timestamp(from), "until": timestamp(until),
                        "days": days, "days_left": allowance - taken - days, "next_seq": next_seq }),
                    )
                }
                Err(ServiceError::Stale { .. }) => continue,
                Err(e) => return Err(e),
            }
        }
        Err(ServiceError::BadRequest(
            "the game kept moving while the vacation was recorded; try again".into(),
        ))
    }

    /// Which channels the seat hears on.
    pub async fn channels(&self, caller: &Caller) -> Result<Channels> {
        Ok(self
            .store
            .channels(&caller.game_id, caller.seat.as_str())
            .await?)
    }

    pub async fn set_channels(&self, caller: &Caller, channels: Channels) -> Result<Channels> {
        self.store
            .set_channels(&caller.game_id, caller.seat.as_str(), channels)
            .await?;
        Ok(channels)
    }

    /// Turns a channel off from a signed unsubscribe link: no login.
    pub async fn unsubscribe(
        &self,
        game_id: &str,
        seat: &str,
        channel: &str,
        signature: &str,
    ) -> Result<Channels> {
        let key = self.link_key().await?;
        if !links::check_unsubscribe(&key, game_id, seat, channel, signature) {
            return Err(ServiceError::Forbidden(
                "this unsubscribe link is not valid (it may have been altered)".into(),
            ));
        }
        let mut channels = self.store.channels(game_id, seat).await?;
        match channel {
            "email" => channels.email = false,
            "webhooks" => channels.webhooks = false,
            other => {
                return Err(ServiceError::BadRequest(format!(
                    "'{other}' is not a channel; use email or webhooks"
                )))
            }
        }
        self.store.set_channels(game_id, seat, channels).await?;
        Ok(channels)
    }

    /// Registers a webhook for the caller's seat (or, with scope `game`, for every seat).
    pub async fn add_webhook(&self, caller: &Caller, req: &NewWebhook) -> Result<Webhook> {
        let url = req.url.trim();
        input::single_line("url", url, 2000)?;
        if !(url.starts_with("http://") || url.starts_with("https://")) || url.len() > 2000 {
            return Err(ServiceError::BadRequest(format!(
                "'{url}' is not an http(s) URL a webhook can be sent to"
            )));
        }
        let scope = req.scope.as_deref().unwrap_or("seat");
        if scope != "seat" && scope != "game" {
            return Err(ServiceError::BadRequest(format!(
                "scope '{scope}' is neither 'seat' nor 'game'"
            )));
        }
        let format = req.format.as_deref().unwrap_or("json");
        if format != "json" && format != "discord" {
            return Err(ServiceError::BadRequest(format!(
                "format '{format}' is neither 'json' nor 'discord'"
            )));
        }
        let existing = self.store.webhooks(&caller.game_id).await?;
        if existing.len() >= 20 {
            return Err(ServiceError::BadRequest(
                "a game has at most 20 webhooks; delete one first".into(),
            ));
        }
        let hook = WebhookRecord {
            game_id: caller.game_id.clone(),
            hook_id: format!("hook_{}", hex::encode(&random32()[..8])),
            seat: (scope == "seat").then(|| caller.seat.to_string()),
            url: url.to_owned(),
            secret: hex::encode(random32()),
            format: format.to_owned(),
        };
        self.store.add_webhook(&hook).await?;
        Ok(Webhook {
            hook_id: hook.hook_id,
            url: hook.url,
            scope: scope.to_owned(),
            format: hook.format,
            secret: Some(hook.secret),
        })
    }

    /// The caller's seat's hooks and the game-wide ones, without their secrets.
    pub async fn webhooks(&self, caller: &Caller) -> Result<Vec<Webhook>> {
        Ok(self
            .store
            .webhooks(&caller.game_id)
            .await?
            .into_iter()
            .filter(|h| h.seat.is_none() || h.seat.as_deref() == Some(caller.seat.as_str()))
            .map(|h| Webhook {
                scope: if h.seat.is_some() { "seat" } else { "game" }.into(),
                hook_id: h.hook_id,
                url: h.url,
                format: h.format,
                secret: None,
            })
            .collect())
    }

    pub async fn delete_webhook(&self, caller: &Caller, hook_id: &str) -> Result<()> {
        let mine = self
            .store
            .webhooks(&caller.game_id)
            .await?
            .into_iter()
            .any(|h| {
                h.hook_id == hook_id
                    && (h.seat.is_none() || h.seat.as_deref() == Some(caller.seat.as_str()))
            });
        if !mine || !self.store.delete_webhook(&caller.game_id, hook_id).await? {
            return Err(ServiceError::NotFound(format!(
                "your seat has no webhook {hook_id} in this game"
            )));
        }
        Ok(())
    }

    /// Events from `from` on. Events hold nothing secret (secrets live in their own table until
    /// an event reveals them), so every reader gets the same events.
    pub async fn events_after(&self, game_id: &str, from: u64) -> Result<Vec<Event>> {
        self.store
            .game(game_id)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("there is no game {game_id}")))?;
        Ok(self.store.events(game_id, from, None).await?)
    }

    /// The export for a viewer: redacted (no secret is in the log yet) while the game runs,
    /// complete once it has ended.
    ///
    /// The event lines are the stored text, byte for byte — exactly what was hashed — so the
    /// export parses only the first event (for the ruleset version) and serialises nothing
    /// again. The game record is read before the events: a game that ends in between is exported
    /// as still running (redacted), never as complete without its last event.
    pub async fn export(&self, game_id: &str, viewer: &Viewer) -> Result<String> {
        let record = self
            .store
            .game(game_id)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("there is no game {game_id}")))?;
        let lines = self.store.events_json(game_id, 0, None).await?;
        let first = lines
            .first()
            .ok_or_else(|| ServiceError::Corrupt("the game has no events".into()))?;
        let created: Event = serde_json::from_str(first)
            .map_err(|e| ServiceError::Corrupt(format!("event 0 does not parse: {e}")))?;
        let version = created
            .payload
            .get("ruleset_version")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let complete = record.ended;
        let header = Header {
            format: export::FORMAT.into(),
            version: export::VERSION,
            game_id: game_id.into(),
            ruleset: record.ruleset,
            ruleset_version: version,
            exported_at: timestamp(chrono::Utc::now()),
            complete,
            redacted_for: (!complete).then(|| match viewer {
                Viewer::Seat(s) => s.to_string(),
                _ => "spectator".into(),
            }),
            events: lines.len() as u64,
        };
        let mut out = serde_json::to_string(&header).expect("serialisable");
        out.reserve(lines.iter().map(|l| l.len() + 1).sum::<usize>() + 1);
        out.push('\n');
        for line in &lines {
            out.push_str(line);
            out.push('\n');
        }
        Ok(out)
    }

    /// The game's log as `viewer` may read it: each event with the lines it produced.
    pub async fn log(&self, game_id: &str, viewer: &Viewer) -> Result<Vec<LogEntry>> {
        let record = self
            .store
            .game(game_id)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("there is no game {game_id}")))?;
        let ruleset = Self::ruleset(&record.ruleset)?;
        let events = self.store.events(game_id, 0, None).await?;
        let secrets = GameSecrets::from_records(&self.store.secrets(game_id).await?);
        let corrupt = |e: crate::engine::game::FoldError| ServiceError::Corrupt(e.to_string());
        let mut game = Game::fold(ruleset, &events[..1.min(events.len())], secrets.hidden_seed)
            .map_err(corrupt)?;
        let mut log = vec![LogEntry {
            seq: 0,
            kind: kind::GAME_CREATED.into(),
            seat: "system".into(),
            lines: Vec::new(),
            rolls: Vec::new(),
        }];
        for e in &events[1..] {
            let applied = game.fold_event(e).map_err(corrupt)?;
            log.push(LogEntry {
                seq: e.seq,
                kind: e.kind.clone(),
                seat: e.seat.clone(),
                lines: applied
                    .lines
                    .into_iter()
                    .filter(|l| viewer.may_see(l.to.as_deref()))
                    .map(|l| l.text)
                    .collect(),
                rolls: e
                    .dice
                    .as_ref()
                    .map(|d| d.rolls.iter().map(|r| (r.sides, r.face)).collect())
                    .unwrap_or_default(),
            });
        }
        Ok(log)
    }

    /// The proof of one event's dice.
    pub async fn proof(&self, game_id: &str, seq: u64) -> Result<proof::Proof> {
        let events = self.store.events(game_id, 0, Some(seq + 1)).await?;
        if events.is_empty() {
            return Err(ServiceError::NotFound(format!(
                "there is no game {game_id}"
            )));
        }
        proof::prove(&events, seq).map_err(ServiceError::NotFound)
    }
}

/// The submitted texts that reach the log or the store hold no NUL, and the single-line ones no
/// control character at all (`input`).
fn check_submit(submit: &Submit) -> Result<()> {
    match &submit.command {
        CommandInput::Text(text) => input::free_text("command", text)?,
        CommandInput::Json(value) => input::json("command", value)?,
    }
    input::free_text("client_entropy", &submit.client_entropy)?;
    if let Some(key) = &submit.idempotency_key {
        input::single_line("idempotency_key", key, 200)?;
    }
    Ok(())
}

fn replayed(saved: Value) -> Result<MoveResult> {
    let mut result: MoveResult =
        serde_json::from_value(saved).map_err(|e| ServiceError::Corrupt(e.to_string()))?;
    result.replayed = true;
    Ok(result)
}

/// The public summary of a folded game.
pub fn summary_of(game: &Game) -> Summary {
    Summary {
        game_id: game.game_id.clone(),
        ruleset: game.created.ruleset.clone(),
        ruleset_version: game.created.ruleset_version.clone(),
        scenario: game.created.scenario.clone(),
        options: game.created.options.clone(),
        seats: game.created.seats.clone(),
        next_seq: game.next_seq,
        waiting_for: game.prompts(),
        outcome: game.outcome(),
        ended: game.ended,
    }
}

/// Outbox rows for the events just appended: a turn notice for each seat that must act now,
/// and a game-over notice for every seat when the game ends. The dispatcher (notify) sends them.
fn turn_notices(game: &Game, events: &[Event]) -> Vec<OutboxRecord> {
    let last = events.last().expect("an append has events");
    let seq = last.seq;
    if game.ended {
        return game
            .created
            .seats
            .iter()
            .map(|s| OutboxRecord {
                game_id: game.game_id.clone(),
                seq,
                channel: notice::GAME_OVER.into(),
                seat: Some(s.seat.to_string()),
                payload: json!({ "outcome": game.outcome() }),
            })
            .collect();
    }
    game.prompts()
        .into_iter()
        .map(|p| OutboxRecord {
            game_id: game.game_id.clone(),
            seq,
            channel: notice::TURN.into(),
            seat: Some(p.seat.to_string()),
            payload: json!({ "kind": p.kind, "decision": p.decision }),
        })
        .collect()
}

/// A new game id: a random UUID (version 4).
fn new_game_id() -> String {
    let mut b = random32();
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h = hex::encode(&b[..16]);
    format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}
