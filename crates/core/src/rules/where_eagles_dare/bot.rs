//! A random command for a seat, for the bot tests: in the phases before and between the
//! impulses one of the legal orders (`legal`: chits bought, releases rolled, off-map moves by
//! their private numbers, sealed plans and markers); in a window the answer the bot always
//! gave (its odds of a pass keep the paths the bot tests count within reach); in an impulse
//! now and then one of a unit's legal orders, else the bot's own play that the list does not
//! hold — counters placed where the map holds none yet (decision 12), the bridges it contests,
//! the order of battle moved away from its Leaders — some of which the rules refuse (the bot
//! tries again).

use super::hex::Hex;
use super::legal::{self, Reach};
use super::order::{Command, CLASSES, RESULTS};
use super::state::{Phase, Side, State};
use super::WhereEaglesDare;
use crate::engine::ruleset::{BotRng, Seat};

fn start(side: Side) -> Hex {
    match side {
        Side::Allied => Hex { col: 41, row: 230 },
        Side::German => Hex { col: 43, row: 228 },
    }
}

fn faces(rng: BotRng) -> Vec<u32> {
    let hi = rng(10) as u32;
    (0..=hi).collect()
}

/// The `glider` word of a drop roll (3.4.1): the order of battle's for its Units, a coin for
/// the counters outside it.
fn lands_by_glider(unit: &str, rng: BotRng) -> bool {
    match super::oob::OOB.unit(unit) {
        Some(u) => u.glider && !u.para,
        None => rng(2) == 0,
    }
}

/// A drop roll's flak (3.4.1): counted (`flak N`, `flak88 N`), or one or two of the flak
/// units on the map named (`fz`).
fn flak_stated(s: &State, rng: BotRng) -> (u32, u32, Vec<String>) {
    let on_map: Vec<&String> = s.flak.keys().filter(|u| s.units.contains_key(*u)).collect();
    if on_map.is_empty() || rng(3) > 0 {
        return (rng(2) as u32, rng(2) as u32, Vec::new());
    }
    let first = rng(on_map.len());
    let last = (first + rng(2)).min(on_map.len() - 1);
    (
        0,
        0,
        on_map[first..=last].iter().map(|u| (*u).clone()).collect(),
    )
}

/// A random command for `seat`: in the phases before and between the impulses one of the
/// legal orders (`legal`); in a window the answer the bot always gave; in the impulse of its
/// side the bot's own play (the counters it places, the bridges it contests, the order of
/// battle it moves) and now and then one of a unit's legal orders.
pub fn random_command(s: &State, seat: &Seat, rng: BotRng) -> Option<Command> {
    let side = Side::of(seat)?;
    if s.over || s.resigned.is_some() {
        return None;
    }
    if rng(60) == 0 {
        return Some(Command::Dispute {
            seq: 1 + rng(5) as u64,
            text: "the fire zone was blocked".into(),
        });
    }
    if rng(80) == 0 {
        // The standing watch list (issue 18): every hex, none, or the enemy's hexes.
        return Some(Command::Watch {
            hexes: match rng(3) {
                0 => None,
                1 => Some(Vec::new()),
                _ => Some(
                    s.units
                        .values()
                        .filter(|u| u.side != side)
                        .map(|u| u.hex)
                        .collect::<std::collections::BTreeSet<_>>()
                        .into_iter()
                        .take(super::order::MAX_WATCHED)
                        .collect(),
                ),
            },
        });
    }
    if s.phase == Phase::Activation && !legal::plain_impulse(s) {
        return window(s, side, rng);
    }
    if s.phase != Phase::Activation {
        return pick(s, side, rng);
    }
    if s.impulse != side {
        return None;
    }
    impulse(s, side, rng)
}

/// One of the legal orders now (the phases before and between the impulses).
fn pick(s: &State, side: Side, rng: BotRng) -> Option<Command> {
    let list = legal::orders(&WhereEaglesDare, s, side, Reach::Every);
    if list.is_empty() {
        return None;
    }
    Some(list[rng(list.len())].command.clone())
}

