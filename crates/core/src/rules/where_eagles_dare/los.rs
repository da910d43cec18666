//! Line of Sight over a map in the text format (`terrain.rs`, `Map`): 2.3 (a line traced
//! through two orchard hexes is blocked; through one and into a second is not), Blocking Terrain
//! of the chart (woods, town, city, fortified), 2.13 (a crest hexside blocks unless it is a side
//! of the firer's or the target's hex), 2.16 (a raised road or railroad hex blocks) and 2.15.4
//! (a hex with a bridge hexside blocks as a raised road does). Only the hexes between the firer
//! and the target block.
//!
//! The line runs centre to centre. Decision (reconstructed, the series rule is not in the text):
//! a line that runs exactly along a hexside is traced twice, nudged to either side, and is clear
//! when either tracing is clear. Hexes the map does not know block nothing: the answer says the
//! sight is not known when one lies on the line and nothing known blocks it.

use super::hex::Hex;
use super::terrain::{Map, Side, Terrain, CHART};

/// What the map says of a line of sight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sight {
    Clear,
    /// Blocked, and why (the rule and the hex or hexside).
    Blocked(String),
    /// Nothing the map knows blocks it, but these hexes of the line are not on the map.
    Unknown(Vec<Hex>),
}

fn axial(h: Hex) -> (f64, f64) {
    let q = i32::from(h.col);
    (f64::from(q), f64::from(i32::from(h.row) - (q + 1) / 2))
}

fn hex_of(q: i32, r: i32) -> Option<Hex> {
    let row = r + (q + 1) / 2;
    Some(Hex {
        col: u16::try_from(q).ok()?,
        row: u16::try_from(row).ok()?,
    })
}

/// The hexes from `a` to `b` along the centre line, nudged by `e` (cube rounding).
fn trace(a: Hex, b: Hex, e: f64) -> Vec<Hex> {
    let n = a.distance(b);
    let (q1, r1) = axial(a);
    let (q2, r2) = axial(b);
    let (q1, r1) = (q1 + e, r1 + e);
    let (q2, r2) = (q2 + e, r2 + e);
    let mut out = Vec::new();
    for i in 0..=n {
        let t = if n == 0 {
            0.0
        } else {
            f64::from(i) / f64::from(n)
        };
        let (x, z) = (q1 + (q2 - q1) * t, r1 + (r2 - r1) * t);
        let y = -x - z;
        let (mut rx, ry, mut rz) = (x.round(), y.round(), z.round());
        let (dx, dy, dz) = ((rx - x).abs(), (ry - y).abs(), (rz - z).abs());
        if dx > dy && dx > dz {
            rx = -ry - rz;
        } else if dy <= dz {
            rz = -rx - ry;
        }
        if let Some(h) = hex_of(rx as i32, rz as i32) {
            if out.last() != Some(&h) {
                out.push(h);
            }
        }
    }
    out
}

fn has_bridge_side(map: &Map, h: Hex) -> bool {
    map.sides
        .iter()
        .any(|((x, y), f)| (*x == h || *y == h) && f.contains(&Side::Bridge))
}

/// One tracing: blocked (why), or the unknown hexes on it.
fn judge(map: &Map, line: &[Hex], from: Hex, to: Hex) -> Result<Vec<Hex>, String> {
    let mut unknown = Vec::new();
    let mut orchards = 0;
    for w in line.windows(2) {
        let (a, b) = (w[0], w[1]);
        if map.side(a, b).is_some_and(|f| f.contains(&Side::Crest)) && a != from && b != to {
            return Err(format!("2.13 Crests: the crest hexside {a}/{b}"));
        }
    }
    for &h in line.iter().filter(|h| **h != from && **h != to) {
        let Some(m) = map.hexes.get(&h) else {
            unknown.push(h);
            continue;
        };
        if CHART.get(&m.terrain).is_some_and(|r| r.blocking) {
            return Err(format!("Blocking Terrain: {} in {h}", m.terrain.name()));
        }
        if m.raised {
            return Err(format!("2.16 Raised Roads/Railroads: {h}"));
        }
        if has_bridge_side(map, h) {
            return Err(format!("2.15.4 Line of Sight: the bridge in {h}"));
        }
        if m.terrain == Terrain::Orchard {
            orchards += 1;
            if orchards == 2 {
                return Err(format!("2.3 Orchard: a second orchard hex, {h}"));
            }
        }
    }
    Ok(unknown)
}

/// The line of sight from `from` to `to` on `map`.
pub fn line_of_sight(map: &Map, from: Hex, to: Hex) -> Sight {
    const NUDGE: f64 = 1e-6;
    let a = trace(from, to, NUDGE);
    let b = trace(from, to, -NUDGE);
    let results = [judge(map, &a, from, to), judge(map, &b, from, to)];
    if results.iter().any(|r| r.as_ref().is_ok_and(Vec::is_empty)) {
        return Sight::Clear;
    }
    let mut unknown: Vec<Hex> = results.iter().flatten().flatten().copied().collect();
    if unknown.is_empty() {
        let why = results
            .into_iter()
            .find_map(Result::err)
            .expect("neither tracing is clear");
        return Sight::Blocked(why);
    }
    unknown.sort();
    unknown.dedup();
    Sight::Unknown(unknown)
}

/// The hexes of the line (the first tracing), for a reader.
pub fn hexes_between(from: Hex, to: Hex) -> Vec<Hex> {
    trace(from, to, 1e-6)
}
