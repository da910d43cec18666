//! Sending email. The transport is chosen by configuration: SMTP through lettre when
//! `DESPATCH_SMTP_URL` is set (`smtp://host:25` plain, `smtp://user:pass@host:587?tls=required`
//! for STARTTLS, `smtps://user:pass@host:465` for TLS from the first byte), else files under
//! `./data/mail/` (one `.eml` per message, named after its Message-ID) and a log line.
//!
//! Every message carries the stable Message-ID its outbox delivery was given, so a message sent
//! twice (the dispatcher died between sending and marking it sent) is recognisably the same one.

use std::path::PathBuf;
use std::time::Duration;

use lettre::message::header::ContentType;
use lettre::message::header::{Header, HeaderName, HeaderValue};
use lettre::message::{Attachment, Mailbox, MultiPart};

use crate::engine::files::FileRef;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::games::outbox::EmailDelivery;

/// The `X-Despatch-Head: <game> <seq> <hash>` header, built through lettre's typed headers so
/// that lettre encodes it.
#[derive(Debug, Clone)]
struct HeadHeader(String);

impl Header for HeadHeader {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str(crate::engine::witness::HEADER)
    }

    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(HeadHeader(s.to_owned()))
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), self.0.clone())
    }
}

/// `List-Unsubscribe: <url>` (RFC 2369), with `List-Unsubscribe-Post` (RFC 8058) making it a
/// one-click POST that a mail client sends without opening a page.
#[derive(Debug, Clone)]
struct ListUnsubscribe(String);

impl Header for ListUnsubscribe {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe")
    }

    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribe(s.to_owned()))
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), format!("<{}>", header_text(&self.0)))
    }
}

#[derive(Debug, Clone)]
struct ListUnsubscribePost;

impl Header for ListUnsubscribePost {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe-Post")
    }

    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribePost)
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "List-Unsubscribe=One-Click".to_owned())
    }
}

/// Text for a header (a display name, a subject) as one line: each control character (CR and
/// LF above all) becomes a space. Names are refused at the API when they hold one
/// (`games::input`), so this only guards rows written before that check, or by another path: a
/// header is never split, and lettre, which refuses to encode such a name, is never asked to.
fn header_text(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

enum Transport {
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
    Files(PathBuf),
}

/// Sends email by the configured transport.
pub struct Mailer {
    transport: Transport,
    from: Mailbox,
}

impl Mailer {
    /// SMTP at `smtp_url`, or files in `mail_dir` when there is none.
    pub fn new(
        smtp_url: Option<&str>,
        mail_dir: PathBuf,
        from: &str,
        timeout: Duration,
    ) -> Result<Mailer, String> {
        let from: Mailbox = from
            .parse()
            .map_err(|e| format!("DESPATCH_MAIL_FROM '{from}' is not an address: {e}"))?;
        let transport = match smtp_url {
            Some(url) => Transport::Smtp(
                AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
                    .map_err(|e| format!("DESPATCH_SMTP_URL is not usable: {e}"))?
                    .timeout(Some(timeout))
                    .build(),
            ),
            None => Transport::Files(mail_dir),
        };
        Ok(Mailer { transport, from })
    }

    /// The domain of the sender address: the right-hand side of Message-IDs.
    pub fn domain(&self) -> String {
        self.from.email.domain().to_owned()
    }

    pub fn describe(&self) -> String {
        match &self.transport {
            Transport::Smtp(_) => "SMTP".into(),
            Transport::Files(dir) => format!("files in {}", dir.display()),
        }
    }

    /// Builds the MIME message: text and HTML alternatives.
    pub fn message(&self, d: &EmailDelivery) -> Result<Message, String> {
        self.message_with(d, &[])
    }

    /// Builds the MIME message: text and HTML alternatives, and `files` attached (a
    /// multipart/mixed message) when there are any.
    pub fn message_with(
        &self,
        d: &EmailDelivery,
        files: &[(FileRef, Vec<u8>)],
    ) -> Result<Message, String> {
        let to = Mailbox::new(
            // An address with no name (account mail) is written bare.
            (!d.to_name.trim().is_empty()).then(|| header_text(&d.to_name)),
            d.to.parse()
                .map_err(|e| format!("'{}' is not an email address: {e}", d.to))?,
        );
        let mut builder = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(header_text(&d.subject))
            .message_id(Some(format!("<{}>", d.message_id)));
        if let Some(reply) = &d.reply_to {
            builder = builder.reply_to(
                reply
                    .parse()
                    .map_err(|e| format!("the reply-to '{reply}' is not an address: {e}"))?,
            );
        }
        if let Some(id) = &d.in_reply_to {
            builder = builder.in_reply_to(format!("<{}>", bare(id)));
        }
        if !d.references.is_empty() {
            let thread: Vec<String> = d
                .references
                .iter()
                .map(|id| format!("<{}>", bare(id)))
                .collect();
            builder = builder.references(thread.join(" "));
        }
        if let Some(head) = &d.head {
            builder = builder.header(HeadHeader(crate::engine::witness::header_value(
                &head.game_id,
                head.seq,
                &head.hash,
            )));
        }
        if let Some(url) = &d.unsubscribe {
            builder = builder
                .header(ListUnsubscribe(url.clone()))
                .header(ListUnsubscribePost);
        }
        let body = MultiPart::alternative_plain_html(d.text.clone(), d.html.clone());
        let body = if files.is_empty() {
            body
        } else {
            files.iter().fold(
                MultiPart::mixed().multipart(body),
                |mixed, (file, bytes)| {
                    let media_type = ContentType::parse(&file.media_type).unwrap_or_else(|_| {
                        ContentType::parse("application/octet-stream").unwrap()
                    });
                    mixed.singlepart(
                        Attachment::new(file.name.clone()).body(bytes.clone(), media_type),
                    )
                },
            )
        };
        builder
            .multipart(body)
            .map_err(|e| format!("cannot build the message: {e}"))
    }

    /// Sends one email; an error says why, for the attempts log.
    pub async fn send(&self, d: &EmailDelivery) -> Result<(), String> {
        self.send_with(d, &[]).await
    }

    /// Sends one email with `files` attached.
    pub async fn send_with(
        &self,
        d: &EmailDelivery,
        files: &[(FileRef, Vec<u8>)],
    ) -> Result<(), String> {
        let message = self.message_with(d, files)?;
        match &self.transport {
            Transport::Smtp(smtp) => smtp
                .send(message)
                .await
                .map(|_| ())
                .map_err(|e| format!("SMTP: {e}")),
            Transport::Files(dir) => {
                tokio::fs::create_dir_all(dir)
                    .await
                    .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
                let name: String = d
                    .message_id
                    .chars()
                    .map(|c| {
                        if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                            c
                        } else {
                            '_'
                        }
                    })
                    .collect();
                let path = dir.join(format!("{name}.eml"));
                tokio::fs::write(&path, message.formatted())
                    .await
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                tracing::info!(to = %d.to, subject = %d.subject, file = %path.display(), "email written (no SMTP configured)");
                Ok(())
            }
        }
    }
}

