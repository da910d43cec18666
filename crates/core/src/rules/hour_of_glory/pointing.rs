//! Orders by pointing at the drawn stronghold (docs/web.md, "Orders by pointing"): for the seat
//! to act, each order its side's grammar has that names one figure and a square, door or
//! enemy, as the clause the rules accept as the game stands — checked as every order is checked
//! before its dice (`intruder::check`, `defender::check`). The Intruder points with his agent:
//! the squares he may walk to, the doors beside him, the Defenders he may attack. The Defender
//! points with each of his figures (summary, "Defender turn", Phase 1): the Commander's walks,
//! doors, attacks, investigations, alarm (naming the first Guard's square) and facings; each
//! Sentry's FIGHT or SHOOT; each Guard's route and whom he chases. Orders that name no single
//! square (`pass`, `commander alarm` alone or with several squares, `guards chase`, `replace`,
//! standing choices) stay the prompts' buttons and the order box's text (docs/rules/
//! hour-of-glory.md, Interpretation 27).

use std::collections::VecDeque;

use super::agents::DefKind;
use super::board::{board, Dir, Sq};
use super::order::{describe_dstep, describe_istep, DStep, IStep};
use super::skills::Method;
use super::state::{State, Status, Turn};
use super::{defender, guards, intruder};
use crate::engine::board::Pointed;
use crate::engine::ruleset::Seat;

/// The most squares a figure walks in a turn (an Intruder in assault mode, 6).
const FARTHEST: usize = 6;

/// The squares reachable from `from` through free squares and open doors in at most `steps`
/// squares, each with its shortest path (breadth first, so the nearest come first).
fn walks(s: &State, from: Sq, steps: usize) -> Vec<(Sq, Vec<Sq>)> {
    let b = board();
    let mut paths: Vec<(Sq, Vec<Sq>)> = Vec::new();
    let mut queue = VecDeque::from([(from, Vec::new())]);
    let mut seen = vec![from];
    while let Some((at, path)) = queue.pop_front() {
        if path.len() == steps {
            continue;
        }
        for link in b.links(at) {
            let shut = link.door.is_some_and(|d| !s.door_open(d));
            if shut || seen.contains(&link.to) || s.occupant(link.to).is_some() {
                continue;
            }
            seen.push(link.to);
            let mut longer = path.clone();
            longer.push(link.to);
            paths.push((link.to, longer.clone()));
            queue.push_back((link.to, longer));
        }
    }
    paths
}

/// The orders `seat` may make by pointing now.
pub fn pointing(s: &State, seat: &Seat) -> Vec<Pointed> {
    if s.ended.is_some() {
        return Vec::new();
    }
    match s.turn {
        Turn::Intruder(i) => intruder_orders(s, seat, i),
        Turn::Defender if &s.defender_seat == seat => defender_orders(s),
        Turn::Defender => Vec::new(),
    }
}

fn intruder_orders(s: &State, seat: &Seat, i: usize) -> Vec<Pointed> {
    let a = &s.intruders[i];
    let (true, Status::Standing, Some(from)) = (&a.seat == seat, a.status, a.sq) else {
        return Vec::new();
    };
    // Each candidate with the cell it is pointed at: walks to their square, doors to the door,
    // attacks to the Defender's square.
    let mut candidates: Vec<(String, IStep)> = walks(s, from, FARTHEST)
        .into_iter()
        .map(|(to, path)| (to.to_string(), IStep::Move { path }))
        .collect();
    for door in board().links(from).iter().filter_map(|l| l.door) {
        let cell = door.to_string();
        if s.door_open(door) {
            candidates.push((cell, IStep::Close { door }));
        } else {
            candidates.push((cell.clone(), IStep::Open { door }));
            let method = Method::TakeChance;
            candidates.push((cell, IStep::Breach { door, method }));
        }
    }
    for d in &s.defenders {
        let Some(at) = d.sq.filter(|_| d.status != Status::Dead) else {
            continue;
        };
        let shoot = IStep::Shoot {
            at: vec![at],
            burst: None,
        };
        for step in [
            IStep::SneakAttack { at },
            IStep::Fight { at },
            shoot,
            IStep::CoupDeGrace { at },
        ] {
            candidates.push((at.to_string(), step));
        }
    }
    let piece = a.agent.title().to_lowercase();
    candidates
        .into_iter()
        .filter(|(_, step)| intruder::check(&mut s.clone(), i, std::slice::from_ref(step)).is_ok())
        .map(|(cell, step)| Pointed {
            piece: piece.clone(),
            cell,
            order: describe_istep(&step),
            path: None,
        })
        .collect()
}

