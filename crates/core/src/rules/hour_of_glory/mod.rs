//! Hour of Glory (Warm Acre, 2004): a covert raid on a 1944 stronghold, one Defender against one
//! to three co-operating Intruders. The specification is the UniversalHead rules summary
//! (`../shared/seeds/001_…`); the manual's first half (`000_…`) adds the worked "Starting
//! play" rounds. Every rule, where it is enforced and tested, and every interpretation where the
//! texts are silent: docs/rules/hour-of-glory.md.
//!
//! Seats: the first seat is the Defender; the others are the Intruders in their permanent order
//! of play, playing Harris, Link and Volkov in that order unless the `agents` option names
//! others. A turn is one order; see `order` for the language.

pub mod agents;
pub mod board;
pub mod bot;
pub mod combat;
pub mod defender;
pub mod drawn;
pub mod guards;
pub mod intel;
pub mod intruder;
pub mod order;
pub mod pointing;
pub mod position;
pub mod senses;
pub mod skills;
pub mod state;
pub mod text_board;
pub mod view;

use std::cell::RefCell;
use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::engine::dice::DiceStream;
use crate::engine::ruleset::{
    BotRng, Ctx, OptionInfo, Outcome, Prompt, PromptKind, RuleError, Rules, RulesetInfo,
    ScenarioInfo, Seat, Setup, Viewer,
};
use agents::{profiles, Agent, DefKind, Mode, Weapon};
use board::{board, Sq};
use order::{Command, Standing};
use skills::{Live, Table};
use state::{Defender, Ending, Intruder, RoomCard, State, Status, Turn};

pub const ID: &str = "hour-of-glory";

pub struct HourOfGlory;

/// The orders' grammar in brief, for emails and pages.
pub const GRAMMAR: &str = "Intruder: clauses separated by ';' — assault [with <weapon>] · move <sq> <sq>… · sneak take-chance|spend-time · breach door-N [take-chance|spend-time] · open door-N · close door-N · spy [method] · sneak-attack <sq> · conceal <sq> [method] · coup-de-grace <sq> · fight <sq> · shoot <sq> [<sq> <sq>] [burst [range|attack]] · weapon <knife|handgun|smg|rifle> · hide · recover raiding|assault · pass · counterattack on|off · sacrifice on|off. Defender: commander move <sq>… · commander face n|e|s|w · commander open|close door-N · commander investigate <sq> · commander alarm [<sq>…] · commander fight|shoot <sq> · sentry <post> fight|shoot <sq> · guards chase <intruder> · guard <label> chase <intruder> · guard <label> move <sq>… · replace <sq> · counterattack on|off · alert-side left|right · pass";

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

impl HourOfGlory {
    fn advance(&self, s: &mut State) {
        let next = match s.turn {
            Turn::Intruder(i) => (i + 1..s.intruders.len()).find(|&j| active(&s.intruders[j])),
            Turn::Defender => None,
        };
        s.turn = match (s.turn, next) {
            (Turn::Intruder(_), Some(j)) => Turn::Intruder(j),
            (Turn::Intruder(_), None) => Turn::Defender,
            (Turn::Defender, _) => {
                s.round += 1;
                match (0..s.intruders.len()).find(|&j| active(&s.intruders[j])) {
                    Some(j) => Turn::Intruder(j),
                    None => Turn::Defender,
                }
            }
        };
    }

