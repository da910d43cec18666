//! 2.0 Terrain: the terrain chart, movement costs, line of sight, streams and their bridges,
//! rivers, bridges (crossing, railroad bridges, demolition, repair), ferries, raised roads and
//! the column locks.

use std::collections::VecDeque;

use despatch_core::engine::ruleset::{Ctx, DiceSource, Outcome, Rules, Seat};
use despatch_core::rules::where_eagles_dare::data::DATA;
use despatch_core::rules::where_eagles_dare::hex::Hex;
use despatch_core::rules::where_eagles_dare::los::{hexes_between, Sight};
use despatch_core::rules::where_eagles_dare::order;
use despatch_core::rules::where_eagles_dare::state::{Phase, Side, Unit};
use despatch_core::rules::where_eagles_dare::terrain::{
    fire_modifier, Map, Mobility, Terrain, CHART,
};
use despatch_core::rules::where_eagles_dare::WhereEaglesDare;
use serde_json::json;

use super::support::*;

#[test]
fn cities_2_9_and_fortified_2_10_artillery_0_makes_rubble() {
    let mut s = game("the-best-laid-plans");
    s.phase = Phase::Activation;
    ok(
        &mut s,
        "allied",
        "fire A/art 50.150 small-arms on city",
        &[10],
    );
    ok(&mut s, "allied", "result none", &[]);
    assert!(s.rubble.is_empty(), "not artillery");
    ok(
        &mut s,
        "allied",
        "fire A/art 50.150 indirect-he on woods",
        &[10],
    );
    ok(&mut s, "allied", "result none", &[]);
    assert!(s.rubble.is_empty(), "not a city");
    ok(
        &mut s,
        "allied",
        "fire A/art 50.150 indirect-he on city",
        &[1],
    );
    ok(&mut s, "allied", "result none", &[]);
    assert!(s.rubble.is_empty(), "not a 0");
    ok(
        &mut s,
        "allied",
        "fire A/art 50.150 indirect-he on fortified",
        &[10],
    );
    ok(&mut s, "allied", "result suppressed", &[]);
    assert_eq!(s.rubble, vec![hex("50.150")]);
}

/// 2.9, 2.10 on a game's map: the target hex's terrain is the map's where it knows the hex, so
/// an artillery "0" on a city or fortified hex of the map makes rubble with no terrain stated,
/// and a stated terrain the map contradicts is refused, changing nothing.
#[test]
fn cities_2_9_and_fortified_2_10_the_game_s_map_gives_the_target_hex_s_terrain() {
    let text = "hex 50.150 city\nhex 50.151 fortified\nhex 50.152 woods\n";
    let mut s = game_with("the-best-laid-plans", json!({ "map": text })).unwrap();
    s.phase = Phase::Activation;
    let e = refused(
        &mut s,
        "allied",
        "fire A/art 50.152 indirect-he on city",
        "2.1-2.19",
    );
    assert!(
        e.message.contains("woods at 50.152") && e.message.contains("on woods"),
        "{e}"
    );
    ok(&mut s, "allied", "fire A/art 50.152 indirect-he", &[10]);
    ok(&mut s, "allied", "result none", &[]);
    assert!(s.rubble.is_empty(), "woods make no rubble");
    ok(&mut s, "allied", "fire A/art 50.150 indirect-he", &[10]);
    ok(&mut s, "allied", "result none", &[]);
    assert_eq!(s.rubble, vec![hex("50.150")], "the map's city");
    ok(
        &mut s,
        "allied",
        "fire A/art 50.151 indirect-he on fortified",
        &[10],
    );
    ok(&mut s, "allied", "result none", &[]);
    assert_eq!(s.rubble, vec![hex("50.150"), hex("50.151")]);
    // A hex the map does not know: the stated terrain, as without a map.
    ok(
        &mut s,
        "allied",
        "fire A/art 50.153 indirect-he on city",
        &[10],
    );
    ok(&mut s, "allied", "result none", &[]);
    assert_eq!(s.rubble.len(), 3);
}

#[test]
fn bridge_demolition_2_15_6_wire_on_a_pass_demolish_on_5_or_6_with_a_fire_zone() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    let e = order(&mut s, "german", "tq G/eng wire best-rail pass 0-6", &[]).unwrap_err();
    assert!(e.message.contains("49.160"), "{e}");
    assert!(
        order(&mut s, "german", "demolish son", &[]).is_err(),
        "not wired"
    );
    ok(&mut s, "german", "tq G/eng wire son pass 0-6", &[7]);
    assert_eq!(s.bridges["son"].wired_by, None, "7 fails 0-6");
    ok(&mut s, "german", "tq G/eng wire son pass 0-6", &[6]);
    assert_eq!(s.bridges["son"].wired_by, Some(Side::German));
    // The roll comes when an enemy Unit enters one of its hexes (decision 40).
    allied_impulse(&mut s, "div-101");
    play(&mut s, "allied", "move A/x 56.203 56.202", &[]);
    ok(&mut s, "german", "demolish son", &[6]);
    assert!(
        !s.bridges["son"].destroyed && s.bridges["son"].wired_by.is_none(),
        "6 misses without a Fire Zone; unwired"
    );
    no_opfire(&mut s);
    // Control regained (decision 39): German units the last to enter both hexes since.
    play(&mut s, "allied", "move A/x 56.203", &[]);
    german_impulse(&mut s);
    play(&mut s, "german", "move G/a 56.201 56.202 column", &[]);
    ok(&mut s, "german", "tq G/eng wire son pass 0-6", &[1]);
    no_opfire(&mut s);
    allied_impulse(&mut s, "div-101");
    play(&mut s, "allied", "move A/y 56.200 56.201", &[]);
    ok(&mut s, "german", "demolish son fz", &[6]);
    assert!(s.bridges["son"].destroyed);
}

#[test]
fn bridge_demolition_2_15_6_the_engineer_wiring_a_bridge_cannot_be_in_column() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    s.units.insert(
        "G/eng".into(),
        Unit {
            side: Side::German,
            hex: hex("56.201"),
            column: true,
        },
    );
    let e = refused(
        &mut s,
        "german",
        "tq G/eng wire son pass 0-6",
        "2.15.6 Bridge Demolition",
    );
    assert!(
        e.message.contains("in Column at 56.201") && e.message.contains("without 'column'"),
        "{e}"
    );
    s.units.get_mut("G/eng").unwrap().column = false;
    ok(&mut s, "german", "tq G/eng wire son pass 0-6", &[2]);
    assert_eq!(s.bridges["son"].wired_by, Some(Side::German));
}

/// 2.15.6: "Your engineer Unit must begin its Action in one of the two hexes that share the
/// bridge hexside"; 2.15.3 (improve) and 2.18.1 (ferry) ask the same. Where the engine keeps
/// the engineer's position; a counter with none is the players' (decision 12) for wiring and
/// improving, while a ferry's marker goes in the engineer's hex, so a ferry needs one.
#[test]
fn bridge_demolition_2_15_6_the_engineer_begins_its_action_in_one_of_the_bridge_s_two_hexes() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    unit_at(&mut s, "pi/59-a", Side::German, "56.204");
    let e = refused(
        &mut s,
        "german",
        "tq pi/59-a wire son pass 0-6",
        "2.15.6 Bridge Demolition",
    );
    assert!(
        e.message.contains("pi/59-a is at 56.204")
            && e.message.contains("56.201 or 56.202")
            && e.message.contains("move it there first"),
        "{e}"
    );
    // In either hex of the hexside it wires; a counter with no position kept, as before.
    unit_at(&mut s, "pi/59-a", Side::German, "56.201");
    ok(&mut s, "german", "tq pi/59-a wire son pass 0-6", &[2]);
    assert_eq!(s.bridges["son"].wired_by, Some(Side::German));
    german_impulse(&mut s);
    ok(&mut s, "german", "tq G/eng wire best pass 0-6", &[2]);
    assert_eq!(s.bridges["best"].wired_by, Some(Side::German));
    // 2.15.3: improving, in one of the railroad bridge's hexes.
    german_impulse(&mut s);
    let e = refused(
        &mut s,
        "german",
        "tq pi/59-a improve dommel-rail pass 0-6",
        "2.15.3",
    );
    assert!(
        e.message.contains("pi/59-a is at 56.201") && e.message.contains("58.196 or 58.197"),
        "{e}"
    );
    // 2.18.1: "An engineer Unit must begin an activation in the applicable hex".
    s.bridges.get_mut("son").unwrap().destroyed = true;
    s.bridges.get_mut("son").unwrap().wired_by = None;
    unit_at(&mut s, "pi/59-a", Side::German, "56.204");
    let e = refused(&mut s, "german", "tq pi/59-a ferry son pass 0-6", "2.18");
    assert!(
        e.message.contains("56.201 or 56.202") && e.message.contains("move it there first"),
        "{e}"
    );
}

