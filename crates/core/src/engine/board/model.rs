//! What a board is: the grid, its cells and their ground, the pieces and their state, the
//! lines and highlights over the map, and the palette each kind is drawn in. Data only; the
//! drawing reads it (`layout`, `render`).

/// A cell of the grid by column and row, both from 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct At {
    pub col: u16,
    pub row: u16,
}

impl At {
    pub fn new(col: u16, row: u16) -> At {
        At { col, row }
    }
}

/// The shape of the grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Grid {
    /// Flat-topped hexes, odd columns (B, D, F …) half a hex lower, as the wargame texts draw
    /// them.
    Hex { cols: u16, rows: u16 },
    /// Squares; walls and doors are cells of their own ground.
    Square { cols: u16, rows: u16 },
    /// A point-to-point map: each cell is a location at its `At` read as map coordinates
    /// (`col` across, `row` down, [`POINT`](super::POINT) drawing units each) within `cols` × `rows`, and
    /// `links` are the lines between them (roads, mountain tracks, bridges, exits off the map).
    /// A cell's name is drawn above its point, its pieces below it, three to a row.
    Points {
        cols: u16,
        rows: u16,
        links: Vec<Link>,
    },
}

/// What a line between two locations of a point-to-point map is (drawn by kind).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum LinkKind {
    /// An ordinary road.
    Road,
    /// A mountain track (a brown line of communication).
    Mountain,
    /// A bridge or river crossing (a blue line).
    Bridge,
    /// A bridge that has been blown: drawn dashed and crossed out.
    BlownBridge,
    /// The way off the map to an exit.
    Exit,
}

impl LinkKind {
    /// Its CSS class, light and dark stroke, width and dash.
    pub(super) fn paint(self) -> (&'static str, &'static str, f64, &'static str) {
        match self {
            LinkKind::Road => ("l-road", "#6b6453", 5.0, ""),
            LinkKind::Mountain => ("l-mountain", "#8b5a2b", 7.0, "14 6"),
            LinkKind::Bridge => ("l-bridge", "#2f6fb8", 7.0, ""),
            LinkKind::BlownBridge => ("l-blown", "#2f6fb8", 5.0, "8 8"),
            LinkKind::Exit => ("l-exit", "#444444", 4.0, "4 6"),
        }
    }

    /// Its name in the legend and `data-kind`.
    pub fn name(self) -> &'static str {
        match self {
            LinkKind::Road => "road",
            LinkKind::Mountain => "mountain",
            LinkKind::Bridge => "bridge",
            LinkKind::BlownBridge => "blown bridge",
            LinkKind::Exit => "exit",
        }
    }
}

/// A line between two locations of a point-to-point map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub from: At,
    pub to: At,
    pub kind: LinkKind,
    /// Its name in the game's orders (`kelheim-regensburg`): `data-link`.
    pub label: String,
    /// The hover title.
    pub title: String,
}

/// What a cell is drawn as. The toolkit owns the palette, so every board looks alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Ground {
    Clear,
    Forest,
    Hill,
    Town,
    Swamp,
    Water,
    Waterway,
    /// A bridge or ford.
    Crossing,
    Fence,
    Entrenchment,
    Fort,
    Wall,
    Corridor,
    Room,
    DoorClosed,
    DoorOpen,
    Entry,
    /// A location of a point-to-point map (a town, a crossroads).
    Location,
    /// A fortified location of a point-to-point map.
    Fortress,
    /// An exit off a point-to-point map.
    OffMap,
}

