//! The rules versions this build plays, as `despatch --version` and `despatch verify --help`
//! tell them: every game folds under the version it was created with, for its whole life
//! (docs/operations.md, "Upgrading a server with running campaigns").

use std::sync::LazyLock;

use crate::engine::game::versions_text;
use crate::rules;

/// One line per ruleset: its id and the versions this build plays, the newest (which new games
/// get) last.
fn table() -> String {
    rules::all()
        .iter()
        .map(|r| format!("  {:<22}{}\n", r.id(), versions_text(r.versions())))
        .collect()
}

/// `despatch --version`.
pub(super) fn long_version() -> &'static str {
    static TEXT: LazyLock<String> = LazyLock::new(|| {
        format!(
            "{}\nRules versions this build plays (a game keeps the version it was created under; new games get the last):\n{}",
            env!("CARGO_PKG_VERSION"),
            table().trim_end()
        )
    });
    &TEXT
}

/// The end of `despatch verify --help`.
pub(super) fn verify_help() -> String {
    format!(
        "This build checks logs of these rules versions, each under its own rules:\n{}\
A log of another version is re-folded under the newest, and the report says so: check it with a \
Despatch build that plays its version (CHANGELOG.md names each build's).",
        table()
    )
}
