//! Acceptance: the manual's "Starting play" — three rounds with two Intruders — reproduced
//! through the same replay sandbox as `despatch replay`, with the dice the example implies.

use despatch_core::engine::replay;
use despatch_core::engine::ruleset::{SeatDef, Setup};
use despatch_core::rules;
use serde_json::{json, Value};

fn setup() -> Setup {
    Setup {
        game_id: "starting-play".into(),
        scenario: "mission".into(),
        options: json!({}),
        seats: SeatDef::named_by_id(&["defender", "harris", "link"]).unwrap(),
    }
}

fn dice() -> Vec<u32> {
    include_str!("../data/hour_of_glory_starting_play.dice")
        .split_whitespace()
        .map(|d| d.parse().unwrap())
        .collect()
}

fn intruder<'v>(view: &'v Value, agent: &str) -> &'v Value {
    view["intruders"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["agent"] == agent)
        .unwrap()
}

#[test]
fn the_manuals_starting_play_rounds_replay_with_the_dice_they_imply() {
    let t = replay::run(
        rules::find("hour-of-glory").unwrap(),
        setup(),
        include_str!("../data/hour_of_glory_starting_play.txt"),
        dice(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let text = replay::render(&t);
    assert!(
        t.dice_left.is_empty(),
        "every scripted die is used:\n{text}"
    );

    // First round: Link's sneaking took 2 minutes, take time 1: 57 at the second round.
    let link_r1 = &t.steps[1];
    assert_eq!(link_r1.dice_used, vec![5, 6, 1, 5, 2, 6], "{text}");
    // Second round: Harris explores room 2; Link eliminates Sentry A; the body leaves an alert
    // marker; the Commander's watch zone now covers Link.
    let harris_r2 = &t.steps[3];
    assert!(
        harris_r2
            .lines
            .iter()
            .any(|l| l.text.contains("enters room 2")),
        "{text}"
    );
    // Third round: Harris spies for 1 minute and takes the card; Link fails to evade.
    let link_r3 = &t.steps[7];
    assert!(link_r3.unexecuted.is_some(), "Link's turn ends: {text}");
    assert_eq!(
        link_r3.unexecuted.as_ref().unwrap().rest,
        vec!["breach door-22 take-chance"]
    );

    let v = &t.view;
    assert_eq!(
        v["minutes"], 55,
        "60 - 2 (sneaking) - 1 - 1 (take time) - 1 (spying): {text}"
    );
    assert_eq!(v["round"], 3);
    let harris = intruder(v, "harris");
    assert_eq!(harris["square"], "h20");
    assert_eq!(harris["intel"].as_array().unwrap().len(), 1);
    let link = intruder(v, "link");
    assert_eq!(link["square"], "q20");
    assert_eq!(link["mode"], "assault", "Link was exposed: {text}");
    assert_eq!(
        v["asi_markers"], 2,
        "the first marker and the one for exposing Link"
    );
    let rooms = v["rooms"].as_array().unwrap();
    assert_eq!(rooms[1]["explored"], true);
    assert_eq!(rooms[1]["card"], Value::Null, "Harris took room 2's card");
    let markers = v["markers"].as_array().unwrap();
    assert!(markers
        .iter()
        .any(|m| m["kind"] == "alert" && m["sq"] == "r20"));
    let commander = &v["defenders"][0];
    assert_eq!(commander["square"], "w20");
    assert_eq!(commander["facing"], "west");
    assert!(
        !v["defenders"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["label"] == "a1"),
        "Sentry A is dead and off the board"
    );
}
