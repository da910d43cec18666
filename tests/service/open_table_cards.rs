//! A card-driven game at the open table through the service (issue 40), on PostgreSQL and
//! SQLite: created over the API with components, played by seats over the API and by mail
//! through the real SMTP server (turn notices read from its maildir, replies through mail-in):
//! deals, private draws, looks, plays, gifts, reshuffles, a set added, chits drawn and
//! returned, then bots' random card operations. After every move no other seat's API view, the
//! spectator's, a seat's newly delivered mail or the log's commands in an export redacted for
//! a seat names a card hidden in someone's hand that the reader never held and that was never
//! public. The ended game's export verifies with every shuffle re-made; the same export with a
//! played card swapped, its hashes made again, is refused naming that card's seq.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use common::notify::{delivered_to, Delivered};
use common::TestApp;
use despatch::engine::bot::Rng;
use despatch::engine::event::{kind, Event};
use despatch::engine::export;
use despatch::engine::ruleset::{Seat, Viewer};
use despatch::engine::verify::verify;
use despatch::games::GameId;
use despatch::notify::dispatcher::Dispatcher;
use despatch::rules;
use serde_json::{json, Value};

const REPLY_DOMAIN: &str = common::app::REPLY_DOMAIN;
const INBOUND: &str = "inbound-secret";
const SEATS: [&str; 3] = ["anna", "ben", "cy"];

/// Every card and chit of its own name, so that a name tells one card.
fn components() -> String {
    let mut text = String::from("deck strategy Strategy cards\n");
    for i in 1..=16 {
        text.push_str(&format!("card Strategy-{i:02} | Card {i}\n"));
    }
    text.push_str("set late\n");
    for i in 1..=3 {
        text.push_str(&format!("card Late-{i:02}\n"));
    }
    text.push_str("deck events\n");
    for i in 1..=6 {
        text.push_str(&format!("card Event-{i:02}\n"));
    }
    text.push_str("cup reserves\n");
    for i in 1..=5 {
        text.push_str(&format!("chit Reserve-{i:02}\n"));
    }
    text
}

struct Table {
    app: TestApp,
    dispatcher: Dispatcher,
    tag: String,
}

async fn spawn(backend: common::Backend) -> Table {
    let app = common::spawn_app(backend)
        .link_secret(Some("mail key"))
        .inbound_mail(REPLY_DOMAIN, INBOUND)
        .move_rate(None)
        .spawn()
        .await;
    let mut b = [0u8; 6];
    getrandom::fill(&mut b).unwrap();
    Table {
        dispatcher: app.smtp_dispatcher(),
        app,
        tag: hex::encode(b),
    }
}

/// The game as the test follows it: the seats' tokens, and what each seat and the table have
/// seen so far.
struct Game {
    id: String,
    tokens: BTreeMap<String, String>,
    /// The cards each seat has held.
    held: BTreeMap<String, BTreeSet<String>>,
    /// The cards that were ever face up: discarded, played or shown.
    public: BTreeSet<String>,
    /// The mails already checked.
    read: BTreeSet<String>,
    turns: usize,
}

impl Table {
    fn email(&self, seat: &str) -> String {
        format!("{seat}-{}@example.org", self.tag)
    }

    async fn get(&self, path: &str, token: Option<&str>) -> (u16, String) {
        let mut req = self.app.http.get(format!("{}{path}", self.app.base));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let resp = req.send().await.unwrap();
        (resp.status().as_u16(), resp.text().await.unwrap())
    }

    async fn summary(&self, g: &Game) -> Value {
        serde_json::from_str(&self.get(&format!("/api/games/{}", g.id), None).await.1).unwrap()
    }

