//! Where Eagles Dare's rules, board and bot games, against the core alone.

#[path = "../common/suggested.rs"]
mod suggested;
#[path = "../common/svg_checks.rs"]
mod svg_checks;

mod board;
mod bot;
mod positions;
mod rules;
mod state_wire;
mod suggestions;
