//! Who is asking: the seat a bearer token (or a signed seat link) opens.

use super::links;
use crate::engine::canonical::sha256_hex;
use crate::engine::ruleset::Seat;
use crate::store::GameId;

use super::{Games, Result, ServiceError};

/// An authenticated caller.
#[derive(Debug, Clone)]
pub struct Caller {
    pub game_id: GameId,
    pub seat: Seat,
}

impl Games {
    /// The seat a bearer token opens.
    /// A seat's own token or a signed seat link token (`s1.…`, `s2.…`, from a notice's magic
    /// link) both open the seat; a seat link only while the seat's link generation is the one
    /// it was signed over (`links`: claims, new links and signing out everywhere revoke it).
    pub async fn authenticate(&self, game_id: &GameId, token: Option<&str>) -> Result<Caller> {
        let token = token.ok_or(ServiceError::Unauthorized)?;
        // A game the fold cache holds exists, and its seats (which never change) are there:
        // a seat's own token is checked against them with no read. Otherwise, the store.
        let hash = sha256_hex(token.trim().as_bytes());
        let cached = self.folds.seat_by_token(game_id, &hash);
        if let Some(Some(seat)) = cached {
            return Ok(Caller {
                game_id: game_id.clone(),
                seat: Seat::parse(&seat).map_err(ServiceError::Corrupt)?,
            });
        }
        if cached.is_none() {
            self.store
                .game(game_id)
                .await?
                .ok_or_else(|| ServiceError::NotFound(format!("there is no game {game_id}")))?;
        }
        if links::is_seat_token(token.trim()) {
            let key = self.link_key().await?;
            let (seat, generation) = links::open_seat_token(&key, game_id, token.trim())
                .ok_or_else(|| {
                    ServiceError::Forbidden(format!(
                        "this link is not a seat link of game {game_id}"
                    ))
                })?;
            if self.store.seat_link_generation(game_id, &seat).await? != Some(generation) {
                return Err(ServiceError::Forbidden(format!(
                    "this link to seat {seat} of game {game_id} has been replaced by a newer one (the seat was claimed, or a new link was asked for); use the newest link you were sent, or ask for your links again from the sign-in page"
                )));
            }
            return Ok(Caller {
                game_id: game_id.clone(),
                seat: Seat::parse(&seat).map_err(ServiceError::Corrupt)?,
            });
        }
        let seat = self
            .store
            .seat_by_token(game_id, &hash)
            .await?
            .ok_or_else(|| {
                ServiceError::Forbidden(format!("this token is not a seat of game {game_id}"))
            })?;
        Ok(Caller {
            game_id: game_id.clone(),
            seat: Seat::parse(&seat.seat).map_err(ServiceError::Corrupt)?,
        })
    }
}
