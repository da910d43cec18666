//! Despatch: board wargames played asynchronously, by email and over the web, on an immutable
//! event log with dice anyone can check.
//!
//! This crate is the server: the games service, the store, the faces (HTTP, notify, inbound
//! mail, the command line). The engine and the rulesets are the core crate (`crates/core`),
//! which does no I/O and builds without any of this; they are re-exported here as
//! `despatch::engine` and `despatch::rules`.

pub use despatch_core::{engine, rules};

pub mod cli;
pub mod config;
pub mod games;
pub mod http;
pub mod mail_in;
pub mod metrics;
pub mod notify;
pub mod store;
