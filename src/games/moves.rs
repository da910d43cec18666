//! The one path of a move: a command (or a resignation, or a timeout) checked, parsed against the
//! loaded game, played with the service's world, appended with its secrets, notices and
//! idempotency answer in one transaction, announced, and answered.

use crate::store::GameId;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use utoipa::ToSchema;

use super::outbox;
use crate::engine::event::Event;
use crate::engine::game::{Game, Move};
use crate::engine::ruleset::{Line, PromptKind, Seat, Unexecuted, Viewer};
use crate::metrics::MoveOutcome;
use crate::store::{Append, Idempotency, OutboxRecord, StoreError};

use super::files::Upload;
use super::outbox::EmailDelivery;
use super::{
    cache, input, keys, secrets, summary_of, Caller, Games, Loaded, Result, ServiceError, Summary,
};
use crate::engine::files::FileRef;

const MAX_ENTROPY: usize = 256;

/// Writes the answer to a move from its result and who is expected after it, to go out in the
/// move's own append: inbound mail's answer to orders (`mail_in`), so that a move made by mail
/// and its player's answer are written together or not at all.
pub type Answer<'a> = dyn Fn(&MoveResult, &Summary) -> EmailDelivery + Send + Sync + 'a;

/// A command as submitted: JSON, or text in the game's order language.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum CommandInput {
    Text(String),
    #[schema(value_type = Object)]
    Json(Value),
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Submit {
    /// The seq the move's first event must have (the game's `next_seq` when the move was made).
    #[serde(deserialize_with = "seq_number")]
    #[schema(minimum = 0, maximum = 9223372036854775807_u64)]
    pub expected_seq: u64,
    pub command: CommandInput,
    /// Any string the player's client chooses; it goes into the dice derivation.
    #[serde(default)]
    pub client_entropy: String,
    /// Retrying with the same key returns the first answer and writes nothing.
    #[serde(default)]
    pub idempotency_key: Option<String>,
}

/// The largest seq the service takes from a caller: the store numbers events in a signed 64-bit
/// column, so a larger one could never match and is refused as a bad request instead.
pub const MAX_SEQ: u64 = i64::MAX as u64;

/// `expected_seq`: a whole number from 0 to `MAX_SEQ`, refused by name otherwise (serde's own
/// message would not say which field).
fn seq_number<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<u64, D::Error> {
    let value = Value::deserialize(d)?;
    value
        .as_u64()
        .filter(|&n| n <= MAX_SEQ)
        .ok_or_else(|| {
            serde::de::Error::custom(format!(
                "expected_seq must be a whole number from 0 to {MAX_SEQ} (the game's next_seq); {value} is not"
            ))
        })
}

/// The answer to an accepted move.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MoveResult {
    /// The events appended, with their dice proofs.
    #[schema(value_type = Vec<Object>)]
    pub events: Vec<Event>,
    /// What happened, as far as this seat may read.
    #[schema(value_type = Vec<Object>)]
    pub lines: Vec<Line>,
    /// The part of the order not carried out, and why.
    #[schema(value_type = Option<Object>)]
    pub unexecuted: Option<Unexecuted>,
    pub next_seq: u64,
    /// The order as the game understood it, in its order language.
    pub described: String,
    /// True when this is the saved answer to a repeated idempotency key.
    #[serde(default)]
    pub replayed: bool,
}

/// The files a move carries: what the log will list, checked already (`FileStore::check`),
/// and their bytes, kept once the rules have taken the move and before it is appended.
#[derive(Default)]
pub(super) struct Carried<'a> {
    listed: Vec<FileRef>,
    uploads: &'a [Upload],
}

/// An idempotency key as one request uses it.
struct KeyUse {
    key: String,
    /// `keys::request_hash` of the request.
    request_hash: String,
    /// When it was used, by the service's clock (keys expire `store::KEY_LIFETIME` later).
    at: chrono::DateTime<chrono::Utc>,
}

impl Games {
    /// Submits a command: the one path of a move. Its outcome is counted (`crate::metrics`).
    pub async fn submit(&self, caller: &Caller, submit: Submit) -> Result<MoveResult> {
        self.submit_loaded(caller, submit, &[], None, None).await
    }

    /// `submit` with files the move carries (docs/files.md): their names and sizes are checked
    /// before anything else is done, and a move refused for any reason keeps none of them.
    pub async fn submit_with_files(
        &self,
        caller: &Caller,
        submit: Submit,
        uploads: &[Upload],
    ) -> Result<MoveResult> {
        self.submit_loaded(caller, submit, uploads, None, None)
            .await
    }