impl Ground {
    /// Its CSS class, light and dark fill.
    pub fn paint(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Ground::Clear => ("g-clear", "#e9e4c9", "#3a3a2c"),
            Ground::Forest => ("g-forest", "#8fb07a", "#1f5a2c"),
            Ground::Hill => ("g-hill", "#d2b48c", "#5a4630"),
            Ground::Town => ("g-town", "#c9a6a0", "#5b3a36"),
            Ground::Swamp => ("g-swamp", "#a9bfa3", "#3f6a6a"),
            Ground::Water => ("g-water", "#8fb8de", "#1f3f5f"),
            Ground::Waterway => ("g-waterway", "#a8cbe8", "#27496b"),
            Ground::Crossing => ("g-crossing", "#b89a6a", "#6b5530"),
            Ground::Fence => ("g-fence", "#e0d6a8", "#6a6a28"),
            Ground::Entrenchment => ("g-entrenchment", "#c8b98a", "#514a33"),
            Ground::Fort => ("g-fort", "#a8a39a", "#55524c"),
            Ground::Wall => ("g-wall", "#4a4a4a", "#111111"),
            Ground::Corridor => ("g-corridor", "#efeae0", "#2c2c2c"),
            Ground::Room => ("g-room", "#fbf6e9", "#3a352c"),
            Ground::DoorClosed => ("g-door", "#8b5a2b", "#a0703c"),
            Ground::DoorOpen => ("g-door-open", "#f1d9a8", "#6b5028"),
            Ground::Entry => ("g-entry", "#cfe6c4", "#30472a"),
            Ground::Location => ("g-location", "#fbf6e9", "#3a352c"),
            Ground::Fortress => ("g-fortress", "#a8a39a", "#55524c"),
            Ground::OffMap => ("g-offmap", "#d8d2c2", "#444036"),
        }
    }

    /// Its name in the legend.
    pub fn name(self) -> &'static str {
        match self {
            Ground::Clear => "clear",
            Ground::Forest => "forest",
            Ground::Hill => "hill",
            Ground::Town => "town",
            Ground::Swamp => "swamp",
            Ground::Water => "water",
            Ground::Waterway => "waterway",
            Ground::Crossing => "bridge or ford",
            Ground::Fence => "fence",
            Ground::Entrenchment => "entrenchment",
            Ground::Fort => "fort",
            Ground::Wall => "wall",
            Ground::Corridor => "corridor",
            Ground::Room => "room",
            Ground::DoorClosed => "closed door",
            Ground::DoorOpen => "open door",
            Ground::Entry => "entry zone",
            Ground::Location => "location",
            Ground::Fortress => "fortress",
            Ground::OffMap => "off the map",
        }
    }
}

/// One cell.
#[derive(Debug, Clone)]
pub struct Cell {
    pub at: At,
    /// Its name in the game's orders (`C5`, `m20`, `door-3`): the hover title and `data-cell`.
    pub label: String,
    pub ground: Ground,
    /// Text drawn in the cell (a room or door number), if any.
    pub mark: Option<String>,
    /// More for the hover title (the terrain, the room).
    pub title: String,
}

/// Which way a piece faces (square grids).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Facing {
    North,
    East,
    South,
    West,
}

/// A piece's state, drawn on its counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// In column formation: a bar across the counter.
    Column,
    /// Fired on this turn: a red corner.
    FiredOn,
    /// Has acted or moved this turn: greyed.
    Spent,
    Prone,
    Wounded,
    /// Unconscious or otherwise out of action: drawn pale with a cross.
    Down,
    /// A card or counter face down: no label, a hatched back.
    FaceDown,
}

impl State {
    pub(super) fn word(self) -> &'static str {
        match self {
            State::Column => "column",
            State::FiredOn => "fired-on",
            State::Spent => "spent",
            State::Prone => "prone",
            State::Wounded => "wounded",
            State::Down => "down",
            State::FaceDown => "face-down",
        }
    }
}

/// What a piece is, for its shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A square counter.
    Counter,
    /// A round figure (leaders, agents, guards).
    Figure,
    /// A small diamond: markers (alert, corpse, objective).
    Marker,
    /// A card.
    Card,
}

