//! The bot's card operations at a table with components: one or two a move, chosen among those
//! the piles' counts and the seat's hand allow, so that most moves are taken.

use super::cards::{CardOp, CardRef, Where};
use super::components::Kind;
use super::order::Move;
use super::State;
use crate::engine::ruleset::{BotRng, Seat};

/// Adds one or two random card operations to the bot's move.
pub fn random_cards(state: &State, seat: &Seat, m: &mut Move, rng: BotRng) {
    let table = &state.table;
    let playing = state.playing().count();
    let mut pile_ops = Vec::new();
    for p in &table.piles {
        let named = Some(p.name.clone());
        let n = p.draw.len();
        if n >= 1 {
            pile_ops.push(CardOp::Draw {
                count: 1,
                pile: named.clone(),
                face_up: false,
            });
            pile_ops.push(CardOp::Draw {
                count: 1,
                pile: named.clone(),
                face_up: true,
            });
        }
        if n >= 2 {
            pile_ops.push(CardOp::Draw {
                count: 2,
                pile: named.clone(),
                face_up: false,
            });
        }
        if n >= playing {
            pile_ops.push(CardOp::Deal {
                count: 1,
                pile: named.clone(),
            });
        }
        if p.kind == Kind::Deck && n >= 1 {
            pile_ops.push(CardOp::Look {
                count: 1,
                pile: named.clone(),
            });
            pile_ops.push(CardOp::Shuffle {
                pile: named.clone(),
            });
        }
        if !p.discard.is_empty() {
            pile_ops.push(CardOp::Reshuffle {
                pile: named.clone(),
            });
        }
        if let Some(a) = p.aside.first() {
            pile_ops.push(CardOp::Add {
                set: a.set.clone(),
                pile: named,
            });
        }
    }
    let hand = table.hand(seat);
    let hand_op = |rng: BotRng| {
        let i = rng(hand.len());
        let (by_name, by_place) = (CardRef::Name(hand[i].card.clone()), CardRef::Place(i + 1));
        match rng(6) {
            0 => CardOp::Play { card: by_name },
            1 => CardOp::Discard { card: by_place },
            2 if !hand[i].shown => CardOp::Show { card: by_name },
            3 => CardOp::Return {
                card: by_place,
                to: [Where::Top, Where::Bottom, Where::Shuffled][rng(3)],
            },
            4 => {
                let others: Vec<&Seat> = state.seats.iter().filter(|s| *s != seat).collect();
                match others.len() {
                    0 => CardOp::Play { card: by_name },
                    k => CardOp::Give {
                        card: by_place,
                        to: others[rng(k)].clone(),
                    },
                }
            }
            _ => CardOp::Play { card: by_name },
        }
    };
    let with_hand = !hand.is_empty() && rng(2) == 0;
    if with_hand {
        m.cards.push(hand_op(rng));
    }
    if !pile_ops.is_empty() && (!with_hand || rng(3) == 0) {
        m.cards.push(pile_ops.swap_remove(rng(pile_ops.len())));
    }
}
