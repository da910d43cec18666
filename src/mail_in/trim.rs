//! The visible part of a reply: quoted text, forwarded messages, embedded headers and mobile
//! signatures removed, so that only what the player wrote is read as orders.
//!
//! A port of Discourse's EmailReplyTrimmer (github.com/discourse/email_reply_trimmer, MIT
//! licence, Copyright (c) Civilized Discourse Construction Kit, Inc.), chosen because its
//! test fixtures — real replies from many mail clients and languages, with the expected
//! result — come with it; `tests/service/mail_corpus.rs` runs them. Each line is classified (empty,
//! delimiter, signature, embedded-email marker, email header, quote, text), and patterns over
//! that string of classes decide what to keep.

use std::sync::LazyLock;

use fancy_regex::Regex as Fancy;
use regex::Regex;

const DELIMITER: char = 'd';
const EMBEDDED: char = 'b';
const EMPTY: char = 'e';
const EMAIL_HEADER: char = 'h';
const QUOTE: char = 'q';
const SIGNATURE: char = 's';
const TEXT: char = 't';

/// The most backtracking steps a pattern may take on one input: a mangled message must not
/// stall the mail pipe (the default is a million).
const BACKTRACK_LIMIT: usize = 20_000;

fn fancy_one(pattern: &str) -> Fancy {
    fancy_regex::RegexBuilder::new(pattern)
        .backtrack_limit(BACKTRACK_LIMIT)
        .build()
        .unwrap_or_else(|e| panic!("pattern {pattern}: {e}"))
}

fn fancy(patterns: &[&str]) -> Vec<Fancy> {
    patterns.iter().map(|p| fancy_one(p)).collect()
}

static EMPTY_LINE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^[\t\p{Zs}]*$").unwrap());
static QUOTE_LINE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^[\t\p{Zs}]*>").unwrap());
static DELIMITER_LINE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[\t\p{Zs}]*[-_,=+~#*ᐧ—]+[\t\p{Zs}]*$").unwrap());

static SIGNATURES: LazyLock<Vec<Fancy>> = LazyLock::new(|| {
    fancy(&[
        r"(?i)^[\t\p{Zs}]*從我的 iPhone 傳送",
        r"(?i)^[\t\p{Zs}]*\w+ from mobile",
        r"(?i)^[\t\p{Zs}]*[\(<]*Sent (from|via|with|by) .+[\)>]*",
        r"(?i)^[\t\p{Zs}]*From my .{1,20}",
        r"(?i)^[\t\p{Zs}]*Get Outlook for ",
        r"(?i)^[\t\p{Zs}]*Envoyé depuis (mon|Yahoo Mail)",
        r"(?i)^[\t\p{Zs}]*Von meinem .+ gesendet",
        r"(?i)^[\t\p{Zs}]*Diese Nachricht wurde von .+ gesendet",
        r"(?i)^[\t\p{Zs}]*Inviato da ",
        r"(?i)^[\t\p{Zs}]*Sendt fra min ",
        r"(?i)^[\t\p{Zs}]*Enviado do meu ",
        r"(?i)^[\t\p{Zs}]*Enviado desde mi ",
        r"(?i)^[\t\p{Zs}]*Verzonden met ",
        r"(?i)^[\t\p{Zs}]*Verstuurd vanaf mijn ",
        r"(?i)^[\t\p{Zs}]*från min ",
    ])
});

static MARKDOWN_LINK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\[([^\]]+)\]\([^\)]+\)").unwrap());

