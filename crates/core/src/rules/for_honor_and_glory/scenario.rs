//! 4.1–4.2 Setup: scenarios as plain-text data files in `scenarios/`, read with `include_str!`.
//! The scenario book is not among the texts, so every scenario states which parts are the
//! project's reconstruction. The format, one statement a line (`#` starts a comment):
//!
//! ```text
//! id queenston-heights
//! title Queenston Heights, 13 October 1812
//! reconstructed <what is the project's own>
//! size 12 10                      # columns rows
//! turns 12
//! first american                  # who moves first each turn (5.)
//! side american command 3 edge south target 6
//! side british command 2 edge north target 6
//! time british                    # who wins when the turns run out (10. C)
//! terrain hill E1 F1 G2
//! unit american regular 4 E9 13th US Infantry
//! unit british elite 2/4 C3 Reduced elite  # 2 MP showing, of a unit of 4 MP (3.4.1)
//! unit american leader E9 Van Rensselaer
//! unit british vp F1 Redan battery
//! ```
//!
//! A campaign (12.) is `campaign <id> <title>: <scenario id> <scenario id> …` in
//! `campaigns.txt`.

use super::hex::{Hex, MAX_COLS, MAX_ROWS};
use super::terrain::{Map, Terrain};
use super::units::{Kind, Side, Unit};

/// Which edge of the board a side retreats towards (8.4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Edge {
    North,
    South,
    East,
    West,
}

impl Edge {
    fn parse(text: &str) -> Option<Edge> {
        match text {
            "north" => Some(Edge::North),
            "south" => Some(Edge::South),
            "east" => Some(Edge::East),
            "west" => Some(Edge::West),
            _ => None,
        }
    }
}

/// What the scenario says of one side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SideDef {
    /// 6.1 Command action points.
    pub command: u8,
    pub edge: Edge,
    /// 10. The VP this side needs to win.
    pub target: u16,
}

/// A scenario as read from its data file.
#[derive(Debug, Clone)]
pub struct Scenario {
    pub id: String,
    pub title: String,
    pub reconstructed: String,
    pub map: Map,
    pub turns: u16,
    pub first: Side,
    pub sides: [SideDef; 2],
    pub time_winner: Option<Side>,
    pub units: Vec<Unit>,
    /// The units' names, in the order of `units`.
    pub names: Vec<String>,
}

/// A campaign (12.): scenarios played in turn, VP totalled.
#[derive(Debug, Clone)]
pub struct CampaignDef {
    pub id: String,
    pub title: String,
    pub scenarios: Vec<String>,
}

const FILES: [&str; 8] = [
    include_str!("scenarios/queenston_heights.txt"),
    include_str!("scenarios/chippawa.txt"),
    include_str!("scenarios/lundys_lane.txt"),
    include_str!("scenarios/examples.txt"),
    include_str!("scenarios/bladensburg.txt"),
    include_str!("scenarios/north_point.txt"),
    include_str!("scenarios/jacksons_night_attack.txt"),
    include_str!("scenarios/new_orleans.txt"),
];

const CAMPAIGNS: &str = include_str!("scenarios/campaigns.txt");

/// Every scenario shipped with the ruleset (a file may hold several, each from its `id` line).
pub fn all() -> Vec<Scenario> {
    FILES
        .iter()
        .flat_map(|f| split(f))
        .map(|text| parse(&text).unwrap_or_else(|e| panic!("a shipped scenario is broken: {e}")))
        .collect()
}

/// The shipped scenarios, read once and kept for the life of the process.
pub fn shipped() -> &'static [Scenario] {
    static ALL: std::sync::OnceLock<Vec<Scenario>> = std::sync::OnceLock::new();
    ALL.get_or_init(all)
}

/// The shipped scenario with this id.
pub fn find(id: &str) -> Option<&'static Scenario> {
    shipped().iter().find(|s| s.id == id)
}

/// The shipped campaigns, read once: every set-up asks whether its id names one.
pub fn campaigns() -> &'static [CampaignDef] {
    static ALL: std::sync::OnceLock<Vec<CampaignDef>> = std::sync::OnceLock::new();
    ALL.get_or_init(read_campaigns)
}

fn read_campaigns() -> Vec<CampaignDef> {
    CAMPAIGNS
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .filter_map(|l| {
            let rest = l.strip_prefix("campaign ")?;
            let (head, list) = rest.split_once(':')?;
            let (id, title) = head.trim().split_once(' ')?;
            Some(CampaignDef {
                id: id.to_owned(),
                title: title.trim().to_owned(),
                scenarios: list.split_whitespace().map(str::to_owned).collect(),
            })
        })
        .collect()
}

/// Splits a file into scenario texts, each starting at an `id` line.
fn split(file: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in file.lines() {
        if line.trim_start().starts_with("id ") {
            out.push(String::new());
        }
        if let Some(cur) = out.last_mut() {
            cur.push_str(line);
            cur.push('\n');
        }
    }
    out
}

