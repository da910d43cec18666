//! The For Honor and Glory order language: parse and describe round-trip; errors name the
//! hex and the rule; prompts list what a seat may do, in the order language, and each listed
//! action is accepted.

use despatch_core::engine::dice::hidden_stream;
use despatch_core::engine::replay;
use despatch_core::engine::ruleset::{RuleError, Seat, SeatDef, Setup};
use despatch_core::rules;
use despatch_core::rules::for_honor_and_glory::order::{self, describe, parse};
use serde_json::json;

fn setup(scenario: &str) -> Setup {
    Setup {
        game_id: format!("orders-{scenario}"),
        scenario: scenario.into(),
        options: json!({ "optional_rules": "all" }),
        seats: SeatDef::named_by_id(&["american", "british"]).unwrap(),
    }
}

const ORDERS: [&str; 16] = [
    "pass",
    "move B2 B3 B4",
    "move B2 B3 B4 +leader",
    "move B2/leader B3 C3 D4",
    "move K7/gun J7",
    "fire A3 at C5",
    "fire A3 at A4 advance",
    "move-fire H9 H8 H7 at H6",
    "fire-move G6 at G5 then G7 G8",
    "move-fire H9 H8 H7 at H6 +leader",
    "fire-move G6 at G5 then G7 G8 +leader",
    "close-combat D4 D5 advance",
    "rally E1; column E2; line E3; dragoons evade; dragoons stand",
    "fire A3 at C5; move B2 B3 B4; close-combat D4 D5; rally E1",
    "tied hits to guns; retreat towards G3; leaders retreat towards H4",
    "tied hits to infantry; retreat towards edge; leaders retreat towards units",
];

#[test]
fn orders_round_trip_through_parse_and_describe() {
    for text in ORDERS {
        let order = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(describe(&order), text);
        assert_eq!(parse(&describe(&order)).unwrap(), order);
        // And through JSON, as the log keeps it.
        let json = serde_json::to_value(&order).unwrap();
        assert_eq!(serde_json::from_value::<order::Order>(json).unwrap(), order);
    }
}

#[test]
fn orders_accept_new_lines_case_and_spacing() {
    let a = parse("Fire a3 AT c5\n  move b2 b3 ").unwrap_or_else(|e| panic!("{e}"));
    let b = parse("fire A3 at C5; move B2 B3").unwrap();
    assert_eq!(a, b);
    assert_eq!(describe(&a), "fire A3 at C5; move B2 B3");
    // Every white space splits words, ASCII or not (a tab, a vertical tab, a no-break space).
    for spaced in ["move\tB2\u{0b}B3", "move\u{a0}B2  B3", " move B2\r\x0cB3 "] {
        assert_eq!(parse(spaced), parse("move B2 B3"), "{spaced:?}");
    }
}

#[test]
fn language_errors_name_the_clause_and_what_to_write() {
    for (text, needle) in [
        ("", "empty order"),
        ("shoot A3 at C5", "not an action"),
        ("fire A3 C5", "fire A3 at C5"),
        ("move B2", "give the hexes"),
        ("fire A3 at 5C", "5C"),
        ("move B2/horse B3", "/gun or /leader"),
        ("close-combat D4 D5 charge", "advance"),
        ("pass; fire A3 at C5", "stands alone"),
        ("tied hits to cavalry", "tied hits to guns"),
        ("retreat to G3", "retreat towards G3"),
        ("retreat towards 3G", "3G"),
        ("leaders retreat towards", "leaders retreat towards G3"),
        (
            "leaders retreat towards G3 H4",
            "leaders retreat towards G3",
        ),
    ] {
        let e = parse(text).unwrap_err();
        assert_eq!(e.rule, "order language", "{text}");
        assert!(e.message.contains(needle), "{text}: {e}");
    }
}

/// The rules' error for an order refused in the scenario's first position.
fn refusal(scenario: &str, script: &str) -> RuleError {
    let ruleset = rules::find("for-honor-and-glory").unwrap();
    match replay::run(ruleset, setup(scenario), script, vec![]) {
        Err(replay::ReplayError::Rule { error, .. }) => error,
        other => panic!("{script}: {other:?}"),
    }
}

