//! The campaign map drawn for the pages, through the board toolkit's point-to-point layout
//! (`engine::board`, `Grid::Points`): every LP where the scenario's map data puts it
//! (`data/danube.txt`, `at` lines, reconstructed), fortresses as bastions, the lines of
//! communication by kind (I: ordinary, brown, blue; 2.j: a blown bridge crossed out; 2.i: the
//! off-map exits), every CU in play with its SP (II.1.A), lone SP (II.1.B), and markers for
//! supply (2.k), trench points (2.h) and siege points (2.l). Fortresses under siege and the
//! battle waiting for its dice are ringed.
//!
//! Hidden information: the board is the public board. It names no card at all — no hand, plan,
//! deck order, NPC hand or battle hand, not even the viewer's own (the seat page lists those
//! beside the board, from `view`) — so every viewer is shown the same drawing.

use crate::engine::board::{
    At, Board, Cell, Grid, Ground, Highlight, Link, LinkKind, Piece, Shape,
};

use super::data::{ClKind, Side};
use super::state::{Phase, State};
use crate::engine::words::capitalised;

/// A side's colour on the board: the French blue, the Austrians red.
fn side(s: Side) -> usize {
    match s {
        Side::French => 0,
        Side::Austrian => 1,
    }
}

/// A character's counter label: the first three letters of his name (Nap, Dav, Cha …).
pub fn counter_label(character: &str) -> String {
    capitalised(&character.chars().take(3).collect::<String>())
}

/// The `data-piece` of a character's CU.
pub fn cu_piece(character: &str) -> String {
    format!("cu-{character}")
}

fn at(state: &State, id: &str) -> At {
    let (x, y) = state
        .map()
        .at
        .get(id)
        .copied()
        .expect("every LP and exit has its place (checked when the map is read)");
    At::new(x, y)
}

fn lp_name(state: &State, id: &str) -> String {
    state
        .map()
        .lp(id)
        .map_or_else(|| capitalised(id), |l| l.name.clone())
}

