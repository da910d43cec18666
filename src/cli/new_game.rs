//! `new-game`: creates a game and prints each seat's token and link (shown once).

use std::process::ExitCode;

use serde_json::Value;

use super::database::{register, store};
use super::{Failure, NewGameArgs};
use crate::config::Settings;
use crate::games::clock::ClockChoice;
use crate::games::{Games, NewGame, NewSeat};

pub(super) async fn run(settings: &Settings, args: NewGameArgs) -> Result<ExitCode, Failure> {
    let NewGameArgs {
        ruleset,
        scenario,
        seats,
        options,
        clock,
    } = args;
    let clock = clock
        .map(|c| {
            if c.trim_start().starts_with('{') {
                serde_json::from_str(&c).map_err(|e| format!("--clock is not JSON: {e}"))
            } else {
                Ok(ClockChoice::Preset(c))
            }
        })
        .transpose()?;
    let options: Value =
        serde_json::from_str(&options).map_err(|e| format!("--options is not JSON: {e}"))?;
    let seats = seats
        .iter()
        .map(|s| parse_seat(s))
        .collect::<Result<Vec<_>, _>>()?;
    let opened = store(settings).await?;
    let registration = register(&opened.store, "new-game").await?;
    let games = Games::new(
        opened.store,
        settings
            .base_url
            .clone()
            .unwrap_or_else(|| format!("http://{}", settings.bind)),
    )
    .with_secret(opened.link_secret.as_deref());
    let created = games
        .create(NewGame {
            name: None,
            ruleset,
            scenario,
            options,
            seats,
            clock,
        })
        .await
        .map_err(|e| e.to_string());
    games.flush_announcements().await;
    registration.end().await;
    let created = created?;
    println!("game {}", created.game_id);
    for s in created.seats {
        println!(
            "  {} ({}): token {}\n    {}",
            s.seat, s.name, s.token, s.link
        );
    }
    println!("The tokens are shown once: pass each to its player.");
    Ok(ExitCode::SUCCESS)
}

/// `name`, `name <email>`, or `seat-id=name <email>`.
fn parse_seat(text: &str) -> Result<NewSeat, String> {
    let (seat, rest) = match text.split_once('=') {
        Some((id, rest)) => (Some(id.trim().to_owned()), rest),
        None => (None, text),
    };
    let (name, email) = match rest.split_once('<') {
        Some((name, email)) => (
            name.trim(),
            Some(email.trim_end_matches('>').trim().to_owned()),
        ),
        None => (rest.trim(), None),
    };
    if name.is_empty() {
        return Err(format!("--seat '{text}' has no name"));
    }
    Ok(NewSeat {
        seat,
        name: name.to_owned(),
        email,
    })
}
