//! What a seat sees: the view (JSON) and the board in text for turn mails — clock, weather,
//! drops and the Air Drop? counters (sealed until flipped), Club Route and the Hell's Highway
//! box, positions, markers, cups, bridges, disputes. The state holds no secret: a sealed
//! choice is only its commitment until it is revealed, so every viewer sees the same.

use serde_json::{json, Value};

use super::data::{DATA, TURNS};
use super::phase_name;
use super::state::{OffMap, Side, State};
use crate::engine::ruleset::Viewer;

/// May this viewer see the German off-map display (5.0: kept secret from the Allied player)?
pub(super) fn sees_off_map(viewer: &Viewer) -> bool {
    viewer.may_see(Some(&[Side::German.seat()]))
}

/// A numbered destination as the German reads it: marked when 5.1 or 5.2 forbids it.
fn destination(s: &State, formation: &str, to: &str) -> String {
    let from = match s.offmap.get(formation) {
        Some(OffMap::Box(b)) => b.as_str(),
        _ => return to.to_owned(),
    };
    let display = DATA.offmap.display_of(formation).unwrap_or_default();
    match super::offmap::legal(s, display, from, to) {
        Ok(()) if to == from => format!("{to} (stay)"),
        Ok(()) => to.to_owned(),
        Err(_) => format!("{to} (not from {from})"),
    }
}

/// The German off-map display and this 1900's private numbering, for the German view.
fn off_map(s: &State) -> Value {
    let at: serde_json::Map<String, Value> = s
        .offmap
        .iter()
        .map(|(f, p)| {
            let where_ = match p {
                OffMap::Box(b) => b.clone(),
                OffMap::Entering { letter, .. } => format!("map display, arriving at {letter}"),
                OffMap::OnMap => "on the map".into(),
                OffMap::Routed { back } => format!("routed, back from 0700 {back} Sept"),
            };
            (f.clone(), json!(where_))
        })
        .collect();
    let numbers: serde_json::Map<String, Value> = s
        .numbering
        .iter()
        .map(|(f, list)| {
            let m: serde_json::Map<String, Value> = list
                .iter()
                .enumerate()
                .map(|(i, d)| ((i + 1).to_string(), json!(destination(s, f, d))))
                .collect();
            (f.clone(), Value::Object(m))
        })
        .collect();
    json!({ "formations": at, "numbering": numbers })
}

fn corps(s: &State) -> Value {
    let m: serde_json::Map<String, Value> = s
        .corps
        .iter()
        .filter_map(|(id, c)| {
            let track = DATA.offmap.corps.iter().find(|t| &t.id == id)?;
            Some((
                id.clone(),
                json!({ "box": track.boxes[c.at], "failures": c.failures }),
            ))
        })
        .collect();
    Value::Object(m)
}

/// S5.4: the flak's types, the German's until the counters are flipped.
fn flak_view(s: &State, viewer: &Viewer) -> Value {
    if s.flak.is_empty() {
        return Value::Null;
    }
    if s.flak_flipped || sees_off_map(viewer) {
        json!(s.flak)
    } else {
        json!("secret until flipped (S5.4)")
    }
}

pub(super) fn flak_line(s: &State, viewer: &Viewer) -> Option<String> {
    if s.flak.is_empty() {
        return None;
    }
    Some(if s.flak_flipped || sees_off_map(viewer) {
        let f: Vec<String> = s.flak.iter().map(|(u, t)| format!("{u} {t}")).collect();
        format!(
            "Flak (S5.4){}: {}",
            if s.flak_flipped {
                ""
            } else {
                ", face down to the Allied"
            },
            f.join(", ")
        )
    } else {
        format!("Flak (S5.4): {} counters face down", s.flak.len())
    })
}

