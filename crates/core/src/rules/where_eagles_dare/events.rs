//! The event markers a drawing side places (S3.1): Heroic on one friendly unit, Dutch in a city
//! or town hex, a Minefield within 3 hexes of one of his units. The draw and the return to the
//! cup are `declared.rs` (`draw_event`); here the placement (`place <event> <unit|hex>`, or
//! `pass`) and what the markers do that the engine can referee:
//!
//! - Heroic and Dutch come off the map when their side draws its next event, before the draw.
//! - Dutch: a unit in its hex, or entering it, may not leave it by a movement action.
//! - Minefield: a unit leaves its hex only after a passed `tq <unit> minefield pass <faces>`;
//!   an engineer in the hex removes it by an engineering action (`tq <unit> mines pass <faces>`);
//!   placed on Club Route by the German, a Club Route Closed marker (4.3.3).

use super::hex::Hex;
use super::highway::closed;
use super::oob::OOB;
use super::rule;
use super::state::{Side, State, Wait};
use super::terrain::Terrain;
use crate::engine::ruleset::{Ctx, RuleError};

/// The events that are placed as markers.
pub const PLACED: [&str; 3] = ["heroic", "dutch", "minefield"];

/// Ambush and Explosion: the enemy of the drawing side may attack (S3.1).
pub fn ask_attack(s: &mut State, ctx: &mut Ctx, enemy: Side, event: &str) {
    ctx.say(format!(
        "{}: the {} player may attack {} (place {event} <{}>), or pass (S3.1)",
        if event == "ambush" { "Ambush" } else { "Explosion" },
        enemy.name(),
        if event == "ambush" {
            "any friendly unit within 3 hexes of one of his units with a 6 white FP attack, no modifiers"
        } else {
            "a friendly Artillery Unit or one in an Artillery Park as a 3 white FP artillery attack, no modifiers"
        },
        if event == "ambush" { "hex" } else { "artillery unit" },
    ));
    s.ask(Wait::Placing {
        side: enemy,
        event: event.to_owned(),
    });
}

/// Lost: the enemy of the drawing side picks one of the drawer's units, then moves it (S3.1).
pub fn ask_lost(s: &mut State, ctx: &mut Ctx, enemy: Side) {
    ctx.say(format!(
        "Lost: the {} player picks a {} unit that is lost (place lost <unit>) and moves it, or passes (S3.1)",
        enemy.name(),
        enemy.other().name()
    ));
    s.ask(Wait::Placing {
        side: enemy,
        event: "lost".to_owned(),
    });
}

const S3_1_REINF: &str = "S3.1 Events (Reinf)";

/// Reinf drawn (S3.1): the drawing side names one of its formations and recovers 2 of its
/// units' lost steps, taken off the marks (decision 18); the Allied (101st) player may bring
/// in a Lost 82nd AB unit where the formation lost one step in all (one step of it) or none (a
/// two-step unit). With no step lost on any of its units and no Lost 82nd AB unit to bring, the
/// side has nothing to recover and is not asked.
pub fn ask_reinf(s: &mut State, ctx: &mut Ctx, side: Side) {
    let hurt = formations_with_losses(s, side);
    let lost82 = side == Side::Allied && !lost_82nd_left(s).is_empty();
    if hurt.is_empty() && !lost82 {
        ctx.say(format!(
            "Reinf: no {} unit has a step lost{}: nothing to recover (S3.1)",
            side.name(),
            if side == Side::Allied {
                " and every Lost 82nd AB unit is in play"
            } else {
                ""
            }
        ));
        return;
    }
    let losses: Vec<String> = hurt.iter().map(|(f, n)| format!("{f} {n}")).collect();
    ctx.say(format!(
        "Reinf: the {} player names one formation and recovers 2 of its units' lost steps (place reinf <formation> [<unit>…]; steps lost: {}){}, or passes (S3.1)",
        side.name(),
        if losses.is_empty() { "none".to_owned() } else { losses.join(", ") },
        if lost82 {
            format!(
                "; a 101st formation that lost one step in all also brings in one step of a Lost 82nd AB unit, one that lost none a two-step unit, in its Leader's hex (place reinf <unit> <hex>; left: {})",
                lost_82nd_left(s).join(", ")
            )
        } else {
            String::new()
        }
    ));
    s.ask(Wait::Placing {
        side,
        event: "reinf".to_owned(),
    });
}

