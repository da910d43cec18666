//! The service's tests: the API, the pages over HTTP, mail in and out, the store on both
//! backends, the clock, the command line, operations and upgrades — one binary that links the server
//! once. The browser's tests are `tests/browser.rs`; the rulesets' are the core's
//! (`crates/core/tests/`).

#[macro_use]
#[path = "../common/mod.rs"]
mod common;

mod api;
mod cli;
mod clock;
mod files;
mod fold_cache;
mod golden_databases;
mod idempotency;
mod live_pages;
mod mail_corpus;
mod mail_in;
mod mail_pipe;
mod mail_postfix;
mod notify;
mod open_table_cards;
mod openapi;
mod operations;
mod outages;
mod play_by_mail;
mod players;
mod reactive_windows;
mod readme;
mod secrets_at_rest;
mod snapshots;
mod store_contract;
mod upgrades;
mod web;
mod where_eagles_dare_examples;