#[test]
fn rule_errors_name_the_hex_and_the_rule() {
    for (text, rule, hex) in [
        ("move K6 J6 I6", "7.1 Movement", "K6"),
        ("fire K6 at A1", "8.1 Fire combat", "A1"),
        ("move A1 A2", "5.1 Unit actions", "A1"),
        ("close-combat K6 G3", "8.3.1 Close combat", "G3"),
    ] {
        let error = refusal("queenston-heights", &format!("american: {text}"));
        assert_eq!(error.rule, rule, "{text}: {error}");
        assert!(error.message.contains(hex), "{text}: {error}");
        assert!(
            error.message.contains(text),
            "the error quotes the action: {error}"
        );
    }
}

#[test]
fn standing_orders_naming_a_hex_off_the_map_are_refused_with_the_rule_and_the_hex() {
    for (text, rule, hex) in [
        ("retreat towards Z5", "8.4.1 Retreat", "Z5"),
        ("leaders retreat towards C40", "8.4.5 Leader retreat", "C40"),
    ] {
        let error = refusal("chippawa", &format!("british: {text}"));
        assert_eq!(error.rule, rule, "{text}: {error}");
        assert!(error.message.contains(hex), "{text}: {error}");
        assert!(error.message.contains("off the map"), "{text}: {error}");
    }
}

#[test]
fn the_view_shows_each_sides_standing_orders_in_the_order_language() {
    let ruleset = rules::find("for-honor-and-glory").unwrap();
    let t = replay::run(
        ruleset,
        setup("chippawa"),
        "british: tied hits to guns; retreat towards C5; dragoons stand",
        vec![3],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        t.view["standing_orders"],
        json!({
            "american": ["tied hits to infantry", "retreat towards edge", "leaders retreat towards units", "dragoons evade"],
            "british": ["tied hits to guns", "retreat towards C5", "leaders retreat towards units", "dragoons stand"],
        })
    );
    // Standing orders cost no AP: an order of nothing else is never cut short.
    assert!(t.steps[0].unexecuted.is_none());
}

#[test]
fn ruleset_parse_and_describe_agree() {
    let ruleset = rules::find("for-honor-and-glory").unwrap();
    let s = setup("chippawa");
    let state = ruleset
        .setup(&s, &mut hidden_stream(&[0; 32], &s.game_id, 0))
        .unwrap();
    let seat = Seat::parse("british").unwrap();
    for text in ORDERS {
        let json = ruleset.parse(&state, &seat, text).unwrap();
        assert_eq!(ruleset.describe(&json).unwrap(), text);
    }
}

#[test]
fn prompts_list_legal_actions_in_the_order_language() {
    let ruleset = rules::find("for-honor-and-glory").unwrap();
    for scenario in ["queenston-heights", "chippawa", "lundys-lane"] {
        let s = setup(scenario);
        let state = ruleset
            .setup(&s, &mut hidden_stream(&[0; 32], &s.game_id, 0))
            .unwrap();
        let prompts = ruleset.prompts(&state);
        assert_eq!(prompts.len(), 1);
        let p = &prompts[0];
        assert!(p.options.len() > 5, "{scenario}: {:?}", p.options);
        assert_eq!(p.options.last().map(String::as_str), Some("pass"));
        for option in &p.options {
            let script = format!("{}: {option}", p.seat);
            // Plenty of dice: a 5 for the AP roll and 4s after.
            let mut dice = vec![5];
            dice.extend(std::iter::repeat_n(4, 40));
            replay::run(ruleset.clone(), s.clone(), &script, dice)
                .unwrap_or_else(|e| panic!("{scenario}: '{option}': {e}"));
        }
    }
}

#[test]
fn units_read_back_from_the_states_json() {
    use despatch_core::rules::for_honor_and_glory::hex::Hex;
    use despatch_core::rules::for_honor_and_glory::units::{Kind, Side, Unit};
    let mut u = Unit::new(Side::BRITISH, Kind::Elite, Hex::parse("C5").unwrap(), 3);
    u.start_mp = 4;
    u.column = true;
    u.fired_on = true;
    let json = serde_json::to_value(u).unwrap();
    assert_eq!(json, json!("british elite C5 3/4 column fired-on"));
    assert_eq!(serde_json::from_value::<Unit>(json).unwrap(), u);
}