/// The formations of `side` with steps lost on their units' marks, in the order of battle's
/// order, with the steps lost.
pub fn formations_with_losses(s: &State, side: Side) -> Vec<(String, u32)> {
    OOB.formations
        .iter()
        .filter(|f| f.side == side)
        .map(|f| (f.id.clone(), super::losses::formation_losses(s, &f.id)))
        .filter(|(_, n)| *n > 0)
        .collect()
}

/// The orders a Reinf waits for (the prompt's legal list).
pub fn reinf_orders(s: &State, side: Side) -> Vec<String> {
    if let Some(f) = &s.reinf_one {
        return vec![format!(
            "place reinf <Lost 82nd AB unit> {}",
            leader_hex(s, f).map_or("<hex>".to_owned(), |h| h.to_string())
        )];
    }
    let mut out: Vec<String> = formations_with_losses(s, side)
        .into_iter()
        .map(|(f, _)| format!("place reinf {f} [<unit>…]"))
        .collect();
    if side == Side::Allied && !lost_82nd_left(s).is_empty() {
        out.push("place reinf <Lost 82nd AB unit> <hex>".to_owned());
    }
    out
}

/// Where a Leader of `formation` stands, if the engine knows.
fn leader_hex(s: &State, formation: &str) -> Option<Hex> {
    OOB.leaders_of(formation)
        .find_map(|l| s.units.get(&l.id).map(|u| u.hex))
}