/// 2.15.6: "you may try to demolish it when an enemy Unit enters one of the two hexes sharing
/// the bridge hexside and the bridge becomes contested" (decision 40). The entry that contests
/// a bridge the enemy wired opens his demolition window first (whatever his watch list), the
/// opportunity fire window after; a move stops before crossing it; `demolish` at any other
/// time is refused; the deadline passes.
#[test]
fn bridge_demolition_2_15_6_the_wiring_side_rolls_when_an_enemy_entry_makes_the_bridge_contested() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    ok(&mut s, "german", "tq G/eng wire son pass 0-6", &[2]);
    let e = refused(&mut s, "german", "demolish son", "2.15.6");
    assert!(
        e.message.contains("enters 56.201 or 56.202")
            && e.message.contains("'demolish son [fz]' or 'pass' then"),
        "{e}"
    );
    // The German watches elsewhere: no opportunity fire window, the demolition window still.
    ok(&mut s, "german", "watch 56.190", &[]);
    allied_impulse(&mut s, "div-101");
    ok(
        &mut s,
        "allied",
        "move A/x 56.203 56.202 56.201 column",
        &[],
    );
    assert_eq!(
        s.units["A/x"].hex,
        hex("56.202"),
        "it stops before crossing the wired bridge"
    );
    let d = s
        .demolition
        .clone()
        .expect("the German's demolition window");
    assert_eq!((d.side, d.bridges.clone()), (Side::German, ids(&["son"])));
    assert_eq!(s.window, None, "56.202 is not watched");
    let prompts = WhereEaglesDare.prompts(&s);
    assert_eq!(prompts.len(), 1);
    assert_eq!(
        prompts[0].options,
        ids(&["demolish son", "demolish son fz", "pass"])
    );
    assert!(
        order(&mut s, "allied", "end", &[]).is_err(),
        "the German first"
    );
    let e = refused(&mut s, "german", "opfire G/1 56.202 small-arms", "2.15.6");
    assert!(e.message.contains("demolish son [fz] or pass"), "{e}");
    ok(&mut s, "german", "pass", &[]);
    assert_eq!(s.demolition, None);
    assert_eq!(s.bridges["son"].wired_by, Some(Side::German));
    assert_eq!(s.bridges["son"].contested, vec![hex("56.202")]);
    let board = one_line(&s);
    assert!(
        board.contains("Bridge son: wired by german; contested (the enemy entered 56.202 last)"),
        "{board}"
    );
    // Contested already: another entry, and the crossing, open no window.
    ok(&mut s, "allied", "move A/x 56.201 column", &[]);
    assert_eq!(
        (s.units["A/x"].hex, s.demolition.clone()),
        (hex("56.201"), None)
    );
    // The German is the last to enter both again: he controls it; the next entry opens it,
    // and now the opportunity fire window follows in the watched hex.
    s.units.remove("A/x");
    german_impulse(&mut s);
    ok(&mut s, "german", "watch all", &[]);
    play(&mut s, "german", "move G/a 56.201 56.202 column", &[]);
    assert!(s.bridges["son"].contested.is_empty());
    allied_impulse(&mut s, "div-101");
    ok(&mut s, "allied", "move A/y 56.200 56.201", &[]);
    assert!(s.demolition.is_some() && s.window == Some(hex("56.201")));
    ok(&mut s, "german", "demolish son", &[3]);
    assert!(s.bridges["son"].destroyed);
    assert_eq!(s.demolition, None);
    assert_eq!(s.window, Some(hex("56.201")), "opportunity fire next");
    ok(&mut s, "german", "pass", &[]);
    // The deadline passes: the bridge stays wired.
    german_impulse(&mut s);
    ok(&mut s, "german", "tq G/eng wire best pass 0-6", &[2]);
    allied_impulse(&mut s, "div-101");
    ok(&mut s, "allied", "move A/z 50.162 50.161", &[]);
    assert!(s.demolition.is_some());
    let mut q: VecDeque<u32> = VecDeque::new();
    let mut ctx = Ctx::new(DiceSource::Scripted(&mut q), None);
    WhereEaglesDare
        .timeout(&mut s, &Seat::parse("german").unwrap(), &mut ctx)
        .unwrap();
    assert_eq!(s.demolition, None);
    assert_eq!(s.bridges["best"].wired_by, Some(Side::German));
}

/// 2.15.6: "If you miss the roll … you can only wire the bridge again if you regain control of
/// the bridge"; 2.15.5: "one of your Units must have been the last to enter both of the two
/// hexes" (decision 39). After the miss, that side's entries mark the hexes and the enemy's
/// clear them; the board says what is still to enter.
#[test]
fn bridge_demolition_2_15_6_after_a_missed_roll_the_bridge_is_wired_again_only_once_control_is_regained(
) {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    ok(&mut s, "german", "tq G/eng wire son pass 0-6", &[2]);
    allied_impulse(&mut s, "div-101");
    ok(&mut s, "allied", "move A/x 56.203 56.202", &[]);
    ok(&mut s, "german", "demolish son fz", &[8]);
    no_opfire(&mut s);
    assert_eq!(s.bridges["son"].wired_by, None);
    let board = one_line(&s);
    assert!(
        board.contains("Bridge son: german demolition missed; german units to enter 56.201 and 56.202 to regain control before wiring again"),
        "{board}"
    );
    german_impulse(&mut s);
    let e = refused(
        &mut s,
        "german",
        "tq G/eng wire son pass 0-6",
        "2.15.6 Bridge Demolition",
    );
    assert!(
        e.message.contains("demolition of the son bridge missed")
            && e.message.contains("still to enter: 56.201 and 56.202")
            && e.message.contains("move a unit there first"),
        "{e}"
    );
    // Units already there count only once they enter again; one hex is not enough.
    play(&mut s, "german", "move G/a 56.200 56.201", &[]);
    let e = refused(
        &mut s,
        "german",
        "tq G/eng wire son pass 0-6",
        "2.15.6 Bridge Demolition",
    );
    assert!(e.message.contains("still to enter: 56.202"), "{e}");
    // The enemy's entry after clears the German's mark.
    play(&mut s, "german", "move G/a 56.200", &[]);
    allied_impulse(&mut s, "div-101");
    play(&mut s, "allied", "move A/x 56.201 column", &[]);
    german_impulse(&mut s);
    play(&mut s, "german", "move G/b 56.203 56.202", &[]);
    let e = refused(
        &mut s,
        "german",
        "tq G/eng wire son pass 0-6",
        "2.15.6 Bridge Demolition",
    );
    assert!(e.message.contains("still to enter: 56.201"), "{e}");
    // A/x gone, a German unit enters 56.201 again: control regained.
    s.units.remove("A/x");
    play(&mut s, "german", "move G/a 56.201", &[]);
    let board = one_line(&s);
    assert!(
        board.contains("german demolition missed; control regained, it may wire again"),
        "{board}"
    );
    ok(&mut s, "german", "tq G/eng wire son pass 0-6", &[3]);
    assert_eq!(s.bridges["son"].wired_by, Some(Side::German));
    assert_eq!(s.bridges["son"].regain, None);
}

#[test]
fn terrain_2_1_to_2_19_the_chart_cell_by_cell() {
    let cell = |t: Terrain| CHART[&t].cost;
    let n = None;
    let s = |v: u32| Some(v);
    assert_eq!(
        cell(Terrain::Clear),
        [[s(2), s(1)], [s(3), s(2)], [s(2), s(1)]]
    );
    assert_eq!(
        cell(Terrain::Polder),
        [[s(2), s(1)], [s(5), s(3)], [s(3), s(2)]]
    );
    assert_eq!(
        cell(Terrain::Orchard),
        [[s(2), s(1)], [s(8), s(2)], [s(4), s(1)]]
    );
    assert_eq!(cell(Terrain::Woods), [[s(3), s(2)], [n, n], [n, n]]);
    assert_eq!(
        cell(Terrain::Village),
        [[s(2), s(1)], [s(6), s(1)], [s(4), s(1)]]
    );
    assert_eq!(cell(Terrain::Town), [[s(2), s(1)], [n, s(1)], [n, s(1)]]);
    assert_eq!(cell(Terrain::City), [[s(2), s(1)], [n, s(1)], [n, s(1)]]);
    assert_eq!(
        cell(Terrain::Fortified),
        [[s(2), s(1)], [n, s(3)], [n, s(2)]]
    );
    assert_eq!(
        cell(Terrain::Dunes),
        [[s(2), s(1)], [s(4), s(3)], [s(3), s(2)]]
    );
    let fire: Vec<i32> = [
        Terrain::Clear,
        Terrain::Polder,
        Terrain::Orchard,
        Terrain::Woods,
        Terrain::Village,
        Terrain::Town,
        Terrain::City,
        Terrain::Fortified,
        Terrain::Dunes,
    ]
    .iter()
    .map(|t| CHART[t].fire)
    .collect();
    assert_eq!(fire, [0, 0, -1, -2, -1, -2, -3, -4, -1]);
    assert_eq!(fire_modifier(Terrain::Woods, "small-arms"), -2);
    for c in ["mortar", "indirect-he", "direct-he"] {
        assert_eq!(
            fire_modifier(Terrain::Woods, c),
            0,
            "2.4: woods' -2 ignored by {c}"
        );
    }
    assert_eq!(fire_modifier(Terrain::City, "indirect-he"), -3);
    assert!(
        CHART[&Terrain::Woods].blocking
            && CHART[&Terrain::City].blocking
            && !CHART[&Terrain::Orchard].blocking
    );
}

