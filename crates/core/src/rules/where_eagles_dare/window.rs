//! The part of the map a board draws (`drawn`), which the places on it (`places`) and the
//! orders pointed at it (`legal`) are clipped to.

use crate::engine::board::At;

use super::hex::Hex;

/// The widest window drawn: 14 columns keep the toolkit's 11-px text smaller than a hex.
pub const MAX_COLS: u16 = 14;
/// The tallest window drawn (rows do not shrink the text).
pub const MAX_ROWS: u16 = 18;

/// The part of the map drawn: columns `c0..c0+cols`, rows `r0..r0+rows`. `c0` is odd, so the
/// series' even columns fall on the toolkit's lowered (odd-index) columns, as 11. reads the
/// adjacency: an odd column's hex touches rows `r-1` and `r` of the columns beside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub c0: u16,
    pub r0: u16,
    pub cols: u16,
    pub rows: u16,
}

impl Window {
    pub fn contains(&self, h: Hex) -> bool {
        h.col >= self.c0
            && h.col < self.c0 + self.cols
            && h.row >= self.r0
            && h.row < self.r0 + self.rows
    }

    pub(super) fn at(&self, h: Hex) -> At {
        At::new(h.col - self.c0, h.row - self.r0)
    }

    /// A window of `cols` by `rows` with `(c, r)` as its first column and row, `c` made odd.
    pub(super) fn new(c: u16, r: u16, cols: u16, rows: u16) -> Window {
        let c0 = if c % 2 == 1 {
            c
        } else if c >= 2 {
            c - 1
        } else {
            1
        };
        Window {
            c0,
            r0: r.max(1),
            cols: (cols + (c0 != c) as u16).min(MAX_COLS),
            rows: rows.min(MAX_ROWS),
        }
    }
}
