//! The Guards' turn in Phase 1 of the Defender's turn (summary, "Guards"; the Guards' reference
//! card, "Pursuit"). The engine moves them, keeping the rules' constraints; the Defender chooses
//! whom each pursues (`guard g1 chase <intruder>` for one Guard, `guards chase <intruder>` for
//! the others, else each Guard's nearest assaulter) and, if he wishes, each Guard's route
//! (`guard g1 move <sq>…`, else the shortest).
//!
//! - "a Guard must move towards one of them of your choice … must attempt to move his full
//!   distance. The route does not have to be direct but he must finish his turn no further from
//!   the target than he was at the start, and cannot step on the same square twice": a route
//!   the Defender names is checked square by square, before any die is drawn, against the
//!   distance to his target as the Guards' phase will find it (`check_routes`); the default
//!   route steps closer each square.
//! - Distance counts the routes through closed doors a Guard can open from inside a room
//!   (`senses::pursuit`); "A Guard inside a room and adjacent to a closed door will always open
//!   the door. This action ends that Guard's turn" — at the start of his turn or on arriving
//!   beside one.
//! - "Agents may move through a square occupied by a standing friendly agent or any wounded
//!   (prone) agent" but may not stop there: a Guard whose move ends on one stops on the last
//!   square he could stand on.
//! - LOS acquired during the move stops him; then he fights an adjacent assaulter or shoots one
//!   in LOS; walking into a standing raider stops him beside him and exposes him.
//! - With no assaulter in the stronghold they go to the entrance; a Guard on the entrance square
//!   (or outside it, in the entry zone) demobilises; "When there are no Guards, the alarm ends".

use super::agents::{Agent, DefKind, Mode};
use super::board::{board, Dir, Sq};
use super::combat::{self, Who};
use super::order::DStep;
use super::senses::{self, adjacent_assaulter, shootable};
use super::skills::Table;
use super::state::{Occupant, State, Status};
use crate::engine::ruleset::RuleError;

/// At most a d6 of movement (6 also from the entry zone).
pub const MAX_ROUTE: usize = 6;

fn err(message: impl Into<String>) -> RuleError {
    RuleError::new("Guards", message)
}

/// The square inside the stronghold entrance, where Guards demobilise.
pub fn entrance_square() -> Sq {
    board()
        .entrance()
        .sides
        .iter()
        .copied()
        .find(|q| !board().is_entry(*q))
        .expect("the entrance has an inside square")
}

/// What the Defender's order tells the Guards (summary, "Guards": "a Guard must move towards
/// one of them of your choice"; "The route does not have to be direct"): whom every Guard
/// pursues (`guards chase`), whom one Guard pursues (`guard g1 chase`, which comes first for
/// him), and each Guard's route (`guard g1 move`).
pub struct Orders<'a> {
    pub chase_all: Option<Agent>,
    pub chase: Vec<(&'a str, Agent)>,
    pub routes: Vec<(&'a str, &'a [Sq])>,
}

impl<'a> Orders<'a> {
    pub fn read(steps: &'a [DStep]) -> Orders<'a> {
        let mut orders = Orders {
            chase_all: None,
            chase: Vec::new(),
            routes: Vec::new(),
        };
        for st in steps {
            match st {
                DStep::GuardsChase { target } => {
                    orders.chase_all = orders.chase_all.or(Some(*target));
                }
                DStep::GuardChase { guard, target } => orders.chase.push((guard.as_str(), *target)),
                DStep::GuardMove { guard, path } => {
                    orders.routes.push((guard.as_str(), path.as_slice()))
                }
                _ => {}
            }
        }
        orders
    }

    /// Whom Guard `label` is ordered to pursue, if anyone.
    pub fn target(&self, label: &str) -> Option<Agent> {
        self.chase
            .iter()
            .find(|(l, _)| *l == label)
            .map(|(_, a)| *a)
            .or(self.chase_all)
    }

    fn route(&self, label: &str) -> &'a [Sq] {
        self.routes
            .iter()
            .find(|(l, _)| *l == label)
            .map(|(_, p)| *p)
            .unwrap_or(&[])
    }
}

