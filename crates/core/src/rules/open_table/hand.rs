//! A seat's hand as its own page shows it (`Rules::hand`): each card with its text from the
//! components and the orders pointing at it fills. Never another seat's.

use super::State;
use crate::engine::board::{Card, Hand};
use crate::engine::ruleset::Seat;

/// `seat`'s hand for its own page: each card with its text and the orders pointing at it makes.
pub fn hand_of(state: &State, seat: &Seat) -> Hand {
    let cards = state
        .table
        .hand(seat)
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let text = state
                .table
                .piles
                .iter()
                .find(|p| p.name == h.pile)
                .and_then(|p| p.cards.get(&h.card))
                .cloned()
                .unwrap_or_default();
            let place = i + 1;
            let mut orders = vec![format!("play {}", h.card), format!("discard {}", h.card)];
            if !h.shown {
                orders.push(format!("show {}", h.card));
            }
            orders.push(format!("return #{place} to top"));
            Card {
                id: place.to_string(),
                name: h.card.clone(),
                colours: vec![h.pile.clone()],
                reactive: false,
                text,
                orders,
            }
        })
        .collect();
    Hand {
        cards,
        gather: None,
    }
}
