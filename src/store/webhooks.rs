//! Webhooks a game registers (docs/notifications.md): each hook's secret is stored sealed
//! (`sealing`) and opened as the hooks are read.

use serde::{Deserialize, Serialize};
use sqlx::Row;

use super::sealing::RowId;
use super::{Result, Store};

/// A registered webhook.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WebhookRecord {
    pub game_id: super::GameId,
    pub hook_id: String,
    pub seat: Option<String>,
    pub url: String,
    pub secret: String,
    pub format: String,
}

impl Store {
    /// Registers a hook; its secret is stored sealed (`sealing`).
    pub async fn add_webhook(&self, hook: &WebhookRecord) -> Result<()> {
        let sql = "INSERT INTO webhooks (game_id, hook_id, seat, url, secret, format) VALUES ($1, $2, $3, $4, $5, $6)";
        let secret = self.key()?.seal(
            RowId::Webhook {
                game_id: &hook.game_id,
                hook_id: &hook.hook_id,
            },
            &hook.secret,
        );
        db_run!(self, reader pool => {
            sqlx::query(sql)
                .bind(&hook.game_id)
                .bind(&hook.hook_id)
                .bind(&hook.seat)
                .bind(&hook.url)
                .bind(&secret)
                .bind(&hook.format)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// A game's hooks, their secrets opened.
    pub async fn webhooks(&self, game_id: &super::GameId) -> Result<Vec<WebhookRecord>> {
        let key = self.key()?;
        let sql = "SELECT game_id, hook_id, seat, url, secret, format FROM webhooks WHERE game_id = $1 ORDER BY created_at, hook_id";
        db_run!(self, reader pool => {
            let found = sqlx::query(sql).bind(game_id).fetch_all(pool).await?;
            found
                .iter()
                .map(|r| {
                    let hook_id: String = r.try_get("hook_id")?;
                    let sealed: String = r.try_get("secret")?;
                    let secret = key.open(
                        RowId::Webhook {
                            game_id,
                            hook_id: &hook_id,
                        },
                        &sealed,
                    )?;
                    Ok(WebhookRecord {
                        game_id: game_id.clone(),
                        hook_id,
                        seat: r.try_get("seat")?,
                        url: r.try_get("url")?,
                        secret,
                        format: r.try_get("format")?,
                    })
                })
                .collect()
        })
    }

    /// Removes a hook; only the seat that registered it (or, for a game-wide hook, any seat) may.
    pub async fn delete_webhook(&self, game_id: &str, hook_id: &str) -> Result<bool> {
        let sql = "DELETE FROM webhooks WHERE game_id = $1 AND hook_id = $2";
        let n = db_run!(self, reader pool => {
            sqlx::query(sql).bind(game_id).bind(hook_id).execute(pool).await?.rows_affected()
        });
        Ok(n > 0)
    }
}
