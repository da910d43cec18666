//! Players and their games (issue 21): games' names, signing in by email, My games, the seat
//! links sent again and a seat claimed by an email — over real HTTP, with the mail read back
//! from the SMTP server `scripts/test` starts. Every test runs on PostgreSQL and on SQLite.
//! Expiry is tested on the service's clock, moved by hand: nothing sleeps.

use crate::common;

use chrono::Utc;
use common::notify::{delivered_to, wait_for_mail, Delivered};
use common::TestApp;
use despatch::games::clock::ManualClock;
use despatch::games::Clock;
use reqwest::header::{COOKIE, LOCATION, SET_COOKIE};
use reqwest::Method;
use serde_json::{json, Value};

async fn spawn(backend: common::Backend) -> TestApp {
    // Ahead of the real time, so rows the database stamps with its own now() are already due;
    // redirects are looked at, not followed, so that cookies can be read off them.
    common::spawn_app(backend)
        .clock(ManualClock::new(Utc::now() + chrono::Duration::hours(1)))
        .no_redirects()
        .spawn()
        .await
}

fn tag() -> String {
    let mut b = [0u8; 6];
    getrandom::fill(&mut b).unwrap();
    hex::encode(b)
}

/// A request's answer: status, `Location`, `Set-Cookie` values and body.
struct Reply {
    status: u16,
    location: Option<String>,
    cookies: Vec<String>,
    body: String,
}

impl Reply {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }

    /// The value a `Set-Cookie` gives `name`, with the whole header.
    fn cookie(&self, name: &str) -> Option<(String, String)> {
        self.cookies.iter().find_map(|c| {
            let (n, rest) = c.split_once('=')?;
            (n == name).then(|| (rest.split(';').next().unwrap_or("").to_owned(), c.clone()))
        })
    }
}

