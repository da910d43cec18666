//! Assaults (decision 49): declared, the assaulted units' opportunity fire first (S4.4), then
//! the die and the stated result; where the engine keeps the assaulting unit's hex, the
//! hexside is crossed as a move would cross it (2.15.1, 2.17).

use super::data::DATA;
use super::declared::map_cost;
use super::hex::Hex;
use super::state::{Pending, Side, State};
use super::{d10, rule};
use crate::engine::ruleset::{Ctx, RuleError};

/// An assault where the engine keeps the assaulting unit's hex: into an adjacent hex, across
/// its hexside as a move would cross it (2.12 rivers, 2.14, 2.15.1 a bridge in Column, 2.15.6–
/// 2.15.7 not a destroyed bridge, 2.16, 2.17 the culvert in Column). Returns that hex.
pub fn check_assault(s: &State, unit: &str, hex: Hex) -> Result<Option<Hex>, RuleError> {
    let Some(u) = s.units.get(unit) else {
        return Ok(None);
    };
    let a = u.hex;
    if !a.adjacent(hex) {
        return Err(rule(
            "assault",
            format!(
                "{unit} is at {a}, not next to {hex}: a Unit assaults an adjacent hex; move it next to {hex} first"
            ),
        ));
    }
    let transport = s.vehicles.get(unit).copied();
    super::bridges::check_move(s, unit, a, &[hex], u.column, transport)?;
    if !u.column && DATA.is_culvert(a, hex) {
        return Err(rule(
            "2.17 Culvert",
            format!("{unit} assaults across the culvert {a}/{hex}: the Assaulting Unit must be in Column"),
        ));
    }
    map_cost(s, unit, a, &[hex], u.column, transport)?;
    Ok(Some(a))
}

/// Declares an assault: riders in the hex dismount (S4.4), and the procedure starts with the
/// assaulted units' opportunity fire (the window, opened by the caller); its die comes after
/// (`roll_assault`).
pub fn assault(
    s: &mut State,
    ctx: &mut Ctx,
    side: Side,
    unit: &str,
    hex: Hex,
    from: Option<Hex>,
    facts: &str,
) {
    super::units::dismount_all_at(s, ctx, hex, "an assault is declared on the hex");
    let culvert = from.is_some_and(|a| DATA.is_culvert(a, hex));
    ctx.say(format!(
        "{} declares an assault: {unit}{} into {hex}{}; the Units assaulted fire first (S4.4){}",
        side.name(),
        from.map(|a| format!(" at {a}")).unwrap_or_default(),
        if facts.is_empty() {
            String::new()
        } else {
            format!(" ({facts})")
        },
        if culvert {
            ": +3 to their opportunity fire for the culvert, with +2 for Column (2.17)"
        } else {
            ""
        }
    ));
    s.assault = Some(super::state::Assault {
        side,
        unit: unit.to_owned(),
        hex,
        from,
        facts: facts.to_owned(),
    });
}

/// The declared assault's die, once the assaulted units' opportunity fire window has closed;
/// called off when that fire took the assaulting unit off the map.
pub fn roll_assault(s: &mut State, ctx: &mut Ctx) {
    let Some(a) = s.assault.take() else {
        return;
    };
    if a.from.is_some() && !s.units.contains_key(&a.unit) {
        ctx.say(format!(
            "The assault into {} is called off: {} is no longer on the map",
            a.hex, a.unit
        ));
        return;
    }
    let face = d10(ctx);
    ctx.say(format!(
        "{} assault: {} into {}{}: the die reads {face}",
        a.side.name(),
        a.unit,
        a.hex,
        if a.facts.is_empty() {
            String::new()
        } else {
            format!(" ({})", a.facts)
        }
    ));
    s.pending = Some(Pending {
        side: a.side,
        unit: a.unit,
        hex: a.hex,
        face,
        fire: false,
    });
}
