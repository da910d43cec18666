//! Hour of Glory's set-up: the scenario, the seats and the options a game is created with, read
//! into its first state.

use std::collections::BTreeMap;

use serde_json::Value;

use super::agents::{self, profiles, Agent, DefKind, Mode, Weapon};
use super::board::{self, board, Sq};
use super::intel;
use super::state::{self, Defender, Intruder, RoomCard, State, Status, Turn};
use crate::engine::dice::DiceStream;
use crate::engine::ruleset::{RuleError, Setup};

fn setup_error(message: impl Into<String>) -> RuleError {
    RuleError::new("set-up", message)
}

/// Where each Intruder starts (summary, "Setup": "place your green/raiding figure on one of the
/// 4 squares outside the stronghold entrance"): the option `entry`, e.g. `{"link": "m24"}`, names
/// an agent's square; the others take the free entry squares in seat order (l23, m23, n23, m24).
fn entry_squares(agents: &[Agent], option: Option<&Value>) -> Result<Vec<Sq>, RuleError> {
    let b = board();
    let mut chosen: Vec<Option<Sq>> = vec![None; agents.len()];
    match option {
        None | Some(Value::Null) => {}
        Some(Value::Object(map)) => {
            for (name, v) in map {
                let agent = Agent::parse(name).ok_or_else(|| {
                    setup_error(format!(
                        "entry: '{name}' is not an agent: harris, link or volkov"
                    ))
                })?;
                let k = agents.iter().position(|a| *a == agent).ok_or_else(|| {
                    setup_error(format!("entry: {} is not on this mission", agent.title()))
                })?;
                let q = v
                    .as_str()
                    .and_then(Sq::parse)
                    .filter(|q| b.is_entry(*q))
                    .ok_or_else(|| {
                        setup_error(format!(
                            "entry: {v} is not one of the 4 squares outside the entrance: {}",
                            b.entry
                                .iter()
                                .map(Sq::to_string)
                                .collect::<Vec<_>>()
                                .join(", ")
                        ))
                    })?;
                if let Some(j) = chosen.iter().position(|c| *c == Some(q)) {
                    return Err(setup_error(format!(
                        "entry: {} and {} would both start on {q}: one agent to a square",
                        agents[j].title(),
                        agent.title()
                    )));
                }
                chosen[k] = Some(q);
            }
        }
        Some(v) => {
            return Err(setup_error(format!(
                "entry must name squares by agent, e.g. {{\"link\": \"m24\"}}, not {v}"
            )))
        }
    }
    let taken = chosen.clone();
    let mut free = b
        .entry
        .iter()
        .copied()
        .filter(|q| !taken.contains(&Some(*q)));
    Ok(chosen
        .into_iter()
        .map(|c| c.unwrap_or_else(|| free.next().expect("4 entry squares for 3 agents")))
        .collect())
}

/// One agent's cards: his weapon stack and his equipment.
type Loadout = (Vec<Weapon>, Vec<agents::Equipment>);