/// `place reinf <formation> [<unit>…]`: up to 2 lost steps of the formation's units come
/// back, one for each unit named, the rest unit by unit in the order of battle's order, the
/// units in play first, then the eliminated ones (decision 21: back in the formation Leader's
/// hex, under option `reinf_eliminated`). A formation with no step lost is refused; a step short
/// of a formation that lost one step in all is one step of a Lost 82nd AB unit for a 101st
/// formation of the Allied player while some are left; any other step short is lost (S3.1).
fn reinf(
    s: &mut State,
    ctx: &mut Ctx,
    side: Side,
    formation: &str,
    units: &[String],
) -> Result<(), RuleError> {
    let r = |m: String| rule(S3_1_REINF, m);
    if let Some(f) = &s.reinf_one {
        return Err(r(format!(
            "{f}'s lost step is recovered: one step of a Lost 82nd AB unit may come in with its Leader (place reinf <unit> <hex>), or pass"
        )));
    }
    let f = OOB.formation(formation).ok_or_else(|| {
        r(format!(
            "'{formation}' is not a formation of the order of battle (data/oob.txt): name one of yours with a step lost"
        ))
    })?;
    if f.side != side {
        return Err(r(format!(
            "{formation} is a {} formation: Reinf recovers the steps of one of yours",
            f.side.name()
        )));
    }
    let total = super::losses::formation_losses(s, &f.id);
    if total == 0 {
        let lost82 = side == Side::Allied && f.division == "101st" && !lost_82nd_left(s).is_empty();
        return Err(r(format!(
            "{formation} has no step lost on its units: Reinf recovers lost steps; {}name a formation with a step lost, or pass",
            if lost82 {
                "with none lost it brings in a two-step Lost 82nd AB unit in its Leader's hex (place reinf <unit> <hex>), or "
            } else {
                ""
            }
        )));
    }
    let leader = leader_hex(s, &f.id);
    // The steps that may come back: on the marks of the units in play or off the map, then
    // those of the eliminated units that may return (decision 21).
    let mut lost: Vec<(String, u32)> = OOB
        .units_of(&f.id)
        .filter_map(|u| s.marks.get(&u.id).map(|m| (u.id.clone(), m.lost)))
        .filter(|(_, n)| *n > 0)
        .collect();
    let rebuild =
        |u: &str| s.reinf_eliminated && leader.is_some() && !s.gone.iter().any(|g| g == u);
    lost.extend(
        OOB.units_of(&f.id)
            .filter_map(|u| s.eliminated.get(&u.id).map(|k| (u.id.clone(), *k)))
            .filter(|(u, _)| rebuild(u)),
    );
    let mut back: Vec<String> = Vec::new();
    for u in units {
        match lost.iter_mut().find(|(n, _)| n == u) {
            Some((_, k)) if *k > 0 => {
                *k -= 1;
                back.push(u.clone());
            }
            Some(_) => {
                return Err(r(format!(
                    "{u} has no more lost step to recover: name each unit once for each step it lost"
                )))
            }
            None if OOB.formation_of(u).map(|x| x.id.as_str()) != Some(f.id.as_str()) => {
                return Err(r(format!(
                    "{u} is not a unit of {formation}: Reinf recovers the steps of one formation's units"
                )))
            }
            None if s.eliminated.contains_key(u) => {
                return Err(r(format!(
                    "{u} is eliminated and cannot come back: {} (decision 21); name a unit of {formation} in play with a step lost, or no unit",
                    if !s.reinf_eliminated {
                        "option reinf_eliminated is off".to_owned()
                    } else if s.gone.iter().any(|g| g == u) {
                        "it is out of the game".to_owned()
                    } else {
                        format!("it comes back in its formation Leader's hex, and no Leader of {formation} is on the map")
                    }
                )))
            }
            None => {
                return Err(r(format!(
                    "{u} has no step lost: name a unit of {formation} that has ({})",
                    lost.iter()
                        .map(|(n, k)| format!("{n} {k} lost"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )))
            }
        }
    }
    while back.len() < 2 {
        let Some((n, k)) = lost.iter_mut().find(|(_, k)| *k > 0) else {
            break;
        };
        *k -= 1;
        back.push(n.clone());
    }
    let mut said = Vec::new();
    let mut done: Vec<&String> = Vec::new();
    for u in &back {
        if done.contains(&u) {
            continue;
        }
        done.push(u);
        let n = back.iter().filter(|x| *x == u).count() as u32;
        let steps = super::losses::steps_of(u).unwrap_or(0);
        if let Some(k) = s.eliminated.remove(u) {
            let at = leader.expect("an eliminated unit comes back only with a Leader known");
            s.units.insert(
                u.clone(),
                super::state::Unit {
                    side,
                    hex: at,
                    column: false,
                },
            );
            s.marks.entry(u.clone()).or_default().lost = k - n;
            super::bridges::entered(s, ctx, side, u, &[at]);
            said.push(format!(
                "{u}, eliminated, comes back at {at} with its formation's Leader ({n} of {steps} left, decision 21)"
            ));
        } else {
            let m = s
                .marks
                .get_mut(u)
                .expect("a unit with a step lost has marks");
            m.lost -= n;
            said.push(format!(
                "{u} recovers {} ({} of {steps} left)",
                if n == 1 { "a step" } else { "2 steps" },
                steps - m.lost
            ));
        }
    }
    s.marks.retain(|_, m| !m.is_clear());
    ctx.say(format!(
        "Reinf on {formation}: {} (S3.1)",
        if said.is_empty() {
            "no lost step can come back".to_owned()
        } else {
            said.join(", ")
        }
    ));
    if back.len() == 2 {
        s.end_wait(Wait::is_placing);
        return Ok(());
    }
    if total == 1 && side == Side::Allied && f.division == "101st" && !lost_82nd_left(s).is_empty()
    {
        s.reinf_one = Some(f.id.clone());
        ctx.say(format!(
            "Reinf: {formation} lost one step in all: one step of a Lost 82nd AB unit may come in in its Leader's hex{} (place reinf <unit> <hex>; left: {}), or pass (S3.1)",
            leader_hex(s, &f.id).map(|h| format!(", {h}")).unwrap_or_default(),
            lost_82nd_left(s).join(", ")
        ));
    } else {
        ctx.say(format!(
            "Reinf: the other recovered step{} lost: {} (S3.1)",
            if back.is_empty() { "s are" } else { " is" },
            if side == Side::German {
                "the German player has none to replace it"
            } else if f.division != "101st" {
                "the Lost 82nd AB units come in with 101st formations only"
            } else if total > 1 {
                "the formation lost more than one step in all, and none more can come back"
            } else {
                "every Lost 82nd AB unit is in play"
            }
        ));
        s.end_wait(Wait::is_placing);
    }
    Ok(())
}

/// `place reinf <Lost 82nd AB unit> <hex>`: the unit comes in in the hex of a 101st Leader —
/// the Leader of the formation whose one lost step was just recovered (one step of the unit),
/// or of a formation with no step lost (the unit with both steps).
fn lost_82nd(
    s: &mut State,
    ctx: &mut Ctx,
    side: Side,
    target: &str,
    hex: Hex,
) -> Result<(), RuleError> {
    let r = |m: String| rule(S3_1_REINF, m);
    if side != Side::Allied {
        return Err(r(
            "only the 101st player brings in Lost 82nd AB units: name one of your formations with a step lost (place reinf <formation>), or pass".into(),
        ));
    }
    if !lost_82nd_left(s).contains(&target) {
        return Err(r(format!(
            "{target} is not a Lost 82nd AB unit still to come: {}",
            lost_82nd_left(s).join(", ")
        )));
    }
    let leaders: Vec<(String, String)> = s
        .units
        .iter()
        .filter(|(n, u)| {
            u.hex == hex
                && OOB
                    .unit(n)
                    .is_some_and(|d| d.class == super::oob::Class::Leader)
                && OOB.division_of(n) == Some("101st")
        })
        .filter_map(|(n, _)| OOB.formation_of(n).map(|f| (n.clone(), f.id.clone())))
        .collect();
    if leaders.is_empty() {
        return Err(r(format!(
            "a Lost 82nd AB unit comes in its formation leader's hex: no 101st Leader is known in {hex}"
        )));
    }
    let steps = super::losses::steps_of(target).unwrap_or(2);
    let (leader, lost) = match s.reinf_one.clone() {
        Some(f) => {
            let Some((l, _)) = leaders.iter().find(|(_, lf)| *lf == f) else {
                return Err(r(format!(
                    "the step recovered was {f}'s: its Lost 82nd AB unit comes in with {f}'s Leader{}, not in {hex}",
                    leader_hex(s, &f).map(|h| format!(" at {h}")).unwrap_or_default()
                )));
            };
            (l.clone(), steps.saturating_sub(1))
        }
        None => {
            let Some((l, _)) = leaders
                .iter()
                .find(|(_, lf)| super::losses::formation_losses(s, lf) == 0)
            else {
                let (_, f) = &leaders[0];
                let n = super::losses::formation_losses(s, f);
                return Err(r(format!(
                    "{f} has {n} step(s) lost: Reinf recovers them first (place reinf {f}){}; a two-step Lost 82nd AB unit comes in only with the Leader of a formation that lost none",
                    if n == 1 {
                        ", then one step of a Lost 82nd AB unit comes in"
                    } else {
                        ""
                    }
                )));
            };
            (l.clone(), 0)
        }
    };
    s.units.insert(
        target.to_owned(),
        super::state::Unit {
            side,
            hex,
            column: false,
        },
    );
    if lost > 0 {
        s.marks.entry(target.to_owned()).or_default().lost = lost;
    }
    s.lost_82nd_in.push(target.to_owned());
    super::bridges::entered(s, ctx, side, target, &[hex]);
    s.reinf_one = None;
    s.end_wait(Wait::is_placing);
    ctx.say(format!(
        "Reinf: {target} of the Lost 82nd AB comes in at {hex}, with {leader}: {} (S3.1)",
        if lost > 0 {
            format!("one step ({} of {steps} left)", steps - lost)
        } else {
            format!("{steps} steps")
        }
    ));
    Ok(())
}

/// The Lost 82nd AB units not yet brought in (finite: none is created, S3.1).
pub fn lost_82nd_left(s: &State) -> Vec<&'static str> {
    OOB.units
        .iter()
        .filter(|u| u.lost_82nd && !s.units.contains_key(&u.id) && !s.gone.contains(&u.id))
        .filter(|u| !s.lost_82nd_in.contains(&u.id))
        .map(|u| u.id.as_str())
        .collect()
}

/// The drawn event's placement is asked of its side.
pub fn ask(s: &mut State, ctx: &mut Ctx, side: Side, event: &str) {
    let what = match event {
        "rally" => "on one of his formations (any 4 Suppressions or Cohesion Hits of its units removed): place rally <formation>",
        "heroic" => "on one friendly unit (TQ one more, defense one less): place heroic <unit>",
        "dutch" => "in a city or town hex (no unit leaves it by movement; stacking unlimited): place dutch <hex>",
        _ => "in a hex within 3 hexes of one of his units (a TQ check to leave it): place minefield <hex>",
    };
    ctx.say(format!(
        "{}: the {} player places it {what}, or passes (S3.1)",
        title(event),
        side.name()
    ));
    s.ask(Wait::Placing {
        side,
        event: event.to_owned(),
    });
}

fn title(event: &str) -> &'static str {
    match event {
        "ambush" => "Ambush",
        "explosion" => "Explosion",
        "reinf" => "Reinf",
        "rally" => "Rally",
        "air-strike" => "Air Strike",
        "lost" => "Lost",
        "heroic" => "Heroic",
        "dutch" => "Dutch",
        _ => "Minefield",
    }
}

