//! Inbound email: a player plays a whole game from a mail client by replying to turn notices.
//!
//! A message arrives through an MTA pipe (`despatch mail-in < message.eml`) or a provider's
//! inbound webhook (`POST /api/inbound/email`). Its signed reply address names the game and the
//! seat; its sender must be the seat's address; its visible text holds orders in the game's
//! order language and mail commands (`status`, `log`, `help`, `vacation 3d`, `resign`,
//! `undo-request`). Every message a person sent gets an answer saying exactly what ran, the
//! dice and their proof links, and what is still expected — or which line failed and why, with
//! nothing applied. Automatic mail (bounces, auto-replies) is never answered.

pub mod address;
pub mod message;
pub mod trim;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::engine::canonical::sha256_hex;
use crate::engine::event::timestamp;
use crate::engine::ruleset::{Seat, Viewer};
use crate::games::{
    Caller, CommandInput, Games, MoveResult, ServiceError, Submit, VacationRequest,
};
use crate::notify::dispatcher::EMAIL;
use crate::notify::email::EmailDelivery;
use crate::store::OutboxRecord;
use message::Inbound;

/// An answer to send.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reply {
    pub to: String,
    pub subject: String,
    pub text: String,
    /// The message this answers.
    pub in_reply_to: Option<String>,
    /// The reply address to answer this answer with, when there is a game and seat.
    pub reply_to: Option<String>,
}

/// What became of an inbound message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Receipt {
    /// Answered; the game changed only if the answer says so.
    Answered {
        game_id: Option<String>,
        reply: Reply,
    },
    /// Not answered, and nothing changed: automatic mail, or a message already handled.
    Ignored(String),
}

/// The mail commands a body may hold besides orders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MailCommand {
    Status,
    Log,
    Help,
    Vacation(String),
    Resign,
    UndoRequest,
}

fn mail_command(line: &str) -> Option<MailCommand> {
    let mut words = line.split_whitespace();
    let first = words.next()?.to_ascii_lowercase();
    let rest: Vec<&str> = words.collect();
    match (first.as_str(), rest.as_slice()) {
        ("status", []) => Some(MailCommand::Status),
        ("log", []) => Some(MailCommand::Log),
        ("help", []) => Some(MailCommand::Help),
        ("resign", []) => Some(MailCommand::Resign),
        ("undo-request", []) => Some(MailCommand::UndoRequest),
        ("vacation", [days]) => Some(MailCommand::Vacation((*days).to_owned())),
        _ => None,
    }
}

/// Splits a body into mail commands and the order text (every other line, in order).
pub fn split_body(text: &str) -> (Vec<MailCommand>, String) {
    let mut commands = Vec::new();
    let mut orders = Vec::new();
    for line in text.lines() {
        match mail_command(line.trim()) {
            Some(c) => commands.push(c),
            None => orders.push(line),
        }
    }
    (commands, orders.join("\n").trim().to_owned())
}

/// The message id of a turn notice names the event it follows:
/// `<despatch.{game_id}.{seq}.{unique}@{domain}>`.
pub fn notice_message_id(game_id: &str, seq: u64, unique: &str, domain: &str) -> String {
    format!("<{}>", notice_id(game_id, seq, unique, domain))
}

/// A notice's message id without its angle brackets.
pub fn notice_id(game_id: &str, seq: u64, unique: &str, domain: &str) -> String {
    format!("despatch.{game_id}.{seq}.{unique}@{domain}")
}

/// The game and seq a turn notice's message id names.
pub fn notice_seq(message_id: &str) -> Option<(String, u64)> {
    let id = message_id.trim().trim_start_matches('<');
    let rest = id.strip_prefix("despatch.")?;
    let mut parts = rest.splitn(3, '.');
    let game = parts.next()?;
    let seq = parts.next()?.parse().ok()?;
    Some((game.to_owned(), seq))
}

fn subject_of(inbound: &Inbound) -> String {
    let s = inbound.subject.trim();
    if s.to_ascii_lowercase().starts_with("re:") {
        s.to_owned()
    } else if s.is_empty() {
        "Re: your message to Despatch".to_owned()
    } else {
        format!("Re: {s}")
    }
}

