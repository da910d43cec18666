//! Game clocks' policies (`games::clock`), one per clocked game, written before the game.

use super::rows;
use super::{Result, Store};

impl Store {
    /// Records a game's clock policy (written before the game, so no clocked game lacks it).
    pub async fn set_clock(&self, game_id: &str, policy: &serde_json::Value) -> Result<()> {
        let sql = "INSERT INTO clocks (game_id, policy) VALUES ($1, $2)";
        let text = policy.to_string();
        db_run!(self, reader pool => {
            sqlx::query(sql).bind(game_id).bind(&text).execute(pool).await?;
        });
        Ok(())
    }

    pub async fn clock(&self, game_id: &str) -> Result<Option<serde_json::Value>> {
        let sql = "SELECT policy FROM clocks WHERE game_id = $1";
        let found: Option<String> = db_run!(self, reader pool => {
            sqlx::query_scalar(sql).bind(game_id).fetch_optional(pool).await?
        });
        found
            .map(|t| rows::json_from_text("a clock policy", &t))
            .transpose()
    }

    /// The games whose clock runs: they have a policy and have not ended.
    pub async fn clocked_games(&self) -> Result<Vec<super::GameId>> {
        let sql = "SELECT c.game_id FROM clocks c JOIN games g ON g.game_id = c.game_id
                   WHERE NOT g.ended ORDER BY c.game_id";
        let ids: Vec<String> =
            db_run!(self, reader pool => sqlx::query_scalar(sql).fetch_all(pool).await?);
        ids.iter().map(|id| super::rows::stored_id(id)).collect()
    }
}