    /// `submit` on the game as the caller loaded it already, if it did (`mail` reads the game
    /// to check a reply first), sparing the move a second load; a game moved on since is
    /// `Stale` at the append as ever. `answer`, when given, writes the answer that goes into the
    /// move's own append.
    pub(super) async fn submit_loaded(
        &self,
        caller: &Caller,
        submit: Submit,
        uploads: &[Upload],
        loaded: Option<Loaded>,
        answer: Option<&Answer<'_>>,
    ) -> Result<MoveResult> {
        let result = self
            .submit_counted(caller, submit, uploads, loaded, answer)
            .await;
        crate::metrics::moved(&caller.game_id, outcome(&result));
        result
    }

    async fn submit_counted(
        &self,
        caller: &Caller,
        submit: Submit,
        uploads: &[Upload],
        loaded: Option<Loaded>,
        answer: Option<&Answer<'_>>,
    ) -> Result<MoveResult> {
        if let Some(moves) = &self.moves {
            moves
                .check(&caller.game_id, caller.seat.as_str())
                .map_err(|limited| ServiceError::RateLimited {
                    seat: caller.seat.to_string(),
                    limited,
                })?;
        }
        check_submit(&submit)?;
        if submit.client_entropy.len() > MAX_ENTROPY {
            return Err(ServiceError::BadRequest(format!(
                "client_entropy is at most {MAX_ENTROPY} characters"
            )));
        }
        let carried = Carried {
            listed: self.files.check(uploads)?,
            uploads,
        };
        let key = submit
            .idempotency_key
            .as_deref()
            .map(str::trim)
            .filter(|k| !k.is_empty());
        let keyed = match key {
            Some(key) => Some(self.hold_key(caller, key, &submit, &carried.listed).await?),
            None => None,
        };
        if let Some((_, k)) = &keyed {
            if let Some(saved) = self.saved_answer(caller, k).await? {
                return replayed(saved);
            }
        }
        let key = keyed.as_ref().map(|(_, k)| k);
        // The cached fold, not asked of the store first: the append's expected seq is what
        // guards against a move made meanwhile by another process (`Stale`). Only when the
        // cache cannot be right — the seat names a later seq than it holds, or the rules
        // refuse the move on a state that may be old — is the game loaded from the store
        // (`load`) and the move tried once more on what it holds. A game the caller loaded
        // itself (`mail`) was just asked of the store.
        let (mut l, mut checked) = match loaded {
            Some(l) => (l, true),
            None => match self.folds.get(&caller.game_id) {
                Some(cached) => (cached, false),
                None => (self.load(&caller.game_id).await?, true),
            },
        };
        crate::metrics::note_ruleset(&caller.game_id, &l.record.ruleset);
        loop {
            if submit.expected_seq > l.game.next_seq && !checked {
                l = self.load(&caller.game_id).await?;
                checked = true;
                continue;
            }
            if submit.expected_seq != l.game.next_seq {
                return self
                    .stale_or_saved(caller, key, submit.expected_seq, l.game.next_seq)
                    .await;
            }
            let at = l.game.next_seq;
            match self
                .try_submit(l, caller, &submit, &carried, key, answer)
                .await
            {
                Err(ServiceError::Stale { sent, current_seq }) => {
                    return self.stale_or_saved(caller, key, sent, current_seq).await
                }
                Err(refused @ (ServiceError::Rule(_) | ServiceError::BadRequest(_)))
                    if !checked =>
                {
                    // Refused on a state that may be old: the refusal stands if the store
                    // holds nothing newer; otherwise the move meets the newer state.
                    l = self.load(&caller.game_id).await?;
                    checked = true;
                    if l.game.next_seq == at {
                        return Err(refused);
                    }
                }
                other => return other,
            }
        }
    }

    /// A seat's command checked and committed on `l`.
    async fn try_submit(
        &self,
        l: Loaded,
        caller: &Caller,
        submit: &Submit,
        carried: &Carried<'_>,
        key: Option<&KeyUse>,
        answer: Option<&Answer<'_>>,
    ) -> Result<MoveResult> {
        let command = match &submit.command {
            CommandInput::Text(text) => l.game.ruleset.parse(&l.game.state, &caller.seat, text)?,
            CommandInput::Json(value) => l.game.ruleset.check_json(value)?,
        };
        let described = l.game.ruleset.describe(&command)?;
        let mv = Move::Command {
            seat: caller.seat.clone(),
            command,
            client_entropy: submit.client_entropy.clone(),
        };
        let viewer = Viewer::Seat(caller.seat.clone());
        self.commit(l, mv, carried, &viewer, described, key, answer)
            .await
    }

