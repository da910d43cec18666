//! The map drawn for the pages through the board toolkit (`engine::board`); orders by pointing
//! at it are `pointing`'s.
//!
//! **What is drawn.** The toolkit draws a whole grid at a font that stays legible on a phone,
//! so the series' map (columns 14–87, rows 89–232 on this text's hexes alone) cannot be drawn
//! whole: the board is a **window** of at most [`MAX_COLS`] columns by [`MAX_ROWS`] rows, the
//! one holding the most of what matters: units and the Club Route marker first (the marker is
//! where XXX Corps' reinforcements come in, 4.3.1, so it weighs as a unit and the first turn's
//! board, before any unit is on the map, shows it rather than the empty drop zones), then the
//! other markers, then Club Route and the key hexes. When all of it fits, the window is just
//! big enough. Hex ids are the series' (`56.201`): every cell's `data-cell` and hover title; the
//! toolkit's edge letters and numbers are explained by a note (`A` = column 41 …).
//!
//! With a loaded map (option `map`) every map hex in the window is drawn with its terrain (and
//! its road, railroad, raised road in the title). Without it, only the hexes that matter: the
//! key hexes of `key_hexes.txt`, Club Route, marker hexes, the units' hexes and the hexes next
//! to them (so a unit can be pointed one hex on), drawn clear, their terrain the players'.
//! Hexsides are drawn along their edges ([`hexsides`]): the loaded map's streams, crests,
//! impassable hexsides, bridges, culverts and raised roads' sides, and, map or not, the hexsides
//! `key_hexes.txt` knows — the 2.15 bridges, the stream bridges of 2.11 and the culvert of 2.17.
//!
//! Units are counters by side with their class letter and, in the corner, their steps left;
//! Column is the toolkit's bar, Suppressed its yellow corner, Cohesion Hits a `CH` marker.
//! Markers: the Club Route marker, rubble, road blocks, Minefields, Dutch, barrages, artillery
//! parks, destroyed, wired and improved bridges, Baileys, ferries, unstable stream bridges and
//! Men at Work. The last move's path (read from the log lines the viewer
//! may read) and a fire waiting for its result are highlighted; Club Route is ringed.
//!
//! **Hidden information**: the German flak's types (S5.4) are drawn face down to every viewer
//! but the German until the flip; the off-map display (5.0) is a note on the German's board
//! only. Everything else the board draws is public (`view`).

use std::collections::BTreeMap;

use crate::engine::board::{
    At, Board, Cell, Edge, Grid, Ground, Hexside, Highlight, Piece, Shape, SideKind, State as Mark,
};
use crate::engine::ruleset::{BoardContext, Viewer};

use super::data::{DATA, TURNS};
use super::hex::Hex;
use super::oob::{Class, OOB};
use super::phase_name;
use super::places;
use super::state::{OffMap, Side, State};
use super::terrain::Terrain;
use super::text_board::{flak_line, sees_off_map};
use crate::engine::words::capitalised;

pub use super::window::{Window, MAX_COLS, MAX_ROWS};

/// The key hexes of `key_hexes.txt` (and the state's Club Route), with what they are.
fn key_hexes(s: &State) -> Vec<(Hex, String)> {
    let mut out: Vec<(Hex, String)> = Vec::new();
    for &h in &s.club_route {
        out.push((h, "Club Route (4.0)".into()));
    }
    out.push((
        DATA.route_end,
        "the end of Club Route on this map (4.3.1)".into(),
    ));
    for (spur, h) in &DATA.stops {
        out.push((*h, format!("a Stop hex ({spur:?} spur, 4.2)")));
    }
    for b in &DATA.bridges {
        for h in [b.hexes.0, b.hexes.1] {
            out.push((h, format!("bridge {} (2.15)", b.name)));
        }
    }
    for b in &DATA.stream_bridges {
        for h in [b.hexes.0, b.hexes.1] {
            out.push((h, format!("stream bridge {} (2.11)", b.name)));
        }
    }
    for h in [DATA.culvert.0, DATA.culvert.1] {
        out.push((h, "the culvert (2.17)".into()));
    }
    for (zone, (_, hexes)) in &DATA.zones {
        for &h in hexes {
            out.push((h, format!("{zone} (3.3)")));
        }
    }
    for (division, hexes) in &DATA.sea_tails {
        for &h in hexes {
            out.push((h, format!("the {division} Sea Tail stop (3.5)")));
        }
    }
    for &h in &DATA.flak_hexes {
        out.push((h, "a flak hex (S5.4)".into()));
    }
    out
}

