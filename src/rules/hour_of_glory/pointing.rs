//! Orders by pointing at the drawn stronghold (docs/web.md, "Orders by pointing"): for the seat
//! to act, the squares its figure may walk to this turn, the doors beside it to open, close or
//! breach, and the enemies it may attack — each as the clause the rules accept as the game
//! stands, checked as every order is checked before its dice (`intruder::check`,
//! `defender::check`). The Defender points with the Commander; Sentries' and Guards' orders are
//! written.

use std::collections::VecDeque;

use super::agents::DefKind;
use super::board::{board, Sq};
use super::order::{describe_dstep, describe_istep, DStep, IStep};
use super::skills::Method;
use super::state::{State, Status, Turn};
use super::{defender, intruder};
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
        Turn::Defender if &s.defender_seat == seat => commander_orders(s),
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

fn commander_orders(s: &State) -> Vec<Pointed> {
    let Some(c) = s.commander() else {
        return Vec::new();
    };
    let commander = &s.defenders[c];
    let (DefKind::Commander, Status::Standing, Some(from)) =
        (commander.kind, commander.status, commander.sq)
    else {
        return Vec::new();
    };
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
    candidates
        .into_iter()
        .filter(|(_, step)| defender::check(&mut s.clone(), std::slice::from_ref(step)).is_ok())
        .map(|(cell, step)| Pointed {
            piece: commander.label.clone(),
            cell,
            order: describe_dstep(&step),
            path: None,
        })
        .collect()
}
