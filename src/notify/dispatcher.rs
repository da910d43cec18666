//! The outbox dispatcher: claims due outbox rows, delivers them, and records every attempt.
//!
//! Two kinds of row pass through it. A **notice** (`turn`, `reminder`, `deadline`, `game_over`) is
//! written by the games service or the scheduler in the same transaction as its event; the
//! dispatcher composes it once (the seat's email rendered from the templates, a JSON body per
//! webhook) and replaces it, in one transaction, by one **delivery** row per channel the seat
//! listens on (`email`, `webhook`). Deliveries are then sent and retried on their own, so a
//! webhook that is down does not make the email go out twice.
//!
//! At-least-once: a claim is a lease (see `store::outbox`); a dispatcher killed between sending
//! and marking leaves the row to be sent again when the lease runs out, under the same
//! Message-ID or delivery id, so receivers drop the duplicate. Failures are retried with
//! exponential backoff (`retry_base · 2^(attempt-1)`, at most `retry_max`), forever: a notice is
//! never dropped, only delayed. Several dispatchers may run on one database (`despatch dispatch`
//! beside `despatch serve`); they take different rows.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use futures_util::future::join_all;
use futures_util::FutureExt;
use serde_json::Value;

use super::email::Mailer;
use super::notice::{self, Composed};
use super::templates;
use super::webhook::{Hooks, WebhookDelivery};
use crate::config::DispatchSettings;
use crate::engine::canonical::random32;
use crate::engine::files::FileRef;
use crate::games::clock::Clock;
use crate::games::links::pending::Pending;
use crate::games::outbox::{
    Claimed, EmailDelivery, LogHead, OutboxRecord, Superseded, EMAIL, INVITATION, REMINDER, TALK,
    TURN, WEBHOOK,
};
use crate::games::players::{CLAIM, SEAT_LINKS, SIGN_IN};
use crate::games::settings::DIGEST;
use crate::games::Games;

/// The notices a later `turn` notice to the same seat says all of.
const SUPERSEDED: [&str; 2] = [TURN, REMINDER];

/// How many due notices one round looks at for a later one: the statement stays short however
/// long the outbox has grown.
const SUPERSEDE_AT_ONCE: i64 = 1024;

/// While it lets go a backlog, the dispatcher rests this many times as long as each round
/// took: the notices it lets go are never sent, so there is no hurry, and the moves that
/// write the new ones keep the database (a quarter of the dispatcher's time at most).
const CATCH_UP_REST: u32 = 3;

/// What one round of the dispatcher did.
#[derive(Debug, Clone, Copy)]
struct Round {
    /// Whether the round took as many rows as it may: more may be due.
    full: bool,
    /// Whether the round let go notices and more may wait to be let go: a backlog being
    /// caught up, whose rows are not claimed meanwhile.
    catching_up: bool,
    /// Notices let go because a later one says all of them.
    let_go: usize,
    /// Rows claimed and handled, and the deliveries their notices were expanded into (each sent
    /// in the round that wrote it).
    handled: usize,
}

/// What became of one claimed row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Handled {
    Sent,
    Expanded(usize),
    Failed(String),
}

pub struct Dispatcher {
    games: Games,
    mailer: Arc<Mailer>,
    hooks: Arc<Hooks>,
    settings: DispatchSettings,
    clock: Arc<dyn Clock>,
    id: String,
}

/// Runs the work of one outbox row, turning a panic into that row's error. One bad row (a
/// value a library refuses to encode, say) must never stop the dispatcher: its panic is logged
/// as an error, the row is marked failed like any other failure (and retried with backoff), and
/// the other rows of the batch, and of every other game, go on.
async fn unpanicked<F>(row: i64, work: F) -> Result<Handled, String>
where
    F: std::future::Future<Output = Result<Handled, String>>,
{
    match AssertUnwindSafe(work).catch_unwind().await {
        Ok(outcome) => outcome,
        Err(panic) => {
            let why = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic with no message".into());
            tracing::error!(outbox = row, error = %why, "handling an outbox row panicked; the row is marked failed and the dispatcher goes on");
            crate::metrics::dispatcher_panic();
            Err(format!("the dispatcher panicked on this row: {why}"))
        }
    }
}