/// A message id without the angle brackets (and spaces) a header may have kept around it.
fn bare(id: &str) -> &str {
    id.trim().trim_start_matches('<').trim_end_matches('>')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn delivery(name: &str, subject: &str) -> EmailDelivery {
        EmailDelivery {
            to: "anna@example.org".into(),
            to_name: name.into(),
            subject: subject.into(),
            text: "text".into(),
            html: "<p>html</p>".into(),
            reply_to: None,
            message_id: "despatch.g.1.1@example.org".into(),
            head: None,
            in_reply_to: None,
            references: Vec::new(),
            unsubscribe: None,
            attachments: Vec::new(),
        }
    }

    #[test]
    fn a_name_or_subject_with_line_breaks_cannot_add_a_header() {
        let mailer = Mailer::new(
            None,
            PathBuf::from("unused"),
            "Despatch <despatch@example.org>",
            Duration::from_secs(1),
        )
        .unwrap();
        let message = mailer
            .message(&delivery(
                "Evil\r\nBcc: victim@example.com",
                "Your turn\r\nBcc: other@example.com",
            ))
            .expect("the message is built");
        let bytes = message.formatted();
        let formatted = String::from_utf8_lossy(&bytes);
        assert!(
            !formatted.to_ascii_lowercase().contains("\r\nbcc:"),
            "no header was injected:\n{formatted}"
        );
        let parsed = mail_parser::MessageParser::default()
            .parse(&bytes)
            .expect("a message");
        let to = parsed.to().and_then(|a| a.first()).expect("one To");
        assert_eq!(to.name(), Some("Evil  Bcc: victim@example.com"));
        assert_eq!(to.address(), Some("anna@example.org"));
        assert_eq!(parsed.subject(), Some("Your turn  Bcc: other@example.com"));
        assert!(parsed.bcc().is_none(), "{formatted}");
        assert!(message
            .envelope()
            .to()
            .iter()
            .all(|a| a.to_string() == "anna@example.org"));
    }
}
