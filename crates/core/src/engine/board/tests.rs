use super::layout::{HEX, MIN_PX, PHONE, SQUARE};
use super::*;

fn sample(grid: Grid) -> Board {
    Board {
        title: "A <test> & board".into(),
        description: "two pieces".into(),
        grid,
        cells: (0..3)
            .flat_map(|c| (0..2).map(move |r| At::new(c, r)))
            .map(|at| Cell {
                at,
                label: format!("{}{}", (b'A' + at.col as u8) as char, at.row + 1),
                ground: if at.col == 1 {
                    Ground::Forest
                } else {
                    Ground::Clear
                },
                mark: None,
                title: String::new(),
            })
            .collect(),
        sides: vec!["red".into(), "blue".into()],
        pieces: vec![
            Piece {
                at: At::new(0, 0),
                id: "p1".into(),
                side: Some(0),
                shape: Shape::Counter,
                label: "R".into(),
                value: Some("3".into()),
                facing: None,
                states: vec![State::Column, State::FiredOn],
                title: "a regular".into(),
            },
            Piece {
                at: At::new(0, 0),
                id: "p2".into(),
                side: None,
                shape: Shape::Card,
                label: "secret".into(),
                value: None,
                facing: Some(Facing::East),
                states: vec![State::FaceDown],
                title: "a card, face down".into(),
            },
        ],
        highlights: vec![Highlight::Fire {
            from: At::new(0, 0),
            to: At::new(2, 1),
            title: "fire".into(),
        }],
        hexsides: Vec::new(),
        legend: vec![("R".into(), "regular".into())],
        notes: vec!["Turn 1".into()],
    }
}

