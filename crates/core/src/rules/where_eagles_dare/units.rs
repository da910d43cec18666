//! Special rules about units and markers: artillery parks (S1), road blocks and rearguards
//! limited by the counter mix (S2, 2.15.2), piggyback riding (S4), divisional trucks and jeeps
//! (S5.3, S6.3) and PFC Joe Mann (S6.9). The counter mix is `data/assets.txt`
//! (reconstructed).

use std::collections::BTreeMap;

use super::data::DATA;
use super::hex::Hex;
use super::oob::{Class, OOB};
use super::rule;
use super::state::{Marks, Pending, Side, State, Unit};
use crate::engine::ruleset::{Ctx, RuleError};

const S1: &str = "S1.0 Artillery Parks";
const S2: &str = "S2.0 Road Blocks and Rearguards";
const S4: &str = "S4.0 Piggyback Mode";
const S5_3: &str = "S5.3 Divisional Trucks / S6.3 Divisional Jeeps";
const S6_9: &str = "S6.9 Heroes (PFC Joe Mann)";

fn own(s: &State, side: Side, unit: &str, section: &str) -> Result<Unit, RuleError> {
    match s.units.get(unit) {
        Some(u) if u.side == side => Ok(u.clone()),
        Some(u) => Err(rule(section, format!("{unit} is a {} unit", u.side.name()))),
        None => Err(rule(
            section,
            format!("{unit} is not on the map: move it onto its hex first"),
        )),
    }
}

/// The vehicle an infantry unit rides piggyback on, if it does.
fn riding_on(s: &State, infantry: &str) -> Option<String> {
    s.piggyback
        .iter()
        .find(|(_, i)| i.as_str() == infantry)
        .map(|(v, _)| v.clone())
}

/// 3.4.2: a Unit under a glider/paradrop marker performs no other Action until all are removed.
pub fn check_markers(s: &State, unit: &str) -> Result<(), RuleError> {
    if s.drop_awaiting.iter().any(|u| u == unit) {
        return Err(rule(
            "3.4.1 The Drop Table",
            format!(
                "{unit} has just dropped: it rolls on the Drop Table (droproll {unit} <zone>) before any other Action"
            ),
        ));
    }
    if let Some(n) = s.drop_markers.get(unit).filter(|n| **n > 0) {
        return Err(rule(
            "3.4.2 Glider/Paradrop Markers",
            format!(
                "{unit} is under {n} glider/paradrop marker{}: it performs no other Action until all are removed (unmark {unit}, one Action each)",
                if *n == 1 { "" } else { "s" }
            ),
        ));
    }
    Ok(())
}

/// 3.4.2, S4.3, S1: what a unit may not do now. `moving`: a move (a carrying vehicle may move; a
/// parked artillery unit may not).
pub fn check_action(
    s: &State,
    unit: &str,
    moving: bool,
    class: Option<&str>,
) -> Result<(), RuleError> {
    check_markers(s, unit)?;
    if let Some(v) = riding_on(s, unit) {
        return Err(rule(
            S4,
            format!(
                "{unit} rides piggyback on {v}: it performs no Action (its vehicle dismounts it)"
            ),
        ));
    }
    if !moving && s.piggyback.contains_key(unit) {
        return Err(rule(
            S4,
            format!(
                "{unit} carries {}: it may only move and dismount",
                s.piggyback[unit]
            ),
        ));
    }
    if let Some(p) = s.parks.iter().find(|p| p.units.iter().any(|u| u == unit)) {
        if moving {
            return Err(rule(
                S1,
                format!("{unit} is in the {} Artillery Park: it never leaves", p.id),
            ));
        }
        if class.is_some_and(|c| c != "indirect-he") {
            return Err(rule(
                S1,
                format!("{unit} is in an Artillery Park: it never performs Direct Fire"),
            ));
        }
    }
    Ok(())
}

