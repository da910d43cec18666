//! Where Eagles Dare's drawn board (`drawn.rs`, issue 20) and orders by pointing at it: the
//! window with the series' hex labels, the loaded map's terrain, units and markers, the last
//! move's path; the German secrets (the flak's types before the flip, S5.4; the off-map
//! display, 5.0) never on another seat's board, by a property over bot games; and every pointed
//! order one the rules accept.

use std::collections::VecDeque;

use despatch_core::engine::board::{At, Highlight, Pointed};
use despatch_core::engine::bot::{self, MemorySecrets};
use despatch_core::engine::dice::hidden_stream;
use despatch_core::engine::game::{Game, Move};
use despatch_core::engine::ruleset::{
    BoardContext, Ctx, DiceSource, Rules, Seat, SeatDef, Setup, Viewer,
};
use despatch_core::rules;
use despatch_core::rules::where_eagles_dare::data::DATA;
use despatch_core::rules::where_eagles_dare::drawn::{last_move, window, MAX_COLS};
use despatch_core::rules::where_eagles_dare::hex::Hex;
use despatch_core::rules::where_eagles_dare::places;
use despatch_core::rules::where_eagles_dare::state::{Bridge, OffMap, Phase, Side, State, Unit};
use despatch_core::rules::where_eagles_dare::WhereEaglesDare;
use serde_json::json;

use crate::svg_checks;
use svg_checks::{legible_on_a_phone, self_contained};

fn hex(t: &str) -> Hex {
    Hex::parse(t).unwrap_or_else(|| panic!("{t} is a hex"))
}

fn seat(name: &str) -> Seat {
    Seat::parse(name).unwrap()
}

fn state(scenario: &str, options: serde_json::Value) -> State {
    let setup = Setup {
        game_id: "board".into(),
        scenario: scenario.into(),
        options,
        seats: SeatDef::named_by_id(&["allied", "german"]).unwrap(),
    };
    WhereEaglesDare
        .setup(&setup, &mut hidden_stream(&[7; 32], "board", 0))
        .unwrap()
}

fn svg(s: &State, viewer: &Viewer, context: &BoardContext) -> String {
    WhereEaglesDare
        .board_svg(s, viewer, context)
        .expect("Where Eagles Dare draws its board")
}

/// A small map: woods in column 41, a town at 42.229, the rest clear, a road up column 41.
fn small_map() -> String {
    let mut text = String::new();
    for c in 38..=45u32 {
        for r in 224..=234u32 {
            let t = match (c, r) {
                (41, _) => "woods road",
                (42, 229) => "town",
                _ => "clear",
            };
            text.push_str(&format!("hex {c}.{r} {t}\n"));
        }
    }
    text
}

/// An Allied impulse with no chit in play (no activation check) and nothing pending.
fn allied_impulse(s: &mut State) {
    s.phase = Phase::Activation;
    s.impulse = Side::Allied;
    s.window = None;
    s.pending = None;
    s.chit = None;
}

fn put(s: &mut State, unit: &str, side: Side, at: &str) {
    s.units.insert(
        unit.into(),
        Unit {
            side,
            hex: hex(at),
            column: false,
        },
    );
}