#[test]
fn terrain_2_5_to_2_17_path_costs_on_a_synthetic_map() {
    let map = Map::parse(SYNTHETIC).unwrap();
    let (a, b, c, d) = (hex("10.10"), hex("10.11"), hex("10.12"), hex("10.13"));
    // 2.5 Road: ½ in Column along the road (half points).
    assert_eq!(
        map.path_cost(Mobility::Wheeled, true, b, &[c]).unwrap(),
        Some(1)
    );
    // 2.4: a vehicle off the road may not enter woods.
    assert!(map.path_cost(Mobility::Tracked, false, b, &[c]).is_err());
    // 2.15.1: a bridge only in Column.
    assert!(map
        .step_cost(Mobility::Leg, false, a, b)
        .unwrap_err()
        .contains("Column"));
    assert_eq!(map.step_cost(Mobility::Leg, true, a, b).unwrap(), Some(1));
    // 2.6: railroad for a wheeled Unit in Column, 2 MP (road first when both).
    // 2.11: a stream costs a leg Unit +2, +1 in Column; closed to vehicles off Road.
    assert_eq!(
        map.step_cost(Mobility::Leg, false, b, hex("11.11"))
            .unwrap(),
        Some(4 + 4)
    );
    assert_eq!(
        map.step_cost(Mobility::Leg, true, b, hex("11.11")).unwrap(),
        Some(2 + 2)
    );
    assert!(map
        .step_cost(Mobility::Wheeled, true, b, hex("11.11"))
        .is_err());
    // 2.14: impassable.
    assert!(map.step_cost(Mobility::Leg, true, a, hex("9.10")).is_err());
    // 2.16: a leg Unit not in Column pays double into a raised road hex; a vehicle not in Column never enters.
    assert_eq!(
        map.step_cost(Mobility::Leg, false, b, hex("11.12"))
            .unwrap(),
        Some(8)
    );
    assert!(map
        .step_cost(Mobility::Wheeled, false, b, hex("11.12"))
        .is_err());
    // 2.17: the culvert, in Column, +2 leg on top of the hex.
    assert_eq!(
        map.step_cost(Mobility::Leg, true, c, d).unwrap(),
        Some(4 + 4)
    );
    assert!(map.step_cost(Mobility::Leg, false, c, d).is_err());
    // A hex the map does not know is not checked.
    assert_eq!(
        map.path_cost(Mobility::Leg, false, a, &[hex("10.9")])
            .unwrap(),
        None
    );
    assert!(Map::parse("side 10.10 12.12 stream").is_err());
}

#[test]
fn hexes_adjacency_reconstructed_from_the_hexsides_the_text_names() {
    for (a, b) in [
        ("55.202", "56.201"),
        ("75.130", "76.130"),
        ("76.127", "77.127"),
        ("86.118", "87.118"),
        ("70.156", "70.157"),
        ("63.185", "63.186"),
    ] {
        assert!(
            hex(a).adjacent(hex(b)) && hex(b).adjacent(hex(a)),
            "{a}/{b}"
        );
        assert_eq!(hex(a).distance(hex(b)), 1);
    }
    for h in ["55.202", "56.201"] {
        for n in hex(h).neighbours() {
            assert!(hex(h).adjacent(n) && n.adjacent(hex(h)));
        }
    }
}

#[test]
fn streams_2_11_a_vehicle_s_first_crossing_rolls_and_a_9_makes_the_bridge_unstable() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-101");
    // A 9: unstable; the vehicle stops before the bridge.
    play(
        &mut s,
        "allied",
        "move A/44rtr 63.186 63.185 tracked column",
        &[9],
    );
    assert_eq!(s.units["A/44rtr"].hex, hex("63.186"));
    assert!(s.stream_bridges["sb-63"].checked && s.stream_bridges["sb-63"].unstable);
    // No vehicle crosses it now, of either side; a Leg Unit does, with no roll.
    let e = refused(
        &mut s,
        "allied",
        "move A/44rtr 63.185 tracked column",
        "2.11",
    );
    assert!(e.message.contains("unstable"), "{e}");
    refused(
        &mut s,
        "allied",
        "move A/jeep 63.186 63.185 mounted column",
        "2.11",
    );
    german_impulse(&mut s);
    refused(
        &mut s,
        "german",
        "move G/pz 63.185 63.186 63.187 tracked column",
        "2.11",
    );
    allied_impulse(&mut s, "f-502");
    play(&mut s, "allied", "move A/502 63.186 63.185", &[]);
    // Any other roll: a stream bridge like any other, never rolled for again.
    allied_impulse(&mut s, "div-guards");
    play(
        &mut s,
        "allied",
        "move A/irish 76.127 77.127 tracked column",
        &[8],
    );
    assert_eq!(s.units["A/irish"].hex, hex("77.127"));
    assert!(s.stream_bridges["sb-76"].checked && !s.stream_bridges["sb-76"].unstable);
    play(&mut s, "allied", "move A/irish 76.127 tracked column", &[]);
    assert_eq!(s.units["A/irish"].hex, hex("76.127"));
}

/// 2.11 with the watch list: a 9 stops a vehicle before the unstable bridge, so it never
/// enters the hex beyond. From rules version 17 that hex opens no opportunity fire window and
/// no line says the move "passed" it; version 16 opened the window at the stop, and its line now
/// says the hex was beyond it.
#[test]
fn streams_2_11_a_vehicle_stopped_before_an_unstable_bridge_did_not_pass_the_hex_beyond() {
    let moved = |version: u32| {
        let mut s = game("the-best-laid-plans");
        s.version = version;
        allied_impulse(&mut s, "div-101");
        s.watch
            .insert(Side::German, [hex("63.185")].into_iter().collect());
        let allied = Seat::parse("allied").unwrap();
        let cmd = WhereEaglesDare
            .parse(&s, &allied, "move A/44rtr 63.186 63.185 tracked column")
            .unwrap();
        let mut dice: VecDeque<u32> = [9].into_iter().collect();
        let mut ctx = Ctx::new(DiceSource::Scripted(&mut dice), None);
        WhereEaglesDare
            .apply(&mut s, &allied, &cmd, &mut ctx)
            .unwrap();
        let lines: Vec<String> = ctx.lines().iter().map(|l| l.text.clone()).collect();
        assert_eq!(s.units["A/44rtr"].hex, hex("63.186"));
        (s, lines)
    };
    let (s, lines) = moved(17);
    assert!(!lines.iter().any(|l| l.contains("passed")), "{lines:#?}");
    assert!(
        lines
            .iter()
            .any(|l| l
                == "63.186 is not on the german player's watch list: no opportunity fire window"),
        "{lines:#?}"
    );
    assert_eq!(s.window, None);
    let (s, lines) = moved(16);
    assert!(!lines.iter().any(|l| l.contains("passed")), "{lines:#?}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("named 63.185") && l.contains("beyond 63.186")),
        "{lines:#?}"
    );
    assert_eq!(s.window, Some(hex("63.186")));
}

/// 2.17: "A Unit must be in Column to use a Culvert." From rules version 17 a move across the
/// culvert of the rules' own data (70.156/70.157) out of Column is refused with no map loaded,
/// as an assault across it always was (decision 56); version 16 checked it only where a map
/// names the culvert's hexside.
#[test]
fn culvert_2_17_a_move_through_the_culvert_is_in_column_map_or_no_map() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "f-502");
    unit_at(&mut s, "A/502", Side::Allied, "70.156");
    let e = refused(&mut s, "allied", "move A/502 70.157", "2.17");
    assert!(e.message.contains("add 'column'"), "{e}");
    play(&mut s, "allied", "move A/502 70.157 column", &[]);
    assert_eq!(s.units["A/502"].hex, hex("70.157"));
    let mut s = game("the-best-laid-plans");
    s.version = 16;
    allied_impulse(&mut s, "f-502");
    unit_at(&mut s, "A/502", Side::Allied, "70.156");
    play(&mut s, "allied", "move A/502 70.157", &[]);
    assert_eq!(s.units["A/502"].hex, hex("70.157"));
}

