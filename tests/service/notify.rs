//! Notices that always arrive: the outbox dispatcher against the real SMTP server that
//! `scripts/test` starts (messages read back from its maildir), webhooks against a scripted local
//! receiver, faults (SMTP down, a failing and stalling webhook, a dispatcher killed mid-send, two
//! dispatchers racing), the live stream, and the API around them. Every test that touches the
//! store runs on PostgreSQL and on SQLite.

use crate::common;

use std::time::Duration;

use chrono::Utc;
use common::notify::{dead_port, delivered_to, smtp_addr, wait_for_mail, Answer, Receiver};
use common::TestApp;
use despatch::engine::game::events_folded_here;
use despatch::games::clock::ManualClock;
use despatch::games::links::webhook_signature;
use despatch::games::outbox::{EmailDelivery, LogHead};
use despatch::notify::email::Mailer;
use despatch::notify::notice::NoticeContext;
use despatch::notify::templates;
use despatch::store::{Append, Store};
use futures_util::StreamExt;
use serde_json::{json, Value};

const LEASE: Duration = common::app::DISPATCH_LEASE;

async fn spawn(backend: common::Backend) -> TestApp {
    // Ahead of the real time, so rows the database stamps with its own now() are already due.
    common::spawn_app(backend)
        .clock(ManualClock::new(Utc::now() + chrono::Duration::hours(1)))
        // The webhook receivers of these tests listen on this machine: the operator's
        // allowance (`DESPATCH_WEBHOOK_ALLOW_HOSTS`) lets webhooks reach them, and nothing else
        // inside.
        .webhook_allow_hosts("127.0.0.1")
        .spawn()
        .await
}

fn tag() -> String {
    let mut b = [0u8; 6];
    getrandom::fill(&mut b).unwrap();
    hex::encode(b)
}

struct Table {
    game_id: String,
    tokens: Vec<String>,
}

/// What this file's tests ask of the app (a trait, so that each test module keeps its own
/// helpers in the one service test binary).
trait NotifyCalls {
    async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, Value);
    async fn table(&self, tag: &str) -> Table;
    async fn free_table(&self, tag: &str) -> Table;
    async fn create_table(&self, request: Value) -> Table;
    async fn play(&self, t: &Table, token: &str, order: &str);
    async fn export(&self, t: &Table) -> String;
    async fn hook(&self, t: &Table, seat: usize, url: &str, scope: &str, format: &str) -> Value;
}

impl NotifyCalls for TestApp {
    async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, Value) {
        let mut req = self.http.request(method, self.url(path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        let resp = req.send().await.unwrap();
        let status = resp.status().as_u16();
        (status, resp.json().await.unwrap_or(Value::Null))
    }

    /// An open-table game for anna and bert, with addresses carrying `tag`.
    async fn table(&self, tag: &str) -> Table {
        self.create_table(json!({ "ruleset": "open-table", "seats": [
            { "name": "Anna", "seat": "anna", "email": format!("anna-{tag}@example.org") },
            { "name": "Bert", "seat": "bert", "email": format!("bert-{tag}@example.org") },
        ] }))
        .await
    }

    /// An open table in free order: anna moves as she likes and has no address; bert's carries
    /// `tag`, so her moves write notices for him.
    async fn free_table(&self, tag: &str) -> Table {
        self.create_table(
            json!({ "ruleset": "open-table", "options": { "order": "free" }, "seats": [
                { "name": "Anna", "seat": "anna" },
                { "name": "Bert", "seat": "bert", "email": format!("bert-{tag}@example.org") },
            ] }),
        )
        .await
    }

    async fn create_table(&self, request: Value) -> Table {
        let (status, body) = self
            .call(reqwest::Method::POST, "/api/games", None, Some(request))
            .await;
        assert_eq!(status, 201, "{body}");
        Table {
            game_id: body["game_id"].as_str().unwrap().to_owned(),
            tokens: body["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["token"].as_str().unwrap().to_owned())
                .collect(),
        }
    }

    async fn play(&self, t: &Table, token: &str, order: &str) {
        let (_, summary) = self
            .call(
                reqwest::Method::GET,
                &format!("/api/games/{}", t.game_id),
                None,
                None,
            )
            .await;
        let seq = summary["next_seq"].as_u64().unwrap();
        let (status, body) = self
            .call(
                reqwest::Method::POST,
                &format!("/api/games/{}/moves", t.game_id),
                Some(token),
                Some(json!({ "expected_seq": seq, "command": order })),
            )
            .await;
        assert_eq!(status, 201, "{order}: {body}");
    }

    /// The game's export, as anyone may download it.
    async fn export(&self, t: &Table) -> String {
        let resp = self
            .http
            .get(self.url(&format!("/api/games/{}/export", t.game_id)))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status().as_u16(), 200);
        resp.text().await.unwrap()
    }

    async fn hook(&self, t: &Table, seat: usize, url: &str, scope: &str, format: &str) -> Value {
        let (status, body) = self
            .call(
                reqwest::Method::POST,
                &format!("/api/games/{}/webhooks", t.game_id),
                Some(&t.tokens[seat]),
                Some(json!({ "url": url, "scope": scope, "format": format })),
            )
            .await;
        assert_eq!(status, 201, "{body}");
        body
    }
}

/// The text after `label` up to the end of its line.
fn line_after<'a>(text: &'a str, label: &str) -> &'a str {
    let start = text
        .find(label)
        .unwrap_or_else(|| panic!("no '{label}' in:\n{text}"))
        + label.len();
    text[start..].lines().next().unwrap().trim()
}

on_both_backends!(
    a_turn_notice_arrives_by_smtp_with_both_parts_and_links_that_work,
    with_smtp_down_every_notice_waits_and_arrives_once_it_is_back,
    a_dispatcher_killed_between_send_and_mark_resends_under_the_same_message_id,
    a_webhook_failing_then_stalling_then_answering_gets_one_signed_delivery_id,
    two_dispatchers_racing_deliver_each_notice_exactly_once,
    the_live_stream_announces_every_append,
    webhooks_are_registered_listed_without_secrets_and_deleted_by_their_seat,
    webhooks_inside_are_refused_when_added_and_again_at_every_delivery,
    a_name_that_would_split_a_header_silences_no_game,
    notices_read_the_cached_game_and_one_nobody_hears_loads_nothing,
    a_seat_several_moves_behind_gets_one_mail_composed_from_the_latest,
    a_backlog_of_one_seats_notices_is_let_go_before_any_is_claimed_and_sends_one_mail,
    the_game_over_mail_tells_each_reader_whether_they_won,
);