pub fn view(s: &State, viewer: &Viewer) -> Value {
    let drops: Vec<Value> = s
        .drops
        .iter()
        .map(|d| {
            json!({
                "number": d.number,
                "due_day": d.day,
                "arrived": d.arrived.map(|(day, t)| format!("{} {day} Sept", TURNS[t])),
                "plan": match (&d.plan, &d.plan_commitment) {
                    (Some(p), _) => json!(p),
                    (None, Some(_)) => json!("sealed"),
                    (None, None) => Value::Null,
                },
            })
        })
        .collect();
    let air_drop = s.air_drop.as_ref().map(|c| {
        json!({
            "day": c.day,
            "counters_on": [TURNS[c.candidates[0]], TURNS[c.candidates[1]]],
            "real_drop": c.revealed.map_or(json!("sealed"), |t| json!(TURNS[t])),
        })
    });
    let units: serde_json::Map<String, Value> = s
        .units
        .iter()
        .map(|(n, u)| {
            let m = s.marks.get(n).cloned().unwrap_or_default();
            (
                n.clone(),
                json!({
                    "side": u.side,
                    "hex": u.hex,
                    "column": u.column,
                    "steps": super::units::steps_of(n).map(|k| k.saturating_sub(m.lost)),
                    "steps_lost": m.lost,
                    "suppressed": m.suppressed,
                    "cohesion_hits": m.cohesion,
                }),
            )
        })
        .collect();
    let mut v = json!({
        "scenario": s.scenario,
        "clock": s.clock(),
        "last_turn": format!("{} {} Sept", TURNS[s.last.1], s.last.0),
        "phase": phase_name(&s.phase),
        "weather": s.weather.map(|w| w.name()),
        "drops": drops,
        "air_drop": air_drop,
        "impulse": s.impulse,
        "opportunity_window": s.window,
        "pending": s.pending,
        "units": units,
        "club_route": s.club_route,
        "club_route_marker": s.marker,
        "club_route_cleared_day": s.route_cleared_day,
        "spur": s.spur,
        "hells_highway": s.highway,
        "barrages": s.barrages,
        "rubble": s.rubble,
        "event_markers": json!({
            "heroic": s.heroic,
            "dutch": s.dutch,
            "minefields": s.minefields,
            "placing": s.placing(),
        }),
        "cups": s.cups,
        "held_out": s.held_out,
        "bridges": s.bridges,
        "stream_bridges": s.stream_bridges,
        "abandoned_transport": s.abandoned,
        "removed_from_play": s.gone,
        "disputes": s.disputes,
        "command_points": s.cp,
        "dispatch_points": s.dp,
        "mug": s.mug,
        "bought": s.bought,
        "chit": s.chit,
        "held_chit": s.held,
        "status_window": s.status_window(),
        "air_raid": s.air_raid,
        "raid_markers": s.raid_markers.iter().map(|m| json!({
            "day": m.day,
            "shows": match m.revealed {
                None => "face down",
                Some(true) => "raid",
                Some(false) => "decoy",
            },
        })).collect::<Vec<_>>(),
        "released": s.released,
        "entries_this_turn": s.entries,
        "flank_corps": corps(s),
        "off_map": if sees_off_map(viewer) { off_map(s) } else { json!("secret (5.0)") },
        "over": s.over,
    });
    let more = json!({
        "watch": ([Side::Allied, Side::German].map(|side| json!({
            "side": side,
            "hexes": s.watch.get(&side),
        }))),
        "activity": s.activity,
        "unit_marks": s.marks,
        "eliminated": s.eliminated,
        "drop_markers": s.drop_markers,
        "drop_awaiting": s.drop_awaiting,
        "air_strike": s.typhoons,
        "victory": super::victory::tally(s),
        "supply": json!({
            "drop_zone": s.supply.dz,
            "sdz_closed": s.supply.interdicted,
            "sea_tail_arrived": s.supply.ended,
            "last_drop_day": s.supply.today,
            "counters": s.supply.counters.as_ref().map(|c| json!({
                "day": c.day,
                "counters_on": [TURNS[c.candidates[0]], TURNS[c.candidates[1]]],
                "real_drop": c.revealed.map_or(json!("sealed"), |t| json!(TURNS[t])),
            })),
        }),
        "tq_modifiers": super::supply::tq_modifiers(s),
        "tq_modifiers_applied": s.tq_modifiers,
        "german_command": if s.kg_chill { "KG Chill" } else { "Eindhoven Regional Command" },
        "flak": flak_view(s, viewer),
        "kg_huber": match (&s.huber.chosen, &s.huber.commitment) {
            (Some(d), _) => json!(d),
            (None, Some(_)) => json!("sealed"),
            _ => Value::Null,
        },
        "piggyback": s.piggyback,
        "riding": s.riding,
        "assets_lost": s.assets_lost,
        "parks": s.parks,
        "road_blocks": s.roadblocks,
        "rearguards": s.rearguards,
        "rout_to_name": s.rout(),
        "routing": s.routing(),
        "entrenched": s.entrenched,
        "joe_mann": if s.mann_used { "spent" } else { "available" },
        "joe_mann_window": s.mann,
        "lost": s.lost(),
        "optional_rules": json!({
            "covering_fire": s.covering_fire,
            "alternate_chits": s.alternate_chits,
            "german_lost": s.german_lost,
            "airborne_tanks": s.airborne_tanks,
        }),
    });
    if let (Some(v), Value::Object(m)) = (v.as_object_mut(), more) {
        v.extend(m);
    }
    v
}

