//! What the text places on the map, for the drawn board (`drawn`): Hell's Highway — Club Route
//! as designated (4.0: its hexes from 41.232 to the marker) and the road ahead (4.1 potential
//! Club Route: from the marker through the Stop hexes still open to the end of the map, 4.2) —,
//! the airborne zones (3.3) as one tinted area, the river hexside the play note of 2.0 names, and
//! a mark in each hex the text names a place by: the Best bridges (49.160), the Son bridge, the
//! Stop hexes, the end of Club Route, the zones' letters. The text names no town by hex (the
//! towns are the published map's, option `map`), and the road ahead's own hexes are the map's
//! too: the road ahead is drawn as a straight dashed line from one known hex to the next, which
//! only points the way. A leaf: data and state in, drawing data out.

use std::collections::BTreeMap;

use crate::engine::board::{At, Highlight, Line};

use super::data::{Spur, DATA};
use super::hex::Hex;
use super::state::State;
use super::window::Window;

/// Club Route as designated: its hexes in order, south to north (4.0). The legend's names are
/// short (a legend column holds 17 characters); its "Lines:" entry says the rest.
pub const CLUB_ROUTE: Line = Line {
    name: "Club Route",
    ..Line::ROAD
};

/// Potential Club Route ahead of the marker (4.1).
pub const ROAD_AHEAD: Line = Line {
    name: "route ahead",
    ..Line::ROAD_AHEAD
};

/// The legend's name of the airborne zones' tint (short: a legend column is 17 characters).
pub const ZONES: &str = "airborne zone";

/// Club Route drawn as a road through its hexes up to the marker, a run for each stretch inside
/// the window; then the road ahead, a straight dashed line from the marker to each Stop hex
/// north of it on a spur still open (both spurs until one is chosen, 4.2), and on to the end
/// of the map (14.89), each stretch clipped to the window.
pub fn roads(s: &State, w: &Window) -> Vec<Highlight> {
    let mut out = Vec::new();
    let mut route: Vec<Hex> = s.club_route.clone();
    route.extend(s.marker);
    let hexes: Vec<String> = s.club_route.iter().map(Hex::to_string).collect();
    let title = format!(
        "Club Route (4.0), Hell's Highway as designated: {}{}",
        hexes.join(" "),
        s.marker
            .map_or(" (the marker is off the map)".into(), |m| format!(
                ", then the Club Route marker at {m}"
            ))
    );
    let mut run: Vec<At> = Vec::new();
    for h in route {
        if w.contains(h) {
            run.push(w.at(h));
        } else if !run.is_empty() {
            out.push(road(std::mem::take(&mut run), CLUB_ROUTE, &title));
        }
    }
    if !run.is_empty() {
        out.push(road(run, CLUB_ROUTE, &title));
    }
    let Some(marker) = s.marker else {
        return out;
    };
    let mut stretches: Vec<(Hex, Hex)> = Vec::new();
    for chain in chains_ahead(s, marker) {
        for pair in chain.windows(2) {
            if !stretches.contains(&(pair[0], pair[1])) {
                stretches.push((pair[0], pair[1]));
            }
        }
    }
    for (a, b) in stretches {
        if let Some((x, y)) = clip(w, a, b) {
            out.push(road(
                vec![x, y],
                ROAD_AHEAD,
                &format!(
                    "potential Club Route (4.1) from {a} to {b}{}: the road's own hexes are the published map's, this line only points the way",
                    stop_words(b)
                ),
            ));
        }
    }
    out
}

fn road(cells: Vec<At>, line: Line, title: &str) -> Highlight {
    Highlight::Road {
        cells,
        line,
        title: title.to_owned(),
    }
}

/// What a hex of the road ahead is, for a title.
fn stop_words(h: Hex) -> String {
    if h == DATA.route_end {
        return ", the end of Club Route on this map (4.3.1)".into();
    }
    match DATA.stop(h) {
        Some(Spur::Common) => ", a Stop hex (4.1)".into(),
        Some(spur) => format!(", a Stop hex of the {spur:?} spur (4.2, reconstructed)"),
        None => String::new(),
    }
}

/// The road ahead from the marker, south to north: one chain for each spur still open (4.2:
/// the spur not chosen may never be Club Route), each the marker, the first potential hex at
/// the start (42.228, 4.0), then the Stop hexes north of the marker on that spur and the
/// common ones, by row (north is a smaller row).
pub fn chains_ahead(s: &State, marker: Hex) -> Vec<Vec<Hex>> {
    let north = |h: &Hex| h.row < marker.row && !s.club_route.contains(h);
    let spurs: Vec<Spur> = match s.spur {
        Some(chosen) => vec![chosen],
        None => vec![Spur::Son, Spur::Best],
    };
    let mut chains: Vec<Vec<Hex>> = Vec::new();
    for spur in spurs {
        let mut stops: Vec<Hex> = DATA
            .stops
            .iter()
            .filter(|(k, h)| (*k == Spur::Common || *k == spur) && north(h))
            .map(|(_, h)| *h)
            .collect();
        if north(&DATA.route_end) && !stops.contains(&DATA.route_end) {
            stops.push(DATA.route_end);
        }
        stops.sort_by_key(|h| std::cmp::Reverse(h.row));
        let mut chain = vec![marker];
        if marker == DATA.marker {
            chain.push(FIRST_POTENTIAL);
        }
        chain.extend(stops);
        if chain.len() > 1 && !chains.contains(&chain) {
            chains.push(chain);
        }
    }
    chains
}

/// The first potential Club Route hex at the start (4.0: "Potential Club Route is hex 42.228").
const FIRST_POTENTIAL: Hex = Hex { col: 42, row: 228 };

