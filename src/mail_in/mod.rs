//! Inbound email: a player plays a whole game from a mail client by replying to turn notices.
//!
//! A message arrives through an MTA pipe (`despatch mail-in < message.eml`) or a provider's
//! inbound webhook (`POST /api/inbound/email`). Its signed reply address names the game and the
//! seat; its sender must be the seat's address; its visible text holds orders in the game's
//! order language and mail commands (`status`, `log`, `help`, `vacation 3d`, `resign`,
//! `undo-request`). Every message the seat's player sent gets an answer saying exactly what
//! ran, the dice and their proof links, and what is still expected — or which line failed and
//! why, with nothing applied. Automatic mail (bounces, auto-replies) is never answered, and
//! neither is mail to a seat's reply address from any other sender: its From may be forged, and
//! an answer would tell a stranger of the game (docs/mail.md, "Who is answered").
//!
//! `message` reads the mail, `command` splits its body into orders and mail commands, and `answer` writes what the player reads; what the mail asks of
//! the game is each one call on the games service (`games::mail`), which loads the game once
//! a message through its fold cache. The reply addresses and the notices' Message-IDs are made
//! and checked by the games service (`games::links`), which signs every link it hands out.

mod answer;
mod command;
pub mod message;
pub mod trim;

use serde::{Deserialize, Serialize};

use crate::engine::canonical::sha256_hex;
use crate::games::links::{address, notice_id, notice_seq};
use crate::games::mail::{MailOrders, MailSeat};
use crate::games::outbox::EmailDelivery;
use crate::games::{Games, MoveResult, ServiceError, Summary};
use crate::metrics::MailIn;
pub use answer::not_carried_out;
pub use command::{read_body, split_body, Body, MailCommand, Stop};
use message::Inbound;

/// An answer to send.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reply {
    pub to: String,
    pub subject: String,
    pub text: String,
    /// The message this answers.
    pub in_reply_to: Option<String>,
    /// The thread up to and with the message this answers, oldest first, so that a mail client
    /// shows the answer in the player's thread.
    #[serde(default)]
    pub references: Vec<String>,
    /// The reply address to answer this answer with, when there is a game and seat.
    pub reply_to: Option<String>,
}

/// What became of an inbound message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Receipt {
    /// Answered; the game changed only if the answer says so.
    Answered {
        game_id: Option<String>,
        /// The game's last event as the answer saw it (0 when it reached no game): its
        /// Message-ID names it, so that a reply to the answer is checked for age as a reply to
        /// a turn notice is.
        seen: u64,
        reply: Reply,
        /// The answer is in the outbox already: it went into the move's own append (`queue`
        /// leaves it alone).
        queued: bool,
        /// This answers the mail commands of a message whose orders were answered in their
        /// move's own append: a second answer to the same message, with a Message-ID of its own.
        beside_orders: bool,
    },
    /// Not answered, and nothing changed: automatic mail, or a message already handled.
    Ignored(String),
}

/// Whom an answer goes to and what it answers: the sender, the subject and the message.
#[derive(Clone)]
struct Letter {
    to: String,
    subject: String,
    in_reply_to: Option<String>,
    references: Vec<String>,
}

impl Letter {
    fn to(inbound: &Inbound, from: String) -> Letter {
        let s = inbound.subject.trim();
        let subject = if s.to_ascii_lowercase().starts_with("re:") {
            s.to_owned()
        } else if s.is_empty() {
            "Re: your message to Despatch".to_owned()
        } else {
            format!("Re: {s}")
        };
        let mut references = inbound.references.clone();
        references.extend(inbound.message_id.clone());
        Letter {
            to: from,
            subject,
            in_reply_to: inbound.message_id.clone(),
            references,
        }
    }

    fn reply(self, reply_to: Option<String>, text: String) -> Reply {
        Reply {
            to: self.to,
            subject: self.subject,
            text,
            in_reply_to: self.in_reply_to,
            references: self.references,
            reply_to,
        }
    }

