//! Victory (4.3.1, 4.3.3) and the game's end. The text names what scores: the Allied player
//! earns victory points for each Formation released from the Club Route line (Auto Formations
//! have no marker and do not count; the 43rd's are counted though their units never appear on
//! this map) and for the day the Club Route marker came off the map; the German player's
//! Attacked and Closed markers accumulate victory points (those a status check set aside
//! included, and the Eindhoven Air Raid's). The values and the victory levels are
//! `data/victory.txt`, reconstructed. The game ends after the scenario's last turn; the level
//! is read from the margin, Allied minus German.

use serde::Serialize;

use super::data::DATA;
use super::state::{Side, State};

/// One side's points, item by item.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Points {
    pub total: i64,
    pub items: Vec<(String, i64)>,
}

impl Points {
    fn add(&mut self, what: String, points: i64) {
        if points != 0 {
            self.total += points;
            self.items.push((what, points));
        }
    }

    /// `12 (3 released Formations 6, Club Route off the map 19 Sept 6)`.
    pub fn text(&self) -> String {
        if self.items.is_empty() {
            return "0".into();
        }
        let items: Vec<String> = self.items.iter().map(|(w, p)| format!("{w} {p}")).collect();
        format!("{} ({})", self.total, items.join(", "))
    }
}

/// The victory points of both sides as things stand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub allied: Points,
    pub german: Points,
    /// Allied minus German.
    pub margin: i64,
    pub winner: Option<Side>,
    pub level: String,
}

/// Formations released from the Club Route line that count for victory (4.3.1): every one with
/// a marker (not Auto, not bypassed).
pub fn counted_releases(s: &State) -> usize {
    DATA.release_line
        .iter()
        .filter(|e| e.number.is_some() && !e.bypassed && s.released.contains(&e.id))
        .count()
}

pub fn tally(s: &State) -> Tally {
    let v = &DATA.victory;
    let mut allied = Points::default();
    let n = counted_releases(s) as i64;
    allied.add(
        format!("{n} released Formation{}", if n == 1 { "" } else { "s" }),
        n * v.released,
    );
    if let Some(day) = s.route_cleared_day {
        let p = v
            .route_off
            .iter()
            .find(|(d, _)| *d == day)
            .map_or(0, |r| r.1);
        allied.add(format!("Club Route off the map {day} Sept"), p);
    }
    let mut german = Points::default();
    let a = i64::from(s.highway.attacked + s.highway.used_attacked);
    let c = i64::from(s.highway.closed + s.highway.used_closed);
    german.add(format!("{a} Attacked"), a * v.attacked);
    german.add(format!("{c} Closed"), c * v.closed);
    let margin = allied.total - german.total;
    let (_, winner, level) = v
        .levels
        .iter()
        .find(|(at, _, _)| margin >= *at)
        .or(v.levels.last())
        .cloned()
        .expect("victory.txt has levels");
    Tally {
        allied,
        german,
        margin,
        winner,
        level,
    }
}

/// The line the board and the outcome show.
pub fn line(s: &State) -> String {
    let t = tally(s);
    format!(
        "Victory points: Allied {}, German {}; margin {:+}: {}{}",
        t.allied.text(),
        t.german.text(),
        t.margin,
        t.level,
        if s.over { "" } else { " (so far)" }
    )
}
