//! The battlefield drawn for the pages, through the board toolkit (`engine::board`): the
//! scenario's hexes with their terrain (2.3), every counter on the map by side and type with
//! its MP (3.3), column formation (7.5), fired-on (11.2) and acted (6.1.4) state, leaders and
//! VP units (their hexes ringed), and the last player turn: each unit's move (or advance) as a
//! path hex by hex, each retreat (8.4) as a dotted path, and each attack as a fire line (the
//! state's `trails` and `attacks`). Nothing in For Honor and Glory is hidden, so every viewer
//! is shown the same board.

use crate::engine::board::{
    At, Board, Cell, Ground, Highlight, Piece, Pointed, Shape, State as Mark,
};

use super::battle::Went;
use super::hex::Hex;
use super::movement::kind_and_name;
use super::terrain::Terrain;
use super::turn::{fired_on_as_met, spent_as_met};
use super::units::{Kind, Side};
use super::State;
use crate::engine::words::capitalised;

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
        // The turn as the side to act meets it: a new turn's units are fresh (6.1.4, 11.2).
        let (spent, fired_on) = (spent_as_met(b, u), fired_on_as_met(b, u));
        let mut states = Vec::new();
        if u.column {
            states.push(Mark::Column);
        }
        if fired_on {
            states.push(Mark::FiredOn);
        }
        if spent {
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
            (fired_on, "fired on this turn"),
            (spent && u.acted, "has acted"),
            (spent && u.moved, "has moved"),
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
    // The last player turn: a unit and a leader that went together draw one path.
    let mut ways: Vec<(Went, &[Hex], Vec<String>)> = Vec::new();
    for t in &b.trails {
        let who = format!(
            "{} {}",
            b.units[t.unit].side.name(),
            kind_and_name(b, t.unit)
        );
        match ways
            .iter_mut()
            .find(|(went, hexes, _)| *went == t.went && *hexes == t.hexes.as_slice())
        {
            Some((_, _, names)) => names.push(who),
            None => ways.push((t.went, &t.hexes, vec![who])),
        }
    }
    let (mut moves, mut retreats) = (0, 0);
    for (went, hexes, names) in &ways {
        let cells = hexes.iter().map(|&h| at(h)).collect();
        let path = hexes
            .iter()
            .map(Hex::to_string)
            .collect::<Vec<_>>()
            .join("-");
        let names = names.join(" and ");
        highlights.push(match went {
            Went::Moved => {
                moves += 1;
                Highlight::Path {
                    cells,
                    title: format!("last turn: {names} moved {path}"),
                }
            }
            Went::Retreated => {
                retreats += 1;
                Highlight::Retreat {
                    cells,
                    title: format!("last turn: {names} retreated {path}"),
                }
            }
        });
    }
    for &(from, to) in &b.attacks {
        highlights.push(Highlight::Fire {
            from: at(from),
            to: at(to),
            title: format!("last turn: the attack from {from} on {to}"),
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
        "number = MP; bar = column; yellow corner = fired on; faded = has acted this turn; \
         ring = VP hex; beside a unit, a small disc is a leader and a small diamond a VP \
         marker. Lines: the last player turn's moves (arrow where the unit stopped), retreats \
         and attacks"
            .to_owned(),
    ));
    let mut notes = vec![match &state.finished {
        Some(result) => format!(
            "{}. The game is over, in turn {} of {}: {}",
            b.scen().title,
            b.turn,
            b.turns,
            result.summary
        ),
        None => format!(
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
        ),
    }];
    if moves + retreats + b.attacks.len() > 0 {
        let count =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        notes.push(format!(
            "The last player turn, drawn: {}, {}, {}.",
            count(moves, "move", "moves"),
            count(retreats, "retreat", "retreats"),
            count(b.attacks.len(), "attack", "attacks")
        ));
    }
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
        hexsides: Vec::new(),
        legend,
        notes,
    }
}

/// Orders by pointing (docs/web.md): every legal unit action of `side` on the board `b` as the
/// battle stands for its turn — the unit's piece, the hex the action ends in or aims at (a
/// unit's own hex for rally, column and line), and the action in the order language. A move
/// goes to every hex the unit may reach this turn (7.1), by the shortest path the rules accept
/// (`reach`): a click on a hex two or three away writes the whole path.
pub fn pointing(b: &super::battle::Battle, side: Side) -> Vec<Pointed> {
    use super::order::Action;
    let map = b.map();
    let mut actions = super::bot::legal_actions(b, side, true);
    let longer = reach(b, side, &actions);
    actions.extend(longer);
    actions
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
                path: None,
            })
        })
        .collect()
}

/// 7.1 The moves of more than one hex: for each unit of `side` that may act, every path of
/// adjacent hexes within its allowance (7.1, 7.5; at most 3 hexes, so at most 150 paths a
/// unit), tried shortest first as the rules try a move (terrain that stops it, hex limits in
/// every hex entered, 2.3, 6.2.7, 7.2), and the first the rules accept to each hex that no
/// one-hex move in `first` reaches. A path may pass a hex it may not end in (a leader past
/// another's hex, 4.3, 7.2.1). The leader's extra hex is written (`+leader`). In a turn handed
/// back with AP left (6.2.8), only the moves those AP pay for.
fn reach(
    b: &super::battle::Battle,
    side: Side,
    first: &[super::order::Action],
) -> Vec<super::order::Action> {
    use super::order::{Action, Path};
    use std::collections::VecDeque;
    let map = b.map();
    let mut out = Vec::new();
    for (u, unit) in b.units.iter().enumerate() {
        if unit.side != side || !unit.on_map() || unit.acted || unit.moved || unit.kind == Kind::Vp
        {
            continue;
        }
        let r = super::bot::unit_ref(b, u);
        let most = super::movement::allowance(unit.kind, unit.column);
        // The hexes already reached: the unit's own, and its legal one-hex moves.
        let mut reached: Vec<Hex> = vec![unit.hex];
        for a in first {
            if let Action::Move {
                unit: m,
                path,
                leader: false,
            } = a
            {
                if *m == r && path.len() == 1 {
                    reached.push(path[0]);
                }
            }
        }
        let mut queue: VecDeque<Path> = map
            .neighbours(unit.hex)
            .map(|h| smallvec::smallvec![h])
            .collect();
        while let Some(path) = queue.pop_front() {
            if path.len() >= most {
                continue;
            }
            let last = *path.last().expect("a path has a hex");
            for n in map.neighbours(last) {
                if n == unit.hex || path.contains(&n) {
                    continue;
                }
                let mut longer = path.clone();
                longer.push(n);
                if !reached.contains(&n) {
                    let a = Action::Move {
                        unit: r,
                        path: longer.clone(),
                        leader: false,
                    };
                    let legal = super::turn::check(map, b, side, &a)
                        .is_ok_and(|(_, cost)| !b.held || cost <= b.ap);
                    if legal {
                        reached.push(n);
                        out.push(a);
                    }
                }
                queue.push_back(longer);
            }
        }
    }
    out
}
