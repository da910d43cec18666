//! Position statements of the impulse and the units' doings (issue 39), read and written here:
//! each unit's activity this impulse, the sides' watch lists, stream bridges, riders and
//! piggyback pairs, Huber's choice.

use super::super::hex::Hex;
use super::super::state::{Activity, State, StreamBridge};
use super::{first, side, side_name};
use crate::engine::position::{PositionError, Statement};

/// The keywords read here.
pub const KNOWN: [&str; 6] = [
    "activity",
    "watch",
    "stream-bridge",
    "riding",
    "piggyback",
    "huber",
];

/// Which of the map statements were given already: the first of each replaces the set-up's.
#[derive(Default)]
pub struct Given {
    activity: bool,
    watch: bool,
    stream: bool,
    riding: bool,
    piggyback: bool,
}

/// Reads `s` if it is one of these statements: `Ok(true)`; `Ok(false)` if it is not.
pub fn read(st: &mut State, s: &Statement, given: &mut Given) -> Result<bool, PositionError> {
    let w = &s.words;
    let none = w.len() == 2 && w[1] == "none";
    match s.keyword() {
        "activity" => {
            if first(&mut given.activity) {
                st.activity.clear();
            }
            if !none {
                let form =
                    "write activity <unit> [moved] [lost-checked] [over: <rule>] or activity none";
                let h = s.before_colon();
                if h.len() < 2 {
                    return Err(s.error(form));
                }
                let mut a = Activity::default();
                for x in &h[2..] {
                    match *x {
                        "moved" => a.moved = true,
                        "lost-checked" => a.lost_checked = true,
                        "over" => {}
                        other => return Err(s.error(format!("'{other}': {form}"))),
                    }
                }
                a.over = s.after_colon().map(str::to_owned);
                if a.over.as_deref() == Some("") {
                    return Err(s.error(format!("over: names the rule that ended it; {form}")));
                }
                st.activity.insert(h[1].to_owned(), a);
            }
        }
        "watch" => {
            if first(&mut given.watch) {
                st.watch.clear();
            }
            if !none {
                let x = side(s, s.word(1, "a side")?)?;
                let hexes = w[2..]
                    .iter()
                    .map(|h| {
                        Hex::parse(h).ok_or_else(|| {
                            s.error(format!("'{h}' is not a hex: write it as 56.201"))
                        })
                    })
                    .collect::<Result<_, _>>()?;
                st.watch.insert(x, hexes);
            }
        }
        "stream-bridge" => {
            if first(&mut given.stream) {
                st.stream_bridges.clear();
            }
            if !none {
                let form = "write stream-bridge <name> [checked] [unstable] [bulldozer <unit>] [men-at-work <n>] [rolled <impulse>] or stream-bridge none";
                let name = s.word(1, "a stream bridge's name")?;
                let mut b = StreamBridge::default();
                let mut rest = w[2..].iter();
                while let Some(x) = rest.next() {
                    match *x {
                        "checked" => b.checked = true,
                        "unstable" => b.unstable = true,
                        "bulldozer" => {
                            b.bulldozer =
                                Some(rest.next().ok_or_else(|| s.error(form))?.to_string())
                        }
                        "men-at-work" | "rolled" => {
                            let v = rest.next().ok_or_else(|| s.error(form))?;
                            let n: u32 = v
                                .parse()
                                .map_err(|_| s.error(format!("'{v}' is not a number: {form}")))?;
                            if *x == "rolled" {
                                b.rolled = Some(n);
                            } else {
                                b.men_at_work = n;
                            }
                        }
                        other => return Err(s.error(format!("'{other}': {form}"))),
                    }
                }
                st.stream_bridges.insert(name.to_owned(), b);
            }
        }
        "riding" => {
            if first(&mut given.riding) {
                st.riding.clear();
            }
            if !none {
                s.expect_words(4, "riding <unit> truck|jeep <division> or riding none")?;
                if !matches!(w[2], "truck" | "jeep") {
                    return Err(s.error(format!("'{}' is not a ride: truck or jeep", w[2])));
                }
                st.riding
                    .insert(w[1].to_owned(), (w[2].to_owned(), w[3].to_owned()));
            }
        }
        "piggyback" => {
            if first(&mut given.piggyback) {
                st.piggyback.clear();
            }
            if !none {
                s.expect_words(3, "piggyback <vehicle> <infantry> or piggyback none")?;
                st.piggyback.insert(w[1].to_owned(), w[2].to_owned());
            }
        }
        "huber" => {
            let form = "write huber [sealed <commitment>] [chosen <choice>]";
            st.huber = Default::default();
            let mut rest = w[1..].iter();
            while let Some(x) = rest.next() {
                let v = rest.next().ok_or_else(|| s.error(form))?.to_string();
                match *x {
                    "sealed" => st.huber.commitment = Some(v),
                    "chosen" => st.huber.chosen = Some(v),
                    other => return Err(s.error(format!("'{other}': {form}"))),
                }
            }
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// The statements of these facts of `state`; `None` if a rule's name would not read back.
pub fn write(state: &State, out: &mut Vec<String>) -> Option<()> {
    out.push("activity none".into());
    for (u, a) in &state.activity {
        let mut l = format!("activity {u}");
        if a.moved {
            l.push_str(" moved");
        }
        if a.lost_checked {
            l.push_str(" lost-checked");
        }
        if let Some(r) = &a.over {
            if r.contains('#') || r.trim().is_empty() || r.trim() != r {
                return None;
            }
            l.push_str(&format!(" over: {r}"));
        }
        out.push(l);
    }
    out.push("watch none".into());
    for (x, hexes) in &state.watch {
        let hexes: Vec<String> = hexes.iter().map(ToString::to_string).collect();
        out.push(
            format!("watch {} {}", side_name(*x), hexes.join(" "))
                .trim_end()
                .to_owned(),
        );
    }
    out.push("stream-bridge none".into());
    for (name, b) in &state.stream_bridges {
        let mut l = format!("stream-bridge {name}");
        if b.checked {
            l.push_str(" checked");
        }
        if b.unstable {
            l.push_str(" unstable");
        }
        if let Some(u) = &b.bulldozer {
            l.push_str(&format!(" bulldozer {u}"));
        }
        l.push_str(&format!(" men-at-work {}", b.men_at_work));
        if let Some(r) = b.rolled {
            l.push_str(&format!(" rolled {r}"));
        }
        out.push(l);
    }
    out.push("riding none".into());
    for (u, (ride, division)) in &state.riding {
        out.push(format!("riding {u} {ride} {division}"));
    }
    out.push("piggyback none".into());
    for (v, i) in &state.piggyback {
        out.push(format!("piggyback {v} {i}"));
    }
    let mut l = "huber".to_owned();
    if let Some(c) = &state.huber.commitment {
        l.push_str(&format!(" sealed {c}"));
    }
    if let Some(c) = &state.huber.chosen {
        l.push_str(&format!(" chosen {c}"));
    }
    out.push(l);
    Some(())
}