/// Issue 38: the game-over mail says at once, to each seat, whether its reader won — in the
/// subject and at the top of both parts — as well as the result in the rules' words.
async fn the_game_over_mail_tells_each_reader_whether_they_won(t: TestApp) {
    let tag = tag();
    let table = t.table(&tag).await;
    t.play(&table, &table.tokens[0], "result win anna").await;
    t.play(&table, &table.tokens[1], "result win anna").await;
    t.smtp_dispatcher().drain().await.unwrap();
    for (who, verdict) in [("anna", "You won"), ("bert", "You lost: Anna won")] {
        let mut over = None;
        for _ in 0..100 {
            over = delivered_to(&format!("{who}-{tag}"))
                .into_iter()
                .find(|m| m.subject.contains("Game over"));
            if over.is_some() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let over = over.unwrap_or_else(|| panic!("no game-over mail reached {who}"));
        assert!(
            over.subject.ends_with(&format!(" — {verdict}")),
            "{}",
            over.subject
        );
        assert!(
            over.text.contains(&format!("{verdict}.\nResult: ")),
            "{}",
            over.text
        );
        assert!(
            over.html.contains(&format!("<strong>{verdict}.</strong>")),
            "{}",
            over.html
        );
    }
}

#[test]
fn a_verdict_names_the_other_winners_and_the_draw() {
    use despatch::notify::notice::verdict;
    assert_eq!(verdict(1, vec![]), "You won");
    assert_eq!(verdict(2, vec!["Ben".into()]), "You won, with Ben");
    assert_eq!(verdict(1, vec!["Ben".into()]), "You lost: Ben won");
    assert_eq!(
        verdict(3, vec!["Ben".into(), "Cy".into(), "Di".into()]),
        "You lost: Ben, Cy and Di won"
    );
    assert_eq!(verdict(0, vec![]), "A draw: no one won");
}

/// Issue 16 (docs/notifications.md, "One mail for many moves"): a seat that several moves have
/// passed to since its last mail is sent one, listing every move since and witnessing the
/// log's head: while its turn notice waits, the moves after it write none. Table talk between
/// the moves is not a notice of that kind: it still arrives on its own.
async fn a_seat_several_moves_behind_gets_one_mail_composed_from_the_latest(t: TestApp) {
    let tag = tag();
    let table = t.free_table(&tag).await;
    let d = t.smtp_dispatcher();
    d.drain().await.unwrap();
    assert_eq!(wait_for_mail(&format!("bert-{tag}"), 1).await.len(), 1);

    let moves = [
        "The Guard crosses the Sambre.",
        "The Guard takes the farm.",
        "The Guard halts for the night.",
        "The Guard forms square.",
    ];
    for (i, order) in moves.iter().enumerate() {
        t.play(&table, &table.tokens[0], order).await;
        if i == 1 {
            let (status, body) = t
                .call(
                    reqwest::Method::POST,
                    &format!("/api/games/{}/talk", table.game_id),
                    Some(&table.tokens[0]),
                    Some(json!({ "text": "Your move, Bert." })),
                )
                .await;
            assert_eq!(status, 201, "{body}");
        }
    }
    d.drain().await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mail = wait_for_mail(&format!("bert-{tag}"), 3).await;
    assert_eq!(
        mail.len(),
        3,
        "the first notice, the talk and one turn mail for four moves: {:?}",
        mail.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    assert_eq!(
        mail.iter()
            .filter(|m| m.text.contains("Your move, Bert."))
            .count(),
        1,
        "the talk arrives on its own"
    );
    let latest = mail
        .iter()
        .find(|m| m.text.contains("forms square"))
        .expect("a mail composed from the latest notice");
    for order in moves {
        assert!(
            latest.text.contains(order.trim_end_matches('.')),
            "the one mail lists every move since bert's last: {order} is missing from\n{}",
            latest.text
        );
    }

    let states = t.store.outbox_states(&table.game_id).await.unwrap();
    let turns: Vec<_> = states
        .iter()
        .filter(|s| s.row.record.channel == "turn" && s.row.record.seat.as_deref() == Some("bert"))
        .collect();
    assert_eq!(
        turns.len(),
        2,
        "the game's first notice and one for the four moves: while one waited for bert, the \
         moves after the first wrote none: {turns:?}"
    );
    assert!(turns.iter().all(|t| t.sent && t.superseded_by.is_none()));
    assert!(
        latest
            .head
            .as_deref()
            .unwrap_or_default()
            .split_whitespace()
            .nth(1)
            == Some("4"),
        "the mail witnesses the log's head, event 4 (the fourth move): {:?}",
        latest.head
    );
    let emails = states
        .iter()
        .filter(|s| s.row.record.channel == "email")
        .count();
    assert_eq!(emails, 3, "three email deliveries were written, no more");
}

/// Issue 16: notices cost moves nothing. A notice is composed from the game the fold cache holds
/// — its lines from the pages' fold kept beside it, moved on — never by folding the log again;
/// a notice for a seat nothing reaches (no email, no hook) is let go without loading its game.
/// Folds are counted on this thread, where `drain` runs all its work.
async fn notices_read_the_cached_game_and_one_nobody_hears_loads_nothing(t: TestApp) {
    const LONG: u64 = 2_000;
    let tag = tag();
    let table = t.free_table(&tag).await;
    let d = t.smtp_dispatcher();
    // Bert's first notice goes before anna moves: two notices waiting together would make one
    // mail (`a_seat_several_moves_behind_gets_one_mail_composed_from_the_latest`).
    d.drain().await.unwrap();
    t.play(&table, &table.tokens[0], "The brigade holds the ford.")
        .await;
    grow(&t.store, &table.game_id, LONG).await;
    // The first notices after the log grew behind the service's back fold what they find once.
    d.drain().await.unwrap();
    assert_eq!(wait_for_mail(&format!("bert-{tag}"), 2).await.len(), 2);

    t.play(&table, &table.tokens[0], "roll 1d6 across the ford")
        .await;
    let before = events_folded_here();
    d.drain().await.unwrap();
    let folded = events_folded_here() - before;
    assert!(
        folded < 10,
        "composing two notices of a {LONG}-event game folded {folded} events"
    );
    let mail = wait_for_mail(&format!("bert-{tag}"), 3).await;
    assert_eq!(mail.len(), 3);
    assert!(
        mail.iter().any(|m| m.text.contains("across the ford")),
        "the new move is in bert's notice: {:?}",
        mail.iter().map(|m| &m.text).collect::<Vec<_>>()
    );

    // Bert turns email off: now nothing reaches either seat, and their notices are let go
    // without the game being loaded, let alone folded.
    t.store
        .set_channels(
            &table.game_id,
            "bert",
            despatch::store::Channels {
                email: false,
                webhooks: true,
                ..Default::default()
            },
        )
        .await
        .unwrap();
    t.play(&table, &table.tokens[0], "The brigade falls back.")
        .await;
    t.games.fold_cache().forget(&table.game_id);
    let before = events_folded_here();
    assert!(d.drain().await.unwrap() >= 2, "anna's and bert's notices");
    assert_eq!(events_folded_here() - before, 0, "nothing was folded");
    assert!(
        t.games.fold_cache().get(&table.game_id).is_none(),
        "the game was not loaded"
    );
    let states = t.store.outbox_states(&table.game_id).await.unwrap();
    assert!(
        states.iter().all(|s| s.sent),
        "every row handled: {states:?}"
    );
    let emails = states
        .iter()
        .filter(|s| s.row.record.channel == "email")
        .count();
    assert_eq!(emails, 3, "bert's three, none after he turned email off");
}

/// Grows `game_id`, whose last event is a free-text move, to `len` events by appending copies of
/// that move through the store, 500 at a time, as `benches/http_moves.rs` does.
async fn grow(store: &Store, game_id: &str, len: u64) {
    let events = store.events(game_id, 0, None).await.unwrap();
    let model = events.last().unwrap();
    for batch in model
        .copies_after((len - 1).saturating_sub(model.seq))
        .chunks(500)
    {
        let append = Append {
            events: batch.to_vec(),
            ..Append::default()
        };
        store.append(game_id, batch[0].seq, &append).await.unwrap();
    }
}

/// Issue 15: a seat name holding CR/LF (refused at the API now, but a row written before that
/// check, or straight into the database, may hold one) made lettre panic in the dispatcher, and
/// no notice of any game went out afterwards. The name is written as one line, nothing is
/// injected, and every other game's notices still arrive.
async fn a_name_that_would_split_a_header_silences_no_game(t: TestApp) {
    let tag = tag();
    let poisoned = t.table(&format!("p{tag}")).await;
    // A second game, whose notices must not wait on the first's.
    t.table(&format!("o{tag}")).await;
    let crlf = if t.db.backend() == "postgres" {
        "chr(13) || chr(10)"
    } else {
        "char(13) || char(10)"
    };
    t.db.execute(&format!(
        "UPDATE seats SET name = 'Evil' || {crlf} || 'Bcc: victim-{tag}@example.org' \
         WHERE game_id = '{}' AND seat = 'anna'",
        poisoned.game_id
    ))
    .await;
    let d = t.smtp_dispatcher();
    d.drain().await.unwrap();

    let theirs = wait_for_mail(&format!("anna-p{tag}"), 1).await;
    assert_eq!(theirs.len(), 1, "the seat with the odd name still hears");
    assert_eq!(theirs[0].to, vec![format!("anna-p{tag}@example.org")]);
    let ours = wait_for_mail(&format!("anna-o{tag}"), 1).await;
    assert_eq!(ours.len(), 1, "another game's notice is not held up");
    assert!(
        delivered_to(&format!("victim-{tag}")).is_empty(),
        "nothing went to the address in the name"
    );
    let message = theirs[0].raw.replace("\r\n", "\n");
    let headers = message.split("\n\n").next().unwrap();
    assert!(
        headers
            .lines()
            .all(|l| !l.to_ascii_lowercase().starts_with("bcc:")),
        "no Bcc header was injected:\n{headers}"
    );
    let parsed = mail_parser::MessageParser::default()
        .parse(theirs[0].raw.as_bytes())
        .expect("a message");
    assert_eq!(
        parsed.to().and_then(|a| a.first()).and_then(|a| a.name()),
        Some(format!("Evil  Bcc: victim-{tag}@example.org").as_str()),
        "the name is written as one line"
    );
    assert!(parsed.bcc().is_none(), "{}", theirs[0].raw);
}

async fn a_turn_notice_arrives_by_smtp_with_both_parts_and_links_that_work(t: TestApp) {
    let tag = tag();
    let table = t.table(&tag).await;
    let d = t.smtp_dispatcher();
    d.drain().await.unwrap();

    let mail = wait_for_mail(&format!("anna-{tag}"), 1).await;
    assert_eq!(mail.len(), 1, "one turn notice for anna");
    let m = &mail[0];
    assert_eq!(m.to, vec![format!("anna-{tag}@example.org")]);
    assert!(
        m.subject.starts_with("[Despatch] Your turn, Anna"),
        "{}",
        m.subject
    );
    assert!(
        m.message_id
            .starts_with(&format!("despatch.{}.", table.game_id))
            && m.message_id.contains(&table.game_id)
    );
    assert!(
        m.text.contains("roll 1d6 to hit"),
        "legal moves in the text part:\n{}",
        m.text
    );
    assert!(
        m.html.contains("<code>roll 1d6 to hit</code>"),
        "as code in the HTML part:\n{}",
        m.html
    );
    assert!(m
        .reply_to
        .iter()
        .any(|r| r.starts_with(&format!("play+{}.0.", table.game_id.replace('-', "")))));
    let grammar = despatch::rules::find("open-table").unwrap().info().grammar;
    assert!(
        m.text.contains(grammar.lines().next().unwrap()),
        "the order language is explained"
    );
    // Bert is not asked to move, but hears of the game: an invitation with his seat's link.
    let invited = wait_for_mail(&format!("bert-{tag}"), 1).await;
    assert_eq!(invited.len(), 1, "one invitation for bert");
    let invitation = &invited[0];
    assert!(
        invitation
            .subject
            .starts_with("[Despatch] Bert, you are invited to"),
        "{}",
        invitation.subject
    );
    assert!(
        invitation.text.contains("Also at the table: Anna."),
        "{}",
        invitation.text
    );
    assert!(
        invitation.text.contains("The game waits for: Anna"),
        "{}",
        invitation.text
    );
    assert!(
        invitation.text.contains("It is not your turn yet"),
        "{}",
        invitation.text
    );
    let bert_link = line_after(&invitation.text, "Your seat: ");
    let bert_token = bert_link.split("token=").nth(1).unwrap();
    let (status, moves) = t
        .call(
            reqwest::Method::GET,
            &format!("/api/games/{}/moves?token={bert_token}", table.game_id),
            None,
            None,
        )
        .await;
    assert_eq!(status, 200, "{moves}");
    assert_eq!(
        moves["seat"], "bert",
        "the invitation's link is bert's seat"
    );
    assert_eq!(moves["your_turn"], false);
    // A seat's notices are one thread: each names the seat's thread, which no message is and
    // which names no event.
    let thread = |seat: &str| format!("despatch-thread.{}.{seat}@", table.game_id);
    assert!(
        m.answers.len() == 2 && m.answers.iter().all(|id| id.starts_with(&thread("anna"))),
        "{:?}",
        m.answers
    );
    assert!(
        invitation
            .answers
            .iter()
            .all(|id| id.starts_with(&thread("bert"))),
        "{:?}",
        invitation.answers
    );
    assert_eq!(despatch::games::links::notice_seq(&m.answers[0]), None);

    // The magic link opens anna's seat: its legal moves, and a move made with it.
    let link = line_after(&m.text, "Play: ");
    let token = link.split("token=").nth(1).unwrap();
    // minijinja escapes '/' as &#x2f; in HTML, which a mail client's HTML parser decodes.
    let html_link = link.replace('/', "&#x2f;");
    assert!(
        m.html.contains(&format!("href=\"{html_link}\"")),
        "{}",
        m.html
    );
    let (status, moves) = t
        .call(
            reqwest::Method::GET,
            &format!("/api/games/{}/moves?token={token}", table.game_id),
            None,
            None,
        )
        .await;
    assert_eq!(status, 200, "{moves}");
    assert_eq!(moves["seat"], "anna");
    assert_eq!(moves["your_turn"], true);
    t.play(&table, token, "roll 2d6 opening volley").await;

    d.drain().await.unwrap();
    let bert: Vec<_> = wait_for_mail(&format!("bert-{tag}"), 2)
        .await
        .into_iter()
        .filter(|m| m.subject.starts_with("[Despatch] Your turn, Bert"))
        .collect();
    assert_eq!(bert.len(), 1, "bert's turn notice after his invitation");
    assert_eq!(
        bert[0].answers, invitation.answers,
        "in the thread of his invitation"
    );
    assert!(
        bert[0].text.contains("Since your last move:"),
        "{}",
        bert[0].text
    );
    assert!(
        bert[0].text.contains("opening volley"),
        "anna's roll is in bert's notice:\n{}",
        bert[0].text
    );

    // Bert's mailbox witnesses the log: the head his notice carries (header and text) is the
    // seq and hash of anna's move in the export, and `verify --witness` reads it from the mail.
    let export = t.export(&table).await;
    let events: Vec<Value> = export
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let moved = events.last().unwrap();
    let (seq, hash) = (
        moved["seq"].as_u64().unwrap(),
        moved["hash"].as_str().unwrap(),
    );
    // Unfolded: the header is longer than a mail line and lettre folds it.
    let head = bert[0]
        .head
        .as_deref()
        .map(|h| h.split_whitespace().collect::<Vec<_>>().join(" "));
    assert_eq!(
        head,
        Some(format!("{} {seq} {hash}", table.game_id)),
        "X-Despatch-Head names anna's move"
    );
    assert!(
        bert[0]
            .text
            .contains(&format!("when this was sent: event {seq}, hash\n{hash}")),
        "{}",
        bert[0].text
    );
    let seen = despatch::engine::witness::parse(&bert[0].raw, "bert.eml").unwrap();
    assert_eq!((seen[0].seq, seen[0].hash.as_str()), (seq, hash));
    let report = despatch::engine::verify::verify_witnessed(&export, &despatch::rules::find, &seen);
    assert!(report.ok() && report.witnessed == 1, "{}", report.render());

    // Bert unsubscribes from the link in the email, with no login. Opening the link (what a
    // mail scanner does too) only asks him to confirm; the confirmation is a POST.
    let unsubscribe = line_after(&bert[0].text, "Stop these emails: ").to_owned();
    assert!(
        bert[0]
            .raw
            .contains(&format!("List-Unsubscribe: <{unsubscribe}>"))
            && bert[0]
                .raw
                .contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"),
        "RFC 8058 headers: {}",
        bert[0].raw
    );
    let channels_path = format!("/api/games/{}/channels", table.game_id);
    let resp = t.http.get(&unsubscribe).send().await.unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    let page = resp.text().await.unwrap();
    assert!(
        page.contains("Stop these emails?") && page.contains("method=\"post\""),
        "{page}"
    );
    let (_, channels) = t
        .call(
            reqwest::Method::GET,
            &channels_path,
            Some(&table.tokens[1]),
            None,
        )
        .await;
    assert_eq!(
        channels,
        json!({ "email": true, "webhooks": true, "reminders": true, "digest": false, "auto_pass": false }),
        "a GET changes nothing"
    );
    // The one-click POST a mail client sends (RFC 8058), as the page's button does.
    let resp = t
        .http
        .post(&unsubscribe)
        .form(&[("List-Unsubscribe", "One-Click")])
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    let (_, channels) = t
        .call(
            reqwest::Method::GET,
            &format!("/api/games/{}/channels", table.game_id),
            Some(&table.tokens[1]),
            None,
        )
        .await;
    assert_eq!(
        channels,
        json!({ "email": false, "webhooks": true, "reminders": true, "digest": false, "auto_pass": false })
    );
    let forged = unsubscribe.replace("seat=bert", "seat=anna");
    for forged in [t.http.get(&forged), t.http.post(&forged)] {
        let resp = forged.send().await.unwrap();
        assert_eq!(resp.status().as_u16(), 403);
        let page = resp.text().await.unwrap();
        assert!(
            page.contains("This link is not valid") && page.contains("<!doctype html>"),
            "a page, not JSON: {page}"
        );
    }
    let (_, anna) = t
        .call(
            reqwest::Method::GET,
            &format!("/api/games/{}/channels", table.game_id),
            Some(&table.tokens[0]),
            None,
        )
        .await;
    assert_eq!(
        anna,
        json!({ "email": true, "webhooks": true, "reminders": true, "digest": false, "auto_pass": false }),
        "a forged link changes nothing"
    );

    t.play(&table, &table.tokens[1], "hold the ridge").await;
    d.drain().await.unwrap();
    assert_eq!(wait_for_mail(&format!("anna-{tag}"), 2).await.len(), 2);
    t.play(&table, &table.tokens[0], "advance").await;
    d.drain().await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        delivered_to(&format!("bert-{tag}")).len(),
        2,
        "no email after unsubscribing"
    );
    let states = t.store.outbox_states(&table.game_id).await.unwrap();
    assert!(
        states.iter().all(|s| s.sent),
        "every row handled: {states:?}"
    );
    let emails = states
        .iter()
        .filter(|s| s.row.record.channel == "email")
        .count();
    assert_eq!(
        emails, 4,
        "anna twice, bert twice (his invitation and a turn): {states:?}"
    );

    // A turn notice for a seat that has moved before it was sent says nothing.
    t.play(&table, &table.tokens[1], "fall back").await;
    t.play(&table, &table.tokens[0], "pursue").await;
    d.drain().await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        delivered_to(&format!("anna-{tag}")).len(),
        2,
        "a stale turn notice is dropped"
    );
}

