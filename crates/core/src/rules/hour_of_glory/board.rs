//! The stronghold: squares, rooms, corridors, doors, the entrance and its entry zone, Sentry
//! posts and the Commander's start square, read once from `data/stronghold.txt` (summary,
//! "Setup": "Assemble the Stronghold tiles"). The printed tiles are pictures the texts lack, so
//! the layout is the project's own (docs/rules/hour-of-glory.md, "The map").
//!
//! A door is not a square: it stands in a wall between the square either side of it, so moving
//! through an open door is one step, and "the 3 adjacent squares" of a door (summary, "Doors")
//! are the three squares along each face of it.

use std::fmt;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

/// A square of the stronghold grid: column (0 = `a`) and row (0 = row 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Sq(pub u8, pub u8);

impl Sq {
    /// Reads `m20`: a column letter and a row number from 1.
    pub fn parse(text: &str) -> Option<Sq> {
        let mut chars = text.chars();
        let c = chars.next()?;
        if !c.is_ascii_lowercase() {
            return None;
        }
        let row: u8 = chars.as_str().parse().ok()?;
        let sq = Sq(c as u8 - b'a', row.checked_sub(1)?);
        board().cell(sq).map(|_| sq)
    }

    /// Chebyshev distance: the squares counted along a straight or diagonal line.
    pub fn chebyshev(self, other: Sq) -> u32 {
        let dx = (self.0 as i32 - other.0 as i32).unsigned_abs();
        let dy = (self.1 as i32 - other.1 as i32).unsigned_abs();
        dx.max(dy)
    }
}

impl fmt::Display for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.0) as char, self.1 + 1)
    }
}

/// A door's number on the map (`door-1` …), 1-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct DoorId(pub u8);

impl fmt::Display for DoorId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "door-{}", self.0)
    }
}

impl DoorId {
    pub fn parse(text: &str) -> Option<DoorId> {
        let n: u8 = text.strip_prefix("door-")?.parse().ok()?;
        (n >= 1 && (n as usize) <= board().doors.len()).then_some(DoorId(n))
    }
    pub fn index(self) -> usize {
        self.0 as usize - 1
    }
}

/// A room's number (1–10).
pub type Room = u8;

/// The four facings of a Commander or Sentry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dir {
    North,
    East,
    South,
    West,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];
    pub fn delta(self) -> (i32, i32) {
        match self {
            Dir::North => (0, -1),
            Dir::East => (1, 0),
            Dir::South => (0, 1),
            Dir::West => (-1, 0),
        }
    }
    pub fn opposite(self) -> Dir {
        match self {
            Dir::North => Dir::South,
            Dir::East => Dir::West,
            Dir::South => Dir::North,
            Dir::West => Dir::East,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Dir::North => "north",
            Dir::East => "east",
            Dir::South => "south",
            Dir::West => "west",
        }
    }
    pub fn parse(text: &str) -> Option<Dir> {
        match text {
            "n" | "north" => Some(Dir::North),
            "e" | "east" => Some(Dir::East),
            "s" | "south" => Some(Dir::South),
            "w" | "west" => Some(Dir::West),
            _ => None,
        }
    }
    /// The facing that looks most directly from `from` towards `to`.
    pub fn towards(from: Sq, to: Sq) -> Dir {
        let dx = to.0 as i32 - from.0 as i32;
        let dy = to.1 as i32 - from.1 as i32;
        if dx.abs() >= dy.abs() {
            if dx >= 0 {
                Dir::East
            } else {
                Dir::West
            }
        } else if dy >= 0 {
            Dir::South
        } else {
            Dir::North
        }
    }
}

/// What a grid cell is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    Wall,
    Corridor,
    Room(Room),
    /// One of the four squares outside the entrance.
    Entry,
    Door(DoorId),
}

impl Cell {
    pub fn is_square(self) -> bool {
        matches!(self, Cell::Corridor | Cell::Room(_) | Cell::Entry)
    }
}

