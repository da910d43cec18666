//! What a mail asks of the games service (`mail_in` is the face that reads and answers it): the
//! seat a signed reply address names, the orders the mail carries, its mail commands, and the
//! answer queued in the outbox.
//!
//! A message loads its game once, from the fold cache, into a `MailSeat`. The commands that
//! only read (`status`, `log`, `help`) read that; one that changes the game (orders, `resign`,
//! `vacation`) leaves the seat holding the game as the change left it — the fold the move path
//! put in the cache — so the answer describes what the player's own message did.

use serde_json::{json, Value};

use super::table::LogEntry;
use super::{
    keys, summary_of, Answer, Caller, CommandInput, Games, Loaded, MoveResult, Result,
    ServiceError, Submit, Summary, VacationRequest,
};
use crate::engine::event::timestamp;
use crate::engine::ruleset::{Prompt, Seat, Viewer};
use crate::store::{GameId, StoreError};

/// A seat a mail reached, with the game as the message last read it.
pub struct MailSeat {
    pub caller: Caller,
    game: Loaded,
}

impl MailSeat {
    pub fn game_id(&self) -> &GameId {
        &self.caller.game_id
    }

    /// The game's last event as the message last read it: the event its answer saw.
    pub fn seen(&self) -> u64 {
        self.game.game.next_seq.saturating_sub(1)
    }

    /// The game's order language, for `help`.
    pub fn grammar(&self) -> String {
        self.game.game.ruleset.info().grammar
    }

    /// Who is expected now, or how the game ended.
    pub fn summary(&self) -> Summary {
        summary_of(&self.game.game)
    }

    /// Whether a line of a reply reads as an order of the game on its own, for this seat now.
    pub fn reads_as_order(&self, line: &str) -> bool {
        let game = &self.game.game;
        game.ruleset
            .parse(&game.state, &self.caller.seat, line)
            .is_ok()
    }
}

/// The seat's game handed to a change, the seat letting go of its share of the log, so that
/// the fold cache extends the log in place after the append rather than copying it. The seat
/// reads its game again after the change (`mail_reread`).
fn lend(seat: &mut MailSeat) -> Loaded {
    let held = &mut seat.game;
    Loaded {
        record: held.record.clone(),
        seats: held.seats.clone(),
        tail: std::mem::take(&mut held.tail),
        log_from: held.log_from,
        game: held.game.clone(),
        secrets: held.secrets.clone(),
    }
}

/// Why a mail reached no seat. Nothing was changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MailRefusal {
    /// The reply address names a game this server does not have.
    NoGame,
    /// The reply address names a seat the game does not have.
    NoSeat { seen: u64 },
    /// The sender is not the address registered for the seat.
    NotTheSeat { seat: Seat, seen: u64 },
}

/// What became of a mail's orders.
#[derive(Debug)]
pub enum MailOrders {
    /// Carried out.
    Played(MoveResult),
    /// This very message was handled before, or is being handled now: a redelivery, answered
    /// already (or about to be) and left alone.
    Handled,
    /// They answer the turn notice that followed event `seen`, but the game's next event is
    /// `next`: it has moved on since the player read it, so they were not applied.
    Outdated { seen: u64, next: u64 },
    /// Not applied, for the reason the error tells the player: the rules refused them (`Rule`),
    /// the seat moves too fast (`RateLimited`) or another move came first (`Stale`).
    NotApplied(ServiceError),
}

/// The game as a seat reads it in a mail.
pub struct MailStatus {
    pub summary: Summary,
    /// What this seat may decide now: none when it is not its turn.
    pub prompts: Vec<Prompt>,
    /// The board as the seat sees it: the ruleset's text, else its view as JSON.
    pub board: String,
}

impl Games {
    /// The seat `seat_index` of game `game_id`, if `from` (lowercase) is the seat's registered
    /// address; the game is loaded once, through the fold cache, for everything the message
    /// then does.
    pub async fn mail_seat(
        &self,
        game_id: &GameId,
        seat_index: usize,
        from: &str,
    ) -> Result<Result<MailSeat, MailRefusal>> {
        let game = match self.load(game_id).await {
            Ok(l) => l,
            Err(ServiceError::NotFound(_)) => return Ok(Err(MailRefusal::NoGame)),
            Err(e) => return Err(e),
        };
        let seen = game.game.next_seq.saturating_sub(1);
        let Some(def) = game.game.created.seats.get(seat_index) else {
            return Ok(Err(MailRefusal::NoSeat { seen }));
        };
        let seat = def.seat.clone();
        let registered = game
            .seats
            .iter()
            .find(|s| s.seat == seat.as_str())
            .and_then(|s| s.email.as_deref())
            .map(str::to_ascii_lowercase);
        if registered.as_deref() != Some(from) {
            return Ok(Err(MailRefusal::NotTheSeat { seat, seen }));
        }
        let caller = Caller {
            game_id: game_id.clone(),
            seat,
        };
        Ok(Ok(MailSeat { caller, game }))
    }

