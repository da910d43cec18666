//! Positions set by hand, for `despatch replay` (docs/rules/hour-of-glory.md, "Positions
//! (despatch replay)"): the mission as set up, then one statement a line — the Mission Timer,
//! the round and whose turn, the ASI, doors, each agent where he stands and how, Guards
//! mobilised, markers, the face-down deal of intelligence cards to the rooms, what the
//! Commander took from Intruders' bodies, and each side's standing choices. Checked as a
//! set-up is: squares on the board, one agent a square, each card dealt once, each standing
//! choice one its side may make.

pub mod write;

use super::agents::{Agent, DefKind, Equipment, Mode, Weapon};
use super::board::{board, Dir, DoorId, Sq};
use super::intel::{self, Card, Colour, Country};
use super::order::{self, Standing};
use super::state::{Defender, Ending, Marker, MarkerKind, State, Status, Turn};
use super::HourOfGlory;
use crate::engine::dice::DiceStream;
use crate::engine::position::{flag, statements, unknown, PositionError, Positioned, Statement};
use crate::engine::ruleset::{Rules, Setup};

/// The statements, for `despatch replay --list`.
pub const FORMAT: &str = "\
timer <minutes>                    minutes left on the Mission Timer
round <n>
turn defender | turn <agent>       whose turn it is (harris, link, volkov)
alarm yes|no                       the ASI's alarm side up
asi <n>                            alert markers on the ASI's standby side
guards-in-box <n>                  Guard figures not yet in play
door <door-n> open|closed
intruder <agent> at <sq>|off [standing|unconscious|dead|escaped] [raiding|assault] [inside]
intruder <agent> weapons|equipment|intel: <card> ...   (weapons: the first is selected;
                                   none: a dead agent's, his body holds them)
intruder <agent> selected <weapon> the weapon on top of his stack
defender <label> at <sq>|off [standing|unconscious|dead] [facing <dir>] [ready <dir>]
         [alert <sq>|none] [first-turn <moves>|none]   (ready: a Sentry's ready facing;
                                   first-turn: a newly mobilised agent's first turn)
guard <label> at <sq> [facing <dir>] ...   a Guard mobilised from the box (g1, g2 ...);
                                   off escaped: one who demobilised at the entrance
marker alert <sq> | marker corpse <of> <sq> [: <card> ...]   (what the body holds)
room <n> <card>|none [explored]    the face-down deal: red-gb ... green-ussr, map
defender commander captured: <card> ...   what the Commander took from Intruders' bodies:
                                   intelligence cards, equipment, weapons
standing <agent>: counterattack on|off | sacrifice on|off   an Intruder's standing choices
standing defender: counterattack on|off | alert-side left|right   the Defender's
ended intruders|defender <points> <needed> <defender points>: <summary>   the mission is over";

const KNOWN: [&str; 14] = [
    "timer",
    "round",
    "turn",
    "alarm",
    "asi",
    "guards-in-box",
    "door",
    "intruder",
    "defender",
    "guard",
    "marker",
    "room",
    "standing",
    "ended",
];

fn card_name(card: Card) -> String {
    match card {
        Card::StrongholdMap => "map".into(),
        Card::Intel { colour, country } => {
            let c = match colour {
                Colour::Red => "red",
                Colour::Blue => "blue",
                Colour::Green => "green",
            };
            let n = match country {
                Country::Gb => "gb",
                Country::Usa => "usa",
                Country::Ussr => "ussr",
            };
            format!("{c}-{n}")
        }
    }
}

fn card(s: &Statement, w: &str) -> Result<Card, PositionError> {
    intel::deck()
        .into_iter()
        .find(|c| card_name(*c) == w)
        .ok_or_else(|| {
            s.error(format!(
                "'{w}' is not an intelligence card: {}",
                intel::deck()
                    .into_iter()
                    .map(card_name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })
}

fn square(s: &Statement, w: &str) -> Result<Sq, PositionError> {
    Sq::parse(w)
        .filter(|&q| board().is_square(q))
        .ok_or_else(|| {
            s.error(format!(
                "'{w}' is not a square of the stronghold (like m20)"
            ))
        })
}

fn dir(s: &Statement, w: &str) -> Result<Dir, PositionError> {
    Dir::parse(w).ok_or_else(|| s.error(format!("'{w}' is not a facing: north, east, south, west")))
}

/// Where a statement puts an agent: the square, the status, and the words left.
type Placed<'a> = (Option<Sq>, Option<Status>, Vec<&'a str>);

/// `at <sq>|off`, then `[status]` and the rest: the square, the status, and the words left.
fn place<'a>(s: &Statement<'a>, words: &[&'a str]) -> Result<Placed<'a>, PositionError> {
    let (sq, rest) = match words {
        ["at", q, rest @ ..] => (Some(square(s, q)?), rest),
        ["off", rest @ ..] => (None, rest),
        _ => return Err(s.error("write at <square> or off")),
    };
    let mut status = None;
    let mut left = Vec::new();
    for w in rest {
        match *w {
            "standing" => status = Some(Status::Standing),
            "unconscious" => status = Some(Status::Unconscious),
            "dead" => status = Some(Status::Dead),
            "escaped" => status = Some(Status::Escaped),
            w => left.push(w),
        }
    }
    Ok((sq, status, left))
}

/// A card a statement places leaves the room the set-up dealt it to (not one a `room` line
/// dealt: that is a card dealt twice, refused at the end).
fn take_from_dealt_rooms(st: &mut State, rooms_set: &[bool], c: Card) {
    for (room, set) in st.rooms.iter_mut().zip(rooms_set) {
        if !set && room.card == Some(c) {
            room.card = None;
        }
    }
}

/// `standing <agent>|defender: <choice>`: a standing choice in the order language, one the
/// side may make (summary, "Fighting": counterattack; "Recovery": the heroic sacrifice is an
/// Intruder's; "Sentries": the side of an alert marker is the Defender's).
fn standing(st: &mut State, s: &Statement) -> Result<(), PositionError> {
    let form = "standing <agent>|defender: counterattack on|off, sacrifice on|off (an Intruder) or alert-side left|right (the Defender)";
    let (head, clause) = s
        .text
        .split_once(':')
        .ok_or_else(|| s.error(format!("write {form}")))?;
    let head: Vec<&str> = head.split_whitespace().collect();
    let who = match head.as_slice() {
        ["standing", who] => *who,
        _ => return Err(s.error(format!("write {form}"))),
    };
    let words: Vec<&str> = clause.split_whitespace().collect();
    let choice = order::standing(&words)
        .ok_or_else(|| {
            s.error(format!(
                "'{}' is not a standing choice: write {form}",
                clause.trim()
            ))
        })?
        .map_err(|e| s.error(e.message))?;
    if who == "defender" {
        match choice {
            Standing::Counterattack { on } => st.defender_counterattack = on,
            Standing::AlertSide { side } => st.alert_side = side,
            Standing::Sacrifice { .. } => {
                return Err(s.error(
                    "the heroic sacrifice is an Intruder's choice (summary, \"Recovery\"): write standing <agent>: sacrifice on|off",
                ))
            }
        }
        return Ok(());
    }
    let agent = Agent::parse(who).ok_or_else(|| {
        s.error(format!(
            "'{who}' is neither the defender nor an agent: harris, link, volkov"
        ))
    })?;
    let x = st
        .intruders
        .iter_mut()
        .find(|x| x.agent == agent)
        .ok_or_else(|| s.error(format!("{who} is not in play in this mission")))?;
    match choice {
        Standing::Counterattack { on } => x.counterattack = on,
        Standing::Sacrifice { on } => x.sacrifice = on,
        Standing::AlertSide { .. } => {
            return Err(s.error(
                "the side of a Sentry's alert marker is the Defender's choice (summary, \"Sentries\"): write standing defender: alert-side left|right",
            ))
        }
    }
    Ok(())
}

/// `defender commander captured: <card> ...`: what the Commander took from Intruders' bodies
/// (summary, "Investigate": he takes everything a body held), each word an intelligence card,
/// an equipment card or a weapon.
fn captured(
    st: &mut State,
    s: &Statement,
    d: usize,
    rooms_set: &[bool],
) -> Result<(), PositionError> {
    if st.defenders[d].kind != DefKind::Commander {
        return Err(s.error(format!(
            "only the Commander takes what an Intruder's body held (summary, \"Investigate\"), not {}",
            st.defenders[d].label
        )));
    }
    let (intel, equipment, weapons) = items(s, s.after_colon().unwrap_or_default())?;
    for c in &intel {
        take_from_dealt_rooms(st, rooms_set, *c);
    }
    let x = &mut st.defenders[d];
    x.captured_intel = intel;
    x.captured_equipment = equipment;
    x.captured_weapons = weapons;
    Ok(())
}

/// Intelligence cards, equipment and weapons, a word each, as a body or the Commander holds them.
type Items = (Vec<Card>, Vec<Equipment>, Vec<Weapon>);

/// The words of `text` as [`Items`].
fn items(s: &Statement, text: &str) -> Result<Items, PositionError> {
    let (mut intel, mut equipment, mut weapons) = (Vec::new(), Vec::new(), Vec::new());
    for w in text.split_whitespace() {
        if let Some(e) = Equipment::parse(w) {
            equipment.push(e);
        } else if let Some(x) = Weapon::parse(w) {
            weapons.push(x);
        } else {
            let c = card(s, w).map_err(|_| {
                s.error(format!(
                    "'{w}' is neither an intelligence card (red-gb ... green-ussr, map), an equipment card ({}) nor a weapon (knife, handgun, smg, rifle)",
                    [Equipment::CovertEntryKit, Equipment::SpyCamera, Equipment::FirstAidKit, Equipment::MasterKey]
                        .map(Equipment::name)
                        .join(", ")
                ))
            })?;
            intel.push(c);
        }
    }
    Ok((intel, equipment, weapons))
}

/// The mission of `setup`, then the statements of `text`.
pub fn read(
    rules: &HourOfGlory,
    setup: &Setup,
    text: &str,
    hidden: &mut DiceStream,
) -> Result<Positioned<State>, PositionError> {
    let mut st = rules
        .setup(setup, hidden)
        .map_err(|e| PositionError::new(0, format!("the set-up: {e}")))?;
    // The line that last placed each square's agent, for the checks at the end.
    let mut lines: Vec<(Sq, usize)> = Vec::new();
    // The last line that placed an intelligence card, named when a card is in two places.
    let mut deal_line = 0;
    // The rooms a `room` line dealt; the others hold what the set-up dealt them.
    let mut rooms_set = vec![false; st.rooms.len()];
    // The line that gave a dead Defender's agent what he carries, for the check at the end.
    let mut captured_lines: Vec<(usize, usize)> = Vec::new();
    for s in statements(text) {
        let w = &s.words;
        match s.keyword() {
            "standing" => standing(&mut st, &s)?,
            "timer" => {
                s.expect_words(2, "timer <minutes>")?;
                st.minutes = s.number(1, "a number of minutes")?;
                if st.minutes < 0 || st.minutes > st.start_minutes {
                    return Err(s.error(format!(
                        "the Mission Timer shows 0 to {} minutes",
                        st.start_minutes
                    )));
                }
            }
            "round" => {
                s.expect_words(2, "round <n>")?;
                st.round = s.number(1, "a round number")?;
                if st.round == 0 {
                    return Err(s.error("rounds count from 1"));
                }
            }
            "turn" => {
                s.expect_words(2, "turn defender | turn <agent>")?;
                st.turn = match w[1] {
                    "defender" => Turn::Defender,
                    a => Turn::Intruder(
                        st.intruders
                            .iter()
                            .position(|i| i.agent.name() == a)
                            .ok_or_else(|| {
                                s.error(format!(
                                    "'{a}' is neither the defender nor an agent in play"
                                ))
                            })?,
                    ),
                };
            }
            "alarm" => {
                s.expect_words(2, "alarm yes|no")?;
                st.alarm = flag(&s, 1)?;
            }
            "asi" => {
                s.expect_words(2, "asi <n>")?;
                st.asi_markers = s.number(1, "a number of alert markers")?;
            }
            "guards-in-box" => {
                s.expect_words(2, "guards-in-box <n>")?;
                st.guards_in_box = s.number(1, "a number of Guards")?;
            }
            "door" => {
                s.expect_words(3, "door <door-n> open|closed")?;
                let id = DoorId::parse(w[1]).ok_or_else(|| {
                    s.error(format!(
                        "'{}' is not a door: door-1 to door-{}",
                        w[1],
                        board().doors.len()
                    ))
                })?;
                st.doors_open[id.index()] = match w[2] {
                    "open" => true,
                    "closed" => false,
                    x => return Err(s.error(format!("'{x}': a door is open or closed"))),
                };
            }
            "intruder" => {
                let a = s.word(1, "an agent")?.trim_end_matches(':');
                let agent = Agent::parse(a).ok_or_else(|| {
                    s.error(format!("'{a}' is not an agent: harris, link, volkov"))
                })?;
                let i = st
                    .intruders
                    .iter()
                    .position(|x| x.agent == agent)
                    .ok_or_else(|| s.error(format!("{a} is not in play in this mission")))?;
                let what = w.get(2).map(|x| x.trim_end_matches(':'));
                if what == Some("selected") {
                    s.expect_words(4, "intruder <agent> selected <weapon>")?;
                    st.intruders[i].selected = Weapon::parse(w[3]).ok_or_else(|| {
                        s.error(format!(
                            "'{}' is not a weapon: knife, handgun, smg, rifle",
                            w[3]
                        ))
                    })?;
                    continue;
                }
                if let Some(kind @ ("weapons" | "equipment" | "intel")) = what {
                    let cards = s.after_colon().unwrap_or_default().split_whitespace();
                    let x = &mut st.intruders[i];
                    match kind {
                        "weapons" => {
                            x.weapons = cards
                                .map(|c| {
                                    Weapon::parse(c).ok_or_else(|| {
                                        s.error(format!(
                                            "'{c}' is not a weapon: knife, handgun, smg, rifle"
                                        ))
                                    })
                                })
                                .collect::<Result<_, _>>()?;
                            match x.weapons.first() {
                                Some(&first) => x.selected = first,
                                // A dead agent's weapons lie on his body (its marker).
                                None if x.status == Status::Dead => {}
                                None => {
                                    return Err(s.error(
                                        "an agent holds a weapon at least (a dead one's lie on his body: marker corpse <of> <sq>: <weapon> ...)",
                                    ))
                                }
                            }
                        }
                        "equipment" => {
                            x.equipment = cards
                                .map(|c| {
                                    Equipment::parse(c).ok_or_else(|| {
                                        s.error(format!("'{c}' is not an equipment card"))
                                    })
                                })
                                .collect::<Result<_, _>>()?
                        }
                        _ => {
                            x.intel = cards.map(|c| card(&s, c)).collect::<Result<_, _>>()?;
                            deal_line = s.line;
                            let taken = x.intel.clone();
                            for c in taken {
                                take_from_dealt_rooms(&mut st, &rooms_set, c);
                            }
                        }
                    }
                    continue;
                }
                let (sq, status, rest) = place(&s, &w[2..])?;
                let x = &mut st.intruders[i];
                x.status = status.unwrap_or(Status::Standing);
                x.sq = sq;
                for r in rest {
                    match r {
                        "raiding" => x.mode = Mode::Raiding,
                        "assault" => x.mode = Mode::Assault,
                        "inside" => x.inside = true,
                        r => return Err(s.error(format!("'{r}' is not an agent's state"))),
                    }
                }
                if let Some(q) = sq {
                    x.inside |= !board().is_entry(q);
                }
                match (x.status, sq) {
                    (Status::Dead, Some(at)) => {
                        let mut m = Marker::new(at, MarkerKind::Corpse { of: a.into() });
                        m.intel = std::mem::take(&mut x.intel);
                        m.equipment = std::mem::take(&mut x.equipment);
                        m.weapons = std::mem::take(&mut x.weapons);
                        x.sq = None;
                        st.markers.push(m);
                    }
                    (Status::Escaped, Some(_)) => {
                        return Err(s.error("an agent who escaped is off the board: write off"))
                    }
                    (Status::Standing | Status::Unconscious, None) => {
                        return Err(s.error(
                            "an agent standing or unconscious is on a square: write at <square>",
                        ))
                    }
                    (_, Some(q)) => lines.push((q, s.line)),
                    _ => {}
                }
            }
            "defender" if w.get(2).map(|x| x.trim_end_matches(':')) == Some("captured") => {
                let label = w[1];
                let d = st
                    .defenders
                    .iter()
                    .position(|d| d.label == label)
                    .ok_or_else(|| s.error(format!("there is no defending agent '{label}'")))?;
                captured(&mut st, &s, d, &rooms_set)?;
                captured_lines.push((d, s.line));
                deal_line = s.line;
            }
            "defender" | "guard" => {
                let label = s.word(1, "a label (commander, a1, g1 ...)")?;
                let d = match st.defenders.iter().position(|d| d.label == label) {
                    Some(d) if s.keyword() == "defender" => d,
                    None if s.keyword() == "guard" => {
                        let n: u32 = label
                            .strip_prefix('g')
                            .and_then(|n| n.parse().ok())
                            .filter(|&n| n > 0)
                            .ok_or_else(|| s.error(format!("'{label}' is not a Guard's label: g1, g2 ...")))?;
                        if st.guards_in_box == 0 {
                            return Err(s.error("no Guard is left in the box to mobilise"));
                        }
                        st.guards_in_box -= 1;
                        st.guards_mobilised = st.guards_mobilised.max(n);
                        st.defenders.push(Defender {
                            kind: DefKind::Guard,
                            label: label.into(),
                            sq: None,
                            status: Status::Standing,
                            facing: Dir::North,
                            ready: Dir::North,
                            alert: None,
                            first_turn: None,
                            captured_intel: Vec::new(),
                            captured_equipment: Vec::new(),
                            captured_weapons: Vec::new(),
                        });
                        st.defenders.len() - 1
                    }
                    Some(_) => return Err(s.error(format!("{label} is in play already: write defender {label} ..."))),
                    None => {
                        return Err(s.error(format!(
                            "there is no defending agent '{label}'; in play: {} (a Guard from the box: guard g<n> at <sq>)",
                            st.defenders.iter().map(|d| d.label.as_str()).collect::<Vec<_>>().join(", ")
                        )))
                    }
                };
                let (sq, status, rest) = place(&s, &w[2..])?;
                let x = &mut st.defenders[d];
                x.status = status.unwrap_or(Status::Standing);
                x.sq = sq;
                let mut rest = rest.into_iter();
                while let Some(r) = rest.next() {
                    match r {
                        "facing" => {
                            x.facing = dir(&s, rest.next().unwrap_or_default())?;
                            if x.kind != DefKind::Sentry {
                                x.ready = x.facing;
                            }
                        }
                        "ready" => x.ready = dir(&s, rest.next().unwrap_or_default())?,
                        "alert" if x.kind == DefKind::Sentry => {
                            x.alert = match rest.next().unwrap_or_default() {
                                "none" => None,
                                q => Some(square(&s, q)?),
                            }
                        }
                        "first-turn" => {
                            x.first_turn = match rest.next().unwrap_or_default() {
                                "none" => None,
                                n => Some(n.parse().ok().filter(|&n: &u8| n <= 6).ok_or_else(|| {
                                    s.error(format!(
                                        "'{n}': a first turn allows 0 to 6 moves (0: may not move or act), or none"
                                    ))
                                })?),
                            }
                        }
                        r => return Err(s.error(format!("'{r}' is not a defending agent's state"))),
                    }
                }
                match (x.status, sq) {
                    (Status::Dead, Some(at)) => {
                        x.sq = None;
                        x.alert = None;
                        st.markers
                            .push(Marker::new(at, MarkerKind::Corpse { of: label.into() }));
                    }
                    // A Guard who reached the entrance demobilised: back in the box.
                    (Status::Escaped, None) if x.kind == DefKind::Guard => {}
                    (Status::Escaped, _) => {
                        return Err(s.error("a defending agent does not escape; write dead, or guard <label> off escaped for a Guard who demobilised at the entrance (back in the box)"))
                    }
                    (Status::Standing | Status::Unconscious, None) => {
                        return Err(s.error("an agent standing or unconscious is on a square: write at <square>"))
                    }
                    (_, Some(q)) => lines.push((q, s.line)),
                    _ => {}
                }
            }
            "marker" => {
                let (head, held) = match s.text.split_once(':') {
                    Some((head, held)) => (head, Some(held)),
                    None => (s.text, None),
                };
                let words: Vec<&str> = head.split_whitespace().collect();
                let mut m = match (&words[1..], held) {
                    (["alert", q], None) => Marker::new(square(&s, q)?, MarkerKind::Alert),
                    (["corpse", of, q], _) => Marker::new(
                        square(&s, q)?,
                        MarkerKind::Corpse {
                            of: (*of).to_owned(),
                        },
                    ),
                    _ => return Err(s.error("write marker alert <sq>, or marker corpse <of> <sq> [: <card> ...] (what the body holds)")),
                };
                if let Some(held) = held {
                    (m.intel, m.equipment, m.weapons) = items(&s, held)?;
                    for c in m.intel.clone() {
                        take_from_dealt_rooms(&mut st, &rooms_set, c);
                    }
                    deal_line = s.line;
                }
                st.markers.push(m);
            }
            "ended" => st.ended = Some(ended(&s)?),
            "room" => {
                let n: u8 = s.number(1, "a room number (1-10)")?;
                let r = st
                    .rooms
                    .iter()
                    .position(|r| r.room == n)
                    .ok_or_else(|| s.error(format!("there is no room {n}: rooms 1 to 10")))?;
                let c = match s.word(2, "a card or none")? {
                    "none" => None,
                    c => Some(card(&s, c)?),
                };
                let explored = match w.get(3) {
                    None => false,
                    Some(&"explored") if w.len() == 4 => true,
                    _ => return Err(s.error("write room <n> <card>|none [explored]")),
                };
                rooms_set[r] = true;
                if let Some(c) = c {
                    take_from_dealt_rooms(&mut st, &rooms_set, c);
                }
                st.rooms[r].card = c;
                st.rooms[r].explored = explored;
                deal_line = s.line;
            }
            _ => return Err(unknown(&s, &KNOWN)),
        }
    }
    // A dead Commander's captures lie on his corpse marker, as when he is killed.
    for &(d, line) in &captured_lines {
        let x = &mut st.defenders[d];
        if x.status != Status::Dead {
            continue;
        }
        let (intel, equipment, weapons) = (
            std::mem::take(&mut x.captured_intel),
            std::mem::take(&mut x.captured_equipment),
            std::mem::take(&mut x.captured_weapons),
        );
        let label = x.label.clone();
        let corpse = st
            .markers
            .iter_mut()
            .rev()
            .find(|m| matches!(&m.kind, MarkerKind::Corpse { of } if *of == label))
            .ok_or_else(|| {
                PositionError::new(
                    line,
                    format!("the {label} is dead and off the board, so what he took lies nowhere: write defender {label} at <square> dead, and his body holds it"),
                )
            })?;
        corpse.intel.extend(intel);
        corpse.equipment.extend(equipment);
        corpse.weapons.extend(weapons);
    }
    // Checked as a set-up is: one agent a square, each card once.
    let mut taken: Vec<Sq> = Vec::new();
    let squares = st
        .intruders
        .iter()
        .filter_map(|a| a.sq)
        .chain(st.defenders.iter().filter_map(|d| d.sq));
    for q in squares {
        if taken.contains(&q) {
            let line = lines.iter().rev().find(|(x, _)| *x == q).map_or(0, |l| l.1);
            return Err(PositionError::new(
                line,
                format!("{q} holds two agents; an agent stops only on an empty square"),
            ));
        }
        taken.push(q);
    }
    let mut cards: Vec<Card> = st.rooms.iter().filter_map(|r| r.card).collect();
    cards.extend(st.intruders.iter().flat_map(|a| a.intel.iter().copied()));
    cards.extend(st.markers.iter().flat_map(|m| m.intel.iter().copied()));
    cards.extend(
        st.defenders
            .iter()
            .flat_map(|d| d.captured_intel.iter().copied()),
    );
    cards.sort();
    if let Some(w) = cards.windows(2).find(|w| w[0] == w[1]) {
        return Err(PositionError::new(
            deal_line,
            format!(
                "the card {} is dealt twice; each card is in one place",
                card_name(w[0])
            ),
        ));
    }
    if let (Turn::Intruder(i), None) = (st.turn, &st.ended) {
        if !matches!(
            st.intruders[i].status,
            Status::Standing | Status::Unconscious
        ) {
            return Err(PositionError::new(
                0,
                format!(
                    "it cannot be {}'s turn: he is out of the mission",
                    st.intruders[i].agent.name()
                ),
            ));
        }
    }
    Ok(Positioned::new(st))
}

/// `ended intruders|defender <points> <needed> <defender points>: <summary>`: how the mission
/// ended (summary, "Winning the game").
fn ended(s: &Statement) -> Result<Ending, PositionError> {
    let form = "ended intruders|defender <points> <needed> <defender points>: <summary>";
    let (head, summary) = s
        .text
        .split_once(':')
        .ok_or_else(|| s.error(format!("write {form}")))?;
    let words: Vec<&str> = head.split_whitespace().collect();
    let summary = summary.trim();
    if words.len() != 5 || summary.is_empty() {
        return Err(s.error(format!("write {form}")));
    }
    let intruders_win = match words[1] {
        "intruders" => true,
        "defender" => false,
        w => return Err(s.error(format!("'{w}': the intruders or the defender won"))),
    };
    let number = |i: usize, what: &str| -> Result<u32, PositionError> {
        words[i]
            .parse()
            .map_err(|_| s.error(format!("'{}' is not {what}", words[i])))
    };
    Ok(Ending {
        intruders_win,
        points: number(2, "a number of points")?,
        needed: number(3, "the points needed")?,
        defender_points: number(4, "the Defender's points")?,
        summary: summary.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ruleset::SeatDef;
    use serde_json::json;

    fn read_in(text: &str) -> Result<State, PositionError> {
        let setup = Setup {
            game_id: "t".into(),
            scenario: "mission".into(),
            options: json!({}),
            seats: SeatDef::named_by_id(&["defender", "harris"]).unwrap(),
        };
        let mut hidden = crate::engine::dice::hidden_stream(&[0; 32], "t", 0);
        read(&HourOfGlory, &setup, text, &mut hidden).map(|p| p.state)
    }

    fn refused(text: &str, line: usize, says: &str) {
        let e = read_in(text).expect_err("refused");
        assert_eq!(e.line, line, "{e}");
        assert!(e.message.contains(says), "{e}");
    }

    #[test]
    fn selected_sets_the_weapon_on_top_of_an_intruders_stack() {
        let s = read_in("intruder harris weapons: handgun knife\nintruder harris selected knife")
            .unwrap();
        assert_eq!(s.intruders[0].selected, Weapon::Knife);
        refused(
            "round 2\nintruder harris selected pike",
            2,
            "'pike' is not a weapon",
        );
        refused(
            "intruder harris selected",
            1,
            "write intruder <agent> selected <weapon>",
        );
    }

    #[test]
    fn a_dead_intruder_holds_no_weapon_and_a_living_one_does() {
        let s =
            read_in("turn defender\nintruder harris off dead\nintruder harris weapons:").unwrap();
        assert!(s.intruders[0].weapons.is_empty());
        refused(
            "intruder harris weapons:",
            1,
            "an agent holds a weapon at least",
        );
    }

    #[test]
    fn a_defending_agent_states_his_ready_facing_alert_marker_and_first_turn() {
        let s = read_in(
            "guard g1 at m19 facing west ready east first-turn 6\n\
             defender a1 at r20 facing south ready north alert none first-turn none",
        )
        .unwrap();
        let g1 = s.defenders.iter().find(|d| d.label == "g1").unwrap();
        assert_eq!(
            (g1.facing, g1.ready, g1.first_turn),
            (Dir::West, Dir::East, Some(6))
        );
        let a1 = s.defenders.iter().find(|d| d.label == "a1").unwrap();
        assert_eq!(
            (a1.facing, a1.ready, a1.alert),
            (Dir::South, Dir::North, None)
        );
        refused(
            "guard g1 at m19 first-turn 7",
            1,
            "'7': a first turn allows 0 to 6 moves",
        );
        refused(
            "round 2\ndefender a1 at r20 ready up",
            2,
            "'up' is not a facing",
        );
        refused("defender a1 at r20 alert zz99", 1, "'zz99' is not a square");
    }

    #[test]
    fn a_guard_who_demobilised_is_off_and_escaped_and_no_other_defender_escapes() {
        let s = read_in("guard g1 off escaped\nguards-in-box 8").unwrap();
        let g1 = s.defenders.iter().find(|d| d.label == "g1").unwrap();
        assert_eq!((g1.sq, g1.status), (None, Status::Escaped));
        assert_eq!((s.guards_in_box, s.guards_mobilised), (8, 1));
        refused(
            "guard g1 at m19 escaped",
            1,
            "a defending agent does not escape",
        );
        refused(
            "round 2\ndefender a1 off escaped",
            2,
            "guard <label> off escaped",
        );
    }

    #[test]
    fn a_corpse_marker_states_what_the_body_holds() {
        let s = read_in("marker corpse harris q20: red-gb smg spy-camera").unwrap();
        let m = &s.markers[0];
        assert_eq!(m.weapons, [Weapon::Smg]);
        assert_eq!(m.equipment, [Equipment::SpyCamera]);
        assert_eq!(m.intel.len(), 1);
        refused(
            "marker alert q20: smg",
            1,
            "write marker alert <sq>, or marker corpse",
        );
        refused(
            "marker corpse harris q20: pike",
            1,
            "'pike' is neither an intelligence card",
        );
    }

    #[test]
    fn ended_states_how_the_mission_ended_and_frees_the_turn_of_a_dead_intruder() {
        let s = read_in(
            "intruder harris off dead\nturn harris\n\
             ended defender 0 3 6: No Intruder remains in the mission",
        )
        .unwrap();
        let e = s.ended.unwrap();
        assert_eq!(
            (e.intruders_win, e.points, e.needed, e.defender_points),
            (false, 0, 3, 6)
        );
        assert_eq!(e.summary, "No Intruder remains in the mission");
        refused("ended defender 0 3 6", 1, "write ended intruders|defender");
        refused(
            "ended nobody 0 3 6: x",
            1,
            "'nobody': the intruders or the defender won",
        );
        refused("ended defender 0 x 6: x", 1, "'x' is not the points needed");
        refused(
            "intruder harris off dead\nturn harris",
            0,
            "it cannot be harris's turn",
        );
    }
}
