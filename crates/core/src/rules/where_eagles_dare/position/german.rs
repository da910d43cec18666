//! Position statements of the German's secrets (issue 39), read and written here: the
//! Eindhoven Air Raid once revealed (S5.2), the off-map formations' boxes (5.1) and this 1900's
//! private numbering of their destinations. A position is a referee's view: it states them.

use super::super::data::DATA;
use super::super::offmap::destinations;
use super::super::state::{AirRaid, OffMap, State};
use super::first;
use crate::engine::position::{PositionError, Statement};

/// The keywords read here.
pub const KNOWN: [&str; 3] = ["air-raid", "offmap", "numbering"];

/// Which of the list statements were given already: the first of each replaces the set-up's.
#[derive(Default)]
pub struct Given {
    offmap: bool,
    numbering: bool,
}

const OFFMAP: &str = "write offmap <formation> box <box>|entering <letter> from <box>|on-map|routed <day>, or offmap none";

/// Reads `s` if it is one of these statements: `Ok(true)`; `Ok(false)` if it is not.
pub fn read(st: &mut State, s: &Statement, given: &mut Given) -> Result<bool, PositionError> {
    let w = &s.words;
    let none = w.len() == 2 && w[1] == "none";
    match s.keyword() {
        "air-raid" => {
            st.air_raid = match &w[1..] {
                ["none"] => None,
                ["paid", _] => Some(AirRaid {
                    dp_paid: s.number(2, "a number of Dispatch Points")?,
                }),
                _ => return Err(s.error("write air-raid paid <n> or air-raid none")),
            };
        }
        "offmap" => {
            if first(&mut given.offmap) {
                st.offmap.clear();
            }
            if !none {
                let (formation, display) = formation(s, s.word(1, "a formation")?)?;
                let at = match &w[2..] {
                    ["box", b] => OffMap::Box(box_of(s, display, b)?),
                    ["entering", letter, "from", b] => OffMap::Entering {
                        letter: entry(s, display, letter)?,
                        from: box_of(s, display, b)?,
                    },
                    ["on-map"] => OffMap::OnMap,
                    ["routed", _] => OffMap::Routed {
                        back: s.number(3, "a day of September")?,
                    },
                    _ => return Err(s.error(OFFMAP)),
                };
                st.offmap.insert(formation, at);
            }
        }
        "numbering" | "numbering:" => {
            if first(&mut given.numbering) {
                st.numbering.clear();
            }
            if !none {
                let form = "write numbering <formation>: <destination>, ... or numbering none";
                let head = s.before_colon();
                let list = s.after_colon().ok_or_else(|| s.error(form))?;
                if head.len() != 2 {
                    return Err(s.error(form));
                }
                let (f, display) = formation(s, head[1])?;
                let all = destinations(display);
                let named: Vec<String> = list
                    .split(',')
                    .map(str::trim)
                    .filter(|d| !d.is_empty())
                    .map(|d| {
                        all.iter().find(|x| *x == d).cloned().ok_or_else(|| {
                            s.error(format!(
                                "'{d}' is not a destination of the {display} display (5.1): {}",
                                all.join(", ")
                            ))
                        })
                    })
                    .collect::<Result<_, _>>()?;
                st.numbering.insert(f, named);
            }
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// A German off-map formation of `data/offmap.txt` and its display.
fn formation(s: &Statement, f: &str) -> Result<(String, &'static str), PositionError> {
    DATA.offmap
        .formations
        .iter()
        .find(|(_, id, _)| id == f)
        .map(|(display, id, _)| (id.clone(), display.as_str()))
        .ok_or_else(|| {
            s.error(format!(
                "'{f}' is not a German off-map formation (5.1): {}",
                DATA.offmap
                    .formations
                    .iter()
                    .map(|(_, id, _)| id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })
}

fn box_of(s: &Statement, display: &str, b: &str) -> Result<String, PositionError> {
    DATA.offmap
        .boxes_of(display)
        .find(|x| x.name == b)
        .map(|x| x.name.clone())
        .ok_or_else(|| {
            s.error(format!(
                "'{b}' is not a box of the {display} display (5.1): {}",
                DATA.offmap
                    .boxes_of(display)
                    .map(|x| x.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })
}

fn entry(s: &Statement, display: &str, letter: &str) -> Result<String, PositionError> {
    if DATA
        .offmap
        .boxes_of(display)
        .any(|b| b.enters.iter().any(|e| e == letter))
    {
        Ok(letter.to_owned())
    } else {
        Err(s.error(format!(
            "'{letter}' is not a reinforcement hex the {display} display enters by (5.1)"
        )))
    }
}

/// The statements of these facts of `state`.
pub fn write(state: &State, out: &mut Vec<String>) {
    out.push(match &state.air_raid {
        None => "air-raid none".into(),
        Some(r) => format!("air-raid paid {}", r.dp_paid),
    });
    out.push("offmap none".into());
    for (f, at) in &state.offmap {
        out.push(match at {
            OffMap::Box(b) => format!("offmap {f} box {b}"),
            OffMap::Entering { letter, from } => {
                format!("offmap {f} entering {letter} from {from}")
            }
            OffMap::OnMap => format!("offmap {f} on-map"),
            OffMap::Routed { back } => format!("offmap {f} routed {back}"),
        });
    }
    out.push("numbering none".into());
    for (f, list) in &state.numbering {
        out.push(
            format!("numbering {f}: {}", list.join(", "))
                .trim_end()
                .to_owned(),
        );
    }
}
