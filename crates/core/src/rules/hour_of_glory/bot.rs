//! The bot and the prompts' option lists: random but purposeful orders — Intruders make for
//! the nearest intelligence, breach what is in the way, spy, and leave with what they carry;
//! the Defender hunts assaulters, collects markers, raises the alarm and shoots. Orders the
//! rules refuse are simply tried again by the engine's bot harness.

use std::collections::VecDeque;

use super::agents::{Equipment, Mode, Weapon};
use super::board::{board, Dir, DoorId, Sq};
use super::combat::Burst;
use super::intel;
use super::order::{Command, DStep, IStep, Standing};
use super::senses;
use super::skills::Method;
use super::state::{CoveringFire, Occupant, Side, State, Status, Turn};
use crate::engine::ruleset::{BotRng, Seat};

/// A walking route: squares and, where it meets a closed door, that door and the square beyond.
struct Route {
    path: Vec<Sq>,
    door: Option<DoorId>,
}

/// Breadth-first route from `from` to the nearest square satisfying `goal`, through free
/// squares; a closed door ends the route in front of it.
fn route(s: &State, from: Sq, goal: &dyn Fn(Sq) -> bool, through_closed: bool) -> Option<Route> {
    let b = board();
    let w = b.width as usize;
    let mut prev: Vec<Option<(Sq, Option<DoorId>)>> = vec![None; w * b.height as usize];
    let idx = |q: Sq| q.1 as usize * w + q.0 as usize;
    let mut seen = vec![false; w * b.height as usize];
    seen[idx(from)] = true;
    let mut queue = VecDeque::from([from]);
    while let Some(q) = queue.pop_front() {
        if q != from && goal(q) {
            let mut path = vec![q];
            let mut cur = q;
            let mut door = None;
            while let Some((p, d)) = prev[idx(cur)] {
                if d.is_some_and(|d| !s.door_open(d)) {
                    door = d;
                    path.clear();
                }
                if p == from {
                    break;
                }
                path.push(p);
                cur = p;
            }
            path.reverse();
            return Some(Route { path, door });
        }
        for l in b.links(q) {
            if seen[idx(l.to)] {
                continue;
            }
            let closed = l.door.is_some_and(|d| !s.door_open(d));
            if closed && !through_closed {
                continue;
            }
            if s.occupant(l.to).is_some() {
                continue;
            }
            seen[idx(l.to)] = true;
            prev[idx(l.to)] = Some((q, l.door));
            queue.push_back(l.to);
        }
    }
    None
}

/// Cut a route at its first closed door (the path up to it) and to `n` squares.
fn walkable(s: &State, from: Sq, r: &Route, n: usize) -> (Vec<Sq>, Option<DoorId>) {
    let b = board();
    let mut out = Vec::new();
    let mut cur = from;
    for &q in &r.path {
        let Some(link) = b.links(cur).iter().find(|l| l.to == q) else {
            break;
        };
        if let Some(d) = link.door {
            if !s.door_open(d) {
                return (out, Some(d));
            }
        }
        if out.len() == n {
            break;
        }
        out.push(q);
        cur = q;
    }
    (out, r.door)
}

