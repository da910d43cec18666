//! Playing by email: inbound messages over `POST /api/inbound/email` (and Mailgun's route,
//! `POST /api/inbound/mailgun/mime`) against a real server on port 0, on PostgreSQL and on
//! SQLite. The answers are read back from the outbox.

use crate::common;

use std::num::NonZeroU32;
use std::time::Duration;

use common::TestApp;
use despatch::games::links::address::reply_address;
use despatch::games::links::{key_from_secret, notice_message_id};
use despatch::games::rate::MoveRate;
use serde_json::{json, Value};

const SIGNING_SECRET: &str = "test signing key";
const DOMAIN: &str = "despatch.test";
const SECRET: &str = "inbound-secret";
const MAILGUN_KEY: &str = "key-mailgun-webhook-signing";

async fn spawn(backend: common::Backend) -> TestApp {
    answering_mail(common::spawn_app(backend)).spawn().await
}

/// A server answering inbound mail, its links and reply addresses signed with a known key.
fn answering_mail(app: common::app::AppBuilder) -> common::app::AppBuilder {
    app.link_secret(Some(SIGNING_SECRET))
        .inbound_mail(DOMAIN, SECRET)
        .mailgun_signing_key(MAILGUN_KEY)
}

/// Mailgun's signature of a route POST: hex HMAC-SHA256 of timestamp and token.
fn mailgun_signature(key: &str, timestamp: &str, token: &str) -> String {
    use hmac::{Hmac, KeyInit, Mac};
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(key.as_bytes()).unwrap();
    mac.update(timestamp.as_bytes());
    mac.update(token.as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

/// The fields Mailgun posts to a route forwarding to a URL ending in `mime`, signed with `key`
/// at `timestamp` (Unix seconds) with a new random token, as Mailgun signs each post.
fn mailgun_fields(mail: &Mail<'_>, key: &str, timestamp: i64) -> Vec<(&'static str, String)> {
    let timestamp = timestamp.to_string();
    let mut random = [0u8; 25];
    getrandom::fill(&mut random).unwrap();
    let token = hex::encode(random);
    vec![
        ("recipient", mail.to.clone()),
        ("sender", mail.from.to_owned()),
        ("subject", "Re: Your turn".to_owned()),
        ("body-mime", mail.raw()),
        ("signature", mailgun_signature(key, &timestamp, &token)),
        ("timestamp", timestamp),
        ("token", token),
    ]
}

struct Mail<'a> {
    from: &'a str,
    to: String,
    id: String,
    in_reply_to: Option<String>,
    body: &'a str,
}

impl Mail<'_> {
    fn raw(&self) -> String {
        let mut m = format!(
            "From: Player <{}>\r\nTo: {}\r\nSubject: Re: Your turn\r\nMessage-ID: {}\r\nDate: Sun, 22 Nov 2026 10:00:00 +0000\r\n",
            self.from, self.to, self.id
        );
        if let Some(r) = &self.in_reply_to {
            m.push_str(&format!("In-Reply-To: {r}\r\nReferences: {r}\r\n"));
        }
        m.push_str(&format!(
            "Content-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
            self.body.replace('\n', "\r\n")
        ));
        m
    }
}

