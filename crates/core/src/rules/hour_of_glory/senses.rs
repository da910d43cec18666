//! What agents see and hear: adjacency, engagement, line of sight, watch zones, noise and
//! hearing range, and who occupies a room (summary, "Occupied squares", "Watch zones",
//! "Noise", "Combat: Shooting" (LOS) and "Fighting" (engaged)).

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

use super::agents::{DefKind, Mode};
use super::board::{board, Cell, Room, Sq};
use super::state::{Occupant, State, Status};

/// Summary, "Movement": "An adjacent square is a neighbouring square not separated by a wall or
/// closed door."
pub fn adjacent(s: &State, a: Sq, b: Sq) -> bool {
    board()
        .links(a)
        .iter()
        .any(|l| l.to == b && l.door.is_none_or(|d| s.door_open(d)))
}

pub fn neighbours(s: &State, a: Sq) -> impl Iterator<Item = Sq> + '_ {
    board()
        .links(a)
        .iter()
        .filter(|l| l.door.is_none_or(|d| s.door_open(d)))
        .map(|l| l.to)
}

/// Summary, "Fighting": an agent adjacent to a conscious, standing enemy is engaged. Raiders are
/// hidden and so never engaged.
pub fn intruder_engaged(s: &State, i: usize) -> bool {
    let a = &s.intruders[i];
    let Some(sq) = a.sq else { return false };
    a.is_assaulter()
        && s.defenders
            .iter()
            .any(|d| d.standing() && d.sq.is_some_and(|t| adjacent(s, sq, t)))
}

pub fn defender_engaged(s: &State, d: usize) -> bool {
    let a = &s.defenders[d];
    let Some(sq) = a.sq else { return false };
    a.standing()
        && s.intruders
            .iter()
            .any(|i| i.is_assaulter() && i.sq.is_some_and(|t| adjacent(s, sq, t)))
}

/// Summary, "Shooting": "Standing assaulters or Defenders obstruct LOS; raiders do not".
fn blocks_los(s: &State, sq: Sq) -> bool {
    match s.occupant(sq) {
        Some(Occupant::Intruder(i)) => s.intruders[i].is_assaulter(),
        Some(Occupant::Defender(d)) => s.defenders[d].standing(),
        None => false,
    }
}

/// The cells on the straight line from `a` to `b` (excluding `a`, including `b`).
fn line(a: Sq, b: Sq) -> Vec<(i32, i32)> {
    let (x0, y0, x1, y1) = (a.0 as i32, a.1 as i32, b.0 as i32, b.1 as i32);
    let n = (x1 - x0).abs().max((y1 - y0).abs());
    (1..=n)
        .map(|k| {
            let x = x0 as f64 + (x1 - x0) as f64 * k as f64 / n as f64;
            let y = y0 as f64 + (y1 - y0) as f64 * k as f64 / n as f64;
            (x.round() as i32, y.round() as i32)
        })
        .collect()
}

/// Summary, "Line of sight": a straight, unobstructed line; it reaches only one square into or
/// out of a room through an open door; within a room it reaches every square not obstructed.
/// Returns the range in squares (a door is not a square) when there is LOS.
pub fn los(s: &State, from: Sq, to: Sq) -> Option<u32> {
    los_past(s, from, to, &[])
}

/// LOS as `los`, with the figures on `past` not obstructing it: the targets of one SMG covering
/// fire along a line (summary, "Weapons": "All targets must be in the same LOS").
pub fn los_past(s: &State, from: Sq, to: Sq, past: &[Sq]) -> Option<u32> {
    if from == to {
        return None;
    }
    let b = board();
    let home = b.room_of(from);
    let mut squares = 0;
    let mut outside_home = 0;
    let mut after_door = false;
    let cells = line(from, to);
    let last = cells.len() - 1;
    for (k, &(x, y)) in cells.iter().enumerate() {
        match b.cell_at(x, y) {
            Cell::Wall => return None,
            Cell::Door(d) => {
                if !s.door_open(d) {
                    return None;
                }
                after_door = true;
                continue;
            }
            Cell::Entry => return None,
            c => {
                squares += 1;
                let sq = Sq(x as u8, y as u8);
                let region = match c {
                    Cell::Room(r) => Some(r),
                    _ => None,
                };
                if region != home {
                    // One square across a door, and it must be the target.
                    outside_home += 1;
                    if !after_door || outside_home > 1 || k != last {
                        return None;
                    }
                } else if after_door {
                    return None;
                }
                if k != last && blocks_los(s, sq) && !past.contains(&sq) {
                    return None;
                }
            }
        }
    }
    Some(squares)
}