#[test]
fn streams_2_11_the_southern_bridge_is_checked_in_a_ride_in_the_country_an_option_elsewhere() {
    let s = game("a-ride-in-the-country");
    assert!(
        !s.stream_bridges["sb-55"].checked,
        "A Ride in the Country checks it"
    );
    let s = game("the-best-laid-plans");
    assert!(s.stream_bridges["sb-55"].checked && !s.stream_bridges["sb-55"].unstable);
    let s = game_with(
        "the-best-laid-plans",
        json!({ "southern_bridge_unstable": true }),
    )
    .unwrap();
    assert!(
        s.stream_bridges["sb-55"].unstable,
        "A Ride in the Country was lost"
    );
    assert!(
        !s.stream_bridges["sb-63"].checked,
        "the other three are rolled for"
    );
    let e = game_with(
        "a-ride-in-the-country",
        json!({ "southern_bridge_unstable": true }),
    )
    .unwrap_err();
    assert!(e.rule.contains("2.11"), "{e:?}");
    // A Ride in the Country lost by the Allied player says so.
    let mut s = before_1900("a-ride-in-the-country", 18);
    s.last = (18, 5);
    s.highway.used_closed = 5;
    ok(&mut s, "allied", "end", &[]);
    let Outcome::Finished { summary, .. } = WhereEaglesDare.outcome(&s) else {
        panic!("over");
    };
    assert!(summary.contains("southern stream bridge"), "{summary}");
}

#[test]
fn streams_2_11_club_route_traced_across_a_9_goes_back_to_the_last_stop_hex() {
    let son = hex("56.201");
    let mut path = walk(DATA.marker, hex("55.202"));
    path.push(son);
    let trace = |p: &[Hex]| {
        let t: Vec<String> = p.iter().map(|h| h.to_string()).collect();
        format!("route {}", t.join(" "))
    };
    // A 9 and no Stop hex before the bridge on the trace: the marker stays.
    let mut s = before_1900("a-ride-in-the-country", 18);
    ok(&mut s, "allied", "end", &[]);
    assert_eq!(s.phase, Phase::Route);
    ok(&mut s, "allied", &trace(&path), &[9]);
    assert_eq!(s.marker, Some(DATA.marker));
    assert!(s.stream_bridges["sb-55"].unstable);
    // Unstable, it refuses the trace.
    let mut s = before_1900("a-ride-in-the-country", 18);
    s.stream_bridges.get_mut("sb-55").unwrap().checked = true;
    s.stream_bridges.get_mut("sb-55").unwrap().unstable = true;
    ok(&mut s, "allied", "end", &[]);
    let e = refused(&mut s, "allied", &trace(&path), "4.2");
    assert!(e.message.contains("unstable"), "{e}");
    // Any other roll: the marker goes on to the Stop hex.
    let mut s = before_1900("a-ride-in-the-country", 18);
    ok(&mut s, "allied", "end", &[]);
    ok(&mut s, "allied", &trace(&path), &[4]);
    assert_eq!(s.marker, Some(son));
    assert!(!s.stream_bridges["sb-55"].unstable);
}

#[test]
fn bulldozers_2_11_a_guards_division_impulse_places_one_and_rolls_2_or_less_with_men_at_work() {
    let mut s = game("the-best-laid-plans");
    let sb = s.stream_bridges.get_mut("sb-63").unwrap();
    sb.checked = true;
    sb.unstable = true;
    allied_impulse(&mut s, "div-101");
    refused(&mut s, "allied", "bulldozer dozer-1 sb-63", "2.11");
    allied_impulse(&mut s, "div-guards");
    refused(&mut s, "allied", "bulldozer dozer-9 sb-63", "2.11");
    refused(&mut s, "allied", "bulldozer dozer-1 sb-76", "2.11");
    refused(&mut s, "allied", "bulldoze sb-63", "2.11");
    s.units.insert(
        "G/1".into(),
        Unit {
            side: Side::German,
            hex: hex("63.185"),
            column: false,
        },
    );
    let e = refused(&mut s, "allied", "bulldozer dozer-1 sb-63", "2.11");
    assert!(e.message.contains("G/1"), "{e}");
    s.units.remove("G/1");
    play(&mut s, "allied", "bulldozer dozer-1 sb-63", &[]);
    assert_eq!(s.units["dozer-1"].hex, hex("63.186"), "the southern hex");
    assert_eq!(
        s.bulldozers_placed, 1,
        "+1 to the next release rolls (4.3.2)"
    );
    refused(&mut s, "allied", "bulldozer dozer-2 sb-63", "2.11");
    // 5 fails: a Men at Work marker; one roll an impulse.
    play(&mut s, "allied", "bulldoze sb-63", &[5]);
    assert_eq!(s.stream_bridges["sb-63"].men_at_work, 1);
    refused(&mut s, "allied", "bulldoze sb-63", "2.11");
    // The next Guards Division impulse: 3 − 1 Men at Work = 2, repaired for the game.
    allied_impulse(&mut s, "div-guards");
    play(&mut s, "allied", "bulldoze sb-63", &[3]);
    assert!(!s.stream_bridges["sb-63"].unstable);
    assert!(!s.units.contains_key("dozer-1"), "it leaves the map");

    // It may not be attacked, and an enemy Unit moving into its hex eliminates it.
    let sb = s.stream_bridges.get_mut("sb-76").unwrap();
    sb.checked = true;
    sb.unstable = true;
    play(&mut s, "allied", "bulldozer dozer-2 sb-76", &[]);
    let south = s.units["dozer-2"].hex;
    german_impulse(&mut s);
    ok(
        &mut s,
        "german",
        &format!("fire G/1 {south} small-arms"),
        &[3],
    );
    refused(&mut s, "german", "result eliminated dozer-2", "2.11");
    ok(&mut s, "german", "result eliminated", &[]);
    assert!(s.units.contains_key("dozer-2"), "not attacked");
    ok(&mut s, "german", &format!("move G/2 76.126 {south}"), &[]);
    assert!(s.gone.contains(&"dozer-2".to_owned()));
    assert_eq!(s.stream_bridges["sb-76"].bulldozer, None);
}

#[test]
fn bridge_repair_2_15_7_a_bailey_a_turn_after_the_demolition_then_a_tq_repairs_it() {
    let mut s = son_demolished();
    s.bridges.get_mut("son").unwrap().destroyed_at = Some((17, 2));
    allied_impulse(&mut s, "div-guards");
    let e = refused(&mut s, "allied", "bailey 11-bridge-re son", "2.15.7");
    assert!(e.message.contains("this turn"), "{e}");
    let mut s = son_demolished();
    allied_impulse(&mut s, "div-101");
    refused(&mut s, "allied", "bailey 11-bridge-re son", "2.15.7");
    allied_impulse(&mut s, "div-guards");
    let e = refused(&mut s, "allied", "bailey 128-bridge-re son", "2.15.7");
    assert!(e.message.contains("43rd"), "{e}");
    refused(&mut s, "allied", "bailey 11-bridge-re best", "2.15.7");
    refused(
        &mut s,
        "allied",
        "tq 11-bridge-re repair son pass 0-5",
        "2.15.7",
    );
    play(&mut s, "allied", "bailey 11-bridge-re son", &[]);
    assert_eq!(
        s.units["11-bridge-re"].hex,
        hex("56.202"),
        "the southern hex"
    );
    assert_eq!(s.baileys_placed, 1, "+2 to the next release rolls (4.3.2)");
    // One Bailey an impulse.
    let best = s.bridges.get_mut("best").unwrap();
    best.destroyed = true;
    best.destroyed_at = Some((17, 1));
    refused(&mut s, "allied", "bailey 14-field-sqn-re best", "2.15.7");
    // A failed check, then a pass: the bridge is repaired.
    play(
        &mut s,
        "allied",
        "tq 11-bridge-re repair son pass 0-5",
        &[7],
    );
    assert!(s.bridges["son"].destroyed);
    play(
        &mut s,
        "allied",
        "tq 11-bridge-re repair son pass 0-5",
        &[2],
    );
    assert!(!s.bridges["son"].destroyed && s.bridges["son"].bailey.as_ref().unwrap().bridged);
    play(&mut s, "allied", "move A/3ig 56.202 56.201 column", &[]);
    // Suppressed, it is no bridge until it rallies.
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 56.202 mortar", &[4]);
    ok(&mut s, "german", "result suppressed 11-bridge-re", &[]);
    assert!(!s.bridges["son"].open());
    allied_impulse(&mut s, "div-guards");
    refused(&mut s, "allied", "move A/3ig 56.202 column", "2.15.7");
    play(&mut s, "allied", "rally 11-bridge-re pass 0-5", &[3]);
    assert!(s.bridges["son"].open());
    // Eliminated, it leaves play and the destroyed marker returns.
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 56.202 direct-he", &[1]);
    ok(&mut s, "german", "result eliminated 11-bridge-re", &[]);
    assert!(s.bridges["son"].destroyed && s.bridges["son"].bailey.is_none());
    assert!(s.gone.contains(&"11-bridge-re".to_owned()));
}

