//! Map boards and terrain (2.): the terrain tiles and the terrain effects chart (2.2.1, 2.3) as
//! data — combat, movement, line of sight and morale — and the map itself, one tile per hex.

use serde::{Deserialize, Serialize};

use super::hex::Hex;

/// 2.3 Terrain tiles. A hex with no tile is clear (2.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Terrain {
    Clear,
    Swamp,
    Waterway,
    WaterCrossing,
    Forest,
    Hill,
    Town,
    Fence,
    Entrenchment,
    Fort,
}

/// What a tile does to movement (2.3, "Movement").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveEffect {
    None,
    Impassable,
    /// Units stop when they enter (forest: not Indians, 7.4).
    Stop,
    /// 2.3.3 Waterway: entering costs 2 AP, and the unit does nothing more this turn.
    Waterway,
}

/// One row of the terrain effects chart.
pub struct Effects {
    pub name: &'static str,
    /// The map-file letter.
    pub code: char,
    /// Added to each attacking die (2.2.1 "Combat"): -1 is "-1 to A".
    pub combat: i32,
    pub movement: MoveEffect,
    pub blocks_los: bool,
    /// Added to the defender's morale for retreat determination.
    pub morale: i32,
}

/// 2.3 and the TERRAIN EFFECTS CHART, row by row.
const CHART: [(Terrain, Effects); 10] = [
    (
        Terrain::Clear,
        Effects {
            name: "clear",
            code: '.',
            combat: 0,
            movement: MoveEffect::None,
            blocks_los: false,
            morale: 0,
        },
    ),
    (
        Terrain::Swamp,
        Effects {
            name: "swamp",
            code: 's',
            combat: 0,
            movement: MoveEffect::Impassable,
            blocks_los: false,
            morale: 0,
        },
    ),
    (
        Terrain::Waterway,
        Effects {
            name: "waterway",
            code: 'w',
            combat: 0,
            movement: MoveEffect::Waterway,
            blocks_los: false,
            morale: -1,
        },
    ),
    (
        Terrain::WaterCrossing,
        Effects {
            name: "water-crossing",
            code: 'x',
            combat: 0,
            movement: MoveEffect::None,
            blocks_los: false,
            morale: 0,
        },
    ),
    (
        Terrain::Forest,
        Effects {
            name: "forest",
            code: 'f',
            combat: -1,
            movement: MoveEffect::Stop,
            blocks_los: true,
            morale: 1,
        },
    ),
    (
        Terrain::Hill,
        Effects {
            name: "hill",
            code: 'h',
            combat: -1,
            movement: MoveEffect::Stop,
            blocks_los: true,
            morale: 1,
        },
    ),
    (
        Terrain::Town,
        Effects {
            name: "town",
            code: 't',
            combat: -1,
            movement: MoveEffect::None,
            blocks_los: true,
            morale: 1,
        },
    ),
    (
        Terrain::Fence,
        Effects {
            name: "fence",
            code: 'n',
            combat: -1,
            movement: MoveEffect::None,
            blocks_los: false,
            morale: 1,
        },
    ),
    (
        Terrain::Entrenchment,
        Effects {
            name: "entrenchment",
            code: 'e',
            combat: -1,
            movement: MoveEffect::Stop,
            blocks_los: true,
            morale: 1,
        },
    ),
    (
        Terrain::Fort,
        Effects {
            name: "fort",
            code: 'F',
            combat: -2,
            movement: MoveEffect::Stop,
            blocks_los: true,
            morale: 2,
        },
    ),
];

impl Terrain {
    pub const ALL: [Terrain; 10] = [
        Terrain::Clear,
        Terrain::Swamp,
        Terrain::Waterway,
        Terrain::WaterCrossing,
        Terrain::Forest,
        Terrain::Hill,
        Terrain::Town,
        Terrain::Fence,
        Terrain::Entrenchment,
        Terrain::Fort,
    ];

    pub fn effects(self) -> &'static Effects {
        &CHART[self as usize].1
    }

    pub fn name(self) -> &'static str {
        self.effects().name
    }

    pub fn from_name(name: &str) -> Option<Terrain> {
        Terrain::ALL.into_iter().find(|t| t.name() == name)
    }

    pub fn from_code(code: char) -> Option<Terrain> {
        BY_CODE.get(code as usize).copied().flatten()
    }
}

/// The terrain of each map code, by the code's ASCII value: every look at a hex's terrain
/// reads its code.
const BY_CODE: [Option<Terrain>; 128] = {
    let mut table = [None; 128];
    let mut i = 0;
    while i < CHART.len() {
        table[CHART[i].1.code as usize] = Some(CHART[i].0);
        i += 1;
    }
    table
};

/// The land map: its size and one tile per hex, kept as one character per hex so that the
/// state stays small to hash and to fold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Map {
    pub cols: u8,
    pub rows: u8,
    /// Row-major, one terrain code per hex.
    pub tiles: String,
}

impl Map {
    pub fn clear(cols: u8, rows: u8) -> Map {
        Map {
            cols,
            rows,
            tiles: ".".repeat(usize::from(cols) * usize::from(rows)),
        }
    }

    pub fn contains(&self, hex: Hex) -> bool {
        hex.col < self.cols && hex.row < self.rows
    }

    fn index(&self, hex: Hex) -> usize {
        usize::from(hex.row) * usize::from(self.cols) + usize::from(hex.col)
    }

    /// The tile of a hex on the map; hexes off the map read as clear.
    pub fn terrain(&self, hex: Hex) -> Terrain {
        if !self.contains(hex) {
            return Terrain::Clear;
        }
        let code = self.tiles.as_bytes()[self.index(hex)] as char;
        Terrain::from_code(code).unwrap_or(Terrain::Clear)
    }

    pub fn set(&mut self, hex: Hex, terrain: Terrain) {
        let i = self.index(hex);
        let mut bytes = std::mem::take(&mut self.tiles).into_bytes();
        bytes[i] = terrain.effects().code as u8;
        self.tiles = String::from_utf8(bytes).expect("terrain codes are ASCII");
    }

    /// The neighbours of a hex that are on the map.
    pub fn neighbours(&self, hex: Hex) -> impl Iterator<Item = Hex> + '_ {
        hex.neighbours().filter(|h| self.contains(*h))
    }
}
