//! Sealed choices (the engine's `seal` and `reveal`): the Air Drop? counters (3.2), the
//! supply drop's (3.5), the free drop plans and the new plans after a drop zone change (3.3.2,
//! 3.6), the German's raid markers (S5.2) and KG Huber's master (S5.5). What a command seals
//! is split off before it is played; what is revealed is checked against the choices it may
//! name.
//!
//! Imports: the data and state, and the chapters a revealed choice plays on.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::engine::ruleset::{Ctx, RuleError};

use super::data::{self, DATA, TURNS};
use super::order::Command;
use super::rule;
use super::state::{self, Phase, State};
use super::{chits, specials, supply, turn};

/// The sealed part of a command and the command as the log shows it, for the commands that
/// seal a choice.
pub fn seal(command: &Command) -> Option<(Value, Command)> {
    match command {
        Command::AirDrop { at: Some(t) } => {
            Some((json!({ "drop_at": t }), Command::AirDrop { at: None }))
        }
        Command::Raid { day, real: Some(r) } => Some((
            json!({ "raid_marker": if *r { "raid" } else { "decoy" } }),
            Command::Raid {
                day: *day,
                real: None,
            },
        )),
        Command::Huber { division: Some(d) } => {
            Some((json!({ "huber": d }), Command::Huber { division: None }))
        }
        Command::Plan {
            drop,
            sticks: Some(v),
        } => Some((
            json!({ "plan": v }),
            Command::Plan {
                drop: *drop,
                sticks: None,
            },
        )),
        _ => None,
    }
}

/// A sealed choice opened: played where it lands.
pub fn reveal(
    s: &mut State,
    commitment: &str,
    choice: &Value,
    ctx: &mut Ctx,
) -> Result<(), RuleError> {
    if let Some(c) = s.air_drop.as_mut().filter(|c| c.commitment == commitment) {
        let t = choice
            .get("drop_at")
            .and_then(Value::as_str)
            .and_then(data::turn_index);
        let Some(t) = t.filter(|t| c.candidates.contains(t)) else {
            return Err(rule(
                "3.2 When to Drop",
                "the sealed Air Drop? choice names no candidate turn",
            ));
        };
        c.revealed = Some(t);
        let (day, now) = (c.day, s.time);
        ctx.say(format!(
            "Air Drop? flipped: {} — the drop comes at {} {day} Sept",
            if t == c.candidates[0] {
                "Air Drop!"
            } else {
                "No Drop"
            },
            TURNS[t]
        ));
        if day == s.day && t == now && !s.over {
            turn::arrive(s, ctx);
        }
        return Ok(());
    }
    if s.huber.commitment.as_deref() == Some(commitment) {
        let d = choice.get("huber").and_then(Value::as_str).unwrap_or("");
        return specials::reveal(s, ctx, d);
    }
    if let Some(c) = s
        .supply
        .counters
        .as_mut()
        .filter(|c| c.commitment == commitment)
    {
        let t = choice
            .get("drop_at")
            .and_then(Value::as_str)
            .and_then(data::turn_index);
        let Some(t) = t.filter(|t| c.candidates.contains(t)) else {
            return Err(rule(
                "3.5 Supply Drop Zones",
                "the sealed supply drop choice names no candidate turn",
            ));
        };
        c.revealed = Some(t);
        let (day, now) = (c.day, s.time);
        ctx.say(format!(
            "The supply drop's Air Drop? counter flipped: it comes at {} {day} Sept",
            TURNS[t]
        ));
        if day == s.day && t == now && !s.over {
            supply::supply_drop(s, ctx);
        }
        return Ok(());
    }
    if let Some(i) = s
        .raid_markers
        .iter()
        .position(|m| m.commitment == commitment)
    {
        let real = match choice.get("raid_marker").and_then(Value::as_str) {
            Some("raid") => true,
            Some("decoy") => false,
            _ => {
                return Err(rule(
                    "S5.2 The Eindhoven Air Raid",
                    "the sealed raid marker is neither raid nor decoy",
                ))
            }
        };
        chits::reveal_raid(s, ctx, i, real);
        return Ok(());
    }
    if let Some(d) = s
        .drops
        .iter_mut()
        .find(|d| d.plan_commitment.as_deref() == Some(commitment))
    {
        let plan: Vec<String> = choice
            .get("plan")
            .and_then(|v| serde_json::from_value(v.clone()).ok())
            .ok_or_else(|| {
                rule(
                    "3.3.2 The Free Drop Scenario",
                    "the sealed plan is not a list of formation:zone",
                )
            })?;
        ctx.say(format!("Drop {} plan opened: {}", d.number, plan.join(" ")));
        d.plan = Some(plan);
        return Ok(());
    }
    if s.superseded.iter().any(|c| c == commitment) {
        ctx.say("A drop plan replaced by the drop zone change is opened: it changes nothing (3.6)");
        return Ok(());
    }
    Err(rule(
        "sealed choices",
        "no sealed choice of this game has that commitment",
    ))
}

