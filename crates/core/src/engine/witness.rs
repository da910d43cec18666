//! Witnessed logs: the (seq, hash) pairs a player was shown, checked against an export.
//!
//! The hash chain proves that an export is one history; it cannot prove that it is the history
//! the players were shown. A server that rewrites the log from some seq on and re-hashes
//! everything after it produces a chain that verifies. Every notice therefore carries the head
//! of the log when it was sent (`X-Despatch-Head: <game> <seq> <hash>` in an email, `head` in a
//! webhook body), so each player's mailbox holds an independent record; an export must hold
//! every witnessed hash at its seq. This module reads witnesses from text (saved emails or
//! `seq hash` lines) and checks them; reading the files is the caller's job (no I/O here).

use std::collections::BTreeMap;

use super::event::Event;
use super::verify::Finding;

/// The email header a notice carries its log head in.
pub const HEADER: &str = "X-Despatch-Head";

/// One thing a player was shown: the hash of event `seq` of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Witnessed {
    /// The game, when the witness names it (emails do; a `seq hash` line need not).
    pub game_id: Option<String>,
    pub seq: u64,
    pub hash: String,
    /// Where it was read: a file and line, for the report.
    pub source: String,
}

/// The value of the `X-Despatch-Head` header: `<game> <seq> <hash>`.
pub fn header_value(game_id: &str, seq: u64, hash: &str) -> String {
    format!("{game_id} {seq} {hash}")
}

/// What one file held: the witnesses in it, and how many of its messages carry no head (a
/// sign-in mail, an answer to a reply: a mailbox holds them beside the notices).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Found {
    pub witnesses: Vec<Witnessed>,
    pub without_head: usize,
}

/// Reads the witnesses in one file's text. A saved email (or a mailbox of them) is read by its
/// `X-Despatch-Head` headers; any other text is `seq hash` (or `game seq hash`) per line, with
/// blank lines and `#` comments skipped. `source` names the file in errors. An email without
/// the header is an error: `read` sets such messages aside instead.
pub fn parse(text: &str, source: &str) -> Result<Vec<Witnessed>, String> {
    let found = read(text, source)?;
    if found.witnesses.is_empty() {
        return Err(format!(
            "{source} is an email without an {HEADER} header: only notices sent by a Despatch that records the log's head carry one"
        ));
    }
    Ok(found.witnesses)
}

/// `parse`, but a message without an `X-Despatch-Head` header is counted and set aside, so
/// that a whole mailbox can be read: only notices carry a head.
pub fn read(text: &str, source: &str) -> Result<Found, String> {
    if looks_like_email(text) {
        return parse_email(text, source);
    }
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = format!("{source} line {}", i + 1);
        out.push(
            parse_fields(line, &at)
                .map_err(|e| format!("{at}: {e}; each line is `seq hash` or `game seq hash`"))?,
        );
    }
    if out.is_empty() {
        return Err(format!("{source} holds no `seq hash` lines"));
    }
    Ok(Found {
        witnesses: out,
        without_head: 0,
    })
}

/// Whether the text opens with an email header line (`Name: value`), or an mbox `From ` line.
pub fn looks_like_email(text: &str) -> bool {
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let first = first.strip_prefix("From ").map_or(first, |_| "From_: mbox");
    match first.split_once(':') {
        Some((name, _)) => {
            !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        }
        None => false,
    }
}

/// The `X-Despatch-Head` headers of each message in a message or an mbox mailbox (folded lines
/// joined), and how many messages have none. Only a message's header is read: a head quoted in
/// a body (a forwarded notice, a reply) is not what the player was shown.
fn parse_email(text: &str, source: &str) -> Result<Found, String> {
    let prefix = format!("{}:", HEADER.to_ascii_lowercase());
    let lines: Vec<&str> = text.lines().collect();
    let mbox = lines
        .iter()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| l.starts_with("From "));
    let mut found = Found::default();
    let mut i = 0;
    while i < lines.len() {
        // One message: its header up to the first blank line, then its body up to the next
        // mbox `From ` line after a blank one (or the end).
        while i < lines.len() && lines[i].trim().is_empty() {
            i += 1;
        }
        if i == lines.len() {
            break;
        }
        let mut heads = 0;
        while i < lines.len() && !lines[i].is_empty() {
            let line = lines[i];
            i += 1;
            if !line.to_ascii_lowercase().starts_with(&prefix) {
                continue;
            }
            let at = format!("{source} line {i}");
            let mut value = line[prefix.len()..].trim().to_owned();
            while i < lines.len() && lines[i].starts_with([' ', '\t']) {
                value.push(' ');
                value.push_str(lines[i].trim());
                i += 1;
            }
            found.witnesses.push(
                parse_fields(&value, &at).map_err(|e| {
                    format!("{at}: the {HEADER} header is not `game seq hash`: {e}")
                })?,
            );
            heads += 1;
        }
        if heads == 0 {
            found.without_head += 1;
        }
        if !mbox {
            break;
        }
        while i < lines.len() && !(lines[i].starts_with("From ") && lines[i - 1].is_empty()) {
            i += 1;
        }
    }
    Ok(found)
}

fn parse_fields(value: &str, at: &str) -> Result<Witnessed, String> {
    let fields: Vec<&str> = value.split_whitespace().collect();
    let (game_id, seq, hash) = match fields.as_slice() {
        [seq, hash] => (None, *seq, *hash),
        [game, seq, hash] => (Some((*game).to_owned()), *seq, *hash),
        _ => return Err(format!("'{value}' has {} fields", fields.len())),
    };
    let seq = seq
        .parse::<u64>()
        .map_err(|_| format!("'{seq}' is not a seq (a whole number)"))?;
    let hash = hash.to_ascii_lowercase();
    if hash.len() != 64 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!("'{hash}' is not a hash (64 hex digits)"));
    }
    Ok(Witnessed {
        game_id,
        seq,
        hash,
        source: at.to_owned(),
    })
}

