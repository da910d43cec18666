//! What the outbox's dispatcher and the clock's scheduler (both in notify) ask of the service:
//! claiming and recording outbox rows, where a seat hears, which games run a clock. They ask
//! `Games`, never the store (the parts import one way: the store is under games).

use crate::store::GameId;
use chrono::{DateTime, Utc};

use super::outbox::{Channels, Claimed, OutboxRecord, Superseded, WebhookRecord};
use super::{Games, Result};

impl Games {
    /// The same service reading and writing through a pool of its own of at most
    /// `connections` connections (on PostgreSQL; SQLite has one pool), apart from the one moves
    /// are served from: what a dispatcher runs on.
    pub fn with_own_pool(mut self, connections: u32) -> Self {
        self.store = self.store.side(connections);
        self
    }

    /// Claims up to `limit` due outbox rows for `dispatcher`, each held until `lease_until`.
    pub async fn claim_outbox(
        &self,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: i64,
        dispatcher: &str,
    ) -> Result<Vec<Claimed>> {
        Ok(self
            .store
            .claim_outbox(now, lease_until, limit, dispatcher)
            .await?)
    }

    /// Lets go the due notices of `kinds` that a later notice of `by_kind` to the same seat says
    /// all of, looking at `limit` of them at most.
    pub async fn supersede_waiting(
        &self,
        now: DateTime<Utc>,
        kinds: &[&str],
        by_kind: &str,
        limit: i64,
    ) -> Result<Superseded> {
        Ok(self
            .store
            .supersede_waiting(now, kinds, by_kind, limit)
            .await?)
    }

    /// Records a claimed row as sent.
    pub async fn outbox_sent(
        &self,
        claim: &Claimed,
        dispatcher: &str,
        now: DateTime<Utc>,
    ) -> Result<()> {
        Ok(self.store.outbox_sent(claim, dispatcher, now).await?)
    }

    /// Records a failed attempt at a claimed row, due again at `retry_at`.
    pub async fn outbox_failed(
        &self,
        claim: &Claimed,
        dispatcher: &str,
        now: DateTime<Utc>,
        error: &str,
        retry_at: DateTime<Utc>,
    ) -> Result<()> {
        Ok(self
            .store
            .outbox_failed(claim, dispatcher, now, error, retry_at)
            .await?)
    }

    /// Replaces a claimed notice by its deliveries, held by `dispatcher` until `lease_until`;
    /// `None` when another dispatcher expanded it first.
    pub async fn expand_notice(
        &self,
        claim: &Claimed,
        dispatcher: &str,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        deliveries: &[OutboxRecord],
    ) -> Result<Option<Vec<Claimed>>> {
        Ok(self
            .store
            .expand_notice(claim, dispatcher, now, lease_until, deliveries)
            .await?)
    }

    /// Whether anything reaches the seat: an email address it hears on, or a hook that hears it.
    pub async fn seat_reached(&self, game_id: &GameId, seat: &str) -> Result<bool> {
        Ok(self.store.reaches(game_id, seat).await?)
    }

    /// Which channels a seat hears on (`channels` for a seat asking for its own).
    pub async fn seat_channels(&self, game_id: &GameId, seat: &str) -> Result<Channels> {
        Ok(self.store.channels(game_id, seat).await?)
    }

    /// The game's webhooks, with their URLs and signing secrets, for the dispatcher to call.
    pub async fn webhook_records(&self, game_id: &GameId) -> Result<Vec<WebhookRecord>> {
        Ok(self.store.webhooks(game_id).await?)
    }

    /// The games with a clock that have not ended, for the scheduler.
    pub async fn clocked_games(&self) -> Result<Vec<GameId>> {
        Ok(self.store.clocked_games().await?)
    }
}
