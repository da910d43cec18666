//! Issue 38, Searching for Glory's reactive windows (1.e) at the table: a seat's setting "pass
//! reactive windows for me when I hold no card that can answer" (`Channels::auto_pass`, set
//! over the API as the settings page sets it) makes the server pass for it at once, as the
//! seat's own ordinary event in the append of the move that opened the window, on both
//! backends. docs/notifications.md, "Settings".

use crate::common::notify::wait_for_mail;
use crate::common::{self, TestApp};
use chrono::Utc;
use despatch::engine::bot::Rng;
use despatch::engine::event::kind;
use despatch::engine::ruleset::PromptKind;
use despatch::games::clock::ManualClock;
use despatch::games::outbox::WindowNotices;
use serde_json::{json, Value};

on_both_backends!(
    a_seat_that_asked_passes_at_once_the_reactive_windows_it_cannot_answer,
    a_turn_notice_in_a_window_offers_the_seat_its_own_answering_cards,
    a_window_answered_within_the_delay_mails_nobody_and_one_left_open_mails_once,
);

/// On a clock the test moves (the dispatcher's "now"), set to the real time: the rows of an
/// append fall due by the database's own clock.
async fn spawn(backend: common::Backend) -> TestApp {
    common::spawn_app(backend)
        .move_rate(None)
        .clock(ManualClock::new(Utc::now()))
        .spawn()
        .await
}

/// Sets a seat's channels over the API with its token; the channels read back.
async fn put_channels(t: &TestApp, game_id: &str, token: &str, channels: Value) -> Value {
    let path = format!("/api/games/{game_id}/channels");
    let r = t
        .http
        .put(t.url(&path))
        .bearer_auth(token)
        .json(&channels)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let r = t
        .http
        .get(t.url(&path))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    r.json().await.unwrap()
}

/// Plays random legal moves in a Searching for Glory game whose seats all have the setting
/// `auto_pass`, for `moves` moves or to its end; after each, the seats prompted in a reaction
/// window it holds nothing to answer (`Rules::auto_pass`), and the passes the server made (a
/// seat's `pass` appended with another seat's move).
async fn play(t: &TestApp, auto_pass: bool, seed: u64, moves: usize) -> (usize, usize) {
    let ruleset = despatch::rules::find("searching-for-glory").unwrap();
    let created = t
        .games
        .create(common::bot::new_game(&ruleset, 0))
        .await
        .unwrap();
    let game_id = created.game_id.clone();
    for s in &created.seats {
        let channels = json!({ "email": true, "webhooks": true, "reminders": true, "digest": false, "auto_pass": auto_pass });
        assert_eq!(
            put_channels(t, &game_id, &s.token, channels.clone()).await,
            channels
        );
    }
    let mut rng = Rng::new(seed);
    let (mut idle, mut passed) = (0, 0);
    for _ in 0..moves {
        let before = t.store.events(&game_id, 0, None).await.unwrap().len();
        if !common::bot::bot_move(&t.games, &game_id, &mut rng)
            .await
            .unwrap()
        {
            break;
        }
        let events = t.store.events(&game_id, 0, None).await.unwrap();
        // The move's own event first; the passes after it, each its seat's own command.
        let mover = &events[before].seat;
        for e in &events[before + 1..] {
            if e.kind == kind::COMMAND && &e.seat != mover {
                assert_eq!(
                    ruleset.describe(&e.payload["command"]).unwrap(),
                    "pass",
                    "{e:?}"
                );
                passed += 1;
            }
        }
        let l = t.games.load(&game_id).await.unwrap();
        idle += l
            .game
            .prompts()
            .iter()
            .filter(|p| {
                p.kind == PromptKind::Reaction
                    && l.game.ruleset.auto_pass(&l.game.state, &p.seat).is_some()
            })
            .count();
    }
    (idle, passed)
}

