//! The application service: the one path of a move. Load and fold, apply, append with outbox
//! rows in one transaction, answer. HTTP, email, the CLI and the clock all call it, so a move is
//! handled in one place. It speaks neither HTTP nor SMTP.
//!
//! One file per concern: `create` (a new game), `load` (the cached fold), `snapshots` (what a
//! load reads when no fold is cached), `access` (who is
//! asking), `views` (what a viewer sees), `moves` (the one path of a move), `clock` and
//! `clock_events` (the game's clock: policies and deadlines, and its events in the log),
//! `channels` and `webhooks` (where a seat hears; `webhook_targets`: where a webhook may be sent), `mail` (what a reply by email asks),
//! `exports` (the log as it leaves), `players` (games' names, signing in by
//! email, a player's games), `settings` (a player's and a seat's settings, the daily
//! digest), `talk` (table talk, kept outside the log), `links` (every signed link and reply address),
//! `seat_links` (minting a message's links as it is sent, revoking a seat's links), `outbox`
//! (the words of the outbox), `dispatch` (what notify's dispatcher and scheduler ask of the
//! outbox and the clocks), `live` (appends announced to whoever listens), `check` (whether
//! every stored game loads with this build, for `despatch check`). This file holds the service
//! itself and its set-up. The store is the service's own (private): every other
//! part asks `Games`.

mod access;
mod auto_pass;
pub mod cache;
mod channels;
mod check;
pub mod clock;
mod clock_events;
mod create;
mod dispatch;
mod error;
mod exports;
pub mod files;
mod health;
mod inbound;
pub mod input;
pub mod keys;
pub mod links;
pub mod live;
mod load;
pub mod mail;
mod moves;
pub mod outbox;
pub mod players;
pub mod proof;
pub mod rate;
mod seat_links;
pub mod secrets;
pub mod settings;
mod snapshots;
pub mod table;
pub mod talk;
mod views;
pub mod webhook_targets;
mod webhooks;
pub mod when;

use std::sync::Arc;

use serde_json::Value;

use crate::engine::event::timestamp;
use crate::engine::game::World;
use crate::engine::ruleset::Ruleset;
use crate::engine::sealed::SealedChoice;
use crate::rules;
use secrets::SystemWorld;

pub use access::Caller;
pub use clock_events::VacationRequest;
pub use create::{CreatedGame, NewGame, NewSeat, SeatAccess, MAX_NAME};
pub use error::{Problem, Result, ServiceError, WouldNotLoad};
pub use exports::LogEntry;
pub use load::Loaded;
pub use moves::{Answer, CommandInput, MoveResult, Submit, MAX_SEQ};
pub use players::{MyGame, Session};
pub use views::{summary_of, Summary};
pub use webhooks::{NewWebhook, Webhook};

pub use crate::store::{GameId, GameIdError, Store};
pub use clock::Clock;
use clock::SystemClock;

