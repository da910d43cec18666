//! S3.0 Random Events and S3.1 Events: the Rollers' cup, Air Strike, Intelligence, Rout,
//! Heroic, Dutch, Minefield, Reinf, Ambush, Explosion, Lost and Rally.

use std::collections::VecDeque;

use despatch_core::engine::ruleset::{Ctx, DiceSource, Rules, Seat, Viewer};
use despatch_core::rules::where_eagles_dare::data::{Weather, DATA};
use despatch_core::rules::where_eagles_dare::oob::{Class, OOB};
use despatch_core::rules::where_eagles_dare::order;
use despatch_core::rules::where_eagles_dare::state::{Marks, OffMap, Phase, Side, Unit};
use despatch_core::rules::where_eagles_dare::{offmap, WhereEaglesDare};
use serde_json::json;

use super::support::*;

#[test]
fn random_events_s3_0_a_fire_9_draws_from_the_rollers_cup_not_an_assault() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    assert_eq!(
        s.cups[&Side::German].len(),
        10,
        "the German cup: all but Air Strike"
    );
    assert_eq!(s.cups[&Side::Allied].len(), 11);
    ok(&mut s, "german", "assault G/1 50.150", &[]);
    // S4.4: the Units assaulted fire first; the assault's die follows their pass.
    ok(&mut s, "allied", "pass", &[9]);
    ok(&mut s, "german", "result step-loss", &[]);
    assert_eq!(
        s.cups[&Side::German].len(),
        10,
        "an assault 9 draws nothing"
    );
    ok(&mut s, "german", "fire G/1 50.150 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[1]);
    assert_eq!(
        s.cups[&Side::German].len(),
        9,
        "scenario: the chit leaves the game"
    );
    assert!(!s.cups[&Side::German].contains(&"rout".to_owned()));
}

#[test]
fn random_events_s3_0_campaign_chits_go_back_heroic_and_dutch_before_the_next_draw() {
    let mut s = game("campaign");
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 50.150 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[2]);
    assert_eq!(s.held_out, vec![(Side::German, "heroic".to_owned())]);
    assert_eq!(s.cups[&Side::German].len(), 9);
    ok(&mut s, "german", "place heroic G/1", &[]);
    ok(&mut s, "german", "fire G/1 50.150 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[3]);
    assert!(s.heroic.is_empty(), "the marker comes off with the chit");
    assert_eq!(
        s.cups[&Side::German].len(),
        10,
        "Heroic back, Intelligence returned"
    );
}

#[test]
fn air_strike_s3_1_halved_die_typhoons_and_none_at_night() {
    let mut s = game("the-best-laid-plans");
    s.phase = Phase::Activation;
    ok(&mut s, "allied", "fire A/1 50.150 small-arms", &[9]);
    ok(&mut s, "allied", "result none", &[1, 7]);
    // Three Typhoons to place (their attacks: the test named after S3.1's Typhoons below).
    assert_eq!(s.typhoons.as_ref().map(|t| t.left), Some(3));
    ok(&mut s, "allied", "pass", &[]);
    s.cups.insert(Side::Allied, vec!["air-strike".into()]);
    s.time = 7;
    ok(&mut s, "allied", "fire A/1 50.150 small-arms", &[9]);
    ok(&mut s, "allied", "result none", &[1]);
}

#[test]
fn intelligence_s3_1_the_drawing_side_names_a_division_for_6_cp_and_2_dp() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    s.cups.insert(Side::German, ids(&["intelligence"]));
    ok(&mut s, "german", "fire G/1 56.203 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[1]);
    assert_eq!(s.intelligence(), Some(Side::German));
    refused(&mut s, "german", "end", "S3.1");
    let e = refused(&mut s, "german", "intelligence 101st", "S3.1");
    assert!(e.message.contains("erc, 59th, walther"), "{e}");
    ok(&mut s, "german", "intelligence 59th", &[]);
    assert_eq!((s.cp["59th"], s.dp["59th"], s.intelligence()), (8, 5, None));
}

#[test]
fn rout_s3_1_a_routed_german_formation_leaves_the_map_and_reenters_its_display_by_a_private_number()
{
    let mut s = before_1900("campaign", 18);
    s.time = 3;
    s.phase = Phase::Activation;
    s.offmap.insert("erc-kg-stiller".into(), OffMap::OnMap);
    s.units.insert(
        "G/st1".into(),
        Unit {
            side: Side::German,
            hex: hex("30.100"),
            column: false,
        },
    );
    // An Allied fire 9 draws Rout (the first in the Allied cup after Air Strike): the German
    // names the Formation.
    s.cups.insert(Side::Allied, ids(&["rout"]));
    allied_impulse(&mut s, "f-501");
    ok(&mut s, "allied", "fire A/1 30.100 small-arms", &[9]);
    ok(&mut s, "allied", "result none", &[1]);
    assert_eq!(s.rout(), Some(Side::German));
    refused(&mut s, "allied", "end", "sequence of play");
    refused(&mut s, "german", "rout kg-walther", "S3.1");
    lose(&mut s, "1/erc-kg-stiller", 1);
    ok(&mut s, "german", "rout erc-kg-stiller G/st1", &[]);
    assert_eq!(s.offmap["erc-kg-stiller"], OffMap::Routed { back: 19 });
    assert!(!s.units.contains_key("G/st1"));
    let allied = WhereEaglesDare
        .view(&s, &Viewer::Seat(Seat::parse("allied").unwrap()))
        .to_string();
    assert!(!allied.contains("routed, back"), "the display is secret");
    // Back on the 19th: at that 1900 the German names a box of its display by a private
    // number, like any off-map move; no map entry.
    for (day, back) in [(18, false), (19, true)] {
        let mut s = before_1900("campaign", day);
        s.released = DATA.release_line.iter().map(|e| e.id.clone()).collect();
        s.offmap
            .insert("erc-kg-stiller".into(), OffMap::Routed { back: 19 });
        ok(&mut s, "allied", "end", &[]);
        ok_hidden(&mut s, "allied", "route stay", &[]);
        assert_eq!(
            s.numbering.contains_key("erc-kg-stiller"),
            back,
            "day {day}"
        );
        if back {
            let list = &s.numbering["erc-kg-stiller"];
            assert!(list.iter().all(|d| !d.starts_with("map ")), "{list:?}");
            let moves: Vec<String> = s
                .numbering
                .keys()
                .map(|f| {
                    let to = match &s.offmap[f] {
                        OffMap::Box(b) => b.clone(),
                        _ => "Geldrop".to_owned(),
                    };
                    format!("{f}:{}", number(&s, f, &to))
                })
                .collect();
            ok(
                &mut s,
                "german",
                &format!("offmap {}", moves.join(" ")),
                &[],
            );
            assert_eq!(s.offmap["erc-kg-stiller"], OffMap::Box("Geldrop".into()));
        }
    }
}

