//! The state of a mission: where every agent stands and how, the doors, the markers, the
//! intelligence cards (face down until a room is explored), the Mission Timer and the Alert
//! State Indicator, and whose turn it is (summary, "Setup" and "Sequence of play").

use serde::{Deserialize, Serialize};

use super::agents::{profiles, Agent, DefKind, Equipment, Mode, Profile, Weapon};
use super::board::{board, Dir, DoorId, Room, Sq};
use super::intel::Card;
use crate::engine::ruleset::Seat;

/// Standing, unconscious (prone), dead, or gone out through the entrance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Standing,
    Unconscious,
    Dead,
    Escaped,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Intruder {
    pub seat: Seat,
    pub agent: Agent,
    /// `None` before set-up places him, and once he is dead or escaped.
    pub sq: Option<Sq>,
    pub status: Status,
    pub mode: Mode,
    /// The weapon on top of the stack (summary, "Weapons").
    pub selected: Weapon,
    pub weapons: Vec<Weapon>,
    pub equipment: Vec<Equipment>,
    pub intel: Vec<Card>,
    /// Has he been inside the stronghold (so may not re-enter the entry zone but to escape)?
    pub inside: bool,
    /// Standing choice: counterattack when he survives an attack conscious.
    pub counterattack: bool,
    /// Standing choice: an heroic sacrifice rather than a recovery that runs the timer out.
    pub sacrifice: bool,
}

impl Intruder {
    pub fn profile(&self) -> Profile {
        profiles().intruder(self.agent, self.mode)
    }
    pub fn standing(&self) -> bool {
        self.status == Status::Standing
    }
    pub fn is_assaulter(&self) -> bool {
        self.standing() && self.mode == Mode::Assault
    }
    pub fn in_stronghold(&self) -> bool {
        self.sq.is_some_and(|s| !board().is_entry(s))
            && matches!(self.status, Status::Standing | Status::Unconscious)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Defender {
    pub kind: DefKind,
    /// `commander`, `a1`, `g3`: the name the order language uses.
    pub label: String,
    pub sq: Option<Sq>,
    pub status: Status,
    pub facing: Dir,
    /// A Sentry's ready facing (away from the door he guards).
    pub ready: Dir,
    /// A Sentry's alert marker, where it lies.
    pub alert: Option<Sq>,
    /// Moves allowed on this agent's first turn instead of a roll (6 when mobilised in the
    /// entry zone), or 0 for "may not move or act" (a replacement Commander in a room).
    pub first_turn: Option<u8>,
    /// Cards and equipment the Commander took from an Intruder's corpse.
    pub captured_intel: Vec<Card>,
    pub captured_equipment: Vec<Equipment>,
    pub captured_weapons: Vec<Weapon>,
}

impl Defender {
    pub fn profile(&self) -> Profile {
        profiles().defender(self.kind)
    }
    pub fn standing(&self) -> bool {
        self.status == Status::Standing
    }
}

/// What a marker on the board is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum MarkerKind {
    Alert,
    /// A corpse: `of` names the dead (`a1`, `g2`, `commander`, `harris`).
    Corpse {
        of: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marker {
    pub sq: Sq,
    #[serde(flatten)]
    pub kind: MarkerKind,
    /// Equipment, weapons and intelligence an Intruder's corpse still holds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub intel: Vec<Card>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub equipment: Vec<Equipment>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub weapons: Vec<Weapon>,
}

impl Marker {
    pub fn new(sq: Sq, kind: MarkerKind) -> Marker {
        Marker {
            sq,
            kind,
            intel: Vec::new(),
            equipment: Vec::new(),
            weapons: Vec::new(),
        }
    }
}

/// The intelligence card of a room: face down until an Intruder first enters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomCard {
    pub room: Room,
    pub card: Option<Card>,
    pub explored: bool,
}

/// Whose turn it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "side", content = "index")]
pub enum Turn {
    Intruder(usize),
    Defender,
}

/// The side of a Sentry his alert marker moves to when the door it lay in front of is closed
/// (summary, "Sentries": "reposition the alert marker to the left or right of the Sentry as you
/// wish"): the Defender's standing choice, left as he faces unless he says otherwise.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    #[default]
    Left,
    Right,
}

/// How "all targets must be in the same LOS" of SMG covering fire is read (the `covering_fire`
/// option; docs/rules/hour-of-glory.md).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CoveringFire {
    /// The targets lie on one straight line from the shooter, and the fire sweeps along it: a
    /// target of the same covering fire does not block the line to the ones behind him.
    #[default]
    Line,
    /// Each target in the shooter's LOS, in any direction (a variant).
    Any,
}

