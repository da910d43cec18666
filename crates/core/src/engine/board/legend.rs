//! The legend under the map: the grounds, the kinds of line and zone drawn, and the sides,
//! each with its swatch, three to a row (two, or one, where a name would not fit a third of the
//! width); then the ruleset's own entries and notes, wrapped to
//! the drawing's width.

use std::fmt::Write;
use std::ops::Range;

use super::layout::{wrap, MARGIN};
use super::render::{esc, SIDES};
use super::{Board, Grid, Ground, Highlight, Line, LinkKind, SideKind, AREA, ZONE};

/// A kind drawn over the map that the legend names: a line, the watched tint or a named area.
#[derive(Debug, Clone, PartialEq)]
enum Over {
    Line(Line),
    Zone,
    Area(String),
}

impl Over {
    fn name(&self) -> &str {
        match self {
            Over::Line(line) => line.name,
            Over::Zone => "watched",
            Over::Area(name) => name,
        }
    }
}

/// What the legend names, and the rows it takes.
pub(super) struct Legend {
    grounds: Vec<Ground>,
    link_kinds: Vec<LinkKind>,
    /// The kinds of line and tint drawn over the map, named after the links.
    over: Vec<Over>,
    /// The swatches to a row: three, or fewer where the longest name needs it.
    cols: usize,
    /// The rows of swatches.
    rows: usize,
    /// The legend's own lines and the notes, wrapped.
    text_lines: Vec<String>,
}

impl Legend {
    pub(super) fn of(board: &Board) -> Legend {
        let width = board.width();
        let font = board.min_font();
        let mut grounds: Vec<Ground> = board.cells.iter().map(|c| c.ground).collect();
        grounds.sort();
        grounds.dedup();
        let links = board.links();
        let mut link_kinds: Vec<LinkKind> = links.iter().map(|l| l.kind).collect();
        link_kinds.sort();
        link_kinds.dedup();
        // The kinds of line and zone drawn over the map, named in the legend after the links.
        let mut over: Vec<Over> = Vec::new();
        for h in &board.highlights {
            let kind = match h {
                Highlight::Path { .. } => Over::Line(Line::MOVE),
                Highlight::Retreat { .. } => Over::Line(Line::RETREAT),
                Highlight::Fire { .. } => Over::Line(Line::FIRE),
                Highlight::Road { line, .. } => Over::Line(*line),
                Highlight::Zone { .. } => Over::Zone,
                Highlight::Area { name, .. } => {
                    if over.iter().any(|o| matches!(o, Over::Area(_))) {
                        continue;
                    }
                    Over::Area(name.clone())
                }
                Highlight::Cells { .. } => continue,
            };
            if !over.contains(&kind) {
                over.push(kind);
            }
        }
        if matches!(board.grid, Grid::Hex { .. }) {
            for kind in SideKind::ALL {
                if board.hexsides.iter().any(|h| h.kind == kind) {
                    over.push(Over::Line(kind.line()));
                }
            }
        }
        // A column holds its swatch (1.3 `font`) and a name of about 0.56 `font` a character.
        let names = grounds
            .iter()
            .map(|g| g.name().chars().count())
            .chain(link_kinds.iter().map(|k| k.name().chars().count()))
            .chain(over.iter().map(|o| o.name().chars().count()))
            .chain(board.sides.iter().map(|s| s.chars().count()));
        let longest = names.max().unwrap_or(0) as f64;
        let fits = |cols: usize| {
            (width - 2.0 * MARGIN) / cols as f64 >= font * (1.3 + 0.56 * longest + 0.5)
        };
        let cols = [3, 2].into_iter().find(|&c| fits(c)).unwrap_or(1);
        let line_count = link_kinds.len() + over.len();
        let legend_rows = grounds.len().div_ceil(cols)
            + line_count.div_ceil(cols)
            + board.sides.len().div_ceil(cols);
        // The legend's lines and the notes, wrapped to the drawing's width.
        let chars = ((width - 2.0 * MARGIN) / (font * 0.56)).floor() as usize;
        let mut text_lines: Vec<String> = Vec::new();
        for (symbol, meaning) in &board.legend {
            text_lines.extend(wrap(&format!("{symbol} {meaning}"), chars));
        }
        for note in &board.notes {
            text_lines.extend(wrap(note, chars));
        }
        Legend {
            grounds,
            link_kinds,
            over,
            cols,
            rows: legend_rows,
            text_lines,
        }
    }

    /// The lines of a point-to-point map and the lines and zones over it.
    fn line_count(&self) -> usize {
        self.link_kinds.len() + self.over.len()
    }

    /// Its height in drawing units, `line` a row.
    pub(super) fn height(&self, line: f64) -> f64 {
        line * (self.rows + self.text_lines.len()) as f64
    }