/// Reads one scenario; errors name the line.
pub fn parse(text: &str) -> Result<Scenario, String> {
    let mut s = Scenario {
        id: String::new(),
        title: String::new(),
        reconstructed: String::new(),
        map: Map::clear(1, 1),
        turns: 10,
        first: Side::AMERICAN,
        sides: [
            SideDef {
                command: 0,
                edge: Edge::South,
                target: 1,
            },
            SideDef {
                command: 0,
                edge: Edge::North,
                target: 1,
            },
        ],
        time_winner: None,
        units: Vec::new(),
        names: Vec::new(),
    };
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let err = |m: &str| format!("scenario {} line {}: {m}: {line}", s.id, n + 1);
        let words: Vec<&str> = line.split_whitespace().collect();
        let rest = line.split_once(' ').map_or("", |(_, r)| r).trim();
        let num = |i: usize| -> Result<u16, String> {
            words
                .get(i)
                .and_then(|w| w.parse().ok())
                .ok_or_else(|| err("expected a number"))
        };
        let hex = |w: &str, map: &Map| -> Result<Hex, String> {
            let h = Hex::parse(w).map_err(|e| err(&e))?;
            if map.contains(h) {
                Ok(h)
            } else {
                Err(err(&format!("{h} is off the map")))
            }
        };
        match words[0] {
            "id" => s.id = rest.to_owned(),
            "title" => s.title = rest.to_owned(),
            "reconstructed" => s.reconstructed = rest.to_owned(),
            "size" => {
                let (c, r) = (num(1)?, num(2)?);
                if c == 0 || c > u16::from(MAX_COLS) || r == 0 || r > u16::from(MAX_ROWS) {
                    return Err(err("a map is 1-26 columns and 1-99 rows"));
                }
                s.map = Map::clear(c as u8, r as u8);
            }
            "turns" => s.turns = num(1)?,
            "first" => s.first = Side::parse(rest).ok_or_else(|| err("unknown side"))?,
            "time" => s.time_winner = Some(Side::parse(rest).ok_or_else(|| err("unknown side"))?),
            "side" => {
                let side = Side::parse(words.get(1).copied().unwrap_or(""))
                    .ok_or_else(|| err("unknown side"))?;
                let def = &mut s.sides[usize::from(side.0)];
                let mut i = 2;
                while i + 1 < words.len() {
                    match words[i] {
                        "command" => def.command = num(i + 1)? as u8,
                        "target" => def.target = num(i + 1)?,
                        "edge" => {
                            def.edge =
                                Edge::parse(words[i + 1]).ok_or_else(|| err("unknown edge"))?
                        }
                        _ => return Err(err("side takes command, edge and target")),
                    }
                    i += 2;
                }
            }
            "terrain" => {
                let t = Terrain::from_name(words.get(1).copied().unwrap_or(""))
                    .ok_or_else(|| err("unknown terrain"))?;
                for w in &words[2..] {
                    let h = hex(w, &s.map)?;
                    s.map.set(h, t);
                }
            }
            "unit" => {
                let side = Side::parse(words.get(1).copied().unwrap_or(""))
                    .ok_or_else(|| err("unknown side"))?;
                let kind = Kind::from_name(words.get(2).copied().unwrap_or(""))
                    .ok_or_else(|| err("unknown unit type"))?;
                // `4`, or `2/4`: a unit of size 4 placed already reduced to 2 MP.
                let (mp, size, at) = if kind.is_combat() {
                    let w = words.get(3).copied().unwrap_or("");
                    let (mp, size) = w.split_once('/').unwrap_or((w, w));
                    let read = |n: &str| {
                        n.parse::<u8>()
                            .map_err(|_| err("write the unit's MP, like 4, or 2/4 for a unit of 4 MP reduced to 2"))
                    };
                    (read(mp)?, read(size)?, 4)
                } else {
                    (0, 0, 3)
                };
                let (lo, hi) = kind.mp_range();
                if kind.is_combat() && !(lo..=hi).contains(&size) {
                    let sizes = if lo == hi {
                        format!("{lo}")
                    } else {
                        format!("{lo} to {hi}")
                    };
                    return Err(err(&format!(
                        "{} unit is {sizes} MP (3.4); place one reduced as 2/{hi}",
                        kind.a_name()
                    )));
                }
                if kind.is_combat() && !(1..=size).contains(&mp) {
                    return Err(err(&format!(
                        "{} of {size} MP may be placed at 1 to {size} MP (3.3)",
                        kind.a_name()
                    )));
                }
                let h = hex(words.get(at).copied().unwrap_or(""), &s.map)?;
                let name = words.get(at + 1..).map(|w| w.join(" ")).unwrap_or_default();
                if s.units.len() == super::occupancy::MAX_UNITS {
                    return Err(err(&format!(
                        "a scenario holds at most {} units",
                        super::occupancy::MAX_UNITS
                    )));
                }
                let mut unit = Unit::new(side, kind, h, mp);
                unit.start_mp = size;
                s.units.push(unit);
                s.names.push(name);
            }
            _ => return Err(err("unknown statement")),
        }
    }
    if s.id.is_empty() {
        return Err("a scenario needs an id".into());
    }
    Ok(s)
}
