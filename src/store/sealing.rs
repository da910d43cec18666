//! Secrets at rest. What the `secrets` table holds (dice chain tips, hidden seeds, sealed choices)
//! and every webhook's signing secret are sealed with XChaCha20-Poly1305 under a key kept outside
//! the database, so a copied database or backup predicts no die and forges no webhook.
//!
//! - **The key** comes from the operator's secret: `DESPATCH_SECRET_KEY`, or the text of the key
//!   file (`DESPATCH_KEY_FILE`, default `./data/secret.key`), which is nothing but such a secret
//!   kept in a file. The encryption key is `HMAC-SHA256(key = secret, "despatch:secrets-at-rest:v1")`,
//!   so it differs from the key that signs links (`SHA-256(secret)`, `games::links`): one can
//!   never stand in for the other.
//! - **A keyring**: that key is the primary, the only one that seals. Retired keys
//!   (`DESPATCH_RETIRED_SECRET_KEYS`) only open: they let servers run on a new key while values
//!   sealed under the old one are still in the database, until `despatch rotate-key` re-seals
//!   them (docs/operations.md, "Rotating the key").
//! - **A sealed value** is `v2:`, the id of the key that sealed it, `:`, and the lowercase hex of
//!   a random 24-byte nonce followed by the ciphertext and its tag. The key id is public: the
//!   first 8 bytes of `HMAC-SHA256(key = secret, "despatch:key-id")`, which tells nothing of the
//!   secret, only which key of a ring opens the value (and which keys a process holds,
//!   `processes`). Values sealed before key ids (`v1:` and the hex, no id) still open: every key
//!   of the ring is tried. A value without a prefix is plain text, written before sealing
//!   existed; the server seals those at start-up (`at_rest`) and refuses to read them otherwise.
//! - **Each value is bound to its row**: the associated data names the table, the game, the
//!   secret's name (or the hook's id) and its seat, so a ciphertext moved to another row — another
//!   game's chain, another seat's sealed choice — does not open.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The prefix of a sealed value that names its key: `v2:<key id>:<hex>`.
pub const SEALED: &str = "v2:";
/// The prefix of a value sealed before values named their key: `v1:<hex>`. Still read.
pub const SEALED_V1: &str = "v1:";

const KEY_LABEL: &[u8] = b"despatch:secrets-at-rest:v1";
const KEY_ID_LABEL: &[u8] = b"despatch:key-id";
/// The key id's length in bytes (16 hex digits).
const KEY_ID_LEN: usize = 8;
const NONCE_LEN: usize = 24;

/// The row a sealed value belongs to: its associated data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowId<'a> {
    /// A row of `secrets`.
    Secret {
        game_id: &'a str,
        name: &'a str,
        seat: Option<&'a str>,
    },
    /// The secret of a row of `webhooks`.
    Webhook { game_id: &'a str, hook_id: &'a str },
}

impl RowId<'_> {
    /// The associated data: a JSON array, which no two rows can share.
    fn associated_data(&self) -> Vec<u8> {
        let parts = match *self {
            RowId::Secret {
                game_id,
                name,
                seat,
            } => serde_json::json!(["secrets", game_id, name, seat]),
            RowId::Webhook { game_id, hook_id } => {
                serde_json::json!(["webhooks", game_id, hook_id])
            }
        };
        parts.to_string().into_bytes()
    }
}

impl std::fmt::Display for RowId<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RowId::Secret { game_id, name, .. } => write!(f, "secret {name} of game {game_id}"),
            RowId::Webhook { game_id, hook_id } => {
                write!(f, "the secret of webhook {hook_id} of game {game_id}")
            }
        }
    }
}

/// Why a stored value could not be opened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpenError {
    #[error("{0} is stored in plain text; start Despatch (serve or migrate) with its secret key to seal it")]
    Plain(String),
    #[error("{0} does not open with this secret key: the key is not the one it was sealed with (DESPATCH_SECRET_KEY or DESPATCH_KEY_FILE), or the row was altered or moved")]
    WrongKey(String),
    #[error("{0} does not open here: it was sealed with key {1}, which this process does not hold (it holds {2}): give it that key, as DESPATCH_SECRET_KEY, the key file or one of DESPATCH_RETIRED_SECRET_KEYS; or the row was altered")]
    UnknownKey(String, String, String),
    #[error("{0} is not a sealed value Despatch can read ({1})")]
    Malformed(String, &'static str),
}

