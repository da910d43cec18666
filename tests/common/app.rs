//! The one way the tests start the service: `spawn_app(backend)` gives a builder with the
//! options the tests need (a clock they move by hand, the per-seat move limit, the link key,
//! inbound mail, the fold cache's bounds, the address links point at), and `spawn()` gives a
//! `TestApp` — the HTTP server on a free port of 127.0.0.1, the games service it runs, the store
//! and the fresh database under it. Tests that drive the games service directly take
//! `services()` instead, which starts no server; a second server on the same database is
//! `app.another().serve()`.

use std::sync::Arc;
use std::time::Duration;

use despatch::config::DispatchSettings;
use despatch::games::cache::Limits;
use despatch::games::clock::ManualClock;
use despatch::games::files::FileStore;
use despatch::games::rate::MoveRate;
use despatch::games::webhook_targets::WebhookTargets;
use despatch::games::Games;
use despatch::http::body_deadline::BodyDeadline;
use despatch::http::inbound::InboundConfig;
use despatch::http::{Application, ServerSettings};
use despatch::notify::dispatcher::Dispatcher;
use despatch::notify::email::Mailer;
use despatch::notify::webhook::Hooks;
use despatch::store::Store;

use super::TestDb;

/// Which database a test runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Postgres,
    Sqlite,
}

/// The reply domain of the tests' dispatchers.
pub const REPLY_DOMAIN: &str = "reply.test.invalid";

/// How long the tests' dispatchers lease a notice they send.
pub const DISPATCH_LEASE: Duration = Duration::from_secs(60);

/// A fresh, migrated store on `backend`, and its database.
pub async fn fresh(backend: Backend) -> (Store, TestDb) {
    match backend {
        Backend::Postgres => super::fresh_postgres().await,
        Backend::Sqlite => super::fresh_sqlite().await,
    }
}

/// A test app on a fresh database of `backend`, with the service's defaults until told otherwise.
pub fn spawn_app(backend: Backend) -> AppBuilder {
    AppBuilder::new(Source::Fresh(backend))
}

/// A test app on a store the test made itself (say, one that reaches its database through a
/// proxy), and that store's database.
pub fn app_on(store: Store, db: TestDb) -> AppBuilder {
    AppBuilder::new(Source::Given(store, Some(db)))
}

/// A second server or games service over `store`, which a test app or the test itself owns the
/// database of: `serve()` or `games()` starts it. A store on another key, say, is another
/// process on the same database.
pub fn over(store: Store) -> AppBuilder {
    AppBuilder::new(Source::Given(store, None))
}

/// Where the app's store comes from.
enum Source {
    Fresh(Backend),
    /// A store; its database when the app owns it (not for a second server beside another).
    Given(Store, Option<TestDb>),
}

/// The options of a test app; `spawn`, `services` or `serve` starts it.
pub struct AppBuilder {
    source: Source,
    clock: Option<ManualClock>,
    /// `None`: the server's default (`ServerSettings::new`: `MoveRate::DEFAULT`, what
    /// `DESPATCH_MOVE_RATE` unset means); `Some(None)`: no limit.
    move_rate: Option<Option<MoveRate>>,
    /// As `move_rate`, for games created per client address.
    create_rate: Option<Option<MoveRate>>,
    link_secret: Option<String>,
    inbound: Option<InboundConfig>,
    fold_cache: Option<Limits>,
    base_url: Option<String>,
    follow_redirects: bool,
    /// `None`: the server's default (`ServerSettings::new`: 30 s, what
    /// `DESPATCH_BODY_TIMEOUT_SECS` unset means).
    body_timeout: Option<Duration>,
    /// The internal hosts webhooks may reach (`DESPATCH_WEBHOOK_ALLOW_HOSTS`); none by default.
    webhook_allow_hosts: Option<String>,
    /// Where the files moves carry are kept; in memory by default (`Games::new`).
    files: Option<FileStore>,
}

