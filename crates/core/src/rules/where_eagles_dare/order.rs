//! The order language: one command a message, read by `parse` and written back by `describe`
//! to the same command. Declared rolls state their facts first (docs/rules/where-eagles-dare.md,
//! Decision 2): `tq A/326 wire son pass 0-6`, `fire A/502 56.201 small-arms`.

use serde::{Deserialize, Serialize};

use super::data::{self, TURNS};
use super::hex::Hex;
use super::terrain::Terrain;
use crate::engine::ruleset::RuleError;

/// The weapon classes a fire states (series terms, not refereed beyond the exclusive rules).
pub const CLASSES: [&str; 7] = [
    "small-arms",
    "mortar",
    "indirect-he",
    "direct-he",
    "at",
    "flak",
    "airstrike",
];

/// The CRT result classes a fire's roller states after the die.
pub const RESULTS: [&str; 6] = [
    "none",
    "s?",
    "suppressed",
    "cohesion-hit",
    "step-loss",
    "eliminated",
];

/// What carries a moving Unit, when not its legs: a Vehicle Unit (wheeled or tracked) or a
/// Leg Unit riding its organic transport (2.11, 2.15.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Transport {
    Wheeled,
    Tracked,
    Mounted,
}

impl Transport {
    pub fn parse(t: &str) -> Option<Transport> {
        match t {
            "wheeled" => Some(Transport::Wheeled),
            "tracked" => Some(Transport::Tracked),
            "mounted" => Some(Transport::Mounted),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Transport::Wheeled => "wheeled",
            Transport::Tracked => "tracked",
            Transport::Mounted => "mounted",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Command {
    /// 0700: roll on the Weather Table (1.2).
    Weather,
    /// 0900/1100 in fog: roll to clear it (1.2).
    Fog,
    /// Place the Air Drop? counters (3.2): the turn of the real drop, sealed. The public
    /// command in the log has none.
    AirDrop {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<String>,
    },
    /// A free drop plan for one drop (3.3.2): `formation:zone` pairs, sealed.
    Plan {
        drop: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sticks: Option<Vec<String>>,
    },
    /// S5.2: a raid marker on the turn track of the 18th, 19th or 20th, raid or decoy, sealed.
    /// The public command in the log has no `real`.
    Raid {
        day: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        real: Option<bool>,
    },
    Move {
        unit: String,
        path: Vec<Hex>,
        #[serde(default)]
        column: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        transport: Option<Transport>,
        /// 2.16: a Leg Unit leaving Column in a raised hex takes a Cohesion Hit instead of
        /// paying the movement point.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        cohesion: bool,
    },
    Fire {
        unit: String,
        hex: Hex,
        class: String,
        #[serde(default)]
        opportunity: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        on: Option<Terrain>,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        facts: String,
        /// O1.0: an opportunity fire under covering fire (−1 to its Fire Rating).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        covered: bool,
    },
    Assault {
        unit: String,
        hex: Hex,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        facts: String,
    },
    /// The CRT result class of the fire just rolled, and the unit it strikes when it matters
    /// (a Bailey Bridge, a ferry's engineer).
    Result {
        class: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<String>,
    },
    Tq {
        unit: String,
        reason: Vec<String>,
        pass: Vec<u32>,
    },
    Rally {
        unit: String,
        pass: Vec<u32>,
    },
    Barrage {
        unit: String,
        hex: Hex,
        heavy: bool,
        pass: Vec<u32>,
    },
    /// Roll to demolish a wired bridge (2.15.6): 5 or less, 6 or less with a Fire Zone.
    Demolish {
        bridge: String,
        #[serde(default)]
        fire_zone: bool,
    },
    /// An Action of a dropped Unit removing one glider/paradrop marker (3.4.2).
    Unmark {
        unit: String,
    },
    /// The Drop Table roll of one Unit (3.4.1) with the modifiers the engine cannot count.
    DropRoll {
        unit: String,
        zone: String,
        #[serde(default)]
        glider: bool,
        #[serde(default)]
        flak: u32,
        #[serde(default)]
        flak88: u32,
        /// The flak units projecting a Fire Zone into the zone, named (3.4.1, S5.4): the
        /// engine counts the 88s, whose faces the Allied player may not have seen yet.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        fz: Vec<String>,
    },
    /// The German status check on Club Route (4.3.3).
    Status,
    /// 2.11: a Bulldozer placed on an unstable stream bridge's southern hex.
    Bulldozer {
        unit: String,
        bridge: String,
    },
    /// 2.11: the Bulldozer's repair roll, 2 or less (−1 per Men at Work marker).
    Bulldoze {
        bridge: String,
    },
    /// 2.15.7: a Bailey Bridge unit placed, truck side up, on a demolished bridge.
    Bailey {
        unit: String,
        bridge: String,
    },
    /// 2.18.2: a Leg Unit in Column crosses by the ferry (abandoning its transport if any).
    Ferry {
        unit: String,
        bridge: String,
        #[serde(default)]
        abandon: bool,
    },
    /// S4: an infantry unit mounts a vehicle piggyback.
    Mount {
        infantry: String,
        vehicle: String,
    },
    /// S4.2 a vehicle dismounts its rider; S5.3/S6.3 a unit leaves its truck or jeep.
    Dismount {
        unit: String,
        #[serde(default)]
        abandon: bool,
        /// 2.16 (decision 34): the rider put down on a raised road takes a Cohesion Hit
        /// instead of the movement point.
        #[serde(default)]
        cohesion: bool,
    },
    /// S5.3/S6.3: a unit mounts a divisional truck or jeep.
    Ride {
        asset: String,
        unit: String,
        division: String,
    },
    /// S1: an artillery park marker placed.
    Park {
        park: String,
        hex: Hex,
    },
    /// S1: an Indirect HE unit goes into the park's box.
    EnterPark {
        unit: String,
        park: String,
    },
    /// S2: a road block placed or removed.
    RoadBlock {
        hex: Hex,
        #[serde(default)]
        remove: bool,
    },
    /// S2: a Rearguard unit placed.
    Rearguard {
        unit: String,
        hex: Hex,
    },
    /// S3.1 Rout: the routed Formation, and its units taken off the map.
    Rout {
        formation: String,
        units: Vec<String>,
    },
    /// S3.1 Rout: a routed Allied unit that cannot leave the enemy's Fire Zones by one hex
    /// stays, under an "Entrenched" marker.
    Entrench {
        unit: String,
    },
    /// S6.9: PFC Joe Mann negates the loss.
    JoeMann,
    /// S5.5: KG Huber's master, sealed.
    Huber {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        division: Option<String>,
    },
    /// 3.6: roll to change the drop locations; `zone` is the new supply drop zone if it works.
    DzChange {
        zone: String,
    },
    /// 1900 step 1: advance the Club Route marker along `path` to a Stop hex; empty = stay.
    Route {
        path: Vec<Hex>,
    },
    /// Step 6: Formation Activation chits bought with Dispatch Points; empty = none.
    Buy {
        chits: Vec<String>,
    },
    /// Command or Dispatch Points spent (of the chit's division, or one named).
    Spend {
        points: u32,
        dispatch: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        division: Option<String>,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        facts: String,
    },
    /// The Command Points of a 1 CP Action of an In Command unit of the OOB (S6.5–S6.8,
    /// S6.10): `command <unit> [by <leader>] [phone] [from <division>]`.
    CommandAction {
        unit: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<String>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        phone: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<String>,
    },
    /// An event marker placed (S3.1): heroic on a unit, dutch or minefield in a hex; Reinf's
    /// formation (and the units whose steps it recovers) or Lost 82nd AB unit.
    Place {
        event: String,
        target: String,
        /// Reinf: the hex a Lost 82nd AB unit comes in (its formation leader's).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<Hex>,
        /// Reinf: the units of the formation whose lost steps are recovered, one step a name.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        units: Vec<String>,
    },
    /// The Intelligence event's division (S3.1): +6 CP, +2 DP.
    Intelligence {
        division: String,
    },
    /// Dispatch Points against the Eindhoven Air Raid (S5.2).
    StopRaid {
        points: u32,
    },
    /// 1900 step 2: roll for the next Formation on Club Route, paying `dp` (4.3.2).
    Release {
        #[serde(default)]
        dp: u32,
    },
    /// 1900 step 4: every off-map formation with the private number of its destination (5.1).
    OffMap {
        moves: Vec<(String, u32)>,
    },
    End,
    Pass,
    Dispute {
        seq: u64,
        text: String,
    },
    /// The seat's public standing watch list: the hexes where an enemy action opens its
    /// opportunity fire window. `None` watches every hex (the default), an empty list none.
    Watch {
        hexes: Option<Vec<Hex>>,
    },
}

fn err(message: impl Into<String>) -> RuleError {
    RuleError::new("order language", message)
}

/// Reads passing faces: `0-6`, `0,2,4`, `3`.
pub fn parse_faces(t: &str) -> Result<Vec<u32>, RuleError> {
    let mut out = Vec::new();
    for part in t.split(',') {
        let (a, b) = data::faces(part).map_err(err)?;
        out.extend(a..=b);
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// Writes faces back compactly: `0-6`, `0,2,4`.
pub fn faces_text(f: &[u32]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < f.len() {
        let mut j = i;
        while j + 1 < f.len() && f[j + 1] == f[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            f[i].to_string()
        } else {
            format!("{}-{}", f[i], f[j])
        });
        i = j + 1;
    }
    parts.join(",")
}

fn hex(t: Option<&&str>) -> Result<Hex, RuleError> {
    let t = t.ok_or_else(|| err("a hex is missing (write it as the map does: 56.201)"))?;
    Hex::parse(t).ok_or_else(|| {
        err(format!(
            "'{t}' is not a hex: write it as the map does, 56.201"
        ))
    })
}

fn unit(t: Option<&&str>) -> Result<String, RuleError> {
    let t = t.ok_or_else(|| err("name the unit (A/502)"))?;
    if t.len() > 32 || Hex::parse(t).is_some() {
        return Err(err(format!("'{t}' is not a unit name")));
    }
    Ok((*t).to_owned())
}

/// Splits off the free-text facts after `--`.
fn split_facts(text: &str) -> (&str, String) {
    match text.split_once(" -- ") {
        Some((a, b)) => (a, b.trim().to_owned()),
        None => (text.trim_end_matches(" --"), String::new()),
    }
}

pub fn parse(text: &str) -> Result<Command, RuleError> {
    let text = text.trim();
    let (head, facts) = split_facts(text);
    let w: Vec<&str> = head.split_whitespace().collect();
    let Some(verb) = w.first() else {
        return Err(err("an empty order"));
    };
    let verb = verb.to_ascii_lowercase();
    Ok(match verb.as_str() {
        "weather" if w.len() == 1 => Command::Weather,
        "fog" if w.len() == 1 => Command::Fog,
        "end" if w.len() == 1 => Command::End,
        "pass" if w.len() == 1 => Command::Pass,
        "status" if w.len() == 1 => Command::Status,
        "airdrop" => {
            let t = w.get(1).ok_or_else(|| {
                err("airdrop <turn>: the turn of the real drop, e.g. airdrop 1100")
            })?;
            if !TURNS.contains(t) || w.len() > 2 {
                return Err(err(format!("'{t}' is not a turn: 0700, 0900 … 1900")));
            }
            Command::AirDrop {
                at: Some((*t).to_owned()),
            }
        }
        "plan" => {
            let drop: u8 = w
                .get(1)
                .and_then(|n| n.parse().ok())
                .ok_or_else(|| err("plan <drop number> <formation>:<zone> …"))?;
            let sticks: Vec<String> = w[2..].iter().map(|s| s.to_string()).collect();
            if sticks.is_empty() {
                return Err(err("a plan names at least one formation:zone"));
            }
            Command::Plan {
                drop,
                sticks: Some(sticks),
            }
        }
        "raid" => {
            let usage = "raid <18|19|20> raid|decoy";
            let day: u8 = w
                .get(1)
                .and_then(|d| d.parse().ok())
                .ok_or_else(|| err(usage))?;
            let real = match w.get(2).copied() {
                Some("raid") if w.len() == 3 => true,
                Some("decoy") if w.len() == 3 => false,
                _ => return Err(err(usage)),
            };
            Command::Raid {
                day,
                real: Some(real),
            }
        }
        "move" => parse_move(&w)?,
        "fire" | "opfire" => parse_fire(&verb, &w, facts)?,
        "assault" if w.len() == 3 => Command::Assault {
            unit: unit(w.get(1))?,
            hex: hex(w.get(2))?,
            facts,
        },
        "result" if w.len() == 2 || w.len() == 3 => {
            let c = w[1].to_ascii_lowercase();
            if !RESULTS.contains(&c.as_str()) {
                return Err(err(format!(
                    "a CRT result class is one of {}",
                    RESULTS.join(", ")
                )));
            }
            Command::Result {
                class: c,
                target: w.get(2).map(|u| unit(Some(u))).transpose()?,
            }
        }
        "bulldozer" if w.len() == 3 => Command::Bulldozer {
            unit: unit(w.get(1))?,
            bridge: w[2].to_ascii_lowercase(),
        },
        "mount" if w.len() == 3 => Command::Mount {
            infantry: unit(w.get(1))?,
            vehicle: unit(w.get(2))?,
        },
        "dismount" if w.len() == 2 || (w.len() == 3 && matches!(w[2], "abandon" | "cohesion")) => {
            Command::Dismount {
                unit: unit(w.get(1))?,
                abandon: w.get(2) == Some(&"abandon"),
                cohesion: w.get(2) == Some(&"cohesion"),
            }
        }
        "truck" | "jeep" if w.len() == 3 => Command::Ride {
            asset: verb.clone(),
            unit: unit(w.get(1))?,
            division: w[2].to_ascii_lowercase(),
        },
        "park" if w.len() == 3 => Command::Park {
            park: w[1].to_ascii_lowercase(),
            hex: hex(w.get(2))?,
        },
        "enterpark" if w.len() == 3 => Command::EnterPark {
            unit: unit(w.get(1))?,
            park: w[2].to_ascii_lowercase(),
        },
        "roadblock" if w.len() == 2 || (w.len() == 3 && w[2] == "remove") => Command::RoadBlock {
            hex: hex(w.get(1))?,
            remove: w.len() == 3,
        },
        "rearguard" if w.len() == 3 => Command::Rearguard {
            unit: unit(w.get(1))?,
            hex: hex(w.get(2))?,
        },
        "entrench" if w.len() == 2 => Command::Entrench {
            unit: unit(w.get(1))?,
        },
        "joemann" if w.len() == 1 => Command::JoeMann,
        "rout" if w.len() >= 2 && w.len() <= 30 => Command::Rout {
            formation: w[1].to_owned(),
            units: w[2..]
                .iter()
                .map(|u| unit(Some(u)))
                .collect::<Result<_, _>>()?,
        },
        "huber" if w.len() == 2 && matches!(w[1], "59th" | "chill") => Command::Huber {
            division: Some(w[1].to_owned()),
        },
        "dzchange" if w.len() == 2 => Command::DzChange {
            zone: w[1].to_ascii_uppercase(),
        },
        "bulldoze" if w.len() == 2 => Command::Bulldoze {
            bridge: w[1].to_ascii_lowercase(),
        },
        "bailey" if w.len() == 3 => Command::Bailey {
            unit: unit(w.get(1))?,
            bridge: w[2].to_ascii_lowercase(),
        },
        "ferry" if w.len() == 3 || (w.len() == 4 && w[3] == "abandon") => Command::Ferry {
            unit: unit(w.get(1))?,
            bridge: w[2].to_ascii_lowercase(),
            abandon: w.len() == 4,
        },
        "tq" => {
            let (i, pass) = pass_at(&w)?;
            if i < 2 {
                return Err(err("tq <unit> <reason> pass <faces>"));
            }
            Command::Tq {
                unit: unit(w.get(1))?,
                reason: w[2..i].iter().map(|s| s.to_ascii_lowercase()).collect(),
                pass,
            }
        }
        "rally" => {
            let (i, pass) = pass_at(&w)?;
            if i != 2 {
                return Err(err("rally <unit> pass <faces>"));
            }
            Command::Rally {
                unit: unit(w.get(1))?,
                pass,
            }
        }
        "barrage" => parse_barrage(&w)?,
        "demolish" => Command::Demolish {
            bridge: w
                .get(1)
                .ok_or_else(|| err("demolish <bridge> [fz]"))?
                .to_ascii_lowercase(),
            fire_zone: match w.get(2) {
                None => false,
                Some(&"fz") if w.len() == 3 => true,
                _ => return Err(err("demolish <bridge> [fz]")),
            },
        },
        "unmark" if w.len() == 2 => Command::Unmark {
            unit: unit(w.get(1))?,
        },
        "droproll" => parse_droproll(&w)?,
        "buy" => {
            if w.len() == 2 && w[1] == "none" {
                Command::Buy { chits: Vec::new() }
            } else if w.len() < 2 || w.len() > 20 {
                return Err(err("buy <chit> … (e.g. buy f-501 f-502), or buy none"));
            } else {
                Command::Buy {
                    chits: w[1..].iter().map(|c| c.to_ascii_lowercase()).collect(),
                }
            }
        }
        "spend" => parse_spend(&w, facts)?,
        "command" if w.len() >= 2 => parse_command(&w)?,
        "place" if w.len() == 3 => Command::Place {
            event: w[1].to_owned(),
            target: w[2].to_owned(),
            at: None,
            units: Vec::new(),
        },
        "place" if w.len() == 4 && w[1] == "reinf" && Hex::parse(w[3]).is_some() => {
            Command::Place {
                event: w[1].to_owned(),
                target: w[2].to_owned(),
                at: Hex::parse(w[3]),
                units: Vec::new(),
            }
        }
        "place" if (4..=5).contains(&w.len()) && w[1] == "reinf" => Command::Place {
            event: w[1].to_owned(),
            target: w[2].to_owned(),
            at: None,
            units: w[3..].iter().map(|u| u.to_string()).collect(),
        },
        "place" if w.len() == 4 && w[1] == "air-strike" => Command::Place {
            event: w[1].to_owned(),
            target: w[2].to_owned(),
            at: Some(Hex::parse(w[3]).ok_or_else(|| err("place air-strike <formation> <hex>"))?),
            units: Vec::new(),
        },
        "intelligence" if w.len() == 2 => Command::Intelligence {
            division: w[1].to_owned(),
        },
        "stopraid" if w.len() == 2 => Command::StopRaid {
            points: w[1]
                .parse()
                .map_err(|_| err("stopraid <dispatch points>"))?,
        },
        "release" => match w.len() {
            1 => Command::Release { dp: 0 },
            3 if w[1] == "dp" => Command::Release {
                dp: w[2].parse().map_err(|_| err("release [dp <0-4>]"))?,
            },
            _ => return Err(err("release [dp <0-4>]")),
        },
        "offmap" => parse_offmap(&w)?,
        "route" => parse_route(&w)?,
        "watch" => parse_watch(&w)?,
        "dispute" => parse_dispute(&w, text)?,
        _ => return Err(err(format!("'{text}' is not an order here. {}", GRAMMAR))),
    })
}

/// Where a check's `pass <faces>` stands in the order, and the faces: nothing follows them.
fn pass_at(w: &[&str]) -> Result<(usize, Vec<u32>), RuleError> {
    let i = w
        .iter()
        .position(|t| *t == "pass")
        .ok_or_else(|| err("a check states its passing faces: ... pass 0-6"))?;
    let f = w
        .get(i + 1)
        .ok_or_else(|| err("'pass' is followed by the passing faces, 0-6"))?;
    if w.len() > i + 2 {
        return Err(err("nothing may follow the passing faces"));
    }
    Ok((i, parse_faces(f)?))
}

/// `barrage <unit> <hex> light|heavy pass <faces>`.
fn parse_barrage(w: &[&str]) -> Result<Command, RuleError> {
    let (i, pass) = pass_at(w)?;
    let heavy = match w.get(3).copied() {
        Some("light") => false,
        Some("heavy") => true,
        _ => return Err(err("barrage <unit> <hex> light|heavy pass <faces>")),
    };
    if i != 4 {
        return Err(err("barrage <unit> <hex> light|heavy pass <faces>"));
    }
    Ok(Command::Barrage {
        unit: unit(w.get(1))?,
        hex: hex(w.get(2))?,
        heavy,
        pass,
    })
}

/// `route <hex> … <stop hex>` or `route stay` (4.2).
fn parse_route(w: &[&str]) -> Result<Command, RuleError> {
    if w.get(1) == Some(&"stay") && w.len() == 2 {
        return Ok(Command::Route { path: Vec::new() });
    }
    let path = w[1..]
        .iter()
        .map(|t| hex(Some(t)))
        .collect::<Result<Vec<_>, _>>()?;
    if path.is_empty() || path.len() > 200 {
        return Err(err("route <hex> … <stop hex>, or route stay"));
    }
    Ok(Command::Route { path })
}

/// `watch all`, `watch none` or `watch <hex>…` (decision 37).
fn parse_watch(w: &[&str]) -> Result<Command, RuleError> {
    Ok(match w.get(1..).unwrap_or_default() {
        ["all"] => Command::Watch { hexes: None },
        ["none"] => Command::Watch {
            hexes: Some(Vec::new()),
        },
        hexes if !hexes.is_empty() && hexes.len() <= MAX_WATCHED => {
            let mut hexes = hexes
                .iter()
                .map(|t| hex(Some(t)))
                .collect::<Result<Vec<_>, _>>()?;
            hexes.sort();
            hexes.dedup();
            Command::Watch { hexes: Some(hexes) }
        }
        _ => {
            return Err(err(format!(
                "watch all | watch none | watch <hex>… (at most {MAX_WATCHED} hexes)"
            )))
        }
    })
}

/// `move <unit> <hex>… [wheeled|tracked|mounted] [column|cohesion]`.
fn parse_move(w: &[&str]) -> Result<Command, RuleError> {
    let unit = unit(w.get(1))?;
    let mut rest = &w[2..];
    let column = rest.last() == Some(&"column");
    let cohesion = rest.last() == Some(&"cohesion");
    if column || cohesion {
        rest = &rest[..rest.len() - 1];
    }
    let transport = rest.last().and_then(|t| Transport::parse(t));
    if transport.is_some() {
        rest = &rest[..rest.len() - 1];
    }
    if rest.is_empty() {
        return Err(err(
            "move <unit> <hex> <hex> … [column|cohesion]: name at least one hex",
        ));
    }
    let path = rest
        .iter()
        .map(|t| hex(Some(t)))
        .collect::<Result<Vec<_>, _>>()?;
    if path.len() > 60 {
        return Err(err("a move is at most 60 hexes"));
    }
    Ok(Command::Move {
        unit,
        path,
        column,
        transport,
        cohesion,
    })
}

/// `fire|opfire <unit> <hex> <class> [on <terrain>] [covered] [-- facts]`.
fn parse_fire(verb: &str, w: &[&str], facts: String) -> Result<Command, RuleError> {
    let covered = verb == "opfire" && w.last() == Some(&"covered");
    let w = if covered { &w[..w.len() - 1] } else { w };
    let unit = unit(w.get(1))?;
    let hex = hex(w.get(2))?;
    let class = w.get(3).map(|c| c.to_ascii_lowercase()).unwrap_or_default();
    if !CLASSES.contains(&class.as_str()) {
        return Err(err(format!(
            "state the weapon class: one of {}",
            CLASSES.join(", ")
        )));
    }
    let on = match (w.get(4), w.get(5)) {
        (None, _) => None,
        (Some(&"on"), Some(t)) => {
            Some(Terrain::parse(t).ok_or_else(|| err(format!("'{t}' is not a terrain")))?)
        }
        _ => {
            return Err(err(
                "after the weapon class: 'on <terrain>' or '-- <facts>'",
            ))
        }
    };
    if w.len() > 6 {
        return Err(err("after 'on <terrain>', facts follow '--'"));
    }
    Ok(Command::Fire {
        unit,
        hex,
        class,
        opportunity: verb == "opfire",
        on,
        facts,
        covered,
    })
}

/// `droproll <unit> <zone> [glider] [flak N] [flak88 N] [fz <flak unit>,…]` (3.4.1).
fn parse_droproll(w: &[&str]) -> Result<Command, RuleError> {
    let unit = unit(w.get(1))?;
    let zone = w.get(2).ok_or_else(|| err(DROPROLL))?.to_ascii_uppercase();
    let (mut glider, mut flak, mut flak88, mut fz) = (false, 0, 0, Vec::new());
    let mut i = 3;
    while i < w.len() {
        match w[i] {
            "glider" => glider = true,
            "flak" | "flak88" => {
                let n: u32 = w
                    .get(i + 1)
                    .and_then(|n| n.parse().ok())
                    .filter(|n| *n < 20)
                    .ok_or_else(|| err("flak N: a count"))?;
                if w[i] == "flak" {
                    flak = n
                } else {
                    flak88 = n
                }
                i += 1;
            }
            "fz" => {
                fz = w
                    .get(i + 1)
                    .map(|t| {
                        t.split(',')
                            .map(|u| self::unit(Some(&u)))
                            .collect::<Result<Vec<_>, _>>()
                    })
                    .transpose()?
                    .filter(|v| !v.is_empty() && v.len() < 20)
                    .ok_or_else(|| {
                        err("fz <flak unit>,<flak unit>…: the flak units projecting a Fire Zone into the zone")
                    })?;
                i += 1;
            }
            other => return Err(err(format!("'{other}': {DROPROLL}"))),
        }
        i += 1;
    }
    Ok(Command::DropRoll {
        unit,
        zone,
        glider,
        flak,
        flak88,
        fz,
    })
}

/// `spend <n> cp|dp [<division>] [-- what for]`.
fn parse_spend(w: &[&str], facts: String) -> Result<Command, RuleError> {
    let usage = "spend <n> cp|dp [<division>] [-- what for]";
    let points = w
        .get(1)
        .and_then(|n| n.parse().ok())
        .filter(|n| *n > 0 && *n < 100)
        .ok_or_else(|| err(usage))?;
    let dispatch = match w.get(2).map(|t| t.to_ascii_lowercase()).as_deref() {
        Some("cp") => false,
        Some("dp") => true,
        _ => return Err(err(usage)),
    };
    if w.len() > 4 {
        return Err(err(usage));
    }
    Ok(Command::Spend {
        points,
        dispatch,
        division: w.get(3).map(|d| d.to_string()),
        facts,
    })
}

/// `command <unit> [by <leader>] [phone] [from <division>]` (S6.5–S6.10).
fn parse_command(w: &[&str]) -> Result<Command, RuleError> {
    let usage = "command <unit> [by <leader>] [phone] [from <division>]";
    let (mut by, mut phone, mut from) = (None, false, None);
    let mut i = 2;
    while i < w.len() {
        match (w[i], w.get(i + 1)) {
            ("by", Some(l)) if by.is_none() => {
                by = Some(l.to_string());
                i += 2;
            }
            ("from", Some(d)) if from.is_none() => {
                from = Some(d.to_string());
                i += 2;
            }
            ("phone", _) if !phone => {
                phone = true;
                i += 1;
            }
            _ => return Err(err(usage)),
        }
    }
    Ok(Command::CommandAction {
        unit: w[1].to_owned(),
        by,
        phone,
        from,
    })
}

/// `offmap <formation>:<number> …` (5.1).
fn parse_offmap(w: &[&str]) -> Result<Command, RuleError> {
    let moves = w[1..]
        .iter()
        .map(|t| {
            let (f, n) = t.split_once(':')?;
            Some((f.to_owned(), n.parse().ok()?))
        })
        .collect::<Option<Vec<(String, u32)>>>()
        .filter(|m| !m.is_empty() && m.len() <= 40)
        .ok_or_else(|| err("offmap <formation>:<number> … for every formation on your display"))?;
    Ok(Command::OffMap { moves })
}

/// `dispute <seq> <text>`.
fn parse_dispute(w: &[&str], text: &str) -> Result<Command, RuleError> {
    let seq = w
        .get(1)
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| err("dispute <seq> <text>"))?;
    let rest = text
        .splitn(3, char::is_whitespace)
        .nth(2)
        .unwrap_or("")
        .trim();
    if rest.is_empty() || rest.len() > 2000 {
        return Err(err(
            "dispute <seq> <text>: say what you object to (at most 2,000 characters)",
        ));
    }
    Ok(Command::Dispute {
        seq,
        text: rest.to_owned(),
    })
}

pub const GRAMMAR: &str = "weather · fog · airdrop <turn> · raid <day> raid|decoy · plan <drop> <formation>:<zone>… · dzchange <zone> · huber 59th|chill · mount <infantry> <vehicle> · dismount <unit> [abandon|cohesion] · truck|jeep <unit> <division> · park <park> <hex> · enterpark <unit> <park> · roadblock <hex> [remove] · rearguard <unit> <hex> · joemann · rout <formation> [<unit>…|none] · entrench <unit> · move <unit> <hex>… [wheeled|tracked|mounted] [column|cohesion] · fire|opfire <unit> <hex> <class> [on <terrain>] [covered] [-- facts] · assault <unit> <hex> · result <class> [<unit>] · bulldozer <unit> <stream bridge> · bulldoze <stream bridge> · bailey <unit> <bridge> · ferry <unit> <bridge> [abandon] · tq <unit> <reason> pass <faces> · rally <unit> pass <faces> · barrage <unit> <hex> light|heavy pass <faces> · demolish <bridge> [fz] · droproll <unit> <zone> [glider] [flak N] [flak88 N] [fz <flak unit>,…] · unmark <unit> · status · route <hex>… | route stay · release [dp <n>] · offmap <formation>:<number>… · buy <chit>… | buy none · spend <n> cp|dp [<division>] [-- note] · command <unit> [by <leader>] [phone] [from <division>] · place heroic|dutch|minefield <unit|hex> · place reinf <formation> [<unit>…] · place reinf <lost82 unit> <hex> · stopraid <n> · intelligence <division> · end · pass · dispute <seq> <text> · watch all|none|<hex>…";

const DROPROLL: &str = "droproll <unit> <zone> [glider] [flak N] [flak88 N] [fz <flak unit>,…]";

/// The most hexes a watch list names.
pub const MAX_WATCHED: usize = 200;

fn with_facts(s: String, facts: &str) -> String {
    if facts.is_empty() {
        s
    } else {
        format!("{s} -- {facts}")
    }
}

pub fn describe(c: &Command) -> String {
    let hexes = |p: &[Hex]| p.iter().map(Hex::to_string).collect::<Vec<_>>().join(" ");
    match c {
        Command::Weather => "weather".into(),
        Command::Fog => "fog".into(),
        Command::AirDrop { at: Some(t) } => format!("airdrop {t}"),
        Command::AirDrop { at: None } => "airdrop (sealed)".into(),
        Command::Plan {
            drop,
            sticks: Some(s),
        } => format!("plan {drop} {}", s.join(" ")),
        Command::Plan { drop, sticks: None } => format!("plan {drop} (sealed)"),
        Command::Raid { day, real: Some(r) } => {
            format!("raid {day} {}", if *r { "raid" } else { "decoy" })
        }
        Command::Raid { day, real: None } => format!("raid {day} (sealed)"),
        Command::Move {
            unit,
            path,
            column,
            transport,
            cohesion,
        } => {
            format!(
                "move {unit} {}{}{}{}",
                hexes(path),
                transport
                    .map(|t| format!(" {}", t.name()))
                    .unwrap_or_default(),
                if *column { " column" } else { "" },
                if *cohesion { " cohesion" } else { "" }
            )
        }
        Command::Fire {
            unit,
            hex,
            class,
            opportunity,
            on,
            facts,
            covered,
        } => with_facts(
            format!(
                "{} {unit} {hex} {class}{}{}",
                if *opportunity { "opfire" } else { "fire" },
                on.map(|t| format!(" on {}", t.name())).unwrap_or_default(),
                if *covered { " covered" } else { "" }
            ),
            facts,
        ),
        Command::Assault { unit, hex, facts } => with_facts(format!("assault {unit} {hex}"), facts),
        Command::Result {
            class,
            target: None,
        } => format!("result {class}"),
        Command::Result {
            class,
            target: Some(u),
        } => format!("result {class} {u}"),
        Command::Bulldozer { unit, bridge } => format!("bulldozer {unit} {bridge}"),
        Command::Bulldoze { bridge } => format!("bulldoze {bridge}"),
        Command::DzChange { zone } => format!("dzchange {zone}"),
        Command::Mount { infantry, vehicle } => format!("mount {infantry} {vehicle}"),
        Command::Dismount {
            unit,
            abandon,
            cohesion,
        } => format!(
            "dismount {unit}{}{}",
            if *abandon { " abandon" } else { "" },
            if *cohesion { " cohesion" } else { "" }
        ),
        Command::Ride {
            asset,
            unit,
            division,
        } => format!("{asset} {unit} {division}"),
        Command::Park { park, hex } => format!("park {park} {hex}"),
        Command::EnterPark { unit, park } => format!("enterpark {unit} {park}"),
        Command::RoadBlock { hex, remove } => {
            format!("roadblock {hex}{}", if *remove { " remove" } else { "" })
        }
        Command::Rearguard { unit, hex } => format!("rearguard {unit} {hex}"),
        Command::Entrench { unit } => format!("entrench {unit}"),
        Command::JoeMann => "joemann".into(),
        Command::Rout { formation, units } => {
            let mut t = format!("rout {formation}");
            for u in units {
                t.push(' ');
                t.push_str(u);
            }
            t
        }
        Command::Huber { division: Some(d) } => format!("huber {d}"),
        Command::Huber { division: None } => "huber (sealed)".into(),
        Command::Bailey { unit, bridge } => format!("bailey {unit} {bridge}"),
        Command::Ferry {
            unit,
            bridge,
            abandon,
        } => format!(
            "ferry {unit} {bridge}{}",
            if *abandon { " abandon" } else { "" }
        ),
        Command::Tq { unit, reason, pass } => {
            format!("tq {unit} {} pass {}", reason.join(" "), faces_text(pass))
        }
        Command::Rally { unit, pass } => format!("rally {unit} pass {}", faces_text(pass)),
        Command::Barrage {
            unit,
            hex,
            heavy,
            pass,
        } => format!(
            "barrage {unit} {hex} {} pass {}",
            if *heavy { "heavy" } else { "light" },
            faces_text(pass)
        ),
        Command::Demolish { bridge, fire_zone } => {
            format!("demolish {bridge}{}", if *fire_zone { " fz" } else { "" })
        }
        Command::Unmark { unit } => format!("unmark {unit}"),
        Command::DropRoll {
            unit,
            zone,
            glider,
            flak,
            flak88,
            fz,
        } => {
            let mut s = format!("droproll {unit} {zone}");
            if *glider {
                s.push_str(" glider");
            }
            if *flak > 0 {
                s.push_str(&format!(" flak {flak}"));
            }
            if *flak88 > 0 {
                s.push_str(&format!(" flak88 {flak88}"));
            }
            if !fz.is_empty() {
                s.push_str(&format!(" fz {}", fz.join(",")));
            }
            s
        }
        Command::Status => "status".into(),
        Command::Route { path } if path.is_empty() => "route stay".into(),
        Command::Route { path } => format!("route {}", hexes(path)),
        Command::Buy { chits } if chits.is_empty() => "buy none".into(),
        Command::Buy { chits } => format!("buy {}", chits.join(" ")),
        Command::Spend {
            points,
            dispatch,
            division,
            facts,
        } => with_facts(
            format!(
                "spend {points} {}{}",
                if *dispatch { "dp" } else { "cp" },
                division
                    .as_ref()
                    .map(|d| format!(" {d}"))
                    .unwrap_or_default()
            ),
            facts,
        ),
        Command::StopRaid { points } => format!("stopraid {points}"),
        Command::CommandAction {
            unit,
            by,
            phone,
            from,
        } => format!(
            "command {unit}{}{}{}",
            by.as_ref().map(|l| format!(" by {l}")).unwrap_or_default(),
            if *phone { " phone" } else { "" },
            from.as_ref()
                .map(|d| format!(" from {d}"))
                .unwrap_or_default()
        ),
        Command::Place {
            event,
            target,
            at,
            units,
        } => format!(
            "place {event} {target}{}{}",
            units.iter().map(|u| format!(" {u}")).collect::<String>(),
            at.map(|h| format!(" {h}")).unwrap_or_default()
        ),
        Command::Intelligence { division } => format!("intelligence {division}"),
        Command::Release { dp: 0 } => "release".into(),
        Command::Release { dp } => format!("release dp {dp}"),
        Command::OffMap { moves } => format!(
            "offmap {}",
            moves
                .iter()
                .map(|(f, n)| format!("{f}:{n}"))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        Command::End => "end".into(),
        Command::Pass => "pass".into(),
        Command::Dispute { seq, text } => format!("dispute {seq} {text}"),
        Command::Watch { hexes: None } => "watch all".into(),
        Command::Watch { hexes: Some(h) } if h.is_empty() => "watch none".into(),
        Command::Watch { hexes: Some(h) } => format!(
            "watch {}",
            h.iter().map(Hex::to_string).collect::<Vec<_>>().join(" ")
        ),
    }
}