/// A window's answer, as the bot always gave it (its odds of a pass, the units it names): the
/// paths the bot tests count are reached through these odds.
fn window(s: &State, side: Side, rng: BotRng) -> Option<Command> {
    Some(match &s.phase {
        // 2.15.6: the demolition window comes before every other answer.
        Phase::Activation if s.pending.is_none() && s.demolition.is_some() => {
            let d = s.demolition.as_ref().expect("checked");
            if d.side != side {
                return None;
            }
            if rng(2) == 0 {
                Command::Demolish {
                    bridge: d.bridges[rng(d.bridges.len())].clone(),
                    fire_zone: rng(2) == 0,
                }
            } else {
                Command::Pass
            }
        }
        Phase::Activation
            if s.pending.is_none()
                && s.rout().is_none()
                && s.routing().is_none()
                && s.mann.is_none()
                && s.lost().is_none()
                && s.placing().is_some() =>
        {
            let (who, event) = s.placing().map(|(w, e)| (w, e.to_owned()))?;
            if who != side {
                return None;
            }
            return place_event(s, side, event, rng);
        }
        Phase::Activation if s.pending.is_none() && s.intelligence().is_some() => {
            if s.intelligence() != Some(side) {
                return None;
            }
            let own: Vec<&str> = super::data::DATA
                .divisions
                .iter()
                .filter(|d| d.side == side)
                .map(|d| d.id.as_str())
                .collect();
            Command::Intelligence {
                division: own[rng(own.len())].to_owned(),
            }
        }
        Phase::Activation if s.pending.is_none() && s.status_window() => {
            if side != Side::German {
                return None;
            }
            if rng(2) == 0 {
                Command::Status
            } else {
                Command::Pass
            }
        }
        Phase::Activation => {
            if let Some(p) = &s.pending {
                if p.side != side {
                    return None;
                }
                // Name the unit struck now and then (a Bailey, a ferry's engineer); never a
                // Bulldozer, which may not be attacked (2.11).
                let target = s
                    .units
                    .iter()
                    .filter(|(n, u)| {
                        u.hex == p.hex
                            && !s
                                .stream_bridges
                                .values()
                                .any(|x| x.bulldozer.as_deref() == Some(n.as_str()))
                    })
                    .map(|(n, _)| n.clone())
                    .nth(rng(4));
                return Some(Command::Result {
                    class: RESULTS[rng(RESULTS.len())].into(),
                    target,
                });
            }
            if let Some(who) = s.rout() {
                if side != who {
                    return None;
                }
                // S3.1: a Formation on the map with a step lost on its units: a German one of an
                // off-map display, or an Allied one of the order of battle (decision 30).
                // A 59th Formation with a unit on the map rolls (decision 43).
                let allied: Vec<String> = super::oob::OOB
                    .formations
                    .iter()
                    .filter(|f| f.side == Side::Allied || super::offmap::is_59th(&f.id))
                    .filter(|f| {
                        super::offmap::routed_units(s, &f.id).is_some_and(|u| !u.is_empty())
                    })
                    .map(|f| f.id.clone())
                    .collect();
                let on_map: Vec<&String> = s
                    .offmap
                    .iter()
                    .filter(|(_, p)| **p == super::state::OffMap::OnMap)
                    .map(|(f, _)| f)
                    .chain(allied.iter())
                    .filter(|f| super::offmap::rout_condition(s, f).is_ok())
                    .collect();
                // Decision 43: a 59th Formation that may rout is named one time in two.
                let the_59th: Vec<&&String> = on_map
                    .iter()
                    .filter(|f| super::offmap::is_59th(f))
                    .collect();
                let pick = match the_59th.get(rng(2 * the_59th.len().max(1))) {
                    Some(f) => Some(**f),
                    None => on_map.get(rng(on_map.len() + 1)).copied(),
                };
                return Some(match pick {
                    Some(f) if allied.contains(f) => Command::Rout {
                        formation: (*f).clone(),
                        units: Vec::new(),
                    },
                    Some(f) => {
                        // Decision 33: a unit of the order of battle named is one routed.
                        let routed = super::offmap::routed_units(s, f).unwrap_or_default();
                        Command::Rout {
                            formation: (*f).clone(),
                            units: s
                                .units
                                .iter()
                                .filter(|(n, u)| {
                                    u.side == Side::German
                                        && (super::oob::OOB.unit(n).is_none() || routed.contains(n))
                                })
                                .map(|(n, _)| n.clone())
                                .take(rng(3))
                                .collect(),
                        }
                    }
                    None => Command::Pass,
                });
            }
            if let Some(r) = s.routing() {
                if side != r.side {
                    return None;
                }
                // S3.1 Rout: the first routed unit moves one hex or entrenches; or the rest stay.
                let unit = r.units[0].clone();
                return Some(match (rng(3), s.units.get(&unit)) {
                    (0, Some(u)) => {
                        let n = u.hex.neighbours();
                        Command::Move {
                            cohesion: false,
                            unit,
                            path: vec![n[rng(n.len())]],
                            column: u.column,
                            transport: None,
                        }
                    }
                    (1, _) => Command::Entrench { unit },
                    _ => Command::Pass,
                });
            }
            if s.mann.is_some() {
                if side != Side::Allied {
                    return None;
                }
                return Some(if rng(2) == 0 {
                    Command::JoeMann
                } else {
                    Command::Pass
                });
            }
            if let Some(l) = s.lost() {
                if side != s.lost_mover() {
                    return None;
                }
                let at = s.units.get(l).map(|u| u.hex)?;
                let n = at.neighbours();
                return Some(if rng(2) == 0 {
                    Command::Pass
                } else {
                    Command::Move {
                        cohesion: false,
                        unit: l.to_owned(),
                        path: vec![n[rng(n.len())]],
                        column: false,
                        transport: None,
                    }
                });
            }
            if let Some(h) = s.window {
                if rng(3) > 0 {
                    return Some(Command::Pass);
                }
                return Some(Command::Fire {
                    unit: format!(
                        "{}/{}",
                        if side == Side::Allied { "A" } else { "G" },
                        rng(6)
                    ),
                    hex: h,
                    class: CLASSES[rng(CLASSES.len())].into(),
                    opportunity: true,
                    on: None,
                    facts: String::new(),
                    covered: s.covering_fire && rng(2) == 0,
                });
            }
            return None;
        }
        _ => return None,
    })
}