#[test]
fn bridge_repair_2_15_7_the_example_a_43rd_bailey_placed_and_rolled_in_one_impulse() {
    // Demolished at 0900; at 1100, in a 43rd Division impulse, the 128th Bridge comes in and
    // rolls for the repair as a second action.
    let mut s = son_demolished();
    s.released = ids(&["group-hot", "129-bde"]);
    allied_impulse(&mut s, "div-43rd");
    play(&mut s, "allied", "bailey 128-bridge-re son", &[]);
    play(
        &mut s,
        "allied",
        "spend 1 cp guards -- second action, Direct Command",
        &[],
    );
    play(
        &mut s,
        "allied",
        "tq 128-bridge-re repair son pass 0-6",
        &[6],
    );
    assert!(!s.bridges["son"].destroyed);
}

#[test]
fn railroad_bridges_2_15_3_vehicles_wait_for_improvement_transport_is_lost_49_160_never() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-guards");
    let e = refused(
        &mut s,
        "allied",
        "move A/t 58.196 58.197 tracked column",
        "2.15.3",
    );
    assert!(e.message.contains("not improved"), "{e}");
    refused(&mut s, "allied", "move A/t 58.196 58.197 tracked", "2.15.1");
    play(
        &mut s,
        "allied",
        "move A/inf 58.196 58.197 mounted column",
        &[],
    );
    assert_eq!(s.abandoned, ids(&["A/inf"]));
    refused(
        &mut s,
        "allied",
        "move A/inf 58.196 mounted column",
        "2.15.3",
    );
    play(&mut s, "allied", "move A/inf 58.196 column", &[]);
    refused(
        &mut s,
        "allied",
        "tq A/eng improve best-rail pass 0-6",
        "2.15.3",
    );
    refused(&mut s, "allied", "tq A/eng improve son pass 0-6", "2.15.3");
    play(&mut s, "allied", "move A/eng 58.197", &[]);
    ok(
        &mut s,
        "allied",
        "tq A/eng improve dommel-rail pass 0-6",
        &[3],
    );
    assert_eq!(
        s.window,
        Some(hex("58.197")),
        "an Engineer Action triggers opportunity fire"
    );
    no_opfire(&mut s);
    assert!(s.bridges["dommel-rail"].improved);
    play(
        &mut s,
        "allied",
        "move A/t 58.196 58.197 tracked column",
        &[],
    );
    assert_eq!(s.units["A/t"].hex, hex("58.197"));
}

#[test]
fn engineers_2_15_3_2_15_6_2_18_only_an_engineer_unit_of_the_order_of_battle_wires_improves_or_ferries(
) {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    // 1/erc-kg-stiller is infantry, pi/59-a an engineer (oob.txt); both in a hex of each bridge.
    unit_at(&mut s, "1/erc-kg-stiller", Side::German, "56.202");
    unit_at(&mut s, "pi/59-a", Side::German, "56.202");
    let e = refused(
        &mut s,
        "german",
        "tq 1/erc-kg-stiller wire son pass 0-6",
        "2.15.6 Bridge Demolition",
    );
    assert!(
        e.message
            .contains("1/erc-kg-stiller is not an engineer Unit")
            && e.message
                .contains("only an engineer Unit may wire a bridge"),
        "{e}"
    );
    ok(&mut s, "german", "tq pi/59-a wire son pass 0-6", &[2]);
    assert_eq!(s.bridges["son"].wired_by, Some(Side::German));
    s.window = None;
    unit_at(&mut s, "1/erc-kg-stiller", Side::German, "58.197");
    unit_at(&mut s, "pi/59-a", Side::German, "58.197");
    let e = refused(
        &mut s,
        "german",
        "tq 1/erc-kg-stiller improve dommel-rail pass 0-6",
        "2.15.3",
    );
    assert!(e.message.contains("may improve a railroad bridge"), "{e}");
    ok(
        &mut s,
        "german",
        "tq pi/59-a improve dommel-rail pass 0-6",
        &[3],
    );
    assert!(s.bridges["dommel-rail"].improved);
    s.window = None;
    // 2.18: the son bridge destroyed, a ferry is an engineer's.
    let b = s.bridges.get_mut("son").unwrap();
    b.destroyed = true;
    b.wired_by = None;
    unit_at(&mut s, "1/erc-kg-stiller", Side::German, "56.202");
    unit_at(&mut s, "pi/59-a", Side::German, "56.202");
    let e = refused(
        &mut s,
        "german",
        "tq 1/erc-kg-stiller ferry son pass 0-6",
        "2.18",
    );
    assert!(e.message.contains("may be a ferry"), "{e}");
    ok(&mut s, "german", "tq pi/59-a ferry son pass 0-6", &[3]);
    assert_eq!(s.bridges["son"].ferry.as_ref().unwrap().unit, "pi/59-a");
    // A counter outside the order of battle is the players': unchecked.
    s.window = None;
    s.bridges.get_mut("dommel-rail").unwrap().improved = false;
    unit_at(&mut s, "G/x", Side::German, "58.196");
    ok(
        &mut s,
        "german",
        "tq G/x improve dommel-rail pass 0-6",
        &[9],
    );
}

#[test]
fn ferries_2_18_an_engineer_on_a_destroyed_bridge_ferries_leg_units_in_column() {
    let mut s = son_demolished();
    allied_impulse(&mut s, "div-101");
    let e = refused(
        &mut s,
        "allied",
        "move A/502 56.202 56.201 column",
        "2.15.7",
    );
    assert!(e.message.contains("destroyed"), "{e}");
    refused(&mut s, "allied", "tq A/326 ferry son pass 0-6", "2.18");
    play(&mut s, "allied", "move A/326 56.203 56.202", &[]);
    refused(&mut s, "allied", "tq A/326 ferry best pass 0-6", "2.18");
    // 2.18.1: "An engineer Unit must begin an activation in the applicable hex".
    let e = refused(&mut s, "allied", "tq A/326 ferry son pass 0-6", "2.18.1");
    assert!(e.message.contains("has moved this impulse"), "{e}");
    allied_impulse(&mut s, "div-101");
    // An Engineer Action: not in Column (2.15.7, as any other).
    s.units.get_mut("A/326").unwrap().column = true;
    let e = refused(&mut s, "allied", "tq A/326 ferry son pass 0-6", "2.18");
    assert!(e.message.contains("in Column"), "{e}");
    s.units.get_mut("A/326").unwrap().column = false;
    play(&mut s, "allied", "tq A/326 ferry son pass 0-6", &[4]);
    // "The engineer Unit has now completed its Action for that activation."
    refused(&mut s, "allied", "move A/326 56.203", "2.18.1");
    let f = s.bridges["son"].ferry.clone().unwrap();
    assert_eq!((f.at, f.to), (hex("56.202"), hex("56.201")));
    // A Unit in Column that begins in a ferry hex crosses; not out of Column.
    play(&mut s, "allied", "move A/502 56.203 56.202", &[]);
    refused(&mut s, "allied", "ferry A/502 son", "2.18.2");
    play(&mut s, "allied", "move A/506 56.203 56.202 column", &[]);
    // 2.18.2: the ferry is the Unit's entire activation, begun in the ferry's hex.
    let e = refused(&mut s, "allied", "ferry A/506 son", "2.18.2");
    assert!(e.message.contains("has already acted this impulse"), "{e}");
    allied_impulse(&mut s, "div-101");
    // A Leg Unit with no organic transport has nothing to abandon.
    let e = refused(&mut s, "allied", "ferry A/506 son abandon", "2.18.2");
    assert!(e.message.contains("no organic transport to abandon"), "{e}");
    ok(&mut s, "allied", "ferry A/506 son", &[]);
    assert_eq!(
        s.window,
        Some(hex("56.202")),
        "opportunity fire as it leaves"
    );
    no_opfire(&mut s);
    assert_eq!(s.units["A/506"].hex, hex("56.201"));
    assert!(!s.abandoned.contains(&"A/506".to_owned()));
    refused(&mut s, "allied", "fire A/506 56.200 small-arms", "2.18.2");
    // Not into an enemy hex; not while Suppressed.
    s.units.insert(
        "G/1".into(),
        Unit {
            side: Side::German,
            hex: hex("56.201"),
            column: false,
        },
    );
    play(&mut s, "allied", "move A/501 56.203 56.202 column", &[]);
    refused(&mut s, "allied", "ferry A/501 son", "2.18.2");
    s.units.remove("G/1");
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/2 56.202 mortar", &[5]);
    ok(&mut s, "german", "result suppressed A/326", &[]);
    allied_impulse(&mut s, "div-101");
    let e = refused(&mut s, "allied", "ferry A/501 son", "2.18.2");
    assert!(e.message.contains("Suppressed"), "{e}");
    play(&mut s, "allied", "rally A/326 pass 0-4", &[1]);
    play(&mut s, "allied", "ferry A/501 son", &[]);
    assert_eq!(s.units["A/501"].hex, hex("56.201"));
    // The engineer moves: the ferry is gone.
    play(&mut s, "allied", "move A/326 56.203", &[]);
    assert_eq!(s.bridges["son"].ferry, None);
}

