//! 3.0 Paradrops and Glider Landings: the drops (3.1), when (3.2) and where (3.3) to drop, the
//! Drop Table and the glider/paradrop markers (3.4), supply drops (3.5) and changing the drop
//! location (3.6).

use std::collections::VecDeque;

use despatch_core::engine::dice::hidden_stream;
use despatch_core::engine::ruleset::{Ctx, DiceSource, Rules, Seat, SeatDef, Setup, Viewer};
use despatch_core::rules::where_eagles_dare::data::{DropResult, Weather, DATA};
use despatch_core::rules::where_eagles_dare::order;
use despatch_core::rules::where_eagles_dare::state::{AirDropCounters, Phase, Side, State, Unit};
use despatch_core::rules::where_eagles_dare::{chits, declared, supply, WhereEaglesDare};
use serde_json::json;

use super::support::*;

#[test]
fn drops_3_1_drop_one_comes_on_the_first_turn_and_the_rest_are_scheduled() {
    let s = game("the-best-laid-plans");
    assert_eq!(s.drops[0].arrived, Some((17, 3)));
    assert_eq!((s.drops[1].day, s.drops[1].arrived), (18, None));
}

#[test]
fn when_to_drop_3_2_clear_weather_offers_0900_or_1100() {
    let mut s = morning_of_the_18th();
    ok(&mut s, "allied", "weather", &[1]);
    assert_eq!(s.phase, Phase::AirDrop { candidates: [1, 2] });
    let e = order(&mut s, "allied", "airdrop 1300", &[]).unwrap_err();
    assert!(e.message.contains("0900 or 1100"), "{e}");
    // Unsealed, the choice is refused: only the server seals it.
    let e = order(&mut s, "allied", "airdrop 1100", &[]).unwrap_err();
    assert!(e.message.contains("sealed"), "{e}");
}

#[test]
fn when_to_drop_3_2_fog_cleared_at_0900_offers_1300_or_1500() {
    let mut s = morning_of_the_18th();
    ok(&mut s, "allied", "weather", &[3]);
    assert_eq!(s.phase, Phase::Buy { side: Side::Allied });
    next_turn(&mut s);
    ok(&mut s, "allied", "fog", &[2]);
    assert_eq!(s.phase, Phase::AirDrop { candidates: [3, 4] });
}

#[test]
fn when_to_drop_3_2_rain_moves_the_drop_a_day_later() {
    let mut s = morning_of_the_18th();
    ok(&mut s, "allied", "weather", &[9]);
    assert_eq!(s.weather, Some(Weather::Rain));
    assert_eq!(s.drops[1].day, 19);
    assert_eq!(s.drops[2].day, 20);
}

#[test]
fn when_to_drop_3_2_fog_not_cleared_by_1100_moves_the_drop_a_day_later() {
    let mut s = morning_of_the_18th();
    ok(&mut s, "allied", "weather", &[3]);
    next_turn(&mut s);
    ok(&mut s, "allied", "fog", &[7]);
    next_turn(&mut s);
    ok(&mut s, "allied", "fog", &[7]);
    assert_eq!(s.drops[1].day, 19);
}

#[test]
fn when_to_drop_3_2_the_counters_flip_at_the_first_candidate_turn_and_the_drop_comes() {
    let mut s = morning_of_the_18th();
    ok(&mut s, "allied", "weather", &[1]);
    // The counters as the server's seal leaves them: the commitment only.
    s.air_drop = Some(AirDropCounters {
        day: 18,
        candidates: [1, 2],
        commitment: "c0ffee".into(),
        revealed: None,
    });
    s.phase = Phase::Activation;
    let view = serde_json::to_string(
        &WhereEaglesDare.view(&s, &Viewer::Seat(Seat::parse("german").unwrap())),
    )
    .unwrap();
    assert!(view.contains("\"real_drop\":\"sealed\""), "{view}");
    next_turn(&mut s); // 0900: the first candidate
    let mut q = VecDeque::new();
    let mut ctx = Ctx::new(DiceSource::Scripted(&mut q), None);
    WhereEaglesDare
        .reveal(
            &mut s,
            &Seat::parse("allied").unwrap(),
            "c0ffee",
            &json!({"drop_at": "1100"}),
            &mut ctx,
        )
        .unwrap();
    assert_eq!(s.drops[1].arrived, None, "No Drop at 0900");
    next_turn(&mut s); // 1100
    assert_eq!(s.drops[1].arrived, Some((18, 2)));
}