/// After a move: a vehicle's piggyback rider and a truck's or jeep's passenger go with it;
/// an enemy unit entering an artillery park's hex eliminates every unit in its box (S1).
pub fn after_move(s: &mut State, ctx: &mut Ctx, side: Side, unit: &str, steps: &[Hex]) {
    if let Some(inf) = s.piggyback.get(unit).cloned() {
        if let Some((hex, column)) = s.units.get(unit).map(|u| (u.hex, u.column)) {
            if let Some(i) = s.units.get_mut(&inf) {
                i.hex = hex;
                i.column = column;
            }
        }
    }
    let mut lost = Vec::new();
    for p in s.parks.iter_mut() {
        let Some(at) = p.hex else { continue };
        if p.side != side && steps.contains(&at) && !p.units.is_empty() {
            ctx.say(format!(
                "{unit} enters {at}, the {} Artillery Park's hex: every unit in its box is eliminated ({}) (S1.0)",
                p.id,
                p.units.join(", ")
            ));
            lost.extend(p.units.iter().cloned());
            s.gone.append(&mut p.units);
        }
    }
    for u in lost {
        eliminate(s, &u);
    }
}

/// S4.4: a fire result (other than none or S?) on a piggyback pair's hex dismounts the rider;
/// an assault does at its declaration. A truck's or jeep's passenger eliminated loses it.
pub fn result(s: &mut State, ctx: &mut Ctx, p: &Pending, class: &str) {
    if p.fire && !matches!(class, "none" | "s?") {
        dismount_all_at(s, ctx, p.hex, "a fire result");
    }
    let gone: Vec<String> = s
        .riding
        .keys()
        .filter(|u| !s.units.contains_key(*u))
        .cloned()
        .collect();
    for u in gone {
        let (kind, division) = s.riding.remove(&u).expect("present");
        *s.assets_lost
            .entry(format!("{kind}:{division}"))
            .or_default() += 1;
        ctx.say(format!(
            "{u} is eliminated: its {division} {kind} is removed from the game ({S5_3})"
        ));
    }
    let left: Vec<String> = s
        .piggyback
        .iter()
        .filter(|(v, i)| !s.units.contains_key(*v) || !s.units.contains_key(*i))
        .map(|(v, _)| v.clone())
        .collect();
    for v in left {
        s.piggyback.remove(&v);
    }
}

/// 2.16 (decision 34): a piggyback rider put down out of Column is a Leg Unit leaving Column;
/// in Column in a raised road's or railroad's hex the loaded map knows, "this costs one
/// movement point or the Leg Unit must take a Cohesion Hit".
fn rider_off_raised(s: &State, rider: &str, hex: Hex) -> bool {
    s.units.get(rider).is_some_and(|u| u.column)
        && s.map
            .as_ref()
            .is_some_and(|m| m.map.hexes.get(&hex).is_some_and(|x| x.raised))
}

/// One more Cohesion Hit on a unit's marks (decision 15).
fn cohesion_hit(s: &mut State, unit: &str) -> u32 {
    let m = s.marks.entry(unit.to_owned()).or_default();
    m.cohesion += 1;
    m.cohesion
}

/// S4.4: the riders in `hex` dismount, not in Column (no opportunity fire). On a raised road
/// no movement is made (the dismount ends the vehicle's activation), so a rider in Column
/// there takes the Cohesion Hit of 2.16 (decision 34).
pub fn dismount_all_at(s: &mut State, ctx: &mut Ctx, hex: Hex, why: &str) {
    let pairs: Vec<(String, String)> = s
        .piggyback
        .iter()
        .filter(|(v, _)| s.units.get(*v).is_some_and(|u| u.hex == hex))
        .map(|(v, i)| (v.clone(), i.clone()))
        .collect();
    for (v, i) in pairs {
        s.piggyback.remove(&v);
        let raised = rider_off_raised(s, &i, hex);
        if let Some(u) = s.units.get_mut(&i) {
            u.column = false;
        }
        ctx.say(format!(
            "{why}: {i} must dismount from {v}, not in Column (S4.4)"
        ));
        // "This mandatory dismount ends the Activation of the Vehicle Unit"; the rider, never
        // active while carried (S4.2), acts at its next Activation.
        super::activity::end(s, &v, "S4.4 Piggyback Mode and Combat");
        super::activity::end(s, &i, "S4.2 Exiting Piggyback Mode");
        if raised {
            let n = cohesion_hit(s, &i);
            ctx.say(format!(
                "{i} leaves Column on the raised road at {hex} with no movement made: it takes a Cohesion Hit ({n} on it; 2.16, decision 34)"
            ));
        }
    }
}