#[test]
fn heroic_s3_1_on_one_friendly_unit_until_its_side_draws_again() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    unit_at(&mut s, "G/1", Side::German, "56.210");
    s.cups.insert(Side::German, ids(&["heroic", "rally"]));
    ok(&mut s, "german", "fire G/1 56.203 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[1]);
    assert_eq!(s.placing(), Some((Side::German, "heroic")));
    refused(&mut s, "german", "end", "S3.1");
    refused(&mut s, "german", "place dutch 56.210", "S3.1");
    let e = refused(&mut s, "german", "place heroic A/502", "S3.1");
    assert!(e.message.contains("friendly"), "{e}");
    ok(&mut s, "german", "place heroic G/1", &[]);
    assert_eq!(s.heroic.get(&Side::German).map(String::as_str), Some("G/1"));
    assert!(s.placing().is_none());
    // The German's next event takes it off, before the draw.
    ok(&mut s, "german", "fire G/1 56.203 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[1]);
    assert!(s.heroic.is_empty());
    // The order round-trips.
    let c = order::parse("place minefield 56.201").unwrap();
    assert_eq!(order::describe(&c), "place minefield 56.201");
}

#[test]
fn dutch_s3_1_no_unit_leaves_its_hex_by_movement() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-101");
    put(&mut s, "A/502", "56.203");
    put(&mut s, "B/502", "56.205");
    s.cups.insert(Side::Allied, ids(&["dutch"]));
    ok(&mut s, "allied", "fire A/502 56.210 small-arms", &[9]);
    ok(&mut s, "allied", "result none", &[1]);
    // Silence passes for the placing side; here it places.
    ok(&mut s, "allied", "place dutch 56.203", &[]);
    let e = refused(&mut s, "allied", "move A/502 56.202", "Dutch");
    assert!(e.message.contains("56.203"), "{e}");
    // Entering is allowed; going on through is not.
    refused(&mut s, "allied", "move B/502 56.204 56.203 56.202", "Dutch");
    play(&mut s, "allied", "move B/502 56.204 56.203", &[]);
    refused(&mut s, "allied", "move B/502 56.204", "Dutch");
    let text = WhereEaglesDare.board_text(&s, &Viewer::Spectator).unwrap();
    assert!(text.contains("Dutch (allied) 56.203"), "{text}");
}

/// S3.1 Dutch on a game's map: "any city or town hex" — a hex the map knows as other terrain is
/// refused, changing nothing; a town of the map, or a hex the map does not know, takes it.
#[test]
fn dutch_s3_1_goes_in_a_city_or_town_hex_of_the_game_s_map() {
    let text = "hex 56.203 clear\nhex 56.204 town\n";
    let mut s = game_with("the-best-laid-plans", json!({ "map": text })).unwrap();
    allied_impulse(&mut s, "div-101");
    put(&mut s, "A/502", "56.205");
    s.cups.insert(Side::Allied, ids(&["dutch"]));
    ok(&mut s, "allied", "fire A/502 56.210 small-arms", &[9]);
    ok(&mut s, "allied", "result none", &[1]);
    let e = refused(
        &mut s,
        "allied",
        "place dutch 56.203",
        "S3.1 Events (Dutch)",
    );
    assert!(
        e.message.contains("clear at 56.203") && e.message.contains("city or town"),
        "{e}"
    );
    ok(&mut s, "allied", "place dutch 56.204", &[]);
    assert_eq!(s.dutch.get(&Side::Allied), Some(&hex("56.204")));
}

#[test]
fn minefield_s3_1_within_3_hexes_a_tq_check_to_leave_an_engineer_removes_it() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    unit_at(&mut s, "G/1", Side::German, "41.228");
    s.cups.insert(Side::German, ids(&["minefield"]));
    ok(&mut s, "german", "fire G/1 41.226 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[1]);
    let e = refused(&mut s, "german", "place minefield 41.220", "S3.1");
    assert!(e.message.contains("within 3"), "{e}");
    // On Club Route: a Closed marker for the German.
    let closed = s.highway.closed;
    ok(&mut s, "german", "place minefield 41.230", &[]);
    assert_eq!(s.minefields, [hex("41.230")]);
    assert_eq!(s.highway.closed, closed + 1);
    // A unit in it leaves only after a passed TQ check.
    allied_impulse(&mut s, "div-101");
    put(&mut s, "A/502", "41.230");
    refused(&mut s, "allied", "move A/502 41.231", "Minefield");
    play(&mut s, "allied", "tq A/502 minefield pass 0-5", &[7]);
    refused(&mut s, "allied", "move A/502 41.231", "Minefield");
    play(&mut s, "allied", "tq A/502 minefield pass 0-5", &[3]);
    play(&mut s, "allied", "move A/502 41.231", &[]);
    // Back in, the check is needed again.
    play(&mut s, "allied", "move A/502 41.230", &[]);
    refused(&mut s, "allied", "move A/502 41.231", "Minefield");
    // Only an engineer removes it, by an engineering action in its hex.
    refused(&mut s, "allied", "tq A/502 mines pass 0-5", "Minefield");
    put(&mut s, "A/326", "41.229");
    refused(&mut s, "allied", "tq A/326 mines pass 0-5", "Minefield");
    put(&mut s, "A/326", "41.230");
    ok(&mut s, "allied", "tq A/326 mines pass 0-5", &[2]);
    assert!(s.minefields.is_empty());
    assert_eq!(
        s.window,
        Some(hex("41.230")),
        "the engineering action opens the opportunity fire window"
    );
    no_opfire(&mut s);
    play(&mut s, "allied", "move A/502 41.231", &[]);
}

