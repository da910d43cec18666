//! Terrain 2.1–2.19: the cost to enter each terrain by leg, wheeled and tracked Units out of
//! and in Column (`data/terrain.txt`, the text's values), the fire modifiers and Blocking
//! Terrain, and the movement rules that are not a cell of that table — Road ½ MP in Column
//! (2.5), railroad (2.6), streams (2.11), impassable hexsides (2.12, 2.14), bridges (2.15.1),
//! raised roads (2.16), the culvert (2.17) — as a path-cost function over a map in the text
//! format documented in docs/rules/where-eagles-dare.md. Costs are counted in half movement
//! points, since a Road costs ½.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use super::hex::Hex;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    Clear,
    Polder,
    Orchard,
    Woods,
    Village,
    Town,
    City,
    Fortified,
    Dunes,
    Impassable,
}

impl Terrain {
    pub fn parse(t: &str) -> Option<Terrain> {
        serde_json::from_value(serde_json::Value::String(t.to_ascii_lowercase())).ok()
    }
    pub fn name(self) -> &'static str {
        match self {
            Terrain::Clear => "clear",
            Terrain::Polder => "polder",
            Terrain::Orchard => "orchard",
            Terrain::Woods => "woods",
            Terrain::Village => "village",
            Terrain::Town => "town",
            Terrain::City => "city",
            Terrain::Fortified => "fortified",
            Terrain::Dunes => "dunes",
            Terrain::Impassable => "impassable",
        }
    }
}

/// How a Unit moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mobility {
    Leg,
    Wheeled,
    Tracked,
}

impl Mobility {
    fn index(self) -> usize {
        match self {
            Mobility::Leg => 0,
            Mobility::Wheeled => 1,
            Mobility::Tracked => 2,
        }
    }
}

/// One row of the Terrain Effects chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TerrainRow {
    /// Whole movement points to enter, by mobility then [not in Column, in Column].
    pub cost: [[Option<u32>; 2]; 3],
    /// The modifier to the Fire Rating of Units firing into the hex.
    pub fire: i32,
    pub blocking: bool,
}

/// The chart, read from `data/terrain.txt`.
pub static CHART: LazyLock<BTreeMap<Terrain, TerrainRow>> = LazyLock::new(|| {
    let mut chart = BTreeMap::new();
    for line in include_str!("data/terrain.txt").lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let w: Vec<&str> = line.split_whitespace().collect();
        let t = Terrain::parse(w[0]).expect("a terrain of the chart");
        let c = |i: usize| w[i].parse::<u32>().ok();
        chart.insert(
            t,
            TerrainRow {
                cost: [[c(1), c(2)], [c(3), c(4)], [c(5), c(6)]],
                fire: w[7].parse().expect("a fire modifier"),
                blocking: w[8] == "yes",
            },
        );
    }
    chart
});

/// The modifier terrain gives fire into a hex of `terrain` by a weapon `class` (2.4: woods' −2
/// is ignored by Mortar, Indirect HE and Direct HE).
pub fn fire_modifier(terrain: Terrain, class: &str) -> i32 {
    let m = CHART.get(&terrain).map_or(0, |r| r.fire);
    if terrain == Terrain::Woods && matches!(class, "mortar" | "indirect-he" | "direct-he") {
        0
    } else {
        m
    }
}

/// A hex as the map knows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MapHex {
    pub terrain: Terrain,
    pub road: bool,
    pub rail: bool,
    pub raised: bool,
}

/// What a hexside holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Stream,
    /// A river along the hexside (2.12): crossed only at a bridge or by ferry.
    River,
    Crest,
    Impassable,
    Bridge,
    Culvert,
    /// A raised road or railroad runs through this hexside (2.16): in Column, a raised hex
    /// is entered and left only through such a hexside, where the map gives that hex's.
    Raised,
}

/// A map: the hexes and hexsides it knows. Hexes it does not know are not checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Map {
    pub hexes: BTreeMap<Hex, MapHex>,
    pub sides: BTreeMap<(Hex, Hex), BTreeSet<Side>>,
}

