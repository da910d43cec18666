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
    /// The domain of reply addresses (`play+…@domain`): `DESPATCH_MAIL_DOMAIN`.
    pub mail_domain: String,
    /// The shared secret of `POST /api/inbound/email`: `DESPATCH_INBOUND_SECRET`.
    pub inbound_secret: Option<String>,
    /// The server's signing key (reply addresses): `DESPATCH_SECRET_KEY`, else a key kept in
    /// `./data/secret.key`, made on first use.
    pub secret_key: Option<String>,
}

pub const DEFAULT_SQLITE: &str = "sqlite:./data/despatch.db?mode=rwc";

impl Settings {
    pub fn from_env() -> Settings {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        Settings {
            database_url: var("DATABASE_URL").unwrap_or_else(|| DEFAULT_SQLITE.to_owned()),
            bind: var("DESPATCH_BIND").unwrap_or_else(|| "127.0.0.1:8080".to_owned()),
            base_url: var("DESPATCH_BASE_URL"),
            mail_domain: var("DESPATCH_MAIL_DOMAIN").unwrap_or_else(|| "localhost".to_owned()),
            inbound_secret: var("DESPATCH_INBOUND_SECRET"),
            secret_key: var("DESPATCH_SECRET_KEY"),
        }
    }

    /// The signing key: from the environment, or from `./data/secret.key`, which is created
    /// with 32 random bytes the first time. Reply addresses stay valid across restarts.
    pub fn signing_key(&self) -> std::io::Result<Vec<u8>> {
        if let Some(key) = &self.secret_key {
            return Ok(key.as_bytes().to_vec());
        }
        let path = std::path::Path::new("data/secret.key");
        match std::fs::read_to_string(path) {
            Ok(key) => Ok(key.trim().as_bytes().to_vec()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::create_dir_all("data")?;
                let key = hex::encode(crate::engine::canonical::random32());
                std::fs::write(path, &key)?;
                #[cfg(unix)]
                {
                    use std::os::unix::fs::PermissionsExt;
                    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
                }
                Ok(key.into_bytes())
            }
            Err(e) => Err(e),
        }
    }

    /// The inbound mail settings.
    pub fn mail(&self) -> std::io::Result<crate::mail_in::MailSettings> {
        Ok(crate::mail_in::MailSettings {
            key: self.signing_key()?,
            domain: self.mail_domain.clone(),
        })
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