    async fn create(&self) -> Game {
        let seats: Vec<Value> = SEATS
            .iter()
            .map(|s| json!({ "seat": s, "name": s, "email": self.email(s) }))
            .collect();
        let resp = self
            .app
            .http
            .post(format!("{}/api/games", self.app.base))
            .json(&json!({ "ruleset": "open-table", "seats": seats, "options": { "components": components() } }))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status().as_u16(), 201);
        let body: Value = resp.json().await.unwrap();
        let tokens = SEATS
            .iter()
            .enumerate()
            .map(|(i, s)| {
                (
                    s.to_string(),
                    body["seats"][i]["token"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        Game {
            id: body["game_id"].as_str().unwrap().to_owned(),
            tokens,
            held: BTreeMap::new(),
            public: BTreeSet::new(),
            read: BTreeSet::new(),
            turns: 0,
        }
    }

    /// `seat`'s hand as its own API view shows it: (card, pile, shown).
    async fn hand(&self, g: &Game, seat: &str) -> Vec<(String, String, bool)> {
        let (_, body) = self
            .get(&format!("/api/games/{}/view", g.id), Some(&g.tokens[seat]))
            .await;
        let body: Value = serde_json::from_str(&body).unwrap();
        body["view"]["table"]["hands"][seat]["cards"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|h| {
                (
                    h["card"].as_str().unwrap().to_owned(),
                    h["pile"].as_str().unwrap().to_owned(),
                    h["shown"] == json!(true),
                )
            })
            .collect()
    }

    /// The seat to act (fixed order) and the seq its turn notice names.
    async fn to_act(&self, g: &Game) -> (String, u64) {
        let s = self.summary(g).await;
        (
            s["waiting_for"][0]["seat"].as_str().unwrap().to_owned(),
            s["next_seq"].as_u64().unwrap() - 1,
        )
    }

    /// `order` sent by the seat to act over the API: whether it was taken (a refusal is 422).
    async fn by_api(&self, g: &Game, seat: &str, order: &str) -> bool {
        let seq = self.summary(g).await["next_seq"].as_u64().unwrap();
        let resp = self
            .app
            .http
            .post(format!("{}/api/games/{}/moves", self.app.base, g.id))
            .bearer_auth(&g.tokens[seat])
            .json(&json!({ "expected_seq": seq, "command": order, "client_entropy": format!("e{seq}") }))
            .send()
            .await
            .unwrap();
        let status = resp.status().as_u16();
        assert!(
            status == 201 || status == 422,
            "{order}: {status} {}",
            resp.text().await.unwrap()
        );
        status == 201
    }

    /// Sends what is due and waits for `seat`'s turn notice after event `seq`.
    async fn notice(&self, g: &Game, seat: &str, seq: u64) -> Delivered {
        let prefix = format!("despatch.{}.{seq}.", g.id);
        for _ in 0..200 {
            self.dispatcher.drain().await.unwrap();
            let found = delivered_to(&self.email(seat))
                .into_iter()
                .find(|m| m.message_id.starts_with(&prefix) && !m.message_id.contains(".answer-"));
            if let Some(m) = found {
                return m;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("no turn notice for {seat} after event {seq} of {}", g.id);
    }

    /// `order` sent by the seat to act as the reply to its turn notice, through mail-in.
    async fn by_mail(&self, g: &Game, seat: &str, order: &str) {
        let (_, seq) = self.to_act(g).await;
        let notice = self.notice(g, seat, seq).await;
        let to = notice
            .reply_to
            .first()
            .expect("a turn notice carries a reply-to address");
        let raw = format!(
            "From: {seat} <{from}>\r\nTo: {to}\r\nSubject: Re: {subject}\r\nMessage-ID: <cards-{seq}-{tag}@example.org>\r\nIn-Reply-To: <{id}>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n",
            from = self.email(seat),
            subject = notice.subject,
            tag = self.tag,
            id = notice.message_id,
            body = order.replace('\n', "\r\n"),
        );
        let resp = self
            .app
            .http
            .post(format!("{}/api/inbound/email", self.app.base))
            .bearer_auth(INBOUND)
            .body(raw)
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status().as_u16(), 200);
        let answer: Value = resp.json().await.unwrap();
        let reply = answer["reply"]["text"].as_str().unwrap_or_default();
        assert!(
            reply.contains("Your orders were carried out"),
            "{order}\n→ {answer}"
        );
    }

    /// One move: by mail every third turn, else over the API; then the hidden checks.
    async fn play(&self, g: &mut Game, order: &str) {
        let (seat, _) = self.to_act(g).await;
        if g.turns % 3 == 1 {
            self.by_mail(g, &seat, order).await;
        } else {
            assert!(
                self.by_api(g, &seat, order).await,
                "{seat}: {order} was refused"
            );
        }
        g.turns += 1;
        self.check_hidden(g).await;
    }

    /// No reader is shown a card hidden in another seat's hand that it never held and that was
    /// never public.
    async fn check_hidden(&self, g: &mut Game) {
        let loaded = self
            .app
            .games
            .load(&GameId::parse(&g.id).unwrap())
            .await
            .unwrap();
        if loaded.game.ended {
            // Once the game is over every hand is shown to all.
            return;
        }
        let everyone = loaded.game.view(&Viewer::Everyone);
        let table = &everyone["table"];
        for pile in table["piles"].as_array().unwrap() {
            for c in pile["discard"].as_array().unwrap() {
                g.public.insert(c.as_str().unwrap().to_owned());
            }
        }
        let mut hidden: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (seat, hand) in table["hands"].as_object().into_iter().flatten() {
            for h in hand["cards"].as_array().unwrap() {
                let card = h["card"].as_str().unwrap().to_owned();
                g.held.entry(seat.clone()).or_default().insert(card.clone());
                if h["shown"] == json!(true) {
                    g.public.insert(card);
                } else {
                    hidden.entry(seat.clone()).or_default().push(card);
                }
            }
        }
        let forbidden = |reader: Option<&str>| -> Vec<String> {
            hidden
                .iter()
                .filter(|(holder, _)| Some(holder.as_str()) != reader)
                .flat_map(|(_, cards)| cards.iter().cloned())
                .filter(|c| !g.public.contains(c))
                .filter(|c| reader.is_none_or(|r| !g.held.get(r).is_some_and(|h| h.contains(c))))
                .collect()
        };
        let names = |text: &str, cards: &[String]| {
            cards.iter().find(|c| text.contains(c.as_str())).cloned()
        };
        // The API's view, each seat's and the spectator's.
        let spectator = self.get(&format!("/api/games/{}/view", g.id), None).await.1;
        let spectator: Value = serde_json::from_str(&spectator).unwrap();
        if let Some(c) = names(&spectator["view"].to_string(), &forbidden(None)) {
            panic!(
                "the spectator's view shows {c} at turn {}: {}\nthe table: {table}",
                g.turns, spectator["view"]
            );
        }
        for seat in SEATS {
            let forbidden = forbidden(Some(seat));
            let (_, view) = self
                .get(&format!("/api/games/{}/view", g.id), Some(&g.tokens[seat]))
                .await;
            let view: Value = serde_json::from_str(&view).unwrap();
            if let Some(c) = names(&view["view"].to_string(), &forbidden) {
                panic!("{seat}'s view shows {c}, hidden in another hand");
            }
            // The export redacted for the seat: every command of the log.
            let (status, text) = self
                .get(
                    &format!("/api/games/{}/export", g.id),
                    Some(&g.tokens[seat]),
                )
                .await;
            assert_eq!(status, 200);
            let (_, events) = export::read(&text).unwrap();
            for e in events.iter().filter(|e| e.kind == kind::COMMAND) {
                if let Some(c) = names(&e.payload.to_string(), &forbidden) {
                    panic!("seq {}'s command in {seat}'s export names {c}", e.seq);
                }
            }
            // The mail delivered to the seat since the last check.
            self.dispatcher.drain().await.unwrap();
            for m in delivered_to(&self.email(seat)) {
                if !g.read.insert(m.message_id.clone()) {
                    continue;
                }
                if let Some(c) = names(&m.raw, &forbidden) {
                    panic!("{seat}'s mail {:?} tells {c}:\n{}", m.subject, m.text);
                }
            }
        }
    }
}

on_both_backends!(a_card_driven_game_is_played_over_the_api_and_by_mail_and_no_hand_leaks);

async fn a_card_driven_game_is_played_over_the_api_and_by_mail_and_no_hand_leaks(t: Table) {
    let mut g = t.create().await;
    let first = |hand: &[(String, String, bool)], pile: &str| {
        hand.iter()
            .position(|(_, p, _)| p == pile)
            .map(|i| i + 1)
            .unwrap()
    };
    // The scripted turns: anna (API), ben (mail), cy (API), anna (API), ben (mail) …
    t.play(&mut g, "Setting up\ndeal 3 from strategy").await;
    t.play(&mut g, "draw 1 from reserves\nplay #1").await;
    t.play(&mut g, "look 2 at strategy\ngive #1 to anna").await;
    t.play(&mut g, "discard #1\ndraw 2").await;
    let ben = t.hand(&g, "ben").await;
    let chit = first(&ben, "reserves");
    t.play(&mut g, &format!("show #1\nreturn #{chit}")).await;
    t.play(&mut g, "reshuffle strategy\nshuffle events").await;
    t.play(&mut g, "draw face up from events\nadd late").await;
    let ben = t.hand(&g, "ben").await;
    let card = ben
        .iter()
        .find(|(_, p, s)| p == "strategy" && !s)
        .unwrap()
        .0
        .clone();
    t.play(&mut g, &format!("play {card}\ndraw 1 chit from reserves"))
        .await;
    assert!(t.hand(&g, "ben").await.iter().all(|(c, _, _)| *c != card));

    // Then bots' random operations over the API and by mail, each order as its seat writes it.
    let mut rng = Rng::new(40);
    for _ in 0..24 {
        let (seat, _) = t.to_act(&g).await;
        let loaded = t
            .app
            .games
            .load(&GameId::parse(&g.id).unwrap())
            .await
            .unwrap();
        let s = Seat::parse(&seat).unwrap();
        // An order the rules take: tried over the API until one is (a refusal changes nothing);
        // by mail, only one that cannot be refused (on cards held as the move begins), or text.
        let mut tries = 0;
        loop {
            tries += 1;
            let mut command = loaded
                .game
                .ruleset
                .random_command(&loaded.game.state, &s, &mut |n| rng.below(n))
                .unwrap();
            command["result"] = Value::Null;
            command["seal"] = Value::Null;
            let command: Value = command
                .as_object()
                .unwrap()
                .iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect::<serde_json::Map<_, _>>()
                .into();
            let order = loaded.game.ruleset.describe(&command).unwrap();
            if g.turns % 3 == 1 {
                // By mail, an order the API would refuse is tried no further: only a sure one.
                let unsure = [
                    "draw",
                    "deal",
                    "look",
                    "reshuffle",
                    "shuffle",
                    "add",
                    "show",
                ];
                let order = if order
                    .lines()
                    .any(|l| unsure.iter().any(|w| l.starts_with(w)))
                {
                    if tries < 30 {
                        continue;
                    }
                    "Nothing to do this turn".to_owned()
                } else {
                    order
                };
                t.by_mail(&g, &seat, &order).await;
                g.turns += 1;
                t.check_hidden(&mut g).await;
                break;
            }
            if t.by_api(&g, &seat, &order).await {
                g.turns += 1;
                t.check_hidden(&mut g).await;
                break;
            }
        }
    }
    for _ in SEATS {
        t.play(&mut g, "result draw").await;
    }
    let s = t.summary(&g).await;
    assert_eq!(s["ended"], true, "{s}");

    // The ended game's export verifies, every shuffle and private draw re-made.
    let (_, text) = t.get(&format!("/api/games/{}/export", g.id), None).await;
    let report = verify(&text, &rules::find);
    assert!(report.ok() && report.refolded, "{}", report.render());
    // A played card swapped for one Ben did not hold (the late set was added after his last
    // draw), every hash after it made again: refused at its seq.
    let (header, mut events) = export::read(&text).unwrap();
    let at = events
        .iter()
        .position(|e| {
            e.payload["command"]["cards"].as_array().is_some_and(|ops| {
                ops.iter()
                    .any(|op| op["op"] == "play" && op["card"] == json!(card))
            })
        })
        .expect("the scripted play");
    for op in events[at].payload["command"]["cards"]
        .as_array_mut()
        .unwrap()
    {
        if op["card"] == json!(card) {
            op["card"] = json!("Late-03");
        }
    }
    for i in at..events.len() {
        let prev = events[i - 1].hash.clone();
        let e = &events[i];
        events[i] = Event::new(
            &e.game_id,
            e.seq,
            &e.kind,
            &e.seat,
            e.payload.clone(),
            e.recorded_at.clone(),
            e.dice.clone(),
            &prev,
        );
    }
    let report = verify(&export::write(&header, &events), &rules::find);
    let failure = report.failure.expect("a swapped card is refused");
    assert_eq!(failure.seq, events[at].seq, "{}", failure.problem);
    assert!(
        failure.problem.contains("your hand holds no Late-03"),
        "{}",
        failure.problem
    );
}