// "On <date>, <someone> wrote:" and its translations. `(?s)` because the preprocessing joins
// markers that span lines only when they are short.
const ON_DATE_SOMEONE_WROTE: &[&str] = &[
    r"(?ims)^[\t\p{Zs}<>-]*在 (?:(?!\b(?>在|写道)\b).)+?写道[\t\p{Zs}.:>-]*$",
    r"(?ims)^[\t\p{Zs}<>-]*Op (?:(?!\b(?>Op|het\svolgende\sgeschreven|schreef)\b).)+?(het\svolgende\sgeschreven|schreef[^:]+)[\t\p{Zs}.:>-]*$",
    r"(?ims)^[\t\p{Zs}<>-]*In message (?:(?!\b(?>In message|writes)\b).)+?writes[\t\p{Zs}.:>-]*$",
    r"(?ims)^[\t\p{Zs}<>-]*(On|At) (?:(?!\b(?>On|wrote|writes|says|said)\b).)+?(wrote|writes|says|said)[\t\p{Zs}.:>-]*$",
    r"(?ims)^[\t\p{Zs}<>-]*Le (?:(?!\b(?>Le|nous\sa\sdit|a\s+écrit)\b).)+?(nous\sa\sdit|a\s+écrit)[\t\p{Zs}.:>-]*$",
    r"(?ims)^[\t\p{Zs}<>-]*Am (?:(?!\b(?>Am|schrieben\sSie)\b).)+?schrieben\sSie[\t\p{Zs}.:>-]*$",
    r"(?ims)^[\t\p{Zs}<>-]*Am (?:(?!\b(?>Am|geschrieben)\b).)+?(geschrieben|schrieb[^:]+)[\t\p{Zs}.:>-]*$",
    r"(?ims)^[\t\p{Zs}<>-]*Il (?:(?!\b(?>Il|ha\sscritto)\b).)+?ha\sscritto[\t\p{Zs}.:>-]*$",
    r"(?ims)^[\t\p{Zs}<>-]*(Dnia|Dňa) (?:(?!\b(?>Dnia|Dňa|napisał)\b).)+?napisał(\(a\))?[\t\p{Zs}.:>-]*$",
    r"(?ims)^[\t\p{Zs}<>-]*Em (?:(?!\b(?>Em|escreveu)\b).)+?escreveu[\t\p{Zs}.:>-]*$",
    r"(?ims)^[\t\p{Zs}<>-]*El (?:(?!\b(?>El|escribió)\b).)+?escribió[\t\p{Zs}.:>-]*$",
];

const ON_DATE_WROTE_SOMEONE: &[&str] = &[
    r"(?m)^[\t\p{Zs}>]*Op\s.+\sschreef\s[^:]+:",
    r"(?m)^[\t\p{Zs}>]*Am\s.+\sschrieb\s[^:]+:",
    r"(?m)^[\t\p{Zs}>]*Den\s.+\sskrev\s[^:]+:",
    r"(?m)^[\t\p{Zs}>]*søn\.\s.+\sskrev\s[^:]+:",
];

const DATE_SOMEONE_WROTE: &[&str] = &[
    r"\d{4}.{1,80}пользователь.{0,80}\n?.{0,80}?написал:",
    r"\d{4}.{1,80}\n?.{0,80}?napisał\(a\):",
    r"\d{4}.{1,80}\n?.{0,80}?пише:",
];

const SOMEONE_WROTE_ON_DATE: &[&str] = &[
    r"(?m)^.+\bwrote\b\s+\bon\b.+[^:]+:",
    r"(?m)^.+\bschrieb\b\s+\bam\b.+[^:]+:",
];

const DATE_SOMEONE_EMAIL: &str = r"(?m)\d{4}.{1,80}\s?<[^@<>]+@[^@<>.]+\.[^@<>]+>:?$";

const OTHER_EMBEDDED: &[&str] = &[
    r"(?m)^[\t\p{Zs}>]*20\d\d-\d\d-\d\d \d\d:\d\d GMT\+\d\d:\d\d [\w\t\p{Zs}]+$",
    r"(?m)^.+ via .+ wrote:?[\t\p{Zs}]*$",
    r"(?m)^.+ via .+ schrieb:?[\t\p{Zs}]*$",
    r"(?m)^.+\b[\w.+-]+@[\w.-]+\.\w{2,}\b.+wrote:?$",
    r"(?im)^[\t\p{Zs}>]*Posted by .+ on \d{2}/\d{2}/\d{4}$",
    r"(?im)^[\t\p{Zs}>]*Begin forwarded message:",
    r"(?im)^[\t\p{Zs}>*]*-{2,}[\t\p{Zs}]*(Forwarded|Original|Reply) Message[\t\p{Zs}]*-{2,}",
    r"(?im)^[\t\p{Zs}>]*Début du message transféré :",
    r"(?im)^[\t\p{Zs}>*]*-{2,}[\t\p{Zs}]*Message transféré[\t\p{Zs}]*-{2,}",
    r"(?im)^[\t\p{Zs}>*]*-{2,}[\t\p{Zs}]*Ursprüngliche Nachricht[\t\p{Zs}]*-{2,}",
    r"(?im)^[\t\p{Zs}>*]*-{2,}[\t\p{Zs}]*Mensaje original[\t\p{Zs}]*-{2,}",
    r"(?im)^[\t\p{Zs}>*]*-{2,}[\t\p{Zs}]*原始邮件[\t\p{Zs}]*-{2,}",
];

