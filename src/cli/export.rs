//! `export`: a game's export (JSON Lines), to standard output or a file.

use std::process::ExitCode;

use super::database::store;
use super::{ExportArgs, Failure};
use crate::config::Settings;
use crate::engine::ruleset::Viewer;
use crate::games::files::FileStore;
use crate::games::{GameId, Games};

/// Writes every file game `game` lists into `dir`, each named by its SHA-256.
async fn write_files(games: &Games, game: &GameId, dir: &std::path::Path) -> Result<(), Failure> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    let files = games.game_files(game).await.map_err(|e| e.to_string())?;
    for (file, bytes) in &files {
        let path = dir.join(&file.sha256);
        std::fs::write(&path, bytes)
            .map_err(|e| format!("cannot write {} ({}): {e}", path.display(), file.name))?;
    }
    eprintln!("wrote {} file(s) to {}", files.len(), dir.display());
    Ok(())
}

pub(super) async fn run(settings: &Settings, args: ExportArgs) -> Result<ExitCode, Failure> {
    let ExportArgs { game, out, files } = args;
    let games = Games::new(store(settings).await?.store, "");
    let games = match files {
        Some(_) => games.with_files(FileStore::open(&settings.files)?),
        None => games,
    };
    let text = games
        .export(&game, &Viewer::Spectator)
        .await
        .map_err(|e| e.to_string())?;
    match out {
        Some(path) => std::fs::write(&path, text)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        None => print!("{text}"),
    }
    if let Some(dir) = files {
        write_files(&games, &game, &dir).await?;
    }
    Ok(ExitCode::SUCCESS)
}