/// `plan <drop> …` after a successful drop zone change (3.6): the new plan for drop `next`.
pub fn replan(
    s: &mut State,
    ctx: &mut Ctx,
    next: u8,
    drop: u8,
    sticks: Option<&[String]>,
) -> Result<(), RuleError> {
    let commitment = sealed_plan(
        ctx,
        "3.6 Changing the Drop Location",
        (drop, next, "the new plan"),
        sticks,
    )?;
    let i = s
        .drops
        .iter()
        .position(|d| d.number == next)
        .ok_or_else(|| {
            rule(
                "3.6 Changing the Drop Location",
                format!("no Drop {next} is to come"),
            )
        })?;
    s.drops[i].plan_commitment = Some(commitment);
    ctx.say(format!(
        "The Allied player seals his new plan for Drop {next}"
    ));
    match s.drops[i + 1..].iter().find(|d| d.arrived.is_none()) {
        Some(d) => s.phase = Phase::Replan { next: d.number },
        None => supply::after_dz(s, ctx),
    }
    Ok(())
}

/// `plan <drop> …` before play, free drop scenario (3.3.2): the plan for drop `next`.
pub fn plan(
    s: &mut State,
    ctx: &mut Ctx,
    next: u8,
    drop: u8,
    sticks: Option<&[String]>,
) -> Result<(), RuleError> {
    let commitment = sealed_plan(
        ctx,
        "3.3.2 The Free Drop Scenario",
        (drop, next, "the plan"),
        sticks,
    )?;
    s.drops[usize::from(next) - 1].plan_commitment = Some(commitment);
    ctx.say(format!("The Allied player seals his plan for Drop {next}"));
    if usize::from(next) >= s.drops.len() {
        turn::enter_turn(s, ctx)?;
        if s.drops[0].arrived.is_none() && s.drops[0].day == s.day {
            turn::arrive(s, ctx);
        }
    } else {
        s.phase = Phase::Plans { next: next + 1 };
    }
    Ok(())
}

/// `raid <day> raid|decoy` before play, campaign (S5.2): the marker for `day`, sealed.
pub fn raid(s: &mut State, ctx: &mut Ctx, day: u8, said: u8) -> Result<(), RuleError> {
    if said != day {
        return Err(rule(
            "S5.2 The Eindhoven Air Raid",
            format!("seal the marker for the {day}th now: raid {day} raid|decoy"),
        ));
    }
    let commitment = ctx
        .commitment()
        .ok_or_else(|| {
            rule(
                "S5.2 The Eindhoven Air Raid",
                "a raid marker is sealed by the server: send it as 'raid <day> raid|decoy'",
            )
        })?
        .to_owned();
    s.raid_markers.push(state::RaidMarker {
        day,
        commitment,
        revealed: None,
    });
    ctx.say(format!(
        "The German player places his raid marker on the {day}th, face down"
    ));
    if day < 20 {
        s.phase = Phase::Raids { day: day + 1 };
    } else if s.drops.first().is_some_and(|d| d.arrived.is_none()) {
        s.phase = Phase::Plans { next: 1 };
    } else {
        turn::enter_turn(s, ctx)?;
    }
    Ok(())
}

/// A drop plan sealed now (3.3.2, and again after a change of drop location, 3.6): it is for
/// drop `next` (`drop` is the one named), its sticks (when the server still holds them) are a
/// valid plan, and the server sealed it. Returns its commitment; `section` names the rule.
fn sealed_plan(
    ctx: &Ctx<'_>,
    section: &str,
    (drop, next, what): (u8, u8, &str),
    sticks: Option<&[String]>,
) -> Result<String, RuleError> {
    if drop != next {
        return Err(rule(section, format!("seal {what} for Drop {next} now")));
    }
    if let Some(v) = sticks {
        check_plan(v)?;
    }
    ctx.commitment().map(str::to_owned).ok_or_else(|| {
        rule(
            section,
            "a drop plan is sealed by the server: send it as 'plan <drop> …'",
        )
    })
}

/// Checks a free drop plan (3.3.2): known zones, one Formation per zone; an independent
/// (`ind-…`) only in a zone another Formation uses.
fn check_plan(sticks: &[String]) -> Result<(), RuleError> {
    let r = |m: String| rule("3.3.2 The Free Drop Scenario", m);
    let mut zones: BTreeMap<&str, &str> = BTreeMap::new();
    let mut independents = Vec::new();
    if sticks.len() > 40 {
        return Err(r("at most 40 formations in a plan".into()));
    }
    for s in sticks {
        let (f, z) = s
            .split_once(':')
            .ok_or_else(|| r(format!("'{s}': write formation:zone, e.g. 506:B")))?;
        if f.is_empty() || !DATA.zones.contains_key(z) {
            return Err(r(format!("'{s}': the zones are A1, A, B, C, W")));
        }
        if f.starts_with("ind-") {
            independents.push((f, z));
        } else if let Some(other) = zones.insert(z, f) {
            return Err(r(format!(
                "{other} and {f} both in zone {z}: one Formation per zone per drop"
            )));
        }
    }
    for (f, z) in independents {
        if !zones.contains_key(z) {
            return Err(r(format!("the independent {f} drops only in a zone another Formation of its Division uses this drop, not {z}")));
        }
    }
    Ok(())
}