/// Phase 1's orders by pointing, figure by figure, each checked alone as the Defender's order.
fn defender_orders(s: &State) -> Vec<Pointed> {
    let mut candidates: Vec<(String, String, DStep)> = Vec::new();
    for d in &s.defenders {
        let (Status::Standing, Some(from)) = (d.status, d.sq) else {
            continue;
        };
        let piece = d.label.clone();
        let steps = match d.kind {
            DefKind::Commander => commander_orders(s, from),
            DefKind::Sentry => sentry_orders(s, &d.label),
            DefKind::Guard => guard_orders(s, &d.label),
        };
        candidates.extend(
            steps
                .into_iter()
                .map(|(cell, st)| (piece.clone(), cell, st)),
        );
    }
    candidates
        .into_iter()
        .filter(|(_, _, step)| defender::check(&mut s.clone(), std::slice::from_ref(step)).is_ok())
        .map(|(piece, cell, step)| Pointed {
            piece,
            cell,
            order: describe_dstep(&step),
            path: None,
        })
        .collect()
}

/// The squares of the assaulters in the stronghold: the only enemies a Defender attacks or a
/// Guard pursues (raiders are hidden).
fn assaulter_squares(s: &State) -> Vec<Sq> {
    s.assaulters_inside()
        .filter_map(|i| s.intruders[i].sq)
        .collect()
}

/// Summary, "The Commander": MOVE to the squares he may walk to, OPEN or CLOSE a door beside
/// him, FIGHT or SHOOT an assaulter at his square, INVESTIGATE a marker at its square, RAISE
/// ALARM at the square where the first Guard comes; and his facing, chosen at his own square.
fn commander_orders(s: &State, from: Sq) -> Vec<(String, DStep)> {
    let mut candidates: Vec<(String, DStep)> = walks(s, from, FARTHEST)
        .into_iter()
        .map(|(to, path)| (to.to_string(), DStep::CommanderMove { path }))
        .collect();
    for link in board().links(from) {
        if let Some(door) = link.door {
            let step = if s.door_open(door) {
                DStep::CommanderClose { door }
            } else {
                DStep::CommanderOpen { door }
            };
            candidates.push((door.to_string(), step));
        }
    }
    for at in assaulter_squares(s) {
        candidates.push((at.to_string(), DStep::CommanderFight { at }));
        candidates.push((at.to_string(), DStep::CommanderShoot { at }));
    }
    let markers = s.markers.iter().map(|m| m.sq);
    let alerts = s.defenders.iter().filter_map(|d| d.alert);
    for at in markers.chain(alerts) {
        candidates.push((at.to_string(), DStep::CommanderInvestigate { at }));
    }
    for dir in Dir::ALL {
        candidates.push((from.to_string(), DStep::CommanderFace { dir }));
    }
    // RAISE ALARM (summary, "Raise alarm"), naming where the first Guard comes into play: a
    // free square of an unexplored room or of the entry zone.
    if !s.alarm && s.asi_markers > 0 && s.assaulters_inside().next().is_some() {
        for at in board()
            .squares()
            .filter(|&q| defender::mobilise_square_ok(s, q).is_ok())
        {
            candidates.push((at.to_string(), DStep::CommanderAlarm { at: vec![at] }));
        }
    }
    candidates
}

/// Summary, "Sentries": a Sentry never moves; he may FIGHT or SHOOT an assaulter.
fn sentry_orders(s: &State, sentry: &str) -> Vec<(String, DStep)> {
    let mut candidates = Vec::new();
    for at in assaulter_squares(s) {
        let sentry = sentry.to_owned();
        candidates.push((
            at.to_string(),
            DStep::SentryFight {
                sentry: sentry.clone(),
                at,
            },
        ));
        candidates.push((at.to_string(), DStep::SentryShoot { sentry, at }));
    }
    candidates
}

/// Summary, "Guards": a Guard's route (`guards::routes`: the squares a named route may end on)
/// and, at an assaulter's square, that he chases him ("a Guard must move towards one of them of
/// your choice"). A Guard who will not move this turn (engaged, opening a door, demobilising)
/// is offered nothing.
fn guard_orders(s: &State, guard: &str) -> Vec<(String, DStep)> {
    let Some(d) = s.defenders.iter().position(|d| d.label == guard) else {
        return Vec::new();
    };
    let routes = guards::routes(s, d);
    if routes.is_empty() {
        return Vec::new();
    }
    let mut candidates: Vec<(String, DStep)> = routes
        .into_iter()
        .map(|(to, path)| {
            let guard = guard.to_owned();
            (to.to_string(), DStep::GuardMove { guard, path })
        })
        .collect();
    for i in s.assaulters_inside() {
        let (Some(at), target) = (s.intruders[i].sq, s.intruders[i].agent) else {
            continue;
        };
        let guard = guard.to_owned();
        candidates.push((at.to_string(), DStep::GuardChase { guard, target }));
    }
    candidates
}