#[test]
fn reinf_s3_1_a_lost_82nd_ab_unit_comes_in_at_a_101st_leader_finite() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-101");
    put(&mut s, "A/502", "56.203");
    put(&mut s, "ldr-502", "56.204");
    s.cups.insert(Side::Allied, ids(&["reinf", "reinf"]));
    ok(&mut s, "allied", "fire A/502 56.210 small-arms", &[9]);
    ok(&mut s, "allied", "result none", &[1]);
    assert_eq!(s.placing(), Some((Side::Allied, "reinf")));
    // Not where no 101st Leader is; not a unit that is not a Lost 82nd AB.
    refused(&mut s, "allied", "place reinf lost82-1 56.203", "Reinf");
    refused(&mut s, "allied", "place reinf A/501 56.204", "Reinf");
    ok(&mut s, "allied", "place reinf lost82-1 56.204", &[]);
    assert_eq!(s.units["lost82-1"].hex, hex("56.204"));
    // Finite: the same unit never comes in twice, even once it is gone.
    s.units.remove("lost82-1");
    ok(&mut s, "allied", "fire A/502 56.210 small-arms", &[9]);
    ok(&mut s, "allied", "result none", &[1]);
    let e = refused(&mut s, "allied", "place reinf lost82-1 56.204", "Reinf");
    assert!(e.message.contains("lost82-2"), "{e}");
    ok(&mut s, "allied", "pass", &[]);
    // The German's Reinf brings no Lost 82nd AB.
    german_impulse(&mut s);
    unit_at(&mut s, "G/1", Side::German, "56.220");
    s.cups.insert(Side::German, ids(&["reinf"]));
    ok(&mut s, "german", "fire G/1 56.210 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[1]);
    assert!(s.placing().is_none());
    let c = order::parse("place reinf lost82-2 56.204").unwrap();
    assert_eq!(order::describe(&c), "place reinf lost82-2 56.204");
}

#[test]
fn ambush_and_explosion_s3_1_the_enemy_attacks_and_states_the_result() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-101");
    put(&mut s, "A/502", "56.203");
    put(&mut s, "377-pfab", "56.206");
    unit_at(&mut s, "G/1", Side::German, "56.208");
    s.cups.insert(Side::Allied, ids(&["ambush", "explosion"]));
    ok(&mut s, "allied", "fire A/502 56.210 small-arms", &[9]);
    // The cup in the order of the text: explosion, ambush; die 2 of 2.
    ok(&mut s, "allied", "result none", &[2]);
    // Ambush: the German attacks a friendly (Allied) unit within 3 hexes of one of his.
    assert_eq!(s.placing(), Some((Side::German, "ambush")));
    refused(&mut s, "allied", "place ambush 56.203", "sequence of play");
    refused(&mut s, "german", "place ambush 56.203", "Ambush");
    refused(&mut s, "german", "place ambush 56.207", "Ambush");
    ok(&mut s, "german", "place ambush 56.206", &[4]);
    assert!(s
        .pending
        .as_ref()
        .is_some_and(|p| p.side == Side::German && p.face == 4));
    refused(&mut s, "allied", "end", "sequence of play");
    ok(&mut s, "german", "result eliminated 377-pfab", &[]);
    assert!(!s.units.contains_key("377-pfab"));
    // Explosion: only an Artillery Unit; a heavy barrage in its hex.
    put(&mut s, "377-pfab", "56.206");
    ok(&mut s, "allied", "fire A/502 56.210 small-arms", &[9]);
    ok(&mut s, "allied", "result none", &[1]);
    assert_eq!(s.placing(), Some((Side::German, "explosion")));
    refused(&mut s, "german", "place explosion A/502", "Explosion");
    ok(&mut s, "german", "place explosion 377-pfab", &[2]);
    assert!(s.barrages.contains(&(hex("56.206"), true, Side::German)));
    ok(&mut s, "german", "result suppressed", &[]);
    assert!(s.pending.is_none() && s.placing().is_none());
}

#[test]
fn lost_s3_1_the_enemy_picks_a_friendly_unit_and_moves_it() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-101");
    put(&mut s, "A/502", "56.203");
    unit_at(&mut s, "G/1", Side::German, "56.208");
    s.cups.insert(Side::Allied, ids(&["lost"]));
    ok(&mut s, "allied", "fire A/502 56.210 small-arms", &[9]);
    ok(&mut s, "allied", "result none", &[1]);
    assert_eq!(s.placing(), Some((Side::German, "lost")));
    // The German picks an Allied unit, not his own.
    refused(&mut s, "german", "place lost G/1", "Lost");
    ok(&mut s, "german", "place lost A/502", &[]);
    assert_eq!((s.lost(), s.lost_mover()), (Some("A/502"), Side::German));
    refused(&mut s, "allied", "end", "sequence of play");
    refused(&mut s, "german", "move G/1 56.207", "Lost");
    ok(&mut s, "german", "move A/502 56.204 56.205", &[]);
    assert_eq!(s.units["A/502"].hex, hex("56.205"));
    assert!(s.lost().is_none() && s.lost_event().is_none());
    // The lost unit stays an Allied unit.
    assert_eq!(s.units["A/502"].side, Side::Allied);
}

#[test]
fn steps_s3_1_lost_and_o3_0_the_lost_unit_is_suppressed_after_its_lost_move() {
    let mut s = game_with("the-best-laid-plans", json!({"german_lost": true})).unwrap();
    german_impulse(&mut s);
    ok(&mut s, "german", "move G/1 30.100", &[]);
    no_opfire(&mut s);
    ok(&mut s, "german", "tq G/1 lost pass 0-5", &[8]);
    ok(&mut s, "allied", "move G/1 30.101 30.102", &[]);
    assert!(s.marks["G/1"].suppressed);
}