async fn with_smtp_down_every_notice_waits_and_arrives_once_it_is_back(t: TestApp) {
    let tags: Vec<String> = (0..3).map(|_| tag()).collect();
    let mut tables = Vec::new();
    for tag in &tags {
        tables.push(t.table(tag).await);
    }
    let down = t.dispatcher(
        &format!("smtp://127.0.0.1:{}", dead_port()),
        Duration::from_secs(5),
    );
    down.drain().await.unwrap();
    t.clock().advance(chrono::Duration::seconds(2));
    down.drain().await.unwrap();
    for table in &tables {
        let states = t.store.outbox_states(&table.game_id).await.unwrap();
        let email = states
            .iter()
            .find(|s| s.row.record.channel == "email")
            .unwrap();
        assert!(!email.sent);
        assert_eq!(email.attempts, 2, "tried twice while SMTP was down");
        assert!(
            email.last_error.as_deref().unwrap().contains("SMTP"),
            "{:?}",
            email.last_error
        );
    }
    // Backoff: the third attempt is not due 1 s after the second failure.
    t.clock().advance(chrono::Duration::seconds(1));
    assert_eq!(down.claim().await.unwrap().len(), 0, "still backing off");

    t.clock().advance(chrono::Duration::seconds(10));
    t.smtp_dispatcher().drain().await.unwrap();
    for (tag, table) in tags.iter().zip(&tables) {
        let mail = wait_for_mail(&format!("anna-{tag}"), 1).await;
        assert_eq!(mail.len(), 1, "each notice arrives once SMTP is back");
        let attempts = t.store.outbox_attempts(&table.game_id).await.unwrap();
        let email_row = t
            .store
            .outbox_states(&table.game_id)
            .await
            .unwrap()
            .into_iter()
            .find(|s| s.row.record.channel == "email")
            .unwrap();
        assert!(email_row.sent);
        let oks: Vec<bool> = attempts
            .iter()
            .filter(|a| a.outbox_id == email_row.row.id)
            .map(|a| a.ok)
            .collect();
        assert_eq!(oks, vec![false, false, true], "every attempt is recorded");
    }
}

