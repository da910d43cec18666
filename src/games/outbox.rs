//! The outbox's vocabulary: what a row written beside an event says. The games service writes
//! rows (a turn notice when a seat must act, the game's end, the clock's reminders and missed
//! deadlines), notify's dispatcher reads and delivers them, mail_in queues its answers. All
//! three speak these words, so they live here, with the games service that owns the outbox,
//! and no face needs another to name a row.
//!
//! A row's `channel` is either a *notice kind*, which the dispatcher expands into one delivery
//! per channel the seat has turned on, or a *delivery channel*, a message ready to send.

pub use crate::store::{Channels, Claimed, OutboxRecord, OutboxRow, Superseded, WebhookRecord};

use serde::{Deserialize, Serialize};

/// A notice kind: the seat must act (the games service, after a move).
pub const TURN: &str = "turn";
/// A notice kind: the seat's deadline is near (the scheduler).
pub const REMINDER: &str = "reminder";
/// A notice kind: the seat missed its deadline (the scheduler).
pub const DEADLINE: &str = "deadline";
/// A notice kind: a seat was made for this player, whose turn it is not yet (the games service,
/// at a game's creation; the seats that act first get their turn notice instead).
pub const INVITATION: &str = "invitation";
/// A notice kind: the game is over (the games service).
pub const GAME_OVER: &str = "game_over";
/// A notice kind: a seat said something to the table, or told this seat (`games::talk`).
pub const TALK: &str = "talk";

/// How long the turn notice of a reactive window waits before it falls due
/// (`PromptKind::Reaction`; docs/notifications.md, "Reactive windows' notices are gathered"): a
/// seat that answers meanwhile — on its page, by its automatic pass — is sent nothing, the
/// windows that open for it meanwhile are told by that one notice, and a real turn sends it at
/// once. Zero sends window notices at once, as turns are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowNotices(pub std::time::Duration);

impl Default for WindowNotices {
    fn default() -> Self {
        WindowNotices(std::time::Duration::from_secs(15 * 60))
    }
}

impl WindowNotices {
    /// Reads `DESPATCH_WINDOW_NOTICE_SECS` (default 900; 0 sends them at once). A value that
    /// does not parse is reported and the default used.
    pub fn from_env() -> WindowNotices {
        match std::env::var("DESPATCH_WINDOW_NOTICE_SECS") {
            Err(_) => WindowNotices::default(),
            Ok(text) => text
                .trim()
                .parse()
                .map(|secs| WindowNotices(std::time::Duration::from_secs(secs)))
                .unwrap_or_else(|_| {
                    let default = WindowNotices::default();
                    tracing::warn!(
                        "DESPATCH_WINDOW_NOTICE_SECS='{text}' is not a whole number of seconds; using the default, {}",
                        default.0.as_secs()
                    );
                    default
                }),
        }
    }
}

/// A delivery channel: an email, ready to send (`EmailDelivery`).
pub const EMAIL: &str = "email";
/// A delivery channel: a webhook call.
pub const WEBHOOK: &str = "webhook";

/// One email as the outbox holds it, rendered and addressed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EmailDelivery {
    pub to: String,
    pub to_name: String,
    pub subject: String,
    pub text: String,
    pub html: String,
    pub reply_to: Option<String>,
    /// Without angle brackets: `despatch.<game>.<seq>.<outbox row>@despatch.example`.
    pub message_id: String,
    /// The head of the game's log the notice follows, sent as `X-Despatch-Head` so that the
    /// mailbox keeps a witness of it (`engine::witness`). Rows queued before it have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head: Option<LogHead>,
    /// The message this one answers and its thread, oldest first, without angle brackets
    /// (`In-Reply-To`, `References`): inbound mail's answers, so that they thread.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_reply_to: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub references: Vec<String>,
    /// The signed one-click unsubscribe URL of a notice, sent as `List-Unsubscribe` with
    /// `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058). Answers to a player's
    /// own mail carry none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unsubscribe: Option<String>,
    /// The files sent with it as attachments (docs/files.md), read from the file store as it
    /// is sent.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<crate::engine::files::FileRef>,
}

/// A game's log head: the seq of an event and its hash.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogHead {
    pub game_id: String,
    pub seq: u64,
    pub hash: String,
}

impl super::Games {
    /// Queues a ready email in the outbox, after event `seq` of `game_id` (empty when the email
    /// is about no game), for the dispatcher to send with its retries: how inbound mail's
    /// answers go out.
    pub async fn queue_email(
        &self,
        game_id: &str,
        seq: u64,
        email: &EmailDelivery,
    ) -> super::Result<()> {
        let row = OutboxRecord {
            game_id: game_id.to_owned(),
            seq,
            channel: EMAIL.into(),
            seat: None,
            payload: serde_json::to_value(email).expect("an email serialises"),
            delay: std::time::Duration::ZERO,
        };
        self.store.enqueue(&row).await?;
        Ok(())
    }
}