#[test]
fn air_strike_s3_1_typhoons_within_10_hexes_of_the_formation_leader_all_placed_then_each_attacks() {
    let mut s = game("a-ride-in-the-country");
    s.weather = Some(Weather::Clear);
    allied_impulse(&mut s, "f-502");
    play(&mut s, "allied", "move ldr-502 50.152", &[]);
    play(&mut s, "allied", "move B/502 52.150", &[]);
    // A 6 halved: three Typhoons for the Allied player.
    allied_draws(&mut s, "air-strike", &[6]);
    assert_eq!(s.placing(), Some((Side::Allied, "air-strike")));
    assert_eq!(s.typhoons.as_ref().map(|t| t.left), Some(3));
    // Within 10 hexes of the chosen Formation's Leader; one Formation for them all.
    refused(
        &mut s,
        "allied",
        "place air-strike 502 70.152",
        "S3.1 Events (Air Strike)",
    );
    refused(
        &mut s,
        "allied",
        "place air-strike 59-a 51.150",
        "S3.1 Events (Air Strike)",
    );
    ok(&mut s, "allied", "place air-strike 502 51.150", &[]);
    ok(&mut s, "allied", "place air-strike 502 51.151", &[]);
    assert!(
        s.pending.is_none(),
        "no attack before every Typhoon is placed"
    );
    // Shown: the view, the board in text, the drawn board.
    assert_eq!(
        WhereEaglesDare.view(&s, &Viewer::Spectator)["air_strike"]["hexes"],
        json!(["51.150", "51.151"])
    );
    let text = WhereEaglesDare.board_text(&s, &Viewer::Spectator).unwrap();
    assert!(
        text.contains("Air Strike (S3.1): 1 Typhoon(s) to place for 502; to attack: 51.150 51.151"),
        "{text}"
    );
    let svg = WhereEaglesDare
        .board_svg(&s, &Viewer::Spectator, &Default::default())
        .unwrap();
    assert!(svg.contains(r#"data-piece="m-typhoon-0" data-at="51.150""#));
    ok(&mut s, "allied", "place air-strike 502 51.150", &[4]);
    // Then each is a die whose result the Allied player states, in the order placed.
    let p = s.pending.clone().expect("the first Typhoon attacks");
    assert_eq!(
        (p.unit.as_str(), p.hex, p.face),
        ("typhoon", hex("51.150"), 4)
    );
    s.units.insert(
        "G/1".into(),
        Unit {
            side: Side::German,
            hex: hex("51.150"),
            column: false,
        },
    );
    ok(&mut s, "allied", "result suppressed", &[7]);
    assert!(s.marks["G/1"].suppressed);
    assert_eq!(
        s.pending.as_ref().map(|p| (p.hex, p.face)),
        Some((hex("51.151"), 7))
    );
    ok(&mut s, "allied", "result none", &[2]);
    ok(&mut s, "allied", "result cohesion-hit G/1", &[]);
    assert!(s.pending.is_none() && s.typhoons.is_none());
    assert_eq!(s.marks["G/1"].cohesion, 1);
    // At night, overcast or in fog: no event; a 0 or 1: no Typhoon.
    let mut s = game("a-ride-in-the-country");
    s.weather = Some(Weather::Overcast);
    allied_draws(&mut s, "air-strike", &[]);
    assert!(s.placing().is_none() && s.typhoons.is_none());
    let mut s = game("a-ride-in-the-country");
    s.weather = Some(Weather::Clear);
    allied_draws(&mut s, "air-strike", &[1]);
    assert!(s.placing().is_none() && s.typhoons.is_none());
    // Passing after one Typhoon attacks with that one.
    let mut s = game("a-ride-in-the-country");
    s.weather = Some(Weather::Clear);
    allied_draws(&mut s, "air-strike", &[8]);
    ok(&mut s, "allied", "place air-strike 502 51.150", &[]);
    ok(&mut s, "allied", "pass", &[5]);
    assert_eq!(s.pending.as_ref().map(|p| p.hex), Some(hex("51.150")));
}

#[test]
fn rally_s3_1_removes_any_4_suppression_or_cohesion_steps_from_one_formation() {
    let mut s = game("a-ride-in-the-country");
    allied_impulse(&mut s, "f-502");
    play(&mut s, "allied", "move A/502 50.150", &[]);
    play(&mut s, "allied", "move B/502 50.150", &[]);
    play(&mut s, "allied", "move C/502 50.151", &[]);
    german_result(&mut s, "50.150", "suppressed");
    german_result(&mut s, "50.150", "cohesion-hit");
    german_result(&mut s, "50.150", "cohesion-hit A/502");
    german_result(&mut s, "50.151", "suppressed");
    german_result(&mut s, "50.150", "step-loss B/502");
    // Six steps on the 502: A Suppressed and 2 Cohesion Hits, B Suppressed and 1, C Suppressed.
    allied_draws(&mut s, "rally", &[]);
    assert_eq!(s.placing(), Some((Side::Allied, "rally")));
    refused(&mut s, "allied", "place rally 59-a", "S3.1 Events (Rally)");
    refused(
        &mut s,
        "allied",
        "place rally no-such",
        "S3.1 Events (Rally)",
    );
    ok(&mut s, "allied", "place rally 502", &[]);
    // Four removed, the Suppressions first: A's Cohesion Hit is left (the excess ignored).
    assert!(s.marks.values().all(|m| !m.suppressed));
    let left: u32 = s.marks.values().map(|m| m.cohesion).sum();
    assert_eq!(left, 2, "{:?}", s.marks);
    assert_eq!(s.marks["B/502"].lost, 1, "a Rally recovers no step");
    assert!(s.placing().is_none());
}

#[test]
fn reinf_s3_1_two_recovered_steps_come_off_the_marks_of_one_formation_s_units() {
    let mut s = game("the-best-laid-plans");
    put(&mut s, "A/502", "56.203");
    put(&mut s, "ldr-502", "56.204");
    lose(&mut s, "A/502", 1);
    lose(&mut s, "B/502", 1);
    lose(&mut s, "C/502", 1);
    lose(&mut s, "A/501", 1);
    allied_draws_reinf(&mut s);
    // Bad input changes nothing: another side's formation, one with no step lost, a unit of
    // another formation, a unit named twice with one step lost, a name that is no formation.
    let e = refused(&mut s, "allied", "place reinf 59-a", "S3.1 Events (Reinf)");
    assert!(e.message.contains("german formation"), "{e}");
    let e = refused(&mut s, "allied", "place reinf 506", "S3.1 Events (Reinf)");
    assert!(
        e.message.contains("506 has no step lost on its units"),
        "{e}"
    );
    assert!(e.message.contains("two-step Lost 82nd AB unit"), "{e}");
    let e = refused(
        &mut s,
        "allied",
        "place reinf 502 A/501",
        "S3.1 Events (Reinf)",
    );
    assert!(e.message.contains("A/501 is not a unit of 502"), "{e}");
    let e = refused(
        &mut s,
        "allied",
        "place reinf 502 C/502 C/502",
        "S3.1 Events (Reinf)",
    );
    assert!(e.message.contains("C/502 has no more lost step"), "{e}");
    let e = refused(
        &mut s,
        "allied",
        "place reinf 502 D/502",
        "S3.1 Events (Reinf)",
    );
    assert!(
        e.message
            .contains("A/502 1 lost, B/502 1 lost, C/502 1 lost"),
        "{e}"
    );
    refused(
        &mut s,
        "allied",
        "place reinf no-such",
        "S3.1 Events (Reinf)",
    );
    // Two steps: the unit named first, then the order of battle's order.
    let n = order(&mut s, "allied", "place reinf 502 C/502", &[]).unwrap();
    assert_eq!(n, 0);
    assert_eq!(
        (
            lost_of(&s, "A/502"),
            lost_of(&s, "B/502"),
            lost_of(&s, "C/502")
        ),
        (0, 1, 0)
    );
    assert!(!s.marks.contains_key("C/502"), "a clear mark is dropped");
    assert_eq!(
        lost_of(&s, "A/501"),
        1,
        "another formation's step stays lost"
    );
    assert!(s.placing().is_none() && s.reinf_one.is_none());
    // The order reads back as written.
    let c = order::parse("place reinf 502 C/502 A/502").unwrap();
    assert_eq!(order::describe(&c), "place reinf 502 C/502 A/502");
}

#[test]
fn reinf_s3_1_one_step_lost_then_one_step_of_a_lost_82nd_ab_unit_with_the_formation_leader() {
    let mut s = game("the-best-laid-plans");
    put(&mut s, "A/502", "56.203");
    put(&mut s, "ldr-502", "56.204");
    put(&mut s, "ldr-501", "56.206");
    lose(&mut s, "B/502", 1);
    allied_draws_reinf(&mut s);
    // With a step lost, the formation's two-step Lost 82nd AB unit is refused: recover first.
    let e = refused(
        &mut s,
        "allied",
        "place reinf lost82-1 56.204",
        "S3.1 Events (Reinf)",
    );
    assert!(e.message.contains("502 has 1 step(s) lost"), "{e}");
    ok(&mut s, "allied", "place reinf 502", &[]);
    assert_eq!(lost_of(&s, "B/502"), 0);
    assert_eq!(s.reinf_one.as_deref(), Some("502"));
    assert_eq!(s.placing(), Some((Side::Allied, "reinf")));
    // One step of a Lost 82nd AB unit, with the 502's Leader only.
    refused(&mut s, "allied", "place reinf 501", "S3.1 Events (Reinf)");
    let e = refused(
        &mut s,
        "allied",
        "place reinf lost82-1 56.206",
        "S3.1 Events (Reinf)",
    );
    assert!(e.message.contains("502's Leader at 56.204"), "{e}");
    ok(&mut s, "allied", "place reinf lost82-1 56.204", &[]);
    assert_eq!(s.units["lost82-1"].hex, hex("56.204"));
    assert_eq!(lost_of(&s, "lost82-1"), 1, "one step of its two");
    assert!(s.placing().is_none() && s.reinf_one.is_none());
    // A formation that lost none: a two-step unit with its Leader.
    let mut s = game("the-best-laid-plans");
    put(&mut s, "A/502", "56.203");
    put(&mut s, "ldr-502", "56.204");
    allied_draws_reinf(&mut s);
    ok(&mut s, "allied", "place reinf lost82-2 56.204", &[]);
    assert_eq!(lost_of(&s, "lost82-2"), 0, "both steps");
    // A Guards formation's short step is lost: the Lost 82nd AB come with the 101st.
    let mut s = game("the-best-laid-plans");
    put(&mut s, "A/502", "56.203");
    let guards = OOB
        .units_of("hot")
        .find(|u| u.class != Class::Leader)
        .unwrap()
        .id
        .clone();
    lose(&mut s, &guards, 1);
    allied_draws_reinf(&mut s);
    ok(&mut s, "allied", "place reinf hot", &[]);
    assert_eq!(lost_of(&s, &guards), 0);
    assert!(s.placing().is_none() && s.reinf_one.is_none());
}

#[test]
fn reinf_s3_1_the_german_recovers_two_steps_and_loses_the_excess() {
    let mut s = game("the-best-laid-plans");
    unit_at(&mut s, "G/1", Side::German, "56.220");
    lose(&mut s, "1/59-a", 1);
    s.cups.insert(Side::German, ids(&["reinf"]));
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 56.210 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[1]);
    assert_eq!(s.placing(), Some((Side::German, "reinf")));
    refused(&mut s, "german", "place reinf 502", "S3.1 Events (Reinf)");
    let e = refused(
        &mut s,
        "german",
        "place reinf lost82-1 56.204",
        "S3.1 Events (Reinf)",
    );
    assert!(e.message.contains("only the 101st player"), "{e}");
    ok(&mut s, "german", "place reinf 59-a", &[]);
    assert_eq!(lost_of(&s, "1/59-a"), 0);
    assert!(
        s.placing().is_none() && s.reinf_one.is_none(),
        "the other step is lost"
    );
    // With no German step lost, there is nothing to recover: no one is asked.
    s.cups.insert(Side::German, ids(&["reinf"]));
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 56.210 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[1]);
    assert!(s.placing().is_none());
}

