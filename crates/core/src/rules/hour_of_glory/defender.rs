//! The Defender's turn, one order for all his agents run in the rules' order (summary, "Defender
//! turn"): Phase 1 Orders — the Commander, then the Sentries, then the Guards (whose pursuit and
//! demobilisation the engine carries out, so that their constraints always hold); Phase 2
//! Recovery; Phase 3 Administration (a replacement Commander); Phase 4 Take Time with
//! SUBVERSION.
//!
//! Check, then change, as for the Intruders (`intruder.rs`): each of the Commander's activities
//! and each Sentry's attack is checked (`check_…`) before it is performed; [`check`] checks a
//! whole order before any die is drawn, each clause against the state as the clauses before it
//! will have left it on their planned outcome (`skills::Course::Plan`); the Guards' orders are
//! checked against the state their phase will find (`guards::check_routes`).

use super::agents::{Agent, DefKind, Mode};
use super::board::{board, Dir, DoorId, Link, Sq};
use super::combat::{self, Who};
use super::guards;
use super::order::{describe_dstep, DStep};
use super::senses;
use super::skills::{self, faces, Course, Table};
use super::state::{Defender, Marker, MarkerKind, Occupant, State, Status};
use crate::engine::ruleset::RuleError;

fn err(rule: &str, message: impl Into<String>) -> RuleError {
    RuleError::new(rule, message)
}

/// Plays the Defender's order and the automatic phases, each clause checked against the state
/// as it now is. `Ok(Some((reason, rest)))` when part of the order was not carried out.
pub fn run(s: &mut State, t: &mut dyn Table, steps: &[DStep]) -> super::order::Ran {
    carry_out(s, &mut Course::Play(t), steps)
}

/// Checks the Defender's whole order before any die is drawn, on `course`, a copy of the state:
/// the Commander's and the Sentries' clauses each against the state as the clauses before will
/// have left it on their planned outcome, the Guards' orders against the state their phase will
/// find, and a replacement Commander's square.
pub fn check(course: &mut State, steps: &[DStep]) -> Result<(), RuleError> {
    carry_out(course, &mut Course::plan(), steps)
        .map(|_| ())
        .map_err(|(e, _)| e)
}

