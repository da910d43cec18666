//! Despatch's core: the engine (the ruleset contract, events and their hash chain, dice, sealed
//! choices, create/play/fold, exports and their offline verification, the bot) and the rulesets
//! (Hour of Glory, For Honor and Glory, Searching for Glory, Where Eagles Dare and the open
//! table).
//!
//! Pure and deterministic: this crate depends on nothing that does I/O (no tokio, actix, sqlx or
//! lettre), so a ruleset cannot reach a socket, a database or the clock, and a log can be
//! verified with this crate alone. The server (`despatch`) builds on it.

pub mod engine;
pub mod rules;