/// 2.18: "Only Leg Units can use a ferry"; 2.18.2: "Units that have Wheeled or Tracked Organic
/// Transport may use a ferry but they must abandon their vehicles to do so" (decision 38). A
/// Vehicle Unit is refused, `abandon` or not; a rider dismounts first; a Unit with organic
/// transport crosses only with `abandon`.
#[test]
fn ferries_2_18_only_leg_units_a_vehicle_unit_never_organic_transport_abandoned() {
    use order::Transport;
    let mut s = son_demolished();
    allied_impulse(&mut s, "div-101");
    play(&mut s, "allied", "move A/326 56.203 56.202", &[]);
    allied_impulse(&mut s, "div-101");
    play(&mut s, "allied", "tq A/326 ferry son pass 0-6", &[4]);
    // No chit in play: every Unit of the order of battle may act (the activation is not tested).
    s.chit = None;
    // A Vehicle Unit of the order of battle (armor), and a counter whose move said 'tracked'.
    play(&mut s, "allied", "move 1/2ig 56.203 56.202 column", &[]);
    for text in ["ferry 1/2ig son", "ferry 1/2ig son abandon"] {
        let e = refused(&mut s, "allied", text, "2.18.2");
        assert!(
            e.message
                .contains("1/2ig is a Vehicle Unit of the order of battle")
                && e.message.contains("only Leg Units use a ferry")
                && e.message.contains("by a bridge"),
            "{e}"
        );
    }
    play(
        &mut s,
        "allied",
        "move A/t 56.203 56.202 tracked column",
        &[],
    );
    let e = refused(&mut s, "allied", "ferry A/t son abandon", "2.18.2");
    assert!(
        e.message.contains("its move into its hex said 'tracked'"),
        "{e}"
    );
    // A Leg Unit riding a divisional truck dismounts first.
    play(&mut s, "allied", "move A/r 56.203 56.202 column", &[]);
    s.riding
        .insert("A/r".into(), ("truck".into(), "101st".into()));
    let e = refused(&mut s, "allied", "ferry A/r son abandon", "2.18.2");
    assert!(
        e.message.contains("dismount it first (dismount A/r)"),
        "{e}"
    );
    // Organic transport: the order of battle's truck, or a move that said 'mounted'.
    play(&mut s, "allied", "move A/3ig 56.203 56.202 column", &[]);
    let e = refused(&mut s, "allied", "ferry A/3ig son", "2.18.2");
    assert!(
        e.message.contains("organic transport (truck)")
            && e.message.contains("ferry A/3ig son abandon"),
        "{e}"
    );
    allied_impulse(&mut s, "div-101");
    s.chit = None;
    ok(&mut s, "allied", "ferry A/3ig son abandon", &[]);
    no_opfire(&mut s);
    assert_eq!(s.units["A/3ig"].hex, hex("56.201"));
    assert!(s.abandoned.contains(&"A/3ig".to_owned()));
    play(
        &mut s,
        "allied",
        "move A/m 56.203 56.202 mounted column",
        &[],
    );
    assert_eq!(s.vehicles.get("A/m"), Some(&Transport::Mounted));
    let e = refused(&mut s, "allied", "ferry A/m son", "2.18.2");
    assert!(
        e.message.contains("'mounted'") && e.message.contains("ferry A/m son abandon"),
        "{e}"
    );
    allied_impulse(&mut s, "div-101");
    s.chit = None;
    ok(&mut s, "allied", "ferry A/m son abandon", &[]);
    no_opfire(&mut s);
    assert_eq!(s.units["A/m"].hex, hex("56.201"));
    // A Leg Unit with no transport crosses as before; one abandoned already needs no word.
    ok(&mut s, "allied", "ferry A/3ig son", &[]);
    assert_eq!(s.units["A/3ig"].hex, hex("56.202"));
}

#[test]
fn line_of_sight_2_3_2_13_2_15_4_2_16_on_a_synthetic_map() {
    // The traced line runs hex by hex.
    let line = hexes_between(hex("10.10"), hex("13.12"));
    assert!(line.windows(2).all(|w| w[0].adjacent(w[1])), "{line:?}");
    assert_eq!(line.len() as u32, hex("10.10").distance(hex("13.12")) + 1);
    let clear = field("");
    assert_eq!(sight(&clear, "10.10", "10.14"), Sight::Clear);
    // Blocking Terrain between firer and target blocks; in the target's hex it does not.
    let woods = field("hex 10.12 woods\n");
    blocked_by(&woods, "10.10", "10.14", "Blocking Terrain");
    assert_eq!(sight(&woods, "10.10", "10.12"), Sight::Clear);
    // 2.3: through one orchard and into a second: clear; through two: blocked.
    let orchards = field("hex 10.11 orchard\nhex 10.12 orchard\n");
    assert_eq!(sight(&orchards, "10.10", "10.12"), Sight::Clear);
    blocked_by(&orchards, "10.10", "10.13", "2.3");
    // 2.13: a crest hexside blocks unless it is a side of the firer's or the target's hex.
    let crest = field("side 10.12 10.13 crest\n");
    blocked_by(&crest, "10.10", "10.15", "2.13");
    assert_eq!(sight(&crest, "10.12", "10.15"), Sight::Clear);
    assert_eq!(sight(&crest, "10.10", "10.13"), Sight::Clear);
    // 2.16: a raised road hex blocks; 2.15.4: so does a hex with a bridge hexside.
    blocked_by(
        &field("hex 10.12 clear road raised\n"),
        "10.10",
        "10.14",
        "2.16",
    );
    blocked_by(
        &field("side 10.12 11.12 bridge\n"),
        "10.10",
        "10.14",
        "2.15.4",
    );
    // Impassable hexsides and streams do not block (2.14).
    assert_eq!(
        sight(
            &field("side 10.11 10.12 impassable stream\n"),
            "10.10",
            "10.14"
        ),
        Sight::Clear
    );
    // Along a hexside (10.10 to 12.10 runs between 11.10 and 11.11): blocked only when both
    // sides block.
    assert_eq!(
        sight(&field("hex 11.10 woods\n"), "10.10", "12.10"),
        Sight::Clear
    );
    assert_eq!(
        sight(&field("hex 11.11 town\n"), "10.10", "12.10"),
        Sight::Clear
    );
    blocked_by(
        &field("hex 11.10 woods\nhex 11.11 town\n"),
        "10.10",
        "12.10",
        "Blocking Terrain",
    );
    // A hex the map does not know: nothing known blocks, the sight is not known.
    let partial = Map::parse("hex 30.10 clear\nhex 30.12 clear\n").unwrap();
    assert_eq!(
        sight(&partial, "30.10", "30.12"),
        Sight::Unknown(vec![hex("30.11")])
    );
}

/// 2.12 Rivers: "can only be crossed at bridges or with ferries". On a loaded map a river
/// hexside refuses every step across it, in Column or not, leg or vehicle, naming the hexside
/// and the ferry; a bridge on the same hexside (the map's, or a 2.15 bridge of the key hexes)
/// is crossed by the bridge rules.
#[test]
fn rivers_2_12_a_river_is_crossed_only_at_a_bridge_or_by_ferry() {
    let text = "hex 30.10 clear road\nhex 30.11 clear road\nhex 30.12 clear road\n\
                side 30.10 30.11 river\nside 30.11 30.12 river bridge\n\
                hex 56.201 clear road\nhex 56.202 clear road\nside 56.201 56.202 river\n";
    let map = Map::parse(text).unwrap();
    for mobility in [Mobility::Leg, Mobility::Wheeled, Mobility::Tracked] {
        for column in [false, true] {
            let e = map
                .step_cost(mobility, column, hex("30.10"), hex("30.11"))
                .unwrap_err();
            assert!(
                e.starts_with("2.12 Rivers") && e.contains("30.10/30.11") && e.contains("ferry"),
                "{e}"
            );
        }
    }
    assert!(map
        .step_cost(Mobility::Wheeled, true, hex("30.11"), hex("30.12"))
        .unwrap()
        .is_some());
    let e = map
        .step_cost(Mobility::Leg, false, hex("30.11"), hex("30.12"))
        .unwrap_err();
    assert!(
        e.starts_with("2.15.1"),
        "a bridge is crossed in Column: {e}"
    );
    // The son bridge of the key hexes spans the river on the map.
    assert!(map
        .step_cost(Mobility::Leg, true, hex("56.201"), hex("56.202"))
        .unwrap()
        .is_some());

    let mut s = game_with("the-best-laid-plans", json!({ "map": text })).unwrap();
    allied_impulse(&mut s, "div-guards");
    let e = refused(&mut s, "allied", "move A/3ig 30.10 30.11", "2.12");
    assert!(e.message.contains("30.10/30.11"), "{e}");
    refused(&mut s, "allied", "move A/3ig 30.10 30.11 column", "2.12");
    refused(
        &mut s,
        "allied",
        "move 1/2ig 30.12 30.11 30.10 tracked column",
        "2.12",
    );
    play(&mut s, "allied", "move B/3ig 30.12 30.11 column", &[]);
    assert_eq!(s.units["B/3ig"].hex, hex("30.11"));
}