fn in_play(s: &State, label: &str) -> bool {
    s.defenders.iter().any(|d| {
        d.kind == DefKind::Guard
            && d.label == label
            && matches!(d.status, Status::Standing | Status::Unconscious)
    })
}

/// Checks what an order tells the Guards before anything moves: each route and target for a
/// Guard in play, one of each a Guard, routes of at most six squares, targets on the mission.
pub fn check_orders(s: &State, orders: &Orders) -> Result<(), RuleError> {
    for (k, (label, path)) in orders.routes.iter().enumerate() {
        if !in_play(s, label) {
            return Err(err(format!("there is no Guard {label} in play")));
        }
        if orders.routes[..k].iter().any(|(l, _)| l == label) {
            return Err(err(format!("Guard {label} has one route a turn")));
        }
        if path.len() > MAX_ROUTE {
            return Err(err(format!(
                "Guard {label}'s route has {} squares: Guards move at most a d6",
                path.len()
            )));
        }
    }
    let on_mission = |a: Agent| {
        if s.intruders.iter().any(|i| i.agent == a) {
            Ok(())
        } else {
            Err(err(format!("{} is not on this mission", a.title())))
        }
    };
    if let Some(a) = orders.chase_all {
        on_mission(a)?;
    }
    for (k, (label, a)) in orders.chase.iter().enumerate() {
        if !in_play(s, label) {
            return Err(err(format!(
                "there is no Guard {label} in play to chase {}",
                a.title()
            )));
        }
        if orders.chase[..k].iter().any(|(l, _)| l == label) {
            return Err(err(format!(
                "Guard {label} has one target a turn: name him in one 'guard {label} chase' clause"
            )));
        }
        on_mission(*a)?;
    }
    Ok(())
}

/// Checks every square of the routes an order names, on the order's planned course as the
/// Guards' phase will find it (after the Commander's and the Sentries' clauses): from each
/// standing Guard's square, each square next to the one before, one he may step to, never twice,
/// not held by a standing assaulter, and no further from his target than his square — the
/// target his order names, else his nearest assaulter. The whole route is checked, also squares
/// he may not reach on his roll. In play, where an earlier Guard's dice may have changed the
/// position, a square that no longer fits makes the Guard leave his route there instead.
pub fn check_routes(s: &State, orders: &Orders) -> Result<(), RuleError> {
    for (label, path) in &orders.routes {
        let Some(d) = s.defenders.iter().position(|x| {
            x.kind == DefKind::Guard && x.label == *label && x.status == Status::Standing
        }) else {
            continue;
        };
        let Some(sq) = s.defenders[d].sq else {
            continue;
        };
        let assaulters: Vec<usize> = s.assaulters_inside().collect();
        let goal = pursued(s, sq, &assaulters, orders.target(label));
        let dist = senses::pursuit(s, goal);
        let start_d = senses::dist_at(&dist, sq);
        let mut visited = vec![sq];
        for &q in *path {
            let here = *visited.last().expect("starts with his square");
            if let Some(why) = route_fault(s, d, here, q, &visited, &dist, start_d) {
                return Err(err(format!("Guard {label} cannot take his route: {why}")));
            }
            visited.push(q);
        }
    }
    Ok(())
}

/// Where a Guard heads: his target's square — the assaulter the order names, if he is an
/// assaulter in the stronghold, else the nearest by the pursuit distance — or the entrance
/// when no assaulter is left inside.
fn pursued(s: &State, sq: Sq, assaulters: &[usize], target: Option<Agent>) -> Sq {
    if assaulters.is_empty() {
        return entrance_square();
    }
    let chosen = target
        .and_then(|a| {
            assaulters
                .iter()
                .copied()
                .find(|&i| s.intruders[i].agent == a)
        })
        .unwrap_or_else(|| {
            *assaulters
                .iter()
                .min_by_key(|&&i| {
                    let at = s.intruders[i].sq.expect("inside");
                    (senses::dist_at(&senses::pursuit(s, at), sq), i)
                })
                .expect("not empty")
        });
    s.intruders[chosen].sq.expect("inside")
}

/// What may happen on a square a Guard would step onto.
enum Step {
    Free,
    /// A standing friend or a prone agent: he may pass, not stop.
    Through,
    /// A standing raider: he stops beside him and exposes him.
    Raider(usize),
    /// A standing assaulter: no way through.
    Blocked,
}