/// An event placed (S3.1): the bot's answer when `event` waits for its `side`.
fn place_event(s: &State, side: Side, event: String, rng: BotRng) -> Option<Command> {
    // S3.1: a friendly unit for Heroic, a hex by a friendly unit for Dutch and a
    // Minefield (refused, and tried again, when none is near), or pass.
    let own: Vec<(&String, Hex)> = s
        .units
        .iter()
        .filter(|(_, u)| u.side == side)
        .map(|(n, u)| (n, u.hex))
        .collect();
    if own.is_empty() || rng(4) == 0 {
        return Some(Command::Pass);
    }
    let (name, at) = own[rng(own.len())];
    if event == "lost" {
        // The enemy's unit that is lost (S3.1).
        let theirs: Vec<&String> = s
            .units
            .iter()
            .filter(|(_, u)| u.side == side.other())
            .map(|(n, _)| n)
            .collect();
        return Some(match theirs.len() {
            0 => Command::Pass,
            n => Command::Place {
                event,
                target: theirs[rng(n)].clone(),
                at: None,
                units: Vec::new(),
            },
        });
    }
    if event == "rally" || event == "air-strike" {
        // S3.1: the formation of one of his units (a Typhoon on that unit's hex).
        let Some(f) = super::oob::OOB
            .formation_of(name)
            .filter(|f| f.side == side)
        else {
            return Some(Command::Pass);
        };
        return Some(Command::Place {
            at: (event == "air-strike").then_some(at),
            event,
            target: f.id.clone(),
            units: Vec::new(),
        });
    }
    if event == "reinf" {
        // S3.1: a formation with a step lost, or a Lost 82nd AB unit with a 101st
        // Leader whose formation lost none (refused, and tried again, when it did).
        let hurt = super::events::formations_with_losses(s, side);
        let left = super::events::lost_82nd_left(s);
        let leader = s.units.iter().find(|(n, _)| {
            super::oob::OOB.unit(n).is_some_and(|u| u.range.is_some())
                && super::oob::OOB.division_of(n) == Some("101st")
                && s.reinf_one
                    .as_ref()
                    .is_none_or(|f| super::oob::OOB.formation_of(n).is_some_and(|x| &x.id == f))
        });
        let lost82 = match (left.first(), leader) {
            (Some(u), Some((_, l))) if side == Side::Allied => Some(Command::Place {
                event: event.clone(),
                target: (*u).to_owned(),
                at: Some(l.hex),
                units: Vec::new(),
            }),
            _ => None,
        };
        if s.reinf_one.is_some() || hurt.is_empty() || rng(3) == 0 {
            return Some(lost82.unwrap_or(Command::Pass));
        }
        let (f, _) = &hurt[rng(hurt.len())];
        return Some(Command::Place {
            event,
            target: f.clone(),
            at: None,
            units: Vec::new(),
        });
    }
    Some(Command::Place {
        target: if event == "heroic" {
            name.clone()
        } else {
            at.neighbours()[rng(6)].to_string()
        },
        event,
        at: None,
        units: Vec::new(),
    })
}

