//! Dice expressions as wargamers write them: `3d6`, `2d10+1`, `d100`, `4d6-2`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// `count` dice of `sides` faces, plus `modifier`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceExpr {
    pub count: u32,
    pub sides: u32,
    #[serde(default)]
    pub modifier: i64,
}

pub const MAX_COUNT: u32 = 100;
pub const MAX_SIDES: u32 = 1_000_000;
pub const MAX_MODIFIER: i64 = 1_000_000;

impl FromStr for DiceExpr {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let t = text.trim().to_ascii_lowercase();
        let invalid =
            || format!("'{text}' is not a dice expression; write it like 3d6, 2d10+1 or d100");
        let (count, rest) = t.split_once('d').ok_or_else(invalid)?;
        let count = if count.is_empty() {
            1
        } else {
            count.parse::<u32>().map_err(|_| invalid())?
        };
        let (sides, modifier) = match rest.find(['+', '-']) {
            Some(i) => {
                let m = rest[i + 1..].parse::<i64>().map_err(|_| invalid())?;
                (&rest[..i], if &rest[i..i + 1] == "-" { -m } else { m })
            }
            None => (rest, 0),
        };
        let sides = sides.parse::<u32>().map_err(|_| invalid())?;
        DiceExpr {
            count,
            sides,
            modifier,
        }
        .checked()
        .map_err(|e| format!("'{text}': {e}"))
    }
}

impl DiceExpr {
    /// Refuses expressions outside the table's limits.
    pub fn checked(self) -> Result<Self, String> {
        if self.count == 0 || self.count > MAX_COUNT {
            return Err(format!("roll between 1 and {MAX_COUNT} dice at once"));
        }
        if self.sides < 2 || self.sides > MAX_SIDES {
            return Err(format!("a die has between 2 and {MAX_SIDES} sides"));
        }
        if self.modifier.abs() > MAX_MODIFIER {
            return Err(format!("a modifier is at most {MAX_MODIFIER}"));
        }
        Ok(self)
    }
}

impl fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d{}", self.count, self.sides)?;
        match self.modifier {
            0 => Ok(()),
            m if m > 0 => write!(f, "+{m}"),
            m => write!(f, "{m}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expressions_wargamers_write_are_read() {
        assert_eq!(
            "3d6".parse(),
            Ok(DiceExpr {
                count: 3,
                sides: 6,
                modifier: 0
            })
        );
        assert_eq!(
            "2d10+1".parse(),
            Ok(DiceExpr {
                count: 2,
                sides: 10,
                modifier: 1
            })
        );
        assert_eq!(
            "d100".parse(),
            Ok(DiceExpr {
                count: 1,
                sides: 100,
                modifier: 0
            })
        );
        assert_eq!(
            "4D6-2".parse(),
            Ok(DiceExpr {
                count: 4,
                sides: 6,
                modifier: -2
            })
        );
    }

    #[test]
    fn malformed_or_excessive_expressions_are_refused_with_the_reason() {
        for bad in [
            "", "d", "3x6", "0d6", "3d1", "101d6", "2d6+", "d6+x", "-1d6",
        ] {
            let err = bad.parse::<DiceExpr>().unwrap_err();
            assert!(err.contains(bad) || err.contains("dice"), "{bad}: {err}");
        }
        assert!("101d6"
            .parse::<DiceExpr>()
            .unwrap_err()
            .contains("between 1 and 100"));
    }

    #[test]
    fn display_reads_back_to_the_same_expression() {
        for text in ["1d6", "2d10+1", "4d6-2", "1d100"] {
            let e: DiceExpr = text.parse().unwrap();
            assert_eq!(e.to_string(), text);
        }
    }
}
