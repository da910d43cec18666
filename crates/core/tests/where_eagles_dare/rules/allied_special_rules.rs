//! S6.0 Allied Special Rules: supply (S6.1), Dispatch Point discounts (S6.2), night turn
//! restrictions (S6.4), the 101st's command (S6.5–S6.8), PFC Joe Mann (S6.9) and the 231st
//! Brigade (S6.10).

use std::collections::VecDeque;

use despatch_core::engine::ruleset::{Ctx, DiceSource, Rules, Viewer};
use despatch_core::rules::where_eagles_dare::command;
use despatch_core::rules::where_eagles_dare::order;
use despatch_core::rules::where_eagles_dare::state::{AirDropCounters, Phase, Side, Unit};
use despatch_core::rules::where_eagles_dare::WhereEaglesDare;
use serde_json::json;

use super::support::*;

#[test]
fn s6_2_discounts_two_101st_formations_or_hot_and_cold_bring_independent_and_artillery_free() {
    let mut s = game("the-best-laid-plans");
    s.dp.insert("101st".into(), 3);
    refused(&mut s, "allied", "buy f-501 ind-101", "step 6");
    s.dp.insert("101st".into(), 4);
    ok(&mut s, "allied", "buy f-501 f-502 ind-101 art-101", &[]);
    assert_eq!(
        s.dp["101st"], 0,
        "the Independent and Artillery chits are free"
    );
    assert_eq!(s.bought.len(), 4);

    let mut s = game("the-best-laid-plans");
    s.dp.insert("guards".into(), 4);
    refused(
        &mut s,
        "allied",
        "buy f-hot ind-guards art-guards",
        "step 6",
    );
    ok(
        &mut s,
        "allied",
        "buy f-hot f-cold ind-guards art-guards",
        &[],
    );
    assert_eq!(s.dp["guards"], 0);

    // S6.10: the Guards pay for the 231st Brigade.
    let mut s = game("the-best-laid-plans");
    ok(&mut s, "allied", "buy f-231", &[]);
    assert_eq!((s.dp["guards"], s.dp["43rd"]), (2, 0));
}

#[test]
fn s6_4_no_guards_or_43rd_chit_bought_for_the_night_and_the_last_1900_chit_is_wasted() {
    let mut s = game("the-best-laid-plans");
    s.time = NIGHT;
    s.phase = Phase::Buy { side: Side::Allied };
    let e = refused(&mut s, "allied", "buy f-hot", "S6.4");
    assert!(e.message.contains("night"), "{e}");
    refused(&mut s, "allied", "buy f-231", "S6.4");
    s.held = Some("f-hot".into());
    ok(&mut s, "allied", "buy f-501", &[]);
    ok(&mut s, "german", "buy none", &[1]);
    assert_eq!(s.held, None);
    assert_eq!(
        s.chit.as_deref(),
        Some("dc-allied"),
        "f-hot is wasted: the first chit is the first drawn"
    );

    let mut s = game("the-best-laid-plans");
    s.held = Some("f-hot".into());
    ok(&mut s, "allied", "buy none", &[]);
    ok(&mut s, "german", "buy none", &[]);
    assert_eq!(s.chit.as_deref(), Some("f-hot"), "by day it opens the turn");
}

#[test]
fn interdicted_drop_zones_s6_1_1_tq_minus_1_until_a_clean_drop_and_none_after_the_sea_tail() {
    let mut s = morning_of_the_19th();
    s.supply.interdicted = true;
    let board = WhereEaglesDare.board_text(&s, &Viewer::Spectator).unwrap();
    assert!(board.contains("101st −1 (SDZ Closed, S6.1.1)"), "{board}");
    // A clean drop ends it.
    ok(&mut s, "allied", "weather", &[9]);
    s.supply.counters = Some(AirDropCounters {
        day: 19,
        candidates: [3, 4],
        commitment: "s19".into(),
        revealed: Some(3),
    });
    s.phase = Phase::Buy { side: Side::Allied };
    for _ in 0..3 {
        next_turn(&mut s);
    }
    assert_eq!((s.time, s.supply.today), (3, Some(19)));
    assert!(!s.supply.interdicted, "a clean drop: the penalty ends");
    // S6.1.2 on the board too.
    s.highway.cut = true;
    let board = WhereEaglesDare.board_text(&s, &Viewer::Spectator).unwrap();
    assert!(
        board.contains("Guards Armored −2 (Club Route Cut, S6.1.2)"),
        "{board}"
    );
    // The Sea Tail arrived: always in supply, no supply drop.
    let mut s = before_1900("the-best-laid-plans", 19);
    s.released = ids(&[
        "group-hot",
        "group-cold",
        "guards-art",
        "44-rtr",
        "sherwood",
        "royal-dragoons",
    ]);
    s.marker = None;
    s.supply.interdicted = true;
    ok(&mut s, "allied", "end", &[]);
    ok(&mut s, "allied", "release", &[0]);
    assert!(s.released.contains(&"101-sea-tail".to_owned()));
    assert!(s.supply.ended && !s.supply.interdicted);
}

