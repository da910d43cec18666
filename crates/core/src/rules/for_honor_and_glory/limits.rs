//! 4.3 Unit hex limits: at most one infantry-type or dragoon unit, one artillery/rocket unit,
//! one leader and one VP unit (4.3.1) in a hex. Enforced in set-up, movement (6.2.7, 7.2),
//! advances and retreats; units of the two sides never share a hex.

use super::hex::Hex;
use super::occupancy::Units;
use super::units::{Kind, Side, Slot};

/// What the hex limits ask of the units on the map. A battle (`battle.rs`) answers it, and
/// checks its own set-up against the limits (`Battle::new`) through it; the limits are read
/// here, above the units and their occupancy, and name no battle.
pub trait Stacks {
    /// A side's combat units (not leaders nor VP units) in a hex.
    fn army_at(&self, hex: Hex, side: Side) -> Units;
    /// A side's units filling a slot (4.3.1) in a hex.
    fn slot_at(&self, hex: Hex, side: Side, slot: Slot) -> Units;
    /// The side of unit `i`.
    fn side_of(&self, i: usize) -> Side;
    /// Unit `i` as players read it ("british regular 41st Foot (3 MP) in C5").
    fn label(&self, i: usize) -> String;
}

/// `may_hold` as a yes or no, with no reason written: for retreats, which only ask.
pub fn fits(b: &impl Stacks, hex: Hex, side: Side, kind: Kind, ignore: Option<usize>) -> bool {
    blocker(b, hex, side, kind, ignore).is_none()
}

/// The first unit (in the order of the battle's units) that keeps a unit of `kind` and `side`
/// out of `hex`: an enemy combat unit, when it is one too, or a friendly unit filling its
/// slot, leaving out `ignore`.
fn blocker(
    b: &impl Stacks,
    hex: Hex,
    side: Side,
    kind: Kind,
    ignore: Option<usize>,
) -> Option<usize> {
    let enemy = kind
        .is_combat()
        .then(|| b.army_at(hex, side.other()).next())
        .flatten();
    let mut friends = b.slot_at(hex, side, kind.slot());
    if let Some(i) = ignore {
        friends = friends.without(i);
    }
    enemy.into_iter().chain(friends.next()).min()
}

/// May a unit of `kind` and `side` stand in `hex`, besides the units already there (leaving
/// out `ignore`, the unit itself)? Says why not.
pub fn may_hold(
    b: &impl Stacks,
    hex: Hex,
    side: Side,
    kind: Kind,
    ignore: Option<usize>,
) -> Result<(), String> {
    match blocker(b, hex, side, kind, ignore) {
        None => Ok(()),
        Some(i) if b.side_of(i) != side => Err(format!("{hex} holds enemy units")),
        Some(i) => {
            let what = match kind.slot() {
                Slot::Line => "infantry or dragoon unit",
                Slot::Gun => "artillery or rocket unit",
                Slot::Leader => "leader",
                Slot::Vp => "VP unit",
            };
            Err(format!(
                "{hex} already holds a friendly {what} ({}); a hex holds only one (4.3)",
                b.label(i)
            ))
        }
    }
}
