//! What a viewer sees of a game at one moment, for the web pages: the fold of the log with each
//! event's outcome lines (filtered for the viewer), the board the ruleset draws, the viewer's
//! prompts, and the replay of a finished game one event at a time. The pages render this and add
//! nothing of their own.

use crate::store::GameId;
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use super::{summary_of, Games, Loaded, Result, ServiceError, Summary, WouldNotLoad};
use crate::engine::dice::Roll;
use crate::engine::event::{kind, Event};
use crate::engine::files::{self, FileRef};
use crate::engine::game::Game;
use crate::engine::ruleset::{BoardContext, Line, Prompt, Ruleset, Viewer};
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
    /// The files the move carried (docs/files.md).
    pub files: Vec<ShownFile>,
}

/// A game as one viewer sees it, after `shown_seq` (the latest event, or a replay step).
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub summary: Summary,
    /// The game's name (`players`).
    pub name: String,
    /// The seat looking, when a seat is.
    pub seat: Option<String>,
    pub seat_name: Option<String>,
    /// The address the looking seat's notices go to, if it has one (its own page only).
    pub seat_email: Option<String>,
    /// `seat`, `spectator` or `everyone` (after the end).
    pub viewer: String,
    /// What this seat may decide now.
    pub prompts: Vec<Prompt>,
    /// The orders this seat may make by pointing at the drawn board (`Rules::pointing`).
    pub pointing: Vec<crate::engine::board::Pointed>,
    /// This seat's own hand as cards (`Rules::hand`): on its own page only, never another's.
    pub hand: crate::engine::board::Hand,
    pub grammar: String,
    pub board_svg: Option<String>,
    /// The board as text, for games that draw no SVG (and for mail).
    pub board_text: Option<String>,
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
    /// Whether the game has ended (a replay step of a finished game included): its export is
    /// then complete, secrets and all.
    pub over: bool,
    /// When the current decision is due (RFC 3339 UTC), if a clock runs.
    pub deadline: Option<String>,
    /// The deadline as the seat looking reads it (`games::when`): in its time zone, and how
    /// far off it is now.
    pub deadline_shown: Option<super::when::Moment>,
    /// The time zone of the seat looking, if it set one (an IANA name); the page then writes
    /// its times in it rather than in the browser's.
    pub time_zone: Option<String>,
    /// Table talk this viewer may read (`talk`), oldest first: none for a spectator.
    pub talk: Vec<super::talk::TalkLine>,
    /// The limits of the files an order may carry, for a reader ("10 MiB").
    pub file_limits: FileLimitsShown,
}

/// The limits of a move's files as the order form tells them.
#[derive(Debug, Clone, Serialize)]
pub struct FileLimitsShown {
    pub per_file: String,
    pub per_move: String,
}

/// A file of a log entry, as a page shows it.
#[derive(Debug, Clone, Serialize)]
pub struct ShownFile {
    #[serde(flatten)]
    pub file: FileRef,
    /// Its size for a reader: "12 KiB".
    pub size_shown: String,
    /// Its name as the last segment of its link, percent-encoded.
    pub name_in_url: String,
}

impl ShownFile {
    fn of(file: &FileRef) -> ShownFile {
        ShownFile {
            size_shown: super::files::bytes(file.size),
            name_in_url: url::form_urlencoded::byte_serialize(file.name.as_bytes())
                .collect::<String>()
                .replace('+', "%20"),
            file: file.clone(),
        }
    }
}