/// Heroic and Dutch leave the map as their side draws another event (S3.1).
pub fn lift(s: &mut State, ctx: &mut Ctx, side: Side) {
    if let Some(u) = s.heroic.remove(&side) {
        ctx.say(format!("Heroic comes off {u} (S3.1)"));
    }
    if let Some(h) = s.dutch.remove(&side) {
        ctx.say(format!("Dutch comes off {h} (S3.1)"));
    }
}

/// `place <event> <target>`, checked before anything changes.
pub fn place(
    s: &mut State,
    ctx: &mut Ctx,
    side: Side,
    event: &str,
    target: &str,
    at: Option<Hex>,
    units: &[String],
) -> Result<(), RuleError> {
    let r = |m: String| rule("S3.1 Events", m);
    let Some((who, drawn)) = s.placing().map(|(w, d)| (w, d.to_owned())) else {
        return Err(r("no event waits to be placed".into()));
    };
    if who != side || drawn != event {
        return Err(r(format!(
            "the {} player places {drawn} now: place {drawn} <{}>",
            who.name(),
            if drawn == "heroic" { "unit" } else { "hex" }
        )));
    }
    match event {
        "ambush" | "explosion" => return attack(s, ctx, side, event, target),
        "reinf" => {
            return match at {
                Some(hex) => lost_82nd(s, ctx, side, target, hex),
                None => reinf(s, ctx, side, target, units),
            }
        }
        "rally" => return rally(s, ctx, side, target),
        "air-strike" => {
            let hex = at.ok_or_else(|| {
                rule(
                    "S3.1 Events (Air Strike)",
                    "place air-strike <formation> <hex>",
                )
            })?;
            return typhoon(s, ctx, target, hex);
        }
        "lost" => {
            if s.units.get(target).is_none_or(|u| u.side != side.other()) {
                return Err(rule(
                    "S3.1 Events (Lost)",
                    format!("{target} is not a {} unit on the map", side.other().name()),
                ));
            }
            // The placement ends in the lost unit's move.
            s.wait = Some(Wait::Lost {
                unit: target.to_owned(),
                event: Some(side),
            });
            ctx.say(format!(
                "Lost: {target} is lost; the {} player moves it up to its full movement allowance, the lost movement ending as it enters an enemy Fire Zone (S3.1)",
                side.name()
            ));
        }
        "heroic" => {
            let own = OOB
                .side_of(target)
                .or_else(|| s.units.get(target).map(|u| u.side));
            if own.is_some_and(|o| o != side) {
                return Err(r(format!(
                    "Heroic goes on a friendly unit; {target} is the enemy's"
                )));
            }
            s.heroic.insert(side, target.to_owned());
            ctx.say(format!(
                "Heroic on {target}: its TQ one more, its defense one less (S3.1)"
            ));
        }
        "dutch" | "minefield" => {
            let hex = Hex::parse(target)
                .ok_or_else(|| r(format!("'{target}' is not a hex: write it as 56.201")))?;
            if event == "minefield" {
                let near = s
                    .units
                    .values()
                    .any(|u| u.side == side && u.hex.distance(hex) <= 3);
                if !near {
                    return Err(r(format!(
                        "a Minefield goes within 3 hexes of one of your units, and none is known within 3 of {hex}"
                    )));
                }
                if s.minefields.contains(&hex) {
                    return Err(r(format!("{hex} has a Minefield already")));
                }
                s.minefields.push(hex);
                ctx.say(format!(
                    "Minefield in {hex}: every unit passes a TQ check to leave it (S3.1)"
                ));
                if side == Side::German && s.on_club_route(hex) {
                    closed(s, ctx, &format!("a Minefield on Club Route at {hex}"));
                }
            } else {
                // "any city or town hex": the loaded map's word where it knows the hex.
                let known = s.map.as_ref().and_then(|m| m.map.hexes.get(&hex));
                if let Some(x) =
                    known.filter(|x| !matches!(x.terrain, Terrain::City | Terrain::Town))
                {
                    return Err(rule(
                        "S3.1 Events (Dutch)",
                        format!(
                            "the Dutch Chit goes in a city or town hex; the game's map has {} at {hex}: place it in a city or town",
                            x.terrain.name()
                        ),
                    ));
                }
                s.dutch.insert(side, hex);
                ctx.say(format!(
                    "Dutch in {hex} (a city or town, {}): no unit leaves it by a movement action; stacking unlimited (S3.1)",
                    if known.is_some() {
                        "on the game's map".to_owned()
                    } else {
                        format!("as the {} player states", side.name())
                    }
                ));
            }
        }
        _ => return Err(r(format!("{event} is not placed"))),
    }
    s.end_wait(Wait::is_placing);
    Ok(())
}