/// The hexes of the markers on the map.
fn marker_hexes(s: &State) -> Vec<Hex> {
    let mut out: Vec<Hex> = s.marker.into_iter().collect();
    out.extend(s.rubble.iter().copied());
    out.extend(s.roadblocks.iter().map(|(h, _)| *h));
    out.extend(s.minefields.iter().copied());
    out.extend(s.dutch.values().copied());
    out.extend(s.typhoons.iter().flat_map(|t| t.hexes.iter().copied()));
    out.extend(s.barrages.iter().map(|(h, _, _)| *h));
    out.extend(s.parks.iter().filter_map(|p| p.hex));
    for (name, b) in &s.bridges {
        let marked = b.destroyed || b.wired_by.is_some() || b.bailey.is_some() || b.improved;
        if let Some(d) = DATA
            .bridges
            .iter()
            .find(|d| &d.name == name)
            .filter(|_| marked)
        {
            out.push(d.hexes.0);
        }
        if let Some(f) = &b.ferry {
            out.push(f.at);
        }
    }
    out
}

/// The window drawn: every weighted point when it fits, else the [`MAX_COLS`] by [`MAX_ROWS`]
/// window holding the most weight (a unit 100, the Club Route marker 100 — XXX Corps'
/// reinforcement hex, 4.3.1 —, another marker 10, a key hex 1), the first such from the
/// north-west. It reads the state only, so the board and its pointing agree.
pub fn window(s: &State) -> Window {
    let mut points: Vec<(Hex, u32)> = s.units.values().map(|u| (u.hex, 100)).collect();
    points.extend(
        marker_hexes(s)
            .into_iter()
            .map(|h| (h, if Some(h) == s.marker { 100 } else { 10 })),
    );
    points.extend(key_hexes(s).into_iter().map(|(h, _)| (h, 1)));
    let mut all: Vec<Hex> = points.iter().map(|(h, _)| *h).collect();
    if let Some(m) = &s.map {
        all.extend(m.map.hexes.keys().copied());
    }
    let fits = |hexes: &[Hex]| {
        let (c_lo, c_hi) = (
            hexes.iter().map(|h| h.col).min()?,
            hexes.iter().map(|h| h.col).max()?,
        );
        let (r_lo, r_hi) = (
            hexes.iter().map(|h| h.row).min()?,
            hexes.iter().map(|h| h.row).max()?,
        );
        // A hex of margin all round, for the neighbours a unit may be pointed at.
        let w = Window::new(
            c_lo.saturating_sub(1),
            r_lo.saturating_sub(1),
            c_hi - c_lo + 3,
            r_hi - r_lo + 3,
        );
        hexes.iter().all(|h| w.contains(*h)).then_some(w)
    };
    if let Some(w) = fits(&all) {
        return w;
    }
    let mut best: Option<(u32, Window)> = None;
    let mut centres: Vec<Hex> = points.iter().map(|(h, _)| *h).collect();
    centres.sort();
    centres.dedup();
    for c in centres {
        let w = Window::new(
            c.col.saturating_sub(MAX_COLS / 2),
            c.row.saturating_sub(MAX_ROWS / 2),
            MAX_COLS,
            MAX_ROWS,
        );
        let score: u32 = points
            .iter()
            .filter(|(h, _)| w.contains(*h))
            .map(|(_, n)| n)
            .sum();
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, w));
        }
    }
    best.map_or(
        Window::new(DATA.marker.col - 6, DATA.marker.row - 8, MAX_COLS, MAX_ROWS),
        |(_, w)| w,
    )
}