/// A door: where it stands and the squares either side of it.
#[derive(Debug, Clone)]
pub struct Door {
    pub id: DoorId,
    pub at: (u8, u8),
    /// The squares straight through the door, one on each face.
    pub sides: [Sq; 2],
    /// The three squares along each face.
    pub adjacent: Vec<Sq>,
    /// The rooms the door opens into (one for a room-to-corridor door, two between rooms).
    pub rooms: Vec<Room>,
    pub entrance: bool,
    /// The door between rooms 8 and 9: not locked, opened automatically from either side.
    pub unlocked: bool,
}

/// A Sentry post from the map: the set it belongs to (A, B, C), its square, its ready facing.
#[derive(Debug, Clone)]
pub struct Post {
    pub set: char,
    pub sq: Sq,
    pub facing: Dir,
    /// The door he guards, which his ready facing turns away from.
    pub door: DoorId,
}

/// Summary, "Setup": Sentries face "away from the doors they are guarding": a step in `facing`
/// from `sq` goes further from the door at `door` (on its axis, straight away; beside it, either
/// way that leads away).
pub fn faces_away(door: (u8, u8), sq: Sq, facing: Dir) -> bool {
    let (dx, dy) = facing.delta();
    let (vx, vy) = (sq.0 as i32 - door.0 as i32, sq.1 as i32 - door.1 as i32);
    dx * vx + dy * vy > 0
}

/// A step from one square to a neighbour, perhaps through a door.
#[derive(Debug, Clone, Copy)]
pub struct Link {
    pub to: Sq,
    pub door: Option<DoorId>,
}

pub struct Board {
    pub width: u8,
    pub height: u8,
    cells: Vec<Cell>,
    pub doors: Vec<Door>,
    pub posts: Vec<Post>,
    pub commander: Sq,
    pub entry: Vec<Sq>,
    links: Vec<Vec<Link>>,
    rooms: Vec<Vec<Sq>>,
    /// The text of the grid, for the docs and views.
    pub picture: String,
}

static BOARD: OnceLock<Board> = OnceLock::new();

/// The stronghold, read from its data file on first use.
pub fn board() -> &'static Board {
    BOARD.get_or_init(|| {
        Board::parse(include_str!("data/stronghold.txt"))
            .unwrap_or_else(|e| panic!("data/stronghold.txt: {e}"))
    })
}

