//! 4.0 The Club Route: establishing it (4.2), XXX Corps release (4.3.1, 4.3.2) and attacking
//! it (4.3.3), with the victory points they score.

use despatch_core::rules::where_eagles_dare::data::{Spur, DATA};
use despatch_core::rules::where_eagles_dare::hex::Hex;
use despatch_core::rules::where_eagles_dare::state::{Phase, Side, Unit};
use despatch_core::rules::where_eagles_dare::victory;
use serde_json::json;

use super::support::*;

#[test]
fn establishing_club_route_4_2_to_a_stop_hex_never_back_and_one_spur() {
    let mut s = game("the-best-laid-plans");
    s.phase = Phase::Route;
    assert!(order(&mut s, "allied", "route 42.228", &[])
        .unwrap_err()
        .message
        .contains("Stop hex"));
    let path = walk(hex("42.229"), hex("61.141"));
    let text: Vec<String> = path.iter().map(Hex::to_string).collect();
    ok(&mut s, "allied", &format!("route {}", text.join(" ")), &[]);
    assert_eq!(s.marker, Some(hex("61.141")));
    assert!(s.on_club_route(hex("42.229")) && !s.on_club_route(hex("61.141")));
    assert_eq!(
        s.phase,
        Phase::Buy { side: Side::Allied },
        "no release on the 17th: step 6"
    );
    // The Son spur, then the Best spur is closed for ever.
    s.phase = Phase::Route;
    let son: Vec<String> = walk_avoiding(hex("61.141"), hex("56.201"), &s.club_route)
        .iter()
        .map(Hex::to_string)
        .collect();
    ok(&mut s, "allied", &format!("route {}", son.join(" ")), &[]);
    assert_eq!(s.spur, Some(Spur::Son));
    s.phase = Phase::Route;
    let best: Vec<String> = walk_avoiding(hex("56.201"), hex("49.160"), &s.club_route)
        .iter()
        .map(Hex::to_string)
        .collect();
    let e = order(&mut s, "allied", &format!("route {}", best.join(" ")), &[]).unwrap_err();
    assert!(e.message.contains("spur not chosen"), "{e}");
    // Never back over Club Route.
    let back = order(
        &mut s,
        "allied",
        &format!(
            "route {}",
            walk(hex("56.201"), hex("61.141"))
                .iter()
                .map(Hex::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        ),
        &[],
    );
    assert!(back.is_err());
}

/// 4.0, 4.1 in a position: the marker stands at its start (42.229) or on a Club Route Stop hex,
/// never on Club Route ("the marker itself is not a Club Route hex"); `route` states the hexes
/// its trace made Club Route. A Stop hex of a spur chooses the spur.
#[test]
fn club_route_4_0_the_marker_of_a_position_stands_at_its_start_or_a_stop_hex() {
    let e = read_position("marker 41.230").err().expect("refused");
    assert!(
        e.message.contains("41.230 is Club Route") && e.message.contains("42.229"),
        "{e}"
    );
    let e = read_position("marker 42.228").err().expect("refused");
    assert!(e.message.contains("Stop hex"), "{e}");
    let p = read_position("marker 42.229").expect("its start");
    assert_eq!(p.state.marker, Some(hex("42.229")));
    let p = read_position("marker 56.201").expect("a Stop hex");
    assert_eq!(
        (p.state.marker, p.state.spur),
        (Some(hex("56.201")), Some(Spur::Son))
    );
    // The trace's hexes, south to north, each next to the one before.
    let p = read_position("route 42.229 42.228\nmarker 61.141").expect("a route");
    assert!(p
        .state
        .club_route
        .ends_with(&[hex("42.229"), hex("42.228")]));
    let e = read_position("route 42.228")
        .err()
        .expect("not next to 41.230");
    assert!(e.message.contains("not next to 41.230"), "{e}");
    let e = read_position("route 42.229\nmarker 42.229")
        .err()
        .expect("the marker on the route");
    assert!(e.message.contains("42.229 is Club Route"), "{e}");
    let e = read_position("marker 42.229\nroute 42.229")
        .err()
        .expect("the route under the marker");
    assert!(e.message.contains("north of Club Route"), "{e}");
}

#[test]
fn establishing_club_route_4_2_a_german_unit_stops_the_trace() {
    let mut s = game("the-best-laid-plans");
    s.phase = Phase::Route;
    let path = walk(hex("42.229"), hex("61.141"));
    s.units.insert(
        "G/1".into(),
        Unit {
            side: Side::German,
            hex: path[3],
            column: false,
        },
    );
    let text: Vec<String> = path.iter().map(Hex::to_string).collect();
    let e = order(&mut s, "allied", &format!("route {}", text.join(" ")), &[]).unwrap_err();
    assert!(e.message.contains("German unit G/1"), "{e}");
}

#[test]
fn attacking_club_route_4_3_3_german_fire_not_a_9_is_attacked_once_a_turn() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 41.231 small-arms", &[4]);
    ok(&mut s, "german", "result none", &[]);
    assert_eq!(
        s.highway.attacked, 1,
        "the act of firing matters, not the result"
    );
    ok(&mut s, "german", "fire G/1 41.230 mortar", &[2]);
    ok(&mut s, "german", "result none", &[]);
    assert_eq!(s.highway.attacked, 1, "one Attacked marker a turn");
    next_turn(&mut s);
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 41.231 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[2]);
    ok(&mut s, "german", "pass", &[]); // Heroic drawn, placed on no unit
    assert_eq!(s.highway.attacked, 1, "a 9 is no attack on Club Route");
    ok(&mut s, "german", "fire G/1 42.228 small-arms", &[3]);
    ok(&mut s, "german", "result none", &[]);
    assert_eq!(
        s.highway.attacked, 1,
        "potential Club Route is not Club Route"
    );
}

