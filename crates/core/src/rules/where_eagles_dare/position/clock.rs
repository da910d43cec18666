//! Position statements of the game's clockwork (issue 39), read and written here: the phases
//! before and after the turn's activation, the drops, the opportunity-fire window and its fire,
//! and the game's small counts and flags.

use super::super::data::{turn_index, TURNS};
use super::super::state::{Drop, Pending, Phase, State};
use super::{first, hex, side, side_name};
use crate::engine::position::{PositionError, Statement};

/// The keywords read here.
pub const KNOWN: [&str; 14] = [
    "drop",
    "window",
    "fire",
    "route-cleared",
    "placed",
    "bailey-impulse",
    "superseded",
    "kg-chill",
    "mann-used",
    "reinf-one",
    "asset-lost",
    "held-out",
    "resigned",
    "over",
];

fn turn(s: &Statement, w: &str) -> Result<usize, PositionError> {
    turn_index(w).ok_or_else(|| s.error(format!("'{w}' is not a turn: {}", TURNS.join(", "))))
}

/// `phase raids <day>|plans <n>|air-drop <a> <b>|replan <n>|supply-drop <a> <b>|huber|off-map|over`.
pub fn phase(s: &Statement, w: &[&str]) -> Result<Option<Phase>, PositionError> {
    let n = |i: usize, what: &str| s.number::<usize>(i, what);
    Ok(Some(match w {
        ["raids", _] => Phase::Raids {
            day: s.number(2, "a day of September")?,
        },
        ["plans", _] => Phase::Plans {
            next: s.number(2, "the next drop's number")?,
        },
        ["replan", _] => Phase::Replan {
            next: s.number(2, "the next drop's number")?,
        },
        ["air-drop", _, _] => Phase::AirDrop {
            candidates: [n(2, "a turn's index")?, n(3, "a turn's index")?],
        },
        ["supply-drop", _, _] => Phase::SupplyDrop {
            candidates: [n(2, "a turn's index")?, n(3, "a turn's index")?],
        },
        ["huber"] => Phase::Huber,
        ["off-map"] => Phase::OffMap,
        ["over"] => Phase::Over,
        _ => return Ok(None),
    }))
}

/// These phases as a statement.
pub fn write_phase(p: &Phase) -> Option<String> {
    Some(match p {
        Phase::Raids { day } => format!("phase raids {day}"),
        Phase::Plans { next } => format!("phase plans {next}"),
        Phase::Replan { next } => format!("phase replan {next}"),
        Phase::AirDrop { candidates: [a, b] } => format!("phase air-drop {a} {b}"),
        Phase::SupplyDrop { candidates: [a, b] } => format!("phase supply-drop {a} {b}"),
        Phase::Huber => "phase huber".into(),
        Phase::OffMap => "phase off-map".into(),
        Phase::Over => "phase over".into(),
        _ => return None,
    })
}

#[derive(Default)]
pub struct Given {
    drop: bool,
    asset: bool,
    held_out: bool,
}