async fn a_dispatcher_killed_between_send_and_mark_resends_under_the_same_message_id(t: TestApp) {
    let tag = tag();
    let table = t.table(&tag).await;
    // Bert hears nothing (no invitation either): the one email is anna's turn notice.
    let (status, _) = t
        .call(
            reqwest::Method::PUT,
            &format!("/api/games/{}/channels", table.game_id),
            Some(&table.tokens[1]),
            Some(json!({ "email": false, "webhooks": true })),
        )
        .await;
    assert_eq!(status, 200);
    let first = t.smtp_dispatcher();
    // The notices become one email delivery, held by this dispatcher.
    let mut claims = Vec::new();
    for notice in first.claim().await.unwrap() {
        claims.extend(first.expand(&notice).await.unwrap());
    }
    assert_eq!(claims.len(), 1);
    first.deliver(&claims[0]).await.unwrap(); // sent … and the process dies before marking it
    drop(first);
    assert_eq!(wait_for_mail(&format!("anna-{tag}"), 1).await.len(), 1);

    let second = t.smtp_dispatcher();
    assert_eq!(
        second.drain().await.unwrap(),
        0,
        "the lease still holds the row"
    );
    t.clock()
        .advance(chrono::Duration::from_std(LEASE).unwrap() + chrono::Duration::seconds(1));
    assert_eq!(
        second.drain().await.unwrap(),
        1,
        "the lease ran out: sent again"
    );
    let mail = wait_for_mail(&format!("anna-{tag}"), 2).await;
    assert_eq!(mail.len(), 2, "at least once: a duplicate");
    assert_eq!(
        mail[0].message_id, mail[1].message_id,
        "… recognisable by its Message-ID"
    );
    let state = t.store.outbox_states(&table.game_id).await.unwrap();
    let email = state
        .iter()
        .find(|s| s.row.record.channel == "email")
        .unwrap();
    assert!(email.sent);
    assert_eq!(email.attempts, 2);
}

