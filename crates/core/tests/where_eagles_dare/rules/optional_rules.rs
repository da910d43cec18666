//! Optional Rules O1.0 to O4.0: covering fire, the alternate chit draw, the German Lost rule
//! and airborne tanks.

use despatch_core::engine::ruleset::{Rules, Viewer};
use despatch_core::rules::where_eagles_dare::state::Side;
use despatch_core::rules::where_eagles_dare::WhereEaglesDare;
use serde_json::json;

use super::support::*;

/// O3.0 (decision 47): a German unit more than twice its Leader's Command Range from him needs
/// a passed `tq <unit> lost` for each step that keeps or widens the distance; the engine
/// measures it from the kept positions.
#[test]
fn german_lost_o3_0_beyond_twice_the_range_each_step_away_needs_a_check() {
    let mut s = game_with("the-best-laid-plans", json!({"german_lost": true})).unwrap();
    german_impulse(&mut s);
    unit_at(&mut s, "ldr-59-a", Side::German, "30.100");
    unit_at(&mut s, "1/59-a", Side::German, "30.108");
    // 8 hexes from ldr-59-a, twice his range of 3 is 6.
    let e = refused(&mut s, "german", "move 1/59-a 30.109", "O3.0");
    assert!(e.message.contains("tq 1/59-a lost"), "{e}");
    ok(&mut s, "german", "move 1/59-a 30.107", &[]);
    no_opfire(&mut s);
    ok(&mut s, "german", "tq 1/59-a lost pass 0-5", &[3]);
    assert_eq!(s.lost(), None);
    let e = refused(&mut s, "german", "move 1/59-a 30.108 30.109", "O3.0");
    assert!(
        e.message.contains("30.109"),
        "one check covers one step: {e}"
    );
    ok(&mut s, "german", "move 1/59-a 30.108", &[]);
    no_opfire(&mut s);
    assert!(!s.lost_checked("1/59-a"), "the check is used by its move");
    refused(&mut s, "german", "move 1/59-a 30.109", "O3.0");
    // Within twice the range, a unit goes where it likes, even past it.
    unit_at(&mut s, "2/59-a", Side::German, "30.104");
    ok(&mut s, "german", "move 2/59-a 30.105 30.106 30.107", &[]);
    no_opfire(&mut s);
    // Without the option, nothing is measured.
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    unit_at(&mut s, "ldr-59-a", Side::German, "30.100");
    unit_at(&mut s, "1/59-a", Side::German, "30.108");
    ok(&mut s, "german", "move 1/59-a 30.109", &[]);
}

#[test]
fn optional_rules_o1_to_o4_as_options() {
    // O2.0: no Direct Command chit in the mug.
    let mut s = game_with("the-best-laid-plans", json!({"alternate_chits": true})).unwrap();
    ok(&mut s, "allied", "buy none", &[]);
    ok(&mut s, "german", "buy none", &[1, 1, 1]);
    assert!(
        !s.mug.iter().any(|c| c.starts_with("dc-"))
            && !s.chit.as_deref().unwrap().starts_with("dc-")
    );
    // O3.0: a German unit failing its lost check is moved by the Allied player.
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    refused(&mut s, "german", "tq G/1 lost pass 0-5", "O3.0");
    let mut s = game_with("the-best-laid-plans", json!({"german_lost": true})).unwrap();
    german_impulse(&mut s);
    ok(&mut s, "german", "move G/1 30.100", &[]);
    no_opfire(&mut s);
    ok(&mut s, "german", "tq G/1 lost pass 0-5", &[8]);
    assert_eq!(s.lost(), Some("G/1"));
    refused(&mut s, "german", "end", "sequence of play");
    ok(&mut s, "allied", "move G/1 30.101 30.102", &[]);
    assert_eq!((s.units["G/1"].hex, s.lost()), (hex("30.102"), None));
    // O4.0: one type of tank; the board says they land with Drop One.
    let e = game_with("the-best-laid-plans", json!({"airborne_tanks": "panther"})).unwrap_err();
    assert!(e.rule.contains("O4.0"), "{e:?}");
    let s = game_with("the-best-laid-plans", json!({"airborne_tanks": "locust"})).unwrap();
    let board = WhereEaglesDare.board_text(&s, &Viewer::Spectator).unwrap();
    assert!(
        board.contains("two locust companies land with Drop One"),
        "{board}"
    );
    // O1.0 is an option the rules list.
    assert!(WhereEaglesDare
        .info()
        .options
        .iter()
        .any(|o| o.name == "covering_fire"));
}
