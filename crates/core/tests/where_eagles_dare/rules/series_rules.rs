//! What the series rulebook decides and the players state, as the engine records it: declared
//! rolls, moves kept hex by hex, opportunity fire, disputes, steps, suppression and cohesion,
//! command range and positions (the decisions these tests name).

use despatch_core::engine::ruleset::{Rules, Viewer};
use despatch_core::rules::where_eagles_dare::order;
use despatch_core::rules::where_eagles_dare::state::{Phase, Side, Unit};
use despatch_core::rules::where_eagles_dare::WhereEaglesDare;
use serde_json::json;

use super::support::*;

#[test]
fn declared_rolls_a_check_states_its_passing_faces_first() {
    let mut s = game("the-best-laid-plans");
    s.phase = Phase::Activation;
    assert!(order(&mut s, "allied", "tq A/326 wire son", &[]).is_err());
    assert!(order(&mut s, "allied", "rally A/326", &[]).is_err());
    ok(&mut s, "allied", "rally A/326 pass 0-3", &[4]);
    ok(
        &mut s,
        "allied",
        "fire A/502 56.203 direct-he -- range 4, LOS clear",
        &[2],
    );
    assert!(
        order(&mut s, "allied", "end", &[]).is_err(),
        "the result class comes first"
    );
    assert!(order(&mut s, "allied", "result maybe", &[]).is_err());
    ok(&mut s, "allied", "result cohesion-hit", &[]);
}

#[test]
fn moves_paths_are_kept_as_positions_hex_by_hex() {
    let mut s = game("the-best-laid-plans");
    s.phase = Phase::Activation;
    ok(&mut s, "allied", "move A/502 56.201 56.202 column", &[]);
    assert_eq!(
        s.units["A/502"],
        Unit {
            side: Side::Allied,
            hex: hex("56.202"),
            column: true
        }
    );
    ok(&mut s, "german", "pass", &[]);
    let e = order(&mut s, "allied", "move A/502 56.210", &[]).unwrap_err();
    assert!(e.message.contains("not adjacent"), "{e}");
    assert!(
        order(&mut s, "german", "move A/502 56.203", &[]).is_err(),
        "not the German's impulse"
    );
}

#[test]
fn opportunity_fire_the_watching_seat_fires_after_a_move_or_passes() {
    let mut s = game("the-best-laid-plans");
    s.phase = Phase::Activation;
    ok(&mut s, "allied", "move A/502 56.202 56.203", &[]);
    assert!(
        order(&mut s, "allied", "end", &[]).is_err(),
        "the German's window first"
    );
    ok(&mut s, "german", "opfire G/1 56.203 small-arms", &[5]);
    ok(&mut s, "german", "result s?", &[]);
    assert_eq!(s.window, None);
    ok(&mut s, "allied", "end", &[]);
}

/// Issue 18: "after an action in a hex the opponent watches (a public standing list, default
/// all) he gets a window for opportunity fire". `watch` sets the seat's list; it stands until
/// changed, is shown on every board, and a move opens the window when any hex it enters is
/// watched.
#[test]
fn opportunity_fire_the_watch_list_opens_the_window_only_in_a_watched_hex() {
    let mut s = game("the-best-laid-plans");
    s.phase = Phase::Activation;
    ok(&mut s, "allied", "move A/502 56.202 56.203", &[]);
    assert_eq!(
        s.window,
        Some(hex("56.203")),
        "every hex is watched by default"
    );
    // In his window the German sets his list; the window stays open.
    ok(&mut s, "german", "watch 56.206 56.205", &[]);
    assert_eq!(s.window, Some(hex("56.203")));
    assert_eq!(
        s.watch[&Side::German].iter().copied().collect::<Vec<_>>(),
        [hex("56.205"), hex("56.206")]
    );
    ok(&mut s, "german", "pass", &[]);
    ok(&mut s, "allied", "move A/502 56.204", &[]);
    assert_eq!(s.window, None, "56.204 is not on the German's list");
    ok(&mut s, "allied", "move A/502 56.205", &[]);
    assert_eq!(s.window, Some(hex("56.205")));
    let board = WhereEaglesDare.board_text(&s, &Viewer::Spectator).unwrap();
    assert!(
        board.contains("german watch list (opportunity fire windows): 56.205 56.206"),
        "{board}"
    );
    ok(&mut s, "german", "watch none", &[]);
    ok(&mut s, "german", "pass", &[]);
    ok(&mut s, "allied", "move A/502 56.206", &[]);
    assert_eq!(s.window, None, "the German watches no hex");
    // Bad lists are refused and change nothing.
    for bad in ["watch", "watch 99", "watch all 56.201", "watch none 56.201"] {
        let before = s.clone();
        assert!(order(&mut s, "allied", bad, &[]).is_err(), "{bad}");
        assert_eq!(s, before, "{bad}");
    }
    ok(&mut s, "allied", "watch all", &[]);
    assert!(!s.watch.contains_key(&Side::Allied));
}