    /// Checks an idempotency key and holds it while its move is handled (`keys`): a key held
    /// by another request now is `InProgress`.
    async fn hold_key(
        &self,
        caller: &Caller,
        key: &str,
        submit: &Submit,
        files: &[FileRef],
    ) -> Result<(keys::Held, KeyUse)> {
        if key.len() > 200 {
            return Err(ServiceError::BadRequest(
                "idempotency_key is at most 200 characters".into(),
            ));
        }
        let held = self
            .keys
            .hold(&caller.game_id, caller.seat.as_str(), key)
            .ok_or_else(|| ServiceError::InProgress { key: key.into() })?;
        let used = KeyUse {
            key: key.to_owned(),
            request_hash: keys::request_hash(submit, files),
            at: self.clock.now(),
        };
        Ok((held, used))
    }

    /// The saved answer to a key used before for the same request; `KeyReused` if it was used
    /// for another.
    async fn saved_answer(&self, caller: &Caller, k: &KeyUse) -> Result<Option<Value>> {
        match self
            .store
            .saved_answer(
                &caller.game_id,
                caller.seat.as_str(),
                &k.key,
                &k.request_hash,
                k.at,
            )
            .await
        {
            Err(StoreError::KeyReused) => Err(ServiceError::KeyReused { key: k.key.clone() }),
            other => Ok(other?),
        }
    }

    /// A move found the game moved on. If it carries a key, the move that moved the game may
    /// be its own first attempt (handled by another process, or finished since the key was
    /// checked): then the answer is that attempt's, not `stale_seq`.
    async fn stale_or_saved(
        &self,
        caller: &Caller,
        key: Option<&KeyUse>,
        sent: u64,
        current_seq: u64,
    ) -> Result<MoveResult> {
        if let Some(k) = key {
            if let Some(saved) = self.saved_answer(caller, k).await? {
                return replayed(saved);
            }
        }
        Err(ServiceError::Stale { sent, current_seq })
    }

    /// A seat resigns.
    pub async fn resign(&self, caller: &Caller) -> Result<MoveResult> {
        let l = self.load(&caller.game_id).await?;
        self.commit(
            l,
            Move::Resign {
                seat: caller.seat.clone(),
            },
            &Carried::default(),
            &Viewer::Seat(caller.seat.clone()),
            "resign".into(),
            None,
            None,
        )
        .await
    }

    /// A prompt's deadline passed: play it as a pass where the rules allow.
    pub async fn timeout(&self, game_id: &GameId, seat: &Seat) -> Result<MoveResult> {
        let l = self.load(game_id).await?;
        self.commit(
            l,
            Move::Timeout { seat: seat.clone() },
            &Carried::default(),
            &Viewer::Spectator,
            format!("timeout {seat}"),
            None,
            None,
        )
        .await
    }

    // The move, the files it carries and who made it, with what answers it: one path for
    // every kind of move, each argument its own concern.
    #[allow(clippy::too_many_arguments)]
    async fn commit(
        &self,
        l: Loaded,
        mv: Move,
        carried: &Carried<'_>,
        viewer: &Viewer,
        described: String,
        key: Option<&KeyUse>,
        answer: Option<&Answer<'_>>,
    ) -> Result<MoveResult> {
        let seat = match &mv {
            Move::Command { seat, .. } | Move::Resign { seat } | Move::Timeout { seat } => {
                seat.clone()
            }
        };
        // Let go of the shared log now, so that the cache extends it in place after the append
        // instead of copying it: a field left in `l` by `..` would live to the end of this
        // function, and every move would copy the whole log (BENCHMARKS.md, issue 16).
        let Loaded {
            record,
            game,
            mut secrets,
            tail,
            ..
        } = l;
        drop(tail);
        let game_id = record.game_id;
        let played = game.play_with_files(mv, &carried.listed, &secrets, &mut self.world())?;
        // The rules took the move: its files are kept before it is appended, so that the log
        // never lists a file the store lacks.
        self.files.put_all(&carried.listed, carried.uploads).await?;
        // The passes the server plays for seats that asked for them, in this move's append.
        let played = self.auto_passes(&game_id, played, &mut secrets).await?;
        let result = MoveResult {
            lines: played
                .applied
                .lines
                .iter()
                .filter(|line| viewer.may_see(line.to.as_deref()))
                .cloned()
                .collect(),
            unexecuted: played.applied.unexecuted.clone(),
            next_seq: played.game.next_seq,
            events: played.events.clone(),
            described,
            replayed: false,
        };
        let mut notices = turn_notices(&played.game, &played.events, self.window_notices);
        if let Some(answer) = answer {
            let email = answer(&result, &summary_of(&played.game));
            notices.push(OutboxRecord {
                game_id: game_id.to_string(),
                seq: result.next_seq - 1,
                channel: outbox::EMAIL.into(),
                seat: None,
                payload: serde_json::to_value(email).expect("an email serialises"),
                delay: std::time::Duration::ZERO,
            });
        }
        let append = Append {
            outbox: notices,
            secrets: secrets::records(&game_id, &played.secrets),
            idempotency: key.map(|k| Idempotency {
                seat: seat.to_string(),
                key: k.key.clone(),
                request_hash: k.request_hash.clone(),
                used_at: k.at,
                response: serde_json::to_value(&result).expect("serialisable"),
            }),
            events: played.events,
            // A seat already waiting for a turn notice is told this move by that one.
            once_per_seat: vec![outbox::TURN.into()],
        };
        match crate::metrics::timed_append(self.store.append(&game_id, game.next_seq, &append))
            .await
        {
            Ok(()) => {
                // The state just played is the state the next load would fold to.
                self.snapshot_after_append(game.next_seq, &played.game);
                self.folds.advance(
                    &game_id,
                    game.next_seq,
                    played.game,
                    append.events,
                    cache::Secrets::Written(&append.secrets),
                );
                self.announce(&game_id, result.next_seq);
                Ok(result)
            }
            Err(StoreError::Stale { current_seq }) => {
                // Another process appended first: the next load folds what it wrote.
                Err(ServiceError::Stale {
                    sent: game.next_seq,
                    current_seq,
                })
            }
            Err(StoreError::Replayed { response }) => replayed(response),
            Err(StoreError::KeyReused) => Err(ServiceError::KeyReused {
                key: key.map(|k| k.key.clone()).unwrap_or_default(),
            }),
            Err(e) => Err(e.into()),
        }
    }
}