/// The edge of a drawn hex that `a`/`b` is, seen from whichever of them is in the window
/// (`a` first), by decision 11's adjacency: the window's first column is odd, so a series
/// even column is one of the toolkit's lowered ones.
fn edge(w: &Window, a: Hex, b: Hex) -> Option<(At, Edge)> {
    [(a, b), (b, a)].into_iter().find_map(|(x, y)| {
        if !w.contains(x) {
            return None;
        }
        let at = w.at(x);
        let dc = i32::from(y.col) - i32::from(x.col);
        let dr = i32::from(y.row) - i32::from(x.row);
        Edge::towards(at.col & 1 == 1, dc, dr).map(|e| (at, e))
    })
}

/// The hexsides drawn in the window: the loaded map's (2.11 streams, 2.12 rivers, 2.13 crests, 2.14
/// impassable, 2.15 bridges, 2.16 raised roads' sides, 2.17 the culvert), then those of
/// `key_hexes.txt` the map does not already give (the 2.15 bridges, the 2.11 stream bridges,
/// the 2.17 culvert), each once.
pub fn hexsides(s: &State, w: &Window) -> Vec<Hexside> {
    use super::terrain::Side as Feature;
    let mut out: Vec<Hexside> = Vec::new();
    let mut add = |a: Hex, b: Hex, kind: SideKind, title: String| {
        if let Some((at, edge)) = edge(w, a, b) {
            if !out
                .iter()
                .any(|h| h.at == at && h.edge == edge && h.kind == kind)
            {
                out.push(Hexside {
                    at,
                    edge,
                    kind,
                    title,
                });
            }
        }
    };
    if let Some(m) = &s.map {
        for ((a, b), features) in &m.map.sides {
            for f in features {
                let (kind, what) = match f {
                    Feature::Stream => (SideKind::Stream, "stream (2.11)"),
                    Feature::River => (SideKind::River, "river (2.12)"),
                    Feature::Crest => (SideKind::Crest, "crest (2.13)"),
                    Feature::Impassable => (SideKind::Impassable, "impassable hexside (2.14)"),
                    Feature::Bridge => (SideKind::Bridge, "bridge (2.15)"),
                    Feature::Culvert => (SideKind::Culvert, "culvert (2.17)"),
                    Feature::Raised => (SideKind::Raised, "raised road hexside (2.16)"),
                };
                add(
                    *a,
                    *b,
                    kind,
                    format!("{a}/{b}: {what}, from the loaded map"),
                );
            }
        }
    }
    for d in &DATA.bridges {
        let (a, b) = d.hexes;
        let state = match s.bridges.get(&d.name) {
            Some(x) if x.destroyed => ", destroyed",
            _ => "",
        };
        add(
            a,
            b,
            SideKind::Bridge,
            format!(
                "{a}/{b}: {} bridge {}{state} (2.15)",
                if d.railroad { "railroad" } else { "road" },
                d.name
            ),
        );
    }
    for d in &DATA.stream_bridges {
        let (a, b) = d.hexes;
        let unstable = s
            .stream_bridges
            .get(&d.name)
            .is_some_and(|x| x.checked && x.unstable);
        add(
            a,
            b,
            SideKind::Bridge,
            format!(
                "{a}/{b}: stream bridge {}{} (2.11)",
                d.name,
                if unstable { ", unstable" } else { "" }
            ),
        );
    }
    let (a, b) = DATA.culvert;
    add(
        a,
        b,
        SideKind::Culvert,
        format!("{a}/{b}: the culvert (2.17)"),
    );
    for (a, b, what) in places::rivers() {
        add(a, b, SideKind::River, format!("{a}/{b}: {what}"));
    }
    out
}

fn ground(t: Terrain) -> Ground {
    match t {
        Terrain::Clear => Ground::Clear,
        Terrain::Polder => Ground::Swamp,
        Terrain::Orchard | Terrain::Woods => Ground::Forest,
        Terrain::Village | Terrain::Town | Terrain::City => Ground::Town,
        Terrain::Fortified => Ground::Fort,
        Terrain::Dunes => Ground::Hill,
        Terrain::Impassable => Ground::Water,
    }
}