const MAIL_HELP: &str = "Reply to a turn notice with your orders in the game's order language, one order per message. \
Mail commands, each on a line of its own: status (the game now), log (what happened), help (this text), \
vacation 3d (take days off the clock), resign, undo-request.";

/// Handles one inbound message sent to a reply address `play+…@domain`. Reply addresses are
/// signed with the games service's link key, the key that signs its other links.
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
    let answer = |game_id: Option<String>, reply_to: Option<String>, text: String| {
        Ok(Receipt::Answered {
            game_id,
            reply: Reply {
                to: from.clone(),
                subject: subject_of(&inbound),
                text,
                in_reply_to: inbound.message_id.clone(),
                reply_to,
            },
        })
    };

    // The reply address names the game and seat, and is signed.
    let mut refusal = None;
    let mut target = None;
    for r in &inbound.recipients {
        match address::parse(&key, domain, r) {
            Ok(t) => {
                target = Some(t);
                break;
            }
            Err(address::AddressError::NotOurs(_)) => {}
            Err(e) => refusal = Some(e),
        }
    }
    let Some(target) = target else {
        let why = refusal.map_or_else(
            || {
                format!(
                    "This message was not sent to a game's reply address (play+…@{}).",
                    domain
                )
            },
            |e| format!("{e}."),
        );
        return answer(None, None, format!("{why}\n\nNothing was changed. Reply to the turn notice of your game, keeping its reply address.\n\n{MAIL_HELP}"));
    };
    let loaded = match games.load(&target.game_id).await {
        Ok(l) => l,
        Err(ServiceError::NotFound(_)) => {
            return answer(
                None,
                None,
                format!(
                    "There is no game {} on this server. Nothing was changed.",
                    target.game_id
                ),
            );
        }
        Err(e) => return Err(e),
    };
    let game_id = target.game_id.clone();
    let Some(def) = loaded.game.created.seats.get(target.seat_index) else {
        return answer(
            Some(game_id),
            None,
            "This reply address names a seat the game does not have. Nothing was changed.".into(),
        );
    };
    let seat: Seat = def.seat.clone();
    let registered = loaded
        .seats
        .iter()
        .find(|s| s.seat == seat.as_str())
        .and_then(|s| s.email.clone());
    if registered
        .as_deref()
        .map(str::to_ascii_lowercase)
        .as_deref()
        != Some(from.as_str())
    {
        return answer(
            Some(game_id),
            None,
            format!(
                "This reply came from {from}, which is not the address of seat {seat} in game {}. Nothing was changed. \
                 Reply from the address the turn notice was sent to.",
                target.game_id
            ),
        );
    }
    let reply_to = Some(address::reply_address(
        &key,
        domain,
        &game_id,
        target.seat_index,
    ));
    let caller = Caller {
        game_id: game_id.clone(),
        seat: seat.clone(),
    };
    let (commands, orders) = split_body(&inbound.text);
    let mut out: Vec<String> = Vec::new();

    if !orders.is_empty() {
        // A reply to an older notice is not applied blindly: the game may have moved on.
        let seen = inbound
            .answers
            .iter()
            .filter_map(|id| notice_seq(id))
            .find(|(g, _)| g == &game_id)
            .map(|(_, seq)| seq);
        let next = loaded.game.next_seq;
        let key = inbound
            .message_id
            .clone()
            .unwrap_or_else(|| sha256_hex(raw));
        match seen {
            // The sender writes the id: it may name any seq, u64::MAX included.
            Some(seq) if seq.checked_add(1) != Some(next) => {
                out.push(format!(
                    "Your orders answer an older turn notice (after event {seq}); the game has moved on since (the next event is {next}). \
                     They were not applied. Here is the game now; reply to this message with your orders if they still stand.\n\n{}",
                    indent(&orders)
                ));
                out.push(status_text(games, &caller).await?);
                return answer(Some(game_id), reply_to, out.join("\n\n"));
            }
            _ => {}
        }
        let submit = Submit {
            expected_seq: next,
            command: CommandInput::Text(orders.clone()),
            client_entropy: key.clone(),
            idempotency_key: Some(format!("mail:{key}")),
        };
        match games.submit(&caller, submit).await {
            // The same message again: answered already, or being answered now. (A redelivery
            // after the game moved on carries another expected_seq, so its key reads as reused.)
            Ok(result) if result.replayed => {
                return Ok(Receipt::Ignored(format!(
                    "message {key} was already handled"
                )));
            }
            Err(ServiceError::KeyReused { .. } | ServiceError::InProgress { .. }) => {
                return Ok(Receipt::Ignored(format!(
                    "message {key} was already handled"
                )));
            }
            Ok(result) => out.push(move_text(games, &game_id, &result)),
            Err(ServiceError::Rule(e)) => {
                out.push(format!(
                    "Your orders were refused, and nothing of them was applied.\n\n{}\n\nRule: {}\nWhy: {}",
                    numbered(&orders),
                    e.rule,
                    e.message
                ));
            }
            Err(limited @ ServiceError::RateLimited { .. }) => {
                out.push(format!(
                    "Your orders were not applied: {limited}. Nothing was changed; send them again then.\n\n{}",
                    numbered(&orders)
                ));
            }
            Err(ServiceError::Stale { current_seq, .. }) => {
                out.push(format!(
                    "Another move was recorded while yours was on its way (the next event is now {current_seq}); yours was not applied. \
                     Here is the game now."
                ));
            }
            Err(e) => return Err(e),
        }
    }
    for c in &commands {
        out.push(match c {
            MailCommand::Help => format!("{MAIL_HELP}\n\nThe order language of this game: {}", loaded.game.ruleset.info().grammar),
            MailCommand::Status => status_text(games, &caller).await?,
            MailCommand::Log => log_text(games, &caller).await?,
            MailCommand::Resign => match games.resign(&caller).await {
                Ok(r) => format!("You resigned.\n{}", r.lines.iter().map(|l| format!("  {}", l.text)).collect::<Vec<_>>().join("\n")),
                Err(ServiceError::Rule(e)) => format!("resign was refused ({}): {}", e.rule, e.message),
                Err(e) => return Err(e),
            },
            MailCommand::UndoRequest => {
                "undo-request: the rules of this game allow no undo by consent; a move stands once it is recorded.".into()
            }
            MailCommand::Vacation(days) => vacation_text(games, &caller, days).await?,
        });
    }
    if out.is_empty() {
        out.push(format!("Your message held no orders and no mail commands, so nothing was changed.\n\n{MAIL_HELP}"));
        out.push(status_text(games, &caller).await?);
    } else if !orders.is_empty() && !commands.contains(&MailCommand::Status) {
        out.push(waiting_text(games, &caller).await?);
    }
    answer(Some(game_id), reply_to, out.join("\n\n"))
}