/// A unit's stated results for the text board: `, 2/3 steps, Suppressed, 1 Cohesion Hit`.
pub(super) fn marks_text(s: &State, unit: &str) -> String {
    let entrenched = if s.entrenched.contains(unit) {
        ", Entrenched (S3.1 Rout)"
    } else {
        ""
    };
    let Some(m) = s.marks.get(unit) else {
        return entrenched.to_owned();
    };
    let mut out = String::new();
    match (super::units::steps_of(unit), m.lost) {
        (_, 0) => {}
        (Some(k), lost) => out.push_str(&format!(", {}/{k} steps", k.saturating_sub(lost))),
        (None, lost) => out.push_str(&format!(", {lost} step(s) lost")),
    }
    if m.suppressed {
        out.push_str(", Suppressed");
    }
    if m.cohesion > 0 {
        out.push_str(&format!(
            ", {} Cohesion Hit{}",
            m.cohesion,
            if m.cohesion == 1 { "" } else { "s" }
        ));
    }
    out.push_str(entrenched);
    out
}

pub fn draw(s: &State, viewer: &Viewer) -> String {
    let mut out = String::new();
    let mut line = |t: String| {
        out.push_str(&t);
        out.push('\n');
    };
    line(format!(
        "WHERE EAGLES DARE — {} (last turn {} {} Sept)",
        s.clock(),
        TURNS[s.last.1],
        s.last.0
    ));
    line(format!(
        "Phase: {}; impulse: {}",
        phase_name(&s.phase),
        s.impulse.name()
    ));
    line(format!("Weather: {}", super::places::weather_words(s)));
    for d in &s.drops {
        let state = match d.arrived {
            Some((day, t)) => format!("came in {} {day} Sept", TURNS[t]),
            None => format!("due {} Sept", d.day),
        };
        let plan = match (&d.plan, &d.plan_commitment) {
            (Some(p), _) => format!("; plan {}", p.join(" ")),
            (None, Some(_)) => "; plan sealed".into(),
            _ => String::new(),
        };
        line(format!("Drop {}: {state}{plan}", d.number));
    }
    if let Some(c) = &s.air_drop {
        line(format!(
            "Air Drop? counters on {} and {} ({} Sept): {}",
            TURNS[c.candidates[0]],
            TURNS[c.candidates[1]],
            c.day,
            c.revealed.map_or("not flipped".into(), |t| format!(
                "the drop is at {}",
                TURNS[t]
            ))
        ));
    }
    if !s.drops.is_empty() {
        line(format!(
            "101st supply: zone {}{}{}",
            s.supply.dz,
            if s.supply.ended {
                ", Sea Tail arrived: always in supply".to_owned()
            } else if s.supply.interdicted {
                ", SDZ CLOSED".to_owned()
            } else {
                String::new()
            },
            s.supply
                .counters
                .as_ref()
                .filter(|c| c.day == s.day)
                .map(|c| format!(
                    "; supply drop counters on {} and {}: {}",
                    TURNS[c.candidates[0]],
                    TURNS[c.candidates[1]],
                    c.revealed
                        .map_or("not flipped".into(), |t| format!("at {}", TURNS[t]))
                ))
                .unwrap_or_default()
        ));
    }
    let tq = super::supply::tq_modifiers(s);
    if !tq.is_empty() {
        line(format!("TQ modifiers in force: {}", tq.join("; ")));
        line(
            if s.tq_modifiers {
                "  (applied to the faces stated on tq and rally, decision 42)"
            } else {
                "  (option tq_modifiers off: count them in the faces stated)"
            }
            .into(),
        );
    }
    if s.kg_chill {
        line("German command: KG Chill (replaced the Eindhoven Regional Command, S5.1.1)".into());
    }
    let route: Vec<String> = s.club_route.iter().map(|h| h.to_string()).collect();
    line(format!(
        "Club Route: {} | marker {} | status {}",
        route.join(" "),
        s.marker.map_or("off the map".into(), |h| h.to_string()),
        if s.highway.cut { "CUT" } else { "Open" }
    ));
    line(format!(
        "Hell's Highway box: {} Attacked, {} Closed (set aside: {}, {})",
        s.highway.attacked, s.highway.closed, s.highway.used_attacked, s.highway.used_closed
    ));
    for (name, u) in &s.units {
        line(format!(
            "  {:<10} {:<7} {}{}{}",
            name,
            u.side.name(),
            u.hex,
            if u.column { " column" } else { "" },
            marks_text(s, name)
        ));
    }
    if !s.barrages.is_empty() || !s.rubble.is_empty() {
        let b: Vec<String> = s
            .barrages
            .iter()
            .map(|(h, heavy, _)| format!("{h} {}", if *heavy { "heavy" } else { "light" }))
            .collect();
        let r: Vec<String> = s.rubble.iter().map(|h| h.to_string()).collect();
        line(format!(
            "Barrages: {} | Rubble: {}",
            b.join(", "),
            r.join(", ")
        ));
    }
    if let Some(t) = &s.typhoons {
        let h: Vec<String> = t.hexes.iter().map(|h| h.to_string()).collect();
        line(format!(
            "Air Strike (S3.1): {} Typhoon(s) to place{}{}",
            t.left,
            t.formation
                .as_ref()
                .map(|f| format!(" for {f}"))
                .unwrap_or_default(),
            if h.is_empty() {
                String::new()
            } else {
                format!("; to attack: {}", h.join(" "))
            }
        ));
    }
    if !s.heroic.is_empty() || !s.dutch.is_empty() || !s.minefields.is_empty() {
        let mut m: Vec<String> = Vec::new();
        m.extend(
            s.heroic
                .iter()
                .map(|(side, u)| format!("Heroic ({}) on {u}", side.name())),
        );
        m.extend(
            s.dutch
                .iter()
                .map(|(side, h)| format!("Dutch ({}) {h}", side.name())),
        );
        m.extend(s.minefields.iter().map(|h| format!("Minefield {h}")));
        line(format!("Events: {}", m.join(", ")));
    }
    let points: Vec<String> = DATA
        .divisions
        .iter()
        .filter(|d| super::supply::in_play(s, &d.id))
        .map(|d| {
            format!(
                "{} {}/{}",
                d.id,
                s.cp.get(&d.id).unwrap_or(&0),
                s.dp.get(&d.id).unwrap_or(&0)
            )
        })
        .collect();
    line(format!("CP/DP: {}", points.join(", ")));
    line(format!(
        "Chit: {} | mug: {}{}",
        s.chit.as_deref().unwrap_or("-"),
        if s.mug.is_empty() {
            "empty".to_owned()
        } else {
            s.mug.join(" ")
        },
        s.held
            .as_ref()
            .map(|h| format!(" | held: {h}"))
            .unwrap_or_default()
    ));
    if !s.released.is_empty() {
        line(format!("Released: {}", s.released.join(" ")));
    }
    line(super::victory::line(s));
    for (id, c) in &s.corps {
        if let Some(t) = DATA.offmap.corps.iter().find(|t| &t.id == id) {
            line(format!(
                "{} Corps: {} ({} failures; the track is reconstructed)",
                id.to_uppercase(),
                t.boxes[c.at],
                c.failures
            ));
        }
    }
    holdings(s, viewer, &mut line);
    bridge_lines(s, &mut line);
    if !s.abandoned.is_empty() {
        line(format!("Abandoned transport: {}", s.abandoned.join(" ")));
    }
    if !s.drop_markers.is_empty() {
        let on: Vec<String> = s
            .drop_markers
            .iter()
            .map(|(u, n)| format!("{u} x{n}"))
            .collect();
        line(format!("Glider/paradrop markers (3.4.2): {}", on.join(" ")));
    }
    if !s.drop_awaiting.is_empty() {
        line(format!(
            "Dropped, to roll on the Drop Table (3.4.1, its rows reconstructed): {}",
            s.drop_awaiting.join(" ")
        ));
    }
    let over: Vec<String> = s
        .activity
        .iter()
        .filter_map(|(u, a)| a.over.as_ref().map(|why| format!("{u} ({why})")))
        .collect();
    if !over.is_empty() {
        line(format!("Activation over this impulse: {}", over.join(", ")));
    }
    for (side, w) in &s.watch {
        line(format!(
            "{} watch list (opportunity fire windows): {}",
            side.name(),
            if w.is_empty() {
                "no hex".to_owned()
            } else {
                w.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            }
        ));
    }
    for d in &s.disputes {
        line(format!(
            "Dispute by {} of event {}: {}",
            d.by.name(),
            d.seq,
            d.text
        ));
    }
    line(super::places::RECONSTRUCTED.to_owned());
    super::super::fit_for_mail(&out)
}