    /// Summary, "Winning the game"; manual, "Objective".
    fn settle(&self, s: &mut State) {
        if s.ended.is_some() {
            return;
        }
        let all_gone = !s.intruders.iter().any(active);
        if s.minutes > 0 && !all_gone {
            return;
        }
        let escaped: Vec<intel::Card> = s
            .intruders
            .iter()
            .filter(|a| a.status == Status::Escaped)
            .flat_map(|a| a.intel.iter().copied())
            .collect();
        let points = intel::score(&escaped);
        let needed = intel::needed(s.intruders.len());
        let win = points >= needed;
        let any_escaped = s.intruders.iter().any(|a| a.status == Status::Escaped);
        let aborted =
            !win && all_gone && any_escaped && s.minutes > 0 && s.start_minutes - s.minutes >= 30;
        let defender_points = if win {
            intel::DEFENDER_LOSES
        } else if aborted {
            intel::DEFENDER_ABORT
        } else {
            intel::DEFENDER_WINS
        };
        let summary = if win {
            format!("Mission accomplished: the Intruders escaped with {points} point(s) of intelligence (needed {needed})")
        } else if aborted {
            format!("The Intruders aborted with {points} point(s) (needed {needed}): the Defender wins with 6 points")
        } else if s.minutes <= 0 {
            format!("The Mission Timer reached zero: the Intruders escaped with {points} point(s) of {needed} needed; the Defender wins")
        } else {
            format!("No Intruder remains in the mission: {points} point(s) of {needed} needed; the Defender wins")
        };
        s.ended = Some(Ending {
            intruders_win: win,
            points,
            needed,
            defender_points,
            summary,
        });
    }

