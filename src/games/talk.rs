//! Table talk (issue 21; docs/web.md, "Table talk"): a seat says something to the whole table
//! (`say …`) or tells one seat (`tell <seat> …`), from its page or in a reply by mail. Talk is
//! kept outside the game's hash chain, in a table of its own: it changes nothing in the game,
//! and the log stays the evidence of the play. Each message goes to its readers through the
//! outbox as a `talk` notice, in the same transaction that keeps it.
//!
//! Who reads what: a message to the table is read by every seat; one told to a seat by that
//! seat and its sender only — on the seat page, never in another seat's view or export. After
//! the end every message is public: the complete export carries them all in its header, marked
//! as talk (`talk` beside the events, which stay byte for byte what was hashed). A spectator
//! reads no talk while the game runs.
//!
//! A ruleset may limit `tell` (`Rules::may_tell`: Searching for Glory allows it only in the
//! Planning Phase, between characters on one location point); talk to the table is never
//! limited.

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::outbox::TALK;
use super::{input, Caller, Games, Loaded, Result, ServiceError};
use crate::engine::event::timestamp;
use crate::engine::ruleset::{Seat, Viewer};
use crate::store::{OutboxRecord, TalkRecord};

/// The longest message, in characters.
pub const MAX_TALK: usize = 2000;

/// One message as a reader sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct TalkLine {
    /// Always `talk`: what marks the line in an export.
    pub kind: String,
    pub after_seq: u64,
    pub from: String,
    pub from_name: String,
    /// `None`: to the whole table.
    pub to: Option<String>,
    pub to_name: Option<String>,
    pub text: String,
    pub recorded_at: String,
}

/// The seat `to` names in `l`'s game: its id, or its player's name in any case.
fn addressee(l: &Loaded, to: &str) -> Result<Seat> {
    let to = to.trim();
    let found = l
        .seats
        .iter()
        .find(|s| s.seat == to)
        .or_else(|| l.seats.iter().find(|s| s.name.eq_ignore_ascii_case(to)))
        .or_else(|| {
            l.seats
                .iter()
                .find(|s| s.name.to_lowercase() == to.to_lowercase())
        });
    match found {
        Some(s) => Seat::parse(&s.seat).map_err(ServiceError::Corrupt),
        None => {
            let seats: Vec<String> = l
                .seats
                .iter()
                .map(|s| format!("{} ({})", s.seat, s.name))
                .collect();
            Err(ServiceError::BadRequest(format!(
                "there is no seat '{to}' at this table; tell one of {}",
                seats.join(", ")
            )))
        }
    }
}

fn line(l: &Loaded, t: TalkRecord) -> TalkLine {
    let name = |seat: &str| {
        l.seats
            .iter()
            .find(|s| s.seat == seat)
            .map_or_else(|| seat.to_owned(), |s| s.name.clone())
    };
    TalkLine {
        kind: "talk".into(),
        after_seq: t.after_seq,
        from_name: name(&t.from_seat),
        to_name: t.to_seat.as_deref().map(name),
        from: t.from_seat,
        to: t.to_seat,
        text: t.body,
        recorded_at: t.recorded_at,
    }
}

impl Games {
    /// The caller says `text` to the table (`to` is `None`) or tells the seat `to` (its id or
    /// its player's name). Checked before anything is written: the text (1 to `MAX_TALK`
    /// characters, no control character but line breaks and tabs), the addressee (another seat
    /// of the game), and the ruleset's `may_tell`.
    pub async fn talk(&self, caller: &Caller, to: Option<&str>, text: &str) -> Result<TalkLine> {
        let text = text.trim();
        if text.is_empty() {
            return Err(ServiceError::BadRequest(
                "the message is empty; write something to say".into(),
            ));
        }
        input::free_text("text", text)?;
        if text.chars().count() > MAX_TALK {
            return Err(ServiceError::BadRequest(format!(
                "the message is longer than {MAX_TALK} characters; say it in parts"
            )));
        }
        let l = self.load(&caller.game_id).await?;
        let to = match to.map(str::trim).filter(|t| !t.is_empty()) {
            Some(to) => {
                let seat = addressee(&l, to)?;
                if seat == caller.seat {
                    return Err(ServiceError::BadRequest(
                        "that is your own seat; tell another seat, or say it to the table".into(),
                    ));
                }
                l.game
                    .ruleset
                    .may_tell(&l.game.state, &caller.seat, &seat)?;
                Some(seat)
            }
            None => None,
        };
        let after_seq = l.game.next_seq.saturating_sub(1);
        let record = TalkRecord {
            game_id: caller.game_id.clone(),
            id: 0,
            after_seq,
            from_seat: caller.seat.to_string(),
            to_seat: to.as_ref().map(Seat::to_string),
            body: text.to_owned(),
            recorded_at: timestamp(self.clock.now()),
        };
        let readers: Vec<String> = match &to {
            Some(seat) => vec![seat.to_string()],
            None => l
                .seats
                .iter()
                .filter(|s| s.seat != caller.seat.as_str())
                .map(|s| s.seat.clone())
                .collect(),
        };
        let talk = line(&l, record.clone());
        let notices: Vec<OutboxRecord> = readers
            .into_iter()
            .map(|reader| OutboxRecord {
                game_id: caller.game_id.to_string(),
                seq: after_seq,
                channel: TALK.into(),
                seat: Some(reader),
                payload: json!({
                    "from": talk.from,
                    "from_name": talk.from_name,
                    "to_table": to.is_none(),
                    "text": talk.text,
                }),
                delay: std::time::Duration::ZERO,
            })
            .collect();
        self.store.add_talk(&record, &notices).await?;
        Ok(talk)
    }

    /// The messages the caller's seat may read, oldest first, as its page shows them: its own
    /// while the game runs, every one after the end.
    pub async fn talk_of(&self, caller: &Caller) -> Result<Vec<TalkLine>> {
        let l = self.load(&caller.game_id).await?;
        let viewer = if l.game.ended || l.record.ended {
            Viewer::Everyone
        } else {
            Viewer::Seat(caller.seat.clone())
        };
        self.talk_for(&l, &viewer).await
    }

    /// The messages of a game `viewer` may read, oldest first: a seat's (to the table, from it
    /// or to it) while the game runs; all of them for `Everyone` (after the end); none for a
    /// spectator.
    pub async fn talk_for(&self, l: &Loaded, viewer: &Viewer) -> Result<Vec<TalkLine>> {
        let reads = |t: &TalkRecord| match viewer {
            Viewer::Everyone => true,
            Viewer::Seat(s) => {
                t.to_seat.is_none()
                    || t.from_seat == s.as_str()
                    || t.to_seat.as_deref() == Some(s.as_str())
            }
            _ => false,
        };
        if !matches!(viewer, Viewer::Seat(_) | Viewer::Everyone) {
            return Ok(Vec::new());
        }
        Ok(self
            .store
            .talk(&l.record.game_id)
            .await?
            .into_iter()
            .filter(reads)
            .map(|t| line(l, t))
            .collect())
    }
}