impl AppBuilder {
    fn new(source: Source) -> AppBuilder {
        AppBuilder {
            source,
            clock: None,
            move_rate: None,
            create_rate: None,
            link_secret: None,
            inbound: None,
            fold_cache: None,
            base_url: None,
            follow_redirects: true,
            body_timeout: None,
            webhook_allow_hosts: None,
            files: None,
        }
    }

    /// The files moves carry kept in `store` (another folder, S3, other limits).
    pub fn files(mut self, store: FileStore) -> Self {
        self.files = Some(store);
        self
    }

    /// The service reads the time from `clock`, which the test moves (`TestApp::clock`).
    pub fn clock(mut self, clock: ManualClock) -> Self {
        self.clock = Some(clock);
        self
    }

    /// Each seat's moves limited to `rate` (`None`: no limit) instead of the server's default.
    pub fn move_rate(mut self, rate: Option<MoveRate>) -> Self {
        self.move_rate = Some(rate);
        self
    }

    /// Games created per client address limited to `rate` (`None`: no limit).
    pub fn create_rate(mut self, rate: Option<MoveRate>) -> Self {
        self.create_rate = Some(rate);
        self
    }

    /// Links and reply addresses signed with a key made from `secret` (`None`: the key the
    /// database keeps, the default).
    pub fn link_secret(mut self, secret: Option<&str>) -> Self {
        self.link_secret = secret.map(str::to_owned);
        self
    }

    /// Inbound mail answered at `POST /api/inbound/email` with the provider's shared `secret`,
    /// reply addresses at `domain`.
    pub fn inbound_mail(mut self, domain: &str, secret: &str) -> Self {
        self.inbound = Some(InboundConfig {
            domain: Some(domain.to_owned()),
            secret: Some(secret.to_owned()),
            mailgun_signing_key: None,
        });
        self
    }

    /// Mailgun's inbound route open, its posts signed with `key` (after `inbound_mail`).
    pub fn mailgun_signing_key(mut self, key: &str) -> Self {
        let inbound = self.inbound.as_mut().expect("inbound_mail first");
        inbound.mailgun_signing_key = Some(key.to_owned());
        self
    }

    /// The fold cache bounded by `limits` instead of the environment's.
    pub fn fold_cache(mut self, limits: Limits) -> Self {
        self.fold_cache = Some(limits);
        self
    }

    /// Links point at `url` instead of the server's own address (or, with no server, at
    /// `http://despatch.test`).
    pub fn base_url(mut self, url: &str) -> Self {
        self.base_url = Some(url.to_owned());
        self
    }

    /// Request bodies given `timeout` to arrive instead of the server's default.
    pub fn body_timeout(mut self, timeout: Duration) -> Self {
        self.body_timeout = Some(timeout);
        self
    }

    /// The app's HTTP client hands redirects back instead of following them.
    pub fn no_redirects(mut self) -> Self {
        self.follow_redirects = false;
        self
    }

    /// Webhooks may reach the internal hosts `list` names, as `DESPATCH_WEBHOOK_ALLOW_HOSTS`
    /// does: tests whose receivers listen on 127.0.0.1 say so.
    pub fn webhook_allow_hosts(mut self, list: &str) -> Self {
        self.webhook_allow_hosts = Some(list.to_owned());
        self
    }