    /// Plays a mail's orders as the seat's move. `message` names the mail (its Message-ID, or
    /// a digest of it): it is the move's idempotency key and client entropy, so a mail
    /// delivered twice moves once. `answers` is the event whose turn notice the mail answers,
    /// when it names one. `answer`, when given, writes the player's answer to orders carried
    /// out, which then goes into the move's own append.
    ///
    /// A redelivery is recognised before the notice is checked for age: the game may have
    /// moved on through this very message's first delivery, and its player must not be told
    /// that orders already carried out were not applied. (Orders that answer the latest notice,
    /// or none, meet the same check on the move path itself.)
    pub async fn mail_orders(
        &self,
        seat: &mut MailSeat,
        orders: &str,
        message: &str,
        answers: Option<u64>,
        uploads: &[super::files::Upload],
        answer: Option<&Answer<'_>>,
    ) -> Result<MailOrders> {
        let next = seat.game.game.next_seq;
        // Attachments over a limit or badly named: the orders are not applied, and the answer
        // says why (`MailOrders::NotApplied`).
        let listed = match self.files.check(uploads) {
            Ok(listed) => listed,
            Err(e) => return Ok(MailOrders::NotApplied(e)),
        };
        let submit = Submit {
            expected_seq: next,
            command: CommandInput::Text(orders.to_owned()),
            client_entropy: message.to_owned(),
            idempotency_key: Some(format!("mail:{}", message.trim())),
        };
        // The sender writes the id: it may name any seq, u64::MAX included.
        if let Some(seen) = answers.filter(|seen| seen.checked_add(1) != Some(next)) {
            if self.mail_handled(&seat.caller, &submit, &listed).await? {
                return Ok(MailOrders::Handled);
            }
            return Ok(MailOrders::Outdated { seen, next });
        }
        if let Some(limited) = self.logged_moves_limited(&seat.caller).await? {
            return Ok(MailOrders::NotApplied(limited));
        }
        let game = lend(seat);
        let played = self
            .submit_loaded(&seat.caller, submit, uploads, Some(game), answer)
            .await;
        let (outcome, next) = match played {
            // The same message again: answered already, or being answered now.
            Ok(result) if result.replayed => (MailOrders::Handled, next),
            Err(ServiceError::KeyReused { .. } | ServiceError::InProgress { .. }) => {
                (MailOrders::Handled, next)
            }
            Ok(result) => {
                let next = result.next_seq;
                (MailOrders::Played(result), next)
            }
            Err(stale @ ServiceError::Stale { current_seq, .. }) => {
                (MailOrders::NotApplied(stale), current_seq)
            }
            Err(e @ (ServiceError::Rule(_) | ServiceError::RateLimited { .. })) => {
                (MailOrders::NotApplied(e), next)
            }
            Err(e) => return Err(e),
        };
        self.mail_reread(seat, next).await?;
        Ok(outcome)
    }

    /// The refusal of a seat over its limit of moves by mail counted in the database
    /// (`with_logged_move_rate`), if it is.
    async fn logged_moves_limited(&self, caller: &Caller) -> Result<Option<ServiceError>> {
        let Some(rate) = self.logged_moves else {
            return Ok(None);
        };
        let window = rate.per * rate.burst.get();
        let since = self.clock.now()
            - chrono::Duration::from_std(window).unwrap_or_else(|_| chrono::Duration::days(1));
        let made = self
            .store
            .keyed_moves_since(&caller.game_id, caller.seat.as_str(), since)
            .await?;
        Ok(
            (made >= u64::from(rate.burst.get())).then(|| ServiceError::RateLimited {
                seat: caller.seat.to_string(),
                limited: super::rate::Limited {
                    rate,
                    retry_after: rate.per,
                },
            }),
        )
    }

