//! The board drawn as one SVG element, layer by layer from the paper up: the edge's column
//! and row names, a point-to-point map's links, the cells, the hexside features, the rings and
//! tints, the pieces, the lines over them, and the legend.

use std::fmt::Write;

use super::layout::{hex_points, point_slot, slots, Slot, Text, HEX, MARGIN, SQUARE};
use super::legend::Legend;
use super::piece::draw_piece;
use super::{At, Board, Edge, Grid, Ground, Hexside, Highlight, Line, LinkKind, AREA, STYLE, ZONE};

/// The side colours: light, dark, text on it.
pub(super) const SIDES: [(&str, &str, &str); 4] = [
    ("#2f5fa8", "#5b8ad6", "#ffffff"),
    ("#b3261e", "#e0594f", "#ffffff"),
    ("#2e7d32", "#5fb064", "#ffffff"),
    ("#6a4c93", "#9a7cc4", "#ffffff"),
];

/// The `stroke-dasharray` attribute of a line drawn `w` wide whose dash pattern is given in
/// line widths (`"2 1"`); empty for a solid line.
fn dash_array(dash: &str, w: f64) -> String {
    if dash.is_empty() {
        return String::new();
    }
    let dash: Vec<String> = dash
        .split(' ')
        .map(|d| format!("{:.1}", d.parse::<f64>().unwrap_or(1.0) * w))
        .collect();
    format!(r#" stroke-dasharray="{}""#, dash.join(" "))
}

/// Escapes text for SVG (XML) content and attributes.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The board drawn as one SVG element.
pub fn render(board: &Board) -> String {
    let (_, map_h) = board.map_size();
    let width = board.width();
    let font = board.min_font();
    let line = font * 1.3;
    let legend = Legend::of(board);
    let height = MARGIN * 2.0 + map_h + legend.height(line) + line;
    let mut svg = String::with_capacity(64 * 1024);
    let tap = match board.tap_width() {
        Some(px) => format!(r#" data-tap-width="{px:.0}""#),
        None => String::new(),
    };
    let _ = write!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0} {height:.0}" role="img" aria-labelledby="board-title board-desc" class="board drawn" font-family="system-ui, sans-serif" data-min-font="{font}"{tap}><title id="board-title">{}</title><desc id="board-desc">{}</desc><style>{STYLE}</style><rect class="b-paper" fill="#f7f3e8" width="{width:.0}" height="{height:.0}"/>"##,
        esc(&board.title),
        esc(&board.description),
    );
    edges(&mut svg, board);
    links(&mut svg, board);
    undrawn_hexes(&mut svg, board);
    cells(&mut svg, board);
    hexsides(&mut svg, board);
    highlights(&mut svg, board);
    pieces(&mut svg, board);
    lines(&mut svg, board);
    legend.draw(&mut svg, board, MARGIN * 2.0 + map_h + font);
    svg.push_str("</svg>");
    svg
}