/// What a clock event says in the log: every one of them is public (who was reminded, who
/// missed a deadline and what followed, who is away).
fn clock_line(payload: &Value) -> String {
    let text = |key: &str| payload.get(key).and_then(Value::as_str).unwrap_or("?");
    // The log is read long after, by every seat: the moment in UTC, without "in 2 days".
    let moment = |key: &str| super::when::when(text(key), None, None);
    let number = |key: &str| payload.get(key).and_then(Value::as_u64).unwrap_or(0);
    match text("clock") {
        "policy" => "The game's clock is set: every decision has a deadline".to_owned(),
        "reminder" => format!(
            "{} is reminded: the deadline is {} ({} h away)",
            text("seat"),
            moment("deadline"),
            number("hours_before")
        ),
        "deadline" => {
            let then = match text("action") {
                "pass" => "the decision is played as a pass, as the rules allow",
                "pause" => "the clock is paused until someone moves",
                "forfeit" => "the seat resigns",
                _ => "the game waits, with a new deadline",
            };
            let misses = number("misses");
            format!(
                "{} missed the deadline of {} ({misses} missed deadline{}): {then}",
                text("seat"),
                moment("deadline"),
                if misses == 1 { "" } else { "s" }
            )
        }
        "vacation" => format!(
            "{} is away from {} until {} ({} day{}); the clock waits",
            text("seat"),
            moment("from"),
            moment("until"),
            number("days"),
            if number("days") == 1 { "" } else { "s" }
        ),
        other => format!("The game's clock: {other}"),
    }
}

fn label(viewer: &Viewer) -> String {
    match viewer {
        Viewer::Seat(_) => "seat",
        Viewer::Spectator => "spectator",
        Viewer::Everyone => "everyone",
    }
    .into()
}

/// One event with every outcome line and who may read it: what the cache keeps. A page filters
/// it for its viewer.
#[derive(Debug, Clone)]
struct RawEntry {
    seq: u64,
    kind: String,
    seat: String,
    recorded_at: String,
    lines: Vec<Line>,
    /// How many of `lines` the rules wrote; the page's own notes (a game created, a chain
    /// committed, the game ended) follow them.
    said: usize,
    rolls: Vec<Roll>,
    files: Vec<FileRef>,
}

impl RawEntry {
    fn of(event: &Event, mut lines: Vec<Line>) -> RawEntry {
        let ruled = lines.len();
        let said = |text: &str| Line {
            text: text.into(),
            to: None,
        };
        match event.kind.as_str() {
            kind::GAME_CREATED => {
                lines.push(said("The game is created and its dice are committed"))
            }
            kind::DICE_CHAIN_COMMITTED => lines.push(said("A new dice chain is committed")),
            kind::GAME_ENDED => lines.push(said("The game ends; its hidden seed is revealed")),
            kind::CLOCK => lines.push(said(&clock_line(&event.payload))),
            _ => {}
        }
        RawEntry {
            seq: event.seq,
            kind: event.kind.clone(),
            seat: event.seat.clone(),
            recorded_at: event.recorded_at.clone(),
            lines,
            said: ruled,
            // A malformed list (which `verify` names) shows no files rather than no page.
            files: files::of_event(event).unwrap_or_default(),
            rolls: event
                .dice
                .as_ref()
                .map(|d| d.rolls.clone())
                .unwrap_or_default(),
        }
    }

    fn visible_lines<'a>(
        &'a self,
        viewer: &'a Viewer,
    ) -> impl DoubleEndedIterator<Item = &'a String> + 'a {
        self.lines
            .iter()
            .filter(|line| viewer.may_see(line.to.as_deref()))
            .map(|line| &line.text)
    }

    /// The lines of the rules' own that `viewer` may read (what a notice tells).
    fn ruled_lines<'a>(
        &'a self,
        viewer: &'a Viewer,
    ) -> impl DoubleEndedIterator<Item = &'a String> + 'a {
        self.lines[..self.said]
            .iter()
            .filter(|line| viewer.may_see(line.to.as_deref()))
            .map(|line| &line.text)
    }

    /// About how many bytes it takes.
    fn bytes(&self) -> usize {
        std::mem::size_of::<RawEntry>()
            + self.kind.len()
            + self.seat.len()
            + self.recorded_at.len()
            + self.lines.iter().map(|l| 48 + l.text.len()).sum::<usize>()
            + self.rolls.len() * std::mem::size_of::<Roll>()
            + self
                .files
                .iter()
                .map(|f| 64 + f.name.len() + f.media_type.len() + f.sha256.len())
                .sum::<usize>()
    }

    fn for_viewer(&self, viewer: &Viewer) -> LogEntry {
        LogEntry {
            seq: self.seq,
            kind: self.kind.clone(),
            seat: self.seat.clone(),
            recorded_at: self.recorded_at.clone(),
            lines: self.visible_lines(viewer).cloned().collect(),
            rolls: self.rolls.clone(),
            files: self.files.iter().map(ShownFile::of).collect(),
        }
    }
}

