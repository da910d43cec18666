//! The board toolkit: a ruleset describes its board as data — a hex or square grid, the ground
//! of each cell, the pieces with their state, markers, highlights, a legend and a few lines of
//! notes — and [`render`] draws it as one self-contained SVG element for the pages.
//!
//! The drawing has no scripts and no external references; it scales by its `viewBox`; every
//! cell carries a `<title>` with its label (shown on hover) and `data-cell`, every piece
//! `data-piece`, so a browser test or a click-to-order script can find them. Colours come from
//! CSS classes ([`STYLE`], which also darkens them under `prefers-color-scheme: dark`), with
//! the light colours repeated as presentation attributes so the drawing keeps its colours where
//! a page's content security policy drops the `<style>` block. Every text is at least 11 px
//! when the drawing is shown 390 px wide (see [`Board::min_font`]). docs/web.md, "Drawing a
//! board", says how a ruleset uses it.

use std::fmt::Write;

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
    /// (`col` across, `row` down, [`POINT`] drawing units each) within `cols` × `rows`, and
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
    fn paint(self) -> (&'static str, &'static str, f64, &'static str) {
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
    fn paint(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Ground::Clear => ("g-clear", "#e9e4c9", "#3a3a2c"),
            Ground::Forest => ("g-forest", "#8fb07a", "#2f4a2a"),
            Ground::Hill => ("g-hill", "#d2b48c", "#5a4630"),
            Ground::Town => ("g-town", "#c9a6a0", "#5b3a36"),
            Ground::Swamp => ("g-swamp", "#a9bfa3", "#354a3c"),
            Ground::Water => ("g-water", "#8fb8de", "#1f3f5f"),
            Ground::Waterway => ("g-waterway", "#a8cbe8", "#27496b"),
            Ground::Crossing => ("g-crossing", "#b89a6a", "#6b5530"),
            Ground::Fence => ("g-fence", "#e0d6a8", "#4a4530"),
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
    fn word(self) -> &'static str {
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
    fn corners(self) -> (u32, u32) {
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

/// The side colours: light, dark, text on it.
const SIDES: [(&str, &str, &str); 4] = [
    ("#2f5fa8", "#5b8ad6", "#ffffff"),
    ("#b3261e", "#e0594f", "#ffffff"),
    ("#2e7d32", "#5fb064", "#ffffff"),
    ("#6a4c93", "#9a7cc4", "#ffffff"),
];

/// Hex circumradius and square side, in drawing units.
const HEX: f64 = 60.0;
const SQUARE: f64 = 44.0;
/// A point-to-point map's coordinate unit.
pub const POINT: f64 = 10.0;
const MARGIN: f64 = 40.0;
/// The narrowest screen the drawing must stay legible on.
const PHONE: f64 = 390.0;
const MIN_PX: f64 = 11.0;

/// The stylesheet of every board: the palette by class, and darker under
/// `prefers-color-scheme: dark`. The page's stylesheet carries it too (`http::assets` serves
/// it after static/style.css).
pub const STYLE: &str = include_str!("board.css");

fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

impl Board {
    /// The map's size in drawing units (without the margins).
    fn map_size(&self) -> (f64, f64) {
        match self.grid {
            Grid::Hex { cols, rows } => (
                HEX * (1.5 * f64::from(cols) + 0.5),
                HEX * 3f64.sqrt() * (f64::from(rows) + 0.5),
            ),
            Grid::Square { cols, rows } => (SQUARE * f64::from(cols), SQUARE * f64::from(rows)),
            Grid::Points { cols, rows, .. } => (POINT * f64::from(cols), POINT * f64::from(rows)),
        }
    }

    /// The drawing's width in units.
    pub fn width(&self) -> f64 {
        self.map_size().0 + 2.0 * MARGIN
    }

    /// The smallest font size, in drawing units, that is still 11 px when the drawing is
    /// 390 px wide.
    pub fn min_font(&self) -> f64 {
        (MIN_PX * self.width() / PHONE).ceil()
    }

    /// A cell's centre in drawing units.
    fn centre(&self, at: At) -> (f64, f64) {
        match self.grid {
            Grid::Hex { .. } => {
                let x = MARGIN + HEX + 1.5 * HEX * f64::from(at.col);
                let y = MARGIN
                    + 3f64.sqrt() * HEX * (f64::from(at.row) + 0.5 + 0.5 * f64::from(at.col & 1));
                (x, y)
            }
            Grid::Square { .. } => (
                MARGIN + SQUARE * (f64::from(at.col) + 0.5),
                MARGIN + SQUARE * (f64::from(at.row) + 0.5),
            ),
            Grid::Points { .. } => (
                MARGIN + POINT * f64::from(at.col),
                MARGIN + POINT * f64::from(at.row),
            ),
        }
    }

    /// The size of a cell's inside, where pieces stand; on a point-to-point map, the size of
    /// one piece (its label and its value each a line of the smallest legible font).
    fn inner(&self) -> f64 {
        match self.grid {
            Grid::Hex { .. } => HEX * 1.5,
            Grid::Square { .. } => SQUARE * 0.9,
            Grid::Points { .. } => self.min_font() * 2.1,
        }
    }

    fn points(&self) -> bool {
        matches!(self.grid, Grid::Points { .. })
    }

    /// A location's radius on a point-to-point map.
    fn spot(&self) -> f64 {
        self.min_font() * 0.75
    }

    /// The width of a line's core over the map ([`Highlight::Path`], `Retreat`, `Fire`): at
    /// least 2.5 px on a 390-px phone, and a ninth of a cell's inside.
    pub fn line_width(&self) -> f64 {
        (self.width() / PHONE * 2.5).max(self.inner() * 0.11)
    }

    /// A watched cell's tint ([`Highlight::Zone`]): the cell's shape, filled and see-through.
    fn zone_shape(&self, at: At) -> String {
        let (class, fill, _, opacity) = ZONE;
        let (x, y) = self.centre(at);
        match self.grid {
            Grid::Hex { .. } => {
                format!(
                    r#"<polygon class="{class}" fill="{fill}" fill-opacity="{opacity}" points="{}"/>"#,
                    hex_points(x, y)
                )
            }
            Grid::Square { .. } => format!(
                r#"<rect class="{class}" fill="{fill}" fill-opacity="{opacity}" x="{:.1}" y="{:.1}" width="{SQUARE}" height="{SQUARE}"/>"#,
                x - SQUARE / 2.0,
                y - SQUARE / 2.0
            ),
            Grid::Points { .. } => format!(
                r#"<circle class="{class}" fill="{fill}" fill-opacity="{opacity}" cx="{x:.1}" cy="{y:.1}" r="{:.1}"/>"#,
                self.spot() * 2.0
            ),
        }
    }

    fn cell_shape(&self, at: At, class: &str, fill: &str) -> String {
        let (x, y) = self.centre(at);
        match self.grid {
            Grid::Hex { .. } => {
                format!(
                    r##"<polygon class="{class}" fill="{fill}" stroke="#6b6453" stroke-width="1.5" points="{}"/>"##,
                    hex_points(x, y)
                )
            }
            Grid::Square { .. } => format!(
                r##"<rect class="{class}" fill="{fill}" stroke="#8a8170" stroke-width="0.5" x="{:.1}" y="{:.1}" width="{SQUARE}" height="{SQUARE}"/>"##,
                x - SQUARE / 2.0,
                y - SQUARE / 2.0
            ),
            Grid::Points { .. } => {
                let r = self.spot();
                match class {
                    // A fortress: a bastioned star of eight points.
                    "g-fortress" => {
                        let pts: Vec<String> = (0..16)
                            .map(|i| {
                                let a = std::f64::consts::PI / 8.0 * f64::from(i);
                                let d = if i % 2 == 0 { r * 1.35 } else { r * 0.95 };
                                format!("{:.1},{:.1}", x + d * a.cos(), y + d * a.sin())
                            })
                            .collect();
                        format!(
                            r##"<polygon class="{class}" fill="{fill}" stroke="#1d1d1d" stroke-width="3" points="{}"/>"##,
                            pts.join(" ")
                        )
                    }
                    "g-offmap" => format!(
                        r##"<rect class="{class}" fill="{fill}" stroke="#1d1d1d" stroke-width="2" stroke-dasharray="6 4" x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" rx="8"/>"##,
                        x - r * 1.6,
                        y - r,
                        r * 3.2,
                        r * 2.0
                    ),
                    _ => format!(
                        r##"<circle class="{class}" fill="{fill}" stroke="#1d1d1d" stroke-width="3" cx="{x:.1}" cy="{y:.1}" r="{r:.1}"/>"##
                    ),
                }
            }
        }
    }
}

/// `text` cut into lines of at most `chars` characters, at spaces where it can.
fn wrap(text: &str, chars: usize) -> Vec<String> {
    let chars = chars.max(8);
    let mut lines = Vec::new();
    let mut current = String::new();
    for word in text.split(' ') {
        let len = current.chars().count();
        if len > 0 && len + 1 + word.chars().count() > chars {
            lines.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(word);
    }
    if !current.is_empty() {
        lines.push(current);
    }
    lines
}

/// Where the `i`-th of `n` pieces on a cell stands, and its size.
fn slot(i: usize, n: usize, inner: f64) -> (f64, f64, f64) {
    if n <= 1 {
        return (0.0, 0.0, inner * 0.8);
    }
    let size = inner * 0.48;
    let (dx, dy) = match i % 4 {
        0 => (-0.25, -0.25),
        1 => (0.25, -0.25),
        2 => (-0.25, 0.25),
        _ => (0.25, 0.25),
    };
    (dx * inner, dy * inner, size)
}

/// Where the `i`-th of `n` pieces at a location of a point-to-point map stands: three to a row
/// under its point, each row centred.
fn point_slot(i: usize, n: usize, size: f64, spot: f64) -> (f64, f64) {
    let row = i / 3;
    let in_row = (n - row * 3).min(3);
    let col = (i % 3) as f64 - (in_row as f64 - 1.0) / 2.0;
    let step = size * 1.08;
    (col * step, spot + 6.0 + size / 2.0 + row as f64 * step)
}

/// The board drawn as one SVG element.
pub fn render(board: &Board) -> String {
    let (_, map_h) = board.map_size();
    let width = board.width();
    let font = board.min_font();
    let line = font * 1.3;
    let mut grounds: Vec<Ground> = board.cells.iter().map(|c| c.ground).collect();
    grounds.sort();
    grounds.dedup();
    let links: &[Link] = match &board.grid {
        Grid::Points { links, .. } => links,
        _ => &[],
    };
    let mut link_kinds: Vec<LinkKind> = links.iter().map(|l| l.kind).collect();
    link_kinds.sort();
    link_kinds.dedup();
    // The kinds of line and zone drawn over the map, named in the legend after the links.
    let mut over: Vec<Option<Line>> = Vec::new();
    for h in &board.highlights {
        let kind = match h {
            Highlight::Path { .. } => Some(Line::MOVE),
            Highlight::Retreat { .. } => Some(Line::RETREAT),
            Highlight::Fire { .. } => Some(Line::FIRE),
            Highlight::Zone { .. } => None,
            Highlight::Cells { .. } => continue,
        };
        if !over.contains(&kind) {
            over.push(kind);
        }
    }
    if matches!(board.grid, Grid::Hex { .. }) {
        for kind in SideKind::ALL {
            if board.hexsides.iter().any(|h| h.kind == kind) {
                over.push(Some(kind.line()));
            }
        }
    }
    let line_count = link_kinds.len() + over.len();
    let legend_rows =
        grounds.len().div_ceil(3) + line_count.div_ceil(3) + board.sides.len().div_ceil(3);
    // The legend's lines and the notes, wrapped to the drawing's width.
    let chars = ((width - 2.0 * MARGIN) / (font * 0.56)).floor() as usize;
    let mut text_lines: Vec<String> = Vec::new();
    for (symbol, meaning) in &board.legend {
        text_lines.extend(wrap(&format!("{symbol} {meaning}"), chars));
    }
    for note in &board.notes {
        text_lines.extend(wrap(note, chars));
    }
    let legend_h = line * (legend_rows + text_lines.len()) as f64;
    let height = MARGIN * 2.0 + map_h + legend_h + line;
    let mut svg = String::with_capacity(64 * 1024);
    let _ = write!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0} {height:.0}" role="img" aria-labelledby="board-title board-desc" class="board drawn" font-family="system-ui, sans-serif" data-min-font="{font}"><title id="board-title">{}</title><desc id="board-desc">{}</desc><style>{STYLE}</style><rect class="b-paper" fill="#f7f3e8" width="{width:.0}" height="{height:.0}"/>"##,
        esc(&board.title),
        esc(&board.description),
    );

    // Column letters and row numbers along the edges, for reading the map without hovering.
    svg.push_str(r#"<g class="b-edge">"#);
    let (cols, rows) = match board.grid {
        Grid::Hex { cols, rows } | Grid::Square { cols, rows } => (cols, rows),
        // A point-to-point map has no rows and columns to name.
        Grid::Points { .. } => (0, 0),
    };
    let hex = matches!(board.grid, Grid::Hex { .. });
    for col in 0..cols {
        let (x, _) = board.centre(At::new(col, 0));
        let name = if hex {
            ((b'A' + col as u8) as char).to_string()
        } else {
            ((b'a' + col as u8) as char).to_string()
        };
        let _ = write!(
            svg,
            r##"<text class="b-ink" fill="#333" x="{x:.1}" y="{:.1}" font-size="{font}" text-anchor="middle">{name}</text>"##,
            MARGIN - 6.0
        );
    }
    let step = if hex { 1 } else { 2 };
    for row in (0..rows).step_by(step) {
        let (_, y) = board.centre(At::new(0, row));
        let _ = write!(
            svg,
            r##"<text class="b-ink" fill="#333" x="{:.1}" y="{:.1}" font-size="{font}" text-anchor="end">{}</text>"##,
            MARGIN - 2.0,
            y + font * 0.35,
            row + 1
        );
    }
    svg.push_str("</g>");

    // The lines of a point-to-point map, under its locations.
    if !links.is_empty() {
        svg.push_str(r#"<g class="b-links">"#);
        for link in links {
            let (class, stroke, width, dash) = link.kind.paint();
            let (x1, y1) = board.centre(link.from);
            let (x2, y2) = board.centre(link.to);
            let dash = if dash.is_empty() {
                String::new()
            } else {
                format!(r#" stroke-dasharray="{dash}""#)
            };
            let _ = write!(
                svg,
                r##"<g class="b-link" data-link="{}" data-kind="{}"><title>{}</title><line class="{class}" stroke="{stroke}" stroke-width="{width}" stroke-linecap="round"{dash} x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}"/>"##,
                esc(&link.label),
                link.kind.name(),
                esc(&link.title),
            );
            if link.kind == LinkKind::BlownBridge {
                let (mx, my) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
                let d = board.spot() * 0.8;
                let _ = write!(
                    svg,
                    r##"<path class="l-blown-x" stroke="#d32f2f" stroke-width="5" d="M{:.1},{:.1}L{:.1},{:.1}M{:.1},{:.1}L{:.1},{:.1}"/>"##,
                    mx - d,
                    my - d,
                    mx + d,
                    my + d,
                    mx + d,
                    my - d,
                    mx - d,
                    my + d
                );
            }
            svg.push_str("</g>");
        }
        svg.push_str("</g>");
    }

    // The cells.
    let labels_at: std::collections::BTreeMap<At, &str> = board
        .cells
        .iter()
        .map(|c| (c.at, c.label.as_str()))
        .collect();
    svg.push_str(r#"<g class="b-cells">"#);
    for cell in &board.cells {
        let (class, fill, _) = cell.ground.paint();
        let title = if cell.title.is_empty() {
            cell.label.clone()
        } else {
            format!("{}: {}", cell.label, cell.title)
        };
        // On a hex grid, the drawn cells next to this one: where a path pointed goes on.
        let next = if hex {
            let labels: Vec<&str> = Edge::ALL
                .iter()
                .filter_map(|e| e.across(cell.at))
                .filter_map(|at| labels_at.get(&at).copied())
                .collect();
            format!(r#" data-next="{}""#, esc(&labels.join(" ")))
        } else {
            String::new()
        };
        let _ = write!(
            svg,
            r##"<g class="b-cell" data-cell="{}" data-ground="{}"{next}><title>{}</title>{}"##,
            esc(&cell.label),
            cell.ground.name(),
            esc(&title),
            board.cell_shape(cell.at, class, fill)
        );
        if board.points() {
            // The location's name: above its point, or inside an exit's box.
            let (x, y) = board.centre(cell.at);
            let name = cell.mark.as_ref().unwrap_or(&cell.label);
            let y = if cell.ground == Ground::OffMap {
                y + font * 0.35
            } else {
                y - board.spot() * 1.4 - 4.0
            };
            let _ = write!(
                svg,
                r##"<text class="b-mark" fill="#3b2f1e" x="{x:.1}" y="{y:.1}" font-size="{font}" font-weight="bold" text-anchor="middle">{}</text>"##,
                esc(name)
            );
        } else if let Some(mark) = &cell.mark {
            let (x, y) = board.centre(cell.at);
            let _ = write!(
                svg,
                r##"<text class="b-mark" fill="#3b2f1e" x="{x:.1}" y="{:.1}" font-size="{font}" font-weight="bold" text-anchor="middle">{}</text>"##,
                y + font * 0.35,
                esc(mark)
            );
        }
        svg.push_str("</g>");
    }
    svg.push_str("</g>");

    // Hexside features along the cells' edges, under the pieces; they take no clicks.
    if matches!(board.grid, Grid::Hex { .. }) && !board.hexsides.is_empty() {
        svg.push_str(r#"<g class="b-hexsides">"#);
        for h in &board.hexsides {
            draw_hexside(&mut svg, board, h);
        }
        svg.push_str("</g>");
    }

    // Rings and tints under the pieces, lines over them (below). Highlights take no clicks, so
    // a pointed cell or piece under one is still reached.
    svg.push_str(r#"<g class="b-highlights">"#);
    for h in &board.highlights {
        match h {
            Highlight::Path { .. } | Highlight::Retreat { .. } | Highlight::Fire { .. } => {}
            Highlight::Cells { cells, title } => {
                for &at in cells {
                    let (x, y) = board.centre(at);
                    let r = board.inner() * 0.55;
                    let _ = write!(
                        svg,
                        r##"<circle class="b-pick" data-highlight="cells" pointer-events="none" fill="none" stroke="#e0a000" stroke-width="4" cx="{x:.1}" cy="{y:.1}" r="{r:.1}"><title>{}</title></circle>"##,
                        esc(title)
                    );
                }
            }
            Highlight::Zone { cells, title } => {
                let _ = write!(
                    svg,
                    r#"<g class="b-hl" data-highlight="zone" pointer-events="none"><title>{}</title>"#,
                    esc(title)
                );
                for &at in cells {
                    svg.push_str(&board.zone_shape(at));
                }
                svg.push_str("</g>");
            }
        }
    }
    svg.push_str("</g>");

    // The pieces, spread over their cell.
    svg.push_str(r#"<g class="b-pieces">"#);
    let inner = board.inner();
    for (i, piece) in board.pieces.iter().enumerate() {
        let here: Vec<usize> = board
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.at == piece.at)
            .map(|(j, _)| j)
            .collect();
        let k = here.iter().position(|&j| j == i).unwrap_or(0);
        let (dx, dy, size) = if board.points() {
            let (dx, dy) = point_slot(k, here.len(), inner, board.spot());
            (dx, dy, inner)
        } else {
            slot(k, here.len(), inner)
        };
        let (cx, cy) = board.centre(piece.at);
        draw_piece(&mut svg, board, piece, cx + dx, cy + dy, size, font);
    }
    svg.push_str("</g>");

    // The lines over the pieces, so that a counter does not hide them: each starts and ends at
    // the edge of the counters in its first and last cell, leaving their faces clear.
    svg.push_str(r#"<g class="b-lines">"#);
    for h in &board.highlights {
        match h {
            Highlight::Path { cells, title } => {
                draw_line(&mut svg, board, "path", Line::MOVE, cells, title);
            }
            Highlight::Retreat { cells, title } => {
                draw_line(&mut svg, board, "retreat", Line::RETREAT, cells, title);
            }
            Highlight::Fire { from, to, title } => {
                draw_line(&mut svg, board, "fire", Line::FIRE, &[*from, *to], title);
            }
            Highlight::Cells { .. } | Highlight::Zone { .. } => {}
        }
    }
    svg.push_str("</g>");

    // The legend and the notes.
    let mut y = MARGIN * 2.0 + map_h + font;
    let col_w = (width - 2.0 * MARGIN) / 3.0;
    let mut entries: Vec<(String, String)> = grounds
        .iter()
        .map(|g| {
            let (class, fill, _) = g.paint();
            (
                format!(
                    r##"<rect class="{class}" fill="{fill}" stroke="#6b6453" width="{0:.0}" height="{0:.0}" x="{{x}}" y="{{y}}"/>"##,
                    font
                ),
                g.name().to_owned(),
            )
        })
        .collect();
    let link_entries = entries.len()..entries.len() + line_count;
    for kind in &link_kinds {
        let (class, stroke, width, dash) = kind.paint();
        entries.push((
            format!(
                r##"<line class="{class}" stroke="{stroke}" stroke-width="{width}" stroke-dasharray="{}" x1="{{x}}" y1="{{ym}}" x2="{{x2}}" y2="{{ym}}"/>"##,
                if dash.is_empty() { "none" } else { dash }
            ),
            kind.name().to_owned(),
        ));
    }
    for kind in &over {
        let swatch = match kind {
            Some(line) => format!(
                r##"<line class="b-casing" stroke="{casing}" stroke-width="{1:.1}" stroke-linecap="round" x1="{{x}}" y1="{{ym}}" x2="{{x2}}" y2="{{ym}}"/><line class="{0}" stroke="{2}" stroke-width="{3:.1}" stroke-linecap="round" stroke-dasharray="{4}" x1="{{x}}" y1="{{ym}}" x2="{{x2}}" y2="{{ym}}"/>"##,
                line.class,
                font * 0.5,
                line.light,
                font * 0.28,
                if line.dash.is_empty() {
                    "none".to_owned()
                } else {
                    format!("0 {:.1}", font * 0.5)
                },
                casing = Line::CASING.light,
            ),
            None => format!(
                r##"<rect class="{0}" fill="{1}" fill-opacity="{2}" stroke="#6b6453" width="{3:.0}" height="{3:.0}" x="{{x}}" y="{{y}}"/>"##,
                ZONE.0, ZONE.1, ZONE.3, font
            ),
        };
        let name = kind.map_or("watched", |l| l.name);
        entries.push((swatch, name.to_owned()));
    }
    for (s, name) in board.sides.iter().enumerate() {
        let (light, _, _) = SIDES[s % SIDES.len()];
        entries.push((
            format!(
                r##"<rect class="side-{1}" fill="{light}" width="{0:.0}" height="{0:.0}" x="{{x}}" y="{{y}}"/>"##,
                font,
                s % SIDES.len()
            ),
            name.clone(),
        ));
    }
    svg.push_str(r#"<g class="b-legend">"#);
    let ground_count = grounds.len();
    for (n, (swatch, name)) in entries.iter().enumerate() {
        // Grounds three to a row, then the lines three to a row, then the sides.
        let (row, col) = if n < ground_count {
            (n / 3, n % 3)
        } else if link_entries.contains(&n) {
            let m = n - ground_count;
            (ground_count.div_ceil(3) + m / 3, m % 3)
        } else {
            let m = n - link_entries.end;
            (
                ground_count.div_ceil(3) + line_count.div_ceil(3) + m / 3,
                m % 3,
            )
        };
        let x = MARGIN + col as f64 * col_w;
        let yy = y + row as f64 * line;
        svg.push_str(
            &swatch
                .replace("{x}", &format!("{x:.1}"))
                .replace("{x2}", &format!("{:.1}", x + font))
                .replace("{ym}", &format!("{:.1}", yy - font * 0.35))
                .replace("{y}", &format!("{:.1}", yy - font * 0.85)),
        );
        let _ = write!(
            svg,
            r##"<text class="b-ink" fill="#333" x="{:.1}" y="{yy:.1}" font-size="{font}">{}</text>"##,
            x + font * 1.3,
            esc(name)
        );
    }
    y += legend_rows as f64 * line;
    for text in &text_lines {
        let _ = write!(
            svg,
            r##"<text class="b-ink b-note" fill="#333" x="{MARGIN:.1}" y="{y:.1}" font-size="{font}">{}</text>"##,
            esc(text)
        );
        y += line;
    }
    svg.push_str("</g></svg>");
    svg
}

/// A line through the centres of `cells` in the style of `line`, drawn over the pieces: a dot
/// where it starts and an arrowhead where it ends, each at the edge of the counters standing
/// in that cell (at its centre where none stands), so that the line leaves their faces clear.
/// Each part is drawn twice, the casing under the core.
fn draw_line(svg: &mut String, board: &Board, kind: &str, line: Line, cells: &[At], title: &str) {
    let mut pts: Vec<(f64, f64)> = cells.iter().map(|&at| board.centre(at)).collect();
    pts.dedup();
    if pts.is_empty() {
        return;
    }
    let w = board.line_width();
    let occupied = |at: Option<&At>| at.is_some_and(|at| board.pieces.iter().any(|p| p.at == *at));
    // Moves a point `by` along the segment towards `to`, keeping at least `keep` of it.
    let pull = |from: (f64, f64), to: (f64, f64), by: f64, keep: f64| {
        let len = ((to.0 - from.0).powi(2) + (to.1 - from.1).powi(2)).sqrt();
        let by = by.min(len - keep).max(0.0);
        if len > 0.0 {
            (
                from.0 + (to.0 - from.0) / len * by,
                from.1 + (to.1 - from.1) / len * by,
            )
        } else {
            from
        }
    };
    let edge = board.inner() * 0.4;
    if pts.len() > 1 && occupied(cells.first()) {
        pts[0] = pull(pts[0], pts[1], edge, w * 5.0);
    }
    if pts.len() > 1 && occupied(cells.last()) {
        let n = pts.len();
        pts[n - 1] = pull(pts[n - 1], pts[n - 2], edge, w * 5.0);
    }
    let casing = Line::CASING.light;
    let cw = w * 1.8;
    let _ = write!(
        svg,
        r#"<g class="b-hl" data-highlight="{kind}" pointer-events="none"><title>{}</title>"#,
        esc(title)
    );
    let (sx, sy) = pts[0];
    let dot = format!(
        r#"<circle class="{0}-head" fill="{1}" stroke="{casing}" stroke-width="{2:.1}" cx="{sx:.1}" cy="{sy:.1}" r="{3:.1}"/>"#,
        line.class,
        line.light,
        w * 0.4,
        w * 0.9
    );
    if pts.len() > 1 {
        // The last stretch ends in an arrowhead.
        let (tx, ty) = pts[pts.len() - 1];
        let (x1, y1) = pts[pts.len() - 2];
        let len = ((tx - x1).powi(2) + (ty - y1).powi(2)).sqrt().max(0.1);
        let (ux, uy) = ((tx - x1) / len, (ty - y1) / len);
        let head = (w * 2.4).min(len * 0.6);
        let (bx, by) = (tx - ux * head, ty - uy * head);
        let last = pts.len() - 1;
        pts[last] = (bx, by);
        let points: Vec<String> = pts.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        let points = points.join(" ");
        let dash = if line.dash.is_empty() {
            String::new()
        } else {
            let dash: Vec<String> = line
                .dash
                .split(' ')
                .map(|d| format!("{:.1}", d.parse::<f64>().unwrap_or(1.0) * w))
                .collect();
            format!(r#" stroke-dasharray="{}""#, dash.join(" "))
        };
        let (px, py) = (-uy * w * 1.6, ux * w * 1.6);
        let head_pts = format!(
            "{tx:.1},{ty:.1} {:.1},{:.1} {:.1},{:.1}",
            bx + px,
            by + py,
            bx - px,
            by - py
        );
        let _ = write!(
            svg,
            r#"<polyline class="b-casing" fill="none" stroke="{casing}" stroke-width="{cw:.1}" stroke-linecap="round" stroke-linejoin="round" points="{points}"/><polyline class="{0}" fill="none" stroke="{1}" stroke-width="{w:.1}" stroke-linecap="round" stroke-linejoin="round"{dash} points="{points}"/>{dot}<polygon class="{0}-head" fill="{1}" stroke="{casing}" stroke-width="{2:.1}" stroke-linejoin="round" points="{head_pts}"/>"#,
            line.class,
            line.light,
            w * 0.4
        );
    } else {
        svg.push_str(&dot);
    }
    svg.push_str("</g>");
}

/// A hexside feature: its kind's core over the casing along the edge, the ends pulled in a
/// little so that features meeting at a corner stay apart. `data-side` names the cell and the
/// edge (`B2:ne`), `data-kind` the kind.
fn draw_hexside(svg: &mut String, board: &Board, h: &Hexside) {
    let (x, y) = board.centre(h.at);
    let corner = |i: u32| {
        let a = std::f64::consts::PI / 3.0 * f64::from(i);
        (x + HEX * a.cos(), y + HEX * a.sin())
    };
    let (a, b) = h.edge.corners();
    let ((x1, y1), (x2, y2)) = (corner(a), corner(b));
    let inset = 0.12;
    let (x1, y1, x2, y2) = (
        x1 + (x2 - x1) * inset,
        y1 + (y2 - y1) * inset,
        x2 + (x1 - x2) * inset,
        y2 + (y1 - y2) * inset,
    );
    let line = h.kind.line();
    let w = board.line_width();
    let dash = if line.dash.is_empty() {
        String::new()
    } else {
        let dash: Vec<String> = line
            .dash
            .split(' ')
            .map(|d| format!("{:.1}", d.parse::<f64>().unwrap_or(1.0) * w))
            .collect();
        format!(r#" stroke-dasharray="{}""#, dash.join(" "))
    };
    let label = board
        .cells
        .iter()
        .find(|c| c.at == h.at)
        .map_or_else(|| format!("{},{}", h.at.col, h.at.row), |c| c.label.clone());
    let _ = write!(
        svg,
        r#"<g class="b-side" data-side="{}:{}" data-kind="{}" pointer-events="none"><title>{}</title><line class="b-casing" stroke="{}" stroke-width="{:.1}" stroke-linecap="round" x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}"/><line class="{}" stroke="{}" stroke-width="{w:.1}" stroke-linecap="round"{dash} x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}"/></g>"#,
        esc(&label),
        h.edge.name(),
        line.name,
        esc(&h.title),
        Line::CASING.light,
        w * 1.8,
        line.class,
        line.light,
    );
}

fn draw_piece(svg: &mut String, board: &Board, p: &Piece, x: f64, y: f64, size: f64, font: f64) {
    let states: Vec<&str> = p.states.iter().map(|s| s.word()).collect();
    let face_down = p.states.contains(&State::FaceDown);
    let side_class = p.side.map_or_else(
        || "side-none".to_owned(),
        |s| format!("side-{}", s % SIDES.len()),
    );
    let (fill, ink) = match p.side {
        Some(s) => {
            let (light, _, ink) = SIDES[s % SIDES.len()];
            (light, ink)
        }
        None if face_down => ("#7a6a55", "#ffffff"),
        None => ("#f2c14e", "#222222"),
    };
    let _ = write!(
        svg,
        r##"<g class="b-piece {side_class}{}" data-piece="{}" data-at="{}" data-shape="{}" data-state="{}"><title>{}</title>"##,
        states.iter().map(|s| format!(" s-{s}")).collect::<String>(),
        esc(&p.id),
        esc(&board
            .cells
            .iter()
            .find(|c| c.at == p.at)
            .map_or(String::new(), |c| c.label.clone())),
        match p.shape {
            Shape::Counter => "counter",
            Shape::Figure => "figure",
            Shape::Marker => "marker",
            Shape::Card => "card",
        },
        states.join(" "),
        esc(&p.title),
    );
    let h = size / 2.0;
    let body_class = format!("b-body {side_class}");
    // A spent piece (acted or moved) is drawn faded.
    let faded = if p.states.contains(&State::Spent) {
        r#"<g opacity="0.55">"#
    } else {
        "<g>"
    };
    svg.push_str(faded);
    match p.shape {
        Shape::Counter => {
            let _ = write!(
                svg,
                r##"<rect class="{body_class}" fill="{fill}" stroke="#1d1d1d" stroke-width="2" x="{:.1}" y="{:.1}" width="{size:.1}" height="{size:.1}" rx="4"/>"##,
                x - h,
                y - h
            );
        }
        Shape::Figure => {
            let _ = write!(
                svg,
                r##"<circle class="{body_class}" fill="{fill}" stroke="#1d1d1d" stroke-width="2" cx="{x:.1}" cy="{y:.1}" r="{h:.1}"/>"##
            );
        }
        Shape::Marker => {
            let _ = write!(
                svg,
                r##"<polygon class="{body_class}" fill="{fill}" stroke="#1d1d1d" stroke-width="2" points="{x:.1},{:.1} {:.1},{y:.1} {x:.1},{:.1} {:.1},{y:.1}"/>"##,
                y - h,
                x + h,
                y + h,
                x - h
            );
        }
        Shape::Card => {
            let _ = write!(
                svg,
                r##"<rect class="{body_class}{}" fill="{fill}" stroke="#1d1d1d" stroke-width="2" x="{:.1}" y="{:.1}" width="{:.1}" height="{size:.1}" rx="3"/>"##,
                if face_down { " b-back" } else { "" },
                x - h * 0.7,
                y - h,
                size * 0.7
            );
        }
    }
    svg.push_str("</g>");
    if p.states.contains(&State::Column) {
        let _ = write!(
            svg,
            r##"<rect class="b-column" fill="#1d1d1d" x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}"/>"##,
            x - h,
            y + h * 0.55,
            size,
            h * 0.3
        );
    }
    if p.states.contains(&State::FiredOn) {
        let _ = write!(
            svg,
            r##"<polygon class="b-fired" fill="#ffd600" stroke="#1d1d1d" points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}"/>"##,
            x + h,
            y - h,
            x + h - h * 0.6,
            y - h,
            x + h,
            y - h + h * 0.6
        );
    }
    if p.states.contains(&State::Down) {
        let _ = write!(
            svg,
            r##"<path class="b-down" stroke="#1d1d1d" stroke-width="3" d="M{:.1},{:.1}L{:.1},{:.1}M{:.1},{:.1}L{:.1},{:.1}"/>"##,
            x - h,
            y - h,
            x + h,
            y + h,
            x + h,
            y - h,
            x - h,
            y + h
        );
    }
    if let Some(f) = p.facing {
        let (dx, dy) = match f {
            Facing::North => (0.0, -1.0),
            Facing::East => (1.0, 0.0),
            Facing::South => (0.0, 1.0),
            Facing::West => (-1.0, 0.0),
        };
        // A wedge pointing out of the figure the way it faces.
        let (tx, ty) = (x + dx * h * 1.35, y + dy * h * 1.35);
        let (px, py) = (-dy, dx);
        let _ = write!(
            svg,
            r##"<polygon class="b-facing" fill="#1d1d1d" points="{tx:.1},{ty:.1} {:.1},{:.1} {:.1},{:.1}"/>"##,
            x + dx * h * 0.8 + px * h * 0.45,
            y + dy * h * 0.8 + py * h * 0.45,
            x + dx * h * 0.8 - px * h * 0.45,
            y + dy * h * 0.8 - py * h * 0.45
        );
    }
    // On a point-to-point map a piece is two lines of text high: its label over its value.
    let stacked = board.points() && p.value.is_some();
    if !face_down && !p.label.is_empty() {
        let _ = write!(
            svg,
            r##"<text class="b-label" fill="{ink}" x="{x:.1}" y="{:.1}" font-size="{font}" font-weight="bold" text-anchor="middle">{}</text>"##,
            if stacked {
                y - h + font * 0.95
            } else {
                y + font * 0.35
            },
            esc(&p.label)
        );
    }
    if let (Some(v), false) = (&p.value, face_down) {
        if stacked {
            let _ = write!(
                svg,
                r##"<text class="b-value" fill="{ink}" x="{x:.1}" y="{:.1}" font-size="{font}" text-anchor="middle">{}</text>"##,
                y + h - font * 0.2,
                esc(v)
            );
        } else {
            let _ = write!(
                svg,
                r##"<text class="b-value" fill="{ink}" x="{:.1}" y="{:.1}" font-size="{font}" text-anchor="end">{}</text>"##,
                x + h - 2.0,
                y + h - 3.0,
                esc(v)
            );
        }
    }
    svg.push_str("</g>");
}

/// The six corners of a hex centred on (`x`, `y`), as an SVG `points` list.
fn hex_points(x: f64, y: f64) -> String {
    let pts: Vec<String> = (0..6)
        .map(|i| {
            let a = std::f64::consts::PI / 3.0 * f64::from(i);
            format!("{:.1},{:.1}", x + HEX * a.cos(), y + HEX * a.sin())
        })
        .collect();
    pts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(grid: Grid) -> Board {
        Board {
            title: "A <test> & board".into(),
            description: "two pieces".into(),
            grid,
            cells: (0..3)
                .flat_map(|c| (0..2).map(move |r| At::new(c, r)))
                .map(|at| Cell {
                    at,
                    label: format!("{}{}", (b'A' + at.col as u8) as char, at.row + 1),
                    ground: if at.col == 1 {
                        Ground::Forest
                    } else {
                        Ground::Clear
                    },
                    mark: None,
                    title: String::new(),
                })
                .collect(),
            sides: vec!["red".into(), "blue".into()],
            pieces: vec![
                Piece {
                    at: At::new(0, 0),
                    id: "p1".into(),
                    side: Some(0),
                    shape: Shape::Counter,
                    label: "R".into(),
                    value: Some("3".into()),
                    facing: None,
                    states: vec![State::Column, State::FiredOn],
                    title: "a regular".into(),
                },
                Piece {
                    at: At::new(0, 0),
                    id: "p2".into(),
                    side: None,
                    shape: Shape::Card,
                    label: "secret".into(),
                    value: None,
                    facing: Some(Facing::East),
                    states: vec![State::FaceDown],
                    title: "a card, face down".into(),
                },
            ],
            highlights: vec![Highlight::Fire {
                from: At::new(0, 0),
                to: At::new(2, 1),
                title: "fire".into(),
            }],
            hexsides: Vec::new(),
            legend: vec![("R".into(), "regular".into())],
            notes: vec!["Turn 1".into()],
        }
    }

    #[test]
    fn a_board_is_one_self_contained_svg_with_titled_cells_and_pieces() {
        for grid in [
            Grid::Hex { cols: 3, rows: 2 },
            Grid::Square { cols: 3, rows: 2 },
        ] {
            let svg = render(&sample(grid));
            assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>"));
            assert!(svg.contains("viewBox=\"0 0 "));
            assert!(!svg.contains("<script") && !svg.contains("href") && !svg.contains("style=\""));
            assert!(svg.contains("A &lt;test&gt; &amp; board"));
            assert_eq!(svg.matches("data-cell=").count(), 6);
            assert!(svg.contains(r#"data-cell="B2""#) && svg.contains("<title>B2</title>"));
            assert_eq!(svg.matches("data-piece=").count(), 2);
            assert!(svg.contains("s-column s-fired-on"));
            assert!(svg.contains("prefers-color-scheme: dark"));
            // A face-down piece shows no label.
            assert!(!svg.contains(">secret<"));
        }
    }

    /// Three locations (one a fortress) and an exit, joined by a line of every kind.
    fn points(cols: u16, rows: u16) -> Board {
        let spots = [
            (At::new(10, 10), "a", Ground::Location),
            (At::new(40, 10), "b", Ground::Fortress),
            (At::new(25, 40), "c", Ground::Location),
            (At::new(5, 60), "out", Ground::OffMap),
        ];
        let link = |i: usize, j: usize, kind| Link {
            from: spots[i].0,
            to: spots[j].0,
            kind,
            label: format!("{}-{}", spots[i].1, spots[j].1),
            title: format!("{} to {}", spots[i].1, spots[j].1),
        };
        let mut b = sample(Grid::Points {
            cols,
            rows,
            links: vec![
                link(0, 1, LinkKind::Road),
                link(1, 2, LinkKind::Mountain),
                link(0, 2, LinkKind::Bridge),
                link(2, 1, LinkKind::BlownBridge),
                link(2, 3, LinkKind::Exit),
            ],
        });
        b.cells = spots
            .iter()
            .map(|(at, label, ground)| Cell {
                at: *at,
                label: (*label).into(),
                ground: *ground,
                mark: Some(label.to_uppercase()),
                title: "a place".into(),
            })
            .collect();
        // Five pieces on one location: two rows under its point.
        b.pieces = (0..5)
            .map(|i| Piece {
                at: At::new(25, 40),
                id: format!("cu-{i}"),
                side: Some(i % 2),
                shape: if i == 4 {
                    Shape::Marker
                } else {
                    Shape::Counter
                },
                label: format!("P{i}"),
                value: (i < 4).then(|| "5".to_owned()),
                facing: None,
                states: vec![],
                title: format!("piece {i}"),
            })
            .collect();
        b.highlights = vec![Highlight::Cells {
            cells: vec![At::new(40, 10)],
            title: "a battle".into(),
        }];
        b
    }

    #[test]
    fn a_point_to_point_map_draws_its_locations_lines_by_kind_and_pieces() {
        let svg = render(&points(50, 70));
        assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>"));
        assert!(!svg.contains("<script") && !svg.contains("href") && !svg.contains("style=\""));
        assert_eq!(svg.matches("data-cell=").count(), 4);
        for (cell, ground) in [
            ("a", "location"),
            ("b", "fortress"),
            ("c", "location"),
            ("out", "off the map"),
        ] {
            assert!(
                svg.contains(&format!(
                    r#"data-cell="{cell}" data-ground="{ground}"><title>{cell}: a place</title>"#
                )),
                "{cell}"
            );
            assert!(
                svg.contains(&format!(">{}</text>", cell.to_uppercase())),
                "{cell}"
            );
        }
        assert_eq!(svg.matches("class=\"b-link\"").count(), 5);
        for (link, kind) in [
            ("a-b", "road"),
            ("b-c", "mountain"),
            ("a-c", "bridge"),
            ("c-b", "blown bridge"),
            ("c-out", "exit"),
        ] {
            assert!(
                svg.contains(&format!(r#"data-link="{link}" data-kind="{kind}"><title>"#)),
                "{link}"
            );
        }
        // A blown bridge is crossed out, once.
        assert_eq!(svg.matches("class=\"l-blown-x\"").count(), 1);
        // The legend names every kind of line, and no grid letters run along the edges.
        for kind in ["road", "mountain", "bridge", "blown bridge", "exit"] {
            assert!(svg.contains(&format!(">{kind}</text>")), "{kind}");
        }
        assert!(svg.contains(r#"<g class="b-edge"></g>"#));
        assert_eq!(svg.matches("data-piece=").count(), 5);
        assert_eq!(svg.matches(r#"data-at="c""#).count(), 5);
        // The pieces stand in two rows under the point, none on another.
        let xs: Vec<(f64, f64)> = svg
            .split("class=\"b-body side-")
            .skip(1)
            .map(|p| {
                let p = p.split("/>").next().unwrap();
                let num = |key: &str| -> f64 {
                    p.split(key)
                        .nth(1)
                        .unwrap()
                        .split('"')
                        .next()
                        .unwrap()
                        .parse()
                        .unwrap()
                };
                if p.contains(" x=\"") {
                    (num(" x=\""), num(" y=\""))
                } else {
                    (0.0, 0.0)
                }
            })
            .filter(|&(x, _)| x > 0.0)
            .collect();
        assert_eq!(xs.len(), 4);
        for (i, a) in xs.iter().enumerate() {
            for b in &xs[i + 1..] {
                assert!(a != b, "two pieces at {a:?}");
            }
        }
        let rows: std::collections::BTreeSet<i64> = xs.iter().map(|p| p.1 as i64).collect();
        assert_eq!(rows.len(), 2, "{xs:?}");
        // Dark mode restyles the lines too.
        assert!(svg.contains("prefers-color-scheme: dark") && STYLE.contains(".l-road"));
    }

    /// WCAG's relative luminance of `#rrggbb`.
    fn luminance(hex: &str) -> f64 {
        let c = |i: usize| {
            let v = f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap()) / 255.0;
            if v <= 0.04045 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * c(1) + 0.7152 * c(3) + 0.0722 * c(5)
    }

    fn contrast(a: &str, b: &str) -> f64 {
        let (a, b) = (luminance(a), luminance(b));
        (a.max(b) + 0.05) / (a.min(b) + 0.05)
    }

    const GROUNDS: [Ground; 20] = [
        Ground::Clear,
        Ground::Forest,
        Ground::Hill,
        Ground::Town,
        Ground::Swamp,
        Ground::Water,
        Ground::Waterway,
        Ground::Crossing,
        Ground::Fence,
        Ground::Entrenchment,
        Ground::Fort,
        Ground::Wall,
        Ground::Corridor,
        Ground::Room,
        Ground::DoorClosed,
        Ground::DoorOpen,
        Ground::Entry,
        Ground::Location,
        Ground::Fortress,
        Ground::OffMap,
    ];

    /// A line drawn over the map reads on every ground of both palettes: its core or its casing
    /// stands out at 3:1 at least (WCAG's contrast for graphics), and the core against its
    /// casing, so the line reads where they meet.
    fn stands_out_on_every_ground(line: &Line) {
        for g in GROUNDS {
            let (_, light, dark) = g.paint();
            for (ground, core, casing, palette) in [
                (light, line.light, Line::CASING.light, "light"),
                (dark, line.dark, Line::CASING.dark, "dark"),
            ] {
                let best = contrast(core, ground).max(contrast(casing, ground));
                assert!(
                    best >= 3.0,
                    "{} on {} ({palette}): {best:.2}",
                    line.name,
                    g.name()
                );
            }
        }
        assert!(
            contrast(line.light, Line::CASING.light) >= 3.0,
            "{}",
            line.name
        );
        assert!(
            contrast(line.dark, Line::CASING.dark) >= 3.0,
            "{}",
            line.name
        );
    }

    /// Issue 20, "highlights (last move's path, fire lines …)" legible in light and dark: on
    /// every ground of both palettes, a line's core or its casing stands out at 3:1 at least
    /// (WCAG's contrast for graphics), and the stylesheet gives the dark palette's colours.
    #[test]
    fn lines_over_the_map_stand_out_on_every_ground_in_light_and_dark() {
        let (light_css, dark_css) = STYLE
            .split_once("@media (prefers-color-scheme: dark)")
            .unwrap();
        for line in [Line::MOVE, Line::RETREAT, Line::FIRE] {
            stands_out_on_every_ground(&line);
            for (css, colour) in [(light_css, line.light), (dark_css, line.dark)] {
                for rule in [
                    format!(".{}{{stroke:{colour}}}", line.class),
                    format!(".{}-head{{fill:{colour}}}", line.class),
                ] {
                    assert!(css.contains(&rule), "board.css lacks {rule}");
                }
            }
        }
        assert!(light_css.contains(&format!(".b-casing{{stroke:{}}}", Line::CASING.light)));
        assert!(dark_css.contains(&format!(".b-casing{{stroke:{}}}", Line::CASING.dark)));
        assert!(light_css.contains(&format!(".{}{{fill:{}}}", ZONE.0, ZONE.1)));
        assert!(dark_css.contains(&format!(".{}{{fill:{}}}", ZONE.0, ZONE.2)));
    }

    /// A move's path, a retreat and a fire line: drawn as data gives them, each with its title,
    /// arrowhead and casing, at least 2.5 px wide on a 390-px phone, taking no clicks, and
    /// named in the legend; a watch zone tints each of its cells.
    #[test]
    fn paths_fire_lines_and_zones_are_drawn_from_data_and_named_in_the_legend() {
        for grid in [
            Grid::Hex { cols: 16, rows: 12 },
            Grid::Square { cols: 26, rows: 24 },
        ] {
            let mut b = sample(grid);
            b.highlights = vec![
                Highlight::Path {
                    cells: vec![At::new(0, 0), At::new(1, 0), At::new(2, 1)],
                    title: "p1 moved A1-B1-C2".into(),
                },
                Highlight::Retreat {
                    cells: vec![At::new(2, 0), At::new(2, 1)],
                    title: "p2 retreated".into(),
                },
                Highlight::Fire {
                    from: At::new(0, 0),
                    to: At::new(2, 1),
                    title: "p1 fired at C2".into(),
                },
                Highlight::Zone {
                    cells: vec![At::new(1, 0), At::new(1, 1)],
                    title: "watched by S1".into(),
                },
            ];
            let svg = render(&b);
            for (kind, title, class) in [
                ("path", "p1 moved A1-B1-C2", "b-path"),
                ("retreat", "p2 retreated", "b-retreat"),
                ("fire", "p1 fired at C2", "b-fire"),
            ] {
                let needle = format!(
                    r#"<g class="b-hl" data-highlight="{kind}" pointer-events="none"><title>{title}</title>"#
                );
                let part = svg
                    .split(&needle)
                    .nth(1)
                    .unwrap_or_else(|| panic!("{kind}"));
                let part = part.split("</g>").next().unwrap();
                assert!(part.contains(r#"<polyline class="b-casing""#), "{kind}");
                assert!(
                    part.contains(&format!(r#"<polyline class="{class}""#)),
                    "{kind}"
                );
                // A dot where it starts and an arrowhead where it ends.
                assert!(
                    part.contains(&format!(r#"<circle class="{class}-head""#)),
                    "{kind}"
                );
                assert!(
                    part.contains(&format!(r#"<polygon class="{class}-head""#)),
                    "{kind}"
                );
                let width: f64 = part
                    .split(&format!(r#"<polyline class="{class}""#))
                    .nth(1)
                    .unwrap()
                    .split("stroke-width=\"")
                    .nth(1)
                    .unwrap()
                    .split('"')
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap();
                assert!(width * PHONE / b.width() >= 2.5 - 0.05, "{kind}: {width}");
                // A retreat is dotted; a move and a fire are solid.
                assert_eq!(
                    part.contains(r#"stroke-dasharray="0.0 "#),
                    kind == "retreat",
                    "{kind}"
                );
            }
            let zone = svg
                .split(
                    r#"data-highlight="zone" pointer-events="none"><title>watched by S1</title>"#,
                )
                .nth(1)
                .unwrap()
                .split("</g>")
                .next()
                .unwrap();
            assert_eq!(zone.matches(r#"class="b-zone""#).count(), 2);
            for name in ["moved", "retreated", "fire", "watched"] {
                assert!(svg.contains(&format!(">{name}</text>")), "legend: {name}");
            }
            // Tints and rings are drawn under the pieces, lines over them; none takes clicks.
            let (before, after) = svg.split_once(r#"<g class="b-pieces">"#).unwrap();
            assert!(before.contains(r#"data-highlight="zone""#));
            for kind in ["path", "retreat", "fire"] {
                let needle = format!(r#"data-highlight="{kind}""#);
                assert!(
                    !before.contains(&needle) && after.contains(&needle),
                    "{kind}"
                );
            }
            assert_eq!(
                svg.matches("data-highlight=").count(),
                svg.matches(r#"pointer-events="none""#).count()
            );
        }
    }

    /// Issue 18's drawn map: hexsides as data — a cell and one of its six edges, by kind —
    /// drawn along that edge (the same edge seen from either cell), named in the legend, taking
    /// no clicks, each kind legible on every ground in light and dark like the lines above.
    #[test]
    fn hexsides_are_drawn_along_their_edges_and_named_in_the_legend() {
        // Neighbours across each edge, both ways, in even and odd columns.
        for at in [At::new(2, 2), At::new(3, 2)] {
            for e in Edge::ALL {
                let there = e.across(at).unwrap();
                assert_eq!(Edge::between(at, there), Some(e));
                let back = Edge::between(there, at).unwrap();
                assert_eq!(back.across(there), Some(at), "{e:?} of {at:?}");
            }
        }
        assert_eq!(Edge::N.across(At::new(0, 0)), None);
        assert_eq!(Edge::between(At::new(0, 0), At::new(2, 0)), None);
        // Six kinds to a cell's six edges, each kind in some round.
        for first in 0..=SideKind::ALL.len() - Edge::ALL.len() {
            let kinds = &SideKind::ALL[first..first + Edge::ALL.len()];
            let mut b = sample(Grid::Hex { cols: 3, rows: 3 });
            b.hexsides = kinds
                .iter()
                .zip(Edge::ALL)
                .map(|(kind, edge)| Hexside {
                    at: At::new(1, 1),
                    edge,
                    kind: *kind,
                    title: format!("a {} hexside", kind.line().name),
                })
                .collect();
            let svg = render(&b);
            let (_, after_cells) = svg.split_once(r#"<g class="b-hexsides">"#).unwrap();
            let (sides, _) = after_cells.split_once(r#"<g class="b-pieces">"#).unwrap();
            assert_eq!(sides.matches(r#"<g class="b-side""#).count(), 6);
            assert_eq!(sides.matches(r#"pointer-events="none""#).count(), 6);
            for (kind, edge) in kinds.iter().zip(Edge::ALL) {
                let line = kind.line();
                let needle = format!(
                    r#"data-side="B2:{}" data-kind="{}" pointer-events="none"><title>a {} hexside</title>"#,
                    edge.name(),
                    line.name,
                    line.name
                );
                let part = sides
                    .split(&needle)
                    .nth(1)
                    .unwrap_or_else(|| panic!("{needle}"));
                let part = part.split("</g>").next().unwrap();
                assert!(part.contains(r#"<line class="b-casing""#), "{}", line.name);
                assert!(part.contains(&format!(r#"<line class="{}""#, line.class)));
                // Along the edge: both ends lie between the two corners it joins.
                let coords: Vec<f64> = ["x1", "y1", "x2", "y2"]
                    .iter()
                    .map(|k| {
                        part.rsplit(&format!(r#" {k}=""#))
                            .next()
                            .unwrap()
                            .split('"')
                            .next()
                            .unwrap()
                            .parse()
                            .unwrap()
                    })
                    .collect();
                let (cx, cy) = b.centre(At::new(1, 1));
                for (x, y) in [(coords[0], coords[1]), (coords[2], coords[3])] {
                    let r = ((x - cx).powi(2) + (y - cy).powi(2)).sqrt();
                    assert!(r > HEX * 0.85 && r <= HEX + 0.1, "{}: {r}", line.name);
                }
                let (mx, my) = ((coords[0] + coords[2]) / 2.0, (coords[1] + coords[3]) / 2.0);
                let there = b.centre(edge.across(At::new(1, 1)).unwrap());
                let mid = ((cx + there.0) / 2.0, (cy + there.1) / 2.0);
                assert!(
                    (mx - mid.0).abs() < 0.2 && (my - mid.1).abs() < 0.2,
                    "{}: the edge's middle is halfway to the cell across",
                    line.name
                );
                assert!(
                    svg.contains(&format!(">{}</text>", line.name)),
                    "legend: {}",
                    line.name
                );
            }
        }
        // No hexside, no legend entry; a square grid draws none.
        let plain = render(&sample(Grid::Hex { cols: 3, rows: 2 }));
        assert!(!plain.contains("b-hexsides") && !plain.contains(">stream</text>"));
        let mut square = sample(Grid::Square { cols: 3, rows: 2 });
        square.hexsides = SideKind::ALL
            .iter()
            .zip(Edge::ALL)
            .map(|(kind, edge)| Hexside {
                at: At::new(1, 1),
                edge,
                kind: *kind,
                title: "a hexside".into(),
            })
            .collect();
        assert!(!render(&square).contains("b-side"));
        // Legible in both palettes, as the lines over the map are.
        let (light_css, dark_css) = STYLE
            .split_once("@media (prefers-color-scheme: dark)")
            .unwrap();
        for kind in SideKind::ALL {
            let line = kind.line();
            stands_out_on_every_ground(&line);
            for (css, colour) in [(light_css, line.light), (dark_css, line.dark)] {
                let rule = format!(".{}{{stroke:{colour}}}", line.class);
                assert!(css.contains(&rule), "board.css lacks {rule}");
            }
        }
    }

    #[test]
    fn no_text_is_under_11_px_on_a_390_px_phone() {
        for grid in [
            Grid::Hex { cols: 26, rows: 20 },
            Grid::Square { cols: 26, rows: 24 },
            points(100, 120).grid,
        ] {
            let b = sample(grid);
            let svg = render(&b);
            let width = b.width();
            for part in svg.split("font-size=\"").skip(1) {
                let size: f64 = part.split('"').next().unwrap().parse().unwrap();
                assert!(size * PHONE / width >= MIN_PX, "{size} at width {width}");
            }
        }
    }
}