/// How the mission ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ending {
    pub intruders_win: bool,
    pub points: u32,
    pub needed: u32,
    pub defender_points: u32,
    pub summary: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub defender_seat: Seat,
    pub intruders: Vec<Intruder>,
    pub defenders: Vec<Defender>,
    pub doors_open: Vec<bool>,
    pub markers: Vec<Marker>,
    pub rooms: Vec<RoomCard>,
    /// Minutes left on the Mission Timer.
    pub minutes: i32,
    pub start_minutes: i32,
    /// The ASI: alarm side up, and alert markers on its standby side.
    pub alarm: bool,
    pub asi_markers: u8,
    /// Guard figures not yet in play.
    pub guards_in_box: u8,
    pub guards_mobilised: u32,
    pub round: u32,
    pub turn: Turn,
    /// The Defender's standing choice: his agents counterattack when they can.
    pub defender_counterattack: bool,
    /// The Defender's standing choice: where a Sentry's alert marker goes when its door closes.
    #[serde(default)]
    pub alert_side: Side,
    /// The `covering_fire` option.
    #[serde(default)]
    pub covering_fire: CoveringFire,
    /// The minutes left when the last Intruder left, if all left alive.
    pub ended: Option<Ending>,
}

impl State {
    /// Deducts minutes from the Mission Timer, which never shows less than 0 (summary,
    /// "Winning the game": "As soon as the Mission Timer reaches 0, the game ends").
    pub fn take_minutes(&mut self, n: u32) {
        self.minutes = (self.minutes - n as i32).max(0);
    }

    pub fn door_open(&self, id: DoorId) -> bool {
        self.doors_open[id.index()]
    }

    /// The agent (of either side) standing or lying on a square.
    pub fn occupant(&self, sq: Sq) -> Option<Occupant> {
        if let Some(i) = self.intruders.iter().position(|a| {
            a.sq == Some(sq) && matches!(a.status, Status::Standing | Status::Unconscious)
        }) {
            return Some(Occupant::Intruder(i));
        }
        self.defenders
            .iter()
            .position(|d| {
                d.sq == Some(sq) && matches!(d.status, Status::Standing | Status::Unconscious)
            })
            .map(Occupant::Defender)
    }

    pub fn commander(&self) -> Option<usize> {
        self.defenders
            .iter()
            .position(|d| d.kind == DefKind::Commander && d.status != Status::Dead)
    }

    pub fn room_card(&self, room: Room) -> &RoomCard {
        &self.rooms[room as usize - 1]
    }

