//! Notifications and time: telling each seat, reliably, that it must act — and keeping slow
//! games moving over days. It decides no rules: what a seat may do comes from the games
//! service, and every consequence of the clock goes through it as an ordinary append.
//!
//! - `dispatcher` drains the transactional outbox (claims, retries with backoff, attempts log);
//! - `notice` says what a notice says; `templates` renders it as email; `email` sends it (SMTP
//!   or files); `webhook` posts it, signed;
//! - `live` pushes appends to open pages (server-sent events; PostgreSQL LISTEN/NOTIFY);
//! - `scheduler` fires reminders and deadlines into the log (the clocks themselves — policies,
//!   deadlines, vacations — are the game's business: `games::clock`);
//!
//! The links a notice carries (seat links, unsubscribe links, reply-to addresses, Message-IDs)
//! are signed and made by the games service (`games::links`).

pub mod dispatcher;
pub mod email;
pub mod live;
pub mod notice;
pub mod scheduler;
pub mod templates;
pub mod webhook;

use std::sync::Arc;

use crate::config::NotifySettings;
use crate::games::Games;

/// The most database connections a dispatcher built by `dispatcher` holds: its own pool, apart
/// from the one moves are served from, so that however much is due its statements never make a
/// move wait for a connection, and at most this many of them run at once beside the moves.
pub const DISPATCHER_CONNECTIONS: u32 = 2;

/// Builds a dispatcher from the settings, on a pool of its own (`DISPATCHER_CONNECTIONS`) and
/// reading the games through the service's fold cache.
pub fn dispatcher(games: &Games, s: &NotifySettings) -> Result<dispatcher::Dispatcher, String> {
    let mailer = email::Mailer::new(
        s.smtp_url.as_deref(),
        s.mail_dir.clone(),
        &s.mail_from,
        s.smtp_timeout,
    )?;
    let hooks = webhook::Hooks::new(s.webhook_timeout, games.webhook_targets())?;
    Ok(dispatcher::Dispatcher::new(
        games.clone().with_own_pool(DISPATCHER_CONNECTIONS),
        Arc::new(mailer),
        Arc::new(hooks),
        s.dispatch.clone(),
    ))
}
