//! Where a seat hears of its turn: its channels, set by the seat or turned off by a signed
//! unsubscribe link.

use super::links;
use crate::store::Channels;

use super::{Caller, Games, Result, ServiceError};

impl Games {
    /// Which channels the seat hears on.
    pub async fn channels(&self, caller: &Caller) -> Result<Channels> {
        Ok(self
            .store
            .channels(&caller.game_id, caller.seat.as_str())
            .await?)
    }

    pub async fn set_channels(&self, caller: &Caller, channels: Channels) -> Result<Channels> {
        self.store
            .set_channels(&caller.game_id, caller.seat.as_str(), channels)
            .await?;
        Ok(channels)
    }

    /// Checks a signed unsubscribe link and changes nothing: the page a link opens asks for a
    /// confirmation first, because mail scanners and link previews follow links (a GET) on
    /// their own.
    pub async fn check_unsubscribe(
        &self,
        game_id: &str,
        seat: &str,
        channel: &str,
        signature: &str,
    ) -> Result<()> {
        if !matches!(channel, "email" | "webhooks") {
            return Err(ServiceError::BadRequest(format!(
                "'{channel}' is not a channel; use email or webhooks"
            )));
        }
        let key = self.link_key().await?;
        if !links::check_unsubscribe(&key, game_id, seat, channel, signature) {
            return Err(ServiceError::Forbidden(
                "this unsubscribe link is not valid (it may have been altered)".into(),
            ));
        }
        Ok(())
    }

    /// Turns a channel off from a signed unsubscribe link (a POST: the link's confirmation, or
    /// a mail client's RFC 8058 one-click request): no login.
    pub async fn unsubscribe(
        &self,
        game_id: &str,
        seat: &str,
        channel: &str,
        signature: &str,
    ) -> Result<Channels> {
        self.check_unsubscribe(game_id, seat, channel, signature)
            .await?;
        let mut channels = self.store.channels(game_id, seat).await?;
        if channel == "email" {
            channels.email = false;
        } else {
            channels.webhooks = false;
        }
        self.store.set_channels(game_id, seat, channels).await?;
        Ok(channels)
    }
}