/// What this file's tests ask of the app (a trait, so that each test module keeps its own
/// helpers in the one service test binary).
trait MailInCalls {
    async fn game(&self) -> String;
    async fn send(&self, mail: &Mail<'_>) -> (u16, Value);
    async fn send_at(&self, base: &str, mail: &Mail<'_>) -> (u16, Value);
    async fn events(&self, game: &str) -> usize;
    async fn replies(&self, game: &str) -> Vec<Value>;
}

impl MailInCalls for TestApp {
    async fn game(&self) -> String {
        let resp: Value = self
            .http
            .post(format!("{}/api/games", self.base))
            .json(&json!({ "ruleset": "open-table", "seats": [
                { "name": "Anna", "email": "anna@example.org" }, { "name": "Ben", "email": "ben@example.org" }] }))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        resp["game_id"].as_str().unwrap().to_owned()
    }

    async fn send(&self, mail: &Mail<'_>) -> (u16, Value) {
        self.send_at(&self.base, mail).await
    }

    async fn send_at(&self, base: &str, mail: &Mail<'_>) -> (u16, Value) {
        let resp = self
            .http
            .post(format!("{base}/api/inbound/email"))
            .bearer_auth(SECRET)
            .header("content-type", "message/rfc822")
            .body(mail.raw())
            .send()
            .await
            .unwrap();
        (
            resp.status().as_u16(),
            resp.json().await.unwrap_or(Value::Null),
        )
    }

    async fn events(&self, game: &str) -> usize {
        self.store.events(game, 0, None).await.unwrap().len()
    }

    async fn replies(&self, game: &str) -> Vec<Value> {
        self.store
            .outbox(game)
            .await
            .unwrap()
            .into_iter()
            .filter(|r| r.record.channel == "email")
            .map(|r| r.record.payload)
            .collect()
    }
}

fn anna(game: &str) -> String {
    reply_address(&key_from_secret(SIGNING_SECRET), DOMAIN, game, 0)
}

fn ben(game: &str) -> String {
    reply_address(&key_from_secret(SIGNING_SECRET), DOMAIN, game, 1)
}

on_both_backends!(
    a_whole_game_is_played_by_replies,
    a_reply_from_the_wrong_sender_is_refused_and_changes_nothing,
    a_forged_reply_address_is_refused_and_changes_nothing,
    the_same_message_delivered_twice_applies_once,
    a_reply_delivered_again_after_it_moved_the_game_is_the_duplicate_it_is,
    a_reply_to_an_old_notice_is_answered_with_the_current_state,
    a_reply_naming_the_largest_event_number_is_not_applied,
    failing_orders_name_the_line_and_apply_nothing,
    mail_commands_answer_status_log_and_help,
    vacation_by_mail_uses_the_game_clock,
    the_inbound_endpoint_needs_its_secret,
    orders_sent_too_fast_are_answered_as_limited_and_change_nothing,
    orders_alone_are_answered_in_the_moves_own_append,
    a_sign_off_below_the_orders_is_not_read_and_the_answer_says_where_they_ended,
    mailguns_route_plays_signed_replies_posted_as_a_form_or_multipart,
    mailguns_route_refuses_unsigned_wrongly_signed_or_old_posts_and_changes_nothing,
    a_replayed_mailgun_signature_is_refused_and_delivers_nothing,
    mailguns_route_refuses_before_reading_a_body_it_will_not_take,
);

async fn a_whole_game_is_played_by_replies(app: TestApp) {
    let game = app.game().await;
    let (status, body) = app
        .send(&Mail {
            from: "anna@example.org",
            to: anna(&game),
            id: "<m1@example.org>".into(),
            in_reply_to: Some(notice_message_id(&game, 0, "n", DOMAIN)),
            body: "The Guards advance\nroll 2d6 to hit\n\n-- \nAnna",
        })
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], "answered");
    let text = body["reply"]["text"].as_str().unwrap();
    assert!(text.contains("Your orders were carried out"), "{text}");
    assert!(text.contains("Anna rolls 2d6 (to hit)"), "{text}");
    // The proof link opens the proof page a player reads, not the API's JSON.
    let proof = text
        .lines()
        .find_map(|l| l.strip_prefix("Proof: "))
        .unwrap_or_else(|| panic!("no proof link in {text}"));
    assert!(
        proof.ends_with(&format!("/games/{game}/events/1")),
        "{proof}"
    );
    let page = app.http.get(proof).send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let page = page.text().await.unwrap();
    assert!(page.contains("<h1>Event 1 of game"), "{page}");
    assert!(text.contains("Now waiting for:\n  ben"), "{text}");
    assert_eq!(body["reply"]["to"], "anna@example.org");
    assert_eq!(body["reply"]["reply_to"], anna(&game));
    assert_eq!(app.events(&game).await, 2);

    app.send(&Mail {
        from: "ben@example.org",
        to: ben(&game),
        id: "<m2@example.org>".into(),
        in_reply_to: Some(notice_message_id(&game, 1, "n", DOMAIN)),
        body: "Hold\nresult draw\n\nOn Sun, 22 Nov 2026, Despatch wrote:\n> your turn",
    })
    .await;
    let (_, body) = app
        .send(&Mail {
            from: "ANNA@example.org",
            to: anna(&game),
            id: "<m3@example.org>".into(),
            in_reply_to: None,
            body: "result draw",
        })
        .await;
    let text = body["reply"]["text"].as_str().unwrap();
    assert!(text.contains("The game is over"), "{text}");
    let replies = app.replies(&game).await;
    assert_eq!(
        replies.len(),
        3,
        "every message a person sent was answered through the outbox"
    );
    let summary: Value = app
        .http
        .get(format!("{}/api/games/{game}", app.base))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(summary["ended"], true);
}

/// Issue 35 (docs/mail.md, "Who is answered"): a stranger's mail to a seat's valid reply
/// address plays nothing and is not answered — a From can be forged, and the answer named the
/// game and the seat to whoever it named (backscatter). The seat's own address still is.
async fn a_reply_from_the_wrong_sender_is_refused_and_changes_nothing(app: TestApp) {
    let game = app.game().await;
    for (id, body) in [
        ("<x@example.org>", "roll 2d6"),
        ("<y@example.org>", "status\nhelp"),
    ] {
        let (status, answer) = app
            .send(&Mail {
                from: "mallory@example.org",
                to: anna(&game),
                id: id.into(),
                in_reply_to: None,
                body,
            })
            .await;
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["status"], "ignored", "{answer}");
        assert!(answer.get("reply").is_none(), "{answer}");
        let reason = answer["reason"].as_str().unwrap();
        assert!(
            reason.contains("not the address of seat anna") && reason.contains("no answer"),
            "{reason}"
        );
    }
    assert_eq!(app.events(&game).await, 1, "no move was made");
    assert!(
        app.replies(&game).await.is_empty(),
        "no answer waits to be sent to the stranger"
    );
    assert!(
        app.store.outbox("").await.unwrap().is_empty(),
        "nor one outside the game"
    );
    // The seat's own address (in any case) is answered as ever.
    let (_, own) = app
        .send(&Mail {
            from: "Anna@Example.org",
            to: anna(&game),
            id: "<z@example.org>".into(),
            in_reply_to: None,
            body: "status",
        })
        .await;
    assert_eq!(own["status"], "answered", "{own}");
    assert_eq!(own["reply"]["to"], "anna@example.org");
    assert_eq!(app.replies(&game).await.len(), 1);
}