#[test]
fn rout_s3_1_decision_33_a_routed_german_formation_s_units_not_taken_off_the_map_are_eliminated() {
    let routing = |named: &str| {
        let mut s = before_1900("campaign", 18);
        s.time = 3;
        s.phase = Phase::Activation;
        s.offmap.insert("erc-kg-stiller".into(), OffMap::OnMap);
        unit_at(&mut s, "1/erc-kg-stiller", Side::German, "30.100");
        unit_at(&mut s, "2/erc-kg-stiller", Side::German, "30.101");
        unit_at(&mut s, "3/erc-kg-stiller", Side::German, "30.102");
        unit_at(&mut s, "1/erc-fj-ersatz", Side::German, "30.103");
        unit_at(&mut s, "G/st1", Side::German, "30.104");
        lose(&mut s, "2/erc-kg-stiller", 1);
        s.marks.get_mut("2/erc-kg-stiller").unwrap().cohesion = 1;
        s.cups.insert(Side::Allied, ids(&["rout"]));
        allied_impulse(&mut s, "f-501");
        ok(&mut s, "allied", "fire A/1 30.100 small-arms", &[9]);
        ok(&mut s, "allied", "result none", &[1]);
        assert_eq!(s.rout(), Some(Side::German));
        if !named.is_empty() {
            ok(
                &mut s,
                "german",
                &format!("rout erc-kg-stiller {named}"),
                &[],
            );
        }
        s
    };
    // Bad input changes nothing: a unit of another Formation is not routed with it.
    let mut s = routing("");
    let e = refused(
        &mut s,
        "german",
        "rout erc-kg-stiller 1/erc-kg-stiller 1/erc-fj-ersatz",
        "S3.1 Rout",
    );
    assert!(
        e.message
            .contains("1/erc-fj-ersatz is neither a unit of erc-kg-stiller"),
        "{e}"
    );
    // Those named are taken off (losses kept, Cohesion gone); the others routed are eliminated.
    let s = routing("2/erc-kg-stiller G/st1");
    for u in [
        "1/erc-kg-stiller",
        "2/erc-kg-stiller",
        "3/erc-kg-stiller",
        "G/st1",
    ] {
        assert!(!s.units.contains_key(u), "{u} is off the map");
    }
    assert!(s.units.contains_key("1/erc-fj-ersatz"));
    assert_eq!(s.marks["2/erc-kg-stiller"].lost, 1);
    assert_eq!(s.marks["2/erc-kg-stiller"].cohesion, 0);
    assert!(!s.eliminated.contains_key("2/erc-kg-stiller"));
    assert_eq!(s.eliminated.get("1/erc-kg-stiller"), Some(&2));
    assert_eq!(s.eliminated.get("3/erc-kg-stiller"), Some(&2));
    assert_eq!(s.offmap["erc-kg-stiller"], OffMap::Routed { back: 19 });
    // A bare rout takes every routed unit off the map, none eliminated; `none` eliminates them.
    let mut s = routing("");
    ok(&mut s, "german", "rout erc-kg-stiller", &[]);
    assert!(s.eliminated.is_empty(), "{:?}", s.eliminated);
    assert!(!s.units.contains_key("3/erc-kg-stiller"));
    assert!(
        s.units.contains_key("G/st1"),
        "a counter outside the OOB only if named"
    );
    let s = routing("none");
    assert_eq!(s.eliminated.len(), 3, "{:?}", s.eliminated);
    assert!(s.units.contains_key("G/st1"));
}

