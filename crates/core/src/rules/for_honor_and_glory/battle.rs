//! One battle in play: the scenario's units as they stand, each side's VP and lost leaders, the
//! turn and whose part of it this is, the AP left, and the optional rules. The rules chapters
//! work on it through the queries here.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::hex::Hex;
use super::limits::{self, Stacks};
use super::occupancy::{Occupancy, Sets, Units};
use super::optional::Options;
use super::scenario::{self, Edge, Scenario};
use super::terrain::Map;
use super::units::{Kind, Side, Slot, Unit};
use crate::engine::ruleset::{Ctx, RuleError};

/// What one side has in this battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideState {
    /// Command AP before leader losses (the scenario's, or 11.13 / 11.14).
    pub command: u8,
    pub edge: Edge,
    /// VP needed to win (10.).
    pub target: u16,
    pub vp: u16,
    pub leaders_lost: u8,
    /// 11.12 standing choice: dragoons attacked in close combat retreat first.
    pub evade: bool,
    /// 8.1.2 standing order: between a unit and a gun of equal MP, the gun takes the hit.
    /// The defaults are left out of the state's JSON, so games that never set these fold to
    /// the states they always did.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tied_hits_to_guns: bool,
    /// 8.4.1 standing order: units that fail morale retreat towards this hex, not the edge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retreat_towards: Option<Hex>,
    /// 8.4.5 standing order: a leader left alone retreats towards this hex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leaders_towards: Option<Hex>,
}

impl SideState {
    /// The standing orders in force, in the order language (11.12 only when it is in force).
    pub fn standing_orders(&self, dragoons: bool) -> Vec<String> {
        use super::order::{describe_action, describe_standing, Action, Standing};
        let mut out = vec![
            describe_standing(Standing::TiedHitsToGuns(self.tied_hits_to_guns)),
            describe_standing(Standing::RetreatTowards(self.retreat_towards)),
            describe_standing(Standing::LeadersTowards(self.leaders_towards)),
        ];
        if dragoons {
            out.push(describe_action(&Action::Dragoons { evade: self.evade }));
        }
        out
    }
}

/// How a unit came to change hex in a player turn: by its own move or advance, or made to go
/// (a retreat, 8.4, or a displacement to make room, 8.4.3). The drawn board shows them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Went {
    Moved,
    Retreated,
}

/// One unit's way over the map in the player turn, from the hex it stood in, hex by hex.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trail {
    pub unit: usize,
    pub went: Went,
    pub hexes: Vec<Hex>,
}

/// How a battle ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleResult {
    pub winner: Option<Side>,
    /// VP earned on the map.
    pub vp: [u16; 2],
    /// VP counted toward a campaign (12.): a win on time gives the winner the VP needed to win.
    pub campaign_vp: [u16; 2],
    pub summary: String,
}

/// Where a battle's scenario sits among the shipped ones, found on first use. A cache: every
/// battle's compares equal, as far as the state is concerned.
#[derive(Debug, Clone, Default)]
struct ScenarioIndex(OnceLock<usize>);

impl PartialEq for ScenarioIndex {
    fn eq(&self, _: &ScenarioIndex) -> bool {
        true
    }
}