/// One key of a ring: its cipher and its public id.
#[derive(Clone)]
struct RingKey {
    id: String,
    cipher: Arc<XChaCha20Poly1305>,
}

impl RingKey {
    fn from_secret(secret: &str) -> RingKey {
        let derive = |label: &[u8]| {
            let mut mac = <HmacSha256 as hmac::KeyInit>::new_from_slice(secret.as_bytes())
                .expect("HMAC takes any key");
            mac.update(label);
            mac.finalize().into_bytes()
        };
        RingKey {
            id: hex::encode(&derive(KEY_ID_LABEL)[..KEY_ID_LEN]),
            cipher: Arc::new(
                XChaCha20Poly1305::new_from_slice(&derive(KEY_LABEL))
                    .expect("the derived key is 32 bytes"),
            ),
        }
    }

    fn open(&self, nonce: &[u8; NONCE_LEN], sealed: &[u8], aad: &[u8]) -> Option<Vec<u8>> {
        self.cipher
            .decrypt(&XNonce::from(*nonce), Payload { msg: sealed, aad })
            .ok()
    }
}

/// The keys that seal and open secrets at rest: the primary key, which seals every new value,
/// and the retired keys, which only open values sealed before (`DESPATCH_RETIRED_SECRET_KEYS`).
/// Its `Debug` shows only the key ids.
#[derive(Clone)]
pub struct SecretKey {
    primary: RingKey,
    retired: Vec<RingKey>,
}

impl std::fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SecretKey({})", self.ids().join(", "))
    }
}

type HmacSha256 = Hmac<Sha256>;

/// The public id of the key an operator's secret derives (`v2:` values name it).
pub fn key_id(secret: &str) -> String {
    RingKey::from_secret(secret).id
}

impl SecretKey {
    /// The encryption key derived from an operator's secret (`DESPATCH_SECRET_KEY`, or a key
    /// file's text, trimmed), alone in its ring.
    pub fn from_secret(secret: &str) -> SecretKey {
        SecretKey {
            primary: RingKey::from_secret(secret),
            retired: Vec::new(),
        }
    }

    /// The same ring, also opening (never sealing) what the `retired` secrets sealed. A retired
    /// secret that is the primary's, or given twice, is held once.
    pub fn with_retired<S: AsRef<str>>(mut self, retired: &[S]) -> SecretKey {
        for secret in retired {
            let key = RingKey::from_secret(secret.as_ref());
            if !self.ids().contains(&key.id) {
                self.retired.push(key);
            }
        }
        self
    }

    /// The same ring, also opening what `other`'s keys sealed (its primary becomes one of this
    /// ring's retired keys): `rotate-key` opens with both the old ring and the new key.
    pub fn also_opening(mut self, other: &SecretKey) -> SecretKey {
        for key in std::iter::once(&other.primary).chain(&other.retired) {
            if !self.holds(&key.id) {
                self.retired.push(key.clone());
            }
        }
        self
    }

    /// The id of the primary key, which seals.
    pub fn id(&self) -> &str {
        &self.primary.id
    }

    /// The ids of every key of the ring, the primary first.
    pub fn ids(&self) -> Vec<String> {
        std::iter::once(&self.primary)
            .chain(&self.retired)
            .map(|k| k.id.clone())
            .collect()
    }

    /// Whether the ring holds the key of this id.
    pub fn holds(&self, id: &str) -> bool {
        self.key(id).is_some()
    }

    fn key(&self, id: &str) -> Option<&RingKey> {
        std::iter::once(&self.primary)
            .chain(&self.retired)
            .find(|k| k.id == id)
    }