/// The side's impulse: a dropped unit's roll first, the bot's own play, the end now and then.
fn impulse(s: &State, side: Side, rng: BotRng) -> Option<Command> {
    // 3.4, 3.4.1: a dropped unit rolls before any other Action; on the drop's turn the
    // Allied player places the drop's units in the zones its opened plan gives them.
    if side == Side::Allied {
        if let Some(c) = drop_work(s, rng) {
            return Some(c);
        }
    }
    // Decision 39: after a missed demolition the side's engineer works to regain
    // control of its bridge, and the enemy's unit leaves it.
    let regaining = |b: &str| {
        s.bridges
            .get(b)
            .and_then(|x| x.regain.as_ref())
            .is_some_and(|r| r.side == side || r.side == side.other())
    };
    for b in [mine(side), mine(side.other())] {
        if regaining(b) && rng(4) > 0 {
            let unit = format!("{}/0", if side == Side::Allied { "A" } else { "G" });
            if let Some(c) = bridge_contest(s, side, b, &unit, rng) {
                return Some(c);
            }
        }
    }
    // Decisions 38, 45: a destroyed bridge gets its ferry, and the ferry its passenger.
    if rng(3) == 0 && s.bridges.values().any(|b| b.destroyed) {
        let unit = format!(
            "{}/{}",
            if side == Side::Allied { "A" } else { "G" },
            rng(6)
        );
        if let Some(c) = ferry_work(s, side, &unit, rng) {
            return Some(c);
        }
    }
    // O3.0: a German unit that passed its lost check moves on in the same impulse.
    if side == Side::German
        && s.actions < 3
        && s.activity
            .iter()
            .any(|(u, a)| a.lost_checked && s.units.contains_key(u))
        && rng(4) > 0
    {
        if let Some(c) = oob_work(s, side, rng) {
            return Some(c);
        }
    }
    if s.actions >= 3 || rng(4) == 0 {
        return Some(Command::End);
    }
    if rng(8) == 0 {
        if side == Side::Allied && s.air_raid.is_some() && rng(2) == 0 {
            return Some(Command::StopRaid { points: 1 });
        }
        if rng(3) == 0 {
            // The Command Points of an Action of a unit of the OOB the chit activates
            // (S6.5–S6.8): refused when it is not In Command or the points are short.
            let chit = s.chit.as_deref().unwrap_or("");
            let units: Vec<&str> = super::oob::OOB
                .units
                .iter()
                .filter(|u| super::command::activates(s, chit, &u.id) == Some(true))
                .map(|u| u.id.as_str())
                .collect();
            if !units.is_empty() {
                return Some(Command::CommandAction {
                    unit: units[rng(units.len())].to_owned(),
                    by: None,
                    phone: rng(4) == 0,
                    from: None,
                });
            }
        }
        return Some(Command::Spend {
            points: 1,
            dispatch: rng(2) == 0,
            division: None,
            facts: "second action".into(),
        });
    }
    // The order of battle's Formations on the map (decisions 42, 43, 47).
    if rng(4) == 0 {
        if let Some(c) = oob_work(s, side, rng) {
            return Some(c);
        }
    }
    let unit = format!(
        "{}/{}",
        if side == Side::Allied { "A" } else { "G" },
        rng(6)
    );
    // 3.4.2: a dropped unit's glider/paradrop markers come off first, an Action each.
    if s.drop_markers.contains_key(&unit) {
        return Some(Command::Unmark { unit });
    }
    let at = s.units.get(&unit).map_or(start(side), |u| u.hex);
    let near = |rng: BotRng| {
        let n = at.neighbours();
        n[rng(n.len())]
    };
    if rng(3) == 0 {
        if let Some(c) = bridge_work(s, side, &unit, rng) {
            return Some(c);
        }
    }
    if rng(4) == 0 {
        if let Some(c) = unit_work(s, side, &unit, rng) {
            return Some(c);
        }
    }
    let arm = rng(10);
    // A unit on the map, one time in two that it would move: one of its legal orders (those
    // of no unit with them, but the end of the impulse). The bot's own play keeps its share:
    // the paths the bot tests count are reached through it.
    if arm <= 3 && s.units.contains_key(&unit) && rng(2) == 0 {
        let own: Vec<Command> = legal::orders(&WhereEaglesDare, s, side, Reach::Unit(&unit))
            .into_iter()
            .map(|l| l.command)
            .filter(|c| *c != Command::End)
            .collect();
        if !own.is_empty() {
            return Some(own[rng(own.len())].clone());
        }
    }
    // Else a counter placed (its first move, decision 12), and the bot's own play.
    Some(match arm {
        0..=3 => {
            let mut path = if s.units.contains_key(&unit) {
                Vec::new()
            } else {
                vec![at]
            };
            let mut h = at;
            for _ in 0..1 + rng(3) {
                let n = h.neighbours();
                h = n[rng(n.len())];
                path.push(h);
            }
            Command::Move {
                cohesion: false,
                unit,
                path,
                column: rng(2) == 0,
                transport: None,
            }
        }
        4 | 5 => Command::Fire {
            unit,
            hex: if rng(2) == 0 && !s.club_route.is_empty() {
                s.club_route[rng(s.club_route.len())]
            } else {
                near(rng)
            },
            class: CLASSES[rng(CLASSES.len())].into(),
            opportunity: false,
            on: [
                None,
                Some(super::terrain::Terrain::City),
                Some(super::terrain::Terrain::Woods),
            ][rng(3)],
            facts: String::new(),
            covered: false,
        },
        6 => Command::Assault {
            unit,
            hex: near(rng),
            facts: String::new(),
        },
        // 2.15.6: an engineer in one of the bridge's hexes wires it; the enemy's
        // wired bridge is entered, which opens his demolition window.
        // Each side wires a bridge of its own: the Allied the Best road bridge, the
        // German the Son bridge.
        7 => bridge_contest(s, side, ["son", "best"][rng(2)], &unit, rng).unwrap_or(Command::End),
        8 => Command::Barrage {
            unit,
            hex: if !s.club_route.is_empty() {
                s.club_route[rng(s.club_route.len())]
            } else {
                near(rng)
            },
            heavy: rng(2) == 0,
            pass: faces(rng),
        },
        _ => match (side, rng(3)) {
            (Side::Allied, 0) => {
                let (flak, flak88, fz) = flak_stated(s, rng);
                Command::DropRoll {
                    glider: lands_by_glider(&unit, rng),
                    unit,
                    zone: ["A1", "A", "B", "C", "W"][rng(5)].into(),
                    flak,
                    flak88,
                    fz,
                }
            }
            _ => Command::Rally {
                unit,
                pass: faces(rng),
            },
        },
    })
}

/// The zone of `zones` the opened plan of `drop` gives `unit` (3.3.2).
fn plan_zone(s: &State, unit: &str, drop: u8, zones: &[String]) -> Option<String> {
    zones
        .iter()
        .find(|z| super::declared::check_plan_zone(s, unit, drop, &[(*z).clone()]).is_ok())
        .cloned()
}