    fn answer(
        self,
        game_id: Option<&str>,
        seen: u64,
        reply_to: Option<String>,
        text: String,
    ) -> Receipt {
        Receipt::Answered {
            game_id: game_id.map(str::to_owned),
            seen,
            reply: self.reply(reply_to, text),
            queued: false,
            beside_orders: false,
        }
    }
}

/// Handles one inbound message sent to a reply address `play+…@domain`: finds the seat its
/// signed address names, plays its orders, runs its mail commands, and says what became of
/// them. Reply addresses are signed with the games service's link key, the key that signs its
/// other links. The game is loaded once (`Games::mail_seat`); each step is one `Games` call.
pub async fn receive(games: &Games, domain: &str, raw: &[u8]) -> Result<Receipt, ServiceError> {
    let key = games.link_key().await?;
    let inbound = match Inbound::parse(raw) {
        Ok(m) => m,
        Err(e) => return Ok(Receipt::Ignored(e.to_string())),
    };
    if inbound.automatic {
        return Ok(Receipt::Ignored(
            "automatic mail (bounce, auto-reply or list) is never answered".into(),
        ));
    }
    let Some(from) = inbound.from.clone() else {
        return Ok(Receipt::Ignored(
            "the message has no sender to answer".into(),
        ));
    };
    let letter = Letter::to(&inbound, from.clone());
    let target = match addressed(&key, domain, &inbound.recipients) {
        Ok(target) => target,
        Err(why) => return Ok(letter.answer(None, 0, None, answer::not_addressed(&why))),
    };
    let game_id = &target.game_id;
    // Only the seat's own address is answered. A From header is anyone's to write: an answer
    // to a stranger (or to whoever a stranger names) would carry the game and the seat to an
    // address nobody checked — backscatter. Nothing is changed and nothing is sent.
    let mut seat = match games.mail_seat(game_id, target.seat_index, &from).await? {
        Ok(seat) => seat,
        Err(refusal) => return Ok(Receipt::Ignored(answer::unanswered(&refusal, game_id))),
    };
    if inbound.oversized {
        return Ok(letter.answer(Some(game_id), seat.seen(), None, answer::oversized()));
    }
    let reply_to = Some(address::reply_address(
        &key,
        domain,
        game_id,
        target.seat_index,
    ));
    let Body {
        commands,
        orders,
        stopped,
    } = read_reply(&inbound.text, &seat);
    // Where the orders ended, said first in every answer to this message.
    let read_up_to = stopped.as_ref().map(answer::stopped);
    let mut out: Vec<String> = read_up_to.iter().cloned().collect();
    if !orders.is_empty() {
        let message = inbound
            .message_id
            .clone()
            .unwrap_or_else(|| sha256_hex(raw));
        // A reply to an older notice is not applied blindly: the game may have moved on.
        let answers = inbound
            .answers
            .iter()
            .filter_map(|id| notice_seq(id))
            .find(|(g, _)| *game_id == g.as_str())
            .map(|(_, seq)| seq);
        // Orders are answered in the move's own append: the move and its answer are written
        // together or not at all, so a failure between the two cannot leave a move its player
        // never hears of. Mail commands beside them run after the move and are answered in a
        // second message (`queue`).
        let played_answer = |result: &MoveResult, summary: &Summary| {
            let text = played_text(games, game_id, result, summary, read_up_to.as_deref());
            let reply = letter.clone().reply(reply_to.clone(), text);
            email(
                game_id,
                result.next_seq.saturating_sub(1),
                &reply,
                domain,
                false,
            )
        };
        match games
            .mail_orders(
                &mut seat,
                &orders,
                &message,
                answers,
                &inbound.attachments,
                Some(&played_answer),
            )
            .await?
        {
            MailOrders::Handled => {
                return Ok(Receipt::Ignored(format!(
                    "message {message} was already handled"
                )))
            }
            MailOrders::Outdated { seen, next } => {
                out.push(answer::outdated(seen, next, &orders));
                out.push(answer::status(game_id, &games.mail_status(&seat)));
                return Ok(letter.answer(Some(game_id), seat.seen(), reply_to, out.join("\n\n")));
            }
            MailOrders::Played(result) => {
                if commands.is_empty() {
                    let text = played_text(
                        games,
                        game_id,
                        &result,
                        &seat.summary(),
                        read_up_to.as_deref(),
                    );
                    return Ok(Receipt::Answered {
                        game_id: Some(game_id.to_string()),
                        seen: result.next_seq.saturating_sub(1),
                        reply: letter.reply(reply_to, text),
                        queued: true,
                        beside_orders: false,
                    });
                }
                out.push(answer::commands_after_orders(&result));
                for command in &commands {
                    out.push(run(games, &mut seat, command).await?);
                }
                if !commands.contains(&MailCommand::Status) {
                    out.push(answer::waiting(&seat.summary()));
                }
                return Ok(Receipt::Answered {
                    game_id: Some(game_id.to_string()),
                    seen: seat.seen(),
                    reply: letter.reply(reply_to, out.join("\n\n")),
                    queued: false,
                    beside_orders: true,
                });
            }
            MailOrders::NotApplied(why) => out.push(answer::not_applied(&why, &orders)),
        }
    }
    // Orders that reach this point were not applied: those played, outdated or handled before
    // were answered above.
    let refused = !orders.is_empty();
    for command in &commands {
        out.push(run(games, &mut seat, command).await?);
    }
    if out.len() == usize::from(read_up_to.is_some()) {
        out.push(answer::nothing());
        out.push(answer::status(game_id, &games.mail_status(&seat)));
    } else if refused && !commands.contains(&MailCommand::Status) {
        // Orders not applied: the game as it stands, with the board and the legal moves, so
        // that the player can write them again from this answer alone.
        out.push(answer::status(game_id, &games.mail_status(&seat)));
    }
    Ok(letter.answer(Some(game_id), seat.seen(), reply_to, out.join("\n\n")))
}

