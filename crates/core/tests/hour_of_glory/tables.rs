//! The results tables against the summary's printed tables, and the order language's
//! parse/describe round trip.

use despatch_core::engine::dice::hidden_stream;
use despatch_core::engine::ruleset::{Rules, Seat, SeatDef, Setup};
use despatch_core::rules::hour_of_glory::agents::{profiles, DefKind, Weapon};
use despatch_core::rules::hour_of_glory::skills::*;
use despatch_core::rules::hour_of_glory::state::State;
use despatch_core::rules::hour_of_glory::HourOfGlory;
use serde_json::json;

#[test]
fn fight_table_0_no_effect_1_light_2_severe_3_fatal() {
    assert_eq!(
        FIGHT_TABLE,
        [Wound::None, Wound::Light, Wound::Severe, Wound::Fatal]
    );
    assert_eq!(fight_result(5), Wound::Fatal, "3 or more passes is fatal");
}

#[test]
fn resist_effects_table_reduces_each_wound_by_one_level_per_pass() {
    use Wound::*;
    // Score 0: as normal.
    assert_eq!(
        [resist(Light, 0), resist(Severe, 0), resist(Fatal, 0)],
        [Light, Severe, Fatal]
    );
    // Score 1: Fatal to Severe; Severe to Light; Light to No Effect.
    assert_eq!(
        [resist(Light, 1), resist(Severe, 1), resist(Fatal, 1)],
        [None, Light, Severe]
    );
    // Score 2: Fatal to Light; Severe to No Effect; Light to No Effect.
    assert_eq!(
        [resist(Light, 2), resist(Severe, 2), resist(Fatal, 2)],
        [None, None, Light]
    );
    // Score 3: Fatal to No effect; Severe to No Effect; Light to No Effect.
    assert_eq!(
        [resist(Light, 3), resist(Severe, 3), resist(Fatal, 3)],
        [None, None, None]
    );
    assert_eq!(resist(Fatal, 4), None);
}

#[test]
fn evade_table_0_exposed_1_turn_ends_2_stand_down_move_or_act_3_stand_down_full_turn() {
    assert_eq!(
        EVADE_TABLE,
        [
            Evade::Exposed,
            Evade::TurnEnds,
            Evade::StandDownMoveOrAct,
            Evade::StandDownFull
        ]
    );
}

#[test]
fn react_table_0_too_slow_1_attack_2_attack_or_move_3_attack_and_move() {
    assert_eq!(
        REACT_TABLE,
        [
            React::TooSlow,
            React::AttackOnly,
            React::AttackOrMove,
            React::AttackAndMove
        ]
    );
}

#[test]
fn evade_and_react_roll_3d6_if_unmoved_and_d6_after_moving() {
    assert_eq!((evade_dice(false), evade_dice(true)), (3, 1));
}

#[test]
fn spend_time_base_times_and_dice_are_the_summarys() {
    // SNEAK, BREACH, SPY, CONCEAL: base 2 minutes, 2d6; kits roll 4; HIDE: 3 minutes, 3d6.
    assert_eq!((SPEND_TIME_BASE, SPEND_TIME_DICE, KIT_DICE), (2, 2, 4));
    assert_eq!((HIDE_BASE, HIDE_DICE), (3, 3));
    assert_eq!(ATTACK_3D6, 3, "SNEAK-ATTACK and COUP-DE-GRACE roll 3d6");
}

#[test]
fn defender_stats_are_the_summarys() {
    let c = profiles().defender(DefKind::Commander);
    let s = profiles().defender(DefKind::Sentry);
    let g = profiles().defender(DefKind::Guard);
    // Commander: Combat Proficient 5+, Survival Proficient 5+; Sentries and Guards: Combat
    // Proficient 5+, Survival Inept 6; all fight unarmed with 2d6.
    assert_eq!((c.combat.0, c.survival.0), (5, 5));
    assert_eq!((s.combat.0, s.survival.0), (5, 6));
    assert_eq!((g.combat.0, g.survival.0), (5, 6));
    assert_eq!((c.strength, s.strength, g.strength), (2, 2, 2));
}

