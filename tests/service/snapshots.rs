//! Snapshots of folded games (`engine::snapshot`): over every ruleset's bot games, a snapshot
//! taken at every N events and the events after it fold to the same game as the whole log; a
//! snapshot of other rules, or a corrupted one, is refused rather than used.

use std::sync::Arc;

use despatch::engine::bot::{self, BotGame};
use despatch::engine::game::Game;
use despatch::engine::ruleset::{Ruleset, SeatDef, Setup, Viewer};
use despatch::engine::snapshot::Snapshot;
use despatch::rules;
use serde_json::{json, Value};

/// A small N, so that every game is snapshotted many times, at every kind of event.
const EVERY: u64 = 5;

/// Bot games of every ruleset and scenario, cut short so that the test stays quick.
fn bot_games() -> Vec<BotGame> {
    let mut games = Vec::new();
    for id in ["open-table", "hour-of-glory", "for-honor-and-glory"] {
        let ruleset = rules::find(id).unwrap();
        for scenario in ruleset.info().scenarios {
            for n in 0..3u64 {
                let names: Vec<String> = if scenario.seats.is_empty() {
                    ["alice", "bob", "carol", "dave"].map(String::from).to_vec()
                } else {
                    scenario.seats.clone()
                };
                let count = (scenario.min_seats.max(1) + n as usize % 2)
                    .min(scenario.max_seats.max(1))
                    .min(names.len());
                let seats = &names[..count];
                let setup = Setup {
                    game_id: format!("snap-{id}-{}-{n}", scenario.id),
                    scenario: scenario.id.clone(),
                    options: options(id, n),
                    seats: SeatDef::named_by_id(seats).unwrap(),
                };
                let game = bot::play(ruleset.clone(), setup, n * 31 + 7, 300, &mut |_, _| Ok(()))
                    .unwrap_or_else(|e| panic!("{id} {} game {n}: {e}", scenario.id));
                games.push(game);
            }
        }
    }
    games
}

fn options(ruleset: &str, n: u64) -> Value {
    match (ruleset, n) {
        ("open-table", 1) => json!({ "order": "free" }),
        ("for-honor-and-glory", 1) => json!({ "optional_rules": "all" }),
        ("hour-of-glory", 2) => json!({ "covering_fire": "any" }),
        _ => json!({}),
    }
}

/// Everything a player could tell two games apart by, and the state's hash.
fn face(game: &Game) -> Value {
    let mut viewers = vec![Viewer::Spectator, Viewer::Everyone];
    viewers.extend(
        game.created
            .seats
            .iter()
            .map(|s| Viewer::Seat(s.seat.clone())),
    );
    json!({
        "state_hash": game.state_hash(),
        "next_seq": game.next_seq,
        "last_hash": game.last_hash,
        "chain": [game.chain.chain, game.chain.length, game.chain.next_index],
        "open_seals": game.open_seals.iter().map(|(c, s)| (c.clone(), json!([s.seat, s.seq]))).collect::<serde_json::Map<_, _>>(),
        "hidden_seed": game.hidden_seed.map(hex::encode),
        "ended": game.ended,
        "outcome": game.outcome(),
        "prompts": game.prompts(),
        "views": viewers.iter().map(|v| game.view(v)).collect::<Vec<_>>(),
        "boards": viewers.iter().map(|v| game.ruleset.board_text(&game.state, v)).collect::<Vec<_>>(),
    })
}

