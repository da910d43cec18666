//! 3. Game units: the unit types, their morale points (MP), and the RANGE AND FIREPOWER /
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

    /// 3.4 Unit sizes: the MP a unit of this kind may start with.
    pub fn mp_range(self) -> (u8, u8) {
        match self {
            Kind::Elite | Kind::Regular => (1, 4),
            Kind::Marine => (1, 4),
            Kind::Light => (1, 3),
            Kind::Leader | Kind::Vp => (0, 0),
            _ => (1, 2),
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

/// A unit's index in the battle's unit list, stable for the whole battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct UnitId(pub u16);

/// One counter on the map. Its name lives in the scenario (the unit list keeps the scenario's
/// order), so that the state is small and cheap to copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    pub side: Side,
    pub kind: Kind,
    pub hex: Hex,
    /// The MP showing (3.3); 0 for leaders and VP units.
    pub mp: u8,
    /// The MP it started the scenario with: rally never goes above it (9.4).
    pub start_mp: u8,
    /// 7.5 Column formation.
    #[serde(default, skip_serializing_if = "is_false")]
    pub column: bool,
    /// Off the map: eliminated, or (a VP unit) taken.
    #[serde(default, skip_serializing_if = "is_false")]
    pub gone: bool,
    /// 6.1.4 Activated this turn.
    #[serde(default, skip_serializing_if = "is_false")]
    pub acted: bool,
    /// Moved this turn (9.1.1, 9.4: begin and end the turn together).
    #[serde(default, skip_serializing_if = "is_false")]
    pub moved: bool,
    /// 11.2 Fired on during this game turn.
    #[serde(default, skip_serializing_if = "is_false")]
    pub fired_on: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
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

    pub fn on_map(&self) -> bool {
        !self.gone
    }

    pub fn is_combat(&self) -> bool {
        !self.gone && self.kind.is_combat()
    }
}
