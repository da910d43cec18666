//! Searching for Glory's rules, worked examples, battle play and bot games, against the core alone.

#[path = "../common/scripted.rs"]
mod scripted;

#[path = "../common/sfg_seats.rs"]
mod sfg_seats;

// The harness includes `sfg_seats` itself, for its default set-ups.
#[allow(clippy::duplicate_mod)]
#[path = "../common/written.rs"]
mod written;

mod battle_play;
mod bot;
mod positions;
mod rules;
mod worked;
