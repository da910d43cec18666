//! The store's contract, one suite run against both backends: every function below takes a
//! freshly migrated `Store` and is run once on PostgreSQL (`postgres::…`) and once on SQLite
//! (`sqlite::…`) by the `contract!` list at the end.

use crate::common;

use std::collections::BTreeSet;
use std::sync::Arc;

use despatch::engine::canonical::sha256_hex;
use despatch::engine::dice::Roll;
use despatch::engine::event::{kind, DiceRecord, Event, GENESIS_HASH};
use despatch::engine::snapshot::Snapshot as GameSnapshot;
use despatch::store::{
    Append, GameRecord, Idempotency, OutboxRecord, SeatRecord, SecretRecord, Store, StoreError,
};
use serde_json::{json, Value};
use tokio::sync::Barrier;

const AT: &str = "2026-11-22T09:00:00.000Z";

fn record(game_id: &str) -> GameRecord {
    GameRecord {
        game_id: despatch::store::GameId::parse(game_id).unwrap(),
        ruleset: "open-table".into(),
        scenario: "default".into(),
        created_at: AT.into(),
        next_seq: 0,
        ended: false,
        name: "José — Zoë Ångström — 李雷".into(),
    }
}

fn seat(game_id: &str, seat: &str, token: &str) -> SeatRecord {
    SeatRecord {
        game_id: despatch::store::GameId::parse(game_id).unwrap(),
        seat: seat.into(),
        name: format!("{seat} the player"),
        email: Some(format!("{seat}@example.org")),
        token_hash: sha256_hex(token.as_bytes()),
    }
}

fn secret(game_id: &str, name: &str, value: Value) -> SecretRecord {
    SecretRecord {
        game_id: game_id.into(),
        name: name.into(),
        seat: None,
        value,
    }
}

fn notice(game_id: &str, seq: u64, seat: &str) -> OutboxRecord {
    OutboxRecord {
        game_id: game_id.into(),
        seq,
        channel: "email".into(),
        seat: Some(seat.into()),
        payload: json!({ "template": "your_turn", "seq": seq }),
        delay: std::time::Duration::ZERO,
    }
}

/// The event after `prev` on its game's hash chain.
fn next(prev: &Event, kind: &str, seat: &str, payload: Value) -> Event {
    Event::new(
        &prev.game_id,
        prev.seq + 1,
        kind,
        seat,
        payload,
        AT.into(),
        None,
        &prev.hash,
    )
}

fn command(prev: &Event, seat: &str, text: &str) -> Event {
    next(
        prev,
        kind::COMMAND,
        seat,
        json!({ "command": { "text": text } }),
    )
}

/// A realistic move: one event and the email telling the next seat.
fn move_append(event: Event) -> Append {
    let outbox = vec![notice(&event.game_id, event.seq, "bob")];
    Append {
        events: vec![event],
        outbox,
        ..Append::default()
    }
}

/// Creates `game_id` with seats alice and bob, a `GameCreated` event, the dice chain's tip and
/// one outbox row per seat; returns event 0.
async fn create(store: &Store, game_id: &str) -> Event {
    let created = Event::new(
        game_id,
        0,
        kind::GAME_CREATED,
        "system",
        json!({ "ruleset": "open-table", "seats": ["alice", "bob"], "dice_commitments": { "chain": 0, "s0": "ab" } }),
        AT.into(),
        None,
        GENESIS_HASH,
    );
    let append = Append {
        events: vec![created.clone()],
        secrets: vec![secret(
            game_id,
            "chain:0",
            json!({ "tip": format!("tip-of-{game_id}") }),
        )],
        outbox: vec![notice(game_id, 0, "alice"), notice(game_id, 0, "bob")],
        idempotency: None,
        once_per_seat: Vec::new(),
    };
    let seats = [
        seat(game_id, "alice", &format!("{game_id}-alice-token")),
        seat(game_id, "bob", &format!("{game_id}-bob-token")),
    ];
    store
        .create_game(&record(game_id), &seats, &append)
        .await
        .expect("create the game");
    created
}

async fn next_seq(store: &Store, game_id: &str) -> u64 {
    store
        .game(game_id)
        .await
        .unwrap()
        .expect("the game exists")
        .next_seq
}

/// Everything an append could have written, to show that a refused one wrote nothing.
#[derive(Debug, PartialEq)]
struct Snapshot {
    game: Option<GameRecord>,
    events: Vec<String>,
    secrets: Vec<SecretRecord>,
    outbox: usize,
}

async fn snapshot(store: &Store, game_id: &str) -> Snapshot {
    Snapshot {
        game: store.game(game_id).await.unwrap(),
        events: store.events_json(game_id, 0, None).await.unwrap(),
        secrets: store.secrets(game_id).await.unwrap(),
        outbox: store.outbox(game_id).await.unwrap().len(),
    }
}

async fn a_created_game_reads_back_with_its_seats_first_event_secrets_and_outbox(store: &Store) {
    let created = create(store, "g1").await;

    let game = store
        .game("g1")
        .await
        .unwrap()
        .expect("the game was created");
    assert_eq!(
        game,
        GameRecord {
            next_seq: 1,
            ..record("g1")
        }
    );
    assert_eq!(store.events("g1", 0, None).await.unwrap(), vec![created]);
    let seats = store.seats("g1").await.unwrap();
    assert_eq!(
        seats,
        vec![
            seat("g1", "alice", "g1-alice-token"),
            seat("g1", "bob", "g1-bob-token")
        ]
    );
    assert_eq!(
        store.secrets("g1").await.unwrap(),
        vec![secret("g1", "chain:0", json!({ "tip": "tip-of-g1" }))]
    );
    let outbox: Vec<_> = store
        .outbox("g1")
        .await
        .unwrap()
        .into_iter()
        .map(|row| row.record)
        .collect();
    assert_eq!(
        outbox,
        vec![notice("g1", 0, "alice"), notice("g1", 0, "bob")]
    );

    assert_eq!(store.game("nope").await.unwrap(), None);
    assert!(store.events("nope", 0, None).await.unwrap().is_empty());
}

async fn creating_a_game_with_a_taken_id_is_refused_and_changes_nothing(store: &Store) {
    create(store, "g1").await;
    let before = snapshot(store, "g1").await;
    let other = Event::new(
        "g1",
        0,
        kind::GAME_CREATED,
        "system",
        json!({ "other": true }),
        AT.into(),
        None,
        GENESIS_HASH,
    );
    let again = store
        .create_game(
            &record("g1"),
            &[seat("g1", "carol", "c")],
            &Append {
                events: vec![other],
                ..Append::default()
            },
        )
        .await;
    assert!(
        matches!(again, Err(StoreError::Duplicate(ref id)) if id == "g1"),
        "{again:?}"
    );
    assert_eq!(snapshot(store, "g1").await, before);
    assert_eq!(store.seats("g1").await.unwrap().len(), 2);
}