#[test]
fn attacking_club_route_4_3_3_light_barrage_attacked_heavy_barrage_closed() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    ok(
        &mut s,
        "german",
        "barrage G/art 41.231 heavy pass 0-4",
        &[7],
    );
    assert_eq!(s.highway.closed, 0, "a barrage not placed closes nothing");
    ok(
        &mut s,
        "german",
        "barrage G/art 41.231 heavy pass 0-4",
        &[4],
    );
    assert_eq!(s.highway.closed, 1);
    ok(
        &mut s,
        "german",
        "barrage G/art 41.230 light pass 0-4",
        &[10],
    );
    assert_eq!(s.highway.attacked, 1);
    assert_eq!(s.barrages.len(), 2);
    next_turn(&mut s);
    assert!(s.barrages.is_empty(), "step 10: barrage markers come off");
}

#[test]
fn attacking_club_route_4_3_3_a_german_unit_on_club_route_closes_it() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    ok(&mut s, "german", "move G/1 42.230 41.231", &[]);
    assert_eq!(s.highway.closed, 1);
    assert_eq!(
        s.window,
        Some(hex("41.231")),
        "the Allied player may fire at the move"
    );
    ok(&mut s, "allied", "pass", &[]);
    next_turn(&mut s);
    assert_eq!(
        s.highway.closed, 2,
        "still on Club Route next turn: another Closed marker"
    );
}

#[test]
fn attacking_club_route_4_3_3_status_check_2_closed_and_3_attacked_cut_on_7_or_less() {
    for (die, cut) in [(7, true), (8, false), (9, false), (10, true)] {
        let mut s = game("the-best-laid-plans");
        s.phase = Phase::Activation;
        s.chit = Some("div-guards".into());
        s.wait = Some(despatch_core::rules::where_eagles_dare::state::Wait::StatusCheck);
        s.highway.attacked = 3;
        s.highway.closed = 2;
        ok(&mut s, "german", "status", &[die]);
        assert_eq!(s.highway.cut, cut, "die {die}");
        assert_eq!(
            (s.highway.attacked, s.highway.closed),
            (0, 0),
            "all markers set aside"
        );
        assert_eq!((s.highway.used_attacked, s.highway.used_closed), (3, 2));
    }
    let mut s = game("the-best-laid-plans");
    s.phase = Phase::Activation;
    s.wait = Some(despatch_core::rules::where_eagles_dare::state::Wait::StatusCheck);
    s.highway.attacked = 1;
    assert!(
        order(&mut s, "allied", "status", &[]).is_err(),
        "only the German asks"
    );
}