/// The hexes drawn in the window, each with its ground and hover title.
pub fn cells(s: &State, w: &Window) -> BTreeMap<Hex, (Ground, String)> {
    let mut out: BTreeMap<Hex, (Ground, String)> = BTreeMap::new();
    if let Some(m) = &s.map {
        for (h, mh) in m.map.hexes.iter().filter(|(h, _)| w.contains(**h)) {
            let mut title = mh.terrain.name().to_owned();
            for (on, word) in [
                (mh.road, "road"),
                (mh.rail, "railroad"),
                (mh.raised, "raised road"),
            ] {
                if on {
                    title.push_str(", ");
                    title.push_str(word);
                }
            }
            out.insert(*h, (ground(mh.terrain), title));
        }
    }
    let unknown = if s.map.is_some() {
        "not on the loaded map: terrain the players'"
    } else {
        "no map loaded: terrain the players'"
    };
    let mut add = |h: Hex, what: Option<&str>| {
        if !w.contains(h) {
            return;
        }
        let e = out
            .entry(h)
            .or_insert_with(|| (Ground::Clear, unknown.to_owned()));
        if let Some(what) = what {
            if !e.1.contains(what) {
                e.1.push_str("; ");
                e.1.push_str(what);
            }
        }
    };
    for (h, what) in key_hexes(s) {
        add(h, Some(&what));
    }
    for h in marker_hexes(s) {
        add(h, None);
    }
    for u in s.units.values() {
        add(u.hex, None);
        for n in u.hex.neighbours() {
            add(n, None);
        }
    }
    out
}

/// A unit's class letter (the legend explains them).
const CLASS_LETTERS: [(Class, &str, &str); 9] = [
    (Class::Leader, "L", "Leader"),
    (Class::Infantry, "I", "infantry"),
    (Class::Armor, "A", "armor"),
    (Class::Recon, "R", "recon"),
    (Class::Artillery, "G", "artillery"),
    (Class::At, "AT", "anti-tank"),
    (Class::Flak, "F", "flak"),
    (Class::Engineer, "E", "engineer"),
    (Class::Hq, "HQ", "HQ"),
];

fn class_of(unit: &str) -> Option<(&'static str, &'static str)> {
    let c = OOB.unit(unit)?.class;
    CLASS_LETTERS
        .iter()
        .find(|(k, _, _)| *k == c)
        .map(|(_, l, n)| (*l, *n))
}

fn side_index(side: Side) -> usize {
    match side {
        Side::Allied => 0,
        Side::German => 1,
    }
}

/// The last move or placement the viewer may read, as the hexes it went through: the move
/// line names the start hex (`allied moves a/502 from 56.201 to 56.202 56.203 …`,
/// `allied places x 56.201 56.202`).
pub fn last_move(lines: &[String]) -> Option<(String, Vec<Hex>)> {
    lines.iter().rev().find_map(|line| {
        let mut w = line.split_whitespace();
        let side = w.next()?;
        if side != "allied" && side != "german" {
            return None;
        }
        let verb = w.next()?;
        if verb != "moves" && verb != "places" {
            return None;
        }
        let unit = w.next()?.to_owned();
        let hexes: Vec<Hex> = w
            .skip_while(|t| *t == "from")
            .map(|t| t.trim_end_matches(','))
            .filter(|t| *t != "to")
            .map_while(Hex::parse)
            .collect();
        (!hexes.is_empty()).then_some((unit, hexes))
    })
}

fn marker(at: At, id: String, side: Option<Side>, label: &str, title: String) -> Piece {
    Piece {
        at,
        id,
        side: side.map(side_index),
        shape: Shape::Marker,
        label: label.to_owned(),
        value: None,
        facing: None,
        states: Vec::new(),
        title,
    }
}

/// The markers' letters, for the legend.
const MARKERS: &str = "CR Club Route marker, Ru rubble, RB road block, Mi Minefield, Du Dutch, \
                       Ba barrage, P artillery park, X bridge destroyed, W bridge wired, \
                       Im railroad bridge improved, Bb Bailey, Fy ferry, U unstable stream \
                       bridge, MW Men at Work, CH Cohesion Hits on a unit, En Entrenched unit \
                       (S3.1 Rout), Ty a Typhoon to attack";