impl Board {
    pub fn parse(text: &str) -> Result<Board, String> {
        let mut rows: Vec<&str> = Vec::new();
        let mut in_grid = false;
        let mut rest = Vec::new();
        for l in text.lines() {
            if !in_grid {
                if l.trim() == "grid" {
                    in_grid = true;
                }
                continue;
            }
            if l.trim() == "end" {
                rest = lines_after_end(text);
                break;
            }
            rows.push(l);
        }
        let height = rows.len();
        let width = rows.iter().map(|r| r.len()).max().unwrap_or(0);
        if width > 26 || height > 99 || height == 0 {
            return Err("the grid must be 1-26 columns and 1-99 rows".into());
        }
        let mut cells = vec![Cell::Wall; width * height];
        let mut door_cells = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let cell = match ch {
                    '#' | ' ' => Cell::Wall,
                    '.' => Cell::Corridor,
                    'e' => Cell::Entry,
                    '0' => Cell::Room(10),
                    '1'..='9' => Cell::Room(ch as u8 - b'0'),
                    '+' | '%' | 'E' => {
                        door_cells.push((x as u8, y as u8, ch));
                        Cell::Door(DoorId(door_cells.len() as u8))
                    }
                    other => return Err(format!("unknown map character '{other}'")),
                };
                cells[y * width + x] = cell;
            }
        }
        let mut b = Board {
            width: width as u8,
            height: height as u8,
            cells,
            doors: Vec::new(),
            posts: Vec::new(),
            commander: Sq(0, 0),
            entry: Vec::new(),
            links: Vec::new(),
            rooms: vec![Vec::new(); 10],
            picture: rows.join("\n"),
        };
        for (x, y, ch) in door_cells {
            let id = match b.cell_xy(x as i32, y as i32) {
                Cell::Door(id) => id,
                _ => unreachable!("recorded as a door"),
            };
            let horizontal_wall = b.cell_xy(x as i32, y as i32 - 1).is_square()
                && b.cell_xy(x as i32, y as i32 + 1).is_square();
            let vertical_wall = b.cell_xy(x as i32 - 1, y as i32).is_square()
                && b.cell_xy(x as i32 + 1, y as i32).is_square();
            let (sides, adjacent) = if horizontal_wall {
                let s = [Sq(x, y - 1), Sq(x, y + 1)];
                let adj = [y as i32 - 1, y as i32 + 1]
                    .iter()
                    .flat_map(|&yy| (x as i32 - 1..=x as i32 + 1).map(move |xx| (xx, yy)))
                    .filter(|&(xx, yy)| b.cell_xy(xx, yy).is_square())
                    .map(|(xx, yy)| Sq(xx as u8, yy as u8))
                    .collect();
                (s, adj)
            } else if vertical_wall {
                let s = [Sq(x - 1, y), Sq(x + 1, y)];
                let adj = [x as i32 - 1, x as i32 + 1]
                    .iter()
                    .flat_map(|&xx| (y as i32 - 1..=y as i32 + 1).map(move |yy| (xx, yy)))
                    .filter(|&(xx, yy)| b.cell_xy(xx, yy).is_square())
                    .map(|(xx, yy)| Sq(xx as u8, yy as u8))
                    .collect();
                (s, adj)
            } else {
                return Err(format!(
                    "{id} at {} does not stand between two squares",
                    Sq(x, y)
                ));
            };
            let rooms = sides
                .iter()
                .filter_map(|&s| match b.cell(s) {
                    Some(Cell::Room(r)) => Some(r),
                    _ => None,
                })
                .collect();
            b.doors.push(Door {
                id,
                at: (x, y),
                sides,
                adjacent,
                rooms,
                entrance: ch == 'E',
                unlocked: ch == '%',
            });
        }
        for (i, c) in b.cells.iter().enumerate() {
            if *c == Cell::Entry {
                b.entry.push(Sq((i % width) as u8, (i / width) as u8));
            }
        }
        for line in rest {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                [] => {}
                ["post", set, sq, facing, door] => {
                    let sq = b.parse_sq(sq)?;
                    let facing = Dir::parse(facing).ok_or(format!("bad facing {facing}"))?;
                    let set = set.chars().next().ok_or("empty post set")?;
                    // Not `DoorId::parse`, which asks the finished board.
                    let door = door
                        .strip_prefix("door-")
                        .and_then(|n| n.parse::<u8>().ok())
                        .filter(|n| (1..=b.doors.len()).contains(&(*n as usize)))
                        .map(DoorId)
                        .ok_or(format!("post {sq}: bad door {door}"))?;
                    let d = &b.doors[door.index()];
                    if !d.adjacent.contains(&sq) {
                        return Err(format!("post {sq} is not in front of {door}"));
                    }
                    if !faces_away(d.at, sq, facing) {
                        return Err(format!(
                            "post {sq} faces {}, not away from {door}",
                            facing.name()
                        ));
                    }
                    b.posts.push(Post {
                        set,
                        sq,
                        facing,
                        door,
                    });
                }
                ["commander", sq] => b.commander = b.parse_sq(sq)?,
                other => return Err(format!("unknown map line {other:?}")),
            }
        }
        for (i, c) in b.cells.iter().enumerate() {
            if let Cell::Room(r) = c {
                b.rooms[*r as usize - 1].push(Sq((i % width) as u8, (i / width) as u8));
            }
        }
        b.links = (0..b.cells.len())
            .map(|i| b.compute_links(Sq((i % width) as u8, (i / width) as u8)))
            .collect();
        Ok(b)
    }

    fn parse_sq(&self, text: &str) -> Result<Sq, String> {
        let mut chars = text.chars();
        let c = chars.next().ok_or("empty square")?;
        let row: u8 = chars
            .as_str()
            .parse()
            .map_err(|_| format!("bad square {text}"))?;
        let sq = Sq(c as u8 - b'a', row - 1);
        if self.cell(sq).is_some_and(Cell::is_square) {
            Ok(sq)
        } else {
            Err(format!("{text} is not a square"))
        }
    }

    fn cell_xy(&self, x: i32, y: i32) -> Cell {
        if x < 0 || y < 0 || x >= self.width as i32 || y >= self.height as i32 {
            Cell::Wall
        } else {
            self.cells[y as usize * self.width as usize + x as usize]
        }
    }

    /// The cell at a square, if it is on the grid.
    pub fn cell(&self, sq: Sq) -> Option<Cell> {
        (sq.0 < self.width && sq.1 < self.height)
            .then(|| self.cells[sq.1 as usize * self.width as usize + sq.0 as usize])
    }

    pub fn cell_at(&self, x: i32, y: i32) -> Cell {
        self.cell_xy(x, y)
    }

    pub fn is_square(&self, sq: Sq) -> bool {
        self.cell(sq).is_some_and(Cell::is_square)
    }

    pub fn room_of(&self, sq: Sq) -> Option<Room> {
        match self.cell(sq) {
            Some(Cell::Room(r)) => Some(r),
            _ => None,
        }
    }

    pub fn is_entry(&self, sq: Sq) -> bool {
        self.cell(sq) == Some(Cell::Entry)
    }

    pub fn is_corridor(&self, sq: Sq) -> bool {
        self.cell(sq) == Some(Cell::Corridor)
    }

    pub fn door(&self, id: DoorId) -> &Door {
        &self.doors[id.index()]
    }

    pub fn entrance(&self) -> &Door {
        self.doors
            .iter()
            .find(|d| d.entrance)
            .expect("the map has an entrance")
    }

    /// The squares of a room.
    pub fn room_squares(&self, room: Room) -> &[Sq] {
        &self.rooms[room as usize - 1]
    }

    /// The doors of a room.
    pub fn room_doors(&self, room: Room) -> impl Iterator<Item = &Door> + '_ {
        self.doors.iter().filter(move |d| d.rooms.contains(&room))
    }

    /// Every possible step from a square, with the door it passes through (open or not).
    pub fn links(&self, sq: Sq) -> &[Link] {
        &self.links[sq.1 as usize * self.width as usize + sq.0 as usize]
    }

    fn compute_links(&self, sq: Sq) -> Vec<Link> {
        if !self.is_square(sq) {
            return Vec::new();
        }
        let (x, y) = (sq.0 as i32, sq.1 as i32);
        let mut out = Vec::new();
        for dx in -1..=1 {
            for dy in -1..=1 {
                if dx == 0 && dy == 0 {
                    continue;
                }
                let c = self.cell_xy(x + dx, y + dy);
                if c.is_square() {
                    // Summary, "Movement": no moving diagonally across corners.
                    if dx != 0
                        && dy != 0
                        && !(self.cell_xy(x + dx, y).is_square()
                            && self.cell_xy(x, y + dy).is_square())
                    {
                        continue;
                    }
                    out.push(Link {
                        to: Sq((x + dx) as u8, (y + dy) as u8),
                        door: None,
                    });
                } else if let Cell::Door(id) = c {
                    if dx == 0 || dy == 0 {
                        let beyond = self.cell_xy(x + 2 * dx, y + 2 * dy);
                        if beyond.is_square() {
                            out.push(Link {
                                to: Sq((x + 2 * dx) as u8, (y + 2 * dy) as u8),
                                door: Some(id),
                            });
                        }
                    }
                }
            }
        }
        out
    }

    /// Every square of the stronghold grid.
    pub fn squares(&self) -> impl Iterator<Item = Sq> + '_ {
        let w = self.width as usize;
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, c)| c.is_square())
            .map(move |(i, _)| Sq((i % w) as u8, (i / w) as u8))
    }
}

fn lines_after_end(text: &str) -> Vec<&str> {
    text.lines()
        .skip_while(|l| l.trim() != "end")
        .skip(1)
        .filter(|l| !l.trim_start().starts_with('#'))
        .collect()
}
