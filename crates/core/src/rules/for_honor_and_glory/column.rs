//! 7.5 Column movement: infantry (elite, marines, regular, light, militia) change between line
//! and column for 1 AP and do nothing else that turn. In column a unit moves one hex more (see
//! `movement::allowance`) but never with the leader's extra hex (9.1.3); it attacks with 1 die
//! and is attacked with one more (7.5.1, see `combat::dice`).

use super::battle::Battle;
use crate::engine::ruleset::RuleError;

/// Checks a change of unit `u` into column (`to_column`) or back into line.
pub fn check(b: &Battle, u: usize, to_column: bool) -> Result<(), RuleError> {
    let unit = &b.units[u];
    let label = || b.label(u);
    if !unit.kind.is_line_infantry() {
        return Err(RuleError::new(
            "7.5 Column movement",
            format!("{label} cannot form column: only elite, marine, regular, light and militia infantry do", label = label()),
        ));
    }
    if unit.column == to_column {
        return Err(RuleError::new(
            "7.5 Column movement",
            format!(
                "{label} is already in {}",
                if to_column { "column" } else { "line" },
                label = label()
            ),
        ));
    }
    Ok(())
}

/// Changes formation; the unit stays in place and is done for the turn.
pub fn perform(b: &mut Battle, u: usize, to_column: bool) {
    b.units[u].column = to_column;
    b.units[u].acted = true;
    b.units[u].moved = true;
}

/// The line saying a unit changed formation.
pub fn line(b: &Battle, u: usize, to_column: bool) -> String {
    format!(
        "{} forms {} (1 AP)",
        b.label(u),
        if to_column { "column" } else { "line" }
    )
}
