//! Combat and survival for both sides: FIGHT, RESIST EFFECTS, COUNTERATTACK, SHOOT with range
//! dice removed, wounds and death, corpse markers (summary, "Combat", "Wounds and death"); and
//! the consequences that follow agents around — Sentries alerted and their markers, Intruders
//! exposed (summary, "Sentries", "The Intruders: Assault").

use serde::{Deserialize, Serialize};

use super::agents::{DefKind, Mode, Weapon};
use super::board::{board, Dir, DoorId, Sq};
use super::senses;
use super::skills::{self, faces, fight_result, resist, Table, Wound};
use super::state::{Marker, MarkerKind, Side, State, Status};

/// An agent of either side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Who {
    I(usize),
    D(usize),
}

pub fn name(s: &State, w: Who) -> String {
    match w {
        Who::I(i) => s.intruders[i].agent.title().to_string(),
        Who::D(d) => {
            let a = &s.defenders[d];
            match a.kind {
                DefKind::Commander => "the Commander".into(),
                DefKind::Sentry => format!("Sentry {}", a.label),
                DefKind::Guard => format!("Guard {}", a.label),
            }
        }
    }
}

pub fn sq_of(s: &State, w: Who) -> Option<Sq> {
    match w {
        Who::I(i) => s.intruders[i].sq,
        Who::D(d) => s.defenders[d].sq,
    }
}

fn status(s: &State, w: Who) -> Status {
    match w {
        Who::I(i) => s.intruders[i].status,
        Who::D(d) => s.defenders[d].status,
    }
}

/// Summary, "Sentries": an alerted Sentry turns to face the trouble and an alert marker goes on
/// the square in front of him — or, for a disturbance in a room, "in the room, in the square in
/// front of the doorway"; a Sentry has one marker at most and is not alerted while he is
/// engaged in a fight.
pub fn alert_sentry(s: &mut State, t: &mut dyn Table, d: usize, toward: Sq) {
    if senses::defender_engaged(s, d) {
        return;
    }
    place_alert(s, t, d, toward);
}

/// Summary, "Sentries": "If a Sentry is attacked and not killed, he is alerted even if knocked
/// unconscious" — whatever the attack did and however he resisted, engaged or not: he turns to
/// his attacker (if still standing) and his alert marker is placed as for any alert.
pub fn attacked(s: &mut State, t: &mut dyn Table, victim: Who, attacker: Who) {
    let Who::D(d) = victim else { return };
    if s.defenders[d].kind != DefKind::Sentry || s.defenders[d].status == Status::Dead {
        return;
    }
    if let Some(at) = sq_of(s, attacker) {
        place_alert(s, t, d, at);
    }
}

/// Turns a Sentry to the trouble and puts his alert marker down: in front of him, or in the room
/// in front of the doorway for a disturbance in a room; an unconscious Sentry keeps his facing
/// and the marker goes beside him on the side of the trouble, so that recovering he faces it.
fn place_alert(s: &mut State, t: &mut dyn Table, d: usize, toward: Sq) {
    let a = &s.defenders[d];
    if a.kind != DefKind::Sentry || a.status == Status::Dead || a.alert.is_some() {
        return;
    }
    let Some(at) = a.sq else { return };
    let standing = a.status == Status::Standing;
    let facing = if toward == at {
        a.facing
    } else {
        Dir::towards(at, toward)
    };
    let (dx, dy) = facing.delta();
    let front = Sq((at.0 as i32 + dx) as u8, (at.1 as i32 + dy) as u8);
    let marker_sq = if let Some(inside) = doorway_in_room(s, at, toward) {
        inside
    } else if standing && board().is_square(front) {
        front
    } else {
        senses::neighbours(s, at)
            .min_by_key(|q| q.chebyshev(toward))
            .unwrap_or(at)
    };
    let label = a.label.clone();
    let a = &mut s.defenders[d];
    if standing {
        a.facing = facing;
    }
    a.alert = Some(marker_sq);
    if standing {
        t.say(format_args!(
            "Sentry {label} is alerted: he faces {} and an alert marker goes on {marker_sq}",
            a.facing.name()
        ));
    } else {
        t.say(format_args!(
            "Sentry {label} is alerted: an alert marker goes on {marker_sq}"
        ));
    }
}