/// Summary, "Watch zones": the line of 8 corridor squares in front of a standing Commander or
/// Sentry, blocked like LOS; it reaches one square into a room through an open door, and a
/// Defender inside a room looking out through an open door watches one corridor square.
pub fn watch_zone(s: &State, d: usize) -> Vec<Sq> {
    let a = &s.defenders[d];
    let mut zone = Vec::new();
    if !a.standing() || a.kind == DefKind::Guard || defender_engaged(s, d) {
        return zone;
    }
    let Some(start) = a.sq else { return zone };
    let b = board();
    let (dx, dy) = a.facing.delta();
    let in_room = b.room_of(start).is_some();
    let (mut x, mut y) = (start.0 as i32, start.1 as i32);
    let mut through_door = false;
    while zone.len() < 8 {
        x += dx;
        y += dy;
        match b.cell_at(x, y) {
            Cell::Wall | Cell::Entry => break,
            Cell::Door(id) => {
                if !s.door_open(id) || through_door {
                    break;
                }
                through_door = true;
            }
            c => {
                let sq = Sq(x as u8, y as u8);
                let is_room = matches!(c, Cell::Room(_));
                if in_room {
                    if through_door {
                        zone.push(sq);
                        break;
                    }
                    // Inside the room the Defender only watches out through a door.
                } else {
                    zone.push(sq);
                    if is_room {
                        break;
                    }
                }
                if blocks_los(s, sq) {
                    break;
                }
            }
        }
    }
    zone
}

/// Whether `sq` is in the watch zone of Defender `d`. A zone is a straight line of squares in
/// front of him, at most 8 squares and one door long, so a square off that line is answered
/// without walking the zone (this is asked on every square an Intruder enters, in the order's
/// check and again in play).
pub fn in_watch_zone(s: &State, d: usize, sq: Sq) -> bool {
    let a = &s.defenders[d];
    let Some(at) = a.sq else { return false };
    let (dx, dy) = a.facing.delta();
    let (rx, ry) = (sq.0 as i32 - at.0 as i32, sq.1 as i32 - at.1 as i32);
    let ahead = if dx != 0 {
        (ry == 0).then_some(rx * dx)
    } else {
        (rx == 0).then_some(ry * dy)
    };
    ahead.is_some_and(|k| (1..=9).contains(&k)) && watch_zone(s, d).contains(&sq)
}

/// The Commander or Sentries whose watch zone holds `sq`.
pub fn watchers(s: &State, sq: Sq) -> Vec<usize> {
    (0..s.defenders.len())
        .filter(|&d| {
            let a = &s.defenders[d];
            a.kind != DefKind::Guard && a.standing() && in_watch_zone(s, d, sq)
        })
        .collect()
}

/// Summary, "Noise": distance from a source through open doors; a room is one source square,
/// each corridor square through an open doorway the first square from it; closed doors stop
/// noise. Returns the squares within `range` and their distance.
pub fn noise_reaches(s: &State, source: Sq, range: u32) -> Vec<(Sq, u32)> {
    let b = board();
    let w = b.width as usize;
    let mut dist = vec![u32::MAX; w * b.height as usize];
    let mut seen: Vec<(Sq, u32)> = Vec::new();
    let start: &[Sq] = match b.room_of(source) {
        Some(r) => b.room_squares(r),
        None => std::slice::from_ref(&source),
    };
    for &sq in start {
        dist[sq.1 as usize * w + sq.0 as usize] = 0;
        seen.push((sq, 0));
    }
    let mut k = 0;
    while k < seen.len() {
        let (sq, d) = seen[k];
        k += 1;
        if d == range {
            continue;
        }
        for n in neighbours(s, sq) {
            let slot = &mut dist[n.1 as usize * w + n.0 as usize];
            if *slot == u32::MAX {
                *slot = d + 1;
                seen.push((n, d + 1));
            }
        }
    }
    seen
}

