//! Combat (8.), the parts fire and close combat share: how many dice an attack rolls (8.1.3,
//! 7.5.1, 11.3, 11.8), the modifier to each die (2.2.1 and the optional 11.4, 11.6, 11.7,
//! 11.9), hits applied to the strongest defender first (8.1.2) with elite infantry's survival
//! roll (3.4.1), and leader casualties on 1s (9.3.1).

use super::battle::Battle;
use super::hex::Hex;
use super::leaders;
use super::terrain::{Map, Terrain};
use super::units::{Kind, Side, Slot};
use crate::engine::ruleset::Ctx;

/// 8.1.3 Dice rolled: 3 whatever the MP; 11.3 elite at 3–4 MP roll 4; 7.5.1 a unit in column
/// rolls 1, and an attack on a hex with a unit in column rolls one more; 11.8 a leader with
/// the attacker adds one.
pub fn dice(b: &Battle, u: usize, target: Hex) -> usize {
    let unit = &b.units[u];
    let mut n = usize::from(unit.kind.chart().dice);
    if b.options.has(3) && unit.kind == Kind::Elite && unit.mp >= 3 {
        n = 4;
    }
    if unit.column {
        n = 1;
    }
    if b.army_at(target, unit.side.other())
        .any(|i| b.units[i].column)
    {
        n += 1;
    }
    if b.options.has(8) && b.leader_at(unit.hex, unit.side).is_some() {
        n += 1;
    }
    n
}

/// The most dice an attack rolls: 4 for elite at 3–4 MP (11.3), one more against a column
/// (7.5.1) and one more with a leader (11.8).
pub const MAX_DICE: usize = 6;

/// Rolls an attack's `n` dice (8.1, 8.3) into a buffer on the stack: every fire and close
/// combat rolls them. The faces are `dice[..n]`.
pub fn roll_attack(ctx: &mut Ctx, n: usize) -> [u32; MAX_DICE] {
    let mut dice = [0; MAX_DICE];
    ctx.roll_into(&mut dice[..n], 6);
    dice
}

/// The modifier to each attacking die, with the reasons for the log.
pub fn modifier(map: &Map, b: &Battle, u: usize, target: Hex) -> (i32, Vec<String>) {
    modifier_explained(map, b, u, target, true)
}

/// `modifier`, with the reasons written out only when `explain` (a line will be read).
pub fn modifier_explained(
    map: &Map,
    b: &Battle,
    u: usize,
    target: Hex,
    explain: bool,
) -> (i32, Vec<String>) {
    let unit = &b.units[u];
    let t = map.terrain(target);
    let mut m = t.effects().combat;
    let mut why = Vec::new();
    // 11.6 Artillery firing into forest; 11.4 Indians attacking entrenchments and towns.
    if b.options.has(6) && unit.kind == Kind::Artillery && t == Terrain::Forest {
        m = -2;
    }
    if b.options.has(4)
        && unit.kind == Kind::Indian
        && matches!(t, Terrain::Entrenchment | Terrain::Town)
    {
        m = -2;
    }
    if m != 0 && explain {
        why.push(format!("{m:+} for {} in {target}", t.name()));
    }
    // 11.7 Waterway combat effect.
    if b.options.has(7) && t == Terrain::Waterway {
        m += 1;
        if explain {
            why.push("+1 against a waterway (11.7)".into());
        }
    }
    if flank(b, u, target) {
        m += 1;
        if explain {
            why.push("+1 flank attack (11.9)".into());
        }
    }
    (m, why)
}

/// 11.9 A flank or rear attack: "2 or more attacking units are directly opposite of each
/// other with the defending unit between them, and all units attack the defender during the
/// turn". Every one of them adds +1, the first included, at any range it may fire: an attack
/// qualifies when a friendly unit directly across the target (on the straight line through
/// it, at any distance) has attacked it this player turn, or is named to attack it later in
/// the order being carried out.
pub fn flank(b: &Battle, u: usize, target: Hex) -> bool {
    if !b.options.has(9) {
        return false;
    }
    let from = b.units[u].hex;
    b.attacks
        .iter()
        .chain(&b.planned)
        .any(|&(other, to)| to == target && from.opposite_across(target, other))
}