impl Eq for ScenarioIndex {}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Battle {
    pub scenario: String,
    /// Where the scenario sits among the shipped ones: a cache for `scen`, not part of the
    /// state (a state read back from JSON finds its scenario by id on first use).
    #[serde(skip)]
    scenario_index: ScenarioIndex,
    /// The scenario's units, in its order. The board's queries find them through `occupancy`:
    /// a unit changes hex by `place` and leaves the map by `remove` or `take`, and whoever
    /// changes them by hand (a test setting up a position) calls `units_changed`.
    pub units: Vec<Unit>,
    pub sides: [SideState; 2],
    /// The game turn, from 1.
    pub turn: u16,
    pub turns: u16,
    pub first: Side,
    pub time_winner: Option<Side>,
    /// The side whose order the game waits for.
    pub active: Side,
    /// AP left in the player turn being carried out.
    pub ap: u8,
    /// 6.2.8 The active side's turn was handed back with AP left (an action of its order was
    /// refused): its AP roll is made, `ap` is what is left, and its next order goes on with
    /// the turn (or `pass` ends it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub held: bool,
    pub options: Options,
    /// 11.9 Attacks made this player turn: (attacker's hex, target hex).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attacks: Vec<(Hex, Hex)>,
    /// Where units went this player turn (moves and advances, retreats), for the drawn board's
    /// last turn (`drawn.rs`): recorded by `place` and `place_retreating`, emptied when a
    /// player turn starts (`turn::begin`) and when the game ends (`State::finish`), so that a
    /// finished game's state is the one rules version 3 wrote: its hash is in the log's
    /// `GameEnded`, and logs of finished games verify as they always did.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trails: Vec<Trail>,
    /// 11.9 Attacks the order being carried out still names: (attacker's hex, target hex).
    /// Set only while an order is carried out, so never part of a state between moves.
    #[serde(skip)]
    pub planned: Vec<(Hex, Hex)>,
    pub result: Option<BattleResult>,
    /// Which units stand in each hex: a cache of `units`, not part of the state. A unit
    /// changes hex by `place` and leaves the map by `remove` or `take`.
    #[serde(skip)]
    occupancy: Occupancy,
}

impl Battle {
    /// 4.1 Sets a scenario up, checking its placements against the hex limits (4.3).
    pub fn new(scen: &Scenario, options: Options) -> Result<Battle, RuleError> {
        let high = scen.sides.iter().map(|s| s.command).max().unwrap_or(0);
        let sides = [0, 1].map(|i| {
            let def = &scen.sides[i];
            // 11.13 Both sides use the highest command AP; 11.14 sets it by hand.
            let command =
                options.command[i].unwrap_or(if options.has(13) { high } else { def.command });
            SideState {
                command,
                edge: def.edge,
                target: def.target,
                vp: 0,
                leaders_lost: 0,
                evade: true,
                tied_hits_to_guns: false,
                retreat_towards: None,
                leaders_towards: None,
            }
        });
        let b = Battle {
            scenario: scen.id.clone(),
            scenario_index: ScenarioIndex::default(),
            units: scen.units.clone(),
            sides,
            turn: 1,
            turns: scen.turns,
            first: scen.first,
            time_winner: scen.time_winner,
            active: scen.first,
            ap: 0,
            held: false,
            options,
            attacks: Vec::new(),
            trails: Vec::new(),
            planned: Vec::new(),
            result: None,
            occupancy: Occupancy::default(),
        };
        for (i, u) in b.units.iter().enumerate() {
            if let Err(e) = limits::may_hold(&b, u.hex, u.side, u.kind, Some(i)) {
                return Err(RuleError::new(
                    "4.3 Unit hex limits",
                    format!("scenario {}: {}", scen.id, e),
                ));
            }
        }
        Ok(b)
    }