/// The placing side passes.
pub fn pass(s: &mut State, ctx: &mut Ctx) {
    s.reinf_one = None;
    if let Some((side, e)) = s.take_placing() {
        if e == "air-strike" && s.typhoons.as_ref().is_some_and(|t| !t.hexes.is_empty()) {
            ctx.say("The Allied player places no more Typhoons (S3.1 Air Strike)");
            if let Some(t) = s.typhoons.as_mut() {
                t.left = 0;
            }
            next_typhoon(s, ctx);
            return;
        }
        s.typhoons = None;
        ctx.say(format!(
            "The {} player does not place {}",
            side.name(),
            title(&e)
        ));
    }
}

const S3_1_RALLY: &str = "S3.1 Events (Rally)";
const S3_1_AIR: &str = "S3.1 Events (Air Strike)";

/// S3.1 Rally: "remove any 4 suppression or cohesion steps from any one formation regardless
/// of the presence of enemy fire zones; any excess ... ignored". Decision 16: the engine
/// removes the Suppressions first, then Cohesion Hits, unit by unit in the order of battle's
/// order, up to 4 (the players' other choice is theirs to state by a dispute).
fn rally(s: &mut State, ctx: &mut Ctx, side: Side, formation: &str) -> Result<(), RuleError> {
    let f = OOB.formation(formation).ok_or_else(|| {
        rule(
            S3_1_RALLY,
            format!("'{formation}' is not a formation of the order of battle"),
        )
    })?;
    if f.side != side {
        return Err(rule(
            S3_1_RALLY,
            format!(
                "{formation} is a {} formation: Rally one of yours",
                f.side.name()
            ),
        ));
    }
    let units: Vec<String> = OOB.units_of(formation).map(|u| u.id.clone()).collect();
    let mut removed: Vec<String> = Vec::new();
    for pass in [true, false] {
        for u in &units {
            let Some(m) = s.marks.get_mut(u) else {
                continue;
            };
            if pass && m.suppressed && removed.len() < 4 {
                m.suppressed = false;
                removed.push(format!("{u}'s Suppression"));
            }
            while !pass && m.cohesion > 0 && removed.len() < 4 {
                m.cohesion -= 1;
                removed.push(format!("a Cohesion Hit of {u}"));
            }
        }
    }
    s.marks.retain(|_, m| !m.is_clear());
    s.end_wait(Wait::is_placing);
    ctx.say(format!(
        "Rally on {formation}: {} (S3.1)",
        if removed.is_empty() {
            "nothing to remove".to_owned()
        } else {
            format!("{} removed", removed.join(", "))
        }
    ));
    Ok(())
}