/// The dice as the log shows them: faces, and the modified values where a modifier applies.
pub fn show_dice(faces: &[u32], m: i32) -> String {
    let f: Vec<String> = faces.iter().map(u32::to_string).collect();
    if m == 0 {
        f.join(", ")
    } else {
        let v: Vec<String> = faces.iter().map(|&x| (x as i32 + m).to_string()).collect();
        format!("{} (modified {})", f.join(", "), v.join(", "))
    }
}

/// Counts hits: each die that, modified, reaches the hit number (8.1.1, 8.3.3).
pub fn count_hits(faces: &[u32], m: i32, hit: u8) -> usize {
    faces
        .iter()
        .filter(|&&f| f as i32 + m >= i32::from(hit))
        .count()
}

/// 8.1.2 / 3.4.1 Applies an attack's hits to the defenders of a hex: "hits are applied to the
/// highest value unit" — the unit with the most MP as the hex stood when the attack hit; in
/// ties the owner's standing order decides (`tied hits to guns`; the infantry or dragoon
/// before the gun unless it says so). All the hits go to that unit; any left over when it is
/// eliminated are lost. With the option `hits_one_at_a_time` each hit goes to the unit then
/// highest, so the hits left over go on to the next. An elite unit at 1 MP rolls for each
/// hit: 1–3 it stays, 4–6 it is eliminated. Returns the defenders eliminated.
pub fn apply_hits(
    b: &mut Battle,
    hex: Hex,
    defender: Side,
    hits: usize,
    ctx: &mut Ctx,
) -> Vec<usize> {
    let mut gone = Vec::new();
    let first = if b.sides[usize::from(defender.0)].tied_hits_to_guns {
        Slot::Gun
    } else {
        Slot::Line
    };
    let highest = |b: &Battle| {
        b.army_at(hex, defender).max_by_key(|&i| {
            (
                b.units[i].mp,
                b.units[i].kind.slot() == first,
                std::cmp::Reverse(i),
            )
        })
    };
    let one_unit = !b.options.hits_one_at_a_time;
    let hit = highest(b);
    for n in 0..hits {
        let target = if one_unit { hit } else { highest(b) };
        let Some(t) = target else { break };
        if b.units[t].gone {
            let left = hits - n;
            if !b.army_at(hex, defender).is_empty() {
                say!(
                    ctx,
                    "{left} hit{} left over {} lost with the unit it hit (8.1.2)",
                    if left == 1 { "" } else { "s" },
                    if left == 1 { "is" } else { "are" }
                );
            }
            break;
        }
        let unit = b.units[t];
        if unit.mp <= 1 {
            if unit.kind == Kind::Elite {
                let die = ctx.roll(6);
                if die <= 3 {
                    say!(
                        ctx,
                        "{} rolls {die} for its hit: it stays at 1 MP (3.4.1)",
                        b.label(t)
                    );
                    continue;
                }
                say!(
                    ctx,
                    "{} rolls {die} for its hit: the hit is applied (3.4.1)",
                    b.label(t)
                );
            }
            b.eliminate_for(t, ctx);
            gone.push(t);
        } else {
            if ctx.lines_wanted() {
                let label = b.label(t);
                ctx.say(format!("{label} takes a hit: now {} MP", unit.mp - 1));
            }
            b.units[t].mp -= 1;
        }
    }
    gone
}

/// 9.3.1 A leader in the target hex when the attacker rolled a 1 rolls a die: on a 1 he is
/// eliminated. Then 8.4.5: a leader left without a unit retreats up to 3 hexes.
pub fn leader_casualty(b: &mut Battle, hex: Hex, defender: Side, faces: &[u32], ctx: &mut Ctx) {
    let Some(l) = b.leader_at(hex, defender) else {
        return;
    };
    if faces.contains(&1) {
        let die = ctx.roll(6);
        if die == 1 {
            say!(
                ctx,
                "{} rolls 1 for the 1s rolled against him (9.3.1)",
                b.label(l)
            );
            b.eliminate_for(l, ctx);
            return;
        }
        say!(
            ctx,
            "{} rolls {die} for the 1s rolled against him and survives (9.3.1)",
            b.label(l)
        );
    }
}

/// 8.4.5 A leader whose unit was eliminated retreats up to 3 hexes, or is eliminated.
pub fn leader_left_alone(map: &Map, b: &mut Battle, hex: Hex, defender: Side, ctx: &mut Ctx) {
    let Some(l) = b.leader_at(hex, defender) else {
        return;
    };
    if !b.army_at(hex, defender).is_empty() {
        return;
    }
    leaders::retreat_alone(map, b, l, ctx);
}
