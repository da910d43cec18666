//! 8.2 Line of sight: a straight line from hex centre to hex centre, blocked by forest, hill,
//! town, entrenchment or fort terrain and by combat units (friendly or enemy) in a hex between
//! the two. Where the line runs along a hexside it is blocked only when the hexes on both sides
//! block; adjacent units always see each other; rockets ignore line of sight (3.4.9).
//!
//! Elevation: hills are the one high ground of the map. A line with a unit on a hill at either
//! end runs above the lower hexes between, so their terrain and units do not block it ("hills
//! see over lower hexes"); nor do the hill hexes that join that unit's hill along the line
//! (the same height: a gun on a hill is not blocked by the hill it stands on), unless a unit
//! stands in them. A hill between two units on low ground still blocks, as does any other
//! hill hex. The option `flat_line_of_sight` leaves elevation out: every hill between blocks
//! and nothing is seen over.

use super::battle::Battle;
use super::hex::{Hex, LineStep};
use super::terrain::{Map, Terrain};

/// What blocks a line of sight in one hex.
#[derive(Clone, Copy)]
enum Blocker {
    Terrain(Hex),
    Unit(Hex, usize),
}

impl Blocker {
    fn describe(self, map: &Map, b: &Battle) -> String {
        match self {
            Blocker::Terrain(h) => format!("{} in {h}", map.terrain(h).name()),
            Blocker::Unit(h, i) => format!("the {} in {h}", b.units[i].kind.name()),
        }
    }
}

/// Why a line of sight is blocked, for the player.
pub fn blocked(map: &Map, b: &Battle, from: Hex, to: Hex) -> Option<String> {
    if from.distance(to) <= 1 {
        return None;
    }
    let hill = |h: Hex| map.terrain(h) == Terrain::Hill;
    let elevation = !b.options.flat_line_of_sight;
    let high = elevation && (hill(from) || hill(to));
    // The hill hexes joining an end's hill along the line: the same hilltop.
    let mut hilltop: Vec<Hex> = Vec::new();
    if high {
        let steps: Vec<LineStep> = from.line_to(to).collect();
        let joins = |step: &LineStep| match *step {
            LineStep::Through(h) => hill(h),
            LineStep::Hexside(h1, h2) => hill(h1) || hill(h2),
        };
        let mut add = |step: &LineStep| match *step {
            LineStep::Through(h) => hilltop.push(h),
            LineStep::Hexside(h1, h2) => hilltop.extend([h1, h2].into_iter().filter(|&h| hill(h))),
        };
        if hill(from) {
            steps.iter().take_while(|s| joins(s)).for_each(&mut add);
        }
        if hill(to) {
            steps
                .iter()
                .rev()
                .take_while(|s| joins(s))
                .for_each(&mut add);
        }
    }
    // The reason is written out only for a line found blocked.
    let blocks = |h: Hex| -> Option<Blocker> {
        let unit = || b.combat_at(h).next().map(|i| Blocker::Unit(h, i));
        if high && !hill(h) {
            return None;
        }
        if hilltop.contains(&h) {
            return if b.any_combat_at(h) { unit() } else { None };
        }
        if map.terrain(h).effects().blocks_los {
            return Some(Blocker::Terrain(h));
        }
        if !b.any_combat_at(h) {
            return None;
        }
        unit()
    };
    for step in from.line_to(to) {
        match step {
            LineStep::Through(h) => {
                if let Some(why) = blocks(h) {
                    return Some(format!(
                        "line of sight from {from} to {to} is blocked by {} (8.2)",
                        why.describe(map, b)
                    ));
                }
            }
            LineStep::Hexside(h1, h2) => {
                if let (Some(a), Some(c)) = (blocks(h1), blocks(h2)) {
                    return Some(format!(
                        "line of sight from {from} to {to} runs along the hexside of {h1} and {h2}, blocked on both sides by {} and {} (8.2)",
                        a.describe(map, b),
                        c.describe(map, b)
                    ));
                }
            }
        }
    }
    None
}
