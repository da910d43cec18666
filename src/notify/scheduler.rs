//! The scheduler: keeps slow games moving. For each running game with a clock it reads the log,
//! works out each waiting seat's deadline (`games::clock`), and when a reminder or a deadline
//! falls due it appends a `Clock` event saying so — with the notice for the seat in the same
//! transaction, and the consequence (a `Timeout` pass or a `Resigned` forfeit) in the same
//! append. So the log tells the whole story.
//!
//! Everything the scheduler knows is in the log, so it survives restarts with nothing to
//! recover; and since every append names the seq it expects, two schedulers (several servers)
//! that decide the same thing at once cannot both write it — the second is refused as stale,
//! reloads, and finds nothing left to do.
//!
//! Each pass also queues the day's digests (`Games::send_digests`), once a day per address.
//!
//! How a deadline is counted: the clock starts at the game's last event that was not the
//! clock's own (the move that made the seat's decision due). After a missed deadline that leaves
//! the seat to move (remind, or pass where the rules allow none), a new deadline of the same
//! length starts at the one missed. A `pause` stops the clock until someone moves.

use chrono::{DateTime, Utc};
use serde_json::{json, Value};

use crate::engine::event::{kind, timestamp, Event};
use crate::engine::game::{Game, Move};
use crate::engine::ruleset::Seat;
use crate::games::clock::{clock_of, seat_deadline, seat_of, ClockPolicy, OnDeadline};
use crate::games::outbox::{OutboxRecord, DEADLINE, REMINDER};
use crate::games::{GameId, Games, Loaded, ServiceError};

/// What the scheduler did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fired {
    Reminder {
        game_id: GameId,
        seat: String,
        hours_before: u32,
    },
    Deadline {
        game_id: GameId,
        seat: String,
        action: &'static str,
    },
}

/// What falls due next in one game.
#[derive(Debug, Clone, PartialEq)]
pub enum Due {
    Reminder {
        seat: Seat,
        deadline: DateTime<Utc>,
        hours_before: u32,
    },
    Deadline {
        seat: Seat,
        deadline: DateTime<Utc>,
        pass_allowed: bool,
    },
}

/// What falls due at `now` in a game folded from `events`, if anything.
pub fn next_due(
    policy: &ClockPolicy,
    game: &Game,
    events: &[Event],
    now: DateTime<Utc>,
) -> Option<Due> {
    if game.ended {
        return None;
    }
    let last_play = events.iter().rposition(|e| e.kind != kind::CLOCK)?;
    let since = &events[last_play + 1..];
    let mut seen: Vec<Seat> = Vec::new();
    for prompt in game.prompts() {
        if seen.contains(&prompt.seat) {
            continue;
        }
        seen.push(prompt.seat.clone());
        let Some(due) = seat_deadline(policy, events, prompt.seat.as_str()) else {
            continue;
        };
        if now >= due {
            return Some(Due::Deadline {
                seat: prompt.seat.clone(),
                deadline: due,
                pass_allowed: prompt.pass_on_timeout,
            });
        }
        // Of the reminders due, only the latest; one already sent for this deadline at the same
        // or a later point silences it (after downtime, one reminder, not a burst).
        let due_text = timestamp(due);
        let reminder = policy
            .reminders_hours
            .iter()
            .copied()
            .filter(|h| due - chrono::Duration::hours(i64::from(*h)) <= now)
            .min();
        if let Some(hours) = reminder {
            let sent = since
                .iter()
                .filter_map(|e| clock_of(e, "reminder"))
                .any(|p| {
                    seat_of(p) == prompt.seat.as_str()
                        && p.get("deadline").and_then(Value::as_str) == Some(&due_text)
                        && p.get("hours_before")
                            .and_then(Value::as_u64)
                            .is_some_and(|h| h <= u64::from(hours))
                });
            if !sent {
                return Some(Due::Reminder {
                    seat: prompt.seat.clone(),
                    deadline: due,
                    hours_before: hours,
                });
            }
        }
    }
    None
}

/// Runs the clocks of every running game.
#[derive(Clone)]
pub struct Scheduler {
    games: Games,
}

impl Scheduler {
    pub fn new(games: Games) -> Scheduler {
        Scheduler { games }
    }

    /// One pass over every clocked game at the games service's "now".
    pub async fn tick(&self) -> Result<Vec<Fired>, String> {
        let mut fired = Vec::new();
        for game_id in self
            .games
            .clocked_games()
            .await
            .map_err(|e| e.to_string())?
        {
            match self.tick_game(&game_id).await {
                Ok(mut f) => fired.append(&mut f),
                Err(e) => {
                    tracing::warn!(game = %game_id, error = %e, "the scheduler skipped a game")
                }
            }
        }
        // The day's digests (`games::settings`): queued once a day, whoever runs the pass.
        if let Err(e) = self.games.send_digests().await {
            tracing::warn!(error = %e, "the scheduler could not queue the daily digests");
        }
        Ok(fired)
    }

