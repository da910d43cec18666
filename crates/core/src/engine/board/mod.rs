//! The board toolkit: a ruleset describes its board as data — a hex or square grid, the ground
//! of each cell, the pieces with their state, markers, highlights, a legend and a few lines of
//! notes — and [`render`] draws it as one self-contained SVG element for the pages.
//!
//! The drawing has no scripts and no external references; it scales by its `viewBox`; every
//! cell carries a `<title>` with its label (shown on hover) and `data-cell`, every piece
//! `data-piece`, so a browser test or a click-to-order script can find them. Colours come from
//! CSS classes ([`STYLE`], which also darkens them under `prefers-color-scheme: dark`), with
//! the light colours repeated as presentation attributes so the drawing keeps its colours where
//! a page's content security policy drops the `<style>` block. Every text is at least 11 px
//! when the drawing is shown 390 px wide (see [`Board::min_font`]). docs/web.md, "Drawing a
//! board", says how a ruleset uses it.
//!
//! The parts: `model` says what a board is, `layout` where each thing goes, `render` draws
//! the layers, `piece` each piece and `legend` the key under the map. `hand` is a seat's cards,
//! drawn by the page beside the board.

mod hand;
mod layout;
mod legend;
mod model;
mod piece;
mod render;

pub use hand::{Card, Gather, Hand};
pub use layout::{POINT, TAP_PX};
pub use model::*;
pub use render::{esc, render};

/// The stylesheet of every board: the palette by class, and darker under
/// `prefers-color-scheme: dark`. The page's stylesheet carries it too (`http::assets` serves
/// it after static/style.css).
pub const STYLE: &str = include_str!("board.css");

#[cfg(test)]
mod tests;