/// The markers that may span several lines, joined onto one line before classifying.
static MULTILINE_MARKERS: LazyLock<Vec<Fancy>> = LazyLock::new(|| {
    let mut all: Vec<&str> = Vec::new();
    all.extend(ON_DATE_SOMEONE_WROTE);
    all.extend(SOMEONE_WROTE_ON_DATE);
    all.extend(DATE_SOMEONE_WROTE);
    all.push(DATE_SOMEONE_EMAIL);
    fancy(&all)
});

static EMBEDDED_MARKERS: LazyLock<Vec<Fancy>> = LazyLock::new(|| {
    let mut all: Vec<&str> = Vec::new();
    all.extend(ON_DATE_SOMEONE_WROTE);
    all.extend(ON_DATE_WROTE_SOMEONE);
    all.extend(DATE_SOMEONE_WROTE);
    all.push(DATE_SOMEONE_EMAIL);
    all.extend(SOMEONE_WROTE_ON_DATE);
    all.extend(OTHER_EMBEDDED);
    fancy(&all)
});

static EMAIL_HEADERS: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    let with_date: &[&[&str]] = &[
        &["Sendt"],
        &["Sent", "Date"],
        &["Date", "Le"],
        &["Gesendet"],
        &["Enviada em"],
        &["Enviado"],
        &["Fecha"],
        &["Data"],
        &["Datum"],
        &["Skickat"],
        &["发送时间"],
    ];
    let with_text: &[&[&str]] = &[
        &["Fra", "Til", "Emne"],
        &["From", "To", "Cc", "Reply-To", "Subject"],
        &[
            "De",
            "Expéditeur",
            "À",
            "Destinataire",
            "Répondre à",
            "Objet",
        ],
        &["Von", "An", "Betreff"],
        &["De", "Para", "Assunto"],
        &["De", "Para", "Asunto"],
        &["Da", "Risposta", "A", "Oggetto"],
        &["Van", "Beantwoorden - Aan", "Aan", "Onderwerp"],
        &["Från", "Till", "Ämne"],
        &["发件人", "收件人", "主题"],
    ];
    let mut out: Vec<Regex> = with_date
        .iter()
        .map(|h| {
            Regex::new(&format!(
                r"^[\t\p{{Zs}}*]*(?:{})[\t\p{{Zs}}*]*:.*\d+",
                h.join("|")
            ))
            .unwrap()
        })
        .collect();
    out.extend(with_text.iter().map(|h| {
        Regex::new(&format!(
            r"(?i)^[\t\p{{Zs}}*]*(?:{})[\t\p{{Zs}}*]*:.*\w+",
            h.join("|")
        ))
        .unwrap()
    }));
    out
});

fn matches_any(regexes: &[Fancy], line: &str) -> bool {
    regexes.iter().any(|r| r.is_match(line).unwrap_or(false))
}

fn classify(line: &str) -> char {
    if EMPTY_LINE.is_match(line) {
        EMPTY
    } else if DELIMITER_LINE.is_match(line) {
        DELIMITER
    } else if matches_any(&SIGNATURES, &MARKDOWN_LINK.replace_all(line, "$1")) {
        SIGNATURE
    } else if matches_any(&EMBEDDED_MARKERS, line) {
        EMBEDDED
    } else if EMAIL_HEADERS.iter().any(|r| r.is_match(line)) {
        EMAIL_HEADER
    } else if QUOTE_LINE.is_match(line) {
        QUOTE
    } else {
        TEXT
    }
}

