//! The Planning Phase (2., 1.b): a player sets aside up to 4 cards of his hand, each of a
//! different colour (a double card takes either of its colours); Reap the Initiative! is never
//! planned (it is shown at the Initiative step).

use super::data::{self, Colour};
use crate::engine::ruleset::RuleError;

pub const MAX_PLANNED: usize = 4;

fn plan_error(message: impl Into<String>) -> RuleError {
    RuleError::new("1.b Planning", message)
}

/// Can each card take one of its colours, all colours different? Brute force: at most 4 cards.
pub fn colours_assignable(cards: &[&str]) -> bool {
    fn go(cards: &[&str], used: &mut Vec<Colour>) -> bool {
        let Some((first, rest)) = cards.split_first() else {
            return true;
        };
        let Some(kind) = data::card(first) else {
            return false;
        };
        for c in kind.colours() {
            if !used.contains(&c) {
                used.push(c);
                if go(rest, used) {
                    return true;
                }
                used.pop();
            }
        }
        false
    }
    go(cards, &mut Vec::new())
}

/// Checks a plan of hand positions (1-based) against a hand: at most 4, each once, each in the
/// hand, never Reap the Initiative!, one colour each. Gives the planned cards' keys.
pub fn check(hand: &[String], positions: &[usize]) -> Result<Vec<String>, RuleError> {
    if positions.len() > MAX_PLANNED {
        return Err(plan_error(format!(
            "a plan sets aside at most {MAX_PLANNED} cards, not {}",
            positions.len()
        )));
    }
    let mut cards = Vec::new();
    for (i, &p) in positions.iter().enumerate() {
        if positions[..i].contains(&p) {
            return Err(plan_error(format!("hand position {p} is named twice")));
        }
        let card = hand.get(p.wrapping_sub(1)).ok_or_else(|| {
            plan_error(format!(
                "your hand has {} cards: there is no position {p}",
                hand.len()
            ))
        })?;
        if card == "initiative" {
            return Err(plan_error(format!(
                "position {p} is Reap the Initiative!: it is shown at the Initiative step, never planned"
            )));
        }
        cards.push(card.clone());
    }
    let keys: Vec<&str> = cards.iter().map(String::as_str).collect();
    if !colours_assignable(&keys) {
        let names: Vec<String> = keys
            .iter()
            .map(|k| {
                let kind = data::card(k).expect("a card of the deck");
                let colours: Vec<&str> = kind.colours().map(Colour::name).collect();
                format!("{} ({})", kind.name, colours.join("/"))
            })
            .collect();
        return Err(plan_error(format!(
            "every planned card must be of a different colour; {} cannot each take a colour of its own",
            names.join(", ")
        )));
    }
    Ok(cards)
}