#[test]
fn status_check_4_3_3_the_german_asks_it_when_the_guards_division_chit_comes_up() {
    let mut s = mug_of(&["div-guards", "f-501"]);
    s.highway.attacked = 3;
    s.highway.closed = 2;
    ok(&mut s, "allied", "end", &[1, 1, 1]);
    assert!(s.status_window());
    refused(&mut s, "allied", "move A/1 56.201", "sequence of play");
    refused(&mut s, "allied", "status", "sequence of play");
    ok(&mut s, "german", "status", &[7]);
    assert!(s.highway.cut);
    assert_eq!((s.highway.used_attacked, s.highway.used_closed), (3, 2));
    // In his own impulse, the German may not ask.
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    s.highway.attacked = 1;
    let e = refused(&mut s, "german", "status", "4.3.3");
    assert!(
        e.message.contains("Guards Armored Division Activation"),
        "{e}"
    );
    // An empty box opens no window.
    let mut s = mug_of(&["div-guards", "f-501"]);
    ok(&mut s, "allied", "end", &[1, 1, 1]);
    assert!(!s.status_window());
}

#[test]
fn release_4_3_1_not_on_the_17th_then_the_first_automatic_and_rolls_until_a_failure() {
    let mut s = before_1900("the-best-laid-plans", 17);
    ok(&mut s, "allied", "end", &[]);
    ok(&mut s, "allied", "route stay", &[]);
    assert!(s.released.is_empty(), "no release on the 17th");
    assert_eq!(s.phase, Phase::Buy { side: Side::Allied });

    let mut s = before_1900("the-best-laid-plans", 18);
    ok(&mut s, "allied", "end", &[]);
    ok(&mut s, "allied", "route stay", &[]);
    assert_eq!(
        s.released,
        ids(&["group-hot"]),
        "the first in line is automatic"
    );
    assert_eq!((s.phase.clone(), s.entries), (Phase::Release, 1));
    refused(&mut s, "allied", "end", "sequence of play");
    // Group Cold (6): 5 + 1 entry = 6, released.
    ok(&mut s, "allied", "release", &[5]);
    // Guards Art. (5): 5 + 2 entries − 2 DP = 5, released; 44 RTR is Auto; the Sherwood
    // Foresters suspend the line while the marker is on the map.
    ok(&mut s, "allied", "release dp 2", &[5]);
    assert_eq!(s.dp["guards"], 2);
    assert_eq!(
        s.released,
        ids(&["group-hot", "group-cold", "guards-art", "44-rtr"])
    );
    assert_eq!(s.phase, Phase::Buy { side: Side::Allied });

    let mut s = before_1900("the-best-laid-plans", 18);
    ok(&mut s, "allied", "end", &[]);
    ok(&mut s, "allied", "route stay", &[]);
    ok(&mut s, "allied", "release", &[6]);
    assert_eq!(
        s.released,
        ids(&["group-hot"]),
        "6 + 1 fails: wait for the next 1900"
    );
    assert_eq!(s.phase, Phase::Buy { side: Side::Allied });
}