#[test]
fn free_drop_3_3_2_one_formation_per_zone_independents_only_with_their_division() {
    let setup = Setup {
        game_id: "rules".into(),
        scenario: "the-best-laid-plans".into(),
        options: json!({"free_drop": true}),
        seats: SeatDef::named_by_id(&["allied", "german"]).unwrap(),
    };
    let mut s = WhereEaglesDare
        .setup(&setup, &mut hidden_stream(&[7; 32], "rules", 0))
        .unwrap();
    assert_eq!(s.phase, Phase::Plans { next: 1 });
    let e = order(&mut s, "allied", "plan 1 506:B 502:B", &[]).unwrap_err();
    assert!(e.message.contains("one Formation per zone"), "{e}");
    let e = order(&mut s, "allied", "plan 1 506:B ind-101:C", &[]).unwrap_err();
    assert!(e.message.contains("independent"), "{e}");
    let e = order(&mut s, "allied", "plan 1 506:Q", &[]).unwrap_err();
    assert!(e.message.contains("zones"), "{e}");
    let e = order(&mut s, "allied", "plan 1 506:B 502:A ind-101:B", &[]).unwrap_err();
    assert!(
        e.message.contains("sealed"),
        "a valid plan still needs the server's seal: {e}"
    );
}

#[test]
fn where_to_drop_3_3_the_zones_as_read() {
    assert!(
        DATA.zones["A1"].1.contains(&hex("71.125")),
        "71.25 read as 71.125"
    );
    for h in ["57.150", "57.151"] {
        assert!(DATA.zones["B"].1.contains(&hex(h)) && DATA.zones["C"].1.contains(&hex(h)));
    }
    let w = &DATA.zones["W"].1;
    assert_eq!(w.len(), 15 + 13 - 2);
    assert!(!DATA.zones["W"].0, "W is a landing zone");
}

#[test]
fn drop_table_3_4_1_modifiers_glider_in_a_dz_germans_in_the_zone_flak_and_88s() {
    let mut s = game("the-best-laid-plans");
    s.units.insert(
        "G/1".into(),
        Unit {
            side: Side::German,
            hex: hex("58.149"),
            column: false,
        },
    );
    s.units.insert(
        "G/2".into(),
        Unit {
            side: Side::German,
            hex: hex("60.148"),
            column: false,
        },
    );
    s.units.insert(
        "G/3".into(),
        Unit {
            side: Side::German,
            hex: hex("71.130"),
            column: false,
        },
    );
    let (m, _) = declared::drop_modifier(&s, "B", true, 1, 1).unwrap();
    assert_eq!(m, 2 + 2 + 1 + 2);
    let (m, _) = declared::drop_modifier(&s, "W", true, 0, 0).unwrap();
    assert_eq!(
        m, 2,
        "W is an LZ: no +2 for the glider; +1 for each of the two Germans in B"
    );
    assert_eq!(DATA.drop_result(0), DropResult::NoEffect);
    s.phase = Phase::Activation;
    ok(&mut s, "allied", "droproll A/327 B glider flak 1", &[4]);
}