#[test]
fn rout_s3_1_the_formation_needs_a_step_lost_on_its_units_checked_against_the_marks() {
    let mut s = before_1900("campaign", 18);
    s.time = 3;
    s.phase = Phase::Activation;
    s.offmap.insert("erc-kg-stiller".into(), OffMap::OnMap);
    unit_at(&mut s, "G/st1", Side::German, "30.100");
    s.cups.insert(Side::Allied, ids(&["rout"]));
    allied_impulse(&mut s, "f-501");
    ok(&mut s, "allied", "fire A/1 30.100 small-arms", &[9]);
    ok(&mut s, "allied", "result none", &[1]);
    assert_eq!(s.rout(), Some(Side::German));
    // Bad input changes nothing: no step lost; an Independent Formation; a step lost only on
    // an Independent Unit does not count for its Formation either.
    let e = refused(&mut s, "german", "rout erc-kg-stiller G/st1", "S3.1 Rout");
    assert!(
        e.message
            .contains("erc-kg-stiller has no step lost on its units")
            && e.message
                .contains("name a Formation with a step lost, or pass"),
        "{e}"
    );
    lose(&mut s, "A/326", 1);
    let e = refused(&mut s, "german", "rout ind-101", "S3.1 Rout");
    assert!(
        e.message.contains("ind-101 is an Independent Formation"),
        "{e}"
    );
    let e = refused(&mut s, "german", "rout 501", "S3.1 Rout");
    assert!(e.message.contains("501 has no step lost"), "{e}");
    // A step lost on one unit of the Formation: it routs.
    lose(&mut s, "2/erc-kg-stiller", 1);
    ok(&mut s, "german", "rout erc-kg-stiller G/st1", &[]);
    assert_eq!(s.offmap["erc-kg-stiller"], OffMap::Routed { back: 19 });
    // An Allied Formation: its marks too (the German may name a friendly or an enemy one).
    let mut s = game("the-best-laid-plans");
    put(&mut s, "A/502", "56.203");
    lose(&mut s, "B/502", 1);
    s.cups.insert(Side::German, ids(&["rout"]));
    unit_at(&mut s, "G/1", Side::German, "56.220");
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 56.210 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[1]);
    assert_eq!(s.rout(), Some(Side::Allied));
    refused(&mut s, "allied", "rout 501", "S3.1 Rout");
    ok(&mut s, "allied", "rout 502", &[]);
    assert!(s.rout().is_none());
}