#[test]
fn board_issue_20_draws_a_window_of_the_map_with_series_hex_labels_terrain_units_and_markers() {
    let mut s = state("a-ride-in-the-country", json!({ "map": small_map() }));
    put(&mut s, "x-inf", Side::Allied, "41.230");
    s.units.get_mut("x-inf").unwrap().column = true;
    put(&mut s, "y-ger", Side::German, "43.228");
    s.rubble.push(hex("42.230"));
    s.roadblocks.push((hex("40.229"), Side::German));
    s.minefields.push(hex("44.229"));
    let w = window(&s);
    assert!(w.cols <= MAX_COLS && w.c0 % 2 == 1, "{w:?}");
    let context = BoardContext {
        recent_lines: vec![
            "german moves y-ger from 43.229 to 43.228".into(),
            "allied moves x-inf from 41.232 to 41.231 41.230 in Column".into(),
        ],
        last_roll: None,
    };
    let b = svg(&s, &Viewer::Seat(seat("allied")), &context);
    self_contained(&b).unwrap();
    legible_on_a_phone(&b).unwrap();
    // The series' hex ids label the cells; the loaded map's terrain is their ground.
    assert!(
        b.contains(r#"data-cell="41.230" data-ground="forest""#),
        "woods drawn as forest"
    );
    assert!(b.contains(r#"data-cell="42.229" data-ground="town""#));
    assert!(b.contains(r#"data-cell="40.230" data-ground="clear""#));
    assert!(b.contains("<title>41.230: woods, road; Club Route (4.0)</title>"));
    // Units by side with their Column; markers.
    assert!(b.contains(r#"class="b-piece side-0 s-column" data-piece="x-inf" data-at="41.230""#));
    assert!(b.contains(r#"class="b-piece side-1" data-piece="y-ger" data-at="43.228""#));
    for (id, at) in [
        ("m-rubble-0", "42.230"),
        ("m-roadblock-0", "40.229"),
        ("m-minefield-0", "44.229"),
        ("m-club-route", "42.229"),
    ] {
        assert!(
            b.contains(&format!(r#"data-piece="{id}" data-at="{at}""#)),
            "{id} at {at}"
        );
    }
    // The last move's path, from its start hex; Club Route drawn as a road.
    assert_eq!(
        last_move(&context.recent_lines),
        Some((
            "x-inf".to_owned(),
            vec![hex("41.232"), hex("41.231"), hex("41.230")]
        ))
    );
    assert!(b.contains(r#"data-highlight="path""#));
    assert!(b.contains("the last move: x-inf 41.232 41.231 41.230"));
    assert!(b.contains(
        r#"data-highlight="road" data-road="Club Route" pointer-events="none"><title>Club Route (4.0), Hell&#39;s Highway as designated: 41.232 41.231 41.230, then the Club Route marker at 42.229</title>"#
    ));
    // The edge letters are explained in the series' numbers.
    assert!(b.contains(&format!("Edges: A = column {}", w.c0)));
}

#[test]
fn board_without_a_map_draws_the_hexes_that_matter_and_lists_units_outside_the_window() {
    let mut s = state("a-ride-in-the-country", json!({}));
    put(&mut s, "x-inf", Side::Allied, "41.230");
    put(&mut s, "far", Side::Allied, "14.89");
    let b = svg(&s, &Viewer::Spectator, &BoardContext::default());
    legible_on_a_phone(&b).unwrap();
    // The unit's hex and its neighbours, Club Route, the marker: drawn clear, terrain unknown.
    for h in hex("41.230").neighbours() {
        assert!(b.contains(&format!(r#"data-cell="{h}""#)), "{h} drawn");
    }
    assert!(b.contains("42.229: no map loaded"));
    // A hex that matters to nothing is not drawn.
    assert!(!b.contains(r#"data-cell="45.222""#));
    assert!(b.contains(r#"data-piece="x-inf""#));
    assert!(!b.contains(r#"data-piece="far""#));
    assert!(b.contains("Outside this window: far 14.89."));
}

#[test]
fn board_s5_4_the_flak_is_face_down_on_the_allied_board_until_flipped() {
    let mut s = state("the-best-laid-plans", json!({}));
    assert!(!s.flak.is_empty() && !s.flak_flipped);
    let (unit, kind) = s
        .flak
        .iter()
        .next()
        .map(|(u, t)| (u.clone(), t.clone()))
        .unwrap();
    let at = s.units[&unit].hex;
    // A window around the flak.
    s.units.retain(|n, _| s.flak.contains_key(n));
    let context = BoardContext::default();
    let german = svg(&s, &Viewer::Seat(seat("german")), &context);
    let piece = |b: &str| -> String {
        let i = b
            .find(&format!(r#"data-piece="{unit}""#))
            .expect("the flak is drawn");
        let start = b[..i].rfind("<g ").unwrap();
        b[start..start + b[start..].find("</g></g>").unwrap_or(200)].to_owned()
    };
    if window(&s).contains(at) {
        assert!(piece(&german).contains(&format!("{kind} flak (S5.4)")));
        for viewer in [Viewer::Seat(seat("allied")), Viewer::Spectator] {
            let b = svg(&s, &viewer, &context);
            let p = piece(&b);
            assert!(
                p.contains("s-face-down") && p.contains("flak, face down"),
                "{p}"
            );
            assert!(
                !b.contains(&format!("{kind} flak")),
                "{viewer:?} sees {kind}"
            );
        }
    }
    s.flak_flipped = true;
    let allied = svg(&s, &Viewer::Seat(seat("allied")), &context);
    assert!(
        allied.contains(&format!("{unit} {kind}")),
        "flipped: the type is public"
    );
}

#[test]
fn board_5_0_the_off_map_display_is_a_note_on_the_german_board_only() {
    let s = state("campaign", json!({}));
    assert!(!s.offmap.is_empty());
    let context = BoardContext::default();
    assert!(svg(&s, &Viewer::Seat(seat("german")), &context).contains("Off map (German only, 5.0)"));
    for viewer in [Viewer::Seat(seat("allied")), Viewer::Spectator] {
        assert!(!svg(&s, &viewer, &context).contains("Off map"));
    }
}

#[test]
fn board_bridges_baileys_and_ferries_are_markers_on_their_hexes() {
    let mut s = state("a-ride-in-the-country", json!({}));
    let son = DATA.bridges.iter().find(|b| b.name == "son").unwrap();
    s.units.clear();
    put(&mut s, "x-inf", Side::Allied, &son.hexes.0.to_string());
    s.bridges.insert(
        "son".into(),
        Bridge {
            destroyed: true,
            ..Bridge::default()
        },
    );
    let b = svg(&s, &Viewer::Spectator, &BoardContext::default());
    assert!(b.contains(&format!(
        r#"data-piece="m-bridge-son-destroyed" data-at="{}""#,
        son.hexes.0
    )));
}

#[test]
fn pointing_a_unit_then_an_adjacent_hex_makes_a_move_the_rules_accept() {
    let mut s = state("a-ride-in-the-country", json!({ "map": small_map() }));
    allied_impulse(&mut s);
    put(&mut s, "x-inf", Side::Allied, "41.230");
    put(&mut s, "y-ger", Side::German, "42.230");
    let allied = seat("allied");
    let pointed = WhereEaglesDare.pointing(&s, &allied);
    let mine: Vec<_> = pointed
        .iter()
        .filter(|p| p.piece == "x-inf" && p.order.starts_with("move "))
        .collect();
    assert!(!mine.is_empty());
    // Never a move into the German's hex (that is a fire or an assault), never the German's
    // unit.
    assert!(mine.iter().all(|p| p.cell != "42.230"));
    assert!(pointed.iter().all(|p| p.piece != "y-ger"));
    let drawn = svg(&s, &Viewer::Seat(allied.clone()), &BoardContext::default());
    for p in &mine {
        assert!(
            drawn.contains(&format!(r#"data-cell="{}""#, p.cell)),
            "{p:?}"
        );
        let h = hex(&p.cell);
        assert!(h.adjacent(s.units[&p.piece].hex));
        let cmd = WhereEaglesDare.parse(&s, &allied, &p.order).unwrap();
        let mut copy = s.clone();
        let mut dice = VecDeque::from([5; 8]);
        WhereEaglesDare
            .apply(
                &mut copy,
                &allied,
                &cmd,
                &mut Ctx::new(DiceSource::Scripted(&mut dice), None),
            )
            .unwrap_or_else(|e| panic!("{}: {e}", p.order));
        assert_eq!(copy.units[&p.piece].hex, h);
    }
    assert!(mine.iter().any(|p| p.order == "move x-inf 41.231"));
    // The German is not to act: nothing to point at.
    assert!(WhereEaglesDare.pointing(&s, &seat("german")).is_empty());
}

/// The order `order` played on a copy of `s` by `seat` (dice all 5): the state after it.
fn played(s: &State, seat: &Seat, order: &str) -> State {
    let cmd = WhereEaglesDare
        .parse(s, seat, order)
        .unwrap_or_else(|e| panic!("{order}: {e}"));
    let mut copy = s.clone();
    let mut dice = VecDeque::from([5; 8]);
    WhereEaglesDare
        .apply(
            &mut copy,
            seat,
            &cmd,
            &mut Ctx::new(DiceSource::Scripted(&mut dice), None),
        )
        .unwrap_or_else(|e| panic!("{order}: {e}"));
    copy
}

#[test]
fn pointing_decision_14_a_path_hex_after_hex_and_fire_and_assault_at_an_enemy_hex() {
    let mut s = state("a-ride-in-the-country", json!({ "map": small_map() }));
    allied_impulse(&mut s);
    put(&mut s, "x-inf", Side::Allied, "41.230");
    put(&mut s, "y-ger", Side::German, "42.230");
    let allied = seat("allied");
    let pointed = WhereEaglesDare.pointing(&s, &allied);
    // A move is a path: the player goes on pointing hexes next to the last one.
    let first = pointed
        .iter()
        .find(|p| p.order == "move x-inf 41.231")
        .expect("a move to 41.231");
    let path = first.path.as_ref().expect("a move is a path");
    assert_eq!((path.head.as_str(), path.tail.as_str()), ("move x-inf", ""));
    assert_eq!(path.order(&["41.231"]), first.order);
    let drawn = svg(&s, &Viewer::Seat(allied.clone()), &BoardContext::default());
    let next = drawn
        .split(r#"data-cell="41.231""#)
        .nth(1)
        .unwrap()
        .split("data-next=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_owned();
    let mut expected: Vec<String> = hex("41.231")
        .neighbours()
        .iter()
        .map(Hex::to_string)
        .filter(|h| drawn.contains(&format!(r#"data-cell="{h}""#)))
        .collect();
    let mut got: Vec<String> = next.split(' ').map(str::to_owned).collect();
    expected.sort();
    got.sort();
    assert_eq!(got, expected, "the drawn cells next to 41.231");
    assert!(got.contains(&"41.232".to_owned()));
    // The two-hex path the page writes is accepted, and the unit ends where it was pointed.
    let two = path.order(&["41.231", "41.232"]);
    assert_eq!(two, "move x-inf 41.231 41.232");
    assert_eq!(played(&s, &allied, &two).units["x-inf"].hex, hex("41.232"));
    // In Column, the path keeps it: `column` stays at the end as hexes are added.
    s.units.get_mut("x-inf").unwrap().column = true;
    let pointed_column = WhereEaglesDare.pointing(&s, &allied);
    let p = pointed_column
        .iter()
        .find(|p| p.cell == "41.231" && p.order.starts_with("move "))
        .unwrap();
    assert_eq!(p.order, "move x-inf 41.231 column");
    let path = p.path.as_ref().unwrap();
    let two = path.order(&["41.231", "41.232"]);
    assert_eq!(two, "move x-inf 41.231 41.232 column");
    assert!(played(&s, &allied, &two).units["x-inf"].column);
    s.units.get_mut("x-inf").unwrap().column = false;
    // The German's hex: a fire for each weapon class, the map's terrain and the range filled
    // in, and an assault; each accepted, each leaving the fire (or assault) to its result.
    let at_german: Vec<&str> = pointed
        .iter()
        .filter(|p| p.piece == "x-inf" && p.cell == "42.230")
        .map(|p| p.order.as_str())
        .collect();
    for class in [
        "small-arms",
        "mortar",
        "indirect-he",
        "direct-he",
        "at",
        "flak",
    ] {
        let order = format!("fire x-inf 42.230 {class} on clear -- range 1");
        assert!(
            at_german.contains(&order.as_str()),
            "{order}: {at_german:?}"
        );
    }
    assert!(at_german.contains(&"assault x-inf 42.230"), "{at_german:?}");
    assert!(pointed
        .iter()
        .all(|p| p.path.is_none() || p.order.starts_with("move ")));
    // x-inf is outside the order of battle, its class the players' (decision 12): it is
    // offered barrages too, which wait for no result.
    assert!(at_german.contains(&"barrage x-inf 42.230 light pass 0-5"));
    for order in &at_german {
        let after = played(&s, &allied, order);
        if order.starts_with("barrage ") {
            assert!(after.pending.is_none(), "{order}");
            continue;
        }
        if order.starts_with("assault ") {
            // S4.4: declared; the German's opportunity fire first, its die after.
            let a = after.assault.expect("an assault declared");
            assert_eq!((a.unit.as_str(), a.hex), ("x-inf", hex("42.230")));
            assert!(after.window.is_some() && after.pending.is_none(), "{order}");
            continue;
        }
        let pending = after.pending.expect("a fire waits for its result");
        assert_eq!(
            (pending.unit.as_str(), pending.hex),
            ("x-inf", hex("42.230"))
        );
    }
    // No fire at a hex with no enemy unit, and none by the German, who is not to act.
    assert!(pointed
        .iter()
        .filter(|p| p.order.starts_with("fire ") || p.order.starts_with("assault "))
        .all(|p| p.cell == "42.230"));
    // In the German's opportunity window after the Allied move, the German fires back: an
    // opportunity fire at the hex the Allied unit moved into, the range filled in.
    let moved = played(&s, &allied, "move x-inf 41.231");
    assert_eq!(
        moved.window,
        Some(hex("41.231")),
        "the German's window is open"
    );
    let german = WhereEaglesDare.pointing(&moved, &seat("german"));
    assert!(
        german.iter().any(|p| p.piece == "y-ger"
            && p.order == "opfire y-ger 41.231 small-arms on woods -- range 1"),
        "{german:?}"
    );
    assert!(
        german.iter().all(|p| !p.order.starts_with("fire ")),
        "only opportunity fire in the window: {german:?}"
    );
}

#[test]
fn board_hexsides_streams_bridges_and_the_culvert_are_drawn_along_their_edges() {
    // The loaded map's hexsides, seen from the hex drawn: 41.231 is below 41.230 (its south
    // edge); 42.230 is the next column's hex to the south-east of 41.230 (decision 11: an odd
    // column's hex touches rows r-1 and r of the columns beside it).
    let map = small_map()
        + "side 41.230 41.231 stream
side 41.230 42.230 crest
side 40.229 41.230 impassable
           side 41.229 41.230 raised
";
    let mut s = state("a-ride-in-the-country", json!({ "map": map }));
    put(&mut s, "x-inf", Side::Allied, "41.230");
    let b = svg(&s, &Viewer::Spectator, &BoardContext::default());
    self_contained(&b).unwrap();
    legible_on_a_phone(&b).unwrap();
    for (side, kind, title) in [
        (
            "41.230:s",
            "stream",
            "41.230/41.231: stream (2.11), from the loaded map",
        ),
        (
            "41.230:se",
            "crest",
            "41.230/42.230: crest (2.13), from the loaded map",
        ),
        (
            "40.229:se",
            "impassable hexside",
            "40.229/41.230: impassable hexside (2.14), from the loaded map",
        ),
        (
            "41.229:s",
            "raised road",
            "41.229/41.230: raised road hexside (2.16), from the loaded map",
        ),
    ] {
        assert!(
            b.contains(&format!(
                r#"data-side="{side}" data-kind="{kind}" pointer-events="none"><title>{title}</title>"#
            )),
            "{side} {kind}"
        );
        assert!(b.contains(&format!(">{kind}</text>")), "legend: {kind}");
    }
    // Map or not, the key hexsides: a stream bridge (2.11) and the culvert (2.17) where the
    // window holds them.
    let culvert = DATA.culvert;
    let mut s = state("a-ride-in-the-country", json!({}));
    s.units.clear();
    put(&mut s, "x-inf", Side::Allied, &culvert.0.to_string());
    let b = svg(&s, &Viewer::Spectator, &BoardContext::default());
    assert!(
        b.contains(&format!(
            r#"data-kind="culvert" pointer-events="none"><title>{}/{}: the culvert (2.17)</title>"#,
            culvert.0, culvert.1
        )),
        "the culvert drawn"
    );
    assert!(b.contains(">culvert</text>"));
    let sb = &DATA.stream_bridges[0];
    let mut s = state("a-ride-in-the-country", json!({}));
    s.units.clear();
    put(&mut s, "x-inf", Side::Allied, &sb.hexes.0.to_string());
    let b = svg(&s, &Viewer::Spectator, &BoardContext::default());
    assert!(
        b.contains(&format!(
            r#"data-kind="bridge" pointer-events="none"><title>{}/{}: stream bridge {} (2.11)</title>"#,
            sb.hexes.0, sb.hexes.1, sb.name
        )),
        "the stream bridge drawn"
    );
}

/// The orders pointed for `piece` at `cell`, in the order given.
fn orders_at(pointed: &[Pointed], piece: &str, cell: &str) -> Vec<String> {
    pointed
        .iter()
        .filter(|p| p.piece == piece && p.cell == cell)
        .map(|p| p.order.clone())
        .collect()
}

/// The passing-face thresholds a pointed check offers, `<head> pass 0` … `<head> pass 0-8`.
fn every_threshold(head: &str) -> Vec<String> {
    (0..=8)
        .map(|n| {
            if n == 0 {
                format!("{head} pass 0")
            } else {
                format!("{head} pass 0-{n}")
            }
        })
        .collect()
}

#[test]
fn pointing_decision_14_and_15_a_suppressed_unit_rallies_at_its_own_hex_the_faces_chosen() {
    let mut s = state("a-ride-in-the-country", json!({ "map": small_map() }));
    allied_impulse(&mut s);
    put(&mut s, "x-inf", Side::Allied, "41.230");
    put(&mut s, "y-ger", Side::German, "42.230");
    let allied = seat("allied");
    // Nothing to rally from: no rally pointed.
    let pointed = WhereEaglesDare.pointing(&s, &allied);
    assert!(
        pointed.iter().all(|p| !p.order.starts_with("rally ")),
        "{pointed:?}"
    );
    // Suppressed: a rally at its own hex, one order for each threshold of passing faces.
    s.marks.entry("x-inf".into()).or_default().suppressed = true;
    let pointed = WhereEaglesDare.pointing(&s, &allied);
    let rallies: Vec<String> = orders_at(&pointed, "x-inf", "41.230")
        .into_iter()
        .filter(|o| o.starts_with("rally "))
        .collect();
    assert_eq!(rallies, every_threshold("rally x-inf"));
    // Each is accepted; with the die at 5, `pass 0-5` rallies and the Suppression comes off.
    for order in &rallies {
        played(&s, &allied, order);
    }
    let after = played(&s, &allied, "rally x-inf pass 0-5");
    assert!(!after.marks.get("x-inf").is_some_and(|m| m.suppressed));
    // A Cohesion Hit alone is rallied from too; the enemy's marked unit is not the Allied's.
    let mut s2 = s.clone();
    s2.marks.insert("x-inf".into(), Default::default());
    s2.marks.entry("x-inf".into()).or_default().cohesion = 1;
    s2.marks.entry("y-ger".into()).or_default().suppressed = true;
    let pointed = WhereEaglesDare.pointing(&s2, &allied);
    assert_eq!(
        orders_at(&pointed, "x-inf", "41.230")
            .into_iter()
            .filter(|o| o.starts_with("rally "))
            .count(),
        9
    );
    assert!(pointed.iter().all(|p| p.piece != "y-ger"));
    // A rally is an action of the impulse: none in the German's opportunity window.
    let moved = played(&s2, &allied, "move x-inf 41.231");
    let german = WhereEaglesDare.pointing(&moved, &seat("german"));
    assert!(
        german.iter().all(|p| !p.order.starts_with("rally ")),
        "{german:?}"
    );
}

#[test]
fn pointing_decision_14_an_artillery_unit_barrages_an_enemy_hex_light_or_heavy() {
    let mut s = state("a-ride-in-the-country", json!({ "map": small_map() }));
    allied_impulse(&mut s);
    put(&mut s, "907-gfab", Side::Allied, "41.230");
    put(&mut s, "A/501", Side::Allied, "41.231");
    put(&mut s, "y-ger", Side::German, "43.229");
    let allied = seat("allied");
    let pointed = WhereEaglesDare.pointing(&s, &allied);
    let barrages: Vec<String> = orders_at(&pointed, "907-gfab", "43.229")
        .into_iter()
        .filter(|o| o.starts_with("barrage "))
        .collect();
    let mut expected = every_threshold("barrage 907-gfab 43.229 light");
    expected.extend(every_threshold("barrage 907-gfab 43.229 heavy"));
    assert_eq!(barrages, expected);
    // Only at the enemy's hex, and only by the Artillery unit (A/501 is infantry).
    assert!(pointed
        .iter()
        .filter(|p| p.order.starts_with("barrage "))
        .all(|p| p.piece == "907-gfab" && p.cell == "43.229"));
    let after = played(&s, &allied, "barrage 907-gfab 43.229 heavy pass 0-5");
    assert_eq!(after.barrages, vec![(hex("43.229"), true, Side::Allied)]);
    // The German may barrage Club Route's empty hexes too (4.3.3: "attacking empty hexes is
    // perfectly acceptable"), and a heavy barrage there Closes it. His `art-g` is not in the
    // order of battle: its class unknown (decision 12), it is offered barrages.
    let mut g = s.clone();
    g.impulse = Side::German;
    put(&mut g, "art-g", Side::German, "43.230");
    let german = seat("german");
    let pointed = WhereEaglesDare.pointing(&g, &german);
    for h in ["41.230", "41.231", "41.232"] {
        assert!(
            orders_at(&pointed, "art-g", h).contains(&format!("barrage art-g {h} heavy pass 0-4")),
            "Club Route {h}: {pointed:?}"
        );
    }
    let after = played(&g, &german, "barrage art-g 41.232 heavy pass 0-5");
    assert!(after
        .barrages
        .contains(&(hex("41.232"), true, Side::German)));
    assert!(after.highway.closed > s.highway.closed);
}

/// An Allied impulse with units near the son bridge (56.201/56.202), so the window holds it.
fn at_the_son_bridge() -> State {
    let mut s = state("a-ride-in-the-country", json!({}));
    allied_impulse(&mut s);
    put(&mut s, "A/326", Side::Allied, "56.201");
    put(&mut s, "x-inf", Side::Allied, "56.200");
    put(&mut s, "x-two", Side::Allied, "55.201");
    s
}

#[test]
fn pointing_2_15_6_an_engineer_wires_a_bridge_and_its_wired_marker_demolishes_it() {
    let mut s = at_the_son_bridge();
    assert!(window(&s).contains(hex("56.202")));
    let allied = seat("allied");
    let pointed = WhereEaglesDare.pointing(&s, &allied);
    // The engineer in one of the bridge's hexes, pointed at the other: wire it, the faces
    // chosen; the infantry beside it is no engineer and is offered none.
    let across = orders_at(&pointed, "A/326", "56.202");
    for o in every_threshold("tq A/326 wire son") {
        assert!(across.contains(&o), "{o}: {across:?}");
    }
    assert!(pointed
        .iter()
        .filter(|p| p.order.starts_with("tq "))
        .all(|p| p.piece == "A/326"));
    let wired = played(&s, &allied, "tq A/326 wire son pass 0-5");
    assert_eq!(wired.bridges["son"].wired_by, Some(Side::Allied));
    // 2.15.6: "the Unit cannot be in Column": not pointed in Column.
    s.units.get_mut("A/326").unwrap().column = true;
    let pointed = WhereEaglesDare.pointing(&s, &allied);
    assert!(
        orders_at(&pointed, "A/326", "56.202")
            .iter()
            .all(|o| !o.contains(" wire ")),
        "{pointed:?}"
    );
    // The wired marker, pointed at its hex: demolish, with or without a Fire Zone stated.
    // It is offered in the demolition window an enemy entry opens (2.15.6, decision 40).
    let mut w = wired.clone();
    w.window = None;
    w.pending = None;
    w.demolition = Some(despatch_core::rules::where_eagles_dare::state::Demolition {
        side: Side::Allied,
        bridges: vec!["son".into()],
        unit: "G/x".into(),
        hex: hex("56.202"),
    });
    let pointed = WhereEaglesDare.pointing(&w, &allied);
    assert_eq!(
        orders_at(&pointed, "m-bridge-son-wired", "56.201"),
        vec!["demolish son".to_owned(), "demolish son fz".to_owned()]
    );
    let svg_w = svg(&w, &Viewer::Seat(allied.clone()), &BoardContext::default());
    assert!(svg_w.contains(r#"data-piece="m-bridge-son-wired" data-at="56.201""#));
    assert!(played(&w, &allied, "demolish son fz").bridges["son"].destroyed);
    // Not the German's marker: he wired nothing, and is not to act.
    let mut g = w.clone();
    g.impulse = Side::German;
    assert!(WhereEaglesDare
        .pointing(&g, &seat("german"))
        .iter()
        .all(|p| !p.order.starts_with("demolish ")));
}

#[test]
fn pointing_2_15_7_and_2_18_a_destroyed_bridge_takes_a_bailey_and_an_engineer_makes_a_ferry() {
    let mut s = at_the_son_bridge();
    s.bridges.insert(
        "son".into(),
        Bridge {
            destroyed: true,
            ..Bridge::default()
        },
    );
    let allied = seat("allied");
    // Not a Guards Divisional Activation impulse: no Bailey (2.15.7).
    let pointed = WhereEaglesDare.pointing(&s, &allied);
    assert!(orders_at(&pointed, "m-bridge-son-destroyed", "56.201").is_empty());
    // The engineer may make a ferry across the destroyed bridge (2.18.1).
    assert!(orders_at(&pointed, "A/326", "56.202").contains(&"tq A/326 ferry son pass 0-6".into()));
    let ferried = played(&s, &allied, "tq A/326 ferry son pass 0-5");
    assert!(ferried.bridges["son"].ferry.is_some());
    s.chit = Some("div-guards".into());
    let pointed = WhereEaglesDare.pointing(&s, &allied);
    // The Guards' two Bailey Bridge units, not the 43rd's (no 43rd Formation released).
    assert_eq!(
        orders_at(&pointed, "m-bridge-son-destroyed", "56.201"),
        vec![
            "bailey 11-bridge-re son".to_owned(),
            "bailey 14-field-sqn-re son".to_owned()
        ]
    );
    let bailey = played(&s, &allied, "bailey 11-bridge-re son");
    let placed = bailey.units["11-bridge-re"].hex;
    assert!(placed == hex("56.201") || placed == hex("56.202"));
    // The Bailey, pointed across its bridge, rolls for the repair (2.15.7).
    let mut b = bailey.clone();
    b.window = None;
    b.actions = 0;
    let across = if placed == hex("56.201") {
        "56.202"
    } else {
        "56.201"
    };
    let pointed = WhereEaglesDare.pointing(&b, &allied);
    let orders = orders_at(&pointed, "11-bridge-re", across);
    assert!(
        orders.contains(&"tq 11-bridge-re repair son pass 0-6".to_owned()),
        "{orders:?}"
    );
    let repaired = played(&b, &allied, "tq 11-bridge-re repair son pass 0-5");
    assert!(!repaired.bridges["son"].destroyed);
    // A ferry made: a Leg Unit in Column at it is pointed across (2.18.2).
    let mut f = ferried.clone();
    f.window = None;
    f.pending = None;
    f.units.get_mut("x-two").unwrap().hex = hex("56.201");
    f.units.get_mut("x-two").unwrap().column = true;
    let pointed = WhereEaglesDare.pointing(&f, &allied);
    assert_eq!(
        orders_at(&pointed, "x-two", "56.202")
            .into_iter()
            .filter(|o| o.starts_with("ferry "))
            .collect::<Vec<_>>(),
        vec!["ferry x-two son".to_owned()]
    );
    assert_eq!(
        played(&f, &allied, "ferry x-two son").units["x-two"].hex,
        hex("56.202")
    );
}

#[test]
fn pointing_2_11_the_unstable_stream_bridge_marker_places_a_bulldozer_and_rolls_the_repair() {
    let mut s = at_the_son_bridge();
    let sb = DATA
        .stream_bridges
        .iter()
        .find(|b| b.name == "sb-55")
        .unwrap();
    s.stream_bridges.insert(
        "sb-55".into(),
        despatch_core::rules::where_eagles_dare::state::StreamBridge {
            checked: true,
            unstable: true,
            ..Default::default()
        },
    );
    let allied = seat("allied");
    let piece = "m-stream-sb-55";
    let cell = sb.hexes.0.to_string();
    // Only in a Guards Divisional Activation impulse.
    assert!(orders_at(&WhereEaglesDare.pointing(&s, &allied), piece, &cell).is_empty());
    s.chit = Some("div-guards".into());
    let pointed = WhereEaglesDare.pointing(&s, &allied);
    assert_eq!(
        orders_at(&pointed, piece, &cell),
        vec![
            "bulldozer dozer-1 sb-55".to_owned(),
            "bulldozer dozer-2 sb-55".to_owned()
        ]
    );
    let dozed = played(&s, &allied, "bulldozer dozer-1 sb-55");
    let mut d = dozed.clone();
    d.window = None;
    d.impulse_no += 1;
    let pointed = WhereEaglesDare.pointing(&d, &allied);
    assert!(
        orders_at(&pointed, piece, &cell).contains(&"bulldoze sb-55".to_owned()),
        "{pointed:?}"
    );
    played(&d, &allied, "bulldoze sb-55");
}

#[test]
fn pointing_s2_a_road_block_is_placed_at_a_unit_s_hex_and_removed_from_its_marker() {
    let mut s = state("a-ride-in-the-country", json!({ "map": small_map() }));
    allied_impulse(&mut s);
    put(&mut s, "x-inf", Side::Allied, "41.230");
    put(&mut s, "y-ger", Side::German, "42.230");
    let allied = seat("allied");
    let pointed = WhereEaglesDare.pointing(&s, &allied);
    assert!(orders_at(&pointed, "x-inf", "41.230").contains(&"roadblock 41.230".to_owned()));
    let placed = played(&s, &allied, "roadblock 41.230");
    assert_eq!(placed.roadblocks, vec![(hex("41.230"), Side::Allied)]);
    let pointed = WhereEaglesDare.pointing(&placed, &allied);
    assert_eq!(
        orders_at(&pointed, "m-roadblock-0", "41.230"),
        vec!["roadblock 41.230 remove".to_owned()]
    );
    // A second road block in the hex is refused, so not pointed.
    assert!(!orders_at(&pointed, "x-inf", "41.230").contains(&"roadblock 41.230".to_owned()));
    assert!(played(&placed, &allied, "roadblock 41.230 remove")
        .roadblocks
        .is_empty());
    // The German's road block is not the Allied player's to remove.
    let mut g = s.clone();
    g.roadblocks.push((hex("42.230"), Side::German));
    assert!(orders_at(
        &WhereEaglesDare.pointing(&g, &allied),
        "m-roadblock-0",
        "42.230"
    )
    .is_empty());
}

#[test]
fn pointing_decision_14_a_unit_s_own_hex_offers_heroic_unmark_and_dismount() {
    let mut s = state("a-ride-in-the-country", json!({ "map": small_map() }));
    allied_impulse(&mut s);
    put(&mut s, "x-inf", Side::Allied, "41.230");
    put(&mut s, "x-tank", Side::Allied, "41.231");
    put(&mut s, "y-ger", Side::German, "42.230");
    let allied = seat("allied");
    s.piggyback.insert("x-tank".into(), "x-rider".into());
    let pointed = WhereEaglesDare.pointing(&s, &allied);
    assert!(orders_at(&pointed, "x-tank", "41.231").contains(&"dismount x-tank".to_owned()));
    assert!(
        !orders_at(&pointed, "x-tank", "41.231").contains(&"dismount x-tank abandon".to_owned())
    );
    // S3.1 Heroic: while the marker is to be placed, every friendly unit at its own hex.
    let mut h = s.clone();
    h.wait = Some(
        despatch_core::rules::where_eagles_dare::state::Wait::Placing {
            side: Side::Allied,
            event: "heroic".into(),
        },
    );
    let pointed = WhereEaglesDare.pointing(&h, &allied);
    assert!(orders_at(&pointed, "x-inf", "41.230").contains(&"place heroic x-inf".to_owned()));
    assert!(
        pointed.iter().all(|p| p.order.starts_with("place heroic ")),
        "{pointed:?}"
    );
    let after = played(&h, &allied, "place heroic x-inf");
    assert_eq!(
        after.heroic.get(&Side::Allied).map(String::as_str),
        Some("x-inf")
    );
}

// ------------------------------------------------------------------ over bot games

fn bot_setup(scenario: &str, n: u64) -> Setup {
    let mut options = json!({});
    if n % 2 == 1 {
        options["map"] = json!(small_map());
    }
    Setup {
        game_id: format!("wed-board-{scenario}-{n}"),
        scenario: scenario.into(),
        options,
        seats: SeatDef::named_by_id(&["allied", "german"]).unwrap(),
    }
}

/// The state with the German secrets changed: the flak's types rotated, every off-map
/// formation moved to another box, the private numbering gone.
fn other_secrets(s: &State) -> State {
    let mut t = s.clone();
    if !t.flak_flipped {
        let types: Vec<String> = t.flak.values().cloned().collect();
        for (i, v) in t.flak.values_mut().enumerate() {
            *v = types[(i + 1) % types.len()].clone();
        }
    }
    let boxes: Vec<String> = DATA.offmap.boxes.iter().map(|b| b.name.clone()).collect();
    for (i, p) in t.offmap.values_mut().enumerate() {
        *p = OffMap::Box(boxes[(i * 3 + 1) % boxes.len()].clone());
    }
    t.numbering.clear();
    t
}

#[derive(Default)]
struct Counts {
    boards: usize,
    german_differs: usize,
    pointed_positions: usize,
    pointed_played: usize,
    /// The pointed orders seen, by their first word.
    kinds: std::collections::BTreeMap<String, usize>,
}

fn check(
    game: &Game,
    secrets: &MemorySecrets,
    step: u64,
    counts: &mut Counts,
) -> Result<(), String> {
    let s: &State = game.state.downcast().ok_or("a Where Eagles Dare state")?;
    let context = BoardContext::default();
    let w = window(s);
    let changed = other_secrets(s);
    let german = Viewer::Seat(seat("german"));
    for viewer in [
        Viewer::Spectator,
        Viewer::Seat(seat("allied")),
        german.clone(),
    ] {
        let b = svg(s, &viewer, &context);
        self_contained(&b)?;
        legible_on_a_phone(&b)?;
        for (name, u) in &s.units {
            let drawn = b.contains(&format!(r#"data-piece="{name}" data-at="{}""#, u.hex));
            if w.contains(u.hex) != drawn {
                return Err(format!("{name} at {} drawn: {drawn}, window {w:?}", u.hex));
            }
        }
        if b.contains(r#"data-at="""#) {
            return Err("a piece stands on no drawn cell".into());
        }
        // Hidden information: the board of any viewer but the German is the same whatever
        // the German secrets are.
        let other = svg(&changed, &viewer, &context);
        if viewer == german {
            counts.german_differs += usize::from(other != b);
        } else if other != b {
            return Err(format!("{viewer:?}'s board shows a German secret"));
        }
        counts.boards += 1;
    }
    // Pointing, on a sample of positions: only the seat to act, pieces and cells on its
    // board, and the orders (a few) played for real.
    if !step.is_multiple_of(5) {
        return Ok(());
    }
    let prompts = game.prompts();
    for sd in &game.created.seats {
        let seat = &sd.seat;
        let pointed = game.ruleset.pointing(&game.state, seat);
        if !prompts.iter().any(|p| &p.seat == seat) {
            if !pointed.is_empty() {
                return Err(format!("{seat} is not to act but has orders to point at"));
            }
            continue;
        }
        if pointed.is_empty() {
            continue;
        }
        let drawn = svg(s, &Viewer::Seat(seat.clone()), &context);
        for p in &pointed {
            if !drawn.contains(&format!(r#"data-piece="{}""#, p.piece))
                || !drawn.contains(&format!(r#"data-cell="{}""#, p.cell))
            {
                return Err(format!("{p:?} is not on {seat}'s board"));
            }
        }
        // Hidden information: what the Allied player may point at is the same whatever the
        // German secrets are.
        if seat.as_str() == "allied" {
            let changed_pointing = WhereEaglesDare.pointing(&changed, seat);
            if changed_pointing != pointed {
                return Err("the Allied pointing depends on a German secret".into());
            }
        }
        counts.pointed_positions += 1;
        // A few of the orders, and the first of each kind (its verb: move, fire, rally,
        // barrage, tq, demolish, bailey, roadblock …), so every kind pointed is played.
        let mut sample: Vec<&Pointed> = pointed.iter().step_by(pointed.len().div_ceil(3)).collect();
        for p in &pointed {
            let verb = p.order.split(' ').next().unwrap_or_default();
            *counts.kinds.entry(verb.to_owned()).or_default() += 1;
            if !sample
                .iter()
                .any(|q| q.order.split(' ').next() == Some(verb))
            {
                sample.push(p);
            }
        }
        for p in sample {
            let command = game
                .ruleset
                .parse(&game.state, seat, &p.order)
                .map_err(|e| format!("'{}' does not parse: {e}", p.order))?;
            let mv = Move::Command {
                seat: seat.clone(),
                command,
                client_entropy: format!("pointing-{step}"),
            };
            game.play(mv, secrets, &mut bot::TestWorld::new(step))
                .map_err(|e| format!("'{}' is refused: {e}", p.order))?;
            counts.pointed_played += 1;
        }
    }
    Ok(())
}

/// Bot games of each scenario (every other on a small map): 4, 4 and 1 games, the campaign cut
/// at 1,500 moves. `WED_BOARD_GAMES` plays more of each.
#[test]
fn boards_and_pointing_over_bot_games_keep_the_german_secrets_and_offer_only_legal_moves() {
    let ruleset = rules::find("where-eagles-dare").unwrap();
    let more: u64 = std::env::var("WED_BOARD_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut counts = Counts::default();
    for (scenario, games, moves) in [
        ("a-ride-in-the-country", 4 + more, 5_000),
        ("the-best-laid-plans", 4 + more, 5_000),
        ("campaign", 1 + more, 1_500),
    ] {
        for n in 0..games {
            let mut step = 0;
            bot::play(
                ruleset.clone(),
                bot_setup(scenario, n),
                n * 104_729 + 11,
                moves,
                &mut |game, secrets| {
                    step += 1;
                    check(game, secrets, step, &mut counts)
                },
            )
            .unwrap_or_else(|e| panic!("{scenario}, game {n}: {e}"));
        }
    }
    assert!(counts.boards > 0);
    assert!(
        counts.german_differs > 0,
        "the German's board never showed a secret: the secrecy check checked nothing"
    );
    eprintln!(
        "{} positions pointed at, {} orders played; pointed by kind: {:?}",
        counts.pointed_positions, counts.pointed_played, counts.kinds
    );
    assert!(
        counts.pointed_positions > 0 && counts.pointed_played > 0,
        "nothing was ever pointed at: {} positions, {} orders",
        counts.pointed_positions,
        counts.pointed_played
    );
}

#[test]
fn board_decision_13_the_first_turn_window_shows_where_the_play_is() {
    // A Ride in the Country opens with no unit on the map: XXX Corps breaks out along Club
    // Route, its reinforcements coming in at the Club Route marker (4.3.1). The window holds
    // the marker and Club Route, not the drop zones no drop comes to in this scenario.
    let s = state("a-ride-in-the-country", json!({}));
    assert!(s.units.is_empty(), "no unit on the map yet");
    let w = window(&s);
    for h in ["42.229", "42.228", "41.230", "41.231", "41.232"] {
        assert!(w.contains(hex(h)), "{h} outside the first window {w:?}");
    }
    assert!(
        !w.contains(hex("60.149")),
        "the empty drop zones are not where the play is: {w:?}"
    );
    let b = svg(&s, &Viewer::Spectator, &BoardContext::default());
    legible_on_a_phone(&b).unwrap();
    assert!(
        b.contains(r#"data-piece="m-club-route" data-at="42.229""#),
        "the marker drawn"
    );
    for h in ["41.230", "41.231", "41.232"] {
        assert!(
            b.contains(&format!(r#"data-cell="{h}""#)),
            "Club Route {h} drawn"
        );
    }
    // The Best Laid Plans drops Drop One on its first turn into the zones the flak covers
    // (S5.4): its counters are on the map, and the window holds them and DZ B.
    let s = state("the-best-laid-plans", json!({}));
    let w = window(&s);
    for (unit, u) in &s.units {
        assert!(w.contains(u.hex), "{unit} at {} outside {w:?}", u.hex);
    }
    for h in ["57.149", "60.148", "64.149"] {
        assert!(w.contains(hex(h)), "DZ B's {h} outside {w:?}");
    }
    // Once units are on the map they weigh as the marker does: a stack of them elsewhere wins.
    let mut s = state("a-ride-in-the-country", json!({}));
    for (i, h) in ["60.160", "60.161", "61.160"].iter().enumerate() {
        put(&mut s, &format!("x-{i}"), Side::Allied, h);
    }
    let w = window(&s);
    assert!(
        w.contains(hex("60.160")) && !w.contains(hex("42.229")),
        "{w:?}"
    );
}

#[test]
fn pointing_s3_1_decision_30_a_routed_unit_moves_one_hex_or_entrenches_at_its_own_hex() {
    let mut s = state("a-ride-in-the-country", json!({ "map": small_map() }));
    allied_impulse(&mut s);
    put(&mut s, "A/502", Side::Allied, "41.230");
    put(&mut s, "y-ger", Side::German, "42.230");
    s.wait = Some(
        despatch_core::rules::where_eagles_dare::state::Wait::Routing(
            despatch_core::rules::where_eagles_dare::state::Routing {
                side: Side::Allied,
                formation: "502".into(),
                units: vec!["A/502".into()],
            },
        ),
    );
    let allied = seat("allied");
    let pointed = WhereEaglesDare.pointing(&s, &allied);
    assert!(orders_at(&pointed, "A/502", "41.230").contains(&"entrench A/502".to_owned()));
    let one = pointed
        .iter()
        .find(|p| p.order == "move A/502 41.231")
        .expect("a one-hex move");
    assert!(
        one.path.is_none(),
        "a routed unit's move is one hex, not a path"
    );
    // Nothing else while the rout is settled: no fire, no rally, no road block.
    assert!(
        pointed
            .iter()
            .all(|p| p.order.starts_with("move ") || p.order.starts_with("entrench ")),
        "{pointed:?}"
    );
    let after = played(&s, &allied, "entrench A/502");
    assert!(after.entrenched.contains("A/502") && after.routing().is_none());
    let b = svg(&after, &Viewer::Spectator, &BoardContext::default());
    assert!(b.contains(r#"data-piece="m-entrenched-A/502" data-at="41.230""#));
}

/// The window's cell of a hex the window holds.
fn at_in(w: &despatch_core::rules::where_eagles_dare::drawn::Window, h: Hex) -> At {
    assert!(w.contains(h), "{h} in {w:?}");
    At::new(h.col - w.c0, h.row - w.r0)
}

/// 4.0 Club Route: the road drawn is the ruleset's Club Route, hex for hex and in order, up to
/// the marker; as the marker advances, the road follows it (issue 38, "Hell's Highway and the
/// Club Route as roads").
#[test]
fn board_4_0_club_route_is_drawn_as_a_road_through_the_ruleset_s_club_route_hexes() {
    let mut s = state("a-ride-in-the-country", json!({}));
    // No unit on the map: the window holds Club Route and its marker.
    s.units.clear();
    assert_eq!(
        s.club_route,
        vec![hex("41.232"), hex("41.231"), hex("41.230")]
    );
    for extra in [vec![], vec!["42.229", "42.228", "43.228"]] {
        if !extra.is_empty() {
            s.club_route.extend(extra.iter().map(|t| hex(t)));
            s.marker = Some(hex("44.227"));
        }
        let w = window(&s);
        let roads: Vec<Vec<At>> = places::roads(&s, &w)
            .into_iter()
            .filter_map(|h| match h {
                Highlight::Road { cells, line, .. } if line == places::CLUB_ROUTE => Some(cells),
                _ => None,
            })
            .collect();
        let mut expected: Vec<At> = s.club_route.iter().map(|h| at_in(&w, *h)).collect();
        expected.push(at_in(&w, s.marker.unwrap()));
        assert_eq!(roads, vec![expected]);
        let b = svg(&s, &Viewer::Spectator, &BoardContext::default());
        legible_on_a_phone(&b).unwrap();
        assert!(b.contains(">Club Route</text>"), "legend");
    }
    // The marker off the map: the whole route, no road ahead.
    s.marker = None;
    let w = window(&s);
    assert!(places::roads(&s, &w).iter().all(|h| matches!(
        h,
        Highlight::Road { line, .. } if *line == places::CLUB_ROUTE
    )));
}

/// 4.1–4.2 potential Club Route: the road ahead runs from the marker through the first
/// potential hex (42.228) to the Stop hexes north of it on each spur still open, then the
/// common Stop and the end of the map; once a spur is chosen, only that spur's.
#[test]
fn board_4_2_the_road_ahead_runs_from_the_marker_through_the_stops_of_the_spurs_still_open() {
    let mut s = state("a-ride-in-the-country", json!({}));
    s.units.clear();
    let marker = s.marker.unwrap();
    assert_eq!(marker, hex("42.229"));
    let son = DATA
        .stops
        .iter()
        .find(|(k, _)| format!("{k:?}") == "Son")
        .unwrap()
        .1;
    let best = DATA
        .stops
        .iter()
        .find(|(k, _)| format!("{k:?}") == "Best")
        .unwrap()
        .1;
    let chain = |spur: Hex| vec![marker, hex("42.228"), spur, hex("61.141"), hex("14.89")];
    assert_eq!(
        places::chains_ahead(&s, marker),
        vec![chain(son), chain(best)]
    );
    s.spur = Some(despatch_core::rules::where_eagles_dare::data::Spur::Best);
    assert_eq!(places::chains_ahead(&s, marker), vec![chain(best)]);
    // Drawn dashed from the marker's hex, clipped to the window, named in the legend.
    let w = window(&s);
    let ahead: Vec<Vec<At>> = places::roads(&s, &w)
        .into_iter()
        .filter_map(|h| match h {
            Highlight::Road { cells, line, .. } if line == places::ROAD_AHEAD => Some(cells),
            _ => None,
        })
        .collect();
    assert_eq!(ahead[0], vec![at_in(&w, marker), at_in(&w, hex("42.228"))]);
    assert!(ahead
        .iter()
        .flatten()
        .all(|a| a.col < w.cols && a.row < w.rows));
    let b = svg(&s, &Viewer::Spectator, &BoardContext::default());
    assert!(b.contains(r#"data-road="route ahead""#));
    assert!(b.contains(">route ahead</text>"));
    assert!(b.contains("this line only points the way"));
}

/// 3.3 airborne zones: every zone hex in the window is drawn, tinted as one named area and
/// marked with its zone's letter (B/C in both), the legend naming the tint and the marks.
#[test]
fn board_3_3_the_drop_and_landing_zones_are_tinted_and_lettered() {
    let mut s = state("the-best-laid-plans", json!({}));
    // The window around a unit in DZ B, the Club Route marker off the map.
    s.units.clear();
    s.marker = None;
    put(&mut s, "x-inf", Side::Allied, "60.149");
    let w = window(&s);
    let zone_hexes: std::collections::BTreeSet<Hex> = DATA
        .zones
        .values()
        .flat_map(|(_, hs)| hs.iter().copied())
        .filter(|h| w.contains(*h))
        .collect();
    assert!(
        zone_hexes.contains(&hex("57.150")) && zone_hexes.len() > 20,
        "{w:?}"
    );
    match places::zones(&w) {
        Some(Highlight::Area { cells, name, .. }) => {
            assert_eq!(name, places::ZONES);
            let expected: Vec<At> = zone_hexes.iter().map(|h| at_in(&w, *h)).collect();
            assert_eq!(cells, expected);
        }
        other => panic!("{other:?}"),
    }
    let b = svg(&s, &Viewer::Spectator, &BoardContext::default());
    legible_on_a_phone(&b).unwrap();
    assert!(b.contains(&format!(">{}</text>", places::ZONES)));
    let cell = |h: &str| -> String {
        let i = b
            .find(&format!(r#"data-cell="{h}""#))
            .unwrap_or_else(|| panic!("{h} drawn"));
        b[i..i + b[i..].find("</g>").unwrap()].to_owned()
    };
    assert!(cell("57.150").contains(">B/C</text>"));
    assert!(cell("58.148").contains(">B</text>"));
    assert!(cell("60.151").contains(">C</text>"));
    let drawn = WhereEaglesDare
        .board(&s, &Viewer::Spectator, &BoardContext::default())
        .unwrap();
    assert!(drawn
        .legend
        .iter()
        .any(|(k, v)| k == "Marks:" && v.starts_with("A1 A B C the airborne zones")));
}

/// The places the text names by hex are marked (the Best bridges' Stop 49.160, the Stop hexes,
/// the end of Club Route), the bridges drawn across their hexsides, and the river the play
/// note of 2.0 names (76.129/76.130) drawn along its hexside.
#[test]
fn board_2_0_and_4_2_named_places_bridges_and_the_play_note_s_river_are_drawn() {
    let mut s = state("a-ride-in-the-country", json!({}));
    // Each window around a unit, the Club Route marker off the map.
    s.units.clear();
    s.marker = None;
    put(&mut s, "x-inf", Side::Allied, "49.161");
    let b = svg(&s, &Viewer::Spectator, &BoardContext::default());
    let i = b.find(r#"data-cell="49.160""#).unwrap();
    assert!(b[i..i + b[i..].find("</g>").unwrap()].contains(">Best</text>"));
    assert!(b.contains(r#"data-kind="bridge""#) && b.contains("railroad bridge best-rail"));
    s.units.clear();
    put(&mut s, "x-inf", Side::Allied, "61.142");
    let b = svg(&s, &Viewer::Spectator, &BoardContext::default());
    let i = b.find(r#"data-cell="61.141""#).unwrap();
    assert!(b[i..i + b[i..].find("</g>").unwrap()].contains(">Stop</text>"));
    s.units.clear();
    put(&mut s, "x-inf", Side::Allied, "75.130");
    let b = svg(&s, &Viewer::Spectator, &BoardContext::default());
    legible_on_a_phone(&b).unwrap();
    assert!(
        b.contains(r#"data-kind="river" pointer-events="none"><title>76.129/76.130: river (2.12)"#)
    );
    assert!(b.contains(">river</text>"));
    assert!(b.contains(r#"data-cell="76.129""#) && b.contains(r#"data-cell="76.130""#));
}

/// Decision 3: the numbers the engine takes from reconstructed data are marked where a player
/// reads them — the board's note and the text board, the weather when its row is not the
/// text's (3 = fog 5), the flank corps' track, the release roll's and the weather's prompts.
#[test]
fn board_decision_3_reconstructed_numbers_are_marked_where_a_player_reads_them() {
    use despatch_core::rules::where_eagles_dare::data::Weather;
    let mut s = state("a-ride-in-the-country", json!({}));
    s.weather = Some(Weather::Overcast);
    let notes = |s: &State| {
        WhereEaglesDare
            .board(s, &Viewer::Spectator, &BoardContext::default())
            .unwrap()
            .notes
            .join("\n")
    };
    let n = notes(&s);
    assert!(
        n.contains("Reconstructed, not in the text (decision 3)"),
        "{n}"
    );
    assert!(
        n.contains("weather overcast (a reconstructed row of the Weather Table)"),
        "{n}"
    );
    let text = WhereEaglesDare
        .board_text(&s, &Viewer::Spectator)
        .expect("a text board");
    assert!(text.contains("Reconstructed, not in the text"), "{text}");
    assert!(
        text.contains("Weather: overcast (a reconstructed row"),
        "{text}"
    );
    s.weather = Some(Weather::Fog { clear: 5 });
    let n = notes(&s);
    assert!(n.contains("weather fog (clears on 5 or less)."), "{n}");
    assert!(!n.contains("a reconstructed row"), "{n}");
    s.phase = Phase::Weather;
    let p = WhereEaglesDare.prompts(&s);
    assert!(
        p[0].decision
            .contains("rows but 3 = fog 5 are reconstructed"),
        "{:?}",
        p[0].decision
    );
    s.phase = Phase::Release;
    let next =
        despatch_core::rules::where_eagles_dare::release::next(&s).expect("a Formation next");
    let n = next.number.expect("a numbered Formation next");
    let p = WhereEaglesDare.prompts(&s);
    assert!(
        p[0].decision
            .contains(&format!("{} (its number {n} is reconstructed)", next.name)),
        "{:?}",
        p[0].decision
    );
}
