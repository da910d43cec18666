//! S5.0 German Special Rules: KG Chill (S5.1.1), the Eindhoven Air Raid (S5.2), divisional
//! trucks (S5.3), the flak units (S5.4) and KG Huber (S5.5).

use despatch_core::engine::ruleset::{Rules, Seat, Viewer};
use despatch_core::rules::where_eagles_dare::data::DATA;
use despatch_core::rules::where_eagles_dare::state::{Phase, RaidMarker, Side, State};
use despatch_core::rules::where_eagles_dare::{chits, WhereEaglesDare};
use serde_json::json;

use super::support::*;

#[test]
fn s5_2_divisional_chits_add_the_air_raid_marker_first_then_roll_cp_and_dp() {
    let mut s = mug_of(&["div-101", "div-guards", "f-501"]);
    s.air_raid = Some(Default::default());
    // Die 2 of 3: div-guards. The raid's Closed marker comes first, so the Guards chit finds
    // a marker in the box and opens the German's status window; then CP 10 (0: +3), DP 4 (+1).
    ok(&mut s, "allied", "end", &[2, 10, 4]);
    assert_eq!(s.highway.closed, 1);
    assert!(s.status_window());
    assert_eq!((s.cp["guards"], s.dp["guards"]), (5, 5));
    ok(&mut s, "german", "pass", &[]);
    assert!(!s.status_window());
    s.highway.closed_this_turn = true;
    s.highway.closed = 0;
    refused(&mut s, "allied", "stopraid 5", "S5.2");
    ok(&mut s, "allied", "stopraid 3", &[]);
    ok(&mut s, "allied", "stopraid 1", &[]);
    assert_eq!(
        (s.dp["guards"], s.air_raid.as_ref().unwrap().dp_paid),
        (1, 4)
    );
    refused(&mut s, "allied", "stopraid 1", "S5.2");
    // Stopped: the next Division chit adds no marker, the per-turn cap notwithstanding.
    ok(&mut s, "allied", "end", &[1, 1, 1]);
    assert_eq!(s.chit.as_deref(), Some("div-101"));
    assert_eq!(s.highway.closed, 0);
    refused(&mut s, "allied", "stopraid 1", "S5.2");

    // Not stopped: each 101st or Guards Division chit adds one, beyond the cap of one a turn.
    let mut s = mug_of(&["div-101", "div-guards", "f-501"]);
    s.air_raid = Some(Default::default());
    s.highway.closed_this_turn = true;
    ok(&mut s, "allied", "end", &[1, 1, 1]);
    assert_eq!(s.highway.closed, 1, "the raid's marker is uncapped");
    ok(&mut s, "allied", "stopraid 1", &[]);
    assert_eq!(s.air_raid.as_ref().unwrap().dp_paid, 1);
    ok(&mut s, "allied", "end", &[2]);
    assert_eq!(s.chit.as_deref(), Some("f-501"));
    refused(&mut s, "allied", "stopraid 1", "S5.2");
}

#[test]
fn s5_2_raid_markers_sealed_before_play_the_first_revealed_raid_counts_the_20th_implied() {
    let mut s = game("campaign");
    assert_eq!(s.phase, Phase::Raids { day: 18 });
    refused(&mut s, "german", "raid 19 raid", "S5.2");
    let e = refused(&mut s, "german", "raid 18 raid", "S5.2");
    assert!(e.message.contains("sealed by the server"), "{e}");
    refused(&mut s, "allied", "raid 18 raid", "sequence of play");
    // The markers as the server's seal leaves them: commitments only.
    let sealed = |s: &mut State| {
        s.raid_markers = [18, 19, 20]
            .into_iter()
            .map(|day| RaidMarker {
                day,
                commitment: format!("c{day}"),
                revealed: None,
            })
            .collect();
    };
    sealed(&mut s);
    let allied = WhereEaglesDare
        .view(&s, &Viewer::Seat(Seat::parse("allied").unwrap()))
        .to_string();
    assert_eq!(allied.matches("face down").count(), 3, "{allied}");
    reveal(&mut s, "german", "c18", json!({"raid_marker": "decoy"}));
    reveal(&mut s, "german", "c19", json!({"raid_marker": "decoy"}));
    assert_eq!(s.air_raid, None);
    reveal(&mut s, "german", "c20", json!({"raid_marker": "decoy"}));
    assert!(s.air_raid.is_some(), "two decoys: the 20th is the raid");

    let mut s = game("campaign");
    sealed(&mut s);
    reveal(&mut s, "german", "c18", json!({"raid_marker": "raid"}));
    s.air_raid.as_mut().unwrap().dp_paid = 2;
    reveal(&mut s, "german", "c19", json!({"raid_marker": "raid"}));
    assert_eq!(
        s.air_raid.as_ref().unwrap().dp_paid,
        2,
        "the first revealed raid counts; a second is a decoy"
    );
    assert_eq!(s.raid_markers[1].revealed, Some(true));
}