fn step_onto(s: &State, d: usize, q: Sq) -> Step {
    match s.occupant(q) {
        None => Step::Free,
        Some(Occupant::Defender(e)) if e == d => Step::Free,
        Some(Occupant::Defender(_)) => Step::Through,
        Some(Occupant::Intruder(i)) => {
            let a = &s.intruders[i];
            if !a.standing() {
                Step::Through
            } else if a.mode == Mode::Raiding {
                Step::Raider(i)
            } else {
                Step::Blocked
            }
        }
    }
}

/// Why a square of a named route cannot be walked, or `None` when it can.
fn route_fault(
    s: &State,
    d: usize,
    here: Sq,
    q: Sq,
    visited: &[Sq],
    dist: &[u32],
    start_d: u32,
) -> Option<String> {
    let link = board().links(here).iter().find(|l| l.to == q);
    let Some(link) = link else {
        return Some(format!("{q} is not next to {here}"));
    };
    if !senses::guard_may_step(s, here, link) {
        return Some(format!(
            "he cannot go from {here} to {q}: Guards open doors only from inside a room, and never step back outside the entrance"
        ));
    }
    if visited.contains(&q) {
        return Some(format!("he would step on {q} twice"));
    }
    if senses::dist_at(dist, q) > start_d {
        return Some(format!(
            "{q} is further from his target than {} where his turn began",
            visited[0]
        ));
    }
    if matches!(step_onto(s, d, q), Step::Blocked) {
        return Some(format!("a standing assaulter holds {q}"));
    }
    None
}

/// The squares a route the Defender names for Guard `d` may end on this turn, each with the
/// shortest such route (breadth first), for orders by pointing: at most six squares, every one
/// accepted as `check_routes` accepts them against his default target (his nearest assaulter,
/// or the entrance), each through an open way (a closed door on a route makes him stop and open
/// it), passing friends and prone agents, ending on a free square. The empty list for a Guard
/// who will not move (`instead_of_moving`).
pub(super) fn routes(s: &State, d: usize) -> Vec<(Sq, Vec<Sq>)> {
    let Some(sq) = s.defenders[d].sq.filter(|_| s.defenders[d].standing()) else {
        return Vec::new();
    };
    if instead_of_moving(s, sq).is_some() {
        return Vec::new();
    }
    let assaulters: Vec<usize> = s.assaulters_inside().collect();
    let dist = senses::pursuit(s, pursued(s, sq, &assaulters, None));
    let start_d = senses::dist_at(&dist, sq);
    let mut out = Vec::new();
    let mut seen = vec![sq];
    let mut queue = std::collections::VecDeque::from([vec![sq]]);
    while let Some(visited) = queue.pop_front() {
        // `visited` starts with his square: the route is the rest.
        if visited.len() > MAX_ROUTE {
            continue;
        }
        let here = *visited.last().expect("starts with his square");
        for q in senses::neighbours(s, here) {
            if seen.contains(&q) || route_fault(s, d, here, q, &visited, &dist, start_d).is_some() {
                continue;
            }
            let free = match step_onto(s, d, q) {
                Step::Free => true,
                Step::Through => false,
                Step::Raider(_) | Step::Blocked => continue,
            };
            seen.push(q);
            let mut longer = visited.clone();
            longer.push(q);
            if free {
                out.push((q, longer[1..].to_vec()));
            }
            queue.push_back(longer);
        }
    }
    out
}

/// A closed door (not the entrance) of the room a Guard stands in, beside him.
fn closed_door_beside(s: &State, sq: Sq) -> Option<super::board::DoorId> {
    let r = board().room_of(sq)?;
    board()
        .room_doors(r)
        .find(|door| !s.door_open(door.id) && door.adjacent.contains(&sq) && !door.entrance)
        .map(|door| door.id)
}

fn demobilise(s: &mut State, t: &mut dyn Table, d: usize) {
    let label = s.defenders[d].label.clone();
    s.defenders[d].sq = None;
    s.defenders[d].status = Status::Escaped;
    s.guards_in_box += 1;
    t.say(format_args!(
        "Guard {label} reaches the entrance and demobilises"
    ));
}

