//! Game units (3.): the unit types, their morale points (MP), and the RANGE AND FIREPOWER /
//! MOVEMENT chart and COMBAT CHART "hit numbers" as data.

use serde::{Deserialize, Serialize};

use super::hex::Hex;

/// A side of the battle: index 0 is the Americans, 1 the British (with their Indian allies).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Side(pub u8);

impl Side {
    pub const AMERICAN: Side = Side(0);
    pub const BRITISH: Side = Side(1);

    pub fn other(self) -> Side {
        Side(1 - self.0)
    }

    pub fn name(self) -> &'static str {
        ["american", "british"][usize::from(self.0)]
    }

    pub fn parse(text: &str) -> Option<Side> {
        match text {
            "american" => Some(Side::AMERICAN),
            "british" => Some(Side::BRITISH),
            _ => None,
        }
    }
}

/// 3.4 The unit types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    Elite,
    Marine,
    Regular,
    Light,
    Militia,
    Indian,
    Dragoon,
    Artillery,
    Rocket,
    Leader,
    Vp,
}

/// One row of the unit charts.
pub struct Chart {
    pub name: &'static str,
    /// MOVEMENT CHART: hexes per move.
    pub movement: u8,
    /// RANGE AND FIREPOWER CHART: range in hexes (0: does not fire).
    pub range: u8,
    /// Dice rolled (8.1.3: not affected by MP or terrain).
    pub dice: u8,
    /// COMBAT CHART: hit number at 1, 2, 3, 4 hexes (7 = no hit possible).
    pub hit: [u8; 4],
    /// COMBAT CHART "Close Combat" column; `None` where the unit may not close (8.3.1).
    pub close: Option<u8>,
}

const INFANTRY_HITS: [u8; 4] = [5, 6, 7, 7];

/// The charts, in the order of [`Kind`].
const CHARTS: [Chart; 11] = [
    Chart {
        name: "elite",
        movement: 1,
        range: 2,
        dice: 3,
        hit: INFANTRY_HITS,
        close: Some(4),
    },
    Chart {
        name: "marine",
        movement: 1,
        range: 2,
        dice: 3,
        hit: INFANTRY_HITS,
        close: Some(4),
    },
    Chart {
        name: "regular",
        movement: 1,
        range: 2,
        dice: 3,
        hit: INFANTRY_HITS,
        close: Some(4),
    },
    Chart {
        name: "light",
        movement: 2,
        range: 2,
        dice: 3,
        hit: INFANTRY_HITS,
        close: Some(4),
    },
    Chart {
        name: "militia",
        movement: 1,
        range: 2,
        dice: 3,
        hit: INFANTRY_HITS,
        close: Some(4),
    },
    Chart {
        name: "indian",
        movement: 2,
        range: 2,
        dice: 3,
        hit: INFANTRY_HITS,
        close: Some(4),
    },
    Chart {
        name: "dragoon",
        movement: 3,
        range: 1,
        dice: 3,
        hit: [5, 7, 7, 7],
        close: None,
    },
    Chart {
        name: "artillery",
        movement: 1,
        range: 4,
        dice: 3,
        hit: [4, 5, 6, 6],
        close: None,
    },
    Chart {
        name: "rocket",
        movement: 1,
        range: 3,
        dice: 3,
        hit: [6, 6, 6, 7],
        close: None,
    },
    Chart {
        name: "leader",
        movement: 3,
        range: 0,
        dice: 0,
        hit: [7, 7, 7, 7],
        close: None,
    },
    Chart {
        name: "vp",
        movement: 0,
        range: 0,
        dice: 0,
        hit: [7, 7, 7, 7],
        close: None,
    },
];

impl Kind {
    pub const ALL: [Kind; 11] = [
        Kind::Elite,
        Kind::Marine,
        Kind::Regular,
        Kind::Light,
        Kind::Militia,
        Kind::Indian,
        Kind::Dragoon,
        Kind::Artillery,
        Kind::Rocket,
        Kind::Leader,
        Kind::Vp,
    ];

