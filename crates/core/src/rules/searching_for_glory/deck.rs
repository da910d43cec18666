//! The cards (rules 1): the deck and the discard pile, which an empty deck takes back
//! shuffled (IV.1), and a character's own card (1.b), which never goes to the discard pile but
//! back to its character's hand. Hidden draws come from the engine's hidden stream. The round
//! (`round.rs`), the NPCs' operations (`npc.rs`), re-entry (`reentry.rs`) and the end of the
//! game (`victory.rs`) all draw and discard through here.

use super::data;
use super::state::State;
use crate::engine::ruleset::RuleError;

/// A source of hidden draws: a value in `1..=n`.
pub type Hidden<'a> = dyn FnMut(u32) -> Result<u32, RuleError> + 'a;

/// Shuffles `cards` with hidden draws (Fisher–Yates).
pub fn shuffle(cards: &mut [String], hidden: &mut Hidden) -> Result<(), RuleError> {
    for i in (1..cards.len()).rev() {
        let j = hidden(i as u32 + 1)? as usize - 1;
        cards.swap(i, j);
    }
    Ok(())
}

/// One card off the deck; an empty deck takes the discard pile shuffled; `None` if both are
/// empty (IV.1: "reshuffled them some many times as needed").
pub fn draw_one(state: &mut State, hidden: &mut Hidden) -> Result<Option<String>, RuleError> {
    if state.deck.is_empty() && !state.discard.is_empty() {
        state.deck = std::mem::take(&mut state.discard);
        shuffle(&mut state.deck, hidden)?;
    }
    Ok(state.deck.pop())
}

/// 1.b: the character's own card joins his hand at a random place, unless it is there already
/// (or the game plays the plain role cards).
pub fn add_personal(
    state: &State,
    character: &str,
    hand: &mut Vec<String>,
    hidden: &mut Hidden,
) -> Result<(), RuleError> {
    if state.plain_roles {
        return Ok(());
    }
    let Some(card) = data::role(character).and_then(|r| r.personal.clone()) else {
        return Ok(());
    };
    if !hand.contains(&card) {
        let at = hidden(hand.len() as u32 + 1)? as usize - 1;
        hand.insert(at, card);
    }
    Ok(())
}

/// Cards to the discard pile, but a character's own (1.b), which goes back to him.
pub fn discard(state: &mut State, cards: impl IntoIterator<Item = String>) {
    state
        .discard
        .extend(cards.into_iter().filter(|c| !data::is_personal(c)));
}
