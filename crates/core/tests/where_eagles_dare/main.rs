//! Where Eagles Dare's rules, board, bot games and written positions, against the core alone.

#[path = "../common/suggested.rs"]
mod suggested;
#[path = "../common/svg_checks.rs"]
mod svg_checks;
#[path = "../common/written.rs"]
mod written;

mod board;
mod bot;
mod positions;
mod rules;
mod state_wire;
mod suggestions;
