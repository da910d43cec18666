//! The Defender's turn, one order for all his agents run in the rules' order (summary, "Defender
//! turn"): Phase 1 Orders — the Commander, then the Sentries, then the Guards (whose pursuit and
//! demobilisation the engine carries out, so that their constraints always hold); Phase 2
//! Recovery; Phase 3 Administration (a replacement Commander); Phase 4 Take Time with
//! SUBVERSION.

use super::agents::{Agent, DefKind, Mode};
use super::board::{board, Dir, DoorId, Sq};
use super::combat::{self, Who};
use super::guards;
use super::order::{describe_dstep, DStep};
use super::senses;
use super::skills::{self, faces, Table};
use super::state::{Defender, Marker, MarkerKind, Occupant, State, Status};
use crate::engine::ruleset::RuleError;

fn err(rule: &str, message: impl Into<String>) -> RuleError {
    RuleError::new(rule, message)
}

/// Runs the Defender's order and the automatic phases. `Ok(Some((reason, rest)))` when part of
/// the order was not carried out.
pub fn run(s: &mut State, t: &mut dyn Table, steps: &[DStep]) -> super::order::Ran {
    let rest_of = |pred: &dyn Fn(&DStep) -> bool, from: usize| -> Vec<String> {
        steps[from..]
            .iter()
            .filter(|s| pred(s))
            .map(describe_dstep)
            .collect()
    };
    let is_commander = |st: &DStep| {
        matches!(
            st,
            DStep::CommanderMove { .. }
                | DStep::CommanderFace { .. }
                | DStep::CommanderOpen { .. }
                | DStep::CommanderClose { .. }
                | DStep::CommanderInvestigate { .. }
                | DStep::CommanderAlarm { .. }
                | DStep::CommanderFight { .. }
                | DStep::CommanderShoot { .. }
        )
    };
    let mut unexecuted: Option<(String, Vec<String>)> = None;
    // Targets named in the order must stand there when it is given; one that an earlier
    // attack of the same order has already brought down is skipped.
    let targets_at_start: Vec<Sq> = s
        .assaulters_inside()
        .filter_map(|i| s.intruders[i].sq)
        .collect();
    for st in steps {
        if let DStep::CommanderFight { at }
        | DStep::CommanderShoot { at }
        | DStep::SentryFight { at, .. }
        | DStep::SentryShoot { at, .. } = st
        {
            if !targets_at_start.contains(at) {
                return Err((
                    err(
                        "Combat",
                        format!(
                            "there is no standing assaulter at {at}: raiders cannot be attacked"
                        ),
                    ),
                    vec![describe_dstep(st)],
                ));
            }
        }
    }
    let routes: Vec<(&str, &[Sq])> = steps
        .iter()
        .filter_map(|s| match s {
            DStep::GuardMove { guard, path } => Some((guard.as_str(), path.as_slice())),
            _ => None,
        })
        .collect();
    if let Err(e) = guards::check_routes(s, &routes) {
        return Err((e, Vec::new()));
    }
    // Phase 1: the Commander.
    let cmd: Vec<(usize, &DStep)> = steps
        .iter()
        .enumerate()
        .filter(|(_, s)| is_commander(s))
        .collect();
    if !cmd.is_empty() {
        match commander_turn(s, t, &cmd) {
            Ok(None) => {}
            Ok(Some((reason, from))) => {
                unexecuted = Some((reason, rest_of(&is_commander, from)));
            }
            Err((e, from)) => return Err((e, rest_of(&is_commander, from))),
        }
    }
    // Phase 1: the Sentries.
    let mut acted: Vec<String> = Vec::new();
    for (k, st) in steps.iter().enumerate() {
        let (label, at, shoot) = match st {
            DStep::SentryFight { sentry, at } => (sentry, *at, false),
            DStep::SentryShoot { sentry, at } => (sentry, *at, true),
            _ => continue,
        };
        if acted.contains(label) {
            return Err((
                err("Actions", format!("Sentry {label} has one action a turn")),
                rest_of(&|_| true, k),
            ));
        }
        acted.push(label.clone());
        if let Err(e) = sentry_action(s, t, label, at, shoot) {
            return Err((e, rest_of(&|_| true, k)));
        }
    }
    // Phase 1: the Guards.
    let target = steps.iter().find_map(|s| match s {
        DStep::GuardsChase { target } => Some(*target),
        _ => None,
    });
    if let Some(a) = target {
        if !s.intruders.iter().any(|i| i.agent == a) {
            return Err((
                err("Guards", format!("{} is not on this mission", a.title())),
                Vec::new(),
            ));
        }
    }
    if let Err(e) = guards::turn(s, t, target, &routes) {
        return Err((e, Vec::new()));
    }
    // Phase 2: Recovery.
    recovery(s, t);
    // Phase 3: Administration.
    let replace_at = steps.iter().find_map(|s| match s {
        DStep::Replace { at } => Some(*at),
        _ => None,
    });
    if let Err(e) = administration(s, t, replace_at) {
        return Err((e, Vec::new()));
    }
    // Phase 4: Take time.
    take_time(s, t);
    Ok(unexecuted)
}

