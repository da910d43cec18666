//! The activation phase (step 9): an order is the answer awaited first (`waiting.rs` lists
//! them in the same order: a die's result, the demolition window, a Rout, Joe Mann, the other
//! `Wait`s, the opportunity fire window), or else an action of the impulse's owner — a move or
//! an engineer's or transport's action (`action`), or a declared roll (`declared_roll`) — after
//! which the enemy's watch list may open his opportunity fire window.
//!
//! Imports: the chapters whose orders it plays.

use crate::engine::ruleset::{Ctx, RuleError};

use super::hex::Hex;
use super::order::{self, Command};
use super::state::{Side, State, Wait};
use super::{
    activity, assault, bridges, chits, command, declared, events, first_activation, offmap,
    specials, units,
};
use super::{not_now, rule};

/// An order in the activation phase: the answer awaited first, else an action of the impulse.
pub fn play(s: &mut State, ctx: &mut Ctx, side: Side, c: &Command) -> Result<(), RuleError> {
    if let Some(p) = s.pending.clone() {
        let Command::Result { class, target } = c else {
            return Err(rule(
                "declared rolls",
                "state the CRT result class of the die first: result <class>",
            ));
        };
        bridges::check_result(s, p.hex, target.as_deref())?;
        s.pending = None;
        declared::result(s, ctx, p, class, target.as_deref());
        events::next_typhoon(s, ctx);
        if side != s.impulse {
            close_window(s, ctx);
        }
        return Ok(());
    }
    if let Some(d) = s.demolition.clone() {
        return match c {
            Command::Demolish { bridge, fire_zone } if side == d.side => {
                declared::check_demolish(s, side, bridge)?;
                declared::demolish(s, ctx, side, bridge, *fire_zone);
                if let Some(w) = s.demolition.as_mut() {
                    w.bridges.retain(|b| b != bridge);
                    if w.bridges.is_empty() {
                        s.demolition = None;
                    }
                }
                Ok(())
            }
            Command::Pass if side == d.side => {
                demolition_pass(s, ctx, side, "");
                Ok(())
            }
            _ => Err(rule(
                "2.15.6 Bridge Demolition",
                format!(
                    "{} entered {}: the {} player answers first, demolish {} [fz] or pass",
                    d.unit,
                    d.hex,
                    d.side.name(),
                    d.bridges.join("|")
                ),
            )),
        };
    }
    if let Some(who) = s.rout() {
        return match c {
            Command::Rout { formation, units } if side == who => {
                offmap::rout(s, ctx, formation, units)
            }
            Command::Pass if side == who => {
                s.wait = None;
                ctx.say(format!(
                    "The {} player names no routed Formation",
                    side.name()
                ));
                Ok(())
            }
            _ => Err(rule(
                "S3.1 Rout",
                format!(
                    "the {} player names the routed Formation first, or passes",
                    who.name()
                ),
            )),
        };
    }
    if let Some(r) = s.routing().cloned() {
        return offmap::routing(s, ctx, side, &r, c);
    }
    if s.mann.is_some() {
        return match c {
            Command::JoeMann => units::joe_mann(s, ctx, side, true),
            Command::Pass => units::joe_mann(s, ctx, side, false),
            _ => Err(rule(
                "S6.9 Heroes (PFC Joe Mann)",
                "the Allied player answers first: joemann, or pass",
            )),
        };
    }
    if let Some(lost) = s.lost().map(str::to_owned) {
        return match c {
            Command::Move {
                unit,
                path,
                column,
                transport,
                cohesion,
            } if side == s.lost_mover() && *unit == lost => {
                declared::move_unit(
                    s,
                    ctx,
                    side.other(),
                    unit,
                    path,
                    *column,
                    *transport,
                    *cohesion,
                )?;
                s.end_wait(Wait::is_lost);
                s.marks.entry(lost.clone()).or_default().suppressed = true;
                ctx.say(format!(
                    "The lost {lost} is Suppressed at the end of its lost movement (S3.1 Lost)"
                ));
                Ok(())
            }
            Command::Pass if side == s.lost_mover() => {
                s.wait = None;
                ctx.say(format!(
                    "The {} player leaves the lost {lost} where it is",
                    side.name()
                ));
                Ok(())
            }
            _ => Err(rule(
                if s.lost_event().is_some() {
                    "S3.1 Events (Lost)"
                } else {
                    "O3.0 German Lost Rule"
                },
                format!(
                    "the {} player moves the lost {lost} first (move {lost} <hex> …), or passes",
                    s.lost_mover().name()
                ),
            )),
        };
    }
    if let Some((who, event)) = s.placing().map(|(w, e)| (w, e.to_owned())) {
        return match c {
            Command::Place {
                event: e,
                target,
                at,
                units,
            } if side == who => events::place(s, ctx, side, e, target, *at, units),
            Command::Pass if side == who => {
                events::pass(s, ctx);
                Ok(())
            }
            _ => Err(rule(
                "S3.1 Events",
                format!(
                    "the {} player places {event} first (place {event} …), or passes",
                    who.name()
                ),
            )),
        };
    }
    if let Some(who) = s.intelligence() {
        return match c {
            Command::Intelligence { division } if side == who => {
                chits::intelligence(s, ctx, side, division)
            }
            _ => Err(rule(
                "S3.1 Intelligence",
                "name the division that gains the Intelligence event's points first: intelligence <division>",
            )),
        };
    }
    if s.status_window() {
        return match c {
            Command::Status => chits::status_window(s, ctx, side, true),
            Command::Pass => chits::status_window(s, ctx, side, false),
            _ => Err(rule(
                "4.3.3 Attacking Club Route",
                "the Guards Division chit is up: the German answers first, status or pass",
            )),
        };
    }
    if s.window.is_some() {
        match c {
            Command::Fire {
                unit,
                hex,
                class,
                opportunity: true,
                on,
                facts,
                covered,
            } => {
                check_unit(s, side, unit)?;
                units::check_action(s, unit, false, Some(class))?;
                if *covered && !s.covering_fire {
                    return Err(rule(
                        "O1.0 Covering Fire",
                        "covering fire is an optional rule not in play in this game",
                    ));
                }
                if *covered {
                    ctx.say("O1.0 Covering Fire: a friendly non-Mortar unit is adjacent to the firer: −1 to its Fire Rating");
                }
                declared::fire(s, ctx, side, unit, *hex, class, *on, true, facts)?;
            }
            Command::Pass => {
                ctx.say(format!("The {} player does not fire", side.name()));
                close_window(s, ctx);
            }
            _ => {
                return Err(rule(
                    "opportunity fire",
                    "in the opportunity fire window: opfire <unit> <hex> <class>, or pass",
                ))
            }
        }
        return Ok(());
    }
    action(s, ctx, side, c)
}