async fn a_forged_reply_address_is_refused_and_changes_nothing(app: TestApp) {
    let game = app.game().await;
    let forged = anna(&game).replacen(".0.", ".1.", 1);
    let (_, body) = app
        .send(&Mail {
            from: "ben@example.org",
            to: forged,
            id: "<f@example.org>".into(),
            in_reply_to: None,
            body: "roll 2d6",
        })
        .await;
    let text = body["reply"]["text"].as_str().unwrap();
    assert!(text.contains("not signed by this server"), "{text}");
    // Its sender is nobody the game knows: the answer names neither the game nor the seat.
    assert!(
        !text.contains(&game.replace('-', "")) && !text.contains(&game),
        "{text}"
    );
    assert!(
        body["reply"]["game_id"].is_null() && body["game_id"].is_null(),
        "{body}"
    );
    let (_, body) = app
        .send(&Mail {
            from: "ben@example.org",
            to: "someone@despatch.test".into(),
            id: "<g@example.org>".into(),
            in_reply_to: None,
            body: "roll 2d6",
        })
        .await;
    assert!(body["reply"]["text"]
        .as_str()
        .unwrap()
        .contains("not sent to a game's reply address"));
    assert_eq!(app.events(&game).await, 1);
}

async fn the_same_message_delivered_twice_applies_once(app: TestApp) {
    let game = app.game().await;
    let mail = Mail {
        from: "anna@example.org",
        to: anna(&game),
        id: "<twice@example.org>".into(),
        in_reply_to: None,
        body: "roll 3d6",
    };
    let (_, first) = app.send(&mail).await;
    let (_, second) = app.send(&mail).await;
    assert_eq!(first["status"], "answered");
    assert_eq!(second["status"], "ignored", "{second}");
    assert_eq!(app.events(&game).await, 2);
    assert_eq!(app.replies(&game).await.len(), 1);
}

/// An MTA that delivers a reply again (a retry after a lost acknowledgement) delivers orders
/// that moved the game past the notice they answer: the redelivery is recognised as the
/// duplicate it is before the notice's age is checked, never answered as orders for "an older
/// turn notice" that "were not applied".
async fn a_reply_delivered_again_after_it_moved_the_game_is_the_duplicate_it_is(app: TestApp) {
    let game = app.game().await;
    let mail = Mail {
        from: "anna@example.org",
        to: anna(&game),
        id: "<again@example.org>".into(),
        in_reply_to: Some(notice_message_id(&game, 0, "n", DOMAIN)),
        body: "roll 2d6",
    };
    let (_, first) = app.send(&mail).await;
    assert_eq!(first["status"], "answered", "{first}");
    let text = first["reply"]["text"].as_str().unwrap();
    assert!(text.contains("Your orders were carried out"), "{text}");
    let (status, again) = app.send(&mail).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["status"], "ignored", "{again}");
    assert!(
        again["reason"]
            .as_str()
            .unwrap()
            .contains("already handled"),
        "{again}"
    );
    // And once the game has moved on further, by the other seat.
    app.send(&Mail {
        from: "ben@example.org",
        to: ben(&game),
        id: "<ben-after@example.org>".into(),
        in_reply_to: Some(notice_message_id(&game, 1, "n", DOMAIN)),
        body: "second move",
    })
    .await;
    let (_, late) = app.send(&mail).await;
    assert_eq!(late["status"], "ignored", "{late}");
    assert_eq!(app.events(&game).await, 3, "each move was recorded once");
    let replies = app.replies(&game).await;
    assert_eq!(replies.len(), 2, "one answer each to Anna and Ben");
    assert!(
        replies
            .iter()
            .all(|r| !r["text"].as_str().unwrap().contains("older turn notice")),
        "{replies:?}"
    );
}

async fn a_reply_to_an_old_notice_is_answered_with_the_current_state(app: TestApp) {
    let game = app.game().await;
    app.send(&Mail {
        from: "anna@example.org",
        to: anna(&game),
        id: "<a1@example.org>".into(),
        in_reply_to: Some(notice_message_id(&game, 0, "n", DOMAIN)),
        body: "first move",
    })
    .await;
    app.send(&Mail {
        from: "ben@example.org",
        to: ben(&game),
        id: "<b1@example.org>".into(),
        in_reply_to: Some(notice_message_id(&game, 1, "n", DOMAIN)),
        body: "second move",
    })
    .await;
    // Anna answers the notice of event 0 again, although the game has moved on twice.
    let (_, body) = app
        .send(&Mail {
            from: "anna@example.org",
            to: anna(&game),
            id: "<a2@example.org>".into(),
            in_reply_to: Some(notice_message_id(&game, 0, "n", DOMAIN)),
            body: "stale move",
        })
        .await;
    let text = body["reply"]["text"].as_str().unwrap();
    assert!(
        text.contains("older turn notice") && text.contains("were not applied"),
        "{text}"
    );
    assert!(text.contains("It is your turn"), "{text}");
    assert_eq!(app.events(&game).await, 3);
}