/// The board `viewer` may see.
pub fn board(s: &State, viewer: &Viewer, context: &BoardContext) -> Board {
    let w = window(s);
    let mut drawn = cells(s, &w);
    // The river hexsides the text places are drawn between their two hexes.
    for (a, b, what) in places::rivers() {
        for h in [a, b].into_iter().filter(|h| w.contains(*h)) {
            drawn
                .entry(h)
                .or_insert_with(|| (Ground::Clear, "no map loaded: terrain the players'".into()))
                .1
                .push_str(&format!("; {what}"));
        }
    }
    let marks = places::marks();
    let cells: Vec<Cell> = drawn
        .iter()
        .map(|(h, (g, title))| Cell {
            at: w.at(*h),
            label: h.to_string(),
            ground: *g,
            mark: marks.get(h).cloned(),
            title: title.clone(),
        })
        .collect();
    let (mut pieces, outside) = unit_pieces(s, viewer, &w);
    marker_pieces(s, &w, &mut pieces);
    let highlights = highlights(s, &w, context);
    let legend = legend(s);
    let notes = notes(s, viewer, &w, outside);
    let last_col = w.c0 + w.cols - 1;
    let last_row = w.r0 + w.rows - 1;
    let units_drawn = pieces.iter().filter(|p| p.shape != Shape::Marker).count();
    Board {
        title: format!("Where Eagles Dare, {}", s.clock()),
        description: format!(
            "Hexes {}.{} to {}.{} of the Hell's Highway map, {} hexes drawn, {} units.",
            w.c0,
            w.r0,
            last_col,
            last_row,
            drawn.len(),
            units_drawn
        ),
        grid: Grid::Hex {
            cols: w.cols,
            rows: w.rows,
        },
        cells,
        sides: vec!["Allied".into(), "German".into()],
        pieces,
        highlights,
        hexsides: hexsides(s, &w),
        legend,
        notes,
    }
}

/// The units layer: a counter (a figure for a Leader) for each unit in the window, and the
/// units outside it, for a note.
fn unit_pieces(s: &State, viewer: &Viewer, w: &Window) -> (Vec<Piece>, Vec<String>) {
    let sees_flak = s.flak_flipped || sees_off_map(viewer);
    let mut pieces = Vec::new();
    let mut outside: Vec<String> = Vec::new();
    for (name, u) in &s.units {
        if !w.contains(u.hex) {
            outside.push(format!("{name} {}", u.hex));
            continue;
        }
        let flak = s.flak.get(name);
        let face_down = flak.is_some() && !sees_flak;
        let (label, what) = match (flak, class_of(name)) {
            (Some(_), _) if face_down => (String::new(), "flak, face down (S5.4)".to_owned()),
            (Some(t), _) => (t.chars().take(2).collect(), format!("{t} flak (S5.4)")),
            (None, Some((l, n))) => (l.to_owned(), n.to_owned()),
            (None, None) => (
                "?".to_owned(),
                "unit (not in the order of battle)".to_owned(),
            ),
        };
        let def = OOB.unit(name);
        let mut title = format!("{name}: {} {what}", capitalised(u.side.name()));
        if let Some(d) = def {
            title.push_str(&format!(
                ", {} ({}), {} step{}",
                d.formation,
                OOB.division_of(name).unwrap_or("-"),
                d.steps,
                if d.steps == 1 { "" } else { "s" }
            ));
        }
        title.push_str(&format!(", at {}", u.hex));
        title.push_str(&super::text_board::marks_text(s, name));
        if u.column {
            title.push_str(", in Column");
        }
        if let Some((k, d)) = s.riding.get(name) {
            title.push_str(&format!(", on a {d} {k}"));
        }
        if let Some((v, _)) = s.piggyback.iter().find(|(_, i)| *i == name) {
            title.push_str(&format!(", riding {v} (S4)"));
        }
        if s.heroic.values().any(|h| h == name) {
            title.push_str(", Heroic (S3.1)");
        }
        let mut states = Vec::new();
        if u.column {
            states.push(Mark::Column);
        }
        if face_down {
            states.push(Mark::FaceDown);
        }
        let marks = s.marks.get(name).cloned().unwrap_or_default();
        if marks.suppressed {
            states.push(Mark::FiredOn);
        }
        pieces.push(Piece {
            at: w.at(u.hex),
            id: name.clone(),
            side: Some(side_index(u.side)),
            shape: if def.is_some_and(|d| d.class == Class::Leader) {
                Shape::Figure
            } else {
                Shape::Counter
            },
            label,
            value: match def.filter(|_| !face_down) {
                Some(d) => Some(d.steps.saturating_sub(marks.lost).to_string()),
                None if marks.lost > 0 && !face_down => Some(format!("-{}", marks.lost)),
                None => None,
            },
            facing: None,
            states,
            title,
        });
    }
    (pieces, outside)
}