/// An action of the impulse's owner (S6.5–S6.8): its unit activated by the chit in play,
/// then what the enemy's watch list says of the hexes it acted in.
fn action(s: &mut State, ctx: &mut Ctx, side: Side, c: &Command) -> Result<(), RuleError> {
    if let Some(unit) = acting_unit(c) {
        // S6.5, S6.6: the chit in play activates the unit (units of the OOB).
        command::check_active(s, side, unit)?;
        if !matches!(c, Command::Unmark { .. }) {
            units::check_markers(s, unit)?;
        }
        activity::check(s, unit)?;
        specials::check_huber_unit(s, unit)?;
        offmap::check_unit_on_map(s, unit)?;
    }
    match c {
        Command::End => {
            first_activation::check_end(s)?;
            return chits::draw(s, ctx);
        }
        Command::Spend {
            points,
            dispatch,
            division,
            facts,
        } => return chits::spend(s, ctx, side, *points, *dispatch, division.as_deref(), facts),
        Command::StopRaid { points } => return chits::stop_raid(s, ctx, side, *points),
        Command::CommandAction {
            unit,
            by,
            phone,
            from,
        } => return command::command(s, ctx, side, unit, by.as_deref(), *phone, from.as_deref()),
        Command::Move {
            unit,
            path,
            column,
            transport,
            cohesion,
        } => {
            let awaiting = s.drop_awaiting.len();
            let (end, entered) =
                declared::move_unit(s, ctx, side, unit, path, *column, *transport, *cohesion)?;
            // 3.4: "the drop itself does not trigger Opportunity Fire". A move acts in
            // every hex it enters: a watched one opens the window at the move's end.
            if s.drop_awaiting.len() == awaiting {
                s.window = Some(end);
                watched_path(s, ctx, side, path, entered, end);
            }
        }
        Command::Bulldozer { unit, bridge } => {
            bridges::check_bulldozer(s, side, unit, bridge)?;
            s.window = Some(bridges::bulldozer(s, ctx, unit, bridge));
        }
        Command::Bulldoze { bridge } => {
            bridges::check_bulldoze(s, side, bridge)?;
            s.window = Some(bridges::bulldoze(s, ctx, bridge));
        }
        Command::Bailey { unit, bridge } => {
            bridges::check_bailey(s, side, unit, bridge)?;
            s.window = Some(bridges::bailey(s, ctx, unit, bridge));
        }
        Command::Mount { infantry, vehicle } => {
            units::check_mount(s, side, infantry, vehicle)?;
            // S4.1: "it takes an entire movement action by both units".
            activity::acted(s, vehicle, true);
            s.window = Some(units::mount(s, ctx, infantry, vehicle));
        }
        Command::Dismount {
            unit,
            abandon,
            cohesion,
        } => {
            units::check_dismount(s, side, unit, *cohesion)?;
            s.window = Some(units::dismount(s, ctx, unit, *abandon, *cohesion));
        }
        Command::Ride {
            asset,
            unit,
            division,
        } => {
            units::check_ride(s, side, asset, unit, division)?;
            s.window = Some(units::ride(s, ctx, asset, unit, division));
        }
        Command::Park { park, hex } => {
            units::check_park(s, side, park, *hex)?;
            units::park(s, ctx, park, *hex);
        }
        Command::EnterPark { unit, park } => {
            units::check_enter_park(s, side, unit, park)?;
            units::enter_park(s, ctx, unit, park);
        }
        Command::RoadBlock { hex, remove } => {
            units::check_roadblock(s, side, *hex, *remove)?;
            units::roadblock(s, ctx, side, *hex, *remove);
        }
        Command::Rearguard { unit, hex } => {
            units::check_rearguard(s, side, unit, *hex)?;
            units::rearguard(s, ctx, side, unit, *hex);
        }
        Command::Ferry {
            unit,
            bridge,
            abandon,
        } => {
            // S4.3: a piggyback rider performs no Action; its vehicle only moves and
            // dismounts (a ferry takes Leg Units, 2.18.2).
            units::check_action(s, unit, false, None)?;
            let (from, to) = bridges::check_ferry(s, side, unit, bridge, *abandon)?;
            activity::check_fresh(
                s,
                unit,
                "2.18.2 Using Ferries",
                "a Unit uses a ferry as its entire activation, begun in the ferry's hex (it cannot move into it and then use the ferry); ferry it when a chit activates it next",
            )?;
            bridges::ferry(s, ctx, unit, bridge, *abandon, to);
            command::eliminate_north_231(s, ctx);
            s.window = Some(from);
        }
        _ => declared_roll(s, ctx, side, c)?,
    }
    // An assault acts in both hexes: the assaulted hex or the assaulting unit's.
    let watched = |h: Hex| {
        s.watches(side.other(), h)
            || matches!(c, Command::Assault { hex, .. } if s.watches(side.other(), *hex))
    };
    if !matches!(c, Command::Move { .. }) && s.window.is_some_and(|h| !watched(h)) {
        unwatched(s, ctx, side);
    }
    if let Some(unit) = acting_unit(c) {
        activity::acted(
            s,
            unit,
            matches!(
                c,
                Command::Move { .. } | Command::Mount { .. } | Command::Dismount { .. }
            ),
        );
    }
    match c {
        Command::Ferry { unit, .. } => activity::end(s, unit, "2.18.2 Using Ferries"),
        Command::Tq { unit, reason, .. } if reason.first().map(String::as_str) == Some("ferry") => {
            activity::end(s, unit, "2.18.1 Creating a Ferry")
        }
        _ => {}
    }
    s.actions += 1;
    Ok(())
}