fn commander_turn(
    s: &mut State,
    t: &mut dyn Table,
    steps: &[(usize, &DStep)],
) -> Result<Option<(String, usize)>, (RuleError, usize)> {
    let first = steps[0].0;
    let c = s
        .commander()
        .filter(|&c| s.defenders[c].status == Status::Standing)
        .ok_or_else(|| {
            (
                err("Commander", "there is no standing Commander to command"),
                first,
            )
        })?;
    let first_turn = s.defenders[c].first_turn.take();
    let mut allowance: Option<u32> = first_turn.map(u32::from);
    let mut moved = 0;
    // A replacement mobilised in the entry zone moves up to 6 squares but may not act.
    let mut action_used = first_turn.is_some();
    let mut may_move = true;
    let mut last_door: Option<DoorId> = None;
    let mut face: Option<Dir> = None;
    let engaged = senses::defender_engaged(s, c);
    for &(k, st) in steps {
        let fail = |e: RuleError| (e, k);
        match st {
            DStep::CommanderFace { dir } => face = Some(*dir),
            DStep::CommanderMove { path } => {
                if engaged {
                    return Err(fail(err(
                        "Fighting",
                        "the Commander is engaged in a fight and may not move",
                    )));
                }
                for (n, &to) in path.iter().enumerate() {
                    if !may_move {
                        return Err(fail(err(
                            "Movement",
                            "the Commander may not move again this turn",
                        )));
                    }
                    let from = s.defenders[c].sq.expect("on the board");
                    let link = board()
                        .links(from)
                        .iter()
                        .find(|l| l.to == to)
                        .copied()
                        .ok_or_else(|| {
                            fail(err("Movement", format!("{to} is not adjacent to {from}")))
                        })?;
                    if let Some(d) = link.door {
                        if !s.door_open(d) {
                            return Err(fail(err(
                                "Doors",
                                format!("{d} between {from} and {to} is closed: open it first"),
                            )));
                        }
                    }
                    if board().is_entry(to) && !board().is_entry(from) {
                        return Err(fail(err(
                            "Movement",
                            "the Commander stays inside the stronghold",
                        )));
                    }
                    let roll = match allowance {
                        Some(a) => a,
                        None => {
                            let r = t.d6(true);
                            t.say(format_args!("The Commander rolls {r} for movement"));
                            allowance = Some(r);
                            r
                        }
                    };
                    if moved >= roll {
                        return Ok(Some((
                            format!("the Commander's movement roll of {roll} is used up at {from}"),
                            k,
                        )));
                    }
                    match s.occupant(to) {
                        Some(Occupant::Intruder(i))
                            if s.intruders[i].standing()
                                && s.intruders[i].mode == Mode::Raiding =>
                        {
                            // Summary, "Raiding": he stops adjacent and exposes the raider.
                            t.say(format_args!(
                                "The Commander walks into {} at {to}",
                                s.intruders[i].agent.title()
                            ));
                            combat::expose(s, t, i, Some(c));
                            let d = &mut s.defenders[c];
                            d.facing = Dir::towards(from, to);
                            return Ok(Some((
                                "the Commander exposed a raider; his turn ends".into(),
                                k,
                            )));
                        }
                        Some(Occupant::Intruder(i)) if s.intruders[i].standing() => {
                            return Err(fail(err(
                                "Occupied squares",
                                format!("an enemy stands at {to}"),
                            )));
                        }
                        Some(_) if n + 1 == path.len() => {
                            return Err(fail(err(
                                "Occupied squares",
                                format!(
                                    "{to} is occupied: the Commander may pass but not stop there"
                                ),
                            )));
                        }
                        _ => {}
                    }
                    moved += 1;
                    last_door = link.door;
                    let entering_enemy_room = board()
                        .room_of(to)
                        .filter(|&r| board().room_of(from) != Some(r))
                        .filter(|&r| senses::enemy_room_for_defenders(s, r));
                    let d = &mut s.defenders[c];
                    d.sq = Some(to);
                    if to != from {
                        d.facing = Dir::towards(from, to);
                    }
                    if let Some(r) = entering_enemy_room {
                        {
                            let grade = s.defenders[c].profile().survival;
                            let (f, p) = skills::test(t, 1, grade, true);
                            t.say(format_args!(
                                "The Commander must REACT entering room {r} ({})",
                                faces(&f)
                            ));
                            match p {
                                0 => {
                                    return Ok(Some((
                                        "the Commander was too slow to react".into(),
                                        k,
                                    )))
                                }
                                _ => may_move = false,
                            }
                        }
                    }
                }
            }
            DStep::CommanderOpen { door } | DStep::CommanderClose { door } => {
                let open = matches!(st, DStep::CommanderOpen { .. });
                let sq = s.defenders[c].sq.expect("on the board");
                if !board().door(*door).adjacent.contains(&sq) {
                    return Err(fail(err("Doors", format!("the Commander must stand in one of the 3 squares along a face of {door}"))));
                }
                if s.door_open(*door) == open {
                    return Err(fail(err(
                        "Doors",
                        format!("{door} is already {}", if open { "open" } else { "closed" }),
                    )));
                }
                if !open && board().door(*door).entrance && s.door_open(*door) {
                    return Err(fail(err(
                        "Doors",
                        "the breached entrance may not be closed",
                    )));
                }
                if !open
                    && last_door == Some(*door)
                    && may_move
                    && allowance.is_some_and(|a| moved < a)
                {
                    moved += 1;
                } else {
                    if action_used || engaged {
                        return Err(fail(err("Actions", "the Commander has one action a turn")));
                    }
                    action_used = true;
                }
                s.doors_open[door.index()] = open;
                t.say(format_args!(
                    "The Commander {} {door}",
                    if open { "unlocks and opens" } else { "closes" }
                ));
                if !open {
                    combat::door_closed(s, t, *door);
                }
            }
            DStep::CommanderInvestigate { at } => {
                let sq = s.defenders[c].sq.expect("on the board");
                // Summary, "Investigate": "He must be standing in an adjacent square to the
                // marker" — beside it, not on it.
                if !senses::adjacent(s, sq, *at) {
                    return Err(fail(err(
                        "Investigate",
                        format!(
                            "the Commander must stand in a square adjacent to {at}, not at {sq}"
                        ),
                    )));
                }
                if s.alarm {
                    return Err(fail(err(
                        "Investigate",
                        "while the alarm is raised no alert or corpse markers may be collected",
                    )));
                }
                let m = marker_at(s, *at).ok_or_else(|| {
                    fail(err(
                        "Investigate",
                        format!("there is no alert or corpse marker at {at}"),
                    ))
                })?;
                if action_used || engaged {
                    return Err(fail(err("Actions", "the Commander has one action a turn")));
                }
                action_used = true;
                investigate(s, t, c, m);
            }
            DStep::CommanderAlarm { at } => {
                if s.alarm {
                    return Err(fail(err("Raise alarm", "the alarm is already raised")));
                }
                if s.assaulters_inside().next().is_none() {
                    return Err(fail(err(
                        "Raise alarm",
                        "the alarm needs at least one assaulter in the stronghold",
                    )));
                }
                if s.asi_markers == 0 {
                    return Err(fail(err(
                        "Raise alarm",
                        "the alarm needs at least one alert marker on the ASI",
                    )));
                }
                if action_used || engaged {
                    return Err(fail(err("Actions", "the Commander has one action a turn")));
                }
                let n = (s.asi_markers).min(s.guards_in_box) as usize;
                if at.len() > n {
                    return Err(fail(err(
                        "Raise alarm",
                        format!("only {n} Guard(s) come into play: name at most {n} squares"),
                    )));
                }
                for (j, q) in at.iter().enumerate() {
                    mobilise_square_ok(s, *q).map_err(fail)?;
                    if at[..j].contains(q) {
                        return Err(fail(err("Guards", format!("{q} is named twice"))));
                    }
                }
                action_used = true;
                raise_alarm(s, t, at);
            }
            DStep::CommanderFight { at } | DStep::CommanderShoot { at } => {
                let shoot = matches!(st, DStep::CommanderShoot { .. });
                if action_used {
                    return Err(fail(err("Actions", "the Commander has one action a turn")));
                }
                attack(s, t, c, *at, shoot).map_err(fail)?;
                action_used = true;
            }
            _ => unreachable!("only the Commander's steps"),
        }
        if s.defenders[c].status != Status::Standing {
            return Ok(Some(("the Commander is down".into(), k + 1)));
        }
    }
    if let Some(f) = face {
        s.defenders[c].facing = f;
    }
    Ok(None)
}