/// In JSON an order is its order text (ruleset version 2); version 1's `{"actions": [...]}`
/// still reads to the same order.
#[test]
fn a_command_in_json_is_its_order_text() {
    let read = |v: &serde_json::Value| {
        serde_json::from_value::<order::Order>(v.clone()).map_err(|e| e.to_string())
    };
    for text in ORDERS {
        let order = parse(text).unwrap();
        let json = serde_json::to_value(&order).unwrap();
        assert_eq!(json, json!(text));
        assert_eq!(read(&json), Ok(order.clone()));
        let actions: Vec<String> = order.actions.iter().map(order::describe_action).collect();
        let v1 = json!({ "actions": actions, "note": "an unknown key is ignored" });
        assert_eq!(read(&v1), Ok(order), "{v1}");
    }
    // The same words for a bad order, whichever way it is sent.
    for bad in [json!("fire A3 at"), json!({ "actions": ["fire A3 at"] })] {
        let e = read(&bad).unwrap_err();
        assert!(e.contains("'fire A3 at': name the target hex"), "{e}");
    }
    let e = read(&json!({ "moves": [] })).unwrap_err();
    assert!(e.contains("missing field `actions`"), "{e}");
    for bad in [json!(7), json!(null), json!(["fire A3 at C5"]), json!("")] {
        let e = read(&bad).unwrap_err();
        assert!(e.contains("order"), "{bad}: {e}");
    }
}

/// Hexes are read byte by byte in their plain forms; every other spelling reads as before.
#[test]
fn hexes_read_alike_in_every_spelling() {
    use despatch_core::rules::for_honor_and_glory::hex::Hex;
    assert_eq!(Hex::parse("C5"), Ok(Hex::new(2, 4)));
    assert_eq!(Hex::parse("c15"), Ok(Hex::new(2, 14)));
    assert_eq!(Hex::parse("Z99"), Ok(Hex::new(25, 98)));
    assert_eq!(Hex::parse("C05"), Hex::parse("C5"));
    assert_eq!(Hex::parse(" C5 "), Hex::parse("C5"));
    for bad in ["C0", "C100", "5C", "C", "", "C5x", "É5"] {
        let e = Hex::parse(bad).unwrap_err();
        assert!(e.contains("is not a hex"), "{bad}: {e}");
    }
}

/// Plays `text` for `side` on `state` with scripted dice, through the ruleset.
fn apply(
    state: &mut despatch_core::rules::for_honor_and_glory::State,
    side: &str,
    text: &str,
    dice: &[u32],
) {
    use despatch_core::engine::ruleset::{Ctx, DiceSource, Rules};
    use despatch_core::rules::for_honor_and_glory::ForHonorAndGlory;
    let mut dice: std::collections::VecDeque<u32> = dice.iter().copied().collect();
    let mut ctx = Ctx::new(DiceSource::Scripted(&mut dice), None);
    let seat = Seat::parse(side).unwrap();
    ForHonorAndGlory
        .apply(state, &seat, &parse(text).unwrap(), &mut ctx)
        .unwrap();
}

#[test]
fn s6_2_8_a_turn_handed_back_prompts_for_the_rest_with_the_ap_left() {
    use despatch_core::engine::ruleset::Rules;
    use despatch_core::rules::for_honor_and_glory::ForHonorAndGlory;
    let s = Setup {
        options: json!({}),
        ..setup("drill")
    };
    let mut state = ForHonorAndGlory
        .setup(&s, &mut hidden_stream(&[0; 32], &s.game_id, 0))
        .unwrap();
    // AP die 1: 3 AP; two formation changes leave 1 and the move-and-fire (2 AP) is refused.
    apply(
        &mut state,
        "american",
        "column A11; column B11; move-fire H11 H10 H9 at H8",
        &[1],
    );
    let p = &ForHonorAndGlory.prompts(&state)[0];
    assert_eq!(p.seat.as_str(), "american");
    assert!(
        p.decision.contains("1 AP left of your turn"),
        "{}",
        p.decision
    );
    // Only what 1 AP pays for, and not the units already activated.
    for option in &p.options {
        assert!(
            !option.starts_with("move-fire") && !option.starts_with("close-combat"),
            "{option}"
        );
        assert!(
            !option.contains("A11") && !option.contains("B11"),
            "{option}"
        );
    }
    assert!(
        p.options.iter().any(|o| o == "column C11"),
        "{:?}",
        p.options
    );

    // The next turn starts with every unit fresh: A11, in column since its last turn, may
    // change back to line.
    apply(&mut state, "american", "pass", &[]);
    apply(&mut state, "british", "pass", &[]);
    let p = &ForHonorAndGlory.prompts(&state)[0];
    assert!(p.decision.contains("the AP roll"), "{}", p.decision);
    assert!(p.options.iter().any(|o| o == "line A11"), "{:?}", p.options);
}
