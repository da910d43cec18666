//! What each unit has done in the impulse in play: whether it has acted, whether it has moved,
//! and whether its activation is over before the impulse is (2.18.1 a ferry tried, 2.18.2 a
//! unit ferried, S4.2 a rider put down, S4.4 a forced dismount). The record starts afresh with
//! each chit (`chits::play`): a unit's next Activation is the next chit that activates it.

use super::rule;
use super::state::{Activity, State};
use crate::engine::ruleset::RuleError;

/// The unit took an Action (`moved`: a Movement Action) in this impulse.
pub fn acted(s: &mut State, unit: &str, moved: bool) {
    let a = s.activity.entry(unit.to_owned()).or_default();
    a.moved |= moved;
}

/// The unit's activation is over for this impulse (`why`: the rule). Only a unit of the side
/// whose impulse it is has an activation to end: a rider put down by the enemy's fire in the
/// enemy's impulse was not active.
pub fn end(s: &mut State, unit: &str, why: &str) {
    if s.units.get(unit).is_some_and(|u| u.side == s.impulse) {
        s.activity.entry(unit.to_owned()).or_default().over = Some(why.to_owned());
    }
}

/// Refused when the unit's activation is over.
pub fn check(s: &State, unit: &str) -> Result<(), RuleError> {
    match s.activity.get(unit).and_then(|a| a.over.as_deref()) {
        Some(why) => Err(rule(
            why,
            format!("{unit} has ended its activation this impulse: it acts again when a chit activates it next"),
        )),
        None => Ok(()),
    }
}

/// 2.18.2: a Unit ferried "begins its activation" by the ferry and it "is the Unit's entire
/// activation": refused once it has acted this impulse.
pub fn check_fresh(s: &State, unit: &str, rule_name: &str, what: &str) -> Result<(), RuleError> {
    match s.activity.get(unit) {
        Some(_) => Err(rule(
            rule_name,
            format!("{unit} has already acted this impulse: {what}"),
        )),
        None => Ok(()),
    }
}

/// 2.18.1: the engineer "must begin an activation in the applicable hex": refused once it has
/// moved this impulse.
pub fn check_not_moved(
    s: &State,
    unit: &str,
    rule_name: &str,
    what: &str,
) -> Result<(), RuleError> {
    if s.activity.get(unit).is_some_and(|a: &Activity| a.moved) {
        return Err(rule(
            rule_name,
            format!("{unit} has moved this impulse: {what}"),
        ));
    }
    Ok(())
}
