//! The texts of the answers, written for a player reading them in a mail client: what ran, the
//! dice and their proof links, what is expected now — or why nothing was changed.

use serde_json::json;

use crate::engine::ruleset::RuleError;
use crate::games::mail::{MailRefusal, MailStatus};
use crate::games::table::LogEntry;
use crate::games::{MoveResult, ServiceError, Summary};

pub const MAIL_HELP: &str = "Reply to a turn notice with your orders in the game's order language, one order per message. \
Mail commands, each on a line of its own: status (the game now), log (what happened), help (this text), \
vacation 3d (take days off the clock), resign, undo-request, \
say <words> (table talk, to every seat), tell <seat> <words> (to one seat only).";

/// How many events `log` shows.
pub const LOG_EVENTS: usize = 30;

/// A message that reached no game's reply address: `why` says what was wrong with it.
pub fn not_addressed(why: &str) -> String {
    format!("{why}\n\nNothing was changed. Reply to the turn notice of your game, keeping its reply address.\n\n{MAIL_HELP}")
}

/// A message larger than Despatch reads (`message::MAX_MESSAGE_BYTES`): its orders were not read.
pub fn oversized() -> String {
    format!(
        "Your message is larger than {} MB, so Despatch did not read it: none of its orders were played. Nothing was changed.\n\nSend your orders again in a plain reply to the turn notice, without attachments.",
        super::message::MAX_MESSAGE_BYTES >> 20
    )
}

/// Why a message to a reply address is not answered, for the log (`Receipt::Ignored`): it
/// reached no seat whose player sent it, so its sender is nobody the game knows.
pub fn unanswered(refusal: &MailRefusal, game_id: &str) -> String {
    let what = match refusal {
        MailRefusal::NoGame => {
            format!("its reply address names game {game_id}, which this server does not have")
        }
        MailRefusal::NoSeat { .. } => {
            format!("its reply address names a seat game {game_id} does not have")
        }
        MailRefusal::NotTheSeat { seat, .. } => {
            format!("its sender is not the address of seat {seat} in game {game_id}")
        }
    };
    format!("{what}: nothing was changed, and no answer is sent to a sender the seat does not know (a From can be forged)")
}

/// Orders that answer an older turn notice than the game's last.
pub fn outdated(seen: u64, next: u64, orders: &str) -> String {
    format!(
        "Your orders answer an older turn notice (after event {seen}); the game has moved on since (the next event is {next}). \
         They were not applied. Here is the game now; reply to this message with your orders if they still stand.\n\n{}",
        indent(orders)
    )
}

/// Orders carried out: what the game understood, what happened, what was not carried out, and
/// every die with the link to its proof.
pub fn played(base_url: &str, game_id: &str, r: &MoveResult) -> String {
    let mut out = format!("Your orders were carried out:\n{}\n", indent(&r.described));
    out.push_str("\nWhat happened:\n");
    for l in &r.lines {
        out.push_str(&format!("  {}\n", l.text));
    }
    if let Some(u) = &r.unexecuted {
        out.push('\n');
        out.push_str(&not_carried_out(u));
        out.push('\n');
    }
    for e in &r.events {
        if let Some(d) = &e.dice {
            let faces: Vec<String> = d
                .rolls
                .iter()
                .map(|r| format!("d{}={}", r.sides, r.face))
                .collect();
            out.push_str(&format!(
                "\nDice of event {}: {}\nProof: {base_url}/games/{game_id}/events/{}\n",
                e.seq,
                faces.join(", "),
                e.seq
            ));
        }
    }
    out.trim_end().to_owned()
}

/// What of an order was not carried out, and why: the answering mail's words, which the seat
/// page shows too (`http::pages`).
pub fn not_carried_out(u: &crate::engine::ruleset::Unexecuted) -> String {
    let mut out = format!("Stopped: {}\nNot carried out:", u.reason);
    for step in &u.rest {
        out.push_str(&format!("\n    {step}"));
    }
    out
}

/// Where a reply's orders ended before its text did, and how to end them there oneself.
pub fn stopped(stop: &crate::mail_in::Stop) -> String {
    if stop.by_word {
        format!(
            "Your orders ended at line {} (\"{}\"): nothing after it was read.",
            stop.line, stop.text
        )
    } else {
        format!(
            "Your orders ended at line {}, \"{}\", which is not an order: nothing from there \
             on was read. (Write `end` on a line of its own to end your orders yourself.)",
            stop.line, stop.text
        )
    }
}

