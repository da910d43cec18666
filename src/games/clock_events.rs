//! The game's clock in its log: what a clock did appended as a `Clock` event (with the move a
//! missed deadline makes), the game's policy read, vacations taken.

use crate::store::GameId;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use utoipa::ToSchema;

use super::clock::ClockPolicy;
use crate::engine::event::{kind, timestamp};
use crate::engine::game::Move;
use crate::store::{Append, OutboxRecord, StoreError};

use super::moves::turn_notices;
use super::{secrets, Caller, Games, Loaded, Result, ServiceError};

/// A vacation asked for in advance.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct VacationRequest {
    /// RFC 3339.
    pub from: String,
    /// RFC 3339.
    pub until: String,
}

impl Games {
    /// Appends what the game's clock did — a `Clock` event with its notices — and, when a
    /// missed deadline has a consequence, the move it makes (a pass or a resignation), all in one
    /// append at the seq `l` was loaded at. A racing append makes it `Stale`.
    pub async fn clock_event(
        &self,
        l: &Loaded,
        payload: Value,
        notices: Vec<OutboxRecord>,
        then: Option<Move>,
    ) -> Result<u64> {
        let mut world = self.world();
        let (event, game) = l.game.note_clock(payload, &mut world)?;
        let mut events = vec![event];
        let mut outbox = notices;
        let mut new_secrets = Vec::new();
        let mut next_seq = game.next_seq;
        if let Some(mv) = then {
            let played = game.play(mv, &l.secrets, &mut world)?;
            outbox.extend(turn_notices(
                &played.game,
                &played.events,
                self.window_notices,
            ));
            new_secrets = secrets::records(&l.record.game_id, &played.secrets);
            next_seq = played.game.next_seq;
            events.extend(played.events);
        }
        let append = Append {
            events,
            secrets: new_secrets,
            outbox,
            idempotency: None,
            // A seat already waiting for a turn notice is told these events by that one.
            once_per_seat: vec![super::outbox::TURN.into()],
        };
        match self
            .store
            .append(&l.record.game_id, l.game.next_seq, &append)
            .await
        {
            Ok(()) => {
                self.announce(&l.record.game_id, next_seq);
                Ok(next_seq)
            }
            Err(StoreError::Stale { current_seq }) => Err(ServiceError::Stale {
                sent: l.game.next_seq,
                current_seq,
            }),
            Err(e) => Err(e.into()),
        }
    }

    /// The game's clock policy, if it has one.
    pub async fn clock_policy(&self, game_id: &GameId) -> Result<Option<ClockPolicy>> {
        match self.store.clock(game_id).await? {
            None => Ok(None),
            Some(v) => serde_json::from_value(v)
                .map(Some)
                .map_err(|e| ServiceError::Corrupt(format!("the clock policy is malformed: {e}"))),
        }
    }

    /// A seat takes a vacation, in advance, within its yearly allowance: its deadlines do not
    /// run while it lasts. Recorded as a `Clock` event.
    pub async fn take_vacation(&self, caller: &Caller, req: &VacationRequest) -> Result<Value> {
        let policy = self.clock_policy(&caller.game_id).await?.ok_or_else(|| {
            ServiceError::BadRequest("this game has no clock, so it has no vacations".into())
        })?;
        let parse = |what: &str, text: &str| {
            chrono::DateTime::parse_from_rfc3339(text)
                .map(|t| t.with_timezone(&chrono::Utc))
                .map_err(|_| {
                    ServiceError::BadRequest(format!(
                        "{what} '{text}' is not an RFC 3339 time (2026-12-24T00:00:00Z)"
                    ))
                })
        };
        let (from, until) = (parse("from", &req.from)?, parse("until", &req.until)?);
        let now = self.clock.now();
        if from < now - chrono::Duration::minutes(5) {
            return Err(ServiceError::BadRequest(
                "a vacation is taken in advance: 'from' must not be in the past".into(),
            ));
        }
        if until <= from {
            return Err(ServiceError::BadRequest(
                "'until' must come after 'from'".into(),
            ));
        }
        let days = ((until - from).num_minutes() as f64 / (24.0 * 60.0)).ceil() as i64;
        for _ in 0..5 {
            let l = self.load(&caller.game_id).await?;
            let year = chrono::Datelike::year(&from);
            let taken: i64 = self
                .whole_log(&l)
                .await?
                .iter()
                .filter(|e| e.kind == kind::CLOCK)
                .filter(|e| e.payload.get("clock").and_then(Value::as_str) == Some("vacation"))
                .filter(|e| {
                    e.payload.get("seat").and_then(Value::as_str) == Some(caller.seat.as_str())
                })
                .filter(|e| {
                    e.payload
                        .get("from")
                        .and_then(Value::as_str)
                        .and_then(|f| chrono::DateTime::parse_from_rfc3339(f).ok())
                        .is_some_and(|f| chrono::Datelike::year(&f) == year)
                })
                .filter_map(|e| e.payload.get("days").and_then(Value::as_i64))
                .sum();
            let allowance = i64::from(policy.vacation_days_per_year);
            if taken + days > allowance {
                return Err(ServiceError::BadRequest(format!(
                    "{} has {} vacation days left in {year} ({allowance} a year, {taken} taken); this vacation is {days}",
                    caller.seat,
                    (allowance - taken).max(0)
                )));
            }
            let payload = json!({
                "clock": "vacation", "seat": caller.seat, "from": timestamp(from),
                "until": timestamp(until), "days": days,
            });
            match self.clock_event(&l, payload, Vec::new(), None).await {
                Ok(next_seq) => {
                    return Ok(
                        json!({ "seat": caller.seat, "from": timestamp(from), "until": timestamp(until),
                        "days": days, "days_left": allowance - taken - days, "next_seq": next_seq }),
                    )
                }
                Err(ServiceError::Stale { .. }) => continue,
                Err(e) => return Err(e),
            }
        }
        Err(ServiceError::BadRequest(
            "the game kept moving while the vacation was recorded; try again".into(),
        ))
    }
}