    /// The service's settings from the builder's options, over `games`.
    #[allow(clippy::too_many_arguments)]
    fn configure(
        games: Games,
        clock: Option<ManualClock>,
        move_rate: Option<Option<MoveRate>>,
        create_rate: Option<Option<MoveRate>>,
        link_secret: Option<String>,
        fold_cache: Option<Limits>,
        webhook_allow_hosts: Option<String>,
        files: Option<FileStore>,
    ) -> Games {
        let mut games = games;
        if let Some(files) = files {
            games = games.with_files(files);
        }
        if let Some(list) = webhook_allow_hosts {
            games = games.with_webhook_targets(WebhookTargets::from_setting(&list));
        }
        if let Some(clock) = clock {
            games = games.with_clock(Arc::new(clock));
        }
        if let Some(rate) = move_rate {
            games = games.with_move_rate(rate);
        }
        if let Some(rate) = create_rate {
            games = games.with_create_rate(rate);
        }
        if let Some(secret) = link_secret {
            games = games.with_secret(Some(&secret));
        }
        if let Some(limits) = fold_cache {
            games = games.with_fold_cache(limits);
        }
        games
    }

    async fn store(source: Source) -> (Store, Option<TestDb>) {
        match source {
            Source::Fresh(backend) => {
                let (store, db) = fresh(backend).await;
                (store, Some(db))
            }
            Source::Given(store, db) => (store, db),
        }
    }

    fn client(follow_redirects: bool) -> reqwest::Client {
        // The client takes its TLS provider from the library, as the server's own clients do.
        despatch::notify::webhook::install_crypto();
        let mut client = reqwest::Client::builder();
        if !follow_redirects {
            // Redirects are looked at, not followed: POST-redirect-GET is part of what is tested.
            client = client.redirect(reqwest::redirect::Policy::none());
        }
        client.build().expect("an HTTP client")
    }

    /// Starts the server on port 0 over the store; returns its address and service.
    async fn start_server(self, store: &Store) -> Server {
        let AppBuilder {
            clock,
            move_rate,
            create_rate,
            link_secret,
            inbound,
            fold_cache,
            base_url,
            body_timeout,
            webhook_allow_hosts,
            files,
            ..
        } = self;
        let mut settings = ServerSettings::new("127.0.0.1:0");
        settings.base_url = base_url;
        settings.inbound = inbound;
        if let Some(timeout) = body_timeout {
            settings.body_deadline = BodyDeadline(timeout);
        }
        if let Some(rate) = move_rate {
            settings.move_rate = rate;
        }
        if let Some(rate) = create_rate {
            settings.create_rate = rate;
        }
        let app = Application::build(store.clone(), settings, move |games| {
            Self::configure(
                games,
                clock,
                None,
                None,
                link_secret,
                fold_cache,
                webhook_allow_hosts,
                files,
            )
        })
        .expect("binds port 0");
        let server = Server {
            base: format!("http://127.0.0.1:{}", app.port()),
            games: app.games().clone(),
        };
        tokio::spawn(app.run_until_stopped());
        server
    }

    /// The server on a free port, with its service, store and database.
    pub async fn spawn(mut self) -> TestApp {
        let source = std::mem::replace(&mut self.source, Source::Fresh(Backend::Sqlite));
        let (store, db) = Self::store(source).await;
        let db = db.expect("a second server beside a test app: use serve()");
        let (clock, follow_redirects) = (self.clock.clone(), self.follow_redirects);
        let server = self.start_server(&store).await;
        TestApp {
            base: server.base,
            http: Self::client(follow_redirects),
            games: server.games,
            store,
            db,
            clock,
        }
    }

    /// The games service alone, no server: for tests that call it directly. Links point at
    /// `http://despatch.test` unless `base_url` says otherwise.
    pub async fn services(mut self) -> TestApp {
        let source = std::mem::replace(&mut self.source, Source::Fresh(Backend::Sqlite));
        let (store, db) = Self::store(source).await;
        let db = db.expect("a service beside a test app: build it from app.another()");
        let base = self
            .base_url
            .clone()
            .unwrap_or_else(|| "http://despatch.test".into());
        let games = Self::configure(
            Games::new(store.clone(), base.clone()),
            self.clock.clone(),
            self.move_rate,
            self.create_rate,
            self.link_secret.clone(),
            self.fold_cache,
            self.webhook_allow_hosts.clone(),
            self.files.clone(),
        );
        TestApp {
            base,
            http: Self::client(self.follow_redirects),
            games,
            store,
            db,
            clock: self.clock,
        }
    }