fn intruder_order(s: &State, i: usize, rng: BotRng) -> Command {
    let a = &s.intruders[i];
    let cmd = |steps| Command::Intruder {
        standing: Vec::new(),
        steps,
    };
    if a.status == Status::Unconscious {
        let mode = if rng(3) == 0 {
            Mode::Assault
        } else {
            Mode::Raiding
        };
        return cmd(vec![IStep::Recover { mode }]);
    }
    if rng(5) == 0 {
        return cmd(vec![IStep::Pass]);
    }
    let b = board();
    let Some(sq) = a.sq else {
        return cmd(vec![IStep::Pass]);
    };
    let mut steps = Vec::new();
    let mut mode = a.mode;
    let mut selected = a.selected;
    let in_zone = !senses::watchers(s, sq).is_empty();
    if mode == Mode::Raiding && a.inside && !in_zone && rng(12) == 0 {
        let gun = a.weapons.iter().copied().find(|w| w.is_firearm());
        steps.push(IStep::Assault { weapon: gun });
        mode = Mode::Assault;
        selected = gun.unwrap_or(selected);
    }
    // Assaulters fight what is next to them and shoot what they see.
    if mode == Mode::Assault && !in_zone {
        if let Some(d) = (0..s.defenders.len()).find(|&d| {
            s.defenders[d].standing()
                && s.defenders[d]
                    .sq
                    .is_some_and(|q| senses::adjacent(s, sq, q))
        }) {
            steps.push(IStep::Fight {
                at: s.defenders[d].sq.expect("standing"),
            });
            return cmd(steps);
        }
        if selected.is_firearm() && rng(2) == 0 {
            if let Some(q) = s
                .defenders
                .iter()
                .enumerate()
                .filter(|(d, x)| x.standing() && !senses::defender_engaged(s, *d))
                .filter_map(|(_, x)| x.sq)
                .find(|&q| senses::los(s, sq, q).is_some())
            {
                // A burst at short range spends the fewest dice on the range and re-rolls the
                // attack dice; at long range it makes sure of the range first.
                let burst =
                    (selected == Weapon::Smg && rng(2) == 0).then(|| match senses::los(s, sq, q) {
                        Some(range) if range <= 4 => Burst::Attack,
                        _ => Burst::Range,
                    });
                let mut at = vec![q];
                if selected == Weapon::Smg && burst.is_none() {
                    // Covering fire at up to 3 targets in the same LOS.
                    for (d, x) in s.defenders.iter().enumerate() {
                        let Some(r) = x.sq.filter(|r| !at.contains(r)) else {
                            continue;
                        };
                        if at.len() < 3
                            && x.standing()
                            && !senses::defender_engaged(s, d)
                            && (s.covering_fire == CoveringFire::Any
                                || super::intruder::same_line(sq, &[q, r]).is_ok())
                        {
                            at.push(r);
                        }
                    }
                    let past: &[Sq] = if s.covering_fire == CoveringFire::Line {
                        &at
                    } else {
                        &[]
                    };
                    if at
                        .iter()
                        .any(|&r| senses::los_past(s, sq, r, past).is_none())
                    {
                        at.truncate(1);
                    }
                }
                steps.push(IStep::Shoot { at, burst });
                return cmd(steps);
            }
        }
    }
    if mode == Mode::Assault && senses::intruder_engaged(s, i) && steps.is_empty() {
        if let Some(q) = s
            .defenders
            .iter()
            .filter(|x| x.standing())
            .filter_map(|x| x.sq)
            .find(|&q| senses::adjacent(s, sq, q))
        {
            return cmd(vec![IStep::Fight { at: q }]);
        }
    }
    if mode == Mode::Assault && !in_zone && !senses::intruder_engaged(s, i) && rng(3) != 0 {
        if let Some(order) = go_to_ground(s, sq, rng) {
            return cmd(order);
        }
    }
    if mode == Mode::Assault && in_zone {
        // A reaction allows movement and attacks only.
        let safe = |q: Sq| senses::watchers(s, q).is_empty() && !b.is_entry(q);
        if let Some(r) = route(s, sq, &safe, false) {
            let (path, _) = walkable(s, sq, &r, 1 + rng(6));
            if !path.is_empty() {
                steps.push(IStep::Move { path });
            }
        }
        if steps.is_empty() {
            steps.push(IStep::Pass);
        }
        return cmd(steps);
    }
    let allowance = if mode == Mode::Assault { 6 } else { 4 };
    // Raiders mostly spend time: success is sure, and the Mission Timer keeps games short.
    let method = if mode == Mode::Raiding && rng(4) != 0 {
        Method::SpendTime
    } else {
        Method::TakeChance
    };
    if mode == Mode::Raiding && rng(3) != 0 {
        steps.push(IStep::Sneak {
            method: if rng(2) == 0 {
                Method::SpendTime
            } else {
                Method::TakeChance
            },
        });
    }
    // Spy where a card lies.
    if let Some(r) = b.room_of(sq) {
        if s.room_card(r).card.is_some() && rng(4) != 0 {
            steps.push(IStep::Spy { method });
            return cmd(steps);
        }
    }
    // Raiders next to a Sentry who does not watch them sneak-attack him.
    if mode == Mode::Raiding && rng(2) == 0 {
        if let Some(d) = (0..s.defenders.len()).find(|&d| {
            let x = &s.defenders[d];
            x.kind == super::agents::DefKind::Sentry
                && x.standing()
                && x.sq.is_some_and(|q| senses::adjacent(s, sq, q))
                && !senses::in_watch_zone(s, d, sq)
        }) {
            let at = s.defenders[d].sq.expect("standing");
            steps.push(IStep::SneakAttack { at });
            steps.push(IStep::Conceal {
                at,
                method: Method::TakeChance,
            });
            return cmd(steps);
        }
    }
    let carried: Vec<intel::Card> = s
        .intruders
        .iter()
        .filter(|x| x.status == Status::Escaped || x.seat == a.seat)
        .flat_map(|x| x.intel.iter().copied())
        .collect();
    // Leave with what he carries when the team has enough, when time runs short, or on a whim;
    // with nothing, abort once half the time is gone.
    let leave = (!a.intel.is_empty()
        && (intel::score(&carried) >= intel::needed(s.intruders.len())
            || s.minutes < 40
            || rng(2) == 0))
        || s.minutes < 36;
    let goal: Box<dyn Fn(Sq) -> bool> = if leave {
        Box::new(|q: Sq| b.is_entry(q))
    } else {
        let rooms_with_cards: Vec<u8> = s
            .rooms
            .iter()
            .filter(|r| r.card.is_some())
            .map(|r| r.room)
            .collect();
        Box::new(move |q: Sq| b.room_of(q).is_some_and(|r| rooms_with_cards.contains(&r)))
    };
    if !a.inside {
        // Outside: breach the entrance, then go in.
        let entrance = b.entrance();
        if !s.door_open(entrance.id) {
            if entrance.adjacent.contains(&sq) {
                steps.push(IStep::Breach {
                    door: entrance.id,
                    method,
                });
            } else if let Some(&q) = entrance.adjacent.iter().find(|q| {
                b.is_entry(**q) && s.occupant(**q).is_none() && senses::adjacent(s, sq, **q)
            }) {
                steps.push(IStep::Move { path: vec![q] });
            } else {
                steps.push(IStep::Pass);
            }
            return cmd(steps);
        }
        let inside = |q: Sq| !b.is_entry(q);
        if let Some(r) = route(s, sq, &inside, false) {
            let n = 1 + rng(allowance);
            let (path, _) = walkable(s, sq, &r, n);
            if !path.is_empty() {
                steps.push(IStep::Move { path });
            }
        }
        if steps.is_empty() || rng(3) == 0 {
            steps.push(IStep::Pass);
        }
        return cmd(steps);
    }
    if let Some(r) = route(s, sq, &*goal, true) {
        let n = if rng(5) == 0 {
            1 + rng(allowance)
        } else {
            allowance
        };
        let (path, door) = walkable(s, sq, &r, n);
        // An assaulter entering a watch zone must react, which leaves no ordinary action.
        let zone_at = path
            .iter()
            .position(|q| !senses::watchers(s, *q).is_empty());
        let (path, door) = match zone_at {
            Some(k) => (path[..=k].to_vec(), None),
            None => (path, door),
        };
        let stop_in_zone = zone_at.is_some();
        let end = path.last().copied().unwrap_or(sq);
        if !path.is_empty() {
            steps.push(IStep::Move { path });
        }
        if stop_in_zone {
        } else if let Some(d) = door {
            if b.door(d).adjacent.contains(&end) {
                let key = s.intruders[i].equipment.contains(&Equipment::MasterKey);
                if b.door(d).unlocked || key {
                    steps.push(IStep::Open { door: d });
                } else {
                    steps.push(IStep::Breach { door: d, method });
                }
            }
        } else if let Some(r) = b.room_of(end) {
            if s.room_card(r).card.is_some() && b.room_of(sq) != Some(r) && rng(3) == 0 {
                // Spying needs the card to be turned over: entering does that.
                steps.push(IStep::Spy { method });
            }
        }
    }
    if steps.is_empty() {
        steps.push(IStep::Pass);
    }
    cmd(steps)
}