static PGP_HEADER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\A-----BEGIN PGP SIGNED MESSAGE-----\n(?:Hash: \w+)?\s+").unwrap()
});
static PGP_SIGNATURE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^-----BEGIN PGP SIGNATURE-----$[\s\S]+^-----END PGP SIGNATURE-----").unwrap()
});
static UNSUBSCRIBE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?im)^Unsubscribe: .+@.+(\n.+http:.+)?\s*\z").unwrap());
static ALIAS_QUOTE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"(?m)^.*>{5} "[^"\n]+" == .+ writes:"#).unwrap());
static ENCLOSED_NAMED: LazyLock<Fancy> =
    LazyLock::new(|| fancy_one(r"(?m)^>>> ?(.+) ?>>>$\n([\s\S]+?)\n^<<< ?\1 ?<<<$"));
static ENCLOSED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^>{4,}[\t\p{Zs}]*$\n([\s\S]+?)\n^<{4,}[\t\p{Zs}]*$").unwrap()
});
static QUOTE_PREFIX: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?m)^((?:[\t\p{Zs}]*\p{Alphabetic}*[>|])+)").unwrap());
static QUOTE_MARK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(\p{Alphabetic}+>|\|)").unwrap());
static LINE_START: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?m)^").unwrap());
static NEWLINES: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\n+\s*").unwrap());
static CODE_BLOCK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?ms)^```\w*$\n.*?^```$").unwrap());

fn preprocess(text: &str) -> String {
    let mut t = text.replace("\r\n", "\n");
    t = PGP_HEADER.replace_all(&t, "").into_owned();
    t = PGP_SIGNATURE.replace_all(&t, "").into_owned();
    t = UNSUBSCRIBE.replace_all(&t, "").into_owned();
    t = ALIAS_QUOTE.replace_all(&t, "").into_owned();
    // fancy-regex gives up on pathological input (its backtrack limit); the text then stays as
    // it is rather than the trimmer failing.
    let enclosed = ENCLOSED_NAMED.try_replacen(&t, 0, |c: &fancy_regex::Captures<str>| {
        LINE_START.replace_all(&c[2], "> ").into_owned()
    });
    if let Ok(r) = enclosed {
        t = r.into_owned();
    }
    t = ENCLOSED
        .replace_all(&t, |c: &regex::Captures| {
            LINE_START.replace_all(&c[1], "> ").into_owned()
        })
        .into_owned();
    t = QUOTE_PREFIX
        .replace_all(&t, |c: &regex::Captures| {
            QUOTE_MARK.replace_all(&c[1], ">").into_owned()
        })
        .into_owned();
    for marker in MULTILINE_MARKERS.iter() {
        let joined = marker.try_replacen(&t, 0, |c: &fancy_regex::Captures<str>| {
            let m = &c[0];
            if m.matches('\n').count() > 4 {
                m.to_owned()
            } else {
                NEWLINES.replace_all(m, " ").into_owned()
            }
        });
        if let Ok(joined) = joined {
            t = joined.into_owned();
        }
    }
    t.trim().to_owned()
}

/// A pattern compiled once, where it is used: every message is trimmed with the same few.
macro_rules! re {
    ($pattern:literal) => {{
        static RE: LazyLock<Regex> = LazyLock::new(|| Regex::new($pattern).expect("valid pattern"));
        &*RE
    }};
}

fn find(re: &Regex, classes: &str) -> Option<usize> {
    re.find(classes).map(|m| m.start())
}

/// Removes every line of class `class`. Lines past the end of `classes` (once a reply at the
/// end has been taken, the classes are cleared, as in the original) are kept.
fn remove_all(classes: &mut String, lines: &mut Vec<String>, class: char) {
    let mut i = 0;
    let chars: Vec<char> = classes.chars().collect();
    let mut kept = String::new();
    lines.retain(|_| {
        let keep = chars.get(i).is_none_or(|&c| c != class);
        if let Some(&c) = chars.get(i).filter(|_| keep) {
            kept.push(c);
        }
        i += 1;
        keep
    });
    *classes = kept;
}