/// The Guards' turn, as the Defender's order tells them (`Orders`, checked by `check_orders`
/// and, before any die was drawn, `check_routes`). In play, where the dice may have changed the
/// position, a Guard leaves a route square that no longer fits and goes on by the shortest.
pub fn turn(s: &mut State, t: &mut dyn Table, orders: &Orders) {
    let guards: Vec<usize> = (0..s.defenders.len())
        .filter(|&d| s.defenders[d].kind == DefKind::Guard && s.defenders[d].standing())
        .collect();
    let mut roll: Option<u32> = None;
    for d in guards {
        if s.defenders[d].status != Status::Standing || s.defenders[d].sq.is_none() {
            continue;
        }
        guard_turn(s, t, d, orders, &mut roll);
    }
    if s.alarm && s.guards_in_play() == 0 {
        s.alarm = false;
        s.asi_markers = 0;
        t.say(format_args!(
            "No Guards remain: the alarm ends and the ASI returns to standby"
        ));
    }
}

/// What a Guard on `sq` does at the start of his turn instead of moving (summary, "Guards").
pub(super) enum Instead {
    /// With no assaulters in the stronghold, on the entrance square or outside it: he
    /// demobilises.
    Demobilise,
    /// Engaged: he fights the adjacent assaulter.
    Fight(usize),
    /// "A Guard inside a room and adjacent to a closed door will always open the door. This
    /// action ends that Guard's turn."
    Open(super::board::DoorId),
}

/// Whether a Guard on `sq` is kept from moving this turn, and by what (`None`: he moves).
pub(super) fn instead_of_moving(s: &State, sq: Sq) -> Option<Instead> {
    if s.assaulters_inside().next().is_none() && (sq == entrance_square() || board().is_entry(sq)) {
        return Some(Instead::Demobilise);
    }
    if let Some(i) = adjacent_assaulter(s, sq) {
        return Some(Instead::Fight(i));
    }
    closed_door_beside(s, sq).map(Instead::Open)
}

