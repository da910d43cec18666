//! The 1900 Turn: steps 6 to 9 of the sequence of play — chits bought with Dispatch Points,
//! the mug, the draw and the activation each chit gives its owner.

use despatch_core::engine::dice::hidden_stream;
use despatch_core::engine::ruleset::{Rules, Seat, SeatDef, Setup, Viewer};
use despatch_core::rules::where_eagles_dare::state::{Phase, Side};
use despatch_core::rules::where_eagles_dare::WhereEaglesDare;
use serde_json::json;

use super::support::*;

#[test]
fn chits_step_6_dp_buy_formation_chits_and_the_mug_holds_them_publicly() {
    let mut s = game("the-best-laid-plans");
    assert_eq!(s.phase, Phase::Buy { side: Side::Allied });
    assert_eq!((s.dp["101st"], s.dp["guards"], s.dp["erc"]), (4, 4, 3));
    let e = refused(&mut s, "allied", "buy f-501 f-506 f-327", "step 6");
    assert!(e.message.contains("101st has 4 Dispatch Points"), "{e}");
    refused(&mut s, "allied", "buy f-erc-a", "step 6");
    refused(&mut s, "allied", "buy div-101", "step 6");
    refused(&mut s, "allied", "buy f-999", "step 6");
    refused(&mut s, "allied", "buy f-501 f-501", "step 6");
    refused(&mut s, "german", "buy none", "sequence of play");
    ok(&mut s, "allied", "buy f-501", &[]);
    assert_eq!(s.dp["101st"], 2);
    assert_eq!(s.phase, Phase::Buy { side: Side::German });
    // The German's purchase fills the mug and draws the first chit: die 9 of 10.
    ok(&mut s, "german", "buy f-erc-a", &[9]);
    assert_eq!(s.dp["erc"], 1);
    assert_eq!(
        s.chit.as_deref(),
        Some("f-501"),
        "the 9th chit of the sorted mug"
    );
    assert_eq!(
        s.mug,
        [
            "dc-allied",
            "dc-german",
            "div-101",
            "div-43rd",
            "div-59th",
            "div-erc",
            "div-guards",
            "div-walther",
            "f-erc-a"
        ]
    );
    let view = WhereEaglesDare.view(&s, &Viewer::Seat(Seat::parse("german").unwrap()));
    assert_eq!(
        view["mug"].as_array().unwrap().len(),
        9,
        "the mug is public"
    );
}

#[test]
fn chits_a_chit_is_a_turn_for_its_owner_and_the_last_chit_opens_the_next_turn() {
    let mut s = game("the-best-laid-plans");
    ok(&mut s, "allied", "buy none", &[]);
    // 8 chits: die 6 draws div-erc, a German impulse; its CP and DP roll 1 and 10 (reads 0).
    ok(&mut s, "german", "buy none", &[6, 1, 10]);
    assert_eq!(
        (s.impulse, s.chit.as_deref()),
        (Side::German, Some("div-erc"))
    );
    assert_eq!((s.cp["erc"], s.dp["erc"]), (2 + 3, 3 + 2));
    refused(&mut s, "allied", "end", "sequence of play");
    // The German's end draws: die 1 of 7 is dc-allied, an Allied impulse, no roll.
    ok(&mut s, "german", "end", &[1]);
    assert_eq!(
        (s.impulse, s.chit.as_deref()),
        (Side::Allied, Some("dc-allied"))
    );
    let (day, time) = (s.day, s.time);
    let mut impulses = 2;
    while (s.day, s.time) == (day, time) {
        if s.status_window() {
            ok(&mut s, "german", "pass", &[]);
            continue;
        }
        let seat = s.impulse.name();
        order(&mut s, seat, "end", &[]).unwrap();
        impulses += 1;
    }
    assert_eq!(
        impulses, 8,
        "eight chits, the last set aside: seven impulses and the end"
    );
    assert!(s.held.is_some(), "the last chit opens the next turn");
    let held = s.held.clone();
    ok(&mut s, "allied", "buy none", &[]);
    ok(&mut s, "german", "buy none", &[]);
    assert_eq!(s.chit, held, "played first, with no draw");
    assert_eq!(s.mug.len(), 7, "the held chit is not in the mug again");
}

#[test]
fn chits_option_last_chit_held_off_plays_the_last_chit_in_its_turn() {
    let setup = Setup {
        game_id: "rules".into(),
        scenario: "the-best-laid-plans".into(),
        options: json!({ "last_chit_held": false }),
        seats: SeatDef::named_by_id(&["allied", "german"]).unwrap(),
    };
    let mut s = WhereEaglesDare
        .setup(&setup, &mut hidden_stream(&[7; 32], "rules", 0))
        .unwrap();
    s.phase = Phase::Activation;
    s.mug = vec!["dc-german".into()];
    s.impulse = Side::Allied;
    ok(&mut s, "allied", "end", &[]);
    assert_eq!(s.chit.as_deref(), Some("dc-german"), "drawn and played");
    ok(&mut s, "german", "end", &[]);
    assert_eq!((s.time, s.held.as_ref()), (4, None), "then the turn ends");
}

#[test]
fn command_and_dispatch_points_are_spent_from_the_chits_division() {
    let mut s = mug_of(&["div-101", "f-501"]);
    ok(&mut s, "allied", "end", &[2]);
    assert_eq!(s.chit.as_deref(), Some("f-501"));
    ok(&mut s, "allied", "spend 2 cp -- a second action", &[]);
    assert_eq!(s.cp["101st"], 0);
    let e = refused(
        &mut s,
        "allied",
        "spend 1 cp",
        "Command and Dispatch Points",
    );
    assert!(e.message.contains("has 0 Command Points"), "{e}");
    ok(&mut s, "allied", "spend 1 dp guards", &[]);
    assert_eq!(s.dp["guards"], 3);
    refused(
        &mut s,
        "allied",
        "spend 1 cp erc",
        "Command and Dispatch Points",
    );
}
