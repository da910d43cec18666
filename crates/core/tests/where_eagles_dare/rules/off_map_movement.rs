//! 5.0 Off-Map Movement: the German off-map displays and their private numbers (5.1) and the
//! flank corps (5.2).

use despatch_core::engine::ruleset::{Rules, Seat, Viewer};
use despatch_core::rules::where_eagles_dare::state::{OffMap, Phase, Side, State};
use despatch_core::rules::where_eagles_dare::{offmap, WhereEaglesDare};

use super::support::*;

#[test]
fn off_map_5_1_private_numbers_drawn_each_1900_shown_only_to_the_german_and_moves_enforced() {
    let mut s = off_map_step(18);
    let mut all: Vec<String> = s.numbering["erc-fj-ersatz"].clone();
    all.sort();
    assert_eq!(
        all,
        ids(&[
            "Best-West",
            "Geldrop",
            "Helmond",
            "Oirschot",
            "Tilburg",
            "map A",
            "map B",
            "map C"
        ])
    );
    let german = Viewer::Seat(Seat::parse("german").unwrap());
    let allied = Viewer::Seat(Seat::parse("allied").unwrap());
    let gv = WhereEaglesDare.view(&s, &german);
    assert_eq!(
        gv["off_map"]["numbering"]["kg-walther"]
            .as_object()
            .unwrap()
            .len(),
        6
    );
    for viewer in [&allied, &Viewer::Spectator] {
        let v = WhereEaglesDare.view(&s, viewer).to_string();
        let board = WhereEaglesDare.board_text(&s, viewer).unwrap();
        for secret in [
            "Tilburg",
            "Helmond",
            "Geldrop",
            "numbering",
            "erc-fj-ersatz",
        ] {
            assert!(
                !v.contains(secret) && !board.contains(secret),
                "{secret} in {v}"
            );
        }
    }
    let fj = |s: &State, to| number(s, "erc-fj-ersatz", to);
    let (oirschot, best_west) = (fj(&s, "Oirschot"), fj(&s, "Best-West"));
    let stiller_c = number(&s, "erc-kg-stiller", "map C");
    let (stiller, walther) = (
        number(&s, "erc-kg-stiller", "Geldrop"),
        number(&s, "kg-walther", "Weert"),
    );
    let e = refused(
        &mut s,
        "german",
        &format!("offmap erc-fj-ersatz:{oirschot} erc-kg-stiller:{stiller}"),
        "5.1",
    );
    assert!(e.message.contains("kg-walther"), "{e}");
    let e = refused(
        &mut s,
        "german",
        &format!("offmap erc-fj-ersatz:{best_west} erc-kg-stiller:{stiller} kg-walther:{walther}"),
        "5.1",
    );
    assert!(e.message.contains("not adjacent"), "{e}");
    let e = refused(
        &mut s,
        "german",
        &format!("offmap erc-fj-ersatz:{oirschot} erc-kg-stiller:{stiller_c} kg-walther:{walther}"),
        "5.1",
    );
    assert!(
        e.message.contains("does not lead to the map display"),
        "{e}"
    );
    refused(
        &mut s,
        "german",
        "offmap erc-fj-ersatz:99 erc-kg-stiller:1 kg-walther:1",
        "5.1",
    );
    // The corps roll after the move: XII 6 into Reusel (6) advances; VIII 6 into Weert,
    // where KG Walther stays (+1), fails.
    let order =
        format!("offmap erc-fj-ersatz:{oirschot} erc-kg-stiller:{stiller} kg-walther:{walther}");
    ok_hidden(&mut s, "german", &order, &[6, 6]);
    assert_eq!(s.offmap["erc-fj-ersatz"], OffMap::Box("Oirschot".into()));
    assert_eq!(s.offmap["erc-kg-stiller"], OffMap::Box("Geldrop".into()));
    assert_eq!(s.offmap["kg-walther"], OffMap::Box("Weert".into()));
    assert!(s.numbering.is_empty());
    assert_eq!(
        (
            s.corps["xii"].at,
            s.corps["viii"].at,
            s.corps["viii"].failures
        ),
        (1, 0, 1)
    );
    assert_eq!(s.phase, Phase::Buy { side: Side::Allied });
    let v = WhereEaglesDare.view(&s, &allied).to_string();
    assert!(
        v.contains("Reusel") && !v.contains("Oirschot"),
        "the corps is public: {v}"
    );
}