async fn a_webhook_failing_then_stalling_then_answering_gets_one_signed_delivery_id(t: TestApp) {
    let receiver = Receiver::start(vec![
        Answer::Status(500),
        Answer::Stall(Duration::from_secs(3)),
        Answer::Status(200),
    ])
    .await;
    let discord = Receiver::start(vec![]).await;
    let tag = tag();
    let table = t.table(&tag).await;
    let hook = t.hook(&table, 0, &receiver.url, "seat", "json").await;
    let secret = hook["secret"].as_str().unwrap().to_owned();
    t.hook(&table, 1, &discord.url, "game", "discord").await;

    let d = t.dispatcher(&format!("smtp://{}", smtp_addr()), Duration::from_secs(1));
    d.drain().await.unwrap(); // 500
    t.clock().advance(chrono::Duration::seconds(2));
    d.drain().await.unwrap(); // no answer within the timeout
    t.clock().advance(chrono::Duration::seconds(5));
    d.drain().await.unwrap(); // 200

    let got = receiver.received();
    assert_eq!(got.len(), 3, "500, timeout, 200");
    assert!(
        got.iter().all(|r| r.delivery_id == got[0].delivery_id),
        "one delivery id across retries"
    );
    for r in &got {
        assert_eq!(
            r.signature,
            webhook_signature(&secret, r.body.as_bytes()),
            "signed with the hook's secret"
        );
        assert_eq!(r.event, "turn");
    }
    let body: Value = serde_json::from_str(&got[2].body).unwrap();
    assert_eq!(body["event"], "turn");
    assert_eq!(body["seat"], "anna");
    assert_eq!(body["delivery_id"], got[2].delivery_id.as_str());
    assert!(body["link"].as_str().unwrap().contains("token=s1.anna."));
    assert!(body["options"]
        .as_array()
        .unwrap()
        .iter()
        .any(|o| o == "roll 1d6 to hit"));
    // The body witnesses the log's head: the game's first event, as the export shows it.
    let export = t.export(&table).await;
    let created: Value = serde_json::from_str(export.lines().nth(1).unwrap()).unwrap();
    assert_eq!(body["head"], json!({ "seq": 0, "hash": created["hash"] }));

    let states = t.store.outbox_states(&table.game_id).await.unwrap();
    let row = states
        .iter()
        .find(|s| {
            s.row.record.channel == "webhook" && s.row.record.payload["hook_id"] == hook["hook_id"]
        })
        .unwrap();
    assert!(
        row.row.record.payload.get("url").is_none(),
        "the outbox keeps no hook address: {}",
        row.row.record.payload
    );
    let attempts: Vec<(bool, Option<String>)> = t
        .store
        .outbox_attempts(&table.game_id)
        .await
        .unwrap()
        .into_iter()
        .filter(|a| a.outbox_id == row.row.id)
        .map(|a| (a.ok, a.error))
        .collect();
    assert_eq!(attempts.len(), 3);
    assert!(
        attempts[0].1.as_deref().unwrap().contains("500"),
        "{attempts:?}"
    );
    assert!(
        attempts[1]
            .1
            .as_deref()
            .unwrap()
            .contains("no answer in time"),
        "{attempts:?}"
    );
    assert!(attempts[2].0);

    // The game-wide Discord-format hook: a chat line, and no seat's link in it.
    let chat = discord.received();
    assert_eq!(chat.len(), 1);
    let chat_body: Value = serde_json::from_str(&chat[0].body).unwrap();
    assert!(
        chat_body["content"]
            .as_str()
            .unwrap()
            .contains("Anna's turn"),
        "{chat_body}"
    );
    assert!(
        !chat[0].body.contains("token="),
        "a game-wide hook carries no magic link"
    );
}

