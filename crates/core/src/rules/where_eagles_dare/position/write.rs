//! A state written as a position (issue 39, docs/rules/where-eagles-dare.md, "Positions
//! (despatch replay)"), in the statements of `position/`: every fact of the state, so that the
//! position reads back, onto the game's own set-up, to the same state. `write` gives `None`
//! only for a state no game reaches (a Club Route that does not begin with the data's, a corps
//! not of the data) or a dispute's or assault's text that would not read back as one line.

use super::super::data::{Weather, DATA, TURNS};
use super::super::oob::OOB;
use super::super::state::{Phase, State, Wait};
use super::side_name as side;

fn phase(p: &Phase) -> Option<String> {
    Some(match p {
        Phase::Weather => "phase weather".into(),
        Phase::Fog => "phase fog".into(),
        Phase::Route => "phase route".into(),
        Phase::Release => "phase release".into(),
        Phase::Activation => "phase activation".into(),
        Phase::Buy { side: x } => format!("phase buy {}", side(*x)),
        _ => return None,
    })
}

/// The statements of `state` the format has, or `None` when a fact of it has none yet.
pub fn write(state: &State) -> Option<String> {
    let mut out = vec![
        format!("day {}", state.day),
        format!("time {}", TURNS[state.time]),
        phase(&state.phase).or_else(|| super::clock::write_phase(&state.phase))?,
        format!("impulse {}", side(state.impulse)),
        format!("actions {}", state.actions),
    ];
    match state.weather {
        None => out.push("weather none".into()),
        Some(Weather::Clear) => out.push("weather clear".into()),
        Some(Weather::Overcast) => out.push("weather overcast".into()),
        Some(Weather::Rain) => out.push("weather rain".into()),
        Some(Weather::Fog { clear }) => out.push(format!("weather fog {clear}")),
    }
    // The units of the order of battle the set-up may hold that the state does not.
    for u in &OOB.units {
        if !state.units.contains_key(&u.id) && !state.eliminated.contains_key(&u.id) {
            out.push(format!("unit {} off", u.id));
        }
    }
    for (name, u) in &state.units {
        let mut l = format!("unit {name} {} at {}", side(u.side), u.hex);
        if u.column {
            l.push_str(" column");
        }
        if let Some(t) = state.vehicles.get(name) {
            l.push_str(&format!(" {}", t.name()));
        }
        out.push(l);
    }
    for (name, m) in &state.marks {
        let mut l = format!("marks {name}");
        if m.suppressed {
            l.push_str(" suppressed");
        }
        if m.cohesion > 0 {
            l.push_str(&format!(" cohesion {}", m.cohesion));
        }
        if m.lost > 0 {
            l.push_str(&format!(" lost {}", m.lost));
        }
        out.push(l);
    }
    for (d, n) in &state.cp {
        out.push(format!("cp {d} {n}"));
    }
    for (d, n) in &state.dp {
        out.push(format!("dp {d} {n}"));
    }
    for d in &DATA.divisions {
        if !state.cp.contains_key(&d.id) {
            out.push(format!("cp {} off", d.id));
        }
        if !state.dp.contains_key(&d.id) {
            out.push(format!("dp {} off", d.id));
        }
    }
    out.push(
        format!("mug: {}", state.mug.join(" "))
            .trim_end()
            .to_owned(),
    );
    out.push(format!("chit {}", state.chit.as_deref().unwrap_or("none")));
    for (x, events) in &state.cups {
        out.push(
            format!("cup {}: {}", side(*x), events.join(" "))
                .trim_end()
                .to_owned(),
        );
    }
    for (name, b) in &state.bridges {
        out.push(match (b.destroyed, b.destroyed_at, b.wired_by) {
            (true, Some((day, t)), _) => format!("bridge {name} destroyed at {day} {}", TURNS[t]),
            (true, None, _) => format!("bridge {name} destroyed"),
            (false, _, Some(x)) => format!("bridge {name} wired {}", side(x)),
            (false, _, None) => format!("bridge {name} intact"),
        });
    }
    if !state.released.is_empty() {
        out.push(format!("released {}", state.released.join(" ")));
    }
    out.push(match state.marker {
        Some(h) => format!("marker {h}"),
        None => "marker off".into(),
    });
    let start = DATA.club_route.len();
    if !state.club_route.starts_with(&DATA.club_route) {
        return None;
    }
    if state.club_route.len() > start {
        let hexes: Vec<String> = state.club_route[start..]
            .iter()
            .map(ToString::to_string)
            .collect();
        out.push(format!("route {}", hexes.join(" ")));
    }
    if !state.starred.is_empty() {
        out.push(format!("starred {}", state.starred.join(" ")));
    }
    for (id, c) in &state.corps {
        let track = DATA.offmap.corps.iter().find(|t| &t.id == id)?;
        out.push(format!(
            "corps {id} at {} failures {}",
            track.boxes.get(c.at)?,
            c.failures
        ));
    }
    let h = &state.highway;
    let mut l = format!(
        "highway {} attacked {} closed {} used-attacked {} used-closed {}",
        if h.cut { "cut" } else { "open" },
        h.attacked,
        h.closed,
        h.used_attacked,
        h.used_closed
    );
    if h.attacked_this_turn {
        l.push_str(" attacked-this-turn");
    }
    if h.closed_this_turn {
        l.push_str(" closed-this-turn");
    }
    out.push(l);
    out.extend(state.rubble.iter().map(|x| format!("rubble {x}")));
    for (x, u) in &state.heroic {
        out.push(format!("heroic {} {u}", side(*x)));
    }
    for (x, at) in &state.dutch {
        out.push(format!("dutch {} {at}", side(*x)));
    }
    out.extend(state.minefields.iter().map(|x| format!("minefield {x}")));
    out.extend(state.entrenched.iter().map(|u| format!("entrenched {u}")));
    out.extend(
        state
            .mine_passed
            .iter()
            .map(|u| format!("passed-mines {u}")),
    );
    out.extend(state.lost_82nd_in.iter().map(|u| format!("lost82-in {u}")));
    out.extend(state.eliminated.keys().map(|u| format!("eliminated {u}")));
    for u in &state.drop_rolled {
        match state.drop_markers.get(u) {
            Some(n) => out.push(format!("dropped {u} markers {n}")),
            None => out.push(format!("dropped {u}")),
        }
    }
    super::more::write(state, &mut out)?;
    super::impulse::write(state, &mut out)?;
    super::clock::write(state, &mut out);
    super::air::write(state, &mut out);
    super::bridge::write(state, &mut out);
    super::german::write(state, &mut out);
    super::supply::write(state, &mut out);
    super::under_way::write(state, &mut out)?;
    match &state.wait {
        None => {}
        Some(Wait::Placing { side: x, event }) if super::PLACED.contains(&event.as_str()) => {
            out.push(format!("placing {} {event}", side(*x)))
        }
        Some(Wait::Lost {
            unit,
            event: Some(by),
        }) => out.push(format!("lost {unit} by {}", side(*by))),
        Some(Wait::Lost { unit, event: None }) => out.push(format!("lost {unit}")),
        Some(w) => out.push(super::bridge::write_wait(w)?),
    }
    Some(out.join("\n") + "\n")
}
