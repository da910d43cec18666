//! The fold cache inside `Games` (`src/games/cache.rs`): every ruleset's bot games played move by
//! move through the service keep a cached state equal to a full re-fold of the stored log, and
//! two services on one database (two server processes) moving in the same game alternately
//! each answer right and never serve a state older than one they wrote or saw.

use crate::common;

use common::bot::{bot_move, new_game};
use despatch::engine::bot::Rng;
use despatch::engine::game::Game;
use despatch::engine::ruleset::{Seat, Viewer};
use despatch::games::cache::Limits;
use despatch::games::secrets::GameSecrets;
use despatch::games::GameId;
use despatch::games::{Caller, CommandInput, Games, ServiceError, Submit};
use despatch::rules;
use despatch::store::Store;
use serde_json::json;

/// The stored log folded from the start, with the stored secrets.
async fn refold(store: &Store, game_id: &GameId) -> (Game, GameSecrets) {
    let record = store.game(game_id).await.unwrap().unwrap();
    let events = store.events(game_id, 0, None).await.unwrap();
    let secrets = GameSecrets::from_records(&store.secrets(game_id).await.unwrap());
    let game = Game::fold(
        rules::find(&record.ruleset).unwrap(),
        &events,
        secrets.hidden_seed,
    )
    .unwrap();
    (game, secrets)
}

/// After every move the cache already holds the state the move made (so the next move folds
/// nothing), and that state, its hash and its secrets equal a full re-fold of the stored log.
async fn bot_games_keep_the_cache_equal_to_the_log(store: Store) {
    let games = common::over(store.clone()).base_url("http://test").games();
    for ruleset in rules::all() {
        for n in 0..2 {
            let id = games.create(new_game(&ruleset, n)).await.unwrap().game_id;
            let mut rng = Rng::new(n as u64 + 7);
            let mut moves = 0;
            while moves < 40 && bot_move(&games, &id, &mut rng).await.unwrap() {
                moves += 1;
                let cached = games
                    .fold_cache()
                    .get(&id)
                    .expect("the move left its game in the cache");
                let (game, secrets) = refold(&store, &id).await;
                assert_eq!(
                    cached.game.next_seq,
                    game.next_seq,
                    "{}: the move put its state in the cache",
                    ruleset.id()
                );
                assert_eq!(
                    cached.game.state_hash(),
                    game.state_hash(),
                    "{}",
                    ruleset.id()
                );
                assert_eq!(cached.game.last_hash, game.last_hash);
                assert_eq!(cached.game.ended, game.ended);
                let held = cached
                    .events_from(0)
                    .expect("the cache holds the whole log");
                assert_eq!(held.len() as u64, game.next_seq);
                assert_eq!(cached.record.next_seq, game.next_seq);
                assert_eq!(format!("{:?}", cached.secrets), format!("{secrets:?}"));
            }
            assert!(moves > 0, "{}: the bot made no move", ruleset.id());
        }
    }
}

/// A move for whichever seat must act in an open-table game, made through `games`: dice, a
/// sealed note (a secret the other process must read) or words, by `step`.
async fn table_move(games: &Games, game_id: &GameId, step: usize) -> u64 {
    let l = games.load(game_id).await.unwrap();
    let text = match step % 3 {
        0 => format!("roll 2d6 step {step}"),
        1 => format!("seal note {step}"),
        _ => format!("say step {step}"),
    };
    games
        .submit(
            &Caller {
                game_id: game_id.clone(),
                seat: l.game.prompts()[0].seat.clone(),
            },
            Submit {
                expected_seq: l.game.next_seq,
                command: CommandInput::Text(text),
                client_entropy: String::new(),
                idempotency_key: None,
            },
        )
        .await
        .unwrap_or_else(|e| panic!("step {step}: {e}"))
        .next_seq
}