/// A reply's text read for `seat` (`read_body`): its orders end at a line that is no order of the
/// game — unless the lines that are no orders one by one are one order together with those
/// above them (an order written over several lines), which the game reads whole.
fn read_reply(text: &str, seat: &MailSeat) -> Body {
    let body = read_body(text, |line| seat.reads_as_order(line));
    if body.stopped.as_ref().is_some_and(|stop| !stop.by_word) {
        let whole = read_body(text, |_| true);
        if seat.reads_as_order(&whole.orders) {
            return whole;
        }
    }
    body
}

/// The answer to orders carried out: where the orders ended (when before the message did),
/// what ran, and who is expected now.
fn played_text(
    games: &Games,
    game_id: &str,
    result: &MoveResult,
    summary: &Summary,
    read_up_to: Option<&str>,
) -> String {
    let parts = [
        read_up_to.map(str::to_owned),
        Some(answer::played(&games.base_url, game_id, result)),
        Some(answer::waiting(summary)),
    ];
    parts.into_iter().flatten().collect::<Vec<_>>().join("\n\n")
}

/// The game and seat of the first recipient that is a reply address of this server; else why
/// the message reached none, for the player.
fn addressed(
    key: &[u8],
    domain: &str,
    recipients: &[String],
) -> Result<address::ReplyTarget, String> {
    let mut refusal = None;
    for r in recipients {
        match address::parse(key, domain, r) {
            Ok(target) => return Ok(target),
            Err(address::AddressError::NotOurs(_)) => {}
            Err(e) => refusal = Some(e),
        }
    }
    // Without the address itself: it names a game and a seat, and the sender of this answer
    // is not known to either.
    Err(match refusal {
        None => format!("This message was not sent to a game's reply address (play+…@{domain})."),
        Some(address::AddressError::BadSignature(_)) => "The reply address this message was sent to is not signed by this server; reply to the turn notice itself.".into(),
        Some(_) => "The reply address this message was sent to is malformed.".into(),
    })
}