#[test]
fn a_snapshot_at_every_n_events_and_the_events_after_it_fold_to_the_whole_logs_game() {
    let mut snapshots = 0;
    for bot in bot_games() {
        let ruleset = bot.game.ruleset.clone();
        let seed = bot.secrets.hidden_seed;
        let whole = Game::fold(ruleset.clone(), &bot.events, seed).unwrap();
        let whole_face = face(&whole);
        assert_eq!(whole.state_hash(), bot.game.state_hash());
        // The game as the move path holds it after each event: folded with its lines.
        let mut game = Game::fold(ruleset.clone(), &bot.events[..1], seed).unwrap();
        for event in &bot.events[1..] {
            game.fold_event(event).unwrap();
            if !game.next_seq.is_multiple_of(EVERY) {
                continue;
            }
            let at = game.next_seq;
            let snapshot = Snapshot::of(&game);
            assert_eq!(snapshot.seq, at);
            assert_eq!(snapshot.event_hash, event.hash);
            if let (Some(seed), false) = (seed, game.ended) {
                assert!(
                    !snapshot.body.contains(&hex::encode(seed)),
                    "{}: the snapshot at {at} holds the hidden seed",
                    game.game_id
                );
            }
            let mut restored = snapshot
                .restore(ruleset.clone(), seed)
                .unwrap_or_else(|e| panic!("{} at {at}: {e}", game.game_id));
            assert_eq!(face(&restored), face(&game), "{} at {at}", game.game_id);
            assert_eq!(
                Snapshot::of(&restored),
                snapshot,
                "{} at {at}",
                game.game_id
            );
            for e in &bot.events[at as usize..] {
                restored
                    .fold_event(e)
                    .unwrap_or_else(|err| panic!("{} from {at}: {err}", game.game_id));
            }
            assert_eq!(face(&restored), whole_face, "{} from {at}", game.game_id);
            snapshots += 1;
        }
    }
    assert!(snapshots > 100, "only {snapshots} snapshots were taken");
}

/// A snapshot at seq 20 of a bot game of `id`.
fn a_snapshot(id: &str) -> (Arc<dyn Ruleset>, Snapshot, Option<[u8; 32]>) {
    let bot = bot_games()
        .into_iter()
        .find(|b| b.game.created.ruleset == id && b.events.len() > 20)
        .unwrap();
    let game = Game::fold(
        bot.game.ruleset.clone(),
        &bot.events[..20],
        bot.secrets.hidden_seed,
    )
    .unwrap();
    (
        game.ruleset.clone(),
        Snapshot::of(&game),
        bot.secrets.hidden_seed,
    )
}

#[test]
fn a_snapshot_of_another_ruleset_or_rules_version_is_refused() {
    let (ruleset, snapshot, seed) = a_snapshot("open-table");
    snapshot.restore(ruleset.clone(), seed).unwrap();

    let older = Snapshot {
        rules_version: "0.0.1-before".into(),
        ..snapshot.clone()
    };
    let e = older.restore(ruleset.clone(), seed).err().unwrap();
    assert!(e.contains("0.0.1-before"), "{e}");

    let other = rules::find("hour-of-glory").unwrap();
    let e = snapshot.restore(other, seed).err().unwrap();
    assert!(e.contains("open-table"), "{e}");
}

#[test]
fn a_corrupted_snapshot_is_refused() {
    for id in ["open-table", "hour-of-glory", "for-honor-and-glory"] {
        let (ruleset, snapshot, seed) = a_snapshot(id);
        let refused = |s: Snapshot, what: &str| {
            assert!(
                s.restore(ruleset.clone(), seed).is_err(),
                "{id}: a snapshot with {what} was restored"
            )
        };
        refused(
            Snapshot {
                body: snapshot.body[..snapshot.body.len() / 2].into(),
                ..snapshot.clone()
            },
            "half its body",
        );
        refused(
            Snapshot {
                state_hash: "0".repeat(64),
                ..snapshot.clone()
            },
            "another state hash",
        );
        refused(
            Snapshot {
                event_hash: "0".repeat(64),
                ..snapshot.clone()
            },
            "another event hash",
        );
        refused(
            Snapshot {
                seq: snapshot.seq + 1,
                ..snapshot.clone()
            },
            "another seq",
        );
        // A body that parses, with a value in its state changed.
        let mut body: Value = serde_json::from_str(&snapshot.body).unwrap();
        let state = body["state"].as_object_mut().unwrap();
        let key = state.keys().next().unwrap().clone();
        state.insert(key.clone(), json!("corrupted"));
        refused(
            Snapshot {
                body: body.to_string(),
                ..snapshot.clone()
            },
            &format!("its state's '{key}' changed"),
        );
        let mut body: Value = serde_json::from_str(&snapshot.body).unwrap();
        body["format"] = json!(99);
        refused(
            Snapshot {
                body: body.to_string(),
                ..snapshot.clone()
            },
            "another body format",
        );
        // The wrong hidden seed for the game.
        assert!(snapshot.restore(ruleset.clone(), Some([7; 32])).is_err());
    }
}

use crate::common;

mod through_games {
    //! Through `Games` on both backends: the move path writes snapshots, and a cold load (a
    //! service that holds no fold of the game) restores the latest and answers as the whole
    //! log's fold does; a snapshot it may not use is ignored.