    pub fn assaulters_inside(&self) -> impl Iterator<Item = usize> + '_ {
        self.intruders
            .iter()
            .enumerate()
            .filter(|(_, a)| a.is_assaulter() && a.in_stronghold())
            .map(|(i, _)| i)
    }

    pub fn guards_in_play(&self) -> usize {
        self.defenders
            .iter()
            .filter(|d| {
                d.kind == DefKind::Guard
                    && matches!(d.status, Status::Standing | Status::Unconscious)
            })
            .count()
    }

    /// Guards standing or lying inside the stronghold (not in the entry zone).
    pub fn guards_in_stronghold(&self) -> usize {
        self.defenders
            .iter()
            .filter(|d| {
                d.kind == DefKind::Guard
                    && matches!(d.status, Status::Standing | Status::Unconscious)
                    && d.sq.is_some_and(|q| !board().is_entry(q))
            })
            .count()
    }

    pub fn seat_intruder(&self, seat: &Seat) -> Option<usize> {
        self.intruders.iter().position(|a| &a.seat == seat)
    }

    /// What the log calls `seat`: its role in the mission — "the Defender", "Intruder Harris" —
    /// not the id its player chose for it.
    pub fn role(&self, seat: &Seat) -> String {
        if &self.defender_seat == seat {
            return "the Defender".to_owned();
        }
        match self.seat_intruder(seat) {
            Some(i) => format!("Intruder {}", self.intruders[i].agent.title()),
            None => seat.to_string(),
        }
    }

    pub fn defender_by_label(&self, label: &str) -> Option<usize> {
        self.defenders
            .iter()
            .position(|d| d.label == label && d.status != Status::Dead)
    }

    /// Makes this state a copy of `src`, keeping the allocations it already has: every order is
    /// first checked on a copy of the state, and a copy into last order's copy allocates almost
    /// nothing. Every field is named, so a new field cannot be forgotten here.
    pub fn copy_from(&mut self, src: &State) {
        let State {
            defender_seat,
            intruders,
            defenders,
            doors_open,
            markers,
            rooms,
            minutes,
            start_minutes,
            alarm,
            asi_markers,
            guards_in_box,
            guards_mobilised,
            round,
            turn,
            defender_counterattack,
            alert_side,
            covering_fire,
            ended,
        } = src;
        copy_seat(&mut self.defender_seat, defender_seat);
        copy_vec(&mut self.intruders, intruders, Intruder::copy_from);
        copy_vec(&mut self.defenders, defenders, Defender::copy_from);
        self.doors_open.clone_from(doors_open);
        copy_vec(&mut self.markers, markers, Marker::copy_from);
        self.rooms.clone_from(rooms);
        self.minutes = *minutes;
        self.start_minutes = *start_minutes;
        self.alarm = *alarm;
        self.asi_markers = *asi_markers;
        self.guards_in_box = *guards_in_box;
        self.guards_mobilised = *guards_mobilised;
        self.round = *round;
        self.turn = *turn;
        self.defender_counterattack = *defender_counterattack;
        self.alert_side = *alert_side;
        self.covering_fire = *covering_fire;
        self.ended.clone_from(ended);
    }
}

fn copy_seat(to: &mut Seat, from: &Seat) {
    if to != from {
        *to = from.clone();
    }
}

/// `to.clone_from(from)`, element by element with `copy`.
fn copy_vec<T: Clone>(to: &mut Vec<T>, from: &[T], copy: fn(&mut T, &T)) {
    to.truncate(from.len());
    for (t, f) in to.iter_mut().zip(from) {
        copy(t, f);
    }
    let kept = to.len();
    to.extend_from_slice(&from[kept..]);
}

impl Intruder {
    fn copy_from(&mut self, src: &Intruder) {
        let Intruder {
            seat,
            agent,
            sq,
            status,
            mode,
            selected,
            weapons,
            equipment,
            intel,
            inside,
            counterattack,
            sacrifice,
        } = src;
        copy_seat(&mut self.seat, seat);
        self.agent = *agent;
        self.sq = *sq;
        self.status = *status;
        self.mode = *mode;
        self.selected = *selected;
        self.weapons.clone_from(weapons);
        self.equipment.clone_from(equipment);
        self.intel.clone_from(intel);
        self.inside = *inside;
        self.counterattack = *counterattack;
        self.sacrifice = *sacrifice;
    }
}

impl Marker {
    fn copy_from(&mut self, src: &Marker) {
        let Marker {
            sq,
            kind,
            intel,
            equipment,
            weapons,
        } = src;
        self.sq = *sq;
        match (&mut self.kind, kind) {
            (MarkerKind::Corpse { of: to }, MarkerKind::Corpse { of }) => to.clone_from(of),
            (to, from) => *to = from.clone(),
        }
        self.intel.clone_from(intel);
        self.equipment.clone_from(equipment);
        self.weapons.clone_from(weapons);
    }
}

impl Defender {
    fn copy_from(&mut self, src: &Defender) {
        let Defender {
            kind,
            label,
            sq,
            status,
            facing,
            ready,
            alert,
            first_turn,
            captured_intel,
            captured_equipment,
            captured_weapons,
        } = src;
        self.kind = *kind;
        self.label.clone_from(label);
        self.sq = *sq;
        self.status = *status;
        self.facing = *facing;
        self.ready = *ready;
        self.alert = *alert;
        self.first_turn = *first_turn;
        self.captured_intel.clone_from(captured_intel);
        self.captured_equipment.clone_from(captured_equipment);
        self.captured_weapons.clone_from(captured_weapons);
    }
}

/// Who occupies a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Occupant {
    Intruder(usize),
    Defender(usize),
}
