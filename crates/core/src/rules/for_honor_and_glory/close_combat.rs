//! 8.3 Infantry close combat: 2 AP, infantry-type and Indian units against an adjacent hex; the
//! defenders' morale checks first (8.3.2, 8.4.4), with the leader (9.2), terrain, elite (8.3.5)
//! and flank (11.9) adjustments and a 6 always failing; then the attacker's dice hitting on
//! 4–6 less the terrain (8.3.3); retreats (8.4); the attacker's optional advance (8.3.4). With
//! 11.1 the attacker checks morale first; with 11.12 dragoons may retreat before the attack.

use super::battle::Battle;
use super::combat;
use super::fire;
use super::hex::Hex;
use super::leaders::with_leader;
use super::movement::kind_and_name;
use super::retreat;
use super::terrain::Map;
use super::units::{Kind, Slot};
use crate::engine::ruleset::{Ctx, RuleError};

/// The close combat hit number (COMBAT CHART, "Close Combat").
pub const HIT: u8 = 4;

pub fn check(map: &Map, b: &Battle, u: usize, target: Hex) -> Result<(), RuleError> {
    let unit = &b.units[u];
    let label = || b.label(u);
    if unit.kind.chart().close.is_none() {
        return Err(RuleError::new(
            "8.3.1 Close combat",
            format!(
                "{label} may not close: artillery, rockets and dragoons never do",
                label = label()
            ),
        ));
    }
    if !map.contains(target) {
        return Err(RuleError::new(
            "8.3.1 Close combat",
            format!("{target} is off the map"),
        ));
    }
    if !unit.hex.is_adjacent(target) {
        return Err(RuleError::new(
            "8.3.1 Close combat",
            format!("{target} is not adjacent to {}", unit.hex),
        ));
    }
    if !b.enemy_combat_at(target, unit.side) {
        return Err(RuleError::new(
            "8.3.1 Close combat",
            format!("there is no enemy unit to close with in {target}"),
        ));
    }
    if unit.moved {
        return Err(RuleError::new(
            "6.2.4 Indians",
            format!(
                "{label} has moved this turn and may not close",
                label = label()
            ),
        ));
    }
    Ok(())
}

/// The MP a unit checks morale against: its MP, +1 with a leader (9.2, 11.1), +1 elite
/// (3.4.1), and for a defender the terrain (2.2.1) and -1 when flanked (11.9).
/// The reasons are written out only when `explain` (a line will be read).
fn morale(
    map: &Map,
    b: &Battle,
    u: usize,
    defending: Option<bool>,
    explain: bool,
) -> (i32, String) {
    let unit = &b.units[u];
    let mut v = i32::from(unit.mp);
    let mut parts = Vec::new();
    if explain {
        parts.push(format!("{} MP", unit.mp));
    }
    if with_leader(b, unit.hex, u) {
        v += 1;
        parts.push("+1 leader".into());
    }
    if unit.kind == Kind::Elite {
        v += 1;
        parts.push("+1 elite".into());
    }
    if let Some(flanked) = defending {
        let t = map.terrain(unit.hex);
        let m = t.effects().morale;
        if m != 0 {
            v += m;
            if explain {
                parts.push(format!("{m:+} {}", t.name()));
            }
        }
        if flanked {
            v -= 1;
            parts.push("-1 flanked".into());
        }
    }
    (v, parts.join(" "))
}

/// One morale check: passes on a roll of at most the adjusted MP; a 6 always fails (8.3.5).
fn check_morale(map: &Map, b: &Battle, u: usize, defending: Option<bool>, ctx: &mut Ctx) -> bool {
    let die = ctx.roll(6);
    let (v, why) = morale(map, b, u, defending, ctx.lines_wanted());
    let pass = die != 6 && die as i32 <= v;
    say!(
        ctx,
        "{} checks morale: rolls {die} against {v} ({why}) — {}",
        b.label(u),
        if pass { "holds" } else { "fails" }
    );
    pass
}

