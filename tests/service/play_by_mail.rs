//! Whole games played only by email: turn notices arrive through the real SMTP server that
//! `scripts/test` starts, each player answers the newest notice through its signed reply
//! address with a mail client's quoting, and the answers come back by SMTP too. An open-table
//! game and a For Honor and Glory battle (orders chosen by its bot, sent as text), on PostgreSQL
//! and SQLite.

use crate::common;

use std::time::Duration;

use common::notify::{delivered_to, Delivered};
use common::TestApp;
use despatch::engine::bot::Rng;
use despatch::engine::ruleset::{Seat, Viewer};
use despatch::games::Loaded;
use despatch::notify::dispatcher::Dispatcher;
use serde_json::{json, Value};

/// The dispatcher's reply domain, which the server answers mail at.
const REPLY_DOMAIN: &str = common::app::REPLY_DOMAIN;
const INBOUND: &str = "inbound-secret";

/// A server answering inbound mail and a dispatcher sending its notices by SMTP; `tag` keeps
/// this test's addresses apart in the shared maildir.
struct Table {
    app: TestApp,
    dispatcher: Dispatcher,
    tag: String,
}

async fn spawn(backend: common::Backend) -> Table {
    let app = common::spawn_app(backend)
        .link_secret(Some("mail key"))
        .inbound_mail(REPLY_DOMAIN, INBOUND)
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

impl Table {
    fn email(&self, seat: &str) -> String {
        format!("{seat}-{}@example.org", self.tag)
    }

    async fn create(&self, ruleset: &str, scenario: &str, seats: &[&str]) -> String {
        let seats: Vec<Value> = seats
            .iter()
            .map(|s| json!({ "seat": s, "name": s, "email": self.email(s) }))
            .collect();
        let resp: Value = self
            .app
            .http
            .post(format!("{}/api/games", self.app.base))
            .json(&json!({ "ruleset": ruleset, "scenario": scenario, "seats": seats }))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        resp["game_id"]
            .as_str()
            .unwrap_or_else(|| panic!("{resp}"))
            .to_owned()
    }

    async fn summary(&self, game: &str) -> Value {
        self.app
            .http
            .get(format!("{}/api/games/{game}", self.app.base))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    /// Sends what is due and waits until `seat` has a message whose id names `seq` of `game`.
    async fn mail_for(&self, seat: &str, game: &str, seq: u64, answer: bool) -> Delivered {
        let prefix = format!("despatch.{game}.{seq}.");
        for _ in 0..200 {
            self.dispatcher.drain().await.unwrap();
            let found = delivered_to(&self.email(seat)).into_iter().find(|m| {
                m.message_id.starts_with(&prefix) && m.message_id.contains(".answer-") == answer
            });
            if let Some(m) = found {
                return m;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!(
            "no {} for {seat} after event {seq} of {game}",
            if answer { "answer" } else { "turn notice" }
        );
    }

    /// Replies to `notice` from `seat`'s address, quoting it as a mail client does.
    async fn reply(&self, seat: &str, notice: &Delivered, orders: &str, n: usize) -> Value {
        let to = notice
            .reply_to
            .first()
            .expect("a turn notice carries a reply-to address");
        let quoted: String = notice.text.lines().map(|l| format!("> {l}\r\n")).collect();
        let raw = format!(
            "From: {seat} <{from}>\r\nTo: {to}\r\nSubject: Re: {subject}\r\nMessage-ID: <reply-{n}-{tag}@example.org>\r\nIn-Reply-To: <{id}>\r\nReferences: <{id}>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n\r\nOn Sun, 22 Nov 2026 at 10:00, Despatch <despatch@test.invalid> wrote:\r\n{quoted}",
            from = self.email(seat),
            subject = notice.subject,
            tag = self.tag,
            id = notice.message_id,
            body = orders.replace('\n', "\r\n"),
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
        resp.json().await.unwrap()
    }

    /// Plays a game to its end by mail: `orders` gives each turn's orders for a seat.
    async fn play_by_mail(
        &self,
        game: &str,
        max_turns: usize,
        orders: &mut dyn FnMut(&Loaded, &str) -> String,
    ) -> usize {
        let mut turns = 0;
        loop {
            let summary = self.summary(game).await;
            if summary["ended"] == true {
                return turns;
            }
            assert!(
                turns < max_turns,
                "the game did not end in {max_turns} turns"
            );
            let seat = summary["waiting_for"][0]["seat"]
                .as_str()
                .unwrap()
                .to_owned();
            let seen = summary["next_seq"].as_u64().unwrap() - 1;
            let notice = self.mail_for(&seat, game, seen, false).await;
            assert!(
                notice.text.contains("your turn") || notice.text.contains("Your turn"),
                "{}",
                notice.text
            );
            let loaded = self
                .app
                .games
                .load(&despatch::games::GameId::parse(game).unwrap())
                .await
                .unwrap();
            // A wargame's notice shows the board as the seat sees it: a player needs nothing
            // but the mail.
            let viewer = Viewer::Seat(Seat::parse(&seat).unwrap());
            if let Some(board) = loaded.game.ruleset.board_text(&loaded.game.state, &viewer) {
                assert!(
                    flat(&notice.text).contains(&flat(&board)),
                    "the turn notice does not show the board:\n{}\n--- the board:\n{board}",
                    notice.text
                );
            }
            let text = orders(&loaded, &seat);
            let answer = self.reply(&seat, &notice, &text, turns).await;
            assert_eq!(answer["status"], "answered", "{answer}");
            let reply = &answer["reply"]["text"];
            assert!(
                reply
                    .as_str()
                    .unwrap()
                    .contains("Your orders were carried out"),
                "{text}\n→ {reply}"
            );
            let answered = self
                .mail_for(
                    &seat,
                    game,
                    self.summary(game).await["next_seq"].as_u64().unwrap() - 1,
                    true,
                )
                .await;
            assert!(
                answered.text.contains("Your orders were carried out"),
                "{}",
                answered.text
            );
            turns += 1;
        }
    }
}

/// The text with every run of white space made one space.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

on_both_backends!(
    an_open_table_game_is_played_to_its_end_by_email,
    a_for_honor_and_glory_battle_is_played_to_its_end_by_email,
    table_talk_reaches_its_readers_only_by_mail_and_page_and_the_complete_export_after_the_end
);

async fn an_open_table_game_is_played_to_its_end_by_email(t: Table) {
    let game = t.create("open-table", "default", &["anna", "ben"]).await;
    let mut n = 0;
    let turns = t
        .play_by_mail(&game, 10, &mut |_, _| {
            n += 1;
            if n <= 4 {
                format!("Advance on the ridge, step {n}\nroll 2d6 to hit")
            } else {
                "result draw".into()
            }
        })
        .await;
    assert_eq!(turns, 6);
    let over = t
        .mail_for(
            "anna",
            &game,
            t.summary(&game).await["next_seq"].as_u64().unwrap() - 1,
            false,
        )
        .await;
    assert!(
        over.subject.to_lowercase().contains("over")
            || over.text.to_lowercase().contains("game over"),
        "{}: {}",
        over.subject,
        over.text
    );
}

async fn a_for_honor_and_glory_battle_is_played_to_its_end_by_email(t: Table) {
    let game = t
        .create(
            "for-honor-and-glory",
            "queenston-heights",
            &["american", "british"],
        )
        .await;
    let mut rng = Rng::new(1812);
    let turns = t
        .play_by_mail(&game, 400, &mut |loaded, seat| {
            let seat = Seat::parse(seat).unwrap();
            let command = loaded
                .game
                .ruleset
                .random_command(&loaded.game.state, &seat, &mut |n| rng.below(n))
                .expect("a legal order");
            loaded.game.ruleset.describe(&command).unwrap()
        })
        .await;
    assert!(turns >= 2, "a battle takes turns: {turns}");
}

/// A request with a seat's cookie (`cookie`) or bearer token, answered with its status and body.
async fn call(
    t: &Table,
    method: reqwest::Method,
    path: &str,
    cookie: Option<&str>,
    bearer: Option<&str>,
    form: Option<&[(&str, &str)]>,
    body: Option<Value>,
) -> (u16, String) {
    let mut cookie = cookie.map(|c| format!("despatch_seat={c}"));
    // A page's form is sent as its page sends it: with the page's token (`common::forms`).
    let form = match form {
        Some(f) if method == reqwest::Method::POST && !path.starts_with("/api/") => {
            let fields: Vec<(String, String)> = f
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            let (fields, sent) = t
                .app
                .as_the_page_sends(path, &fields, cookie.as_deref())
                .await;
            cookie = sent;
            Some(fields)
        }
        Some(f) => Some(
            f.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        ),
        None => None,
    };
    let mut req = t.app.http.request(method, format!("{}{path}", t.app.base));
    if let Some(c) = cookie {
        req = req.header(reqwest::header::COOKIE, c);
    }
    if let Some(b) = bearer {
        req = req.bearer_auth(b);
    }
    if let Some(f) = form {
        req = req.form(&f);
    }
    if let Some(b) = body {
        req = req.json(&b);
    }
    let resp = req.send().await.unwrap();
    (resp.status().as_u16(), resp.text().await.unwrap())
}

async fn table_talk_reaches_its_readers_only_by_mail_and_page_and_the_complete_export_after_the_end(
    t: Table,
) {
    let seats: Vec<Value> = ["anna", "bert", "carl"]
        .iter()
        .map(|s| json!({ "seat": s, "name": s.to_uppercase(), "email": t.email(s) }))
        .collect();
    let (status, created) = call(
        &t,
        reqwest::Method::POST,
        "/api/games",
        None,
        None,
        None,
        Some(json!({ "ruleset": "open-table", "seats": seats, "name": "Talk at the ford" })),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let created: Value = serde_json::from_str(&created).unwrap();
    let game = created["game_id"].as_str().unwrap().to_owned();
    let token = |i: usize| created["seats"][i]["token"].as_str().unwrap().to_owned();
    let (anna, bert, carl) = (token(0), token(1), token(2));
    let secret = "The ford is shallow at the mill";

    // By mail: Anna answers her turn notice with talk only — to the table, and to Bert alone.
    let before = t.summary(&game).await["next_seq"].clone();
    let notice = t
        .mail_for("anna", &game, before.as_u64().unwrap() - 1, false)
        .await;
    let answer = t
        .reply(
            "anna",
            &notice,
            &format!("say Good luck, all.\ntell bert {secret}."),
            900,
        )
        .await;
    assert_eq!(answer["status"], "answered", "{answer}");
    let text = answer["reply"]["text"].as_str().unwrap();
    assert!(text.contains("Said to the table."), "{text}");
    assert!(text.contains("Told BERT"), "{text}");
    assert_eq!(
        t.summary(&game).await["next_seq"],
        before,
        "talk is no event: the log did not move"
    );
    // Delivered through the outbox: Bert reads both, Carl only what was said to the table.
    let talk_mails = |seat: &str| {
        delivered_to(&t.email(seat))
            .into_iter()
            .filter(|m| m.subject.starts_with("[Despatch] ANNA to"))
            .collect::<Vec<_>>()
    };
    for _ in 0..200 {
        t.dispatcher.drain().await.unwrap();
        if talk_mails("bert").len() >= 2 && !talk_mails("carl").is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let berts = talk_mails("bert");
    assert_eq!(
        berts.len(),
        2,
        "{:?}",
        berts.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    let told = berts
        .iter()
        .find(|m| m.subject.contains("to you"))
        .expect("a tell");
    assert!(told.text.contains(secret), "{}", told.text);
    assert!(told.subject.contains("Talk at the ford"));
    let carls = talk_mails("carl");
    assert_eq!(carls.len(), 1);
    assert!(carls[0].text.contains("Good luck, all."));
    assert!(
        delivered_to(&t.email("carl"))
            .iter()
            .all(|m| !m.text.contains(secret)),
        "Carl never reads what Anna told Bert"
    );
    assert!(
        delivered_to(&t.email("anna"))
            .iter()
            .all(|m| !m.subject.starts_with("[Despatch] ANNA to")),
        "Anna is not sent her own talk"
    );

    // On the page: each seat reads what it may; a spectator reads no talk.
    let page = |cookie: Option<String>| {
        let t = &t;
        let game = game.clone();
        async move {
            call(
                t,
                reqwest::Method::GET,
                &format!("/games/{game}"),
                cookie.as_deref(),
                None,
                None,
                None,
            )
            .await
        }
    };
    let (_, berts_page) = page(Some(bert.clone())).await;
    assert!(berts_page.contains("Good luck, all.") && berts_page.contains(secret));
    let (_, carls_page) = page(Some(carl.clone())).await;
    assert!(carls_page.contains("Good luck, all.") && !carls_page.contains(secret));
    let (_, watching) = page(None).await;
    assert!(!watching.contains("Good luck, all.") && !watching.contains(secret));
    // Carl tells Anna from his page; refusals change nothing.
    let talk_path = format!("/games/{game}/talk");
    let (status, body) = call(
        &t,
        reqwest::Method::POST,
        &talk_path,
        Some(&carl),
        None,
        Some(&[("to", "anna"), ("text", "Agreed, by the mill.")]),
        None,
    )
    .await;
    // Sent or refused, the form's answer is carried to the page by a flash cookie that this
    // client does not keep (tests/service/web.rs reads it): here, what was sent and to whom.
    assert_eq!(status, 200, "followed to the seat page: {body}");
    for (to, text) in [("carl", "me"), ("nobody", "hello"), ("", "  ")] {
        let (status, body) = call(
            &t,
            reqwest::Method::POST,
            &talk_path,
            Some(&carl),
            None,
            Some(&[("to", to), ("text", text)]),
            None,
        )
        .await;
        assert_eq!(status, 200, "{to}: followed to the seat page: {body}");
    }
    let (status, _) = call(
        &t,
        reqwest::Method::POST,
        &talk_path,
        None,
        None,
        Some(&[("to", ""), ("text", "who am I")]),
        None,
    )
    .await;
    assert_eq!(status, 403, "no talk without the seat");
    let (_, annas_page) = page(Some(anna.clone())).await;
    assert!(annas_page.contains("Agreed, by the mill.") && annas_page.contains(secret));
    let (_, berts_page) = page(Some(bert.clone())).await;
    assert!(!berts_page.contains("Agreed, by the mill."));
    assert!(!berts_page.contains("who am I"));

    // Before the end no export carries talk.
    let (_, redacted) = call(
        &t,
        reqwest::Method::GET,
        &format!("/api/games/{game}/export"),
        None,
        Some(&carl),
        None,
        None,
    )
    .await;
    assert!(!redacted.contains(secret) && !redacted.contains("\"talk\""));

    // The table agrees a draw; the complete export then carries every message, marked as talk,
    // and reads and verifies as before.
    for _ in 0..6 {
        let summary = t.summary(&game).await;
        if summary["ended"] == true {
            break;
        }
        let seat = summary["waiting_for"][0]["seat"].as_str().unwrap();
        let who = match seat {
            "anna" => &anna,
            "bert" => &bert,
            _ => &carl,
        };
        let (status, body) = call(
            &t,
            reqwest::Method::POST,
            &format!("/api/games/{game}/moves"),
            None,
            Some(who),
            None,
            Some(json!({ "expected_seq": summary["next_seq"], "command": "result draw" })),
        )
        .await;
        assert_eq!(status, 201, "{body}");
    }
    assert_eq!(t.summary(&game).await["ended"], json!(true));
    let (_, complete) = call(
        &t,
        reqwest::Method::GET,
        &format!("/api/games/{game}/export"),
        None,
        None,
        None,
        None,
    )
    .await;
    let header: Value = serde_json::from_str(complete.lines().next().unwrap()).unwrap();
    assert_eq!(header["complete"], json!(true));
    let talk = header["talk"].as_array().expect("the talk in the header");
    assert_eq!(talk.len(), 3, "{header}");
    assert!(talk.iter().all(|m| m["kind"] == "talk"));
    assert_eq!(talk[1]["to"], json!("bert"));
    assert_eq!(talk[1]["text"], json!(format!("{secret}.")));
    let (read_header, events) = despatch::engine::export::read(&complete).unwrap();
    assert_eq!(read_header.events as usize, events.len());
    assert!(
        events
            .iter()
            .all(|e| !e.payload.to_string().contains(secret)),
        "talk is in no event"
    );
    let report = despatch::engine::verify::verify(&complete, &despatch::rules::find);
    assert!(report.ok(), "{}", report.render());
}