/// The markers layer: Cohesion Hits, Entrenched, Typhoons, the Club Route marker, rubble, road
/// blocks, Minefields, Dutch, barrages, parks and the bridges' markers.
fn marker_pieces(s: &State, w: &Window, pieces: &mut Vec<Piece>) {
    let mut put = |h: Hex, id: String, side: Option<Side>, label: &str, title: String| {
        if w.contains(h) {
            pieces.push(marker(w.at(h), id, side, label, title));
        }
    };
    for (name, m) in &s.marks {
        if let (Some(u), true) = (s.units.get(name), m.cohesion > 0) {
            put(
                u.hex,
                format!("m-cohesion-{name}"),
                None,
                "CH",
                format!(
                    "{} Cohesion Hit{} on {name}",
                    m.cohesion,
                    if m.cohesion == 1 { "" } else { "s" }
                ),
            );
        }
    }
    for name in &s.entrenched {
        if let Some(u) = s.units.get(name) {
            put(
                u.hex,
                format!("m-entrenched-{name}"),
                Some(u.side),
                "En",
                format!("{name} Entrenched (S3.1 Rout)"),
            );
        }
    }
    for (i, h) in s.typhoons.iter().flat_map(|t| t.hexes.iter()).enumerate() {
        put(
            *h,
            format!("m-typhoon-{i}"),
            Some(Side::Allied),
            "Ty",
            format!("a Typhoon to attack {h} (S3.1 Air Strike)"),
        );
    }
    if let Some(h) = s.marker {
        put(
            h,
            "m-club-route".into(),
            None,
            "CR",
            format!("the Club Route marker at {h} (4.0)"),
        );
    }
    for (i, h) in s.rubble.iter().enumerate() {
        put(
            *h,
            format!("m-rubble-{i}"),
            None,
            "Ru",
            format!("rubble at {h}"),
        );
    }
    for (i, (h, side)) in s.roadblocks.iter().enumerate() {
        put(
            *h,
            format!("m-roadblock-{i}"),
            Some(*side),
            "RB",
            format!("{} road block at {h} (S2)", capitalised(side.name())),
        );
    }
    for (i, h) in s.minefields.iter().enumerate() {
        put(
            *h,
            format!("m-minefield-{i}"),
            None,
            "Mi",
            format!("a Minefield at {h} (S3.1)"),
        );
    }
    for (side, h) in &s.dutch {
        put(
            *h,
            format!("m-dutch-{}", side.name()),
            Some(*side),
            "Du",
            format!("{} Dutch marker at {h} (S3.1)", capitalised(side.name())),
        );
    }
    for (i, (h, heavy, side)) in s.barrages.iter().enumerate() {
        put(
            *h,
            format!("m-barrage-{i}"),
            Some(*side),
            "Ba",
            format!(
                "{} {} barrage at {h}",
                capitalised(side.name()),
                if *heavy { "heavy" } else { "light" }
            ),
        );
    }
    for p in &s.parks {
        if let Some(h) = p.hex {
            put(
                h,
                format!("m-park-{}", p.id),
                Some(p.side),
                "P",
                format!("artillery park {} (value {}) at {h} (S1)", p.id, p.value),
            );
        }
    }
    for (name, b) in &s.bridges {
        let Some(d) = DATA.bridges.iter().find(|d| &d.name == name) else {
            continue;
        };
        let h = d.hexes.0;
        let side_txt = format!("{}/{}", d.hexes.0, d.hexes.1);
        if b.destroyed {
            put(
                h,
                format!("m-bridge-{name}-destroyed"),
                None,
                "X",
                format!("bridge {name} {side_txt} destroyed (2.15)"),
            );
        }
        if let Some(by) = b.wired_by {
            put(
                h,
                format!("m-bridge-{name}-wired"),
                Some(by),
                "W",
                format!(
                    "bridge {name} {side_txt} wired by the {} (2.15.4)",
                    by.name()
                ),
            );
        }
        if b.improved {
            put(
                h,
                format!("m-bridge-{name}-improved"),
                None,
                "Im",
                format!("railroad bridge {name} improved (2.15.3)"),
            );
        }
        if let Some(x) = &b.bailey {
            put(
                h,
                format!("m-bridge-{name}-bailey"),
                Some(Side::Allied),
                "Bb",
                format!("Bailey {} on {name}, {} (2.15.7)", x.unit, x.state()),
            );
        }
        if let Some(f) = &b.ferry {
            put(
                f.at,
                format!("m-ferry-{name}"),
                Some(f.side),
                "Fy",
                format!(
                    "{} ferry {} at {} to {}{} (2.18)",
                    capitalised(f.side.name()),
                    f.unit,
                    f.at,
                    f.to,
                    if f.suppressed { ", Suppressed" } else { "" }
                ),
            );
        }
    }
    for d in &DATA.stream_bridges {
        let Some(x) = s.stream_bridges.get(&d.name) else {
            continue;
        };
        if x.checked && x.unstable {
            put(
                d.hexes.0,
                format!("m-stream-{}", d.name),
                None,
                "U",
                format!(
                    "stream bridge {} {}/{} unstable (2.11)",
                    d.name, d.hexes.0, d.hexes.1
                ),
            );
        }
        if x.men_at_work > 0 {
            put(
                d.hexes.0,
                format!("m-stream-{}-work", d.name),
                None,
                "MW",
                format!("{} Men at Work on {} (2.11)", x.men_at_work, d.name),
            );
        }
    }
}

