//! The files a move carries (docs/files.md): a VASSAL log or save, an image, a PDF.
//!
//! The move's `Command` event lists each file's name, size, media type and SHA-256
//! (`engine::files`); the bytes are kept outside the event table, content-addressed by their
//! SHA-256, in an object store (`object_store`): a local folder by default, S3 or an
//! S3-compatible server by URL (`config::FileSettings`). Before anything is kept, a move's
//! files are checked whole — names, the limits per file and per move — so that a refused move
//! stores nothing and appends nothing. A file is kept before its move is appended: a move the
//! rules then refuse leaves bytes nobody lists (harmless, and kept once however often sent),
//! never a listed file without its bytes.
//!
//! A file is served only to the seats of its game (`Games::file`): the rules do not redact
//! it, and a save may hold what a side keeps hidden.

use std::sync::Arc;

use object_store::aws::AmazonS3Builder;
use object_store::local::LocalFileSystem;
use object_store::memory::InMemory;
use object_store::path::Path as StorePath;
use object_store::prefix::PrefixStore;
use object_store::{ObjectStore, ObjectStoreExt, PutPayload};

use crate::config::{FileSettings, DEFAULT_FILE_MAX, DEFAULT_MOVE_FILES_MAX};
use crate::engine::files::{self, is_sha256, FileRef};

use super::{Games, Result, ServiceError};

/// The longest name a file may have, in characters.
pub const MAX_NAME: usize = 200;
/// The most files one move may carry.
pub const MAX_FILES: usize = 20;

/// How large a move's files may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The largest one file may be, in bytes.
    pub per_file: u64,
    /// The most a move's files may hold together, in bytes.
    pub per_move: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            per_file: DEFAULT_FILE_MAX,
            per_move: DEFAULT_MOVE_FILES_MAX,
        }
    }
}

impl Limits {
    /// The answer to a file over `per_file`.
    pub fn file_too_large(&self, name: &str) -> ServiceError {
        ServiceError::TooLarge(format!(
            "the file {name} is larger than the limit of {} per file; nothing was recorded — send a smaller file (a VASSAL log of fewer turns, a compressed image)",
            bytes(self.per_file)
        ))
    }

    /// The answer to a move's files over `per_move`.
    pub fn move_too_large(&self) -> ServiceError {
        ServiceError::TooLarge(format!(
            "the move's files hold more than the limit of {} per move; nothing was recorded — send fewer or smaller files",
            bytes(self.per_move)
        ))
    }
}

/// `n` bytes for a reader: "10 MiB", "512 KiB", "300 bytes".
pub fn bytes(n: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    if n >= MIB && n.is_multiple_of(MIB) {
        format!("{} MiB", n / MIB)
    } else if n >= MIB {
        format!("{:.1} MiB", n as f64 / MIB as f64)
    } else if n >= 1024 {
        format!("{} KiB", n.div_ceil(1024))
    } else {
        format!("{n} bytes")
    }
}

/// A file as a player sent it: its name and declared type as given, and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upload {
    pub name: String,
    /// The type the upload declared (a form part's or an attachment's `Content-Type`), if any.
    pub media_type: Option<String>,
    pub bytes: Vec<u8>,
}

/// Where the files are kept: an object store, content-addressed by SHA-256.
#[derive(Clone)]
pub struct FileStore {
    objects: Arc<dyn ObjectStore>,
    limits: Limits,
    /// A notice attaches a move's files while they hold at most this together.
    attach_up_to: u64,
    /// What the store is, for the log: `file:///…`, `s3://…`, `memory`.
    described: String,
}

impl std::fmt::Debug for FileStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FileStore({})", self.described)
    }
}

impl FileStore {
    /// A store in memory, gone with the process: a service built without settings (tests).
    pub fn in_memory() -> FileStore {
        FileStore {
            objects: Arc::new(InMemory::new()),
            limits: Limits::default(),
            attach_up_to: crate::config::DEFAULT_ATTACH_MAX,
            described: "memory".into(),
        }
    }