/// What the Commander may collect on a square: a marker on the board, or a Sentry's alert
/// marker.
#[derive(Debug, Clone, Copy)]
enum Collectable {
    Marker(usize),
    SentryAlert(usize),
}

fn marker_at(s: &State, at: Sq) -> Option<Collectable> {
    s.markers
        .iter()
        .position(|m| m.sq == at)
        .map(Collectable::Marker)
        .or_else(|| {
            s.defenders
                .iter()
                .position(|d| d.alert == Some(at))
                .map(Collectable::SentryAlert)
        })
}

/// INVESTIGATE (summary, "The Commander"): one alert or corpse marker to the ASI's standby side;
/// a Sentry whose marker it was returns to the ready position; an Intruder's corpse gives up
/// his equipment, weapons and intelligence.
fn investigate(s: &mut State, t: &mut dyn Table, c: usize, found: Collectable) {
    if let Collectable::SentryAlert(d) = found {
        let a = &mut s.defenders[d];
        a.alert = None;
        if a.status == Status::Standing {
            a.facing = a.ready;
        }
        t.say(format_args!("The Commander collects Sentry {}'s alert marker; the Sentry returns to the ready position", a.label));
    } else if let Collectable::Marker(m) = found {
        let marker: Marker = s.markers.remove(m);
        if let MarkerKind::Corpse { of } = &marker.kind {
            if Agent::parse(of).is_some() {
                let cm = &mut s.defenders[c];
                cm.captured_intel.extend(marker.intel.iter().copied());
                cm.captured_equipment
                    .extend(marker.equipment.iter().copied());
                cm.captured_weapons.extend(marker.weapons.iter().copied());
                t.say(format_args!("The Commander takes everything {of} carried"));
            }
        }
        t.say(format_args!(
            "The Commander collects the marker at {}",
            marker.sq
        ));
    }
    s.asi_markers += 1;
}

