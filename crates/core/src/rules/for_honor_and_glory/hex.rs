//! Hexes of the land map: the `C5` names the order language uses, neighbours, distances and the
//! straight line between two hex centres that line of sight (8.2) follows.
//!
//! Columns are letters (A is the westernmost), rows are numbers counted from 1 at the north
//! edge. Hexes are flat-topped and odd columns (B, D, F …) sit half a hex lower than even ones,
//! so that `C5`'s neighbours are C4, C6, B4, B5, D4 and D5 (and `D5`'s are D4, D6, C5, C6, E5
//! and E6).

use std::borrow::Cow;
use std::fmt;
use std::sync::OnceLock;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One hex of the map, by column and row (both from 0 inside; shown as `C5`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hex {
    pub col: u8,
    pub row: u8,
}

/// The most columns a map may have: one letter each.
pub const MAX_COLS: u8 = 26;
/// The most rows a map may have.
pub const MAX_ROWS: u8 = 99;

impl Hex {
    pub fn new(col: u8, row: u8) -> Hex {
        Hex { col, row }
    }

    /// Reads `C5` (case-insensitive). Says what is wrong in a player's words.
    pub fn parse(text: &str) -> Result<Hex, String> {
        // The plain forms, `C5` and `C15`, read byte by byte: every hex of a re-fold passes
        // here. The rest (and every error) takes the general way below.
        let row = match *text.as_bytes() {
            [c, d @ b'1'..=b'9'] if c.is_ascii_alphabetic() => Some((c, d - b'0')),
            [c, d @ b'1'..=b'9', e @ b'0'..=b'9'] if c.is_ascii_alphabetic() => {
                Some((c, (d - b'0') * 10 + e - b'0'))
            }
            _ => None,
        };
        if let Some((c, row)) = row {
            return Ok(Hex {
                col: c.to_ascii_uppercase() - b'A',
                row: row - 1,
            });
        }
        let text = text.trim();
        let mut chars = text.chars();
        let letter = chars
            .next()
            .filter(char::is_ascii_alphabetic)
            .ok_or_else(|| {
                format!("'{text}' is not a hex: write a column letter and a row number, like C5")
            })?;
        let digits = chars.as_str();
        let row: u8 = digits
            .parse()
            .ok()
            .filter(|r| (1..=MAX_ROWS).contains(r))
            .ok_or_else(|| {
                format!("'{text}' is not a hex: write a column letter and a row number, like C5")
            })?;
        Ok(Hex {
            col: letter.to_ascii_uppercase() as u8 - b'A',
            row: row - 1,
        })
    }

    /// Cube coordinates of this hex (odd-q offset layout).
    fn cube(self) -> (i32, i32, i32) {
        let q = i32::from(self.col);
        let r = i32::from(self.row) - (q - (q & 1)) / 2;
        (q, r, -q - r)
    }

    fn from_cube(q: i32, r: i32) -> Option<Hex> {
        let row = r + (q - (q & 1)) / 2;
        let on_grid =
            (0..i32::from(MAX_COLS)).contains(&q) && (0..i32::from(MAX_ROWS)).contains(&row);
        on_grid.then(|| Hex::new(q as u8, row as u8))
    }

    /// Hexes apart, along the grid.
    pub fn distance(self, other: Hex) -> u32 {
        let (a, b, c) = self.cube();
        let (x, y, z) = other.cube();
        ((a - x).abs() + (b - y).abs() + (c - z).abs()) as u32 / 2
    }

    /// The (up to) six neighbours in a fixed order, ignoring the map's size.
    pub fn neighbours(self) -> impl Iterator<Item = Hex> {
        const DIRS: [(i32, i32); 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)];
        let (q, r, _) = self.cube();
        DIRS.into_iter()
            .filter_map(move |(dq, dr)| Hex::from_cube(q + dq, r + dr))
    }

    pub fn is_adjacent(self, other: Hex) -> bool {
        self.distance(other) == 1
    }

    /// Are `self` and `other` directly opposite each other with `middle` between them (11.9):
    /// the three centres on one straight line, `middle` strictly between, at any distances?
    /// (Axial coordinates map linearly onto the plane, so parallel there is parallel on the map.)
    pub fn opposite_across(self, middle: Hex, other: Hex) -> bool {
        let (a, b, _) = self.cube();
        let (m, n, _) = middle.cube();
        let (c, d, _) = other.cube();
        let (vq, vr) = (a - m, b - n);
        let (wq, wr) = (c - m, d - n);
        (vq, vr) != (0, 0) && (wq, wr) != (0, 0) && vq * wr == vr * wq && vq * wq + vr * wr < 0
    }

    /// The hex centre in map units (hex width 2): x grows eastward, y southward.
    pub fn centre(self) -> (f64, f64) {
        let x = 1.5 * f64::from(self.col);
        let y = 3f64.sqrt() * (f64::from(self.row) + 0.5 * f64::from(self.col & 1));
        (x, y)
    }

    /// The hexes strictly between `self` and `to` on the line joining their centres, from
    /// `self`. Each step is one hex the line passes through, or two hexes when the line runs
    /// exactly along the hexside between them.
    pub fn line_to(self, to: Hex) -> impl Iterator<Item = LineStep> {
        let (a, b, _) = self.cube();
        let (x, y, _) = to.cube();
        let steps = line_offsets(x - a, y - b);
        (0..steps.len()).filter_map(move |i| {
            let [p, q] = steps[i];
            match (
                Hex::from_cube(a + p.0, b + p.1),
                Hex::from_cube(a + q.0, b + q.1),
            ) {
                (Some(h1), Some(h2)) if h1 == h2 => Some(LineStep::Through(h1)),
                (Some(h1), Some(h2)) => Some(LineStep::Hexside(h1.min(h2), h1.max(h2))),
                (Some(h), None) | (None, Some(h)) => Some(LineStep::Through(h)),
                (None, None) => None,
            }
        })
    }
}

