//! Hour of Glory's rules, tables, pointing, starting play, bot games and written positions, against the core alone.

#[path = "../common/written.rs"]
mod written;

#[path = "../common/scripted.rs"]
mod scripted;

mod bot;
mod pointing;
mod positions;
mod rules;
mod starting_play;
mod tables;