async fn an_append_at_the_expected_seq_moves_the_game_on_and_any_other_seq_is_stale(store: &Store) {
    let created = create(store, "g1").await;
    let first = command(&created, "alice", "advance");
    store
        .append("g1", 1, &move_append(first.clone()))
        .await
        .expect("append at the expected seq");
    assert_eq!(next_seq(store, "g1").await, 2);

    // Behind and ahead of the game are both stale, and both are told where the game is.
    for expected in [1, 3] {
        let late = Event {
            seq: expected,
            ..command(&first, "bob", "too late")
        };
        let stale = store.append("g1", expected, &move_append(late)).await;
        assert!(
            matches!(stale, Err(StoreError::Stale { current_seq: 2 })),
            "expected {expected}: {stale:?}"
        );
    }

    // Several events in one append move the game on by as many.
    let second = command(&first, "bob", "hold");
    let third = next(&second, kind::REVEALED, "bob", json!({ "choice": "left" }));
    let several = Append {
        events: vec![second, third.clone()],
        ..Append::default()
    };
    store
        .append("g1", 2, &several)
        .await
        .expect("append two events");
    let game = store.game("g1").await.unwrap().unwrap();
    assert_eq!((game.next_seq, game.ended), (4, false));

    let end = next(
        &third,
        kind::GAME_ENDED,
        "system",
        json!({ "hidden_seed": "00" }),
    );
    store
        .append("g1", 4, &move_append(end))
        .await
        .expect("append the end");
    let game = store.game("g1").await.unwrap().unwrap();
    assert_eq!(
        (game.next_seq, game.ended),
        (5, true),
        "GameEnded marks the game ended"
    );

    let orphan = Event {
        game_id: "nope".into(),
        ..command(&created, "alice", "x")
    };
    let missing = store.append("nope", 1, &move_append(orphan)).await;
    assert!(
        matches!(missing, Err(StoreError::NoGame(ref id)) if id == "nope"),
        "{missing:?}"
    );
}

async fn an_append_whose_events_do_not_run_on_from_the_expected_seq_is_refused(store: &Store) {
    let created = create(store, "g1").await;
    create(store, "g2").await;
    let before = snapshot(store, "g1").await;
    let first = command(&created, "alice", "advance");
    let gap = Event {
        seq: 3,
        ..command(&first, "alice", "again")
    };
    let refused = store
        .append(
            "g1",
            1,
            &Append {
                events: vec![first.clone(), gap],
                ..Append::default()
            },
        )
        .await;
    assert!(
        matches!(refused, Err(StoreError::Corrupt(_))),
        "{refused:?}"
    );
    let elsewhere = store.append("g2", 1, &move_append(first)).await;
    assert!(
        matches!(elsewhere, Err(StoreError::Corrupt(_))),
        "an event of g1 appended to g2: {elsewhere:?}"
    );
    assert_eq!(snapshot(store, "g1").await, before);
}

/// `rounds` rounds in which `contenders` appends, each made by `append(last event, round,
/// contender)`, race at the next seq of g1 (created first): exactly one wins each round and every
/// loser is told the seq the winner moved the game to. Returns the log.
async fn race(
    store: &Store,
    rounds: u64,
    contenders: usize,
    append: impl Fn(&Event, u64, usize) -> Append,
) -> Vec<Event> {
    let mut last = create(store, "g1").await;
    for round in 0..rounds {
        let expected = last.seq + 1;
        let barrier = Arc::new(Barrier::new(contenders));
        let tasks: Vec<_> = (0..contenders)
            .map(|n| {
                let (store, barrier) = (store.clone(), barrier.clone());
                let append = append(&last, round, n);
                tokio::spawn(async move {
                    barrier.wait().await;
                    store.append("g1", expected, &append).await
                })
            })
            .collect();
        let mut won = 0;
        for task in tasks {
            match task.await.expect("the task ran") {
                Ok(()) => won += 1,
                Err(StoreError::Stale { current_seq }) => {
                    assert_eq!(current_seq, expected + 1, "round {round}")
                }
                Err(other) => panic!("round {round}: the loser got {other:?}, not Stale"),
            }
        }
        assert_eq!(won, 1, "round {round}: exactly one append wins");
        last = store
            .events("g1", expected, None)
            .await
            .unwrap()
            .pop()
            .expect("the winner's event");
    }
    store.events("g1", 0, None).await.unwrap()
}

async fn two_concurrent_appends_to_one_game_exactly_one_wins_and_the_loser_is_told_the_current_seq(
    store: &Store,
) {
    const ROUNDS: u64 = 40;
    let events = race(store, ROUNDS, 4, |last, round, n| {
        move_append(command(
            last,
            "alice",
            &format!("round {round} contender {n}"),
        ))
    })
    .await;

    // Nothing lost, nothing doubled: one event and one outbox row per round, on an intact chain.
    assert_eq!(events.len() as u64, ROUNDS + 1);
    for pair in events.windows(2) {
        assert_eq!(pair[1].prev_hash, pair[0].hash);
        assert_eq!(pair[1].seq, pair[0].seq + 1);
    }
    assert_eq!(store.outbox("g1").await.unwrap().len() as u64, 2 + ROUNDS);
    assert_eq!(next_seq(store, "g1").await, ROUNDS + 1);
}

/// The move that uses a dice chain's last link also writes the next chain's secret, so two
/// moves racing on that link both write a secret of the same name: the loser is `Stale` like any
/// other (on PostgreSQL it may trip over the secrets' key before the events'), never a database
/// error.
async fn appends_racing_on_a_dice_chains_last_link_lose_as_stale(store: &Store) {
    const ROUNDS: u64 = 20;
    race(store, ROUNDS, 4, |last, round, n| {
        let mut append = move_append(command(
            last,
            "alice",
            &format!("round {round} contender {n}"),
        ));
        append.secrets.push(secret(
            "g1",
            &format!("chain:{}", round + 1),
            json!({ "tip": format!("tip {round} of contender {n}") }),
        ));
        append
    })
    .await;
    // One secret per chain: the winners'.
    assert_eq!(store.secrets("g1").await.unwrap().len() as u64, ROUNDS + 1);
}

