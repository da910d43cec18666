//! Position statements of procedures under way (issue 39), read and written here: a demolition
//! window open (2.15.6), an assault declared waiting for its die (S4.4), an Air Strike's
//! Typhoons being placed or attacking (S3.1), and Joe Mann's chance after a loss (S6.9).

use super::super::state::{Assault, Demolition, MannChance, Marks, State, Typhoons, Unit};
use super::{hex, side, side_name};
use crate::engine::position::{PositionError, Statement};

/// The keywords read here.
pub const KNOWN: [&str; 4] = ["demolition", "assault", "typhoons", "mann"];

const DEMOLITION: &str = "write demolition <side> <unit> at <hex>: <bridge> ... or demolition none";
const ASSAULT: &str =
    "write assault <side> <unit> at <hex> [from <hex>] [facts: <text>] or assault none";
const TYPHOONS: &str =
    "write typhoons left <n> [formation <formation>] [at <hex> ...] or typhoons none";
const MANN: &str = "write mann <unit> step-loss|eliminated was <side> at <hex> [column] [marks [suppressed] [cohesion <n>] [lost <n>]] or mann none";

/// Reads `s` if it is one of these statements: `Ok(true)`; `Ok(false)` if it is not.
pub fn read(st: &mut State, s: &Statement) -> Result<bool, PositionError> {
    let w = &s.words;
    let none = w.len() == 2 && w[1] == "none";
    match s.keyword() {
        "demolition" if none => st.demolition = None,
        "demolition" => {
            let head = s.before_colon();
            let bridges = s.after_colon().ok_or_else(|| s.error(DEMOLITION))?;
            let [_, x, unit, "at", h] = head[..] else {
                return Err(s.error(DEMOLITION));
            };
            let bridges: Vec<String> = bridges.split_whitespace().map(str::to_owned).collect();
            if bridges.is_empty() {
                return Err(s.error(DEMOLITION));
            }
            if let Some(b) = bridges.iter().find(|b| !st.bridges.contains_key(*b)) {
                return Err(s.error(format!("there is no bridge '{b}' in the game")));
            }
            st.demolition = Some(Demolition {
                side: side(s, x)?,
                bridges,
                unit: unit.to_owned(),
                hex: hex(s, h)?,
            });
        }
        "assault" if none => st.assault = None,
        "assault" => {
            let head = s.before_colon();
            let (head, facts) = match head.last() {
                Some(&"facts") => (
                    &head[..head.len() - 1],
                    s.after_colon().unwrap_or_default().to_owned(),
                ),
                _ if s.after_colon().is_some() => return Err(s.error(ASSAULT)),
                _ => (&head[..], String::new()),
            };
            let (x, unit, at, from) = match head {
                [_, x, unit, "at", h] => (x, unit, h, None),
                [_, x, unit, "at", h, "from", f] => (x, unit, h, Some(hex(s, f)?)),
                _ => return Err(s.error(ASSAULT)),
            };
            st.assault = Some(Assault {
                side: side(s, x)?,
                unit: unit.to_string(),
                hex: hex(s, at)?,
                from,
                facts,
            });
        }
        "typhoons" if none => st.typhoons = None,
        "typhoons" => {
            if w.get(1) != Some(&"left") {
                return Err(s.error(TYPHOONS));
            }
            let mut t = Typhoons {
                left: s.number(2, "a number of Typhoons")?,
                ..Typhoons::default()
            };
            let mut rest = &w[3..];
            if let ["formation", f, more @ ..] = rest {
                t.formation = Some(f.to_string());
                rest = more;
            }
            match rest {
                [] => {}
                ["at", hexes @ ..] if !hexes.is_empty() => {
                    t.hexes = hexes.iter().map(|h| hex(s, h)).collect::<Result<_, _>>()?;
                }
                _ => return Err(s.error(TYPHOONS)),
            }
            st.typhoons = Some(t);
        }
        "mann" if none => st.mann = None,
        "mann" => st.mann = Some(mann(s)?),
        _ => return Ok(false),
    }
    Ok(true)
}