/// 3.4.1 with S5.4: on Drop One the flak is still face down when the Allied player writes his
/// roll, so he may name the flak units projecting a Fire Zone into the zone (`fz`) and the
/// engine counts the 88s (+2) and the others (+1) as the flak flips.
#[test]
fn drop_table_3_4_1_flak_named_by_fire_zone_the_engine_counts_the_88s_s5_4() {
    let mut s = game("the-best-laid-plans");
    s.phase = Phase::Activation;
    assert!(!s.flak_flipped);
    let of = |t: bool| {
        s.flak
            .iter()
            .find(|(_, ty)| (*ty == "88") == t)
            .map(|(u, _)| u.clone())
            .expect("both kinds of flak")
    };
    let (heavy, light) = (of(true), of(false));
    let mut named = s.clone();
    ok(
        &mut named,
        "allied",
        &format!("droproll A/327 B glider fz {light},{heavy}"),
        &[4],
    );
    assert!(named.flak_flipped, "the flak flips with Drop One's roll");
    let mut counted = s.clone();
    ok(
        &mut counted,
        "allied",
        "droproll A/327 B glider flak 1 flak88 1",
        &[4],
    );
    assert_eq!(named, counted, "one 88 (+2) and one other (+1), as counted");
    for bad in [
        format!("droproll A/327 B glider fz {light} flak 1"),
        "droproll A/327 B glider fz A/502".to_owned(),
        format!("droproll A/327 B glider fz {heavy},{heavy}"),
    ] {
        refused(&mut s, "allied", &bad, "3.4.1");
    }
}

#[test]
fn dz_change_3_6_success_replans_every_remaining_drop_sealed_and_today_s_comes_at_1500_or_1700() {
    let mut s = morning_of_the_18th();
    refused(&mut s, "allied", "dzchange B", "3.6");
    ok(&mut s, "allied", "weather", &[1]);
    assert_eq!(s.phase, Phase::AirDrop { candidates: [1, 2] });
    refused(&mut s, "german", "dzchange B", "sequence of play");
    refused(&mut s, "allied", "dzchange Q", "3.6");
    // 0-3 succeeds (reconstructed table): B becomes the supply drop zone, both drops replanned.
    ok(&mut s, "allied", "dzchange B", &[2]);
    assert_eq!(s.supply.dz, "B");
    assert_eq!(s.phase, Phase::Replan { next: 2 });
    let e = refused(&mut s, "allied", "plan 2 506:B 502:A", "3.6");
    assert!(e.message.contains("sealed by the server"), "{e}");
    // The plans as the server's seal leaves them (the bot games play the sealed orders).
    assert!(s.drops[1..].iter().all(|d| d.plan_commitment.is_none()));
    s.drops[1].plan_commitment = Some("p2".into());
    s.drops[2].plan_commitment = Some("p3".into());
    let mut q = VecDeque::new();
    supply::after_dz(&mut s, &mut Ctx::new(DiceSource::Scripted(&mut q), None));
    assert_eq!(
        s.phase,
        Phase::AirDrop { candidates: [4, 5] },
        "today's replanned drop at 1500 or 1700"
    );
    refused(&mut s, "allied", "dzchange A", "3.6");
    let german = WhereEaglesDare
        .view(&s, &Viewer::Seat(Seat::parse("german").unwrap()))
        .to_string();
    assert!(
        !german.contains("506:B") && german.contains("sealed"),
        "{german}"
    );
}

#[test]
fn dz_change_3_6_abort_delays_every_drop_a_day_and_no_effect_changes_nothing() {
    let mut s = morning_of_the_18th();
    ok(&mut s, "allied", "weather", &[1]);
    ok(&mut s, "allied", "dzchange A", &[9]);
    assert_eq!((s.drops[1].day, s.drops[2].day), (19, 20));
    assert_eq!(s.supply.dz, DATA.supply_dz, "no change");
    assert_eq!(
        s.phase,
        Phase::SupplyDrop { candidates: [3, 4] },
        "no reinforcements today: the supply drop at 1300 or 1500"
    );
    let mut s = morning_of_the_18th();
    ok(&mut s, "allied", "weather", &[1]);
    ok(&mut s, "allied", "dzchange A", &[5]);
    assert_eq!(s.drops[1].day, 18);
    assert_eq!(s.phase, Phase::AirDrop { candidates: [1, 2] });
    refused(&mut s, "allied", "dzchange A", "3.6");
}