/// The sender writes the In-Reply-To: a notice id naming event u64::MAX must not overflow the
/// staleness check.
async fn a_reply_naming_the_largest_event_number_is_not_applied(app: TestApp) {
    let game = app.game().await;
    let (status, body) = app
        .send(&Mail {
            from: "anna@example.org",
            to: anna(&game),
            id: "<max@example.org>".into(),
            in_reply_to: Some(notice_message_id(&game, u64::MAX, "n", DOMAIN)),
            body: "first move",
        })
        .await;
    assert_eq!(status, 200, "{body}");
    let text = body["reply"]["text"].as_str().unwrap();
    assert!(text.contains("were not applied"), "{text}");
    assert_eq!(app.events(&game).await, 1);
}

async fn failing_orders_name_the_line_and_apply_nothing(app: TestApp) {
    let game = app.game().await;
    let (_, body) = app
        .send(&Mail {
            from: "anna@example.org",
            to: anna(&game),
            id: "<bad@example.org>".into(),
            in_reply_to: None,
            body: "Attack\nroll 3x6",
        })
        .await;
    let text = body["reply"]["text"].as_str().unwrap();
    assert!(
        text.contains("refused, and nothing of them was applied"),
        "{text}"
    );
    assert!(
        text.contains("line 2: '3x6' is not a dice expression"),
        "{text}"
    );
    let (_, body) = app
        .send(&Mail {
            from: "ben@example.org",
            to: ben(&game),
            id: "<early@example.org>".into(),
            in_reply_to: None,
            body: "me first",
        })
        .await;
    assert!(
        body["reply"]["text"]
            .as_str()
            .unwrap()
            .contains("not ben's turn"),
        "{body}"
    );
    assert_eq!(app.events(&game).await, 1);
}

async fn mail_commands_answer_status_log_and_help(app: TestApp) {
    let game = app.game().await;
    app.send(&Mail {
        from: "anna@example.org",
        to: anna(&game),
        id: "<s1@example.org>".into(),
        in_reply_to: None,
        body: "roll 1d6",
    })
    .await;
    let (_, body) = app
        .send(&Mail {
            from: "ben@example.org",
            to: ben(&game),
            id: "<s2@example.org>".into(),
            in_reply_to: None,
            body: "status\nlog\nhelp\nundo-request",
        })
        .await;
    let text = body["reply"]["text"].as_str().unwrap();
    assert!(text.contains("It is your turn"), "{text}");
    assert!(
        text.contains("Anna rolls 1d6"),
        "the log shows the roll: {text}"
    );
    assert!(text.contains("Mail commands"), "{text}");
    assert!(text.contains("allow no undo"), "{text}");
    assert_eq!(app.events(&game).await, 2, "mail commands change nothing");
}

async fn the_inbound_endpoint_needs_its_secret(app: TestApp) {
    let game = app.game().await;
    let mail = Mail {
        from: "anna@example.org",
        to: anna(&game),
        id: "<s@example.org>".into(),
        in_reply_to: None,
        body: "roll 1d6",
    };
    let url = format!("{}/api/inbound/email", app.base);
    let none = app.http.post(&url).body(mail.raw()).send().await.unwrap();
    assert_eq!(none.status().as_u16(), 401);
    let wrong = app
        .http
        .post(&url)
        .bearer_auth("guess")
        .body(mail.raw())
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status().as_u16(), 403);
    assert_eq!(app.events(&game).await, 1);
}