/// A line's steps as cube offsets from its start: for each step, the hex on either side of the
/// line's centre, nudged apart (the same hex but where the line runs along a hexside).
type Offsets = Vec<[(i32, i32); 2]>;

/// The farthest a line is kept ready, in each cube coordinate: past every range of fire.
const LINES_KEPT: i32 = 16;

/// The steps of the line from the cube origin to `(dq, dr)`. A line in cube coordinates is the
/// same from every hex, moved: the lines of sight within `LINES_KEPT` are worked out once and
/// kept, as every check of every fire looks along one.
fn line_offsets(dq: i32, dr: i32) -> Cow<'static, [[(i32, i32); 2]]> {
    static KEPT: OnceLock<Vec<Offsets>> = OnceLock::new();
    let side = 2 * LINES_KEPT + 1;
    if dq.abs() > LINES_KEPT || dr.abs() > LINES_KEPT {
        return Cow::Owned(line_offsets_worked_out(dq, dr));
    }
    let kept = KEPT.get_or_init(|| {
        (0..side * side)
            .map(|i| line_offsets_worked_out(i / side - LINES_KEPT, i % side - LINES_KEPT))
            .collect()
    });
    Cow::Borrowed(&kept[((dq + LINES_KEPT) * side + dr + LINES_KEPT) as usize])
}

/// The line from the cube origin to `(dq, dr)`, sampled at each hex's distance along it and
/// rounded to the hexes on either side of the exact point.
fn line_offsets_worked_out(dq: i32, dr: i32) -> Offsets {
    let (x, y, z) = (dq, dr, -dq - dr);
    let n = (x.abs() + y.abs() + z.abs()) / 2;
    (1..n)
        .map(|i| {
            let t = f64::from(i) / f64::from(n);
            let at = |sign: f64| {
                cube_round(
                    f64::from(x) * t + sign * 1e-6,
                    f64::from(y) * t + sign * 2e-6,
                    f64::from(z) * t - sign * 3e-6,
                )
            };
            [at(1.0), at(-1.0)]
        })
        .collect()
}

/// One step of a line of sight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineStep {
    /// The line passes through this hex.
    Through(Hex),
    /// The line runs along the hexside between these two hexes.
    Hexside(Hex, Hex),
}

fn cube_round(x: f64, y: f64, z: f64) -> (i32, i32) {
    let (mut rx, mut ry, rz) = (x.round(), y.round(), z.round());
    let (dx, dy, dz) = ((rx - x).abs(), (ry - y).abs(), (rz - z).abs());
    if dx > dy && dx > dz {
        rx = -ry - rz;
    } else if dy > dz {
        ry = -rx - rz;
    }
    (rx as i32, ry as i32)
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'A' + self.col) as char,
            u32::from(self.row) + 1
        )
    }
}

impl Serialize for Hex {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Hex {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Hex, D::Error> {
        let text = <Cow<'de, str>>::deserialize(d)?;
        Hex::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The line as first written: worked out from both hexes' own cube coordinates.
    fn line_from_scratch(from: Hex, to: Hex) -> Vec<LineStep> {
        let n = from.distance(to);
        let (a, b, c) = from.cube();
        let (x, y, z) = to.cube();
        (1..n)
            .filter_map(|i| {
                let t = f64::from(i) / f64::from(n);
                let lerp =
                    |p: i32, q: i32, e: f64| f64::from(p) + (f64::from(q) - f64::from(p)) * t + e;
                let at = |sign: f64| {
                    cube_round(
                        lerp(a, x, sign * 1e-6),
                        lerp(b, y, sign * 2e-6),
                        lerp(c, z, -sign * 3e-6),
                    )
                };
                let (p, q) = (at(1.0), at(-1.0));
                match (Hex::from_cube(p.0, p.1), Hex::from_cube(q.0, q.1)) {
                    (Some(h1), Some(h2)) if h1 == h2 => Some(LineStep::Through(h1)),
                    (Some(h1), Some(h2)) => Some(LineStep::Hexside(h1.min(h2), h1.max(h2))),
                    (Some(h), None) | (None, Some(h)) => Some(LineStep::Through(h)),
                    (None, None) => None,
                }
            })
            .collect()
    }

    #[test]
    fn kept_lines_moved_to_each_hex_are_the_lines_worked_out_from_it() {
        let hexes: Vec<Hex> = (0..20)
            .flat_map(|c| (0..24).map(move |r| Hex::new(c, r)))
            .collect();
        let mut along_hexsides = 0;
        for &from in &hexes {
            for &to in &hexes {
                let line: Vec<LineStep> = from.line_to(to).collect();
                assert_eq!(line, line_from_scratch(from, to), "{from} to {to}");
                along_hexsides += line
                    .iter()
                    .filter(|s| matches!(s, LineStep::Hexside(..)))
                    .count();
            }
        }
        // The comparison covers lines along hexsides, and lines longer than those kept.
        assert!(along_hexsides > 0);
        assert!(Hex::new(0, 0).distance(Hex::new(19, 23)) > LINES_KEPT as u32);
    }
}