    pub fn chart(self) -> &'static Chart {
        &CHARTS[self as usize]
    }

    pub fn name(self) -> &'static str {
        self.chart().name
    }

    /// The name with its article, as a line reads it: "an artillery", "a regular".
    pub fn a_name(self) -> String {
        let name = self.name();
        let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        format!("{article} {name}")
    }

    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Elite, marines, regular, light and militia: the infantry that may form column (7.5).
    pub fn is_line_infantry(self) -> bool {
        matches!(
            self,
            Kind::Elite | Kind::Marine | Kind::Regular | Kind::Light | Kind::Militia
        )
    }

    /// 6.2.2 "infantry type": line infantry and Indians.
    pub fn is_infantry_type(self) -> bool {
        self.is_line_infantry() || self == Kind::Indian
    }

    pub fn is_gun(self) -> bool {
        matches!(self, Kind::Artillery | Kind::Rocket)
    }

    /// Units that fight and take hits: everything but leaders and VP units.
    pub fn is_combat(self) -> bool {
        !matches!(self, Kind::Leader | Kind::Vp)
    }

    /// The hex-limit slot the unit fills (4.3).
    pub fn slot(self) -> Slot {
        match self {
            Kind::Artillery | Kind::Rocket => Slot::Gun,
            Kind::Leader => Slot::Leader,
            Kind::Vp => Slot::Vp,
            _ => Slot::Line,
        }
    }

    /// 3.4 Unit sizes: the MP a unit of this kind starts a scenario with (its size): elite 4
    /// (3.4.1), marines 1–4 (3.4.2), regulars 3–4 (3.4.3), light 3 (3.4.4), every other 2
    /// (3.4.5–3.4.9, and 3.3: "all other units are 2 MP"). A scenario may place a unit already
    /// reduced below its size (`2/4`), as the worked examples do.
    pub fn mp_range(self) -> (u8, u8) {
        match self {
            Kind::Elite => (4, 4),
            Kind::Regular => (3, 4),
            Kind::Marine => (1, 4),
            Kind::Light => (3, 3),
            Kind::Leader | Kind::Vp => (0, 0),
            _ => (2, 2),
        }
    }
}

/// 4.3 Hex limits: each hex holds at most one unit per slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// Infantry of any type or a dragoon.
    Line,
    /// Artillery or rockets.
    Gun,
    Leader,
    Vp,
}

/// One counter on the map. Its name lives in the scenario (the unit list keeps the scenario's
/// order), so that the state is small and cheap to copy. In the state's JSON a unit is one
/// string, `american regular C5 3/4 column acted`, which keeps the state hash quick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unit {
    pub side: Side,
    pub kind: Kind,
    pub hex: Hex,
    /// The MP showing (3.3); 0 for leaders and VP units.
    pub mp: u8,
    /// The MP it started the scenario with: rally never goes above it (9.4).
    pub start_mp: u8,
    /// 7.5 Column formation.
    pub column: bool,
    /// Off the map: eliminated, or (a VP unit) taken.
    pub gone: bool,
    /// 6.1.4 Activated this turn.
    pub acted: bool,
    /// Moved this turn (9.1.1, 9.4: begin and end the turn together).
    pub moved: bool,
    /// 11.2 Fired on during this game turn.
    pub fired_on: bool,
}

impl Serialize for Unit {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut text = format!(
            "{} {} {} {}/{}",
            self.side.name(),
            self.kind.name(),
            self.hex,
            self.mp,
            self.start_mp
        );
        for (flag, name) in [
            (self.column, "column"),
            (self.gone, "gone"),
            (self.acted, "acted"),
            (self.moved, "moved"),
            (self.fired_on, "fired-on"),
        ] {
            if flag {
                text.push(' ');
                text.push_str(name);
            }
        }
        s.serialize_str(&text)
    }
}

impl<'de> Deserialize<'de> for Unit {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Unit, D::Error> {
        use serde::de::Error;
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        let bad = || D::Error::custom(format!("'{text}' is not a unit"));
        let mut words = text.split(' ');
        let side = words.next().and_then(Side::parse).ok_or_else(bad)?;
        let kind = words.next().and_then(Kind::from_name).ok_or_else(bad)?;
        let hex = words
            .next()
            .and_then(|w| Hex::parse(w).ok())
            .ok_or_else(bad)?;
        let (mp, start) = words
            .next()
            .and_then(|w| w.split_once('/'))
            .ok_or_else(bad)?;
        let mut u = Unit::new(side, kind, hex, mp.parse().map_err(|_| bad())?);
        u.start_mp = start.parse().map_err(|_| bad())?;
        for w in words {
            match w {
                "column" => u.column = true,
                "gone" => u.gone = true,
                "acted" => u.acted = true,
                "moved" => u.moved = true,
                "fired-on" => u.fired_on = true,
                _ => return Err(bad()),
            }
        }
        Ok(u)
    }
}

impl Unit {
    pub fn new(side: Side, kind: Kind, hex: Hex, mp: u8) -> Unit {
        Unit {
            side,
            kind,
            hex,
            mp,
            start_mp: mp,
            column: false,
            gone: false,
            acted: false,
            moved: false,
            fired_on: false,
        }
    }

    /// 3.2, 3.5 Which label of the counter shows the MP: infantry of 3–4 MP (light: 2–3) show
    /// the front, rotated for the lower value; lower values show the back.
    pub fn face(&self) -> &'static str {
        let front = match self.kind {
            Kind::Elite | Kind::Marine | Kind::Regular => self.mp >= 3,
            Kind::Light => self.mp >= 2,
            Kind::Leader | Kind::Vp => true,
            _ => self.mp >= 2,
        };
        if front {
            "front"
        } else {
            "back"
        }
    }

    pub fn on_map(&self) -> bool {
        !self.gone
    }

    pub fn is_combat(&self) -> bool {
        !self.gone && self.kind.is_combat()
    }
}