#[test]
fn release_4_3_2_modifiers_bailey_bulldozer_cut_entries_dp_up_to_4_and_the_43rd() {
    for (face, released) in [(4, true), (5, false)] {
        let mut s = before_1900("the-best-laid-plans", 18);
        s.baileys_placed = 1;
        s.bulldozers_placed = 1;
        s.highway.cut = true;
        ok(&mut s, "allied", "end", &[]);
        ok(&mut s, "allied", "route stay", &[]);
        let e = refused(&mut s, "allied", "release dp 5", "4.3.2");
        assert!(e.message.contains("at most 4"), "{e}");
        // Group Cold (6): face +2 Bailey +1 Bulldozer +2 Cut +1 entry −4 DP = face + 2.
        ok(&mut s, "allied", "release dp 4", &[face]);
        assert_eq!(s.dp["guards"], 0, "paid whatever the roll");
        assert_eq!(
            s.released.contains(&"group-cold".into()),
            released,
            "face {face}"
        );
        if !released {
            assert_eq!(s.baileys_placed, 0, "counted for one release step");
        }
    }
    let mut s = before_1900("the-best-laid-plans", 18);
    s.dp.insert("guards".into(), 2);
    ok(&mut s, "allied", "end", &[]);
    ok(&mut s, "allied", "route stay", &[]);
    refused(&mut s, "allied", "release dp 3", "4.3.2");

    // The 43rd: no DP of its own, always −4.
    let mut s = before_1900("the-best-laid-plans", 21);
    s.released = ids(&[
        "group-hot",
        "group-cold",
        "guards-art",
        "44-rtr",
        "sherwood",
        "royal-dragoons",
    ]);
    s.marker = None;
    ok(&mut s, "allied", "end", &[]);
    assert_eq!(s.released.last().unwrap(), "101-sea-tail", "first in line");
    let e = refused(&mut s, "allied", "release dp 1", "4.3.2");
    assert!(e.message.contains("43rd"), "{e}");
    ok(&mut s, "allied", "release", &[8]); // 8 + 1 − 4 = 5: the 129th released
    ok(&mut s, "allied", "release", &[8]); // 8 + 2 − 4 = 6: the 130th not
    assert_eq!(s.released.last().unwrap(), "129-bde");
}

#[test]
fn release_4_3_1_the_example_20_sept_on_and_off_the_map() {
    // On the map: Guards Art. automatically, 44 RTR Auto, then the Sherwood Foresters wait.
    let mut s = before_1900("the-best-laid-plans", 20);
    s.released = ids(&["group-hot", "group-cold"]);
    ok(&mut s, "allied", "end", &[]);
    ok(&mut s, "allied", "route stay", &[]);
    assert_eq!(
        s.released,
        ids(&["group-hot", "group-cold", "guards-art", "44-rtr"])
    );
    assert_eq!(s.phase, Phase::Buy { side: Side::Allied }, "no roll at all");

    // Off the map: the four come in, and the 101st Sea Tail is rolled for with +4 (read as
    // the +1 per entry of 4.3.2; the example prints "−4").
    for (face, released) in [(2, true), (3, false)] {
        let mut s = before_1900("the-best-laid-plans", 20);
        s.released = ids(&["group-hot", "group-cold"]);
        s.marker = None;
        ok(&mut s, "allied", "end", &[]);
        assert_eq!(
            s.released,
            ids(&[
                "group-hot",
                "group-cold",
                "guards-art",
                "44-rtr",
                "sherwood",
                "royal-dragoons"
            ])
        );
        assert_eq!((s.phase.clone(), s.entries), (Phase::Release, 4));
        ok(&mut s, "allied", "release", &[face]);
        assert_eq!(
            s.released.contains(&"101-sea-tail".into()),
            released,
            "{face} + 4 against 6"
        );
    }
}

#[test]
fn release_4_3_1_the_1st_ab_sea_tail_is_always_bypassed() {
    let mut s = before_1900("the-best-laid-plans", 22);
    s.released = DATA.release_line[..DATA.release_line.len() - 2]
        .iter()
        .map(|e| e.id.clone())
        .collect();
    s.marker = None;
    ok(&mut s, "allied", "end", &[]);
    assert_eq!(s.released.len(), DATA.release_line.len());
    assert_eq!(
        s.released[s.released.len() - 2..],
        ids(&["82-sea-tail", "1-sea-tail"])
    );
    assert_eq!(s.entries, 1, "the 82nd counted, the 1st bypassed");
}