#[test]
fn joe_mann_s6_9_negates_a_502_pir_loss_once_in_the_best_laid_plans() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "f-502");
    play(&mut s, "allied", "move B/502 50.150", &[]);
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 50.150 small-arms", &[2]);
    ok(&mut s, "german", "result eliminated B/502", &[]);
    assert!(!s.units.contains_key("B/502") && s.mann.is_some());
    refused(&mut s, "german", "end", "sequence of play");
    ok(&mut s, "allied", "joemann", &[]);
    assert!(s.units.contains_key("B/502") && s.mann_used);
    // Spent: no second chance.
    ok(&mut s, "german", "fire G/1 50.150 small-arms", &[2]);
    ok(&mut s, "german", "result step-loss B/502", &[]);
    assert!(s.mann.is_none());
    // Not in A Ride in the Country, not for another regiment.
    let mut s = game("a-ride-in-the-country");
    s.units.insert(
        "B/502".into(),
        Unit {
            side: Side::Allied,
            hex: hex("50.150"),
            column: false,
        },
    );
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 50.150 small-arms", &[2]);
    ok(&mut s, "german", "result eliminated", &[]);
    assert!(s.mann.is_none());
}

#[test]
fn s6_5_44_rtr_and_the_15_19_krh_are_independents_of_the_101st() {
    let mut s = game("the-best-laid-plans");
    put(&mut s, "A/44rtr", "60.160");
    put(&mut s, "A/15-19krh", "60.162");
    // Not the Guards': neither their Independent chit nor their Division chit moves them.
    allied_impulse(&mut s, "ind-guards");
    refused(&mut s, "allied", "move A/44rtr 60.161", "S6.5");
    allied_impulse(&mut s, "div-guards");
    refused(&mut s, "allied", "move A/15-19krh 60.161", "S6.5");
    // The 101st's Independent chit and Division chit do.
    allied_impulse(&mut s, "ind-101");
    play(&mut s, "allied", "move A/44rtr 60.161", &[]);
    allied_impulse(&mut s, "div-101");
    play(&mut s, "allied", "move A/15-19krh 60.163", &[]);
    // Its Command Points are the 101st's.
    s.cp.insert("101st".into(), 3);
    s.cp.insert("guards".into(), 3);
    ok(&mut s, "allied", "command A/44rtr by ldr-101", &[]);
    assert_eq!((s.cp["101st"], s.cp["guards"]), (2, 3));
    refused(&mut s, "allied", "command A/44rtr from guards", "S6.10");
}

#[test]
fn s6_6_a_101st_unit_in_command_by_another_101st_leader_pays_2_cp_and_is_not_activated() {
    let mut s = game("the-best-laid-plans");
    put(&mut s, "A/502", "60.160");
    put(&mut s, "ldr-502", "60.170");
    put(&mut s, "ldr-506", "60.162");
    // The 506's chit does not activate a 502 unit, though its Leader is near.
    allied_impulse(&mut s, "f-506");
    let e = refused(&mut s, "allied", "move A/502 60.161", "S6.6");
    assert!(e.message.contains("f-502"), "{e}");
    s.cp.insert("101st".into(), 3);
    // Its own Leader is 10 hexes off, beyond his Command Range of 4.
    let e = refused(&mut s, "allied", "command A/502", "command");
    assert!(e.message.contains("beyond"), "{e}");
    // The 506's Leader commands it at 2 CP for a 1 CP Action.
    ok(&mut s, "allied", "command A/502 by ldr-506", &[]);
    assert_eq!(s.cp["101st"], 1);
    refused(&mut s, "allied", "command A/502 by ldr-506", "S6.6");
    // Its own Leader, once in range: 1 CP.
    put(&mut s, "ldr-502", "60.161");
    ok(&mut s, "allied", "command A/502", &[]);
    assert_eq!(s.cp["101st"], 0);
    // Only the 101st: a Guards unit is not commanded by another formation's Leader.
    s.cp.insert("guards".into(), 3);
    allied_impulse(&mut s, "div-guards");
    refused(&mut s, "allied", "command 1/2ig by ldr-cold", "S6.6");
    // A 101st Unit is not commanded by a Guards Leader either.
    allied_impulse(&mut s, "div-101");
    s.cp.insert("101st".into(), 3);
    refused(&mut s, "allied", "command A/502 by ldr-hot", "S6.6");
    // The enemy's units are not the player's to command or move.
    refused(&mut s, "german", "move A/502 60.161", "sequence of play");
    refused(&mut s, "allied", "command 1/59-a", "order of battle");
}