/// Two services on one database, as two server processes: they move in one game alternately,
/// each also sends a move at the seq its cache last knew, and each reads after every move.
async fn two_processes_never_serve_a_stale_state(store: Store, url: &str) {
    let other = Store::connect(url)
        .await
        .unwrap()
        .with_key(common::test_key());
    let a = common::over(store.clone()).base_url("http://test").games();
    let b = common::over(other).base_url("http://test").games();
    let ruleset = rules::find("open-table").unwrap();
    let id = a.create(new_game(&ruleset, 0)).await.unwrap().game_id;
    // Both caches hold the game at its start.
    assert_eq!(a.summary(&id).await.unwrap().next_seq, 1);
    assert_eq!(b.summary(&id).await.unwrap().next_seq, 1);
    for step in 0..24 {
        let (mover, behind) = if step % 2 == 0 { (&a, &b) } else { (&b, &a) };
        // `behind` last saw the game at this seq.
        let seen = behind.fold_cache().get(&id).unwrap().game.next_seq;
        let now = table_move(mover, &id, step).await;
        assert_eq!(store.game(&id).await.unwrap().unwrap().next_seq, now);
        assert!(now > seen);
        // A move at the seq `behind` last saw is refused, naming the current seq.
        let seat = mover.fold_cache().get(&id).unwrap().game.prompts()[0]
            .seat
            .clone();
        let stale = behind
            .submit(
                &Caller {
                    game_id: id.clone(),
                    seat,
                },
                Submit {
                    expected_seq: seen,
                    command: CommandInput::Text("say too late".into()),
                    client_entropy: String::new(),
                    idempotency_key: None,
                },
            )
            .await;
        match stale {
            Err(ServiceError::Stale { sent, current_seq }) => {
                assert_eq!((sent, current_seq), (seen, now));
            }
            other => panic!("a move at seq {seen} of {now} was answered {other:?}"),
        }
        assert_eq!(store.game(&id).await.unwrap().unwrap().next_seq, now);
        // Both read the latest state, with the latest secrets, equal to the stored log folded
        // again.
        let (game, secrets) = refold(&store, &id).await;
        for games in [&a, &b] {
            let l = games.load(&id).await.unwrap();
            assert_eq!(l.game.next_seq, now, "a reader saw an old state");
            assert_eq!(l.game.state_hash(), game.state_hash());
            assert_eq!(format!("{:?}", l.secrets), format!("{secrets:?}"));
            assert_eq!(games.summary(&id).await.unwrap().next_seq, now);
            let view = games.view(&id, &Viewer::Spectator);
            assert_eq!(view.await.unwrap()["summary"]["next_seq"], json!(now));
            // The page's fold, kept beside the game, is moved on to the same event.
            let table = games
                .table(&id, &Viewer::Spectator, None, true)
                .await
                .unwrap();
            assert_eq!(table.shown_seq + 1, now);
            assert_eq!(table.log_total as u64, now);
            assert_eq!(table.log.last().unwrap().seq + 1, now);
        }
    }
}

/// Both services hold the game at the same seq and both move at it: one move is recorded, the
/// other is refused with the seq the first made, and then moves at that seq.
async fn a_race_between_processes_is_one_move_and_one_stale(store: Store, url: &str) {
    let other = Store::connect(url)
        .await
        .unwrap()
        .with_key(common::test_key());
    let a = common::over(store.clone()).base_url("http://test").games();
    let b = common::over(other).base_url("http://test").games();
    let id = a
        .create(new_game(&rules::find("open-table").unwrap(), 0))
        .await
        .unwrap()
        .game_id;
    let seat = |g: &Games| {
        let l = g.fold_cache().get(&id).unwrap();
        l.game.prompts()[0].seat.clone()
    };
    let note = |seq: u64, text: &str| Submit {
        expected_seq: seq,
        command: CommandInput::Text(text.into()),
        client_entropy: String::new(),
        idempotency_key: None,
    };
    for round in 0..4 {
        let next = a.load(&id).await.unwrap().game.next_seq;
        assert_eq!(b.load(&id).await.unwrap().game.next_seq, next);
        let who: Seat = seat(&a);
        let caller = Caller {
            game_id: id.clone(),
            seat: who,
        };
        let (first, second) = if round % 2 == 0 { (&a, &b) } else { (&b, &a) };
        let text = format!("say round {round}");
        let made = first.submit(&caller, note(next, &text)).await;
        let made = made.unwrap_or_else(|e| panic!("round {round}: {e}"));
        let lost = second.submit(&caller, note(next, &text)).await;
        match lost {
            Err(ServiceError::Stale { sent, current_seq }) => {
                assert_eq!((sent, current_seq), (next, made.next_seq));
            }
            other => panic!("the second move at seq {next} was answered {other:?}"),
        }
        let (game, _) = refold(&store, &id).await;
        for g in [&a, &b] {
            let l = g.load(&id).await.unwrap();
            assert_eq!(l.game.next_seq, made.next_seq);
            assert_eq!(l.game.state_hash(), game.state_hash());
        }
    }
}