    /// Is it this seat's turn, with its side's kind of order, and standing choices its side
    /// may make?
    fn check_seat(&self, s: &State, seat: &Seat, command: &Command) -> Result<(), RuleError> {
        let (standing, is_intruder) = match command {
            Command::Intruder { standing, .. } => (standing, true),
            Command::Defender { standing, .. } => (standing, false),
        };
        let mine = match s.turn {
            Turn::Intruder(i) => is_intruder && &s.intruders[i].seat == seat,
            Turn::Defender => !is_intruder && &s.defender_seat == seat,
        };
        if !mine {
            return Err(RuleError::new(
                "turn order",
                format!("it is not {seat}'s turn, or that is the other side's kind of order"),
            ));
        }
        for st in standing {
            match (st, s.turn) {
                (Standing::AlertSide { .. }, Turn::Intruder(_)) => {
                    return Err(RuleError::new(
                        "Sentries",
                        "only the Defender places the Sentries' alert markers",
                    ))
                }
                (Standing::Sacrifice { .. }, Turn::Defender) => {
                    return Err(RuleError::new(
                        "Heroic sacrifice",
                        "only Intruders make an heroic sacrifice",
                    ))
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Sets the standing choices an order makes (checked by `check_seat`).
    fn set_standing(&self, s: &mut State, t: &mut dyn Table, seat: &Seat, standing: &[Standing]) {
        for st in standing {
            match (st, s.turn) {
                (Standing::Counterattack { on }, Turn::Intruder(i)) => {
                    s.intruders[i].counterattack = *on
                }
                (Standing::Sacrifice { on }, Turn::Intruder(i)) => s.intruders[i].sacrifice = *on,
                (Standing::Counterattack { on }, Turn::Defender) => s.defender_counterattack = *on,
                (Standing::AlertSide { side }, Turn::Defender) => s.alert_side = *side,
                _ => unreachable!("checked by check_seat"),
            }
            t.say(format_args!("{seat} sets {}", order::describe_standing(st)));
        }
    }

    /// Checks a whole order before any die is drawn, on `course`, a copy of the state that the
    /// check leaves at the order's planned end.
    fn check_command(
        &self,
        course: &mut State,
        seat: &Seat,
        command: &Command,
    ) -> Result<(), RuleError> {
        self.check_seat(course, seat, command)?;
        match (command, course.turn) {
            (Command::Intruder { standing, steps }, Turn::Intruder(i)) => {
                self.set_standing(course, &mut skills::Silent, seat, standing);
                if steps.is_empty() {
                    return Ok(());
                }
                intruder::check(course, i, steps)
            }
            (Command::Defender { standing, steps }, Turn::Defender) => {
                self.set_standing(course, &mut skills::Silent, seat, standing);
                if steps.is_empty() {
                    return Ok(());
                }
                defender::check(course, steps)
            }
            _ => unreachable!("checked by check_seat"),
        }
    }

    fn run_command(
        &self,
        s: &mut State,
        seat: &Seat,
        command: &Command,
        t: &mut dyn Table,
    ) -> order::Ran {
        if let Err(e) = self.check_seat(s, seat, command) {
            return Err((e, Vec::new()));
        }
        let ran = match (command, s.turn) {
            (Command::Intruder { standing, steps }, Turn::Intruder(i)) => {
                self.set_standing(s, t, seat, standing);
                if steps.is_empty() {
                    // Only standing choices: the turn is not used.
                    return Ok(None);
                }
                intruder::run(s, t, i, steps)
            }
            (Command::Defender { standing, steps }, Turn::Defender) => {
                self.set_standing(s, t, seat, standing);
                if steps.is_empty() {
                    return Ok(None);
                }
                defender::run(s, t, steps)
            }
            _ => unreachable!("checked by check_seat"),
        };
        if ran.is_ok() {
            self.advance(s);
        }
        // Summary, "Winning the game": "As soon as the Mission Timer reaches 0, the game ends"
        // — also when part of the order was refused in play after the minutes ran out.
        self.settle(s);
        ran
    }
}

fn active(a: &Intruder) -> bool {
    matches!(a.status, Status::Standing | Status::Unconscious)
}

impl Rules for HourOfGlory {
    type State = State;
    type Command = Command;

    fn id(&self) -> std::borrow::Cow<'static, str> {
        ID.into()
    }

    fn info(&self) -> RulesetInfo {
        RulesetInfo {
            id: ID.into(),
            // 2: a command's JSON is its text in the order language (`{"intruder": "move m21"}`);
            // the state keeps the alert-marker side and the covering-fire reading.
            // 3: an SMG burst designates its range dice once and re-rolls by the policy in the
            // order (`burst`, `burst attack`); a version-2 `shoot … burst` re-designated after
            // each re-roll, so its logs would fold differently.
            // 4: issue 19 — Guards' pursuit (the Defender's routes, doors opened from inside,
            // friends passed through, demobilising at the entrance), Sentries alerted whatever
            // the resist roll, engagement judged at the turn's start, REACT once a watch zone,
            // the timer floored at 0, the Sentry posts and Link's Ace: a version-3 log folds
            // differently.
            // 5: issue 19 — an order is checked clause by clause against the course its earlier
            // clauses plan, not played on a copy with favoured dice: the fold of every event is
            // unchanged, but two checks are stricter (a Guard's route is checked to its last
            // square, a replacement Commander's square before the Guards move), so a version-4
            // order that passed the old check could be refused by verify's re-check; the number
            // tells the two apart (docs/rules/hour-of-glory.md, Interpretation 25).
            version: "5".into(),
            title: "Hour of Glory — covert raid on a 1944 stronghold".into(),
            scenarios: vec![ScenarioInfo {
                id: "mission".into(),
                title: "The mission: the Defender (first seat) against 1-3 Intruders".into(),
                seats: Vec::new(),
                min_seats: 2,
                max_seats: 4,
                // Seat ids are the players' to choose; the first seat is the Defender (2.).
                roles: ["Defender", "Intruder 1", "Intruder 2", "Intruder 3"]
                    .map(String::from)
                    .to_vec(),
            }],
            options: vec![
                OptionInfo {
                    name: "agents".into(),
                    description: "the Intruders' agents in seat order (harris, link, volkov); by default Harris, Link, Volkov as the manual's first game".into(),
                    default: json!(null),
                    choices: Vec::new(),
                },
                OptionInfo {
                    name: "loadouts".into(),
                    description: "weapons and equipment chosen at set-up, e.g. {\"harris\": {\"weapons\": [\"smg\"], \"equipment\": \"first-aid-kit\"}}: firearms handgun, smg, rifle and one of covert-entry-kit, spy-camera, first-aid-kit, each card to one agent, the combat knife always; by default data/loadouts.txt (Harris handgun + Covert Entry Kit, Link SMG + Spy Camera, Volkov rifle + First Aid Kit)".into(),
                    default: json!(null),
                    choices: Vec::new(),
                },
                OptionInfo {
                    name: "covering_fire".into(),
                    description: "how SMG covering fire reads \"all targets in the same LOS\": \"line\" (default: on one straight line from the shooter) or \"any\" (each target in his LOS)".into(),
                    default: json!("line"),
                    choices: vec![json!("line"), json!("any")],
                },
                OptionInfo {
                    name: "sentries".into(),
                    description: "Sentries deployed in front of the doors the Defender chooses, facing away from them, e.g. {\"a1\": \"door-22\", \"a2\": \"q15\"}: a door (its corridor side) or the square straight in front of one, one Sentry to a door; not the door between rooms 8 and 9; Sentries not named keep their posts (the default)".into(),
                    default: json!(null),
                    choices: Vec::new(),
                },
                OptionInfo {
                    name: "entry".into(),
                    description: "the entry-zone square each Intruder starts on, e.g. {\"link\": \"m24\"}: one of l23, m23, n23, m24, one agent to a square; agents not named take the free squares in seat order".into(),
                    default: json!(null),
                    choices: Vec::new(),
                },
                OptionInfo {
                    name: "minutes".into(),
                    description: "minutes on the Mission Timer at the start (60 in the rules; a longer timer is a variant)".into(),
                    default: json!(60),
                    choices: Vec::new(),
                },
            ],
            grammar: GRAMMAR.into(),
        }
    }

    fn setup(&self, setup: &Setup, hidden: &mut DiceStream) -> Result<State, RuleError> {
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
        for (label, sq, facing) in
            deploy_sentries(posts, b.commander, setup.options.get("sentries"))?
        {
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

    fn prompts(&self, s: &State) -> Vec<Prompt> {
        if s.ended.is_some() {
            return Vec::new();
        }
        let (seat, decision) = match s.turn {
            Turn::Intruder(i) => {
                let a = &s.intruders[i];
                (
                    a.seat.clone(),
                    format!(
                        "Round {}, {} minutes left: your turn, one order for {} ({})",
                        s.round,
                        s.minutes,
                        a.agent.title(),
                        match (a.status, a.mode) {
                            (Status::Unconscious, _) => "unconscious",
                            (_, Mode::Raiding) => "raiding",
                            (_, Mode::Assault) => "assaulting",
                        }
                    ),
                )
            }
            Turn::Defender => (
                s.defender_seat.clone(),
                format!(
                    "Round {}, {} minutes left: the Defender's turn, one order for the Commander, Sentries and Guards",
                    s.round, s.minutes
                ),
            ),
        };
        vec![Prompt {
            options: bot::options(s),
            seat,
            kind: PromptKind::Turn,
            decision,
            pass_on_timeout: true,
        }]
    }

    /// The seat whose turn it is, as `prompts` says, without listing its legal orders.
    fn may_act(&self, s: &State, seat: &Seat) -> bool {
        s.ended.is_none()
            && match s.turn {
                Turn::Intruder(i) => &s.intruders[i].seat == seat,
                Turn::Defender => &s.defender_seat == seat,
            }
    }

    fn apply(
        &self,
        s: &mut State,
        seat: &Seat,
        command: &Command,
        ctx: &mut Ctx,
    ) -> Result<(), RuleError> {
        if let Some(e) = &s.ended {
            return Err(RuleError::new(
                "game over",
                format!("the game is over, no more orders: {}", e.summary),
            ));
        }
        // Check, then change: the whole order is checked before any die is drawn, each clause
        // by its own check against the state as the clauses before it will have left it — a
        // projected copy of the state on which each clause takes its planned outcome
        // (`skills::Course`). A refused order leaves no trace. An order re-folded from the
        // game's own log passed this check when it was played, and the check changes nothing
        // but the copy, so it is skipped then. The copy is kept for the next order (per
        // thread), whose check overwrites it in place.
        if !ctx.already_accepted() {
            thread_local! {
                static COURSE: RefCell<Option<State>> = const { RefCell::new(None) };
            }
            let mut course = match COURSE.with(|d| d.borrow_mut().take()) {
                Some(mut d) => {
                    d.copy_from(s);
                    d
                }
                None => s.clone(),
            };
            let checked = self.check_command(&mut course, seat, command);
            COURSE.with(|d| *d.borrow_mut() = Some(course));
            checked?;
        }
        let mut live = Live { ctx };
        // "Not carried out" names what was left: an order stopped after its last clause is
        // told as a line, not as an interruption with nothing in it.
        let (reason, rest) = match self.run_command(s, seat, command, &mut live) {
            Ok(None) => return Ok(()),
            Ok(Some((reason, rest))) => (reason, rest),
            Err((e, rest)) => (format!("{}: {}", e.rule, e.message), rest),
        };
        if rest.is_empty() {
            live.ctx.say(reason);
        } else {
            live.ctx.interrupt(reason, rest);
        }
        Ok(())
    }

    fn timeout(&self, s: &mut State, seat: &Seat, ctx: &mut Ctx) -> Result<(), RuleError> {
        let command = match s.turn {
            Turn::Intruder(_) => Command::Intruder {
                standing: Vec::new(),
                steps: vec![order::IStep::Pass],
            },
            Turn::Defender => Command::Defender {
                standing: Vec::new(),
                steps: vec![order::DStep::Pass],
            },
        };
        ctx.say(format!("{seat} missed the deadline: the turn passes"));
        self.apply(s, seat, &command, ctx)
    }

    fn resign(&self, s: &mut State, seat: &Seat, ctx: &mut Ctx) -> Result<(), RuleError> {
        if s.ended.is_some() {
            return Err(RuleError::new("game over", "the mission is over"));
        }
        if &s.defender_seat == seat {
            ctx.say("The Defender resigns: the Intruders win");
            s.ended = Some(Ending {
                intruders_win: true,
                points: 0,
                needed: intel::needed(s.intruders.len()),
                defender_points: intel::DEFENDER_LOSES,
                summary: "The Defender resigned".into(),
            });
            return Ok(());
        }
        let i = s
            .seat_intruder(seat)
            .ok_or_else(|| RuleError::new("seats", format!("{seat} is not in this game")))?;
        if !active(&s.intruders[i]) {
            return Err(RuleError::new(
                "resign",
                format!("{seat}'s agent is already out of the mission"),
            ));
        }
        let a = &mut s.intruders[i];
        a.status = Status::Dead;
        a.sq = None;
        ctx.say(format!(
            "{seat} resigns: {} leaves the mission",
            a.agent.title()
        ));
        if s.turn == Turn::Intruder(i) {
            self.advance(s);
        }
        self.settle(s);
        Ok(())
    }

    fn board(
        &self,
        s: &State,
        viewer: &Viewer,
        _: &crate::engine::ruleset::BoardContext,
    ) -> Option<crate::engine::board::Board> {
        Some(drawn::board(s, viewer))
    }

    fn pointing(&self, s: &State, seat: &Seat) -> Vec<crate::engine::board::Pointed> {
        pointing::pointing(s, seat)
    }

    fn board_text(&self, s: &State, viewer: &Viewer) -> Option<String> {
        Some(crate::rules::fit_for_mail(&text_board::text_board(
            s, viewer,
        )))
    }

    fn view(&self, s: &State, viewer: &Viewer) -> Value {
        view::view(s, viewer)
    }

    fn parse(&self, s: &State, seat: &Seat, text: &str) -> Result<Command, RuleError> {
        if &s.defender_seat == seat {
            order::parse_defender(text)
        } else {
            order::parse_intruder(text)
        }
    }

    fn describe(&self, command: &Command) -> String {
        order::describe(command)
    }

    fn outcome(&self, s: &State) -> Outcome {
        match &s.ended {
            None => Outcome::Running,
            Some(e) => {
                let mut scores = BTreeMap::new();
                scores.insert(s.defender_seat.to_string(), i64::from(e.defender_points));
                for a in &s.intruders {
                    scores.insert(a.seat.to_string(), i64::from(e.points));
                }
                let winners = if e.intruders_win {
                    s.intruders.iter().map(|a| a.seat.clone()).collect()
                } else {
                    vec![s.defender_seat.clone()]
                };
                Outcome::Finished {
                    winners,
                    scores,
                    summary: e.summary.clone(),
                }
            }
        }
    }

    fn position(
        &self,
        setup: &Setup,
        text: &str,
        hidden: &mut DiceStream,
    ) -> Result<crate::engine::position::Positioned<State>, crate::engine::position::PositionError>
    {
        position::read(self, setup, text, hidden)
    }

    fn position_format(&self) -> &'static str {
        position::FORMAT
    }

    fn random_command(&self, s: &State, seat: &Seat, rng: BotRng) -> Option<Command> {
        bot::random_command(s, seat, rng)
    }
}