/// The room square in front of the doorway through which a Sentry outside a room is alerted to
/// a disturbance inside it: of the room's open doors, the one whose outer face is nearest the
/// Sentry (noise and sight reach him only through an open door). `None` when the disturbance is
/// not in a room or the Sentry stands in that room.
fn doorway_in_room(s: &State, sentry: Sq, trouble: Sq) -> Option<Sq> {
    let b = board();
    let room = b.room_of(trouble)?;
    if b.room_of(sentry) == Some(room) {
        return None;
    }
    b.room_doors(room)
        .filter(|door| s.door_open(door.id))
        .filter_map(|door| {
            let inside = door.sides.iter().find(|q| b.room_of(**q) == Some(room))?;
            let outside = door.sides.iter().find(|q| *q != inside)?;
            Some((outside.chebyshev(sentry), door.id.0, *inside))
        })
        .min()
        .map(|(_, _, inside)| inside)
}

/// The facing a quarter turn to the left or right of `d`.
fn turned(d: Dir, side: Side) -> Dir {
    let k = Dir::ALL.iter().position(|x| *x == d).expect("a facing");
    match side {
        Side::Left => Dir::ALL[(k + 3) % 4],
        Side::Right => Dir::ALL[(k + 1) % 4],
    }
}

/// Summary, "Sentries": "If the door is subsequently closed, reposition the alert marker to the
/// left or right of the Sentry as you wish" — the Defender's standing choice `alert-side`, left
/// by default; when that side is a wall the other side, and when both are, behind him.
pub fn door_closed(s: &mut State, t: &mut dyn Table, door: DoorId) {
    let b = board();
    let inner: Vec<Sq> = b
        .door(door)
        .sides
        .iter()
        .copied()
        .filter(|q| b.room_of(*q).is_some())
        .collect();
    for d in 0..s.defenders.len() {
        let a = &s.defenders[d];
        let (Some(m), Some(at)) = (a.alert, a.sq) else {
            continue;
        };
        if a.kind != DefKind::Sentry || !inner.contains(&m) || b.room_of(at) == b.room_of(m) {
            continue;
        }
        let first = s.alert_side;
        let other = match first {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        };
        let step = |dir: Dir| {
            let (dx, dy) = dir.delta();
            let q = Sq((at.0 as i32 + dx) as u8, (at.1 as i32 + dy) as u8);
            senses::adjacent(s, at, q).then_some(q)
        };
        let Some(q) = step(turned(a.facing, first))
            .or_else(|| step(turned(a.facing, other)))
            .or_else(|| step(a.facing.opposite()))
        else {
            continue;
        };
        let label = a.label.clone();
        s.defenders[d].alert = Some(q);
        t.say(format_args!(
            "{door} is closed: Sentry {label}'s alert marker moves to {q}, beside him"
        ));
    }
}

/// Summary, "Noise": a firearm alerts every Sentry within 12 squares.
pub fn gunshot(s: &mut State, t: &mut dyn Table, at: Sq) {
    for d in senses::sentries_hearing(s, at, 12) {
        alert_sentry(s, t, d, at);
    }
}

/// An Intruder is exposed: he changes to assault mode. When the Commander exposes him the
/// Defender takes an alert marker for the ASI (summary, "Investigate"; manual, third round of
/// "Starting play"); a Sentry who exposes him is alerted.
pub fn expose(s: &mut State, t: &mut dyn Table, i: usize, by: Option<usize>) {
    let a = &mut s.intruders[i];
    if a.status != Status::Standing {
        return;
    }
    a.mode = Mode::Assault;
    let at = a.sq;
    t.say(format_args!(
        "{} is exposed and changes to assault mode",
        a.agent.title()
    ));
    if let Some(d) = by {
        match s.defenders[d].kind {
            DefKind::Commander if !s.alarm => {
                s.asi_markers += 1;
                t.say(format_args!(
                    "The Commander takes an alert marker for the Alert State Indicator"
                ));
            }
            DefKind::Sentry => {
                if let Some(at) = at {
                    alert_sentry(s, t, d, at);
                }
            }
            _ => {}
        }
    }
}

/// Attack dice in a fight (summary, "Fight", "Weapons"): Strength, +1 with a knife, 2 when
/// unarmed (a counterattack, a Defender, or an Intruder whose selected weapon is a firearm).
fn fight_dice(s: &State, w: Who, unarmed: bool) -> usize {
    match w {
        Who::I(i) => {
            let a = &s.intruders[i];
            match (unarmed, a.selected) {
                (false, Weapon::Knife) => a.profile().strength as usize + 1,
                _ => 2,
            }
        }
        Who::D(d) => s.defenders[d].profile().strength as usize,
    }
}