fn key(a: Hex, b: Hex) -> (Hex, Hex) {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

impl Map {
    /// Reads a map: `hex <id> <terrain> [road] [rail] [raised]` and
    /// `side <id> <id> stream|river|crest|impassable|bridge|culvert|raised`, one a line, `#`
    /// comments.
    pub fn parse(text: &str) -> Result<Map, String> {
        let mut map = Map::default();
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let w: Vec<&str> = line.split_whitespace().collect();
            let at = |i: usize| {
                w.get(i)
                    .and_then(|t| Hex::parse(t))
                    .ok_or_else(|| format!("line {}: a hex id is expected", n + 1))
            };
            match w[0] {
                "hex" => {
                    let terrain = w
                        .get(2)
                        .and_then(|t| Terrain::parse(t))
                        .ok_or_else(|| format!("line {}: a terrain is expected", n + 1))?;
                    map.hexes.insert(
                        at(1)?,
                        MapHex {
                            terrain,
                            road: w[3..].contains(&"road"),
                            rail: w[3..].contains(&"rail"),
                            raised: w[3..].contains(&"raised"),
                        },
                    );
                }
                "side" => {
                    let (a, b) = (at(1)?, at(2)?);
                    if !a.adjacent(b) && !w[3..].contains(&"culvert") {
                        return Err(format!("line {}: {a} and {b} share no hexside", n + 1));
                    }
                    let set = map.sides.entry(key(a, b)).or_default();
                    for f in &w[3..] {
                        set.insert(
                            serde_json::from_value(serde_json::Value::String((*f).into()))
                                .map_err(|_| {
                                    format!("line {}: '{f}' is not a hexside feature", n + 1)
                                })?,
                        );
                    }
                }
                other => return Err(format!("line {}: '{other}' is neither hex nor side", n + 1)),
            }
        }
        Ok(map)
    }

    pub fn side(&self, a: Hex, b: Hex) -> Option<&BTreeSet<Side>> {
        self.sides.get(&key(a, b))
    }

    fn has(&self, a: Hex, b: Hex, f: Side) -> bool {
        self.side(a, b).is_some_and(|s| s.contains(&f))
    }

    /// Whether a bridge spans the hexside `a`/`b`: the map's own, or a bridge of 2.15 (the
    /// key hexes), whose crossing the bridge rules then govern (2.15.1).
    fn bridged(&self, a: Hex, b: Hex) -> bool {
        self.has(a, b, Side::Bridge)
            || super::data::DATA
                .bridges
                .iter()
                .any(|d| key(d.hexes.0, d.hexes.1) == key(a, b))
    }

    /// The hexsides of `h` that its raised road or railroad touches, as the map gives them
    /// (2.16): none given, none is checked.
    pub fn raised_sides(&self, h: Hex) -> Vec<Hex> {
        h.neighbours()
            .into_iter()
            .filter(|n| self.has(h, *n, Side::Raised))
            .collect()
    }

    /// 2.16: a Unit in Column enters and leaves a raised road's hex only through a hexside the
    /// raised road touches, where the map gives that hex's raised hexsides.
    fn check_raised_sides(&self, column: bool, a: Hex, b: Hex) -> Result<(), String> {
        if !column || self.has(a, b, Side::Raised) {
            return Ok(());
        }
        for (h, verb) in [(b, "enters"), (a, "leaves")] {
            let raised = self.hexes.get(&h).is_some_and(|x| x.raised);
            let sides = self.raised_sides(h);
            if raised && !sides.is_empty() {
                let list: Vec<String> = sides.iter().map(|n| format!("{h}/{n}")).collect();
                return Err(format!(
                    "2.16 Raised Roads: a Unit in Column {verb} {h} only through a hexside its raised road touches ({}); leave Column first, or go by one of them",
                    list.join(", ")
                ));
            }
        }
        Ok(())
    }

    /// Leaving Column in `h`, where the map knows it: a Wheeled or Tracked Unit may not in a
    /// woods (2.4), town (2.8), city (2.9) or fortified (2.10) hex, nor a Vehicle Unit in a
    /// raised road's or railroad's hex (2.16); a Leg Unit leaving Column in a raised hex pays 1
    /// movement point (2.16: or takes a Cohesion Hit, the player's choice). The cost in half
    /// movement points, or the section that forbids it and the hex's terrain.
    pub fn leave_column(&self, mobility: Mobility, h: Hex) -> Result<u32, (&'static str, String)> {
        let Some(x) = self.hexes.get(&h) else {
            return Ok(0);
        };
        if mobility == Mobility::Leg {
            return Ok(if x.raised { 2 } else { 0 });
        }
        let section = match x.terrain {
            Terrain::Woods => "2.4 Woods",
            Terrain::Town => "2.8 Towns",
            Terrain::City => "2.9 Cities",
            Terrain::Fortified => "2.10 Fortified",
            _ if x.raised => "2.16 Raised Roads/Railroads",
            _ => return Ok(0),
        };
        let what = if x.raised && section.starts_with("2.16") {
            "raised road or railroad".to_owned()
        } else {
            x.terrain.name().to_owned()
        };
        Err((section, what))
    }

    /// The cost in half movement points of one step from `a` into `b`, or why it may not be
    /// made. `Ok(None)` when the map does not know `b`: the step is not checked.
    pub fn step_cost(
        &self,
        mobility: Mobility,
        column: bool,
        a: Hex,
        b: Hex,
    ) -> Result<Option<u32>, String> {
        let culvert = self.has(a, b, Side::Culvert);
        if !a.adjacent(b) && !culvert {
            return Err(format!("{a} and {b} are not adjacent"));
        }
        let Some(to) = self.hexes.get(&b) else {
            return Ok(None);
        };
        let from = self.hexes.get(&a);
        let road = column && to.road && from.is_some_and(|f| f.road);
        let rail = column && to.rail && from.is_some_and(|f| f.rail);
        if to.terrain == Terrain::Impassable {
            return Err(format!("2.14 Impassable: {b} is impassable"));
        }
        if self.has(a, b, Side::Impassable) && !road && !rail {
            return Err(format!(
                "2.14 Impassable: the hexside {a}/{b} is impassable but by Road"
            ));
        }
        if self.has(a, b, Side::River) && !self.bridged(a, b) {
            return Err(format!(
                "2.12 Rivers: the river {a}/{b} is crossed only at a bridge or by ferry (ferry <unit> <bridge>)"
            ));
        }
        if self.has(a, b, Side::Bridge) && !column {
            return Err(format!(
                "2.15.1 Crossing Bridges: a Unit must be in Column to cross the bridge {a}/{b}"
            ));
        }
        if culvert && !column {
            return Err("2.17 The Culvert: a Unit must be in Column to use the Culvert".into());
        }
        self.check_raised_sides(column, a, b)?;
        if to.raised && mobility != Mobility::Leg && !column {
            return Err(format!(
                "2.16 Raised Roads: a Vehicle Unit not in Column can never enter {b}"
            ));
        }
        let m = mobility.index();
        let mut cost = if road {
            1
        } else if rail {
            [1, 4, 2][m]
        } else {
            let row = CHART
                .get(&to.terrain)
                .expect("every terrain is on the chart");
            let base = row.cost[m][usize::from(column)].ok_or_else(|| {
                format!(
                    "2.1-2.19 Terrain: a {} Unit {} may not enter {} ({b})",
                    ["leg", "wheeled", "tracked"][m],
                    if column { "in Column" } else { "not in Column" },
                    to.terrain.name()
                )
            })? * 2;
            if to.raised && mobility == Mobility::Leg && !column {
                base * 2
            } else {
                base
            }
        };
        if self.has(a, b, Side::Stream) && !road {
            if mobility != Mobility::Leg {
                return Err(format!(
                    "2.11 Streams: Wheeled and Tracked Units cross the stream {a}/{b} only by Road"
                ));
            }
            cost += if column { 2 } else { 4 };
        }
        if culvert {
            cost += [4, 12, 8][m];
        }
        Ok(Some(cost))
    }

    /// The cost in half movement points of a path from `start` through `path`, or the first
    /// step that may not be made. `None` when a hex of the path is not on the map.
    pub fn path_cost(
        &self,
        mobility: Mobility,
        column: bool,
        start: Hex,
        path: &[Hex],
    ) -> Result<Option<u32>, String> {
        let mut total = Some(0);
        let mut at = start;
        for &next in path {
            let step = self.step_cost(mobility, column, at, next)?;
            total = match (total, step) {
                (Some(t), Some(s)) => Some(t + s),
                _ => None,
            };
            at = next;
        }
        Ok(total)
    }
}

/// The map a game was created with (option `map`, in the format above): kept as its text, so
/// the state serialises as the players gave it and folds to the same map.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct LoadedMap {
    pub text: String,
    pub map: Map,
}

impl TryFrom<String> for LoadedMap {
    type Error = String;
    fn try_from(text: String) -> Result<LoadedMap, String> {
        let map = Map::parse(&text)?;
        Ok(LoadedMap { text, map })
    }
}

impl From<LoadedMap> for String {
    fn from(m: LoadedMap) -> String {
        m.text
    }
}

/// A refusal of `step_cost` as a rule error: the section before the first `: `.
pub fn refusal(message: String) -> crate::engine::ruleset::RuleError {
    match message.split_once(": ") {
        Some((section, rest)) if section.starts_with('2') => {
            crate::engine::ruleset::RuleError::new(section, rest)
        }
        _ => crate::engine::ruleset::RuleError::new("moves", message),
    }
}
