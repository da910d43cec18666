//! What a viewer sees of a game at one moment, for the web pages: the fold of the log with each
//! event's outcome lines (filtered for the viewer), the board the ruleset draws, the viewer's
//! prompts, and the replay of a finished game one event at a time. The pages render this and add
//! nothing of their own.

use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use super::secrets::GameSecrets;
use super::{summary_of, Games, Result, ServiceError, Summary};
use crate::engine::dice::Roll;
use crate::engine::event::{kind, Event};
use crate::engine::game::Game;
use crate::engine::ruleset::{BoardContext, Prompt, Ruleset, Viewer};
use crate::engine::verify::{verify, Report};
use crate::rules;

/// How many log entries a page shows by default; the rest are one link away.
pub const LOG_TAIL: usize = 100;

/// One event as a log entry a viewer may read.
#[derive(Debug, Clone, Serialize)]
pub struct LogEntry {
    pub seq: u64,
    pub kind: String,
    pub seat: String,
    pub recorded_at: String,
    /// The outcome lines this viewer may read.
    pub lines: Vec<String>,
    /// The public dice the event rolled, in draw order; the audit page proves them.
    pub rolls: Vec<Roll>,
}

/// A game as one viewer sees it, after `shown_seq` (the latest event, or a replay step).
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub summary: Summary,
    /// The seat looking, when a seat is.
    pub seat: Option<String>,
    pub seat_name: Option<String>,
    /// `seat`, `spectator` or `everyone` (after the end).
    pub viewer: String,
    /// What this seat may decide now.
    pub prompts: Vec<Prompt>,
    pub grammar: String,
    pub board_svg: Option<String>,
    /// The ruleset's view for this viewer, pretty-printed.
    pub view_json: String,
    /// This seat's sealed choices not yet revealed (only the seat itself sees them).
    pub your_sealed: Vec<Value>,
    /// The log, newest last; only its tail unless the whole log was asked for.
    pub log: Vec<LogEntry>,
    pub log_total: usize,
    pub log_complete: bool,
    /// The seq of the last event folded.
    pub shown_seq: u64,
    /// The number of events in the whole game.
    pub events_total: u64,
    /// When the current decision is due (RFC 3339 UTC), if a clock runs. No clock policy is
    /// stored yet, so this stays `None` until the clock work lands.
    pub deadline: Option<String>,
}

fn label(viewer: &Viewer) -> String {
    match viewer {
        Viewer::Seat(_) => "seat",
        Viewer::Spectator => "spectator",
        Viewer::Everyone => "everyone",
    }
    .into()
}

/// Folds `events` collecting each event's lines for `viewer`.
fn fold_with_log(
    ruleset: Arc<dyn Ruleset>,
    hidden_seed: Option<[u8; 32]>,
    events: &[Event],
    viewer: &Viewer,
) -> Result<(Game, Vec<LogEntry>)> {
    let corrupt = |e: crate::engine::game::FoldError| ServiceError::Corrupt(e.to_string());
    let mut game = Game::fold(ruleset, &events[..1], hidden_seed).map_err(corrupt)?;
    let mut log = Vec::with_capacity(events.len());
    log.push(entry(&events[0], Vec::new()));
    for event in &events[1..] {
        let applied = game.fold_event(event).map_err(corrupt)?;
        let lines = applied
            .lines
            .into_iter()
            .filter(|line| viewer.may_see(line.to.as_deref()))
            .map(|line| line.text)
            .collect();
        log.push(entry(event, lines));
    }
    Ok((game, log))
}

fn entry(event: &Event, mut lines: Vec<String>) -> LogEntry {
    match event.kind.as_str() {
        kind::GAME_CREATED => lines.push("The game is created and its dice are committed".into()),
        kind::DICE_CHAIN_COMMITTED => lines.push("A new dice chain is committed".into()),
        kind::GAME_ENDED => lines.push("The game ends; its hidden seed is revealed".into()),
        _ => {}
    }
    LogEntry {
        seq: event.seq,
        kind: event.kind.clone(),
        seat: event.seat.clone(),
        recorded_at: event.recorded_at.clone(),
        lines,
        rolls: event
            .dice
            .as_ref()
            .map(|d| d.rolls.clone())
            .unwrap_or_default(),
    }
}