impl Dispatcher {
    pub fn new(
        games: Games,
        mailer: Arc<Mailer>,
        hooks: Arc<Hooks>,
        settings: DispatchSettings,
    ) -> Dispatcher {
        let clock = games.clock.clone();
        Dispatcher {
            games,
            mailer,
            hooks,
            settings,
            clock,
            id: format!(
                "dispatcher-{}-{}",
                std::process::id(),
                hex::encode(&random32()[..3])
            ),
        }
    }

    /// This dispatcher's name in the attempts log.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The delay before retry number `attempt + 1`.
    pub fn backoff(&self, attempt: i32) -> Duration {
        let exp = attempt.clamp(1, 30) as u32 - 1;
        self.settings
            .retry_base
            .saturating_mul(2u32.saturating_pow(exp))
            .min(self.settings.retry_max)
    }

    /// Claims a batch of due rows.
    pub async fn claim(&self) -> Result<Vec<Claimed>, String> {
        let now = self.clock.now();
        self.games
            .claim_outbox(now, self.lease_end(now), self.settings.batch, &self.id)
            .await
            .map_err(|e| e.to_string())
    }

    /// When a lease taken at `now` runs out.
    fn lease_end(&self, now: DateTime<Utc>) -> DateTime<Utc> {
        now + chrono::Duration::from_std(self.settings.lease).unwrap_or_default()
    }

    /// One round: let go the notices a later one says all of, claim a batch and handle every
    /// row of it (a notice's deliveries are sent as it is expanded). Returns how many rows it
    /// let go or handled.
    pub async fn run_once(&self) -> Result<usize, String> {
        let round = self.round().await?;
        Ok(round.let_go + round.handled)
    }

    /// While a backlog is let go (a round lets go notices and looked at all it may), the round
    /// claims nothing: the oldest due rows, which a claim takes, may still have a later notice
    /// that says all of them, and composing one would send a stale mail; the next rounds look
    /// further, oldest first, until the let-go is done.
    async fn round(&self) -> Result<Round, String> {
        let superseded = self.supersede().await?;
        let looked_all = superseded.looked >= SUPERSEDE_AT_ONCE as u64;
        let catching_up = superseded.let_go > 0 && looked_all;
        let claimed = if catching_up {
            Vec::new()
        } else {
            self.claim().await?
        };
        let handled = join_all(claimed.iter().map(|c| self.handle(c))).await;
        Ok(Round {
            let_go: superseded.let_go as usize,
            catching_up,
            full: claimed.len() >= self.batch() || looked_all,
            handled: claimed.len()
                + handled
                    .iter()
                    .map(|h| match h {
                        Handled::Expanded(n) => *n,
                        _ => 0,
                    })
                    .sum::<usize>(),
        })
    }

    fn batch(&self) -> usize {
        usize::try_from(self.settings.batch).unwrap_or(usize::MAX)
    }

    /// Lets go every due `turn` or `reminder` notice that a later `turn` notice to the same
    /// seat says all of (`Store::supersede_waiting`): a seat that several moves have passed to
    /// since its last mail is sent one, composed from the latest.
    async fn supersede(&self) -> Result<Superseded, String> {
        let done = self
            .games
            .supersede_waiting(self.clock.now(), &SUPERSEDED, TURN, SUPERSEDE_AT_ONCE)
            .await
            .map_err(|e| e.to_string())?;
        if done.let_go > 0 {
            crate::metrics::notices_superseded(done.let_go);
        }
        Ok(done)
    }

    /// Rounds until nothing is due now.
    pub async fn drain(&self) -> Result<usize, String> {
        let mut total = 0;
        loop {
            let n = self.run_once().await?;
            if n == 0 {
                return Ok(total);
            }
            total += n;
        }
    }

    /// Runs until the process ends. A round that fills its batch is followed by the next at
    /// once; after any other round the dispatcher sleeps `poll`. So while moves come fast, the
    /// notices of `poll` are gathered and each waiting seat is composed one mail from the latest
    /// (`supersede`), instead of one per move; a notice's deliveries go out as it is expanded.
    /// A round that lets go part of a backlog is followed by a rest of `CATCH_UP_REST` times its
    /// length. Errors (the database away for a moment) are logged and retried.
    pub async fn run(self) {
        tracing::info!(dispatcher = %self.id, email = %self.mailer.describe(), "dispatcher running");
        loop {
            let began = std::time::Instant::now();
            match self.round().await {
                Ok(Round {
                    catching_up: true, ..
                }) => tokio::time::sleep(began.elapsed() * CATCH_UP_REST).await,
                Ok(Round { full: true, .. }) => {}
                Ok(_) => tokio::time::sleep(self.settings.poll).await,
                Err(e) => {
                    tracing::warn!(error = %e, "the dispatcher could not claim rows");
                    tokio::time::sleep(self.settings.poll.max(Duration::from_secs(1))).await;
                }
            }
        }
    }