/// `vacation 3d`: days off the clock from now, through the game clock's vacation allowance.
async fn vacation_text(games: &Games, caller: &Caller, days: &str) -> Result<String, ServiceError> {
    let Some(n) = days
        .trim_end_matches(['d', 'D'])
        .parse::<i64>()
        .ok()
        .filter(|n| (1..=365).contains(n))
    else {
        return Ok(format!(
            "vacation {days}: write the number of days, like vacation 3d; nothing was changed."
        ));
    };
    let from = games.clock.now();
    let request = VacationRequest {
        from: timestamp(from),
        until: timestamp(from + chrono::Duration::days(n)),
    };
    Ok(match games.take_vacation(caller, &request).await {
        Ok(_) => format!(
            "vacation {n}d: taken, from now until {}; your deadlines wait for you.",
            request.until
        ),
        Err(ServiceError::BadRequest(why)) => {
            format!("vacation {days} was refused: {why}. Nothing was changed.")
        }
        Err(e) => return Err(e),
    })
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("    {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn numbered(text: &str) -> String {
    text.lines()
        .enumerate()
        .map(|(i, l)| format!("  line {}: {l}", i + 1))
        .collect::<Vec<_>>()
        .join("\n")
}

fn move_text(games: &Games, game_id: &str, r: &MoveResult) -> String {
    let mut out = format!("Your orders were carried out:\n{}\n", indent(&r.described));
    out.push_str("\nWhat happened:\n");
    for l in &r.lines {
        out.push_str(&format!("  {}\n", l.text));
    }
    if let Some(u) = &r.unexecuted {
        out.push_str(&format!("\nStopped: {}\nNot carried out:\n", u.reason));
        for step in &u.rest {
            out.push_str(&format!("    {step}\n"));
        }
    }
    for e in &r.events {
        if let Some(d) = &e.dice {
            let faces: Vec<String> = d
                .rolls
                .iter()
                .map(|r| format!("d{}={}", r.sides, r.face))
                .collect();
            out.push_str(&format!(
                "\nDice of event {}: {}\nProof: {}/api/games/{game_id}/events/{}/proof\n",
                e.seq,
                faces.join(", "),
                games.base_url,
                e.seq
            ));
        }
    }
    out.trim_end().to_owned()
}

async fn waiting_text(games: &Games, caller: &Caller) -> Result<String, ServiceError> {
    let summary = games.summary(&caller.game_id).await?;
    if summary.ended {
        return Ok(format!("The game is over: {}", json!(summary.outcome)));
    }
    let waiting: Vec<String> = summary
        .waiting_for
        .iter()
        .map(|p| format!("  {} — {}", p.seat, p.decision))
        .collect();
    Ok(format!("Now waiting for:\n{}", waiting.join("\n")))
}

async fn status_text(games: &Games, caller: &Caller) -> Result<String, ServiceError> {
    let moves = games.legal_moves(caller).await?;
    let view = games
        .view(&caller.game_id, &Viewer::Seat(caller.seat.clone()))
        .await?;
    let mut out = format!("Game {} — status\n", caller.game_id);
    out.push_str(&waiting_text(games, caller).await?);
    if moves["your_turn"] == true {
        out.push_str("\n\nIt is your turn. You may:\n");
        for p in moves["prompts"].as_array().into_iter().flatten() {
            for o in p["options"].as_array().into_iter().flatten() {
                out.push_str(&format!("  {}\n", o.as_str().unwrap_or_default()));
            }
        }
    }
    let board = match view["board_text"].as_str() {
        Some(text) => text.to_owned(),
        None => serde_json::to_string_pretty(&view["view"]).unwrap_or_default(),
    };
    out.push_str(&format!("\n\nThe board as you see it:\n{board}"));
    Ok(out)
}

async fn log_text(games: &Games, caller: &Caller) -> Result<String, ServiceError> {
    let log = games
        .log(&caller.game_id, &Viewer::Seat(caller.seat.clone()))
        .await?;
    let mut out = String::from("The log (latest 30 events):\n");
    for e in log.iter().rev().take(30).rev() {
        out.push_str(&format!("  [{}] {} {}\n", e.seq, e.kind, e.seat));
        for l in &e.lines {
            out.push_str(&format!("      {l}\n"));
        }
    }
    Ok(out.trim_end().to_owned())
}

/// Queues an answer in the outbox as a ready email, for the dispatcher to send with its
/// retries. Its Message-ID names the event the answer saw, so that a reply to the answer is
/// checked for staleness like a reply to a turn notice.
pub async fn queue(games: &Games, domain: &str, receipt: &Receipt) -> Result<(), ServiceError> {
    crate::metrics::mail_in(receipt);
    let Receipt::Answered { game_id, reply } = receipt else {
        return Ok(());
    };
    let game_id = game_id.clone().unwrap_or_default();
    let seen = match games.store.game(&game_id).await? {
        Some(g) => g.next_seq.saturating_sub(1),
        None => 0,
    };
    let unique = format!(
        "answer-{}",
        &sha256_hex(
            reply
                .in_reply_to
                .as_deref()
                .unwrap_or(&reply.text)
                .as_bytes()
        )[..16]
    );
    let email = EmailDelivery {
        to: reply.to.clone(),
        to_name: String::new(),
        subject: reply.subject.clone(),
        html: format!(
            "<pre style=\"white-space: pre-wrap\">{}</pre>",
            escape_html(&reply.text)
        ),
        text: reply.text.clone(),
        reply_to: reply.reply_to.clone(),
        message_id: notice_id(&game_id, seen, &unique, domain),
        head: None,
    };
    let row = OutboxRecord {
        game_id,
        seq: seen,
        channel: EMAIL.into(),
        seat: None,
        payload: serde_json::to_value(email).expect("serialisable"),
    };
    games.store.enqueue(&row).await?;
    Ok(())
}

fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
