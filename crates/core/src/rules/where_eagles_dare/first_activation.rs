//! 3.4.1 The Drop Table: "Roll for Units in subsequent drops the first time they activate after
//! the drop." From rules version 17 (decision 24a) the activation that may roll is the only one
//! that does: the Allied impulse whose chit activates a Unit awaiting its roll does not end
//! before the Unit rolls, and a missed deadline rolls it then.
//!
//! Imports: the state, the drop checks of `declared`, the activation check of `command`.

use crate::engine::ruleset::{Ctx, RuleError};

use super::command;
use super::data::DATA;
use super::declared;
use super::rule;
use super::state::{Side, State};

/// The first version that rolls a later drop's Unit in its first activation.
const SINCE: u32 = 17;

/// The Units whose Drop Table roll falls due in this impulse: awaiting their roll, of a drop
/// after Drop One, activated by the chit in play, and standing in a zone they may roll in. Each
/// with its drop and the zone (the first of its hex the drop's plan allows).
pub fn due(s: &State) -> Vec<(String, u8, String)> {
    let Some(chit) = s.chit.as_deref() else {
        return Vec::new();
    };
    if s.version < SINCE || s.impulse != Side::Allied {
        return Vec::new();
    }
    s.drop_awaiting
        .iter()
        .filter(|u| command::activates(s, chit, u) == Some(true))
        .filter_map(|u| {
            let at = s.units.get(u)?.hex;
            DATA.zones
                .iter()
                .filter(|(_, (_, hexes))| hexes.contains(&at))
                .find_map(|(z, _)| {
                    let drop = declared::check_drop_roll(s, u, z).ok()?;
                    (drop > 1).then(|| (u.clone(), drop, z.clone()))
                })
        })
        .collect()
}

/// 3.4.1: the impulse does not end while a Unit's roll falls due in it.
pub fn check_end(s: &State) -> Result<(), RuleError> {
    let due = due(s);
    let Some((unit, drop, zone)) = due.first() else {
        return Ok(());
    };
    Err(rule(
        "3.4.1 The Drop Table",
        format!(
            "{unit} dropped with Drop {drop} and {} activates it for the first time since: it rolls on the Drop Table in this activation, not a later one (droproll {unit} {zone}), before the impulse ends{}",
            s.chit.as_deref().unwrap_or_default(),
            if due.len() > 1 {
                format!(
                    "; so do {}",
                    due[1..]
                        .iter()
                        .map(|(u, _, _)| u.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            } else {
                String::new()
            }
        ),
    ))
}

/// A missed deadline in such an impulse: each Unit whose roll is due rolls now, with the
/// modifiers the engine counts (glider, starred zone, German units in the zone) and no flak,
/// which only the Allied player's order states (decision 24a).
pub fn roll_due(s: &mut State, ctx: &mut Ctx) -> Result<(), RuleError> {
    for (unit, drop, zone) in due(s) {
        let glider = declared::lands_by_glider(&unit, false)?;
        ctx.say(format!(
            "{unit} rolls on the Drop Table in its first activation since its drop (3.4.1), no flak stated"
        ));
        declared::drop_roll(s, ctx, &unit, drop, &zone, glider, 0, 0)?;
    }
    Ok(())
}
