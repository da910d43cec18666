//! Webhooks: a JSON `POST` per notice to each hook a seat (or the game) registered, signed with
//! the hook's own secret — `X-Despatch-Signature: sha256=<hex HMAC-SHA256 of the body>` — and
//! named by a delivery id (`X-Despatch-Delivery`) that stays the same across retries, so a
//! receiver drops what it has already seen. Any 2xx answer is a delivery; anything else, or no
//! answer within the timeout, is retried with backoff. The `discord` format sends the body a
//! Discord (or Slack-compatible) incoming webhook expects.
//!
//! A webhook never reaches inside the server's own network (`games::webhook_targets`): the
//! client resolves every host itself through that policy and connects only to the addresses it
//! checked, at every delivery, so a name that points inside since its hook was added (DNS
//! rebinding) is refused then; an address written in the URL is checked before the request.
//! Redirects are not followed (a 3xx is a failed delivery) and no proxy is used, so nothing
//! leads the request anywhere the check did not see.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use serde::{Deserialize, Serialize};

use crate::games::links::webhook_signature;
use crate::games::webhook_targets::{Unreachable, WebhookTargets};

/// One webhook delivery as the outbox holds it. The secret and the address are looked up when
/// sending, so a hook deleted meanwhile receives nothing more, and neither the secret nor the
/// address (a chat service's hook address is itself a credential) is copied into the outbox.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WebhookDelivery {
    pub hook_id: String,
    /// Filled from the hook as it is sent; empty in the outbox (rows an older build queued
    /// still hold it, and it is replaced all the same).
    #[serde(default, skip_serializing_if = "String::is_empty")]
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
    targets: Arc<WebhookTargets>,
}

/// The webhook client's resolver: every address a host resolves to is checked, and the client
/// connects only to the addresses this answers.
struct Checked(Arc<WebhookTargets>);

impl Resolve for Checked {
    fn resolve(&self, name: Name) -> Resolving {
        let targets = self.0.clone();
        let host = name.as_str().to_owned();
        Box::pin(async move {
            // Port 0: the client puts in the URL's port, or its scheme's.
            let addrs = targets.resolve(&host, 0).await?;
            Ok(Box::new(addrs.into_iter()) as Addrs)
        })
    }
}

/// The host of a URL when it is an address, which the client connects to without resolving.
fn address_in(url: &str) -> Option<(String, IpAddr)> {
    let url = url::Url::parse(url).ok()?;
    let ip = match url.host()? {
        url::Host::Ipv4(ip) => IpAddr::V4(ip),
        url::Host::Ipv6(ip) => IpAddr::V6(ip),
        url::Host::Domain(_) => return None,
    };
    Some((url.host_str()?.to_owned(), ip))
}

/// The refusal of the webhook policy among an error's causes, if that is why it failed.
fn refusal<'a>(e: &'a (dyn std::error::Error + 'static)) -> Option<&'a Unreachable> {
    let mut cause = Some(e);
    while let Some(c) = cause {
        if let Some(u) = c.downcast_ref::<Unreachable>() {
            return Some(u);
        }
        cause = c.source();
    }
    None
}

/// Installs ring as rustls's crypto provider (once per process; later calls do nothing).
pub fn install_crypto() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

impl Hooks {
    /// A client timing out after `timeout`, reaching inside only the hosts `targets` allows.
    pub fn new(timeout: Duration, targets: Arc<WebhookTargets>) -> Result<Hooks, String> {
        install_crypto();
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout)
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .dns_resolver(Arc::new(Checked(targets.clone())))
            .user_agent(concat!("Despatch/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| format!("cannot build the webhook client: {e}"))?;
        Ok(Hooks { client, targets })
    }

    pub async fn send(&self, d: &WebhookDelivery, secret: &str) -> Result<(), String> {
        // An address in the URL is connected to without resolving: checked here. (The URL
        // crate reads `http://2130706433/` and the like as the address they are, as the client
        // does.)
        if let Some((host, ip)) = address_in(&d.url) {
            self.targets
                .check(&host, ip)
                .map_err(|e| format!("webhook {}: refused: {e}", d.hook_id))?;
        }
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
                if let Some(refused) = refusal(&e) {
                    format!("webhook {}: refused: {refused}", d.hook_id)
                } else if e.is_timeout() {
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
