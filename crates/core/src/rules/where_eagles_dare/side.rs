//! The two sides, as seats. A leaf: the data, the order of battle and the state all name it.

use serde::{Deserialize, Serialize};

use crate::engine::ruleset::Seat;

/// The two sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Allied,
    German,
}

impl Side {
    pub fn seat(self) -> Seat {
        Seat::parse(self.name()).expect("a seat id")
    }
    pub fn name(self) -> &'static str {
        match self {
            Side::Allied => "allied",
            Side::German => "german",
        }
    }
    pub fn of(seat: &Seat) -> Option<Side> {
        match seat.as_str() {
            "allied" => Some(Side::Allied),
            "german" => Some(Side::German),
            _ => None,
        }
    }
    pub fn other(self) -> Side {
        match self {
            Side::Allied => Side::German,
            Side::German => Side::Allied,
        }
    }
}