#[test]
fn supply_drops_3_5_come_with_the_drop_or_at_1300_or_1500_and_a_german_in_the_zone_interdicts() {
    // With the day's drop: the supply drop lands when the drop comes.
    let mut s = morning_of_the_18th();
    ok(&mut s, "allied", "weather", &[1]);
    s.units.insert(
        "G/1".into(),
        Unit {
            side: Side::German,
            hex: hex("57.150"),
            column: false,
        },
    );
    s.air_drop = Some(AirDropCounters {
        day: 18,
        candidates: [1, 2],
        commitment: "d18".into(),
        revealed: Some(1),
    });
    s.phase = Phase::Buy { side: Side::Allied };
    next_turn(&mut s);
    assert_eq!(s.drops[1].arrived, Some((18, 1)));
    assert_eq!(s.supply.today, Some(18));
    assert!(s.supply.interdicted, "G/1 in zone W: SDZ Closed");
    // No reinforcements (rain): the counters go on 1300 and 1500, sealed; flipped at 1300.
    let mut s = morning_of_the_19th();
    assert!(!s.supply.interdicted);
    ok(&mut s, "allied", "weather", &[9]);
    assert_eq!(s.phase, Phase::SupplyDrop { candidates: [3, 4] });
    let e = refused(&mut s, "allied", "airdrop 0900", "3.5");
    assert!(e.message.contains("1300 or 1500"), "{e}");
    let e = refused(&mut s, "allied", "airdrop 1500", "3.5");
    assert!(e.message.contains("sealed by the server"), "{e}");
    // The counters as the server's seal leaves them: the commitment only.
    s.supply.counters = Some(AirDropCounters {
        day: 19,
        candidates: [3, 4],
        commitment: "s19".into(),
        revealed: None,
    });
    chits::to_buy(&mut s);
    let commitment = "s19".to_owned();
    let allied = Viewer::Seat(Seat::parse("german").unwrap());
    assert_eq!(
        WhereEaglesDare.view(&s, &allied)["supply"]["counters"]["real_drop"],
        json!("sealed")
    );
    next_turn(&mut s);
    next_turn(&mut s);
    next_turn(&mut s); // 1300: the counter flips
    assert_eq!(s.time, 3);
    reveal(&mut s, "allied", &commitment, json!({"drop_at": "1500"}));
    assert_eq!(s.supply.today, Some(18), "not yet");
    s.units.insert(
        "G/1".into(),
        Unit {
            side: Side::German,
            hex: hex("58.148"),
            column: false,
        },
    );
    next_turn(&mut s); // 1500
    assert_eq!(s.supply.today, Some(19));
    assert!(s.supply.interdicted);
}

