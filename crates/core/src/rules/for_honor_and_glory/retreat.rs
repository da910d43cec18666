//! 8.4 Close combat retreat: one hex towards the unit's own board edge (the scenario names it),
//! or towards the hex its owner's standing order names as its main group (`retreat towards
//! G3`, 8.4.1) when that hex is not at or next to the attacker and a hex nearer it is open;
//! never into enemy units, impassable terrain or off the board; preferring hexes not adjacent
//! to the attacker (8.4.1); displacing at most one friendly unit that is in the way (8.4.3);
//! eliminated when no hex will do (8.4.2). Hex limits hold (6.2.7).

use super::battle::Battle;
use super::hex::Hex;
use super::limits;
use super::terrain::{Map, MoveEffect};

/// Where a unit may retreat to, best first: the hex, and the friendly unit it displaces. The
/// owner's rally hex is followed when it may be (8.4.1: a main group "not closer to or
/// adjacent to the attacking unit") and some hex nearer it is open; else the edge.
fn options(
    map: &Map,
    b: &Battle,
    r: usize,
    attacker: Hex,
    allow_displace: bool,
    not: Option<Hex>,
) -> Vec<(Hex, Option<(usize, Hex)>)> {
    options_noting(map, b, r, attacker, allow_displace, not, &mut false)
}

/// `options`, setting `stuck` when a hex was given up because the friendly unit in it could
/// not make room without a second displacement (8.4.3).
fn options_noting(
    map: &Map,
    b: &Battle,
    r: usize,
    attacker: Hex,
    allow_displace: bool,
    not: Option<Hex>,
    stuck: &mut bool,
) -> Vec<(Hex, Option<(usize, Hex)>)> {
    let unit = b.units[r];
    let wanted = b.sides[usize::from(unit.side.0)]
        .retreat_towards
        .filter(|&g| g != attacker && !g.is_adjacent(attacker) && g != unit.hex);
    if let Some(goal) = wanted {
        let found = ranked(map, b, r, attacker, allow_displace, not, Some(goal), stuck);
        if !found.is_empty() {
            return found;
        }
    }
    ranked(map, b, r, attacker, allow_displace, not, None, stuck)
}

/// The retreat hexes towards `goal` (the edge when `None`), best first.
#[allow(clippy::too_many_arguments)] // the retreat's own terms, each named where it is used
fn ranked(
    map: &Map,
    b: &Battle,
    r: usize,
    attacker: Hex,
    allow_displace: bool,
    not: Option<Hex>,
    goal: Option<Hex>,
    stuck: &mut bool,
) -> Vec<(Hex, Option<(usize, Hex)>)> {
    let unit = b.units[r];
    // Distance to the goal: hexes to the rally hex, else map units to the edge (scaled).
    let away = |h: Hex| match goal {
        Some(g) => i64::from(h.distance(g)),
        None => (b.edge_distance(map, h, unit.side) * 1000.0) as i64,
    };
    let here = away(unit.hex);
    // (adjacent to the attacker, needs a displacement, distance to the goal, to the edge,
    // hex), displaced.
    type Ranked = ((bool, bool, i64, i64, Hex), Option<(usize, Hex)>);
    let mut found: Vec<Ranked> = Vec::new();
    for h in map.neighbours(unit.hex) {
        if Some(h) == not || h == attacker {
            continue;
        }
        let edge = (b.edge_distance(map, h, unit.side) * 1000.0) as i64;
        match goal {
            Some(_) if away(h) >= here => continue,
            None if b.edge_distance(map, h, unit.side)
                >= b.edge_distance(map, unit.hex, unit.side) - 1e-9 =>
            {
                continue
            }
            _ => {}
        }
        if map.terrain(h).effects().movement == MoveEffect::Impassable {
            continue;
        }
        if !b.side_at(h, unit.side.other()).is_empty() {
            continue;
        }
        let displaced = match limits::fits(b, h, unit.side, unit.kind, Some(r)) {
            true => None,
            false if allow_displace => {
                let Some(d) = b.in_slot(h, unit.side, unit.kind.slot()) else {
                    continue;
                };
                // The displaced unit must retreat on its own, displacing no one (8.4.3).
                let Some(&(to, _)) = options(map, b, d, attacker, false, Some(unit.hex)).first()
                else {
                    *stuck = true;
                    continue;
                };
                Some((d, to))
            }
            false => continue,
        };
        let near = h.is_adjacent(attacker);
        found.push(((near, displaced.is_some(), away(h), edge, h), displaced));
    }
    found.sort_by_key(|f| f.0);
    found.into_iter().map(|(key, d)| (key.4, d)).collect()
}

/// Retreats unit `r` one hex away from the attacker in `attacker`. Returns its new hex, or
/// `None` when it could not retreat and was eliminated; the lines say what happened, when
/// `lines` is given (a re-fold reads none).
pub fn retreat(
    map: &Map,
    b: &mut Battle,
    r: usize,
    attacker: Hex,
    mut lines: Option<&mut Vec<String>>,
) -> Option<Hex> {
    let mut stuck = false;
    let found = options_noting(map, b, r, attacker, true, None, &mut stuck);
    match found.first().copied() {
        None => {
            if let Some(lines) = lines {
                lines.push(if stuck {
                    format!(
                        "{} could retreat only by displacing more than one unit (8.4.3)",
                        b.label(r)
                    )
                } else {
                    format!("{} has no retreat path (8.4.2)", b.label(r))
                });
                lines.push(b.eliminate(r));
            } else {
                b.remove(r);
            }
            None
        }
        Some((to, displaced)) => {
            if let Some((d, d_to)) = displaced {
                if let Some(lines) = lines.as_deref_mut() {
                    lines.push(format!(
                        "{} is displaced to {d_to} to make room (8.4.3)",
                        b.label(d)
                    ));
                }
                b.place_retreating(d, d_to);
            }
            if let Some(lines) = lines {
                lines.push(format!("{} retreats to {to}", b.label(r)));
            }
            b.place_retreating(r, to);
            Some(to)
        }
    }
}

/// 11.12 A retreat the owner may decline: carried out only when a hex is open.
pub fn retreat_if_possible(
    map: &Map,
    b: &mut Battle,
    r: usize,
    attacker: Hex,
    lines: Option<&mut Vec<String>>,
) -> bool {
    if options(map, b, r, attacker, true, None).is_empty() {
        return false;
    }
    retreat(map, b, r, attacker, lines).is_some()
}