/// The Allied drop (3.4, 3.4.1, decision 24): a unit awaiting its Drop Table roll rolls, in the
/// zone its opened plan gives it; on the turn the last drop came, now and then, an airborne
/// Unit of a Formation the chit activates is placed in a hex of its plan's zone.
fn drop_work(s: &State, rng: BotRng) -> Option<Command> {
    use super::data::DATA;
    let d = s
        .drops
        .iter()
        .filter(|d| d.arrived.is_some())
        .max_by_key(|d| d.number)?;
    let chit = s.chit.as_deref().unwrap_or("");
    let active = |u: &str| super::command::activates(s, chit, u) != Some(false);
    for unit in &s.drop_awaiting {
        let Some(u) = s.units.get(unit) else { continue };
        if !active(unit) {
            continue;
        }
        let zones: Vec<String> = DATA
            .zones
            .iter()
            .filter(|(_, (_, hexes))| hexes.contains(&u.hex))
            .map(|(z, _)| z.clone())
            .collect();
        if let Some(z) = plan_zone(s, unit, d.number, &zones) {
            let (flak, flak88, fz) = flak_stated(s, rng);
            return Some(Command::DropRoll {
                unit: unit.clone(),
                zone: z,
                glider: lands_by_glider(unit, rng),
                flak,
                flak88,
                fz,
            });
        }
    }
    if d.arrived != Some((s.day, s.time)) || d.plan.is_none() || rng(2) == 0 {
        return None;
    }
    let waiting: Vec<(&str, String)> = super::oob::OOB
        .units
        .iter()
        .filter(|u| (u.para || u.glider) && !u.lost_82nd)
        .filter(|u| !s.units.contains_key(&u.id) && !s.drop_rolled.contains(&u.id))
        .filter(|u| !s.eliminated.contains_key(&u.id) && active(&u.id))
        .filter_map(|u| {
            let all: Vec<String> = DATA.zones.keys().cloned().collect();
            Some((u.id.as_str(), plan_zone(s, &u.id, d.number, &all)?))
        })
        .collect();
    if waiting.is_empty() {
        return None;
    }
    let (unit, zone) = &waiting[rng(waiting.len())];
    let hexes = &DATA.zones.get(zone)?.1;
    Some(Command::Move {
        cohesion: false,
        unit: (*unit).to_owned(),
        path: vec![hexes[rng(hexes.len())]],
        column: false,
        transport: None,
    })
}

/// Bridge work (2.11–2.18): vehicles across stream and railroad bridges, Bulldozers, Baileys,
/// ferries, railroad improvement. Some of it is refused (the bot tries again).
fn bridge_work(s: &State, side: Side, unit: &str, rng: BotRng) -> Option<Command> {
    use super::data::DATA;
    use super::order::Transport;
    let chit = s.chit.clone().unwrap_or_default();
    let pass = faces(rng);
    match rng(6) {
        0 => {
            let b = &DATA.stream_bridges[rng(DATA.stream_bridges.len())];
            let v = format!(
                "{}/v{}",
                if side == Side::Allied { "A" } else { "G" },
                rng(3)
            );
            let path = match s.units.get(&v).map(|u| u.hex) {
                Some(h) if h == b.hexes.0 => vec![b.hexes.1],
                Some(h) if h == b.hexes.1 => vec![b.hexes.0],
                _ => vec![b.hexes.0, b.hexes.1],
            };
            Some(Command::Move {
                cohesion: false,
                unit: v,
                path,
                column: true,
                transport: Some(
                    [Transport::Wheeled, Transport::Tracked, Transport::Mounted][rng(3)],
                ),
            })
        }
        1 if side == Side::Allied && chit == "div-guards" => {
            let (name, x) = s.stream_bridges.iter().find(|(_, x)| x.unstable)?;
            if x.bulldozer.is_some() {
                Some(Command::Bulldoze {
                    bridge: name.clone(),
                })
            } else {
                Some(Command::Bulldozer {
                    unit: DATA.bulldozers[rng(DATA.bulldozers.len())].0.clone(),
                    bridge: name.clone(),
                })
            }
        }
        2 if side == Side::Allied => {
            let (name, b) = s.bridges.iter().find(|(_, b)| b.destroyed)?;
            match &b.bailey {
                Some(x) => Some(Command::Tq {
                    unit: x.unit.clone(),
                    reason: vec!["repair".into(), name.clone()],
                    pass,
                }),
                None => Some(Command::Bailey {
                    unit: DATA.baileys[rng(DATA.baileys.len())].0.clone(),
                    bridge: name.clone(),
                }),
            }
        }
        3 => ferry_work(s, side, unit, rng),
        4 => {
            let b = DATA
                .bridges
                .iter()
                .find(|b| b.railroad && b.name != "best-rail")?;
            let eng = format!("{}/eng", if side == Side::Allied { "A" } else { "G" });
            if s.units.get(&eng).is_some_and(|u| u.hex == b.hexes.0) {
                Some(Command::Tq {
                    unit: eng,
                    reason: vec!["improve".into(), b.name.clone()],
                    pass,
                })
            } else {
                Some(Command::Move {
                    cohesion: false,
                    unit: format!(
                        "{}/m{}",
                        if side == Side::Allied { "A" } else { "G" },
                        rng(2)
                    ),
                    path: vec![b.hexes.0, b.hexes.1],
                    column: true,
                    transport: [None, Some(Transport::Mounted), Some(Transport::Tracked)][rng(3)],
                })
            }
        }
        _ => None,
    }
}