/// The first lines of the answer to mail commands sent beside orders: the orders had their own.
pub fn commands_after_orders(r: &MoveResult) -> String {
    format!(
        "Your orders were carried out (event {}) and answered in a message of their own. \
         Your mail commands:",
        r.next_seq.saturating_sub(1)
    )
}

/// Orders not applied: refused by the rules (with the numbered lines), sent too fast, or beaten
/// by another move. `e` is one of the errors `MailOrders::NotApplied` holds.
pub fn not_applied(e: &ServiceError, orders: &str) -> String {
    match e {
        ServiceError::Rule(e) => format!(
            "Your orders were refused, and nothing of them was applied.\n\n{}\n\nRule: {}\nWhy: {}",
            numbered(orders),
            e.rule,
            e.message
        ),
        ServiceError::Stale { current_seq, .. } => format!(
            "Another move was recorded while yours was on its way (the next event is now {current_seq}); yours was not applied. \
             Here is the game now."
        ),
        limited => format!(
            "Your orders were not applied: {limited}. Nothing was changed; send them again then.\n\n{}",
            numbered(orders)
        ),
    }
}

pub fn help(grammar: &str) -> String {
    format!("{MAIL_HELP}\n\nThe order language of this game: {grammar}")
}

/// A message with nothing to do.
pub fn nothing() -> String {
    format!(
        "Your message held no orders and no mail commands, so nothing was changed.\n\n{MAIL_HELP}"
    )
}

pub fn resigned(r: &MoveResult) -> String {
    let lines: Vec<String> = r.lines.iter().map(|l| format!("  {}", l.text)).collect();
    format!("You resigned.\n{}", lines.join("\n"))
}

pub fn resign_refused(e: &RuleError) -> String {
    format!("resign was refused ({}): {}", e.rule, e.message)
}

pub const NO_UNDO: &str =
    "undo-request: the rules of this game allow no undo by consent; a move stands once it is recorded.";

pub fn vacation_unreadable(days: &str) -> String {
    format!("vacation {days}: write the number of days, like vacation 3d; nothing was changed.")
}

pub fn vacation_taken(days: i64, until: &str) -> String {
    format!("vacation {days}d: taken, from now until {until}; your deadlines wait for you.")
}

/// Table talk sent: to the table (`to` is `None`) or to one seat's player.
pub fn talk_sent(to: Option<&str>) -> String {
    match to {
        Some(name) => format!("Told {name} (only {name} reads it)."),
        None => "Said to the table.".into(),
    }
}

/// Table talk refused, with why.
pub fn talk_refused(line: &str, why: &str) -> String {
    format!("'{line}' was not sent: {why}. Nothing was sent.")
}

pub fn vacation_refused(days: &str, why: &str) -> String {
    format!("vacation {days} was refused: {why}. Nothing was changed.")
}

/// Who is expected now, or how the game ended.
pub fn waiting(summary: &Summary) -> String {
    if summary.ended {
        return format!("The game is over: {}", json!(summary.outcome));
    }
    let waiting: Vec<String> = summary
        .waiting_for
        .iter()
        .map(|p| format!("  {} — {}", p.seat, p.decision))
        .collect();
    format!("Now waiting for:\n{}", waiting.join("\n"))
}

/// `status`: who is expected, what the seat may do, and the board as it sees it.
pub fn status(game_id: &str, status: &MailStatus) -> String {
    let mut out = format!("Game {game_id} — status\n");
    out.push_str(&waiting(&status.summary));
    if !status.prompts.is_empty() {
        out.push_str("\n\nIt is your turn. You may:\n");
        for o in status.prompts.iter().flat_map(|p| &p.options) {
            out.push_str(&format!("  {o}\n"));
        }
    }
    out.push_str(&format!("\n\nThe board as you see it:\n{}", status.board));
    out
}

/// `log`: the latest events with what happened in each.
pub fn log(entries: &[LogEntry]) -> String {
    let mut out = format!("The log (latest {LOG_EVENTS} events):\n");
    for e in entries {
        out.push_str(&format!("  [{}] {} {}\n", e.seq, e.kind, e.seat));
        for l in &e.lines {
            out.push_str(&format!("      {l}\n"));
        }
    }
    out.trim_end().to_owned()
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
