//! Which units stand in each hex: a cache of the battle's units, so that the board's queries
//! (hex limits, the unit an order names, who is in a target hex) look in one hex instead of
//! along every unit. It is built from the units on first use and kept by `Battle::place`,
//! `Battle::remove` and `Battle::take`, the only ways a unit changes hex or leaves the map. It is
//! not part of the state: it is neither serialised nor compared, and a battle read back from
//! JSON builds it again. Debug builds (the tests) check every answer against the units.
//!
//! Besides the units in each hex it keeps sets of units that the board's questions combine with
//! a hex's set in one step: each side's combat units still on the map, and each side's units
//! by the slot they fill (4.3), which never change, since no unit changes kind or side.

use std::fmt;
use std::sync::OnceLock;

use super::hex::Hex;
use super::units::Unit;

/// The most units a battle may hold: one bit each in a hex's set.
pub const MAX_UNITS: usize = 64;

#[derive(Clone, Default)]
pub struct Occupancy(OnceLock<Grid>);

#[derive(Clone)]
struct Grid {
    cols: u8,
    rows: u8,
    /// Row-major, one set of units per hex: bit `i` is unit `i`, on the map there.
    hexes: Vec<u64>,
    sets: Sets,
}

/// Sets of units that a hex's set is combined with (bit `i` is unit `i`).
#[derive(Clone, Debug, Default)]
pub struct Sets {
    /// Each side's combat units still on the map (american, british).
    pub armies: [u64; 2],
    /// Each side's units by the slot they fill (`Slot as usize`), on the map or not.
    pub slots: [[u64; 4]; 2],
}

impl Sets {
    /// A side's units, on the map or not: those of its four slots.
    pub fn side(&self, side: usize) -> u64 {
        self.slots[side].iter().fold(0, |all, slot| all | slot)
    }
}

impl Grid {
    fn index(&self, hex: Hex) -> Option<usize> {
        (hex.col < self.cols && hex.row < self.rows)
            .then(|| usize::from(hex.row) * usize::from(self.cols) + usize::from(hex.col))
    }
}

/// The units on the map in `hex`, found by looking at every unit: what the cache must say.
fn scan(units: &[Unit], hex: Hex) -> Units {
    let mut set = 0;
    for (i, u) in units.iter().enumerate() {
        set |= u64::from(!u.gone & (u.hex == hex)) << i;
    }
    Units(set)
}

impl Occupancy {
    /// The cache, built from the units on first use. `size` gives the map's columns and rows.
    fn grid(&self, units: &[Unit], size: impl FnOnce() -> (u8, u8)) -> &Grid {
        self.0.get_or_init(|| {
            let (cols, rows) = size();
            assert!(
                units.len() <= MAX_UNITS,
                "a battle holds at most {MAX_UNITS} units"
            );
            let mut grid = Grid {
                cols,
                rows,
                hexes: vec![0; usize::from(cols) * usize::from(rows)],
                sets: Sets::default(),
            };
            for (i, u) in units.iter().enumerate() {
                if let (false, Some(h)) = (u.gone, grid.index(u.hex)) {
                    grid.hexes[h] |= 1 << i;
                }
                let side = usize::from(u.side.0);
                if u.is_combat() {
                    grid.sets.armies[side] |= 1 << i;
                }
                grid.sets.slots[side][u.kind.slot() as usize] |= 1 << i;
            }
            grid
        })
    }

    /// The units on the map in `hex`, in the order of the battle's units.
    /// `size` gives the map's columns and rows, asked only when the cache is built.
    pub fn at(&self, units: &[Unit], size: impl FnOnce() -> (u8, u8), hex: Hex) -> Units {
        self.at_in(units, size, hex, |_| u64::MAX)
    }

    /// The units on the map in `hex` that are in the set `set` picks.
    pub fn at_in(
        &self,
        units: &[Unit],
        size: impl FnOnce() -> (u8, u8),
        hex: Hex,
        set: impl FnOnce(&Sets) -> u64,
    ) -> Units {
        let grid = self.grid(units, size);
        let found = match grid.index(hex) {
            Some(h) => Units(grid.hexes[h]),
            // Off the map: no unit stands there, but ask the units, to be sure.
            None => scan(units, hex),
        };
        debug_assert_eq!(
            found,
            scan(units, hex),
            "the occupancy of {hex} is out of step with the units"
        );
        Units(found.0 & set(&grid.sets))
    }

    /// Does each side (american, british) still have a combat unit on the map?
    pub fn armies(&self, units: &[Unit], size: impl FnOnce() -> (u8, u8)) -> [bool; 2] {
        let found = self.grid(units, size).sets.armies.map(|set| set != 0);
        debug_assert_eq!(
            found,
            [0, 1].map(|side| units.iter().any(|u| u.is_combat() && u.side.0 == side)),
            "the armies are out of step with the units"
        );
        found
    }

    /// Unit `i` has gone from `from` (if it stood there) to `to` (if it is still on the map).
    pub fn moved(&mut self, i: usize, from: Option<Hex>, to: Option<Hex>) {
        let Some(grid) = self.0.get_mut() else {
            return;
        };
        if to.is_none() {
            grid.sets
                .armies
                .iter_mut()
                .for_each(|set| *set &= !(1 << i));
        }
        if let Some(h) = from.and_then(|h| grid.index(h)) {
            grid.hexes[h] &= !(1 << i);
        }
        if let Some(h) = to.and_then(|h| grid.index(h)) {
            grid.hexes[h] |= 1 << i;
        }
    }