/// Column letters and row numbers along the edges, for reading the map without hovering.
fn edges(svg: &mut String, board: &Board) {
    let font = board.min_font();
    svg.push_str(r#"<g class="b-edge">"#);
    let (cols, rows) = match board.grid {
        Grid::Hex { cols, rows } | Grid::Square { cols, rows } => (cols, rows),
        // A point-to-point map has no rows and columns to name.
        Grid::Points { .. } => (0, 0),
    };
    let hex = matches!(board.grid, Grid::Hex { .. });
    for col in 0..cols {
        let (x, _) = board.centre(At::new(col, 0));
        let name = if hex {
            ((b'A' + col as u8) as char).to_string()
        } else {
            ((b'a' + col as u8) as char).to_string()
        };
        let _ = write!(
            svg,
            r##"<text class="b-ink" fill="#333" x="{x:.1}" y="{:.1}" font-size="{font}" text-anchor="middle">{name}</text>"##,
            MARGIN - 6.0
        );
    }
    let step = if hex { 1 } else { 2 };
    for row in (0..rows).step_by(step) {
        let (_, y) = board.centre(At::new(0, row));
        let _ = write!(
            svg,
            r##"<text class="b-ink" fill="#333" x="{:.1}" y="{:.1}" font-size="{font}" text-anchor="end">{}</text>"##,
            MARGIN - 2.0,
            y + font * 0.35,
            row + 1
        );
    }
    svg.push_str("</g>");
}

/// The lines of a point-to-point map, under its locations.
fn links(svg: &mut String, board: &Board) {
    let links = board.links();
    if !links.is_empty() {
        svg.push_str(r#"<g class="b-links">"#);
        for link in links {
            let (class, stroke, width, dash) = link.kind.paint();
            let (x1, y1) = board.centre(link.from);
            let (x2, y2) = board.centre(link.to);
            let dash = if dash.is_empty() {
                String::new()
            } else {
                format!(r#" stroke-dasharray="{dash}""#)
            };
            let _ = write!(
                svg,
                r##"<g class="b-link" data-link="{}" data-kind="{}"><title>{}</title><line class="{class}" stroke="{stroke}" stroke-width="{width}" stroke-linecap="round"{dash} x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}"/>"##,
                esc(&link.label),
                link.kind.name(),
                esc(&link.title),
            );
            if link.kind == LinkKind::BlownBridge {
                let (mx, my) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
                let d = board.spot() * 0.8;
                let _ = write!(
                    svg,
                    r##"<path class="l-blown-x" stroke="#d32f2f" stroke-width="5" d="M{:.1},{:.1}L{:.1},{:.1}M{:.1},{:.1}L{:.1},{:.1}"/>"##,
                    mx - d,
                    my - d,
                    mx + d,
                    my + d,
                    mx + d,
                    my - d,
                    mx - d,
                    my + d
                );
            }
            svg.push_str("</g>");
        }
        svg.push_str("</g>");
    }
}

/// A hex grid's hexes that have no cell of their own, as faint outlines in one path under the
/// cells, so that a board drawing only the hexes that matter (Where Eagles Dare's window) still
/// reads as a map; nothing where every hex is drawn. They take no clicks: nothing is there.
fn undrawn_hexes(svg: &mut String, board: &Board) {
    let Grid::Hex { cols, rows } = board.grid else {
        return;
    };
    let drawn: std::collections::BTreeSet<At> = board.cells.iter().map(|c| c.at).collect();
    let mut d = String::new();
    let (h, v) = (HEX / 2.0, HEX * 3f64.sqrt() / 2.0);
    for col in 0..cols {
        for row in 0..rows {
            let at = At::new(col, row);
            if drawn.contains(&at) {
                continue;
            }
            let (x, y) = board.centre(at);
            let _ = write!(
                d,
                "M{:.1},{y:.1}l{h:.0},{v:.1} {:.0},0 {h:.0},-{v:.1} -{h:.0},-{v:.1} -{:.0},0z",
                x - HEX,
                HEX,
                HEX
            );
        }
    }
    if !d.is_empty() {
        let _ = write!(
            svg,
            r##"<path class="b-grid" fill="none" stroke="#d8cfb4" stroke-width="1.5" d="{d}"/>"##
        );
    }
}

/// The cells: each its ground's shape, its title and its mark.
fn cells(svg: &mut String, board: &Board) {
    let font = board.min_font();
    let hex = matches!(board.grid, Grid::Hex { .. });
    let labels_at: std::collections::BTreeMap<At, &str> = board
        .cells
        .iter()
        .map(|c| (c.at, c.label.as_str()))
        .collect();
    svg.push_str(r#"<g class="b-cells">"#);
    for cell in &board.cells {
        let (class, fill, _) = cell.ground.paint();
        let title = if cell.title.is_empty() {
            cell.label.clone()
        } else {
            format!("{}: {}", cell.label, cell.title)
        };
        // On a hex grid, the drawn cells next to this one: where a path pointed goes on.
        let next = if hex {
            let labels: Vec<&str> = Edge::ALL
                .iter()
                .filter_map(|e| e.across(cell.at))
                .filter_map(|at| labels_at.get(&at).copied())
                .collect();
            format!(r#" data-next="{}""#, esc(&labels.join(" ")))
        } else {
            String::new()
        };
        let _ = write!(
            svg,
            r##"<g class="b-cell" data-cell="{}" data-ground="{}"{next}><title>{}</title>{}"##,
            esc(&cell.label),
            cell.ground.name(),
            esc(&title),
            board.cell_shape(cell.at, class, fill)
        );
        if board.points() {
            // The location's name: above its point, or inside an exit's box.
            let (x, y) = board.centre(cell.at);
            let name = cell.mark.as_ref().unwrap_or(&cell.label);
            let y = if cell.ground == Ground::OffMap {
                y + font * 0.35
            } else {
                y - board.spot() * 1.4 - 4.0
            };
            let _ = write!(
                svg,
                r##"<text class="b-mark" fill="#3b2f1e" x="{x:.1}" y="{y:.1}" font-size="{font}" font-weight="bold" text-anchor="middle">{}</text>"##,
                esc(name)
            );
        } else if let Some(mark) = &cell.mark {
            let (x, y) = board.centre(cell.at);
            let _ = write!(
                svg,
                r##"<text class="b-mark" fill="#3b2f1e" x="{x:.1}" y="{:.1}" font-size="{font}" font-weight="bold" text-anchor="middle">{}</text>"##,
                y + font * 0.35,
                esc(mark)
            );
        }
        svg.push_str("</g>");
    }
    svg.push_str("</g>");
}

/// Hexside features along the cells' edges, under the pieces; they take no clicks.
fn hexsides(svg: &mut String, board: &Board) {
    if matches!(board.grid, Grid::Hex { .. }) && !board.hexsides.is_empty() {
        svg.push_str(r#"<g class="b-hexsides">"#);
        for h in &board.hexsides {
            draw_hexside(svg, board, h);
        }
        svg.push_str("</g>");
    }
}

/// Rings and tints under the pieces, lines over them ([`lines`]). Highlights take no clicks,
/// so a pointed cell or piece under one is still reached.
fn highlights(svg: &mut String, board: &Board) {
    svg.push_str(r#"<g class="b-highlights">"#);
    // The areas first, then the roads over them, then the rings and tints.
    for h in &board.highlights {
        if let Highlight::Area { cells, name, title } = h {
            let _ = write!(
                svg,
                r#"<g class="b-hl" data-highlight="area" data-area="{}" pointer-events="none"><title>{}</title>"#,
                esc(name),
                esc(title)
            );
            for &at in cells {
                svg.push_str(&board.tint_shape(at, AREA));
            }
            svg.push_str("</g>");
        }
    }
    for h in &board.highlights {
        if let Highlight::Road { cells, line, title } = h {
            draw_road(svg, board, *line, cells, title);
        }
    }
    for h in &board.highlights {
        match h {
            Highlight::Path { .. }
            | Highlight::Retreat { .. }
            | Highlight::Fire { .. }
            | Highlight::Road { .. }
            | Highlight::Area { .. } => {}
            Highlight::Cells { cells, title } => {
                for &at in cells {
                    let (x, y) = board.centre(at);
                    let r = board.inner() * 0.55;
                    let _ = write!(
                        svg,
                        r##"<circle class="b-pick" data-highlight="cells" pointer-events="none" fill="none" stroke="#e0a000" stroke-width="4" cx="{x:.1}" cy="{y:.1}" r="{r:.1}"><title>{}</title></circle>"##,
                        esc(title)
                    );
                }
            }
            Highlight::Zone { cells, title } => {
                let _ = write!(
                    svg,
                    r#"<g class="b-hl" data-highlight="zone" pointer-events="none"><title>{}</title>"#,
                    esc(title)
                );
                for &at in cells {
                    svg.push_str(&board.tint_shape(at, ZONE));
                }
                svg.push_str("</g>");
            }
        }
    }
    svg.push_str("</g>");
}

/// The pieces, spread over their cell (`layout::slots`).
fn pieces(svg: &mut String, board: &Board) {
    let font = board.min_font();
    svg.push_str(r#"<g class="b-pieces">"#);
    let inner = board.inner();
    for (i, piece) in board.pieces.iter().enumerate() {
        let here: Vec<usize> = board
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.at == piece.at)
            .map(|(j, _)| j)
            .collect();
        let k = here.iter().position(|&j| j == i).unwrap_or(0);
        let slot = if board.points() {
            let (dx, dy) = point_slot(k, here.len(), inner, board.spot());
            let text = if piece.value.is_some() {
                Text::Stacked
            } else {
                Text::Beside
            };
            Slot {
                dx,
                dy,
                hw: inner / 2.0,
                hh: inner / 2.0,
                text,
            }
        } else {
            let shapes: Vec<_> = here.iter().map(|&j| board.pieces[j].shape).collect();
            slots(&shapes, inner, font)[k]
        };
        let (cx, cy) = board.centre(piece.at);
        draw_piece(svg, board, piece, (cx, cy), slot, font);
    }
    svg.push_str("</g>");
}

/// The lines over the pieces, so that a counter does not hide them: each starts and ends at
/// the edge of the counters in its first and last cell, leaving their faces clear.
fn lines(svg: &mut String, board: &Board) {
    svg.push_str(r#"<g class="b-lines">"#);
    for h in &board.highlights {
        match h {
            Highlight::Path { cells, title } => {
                draw_line(svg, board, "path", Line::MOVE, cells, title);
            }
            Highlight::Retreat { cells, title } => {
                draw_line(svg, board, "retreat", Line::RETREAT, cells, title);
            }
            Highlight::Fire { from, to, title } => {
                draw_line(svg, board, "fire", Line::FIRE, &[*from, *to], title);
            }
            Highlight::Cells { .. }
            | Highlight::Zone { .. }
            | Highlight::Road { .. }
            | Highlight::Area { .. } => {}
        }
    }
    svg.push_str("</g>");
}

impl Board {
    /// A tinted cell ([`Highlight::Zone`] with [`ZONE`], [`Highlight::Area`] with [`AREA`]):
    /// the cell's shape, filled and see-through.
    fn tint_shape(&self, at: At, tint: (&str, &str, &str, f64)) -> String {
        let (class, fill, _, opacity) = tint;
        let (x, y) = self.centre(at);
        match self.grid {
            Grid::Hex { .. } => {
                format!(
                    r#"<polygon class="{class}" fill="{fill}" fill-opacity="{opacity}" points="{}"/>"#,
                    hex_points(x, y)
                )
            }
            Grid::Square { .. } => format!(
                r#"<rect class="{class}" fill="{fill}" fill-opacity="{opacity}" x="{:.1}" y="{:.1}" width="{SQUARE}" height="{SQUARE}"/>"#,
                x - SQUARE / 2.0,
                y - SQUARE / 2.0
            ),
            Grid::Points { .. } => format!(
                r#"<circle class="{class}" fill="{fill}" fill-opacity="{opacity}" cx="{x:.1}" cy="{y:.1}" r="{:.1}"/>"#,
                self.spot() * 2.0
            ),
        }
    }

    fn cell_shape(&self, at: At, class: &str, fill: &str) -> String {
        let (x, y) = self.centre(at);
        match self.grid {
            Grid::Hex { .. } => {
                format!(
                    r##"<polygon class="{class}" fill="{fill}" stroke="#6b6453" stroke-width="1.5" points="{}"/>"##,
                    hex_points(x, y)
                )
            }
            Grid::Square { .. } => format!(
                r##"<rect class="{class}" fill="{fill}" stroke="#8a8170" stroke-width="0.5" x="{:.1}" y="{:.1}" width="{SQUARE}" height="{SQUARE}"/>"##,
                x - SQUARE / 2.0,
                y - SQUARE / 2.0
            ),
            Grid::Points { .. } => {
                let r = self.spot();
                match class {
                    // A fortress: a bastioned star of eight points.
                    "g-fortress" => {
                        let pts: Vec<String> = (0..16)
                            .map(|i| {
                                let a = std::f64::consts::PI / 8.0 * f64::from(i);
                                let d = if i % 2 == 0 { r * 1.35 } else { r * 0.95 };
                                format!("{:.1},{:.1}", x + d * a.cos(), y + d * a.sin())
                            })
                            .collect();
                        format!(
                            r##"<polygon class="{class}" fill="{fill}" stroke="#1d1d1d" stroke-width="3" points="{}"/>"##,
                            pts.join(" ")
                        )
                    }
                    "g-offmap" => format!(
                        r##"<rect class="{class}" fill="{fill}" stroke="#1d1d1d" stroke-width="2" stroke-dasharray="6 4" x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" rx="8"/>"##,
                        x - r * 1.6,
                        y - r,
                        r * 3.2,
                        r * 2.0
                    ),
                    _ => format!(
                        r##"<circle class="{class}" fill="{fill}" stroke="#1d1d1d" stroke-width="3" cx="{x:.1}" cy="{y:.1}" r="{r:.1}"/>"##
                    ),
                }
            }
        }
    }
}

/// A road through the centres of `cells` in the style of `line`, under the pieces: the
/// casing, then the core, joined round, no arrowhead; a single cell is a dot.
fn draw_road(svg: &mut String, board: &Board, line: Line, cells: &[At], title: &str) {
    let mut pts: Vec<(f64, f64)> = cells.iter().map(|&at| board.centre(at)).collect();
    pts.dedup();
    if pts.is_empty() {
        return;
    }
    // A road ahead, not yet taken (dashed), is drawn lighter than the road itself: it only
    // points the way.
    let w = if line.dash.is_empty() {
        board.line_width()
    } else {
        board.line_width() * 0.6
    };
    let cw = w * 1.8;
    let casing = Line::CASING.light;
    let _ = write!(
        svg,
        r#"<g class="b-hl" data-highlight="road" data-road="{}" pointer-events="none"><title>{}</title>"#,
        esc(line.name),
        esc(title)
    );
    if pts.len() == 1 {
        let (x, y) = pts[0];
        let _ = write!(
            svg,
            r#"<circle class="b-casing" fill="{1}" stroke="{casing}" stroke-width="{2:.1}" cx="{x:.1}" cy="{y:.1}" r="{3:.1}"/><circle class="{0}-dot" fill="{1}" cx="{x:.1}" cy="{y:.1}" r="{3:.1}"/>"#,
            line.class,
            line.light,
            w * 0.4,
            w
        );
    } else {
        let points: Vec<String> = pts.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        let points = points.join(" ");
        let dash = dash_array(line.dash, w);
        let _ = write!(
            svg,
            r#"<polyline class="b-casing" fill="none" stroke="{casing}" stroke-width="{cw:.1}" stroke-linecap="round" stroke-linejoin="round"{dash} points="{points}"/><polyline class="{0}" fill="none" stroke="{1}" stroke-width="{w:.1}" stroke-linecap="round" stroke-linejoin="round"{dash} points="{points}"/>"#,
            line.class, line.light,
        );
    }
    svg.push_str("</g>");
}

/// A line through the centres of `cells` in the style of `line`, drawn over the pieces: a dot
/// where it starts and an arrowhead where it ends, each at the edge of the counters standing
/// in that cell (at its centre where none stands), so that the line leaves their faces clear.
/// Each part is drawn twice, the casing under the core.
fn draw_line(svg: &mut String, board: &Board, kind: &str, line: Line, cells: &[At], title: &str) {
    let mut pts: Vec<(f64, f64)> = cells.iter().map(|&at| board.centre(at)).collect();
    pts.dedup();
    if pts.is_empty() {
        return;
    }
    let w = board.line_width();
    let occupied = |at: Option<&At>| at.is_some_and(|at| board.pieces.iter().any(|p| p.at == *at));
    // Moves a point `by` along the segment towards `to`, keeping at least `keep` of it.
    let pull = |from: (f64, f64), to: (f64, f64), by: f64, keep: f64| {
        let len = ((to.0 - from.0).powi(2) + (to.1 - from.1).powi(2)).sqrt();
        let by = by.min(len - keep).max(0.0);
        if len > 0.0 {
            (
                from.0 + (to.0 - from.0) / len * by,
                from.1 + (to.1 - from.1) / len * by,
            )
        } else {
            from
        }
    };
    let edge = board.inner() * 0.4;
    if pts.len() > 1 && occupied(cells.first()) {
        pts[0] = pull(pts[0], pts[1], edge, w * 5.0);
    }
    if pts.len() > 1 && occupied(cells.last()) {
        let n = pts.len();
        pts[n - 1] = pull(pts[n - 1], pts[n - 2], edge, w * 5.0);
    }
    let casing = Line::CASING.light;
    let cw = w * 1.8;
    let _ = write!(
        svg,
        r#"<g class="b-hl" data-highlight="{kind}" pointer-events="none"><title>{}</title>"#,
        esc(title)
    );
    let (sx, sy) = pts[0];
    let dot = format!(
        r#"<circle class="{0}-head" fill="{1}" stroke="{casing}" stroke-width="{2:.1}" cx="{sx:.1}" cy="{sy:.1}" r="{3:.1}"/>"#,
        line.class,
        line.light,
        w * 0.4,
        w * 0.9
    );
    if pts.len() > 1 {
        // The last stretch ends in an arrowhead.
        let (tx, ty) = pts[pts.len() - 1];
        let (x1, y1) = pts[pts.len() - 2];
        let len = ((tx - x1).powi(2) + (ty - y1).powi(2)).sqrt().max(0.1);
        let (ux, uy) = ((tx - x1) / len, (ty - y1) / len);
        let head = (w * 2.4).min(len * 0.6);
        let (bx, by) = (tx - ux * head, ty - uy * head);
        let last = pts.len() - 1;
        pts[last] = (bx, by);
        let points: Vec<String> = pts.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        let points = points.join(" ");
        let dash = dash_array(line.dash, w);
        let (px, py) = (-uy * w * 1.6, ux * w * 1.6);
        let head_pts = format!(
            "{tx:.1},{ty:.1} {:.1},{:.1} {:.1},{:.1}",
            bx + px,
            by + py,
            bx - px,
            by - py
        );
        let _ = write!(
            svg,
            r#"<polyline class="b-casing" fill="none" stroke="{casing}" stroke-width="{cw:.1}" stroke-linecap="round" stroke-linejoin="round" points="{points}"/><polyline class="{0}" fill="none" stroke="{1}" stroke-width="{w:.1}" stroke-linecap="round" stroke-linejoin="round"{dash} points="{points}"/>{dot}<polygon class="{0}-head" fill="{1}" stroke="{casing}" stroke-width="{2:.1}" stroke-linejoin="round" points="{head_pts}"/>"#,
            line.class,
            line.light,
            w * 0.4
        );
    } else {
        svg.push_str(&dot);
    }
    svg.push_str("</g>");
}

/// A hexside feature: its kind's core over the casing along the edge, the ends pulled in a
/// little so that features meeting at a corner stay apart. `data-side` names the cell and the
/// edge (`B2:ne`), `data-kind` the kind.
fn draw_hexside(svg: &mut String, board: &Board, h: &Hexside) {
    let (x, y) = board.centre(h.at);
    let corner = |i: u32| {
        let a = std::f64::consts::PI / 3.0 * f64::from(i);
        (x + HEX * a.cos(), y + HEX * a.sin())
    };
    let (a, b) = h.edge.corners();
    let ((x1, y1), (x2, y2)) = (corner(a), corner(b));
    let inset = 0.12;
    let (x1, y1, x2, y2) = (
        x1 + (x2 - x1) * inset,
        y1 + (y2 - y1) * inset,
        x2 + (x1 - x2) * inset,
        y2 + (y1 - y2) * inset,
    );
    let line = h.kind.line();
    let w = board.line_width();
    let dash = dash_array(line.dash, w);
    let label = board
        .cells
        .iter()
        .find(|c| c.at == h.at)
        .map_or_else(|| format!("{},{}", h.at.col, h.at.row), |c| c.label.clone());
    let _ = write!(
        svg,
        r#"<g class="b-side" data-side="{}:{}" data-kind="{}" pointer-events="none"><title>{}</title><line class="b-casing" stroke="{}" stroke-width="{:.1}" stroke-linecap="round" x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}"/><line class="{}" stroke="{}" stroke-width="{w:.1}" stroke-linecap="round"{dash} x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}"/></g>"#,
        esc(&label),
        h.edge.name(),
        line.name,
        esc(&h.title),
        Line::CASING.light,
        w * 1.8,
        line.class,
        line.light,
    );
}