/// `mount <infantry> <vehicle>` (S4.1): both in one hex, one rider a vehicle, not twice.
pub fn check_mount(s: &State, side: Side, infantry: &str, vehicle: &str) -> Result<(), RuleError> {
    let i = own(s, side, infantry, S4)?;
    let v = own(s, side, vehicle, S4)?;
    if infantry == vehicle {
        return Err(rule(S4, "a unit cannot ride on itself"));
    }
    if i.hex != v.hex {
        return Err(rule(
            S4,
            format!(
                "{infantry} is at {} and {vehicle} at {}: they start in the same hex",
                i.hex, v.hex
            ),
        ));
    }
    if let Some(x) = s.piggyback.get(vehicle) {
        return Err(rule(
            S4,
            format!("{vehicle} carries {x} already: one Infantry Unit a Vehicle"),
        ));
    }
    if riding_on(s, infantry).is_some()
        || s.piggyback.contains_key(infantry)
        || riding_on(s, vehicle).is_some()
    {
        return Err(rule(
            S4,
            format!("{infantry} or {vehicle} is in piggyback mode already"),
        ));
    }
    if s.riding.contains_key(infantry) {
        return Err(rule(
            S4,
            format!("{infantry} rides a divisional truck or jeep"),
        ));
    }
    check_piggyback_oob(s, infantry, vehicle)?;
    check_action(s, infantry, true, None)?;
    // S4.1: "it takes an entire movement action by both units": the chit in play activates the
    // vehicle too, and it may act (no glider/paradrop marker, not in a park).
    super::command::check_active(s, side, vehicle)?;
    check_action(s, vehicle, true, None)?;
    super::activity::check(s, vehicle)
}

/// A unit's class as the errors say it.
fn class_name(c: Class) -> String {
    format!("{c:?}").to_lowercase()
}

/// A Vehicle Unit of the order of battle (decision 45): an armor Unit, or a recon, anti-tank,
/// artillery or HQ Unit on its own organic transport (wheeled, tracked, truck, halftrack) not
/// abandoned. An infantry or engineer Unit with organic transport is a Leg Unit that rides its
/// own vehicles, not a Vehicle Unit.
pub fn is_vehicle(s: &State, unit: &str) -> Option<bool> {
    let d = OOB.unit(unit)?;
    let abandoned = s.abandoned.iter().any(|a| a == unit);
    Some(match d.class {
        Class::Armor => true,
        Class::Recon | Class::At | Class::Artillery | Class::Hq => {
            d.transport.is_some() && !abandoned
        }
        _ => false,
    })
}

/// S4.0, S4.3 by the order of battle (decision 45), where it knows the units (decision 12):
/// "Infantry Units without Organic Transport may 'piggyback ride' on Vehicle Units of their
/// Formation"; "Infantry Units with an Organic Transport can never piggyback"; "A Vehicle Unit
/// cannot carry an Infantry Unit unless the Vehicle Unit has at least as many Steps as the
/// Infantry Unit" (steps left: the order of battle's less those lost on the marks).
fn check_piggyback_oob(s: &State, infantry: &str, vehicle: &str) -> Result<(), RuleError> {
    const S4_3: &str = "S4.3 Restrictions on Piggyback Mode";
    if let Some(d) = OOB.unit(infantry) {
        if !matches!(d.class, Class::Infantry | Class::Engineer) {
            return Err(rule(
                S4,
                format!(
                    "{infantry} is a {} Unit: only Infantry Units ride piggyback; mount an infantry Unit of {}",
                    class_name(d.class),
                    d.formation
                ),
            ));
        }
        if let Some(tr) = &d.transport {
            return Err(rule(
                S4_3,
                format!(
                    "{infantry} has an Organic Transport ({tr}): Infantry Units with an Organic Transport can never piggyback; move {infantry} mounted on its own"
                ),
            ));
        }
    }
    if let Some(d) = OOB.unit(vehicle) {
        if is_vehicle(s, vehicle) == Some(false) {
            return Err(rule(
                S4,
                format!(
                    "{vehicle} is a {} Unit{}, not a Vehicle Unit: an Infantry Unit rides piggyback on a Vehicle Unit of its Formation",
                    class_name(d.class),
                    if s.abandoned.iter().any(|a| a == vehicle) {
                        " whose transport is abandoned"
                    } else {
                        ""
                    }
                ),
            ));
        }
    }
    if let (Some(i), Some(v)) = (OOB.unit(infantry), OOB.unit(vehicle)) {
        if i.formation != v.formation {
            let mut others = OOB
                .units_of(&i.formation)
                .filter(|u| is_vehicle(s, &u.id) == Some(true))
                .map(|u| u.id.clone())
                .peekable();
            return Err(rule(
                S4,
                format!(
                    "{infantry} is of {} and {vehicle} of {}: an Infantry Unit rides only on Vehicle Units of its Formation ({})",
                    i.formation,
                    v.formation,
                    if others.peek().is_some() {
                        others.collect::<Vec<_>>().join(", ")
                    } else {
                        format!("{} has none", i.formation)
                    }
                ),
            ));
        }
        let left = |u: &super::oob::UnitDef| {
            u.steps
                .saturating_sub(s.marks.get(&u.id).map_or(0, |m| m.lost))
        };
        if left(v) < left(i) {
            return Err(rule(
                S4_3,
                format!(
                    "{vehicle} has {} step{} and {infantry} {}: a Vehicle Unit carries an Infantry Unit only with at least as many Steps",
                    left(v),
                    if left(v) == 1 { "" } else { "s" },
                    left(i)
                ),
            ));
        }
    }
    Ok(())
}