/// With the setting on, no seat is ever left prompted in a window it cannot answer, and the
/// server's passes are in the log as the seats' own `pass` events; with it off (the default),
/// the same play leaves such seats prompted — the setting is what passes them.
async fn a_seat_that_asked_passes_at_once_the_reactive_windows_it_cannot_answer(t: TestApp) {
    let (idle, passed) = play(&t, false, 11, 150).await;
    assert!(idle > 0, "without the setting, seats wait in windows");
    assert_eq!(passed, 0, "nobody passes for a seat that did not ask");
    let (idle, passed) = play(&t, true, 11, 150).await;
    assert_eq!(idle, 0, "a seat with nothing to answer was left prompted");
    assert!(passed > 0, "the server passed for the seats");
}

/// 1.e in the turn mail: composed for a seat prompted in a reactive window, its legal moves are
/// `pass` and `react <card>` for each card of its own hand that can answer (as its page offers
/// them, `Rules::own_options`), never the `react <card>` form; a seat with no such card is
/// offered `pass` alone (and `refuse` where every seat is); the public prompt, in the summary,
/// keeps the form for every seat.
async fn a_turn_notice_in_a_window_offers_the_seat_its_own_answering_cards(t: TestApp) {
    use despatch::games::outbox::TURN;
    use despatch::notify::notice::compose;
    use despatch::store::{OutboxRecord, OutboxRow};

    let ruleset = despatch::rules::find("searching-for-glory").unwrap();
    let created = t
        .games
        .create(common::bot::new_game(&ruleset, 0))
        .await
        .unwrap();
    let game_id = created.game_id.clone();
    let mut rng = Rng::new(3);
    let (mut holders, mut without) = (0, 0);
    for _ in 0..400 {
        if holders > 0 && without > 0 {
            break;
        }
        let l = t.games.load(&game_id).await.unwrap();
        for p in l.game.prompts() {
            if p.kind != PromptKind::Reaction {
                continue;
            }
            assert!(
                p.options.contains(&"react <card>".to_owned()),
                "the public prompt"
            );
            let answering: Vec<String> = l
                .game
                .ruleset
                .hand(&l.game.state, &p.seat)
                .cards
                .into_iter()
                .flat_map(|c| c.orders)
                .collect();
            let row = OutboxRow {
                id: 0,
                record: OutboxRecord {
                    game_id: game_id.to_string(),
                    seq: l.game.next_seq - 1,
                    channel: TURN.into(),
                    seat: Some(p.seat.to_string()),
                    payload: json!({}),
                    delay: std::time::Duration::ZERO,
                },
            };
            let notice = compose(&t.games, &row, None).await.unwrap().unwrap();
            let options = notice.context.options;
            assert!(!options.contains(&"react <card>".to_owned()), "{options:?}");
            assert_eq!(options[0], "pass");
            let reacts: Vec<&String> = options.iter().filter(|o| o.starts_with("react ")).collect();
            let mut want: Vec<&String> = Vec::new();
            for o in &answering {
                if !want.contains(&o) {
                    want.push(o);
                }
            }
            assert_eq!(reacts, want, "{}'s own answering cards", p.seat);
            if answering.is_empty() {
                without += 1;
            } else {
                holders += 1;
            }
        }
        if !common::bot::bot_move(&t.games, &game_id, &mut rng)
            .await
            .unwrap()
        {
            break;
        }
    }
    assert!(
        holders > 0 && without > 0,
        "windows met a seat with an answering card ({holders}) and one without ({without})"
    );
}

/// The email deliveries the outbox holds for each seat of `game_id`.
async fn mails_per_seat(t: &TestApp, game_id: &str) -> std::collections::BTreeMap<String, usize> {
    let mut count = std::collections::BTreeMap::new();
    for s in t.store.outbox_states(game_id).await.unwrap() {
        if s.row.record.channel == "email" {
            *count
                .entry(s.row.record.seat.unwrap_or_default())
                .or_default() += 1;
        }
    }
    count
}