/// Reads `s` if it is one of these statements: `Ok(true)`; `Ok(false)` if it is not.
pub fn read(st: &mut State, s: &Statement, given: &mut Given) -> Result<bool, PositionError> {
    let w = &s.words;
    let none = w.len() == 2 && w[1] == "none";
    match s.keyword() {
        "drop" => {
            if first(&mut given.drop) {
                st.drops.clear();
            }
            if !none {
                drop_line(st, s)?;
            }
        }
        "window" => {
            s.expect_words(2, "window <hex>|none")?;
            st.window = if none { None } else { Some(hex(s, w[1])?) };
        }
        "fire" => {
            let form = "fire none or fire <side> <unit> at <hex> face <n> [fire]";
            st.pending = if none {
                None
            } else {
                if !(w.len() == 7 || w.len() == 8) || w[3] != "at" || w[5] != "face" {
                    return Err(s.error(format!("write {form}")));
                }
                let fire = match w.get(7) {
                    None => false,
                    Some(&"fire") => true,
                    Some(x) => return Err(s.error(format!("'{x}': write {form}"))),
                };
                Some(Pending {
                    side: side(s, w[1])?,
                    unit: w[2].to_owned(),
                    hex: hex(s, w[4])?,
                    face: s.number(6, "a die's face")?,
                    fire,
                })
            };
        }
        "route-cleared" => {
            s.expect_words(2, "route-cleared <day>|none")?;
            st.route_cleared_day = if none {
                None
            } else {
                Some(s.number(1, "a day of September")?)
            };
        }
        "placed" => {
            if w.len() != 5 || w[1] != "baileys" || w[3] != "bulldozers" {
                return Err(s.error("write placed baileys <n> bulldozers <n>"));
            }
            st.baileys_placed = s.number(2, "a number of Baileys")?;
            st.bulldozers_placed = s.number(4, "a number of Bulldozers")?;
        }
        "bailey-impulse" => {
            s.expect_words(2, "bailey-impulse <n>|none")?;
            st.bailey_impulse = if none {
                None
            } else {
                Some(s.number(1, "an impulse's number")?)
            };
        }
        "superseded" => st.superseded = w[1..].iter().map(|x| x.to_string()).collect(),
        "kg-chill" => {
            s.expect_words(1, "kg-chill")?;
            st.kg_chill = true;
        }
        "mann-used" => {
            s.expect_words(1, "mann-used")?;
            st.mann_used = true;
        }
        "reinf-one" => {
            s.expect_words(2, "reinf-one <formation>|none")?;
            st.reinf_one = (!none).then(|| w[1].to_owned());
        }
        "asset-lost" => {
            if first(&mut given.asset) {
                st.assets_lost.clear();
            }
            if !none {
                s.expect_words(3, "asset-lost <kind:division> <n> or asset-lost none")?;
                st.assets_lost
                    .insert(w[1].to_owned(), s.number(2, "a number lost")?);
            }
        }
        "held-out" => {
            if first(&mut given.held_out) {
                st.held_out.clear();
            }
            if !none {
                s.expect_words(3, "held-out <side> <event> or held-out none")?;
                st.held_out.push((side(s, w[1])?, w[2].to_owned()));
            }
        }
        "resigned" => {
            s.expect_words(2, "resigned <side>|none")?;
            st.resigned = if none { None } else { Some(side(s, w[1])?) };
        }
        "over" => {
            s.expect_words(1, "over")?;
            st.over = true;
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// `drop <n> day <d> [arrived <day> <turn>] [replanned <day>] [sealed <commitment>] [plan: <turn> …]`.
fn drop_line(st: &mut State, s: &Statement) -> Result<(), PositionError> {
    let form = "write drop <n> day <d> [arrived <day> <turn>] [replanned <day>] [sealed <commitment>] [plan: <turn> ...] or drop none";
    let head: Vec<&str> = s
        .text
        .split_once(':')
        .map_or(s.text, |(h, _)| h)
        .split_whitespace()
        .collect();
    if head.len() < 4 || head[2] != "day" {
        return Err(s.error(form));
    }
    let num = |w: &str, what: &str| -> Result<u8, PositionError> {
        w.parse()
            .map_err(|_| s.error(format!("'{w}' is not {what}")))
    };
    let mut d = Drop {
        number: num(head[1], "a drop's number")?,
        day: num(head[3], "a day of September")?,
        arrived: None,
        plan_commitment: None,
        plan: s
            .after_colon()
            .map(|p| p.split_whitespace().map(str::to_owned).collect()),
        replanned_day: None,
    };
    let mut rest = head[4..].iter();
    while let Some(x) = rest.next() {
        let mut next = || rest.next().copied().ok_or_else(|| s.error(form));
        match *x {
            "arrived" => {
                let day = num(next()?, "a day of September")?;
                d.arrived = Some((day, turn(s, next()?)?));
            }
            "replanned" => d.replanned_day = Some(num(next()?, "a day of September")?),
            "sealed" => d.plan_commitment = Some(next()?.to_owned()),
            other => return Err(s.error(format!("'{other}': {form}"))),
        }
    }
    st.drops.push(d);
    Ok(())
}

/// The statements of these facts of `state`.
pub fn write(state: &State, out: &mut Vec<String>) {
    out.push("drop none".into());
    for d in &state.drops {
        let mut l = format!("drop {} day {}", d.number, d.day);
        if let Some((day, t)) = d.arrived {
            l.push_str(&format!(" arrived {day} {}", TURNS[t]));
        }
        if let Some(r) = d.replanned_day {
            l.push_str(&format!(" replanned {r}"));
        }
        if let Some(c) = &d.plan_commitment {
            l.push_str(&format!(" sealed {c}"));
        }
        if let Some(p) = &d.plan {
            l.push_str(&format!(": {}", p.join(" ")));
        }
        out.push(l.trim_end().to_owned());
    }
    out.push(match state.window {
        Some(h) => format!("window {h}"),
        None => "window none".into(),
    });
    out.push(match &state.pending {
        Some(p) => format!(
            "fire {} {} at {} face {}{}",
            side_name(p.side),
            p.unit,
            p.hex,
            p.face,
            if p.fire { " fire" } else { "" }
        ),
        None => "fire none".into(),
    });
    out.push(match state.route_cleared_day {
        Some(d) => format!("route-cleared {d}"),
        None => "route-cleared none".into(),
    });
    out.push(format!(
        "placed baileys {} bulldozers {}",
        state.baileys_placed, state.bulldozers_placed
    ));
    out.push(match state.bailey_impulse {
        Some(n) => format!("bailey-impulse {n}"),
        None => "bailey-impulse none".into(),
    });
    out.push(
        format!("superseded {}", state.superseded.join(" "))
            .trim_end()
            .to_owned(),
    );
    if state.kg_chill {
        out.push("kg-chill".into());
    }
    if state.mann_used {
        out.push("mann-used".into());
    }
    out.push(format!(
        "reinf-one {}",
        state.reinf_one.as_deref().unwrap_or("none")
    ));
    out.push("asset-lost none".into());
    for (a, n) in &state.assets_lost {
        out.push(format!("asset-lost {a} {n}"));
    }
    out.push("held-out none".into());
    for (x, e) in &state.held_out {
        out.push(format!("held-out {} {e}", side_name(*x)));
    }
    out.push(match state.resigned {
        Some(x) => format!("resigned {}", side_name(x)),
        None => "resigned none".into(),
    });
    if state.over {
        out.push("over".into());
    }
}