    pub fn scen(&self) -> &'static Scenario {
        let shipped = scenario::shipped();
        let i = *self.scenario_index.0.get_or_init(|| {
            shipped
                .iter()
                .position(|s| s.id == self.scenario)
                .unwrap_or(usize::MAX)
        });
        match shipped.get(i) {
            Some(s) if s.id == self.scenario => s,
            _ => scenario::find(&self.scenario)
                .expect("a battle is only set up from a shipped scenario"),
        }
    }

    pub fn map(&self) -> &'static Map {
        &self.scen().map
    }

    /// The map's columns and rows, which the occupancy asks when it is built.
    fn map_size(&self) -> (u8, u8) {
        let map = self.map();
        (map.cols, map.rows)
    }

    pub fn name(&self, i: usize) -> &'static str {
        &self.scen().names[i]
    }

    /// A unit as players read it: "british regular 41st Foot (3 MP) in C5".
    pub fn label(&self, i: usize) -> String {
        let u = &self.units[i];
        let name = self.name(i);
        let name = if name.is_empty() {
            String::new()
        } else {
            format!(" {name}")
        };
        match u.kind {
            Kind::Leader => format!("{} leader{name} in {}", u.side.name(), u.hex),
            Kind::Vp => format!("{} VP unit{name} in {}", u.side.name(), u.hex),
            k => format!(
                "{} {}{name} ({} MP{}) in {}",
                u.side.name(),
                k.name(),
                u.mp,
                if u.column { ", column" } else { "" },
                u.hex
            ),
        }
    }

    /// Units on the map in a hex, in the order of `units`.
    pub fn at(&self, hex: Hex) -> Units {
        self.occupancy.at(&self.units, || self.map_size(), hex)
    }

    /// Moves unit `i` to `hex` by its own move or advance: with `place_retreating`, the one
    /// way a unit changes hex.
    pub fn place(&mut self, i: usize, hex: Hex) {
        self.go(i, hex, Went::Moved);
    }

    /// Unit `i` is made to go to `hex`: a retreat (8.4) or a displacement (8.4.3).
    pub fn place_retreating(&mut self, i: usize, hex: Hex) {
        self.go(i, hex, Went::Retreated);
    }

    fn go(&mut self, i: usize, hex: Hex, went: Went) {
        let from = self.units[i].hex;
        self.units[i].hex = hex;
        if !self.units[i].gone {
            self.occupancy.moved(i, Some(from), Some(hex));
        }
        // The unit's trail this turn goes on where it ended, or a new one starts.
        match self.trails.iter_mut().rev().find(|t| t.unit == i) {
            Some(t) if t.went == went && t.hexes.last() == Some(&from) => t.hexes.push(hex),
            _ => self.trails.push(Trail {
                unit: i,
                went,
                hexes: vec![from, hex],
            }),
        }
    }

    /// The units were changed by hand (a test setting up a position): the board's queries
    /// look at them afresh.
    pub fn units_changed(&mut self) {
        self.occupancy.forget();
    }

    // The queries below look in one hex (`at`), and pick from its units with one of the
    // occupancy's sets: they run in every check of every action. Debug builds check each
    // against the units themselves.

    /// The units on the map in a hex that are in the set `set` picks from the occupancy's;
    /// debug builds check them against the units there of which `is` holds.
    fn pick(&self, hex: Hex, set: impl FnOnce(&Sets) -> u64, is: impl Fn(&Unit) -> bool) -> Units {
        let found = self
            .occupancy
            .at_in(&self.units, || self.map_size(), hex, set);
        debug_assert!(found.eq(self.at(hex).filter(|&i| is(&self.units[i]))));
        found
    }

    /// A side's units in a hex.
    pub fn side_at(&self, hex: Hex, side: Side) -> Units {
        self.pick(hex, |s| s.side(usize::from(side.0)), |u| u.side == side)
    }

    /// A side's combat units (not leaders nor VP units) in a hex.
    pub fn army_at(&self, hex: Hex, side: Side) -> Units {
        self.pick(
            hex,
            |s| s.armies[usize::from(side.0)],
            |u| u.side == side && u.kind.is_combat(),
        )
    }

    /// A side's units filling a slot (4.3) in a hex.
    pub fn slot_at(&self, hex: Hex, side: Side, slot: Slot) -> Units {
        self.pick(
            hex,
            |s| s.slots[usize::from(side.0)][slot as usize],
            |u| u.side == side && u.kind.slot() == slot,
        )
    }

    /// The unit of a side filling a slot of a hex.
    pub fn in_slot(&self, hex: Hex, side: Side, slot: Slot) -> Option<usize> {
        self.slot_at(hex, side, slot).next()
    }

    /// Combat units (not leaders nor VP units) in a hex, of any side.
    pub fn combat_at(&self, hex: Hex) -> Units {
        self.pick(hex, |s| s.armies[0] | s.armies[1], |u| u.kind.is_combat())
    }

    /// Is there a combat unit of any side in the hex?
    pub fn any_combat_at(&self, hex: Hex) -> bool {
        !self.combat_at(hex).is_empty()
    }

    pub fn enemy_combat_at(&self, hex: Hex, side: Side) -> bool {
        !self.army_at(hex, side.other()).is_empty()
    }

    pub fn leader_at(&self, hex: Hex, side: Side) -> Option<usize> {
        self.in_slot(hex, side, Slot::Leader)
    }

    /// Distance of a hex from a side's own board edge, in map units (8.4.1).
    pub fn edge_distance(&self, map: &Map, hex: Hex, side: Side) -> f64 {
        let (x, y) = hex.centre();
        let far = |n: u8, odd: f64| f64::from(n) + odd;
        match self.sides[usize::from(side.0)].edge {
            Edge::North => y,
            Edge::South => 3f64.sqrt() * far(map.rows, 0.5) - y,
            Edge::West => x,
            Edge::East => 1.5 * f64::from(map.cols) - x,
        }
    }

    /// Removes a unit from play and gives the other side its VP (10. A): 1 per unit,
    /// leaders included; a lost leader also costs its side a command AP (9.3.1).
    pub fn eliminate(&mut self, i: usize) -> String {
        let label = self.label(i);
        let side = self.units[i].side;
        self.remove(i);
        format!("{label} is eliminated (+1 VP to {})", side.other().name())
    }

    /// `eliminate` with no line: for a re-fold, which reads none.
    pub fn remove(&mut self, i: usize) {
        let side = self.units[i].side;
        self.leave(i);
        self.units[i].mp = 0;
        self.sides[usize::from(side.other().0)].vp += 1;
        if self.units[i].kind == Kind::Leader {
            self.sides[usize::from(side.0)].leaders_lost += 1;
        }
    }

    /// `eliminate`, the line said only when it will be read.
    pub fn eliminate_for(&mut self, i: usize, ctx: &mut Ctx) {
        if ctx.lines_wanted() {
            let line = self.eliminate(i);
            ctx.say(line);
        } else {
            self.remove(i);
        }
    }

    /// 3.4.11 / 10. B A VP unit taken by the other side.
    pub fn capture(&mut self, i: usize) -> String {
        let label = self.label(i);
        let side = self.units[i].side;
        self.take(i);
        format!("{label} is taken (+1 VP to {})", side.other().name())
    }

    /// `capture` with no line.
    pub fn take(&mut self, i: usize) {
        let side = self.units[i].side;
        self.leave(i);
        self.sides[usize::from(side.other().0)].vp += 1;
    }

    /// Unit `i` leaves the map: the one way a unit goes.
    fn leave(&mut self, i: usize) {
        if !self.units[i].gone {
            self.occupancy.moved(i, Some(self.units[i].hex), None);
        }
        self.units[i].gone = true;
    }

    /// Does each side (american, british) still have a combat unit on the map? It is asked
    /// after every action: the occupancy keeps the answer.
    pub fn armies(&self) -> [bool; 2] {
        self.occupancy.armies(&self.units, || self.map_size())
    }
}

/// The hex limits (4.3) read the battle's units through its queries.
impl Stacks for Battle {
    fn army_at(&self, hex: Hex, side: Side) -> Units {
        Battle::army_at(self, hex, side)
    }

    fn slot_at(&self, hex: Hex, side: Side, slot: Slot) -> Units {
        Battle::slot_at(self, hex, side, slot)
    }

    fn side_of(&self, i: usize) -> Side {
        self.units[i].side
    }

    fn label(&self, i: usize) -> String {
        Battle::label(self, i)
    }
}