    use super::common::bot::{bot_move, new_game};
    use despatch::engine::bot::Rng;
    use despatch::engine::ruleset::Viewer;
    use despatch::engine::snapshot::Snapshot;
    use despatch::games::{GameId, Games};
    use despatch::rules;
    use despatch::store::Store;

    /// Snapshots this often in these tests.
    const EVERY: u64 = 4;

    /// The game's latest snapshot, once the task that writes it has.
    async fn snapshot_at_least(store: &Store, game_id: &GameId, seq: u64) -> Snapshot {
        for _ in 0..200 {
            if let Some(s) = store.latest_snapshot(game_id).await.unwrap() {
                if s.seq >= seq {
                    return s;
                }
            }
            tokio::time::sleep(std::time::Duration::from_millis(25)).await;
        }
        panic!("no snapshot of {game_id} at {seq} or later was written");
    }

    /// What every viewer sees, as `games` answers.
    async fn views(games: &Games, game_id: &GameId) -> Vec<serde_json::Value> {
        let l = games.load(game_id).await.unwrap();
        let mut viewers = vec![Viewer::Spectator];
        viewers.extend(
            l.game
                .created
                .seats
                .iter()
                .map(|s| Viewer::Seat(s.seat.clone())),
        );
        let mut out = Vec::new();
        for v in viewers {
            out.push(games.view(game_id, &v).await.unwrap());
        }
        out
    }

    async fn a_cold_load_restores_the_latest_snapshot_and_answers_as_the_whole_log(store: Store) {
        let games = Games::new(store.clone(), "http://test").with_snapshots_every(EVERY);
        for ruleset in rules::all() {
            let id = games.create(new_game(&ruleset, 0)).await.unwrap().game_id;
            let mut rng = Rng::new(11);
            // Until the game is long enough, or over: a try that finds no move is tried again.
            for _ in 0..300 {
                let l = games.load(&id).await.unwrap();
                if l.game.ended || l.game.next_seq > 5 * EVERY {
                    break;
                }
                bot_move(&games, &id, &mut rng).await.unwrap();
            }
            let warm = games.load(&id).await.unwrap();
            let next_seq = warm.game.next_seq;
            assert!(next_seq > 2 * EVERY, "{}: {next_seq} events", ruleset.id());
            // The snapshot written when the game last passed a multiple of N.
            let snapshot = snapshot_at_least(&store, &id, next_seq / EVERY * EVERY).await;
            let expected = views(&games, &id).await;

            // A service that holds no fold of the game: another process, or a restart.
            let cold = Games::new(store.clone(), "http://test").with_snapshots_every(EVERY);
            let l = cold.load(&id).await.unwrap();
            assert_eq!(l.game.next_seq, next_seq, "{}", ruleset.id());
            assert_eq!(
                l.game.state_hash(),
                warm.game.state_hash(),
                "{}",
                ruleset.id()
            );
            assert_eq!(l.game.last_hash, warm.game.last_hash);
            assert!(
                l.events_from(0).is_none() && l.events_from(snapshot.seq).is_some(),
                "{}: the cold load read only the events after its snapshot",
                ruleset.id()
            );
            assert_eq!(views(&cold, &id).await, expected, "{}", ruleset.id());
            // The whole log, when a reader asks for it, is the store's, and is then kept.
            let log = cold.whole_log(&l).await.unwrap();
            let stored = store.events(&id, 0, None).await.unwrap();
            assert_eq!(log.as_slice(), stored.as_slice(), "{}", ruleset.id());
            let kept = cold.fold_cache().get(&id).unwrap();
            assert_eq!(kept.events_from(0).map(<[_]>::len), Some(stored.len()));

            // A snapshot that may not be used is ignored: the log is folded instead.
            let good = store.latest_snapshot(&id).await.unwrap().unwrap();
            let unusable = [
                Snapshot {
                    seq: good.seq + 1,
                    body: "{ not json".into(),
                    ..good.clone()
                },
                Snapshot {
                    seq: good.seq + 2,
                    rules_version: "0.0.0-older".into(),
                    ..good.clone()
                },
            ];
            for bad in unusable {
                store.put_snapshot(&bad).await.unwrap();
                let cold = Games::new(store.clone(), "http://test").with_snapshots_every(0);
                let l = cold.load(&id).await.unwrap();
                assert_eq!(l.game.state_hash(), warm.game.state_hash());
                assert!(l.events_from(0).is_some(), "the whole log was folded");
                assert_eq!(views(&cold, &id).await, expected, "{}", ruleset.id());
            }
        }
    }

