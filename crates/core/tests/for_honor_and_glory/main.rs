//! For Honor and Glory's rules, worked examples, order language, bot games and written positions, against the core alone.

#[path = "../common/written.rs"]
mod written;

mod bot;
mod examples;
mod orders;
mod positions;
mod rules;
