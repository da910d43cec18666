//! The data files of `data/`, read once with `include_str!`: key hexes (2.11–4.3), the turn
//! track (1.1), the Weather Table (1.2), the Drop Table (3.4.1), the DZ/LZ change table (3.6),
//! the scenarios and the event chits (S3.0). Values the text lacks are marked "reconstructed"
//! in the files themselves; replacing a file's rows with the published ones changes the game.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use super::hex::Hex;
use super::side::Side;

/// The turn track of one day, 0700 to Night (1.1).
pub const TURNS: [&str; 8] = [
    "0700", "0900", "1100", "1300", "1500", "1700", "1900", "Night",
];

/// The index of a turn on the track (`"1100"` → 2).
pub fn turn_index(name: &str) -> Option<usize> {
    TURNS.iter().position(|t| t.eq_ignore_ascii_case(name))
}

/// The weather of a day (1.2, 3.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "weather")]
pub enum Weather {
    Clear,
    /// Fog that clears on a roll of `clear` or less at 0900 or 1100.
    Fog {
        clear: u32,
    },
    Overcast,
    Rain,
}

impl Weather {
    pub fn name(self) -> String {
        match self {
            Weather::Clear => "clear".into(),
            Weather::Fog { clear } => format!("fog (clears on {clear} or less)"),
            Weather::Overcast => "overcast".into(),
            Weather::Rain => "rain".into(),
        }
    }
}

/// A Drop Table result (3.4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DropResult {
    NoEffect,
    #[serde(rename = "delay-1")]
    Delay1,
    #[serde(rename = "delay-2")]
    Delay2,
    StepLoss,
    Eliminated,
}

impl DropResult {
    pub fn name(self) -> &'static str {
        match self {
            DropResult::NoEffect => "no effect",
            DropResult::Delay1 => "one activation delay (one more glider/paradrop marker)",
            DropResult::Delay2 => "two activation delays (two more glider/paradrop markers)",
            DropResult::StepLoss => "step loss",
            DropResult::Eliminated => "eliminated",
        }
    }
}

/// A DZ/LZ change result (3.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChangeResult {
    Success,
    NoEffect,
    Abort,
}

/// The spur of Club Route a Stop hex lies on (4.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Spur {
    Common,
    Best,
    Son,
}

/// A bridge of 2.15.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BridgeDef {
    pub name: String,
    pub hexes: (Hex, Hex),
    pub railroad: bool,
}

/// A stream bridge that may be unstable (2.11).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamBridgeDef {
    pub name: String,
    pub hexes: (Hex, Hex),
    /// The most southern one, checked by A Ride in the Country.
    pub southern: bool,
}

/// The southern hex of a hexside: the larger row, an even column standing half a hex lower
/// (hex.rs's adjacency).
pub fn southern_hex(hexes: (Hex, Hex)) -> Hex {
    let y = |h: Hex| 2 * u32::from(h.row) + u32::from(h.col.is_multiple_of(2));
    if y(hexes.1) > y(hexes.0) {
        hexes.1
    } else {
        hexes.0
    }
}

/// A scenario (`scenarios.txt`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScenarioDef {
    pub id: String,
    pub title: String,
    pub first: (u8, usize),
    pub last: (u8, usize),
    /// The day of Drop One, if the scenario has airborne drops.
    pub drop_one: Option<u8>,
}