/// Carries out a checked close combat, its 2 AP already paid.
pub fn perform(map: &Map, b: &mut Battle, u: usize, target: Hex, advance: bool, ctx: &mut Ctx) {
    let side = b.units[u].side;
    let defender = side.other();
    let from = b.units[u].hex;
    b.units[u].acted = true;
    say!(
        ctx,
        "{} {} in {from} closes with {target} (2 AP)",
        side.name(),
        kind_and_name(b, u)
    );

    // 11.1 The attacker's own morale check; failing, it can only fire.
    if b.options.has(1) && !check_morale(map, b, u, None, ctx) {
        ctx.say("the attack falters and the unit fires instead (11.1)");
        if let Ok(plan) = fire::check(map, b, u, target, false) {
            fire::perform(map, b, plan, false, ctx);
        }
        return;
    }

    // 11.12 Defending dragoons may retreat before the attack.
    if b.options.has(12) && b.sides[usize::from(defender.0)].evade {
        let dragoon = b
            .army_at(target, defender)
            .find(|&i| b.units[i].kind == Kind::Dragoon);
        if let Some(d) = dragoon {
            let mut lines = Vec::new();
            let said = ctx.lines_wanted().then_some(&mut lines);
            if retreat::retreat_if_possible(map, b, d, from, said) {
                say!(
                    ctx,
                    "the dragoons evade the attack (11.12): {}",
                    lines.join("; ")
                );
                follow_leader(map, b, target, defender, d, ctx);
                if !b.enemy_combat_at(target, side) {
                    finish(b, u, target, advance, ctx);
                    return;
                }
            }
        }
    }

    // 8.3.2 / 8.4.4 Morale first: every defending unit checks, the infantry (or dragoon)
    // before the gun. A gun stacked with infantry has passed if the infantry passed (8.4.4
    // speaks of infantry only: with dragoons, the gun checks on its own).
    let flanked = combat::flank(b, u, target);
    let line = b.in_slot(target, defender, Slot::Line);
    let gun = b.in_slot(target, defender, Slot::Gun);
    let mut failed = Vec::new();
    let mut line_held = None;
    if let Some(l) = line {
        let held = check_morale(map, b, l, Some(flanked), ctx);
        if !held {
            failed.push(l);
        }
        line_held = Some((l, held));
    }
    if let Some(g) = gun {
        match line_held {
            Some((l, true)) if b.units[l].kind.is_infantry_type() => {
                say!(ctx, "{} holds with the infantry (8.4.4)", b.label(g));
            }
            _ => {
                if !check_morale(map, b, g, Some(flanked), ctx) {
                    failed.push(g);
                }
            }
        }
    }

    // 8.3.3 The attacker's dice.
    let n = combat::dice(b, u, target);
    let (m, why) = combat::modifier_explained(map, b, u, target, ctx.lines_wanted());
    let dice = combat::roll_attack(ctx, n);
    let faces = &dice[..n];
    let hits = combat::count_hits(faces, m, HIT);
    say!(
        ctx,
        "close combat dice ({n}, hit on {HIT}+{}): {} — {hits} hit{}",
        if why.is_empty() {
            String::new()
        } else {
            format!(", {}", why.join(", "))
        },
        combat::show_dice(faces, m),
        if hits == 1 { "" } else { "s" }
    );
    b.attacks.push((from, target));
    combat::apply_hits(b, target, defender, hits, ctx);
    combat::leader_casualty(b, target, defender, faces, ctx);

    // 8.4 Retreats of the survivors that failed.
    let mut first_to = None;
    for r in failed {
        if b.units[r].gone {
            continue;
        }
        let mut lines = Vec::new();
        let said = ctx.lines_wanted().then_some(&mut lines);
        let to = retreat::retreat(map, b, r, from, said);
        for l in lines {
            ctx.say(l);
        }
        if first_to.is_none() {
            first_to = to.map(|t| (r, t));
        }
    }
    // 8.3.2 A leader goes with his units when all of them retreat; 8.4.5 alone, he retreats 3.
    if b.army_at(target, defender).is_empty() {
        match first_to {
            Some((r, _)) => follow_leader(map, b, target, defender, r, ctx),
            None => combat::leader_left_alone(map, b, target, defender, ctx),
        }
    }
    finish(b, u, target, advance, ctx);
}

/// A leader whose units all left `from` goes with unit `r`, if the hex it reached has room.
fn follow_leader(
    map: &Map,
    b: &mut Battle,
    from: Hex,
    side: super::units::Side,
    r: usize,
    ctx: &mut Ctx,
) {
    if !b.army_at(from, side).is_empty() {
        return;
    }
    let Some(l) = b.leader_at(from, side) else {
        return;
    };
    let to = b.units[r].hex;
    if b.leader_at(to, side).is_none() {
        b.place_retreating(l, to);
        say!(ctx, "{} retreats with his unit to {to} (8.3.2)", b.label(l));
    } else {
        super::leaders::retreat_alone(map, b, l, ctx);
    }
}

/// 8.3.4 The attacker may advance into the vacated hex.
fn finish(b: &mut Battle, u: usize, target: Hex, advance: bool, ctx: &mut Ctx) {
    let side = b.units[u].side;
    if !advance || b.units[u].gone {
        return;
    }
    if b.enemy_combat_at(target, side) {
        say!(ctx, "{target} is still held: no advance");
    } else {
        fire::advance_into(b, u, target, ctx);
    }
}
