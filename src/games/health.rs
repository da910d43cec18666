//! What the service can say of its own health, for `/health` and `/metrics`: the faces ask the
//! games service, never the store (the parts import one way: games ← http).

use super::{Games, Result};

impl Games {
    /// Which backend holds the games: `postgres` or `sqlite`.
    pub fn backend(&self) -> &'static str {
        self.store.backend()
    }

    /// Whether the database answers: one trivial query on the connections reads use.
    pub async fn ping(&self) -> Result<()> {
        Ok(self.store.ping().await?)
    }

    /// Outbox rows not yet sent.
    pub async fn outbox_pending(&self) -> Result<i64> {
        Ok(self.store.outbox_pending().await?)
    }

    /// The metrics page, with the outbox's gauges read as of the service's now.
    pub async fn metrics_page(&self) -> std::result::Result<String, MetricsPageError> {
        let health = self.store.outbox_health(self.clock.now()).await?;
        Ok(crate::metrics::render(crate::metrics::OutboxGauges {
            waiting: health.waiting,
            due: health.due,
            oldest_due_secs: health.oldest_due_secs,
        })?)
    }
}

/// Why the metrics page could not be given.
#[derive(Debug, thiserror::Error)]
pub enum MetricsPageError {
    #[error("cannot read the outbox: {0}")]
    Outbox(#[from] crate::store::StoreError),
    #[error(transparent)]
    Render(#[from] crate::metrics::RenderError),
}