/// The board (the same for every viewer: it shows only what is public).
pub fn board(state: &State) -> Board {
    let map = state.map();
    let mut cells = Vec::new();
    for lp in &map.lps {
        let mut title = lp.name.clone();
        if lp.fortress {
            title.push_str(", fortress");
        }
        if lp.glory != 0 {
            title.push_str(&format!(", first-entry glory {}", lp.glory));
            if state.entered.contains(&lp.id) {
                title.push_str(" (had)");
            }
        }
        if let Some(s) = super::sieges::at(state, &lp.id) {
            title.push_str(&format!(
                ", under siege: the {} inside{}",
                s.besieged.name(),
                if s.rolled { ", shut in" } else { "" }
            ));
        }
        cells.push(Cell {
            at: at(state, &lp.id),
            label: lp.id.clone(),
            ground: if lp.fortress {
                Ground::Fortress
            } else {
                Ground::Location
            },
            mark: Some(lp.name.clone()),
            title,
        });
    }
    let mut links = Vec::new();
    for cl in &map.cls {
        let blown = cl.kind == ClKind::Blue && state.is_blown(&cl.a, &cl.b);
        let (kind, what) = match cl.kind {
            ClKind::Ordinary => (LinkKind::Road, "road"),
            ClKind::Brown => (
                LinkKind::Mountain,
                "brown CL (mountain): +1 fatigue, −3 to attack along it",
            ),
            ClKind::Blue if blown => (
                LinkKind::BlownBridge,
                "blue CL, bridge blown (2.j): no march, no attack",
            ),
            ClKind::Blue => (
                LinkKind::Bridge,
                "blue CL (bridge): −3 to attack along it, may be blown",
            ),
        };
        links.push(Link {
            from: at(state, &cl.a),
            to: at(state, &cl.b),
            kind,
            label: format!("{}-{}", cl.a, cl.b),
            title: format!(
                "{} – {}: {what}",
                lp_name(state, &cl.a),
                lp_name(state, &cl.b)
            ),
        });
    }
    for exit in &map.exits {
        let glory: Vec<String> = exit
            .glory
            .iter()
            .map(|(s, g)| format!("{} {g:+}", capitalised(s.name())))
            .collect();
        let title = format!(
            "off-map exit from {} (2.i): a CU that takes it leaves play; glory {}",
            lp_name(state, &exit.from),
            glory.join(", ")
        );
        cells.push(Cell {
            at: at(state, &exit.id),
            label: exit.id.clone(),
            ground: Ground::OffMap,
            mark: Some(capitalised(&exit.id)),
            title: title.clone(),
        });
        links.push(Link {
            from: at(state, &exit.from),
            to: at(state, &exit.id),
            kind: LinkKind::Exit,
            label: format!("{}-{}", exit.from, exit.id),
            title,
        });
    }

    let mut pieces = Vec::new();
    let mut out_of_play = Vec::new();
    for cu in &state.cus {
        let Some(lp) = &cu.lp else {
            out_of_play.push(format!(
                "{}{}",
                capitalised(&cu.character),
                if cu.captured { " (captured)" } else { "" }
            ));
            continue;
        };
        let here = at(state, lp);
        let who = match &cu.seat {
            Some(seat) => format!("played by {seat}"),
            None => "NPC".to_owned(),
        };
        let mut title = format!(
            "{} ({}, {who}): {} SP, fatigue {}",
            capitalised(&cu.character),
            capitalised(cu.side.name()),
            cu.sp,
            cu.fatigue
        );
        if cu.trench > 0 {
            title.push_str(&format!(", {} trench point(s)", cu.trench));
        }
        if cu.siege_points > 0 {
            title.push_str(&format!(", {} siege point(s)", cu.siege_points));
        }
        if cu.supply {
            title.push_str(", with the supply marker");
        }
        title.push_str(&format!(", glory {}, at {}", cu.glory, lp_name(state, lp)));
        pieces.push(Piece {
            at: here,
            id: cu_piece(&cu.character),
            side: Some(side(cu.side)),
            shape: Shape::Counter,
            label: counter_label(&cu.character),
            value: Some(cu.sp.to_string()),
            facing: None,
            states: Vec::new(),
            title,
        });
        let mut marker = |id: String, label: String, title: String| {
            pieces.push(Piece {
                at: here,
                id,
                side: Some(side(cu.side)),
                shape: Shape::Marker,
                label,
                value: None,
                facing: None,
                states: Vec::new(),
                title,
            });
        };
        if cu.supply {
            marker(
                format!("supply-{}", cu.character),
                "S".into(),
                format!(
                    "{}'s supply marker (2.k): +1 in battle",
                    capitalised(&cu.character)
                ),
            );
        }
        if cu.trench > 0 {
            marker(
                format!("trench-{}", cu.character),
                format!("T{}", cu.trench),
                format!(
                    "{}'s trench points (2.h): {}, kept while he stays",
                    capitalised(&cu.character),
                    cu.trench
                ),
            );
        }
        if cu.siege_points > 0 {
            marker(
                format!("siege-{}", cu.character),
                format!("P{}", cu.siege_points),
                format!(
                    "{}'s siege points (2.l): {}",
                    capitalised(&cu.character),
                    cu.siege_points
                ),
            );
        }
    }
    for l in &state.lone {
        pieces.push(Piece {
            at: at(state, &l.lp),
            id: format!("lone-{}-{}", l.lp, l.side.name()),
            side: Some(side(l.side)),
            shape: Shape::Counter,
            label: "SP".into(),
            value: Some(l.sp.to_string()),
            facing: None,
            states: Vec::new(),
            title: format!(
                "{} lone SP (II.1.B): {} at {}",
                capitalised(l.side.name()),
                l.sp,
                lp_name(state, &l.lp)
            ),
        });
    }

    let mut highlights = Vec::new();
    if !state.sieges.is_empty() {
        highlights.push(Highlight::Cells {
            cells: state.sieges.iter().map(|s| at(state, &s.lp)).collect(),
            title: "a fortress under siege (2.l)".into(),
        });
    }
    if let Some(b) = state.pending.as_ref().and_then(|p| p.battle.as_ref()) {
        highlights.push(Highlight::Cells {
            cells: vec![at(state, &b.lp)],
            title: format!("the battle at {}, before its dice", lp_name(state, &b.lp)),
        });
    }

    let legend = vec![
        (
            "Counters:".to_owned(),
            "a character's CU by the first letters of his name, his SP under it; SP = lone SP"
                .to_owned(),
        ),
        (
            "Markers:".to_owned(),
            "S supply; T n trench points; P n siege points; ringed = under siege or a battle"
                .to_owned(),
        ),
    ];
    let phase = match &state.phase {
        Phase::Plan => "planning".to_owned(),
        Phase::Initiative => "the initiative".to_owned(),
        Phase::Operations { order, next } => match order.get(*next) {
            Some(&i) => format!("operations, {} to act", state.players[i].character),
            None => "operations".to_owned(),
        },
        Phase::Npcs { .. } => match &state.npc {
            Some(n) => format!("the NPCs' operations, {}", n.character),
            None => "the NPCs' operations".to_owned(),
        },
        Phase::Ended => "the campaign is over".to_owned(),
    };
    let title = super::data::scenario(&state.scenario)
        .map_or_else(|| state.scenario.clone(), |s| s.title.clone());
    let mut notes = vec![format!(
        "{title}. Round {} of {}: {phase}.",
        state.round, state.rounds
    )];
    if state.window.is_some() {
        notes.push("A reactive window is open (1.e).".to_owned());
    }
    let glory: Vec<String> = state
        .cus
        .iter()
        .map(|c| format!("{} {}", capitalised(&c.character), c.glory))
        .collect();
    notes.push(format!("Glory: {}.", glory.join(", ")));
    if !out_of_play.is_empty() {
        notes.push(format!("Out of play: {}.", out_of_play.join(", ")));
    }
    let (cols, rows) = map.extent;
    Board {
        title,
        description: format!(
            "The campaign map: {} location points joined by {} lines of communication, with {} counters and markers.",
            map.lps.len(),
            map.cls.len(),
            pieces.len()
        ),
        grid: Grid::Points { cols, rows, links },
        cells,
        sides: vec!["French".to_owned(), "Austrian".to_owned()],
        pieces,
        highlights,
        hexsides: Vec::new(),
        legend,
        notes,
    }
}