#[test]
fn reinf_s3_1_decision_21_an_eliminated_unit_s_steps_are_kept_and_come_back_with_its_leader() {
    // Eliminated, a unit of the order of battle keeps its two steps as the 502's losses.
    let mut s = b_502_eliminated(json!({}));
    assert!(!s.units.contains_key("B/502") && !s.marks.contains_key("B/502"));
    assert_eq!(s.eliminated.get("B/502"), Some(&2));
    assert_eq!(
        despatch_core::rules::where_eagles_dare::units::formation_losses(&s, "502"),
        2
    );
    // A step lost on a unit in play comes back first, then the eliminated unit with the
    // other, in its formation Leader's hex.
    lose(&mut s, "A/502", 1);
    allied_draws_reinf(&mut s);
    // Bad input changes nothing: with no Leader of the 502 on the map, B/502 has nowhere to
    // come back to.
    let leader = s.units.remove("ldr-502").unwrap();
    let e = refused(
        &mut s,
        "allied",
        "place reinf 502 B/502",
        "S3.1 Events (Reinf)",
    );
    assert!(
        e.message
            .contains("B/502 is eliminated and cannot come back")
            && e.message.contains("no Leader of 502 is on the map"),
        "{e}"
    );
    s.units.insert("ldr-502".into(), leader);
    ok(&mut s, "allied", "place reinf 502", &[]);
    assert_eq!(lost_of(&s, "A/502"), 0);
    assert_eq!(s.units["B/502"].hex, hex("56.204"));
    assert_eq!(lost_of(&s, "B/502"), 1, "one step of its two came back");
    assert!(s.eliminated.is_empty());
    assert!(s.placing().is_none() && s.reinf_one.is_none());

    // Named twice, both of its steps come back.
    let mut s = b_502_eliminated(json!({}));
    allied_draws_reinf(&mut s);
    ok(&mut s, "allied", "place reinf 502 B/502 B/502", &[]);
    assert_eq!(s.units["B/502"].hex, hex("56.204"));
    assert!(!s.marks.contains_key("B/502") && s.eliminated.is_empty());

    // Its steps are losses: the 502 may not bring a two-step Lost 82nd AB unit in.
    let mut s = b_502_eliminated(json!({}));
    allied_draws_reinf(&mut s);
    let e = refused(
        &mut s,
        "allied",
        "place reinf lost82-2 56.204",
        "S3.1 Events (Reinf)",
    );
    assert!(e.message.contains("502 has 2 step(s) lost"), "{e}");

    // Option reinf_eliminated off: the steps count but do not come back; the excess is lost.
    let mut s = b_502_eliminated(json!({ "reinf_eliminated": false }));
    lose(&mut s, "A/502", 1);
    allied_draws_reinf(&mut s);
    let e = refused(
        &mut s,
        "allied",
        "place reinf 502 B/502",
        "S3.1 Events (Reinf)",
    );
    assert!(e.message.contains("option reinf_eliminated is off"), "{e}");
    ok(&mut s, "allied", "place reinf 502", &[]);
    assert_eq!(lost_of(&s, "A/502"), 0);
    assert!(!s.units.contains_key("B/502"));
    assert_eq!(s.eliminated.get("B/502"), Some(&2));
    assert!(s.placing().is_none() && s.reinf_one.is_none());
    assert!(game_with("the-best-laid-plans", json!({ "reinf_eliminated": 1 })).is_err());

    // Joe Mann negates the elimination: nothing is kept.
    let mut s = game("the-best-laid-plans");
    put(&mut s, "B/502", "56.205");
    german_result(&mut s, "56.205", "eliminated B/502");
    assert_eq!(s.eliminated.get("B/502"), Some(&2));
    ok(&mut s, "allied", "joemann", &[]);
    assert!(s.units.contains_key("B/502") && s.eliminated.is_empty());
}

#[test]
fn reinf_s3_1_decision_21_a_unit_s_last_step_lost_is_kept_as_its_formation_s_loss() {
    let mut s = game("a-ride-in-the-country");
    put(&mut s, "A/502", "56.203");
    lose(&mut s, "A/502", 1);
    german_result(&mut s, "56.203", "step-loss A/502");
    assert!(!s.units.contains_key("A/502") && !s.marks.contains_key("A/502"));
    assert_eq!(s.eliminated.get("A/502"), Some(&2));
    // A unit outside the order of battle leaves nothing to keep.
    unit_at(&mut s, "X/1", Side::Allied, "56.206");
    german_result(&mut s, "56.206", "eliminated X/1");
    assert!(!s.eliminated.contains_key("X/1"));
}

#[test]
fn rout_s3_1_decision_21_an_eliminated_unit_s_steps_count_for_its_formation() {
    let mut s = b_502_eliminated(json!({}));
    s.cups.insert(Side::German, ids(&["rout"]));
    unit_at(&mut s, "G/1", Side::German, "56.220");
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 56.210 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[1]);
    assert_eq!(s.rout(), Some(Side::Allied));
    let e = refused(&mut s, "allied", "rout 501", "S3.1 Rout");
    assert!(e.message.contains("501 has no step lost"), "{e}");
    ok(&mut s, "allied", "rout 502", &[]);
    assert!(s.rout().is_none());
}

#[test]
fn heroic_s3_1_decision_29_a_heroic_unit_s_tq_and_rally_pass_on_one_more_face() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    // Without Heroic, a 7 fails the faces 0-6 stated for the counter's TQ.
    ok(&mut s, "german", "tq G/x wire son pass 0-6", &[7]);
    assert_eq!(s.bridges["son"].wired_by, None);
    // Heroic: "a TQ of one more … than its face value": 0-6 passes on 7 too, not on 8.
    s.heroic.insert(Side::German, "G/eng".into());
    ok(&mut s, "german", "tq G/eng wire son pass 0-6", &[7]);
    assert_eq!(s.bridges["son"].wired_by, Some(Side::German));
    s.marks.insert(
        "G/eng".into(),
        Marks {
            suppressed: true,
            ..Marks::default()
        },
    );
    ok(&mut s, "german", "rally G/eng pass 0-3", &[5]);
    assert!(
        s.marks["G/eng"].suppressed,
        "5 fails 0-3 and its one more face"
    );
    ok(&mut s, "german", "rally G/eng pass 0-3", &[4]);
    assert!(!s.marks.contains_key("G/eng"), "4 passes a Heroic 0-3");
    // Another unit of the side is not Heroic.
    s.marks.insert(
        "G/x".into(),
        Marks {
            suppressed: true,
            ..Marks::default()
        },
    );
    ok(&mut s, "german", "rally G/x pass 0-3", &[4]);
    assert!(s.marks["G/x"].suppressed);
    // Option off: the stated faces already include Heroic.
    let mut s = game_with("the-best-laid-plans", json!({ "heroic_tq": false })).unwrap();
    german_impulse(&mut s);
    s.heroic.insert(Side::German, "G/eng".into());
    ok(&mut s, "german", "tq G/eng wire son pass 0-6", &[7]);
    assert_eq!(s.bridges["son"].wired_by, None);
    assert!(game_with("the-best-laid-plans", json!({ "heroic_tq": "on" })).is_err());
}

