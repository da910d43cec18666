//! A random legal command for a seat, for the bot tests: every phase's commands (chits
//! bought, releases rolled, off-map moves by their private numbers), declared
//! rolls with random passing faces and results, moves as random walks.

use super::data::TURNS;
use super::hex::Hex;
use super::order::{Command, CLASSES, RESULTS};
use super::state::{Phase, Side, State};
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
    Some(match &s.phase {
        Phase::Over => return None,
        Phase::Plans { next } => {
            let zones = ["A1", "A", "B", "C", "W"];
            let z1 = zones[rng(5)];
            let z2 = zones.iter().find(|z| **z != z1).copied().unwrap_or("A");
            Command::Plan {
                drop: *next,
                // Each drop brings other Formations: a plan is never the same twice.
                sticks: Some(vec![
                    format!("d{next}-506:{z1}"),
                    format!("d{next}-502:{z2}"),
                    format!("ind-d{next}-101:{z1}"),
                ]),
            }
        }
        Phase::Raids { day } => Command::Raid {
            day: *day,
            real: Some(rng(3) == 0),
        },
        Phase::Weather => Command::Weather,
        Phase::Fog => Command::Fog,
        Phase::AirDrop { candidates } => Command::AirDrop {
            at: Some(TURNS[candidates[rng(2)]].to_owned()),
        },
        Phase::Route => Command::Route { path: Vec::new() },
        Phase::Release => {
            let have = super::release::next(s)
                .and_then(|e| e.dp.as_ref())
                .map_or(0, |d| s.dp.get(d).copied().unwrap_or(0).min(4));
            Command::Release {
                dp: rng(have as usize + 1) as u32,
            }
        }
        Phase::OffMap => {
            let mut moves = Vec::new();
            for (f, list) in &s.numbering {
                let Some(super::state::OffMap::Box(from)) = s.offmap.get(f) else {
                    continue;
                };
                let display = super::data::DATA.offmap.display_of(f).unwrap_or_default();
                let legal: Vec<u32> = (1..=list.len() as u32)
                    .filter(|n| {
                        super::offmap::legal(s, display, from, &list[*n as usize - 1]).is_ok()
                    })
                    .collect();
                moves.push((f.clone(), legal[rng(legal.len())]));
            }
            Command::OffMap { moves }
        }
        Phase::Buy { side: buyer } => {
            if *buyer != side {
                return None;
            }
            let can = super::chits::buyable(s, side);
            let mut chits: Vec<String> = Vec::new();
            for _ in 0..rng(4) {
                if !can.is_empty() {
                    let c = can[rng(can.len())].to_owned();
                    if !chits.contains(&c) {
                        chits.push(c);
                    }
                }
            }
            if super::chits::check_buy(s, side, &chits).is_err() {
                chits.clear();
            }
            Command::Buy { chits }
        }
        Phase::Activation if s.pending.is_none() && s.intelligence.is_some() => {
            if s.intelligence != Some(side) {
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
        Phase::Activation if s.pending.is_none() && s.status_window => {
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
                return Some(Command::Result {
                    class: RESULTS[rng(RESULTS.len())].into(),
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
                });
            }
            if s.actions >= 3 || rng(4) == 0 {
                return Some(Command::End);
            }
            if rng(8) == 0 {
                if side == Side::Allied && s.air_raid.is_some() && rng(2) == 0 {
                    return Some(Command::StopRaid { points: 1 });
                }
                return Some(Command::Spend {
                    points: 1,
                    dispatch: rng(2) == 0,
                    division: None,
                    facts: "second action".into(),
                });
            }
            let unit = format!(
                "{}/{}",
                if side == Side::Allied { "A" } else { "G" },
                rng(6)
            );
            let at = s.units.get(&unit).map_or(start(side), |u| u.hex);
            let near = |rng: BotRng| {
                let n = at.neighbours();
                n[rng(n.len())]
            };
            match rng(10) {
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
                        unit,
                        path,
                        column: rng(2) == 0,
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
                },
                6 => Command::Assault {
                    unit,
                    hex: near(rng),
                    facts: String::new(),
                },
                7 => {
                    let bridges = ["son", "best"];
                    let b = bridges[rng(2)];
                    let wired = s.bridges.get(b).is_some_and(|x| x.wired_by == Some(side));
                    if wired {
                        Command::Demolish {
                            bridge: b.into(),
                            fire_zone: rng(2) == 0,
                        }
                    } else {
                        Command::Tq {
                            unit,
                            reason: vec!["wire".into(), b.into()],
                            pass: faces(rng),
                        }
                    }
                }
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
                    (Side::Allied, 0) => Command::DropRoll {
                        unit,
                        zone: ["A1", "A", "B", "C", "W"][rng(5)].into(),
                        glider: rng(2) == 0,
                        flak: rng(2) as u32,
                        flak88: rng(2) as u32,
                    },
                    _ => Command::Rally {
                        unit,
                        pass: faces(rng),
                    },
                },
            }
        }
    })
}
