//! 8.2 Line of sight: a straight line from hex centre to hex centre, blocked by forest, hill,
//! town, entrenchment or fort terrain and by combat units (friendly or enemy) in a hex between
//! the two. Where the line runs along a hexside it is blocked only when the hexes on both sides
//! block; adjacent units always see each other; rockets ignore line of sight (3.4.9).

use super::battle::Battle;
use super::hex::{Hex, LineStep};
use super::terrain::Map;

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
    // The reason is written out only for a line found blocked.
    let blocks = |h: Hex| -> Option<Blocker> {
        if map.terrain(h).effects().blocks_los {
            return Some(Blocker::Terrain(h));
        }
        if !b.any_combat_at(h) {
            return None;
        }
        b.combat_at(h).next().map(|i| Blocker::Unit(h, i))
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