/// A hex's centre in map units (a column 1.5 across, a row √3 down, an even column half a row
/// lower: hex.rs's adjacency).
fn centre(col: f64, row: f64, even: bool) -> (f64, f64) {
    let r3 = 3f64.sqrt();
    (1.5 * col, r3 * (row + if even { 0.5 } else { 0.0 }))
}

/// The hex nearest a point in map units.
fn nearest(x: f64, y: f64) -> (i32, i32) {
    let col = (x / 1.5).round();
    let even = (col as i64).rem_euclid(2) == 0;
    let row = (y / 3f64.sqrt() - if even { 0.5 } else { 0.0 }).round();
    (col as i32, row as i32)
}

/// The straight line from `a` to `b` clipped to the window (Liang–Barsky), as the window's
/// cells nearest its two ends; `None` when it misses the window or shrinks to one cell.
pub fn clip(w: &Window, a: Hex, b: Hex) -> Option<(At, At)> {
    let p = centre(f64::from(a.col), f64::from(a.row), a.col.is_multiple_of(2));
    let q = centre(f64::from(b.col), f64::from(b.row), b.col.is_multiple_of(2));
    let (x0, y0) = centre(f64::from(w.c0), f64::from(w.r0), false);
    let last_col = f64::from(w.c0 + w.cols - 1);
    let (x1, _) = centre(last_col, 0.0, false);
    let (_, y1) = centre(0.0, f64::from(w.r0 + w.rows - 1), false);
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let (mut t0, mut t1) = (0f64, 1f64);
    for (pp, qq) in [
        (-dx, p.0 - x0),
        (dx, x1 - p.0),
        (-dy, p.1 - y0),
        (dy, y1 - p.1),
    ] {
        if pp == 0.0 {
            if qq < 0.0 {
                return None;
            }
        } else {
            let t = qq / pp;
            if pp < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    if t0 > t1 {
        return None;
    }
    let cell = |t: f64| {
        let (c, r) = nearest(p.0 + dx * t, p.1 + dy * t);
        let c = c.clamp(i32::from(w.c0), i32::from(w.c0 + w.cols - 1)) as u16;
        let r = r.clamp(i32::from(w.r0), i32::from(w.r0 + w.rows - 1)) as u16;
        w.at(Hex { col: c, row: r })
    };
    let (from, to) = (cell(t0), cell(t1));
    (from != to).then_some((from, to))
}

/// The airborne zones (3.3) in the window, one tinted area.
pub fn zones(w: &Window) -> Option<Highlight> {
    let mut cells: Vec<At> = DATA
        .zones
        .values()
        .flat_map(|(_, hexes)| hexes.iter())
        .filter(|h| w.contains(**h))
        .map(|h| w.at(*h))
        .collect();
    cells.sort();
    cells.dedup();
    (!cells.is_empty()).then(|| Highlight::Area {
        cells,
        name: ZONES.into(),
        title: "The airborne zones (3.3): DZ A1, DZ A, DZ B, DZ C; LZ W is B and C together".into(),
    })
}

/// The mark drawn in each hex the text names a place by: the zones' letters (`B/C` in both;
/// LZ W is B and C, so it is not marked apart), `Stop`, `End`, and the two spurs' bridges,
/// `Best` and `Son`, over the rest.
pub fn marks() -> BTreeMap<Hex, String> {
    let mut out: BTreeMap<Hex, String> = BTreeMap::new();
    for (name, (_, hexes)) in &DATA.zones {
        if name == "W" {
            continue;
        }
        for h in hexes {
            out.entry(*h)
                .and_modify(|m| {
                    m.push('/');
                    m.push_str(name);
                })
                .or_insert_with(|| name.clone());
        }
    }
    for (_, h) in &DATA.stops {
        out.insert(*h, "Stop".into());
    }
    out.insert(DATA.route_end, "End".into());
    for (spur, h) in &DATA.stops {
        match spur {
            Spur::Best => out.insert(*h, "Best".into()),
            Spur::Son => out.insert(*h, "Son".into()),
            Spur::Common => None,
        };
    }
    out
}

/// The rivers the text places by hexside (the play note of 2.0: a unit "cannot move from 76.130
/// to 76.129"), with what says so. Drawn only: without a loaded map the players adjudicate
/// them, as the play note asks.
pub fn rivers() -> Vec<(Hex, Hex, &'static str)> {
    vec![(
        Hex { col: 76, row: 129 },
        Hex { col: 76, row: 130 },
        "river (2.12): the play note of 2.0 — units cannot move from 76.130 to 76.129",
    )]
}

/// The legend's line for the marks.
pub const MARKS: &str = "A1 A B C the airborne zones (3.3; B/C in both, LZ W = B and C); Stop a \
Club Route Stop hex (4.1); End 14.89, the route's end; Best 49.160, the Best bridges' Stop; Son \
the Son bridge's Stop (reconstructed). The text names no town by hex: the towns are the \
published map's (option map).";

/// The note on the numbers the engine takes from reconstructed data, where the board shows
/// them (docs/rules/where-eagles-dare.md, decision 3).
pub const RECONSTRUCTED: &str = "Reconstructed, not in the text (decision 3): the Weather \
Table's rows but 3 = fog 5, the Drop Table's rows, the Guards' release numbers, the flank \
corps' tracks, the Stop hexes but 61.141 and 14.89, the bridges' hexes but 49.160.";

/// The weather as the board says it: marked when its row of the Weather Table is reconstructed
/// (every row but 3 = fog 5, 1.2).
pub fn weather_words(s: &State) -> String {
    use super::data::Weather;
    match s.weather {
        None => "not rolled".into(),
        Some(w @ Weather::Fog { clear: 5 }) => w.name(),
        Some(w) => format!("{} (a reconstructed row of the Weather Table)", w.name()),
    }
}