async fn concurrent_appends_to_different_games_all_win(store: &Store) {
    const GAMES: usize = 6;
    let mut firsts = Vec::new();
    for n in 0..GAMES {
        firsts.push(create(store, &format!("g{n}")).await);
    }
    let barrier = Arc::new(Barrier::new(GAMES));
    let tasks: Vec<_> = firsts
        .iter()
        .map(|created| {
            let (store, barrier) = (store.clone(), barrier.clone());
            let event = command(created, "alice", "advance");
            tokio::spawn(async move {
                barrier.wait().await;
                store
                    .append(&event.game_id.clone(), 1, &move_append(event))
                    .await
            })
        })
        .collect();
    for task in tasks {
        task.await
            .expect("the task ran")
            .expect("games do not contend with each other");
    }
    for n in 0..GAMES {
        assert_eq!(next_seq(store, &format!("g{n}")).await, 2);
    }
}

async fn an_idempotency_key_used_twice_returns_the_first_response_and_writes_nothing(
    store: &Store,
) {
    let created = create(store, "g1").await;
    let first = command(&created, "alice", "advance");
    let keyed = |event: Event, key: &str, response: Value| Append {
        idempotency: Some(Idempotency {
            seat: "alice".into(),
            key: key.into(),
            request_hash: format!("request for seq {} {}", event.seq, event.payload),
            used_at: chrono::Utc::now(),
            response,
        }),
        secrets: vec![secret(
            &event.game_id,
            &format!("sealed:{}", event.seq),
            json!("salt"),
        )],
        ..move_append(event)
    };
    let answer = json!({ "status": 201, "events": [1] });
    store
        .append("g1", 1, &keyed(first.clone(), "k-1", answer.clone()))
        .await
        .expect("first use of the key");
    assert_eq!(
        store.idempotent("g1", "alice", "k-1").await.unwrap(),
        Some(answer.clone())
    );
    let after_first = snapshot(store, "g1").await;

    // The client retries the same command (same expected seq, now stale): it gets the first
    // answer. A different one under the same key (at the current seq) is refused as a reused key.
    let retry = store
        .append(
            "g1",
            1,
            &keyed(
                first.clone(),
                "k-1",
                json!({ "status": 201, "events": ["retry"] }),
            ),
        )
        .await;
    assert!(
        matches!(retry, Err(StoreError::Replayed { ref response }) if *response == answer),
        "{retry:?}"
    );
    let other = command(&first, "alice", "something else");
    let reused = store
        .append(
            "g1",
            2,
            &keyed(
                other.clone(),
                "k-1",
                json!({ "status": 201, "events": [2] }),
            ),
        )
        .await;
    assert!(matches!(reused, Err(StoreError::KeyReused)), "{reused:?}");
    assert_eq!(
        snapshot(store, "g1").await,
        after_first,
        "a replayed key writes nothing"
    );

    // Keys belong to a seat: bob's k-1 is a different key.
    let bobs = Append {
        idempotency: Some(Idempotency {
            seat: "bob".into(),
            key: "k-1".into(),
            request_hash: "bob's request".into(),
            used_at: chrono::Utc::now(),
            response: json!("bob's"),
        }),
        ..move_append(command(&first, "bob", "hold"))
    };
    store
        .append("g1", 2, &bobs)
        .await
        .expect("another seat's key of the same name");
    assert_eq!(
        store.idempotent("g1", "bob", "k-1").await.unwrap(),
        Some(json!("bob's"))
    );
    assert_eq!(store.idempotent("g1", "alice", "k-2").await.unwrap(), None);
}

async fn an_expired_idempotency_key_is_a_new_key_and_the_next_keyed_append_deletes_old_keys(
    store: &Store,
) {
    let created = create(store, "g1").await;
    let day_one = chrono::DateTime::parse_from_rfc3339(AT)
        .unwrap()
        .with_timezone(&chrono::Utc);
    let keyed = |event: Event, key: &str, at, response: Value| Append {
        idempotency: Some(Idempotency {
            seat: "alice".into(),
            key: key.into(),
            request_hash: format!("request for seq {}", event.seq),
            used_at: at,
            response,
        }),
        ..move_append(event)
    };
    let first = command(&created, "alice", "first");
    store
        .append("g1", 1, &keyed(first.clone(), "k", day_one, json!("first")))
        .await
        .unwrap();
    let second = command(&first, "alice", "second");
    store
        .append(
            "g1",
            2,
            &keyed(second.clone(), "old", day_one, json!("old")),
        )
        .await
        .unwrap();

    // 23 hours on, "k" is alive: a different request under it is refused, and the store's
    // answer to its own request is the saved one.
    let later = day_one + chrono::Duration::hours(23);
    let third = command(&second, "alice", "third");
    let refused = store
        .append("g1", 3, &keyed(third.clone(), "k", later, json!("third")))
        .await;
    assert!(matches!(refused, Err(StoreError::KeyReused)), "{refused:?}");
    assert_eq!(
        store
            .saved_answer("g1", "alice", "k", "request for seq 1", later)
            .await
            .unwrap(),
        Some(json!("first"))
    );
    assert!(matches!(
        store
            .saved_answer("g1", "alice", "k", "another request", later)
            .await,
        Err(StoreError::KeyReused)
    ));

    // 25 hours on it has expired: the same key is a new key, and the move goes in.
    let next_day = day_one + chrono::Duration::hours(25);
    assert_eq!(
        store
            .saved_answer("g1", "alice", "k", "request for seq 3", next_day)
            .await
            .unwrap(),
        None
    );
    store
        .append(
            "g1",
            3,
            &keyed(third.clone(), "k", next_day, json!("third")),
        )
        .await
        .expect("an expired key is a new key");
    assert_eq!(next_seq(store, "g1").await, 4);
    assert_eq!(
        store.idempotent("g1", "alice", "k").await.unwrap(),
        Some(json!("third"))
    );
    // The keyed append deleted the game's other expired key.
    assert_eq!(store.idempotent("g1", "alice", "old").await.unwrap(), None);
}

