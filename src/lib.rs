//! Despatch: board wargames played asynchronously, by email and over the web, on an immutable
//! event log with dice anyone can check.
//!
//! `engine` and `rules` are pure and build without the server (`--no-default-features`), which
//! keeps rules work quick to compile and lets the verifier build for WebAssembly; everything
//! that does I/O sits behind the `server` feature.

pub mod engine;
pub mod rules;

#[cfg(feature = "server")]
pub mod cli;
#[cfg(feature = "server")]
pub mod config;
#[cfg(feature = "server")]
pub mod games;
#[cfg(feature = "server")]
pub mod http;
#[cfg(feature = "server")]
pub mod mail_in;
#[cfg(feature = "server")]
pub mod metrics;
#[cfg(feature = "server")]
pub mod notify;
#[cfg(feature = "server")]
pub mod store;
