//! The worked examples of the For Honor and Glory rules text, reproduced with scripted dice
//! through the replay sandbox (`despatch replay`), and the line of sight figure of 8.2.

use despatch_core::engine::replay::{self, ReplayError, Transcript};
use despatch_core::engine::ruleset::{SeatDef, Setup};
use despatch_core::rules;
use despatch_core::rules::for_honor_and_glory::battle::Battle;
use despatch_core::rules::for_honor_and_glory::hex::Hex;
use despatch_core::rules::for_honor_and_glory::optional::Options;
use despatch_core::rules::for_honor_and_glory::{fire, los, scenario};
use serde_json::{json, Value};

fn setup(scenario: &str, options: Value) -> Setup {
    Setup {
        game_id: format!("example-{scenario}"),
        scenario: scenario.into(),
        options,
        seats: SeatDef::named_by_id(&["american", "british"]).unwrap(),
    }
}

fn run(scenario: &str, script: &str, dice: &[u32]) -> Result<Transcript, ReplayError> {
    replay::run(
        rules::find("for-honor-and-glory").unwrap(),
        setup(scenario, json!({})),
        script,
        dice.to_vec(),
    )
}

fn lines(t: &Transcript) -> Vec<String> {
    t.steps
        .iter()
        .flat_map(|s| s.lines.iter().map(|l| l.text.clone()))
        .collect()
}

fn has_line(t: &Transcript, needle: &str) -> bool {
    lines(t).iter().any(|l| l.contains(needle))
}