async fn concurrent_retries_under_one_idempotency_key_write_once_and_all_get_the_first_response(
    store: &Store,
) {
    const ROUNDS: u64 = 15;
    const RETRIES: usize = 4;
    let mut last = create(store, "g1").await;
    for round in 0..ROUNDS {
        let expected = last.seq + 1;
        let key = format!("key-{round}");
        let barrier = Arc::new(Barrier::new(RETRIES));
        let tasks: Vec<_> = (0..RETRIES)
            .map(|n| {
                let (store, barrier) = (store.clone(), barrier.clone());
                let append = Append {
                    idempotency: Some(Idempotency {
                        seat: "alice".into(),
                        key: key.clone(),
                        // Retries of one request: the same request, the same hash.
                        request_hash: format!("request of round {round}"),
                        used_at: chrono::Utc::now(),
                        response: json!({ "by": n }),
                    }),
                    ..move_append(command(&last, "alice", &format!("round {round} try {n}")))
                };
                tokio::spawn(async move {
                    barrier.wait().await;
                    (n, store.append("g1", expected, &append).await)
                })
            })
            .collect();
        let mut winner = None;
        let mut replayed = Vec::new();
        for task in tasks {
            match task.await.expect("the task ran") {
                (n, Ok(())) => {
                    assert_eq!(winner, None, "round {round}: two retries both wrote");
                    winner = Some(n);
                }
                (_, Err(StoreError::Replayed { response })) => replayed.push(response),
                (_, Err(other)) => {
                    panic!("round {round}: a retry got {other}, not the first response")
                }
            }
        }
        let winner = winner.expect("one retry wrote");
        assert!(
            replayed.iter().all(|r| *r == json!({ "by": winner })),
            "round {round}: {replayed:?}"
        );
        last = store
            .events("g1", expected, None)
            .await
            .unwrap()
            .pop()
            .expect("the winner's event");
    }
    assert_eq!(
        store.events("g1", 0, None).await.unwrap().len() as u64,
        ROUNDS + 1
    );
}

async fn range_reads_return_the_events_from_the_first_seq_up_to_but_not_including_the_last(
    store: &Store,
) {
    let mut last = create(store, "g1").await;
    create(store, "g2").await;
    for n in 1..10 {
        let event = command(&last, "alice", &format!("move {n}"));
        store
            .append("g1", n, &move_append(event.clone()))
            .await
            .unwrap();
        last = event;
    }
    let seqs = |events: Vec<Event>| events.into_iter().map(|e| e.seq).collect::<Vec<_>>();
    assert_eq!(
        seqs(store.events("g1", 0, None).await.unwrap()),
        (0..10).collect::<Vec<_>>()
    );
    assert_eq!(
        seqs(store.events("g1", 3, Some(7)).await.unwrap()),
        vec![3, 4, 5, 6]
    );
    assert_eq!(seqs(store.events("g1", 8, None).await.unwrap()), vec![8, 9]);
    assert_eq!(seqs(store.events("g1", 0, Some(1)).await.unwrap()), vec![0]);
    assert_eq!(
        seqs(store.events("g1", 5, Some(5)).await.unwrap()),
        Vec::<u64>::new()
    );
    assert_eq!(
        seqs(store.events("g1", 10, None).await.unwrap()),
        Vec::<u64>::new()
    );
    assert_eq!(
        seqs(store.events("g1", 7, Some(u64::MAX)).await.unwrap()),
        vec![7, 8, 9]
    );
    assert_eq!(
        seqs(store.events("g1", u64::MAX, None).await.unwrap()),
        Vec::<u64>::new()
    );
    assert_eq!(
        seqs(store.events("g2", 0, None).await.unwrap()),
        vec![0],
        "another game's log is its own"
    );
    assert_eq!(store.events_json("g1", 3, Some(7)).await.unwrap().len(), 4);
}

async fn secrets_are_kept_in_their_own_table_and_in_no_event(store: &Store) {
    let created = create(store, "g1").await;
    create(store, "g2").await;
    let choice = "march on the ford at dawn";
    let sealed = next(
        &created,
        kind::COMMAND,
        "alice",
        json!({ "commitment": sha256_hex(choice.as_bytes()) }),
    );
    let append = Append {
        secrets: vec![SecretRecord {
            game_id: "g1".into(),
            name: "sealed:1".into(),
            seat: Some("alice".into()),
            value: json!({ "choice": choice, "salt": "5a17" }),
        }],
        ..move_append(sealed)
    };
    store.append("g1", 1, &append).await.unwrap();

    let secrets = store.secrets("g1").await.unwrap();
    let names: BTreeSet<_> = secrets.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, BTreeSet::from(["chain:0", "sealed:1"]));
    assert_eq!(
        secrets
            .iter()
            .find(|s| s.name == "sealed:1")
            .unwrap()
            .seat
            .as_deref(),
        Some("alice")
    );
    for line in store.events_json("g1", 0, None).await.unwrap() {
        assert!(
            !line.contains(choice) && !line.contains("5a17") && !line.contains("tip-of-g1"),
            "a secret in {line}"
        );
    }
    let theirs = store.secrets("g2").await.unwrap();
    assert_eq!(
        theirs,
        vec![secret("g2", "chain:0", json!({ "tip": "tip-of-g2" }))],
        "secrets are per game"
    );
}

async fn outbox_rows_are_written_in_the_same_transaction_as_their_event(store: &Store) {
    let created = create(store, "g1").await;
    let first = command(&created, "alice", "advance");
    let append = Append {
        outbox: vec![
            notice("g1", 1, "bob"),
            OutboxRecord {
                channel: "live".into(),
                seat: None,
                ..notice("g1", 1, "bob")
            },
        ],
        ..move_append(first.clone())
    };
    store.append("g1", 1, &append).await.unwrap();
    let rows = store.outbox("g1").await.unwrap();
    assert_eq!(rows.len(), 4);
    assert!(
        rows.windows(2).all(|pair| pair[0].id < pair[1].id),
        "oldest first"
    );
    let written: Vec<_> = rows[2..].iter().map(|row| row.record.clone()).collect();
    assert_eq!(written, append.outbox);

    // A stale append and one that breaks a key (a secret name already taken) leave no event,
    // no outbox row, no secret and no idempotency key behind.
    let before = snapshot(store, "g1").await;
    let stale = Append {
        secrets: vec![secret("g1", "sealed:x", json!(1))],
        idempotency: Some(Idempotency {
            seat: "bob".into(),
            key: "k".into(),
            request_hash: "h".into(),
            used_at: chrono::Utc::now(),
            response: json!(1),
        }),
        ..move_append(Event {
            seq: 1,
            ..command(&first, "bob", "late")
        })
    };
    assert!(matches!(
        store.append("g1", 1, &stale).await,
        Err(StoreError::Stale { current_seq: 2 })
    ));
    let clash = Append {
        secrets: vec![
            secret("g1", "sealed:new", json!(1)),
            secret("g1", "chain:0", json!("a second tip")),
        ],
        idempotency: Some(Idempotency {
            seat: "bob".into(),
            key: "k".into(),
            request_hash: "h".into(),
            used_at: chrono::Utc::now(),
            response: json!(1),
        }),
        ..move_append(command(&first, "bob", "hold"))
    };
    let failed = store.append("g1", 2, &clash).await;
    assert!(
        matches!(failed, Err(StoreError::Db(_))),
        "a duplicate secret name: {failed:?}"
    );
    assert_eq!(
        snapshot(store, "g1").await,
        before,
        "a failed append leaves no trace"
    );
    assert_eq!(
        store.idempotent("g1", "bob", "k").await.unwrap(),
        None,
        "the failed append kept no key"
    );

    // The same move without the clash goes through: nothing of the failure was left locked or half-written.
    let clean = Append {
        secrets: vec![secret("g1", "sealed:new", json!(1))],
        ..clash
    };
    store
        .append("g1", 2, &clean)
        .await
        .expect("the corrected append");
    assert_eq!(store.outbox("g1").await.unwrap().len(), 5);
}

