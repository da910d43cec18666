//! Searching for Glory's rules, worked examples, battle play and bot games, against the core alone.

#[path = "../common/scripted.rs"]
mod scripted;

#[path = "../common/sfg_seats.rs"]
mod sfg_seats;

mod battle_play;
mod bot;
mod rules;
mod worked;
