//! 8.1 Fire combat: 1 AP, range and hit numbers from the charts (RANGE AND FIREPOWER CHART,
//! COMBAT CHART), each die modified for the defender's terrain, line of sight (8.2) except for
//! rockets and adjacent hexes; 11.5's extra hex for guns on a hill; 11.10's advance.

use super::battle::Battle;
use super::combat;
use super::hex::Hex;
use super::limits;
use super::los;
use super::movement::kind_and_name;
use super::terrain::{Map, Terrain};
use super::units::Kind;
use crate::engine::ruleset::{Ctx, RuleError};

/// A fire found legal.
#[derive(Debug, Clone, Copy)]
pub struct FirePlan {
    pub unit: usize,
    pub target: Hex,
    /// The hit number before modifiers.
    pub hit: u8,
}

/// Checks that unit `u` may fire at `target`; `adjacent_only` for Indians' move-and-fire
/// (3.4.6).
pub fn check(
    map: &Map,
    b: &Battle,
    u: usize,
    target: Hex,
    adjacent_only: bool,
) -> Result<FirePlan, RuleError> {
    let unit = &b.units[u];
    let label = || b.label(u);
    let chart = unit.kind.chart();
    if chart.range == 0 {
        return Err(RuleError::new(
            "8.1 Fire combat",
            format!("{label} does not fire", label = label()),
        ));
    }
    if !map.contains(target) {
        return Err(RuleError::new(
            "8.1 Fire combat",
            format!("{target} is off the map"),
        ));
    }
    if !b.enemy_combat_at(target, unit.side) {
        return Err(RuleError::new(
            "8.1 Fire combat",
            format!("there is no enemy unit to fire at in {target}"),
        ));
    }
    let d = unit.hex.distance(target);
    if adjacent_only && d != 1 {
        return Err(RuleError::new(
            "6.2.4 Indians",
            format!(
                "Indians move and fire only at enemies adjacent, and {target} is {d} hexes from {}",
                unit.hex
            ),
        ));
    }
    // 11.5 Artillery and rockets on a hill reach one hex further, hitting on 6 there.
    let extra = b.options.has(5) && unit.kind.is_gun() && map.terrain(unit.hex) == Terrain::Hill;
    let range = u32::from(chart.range) + u32::from(extra);
    if d > range {
        return Err(RuleError::new(
            "8.1.3 Range",
            format!(
                "{target} is {d} hexes from {}; {} reaches {range}",
                unit.hex,
                unit.kind.a_name()
            ),
        ));
    }
    if unit.kind != Kind::Rocket {
        if let Some(why) = los::blocked(map, b, unit.hex, target) {
            return Err(RuleError::new("8.2 Line of sight", why));
        }
    }
    let hit = if d > u32::from(chart.range) {
        6
    } else {
        chart.hit[(d - 1) as usize]
    };
    Ok(FirePlan {
        unit: u,
        target,
        hit,
    })
}

/// Carries out a checked fire. Returns whether the target hex was emptied of enemy units.
pub fn perform(map: &Map, b: &mut Battle, plan: FirePlan, advance: bool, ctx: &mut Ctx) -> bool {
    let FirePlan {
        unit: u,
        target,
        hit,
    } = plan;
    let side = b.units[u].side;
    let from = b.units[u].hex;
    b.units[u].acted = true;
    let n = combat::dice(b, u, target);
    let (m, why) = combat::modifier_explained(map, b, u, target, ctx.lines_wanted());
    let dice = combat::roll_attack(ctx, n);
    let faces = &dice[..n];
    let hits = combat::count_hits(faces, m, hit);
    let d = from.distance(target);
    say!(ctx,
        "{} {} in {from} fires at {target} ({d} hex{}, {n} dice, hit on {hit}+{}): {} — {hits} hit{}",
        side.name(),
        kind_and_name(b, u),
        if d == 1 { "" } else { "es" },
        if why.is_empty() { String::new() } else { format!(", {}", why.join(", ")) },
        combat::show_dice(faces, m),
        if hits == 1 { "" } else { "s" },
    );
    b.attacks.push((from, target));
    let defender = side.other();
    for i in b.side_at(target, defender) {
        b.units[i].fired_on = true;
    }
    combat::apply_hits(b, target, defender, hits, ctx);
    combat::leader_casualty(b, target, defender, faces, ctx);
    combat::leader_left_alone(map, b, target, defender, ctx);
    let emptied = !b.enemy_combat_at(target, side);
    if advance {
        if emptied && d == 1 {
            advance_into(b, u, target, ctx);
        } else {
            say!(ctx, "{target} is still held: no advance");
        }
    }
    emptied
}

/// 8.3.4 / 11.10 The attacker moves into the hex it emptied, taking any enemy VP unit there.
pub fn advance_into(b: &mut Battle, u: usize, target: Hex, ctx: &mut Ctx) {
    let side = b.units[u].side;
    if let Err(e) = limits::may_hold(b, target, side, b.units[u].kind, Some(u)) {
        say!(ctx, "no advance: {e}");
        return;
    }
    let enemies: Vec<usize> = b.side_at(target, side.other()).collect();
    b.place(u, target);
    b.units[u].moved = true;
    say!(ctx, "{} advances into {target}", b.label(u));
    for e in enemies {
        if b.units[e].kind == Kind::Leader {
            b.eliminate_for(e, ctx);
        } else if ctx.lines_wanted() {
            let line = b.capture(e);
            ctx.say(line);
        } else {
            b.take(e);
        }
    }
}