#[test]
fn drops_3_4_1_drop_one_rolls_at_once_a_later_drop_at_first_activation_once_a_unit() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-101");
    // Drop One came on the first turn: its Units roll now, and get no glider/paradrop marker
    // of their own (3.4); a delay is one marker all the same.
    ok(&mut s, "allied", "droproll A/502 B", &[0]);
    assert!(s.drop_markers.is_empty());
    ok(&mut s, "allied", "droproll B/502 B", &[6]);
    assert_eq!(s.drop_markers.get("B/502"), Some(&1));
    // Once a unit; a zone that is not one refuses and changes nothing.
    refused(&mut s, "allied", "droproll A/502 B", "3.4.1");
    refused(&mut s, "allied", "droproll C/502 Q", "3.3");
    // 3.4: a Unit on the map dropped in a hex of the zone it names, not in Column.
    put(&mut s, "C/502", "58.149");
    let e = refused(&mut s, "allied", "droproll C/502 A", "3.4 How to Drop");
    assert!(e.message.contains("not in airborne zone A"), "{e}");
    s.units.get_mut("C/502").unwrap().column = true;
    let e = refused(&mut s, "allied", "droproll C/502 B", "3.4 How to Drop");
    assert!(e.message.contains("cannot drop in Column"), "{e}");
    s.units.get_mut("C/502").unwrap().column = false;
    ok(&mut s, "allied", "droproll C/502 B", &[0]);
    // An airborne Unit placed in its zone on its drop's turn has dropped (3.4): placed only,
    // not in Column, and it rolls before any other Action.
    let e = refused(
        &mut s,
        "allied",
        "move E/502 58.149 58.150",
        "3.4 How to Drop",
    );
    assert!(e.message.contains("move E/502 58.149"), "{e}");
    refused(
        &mut s,
        "allied",
        "move E/502 58.149 column",
        "3.4 How to Drop",
    );
    ok(&mut s, "allied", "move E/502 58.149", &[]);
    assert_eq!(s.drop_awaiting, vec!["E/502".to_owned()]);
    assert_eq!(
        s.window, None,
        "3.4: the drop itself does not trigger Opportunity Fire"
    );
    let allied = Viewer::Seat(Seat::parse("allied").unwrap());
    assert_eq!(
        WhereEaglesDare.view(&s, &allied)["drop_awaiting"],
        json!(["E/502"])
    );
    assert!(WhereEaglesDare
        .board_text(&s, &allied)
        .unwrap()
        .contains("Dropped, to roll on the Drop Table (3.4.1, its rows reconstructed): E/502"));
    let e = refused(&mut s, "allied", "move E/502 58.150", "3.4.1");
    assert!(e.message.contains("droproll E/502"), "{e}");
    ok(&mut s, "allied", "droproll E/502 B", &[0]);
    assert!(s.drop_awaiting.is_empty());
    ok(&mut s, "allied", "move E/502 58.150", &[]);
    assert_eq!(
        s.window,
        Some(hex("58.150")),
        "a move after the drop opens the window as any move does"
    );
    no_opfire(&mut s);
    // Drop One's rolls are made as they drop: on a later turn none is left.
    s.time += 1;
    let e = refused(&mut s, "allied", "droproll D/502 B", "3.4.1");
    assert!(e.message.contains("as soon as they drop"), "{e}");
    // Drop Two came: its Units roll the first time they activate, so the chit in play must
    // activate the unit (the 506's does not activate a 501 unit).
    s.drops[1].arrived = Some((s.day, s.time));
    allied_impulse(&mut s, "f-506");
    refused(&mut s, "allied", "droproll A/501 B", "S6.6");
    allied_impulse(&mut s, "f-501");
    put(&mut s, "A/501", "58.149");
    // No effect: the drop's own marker; a delay: one more (3.4).
    ok(&mut s, "allied", "droproll D/501 B", &[0]);
    assert_eq!(s.drop_markers.get("D/501"), Some(&1));
    ok(&mut s, "allied", "droproll A/501 B", &[6]);
    assert_eq!(s.drop_markers.get("A/501"), Some(&2));
    // A German unit in the zone: +1; 9 + 1 = 10 is a step lost on landing (decision 15's marks).
    unit_at(&mut s, "G/1", Side::German, "60.148");
    put(&mut s, "B/501", "58.148");
    ok(&mut s, "allied", "droproll B/501 B", &[9]);
    assert_eq!(s.marks["B/501"].lost, 1);
    assert!(s.units.contains_key("B/501"));
    // The order of battle says who lands by glider (3.4.1): not a 501 PIR unit.
    put(&mut s, "C/501", "58.148");
    let e = refused(&mut s, "allied", "droproll C/501 B glider", "3.4.1");
    assert!(e.message.contains("parachute"), "{e}");
    // A glider in a DZ +2 as well: 12, eliminated on landing, its steps kept (decision 21). A
    // 327th GIR unit lands by glider, the word said or not.
    allied_impulse(&mut s, "f-327");
    put(&mut s, "A/327", "58.148");
    ok(&mut s, "allied", "droproll A/327 B", &[9]);
    assert!(!s.units.contains_key("A/327") && !s.drop_markers.contains_key("A/327"));
    assert_eq!(s.eliminated.get("A/327"), Some(&2));
}