#[test]
fn kg_chill_s5_1_1_replaces_the_erc_display_at_0700_20_sept_with_its_points_and_chits() {
    let mut s = before_1900("campaign", 19);
    s.phase = Phase::Activation;
    s.time = NIGHT;
    s.held = Some("f-erc-a".into());
    s.dp.insert("erc".into(), 5);
    assert!(!s.kg_chill);
    ok(&mut s, "allied", "end", &[]);
    assert_eq!((s.day, s.time), (20, 0));
    assert!(s.kg_chill);
    assert_eq!(s.dp.get("erc"), None);
    assert_eq!(s.dp["chill"], 5);
    assert_eq!(s.held.as_deref(), Some("f-chill-a"));
    ok(&mut s, "allied", "weather", &[9]);
    chits::to_buy(&mut s);
    ok(&mut s, "allied", "buy none", &[]);
    let e = refused(&mut s, "german", "buy f-erc-b", "S5.1.1");
    assert!(e.message.contains("KG Chill"), "{e}");
    // The held chit, now KG Chill's, opens the turn: no draw yet.
    ok(&mut s, "german", "buy f-chill-b", &[]);
    assert_eq!(s.chit.as_deref(), Some("f-chill-a"));
    assert!(s.mug.contains(&"div-chill".to_owned()) && !s.mug.contains(&"div-erc".to_owned()));
    let board = WhereEaglesDare.board_text(&s, &Viewer::Spectator).unwrap();
    assert!(
        board.contains("German +1, white assault +1 (KG Chill, S5.1.1)"),
        "{board}"
    );
}

#[test]
fn trucks_s5_3_and_jeeps_s6_3_the_counter_mix_is_the_limit_and_an_eliminated_rider_loses_one() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-101");
    for u in ["A/1", "A/2", "A/3"] {
        play(&mut s, "allied", &format!("move {u} 50.150"), &[]);
    }
    refused(&mut s, "allied", "truck A/1 59th", "S5.3");
    refused(&mut s, "allied", "jeep A/1 101st", "S5.3"); // jeeps from the 18th
    play(&mut s, "allied", "truck A/1 101st", &[]);
    play(&mut s, "allied", "truck A/2 101st", &[]);
    let e = refused(&mut s, "allied", "truck A/3 101st", "S5.3");
    assert!(e.message.contains("counter mix"), "{e}");
    // Dismounted, the truck is free again at once.
    play(&mut s, "allied", "dismount A/2", &[]);
    play(&mut s, "allied", "truck A/3 101st", &[]);
    // Eliminated with its truck: the truck leaves the game.
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 50.150 mortar", &[1]);
    ok(&mut s, "german", "result eliminated A/3", &[]);
    assert_eq!(s.assets_lost["truck:101st"], 1);
    allied_impulse(&mut s, "div-101");
    play(&mut s, "allied", "dismount A/1 abandon", &[]);
    assert_eq!(s.assets_lost["truck:101st"], 2);
    refused(&mut s, "allied", "truck A/2 101st", "S5.3");
}

#[test]
fn german_flak_s5_4_face_down_at_random_and_flipped_when_drop_one_is_rolled() {
    let mut s = game("the-best-laid-plans");
    assert_eq!(s.flak.len(), DATA.flak_types.len());
    let allied = Viewer::Seat(Seat::parse("allied").unwrap());
    let german = Viewer::Seat(Seat::parse("german").unwrap());
    assert_eq!(
        WhereEaglesDare.view(&s, &allied)["flak"],
        json!("secret until flipped (S5.4)")
    );
    assert!(WhereEaglesDare.view(&s, &german)["flak"].is_object());
    let board = WhereEaglesDare.board_text(&s, &allied).unwrap();
    assert!(
        board.contains("counters face down") && !board.contains(" 88"),
        "{board}"
    );
    allied_impulse(&mut s, "div-101");
    ok(&mut s, "allied", "droproll A/502 B", &[3]);
    assert!(s.flak_flipped);
    assert!(WhereEaglesDare.view(&s, &allied)["flak"].is_object());
    // A Ride in the Country has no drop and no flak.
    assert!(game("a-ride-in-the-country").flak.is_empty());
}