fn grades(s: &State, w: Who) -> (skills::Profile2, u8) {
    match w {
        Who::I(i) => {
            let p = s.intruders[i].profile();
            ((p.combat, p.survival), p.endurance)
        }
        Who::D(d) => {
            let p = s.defenders[d].profile();
            ((p.combat, p.survival), p.endurance)
        }
    }
}

/// Applies a wound after RESIST EFFECTS: unconscious on a light or severe wound, dead on a
/// fatal one (summary, "Wounds and death").
pub fn wound(s: &mut State, t: &mut dyn Table, victim: Who, w: Wound) {
    let who = name(s, victim);
    match w {
        Wound::None => t.say(format_args!("{who} shrugs it off")),
        Wound::Light | Wound::Severe => {
            t.say(format_args!(
                "{who} takes {} and falls unconscious",
                w.name()
            ));
            match victim {
                Who::I(i) => {
                    let a = &mut s.intruders[i];
                    a.status = Status::Unconscious;
                    // Unconscious Intruders are put into raiding mode.
                    a.mode = Mode::Raiding;
                    a.selected = Weapon::Knife;
                }
                Who::D(d) => {
                    // A Sentry is alerted as well (`attacked`), after the attack.
                    s.defenders[d].status = Status::Unconscious;
                }
            }
        }
        Wound::Fatal => {
            t.say(format_args!("{who} takes a fatal wound and dies"));
            kill(s, t, victim);
        }
    }
}

/// An agent dies: his figure is replaced by his corpse marker.
pub fn kill(s: &mut State, t: &mut dyn Table, victim: Who) {
    match victim {
        Who::I(i) => {
            let a = &mut s.intruders[i];
            a.status = Status::Dead;
            if let Some(at) = a.sq.take() {
                let mut m = Marker::new(
                    at,
                    MarkerKind::Corpse {
                        of: a.agent.name().into(),
                    },
                );
                m.intel = std::mem::take(&mut a.intel);
                m.equipment = std::mem::take(&mut a.equipment);
                m.weapons = std::mem::take(&mut a.weapons);
                s.markers.push(m);
            }
        }
        Who::D(d) => {
            let a = &mut s.defenders[d];
            a.status = Status::Dead;
            // An alerted Sentry who dies loses his alert marker.
            a.alert = None;
            if let Some(at) = a.sq.take() {
                let mut m = Marker::new(
                    at,
                    MarkerKind::Corpse {
                        of: a.label.clone(),
                    },
                );
                m.intel = std::mem::take(&mut a.captured_intel);
                m.equipment = std::mem::take(&mut a.captured_equipment);
                m.weapons = std::mem::take(&mut a.captured_weapons);
                s.markers.push(m);
            }
            if a.kind == DefKind::Commander && !s.alarm && s.asi_markers > 0 {
                // Summary, "Mobilising a replacement Commander": discard the ASI's markers.
                s.asi_markers = 0;
                t.say(format_args!(
                    "The Commander's death discards every alert marker on the ASI"
                ));
            }
        }
    }
}

/// FIGHT (summary, "Fight", "Resist effects", "Counterattack"). `counter` says whether the
/// victim may counterattack (a counterattack's victim may not).
pub fn fight(
    s: &mut State,
    t: &mut dyn Table,
    attacker: Who,
    victim: Who,
    unarmed: bool,
    counter: bool,
    actor_attacks: bool,
) {
    let dice = fight_dice(s, attacker, unarmed);
    let ((combat, _), _) = grades(s, attacker);
    let (f, passes) = skills::test(t, dice, combat, actor_attacks);
    let result = fight_result(passes);
    t.say(format_args!(
        "{} {} {} ({dice} dice: {}): {}",
        name(s, attacker),
        if counter { "fights" } else { "counterattacks" },
        name(s, victim),
        faces(&f),
        result.name()
    ));
    let suffered = resist_and_wound(s, t, victim, result, !actor_attacks);
    attacked(s, t, victim, attacker);
    if counter
        && suffered == Wound::None
        && status(s, victim) == Status::Standing
        && status(s, attacker) == Status::Standing
        && wants_counter(s, victim)
    {
        fight(s, t, victim, attacker, true, false, !actor_attacks);
    }
}

