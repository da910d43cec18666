//! Configuration from the environment, with defaults that need no set-up: SQLite in `./data/`,
//! the service on 127.0.0.1:8080.

/// Where the service keeps its data and where it listens.
#[derive(Debug, Clone)]
pub struct Settings {
    /// `postgres://…` or `sqlite:…`; from `DATABASE_URL`, else a SQLite file under `./data/`.
    pub database_url: String,
    /// `DESPATCH_BIND`, default `127.0.0.1:8080`; port 0 picks a free port.
    pub bind: String,
    /// The address players reach the service at, for links: `DESPATCH_BASE_URL`.
    pub base_url: Option<String>,
}

pub const DEFAULT_SQLITE: &str = "sqlite:./data/despatch.db?mode=rwc";

impl Settings {
    pub fn from_env() -> Settings {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        Settings {
            database_url: var("DATABASE_URL").unwrap_or_else(|| DEFAULT_SQLITE.to_owned()),
            bind: var("DESPATCH_BIND").unwrap_or_else(|| "127.0.0.1:8080".to_owned()),
            base_url: var("DESPATCH_BASE_URL"),
        }
    }

    /// Makes sure the directory of a SQLite file exists.
    pub fn prepare(&self) -> std::io::Result<()> {
        if let Some(path) = self.database_url.strip_prefix("sqlite:") {
            let path = path
                .trim_start_matches("//")
                .split('?')
                .next()
                .unwrap_or_default();
            if let Some(dir) = std::path::Path::new(path)
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
            {
                std::fs::create_dir_all(dir)?;
            }
        }
        Ok(())
    }
}