async fn two_dispatchers_racing_deliver_each_notice_exactly_once(t: TestApp) {
    let receiver = Receiver::start(vec![]).await;
    let mut tags = Vec::new();
    for _ in 0..8 {
        let tag = tag();
        let table = t.table(&tag).await;
        t.hook(&table, 0, &receiver.url, "seat", "json").await;
        tags.push((tag, table));
    }
    let (a, b) = (t.smtp_dispatcher(), t.smtp_dispatcher());
    let (ra, rb) = tokio::join!(a.drain(), b.drain());
    ra.unwrap();
    rb.unwrap();
    let got = receiver.received();
    let mut ids: Vec<&str> = got.iter().map(|r| r.delivery_id.as_str()).collect();
    ids.sort();
    let n = ids.len();
    ids.dedup();
    assert_eq!(n, 8, "one webhook call per notice");
    assert_eq!(ids.len(), 8, "no notice delivered twice");
    for (tag, table) in &tags {
        let mail = wait_for_mail(&format!("anna-{tag}"), 1).await;
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert_eq!(delivered_to(&format!("anna-{tag}")).len(), 1, "{mail:?}");
        for s in t.store.outbox_states(&table.game_id).await.unwrap() {
            assert!(s.sent);
            assert_eq!(s.attempts, 1, "no row claimed twice: {s:?}");
        }
    }
}

/// Reads server-sent events until an `event: game` frame, and returns its data.
async fn next_game_event<S>(stream: &mut S, buffer: &mut String) -> Value
where
    S: futures_util::Stream<Item = reqwest::Result<actix_web::web::Bytes>> + Unpin,
{
    loop {
        while let Some(end) = buffer.find("\n\n") {
            let frame: String = buffer.drain(..end + 2).collect();
            if frame.lines().any(|l| l == "event: game") {
                let data = frame
                    .lines()
                    .find_map(|l| l.strip_prefix("data: "))
                    .unwrap();
                return serde_json::from_str(data).unwrap();
            }
        }
        let chunk = tokio::time::timeout(Duration::from_secs(10), stream.next())
            .await
            .expect("an event within 10 s")
            .expect("the stream stays open")
            .unwrap();
        buffer.push_str(&String::from_utf8_lossy(&chunk));
    }
}

async fn the_live_stream_announces_every_append(t: TestApp) {
    let table = t.table(&tag()).await;
    let resp = t
        .http
        .get(t.url(&format!(
            "/api/games/{}/stream?token={}",
            table.game_id, table.tokens[0]
        )))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    assert_eq!(resp.headers()["content-type"], "text/event-stream");
    let mut stream = resp.bytes_stream();
    let mut buffer = String::new();
    let first = next_game_event(&mut stream, &mut buffer).await;
    assert_eq!(first, json!({ "game_id": table.game_id, "next_seq": 1 }));
    t.play(&table, &table.tokens[0], "roll 1d6 scouting").await;
    let second = next_game_event(&mut stream, &mut buffer).await;
    assert_eq!(second["next_seq"], 2);

    let bad = t
        .http
        .get(t.url(&format!(
            "/api/games/{}/stream?token=nonsense",
            table.game_id
        )))
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status().as_u16(), 403);

    // A second server process on the same database: a move made through it reaches the
    // page open on the first, through LISTEN/NOTIFY on PostgreSQL and, on SQLite, by the
    // first noticing the other's commit while the page is open (issue 38).
    let other_base = t.another().serve().await.base;
    let (status, body) = {
        let resp = t
            .http
            .post(format!("{other_base}/api/games/{}/moves", table.game_id))
            .bearer_auth(&table.tokens[1])
            .json(&json!({ "expected_seq": 2, "command": "dig in" }))
            .send()
            .await
            .unwrap();
        (resp.status().as_u16(), resp.text().await.unwrap())
    };
    assert_eq!(status, 201, "{body}");
    let third = next_game_event(&mut stream, &mut buffer).await;
    assert_eq!(third["next_seq"], 3, "pushed across processes");
}