async fn vacation_by_mail_uses_the_game_clock(app: TestApp) {
    // Without a clock there is nothing to take a vacation from.
    let game = app.game().await;
    let (_, body) = app
        .send(&Mail {
            from: "ben@example.org",
            to: ben(&game),
            id: "<v1@example.org>".into(),
            in_reply_to: None,
            body: "vacation 3d",
        })
        .await;
    assert!(
        body["reply"]["text"]
            .as_str()
            .unwrap()
            .contains("has no clock"),
        "{body}"
    );
    assert_eq!(app.events(&game).await, 1);
    // With one, the vacation is a Clock event in the log.
    let resp: Value = app
        .http
        .post(format!("{}/api/games", app.base))
        .json(&json!({ "ruleset": "open-table", "clock": "standard", "seats": [
            { "name": "Anna", "email": "anna@example.org" }, { "name": "Ben", "email": "ben@example.org" }] }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let clocked = resp["game_id"].as_str().unwrap().to_owned();
    let before = app.events(&clocked).await;
    let (_, body) = app
        .send(&Mail {
            from: "ben@example.org",
            to: ben(&clocked),
            id: "<v2@example.org>".into(),
            in_reply_to: None,
            body: "vacation 3d",
        })
        .await;
    assert!(
        body["reply"]["text"]
            .as_str()
            .unwrap()
            .contains("vacation 3d: taken"),
        "{body}"
    );
    let events = app.store.events(&clocked, 0, None).await.unwrap();
    assert_eq!(events.len(), before + 1);
    assert_eq!(events.last().unwrap().kind, "Clock");
    let (_, body) = app
        .send(&Mail {
            from: "ben@example.org",
            to: ben(&clocked),
            id: "<v3@example.org>".into(),
            in_reply_to: None,
            body: "vacation soon",
        })
        .await;
    assert!(
        body["reply"]["text"]
            .as_str()
            .unwrap()
            .contains("write the number of days"),
        "{body}"
    );
}

async fn orders_sent_too_fast_are_answered_as_limited_and_change_nothing(app: TestApp) {
    // A server that allows one move a seat per hour.
    let limited = answering_mail(app.another())
        .move_rate(Some(MoveRate {
            burst: NonZeroU32::new(1).unwrap(),
            per: Duration::from_secs(3600),
        }))
        .serve()
        .await
        .base;
    let game = app.game().await;
    let mail = |from, to, id, body| Mail {
        from,
        to,
        id: format!("<{id}@example.org>"),
        in_reply_to: None,
        body,
    };
    let (_, body) = app
        .send_at(
            &limited,
            &mail("anna@example.org", anna(&game), "a1", "first move"),
        )
        .await;
    assert_eq!(body["status"], "answered", "{body}");
    assert_eq!(app.events(&game).await, 2);
    let (_, body) = app
        .send_at(
            &limited,
            &mail("anna@example.org", anna(&game), "a2", "again"),
        )
        .await;
    let text = body["reply"]["text"].as_str().unwrap();
    assert!(
        text.contains("were not applied")
            && text.contains("too fast")
            && text.contains("try again in"),
        "{text}"
    );
    assert_eq!(app.events(&game).await, 2);
    // Ben has his own allowance.
    let (_, body) = app
        .send_at(
            &limited,
            &mail("ben@example.org", ben(&game), "b1", "second move"),
        )
        .await;
    assert!(
        !body["reply"]["text"].as_str().unwrap().contains("too fast"),
        "{body}"
    );
    assert_eq!(app.events(&game).await, 3);
}

/// Issue 22: a move made by mail and its answer are written together. `receive` alone, without
/// `queue`, leaves orders' answer in the outbox already, at the move's own seq; orders with mail
/// commands beside them are answered once the commands have run, by `queue`.
async fn orders_alone_are_answered_in_the_moves_own_append(app: TestApp) {
    let game = app.game().await;
    let orders = Mail {
        from: "anna@example.org",
        to: anna(&game),
        id: "<with-the-move@example.org>".into(),
        in_reply_to: None,
        body: "roll 2d6",
    };
    let receipt = despatch::mail_in::receive(&app.games, DOMAIN, orders.raw().as_bytes())
        .await
        .unwrap();
    assert!(
        matches!(
            receipt,
            despatch::mail_in::Receipt::Answered { queued: true, .. }
        ),
        "{receipt:?}"
    );
    let rows: Vec<_> = app
        .store
        .outbox(&game)
        .await
        .unwrap()
        .into_iter()
        .filter(|r| r.record.channel == "email")
        .collect();
    assert_eq!(
        rows.len(),
        1,
        "the answer is in the outbox before queue runs"
    );
    let move_seq = app.events(&game).await as u64 - 1;
    assert_eq!(rows[0].record.seq, move_seq, "written with the move");
    assert!(
        rows[0].record.payload["text"]
            .as_str()
            .unwrap()
            .contains("2d6"),
        "{}",
        rows[0].record.payload
    );
    // queue leaves it alone: still one answer.
    despatch::mail_in::queue(&app.games, DOMAIN, &receipt)
        .await
        .unwrap();
    assert_eq!(app.replies(&game).await.len(), 1);

    // Ben's orders with a mail command beside them: the orders are answered in their move's
    // append, the command in a second answer, queued after it.
    let with_command = Mail {
        from: "ben@example.org",
        to: ben(&game),
        id: "<with-a-command@example.org>".into(),
        in_reply_to: None,
        body: "roll 1d6\nstatus",
    };
    let receipt = despatch::mail_in::receive(&app.games, DOMAIN, with_command.raw().as_bytes())
        .await
        .unwrap();
    assert!(
        matches!(
            receipt,
            despatch::mail_in::Receipt::Answered { queued: false, .. }
        ),
        "{receipt:?}"
    );
    assert_eq!(app.events(&game).await, 3, "Ben's move is in");
    let replies = app.replies(&game).await;
    assert_eq!(replies.len(), 2, "the orders' answer came with the move");
    let orders_answer = &replies[1];
    assert_eq!(orders_answer["in_reply_to"], "with-a-command@example.org");
    assert!(
        orders_answer["text"].as_str().unwrap().contains("1d6"),
        "{orders_answer}"
    );
    despatch::mail_in::queue(&app.games, DOMAIN, &receipt)
        .await
        .unwrap();
    let replies = app.replies(&game).await;
    assert_eq!(replies.len(), 3, "and the command's answer after it");
    let commands_answer = &replies[2];
    assert_eq!(commands_answer["in_reply_to"], "with-a-command@example.org");
    let text = commands_answer["text"].as_str().unwrap();
    assert!(
        text.contains("answered in a message of their own"),
        "{text}"
    );
    assert_ne!(
        commands_answer["message_id"], orders_answer["message_id"],
        "two answers, two Message-IDs"
    );

    // Delivered again: both answers stand, nothing is answered or played twice.
    let again = despatch::mail_in::receive(&app.games, DOMAIN, with_command.raw().as_bytes())
        .await
        .unwrap();
    assert!(
        matches!(again, despatch::mail_in::Receipt::Ignored(_)),
        "{again:?}"
    );
    assert_eq!(app.events(&game).await, 3);
}

async fn mailguns_route_plays_signed_replies_posted_as_a_form_or_multipart(app: TestApp) {
    let game = app.game().await;
    let url = format!("{}/api/inbound/mailgun/mime", app.base);
    let now = chrono::Utc::now().timestamp();
    // A message without attachments: Mailgun posts the form URL-encoded.
    let anna_moves = Mail {
        from: "anna@example.org",
        to: anna(&game),
        id: "<mg-1@example.org>".into(),
        in_reply_to: None,
        body: "roll 2d6",
    };
    let resp = app
        .http
        .post(&url)
        .form(&mailgun_fields(&anna_moves, MAILGUN_KEY, now))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["status"], "answered", "{body}");
    assert_eq!(app.events(&game).await, 2, "Anna's roll is in the log");

    // With attachments Mailgun posts multipart/form-data; the attachment fields are skipped.
    let ben_moves = Mail {
        from: "ben@example.org",
        to: ben(&game),
        id: "<mg-2@example.org>".into(),
        in_reply_to: None,
        body: "roll 1d6",
    };
    let mut form = reqwest::multipart::Form::new();
    for (name, value) in mailgun_fields(&ben_moves, MAILGUN_KEY, now) {
        form = form.text(name, value);
    }
    let attachment = reqwest::multipart::Part::bytes(vec![0u8; 2048])
        .file_name("map.png")
        .mime_str("image/png")
        .unwrap();
    form = form.part("attachment-1", attachment);
    let resp = app.http.post(&url).multipart(form).send().await.unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    assert_eq!(app.events(&game).await, 3, "Ben's roll is in the log");

    // Mailgun posting the message again, signed anew: the message is applied once.
    let again = app
        .http
        .post(&url)
        .form(&mailgun_fields(&anna_moves, MAILGUN_KEY, now))
        .send()
        .await
        .unwrap();
    assert_eq!(again.status().as_u16(), 200);
    let body: Value = again.json().await.unwrap();
    assert_eq!(body["status"], "ignored", "{body}");
    assert_eq!(app.events(&game).await, 3);
    let answers = app.replies(&game).await;
    let to_anna = answers
        .iter()
        .filter(|a| a["to"] == "anna@example.org" && a["in_reply_to"] == "mg-1@example.org")
        .count();
    assert_eq!(to_anna, 1, "one answer to Anna's message: {answers:?}");
}

async fn mailguns_route_refuses_unsigned_wrongly_signed_or_old_posts_and_changes_nothing(
    app: TestApp,
) {
    let game = app.game().await;
    let url = format!("{}/api/inbound/mailgun/mime", app.base);
    let now = chrono::Utc::now().timestamp();
    let mail = Mail {
        from: "anna@example.org",
        to: anna(&game),
        id: "<mg-bad@example.org>".into(),
        in_reply_to: None,
        body: "roll 1d6",
    };
    let answers_before = app.replies(&game).await.len();
    let post = |fields: Vec<(&'static str, String)>| {
        let request = app.http.post(&url).form(&fields);
        async move {
            let resp = request.send().await.unwrap();
            let status = resp.status().as_u16();
            (status, resp.json::<Value>().await.unwrap_or(Value::Null))
        }
    };

    let unsigned: Vec<_> = mailgun_fields(&mail, MAILGUN_KEY, now)
        .into_iter()
        .filter(|(name, _)| *name != "signature")
        .collect();
    assert_eq!(post(unsigned).await.0, 401);

    let (status, body) = post(mailgun_fields(&mail, "another domain's key", now)).await;
    assert_eq!(status, 403);
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("wrong Mailgun signature"),
        "{body}"
    );

    // Signed more than 5 minutes ago, or ahead of the server's clock by as much.
    for (when, words) in [
        (now - 6 * 60, "more than 5 minutes old"),
        (now + 6 * 60, "in the future"),
    ] {
        let (status, body) = post(mailgun_fields(&mail, MAILGUN_KEY, when)).await;
        assert_eq!(status, 403, "{body}");
        assert!(body["message"].as_str().unwrap().contains(words), "{body}");
    }

    let no_message: Vec<_> = mailgun_fields(&mail, MAILGUN_KEY, now)
        .into_iter()
        .filter(|(name, _)| *name != "body-mime")
        .collect();
    let (status, body) = post(no_message).await;
    assert_eq!(status, 400);
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("ending in /mime"),
        "{body}"
    );

    assert_eq!(app.events(&game).await, 1, "nothing was played");
    assert_eq!(
        app.replies(&game).await.len(),
        answers_before,
        "nothing was answered"
    );
}

