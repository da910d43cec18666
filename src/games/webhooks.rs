//! A seat's (or a table's) webhooks: registered with a secret shown once, listed, deleted.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::engine::canonical::random32;
use crate::store::WebhookRecord;

use super::{input, Caller, Games, Result, ServiceError};

/// A webhook as registered: its secret is in this answer only.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct NewWebhook {
    /// Where to `POST` notices (http or https).
    pub url: String,
    /// `seat` (default): this seat's notices, with its links. `game`: every seat's notices,
    /// without links, for a table's shared channel.
    #[serde(default)]
    pub scope: Option<String>,
    /// `json` (default) or `discord`.
    #[serde(default)]
    pub format: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Webhook {
    pub hook_id: String,
    pub url: String,
    pub scope: String,
    pub format: String,
    /// Shown once, when the hook is registered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
}

impl Games {
    /// Registers a webhook for the caller's seat (or, with scope `game`, for every seat).
    pub async fn add_webhook(&self, caller: &Caller, req: &NewWebhook) -> Result<Webhook> {
        let url = req.url.trim();
        input::single_line("url", url, 2000)?;
        let parses =
            url::Url::parse(url).is_ok_and(|u| u.host_str().is_some_and(|h| !h.is_empty()));
        if !(url.starts_with("http://") || url.starts_with("https://")) || !parses {
            return Err(ServiceError::BadRequest(format!(
                "'{url}' is not an http(s) URL a webhook can be sent to"
            )));
        }
        // Never inside the server's own network, by address or by what a name resolves to now
        // (each delivery resolves it again: `webhook_targets`).
        if let Err(e) = self.webhook_targets.check_url(url).await {
            return Err(ServiceError::BadRequest(format!(
                "this webhook URL is refused: {e}. Give a URL on the public internet"
            )));
        }
        let scope = req.scope.as_deref().unwrap_or("seat");
        if scope != "seat" && scope != "game" {
            return Err(ServiceError::BadRequest(format!(
                "scope '{scope}' is neither 'seat' nor 'game'"
            )));
        }
        let format = req.format.as_deref().unwrap_or("json");
        if format != "json" && format != "discord" {
            return Err(ServiceError::BadRequest(format!(
                "format '{format}' is neither 'json' nor 'discord'"
            )));
        }
        let existing = self.store.webhooks(&caller.game_id).await?;
        if existing.len() >= 20 {
            return Err(ServiceError::BadRequest(
                "a game has at most 20 webhooks; delete one first".into(),
            ));
        }
        let hook = WebhookRecord {
            game_id: caller.game_id.clone(),
            hook_id: format!("hook_{}", hex::encode(&random32()[..8])),
            seat: (scope == "seat").then(|| caller.seat.to_string()),
            url: url.to_owned(),
            secret: hex::encode(random32()),
            format: format.to_owned(),
        };
        self.store.add_webhook(&hook).await?;
        Ok(Webhook {
            hook_id: hook.hook_id,
            url: hook.url,
            scope: scope.to_owned(),
            format: hook.format,
            secret: Some(hook.secret),
        })
    }

    /// The caller's seat's hooks and the game-wide ones, without their secrets.
    pub async fn webhooks(&self, caller: &Caller) -> Result<Vec<Webhook>> {
        Ok(self
            .store
            .webhooks(&caller.game_id)
            .await?
            .into_iter()
            .filter(|h| h.seat.is_none() || h.seat.as_deref() == Some(caller.seat.as_str()))
            .map(|h| Webhook {
                scope: if h.seat.is_some() { "seat" } else { "game" }.into(),
                hook_id: h.hook_id,
                url: h.url,
                format: h.format,
                secret: None,
            })
            .collect())
    }

    pub async fn delete_webhook(&self, caller: &Caller, hook_id: &str) -> Result<()> {
        let mine = self
            .store
            .webhooks(&caller.game_id)
            .await?
            .into_iter()
            .any(|h| {
                h.hook_id == hook_id
                    && (h.seat.is_none() || h.seat.as_deref() == Some(caller.seat.as_str()))
            });
        if !mine || !self.store.delete_webhook(&caller.game_id, hook_id).await? {
            return Err(ServiceError::NotFound(format!(
                "your seat has no webhook {hook_id} in this game"
            )));
        }
        Ok(())
    }
}
