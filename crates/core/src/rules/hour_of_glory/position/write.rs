//! A mission written as a position (issue 39): the statements [`super::read`] reads back onto
//! the set-up of the same mission to the same state. A position is a referee's view: it
//! states every fact, the face-down deal and the Intruders' hidden facts too.

use super::super::agents::{DefKind, Equipment, Mode, Weapon};
use super::super::intel::Card;
use super::super::state::{Defender, Intruder, MarkerKind, Side, State, Status, Turn};
use super::card_name;

/// `state` as a position. `None` if a text of the state (the ending's summary) cannot stand
/// on a line (a line break, or a `#`, which starts a comment).
pub fn write(st: &State) -> Option<String> {
    let mut out = Vec::new();
    clock(st, &mut out);
    doors_and_rooms(st, &mut out);
    for x in &st.intruders {
        intruder(x, &mut out);
    }
    defenders(st, &mut out);
    markers(st, &mut out);
    standing(st, &mut out);
    if let Some(e) = &st.ended {
        let summary = e.summary.trim();
        if summary.is_empty() || summary.contains(['\n', '\r', '#']) {
            return None;
        }
        out.push(format!(
            "ended {} {} {} {}: {summary}",
            if e.intruders_win {
                "intruders"
            } else {
                "defender"
            },
            e.points,
            e.needed,
            e.defender_points
        ));
    }
    Some(out.join("\n") + "\n")
}

/// The Mission Timer, the round and whose turn, the ASI.
fn clock(st: &State, out: &mut Vec<String>) {
    out.push(format!("timer {}", st.minutes));
    out.push(format!("round {}", st.round));
    out.push(match st.turn {
        Turn::Defender => "turn defender".into(),
        Turn::Intruder(i) => format!("turn {}", st.intruders[i].agent.name()),
    });
    out.push(format!("alarm {}", if st.alarm { "yes" } else { "no" }));
    out.push(format!("asi {}", st.asi_markers));
}

/// Every door, and every room's face-down card (first, so that no card the agents hold is
/// taken from a room the set-up dealt it to).
fn doors_and_rooms(st: &State, out: &mut Vec<String>) {
    for (i, open) in st.doors_open.iter().enumerate() {
        out.push(format!(
            "door door-{} {}",
            i + 1,
            if *open { "open" } else { "closed" }
        ));
    }
    for r in &st.rooms {
        out.push(format!(
            "room {} {}{}",
            r.room,
            r.card.map_or("none".into(), card_name),
            if r.explored { " explored" } else { "" }
        ));
    }
}

fn status(s: Status) -> &'static str {
    match s {
        Status::Standing => "standing",
        Status::Unconscious => "unconscious",
        Status::Dead => "dead",
        Status::Escaped => "escaped",
    }
}

/// An Intruder: where and how, then what he holds (a dead one's lies on his body's marker).
fn intruder(x: &Intruder, out: &mut Vec<String>) {
    let a = x.agent.name();
    out.push(format!(
        "intruder {a} {} {} {}{}",
        x.sq.map_or("off".into(), |q| format!("at {q}")),
        status(x.status),
        match x.mode {
            Mode::Raiding => "raiding",
            Mode::Assault => "assault",
        },
        if x.inside { " inside" } else { "" }
    ));
    out.push(format!("intruder {a} weapons: {}", weapons(&x.weapons)));
    out.push(format!(
        "intruder {a} equipment: {}",
        equipment(&x.equipment)
    ));
    out.push(format!("intruder {a} intel: {}", cards(&x.intel)));
    out.push(format!("intruder {a} selected {}", x.selected.name()));
}

/// The defending agents in their order: the Commander and the Sentries of the set-up, then
/// the Guards in the order they were mobilised, then what the Commander took and the box.
fn defenders(st: &State, out: &mut Vec<String>) {
    for d in &st.defenders {
        out.push(defender(d));
    }
    for d in &st.defenders {
        if !(d.captured_intel.is_empty()
            && d.captured_equipment.is_empty()
            && d.captured_weapons.is_empty())
        {
            out.push(format!(
                "defender {} captured: {}",
                d.label,
                held(
                    &d.captured_intel,
                    &d.captured_equipment,
                    &d.captured_weapons
                )
            ));
        }
    }
    out.push(format!("guards-in-box {}", st.guards_in_box));
}

fn defender(d: &Defender) -> String {
    let mut line = format!(
        "{} {} {} {} facing {} ready {}",
        if d.kind == DefKind::Guard {
            "guard"
        } else {
            "defender"
        },
        d.label,
        d.sq.map_or("off".into(), |q| format!("at {q}")),
        status(d.status),
        d.facing.name(),
        d.ready.name()
    );
    if d.kind == DefKind::Sentry {
        line.push_str(&format!(
            " alert {}",
            d.alert.map_or("none".into(), |q| q.to_string())
        ));
    }
    line.push_str(&format!(
        " first-turn {}",
        d.first_turn.map_or("none".into(), |n| n.to_string())
    ));
    line
}

/// The markers on the board in their order, with what each body holds.
fn markers(st: &State, out: &mut Vec<String>) {
    for m in &st.markers {
        out.push(match &m.kind {
            MarkerKind::Alert => format!("marker alert {}", m.sq),
            MarkerKind::Corpse { of } => {
                let items = held(&m.intel, &m.equipment, &m.weapons);
                if items.is_empty() {
                    format!("marker corpse {of} {}", m.sq)
                } else {
                    format!("marker corpse {of} {}: {items}", m.sq)
                }
            }
        });
    }
}

/// Each side's standing choices.
fn standing(st: &State, out: &mut Vec<String>) {
    let on = |b: bool| if b { "on" } else { "off" };
    for x in &st.intruders {
        let a = x.agent.name();
        out.push(format!(
            "standing {a}: counterattack {}",
            on(x.counterattack)
        ));
        out.push(format!("standing {a}: sacrifice {}", on(x.sacrifice)));
    }
    out.push(format!(
        "standing defender: counterattack {}",
        on(st.defender_counterattack)
    ));
    out.push(format!(
        "standing defender: alert-side {}",
        match st.alert_side {
            Side::Left => "left",
            Side::Right => "right",
        }
    ));
}

fn cards(c: &[Card]) -> String {
    c.iter()
        .map(|c| card_name(*c))
        .collect::<Vec<_>>()
        .join(" ")
}

fn equipment(e: &[Equipment]) -> String {
    e.iter().map(|e| e.name()).collect::<Vec<_>>().join(" ")
}

fn weapons(w: &[Weapon]) -> String {
    w.iter().map(|w| w.name()).collect::<Vec<_>>().join(" ")
}

/// Cards, equipment and weapons, as a body or the Commander holds them.
fn held(c: &[Card], e: &[Equipment], w: &[Weapon]) -> String {
    [cards(c), equipment(e), weapons(w)]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}