#[test]
fn victory_4_3_1_released_formations_count_auto_ones_do_not_and_the_day_club_route_came_off() {
    let mut s = game("the-best-laid-plans");
    assert_eq!(victory::tally(&s).allied.total, 0);
    s.released = ids(&[
        "group-hot",
        "group-cold",
        "guards-art",
        "44-rtr",
        "sherwood",
        "royal-dragoons",
        "101-sea-tail",
        "129-bde",
    ]);
    // Five with a marker (the 43rd's 129th counted); 44 RTR, the Sherwood Foresters and the
    // Royal Dragoons are Auto and do not count.
    assert_eq!(victory::counted_releases(&s), 5);
    let v = &DATA.victory;
    assert_eq!(victory::tally(&s).allied.total, 5 * v.released);
    s.route_cleared_day = Some(19);
    let t = victory::tally(&s);
    assert_eq!(t.allied.total, 5 * v.released + route_off_points(19));
    assert!(
        route_off_points(19) > route_off_points(21),
        "earlier is worth more"
    );
    assert!(
        t.allied.text().contains("Club Route off the map 19 Sept"),
        "{:?}",
        t.allied
    );
    // The 1st AB Sea Tail is bypassed, never released: it scores nothing.
    s.released.push("1-sea-tail".into());
    assert_eq!(victory::counted_releases(&s), 5);
}

#[test]
fn victory_4_3_3_attacked_and_closed_markers_score_for_the_german_set_aside_or_not() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    // German fire at Club Route (not a 9): an Attacked marker; a German unit on it: Closed.
    ok(&mut s, "german", "fire G/1 41.231 small-arms", &[4]);
    ok(&mut s, "german", "result none", &[]);
    ok(&mut s, "german", "move G/2 41.230", &[]);
    let v = &DATA.victory;
    assert_eq!(victory::tally(&s).german.total, v.attacked + v.closed);
    // A status check sets the markers aside; they still count.
    s.highway.closed += 1;
    s.wait = Some(despatch_core::rules::where_eagles_dare::state::Wait::StatusCheck);
    ok(&mut s, "german", "status", &[9]);
    assert_eq!((s.highway.attacked, s.highway.closed), (0, 0));
    let t = victory::tally(&s);
    assert_eq!(t.german.total, v.attacked + 2 * v.closed);
    assert_eq!(t.margin, -t.german.total);
}

#[test]
fn release_4_3_1_a_released_formation_enters_in_the_club_route_marker_s_hex_in_column_not_before() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-guards");
    let m = s.marker.expect("the marker starts on the map").to_string();
    // Group Cold and Guards Art. are still on the Club Route line: none of their Units is placed.
    let e = refused(&mut s, "allied", &format!("move 1/2gg {m} column"), "4.3.1");
    assert!(
        e.message.contains("Group Cold") && e.message.contains("released"),
        "{e}"
    );
    let e = refused(
        &mut s,
        "allied",
        &format!("move 55-fd-rgt {m} column"),
        "4.3.1",
    );
    assert!(e.message.contains("Guards Art."), "{e}");
    // Group Hot, part of which starts on the map (the set-up is not in the text), is the players'.
    play(&mut s, "allied", "move 1/2ig 41.232 column", &[]);
    // Released: in the Club Route marker's hex, in Column, nowhere else.
    s.released
        .extend(["group-hot".to_owned(), "group-cold".to_owned()]);
    let e = refused(&mut s, "allied", "move 2/2gg 41.231 column", "4.3.1");
    assert!(e.message.contains(&format!("move 2/2gg {m} column")), "{e}");
    let e = refused(&mut s, "allied", &format!("move 2/2gg {m}"), "4.3.1");
    assert!(e.message.contains("arrive in Column"), "{e}");
    play(&mut s, "allied", &format!("move 2/2gg {m} column"), &[]);
    assert!(s.units["2/2gg"].column && s.units["2/2gg"].hex.to_string() == m);
    // Once placed it moves as any unit (its first hex was the marker's).
    play(&mut s, "allied", &format!("move 1/2gg {m} column"), &[]);
    // The marker off the map: the released Formation's Units no longer appear on this map.
    s.marker = None;
    let e = refused(&mut s, "allied", "move 3/2gg 41.232 column", "4.3.1");
    assert!(e.message.contains("off the map"), "{e}");
    // Option off: placements are the players'.
    let mut s = game_with("the-best-laid-plans", json!({ "release_entry": false })).unwrap();
    allied_impulse(&mut s, "div-guards");
    play(&mut s, "allied", "move 1/2gg 41.231 column", &[]);
    assert!(game_with("the-best-laid-plans", json!({ "release_entry": 1 })).is_err());
}