async fn a_seat_is_found_by_the_hash_of_its_token_and_only_in_its_own_game(store: &Store) {
    create(store, "g1").await;
    create(store, "g2").await;
    let bob = sha256_hex(b"g1-bob-token");
    assert_eq!(
        store.seat_by_token("g1", &bob).await.unwrap(),
        Some(seat("g1", "bob", "g1-bob-token"))
    );
    assert_eq!(
        store.seat_by_token("g2", &bob).await.unwrap(),
        None,
        "g1's token opens nothing in g2"
    );
    assert_eq!(
        store
            .seat_by_token("g1", &sha256_hex(b"a guess"))
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        store.seat_by_token("g1", "g1-bob-token").await.unwrap(),
        None,
        "the raw token is not what is stored"
    );
}

async fn events_read_back_byte_identical_with_their_hashes_intact(store: &Store) {
    let created = create(store, "g1").await;
    let awkward = json!({
        "text": "Ney's corps \u{2014} «en avant» 🎲 \"quoted\" \\ back\nslash\t\u{0001}",
        "numbers": [0, -1, 9007199254740993u64, 1.5, 1e-7, 123456.789],
        "nested": { "z": [], "a": {}, "m": null, "b": true },
        "unicode_key_é": "x",
    });
    let rolled = Event::new(
        "g1",
        1,
        kind::COMMAND,
        "alice",
        awkward,
        AT.into(),
        Some(DiceRecord {
            chain: 0,
            index: 1,
            link: "ab".repeat(32),
            client_entropy: "c0ffee".into(),
            rolls: vec![
                Roll { sides: 6, face: 4 },
                Roll {
                    sides: 10,
                    face: 10,
                },
            ],
        }),
        &created.hash,
    );
    let plain = command(&rolled, "bob", "hold");
    let appended = vec![created.clone(), rolled.clone(), plain.clone()];
    store
        .append(
            "g1",
            1,
            &Append {
                events: vec![rolled, plain],
                ..Append::default()
            },
        )
        .await
        .unwrap();

    let lines = store.events_json("g1", 0, None).await.unwrap();
    let expected: Vec<String> = appended
        .iter()
        .map(|e| serde_json::to_string(e).unwrap())
        .collect();
    assert_eq!(
        lines, expected,
        "the stored text is the serialised event, byte for byte"
    );
    let events = store.events("g1", 0, None).await.unwrap();
    assert_eq!(events, appended);
    for (event, prev) in events
        .iter()
        .zip(std::iter::once(GENESIS_HASH).chain(events.iter().map(|e| e.hash.as_str())))
    {
        assert_eq!(
            event.compute_hash(),
            event.hash,
            "event {} hashes to its stored hash",
            event.seq
        );
        assert_eq!(
            event.prev_hash, prev,
            "event {} links to the one before",
            event.seq
        );
    }
}

/// Two stores on one database stand for two server processes: their appends to one game race
/// in the database itself, not in one process's queue.
async fn two_stores_on_one_database_racing_on_one_game_let_exactly_one_append_win(url: &str) {
    const ROUNDS: u64 = 30;
    let (a, b) = (
        Store::connect(url)
            .await
            .unwrap()
            .with_key(common::test_key()),
        Store::connect(url)
            .await
            .unwrap()
            .with_key(common::test_key()),
    );
    let mut last = create(&a, "g1").await;
    for round in 0..ROUNDS {
        let expected = last.seq + 1;
        let barrier = Arc::new(Barrier::new(2));
        let tasks: Vec<_> = [a.clone(), b.clone()]
            .into_iter()
            .enumerate()
            .map(|(n, store)| {
                let barrier = barrier.clone();
                let event = command(&last, "alice", &format!("round {round} store {n}"));
                tokio::spawn(async move {
                    barrier.wait().await;
                    store.append("g1", expected, &move_append(event)).await
                })
            })
            .collect();
        let mut won = 0;
        for task in tasks {
            match task.await.expect("the task ran") {
                Ok(()) => won += 1,
                Err(StoreError::Stale { current_seq }) => {
                    assert_eq!(current_seq, expected + 1, "round {round}")
                }
                Err(other) => panic!("round {round}: {other}"),
            }
        }
        assert_eq!(won, 1, "round {round}: exactly one append wins");
        last = a
            .events("g1", expected, None)
            .await
            .unwrap()
            .pop()
            .expect("the winner's event");
    }
    assert_eq!(
        b.events("g1", 0, None).await.unwrap().len() as u64,
        ROUNDS + 1
    );
    assert_eq!(b.outbox("g1").await.unwrap().len() as u64, 2 + ROUNDS);
}