#[test]
fn terrain_2_1_to_2_19_a_game_s_map_checks_moves_set_ups_and_line_of_sight() {
    let text = "hex 20.10 clear road\nhex 20.11 woods road\nhex 20.12 woods\n\
                hex 20.13 clear\nhex 20.14 impassable\nside 20.12 20.13 crest\n\
                hex 21.10 clear\nhex 21.11 clear\nside 20.10 21.10 stream\n";
    assert!(game_with("the-best-laid-plans", json!({ "map": "hex 1.1 lava" })).is_err());
    let mut s = game_with("the-best-laid-plans", json!({ "map": text })).unwrap();
    allied_impulse(&mut s, "div-guards");
    // 2.4: a vehicle enters woods only in Column along a Road.
    let e = refused(
        &mut s,
        "allied",
        "move 1/2ig 20.10 20.11 tracked",
        "2.1-2.19",
    );
    assert!(e.message.contains("woods"), "{e}");
    play(
        &mut s,
        "allied",
        "move 1/2ig 20.10 20.11 tracked column",
        &[],
    );
    refused(
        &mut s,
        "allied",
        "move 1/2ig 20.12 tracked column",
        "2.1-2.19",
    );
    // 2.14: an impassable hex; 2.11: a vehicle crosses a stream only by Road.
    refused(&mut s, "allied", "move A/3ig 20.13 20.14", "2.14");
    refused(
        &mut s,
        "allied",
        "move 2/2ig 20.10 21.10 tracked column",
        "2.11",
    );
    // A leg unit in the woods, counted on the map: 3 MP.
    play(&mut s, "allied", "move A/3ig 20.13 20.12", &[]);
    // Off the map's hexes, nothing is checked.
    play(&mut s, "allied", "move B/3ig 40.40 40.41", &[]);
    // Line of sight: the woods between them block direct fire, not a mortar.
    put(&mut s, "C/3ig", "20.10");
    put(&mut s, "A/3ig", "20.13");
    refused(
        &mut s,
        "allied",
        "fire C/3ig 20.13 small-arms",
        "line of sight",
    );
    refused(
        &mut s,
        "allied",
        "fire A/3ig 20.10 small-arms",
        "line of sight",
    );
    ok(&mut s, "allied", "fire C/3ig 21.11 small-arms", &[4]);
    ok(&mut s, "allied", "result none", &[]);
    german_impulse(&mut s);
    unit_at(&mut s, "G/1", Side::German, "20.12");
    // A crest hexside of the firer's own hex does not block.
    ok(&mut s, "german", "fire G/1 20.13 small-arms", &[4]);
}

#[test]
fn raised_roads_2_16_in_column_only_through_the_hexsides_the_raised_road_touches() {
    // A raised road through 20.20 from 20.19 to 20.21; 21.20 beside it is clear.
    let map = Map::parse(
        "hex 20.19 clear road\nhex 20.20 clear road raised\nhex 20.21 clear road\nhex 21.20 clear\n\
         side 20.19 20.20 raised\nside 20.20 20.21 raised\n",
    )
    .unwrap();
    let (n, r, s, e) = (hex("20.19"), hex("20.20"), hex("20.21"), hex("21.20"));
    assert_eq!(map.raised_sides(r), vec![n, s]);
    // In Column: in and out along the raised road, not across its side.
    assert!(map.path_cost(Mobility::Wheeled, true, n, &[r, s]).is_ok());
    let err = map.step_cost(Mobility::Leg, true, e, r).unwrap_err();
    assert!(
        err.starts_with("2.16 Raised Roads")
            && err.contains("enters 20.20 only through a hexside its raised road touches")
            && err.contains("20.20/20.19, 20.20/20.21"),
        "{err}"
    );
    let err = map.step_cost(Mobility::Tracked, true, r, e).unwrap_err();
    assert!(err.contains("leaves 20.20"), "{err}");
    // Not in Column, a Leg Unit uses any hexside (paying double in).
    assert!(map.step_cost(Mobility::Leg, false, e, r).unwrap().is_some());
    assert!(map.step_cost(Mobility::Leg, false, r, e).unwrap().is_some());
    // A raised hex whose hexsides the map does not give is not checked (the older format).
    let old = Map::parse("hex 20.20 clear road raised\nhex 21.20 clear\n").unwrap();
    assert!(old.step_cost(Mobility::Leg, true, hex("21.20"), r).is_ok());
    assert!(Map::parse("side 20.20 20.22 raised\n").is_err());
}

#[test]
fn s2_4_a_wheeled_or_tracked_unit_in_woods_may_not_leave_column() {
    let mut s = locks_game(json!({}));
    // A tank enters the woods in Column along the Road (2.4) and may not leave Column there,
    // whether the move says it is tracked or not: it came in as a Tracked Unit.
    play(
        &mut s,
        "allied",
        "move 1/2ig 30.10 30.11 tracked column",
        &[],
    );
    for text in ["move 1/2ig 31.11 tracked", "move 1/2ig 31.11"] {
        let e = refused(&mut s, "allied", text, "2.4 Woods");
        assert!(
            e.message.contains("30.11")
                && e.message.contains("may not leave Column")
                && e.message.contains("add 'column'"),
            "{e}"
        );
    }
    // In Column it goes on along the Road.
    play(&mut s, "allied", "move 1/2ig 30.10 tracked column", &[]);
    assert_eq!(s.units["1/2ig"].hex, hex("30.10"));
    // A Leg Unit in Column in the woods leaves Column as it likes.
    play(&mut s, "allied", "move A/3ig 31.12 30.11 column", &[]);
    play(&mut s, "allied", "move A/3ig 31.11", &[]);
    assert!(!s.units["A/3ig"].column);
    // A Leg Unit riding its organic transport is a vehicle while it rides: it may not leave
    // Column mounted, and walks out once dismounted (a Leg Unit again).
    play(
        &mut s,
        "allied",
        "move B/3ig 30.10 30.11 mounted column",
        &[],
    );
    let e = refused(&mut s, "allied", "move B/3ig 31.11 mounted", "2.4 Woods");
    assert!(
        e.message.contains("dismount it by moving it on its legs"),
        "{e}"
    );
    play(&mut s, "allied", "move B/3ig 31.11", &[]);
    assert!(!s.units["B/3ig"].column && !s.vehicles.contains_key("B/3ig"));
    assert!(!s.abandoned.iter().any(|u| u == "B/3ig"));
    // The map's check: a vehicle may not leave Column in the woods, a Leg Unit pays nothing.
    let map = Map::parse(LOCKS_MAP).unwrap();
    assert_eq!(
        map.leave_column(Mobility::Wheeled, hex("30.11")),
        Err(("2.4 Woods", "woods".to_owned()))
    );
    assert_eq!(map.leave_column(Mobility::Leg, hex("30.11")), Ok(0));
    // Without a map nothing is known of the hex: nothing is checked.
    let mut bare = game("the-best-laid-plans");
    allied_impulse(&mut bare, "div-guards");
    play(
        &mut bare,
        "allied",
        "move 1/2ig 30.10 30.11 tracked column",
        &[],
    );
    play(&mut bare, "allied", "move 1/2ig 31.11 tracked", &[]);
}