/// Sentries able to hear (standing, not engaged) within `range` of noise at `source`.
pub fn sentries_hearing(s: &State, source: Sq, range: u32) -> Vec<usize> {
    // Walking distance is never shorter than the straight-line count of squares, so a Sentry
    // further than `range` that way cannot hear (a room's far corner counts from the room).
    let reach_from = match board().room_of(source) {
        Some(r) => board().room_squares(r),
        None => std::slice::from_ref(&source),
    };
    let near = s.defenders.iter().any(|a| {
        a.kind == DefKind::Sentry
            && a.standing()
            && a.sq
                .is_some_and(|t| reach_from.iter().any(|q| q.chebyshev(t) <= range))
    });
    if !near {
        return Vec::new();
    }
    let reach = noise_reaches(s, source, range);
    (0..s.defenders.len())
        .filter(|&d| {
            let a = &s.defenders[d];
            a.kind == DefKind::Sentry
                && a.standing()
                && !defender_engaged(s, d)
                && a.sq.is_some_and(|t| reach.iter().any(|(q, _)| *q == t))
        })
        .collect()
}

/// Summary, "Occupied squares": the numbers counting towards a room — standing, unengaged
/// Defenders and standing, unengaged assaulters (raiders do not count).
pub fn room_counts(s: &State, room: Room) -> (usize, usize) {
    let b = board();
    let defenders = (0..s.defenders.len())
        .filter(|&d| {
            let a = &s.defenders[d];
            a.standing()
                && a.sq.is_some_and(|q| b.room_of(q) == Some(room))
                && !defender_engaged(s, d)
        })
        .count();
    let intruders = (0..s.intruders.len())
        .filter(|&i| {
            let a = &s.intruders[i];
            a.is_assaulter()
                && a.sq.is_some_and(|q| b.room_of(q) == Some(room))
                && !intruder_engaged(s, i)
        })
        .count();
    (defenders, intruders)
}

/// Is the room occupied by the enemy of the Intruders?
pub fn enemy_room_for_intruders(s: &State, room: Room) -> bool {
    let (d, i) = room_counts(s, room);
    d > i
}

pub fn enemy_room_for_defenders(s: &State, room: Room) -> bool {
    let (d, i) = room_counts(s, room);
    i > d
}

/// Can a Defender at `from` see an assaulter (for Guards' pursuit and standing down)?
pub fn sees_assaulter(s: &State, from: Sq) -> Option<(usize, u32)> {
    s.intruders
        .iter()
        .enumerate()
        .filter(|(_, a)| {
            a.is_assaulter() && a.status == Status::Standing && a.mode == Mode::Assault
        })
        .filter_map(|(i, a)| a.sq.and_then(|t| los(s, from, t).map(|r| (i, r))))
        .min_by_key(|&(i, r)| (r, i))
}

/// The first assaulter (in the order of the Intruders) adjacent to `sq`: whom a Guard there
/// fights instead of moving, or after his move (summary, "Guards"; "Fighting").
pub fn adjacent_assaulter(s: &State, sq: Sq) -> Option<usize> {
    (0..s.intruders.len()).find(|&i| {
        s.intruders[i].is_assaulter() && s.intruders[i].sq.is_some_and(|q| adjacent(s, sq, q))
    })
}

/// The nearest assaulter in LOS of `from` that is not engaged, with its range (the first of
/// the Intruders at equal range): whom a Guard there shoots after his move, with no assaulter
/// adjacent (summary, "Guards"; "Combat: Shooting").
pub fn shootable(s: &State, from: Sq) -> Option<(usize, u32)> {
    (0..s.intruders.len())
        .filter(|&i| s.intruders[i].is_assaulter() && !intruder_engaged(s, i))
        .filter_map(|i| {
            s.intruders[i]
                .sq
                .and_then(|q| los(s, from, q))
                .map(|r| (i, r))
        })
        .min_by_key(|&(i, r)| (r, i))
}