/// Everything the data files say.
#[derive(Debug)]
pub struct Data {
    pub club_route: Vec<Hex>,
    pub marker: Hex,
    pub route_end: Hex,
    pub stops: Vec<(Spur, Hex)>,
    pub bridges: Vec<BridgeDef>,
    pub stream_bridges: Vec<StreamBridgeDef>,
    /// Bailey Bridge and Bulldozer units by division (the OOB's `bailey` and `bulldozer` flags, `oob.txt`): `(unit, division)`.
    pub baileys: Vec<(String, String)>,
    pub bulldozers: Vec<(String, String)>,
    pub culvert: (Hex, Hex),
    /// The 231st Brigade's deployment line (S6.10): `(first column, last column, row)`.
    pub line_231: Vec<(u16, u16, u16)>,
    /// Airborne zones by name (`A1`, `A`, `B`, `C`, `W`), and whether each is a DZ.
    pub zones: BTreeMap<String, (bool, Vec<Hex>)>,
    pub starred: Vec<String>,
    /// The 101st's supply drop zone (3.5).
    pub supply_dz: String,
    pub weather: Vec<(u32, u32, Weather)>,
    pub drop_table: Vec<(i32, DropResult)>,
    pub dz_change: Vec<(u32, u32, ChangeResult)>,
    pub scenarios: Vec<ScenarioDef>,
    /// The event chits in the text's order, each with the cups holding it.
    pub events: Vec<(String, bool, bool)>,
    /// Sea Tail release stops by Division (3.5): that stop or beyond.
    pub sea_tails: BTreeMap<String, Vec<Hex>>,
    /// The activation chits (`chits.txt`).
    pub chits: Vec<ChitDef>,
    /// The divisions and their CP/DP (`divisions.txt`).
    pub divisions: Vec<DivisionDef>,
    /// The Guards display's Club Route line (`release_line.txt`).
    pub release_line: Vec<ReleaseDef>,
    /// The off-map displays and flank corps (`offmap.txt`).
    pub offmap: OffMapDef,
    /// Victory points and levels (`victory.txt`).
    pub victory: VictoryDef,
    /// Trucks and jeeps (`assets.txt`).
    pub assets: Vec<AssetDef>,
    /// Road blocks and Rearguards by side: `(kind, side, count)`.
    pub counter_mix: Vec<(String, Side, u32)>,
    /// Artillery parks: `(id, side, division, value, reinforcement hex)`.
    pub parks: Vec<(String, Side, String, u32, Option<Hex>)>,
    /// S5.4: the flak hexes and the flak counters' types.
    pub flak_hexes: Vec<Hex>,
    pub flak_types: Vec<String>,
}

/// A division's trucks or jeeps (S5.3, S6.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssetDef {
    pub kind: String,
    pub division: String,
    pub count: u32,
    /// The day they are first in play.
    pub from: u8,
}

/// What scores and the victory levels (`victory.txt`, every number reconstructed).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VictoryDef {
    /// Allied VP per released Formation with a marker (4.3.1).
    pub released: i64,
    /// Allied VP by the day the Club Route marker came off the map (4.3.1).
    pub route_off: Vec<(u8, i64)>,
    /// German VP per Attacked and per Closed marker (4.3.3).
    pub attacked: i64,
    pub closed: i64,
    /// `(lowest margin, winner, name)`, highest first; the margin is Allied minus German.
    pub levels: Vec<(i64, Option<Side>, String)>,
}

/// The kinds of activation chit (1900 steps 6-9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChitKind {
    /// A Division Activation chit: in the mug every turn; its draw rolls CP and DP.
    Division,
    /// A Direct Command chit: in the mug every turn.
    Direct,
    /// Formation Activation chits bought with DP (step 6).
    Formation,
    Independent,
    Artillery,
}

/// One activation chit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChitDef {
    pub id: String,
    pub side: Side,
    pub division: Option<String>,
    pub kind: ChitKind,
    pub cost: u32,
    /// The division whose DP buy it, when not its own (S6.10: the Guards pay for the 231st).
    pub paid_by: Option<String>,
}

impl ChitDef {
    /// Bought at step 6 (not in the mug by right).
    pub fn bought(&self) -> bool {
        matches!(
            self.kind,
            ChitKind::Formation | ChitKind::Independent | ChitKind::Artillery
        )
    }
    /// The division whose Dispatch Points pay for it.
    pub fn payer(&self) -> Option<&str> {
        self.paid_by.as_deref().or(self.division.as_deref())
    }
}

/// One division: its starting CP and DP and the gains rolled on its Division chit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DivisionDef {
    pub id: String,
    pub side: Side,
    pub cp: u32,
    pub dp: u32,
    /// `(lowest face, highest face, gain)`.
    pub cp_gain: Vec<(u32, u32, u32)>,
    pub dp_gain: Vec<(u32, u32, u32)>,
}

fn gain(table: &[(u32, u32, u32)], face: u32) -> u32 {
    table
        .iter()
        .find(|(a, b, _)| (*a..=*b).contains(&face))
        .map_or(0, |r| r.2)
}