    /// Handles one claimed row: sends it (or expands a notice and sends its deliveries) and
    /// records the attempt.
    pub async fn handle(&self, claim: &Claimed) -> Handled {
        if matches!(claim.row.record.channel.as_str(), EMAIL | WEBHOOK) {
            return self.send(claim).await;
        }
        let outcome = unpanicked(claim.row.id, async {
            let deliveries = self.expand(claim).await?;
            join_all(deliveries.iter().map(|d| self.send(d))).await;
            Ok(Handled::Expanded(deliveries.len()))
        })
        .await;
        self.record(claim, outcome).await
    }

    /// Sends a delivery this dispatcher holds and records the attempt.
    async fn send(&self, claim: &Claimed) -> Handled {
        let outcome = unpanicked(claim.row.id, async {
            self.deliver(claim).await.map(|()| Handled::Sent)
        })
        .await;
        self.record(claim, outcome).await
    }

    /// Records what became of a row: sent, or failed and due again after its backoff. An
    /// expanded notice was recorded with its deliveries.
    async fn record(&self, claim: &Claimed, outcome: Result<Handled, String>) -> Handled {
        crate::metrics::delivery(&claim.row.record.channel, outcome.is_ok());
        let now = self.clock.now();
        let games = &self.games;
        let recorded = match &outcome {
            Ok(Handled::Sent) => games.outbox_sent(claim, &self.id, now).await,
            Ok(_) => Ok(()),
            Err(e) => {
                let retry: DateTime<Utc> = now
                    + chrono::Duration::from_std(self.backoff(claim.attempt)).unwrap_or_default();
                tracing::warn!(outbox = claim.row.id, attempt = claim.attempt, error = %e, retry_at = %retry, "delivery failed; will retry");
                games.outbox_failed(claim, &self.id, now, e, retry).await
            }
        };
        if let Err(e) = recorded {
            // The lease runs out and the row is tried again: at least once, never lost.
            tracing::warn!(outbox = claim.row.id, error = %e, "could not record a delivery attempt");
        }
        outcome.unwrap_or_else(Handled::Failed)
    }

    /// Composes a claimed notice (or renders an account mail) and replaces it with its
    /// deliveries, held by this dispatcher, without sending them: what `handle` does before it
    /// sends them. Public so that tests can stop a dispatcher between the two. Nothing when
    /// another dispatcher expanded the notice first (this one's lease ran out).
    pub async fn expand(&self, claim: &Claimed) -> Result<Vec<Claimed>, String> {
        let deliveries = match claim.row.record.channel.as_str() {
            SIGN_IN | SEAT_LINKS | DIGEST | CLAIM => vec![self.account_mail(claim)?],
            _ => self.notice_deliveries(claim).await?,
        };
        let now = self.clock.now();
        let written = self
            .games
            .expand_notice(claim, &self.id, now, self.lease_end(now), &deliveries)
            .await
            .map_err(|e| e.to_string())?;
        Ok(written.unwrap_or_default())
    }

    /// Sends a delivery row without recording anything: what `handle` does before it marks the
    /// row. Public so that tests can stop a dispatcher between the two.
    pub async fn deliver(&self, claim: &Claimed) -> Result<(), String> {
        let r = &claim.row.record;
        // The credentials the message carries are minted now, filled in, and forgotten: the row
        // keeps only their placeholders (`links::pending`).
        let pending = Pending::of_payload(&r.payload)?;
        let values = match &pending {
            Some(p) => self.games.mint(p).await.map_err(|e| e.to_string())?,
            None => Vec::new(),
        };
        let fill = |text: &str| match &pending {
            Some(p) => p.fill(text, &values),
            None => text.to_owned(),
        };
        match r.channel.as_str() {
            EMAIL => {
                let mut d: EmailDelivery = serde_json::from_value(r.payload.clone())
                    .map_err(|e| format!("email delivery {} is malformed: {e}", claim.row.id))?;
                d.subject = fill(&d.subject);
                d.text = fill(&d.text);
                d.html = fill(&d.html);
                d.unsubscribe = d.unsubscribe.as_deref().map(fill);
                let attached = self.attachments(&d).await?;
                self.mailer.send_with(&d, &attached).await
            }
            WEBHOOK => {
                let mut d: WebhookDelivery = serde_json::from_value(r.payload.clone())
                    .map_err(|e| format!("webhook delivery {} is malformed: {e}", claim.row.id))?;
                d.body = fill(&d.body);
                let hooks = self
                    .games
                    .webhook_records(&r.game().map_err(|e| e.to_string())?)
                    .await
                    .map_err(|e| e.to_string())?;
                match hooks.iter().find(|h| h.hook_id == d.hook_id) {
                    Some(hook) => {
                        d.url = hook.url.clone();
                        self.hooks.send(&d, &hook.secret).await
                    }
                    // Deleted since: nothing more goes to it.
                    None => Ok(()),
                }
            }
            other => Err(format!("'{other}' is not a delivery channel")),
        }
    }

