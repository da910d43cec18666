//! `migrate`: applies the migrations, seals what is still kept in plain text, and exits.

use std::process::ExitCode;

use super::database::store;
use super::Failure;
use crate::config::Settings;

pub(super) async fn run(settings: &Settings) -> Result<ExitCode, Failure> {
    let store = store(settings).await?.store;
    println!("migrated the {} database", store.backend());
    Ok(ExitCode::SUCCESS)
}
