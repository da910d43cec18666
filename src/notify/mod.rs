//! Notifications and time: telling each seat, reliably, that it must act — and keeping slow
//! games moving over days. It decides no rules: what a seat may do comes from the games
//! service, and every consequence of the clock goes through it as an ordinary append.
//!
//! - `dispatcher` drains the transactional outbox (claims, retries with backoff, attempts log);
//! - `notice` says what a notice says; `templates` renders it as email; `email` sends it (SMTP
//!   or files); `webhook` posts it, signed;
//! - `live` pushes appends to open pages (server-sent events; PostgreSQL LISTEN/NOTIFY);
//! - `clock` holds clock policies and deadline arithmetic; `scheduler` fires reminders and
//!   deadlines into the log;
//! - `links` signs magic links, unsubscribe links and reply-to addresses.

pub mod clock;
pub mod dispatcher;
pub mod email;
pub mod links;
pub mod live;
pub mod notice;
pub mod scheduler;
pub mod templates;
pub mod webhook;

use std::sync::Arc;

use crate::config::NotifySettings;
use crate::games::Games;

/// Builds a dispatcher from the settings.
pub fn dispatcher(games: &Games, s: &NotifySettings) -> Result<dispatcher::Dispatcher, String> {
    let mailer = email::Mailer::new(
        s.smtp_url.as_deref(),
        s.mail_dir.clone(),
        &s.mail_from,
        s.smtp_timeout,
    )?;
    let hooks = webhook::Hooks::new(s.webhook_timeout)?;
    Ok(dispatcher::Dispatcher::new(
        games.clone(),
        Arc::new(mailer),
        Arc::new(hooks),
        s.dispatch.clone(),
    ))
}