/// The service.
#[derive(Clone)]
pub struct Games {
    /// The database, the service's alone: the faces ask `Games` (docs/architecture.md).
    store: Store,
    pub base_url: String,
    /// The folded games every load reads through (`cache`).
    folds: cache::FoldCache,
    /// How often the move path writes a game's snapshot (`snapshots`).
    snapshots: snapshots::Every,
    /// "Now", for the events it records and the deadlines it checks.
    pub clock: Arc<dyn Clock>,
    /// Who hears, in this process, of each append (`live`): the server's live hub, or nobody.
    live: Arc<dyn live::Listener>,
    /// Announcements on their way to the database (`live`).
    outgoing: live::Outgoing,
    /// The games this process's open pages watch (`live`).
    watched: live::Watched,
    /// The key that signs links: configured (a server always configures it: the operator's
    /// secret, kept outside the database), or for a service built without one (tests,
    /// benchmarks) a key kept in the store, fetched on first use.
    secret: Option<[u8; 32]>,
    /// Per-seat move rate limits; none unless configured (`with_move_rate`).
    moves: Option<rate::MoveLimiter>,
    /// Per-seat move rate limit of mail counted in the database (`with_logged_move_rate`).
    logged_moves: Option<rate::MoveRate>,
    /// Idempotency keys whose moves are being handled now.
    keys: keys::InFlight,
    /// Games created per client address over HTTP; none unless configured (`with_create_rate`).
    creations: Option<rate::Buckets<std::net::IpAddr>>,
    /// Sign-in and seat-link requests per client address (`players`); none unless configured.
    logins: Option<rate::Buckets<std::net::IpAddr>>,
    /// Account mail per email address (`players::ADDRESS_MAIL`), always.
    address_mail: rate::Buckets<String>,
    link_key: Arc<tokio::sync::OnceCell<[u8; 32]>>,
    /// The internal hosts webhooks may reach (`webhook_targets`); none unless configured.
    webhook_targets: Arc<webhook_targets::WebhookTargets>,
    /// How long a reactive window's turn notice waits (`outbox::WindowNotices`).
    window_notices: outbox::WindowNotices,
    /// Where the files moves carry are kept (`files`); in memory unless set (`with_files`).
    files: files::FileStore,
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

impl Games {
    pub fn new(store: Store, base_url: impl Into<String>) -> Self {
        Games {
            store,
            base_url: base_url.into().trim_end_matches('/').to_owned(),
            folds: cache::FoldCache::new(cache::Limits::from_env()),
            snapshots: snapshots::Every::from_env(),
            clock: Arc::new(SystemClock),
            live: Arc::new(live::Nobody),
            outgoing: live::Outgoing::default(),
            watched: live::Watched::default(),
            secret: None,
            moves: None,
            logged_moves: None,
            keys: keys::InFlight::default(),
            creations: None,
            logins: None,
            address_mail: rate::Buckets::new(players::ADDRESS_MAIL),
            link_key: Arc::new(tokio::sync::OnceCell::new()),
            webhook_targets: Arc::default(),
            window_notices: outbox::WindowNotices::from_env(),
            files: files::FileStore::in_memory(),
        }
    }

    /// The same service holding reactive windows' turn notices `notices` long
    /// (`outbox::WindowNotices`; the server reads `DESPATCH_WINDOW_NOTICE_SECS`).
    pub fn with_window_notices(mut self, notices: outbox::WindowNotices) -> Self {
        self.window_notices = notices;
        self
    }

    /// Lets webhooks reach the internal hosts `targets` names. The server and the dispatcher
    /// set this from `DESPATCH_WEBHOOK_ALLOW_HOSTS`; a service made with `new` allows none.
    pub fn with_webhook_targets(mut self, targets: webhook_targets::WebhookTargets) -> Self {
        self.webhook_targets = Arc::new(targets);
        self
    }

    /// Where webhooks may be sent: what a hook's URL is checked against when it is added, and
    /// what the dispatcher's webhook client resolves every host through.
    pub fn webhook_targets(&self) -> Arc<webhook_targets::WebhookTargets> {
        self.webhook_targets.clone()
    }

    /// The same service with a fold cache of other bounds (tests; the server reads
    /// `DESPATCH_FOLD_CACHE_GAMES` / `DESPATCH_FOLD_CACHE_MB`).
    pub fn with_fold_cache(mut self, limits: cache::Limits) -> Self {
        self.folds = cache::FoldCache::new(limits);
        self
    }

    /// The same service writing a game's snapshot every `events` events (0: none; tests; the
    /// server reads `DESPATCH_SNAPSHOT_EVERY`, default 256).
    pub fn with_snapshots_every(mut self, events: u64) -> Self {
        self.snapshots = snapshots::Every(events);
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

    /// Limits each seat's moves by mail to `rate` by counting them in the database: for a
    /// process that lives for one message (`despatch mail-in`) and so keeps no bucket. A seat
    /// that made `burst` moves by mail within the last `burst × per` is refused. Roughly the
    /// bucket's rate, read from the log rather than from memory.
    pub fn with_logged_move_rate(mut self, rate: Option<rate::MoveRate>) -> Self {
        self.logged_moves = rate;
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

    /// Records `base_url` as the address players reach the service at, for the commands run
    /// beside it (`despatch mail-in`) to make the same links as the server's notices.
    pub async fn keep_base_url(&self, base_url: &str) -> Result<()> {
        Ok(self
            .store
            .set_service_setting(crate::store::preferences::BASE_URL, base_url)
            .await?)
    }

    /// The link a seat opens to play.
    pub fn seat_link(&self, game_id: &GameId, token: &str) -> String {
        format!("{}/games/{game_id}?token={token}", self.base_url)
    }
}
