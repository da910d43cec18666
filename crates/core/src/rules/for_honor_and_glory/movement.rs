//! Movement (7.) (with 9.1 leaders' movement and 7.5's extra hex in column): a move is a path of
//! adjacent hexes within the unit's allowance; terrain may stop it (2.3), swamp is impassable,
//! hex limits hold in every hex entered or passed (6.2.7, 7.2), leaders do not block (7.2.1),
//! and an enemy leader alone in a hex entered is eliminated (7.3, 9.3.3).

use super::action_points as ap;
use super::battle::Battle;
use super::hex::Hex;
use super::limits;
use super::terrain::{Map, MoveEffect, Terrain};
use super::units::{Kind, Slot};
use crate::engine::ruleset::{Ctx, RuleError};

/// A move found legal, ready to carry out.
#[derive(Debug, Clone)]
pub struct MovePlan<'p> {
    pub unit: usize,
    /// The hexes entered, as the order gives them.
    pub path: &'p [Hex],
    /// A leader going along (9.1.1).
    pub leader: Option<usize>,
    /// 6.2.5 / 9.1.2 The leader's extra hex is used.
    pub bonus: bool,
    /// 2.3.3 The move ends on a waterway.
    pub waterway: bool,
}

impl MovePlan<'_> {
    /// The AP the move costs (6.2.1, 6.2.5, 2.3.3).
    pub fn cost(&self) -> u8 {
        ap::ACTION
            + if self.bonus { ap::LEADER_BONUS } else { 0 }
            + if self.waterway { ap::WATERWAY } else { 0 }
    }
}

fn rule(section: &str, message: String) -> RuleError {
    RuleError::new(section, message)
}

/// 7.1 The hexes a unit may move (the MOVEMENT CHART), with 7.5's column hex.
pub fn allowance(kind: Kind, column: bool) -> usize {
    usize::from(kind.chart().movement) + usize::from(column && kind.is_line_infantry())
}

/// Does entering this terrain end the move (2.3, 7.4, 11.11)?
pub fn stops(b: &Battle, kind: Kind, t: Terrain) -> bool {
    match t.effects().movement {
        MoveEffect::Stop => {
            !(t == Terrain::Forest && kind == Kind::Indian
                || t == Terrain::Hill && b.options.has(11))
        }
        MoveEffect::Waterway => true,
        _ => false,
    }
}