/// The submitted texts that reach the log or the store hold no NUL, and the single-line ones no
/// control character at all (`input`).
fn check_submit(submit: &Submit) -> Result<()> {
    match &submit.command {
        CommandInput::Text(text) => input::free_text("command", text)?,
        CommandInput::Json(value) => input::json("command", value)?,
    }
    input::free_text("client_entropy", &submit.client_entropy)?;
    if let Some(key) = &submit.idempotency_key {
        input::single_line("idempotency_key", key, 200)?;
    }
    Ok(())
}

/// A move's result as `/metrics` counts it (`despatch_moves_total`'s `outcome`).
fn outcome(result: &Result<MoveResult>) -> MoveOutcome {
    match result {
        Ok(r) if r.replayed => MoveOutcome::Replayed,
        Ok(_) => MoveOutcome::Accepted,
        Err(ServiceError::Stale { .. }) => MoveOutcome::Stale,
        Err(ServiceError::Rule(_)) => MoveOutcome::Rule,
        Err(ServiceError::RateLimited { .. }) => MoveOutcome::RateLimited,
        Err(ServiceError::BadRequest(_)) => MoveOutcome::BadRequest,
        Err(_) => MoveOutcome::Error,
    }
}

fn replayed(saved: Value) -> Result<MoveResult> {
    let mut result: MoveResult =
        serde_json::from_value(saved).map_err(|e| ServiceError::Corrupt(e.to_string()))?;
    result.replayed = true;
    Ok(result)
}

/// Outbox rows for the events just appended: a turn notice for each seat that must act now (a
/// reactive window's held `windows` long), and a game-over notice for every seat when the game
/// ends. The dispatcher (notify) sends them.
pub(super) fn turn_notices(
    game: &Game,
    events: &[Event],
    windows: outbox::WindowNotices,
) -> Vec<OutboxRecord> {
    let last = events.last().expect("an append has events");
    let seq = last.seq;
    if game.ended {
        return game
            .created
            .seats
            .iter()
            .map(|s| OutboxRecord {
                game_id: game.game_id.clone(),
                seq,
                channel: outbox::GAME_OVER.into(),
                seat: Some(s.seat.to_string()),
                payload: json!({ "outcome": game.outcome() }),
                delay: std::time::Duration::ZERO,
            })
            .collect();
    }
    game.prompts()
        .into_iter()
        .map(|p| OutboxRecord {
            game_id: game.game_id.clone(),
            seq,
            channel: outbox::TURN.into(),
            seat: Some(p.seat.to_string()),
            payload: json!({ "kind": p.kind, "decision": p.decision }),
            delay: match p.kind {
                PromptKind::Reaction => windows.0,
                PromptKind::Turn | PromptKind::Sealed => std::time::Duration::ZERO,
            },
        })
        .collect()
}
