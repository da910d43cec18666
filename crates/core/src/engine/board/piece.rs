//! A piece on the board: its body by shape and side, the marks of its state, the wedge of its
//! facing, and its label and value.

use std::fmt::Write;

use super::layout::{Slot, Text};
use super::render::{esc, SIDES};
use super::{Board, Facing, Piece, Shape, State};

/// A piece's box: its centre, half its width and half its height.
type Frame = (f64, f64, f64, f64);

/// `p` drawn in `slot` of the cell centred on (`cx`, `cy`).
pub(super) fn draw_piece(
    svg: &mut String,
    board: &Board,
    p: &Piece,
    (cx, cy): (f64, f64),
    slot: Slot,
    font: f64,
) {
    let frame = (cx + slot.dx, cy + slot.dy, slot.hw, slot.hh);
    let states: Vec<&str> = p.states.iter().map(|s| s.word()).collect();
    let face_down = p.states.contains(&State::FaceDown);
    let side_class = p.side.map_or_else(
        || "side-none".to_owned(),
        |s| format!("side-{}", s % SIDES.len()),
    );
    let (fill, ink) = match p.side {
        Some(s) => {
            let (light, _, ink) = SIDES[s % SIDES.len()];
            (light, ink)
        }
        None if face_down => ("#7a6a55", "#ffffff"),
        None => ("#f2c14e", "#222222"),
    };
    let _ = write!(
        svg,
        r##"<g class="b-piece {side_class}{}" data-piece="{}" data-at="{}" data-shape="{}" data-state="{}"><title>{}</title>"##,
        states.iter().map(|s| format!(" s-{s}")).collect::<String>(),
        esc(&p.id),
        esc(&board
            .cells
            .iter()
            .find(|c| c.at == p.at)
            .map_or(String::new(), |c| c.label.clone())),
        match p.shape {
            Shape::Counter => "counter",
            Shape::Figure => "figure",
            Shape::Marker => "marker",
            Shape::Card => "card",
        },
        states.join(" "),
        esc(&p.title),
    );
    piece_body(svg, p, frame, fill, &side_class, face_down);
    state_marks(svg, p, frame);
    facing(svg, p, frame);
    if !face_down && slot.text != Text::Badge {
        texts(svg, p, frame, slot.text, ink, font);
    }
    svg.push_str("</g>");
}

/// The body in its side's colour (faded when spent), by shape; a face-down card its back.
fn piece_body(
    svg: &mut String,
    p: &Piece,
    (x, y, hw, hh): Frame,
    fill: &str,
    side_class: &str,
    face_down: bool,
) {
    // Round and diamond pieces and cards keep their proportions inside a wider box.
    let h = hw.min(hh);
    let size = h * 2.0;
    let body_class = format!("b-body {side_class}");
    // A spent piece (acted or moved) is drawn faded.
    let faded = if p.states.contains(&State::Spent) {
        r#"<g opacity="0.55">"#
    } else {
        "<g>"
    };
    svg.push_str(faded);
    match p.shape {
        Shape::Counter => {
            let _ = write!(
                svg,
                r##"<rect class="{body_class}" fill="{fill}" stroke="#1d1d1d" stroke-width="2" x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" rx="4"/>"##,
                x - hw,
                y - hh,
                hw * 2.0,
                hh * 2.0
            );
        }
        Shape::Figure => {
            let _ = write!(
                svg,
                r##"<circle class="{body_class}" fill="{fill}" stroke="#1d1d1d" stroke-width="2" cx="{x:.1}" cy="{y:.1}" r="{h:.1}"/>"##
            );
        }
        Shape::Marker => {
            let _ = write!(
                svg,
                r##"<polygon class="{body_class}" fill="{fill}" stroke="#1d1d1d" stroke-width="2" points="{x:.1},{:.1} {:.1},{y:.1} {x:.1},{:.1} {:.1},{y:.1}"/>"##,
                y - h,
                x + h,
                y + h,
                x - h
            );
        }
        Shape::Card => {
            let _ = write!(
                svg,
                r##"<rect class="{body_class}{}" fill="{fill}" stroke="#1d1d1d" stroke-width="2" x="{:.1}" y="{:.1}" width="{:.1}" height="{size:.1}" rx="3"/>"##,
                if face_down { " b-back" } else { "" },
                x - h * 0.7,
                y - h,
                size * 0.7
            );
        }
    }
    svg.push_str("</g>");
}

