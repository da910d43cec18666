//! The stronghold in characters, for turn emails and pages: the map of `data/stronghold.txt`
//! with the doors as they stand and every figure and marker on it, then a key. It shows what
//! [`super::view::view`] shows to the same viewer and nothing more: the intelligence cards of
//! unexplored rooms stay face down, except to a holder of the Stronghold Map, who is shown them
//! as the view shows them (summary, "Intelligence cards").

use std::fmt::Write;

use super::agents::{Agent, DefKind, Mode};
use super::board::{board, Cell, Sq};
use super::state::{MarkerKind, State, Status, Turn};
use super::view::map_holders;
use crate::engine::ruleset::Viewer;

/// The letter a figure stands as on the map: upper case standing, lower case unconscious.
fn figure(letter: char, status: Status) -> char {
    if status == Status::Unconscious {
        letter.to_ascii_lowercase()
    } else {
        letter
    }
}

fn intruder_letter(agent: Agent) -> char {
    match agent {
        Agent::Harris => 'H',
        Agent::Link => 'L',
        Agent::Volkov => 'V',
    }
}

fn defender_letter(kind: DefKind) -> char {
    match kind {
        DefKind::Commander => 'C',
        DefKind::Sentry => 'S',
        DefKind::Guard => 'G',
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

/// The map's characters, with the doors as they stand and nothing on it yet.
fn ground(s: &State) -> Vec<Vec<char>> {
    let b = board();
    b.picture
        .lines()
        .enumerate()
        .map(|(y, row)| {
            let mut row: Vec<char> = row.chars().collect();
            row.resize(usize::from(b.width), ' ');
            for (x, ch) in row.iter_mut().enumerate() {
                if let Cell::Door(id) = b.cell_at(x as i32, y as i32) {
                    if s.door_open(id) {
                        *ch = '/';
                    }
                }
            }
            row
        })
        .collect()
}

/// The board as `viewer` sees it.
pub fn text_board(s: &State, viewer: &Viewer) -> String {
    let mut grid = ground(s);
    let mut put = |sq: Sq, ch: char| {
        if let Some(cell) = grid
            .get_mut(usize::from(sq.1))
            .and_then(|row| row.get_mut(usize::from(sq.0)))
        {
            *cell = ch;
        }
    };
    // Markers first, so that a figure standing on one hides it; the key lists both.
    for m in &s.markers {
        put(
            m.sq,
            match m.kind {
                MarkerKind::Alert => '!',
                MarkerKind::Corpse { .. } => 'x',
            },
        );
    }
    for d in &s.defenders {
        if let (Some(sq), Status::Standing | Status::Unconscious) = (d.sq, d.status) {
            put(sq, figure(defender_letter(d.kind), d.status));
        }
    }
    for a in &s.intruders {
        if let (Some(sq), Status::Standing | Status::Unconscious) = (a.sq, a.status) {
            put(sq, figure(intruder_letter(a.agent), a.status));
        }
    }

    let mut out = String::new();
    let width = usize::from(board().width);
    let letters: String = (0..width).map(|x| (b'a' + x as u8) as char).collect();
    let _ = writeln!(out, "    {letters}");
    for (y, row) in grid.iter().enumerate() {
        let line: String = row.iter().collect();
        let _ = writeln!(out, "{:>3} {}", y + 1, line.trim_end());
    }
    out.push_str(
        "\n# wall  . corridor  0-9 room (0 = room 10)  e entry zone  E entrance\n\
         + closed door  / open door  % the door between rooms 8 and 9\n\
         ! alert marker  x corpse marker\n\
         H L V Intruders  C Commander  S Sentry  G Guard (lower case: unconscious)\n",
    );

    let turn = match s.turn {
        Turn::Intruder(i) => s.intruders[i].agent.title().to_owned(),
        Turn::Defender => "the Defender".to_owned(),
    };
    let _ = writeln!(
        out,
        "\nRound {}, {} minutes left, {}'s turn.\n\
         Alert state: {}, {} marker(s) on the ASI, {} Guard(s) in the box.",
        s.round,
        s.minutes,
        turn,
        if s.alarm { "ALARM" } else { "standby" },
        s.asi_markers,
        s.guards_in_box
    );

    out.push_str("\nIntruders:\n");
    for a in &s.intruders {
        let place =
            a.sq.map_or_else(|| "off the map".to_owned(), |q| q.to_string());
        let mode = if a.mode == Mode::Raiding {
            "raiding"
        } else {
            "assaulting"
        };
        let _ = writeln!(
            out,
            "  {} {} ({}): {place}, {}, {mode}; weapon in hand {}",
            intruder_letter(a.agent),
            a.agent.title(),
            a.seat,
            status_word(a.status),
            a.selected,
        );
    }
    out.push_str("Defenders:\n");
    for d in s.defenders.iter().filter(|d| d.sq.is_some()) {
        let mut line = format!(
            "  {} {}: {}, {}",
            defender_letter(d.kind),
            d.label,
            d.sq.map(|q| q.to_string()).unwrap_or_default(),
            status_word(d.status)
        );
        if d.kind == DefKind::Sentry && d.status != Status::Dead {
            let _ = write!(line, ", facing {}", d.facing.name());
            if let Some(alert) = d.alert {
                let _ = write!(line, ", alerted (marker at {alert})");
            }
        }
        let _ = writeln!(out, "{line}");
    }
    let corpses: Vec<String> = s
        .markers
        .iter()
        .filter_map(|m| match &m.kind {
            MarkerKind::Corpse { of } => Some(format!("{of} at {}", m.sq)),
            MarkerKind::Alert => None,
        })
        .collect();
    if !corpses.is_empty() {
        let _ = writeln!(out, "Corpse markers: {}", corpses.join(", "));
    }

    let everything = matches!(viewer, Viewer::Everyone);
    let peeker = matches!(viewer, Viewer::Seat(seat) if map_holders(s).contains(&seat));
    let mut explored = Vec::new();
    let mut face_down = Vec::new();
    for r in &s.rooms {
        match r.card {
            Some(card) if r.explored || everything => {
                explored.push(format!("room {}: {card}", r.room))
            }
            Some(card) if peeker => face_down.push(format!(
                "room {} (only you see this, with the Stronghold Map): {card}",
                r.room
            )),
            Some(_) => face_down.push(format!("room {}", r.room)),
            None => {}
        }
    }
    if !explored.is_empty() {
        let _ = writeln!(out, "Intelligence cards in view: {}", explored.join("; "));
    }
    if !face_down.is_empty() {
        let _ = writeln!(out, "Face down: {}", face_down.join("; "));
    }
    out
}