/// A declared roll in the impulse (fire, assault, troop quality, rally, barrage, demolition,
/// the Drop Table) or an order that is not one of the impulse's.
fn declared_roll(s: &mut State, ctx: &mut Ctx, side: Side, c: &Command) -> Result<(), RuleError> {
    match c {
        Command::Fire {
            opportunity: true, ..
        } => {
            return Err(rule(
                "opportunity fire",
                "opportunity fire comes in the enemy's impulse, after his action",
            ));
        }
        Command::Fire {
            unit,
            hex,
            class,
            on,
            facts,
            ..
        } => {
            check_unit(s, side, unit)?;
            units::check_action(s, unit, false, Some(class))?;
            declared::fire(s, ctx, side, unit, *hex, class, *on, false, facts)?;
        }
        Command::Assault { unit, hex, facts } => {
            check_unit(s, side, unit)?;
            units::check_action(s, unit, false, None)?;
            let from = assault::check_assault(s, unit, *hex)?;
            assault::assault(s, ctx, side, unit, *hex, from, facts);
            // S4.4: the assault "starting with Opportunity Fire from the Units being
            // Assaulted", at the assaulting unit.
            s.window = Some(from.unwrap_or(*hex));
        }
        Command::Tq { unit, reason, pass } => {
            check_unit(s, side, unit)?;
            units::check_action(s, unit, false, None)?;
            if reason.first().map(String::as_str) == Some("lost")
                && (!s.german_lost || side != Side::German)
            {
                return Err(rule(
                    "O3.0 German Lost Rule",
                    "'tq <unit> lost' is the German's, with option german_lost",
                ));
            }
            declared::check_tq(s, side, unit, reason)?;
            events::check_tq(s, unit, reason)?;
            bridges::check_tq(s, side, unit, reason)?;
            if reason.first().map(String::as_str) == Some("ferry") {
                activity::check_not_moved(
                    s,
                    unit,
                    "2.18.1 Creating a Ferry",
                    "an engineer Unit must begin an activation in the hex to become a ferry; try when a chit activates it next",
                )?;
            }
            declared::tq(s, ctx, side, unit, reason, pass);
            // An Engineer Action triggers opportunity fire (2.15.3, 2.15.6, 2.15.7, 2.18.1;
            // S3.1: a Minefield is removed "by performing an engineering action").
            if matches!(
                reason.first().map(String::as_str),
                Some("wire" | "improve" | "repair" | "ferry" | "mines")
            ) {
                s.window = s.units.get(unit).map(|u| u.hex);
            }
        }
        Command::Rally { unit, pass } => {
            check_unit(s, side, unit)?;
            units::check_action(s, unit, false, None)?;
            declared::rally(s, ctx, side, unit, pass);
        }
        Command::Barrage {
            unit,
            hex,
            heavy,
            pass,
        } => {
            check_unit(s, side, unit)?;
            units::check_action(s, unit, false, None)?;
            declared::barrage(s, ctx, side, unit, *hex, *heavy, pass);
        }
        Command::Demolish { bridge, fire_zone } => {
            declared::check_demolish(s, side, bridge)?;
            declared::demolish(s, ctx, side, bridge, *fire_zone);
        }
        Command::DropRoll {
            unit,
            zone,
            glider,
            flak,
            flak88,
            fz,
        } => {
            if side != Side::Allied {
                return Err(rule(
                    "3.4.1 The Drop Table",
                    "only Allied airborne units roll on the Drop Table",
                ));
            }
            let drop = declared::check_drop_roll(s, unit, zone)?;
            if drop > 1 {
                // 3.4.1: a later drop's unit rolls the first time it activates.
                command::check_active(s, side, unit)?;
            }
            let glider = declared::lands_by_glider(unit, *glider)?;
            let (flak, flak88) = declared::flak_fire_zones(s, *flak, *flak88, fz)?;
            declared::drop_modifier(s, zone, glider, flak, flak88)?;
            specials::flip_flak(s, ctx);
            if !fz.is_empty() {
                ctx.say(format!(
                    "Flak projecting a Fire Zone into zone {zone}: {}",
                    fz.iter()
                        .map(|u| format!("{u} ({})", s.flak[u]))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            declared::drop_roll(s, ctx, unit, drop, zone, glider, flak, flak88)?;
        }
        Command::Unmark { unit } => {
            declared::check_unmark(s, side, unit)?;
            declared::unmark(s, ctx, unit);
        }
        Command::Status => {
            return Err(rule(
                "4.3.3 Attacking Club Route",
                if side == Side::German {
                    "the German asks the status check when the Guards Armored Division Activation chit comes up, before the Allied impulse"
                } else {
                    "only the German player asks for the status check"
                },
            ));
        }
        Command::Result { .. } => {
            return Err(rule(
                "declared rolls",
                "there is no die waiting for a result",
            ))
        }
        Command::Pass => return Err(rule("sequence of play", "in your impulse, 'end' ends it")),
        other => return Err(not_now(&order::describe(other), s)),
    }
    Ok(())
}

/// `watch all|none|<hex>…`: the seat's public standing watch list (issue 18: "after an action
/// in a hex the opponent watches … he gets a window for opportunity fire"). Fire Zones are the
/// series', so the player says where he would fire; the list stands until he changes it.
pub fn watch(s: &mut State, ctx: &mut Ctx, side: Side, hexes: Option<&[Hex]>) {
    match hexes {
        None => {
            s.watch.remove(&side);
            ctx.say(format!("The {} player watches every hex", side.name()));
        }
        Some(h) => {
            s.watch.insert(side, h.iter().copied().collect());
            ctx.say(if h.is_empty() {
                format!("The {} player watches no hex: no opportunity fire window until he watches again", side.name())
            } else {
                format!(
                    "The {} player watches {}",
                    side.name(),
                    h.iter().map(Hex::to_string).collect::<Vec<_>>().join(" ")
                )
            });
        }
    }
}

/// The wiring side lets the contested bridges stand (2.15.6): they stay wired and contested.
pub(crate) fn demolition_pass(s: &mut State, ctx: &mut Ctx, side: Side, how: &str) {
    if let Some(d) = s.demolition.take() {
        ctx.say(format!(
            "The {} player {how}does not demolish the {} bridge: it stays wired, contested",
            side.name(),
            d.bridges.join(" and ")
        ));
    }
}

/// The action was in no hex the enemy watches: no opportunity fire window.
/// The window a move opens (2.11, series opportunity fire): at its end, if it entered a hex on the enemy's
/// watch list. From version 17 only the hexes it entered count (`entered` of `path`: a 9 may
/// stop a vehicle before an unstable bridge); version 16 counted every hex the order named,
/// and its line says which were beyond the stop.
fn watched_path(s: &mut State, ctx: &mut Ctx, side: Side, path: &[Hex], entered: usize, end: Hex) {
    let entered = entered.min(path.len());
    let counted = if s.version >= 17 {
        &path[..entered]
    } else {
        path
    };
    match counted.iter().position(|&h| s.watches(side.other(), h)) {
        Some(i) if i >= entered => ctx.say(format!(
            "The move's path named {}, on the {} player's watch list, beyond {end} where it stopped: the window opens at {end} (rules version 16)",
            counted[i],
            side.other().name()
        )),
        Some(i) if counted[i] != end => ctx.say(format!(
            "The move passed {}, on the {} player's watch list",
            counted[i],
            side.other().name()
        )),
        Some(_) => {}
        None => unwatched(s, ctx, side),
    }
}

fn unwatched(s: &mut State, ctx: &mut Ctx, side: Side) {
    if let Some(h) = s.window.take() {
        ctx.say(format!(
            "{h} is not on the {} player's watch list: no opportunity fire window",
            side.other().name()
        ));
    }
    assault::roll_assault(s, ctx);
}

/// The opportunity fire window closes (a pass, the deadline, the fire's result stated): a
/// declared assault goes on to its die (S4.4).
pub(crate) fn close_window(s: &mut State, ctx: &mut Ctx) {
    s.window = None;
    assault::roll_assault(s, ctx);
}

/// The unit that takes an action in its side's impulse, for the activation check (S6.5, S6.6).
/// A Bailey or Bulldozer placed is not here: 2.11 and 2.15.7 name the impulses they come in.
fn acting_unit(c: &Command) -> Option<&str> {
    match c {
        Command::Move { unit, .. }
        | Command::Fire {
            unit,
            opportunity: false,
            ..
        }
        | Command::Assault { unit, .. }
        | Command::Tq { unit, .. }
        | Command::Rally { unit, .. }
        | Command::Barrage { unit, .. }
        | Command::Dismount { unit, .. }
        | Command::Ride { unit, .. }
        | Command::Ferry { unit, .. }
        | Command::EnterPark { unit, .. }
        | Command::Unmark { unit } => Some(unit),
        Command::Mount { infantry, .. } => Some(infantry),
        _ => None,
    }
}

/// A unit named in a declared roll must not be the enemy's.
fn check_unit(s: &State, side: Side, unit: &str) -> Result<(), RuleError> {
    match s.units.get(unit) {
        Some(u) if u.side != side => Err(rule(
            "declared rolls",
            format!("{unit} is a {} unit", u.side.name()),
        )),
        _ => Ok(()),
    }
}
