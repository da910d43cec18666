//! The orders a seat may give now, each played on a copy of the state and listed only if the
//! rules accept it: one list, as For Honor and Glory's `bot::legal_actions`, from which the
//! prompts take their examples, the bot picks and pointing offers (`pointing`).
//!
//! Where listing every order is too many, the list is of representative ones: a move is one
//! hex next to the unit (the player goes on hex by hex), a check's passing faces are the
//! thresholds `pass 0` … `pass 0-8`, a fire names what the engine knows and leaves the CRT's
//! facts to the player. Placing a counter the map does not hold yet (decision 12: its first
//! move) is the player's: any counter, any hex, so it is not listed.
//!
//! Imports: the data and state below it, the chapters' read-only checks it asks before trying
//! an order (`command`, `activity`, `specials`, `offmap`, `chits`, `events`), `waiting` for
//! whose decision it is, and the engine's `Rules` contract to try the orders on.

use std::collections::BTreeSet;

use crate::engine::dice::hidden_stream;
use crate::engine::ruleset::{Ctx, DiceSource, Rules, Seat};

use super::activity;
use super::chits;
use super::command;
use super::data::{ChitKind, DATA, TURNS};
use super::events;
use super::hex::Hex;
use super::offmap;
use super::oob::{Class, OOB};
use super::order::{self, Command, CLASSES, RESULTS};
use super::specials;
use super::state::{OffMap, Phase, Side, State};
use super::supply;
use super::waiting::waiting;
use super::window::Window;

/// The highest of the passing-face thresholds a check offers: `pass 0`, `pass 0-1` …
/// `pass 0-8` (decision 14: the faces are the series' TQ or the firer's, the player's to choose;
/// `pass 0-9` would pass on any face and is written if meant).
pub const MOST_FACES: u32 = 8;

/// The passing faces of a prompt's example check.
const EXAMPLE_FACES: u32 = 5;

/// How many orders of one kind a prompt's examples try before giving that kind up.
const EXAMPLE_TRIES: usize = 12;

/// How many orders a window's prompt shows at most (and its pass).
const MAX_EXAMPLES: usize = 12;

/// How far from a unit the bot's list looks for enemy hexes to fire at.
const UNIT_REACH: u32 = 3;

/// A legal order, and what a player points at on the drawn board to give it: a piece (a unit,
/// or a marker named as the board names it) and a hex.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Legal {
    pub command: Command,
    pub point: Option<(String, Hex)>,
}

/// How much of the list is wanted.
#[derive(Debug, Clone, Copy)]
pub enum Reach<'a> {
    /// Every order listed: each unit's one-hex moves, its fires at each enemy hex …
    Every,
    /// One order of each kind (its first word): a prompt's examples.
    Examples,
    /// The orders of one unit on the map (its fires at the enemy within a few hexes), and those
    /// of no unit: the bot, a unit at a time.
    Unit(&'a str),
    /// What the drawn board offers by pointing: units in the window, hexes drawn.
    Drawn {
        window: &'a Window,
        drawn: &'a BTreeSet<Hex>,
    },
}

/// The orders `side` may give now, as much of the list as `reach` asks, each tried by `rules`
/// on a copy of `s`.
pub fn orders<R>(rules: &R, s: &State, side: Side, reach: Reach) -> Vec<Legal>
where
    R: Rules<State = State, Command = Command>,
{
    if waiting(s).is_none_or(|w| w.side != side) {
        return Vec::new();
    }
    let mut l = Lister {
        rules,
        s,
        side,
        seat: side.seat(),
        reach,
        out: Vec::new(),
        tries: Default::default(),
    };
    if let Reach::Drawn { .. } = reach {
        // Pointing: the board's orders in whatever the game waits for; the rules say which.
        if s.phase == Phase::Activation {
            l.board(Board::All);
        }
        return l.out;
    }
    match &s.phase {
        Phase::Over => {}
        Phase::Raids { day } => {
            for real in [true, false] {
                l.offer(
                    Command::Raid {
                        day: *day,
                        real: Some(real),
                    },
                    None,
                );
            }
        }
        Phase::Plans { next } => l.plans(*next, false),
        Phase::Replan { next } => l.plans(*next, true),
        Phase::Weather => {
            l.offer(Command::Weather, None);
        }
        Phase::Fog => {
            l.offer(Command::Fog, None);
        }
        Phase::AirDrop { candidates } | Phase::SupplyDrop { candidates } => {
            for c in candidates {
                l.offer(
                    Command::AirDrop {
                        at: Some(TURNS[*c].to_owned()),
                    },
                    None,
                );
            }
            l.dz_change();
        }
        Phase::Huber => {
            for d in ["59th", "chill"] {
                l.offer(
                    Command::Huber {
                        division: Some(d.into()),
                    },
                    None,
                );
            }
        }
        Phase::Route => {
            l.offer(Command::Route { path: Vec::new() }, None);
        }
        Phase::Release => {
            let have = super::release::next(s)
                .and_then(|e| e.dp.as_ref())
                .map_or(0, |d| s.dp.get(d).copied().unwrap_or(0).min(4));
            for dp in 0..=have {
                l.offer(Command::Release { dp }, None);
            }
        }
        Phase::OffMap => l.off_map(),
        Phase::Buy { .. } => l.buy(),
        Phase::Activation => l.activation(),
    }
    l.out
}