/// An exposed Intruder makes for a room, shuts its doors and HIDEs to raid again.
fn go_to_ground(s: &State, sq: Sq, rng: BotRng) -> Option<Vec<IStep>> {
    let b = board();
    match b.room_of(sq) {
        Some(r) => {
            if senses::enemy_room_for_intruders(s, r) {
                return None;
            }
            let open: Vec<DoorId> = b
                .room_doors(r)
                .filter(|d| s.door_open(d.id) && !d.entrance)
                .map(|d| d.id)
                .collect();
            if open.is_empty() {
                return Some(vec![IStep::Hide]);
            }
            let d = open[rng(open.len())];
            let near = b.door(d).adjacent.clone();
            let mut steps = Vec::new();
            if !near.contains(&sq) {
                let goal = |q: Sq| near.contains(&q) && b.room_of(q) == Some(r);
                let route = route(s, sq, &goal, false)?;
                let (path, _) = walkable(s, sq, &route, 6);
                if path.last().is_none_or(|q| !near.contains(q)) {
                    return Some(vec![IStep::Move { path }])
                        .filter(|p| !matches!(&p[0], IStep::Move { path } if path.is_empty()));
                }
                steps.push(IStep::Move { path });
            }
            steps.push(IStep::Close { door: d });
            Some(steps)
        }
        None => {
            let goal = |q: Sq| {
                b.room_of(q)
                    .is_some_and(|r| !senses::enemy_room_for_intruders(s, r))
            };
            let route = route(s, sq, &goal, false)?;
            let (path, _) = walkable(s, sq, &route, 6);
            let path: Vec<Sq> = match path
                .iter()
                .position(|q| !senses::watchers(s, *q).is_empty())
            {
                Some(k) => path[..=k].to_vec(),
                None => path,
            };
            (!path.is_empty()).then(|| vec![IStep::Move { path }])
        }
    }
}