/// Guards are mobilised in any square of an unexplored room, or the entry zone.
fn mobilise_square_ok(s: &State, q: Sq) -> Result<(), RuleError> {
    let b = board();
    let ok = b.is_entry(q) || b.room_of(q).is_some_and(|r| !s.room_card(r).explored);
    if !ok {
        return Err(err(
            "Mobilising",
            format!("{q} is neither in an unexplored room nor in the entry zone"),
        ));
    }
    if s.occupant(q).is_some() {
        return Err(err("Mobilising", format!("{q} is occupied")));
    }
    Ok(())
}

/// RAISE ALARM: the ASI turns to alarm, its markers are discarded and a Guard comes into play
/// for each.
fn raise_alarm(s: &mut State, t: &mut dyn Table, at: &[Sq]) {
    let n = s.asi_markers.min(s.guards_in_box) as usize;
    s.alarm = true;
    s.asi_markers = 0;
    t.say(format_args!(
        "The Commander raises the alarm: {n} Guard(s) come into play"
    ));
    let mut places: Vec<Sq> = at.to_vec();
    let spare: Vec<Sq> = board()
        .entry
        .iter()
        .copied()
        .chain(
            board()
                .squares()
                .filter(|&q| board().room_of(q).is_some_and(|r| !s.room_card(r).explored)),
        )
        .collect();
    for q in spare {
        if places.len() >= n {
            break;
        }
        if !places.contains(&q) && s.occupant(q).is_none() {
            places.push(q);
        }
    }
    for q in places.into_iter().take(n) {
        mobilise_guard(s, t, q);
    }
}

