//! Webhooks: a JSON `POST` per notice to each hook a seat (or the game) registered, signed with
//! the hook's own secret — `X-Despatch-Signature: sha256=<hex HMAC-SHA256 of the body>` — and
//! named by a delivery id (`X-Despatch-Delivery`) that stays the same across retries, so a
//! receiver drops what it has already seen. Any 2xx answer is a delivery; anything else, or no
//! answer within the timeout, is retried with backoff. The `discord` format sends the body a
//! Discord (or Slack-compatible) incoming webhook expects.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::games::links::webhook_signature;

/// One webhook delivery as the outbox holds it. The secret is looked up when sending, so a hook
/// deleted meanwhile receives nothing more and no secret is copied into the outbox.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WebhookDelivery {
    pub hook_id: String,
    pub url: String,
    pub event: String,
    pub delivery_id: String,
    /// The exact body, as signed.
    pub body: String,
}

/// An error and its causes, `: `-separated ("error sending request: client error (Connect): …").
fn causes(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

pub struct Hooks {
    client: reqwest::Client,
}

/// Installs ring as rustls's crypto provider (once per process; later calls do nothing).
pub fn install_crypto() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

impl Hooks {
    pub fn new(timeout: Duration) -> Result<Hooks, String> {
        install_crypto();
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout)
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("Despatch/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| format!("cannot build the webhook client: {e}"))?;
        Ok(Hooks { client })
    }

    pub async fn send(&self, d: &WebhookDelivery, secret: &str) -> Result<(), String> {
        let response = self
            .client
            .post(&d.url)
            .header("Content-Type", "application/json")
            .header(
                "X-Despatch-Signature",
                webhook_signature(secret, d.body.as_bytes()),
            )
            .header("X-Despatch-Delivery", &d.delivery_id)
            .header("X-Despatch-Event", &d.event)
            .body(d.body.clone())
            .send()
            .await
            .map_err(|e| {
                if e.is_timeout() {
                    format!("webhook {}: no answer in time", d.hook_id)
                } else {
                    // Without the URL: a hook's URL may hold its own secret (Discord's and
                    // Slack's do), and this error is logged and kept on the outbox row.
                    format!("webhook {}: {}", d.hook_id, causes(&e.without_url()))
                }
            })?;
        let status = response.status();
        if status.is_success() {
            Ok(())
        } else {
            Err(format!("webhook {} answered {status}", d.hook_id))
        }
    }
}