/// One piece (counter, figure, marker or card) on a cell.
#[derive(Debug, Clone)]
pub struct Piece {
    pub at: At,
    /// Unique on the board: `data-piece`.
    pub id: String,
    /// The side by index into [`Board::sides`]; `None` for neutral markers and cards.
    pub side: Option<usize>,
    pub shape: Shape,
    /// The short text on the piece (one to three characters).
    pub label: String,
    /// A number in the corner (MP).
    pub value: Option<String>,
    pub facing: Option<Facing>,
    pub states: Vec<State>,
    /// The hover title: what the piece is, in words.
    pub title: String,
}

/// Something to draw over the map. Lines and zones take no clicks (`pointer-events="none"`),
/// so that pointing at a cell or piece under them still reaches it; their `<title>` is for
/// screen readers and the drawing opened on its own.
#[derive(Debug, Clone)]
pub enum Highlight {
    /// The cells a piece went through, in order: a line from the first cell's centre to the
    /// last's, ending in an arrowhead ([`Line::MOVE`]).
    Path { cells: Vec<At>, title: String },
    /// The cells a piece was made to go through (a retreat), in order: drawn as a path,
    /// dotted ([`Line::RETREAT`]).
    Retreat { cells: Vec<At>, title: String },
    /// A fire line from the firer to the target, ending in an arrowhead ([`Line::FIRE`]).
    Fire { from: At, to: At, title: String },
    /// Cells picked out (the reach of a selected piece, victory hexes): a ring in each.
    Cells { cells: Vec<At>, title: String },
    /// Cells watched or covered (a Sentry's watch zone): each tinted ([`ZONE`]).
    Zone { cells: Vec<At>, title: String },
    /// A road through the cells in order (a highway, the road ahead): drawn under the pieces,
    /// as its `line`'s core over the casing with no arrowhead, and named in the legend by
    /// `line.name` ([`Line::ROAD`], [`Line::ROAD_AHEAD`]).
    Road {
        cells: Vec<At>,
        line: Line,
        title: String,
    },
    /// A named area of the map (a drop zone): each cell tinted ([`AREA`]); the legend names the
    /// tint `name` (the first area's, when several are drawn).
    Area {
        cells: Vec<At>,
        name: String,
        title: String,
    },
}

/// How a kind of line over the map is drawn: a core in its colour over a darker casing (so
/// that it stands out on light ground by its casing, on dark ground by its core), its CSS
/// class and its colours in the light and the dark palette (`board.css` repeats them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line {
    pub class: &'static str,
    pub light: &'static str,
    pub dark: &'static str,
    /// The dash pattern of the core, in core widths ("" for a solid line).
    pub dash: &'static str,
    /// Its name in the legend.
    pub name: &'static str,
}

impl Line {
    /// A piece's move: amber.
    pub const MOVE: Line = Line {
        class: "b-path",
        light: "#f2a900",
        dark: "#ffc83d",
        dash: "",
        name: "moved",
    };
    /// A retreat: white dots.
    pub const RETREAT: Line = Line {
        class: "b-retreat",
        light: "#ffffff",
        dark: "#f2f2f2",
        dash: "0 2",
        name: "retreated",
    };
    /// A fire or an attack: red.
    pub const FIRE: Line = Line {
        class: "b-fire",
        light: "#ff6b5e",
        dark: "#ff9a8a",
        dash: "",
        name: "fire",
    };
    /// A road: brown, solid (under the pieces, [`Highlight::Road`]).
    pub const ROAD: Line = Line {
        class: "b-road",
        light: "#d9854a",
        dark: "#e2a77a",
        dash: "",
        name: "road",
    };
    /// A road ahead, not yet taken (a highway's potential course): brown dashes.
    pub const ROAD_AHEAD: Line = Line {
        class: "b-road",
        light: "#d9854a",
        dark: "#e2a77a",
        dash: "2 1.5",
        name: "road ahead",
    };
    /// The casing under every line.
    pub const CASING: Line = Line {
        class: "b-casing",
        light: "#000000",
        dark: "#000000",
        dash: "",
        name: "",
    };
}

