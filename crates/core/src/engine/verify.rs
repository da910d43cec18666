//! Offline verification of an export, with no database and no server: the hash chain, every
//! roll, every reveal, the hidden seed, a re-fold through the ruleset, and the final state hash.
//!
//! The cryptographic checks here need no ruleset and follow DESIGN.md's wire formats alone, so
//! they are what an independent verifier would do; the re-fold then checks the rules.

use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use super::canonical::{hex32, sha256_hex};
use super::dice::{faces, link_follows, DiceCommitments};
use super::event::{kind, Event, GENESIS_HASH};
use super::export::{self, Header};
use super::files;
use super::game::{versions_text, Created, Game};
use super::ruleset::{hidden_unavailable, newest, Ruleset};
use super::sealed::SealedChoice;
use super::witness::{self, Witnessed};

/// One finding of a verification.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub seq: u64,
    pub problem: String,
}

/// What a verification found.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub game_id: String,
    pub ruleset: String,
    /// The rules version the log was played under (its header's and `GameCreated`'s).
    pub ruleset_version: String,
    pub events: usize,
    pub complete: bool,
    pub rolls_checked: usize,
    pub reveals_checked: usize,
    /// How many files the moves list (name, size, type and SHA-256, covered by the hash chain;
    /// their bytes are checked by `files::check` when they are given).
    pub files_listed: usize,
    /// How many of them were checked against their bytes (`files::check`, `verify --files`).
    pub files_checked: usize,
    /// Whether the re-fold ran to the end; `None` with a reason when it could not run yet.
    pub refolded: bool,
    pub refold_note: Option<String>,
    pub final_state_hash: Option<String>,
    /// How many (seq, hash) pairs a player was shown were found in the export.
    pub witnessed: usize,
    /// Witnesses of other games, set aside.
    pub other_games: usize,
    /// Messages among the witnesses that carry no head (sign-in mail, answers; and other files
    /// in a mail folder), set aside by whoever read them (`witness::read`).
    pub without_head: usize,
    /// The first thing wrong, if anything is.
    pub failure: Option<Finding>,
}

impl Report {
    pub fn ok(&self) -> bool {
        self.failure.is_none()
    }

    /// The report for a reader.
    pub fn render(&self) -> String {
        let mut out = format!(
            "game {} ({} rules version {}), {} events, {} log\n",
            self.game_id,
            self.ruleset,
            self.ruleset_version,
            self.events,
            if self.complete {
                "complete"
            } else {
                "redacted (the game is still running)"
            }
        );
        out.push_str(&format!("  hash chain: {}\n", self.status(self.events)));
        out.push_str(&format!(
            "  dice: {} rolls recomputed from the committed chain\n",
            self.rolls_checked
        ));
        out.push_str(&format!(
            "  sealed choices: {} reveals open their commitments\n",
            self.reveals_checked
        ));
        if self.files_listed > 0 {
            out.push_str(&format!(
                "  files: {} listed by the moves, each name, size and SHA-256 under the hash chain\n",
                plural(self.files_listed, "file")
            ));
        }
        if self.files_checked > 0 {
            out.push_str(&format!(
                "  file bytes: {} given match the SHA-256 the log lists\n",
                plural(self.files_checked, "file")
            ));
        }
        match (&self.refold_note, self.refolded) {
            (Some(note), _) => out.push_str(&format!("  re-fold: {note}\n")),
            (None, true) => out.push_str("  re-fold: every event is legal under the rules\n"),
            (None, false) => {}
        }
        if let Some(h) = &self.final_state_hash {
            out.push_str(&format!("  final state hash: {h}\n"));
        }
        if self.witnessed > 0 {
            out.push_str(&format!(
                "  witnesses: the export holds all {} event hashes you were shown\n",
                self.witnessed
            ));
        }
        if self.without_head > 0 || self.other_games > 0 {
            out.push_str(&format!(
                "  set aside: {} without an {} header (sign-in mail, answers, other files), {} of another game\n",
                plural(self.without_head, "message"),
                witness::HEADER,
                plural(self.other_games, "witness"),
            ));
        }
        match &self.failure {
            None => out.push_str("VERIFIED\n"),
            Some(f) => out.push_str(&format!("FAILED at seq {}: {}\n", f.seq, f.problem)),
        }
        out
    }

    fn status(&self, _events: usize) -> &'static str {
        if self.failure.is_none() {
            "intact"
        } else {
            "see below"
        }
    }
}

