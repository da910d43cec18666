//! Server keys: 32 random bytes by name, drawn once and the same for every process on the
//! database afterwards.

use super::{Result, Store, StoreError};
use crate::engine::canonical::random32;

impl Store {
    /// A 32-byte server key by name, drawn at random the first time any process asks for it and
    /// the same for every process on this database afterwards.
    pub async fn server_key(&self, name: &str) -> Result<[u8; 32]> {
        let insert =
            "INSERT INTO server_keys (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING";
        let select = "SELECT value FROM server_keys WHERE name = $1";
        let fresh = hex::encode(random32());
        // Read first, so that a key already drawn needs no write (and no write lock: on SQLite a
        // lock held elsewhere must not stall a page that only reads).
        let found: Option<String> = db_run!(self, reader pool => {
            sqlx::query_scalar(select).bind(name).fetch_optional(pool).await?
        });
        let value: String = match found {
            Some(value) => value,
            None => db_run!(self, writer pool => {
                sqlx::query(insert).bind(name).bind(&fresh).execute(pool).await?;
                sqlx::query_scalar(select).bind(name).fetch_one(pool).await?
            }),
        };
        crate::engine::canonical::hex32(&value)
            .ok_or_else(|| StoreError::Corrupt(format!("server key {name} is not 32 bytes of hex")))
    }

    /// Whether a server key of this name is kept in the database (without making one).
    pub async fn has_server_key(&self, name: &str) -> Result<bool> {
        let sql = "SELECT count(*) FROM server_keys WHERE name = $1";
        let n: i64 = db_run!(self, reader pool => {
            sqlx::query_scalar(sql).bind(name).fetch_one(pool).await?
        });
        Ok(n > 0)
    }
}
