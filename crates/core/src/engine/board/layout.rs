//! Where things go on a board: its size in drawing units, each cell's centre, the room a
//! cell gives its pieces, and the font that stays legible on a phone.

use super::{At, Board, Grid, Link};

/// Hex circumradius and square side, in drawing units.
pub(super) const HEX: f64 = 60.0;
pub(super) const SQUARE: f64 = 44.0;
/// A point-to-point map's coordinate unit.
pub const POINT: f64 = 10.0;
pub(super) const MARGIN: f64 = 40.0;
/// The narrowest screen the drawing must stay legible on.
pub(super) const PHONE: f64 = 390.0;
pub(super) const MIN_PX: f64 = 11.0;

impl Board {
    /// The map's size in drawing units (without the margins).
    pub(super) fn map_size(&self) -> (f64, f64) {
        match self.grid {
            Grid::Hex { cols, rows } => (
                HEX * (1.5 * f64::from(cols) + 0.5),
                HEX * 3f64.sqrt() * (f64::from(rows) + 0.5),
            ),
            Grid::Square { cols, rows } => (SQUARE * f64::from(cols), SQUARE * f64::from(rows)),
            Grid::Points { cols, rows, .. } => (POINT * f64::from(cols), POINT * f64::from(rows)),
        }
    }

    /// The drawing's width in units.
    pub fn width(&self) -> f64 {
        self.map_size().0 + 2.0 * MARGIN
    }

    /// The smallest font size, in drawing units, that is still 11 px when the drawing is
    /// 390 px wide.
    pub fn min_font(&self) -> f64 {
        (MIN_PX * self.width() / PHONE).ceil()
    }

    /// A cell's centre in drawing units.
    pub(super) fn centre(&self, at: At) -> (f64, f64) {
        match self.grid {
            Grid::Hex { .. } => {
                let x = MARGIN + HEX + 1.5 * HEX * f64::from(at.col);
                let y = MARGIN
                    + 3f64.sqrt() * HEX * (f64::from(at.row) + 0.5 + 0.5 * f64::from(at.col & 1));
                (x, y)
            }
            Grid::Square { .. } => (
                MARGIN + SQUARE * (f64::from(at.col) + 0.5),
                MARGIN + SQUARE * (f64::from(at.row) + 0.5),
            ),
            Grid::Points { .. } => (
                MARGIN + POINT * f64::from(at.col),
                MARGIN + POINT * f64::from(at.row),
            ),
        }
    }

    /// The size of a cell's inside, where pieces stand; on a point-to-point map, the size of
    /// one piece (its label and its value each a line of the smallest legible font).
    pub(super) fn inner(&self) -> f64 {
        match self.grid {
            Grid::Hex { .. } => HEX * 1.5,
            Grid::Square { .. } => SQUARE * 0.9,
            Grid::Points { .. } => self.min_font() * 2.1,
        }
    }

    pub(super) fn points(&self) -> bool {
        matches!(self.grid, Grid::Points { .. })
    }

    /// A location's radius on a point-to-point map.
    pub(super) fn spot(&self) -> f64 {
        self.min_font() * 0.75
    }

    /// The width of a line's core over the map ([`Highlight::Path`], `Retreat`, `Fire`): at
    /// least 2.5 px on a 390-px phone, and a ninth of a cell's inside.
    pub fn line_width(&self) -> f64 {
        (self.width() / PHONE * 2.5).max(self.inner() * 0.11)
    }

    /// The lines between locations (a point-to-point map's only).
    pub(super) fn links(&self) -> &[Link] {
        match &self.grid {
            Grid::Points { links, .. } => links,
            _ => &[],
        }
    }
}

/// `text` cut into lines of at most `chars` characters, at spaces where it can.
pub(super) fn wrap(text: &str, chars: usize) -> Vec<String> {
    let chars = chars.max(8);
    let mut lines = Vec::new();
    let mut current = String::new();
    for word in text.split(' ') {
        let len = current.chars().count();
        if len > 0 && len + 1 + word.chars().count() > chars {
            lines.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(word);
    }
    if !current.is_empty() {
        lines.push(current);
    }
    lines
}

/// Where the `i`-th of `n` pieces on a cell stands, and its size.
pub(super) fn slot(i: usize, n: usize, inner: f64) -> (f64, f64, f64) {
    if n <= 1 {
        return (0.0, 0.0, inner * 0.8);
    }
    let size = inner * 0.48;
    let (dx, dy) = match i % 4 {
        0 => (-0.25, -0.25),
        1 => (0.25, -0.25),
        2 => (-0.25, 0.25),
        _ => (0.25, 0.25),
    };
    (dx * inner, dy * inner, size)
}

/// Where the `i`-th of `n` pieces at a location of a point-to-point map stands: three to a row
/// under its point, each row centred.
pub(super) fn point_slot(i: usize, n: usize, size: f64, spot: f64) -> (f64, f64) {
    let row = i / 3;
    let in_row = (n - row * 3).min(3);
    let col = (i % 3) as f64 - (in_row as f64 - 1.0) / 2.0;
    let step = size * 1.08;
    (col * step, spot + 6.0 + size / 2.0 + row as f64 * step)
}

/// The six corners of a hex centred on (`x`, `y`), as an SVG `points` list.
pub(super) fn hex_points(x: f64, y: f64) -> String {
    let pts: Vec<String> = (0..6)
        .map(|i| {
            let a = std::f64::consts::PI / 3.0 * f64::from(i);
            format!("{:.1},{:.1}", x + HEX * a.cos(), y + HEX * a.sin())
        })
        .collect();
    pts.join(" ")
}