/// Runs one mail command for the seat and says what became of it.
async fn run(
    games: &Games,
    seat: &mut MailSeat,
    command: &MailCommand,
) -> Result<String, ServiceError> {
    Ok(match command {
        MailCommand::Help => answer::help(&seat.grammar()),
        MailCommand::Status => answer::status(seat.game_id(), &games.mail_status(seat)),
        MailCommand::Log => answer::log(&games.mail_log(seat, answer::LOG_EVENTS).await?),
        MailCommand::Resign => match games.mail_resign(seat).await {
            Ok(result) => answer::resigned(&result),
            Err(ServiceError::Rule(e)) => answer::resign_refused(&e),
            Err(e) => return Err(e),
        },
        MailCommand::UndoRequest => answer::NO_UNDO.into(),
        MailCommand::Say(text) => talk(games, seat, None, text, &format!("say {text}")).await?,
        MailCommand::Tell { to, text } => {
            talk(games, seat, Some(to), text, &format!("tell {to} {text}")).await?
        }
        MailCommand::Vacation(days) => match command::vacation_days(days) {
            None => answer::vacation_unreadable(days),
            Some(n) => match games.mail_vacation(seat, n).await {
                Ok(taken) => answer::vacation_taken(n, &taken.until),
                Err(ServiceError::BadRequest(why)) => answer::vacation_refused(days, &why),
                Err(e) => return Err(e),
            },
        },
    })
}

/// Sends a `say` or `tell` line as table talk (`games::talk`), and says so or why not.
async fn talk(
    games: &Games,
    seat: &MailSeat,
    to: Option<&str>,
    text: &str,
    line: &str,
) -> Result<String, ServiceError> {
    Ok(match games.talk(&seat.caller, to, text).await {
        Ok(sent) => answer::talk_sent(sent.to_name.as_deref()),
        Err(ServiceError::BadRequest(why)) => answer::talk_refused(line, &why),
        Err(ServiceError::Rule(e)) => answer::talk_refused(line, &e.to_string()),
        Err(e) => return Err(e),
    })
}

/// Queues an answer in the outbox as a ready email, for the dispatcher to send with its
/// retries, unless it went into the outbox with its move.
pub async fn queue(games: &Games, domain: &str, receipt: &Receipt) -> Result<(), ServiceError> {
    crate::metrics::mail_in(match receipt {
        Receipt::Answered {
            game_id: Some(_), ..
        } => MailIn::Answered,
        Receipt::Answered { game_id: None, .. } => MailIn::Refused,
        Receipt::Ignored(_) => MailIn::Ignored,
    });
    let Receipt::Answered {
        game_id,
        seen,
        reply,
        queued: false,
        beside_orders,
    } = receipt
    else {
        return Ok(());
    };
    let game_id = game_id.as_deref().unwrap_or_default();
    let email = email(game_id, *seen, reply, domain, *beside_orders);
    games.queue_email(game_id, *seen, &email).await
}

/// An answer as the outbox holds it. Its Message-ID names the event the answer saw, so that a
/// reply to the answer is checked for staleness like a reply to a turn notice, and is the same
/// for the same message answered again; the answer to the commands beside a message's orders
/// (`beside_orders`) has one of its own.
fn email(
    game_id: &str,
    seen: u64,
    reply: &Reply,
    domain: &str,
    beside_orders: bool,
) -> EmailDelivery {
    let digest = sha256_hex(
        reply
            .in_reply_to
            .as_deref()
            .unwrap_or(&reply.text)
            .as_bytes(),
    );
    let part = if beside_orders { "commands" } else { "answer" };
    let unique = format!("{part}-{}", &digest[..16]);
    EmailDelivery {
        to: reply.to.clone(),
        to_name: String::new(),
        subject: reply.subject.clone(),
        html: format!(
            "<pre style=\"white-space: pre-wrap\">{}</pre>",
            escape_html(&reply.text)
        ),
        text: reply.text.clone(),
        reply_to: reply.reply_to.clone(),
        message_id: notice_id(game_id, seen, &unique, domain),
        head: None,
        in_reply_to: reply.in_reply_to.clone(),
        references: reply.references.clone(),
        unsubscribe: None,
        attachments: Vec::new(),
    }
}

fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