/// Checks a move of unit `u` along `path` (the hexes entered, in order). `with_leader` takes
/// the leader in the unit's hex along; `firing` is set for the move half of a move-and-fire,
/// which may not use the leader's extra hex (9.1.2).
pub fn check<'p>(
    map: &Map,
    b: &Battle,
    u: usize,
    path: &'p [Hex],
    with_leader: bool,
    firing: bool,
) -> Result<MovePlan<'p>, RuleError> {
    let unit = b.units[u];
    let label = || b.label(u);
    if unit.kind == Kind::Vp {
        return Err(rule(
            "3.4.11 Victory point units",
            format!("{label} cannot move", label = label()),
        ));
    }
    if unit.moved {
        return Err(rule(
            "7.1.1 Movement",
            format!("{label} has already moved this turn", label = label()),
        ));
    }
    let leader = if with_leader {
        if unit.kind == Kind::Leader {
            return Err(rule(
                "9.1 Leaders movement",
                "+leader goes with a unit's move, not a leader's".into(),
            ));
        }
        let l = b.leader_at(unit.hex, unit.side).ok_or_else(|| {
            rule(
                "9.1.1 Leaders movement",
                format!(
                    "there is no friendly leader in {} to go with {label}",
                    unit.hex,
                    label = label()
                ),
            )
        })?;
        if b.units[l].acted || b.units[l].moved {
            return Err(rule(
                "9.1.1 Leaders movement",
                format!("{} has already acted this turn", b.label(l)),
            ));
        }
        Some(l)
    } else {
        None
    };
    let base = allowance(unit.kind, unit.column);
    let mut bonus = false;
    if path.len() > base {
        let may_bonus = leader.is_some()
            && !unit.kind.is_gun()
            && !unit.column
            && !firing
            && unit.kind != Kind::Leader;
        if path.len() > base + 1 || !may_bonus {
            let why = if leader.is_some() && unit.kind.is_gun() {
                " (the leader's extra hex is not for artillery or rockets, 6.2.5)"
            } else if leader.is_some() && unit.column {
                " (the leader's extra hex is not for units in column, 9.1.3)"
            } else if leader.is_some() && firing {
                " (the leader's extra hex is not for move-and-fire, 9.1.2)"
            } else if leader.is_some() {
                ""
            } else {
                " (a leader going along, '+leader', adds one hex for 1 AP more, 6.2.5)"
            };
            return Err(rule(
                "7.1 Movement",
                format!(
                    "{label} moves {base} hex(es) a turn; the path has {}{why}",
                    path.len(),
                    label = label()
                ),
            ));
        }
        bonus = true;
    }
    let mut at = unit.hex;
    let mut waterway = false;
    for (n, &h) in path.iter().enumerate() {
        if !map.contains(h) {
            return Err(rule("7.1 Movement", format!("{h} is off the map")));
        }
        if !at.is_adjacent(h) {
            return Err(rule(
                "7.1 Movement",
                format!("{h} is not next to {at}: a move goes hex by hex"),
            ));
        }
        let t = map.terrain(h);
        if t.effects().movement == MoveEffect::Impassable {
            return Err(rule(
                "2.3.2 Swamp",
                format!("{h} is swamp, which no unit may enter"),
            ));
        }
        if unit.kind == Kind::Leader {
            if !b.side_at(h, unit.side.other()).is_empty() {
                return Err(rule(
                    "9.1 Leaders movement",
                    format!("a leader cannot enter {h}, held by the enemy"),
                ));
            }
        } else {
            limits::may_hold(b, h, unit.side, unit.kind, Some(u)).map_err(|e| {
                rule(
                    "4.3 Unit hex limits",
                    format!("{label} cannot enter {h}: {e}", label = label()),
                )
            })?;
            if let Some(l) = leader {
                if let Some(other) = b.leader_at(h, unit.side).filter(|&o| o != l) {
                    if n + 1 == path.len() {
                        return Err(rule(
                            "4.3 Unit hex limits",
                            format!(
                                "{h} already holds {}; leaders may not share a hex",
                                b.label(other)
                            ),
                        ));
                    }
                }
            }
        }
        if n + 1 == path.len() && unit.kind == Kind::Leader {
            if let Some(other) = b.leader_at(h, unit.side).filter(|&o| o != u) {
                return Err(rule(
                    "4.3 Unit hex limits",
                    format!(
                        "{h} already holds {}; leaders may not share a hex",
                        b.label(other)
                    ),
                ));
            }
        }
        if stops(b, unit.kind, t) && n + 1 < path.len() {
            let section = match t {
                Terrain::Waterway => "2.3.3 Waterway",
                Terrain::Forest => "2.3.5 Forest",
                Terrain::Hill => "2.3.6 Hill",
                Terrain::Entrenchment => "2.3.9 Entrenchment",
                _ => "2.3.10 Fort",
            };
            return Err(rule(
                section,
                format!(
                    "{label} must stop on entering {} in {h}",
                    t.name(),
                    label = label()
                ),
            ));
        }
        if t == Terrain::Waterway {
            waterway = true;
        }
        at = h;
    }
    Ok(MovePlan {
        unit: u,
        path,
        leader,
        bonus,
        waterway,
    })
}

/// Carries out a checked move, hex by hex: enemy leaders alone in a hex entered are eliminated
/// (9.3.3) and enemy VP units taken (3.4.11).
pub fn perform(b: &mut Battle, plan: &MovePlan, ctx: Option<&mut Ctx>) {
    let u = plan.unit;
    let from = b.units[u].hex;
    let side = b.units[u].side;
    let loud = ctx.as_ref().is_some_and(|c| c.lines_wanted());
    let mut lines = Vec::new();
    for &h in plan.path {
        if b.units[u].kind.is_combat() && !b.enemy_combat_at(h, side) {
            // Enemy leaders and VP units alone in the hex entered: eliminated or taken.
            for e in b.side_at(h, side.other()) {
                match (b.units[e].kind.slot(), loud) {
                    (Slot::Leader, true) => lines.push(b.eliminate(e)),
                    (Slot::Leader, false) => b.remove(e),
                    (_, true) => lines.push(b.capture(e)),
                    (_, false) => b.take(e),
                }
            }
        }
        b.place(u, h);
        if let Some(l) = plan.leader {
            b.place(l, h);
        }
    }
    b.units[u].moved = true;
    b.units[u].acted = true;
    if let Some(l) = plan.leader {
        b.units[l].moved = true;
        b.units[l].acted = true;
    }
    if let Some(ctx) = ctx.filter(|c| c.lines_wanted()) {
        let mut path = vec![from.to_string()];
        path.extend(plan.path.iter().map(Hex::to_string));
        let with = plan
            .leader
            .map(|l| format!(" with {}", b.name(l)))
            .unwrap_or_default();
        let how = if plan.bonus {
            ", one hex more for the leader"
        } else {
            ""
        };
        say!(
            ctx,
            "{} {} moves {}{with}{how} ({} AP)",
            side.name(),
            kind_and_name(b, u),
            path.join("-"),
            plan.cost()
        );
        for l in lines {
            ctx.say(l);
        }
    }
}

pub fn kind_and_name(b: &Battle, u: usize) -> String {
    let n = b.name(u);
    if n.is_empty() {
        b.units[u].kind.name().to_owned()
    } else {
        format!("{} {n}", b.units[u].kind.name())
    }
}