/// Verifies an export's text. `rulesets` finds a ruleset by id.
pub fn verify(text: &str, rulesets: &dyn Fn(&str) -> Option<Arc<dyn Ruleset>>) -> Report {
    verify_witnessed(text, rulesets, &[])
}

/// "1 message", "2 messages".
fn plural(n: usize, word: &str) -> String {
    match (n, word.ends_with('s')) {
        (1, _) => format!("1 {word}"),
        (_, true) => format!("{n} {word}es"),
        _ => format!("{n} {word}s"),
    }
}

/// Verifies an export's text and checks that it holds every (seq, hash) a player was shown
/// (`witness::parse` reads them from notices): a history rewritten and re-hashed from an
/// earlier seq passes every other check, but not this one.
pub fn verify_witnessed(
    text: &str,
    rulesets: &dyn Fn(&str) -> Option<Arc<dyn Ruleset>>,
    witnesses: &[Witnessed],
) -> Report {
    let mut report = Report {
        game_id: String::new(),
        ruleset: String::new(),
        ruleset_version: String::new(),
        events: 0,
        complete: false,
        rolls_checked: 0,
        reveals_checked: 0,
        files_listed: 0,
        files_checked: 0,
        refolded: false,
        refold_note: None,
        final_state_hash: None,
        witnessed: 0,
        other_games: 0,
        without_head: 0,
        failure: None,
    };
    let (header, events) = match export::read(text) {
        Ok(read) => read,
        Err(e) => {
            let seq = match &e {
                export::ReadError::Event { line, .. } => (*line as u64).saturating_sub(2),
                _ => 0,
            };
            report.failure = Some(Finding {
                seq,
                problem: e.to_string(),
            });
            return report;
        }
    };
    report.game_id = header.game_id.clone();
    report.ruleset = header.ruleset.clone();
    report.ruleset_version = header.ruleset_version.clone();
    report.events = events.len();
    report.complete = header.complete;
    if let Err(f) = check_integrity(&header, &events, &mut report) {
        report.failure = Some(f);
        return report;
    }
    if let Err(f) = check_claims(&header, &events) {
        report.failure = Some(f);
        return report;
    }
    if !witnesses.is_empty() {
        report.other_games = witnesses
            .iter()
            .filter(|w| w.game_id.as_deref().is_some_and(|g| g != header.game_id))
            .count();
        match witness::check(&header.game_id, &events, witnesses) {
            Ok(n) => report.witnessed = n,
            Err(f) => {
                report.failure = Some(f);
                return report;
            }
        }
    }
    refold(&header, &events, rulesets, &mut report);
    report
}

/// What the header claims beyond the count, against the events: the ruleset's version, and
/// whether the log is complete. A complete log ends with `GameEnded` (nothing after it),
/// reveals the hidden seed it committed to and records its final state hash (which the re-fold
/// then compares); a log that says the game still runs holds no `GameEnded`. Without this, a
/// finished game's export cut short, with its count fixed, would pass as complete.
fn check_claims(header: &Header, events: &[Event]) -> Result<(), Finding> {
    let fail = |seq: u64, problem: String| Finding { seq, problem };
    if header.version != export::VERSION {
        return Err(fail(
            0,
            format!(
                "the header is version {} of the export format; this verifier reads version {}",
                header.version,
                export::VERSION
            ),
        ));
    }
    let created = &events[0].payload;
    let version = created.get("ruleset_version").and_then(Value::as_str);
    if version != Some(header.ruleset_version.as_str()) {
        return Err(fail(
            0,
            format!(
                "the header says ruleset version {} but GameCreated says {}",
                header.ruleset_version,
                version.unwrap_or("none")
            ),
        ));
    }
    let last = events.last().expect("check_integrity refuses an empty log");
    if let Some(end) = events.iter().position(|e| e.kind == kind::GAME_ENDED) {
        if end + 1 < events.len() {
            return Err(fail(
                end as u64 + 1,
                format!("an event follows GameEnded (seq {end}): nothing may come after the end of a game"),
            ));
        }
    }
    let ended = last.kind == kind::GAME_ENDED;
    if !header.complete {
        if ended {
            return Err(fail(
                last.seq,
                "the header says the game is still running (complete: false), but the log ends with GameEnded".into(),
            ));
        }
        return Ok(());
    }
    if !ended {
        return Err(fail(
            last.seq + 1,
            format!(
                "the header says the log is complete, but it ends at seq {} ({}) without GameEnded: events are missing from seq {} on, or the game is still running",
                last.seq,
                last.kind,
                last.seq + 1
            ),
        ));
    }
    if let Some(whom) = &header.redacted_for {
        return Err(fail(
            0,
            format!("the header says the log is complete, yet redacted for {whom}"),
        ));
    }
    let hidden = created
        .get("dice_commitments")
        .and_then(|c| c.get("hidden"))
        .and_then(Value::as_str);
    if hidden.is_some()
        && last
            .payload
            .get("hidden_seed")
            .and_then(Value::as_str)
            .is_none()
    {
        return Err(fail(
            last.seq,
            "GameEnded does not reveal the hidden seed committed in GameCreated".into(),
        ));
    }
    if last
        .payload
        .get("state_hash")
        .and_then(Value::as_str)
        .is_none()
    {
        return Err(fail(
            last.seq,
            "GameEnded records no final state hash to check the re-fold against".into(),
        ));
    }
    Ok(())
}

