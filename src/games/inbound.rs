//! Signed inbound posts taken once. A mail provider that signs a timestamp and a random token
//! but not the message (Mailgun's route, `http::inbound`) would let a captured signature carry
//! any other message while its timestamp is accepted; so the first post to carry a token takes
//! it, in the database (every server process on it sees the same tokens), and any later post
//! with it is refused.

use std::time::Duration;

use super::{Games, Result};

impl Games {
    /// Takes a signed post's `token` now, by the service's clock: `true` if it is new, `false`
    /// if a post took it before. It is kept for `kept_for` — as long as any timestamp that could
    /// carry it is accepted — and forgotten after.
    pub async fn take_inbound_token(&self, token: &str, kept_for: Duration) -> Result<bool> {
        let now = self.clock.now().timestamp();
        let kept_for = i64::try_from(kept_for.as_secs()).unwrap_or(i64::MAX);
        Ok(self
            .store
            .take_inbound_token(token, now, now.saturating_sub(kept_for))
            .await?)
    }

    /// Gives a token back when its post was not delivered (the database failed under it), so
    /// that the provider's retry of the same post is not refused as a replay.
    pub async fn release_inbound_token(&self, token: &str) -> Result<()> {
        Ok(self.store.release_inbound_token(token).await?)
    }
}
