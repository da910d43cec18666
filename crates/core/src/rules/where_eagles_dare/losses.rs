//! A unit's steps and its formation's losses (decisions 15, 21), and a unit gone for good.
//! A leaf under the chapters: fire results, bridges, Command, Rout and Reinf all name them.

use super::oob::OOB;
use super::state::State;

/// The unit's steps by the order of battle, if it is in it.
pub fn steps_of(unit: &str) -> Option<u32> {
    OOB.unit(unit).map(|d| d.steps)
}

/// The steps a formation has lost (decisions 15, 21): those on its units' marks, on the map
/// or off it, and every step of its eliminated units.
pub fn formation_losses(s: &State, formation: &str) -> u32 {
    OOB.units_of(formation)
        .map(|u| {
            s.marks.get(&u.id).map_or(0, |m| m.lost) + s.eliminated.get(&u.id).copied().unwrap_or(0)
        })
        .sum()
}

/// A unit gone from the map for good: its stated results, remembered transport and drop
/// markers go with it.
pub fn clear_markers(s: &mut State, unit: &str) {
    s.marks.remove(unit);
    s.vehicles.remove(unit);
    s.drop_markers.remove(unit);
    s.drop_awaiting.retain(|u| u != unit);
}

/// Decision 21: a unit of the order of battle that is eliminated keeps its lost steps (all
/// of them) as its formation's losses; its markers go. A unit outside it leaves nothing.
pub fn eliminate(s: &mut State, unit: &str) {
    clear_markers(s, unit);
    if let Some(k) = steps_of(unit) {
        s.eliminated.insert(unit.to_owned(), k);
    }
}