#[test]
fn kg_huber_s5_5_sealed_on_the_night_of_the_17th_opened_at_0700_18th() {
    let mut s = game("the-best-laid-plans");
    s.phase = Phase::Activation;
    s.mug.clear();
    s.time = 6;
    // The Night turn begins with KG Huber's choice.
    ok(&mut s, "allied", "end", &[]);
    assert_eq!((s.time, &s.phase), (NIGHT, &Phase::Huber));
    let e = refused(&mut s, "german", "huber 59th", "S5.5");
    assert!(e.message.contains("sealed by the server"), "{e}");
    refused(&mut s, "allied", "huber 59th", "sequence of play");
    s.huber.commitment = Some("h".into());
    let allied = Viewer::Seat(Seat::parse("allied").unwrap());
    assert_eq!(
        WhereEaglesDare.view(&s, &allied)["kg_huber"],
        json!("sealed")
    );
    chits::to_buy(&mut s);
    ok(&mut s, "allied", "buy none", &[]);
    refused(&mut s, "german", "buy f-huber-59", "S5.5");
    reveal(&mut s, "german", "h", json!({"huber": "59th"}));
    s.day = 18;
    s.time = 0;
    assert!(chits::buyable(&s, Side::German).contains(&"f-huber-59"));
    assert!(!chits::buyable(&s, Side::German).contains(&"f-huber-chill"));
}

/// S5.5: "Place the not chosen Formation to the side and it is not used in the game"; the chosen
/// set enters on its turn (0700 18 Sept as a 59th Formation, Night 21 Sept under KG Chill).
#[test]
fn kg_huber_s5_5_the_set_not_chosen_is_put_aside_and_the_chosen_one_enters_on_its_turn() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    s.chit = None;
    s.time = NIGHT;
    let e = refused(&mut s, "german", "move 1/huber-59 30.100", "S5.5");
    assert!(e.message.contains("not revealed"), "{e}");
    s.huber.commitment = Some("h".into());
    reveal(&mut s, "german", "h", json!({"huber": "59th"}));
    german_impulse(&mut s);
    s.chit = None;
    let e = refused(&mut s, "german", "move 1/huber-59 30.100", "S5.5");
    assert!(e.message.contains("0700 18 Sept"), "{e}");
    s.day = 18;
    s.time = 0;
    ok(&mut s, "german", "move 1/huber-59 30.100", &[]);
    no_opfire(&mut s);
    let e = refused(&mut s, "german", "move 1/huber-chill 30.101", "S5.5");
    assert!(e.message.contains("put aside"), "{e}");
}

#[test]
fn trucks_s5_3_and_jeeps_s6_3_decision_44_a_leg_unit_of_the_owning_division_rides_as_an_independent(
) {
    let mut s = game("the-best-laid-plans");
    for u in ["A/502", "A/44rtr", "A/3ig"] {
        unit_at(&mut s, u, Side::Allied, "50.150");
    }
    // "A Unit of the owning Division may use these assets".
    allied_impulse(&mut s, "f-502");
    let e = refused(&mut s, "allied", "truck A/502 guards", "S5.3");
    assert!(
        e.message.contains("of the 101st") && e.message.contains("truck A/502 101st"),
        "{e}"
    );
    // "the Leg Unit may mount": not an armor unit, not one with its own Organic Transport
    // (until it has abandoned it).
    allied_impulse(&mut s, "ind-101");
    let e = refused(&mut s, "allied", "truck A/44rtr 101st", "S5.3");
    assert!(e.message.contains("not a Leg Unit"), "{e}");
    allied_impulse(&mut s, "f-hot");
    let e = refused(&mut s, "allied", "truck A/3ig guards", "S5.3");
    assert!(e.message.contains("Organic Transport"), "{e}");
    s.abandoned.push("A/3ig".into());
    play(&mut s, "allied", "truck A/3ig guards", &[]);
    // "The Unit is now treated as an Independent Formation Unit until it dismounts": its own
    // Formation chit no longer activates it; the division's Independent chit does.
    allied_impulse(&mut s, "f-502");
    play(&mut s, "allied", "truck A/502 101st", &[]);
    allied_impulse(&mut s, "f-502");
    let e = refused(&mut s, "allied", "move A/502 50.151", "S5.3");
    assert!(e.message.contains("ind-101"), "{e}");
    allied_impulse(&mut s, "ind-101");
    play(&mut s, "allied", "move A/502 50.151", &[]);
    play(&mut s, "allied", "dismount A/502", &[]);
    // Dismounted, it is of its Formation again.
    allied_impulse(&mut s, "f-502");
    play(&mut s, "allied", "move A/502 50.150", &[]);
    allied_impulse(&mut s, "ind-101");
    refused(&mut s, "allied", "move A/502 50.151", "S6.6");
}