/// The highlights layer: the airborne zones, Club Route and the road ahead (`places`), the
/// last move's path, a fire waiting for its result.
fn highlights(s: &State, w: &Window, context: &BoardContext) -> Vec<Highlight> {
    let mut highlights: Vec<Highlight> = places::zones(w).into_iter().collect();
    highlights.extend(places::roads(s, w));
    if let Some((unit, path)) = last_move(&context.recent_lines) {
        let cells: Vec<At> = path
            .iter()
            .filter(|h| w.contains(**h))
            .map(|h| w.at(*h))
            .collect();
        if !cells.is_empty() {
            let hexes: Vec<String> = path.iter().map(Hex::to_string).collect();
            highlights.push(Highlight::Path {
                cells,
                title: format!("the last move: {unit} {}", hexes.join(" ")),
            });
        }
    }
    if let Some(p) = &s.pending {
        if let Some(from) = s
            .units
            .get(&p.unit)
            .map(|u| u.hex)
            .filter(|h| w.contains(*h) && w.contains(p.hex))
        {
            highlights.push(Highlight::Fire {
                from: w.at(from),
                to: w.at(p.hex),
                title: format!(
                    "{} {} on {}: the result is stated next",
                    p.unit,
                    if p.fire { "fires" } else { "assaults" },
                    p.hex
                ),
            });
        }
    }
    highlights
}

/// What the counters, markers, rings and ground mean.
fn legend(s: &State) -> Vec<(String, String)> {
    vec![
        (
            "Counters:".to_owned(),
            CLASS_LETTERS
                .iter()
                .map(|(_, l, n)| format!("{l} {n}"))
                .chain(["? not in the order of battle".to_owned()])
                .collect::<Vec<_>>()
                .join(", ")
                + "; number = steps left (order of battle less the losses stated; -n: steps lost by a unit not in it); bar = Column; yellow corner = Suppressed",
        ),
        ("Markers:".to_owned(), MARKERS.to_owned()),
        (
            "Lines:".to_owned(),
            "brown: Club Route, Hell's Highway (4.0), to the marker; dashed: the route ahead \
             (4.1) to the next Stop hexes, a straight line that points the way (the road's \
             hexes are the published map's); violet: the airborne zones (3.3); amber: the last move; red: a fire awaiting its result"
                .to_owned(),
        ),
        ("Marks:".to_owned(), places::MARKS.to_owned()),
        (
            "Ground:".to_owned(),
            if s.map.is_some() {
                "the loaded map's terrain: orchard and woods are forest, village and city town, polder swamp, dunes hill, impassable water"
            } else {
                "no map loaded: the hexes that matter, drawn clear; the terrain is the players'"
            }
            .to_owned(),
        ),
    ]
}