    /// Each swatch (with `{x}`, `{x2}`, `{y}`, `{ym}` to place it) and its name, in order:
    /// the grounds, the lines, the sides. The range is the lines'.
    fn entries(&self, board: &Board, font: f64) -> (Vec<(String, String)>, Range<usize>) {
        let line_count = self.line_count();
        let mut entries: Vec<(String, String)> = self
            .grounds
        .iter()
        .map(|g| {
            let (class, fill, _) = g.paint();
            (
                format!(
                    r##"<rect class="{class}" fill="{fill}" stroke="#6b6453" width="{0:.0}" height="{0:.0}" x="{{x}}" y="{{y}}"/>"##,
                    font
                ),
                g.name().to_owned(),
            )
        })
        .collect();
        let link_entries = entries.len()..entries.len() + line_count;
        for kind in &self.link_kinds {
            let (class, stroke, width, dash) = kind.paint();
            entries.push((
            format!(
                r##"<line class="{class}" stroke="{stroke}" stroke-width="{width}" stroke-dasharray="{}" x1="{{x}}" y1="{{ym}}" x2="{{x2}}" y2="{{ym}}"/>"##,
                if dash.is_empty() { "none" } else { dash }
            ),
            kind.name().to_owned(),
        ));
        }
        for kind in &self.over {
            let tint = |(class, fill, _, opacity): (&str, &str, &str, f64)| {
                format!(
                    r##"<rect class="{class}" fill="{fill}" fill-opacity="{opacity}" stroke="#6b6453" width="{font:.0}" height="{font:.0}" x="{{x}}" y="{{y}}"/>"##
                )
            };
            let swatch = match kind {
                Over::Line(line) => format!(
                    r##"<line class="b-casing" stroke="{casing}" stroke-width="{1:.1}" stroke-linecap="round" x1="{{x}}" y1="{{ym}}" x2="{{x2}}" y2="{{ym}}"/><line class="{0}" stroke="{2}" stroke-width="{3:.1}" stroke-linecap="round" stroke-dasharray="{4}" x1="{{x}}" y1="{{ym}}" x2="{{x2}}" y2="{{ym}}"/>"##,
                    line.class,
                    font * 0.5,
                    line.light,
                    font * 0.28,
                    if line.dash.is_empty() {
                        "none".to_owned()
                    } else {
                        format!("0 {:.1}", font * 0.5)
                    },
                    casing = Line::CASING.light,
                ),
                Over::Zone => tint(ZONE),
                Over::Area(_) => tint(AREA),
            };
            entries.push((swatch, kind.name().to_owned()));
        }
        for (s, name) in board.sides.iter().enumerate() {
            let (light, _, _) = SIDES[s % SIDES.len()];
            entries.push((
            format!(
                r##"<rect class="side-{1}" fill="{light}" width="{0:.0}" height="{0:.0}" x="{{x}}" y="{{y}}"/>"##,
                font,
                s % SIDES.len()
            ),
            name.clone(),
        ));
        }
        (entries, link_entries)
    }

    /// Draws the legend and the notes, the first row's baseline at `y`.
    pub(super) fn draw(&self, svg: &mut String, board: &Board, mut y: f64) {
        let width = board.width();
        let font = board.min_font();
        let line = font * 1.3;
        let line_count = self.line_count();
        let cols = self.cols;
        let col_w = (width - 2.0 * MARGIN) / cols as f64;
        let (entries, link_entries) = self.entries(board, font);
        svg.push_str(r#"<g class="b-legend">"#);
        let ground_count = self.grounds.len();
        for (n, (swatch, name)) in entries.iter().enumerate() {
            // Grounds `cols` to a row, then the lines, then the sides.
            let (row, col) = if n < ground_count {
                (n / cols, n % cols)
            } else if link_entries.contains(&n) {
                let m = n - ground_count;
                (ground_count.div_ceil(cols) + m / cols, m % cols)
            } else {
                let m = n - link_entries.end;
                (
                    ground_count.div_ceil(cols) + line_count.div_ceil(cols) + m / cols,
                    m % cols,
                )
            };
            let x = MARGIN + col as f64 * col_w;
            let yy = y + row as f64 * line;
            svg.push_str(
                &swatch
                    .replace("{x}", &format!("{x:.1}"))
                    .replace("{x2}", &format!("{:.1}", x + font))
                    .replace("{ym}", &format!("{:.1}", yy - font * 0.35))
                    .replace("{y}", &format!("{:.1}", yy - font * 0.85)),
            );
            let _ = write!(
                svg,
                r##"<text class="b-ink" fill="#333" x="{:.1}" y="{yy:.1}" font-size="{font}">{}</text>"##,
                x + font * 1.3,
                esc(name)
            );
        }
        y += self.rows as f64 * line;
        for text in &self.text_lines {
            let _ = write!(
                svg,
                r##"<text class="b-ink b-note" fill="#333" x="{MARGIN:.1}" y="{y:.1}" font-size="{font}">{}</text>"##,
                esc(text)
            );
            y += line;
        }
        svg.push_str("</g>");
    }
}