/// The MP of the unit named `name` in the final view, or `None` when it is off the map.
fn mp_of(t: &Transcript, name: &str) -> Option<u64> {
    t.view["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["name"] == name)
        .map(|u| u["mp"].as_u64().unwrap())
}

fn hex_of(t: &Transcript, name: &str) -> Option<String> {
    t.view["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["name"] == name)
        .map(|u| u["hex"].as_str().unwrap().to_owned())
}

#[test]
fn example_2_2_1_forest_fire_rolls_5_5_6_less_one_for_one_hit() {
    // AP die 1 (1 + 2 command), then the three fire dice of the example.
    let t = run(
        "example-forest-fire",
        "american: fire C4 at C3",
        &[1, 5, 5, 6],
    )
    .unwrap();
    assert!(
        has_line(
            &t,
            "3 dice, hit on 5+, -1 for forest in C3): 5, 5, 6 (modified 4, 4, 5) — 1 hit"
        ),
        "{:#?}",
        lines(&t)
    );
    assert_eq!(mp_of(&t, "Target in the forest"), Some(3));
    assert!(t.dice_left.is_empty());
}

#[test]
fn example_8_1_1_artillery_at_a_hill_scores_one_hit_and_in_the_open_three() {
    let t = run(
        "example-artillery-hill",
        "british: fire C3 at C5; fire G3 at G5",
        &[1, 5, 5, 6, 5, 5, 6],
    )
    .unwrap();
    assert!(has_line(&t, "in C3 fires at C5 (2 hexes, 3 dice, hit on 5+, -1 for hill in C5): 5, 5, 6 (modified 4, 4, 5) — 1 hit"), "{:#?}", lines(&t));
    assert!(
        has_line(
            &t,
            "in G3 fires at G5 (2 hexes, 3 dice, hit on 5+): 5, 5, 6 — 3 hits"
        ),
        "{:#?}",
        lines(&t)
    );
    assert_eq!(mp_of(&t, "Infantry on the hill"), Some(3));
    assert_eq!(mp_of(&t, "Infantry in the open"), Some(1));
}

#[test]
fn example_6_1_1_queenston_heights_american_rolls_3_for_5_ap() {
    // Five 1-AP actions are carried out; the sixth is handed back for want of AP (6.2.8).
    let order = "column K6; column K7; column K5; column K4; column K3; column K8";
    let t = run("queenston-heights", &format!("american: {order}"), &[3]).unwrap();
    assert!(
        has_line(
            &t,
            "american rolls 3 on the random action point chart: 2 + 3 command = 5 AP"
        ),
        "{:#?}",
        lines(&t)
    );
    let un = t.steps[0]
        .unexecuted
        .as_ref()
        .expect("the sixth action has no AP left");
    assert_eq!(un.rest, vec!["column K8".to_string()]);
    assert!(un.reason.contains("6.2.8"), "{}", un.reason);
}

/// Close combat against the 2 MP infantry on the hill (C4, alone; G4, with a leader): AP die 3
/// (2 + 2 = 4 AP), then each defender's morale die and three attack dice of 2 (no hits, no 1s).
fn close_combat_on_hill(alone: u32, with_leader: u32) -> Transcript {
    run(
        "example-close-combat-hill",
        "british: close-combat C3 C4; close-combat G3 G4",
        &[3, alone, 2, 2, 2, with_leader, 2, 2, 2],
    )
    .unwrap()
}

#[test]
fn example_8_3_4_morale_on_a_hill_holds_on_1_to_3_and_retreats_on_4_to_6() {
    for roll in 1..=6 {
        let t = close_combat_on_hill(roll, 1);
        let stays = hex_of(&t, "Without a leader").as_deref() == Some("C4");
        assert_eq!(stays, roll <= 3, "roll {roll}: {:#?}", lines(&t));
        assert!(
            has_line(&t, &format!("rolls {roll} against 3 (2 MP +1 hill)")),
            "{:#?}",
            lines(&t)
        );
    }
}

#[test]
fn example_8_3_4_morale_on_a_hill_with_a_leader_holds_on_1_to_4() {
    for roll in 1..=6 {
        let t = close_combat_on_hill(1, roll);
        let stays = hex_of(&t, "With a leader").as_deref() == Some("G4");
        assert_eq!(stays, roll <= 4, "roll {roll}: {:#?}", lines(&t));
        assert!(
            has_line(
                &t,
                &format!("rolls {roll} against 4 (2 MP +1 leader +1 hill)")
            ),
            "{:#?}",
            lines(&t)
        );
        // 8.3.2 The leader retreats with his unit.
        assert_eq!(hex_of(&t, "Leader"), hex_of(&t, "With a leader"));
    }
}

#[test]
fn example_3_4_1_elite_at_1_mp_rolls_for_each_further_hit() {
    // Artillery adjacent hits on 4-6: 4, 5, 6 are three hits. The first takes the elite from
    // 2 to 1 MP; it rolls 2 for the second (stays at 1 MP) and 5 for the third (eliminated).
    let t = run(
        "example-elite",
        "american: fire C4 at C3",
        &[1, 4, 5, 6, 2, 5],
    )
    .unwrap();
    assert!(has_line(&t, "4, 5, 6 — 3 hits"), "{:#?}", lines(&t));
    assert!(
        has_line(
            &t,
            "2 MP elite (1 MP) in C3 rolls 2 for its hit: it stays at 1 MP (3.4.1)"
        ),
        "{:#?}",
        lines(&t)
    );
    assert!(
        has_line(&t, "rolls 5 for its hit: the hit is applied (3.4.1)"),
        "{:#?}",
        lines(&t)
    );
    assert_eq!(mp_of(&t, "2 MP elite"), None);
    assert_eq!(t.view["vp"]["american"], 1);
}

#[test]
fn example_3_4_1_elite_survives_when_both_rolls_are_1_to_3() {
    let t = run(
        "example-elite",
        "american: fire C4 at C3",
        &[1, 4, 5, 6, 3, 1],
    )
    .unwrap();
    assert_eq!(mp_of(&t, "2 MP elite"), Some(1));
    assert!(t.dice_left.is_empty());
}

fn los_board() -> Battle {
    Battle::new(scenario::find("example-los").unwrap(), Options::default()).unwrap()
}

fn h(s: &str) -> Hex {
    Hex::parse(s).unwrap()
}

#[test]
fn figure_8_2_a_to_1_is_blocked_by_blocking_terrain_on_both_sides_of_a_hexside() {
    let b = los_board();
    let why = los::blocked(b.map(), &b, h("C5"), h("E5")).expect("blocked");
    assert!(why.contains("hexside of D4 and D5"), "{why}");
}

#[test]
fn figure_8_2_a_to_2_and_3_are_blocked_by_terrain_directly_on_the_line() {
    let b = los_board();
    let two = los::blocked(b.map(), &b, h("C5"), h("C3")).expect("blocked");
    assert!(two.contains("hill in C4"), "{two}");
    let three = los::blocked(b.map(), &b, h("C5"), h("E6")).expect("blocked");
    assert!(three.contains("forest in D5"), "{three}");
}

#[test]
fn figure_8_2_a_may_fire_at_4_with_nothing_in_the_way() {
    let b = los_board();
    assert_eq!(los::blocked(b.map(), &b, h("C5"), h("A5")), None);
    let a = b.at(h("C5")).next().unwrap();
    assert!(fire::check(b.map(), &b, a, h("A5"), false).is_ok());
}

#[test]
fn figure_8_2_b_may_fire_at_5_with_blocking_terrain_on_one_side_only() {
    let b = los_board();
    assert_eq!(los::blocked(b.map(), &b, h("C8"), h("E8")), None);
}

#[test]
fn figure_8_2_c_rockets_ignore_line_of_sight() {
    let b = los_board();
    assert!(los::blocked(b.map(), &b, h("H8"), h("E8")).is_some());
    let rocket = b.at(h("H8")).next().unwrap();
    assert!(fire::check(b.map(), &b, rocket, h("E8"), false).is_ok());
    let a = b.at(h("C5")).next().unwrap();
    let err = fire::check(b.map(), &b, a, h("E5"), false).unwrap_err();
    assert_eq!(err.rule, "8.2 Line of sight");
}

#[test]
fn figure_8_2_units_block_line_of_sight_and_adjacent_units_always_see() {
    let b = los_board();
    let why = los::blocked(b.map(), &b, h("C8"), h("C10")).expect("blocked by the unit in C9");
    assert!(why.contains("C9"), "{why}");
    // 8 in D4 is in forest, next to A: adjacent units may always fire.
    let a = b.at(h("C5")).next().unwrap();
    assert!(fire::check(b.map(), &b, a, h("D4"), false).is_ok());
}

#[test]
fn example_6_2_5_with_a_leader_clear_then_forest_for_2_ap() {
    // AP die 1: 1 + 2 = 3 AP; the move with the leader's extra hex costs 2.
    let t = run("example-turn", "american: move B9 B8 B7 +leader", &[1]).unwrap();
    assert!(
        has_line(
            &t,
            "moves B9-B8-B7 with Leader A, one hex more for the leader (2 AP)"
        ),
        "{:#?}",
        lines(&t)
    );
    assert_eq!(hex_of(&t, "Leader A").as_deref(), Some("B7"));
}

#[test]
fn example_6_2_5_forest_first_stops_the_unit() {
    let err = run("example-turn", "american: move E9 E8 E7 +leader", &[1]).unwrap_err();
    let ReplayError::Rule { error, .. } = err else {
        panic!("{err}")
    };
    assert_eq!(error.rule, "2.3.5 Forest");
}

#[test]
fn example_9_3_1_three_1s_make_the_leader_roll() {
    // Infantry adjacent hits on 5-6: 1, 1, 1 are no hits, but the leader rolls: 4, he lives.
    let t = run("example-turn", "american: fire H6 at H5", &[1, 1, 1, 1, 4]).unwrap();
    assert!(
        has_line(
            &t,
            "rolls 4 for the 1s rolled against him and survives (9.3.1)"
        ),
        "{:#?}",
        lines(&t)
    );
    // On a 1 he is eliminated and the British lose a command AP.
    let t = run("example-turn", "american: fire H6 at H5", &[1, 1, 1, 1, 1]).unwrap();
    assert_eq!(hex_of(&t, "Leader C"), None);
    assert_eq!(t.view["leaders_lost"]["british"], 1);
}

#[test]
fn example_8_3_3_close_combat_against_forest_hits_on_5_and_6() {
    // AP die 3 (4 AP); the defender holds (1); the dice 4, 5, 6 less 1 are 3, 4, 5: two hits.
    let t = run(
        "example-turn",
        "american: close-combat K6 K5",
        &[3, 1, 4, 5, 6],
    )
    .unwrap();
    assert!(
        has_line(&t, "4, 5, 6 (modified 3, 4, 5) — 2 hits"),
        "{:#?}",
        lines(&t)
    );
    assert_eq!(mp_of(&t, "Infantry in the forest"), Some(2));
}

#[test]
fn example_8_1_3_a_unit_reduced_to_2_mp_still_rolls_3_dice() {
    let t = run("example-turn", "american: fire N6 at N4", &[1, 6, 6, 5]).unwrap();
    assert!(
        has_line(&t, "(2 hexes, 3 dice, hit on 6+): 6, 6, 5 — 2 hits"),
        "{:#?}",
        lines(&t)
    );
}

#[test]
fn example_5_1_three_ap_fire_move_fire_in_any_order() {
    // 3 AP (die 1): fire with one unit, move another, fire with a third.
    let t = run(
        "example-turn",
        "american: fire H6 at H5; move B9 B8; fire N6 at N4",
        &[1, 2, 2, 2, 2, 2, 2],
    )
    .unwrap();
    assert!(t.steps[0].unexecuted.is_none());
    assert_eq!(hex_of(&t, "Infantry with a leader").as_deref(), Some("B8"));
}

fn hill_board(options: Options) -> Battle {
    Battle::new(scenario::find("example-hill-los").unwrap(), options).unwrap()
}

#[test]
fn s8_2_a_gun_on_a_hill_sees_over_lower_hexes_and_along_its_own_hilltop() {
    let b = hill_board(Options::default());
    // C2 (hill) to C6: the hill in C3 is the gun's own hilltop; the forest in C4 and the unit
    // in C5 are lower.
    assert_eq!(los::blocked(b.map(), &b, h("C2"), h("C6")), None);
    let gun = b.at(h("C2")).next().unwrap();
    assert!(fire::check(b.map(), &b, gun, h("C6"), false).is_ok());
    // Seen from below, the same line (units may fire at each other, 8.2).
    assert_eq!(los::blocked(b.map(), &b, h("C6"), h("C2")), None);
    // A unit on the hilltop itself still blocks.
    let mut b = hill_board(Options::default());
    let u = b.at(h("A1")).next().unwrap();
    b.place(u, h("C3"));
    let why = los::blocked(b.map(), &b, h("C2"), h("C6")).expect("blocked by the unit in C3");
    assert!(why.contains("C3"), "{why}");
}

#[test]
fn s8_2_a_hill_between_still_blocks_low_ground_and_other_hills() {
    let b = hill_board(Options::default());
    let why = los::blocked(b.map(), &b, h("E2"), h("E5")).expect("blocked by the knoll");
    assert!(why.contains("hill in E3"), "{why}");
    let why = los::blocked(b.map(), &b, h("G2"), h("G6")).expect("blocked by the far hill");
    assert!(why.contains("hill in G4"), "{why}");
}

#[test]
fn s8_2_the_option_flat_line_of_sight_leaves_elevation_out() {
    let mut options = Options::from_json(&json!({ "flat_line_of_sight": true })).unwrap();
    assert!(options.flat_line_of_sight);
    options.flat_line_of_sight = true;
    let b = hill_board(options);
    let why = los::blocked(b.map(), &b, h("C2"), h("C6")).expect("blocked");
    assert!(why.contains("hill in C3"), "{why}");
}