/// A bar for a column, a corner for fired on, a cross for down.
fn state_marks(svg: &mut String, p: &Piece, (x, y, hw, hh): Frame) {
    let h = hw.min(hh);
    if p.states.contains(&State::Column) {
        let _ = write!(
            svg,
            r##"<rect class="b-column" fill="#1d1d1d" x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}"/>"##,
            x - hw,
            y + hh - h * 0.45,
            hw * 2.0,
            h * 0.3
        );
    }
    if p.states.contains(&State::FiredOn) {
        let _ = write!(
            svg,
            r##"<polygon class="b-fired" fill="#ffd600" stroke="#1d1d1d" points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}"/>"##,
            x + hw,
            y - hh,
            x + hw - h * 0.6,
            y - hh,
            x + hw,
            y - hh + h * 0.6
        );
    }
    if p.states.contains(&State::Down) {
        let _ = write!(
            svg,
            r##"<path class="b-down" stroke="#1d1d1d" stroke-width="3" d="M{:.1},{:.1}L{:.1},{:.1}M{:.1},{:.1}L{:.1},{:.1}"/>"##,
            x - hw,
            y - hh,
            x + hw,
            y + hh,
            x + hw,
            y - hh,
            x - hw,
            y + hh
        );
    }
}

/// A wedge pointing out of the figure the way it faces.
fn facing(svg: &mut String, p: &Piece, (x, y, hw, hh): Frame) {
    let h = hw.min(hh);
    if let Some(f) = p.facing {
        let (dx, dy) = match f {
            Facing::North => (0.0, -1.0),
            Facing::East => (1.0, 0.0),
            Facing::South => (0.0, 1.0),
            Facing::West => (-1.0, 0.0),
        };
        // A wedge pointing out of the figure the way it faces.
        let (tx, ty) = (x + dx * h * 1.35, y + dy * h * 1.35);
        let (px, py) = (-dy, dx);
        let _ = write!(
            svg,
            r##"<polygon class="b-facing" fill="#1d1d1d" points="{tx:.1},{ty:.1} {:.1},{:.1} {:.1},{:.1}"/>"##,
            x + dx * h * 0.8 + px * h * 0.45,
            y + dy * h * 0.8 + py * h * 0.45,
            x + dx * h * 0.8 - px * h * 0.45,
            y + dy * h * 0.8 - py * h * 0.45
        );
    }
}

/// The label and the value of a piece face up: side by side (the value in the lower right
/// corner) or the label over the value.
fn texts(svg: &mut String, p: &Piece, (x, y, hw, hh): Frame, text: Text, ink: &str, font: f64) {
    let stacked = text == Text::Stacked && p.value.is_some();
    if !p.label.is_empty() {
        let _ = write!(
            svg,
            r##"<text class="b-label" fill="{ink}" x="{x:.1}" y="{:.1}" font-size="{font}" font-weight="bold" text-anchor="middle">{}</text>"##,
            if stacked {
                y - hh + font * 0.95
            } else {
                y + font * 0.35
            },
            esc(&p.label)
        );
    }
    if let Some(v) = &p.value {
        if stacked {
            let _ = write!(
                svg,
                r##"<text class="b-value" fill="{ink}" x="{x:.1}" y="{:.1}" font-size="{font}" text-anchor="middle">{}</text>"##,
                y + hh - font * 0.2,
                esc(v)
            );
        } else {
            let _ = write!(
                svg,
                r##"<text class="b-value" fill="{ink}" x="{:.1}" y="{:.1}" font-size="{font}" text-anchor="end">{}</text>"##,
                x + hw - 2.0,
                y + hh - 3.0,
                esc(v)
            );
        }
    }
}
