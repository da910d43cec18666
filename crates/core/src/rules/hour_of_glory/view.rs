//! What each viewer may see. Everything on the table is public except the face-down
//! intelligence cards of unexplored rooms: nobody sees them (summary, "Setup": "without
//! revealing them to any player") except an Intruder holding the Stronghold Map, who may look
//! at them secretly (summary, "Intelligence cards"), and everyone once the game is over.

use serde_json::{json, Value};

use super::agents::Mode;
use super::board::board;
use super::intel::Card;
use super::state::{State, Status, Turn};
use crate::engine::ruleset::Viewer;

/// The seats allowed to peek at unexplored rooms: Intruders holding the Stronghold Map.
pub fn map_holders(s: &State) -> Vec<&crate::engine::ruleset::Seat> {
    s.intruders
        .iter()
        .filter(|a| {
            a.intel.contains(&Card::StrongholdMap)
                && matches!(a.status, Status::Standing | Status::Unconscious)
        })
        .map(|a| &a.seat)
        .collect()
}

pub fn view(s: &State, viewer: &Viewer) -> Value {
    let everything = matches!(viewer, Viewer::Everyone);
    let peeker = match viewer {
        Viewer::Seat(seat) => map_holders(s).contains(&seat),
        _ => false,
    };
    let rooms: Vec<Value> = s
        .rooms
        .iter()
        .map(|r| {
            let shown = r.explored || everything;
            json!({
                "room": r.room,
                "explored": r.explored,
                "card": if shown { serde_json::to_value(r.card).expect("serialisable") } else { Value::Null },
                "face_down": !r.explored && r.card.is_some(),
            })
        })
        .collect();
    let peek: Vec<Value> = if peeker && !everything {
        s.rooms
            .iter()
            .filter(|r| !r.explored)
            .filter_map(|r| r.card.map(|c| json!({"room": r.room, "card": c})))
            .collect()
    } else {
        Vec::new()
    };
    let turn = match s.turn {
        Turn::Intruder(i) => s.intruders[i].seat.to_string(),
        Turn::Defender => s.defender_seat.to_string(),
    };
    let intruders: Vec<Value> = s
        .intruders
        .iter()
        .map(|a| {
            json!({
                "seat": a.seat,
                "agent": a.agent,
                "square": a.sq.map(|q| q.to_string()),
                "status": a.status,
                "mode": if a.mode == Mode::Raiding { "raiding" } else { "assault" },
                "selected": a.selected,
                "weapons": a.weapons,
                "equipment": a.equipment,
                "intel": a.intel,
                "counterattack": a.counterattack,
                "sacrifice": a.sacrifice,
            })
        })
        .collect();
    let defenders: Vec<Value> = s
        .defenders
        .iter()
        .filter(|d| d.sq.is_some())
        .map(|d| {
            json!({
                "label": d.label,
                "kind": d.kind,
                "square": d.sq.map(|q| q.to_string()),
                "status": d.status,
                "facing": d.facing,
                "alert_marker": d.alert.map(|q| q.to_string()),
                "captured_intel": d.captured_intel,
            })
        })
        .collect();
    // Markers' squares by name, as every square of the view.
    let markers: Vec<Value> = s
        .markers
        .iter()
        .map(|m| {
            let mut v = serde_json::to_value(m).expect("serialisable");
            v["sq"] = json!(m.sq.to_string());
            v
        })
        .collect();
    let open_doors: Vec<String> = board()
        .doors
        .iter()
        .filter(|d| s.door_open(d.id))
        .map(|d| d.id.to_string())
        .collect();
    let mut v = json!({
        "round": s.round,
        "turn": turn,
        "minutes": s.minutes,
        "alert_state": if s.alarm { "alarm" } else { "standby" },
        "asi_markers": s.asi_markers,
        "guards_in_box": s.guards_in_box,
        "defender_counterattack": s.defender_counterattack,
        "alert_side": s.alert_side,
        "covering_fire": s.covering_fire,
        "intruders": intruders,
        "defenders": defenders,
        "markers": markers,
        "open_doors": open_doors,
        "rooms": rooms,
        "ended": s.ended,
    });
    if !peek.is_empty() {
        v["peek"] = Value::Array(peek);
    }
    v
}