impl Games {
    /// The game as `viewer` sees it now, or after event `step` (a replay, finished games only).
    /// `whole_log` asks for every log entry rather than the tail.
    pub async fn table(
        &self,
        game_id: &str,
        viewer: &Viewer,
        step: Option<u64>,
        whole_log: bool,
    ) -> Result<Table> {
        // Not `load`: that folds without the lines, and a page would fold twice.
        let record = self
            .store
            .game(game_id)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("there is no game {game_id}")))?;
        let ruleset = Self::ruleset(&record.ruleset)?;
        let events = self.store.events(game_id, 0, None).await?;
        if events.is_empty() {
            return Err(ServiceError::Corrupt("the game has no events".into()));
        }
        let secrets = GameSecrets::from_records(&self.store.secrets(game_id).await?);
        let ended = events.last().is_some_and(|e| e.kind == kind::GAME_ENDED);
        let viewer = if ended {
            Viewer::Everyone
        } else {
            viewer.clone()
        };
        let events_total = events.len() as u64;
        let upto = match step {
            None => events.len(),
            Some(_) if !ended => {
                return Err(ServiceError::BadRequest(
                    "a game can be replayed step by step once it has ended; until then its page shows the whole log".into(),
                ))
            }
            Some(n) => (n.min(events_total - 1) + 1) as usize,
        };
        let (game, log) = fold_with_log(ruleset, secrets.hidden_seed, &events[..upto], &viewer)?;
        let mut recent_lines: Vec<String> = log
            .iter()
            .rev()
            .flat_map(|e| e.lines.iter().rev())
            .take(12)
            .cloned()
            .collect();
        recent_lines.reverse();
        let context = BoardContext {
            recent_lines,
            last_roll: log
                .iter()
                .rev()
                .find(|e| !e.rolls.is_empty())
                .map(|e| (e.seq, e.seat.clone(), e.rolls.clone())),
        };
        let seat = match &viewer {
            Viewer::Seat(s) => Some(s.clone()),
            _ => None,
        };
        let prompts: Vec<Prompt> = match &seat {
            Some(s) if step.is_none() => game
                .prompts()
                .into_iter()
                .filter(|p| &p.seat == s)
                .collect(),
            _ => Vec::new(),
        };
        let your_sealed = match &seat {
            Some(s) => secrets
                .sealed_by(s.as_str())
                .filter(|c| game.open_seals.contains_key(&c.commitment))
                .map(|c| serde_json::json!({ "commitment": c.commitment, "choice": c.choice }))
                .collect(),
            None => Vec::new(),
        };
        let log_total = log.len();
        let log_complete = whole_log || log_total <= LOG_TAIL;
        let log = if log_complete {
            log
        } else {
            log[log_total - LOG_TAIL..].to_vec()
        };
        Ok(Table {
            summary: summary_of(&game),
            seat_name: seat
                .as_ref()
                .and_then(|s| game.seat(s.as_str()))
                .map(|d| d.name.clone()),
            seat: seat.as_ref().map(|s| s.to_string()),
            viewer: label(&viewer),
            prompts,
            grammar: game.ruleset.info().grammar,
            board_svg: game.ruleset.board_svg(&game.state, &viewer, &context),
            view_json: serde_json::to_string_pretty(&game.view(&viewer)).expect("views serialise"),
            your_sealed,
            log,
            log_total,
            log_complete,
            shown_seq: game.next_seq - 1,
            events_total,
            deadline: None,
        })
    }

    /// One event for its audit page, with the proof of its dice when it rolled.
    pub async fn audit(&self, game_id: &str, seq: u64) -> Result<Audit> {
        let events = self.events_after(game_id, 0).await?;
        let event = events
            .iter()
            .find(|e| e.seq == seq)
            .cloned()
            .ok_or_else(|| {
                ServiceError::NotFound(format!(
                    "game {game_id} has no event {seq} yet; its events run from 0 to {}",
                    events.len().saturating_sub(1)
                ))
            })?;
        let proof = match &event.dice {
            Some(_) => Some(super::proof::prove(&events, seq).map_err(ServiceError::Corrupt)?),
            None => None,
        };
        let mut without_hash = serde_json::to_value(&event).expect("events serialise");
        if let Some(obj) = without_hash.as_object_mut() {
            obj.remove("hash");
        }
        let canonical = crate::engine::canonical::canonical_json(&without_hash);
        let recomputed_hash = crate::engine::canonical::sha256_hex(canonical.as_bytes());
        let previous_hash = match seq {
            0 => crate::engine::event::GENESIS_HASH.to_owned(),
            n => events[(n - 1) as usize].hash.clone(),
        };
        Ok(Audit {
            hash_checks: recomputed_hash == event.hash,
            prev_checks: previous_hash == event.prev_hash,
            event_json: serde_json::to_string_pretty(&event).expect("events serialise"),
            canonical,
            recomputed_hash,
            previous_hash,
            next_seq: events.len() as u64,
            event,
            proof,
        })
    }
}

/// One event laid open: its hash link and, when it rolled, the proof of its dice.
#[derive(Debug, Clone, Serialize)]
pub struct Audit {
    pub event: Event,
    pub event_json: String,
    /// The RFC 8785 canonical JSON of the event without its `hash`: what the hash is over.
    pub canonical: String,
    pub recomputed_hash: String,
    pub hash_checks: bool,
    /// The hash of the event before (64 zeros for event 0).
    pub previous_hash: String,
    pub prev_checks: bool,
    pub proof: Option<super::proof::Proof>,
    pub next_seq: u64,
}

/// Checks an uploaded export on the server, for readers without JavaScript (the verify page
/// does the same in the browser).
pub fn check_export(text: &str) -> Report {
    verify(text, &rules::find)
}