/// Issue 35: a webhook never reaches inside the server's network. A server without the
/// allowance refuses each internal address when a hook is added, and a name that resolves
/// inside (`localhost`); a hook that got in before (stored directly, or added while the
/// allowance held) is refused again at delivery, after the name is resolved, and its receiver
/// hears nothing.
async fn webhooks_inside_are_refused_when_added_and_again_at_every_delivery(t: TestApp) {
    let receiver = Receiver::start(vec![]).await;
    let port = receiver
        .url
        .rsplit(':')
        .next()
        .unwrap()
        .split('/')
        .next()
        .unwrap()
        .to_owned();
    let table = t.table(&tag()).await;
    let path = format!("/api/games/{}/webhooks", table.game_id);
    // Another server on the database, as an operator runs it: no allowance.
    let strict = t.another().serve().await;
    for (url, says) in [
        (
            format!("http://127.0.0.1:{port}/a"),
            "127.0.0.1 is a loopback address",
        ),
        (
            "http://169.254.169.254/latest/meta-data/".to_owned(),
            "169.254.169.254 is a link-local address",
        ),
        (
            format!("http://[::1]:{port}/b"),
            "[::1] is a loopback address",
        ),
        (
            format!("http://[::ffff:127.0.0.1]:{port}/c"),
            "IPv4-mapped form of 127.0.0.1, a loopback address",
        ),
        (
            format!("http://localhost:{port}/d"),
            "localhost resolves to ",
        ),
    ] {
        let resp = t
            .http
            .post(format!("{}{path}", strict.base))
            .bearer_auth(&table.tokens[0])
            .json(&json!({ "url": url }))
            .send()
            .await
            .unwrap();
        let status = resp.status().as_u16();
        let body: Value = resp.json().await.unwrap();
        assert_eq!(status, 400, "{url}: {body}");
        let message = body["message"].as_str().unwrap();
        assert!(
            message.contains(says) && message.contains("DESPATCH_WEBHOOK_ALLOW_HOSTS"),
            "{url}: {message}"
        );
    }
    let (_, listed) = t
        .call(reqwest::Method::GET, &path, Some(&table.tokens[0]), None)
        .await;
    assert_eq!(listed, json!([]), "nothing was added");

    // Added while the allowance held (this app's server has it), and stored before any check
    // (a name that resolves inside): a dispatcher without the allowance refuses both.
    let allowed_then = t
        .hook(
            &table,
            0,
            &format!("http://127.0.0.1:{port}/allowed-then"),
            "seat",
            "json",
        )
        .await["hook_id"]
        .as_str()
        .unwrap()
        .to_owned();
    t.store
        .add_webhook(&despatch::store::WebhookRecord {
            game_id: despatch::games::GameId::parse(&table.game_id).unwrap(),
            hook_id: "hook_rebound".into(),
            seat: Some("anna".into()),
            url: format!("http://localhost:{port}/rebound"),
            secret: "ab".repeat(32),
            format: "json".into(),
        })
        .await
        .unwrap();
    let strict_games = t
        .games
        .clone()
        .with_webhook_targets(despatch::games::webhook_targets::WebhookTargets::default());
    let d = t.dispatcher_over(
        strict_games,
        &format!("smtp://{}", smtp_addr()),
        Duration::from_secs(2),
    );
    d.drain().await.unwrap();
    assert!(receiver.received().is_empty(), "{:?}", receiver.received());
    let states = t.store.outbox_states(&table.game_id).await.unwrap();
    let attempts = t.store.outbox_attempts(&table.game_id).await.unwrap();
    // A delivery names its hook; the hook's address is looked up as it is sent, never kept in
    // the outbox.
    let error_of = |hook_id: &str| -> String {
        let row = states
            .iter()
            .find(|s| {
                s.row.record.channel == "webhook"
                    && s.row.record.payload["hook_id"] == hook_id
                    && s.row.record.payload.get("url").is_none()
            })
            .unwrap_or_else(|| panic!("a delivery to {hook_id}: {states:?}"));
        let url_end = hook_id;
        assert!(!row.sent);
        attempts
            .iter()
            .find(|a| a.outbox_id == row.row.id)
            .and_then(|a| a.error.clone())
            .unwrap_or_else(|| panic!("a failed attempt for {url_end}"))
    };
    let literal = error_of(&allowed_then);
    assert!(
        literal.contains("refused: 127.0.0.1 is a loopback address"),
        "{literal}"
    );
    let rebound = error_of("hook_rebound");
    assert!(
        rebound.contains("refused: localhost resolves to 127.0.0.1, a loopback address"),
        "{rebound}"
    );

    // The same rows, retried through the app's own dispatcher (its allowance names
    // 127.0.0.1): delivered, so the refusal above was the policy and nothing else. (At least
    // the hook at 127.0.0.1: where `localhost` also resolves to ::1, that one stays refused.)
    t.clock().advance(chrono::Duration::minutes(5));
    t.smtp_dispatcher().drain().await.unwrap();
    assert!(!receiver.received().is_empty());
}

