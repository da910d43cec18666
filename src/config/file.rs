//! The config file: what the environment variables hold, in a file every command reads the same
//! way — `serve` under systemd, `dispatch`, and `mail-in` run by a mail server that passes no
//! environment and starts in a folder of its own (`--config FILE` or `DESPATCH_CONFIG`).
//!
//! The format is `KEY=value` lines with the variables' names (`#` comments, values optionally
//! quoted), as systemd's `EnvironmentFile=` reads them, so that one file serves a unit and the
//! mail pipe alike. A variable set in the environment wins over the file. A relative path in
//! the file (`DESPATCH_DATA_DIR`, `DESPATCH_KEY_FILE`, `DESPATCH_MAIL_DIR`, `DESPATCH_LOG_FILE`,
//! a `sqlite:` `DATABASE_URL`) is taken from the file's folder, and so is the data folder when
//! the file names none: where Despatch keeps its data never depends on where it was started.

use std::path::{Path, PathBuf};

/// The variables whose values are paths.
const PATHS: [&str; 4] = [
    "DESPATCH_DATA_DIR",
    "DESPATCH_KEY_FILE",
    "DESPATCH_MAIL_DIR",
    "DESPATCH_LOG_FILE",
];

/// The variables a config file sets, its relative paths made absolute; or what is wrong with
/// it, naming the file and the line.
pub fn read(path: &Path) -> Result<Vec<(String, String)>, ConfigFileError> {
    let whole = std::path::absolute(path).map_err(|e| unreadable(path, e.to_string()))?;
    let dir = whole.parent().unwrap_or(Path::new("/")).to_path_buf();
    let lines = dotenvy::from_path_iter(&whole).map_err(|e| unreadable(path, why(&e)))?;
    let mut vars = Vec::new();
    for line in lines {
        let (key, value) = line.map_err(|e| unreadable(path, why(&e)))?;
        let value = if PATHS.contains(&key.as_str()) {
            from(&dir, &value).display().to_string()
        } else if key == "DATABASE_URL" {
            sqlite_from(&dir, &value)
        } else {
            value
        };
        // A name given twice: the later line wins, as in a shell.
        vars.retain(|(k, _)| *k != key);
        vars.push((key, value));
    }
    if !vars.iter().any(|(k, _)| k == "DESPATCH_DATA_DIR") {
        vars.push((
            "DESPATCH_DATA_DIR".into(),
            dir.join("data").display().to_string(),
        ));
    }
    Ok(vars)
}

/// Reads the file and sets each variable it holds that the environment does not set. Call it
/// before any thread starts (`main` does): it changes the process's environment.
pub fn load(path: &Path) -> Result<(), ConfigFileError> {
    for (key, value) in read(path)? {
        if std::env::var_os(&key).is_none() {
            std::env::set_var(key, value);
        }
    }
    Ok(())
}

/// A config file that cannot be read, and why: the file and the line at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot read the config file {}: {why}", .path.display())]
pub struct ConfigFileError {
    pub path: PathBuf,
    pub why: String,
}

fn unreadable(path: &Path, why: String) -> ConfigFileError {
    ConfigFileError {
        path: path.to_owned(),
        why,
    }
}

/// What is wrong, in the file's terms: the line that is not a setting, or the I/O error.
fn why(e: &dotenvy::Error) -> String {
    match e {
        dotenvy::Error::LineParse(line, at) => {
            format!("line '{line}' is not KEY=value (at character {at})")
        }
        dotenvy::Error::Io(io) => io.to_string(),
        other => other.to_string(),
    }
}

fn from(dir: &Path, value: &str) -> PathBuf {
    let path = Path::new(value);
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        dir.join(path)
    }
}

/// A `sqlite:` URL whose file is a relative path, taken from `dir`; any other URL as it is.
fn sqlite_from(dir: &Path, url: &str) -> String {
    let Some(rest) = url.strip_prefix("sqlite:") else {
        return url.to_owned();
    };
    let rest = rest.strip_prefix("//").unwrap_or(rest);
    let (file, query) = match rest.split_once('?') {
        Some((file, query)) => (file, Some(query)),
        None => (rest, None),
    };
    if file.is_empty() || file == ":memory:" || Path::new(file).is_absolute() {
        return url.to_owned();
    }
    let file = from(dir, file);
    match query {
        Some(query) => format!("sqlite:{}?{query}", file.display()),
        None => format!("sqlite:{}", file.display()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(text: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("despatch.env");
        std::fs::write(&path, text).unwrap();
        (dir, path)
    }

    fn get<'a>(vars: &'a [(String, String)], key: &str) -> Option<&'a str> {
        vars.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    #[test]
    fn relative_paths_are_taken_from_the_files_folder() {
        let (dir, path) = written(
            "# Despatch\nDESPATCH_REPLY_DOMAIN=play.example.org\n\
             DATABASE_URL=sqlite:state/despatch.db?mode=rwc\nDESPATCH_KEY_FILE=\"secret.key\"\n\
             DESPATCH_MAIL_DIR=/var/spool/despatch\n",
        );
        let vars = read(&path).unwrap();
        let base = dir.path().display().to_string();
        assert_eq!(
            get(&vars, "DESPATCH_REPLY_DOMAIN"),
            Some("play.example.org")
        );
        assert_eq!(
            get(&vars, "DATABASE_URL").map(str::to_owned),
            Some(format!("sqlite:{base}/state/despatch.db?mode=rwc"))
        );
        assert_eq!(
            get(&vars, "DESPATCH_KEY_FILE").map(str::to_owned),
            Some(format!("{base}/secret.key"))
        );
        assert_eq!(get(&vars, "DESPATCH_MAIL_DIR"), Some("/var/spool/despatch"));
        assert_eq!(
            get(&vars, "DESPATCH_DATA_DIR").map(str::to_owned),
            Some(format!("{base}/data")),
            "the data folder is the file's when it names none"
        );
    }

    #[test]
    fn other_databases_and_absolute_paths_are_kept() {
        let (_dir, path) = written(
            "DATABASE_URL=postgres://despatch@localhost/despatch\nDESPATCH_DATA_DIR=/var/lib/despatch\n",
        );
        let vars = read(&path).unwrap();
        assert_eq!(
            get(&vars, "DATABASE_URL"),
            Some("postgres://despatch@localhost/despatch")
        );
        assert_eq!(get(&vars, "DESPATCH_DATA_DIR"), Some("/var/lib/despatch"));
        assert_eq!(
            sqlite_from(Path::new("/etc/despatch"), "sqlite::memory:"),
            "sqlite::memory:"
        );
        assert_eq!(
            sqlite_from(Path::new("/etc/despatch"), "sqlite:///srv/d.db"),
            "sqlite:///srv/d.db"
        );
    }

    #[test]
    fn a_missing_or_unreadable_file_is_named_with_its_fault() {
        let missing = read(Path::new("/nonexistent/despatch.env"))
            .unwrap_err()
            .to_string();
        assert!(
            missing.starts_with("cannot read the config file /nonexistent/despatch.env: "),
            "{missing}"
        );
        let (_dir, path) = written("DESPATCH_BIND=127.0.0.1:8080\nthis line is no setting\n");
        let bad = read(&path).unwrap_err().to_string();
        assert!(bad.contains("this line is no setting"), "{bad}");
        assert!(bad.contains(&path.display().to_string()), "{bad}");
    }
}