/// The tint of a watched cell ([`Highlight::Zone`]): class, light and dark fill, and its
/// opacity.
pub const ZONE: (&str, &str, &str, f64) = ("b-zone", "#e4572e", "#ff8a65", 0.35);

/// The tint of a named area ([`Highlight::Area`]): class, light and dark fill, and its
/// opacity. Violet, apart from the grounds' greens and browns and the watched cells' orange.
pub const AREA: (&str, &str, &str, f64) = ("b-area", "#7b3fc4", "#c7a2ff", 0.3);

/// One of the six edges of a flat-topped hex, clockwise from the top.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Edge {
    N,
    NE,
    SE,
    S,
    SW,
    NW,
}

impl Edge {
    pub const ALL: [Edge; 6] = [Edge::N, Edge::NE, Edge::SE, Edge::S, Edge::SW, Edge::NW];

    /// Its name in `data-edge`.
    pub fn name(self) -> &'static str {
        match self {
            Edge::N => "n",
            Edge::NE => "ne",
            Edge::SE => "se",
            Edge::S => "s",
            Edge::SW => "sw",
            Edge::NW => "nw",
        }
    }

    /// The corners of [`hex_points`] it joins (0 east, then clockwise on the screen).
    pub(super) fn corners(self) -> (u32, u32) {
        match self {
            Edge::N => (4, 5),
            Edge::NE => (5, 0),
            Edge::SE => (0, 1),
            Edge::S => (1, 2),
            Edge::SW => (2, 3),
            Edge::NW => (3, 4),
        }
    }

    /// The step to the cell across this edge, in columns and rows, from a cell in an odd
    /// column (`odd`, drawn half a hex lower) or an even one.
    pub fn offset(self, odd: bool) -> (i32, i32) {
        match (self, odd) {
            (Edge::N, _) => (0, -1),
            (Edge::S, _) => (0, 1),
            (Edge::NE, false) => (1, -1),
            (Edge::SE, false) => (1, 0),
            (Edge::SW, false) => (-1, 0),
            (Edge::NW, false) => (-1, -1),
            (Edge::NE, true) => (1, 0),
            (Edge::SE, true) => (1, 1),
            (Edge::SW, true) => (-1, 1),
            (Edge::NW, true) => (-1, 0),
        }
    }

    /// The edge of a cell in an odd column (`odd`) or an even one that a step of `dc` columns
    /// and `dr` rows crosses, when it leads to a neighbour (the cell across may lie off the
    /// grid).
    pub fn towards(odd: bool, dc: i32, dr: i32) -> Option<Edge> {
        Edge::ALL.into_iter().find(|e| e.offset(odd) == (dc, dr))
    }

    /// The cell across this edge of `at` on a hex grid (odd columns half a hex lower), if it
    /// is on the grid's side of zero.
    pub fn across(self, at: At) -> Option<At> {
        let (dc, dr) = self.offset(at.col & 1 == 1);
        let (c, r) = (i32::from(at.col) + dc, i32::from(at.row) + dr);
        (c >= 0 && r >= 0).then(|| At::new(c as u16, r as u16))
    }

    /// The edge of `from` that `to` lies across, when they are neighbours on a hex grid.
    pub fn between(from: At, to: At) -> Option<Edge> {
        Edge::ALL.into_iter().find(|e| e.across(from) == Some(to))
    }
}

/// What a hexside is: a feature drawn along the edge between two hexes, by kind, named in the
/// legend. The kinds are the wargames' common ones; a ruleset maps its own onto them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SideKind {
    /// A stream or small river: blue.
    Stream,
    /// A river, wide water crossed only at bridges: cyan.
    River,
    /// A crest or ridge line: brown dashes.
    Crest,
    /// An impassable hexside: magenta, thick.
    Impassable,
    /// A bridge over the hexside: pale grey, thick.
    Bridge,
    /// A culvert or underpass: green dots.
    Culvert,
    /// A raised road or railroad crossing the hexside: ochre.
    Raised,
}

