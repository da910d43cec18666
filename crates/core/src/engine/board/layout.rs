//! Where things go on a board: its size in drawing units, each cell's centre, the room a
//! cell gives its pieces, and the font that stays legible on a phone.

use super::{At, Board, Grid, Link, Shape};

/// Hex circumradius and square side, in drawing units.
pub(super) const HEX: f64 = 60.0;
pub(super) const SQUARE: f64 = 44.0;
/// A point-to-point map's coordinate unit.
pub const POINT: f64 = 10.0;
pub(super) const MARGIN: f64 = 40.0;
/// The narrowest screen the drawing must stay legible on.
pub(super) const PHONE: f64 = 390.0;
pub(super) const MIN_PX: f64 = 11.0;
/// The smallest square a finger taps on a phone, in CSS px (docs/web.md, "Drawing a board").
pub const TAP_PX: f64 = 32.0;

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

    /// The width in CSS px at which a square is [`TAP_PX`] across, when drawn 390 px wide
    /// (the phone's width) it would be smaller: the page then draws the board that wide inside
    /// its own scrolling box (`data-tap-width`, static/table.js), so a square is tapped without
    /// zooming first. `None` on other grids and where the squares are large enough.
    pub fn tap_width(&self) -> Option<f64> {
        match self.grid {
            Grid::Square { .. } => {
                let at_phone = SQUARE * PHONE / self.width();
                (at_phone < TAP_PX).then(|| (self.width() * TAP_PX / SQUARE).ceil())
            }
            _ => None,
        }
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

/// How a piece's label and value are set in its slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Text {
    /// The label in the middle, the value in the lower right corner.
    Beside,
    /// The label over the value: a piece taller than it is wide.
    Stacked,
    /// None: a badge too small for text at the board's least size (its `<title>` says what it
    /// is; the legend says what its shape means).
    Badge,
}

/// Where one piece on a cell stands, from the cell's centre, and how large it is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Slot {
    pub dx: f64,
    pub dy: f64,
    /// Half its width and half its height.
    pub hw: f64,
    pub hh: f64,
    pub text: Text,
}

impl Slot {
    fn square(dx: f64, dy: f64, size: f64, text: Text) -> Slot {
        Slot {
            dx,
            dy,
            hw: size / 2.0,
            hh: size / 2.0,
            text,
        }
    }
}

/// Where each of the pieces of `shapes`, sharing one cell `inner` across, stands, with text
/// at least `font` high (the board's least size, 11 px on a phone, is never shrunk):
///
/// - one piece fills the cell;
/// - one counter with one or two leaders or markers: the counter as large as it is alone, a
///   little aside, and the others as badges beside it (with their label where it fits);
/// - two counters: side by side, each as tall as a counter alone, the label over the value;
///   where two labels do not fit side by side (a wide board's least font is large), a stack
///   whose top counter alone carries its label;
/// - otherwise (or where text would not fit so): a quarter of the cell each.
pub(super) fn slots(shapes: &[Shape], inner: f64, font: f64) -> Vec<Slot> {
    let n = shapes.len();
    if n <= 1 {
        return vec![Slot::square(0.0, 0.0, inner * 0.8, Text::Beside); n];
    }
    let is_counter = |s: &Shape| matches!(s, Shape::Counter | Shape::Card);
    let counters = shapes.iter().filter(|s| is_counter(s)).count();
    let others = n - counters;
    // A label of two letters in bold is up to about 1.45 `font` wide ("Re" in DejaVu Sans
    // Bold, the browsers' sans-serif here, is 1.44 em).
    let label_fits = |width: f64| width >= font * 1.45;
    if counters == 1 && others <= 2 {
        let badge = inner * 0.3;
        let badge_text = if label_fits(badge) {
            Text::Beside
        } else {
            Text::Badge
        };
        let mut badge_no = 0.0;
        return shapes
            .iter()
            .map(|s| {
                if is_counter(s) {
                    Slot::square(-inner * 0.1, 0.0, inner * 0.72, Text::Beside)
                } else {
                    let dy = (badge_no - (others as f64 - 1.0) / 2.0) * badge * 1.15;
                    badge_no += 1.0;
                    Slot::square(inner * 0.42, dy, badge, badge_text)
                }
            })
            .collect();
    }
    // Two tall pieces side by side fill the hex's middle band (a neighbour's piece stands
    // beyond 0.6 of `inner` from this centre). The label's baseline sits 0.95 `font` below the
    // top, the value's 0.2 above the bottom, and a digit stands about 0.72 `font` high: the two
    // clear each other from 1.9 `font` up.
    let (tall_w, tall_h) = (inner * 0.56, inner * 0.8);
    if n == 2 && (counters == 2 || others == 2) && label_fits(tall_w) && tall_h >= font * 2.0 {
        return (0..2)
            .map(|i| {
                let dx = if i == 0 { -0.3 } else { 0.3 } * inner;
                if is_counter(&shapes[i]) {
                    Slot {
                        dx,
                        dy: 0.0,
                        hw: tall_w / 2.0,
                        hh: tall_h / 2.0,
                        text: Text::Stacked,
                    }
                } else {
                    Slot::square(dx, 0.0, tall_w, Text::Beside)
                }
            })
            .collect();
    }
    if n == 2 && counters == 2 {
        // Too narrow for two labels side by side: a stack, as on the table — the one beneath
        // peeks out up and to the left, the one on top carries its label (each piece's title
        // names it).
        return vec![
            Slot::square(-inner * 0.1, -inner * 0.1, inner * 0.7, Text::Badge),
            Slot::square(inner * 0.04, inner * 0.04, inner * 0.8, Text::Beside),
        ];
    }
    (0..n)
        .map(|i| {
            let (dx, dy) = match i % 4 {
                0 => (-0.25, -0.25),
                1 => (0.25, -0.25),
                2 => (-0.25, 0.25),
                _ => (0.25, 0.25),
            };
            Slot::square(dx * inner, dy * inner, inner * 0.48, Text::Beside)
        })
        .collect()
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