fn mann(s: &Statement) -> Result<MannChance, PositionError> {
    let w = &s.words;
    let [_, unit, class, "was", x, "at", h, rest @ ..] = &w[..] else {
        return Err(s.error(MANN));
    };
    if !matches!(*class, "step-loss" | "eliminated") {
        return Err(s.error(format!(
            "'{class}': Joe Mann negates a Step Loss or an Eliminated result (S6.9); {MANN}"
        )));
    }
    let (column, rest) = match rest {
        ["column", more @ ..] => (true, more),
        _ => (false, rest),
    };
    let was_marks = match rest {
        [] => None,
        ["marks", flags @ ..] => {
            let mut m = Marks::default();
            let mut i = 0;
            while i < flags.len() {
                let n = |what| {
                    flags
                        .get(i + 1)
                        .and_then(|v| v.parse().ok())
                        .ok_or_else(|| s.error(format!("{} needs {what}", flags[i])))
                };
                match flags[i] {
                    "suppressed" => m.suppressed = true,
                    "cohesion" => {
                        m.cohesion = n("a number of Cohesion Hits")?;
                        i += 1;
                    }
                    "lost" => {
                        m.lost = n("a number of steps lost")?;
                        i += 1;
                    }
                    x => return Err(s.error(format!("'{x}': {MANN}"))),
                }
                i += 1;
            }
            Some(m)
        }
        _ => return Err(s.error(MANN)),
    };
    Ok(MannChance {
        unit: unit.to_string(),
        was: Unit {
            side: side(s, x)?,
            hex: hex(s, h)?,
            column,
        },
        was_marks,
        class: class.to_string(),
    })
}

/// The statements of these facts of `state`; `None` if an assault's facts would not read back
/// (a `#` starts a comment, a statement is one line).
pub fn write(state: &State, out: &mut Vec<String>) -> Option<()> {
    out.push(match &state.demolition {
        None => "demolition none".into(),
        Some(d) => format!(
            "demolition {} {} at {}: {}",
            side_name(d.side),
            d.unit,
            d.hex,
            d.bridges.join(" ")
        ),
    });
    out.push(match &state.assault {
        None => "assault none".into(),
        Some(a) => {
            let f = &a.facts;
            if f.contains('#') || f.contains('\n') || f.trim() != f {
                return None;
            }
            let mut l = format!("assault {} {} at {}", side_name(a.side), a.unit, a.hex);
            if let Some(from) = a.from {
                l.push_str(&format!(" from {from}"));
            }
            if !f.is_empty() {
                l.push_str(&format!(" facts: {f}"));
            }
            l
        }
    });
    out.push(match &state.typhoons {
        None => "typhoons none".into(),
        Some(t) => {
            let mut l = format!("typhoons left {}", t.left);
            if let Some(f) = &t.formation {
                l.push_str(&format!(" formation {f}"));
            }
            if !t.hexes.is_empty() {
                let h: Vec<String> = t.hexes.iter().map(ToString::to_string).collect();
                l.push_str(&format!(" at {}", h.join(" ")));
            }
            l
        }
    });
    out.push(match &state.mann {
        None => "mann none".into(),
        Some(m) => {
            let mut l = format!(
                "mann {} {} was {} at {}",
                m.unit,
                m.class,
                side_name(m.was.side),
                m.was.hex
            );
            if m.was.column {
                l.push_str(" column");
            }
            if let Some(k) = &m.was_marks {
                l.push_str(" marks");
                if k.suppressed {
                    l.push_str(" suppressed");
                }
                if k.cohesion > 0 {
                    l.push_str(&format!(" cohesion {}", k.cohesion));
                }
                if k.lost > 0 {
                    l.push_str(&format!(" lost {}", k.lost));
                }
            }
            l
        }
    });
    Some(())
}