/// The ruleset-free checks: sequence, hashes, the dice chain and faces, reveals, hidden seed.
fn check_integrity(header: &Header, events: &[Event], report: &mut Report) -> Result<(), Finding> {
    let fail = |seq: u64, problem: String| Finding { seq, problem };
    if events.len() as u64 != header.events {
        let seq = events.len().min(header.events as usize) as u64;
        return Err(fail(seq, format!("the header lists {} events but the file holds {}: the export is truncated or padded", header.events, events.len())));
    }
    let first = events
        .first()
        .ok_or_else(|| fail(0, "the export holds no events".into()))?;
    if first.kind != kind::GAME_CREATED {
        return Err(fail(first.seq, "the first event is not GameCreated".into()));
    }
    let created: Created = serde_json::from_value(first.payload.clone())
        .map_err(|e| fail(0, format!("GameCreated's payload is malformed: {e}")))?;
    if created.ruleset != header.ruleset {
        return Err(fail(
            0,
            format!(
                "the header says {} but GameCreated says {}",
                header.ruleset, created.ruleset
            ),
        ));
    }
    let mut chain = created.dice_commitments.clone();
    let mut last_link =
        hex32(&chain.s0).ok_or_else(|| fail(0, "s0 is not 32 bytes of hex".into()))?;
    let mut next_index = 1u32;
    let mut prev_hash = GENESIS_HASH.to_owned();
    for (i, e) in events.iter().enumerate() {
        let seq = i as u64;
        if e.seq != seq {
            return Err(fail(
                seq,
                format!("the event in position {seq} has seq {}", e.seq),
            ));
        }
        if e.game_id != header.game_id {
            return Err(fail(
                seq,
                format!("the event belongs to game {}", e.game_id),
            ));
        }
        if e.prev_hash != prev_hash {
            return Err(fail(
                seq,
                "prev_hash is not the hash of the event before it".into(),
            ));
        }
        if e.compute_hash() != e.hash {
            return Err(fail(
                seq,
                "the event's hash does not match its content: it was changed after it was written"
                    .into(),
            ));
        }
        prev_hash = e.hash.clone();
        report.files_listed += files::of_event(e)
            .map_err(|problem| fail(seq, problem))?
            .len();
        if let Some(dice) = &e.dice {
            if dice.chain != chain.chain || dice.index != next_index {
                return Err(fail(seq, format!("the dice use chain {} link {}, but the next link is chain {} link {next_index}", dice.chain, dice.index, chain.chain)));
            }
            if next_index > chain.length {
                return Err(fail(
                    seq,
                    format!("chain {} has only {} links", chain.chain, chain.length),
                ));
            }
            let link = hex32(&dice.link)
                .ok_or_else(|| fail(seq, "the dice link is not 32 bytes of hex".into()))?;
            if !link_follows(&last_link, &link) {
                return Err(fail(seq, format!("SHA-256 of link {} is not link {}: the server did not commit to these dice in advance", dice.index, dice.index - 1)));
            }
            let sides: Vec<u32> = dice.rolls.iter().map(|r| r.sides).collect();
            if sides.contains(&0) {
                return Err(fail(seq, "a die has 0 sides".into()));
            }
            let expected = faces(
                &link,
                &e.game_id,
                e.seq,
                &e.seat,
                &dice.client_entropy,
                &sides,
            );
            for (n, (roll, face)) in dice.rolls.iter().zip(&expected).enumerate() {
                if roll.face != *face {
                    return Err(fail(
                        seq,
                        format!(
                            "die {} (d{}) shows {} but the committed link gives {face}",
                            n + 1,
                            roll.sides,
                            roll.face
                        ),
                    ));
                }
            }
            report.rolls_checked += dice.rolls.len();
            last_link = link;
            next_index += 1;
        }
        match e.kind.as_str() {
            kind::DICE_CHAIN_COMMITTED => {
                let next: DiceCommitments = serde_json::from_value(
                    e.payload
                        .get("dice_commitments")
                        .cloned()
                        .unwrap_or(Value::Null),
                )
                .map_err(|err| fail(seq, format!("dice_commitments is malformed: {err}")))?;
                last_link =
                    hex32(&next.s0).ok_or_else(|| fail(seq, "s0 is not 32 bytes of hex".into()))?;
                next_index = 1;
                chain = next;
            }
            kind::REVEALED => {
                let sealed: SealedChoice = serde_json::from_value(e.payload.clone())
                    .map_err(|err| fail(seq, format!("the reveal is malformed: {err}")))?;
                sealed.opens().map_err(|err| {
                    fail(
                        seq,
                        format!("the reveal does not open its commitment: {err}"),
                    )
                })?;
                report.reveals_checked += 1;
            }
            kind::GAME_ENDED => {
                if let Some(seed) = e.payload.get("hidden_seed").and_then(Value::as_str) {
                    let bytes = hex32(seed)
                        .ok_or_else(|| fail(seq, "hidden_seed is not 32 bytes of hex".into()))?;
                    if Some(sha256_hex(&bytes)) != created.dice_commitments.hidden {
                        return Err(fail(
                            seq,
                            "the revealed hidden seed does not match its commitment in GameCreated"
                                .into(),
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Re-folds the log through its ruleset and compares the final state hash.
fn refold(
    header: &Header,
    events: &[Event],
    rulesets: &dyn Fn(&str) -> Option<Arc<dyn Ruleset>>,
    report: &mut Report,
) {
    let Some(ruleset) = rulesets(&header.ruleset) else {
        report.refold_note = Some(format!(
            "not run: this verifier does not know the ruleset '{}'",
            header.ruleset
        ));
        return;
    };
    // A log played under another version of its rules may not fold under this one: a failure
    // then says so, so that a player checks it with a build of that version rather than
    // suspecting the server (docs/verifying.md, "Rules versions").
    // This build plays every released version (each game under its own); a log of another
    // (never released, or newer than this build) is folded under the newest, and a failure
    // then names both.
    let played = header.ruleset_version.as_str();
    let versions = ruleset.versions();
    let known = versions.contains(&played);
    let finding = |seq: u64, problem: String| Finding {
        seq,
        problem: if known {
            problem
        } else {
            format!(
                "{problem} (this log was played under {} rules version {played}; this verifier plays {}, and a change of the rules since may be why: check it with a Despatch build that plays version {played})",
                header.ruleset,
                versions_text(versions)
            )
        },
    };
    let hidden_seed = events
        .iter()
        .rev()
        .find(|e| e.kind == kind::GAME_ENDED)
        .and_then(|e| e.payload.get("hidden_seed")?.as_str().and_then(hex32));
    let unavailable = hidden_unavailable().to_string();
    let mut game = match Game::start_any_version(ruleset, &events[0], hidden_seed) {
        Ok(g) => g,
        Err(e) if hidden_seed.is_none() && e.problem.contains(&unavailable) => {
            report.refold_note = Some(
                "not run: the set-up deals from the hidden stream (cards dealt face down), whose seed is revealed when the game ends; the hash chain, the dice and the reveals are checked".into(),
            );
            return;
        }
        Err(e) => {
            report.failure = Some(finding(e.seq, e.problem));
            return;
        }
    };
    for e in &events[1..] {
        if let Err(err) = game.fold_event_quietly(e) {
            if hidden_seed.is_none() && err.problem.contains(&unavailable) {
                report.refold_note = Some(format!(
                    "stopped at seq {}: it draws from the hidden stream, whose seed is revealed when the game ends; everything before it is legal",
                    err.seq
                ));
                return;
            }
            report.failure = Some(finding(err.seq, err.problem));
            return;
        }
    }
    report.refolded = true;
    let hash = game.state_hash();
    if let Some(ended) = events.iter().rev().find(|e| e.kind == kind::GAME_ENDED) {
        if let Some(recorded) = ended.payload.get("state_hash").and_then(Value::as_str) {
            if recorded != hash {
                report.failure = Some(finding(
                    ended.seq,
                    format!("the re-folded state hashes to {hash}, but the log's final event records {recorded}"),
                ));
                return;
            }
        }
    }
    report.final_state_hash = Some(hash);
    if !known {
        report.refold_note = Some(format!(
            "every event is legal under {} rules version {}; the log was played under version {played}, which this verifier does not play",
            header.ruleset,
            newest(versions)
        ));
    }
}