/// 1.e by email, gathered (docs/notifications.md, "Reactive windows' notices are gathered"): a
/// window's turn notice waits `WindowNotices` (15 minutes by default) before it is mailed. A
/// seat that answers meanwhile is sent nothing for it; a seat that leaves the window open is
/// mailed once, through the real SMTP server, when the delay has run out — offered `pass`.
async fn a_window_answered_within_the_delay_mails_nobody_and_one_left_open_mails_once(t: TestApp) {
    let tag = hex::encode(&despatch::engine::canonical::random32()[..5]);
    let ruleset = despatch::rules::find("searching-for-glory").unwrap();
    let mut new = common::bot::new_game(&ruleset, 0);
    for (i, seat) in new.seats.iter_mut().enumerate() {
        seat.email = Some(format!("seat{i}-{tag}@example.com"));
    }
    let created = t.games.create(new).await.unwrap();
    let game_id = created.game_id.clone();
    let address = |seat: &str| -> String {
        let i = created.seats.iter().position(|s| s.seat == seat).unwrap();
        format!("seat{i}-{tag}")
    };
    let d = t.smtp_dispatcher();
    let drain_now = || async {
        t.clock().set(Utc::now());
        d.drain().await.unwrap();
    };
    drain_now().await;

    // Random legal moves up to a window that prompts two seats or more, every notice due
    // sent along the way.
    let mut rng = Rng::new(7);
    let prompted = loop {
        let before = mails_per_seat(&t, &game_id).await;
        assert!(
            common::bot::bot_move(&t.games, &game_id, &mut rng)
                .await
                .unwrap(),
            "the game ended before a window prompted two seats"
        );
        drain_now().await;
        let l = t.games.load(&game_id).await.unwrap();
        let window: Vec<String> = l
            .game
            .prompts()
            .iter()
            .filter(|p| p.kind == PromptKind::Reaction)
            .map(|p| p.seat.to_string())
            .collect();
        if window.len() >= 2 {
            let after = mails_per_seat(&t, &game_id).await;
            for seat in &window {
                assert_eq!(
                    after.get(seat),
                    before.get(seat),
                    "{seat} was mailed at once for a window just opened"
                );
            }
            break window;
        }
    };

    // The first seat answers from its page within the delay; the others leave it open.
    let answering = created
        .seats
        .iter()
        .find(|s| s.seat == prompted[0])
        .unwrap();
    let l = t.games.load(&game_id).await.unwrap();
    let r = t
        .http
        .post(t.url(&format!("/api/games/{game_id}/moves")))
        .bearer_auth(&answering.token)
        .json(&json!({ "expected_seq": l.game.next_seq, "command": "pass" }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 201, "{}", r.text().await.unwrap());
    let before = mails_per_seat(&t, &game_id).await;
    let mailed_before: Vec<Vec<String>> = prompted
        .iter()
        .map(|s| {
            common::notify::delivered_to(&address(s))
                .into_iter()
                .map(|m| m.message_id)
                .collect()
        })
        .collect();
    drain_now().await;
    assert_eq!(
        mails_per_seat(&t, &game_id).await,
        before,
        "nothing is due yet"
    );

    t.clock().set(
        Utc::now() + WindowNotices::default().0 + chrono::Duration::minutes(1).to_std().unwrap(),
    );
    d.drain().await.unwrap();
    let after = mails_per_seat(&t, &game_id).await;
    assert_eq!(
        after.get(&prompted[0]),
        before.get(&prompted[0]),
        "{} answered the window: no mail for it",
        prompted[0]
    );
    for (i, seat) in prompted.iter().enumerate().skip(1) {
        let n = |m: &std::collections::BTreeMap<String, usize>| m.get(seat).copied().unwrap_or(0);
        assert_eq!(
            n(&after),
            n(&before) + 1,
            "{seat} is mailed once for the open window"
        );
        let mail = wait_for_mail(&address(seat), mailed_before[i].len() + 1).await;
        let new: Vec<_> = mail
            .iter()
            .filter(|m| !mailed_before[i].contains(&m.message_id))
            .collect();
        assert_eq!(new.len(), 1, "{seat}'s one mail arrived by SMTP");
        assert!(new[0].subject.contains("turn"), "{}", new[0].subject);
        assert!(
            new[0].text.lines().any(|l| l.trim() == "pass"),
            "the window's mail offers pass:\n{}",
            new[0].text
        );
    }
}
