//! The log: standard error or a file, text or JSON (`RUST_LOG`, `DESPATCH_LOG_FORMAT`,
//! `DESPATCH_LOG_FILE`).

/// Starts logging to standard error, at the level `RUST_LOG` asks (default `info`): text, in
/// colour only when standard error is a terminal (and `NO_COLOR` is unset), so files and log
/// collectors get no escape codes; or one JSON object per line with `DESPATCH_LOG_FORMAT=json`,
/// for log shippers. With `DESPATCH_LOG_FILE`, appended to that file instead (a mail server
/// keeps a piped command's standard error in its own log, and may quote it in a bounce).
pub fn init_logging() -> Result<(), LogFileError> {
    use std::io::IsTerminal;
    use tracing_subscriber::fmt::writer::BoxMakeWriter;
    let filter =
        tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into());
    let (writer, terminal) = match std::env::var_os("DESPATCH_LOG_FILE").filter(|f| !f.is_empty()) {
        Some(path) => {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .map_err(|source| LogFileError {
                    path: path.clone().into(),
                    source,
                })?;
            (BoxMakeWriter::new(std::sync::Mutex::new(file)), false)
        }
        None => (
            BoxMakeWriter::new(std::io::stderr),
            std::io::stderr().is_terminal(),
        ),
    };
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer);
    let format = std::env::var("DESPATCH_LOG_FORMAT").unwrap_or_default();
    match format.trim().to_ascii_lowercase().as_str() {
        "json" => builder.json().with_ansi(false).init(),
        other => {
            let colour = terminal && std::env::var_os("NO_COLOR").is_none();
            builder.with_ansi(colour).init();
            if !matches!(other, "" | "text") {
                tracing::warn!(
                    "DESPATCH_LOG_FORMAT={other} is not understood (text or json); writing text"
                );
            }
        }
    }
    Ok(())
}

/// The log file (`DESPATCH_LOG_FILE`) cannot be opened.
#[derive(Debug, thiserror::Error)]
#[error("cannot open the log file {} (DESPATCH_LOG_FILE): {source}", .path.display())]
pub struct LogFileError {
    pub path: std::path::PathBuf,
    pub source: std::io::Error,
}