/// 3.4.1 "some airborne zones on the map are marked with an '*'; glider troops landing in these
/// airborne zones suffer an additional +1": the game's data marks none (the map is not in the
/// text), so a position marks them (`starred <zone>`, issue 39): a glider landing there takes
/// the +1, a parachute Unit does not; a zone that is not one is refused.
#[test]
fn drop_table_3_4_1_a_starred_zone_set_by_a_position_adds_1_for_gliders() {
    let p = read_position("starred W B").unwrap();
    let s = p.state;
    assert_eq!(s.starred, ["W", "B"]);
    // LZ W: no DZ modifier, only the star's.
    let (m, parts) = declared::drop_modifier(&s, "W", true, 0, 0).unwrap();
    assert_eq!(m, 1, "{parts:?}");
    assert!(parts.iter().any(|p| p == "starred zone +1"), "{parts:?}");
    assert_eq!(declared::drop_modifier(&s, "W", false, 0, 0).unwrap().0, 0);
    let plain = game("the-best-laid-plans");
    assert_eq!(
        declared::drop_modifier(&plain, "W", true, 0, 0).unwrap().0,
        0
    );
    let e = read_position("starred Q").err().unwrap();
    assert!(e.message.contains("'Q' is not an airborne zone"), "{e}");
}

/// The Best Laid Plans with Drop Two come on the turn after Drop One, the 501st PIR's chit in
/// play, A/501 dropped in zone B (58.149) with a German unit in the zone (+1), awaiting its roll.
fn a_501_dropped_with_drop_two() -> State {
    let mut s = game("the-best-laid-plans");
    s.time += 1;
    s.drops[1].arrived = Some((s.day, s.time));
    allied_impulse(&mut s, "f-501");
    ok(&mut s, "allied", "move A/501 58.149", &[]);
    assert_eq!(s.drop_awaiting, vec!["A/501".to_owned()]);
    unit_at(&mut s, "G/1", Side::German, "60.148");
    s
}

/// 3.4.1: "Roll for Units in subsequent drops the first time they activate after the drop."
/// From rules version 17 the impulse of the chit that activates a dropped Unit does not end
/// before it rolls (so it cannot wait for the German units to leave its zone and roll at a
/// smaller modifier later), and a missed deadline rolls it then, with the modifiers the engine
/// counts. A game of version 16 keeps its rules: the impulse ends, the roll waits.
#[test]
fn drops_3_4_1_a_later_drop_s_unit_rolls_in_its_first_activation_not_a_later_one() {
    let mut s = a_501_dropped_with_drop_two();
    let e = refused(&mut s, "allied", "end", "3.4.1");
    assert!(
        e.message.contains("droproll A/501 B") && e.message.contains("f-501"),
        "{e}"
    );
    // A chit that does not activate it (the 506th's) is not its activation: that impulse ends.
    let mut other = s.clone();
    allied_impulse(&mut other, "f-506");
    assert!(order(&mut other, "allied", "end", &[1; 12]).is_ok());
    // It rolls in its activation, the German in its zone counted: 8 + 1 = 9; then the impulse
    // ends.
    ok(&mut s, "allied", "droproll A/501 B", &[8]);
    assert!(s.drop_rolled.contains(&"A/501".to_owned()) && s.drop_awaiting.is_empty());
    assert!(order(&mut s, "allied", "end", &[1; 12]).is_ok());

    // The deadline missed: the roll is made then, before the next chit, the German counted.
    let mut s = a_501_dropped_with_drop_two();
    let allied = Seat::parse("allied").unwrap();
    let mut dice: VecDeque<u32> = [8].into_iter().chain([1; 12]).collect();
    let mut ctx = Ctx::new(DiceSource::Scripted(&mut dice), None);
    WhereEaglesDare.timeout(&mut s, &allied, &mut ctx).unwrap();
    let lines: Vec<String> = ctx.lines().iter().map(|l| l.text.clone()).collect();
    assert!(
        lines.iter().any(|l| l.starts_with(
            "Drop Table for A/501 in B: the die reads 8, 1 German unit(s) in the zone +1 = 9"
        )),
        "{lines:#?}"
    );
    assert!(s.drop_rolled.contains(&"A/501".to_owned()) && s.drop_awaiting.is_empty());

    // Version 16: the impulse ends with the roll not made.
    let mut s = a_501_dropped_with_drop_two();
    s.version = 16;
    assert!(order(&mut s, "allied", "end", &[1; 12]).is_ok());
    assert_eq!(s.drop_awaiting, vec!["A/501".to_owned()]);
}