    /// The deliveries of a notice. A notice for a seat that nothing reaches (no email address
    /// or email turned off, no hook that hears it) has none, at the cost of one read: it is
    /// neither composed nor its game loaded.
    async fn notice_deliveries(&self, claim: &Claimed) -> Result<Vec<OutboxRecord>, String> {
        let r = &claim.row.record;
        let heard = match &r.seat {
            Some(seat) => self
                .games
                .seat_reached(&r.game().map_err(|e| e.to_string())?, seat)
                .await
                .map_err(|e| e.to_string())?,
            None => true,
        };
        if !heard {
            return Ok(Vec::new());
        }
        match notice::compose(
            &self.games,
            &claim.row,
            self.settings.reply_domain.as_deref(),
        )
        .await?
        {
            Some(composed) => self.deliveries(claim, &composed).await,
            None => Ok(Vec::new()),
        }
    }

    /// The bytes of an email's attachments, from the file store: one missing fails the send
    /// (it is tried again, and the attempts log names it).
    async fn attachments(&self, d: &EmailDelivery) -> Result<Vec<(FileRef, Vec<u8>)>, String> {
        let mut out = Vec::with_capacity(d.attachments.len());
        for file in &d.attachments {
            let bytes = self
                .games
                .files()
                .get(&file.sha256)
                .await
                .map_err(|e| e.to_string())?
                .ok_or_else(|| {
                    format!(
                        "the attachment {} ({}) is missing from the file store",
                        file.name, file.sha256
                    )
                })?;
            out.push((file.clone(), bytes));
        }
        Ok(out)
    }