async fn a_sign_off_below_the_orders_is_not_read_and_the_answer_says_where_they_ended(
    app: TestApp,
) {
    // A wargame, whose order language reads "Cheers," as no order at all.
    let created: Value = app
        .http
        .post(format!("{}/api/games", app.base))
        .json(
            &json!({ "ruleset": "for-honor-and-glory", "scenario": "queenston-heights",
            "seats": [
                { "seat": "american", "name": "Anna", "email": "anna@example.org" },
                { "seat": "british", "name": "Ben", "email": "ben@example.org" }] }),
        )
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let game = created["game_id"].as_str().unwrap().to_owned();
    let loaded = app
        .games
        .load(&despatch::games::GameId::parse(&game).unwrap())
        .await
        .unwrap();
    let seat = loaded.game.prompts()[0].seat.clone();
    let command = loaded
        .game
        .ruleset
        .random_command(&loaded.game.state, &seat, &mut |_| 0)
        .expect("a legal order");
    let order = loaded.game.ruleset.describe(&command).unwrap();
    let (index, from) = if seat.as_str() == "american" {
        (0, "anna@example.org")
    } else {
        (1, "ben@example.org")
    };
    let to = reply_address(&key_from_secret(SIGNING_SECRET), DOMAIN, &game, index);
    let before = app.events(&game).await;

    // A typo above a good order is refused whole, with its line: nothing is dropped silently.
    let typo = format!("mvoe the militia\n{order}\n\nCheers,\nAnna");
    let (status, body) = app
        .send(&Mail {
            from,
            to: to.clone(),
            id: "<typo@example.org>".into(),
            in_reply_to: None,
            body: &typo,
        })
        .await;
    assert_eq!(status, 200, "{body}");
    let text = body["reply"]["text"].as_str().unwrap();
    assert!(text.contains("Your orders were refused"), "{text}");
    assert!(text.contains("mvoe the militia"), "{text}");
    // A refusal sends the game as it stands, so the orders can be written again from it.
    assert!(text.contains("It is your turn. You may:"), "{text}");
    assert!(text.contains("The board as you see it:"), "{text}");
    assert_eq!(app.events(&game).await, before, "nothing was applied");

    let signed = format!("{order}\n\nCheers,\nAnna\n");
    let (status, body) = app
        .send(&Mail {
            from,
            to,
            id: "<signed@example.org>".into(),
            in_reply_to: None,
            body: &signed,
        })
        .await;
    assert_eq!(status, 200, "{body}");
    let text = body["reply"]["text"].as_str().unwrap();
    assert!(text.contains("Your orders were carried out"), "{text}");
    let stop_line = order.lines().count() + 2;
    assert!(
        text.contains(&format!(
            "Your orders ended at line {stop_line}, \"Cheers,\", which is not an order"
        )),
        "{text}"
    );
    assert!(app.events(&game).await > before, "the orders were played");
}

