//! The engine's tests: flows through create/play/fold, positions, exports and their tampering, the wire formats, and every ruleset's boards drawn as SVG and as text.

#[path = "../common/sfg_seats.rs"]
mod sfg_seats;
#[path = "../common/suggested.rs"]
mod suggested;
#[path = "../common/svg_checks.rs"]
mod svg_checks;

mod board_svg;
mod flows;
mod positions;
mod suggestions;
mod tampering;
mod text_boards;
mod upgrades;
mod wire_formats;