/// A game folded to some event, with the log up to it: the pages' fold, kept beside the game
/// in the fold cache (`cache`). A fold made from a snapshot (`Games::latest_fold`) has the
/// log's entries from the snapshot on only.
#[derive(Clone)]
pub(super) struct Folded {
    game: Game,
    /// The seq of the log's first entry: 0, or the seq of the snapshot it was made from.
    log_from: u64,
    log: Vec<RawEntry>,
    /// The log's bytes (`bytes`), counted as it grows.
    log_bytes: usize,
}

impl Folded {
    fn start(
        ruleset: Arc<dyn Ruleset>,
        first: &Event,
        hidden_seed: Option<[u8; 32]>,
    ) -> Result<Folded> {
        let game = Game::fold(ruleset, std::slice::from_ref(first), hidden_seed)
            .map_err(|e| does_not_load(first, e))?;
        let entry = RawEntry::of(first, Vec::new());
        Ok(Folded {
            game,
            log_from: 0,
            log_bytes: entry.bytes(),
            log: vec![entry],
        })
    }

    /// A fold of a game restored from its snapshot, its log to be filled from there on.
    fn from_snapshot(game: Game) -> Folded {
        Folded {
            log_from: game.next_seq,
            game,
            log: Vec::new(),
            log_bytes: 0,
        }
    }

    /// The seq of its log's first entry (0 unless it was made from a snapshot).
    pub(super) fn log_from(&self) -> u64 {
        self.log_from
    }

    /// Its log's entries of the events with seqs in `seqs`, as far as it holds them.
    fn entries(&self, seqs: std::ops::Range<u64>) -> &[RawEntry] {
        let index = |seq: u64| {
            usize::try_from(seq.saturating_sub(self.log_from))
                .unwrap_or(usize::MAX)
                .min(self.log.len())
        };
        let end = index(seqs.end);
        &self.log[index(seqs.start).min(end)..end]
    }

    /// The seq of the next event it would fold.
    pub(super) fn next_seq(&self) -> u64 {
        self.game.next_seq
    }

    /// About how many bytes its log takes beyond the game's own state (counted once).
    pub(super) fn bytes(&self) -> usize {
        self.log_bytes
    }

    /// The last `count` entries of its log, as `viewer` may read them.
    pub(super) fn tail(&self, viewer: &Viewer, count: usize) -> Vec<LogEntry> {
        let from = self.log.len().saturating_sub(count);
        self.log[from..]
            .iter()
            .map(|e| e.for_viewer(viewer))
            .collect()
    }

    pub(super) fn fold(&mut self, events: &[Event]) -> Result<()> {
        for event in events {
            // fold_event checks seq and prev_hash, so a cached fold can only be extended by the
            // events that really follow it.
            let applied = self.game.fold_event(event).map_err(|e| {
                let created = &self.game.created;
                let ruleset_version = created.ruleset_version.clone();
                ServiceError::from(WouldNotLoad {
                    game_id: self.game.game_id.clone(),
                    ruleset: created.ruleset.clone(),
                    ruleset_version,
                    seq: e.seq,
                    problem: e.problem,
                })
            })?;
            let entry = RawEntry::of(event, applied.lines);
            self.log_bytes += entry.bytes();
            self.log.push(entry);
        }
        Ok(())
    }
}

/// A log whose `GameCreated`, `first`, the pages cannot fold: the game does not load with this
/// build.
fn does_not_load(first: &Event, e: crate::engine::game::FoldError) -> ServiceError {
    let created = |field: &str| {
        first
            .payload
            .get(field)
            .and_then(serde_json::Value::as_str)
            .unwrap_or("unknown")
            .to_owned()
    };
    ServiceError::from(WouldNotLoad {
        game_id: first.game_id.clone(),
        ruleset: created("ruleset"),
        ruleset_version: created("ruleset_version"),
        seq: e.seq,
        problem: e.problem,
    })
}