/// S3.1 Air Strike drawn in clear daylight: `n` Typhoons for the Allied player to place.
pub fn ask_air_strike(s: &mut State, ctx: &mut Ctx, n: u32) {
    if n == 0 {
        ctx.say("Air Strike: no Typhoon (S3.1)");
        return;
    }
    s.typhoons = Some(super::state::Typhoons {
        left: n,
        formation: None,
        hexes: Vec::new(),
    });
    s.ask(Wait::Placing {
        side: Side::Allied,
        event: "air-strike".to_owned(),
    });
    ctx.say(format!(
        "Air Strike: the Allied player chooses a Formation and places {n} Typhoon(s) on hexes within 10 hexes of its Leader, one a line (place air-strike <formation> <hex>), all before any attack; pass stops placing (S3.1)"
    ));
}

/// `place air-strike <formation> <hex>`: one Typhoon, within 10 hexes of the Formation's
/// Leader where the engine knows him (elsewhere as stated); the last placed starts the attacks.
fn typhoon(s: &mut State, ctx: &mut Ctx, formation: &str, hex: Hex) -> Result<(), RuleError> {
    let r = |m: String| rule(S3_1_AIR, m);
    let f = OOB
        .formation(formation)
        .filter(|f| f.side == Side::Allied)
        .ok_or_else(|| {
            r(format!(
                "'{formation}' is not an Allied formation of the order of battle"
            ))
        })?;
    let t = s.typhoons.clone().unwrap_or_default();
    if let Some(chosen) = t.formation.as_deref().filter(|c| *c != f.id) {
        return Err(r(format!(
            "the Typhoons of this Air Strike are {chosen}'s: place air-strike {chosen} <hex>"
        )));
    }
    let leaders: Vec<(String, Hex)> = OOB
        .leaders_of(&f.id)
        .filter_map(|l| s.units.get(&l.id).map(|u| (l.id.clone(), u.hex)))
        .collect();
    if !leaders.is_empty() && !leaders.iter().any(|(_, h)| h.distance(hex) <= 10) {
        let (l, h) = &leaders[0];
        return Err(r(format!(
            "{hex} is {} hexes from {l} at {h}: a Typhoon goes within 10 hexes of the Formation's Leader",
            h.distance(hex)
        )));
    }
    let t = s.typhoons.get_or_insert_with(Default::default);
    t.formation = Some(f.id.clone());
    t.hexes.push(hex);
    t.left = t.left.saturating_sub(1);
    let left = t.left;
    ctx.say(format!(
        "Air Strike: a Typhoon is placed on {hex} ({}; {left} left to place) (S3.1)",
        if leaders.is_empty() {
            format!("{formation}'s Leader not known on the map: within 10 hexes as stated")
        } else {
            format!("{formation}'s Leader within 10 hexes")
        }
    ));
    if left == 0 {
        s.end_wait(Wait::is_placing);
        next_typhoon(s, ctx);
    }
    Ok(())
}