#[test]
fn disputes_are_logged_and_undo_nothing() {
    let mut s = game("the-best-laid-plans");
    s.phase = Phase::Activation;
    ok(&mut s, "allied", "move A/502 56.202 56.203", &[]);
    let before = s.units.clone();
    ok(&mut s, "german", "dispute 5 56.202 is in my fire zone", &[]);
    assert_eq!(s.units, before);
    assert_eq!(s.disputes.len(), 1);
    assert_eq!(s.disputes[0].text, "56.202 is in my fire zone");
}

#[test]
fn steps_suppression_and_cohesion_decision_15_stated_results_mark_the_units_and_a_rally_removes_them(
) {
    let mut s = game("a-ride-in-the-country");
    allied_impulse(&mut s, "f-502");
    play(&mut s, "allied", "move A/502 50.150", &[]);
    play(&mut s, "allied", "move B/502 50.150", &[]);
    // No unit named: Suppressed falls on every unit in the hex.
    german_result(&mut s, "50.150", "suppressed");
    assert!(s.marks["A/502"].suppressed && s.marks["B/502"].suppressed);
    german_result(&mut s, "50.150", "cohesion-hit B/502");
    assert_eq!(
        (s.marks["A/502"].cohesion, s.marks["B/502"].cohesion),
        (0, 1)
    );
    // A stack's Step Loss with no unit named is the players' to mark.
    german_result(&mut s, "50.150", "step-loss");
    assert_eq!((s.marks["A/502"].lost, s.marks["B/502"].lost), (0, 0));
    german_result(&mut s, "50.150", "step-loss B/502");
    assert_eq!(s.marks["B/502"].lost, 1);
    // Shown in the view, the board in text and the drawn board.
    let view = WhereEaglesDare.view(&s, &Viewer::Spectator);
    let b = &view["units"]["B/502"];
    assert_eq!(
        (
            &b["steps"],
            &b["steps_lost"],
            &b["suppressed"],
            &b["cohesion_hits"]
        ),
        (&json!(1), &json!(1), &json!(true), &json!(1))
    );
    let text = WhereEaglesDare.board_text(&s, &Viewer::Spectator).unwrap();
    assert!(
        text.contains("B/502      allied  50.150, 1/2 steps, Suppressed, 1 Cohesion Hit"),
        "{text}"
    );
    let svg = WhereEaglesDare
        .board_svg(&s, &Viewer::Spectator, &Default::default())
        .unwrap();
    assert!(svg.contains(r#"s-fired-on" data-piece="B/502""#));
    assert!(svg.contains(r#"data-piece="m-cohesion-B/502""#));
    // A rally passed removes the Suppression, then a Cohesion Hit; a failed one nothing.
    allied_impulse(&mut s, "f-502");
    play(&mut s, "allied", "rally B/502 pass 0-5", &[8]);
    assert!(s.marks["B/502"].suppressed);
    play(&mut s, "allied", "rally B/502 pass 0-5", &[3]);
    assert!(!s.marks["B/502"].suppressed && s.marks["B/502"].cohesion == 1);
    play(&mut s, "allied", "rally B/502 pass 0-5", &[3]);
    assert_eq!(s.marks["B/502"].cohesion, 0);
    assert_eq!(s.marks["B/502"].lost, 1, "a rally recovers no step");
    // The last step of the order of battle's two lost: eliminated.
    german_result(&mut s, "50.150", "step-loss B/502");
    assert!(!s.units.contains_key("B/502") && !s.marks.contains_key("B/502"));
    // Eliminated clears the marks of the units it removes.
    german_result(&mut s, "50.150", "eliminated A/502");
    assert!(s.marks.is_empty(), "{:?}", s.marks);
}

#[test]
fn command_range_decision_17_option_command_los_a_leader_commands_only_the_units_he_sees() {
    // A clear map, woods at 50.151 between the Leader at 50.152 and A/502 at 50.150.
    let mut map = String::new();
    for c in 48..=52 {
        for r in 148..=154 {
            let t = if (c, r) == (50, 151) {
                "woods"
            } else {
                "clear"
            };
            map.push_str(&format!("hex {c}.{r} {t}\n"));
        }
    }
    for (options, blocked) in [
        (json!({ "map": map, "command_los": true }), true),
        (json!({ "map": map }), false),
        (json!({ "command_los": true }), false),
    ] {
        let mut s = game_with("the-best-laid-plans", options.clone()).unwrap();
        allied_impulse(&mut s, "div-101");
        s.cp.insert("101st".into(), 5);
        put(&mut s, "A/502", "50.150");
        put(&mut s, "ldr-502", "50.152");
        if blocked {
            let e = refused(&mut s, "allied", "command A/502", "command");
            assert!(e.message.contains("does not see"), "{e}");
            // In sight (around the woods), In Command.
            put(&mut s, "A/502", "49.151");
        }
        ok(&mut s, "allied", "command A/502", &[]);
        assert_eq!(s.cp["101st"], 4, "{options}");
    }
    assert!(game_with("the-best-laid-plans", json!({ "command_los": "yes" })).is_err());
}

#[test]
fn positions_decision_15_marks_set_a_unit_s_stated_results() {
    let p = read_position("unit A/502 allied at 50.150\nmarks A/502 suppressed cohesion 2 lost 1")
        .unwrap();
    let m = &p.state.marks["A/502"];
    assert_eq!((m.suppressed, m.cohesion, m.lost), (true, 2, 1));
    // Two steps lost of two is no unit; a word the statement does not know is named.
    let Err(e) = read_position("marks A/502 lost 2") else {
        panic!("two steps lost of two is accepted");
    };
    assert!(e.to_string().contains("no unit left"), "{e}");
    assert!(read_position("marks A/502 shaken").is_err());
}

#[test]
fn positions_decision_21_eliminated_keeps_a_unit_s_steps() {
    let p = read_position("unit B/502 allied at 50.150\neliminated B/502").unwrap();
    assert!(!p.state.units.contains_key("B/502"));
    assert_eq!(p.state.eliminated.get("B/502"), Some(&2));
    let Err(e) = read_position("eliminated X/1") else {
        panic!("a unit outside the order of battle is accepted");
    };
    assert!(e.to_string().contains("not a unit of data/oob.txt"), "{e}");
}

/// Decision 50: an armor Unit of the order of battle is its own vehicle: it moves as its organic
/// transport says, with or without the word; another word is refused. Other Units choose.
#[test]
fn decision_50_an_armor_unit_of_the_order_of_battle_moves_as_its_transport_said_or_not() {
    use order::Transport;
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-guards");
    s.chit = None;
    unit_at(&mut s, "1/2ig", Side::Allied, "41.232");
    play(&mut s, "allied", "move 1/2ig 41.231 column", &[]);
    assert_eq!(s.vehicles.get("1/2ig"), Some(&Transport::Tracked));
    for word in ["wheeled", "mounted"] {
        let e = refused(
            &mut s,
            "allied",
            &format!("move 1/2ig 41.230 {word} column"),
            "moves",
        );
        assert!(e.message.contains("it moves tracked"), "{e}");
    }
    play(&mut s, "allied", "move 1/2ig 41.230 tracked column", &[]);
    // An infantry Unit with a truck walks unless it says 'mounted'.
    unit_at(&mut s, "A/3ig", Side::Allied, "41.232");
    play(&mut s, "allied", "move A/3ig 41.231", &[]);
    assert_eq!(s.vehicles.get("A/3ig"), None);
}
