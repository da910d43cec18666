//! The open table drawn for a page: the seats around the table (whose turn it is marked), a
//! dice tray with the latest roll, and the last lines of the log. The open table keeps nothing
//! secret in its state, so every viewer gets the same drawing; sealed notes show only as
//! "sealed" until revealed.

use std::fmt::Write;

use crate::engine::board::{esc, STYLE};
use crate::engine::dice::Roll;
use crate::engine::ruleset::BoardContext;

use super::{Order, State};

const WIDTH: u32 = 640;
const LOG_LINES: usize = 8;
/// Dice that fit in the tray; a larger roll shows the first ones and a count of the rest.
const TRAY_DICE: usize = 20;

/// A line cut to fit the drawing's width.
fn clip(text: &str, chars: usize) -> String {
    if text.chars().count() <= chars {
        text.to_owned()
    } else {
        let cut: String = text.chars().take(chars - 1).collect();
        format!("{cut}…")
    }
}

/// The pips of a six-sided face, as (x, y) in a 0..=2 grid.
fn pips(face: u32) -> &'static [(u32, u32)] {
    match face {
        1 => &[(1, 1)],
        2 => &[(0, 0), (2, 2)],
        3 => &[(0, 0), (1, 1), (2, 2)],
        4 => &[(0, 0), (2, 0), (0, 2), (2, 2)],
        5 => &[(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
        _ => &[(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
    }
}

fn die(svg: &mut String, x: u32, y: u32, roll: &Roll) {
    let size = 44;
    let _ = write!(
        svg,
        r##"<g class="die"><title>d{sides}: {face}</title><rect x="{x}" y="{y}" width="{size}" height="{size}" rx="8" fill="#fdfaf2" stroke="#3b2f1e" stroke-width="2"/>"##,
        sides = roll.sides,
        face = roll.face,
    );
    if roll.sides == 6 {
        for (px, py) in pips(roll.face) {
            let _ = write!(
                svg,
                r##"<circle cx="{}" cy="{}" r="4.5" fill="#1d1d1d"/>"##,
                x + 10 + px * 12,
                y + 10 + py * 12
            );
        }
    } else {
        let _ = write!(
            svg,
            r##"<text x="{}" y="{}" text-anchor="middle" font-size="17" font-weight="bold" fill="#1d1d1d">{}</text><text x="{}" y="{}" text-anchor="middle" font-size="9" fill="#5b4a33">d{}</text>"##,
            x + size / 2,
            y + 26,
            roll.face,
            x + size / 2,
            y + 39,
            roll.sides
        );
    }
    svg.push_str("</g>");
}

/// The drawing.
pub fn draw(state: &State, context: &BoardContext) -> String {
    let seat_rows = state.seats.len().div_ceil(4) as u32;
    let piles_y = 24 + seat_rows * 34 + 10;
    let tray_y = piles_y + if state.table.is_empty() { 0 } else { 24 };
    let dice = context
        .last_roll
        .as_ref()
        .map_or(0, |(_, _, r)| r.len().min(TRAY_DICE));
    let tray_h = if dice > 10 { 130 } else { 86 };
    let log_y = tray_y + tray_h + 16;
    let shown_lines = context.recent_lines.len().clamp(1, LOG_LINES) as u32;
    let height = log_y + 24 + shown_lines * 20 + 8;
    let mut svg = String::with_capacity(4096);
    let _ = write!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" role="img" aria-labelledby="board-title board-desc" class="board drawn" font-family="system-ui, sans-serif"><title id="board-title">The open table</title><desc id="board-desc">{desc}</desc><style>{STYLE}</style><rect class="b-paper" width="{WIDTH}" height="{height}" fill="#f4efe4"/>"##,
        desc = esc(&describe(state, context)),
    );
    // Seats, the one to act in bold with a marker.
    let to_act: Vec<&str> = match state.order {
        _ if state.finished.is_some() => Vec::new(),
        Order::Fixed => vec![state.seats[state.to_act].as_str()],
        Order::Free => state
            .seats
            .iter()
            .filter(|s| !state.resigned.contains(s))
            .map(|s| s.as_str())
            .collect(),
    };
    for (i, seat) in state.seats.iter().enumerate() {
        let x = 12 + (i as u32 % 4) * 155;
        let y = 12 + (i as u32 / 4) * 34;
        let acting = to_act.contains(&seat.as_str());
        let resigned = state.resigned.contains(seat);
        let (fill, stroke, weight) = if acting {
            ("#fff3c4", "#8a5a00", "bold")
        } else {
            ("#ffffff", "#8c7b62", "normal")
        };
        let name = state.name(seat);
        let held = state.table.hand(seat).len();
        let name = &if state.table.is_empty() {
            name.to_owned()
        } else {
            format!("{name} ({held})")
        };
        let label = if resigned {
            format!("{name} (resigned)")
        } else if acting {
            format!("▶ {name}")
        } else {
            name.to_owned()
        };
        // The seat's id, which orders name it by (`next <seat>`), where it is not its name.
        let title = if name == seat.as_str() {
            String::new()
        } else {
            format!("<title>{} (seat {seat})</title>", esc(name))
        };
        let _ = write!(
            svg,
            r##"<g class="seat{cls}">{title}<rect class="b-box{cls}" x="{x}" y="{y}" width="147" height="28" rx="6" fill="{fill}" stroke="{stroke}" stroke-width="{sw}"/><text class="b-ink" x="{tx}" y="{ty}" font-size="14" font-weight="{weight}" fill="#222">{label}</text></g>"##,
            cls = if acting { " acting" } else { "" },
            sw = if acting { 3 } else { 1 },
            tx = x + 8,
            ty = y + 19,
            label = esc(&clip(&label, 18)),
        );
    }
    // The piles' counts (a table with components).
    if !state.table.is_empty() {
        let _ = write!(
            svg,
            r##"<text class="b-ink piles" x="12" y="{}" font-size="13" fill="#222">{}</text>"##,
            piles_y + 6,
            esc(&clip(&piles(state), 90))
        );
    }
    // The dice tray.
    let _ = write!(
        svg,
        r##"<g class="tray"><rect x="12" y="{tray_y}" width="{w}" height="{tray_h}" rx="14" fill="#2f5d3a" stroke="#1e3b25" stroke-width="4"/>"##,
        w = WIDTH - 24,
    );
    match &context.last_roll {
        None => {
            let _ = write!(
                svg,
                r##"<text x="{}" y="{}" text-anchor="middle" font-size="15" fill="#e8f2ea">No dice rolled yet</text>"##,
                WIDTH / 2,
                tray_y + tray_h / 2 + 5
            );
        }
        Some((seq, seat, rolls)) => {
            let sums = sums(state, rolls.len());
            let seat = name_of_id(state, seat);
            let _ = write!(
                svg,
                r##"<text x="28" y="{}" font-size="14" fill="#e8f2ea"><title>{}</title>Latest roll: {} at event {seq} · {}</text>"##,
                tray_y + 22,
                esc(&sums),
                esc(seat),
                esc(&clip(&sums, 60)),
            );
            for (i, roll) in rolls.iter().take(TRAY_DICE).enumerate() {
                let row = i as u32 / 10;
                let col = i as u32 % 10;
                die(&mut svg, 28 + col * 54, tray_y + 32 + row * 48, roll);
            }
            if rolls.len() > TRAY_DICE {
                let _ = write!(
                    svg,
                    r##"<text x="{}" y="{}" text-anchor="end" font-size="13" fill="#e8f2ea">and {} more</text>"##,
                    WIDTH - 28,
                    tray_y + tray_h - 10,
                    rolls.len() - TRAY_DICE
                );
            }
        }
    }
    svg.push_str("</g>");
    // The log's last lines.
    let _ = write!(
        svg,
        r##"<g class="log"><text class="b-ink" x="12" y="{}" font-size="14" font-weight="bold" fill="#3b2f1e">Latest at the table (move {})</text>"##,
        log_y + 4,
        state.moves
    );
    let start = context.recent_lines.len().saturating_sub(LOG_LINES);
    for (i, line) in context.recent_lines[start..].iter().enumerate() {
        let _ = write!(
            svg,
            r##"<text class="b-ink" x="12" y="{}" font-size="13" fill="#222">{}</text>"##,
            log_y + 26 + i as u32 * 20,
            esc(&clip(line, 86))
        );
    }
    svg.push_str("</g></svg>");
    svg
}

/// What the table calls the seat whose id is `id`: `State::name`.
fn name_of_id<'s>(state: &'s State, id: &'s str) -> &'s str {
    state
        .seats
        .iter()
        .find(|s| s.as_str() == id)
        .map_or(id, |s| state.name(s))
}

/// The drawing in words, for screen readers.
fn describe(state: &State, context: &BoardContext) -> String {
    let mut d = format!(
        "{} seats: {}. {} moves made.",
        state.seats.len(),
        state
            .seats
            .iter()
            .map(|s| match state.name(s) {
                name if name == s.as_str() => name.to_owned(),
                name => format!("{name} (seat {s})"),
            })
            .collect::<Vec<_>>()
            .join(", "),
        state.moves
    );
    if !state.table.is_empty() {
        let hands: Vec<String> = state
            .seats
            .iter()
            .map(|s| format!("{} {}", state.name(s), state.table.hand(s).len()))
            .collect();
        let _ = write!(d, " {}. Cards in hand: {}.", piles(state), hands.join(", "));
    }
    if let Some((seq, seat, rolls)) = &context.last_roll {
        let seat = name_of_id(state, seat);
        let faces: Vec<String> = rolls
            .iter()
            .map(|r| format!("{} on a d{}", r.face, r.sides))
            .collect();
        let _ = write!(
            d,
            " Latest roll, by {seat} at event {seq}: {}.",
            faces.join(", ")
        );
    }
    d
}

/// What each pile holds, as counts: `strategy 41 (discard 3) · morale 9`.
fn piles(state: &State) -> String {
    state
        .table
        .piles
        .iter()
        .map(|p| match p.discard.len() {
            0 => format!("{} {}", p.name, p.draw.len()),
            d => format!("{} {} (discard {d})", p.name, p.draw.len()),
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// Each expression of the latest roll with its own total (`3d6+1 = 16 · d100 = 41`), or the
/// count of dice when the state does not hold the expressions of these dice.
fn sums(state: &State, dice: usize) -> String {
    if state.last_rolls.is_empty() || state.last_rolls.iter().map(|e| e.dice).sum::<usize>() != dice
    {
        return format!("{dice} {}", if dice == 1 { "die" } else { "dice" });
    }
    state
        .last_rolls
        .iter()
        .map(|e| format!("{} = {}", e.asked, e.total))
        .collect::<Vec<_>>()
        .join(" · ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ruleset::Seat;

    fn state() -> State {
        State {
            seats: vec![Seat::parse("anna").unwrap(), Seat::parse("ben").unwrap()],
            order: Order::Fixed,
            to_act: 1,
            moves: 3,
            notes: Vec::new(),
            proposals: Default::default(),
            resigned: Vec::new(),
            finished: None,
            last_rolls: Vec::new(),
            names: Vec::new(),
            version: 0,
            table: Default::default(),
        }
    }

    /// Rules version 2: the board calls each seat by its player's name, and tells the id an
    /// order names it by where the two differ.
    #[test]
    fn the_board_calls_seats_by_their_players_names() {
        let mut named = state();
        named.seats = vec![Seat::parse("seat-1").unwrap(), Seat::parse("zo").unwrap()];
        named.names = vec!["李雷".into(), "Zoë".into()];
        let context = BoardContext {
            recent_lines: Vec::new(),
            last_roll: Some((2, "seat-1".into(), vec![Roll { sides: 6, face: 4 }])),
        };
        let svg = draw(&named, &context);
        assert!(svg.contains(">▶ Zoë</text>"), "{svg}");
        assert!(svg.contains(">李雷</text>"), "{svg}");
        assert!(svg.contains("<title>李雷 (seat seat-1)</title>"), "{svg}");
        assert!(svg.contains("Latest roll: 李雷 at event 2"), "{svg}");
        assert!(
            svg.contains("2 seats: 李雷 (seat seat-1), Zoë (seat zo)."),
            "{svg}"
        );
        assert!(!svg.contains(">▶ zo<"), "{svg}");
    }

    #[test]
    fn the_board_draws_the_latest_roll_in_the_tray_and_escapes_the_log() {
        let context = BoardContext {
            recent_lines: vec!["anna: <script>alert(1)</script> & more".into()],
            last_roll: Some((
                2,
                "anna".into(),
                vec![
                    Roll { sides: 6, face: 5 },
                    Roll {
                        sides: 20,
                        face: 17,
                    },
                ],
            )),
        };
        let svg = draw(&state(), &context);
        assert!(svg.starts_with("<svg"));
        assert!(svg.ends_with("</svg>"));
        assert!(svg.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; more"));
        assert!(!svg.contains("<script"));
        assert!(svg.contains("<title>d6: 5</title>"));
        assert!(svg.contains("<title>d20: 17</title>"));
        assert!(svg.contains("▶ ben"));
        assert_eq!(svg.matches("class=\"die\"").count(), 2);
    }

    #[test]
    fn the_tray_sums_each_expression_on_its_own() {
        let mut state = state();
        state.last_rolls = vec![
            super::super::RolledExpression {
                asked: "3d6+1".into(),
                dice: 3,
                total: 13,
            },
            super::super::RolledExpression {
                asked: "1d100 (morale)".into(),
                dice: 1,
                total: 44,
            },
        ];
        let roll = |face| Roll { sides: 6, face };
        let context = BoardContext {
            recent_lines: Vec::new(),
            last_roll: Some((
                4,
                "anna".into(),
                vec![
                    roll(4),
                    roll(4),
                    roll(4),
                    Roll {
                        sides: 100,
                        face: 44,
                    },
                ],
            )),
        };
        let svg = draw(&state, &context);
        assert!(svg.contains("3d6+1 = 13 · 1d100 (morale) = 44"), "{svg}");
        assert!(!svg.contains("sum 5"), "no one sum across expressions");
    }

    #[test]
    fn an_empty_tray_says_no_dice_were_rolled() {
        let svg = draw(&state(), &BoardContext::default());
        assert!(svg.contains("No dice rolled yet"));
    }
}
