//! Who may talk to whom (2. Planning Phase): "Player can only speak to each other if they are
//! physically in the same Location Point at this moment." Table talk's `tell` (a private
//! message, kept outside the log) is the planning phase's talk between characters: allowed only
//! while the plans are being made, and only between two players in play whose CUs stand on the
//! same LP. Talk to the whole table (`say`) is open talk and is not limited here.

use super::state::{Phase, State};
use crate::engine::ruleset::{RuleError, Seat};

fn planning_error(message: String) -> RuleError {
    RuleError::new("2. Planning Phase", message)
}

/// 2.: may `from` tell `to` something privately now?
pub fn may_tell(state: &State, from: &Seat, to: &Seat) -> Result<(), RuleError> {
    if state.phase != Phase::Plan {
        return Err(planning_error(
            "players speak to each other privately only in the Planning Phase; say it to the table, or wait for the next round's planning".into(),
        ));
    }
    let lp_of = |seat: &Seat| {
        let player = &state.players[state.player(seat)?];
        let cu = state.cu(&player.character);
        match (&cu.lp, player.out) {
            (Some(lp), false) => Ok((player.character.clone(), lp.clone())),
            _ => Err(planning_error(format!(
                "{} is out of play and speaks to no one",
                player.character
            ))),
        }
    };
    let (from_character, from_lp) = lp_of(from)?;
    let (to_character, to_lp) = lp_of(to)?;
    if from_lp != to_lp {
        return Err(planning_error(format!(
            "{from_character} is at {from_lp} and {to_character} at {to_lp}: players speak to each other only on the same Location Point"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::dice::hidden_stream;
    use crate::engine::ruleset::{Rules, SeatDef, Setup};
    use crate::rules::searching_for_glory::SearchingForGlory;

    fn game(seats: &[&str]) -> State {
        let setup = Setup {
            game_id: "sfg-talk".into(),
            scenario: "danube-1809".into(),
            options: serde_json::json!({"roles": "plain"}),
            seats: SeatDef::named_by_id(seats).unwrap(),
        };
        SearchingForGlory
            .setup(&setup, &mut hidden_stream(&[7; 32], "sfg-talk", 0))
            .unwrap()
    }

    fn seat(s: &str) -> Seat {
        Seat::parse(s).unwrap()
    }

    #[test]
    fn s2_players_speak_privately_only_while_planning_and_on_one_location_point() {
        let seats = ["napoleon", "davout", "charles", "louis"];
        let mut s = game(&seats);
        assert_eq!(s.phase, Phase::Plan);
        s.cu_mut("napoleon").lp = Some("regensburg".into());
        s.cu_mut("davout").lp = Some("regensburg".into());
        s.cu_mut("charles").lp = Some("landshut".into());
        assert!(may_tell(&s, &seat("napoleon"), &seat("davout")).is_ok());
        let apart = may_tell(&s, &seat("napoleon"), &seat("charles")).unwrap_err();
        assert_eq!(apart.rule, "2. Planning Phase");
        assert!(apart.message.contains("regensburg") && apart.message.contains("landshut"));
        // Out of play: no talk.
        s.cu_mut("davout").lp = None;
        assert!(may_tell(&s, &seat("napoleon"), &seat("davout")).is_err());
        // Outside the Planning Phase: no private talk, even on one LP.
        s.cu_mut("davout").lp = Some("regensburg".into());
        s.phase = Phase::Initiative;
        let late = may_tell(&s, &seat("napoleon"), &seat("davout")).unwrap_err();
        assert!(late.message.contains("only in the Planning Phase"));
    }
}