fn defender_order(s: &State, rng: BotRng) -> Command {
    let mut steps = Vec::new();
    if rng(5) == 0 {
        return Command::Defender {
            standing: Vec::new(),
            steps: vec![DStep::Pass],
        };
    }
    let assaulters: Vec<usize> = s.assaulters_inside().collect();
    if let Some(c) = s.commander().filter(|&c| s.defenders[c].standing()) {
        let sq = s.defenders[c].sq.expect("standing");
        let can_alarm = !s.alarm && s.asi_markers > 0 && !assaulters.is_empty();
        let marker = if s.alarm {
            None
        } else {
            s.markers
                .iter()
                .map(|m| m.sq)
                .chain(s.defenders.iter().filter_map(|d| d.alert))
                .find(|&q| q == sq || senses::adjacent(s, sq, q))
        };
        let target = assaulters
            .iter()
            .filter_map(|&i| s.intruders[i].sq)
            .find(|&q| senses::adjacent(s, sq, q));
        let visible = assaulters
            .iter()
            .filter(|&&i| !senses::intruder_engaged(s, i))
            .filter_map(|&i| s.intruders[i].sq)
            .find(|&q| senses::los(s, sq, q).is_some());
        let fresh = s.defenders[c].first_turn.is_some();
        if fresh {
            // A replacement from the entry zone moves but may not act.
        } else if let Some(q) = target {
            steps.push(DStep::CommanderFight { at: q });
        } else if can_alarm && rng(3) != 0 {
            steps.push(DStep::CommanderAlarm { at: Vec::new() });
        } else if let Some(q) = visible.filter(|_| rng(3) != 0) {
            steps.push(DStep::CommanderShoot { at: q });
        } else if let Some(q) = marker.filter(|_| rng(2) == 0) {
            steps.push(DStep::CommanderInvestigate { at: q });
        } else {
            // Walk towards a marker, an assaulter, or anywhere.
            let goals: Vec<Sq> = assaulters
                .iter()
                .filter_map(|&i| s.intruders[i].sq)
                .chain(s.markers.iter().map(|m| m.sq))
                .collect();
            let pick = if goals.is_empty() || rng(3) == 0 {
                let squares: Vec<Sq> = board()
                    .squares()
                    .filter(|q| board().is_corridor(*q))
                    .collect();
                squares[rng(squares.len())]
            } else {
                goals[rng(goals.len())]
            };
            let goal = |q: Sq| q.chebyshev(pick) <= 1 && !board().is_entry(q);
            if let Some(r) = route(s, sq, &goal, true) {
                let (path, door) = walkable(s, sq, &r, 6);
                let path: Vec<Sq> = path
                    .into_iter()
                    .take_while(|q| !matches!(s.occupant(*q), Some(Occupant::Intruder(_))))
                    .collect();
                let end = path.last().copied().unwrap_or(sq);
                let shortfall = path.is_empty();
                if !path.is_empty() {
                    steps.push(DStep::CommanderMove { path });
                }
                if let Some(d) = door.filter(|_| !fresh) {
                    if shortfall && board().door(d).adjacent.contains(&end) {
                        steps.push(DStep::CommanderOpen { door: d });
                    }
                }
            }
        }
        steps.push(DStep::CommanderFace {
            dir: Dir::ALL[rng(4)],
        });
    }
    for d in 0..s.defenders.len() {
        let x = &s.defenders[d];
        if x.kind != super::agents::DefKind::Sentry || !x.standing() {
            continue;
        }
        let sq = x.sq.expect("standing");
        if let Some(q) = assaulters
            .iter()
            .filter_map(|&i| s.intruders[i].sq)
            .find(|&q| senses::adjacent(s, sq, q))
        {
            steps.push(DStep::SentryFight {
                sentry: x.label.clone(),
                at: q,
            });
        } else if let Some(q) = assaulters
            .iter()
            .filter(|&&i| !senses::intruder_engaged(s, i))
            .filter_map(|&i| s.intruders[i].sq)
            .find(|&q| senses::los(s, sq, q).is_some())
        {
            steps.push(DStep::SentryShoot {
                sentry: x.label.clone(),
                at: q,
            });
        }
    }
    if !assaulters.is_empty() && rng(2) == 0 {
        let chased = assaulters[rng(assaulters.len())];
        steps.push(DStep::GuardsChase {
            target: s.intruders[chased].agent,
        });
        // Sometimes the first Guard takes a route of the Defender's own, not always the most
        // direct one (summary, "Guards": "The route does not have to be direct").
        // Only when nothing before the Guards can change the distances (a door) or the target
        // (an attack); the Commander may walk, since Guards pass through him.
        let quiet = steps.iter().all(|st| {
            matches!(
                st,
                DStep::CommanderFace { .. }
                    | DStep::CommanderMove { .. }
                    | DStep::GuardsChase { .. }
            )
        });
        if quiet && rng(2) == 0 {
            if let Some(step) = guard_route(s, chased, rng) {
                steps.push(step);
            }
        }
        // Sometimes another Guard is given a target of his own ("towards one of them of your
        // choice"); never the first, whose route follows the Guards' target.
        let guards: Vec<&str> = s
            .defenders
            .iter()
            .filter(|x| x.kind == super::agents::DefKind::Guard && x.standing())
            .map(|x| x.label.as_str())
            .collect();
        if guards.len() >= 2 && rng(2) == 0 {
            let guard = guards[1 + rng(guards.len() - 1)].to_string();
            let target = s.intruders[assaulters[rng(assaulters.len())]].agent;
            steps.push(DStep::GuardChase { guard, target });
        }
    }
    if steps.is_empty() {
        steps.push(DStep::Pass);
    }
    let standing = if rng(8) == 0 {
        let side = if rng(2) == 0 { Side::Left } else { Side::Right };
        vec![Standing::AlertSide { side }]
    } else {
        Vec::new()
    };
    Command::Defender { standing, steps }
}