pub fn mount(s: &mut State, ctx: &mut Ctx, infantry: &str, vehicle: &str) -> Hex {
    s.piggyback.insert(vehicle.to_owned(), infantry.to_owned());
    let hex = s.units[vehicle].hex;
    ctx.say(format!(
        "{infantry} mounts {vehicle} piggyback (a whole movement action of both, S4.1)"
    ));
    hex
}

/// `dismount <unit> [abandon]`: a vehicle puts its rider down (S4.2, half its movement; the
/// rider not in Column), or a unit leaves its truck or jeep (S5.3, S6.3; `abandon` loses it).
pub fn check_dismount(s: &State, side: Side, unit: &str, cohesion: bool) -> Result<(), RuleError> {
    own(s, side, unit, S4)?;
    if !s.piggyback.contains_key(unit) && !s.riding.contains_key(unit) {
        return Err(rule(
            S4,
            format!("{unit} carries nobody and rides no truck or jeep"),
        ));
    }
    let raised = s
        .piggyback
        .get(unit)
        .is_some_and(|i| rider_off_raised(s, i, s.units[unit].hex));
    if cohesion && !raised {
        return Err(rule(
            "2.16 Raised Roads/Railroads",
            format!(
                "'cohesion' pays for a piggyback rider put down in Column on a raised road or railroad (decision 34); {unit} puts down none there: dismount {unit}"
            ),
        ));
    }
    Ok(())
}

/// S4.2: the vehicle puts its rider down, not in Column; in Column on a raised road the rider
/// leaves Column (2.16, decision 34): one movement point, counted in the dismount (the
/// vehicle's Movement Action), or with `cohesion` a Cohesion Hit on the rider instead.
pub fn dismount(s: &mut State, ctx: &mut Ctx, unit: &str, abandon: bool, cohesion: bool) -> Hex {
    let hex = s.units[unit].hex;
    if let Some(i) = s.piggyback.remove(unit) {
        // S4.2: "the infantry Unit cannot perform any Actions until its next Activation".
        super::activity::end(s, &i, "S4.2 Exiting Piggyback Mode");
        let raised = rider_off_raised(s, &i, hex);
        if let Some(u) = s.units.get_mut(&i) {
            u.column = false;
        }
        ctx.say(format!("{unit} dismounts {i}, not in Column (S4.2: half the vehicle's movement allowance; opportunity fire before or after, the firer's choice)"));
        if raised && cohesion {
            let n = cohesion_hit(s, &i);
            ctx.say(format!(
                "{i} leaves Column on the raised road at {hex} and takes a Cohesion Hit instead of the movement point ({n} on it; 2.16, decision 34)"
            ));
        } else if raised {
            ctx.say(format!(
                "{i} leaves Column on the raised road at {hex}: 1 movement point, counted in {unit}'s dismount (2.16, decision 34; or a Cohesion Hit on {i} instead: dismount {unit} cohesion)"
            ));
        }
    } else if let Some((kind, division)) = s.riding.remove(unit) {
        if abandon {
            *s.assets_lost
                .entry(format!("{kind}:{division}"))
                .or_default() += 1;
            ctx.say(format!(
                "{unit} abandons its {division} {kind}: removed from the game ({S5_3})"
            ));
        } else {
            ctx.say(format!("{unit} dismounts: the {division} {kind} goes back off the map, free for another unit ({S5_3})"));
        }
    }
    hex
}