/// The board's text: the off-map display (its owner's), flak, transport, parks, road blocks,
/// rear guards, specials and the event cups.
fn holdings(s: &State, viewer: &Viewer, line: &mut dyn FnMut(String)) {
    if sees_off_map(viewer) {
        for (f, p) in &s.offmap {
            let where_ = match p {
                OffMap::Box(b) => b.clone(),
                OffMap::Entering { letter, .. } => format!("entering at {letter}"),
                OffMap::OnMap => "on the map".into(),
                OffMap::Routed { back } => format!("routed, back from {back} Sept"),
            };
            let numbers = s
                .numbering
                .get(f)
                .map(|l| {
                    let n: Vec<String> = l
                        .iter()
                        .enumerate()
                        .map(|(i, d)| (i + 1, destination(s, f, d)))
                        .filter(|(_, d)| !d.contains("(not from"))
                        .map(|(i, d)| format!("{i}={d}"))
                        .collect();
                    format!(" | {}", n.join(" "))
                })
                .unwrap_or_default();
            line(format!("Off map {f}: {where_}{numbers}"));
        }
    }
    if let Some(l) = flak_line(s, viewer) {
        line(l);
    }
    match (&s.huber.chosen, &s.huber.commitment) {
        (Some(d), _) => line(format!("KG Huber: {d} (S5.5)")),
        (None, Some(_)) => line("KG Huber: chosen face down (S5.5)".into()),
        _ => {}
    }
    for (v, i) in &s.piggyback {
        line(format!("Piggyback: {i} on {v} (S4)"));
    }
    for (u, (k, d)) in &s.riding {
        line(format!("{u} rides a {d} {k}"));
    }
    for p in s.parks.iter().filter(|p| p.hex.is_some()) {
        line(format!(
            "Artillery Park {} ({}, value {}) at {}: {}",
            p.id,
            p.side.name(),
            p.value,
            p.hex.map_or("-".into(), |h| h.to_string()),
            if p.units.is_empty() {
                "empty".to_owned()
            } else {
                p.units.join(" ")
            }
        ));
    }
    if !s.roadblocks.is_empty() {
        let r: Vec<String> = s
            .roadblocks
            .iter()
            .map(|(h, x)| format!("{h} {}", x.name()))
            .collect();
        line(format!("Road blocks: {}", r.join(", ")));
    }
    if let Some(t) = &s.airborne_tanks {
        line(format!(
            "O4.0: two {t} companies land with Drop One, each a stick under a delay marker"
        ));
    }
    if s.scenario != "a-ride-in-the-country" {
        line(format!(
            "PFC Joe Mann (S6.9): {}",
            if s.mann_used { "spent" } else { "available" }
        ));
    }
    for (side, cup) in &s.cups {
        line(format!("{} cup: {}", side.name(), cup.join(", ")));
    }
}