#[test]
fn weapons_knives_add_a_die_in_a_fight_and_firearms_roll_their_dice() {
    assert!(!Weapon::Knife.is_firearm());
    assert_eq!(Weapon::Knife.shoot_dice(), 0);
    for w in [Weapon::Handgun, Weapon::Smg, Weapon::Rifle] {
        assert!(w.is_firearm() && w.shoot_dice() >= 4);
    }
}

fn state(seat_count: usize) -> State {
    let names = ["defender", "harris", "link", "volkov"];
    HourOfGlory
        .setup(
            &Setup {
                game_id: "orders".into(),
                scenario: "mission".into(),
                options: json!({}),
                seats: SeatDef::named_by_id(&names[..seat_count]).unwrap(),
            },
            &mut hidden_stream(&[1; 32], "orders", 0),
        )
        .unwrap()
}

#[test]
fn order_language_round_trips_through_describe_and_parse() {
    let s = state(4);
    let intruder = Seat::parse("harris").unwrap();
    let defender = Seat::parse("defender").unwrap();
    let intruder_orders = [
        "breach door-25 take-chance; move m23 m21 l20",
        "assault with handgun; move b14 b15; shoot b20 burst",
        "sneak spend-time; move m21 n20 o20 p20",
        "move q20; sneak-attack r20; conceal r20 take-chance",
        "spy spend-time; move h20",
        "open door-1; close door-1",
        "coup-de-grace r20",
        "fight r20",
        "shoot t20 u20 v20",
        "shoot t20 burst attack",
        "weapon smg",
        "hide",
        "recover assault",
        "recover raiding",
        "counterattack off; sacrifice on; pass",
    ];
    for text in intruder_orders {
        let c = HourOfGlory.parse(&s, &intruder, text).unwrap();
        let d = HourOfGlory.describe(&c);
        assert_eq!(
            HourOfGlory.parse(&s, &intruder, &d).unwrap(),
            c,
            "{text} → {d}"
        );
    }
    let defender_orders = [
        "commander open door-23; commander move w20 x20 y20 y19 y18; commander face north",
        "commander investigate q20",
        "commander alarm m23 l23",
        "commander alarm",
        "commander shoot q20; sentry a1 fight q20; sentry b2 shoot o8; guards chase link",
        "replace n23",
        "guards chase harris; guard g1 move l19 l18; guard g2 move m18",
        "counterattack on; pass",
        "alert-side right",
        "alert-side left; counterattack off; pass",
    ];
    for text in defender_orders {
        let c = HourOfGlory.parse(&s, &defender, text).unwrap();
        let d = HourOfGlory.describe(&c);
        assert_eq!(
            HourOfGlory.parse(&s, &defender, &d).unwrap(),
            c,
            "{text} → {d}"
        );
    }
}

#[test]
fn order_language_describes_in_its_canonical_form() {
    let s = state(2);
    let seat = Seat::parse("harris").unwrap();
    let c = HourOfGlory
        .parse(&s, &seat, "Breach door-24\nmove j20, i20  h20 g20")
        .unwrap();
    assert_eq!(
        HourOfGlory.describe(&c),
        "breach door-24 take-chance; move j20 i20 h20 g20"
    );
}

