//! `export`: a game's export (JSON Lines), to standard output or a file.

use std::process::ExitCode;

use super::database::store;
use super::{ExportArgs, Failure};
use crate::config::Settings;
use crate::engine::ruleset::Viewer;
use crate::games::Games;

pub(super) async fn run(settings: &Settings, args: ExportArgs) -> Result<ExitCode, Failure> {
    let ExportArgs { game, out } = args;
    let games = Games::new(store(settings).await?.store, "");
    let text = games
        .export(&game, &Viewer::Spectator)
        .await
        .map_err(|e| e.to_string())?;
    match out {
        Some(path) => std::fs::write(&path, text)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}
