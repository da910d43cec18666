//! Position statements of what comes by air (issue 39), read and written here: the Air Drop?
//! counters, the raid markers and the units awaiting their Drop Table roll.

use super::super::state::{AirDropCounters, RaidMarker, State};
use crate::engine::position::{PositionError, Statement};

/// The keywords read here.
pub const KNOWN: [&str; 3] = ["air-drop", "raid-marker", "awaiting-drop"];

#[derive(Default)]
pub struct Given {
    raid: bool,
}

/// Reads `s` if it is one of these statements: `Ok(true)`; `Ok(false)` if it is not.
pub fn read(st: &mut State, s: &Statement, given: &mut Given) -> Result<bool, PositionError> {
    let w = &s.words;
    let none = w.len() == 2 && w[1] == "none";
    match s.keyword() {
        "air-drop" => st.air_drop = counters(s, "air-drop")?,
        "raid-marker" => {
            if !std::mem::replace(&mut given.raid, true) {
                st.raid_markers.clear();
            }
            if !none {
                let form = "write raid-marker day <d> sealed <commitment> [real|decoy] or raid-marker none";
                if !(w.len() == 5 || w.len() == 6) || w[1] != "day" || w[3] != "sealed" {
                    return Err(s.error(form));
                }
                let revealed = match w.get(5) {
                    None => None,
                    Some(&"real") => Some(true),
                    Some(&"decoy") => Some(false),
                    Some(x) => return Err(s.error(format!("'{x}': {form}"))),
                };
                st.raid_markers.push(RaidMarker {
                    day: s.number(2, "a day of September")?,
                    commitment: w[4].to_owned(),
                    revealed,
                });
            }
        }
        "awaiting-drop" => st.drop_awaiting = w[1..].iter().map(|u| u.to_string()).collect(),
        _ => return Ok(false),
    }
    Ok(true)
}

/// `<keyword> day <d> candidates <a> <b> sealed <commitment> [revealed <n>]` or `<keyword>
/// none`: Air Drop? counters on the turn track (3.2, and a supply drop's, 3.5).
pub fn counters(s: &Statement, keyword: &str) -> Result<Option<AirDropCounters>, PositionError> {
    let w = &s.words;
    if w.len() == 2 && w[1] == "none" {
        return Ok(None);
    }
    let ok = (w.len() == 8 || w.len() == 10)
        && w[1] == "day"
        && w[3] == "candidates"
        && w[6] == "sealed"
        && (w.len() == 8 || w[8] == "revealed");
    if !ok {
        return Err(s.error(format!(
            "write {keyword} day <d> candidates <a> <b> sealed <commitment> [revealed <n>] or {keyword} none"
        )));
    }
    Ok(Some(AirDropCounters {
        day: s.number(2, "a day of September")?,
        candidates: [
            s.number(4, "a turn's index")?,
            s.number(5, "a turn's index")?,
        ],
        commitment: w[7].to_owned(),
        revealed: if w.len() == 10 {
            Some(s.number(9, "a turn's index")?)
        } else {
            None
        },
    }))
}

/// Air Drop? counters as `counters` reads them, after the keyword.
pub fn write_counters(c: &Option<AirDropCounters>) -> String {
    match c {
        None => "none".into(),
        Some(a) => {
            let mut l = format!(
                "day {} candidates {} {} sealed {}",
                a.day, a.candidates[0], a.candidates[1], a.commitment
            );
            if let Some(r) = a.revealed {
                l.push_str(&format!(" revealed {r}"));
            }
            l
        }
    }
}

/// The statements of these facts of `state`.
pub fn write(state: &State, out: &mut Vec<String>) {
    out.push(format!("air-drop {}", write_counters(&state.air_drop)));
    out.push("raid-marker none".into());
    for m in &state.raid_markers {
        let revealed = match m.revealed {
            None => "",
            Some(true) => " real",
            Some(false) => " decoy",
        };
        out.push(format!(
            "raid-marker day {} sealed {}{revealed}",
            m.day, m.commitment
        ));
    }
    out.push(
        format!("awaiting-drop {}", state.drop_awaiting.join(" "))
            .trim_end()
            .to_owned(),
    );
}