    /// Whether the move `submit` carries the key of was made already — the key is saved with
    /// it, by this process or another — or is being made by this process now.
    async fn mail_handled(
        &self,
        caller: &Caller,
        submit: &Submit,
        files: &[crate::engine::files::FileRef],
    ) -> Result<bool> {
        let key = submit.idempotency_key.as_deref().unwrap_or_default();
        let Some(_held) = self.keys.hold(&caller.game_id, caller.seat.as_str(), key) else {
            return Ok(true);
        };
        let saved = self
            .store
            .saved_answer(
                &caller.game_id,
                caller.seat.as_str(),
                key,
                &keys::request_hash(submit, files),
                self.clock.now(),
            )
            .await;
        match saved {
            Ok(saved) => Ok(saved.is_some()),
            // Saved for another expected_seq: the first delivery, before the game moved on.
            Err(StoreError::KeyReused) => Ok(true),
            Err(e) => Err(e.into()),
        }
    }

    /// The game as the seat reads it now, from the seat's own load.
    pub fn mail_status(&self, seat: &MailSeat) -> MailStatus {
        let (game, secrets) = (&seat.game.game, &seat.game.secrets);
        let mine = &seat.caller.seat;
        let viewer = if game.ended {
            Viewer::Everyone
        } else {
            Viewer::Seat(mine.clone())
        };
        let prompts = game
            .prompts()
            .into_iter()
            .filter(|p| &p.seat == mine)
            .collect();
        let board = game
            .ruleset
            .board_text(&game.state, &viewer)
            .unwrap_or_else(|| {
                let mut view = game.view(&viewer);
                if let (Viewer::Seat(s), Some(obj)) = (&viewer, view.as_object_mut()) {
                    // The seat's own sealed choices, which only the server's secrets hold.
                    let sealed: Vec<Value> = secrets
                        .sealed_by(s.as_str())
                        .filter(|c| game.open_seals.contains_key(&c.commitment))
                        .map(|c| json!({ "commitment": c.commitment, "choice": c.choice }))
                        .collect();
                    obj.insert("your_sealed".into(), Value::Array(sealed));
                }
                serde_json::to_string_pretty(&view).unwrap_or_default()
            });
        MailStatus {
            summary: summary_of(game),
            prompts,
            board,
        }
    }

    /// The last `count` events of the seat's game with what happened in each, as the seat may
    /// read it (everything, once the game has ended): the pages' fold kept in the fold cache,
    /// moved on to the seat's load, not a fold of the whole log.
    pub async fn mail_log(&self, seat: &MailSeat, count: usize) -> Result<Vec<LogEntry>> {
        let from = (seat.game.game.next_seq).saturating_sub(count as u64);
        let folded = self.latest_fold(&seat.game, from).await?;
        let viewer = if seat.game.game.ended {
            Viewer::Everyone
        } else {
            Viewer::Seat(seat.caller.seat.clone())
        };
        Ok(folded.tail(&viewer, count))
    }

    /// The seat resigns; rules that refuse it answer `Rule`.
    pub async fn mail_resign(&self, seat: &mut MailSeat) -> Result<MoveResult> {
        let before = seat.game.game.next_seq;
        // Let go of the log, as `lend` does, so that the cache extends it in place.
        drop(std::mem::take(&mut seat.game.tail));
        let resigned = self.resign(&seat.caller).await;
        let next = resigned.as_ref().map_or(before, |r| r.next_seq);
        self.mail_reread(seat, next).await?;
        resigned
    }

    /// `vacation 3d`: `days` off the seat's clock from now, within the game clock's allowance
    /// (`take_vacation`); refusals are `BadRequest`, written for the player.
    pub async fn mail_vacation(&self, seat: &mut MailSeat, days: i64) -> Result<VacationRequest> {
        let from = self.clock.now();
        let request = VacationRequest {
            from: timestamp(from),
            until: timestamp(from + chrono::Duration::days(days)),
        };
        let taken = self.take_vacation(&seat.caller, &request).await?;
        let next = taken["next_seq"].as_u64().unwrap_or_default();
        self.mail_reread(seat, next).await?;
        Ok(request)
    }

    /// Moves the seat's game on to `next_seq` after a change: the fold the change put in the
    /// cache when it is there, without asking the store; else a load.
    async fn mail_reread(&self, seat: &mut MailSeat, next_seq: u64) -> Result<()> {
        seat.game = match self.folds.get(seat.game_id()) {
            Some(l) if l.game.next_seq >= next_seq => l,
            _ => self.load(seat.game_id()).await?,
        };
        Ok(())
    }
}
