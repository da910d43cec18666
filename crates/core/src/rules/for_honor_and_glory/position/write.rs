//! A state written as a position (issue 39): the statements [`super::read`] reads back onto the
//! set-up of the same scenario to the same state, each group by its own function.

use super::super::battle::{Battle, BattleResult, Went};
use super::super::order::{describe_action, describe_standing, Action, Standing};
use super::super::units::Side;
use super::super::State;

/// `state` as a position of its scenario. `None` if a text of the state (a result's summary)
/// cannot stand on a line (a line break, or a `#`, which starts a comment).
pub fn write(state: &State) -> Option<String> {
    let mut out = Vec::new();
    campaign(state, &mut out)?;
    let b = &state.battle;
    turn(b, &mut out);
    units(b, &mut out);
    standing(b, &mut out);
    this_turn(b, &mut out);
    if let Some(r) = &b.result {
        out.push(format!("result {}", result(r)?));
    }
    if let Some(r) = &state.finished {
        out.push(format!("finished {}", result(r)?));
    }
    Some(out.join("\n") + "\n")
}

/// `battle` and `fought`: the campaign's battle being fought and those before it (and, once
/// the campaign has ended, that one too).
fn campaign(state: &State, out: &mut Vec<String>) -> Option<()> {
    let Some(c) = &state.campaign else {
        return Some(());
    };
    let current = (c.fought.len() + 1).min(c.scenarios.len());
    out.push(format!("battle {current}"));
    for (i, f) in c.fought.iter().enumerate() {
        out.push(format!("fought {} {}", i + 1, result(&f.result)?));
    }
    Some(())
}

/// `turn`, `active`, `ap`, and each side's `vp`, `leaders-lost` and `command`.
fn turn(b: &Battle, out: &mut Vec<String>) {
    out.push(format!("turn {}", b.turn));
    out.push(format!("active {}", b.active.name()));
    out.push(format!("ap {}", b.ap));
    for side in [Side::AMERICAN, Side::BRITISH] {
        let s = &b.sides[usize::from(side.0)];
        let name = side.name();
        out.push(format!("vp {name} {}", s.vp));
        out.push(format!("leaders-lost {name} {}", s.leaders_lost));
        out.push(format!("command {name} {}", s.command));
    }
}

/// A `unit` line for every unit of the scenario, on the map or gone.
fn units(b: &Battle, out: &mut Vec<String>) {
    for (i, u) in b.units.iter().enumerate() {
        let text = serde_json::to_value(u).expect("units serialise");
        out.push(format!(
            "unit {}: {}",
            i + 1,
            text.as_str().expect("a unit is a string")
        ));
    }
}

/// Each side's standing orders (11.12 only when in force).
fn standing(b: &Battle, out: &mut Vec<String>) {
    for side in [Side::AMERICAN, Side::BRITISH] {
        let s = &b.sides[usize::from(side.0)];
        let name = side.name();
        for order in [
            Standing::TiedHitsToGuns(s.tied_hits_to_guns),
            Standing::RetreatTowards(s.retreat_towards),
            Standing::LeadersTowards(s.leaders_towards),
        ] {
            out.push(format!("standing {name}: {}", describe_standing(order)));
        }
        if b.options.has(12) {
            out.push(format!(
                "standing {name}: {}",
                describe_action(&Action::Dragoons { evade: s.evade })
            ));
        }
    }
}

/// The player turn's attacks (11.9) and the units' trails.
fn this_turn(b: &Battle, out: &mut Vec<String>) {
    for (from, to) in &b.attacks {
        out.push(format!("attack {from} {to}"));
    }
    for t in &b.trails {
        let hexes: Vec<String> = t.hexes.iter().map(ToString::to_string).collect();
        out.push(format!(
            "trail {} {}: {}",
            t.unit + 1,
            match t.went {
                Went::Moved => "moved",
                Went::Retreated => "retreated",
            },
            hexes.join(" ")
        ));
    }
}

/// `<winner> <VP> <VP> <campaign VP> <campaign VP>: <summary>`.
fn result(r: &BattleResult) -> Option<String> {
    if r.summary.contains(['\n', '\r', '#']) || r.summary.trim().is_empty() {
        return None;
    }
    Some(format!(
        "{} {} {} {} {}: {}",
        r.winner.map_or("draw", Side::name),
        r.vp[0],
        r.vp[1],
        r.campaign_vp[0],
        r.campaign_vp[1],
        r.summary.trim()
    ))
}
