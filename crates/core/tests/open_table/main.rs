//! The open table's bot games, against the core alone.

mod bot;
