//! The order of battle as data (`data/oob.txt`, issue 18 "Data"): every formation with its
//! side, division and the chit that activates it; every unit with its class, steps and flags
//! (engineer, para or glider, flak 88, organic transport, telephone, Command Range, Bailey,
//! Bulldozer, self command, Lost 82nd AB). The counter sheet is not in the text: the file is
//! reconstructed around the units the text names, and replaceable by the published counters.
//! The counter mix of trucks, jeeps, road blocks and Rearguards is `data/assets.txt`.
//!
//! A unit named in an order that the OOB does not list is the players' own counter: the
//! engine keeps its position and checks nothing the OOB would tell (docs, decision 12).

use std::collections::BTreeMap;
use std::sync::LazyLock;

use super::side::Side;

/// A formation of the OOB.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormationDef {
    pub id: String,
    pub side: Side,
    pub division: String,
    /// Its Formation, Independent or Artillery Activation chit; `None`: only its division's.
    pub chit: Option<String>,
}

/// A unit's class (the counter's type).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Leader,
    Infantry,
    Armor,
    Recon,
    Artillery,
    At,
    Flak,
    Engineer,
    Hq,
}

/// A unit of the OOB.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitDef {
    pub id: String,
    pub formation: String,
    pub class: Class,
    pub steps: u32,
    pub engineer: bool,
    pub para: bool,
    pub glider: bool,
    pub flak88: bool,
    /// Organic transport: truck, halftrack, tracked, wheeled.
    pub transport: Option<String>,
    /// A Leader with a telephone symbol (S6.7).
    pub telephone: bool,
    /// A Leader's Command Range in hexes.
    pub range: Option<u32>,
    pub bailey: bool,
    pub bulldozer: bool,
    /// Always In Command (S6.8).
    pub self_command: bool,
    /// One of the Reinf event's Lost 82nd AB units (S3.1).
    pub lost_82nd: bool,
}

#[derive(Debug, Default)]
pub struct Oob {
    pub formations: Vec<FormationDef>,
    pub units: Vec<UnitDef>,
    index: BTreeMap<String, usize>,
}

pub static OOB: LazyLock<Oob> =
    LazyLock::new(|| Oob::parse(include_str!("data/oob.txt")).expect("data/oob.txt parses"));

impl Oob {
    /// Reads the OOB format (see the file's head); an error names the line.
    pub fn parse(text: &str) -> Result<Oob, String> {
        let mut o = Oob::default();
        for (no, line) in text.lines().enumerate() {
            let at = |m: String| format!("oob.txt line {}: {m}", no + 1);
            let w: Vec<&str> = line
                .split('#')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .collect();
            match w.first().copied() {
                None => continue,
                Some("formation") if w.len() == 5 => {
                    let side = match w[2] {
                        "allied" => Side::Allied,
                        "german" => Side::German,
                        other => return Err(at(format!("'{other}' is not a side"))),
                    };
                    if o.formation(w[1]).is_some() {
                        return Err(at(format!("formation {} twice", w[1])));
                    }
                    o.formations.push(FormationDef {
                        id: w[1].into(),
                        side,
                        division: w[3].into(),
                        chit: (w[4] != "-").then(|| w[4].into()),
                    });
                }
                Some("unit") if w.len() >= 5 => {
                    if o.formation(w[2]).is_none() {
                        return Err(at(format!("unit {}: no formation {} above it", w[1], w[2])));
                    }
                    let class = match w[3] {
                        "leader" => Class::Leader,
                        "infantry" => Class::Infantry,
                        "armor" => Class::Armor,
                        "recon" => Class::Recon,
                        "artillery" => Class::Artillery,
                        "at" => Class::At,
                        "flak" => Class::Flak,
                        "engineer" => Class::Engineer,
                        "hq" => Class::Hq,
                        other => return Err(at(format!("'{other}' is not a class"))),
                    };
                    let mut u = UnitDef {
                        id: w[1].into(),
                        formation: w[2].into(),
                        class,
                        steps: w[4]
                            .parse()
                            .map_err(|_| at(format!("'{}' is not a number of steps", w[4])))?,
                        engineer: false,
                        para: false,
                        glider: false,
                        flak88: false,
                        transport: None,
                        telephone: false,
                        range: None,
                        bailey: false,
                        bulldozer: false,
                        self_command: false,
                        lost_82nd: false,
                    };
                    for f in &w[5..] {
                        match *f {
                            "engineer" => u.engineer = true,
                            "para" => u.para = true,
                            "glider" => u.glider = true,
                            "flak88" => u.flak88 = true,
                            "telephone" => u.telephone = true,
                            "bailey" => u.bailey = true,
                            "bulldozer" => u.bulldozer = true,
                            "self-command" => u.self_command = true,
                            "lost-82nd" => u.lost_82nd = true,
                            f if f.starts_with("transport:") => {
                                u.transport = Some(f["transport:".len()..].into())
                            }
                            f if f.starts_with("range:") => {
                                u.range = Some(f["range:".len()..].parse().map_err(|_| {
                                    at(format!("'{f}': a Command Range is range:<hexes>"))
                                })?)
                            }
                            other => return Err(at(format!("unknown flag '{other}'"))),
                        }
                    }
                    if u.range.is_some() != (u.class == Class::Leader) {
                        return Err(at(format!(
                            "{}: a Leader, and only a Leader, has a Command Range",
                            u.id
                        )));
                    }
                    if o.index.insert(u.id.clone(), o.units.len()).is_some() {
                        return Err(at(format!("unit {} twice", u.id)));
                    }
                    o.units.push(u);
                }
                Some(other) => {
                    return Err(at(format!(
                    "'{other}' is not a formation or unit line of the form the file's head gives"
                )))
                }
            }
        }
        Ok(o)
    }

    pub fn unit(&self, id: &str) -> Option<&UnitDef> {
        self.index.get(id).map(|&i| &self.units[i])
    }

    pub fn formation(&self, id: &str) -> Option<&FormationDef> {
        self.formations.iter().find(|f| f.id == id)
    }

    /// The formation of a unit of the OOB.
    pub fn formation_of(&self, unit: &str) -> Option<&FormationDef> {
        self.unit(unit).and_then(|u| self.formation(&u.formation))
    }

    pub fn side_of(&self, unit: &str) -> Option<Side> {
        self.formation_of(unit).map(|f| f.side)
    }

    pub fn division_of(&self, unit: &str) -> Option<&str> {
        self.formation_of(unit).map(|f| f.division.as_str())
    }

    /// The Leaders of a formation.
    pub fn leaders_of<'a>(&'a self, formation: &'a str) -> impl Iterator<Item = &'a UnitDef> + 'a {
        self.units
            .iter()
            .filter(move |u| u.formation == formation && u.class == Class::Leader)
    }

    /// The units of a formation.
    pub fn units_of<'a>(&'a self, formation: &'a str) -> impl Iterator<Item = &'a UnitDef> + 'a {
        self.units.iter().filter(move |u| u.formation == formation)
    }

    /// Is the unit American (the 101st, the Lost 82nd AB), for the telephones of S6.7?
    pub fn american(&self, unit: &str) -> bool {
        self.division_of(unit) == Some("101st") || self.unit(unit).is_some_and(|u| u.lost_82nd)
    }
}