/// The Intruders' weapons and equipment (summary, "Setup": "Choose weapons and equipment for the
/// character"; manual: "when you are more experienced, you may choose … equipment"). Without the
/// `loadouts` option each agent takes his cards of `data/loadouts.txt`; with it, an agent named
/// there takes the firearms and the one equipment card written for him, and his combat knife
/// always. The cards in the box are those `data/loadouts.txt` deals — one of each — so no card
/// goes to two agents.
fn loadouts(agents: &[Agent], option: Option<&Value>) -> Result<Vec<Loadout>, RuleError> {
    let p = profiles();
    let mut chosen: Vec<Loadout> = agents.iter().map(|a| p.loadout(*a)).collect();
    let obj = match option {
        None | Some(Value::Null) => return Ok(chosen),
        Some(Value::Object(obj)) => obj,
        Some(v) => {
            return Err(setup_error(format!(
                "loadouts must map agents to their cards, like {{\"harris\": {{\"weapons\": [\"smg\"], \"equipment\": \"first-aid-kit\"}}}}, not {v}"
            )))
        }
    };
    let in_box: Vec<Loadout> = Agent::ALL.iter().map(|a| p.loadout(*a)).collect();
    let box_has_weapon = |w: Weapon| in_box.iter().any(|(ws, _)| ws.contains(&w));
    let box_has_equipment = |e: agents::Equipment| in_box.iter().any(|(_, es)| es.contains(&e));
    for (name, card) in obj {
        let agent = Agent::parse(name).ok_or_else(|| {
            setup_error(format!(
                "loadouts: '{name}' is not an agent: harris, link or volkov"
            ))
        })?;
        let k = agents.iter().position(|a| *a == agent).ok_or_else(|| {
            setup_error(format!(
                "loadouts: {} is not playing in this mission",
                agent.title()
            ))
        })?;
        let Some(card) = card.as_object() else {
            return Err(setup_error(format!(
                "loadouts: {}'s cards must be {{\"weapons\": [...], \"equipment\": \"...\"}}",
                agent.title()
            )));
        };
        if let Some(key) = card.keys().find(|k| *k != "weapons" && *k != "equipment") {
            return Err(setup_error(format!(
                "loadouts: {} — unknown key '{key}': write weapons and equipment",
                agent.title()
            )));
        }
        let mut weapons = vec![Weapon::Knife];
        match card.get("weapons") {
            None | Some(Value::Null) => {}
            Some(Value::Array(list)) => {
                for v in list {
                    let w = v.as_str().and_then(Weapon::parse).ok_or_else(|| {
                        setup_error(format!(
                            "loadouts: {v} is not a weapon card: handgun, smg or rifle (the combat knife comes anyway)"
                        ))
                    })?;
                    if w == Weapon::Knife {
                        continue;
                    }
                    if weapons.contains(&w) {
                        return Err(setup_error(format!(
                            "loadouts: {} names the {w} twice: the box has one",
                            agent.title()
                        )));
                    }
                    if !box_has_weapon(w) {
                        return Err(setup_error(format!("loadouts: the box has no {w} card")));
                    }
                    weapons.push(w);
                }
            }
            Some(v) => {
                return Err(setup_error(format!(
                    "loadouts: {}'s weapons must be a list, not {v}",
                    agent.title()
                )))
            }
        }
        let equipment = match card.get("equipment") {
            None | Some(Value::Null) => Vec::new(),
            Some(v) => {
                let e = v
                    .as_str()
                    .and_then(agents::Equipment::parse)
                    .filter(|e| box_has_equipment(*e))
                    .ok_or_else(|| {
                        setup_error(format!(
                            "loadouts: {v} is not an equipment card an Intruder may take: covert-entry-kit, spy-camera or first-aid-kit (the Master Key is the Commander's)"
                        ))
                    })?;
                vec![e]
            }
        };
        chosen[k] = (weapons, equipment);
    }
    // One card of each in the box: no card for two agents.
    for (k, (ws, es)) in chosen.iter().enumerate() {
        for (j, (ws2, es2)) in chosen[..k].iter().enumerate() {
            let twice = ws
                .iter()
                .filter(|w| **w != Weapon::Knife)
                .find(|w| ws2.contains(w))
                .map(|w| w.to_string())
                .or_else(|| es.iter().find(|e| es2.contains(e)).map(|e| e.name().into()));
            if let Some(card) = twice {
                return Err(setup_error(format!(
                    "loadouts: the box has one {card} card, and both {} and {} would take it (name every agent's cards when you move one)",
                    agents[j].title(),
                    agents[k].title()
                )));
            }
        }
    }
    Ok(chosen)
}

/// The `covering_fire` option.
fn covering_fire(option: Option<&Value>) -> Result<state::CoveringFire, RuleError> {
    match option.and_then(|v| if v.is_null() { None } else { Some(v) }) {
        None => Ok(state::CoveringFire::Line),
        Some(v) => match v.as_str() {
            Some("line") => Ok(state::CoveringFire::Line),
            Some("any") => Ok(state::CoveringFire::Any),
            _ => Err(setup_error(format!(
                "covering_fire is \"line\" (targets on one straight line from the shooter) or \"any\" (each target in his LOS), not {v}"
            ))),
        },
    }
}

/// A Sentry's place at set-up: his label, square and ready facing.
type Place = (String, board::Sq, board::Dir);