/// The trucks or jeeps of a division free now: the counter mix, less those lost and in use.
pub fn free_assets(s: &State, kind: &str, division: &str) -> u32 {
    let Some(a) = DATA
        .assets
        .iter()
        .find(|a| a.kind == kind && a.division == division)
    else {
        return 0;
    };
    if s.day < a.from {
        return 0;
    }
    let used = s
        .riding
        .values()
        .filter(|(k, d)| k == kind && d == division)
        .count() as u32;
    let lost = s
        .assets_lost
        .get(&format!("{kind}:{division}"))
        .copied()
        .unwrap_or(0);
    a.count.saturating_sub(used + lost)
}

/// `truck|jeep <unit> <division>` (S5.3, S6.3): a Leg Unit of the division mounts one.
pub fn check_ride(
    s: &State,
    side: Side,
    kind: &str,
    unit: &str,
    division: &str,
) -> Result<(), RuleError> {
    own(s, side, unit, S5_3)?;
    if DATA.division(division).is_none_or(|d| d.side != side) {
        return Err(rule(
            S5_3,
            format!("{division} is not one of your divisions"),
        ));
    }
    // S5.3, S6.3: "a Unit of the owning Division may use these assets. As an Action the Leg
    // Unit may mount just as if it had Organic Transport" (decision 44). A counter outside the
    // order of battle is the players' (decision 12).
    if let Some(d) = OOB.unit(unit) {
        let own = OOB.division_of(unit).unwrap_or_default();
        if own != division {
            let has = DATA
                .assets
                .iter()
                .any(|a| a.kind == kind && a.division == own);
            return Err(rule(
                S5_3,
                format!(
                    "{unit} is of the {own}: only a Unit of the owning Division uses the {division}'s {kind}s; {}",
                    if has {
                        format!("use its own: {kind} {unit} {own}")
                    } else {
                        format!("the {own} has no {kind}s")
                    }
                ),
            ));
        }
        if matches!(d.class, Class::Armor | Class::Flak) {
            return Err(rule(
                S5_3,
                format!(
                    "{unit} is a {} Unit, not a Leg Unit: only a Leg Unit mounts a divisional {kind}",
                    format!("{:?}", d.class).to_lowercase()
                ),
            ));
        }
        if let Some(tr) = d
            .transport
            .as_deref()
            .filter(|_| !s.abandoned.iter().any(|a| a == unit))
        {
            return Err(rule(
                S5_3,
                format!(
                    "{unit} has its own Organic Transport ({tr}): a divisional {kind} carries a Leg Unit without it, \"as if it had Organic Transport\"; move {unit} mounted on its own"
                ),
            ));
        }
    }
    if s.riding.contains_key(unit) || riding_on(s, unit).is_some() || s.piggyback.contains_key(unit)
    {
        return Err(rule(S5_3, format!("{unit} is mounted already")));
    }
    check_action(s, unit, true, None)?;
    if free_assets(s, kind, division) == 0 {
        return Err(rule(
            S5_3,
            format!("the {division} has no {kind} free now: the counter mix is an absolute limit"),
        ));
    }
    Ok(())
}

pub fn ride(s: &mut State, ctx: &mut Ctx, kind: &str, unit: &str, division: &str) -> Hex {
    s.riding
        .insert(unit.to_owned(), (kind.to_owned(), division.to_owned()));
    ctx.say(format!("{unit} mounts a {division} {kind}: it is an Independent Formation Unit until it dismounts ({S5_3})"));
    s.units[unit].hex
}

/// `park <park> <hex>` (S1): once, a non-zero park in its reinforcement hex, a zero park in any
/// hex without an enemy unit (Command Range and Fire Zones are the players').
pub fn check_park(s: &State, side: Side, id: &str, hex: Hex) -> Result<(), RuleError> {
    let p = s
        .parks
        .iter()
        .find(|p| p.id == id && p.side == side)
        .ok_or_else(|| {
            let own: Vec<&str> = s
                .parks
                .iter()
                .filter(|p| p.side == side)
                .map(|p| p.id.as_str())
                .collect();
            rule(S1, format!("no park '{id}' of yours: {}", own.join(", ")))
        })?;
    if p.hex.is_some() {
        return Err(rule(
            S1,
            format!("the {id} park is placed already: it never moves"),
        ));
    }
    if let Some(h) = p.entry.filter(|h| *h != hex) {
        return Err(rule(
            S1,
            format!(
                "the {id} park has a value of {}: it goes in its Divisional reinforcement hex, {h}",
                p.value
            ),
        ));
    }
    if let Some((n, _)) = s.units.iter().find(|(_, u)| u.side != side && u.hex == hex) {
        return Err(rule(S1, format!("{hex} holds the enemy unit {n}")));
    }
    Ok(())
}