fn mobilise_guard(s: &mut State, t: &mut dyn Table, q: Sq) {
    s.guards_in_box -= 1;
    s.guards_mobilised += 1;
    let label = format!("g{}", s.guards_mobilised);
    t.say(format_args!("Guard {label} is mobilised at {q}"));
    s.defenders.push(Defender {
        kind: DefKind::Guard,
        label,
        sq: Some(q),
        status: Status::Standing,
        facing: Dir::North,
        ready: Dir::North,
        alert: None,
        first_turn: board().is_entry(q).then_some(6),
        captured_intel: Vec::new(),
        captured_equipment: Vec::new(),
        captured_weapons: Vec::new(),
    });
}

/// FIGHT or SHOOT by a defending agent against an assaulter.
fn attack(
    s: &mut State,
    t: &mut dyn Table,
    d: usize,
    at: Sq,
    shoot: bool,
) -> Result<(), RuleError> {
    let sq = s.defenders[d].sq.expect("on the board");
    let Some(i) = s
        .intruders
        .iter()
        .position(|a| a.sq == Some(at) && a.is_assaulter())
    else {
        t.say(format_args!(
            "{} holds fire: nobody is left standing at {at}",
            combat::name(s, Who::D(d))
        ));
        return Ok(());
    };
    if shoot {
        if senses::intruder_engaged(s, i) {
            return Err(err(
                "Shooting",
                format!("the target at {at} is engaged in a fight and may not be shot"),
            ));
        }
        let range = senses::los(s, sq, at)
            .ok_or_else(|| err("Line of sight", format!("no clear LOS from {sq} to {at}")))?;
        let dice = if s.defenders[d].kind == DefKind::Commander {
            4
        } else {
            5
        };
        combat::shoot(
            s,
            t,
            Who::D(d),
            Who::I(i),
            combat::Shot {
                dice,
                range,
                burst: None,
            },
            true,
        );
    } else {
        if !senses::adjacent(s, sq, at) {
            return Err(err("Fight", format!("{at} is not adjacent to {sq}")));
        }
        combat::fight(s, t, Who::D(d), Who::I(i), false, true, true);
    }
    Ok(())
}

fn sentry_action(
    s: &mut State,
    t: &mut dyn Table,
    label: &str,
    at: Sq,
    shoot: bool,
) -> Result<(), RuleError> {
    let d = s
        .defenders
        .iter()
        .position(|d| d.label == label && d.kind == DefKind::Sentry && d.standing())
        .ok_or_else(|| err("Sentries", format!("there is no standing Sentry {label}")))?;
    attack(s, t, d, at, shoot)
}

pub(super) fn adjacent_assaulter(s: &State, sq: Sq) -> Option<usize> {
    (0..s.intruders.len()).find(|&i| {
        s.intruders[i].is_assaulter()
            && s.intruders[i]
                .sq
                .is_some_and(|q| senses::adjacent(s, sq, q))
    })
}

pub(super) fn shootable(s: &State, from: Sq) -> Option<(usize, u32)> {
    (0..s.intruders.len())
        .filter(|&i| s.intruders[i].is_assaulter() && !senses::intruder_engaged(s, i))
        .filter_map(|i| {
            s.intruders[i]
                .sq
                .and_then(|q| senses::los(s, from, q))
                .map(|r| (i, r))
        })
        .min_by_key(|&(i, r)| (r, i))
}

