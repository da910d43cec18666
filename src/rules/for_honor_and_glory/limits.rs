//! 4.3 Unit hex limits: at most one infantry-type or dragoon unit, one artillery/rocket unit,
//! one leader and one VP unit (4.3.1) in a hex. Enforced in set-up, movement (6.2.7, 7.2),
//! advances and retreats; units of the two sides never share a hex.

use super::battle::Battle;
use super::hex::Hex;
use super::units::{Kind, Side};

/// `may_hold` as a yes or no, with no reason written: for retreats, which only ask.
pub fn fits(b: &Battle, hex: Hex, side: Side, kind: Kind, ignore: Option<usize>) -> bool {
    for i in b.at(hex) {
        let other = &b.units[i];
        if Some(i) == ignore {
            continue;
        }
        if other.side != side && other.kind.is_combat() && kind.is_combat()
            || other.side == side && other.kind.slot() == kind.slot()
        {
            return false;
        }
    }
    true
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
    for i in b.at(hex) {
        let other = &b.units[i];
        if Some(i) == ignore {
            continue;
        }
        if other.side != side && other.kind.is_combat() && kind.is_combat() {
            return Err(format!("{hex} holds enemy units"));
        }
        if other.side == side && other.kind.slot() == kind.slot() {
            let what = match kind.slot() {
                super::units::Slot::Line => "infantry or dragoon unit",
                super::units::Slot::Gun => "artillery or rocket unit",
                super::units::Slot::Leader => "leader",
                super::units::Slot::Vp => "VP unit",
            };
            return Err(format!(
                "{hex} already holds a friendly {what} ({}); a hex holds only one (4.3)",
                b.label(i)
            ));
        }
    }
    Ok(())
}