/// The notes under the board: the clock, the edges, Club Route, the victory line, the units
/// outside the window, the flak and (the German's) the off-map display.
fn notes(s: &State, viewer: &Viewer, w: &Window, outside: Vec<String>) -> Vec<String> {
    let last_col = w.c0 + w.cols - 1;
    let last_row = w.r0 + w.rows - 1;
    let mut notes = vec![
        format!(
            "{}, {}; impulse {}; weather {}.",
            s.clock(),
            phase_name(&s.phase),
            s.impulse.name(),
            places::weather_words(s)
        ),
        format!(
            "Edges: A = column {} … {} = column {}; 1 = row {} … {} = row {} (hex 56.201 is column 56, row 201).",
            w.c0,
            (b'A' + (w.cols - 1) as u8) as char,
            last_col,
            w.r0,
            w.rows,
            last_row
        ),
        format!(
            "Club Route marker {}; status {}; Hell's Highway box: {} Attacked, {} Closed.",
            s.marker.map_or("off the map".into(), |h| h.to_string()),
            if s.highway.cut { "Cut" } else { "Open" },
            s.highway.attacked,
            s.highway.closed
        ),
        super::victory::line(s),
        format!("Last turn {} {} Sept.", TURNS[s.last.1], s.last.0),
    ];
    if !outside.is_empty() {
        let n = outside.len();
        let mut shown: Vec<String> = outside.into_iter().take(24).collect();
        if n > 24 {
            shown.push(format!("and {} more", n - 24));
        }
        notes.push(format!("Outside this window: {}.", shown.join(", ")));
    }
    if let Some(l) = flak_line(s, viewer) {
        notes.push(l);
    }
    if sees_off_map(viewer) && !s.offmap.is_empty() {
        let at: Vec<String> = s
            .offmap
            .iter()
            .map(|(f, p)| {
                let where_ = match p {
                    OffMap::Box(b) => b.clone(),
                    OffMap::Entering { letter, .. } => format!("entering at {letter}"),
                    OffMap::OnMap => "on the map".into(),
                    OffMap::Routed { back } => format!("routed, back {back} Sept"),
                };
                format!("{f} {where_}")
            })
            .collect();
        notes.push(format!("Off map (German only, 5.0): {}.", at.join("; ")));
    }
    notes.push(places::RECONSTRUCTED.to_owned());
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ruleset::{Ctx, DiceSource, Rules, SeatDef, Setup};
    use crate::rules::where_eagles_dare::WhereEaglesDare;

    /// The move line `declared::move_unit` writes reads back as the path, from the start hex.
    #[test]
    fn the_move_line_reads_back_as_the_last_move_s_path() {
        let setup = Setup {
            game_id: "drawn".into(),
            scenario: "a-ride-in-the-country".into(),
            options: serde_json::json!({}),
            seats: SeatDef::named_by_id(&["allied", "german"]).unwrap(),
        };
        let rules = WhereEaglesDare;
        let mut s = rules
            .setup(
                &setup,
                &mut crate::engine::dice::hidden_stream(&[1; 32], "drawn", 0),
            )
            .unwrap();
        s.phase = super::super::state::Phase::Activation;
        s.impulse = Side::Allied;
        s.chit = None;
        let at = |t: &str| Hex::parse(t).unwrap();
        s.units.insert(
            "x-inf".into(),
            super::super::state::Unit {
                side: Side::Allied,
                hex: at("41.232"),
                column: false,
            },
        );
        let seat = Side::Allied.seat();
        let c = rules.parse(&s, &seat, "move x-inf 41.231 41.230").unwrap();
        let mut ctx = Ctx::new(DiceSource::None, None);
        rules.apply(&mut s, &seat, &c, &mut ctx).unwrap();
        let lines: Vec<String> = ctx.finish().lines.into_iter().map(|l| l.text).collect();
        assert_eq!(
            last_move(&lines),
            Some((
                "x-inf".to_owned(),
                vec![at("41.232"), at("41.231"), at("41.230")]
            )),
            "{lines:?}"
        );
    }
}