    /// The store the settings name: `file:///folder` (made if missing) or `s3://bucket/prefix`.
    pub fn open(settings: &FileSettings) -> std::result::Result<FileStore, String> {
        let url = url::Url::parse(&settings.url)
            .map_err(|e| format!("DESPATCH_FILES_URL={} is not a URL: {e}", settings.url))?;
        let objects: Arc<dyn ObjectStore> = match url.scheme() {
            "file" => {
                let folder = url.to_file_path().map_err(|()| {
                    format!("DESPATCH_FILES_URL={} names no local folder", settings.url)
                })?;
                std::fs::create_dir_all(&folder).map_err(|e| {
                    format!("the files folder {} cannot be made: {e}", folder.display())
                })?;
                Arc::new(LocalFileSystem::new_with_prefix(&folder).map_err(|e| {
                    format!("the files folder {} cannot be used: {e}", folder.display())
                })?)
            }
            "s3" => {
                let bucket = url.host_str().filter(|b| !b.is_empty()).ok_or_else(|| {
                    format!("DESPATCH_FILES_URL={} names no bucket", settings.url)
                })?;
                let mut builder = AmazonS3Builder::from_env().with_bucket_name(bucket);
                if let Some(endpoint) = &settings.s3_endpoint {
                    builder = builder
                        .with_endpoint(endpoint)
                        .with_allow_http(endpoint.starts_with("http://"));
                }
                let s3 = builder
                    .build()
                    .map_err(|e| format!("the S3 store {} cannot be used: {e}", settings.url))?;
                let prefix = url.path().trim_matches('/');
                if prefix.is_empty() {
                    Arc::new(s3)
                } else {
                    Arc::new(PrefixStore::new(s3, prefix))
                }
            }
            other => {
                return Err(format!(
                    "DESPATCH_FILES_URL={}: '{other}:' is not a store Despatch knows; use file:///folder or s3://bucket/prefix",
                    settings.url
                ))
            }
        };
        Ok(FileStore {
            objects,
            limits: Limits {
                per_file: settings.per_file,
                per_move: settings.per_move,
            },
            attach_up_to: settings.attach_up_to,
            described: settings.url.clone(),
        })
    }

    /// The same store with other limits.
    pub fn with_limits(mut self, limits: Limits) -> FileStore {
        self.limits = limits;
        self
    }

    /// The same store attaching a move's files to notices while they hold at most `bytes`.
    pub fn with_attach_up_to(mut self, bytes: u64) -> FileStore {
        self.attach_up_to = bytes;
        self
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    pub fn attach_up_to(&self) -> u64 {
        self.attach_up_to
    }

    fn path(sha256: &str) -> StorePath {
        // Two levels of folders by the hash's first digits, so that no folder grows huge.
        StorePath::from(format!("{}/{}/{sha256}", &sha256[..2], &sha256[2..4]))
    }

    /// Keeps `bytes` under their SHA-256 (which the caller computed).
    async fn put(&self, sha256: &str, bytes: &[u8]) -> Result<()> {
        self.objects
            .put(&Self::path(sha256), PutPayload::from(bytes.to_vec()))
            .await
            .map(|_| ())
            .map_err(|e| ServiceError::Unavailable(format!("the file store: {e}")))
    }

    /// The bytes kept under `sha256`, if any.
    pub async fn get(&self, sha256: &str) -> Result<Option<Vec<u8>>> {
        if !is_sha256(sha256) {
            return Ok(None);
        }
        match self.objects.get(&Self::path(sha256)).await {
            Ok(found) => found
                .bytes()
                .await
                .map(|b| Some(b.to_vec()))
                .map_err(|e| ServiceError::Unavailable(format!("the file store: {e}"))),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(ServiceError::Unavailable(format!("the file store: {e}"))),
        }
    }

    /// Keeps each upload under the hash `check` listed for it.
    pub(super) async fn put_all(&self, listed: &[FileRef], uploads: &[Upload]) -> Result<()> {
        for (file, upload) in listed.iter().zip(uploads) {
            self.put(&file.sha256, &upload.bytes).await?;
        }
        Ok(())
    }

    /// What the log would list for `uploads`, or the refusal; keeps nothing.
    pub fn check(&self, uploads: &[Upload]) -> Result<Vec<FileRef>> {
        if uploads.len() > MAX_FILES {
            return Err(ServiceError::BadRequest(format!(
                "a move carries at most {MAX_FILES} files; this one has {}",
                uploads.len()
            )));
        }
        let mut total = 0u64;
        let mut listed = Vec::with_capacity(uploads.len());
        for upload in uploads {
            let name = safe_name(&upload.name).map_err(ServiceError::BadRequest)?;
            let size = upload.bytes.len() as u64;
            if size > self.limits.per_file {
                return Err(self.limits.file_too_large(&name));
            }
            total += size;
            if total > self.limits.per_move {
                return Err(self.limits.move_too_large());
            }
            let media_type = media_type(upload.media_type.as_deref(), &name);
            listed.push(FileRef::of(&name, &media_type, &upload.bytes));
        }
        Ok(listed)
    }
}

/// A file's name as the log keeps it: the base name of what was sent (a browser or a mail
/// program may send `C:\games\turn3.vlog`), trimmed. Refused: an empty name, `.` or `..`,
/// control characters, and names over `MAX_NAME` characters.
pub fn safe_name(raw: &str) -> std::result::Result<String, String> {
    if raw.chars().any(char::is_control) {
        return Err(format!(
            "the file name {raw:?} holds a control character; rename the file and send it again"
        ));
    }
    let base = raw.rsplit(['/', '\\']).next().unwrap_or_default().trim();
    if base.is_empty() || base == "." || base == ".." {
        return Err(format!(
            "the file name {raw:?} names no file; send the file with a name such as turn3.vlog"
        ));
    }
    if base.chars().count() > MAX_NAME {
        return Err(format!(
            "a file name is at most {MAX_NAME} characters; {base:?} has {}",
            base.chars().count()
        ));
    }
    Ok(base.to_owned())
}

/// A file's media type: the type the upload declared when it is a well-formed `type/subtype`
/// and says more than "some bytes", else the one its name's extension suggests, else
/// `application/octet-stream`. Parameters (`; charset=…`) are dropped.
pub fn media_type(declared: Option<&str>, name: &str) -> String {
    let declared = declared
        .and_then(|d| d.split(';').next())
        .map(|d| d.trim().to_ascii_lowercase())
        .filter(|d| d.parse::<mime_guess::mime::Mime>().is_ok() && d.contains('/'))
        .filter(|d| d != "application/octet-stream");
    declared.unwrap_or_else(|| {
        mime_guess::from_path(name)
            .first_raw()
            .unwrap_or("application/octet-stream")
            .to_owned()
    })
}

impl Games {
    /// The store of the files moves carry.
    pub fn files(&self) -> &FileStore {
        &self.files
    }