/// The next Typhoon attack, once all are placed: a die for a 6 white Fire Power attack with no
/// modifiers on the hex, whose result class the Allied player states (`result <class>`).
pub fn next_typhoon(s: &mut State, ctx: &mut Ctx) {
    if s.pending.is_some() || s.placing().is_some() {
        return;
    }
    let Some(t) = s.typhoons.as_mut() else {
        return;
    };
    if t.left > 0 {
        return;
    }
    if t.hexes.is_empty() {
        s.typhoons = None;
        return;
    }
    let hex = t.hexes.remove(0);
    let face = super::d10(ctx);
    ctx.say(format!(
        "Air Strike: the Typhoon attacks {hex}, 6 white Fire Power, no modifiers: the die reads {face}; the Allied player states the result (S3.1)"
    ));
    s.pending = Some(super::state::Pending {
        side: Side::Allied,
        unit: "typhoon".to_owned(),
        hex,
        face,
        fire: false,
    });
}

/// A move from `start` along `steps`: Dutch holds a unit in its hex, a Minefield until the unit
/// has passed its TQ check.
pub fn check_move(s: &State, unit: &str, start: Hex, steps: &[Hex]) -> Result<(), RuleError> {
    let mut at = start;
    for &h in steps {
        if s.dutch.values().any(|d| *d == at) {
            return Err(rule(
                "S3.1 Events (Dutch)",
                format!("{unit} may not leave {at} by a movement action while the Dutch marker is there"),
            ));
        }
        if s.minefields.contains(&at) && !s.mine_passed.iter().any(|u| u == unit) {
            return Err(rule(
                "S3.1 Events (Minefield)",
                format!("{unit} leaves the Minefield in {at} only after a passed TQ check: tq {unit} minefield pass <faces>"),
            ));
        }
        at = h;
    }
    Ok(())
}

/// After a move: a unit that left a Minefield used its passed check.
pub fn after_move(s: &mut State, unit: &str) {
    s.mine_passed.retain(|u| u != unit);
}