enum Body {
    None,
    Json(Value),
    Form(Vec<(&'static str, String)>),
}

/// What this file's tests ask of the app (a trait, so that each test module keeps its own
/// helpers in the one service test binary).
trait PlayersCalls {
    async fn send(
        &self,
        method: Method,
        path: &str,
        cookie: Option<&str>,
        bearer: Option<&str>,
        body: Body,
    ) -> Reply;
    async fn reply(req: reqwest::RequestBuilder) -> Reply;
    async fn get(&self, path: &str, cookie: Option<&str>) -> Reply;
    async fn game(
        &self,
        name: Option<&str>,
        seats: &[(&str, &str, Option<String>)],
    ) -> (String, Vec<String>);
    async fn clocked_game(
        &self,
        name: &str,
        seats: &[(&str, &str, Option<String>)],
        clock: &str,
    ) -> (String, Vec<String>);
    async fn play(&self, game_id: &str, token: &str, order: &str);
    async fn channels(&self, game_id: &str, token: &str) -> Value;
    async fn deliver(&self);
    async fn sign_in_link(&self, email: &str, tag: &str, n: usize) -> String;
    async fn follow(&self, link: &str) -> Reply;
    async fn session(&self, email: &str, tag: &str, n: usize) -> String;
}

impl PlayersCalls for TestApp {
    /// One request, with an optional `Cookie` header and bearer token.
    async fn send(
        &self,
        method: Method,
        path: &str,
        cookie: Option<&str>,
        bearer: Option<&str>,
        body: Body,
    ) -> Reply {
        let url = if path.starts_with("http") {
            path.to_owned()
        } else {
            self.url(path)
        };
        // A page's form is sent as its page sends it: with the page's token (`common::forms`).
        let path = path.strip_prefix(self.base.as_str()).unwrap_or(path);
        let page_form =
            method == Method::POST && path.starts_with('/') && !path.starts_with("/api/");
        let (body, cookie) = match body {
            Body::Form(f) if page_form => {
                let fields: Vec<(String, String)> =
                    f.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
                let (fields, cookie) = self.as_the_page_sends(path, &fields, cookie).await;
                (Some(fields), cookie)
            }
            Body::None if page_form => {
                let (fields, cookie) = self.as_the_page_sends(path, &[], cookie).await;
                (Some(fields), cookie)
            }
            Body::Form(f) => (
                Some(f.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()),
                cookie.map(str::to_owned),
            ),
            Body::Json(v) => {
                let mut req = self.http.request(method.clone(), &url).json(&v);
                if let Some(c) = cookie {
                    req = req.header(COOKIE, c);
                }
                if let Some(t) = bearer {
                    req = req.bearer_auth(t);
                }
                return Self::reply(req).await;
            }
            Body::None => (None, cookie.map(str::to_owned)),
        };
        let mut req = self.http.request(method, url);
        if let Some(c) = &cookie {
            req = req.header(COOKIE, c);
        }
        if let Some(t) = bearer {
            req = req.bearer_auth(t);
        }
        if let Some(f) = body {
            req = req.form(&f);
        }
        Self::reply(req).await
    }

    async fn reply(req: reqwest::RequestBuilder) -> Reply {
        let resp = req.send().await.unwrap();
        Reply {
            status: resp.status().as_u16(),
            location: resp
                .headers()
                .get(LOCATION)
                .map(|l| l.to_str().unwrap().to_owned()),
            cookies: resp
                .headers()
                .get_all(SET_COOKIE)
                .iter()
                .map(|c| c.to_str().unwrap().to_owned())
                .collect(),
            body: resp.text().await.unwrap(),
        }
    }

    async fn get(&self, path: &str, cookie: Option<&str>) -> Reply {
        self.send(Method::GET, path, cookie, None, Body::None).await
    }

    /// A game over the API: `(name, seat id, email)` per seat; its id and seat tokens.
    async fn game(
        &self,
        name: Option<&str>,
        seats: &[(&str, &str, Option<String>)],
    ) -> (String, Vec<String>) {
        let seats: Vec<Value> = seats
            .iter()
            .map(|(n, s, e)| json!({ "name": n, "seat": s, "email": e }))
            .collect();
        let mut body = json!({ "ruleset": "open-table", "seats": seats });
        if let Some(name) = name {
            body["name"] = json!(name);
        }
        let r = self
            .send(Method::POST, "/api/games", None, None, Body::Json(body))
            .await;
        assert_eq!(r.status, 201, "{}", r.body);
        let created = r.json();
        let tokens = created["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["token"].as_str().unwrap().to_owned())
            .collect();
        (created["game_id"].as_str().unwrap().to_owned(), tokens)
    }

    /// A game with the clock preset `clock` over the API; its id and seat tokens.
    async fn clocked_game(
        &self,
        name: &str,
        seats: &[(&str, &str, Option<String>)],
        clock: &str,
    ) -> (String, Vec<String>) {
        let seats: Vec<Value> = seats
            .iter()
            .map(|(n, s, e)| json!({ "name": n, "seat": s, "email": e }))
            .collect();
        let body = json!({ "ruleset": "open-table", "seats": seats, "name": name, "clock": clock });
        let r = self
            .send(Method::POST, "/api/games", None, None, Body::Json(body))
            .await;
        assert_eq!(r.status, 201, "{}", r.body);
        let created = r.json();
        let tokens = created["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["token"].as_str().unwrap().to_owned())
            .collect();
        (created["game_id"].as_str().unwrap().to_owned(), tokens)
    }

    /// A move by the seat of `token`, at the game's next seq.
    async fn play(&self, game_id: &str, token: &str, order: &str) {
        let seq = self
            .get(&format!("/api/games/{game_id}"), None)
            .await
            .json()["next_seq"]
            .as_u64()
            .unwrap();
        let r = self
            .send(
                Method::POST,
                &format!("/api/games/{game_id}/moves"),
                None,
                Some(token),
                Body::Json(
                    json!({ "expected_seq": seq, "command": order, "client_entropy": "00" }),
                ),
            )
            .await;
        assert_eq!(r.status, 201, "{order}: {}", r.body);
    }

    /// A seat's channels as the API reads them with its token.
    async fn channels(&self, game_id: &str, token: &str) -> Value {
        self.send(
            Method::GET,
            &format!("/api/games/{game_id}/channels"),
            None,
            Some(token),
            Body::None,
        )
        .await
        .json()
    }

    /// Sends every notice and mail due.
    async fn deliver(&self) {
        self.smtp_dispatcher().drain().await.unwrap();
    }

    /// Asks for a sign-in link for `email` and returns the link the mail carries (the
    /// `n`-th sign-in mail to that address).
    async fn sign_in_link(&self, email: &str, tag: &str, n: usize) -> String {
        let r = self
            .send(
                Method::POST,
                "/api/login",
                None,
                None,
                Body::Json(json!({ "email": email })),
            )
            .await;
        assert_eq!(r.status, 202, "{}", r.body);
        self.deliver().await;
        let mut mails = sign_in_mails(tag, n).await;
        assert_eq!(mails.len(), n, "sign-in mails to {tag}");
        // The maildir lists messages in no order: the latest is the one from the latest row.
        mails.sort_by_key(|m| outbox_row(&m.message_id));
        link_in(&mails[n - 1].text, "/login/confirm?token=")
    }

    /// Follows a sign-in link as a browser does: the page, then its button. The session cookie.
    async fn follow(&self, link: &str) -> Reply {
        let page = self.get(link, None).await;
        assert_eq!(page.status, 200, "{}", page.body);
        // No session: only the form cookie its button's token is bound to (src/http/csrf.rs).
        assert!(
            page.cookie("despatch_session").is_none(),
            "opening the link signs nothing in"
        );
        assert!(
            page.cookies.iter().all(|c| c.starts_with("despatch_csrf=")),
            "opening the link sets nothing else: {:?}",
            page.cookies
        );
        let token = link.split_once("token=").unwrap().1.to_owned();
        self.send(
            Method::POST,
            "/login/confirm",
            None,
            None,
            Body::Form(vec![("token", token)]),
        )
        .await
    }

    async fn session(&self, email: &str, tag: &str, n: usize) -> String {
        let link = self.sign_in_link(email, tag, n).await;
        let r = self.follow(&link).await;
        assert_eq!(r.status, 303, "{}", r.body);
        let (value, _) = r.cookie("despatch_session").expect("a session cookie");
        format!("despatch_session={value}")
    }
}

/// The outbox row a sign-in mail was sent from: its Message-ID is
/// `despatch.sign_in.<row>@<domain>`.
fn outbox_row(message_id: &str) -> u64 {
    let id = message_id.trim_matches(['<', '>']);
    let row = id.split('@').next().unwrap().rsplit('.').next().unwrap();
    row.parse()
        .unwrap_or_else(|_| panic!("not an account mail's id: {message_id}"))
}

/// The sign-in mails to addresses containing `tag`.
async fn sign_in_mails(tag: &str, n: usize) -> Vec<Delivered> {
    for _ in 0..100 {
        let got: Vec<Delivered> = delivered_to(tag)
            .into_iter()
            .filter(|m| m.subject == "[Despatch] Your sign-in link")
            .collect();
        if got.len() >= n {
            return got;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    Vec::new()
}

/// The first mail to `tag` whose subject starts with `prefix`, once it has arrived.
async fn wait_for_subject(tag: &str, prefix: &str) -> Delivered {
    for _ in 0..100 {
        if let Some(m) = delivered_to(tag)
            .into_iter()
            .find(|m| m.subject.starts_with(prefix))
        {
            return m;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let subjects: Vec<String> = delivered_to(tag).into_iter().map(|m| m.subject).collect();
    panic!("no mail to {tag} starting {prefix:?}; got {subjects:?}")
}

/// The first link in `text` containing `marker`, whole.
fn link_in(text: &str, marker: &str) -> String {
    text.split_whitespace()
        .find(|w| w.contains(marker))
        .unwrap_or_else(|| panic!("no link with {marker} in:\n{text}"))
        .to_owned()
}

on_both_backends!(
    a_sign_in_link_from_the_smtp_server_opens_my_games_with_the_players_turn_first,
    a_sign_in_link_works_once_and_for_twenty_minutes,
    an_unknown_address_gets_the_same_answer_and_no_mail,
    every_new_route_refuses_without_a_session_and_shows_no_other_players_games,
    lost_links_are_mailed_as_signed_seat_links,
    a_seat_claimed_by_email_becomes_the_players_once_the_address_confirms_it,
    a_claims_confirmation_expires_after_a_day,
    a_seats_time_zone_writes_its_deadlines_in_its_mail_and_on_its_page,
    table_talk_through_the_api_follows_the_pages_rules,
    a_named_game_from_the_lobby_shows_its_name_on_every_page,
    sign_in_requests_are_rate_limited_per_client,
    every_settings_route_refuses_without_the_seat_or_the_session_and_changes_nothing,
    a_seats_settings_page_saves_its_channels_shows_a_webhooks_secret_once_and_takes_a_vacation,
    a_players_settings_set_every_seat_and_take_a_vacation_in_each_clocked_game,
    the_daily_digest_replaces_turn_mails_and_comes_once_a_day_and_reminders_can_be_turned_off,
);

async fn a_sign_in_link_from_the_smtp_server_opens_my_games_with_the_players_turn_first(
    t: TestApp,
) {
    let tag = tag();
    let jose = format!("jose-{tag}@example.org");
    let zoe = format!("zoe-{tag}@example.org");
    let li = format!("li-{tag}@example.org");
    let title = despatch::rules::find("open-table").unwrap().info().title;
    // José moves first in the named game; in the unnamed one 李雷 does, José waits.
    let (named, _) = t
        .game(
            Some("Campagne d’été 李雷"),
            &[
                ("José", "jose", Some(jose.clone())),
                ("Zoë Ångström", "zoe", Some(zoe.clone())),
            ],
        )
        .await;
    let (unnamed, _) = t
        .game(
            None,
            &[
                ("李雷", "li", Some(li.clone())),
                ("José", "jose", Some(jose.clone())),
            ],
        )
        .await;
    // A game José has no seat in.
    let (others, _) = t
        .game(
            Some("Not José’s"),
            &[
                ("Zoë Ångström", "zoe", Some(zoe.clone())),
                ("李雷", "li", Some(li.clone())),
            ],
        )
        .await;

    // The address in another case is the same player.
    let link = t
        .sign_in_link(&jose.to_uppercase(), &format!("jose-{tag}"), 1)
        .await;
    assert!(link.starts_with(&t.url("/login/confirm?token=")), "{link}");
    let mail = &sign_in_mails(&format!("jose-{tag}"), 1).await[0];
    assert_eq!(mail.to, vec![jose.clone()]);
    assert!(mail.text.contains("20 minutes"), "{}", mail.text);
    assert!(
        mail.html.contains("Sign in and see your games"),
        "{}",
        mail.html
    );

    // The game's name is in the subjects of the notices, non-ASCII and all.
    let to_jose = wait_for_mail(&format!("jose-{tag}"), 3).await;
    assert!(
        to_jose.iter().any(|m| m.subject
            == format!(
                "[Despatch] Your turn, José: Campagne d’été 李雷 ({})",
                &named[..8]
            )),
        "{:?}",
        to_jose.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    let default_name = format!("{title} — 李雷, José");
    assert!(
        to_jose
            .iter()
            .any(|m| m.subject.contains(&default_name) && m.text.contains(&default_name)),
        "the unnamed game is named after its rules and seats: {:?}",
        to_jose.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );

    let signed_in = t.follow(&link).await;
    assert_eq!(signed_in.status, 303, "{}", signed_in.body);
    assert_eq!(signed_in.location.as_deref(), Some("/me"));
    let (session, header) = signed_in
        .cookie("despatch_session")
        .expect("a session cookie");
    assert_eq!(
        header,
        format!("despatch_session={session}; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax"),
        "HttpOnly, SameSite=Lax, not Secure over http"
    );
    let cookie = format!("despatch_session={session}");

    let page = t.get("/me", Some(&cookie)).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let first = page
        .body
        .find("Campagne d’été 李雷")
        .expect("the named game is listed");
    let second = page
        .body
        .find(&default_name)
        .expect("the unnamed game is listed");
    assert!(first < second, "José's turn comes first");
    assert!(page.body.contains("Your turn"));
    assert!(!page.body.contains("Not José’s") && !page.body.contains(&others));
    assert!(page.body.contains(&jose), "signed in as José");

    let api = t.get("/api/me", Some(&cookie)).await;
    assert_eq!(api.status, 200, "{}", api.body);
    let list = api.json();
    let games = list["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{list}");
    assert_eq!(games[0]["game_id"], json!(named));
    assert_eq!(games[0]["your_turn"], json!(true));
    assert_eq!(games[0]["name"], json!("Campagne d’été 李雷"));
    // The game's own summary carries its name too, the given one or the default.
    let summary = t.get(&format!("/api/games/{named}"), None).await.json();
    assert_eq!(summary["name"], json!("Campagne d’été 李雷"), "{summary}");
    assert_eq!(games[1]["game_id"], json!(unnamed));
    let summary = t.get(&format!("/api/games/{unnamed}"), None).await.json();
    assert_eq!(summary["name"], games[1]["name"], "{summary}");
    assert_eq!(games[0]["ruleset"], json!(title));
    assert_eq!(games[0]["seat_name"], json!("José"));
    assert_eq!(games[0]["last_move"], json!("the game was created"));
    assert_eq!(games[1]["game_id"], json!(unnamed));
    assert_eq!(games[1]["your_turn"], json!(false));
    assert_eq!(games[1]["waiting_for"], json!(["李雷"]));
    assert!(games[1]["last_move_at"].as_str().unwrap().ends_with('Z'));
    // The listed link opens José's seat.
    let seat = t.get(games[1]["link"].as_str().unwrap(), None).await;
    assert_eq!(seat.status, 303);
    assert!(seat.cookie("despatch_seat").is_some());
    let (seat_cookie, _) = seat.cookie("despatch_seat").unwrap();
    let seat_page = t
        .get(
            &format!("/games/{unnamed}"),
            Some(&format!("despatch_seat={seat_cookie}")),
        )
        .await;
    assert_eq!(seat_page.status, 200);
    assert!(
        seat_page.body.contains(&default_name),
        "the seat page shows the name"
    );
    assert!(seat_page.body.contains("José"));

    // Signing out ends the session on the server, not only in the browser.
    let out = t
        .send(Method::POST, "/logout", Some(&cookie), None, Body::None)
        .await;
    assert_eq!(out.status, 303);
    assert!(out
        .cookie("despatch_session")
        .unwrap()
        .1
        .contains("Max-Age=0"));
    assert_eq!(t.get("/api/me", Some(&cookie)).await.status, 403);
    assert_eq!(t.get("/me", Some(&cookie)).await.status, 401);
}

async fn a_sign_in_link_works_once_and_for_twenty_minutes(t: TestApp) {
    let tag = tag();
    let anna = format!("anna-{tag}@example.org");
    t.game(
        None,
        &[("Anna", "anna", Some(anna.clone())), ("Bert", "bert", None)],
    )
    .await;
    let who = format!("anna-{tag}");

    // Once.
    let link = t.sign_in_link(&anna, &who, 1).await;
    assert_eq!(t.follow(&link).await.status, 303);
    let again = t.follow(&link).await;
    assert_eq!(again.status, 403, "a used link opens nothing");
    assert!(again.cookie("despatch_session").is_none());
    assert!(again.body.contains("used"), "{}", again.body);

    // 19 minutes on, a new link still works; 21 minutes on, another no longer does.
    let link = t.sign_in_link(&anna, &who, 2).await;
    t.clock().advance(chrono::Duration::minutes(19));
    let r = t.follow(&link).await;
    assert_eq!(r.status, 303);
    let (session, _) = r.cookie("despatch_session").unwrap();
    let link = t.sign_in_link(&anna, &who, 3).await;
    t.clock().advance(chrono::Duration::minutes(21));
    let late = t.follow(&link).await;
    assert_eq!(late.status, 403, "{}", late.body);
    assert!(late.cookie("despatch_session").is_none());

    // A session lasts 30 days.
    let cookie = format!("despatch_session={session}");
    t.clock().advance(chrono::Duration::days(29));
    assert_eq!(t.get("/api/me", Some(&cookie)).await.status, 200);
    t.clock().advance(chrono::Duration::days(2));
    assert_eq!(t.get("/api/me", Some(&cookie)).await.status, 403);
}

async fn an_unknown_address_gets_the_same_answer_and_no_mail(t: TestApp) {
    let tag = tag();
    let known = format!("known-{tag}@example.org");
    let unknown = format!("unknown-{tag}@example.org");
    t.game(
        None,
        &[
            ("Known", "known", Some(known.clone())),
            ("Other", "other", None),
        ],
    )
    .await;
    for path in ["/api/login", "/api/login/links"] {
        let a = t
            .send(
                Method::POST,
                path,
                None,
                None,
                Body::Json(json!({ "email": known })),
            )
            .await;
        let b = t
            .send(
                Method::POST,
                path,
                None,
                None,
                Body::Json(json!({ "email": unknown })),
            )
            .await;
        assert_eq!((a.status, &a.body), (b.status, &b.body), "{path}");
        assert_eq!(a.status, 202);
    }
    for what in ["sign_in", "links"] {
        let form = |e: &str| Body::Form(vec![("email", e.to_owned()), ("what", what.to_owned())]);
        let a = t
            .send(Method::POST, "/login", None, None, form(&known))
            .await;
        let b = t
            .send(Method::POST, "/login", None, None, form(&unknown))
            .await;
        // The same page but for the form's token, which is each visitor's own.
        let (a_body, b_body) = (
            common::forms::without_tokens(&a.body),
            common::forms::without_tokens(&b.body),
        );
        assert_eq!((a.status, &a_body), (b.status, &b_body), "{what}");
        assert_eq!(a.status, 200);
    }
    t.deliver().await;
    // The known address got its mails (the turn notice, two sign-in links, two lists of links);
    // the unknown one got nothing.
    let known_mail = wait_for_mail(&format!("known-{tag}"), 5).await;
    assert_eq!(
        known_mail.len(),
        5,
        "{:?}",
        known_mail.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    assert!(delivered_to(&format!("unknown-{tag}")).is_empty());
    // A malformed address is refused and queues nothing.
    let bad = t
        .send(
            Method::POST,
            "/api/login",
            None,
            None,
            Body::Json(json!({ "email": "not an address" })),
        )
        .await;
    assert_eq!(bad.status, 400, "{}", bad.body);
}

async fn every_new_route_refuses_without_a_session_and_shows_no_other_players_games(t: TestApp) {
    let tag = tag();
    let anna = format!("anna-{tag}@example.org");
    let bert = format!("bert-{tag}@example.org");
    let (annas, anna_tokens) = t
        .game(
            Some("Anna’s game"),
            &[("Anna", "anna", Some(anna.clone())), ("Carl", "carl", None)],
        )
        .await;
    let (berts, bert_tokens) = t
        .game(
            Some("Bert’s game"),
            &[("Bert", "bert", Some(bert.clone())), ("Dora", "dora", None)],
        )
        .await;
    let anna_session = t.session(&anna, &format!("anna-{tag}"), 1).await;
    let bert_session = t.session(&bert, &format!("bert-{tag}"), 1).await;
    let garbage = "despatch_session=00ff00ff".to_owned();

    // My games: no session → refused; a session sees its player's games only.
    for (path, none, bad) in [("/me", 401, 401), ("/api/me", 401, 403)] {
        assert_eq!(
            t.get(path, None).await.status,
            none,
            "{path} without a session"
        );
        assert_eq!(
            t.get(path, Some(&garbage)).await.status,
            bad,
            "{path} with a made-up session"
        );
        let annas_view = t.get(path, Some(&anna_session)).await;
        assert_eq!(annas_view.status, 200);
        assert!(annas_view.body.contains(&annas) || annas_view.body.contains("Anna’s game"));
        assert!(
            !annas_view.body.contains(&berts) && !annas_view.body.contains("Bert’s game"),
            "{path}"
        );
        assert!(
            !annas_view.body.contains(&bert),
            "{path} shows nothing of Bert"
        );
        let berts_view = t.get(path, Some(&bert_session)).await;
        assert!(
            !berts_view.body.contains("Anna’s game") && !berts_view.body.contains(&anna),
            "{path}"
        );
    }
    // A session opens no seat: Bert's seat page with Anna's session is the public page, and a
    // claim or a move needs the seat's own token or cookie.
    let page = t.get(&format!("/games/{berts}"), Some(&anna_session)).await;
    assert_eq!(page.status, 200);
    assert!(!page.body.contains("move-form") && !page.body.contains("claim-form"));
    let claim = Body::Json(json!({ "email": anna }));
    let api_claim = format!("/api/games/{berts}/claim");
    assert_eq!(
        t.send(Method::POST, &api_claim, Some(&anna_session), None, claim)
            .await
            .status,
        401
    );
    let claim = Body::Json(json!({ "email": anna }));
    assert_eq!(
        t.send(Method::POST, &api_claim, None, Some(&anna_tokens[0]), claim)
            .await
            .status,
        403,
        "Anna's seat token is not a seat of Bert's game"
    );
    let form = || Body::Form(vec![("email", anna.clone())]);
    let page_claim = format!("/games/{berts}/claim");
    assert_eq!(
        t.send(Method::POST, &page_claim, None, None, form())
            .await
            .status,
        403
    );
    assert_eq!(
        t.send(Method::POST, &page_claim, Some(&anna_session), None, form())
            .await
            .status,
        403
    );
    assert_eq!(
        t.send(
            Method::POST,
            &page_claim,
            Some(&format!("despatch_seat={}", anna_tokens[0])),
            None,
            form()
        )
        .await
        .status,
        403
    );
    // A made-up claim confirmation sets no address, and its page alone changes nothing.
    let confirm = format!("/games/{berts}/claim/confirm");
    let made_up = t
        .send(
            Method::POST,
            &confirm,
            Some(&anna_session),
            None,
            Body::Form(vec![("token", "00".repeat(32))]),
        )
        .await;
    assert_eq!(made_up.status, 403, "{}", made_up.body);
    assert!(!made_up.body.contains(&bert));
    assert_eq!(
        t.get(&format!("{confirm}?token=abc"), None).await.status,
        200
    );
    // Table talk through the API needs the seat's own token: not a session, not another
    // game's seat, not a seat cookie; and it shows nothing of Bert's game to them.
    let talk = format!("/api/games/{berts}/talk");
    for (cookie, bearer, status) in [
        (None, None, 401),
        (Some(anna_session.as_str()), None, 401),
        (
            Some(&*format!("despatch_seat={}", bert_tokens[0])),
            None,
            401,
        ),
        (None, Some(anna_tokens[0].as_str()), 403),
        (None, Some("s1.bert.00"), 403),
    ] {
        let read = t.send(Method::GET, &talk, cookie, bearer, Body::None).await;
        assert_eq!(
            read.status, status,
            "GET talk with {cookie:?} {bearer:?}: {}",
            read.body
        );
        let said = t
            .send(
                Method::POST,
                &talk,
                cookie,
                bearer,
                Body::Json(json!({ "text": "psst" })),
            )
            .await;
        assert_eq!(said.status, status, "POST talk with {cookie:?} {bearer:?}");
        assert!(!read.body.contains("psst") && !said.body.contains(&bert));
    }
    let bert_reads = t
        .send(Method::GET, &talk, None, Some(&bert_tokens[0]), Body::None)
        .await;
    assert_eq!(bert_reads.status, 200);
    assert_eq!(bert_reads.json()["talk"], json!([]), "nothing was said");
    // Nothing was claimed: Bert's game is still not Anna's, and Bert's seat still his.
    let list = t.get("/api/me", Some(&anna_session)).await.json();
    assert_eq!(list["games"].as_array().unwrap().len(), 1, "{list}");
    let list = t.get("/api/me", Some(&bert_session)).await.json();
    assert_eq!(list["games"][0]["seat"], json!("bert"));
    // A made-up sign-in token opens nothing; the confirmation page alone changes nothing.
    let made_up = t
        .send(
            Method::POST,
            "/login/confirm",
            None,
            None,
            Body::Form(vec![("token", "00".repeat(32))]),
        )
        .await;
    assert_eq!(made_up.status, 403);
    assert!(made_up.cookie("despatch_session").is_none());
    let confirm = t.get("/login/confirm?token=abc", None).await;
    assert_eq!(confirm.status, 200);
    assert!(confirm.cookie("despatch_session").is_none());
    assert!(
        confirm
            .cookies
            .iter()
            .all(|c| c.starts_with("despatch_csrf=")),
        "only the form cookie: {:?}",
        confirm.cookies
    );
    // Signing out without a session does nothing, and Bert's sign-out leaves Anna signed in.
    assert_eq!(
        t.send(Method::POST, "/api/logout", None, None, Body::None)
            .await
            .status,
        204
    );
    assert_eq!(
        t.send(
            Method::POST,
            "/api/logout",
            Some(&bert_session),
            None,
            Body::None
        )
        .await
        .status,
        204
    );
    assert_eq!(t.get("/api/me", Some(&bert_session)).await.status, 403);
    assert_eq!(t.get("/api/me", Some(&anna_session)).await.status, 200);
    // The seat links are mailed to their own address only (the request's answer names none).
    let r = t
        .send(
            Method::POST,
            "/api/login/links",
            Some(&anna_session),
            None,
            Body::Json(json!({ "email": bert })),
        )
        .await;
    assert_eq!(r.status, 202);
    assert!(!r.body.contains(&berts) && !r.body.contains(&bert_tokens[0]));
}

async fn lost_links_are_mailed_as_signed_seat_links(t: TestApp) {
    let tag = tag();
    let zoe = format!("zoe-{tag}@example.org");
    let (first, _) = t
        .game(
            Some("Première"),
            &[
                ("Zoë Ångström", "zoe", Some(zoe.clone())),
                ("José", "jose", None),
            ],
        )
        .await;
    let (second, _) = t
        .game(
            None,
            &[
                ("李雷", "li", None),
                ("Zoë Ångström", "zoe", Some(zoe.clone())),
            ],
        )
        .await;
    let sent = t
        .send(
            Method::POST,
            "/login",
            None,
            None,
            Body::Form(vec![("email", zoe.clone()), ("what", "links".into())]),
        )
        .await;
    assert_eq!(sent.status, 200);
    assert!(
        sent.body.contains("a link to each of its seats"),
        "{}",
        sent.body
    );
    t.deliver().await;
    let mut mail = Vec::new();
    for _ in 0..100 {
        mail = delivered_to(&format!("zoe-{tag}"))
            .into_iter()
            .filter(|m| m.subject.starts_with("[Despatch] Your seat links"))
            .collect();
        if !mail.is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(mail.len(), 1);
    let m = &mail[0];
    assert_eq!(m.subject, "[Despatch] Your seat links (2 games)");
    assert!(
        m.text.contains("Première") && m.text.contains("Zoë Ångström"),
        "{}",
        m.text
    );
    assert!(m.html.contains("Première"));
    for game in [&first, &second] {
        let link = link_in(&m.text, &format!("/games/{game}?token=s1."));
        let opened = t.get(&link, None).await;
        assert_eq!(opened.status, 303, "the link opens the seat");
        let (cookie, _) = opened.cookie("despatch_seat").unwrap();
        let page = t
            .get(
                &format!("/games/{game}"),
                Some(&format!("despatch_seat={cookie}")),
            )
            .await;
        assert!(page.body.contains("Zoë Ångström"), "Zoë's seat");
        assert!(page.body.contains("move-form"));
    }
}

async fn a_seat_claimed_by_email_becomes_the_players_once_the_address_confirms_it(t: TestApp) {
    let tag = tag();
    let mine = format!("mine-{tag}@example.org");
    let (api_game, tokens) = t
        .game(
            Some("Claimed by API"),
            &[("Anna", "anna", None), ("Bert", "bert", None)],
        )
        .await;
    let (page_game, page_tokens) = t
        .game(
            Some("Claimed on the page"),
            &[("Anna", "anna", None), ("Bert", "bert", None)],
        )
        .await;
    // By the API, with the seat's token: a confirmation is mailed, and nothing changes yet.
    let r = t
        .send(
            Method::POST,
            &format!("/api/games/{api_game}/claim"),
            None,
            Some(&tokens[1]),
            Body::Json(json!({ "email": mine.to_uppercase() })),
        )
        .await;
    assert_eq!(r.status, 202, "{}", r.body);
    assert_eq!(r.json()["status"], json!("confirmation_sent"));
    assert_eq!(r.json()["seat"], json!("bert"));
    assert_eq!(r.json()["email"], json!(mine));
    let bad = t
        .send(
            Method::POST,
            &format!("/api/games/{api_game}/claim"),
            None,
            Some(&tokens[1]),
            Body::Json(json!({ "email": "two\r\nlines@example.org" })),
        )
        .await;
    assert_eq!(bad.status, 400);
    assert!(
        t.store.seats_by_email(&mine).await.unwrap().is_empty(),
        "the address is not the seat's before it confirms"
    );
    // On the seat page, with the seat cookie.
    let cookie = format!("despatch_seat={}", page_tokens[0]);
    let page = t.get(&format!("/games/{page_game}"), Some(&cookie)).await;
    assert!(page.body.contains("claim-form"));
    let claimed = t
        .send(
            Method::POST,
            &format!("/games/{page_game}/claim"),
            Some(&cookie),
            None,
            Body::Form(vec![("email", mine.clone())]),
        )
        .await;
    assert_eq!(claimed.status, 303, "{}", claimed.body);
    assert_eq!(
        claimed.location.unwrap(),
        format!("/games/{page_game}?claim_sent=1")
    );
    let after = t
        .get(&format!("/games/{page_game}?claim_sent=1"), Some(&cookie))
        .await;
    assert!(after.body.contains("A confirmation link is on its way"));
    assert!(t.store.seats_by_email(&mine).await.unwrap().is_empty());

    // The two confirmations, read back from the SMTP server.
    t.deliver().await;
    let inbox = format!("mine-{tag}");
    let api_mail =
        wait_for_subject(&inbox, "[Despatch] Confirm your address for Claimed by API").await;
    let page_mail = wait_for_subject(
        &inbox,
        "[Despatch] Confirm your address for Claimed on the page",
    )
    .await;
    assert_eq!(api_mail.to, vec![mine.clone()]);
    assert!(api_mail.text.contains("Bert"), "{}", api_mail.text);
    let api_link = link_in(
        &api_mail.text,
        &format!("/games/{api_game}/claim/confirm?token="),
    );
    let page_link = link_in(
        &page_mail.text,
        &format!("/games/{page_game}/claim/confirm?token="),
    );
    // Opening the link (as a mail scanner would) changes nothing; its button confirms.
    let opened = t.get(&api_link, None).await;
    assert_eq!(opened.status, 200);
    assert!(opened.body.contains("confirm-claim"));
    assert!(t.store.seats_by_email(&mine).await.unwrap().is_empty());
    for (game, link) in [(&api_game, &api_link), (&page_game, &page_link)] {
        let token = link.split_once("token=").unwrap().1.to_owned();
        let path = format!("/games/{game}/claim/confirm");
        let done = t
            .send(
                Method::POST,
                &path,
                None,
                None,
                Body::Form(vec![("token", token.clone())]),
            )
            .await;
        assert_eq!(done.status, 200, "{}", done.body);
        assert!(done.body.contains("Address confirmed"), "{}", done.body);
        assert!(done.body.contains(&mine));
        // Once only; and not for another game.
        let again = t
            .send(
                Method::POST,
                &path,
                None,
                None,
                Body::Form(vec![("token", token.clone())]),
            )
            .await;
        assert_eq!(again.status, 403);
        assert!(again.body.contains("has been used"), "{}", again.body);
    }
    let other = t
        .send(
            Method::POST,
            &format!("/games/{page_game}/claim/confirm"),
            None,
            None,
            Body::Form(vec![(
                "token",
                api_link.split_once("token=").unwrap().1.to_owned(),
            )]),
        )
        .await;
    assert_eq!(
        other.status, 403,
        "a game's token confirms nothing in another"
    );

    // Both games are now the address's, and its turn notice goes there (Anna moves first on
    // the page's game; Bert is told when Anna has moved in the API's game).
    let session = t.session(&mine, &inbox, 1).await;
    let list = t.get("/api/me", Some(&session)).await.json();
    let ids: Vec<&str> = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 2, "{list}");
    assert_eq!(
        ids[0], page_game,
        "Anna's turn on the page's game comes first"
    );
    assert!(ids.contains(&api_game.as_str()));
    let moved = t
        .send(
            Method::POST,
            &format!("/api/games/{api_game}/moves"),
            None,
            Some(&tokens[0]),
            Body::Json(json!({ "expected_seq": 1, "command": "The brigade holds the ford.", "client_entropy": "00" })),
        )
        .await;
    assert_eq!(moved.status, 201, "{}", moved.body);
    t.deliver().await;
    let turn = wait_for_subject(&inbox, "[Despatch] Your turn, Bert: Claimed by API").await;
    assert_eq!(turn.to, vec![mine.clone()]);
}

async fn a_claims_confirmation_expires_after_a_day(t: TestApp) {
    let tag = tag();
    let late = format!("late-{tag}@example.org");
    let (game, tokens) = t
        .game(
            Some("Late claim"),
            &[("Anna", "anna", None), ("Bert", "bert", None)],
        )
        .await;
    let r = t
        .send(
            Method::POST,
            &format!("/api/games/{game}/claim"),
            None,
            Some(&tokens[0]),
            Body::Json(json!({ "email": late })),
        )
        .await;
    assert_eq!(r.status, 202, "{}", r.body);
    t.deliver().await;
    let mail = wait_for_subject(&format!("late-{tag}"), "[Despatch] Confirm your address").await;
    let link = link_in(&mail.text, "/claim/confirm?token=");
    t.clock()
        .advance(chrono::Duration::hours(24) + chrono::Duration::seconds(1));
    let token = link.split_once("token=").unwrap().1.to_owned();
    let done = t
        .send(
            Method::POST,
            &format!("/games/{game}/claim/confirm"),
            None,
            None,
            Body::Form(vec![("token", token)]),
        )
        .await;
    assert_eq!(done.status, 403);
    assert!(done.body.contains("expired"), "{}", done.body);
    assert!(t.store.seats_by_email(&late).await.unwrap().is_empty());
}

async fn a_named_game_from_the_lobby_shows_its_name_on_every_page(t: TestApp) {
    let form = vec![
        ("name", "Zoë’s 李雷 campaign".to_owned()),
        ("game", "open-table/default".to_owned()),
        ("options", "{}".to_owned()),
        ("name_0", "Zoë Ångström".to_owned()),
        ("email_0", String::new()),
        ("seat_0", String::new()),
        ("name_1", "李雷".to_owned()),
        ("email_1", String::new()),
        ("seat_1", String::new()),
    ];
    let created = t
        .send(Method::POST, "/games", None, None, Body::Form(form))
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    assert!(created.body.contains("Zoë’s 李雷 campaign"));
    // 李雷 makes no ASCII slug: the seat is named by its position.
    assert!(
        created.body.contains("data-seat=\"seat-2\""),
        "{}",
        created.body
    );
    let game_id = created.body.split("/games/").nth(1).unwrap()[..36].to_owned();
    let watch = t.get(&format!("/games/{game_id}/watch"), None).await;
    assert!(watch.body.contains("Zoë’s 李雷 campaign"));
    // Too long a name is refused, and nothing is created.
    let long = t
        .send(
            Method::POST,
            "/api/games",
            None,
            None,
            Body::Json(json!({ "name": "é".repeat(201), "ruleset": "open-table", "seats": [{ "name": "A" }, { "name": "B" }] })),
        )
        .await;
    assert_eq!(long.status, 400, "{}", long.body);
    assert!(long.body.contains("name"));
}

async fn sign_in_requests_are_rate_limited_per_client(t: TestApp) {
    let tag = tag();
    let burst = despatch::games::players::LoginRate::DEFAULT.burst.get();
    let mut statuses = Vec::new();
    for i in 0..=burst {
        let r = t
            .send(
                Method::POST,
                "/api/login",
                None,
                None,
                Body::Json(json!({ "email": format!("x{i}-{tag}@example.org") })),
            )
            .await;
        statuses.push(r.status);
        if r.status == 429 {
            assert!(r.json()["retry_after_secs"].as_u64().unwrap() >= 1);
        }
    }
    assert_eq!(statuses.iter().filter(|s| **s == 202).count() as u32, burst);
    assert_eq!(statuses.last(), Some(&429));
    let page = t
        .send(
            Method::POST,
            "/login",
            None,
            None,
            Body::Form(vec![("email", format!("y-{tag}@example.org"))]),
        )
        .await;
    assert_eq!(page.status, 429);
}

/// The settings forms as a browser posts them: a ticked box sends `on`, an unticked one nothing.
fn boxes(on: &[&'static str]) -> Body {
    Body::Form(on.iter().map(|b| (*b, "on".to_owned())).collect())
}

async fn every_settings_route_refuses_without_the_seat_or_the_session_and_changes_nothing(
    t: TestApp,
) {
    let tag = tag();
    let anna = format!("anna-{tag}@example.org");
    let bert = format!("bert-{tag}@example.org");
    let (annas, anna_tokens) = t
        .clocked_game(
            "Anna’s game",
            &[("Anna", "anna", Some(anna.clone())), ("Carl", "carl", None)],
            "brisk",
        )
        .await;
    let (berts, bert_tokens) = t
        .clocked_game(
            "Bert’s game",
            &[("Bert", "bert", Some(bert.clone())), ("Dora", "dora", None)],
            "brisk",
        )
        .await;
    // Bert has a webhook, whose URL and id nobody else may learn or remove.
    let hook = t
        .send(
            Method::POST,
            &format!("/api/games/{berts}/webhooks"),
            None,
            Some(&bert_tokens[0]),
            Body::Json(json!({ "url": format!("https://hooks.example.org/bert-{tag}") })),
        )
        .await;
    assert_eq!(hook.status, 201, "{}", hook.body);
    let hook_id = hook.json()["hook_id"].as_str().unwrap().to_owned();
    let anna_session = t.session(&anna, &format!("anna-{tag}"), 1).await;
    let annas_seat = format!("despatch_seat={}", anna_tokens[0]);
    let before = t.channels(&berts, &bert_tokens[0]).await;
    let events_before =
        t.get(&format!("/api/games/{berts}"), None).await.json()["next_seq"].clone();

    // Every seat route of Bert's game: no cookie, Anna's seat cookie (a seat of another game),
    // Anna's session (a player, not this seat), a made-up seat token. Each is refused with 403,
    // shows nothing of Bert's, and changes nothing.
    let vacation_form = || {
        Body::Form(vec![
            ("from", "2031-01-01".to_owned()),
            ("until", "2031-01-02".to_owned()),
        ])
    };
    let seat_routes = [
        (Method::GET, format!("/games/{berts}/settings")),
        (Method::POST, format!("/games/{berts}/settings")),
        (Method::POST, format!("/games/{berts}/settings/webhooks")),
        (
            Method::POST,
            format!("/games/{berts}/settings/webhooks/{hook_id}/delete"),
        ),
        (Method::POST, format!("/games/{berts}/settings/vacation")),
        (Method::POST, format!("/games/{berts}/settings/time-zone")),
    ];
    let seat_body = |path: &str| {
        if path.ends_with("/vacation") {
            vacation_form()
        } else if path.ends_with("/time-zone") {
            Body::Form(vec![("time_zone", "Asia/Tokyo".to_owned())])
        } else if path.ends_with("/webhooks") {
            Body::Form(vec![("url", "https://evil.example.org/".to_owned())])
        } else if path.ends_with("/settings") {
            boxes(&[])
        } else {
            Body::None
        }
    };
    let made_up = format!("despatch_seat={}", "ab".repeat(32));
    for (method, path) in &seat_routes {
        for cookie in [None, Some(&annas_seat), Some(&anna_session), Some(&made_up)] {
            let r = t
                .send(
                    method.clone(),
                    path,
                    cookie.map(String::as_str),
                    None,
                    seat_body(path),
                )
                .await;
            assert_eq!(r.status, 403, "{method} {path} with {cookie:?}: {}", r.body);
            for secret in [
                bert.as_str(),
                hook_id.as_str(),
                "hooks.example.org",
                "Bert’s game",
                "Dora",
            ] {
                assert!(!r.body.contains(secret), "{method} {path} shows {secret}");
            }
        }
    }
    // A seat's bearer token is not a cookie: the pages take the cookie only.
    let r = t
        .send(
            Method::GET,
            &format!("/games/{berts}/settings"),
            None,
            Some(&bert_tokens[0]),
            Body::None,
        )
        .await;
    assert_eq!(r.status, 403);
    assert_eq!(t.channels(&berts, &bert_tokens[0]).await, before);
    let hooks = t
        .send(
            Method::GET,
            &format!("/api/games/{berts}/webhooks"),
            None,
            Some(&bert_tokens[0]),
            Body::None,
        )
        .await
        .json();
    assert_eq!(hooks.as_array().unwrap().len(), 1, "{hooks}");
    assert_eq!(
        t.get(&format!("/api/games/{berts}"), None).await.json()["next_seq"],
        events_before,
        "no vacation was recorded"
    );
    assert_eq!(
        t.store.seat_time_zone(&berts, "bert").await.unwrap(),
        None,
        "no time zone was set"
    );

    // The player's routes: no session, a made-up one, a seat cookie. The page: 401 and the
    // sign-in form. Its forms: no page gives them without a session, so they go without their
    // token and are refused before anything is read (src/http/csrf.rs).
    let player_routes = [
        (Method::GET, "/me/settings"),
        (Method::POST, "/me/settings"),
        (Method::POST, "/me/settings/vacation"),
        (Method::POST, "/me/settings/time-zone"),
    ];
    let garbage = "despatch_session=00ff00ff".to_owned();
    for (method, path) in &player_routes {
        for cookie in [None, Some(&garbage), Some(&annas_seat)] {
            let body = if path.ends_with("/vacation") {
                vacation_form()
            } else if path.ends_with("/time-zone") {
                Body::Form(vec![("time_zone", "Asia/Tokyo".to_owned())])
            } else if *method == Method::POST {
                boxes(&[])
            } else {
                Body::None
            };
            let r = t
                .send(method.clone(), path, cookie.map(String::as_str), None, body)
                .await;
            if *method == Method::GET {
                assert_eq!(r.status, 401, "{method} {path} with {cookie:?}");
                assert!(r.body.contains("Sign in"), "{method} {path}");
            } else {
                assert_eq!(r.status, 403, "{method} {path} with {cookie:?}");
                assert!(r.body.contains("The form was refused"), "{method} {path}");
            }
            assert!(!r.body.contains(&anna) && !r.body.contains("Anna’s game"));
        }
    }
    assert_eq!(
        t.channels(&annas, &anna_tokens[0]).await,
        json!({ "email": true, "webhooks": true, "reminders": true, "digest": false, "auto_pass": false })
    );
    assert_eq!(t.store.seat_time_zone(&annas, "anna").await.unwrap(), None);
    // Anna's session shows Anna's seats only.
    let mine = t.get("/me/settings", Some(&anna_session)).await;
    assert_eq!(mine.status, 200);
    assert!(mine.body.contains("Anna’s game"));
    assert!(!mine.body.contains("Bert’s game") && !mine.body.contains(&bert));
}

async fn a_seats_settings_page_saves_its_channels_shows_a_webhooks_secret_once_and_takes_a_vacation(
    t: TestApp,
) {
    let tag = tag();
    let zoe = format!("zoe-{tag}@example.org");
    let (game, tokens) = t
        .clocked_game(
            "Zoë’s 李雷 game",
            &[
                ("Zoë Ångström", "zoe", Some(zoe.clone())),
                ("José", "jose", None),
            ],
            "brisk",
        )
        .await;
    let cookie = format!("despatch_seat={}", tokens[0]);
    let settings = format!("/games/{game}/settings");
    let page = t.get(&settings, Some(&cookie)).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("Zoë Ångström") && page.body.contains("Zoë’s 李雷 game"));
    assert!(page.body.contains(&zoe));
    // The seat page links to it.
    let seat_page = t.get(&format!("/games/{game}"), Some(&cookie)).await;
    assert!(seat_page.body.contains(&format!("href=\"{settings}\"")));

    // Issue 38: the automatic pass, off by default, says what it tells the table.
    assert!(page
        .body
        .contains("Pass reactive windows for me when I hold no card that can answer"));
    assert!(page
        .body
        .contains("tells the table I held no answering card"));
    assert!(!page.body.contains(r#"name="auto_pass" value="on" checked"#));
    // Email off, reminders, the digest and the automatic pass on, webhooks off: saved, and
    // read back by the API.
    let saved = t
        .send(
            Method::POST,
            &settings,
            Some(&cookie),
            None,
            boxes(&["reminders", "digest", "auto_pass"]),
        )
        .await;
    assert_eq!(saved.status, 303, "{}", saved.body);
    assert_eq!(
        saved.location.as_deref(),
        Some(format!("{settings}?saved=1").as_str())
    );
    assert_eq!(
        t.channels(&game, &tokens[0]).await,
        json!({ "email": false, "webhooks": false, "reminders": true, "digest": true, "auto_pass": true })
    );
    let again = t.get(&format!("{settings}?saved=1"), Some(&cookie)).await;
    assert!(again.body.contains("Saved."));
    assert!(again
        .body
        .contains(r#"name="auto_pass" value="on" checked"#));
    assert!(again.body.contains(r#"name="digest" value="on" checked"#));
    assert!(!again.body.contains(r#"name="email" value="on" checked"#));
    // The other seat's settings did not move.
    assert_eq!(
        t.channels(&game, &tokens[1]).await,
        json!({ "email": true, "webhooks": true, "reminders": true, "digest": false, "auto_pass": false })
    );

    // A webhook: its secret on the answer's page, and never again.
    let url = format!("https://hooks.example.org/zoe-{tag}");
    let added = t
        .send(
            Method::POST,
            &format!("{settings}/webhooks"),
            Some(&cookie),
            None,
            Body::Form(vec![
                ("url", url.clone()),
                ("scope", "seat".into()),
                ("format", "json".into()),
            ]),
        )
        .await;
    assert_eq!(added.status, 201, "{}", added.body);
    let secret = added
        .body
        .split("id=\"new-hook-secret\">")
        .nth(1)
        .and_then(|rest| rest.split('<').next())
        .expect("the secret is shown")
        .to_owned();
    assert_eq!(secret.len(), 64, "{secret}");
    let listed = t.get(&settings, Some(&cookie)).await;
    // The page escapes the URL's slashes; its host and path name the hook.
    assert!(listed
        .body
        .contains(&format!("hooks.example.org&#x2f;zoe-{tag}")));
    assert!(!listed.body.contains(&secret), "the secret is shown once");
    let hooks = t
        .send(
            Method::GET,
            &format!("/api/games/{game}/webhooks"),
            None,
            Some(&tokens[0]),
            Body::None,
        )
        .await
        .json();
    let hook_id = hooks[0]["hook_id"].as_str().unwrap().to_owned();
    assert_eq!(hooks[0]["url"], json!(url));
    // A URL that is not one is refused on the page, and nothing is added.
    let bad = t
        .send(
            Method::POST,
            &format!("{settings}/webhooks"),
            Some(&cookie),
            None,
            Body::Form(vec![("url", "ftp://x".into())]),
        )
        .await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert!(bad.body.contains("not an http(s) URL") && bad.body.contains("Nothing was changed"));
    // The form that removes it, as the page gives it now; sent again below, from this page
    // left open, once the hook is gone.
    let delete = format!("{settings}/webhooks/{hook_id}/delete");
    let (stale, stale_cookie) = t.as_the_page_sends(&delete, &[], Some(&cookie)).await;
    // Removed: gone from the API's list.
    let removed = t
        .send(
            Method::POST,
            &format!("{settings}/webhooks/{hook_id}/delete"),
            Some(&cookie),
            None,
            Body::None,
        )
        .await;
    assert_eq!(removed.status, 303, "{}", removed.body);
    let hooks = t
        .send(
            Method::GET,
            &format!("/api/games/{game}/webhooks"),
            None,
            Some(&tokens[0]),
            Body::None,
        )
        .await
        .json();
    assert_eq!(hooks, json!([]));
    let twice = TestApp::reply(
        t.http
            .post(t.url(&delete))
            .header(COOKIE, stale_cookie.unwrap())
            .form(&stale),
    )
    .await;
    assert_eq!(twice.status, 404, "{}", twice.body);

    // A vacation of three days, from the day after tomorrow: a Clock event in the log.
    let from = (t.clock().now() + chrono::Duration::days(2)).date_naive();
    let until = from + chrono::Duration::days(2);
    let events = t.get(&format!("/api/games/{game}"), None).await.json()["next_seq"]
        .as_u64()
        .unwrap();
    let taken = t
        .send(
            Method::POST,
            &format!("{settings}/vacation"),
            Some(&cookie),
            None,
            Body::Form(vec![
                ("from", from.to_string()),
                ("until", until.to_string()),
            ]),
        )
        .await;
    assert_eq!(taken.status, 303, "{}", taken.body);
    assert_eq!(
        taken.location.as_deref(),
        Some(format!("{settings}?vacation=3").as_str())
    );
    let log = t
        .get(&format!("/api/games/{game}/events"), None)
        .await
        .json();
    let vacation = log
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["payload"]["clock"] == json!("vacation"))
        .unwrap_or_else(|| panic!("a vacation in the log: {log}"));
    assert_eq!(vacation["payload"]["seat"], json!("zoe"));
    assert_eq!(vacation["payload"]["days"], json!(3));
    assert_eq!(
        vacation["payload"]["from"],
        json!(format!("{from}T00:00:00.000Z"))
    );
    // One longer than the game allows (brisk: 7 a year) is refused, and nothing recorded.
    let too_long = t
        .send(
            Method::POST,
            &format!("{settings}/vacation"),
            Some(&cookie),
            None,
            Body::Form(vec![
                ("from", from.to_string()),
                ("until", (from + chrono::Duration::days(20)).to_string()),
            ]),
        )
        .await;
    assert_eq!(too_long.status, 400, "{}", too_long.body);
    assert!(too_long.body.contains("vacation days left"));
    let backwards = t
        .send(
            Method::POST,
            &format!("{settings}/vacation"),
            Some(&cookie),
            None,
            Body::Form(vec![
                ("from", until.to_string()),
                ("until", from.to_string()),
            ]),
        )
        .await;
    assert_eq!(backwards.status, 400);
    assert_eq!(
        t.get(&format!("/api/games/{game}"), None).await.json()["next_seq"],
        json!(events + 1),
        "one vacation recorded, the refused ones not"
    );
}

async fn a_players_settings_set_every_seat_and_take_a_vacation_in_each_clocked_game(t: TestApp) {
    let tag = tag();
    let li = format!("li-{tag}@example.org");
    let (clocked, clocked_tokens) = t
        .clocked_game(
            "李雷’s clocked game",
            &[("李雷", "li", Some(li.clone())), ("Ann", "ann", None)],
            "relaxed",
        )
        .await;
    let (free, free_tokens) = t
        .game(
            Some("李雷’s free game"),
            &[("Bo", "bo", None), ("李雷", "li", Some(li.clone()))],
        )
        .await;
    let session = t.session(&li, &format!("li-{tag}"), 1).await;
    let page = t.get("/me/settings", Some(&session)).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("李雷’s clocked game") && page.body.contains("李雷’s free game"));
    let me = t.get("/me", Some(&session)).await;
    assert!(me.body.contains("href=\"/me/settings\""));

    let saved = t
        .send(
            Method::POST,
            "/me/settings",
            Some(&session),
            None,
            boxes(&["email", "digest", "webhooks"]),
        )
        .await;
    assert_eq!(saved.status, 303, "{}", saved.body);
    let expected = json!({ "email": true, "webhooks": true, "reminders": false, "digest": true, "auto_pass": false });
    assert_eq!(t.channels(&clocked, &clocked_tokens[0]).await, expected);
    assert_eq!(t.channels(&free, &free_tokens[1]).await, expected);
    // The other players' seats are untouched.
    let untouched = json!({ "email": true, "webhooks": true, "reminders": true, "digest": false, "auto_pass": false });
    assert_eq!(t.channels(&clocked, &clocked_tokens[1]).await, untouched);
    assert_eq!(t.channels(&free, &free_tokens[0]).await, untouched);
    let again = t.get("/me/settings?saved=1", Some(&session)).await;
    assert!(again.body.contains(r#"name="digest" value="on" checked"#));
    assert!(!again
        .body
        .contains(r#"name="reminders" value="on" checked"#));

    // A vacation for every game: recorded in the clocked one; the other has no clock.
    let from = (t.clock().now() + chrono::Duration::days(3)).date_naive();
    let taken = t
        .send(
            Method::POST,
            "/me/settings/vacation",
            Some(&session),
            None,
            Body::Form(vec![
                ("from", from.to_string()),
                ("until", from.to_string()),
            ]),
        )
        .await;
    assert_eq!(taken.status, 200, "{}", taken.body);
    assert!(
        taken.body.contains("李雷’s clocked game: recorded, 1 day,"),
        "{}",
        taken.body
    );
    assert!(!taken.body.contains("李雷’s free game: "));
    let log = t
        .get(&format!("/api/games/{clocked}/events"), None)
        .await
        .json();
    assert!(
        log.as_array()
            .unwrap()
            .iter()
            .any(|e| e["payload"]["clock"] == json!("vacation")
                && e["payload"]["seat"] == json!("li"))
    );
    let bad = t
        .send(
            Method::POST,
            "/me/settings/vacation",
            Some(&session),
            None,
            Body::Form(vec![("from", "soon".into()), ("until", from.to_string())]),
        )
        .await;
    assert_eq!(bad.status, 400);
    assert!(bad.body.contains("is not a date"));
}

async fn the_daily_digest_replaces_turn_mails_and_comes_once_a_day_and_reminders_can_be_turned_off(
    t: TestApp,
) {
    let tag = tag();
    let jose = format!("jose-{tag}@example.org");
    let zoe = format!("zoe-{tag}@example.org");
    let scheduler = despatch::notify::scheduler::Scheduler::new(t.games.clone());
    // The day after tomorrow at 06:30 UTC, before the digest's hour (07:00 UTC).
    let day = (t.clock().now() + chrono::Duration::days(2)).date_naive();
    t.clock().set(day.and_hms_opt(6, 30, 0).unwrap().and_utc());
    // brisk: 24 h a move, a reminder 4 h before.
    let (first, first_tokens) = t
        .clocked_game(
            "Première partie",
            &[
                ("Zoë", "zoe", Some(zoe.clone())),
                ("José", "jose", Some(jose.clone())),
            ],
            "brisk",
        )
        .await;
    let (second, second_tokens) = t
        .clocked_game(
            "Segunda partida",
            &[
                ("Zoë", "zoe", Some(zoe.clone())),
                ("José", "jose", Some(jose.clone())),
            ],
            "brisk",
        )
        .await;
    let jose_tag = format!("jose-{tag}");
    let zoe_tag = format!("zoe-{tag}");
    // José asks for the digest in both games from his settings page; Zoë keeps a mail a turn.
    let session = t.session(&jose, &jose_tag, 1).await;
    let saved = t
        .send(
            Method::POST,
            "/me/settings",
            Some(&session),
            None,
            boxes(&["email", "reminders", "digest", "webhooks"]),
        )
        .await;
    assert_eq!(saved.status, 303);
    let turn_mails = |who: &str| {
        delivered_to(who)
            .into_iter()
            .filter(|m| m.subject.starts_with("[Despatch] Your turn"))
            .count()
    };
    // Zoë moves first in both games: her two turn mails from their creation.
    for _ in 0..100 {
        if turn_mails(&zoe_tag) >= 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(turn_mails(&zoe_tag), 2);
    t.play(&first, &first_tokens[0], "The guns open fire.")
        .await;
    t.play(&second, &second_tokens[0], "The cavalry rides out.")
        .await;
    t.play(&first, &first_tokens[1], "We hold.").await;
    t.deliver().await;
    // Zoë's third turn mail comes (so the dispatcher did send); José's two never do.
    for _ in 0..100 {
        if turn_mails(&zoe_tag) >= 3 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(turn_mails(&zoe_tag), 3);
    assert_eq!(turn_mails(&jose_tag), 0, "no turn mail with the digest on");

    // Before the digest's hour nothing is sent; from it, one digest listing the game that waits
    // for José (the second; in the first it is Zoë's turn again).
    t.clock().set(day.and_hms_opt(6, 45, 0).unwrap().and_utc());
    scheduler.tick().await.unwrap();
    assert_eq!(
        t.games.send_digests().await.unwrap(),
        0,
        "not before 07:00 UTC"
    );
    t.clock().set(day.and_hms_opt(7, 30, 0).unwrap().and_utc());
    scheduler.tick().await.unwrap();
    t.deliver().await;
    let digest = wait_for_subject(&jose_tag, "[Despatch] Your games today").await;
    assert_eq!(digest.to, vec![jose.clone()]);
    assert!(
        digest.subject.contains("1 waiting for you"),
        "{}",
        digest.subject
    );
    assert!(digest.text.contains("Segunda partida"), "{}", digest.text);
    assert!(!digest.text.contains("Première partie"), "{}", digest.text);
    assert!(
        digest.text.contains(&format!("/games/{second}?token=s1.")),
        "{}",
        digest.text
    );
    assert!(digest.html.contains("Segunda partida"));
    // Once a day: another pass that day, by this scheduler or another, sends nothing more.
    let other =
        despatch::notify::scheduler::Scheduler::new(t.another().clock(t.clock().clone()).games());
    other.tick().await.unwrap();
    scheduler.tick().await.unwrap();
    t.deliver().await;
    let digests = || {
        delivered_to(&jose_tag)
            .into_iter()
            .filter(|m| m.subject.starts_with("[Despatch] Your games today"))
            .count()
    };
    assert_eq!(digests(), 1);
    // Zoë never asked for one.
    assert!(delivered_to(&zoe_tag)
        .iter()
        .all(|m| !m.subject.starts_with("[Despatch] Your games today")));

    // Reminders off: Zoë turns them off in the first game only, on its page. At 4 h before the
    // deadline the second game's reminder comes to José's (on) and none to Zoë's.
    let cookie = format!("despatch_seat={}", first_tokens[0]);
    let off = t
        .send(
            Method::POST,
            &format!("/games/{first}/settings"),
            Some(&cookie),
            None,
            boxes(&["email", "webhooks"]),
        )
        .await;
    assert_eq!(off.status, 303);
    // 21 h after the moves: 3 h before the deadlines, past the 4 h reminder.
    t.clock()
        .set(day.and_hms_opt(6, 30, 0).unwrap().and_utc() + chrono::Duration::hours(21));
    let fired = scheduler.tick().await.unwrap();
    assert!(fired.len() >= 2, "both games' reminders fired: {fired:?}");
    t.deliver().await;
    wait_for_subject(&jose_tag, "[Despatch] Reminder").await;
    assert!(
        delivered_to(&zoe_tag)
            .iter()
            .all(|m| !m.subject.starts_with("[Despatch] Reminder")),
        "Zoë turned her reminders off"
    );
}

/// The deadline of `page` as its `<time id="deadline">` carries it (RFC 3339) and shows it.
fn deadline_on(page: &str) -> (String, String) {
    let at = page
        .split("<time datetime=\"")
        .nth(1)
        .unwrap_or_else(|| panic!("no deadline in {page}"));
    let stamp = at[..at.find('"').unwrap()].to_owned();
    let shown = at[at.find('>').unwrap() + 1..at.find("</time>").unwrap()].to_owned();
    (stamp, shown)
}

async fn a_seats_time_zone_writes_its_deadlines_in_its_mail_and_on_its_page(t: TestApp) {
    let tag = tag();
    let kenji = format!("kenji-{tag}@example.org");
    let (game, tokens) = t
        .clocked_game(
            "Across the zones",
            &[
                ("Anna", "anna", None),
                ("Kenji", "kenji", Some(kenji.clone())),
            ],
            "standard",
        )
        .await;
    let cookie = format!("despatch_seat={}", tokens[1]);
    let settings = format!("/games/{game}/settings");
    // A name that is no time zone: the page again with the reason, nothing set.
    let bad = t
        .send(
            Method::POST,
            &format!("{settings}/time-zone"),
            Some(&cookie),
            None,
            Body::Form(vec![("time_zone", "Tokyo".to_owned())]),
        )
        .await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert!(
        bad.body
            .contains("&#x27;Tokyo&#x27; is not an IANA time zone"),
        "{}",
        bad.body
    );
    assert_eq!(t.store.seat_time_zone(&game, "kenji").await.unwrap(), None);
    // Asia/Tokyo (no summer time, so the test reads the same all year).
    let set = t
        .send(
            Method::POST,
            &format!("{settings}/time-zone"),
            Some(&cookie),
            None,
            Body::Form(vec![("time_zone", " Asia/Tokyo ".to_owned())]),
        )
        .await;
    assert_eq!(set.status, 303, "{}", set.body);
    assert_eq!(
        set.location.as_deref(),
        Some(&*format!("{settings}?zone=Asia/Tokyo"))
    );
    let page = t
        .get(&format!("{settings}?zone=Asia/Tokyo"), Some(&cookie))
        .await;
    assert!(
        page.body
            .contains("Deadlines are now written in Asia&#x2f;Tokyo"),
        "{}",
        page.body
    );
    assert_eq!(
        t.store
            .seat_time_zone(&game, "kenji")
            .await
            .unwrap()
            .as_deref(),
        Some("Asia/Tokyo")
    );
    // Anna moves: Kenji's turn mail and page give his deadline in Tokyo's time.
    t.play(&game, &tokens[0], "The brigade holds the ford.")
        .await;
    let seat_page = t.get(&format!("/games/{game}"), Some(&cookie)).await;
    let (stamp, shown) = deadline_on(&seat_page.body);
    let at: chrono::DateTime<Utc> = chrono::DateTime::parse_from_rfc3339(&stamp).unwrap().into();
    let tokyo = despatch::games::when::zone(Some("Asia/Tokyo"));
    let expected = despatch::games::when::moment(at, tokyo, None).at;
    assert!(expected.ends_with(" JST"), "{expected}");
    assert_eq!(shown, expected);
    assert!(
        !seat_page.body.contains("id=\"deadline\" data-local"),
        "a seat with a zone is not rewritten into the browser's"
    );
    assert!(seat_page
        .body
        .contains("(<span class=\"countdown\" id=\"countdown\""));
    let countdown = seat_page
        .body
        .split("aria-live=\"off\">")
        .nth(1)
        .map(|c| &c[..c.find('<').unwrap()])
        .expect("the countdown's text");
    assert_eq!(
        countdown,
        despatch::games::when::relative(at, t.clock().now()),
        "how far off, on the service's clock"
    );
    assert!(countdown.starts_with("in "), "{countdown}");
    // Anna has no zone: her page gives the same moment in UTC, for the browser to localise.
    let annas = t
        .get(
            &format!("/games/{game}"),
            Some(&format!("despatch_seat={}", tokens[0])),
        )
        .await;
    let (_, annas_shown) = deadline_on(&annas.body);
    assert_eq!(
        annas_shown,
        despatch::games::when::moment(at, None, None).at,
        "Kenji's deadline, in UTC"
    );
    assert!(annas_shown.ends_with(" UTC"));
    assert!(annas.body.contains("id=\"deadline\" data-local"));
    t.deliver().await;
    let mail = wait_for_subject(
        &format!("kenji-{tag}"),
        "[Despatch] Your turn, Kenji: Across the zones",
    )
    .await;
    assert!(
        mail.text.contains(&format!("Deadline: {expected} (in ")),
        "{}",
        mail.text
    );
    assert!(mail.html.contains(&format!("Deadline: {expected} (in ")));

    // The player's settings set every seat of the address at once.
    let (second, _) = t
        .game(
            Some("A second table"),
            &[("Kenji", "kenji", Some(kenji.clone())), ("Bo", "bo", None)],
        )
        .await;
    let session = t.session(&kenji, &format!("kenji-{tag}"), 1).await;
    let all = t
        .send(
            Method::POST,
            "/me/settings/time-zone",
            Some(&session),
            None,
            Body::Form(vec![("time_zone", "Asia/Kolkata".to_owned())]),
        )
        .await;
    assert_eq!(all.status, 303, "{}", all.body);
    for g in [&game, &second] {
        assert_eq!(
            t.store.seat_time_zone(g, "kenji").await.unwrap().as_deref(),
            Some("Asia/Kolkata"),
            "{g}"
        );
    }
    assert_eq!(t.store.seat_time_zone(&second, "bo").await.unwrap(), None);
    let listed = t.get("/me/settings", Some(&session)).await;
    assert!(listed.body.contains("Asia&#x2f;Kolkata"), "{}", listed.body);
    // My games gives the clocked game's deadline in the seat's zone too.
    let kolkata = despatch::games::when::zone(Some("Asia/Kolkata"));
    let mine = t.get("/me", Some(&session)).await;
    assert!(
        mine.body.contains(&format!(
            "<time datetime=\"{stamp}\">{} (in ",
            despatch::games::when::moment(at, kolkata, None).at
        )),
        "{}",
        mine.body
    );
    let refused = t
        .send(
            Method::POST,
            "/me/settings/time-zone",
            Some(&session),
            None,
            Body::Form(vec![("time_zone", "Nowhere/Atall".to_owned())]),
        )
        .await;
    assert_eq!(refused.status, 400);
    assert_eq!(
        t.store
            .seat_time_zone(&game, "kenji")
            .await
            .unwrap()
            .as_deref(),
        Some("Asia/Kolkata"),
        "a refused zone changes nothing"
    );
    // Emptied, the zone is UTC again.
    let cleared = t
        .send(
            Method::POST,
            &format!("{settings}/time-zone"),
            Some(&cookie),
            None,
            Body::Form(vec![("time_zone", String::new())]),
        )
        .await;
    assert_eq!(cleared.status, 303);
    assert_eq!(t.store.seat_time_zone(&game, "kenji").await.unwrap(), None);
}

async fn table_talk_through_the_api_follows_the_pages_rules(t: TestApp) {
    let tag = tag();
    let bo = format!("bo-{tag}@example.org");
    let (game, tokens) = t
        .game(
            Some("Talkative"),
            &[
                ("Anna", "anna", None),
                ("Bo", "bo", Some(bo.clone())),
                ("Cleo", "cleo", None),
            ],
        )
        .await;
    let talk = format!("/api/games/{game}/talk");
    let say = |token: &str, body: Value| say_by_api(&t, &talk, token.to_owned(), body);
    let table = say(&tokens[0], json!({ "text": "Shall we begin?" })).await;
    assert_eq!(table.status, 201, "{}", table.body);
    assert_eq!(table.json()["from"], json!("anna"));
    assert_eq!(table.json()["to"], Value::Null);
    let told = say(&tokens[0], json!({ "text": "Watch Cleo.", "to": "Bo" })).await;
    assert_eq!(told.status, 201, "{}", told.body);
    assert_eq!(told.json()["to"], json!("bo"));
    // Refused as the page refuses, and nothing is kept.
    for (body, says) in [
        (json!({ "text": "   " }), "the message is empty"),
        (json!({ "text": "x".repeat(2001) }), "longer than 2000"),
        (
            json!({ "text": "hi", "to": "dora" }),
            "there is no seat 'dora'",
        ),
        (
            json!({ "text": "hi", "to": "anna" }),
            "that is your own seat",
        ),
    ] {
        let r = say(&tokens[0], body).await;
        assert_eq!(r.status, 400, "{}", r.body);
        assert!(r.body.contains(says), "{}", r.body);
    }
    let read = |token: &str| read_by_api(&t, &talk, token.to_owned());
    let texts = |r: &Reply| -> Vec<String> {
        r.json()["talk"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["text"].as_str().unwrap().to_owned())
            .collect()
    };
    let bos = read(&tokens[1]).await;
    assert_eq!(bos.status, 200);
    assert_eq!(bos.json()["seat"], json!("bo"));
    assert_eq!(texts(&bos), ["Shall we begin?", "Watch Cleo."]);
    let cleos = read(&tokens[2]).await;
    assert_eq!(
        texts(&cleos),
        ["Shall we begin?"],
        "a tell is its reader's alone"
    );
    // Bo is told by mail too, and his page shows it.
    t.deliver().await;
    let mail = wait_for_subject(&format!("bo-{tag}"), "[Despatch] Anna to you: Talkative").await;
    assert!(mail.text.contains("Watch Cleo."), "{}", mail.text);
    let page = t
        .get(
            &format!("/games/{game}"),
            Some(&format!("despatch_seat={}", tokens[1])),
        )
        .await;
    assert!(page.body.contains("Watch Cleo."));
}

async fn say_by_api(t: &TestApp, path: &str, token: String, body: Value) -> Reply {
    t.send(Method::POST, path, None, Some(&token), Body::Json(body))
        .await
}

async fn read_by_api(t: &TestApp, path: &str, token: String) -> Reply {
    t.send(Method::GET, path, None, Some(&token), Body::None)
        .await
}

/// Issue 35: what a copy of the database opens, and seat links that can be revoked. The server
/// signs links with the operator's secret, as every server does (`despatch serve` is always
/// given one: `DESPATCH_SECRET_KEY` or the key file, both kept outside the database).
mod credentials {
    use super::common;
    use super::*;

    const SECRET: &str = "the operator's secret, kept outside the database";

    async fn spawn(backend: common::Backend) -> TestApp {
        common::spawn_app(backend)
            .clock(ManualClock::new(Utc::now() + chrono::Duration::hours(1)))
            .no_redirects()
            .link_secret(Some(SECRET))
            .spawn()
            .await
    }

    on_both_backends!(
        a_copy_of_the_database_opens_no_seat_session_claim_or_subscription,
        a_claim_a_new_link_and_signing_out_everywhere_revoke_a_seats_links,
    );

    /// Every value of `name=` in the links of the mail to `tag`.
    fn link_values(tag: &str, name: &str) -> Vec<String> {
        let marker = format!("{name}=");
        let mut out: Vec<String> = delivered_to(tag)
            .iter()
            .flat_map(|m| {
                m.text
                    .split(|c: char| c.is_whitespace() || c == '&' || c == '<' || c == '>')
                    .filter_map(|w| w.split_once(&marker).map(|(_, v)| v.to_owned()))
                    .collect::<Vec<_>>()
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// What in a copy of the database could be a credential: every seat-link-shaped word and
    /// every run of 64 hex digits (a database file puts a row's columns side by side, so a
    /// longer run is tried by its first and last 64 digits and, when it is whole multiples of
    /// 64, by each).
    fn candidates(copy: &[u8]) -> Vec<String> {
        let text = String::from_utf8_lossy(copy);
        let mut out = Vec::new();
        for word in
            text.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')))
        {
            for prefix in ["s1.", "s2."] {
                for (at, _) in word.match_indices(prefix) {
                    out.push(word[at..].to_owned());
                }
            }
        }
        for run in text.split(|c: char| !c.is_ascii_hexdigit()) {
            let n = run.len();
            if n < 64 || !run.is_ascii() {
                continue;
            }
            out.push(run[..64].to_owned());
            out.push(run[n - 64..].to_owned());
            if n % 64 == 0 {
                out.extend((0..n).step_by(64).map(|i| run[i..i + 64].to_owned()));
            }
        }
        out.sort();
        out.dedup();
        out
    }

    impl TestApp {
        /// Whether `token` opens a seat of `game_id` through the API.
        async fn opens_seat(&self, game_id: &str, token: &str) -> bool {
            let r = self
                .send(
                    Method::GET,
                    &format!("/api/games/{game_id}/moves"),
                    None,
                    Some(token),
                    Body::None,
                )
                .await;
            r.status == 200
        }
    }

    async fn a_copy_of_the_database_opens_no_seat_session_claim_or_subscription(t: TestApp) {
        let tag = tag();
        let anna = format!("anna-{tag}@example.org");
        let bert = format!("bert-{tag}@example.org");
        let (game, tokens) = t
            .game(
                Some("Copied"),
                &[
                    ("Anna", "anna", Some(anna.clone())),
                    ("Bert", "bert", Some(bert.clone())),
                ],
            )
            .await;
        // Every kind of mail that carries a credential: turn notices and invitations (seat
        // links, unsubscribe links), a sign-in link, the seat links asked for again, and a
        // claim's confirmation, none of them used.
        t.play(&game, &tokens[0], "roll 2d6 opening volley").await;
        t.deliver().await;
        let sign_in = t.sign_in_link(&anna, &format!("anna-{tag}"), 1).await;
        let r = t
            .send(
                Method::POST,
                "/api/login/links",
                None,
                None,
                Body::Json(json!({ "email": bert })),
            )
            .await;
        assert_eq!(r.status, 202, "{}", r.body);
        let r = t
            .send(
                Method::POST,
                &format!("/api/games/{game}/claim"),
                None,
                Some(&tokens[1]),
                Body::Json(json!({ "email": format!("bert-new-{tag}@example.org") })),
            )
            .await;
        assert_eq!(r.status, 202, "{}", r.body);
        t.deliver().await;
        wait_for_subject(&format!("bert-new-{tag}"), "[Despatch]").await;
        wait_for_subject(&format!("bert-{tag}"), "[Despatch] Your seat links").await;

        let seat_links = link_values(&tag, "token");
        let signatures = link_values(&tag, "sig");
        let seat_link = seat_links
            .iter()
            .find(|v| v.starts_with("s1.bert."))
            .unwrap_or_else(|| panic!("a seat link of bert's in the mail: {seat_links:?}"))
            .clone();
        assert!(
            seat_links.len() >= 3,
            "seat, sign-in and claim links: {seat_links:?}"
        );
        assert!(!signatures.is_empty(), "an unsubscribe link");

        // The copy holds none of the credentials the mail carried.
        let copy = t.db.copy().await;
        let text = String::from_utf8_lossy(&copy);
        for credential in seat_links.iter().chain(&signatures) {
            assert!(
                !text.contains(credential.as_str()),
                "the {} copy holds {credential}",
                t.db.backend()
            );
        }
        // And nothing in it opens a seat, a session, a claim or an unsubscribe link.
        let found = candidates(&copy);
        assert!(found.len() > 10, "the copy holds hashes to try: {found:?}");
        for c in &found {
            assert!(
                !t.opens_seat(&game, c).await,
                "{c} from the copy opens a seat"
            );
            let r = t
                .send(
                    Method::POST,
                    "/login/confirm",
                    None,
                    None,
                    Body::Form(vec![("token", c.clone())]),
                )
                .await;
            assert!(
                r.cookie("despatch_session").is_none(),
                "{c} from the copy opens a session"
            );
            let r = t
                .send(
                    Method::POST,
                    &format!("/games/{game}/claim/confirm"),
                    None,
                    None,
                    Body::Form(vec![("token", c.clone())]),
                )
                .await;
            assert_eq!(
                r.status, 403,
                "{c} from the copy confirms a claim: {}",
                r.body
            );
            for seat in ["anna", "bert"] {
                let r = t
                    .get(
                        &format!("/api/games/{game}/unsubscribe?seat={seat}&channel=email&sig={c}"),
                        None,
                    )
                    .await;
                assert_eq!(r.status, 403, "{c} from the copy unsubscribes {seat}");
            }
        }

        // The links as mailed do open: what the copy lacks is the key, not the credentials'
        // working.
        assert!(
            t.opens_seat(&game, &seat_link).await,
            "the mailed seat link"
        );
        let r = t.follow(&sign_in).await;
        assert!(
            r.cookie("despatch_session").is_some(),
            "the mailed sign-in link: {}",
            r.body
        );
        let sig = &signatures[0];
        let seat = if delivered_to(&format!("anna-{tag}"))
            .iter()
            .any(|m| m.text.contains(sig.as_str()))
        {
            "anna"
        } else {
            "bert"
        };
        let r = t
            .get(
                &format!("/api/games/{game}/unsubscribe?seat={seat}&channel=email&sig={sig}"),
                None,
            )
            .await;
        assert_eq!(r.status, 200, "the mailed unsubscribe link: {}", r.body);
    }

    async fn a_claim_a_new_link_and_signing_out_everywhere_revoke_a_seats_links(t: TestApp) {
        let tag = tag();
        let anna = format!("anna-{tag}@example.org");
        let (game, tokens) = t
            .game(
                None,
                &[("Anna", "anna", Some(anna.clone())), ("Bert", "bert", None)],
            )
            .await;
        t.deliver().await;
        let first = link_values(&format!("anna-{tag}"), "token");
        assert_eq!(
            first.len(),
            1,
            "anna's first mail carries her seat link: {first:?}"
        );
        let first = &first[0];
        assert!(t.opens_seat(&game, first).await);

        // A new link asked for by the seat: the old one stops, the new one opens, and the
        // seat's own token (a program's key) keeps working.
        let r = t
            .send(
                Method::POST,
                &format!("/api/games/{game}/new-link"),
                None,
                Some(first),
                Body::None,
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.body);
        let link = r.json()["link"].as_str().unwrap().to_owned();
        let second = link.split_once("token=").unwrap().1.to_owned();
        assert!(second.starts_with("s2.anna.1."), "{second}");
        assert!(!t.opens_seat(&game, first).await, "the old link is revoked");
        let refused = t
            .send(
                Method::GET,
                &format!("/api/games/{game}/moves"),
                None,
                Some(first),
                Body::None,
            )
            .await;
        assert_eq!(refused.status, 403);
        assert!(
            refused.body.contains("replaced by a newer one"),
            "{}",
            refused.body
        );
        assert!(
            t.opens_seat(&game, &second).await,
            "the new link opens the seat"
        );
        assert!(
            t.opens_seat(&game, &tokens[0]).await,
            "the seat's own token"
        );
        // A revoked link asks for nothing more: a new link needs a link that works.
        let r = t
            .send(
                Method::POST,
                &format!("/api/games/{game}/new-link"),
                None,
                Some(first),
                Body::None,
            )
            .await;
        assert_eq!(r.status, 403, "{}", r.body);
        assert!(
            t.opens_seat(&game, &second).await,
            "a refused request changed nothing"
        );

        // A claim that moves the seat to another address revokes what the old address holds.
        let r = t
            .send(
                Method::POST,
                &format!("/api/games/{game}/claim"),
                None,
                Some(&second),
                Body::Json(json!({ "email": format!("anna-new-{tag}@example.org") })),
            )
            .await;
        assert_eq!(r.status, 202, "{}", r.body);
        assert!(
            t.opens_seat(&game, &second).await,
            "an unconfirmed claim revokes nothing"
        );
        t.deliver().await;
        let claim = link_values(&format!("anna-new-{tag}"), "token");
        assert_eq!(claim.len(), 1, "{claim:?}");
        let r = t
            .send(
                Method::POST,
                &format!("/games/{game}/claim/confirm"),
                None,
                None,
                Body::Form(vec![("token", claim[0].clone())]),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert!(
            !t.opens_seat(&game, &second).await,
            "the claim revoked the old address's link"
        );

        // Signing out everywhere ends the address's sessions and revokes its seats' links.
        let new_anna = format!("anna-new-{tag}@example.org");
        let cookie = t.session(&new_anna, &format!("anna-new-{tag}"), 1).await;
        let me = t.get("/api/me", Some(&cookie)).await;
        assert_eq!(me.status, 200, "{}", me.body);
        let third_link = me.json()["games"][0]["link"].as_str().unwrap().to_owned();
        let third = third_link.split_once("token=").unwrap().1.to_owned();
        assert!(third.starts_with("s2.anna.2."), "{third}");
        assert!(t.opens_seat(&game, &third).await);
        let r = t
            .send(
                Method::POST,
                "/api/logout/everywhere",
                Some(&cookie),
                None,
                Body::None,
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["seats"], 1);
        assert!(
            !t.opens_seat(&game, &third).await,
            "signing out everywhere revoked the link"
        );
        assert_eq!(
            t.get("/api/me", Some(&cookie)).await.status,
            403,
            "and ended the session"
        );
        // Bert's seat, of no address, is untouched.
        assert!(t.opens_seat(&game, &tokens[1]).await);

        // The same from the pages: Bert's seat page makes a new link, keeps the seat in this
        // browser with it, shows it once, and the link Bert opened first no longer opens it.
        let bert_link = t
            .send(
                Method::POST,
                &format!("/api/games/{game}/new-link"),
                None,
                Some(&tokens[1]),
                Body::None,
            )
            .await
            .json()["link"]
            .as_str()
            .unwrap()
            .to_owned();
        let opened = t.get(&bert_link, None).await;
        let (value, _) = opened
            .cookie("despatch_seat")
            .expect("the link sets the seat cookie");
        let cookie = format!("despatch_seat={value}");
        let r = t
            .send(
                Method::POST,
                &format!("/games/{game}/new-link"),
                Some(&cookie),
                None,
                Body::None,
            )
            .await;
        assert_eq!(r.status, 303, "{}", r.body);
        let (new_value, _) = r
            .cookie("despatch_seat")
            .expect("this browser keeps the seat");
        assert_ne!(new_value, value);
        let new_cookie = format!("despatch_seat={new_value}");
        let page = t
            .get(&format!("/games/{game}?new_link=1"), Some(&new_cookie))
            .await;
        assert_eq!(page.status, 200, "{}", page.body);
        assert!(
            page.body.contains("This seat has a new link"),
            "{}",
            page.body
        );
        assert!(
            page.body.contains(&new_value),
            "the page shows the new link once"
        );
        let old = t.get(&format!("/games/{game}"), Some(&cookie)).await;
        assert_eq!(
            old.status, 403,
            "the old cookie's link is revoked: {}",
            old.body
        );
        assert!(old.body.contains("replaced by a newer one"), "{}", old.body);

        // And signing out everywhere from My games.
        let cookie = t.session(&new_anna, &format!("anna-new-{tag}"), 2).await;
        let r = t
            .send(
                Method::POST,
                "/logout/everywhere",
                Some(&cookie),
                None,
                Body::None,
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert!(r.body.contains("Signed out everywhere"), "{}", r.body);
        assert_eq!(t.get("/api/me", Some(&cookie)).await.status, 403);
    }
}