/// Shortest walking distances from `from` (through open doors), for Guards' pursuit. They
/// depend only on the board and on which doors are open, so each thread remembers them by
/// (open doors, square): Guards chase the same target turn after turn, an order's check asks
/// what its play asks again, and doors seldom change.
pub fn distances(s: &State, from: Sq) -> Rc<[u32]> {
    /// Distances by (open doors as bits, square searched from).
    type Known = HashMap<(u64, Sq), Rc<[u32]>>;
    thread_local! {
        static KNOWN: RefCell<Known> = RefCell::new(HashMap::new());
    }
    /// Enough for a game's Guards and targets under many door layouts (a few KB each, so a few
    /// MB a thread at most); past it the memory starts afresh.
    const KEEP: usize = 1024;
    let open = s
        .doors_open
        .iter()
        .enumerate()
        .filter(|(_, &o)| o)
        .fold(0u64, |m, (k, _)| m | 1 << k);
    debug_assert!(s.doors_open.len() <= 64, "door layout fits the key");
    KNOWN.with(|known| {
        if let Some(d) = known.borrow().get(&(open, from)) {
            return d.clone();
        }
        let d: Rc<[u32]> = search(s, from).into();
        let mut known = known.borrow_mut();
        if known.len() >= KEEP {
            known.clear();
        }
        known.insert((open, from), d.clone());
        d
    })
}

fn search(s: &State, from: Sq) -> Vec<u32> {
    let b = board();
    let w = b.width as usize;
    let mut dist = vec![u32::MAX; w * b.height as usize];
    let mut queue = VecDeque::new();
    dist[from.1 as usize * w + from.0 as usize] = 0;
    queue.push_back(from);
    while let Some(sq) = queue.pop_front() {
        let d = dist[sq.1 as usize * w + sq.0 as usize];
        for n in neighbours(s, sq) {
            let k = n.1 as usize * w + n.0 as usize;
            if dist[k] == u32::MAX {
                dist[k] = d + 1;
                queue.push_back(n);
            }
        }
    }
    dist
}

/// Summary, "Guards": may a Guard step from `from` to `to`? Through an open door, or through a
/// closed one he can open from inside a room ("A Guard inside a room and adjacent to a closed
/// door will always open the door"; "Sentries and Guards … can only open doors from inside a
/// room") — never the entrance; and once inside he does not step back into the entry zone.
pub fn guard_may_step(s: &State, from: Sq, link: &super::board::Link) -> bool {
    let b = board();
    if b.is_entry(link.to) && !b.is_entry(from) {
        return false;
    }
    match link.door {
        None => true,
        Some(d) => s.door_open(d) || (b.room_of(from).is_some() && !b.door(d).entrance),
    }
}

/// Distances *to* `goal` for Guards' pursuit (summary, "Guards": "he must finish his turn no
/// further from the target than he was at the start"): the fewest squares a Guard walks from
/// each square to the goal, counting routes through closed doors he can open from inside a room
/// (`guard_may_step`). `u32::MAX` where no such route exists. Remembered like `distances`.
pub fn pursuit(s: &State, goal: Sq) -> Rc<[u32]> {
    type Known = HashMap<(u64, Sq), Rc<[u32]>>;
    thread_local! {
        static KNOWN: RefCell<Known> = RefCell::new(HashMap::new());
    }
    const KEEP: usize = 1024;
    let open = s
        .doors_open
        .iter()
        .enumerate()
        .filter(|(_, &o)| o)
        .fold(0u64, |m, (k, _)| m | 1 << k);
    KNOWN.with(|known| {
        if let Some(d) = known.borrow().get(&(open, goal)) {
            return d.clone();
        }
        let d: Rc<[u32]> = search_to(s, goal).into();
        let mut known = known.borrow_mut();
        if known.len() >= KEEP {
            known.clear();
        }
        known.insert((open, goal), d.clone());
        d
    })
}

/// Backward search from `goal` over the steps a Guard may take (links are symmetric on the
/// board, so the steps into a square are its links read backwards).
fn search_to(s: &State, goal: Sq) -> Vec<u32> {
    let b = board();
    let w = b.width as usize;
    let mut dist = vec![u32::MAX; w * b.height as usize];
    let mut queue = VecDeque::new();
    dist[goal.1 as usize * w + goal.0 as usize] = 0;
    queue.push_back(goal);
    while let Some(sq) = queue.pop_front() {
        let d = dist[sq.1 as usize * w + sq.0 as usize];
        for l in b.links(sq) {
            let back = super::board::Link {
                to: sq,
                door: l.door,
            };
            if !guard_may_step(s, l.to, &back) {
                continue;
            }
            let k = l.to.1 as usize * w + l.to.0 as usize;
            if dist[k] == u32::MAX {
                dist[k] = d + 1;
                queue.push_back(l.to);
            }
        }
    }
    dist
}

pub fn dist_at(dist: &[u32], sq: Sq) -> u32 {
    dist[sq.1 as usize * board().width as usize + sq.0 as usize]
}