    /// The email of a mail a player asked for by address (`games::players`: a sign-in link,
    /// their seat links; `games::settings`: the daily digest), rendered from its row's payload.
    fn account_mail(&self, claim: &Claimed) -> Result<OutboxRecord, String> {
        let r = &claim.row.record;
        let to = r
            .payload
            .get("to")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("account mail {} names no address", claim.row.id))?
            .to_owned();
        let rendered = templates::render(&r.channel, &r.payload)?;
        let pending = Pending::of_payload(&r.payload)?;
        let d = EmailDelivery {
            to_name: String::new(),
            to,
            subject: rendered.subject,
            text: rendered.text,
            html: rendered.html,
            reply_to: None,
            message_id: crate::games::links::notice_id(
                "",
                0,
                &format!("{}.{}", r.channel, claim.row.id),
                &self.mailer.domain(),
            ),
            head: None,
            in_reply_to: None,
            references: Vec::new(),
            // Mail a player asked for (a sign-in link) is not a list to leave.
            unsubscribe: None,
            attachments: Vec::new(),
        };
        let mut payload = serde_json::to_value(d).expect("serialisable");
        if let Some(p) = pending {
            p.attach(&mut payload);
        }
        Ok(OutboxRecord {
            game_id: r.game_id.clone(),
            seq: r.seq,
            channel: EMAIL.into(),
            seat: None,
            payload,
            delay: std::time::Duration::ZERO,
        })
    }

    async fn deliveries(
        &self,
        claim: &Claimed,
        composed: &Composed,
    ) -> Result<Vec<OutboxRecord>, String> {
        let r = &claim.row.record;
        let c = &composed.context;
        let games = &self.games;
        let game_id = r.game().map_err(|e| e.to_string())?;
        let channels = games
            .seat_channels(&game_id, &c.seat)
            .await
            .map_err(|e| e.to_string())?;
        let mut out = Vec::new();
        // A delivery whose text holds a placeholder of the seat's credentials carries their
        // recipes, for the dispatcher to mint as it sends it.
        let credentials = &composed.credentials;
        let row = |channel: &str, mut payload: Value, text: &[&str]| {
            if text.iter().any(|t| credentials.appear_in(t)) {
                credentials.attach(&mut payload);
            }
            OutboxRecord {
                game_id: r.game_id.clone(),
                seq: r.seq,
                channel: channel.into(),
                seat: r.seat.clone(),
                payload,
                delay: std::time::Duration::ZERO,
            }
        };
        // A seat's settings: reminders off silence them (by email and the seat's own hooks); a
        // seat on the daily digest hears of its turns by webhook only (`games::settings`).
        let reminder_off = r.channel == REMINDER && !channels.reminders;
        let in_digest = r.channel == TURN && channels.digest;
        if let (Some(to), true) = (
            &composed.email,
            channels.email && !reminder_off && !in_digest,
        ) {
            let rendered = templates::render(composed.template, c)?;
            let thread = crate::games::links::thread_id(&r.game_id, &c.seat, &self.mailer.domain());
            let d = EmailDelivery {
                to: to.clone(),
                to_name: c.seat_name.clone(),
                subject: rendered.subject,
                text: rendered.text,
                html: rendered.html,
                reply_to: c.reply_to.clone(),
                // Names the last event the mail tells of, so that a reply to an old notice is
                // recognised (mail_in), and the outbox row, so that it is stable.
                message_id: crate::games::links::notice_id(
                    &r.game_id,
                    c.head_seq,
                    &claim.row.id.to_string(),
                    &self.mailer.domain(),
                ),
                head: Some(LogHead {
                    game_id: r.game_id.clone(),
                    seq: c.head_seq,
                    hash: c.head_hash.clone(),
                }),
                in_reply_to: Some(thread.clone()),
                references: vec![thread],
                unsubscribe: Some(c.unsubscribe_link.clone()),
                attachments: c
                    .files
                    .iter()
                    .filter(|f| f.attached)
                    .map(|f| f.file.clone())
                    .collect(),
            };
            let texts = [
                d.text.as_str(),
                d.html.as_str(),
                c.unsubscribe_link.as_str(),
            ];
            out.push(row(
                EMAIL,
                serde_json::to_value(&d).expect("serialisable"),
                &texts,
            ));
        }
        // An invitation goes by email only: a hook is registered after its game exists, by a
        // player who holds the seat's link already.
        let hooks = if r.channel == INVITATION {
            Vec::new()
        } else {
            games
                .webhook_records(&game_id)
                .await
                .map_err(|e| e.to_string())?
        };
        for hook in hooks {
            let for_seat = match &hook.seat {
                Some(s) if *s == c.seat && channels.webhooks && !reminder_off => true,
                Some(_) => continue,
                // Talk goes to its readers' own hooks only: a game-wide hook is read by
                // whoever watches the table, and a message told to one seat is that seat's.
                None if r.channel == TALK => continue,
                None => false,
            };
            let delivery_id = format!("{}.{}.{}", r.game_id, claim.row.id, hook.hook_id);
            let body = notice::webhook_body(c, &delivery_id, for_seat, &hook.format);
            let d = WebhookDelivery {
                hook_id: hook.hook_id.clone(),
                url: String::new(),
                event: c.event.clone(),
                delivery_id,
                body: body.to_string(),
            };
            out.push(row(
                WEBHOOK,
                serde_json::to_value(&d).expect("serialisable"),
                &[d.body.as_str()],
            ));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_panicking_row_becomes_that_rows_error() {
        let outcome = unpanicked(7, async {
            if true {
                panic!("writing `Mailbox` returned an error");
            }
            Ok(Handled::Sent)
        })
        .await;
        assert_eq!(
            outcome,
            Err("the dispatcher panicked on this row: writing `Mailbox` returned an error".into())
        );
        let n = 3;
        let formatted = unpanicked(8, async move {
            if n > 0 {
                panic!("row {n} is bad");
            }
            Ok(Handled::Sent)
        })
        .await;
        assert_eq!(
            formatted,
            Err("the dispatcher panicked on this row: row 3 is bad".into())
        );
        assert_eq!(
            unpanicked(9, async { Ok(Handled::Expanded(2)) }).await,
            Ok(Handled::Expanded(2))
        );
    }
}