    /// Seals `plain` for `row` under the primary key, with a fresh random nonce.
    pub fn seal(&self, row: RowId<'_>, plain: &str) -> String {
        let mut nonce = [0u8; NONCE_LEN];
        getrandom::fill(&mut nonce).expect("the OS random source failed");
        let aad = row.associated_data();
        let sealed = self
            .primary
            .cipher
            .encrypt(
                &XNonce::from(nonce),
                Payload {
                    msg: plain.as_bytes(),
                    aad: &aad,
                },
            )
            .expect("XChaCha20-Poly1305 seals any message that fits in memory");
        let mut out =
            String::with_capacity(SEALED.len() + 2 * (KEY_ID_LEN + 1 + NONCE_LEN + sealed.len()));
        out.push_str(SEALED);
        out.push_str(&self.primary.id);
        out.push(':');
        out.push_str(&hex::encode(nonce));
        out.push_str(&hex::encode(sealed));
        out
    }

    /// Opens a value `seal` made for the same row, with whichever key of the ring sealed it.
    pub fn open(&self, row: RowId<'_>, stored: &str) -> Result<String, OpenError> {
        let (id, body) = match sealed_by(stored) {
            Some(Sealed::Named(id, body)) => (Some(id), body),
            Some(Sealed::Unnamed(body)) => (None, body),
            None if stored.starts_with(SEALED) => {
                return Err(OpenError::Malformed(row.to_string(), "no key id"))
            }
            None => return Err(OpenError::Plain(row.to_string())),
        };
        let bytes =
            hex::decode(body).map_err(|_| OpenError::Malformed(row.to_string(), "not hex"))?;
        if bytes.len() < NONCE_LEN + 16 {
            return Err(OpenError::Malformed(row.to_string(), "too short"));
        }
        let (nonce, sealed) = bytes.split_at(NONCE_LEN);
        let nonce: &[u8; NONCE_LEN] = nonce.try_into().expect("split at the nonce's length");
        let aad = row.associated_data();
        let plain = match id {
            Some(id) => {
                let Some(key) = self.key(id) else {
                    return Err(if self.retired.is_empty() {
                        OpenError::WrongKey(row.to_string())
                    } else {
                        OpenError::UnknownKey(row.to_string(), id.to_owned(), self.ids().join(", "))
                    });
                };
                key.open(nonce, sealed, &aad)
            }
            // Sealed before values named their key: whichever key of the ring opens it.
            None => std::iter::once(&self.primary)
                .chain(&self.retired)
                .find_map(|k| k.open(nonce, sealed, &aad)),
        }
        .ok_or_else(|| OpenError::WrongKey(row.to_string()))?;
        String::from_utf8(plain).map_err(|_| OpenError::Malformed(row.to_string(), "not UTF-8"))
    }

    /// Whether `stored` is sealed under the primary key (and so needs no re-sealing). A `v1:`
    /// value never is: it names no key.
    pub fn is_primary(&self, stored: &str) -> bool {
        matches!(sealed_by(stored), Some(Sealed::Named(id, _)) if id == self.primary.id)
    }
}

/// How a stored value is sealed: under a named key (`v2:`), or before values named their key
/// (`v1:`); `None` for plain text.
enum Sealed<'a> {
    Named(&'a str, &'a str),
    Unnamed(&'a str),
}

fn sealed_by(stored: &str) -> Option<Sealed<'_>> {
    if let Some(rest) = stored.strip_prefix(SEALED) {
        let (id, body) = rest.split_once(':')?;
        return Some(Sealed::Named(id, body));
    }
    stored.strip_prefix(SEALED_V1).map(Sealed::Unnamed)
}

/// Whether a stored value is sealed (rather than plain text from before sealing).
pub fn is_sealed(stored: &str) -> bool {
    stored.starts_with(SEALED) || stored.starts_with(SEALED_V1)
}