#[test]
fn smg_burst_policy_is_written_after_burst_and_burst_range_is_the_default() {
    let s = state(2);
    let seat = Seat::parse("link").unwrap();
    let plain = HourOfGlory.parse(&s, &seat, "shoot t20 burst").unwrap();
    let range = HourOfGlory
        .parse(&s, &seat, "shoot t20 burst range")
        .unwrap();
    assert_eq!(plain, range);
    assert_eq!(HourOfGlory.describe(&range), "shoot t20 burst");
    let attack = HourOfGlory
        .parse(&s, &seat, "Shoot t20 Burst Attack")
        .unwrap();
    assert_eq!(HourOfGlory.describe(&attack), "shoot t20 burst attack");
    let e = HourOfGlory
        .parse(&s, &seat, "shoot t20 burst lowest")
        .unwrap_err();
    assert!(e.message.contains("'burst lowest'"), "{e}");
    let e = HourOfGlory.parse(&s, &seat, "shoot burst").unwrap_err();
    assert!(e.message.contains("write shoot <square>"), "{e}");
}

#[test]
fn order_language_errors_name_the_square_or_clause_that_failed() {
    let s = state(2);
    let seat = Seat::parse("harris").unwrap();
    let e = HourOfGlory.parse(&s, &seat, "move m21 zz9").unwrap_err();
    assert!(e.message.contains("'zz9' is not a square"), "{e}");
    let e = HourOfGlory.parse(&s, &seat, "breach door-99").unwrap_err();
    assert!(e.message.contains("door-99"), "{e}");
    let e = HourOfGlory.parse(&s, &seat, "dance").unwrap_err();
    assert!(e.message.contains("'dance'"), "{e}");
    let e = HourOfGlory.parse(&s, &seat, "").unwrap_err();
    assert!(e.message.contains("empty order"), "{e}");
    let defender = Seat::parse("defender").unwrap();
    let e = HourOfGlory
        .parse(&s, &defender, "alert-side up")
        .unwrap_err();
    assert!(
        e.message.contains("alert-side left or alert-side right"),
        "{e}"
    );
}

#[test]
fn a_command_in_json_is_its_order_text_under_the_side_that_gives_it() {
    use despatch_core::rules::hour_of_glory::order::Command;
    let s = state(2);
    let harris = Seat::parse("harris").unwrap();
    let defender = Seat::parse("defender").unwrap();
    let c = HourOfGlory
        .parse(&s, &harris, "Sneak spend-time; move m21 n20")
        .unwrap();
    let j = serde_json::to_value(&c).unwrap();
    assert_eq!(j, json!({ "intruder": "sneak spend-time; move m21 n20" }));
    assert_eq!(serde_json::from_value::<Command>(j).unwrap(), c);
    let c = HourOfGlory
        .parse(&s, &defender, "counterattack off; commander face north")
        .unwrap();
    let j = serde_json::to_value(&c).unwrap();
    assert_eq!(
        j,
        json!({ "defender": "counterattack off; commander face north" })
    );
    assert_eq!(serde_json::from_value::<Command>(j).unwrap(), c);
    // A bad order in JSON is refused with the order language's own message.
    let e = serde_json::from_value::<Command>(json!({ "intruder": "move m21 zz9" })).unwrap_err();
    assert!(e.to_string().contains("'zz9' is not a square"), "{e}");
    let e = serde_json::from_value::<Command>(json!({ "attacker": "pass" })).unwrap_err();
    assert!(e.to_string().contains("intruder"), "{e}");
}

#[test]
fn order_language_names_a_target_for_each_guard() {
    // Summary, "Guards": "a Guard must move towards one of them of your choice".
    let s = state(3);
    let defender = Seat::parse("defender").unwrap();
    let text = "guards chase harris; guard g2 chase volkov; guard g2 move m18 m17";
    let c = HourOfGlory
        .parse(
            &s,
            &defender,
            "Guards chase Harris\nguard g2 chase volkov; guard g2 move m18 m17",
        )
        .unwrap();
    assert_eq!(HourOfGlory.describe(&c), text);
    assert_eq!(HourOfGlory.parse(&s, &defender, text).unwrap(), c);
    let e = HourOfGlory
        .parse(&s, &defender, "guard g2 chase smith")
        .unwrap_err();
    assert!(e.message.contains("'smith' is not an Intruder"), "{e}");
}
