//! Leaders (9.): their 3-hex retreat when their unit is eliminated (8.4.5) and rally (9.4). Their
//! movement (9.1) is in `movement`, their morale bonus (9.2) in `close_combat`, their
//! casualties (9.3) in `combat`, and the lost command AP (9.3.1–9.3.2) in `action_points`.

use super::battle::Battle;
use super::hex::Hex;
use super::terrain::{Map, MoveEffect};
use super::units::Kind;
use crate::engine::ruleset::{Ctx, RuleError};

/// 8.4.5 A leader left alone retreats up to 3 hexes — to a friendly unit if one is in reach,
/// else as near his own edge as he can — or is eliminated when enemy units or impassable
/// terrain leave him nowhere to go. His owner's standing order (`leaders retreat towards G3`)
/// sends him instead to the hex in reach nearest the one it names, when one is nearer it than
/// where he stands; else the rule above.
pub fn retreat_alone(map: &Map, b: &mut Battle, l: usize, ctx: &mut Ctx) {
    let side = b.units[l].side;
    let start = b.units[l].hex;
    let goal = b.sides[usize::from(side.0)].leaders_towards;
    // The hexes reached, in the order found, which is the order of their distance: the search
    // goes on from each in turn. At most the 37 hexes within 3 of the start.
    let mut reached = [(start, 0u8); 37];
    let (mut len, mut next) = (1, 0);
    // (friendly unit there, distance to the edge, hex); towards a goal, first the hexes to it.
    let mut best: Option<((bool, i64, Hex), Hex)> = None;
    let mut towards: Option<((u32, bool, i64, Hex), Hex)> = None;
    while next < len {
        let (h, steps) = reached[next];
        next += 1;
        if steps == 3 {
            continue;
        }
        for n in map.neighbours(h) {
            if reached[..len].iter().any(|&(r, _)| r == n)
                || map.terrain(n).effects().movement == MoveEffect::Impassable
                || !b.side_at(n, side.other()).is_empty()
            {
                continue;
            }
            reached[len] = (n, steps + 1);
            len += 1;
            if b.leader_at(n, side).is_some() {
                continue;
            }
            let friends = !b.army_at(n, side).is_empty();
            let key = (!friends, (b.edge_distance(map, n, side) * 1000.0) as i64, n);
            if let Some(g) = goal.filter(|g| n.distance(*g) < start.distance(*g)) {
                let near = (n.distance(g), key.0, key.1, n);
                if towards.as_ref().is_none_or(|(k, _)| near < *k) {
                    towards = Some((near, n));
                }
            }
            if best.as_ref().is_none_or(|(k, _)| key < *k) {
                best = Some((key, n));
            }
        }
    }
    match towards.map(|(_, n)| n).or(best.map(|(_, n)| n)) {
        Some(to) => {
            // The line names the hex he stood in, so it is written before he leaves it.
            let line = ctx.lines_wanted().then(|| b.label(l));
            b.place_retreating(l, to);
            if let Some(leader) = line {
                ctx.say(format!("{leader} retreats to {to} (8.4.5)"));
            }
        }
        None if ctx.lines_wanted() => {
            let line = b.eliminate(l);
            ctx.say(format!(
                "the leader in {start} cannot retreat (8.4.5): {line}"
            ));
        }
        None => b.remove(l),
    }
}

/// 9.4 Checks a rally of unit `u` by the leader in its hex: not artillery or rockets, reduced
/// below its starting MP, and neither it nor the leader has moved or acted this turn; with
/// 11.2, not fired on this turn. Returns the leader.
pub fn check_rally(b: &Battle, u: usize) -> Result<usize, RuleError> {
    let unit = &b.units[u];
    let label = || b.label(u);
    let err = |m: String| RuleError::new("9.4 Leader rally", m);
    if !unit.kind.is_combat() || unit.kind.is_gun() {
        return Err(err(format!("{label} cannot be rallied: leaders rally infantry and dragoons, not artillery or rockets", label = label())));
    }
    if unit.mp >= unit.start_mp {
        return Err(err(format!(
            "{label} is at its starting {} MP; rally never goes above it",
            unit.start_mp,
            label = label()
        )));
    }
    if unit.acted || unit.moved {
        return Err(err(format!(
            "{label} has already acted this turn; a rallying unit may not move or fire",
            label = label()
        )));
    }
    if b.options.has(2) && unit.fired_on {
        return Err(RuleError::new(
            "11.2 Rally",
            format!(
                "{label} was fired on this turn and cannot rally",
                label = label()
            ),
        ));
    }
    let l = b.leader_at(unit.hex, unit.side).ok_or_else(|| {
        err(format!(
            "there is no friendly leader in {} to rally {label}",
            unit.hex,
            label = label()
        ))
    })?;
    if b.units[l].moved || b.units[l].acted {
        return Err(err(format!(
            "{} has already acted this turn; leader and unit must begin and end the turn together",
            b.label(l)
        )));
    }
    debug_assert_eq!(b.units[l].kind, Kind::Leader);
    Ok(l)
}

/// 9.4 Recovers 1 MP; unit and leader stay put for the rest of the turn.
pub fn rally(b: &mut Battle, u: usize, l: usize) {
    b.units[u].mp += 1;
    b.units[u].acted = true;
    b.units[u].moved = true;
    b.units[l].acted = true;
    b.units[l].moved = true;
}

/// The line saying a rally was made.
pub fn rally_line(b: &Battle, u: usize, l: usize) -> String {
    format!(
        "{} rallies {}: now {} MP (1 AP)",
        b.name(l),
        b.label(u),
        b.units[u].mp
    )
}

/// Is `hex` the hex of a leader of the unit's side (9.2, 11.1, 11.8)?
pub fn with_leader(b: &Battle, hex: Hex, u: usize) -> bool {
    b.leader_at(hex, b.units[u].side).is_some()
}