impl Games {
    /// The game as `viewer` sees it now, or after event `step` (a replay, finished games only).
    /// `whole_log` asks for every log entry rather than the tail.
    pub async fn table(
        &self,
        game_id: &GameId,
        viewer: &Viewer,
        step: Option<u64>,
        whole_log: bool,
    ) -> Result<Table> {
        let l = self.load(game_id).await?;
        let (record, secrets) = (&l.record, &l.secrets);
        let folded = match step {
            None => self.latest_fold(&l, 0).await?,
            Some(n) => {
                if !record.ended {
                    return Err(ServiceError::BadRequest(
                        "a game can be replayed step by step once it has ended; until then its page shows the whole log".into(),
                    ));
                }
                let log = self.whole_log(&l).await?;
                let upto = usize::try_from(n.saturating_add(1))
                    .unwrap_or(usize::MAX)
                    .min(log.len());
                let events = &log[..upto];
                let first = events
                    .first()
                    .ok_or_else(|| ServiceError::Corrupt("the game has no events".into()))?;
                let mut f =
                    Folded::start(Self::ruleset(&record.ruleset)?, first, secrets.hidden_seed)?;
                f.fold(&events[1..])?;
                Arc::new(f)
            }
        };
        let events_total = record.next_seq.max(folded.game.next_seq);
        let (game, raw) = (&folded.game, &folded.log);
        // The seat looking stays named on its page after the end, when everything is shown.
        let looking = match viewer {
            Viewer::Seat(s) => Some(s.clone()),
            _ => None,
        };
        let viewer = if game.ended || record.ended {
            Viewer::Everyone
        } else {
            viewer.clone()
        };
        let mut recent_lines: Vec<String> = raw
            .iter()
            .rev()
            .flat_map(|e| e.visible_lines(&viewer).rev())
            .take(12)
            .cloned()
            .collect();
        recent_lines.reverse();
        let context = BoardContext {
            recent_lines,
            last_roll: raw
                .iter()
                .rev()
                .find(|e| !e.rolls.is_empty())
                .map(|e| (e.seq, e.seat.clone(), e.rolls.clone())),
        };
        let log_total = raw.len();
        let log_complete = whole_log || log_total <= LOG_TAIL;
        let shown = if log_complete {
            &raw[..]
        } else {
            &raw[log_total - LOG_TAIL..]
        };
        let log: Vec<LogEntry> = shown.iter().map(|e| e.for_viewer(&viewer)).collect();
        let seat = match &viewer {
            Viewer::Seat(s) => Some(s.clone()),
            _ => None,
        };
        // The seat's own prompts: their options as the seat itself is told them (its own
        // cards where the public prompt names a form, `Rules::own_options`).
        let prompts: Vec<Prompt> = match &seat {
            Some(s) if step.is_none() => game.own_prompts(s),
            _ => Vec::new(),
        };
        let hand = match &seat {
            Some(s) if step.is_none() => game.ruleset.hand(&game.state, s),
            _ => crate::engine::board::Hand::default(),
        };
        let pointing = match &seat {
            Some(s) if step.is_none() && !prompts.is_empty() => {
                game.ruleset.pointing(&game.state, s)
            }
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
        // Clocked games show the deadline of the seat that must act (this seat's, when it is
        // one of them); the page writes it in the viewer's time zone.
        let deadline = match self.clock_policy(game_id).await? {
            Some(policy) if !game.ended => {
                let prompts = game.prompts();
                let who = seat
                    .clone()
                    .filter(|s| prompts.iter().any(|p| &p.seat == s))
                    .or_else(|| prompts.first().map(|p| p.seat.clone()));
                match who {
                    Some(who) => {
                        let log = self.whole_log(&l).await?;
                        super::clock::seat_deadline(&policy, &log, who.as_str())
                            .map(crate::engine::event::timestamp)
                    }
                    None => None,
                }
            }
            _ => None,
        };
        // The deadline in the looking seat's time zone (UTC without one), and how far off.
        let time_zone = match (&looking, &deadline) {
            (Some(s), Some(_)) => self.seat_time_zone(game_id, s.as_str()).await?,
            _ => None,
        };
        let deadline_shown = deadline.as_deref().and_then(|d| {
            let at = chrono::DateTime::parse_from_rfc3339(d).ok()?;
            Some(super::when::moment(
                at.with_timezone(&chrono::Utc),
                super::when::zone(time_zone.as_deref()),
                Some(self.clock.now()),
            ))
        });
        // Talk as the seat looking reads it; all of it after the end.
        let talk = match (&viewer, &looking) {
            (Viewer::Everyone, _) => self.talk_for(&l, &Viewer::Everyone).await?,
            (_, Some(s)) => self.talk_for(&l, &Viewer::Seat(s.clone())).await?,
            _ => Vec::new(),
        };
        Ok(Table {
            summary: summary_of(game),
            name: super::players::name_of_loaded(&l),
            seat_name: looking
                .as_ref()
                .and_then(|s| game.seat(s.as_str()))
                .map(|d| d.name.clone()),
            seat_email: looking.as_ref().and_then(|s| {
                l.seats
                    .iter()
                    .find(|r| r.seat == s.as_str())
                    .and_then(|r| r.email.clone())
                    .filter(|e| !e.trim().is_empty())
            }),
            seat: looking.as_ref().map(|s| s.to_string()),
            viewer: label(&viewer),
            prompts,
            pointing,
            hand,
            grammar: game.ruleset.info().grammar,
            board_svg: game.ruleset.board_svg(&game.state, &viewer, &context),
            board_text: game.ruleset.board_text(&game.state, &viewer),
            view_json: serde_json::to_string_pretty(&game.view(&viewer)).expect("views serialise"),
            your_sealed,
            log,
            log_total,
            log_complete,
            shown_seq: game.next_seq - 1,
            events_total,
            over: game.ended || record.ended,
            deadline,
            deadline_shown,
            time_zone,
            talk,
            file_limits: FileLimitsShown {
                per_file: super::files::bytes(self.files.limits().per_file),
                per_move: super::files::bytes(self.files.limits().per_move),
            },
        })
    }

    /// The pages' fold of the game `l` holds, with each event's outcome lines from seq `from` on
    /// (at least): the one kept in the fold cache moved on by the events `l` holds past it; or,
    /// when `l` was loaded from a snapshot at or before `from`, a fold of that snapshot and the
    /// events `l` holds (a notice of a cold game reads no earlier event); or a fold from the
    /// start of the whole log (`Games::whole_log`). A kept fold ahead of `l` (a move came since)
    /// is handed back as it is.
    pub(super) async fn latest_fold(&self, l: &Loaded, from: u64) -> Result<Arc<Folded>> {
        let game_id = &l.record.game_id;
        let upto = l.game.next_seq;
        let kept = self
            .folds
            .page_moved_on(game_id, upto, &l.tail, l.log_from)
            .filter(|f| f.log_from <= from);
        let folded = match kept {
            // A fold ahead of `l` (a move since) holds the same entries up to it.
            Some(f) if f.next_seq() >= upto => return Ok(f),
            Some(f) if f.next_seq() < upto && l.events_from(f.next_seq()).is_some() => {
                let after = l.events_from(f.next_seq()).expect("checked above");
                let mut f = (*f).clone();
                f.fold(after)?;
                f
            }
            _ => match self.fold_from_snapshot(l, from).await? {
                Some(f) => f,
                None => {
                    let log = self.whole_log(l).await?;
                    let first = log
                        .first()
                        .ok_or_else(|| ServiceError::Corrupt("the game has no events".into()))?;
                    let ruleset = Self::ruleset(&l.record.ruleset)?;
                    let mut f = Folded::start(ruleset, first, l.secrets.hidden_seed)?;
                    f.fold(&log[1..])?;
                    f
                }
            },
        };
        let folded = Arc::new(folded);
        self.folds.put_page(game_id, folded.clone(), folded.bytes());
        Ok(folded)
    }

    /// The game's latest snapshot folded on by the events `l` holds, with their outcome lines:
    /// when `l` holds every event from the snapshot on, the snapshot is no later than `from`,
    /// and it is the log's (the hash it follows is the one the next held event names). `None`
    /// otherwise, or when it does not restore (`Snapshot::restore`; the load said why).
    async fn fold_from_snapshot(&self, l: &Loaded, from: u64) -> Result<Option<Folded>> {
        if l.log_from == 0 || from < l.log_from {
            return Ok(None);
        }
        let Some(snapshot) = self.store.latest_snapshot(&l.record.game_id).await? else {
            return Ok(None);
        };
        let Some(after) = l.events_from(snapshot.seq) else {
            return Ok(None);
        };
        let follows = match after.first() {
            Some(next) => &next.prev_hash,
            None => &l.game.last_hash,
        };
        if snapshot.seq > from || snapshot.seq > l.game.next_seq || *follows != snapshot.event_hash
        {
            return Ok(None);
        }
        let ruleset = Self::ruleset(&l.record.ruleset)?;
        let Ok(game) = snapshot.restore(ruleset, l.secrets.hidden_seed) else {
            return Ok(None);
        };
        let mut folded = Folded::from_snapshot(game);
        folded.fold(after)?;
        Ok(Some(folded))
    }

    /// The outcome lines of the rules that `viewer` may read, of the events with seqs in
    /// `seqs` (which `l` holds), the last `most` of them: what a notice tells of what happened
    /// since the seat's last move. Read from the pages' fold kept in the fold cache, moved on
    /// by the events since it last was — the log is folded again only when no such fold is
    /// kept (the first time after a cold load, from the snapshot when `seqs` start after it).
    pub async fn outcome_lines(
        &self,
        l: &Loaded,
        viewer: &Viewer,
        seqs: std::ops::Range<u64>,
        most: usize,
    ) -> Result<Vec<String>> {
        let folded = self.latest_fold(l, seqs.start).await?;
        let mut lines: Vec<String> = folded
            .entries(seqs)
            .iter()
            .rev()
            .flat_map(|e| e.ruled_lines(viewer).rev())
            .take(most)
            .cloned()
            .collect();
        lines.reverse();
        Ok(lines)
    }

    /// One event for its audit page, with the proof of its dice when it rolled.
    pub async fn audit(&self, game_id: &GameId, seq: u64) -> Result<Audit> {
        let record = self
            .store
            .game(game_id)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("there is no game {game_id}")))?;
        let events = self
            .store
            .events(game_id, 0, Some(seq.saturating_add(1)))
            .await?;
        let event = events
            .iter()
            .find(|e| e.seq == seq)
            .cloned()
            .ok_or_else(|| {
                ServiceError::NotFound(format!(
                    "game {game_id} has no event {seq} yet; its events run from 0 to {}",
                    record.next_seq.saturating_sub(1)
                ))
            })?;
        let proof = match &event.dice {
            Some(_) => Some(super::proof::prove(&events, seq)?),
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
        // What the event did, as the public log tells it: a roll's line says what it was for
        // ("anna rolls 2d6 (to cross): 3 + 4 = 7").
        let l = self.load(game_id).await?;
        let lines = self
            .outcome_lines(&l, &Viewer::Spectator, seq..seq + 1, AUDIT_LINES)
            .await?;
        Ok(Audit {
            lines,
            hash_checks: recomputed_hash == event.hash,
            prev_checks: previous_hash == event.prev_hash,
            event_json: serde_json::to_string_pretty(&event).expect("events serialise"),
            canonical,
            recomputed_hash,
            previous_hash,
            next_seq: record.next_seq,
            event,
            proof,
        })
    }
}

/// The most outcome lines the audit page shows of one event.
const AUDIT_LINES: usize = 60;

/// One event laid open: its hash link and, when it rolled, the proof of its dice.
#[derive(Debug, Clone, Serialize)]
pub struct Audit {
    pub event: Event,
    /// What it did, as the public log tells it (a roll's line says what the roll was for).
    pub lines: Vec<String>,
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