mod postgres {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn bot_games_keep_the_cache_equal_to_the_log() {
        let (store, _db) = common::fresh_postgres().await;
        super::bot_games_keep_the_cache_equal_to_the_log(store).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn two_processes_never_serve_a_stale_state() {
        let (store, db) = common::fresh_postgres().await;
        super::two_processes_never_serve_a_stale_state(store, db.url()).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_race_between_processes_is_one_move_and_one_stale() {
        let (store, db) = common::fresh_postgres().await;
        super::a_race_between_processes_is_one_move_and_one_stale(store, db.url()).await;
    }
}

mod sqlite {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn bot_games_keep_the_cache_equal_to_the_log() {
        let (store, _db) = common::fresh_sqlite().await;
        super::bot_games_keep_the_cache_equal_to_the_log(store).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn two_processes_never_serve_a_stale_state() {
        let (store, db) = common::fresh_sqlite().await;
        super::two_processes_never_serve_a_stale_state(store, db.url()).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_race_between_processes_is_one_move_and_one_stale() {
        let (store, db) = common::fresh_sqlite().await;
        super::a_race_between_processes_is_one_move_and_one_stale(store, db.url()).await;
    }
}

/// The cache's bounds: past its count of games, or its bytes, the least recently used go.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cache_evicts_past_its_bounds() {
    let (store, _db) = common::fresh_sqlite().await;
    let by_count = common::over(store.clone())
        .base_url("http://test")
        .fold_cache(Limits {
            games: 2,
            bytes: usize::MAX,
        })
        .games();
    let ruleset = rules::find("open-table").unwrap();
    let mut ids = Vec::new();
    for n in 0..3 {
        let id = by_count
            .create(new_game(&ruleset, n))
            .await
            .unwrap()
            .game_id;
        by_count.load(&id).await.unwrap();
        ids.push(id);
    }
    assert_eq!(by_count.fold_cache().size().0, 2);
    assert!(
        by_count.fold_cache().get(&ids[0]).is_none(),
        "the oldest went"
    );
    assert!(by_count.fold_cache().get(&ids[2]).is_some());
    // Using a game keeps it: ids[1] is read, so ids[2] is the one to go for a fourth.
    by_count.load(&ids[1]).await.unwrap();
    by_count.load(&ids[0]).await.unwrap();
    assert!(by_count.fold_cache().get(&ids[1]).is_some());
    assert!(by_count.fold_cache().get(&ids[2]).is_none());

    // Bytes: room for about one game, measured from one game's size.
    let probe = common::over(store.clone()).base_url("http://test").games();
    probe.load(&ids[0]).await.unwrap();
    let one = probe.fold_cache().size().1;
    assert!(one > 0);
    let by_bytes = common::over(store.clone())
        .base_url("http://test")
        .fold_cache(Limits {
            games: 100,
            bytes: one + one / 2,
        })
        .games();
    for id in &ids {
        by_bytes.load(id).await.unwrap();
    }
    let (games, bytes) = by_bytes.fold_cache().size();
    assert_eq!(games, 1, "only the last game fits");
    assert!(bytes <= one + one / 2);
    assert!(by_bytes.fold_cache().get(&ids[2]).is_some());
    // A game larger than the whole bound is not kept, and still loads.
    let tiny = common::over(store)
        .base_url("http://test")
        .fold_cache(Limits {
            games: 10,
            bytes: 1,
        })
        .games();
    assert_eq!(tiny.load(&ids[0]).await.unwrap().game.next_seq, 1);
    assert_eq!(tiny.fold_cache().size(), (0, 0));
}

/// The pages' fold kept beside a game is moved on by the events since it was last read: a few
/// under the cache's lock, and a long way behind (a notice composed a poll after the last, in a
/// game moving fast) outside it, in place. Either way a notice's lines read as a fold of the
/// whole log made afresh, and the kept fold is at the log's head after each.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_fold_moved_on_a_little_or_a_long_way_reads_as_one_folded_afresh() {
    let (store, _db) = common::fresh_sqlite().await;
    let games = common::over(store.clone()).base_url("http://test").games();
    let ruleset = rules::find("open-table").unwrap();
    let id = games.create(new_game(&ruleset, 0)).await.unwrap().game_id;
    let mut step = 0;
    // 3 events behind, then 100 (more than the 64 moved on under the lock), then 2 again.
    for behind in [3, 100, 2] {
        for _ in 0..behind {
            table_move(&games, &id, step).await;
            step += 1;
        }
        let l = games.load(&id).await.unwrap();
        let head = l.game.next_seq;
        let viewer = Viewer::Seat(l.game.created.seats[0].seat.clone());
        let lines = games
            .outcome_lines(&l, &viewer, 1..head, usize::MAX)
            .await
            .unwrap();
        let fresh = common::over(store.clone()).base_url("http://test").games();
        let fresh_l = fresh.load(&id).await.unwrap();
        let expected = fresh
            .outcome_lines(&fresh_l, &viewer, 1..head, usize::MAX)
            .await
            .unwrap();
        assert!(lines.len() >= step, "every move says something: {lines:?}");
        assert_eq!(lines, expected, "{behind} events behind");
    }
}