fn carry_out(s: &mut State, c: &mut Course, steps: &[DStep]) -> super::order::Ran {
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
    let orders = guards::Orders::read(steps);
    if let Err(e) = guards::check_orders(s, &orders) {
        return Err((e, Vec::new()));
    }
    // Phase 1: the Commander.
    let cmd: Vec<(usize, &DStep)> = steps
        .iter()
        .enumerate()
        .filter(|(_, s)| is_commander(s))
        .collect();
    if !cmd.is_empty() {
        match commander_turn(s, c, &cmd) {
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
        match check_sentry(s, label, at, shoot) {
            Ok(plan) => attack(s, c, plan),
            Err(e) => return Err((e, rest_of(&|_| true, k))),
        }
    }
    let replace_at = steps.iter().find_map(|s| match s {
        DStep::Replace { at } => Some(*at),
        _ => None,
    });
    match c {
        Course::Plan(_) => {
            // The Guards' routes, against the state their phase will find; a replacement's
            // square (on the planned course every Defender recovers).
            if let Err(e) = guards::check_routes(s, &orders) {
                return Err((e, Vec::new()));
            }
            if let Err(e) = check_administration(s, replace_at) {
                return Err((e, Vec::new()));
            }
        }
        Course::Play(t) => {
            // Phase 1: the Guards.
            guards::turn(s, &mut **t, &orders);
            // Phase 2: Recovery.
            recovery(s, &mut **t);
            // Phase 3: Administration.
            match check_administration(s, replace_at) {
                Ok(place) => administration(s, &mut **t, place),
                Err(e) => return Err((e, Vec::new())),
            }
            // Phase 4: Take time.
            take_time(s, &mut **t);
        }
    }
    Ok(unexecuted)
}

/// What the Commander may still do this turn.
struct CommanderTurn {
    c: usize,
    /// His movement roll, once rolled (or a replacement's 6 from the entry zone).
    allowance: Option<u32>,
    moved: u32,
    action_used: bool,
    may_move: bool,
    last_door: Option<DoorId>,
    engaged: bool,
}

impl CommanderTurn {
    fn check_action(&self) -> Result<(), RuleError> {
        if self.action_used || self.engaged {
            return Err(err("Actions", "the Commander has one action a turn"));
        }
        Ok(())
    }
}

fn commander_turn(
    s: &mut State,
    c: &mut Course,
    steps: &[(usize, &DStep)],
) -> Result<Option<(String, usize)>, (RuleError, usize)> {
    let first = steps[0].0;
    let cm = s
        .commander()
        .filter(|&c| s.defenders[c].status == Status::Standing)
        .ok_or_else(|| {
            (
                err("Commander", "there is no standing Commander to command"),
                first,
            )
        })?;
    let first_turn = s.defenders[cm].first_turn.take();
    let mut ct = CommanderTurn {
        c: cm,
        allowance: first_turn.map(u32::from),
        moved: 0,
        // A replacement mobilised in the entry zone moves up to 6 squares but may not act.
        action_used: first_turn.is_some(),
        may_move: true,
        last_door: None,
        engaged: senses::defender_engaged(s, cm),
    };
    let mut face: Option<Dir> = None;
    for &(k, st) in steps {
        let fail = |e: RuleError| (e, k);
        match st {
            DStep::CommanderFace { dir } => face = Some(*dir),
            DStep::CommanderMove { path } => {
                if ct.engaged {
                    return Err(fail(err(
                        "Fighting",
                        "the Commander is engaged in a fight and may not move",
                    )));
                }
                let from = s.defenders[cm].sq.expect("on the board");
                let mut walked = Vec::new();
                let mut stopped = None;
                for (n, &to) in path.iter().enumerate() {
                    let went = check_commander_square(s, &ct, to)
                        .and_then(|link| commander_step(s, c, &mut ct, link, n + 1 == path.len()));
                    if s.defenders[cm].sq == Some(to) && went.is_ok() {
                        walked.push(to);
                    }
                    match went {
                        Ok(None) => {}
                        Ok(Some(stop)) => {
                            stopped = Some(Ok(stop));
                            break;
                        }
                        Err(e) => {
                            stopped = Some(Err(e));
                            break;
                        }
                    }
                }
                skills::say_moved(c.table(), "The Commander", from, &walked);
                match stopped {
                    Some(Ok(stop)) => return Ok(Some((stop, k))),
                    Some(Err(e)) => return Err(fail(e)),
                    None => {}
                }
            }
            DStep::CommanderOpen { door } | DStep::CommanderClose { door } => {
                let open = matches!(st, DStep::CommanderOpen { .. });
                let as_move = check_commander_door(s, &ct, *door, open).map_err(fail)?;
                if as_move {
                    ct.moved += 1;
                } else {
                    ct.action_used = true;
                }
                s.doors_open[door.index()] = open;
                c.table().say(format_args!(
                    "The Commander {} {door}",
                    if open { "unlocks and opens" } else { "closes" }
                ));
                if !open {
                    combat::door_closed(s, c.table(), *door);
                }
            }
            DStep::CommanderInvestigate { at } => {
                let m = check_investigate(s, &ct, *at).map_err(fail)?;
                ct.action_used = true;
                investigate(s, c.table(), cm, m);
            }
            DStep::CommanderAlarm { at } => {
                check_alarm(s, &ct, at).map_err(fail)?;
                ct.action_used = true;
                raise_alarm(s, c.table(), at);
            }
            DStep::CommanderFight { at } | DStep::CommanderShoot { at } => {
                let shoot = matches!(st, DStep::CommanderShoot { .. });
                if ct.action_used {
                    return Err(fail(err("Actions", "the Commander has one action a turn")));
                }
                let plan = check_attack(s, cm, *at, shoot).map_err(fail)?;
                attack(s, c, plan);
                ct.action_used = true;
            }
            _ => unreachable!("only the Commander's steps"),
        }
        if s.defenders[cm].status != Status::Standing {
            return Ok(Some(("the Commander is down".into(), k + 1)));
        }
    }
    if let Some(f) = face {
        s.defenders[cm].facing = f;
    }
    Ok(None)
}

/// May the Commander walk on to `to`: a move left, the square next to his, any door between
/// open, and not out of the stronghold?
fn check_commander_square(s: &State, ct: &CommanderTurn, to: Sq) -> Result<Link, RuleError> {
    if !ct.may_move {
        return Err(err(
            "Movement",
            "the Commander may not move again this turn",
        ));
    }
    let from = s.defenders[ct.c].sq.expect("on the board");
    let link = board()
        .links(from)
        .iter()
        .find(|l| l.to == to)
        .copied()
        .ok_or_else(|| err("Movement", format!("{to} is not adjacent to {from}")))?;
    if let Some(d) = link.door {
        if !s.door_open(d) {
            return Err(err(
                "Doors",
                format!("{d} between {from} and {to} is closed: open it first"),
            ));
        }
    }
    if board().is_entry(to) && !board().is_entry(from) {
        return Err(err("Movement", "the Commander stays inside the stronghold"));
    }
    Ok(link)
}

/// What the Commander finds on the square he walks on to.
enum Arrival {
    Free,
    /// A standing raider: he stops beside him and exposes him (summary, "Raiding").
    Raider(usize),
}

/// Who holds the square: an enemy who is not a standing raider stops him, and he may pass but
/// not stop on anyone else.
fn check_commander_arrival(s: &State, to: Sq, last: bool) -> Result<Arrival, RuleError> {
    match s.occupant(to) {
        Some(Occupant::Intruder(i))
            if s.intruders[i].standing() && s.intruders[i].mode == Mode::Raiding =>
        {
            Ok(Arrival::Raider(i))
        }
        Some(Occupant::Intruder(i)) if s.intruders[i].standing() => {
            Err(err("Occupied squares", format!("an enemy stands at {to}")))
        }
        Some(_) if last => Err(err(
            "Occupied squares",
            format!("{to} is occupied: the Commander may pass but not stop there"),
        )),
        _ => Ok(Arrival::Free),
    }
}

/// A square of the Commander's movement: the movement roll (rolled at his first square; on the
/// planned course the most a d6 allows), then who holds the square, then the square walked and
/// a REACT entering an enemy-occupied room. `Ok(Some(why))` when his movement ends early.
fn commander_step(
    s: &mut State,
    c: &mut Course,
    ct: &mut CommanderTurn,
    link: Link,
    last: bool,
) -> Result<Option<String>, RuleError> {
    let cm = ct.c;
    let from = s.defenders[cm].sq.expect("on the board");
    let to = link.to;
    let roll = match ct.allowance {
        Some(a) => a,
        None => {
            let r = match c {
                Course::Play(t) => {
                    let r = t.d6(true);
                    t.say(format_args!("The Commander rolls {r} for movement"));
                    r
                }
                Course::Plan(_) => 6,
            };
            ct.allowance = Some(r);
            r
        }
    };
    if ct.moved >= roll {
        return Ok(Some(format!(
            "the Commander's movement roll of {roll} is used up at {from}"
        )));
    }
    if let Arrival::Raider(i) = check_commander_arrival(s, to, last)? {
        c.table().say(format_args!(
            "The Commander walks into {} at {to}",
            s.intruders[i].agent.title()
        ));
        combat::expose(s, c.table(), i, Some(cm));
        s.defenders[cm].facing = Dir::towards(from, to);
        return Ok(Some("the Commander exposed a raider; his turn ends".into()));
    }
    ct.moved += 1;
    ct.last_door = link.door;
    let entering_enemy_room = board()
        .room_of(to)
        .filter(|&r| board().room_of(from) != Some(r))
        .filter(|&r| senses::enemy_room_for_defenders(s, r));
    let d = &mut s.defenders[cm];
    d.sq = Some(to);
    if to != from {
        d.facing = Dir::towards(from, to);
    }
    if let Some(r) = entering_enemy_room {
        let grade = s.defenders[cm].profile().survival;
        let (f, p) = c.test(1, grade);
        c.table().say(format_args!(
            "The Commander must REACT entering room {r} ({})",
            faces(&f)
        ));
        if p == 0 {
            return Ok(Some("the Commander was too slow to react".into()));
        }
        ct.may_move = false;
    }
    Ok(None)
}

/// OPEN/CLOSE (summary, "The Commander", "Doors"): from a square along a face of the door; a
/// close right after moving through it costs a square of movement. `Ok(true)` when it does.
fn check_commander_door(
    s: &State,
    ct: &CommanderTurn,
    door: DoorId,
    open: bool,
) -> Result<bool, RuleError> {
    let sq = s.defenders[ct.c].sq.expect("on the board");
    if !board().door(door).adjacent.contains(&sq) {
        return Err(err(
            "Doors",
            format!("the Commander must stand in one of the 3 squares along a face of {door}"),
        ));
    }
    if s.door_open(door) == open {
        return Err(err(
            "Doors",
            format!("{door} is already {}", if open { "open" } else { "closed" }),
        ));
    }
    if !open && board().door(door).entrance && s.door_open(door) {
        return Err(err("Doors", "the breached entrance may not be closed"));
    }
    let as_move = !open
        && ct.last_door == Some(door)
        && ct.may_move
        && ct.allowance.is_some_and(|a| ct.moved < a);
    if !as_move {
        ct.check_action()?;
    }
    Ok(as_move)
}

/// INVESTIGATE (summary, "Investigate"): "He must be standing in an adjacent square to the
/// marker" — beside it, not on it; not while the alarm is raised.
fn check_investigate(s: &State, ct: &CommanderTurn, at: Sq) -> Result<Collectable, RuleError> {
    let sq = s.defenders[ct.c].sq.expect("on the board");
    if !senses::adjacent(s, sq, at) {
        return Err(err(
            "Investigate",
            format!("the Commander must stand in a square adjacent to {at}, not at {sq}"),
        ));
    }
    if s.alarm {
        return Err(err(
            "Investigate",
            "while the alarm is raised no alert or corpse markers may be collected",
        ));
    }
    let m = marker_at(s, at).ok_or_else(|| {
        err(
            "Investigate",
            format!("there is no alert or corpse marker at {at}"),
        )
    })?;
    ct.check_action()?;
    Ok(m)
}

/// RAISE ALARM (summary, "Raise alarm"): an assaulter inside, an alert marker on the ASI, and
/// the Guards' squares free in unexplored rooms or the entry zone.
fn check_alarm(s: &State, ct: &CommanderTurn, at: &[Sq]) -> Result<(), RuleError> {
    if s.alarm {
        return Err(err("Raise alarm", "the alarm is already raised"));
    }
    if s.assaulters_inside().next().is_none() {
        return Err(err(
            "Raise alarm",
            "the alarm needs at least one assaulter in the stronghold",
        ));
    }
    if s.asi_markers == 0 {
        return Err(err(
            "Raise alarm",
            "the alarm needs at least one alert marker on the ASI",
        ));
    }
    ct.check_action()?;
    let n = (s.asi_markers).min(s.guards_in_box) as usize;
    if at.len() > n {
        return Err(err(
            "Raise alarm",
            format!("only {n} Guard(s) come into play: name at most {n} squares"),
        ));
    }
    for (j, q) in at.iter().enumerate() {
        mobilise_square_ok(s, *q)?;
        if at[..j].contains(q) {
            return Err(err("Guards", format!("{q} is named twice")));
        }
    }
    Ok(())
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
pub(super) fn mobilise_square_ok(s: &State, q: Sq) -> Result<(), RuleError> {
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

/// A checked attack by a defending agent: the assaulter at the square and, for a shot, the
/// range; `None` for the assaulter when an earlier attack of the order felled him (he "holds
/// fire").
struct Attack {
    d: usize,
    at: Sq,
    target: Option<(usize, Option<u32>)>,
}

/// FIGHT (adjacent) or SHOOT (clear LOS, the target not engaged) by a defending agent against
/// the assaulter at `at`.
fn check_attack(s: &State, d: usize, at: Sq, shoot: bool) -> Result<Attack, RuleError> {
    let sq = s.defenders[d].sq.expect("on the board");
    let Some(i) = s
        .intruders
        .iter()
        .position(|a| a.sq == Some(at) && a.is_assaulter())
    else {
        return Ok(Attack {
            d,
            at,
            target: None,
        });
    };
    let range = if shoot {
        if senses::intruder_engaged(s, i) {
            return Err(err(
                "Shooting",
                format!("the target at {at} is engaged in a fight and may not be shot"),
            ));
        }
        Some(
            senses::los(s, sq, at)
                .ok_or_else(|| err("Line of sight", format!("no clear LOS from {sq} to {at}")))?,
        )
    } else {
        if !senses::adjacent(s, sq, at) {
            return Err(err("Fight", format!("{at} is not adjacent to {sq}")));
        }
        None
    };
    Ok(Attack {
        d,
        at,
        target: Some((i, range)),
    })
}

fn attack(s: &mut State, c: &mut Course, plan: Attack) {
    let Attack { d, at, target } = plan;
    let Some((i, range)) = target else {
        c.table().say(format_args!(
            "{} holds fire: nobody is left standing at {at}",
            combat::name(s, Who::D(d))
        ));
        return;
    };
    match (range, c) {
        (Some(range), c) => {
            let dice = if s.defenders[d].kind == DefKind::Commander {
                4
            } else {
                5
            };
            let shot = combat::Shot {
                dice,
                range,
                burst: None,
            };
            match c {
                Course::Play(t) => combat::shoot(s, &mut **t, Who::D(d), Who::I(i), shot, true),
                Course::Plan(t) => combat::planned_shot(s, t, Who::D(d), Who::I(i), shot),
            }
        }
        (None, Course::Play(t)) => {
            combat::fight(s, &mut **t, Who::D(d), Who::I(i), false, true, true)
        }
        (None, Course::Plan(t)) => combat::planned_fight(s, t, Who::D(d), Who::I(i)),
    }
}

/// A Sentry's FIGHT or SHOOT (summary, "Sentries"): a standing Sentry, by his post's label.
fn check_sentry(s: &State, label: &str, at: Sq, shoot: bool) -> Result<Attack, RuleError> {
    let d = s
        .defenders
        .iter()
        .position(|d| d.label == label && d.kind == DefKind::Sentry && d.standing())
        .ok_or_else(|| err("Sentries", format!("there is no standing Sentry {label}")))?;
    check_attack(s, d, at, shoot)
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

/// Phase 3: whether a replacement Commander is called for (none while the Commander lives), and
/// where he would come: the square the order names (`replace`, in an unexplored room or the
/// entry zone), else the first free entry-zone square. `Ok(None)`: no replacement is tried.
fn check_administration(s: &State, at: Option<Sq>) -> Result<Option<Sq>, RuleError> {
    if s.commander().is_some() {
        if at.is_some() {
            return Err(err(
                "Mobilising a replacement Commander",
                "the Commander is alive: there can only be one",
            ));
        }
        return Ok(None);
    }
    match at {
        Some(q) => {
            mobilise_square_ok(s, q)?;
            Ok(Some(q))
        }
        None => Ok(board()
            .entry
            .iter()
            .copied()
            .find(|&q| s.occupant(q).is_none())),
    }
}

/// Phase 3: a replacement Commander when d6 > minutes left / 10, on the square checked by
/// `check_administration`, with an alert marker unless the alarm is raised.
fn administration(s: &mut State, t: &mut dyn Table, place: Option<Sq>) {
    let Some(place) = place else { return };
    let face = t.d6(true);
    let needed = s.minutes as f64 / 10.0;
    if (face as f64) <= needed {
        t.say(format_args!(
            "No replacement Commander ({face}, needed more than {needed})"
        ));
        return;
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