#[test]
fn off_map_5_1_the_map_display_arrives_at_0700_and_5_2_not_behind_a_corps() {
    let mut s = off_map_step(18);
    let stiller = number(&s, "erc-kg-stiller", "Geldrop");
    let fj = number(&s, "erc-fj-ersatz", "Tilburg");
    let walther = number(&s, "kg-walther", "Weert");
    ok_hidden(
        &mut s,
        "german",
        &format!("offmap erc-fj-ersatz:{fj} erc-kg-stiller:{stiller} kg-walther:{walther}"),
        &[9, 9],
    );
    // Next 1900: Geldrop into the map display at C.
    s.day = 19;
    s.time = 5;
    s.phase = Phase::Activation;
    s.mug.clear();
    ok(&mut s, "allied", "end", &[]);
    ok_hidden(&mut s, "allied", "route stay", &[]);
    let order = format!(
        "offmap erc-fj-ersatz:{} erc-kg-stiller:{} kg-walther:{}",
        number(&s, "erc-fj-ersatz", "Tilburg"),
        number(&s, "erc-kg-stiller", "map C"),
        number(&s, "kg-walther", "Weert")
    );
    ok_hidden(&mut s, "german", &order, &[9, 9]);
    assert_eq!(
        s.offmap["erc-kg-stiller"],
        OffMap::Entering {
            letter: "C".into(),
            from: "Geldrop".into()
        }
    );
    // KG Walther bound for D, now behind VIII Corps in Asten: it stays in its box.
    s.offmap.insert(
        "kg-walther".into(),
        OffMap::Entering {
            letter: "D".into(),
            from: "Asten".into(),
        },
    );
    s.corps.get_mut("viii").unwrap().at = 2;
    let e = offmap::legal(&s, "walther", "Asten", "map D").unwrap_err();
    assert!(e.contains("behind the viii Corps"), "{e}");
    s.time = NIGHT;
    s.phase = Phase::Activation;
    s.mug.clear();
    ok(&mut s, "allied", "end", &[]);
    assert_eq!((s.day, s.time), (20, 0));
    assert_eq!(s.offmap["erc-kg-stiller"], OffMap::OnMap);
    assert_eq!(s.offmap["kg-walther"], OffMap::Box("Asten".into()));
    // The arrived formation's units come onto the map; those still in a box do not.
    german_impulse(&mut s);
    s.chit = None;
    ok(&mut s, "german", "move 1/erc-kg-stiller 30.100", &[]);
    no_opfire(&mut s);
    let e = refused(&mut s, "german", "move 1/kg-walther 30.101", "5.1");
    assert!(e.message.contains("in box Asten"), "{e}");
}

#[test]
fn flank_corps_5_2_failures_help_german_formations_hinder_and_club_route_off_the_map_helps() {
    let mut s = off_map_step(18);
    s.corps.get_mut("viii").unwrap().failures = 2;
    s.marker = None;
    let order = format!(
        "offmap erc-fj-ersatz:{} erc-kg-stiller:{} kg-walther:{}",
        number(&s, "erc-fj-ersatz", "Tilburg"),
        number(&s, "erc-kg-stiller", "Helmond"),
        number(&s, "kg-walther", "Weert")
    );
    // XII: 9 − 4 = 5 ≤ 6 advances. VIII: 9 − 2 failures + 1 (KG Walther in Weert) − 4 = 4.
    ok_hidden(&mut s, "german", &order, &[9, 9]);
    assert_eq!((s.corps["xii"].at, s.corps["viii"].at), (1, 1));
    // Campaign only: no corps and no off-map step in the scenarios.
    let s = game("the-best-laid-plans");
    assert!(s.corps.is_empty() && s.offmap.is_empty());
}

/// 5.2 in a position (issue 39): a flank corps' box and its failed attempts can be set, so a
/// corps' roll from any box with any Men at Work counters can be replayed; a corps or a box
/// not on the track, or a scenario without the corps, is refused naming the line.
#[test]
fn flank_corps_5_2_a_position_sets_a_corps_box_and_its_failed_attempts() {
    use despatch_core::engine::dice::hidden_stream;
    use despatch_core::engine::ruleset::{SeatDef, Setup};
    let read = |scenario: &str, text: &str| {
        let setup = Setup {
            game_id: "rules".into(),
            scenario: scenario.into(),
            options: serde_json::json!({}),
            seats: SeatDef::named_by_id(&["allied", "german"]).unwrap(),
        };
        WhereEaglesDare.position(&setup, text, &mut hidden_stream(&[7; 32], "rules", 0))
    };
    let p = read(
        "campaign",
        "corps xii at Oirschot failures 2\ncorps viii at weert",
    )
    .unwrap();
    let (xii, viii) = (&p.state.corps["xii"], &p.state.corps["viii"]);
    assert_eq!((xii.at, xii.failures, viii.at, viii.failures), (2, 2, 1, 0));
    let e = read("campaign", "corps xii at Deurne").err().unwrap();
    assert!(
        e.message.contains("Turnhout, Reusel, Oirschot, Tilburg"),
        "{e}"
    );
    let e = read("campaign", "corps xx at Reusel").err().unwrap();
    assert!(e.message.contains("xii, viii"), "{e}");
    let e = read("the-best-laid-plans", "corps xii at Reusel")
        .err()
        .unwrap();
    assert!(e.message.contains("campaign's"), "{e}");
}

#[test]
fn board_in_text_shows_points_mug_releases_corps_and_the_off_map_display_to_the_german_only() {
    let mut s = off_map_step(18);
    s.mug = ids(&[
        "div-101",
        "div-guards",
        "f-501",
        "f-502",
        "f-506",
        "f-327",
        "ind-101",
    ]);
    let german = Viewer::Seat(Seat::parse("german").unwrap());
    let allied = Viewer::Seat(Seat::parse("allied").unwrap());
    let g = WhereEaglesDare.board_text(&s, &german).unwrap();
    let a = WhereEaglesDare.board_text(&s, &allied).unwrap();
    for text in [&g, &a] {
        assert!(
            text.contains("CP/DP: 101st 2/4")
                && text.contains("mug: div-101 div-guards")
                && text.contains("Released: group-hot")
                && text.contains("XII Corps: Turnhout"),
            "{text}"
        );
        assert!(text.lines().all(|l| l.chars().count() <= 78), "{text}");
    }
    let tilburg = number(&s, "erc-fj-ersatz", "Tilburg");
    assert!(
        g.contains("Off map erc-fj-ersatz: Tilburg")
            && g.contains(&format!("{tilburg}=Tilburg (stay)")),
        "{g}"
    );
    assert!(!a.contains("Off map") && !a.contains("Tilburg"), "{a}");
}