/// DEFENDER RECOVER: d6 Survival; a pass stands the agent up (a Sentry faces his marker); a
/// failed roll of 1 kills him.
fn recovery(s: &mut State, t: &mut dyn Table) {
    for d in 0..s.defenders.len() {
        if s.defenders[d].status != Status::Unconscious {
            continue;
        }
        let grade = s.defenders[d].profile().survival;
        let face = t.d6(true);
        let who = combat::name(s, Who::D(d));
        if grade.passes(face) {
            let a = &mut s.defenders[d];
            a.status = Status::Standing;
            if let (Some(m), Some(q)) = (a.alert, a.sq) {
                a.facing = Dir::towards(q, m);
            }
            t.say(format_args!("{who} recovers ({face})"));
        } else if face == 1 {
            t.say(format_args!("{who} dies of his injuries ({face})"));
            combat::kill(s, t, Who::D(d));
        } else {
            t.say(format_args!("{who} stays down ({face})"));
        }
    }
}

/// Phase 3: a replacement Commander when d6 > minutes left / 10, in an unexplored room or the
/// entry zone, with an alert marker unless the alarm is raised.
fn administration(s: &mut State, t: &mut dyn Table, at: Option<Sq>) -> Result<(), RuleError> {
    if s.commander().is_some() {
        if at.is_some() {
            return Err(err(
                "Mobilising a replacement Commander",
                "the Commander is alive: there can only be one",
            ));
        }
        return Ok(());
    }
    let place = match at {
        Some(q) => {
            mobilise_square_ok(s, q)?;
            Some(q)
        }
        None => board()
            .entry
            .iter()
            .copied()
            .find(|&q| s.occupant(q).is_none()),
    };
    let Some(place) = place else { return Ok(()) };
    let face = t.d6(true);
    let needed = s.minutes as f64 / 10.0;
    if (face as f64) <= needed {
        t.say(format_args!(
            "No replacement Commander ({face}, needed more than {needed})"
        ));
        return Ok(());
    }
    let in_room = board().room_of(place).is_some();
    s.defenders.retain(|d| d.kind != DefKind::Commander);
    s.defenders.insert(
        0,
        Defender {
            kind: DefKind::Commander,
            label: "commander".into(),
            sq: Some(place),
            status: Status::Standing,
            facing: Dir::North,
            ready: Dir::North,
            alert: None,
            first_turn: (!in_room).then_some(6),
            captured_intel: Vec::new(),
            captured_equipment: Vec::new(),
            captured_weapons: Vec::new(),
        },
    );
    t.say(format_args!(
        "A replacement Commander is mobilised at {place} ({face})"
    ));
    if !s.alarm {
        s.asi_markers += 1;
    }
    Ok(())
}

/// Phase 4: a minute off the Mission Timer, and SUBVERSION: each assaulter in the stronghold
/// takes a d6 Stealth test or costs another minute.
fn take_time(s: &mut State, t: &mut dyn Table) {
    s.take_minutes(1);
    // The line is written only when it will be read: Take Time comes every round, in the
    // order's check and again in play. SUBVERSION's minutes are taken before the timer is
    // printed, so the line ends with what the Mission Timer shows.
    let lines = t.lines();
    let mut tests = String::new();
    for i in 0..s.intruders.len() {
        if !(s.intruders[i].is_assaulter() && s.intruders[i].in_stronghold()) {
            continue;
        }
        let grade = s.intruders[i].profile().stealth;
        let face = t.d6(false);
        let title = s.intruders[i].agent.title();
        if !grade.passes(face) {
            s.take_minutes(1);
            if lines {
                tests.push_str(&format!(
                    "; {title} fails subversion ({face}): a minute more"
                ));
            }
        } else if lines {
            tests.push_str(&format!("; {title} passes subversion ({face})"));
        }
    }
    if lines {
        t.say(format_args!(
            "Take time: a minute{tests}; {} minutes remain",
            s.minutes
        ));
    }
}