#[test]
fn rout_s3_1_decision_30_a_routed_allied_formation_moves_one_hex_without_opportunity_fire_or_entrenches(
) {
    let mut s = game("the-best-laid-plans");
    s.units.retain(|_, u| u.side == Side::German);
    put(&mut s, "A/502", "56.203");
    put(&mut s, "C/502", "56.230");
    // An Independent Unit stacked with the Formation routs with it; one elsewhere does not.
    put(&mut s, "A/326", "56.203");
    put(&mut s, "B/326", "56.231");
    lose(&mut s, "B/502", 1);
    s.cups.insert(Side::German, ids(&["rout"]));
    unit_at(&mut s, "G/1", Side::German, "56.220");
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 56.210 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[1]);
    ok(&mut s, "allied", "rout 502", &[]);
    let r = s.routing().cloned().expect("the routed units to settle");
    assert_eq!(r.side, Side::Allied);
    assert_eq!(r.units, vec!["A/502", "C/502", "A/326"]);
    // Bad input changes nothing: a move of more than one hex, a unit not routed, another
    // action, the German acting.
    let e = refused(&mut s, "allied", "move A/502 56.204 56.205", "S3.1 Rout");
    assert!(e.message.contains("one hex"), "{e}");
    let e = refused(&mut s, "allied", "move B/326 56.232", "S3.1 Rout");
    assert!(
        e.message.contains("B/326 is not a routed unit of 502"),
        "{e}"
    );
    refused(
        &mut s,
        "allied",
        "fire A/502 56.220 small-arms",
        "S3.1 Rout",
    );
    refused(&mut s, "allied", "entrench B/326", "S3.1 Rout");
    refused(
        &mut s,
        "german",
        "fire G/1 56.203 small-arms",
        "sequence of play",
    );
    // One hex, and no opportunity fire window for the German.
    ok(&mut s, "allied", "move A/502 56.204", &[]);
    assert_eq!(s.units["A/502"].hex, hex("56.204"));
    assert_eq!(
        s.window, None,
        "no opportunity fire at a routed unit's move"
    );
    // A unit that cannot leave the Fire Zones stays under an Entrenched marker.
    ok(&mut s, "allied", "entrench A/326", &[]);
    assert!(s.entrenched.contains("A/326"));
    assert_eq!(s.window, None);
    let seat = Seat::parse("allied").unwrap();
    let text = WhereEaglesDare.board_text(&s, &Viewer::Seat(seat)).unwrap();
    assert!(text.contains("Entrenched"), "{text}");
    assert_eq!(s.routing().unwrap().units, vec!["C/502"]);
    // The Allied player is asked, and only he; a missed deadline passes.
    let prompts = WhereEaglesDare.prompts(&s);
    assert_eq!(prompts.len(), 1);
    assert_eq!(prompts[0].seat.as_str(), "allied");
    assert!(prompts[0].options.iter().any(|o| o == "entrench C/502"));
    let mut late = s.clone();
    let mut q = VecDeque::new();
    WhereEaglesDare
        .timeout(
            &mut late,
            &Seat::parse("allied").unwrap(),
            &mut Ctx::new(DiceSource::Scripted(&mut q), None),
        )
        .unwrap();
    assert!(late.routing().is_none());
    // The rest are not in an enemy Fire Zone: they stay, nothing placed on them.
    ok(&mut s, "allied", "pass", &[]);
    assert!(s.routing().is_none());
    assert_eq!(s.units["C/502"].hex, hex("56.230"));
    assert!(!s.entrenched.contains("C/502"));
    // The marker stays with the unit until it leaves its hex.
    allied_impulse(&mut s, "div-101");
    ok(&mut s, "allied", "move A/326 56.202", &[]);
    assert!(!s.entrenched.contains("A/326"));
    // A German Formation not of an off-map display is still the players' to carry out.
    assert_eq!(
        despatch_core::rules::where_eagles_dare::offmap::allied_routed(&s, "59-a"),
        None
    );
}

#[test]
fn rout_s3_1_decision_43_a_routed_59th_formation_rolls_its_step_losses_or_less_and_leaves_play() {
    // The German names 59-a (three steps lost: one on 1/59-a's marks, 3/59-a eliminated).
    let drawn = || {
        let mut s = before_1900("campaign", 18);
        s.time = 3;
        unit_at(&mut s, "ldr-59-a", Side::German, "30.100");
        unit_at(&mut s, "1/59-a", Side::German, "30.101");
        unit_at(&mut s, "1/59-b", Side::German, "30.102");
        unit_at(&mut s, "G/ind", Side::German, "30.103");
        lose(&mut s, "1/59-a", 1);
        s.eliminated.insert("3/59-a".into(), 2);
        s.cups.insert(Side::Allied, ids(&["rout"]));
        allied_impulse(&mut s, "f-501");
        ok(&mut s, "allied", "fire A/1 30.101 small-arms", &[9]);
        ok(&mut s, "allied", "result none", &[1]);
        assert_eq!(s.rout(), Some(Side::German));
        s
    };
    // KG Huber under the 59th is a 59th Formation (S5.5); under KG Chill it is not.
    assert!(offmap::is_59th("59-a") && offmap::is_59th("huber-59"));
    assert!(!offmap::is_59th("huber-chill") && !offmap::is_59th("erc-kg-stiller"));
    // Bad input changes nothing: a unit of another Formation is not removed with it.
    let mut s = drawn();
    let e = refused(&mut s, "german", "rout 59-a 1/59-b", "S3.1 Rout");
    assert!(
        e.message.contains("1/59-b is neither a unit of 59-a"),
        "{e}"
    );
    assert!(e.message.contains("ldr-59-a at 30.100, range 3"), "{e}");
    // The engine rolls: a 4 is more than 3 steps lost: no rout, all stay.
    ok(&mut s, "german", "rout 59-a", &[4]);
    assert!(s.rout().is_none());
    assert!(s.units.contains_key("ldr-59-a") && s.units.contains_key("1/59-a"));
    assert!(s.gone.is_empty());
    // A 3, that number: the Formation is removed from play, with the counters named.
    let mut s = drawn();
    ok(&mut s, "german", "rout 59-a G/ind", &[3]);
    for u in ["ldr-59-a", "1/59-a", "G/ind"] {
        assert!(!s.units.contains_key(u), "{u} left the map");
    }
    assert!(s.units.contains_key("1/59-b"), "another Formation stays");
    for u in [
        "ldr-59-a", "1/59-a", "2/59-a", "3/59-a", "pz/59-a", "pi/59-a",
    ] {
        assert!(s.gone.contains(&u.to_owned()), "{u} is out of play");
    }
    // "Once removed, 59th Infantry Division Units never return to play."
    german_impulse(&mut s);
    s.chit = Some("div-59th".into());
    let e = refused(&mut s, "german", "move 2/59-a 30.110", "S3.1 Rout");
    assert!(e.message.contains("never return"), "{e}");
    ok(&mut s, "german", "move 1/59-b 30.103", &[]);
}