    /// The units were changed by hand: build the cache again on next use.
    pub fn forget(&mut self) {
        self.0 = OnceLock::new();
    }
}

/// A cache: every battle's occupancy is the same as far as the state is concerned.
impl PartialEq for Occupancy {
    fn eq(&self, _: &Occupancy) -> bool {
        true
    }
}

impl Eq for Occupancy {}

impl fmt::Debug for Occupancy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Occupancy")
    }
}

/// A set of units (by index), iterated in ascending order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Units(u64);

impl Units {
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The set without unit `i`.
    pub fn without(self, i: usize) -> Units {
        Units(self.0 & !(1u64 << i))
    }
}

impl Iterator for Units {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::for_honor_and_glory::units::{Kind, Side, Slot};

    fn units() -> Vec<Unit> {
        let at = |c, r| Hex::new(c, r);
        vec![
            Unit::new(Side::AMERICAN, Kind::Regular, at(1, 1), 3),
            Unit::new(Side::BRITISH, Kind::Regular, at(2, 2), 3),
            Unit::new(Side::AMERICAN, Kind::Leader, at(1, 1), 0),
            Unit::new(Side::AMERICAN, Kind::Artillery, at(1, 1), 2),
        ]
    }

    #[test]
    fn the_units_in_a_hex_come_in_the_order_of_the_battles_units() {
        let units = units();
        let o = Occupancy::default();
        let found: Vec<usize> = o.at(&units, || (4, 4), Hex::new(1, 1)).collect();
        assert_eq!(found, [0, 2, 3]);
        assert_eq!(o.at(&units, || (4, 4), Hex::new(3, 3)).count(), 0);
        // Off the map: asked of the units themselves.
        assert_eq!(o.at(&units, || (4, 4), Hex::new(9, 9)).count(), 0);
    }

    #[test]
    fn a_move_and_a_departure_are_kept() {
        let mut units = units();
        let mut o = Occupancy::default();
        assert_eq!(
            o.at(&units, || (4, 4), Hex::new(2, 2)).collect::<Vec<_>>(),
            [1]
        );
        units[0].hex = Hex::new(2, 1);
        o.moved(0, Some(Hex::new(1, 1)), Some(Hex::new(2, 1)));
        units[3].gone = true;
        o.moved(3, Some(Hex::new(1, 1)), None);
        assert_eq!(
            o.at(&units, || (4, 4), Hex::new(1, 1)).collect::<Vec<_>>(),
            [2]
        );
        assert_eq!(
            o.at(&units, || (4, 4), Hex::new(2, 1)).collect::<Vec<_>>(),
            [0]
        );
    }

    #[test]
    fn a_hexs_units_are_picked_by_side_slot_and_army() {
        let mut units = units();
        let mut o = Occupancy::default();
        let hex = Hex::new(1, 1);
        let pick = |o: &Occupancy, units: &[Unit], set: fn(&Sets) -> u64| {
            o.at_in(units, || (4, 4), hex, set).collect::<Vec<_>>()
        };
        assert_eq!(pick(&o, &units, |s| s.side(0)), [0, 2, 3]);
        assert_eq!(pick(&o, &units, |s| s.side(1)), Vec::<usize>::new());
        assert_eq!(pick(&o, &units, |s| s.slots[0][Slot::Gun as usize]), [3]);
        assert_eq!(pick(&o, &units, |s| s.slots[0][Slot::Leader as usize]), [2]);
        assert_eq!(pick(&o, &units, |s| s.armies[0]), [0, 3]);
        // A unit gone from the map leaves its army, and the hex.
        units[3].gone = true;
        o.moved(3, Some(hex), None);
        assert_eq!(pick(&o, &units, |s| s.armies[0]), [0]);
        assert_eq!(
            pick(&o, &units, |s| s.slots[0][Slot::Gun as usize]),
            Vec::<usize>::new()
        );
    }

    #[test]
    fn an_army_is_gone_when_its_last_combat_unit_leaves_the_map() {
        let mut units = units();
        let mut o = Occupancy::default();
        assert_eq!(o.armies(&units, || (4, 4)), [true, true]);
        // The American leader (2) is no army; the regular (0) and the gun (3) are.
        units[0].gone = true;
        o.moved(0, Some(Hex::new(1, 1)), None);
        assert_eq!(o.armies(&units, || (4, 4)), [true, true]);
        units[3].gone = true;
        o.moved(3, Some(Hex::new(1, 1)), None);
        assert_eq!(o.armies(&units, || (4, 4)), [false, true]);
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "out of step with the units")]
    fn a_unit_moved_behind_the_caches_back_is_caught_in_debug_builds() {
        let mut units = units();
        let o = Occupancy::default();
        o.at(&units, || (4, 4), Hex::new(1, 1));
        units[0].hex = Hex::new(2, 1);
        o.at(&units, || (4, 4), Hex::new(1, 1));
    }
}