/// Checks that `events` (already checked as one hash chain) hold every witness of `game_id`,
/// and answers how many were checked. Witnesses that name another game are set aside; if none
/// is left, that is an error too (nothing the player was shown was checked).
pub fn check(game_id: &str, events: &[Event], witnesses: &[Witnessed]) -> Result<usize, Finding> {
    let fail = |seq: u64, problem: String| Finding { seq, problem };
    let mut seen: BTreeMap<u64, &Witnessed> = BTreeMap::new();
    for w in witnesses
        .iter()
        .filter(|w| w.game_id.as_deref().is_none_or(|g| g == game_id))
    {
        if let Some(other) = seen.get(&w.seq) {
            if other.hash != w.hash {
                return Err(fail(
                    w.seq,
                    format!(
                        "you were shown two different hashes for seq {}: {} ({}) and {} ({}); the server showed you two histories",
                        w.seq, other.hash, other.source, w.hash, w.source
                    ),
                ));
            }
        }
        seen.insert(w.seq, w);
    }
    if seen.is_empty() {
        return Err(fail(
            0,
            format!("no witness is for game {game_id}: nothing you were shown could be checked"),
        ));
    }
    // In seq order, so the first one that differs is the earliest rewrite the witnesses show.
    for (seq, w) in &seen {
        let Some(e) = events.get(*seq as usize) else {
            return Err(fail(
                *seq,
                format!(
                    "you were shown seq {seq} (hash {}, {}), but the export ends at seq {}: it does not extend what you were shown",
                    w.hash,
                    w.source,
                    events.len().saturating_sub(1)
                ),
            ));
        };
        if e.hash != w.hash {
            return Err(fail(
                *seq,
                format!(
                    "the export's event {seq} hashes to {}, but you were shown {} ({}): the history up to seq {seq} was rewritten since",
                    e.hash, w.hash, w.source
                ),
            ));
        }
    }
    Ok(seen.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: &str = "ab00000000000000000000000000000000000000000000000000000000000001";

    #[test]
    fn seq_hash_lines_are_read_with_comments_and_blank_lines_skipped() {
        let got = parse(
            &format!("# from my notes\n\n3 {H}\ng-1 4 {}\n", H.to_uppercase()),
            "w.txt",
        )
        .unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!((got[0].game_id.as_deref(), got[0].seq), (None, 3));
        assert_eq!(
            (got[1].game_id.as_deref(), got[1].seq, got[1].hash.as_str()),
            (Some("g-1"), 4, H)
        );
        assert_eq!(got[1].source, "w.txt line 4");
    }

    #[test]
    fn a_bad_line_is_named_with_what_is_wrong() {
        let e = parse(&format!("3 {H}\nthree {H}\n"), "w.txt").unwrap_err();
        assert!(e.contains("w.txt line 2") && e.contains("not a seq"), "{e}");
        let e = parse("3 abc\n", "w.txt").unwrap_err();
        assert!(e.contains("64 hex digits"), "{e}");
        assert!(parse("\n# nothing\n", "w.txt")
            .unwrap_err()
            .contains("no `seq hash`"));
    }

    #[test]
    fn an_email_is_read_by_its_header_even_when_folded() {
        let mail = format!(
            "From: Despatch <d@example.org>\r\nx-despatch-head: g-1 12\r\n {H}\r\nSubject: hi\r\n\r\n12 {}\r\n",
            "f".repeat(64)
        );
        let got = parse(&mail, "turn.eml").unwrap();
        assert_eq!(got.len(), 1, "the body is not read: {got:?}");
        assert_eq!(
            (got[0].game_id.as_deref(), got[0].seq, got[0].hash.as_str()),
            (Some("g-1"), 12, H)
        );
        let e = parse("From: a@b\r\nSubject: x\r\n\r\nbody\r\n", "old.eml").unwrap_err();
        assert!(e.contains("without an X-Despatch-Head"), "{e}");
    }

    #[test]
    fn a_mailbox_is_read_message_by_message_and_mail_without_a_head_is_set_aside() {
        let mbox = format!(
            "From despatch@example.org Sun Nov 22 10:00:00 2026\n\
             From: Despatch <d@example.org>\nSubject: Sign in\n\nYour link: https://x/login\n\n\
             From despatch@example.org Sun Nov 22 10:05:00 2026\n\
             From: Despatch <d@example.org>\nX-Despatch-Head: g-1 3 {H}\nSubject: Your turn\n\n\
             X-Despatch-Head: g-1 4 {}\n\n\
             From despatch@example.org Sun Nov 22 10:06:00 2026\n\
             From: Despatch <d@example.org>\nSubject: Re: your orders\n\nDone.\n",
            "f".repeat(64)
        );
        let found = read(&mbox, "inbox.mbox").unwrap();
        assert_eq!(found.without_head, 2, "{found:?}");
        assert_eq!(
            found.witnesses.len(),
            1,
            "a head in a body is not read: {found:?}"
        );
        assert_eq!(found.witnesses[0].seq, 3);
        let one = read("From: a@b\r\nSubject: x\r\n\r\nbody\r\n", "signin.eml").unwrap();
        assert_eq!((one.witnesses.len(), one.without_head), (0, 1));
    }
}
