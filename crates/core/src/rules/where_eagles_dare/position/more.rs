//! More position statements (issue 39), each read and written here: the impulse count, the fog's
//! clearing, this 1900's entries, the chit held and the chits bought, the drop zone change tried,
//! abandoned transport, units gone, rearguards, roadblocks, barrages, Flak, and disputes.

use super::super::data::{turn_index, TURNS};
use super::super::state::{Dispute, State};
use super::{chit, hex, side, side_name};
use crate::engine::position::{PositionError, Statement};

/// Which of the list statements were given already: the first of each replaces the set-up's.
#[derive(Default)]
pub struct Given {
    rearguard: bool,
    roadblock: bool,
    barrage: bool,
    flak: bool,
    dispute: bool,
}

/// Reads `s` if it is one of these statements: `Ok(true)`; `Ok(false)` if it is not.
pub fn read(st: &mut State, s: &Statement, given: &mut Given) -> Result<bool, PositionError> {
    let w = &s.words;
    match s.keyword() {
        "impulse-no" => {
            s.expect_words(2, "impulse-no <n>")?;
            st.impulse_no = s.number(1, "a number of impulses")?;
        }
        "fog-cleared" => {
            s.expect_words(2, "fog-cleared <turn>|none")?;
            st.fog_cleared = match w[1] {
                "none" => None,
                t => Some(turn_index(t).ok_or_else(|| {
                    s.error(format!("'{t}' is not a turn: {}", TURNS.join(", ")))
                })?),
            };
        }
        "entries" => {
            s.expect_words(2, "entries <n>")?;
            st.entries = s.number(1, "a number of entries")?;
        }
        "held" => {
            s.expect_words(2, "held <chit>|none")?;
            st.held = match w[1] {
                "none" => None,
                c => Some(chit(s, c)?),
            };
        }
        "bought" | "bought:" => {
            st.bought = s
                .after_colon()
                .ok_or_else(|| s.error("write bought: <chit> ..."))?
                .split_whitespace()
                .map(|c| chit(s, c))
                .collect::<Result<_, _>>()?;
        }
        "dz-tried" => {
            s.expect_words(2, "dz-tried <day>|none")?;
            st.dz_tried = match w[1] {
                "none" => None,
                _ => Some(s.number(1, "a day of September")?),
            };
        }
        "abandoned" => st.abandoned = w[1..].iter().map(|u| u.to_string()).collect(),
        "gone" => st.gone = w[1..].iter().map(|u| u.to_string()).collect(),
        "rearguard" => {
            if !std::mem::replace(&mut given.rearguard, true) {
                st.rearguards.clear();
            }
            if w[1..] != ["none"] {
                s.expect_words(3, "rearguard <unit> <side> or rearguard none")?;
                st.rearguards.push((w[1].to_owned(), side(s, w[2])?));
            }
        }
        "roadblock" => {
            if !std::mem::replace(&mut given.roadblock, true) {
                st.roadblocks.clear();
            }
            if w[1..] != ["none"] {
                s.expect_words(3, "roadblock <hex> <side> or roadblock none")?;
                st.roadblocks.push((hex(s, w[1])?, side(s, w[2])?));
            }
        }
        "barrage" => {
            if !std::mem::replace(&mut given.barrage, true) {
                st.barrages.clear();
            }
            if w[1..] != ["none"] {
                let heavy = match w.get(3) {
                    None => false,
                    Some(&"heavy") if w.len() == 4 => true,
                    _ => return Err(s.error("write barrage <hex> <side> [heavy] or barrage none")),
                };
                s.word(2, "a hex and a side")?;
                st.barrages.push((hex(s, w[1])?, heavy, side(s, w[2])?));
            }
        }
        "flak" => {
            if !std::mem::replace(&mut given.flak, true) {
                st.flak.clear();
            }
            if w[1..] != ["none"] {
                s.expect_words(3, "flak <counter> <type> or flak none")?;
                st.flak.insert(w[1].to_owned(), w[2].to_owned());
            }
        }
        "flak-flipped" => {
            s.expect_words(1, "flak-flipped")?;
            st.flak_flipped = true;
        }
        "dispute" => {
            if !std::mem::replace(&mut given.dispute, true) {
                st.disputes.clear();
            }
            if w[1..] != ["none"] {
                let form = "write dispute <side> <seq>: <text> or dispute none";
                let head: Vec<&str> = s
                    .text
                    .split_once(':')
                    .map_or("", |(h, _)| h)
                    .split_whitespace()
                    .collect();
                let text = s.after_colon().ok_or_else(|| s.error(form))?;
                if head.len() != 3 {
                    return Err(s.error(form));
                }
                let seq = head[2]
                    .parse()
                    .map_err(|_| s.error(format!("'{}' is not a seq of the log", head[2])))?;
                st.disputes.push(Dispute {
                    by: side(s, head[1])?,
                    seq,
                    text: text.to_owned(),
                });
            }
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// The keywords read here.
pub const KNOWN: [&str; 14] = [
    "impulse-no",
    "fog-cleared",
    "entries",
    "held",
    "bought",
    "dz-tried",
    "abandoned",
    "gone",
    "rearguard",
    "roadblock",
    "barrage",
    "flak",
    "flak-flipped",
    "dispute",
];

/// The statements of these facts of `state`; `None` if a dispute's text would not read back
/// (a `#` starts a comment, a statement is one line).
pub fn write(state: &State, out: &mut Vec<String>) -> Option<()> {
    if state
        .disputes
        .iter()
        .any(|d| d.text.contains('#') || d.text.contains('\n') || d.text.trim() != d.text)
    {
        return None;
    }
    out.push(format!("impulse-no {}", state.impulse_no));
    out.push(match state.fog_cleared {
        Some(t) => format!("fog-cleared {}", TURNS[t]),
        None => "fog-cleared none".into(),
    });
    out.push(format!("entries {}", state.entries));
    out.push(format!("held {}", state.held.as_deref().unwrap_or("none")));
    out.push(
        format!("bought: {}", state.bought.join(" "))
            .trim_end()
            .to_owned(),
    );
    out.push(match state.dz_tried {
        Some(d) => format!("dz-tried {d}"),
        None => "dz-tried none".into(),
    });
    out.push(
        format!("abandoned {}", state.abandoned.join(" "))
            .trim_end()
            .to_owned(),
    );
    out.push(
        format!("gone {}", state.gone.join(" "))
            .trim_end()
            .to_owned(),
    );
    out.push("rearguard none".into());
    for (u, x) in &state.rearguards {
        out.push(format!("rearguard {u} {}", side_name(*x)));
    }
    out.push("roadblock none".into());
    for (h, x) in &state.roadblocks {
        out.push(format!("roadblock {h} {}", side_name(*x)));
    }
    out.push("barrage none".into());
    for (h, heavy, x) in &state.barrages {
        let heavy = if *heavy { " heavy" } else { "" };
        out.push(format!("barrage {h} {}{heavy}", side_name(*x)));
    }
    out.push("flak none".into());
    for (c, t) in &state.flak {
        out.push(format!("flak {c} {t}"));
    }
    if state.flak_flipped {
        out.push("flak-flipped".into());
    }
    out.push("dispute none".into());
    for d in &state.disputes {
        out.push(format!("dispute {} {}: {}", side_name(d.by), d.seq, d.text));
    }
    Some(())
}