/// Which of the board's orders to try.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Board {
    /// Every kind (the impulse, and pointing whatever the game waits for).
    All,
    /// The fires of the opportunity fire window.
    Fires,
    /// The markers' orders (the demolition window).
    Markers,
}

struct Lister<'a, R> {
    rules: &'a R,
    s: &'a State,
    side: Side,
    seat: Seat,
    reach: Reach<'a>,
    out: Vec<Legal>,
    /// The orders of each kind tried (for the examples).
    tries: std::collections::BTreeMap<String, usize>,
}

impl<R> Lister<'_, R>
where
    R: Rules<State = State, Command = Command>,
{
    /// Does the rules accept `c` now? Played on a copy, no die drawn (each reads 1); a sealed
    /// order as the server would send it, sealed. Pointing tries with no hidden draws, as the
    /// page's order is then played for real.
    fn accepted(&self, c: &Command) -> bool {
        let mut copy = self.s.clone();
        let sealed = self.rules.seal(c).is_some();
        let mut hidden = hidden_stream(&[0; 32], "legal", 0);
        let hidden = match self.reach {
            Reach::Drawn { .. } => None,
            _ => Some(&mut hidden),
        };
        let mut ctx = Ctx::new(DiceSource::None, hidden)
            .with_commitment(sealed.then(|| "legal".to_owned()))
            .quiet();
        self.rules.apply(&mut copy, &self.seat, c, &mut ctx).is_ok()
    }

    /// Whether the examples have enough: in the impulse and the opportunity fire window, an
    /// order of `c`'s kind already (or its kind given up); in another window, as many as a
    /// prompt shows. A pass or the end of the impulse is always listed.
    fn enough(&self, c: &Command) -> bool {
        if !matches!(self.reach, Reach::Examples) || matches!(c, Command::Pass | Command::End) {
            return false;
        }
        if plain_impulse(self.s) || self.s.window.is_some() {
            let verb = verb(c);
            return self.out.iter().any(|l| verb_of(&l.command) == verb)
                || self.tries.get(&verb).is_some_and(|n| *n >= EXAMPLE_TRIES);
        }
        self.out.len() >= MAX_EXAMPLES || self.tries.values().sum::<usize>() >= 4 * MAX_EXAMPLES
    }

    fn tried(&mut self, c: &Command) {
        if matches!(self.reach, Reach::Examples) {
            *self.tries.entry(verb(c)).or_default() += 1;
        }
    }

    /// Lists `c` if the rules accept it. Returns whether they did.
    fn offer(&mut self, c: Command, point: Option<(String, Hex)>) -> bool {
        if self.enough(&c) {
            return false;
        }
        self.tried(&c);
        if self.accepted(&c) {
            self.out.push(Legal { command: c, point });
            return true;
        }
        false
    }

    /// A check: accepted once (the faces are not checked before the die), then each
    /// threshold; the examples' one threshold.
    fn check(&mut self, piece: &str, cell: Hex, make: &dyn Fn(Vec<u32>) -> Command) {
        let point = Some((piece.to_owned(), cell));
        if matches!(self.reach, Reach::Examples) {
            self.offer(make((0..=EXAMPLE_FACES).collect()), point);
            return;
        }
        let all = make((0..=MOST_FACES).collect());
        self.tried(&all);
        if self.accepted(&all) {
            for n in 0..=MOST_FACES {
                self.out.push(Legal {
                    command: make((0..=n).collect()),
                    point: point.clone(),
                });
            }
        }
    }

    /// Is the unit `name` at `at` one this listing looks at?
    fn unit_in(&self, name: &str, at: Hex) -> bool {
        match self.reach {
            Reach::Drawn { window, .. } => window.contains(at),
            Reach::Unit(u) => u == name,
            Reach::Every | Reach::Examples => true,
        }
    }

    /// Is `h` a hex this listing points at?
    fn cell_in(&self, h: Hex) -> bool {
        match self.reach {
            Reach::Drawn { drawn, .. } => drawn.contains(&h),
            _ => true,
        }
    }

    /// Is a marker at `h` one this listing looks at?
    fn marker_in(&self, h: Hex) -> bool {
        match self.reach {
            Reach::Drawn { window, .. } => window.contains(h),
            _ => true,
        }
    }

    /// The side's impulse, no window open: what the rules ask of the unit that takes an action
    /// before anything else (S6.5, S6.6 activation, one action, KG Huber, off the map), asked
    /// here without a copy. Anywhere else the copy decides.
    fn may_take_action(&self, unit: &str) -> bool {
        let s = self.s;
        !plain_impulse(s)
            || (command::check_active(s, self.side, unit).is_ok()
                && activity::check(s, unit).is_ok()
                && specials::check_huber_unit(s, unit).is_ok()
                && offmap::check_unit_on_map(s, unit).is_ok())
    }

    /// Free drop plans (3.3.2, 3.6): every airborne Formation in a zone of its own and the
    /// 101st's Independent Formation with one of them, the Formations and zones paired in
    /// turn; never a plan opened before (the secrecy check would take it for a leak).
    fn plans(&mut self, next: u8, independent_first: bool) {
        let formations = airborne_formations();
        let zones: Vec<&str> = DATA.zones.keys().map(String::as_str).collect();
        let n = formations.len().max(1);
        for k in 0..formations.len().max(1) {
            let first = usize::from(next) - 1 + k;
            let mut sticks: Vec<String> = (0..formations.len().min(zones.len()))
                .map(|i| {
                    format!(
                        "{}:{}",
                        formations[(first + i) % n],
                        zones[(k + i) % zones.len()]
                    )
                })
                .collect();
            if let Some((_, z)) = sticks.first().and_then(|s| s.split_once(':')) {
                let ind = format!("ind-101:{z}");
                if independent_first {
                    sticks.insert(0, ind);
                } else {
                    sticks.push(ind);
                }
            }
            if self
                .s
                .drops
                .iter()
                .any(|d| d.plan.as_ref() == Some(&sticks))
            {
                continue;
            }
            self.offer(
                Command::Plan {
                    drop: next,
                    sticks: Some(sticks),
                },
                None,
            );
        }
    }

    /// 3.6: the change of drop location, where it may be asked.
    fn dz_change(&mut self) {
        if self.side != Side::Allied {
            return;
        }
        if let Some(Ok(c)) = super::dz_option(self.s).map(|t| order::parse(&t)) {
            self.offer(c, None);
        }
    }

    /// 5.1: each off-map formation to a box by its private number, a few ways.
    fn off_map(&mut self) {
        let s = self.s;
        let numbers: Vec<(&String, Vec<u32>)> = s
            .numbering
            .iter()
            .map(|(f, list)| {
                let all = 1..=list.len() as u32;
                let legal = match s.offmap.get(f) {
                    Some(OffMap::Box(from)) => {
                        let display = DATA.offmap.display_of(f).unwrap_or_default();
                        all.filter(|n| {
                            offmap::legal(s, display, from, &list[*n as usize - 1]).is_ok()
                        })
                        .collect()
                    }
                    _ => all.collect(),
                };
                (f, legal)
            })
            .collect();
        let mut seen = BTreeSet::new();
        for k in 0..3 {
            let moves: Vec<(String, u32)> = numbers
                .iter()
                .enumerate()
                .filter(|(_, (_, legal))| !legal.is_empty())
                .map(|(i, (f, legal))| ((*f).clone(), legal[(k + i) % legal.len()]))
                .collect();
            if seen.insert(moves.clone()) {
                self.offer(Command::OffMap { moves }, None);
            }
        }
    }

    /// Step 6: no chit, each chit the side can pay for, and two at a time.
    fn buy(&mut self) {
        let can = chits::buyable(self.s, self.side);
        self.offer(Command::Buy { chits: Vec::new() }, None);
        for c in &can {
            self.offer(
                Command::Buy {
                    chits: vec![(*c).to_owned()],
                },
                None,
            );
        }
        if matches!(self.reach, Reach::Every | Reach::Unit(_)) {
            for (i, a) in can.iter().enumerate() {
                for b in &can[i + 1..] {
                    self.offer(
                        Command::Buy {
                            chits: vec![(*a).to_owned(), (*b).to_owned()],
                        },
                        None,
                    );
                }
            }
        }
        self.dz_change();
    }

    /// Step 9: the window that answers first, else the impulse.
    fn activation(&mut self) {
        let s = self.s;
        if let Some(p) = &s.pending {
            for class in RESULTS {
                self.offer(
                    Command::Result {
                        class: (*class).into(),
                        target: None,
                    },
                    None,
                );
            }
            if !matches!(self.reach, Reach::Examples) {
                // The unit struck named (a Bailey, a ferry's engineer).
                let struck: Vec<String> = s
                    .units
                    .iter()
                    .filter(|(_, u)| u.hex == p.hex)
                    .map(|(n, _)| n.clone())
                    .collect();
                for class in RESULTS {
                    for t in &struck {
                        self.offer(
                            Command::Result {
                                class: (*class).into(),
                                target: Some(t.clone()),
                            },
                            None,
                        );
                    }
                }
            }
        } else if let Some(d) = &s.demolition {
            for b in &d.bridges {
                for fire_zone in [false, true] {
                    self.offer(
                        Command::Demolish {
                            bridge: b.clone(),
                            fire_zone,
                        },
                        None,
                    );
                }
            }
            self.offer(Command::Pass, None);
        } else if s.rout().is_some() {
            self.rout();
            self.offer(Command::Pass, None);
        } else if let Some(r) = s.routing() {
            for u in &r.units {
                self.moves(u, false);
                if let Some(at) = s.units.get(u).map(|x| x.hex) {
                    self.offer(Command::Entrench { unit: u.clone() }, Some((u.clone(), at)));
                }
            }
            self.offer(Command::Pass, None);
        } else if s.mann.is_some() {
            self.offer(Command::JoeMann, None);
            self.offer(Command::Pass, None);
        } else if let Some(lost) = s.lost() {
            self.moves(lost, false);
            self.offer(Command::Pass, None);
        } else if let Some((_, event)) = s.placing() {
            self.place(event);
            self.offer(Command::Pass, None);
        } else if s.intelligence().is_some() {
            let side = self.side;
            for d in DATA
                .divisions
                .iter()
                .filter(|d| d.side == side && supply::in_play(s, &d.id))
            {
                self.offer(
                    Command::Intelligence {
                        division: d.id.clone(),
                    },
                    None,
                );
            }
        } else if s.status_window() {
            self.offer(Command::Status, None);
            self.offer(Command::Pass, None);
        } else if s.window.is_some() {
            self.board(Board::Fires);
            self.offer(Command::Pass, None);
        } else {
            self.impulse();
        }
    }

    /// The impulse: the board's orders, then those of no piece.
    fn impulse(&mut self) {
        let s = self.s;
        // 3.4, 3.4.1: a dropped unit rolls before any other Action.
        for unit in &s.drop_awaiting {
            let Some(at) = s.units.get(unit).map(|u| u.hex) else {
                continue;
            };
            if !self.unit_in(unit, at) || !self.may_take_action(unit) {
                continue;
            }
            let glider = OOB.unit(unit).is_some_and(|u| u.glider && !u.para);
            for (zone, _) in DATA.zones.iter().filter(|(_, (_, h))| h.contains(&at)) {
                self.offer(
                    Command::DropRoll {
                        unit: unit.clone(),
                        zone: zone.clone(),
                        glider,
                        flak: 0,
                        flak88: 0,
                        fz: Vec::new(),
                    },
                    None,
                );
            }
        }
        self.board(Board::All);
        self.no_piece();
    }

    /// The impulse's orders that name no piece on the board: Command Points of an Action,
    /// points spent, the air raid stopped, the watch list, the end of the impulse.
    fn no_piece(&mut self) {
        let s = self.s;
        let chit = s.chit.as_deref().unwrap_or("");
        for u in &OOB.units {
            if command::activates(s, chit, &u.id) != Some(true) || self.enough(&command_of(&u.id)) {
                continue;
            }
            if let Reach::Unit(one) = self.reach {
                if one != u.id {
                    continue;
                }
            }
            self.offer(command_of(&u.id), None);
        }
        for dispatch in [false, true] {
            self.offer(
                Command::Spend {
                    points: 1,
                    dispatch,
                    division: None,
                    facts: "second action".into(),
                },
                None,
            );
        }
        let division_chit = s
            .chit
            .as_deref()
            .and_then(|c| DATA.chit(c))
            .is_some_and(|c| c.kind == ChitKind::Division);
        if self.side == Side::Allied && division_chit && s.air_raid.is_some() {
            self.offer(Command::StopRaid { points: 1 }, None);
        }
        self.offer(
            Command::Watch {
                hexes: if s.watch.contains_key(&self.side) {
                    None
                } else {
                    Some(Vec::new())
                },
            },
            None,
        );
        // 3.4.1: not while a Unit's first-activation Drop Table roll is due.
        if super::first_activation::check_end(s).is_ok() {
            self.offer(Command::End, None);
        }
    }

    /// S3.1 Rout: each Formation that may rout named, alone and (a German one) with its
    /// routed units on the map taken off (decision 33).
    fn rout(&mut self) {
        let s = self.s;
        let mut names: Vec<&str> = OOB
            .formations
            .iter()
            .filter(|f| f.side == Side::Allied || offmap::is_59th(&f.id))
            .filter(|f| offmap::routed_units(s, &f.id).is_some_and(|u| !u.is_empty()))
            .map(|f| f.id.as_str())
            .collect();
        names.extend(
            s.offmap
                .iter()
                .filter(|(_, p)| **p == OffMap::OnMap)
                .map(|(f, _)| f.as_str()),
        );
        let mut seen = BTreeSet::new();
        for f in names {
            if !seen.insert(f) || offmap::rout_condition(s, f).is_err() {
                continue;
            }
            self.offer(
                Command::Rout {
                    formation: f.to_owned(),
                    units: Vec::new(),
                },
                None,
            );
            let routed = offmap::routed_units(s, f).unwrap_or_default();
            let units: Vec<String> = s
                .units
                .iter()
                .filter(|(n, u)| u.side == Side::German && routed.contains(n))
                .map(|(n, _)| n.clone())
                .collect();
            if !units.is_empty() {
                self.offer(
                    Command::Rout {
                        formation: f.to_owned(),
                        units,
                    },
                    None,
                );
            }
        }
    }

    /// S3.1: the event drawn placed — on a unit, a Formation, or a hex by a unit.
    fn place(&mut self, event: &str) {
        let s = self.s;
        let side = self.side;
        let place = |target: String, at: Option<Hex>| Command::Place {
            event: event.to_owned(),
            target,
            at,
            units: Vec::new(),
        };
        match event {
            "reinf" => {
                for text in events::reinf_orders(s, side) {
                    if let Ok(c) = order::parse(&text) {
                        self.offer(c, None);
                    }
                }
                // A Lost 82nd AB unit with a 101st Leader (its hex).
                let leaders: Vec<Hex> = s
                    .units
                    .iter()
                    .filter(|(n, _)| {
                        OOB.unit(n).is_some_and(|u| u.range.is_some())
                            && OOB.division_of(n) == Some("101st")
                    })
                    .map(|(_, u)| u.hex)
                    .collect();
                if let (Some(u), Some(h)) = (events::lost_82nd_left(s).first(), leaders.first()) {
                    self.offer(place((*u).to_owned(), Some(*h)), None);
                }
            }
            "heroic" => {
                let own: Vec<(String, Hex)> = s
                    .units
                    .iter()
                    .filter(|(_, u)| u.side == side)
                    .map(|(n, u)| (n.clone(), u.hex))
                    .collect();
                for (n, at) in own {
                    self.offer(place(n.clone(), None), Some((n, at)));
                }
            }
            "lost" | "explosion" => {
                let targets: Vec<String> = s.units.keys().cloned().collect();
                for t in targets {
                    self.offer(place(t, None), None);
                }
            }
            "rally" | "air-strike" => {
                let mut formations: Vec<(String, Hex)> = Vec::new();
                for (n, u) in s.units.iter().filter(|(_, u)| u.side == side) {
                    if let Some(f) = OOB.formation_of(n).filter(|f| f.side == side) {
                        if !formations.iter().any(|(x, _)| *x == f.id) {
                            formations.push((f.id.clone(), u.hex));
                        }
                    }
                }
                for (f, at) in formations {
                    self.offer(place(f, (event == "air-strike").then_some(at)), None);
                }
            }
            _ => {
                // A hex: where a unit stands, and the hexes next to it.
                let mut hexes: BTreeSet<Hex> = BTreeSet::new();
                for u in s.units.values() {
                    hexes.insert(u.hex);
                    hexes.extend(u.hex.neighbours());
                }
                for h in hexes {
                    self.offer(place(h.to_string(), None), None);
                }
            }
        }
    }

    /// The one-hex moves of `name`: to each hex next to it (keeping its Column, else out of
    /// it), pointed at that hex.
    fn moves(&mut self, name: &str, all_units: bool) {
        let s = self.s;
        let Some(u) = s.units.get(name) else {
            return;
        };
        if !all_units && !self.unit_in(name, u.hex) && !matches!(self.reach, Reach::Unit(_)) {
            return;
        }
        if !self.may_take_action(name) {
            return;
        }
        for n in u.hex.neighbours() {
            if !self.cell_in(n) {
                continue;
            }
            for column in [u.column, !u.column] {
                let c = Command::Move {
                    cohesion: false,
                    unit: name.to_owned(),
                    path: vec![n],
                    column,
                    transport: None,
                };
                if self.offer(c, Some((name.to_owned(), n))) {
                    break;
                }
            }
        }
    }

    /// The orders given by pointing a piece at the board (decision 14), in the order the page
    /// offers them: each unit's moves and attacks, then the orders in place, then the markers'.
    fn board(&mut self, which: Board) {
        let s = self.s;
        let targets: BTreeSet<Hex> = s
            .units
            .values()
            .filter(|u| u.side != self.side && self.marker_in(u.hex))
            .map(|u| u.hex)
            .collect();
        if which != Board::Markers {
            for (name, u) in &s.units {
                if !self.unit_in(name, u.hex) {
                    continue;
                }
                if which == Board::All {
                    self.moves(name, true);
                }
                if u.side == self.side {
                    let near: BTreeSet<Hex> = match self.reach {
                        Reach::Unit(_) => targets
                            .iter()
                            .copied()
                            .filter(|t| t.distance(u.hex) <= UNIT_REACH)
                            .collect(),
                        _ => targets.clone(),
                    };
                    self.attacks(name, u.hex, &near);
                }
            }
        }
        if which == Board::All {
            self.in_place(&targets);
        }
        if which != Board::Fires {
            self.markers();
        }
    }

    /// The fires and the assault `unit` at `from` may be pointed at, at each of `targets` (the
    /// hexes holding an enemy unit).
    fn attacks(&mut self, unit: &str, from: Hex, targets: &BTreeSet<Hex>) {
        let s = self.s;
        let opportunity = s.window.is_some();
        if !opportunity && !self.may_take_action(unit) {
            return;
        }
        let fire = |hex: Hex, class: &str| Command::Fire {
            unit: unit.to_owned(),
            hex,
            class: class.to_owned(),
            opportunity,
            on: s
                .map
                .as_ref()
                .and_then(|m| m.map.hexes.get(&hex))
                .map(|h| h.terrain),
            facts: format!("range {}", from.distance(hex)),
            covered: false,
        };
        // A unit that may not fire where no line of sight is asked (indirect HE at the first
        // target) fires nowhere now: not its activation, in a park's box, riding piggyback …
        let Some(first) = targets.iter().next() else {
            return;
        };
        if !self.accepted(&fire(*first, "indirect-he"))
            && !self.accepted(&fire(*first, "small-arms"))
        {
            return;
        }
        for &hex in targets {
            for class in CLASSES.iter().filter(|c| **c != "airstrike") {
                self.offer(fire(hex, class), Some((unit.to_owned(), hex)));
            }
            if !opportunity {
                self.offer(
                    Command::Assault {
                        unit: unit.to_owned(),
                        hex,
                        facts: String::new(),
                    },
                    Some((unit.to_owned(), hex)),
                );
            }
        }
    }

    /// The orders pointed at a place rather than along a path or at an enemy (decision 14):
    ///
    /// - a unit of the seat's side with a Suppression or Cohesion Hits (or a Bailey out of
    ///   action, a Suppressed ferry, 2.15.7, 2.18.3), pointed at its own hex:
    ///   `rally <unit> pass <faces>`;
    /// - an Artillery unit of the order of battle (or a unit outside it, whose class the engine
    ///   does not know, decision 12), pointed at a hex holding an enemy unit (and, for the
    ///   German, at a Club Route hex, 4.3.3): `barrage <unit> <hex> light|heavy pass <faces>`;
    /// - an engineer of the order of battle in one of a bridge's two hexes, pointed at the
    ///   other: `tq <unit> wire|improve|ferry <bridge> pass <faces>` (2.15.6 — not in Column —,
    ///   2.15.3, 2.18.1); a Bailey pointed across its bridge, `tq <unit> repair <bridge> pass
    ///   <faces>` (2.15.7); a unit at a ferry pointed across it, `ferry <unit> <bridge>
    ///   [abandon]` (2.18.2);
    /// - a routed Allied unit still to settle, pointed at its own hex: `entrench <unit>` (S3.1
    ///   Rout, decision 30; its one-hex move is the move pointed as any other);
    /// - a unit pointed at its own hex: `roadblock <hex>` (S2), `place heroic <unit>` while the
    ///   Heroic marker is to be placed (S3.1), `unmark <unit>` (3.4.2), `dismount <unit>
    ///   [abandon]` (S4.2, S5.3), `enterpark <unit> <park>` in a park's hex (S1).
    fn in_place(&mut self, targets: &BTreeSet<Hex>) {
        let s = self.s;
        let side = self.side;
        let barrage_hexes: BTreeSet<Hex> = targets
            .iter()
            .copied()
            .chain(
                s.club_route
                    .iter()
                    .copied()
                    .filter(|h| side == Side::German && self.cell_in(*h)),
            )
            .collect();
        for (name, u) in s.units.iter().filter(|(_, u)| u.side == side) {
            if !self.unit_in(name, u.hex) {
                continue;
            }
            let acts = self.may_take_action(name);
            let def = OOB.unit(name);
            let marks = s.marks.get(name).cloned().unwrap_or_default();
            let out_of_action = s.bridges.values().any(|b| {
                b.bailey
                    .as_ref()
                    .is_some_and(|x| &x.unit == name && x.disabled)
                    || b.ferry
                        .as_ref()
                        .is_some_and(|f| &f.unit == name && f.suppressed)
            });
            if acts && (marks.suppressed || marks.cohesion > 0 || out_of_action) {
                self.check(name, u.hex, &|pass| Command::Rally {
                    unit: name.clone(),
                    pass,
                });
            }
            // Artillery of the order of battle, or a counter outside it (decision 12: its
            // class is the players').
            if acts && def.is_none_or(|d| d.class == Class::Artillery) {
                for &hex in &barrage_hexes {
                    for heavy in [false, true] {
                        self.check(name, hex, &|pass| Command::Barrage {
                            unit: name.clone(),
                            hex,
                            heavy,
                            pass,
                        });
                    }
                }
            }
            for d in &DATA.bridges {
                let across = if u.hex == d.hexes.0 {
                    d.hexes.1
                } else if u.hex == d.hexes.1 {
                    d.hexes.0
                } else {
                    continue;
                };
                if !self.cell_in(across) || !acts {
                    continue;
                }
                let engineer = def.is_some_and(|d| d.engineer || d.class == Class::Engineer);
                let mut reasons: Vec<&str> = vec!["repair"];
                if engineer {
                    reasons.extend(["improve", "ferry"]);
                    // 2.15.6: "the Unit cannot be in Column" (the written order is refused too).
                    if !u.column {
                        reasons.push("wire");
                    }
                }
                for what in reasons {
                    self.check(name, across, &|pass| Command::Tq {
                        unit: name.clone(),
                        reason: vec![what.to_owned(), d.name.clone()],
                        pass,
                    });
                }
                let transport = def.is_some_and(|d| d.transport.is_some())
                    && !s.abandoned.iter().any(|a| a == name);
                for abandon in [false, true].into_iter().take(1 + usize::from(transport)) {
                    self.offer(
                        Command::Ferry {
                            unit: name.clone(),
                            bridge: d.name.clone(),
                            abandon,
                        },
                        Some((name.clone(), across)),
                    );
                }
            }
            let here = Some((name.clone(), u.hex));
            self.offer(
                Command::RoadBlock {
                    hex: u.hex,
                    remove: false,
                },
                here.clone(),
            );
            if s.placing() == Some((side, "heroic")) {
                self.offer(
                    Command::Place {
                        event: "heroic".into(),
                        target: name.clone(),
                        at: None,
                        units: Vec::new(),
                    },
                    here.clone(),
                );
            }
            if s.routing().is_some_and(|r| r.units.contains(name)) {
                self.offer(Command::Entrench { unit: name.clone() }, here.clone());
            }
            if acts && s.drop_markers.get(name).is_some_and(|n| *n > 0) {
                self.offer(Command::Unmark { unit: name.clone() }, here.clone());
            }
            if acts && (s.piggyback.contains_key(name) || s.riding.contains_key(name)) {
                for abandon in [false, true]
                    .into_iter()
                    .take(1 + usize::from(s.riding.contains_key(name)))
                {
                    self.offer(
                        Command::Dismount {
                            unit: name.clone(),
                            abandon,
                            cohesion: false,
                        },
                        here.clone(),
                    );
                }
            }
            if acts {
                for p in s
                    .parks
                    .iter()
                    .filter(|p| p.side == side && p.hex == Some(u.hex))
                {
                    self.offer(
                        Command::EnterPark {
                            unit: name.clone(),
                            park: p.id.clone(),
                        },
                        here.clone(),
                    );
                }
            }
        }
    }

    /// The markers' orders: a road block of the seat's side pointed at its hex, `roadblock
    /// <hex> remove` (S2); the wired bridge marker of the seat's side, `demolish <bridge> [fz]`
    /// (2.15.6); a destroyed bridge's marker, `bailey <unit> <bridge>` for each Bailey Bridge
    /// unit (2.15.7); an unstable stream bridge's marker, `bulldozer <unit> <bridge>` for each
    /// Bulldozer and `bulldoze <bridge>` (2.11).
    fn markers(&mut self) {
        let s = self.s;
        let side = self.side;
        for (i, (h, x)) in s.roadblocks.iter().enumerate() {
            if *x == side && self.marker_in(*h) {
                self.offer(
                    Command::RoadBlock {
                        hex: *h,
                        remove: true,
                    },
                    Some((format!("m-roadblock-{i}"), *h)),
                );
            }
        }
        for (name, b) in &s.bridges {
            let Some(d) = DATA.bridges.iter().find(|d| &d.name == name) else {
                continue;
            };
            let h = d.hexes.0;
            if !self.marker_in(h) {
                continue;
            }
            if b.wired_by == Some(side) {
                for fire_zone in [false, true] {
                    self.offer(
                        Command::Demolish {
                            bridge: name.clone(),
                            fire_zone,
                        },
                        Some((format!("m-bridge-{name}-wired"), h)),
                    );
                }
            }
            if b.destroyed {
                for (unit, _) in &DATA.baileys {
                    self.offer(
                        Command::Bailey {
                            unit: unit.clone(),
                            bridge: name.clone(),
                        },
                        Some((format!("m-bridge-{name}-destroyed"), h)),
                    );
                }
            }
        }
        for d in &DATA.stream_bridges {
            let h = d.hexes.0;
            let unstable = s
                .stream_bridges
                .get(&d.name)
                .is_some_and(|x| x.checked && x.unstable);
            if !unstable || !self.marker_in(h) {
                continue;
            }
            let piece = format!("m-stream-{}", d.name);
            for (unit, _) in &DATA.bulldozers {
                self.offer(
                    Command::Bulldozer {
                        unit: unit.clone(),
                        bridge: d.name.clone(),
                    },
                    Some((piece.clone(), h)),
                );
            }
            self.offer(
                Command::Bulldoze {
                    bridge: d.name.clone(),
                },
                Some((piece, h)),
            );
        }
    }
}

