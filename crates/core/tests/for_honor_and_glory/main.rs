//! For Honor and Glory's rules, worked examples, order language and bot games, against the core alone.

mod bot;
mod examples;
mod orders;
mod rules;