impl DivisionDef {
    pub fn cp_for(&self, face: u32) -> u32 {
        gain(&self.cp_gain, face)
    }
    pub fn dp_for(&self, face: u32) -> u32 {
        gain(&self.dp_gain, face)
    }
}

/// One Formation on the Guards display's Club Route line (4.3.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReleaseDef {
    pub id: String,
    pub name: String,
    /// The number on its marker; `None` = Auto.
    pub number: Option<u32>,
    pub tdc: bool,
    pub is_43rd: bool,
    pub bypassed: bool,
    pub dp: Option<String>,
    pub sea_tail: Option<String>,
    /// Its formation of the order of battle (`oob:`), whose Units enter as it is released.
    pub formation: Option<String>,
    /// Part of it starts on the map (`on-map`): its placements are not checked.
    pub on_map: bool,
}

/// A box of an off-map display (5.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoxDef {
    pub display: String,
    pub name: String,
    /// The reinforcement hexes (letters) this box moves into through the map display.
    pub enters: Vec<String>,
}

/// A flank corps' track (5.2): boxes south to north and the arrow numbers between.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CorpsDef {
    pub id: String,
    pub boxes: Vec<String>,
    pub arrows: Vec<u32>,
}

/// The off-map displays (5.0-5.2).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OffMapDef {
    pub boxes: Vec<BoxDef>,
    pub links: Vec<(String, String, String)>,
    /// `(display, formation, start box)`.
    pub formations: Vec<(String, String, String)>,
    pub corps: Vec<CorpsDef>,
    /// `(display, entry letter, corps, box)`: the entry is behind the corps from that box on.
    pub behind: Vec<(String, String, String, String)>,
}

impl OffMapDef {
    /// The boxes of a display, in the file's order.
    pub fn boxes_of<'a>(&'a self, display: &'a str) -> impl Iterator<Item = &'a BoxDef> + 'a {
        self.boxes.iter().filter(move |b| b.display == display)
    }
    pub fn adjacent(&self, display: &str, a: &str, b: &str) -> bool {
        self.links
            .iter()
            .any(|(d, x, y)| d == display && ((x == a && y == b) || (x == b && y == a)))
    }
    pub fn display_of(&self, formation: &str) -> Option<&str> {
        self.formations
            .iter()
            .find(|f| f.1 == formation)
            .map(|f| f.0.as_str())
    }
}

/// The data, read once.
pub static DATA: LazyLock<Data> =
    LazyLock::new(|| Data::read().expect("the data files of where_eagles_dare parse"));

fn lines(text: &str) -> impl Iterator<Item = Vec<&str>> {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(|l| l.split_whitespace().collect())
}

fn hex(t: &str) -> Result<Hex, String> {
    Hex::parse(t).ok_or_else(|| format!("'{t}' is not a hex"))
}

fn side(t: &str) -> Result<(Hex, Hex), String> {
    let (a, b) = t
        .split_once('/')
        .ok_or_else(|| format!("'{t}' is not a hexside"))?;
    Ok((hex(a)?, hex(b)?))
}

/// Reads `0-2` or `3` as an inclusive range of read faces.
pub fn faces(t: &str) -> Result<(u32, u32), String> {
    let bad = || format!("'{t}' is not a face or range of faces 0-9");
    let (a, b) = t.split_once('-').unwrap_or((t, t));
    let (a, b): (u32, u32) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
    if a > b || b > 9 {
        return Err(bad());
    }
    Ok((a, b))
}

fn turn(day: &str, time: &str) -> Result<(u8, usize), String> {
    Ok((
        day.parse().map_err(|_| format!("'{day}' is not a day"))?,
        turn_index(time).ok_or_else(|| format!("'{time}' is not a turn"))?,
    ))
}

