//! The engine: the ruleset contract, the event envelope and its hash chain, the dice, sealed
//! choices, fold and replay, exports and their offline verification. Pure: no I/O, no clock,
//! no randomness of its own (the caller's [`game::World`] supplies time and fresh secrets).

pub mod board;
pub mod bot;
pub mod canonical;
pub mod dice;
pub mod event;
pub mod export;
pub mod files;
pub mod game;
pub mod golden;
pub mod position;
pub mod replay;
pub mod ruleset;
pub mod sealed;
pub mod snapshot;
pub mod verify;
pub mod witness;
pub mod words;