fn wants_counter(s: &State, w: Who) -> bool {
    match w {
        Who::I(i) => s.intruders[i].counterattack && s.intruders[i].mode == Mode::Assault,
        Who::D(_) => s.defender_counterattack,
    }
}

fn resist_and_wound(
    s: &mut State,
    t: &mut dyn Table,
    victim: Who,
    w: Wound,
    actor_resists: bool,
) -> Wound {
    if w == Wound::None {
        return Wound::None;
    }
    let ((_, survival), endurance) = grades(s, victim);
    let (f, passes) = skills::test(t, endurance as usize, survival, actor_resists);
    let after = resist(w, passes);
    t.say(format_args!(
        "{} resists ({} dice: {}): {}",
        name(s, victim),
        endurance,
        faces(&f),
        after.name()
    ));
    wound(s, t, victim, after);
    after
}

/// A fight on an order's planned course (`skills::Course::Plan`): every attack die passes and
/// every resist die fails, so the victim falls and no counterattack follows. No die is drawn.
pub fn planned_fight(s: &mut State, t: &mut dyn Table, attacker: Who, victim: Who) {
    let dice = fight_dice(s, attacker, false);
    planned_wound(s, t, victim, fight_result(dice as u32));
    attacked(s, t, victim, attacker);
}

/// A shot on an order's planned course: the fewest sixes that cover the range are its range
/// dice, every other die passes, and the target's resist dice fail. No die is drawn.
pub fn planned_shot(s: &mut State, t: &mut dyn Table, shooter: Who, target: Who, shot: Shot) {
    let range_dice = shot.range.div_ceil(6) as usize;
    if range_dice <= shot.dice {
        planned_wound(s, t, target, fight_result((shot.dice - range_dice) as u32));
    }
    attacked(s, t, target, shooter);
    if let Some(at) = sq_of(s, shooter) {
        gunshot(s, t, at);
    }
}

/// RESIST EFFECTS with every die failing (a grade that passes on a 1 still passes).
fn planned_wound(s: &mut State, t: &mut dyn Table, victim: Who, w: Wound) {
    if w == Wound::None {
        return;
    }
    let ((_, survival), endurance) = grades(s, victim);
    let passes = if survival.passes(1) {
        u32::from(endurance)
    } else {
        0
    };
    wound(s, t, victim, resist(w, passes));
}

/// Removes range dice (summary, "Shoot": dice whose total equals or exceeds the range) keeping
/// as many passes as possible; `None` when no choice of dice covers the range.
pub fn cover_range(faces: &[u32], range: u32, pass: impl Fn(u32) -> bool) -> Option<Vec<usize>> {
    let n = faces.len();
    let mut best: Option<(u32, usize, Vec<usize>)> = None;
    for mask in 0u32..(1 << n) {
        let chosen: Vec<usize> = (0..n).filter(|k| mask & (1 << k) != 0).collect();
        let total: u32 = chosen.iter().map(|&k| faces[k]).sum();
        if total < range {
            continue;
        }
        let kept_passes = (0..n)
            .filter(|k| mask & (1 << k) == 0 && pass(faces[*k]))
            .count() as u32;
        let key = (kept_passes, n - chosen.len());
        if best.as_ref().is_none_or(|(p, c, _)| key > (*p, *c)) {
            best = Some((key.0, key.1, chosen));
        }
    }
    best.map(|(_, _, c)| c)
}

/// An SMG burst's policy, written in the order (summary, "Weapons": "re-roll up to 3 dice (range
/// or attack dice) after rolling attack dice and designating which dice will cover the range").
/// A game by email cannot stop mid-shot to ask, so the player says beforehand how he designates
/// and which dice he re-rolls; the designation is made once, before the re-rolls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Burst {
    /// `burst` (or `burst range`), the default: designate as for any shot (the most passes
    /// kept); re-roll the lowest range die while the range dice fall short of the range, then
    /// the lowest failing attack die.
    Range,
    /// `burst attack`: designate the fewest range dice that cover the range, leaving more
    /// attack dice to re-roll; re-roll the lowest failing attack die first, then, while the
    /// range dice fall short, the lowest range die.
    Attack,
}