    /// Fires whatever is due in one game, one append at a time.
    pub async fn tick_game(&self, game_id: &GameId) -> Result<Vec<Fired>, String> {
        let Some(policy) = self
            .games
            .clock_policy(game_id)
            .await
            .map_err(|e| e.to_string())?
        else {
            return Ok(Vec::new());
        };
        let mut fired = Vec::new();
        // A deadline that re-arms can fall due again at once after a long downtime; each round
        // appends, so the loop is bounded by what the log allows, and by this for safety.
        for _ in 0..16 {
            let now = self.games.clock.now();
            let l = self.games.load(game_id).await.map_err(|e| e.to_string())?;
            let log = self.games.whole_log(&l).await.map_err(|e| e.to_string())?;
            let Some(due) = next_due(&policy, &l.game, &log, now) else {
                break;
            };
            match self.fire(&policy, &l, &due).await {
                Ok(f) => fired.push(f),
                // Another scheduler (or a player) got there first: look again.
                Err(ServiceError::Stale { .. }) => continue,
                Err(e) => return Err(e.to_string()),
            }
        }
        Ok(fired)
    }

    async fn fire(
        &self,
        policy: &ClockPolicy,
        l: &Loaded,
        due: &Due,
    ) -> Result<Fired, ServiceError> {
        let game_id = l.record.game_id.clone();
        let notice = |channel: &str, seat: &Seat, payload: Value| OutboxRecord {
            game_id: game_id.to_string(),
            seq: l.game.next_seq,
            channel: channel.into(),
            seat: Some(seat.to_string()),
            payload,
            delay: std::time::Duration::ZERO,
        };
        match due {
            Due::Reminder {
                seat,
                deadline,
                hours_before,
            } => {
                let deadline = timestamp(*deadline);
                let payload = json!({ "clock": "reminder", "seat": seat, "deadline": deadline, "hours_before": hours_before });
                let n = notice(
                    REMINDER,
                    seat,
                    json!({ "deadline": deadline, "hours_before": hours_before }),
                );
                self.games.clock_event(l, payload, vec![n], None).await?;
                Ok(Fired::Reminder {
                    game_id,
                    seat: seat.to_string(),
                    hours_before: *hours_before,
                })
            }
            Due::Deadline {
                seat,
                deadline,
                pass_allowed,
            } => {
                let misses = 1 + self
                    .games
                    .whole_log(l)
                    .await?
                    .iter()
                    .filter_map(|e| clock_of(e, "deadline"))
                    .filter(|p| seat_of(p) == seat.as_str())
                    .count() as u32;
                let (action, consequence, then) = match policy.on_deadline {
                    OnDeadline::Remind => (
                        "remind",
                        "The game still waits for you; a new deadline starts now.".to_string(),
                        None,
                    ),
                    OnDeadline::Pass if *pass_allowed => (
                        "pass",
                        "Your decision was played as a pass, as the rules allow.".to_string(),
                        Some(Move::Timeout { seat: seat.clone() }),
                    ),
                    OnDeadline::Pass => (
                        "remind",
                        "The rules allow no pass here, so the game waits for you; a new deadline starts now.".to_string(),
                        None,
                    ),
                    OnDeadline::Pause => (
                        "pause",
                        "The game's clock is paused until someone moves.".to_string(),
                        None,
                    ),
                    OnDeadline::Forfeit if misses >= policy.forfeit_after => (
                        "forfeit",
                        format!("That was your {misses}th missed deadline: your seat has resigned."),
                        Some(Move::Resign { seat: seat.clone() }),
                    ),
                    OnDeadline::Forfeit => (
                        "remind",
                        format!(
                            "At {} missed deadlines your seat resigns; a new deadline starts now.",
                            policy.forfeit_after
                        ),
                        None,
                    ),
                };
                let deadline = timestamp(*deadline);
                let payload = json!({ "clock": "deadline", "seat": seat, "deadline": deadline, "misses": misses, "action": action });
                let n = notice(
                    DEADLINE,
                    seat,
                    json!({ "deadline": deadline, "misses": misses, "consequence": consequence, "action": action }),
                );
                self.games.clock_event(l, payload, vec![n], then).await?;
                Ok(Fired::Deadline {
                    game_id,
                    seat: seat.to_string(),
                    action,
                })
            }
        }
    }

    /// Runs until the process ends, a pass every `every`.
    pub async fn run(self, every: std::time::Duration) {
        tracing::info!("scheduler running, a pass every {every:?}");
        loop {
            if let Err(e) = self.tick().await {
                tracing::warn!(error = %e, "the scheduler could not read the clocked games");
            }
            tokio::time::sleep(every).await;
        }
    }
}
