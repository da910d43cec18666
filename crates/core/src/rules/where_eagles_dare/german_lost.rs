//! O3.0 German Lost Rule (option `german_lost`): "Anytime a German Unit is more that twice
//! the range from a Leader that can Command it, the Unit must make a Troop Quality Check each
//! time it attempts to move to a hex that maintains or increases this distance." The engine
//! measures the distance from the kept positions and asks for the check (decision 47).

use super::hex::Hex;
use super::oob::{Class, OOB};
use super::rule;
use super::state::{Side, State};
use crate::engine::ruleset::RuleError;

const O3: &str = "O3.0 German Lost Rule";

/// How far past twice his Command Range the nearest Leader who can command `unit` is from
/// `at` (positive: beyond), with that Leader and the range; `None` where the rule cannot be
/// measured (no Leader of its formation on the map, a Leader or self-commanded unit, a unit
/// outside the order of battle).
fn beyond(s: &State, unit: &str, at: Hex) -> Option<(i64, String, u32)> {
    let u = OOB.unit(unit)?;
    if u.class == Class::Leader || u.self_command {
        return None;
    }
    OOB.leaders_of(&u.formation)
        .filter_map(|l| {
            let hex = s.units.get(&l.id)?.hex;
            let range = l.range.unwrap_or(0);
            Some((
                i64::from(at.distance(hex)) - 2 * i64::from(range),
                l.id.clone(),
                range,
            ))
        })
        .min()
}

/// A German move under O3.0: every step from a hex beyond twice the range that keeps or
/// widens the distance needs a passed `tq <unit> lost`; one passed check covers one step, so
/// a path that needs more is refused with the step named. A lost unit the Allied player moves
/// checks nothing ("once the Allied player starts moving the Unit").
pub fn check_move(
    s: &State,
    side: Side,
    unit: &str,
    start: Hex,
    steps: &[Hex],
) -> Result<(), RuleError> {
    if !s.german_lost || side != Side::German || s.lost() == Some(unit) {
        return Ok(());
    }
    let mut checks = usize::from(s.lost_checked(unit));
    let mut at = start;
    for &next in steps {
        if let (Some((now, leader, range)), Some((then, ..))) =
            (beyond(s, unit, at), beyond(s, unit, next))
        {
            if now > 0 && then >= now {
                if checks == 0 {
                    return Err(rule(
                        O3,
                        format!(
                            "{unit} at {at} is more than twice {leader}'s Command Range of {range} from him, and {next} keeps or widens that distance: roll 'tq {unit} lost pass <faces>' first{}",
                            if at == start { "" } else { ", and move it up to that step" }
                        ),
                    ));
                }
                checks -= 1;
            }
        }
        at = next;
    }
    Ok(())
}
