//! Hex ids as the map prints them, `<column>.<row>` (`56.201`), and their adjacency.
//!
//! Adjacency is reconstructed from the hexside pairs the exclusive rules name (2.11, 2.17 and
//! the play note of 2.0): a hex touches the hexes above and below it in its column; in an odd
//! column it touches rows `r-1` and `r` of the columns either side, in an even column rows `r`
//! and `r+1` (55.202/56.201, 75.130/76.130, 76.127/77.127, 86.118/87.118).

use std::fmt;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Hex {
    pub col: u16,
    pub row: u16,
}

impl Hex {
    /// Reads `56.201`; `None` for anything else.
    pub fn parse(text: &str) -> Option<Hex> {
        let (c, r) = text.split_once('.')?;
        let digits =
            |s: &str| !s.is_empty() && s.len() <= 3 && s.bytes().all(|b| b.is_ascii_digit());
        if !digits(c) || !digits(r) {
            return None;
        }
        Some(Hex {
            col: c.parse().ok()?,
            row: r.parse().ok()?,
        })
    }

    /// Do the two hexes share a hexside?
    pub fn adjacent(self, other: Hex) -> bool {
        let (c, r) = (i32::from(self.col), i32::from(self.row));
        let (oc, or) = (i32::from(other.col), i32::from(other.row));
        if c == oc {
            return (r - or).abs() == 1;
        }
        if (c - oc).abs() != 1 {
            return false;
        }
        if c % 2 == 1 {
            or == r - 1 || or == r
        } else {
            or == r || or == r + 1
        }
    }

    /// The number of hexes from this one to `other`, by the adjacency above.
    pub fn distance(self, other: Hex) -> u32 {
        let axial = |h: Hex| {
            let q = i32::from(h.col);
            (q, i32::from(h.row) - (q + 1) / 2)
        };
        let (q1, r1) = axial(self);
        let (q2, r2) = axial(other);
        let (dq, dr) = (q2 - q1, r2 - r1);
        ((dq.abs() + dr.abs() + (dq + dr).abs()) / 2) as u32
    }

    /// The six hexes that share a hexside with this one (rows and columns from 1).
    pub fn neighbours(self) -> Vec<Hex> {
        let (c, r) = (i32::from(self.col), i32::from(self.row));
        let side = if c % 2 == 1 { [r - 1, r] } else { [r, r + 1] };
        let mut out = vec![(c, r - 1), (c, r + 1)];
        for dc in [-1, 1] {
            for row in side {
                out.push((c + dc, row));
            }
        }
        out.into_iter()
            .filter(|&(c, r)| c >= 1 && r >= 1 && c < 1000 && r < 1000)
            .map(|(c, r)| Hex {
                col: c as u16,
                row: r as u16,
            })
            .collect()
    }
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.col, self.row)
    }
}

impl TryFrom<String> for Hex {
    type Error = String;
    fn try_from(s: String) -> Result<Hex, String> {
        Hex::parse(&s)
            .ok_or_else(|| format!("'{s}' is not a hex: write it as the map does, 56.201"))
    }
}

impl From<Hex> for String {
    fn from(h: Hex) -> String {
        h.to_string()
    }
}