impl Data {
    fn read() -> Result<Data, String> {
        let mut d = Data {
            club_route: Vec::new(),
            marker: hex("42.229")?,
            route_end: hex("14.89")?,
            stops: Vec::new(),
            bridges: Vec::new(),
            stream_bridges: Vec::new(),
            baileys: Vec::new(),
            bulldozers: Vec::new(),
            culvert: (hex("70.156")?, hex("70.157")?),
            line_231: Vec::new(),
            zones: BTreeMap::new(),
            starred: Vec::new(),
            supply_dz: "W".into(),
            weather: Vec::new(),
            drop_table: Vec::new(),
            dz_change: Vec::new(),
            scenarios: Vec::new(),
            events: Vec::new(),
            sea_tails: BTreeMap::new(),
            chits: Vec::new(),
            divisions: Vec::new(),
            release_line: Vec::new(),
            offmap: OffMapDef::default(),
            victory: VictoryDef::default(),
            assets: Vec::new(),
            counter_mix: Vec::new(),
            parks: Vec::new(),
            flak_hexes: Vec::new(),
            flak_types: Vec::new(),
        };
        for w in lines(include_str!("data/key_hexes.txt")) {
            match w[0] {
                "club-route" => {
                    d.club_route = w[1..].iter().map(|t| hex(t)).collect::<Result<_, _>>()?
                }
                "club-route-marker" => d.marker = hex(w[1])?,
                "club-route-end" => d.route_end = hex(w[1])?,
                "stop" => {
                    let spur = match w[1] {
                        "common" => Spur::Common,
                        "best" => Spur::Best,
                        "son" => Spur::Son,
                        other => return Err(format!("unknown spur {other}")),
                    };
                    d.stops.push((spur, hex(w[2])?));
                }
                "bridge" => d.bridges.push(BridgeDef {
                    name: w[1].to_owned(),
                    hexes: side(w[2])?,
                    railroad: w.get(3) == Some(&"railroad"),
                }),
                "stream-bridge" => d.stream_bridges.push(StreamBridgeDef {
                    name: w[1].to_owned(),
                    hexes: side(w[2])?,
                    southern: w.get(3) == Some(&"southern"),
                }),
                "culvert" => d.culvert = side(w[1])?,
                "zone" => {
                    let dz = w[1] == "DZ";
                    let name = w[2].to_owned();
                    let hexes = if w.get(3) == Some(&"=") {
                        let mut all: Vec<Hex> = Vec::new();
                        for part in &w[4..] {
                            let (_, hs) = d
                                .zones
                                .get(*part)
                                .ok_or_else(|| format!("zone {part} first"))?;
                            all.extend(hs.iter().copied());
                        }
                        all.sort();
                        all.dedup();
                        all
                    } else {
                        w[3..].iter().map(|t| hex(t)).collect::<Result<_, _>>()?
                    };
                    d.zones.insert(name, (dz, hexes));
                }
                "supply-dz" => d.supply_dz = w[2].to_owned(),
                "starred" => d.starred = w[1..].iter().map(|s| s.to_string()).collect(),
                "line-231" => {
                    let (a, b) = w[1]
                        .split_once('-')
                        .ok_or_else(|| format!("line-231 {}: columns as <first>-<last>", w[1]))?;
                    let n = |t: &str| {
                        t.parse::<u16>()
                            .map_err(|_| format!("line-231: '{t}' is not a number"))
                    };
                    d.line_231.push((n(a)?, n(b)?, n(w[2])?));
                }
                "sea-tail" => {
                    let stops = w[2..].iter().map(|t| hex(t)).collect::<Result<_, _>>()?;
                    d.sea_tails.insert(w[1].to_owned(), stops);
                }
                _ => {}
            }
        }
        for w in lines(include_str!("data/weather.txt")) {
            let (a, b) = faces(w[0])?;
            let weather = match w[1] {
                "clear" => Weather::Clear,
                "overcast" => Weather::Overcast,
                "rain" => Weather::Rain,
                "fog" => Weather::Fog {
                    clear: w
                        .get(2)
                        .and_then(|n| n.parse().ok())
                        .ok_or("fog needs its clear number")?,
                },
                other => return Err(format!("unknown weather {other}")),
            };
            d.weather.push((a, b, weather));
        }
        for w in lines(include_str!("data/drop_table.txt")) {
            let at: i32 = w[0].parse().map_err(|_| format!("bad drop row {w:?}"))?;
            let r = serde_json::from_value(serde_json::Value::String(w[1].into()))
                .map_err(|e| e.to_string())?;
            d.drop_table.push((at, r));
        }
        for w in lines(include_str!("data/dz_change.txt")) {
            let (a, b) = faces(w[0])?;
            let r = serde_json::from_value(serde_json::Value::String(w[1].into()))
                .map_err(|e| e.to_string())?;
            d.dz_change.push((a, b, r));
        }
        for line in include_str!("data/scenarios.txt").lines() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let f: Vec<&str> = line.split('|').map(str::trim).collect();
            let first: Vec<&str> = f[2].split_whitespace().collect();
            let last: Vec<&str> = f[3].split_whitespace().collect();
            d.scenarios.push(ScenarioDef {
                id: f[0].to_owned(),
                title: f[1].to_owned(),
                first: turn(first[0], first[1])?,
                last: turn(last[0], last[1])?,
                drop_one: f[4].parse().ok(),
            });
        }
        for w in lines(include_str!("data/events.txt")) {
            d.events.push((
                w[0].to_owned(),
                w.contains(&"allied"),
                w.contains(&"german"),
            ));
        }
        // The Bailey Bridge units (2.15.7) and Bulldozers (2.11) are the OOB's (data/oob.txt).
        for u in &super::oob::OOB.units {
            let division = super::oob::OOB
                .division_of(&u.id)
                .unwrap_or_default()
                .to_owned();
            if u.bailey {
                d.baileys.push((u.id.clone(), division));
            } else if u.bulldozer {
                d.bulldozers.push((u.id.clone(), division));
            }
        }
        d.read_chits()?;
        d.read_release_line()?;
        d.read_offmap()?;
        d.read_victory()?;
        d.read_assets()?;
        Ok(d)
    }

    fn read_chits(&mut self) -> Result<(), String> {
        let side = |t: &str| match t {
            "allied" => Ok(Side::Allied),
            "german" => Ok(Side::German),
            other => Err(format!("'{other}' is not a side")),
        };
        for w in lines(include_str!("data/divisions.txt")) {
            let table = |t: &str| -> Result<Vec<(u32, u32, u32)>, String> {
                t.split(',')
                    .map(|part| {
                        let (f, g) = part
                            .split_once(':')
                            .ok_or_else(|| format!("'{part}' is not faces:gain"))?;
                        let (a, b) = faces(f)?;
                        Ok((a, b, g.parse().map_err(|_| format!("bad gain {g}"))?))
                    })
                    .collect()
            };
            let n = |t: &str| {
                t.parse::<u32>()
                    .map_err(|_| format!("'{t}' is not a number"))
            };
            if w.len() != 6 {
                return Err(format!("a division has six fields: {w:?}"));
            }
            self.divisions.push(DivisionDef {
                id: w[0].to_owned(),
                side: side(w[1])?,
                cp: n(w[2])?,
                dp: n(w[3])?,
                cp_gain: table(w[4])?,
                dp_gain: table(w[5])?,
            });
        }
        for w in lines(include_str!("data/chits.txt")) {
            let kind = match w.get(3).copied() {
                Some("division") => ChitKind::Division,
                Some("direct") => ChitKind::Direct,
                Some("formation") => ChitKind::Formation,
                Some("independent") => ChitKind::Independent,
                Some("artillery") => ChitKind::Artillery,
                other => return Err(format!("unknown chit kind {other:?}")),
            };
            let division = (w[2] != "-").then(|| w[2].to_owned());
            if let Some(dv) = &division {
                if self.division(dv).is_none() {
                    return Err(format!("chit {}: no division {dv}", w[0]));
                }
            }
            self.chits.push(ChitDef {
                id: w[0].to_owned(),
                side: side(w[1])?,
                division,
                kind,
                cost: w
                    .get(4)
                    .and_then(|t| t.parse().ok())
                    .ok_or_else(|| format!("chit {}: a DP cost", w[0]))?,
                paid_by: (w.get(5) == Some(&"paid-by")).then(|| w[6].to_owned()),
            });
        }
        Ok(())
    }

    fn read_release_line(&mut self) -> Result<(), String> {
        for line in include_str!("data/release_line.txt").lines() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let f: Vec<&str> = line.split('|').map(str::trim).collect();
            if f.len() != 3 {
                return Err(format!("a release line is id | name | number: {line}"));
            }
            let w: Vec<&str> = f[2].split_whitespace().collect();
            let flag = |name: &str| w.contains(&name);
            let tagged = |tag: &str| {
                w.iter()
                    .find_map(|t| t.strip_prefix(tag))
                    .map(str::to_owned)
            };
            self.release_line.push(ReleaseDef {
                id: f[0].to_owned(),
                name: f[1].to_owned(),
                number: match w.first() {
                    Some(&"auto") => None,
                    Some(n) => Some(n.parse().map_err(|_| format!("'{n}' is not a number"))?),
                    None => return Err(format!("{}: a number or auto", f[0])),
                },
                tdc: flag("tdc"),
                is_43rd: flag("43rd"),
                bypassed: flag("bypassed"),
                dp: tagged("dp:"),
                sea_tail: tagged("sea-tail:"),
                formation: tagged("oob:"),
                on_map: flag("on-map"),
            });
        }
        Ok(())
    }

    fn read_offmap(&mut self) -> Result<(), String> {
        let o = &mut self.offmap;
        for w in lines(include_str!("data/offmap.txt")) {
            let need = |n: usize| {
                if w.len() < n {
                    Err(format!("offmap.txt: too short: {w:?}"))
                } else {
                    Ok(())
                }
            };
            match w[0] {
                "box" => {
                    need(3)?;
                    let enters = match w.get(3) {
                        Some(&"enter") => w[4..].iter().map(|t| t.to_string()).collect(),
                        _ => Vec::new(),
                    };
                    o.boxes.push(BoxDef {
                        display: w[1].into(),
                        name: w[2].into(),
                        enters,
                    });
                }
                "link" => {
                    need(4)?;
                    o.links.push((w[1].into(), w[2].into(), w[3].into()));
                }
                "formation" => {
                    need(4)?;
                    o.formations.push((w[1].into(), w[2].into(), w[3].into()));
                }
                "corps" => {
                    need(3)?;
                    let mut boxes = Vec::new();
                    let mut arrows = Vec::new();
                    for (i, t) in w[2..].iter().enumerate() {
                        if i % 2 == 0 {
                            boxes.push(t.to_string());
                        } else {
                            arrows.push(t.parse().map_err(|_| format!("arrow '{t}'"))?);
                        }
                    }
                    o.corps.push(CorpsDef {
                        id: w[1].into(),
                        boxes,
                        arrows,
                    });
                }
                "behind" => {
                    need(5)?;
                    o.behind
                        .push((w[1].into(), w[2].into(), w[3].into(), w[4].into()));
                }
                other => return Err(format!("offmap.txt: unknown line {other}")),
            }
        }
        Ok(())
    }

    fn read_victory(&mut self) -> Result<(), String> {
        let v = &mut self.victory;
        let n = |t: &str| {
            t.parse::<i64>()
                .map_err(|_| format!("victory.txt: '{t}' is not a number"))
        };
        for w in lines(include_str!("data/victory.txt")) {
            match w[0] {
                "released" => v.released = n(w[1])?,
                "attacked" => v.attacked = n(w[1])?,
                "closed" => v.closed = n(w[1])?,
                "route-off" => {
                    for part in &w[1..] {
                        let (d, p) = part
                            .split_once(':')
                            .ok_or_else(|| format!("victory.txt: '{part}' is not day:points"))?;
                        let day = d.parse().map_err(|_| format!("victory.txt: bad day {d}"))?;
                        v.route_off.push((day, n(p)?));
                    }
                }
                "level" => {
                    let winner = match w.get(2).copied() {
                        Some("allied") => Some(Side::Allied),
                        Some("german") => Some(Side::German),
                        Some("none") => None,
                        other => return Err(format!("victory.txt: winner {other:?}")),
                    };
                    v.levels.push((n(w[1])?, winner, w[3..].join(" ")));
                }
                other => return Err(format!("victory.txt: unknown line {other}")),
            }
        }
        if v.levels.is_empty() || v.levels.windows(2).any(|p| p[0].0 <= p[1].0) {
            return Err("victory.txt: levels, highest margin first".into());
        }
        Ok(())
    }

    fn read_assets(&mut self) -> Result<(), String> {
        let n = |t: &str| {
            t.parse::<u32>()
                .map_err(|_| format!("assets.txt: '{t}' is not a number"))
        };
        let side = |t: &str| match t {
            "allied" => Ok(Side::Allied),
            "german" => Ok(Side::German),
            other => Err(format!("assets.txt: '{other}' is not a side")),
        };
        for w in lines(include_str!("data/assets.txt")) {
            match w[0] {
                "truck" | "jeep" => self.assets.push(AssetDef {
                    kind: w[0].to_owned(),
                    division: w[1].to_owned(),
                    count: n(w[2])?,
                    from: match w.get(3) {
                        Some(&"from") => w[4].parse().map_err(|_| "assets.txt: from <day>")?,
                        _ => 0,
                    },
                }),
                "roadblock" | "rearguard" => {
                    self.counter_mix
                        .push((w[0].to_owned(), side(w[1])?, n(w[2])?))
                }
                "park" => self.parks.push((
                    w[1].to_owned(),
                    side(w[2])?,
                    w[3].to_owned(),
                    n(w[4])?,
                    w.get(5).map(|h| hex(h)).transpose()?,
                )),
                "flak-hexes" => {
                    self.flak_hexes = w[1..].iter().map(|t| hex(t)).collect::<Result<_, _>>()?
                }
                "flak-types" => self.flak_types = w[1..].iter().map(|t| t.to_string()).collect(),
                other => return Err(format!("assets.txt: unknown line {other}")),
            }
        }
        if self.flak_hexes.len() != self.flak_types.len() {
            return Err("assets.txt: one flak type a flak hex".into());
        }
        Ok(())
    }

    /// The counter mix of road blocks or Rearguards of a side (S2).
    pub fn counter_mix(&self, kind: &str, side: Side) -> u32 {
        self.counter_mix
            .iter()
            .find(|(k, s, _)| k == kind && *s == side)
            .map_or(0, |r| r.2)
    }

    pub fn chit(&self, id: &str) -> Option<&ChitDef> {
        self.chits.iter().find(|c| c.id == id)
    }

    pub fn division(&self, id: &str) -> Option<&DivisionDef> {
        self.divisions.iter().find(|d| d.id == id)
    }

    /// The weather a read face gives.
    pub fn weather_for(&self, face: u32) -> Weather {
        self.weather
            .iter()
            .find(|(a, b, _)| (*a..=*b).contains(&face))
            .map(|r| r.2)
            .unwrap_or(Weather::Clear)
    }

    /// The Drop Table result of a modified total.
    pub fn drop_result(&self, total: i32) -> DropResult {
        self.drop_table
            .iter()
            .rev()
            .find(|(at, _)| total >= *at)
            .map(|r| r.1)
            .unwrap_or(DropResult::NoEffect)
    }

    /// The DZ/LZ change result of a read face.
    pub fn change_result(&self, face: u32) -> ChangeResult {
        self.dz_change
            .iter()
            .find(|(a, b, _)| (*a..=*b).contains(&face))
            .map(|r| r.2)
            .unwrap_or(ChangeResult::NoEffect)
    }

    /// The spur of a Stop hex, if it is one.
    pub fn stop(&self, hex: Hex) -> Option<Spur> {
        self.stops.iter().find(|(_, h)| *h == hex).map(|(s, _)| *s)
    }

    pub fn scenario(&self, id: &str) -> Option<&ScenarioDef> {
        self.scenarios.iter().find(|s| s.id == id)
    }

    pub fn stream_bridge(&self, name: &str) -> Option<&StreamBridgeDef> {
        self.stream_bridges.iter().find(|b| b.name == name)
    }

    pub fn bridge(&self, name: &str) -> Option<&BridgeDef> {
        self.bridges.iter().find(|b| b.name == name)
    }

    /// Is `a`–`b` the culvert's hexside (2.17), either way?
    pub fn is_culvert(&self, a: Hex, b: Hex) -> bool {
        let (c0, c1) = self.culvert;
        (a, b) == (c0, c1) || (a, b) == (c1, c0)
    }
}
