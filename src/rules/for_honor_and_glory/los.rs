//! 8.2 Line of sight: a straight line from hex centre to hex centre, blocked by forest, hill,
//! town, entrenchment or fort terrain and by combat units (friendly or enemy) in a hex between
//! the two. Where the line runs along a hexside it is blocked only when the hexes on both sides
//! block; adjacent units always see each other; rockets ignore line of sight (3.4.9).

use super::battle::Battle;
use super::hex::{Hex, LineStep};
use super::terrain::Map;

/// Why a line of sight is blocked, for the player.
pub fn blocked(map: &Map, b: &Battle, from: Hex, to: Hex) -> Option<String> {
    if from.distance(to) <= 1 {
        return None;
    }
    let blocks = |h: Hex| -> Option<String> {
        let t = map.terrain(h);
        if t.effects().blocks_los {
            return Some(format!("{} in {h}", t.name()));
        }
        if !b.any_combat_at(h) {
            return None;
        }
        b.combat_at(h)
            .next()
            .map(|i| format!("the {} in {h}", b.units[i].kind.name()))
    };
    for step in from.line_to(to) {
        match step {
            LineStep::Through(h) => {
                if let Some(why) = blocks(h) {
                    return Some(format!(
                        "line of sight from {from} to {to} is blocked by {why} (8.2)"
                    ));
                }
            }
            LineStep::Hexside(h1, h2) => {
                if let (Some(a), Some(c)) = (blocks(h1), blocks(h2)) {
                    return Some(format!(
                        "line of sight from {from} to {to} runs along the hexside of {h1} and {h2}, blocked on both sides by {a} and {c} (8.2)"
                    ));
                }
            }
        }
    }
    None
}
