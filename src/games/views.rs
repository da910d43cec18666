//! Reading a game: its public summary, what a viewer may see, what a seat may do now.

use crate::store::GameId;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use utoipa::ToSchema;

use crate::engine::game::Game;
use crate::engine::ruleset::{Outcome, Prompt, SeatDef, Viewer};

use super::{Caller, Games, Result};

/// A game's public summary.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Summary {
    pub game_id: String,
    /// The game's name ("<ruleset title> — <seat names>" when it was given none), where the
    /// summary is the game's own (`GET /api/games/{id}`); summaries inside other answers leave
    /// it out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub ruleset: String,
    pub ruleset_version: String,
    pub scenario: String,
    #[schema(value_type = Object)]
    pub options: Value,
    #[schema(value_type = Vec<Object>)]
    pub seats: Vec<SeatDef>,
    pub next_seq: u64,
    /// Who may act now.
    #[schema(value_type = Vec<Object>)]
    pub waiting_for: Vec<Prompt>,
    #[schema(value_type = Object)]
    pub outcome: Outcome,
    pub ended: bool,
}

impl Games {
    pub async fn summary(&self, game_id: &GameId) -> Result<Summary> {
        let l = self.load(game_id).await?;
        Ok(Summary {
            name: Some(super::players::name_of_loaded(&l)),
            ..summary_of(&l.game)
        })
    }

    /// What a viewer may see of the game.
    pub async fn view(&self, game_id: &GameId, viewer: &Viewer) -> Result<Value> {
        let l = self.load(game_id).await?;
        let viewer = if l.game.ended {
            Viewer::Everyone
        } else {
            viewer.clone()
        };
        let mut view = l.game.view(&viewer);
        if let (Viewer::Seat(seat), Some(obj)) = (&viewer, view.as_object_mut()) {
            // The seat's own sealed choices, which only the server's secrets hold.
            let mine: Vec<Value> = l
                .secrets
                .sealed_by(seat.as_str())
                .filter(|s| l.game.open_seals.contains_key(&s.commitment))
                .map(|s| json!({ "commitment": s.commitment, "choice": s.choice }))
                .collect();
            obj.insert("your_sealed".into(), Value::Array(mine));
        }
        let board_text = l.game.ruleset.board_text(&l.game.state, &viewer);
        Ok(json!({ "summary": summary_of(&l.game), "view": view, "board_text": board_text }))
    }

    /// What the seat may do now.
    pub async fn legal_moves(&self, caller: &Caller) -> Result<Value> {
        let l = self.load(&caller.game_id).await?;
        let prompts: Vec<Prompt> = l.game.own_prompts(&caller.seat);
        Ok(json!({
            "seat": caller.seat,
            "next_seq": l.game.next_seq,
            "your_turn": !prompts.is_empty(),
            "prompts": prompts,
            "grammar": l.game.ruleset.info().grammar,
        }))
    }
}

/// The public summary of a folded game.
pub fn summary_of(game: &Game) -> Summary {
    Summary {
        game_id: game.game_id.clone(),
        name: None,
        ruleset: game.created.ruleset.clone(),
        ruleset_version: game.created.ruleset_version.clone(),
        scenario: game.created.scenario.clone(),
        options: game.created.options.clone(),
        seats: game.created.seats.clone(),
        next_seq: game.next_seq,
        waiting_for: game.prompts(),
        outcome: game.outcome(),
        ended: game.ended,
    }
}
