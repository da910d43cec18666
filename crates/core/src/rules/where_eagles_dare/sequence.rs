//! The fixed points of the sequence of play the chapters share: the turns of a day (1.1, by
//! their index in `data::TURNS`) and the start of step 6. A leaf under the chapters: the turn,
//! the chits, supply and the special rules all name them.

use super::state::{Phase, Side, State};

pub const T0700: usize = 0;
pub const T0900: usize = 1;
pub const T1100: usize = 2;
pub const T1300: usize = 3;
pub const T1500: usize = 4;
pub const T1700: usize = 5;
pub const T1900: usize = 6;
pub const NIGHT: usize = 7;

/// Step 6 begins: the Allied player buys first, then the German.
pub fn to_buy(s: &mut State) {
    s.bought.clear();
    s.phase = Phase::Buy { side: Side::Allied };
}
