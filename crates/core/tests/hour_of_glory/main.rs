//! Hour of Glory's rules, tables, pointing, starting play and bot games, against the core alone.

#[path = "../common/scripted.rs"]
mod scripted;

mod bot;
mod pointing;
mod rules;
mod starting_play;
mod tables;
