//! The clock, with an injected "now": reminders and deadlines at the right instants across a
//! weekend and a change of daylight saving time, vacations, each missed-deadline policy, and
//! two schedulers that must not both fire. Every test runs on PostgreSQL and on SQLite.

use crate::common;

use chrono::{DateTime, Utc};
use common::TestApp;
use despatch::engine::event::kind;
use despatch::engine::ruleset::{Seat, Viewer};
use despatch::engine::verify::verify;
use despatch::games::clock::{seat_deadline, ClockChoice, ClockPolicy, ManualClock, OnDeadline};
use despatch::games::{Caller, CommandInput, GameId, NewGame, NewSeat, Submit, VacationRequest};
use despatch::notify::scheduler::{Fired, Scheduler};
use despatch::rules;
use serde_json::Value;

fn at(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

/// A test app on a clock the test moves, an open-table game on it and a scheduler.
struct C {
    app: TestApp,
    scheduler: Scheduler,
    game_id: GameId,
}

fn policy(hours: u32, reminders: &[u32], weekends: bool, tz: &str, on: OnDeadline) -> ClockPolicy {
    ClockPolicy {
        move_deadline_hours: hours,
        reminders_hours: reminders.to_vec(),
        pause_weekends: weekends,
        time_zone: tz.into(),
        vacation_days_per_year: 10,
        on_deadline: on,
        forfeit_after: 2,
    }
}

async fn start(app: TestApp, policy: ClockPolicy, created: &str) -> C {
    app.clock().set(at(created));
    let created = app
        .games
        .create(NewGame {
            name: None,
            ruleset: "open-table".into(),
            scenario: "default".into(),
            options: Value::Null,
            seats: ["anna", "bert"]
                .iter()
                .map(|s| NewSeat {
                    seat: Some((*s).into()),
                    name: (*s).into(),
                    email: None,
                })
                .collect(),
            clock: Some(ClockChoice::Policy(policy)),
        })
        .await
        .unwrap();
    C {
        scheduler: Scheduler::new(app.games.clone()),
        app,
        game_id: created.game_id,
    }
}

impl C {
    async fn tick_at(&self, when: &str) -> Vec<Fired> {
        self.app.clock().set(at(when));
        self.scheduler.tick().await.unwrap()
    }

    fn caller(&self, seat: &str) -> Caller {
        Caller {
            game_id: self.game_id.clone(),
            seat: Seat::parse(seat).unwrap(),
        }
    }

    async fn play(&self, seat: &str, order: &str) {
        let l = self.app.games.load(&self.game_id).await.unwrap();
        self.app
            .games
            .submit(
                &self.caller(seat),
                Submit {
                    expected_seq: l.game.next_seq,
                    command: CommandInput::Text(order.into()),
                    client_entropy: String::new(),
                    idempotency_key: None,
                },
            )
            .await
            .unwrap();
    }

    async fn deadline_of(&self, seat: &str) -> Option<DateTime<Utc>> {
        let l = self.app.games.load(&self.game_id).await.unwrap();
        let p = self
            .app
            .games
            .clock_policy(&self.game_id)
            .await
            .unwrap()
            .unwrap();
        seat_deadline(&p, &self.app.games.whole_log(&l).await.unwrap(), seat)
    }

    async fn clock_events(&self) -> Vec<Value> {
        self.app
            .store
            .events(&self.game_id, 0, None)
            .await
            .unwrap()
            .into_iter()
            .filter(|e| e.kind == kind::CLOCK)
            .map(|e| e.payload)
            .collect()
    }

    async fn verifies(&self) {
        let text = self
            .app
            .games
            .export(&self.game_id, &Viewer::Spectator)
            .await
            .unwrap();
        let report = verify(&text, &rules::find);
        assert!(
            report.ok(),
            "a log with clock events verifies:\n{}",
            report.render()
        );
    }

    async fn notices(&self, channel: &str) -> Vec<Value> {
        self.app
            .store
            .outbox(&self.game_id)
            .await
            .unwrap()
            .into_iter()
            .filter(|r| r.record.channel == channel)
            .map(|r| r.record.payload)
            .collect()
    }
}

/// The clock's tests drive the games service directly, on a clock they move; `start` sets it.
async fn spawn(backend: common::Backend) -> TestApp {
    common::spawn_app(backend)
        .clock(ManualClock::new(Utc::now()))
        .services()
        .await
}

on_both_backends!(
    reminders_and_deadlines_fire_on_time_across_a_weekend_and_the_end_of_summer_time,
    a_vacation_extends_the_deadline_and_is_limited_by_the_allowance,
    a_missed_deadline_passes_where_the_rules_allow,
    a_missed_deadline_pauses_the_clock_until_someone_moves,
    the_nth_missed_deadline_forfeits,
    two_schedulers_at_the_same_instant_fire_once,
);

async fn reminders_and_deadlines_fire_on_time_across_a_weekend_and_the_end_of_summer_time(
    app: TestApp,
) {
    // Friday 23 October 2026, 13:00 in London (BST); summer time ends on Sunday the 25th.
    let c = start(
        app,
        policy(24, &[12, 2], true, "Europe/London", OnDeadline::Remind),
        "2026-10-23T12:00:00Z",
    )
    .await;
    // 11 h run before the weekend starts (Saturday 00:00 BST = Friday 23:00 UTC); the weekend
    // ends Monday 00:00 GMT = 00:00 UTC, 49 h later; 13 h more: Monday 13:00 UTC.
    assert_eq!(
        c.deadline_of("anna").await,
        Some(at("2026-10-26T13:00:00Z"))
    );
    assert!(
        c.tick_at("2026-10-24T12:00:00Z").await.is_empty(),
        "nothing over the weekend"
    );
    assert!(c.tick_at("2026-10-26T00:59:59Z").await.is_empty());
    let fired = c.tick_at("2026-10-26T01:00:00Z").await;
    assert_eq!(
        fired,
        vec![Fired::Reminder {
            game_id: c.game_id.clone(),
            seat: "anna".into(),
            hours_before: 12
        }]
    );
    assert!(
        c.tick_at("2026-10-26T01:00:00Z").await.is_empty(),
        "a reminder fires once"
    );
    assert!(c.tick_at("2026-10-26T10:59:59Z").await.is_empty());
    let fired = c.tick_at("2026-10-26T11:00:00Z").await;
    assert_eq!(
        fired,
        vec![Fired::Reminder {
            game_id: c.game_id.clone(),
            seat: "anna".into(),
            hours_before: 2
        }]
    );
    assert!(c.tick_at("2026-10-26T12:59:59Z").await.is_empty());
    let fired = c.tick_at("2026-10-26T13:00:00Z").await;
    assert_eq!(
        fired,
        vec![Fired::Deadline {
            game_id: c.game_id.clone(),
            seat: "anna".into(),
            action: "remind"
        }]
    );
    // Remind only: a new deadline of the same length from the one missed.
    assert_eq!(
        c.deadline_of("anna").await,
        Some(at("2026-10-27T13:00:00Z"))
    );

    let events = c.clock_events().await;
    let what: Vec<&str> = events
        .iter()
        .map(|e| e["clock"].as_str().unwrap())
        .collect();
    assert_eq!(what, vec!["policy", "reminder", "reminder", "deadline"]);
    assert_eq!(events[3]["deadline"], "2026-10-26T13:00:00.000Z");
    assert_eq!(c.notices("reminder").await.len(), 2);
    let missed = c.notices("deadline").await;
    assert_eq!(missed.len(), 1);
    assert_eq!(missed[0]["misses"], 1);
    c.verifies().await;

    // A move restarts the clock for the next seat, from the move.
    c.app.clock().set(at("2026-10-26T14:00:00Z"));
    c.play("anna", "advance at last").await;
    assert_eq!(
        c.deadline_of("bert").await,
        Some(at("2026-10-27T14:00:00Z"))
    );
}

async fn a_vacation_extends_the_deadline_and_is_limited_by_the_allowance(app: TestApp) {
    let c = start(
        app,
        policy(48, &[], false, "UTC", OnDeadline::Remind),
        "2026-03-02T10:00:00Z",
    )
    .await;
    assert_eq!(
        c.deadline_of("anna").await,
        Some(at("2026-03-04T10:00:00Z"))
    );
    let taken = c
        .app
        .games
        .take_vacation(
            &c.caller("anna"),
            &VacationRequest {
                from: "2026-03-03T00:00:00Z".into(),
                until: "2026-03-05T00:00:00Z".into(),
            },
        )
        .await
        .unwrap();
    assert_eq!(taken["days"], 2);
    assert_eq!(taken["days_left"], 8);
    assert_eq!(
        c.deadline_of("anna").await,
        Some(at("2026-03-06T10:00:00Z")),
        "two days later"
    );
    assert!(
        c.tick_at("2026-03-04T10:00:00Z").await.is_empty(),
        "the old deadline passes quietly"
    );
    let fired = c.tick_at("2026-03-06T10:00:00Z").await;
    assert_eq!(fired.len(), 1);

    let too_long = c
        .app
        .games
        .take_vacation(
            &c.caller("bert"),
            &VacationRequest {
                from: "2026-04-01T00:00:00Z".into(),
                until: "2026-04-12T00:00:00Z".into(),
            },
        )
        .await
        .unwrap_err();
    assert!(
        too_long.to_string().contains("10 vacation days left"),
        "{too_long}"
    );
    let past = c
        .app
        .games
        .take_vacation(
            &c.caller("bert"),
            &VacationRequest {
                from: "2026-03-01T00:00:00Z".into(),
                until: "2026-03-08T00:00:00Z".into(),
            },
        )
        .await
        .unwrap_err();
    assert!(past.to_string().contains("in advance"), "{past}");
    c.verifies().await;
}

async fn a_missed_deadline_passes_where_the_rules_allow(app: TestApp) {
    let c = start(
        app,
        policy(24, &[], false, "UTC", OnDeadline::Pass),
        "2026-03-02T10:00:00Z",
    )
    .await;
    let fired = c.tick_at("2026-03-03T10:00:00Z").await;
    assert_eq!(
        fired,
        vec![Fired::Deadline {
            game_id: c.game_id.clone(),
            seat: "anna".into(),
            action: "pass"
        }]
    );
    let events = c.app.store.events(&c.game_id, 0, None).await.unwrap();
    let kinds: Vec<&str> = events.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(
        &kinds[kinds.len() - 2..],
        &[kind::CLOCK, kind::TIMEOUT],
        "the deadline, then the pass, in one append"
    );
    let summary = c.app.games.summary(&c.game_id).await.unwrap();
    assert_eq!(summary.waiting_for[0].seat.as_str(), "bert");
    assert!(
        c.notices("turn").await.len() >= 2,
        "bert is told it is his turn"
    );
    assert_eq!(
        c.deadline_of("bert").await,
        Some(at("2026-03-04T10:00:00Z"))
    );
    c.verifies().await;
}

async fn a_missed_deadline_pauses_the_clock_until_someone_moves(app: TestApp) {
    let c = start(
        app,
        policy(24, &[], false, "UTC", OnDeadline::Pause),
        "2026-03-02T10:00:00Z",
    )
    .await;
    let fired = c.tick_at("2026-03-03T10:00:00Z").await;
    assert_eq!(
        fired,
        vec![Fired::Deadline {
            game_id: c.game_id.clone(),
            seat: "anna".into(),
            action: "pause"
        }]
    );
    assert_eq!(c.deadline_of("anna").await, None, "paused");
    assert!(
        c.tick_at("2026-04-01T10:00:00Z").await.is_empty(),
        "nothing fires while paused"
    );
    c.play("anna", "back from the front").await;
    assert_eq!(
        c.deadline_of("bert").await,
        Some(at("2026-04-02T10:00:00Z")),
        "the clock runs again"
    );
    c.verifies().await;
}

async fn the_nth_missed_deadline_forfeits(app: TestApp) {
    let c = start(
        app,
        policy(24, &[], false, "UTC", OnDeadline::Forfeit),
        "2026-03-02T10:00:00Z",
    )
    .await;
    let first = c.tick_at("2026-03-03T10:00:00Z").await;
    assert_eq!(
        first,
        vec![Fired::Deadline {
            game_id: c.game_id.clone(),
            seat: "anna".into(),
            action: "remind"
        }]
    );
    let second = c.tick_at("2026-03-04T10:00:00Z").await;
    assert_eq!(
        second,
        vec![Fired::Deadline {
            game_id: c.game_id.clone(),
            seat: "anna".into(),
            action: "forfeit"
        }]
    );
    let events = c.app.store.events(&c.game_id, 0, None).await.unwrap();
    assert!(events
        .iter()
        .any(|e| e.kind == kind::RESIGNED && e.seat == "anna"));
    let summary = c.app.games.summary(&c.game_id).await.unwrap();
    assert!(summary.ended, "with one seat left the open table ends");
    assert_eq!(c.notices("game_over").await.len(), 2);
    let missed = c.notices("deadline").await;
    assert_eq!(
        missed
            .iter()
            .map(|m| m["misses"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        vec![1, 2]
    );
    assert!(
        c.tick_at("2026-03-10T10:00:00Z").await.is_empty(),
        "an ended game's clock is stopped"
    );
    c.verifies().await;
}

async fn two_schedulers_at_the_same_instant_fire_once(app: TestApp) {
    let c = start(
        app,
        policy(24, &[6], false, "UTC", OnDeadline::Remind),
        "2026-03-02T10:00:00Z",
    )
    .await;
    c.app.clock().set(at("2026-03-03T10:00:00Z"));
    let other = Scheduler::new(c.app.another().clock(c.app.clock().clone()).games());
    let (a, b) = tokio::join!(c.scheduler.tick(), other.tick());
    let total = a.unwrap().len() + b.unwrap().len();
    let events = c.clock_events().await;
    let deadlines = events.iter().filter(|e| e["clock"] == "deadline").count();
    assert_eq!(deadlines, 1, "one deadline event, whoever fired it");
    assert_eq!(total, 1, "only one scheduler reports firing");
    // The reminder due at 04:00 was overtaken by the deadline at the same pass: none is sent late.
    assert_eq!(
        events.iter().filter(|e| e["clock"] == "reminder").count(),
        0
    );
}
