//! Intelligence and the score: the ten cards (nine of a colour and a country, and the Stronghold
//! Map), dealt face down one to a room from the hidden stream (summary, "Setup"; "Intelligence
//! cards"), and the sets that score when their holders escape (summary, "Winning the game").

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::engine::dice::DiceStream;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    Red,
    Blue,
    Green,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Country {
    Gb,
    Usa,
    Ussr,
}

/// An intelligence card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "card")]
pub enum Card {
    Intel { colour: Colour, country: Country },
    StrongholdMap,
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Card::StrongholdMap => f.write_str("the Stronghold Map"),
            Card::Intel { colour, country } => {
                let c = match colour {
                    Colour::Red => "red",
                    Colour::Blue => "blue",
                    Colour::Green => "green",
                };
                let n = match country {
                    Country::Gb => "Great Britain",
                    Country::Usa => "U.S.A.",
                    Country::Ussr => "U.S.S.R.",
                };
                write!(f, "{c} {n}")
            }
        }
    }
}

/// The ten cards: the manual says nine cards form sets of colour (red, blue, green) and country
/// (Great Britain, U.S.A., U.S.S.R.); the project deals one of each colour–country pair, which
/// is the only split that lets its scoring example (three G.B. and three red cards) hold.
pub fn deck() -> Vec<Card> {
    let mut d = Vec::new();
    for colour in [Colour::Red, Colour::Blue, Colour::Green] {
        for country in [Country::Gb, Country::Usa, Country::Ussr] {
            d.push(Card::Intel { colour, country });
        }
    }
    d.push(Card::StrongholdMap);
    d
}

/// Shuffles the deck with the hidden stream (Fisher–Yates).
pub fn shuffled(hidden: &mut DiceStream) -> Vec<Card> {
    let mut d = deck();
    for i in (1..d.len()).rev() {
        let j = hidden.roll(i as u32 + 1) as usize - 1;
        d.swap(i, j);
    }
    d
}

/// Points for cards carried out of the stronghold (summary, "Winning the game"): 2 for three of
/// a colour, 1 for three of a country, 1 for the Map. A card may count in a colour set and in a
/// country set (the manual's scoring example does).
pub fn score(cards: &[Card]) -> u32 {
    let mut points = 0;
    for colour in [Colour::Red, Colour::Blue, Colour::Green] {
        let n = cards
            .iter()
            .filter(|c| matches!(c, Card::Intel { colour: k, .. } if *k == colour))
            .count();
        points += 2 * (n / 3) as u32;
    }
    for country in [Country::Gb, Country::Usa, Country::Ussr] {
        let n = cards
            .iter()
            .filter(|c| matches!(c, Card::Intel { country: k, .. } if *k == country))
            .count();
        points += (n / 3) as u32;
    }
    if cards.contains(&Card::StrongholdMap) {
        points += 1;
    }
    points
}

/// Points the Intruders need (summary, "Winning the game"): 2, 4 or 6 for 1, 2 or 3 Intruders.
pub fn needed(intruders: usize) -> u32 {
    match intruders {
        1 => 2,
        2 => 4,
        _ => 6,
    }
}

/// Defender points (manual, "Defender: scoring & winning").
pub const DEFENDER_WINS: u32 = 10;
pub const DEFENDER_ABORT: u32 = 6;
pub const DEFENDER_LOSES: u32 = 0;
