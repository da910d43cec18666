//! `check`: whether every game of the database loads with this build (issue 37). Run with a
//! new build against a copy of the database before switching a server over (docs/operations.md,
//! "Upgrading a server with running campaigns"). It folds each game as the service loads it,
//! snapshots included, and changes nothing in the database.

use std::process::ExitCode;

use super::database::store_as_is;
use super::{CheckArgs, Failure};
use crate::config::Settings;
use crate::games::cache::Limits;
use crate::games::{Games, WouldNotLoad};

pub(super) async fn run(settings: &Settings, args: CheckArgs) -> Result<ExitCode, Failure> {
    let store = store_as_is(settings).await?;
    // No snapshot written, nothing cached: a check leaves the database as it found it.
    let games = Games::new(store, "")
        .with_snapshots_every(0)
        .with_fold_cache(Limits { games: 0, bytes: 0 });
    let ids = games
        .games_to_check(args.all)
        .await
        .map_err(|e| format!("cannot list the games: {e}"))?;
    let mut refused = 0;
    for id in &ids {
        let why = games
            .check_loads(id)
            .await
            .map_err(|e| format!("cannot check game {id}: {e}"))?;
        if let Some(why) = why {
            refused += 1;
            println!("{}", line(&why));
        }
    }
    println!("{}", summary(ids.len(), refused, args.all));
    Ok(if refused == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// One game that would not load: its id, its ruleset and version, the event and the problem.
fn line(why: &WouldNotLoad) -> String {
    format!(
        "game {}: {} version {}, seq {}: {}",
        why.game_id, why.ruleset, why.ruleset_version, why.seq, why.problem
    )
}

/// "412 games checked, 2 would not load".
fn summary(checked: usize, refused: usize, all: bool) -> String {
    let games = if checked == 1 { "game" } else { "games" };
    let which = if all { "" } else { " (not finished)" };
    format!("{checked} {games}{which} checked, {refused} would not load")
}