/// A post's fields with another one's signature: what an attacker who captured `signed` sends.
fn with_signature_of(
    fields: Vec<(&'static str, String)>,
    signed: &[(&'static str, String)],
) -> Vec<(&'static str, String)> {
    let signature = |name: &str| signed.iter().find(|(n, _)| *n == name).unwrap().1.clone();
    fields
        .into_iter()
        .map(|(name, value)| match name {
            "timestamp" | "token" | "signature" => (name, signature(name)),
            _ => (name, value),
        })
        .collect()
}

async fn a_replayed_mailgun_signature_is_refused_and_delivers_nothing(app: TestApp) {
    let game = app.game().await;
    let url = format!("{}/api/inbound/mailgun/mime", app.base);
    let now = chrono::Utc::now().timestamp();
    let post = |fields: &[(&'static str, String)], base: &str| {
        let request = app
            .http
            .post(format!("{base}/api/inbound/mailgun/mime"))
            .form(fields);
        async move {
            let resp = request.send().await.unwrap();
            let status = resp.status().as_u16();
            (status, resp.json::<Value>().await.unwrap_or(Value::Null))
        }
    };
    let anna_moves = Mail {
        from: "anna@example.org",
        to: anna(&game),
        id: "<mg-replay-1@example.org>".into(),
        in_reply_to: None,
        body: "roll 2d6",
    };
    let captured = mailgun_fields(&anna_moves, MAILGUN_KEY, now);
    let (status, body) = post(&captured, &app.base).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], "answered", "{body}");
    assert_eq!(app.events(&game).await, 2);
    let answers = app.replies(&game).await.len();

    // The same signed post again: refused, saying why.
    let (status, body) = post(&captured, &app.base).await;
    assert_eq!(status, 403, "{body}");
    assert!(
        body["message"].as_str().unwrap().contains("used before"),
        "{body}"
    );
    // The captured signature carrying another message, URL-encoded or multipart, to this
    // server or to another process on the same database: refused.
    let other = Mail {
        from: "anna@example.org",
        to: anna(&game),
        id: "<mg-replay-2@example.org>".into(),
        in_reply_to: None,
        body: "roll 3d6",
    };
    let forged = with_signature_of(mailgun_fields(&other, "unknown", now), &captured);
    let (status, body) = post(&forged, &app.base).await;
    assert_eq!(status, 403, "{body}");
    let mut form = reqwest::multipart::Form::new();
    for (name, value) in forged.clone() {
        form = form.text(name, value);
    }
    let resp = app.http.post(&url).multipart(form).send().await.unwrap();
    assert_eq!(resp.status().as_u16(), 403);
    let second = answering_mail(app.another()).serve().await;
    let (status, body) = post(&forged, &second.base).await;
    assert_eq!(status, 403, "another server on the database: {body}");

    // A message signed 6 minutes ago, with a token never used: refused as too old.
    let late = Mail {
        from: "anna@example.org",
        to: anna(&game),
        id: "<mg-replay-3@example.org>".into(),
        in_reply_to: None,
        body: "roll 4d6",
    };
    let (status, body) = post(&mailgun_fields(&late, MAILGUN_KEY, now - 6 * 60), &app.base).await;
    assert_eq!(status, 403, "{body}");
    assert!(
        body["message"].as_str().unwrap().contains("5 minutes"),
        "{body}"
    );

    assert_eq!(app.events(&game).await, 2, "nothing more was played");
    assert_eq!(
        app.replies(&game).await.len(),
        answers,
        "nothing was answered"
    );
    // A fresh signature still delivers.
    let ben_moves = Mail {
        from: "ben@example.org",
        to: ben(&game),
        id: "<mg-replay-4@example.org>".into(),
        in_reply_to: None,
        body: "roll 1d6",
    };
    let (status, body) = post(&mailgun_fields(&ben_moves, MAILGUN_KEY, now), &app.base).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(app.events(&game).await, 3);
}

/// The head of a Mailgun post of `length` bytes (`None`: chunked) in `content_type`.
fn mailgun_head(base: &str, length: Option<usize>, content_type: &str) -> String {
    let host = base.trim_start_matches("http://");
    let length = match length {
        Some(n) => format!("Content-Length: {n}"),
        None => "Transfer-Encoding: chunked".to_owned(),
    };
    format!(
        "POST /api/inbound/mailgun/mime HTTP/1.1\r\nHost: {host}\r\nContent-Type: {content_type}\r\n{length}"
    )
}

/// One chunk of a chunked body.
fn chunk(data: &[u8]) -> Vec<u8> {
    let mut out = format!("{:x}\r\n", data.len()).into_bytes();
    out.extend_from_slice(data);
    out.extend_from_slice(b"\r\n");
    out
}

/// The start of a multipart post: its three signature fields (signed with `key`), then the
/// head of its `body-mime` part, whose bytes follow.
fn signature_first(key: &str, now: i64) -> Vec<u8> {
    let timestamp = now.to_string();
    let mut random = [0u8; 25];
    getrandom::fill(&mut random).unwrap();
    let token = hex::encode(random);
    let signature = mailgun_signature(key, &timestamp, &token);
    let mut out = String::new();
    for (name, value) in [
        ("timestamp", timestamp.as_str()),
        ("token", &token),
        ("signature", &signature),
    ] {
        out.push_str(&format!(
            "--XyZ\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
        ));
    }
    out.push_str("--XyZ\r\nContent-Disposition: form-data; name=\"body-mime\"\r\n\r\n");
    out.into_bytes()
}

async fn mailguns_route_refuses_before_reading_a_body_it_will_not_take(app: TestApp) {
    use common::raw_http::{connect, read_answer, send_head};
    use tokio::io::AsyncWriteExt;
    const GUARD: Duration = Duration::from_secs(20);
    const MULTIPART: &str = "multipart/form-data; boundary=XyZ";
    let cap = despatch::http::inbound::MAILGUN_MAX_BYTES;

    // A server whose Mailgun route is not set up refuses a 30 MB post on its head alone: the
    // body is never sent, and the answer comes all the same.
    let closed = app
        .another()
        .link_secret(Some(SIGNING_SECRET))
        .inbound_mail(DOMAIN, SECRET)
        .serve()
        .await;
    let (mut read, mut write) = connect(&closed.base).await;
    send_head(
        &mut write,
        &mailgun_head(&closed.base, Some(30_000_000), MULTIPART),
    )
    .await;
    let answer = read_answer(&mut read, GUARD)
        .await
        .expect("an answer before the body");
    assert_eq!(answer.status, 403, "{answer:?}");
    assert!(
        answer.body.contains("DESPATCH_MAILGUN_SIGNING_KEY"),
        "{answer:?}"
    );

    // An open route refuses a post declaring more than its cap on its head alone: 413.
    let (mut read, mut write) = connect(&app.base).await;
    send_head(
        &mut write,
        &mailgun_head(&app.base, Some(cap + 1), MULTIPART),
    )
    .await;
    let answer = read_answer(&mut read, GUARD)
        .await
        .expect("an answer before the body");
    assert_eq!(answer.status, 413, "{answer:?}");

    // A wrongly signed post whose signature comes first is refused before its message part is
    // read: the part's first bytes are sent and the rest held back, and the answer comes.
    let (mut read, mut write) = connect(&app.base).await;
    send_head(&mut write, &mailgun_head(&app.base, None, MULTIPART)).await;
    let mut start = signature_first("another domain's key", chrono::Utc::now().timestamp());
    start.extend_from_slice(b"From: Player <anna@example.org>\r\n");
    write.write_all(&chunk(&start)).await.unwrap();
    let answer = read_answer(&mut read, GUARD)
        .await
        .expect("an answer while the message part is still on its way");
    assert_eq!(answer.status, 403, "{answer:?}");
    assert!(
        answer.body.contains("wrong Mailgun signature"),
        "{answer:?}"
    );

    // A rightly signed post that sends more than the cap without declaring it (chunked) is cut
    // off at the cap: 413, and nothing is delivered.
    let (mut read, mut write) = connect(&app.base).await;
    send_head(&mut write, &mailgun_head(&app.base, None, MULTIPART)).await;
    let start = signature_first(MAILGUN_KEY, chrono::Utc::now().timestamp());
    let sender = tokio::spawn(async move {
        write.write_all(&chunk(&start)).await?;
        let block = vec![b'x'; 1 << 20];
        for _ in 0..=(cap >> 20) + 1 {
            write.write_all(&chunk(&block)).await?;
        }
        write.write_all(b"0\r\n\r\n").await?;
        Ok::<_, std::io::Error>(write)
    });
    let answer = read_answer(&mut read, Duration::from_secs(60))
        .await
        .expect("an answer");
    assert_eq!(answer.status, 413, "{answer:?}");
    sender.abort();
}