/// The special rules' orders (S1, S2, S4, S5.3, S6.3, O3): some are refused (the bot tries
/// again).
fn unit_work(s: &State, side: Side, unit: &str, rng: BotRng) -> Option<Command> {
    use super::data::DATA;
    let letter = if side == Side::Allied { "A" } else { "G" };
    let at = s.units.get(unit).map(|u| u.hex);
    Some(match rng(8) {
        0 => Command::Mount {
            infantry: unit.to_owned(),
            vehicle: format!("{letter}/{}", rng(6)),
        },
        1 => Command::Dismount {
            unit: unit.to_owned(),
            abandon: rng(4) == 0,
            cohesion: false,
        },
        2 => {
            // Decision 44: a unit of the order of battle takes its own division's.
            let mine = super::oob::OOB.division_of(unit);
            let own: Vec<&super::data::AssetDef> = DATA
                .assets
                .iter()
                .filter(|a| DATA.division(&a.division).is_some_and(|d| d.side == side))
                .filter(|a| mine.is_none_or(|m| m == a.division))
                .collect();
            let a = own.get(rng(own.len().max(1)))?;
            Command::Ride {
                asset: a.kind.clone(),
                unit: unit.to_owned(),
                division: a.division.clone(),
            }
        }
        3 => {
            let own: Vec<&super::state::Park> = s.parks.iter().filter(|p| p.side == side).collect();
            let p = own.get(rng(own.len().max(1)))?;
            match p.hex {
                None => Command::Park {
                    park: p.id.clone(),
                    hex: p.entry.or(at)?,
                },
                Some(h) if at == Some(h) => Command::EnterPark {
                    unit: unit.to_owned(),
                    park: p.id.clone(),
                },
                Some(h) => Command::Move {
                    cohesion: false,
                    unit: unit.to_owned(),
                    path: vec![h],
                    column: false,
                    transport: None,
                },
            }
        }
        4 => Command::RoadBlock {
            hex: at?,
            remove: rng(3) == 0,
        },
        5 => Command::Rearguard {
            unit: format!("{letter}/rg{}", rng(6)),
            hex: at?,
        },
        6 if side == Side::German && s.german_lost => Command::Tq {
            unit: unit.to_owned(),
            reason: vec!["lost".into()],
            pass: faces(rng),
        },
        _ => return None,
    })
}

/// A placement of `unit` in `hex`: its first move (decision 12).
fn place(
    unit: &str,
    hex: Hex,
    column: bool,
    transport: Option<super::order::Transport>,
) -> Command {
    Command::Move {
        cohesion: false,
        unit: unit.to_owned(),
        path: vec![hex],
        column,
        transport,
    }
}

/// The hexes around the bots' start hexes where they play (the synthetic map's, in the bot
/// test): placements and the order of battle's moves stay in them.
fn in_play(h: Hex) -> bool {
    (36..=48).contains(&h.col) && (220..=236).contains(&h.row)
}