#[test]
fn drops_3_4_2_one_action_removes_each_glider_paradrop_marker_and_nothing_else_before() {
    let mut s = game("the-best-laid-plans");
    s.time += 1;
    s.drops[1].arrived = Some((s.day, s.time));
    allied_impulse(&mut s, "f-501");
    put(&mut s, "A/501", "58.149");
    ok(&mut s, "allied", "droproll A/501 B", &[6]);
    assert_eq!(s.drop_markers.get("A/501"), Some(&2));
    let allied = Viewer::Seat(Seat::parse("allied").unwrap());
    assert_eq!(
        WhereEaglesDare.view(&s, &allied)["drop_markers"]["A/501"],
        json!(2)
    );
    let board = WhereEaglesDare.board_text(&s, &allied).unwrap();
    assert!(
        board.contains("Glider/paradrop markers (3.4.2): A/501 x2"),
        "{board}"
    );
    // Under a marker the unit performs no other Action.
    for text in [
        "move A/501 58.150",
        "fire A/501 58.151 small-arms",
        "assault A/501 58.150",
        "rally A/501 pass 0-5",
    ] {
        let e = refused(&mut s, "allied", text, "3.4.2");
        assert!(e.message.contains("unmark A/501"), "{e}");
    }
    // Each marker is an Action of the unit, without opportunity fire; not another unit's.
    allied_impulse(&mut s, "f-502");
    refused(&mut s, "allied", "unmark A/501", "S6.6");
    allied_impulse(&mut s, "f-501");
    ok(&mut s, "allied", "unmark A/501", &[]);
    assert_eq!(s.drop_markers.get("A/501"), Some(&1));
    assert!(s.window.is_none());
    ok(&mut s, "allied", "unmark A/501", &[]);
    assert!(!s.drop_markers.contains_key("A/501"));
    refused(&mut s, "allied", "unmark A/501", "3.4.2");
    play(&mut s, "allied", "move A/501 58.150", &[]);
    // Before any drop has come, no Unit rolls.
    let mut s = game("the-best-laid-plans");
    for d in s.drops.iter_mut() {
        d.arrived = None;
    }
    allied_impulse(&mut s, "div-101");
    refused(&mut s, "allied", "droproll A/502 B", "3.4.1");
}

#[test]
fn positions_decisions_23_and_24_how_a_unit_came_in_and_its_drop_markers() {
    let p = read_position(
        "unit 1/2ig allied at 30.11 column tracked\ndropped A/501 markers 2\ndropped B/501",
    )
    .unwrap();
    assert_eq!(
        p.state.vehicles.get("1/2ig"),
        Some(&order::Transport::Tracked)
    );
    assert_eq!(p.state.drop_markers.get("A/501"), Some(&2));
    assert!(p.state.drop_rolled.iter().any(|u| u == "B/501"));
    assert!(!p.state.drop_markers.contains_key("B/501"));
    for bad in [
        "unit 1/2ig allied at 30.11 column column",
        "unit 1/2ig allied at 30.11 tracked wheeled",
        "dropped A/501 markers x",
        "dropped pz/59-a",
    ] {
        assert!(read_position(bad).is_err(), "{bad}");
    }
    // Set so on a game's map, the tank is locked in Column in the woods (2.4) and the dropped
    // unit performs no Action but removing its markers (3.4.2).
    let setup = Setup {
        game_id: "rules".into(),
        scenario: "the-best-laid-plans".into(),
        options: json!({ "map": LOCKS_MAP }),
        seats: SeatDef::named_by_id(&["allied", "german"]).unwrap(),
    };
    let mut s = WhereEaglesDare
        .position(
            &setup,
            "unit 1/2ig allied at 30.11 column tracked\nunit A/501 allied at 31.11\ndropped A/501 markers 1",
            &mut hidden_stream(&[7; 32], "rules", 0),
        )
        .unwrap()
        .state;
    allied_impulse(&mut s, "div-guards");
    refused(&mut s, "allied", "move 1/2ig 31.11", "2.4 Woods");
    allied_impulse(&mut s, "div-101");
    refused(&mut s, "allied", "move A/501 31.12", "3.4.2");
    ok(&mut s, "allied", "unmark A/501", &[]);
    play(&mut s, "allied", "move A/501 31.12", &[]);
}

