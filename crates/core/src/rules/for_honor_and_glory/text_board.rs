//! The battlefield in characters, for turn emails and pages: the hex map with its terrain and
//! who stands where, then every unit on the map. Nothing in For Honor and Glory is hidden, so
//! every viewer is shown the same board.
//!
//! The map is drawn in the layout of `hex.rs`: flat-topped hexes, odd columns (B, D, F …) half a
//! hex lower than even ones, so each map row takes two lines of text — the even columns, then
//! the odd columns half a line lower. Each hex is its terrain code followed by the initial of
//! the side standing there and how many of its counters it holds (`hB2`: a hill with two
//! British counters).

use std::fmt::Write;

use super::battle::Battle;
use super::hex::Hex;
use super::terrain::Terrain;
use super::turn::spent_as_met;
use super::units::{Kind, Side};
use super::State;
use crate::engine::words::capitalised;

/// The side's initial on the map.
fn initial(side: Side) -> char {
    if side == Side::AMERICAN {
        'A'
    } else {
        'B'
    }
}

/// One hex as four characters: terrain, side, count, a space.
fn cell(b: &Battle, hex: Hex) -> String {
    let code = b.map().terrain(hex).effects().code;
    let here: Vec<_> = b
        .units
        .iter()
        .filter(|u| u.on_map() && u.hex == hex)
        .collect();
    match here.first() {
        None => format!("{code}   "),
        Some(u) => {
            let count = here.len().min(9);
            format!("{code}{}{count} ", initial(u.side))
        }
    }
}

/// The board (the same for every viewer: nothing is hidden).
pub fn text_board(state: &State) -> String {
    let b = &state.battle;
    let map = b.map();
    let mut out = String::new();
    let header: String = (0..map.cols)
        .map(|c| format!("{:<4}", (b'A' + c) as char))
        .collect();
    let _ = writeln!(out, "    {}", header.trim_end());
    for row in 0..map.rows {
        for odd in [false, true] {
            let mut line = if odd {
                "    ".to_owned()
            } else {
                format!("{:>3} ", row + 1)
            };
            for col in 0..map.cols {
                if (col % 2 == 1) == odd {
                    line.push_str(&cell(b, Hex::new(col, row)));
                } else {
                    line.push_str("    ");
                }
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
    }
    let _ = writeln!(
        out,
        "\nOdd columns (B, D, F ...) sit half a hex lower, on the line below their row."
    );
    let mut legend = String::from("Terrain:");
    for t in Terrain::ALL {
        let entry = format!(" {} {}", t.effects().code, t.name());
        if legend.rsplit('\n').next().unwrap_or_default().len() + entry.len() > 76 {
            legend.push_str("\n        ");
        }
        legend.push_str(&entry);
    }
    let _ = writeln!(out, "{legend}");
    let _ = writeln!(
        out,
        "A American, B British, then how many counters the hex holds."
    );

    match &state.finished {
        Some(result) => {
            let _ = writeln!(
                out,
                "\n{}\nThe game is over, in turn {} of {}: {}",
                b.scen().title,
                b.turn,
                b.turns,
                result.summary
            );
        }
        None => {
            let _ = writeln!(
                out,
                "\n{}\nTurn {} of {}, the {} player to act{}.",
                b.scen().title,
                b.turn,
                b.turns,
                b.active.name(),
                if b.ap > 0 {
                    format!(" ({} AP left in the order)", b.ap)
                } else {
                    String::new()
                }
            );
        }
    }
    for side in [Side::AMERICAN, Side::BRITISH] {
        let s = &b.sides[usize::from(side.0)];
        let _ = writeln!(
            out,
            "{}: {} VP of {} needed, command AP {}, leaders lost {}",
            capitalised(side.name()),
            s.vp,
            s.target,
            s.command,
            s.leaders_lost
        );
    }
    for side in [Side::AMERICAN, Side::BRITISH] {
        let _ = writeln!(out, "\n{} counters:", capitalised(side.name()));
        for (i, u) in b.units.iter().enumerate() {
            if !u.on_map() || u.side != side {
                continue;
            }
            let name = b.name(i);
            let what = match u.kind {
                Kind::Leader | Kind::Vp => u.kind.name().to_owned(),
                k => format!(
                    "{} {}/{} MP{}{}",
                    k.name(),
                    u.mp,
                    u.start_mp,
                    if u.column { ", in column" } else { "" },
                    if u.acted && spent_as_met(b, u) {
                        ", has acted"
                    } else {
                        ""
                    }
                ),
            };
            let _ = writeln!(out, "  {:<4}{what}  {name}", u.hex.to_string());
        }
    }
    out
}