/// Activation, no window open: the impulse's owner acts.
pub fn plain_impulse(s: &State) -> bool {
    s.phase == Phase::Activation
        && s.pending.is_none()
        && s.demolition.is_none()
        && s.wait.is_none()
        && s.mann.is_none()
        && s.window.is_none()
}

/// A 1 CP Action's points for `unit` (S6.5–S6.8).
fn command_of(unit: &str) -> Command {
    Command::CommandAction {
        unit: unit.to_owned(),
        by: None,
        phone: false,
        from: None,
    }
}

/// An order's kind: the first word it is written with.
fn verb(c: &Command) -> String {
    verb_of(c).to_owned()
}

fn verb_of(c: &Command) -> &'static str {
    match c {
        Command::Weather => "weather",
        Command::Fog => "fog",
        Command::AirDrop { .. } => "airdrop",
        Command::Plan { .. } => "plan",
        Command::Raid { .. } => "raid",
        Command::Move { .. } => "move",
        Command::Fire {
            opportunity: true, ..
        } => "opfire",
        Command::Fire { .. } => "fire",
        Command::Assault { .. } => "assault",
        Command::Result { .. } => "result",
        Command::Tq { .. } => "tq",
        Command::Rally { .. } => "rally",
        Command::Barrage { .. } => "barrage",
        Command::Demolish { .. } => "demolish",
        Command::Unmark { .. } => "unmark",
        Command::DropRoll { .. } => "droproll",
        Command::Status => "status",
        Command::Bulldozer { .. } => "bulldozer",
        Command::Bulldoze { .. } => "bulldoze",
        Command::Bailey { .. } => "bailey",
        Command::Ferry { .. } => "ferry",
        Command::Mount { .. } => "mount",
        Command::Dismount { .. } => "dismount",
        Command::Ride { .. } => "ride",
        Command::Park { .. } => "park",
        Command::EnterPark { .. } => "enterpark",
        Command::RoadBlock { .. } => "roadblock",
        Command::Rearguard { .. } => "rearguard",
        Command::Rout { .. } => "rout",
        Command::Entrench { .. } => "entrench",
        Command::JoeMann => "joemann",
        Command::Huber { .. } => "huber",
        Command::DzChange { .. } => "dzchange",
        Command::Route { .. } => "route",
        Command::Buy { .. } => "buy",
        Command::Spend { .. } => "spend",
        Command::CommandAction { .. } => "command",
        Command::Place { .. } => "place",
        Command::Intelligence { .. } => "intelligence",
        Command::StopRaid { .. } => "stopraid",
        Command::Release { .. } => "release",
        Command::OffMap { .. } => "offmap",
        Command::End => "end",
        Command::Pass => "pass",
        Command::Dispute { .. } => "dispute",
        Command::Watch { .. } => "watch",
    }
}

/// The Allied Formations with airborne Units (3.3.2), not the Independent ones nor the Lost
/// 82nd AB (it comes by the Reinf event).
pub fn airborne_formations() -> Vec<&'static str> {
    OOB.formations
        .iter()
        .filter(|f| f.side == Side::Allied && !f.id.starts_with("ind-"))
        .filter(|f| {
            OOB.units
                .iter()
                .any(|u| u.formation == f.id && (u.para || u.glider) && !u.lost_82nd)
        })
        .map(|f| f.id.as_str())
        .collect()
}