fn guard_turn(s: &mut State, t: &mut dyn Table, d: usize, orders: &Orders, roll: &mut Option<u32>) {
    let label = s.defenders[d].label.clone();
    let sq = s.defenders[d].sq.expect("checked");
    let route = orders.route(&label);
    let assaulters: Vec<usize> = s.assaulters_inside().collect();
    let entrance = entrance_square();
    match instead_of_moving(s, sq) {
        Some(Instead::Demobilise) => {
            demobilise(s, t, d);
            return;
        }
        Some(Instead::Fight(i)) => {
            combat::fight(s, t, Who::D(d), Who::I(i), false, true, true);
            return;
        }
        Some(Instead::Open(door)) => {
            s.doors_open[door.index()] = true;
            let r = board().room_of(sq).expect("in a room");
            t.say(format_args!(
                "Guard {label} opens {door} from inside room {r}; his turn ends"
            ));
            return;
        }
        None => {}
    }
    let first = s.defenders[d].first_turn.take();
    let steps = match first {
        Some(n) => u32::from(n),
        None => *roll.get_or_insert_with(|| {
            let r = t.d6(true);
            if t.lines() {
                t.say(format_args!("The Guards roll {r} for movement"));
            }
            r
        }),
    };
    let goal = pursued(s, sq, &assaulters, orders.target(&label));
    let dist = senses::pursuit(s, goal);
    let start_d = senses::dist_at(&dist, sq);
    let had_los = senses::sees_assaulter(s, sq).is_some();
    let mut visited = vec![sq];
    // The last square of `visited` he may stand on (not a friend's, not a prone agent's).
    let mut stand = 0;
    let mut route = route.iter().copied();
    let mut on_route = true;
    // Whether his turn ended without an attack (a door opened, a raider exposed, a failed
    // REACT, demobilised).
    let mut done = false;
    for _ in 0..steps {
        let here = *visited.last().expect("starts with his square");
        let standing_here = stand + 1 == visited.len();
        if !assaulters.is_empty() && standing_here && adjacent_assaulter(s, here).is_some() {
            break;
        }
        let here_d = senses::dist_at(&dist, here);
        let named = if on_route { route.next() } else { None };
        let next = match named {
            Some(q) => match route_fault(s, d, here, q, &visited, &dist, start_d) {
                None if senses::adjacent(s, here, q) => Some(q),
                // A closed door on the route: he opens it when he stands beside it.
                None => None,
                Some(why) => {
                    t.say(format_args!(
                        "Guard {label} leaves his route: {why}; he goes on by the shortest"
                    ));
                    on_route = false;
                    shortest(s, d, here, here_d, &visited, &dist)
                }
            },
            None => {
                on_route = false;
                shortest(s, d, here, here_d, &visited, &dist)
            }
        };
        let Some(next) = next else { break };
        let onto = step_onto(s, d, next);
        if let Step::Raider(i) = onto {
            if standing_here {
                t.say(format_args!(
                    "Guard {label} walks into {} at {next}",
                    s.intruders[i].agent.title()
                ));
                combat::expose(s, t, i, Some(d));
                done = true;
            }
            break;
        }
        if matches!(onto, Step::Blocked) {
            break;
        }
        let free = matches!(onto, Step::Free);
        // Summary, "Entering a room": occupation as it stood before he came in.
        let entering_enemy_room = board()
            .room_of(next)
            .filter(|&r| board().room_of(here) != Some(r))
            .filter(|&r| senses::enemy_room_for_defenders(s, r));
        s.defenders[d].facing = Dir::towards(here, next);
        s.defenders[d].sq = Some(next);
        visited.push(next);
        if free {
            stand = visited.len() - 1;
        }
        if assaulters.is_empty() && next == entrance {
            demobilise(s, t, d);
            return;
        }
        // Summary, "Entering a room": a Defender entering an enemy-occupied room must REACT
        // on a d6; failing, his turn ends there.
        if let Some(r) = entering_enemy_room {
            let grade = s.defenders[d].profile().survival;
            let face = t.d6(true);
            t.say(format_args!(
                "Guard {label} must REACT entering room {r} ({face})"
            ));
            done = !grade.passes(face);
            break;
        }
        if !free {
            continue;
        }
        if !had_los && senses::sees_assaulter(s, next).is_some() {
            break;
        }
        if let Some(door) = closed_door_beside(s, next) {
            s.doors_open[door.index()] = true;
            let r = board().room_of(next).expect("in a room");
            t.say(format_args!(
                "Guard {label} moves to {next} and opens {door} from inside room {r}; his turn ends"
            ));
            return;
        }
    }
    if stand + 1 != visited.len() {
        // He may pass a friend or a prone agent but not stop on his square.
        let back = visited[stand];
        s.defenders[d].sq = Some(back);
        if stand > 0 {
            s.defenders[d].facing = Dir::towards(visited[stand - 1], back);
        }
    }
    let now = s.defenders[d].sq.expect("on the board");
    if t.lines() && now != sq {
        t.say(format_args!("Guard {label} moves to {now}"));
    }
    if done {
        return;
    }
    if let Some(i) = adjacent_assaulter(s, now) {
        combat::fight(s, t, Who::D(d), Who::I(i), false, true, true);
    } else if let Some((i, range)) = shootable(s, now) {
        combat::shoot(
            s,
            t,
            Who::D(d),
            Who::I(i),
            combat::Shot {
                dice: 5,
                range,
                burst: None,
            },
            true,
        );
    }
}

/// The default route: a step closer to the target, onto a free square if one is as close as
/// any, never a square already stepped on, never through a closed door (he opens it first).
fn shortest(
    s: &State,
    d: usize,
    here: Sq,
    here_d: u32,
    visited: &[Sq],
    dist: &[u32],
) -> Option<Sq> {
    senses::neighbours(s, here)
        .filter(|q| !visited.contains(q) && (board().is_entry(here) || !board().is_entry(*q)))
        .filter(|q| senses::dist_at(dist, *q) < here_d)
        .filter_map(|q| {
            let rank = match step_onto(s, d, q) {
                Step::Free | Step::Raider(_) => 0,
                Step::Through => 1,
                Step::Blocked => return None,
            };
            Some((senses::dist_at(dist, q), rank, q))
        })
        .min_by_key(|&(dq, rank, _)| (dq, rank))
        .map(|(_, _, q)| q)
}