/// The `sentries` option (manual, "Deploy your agents": "When you are more experienced, you may
/// deploy your Sentries in front of whichever doors you wish", placed "facing away from the door
/// they are guarding"; summary, "Doors": "Sentries may not be deployed on either side of" the
/// door between rooms 8 and 9). The Defender names, for any of his Sentries (a1, a2, b1 …), a
/// door or the square straight in front of one; a door alone means its corridor side, and a
/// door between two rooms needs the square. A Sentry not named keeps his post.
fn deploy_sentries(
    posts: Vec<Place>,
    commander: board::Sq,
    option: Option<&Value>,
) -> Result<Vec<Place>, RuleError> {
    let map = match option {
        None | Some(Value::Null) => return Ok(posts),
        Some(Value::Object(map)) => map,
        Some(v) => {
            return Err(setup_error(format!(
                "sentries must map Sentries to the doors they guard, like {{\"a1\": \"door-22\", \"a2\": \"q15\"}}, not {v}"
            )))
        }
    };
    let b = board();
    let labels = || {
        posts
            .iter()
            .map(|(l, _, _)| l.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let eight_and_nine = |door: &board::Door| {
        if door.unlocked {
            return Err(setup_error(format!(
                "sentries: no Sentry may be deployed on either side of {}, the door between rooms 8 and 9",
                door.id
            )));
        }
        Ok(())
    };
    let mut places = posts.clone();
    let mut guarded: Vec<(board::DoorId, &str)> = Vec::new();
    for (label, v) in map {
        let Some(k) = posts.iter().position(|(l, _, _)| l == label) else {
            return Err(setup_error(format!(
                "sentries: '{label}' is not a Sentry in this mission: {}",
                labels()
            )));
        };
        let Some(text) = v.as_str() else {
            return Err(setup_error(format!(
                "sentries: {label} must be given a door (door-N) or the square in front of one, not {v}"
            )));
        };
        let (door, sq) = if text.starts_with("door-") {
            let id = board::DoorId::parse(text).ok_or_else(|| {
                setup_error(format!(
                    "sentries: {label} — '{text}' is not a door: door-1 to door-{}",
                    b.doors.len()
                ))
            })?;
            let door = b.door(id);
            eight_and_nine(door)?;
            let inside: Vec<board::Sq> = door
                .sides
                .iter()
                .copied()
                .filter(|q| b.is_square(*q) && !b.is_entry(*q))
                .collect();
            let sq = match inside.as_slice() {
                [q] => *q,
                _ => match inside.iter().filter(|q| b.is_corridor(**q)).collect::<Vec<_>>()[..] {
                    [q] => *q,
                    _ => {
                        return Err(setup_error(format!(
                            "sentries: {label} — {id} stands between two rooms: name the square in front of it he guards, {} or {}",
                            door.sides[0], door.sides[1]
                        )))
                    }
                },
            };
            (door, sq)
        } else {
            let sq = board::Sq::parse(text).ok_or_else(|| {
                setup_error(format!(
                    "sentries: {label} — '{text}' is neither a door (door-N) nor a square of the stronghold"
                ))
            })?;
            let door = b
                .doors
                .iter()
                .find(|d| d.sides.contains(&sq))
                .ok_or_else(|| {
                    setup_error(format!(
                        "sentries: {label} — {sq} is not in front of a door: name a door, or a square straight through one"
                    ))
                })?;
            eight_and_nine(door)?;
            (door, sq)
        };
        if b.is_entry(sq) {
            return Err(setup_error(format!(
                "sentries: {label} — {sq} is in the entry zone, outside the stronghold"
            )));
        }
        if let Some((_, other)) = guarded.iter().find(|(d, _)| *d == door.id) {
            return Err(setup_error(format!(
                "sentries: {other} and {label} would both guard {}: one Sentry to a door",
                door.id
            )));
        }
        guarded.push((door.id, label));
        let at = board::Sq(door.at.0, door.at.1);
        places[k] = (label.clone(), sq, board::Dir::towards(at, sq));
    }
    for (k, (label, sq, _)) in places.iter().enumerate() {
        if *sq == commander {
            return Err(setup_error(format!(
                "sentries: {label} — {sq} is the Commander's square"
            )));
        }
        if let Some((other, _, _)) = places[..k].iter().find(|(_, q, _)| q == sq) {
            return Err(setup_error(format!(
                "sentries: {other} and {label} would both stand on {sq}: one Sentry to a square"
            )));
        }
    }
    Ok(places)
}

pub(super) fn setup(setup: &Setup, hidden: &mut DiceStream) -> Result<State, RuleError> {
    if setup.scenario != "mission" {
        return Err(setup_error(format!(
            "Hour of Glory has one scenario, 'mission', not '{}'",
            setup.scenario
        )));
    }
    let n = setup.seats.len();
    if !(2..=4).contains(&n) {
        return Err(setup_error(
            "Hour of Glory is played by 2 to 4: one Defender and 1-3 Intruders",
        ));
    }
    if let Some(obj) = setup.options.as_object() {
        if let Some(k) = obj.keys().find(|k| {
            ![
                "agents",
                "minutes",
                "loadouts",
                "covering_fire",
                "sentries",
                "entry",
            ]
            .contains(&k.as_str())
        }) {
            return Err(setup_error(format!(
                "unknown option '{k}': Hour of Glory knows 'agents', 'minutes', 'loadouts', 'covering_fire', 'sentries' and 'entry'"
            )));
        }
    }
    let agents: Vec<Agent> = match setup.options.get("agents") {
        None | Some(Value::Null) => Agent::ALL[..n - 1].to_vec(),
        Some(Value::Array(list)) => list
            .iter()
            .map(|v| {
                v.as_str().and_then(Agent::parse).ok_or_else(|| {
                    setup_error(format!("{v} is not an agent: harris, link or volkov"))
                })
            })
            .collect::<Result<_, _>>()?,
        Some(v) => return Err(setup_error(format!("agents must be a list, not {v}"))),
    };
    if agents.len() != n - 1 {
        return Err(setup_error(format!(
            "{} Intruder seats but {} agents named",
            n - 1,
            agents.len()
        )));
    }
    for (k, a) in agents.iter().enumerate() {
        if agents[..k].contains(a) {
            return Err(setup_error(format!("{} is named twice", a.title())));
        }
    }
    let minutes = match setup.options.get("minutes") {
        None | Some(Value::Null) => 60,
        Some(v) => v
            .as_i64()
            .filter(|m| (1..=100_000).contains(m))
            .ok_or_else(|| setup_error("minutes must be a whole number from 1 to 100000"))?
            as i32,
    };
    let loadouts = loadouts(&agents, setup.options.get("loadouts"))?;
    let covering_fire = covering_fire(setup.options.get("covering_fire"))?;
    let b = board();
    let entry = entry_squares(&agents, setup.options.get("entry"))?;
    let intruders = setup.seats[1..]
        .iter()
        .zip(&agents)
        .enumerate()
        .map(|(k, (seat, &agent))| {
            let (weapons, equipment) = loadouts[k].clone();
            Intruder {
                seat: seat.seat.clone(),
                agent,
                sq: Some(entry[k]),
                status: Status::Standing,
                mode: Mode::Raiding,
                selected: Weapon::Knife,
                weapons,
                equipment,
                intel: Vec::new(),
                inside: false,
                counterattack: true,
                sacrifice: false,
            }
        })
        .collect();
    let mut defenders = vec![Defender {
        kind: DefKind::Commander,
        label: "commander".into(),
        sq: Some(b.commander),
        status: Status::Standing,
        facing: board::Dir::North,
        ready: board::Dir::North,
        alert: None,
        first_turn: None,
        captured_intel: Vec::new(),
        captured_equipment: Vec::new(),
        captured_weapons: Vec::new(),
    }];
    // Manual, "Deploy your agents": A posts for 1 Intruder, A and B for 2, A, B and C for 3.
    let sets: &[char] = match n - 1 {
        1 => &['A'],
        2 => &['A', 'B'],
        _ => &['A', 'B', 'C'],
    };
    let mut counts: BTreeMap<char, usize> = BTreeMap::new();
    let posts = b
        .posts
        .iter()
        .filter(|p| sets.contains(&p.set))
        .map(|post| {
            let c = counts.entry(post.set).or_insert(0);
            *c += 1;
            (
                format!("{}{}", post.set.to_ascii_lowercase(), c),
                post.sq,
                post.facing,
            )
        })
        .collect();
    for (label, sq, facing) in deploy_sentries(posts, b.commander, setup.options.get("sentries"))? {
        defenders.push(Defender {
            kind: DefKind::Sentry,
            label,
            sq: Some(sq),
            status: Status::Standing,
            facing,
            ready: facing,
            alert: None,
            first_turn: None,
            captured_intel: Vec::new(),
            captured_equipment: Vec::new(),
            captured_weapons: Vec::new(),
        });
    }
    let cards = intel::shuffled(hidden);
    let rooms = (1..=10)
        .map(|r| RoomCard {
            room: r,
            card: Some(cards[r as usize - 1]),
            explored: false,
        })
        .collect();
    Ok(State {
        defender_seat: setup.seats[0].seat.clone(),
        intruders,
        defenders,
        doors_open: vec![false; b.doors.len()],
        markers: Vec::new(),
        rooms,
        minutes,
        start_minutes: minutes,
        alarm: false,
        asi_markers: 1,
        guards_in_box: 8,
        guards_mobilised: 0,
        round: 1,
        turn: Turn::Intruder(0),
        defender_counterattack: true,
        alert_side: state::Side::Left,
        covering_fire,
        ended: None,
    })
}
