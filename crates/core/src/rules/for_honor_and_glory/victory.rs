//! Victory conditions (10.): VP for enemy units and leaders eliminated (A) and for enemy VP
//! units taken (B), scored as they happen in `battle`; checked at step 5 of each game turn
//! against each side's target, and at the last turn the scenario's time constraint (C) gives
//! the battle to the side that held out. A side with no combat units left loses at once.

use super::battle::{Battle, BattleResult};
use super::units::Side;

fn result(b: &Battle, winner: Option<Side>, on_time: bool, why: String) -> BattleResult {
    let vp = [b.sides[0].vp, b.sides[1].vp];
    let mut campaign_vp = vp;
    // 12. A side that wins on time is given the VP needed to win.
    if let (Some(w), true) = (winner, on_time) {
        let i = usize::from(w.0);
        campaign_vp[i] = campaign_vp[i].max(b.sides[i].target);
    }
    let summary = match winner {
        Some(w) => format!(
            "{} wins {why}; VP american {} british {}",
            w.name(),
            vp[0],
            vp[1]
        ),
        None => format!("a draw {why}; VP american {} british {}", vp[0], vp[1]),
    };
    BattleResult {
        winner,
        vp,
        campaign_vp,
        summary,
    }
}

/// A side whose army is gone loses at once, whatever the turn.
pub fn check_armies(b: &Battle) -> Option<BattleResult> {
    let armies = b.armies();
    for side in [Side::AMERICAN, Side::BRITISH] {
        if !armies[usize::from(side.0)] {
            return Some(result(
                b,
                Some(side.other()),
                false,
                format!("with the {} army gone from the field", side.name()),
            ));
        }
    }
    None
}

/// 5. step 5, Check victory: at the end of a game turn.
pub fn check_turn_end(b: &Battle) -> Option<BattleResult> {
    let reached = [0, 1].map(|i| b.sides[i].vp >= b.sides[i].target);
    let vp = [b.sides[0].vp, b.sides[1].vp];
    let by_vp = |why: &str| {
        let winner = match vp[0].cmp(&vp[1]) {
            std::cmp::Ordering::Greater => Some(Side::AMERICAN),
            std::cmp::Ordering::Less => Some(Side::BRITISH),
            std::cmp::Ordering::Equal => None,
        };
        result(b, winner, false, why.to_owned())
    };
    match reached {
        [true, false] => {
            return Some(result(
                b,
                Some(Side::AMERICAN),
                false,
                format!("with {} VP of the {} needed", vp[0], b.sides[0].target),
            ))
        }
        [false, true] => {
            return Some(result(
                b,
                Some(Side::BRITISH),
                false,
                format!("with {} VP of the {} needed", vp[1], b.sides[1].target),
            ))
        }
        [true, true] => return Some(by_vp("with both sides past their VP targets")),
        _ => {}
    }
    if b.turn >= b.turns {
        return Some(match b.time_winner {
            Some(w) => result(
                b,
                Some(w),
                true,
                format!(
                    "on time: the other side did not reach its VP by turn {}",
                    b.turns
                ),
            ),
            None => by_vp(&format!("at the end of turn {}", b.turns)),
        });
    }
    None
}
