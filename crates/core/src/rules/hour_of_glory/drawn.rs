//! The stronghold drawn for the pages, through the board toolkit (`engine::board`): the plan
//! of `data/stronghold.txt` square by square — walls, corridors, rooms with their numbers, every
//! door with its number and whether it stands open, the entry zone — then the Intruders, the
//! Defenders (Sentries with their facing), the alert and corpse markers, and one card per room
//! that still holds an intelligence card. It draws what [`super::view::view`] shows the same
//! viewer and nothing more: a card of an unexplored room lies face down with no name on it;
//! only a holder of the Stronghold Map reads it in the card's title (summary, "Intelligence
//! cards"), and everyone once the game is over. The Commander's and each Sentry's watch zone
//! (summary, "Watch zones") is tinted: it follows from what every view shows — the
//! Defender's square, status and facing, the open doors and the figures standing in the way
//! (`senses::watch_zone`) — so every viewer is shown the same zones.

use crate::engine::board::{
    At, Board, Cell as Square, Facing, Grid, Ground, Highlight, Piece, Shape, State as Mark,
};
use crate::engine::ruleset::Viewer;

use super::agents::{Agent, DefKind, Mode};
use super::board::{board as plan, Cell, Dir, Sq};
use super::senses::watch_zone;
use super::state::{MarkerKind, State, Status, Turn};
use super::view::map_holders;

fn at(sq: Sq) -> At {
    At::new(u16::from(sq.0), u16::from(sq.1))
}

fn facing(dir: Dir) -> Facing {
    match dir {
        Dir::North => Facing::North,
        Dir::East => Facing::East,
        Dir::South => Facing::South,
        Dir::West => Facing::West,
    }
}

fn agent_letter(agent: Agent) -> &'static str {
    match agent {
        Agent::Harris => "H",
        Agent::Link => "L",
        Agent::Volkov => "V",
    }
}

fn status_word(status: Status) -> &'static str {
    match status {
        Status::Standing => "standing",
        Status::Unconscious => "unconscious",
        Status::Dead => "dead",
        Status::Escaped => "escaped",
    }
}

/// Whether a figure stands on the map: standing or unconscious (the dead leave a corpse
/// marker, the escaped are gone).
pub fn on_map(sq: Option<Sq>, status: Status) -> Option<Sq> {
    match (sq, status) {
        (Some(sq), Status::Standing | Status::Unconscious) => Some(sq),
        _ => None,
    }
}

/// The square of a room where its number and its card are drawn: the middle one.
fn room_middle(room: u8) -> Option<Sq> {
    let squares = plan().room_squares(room);
    squares.get(squares.len() / 2).copied()
}

/// Where a room's intelligence card lies: the square after the middle one, so that the card
/// does not cover the room's number (a one-square room has them together).
fn card_square(room: u8) -> Option<Sq> {
    let squares = plan().room_squares(room);
    squares
        .get(squares.len() / 2 + 1)
        .or_else(|| squares.get(squares.len() / 2))
        .copied()
}