#[test]
fn s6_7_american_telephones_command_at_any_distance() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-101");
    s.cp.insert("101st".into(), 5);
    s.cp.insert("guards".into(), 5);
    put(&mut s, "A/502", "50.150");
    put(&mut s, "ldr-502", "70.190");
    refused(&mut s, "allied", "command A/502", "command");
    // Both in a town, city, fortified hex, strongpoint or observation post (stated), and the
    // Leader has a telephone: In Command anywhere.
    ok(&mut s, "allied", "command A/502 phone", &[]);
    assert_eq!(s.cp["101st"], 4);
    // The 327's Leader has no telephone.
    put(&mut s, "A/327", "50.150");
    put(&mut s, "ldr-327", "70.190");
    let e = refused(&mut s, "allied", "command A/327 phone", "S6.7");
    assert!(e.message.contains("telephone"), "{e}");
    // A British unit is not American.
    allied_impulse(&mut s, "div-guards");
    refused(&mut s, "allied", "command A/3ig phone", "S6.7");
    // A telephone call to another 101st Leader is still S6.6's 2 CP.
    allied_impulse(&mut s, "div-101");
    ok(&mut s, "allied", "command A/327 by ldr-502 phone", &[]);
    assert_eq!(s.cp["101st"], 3, "by telephone: 1 CP");
    // The order round-trips.
    let c = order::parse("command A/327 by ldr-502 phone from 101st").unwrap();
    assert_eq!(
        order::describe(&c),
        "command A/327 by ldr-502 phone from 101st"
    );
    assert!(order::parse("command A/327 by").is_err());
}

#[test]
fn s6_8_self_command_units_are_always_in_command() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-guards");
    s.cp.insert("guards".into(), 2);
    s.cp.insert("101st".into(), 2);
    put(&mut s, "A/2hhc", "30.100");
    put(&mut s, "ldr-guards", "60.200");
    ok(&mut s, "allied", "command A/2hhc", &[]);
    assert_eq!(s.cp["guards"], 1);
    // Not so the Guards' other units far from their Leader.
    put(&mut s, "1/2ig", "30.100");
    put(&mut s, "ldr-hot", "60.200");
    refused(&mut s, "allied", "command 1/2ig", "command");
    allied_impulse(&mut s, "div-101");
    put(&mut s, "101-recon", "10.10");
    ok(&mut s, "allied", "command 101-recon", &[]);
    assert_eq!(s.cp["101st"], 1);
}

#[test]
fn s6_10_the_231st_never_moves_north_of_its_deployment_line_and_the_guards_may_pay() {
    let mut s = game("the-best-laid-plans");
    let row = command::limit_231(41).expect("the line crosses column 41");
    allied_impulse(&mut s, "f-231");
    put(&mut s, "A/2devon", &format!("41.{}", row + 1));
    // Onto the line's row: allowed; one more row north: refused, nothing changes.
    play(&mut s, "allied", &format!("move A/2devon 41.{row}"), &[]);
    let e = refused(
        &mut s,
        "allied",
        &format!("move A/2devon 41.{}", row - 1),
        "S6.10",
    );
    assert!(e.message.contains("north"), "{e}");
    // Other units go north freely.
    allied_impulse(&mut s, "div-guards");
    put(&mut s, "1/2ig", &format!("41.{row}"));
    play(&mut s, "allied", &format!("move 1/2ig 41.{}", row - 1), &[]);
    // A 231st unit found north of the line for any reason is eliminated.
    put(&mut s, "B/2devon", &format!("41.{}", row - 2));
    let mut q = VecDeque::new();
    let mut ctx = Ctx::new(DiceSource::Scripted(&mut q), None);
    command::eliminate_north_231(&mut s, &mut ctx);
    assert!(!s.units.contains_key("B/2devon") && s.gone.contains(&"B/2devon".into()));
    assert!(s.units.contains_key("A/2devon"));
    // The Guards may pay the 231st's Command Points (the 43rd's are its own).
    allied_impulse(&mut s, "f-231");
    put(&mut s, "ldr-231", &format!("42.{row}"));
    s.cp.insert("guards".into(), 1);
    s.cp.insert("43rd".into(), 0);
    refused(
        &mut s,
        "allied",
        "command A/2devon",
        "Command and Dispatch Points",
    );
    ok(&mut s, "allied", "command A/2devon from guards", &[]);
    assert_eq!(s.cp["guards"], 0);
    refused(&mut s, "allied", "command A/2devon from 101st", "S6.10");
}