#[test]
fn a_board_is_one_self_contained_svg_with_titled_cells_and_pieces() {
    for grid in [
        Grid::Hex { cols: 3, rows: 2 },
        Grid::Square { cols: 3, rows: 2 },
    ] {
        let svg = render(&sample(grid));
        assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>"));
        assert!(svg.contains("viewBox=\"0 0 "));
        assert!(!svg.contains("<script") && !svg.contains("href") && !svg.contains("style=\""));
        assert!(svg.contains("A &lt;test&gt; &amp; board"));
        assert_eq!(svg.matches("data-cell=").count(), 6);
        assert!(svg.contains(r#"data-cell="B2""#) && svg.contains("<title>B2</title>"));
        assert_eq!(svg.matches("data-piece=").count(), 2);
        assert!(svg.contains("s-column s-fired-on"));
        assert!(svg.contains("prefers-color-scheme: dark"));
        // A face-down piece shows no label.
        assert!(!svg.contains(">secret<"));
    }
}

/// Three locations (one a fortress) and an exit, joined by a line of every kind.
fn points(cols: u16, rows: u16) -> Board {
    let spots = [
        (At::new(10, 10), "a", Ground::Location),
        (At::new(40, 10), "b", Ground::Fortress),
        (At::new(25, 40), "c", Ground::Location),
        (At::new(5, 60), "out", Ground::OffMap),
    ];
    let link = |i: usize, j: usize, kind| Link {
        from: spots[i].0,
        to: spots[j].0,
        kind,
        label: format!("{}-{}", spots[i].1, spots[j].1),
        title: format!("{} to {}", spots[i].1, spots[j].1),
    };
    let mut b = sample(Grid::Points {
        cols,
        rows,
        links: vec![
            link(0, 1, LinkKind::Road),
            link(1, 2, LinkKind::Mountain),
            link(0, 2, LinkKind::Bridge),
            link(2, 1, LinkKind::BlownBridge),
            link(2, 3, LinkKind::Exit),
        ],
    });
    b.cells = spots
        .iter()
        .map(|(at, label, ground)| Cell {
            at: *at,
            label: (*label).into(),
            ground: *ground,
            mark: Some(label.to_uppercase()),
            title: "a place".into(),
        })
        .collect();
    // Five pieces on one location: two rows under its point.
    b.pieces = (0..5)
        .map(|i| Piece {
            at: At::new(25, 40),
            id: format!("cu-{i}"),
            side: Some(i % 2),
            shape: if i == 4 {
                Shape::Marker
            } else {
                Shape::Counter
            },
            label: format!("P{i}"),
            value: (i < 4).then(|| "5".to_owned()),
            facing: None,
            states: vec![],
            title: format!("piece {i}"),
        })
        .collect();
    b.highlights = vec![Highlight::Cells {
        cells: vec![At::new(40, 10)],
        title: "a battle".into(),
    }];
    b
}

#[test]
fn a_point_to_point_map_draws_its_locations_lines_by_kind_and_pieces() {
    let svg = render(&points(50, 70));
    assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>"));
    assert!(!svg.contains("<script") && !svg.contains("href") && !svg.contains("style=\""));
    assert_eq!(svg.matches("data-cell=").count(), 4);
    for (cell, ground) in [
        ("a", "location"),
        ("b", "fortress"),
        ("c", "location"),
        ("out", "off the map"),
    ] {
        assert!(
            svg.contains(&format!(
                r#"data-cell="{cell}" data-ground="{ground}"><title>{cell}: a place</title>"#
            )),
            "{cell}"
        );
        assert!(
            svg.contains(&format!(">{}</text>", cell.to_uppercase())),
            "{cell}"
        );
    }
    assert_eq!(svg.matches("class=\"b-link\"").count(), 5);
    for (link, kind) in [
        ("a-b", "road"),
        ("b-c", "mountain"),
        ("a-c", "bridge"),
        ("c-b", "blown bridge"),
        ("c-out", "exit"),
    ] {
        assert!(
            svg.contains(&format!(r#"data-link="{link}" data-kind="{kind}"><title>"#)),
            "{link}"
        );
    }
    // A blown bridge is crossed out, once.
    assert_eq!(svg.matches("class=\"l-blown-x\"").count(), 1);
    // The legend names every kind of line, and no grid letters run along the edges.
    for kind in ["road", "mountain", "bridge", "blown bridge", "exit"] {
        assert!(svg.contains(&format!(">{kind}</text>")), "{kind}");
    }
    assert!(svg.contains(r#"<g class="b-edge"></g>"#));
    assert_eq!(svg.matches("data-piece=").count(), 5);
    assert_eq!(svg.matches(r#"data-at="c""#).count(), 5);
    // The pieces stand in two rows under the point, none on another.
    let xs: Vec<(f64, f64)> = svg
        .split("class=\"b-body side-")
        .skip(1)
        .map(|p| {
            let p = p.split("/>").next().unwrap();
            let num = |key: &str| -> f64 {
                p.split(key)
                    .nth(1)
                    .unwrap()
                    .split('"')
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap()
            };
            if p.contains(" x=\"") {
                (num(" x=\""), num(" y=\""))
            } else {
                (0.0, 0.0)
            }
        })
        .filter(|&(x, _)| x > 0.0)
        .collect();
    assert_eq!(xs.len(), 4);
    for (i, a) in xs.iter().enumerate() {
        for b in &xs[i + 1..] {
            assert!(a != b, "two pieces at {a:?}");
        }
    }
    let rows: std::collections::BTreeSet<i64> = xs.iter().map(|p| p.1 as i64).collect();
    assert_eq!(rows.len(), 2, "{xs:?}");
    // Dark mode restyles the lines too.
    assert!(svg.contains("prefers-color-scheme: dark") && STYLE.contains(".l-road"));
}

/// WCAG's relative luminance of `#rrggbb`.
fn luminance(hex: &str) -> f64 {
    let c = |i: usize| {
        let v = f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap()) / 255.0;
        if v <= 0.04045 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * c(1) + 0.7152 * c(3) + 0.0722 * c(5)
}

fn contrast(a: &str, b: &str) -> f64 {
    let (a, b) = (luminance(a), luminance(b));
    (a.max(b) + 0.05) / (a.min(b) + 0.05)
}

/// A colour in CIELAB (D65), for telling fills apart by eye rather than by luminance.
fn lab(hex: &str) -> (f64, f64, f64) {
    let c = |i: usize| {
        let v = f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap()) / 255.0;
        if v <= 0.04045 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    let (r, g, b) = (c(1), c(3), c(5));
    let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    let f = |t: f64| {
        if t > 0.008856 {
            t.cbrt()
        } else {
            7.787 * t + 16.0 / 116.0
        }
    };
    (
        116.0 * f(y) - 16.0,
        500.0 * (f(x) - f(y)),
        200.0 * (f(y) - f(z)),
    )
}

/// The CIE76 colour difference: about 2.3 is just noticeable, 20 and more tells two fills apart
/// at a glance.
fn delta_e(a: &str, b: &str) -> f64 {
    let (p, q) = (lab(a), lab(b));
    ((p.0 - q.0).powi(2) + (p.1 - q.1).powi(2) + (p.2 - q.2).powi(2)).sqrt()
}

/// Issue 38, For Honor and Glory's terrain (its Terrain Effects Chart): clear, fence, forest
/// and swamp told apart in dark mode — each pair of the dark fills at least 20 apart (CIE76),
/// the stylesheet giving the same colours.
#[test]
fn clear_fence_forest_and_swamp_are_told_apart_in_dark_mode() {
    let (_, dark_css) = STYLE
        .split_once("@media (prefers-color-scheme: dark)")
        .unwrap();
    let four = [Ground::Clear, Ground::Fence, Ground::Forest, Ground::Swamp];
    for (i, a) in four.iter().enumerate() {
        let (class, _, dark) = a.paint();
        assert!(
            dark_css.contains(&format!(".{class}{{fill:{dark}}}")),
            "board.css's dark {class} is {dark}"
        );
        for b in &four[i + 1..] {
            let d = delta_e(dark, b.paint().2);
            assert!(
                d >= 20.0,
                "{} and {} in the dark: {d:.1}",
                a.name(),
                b.name()
            );
        }
    }
}

const GROUNDS: [Ground; 20] = [
    Ground::Clear,
    Ground::Forest,
    Ground::Hill,
    Ground::Town,
    Ground::Swamp,
    Ground::Water,
    Ground::Waterway,
    Ground::Crossing,
    Ground::Fence,
    Ground::Entrenchment,
    Ground::Fort,
    Ground::Wall,
    Ground::Corridor,
    Ground::Room,
    Ground::DoorClosed,
    Ground::DoorOpen,
    Ground::Entry,
    Ground::Location,
    Ground::Fortress,
    Ground::OffMap,
];

/// A line drawn over the map reads on every ground of both palettes: its core or its casing
/// stands out at 3:1 at least (WCAG's contrast for graphics), and the core against its
/// casing, so the line reads where they meet.
fn stands_out_on_every_ground(line: &Line) {
    for g in GROUNDS {
        let (_, light, dark) = g.paint();
        for (ground, core, casing, palette) in [
            (light, line.light, Line::CASING.light, "light"),
            (dark, line.dark, Line::CASING.dark, "dark"),
        ] {
            let best = contrast(core, ground).max(contrast(casing, ground));
            assert!(
                best >= 3.0,
                "{} on {} ({palette}): {best:.2}",
                line.name,
                g.name()
            );
        }
    }
    assert!(
        contrast(line.light, Line::CASING.light) >= 3.0,
        "{}",
        line.name
    );
    assert!(
        contrast(line.dark, Line::CASING.dark) >= 3.0,
        "{}",
        line.name
    );
}

/// Issue 20, "highlights (last move's path, fire lines …)" legible in light and dark: on
/// every ground of both palettes, a line's core or its casing stands out at 3:1 at least
/// (WCAG's contrast for graphics), and the stylesheet gives the dark palette's colours.
#[test]
fn lines_over_the_map_stand_out_on_every_ground_in_light_and_dark() {
    let (light_css, dark_css) = STYLE
        .split_once("@media (prefers-color-scheme: dark)")
        .unwrap();
    for line in [Line::MOVE, Line::RETREAT, Line::FIRE] {
        stands_out_on_every_ground(&line);
        for (css, colour) in [(light_css, line.light), (dark_css, line.dark)] {
            for rule in [
                format!(".{}{{stroke:{colour}}}", line.class),
                format!(".{}-head{{fill:{colour}}}", line.class),
            ] {
                assert!(css.contains(&rule), "board.css lacks {rule}");
            }
        }
    }
    assert!(light_css.contains(&format!(".b-casing{{stroke:{}}}", Line::CASING.light)));
    assert!(dark_css.contains(&format!(".b-casing{{stroke:{}}}", Line::CASING.dark)));
    assert!(light_css.contains(&format!(".{}{{fill:{}}}", ZONE.0, ZONE.1)));
    assert!(dark_css.contains(&format!(".{}{{fill:{}}}", ZONE.0, ZONE.2)));
}

/// A move's path, a retreat and a fire line: drawn as data gives them, each with its title,
/// arrowhead and casing, at least 2.5 px wide on a 390-px phone, taking no clicks, and
/// named in the legend; a watch zone tints each of its cells.
#[test]
fn paths_fire_lines_and_zones_are_drawn_from_data_and_named_in_the_legend() {
    for grid in [
        Grid::Hex { cols: 16, rows: 12 },
        Grid::Square { cols: 26, rows: 24 },
    ] {
        let mut b = sample(grid);
        b.highlights = vec![
            Highlight::Path {
                cells: vec![At::new(0, 0), At::new(1, 0), At::new(2, 1)],
                title: "p1 moved A1-B1-C2".into(),
            },
            Highlight::Retreat {
                cells: vec![At::new(2, 0), At::new(2, 1)],
                title: "p2 retreated".into(),
            },
            Highlight::Fire {
                from: At::new(0, 0),
                to: At::new(2, 1),
                title: "p1 fired at C2".into(),
            },
            Highlight::Zone {
                cells: vec![At::new(1, 0), At::new(1, 1)],
                title: "watched by S1".into(),
            },
        ];
        let svg = render(&b);
        for (kind, title, class) in [
            ("path", "p1 moved A1-B1-C2", "b-path"),
            ("retreat", "p2 retreated", "b-retreat"),
            ("fire", "p1 fired at C2", "b-fire"),
        ] {
            let needle = format!(
                r#"<g class="b-hl" data-highlight="{kind}" pointer-events="none"><title>{title}</title>"#
            );
            let part = svg
                .split(&needle)
                .nth(1)
                .unwrap_or_else(|| panic!("{kind}"));
            let part = part.split("</g>").next().unwrap();
            assert!(part.contains(r#"<polyline class="b-casing""#), "{kind}");
            assert!(
                part.contains(&format!(r#"<polyline class="{class}""#)),
                "{kind}"
            );
            // A dot where it starts and an arrowhead where it ends.
            assert!(
                part.contains(&format!(r#"<circle class="{class}-head""#)),
                "{kind}"
            );
            assert!(
                part.contains(&format!(r#"<polygon class="{class}-head""#)),
                "{kind}"
            );
            let width: f64 = part
                .split(&format!(r#"<polyline class="{class}""#))
                .nth(1)
                .unwrap()
                .split("stroke-width=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            assert!(width * PHONE / b.width() >= 2.5 - 0.05, "{kind}: {width}");
            // A retreat is dotted; a move and a fire are solid.
            assert_eq!(
                part.contains(r#"stroke-dasharray="0.0 "#),
                kind == "retreat",
                "{kind}"
            );
        }
        let zone = svg
            .split(r#"data-highlight="zone" pointer-events="none"><title>watched by S1</title>"#)
            .nth(1)
            .unwrap()
            .split("</g>")
            .next()
            .unwrap();
        assert_eq!(zone.matches(r#"class="b-zone""#).count(), 2);
        for name in ["moved", "retreated", "fire", "watched"] {
            assert!(svg.contains(&format!(">{name}</text>")), "legend: {name}");
        }
        // Tints and rings are drawn under the pieces, lines over them; none takes clicks.
        let (before, after) = svg.split_once(r#"<g class="b-pieces">"#).unwrap();
        assert!(before.contains(r#"data-highlight="zone""#));
        for kind in ["path", "retreat", "fire"] {
            let needle = format!(r#"data-highlight="{kind}""#);
            assert!(
                !before.contains(&needle) && after.contains(&needle),
                "{kind}"
            );
        }
        assert_eq!(
            svg.matches("data-highlight=").count(),
            svg.matches(r#"pointer-events="none""#).count()
        );
    }
}

/// Issue 38, "the board shows what the text places": a road through cells (a highway, solid;
/// the road ahead, dashed) is drawn under the pieces as a core over its casing with no
/// arrowhead, legible on every ground in light and dark; a named area (drop zones) tints each
/// of its cells; the legend names both; neither takes clicks; the stylesheet darkens both.
#[test]
fn roads_and_named_areas_are_drawn_under_the_pieces_and_named_in_the_legend() {
    let (light_css, dark_css) = STYLE
        .split_once("@media (prefers-color-scheme: dark)")
        .unwrap();
    for line in [Line::ROAD, Line::ROAD_AHEAD] {
        stands_out_on_every_ground(&line);
        for (css, colour) in [(light_css, line.light), (dark_css, line.dark)] {
            for rule in [
                format!(".{}{{stroke:{colour}}}", line.class),
                format!(".{}-dot{{fill:{colour}}}", line.class),
            ] {
                assert!(css.contains(&rule), "board.css lacks {rule}");
            }
        }
    }
    assert!(light_css.contains(&format!(".{}{{fill:{}}}", AREA.0, AREA.1)));
    assert!(dark_css.contains(&format!(".{}{{fill:{}}}", AREA.0, AREA.2)));
    let mut b = sample(Grid::Hex { cols: 16, rows: 12 });
    b.highlights = vec![
        Highlight::Road {
            cells: vec![At::new(0, 0), At::new(1, 0), At::new(2, 1)],
            line: Line {
                name: "the highway",
                ..Line::ROAD
            },
            title: "the highway A1 B1 C2".into(),
        },
        Highlight::Road {
            cells: vec![At::new(2, 1), At::new(5, 4)],
            line: Line::ROAD_AHEAD,
            title: "the road ahead".into(),
        },
        Highlight::Road {
            cells: vec![At::new(7, 7)],
            line: Line::ROAD,
            title: "a stub".into(),
        },
        Highlight::Area {
            cells: vec![At::new(1, 0), At::new(1, 1), At::new(2, 0)],
            name: "drop zone".into(),
            title: "DZ X".into(),
        },
    ];
    let svg = render(&b);
    let part = |needle: &str| -> String {
        svg.split(needle)
            .nth(1)
            .unwrap_or_else(|| panic!("{needle}"))
            .split("</g>")
            .next()
            .unwrap()
            .to_owned()
    };
    let highway = part(
        r#"data-highlight="road" data-road="the highway" pointer-events="none"><title>the highway A1 B1 C2</title>"#,
    );
    assert!(highway.contains(r#"<polyline class="b-casing""#));
    assert!(highway.contains(r#"<polyline class="b-road""#));
    assert!(!highway.contains("stroke-dasharray") && !highway.contains("<polygon"));
    // Through the three cells' centres.
    let points = highway
        .split(r#"<polyline class="b-road""#)
        .nth(1)
        .unwrap()
        .split("points=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_owned();
    assert_eq!(points.split(' ').count(), 3, "{points}");
    let ahead =
        part(r#"data-road="road ahead" pointer-events="none"><title>the road ahead</title>"#);
    assert!(ahead.contains("stroke-dasharray"), "{ahead}");
    let stub = part(r#"<title>a stub</title>"#);
    assert!(stub.contains(r#"<circle class="b-road-dot""#), "{stub}");
    let area = part(
        r#"data-highlight="area" data-area="drop zone" pointer-events="none"><title>DZ X</title>"#,
    );
    assert_eq!(area.matches(r#"class="b-area""#).count(), 3);
    for name in ["the highway", "road ahead", "road", "drop zone"] {
        assert!(svg.contains(&format!(">{name}</text>")), "legend: {name}");
    }
    let (before, _) = svg.split_once(r#"<g class="b-pieces">"#).unwrap();
    for needle in [r#"data-highlight="road""#, r#"data-highlight="area""#] {
        assert!(before.contains(needle), "{needle} under the pieces");
    }
    assert_eq!(
        svg.matches("data-highlight=").count(),
        svg.matches(r#"pointer-events="none""#).count()
    );
}

/// Issue 18's drawn map: hexsides as data — a cell and one of its six edges, by kind —
/// drawn along that edge (the same edge seen from either cell), named in the legend, taking
/// no clicks, each kind legible on every ground in light and dark like the lines above.
#[test]
fn hexsides_are_drawn_along_their_edges_and_named_in_the_legend() {
    // Neighbours across each edge, both ways, in even and odd columns.
    for at in [At::new(2, 2), At::new(3, 2)] {
        for e in Edge::ALL {
            let there = e.across(at).unwrap();
            assert_eq!(Edge::between(at, there), Some(e));
            let back = Edge::between(there, at).unwrap();
            assert_eq!(back.across(there), Some(at), "{e:?} of {at:?}");
        }
    }
    assert_eq!(Edge::N.across(At::new(0, 0)), None);
    assert_eq!(Edge::between(At::new(0, 0), At::new(2, 0)), None);
    // Six kinds to a cell's six edges, each kind in some round.
    for first in 0..=SideKind::ALL.len() - Edge::ALL.len() {
        let kinds = &SideKind::ALL[first..first + Edge::ALL.len()];
        let mut b = sample(Grid::Hex { cols: 3, rows: 3 });
        b.hexsides = kinds
            .iter()
            .zip(Edge::ALL)
            .map(|(kind, edge)| Hexside {
                at: At::new(1, 1),
                edge,
                kind: *kind,
                title: format!("a {} hexside", kind.line().name),
            })
            .collect();
        let svg = render(&b);
        let (_, after_cells) = svg.split_once(r#"<g class="b-hexsides">"#).unwrap();
        let (sides, _) = after_cells.split_once(r#"<g class="b-pieces">"#).unwrap();
        assert_eq!(sides.matches(r#"<g class="b-side""#).count(), 6);
        assert_eq!(sides.matches(r#"pointer-events="none""#).count(), 6);
        for (kind, edge) in kinds.iter().zip(Edge::ALL) {
            let line = kind.line();
            let needle = format!(
                r#"data-side="B2:{}" data-kind="{}" pointer-events="none"><title>a {} hexside</title>"#,
                edge.name(),
                line.name,
                line.name
            );
            let part = sides
                .split(&needle)
                .nth(1)
                .unwrap_or_else(|| panic!("{needle}"));
            let part = part.split("</g>").next().unwrap();
            assert!(part.contains(r#"<line class="b-casing""#), "{}", line.name);
            assert!(part.contains(&format!(r#"<line class="{}""#, line.class)));
            // Along the edge: both ends lie between the two corners it joins.
            let coords: Vec<f64> = ["x1", "y1", "x2", "y2"]
                .iter()
                .map(|k| {
                    part.rsplit(&format!(r#" {k}=""#))
                        .next()
                        .unwrap()
                        .split('"')
                        .next()
                        .unwrap()
                        .parse()
                        .unwrap()
                })
                .collect();
            let (cx, cy) = b.centre(At::new(1, 1));
            for (x, y) in [(coords[0], coords[1]), (coords[2], coords[3])] {
                let r = ((x - cx).powi(2) + (y - cy).powi(2)).sqrt();
                assert!(r > HEX * 0.85 && r <= HEX + 0.1, "{}: {r}", line.name);
            }
            let (mx, my) = ((coords[0] + coords[2]) / 2.0, (coords[1] + coords[3]) / 2.0);
            let there = b.centre(edge.across(At::new(1, 1)).unwrap());
            let mid = ((cx + there.0) / 2.0, (cy + there.1) / 2.0);
            assert!(
                (mx - mid.0).abs() < 0.2 && (my - mid.1).abs() < 0.2,
                "{}: the edge's middle is halfway to the cell across",
                line.name
            );
            assert!(
                svg.contains(&format!(">{}</text>", line.name)),
                "legend: {}",
                line.name
            );
        }
    }
    // No hexside, no legend entry; a square grid draws none.
    let plain = render(&sample(Grid::Hex { cols: 3, rows: 2 }));
    assert!(!plain.contains("b-hexsides") && !plain.contains(">stream</text>"));
    let mut square = sample(Grid::Square { cols: 3, rows: 2 });
    square.hexsides = SideKind::ALL
        .iter()
        .zip(Edge::ALL)
        .map(|(kind, edge)| Hexside {
            at: At::new(1, 1),
            edge,
            kind: *kind,
            title: "a hexside".into(),
        })
        .collect();
    assert!(!render(&square).contains("b-side"));
    // Legible in both palettes, as the lines over the map are.
    let (light_css, dark_css) = STYLE
        .split_once("@media (prefers-color-scheme: dark)")
        .unwrap();
    for kind in SideKind::ALL {
        let line = kind.line();
        stands_out_on_every_ground(&line);
        for (css, colour) in [(light_css, line.light), (dark_css, line.dark)] {
            let rule = format!(".{}{{stroke:{colour}}}", line.class);
            assert!(css.contains(&rule), "board.css lacks {rule}");
        }
    }
}

#[test]
fn no_text_is_under_11_px_on_a_390_px_phone() {
    for grid in [
        Grid::Hex { cols: 26, rows: 20 },
        Grid::Square { cols: 26, rows: 24 },
        points(100, 120).grid,
    ] {
        let b = sample(grid);
        let svg = render(&b);
        let width = b.width();
        for part in svg.split("font-size=\"").skip(1) {
            let size: f64 = part.split('"').next().unwrap().parse().unwrap();
            assert!(size * PHONE / width >= MIN_PX, "{size} at width {width}");
        }
    }
}

/// Issue 38, Hour of Glory's squares to tap on a phone: a square grid whose squares would be
/// under 32 px at 390 px carries the width at which they are 32 px (`data-tap-width`); a grid
/// whose squares are large enough, or a hex grid, carries none.
#[test]
fn a_square_grid_too_fine_for_a_finger_says_how_wide_to_draw_it() {
    let fine = sample(Grid::Square { cols: 28, rows: 24 });
    let px = fine
        .tap_width()
        .expect("28 squares across 390 px are too small");
    assert!((px * SQUARE / fine.width() - TAP_PX).abs() < 0.1, "{px}");
    assert!(render(&fine).contains(&format!(r#" data-tap-width="{px:.0}""#)));
    for coarse in [
        sample(Grid::Square { cols: 6, rows: 6 }),
        sample(Grid::Hex { cols: 16, rows: 12 }),
    ] {
        assert_eq!(coarse.tap_width(), None);
        assert!(!render(&coarse).contains("data-tap-width"));
    }
}

/// Issue 38, Where Eagles Dare's "nearly empty grid": a hex board drawing only some of its hexes
/// outlines the others faintly, in one path under the cells (one outline each), so it reads
/// as a map; a board drawing every hex carries no such path.
#[test]
fn a_hex_board_outlines_the_hexes_it_does_not_draw() {
    let mut b = sample(Grid::Hex { cols: 16, rows: 12 });
    let svg = render(&b);
    let grid = svg
        .split(r#"<path class="b-grid""#)
        .nth(1)
        .expect("the undrawn hexes are outlined");
    let grid = &grid[..grid.find("/>").unwrap()];
    assert_eq!(grid.matches('M').count(), 16 * 12 - b.cells.len());
    assert!(svg.find(r#"class="b-grid""#).unwrap() < svg.find(r#"<g class="b-cells">"#).unwrap());
    let (light_css, dark_css) = STYLE
        .split_once("@media (prefers-color-scheme: dark)")
        .unwrap();
    assert!(light_css.contains(".b-grid{stroke:#d8cfb4}") && dark_css.contains(".b-grid{stroke:"));
    b.cells = (0..16)
        .flat_map(|c| (0..12).map(move |r| At::new(c, r)))
        .map(|at| Cell {
            at,
            label: format!("{},{}", at.col, at.row),
            ground: Ground::Clear,
            mark: None,
            title: String::new(),
        })
        .collect();
    assert!(!render(&b).contains(r#"class="b-grid""#));
}

/// Issue 38: two counters sharing a hex (For Honor and Glory's regular and gun at K7) never run
/// their labels into each other, on every hex board from 6 to 18 columns (beyond, the least
/// font outgrows even a lone counter's label: a lone counter checks it): a slot that carries
/// text is wide enough for a two-letter label and (label over value) tall enough for both, and
/// no two slots with text overlap. Up to For Honor and Glory's 12 columns both stand side by side,
/// each with its label over its value; they fell to quarter slots before, where "Re" and "Ar"
/// ran together; wider boards stack them, the top one labelled.
#[test]
fn two_counters_sharing_a_hex_keep_their_labels_apart() {
    use super::layout::{slots, Text};
    for cols in 6..=18 {
        let board = sample(Grid::Hex { cols, rows: 10 });
        let (inner, font) = (board.inner(), board.min_font());
        let lone = slots(&[Shape::Counter], inner, font)[0];
        assert!(
            lone.hw * 2.0 >= font * 1.45,
            "{cols} columns: a lone counter"
        );
        let s = slots(&[Shape::Counter, Shape::Counter], inner, font);
        let texted: Vec<_> = s.iter().filter(|t| t.text != Text::Badge).collect();
        assert!(!texted.is_empty(), "{cols} columns: no label at all");
        for slot in &texted {
            assert!(
                slot.hw * 2.0 >= font * 1.45,
                "{cols} columns: a two-letter label (\"Re\", 1.44 em in bold) is wider than its counter: {slot:?}, font {font}"
            );
            if slot.text == Text::Stacked {
                assert!(
                    slot.hh * 2.0 >= font * 1.9,
                    "{cols} columns: the label runs into the value: {slot:?}, font {font}"
                );
            }
        }
        if let [a, b] = texted[..] {
            assert!(
                (b.dx - a.dx).abs() > a.hw + b.hw || (b.dy - a.dy).abs() > a.hh + b.hh,
                "{cols} columns: two labelled counters overlap: {a:?} {b:?}"
            );
        }
        if cols <= 12 {
            assert_eq!(
                texted.len(),
                2,
                "{cols} columns: both labelled side by side"
            );
        }
    }
}

/// Issue 38: a legend name too long for a third of the drawing's width (a legend column held
/// about 17 characters, and a longer name ran into the next column's swatch) takes the legend to
/// two swatches a row, or one: every name ends before the next column begins.
#[test]
fn a_long_legend_name_takes_the_legend_to_fewer_columns_and_overlaps_nothing() {
    for (cols, long) in [
        (6, "the Intruder's escape party"),
        (12, "the Allied XXX Corps, Guards Armored Division"),
        (3, "blue"),
    ] {
        let board = Board {
            sides: vec!["red".into(), long.into()],
            ..sample(Grid::Hex { cols, rows: 4 })
        };
        let (font, width) = (board.min_font(), board.width());
        let svg = render(&board);
        let legend = &svg[svg.find(r#"<g class="b-legend">"#).unwrap()..];
        // Each name: where it starts and how far it reaches (0.56 `font` a character).
        let mut names: Vec<(f64, f64, f64)> = Vec::new();
        for part in legend
            .split(r##"<text class="b-ink" fill="#333" x=""##)
            .skip(1)
        {
            let x: f64 = part[..part.find('"').unwrap()].parse().unwrap();
            let y_at = part.find(r#"y=""#).unwrap() + 3;
            let y: f64 = part[y_at..y_at + part[y_at..].find('"').unwrap()]
                .parse()
                .unwrap();
            let text = &part[part.find('>').unwrap() + 1..part.find("</text>").unwrap()];
            let chars = text.replace("&#39;", "'").chars().count() as f64;
            names.push((x, y, x + chars * 0.56 * font));
        }
        assert!(names.len() >= 2, "{cols} columns: the sides are named");
        for (x, y, end) in &names {
            assert!(
                *end <= width,
                "{cols} columns: a name runs off the drawing at {x}"
            );
            for (x2, y2, _) in &names {
                if y2 == y && x2 > x {
                    assert!(
                        *end <= x2 - font * 1.3,
                        "{cols} columns: a name from {x} reaches {end}, past the swatch at {x2}"
                    );
                }
            }
        }
    }
}