pub fn park(s: &mut State, ctx: &mut Ctx, id: &str, hex: Hex) {
    let p = s.parks.iter_mut().find(|p| p.id == id).expect("checked");
    p.hex = Some(hex);
    ctx.say(format!(
        "The {id} Artillery Park marker (value {}) is placed on {hex} (S1.0)",
        p.value
    ));
}

/// `enterpark <unit> <park>` (S1): an Indirect HE unit in the park's hex goes into its box.
pub fn check_enter_park(s: &State, side: Side, unit: &str, id: &str) -> Result<(), RuleError> {
    let u = own(s, side, unit, S1)?;
    // S1.0: "When Indirect HE Units are in the same hex as the artillery park marker, they can
    // be removed from the map and placed in the Artillery Park Box". A counter outside the
    // order of battle is the players' (decision 12).
    if let Some(d) = OOB.unit(unit).filter(|d| d.class != Class::Artillery) {
        return Err(rule(
            S1,
            format!(
                "{unit} is a {} Unit, not an Indirect HE (artillery) Unit: only those enter an Artillery Park",
                format!("{:?}", d.class).to_lowercase()
            ),
        ));
    }
    let p = s
        .parks
        .iter()
        .find(|p| p.id == id && p.side == side)
        .ok_or_else(|| rule(S1, format!("no park '{id}' of yours")))?;
    match p.hex {
        Some(h) if h == u.hex => Ok(()),
        Some(h) => Err(rule(
            S1,
            format!(
                "{unit} is at {}, the park at {h}: it enters from the park's hex",
                u.hex
            ),
        )),
        None => Err(rule(S1, format!("the {id} park is not on the map"))),
    }?;
    // S4.3: a piggyback pair's vehicle only moves and dismounts; its rider performs no Action.
    check_action(s, unit, false, None)
}

pub fn enter_park(s: &mut State, ctx: &mut Ctx, unit: &str, id: &str) {
    s.units.remove(unit);
    // Decision 35: off the map, in the box it never leaves, it came into no hex.
    s.vehicles.remove(unit);
    let p = s.parks.iter_mut().find(|p| p.id == id).expect("checked");
    p.units.push(unit.to_owned());
    ctx.say(format!("{unit} goes into the {id} Artillery Park box: always In Command, Indirect Fire from its next activation, range from the marker plus {} (S1.0)", p.value));
}

/// `roadblock <hex> [remove]` (S2, 2.15.2): within the counter mix, never in a hex with a
/// bridge hexside.
pub fn check_roadblock(s: &State, side: Side, hex: Hex, remove: bool) -> Result<(), RuleError> {
    let mine = s.roadblocks.iter().filter(|(_, x)| *x == side).count() as u32;
    if remove {
        if !s.roadblocks.iter().any(|(h, x)| *h == hex && *x == side) {
            return Err(rule(S2, format!("you have no road block at {hex}")));
        }
        return Ok(());
    }
    if let Some(b) = DATA
        .bridges
        .iter()
        .find(|b| b.hexes.0 == hex || b.hexes.1 == hex)
    {
        return Err(rule(
            "2.15.2 Road Blocks and Bridges",
            format!(
                "{hex} has the {} bridge's hexside: no road block there",
                b.name
            ),
        ));
    }
    if s.roadblocks.iter().any(|(h, _)| *h == hex) {
        return Err(rule(S2, format!("{hex} has a road block already")));
    }
    let limit = DATA.counter_mix("roadblock", side);
    if mine >= limit {
        return Err(rule(
            S2,
            format!("all your {limit} road blocks are on the map: the counter mix is the limit"),
        ));
    }
    Ok(())
}