/// A route of up to three squares for the first standing Guard, each no further from the
/// assaulter he chases than his square (any such square, not only the closer ones).
fn guard_route(s: &State, chased: usize, rng: BotRng) -> Option<DStep> {
    let d = (0..s.defenders.len()).find(|&d| {
        s.defenders[d].kind == super::agents::DefKind::Guard && s.defenders[d].standing()
    })?;
    let start = s.defenders[d].sq?;
    let goal = s.intruders[chased].sq?;
    let dist = senses::pursuit(s, goal);
    let start_d = senses::dist_at(&dist, start);
    let mut path: Vec<Sq> = Vec::new();
    let mut here = start;
    for _ in 0..1 + rng(3) {
        let options: Vec<Sq> = senses::neighbours(s, here)
            .filter(|q| *q != start && !path.contains(q) && !board().is_entry(*q))
            .filter(|q| senses::dist_at(&dist, *q) <= start_d)
            .filter(|q| s.occupant(*q).is_none())
            .collect();
        if options.is_empty() {
            break;
        }
        here = options[rng(options.len())];
        path.push(here);
    }
    (!path.is_empty()).then(|| DStep::GuardMove {
        guard: s.defenders[d].label.clone(),
        path,
    })
}

pub fn random_command(s: &State, seat: &Seat, rng: BotRng) -> Option<Command> {
    if s.ended.is_some() {
        return None;
    }
    match s.turn {
        Turn::Intruder(i) if &s.intruders[i].seat == seat => Some(intruder_order(s, i, rng)),
        Turn::Defender if &s.defender_seat == seat => Some(defender_order(s, rng)),
        _ => None,
    }
}