/// The order of battle's Formations on the map (decisions 42, 43, 47): the Leader of one the
/// chit in play activates is placed by the side's start hex; its units are placed beyond twice
/// his Command Range or next to an enemy unit (where fire takes their steps, for the Rout and
/// the 59th's roll), rally and move on, away from him. A German unit beyond twice the range
/// rolls its O3.0 lost check first, or moves without it and is refused (the engine asks for
/// the check), and moves on once it passed. Under the divisions' TQ modifiers (SDZ Closed,
/// Club Route Cut, KG Chill) the rallies and checks change their faces.
fn oob_work(s: &State, side: Side, rng: BotRng) -> Option<Command> {
    use super::oob::{Class, OOB};
    let chit = s.chit.as_deref()?;
    let formations: Vec<&str> = OOB
        .formations
        .iter()
        .filter(|f| f.side == side)
        .filter(|f| {
            OOB.leaders_of(&f.id).next().is_some_and(|l| {
                super::command::activates(s, chit, &l.id) == Some(true)
                    && !s.gone.contains(&l.id)
                    && !s.eliminated.contains_key(&l.id)
            })
        })
        .map(|f| f.id.as_str())
        .collect();
    // O3.0: a unit that passed its lost check moves on (the check is for its next move).
    let passed: Vec<&str> = s
        .activity
        .iter()
        .filter(|(u, a)| a.lost_checked && s.units.contains_key(*u))
        .map(|(u, _)| u)
        .filter_map(|u| OOB.formation_of(u))
        .map(|f| f.id.as_str())
        .filter(|f| formations.contains(f))
        .collect();
    if formations.is_empty() {
        return None;
    }
    let f = if passed.is_empty() {
        formations[rng(formations.len())]
    } else {
        passed[rng(passed.len())]
    };
    let leader = OOB.leaders_of(f).next()?;
    let enemy_at = |h: Hex| s.units.values().any(|u| u.side != side && u.hex == h);
    let Some(at) = s.units.get(&leader.id).map(|u| u.hex) else {
        let mut near = start(side).neighbours();
        near.push(start(side));
        near.retain(|h| in_play(*h) && !enemy_at(*h));
        return Some(place(
            &leader.id,
            *near.get(rng(near.len().max(1)))?,
            false,
            None,
        ));
    };
    let units: Vec<&str> = OOB
        .units
        .iter()
        .filter(|u| u.formation == f && u.class != Class::Leader)
        .filter(|u| !s.gone.contains(&u.id) && !s.eliminated.contains_key(&u.id))
        .map(|u| u.id.as_str())
        .collect();
    let unit = match units
        .iter()
        .find(|u| s.lost_checked(u) && s.units.contains_key(**u))
    {
        Some(u) => *u,
        None => *units.get(rng(units.len().max(1)))?,
    };
    let twice = 2 * leader.range.unwrap_or(0);
    let Some(here) = s.units.get(unit).map(|u| u.hex) else {
        let pool: Vec<Hex> = if rng(2) == 0 {
            (36..=48u16)
                .flat_map(|col| (220..=236u16).map(move |row| Hex { col, row }))
                .filter(|h| (twice + 1..=twice + 3).contains(&h.distance(at)))
                .collect()
        } else {
            s.units
                .values()
                .filter(|u| u.side != side)
                .flat_map(|u| u.hex.neighbours())
                .filter(|h| in_play(*h))
                .collect()
        };
        let pool: Vec<Hex> = pool.into_iter().filter(|h| !enemy_at(*h)).collect();
        return Some(place(unit, *pool.get(rng(pool.len().max(1)))?, false, None));
    };
    if rng(4) == 0 && !s.lost_checked(unit) {
        return Some(Command::Rally {
            unit: unit.to_owned(),
            pass: faces(rng),
        });
    }
    // Away from the Leader where a step keeps or widens the distance, else anywhere.
    let steps: Vec<Hex> = here
        .neighbours()
        .into_iter()
        .filter(|h| in_play(*h))
        .collect();
    let away: Vec<Hex> = steps
        .iter()
        .copied()
        .filter(|h| h.distance(at) >= here.distance(at))
        .collect();
    let pool = if away.is_empty() || rng(4) == 0 {
        &steps
    } else {
        &away
    };
    let next = *pool.get(rng(pool.len().max(1)))?;
    if side == Side::German
        && s.german_lost
        && !s.lost_checked(unit)
        && super::german_lost::check_move(s, side, unit, here, &[next]).is_err()
        && rng(3) > 0
    {
        return Some(Command::Tq {
            unit: unit.to_owned(),
            reason: vec!["lost".into()],
            pass: faces(rng),
        });
    }
    Some(Command::Move {
        cohesion: false,
        unit: unit.to_owned(),
        path: vec![next],
        column: false,
        transport: None,
    })
}

/// The bridge the side's engineer wires (`bridge_contest`): each side one of its own, so that
/// neither side's engineer holds a hex of the other's bridge for good.
fn mine(side: Side) -> &'static str {
    match side {
        Side::Allied => "best",
        Side::German => "son",
    }
}