/// What went wrong with a key file, for the operator: the file and what to do.
#[derive(Debug, thiserror::Error)]
pub enum KeyFileError {
    #[error("the key file {} is empty: restore the key the secrets were sealed with, or set DESPATCH_SECRET_KEY", .0.display())]
    Empty(std::path::PathBuf),
    #[error("cannot read the key file {}: {source}", .path.display())]
    Read {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("cannot create the folder {}: {source}", .path.display())]
    Folder {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("cannot create the key file {}: {source}", .path.display())]
    Create {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write the key file {}: {source}", .path.display())]
    Write {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
}

/// Reads the secret a key file holds (its text, trimmed). `None` when the file does not exist.
pub fn read_key_file(path: &Path) -> Result<Option<String>, KeyFileError> {
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let secret = text.trim();
            if secret.is_empty() {
                Err(KeyFileError::Empty(path.to_owned()))
            } else {
                Ok(Some(secret.to_owned()))
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(KeyFileError::Read {
            path: path.to_owned(),
            source,
        }),
    }
}

/// Writes a new key file holding 32 random bytes as hex, readable by its owner only (0600), and
/// returns its secret. Refuses to overwrite a file that exists: that would orphan every secret
/// sealed with it.
pub fn create_key_file(path: &Path) -> Result<String, KeyFileError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|source| KeyFileError::Folder {
            path: dir.to_owned(),
            source,
        })?;
    }
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("the OS random source failed");
    let secret = hex::encode(bytes);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path).map_err(|source| KeyFileError::Create {
        path: path.to_owned(),
        source,
    })?;
    file.write_all(format!("{secret}\n").as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(|source| KeyFileError::Write {
            path: path.to_owned(),
            source,
        })?;
    Ok(secret)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chain(game_id: &str) -> RowId<'_> {
        RowId::Secret {
            game_id,
            name: "chain:0",
            seat: None,
        }
    }

    #[test]
    fn a_sealed_value_opens_for_its_row_and_does_not_show_the_plain_text() {
        let key = SecretKey::from_secret("operator secret");
        let plain = r#"{"tip":"00ff00ff","length":100}"#;
        let sealed = key.seal(chain("g1"), plain);
        let id = key.id().to_owned();
        assert_eq!(id.len(), 16);
        assert!(sealed.starts_with(&format!("v2:{id}:")) && is_sealed(&sealed));
        assert!(!sealed.contains("00ff00ff") && !sealed.contains("tip"));
        assert_eq!(key.open(chain("g1"), &sealed).unwrap(), plain);
    }

    #[test]
    fn the_same_value_seals_differently_each_time() {
        let key = SecretKey::from_secret("k");
        assert_ne!(key.seal(chain("g"), "x"), key.seal(chain("g"), "x"));
    }

    #[test]
    fn another_key_does_not_open_it() {
        let sealed = SecretKey::from_secret("right").seal(chain("g1"), "seed");
        let err = SecretKey::from_secret("wrong")
            .open(chain("g1"), &sealed)
            .unwrap_err();
        assert!(matches!(err, OpenError::WrongKey(_)), "{err}");
        assert!(err.to_string().contains("DESPATCH_SECRET_KEY"), "{err}");
    }

    #[test]
    fn a_value_moved_to_another_row_does_not_open() {
        let key = SecretKey::from_secret("k");
        let sealed = key.seal(chain("g1"), "seed");
        assert!(key.open(chain("g2"), &sealed).is_err(), "another game");
        let other_name = RowId::Secret {
            game_id: "g1",
            name: "chain:1",
            seat: None,
        };
        assert!(key.open(other_name, &sealed).is_err(), "another chain");
        let sealed_choice = |seat| RowId::Secret {
            game_id: "g1",
            name: "sealed:abc",
            seat,
        };
        let alices = key.seal(sealed_choice(Some("alice")), "choice");
        assert!(key.open(sealed_choice(Some("bob")), &alices).is_err());
        let hook = RowId::Webhook {
            game_id: "g1",
            hook_id: "chain:0",
        };
        assert!(key.open(hook, &sealed).is_err(), "another table");
    }

    #[test]
    fn plain_text_and_garbage_are_refused_by_name() {
        let key = SecretKey::from_secret("k");
        assert!(matches!(
            key.open(chain("g1"), r#"{"seed":"00"}"#),
            Err(OpenError::Plain(_))
        ));
        assert!(matches!(
            key.open(chain("g1"), "v1:zz"),
            Err(OpenError::Malformed(..))
        ));
        assert!(matches!(
            key.open(chain("g1"), "v1:00"),
            Err(OpenError::Malformed(..))
        ));
        let mut sealed = key.seal(chain("g1"), "seed");
        let last = sealed.pop().unwrap();
        sealed.push(if last == '0' { '1' } else { '0' });
        assert!(matches!(
            key.open(chain("g1"), &sealed),
            Err(OpenError::WrongKey(_))
        ));
    }

    #[test]
    fn the_encryption_key_is_not_the_link_key() {
        // The link key is SHA-256(secret); sealing under it must not open with this key.
        use sha2::Digest;
        let link_key = hex::encode(Sha256::digest(b"k"));
        let sealed = SecretKey::from_secret("k").seal(chain("g"), "seed");
        assert!(SecretKey::from_secret(&link_key)
            .open(chain("g"), &sealed)
            .is_err());
    }

    /// The value as a version before key ids wrote it: `v1:` and the same hex.
    fn as_v1(sealed: &str) -> String {
        let (_, body) = sealed
            .strip_prefix(SEALED)
            .unwrap()
            .split_once(':')
            .unwrap();
        format!("{SEALED_V1}{body}")
    }

    #[test]
    fn a_key_id_is_stable_public_and_tells_keys_apart() {
        let id = key_id("k");
        assert_eq!(id, key_id("k"));
        assert_ne!(id, key_id("k2"));
        assert_eq!(id.len(), 16);
        assert!(id.bytes().all(|b| b.is_ascii_hexdigit()));
        // It is neither the secret nor a prefix of the link key or the encryption key.
        use sha2::Digest;
        assert!(!hex::encode(Sha256::digest(b"k")).starts_with(&id));
        assert!(!hex::encode(b"k").contains(&id));
    }

    #[test]
    fn a_retired_key_opens_but_never_seals() {
        let old = SecretKey::from_secret("old");
        let by_old = old.seal(chain("g"), "seed");
        let ring = SecretKey::from_secret("new").with_retired(&["old", "new", "old"]);
        assert_eq!(
            ring.ids(),
            vec![key_id("new"), key_id("old")],
            "each key once"
        );
        assert_eq!(ring.open(chain("g"), &by_old).unwrap(), "seed");
        assert!(!ring.is_primary(&by_old));
        let by_ring = ring.seal(chain("g"), "seed");
        assert!(by_ring.starts_with(&format!("v2:{}:", key_id("new"))));
        assert!(ring.is_primary(&by_ring));
        assert!(
            old.open(chain("g"), &by_ring).is_err(),
            "sealed under the new key"
        );
        // A ring without the key that sealed a value names the key it lacks.
        let err = SecretKey::from_secret("other")
            .with_retired(&["third"])
            .open(chain("g"), &by_old)
            .unwrap_err();
        assert!(matches!(err, OpenError::UnknownKey(..)), "{err}");
        assert!(err.to_string().contains(&key_id("old")), "{err}");
    }

    #[test]
    fn a_value_sealed_before_key_ids_opens_with_any_key_of_the_ring() {
        let v1 = as_v1(&SecretKey::from_secret("old").seal(chain("g"), "seed"));
        assert!(is_sealed(&v1));
        let ring = SecretKey::from_secret("new").with_retired(&["old"]);
        assert_eq!(ring.open(chain("g"), &v1).unwrap(), "seed");
        assert_eq!(
            SecretKey::from_secret("old").open(chain("g"), &v1).unwrap(),
            "seed"
        );
        assert!(!ring.is_primary(&v1) && !SecretKey::from_secret("old").is_primary(&v1));
        assert!(matches!(
            SecretKey::from_secret("new").open(chain("g"), &v1),
            Err(OpenError::WrongKey(_))
        ));
        assert!(
            ring.open(chain("g2"), &v1).is_err(),
            "still bound to its row"
        );
        // A key id that does not match its ciphertext does not open either.
        let forged = v1.replacen("v1:", &format!("v2:{}:", key_id("new")), 1);
        assert!(ring.open(chain("g"), &forged).is_err());
    }

    #[test]
    fn a_key_file_is_created_once_owner_only_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("secret.key");
        assert_eq!(read_key_file(&path).unwrap(), None);
        let secret = create_key_file(&path).unwrap();
        assert_eq!(secret.len(), 64);
        assert_eq!(read_key_file(&path).unwrap(), Some(secret.clone()));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        assert!(create_key_file(&path).is_err(), "never overwritten");
        assert_eq!(read_key_file(&path).unwrap(), Some(secret));
        std::fs::write(&path, "  \n").unwrap();
        assert!(read_key_file(&path)
            .unwrap_err()
            .to_string()
            .contains("empty"));
    }
}
