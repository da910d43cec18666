//! The cards on the table (rules version 3): each deck's and cup's draw and discard piles, the
//! sets held aside to be added later, and each seat's hand. Built from the components at
//! set-up (`components.rs`); changed only by the card operations (`cards.rs`). What a viewer
//! may see of it is [`Table::view`]: its own hand, the others' counts and shown cards.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::components::{Kind, PileDef};
use crate::engine::ruleset::{RuleError, Seat, Viewer};

/// A deck or a cup as it stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pile {
    pub name: String,
    pub kind: Kind,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub title: String,
    /// Face down, the top first (a cup's order is no order: it is drawn at random).
    pub draw: Vec<String>,
    /// Face up, the latest played last.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub discard: Vec<String>,
    /// The sets held aside, to be added to the draw pile later (`add <set>`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aside: Vec<Aside>,
    /// The names of every set the components gave, aside or added since.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sets: Vec<String>,
    /// Every card of the pile by name, with its text (empty if none was given).
    pub cards: BTreeMap<String, String>,
}

/// A set of cards held aside.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Aside {
    pub set: String,
    pub cards: Vec<String>,
}

/// A card in a seat's hand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Held {
    pub card: String,
    /// The pile it belongs to, where it goes when played or returned.
    pub pile: String,
    /// Drawn face up or shown: every seat sees it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub shown: bool,
    /// Came into the hand during the move being carried out: no clause of that move may name
    /// it, so that a refusal never tells what was drawn (cleared when the move ends).
    #[serde(skip)]
    pub fresh: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Every pile and hand of a table with components; empty at a table without.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    pub piles: Vec<Pile>,
    /// Each seat's hand in the order its cards came in (`#1` is the first).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub hands: BTreeMap<Seat, Vec<Held>>,
}

/// A source of hidden draws: a value in `1..=n`.
pub type Hidden<'a> = dyn FnMut(u32) -> Result<u32, RuleError> + 'a;

/// Shuffles `cards` with hidden draws (Fisher–Yates from the last place down, as Searching for
/// Glory's deck; docs/verifying.md, "Cards").
pub fn shuffle(cards: &mut [String], hidden: &mut Hidden) -> Result<(), RuleError> {
    for i in (1..cards.len()).rev() {
        let j = hidden(i as u32 + 1)? as usize - 1;
        cards.swap(i, j);
    }
    Ok(())
}

impl Table {
    pub fn is_empty(&self) -> bool {
        self.piles.is_empty()
    }

    /// The table the components set up: each deck's cards in the order given, shuffled; each
    /// cup's chits in the order given (drawn at random, never shuffled); the sets aside.
    pub fn set_up(defs: &[PileDef], hidden: &mut Hidden) -> Result<Table, RuleError> {
        let mut piles = Vec::new();
        for d in defs {
            let expand = |cards: &[super::components::CardDef]| -> Vec<String> {
                cards
                    .iter()
                    .flat_map(|c| std::iter::repeat_n(c.name.clone(), c.count))
                    .collect()
            };
            let mut cards = BTreeMap::new();
            for c in d.cards.iter().chain(d.sets.iter().flat_map(|(_, s)| s)) {
                let text = cards.entry(c.name.clone()).or_insert_with(String::new);
                if text.is_empty() {
                    text.clone_from(&c.text);
                }
            }
            let mut draw = expand(&d.cards);
            if d.kind == Kind::Deck {
                shuffle(&mut draw, hidden)?;
            }
            piles.push(Pile {
                name: d.name.clone(),
                kind: d.kind,
                title: d.title.clone(),
                draw,
                discard: Vec::new(),
                aside: d
                    .sets
                    .iter()
                    .map(|(set, cards)| Aside {
                        set: set.clone(),
                        cards: expand(cards),
                    })
                    .collect(),
                sets: d.sets.iter().map(|(set, _)| set.clone()).collect(),
                cards,
            });
        }
        Ok(Table {
            piles,
            hands: BTreeMap::new(),
        })
    }

    /// The pile named `name`, or an error listing the table's piles.
    pub fn pile_index(&self, name: &str) -> Result<usize, String> {
        self.piles
            .iter()
            .position(|p| p.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                format!(
                    "there is no deck or cup '{name}' at this table; it has {}",
                    self.pile_names()
                )
            })
    }

    pub fn pile_names(&self) -> String {
        let names: Vec<&str> = self.piles.iter().map(|p| p.name.as_str()).collect();
        crate::engine::words::and_list(&names)
    }

    pub fn hand(&self, seat: &Seat) -> &[Held] {
        self.hands.get(seat).map_or(&[], Vec::as_slice)
    }

    pub fn hand_mut(&mut self, seat: &Seat) -> &mut Vec<Held> {
        self.hands.entry(seat.clone()).or_default()
    }

    /// Forgets which cards came in during the move just carried out; drops empty hands, so
    /// that a table's state has one form.
    pub fn settle(&mut self) {
        for hand in self.hands.values_mut() {
            for h in hand.iter_mut() {
                h.fresh = false;
            }
        }
        self.hands.retain(|_, h| !h.is_empty());
    }

    /// What `viewer` sees: every pile's counts, its discard pile face up and the sets still
    /// aside; each hand's count and shown cards, and the cards of the viewer's own hand (every
    /// hand once the game is over).
    pub fn view(&self, viewer: &Viewer) -> Value {
        let piles: Vec<Value> = self
            .piles
            .iter()
            .map(|p| {
                json!({
                    "name": p.name,
                    "kind": p.kind,
                    "title": p.title,
                    "draw": p.draw.len(),
                    "discard": p.discard,
                    "aside": p.aside.iter().map(|a| json!({"set": a.set, "cards": a.cards.len()})).collect::<Vec<_>>(),
                })
            })
            .collect();
        let hands: BTreeMap<&Seat, Value> = self
            .hands
            .iter()
            .map(|(seat, hand)| {
                let shown: Vec<&str> = hand
                    .iter()
                    .filter(|h| h.shown)
                    .map(|h| h.card.as_str())
                    .collect();
                let mut v = json!({ "count": hand.len(), "shown": shown });
                if viewer.may_see(Some(std::slice::from_ref(seat))) {
                    v["cards"] = json!(hand);
                }
                (seat, v)
            })
            .collect();
        json!({ "piles": piles, "hands": hands })
    }
}