pub fn roadblock(s: &mut State, ctx: &mut Ctx, side: Side, hex: Hex, remove: bool) {
    if remove {
        s.roadblocks.retain(|(h, x)| !(*h == hex && *x == side));
        ctx.say(format!(
            "The {} road block at {hex} is removed",
            side.name()
        ));
    } else {
        s.roadblocks.push((hex, side));
        ctx.say(format!(
            "A {} road block is placed at {hex} (S2.0)",
            side.name()
        ));
    }
}

/// `rearguard <unit> <hex>` (S2): a Rearguard unit comes onto the map, within the counter mix.
pub fn check_rearguard(s: &State, side: Side, unit: &str, hex: Hex) -> Result<(), RuleError> {
    let limit = DATA.counter_mix("rearguard", side);
    let placed = s.rearguards.iter().filter(|(_, x)| *x == side).count() as u32;
    if s.units.contains_key(unit) || s.gone.iter().any(|u| u == unit) {
        return Err(rule(S2, format!("{unit} is in play already")));
    }
    if placed >= limit {
        return Err(rule(
            S2,
            format!("you have {limit} Rearguards in the counter mix and all are in play"),
        ));
    }
    if let Some((n, _)) = s.units.iter().find(|(_, u)| u.side != side && u.hex == hex) {
        return Err(rule(S2, format!("{hex} holds the enemy unit {n}")));
    }
    Ok(())
}

pub fn rearguard(s: &mut State, ctx: &mut Ctx, side: Side, unit: &str, hex: Hex) {
    s.rearguards.push((unit.to_owned(), side));
    s.units.insert(
        unit.to_owned(),
        Unit {
            side,
            hex,
            column: false,
        },
    );
    ctx.say(format!(
        "The {} Rearguard {unit} is placed at {hex} (S2.0)",
        side.name()
    ));
    super::bridges::entered(s, ctx, side, unit, &[hex]);
}

/// S6.9: after a German result of a Step Loss or Eliminated on a 502 PIR unit, in The Best
/// Laid Plans or the campaign, the Allied player may play Joe Mann once.
pub fn mann_chance(
    s: &mut State,
    ctx: &mut Ctx,
    p: &Pending,
    class: &str,
    target: Option<&str>,
    before: &BTreeMap<String, Unit>,
    marks_before: &BTreeMap<String, Marks>,
) {
    if s.mann_used || p.side != Side::German || !matches!(class, "step-loss" | "eliminated") {
        return;
    }
    if !matches!(s.scenario.as_str(), "the-best-laid-plans" | "campaign") {
        return;
    }
    let hit: Vec<String> = before
        .iter()
        .filter(|(n, u)| u.side == Side::Allied && u.hex == p.hex && n.ends_with("/502"))
        .filter(|(n, _)| target.is_none_or(|t| t == n.as_str()))
        .map(|(n, _)| n.clone())
        .collect();
    if let Some(unit) = hit.first() {
        s.mann = Some(super::state::MannChance {
            unit: unit.clone(),
            was: before[unit].clone(),
            was_marks: marks_before.get(unit).cloned(),
            class: class.to_owned(),
        });
        ctx.say(format!("{unit} of the 502 PIR takes a {class}: the Allied player may play PFC Joe Mann (S6.9), or pass"));
    }
}

/// `joemann` or `pass` in that window.
pub fn joe_mann(s: &mut State, ctx: &mut Ctx, side: Side, play: bool) -> Result<(), RuleError> {
    if side != Side::Allied {
        return Err(rule(
            S6_9,
            "the Allied player answers first: joemann, or pass",
        ));
    }
    let Some(m) = s.mann.take() else {
        return Err(rule(S6_9, "no loss waits for PFC Joe Mann"));
    };
    if play {
        s.mann_used = true;
        s.units.insert(m.unit.clone(), m.was.clone());
        s.eliminated.remove(&m.unit);
        match m.was_marks.clone() {
            Some(marks) => s.marks.insert(m.unit.clone(), marks),
            None => s.marks.remove(&m.unit),
        };
        // S6.9: every Suppression and Cohesion Hit in the hex fired on is removed.
        let here: Vec<String> = s
            .units
            .iter()
            .filter(|(_, u)| u.side == Side::Allied && u.hex == m.was.hex)
            .map(|(n, _)| n.clone())
            .collect();
        for n in here {
            if let Some(k) = s.marks.get_mut(&n) {
                k.suppressed = false;
                k.cohesion = 0;
            }
        }
        s.marks.retain(|_, k| !k.is_clear());
        ctx.say(format!(
            "PFC Joe Mann: the {} on {} is negated, and every Cohesion Hit and Suppression in {} is removed; the marker is spent (S6.9)",
            m.class, m.unit, m.was.hex
        ));
    } else {
        ctx.say("The Allied player keeps Joe Mann");
    }
    Ok(())
}