    /// A notice of a game that no process holds folded reads its snapshot and the events after
    /// it — not the whole log — when they reach back to the seat's last move, and says exactly
    /// what one composed from the warm game (folded from the whole log) says.
    async fn a_cold_notice_reads_from_the_snapshot_and_says_what_the_whole_log_says(store: Store) {
        use despatch::engine::event::kind;
        use despatch::games::outbox::{REMINDER, TURN};
        use despatch::notify::notice::compose;
        use despatch::store::{OutboxRecord, OutboxRow};

        let games = Games::new(store.clone(), "http://test").with_snapshots_every(EVERY);
        // Each message's credential placeholders carry a random marker of their own
        // (games::links::pending): notices are compared as one marker.
        let marker = regex::Regex::new("despatch_credential_[0-9a-f]+_").unwrap();
        let mut from_snapshot = 0;
        for ruleset in rules::all() {
            let id = games.create(new_game(&ruleset, 0)).await.unwrap().game_id;
            let mut rng = Rng::new(5);
            for _ in 0..300 {
                let l = games.load(&id).await.unwrap();
                if l.game.ended || l.game.next_seq > 6 * EVERY {
                    break;
                }
                bot_move(&games, &id, &mut rng).await.unwrap();
            }
            let warm = games.load(&id).await.unwrap();
            let head = warm.game.next_seq - 1;
            let snapshot = snapshot_at_least(&store, &id, (head + 1) / EVERY * EVERY).await;
            let log = store.events(&id, 0, None).await.unwrap();
            for seat in &warm.game.created.seats {
                let seat = seat.seat.to_string();
                let acted_since_snapshot = log[snapshot.seq as usize..]
                    .iter()
                    .any(|e| e.kind == kind::COMMAND && e.seat == seat);
                for (channel, seq) in [(TURN, head), (REMINDER, head.saturating_sub(1))] {
                    let row = OutboxRow {
                        id: 1,
                        record: OutboxRecord {
                            game_id: id.to_string(),
                            seq,
                            channel: channel.into(),
                            seat: Some(seat.clone()),
                            payload: serde_json::json!({ "deadline": "2030-01-01T00:00:00Z" }),
                            delay: std::time::Duration::ZERO,
                        },
                    };
                    let said = |c: Option<despatch::notify::notice::Composed>| {
                        c.map(|c| {
                            let text = serde_json::to_string(&c.context).unwrap();
                            marker
                                .replace_all(&text, "despatch_credential_MARKER_")
                                .into_owned()
                        })
                    };
                    let expected = said(compose(&games, &row, None).await.unwrap());
                    let cold = Games::new(store.clone(), "http://test").with_snapshots_every(0);
                    let got = said(compose(&cold, &row, None).await.unwrap());
                    assert_eq!(got, expected, "{} {seat} {channel}", ruleset.id());
                    let kept = cold.fold_cache().get(&id).unwrap();
                    if acted_since_snapshot && expected.is_some() {
                        assert!(
                            kept.events_from(0).is_none(),
                            "{} {seat} {channel}: the cold notice read the whole log",
                            ruleset.id()
                        );
                        from_snapshot += 1;
                    }
                }
            }
        }
        assert!(
            from_snapshot > 0,
            "some notice was composed from a snapshot"
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_cold_notice_on_postgres_reads_from_the_snapshot() {
        let (store, _db) = super::common::fresh_postgres().await;
        a_cold_notice_reads_from_the_snapshot_and_says_what_the_whole_log_says(store).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_cold_notice_on_sqlite_reads_from_the_snapshot() {
        let (store, _db) = super::common::fresh_sqlite().await;
        a_cold_notice_reads_from_the_snapshot_and_says_what_the_whole_log_says(store).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_cold_load_on_postgres_restores_the_latest_snapshot() {
        let (store, _db) = super::common::fresh_postgres().await;
        a_cold_load_restores_the_latest_snapshot_and_answers_as_the_whole_log(store).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_cold_load_on_sqlite_restores_the_latest_snapshot() {
        let (store, _db) = super::common::fresh_sqlite().await;
        a_cold_load_restores_the_latest_snapshot_and_answers_as_the_whole_log(store).await;
    }
}