    /// A games service alone, over a store given to `over` (or `TestApp::another`); links point
    /// at `http://despatch.test` unless `base_url` says otherwise.
    pub fn games(self) -> Games {
        let Source::Given(store, None) = &self.source else {
            panic!("games() is for a service over a store the test owns: use services()");
        };
        let base = self
            .base_url
            .clone()
            .unwrap_or_else(|| "http://despatch.test".into());
        Self::configure(
            Games::new(store.clone(), base),
            self.clock,
            self.move_rate,
            self.create_rate,
            self.link_secret,
            self.fold_cache,
            self.webhook_allow_hosts,
            self.files,
        )
    }

    /// A server only, over a store given to `over` (or `TestApp::another`).
    pub async fn serve(mut self) -> Server {
        let source = std::mem::replace(&mut self.source, Source::Fresh(Backend::Sqlite));
        let (store, _db) = Self::store(source).await;
        assert!(_db.is_none(), "serve() is for a second server: use spawn()");
        self.start_server(&store).await
    }
}

/// A second server's address and service.
pub struct Server {
    pub base: String,
    pub games: Games,
}

/// A running test app.
pub struct TestApp {
    /// The server's address (`http://127.0.0.1:<port>`), or where links point when no server
    /// was started (`services()`).
    pub base: String,
    /// A client for the server.
    pub http: reqwest::Client,
    /// The games service the server runs.
    pub games: Games,
    pub store: Store,
    /// The app's own database, dropped with it.
    pub db: TestDb,
    clock: Option<ManualClock>,
}

impl TestApp {
    /// The address of `path` on the server.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// The clock the service reads (`AppBuilder::clock`).
    pub fn clock(&self) -> &ManualClock {
        self.clock
            .as_ref()
            .expect("this app runs on the system clock: give spawn_app(..).clock(..)")
    }

    /// A builder for a second server on the same database (other limits, another base URL), or
    /// a second games service on it (`games()`), with the builder's defaults: it shares nothing
    /// with this app but the database, as another process would.
    pub fn another(&self) -> AppBuilder {
        over(self.store.clone())
    }

    /// A dispatcher for the service's outbox: email through `smtp` (an `smtp://` URL), webhooks
    /// timing out after `webhook_timeout`, short leases and quick polls.
    pub fn dispatcher(&self, smtp: &str, webhook_timeout: Duration) -> Dispatcher {
        self.dispatcher_over(self.games.clone(), smtp, webhook_timeout)
    }

    /// `dispatcher`, over another games service on the same database (another webhook
    /// allowance, say): its webhooks reach what that service allows.
    pub fn dispatcher_over(
        &self,
        games: Games,
        smtp: &str,
        webhook_timeout: Duration,
    ) -> Dispatcher {
        let mailer = Mailer::new(
            Some(smtp),
            std::env::temp_dir(),
            "Despatch <despatch@test.invalid>",
            Duration::from_secs(5),
        )
        .unwrap();
        let hooks = Hooks::new(webhook_timeout, games.webhook_targets()).unwrap();
        Dispatcher::new(
            games,
            Arc::new(mailer),
            Arc::new(hooks),
            DispatchSettings {
                lease: DISPATCH_LEASE,
                batch: 16,
                retry_base: Duration::from_secs(1),
                retry_max: Duration::from_secs(60),
                poll: Duration::from_millis(20),
                reply_domain: Some(REPLY_DOMAIN.into()),
            },
        )
    }

    /// A dispatcher sending email to the SMTP server `scripts/test` starts.
    pub fn smtp_dispatcher(&self) -> Dispatcher {
        self.dispatcher(
            &format!("smtp://{}", super::notify::smtp_addr()),
            Duration::from_secs(5),
        )
    }
}