impl SideKind {
    pub const ALL: [SideKind; 7] = [
        SideKind::Stream,
        SideKind::River,
        SideKind::Crest,
        SideKind::Impassable,
        SideKind::Bridge,
        SideKind::Culvert,
        SideKind::Raised,
    ];

    /// How it is drawn: a core over the black casing, as the lines over the map are.
    pub fn line(self) -> Line {
        match self {
            SideKind::Stream => Line {
                class: "h-stream",
                light: "#3d9bff",
                dark: "#7cc0ff",
                dash: "",
                name: "stream",
            },
            SideKind::River => Line {
                class: "h-river",
                light: "#00c2ff",
                dark: "#66dcff",
                dash: "",
                name: "river",
            },
            SideKind::Crest => Line {
                class: "h-crest",
                light: "#e08a1e",
                dark: "#f0a848",
                dash: "2 1",
                name: "crest",
            },
            SideKind::Impassable => Line {
                class: "h-impassable",
                light: "#ff4fd8",
                dark: "#ff8ae6",
                dash: "",
                name: "impassable hexside",
            },
            SideKind::Bridge => Line {
                class: "h-bridge",
                light: "#e6e6e6",
                dark: "#f5f5f5",
                dash: "",
                name: "bridge",
            },
            SideKind::Culvert => Line {
                class: "h-culvert",
                light: "#3ddc97",
                dark: "#7eecbb",
                dash: "0 2",
                name: "culvert",
            },
            SideKind::Raised => Line {
                class: "h-raised",
                light: "#ffd23f",
                dark: "#ffe07a",
                dash: "3 1",
                name: "raised road",
            },
        }
    }
}

/// A hexside feature: the edge `edge` of the cell `at` (the same edge as seen from the cell
/// across it), of `kind`, with its hover title. Drawn over the cells, under the pieces, taking
/// no clicks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hexside {
    pub at: At,
    pub edge: Edge,
    pub kind: SideKind,
    pub title: String,
}

/// An order made by pointing at the drawn board: a click on a piece (`data-piece`), then on a
/// cell (`data-cell`, or a piece standing on it) makes `order`, in the game's order language.
/// The page highlights the cells a selected piece may reach and puts the order in the order
/// box, where the player can still change it before sending. Several orders for one piece and
/// cell are offered to choose from. A `path` order goes on: after it, each cell next to the last
/// one pointed (`data-next`) adds that cell to it, until the player stops (Escape, or a click
/// elsewhere).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Pointed {
    pub piece: String,
    pub cell: String,
    pub order: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<PathOrder>,
}

/// An order that is a path of cells: `head`, the cells pointed one after another, then `tail`
/// (empty, or words after the path). The pointed order is `head cell tail`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PathOrder {
    pub head: String,
    pub tail: String,
}

impl PathOrder {
    /// The order for `cells` pointed in turn.
    pub fn order(&self, cells: &[&str]) -> String {
        let mut out = format!("{} {}", self.head, cells.join(" "));
        if !self.tail.is_empty() {
            out.push(' ');
            out.push_str(&self.tail);
        }
        out
    }
}

/// A board description.
#[derive(Debug, Clone)]
pub struct Board {
    /// The drawing's title (for screen readers and the tooltip).
    pub title: String,
    /// One sentence on what is drawn.
    pub description: String,
    pub grid: Grid,
    pub cells: Vec<Cell>,
    /// The sides' names, in palette order (at most four colours; more repeat them).
    pub sides: Vec<String>,
    pub pieces: Vec<Piece>,
    pub highlights: Vec<Highlight>,
    /// Hexside features (hex grids only): streams, crests, bridges … along cell edges.
    pub hexsides: Vec<Hexside>,
    /// Extra legend entries after the grounds and sides drawn: (symbol, meaning).
    pub legend: Vec<(String, String)>,
    /// Lines under the legend (turn, score).
    pub notes: Vec<String>,
}
