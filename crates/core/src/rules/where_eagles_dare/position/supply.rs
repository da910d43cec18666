//! Position statements of supply and artillery (issue 39), read and written here: the 101st's
//! supply drops (3.5: its zone, SDZ Closed, the Sea Tail, today's drop and a supply drop's Air
//! Drop? counters) and the artillery parks (S1: where each marker is and the units in its box).

use super::super::data::DATA;
use super::super::state::State;
use super::air::{counters, write_counters};
use super::hex;
use crate::engine::position::{PositionError, Statement};

/// The keywords read here.
pub const KNOWN: [&str; 3] = ["supply", "supply-counters", "park"];

const SUPPLY: &str = "write supply dz <zone> [interdicted] [ended] [today <day>]";
const PARK: &str = "write park <park> off|at <hex> [units <unit> ...]";

/// Reads `s` if it is one of these statements: `Ok(true)`; `Ok(false)` if it is not.
pub fn read(st: &mut State, s: &Statement) -> Result<bool, PositionError> {
    let w = &s.words;
    match s.keyword() {
        "supply" => {
            if w.get(1) != Some(&"dz") {
                return Err(s.error(SUPPLY));
            }
            let zone = s.word(2, "a drop zone")?;
            if !DATA.zones.contains_key(zone) {
                return Err(s.error(format!(
                    "'{zone}' is not an airborne zone: {}",
                    DATA.zones.keys().cloned().collect::<Vec<_>>().join(", ")
                )));
            }
            let (mut interdicted, mut ended, mut today) = (false, false, None);
            let mut i = 3;
            while i < w.len() {
                match w[i] {
                    "interdicted" if !interdicted => interdicted = true,
                    "ended" if !ended => ended = true,
                    "today" if today.is_none() => {
                        today = Some(s.number(i + 1, "a day of September")?);
                        i += 1;
                    }
                    x => return Err(s.error(format!("'{x}': {SUPPLY}"))),
                }
                i += 1;
            }
            let p = &mut st.supply;
            p.dz = zone.to_owned();
            p.interdicted = interdicted;
            p.ended = ended;
            p.today = today;
        }
        "supply-counters" => st.supply.counters = counters(s, "supply-counters")?,
        "park" => {
            let id = s.word(1, "an artillery park")?;
            let known: Vec<String> = st.parks.iter().map(|p| p.id.clone()).collect();
            let Some(park) = st.parks.iter_mut().find(|p| p.id == id) else {
                return Err(s.error(format!(
                    "'{id}' is not an artillery park of the game (S1): {}",
                    known.join(", ")
                )));
            };
            let (at, rest) = match &w[2..] {
                ["off", rest @ ..] => (None, rest),
                ["at", h, rest @ ..] => (Some(hex(s, h)?), rest),
                _ => return Err(s.error(PARK)),
            };
            let units = match rest {
                [] => Vec::new(),
                ["units", units @ ..] => units.iter().map(|u| u.to_string()).collect(),
                _ => return Err(s.error(PARK)),
            };
            park.hex = at;
            park.units = units;
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// The statements of these facts of `state`.
pub fn write(state: &State, out: &mut Vec<String>) {
    let p = &state.supply;
    let mut l = format!("supply dz {}", p.dz);
    if p.interdicted {
        l.push_str(" interdicted");
    }
    if p.ended {
        l.push_str(" ended");
    }
    if let Some(d) = p.today {
        l.push_str(&format!(" today {d}"));
    }
    out.push(l);
    out.push(format!("supply-counters {}", write_counters(&p.counters)));
    for park in &state.parks {
        let mut l = match park.hex {
            Some(h) => format!("park {} at {h}", park.id),
            None => format!("park {} off", park.id),
        };
        if !park.units.is_empty() {
            l.push_str(&format!(" units {}", park.units.join(" ")));
        }
        out.push(l);
    }
}