#[test]
fn free_drop_3_3_2_an_opened_plan_s_zone_binds_its_formation_s_drop_rolls_and_placements() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-101");
    // Drop One's plan, opened: 502 in B, 501 in A, 506 in C; no zone for the independents.
    s.drops[0].plan = Some(vec!["502:B".into(), "501:A".into(), "506:C".into()]);
    // A roll in another zone is refused, naming the plan's zone, and changes nothing.
    let e = refused(&mut s, "allied", "droproll A/502 A", "3.3.2");
    assert!(
        e.message.contains("zone B") && e.message.contains("A/502"),
        "{e}"
    );
    ok(&mut s, "allied", "droproll A/502 B", &[0]);
    // Placed as dropped in another zone: refused too; in its own, it has dropped.
    let a = only_in("A");
    let e = refused(&mut s, "allied", &format!("move B/502 {a}"), "3.3.2");
    assert!(e.message.contains("zone B"), "{e}");
    play(&mut s, "allied", &format!("move A/501 {a}"), &[]);
    assert_eq!(s.drop_awaiting, vec!["A/501".to_owned()]);
    ok(&mut s, "allied", "droproll A/501 A", &[0]);
    // A Formation the plan does not name is not in this drop.
    let e = refused(&mut s, "allied", "droproll A/327 B", "3.3.2");
    assert!(e.message.contains("names no zone for 327"), "{e}");
    // Independents (decision 26): with no zone of their own in the plan, any zone another
    // Formation of their Division uses this drop; not one nobody uses.
    ok(&mut s, "allied", "droproll A/326 C", &[0]);
    let e = refused(&mut s, "allied", "droproll B/326 A1", "3.3.2");
    assert!(e.message.contains("ind-101"), "{e}");
    // Named in the plan, only the zones it names.
    s.drops[0].plan = Some(vec![
        "502:B".into(),
        "501:A".into(),
        "506:C".into(),
        "ind-101:A".into(),
    ]);
    refused(&mut s, "allied", "droproll B/326 C", "3.3.2");
    ok(&mut s, "allied", "droproll B/326 A", &[0]);
    // A hex of both B and C is in the zone C the plan gives the 506.
    play(&mut s, "allied", "move A/506 57.150", &[]);
    assert_eq!(s.drop_awaiting, vec!["A/506".to_owned()]);
    ok(&mut s, "allied", "droproll A/506 C", &[0]);
    // Drop Two: a Formation of Drop One's plan does not drop again; the refusal says where its
    // plan put it.
    s.time += 1;
    s.drops[1].arrived = Some((s.day, s.time));
    s.drops[1].plan = Some(vec!["327:B".into()]);
    allied_impulse(&mut s, "f-502");
    let e = refused(&mut s, "allied", "droproll C/502 B", "3.3.2");
    assert!(e.message.contains("Drop 1 in zone B"), "{e}");
    allied_impulse(&mut s, "f-327");
    ok(&mut s, "allied", "droproll A/327 B", &[0]);
    // A plan still sealed is not read: the rolls are checked as without a free drop.
    s.drops[1].plan = None;
    ok(&mut s, "allied", "droproll B/327 C", &[0]);
}
