//! The battlefield drawn for the pages, through the board toolkit (`engine::board`): the
//! scenario's hexes with their terrain (2.3), every counter on the map by side and type with
//! its MP (3.3), column formation (7.5), fired-on (11.2) and acted (6.1.4) state, leaders and
//! VP units (their hexes ringed), and the attacks of the player turn as fire lines (11.9).
//! Nothing in For Honor and Glory is hidden, so every viewer is shown the same board. The
//! state does not keep the paths units moved, so moves show as the units' "acted" state only.

use crate::engine::board::{
    At, Board, Cell, Ground, Highlight, Piece, Pointed, Shape, State as Mark,
};

use super::hex::Hex;
use super::terrain::Terrain;
use super::units::{Kind, Side};
use super::State;

fn ground(t: Terrain) -> Ground {
    match t {
        Terrain::Clear => Ground::Clear,
        Terrain::Swamp => Ground::Swamp,
        Terrain::Waterway => Ground::Waterway,
        Terrain::WaterCrossing => Ground::Crossing,
        Terrain::Forest => Ground::Forest,
        Terrain::Hill => Ground::Hill,
        Terrain::Town => Ground::Town,
        Terrain::Fence => Ground::Fence,
        Terrain::Entrenchment => Ground::Entrenchment,
        Terrain::Fort => Ground::Fort,
    }
}

/// The two letters on a counter, and the legend that explains them.
pub const KIND_LETTERS: [(Kind, &str); 11] = [
    (Kind::Elite, "El"),
    (Kind::Marine, "Ma"),
    (Kind::Regular, "Re"),
    (Kind::Light, "Li"),
    (Kind::Militia, "Mi"),
    (Kind::Indian, "In"),
    (Kind::Dragoon, "Dr"),
    (Kind::Artillery, "Ar"),
    (Kind::Rocket, "Ro"),
    (Kind::Leader, "L"),
    (Kind::Vp, "VP"),
];

fn letters(kind: Kind) -> &'static str {
    KIND_LETTERS
        .iter()
        .find(|(k, _)| *k == kind)
        .map_or("?", |(_, l)| l)
}

fn at(hex: Hex) -> At {
    At::new(u16::from(hex.col), u16::from(hex.row))
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// The board (the same for every viewer: nothing is hidden).
pub fn board(state: &State) -> Board {
    let b = &state.battle;
    let map = b.map();
    let mut cells = Vec::new();
    for col in 0..map.cols {
        for row in 0..map.rows {
            let hex = Hex::new(col, row);
            let t = map.terrain(hex);
            cells.push(Cell {
                at: at(hex),
                label: hex.to_string(),
                ground: ground(t),
                mark: None,
                title: t.name().to_owned(),
            });
        }
    }
    let mut pieces = Vec::new();
    let mut vp_hexes = Vec::new();
    for (i, u) in b.units.iter().enumerate() {
        if !u.on_map() {
            continue;
        }
        let mut states = Vec::new();
        if u.column {
            states.push(Mark::Column);
        }
        if u.fired_on {
            states.push(Mark::FiredOn);
        }
        if u.acted || u.moved {
            states.push(Mark::Spent);
        }
        let combat = !matches!(u.kind, Kind::Leader | Kind::Vp);
        let mut title = format!(
            "{}: {} {}",
            b.name(i),
            capitalised(u.side.name()),
            u.kind.name()
        );
        if combat {
            title.push_str(&format!(", {}/{} MP", u.mp, u.start_mp));
        }
        for (flag, word) in [
            (u.column, "in column"),
            (u.fired_on, "fired on this turn"),
            (u.acted, "has acted"),
            (u.moved, "has moved"),
        ] {
            if flag {
                title.push_str(", ");
                title.push_str(word);
            }
        }
        title.push_str(&format!(", {}", u.hex));
        if u.kind == Kind::Vp {
            vp_hexes.push(at(u.hex));
        }
        pieces.push(Piece {
            at: at(u.hex),
            id: format!("unit-{i}"),
            side: Some(usize::from(u.side.0)),
            shape: match u.kind {
                Kind::Leader => Shape::Figure,
                Kind::Vp => Shape::Marker,
                _ => Shape::Counter,
            },
            label: letters(u.kind).to_owned(),
            value: combat.then(|| u.mp.to_string()),
            facing: None,
            states,
            title,
        });
    }
    let mut highlights = Vec::new();
    if !vp_hexes.is_empty() {
        highlights.push(Highlight::Cells {
            cells: vp_hexes,
            title: "a VP hex".to_owned(),
        });
    }
    for &(from, to) in &b.attacks {
        highlights.push(Highlight::Fire {
            from: at(from),
            to: at(to),
            title: format!("attack this turn: {from} on {to}"),
        });
    }
    let mut legend: Vec<(String, String)> = vec![(
        "Counters:".to_owned(),
        KIND_LETTERS
            .iter()
            .map(|(k, l)| format!("{l} {}", k.name()))
            .collect::<Vec<_>>()
            .join(", "),
    )];
    legend.push((
        "Marks:".to_owned(),
        "number = MP; bar = column; yellow corner = fired on; red line = attack this turn"
            .to_owned(),
    ));
    let mut notes = vec![format!(
        "{}. Turn {} of {}, the {} player to act{}.",
        b.scen().title,
        b.turn,
        b.turns,
        b.active.name(),
        if b.held {
            format!(" ({} AP left)", b.ap)
        } else {
            String::new()
        }
    )];
    for side in [Side::AMERICAN, Side::BRITISH] {
        let s = &b.sides[usize::from(side.0)];
        notes.push(format!(
            "{}: {} VP of {}, command AP {}, leaders lost {}",
            capitalised(side.name()),
            s.vp,
            s.target,
            s.command,
            s.leaders_lost
        ));
    }
    Board {
        title: b.scen().title.to_owned(),
        description: format!(
            "The hex map of {}, {} columns by {} rows, with {} counters.",
            b.scen().title,
            map.cols,
            map.rows,
            pieces.len()
        ),
        grid: crate::engine::board::Grid::Hex {
            cols: u16::from(map.cols),
            rows: u16::from(map.rows),
        },
        cells,
        sides: vec!["American".to_owned(), "British".to_owned()],
        pieces,
        highlights,
        legend,
        notes,
    }
}

/// Orders by pointing (docs/web.md): every legal unit action of `side` on the board `b` as the
/// battle stands for its turn — the unit's piece, the hex the action ends in or aims at (a
/// unit's own hex for rally, column and line), and the action in the order language. Moves are
/// one hex a click; a longer path is written out, or pointed at hex by hex in several actions.
pub fn pointing(b: &super::battle::Battle, side: Side) -> Vec<Pointed> {
    use super::order::Action;
    let map = b.map();
    super::bot::legal_actions(b, side, true)
        .iter()
        .filter_map(|a| {
            let (unit, cell) = match a {
                Action::Move { unit, path, .. } => (unit, *path.last()?),
                Action::MoveFire { unit, target, .. }
                | Action::FireMove { unit, target, .. }
                | Action::Fire { unit, target, .. }
                | Action::CloseCombat { unit, target, .. } => (unit, *target),
                Action::Rally { unit } | Action::Column { unit } | Action::Line { unit } => {
                    (unit, unit.hex)
                }
                _ => return None,
            };
            let u = super::turn::resolve(map, b, side, *unit).ok()?;
            Some(Pointed {
                piece: format!("unit-{u}"),
                cell: cell.to_string(),
                order: super::order::describe_action(a),
            })
        })
        .collect()
}