    /// The same service keeping files in `store`.
    pub fn with_files(mut self, store: FileStore) -> Self {
        self.files = store;
        self
    }

    /// Every file game `caller.game_id`'s log lists, with the seq of its move, for its seat.
    pub async fn files_listed(&self, caller: &super::Caller) -> Result<Vec<files::Listed>> {
        let events = self.events_after(&caller.game_id, 0).await?;
        files::listed(&events)
            .map_err(|f| ServiceError::Corrupt(format!("event {}: {}", f.seq, f.problem)))
    }

    /// Every file game `game_id` lists, with its bytes, for its export (`despatch export
    /// --files`): a file the store lacks is an error naming it.
    pub async fn game_files(&self, game_id: &super::GameId) -> Result<Vec<(FileRef, Vec<u8>)>> {
        let events = self.events_after(game_id, 0).await?;
        let listed = files::listed(&events)
            .map_err(|f| ServiceError::Corrupt(format!("event {}: {}", f.seq, f.problem)))?;
        let mut out = Vec::with_capacity(listed.len());
        for files::Listed { seq, file } in listed {
            let bytes = self.files.get(&file.sha256).await?.ok_or_else(|| {
                ServiceError::Unavailable(format!(
                    "the file {} ({}) of event {seq} is missing from the file store",
                    file.name, file.sha256
                ))
            })?;
            out.push((file, bytes));
        }
        Ok(out)
    }

    /// A file of game `game_id` for its seat `caller`: the entry its log lists for `sha256` and
    /// its bytes. A hash the log does not list is `NotFound`, whatever the store holds.
    pub async fn file(&self, caller: &super::Caller, sha256: &str) -> Result<(FileRef, Vec<u8>)> {
        let not_found = || {
            ServiceError::NotFound(format!(
                "game {} lists no file with SHA-256 {sha256}",
                caller.game_id
            ))
        };
        if !is_sha256(sha256) {
            return Err(not_found());
        }
        let events = self.events_after(&caller.game_id, 0).await?;
        let file = events
            .iter()
            .rev()
            .find_map(|e| {
                files::of_event(e)
                    .ok()?
                    .into_iter()
                    .find(|f| f.sha256 == sha256)
            })
            .ok_or_else(not_found)?;
        let bytes = self.files.get(sha256).await?.ok_or_else(|| {
            ServiceError::Unavailable(format!(
                "the file {} ({sha256}) is listed by the game's log but missing from the file store; the server's operator should restore it",
                file.name
            ))
        })?;
        Ok((file, bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_cut_to_its_base_name() {
        assert_eq!(safe_name("C:\\games\\turn 3.vlog").unwrap(), "turn 3.vlog");
        assert_eq!(safe_name("../../etc/passwd").unwrap(), "passwd");
        assert_eq!(safe_name(" map.png ").unwrap(), "map.png");
    }

    #[test]
    fn a_name_that_names_no_file_is_refused() {
        for bad in ["", "..", "games/..", "a/", "turn\u{0}3.vlog", "x\ny.png"] {
            assert!(safe_name(bad).is_err(), "{bad:?} was taken");
        }
        assert!(safe_name(&"a".repeat(MAX_NAME + 1)).is_err());
    }

    #[test]
    fn a_media_type_is_the_declared_one_or_the_extension_s() {
        assert_eq!(media_type(Some("image/PNG; x=1"), "a.bin"), "image/png");
        assert_eq!(
            media_type(Some("application/octet-stream"), "a.pdf"),
            "application/pdf"
        );
        assert_eq!(media_type(None, "turn.vlog"), "application/octet-stream");
        assert_eq!(media_type(Some("not a type"), "a.png"), "image/png");
    }

    #[test]
    fn sizes_read_as_a_player_reads_them() {
        assert_eq!(bytes(10 * 1024 * 1024), "10 MiB");
        assert_eq!(bytes(2048), "2 KiB");
        assert_eq!(bytes(12), "12 bytes");
    }
}
