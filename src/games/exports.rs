//! The log as it leaves the server: events after a seq, the export (redacted while the game
//! runs, complete once it has ended, with the table talk in its header), the log as a viewer
//! may read it, one roll's proof.

use crate::store::GameId;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::event::{kind, timestamp, Event};
use crate::engine::export::{self, Header};
use crate::engine::game::Game;
use crate::engine::ruleset::Viewer;

use super::secrets::GameSecrets;
use super::snapshots::would_not_load;
use super::{proof, Games, Result, ServiceError};

/// One event of a game's log, as a viewer may read it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LogEntry {
    pub seq: u64,
    pub kind: String,
    pub seat: String,
    pub lines: Vec<String>,
    /// (sides, face) of each public die.
    pub rolls: Vec<(u32, u32)>,
}

impl Games {
    /// Events from `from` on. Events hold nothing secret (secrets live in their own table until
    /// an event reveals them), so every reader gets the same events.
    pub async fn events_after(&self, game_id: &GameId, from: u64) -> Result<Vec<Event>> {
        self.store
            .game(game_id)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("there is no game {game_id}")))?;
        Ok(self.store.events(game_id, from, None).await?)
    }

    /// The export for a viewer: redacted (no secret is in the log yet) while the game runs,
    /// complete once it has ended.
    ///
    /// The event lines are the stored text, byte for byte — exactly what was hashed — so the
    /// export parses only the first event (for the ruleset version) and serialises nothing
    /// again. The game record is read before the events: a game that ends in between is exported
    /// as still running (redacted), never as complete without its last event.
    pub async fn export(&self, game_id: &GameId, viewer: &Viewer) -> Result<String> {
        let record = self
            .store
            .game(game_id)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("there is no game {game_id}")))?;
        let lines = self.store.events_json(game_id, 0, None).await?;
        let first = lines
            .first()
            .ok_or_else(|| ServiceError::Corrupt("the game has no events".into()))?;
        let created: Event = serde_json::from_str(first)
            .map_err(|e| ServiceError::Corrupt(format!("event 0 does not parse: {e}")))?;
        let version = created
            .payload
            .get("ruleset_version")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let complete = record.ended;
        let header = Header {
            format: export::FORMAT.into(),
            version: export::VERSION,
            game_id: game_id.to_string(),
            ruleset: record.ruleset,
            ruleset_version: version,
            exported_at: timestamp(chrono::Utc::now()),
            complete,
            redacted_for: (!complete).then(|| match viewer {
                Viewer::Seat(s) => s.to_string(),
                _ => "spectator".into(),
            }),
            events: lines.len() as u64,
        };
        let mut out = if complete {
            self.header_with_talk(game_id, &header).await?
        } else {
            serde_json::to_string(&header).expect("serialisable")
        };
        out.reserve(lines.iter().map(|l| l.len() + 1).sum::<usize>() + 1);
        out.push('\n');
        for line in &lines {
            out.push_str(line);
            out.push('\n');
        }
        Ok(out)
    }

    /// A complete export's header, with the game's table talk (`talk`) beside the events when
    /// there was any: every message, each marked `"kind": "talk"`. Talk is no event — it is in
    /// no hash — so it rides in the header, which readers of the events ignore.
    async fn header_with_talk(&self, game_id: &GameId, header: &Header) -> Result<String> {
        let l = self.load(game_id).await?;
        let talk = self.talk_for(&l, &Viewer::Everyone).await?;
        let mut text = serde_json::to_string(header).expect("serialisable");
        if !talk.is_empty() {
            // The header's own fields keep their order; `talk` comes last.
            text.pop();
            text.push_str(",\"talk\":");
            text.push_str(&serde_json::to_string(&talk).expect("serialisable"));
            text.push('}');
        }
        Ok(text)
    }

    /// The game's log as `viewer` may read it: each event with the lines it produced.
    pub async fn log(&self, game_id: &GameId, viewer: &Viewer) -> Result<Vec<LogEntry>> {
        let record = self
            .store
            .game(game_id)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("there is no game {game_id}")))?;
        let ruleset = Self::ruleset(&record.ruleset)?;
        let events = self.store.events(game_id, 0, None).await?;
        let secrets = GameSecrets::from_records(&self.store.secrets(game_id).await?);
        let corrupt = |e: crate::engine::game::FoldError| {
            ServiceError::from(would_not_load(&record, events.first(), e.seq, e.problem))
        };
        let mut game = Game::fold(ruleset, &events[..1.min(events.len())], secrets.hidden_seed)
            .map_err(corrupt)?;
        let mut log = vec![LogEntry {
            seq: 0,
            kind: kind::GAME_CREATED.into(),
            seat: "system".into(),
            lines: Vec::new(),
            rolls: Vec::new(),
        }];
        for e in &events[1..] {
            let applied = game.fold_event(e).map_err(corrupt)?;
            log.push(LogEntry {
                seq: e.seq,
                kind: e.kind.clone(),
                seat: e.seat.clone(),
                lines: applied
                    .lines
                    .into_iter()
                    .filter(|l| viewer.may_see(l.to.as_deref()))
                    .map(|l| l.text)
                    .collect(),
                rolls: e
                    .dice
                    .as_ref()
                    .map(|d| d.rolls.iter().map(|r| (r.sides, r.face)).collect())
                    .unwrap_or_default(),
            });
        }
        Ok(log)
    }

    /// The proof of one event's dice.
    pub async fn proof(&self, game_id: &GameId, seq: u64) -> Result<proof::Proof> {
        let events = self.store.events(game_id, 0, Some(seq + 1)).await?;
        if events.is_empty() {
            return Err(ServiceError::NotFound(format!(
                "there is no game {game_id}"
            )));
        }
        Ok(proof::prove(&events, seq)?)
    }
}