#[test]
fn steps_s6_9_joe_mann_gives_the_step_back_and_clears_the_hex_s_suppressions_and_cohesion_hits() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "f-502");
    play(&mut s, "allied", "move A/502 50.150", &[]);
    play(&mut s, "allied", "move B/502 50.150", &[]);
    german_result(&mut s, "50.150", "suppressed");
    german_result(&mut s, "50.150", "cohesion-hit A/502");
    german_result(&mut s, "50.150", "step-loss B/502");
    assert!(s.mann.is_some() && s.marks["B/502"].lost == 1);
    ok(&mut s, "allied", "joemann", &[]);
    assert!(s.marks.is_empty(), "{:?}", s.marks);
}

#[test]
fn tq_modifiers_s6_1_1_s6_1_2_s5_1_1_decision_42_change_the_stated_faces_of_tq_and_rally() {
    // S6.1.1: SDZ Closed, every 101st unit's TQ −1: 0-5 stated for the face value passes on
    // 0-4 only; a Heroic 101st unit gets its face back (net 0).
    let mut s = game("the-best-laid-plans");
    s.supply.interdicted = true;
    allied_impulse(&mut s, "div-101");
    suppressed(&mut s, "A/502");
    ok(&mut s, "allied", "rally A/502 pass 0-5", &[5]);
    assert!(s.marks["A/502"].suppressed, "5 fails a 0-5 with −1");
    ok(&mut s, "allied", "rally A/502 pass 0-5", &[4]);
    assert!(!s.marks.contains_key("A/502"), "4 passes");
    suppressed(&mut s, "A/502");
    s.heroic.insert(Side::Allied, "A/502".into());
    ok(&mut s, "allied", "rally A/502 pass 0-5", &[5]);
    assert!(!s.marks.contains_key("A/502"), "Heroic +1 and −1: net 0");
    // The engineer's TQ check too.
    s.heroic.clear();
    ok(&mut s, "allied", "tq A/326 wire son pass 0-6", &[6]);
    assert_eq!(s.bridges["son"].wired_by, None, "6 fails a 0-6 with −1");
    // A unit outside the order of battle: its division is not known, the faces stand.
    suppressed(&mut s, "A/x");
    ok(&mut s, "allied", "rally A/x pass 0-5", &[5]);
    assert!(!s.marks.contains_key("A/x"));
    // S6.1.2: Club Route Cut, the Guards Armored −2; the 0 is never taken off (decision 1).
    let mut s = game("the-best-laid-plans");
    s.highway.cut = true;
    allied_impulse(&mut s, "div-guards");
    suppressed(&mut s, "A/3ig");
    ok(&mut s, "allied", "rally A/3ig pass 0-5", &[4]);
    assert!(s.marks["A/3ig"].suppressed, "4 fails a 0-5 with −2");
    ok(&mut s, "allied", "rally A/3ig pass 0-1", &[10]);
    assert!(!s.marks.contains_key("A/3ig"), "a 0 always passes");
    // The 101st is not the Guards: no modifier.
    allied_impulse(&mut s, "div-101");
    suppressed(&mut s, "A/502");
    ok(&mut s, "allied", "rally A/502 pass 0-5", &[5]);
    assert!(!s.marks.contains_key("A/502"));
    // S5.1.1: KG Chill, every German TQ +1: 0-6 passes on 7 too.
    let mut s = game("the-best-laid-plans");
    s.kg_chill = true;
    german_impulse(&mut s);
    s.chit = Some("div-59th".into());
    ok(&mut s, "german", "tq pi/59-a wire son pass 0-6", &[7]);
    assert_eq!(s.bridges["son"].wired_by, Some(Side::German));
    let board = WhereEaglesDare.board_text(&s, &Viewer::Spectator).unwrap();
    assert!(
        board.contains("German +1") && board.contains("decision 42"),
        "{board}"
    );
    assert!(board.lines().all(|l| l.chars().count() <= 78), "{board}");
    // Option off: the stated faces include the modifiers, as before.
    let mut s = game_with("the-best-laid-plans", json!({ "tq_modifiers": false })).unwrap();
    s.supply.interdicted = true;
    allied_impulse(&mut s, "div-101");
    suppressed(&mut s, "A/502");
    ok(&mut s, "allied", "rally A/502 pass 0-5", &[5]);
    assert!(!s.marks.contains_key("A/502"));
    let board = WhereEaglesDare.board_text(&s, &Viewer::Spectator).unwrap();
    assert!(board.contains("option tq_modifiers off"), "{board}");
    assert!(game_with("the-best-laid-plans", json!({ "tq_modifiers": 1 })).is_err());
}