/// The board's text: the bridges' markers (2.11, 2.15, 2.18).
fn bridge_lines(s: &State, line: &mut dyn FnMut(String)) {
    for (name, b) in &s.bridges {
        let mut marks = Vec::new();
        if b.destroyed {
            marks.push("destroyed".to_owned());
        }
        if let Some(w) = b.wired_by {
            marks.push(format!("wired by {}", w.name()));
        }
        if b.wired_by.is_some() && !b.contested.is_empty() {
            let h: Vec<String> = b.contested.iter().map(|h| h.to_string()).collect();
            marks.push(format!(
                "contested (the enemy entered {} last)",
                h.join(" ")
            ));
        }
        if let (Some(r), Some(d)) = (&b.regain, DATA.bridge(name)) {
            let missing: Vec<String> = r
                .still_to_enter(d.hexes)
                .iter()
                .map(ToString::to_string)
                .collect();
            marks.push(if missing.is_empty() {
                format!(
                    "{} demolition missed; control regained, it may wire again",
                    r.side.name()
                )
            } else {
                format!(
                    "{} demolition missed; {} units to enter {} to regain control before wiring again",
                    r.side.name(),
                    r.side.name(),
                    missing.join(" and ")
                )
            });
        }
        if b.improved {
            marks.push("improved".into());
        }
        if let Some(x) = &b.bailey {
            marks.push(format!("Bailey {} {}", x.unit, x.state()));
        }
        if let Some(f) = &b.ferry {
            marks.push(format!(
                "{} ferry {} at {} to {}{}",
                f.side.name(),
                f.unit,
                f.at,
                f.to,
                if f.suppressed { ", Suppressed" } else { "" }
            ));
        }
        if !marks.is_empty() {
            line(format!("Bridge {name}: {}", marks.join("; ")));
        }
    }
    for d in &DATA.stream_bridges {
        let Some(x) = s.stream_bridges.get(&d.name).filter(|x| x.checked) else {
            continue;
        };
        line(format!(
            "Stream bridge {} {}/{}: {}{}{}",
            d.name,
            d.hexes.0,
            d.hexes.1,
            if x.unstable { "UNSTABLE" } else { "stable" },
            x.bulldozer
                .as_ref()
                .map(|b| format!(", Bulldozer {b}"))
                .unwrap_or_default(),
            if x.men_at_work > 0 {
                format!(", {} Men at Work", x.men_at_work)
            } else {
                String::new()
            }
        ));
    }
}