/// The range dice a burst designates before its re-rolls. When no choice covers the range, every
/// die but the highest is designated: the range dice must then be re-rolled up to the range, and
/// the highest die is the likeliest attack die to pass.
fn designate(faces: &[u32], range: u32, pass: impl Fn(u32) -> bool, policy: Burst) -> Vec<usize> {
    let n = faces.len();
    let chosen = match policy {
        Burst::Range => cover_range(faces, range, &pass),
        Burst::Attack => (0u32..(1 << n))
            .filter_map(|mask| {
                let total: u32 = (0..n)
                    .filter(|k| mask & (1 << k) != 0)
                    .map(|k| faces[k])
                    .sum();
                let kept_passes = (0..n)
                    .filter(|k| mask & (1 << k) == 0 && pass(faces[*k]))
                    .count();
                (total >= range).then_some((
                    mask.count_ones(),
                    usize::MAX - kept_passes,
                    total,
                    mask,
                ))
            })
            .min()
            .map(|(_, _, _, mask)| (0..n).filter(|k| mask & (1 << k) != 0).collect()),
    };
    chosen.unwrap_or_else(|| {
        let top = (0..n).max_by_key(|&k| faces[k]);
        (0..n).filter(|&k| Some(k) != top).collect()
    })
}

/// One shot: the weapon's dice, the range in squares, and whether an SMG fires a burst.
#[derive(Debug, Clone, Copy)]
pub struct Shot {
    pub dice: usize,
    pub range: u32,
    pub burst: Option<Burst>,
}

/// SHOOT: roll the weapon's dice, remove range dice, score the passes left.
pub fn shoot(
    s: &mut State,
    t: &mut dyn Table,
    shooter: Who,
    target: Who,
    shot: Shot,
    actor_shoots: bool,
) {
    let Shot { dice, range, burst } = shot;
    let ((combat, _), _) = grades(s, shooter);
    let mut f: Vec<u32> = (0..dice).map(|_| t.d6(actor_shoots)).collect();
    let cover = match burst {
        None => cover_range(&f, range, |x| combat.passes(x)),
        Some(policy) => {
            // Summary, "Weapons": up to 3 re-rolls, the same die as often as wished, after the
            // range dice are designated; the designation stands.
            let range_dice = designate(&f, range, |x| combat.passes(x), policy);
            t.say(format_args!(
                "{} fires a burst ({}; range {range}): {} designated for the range",
                name(s, shooter),
                faces(&f),
                faces(&range_dice.iter().map(|&k| f[k]).collect::<Vec<_>>())
            ));
            for _ in 0..3 {
                let total: u32 = range_dice.iter().map(|&k| f[k]).sum();
                let short = range_dice
                    .iter()
                    .copied()
                    .filter(|_| total < range)
                    .min_by_key(|&k| f[k]);
                let failing = (0..f.len())
                    .filter(|k| !range_dice.contains(k) && !combat.passes(f[*k]))
                    .min_by_key(|&k| f[k]);
                let pick = match policy {
                    Burst::Range => short.or(failing),
                    Burst::Attack => failing.or(short),
                };
                let Some(k) = pick else { break };
                let was = f[k];
                f[k] = t.d6(actor_shoots);
                let kind = if range_dice.contains(&k) {
                    "range"
                } else {
                    "attack"
                };
                t.say(format_args!(
                    "Burst: a {kind} die of {was} is re-rolled: {}",
                    f[k]
                ));
            }
            let total: u32 = range_dice.iter().map(|&k| f[k]).sum();
            (total >= range).then_some(range_dice)
        }
    };
    let sh = name(s, shooter);
    let tg = name(s, target);
    match cover {
        None => t.say(format_args!(
            "{sh} shoots at {tg} ({}; range {range}): out of range",
            faces(&f)
        )),
        Some(c) => {
            let passes = (0..f.len())
                .filter(|k| !c.contains(k) && combat.passes(f[*k]))
                .count() as u32;
            let result = fight_result(passes);
            t.say(format_args!(
                "{sh} shoots at {tg} ({}; range {range} covered by {}): {}",
                faces(&f),
                faces(&c.iter().map(|&k| f[k]).collect::<Vec<_>>()),
                result.name()
            ));
            resist_and_wound(s, t, target, result, !actor_shoots);
        }
    }
    attacked(s, t, target, shooter);
    if let Some(at) = sq_of(s, shooter) {
        gunshot(s, t, at);
    }
}