/// `store::pg_batch`: moves of many games at once share group-commit statements, with their
/// notices written once per seat, and no statement fails. A failed batch is written again append
/// by append, so every answer above would still be right; only the count shows it (a CTE
/// named as another once made every batch fail, and the moves halved with every test passing).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_moves_of_many_games_are_group_committed_and_no_batch_falls_back_on_postgres() {
    const GAMES: usize = 16;
    const MOVES: u64 = 8;
    let (store, _db) = common::fresh_postgres().await;
    let before = store.batched_appends().expect("a PostgreSQL store batches");
    let mut firsts = Vec::new();
    for n in 0..GAMES {
        firsts.push(create(&store, &format!("g{n}")).await);
    }
    let barrier = Arc::new(Barrier::new(GAMES));
    let tasks: Vec<_> = firsts
        .into_iter()
        .map(|created| {
            let (store, barrier) = (store.clone(), barrier.clone());
            tokio::spawn(async move {
                barrier.wait().await;
                let mut prev = created;
                for _ in 0..MOVES {
                    let (game, seq) = (prev.game_id.clone(), prev.seq + 1);
                    let outbox = vec![
                        kind_of_notice(&game, seq, "turn", "bob"),
                        kind_of_notice(&game, seq, "email", "alice"),
                    ];
                    prev = append_once(&store, &prev, outbox).await;
                }
            })
        })
        .collect();
    for task in tasks {
        task.await.expect("every game's moves are written");
    }
    let after = store.batched_appends().unwrap();
    assert_eq!(
        after.failed - before.failed,
        0,
        "no batch statement may fail: {after:?}"
    );
    assert_eq!(
        after.appends - before.appends,
        GAMES as u64 * MOVES,
        "every one-event move goes through a batch: {after:?}"
    );
    assert!(after.statements > before.statements, "{after:?}");
    for n in 0..GAMES {
        let game = format!("g{n}");
        assert_eq!(next_seq(&store, &game).await, MOVES + 1);
        let waiting = store.outbox(&game).await.unwrap();
        let turns = waiting
            .iter()
            .filter(|o| o.record.channel == "turn")
            .count();
        let emails = waiting
            .iter()
            .filter(|o| o.record.channel == "email")
            .count();
        assert_eq!(
            turns, 1,
            "{game}: one turn notice waits for bob, written once"
        );
        assert_eq!(
            emails,
            MOVES as usize + 2,
            "{game}: every move's other row is written"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_postgres_stores_on_one_database_racing_on_one_game_let_exactly_one_append_win() {
    let (_, db) = common::fresh_postgres().await;
    two_stores_on_one_database_racing_on_one_game_let_exactly_one_append_win(db.url()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_sqlite_stores_on_one_file_racing_on_one_game_let_exactly_one_append_win() {
    let (_, db) = common::fresh_sqlite().await;
    two_stores_on_one_database_racing_on_one_game_let_exactly_one_append_win(db.url()).await;
}

/// A retry racing its first attempt across processes, made deterministic: the first attempt
/// holds event 1 and its key uncommitted while the retry's statement starts (so the key
/// check inside the statement cannot see the key) and waits for the row. Once the first commits,
/// the retry must answer with the first response and write nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_retry_waiting_on_its_first_attempt_in_another_process_gets_the_first_response_on_postgres(
) {
    let (store, db) = common::fresh_postgres().await;
    let created = create(&store, "g1").await;
    let first = command(&created, "alice", "advance");
    let retried = command(&created, "alice", "advance (retried)");

    // The first attempt, in "another process": event 1 with key k, written by hand and held open.
    let other = sqlx::PgPool::connect(db.url()).await.unwrap();
    let mut tx = other.begin().await.unwrap();
    sqlx::query(
        "INSERT INTO events (game_id, seq, kind, seat, hash, prev_hash, body) VALUES ('g1', 1, $1, $2, $3, $4, $5)",
    )
    .bind(&first.kind)
    .bind(&first.seat)
    .bind(&first.hash)
    .bind(&first.prev_hash)
    .bind(serde_json::to_string(&first).unwrap())
    .execute(&mut *tx)
    .await
    .unwrap();
    sqlx::query("INSERT INTO idempotency (game_id, seat, key, response) VALUES ('g1', 'alice', 'k', '\"first\"')")
        .execute(&mut *tx)
        .await
        .unwrap();

    // The retry, through the store, at the same expected seq and with the same key.
    let append = Append {
        idempotency: Some(Idempotency {
            seat: "alice".into(),
            key: "k".into(),
            request_hash: "h".into(),
            used_at: chrono::Utc::now(),
            response: json!("second"),
        }),
        ..move_append(retried)
    };
    let racing = {
        let store = store.clone();
        tokio::spawn(async move { store.append("g1", 1, &append).await })
    };
    let mut waited = false;
    for _ in 0..200 {
        let waiting: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        )
        .fetch_one(&other)
        .await
        .unwrap();
        if waiting > 0 {
            waited = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(
        waited,
        "the append never waited for the uncommitted event 1"
    );
    tx.commit().await.unwrap();

    let answer = racing.await.unwrap();
    assert!(
        matches!(answer, Err(StoreError::Replayed { ref response }) if *response == json!("first")),
        "{answer:?}"
    );
    assert_eq!(next_seq(&store, "g1").await, 2, "the retry wrote nothing");
    assert_eq!(
        store.events("g1", 0, None).await.unwrap(),
        vec![created, first]
    );
    assert_eq!(
        store.outbox("g1").await.unwrap().len(),
        2,
        "only the creation's outbox rows"
    );
}

/// A game's snapshot as the store keeps it.
fn kind_of_notice(game_id: &str, seq: u64, channel: &str, seat: &str) -> OutboxRecord {
    OutboxRecord {
        channel: channel.into(),
        ..notice(game_id, seq, seat)
    }
}

/// Appends the next command of `game_id` (after `prev`) with `outbox`; returns the event.
async fn append_with(store: &Store, prev: &Event, outbox: Vec<OutboxRecord>) -> Event {
    append_next(store, prev, outbox, &[]).await
}

/// `append_with`, its `turn` rows written once per seat (`Append::once_per_seat`).
async fn append_once(store: &Store, prev: &Event, outbox: Vec<OutboxRecord>) -> Event {
    append_next(store, prev, outbox, &["turn"]).await
}

async fn append_next(
    store: &Store,
    prev: &Event,
    outbox: Vec<OutboxRecord>,
    once_per_seat: &[&str],
) -> Event {
    let event = command(prev, "alice", "on");
    store
        .append(
            &prev.game_id,
            prev.seq + 1,
            &Append {
                events: vec![event.clone()],
                outbox,
                once_per_seat: once_per_seat.iter().map(|c| (*c).to_owned()).collect(),
                ..Append::default()
            },
        )
        .await
        .unwrap();
    event
}

/// Issue 16, docs/notifications.md ("One mail for many moves"): a due `turn` or `reminder`
/// notice is let go when a later `turn` notice to the same seat of the same game waits; the
/// latest never is, nor any other kind, another seat's, another game's, or a row a dispatcher
/// holds.
async fn a_waiting_notice_is_let_go_only_for_a_later_turn_notice_to_the_same_seat(store: &Store) {
    let kinds = ["turn", "reminder"];
    let now = chrono::Utc::now() + chrono::Duration::days(1);
    let e0 = create(store, "g1").await;
    let e1 = append_with(
        store,
        &e0,
        vec![
            kind_of_notice("g1", 1, "turn", "bob"),
            kind_of_notice("g1", 1, "reminder", "bob"),
            kind_of_notice("g1", 1, "deadline", "bob"),
            kind_of_notice("g1", 1, "turn", "alice"),
        ],
    )
    .await;
    let e2 = append_with(
        store,
        &e1,
        vec![
            kind_of_notice("g1", 2, "turn", "bob"),
            kind_of_notice("g1", 2, "talk", "bob"),
        ],
    )
    .await;
    let e3 = append_with(store, &e2, vec![kind_of_notice("g1", 3, "turn", "bob")]).await;
    let other = create(store, "g2").await;
    append_with(store, &other, vec![kind_of_notice("g2", 1, "turn", "bob")]).await;
    let before_g2 = store.outbox_states("g2").await.unwrap();

    // At most `limit` due notices at a time, then the rest: of bob's turn and reminder of
    // event 1 and turn of event 2, alice's, bob's of event 3 and g2's, three go.
    let first = store
        .supersede_waiting(now, &kinds, "turn", 2)
        .await
        .unwrap();
    assert_eq!(first.looked, 2, "{first:?}");
    let rest = store
        .supersede_waiting(now, &kinds, "turn", 1024)
        .await
        .unwrap();
    assert_eq!(rest.looked, 6 - first.let_go, "{rest:?}");
    assert_eq!(first.let_go + rest.let_go, 3, "{first:?} {rest:?}");
    let states = store.outbox_states("g1").await.unwrap();
    let find = |seq: u64, channel: &str, seat: &str| {
        states
            .iter()
            .find(|s| {
                s.row.record.seq == seq
                    && s.row.record.channel == channel
                    && s.row.record.seat.as_deref() == Some(seat)
            })
            .unwrap_or_else(|| panic!("no {channel} notice for {seat} at {seq}"))
    };
    let latest = find(3, "turn", "bob");
    assert!(!latest.sent && latest.superseded_by.is_none(), "{latest:?}");
    for (seq, channel) in [(1, "turn"), (1, "reminder"), (2, "turn")] {
        let gone = find(seq, channel, "bob");
        assert!(gone.sent, "{gone:?}");
        assert_eq!(gone.superseded_by, Some(latest.row.id), "{gone:?}");
        assert_eq!(gone.attempts, 0, "never claimed: {gone:?}");
    }
    for (seq, channel, seat) in [
        (1, "deadline", "bob"),
        (2, "talk", "bob"),
        (1, "turn", "alice"),
    ] {
        let kept = find(seq, channel, seat);
        assert!(!kept.sent && kept.superseded_by.is_none(), "{kept:?}");
    }
    assert_eq!(
        store.outbox_states("g2").await.unwrap(),
        before_g2,
        "another game's notice to a seat of the same name is its own"
    );
    assert_eq!(
        store
            .supersede_waiting(now, &kinds, "turn", 1024)
            .await
            .unwrap()
            .let_go,
        0,
        "once let go, nothing more to do"
    );

    // A notice a dispatcher holds is its own until the lease runs out.
    let lease_end = now + chrono::Duration::hours(1);
    let claimed = store.claim_outbox(now, lease_end, 100, "d1").await.unwrap();
    assert!(claimed.iter().any(|c| c.row.id == latest.row.id));
    append_with(store, &e3, vec![kind_of_notice("g1", 4, "turn", "bob")]).await;
    assert_eq!(
        store
            .supersede_waiting(now, &kinds, "turn", 1024)
            .await
            .unwrap()
            .let_go,
        0
    );
    let after_lease = lease_end + chrono::Duration::seconds(1);
    assert_eq!(
        store
            .supersede_waiting(after_lease, &kinds, "turn", 1024)
            .await
            .unwrap()
            .let_go,
        1,
        "the lease ran out: the held notice is let go for the later one"
    );
    let states = store.outbox_states("g1").await.unwrap();
    let fourth = states
        .iter()
        .find(|s| s.row.record.seq == 4)
        .expect("the fourth notice");
    let third = states
        .iter()
        .find(|s| s.row.id == latest.row.id)
        .expect("the third notice");
    assert_eq!(third.superseded_by, Some(fourth.row.id));
    assert!(!fourth.sent);
}

/// Issue 16, `Append::once_per_seat`: a `turn` row is not written while one waits for the same
/// seat unclaimed; it is written for another seat, beside rows of other channels, once the
/// waiting one is taken by a dispatcher, and by an append that does not ask for it.
async fn a_row_written_once_per_seat_waits_alone_until_a_dispatcher_takes_it(store: &Store) {
    let e0 = create(store, "g1").await;
    let e1 = append_once(
        store,
        &e0,
        vec![
            kind_of_notice("g1", 1, "turn", "bob"),
            kind_of_notice("g1", 1, "turn", "alice"),
        ],
    )
    .await;
    let e2 = append_once(
        store,
        &e1,
        vec![
            kind_of_notice("g1", 2, "turn", "bob"),
            kind_of_notice("g1", 2, "talk", "bob"),
        ],
    )
    .await;
    let turns = |rows: Vec<despatch::store::OutboxRow>, seat: &str| -> Vec<u64> {
        rows.iter()
            .filter(|r| r.record.channel == "turn" && r.record.seat.as_deref() == Some(seat))
            .map(|r| r.record.seq)
            .collect()
    };
    let rows = store.outbox("g1").await.unwrap();
    assert_eq!(
        turns(rows.clone(), "bob"),
        vec![1],
        "bob's turn of event 1 waits"
    );
    assert_eq!(turns(rows.clone(), "alice"), vec![1]);
    assert!(
        rows.iter()
            .any(|r| r.record.channel == "talk" && r.record.seq == 2),
        "another channel is written"
    );
    assert_eq!(
        next_seq(store, "g1").await,
        3,
        "the events went in all the same"
    );

    // A dispatcher takes bob's waiting turn: the next is written, and the one after waits.
    let now = chrono::Utc::now() + chrono::Duration::days(1);
    store
        .claim_outbox(now, now + chrono::Duration::hours(1), 100, "d1")
        .await
        .unwrap();
    let e3 = append_once(store, &e2, vec![kind_of_notice("g1", 3, "turn", "bob")]).await;
    let e4 = append_once(store, &e3, vec![kind_of_notice("g1", 4, "turn", "bob")]).await;
    assert_eq!(turns(store.outbox("g1").await.unwrap(), "bob"), vec![1, 3]);
    append_with(store, &e4, vec![kind_of_notice("g1", 5, "turn", "bob")]).await;
    assert_eq!(
        turns(store.outbox("g1").await.unwrap(), "bob"),
        vec![1, 3, 5],
        "an append that does not ask writes every row"
    );
}

/// Issue 38, a reactive window's notices gathered (`OutboxRecord::delay`): a delayed `turn` row
/// is not due until its delay has passed; while it waits, a delayed row for the same seat is not
/// written and pushes the waiting one back to its own due time; a row at once is not written
/// either and pulls the waiting one forward to now — one row, due at once, that says them all.
/// An append that does not go in moves nothing.
async fn a_delayed_notice_waits_alone_pushed_back_by_later_windows_and_pulled_forward_by_a_turn(
    store: &Store,
) {
    let delayed = |seq: u64, seat: &str, minutes: u64| OutboxRecord {
        delay: std::time::Duration::from_secs(minutes * 60),
        ..kind_of_notice("g1", seq, "turn", seat)
    };
    let start = chrono::Utc::now();
    let minutes = |m: i64| start + chrono::Duration::minutes(m);
    // Claims the due turn rows at `at` (holding them an hour): the seq and seat of each.
    let claim = |at: chrono::DateTime<chrono::Utc>| async move {
        let claimed = store
            .claim_outbox(at, at + chrono::Duration::hours(1), 100, "d1")
            .await
            .unwrap();
        claimed
            .into_iter()
            .filter(|c| c.row.record.channel == "turn")
            .map(|c| (c.row.record.seq, c.row.record.seat.unwrap()))
            .collect::<Vec<_>>()
    };
    let bob = |seq: u64| vec![(seq, "bob".to_owned())];
    let turns = |rows: Vec<despatch::store::OutboxRow>| -> Vec<u64> {
        rows.iter()
            .filter(|r| r.record.channel == "turn" && r.record.seat.as_deref() == Some("bob"))
            .map(|r| r.record.seq)
            .collect()
    };

    let e0 = create(store, "g1").await;
    let e1 = append_once(
        store,
        &e0,
        vec![
            delayed(1, "bob", 10),
            kind_of_notice("g1", 1, "turn", "alice"),
        ],
    )
    .await;
    assert_eq!(
        claim(minutes(1)).await,
        vec![(1, "alice".to_owned())],
        "alice's turn is due at once, bob's window notice is not"
    );

    // Another window for bob, twenty minutes long: no second row; his waits until then.
    let e2 = append_once(store, &e1, vec![delayed(2, "bob", 20)]).await;
    assert_eq!(turns(store.outbox("g1").await.unwrap()), vec![1]);
    assert_eq!(
        claim(minutes(15)).await,
        vec![],
        "pushed back past 15 minutes"
    );

    // A turn at once, in an append that does not go in (a stale seq), changes nothing.
    let stale = store
        .append(
            "g1",
            e1.seq + 1,
            &Append {
                events: vec![command(&e1, "alice", "late")],
                outbox: vec![kind_of_notice("g1", 2, "turn", "bob")],
                once_per_seat: vec!["turn".into()],
                ..Append::default()
            },
        )
        .await;
    assert!(matches!(stale, Err(StoreError::Stale { .. })), "{stale:?}");
    assert_eq!(
        claim(minutes(15)).await,
        vec![],
        "a stale append moves nothing"
    );

    // A real turn for bob: no new row; the waiting one is due now and says it.
    append_once(store, &e2, vec![kind_of_notice("g1", 3, "turn", "bob")]).await;
    assert_eq!(turns(store.outbox("g1").await.unwrap()), vec![1]);
    assert_eq!(claim(minutes(1)).await, bob(1), "pulled forward to now");
}

fn game_snapshot(game_id: &str, seq: u64, body: &str) -> GameSnapshot {
    GameSnapshot {
        game_id: game_id.into(),
        seq,
        event_hash: format!("hash-of-{}", seq - 1),
        ruleset: "open-table".into(),
        rules_version: "1".into(),
        state_hash: format!("state-at-{seq}"),
        body: body.into(),
    }
}

async fn the_latest_snapshot_of_a_game_reads_back_as_written_and_replaces_older_ones(
    store: &Store,
) {
    create(store, "g1").await;
    create(store, "g2").await;
    assert_eq!(store.latest_snapshot("g1").await.unwrap(), None);
    let first = game_snapshot("g1", 256, r#"{"awkward":"é\n\u0000 ✓"}"#);
    store.put_snapshot(&first).await.unwrap();
    assert_eq!(
        store.latest_snapshot("g1").await.unwrap(),
        Some(first.clone())
    );
    assert_eq!(
        store.latest_snapshot("g2").await.unwrap(),
        None,
        "only its own game's"
    );

    let later = game_snapshot("g1", 512, "{}");
    store.put_snapshot(&later).await.unwrap();
    // One written again, or one older than the latest (a slow writer), changes nothing.
    store.put_snapshot(&later).await.unwrap();
    store.put_snapshot(&first).await.unwrap();
    assert_eq!(store.latest_snapshot("g1").await.unwrap(), Some(later));
    let other = game_snapshot("g2", 300, "{}");
    store.put_snapshot(&other).await.unwrap();
    assert_eq!(store.latest_snapshot("g2").await.unwrap(), Some(other));
    assert_eq!(
        store.events_json("g1", 0, None).await.unwrap().len(),
        1,
        "a snapshot is not an event"
    );
}

/// Runs each contract function on a fresh PostgreSQL database and on a fresh SQLite file.
macro_rules! contract {
    ($($name:ident),* $(,)?) => {
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
                async fn $name() {
                    let (store, _db) = crate::common::fresh_postgres().await;
                    super::$name(&store).await;
                }
            )*
        }
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
                async fn $name() {
                    let (store, _db) = crate::common::fresh_sqlite().await;
                    super::$name(&store).await;
                }
            )*
        }
    };
}

contract![
    a_created_game_reads_back_with_its_seats_first_event_secrets_and_outbox,
    creating_a_game_with_a_taken_id_is_refused_and_changes_nothing,
    an_append_at_the_expected_seq_moves_the_game_on_and_any_other_seq_is_stale,
    an_append_whose_events_do_not_run_on_from_the_expected_seq_is_refused,
    two_concurrent_appends_to_one_game_exactly_one_wins_and_the_loser_is_told_the_current_seq,
    concurrent_appends_to_different_games_all_win,
    appends_racing_on_a_dice_chains_last_link_lose_as_stale,
    an_idempotency_key_used_twice_returns_the_first_response_and_writes_nothing,
    concurrent_retries_under_one_idempotency_key_write_once_and_all_get_the_first_response,
    an_expired_idempotency_key_is_a_new_key_and_the_next_keyed_append_deletes_old_keys,
    range_reads_return_the_events_from_the_first_seq_up_to_but_not_including_the_last,
    secrets_are_kept_in_their_own_table_and_in_no_event,
    outbox_rows_are_written_in_the_same_transaction_as_their_event,
    a_seat_is_found_by_the_hash_of_its_token_and_only_in_its_own_game,
    events_read_back_byte_identical_with_their_hashes_intact,
    the_latest_snapshot_of_a_game_reads_back_as_written_and_replaces_older_ones,
    a_waiting_notice_is_let_go_only_for_a_later_turn_notice_to_the_same_seat,
    a_row_written_once_per_seat_waits_alone_until_a_dispatcher_takes_it,
    a_delayed_notice_waits_alone_pushed_back_by_later_windows_and_pulled_forward_by_a_turn,
];
