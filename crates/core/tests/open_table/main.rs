//! The open table's bot games and written positions, against the core alone.

#[path = "../common/written.rs"]
mod written;

mod bot;
mod cards;
mod hidden_hands;
mod positions;