/// The stronghold as `viewer` sees it.
pub fn board(s: &State, viewer: &Viewer) -> Board {
    let p = plan();
    let mut cells = Vec::new();
    let mut numbered = Vec::new();
    for y in 0..p.height {
        for x in 0..p.width {
            let sq = Sq(x, y);
            let (ground, label, mark, title) = match p.cell_at(i32::from(x), i32::from(y)) {
                Cell::Wall => (Ground::Wall, sq.to_string(), None, "wall".to_owned()),
                Cell::Corridor => (Ground::Corridor, sq.to_string(), None, "corridor".into()),
                Cell::Entry => (Ground::Entry, sq.to_string(), None, "entry zone".into()),
                Cell::Room(room) => {
                    let first = !numbered.contains(&room) && room_middle(room) == Some(sq);
                    if first {
                        numbered.push(room);
                    }
                    (
                        Ground::Room,
                        sq.to_string(),
                        first.then(|| room.to_string()),
                        format!("room {room}"),
                    )
                }
                Cell::Door(id) => {
                    let door = p.door(id);
                    let open = s.door_open(id);
                    let mut title = format!(
                        "{}, {}{}",
                        if door.entrance {
                            "the entrance"
                        } else {
                            "a door"
                        },
                        if open { "open" } else { "closed" },
                        if door.unlocked || open {
                            ""
                        } else {
                            " and locked"
                        }
                    );
                    if !door.rooms.is_empty() {
                        let rooms: Vec<String> = door.rooms.iter().map(u8::to_string).collect();
                        title.push_str(&format!(", room {}", rooms.join(" and ")));
                    }
                    (
                        if open {
                            Ground::DoorOpen
                        } else {
                            Ground::DoorClosed
                        },
                        id.to_string(),
                        Some(id.0.to_string()),
                        title,
                    )
                }
            };
            cells.push(Square {
                at: at(sq),
                label,
                ground,
                mark,
                title,
            });
        }
    }

    let mut pieces = Vec::new();
    for m in &s.markers {
        let (label, title, id) = match &m.kind {
            MarkerKind::Alert => ("!", format!("an alert marker at {}", m.sq), "alert"),
            MarkerKind::Corpse { of } => ("x", format!("the corpse of {of} at {}", m.sq), "corpse"),
        };
        pieces.push(Piece {
            at: at(m.sq),
            id: format!("{id}-{}-{}", m.sq, pieces.len()),
            side: None,
            shape: Shape::Marker,
            label: label.to_owned(),
            value: None,
            facing: None,
            states: Vec::new(),
            title,
        });
    }
    for d in &s.defenders {
        let Some(sq) = on_map(d.sq, d.status) else {
            continue;
        };
        let (letter, kind) = match d.kind {
            DefKind::Commander => ("C", "the Commander"),
            DefKind::Sentry => ("S", "Sentry"),
            DefKind::Guard => ("G", "Guard"),
        };
        let mut title = if d.kind == DefKind::Commander {
            format!("{kind} at {sq}, {}", status_word(d.status))
        } else {
            format!("{kind} {} at {sq}, {}", d.label, status_word(d.status))
        };
        let sentry = d.kind == DefKind::Sentry;
        if sentry {
            title.push_str(&format!(", facing {}", d.facing.name()));
            if let Some(alert) = d.alert {
                title.push_str(&format!(", alerted (marker at {alert})"));
            }
        }
        pieces.push(Piece {
            at: at(sq),
            id: d.label.clone(),
            side: Some(1),
            shape: Shape::Figure,
            label: letter.to_owned(),
            value: None,
            facing: sentry.then(|| facing(d.facing)),
            states: if d.status == Status::Unconscious {
                vec![Mark::Down]
            } else {
                Vec::new()
            },
            title,
        });
    }
    for a in &s.intruders {
        let Some(sq) = on_map(a.sq, a.status) else {
            continue;
        };
        pieces.push(Piece {
            at: at(sq),
            id: a.agent.title().to_lowercase(),
            side: Some(0),
            shape: Shape::Figure,
            label: agent_letter(a.agent).to_owned(),
            value: None,
            facing: None,
            states: if a.status == Status::Unconscious {
                vec![Mark::Down]
            } else {
                Vec::new()
            },
            title: format!(
                "{} ({}) at {sq}, {}, {}",
                a.agent.title(),
                a.seat,
                status_word(a.status),
                if a.mode == Mode::Raiding {
                    "raiding"
                } else {
                    "assaulting"
                }
            ),
        });
    }

    // The intelligence cards still in their rooms.
    let everything = matches!(viewer, Viewer::Everyone);
    let peeker = matches!(viewer, Viewer::Seat(seat) if map_holders(s).contains(&seat));
    for r in &s.rooms {
        let (Some(card), Some(sq)) = (r.card, card_square(r.room)) else {
            continue;
        };
        let shown = r.explored || everything;
        let title = if shown {
            format!("room {}: {card}", r.room)
        } else if peeker {
            format!(
                "room {}: a card face down; only you see it, with the Stronghold Map: {card}",
                r.room
            )
        } else {
            format!("room {}: an intelligence card, face down", r.room)
        };
        pieces.push(Piece {
            at: at(sq),
            id: format!("card-room-{}", r.room),
            side: None,
            shape: Shape::Card,
            label: if shown { "I".to_owned() } else { String::new() },
            value: None,
            facing: None,
            states: if shown {
                Vec::new()
            } else {
                vec![Mark::FaceDown]
            },
            title,
        });
    }

    // Summary, "Watch zones": the line of squares in front of the standing Commander and
    // Sentries, as the rules read it when an Intruder moves (`senses::watch_zone`).
    let mut highlights = Vec::new();
    for (d, defender) in s.defenders.iter().enumerate() {
        if on_map(defender.sq, defender.status).is_none() {
            continue;
        }
        let zone = watch_zone(s, d);
        if zone.is_empty() {
            continue;
        }
        let who = if defender.kind == DefKind::Commander {
            "the Commander".to_owned()
        } else {
            format!("Sentry {}", defender.label)
        };
        let squares: Vec<String> = zone.iter().map(Sq::to_string).collect();
        highlights.push(Highlight::Zone {
            cells: zone.iter().map(|&q| at(q)).collect(),
            title: format!(
                "the watch zone of {who}, facing {}: {}",
                defender.facing.name(),
                squares.join(" ")
            ),
        });
    }

    let turn = match s.turn {
        Turn::Intruder(i) => s.intruders[i].agent.title().to_owned(),
        Turn::Defender => "the Defender".to_owned(),
    };
    Board {
        title: "The stronghold".to_owned(),
        description: format!(
            "The stronghold plan, {} by {} squares, with {} figures, markers and cards.",
            p.width,
            p.height,
            pieces.len()
        ),
        grid: Grid::Square {
            cols: u16::from(p.width),
            rows: u16::from(p.height),
        },
        cells,
        sides: vec!["Intruders".to_owned(), "Defenders".to_owned()],
        pieces,
        highlights,
        hexsides: Vec::new(),
        legend: vec![
            (
                "Figures:".to_owned(),
                "H Harris, L Link, V Volkov; C Commander, S Sentry (wedge: facing), G Guard; \
                 crossed: unconscious"
                    .to_owned(),
            ),
            (
                "Marks:".to_owned(),
                "! alert marker, x corpse, card in a room: intelligence (face down until \
                 explored); numbers on doors are door numbers; tinted squares: the watch zones \
                 of the Commander and the Sentries"
                    .to_owned(),
            ),
        ],
        notes: vec![format!(
            "Round {}, {} minutes left, {}'s turn. Alert state: {}, {} marker(s) on the ASI, \
             {} Guard(s) in the box.",
            s.round,
            s.minutes,
            turn,
            if s.alarm { "ALARM" } else { "standby" },
            s.asi_markers,
            s.guards_in_box
        )],
    }
}