async fn webhooks_are_registered_listed_without_secrets_and_deleted_by_their_seat(t: TestApp) {
    let table = t.table(&tag()).await;
    let path = format!("/api/games/{}/webhooks", table.game_id);
    let (status, body) = t
        .call(
            reqwest::Method::POST,
            &path,
            Some(&table.tokens[0]),
            Some(json!({ "url": "ftp://example.org" })),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    let (status, _) = t
        .call(
            reqwest::Method::POST,
            &path,
            None,
            Some(json!({ "url": "https://example.org/h" })),
        )
        .await;
    assert_eq!(status, 401);
    let hook = t
        .hook(&table, 0, "https://example.org/h", "seat", "json")
        .await;
    assert_eq!(
        hook["secret"].as_str().unwrap().len(),
        64,
        "the secret is shown once"
    );
    let (_, listed) = t
        .call(reqwest::Method::GET, &path, Some(&table.tokens[0]), None)
        .await;
    assert_eq!(listed.as_array().unwrap().len(), 1);
    assert!(
        listed[0].get("secret").is_none(),
        "and never again: {listed}"
    );
    let (_, theirs) = t
        .call(reqwest::Method::GET, &path, Some(&table.tokens[1]), None)
        .await;
    assert_eq!(theirs, json!([]), "bert does not see anna's seat hook");
    let one = format!("{path}/{}", hook["hook_id"].as_str().unwrap());
    let (status, _) = t
        .call(reqwest::Method::DELETE, &one, Some(&table.tokens[1]), None)
        .await;
    assert_eq!(status, 404, "bert cannot delete anna's hook");
    let (status, _) = t
        .call(reqwest::Method::DELETE, &one, Some(&table.tokens[0]), None)
        .await;
    assert_eq!(status, 204);
    let (status, _) = t
        .call(reqwest::Method::DELETE, &one, Some(&table.tokens[0]), None)
        .await;
    assert_eq!(status, 404);
}

fn sample_context(event: &str) -> NoticeContext {
    NoticeContext {
        event: event.into(),
        game_id: "g-1234567890".into(),
        game_short: "g-123456".into(),
        seq: 7,
        head_seq: 7,
        head_hash: "ab".repeat(32),
        title: "The Open Table".into(),
        game_name: "José <et> Zoë Ångström — 李雷".into(),
        seat: "anna".into(),
        seat_name: "Anna <the Bold>".into(),
        players: vec!["Bert".into(), "Carla".into()],
        decision: Some("anna to move".into()),
        options: vec!["roll 2d6 <label>".into()],
        grammar: "free text".into(),
        lines: vec!["bert rolls 1d6: 4".into()],
        board: Some("  abc\n1 #<#\n".into()),
        link: "http://x/games/g?token=s1.anna.ab".into(),
        moves_link: "http://x/api/games/g/moves?token=s1.anna.ab".into(),
        unsubscribe_link: "http://x/api/games/g/unsubscribe?seat=anna&channel=email&sig=00".into(),
        reply_to: Some("play+g.anna.0011@reply.example".into()),
        deadline: Some("2026-03-02T10:00:00.000Z".into()),
        time_zone: Some("Europe/Paris".into()),
        hours_before: Some(24),
        misses: Some(1),
        consequence: Some("The game still waits for you.".into()),
        result: Some("anna wins".into()),
        verdict: Some("You won".into()),
        export_link: Some("http://x/api/games/g/export".into()),
        talk_from: Some("Bert <the Quiet>".into()),
        talk_text: Some("Shall we <parley>?".into()),
        talk_to_table: false,
        files: Vec::new(),
    }
}

#[test]
fn every_email_template_renders_with_strict_variables_and_escapes_html() {
    let on_disk: Vec<String> = std::fs::read_dir("templates/email")
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    for name in &on_disk {
        assert!(
            templates::TEMPLATES.iter().any(|(n, ..)| n == name),
            "templates/email/{name} is not compiled in"
        );
    }
    for (name, ..) in templates::TEMPLATES {
        let r = templates::render(name, &sample_context("turn")).unwrap();
        assert!(
            !r.subject.is_empty() && !r.subject.contains('\n'),
            "{name}: {}",
            r.subject
        );
        assert!(r.text.contains("Anna <the Bold>"), "{name} text");
        assert!(
            r.html.contains("Anna &lt;the Bold&gt;"),
            "{name} HTML escapes"
        );
        assert!(
            r.text.contains("unsubscribe?seat=anna"),
            "{name} has the unsubscribe link"
        );
    }
    // A misspelt variable fails instead of rendering empty.
    #[derive(serde::Serialize)]
    struct Missing {
        seat_name: String,
    }
    assert!(templates::render(
        "your_turn",
        &Missing {
            seat_name: "x".into()
        }
    )
    .is_err());
}

#[tokio::test]
async fn without_smtp_email_is_written_to_files_named_by_message_id() {
    let dir = tempfile::tempdir().unwrap();
    let mailer = Mailer::new(
        None,
        dir.path().join("mail"),
        "Despatch <d@example.org>",
        Duration::from_secs(1),
    )
    .unwrap();
    let d = EmailDelivery {
        to: "anna@example.org".into(),
        to_name: "Anna".into(),
        subject: "Your turn".into(),
        text: "text part".into(),
        html: "<p>html part</p>".into(),
        reply_to: None,
        message_id: "notice-1.g@example.org".into(),
        head: Some(LogHead {
            game_id: "g-1234".into(),
            seq: 7,
            hash: "ab".repeat(32),
        }),
        in_reply_to: None,
        references: Vec::new(),
        unsubscribe: Some(
            "https://d.example.org/api/games/g-1234/unsubscribe?seat=anna&channel=email&sig=ab"
                .into(),
        ),
        attachments: Vec::new(),
    };
    mailer.send(&d).await.unwrap();
    mailer.send(&d).await.unwrap();
    let files: Vec<_> = std::fs::read_dir(dir.path().join("mail"))
        .unwrap()
        .collect();
    assert_eq!(files.len(), 1, "the same message twice is the same file");
    let text = std::fs::read_to_string(files[0].as_ref().unwrap().path()).unwrap();
    assert!(text.contains("Message-ID: <notice-1.g@example.org>"));
    // RFC 8058: the one-click unsubscribe, which a mail client POSTs.
    assert!(
        text.contains("List-Unsubscribe: <https://d.example.org/api/games/g-1234/unsubscribe?seat=anna&channel=email&sig=ab>"),
        "{text}"
    );
    assert!(
        text.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"),
        "{text}"
    );
    assert!(text.contains("text part") && text.contains("html part"));
    // The saved message is a witness `despatch verify --witness` reads.
    let seen = despatch::engine::witness::parse(&text, "notice.eml").unwrap();
    assert_eq!(seen.len(), 1, "{text}");
    assert_eq!(seen[0].game_id.as_deref(), Some("g-1234"));
    assert_eq!((seen[0].seq, seen[0].hash.clone()), (7, "ab".repeat(32)));
}

/// Issue 16: a backlog of more notices for one seat than a round looks at (a dispatcher stopped
/// for a while) is let go oldest first before any of it is claimed: no round claims a notice a
/// later one says all of, so the seat gets one mail, composed from the latest, and every other
/// notice names it in `superseded_by`.
async fn a_backlog_of_one_seats_notices_is_let_go_before_any_is_claimed_and_sends_one_mail(
    t: TestApp,
) {
    const COPIES: i64 = 1_100;
    let tag = tag();
    let table = t.free_table(&tag).await;
    let d = t.smtp_dispatcher();
    d.drain().await.unwrap();
    assert_eq!(wait_for_mail(&format!("bert-{tag}"), 1).await.len(), 1);
    t.play(&table, &table.tokens[0], "The Guard crosses the Sambre.")
        .await;
    // The waiting notice, written again and again, as a stopped dispatcher would find it.
    let copy = format!(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {COPIES}) \
         INSERT INTO outbox (game_id, seq, channel, seat, payload, next_attempt_at) \
         SELECT o.game_id, o.seq, o.channel, o.seat, o.payload, o.next_attempt_at FROM outbox o, n \
         WHERE o.game_id = '{}' AND o.channel = 'turn' AND o.seat = 'bert' AND o.sent_at IS NULL",
        table.game_id
    );
    let copied = match &t.store {
        Store::Postgres(s) => sqlx::query(sqlx::AssertSqlSafe(copy))
            .execute(s.pool())
            .await
            .map(|r| r.rows_affected()),
        Store::Sqlite(s) => sqlx::query(sqlx::AssertSqlSafe(copy))
            .execute(s.pool())
            .await
            .map(|r| r.rows_affected()),
    };
    assert_eq!(copied.expect("copy the waiting notice"), COPIES as u64);
    d.drain().await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mail = wait_for_mail(&format!("bert-{tag}"), 2).await;
    assert_eq!(
        mail.len(),
        2,
        "the game's first notice and one for the backlog: {:?}",
        mail.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    assert!(
        mail.iter().any(|m| m.text.contains("crosses the Sambre")),
        "one mail tells of anna's move"
    );
    let turns: Vec<_> = t
        .store
        .outbox_states(&table.game_id)
        .await
        .unwrap()
        .into_iter()
        .filter(|s| s.row.record.channel == "turn" && s.row.record.seat.as_deref() == Some("bert"))
        .collect();
    assert_eq!(turns.len() as i64, 2 + COPIES);
    assert!(turns.iter().all(|s| s.sent), "none still waits");
    let latest = turns.iter().map(|s| s.row.id).max().unwrap();
    let let_go = turns
        .iter()
        .filter(|s| s.superseded_by == Some(latest))
        .count() as i64;
    assert_eq!(let_go, COPIES, "every notice but the latest names it");
}