/// Wired bridges (2.15.5, 2.15.6; decisions 39, 40) on the bridges named `son` and `best`: the
/// side's engineer of that bridge is placed in one of its hexes and wires it; a unit of the
/// side enters the enemy's wired bridge (placed in a hex of it, or stepping in from beside
/// it), and steps out again so that it may enter once more; the wiring side's engineer
/// re-enters its contested hexes (so a later entry opens the window again) and, after a
/// missed demolition, enters both hexes one after the other to regain control and wire again.
fn bridge_contest(s: &State, side: Side, b: &str, unit: &str, rng: BotRng) -> Option<Command> {
    let def = super::data::DATA.bridge(b)?;
    let hexes = [def.hexes.0, def.hexes.1];
    let x = s.bridges.get(b).cloned().unwrap_or_default();
    let letter = if side == Side::Allied { "A" } else { "G" };
    let free = |h: &Hex| !s.units.values().any(|u| u.side != side && u.hex == *h);
    let who = format!("{letter}/x-{b}");
    // Out of the bridge's hexes, to a hex beside them: the enemy regains control of the
    // bridge, or ferries across the destroyed one, only once no unit of the side holds them.
    let leave = |rng: BotRng| -> Option<Command> {
        let at = s
            .units
            .get(&who)
            .map(|u| u.hex)
            .filter(|h| hexes.contains(h))?;
        let n: Vec<Hex> = at
            .neighbours()
            .into_iter()
            .filter(|h| !hexes.contains(h) && free(h))
            .collect();
        Some(Command::Move {
            cohesion: false,
            unit: who.clone(),
            path: vec![*n.get(rng(n.len().max(1)))?],
            column: false,
            transport: None,
        })
    };
    if x.destroyed || x.regain.as_ref().is_some_and(|r| r.side == side.other()) {
        return leave(rng);
    }
    let step = |who: String, to: Hex| Command::Move {
        cohesion: false,
        unit: who,
        path: vec![to],
        column: false,
        transport: None,
    };
    // In a bridge hex: to the other one, or out beside it; beside it: into a free one.
    let shuffle = |who: String, at: Hex, rng: BotRng| -> Option<Command> {
        let to = if hexes.contains(&at) && rng(2) == 0 {
            hexes.into_iter().find(|h| *h != at)
        } else if hexes.contains(&at) {
            let n: Vec<Hex> = at
                .neighbours()
                .into_iter()
                .filter(|h| !hexes.contains(h) && free(h))
                .collect();
            n.get(rng(n.len().max(1))).copied()
        } else {
            hexes.into_iter().find(|h| h.adjacent(at))
        };
        to.filter(free).map(|h| step(who, h))
    };
    if x.wired_by == Some(side.other()) {
        return match s.units.get(&who) {
            None => {
                let open: Vec<Hex> = hexes.into_iter().filter(free).collect();
                let h = *open.get(rng(open.len().max(1)))?;
                Some(place(&who, h, rng(2) == 0, None))
            }
            Some(u) => shuffle(who, u.hex, rng),
        };
    }
    if rng(4) == 0 {
        return Some(step(unit.to_owned(), hexes[rng(2)]));
    }
    if b != mine(side) {
        return None;
    }
    let eng = format!("{letter}/eng-{b}");
    let Some(at) = s.units.get(&eng).map(|u| u.hex) else {
        let open: Vec<Hex> = hexes.into_iter().filter(free).collect();
        return Some(place(&eng, *open.get(rng(open.len().max(1)))?, false, None));
    };
    let regain = x
        .regain
        .as_ref()
        .is_some_and(|r| r.side == side && hexes.iter().any(|h| !r.entered.contains(h)));
    let contested = x.wired_by == Some(side) && !x.contested.is_empty();
    if regain || contested || !hexes.contains(&at) {
        return shuffle(eng, at, rng);
    }
    if x.wired_by.is_none() {
        return Some(Command::Tq {
            unit: eng,
            reason: vec!["wire".into(), b.into()],
            pass: faces(rng),
        });
    }
    shuffle(eng, at, rng)
}

/// A ferry on a destroyed bridge (2.18, 2.18.1, 2.18.2; decisions 38, 45): the bridge's own
/// engineer builds it, and a passenger that came in riding its organic transport ('mounted')
/// takes it by abandoning its vehicles. Some of it is refused (the bot tries again).
fn ferry_work(s: &State, side: Side, unit: &str, rng: BotRng) -> Option<Command> {
    use super::data::{southern_hex, DATA};
    use super::order::Transport;
    let pass = faces(rng);
    let (name, b) = s.bridges.iter().find(|(_, b)| b.destroyed)?;
    let def = DATA.bridge(name)?;
    // The bridge's own engineer (the one that wires it, `bridge_contest`) builds it.
    let eng = format!(
        "{}/eng-{name}",
        if side == Side::Allied { "A" } else { "G" }
    );
    let passenger = format!("{}/f", if side == Side::Allied { "A" } else { "G" });
    match (&b.ferry, s.units.get(&eng)) {
        (None, Some(u)) if u.hex == def.hexes.0 || u.hex == def.hexes.1 => Some(Command::Tq {
            unit: eng,
            reason: vec!["ferry".into(), name.clone()],
            pass,
        }),
        (None, at) => Some(Command::Move {
            cohesion: false,
            path: vec![at
                .and_then(|u| {
                    [def.hexes.0, def.hexes.1]
                        .into_iter()
                        .find(|h| h.adjacent(u.hex))
                })
                .unwrap_or(southern_hex(def.hexes))],
            unit: eng,
            column: false,
            transport: None,
        }),
        // Decisions 38, 45: a passenger that came in riding its organic transport
        // ('mounted') takes the ferry only by abandoning its vehicles.
        (Some(f), _)
            if f.side == side
                && rng(2) == 0
                && s.units
                    .get(&passenger)
                    .is_none_or(|u| u.hex == f.at || u.hex == f.to) =>
        {
            Some(match s.units.get(&passenger) {
                None if !s.units.values().any(|u| u.side != side && u.hex == f.at) => {
                    place(&passenger, f.at, true, Some(Transport::Mounted))
                }
                _ => Command::Ferry {
                    abandon: (!s.abandoned.contains(&passenger) && rng(4) > 0) || rng(8) == 0,
                    unit: passenger,
                    bridge: name.clone(),
                },
            })
        }
        (Some(f), _) => {
            let at = s.units.get(unit).map(|u| u.hex);
            if at == Some(f.at) || at == Some(f.to) {
                if s.units.get(unit).is_some_and(|u| u.column) {
                    Some(Command::Ferry {
                        unit: unit.to_owned(),
                        bridge: name.clone(),
                        abandon: rng(2) == 0,
                    })
                } else {
                    Some(Command::Move {
                        cohesion: false,
                        unit: unit.to_owned(),
                        path: vec![at?],
                        column: true,
                        transport: None,
                    })
                }
            } else {
                Some(Command::Move {
                    cohesion: false,
                    unit: unit.to_owned(),
                    path: vec![f.at],
                    column: true,
                    transport: None,
                })
            }
        }
    }
}