#[test]
fn s2_8_s2_9_s2_10_a_wheeled_or_tracked_unit_in_a_town_city_or_fortified_hex_may_not_leave_column()
{
    let mut s = locks_game(json!({}));
    for (unit, path, out, section) in [
        (
            "A/2hhc",
            "30.11 30.12 wheeled",
            "31.13 wheeled",
            "2.8 Towns",
        ),
        ("2/2ig", "30.12 30.13 tracked", "31.14", "2.9 Cities"),
        (
            "3/2ig",
            "30.13 30.14 tracked",
            "31.15 tracked",
            "2.10 Fortified",
        ),
    ] {
        play(&mut s, "allied", &format!("move {unit} {path} column"), &[]);
        let e = refused(&mut s, "allied", &format!("move {unit} {out}"), section);
        assert!(e.message.contains("may not leave Column"), "{e}");
        assert!(s.units[unit].column);
    }
    // The text gives villages (2.7) and railroads (2.6) no such lock.
    play(
        &mut s,
        "allied",
        "move 1/2gg 30.14 30.15 tracked column",
        &[],
    );
    play(&mut s, "allied", "move 1/2gg 31.16 tracked", &[]);
    assert!(!s.units["1/2gg"].column);
    let map = Map::parse(LOCKS_MAP).unwrap();
    for (h, section) in [
        ("30.12", "2.8 Towns"),
        ("30.13", "2.9 Cities"),
        ("30.14", "2.10 Fortified"),
    ] {
        assert_eq!(
            map.leave_column(Mobility::Tracked, hex(h)).unwrap_err().0,
            section
        );
    }
    assert_eq!(map.leave_column(Mobility::Tracked, hex("30.15")), Ok(0));
}

#[test]
fn s2_16_a_vehicle_on_a_raised_road_may_not_leave_column_a_leg_unit_may() {
    let mut s = locks_game(json!({}));
    play(
        &mut s,
        "allied",
        "move 1/2ig 40.10 40.11 tracked column",
        &[],
    );
    for text in ["move 1/2ig 41.11 tracked", "move 1/2ig 41.11"] {
        let e = refused(&mut s, "allied", text, "2.16 Raised Roads");
        assert!(
            e.message.contains("raised road or railroad hex 40.11"),
            "{e}"
        );
    }
    play(&mut s, "allied", "move 1/2ig 40.12 tracked column", &[]);
    // A Leg Unit gets off the raised road by leaving Column: 1 movement point (counted in the
    // move's cost on the map) or a Cohesion Hit, the player's; then any hexside.
    play(&mut s, "allied", "move A/3ig 40.10 40.11 column", &[]);
    play(&mut s, "allied", "move A/3ig 41.12", &[]);
    assert!(!s.units["A/3ig"].column);
    assert!(s.marks.get("A/3ig").is_none_or(|m| m.is_clear()));
    // ... or takes a Cohesion Hit instead of the movement point (`cohesion`, his choice).
    play(&mut s, "allied", "move A/1gg 40.10 40.11 column", &[]);
    play(&mut s, "allied", "move A/1gg 41.11 cohesion", &[]);
    assert_eq!(s.marks["A/1gg"].cohesion, 1);
    assert!(!s.units["A/1gg"].column);
    // That price is for leaving Column on a raised road only.
    let e = refused(&mut s, "allied", "move A/1gg 41.12 cohesion", "2.16");
    assert!(e.message.contains("drop the word"), "{e}");
    let map = Map::parse(LOCKS_MAP).unwrap();
    assert_eq!(map.leave_column(Mobility::Leg, hex("40.11")), Ok(2));
    assert_eq!(map.leave_column(Mobility::Leg, hex("40.10")), Ok(0));
    assert_eq!(
        map.leave_column(Mobility::Wheeled, hex("40.11")),
        Err((
            "2.16 Raised Roads/Railroads",
            "raised road or railroad".to_owned()
        ))
    );
    // Riding its organic transport it may not leave Column; walking off, it has dismounted on
    // the raised road and its vehicles are lost (abandoned transport marker).
    play(
        &mut s,
        "allied",
        "move B/3ig 40.10 40.11 mounted column",
        &[],
    );
    refused(
        &mut s,
        "allied",
        "move B/3ig 41.11 mounted",
        "2.16 Raised Roads",
    );
    play(&mut s, "allied", "move B/3ig 41.11", &[]);
    assert!(s.abandoned.iter().any(|u| u == "B/3ig"));
    refused(&mut s, "allied", "move B/3ig 41.12 mounted", "2.15.3");
    // Dismounting in Column on the raised road loses them too.
    play(
        &mut s,
        "allied",
        "move C/3ig 40.10 40.11 mounted column",
        &[],
    );
    play(&mut s, "allied", "move C/3ig 40.12 column", &[]);
    assert!(s.abandoned.iter().any(|u| u == "C/3ig"));
}

#[test]
fn s2_16_and_s4_2_decision_34_a_piggyback_rider_put_down_on_a_raised_road_pays_a_movement_point_or_a_cohesion_hit(
) {
    let mut s = locks_game(json!({}));
    // Each pair mounts at 40.10 and rides in Column onto the raised road at 40.11.
    for x in ["A", "B", "C", "D"] {
        play(&mut s, "allied", &format!("move {x}/inf 40.10"), &[]);
        play(
            &mut s,
            "allied",
            &format!("move {x}/tank 40.10 tracked column"),
            &[],
        );
        play(&mut s, "allied", &format!("mount {x}/inf {x}/tank"), &[]);
        if x != "C" {
            play(
                &mut s,
                "allied",
                &format!("move {x}/tank 40.11 tracked column"),
                &[],
            );
            assert!(s.units[&format!("{x}/inf")].column);
        }
    }
    // S4.2: put down out of Column; leaving Column on the raised road costs the movement
    // point, counted in the vehicle's dismount …
    play(&mut s, "allied", "dismount A/tank", &[]);
    assert!(!s.units["A/inf"].column);
    assert!(!s.marks.contains_key("A/inf"));
    // … or, the player's choice, a Cohesion Hit on the rider.
    play(&mut s, "allied", "dismount B/tank cohesion", &[]);
    assert!(!s.units["B/inf"].column);
    assert_eq!(s.marks["B/inf"].cohesion, 1);
    // Off the raised road there is nothing to pay: 'cohesion' is refused, nothing changed.
    let e = refused(
        &mut s,
        "allied",
        "dismount C/tank cohesion",
        "2.16 Raised Roads/Railroads",
    );
    assert!(e.message.contains("dismount C/tank"), "{e}");
    assert!(s.piggyback.contains_key("C/tank"));
    // S4.4: a fire result dismounts the rider with no movement made: the Cohesion Hit.
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 40.11 small-arms", &[5]);
    ok(&mut s, "german", "result suppressed", &[]);
    assert!(!s.piggyback.contains_key("D/tank"));
    assert!(!s.units["D/inf"].column);
    assert_eq!(s.marks["D/inf"].cohesion, 1);
}

#[test]
fn s2_16_a_road_block_in_a_raised_hex_bars_a_column_not_a_leg_unit_out_of_it() {
    let mut s = locks_game(json!({}));
    play(
        &mut s,
        "allied",
        "move 1/2ig 40.10 40.11 tracked column",
        &[],
    );
    play(&mut s, "allied", "move A/3ig 41.12", &[]);
    play(&mut s, "allied", "move B/3ig 40.10 column", &[]);
    german_impulse(&mut s);
    ok(&mut s, "german", "roadblock 40.12", &[]);
    allied_impulse(&mut s, "div-guards");
    // In Column, no Unit enters the raised hex with the road block.
    let e = refused(
        &mut s,
        "allied",
        "move 1/2ig 40.12 40.13 tracked column",
        "2.16",
    );
    assert!(
        e.message.contains("german road block") && e.message.contains("40.12"),
        "{e}"
    );
    refused(&mut s, "allied", "move B/3ig 40.11 40.12 column", "2.16");
    // A Leg Unit not in Column enters it even so.
    play(&mut s, "allied", "move A/3ig 40.12", &[]);
    assert_eq!(s.units["A/3ig"].hex, hex("40.12"));
    // A road block in a hex that is not raised bars nothing here (the series' road blocks).
    german_impulse(&mut s);
    ok(&mut s, "german", "roadblock 40.10", &[]);
    allied_impulse(&mut s, "div-guards");
    play(&mut s, "allied", "move C/3ig 41.11 40.10 column", &[]);
    // Decision 23: the player's own road block bars his Column too, unless the option is off.
    let mut s = locks_game(json!({}));
    ok(&mut s, "allied", "roadblock 40.12", &[]);
    play(
        &mut s,
        "allied",
        "move 1/2ig 40.10 40.11 tracked column",
        &[],
    );
    refused(&mut s, "allied", "move 1/2ig 40.12 tracked column", "2.16");
    let mut s = locks_game(json!({ "roadblock_bars_own": false }));
    ok(&mut s, "allied", "roadblock 40.11", &[]);
    play(
        &mut s,
        "allied",
        "move 1/2ig 40.10 40.11 tracked column",
        &[],
    );
    german_impulse(&mut s);
    ok(&mut s, "german", "roadblock 40.12", &[]);
    allied_impulse(&mut s, "div-guards");
    refused(
        &mut s,
        "allied",
        "move 1/2ig 40.12 40.13 tracked column",
        "2.16",
    );
    assert!(game_with(
        "the-best-laid-plans",
        json!({ "roadblock_bars_own": "yes" })
    )
    .is_err());
}