/// The units a stated result falls on: the unit named, else every unit of the other side in
/// the hex fired on or assaulted (`before`: as they stood before the result).
fn struck(p: &Pending, target: Option<&str>, before: &BTreeMap<String, Unit>) -> Vec<String> {
    match target {
        Some(t) => vec![t.to_owned()],
        None => before
            .iter()
            .filter(|(_, u)| u.hex == p.hex && u.side != p.side)
            .map(|(n, _)| n.clone())
            .collect(),
    }
}

pub use super::losses::{clear_markers, eliminate, formation_losses, steps_of};

/// After a stated result: every unit that stood before it and is off the map now (not taken
/// into a park or off-map) was eliminated by it (decision 21).
pub fn record_eliminated(s: &mut State, before: &BTreeMap<String, Unit>) {
    let gone: Vec<String> = before
        .keys()
        .filter(|u| !s.units.contains_key(*u))
        .cloned()
        .collect();
    for u in gone {
        eliminate(s, &u);
    }
}

/// Decision 15: a stated CRT result marks the units it falls on. Suppressed: the Suppression
/// marker (once); a Cohesion Hit: one more; a Step Loss: one step off the unit named, or the
/// only unit in the hex (a stack's loss with no unit named is the players' to mark); the last
/// step of an OOB unit lost eliminates it; Eliminated clears its marks. `none` and `s?` mark
/// nothing (an S? is the series' Troop Quality check, stated as a new result if it fails).
pub fn mark_result(
    s: &mut State,
    ctx: &mut Ctx,
    p: &Pending,
    class: &str,
    target: Option<&str>,
    before: &BTreeMap<String, Unit>,
) {
    let hit = struck(p, target, before);
    match class {
        "suppressed" | "cohesion-hit" => {
            for u in hit.iter().filter(|u| s.units.contains_key(*u)) {
                let m = s.marks.entry(u.clone()).or_default();
                if class == "suppressed" {
                    m.suppressed = true;
                    ctx.say(format!("{u} is Suppressed"));
                } else {
                    m.cohesion += 1;
                    ctx.say(format!("{u} takes a Cohesion Hit ({} on it)", m.cohesion));
                }
            }
        }
        "step-loss" => {
            let [u] = hit.as_slice() else {
                if hit.len() > 1 {
                    ctx.say(format!(
                        "A Step Loss on the stack at {}: no unit named, the players mark it",
                        p.hex
                    ));
                }
                return;
            };
            if !s.units.contains_key(u) {
                return;
            }
            let m = s.marks.entry(u.clone()).or_default();
            m.lost += 1;
            let lost = m.lost;
            match steps_of(u) {
                Some(steps) if lost >= steps => {
                    s.units.remove(u);
                    eliminate(s, u);
                    ctx.say(format!("{u} loses its last step and is eliminated"));
                }
                Some(steps) => ctx.say(format!(
                    "{u} loses a step: {} of {steps} left",
                    steps - lost
                )),
                None => ctx.say(format!("{u} loses a step ({lost} lost)")),
            }
        }
        "eliminated" => {
            for u in &hit {
                if !s.units.contains_key(u) {
                    s.marks.remove(u);
                }
            }
        }
        _ => {}
    }
}

/// Decision 15: a rally passed removes the unit's Suppression, or else one Cohesion Hit.
pub fn rallied(s: &mut State, ctx: &mut Ctx, unit: &str) {
    let Some(m) = s.marks.get_mut(unit) else {
        return;
    };
    if m.suppressed {
        m.suppressed = false;
        ctx.say(format!("{unit} rallies: its Suppression is removed"));
    } else if m.cohesion > 0 {
        m.cohesion -= 1;
        ctx.say(format!(
            "{unit} rallies: a Cohesion Hit is removed ({} left)",
            m.cohesion
        ));
    }
    if m.is_clear() {
        s.marks.remove(unit);
    }
}