/// What the seat to act may do, in the order language: every adjacent square to move to, and
/// each action possible where the agent stands.
pub fn options(s: &State) -> Vec<String> {
    let mut out = Vec::new();
    match s.turn {
        Turn::Intruder(i) => {
            let a = &s.intruders[i];
            if a.status == Status::Unconscious {
                return vec![
                    "recover raiding".into(),
                    "recover assault".into(),
                    "pass".into(),
                ];
            }
            let Some(sq) = a.sq else {
                return vec!["pass".into()];
            };
            let b = board();
            for q in senses::neighbours(s, sq) {
                if s.occupant(q).is_none() {
                    out.push(format!("move {q}"));
                }
            }
            for d in &b.doors {
                if d.adjacent.contains(&sq) {
                    if s.door_open(d.id) {
                        if !d.entrance {
                            out.push(format!("close {}", d.id));
                        }
                    } else if d.unlocked || a.equipment.contains(&Equipment::MasterKey) {
                        out.push(format!("open {}", d.id));
                    } else {
                        out.push(format!("breach {} take-chance", d.id));
                        if a.mode == Mode::Raiding {
                            out.push(format!("breach {} spend-time", d.id));
                        }
                    }
                }
            }
            if b.room_of(sq).is_some_and(|r| s.room_card(r).card.is_some()) {
                out.push("spy take-chance".into());
                if a.mode == Mode::Raiding {
                    out.push("spy spend-time".into());
                }
            }
            for x in &s.defenders {
                let Some(q) = x.sq else { continue };
                if !senses::adjacent(s, sq, q) {
                    continue;
                }
                match (a.mode, x.status, x.kind) {
                    (Mode::Raiding, Status::Standing, super::agents::DefKind::Sentry) => {
                        out.push(format!("sneak-attack {q}"))
                    }
                    (Mode::Assault, Status::Standing, _) => out.push(format!("fight {q}")),
                    (_, Status::Unconscious, _) => out.push(format!("coup-de-grace {q}")),
                    _ => {}
                }
            }
            for m in &s.markers {
                if matches!(m.kind, super::state::MarkerKind::Corpse { .. })
                    && (m.sq == sq || senses::adjacent(s, sq, m.sq))
                {
                    out.push(format!("conceal {} take-chance", m.sq));
                }
            }
            if a.mode == Mode::Raiding {
                for w in a.weapons.iter().filter(|w| w.is_firearm()) {
                    out.push(format!("assault with {w}"));
                }
            } else {
                if a.selected.is_firearm() {
                    for x in s.defenders.iter().filter(|x| x.standing()) {
                        if let Some(q) = x.sq.filter(|q| senses::los(s, sq, *q).is_some()) {
                            out.push(format!("shoot {q}"));
                        }
                    }
                }
                for w in &a.weapons {
                    if *w != a.selected {
                        out.push(format!("weapon {w}"));
                    }
                }
                if b.room_of(sq).is_some() {
                    out.push("hide".into());
                }
            }
            out.push("pass".into());
            out.push(format!(
                "counterattack {}",
                if a.counterattack { "off" } else { "on" }
            ));
        }
        Turn::Defender => {
            if let Some(c) = s.commander().filter(|&c| s.defenders[c].standing()) {
                let sq = s.defenders[c].sq.expect("standing");
                for q in senses::neighbours(s, sq) {
                    if s.occupant(q).is_none() && !board().is_entry(q) {
                        out.push(format!("commander move {q}"));
                    }
                }
                for d in Dir::ALL {
                    out.push(format!("commander face {}", d.name()));
                }
                for d in &board().doors {
                    if d.adjacent.contains(&sq) {
                        out.push(format!(
                            "commander {} {}",
                            if s.door_open(d.id) { "close" } else { "open" },
                            d.id
                        ));
                    }
                }
                if !s.alarm {
                    for m in &s.markers {
                        if m.sq == sq || senses::adjacent(s, sq, m.sq) {
                            out.push(format!("commander investigate {}", m.sq));
                        }
                    }
                    if s.asi_markers > 0 && s.assaulters_inside().next().is_some() {
                        out.push("commander alarm".into());
                    }
                }
                for i in s.assaulters_inside() {
                    let q = s.intruders[i].sq.expect("inside");
                    if senses::adjacent(s, sq, q) {
                        out.push(format!("commander fight {q}"));
                    } else if senses::los(s, sq, q).is_some() {
                        out.push(format!("commander shoot {q}"));
                    }
                }
            }
            for i in s.assaulters_inside() {
                out.push(format!("guards chase {}", s.intruders[i].agent.name()));
            }
            out.push("pass".into());
            out.push(format!(
                "counterattack {}",
                if s.defender_counterattack {
                    "off"
                } else {
                    "on"
                }
            ));
        }
    }
    out
}
