//! A seat's hand as cards, for its own page (never another's): each card by name, colour, a
//! reactive mark and what it does, with the orders pointing at it makes now. Generic: a
//! ruleset with cards in hand fills it from its own card data (`Rules::hand`); the page draws
//! the cards as buttons. Data only, like the board's model.

use serde::Serialize;

/// One card of a seat's hand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Card {
    /// Unique in the hand, the word an order names it by where one does (a hand position):
    /// `data-card`.
    pub id: String,
    /// The card's name as printed.
    pub name: String,
    /// Its colours or suits (a double card has two; none where the game has none), by name:
    /// each also a CSS class `card-<colour>`.
    pub colours: Vec<String>,
    /// Whether it may be played outside one's own turn (a reactive card).
    pub reactive: bool,
    /// What it does, in a sentence or two, from the ruleset's own card data.
    pub text: String,
    /// The orders pointing at this card makes now (one, or several to choose from), each one
    /// the rules accept as the game stands; empty when the card has no use now.
    pub orders: Vec<String>,
}

/// Cards chosen together for one order (a plan of several cards): pointing at a card adds its
/// id to the order `head id id …`, or takes it out again, so long as the cards chosen are one
/// of `sets` — every set the rules accept now, each in hand order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Gather {
    pub head: String,
    pub sets: Vec<Vec<String>>,
    /// What gathering the cards does, said beside them ("Choose up to 4 cards to plan …").
    pub help: String,
}

/// A seat's hand: its cards in the hand's order, and the order they may be gathered into now.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Hand {
    pub cards: Vec<Card>,
    pub gather: Option<Gather>,
}

impl Hand {
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }
}