/// `tq <unit> minefield|mines …`: the reasons this module reads, checked before the die.
pub fn check_tq(s: &State, unit: &str, reason: &[String]) -> Result<(), RuleError> {
    let r = |m: String| rule("S3.1 Events (Minefield)", m);
    let at = s.units.get(unit).map(|u| u.hex);
    match reason.first().map(String::as_str) {
        Some("minefield") if !at.is_some_and(|h| s.minefields.contains(&h)) => {
            return Err(r(format!("{unit} is not known to be in a Minefield hex")));
        }
        Some("mines") => {
            if OOB.unit(unit).is_some_and(|u| !u.engineer) {
                return Err(r(format!(
                    "{unit} is not an engineer: only an engineering unit removes a Minefield"
                )));
            }
            if !at.is_some_and(|h| s.minefields.contains(&h)) {
                return Err(r(format!("{unit} is not known to be in a Minefield hex: the engineering action is performed in it")));
            }
        }
        _ => {}
    }
    Ok(())
}

/// The consequence of a passed `tq` for the reasons above.
pub fn after_tq(s: &mut State, ctx: &mut Ctx, unit: &str, reason: &[String], passed: bool) {
    if !passed {
        return;
    }
    match reason.first().map(String::as_str) {
        Some("minefield") => {
            s.mine_passed.push(unit.to_owned());
            ctx.say(format!("{unit} may leave the Minefield (S3.1)"));
        }
        Some("mines") => {
            if let Some(h) = s.units.get(unit).map(|u| u.hex) {
                s.minefields.retain(|m| *m != h);
                ctx.say(format!("{unit} removes the Minefield in {h} (S3.1)"));
            }
        }
        _ => {}
    }
}

/// Ambush (a hex of a friendly unit within 3 hexes of one of the attacker's units, the 6 white
/// FP attack) and Explosion (a friendly Artillery Unit, the 3 white FP artillery attack; a heavy
/// barrage marker in its hex unless it is in an Artillery Park): the die is drawn, and the
/// attacker states the CRT result class (`result <class> [<unit>]`), as for fire.
fn attack(
    s: &mut State,
    ctx: &mut Ctx,
    side: Side,
    event: &str,
    target: &str,
) -> Result<(), RuleError> {
    let r = |m: String| {
        rule(
            if event == "ambush" {
                "S3.1 Events (Ambush)"
            } else {
                "S3.1 Events (Explosion)"
            },
            m,
        )
    };
    let friendly = side.other();
    let (hex, parked) = if event == "ambush" {
        let hex = Hex::parse(target)
            .ok_or_else(|| r(format!("'{target}' is not a hex: write it as 56.201")))?;
        if !s.units.values().any(|u| u.side == friendly && u.hex == hex) {
            return Err(r(format!("no {} unit is known in {hex}", friendly.name())));
        }
        if !s
            .units
            .values()
            .any(|u| u.side == side && u.hex.distance(hex) <= 3)
        {
            return Err(r(format!(
                "{hex} is not within 3 hexes of one of your units"
            )));
        }
        (hex, false)
    } else {
        let park = s.parks.iter().find(|p| p.units.iter().any(|u| u == target));
        let artillery = super::oob::OOB
            .unit(target)
            .is_none_or(|u| u.class == super::oob::Class::Artillery);
        let own = super::oob::OOB
            .side_of(target)
            .or_else(|| s.units.get(target).map(|u| u.side))
            .or(park.map(|p| p.side));
        if own != Some(friendly) || !artillery {
            return Err(r(format!(
                "{target} is not a {} Artillery Unit",
                friendly.name()
            )));
        }
        match (park.and_then(|p| p.hex), s.units.get(target)) {
            (Some(h), _) => (h, true),
            (None, Some(u)) => (u.hex, false),
            (None, None) => {
                return Err(r(format!("{target} is not known on the map or in a park")))
            }
        }
    };
    let face = super::d10(ctx);
    ctx.say(format!(
        "{}: the {} player attacks {target} at {hex} ({}): the die reads {face}",
        title(event),
        side.name(),
        if event == "ambush" {
            "6 white FP, no modifiers"
        } else {
            "3 white FP, no modifiers"
        }
    ));
    if event == "explosion" && !parked {
        s.barrages.push((hex, true, side));
        ctx.say(format!(
            "A heavy barrage marker is placed on {hex} (S3.1 Explosion)"
        ));
        if side == Side::German && s.on_club_route(hex) {
            closed(s, ctx, &format!("the Explosion's heavy barrage on {hex}"));
        }
    }
    s.end_wait(Wait::is_placing);
    s.pending = Some(super::state::Pending {
        side,
        unit: event.to_owned(),
        hex,
        face,
        fire: false,
    });
    Ok(())
}