/// The visible reply of a plain-text email body.
pub fn visible_reply(text: &str) -> String {
    if text.trim().is_empty() {
        return String::new();
    }
    let text = preprocess(text);
    // Code blocks are kept whole.
    let mut blocks = Vec::new();
    let text = CODE_BLOCK
        .replace_all(&text, |c: &regex::Captures| {
            blocks.push(c[0].to_owned());
            format!("\u{0}code-block-{}\u{0}", blocks.len() - 1)
        })
        .into_owned();
    let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
    let mut classes: String = lines.iter().map(|l| classify(l)).collect();
    // The classes are ASCII, so byte indices and line indices agree.

    let cut = |classes: &mut String, lines: &mut Vec<String>, end: usize| {
        classes.truncate(end);
        lines.truncate(end);
    };

    // Everything after the first delimiter goes.
    if let Some(i) = find(re!("d"), &classes) {
        cut(&mut classes, &mut lines, i);
    }
    // Mobile signatures go.
    remove_all(&mut classes, &mut lines, SIGNATURE);
    // The reply is at the end of the email (top-quoting reversed).
    if find(re!(r"^b[^t]+t[et]*$"), &classes).is_some() {
        let i = find(re!(r"t[et]*$"), &classes).expect("matched above");
        classes.clear();
        lines.drain(..i);
    }
    // An embedded email marker not followed by a quote: keep what precedes it.
    if let Some(i) = find(re!(r"te*b[^q]*$"), &classes) {
        cut(&mut classes, &mut lines, i + 1);
    }
    // An embedded email marker followed by a long quote.
    if let Some(c) = re!(r"te*b[eqbh]*([te]*)$").captures(&classes) {
        if c[1].matches('t').count() < 7 {
            let i = c.get(0).unwrap().start();
            cut(&mut classes, &mut lines, i + 1);
        }
    }
    // Text before a quote that ends the email: the quote goes.
    if let Some(i) = find(re!(r"t?e*[qbe]+$"), &classes) {
        cut(&mut classes, &mut lines, i + 1);
    }
    remove_all(&mut classes, &mut lines, EMBEDDED);
    // Email headers spanning several lines.
    if let Some(m) = re!(r"h+[hte]+h+e").find(&classes) {
        let (start, end) = (m.start(), m.end());
        classes.replace_range(start..end, &"h".repeat(end - start));
    }
    // Three or more email headers in a row: keep what precedes them.
    if let Some(i) = find(re!(r"t[eq]*h{3,}"), &classes) {
        cut(&mut classes, &mut lines, i + 1);
    }
    remove_all(&mut classes, &mut lines, EMAIL_HEADER);
    // Trailing quotes go when there is some text.
    if classes.contains(TEXT) {
        if let Some(i) = find(re!(r"[eq]+$"), &classes) {
            cut(&mut classes, &mut lines, i);
        }
    }
    let mut trimmed = lines.join("\n").trim().to_owned();
    for (n, block) in blocks.iter().enumerate() {
        trimmed = trimmed.replace(&format!("\u{0}code-block-{n}\u{0}"), block);
    }
    trimmed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_above_a_quoted_turn_notice_keeps_only_the_reply() {
        let body = "move d4 d5 e5\nbreach door-3 spend-time\n\nOn Sun, 22 Nov 2026 at 09:00, Despatch <play+x@despatch.example> wrote:\n> It is your turn.\n> Legal moves: ...\n";
        assert_eq!(
            visible_reply(body),
            "move d4 d5 e5\nbreach door-3 spend-time"
        );
    }

    #[test]
    fn a_mobile_signature_and_a_delimited_signature_are_dropped() {
        assert_eq!(visible_reply("roll 2d6\n\nSent from my iPhone"), "roll 2d6");
        assert_eq!(visible_reply("roll 2d6\n--\nAnna, 3rd Brigade"), "roll 2d6");
    }
}
