//! A seat's links, as the games service hands them out and takes them back (`links` signs them):
//! minting the credentials a message carries as it is sent (`links::pending`), the seat link at
//! the seat's current link generation, and the three ways a seat's links are revoked — a claim
//! that changes the seat's address (`players::confirm_claim`), a new link asked for from the
//! seat, and a player signing out everywhere.

use super::links::pending::{Credential, Pending};
use super::links::{self, one_time_token, seat_token, unsubscribe_signature};
use super::{Caller, Games, Result, ServiceError};
use crate::engine::canonical::sha256_hex;
use crate::store::GameId;

impl Games {
    /// The values of a message's pending credentials, in order, minted with the link key now:
    /// what the dispatcher fills into a message as it sends it. A seat's link is signed over
    /// the seat's link generation at this moment, so a message sent after a revocation carries
    /// the new link.
    pub async fn mint(&self, pending: &Pending) -> Result<Vec<String>> {
        let key = self.link_key().await?;
        let mut values = Vec::with_capacity(pending.items().len());
        for item in pending.items() {
            values.push(match item {
                Credential::SeatLink { game_id, seat } => {
                    let generation = self.link_generation(game_id, seat).await?;
                    seat_token(&key, game_id, seat, generation)
                }
                Credential::Unsubscribe {
                    game_id,
                    seat,
                    channel,
                } => unsubscribe_signature(&key, game_id, seat, channel),
                Credential::OneTime { purpose, nonce } => one_time_token(&key, purpose, nonce),
            });
        }
        Ok(values)
    }

    /// A seat's link generation; a seat the game does not have is an error.
    async fn link_generation(&self, game_id: &str, seat: &str) -> Result<i64> {
        self.store
            .seat_link_generation(game_id, seat)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("game {game_id} has no seat {seat}")))
    }

    /// The token of a seat's link as it stands now (its current generation).
    pub async fn seat_link_token(&self, game_id: &GameId, seat: &str) -> Result<String> {
        let key = self.link_key().await?;
        let generation = self.link_generation(game_id, seat).await?;
        Ok(seat_token(&key, game_id, seat, generation))
    }

    /// A new link for the caller's seat: every seat link sent or shown before stops opening it
    /// (and so does a browser's seat cookie that holds one). The seat's own token, shown once
    /// at the game's creation for programs that play through the API, is not a link and keeps
    /// working. The new link's token.
    pub async fn new_seat_link(&self, caller: &Caller) -> Result<String> {
        let game_id = &caller.game_id;
        let seat = caller.seat.as_str();
        let generation = self
            .store
            .revoke_seat_links(game_id, seat)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("game {game_id} has no seat {seat}")))?;
        tracing::info!(game = %game_id, seat, generation, "a seat's links were replaced by a new one");
        Ok(seat_token(
            &self.link_key().await?,
            game_id,
            seat,
            generation,
        ))
    }

    /// Signs the address of a session out everywhere: every session of the address ends, and
    /// every seat whose address it is gets a new link generation, so no link mailed before
    /// opens a seat. The player signs in again by email to be given the new links. How many
    /// seats' links were revoked.
    pub async fn sign_out_everywhere(&self, session: &str) -> Result<u64> {
        let email = self.session_email(Some(session)).await?;
        let seats = self.store.sign_out_everywhere(&email).await?;
        tracing::info!(seats, "an address signed out everywhere");
        Ok(seats)
    }

    /// A new one-time credential for `purpose`: its nonce (kept in the message that carries
    /// the link, as a `Credential::OneTime`) and the hash of its token (kept to take it once).
    pub(super) async fn one_time(&self, purpose: &str) -> Result<(Credential, String)> {
        let nonce = hex::encode(crate::engine::canonical::random32());
        let token = links::one_time_token(&self.link_key().await?, purpose, &nonce);
        Ok((
            Credential::OneTime {
                purpose: purpose.to_owned(),
                nonce,
            },
            sha256_hex(token.as_bytes()),
        ))
    }
}
