//! An inbound message as Despatch needs it, read with a maintained MIME parser (mail-parser):
//! who sent it and to which addresses, what it answers, and the visible text of its reply —
//! plain text or HTML, any charset, quoted replies and signatures removed — and the files
//! attached, which the orders carry (docs/files.md).

use std::sync::LazyLock;

use mail_parser::decoders::html::html_to_text;
use mail_parser::{HeaderValue, MessageParser, MimeHeaders};
use regex::Regex;

use super::trim::visible_reply;
use crate::games::files::Upload;

/// The largest message read whole: above Postfix's default size limit (10,240,000 bytes), so
/// that a reply with a photo attached is still read (attachments are skipped; only the text
/// part is decoded into orders). A larger message is read for its headers alone and answered:
/// its orders are not read.
pub const MAX_MESSAGE_BYTES: usize = 10 * 1024 * 1024;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inbound {
    pub message_id: Option<String>,
    /// The sender's address, lowercased.
    pub from: Option<String>,
    /// Every address the message was delivered to (To, Cc, Delivered-To, X-Original-To).
    pub recipients: Vec<String>,
    /// The message ids this one answers (In-Reply-To, then References).
    pub answers: Vec<String>,
    /// Its thread as its References header gives it, oldest first: an answer's References are
    /// these and this message's id.
    pub references: Vec<String>,
    pub subject: String,
    /// What the sender wrote, without quotes and signatures.
    pub text: String,
    /// An auto-reply, bounce or list mail: never answered, so that two robots cannot loop.
    pub automatic: bool,
    /// Larger than `MAX_MESSAGE_BYTES`: only its headers were read, and `text` is empty.
    pub oversized: bool,
    /// The files attached to it (each part with a file name that is not the text itself): the
    /// files its orders carry (docs/files.md).
    pub attachments: Vec<Upload>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MessageError {
    #[error("the message could not be read as an email")]
    Unreadable,
}

fn texts(value: &HeaderValue) -> Vec<String> {
    match value {
        HeaderValue::Text(t) => vec![t.to_string()],
        HeaderValue::TextList(l) => l.iter().map(|t| t.to_string()).collect(),
        _ => Vec::new(),
    }
}

impl Inbound {
    pub fn parse(raw: &[u8]) -> Result<Inbound, MessageError> {
        let oversized = raw.len() > MAX_MESSAGE_BYTES;
        let parser = MessageParser::default();
        let message = if oversized {
            parser.parse_headers(raw)
        } else {
            parser.parse(raw)
        }
        .ok_or(MessageError::Unreadable)?;
        let from = message
            .from()
            .and_then(|a| a.first())
            .and_then(|a| a.address())
            .map(str::to_ascii_lowercase);
        let mut recipients: Vec<String> = Vec::new();
        for list in [message.to(), message.cc()].into_iter().flatten() {
            recipients.extend(
                list.iter()
                    .filter_map(|a| a.address())
                    .map(str::to_ascii_lowercase),
            );
        }
        for header in ["Delivered-To", "X-Original-To", "Envelope-To"] {
            for (name, value) in message.headers_raw() {
                if name.eq_ignore_ascii_case(header) {
                    recipients.push(
                        value
                            .trim()
                            .trim_matches(|c| c == '<' || c == '>')
                            .to_ascii_lowercase(),
                    );
                }
            }
        }
        recipients.dedup();
        let references = texts(message.references());
        let mut answers = texts(message.in_reply_to());
        answers.extend(references.iter().cloned());
        let header = |name: &str| {
            message
                .headers_raw()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.trim().to_ascii_lowercase())
        };
        let automatic = header("Auto-Submitted").is_some_and(|v| v != "no")
            || header("Precedence")
                .is_some_and(|v| ["bulk", "junk", "list", "auto_reply"].contains(&v.as_str()))
            || header("X-Autoreply").is_some()
            || header("X-Autorespond").is_some()
            || header("List-Id").is_some()
            || from
                .as_deref()
                .is_some_and(|f| f.starts_with("mailer-daemon@") || f.starts_with("postmaster@"))
            || message
                .return_path()
                .as_text()
                .is_some_and(|r| r.trim_matches(|c| c == '<' || c == '>').is_empty());
        let body = match message.text_part(0) {
            _ if oversized => String::new(),
            Some(part) if part.is_text_html() => {
                html_text(part.text_contents().unwrap_or_default())
            }
            _ => message
                .body_text(0)
                .map(|t| t.into_owned())
                .unwrap_or_default(),
        };
        let attachments = message
            .attachments()
            .filter(|part| !part.is_message())
            .filter_map(|part| {
                let name = part.attachment_name()?.to_owned();
                let media_type = part.content_type().map(|t| match t.subtype() {
                    Some(sub) => format!("{}/{sub}", t.ctype()),
                    None => t.ctype().to_owned(),
                });
                Some(Upload {
                    name,
                    media_type,
                    bytes: part.contents().to_vec(),
                })
            })
            .collect();
        Ok(Inbound {
            attachments,
            message_id: message.message_id().map(str::to_owned),
            from,
            recipients,
            answers,
            references,
            subject: message.subject().unwrap_or_default().to_owned(),
            text: visible_reply(&body),
            automatic,
            oversized,
        })
    }
}

static BLOCK_END: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)</(div|li|tr|h[1-6]|blockquote|table|ul|ol|pre)\s*>").unwrap()
});

/// Text of an HTML-only reply. mail-parser breaks lines at `<br>` and `</p>` only; mail clients
/// write their lines as `<div>`s, so block ends become line breaks too.
fn html_text(html: &str) -> String {
    html_to_text(&BLOCK_END.replace_all(html, "$0<br>"))
}
