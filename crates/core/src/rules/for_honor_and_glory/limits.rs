//! 4.3 Unit hex limits: at most one infantry-type or dragoon unit, one artillery/rocket unit,
//! one leader and one VP unit (4.3.1) in a hex. Enforced in set-up, movement (6.2.7, 7.2),
//! advances and retreats; units of the two sides never share a hex.

use super::battle::Battle;
use super::hex::Hex;
use super::units::{Kind, Side};

/// `may_hold` as a yes or no, with no reason written: for retreats, which only ask.
pub fn fits(b: &Battle, hex: Hex, side: Side, kind: Kind, ignore: Option<usize>) -> bool {
    blocker(b, hex, side, kind, ignore).is_none()
}

/// The first unit (in the order of the battle's units) that keeps a unit of `kind` and `side`
/// out of `hex`: an enemy combat unit, when it is one too, or a friendly unit filling its
/// slot, leaving out `ignore`.
fn blocker(b: &Battle, hex: Hex, side: Side, kind: Kind, ignore: Option<usize>) -> Option<usize> {
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
    b: &Battle,
    hex: Hex,
    side: Side,
    kind: Kind,
    ignore: Option<usize>,
) -> Result<(), String> {
    match blocker(b, hex, side, kind, ignore) {
        None => Ok(()),
        Some(i) if b.units[i].side != side => Err(format!("{hex} holds enemy units")),
        Some(i) => {
            let what = match kind.slot() {
                super::units::Slot::Line => "infantry or dragoon unit",
                super::units::Slot::Gun => "artillery or rocket unit",
                super::units::Slot::Leader => "leader",
                super::units::Slot::Vp => "VP unit",
            };
            Err(format!(
                "{hex} already holds a friendly {what} ({}); a hex holds only one (4.3)",
                b.label(i)
            ))
        }
    }
}
