//! Position statements of bridge works and of answers awaited (issue 39), read and written here:
//! an improved bridge, a Bailey, a ferry, contested and regained bridges; a status check or an
//! Intelligence event waiting, a Rout to name, a routing Formation's units to move.

use super::super::hex::Hex;
use super::super::state::{Bailey, Bridge, Ferry, Regain, Routing, State, Wait};
use super::{hex, side, side_name};
use crate::engine::position::{PositionError, Statement};

/// The keywords read here.
pub const KNOWN: [&str; 2] = ["bridge-works", "waiting"];

const WAITING: &str = "write waiting status-check, waiting intelligence <side>, waiting rout <side> or waiting routing <side> <formation> <unit> ...";

const FORM: &str = "write bridge-works <name> [improved] [bailey <unit> truck|bridge [disabled]] [ferry <unit> <side> <hex> <hex> [suppressed]] [contested <hex> ...] [regain <side> <hex> ...]";

/// Reads `s` if it is one of these statements: `Ok(true)`; `Ok(false)` if it is not.
pub fn read(st: &mut State, s: &Statement) -> Result<bool, PositionError> {
    let w = &s.words;
    match s.keyword() {
        "bridge-works" => works(st, s)?,
        "waiting" => {
            let wait = match &w[1..] {
                ["status-check"] => Wait::StatusCheck,
                ["intelligence", x] => Wait::Intelligence { side: side(s, x)? },
                ["rout", x] => Wait::Rout { side: side(s, x)? },
                ["routing", x, formation, units @ ..] => Wait::Routing(Routing {
                    side: side(s, x)?,
                    formation: formation.to_string(),
                    units: units.iter().map(|u| u.to_string()).collect(),
                }),
                _ => return Err(s.error(WAITING)),
            };
            st.wait = Some(wait);
        }
        _ => return Ok(false),
    }
    Ok(true)
}

fn works(st: &mut State, s: &Statement) -> Result<(), PositionError> {
    let w = &s.words;
    let name = s.word(1, "a bridge's name")?;
    let b: &mut Bridge = st
        .bridges
        .get_mut(name)
        .ok_or_else(|| s.error(format!("there is no bridge '{name}' in the game")))?;
    let mut i = 2;
    let word = |i: usize| w.get(i).copied().ok_or_else(|| s.error(FORM));
    let listed = |mut i: usize| {
        let mut hexes = Vec::new();
        while let Some(h) = w.get(i).and_then(|x| Hex::parse(x)) {
            hexes.push(h);
            i += 1;
        }
        (hexes, i)
    };
    while i < w.len() {
        match w[i] {
            "improved" => {
                b.improved = true;
                i += 1;
            }
            "bailey" => {
                let bridged = match word(i + 2)? {
                    "truck" => false,
                    "bridge" => true,
                    x => {
                        return Err(s.error(format!(
                            "'{x}': a Bailey is truck or bridge side up; {FORM}"
                        )))
                    }
                };
                let disabled = w.get(i + 3) == Some(&"disabled");
                b.bailey = Some(Bailey {
                    unit: word(i + 1)?.to_owned(),
                    bridged,
                    disabled,
                });
                i += if disabled { 4 } else { 3 };
            }
            "ferry" => {
                let suppressed = w.get(i + 5) == Some(&"suppressed");
                b.ferry = Some(Ferry {
                    unit: word(i + 1)?.to_owned(),
                    side: side(s, word(i + 2)?)?,
                    at: hex(s, word(i + 3)?)?,
                    to: hex(s, word(i + 4)?)?,
                    suppressed,
                });
                i += if suppressed { 6 } else { 5 };
            }
            "contested" => {
                let (hexes, next) = listed(i + 1);
                b.contested = hexes;
                i = next;
            }
            "regain" => {
                let x = side(s, word(i + 1)?)?;
                let (entered, next) = listed(i + 2);
                b.regain = Some(Regain { side: x, entered });
                i = next;
            }
            other => return Err(s.error(format!("'{other}': {FORM}"))),
        }
    }
    Ok(())
}

/// The statements of these facts of `state` (after the `bridge` lines).
pub fn write(state: &State, out: &mut Vec<String>) {
    for (name, b) in &state.bridges {
        let mut l = format!("bridge-works {name}");
        if b.improved {
            l.push_str(" improved");
        }
        if let Some(y) = &b.bailey {
            l.push_str(&format!(
                " bailey {} {}{}",
                y.unit,
                if y.bridged { "bridge" } else { "truck" },
                if y.disabled { " disabled" } else { "" }
            ));
        }
        if let Some(f) = &b.ferry {
            l.push_str(&format!(
                " ferry {} {} {} {}{}",
                f.unit,
                side_name(f.side),
                f.at,
                f.to,
                if f.suppressed { " suppressed" } else { "" }
            ));
        }
        if !b.contested.is_empty() {
            let h: Vec<String> = b.contested.iter().map(ToString::to_string).collect();
            l.push_str(&format!(" contested {}", h.join(" ")));
        }
        if let Some(r) = &b.regain {
            let h: Vec<String> = r.entered.iter().map(ToString::to_string).collect();
            l.push_str(format!(" regain {} {}", side_name(r.side), h.join(" ")).trim_end());
        }
        if l != format!("bridge-works {name}") {
            out.push(l);
        }
    }
}

/// `waiting …` for the waits written here, `None` for the others.
pub fn write_wait(wait: &Wait) -> Option<String> {
    match wait {
        Wait::StatusCheck => Some("waiting status-check".into()),
        Wait::Intelligence { side: x } => Some(format!("waiting intelligence {}", side_name(*x))),
        Wait::Rout { side: x } => Some(format!("waiting rout {}", side_name(*x))),
        Wait::Routing(r) => Some(
            format!(
                "waiting routing {} {} {}",
                side_name(r.side),
                r.formation,
                r.units.join(" ")
            )
            .trim_end()
            .to_owned(),
        ),
        _ => None,
    }
}
