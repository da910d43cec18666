//! One test per rule of Hour of Glory, named after the rule (summary section in the name where
//! it helps). Each builds a mission, sets the pieces where the rule bites, and plays orders
//! through the ruleset with scripted dice.

use std::collections::VecDeque;

use crate::scripted;
use despatch_core::engine::dice::hidden_stream;
use despatch_core::engine::ruleset::{RuleError, Rules, Seat, SeatDef, Setup, Viewer};
use despatch_core::rules::hour_of_glory::agents::{DefKind, Equipment, Mode, Weapon};
use despatch_core::rules::hour_of_glory::board::{Dir, DoorId, Sq};
use despatch_core::rules::hour_of_glory::intel::{self, Card, Colour, Country};
use despatch_core::rules::hour_of_glory::state::{
    CoveringFire, Defender, Marker, MarkerKind, State, Status, Turn,
};
use despatch_core::rules::hour_of_glory::{combat, senses, HourOfGlory};
use serde_json::json;

fn sq(t: &str) -> Sq {
    Sq::parse(t).unwrap_or_else(|| panic!("{t} is a square"))
}

fn door(t: &str) -> DoorId {
    DoorId::parse(t).unwrap()
}

fn mission(intruders: usize) -> State {
    let names = ["defender", "harris", "link", "volkov"];
    let setup = Setup {
        game_id: "rules".into(),
        scenario: "mission".into(),
        options: json!({}),
        seats: SeatDef::named_by_id(&names[..=intruders]).unwrap(),
    };
    HourOfGlory
        .setup(&setup, &mut hidden_stream(&[7; 32], "rules", 0))
        .unwrap()
}

/// The mission with `intruders` Intruders, set from a position (docs/rules/hour-of-glory.md,
/// "Positions (despatch replay)"): the way to start a rule where the pieces are far from their
/// set-up.
fn from_position(intruders: usize, text: &str) -> State {
    let names = ["defender", "harris", "link", "volkov"];
    let setup = Setup {
        game_id: "rules".into(),
        scenario: "mission".into(),
        options: json!({}),
        seats: SeatDef::named_by_id(&names[..=intruders]).unwrap(),
    };
    HourOfGlory
        .position(&setup, text, &mut hidden_stream(&[7; 32], "rules", 0))
        .unwrap_or_else(|e| panic!("{e}"))
        .state
}

/// Puts Intruder `i` standing at `at`, inside the stronghold, and gives him the turn.
fn at(s: &mut State, i: usize, at: &str, mode: Mode) {
    let a = &mut s.intruders[i];
    a.sq = Some(sq(at));
    a.inside = true;
    a.mode = mode;
    a.status = Status::Standing;
    s.turn = Turn::Intruder(i);
}

fn commander_at(s: &mut State, at: &str, facing: Dir) {
    let c = &mut s.defenders[0];
    c.sq = Some(sq(at));
    c.facing = facing;
}

fn defender(s: &State, label: &str) -> usize {
    s.defenders.iter().position(|d| d.label == label).unwrap()
}

/// Plays an order with scripted dice; returns how many dice it drew.
fn order(s: &mut State, seat: &str, text: &str, dice: &[u32]) -> Result<usize, RuleError> {
    scripted::order(&HourOfGlory, s, seat, text, dice)
}

fn red(country: Country) -> Card {
    Card::Intel {
        colour: Colour::Red,
        country,
    }
}

#[test]
fn movement_raiders_move_four_squares_assaulters_six() {
    let mut s = mission(1);
    at(&mut s, 0, "b10", Mode::Raiding);
    let e = order(&mut s, "harris", "move b11 b12 b13 b14 b15", &[]).unwrap_err();
    assert!(e.message.contains("at most 4"), "{e}");
    order(&mut s, "harris", "move b11 b12 b13 b14", &[]).unwrap();
    assert_eq!(s.intruders[0].sq, Some(sq("b14")));
    at(&mut s, 0, "b10", Mode::Assault);
    order(&mut s, "harris", "move b11 b12 b13 b14 b15 b16", &[]).unwrap();
    assert_eq!(s.intruders[0].sq, Some(sq("b16")));
}

/// Issue 38: the log tells every move, square by square, and calls seats by their roles — the
/// Intruder's walk (on her own page too: nothing of it is hidden) and the Commander's after his
/// movement roll.
#[test]
fn movement_the_log_tells_each_move_square_by_square_and_names_roles() {
    let mut s = mission(1);
    at(&mut s, 0, "b10", Mode::Raiding);
    let lines = scripted::order_lines(&HourOfGlory, &mut s, "harris", "move b11 b12", &[]).unwrap();
    let walk = format!("Harris moves {}-{}-{}", sq("b10"), sq("b11"), sq("b12"));
    assert!(lines.contains(&walk), "{lines:?}");

    let mut s = mission(1);
    commander_at(&mut s, "w20", Dir::West);
    s.turn = Turn::Defender;
    let lines = scripted::order_lines(
        &HourOfGlory,
        &mut s,
        "defender",
        "commander move x20 y20",
        &[3],
    )
    .unwrap();
    let roll = lines
        .iter()
        .position(|l| l == "The Commander rolls 3 for movement");
    let moved = format!(
        "The Commander moves {}-{}-{}",
        sq("w20"),
        sq("x20"),
        sq("y20")
    );
    let walk = lines.iter().position(|l| *l == moved);
    assert!(roll.is_some() && walk > roll, "{lines:?}");

    // A seat is its role: the id its player chose is not what the log says.
    assert_eq!(s.role(&Seat::parse("defender").unwrap()), "the Defender");
    assert_eq!(s.role(&Seat::parse("harris").unwrap()), "Intruder Harris");
    s.turn = Turn::Defender;
    let e = order(&mut s, "harris", "pass", &[]).unwrap_err();
    assert!(e.message.contains("not Intruder Harris's turn"), "{e}");
}

#[test]
fn movement_may_not_cut_diagonally_across_corners() {
    let mut s = mission(1);
    at(&mut s, 0, "b9", Mode::Raiding);
    let e = order(&mut s, "harris", "move c8", &[]).unwrap_err();
    assert!(e.message.contains("not adjacent"), "{e}");
    order(&mut s, "harris", "move b8 c8", &[]).unwrap();
}

#[test]
fn doors_a_closed_door_is_locked_and_breach_take_a_chance_opens_it_on_a_pass() {
    let mut s = mission(1);
    at(&mut s, 0, "b17", Mode::Raiding);
    let e = order(&mut s, "harris", "move d17", &[]).unwrap_err();
    assert_eq!(e.rule, "Doors");
    assert_eq!(
        order(&mut s, "harris", "breach door-19 take-chance", &[4]).unwrap(),
        1
    );
    assert!(s.door_open(door("door-19")));
}

#[test]
fn breach_failure_leaves_the_door_closed() {
    let mut s = mission(1);
    at(&mut s, 0, "b17", Mode::Raiding);
    order(&mut s, "harris", "breach door-19 take-chance", &[3]).unwrap();
    assert!(!s.door_open(door("door-19")));
}

#[test]
fn spend_time_each_pass_takes_a_minute_off_the_base_time_then_scores_1() {
    let mut s = mission(1);
    at(&mut s, 0, "b17", Mode::Raiding);
    s.intruders[0].equipment.clear();
    assert_eq!(
        order(&mut s, "harris", "breach door-19 spend-time", &[4, 1]).unwrap(),
        2
    );
    assert!(s.door_open(door("door-19")));
    assert_eq!(s.minutes, 59, "base 2 minutes, one pass");
}

#[test]
fn covert_entry_kit_rolls_four_dice_when_breaching_by_spending_time() {
    let mut s = mission(1);
    at(&mut s, 0, "b17", Mode::Raiding);
    assert!(s.intruders[0]
        .equipment
        .contains(&Equipment::CovertEntryKit));
    assert_eq!(
        order(&mut s, "harris", "breach door-19 spend-time", &[4, 5, 1, 1]).unwrap(),
        4
    );
    assert_eq!(s.minutes, 60, "two passes take both minutes off");
}

#[test]
fn assaulters_may_not_spend_time() {
    let mut s = mission(1);
    at(&mut s, 0, "b17", Mode::Assault);
    let e = order(&mut s, "harris", "breach door-19 spend-time", &[]).unwrap_err();
    assert!(e.message.contains("only raiders"), "{e}");
}

#[test]
fn the_first_intruder_action_is_to_breach_the_entrance() {
    let mut s = mission(1);
    let e = order(&mut s, "harris", "move m23 m21", &[]).unwrap_err();
    assert_eq!(
        e.rule, "Doors",
        "the entrance is closed until breached: {e}"
    );
    order(
        &mut s,
        "harris",
        "breach door-25 take-chance; move m23 m21",
        &[6],
    )
    .unwrap();
    assert_eq!(s.intruders[0].sq, Some(sq("m21")));
}

#[test]
fn an_order_refused_by_the_rules_draws_no_die() {
    let mut s = mission(1);
    at(&mut s, 0, "b17", Mode::Raiding);
    let before = s.clone();
    let e = order(&mut s, "harris", "breach door-19 take-chance; spy", &[6]).unwrap_err();
    assert_eq!(e.rule, "Spy");
    assert_eq!(s, before, "a refused order changes nothing");
}

#[test]
fn escape_moving_out_through_the_entrance_removes_the_intruder_and_scores_his_cards() {
    let mut s = mission(1);
    s.doors_open[door("door-25").index()] = true;
    at(&mut s, 0, "m21", Mode::Raiding);
    s.intruders[0].intel = vec![red(Country::Gb), red(Country::Usa), red(Country::Ussr)];
    order(&mut s, "harris", "move m23", &[]).unwrap();
    assert_eq!(s.intruders[0].status, Status::Escaped);
    let end = s.ended.as_ref().expect("the last Intruder left");
    assert!(end.intruders_win);
    assert_eq!(end.points, 2);
    assert_eq!(end.defender_points, 0);
}

#[test]
fn re_entering_the_entry_zone_is_escaping() {
    let mut s = mission(2);
    s.doors_open[door("door-25").index()] = true;
    at(&mut s, 0, "m21", Mode::Raiding);
    order(&mut s, "harris", "move m23 l23", &[]).unwrap();
    assert_eq!(
        s.intruders[0].status,
        Status::Escaped,
        "the rest of the path is not walked"
    );
    assert!(s.ended.is_none(), "Link is still in the mission");
}

#[test]
fn abort_after_thirty_minutes_gives_the_defender_six_points() {
    let mut s = mission(1);
    s.doors_open[door("door-25").index()] = true;
    at(&mut s, 0, "m21", Mode::Raiding);
    s.minutes = 29;
    order(&mut s, "harris", "move m23", &[]).unwrap();
    let end = s.ended.as_ref().unwrap();
    assert!(!end.intruders_win);
    assert_eq!(end.defender_points, 6);
}

#[test]
fn leaving_before_thirty_minutes_is_no_abort_the_defender_takes_ten() {
    let mut s = mission(1);
    s.doors_open[door("door-25").index()] = true;
    at(&mut s, 0, "m21", Mode::Raiding);
    s.minutes = 45;
    order(&mut s, "harris", "move m23", &[]).unwrap();
    assert_eq!(s.ended.as_ref().unwrap().defender_points, 10);
}

#[test]
fn the_game_ends_when_the_mission_timer_reaches_zero() {
    let mut s = mission(1);
    at(&mut s, 0, "b10", Mode::Raiding);
    s.turn = Turn::Defender;
    s.minutes = 1;
    order(&mut s, "defender", "pass", &[]).unwrap();
    let end = s.ended.as_ref().unwrap();
    assert_eq!(end.defender_points, 10);
    assert!(!end.intruders_win);
}

#[test]
fn occupied_squares_pass_through_a_friend_but_never_stop_on_him() {
    let mut s = mission(2);
    at(&mut s, 1, "b11", Mode::Raiding);
    at(&mut s, 0, "b10", Mode::Raiding);
    let e = order(&mut s, "harris", "move b11", &[]).unwrap_err();
    assert_eq!(e.rule, "Occupied squares");
    order(&mut s, "harris", "move b11 b12", &[]).unwrap();
    assert_eq!(s.intruders[0].sq, Some(sq("b12")));
}

#[test]
fn sneak_failure_alerts_the_sentry_who_turns_to_the_trouble() {
    let mut s = mission(1);
    at(&mut s, 0, "n20", Mode::Raiding);
    // o20 is 3 squares from Sentry A at r20: sneak (1 fails), then evade his new watch zone.
    assert_eq!(order(&mut s, "harris", "move o20", &[1, 6]).unwrap(), 2);
    let a1 = &s.defenders[defender(&s, "a1")];
    assert_eq!(a1.facing, Dir::West);
    assert_eq!(a1.alert, Some(sq("q20")));
}

#[test]
fn sneak_success_leaves_the_sentry_unaware() {
    let mut s = mission(1);
    at(&mut s, 0, "n20", Mode::Raiding);
    assert_eq!(order(&mut s, "harris", "move o20", &[6]).unwrap(), 1);
    assert_eq!(s.defenders[defender(&s, "a1")].alert, None);
}

#[test]
fn assaulters_moving_within_four_squares_alert_sentries_without_a_test() {
    let mut s = mission(1);
    at(&mut s, 0, "n20", Mode::Assault);
    // Alerted at once; then he must react in the Sentry's watch zone (1 die: he has moved).
    assert_eq!(order(&mut s, "harris", "move o20", &[6]).unwrap(), 1);
    assert!(s.defenders[defender(&s, "a1")].alert.is_some());
}

#[test]
fn noise_does_not_pass_closed_doors_and_a_room_is_one_source() {
    let s = mission(1);
    let reach = senses::noise_reaches(&s, sq("g20"), 12);
    assert!(reach
        .iter()
        .all(|(q, _)| despatch_core::rules::hour_of_glory::board::board().room_of(*q) == Some(2)));
    assert!(
        reach.iter().all(|(_, d)| *d == 0),
        "the whole room is the source square"
    );
    let mut s = s;
    s.doors_open[door("door-24").index()] = true;
    let reach = senses::noise_reaches(&s, sq("g20"), 12);
    assert!(
        reach.contains(&(sq("l20"), 1)),
        "through an open doorway: the first square"
    );
}

#[test]
fn watch_zone_is_the_line_of_eight_corridor_squares_in_front() {
    let s = mission(2);
    let b1 = defender(&s, "b1");
    let zone = senses::watch_zone(&s, b1);
    // Sentry B1 on e8 faces east, away from door-4 (d7).
    let want: Vec<Sq> = ["f8", "g8", "h8", "i8", "j8", "k8", "l8", "m8"]
        .iter()
        .map(|q| sq(q))
        .collect();
    assert_eq!(zone, want);
}

#[test]
fn watch_zone_is_blocked_like_line_of_sight() {
    let mut s = mission(2);
    at(&mut s, 0, "g8", Mode::Assault);
    let zone = senses::watch_zone(&s, defender(&s, "b1"));
    assert_eq!(zone, vec![sq("f8"), sq("g8")]);
    // Raiders do not block.
    s.intruders[0].mode = Mode::Raiding;
    assert_eq!(senses::watch_zone(&s, defender(&s, "b1")).len(), 8);
}

#[test]
fn watch_zone_reaches_one_square_into_a_room_through_an_open_door() {
    let mut s = mission(1);
    commander_at(&mut s, "j8", Dir::North);
    assert!(senses::watch_zone(&s, 0).is_empty(), "door-5 is closed");
    s.doors_open[door("door-5").index()] = true;
    assert_eq!(senses::watch_zone(&s, 0), vec![sq("j6")]);
}

#[test]
fn line_of_sight_reaches_only_one_square_into_a_room() {
    let mut s = mission(1);
    s.doors_open[door("door-5").index()] = true;
    assert_eq!(senses::los(&s, sq("j8"), sq("j6")), Some(1));
    assert_eq!(senses::los(&s, sq("j8"), sq("j5")), None);
    assert_eq!(senses::los(&s, sq("b8"), sq("h8")), Some(6));
}

#[test]
fn evade_failure_exposes_the_raider_and_the_commander_takes_an_alert_marker() {
    let mut s = mission(1);
    commander_at(&mut s, "f8", Dir::East);
    at(&mut s, 0, "i8", Mode::Raiding);
    assert_eq!(order(&mut s, "harris", "move h8", &[1, 1, 1]).unwrap(), 3);
    assert_eq!(s.intruders[0].mode, Mode::Assault);
    assert_eq!(s.intruders[0].sq, Some(sq("i8")), "his turn ended");
    assert_eq!(s.asi_markers, 2);
}

#[test]
fn evade_score_one_ends_the_turn_but_he_stays_hidden() {
    let mut s = mission(1);
    commander_at(&mut s, "f8", Dir::East);
    at(&mut s, 0, "i8", Mode::Raiding);
    order(&mut s, "harris", "move j8", &[6, 1, 1]).unwrap();
    assert_eq!(s.intruders[0].mode, Mode::Raiding);
    assert_eq!(s.intruders[0].sq, Some(sq("i8")));
}

#[test]
fn evade_score_three_makes_the_commander_stand_down() {
    let mut s = mission(1);
    commander_at(&mut s, "f8", Dir::East);
    at(&mut s, 0, "i8", Mode::Raiding);
    order(&mut s, "harris", "move j8 k8", &[6, 6, 6]).unwrap();
    assert_eq!(
        s.defenders[0].facing,
        Dir::West,
        "he turns to face the opposite way"
    );
    assert_eq!(s.intruders[0].sq, Some(sq("k8")));
}

#[test]
fn react_too_slow_ends_the_assaulters_turn() {
    let mut s = mission(1);
    commander_at(&mut s, "f8", Dir::East);
    at(&mut s, 0, "i8", Mode::Assault);
    assert_eq!(order(&mut s, "harris", "move j8", &[1, 1, 1]).unwrap(), 3);
    assert_eq!(s.intruders[0].sq, Some(sq("i8")));
}

#[test]
fn react_score_one_allows_an_attack_but_no_movement() {
    let mut s = mission(1);
    commander_at(&mut s, "f8", Dir::East);
    at(&mut s, 0, "i8", Mode::Assault);
    s.intruders[0].selected = Weapon::Handgun;
    // Handgun: one failed react die is re-rolled when the order shoots.
    let e = order(&mut s, "harris", "move j8", &[6, 1, 1]).unwrap();
    assert_eq!(e, 3);
    assert_eq!(s.intruders[0].sq, Some(sq("i8")), "score 1: no movement");
}

#[test]
fn handgun_rerolls_one_react_die_when_the_intruder_shoots() {
    let mut s = mission(1);
    commander_at(&mut s, "f8", Dir::East);
    at(&mut s, 0, "i8", Mode::Assault);
    s.intruders[0].selected = Weapon::Handgun;
    // React 1,1,1 then the re-roll 6; shoot 4 dice at range 3 (1,2 cover it); resist 2 dice.
    let used = order(
        &mut s,
        "harris",
        "shoot f8",
        &[1, 1, 1, 6, 1, 2, 6, 6, 1, 1],
    )
    .unwrap();
    assert_eq!(used, 10);
}

#[test]
fn voluntary_assault_is_not_allowed_in_a_watch_zone() {
    let mut s = mission(1);
    commander_at(&mut s, "f8", Dir::East);
    at(&mut s, 0, "i8", Mode::Raiding);
    let e = order(&mut s, "harris", "assault with handgun", &[]).unwrap_err();
    assert_eq!(e.rule, "Assault");
    at(&mut s, 0, "b14", Mode::Raiding);
    order(&mut s, "harris", "assault with handgun; move b15", &[]).unwrap();
    assert_eq!(s.intruders[0].mode, Mode::Assault);
    assert_eq!(s.intruders[0].selected, Weapon::Handgun);
}

#[test]
fn raiders_may_not_enter_an_enemy_occupied_room() {
    let mut s = mission(1);
    commander_at(&mut s, "h18", Dir::North);
    s.doors_open[door("door-24").index()] = true;
    at(&mut s, 0, "l20", Mode::Raiding);
    let e = order(&mut s, "harris", "move j20", &[]).unwrap_err();
    assert_eq!(e.rule, "Raiding");
}

#[test]
fn entering_a_room_turns_its_intelligence_card_over() {
    let mut s = mission(1);
    s.doors_open[door("door-24").index()] = true;
    at(&mut s, 0, "l20", Mode::Raiding);
    assert!(!s.room_card(2).explored);
    order(&mut s, "harris", "move j20", &[]).unwrap();
    assert!(s.room_card(2).explored);
}

#[test]
fn spy_takes_the_rooms_card_on_a_pass() {
    let mut s = mission(1);
    at(&mut s, 0, "g20", Mode::Raiding);
    s.rooms[1].explored = true;
    let card = s.rooms[1].card.unwrap();
    order(&mut s, "harris", "spy take-chance", &[4]).unwrap();
    assert_eq!(s.intruders[0].intel, vec![card]);
    assert_eq!(s.rooms[1].card, None);
}

#[test]
fn spy_camera_rolls_four_dice_when_spending_time() {
    let mut s = mission(2);
    at(&mut s, 1, "g20", Mode::Raiding);
    s.rooms[1].explored = true;
    assert_eq!(
        order(&mut s, "link", "spy spend-time", &[1, 1, 1, 6]).unwrap(),
        4
    );
    assert_eq!(s.minutes, 59);
    assert_eq!(s.intruders[1].intel.len(), 1);
}

#[test]
fn sneak_attack_eliminates_a_sentry_who_does_not_watch_the_raider() {
    let mut s = mission(1);
    at(&mut s, 0, "q20", Mode::Raiding);
    order(&mut s, "harris", "sneak-attack r20", &[5, 1, 1]).unwrap();
    let a1 = &s.defenders[defender(&s, "a1")];
    assert_eq!(a1.status, Status::Dead);
    assert!(s
        .markers
        .iter()
        .any(|m| m.sq == sq("r20") && matches!(m.kind, MarkerKind::Corpse { .. })));
}

#[test]
fn sneak_attack_failure_alerts_the_sentry_and_exposes_the_raider() {
    let mut s = mission(1);
    at(&mut s, 0, "q20", Mode::Raiding);
    order(&mut s, "harris", "sneak-attack r20", &[1, 1, 1]).unwrap();
    assert!(s.defenders[defender(&s, "a1")].alert.is_some());
    assert_eq!(s.intruders[0].mode, Mode::Assault);
}

#[test]
fn sneak_attack_is_impossible_from_inside_the_sentrys_watch_zone() {
    let mut s = mission(1);
    at(&mut s, 0, "s20", Mode::Raiding);
    let e = order(&mut s, "harris", "sneak-attack r20", &[]).unwrap_err();
    assert_eq!(e.rule, "Sneak-attack");
}

#[test]
fn conceal_is_a_free_bonus_action_after_a_sneak_attack_and_failure_leaves_an_alert_marker() {
    let mut s = mission(1);
    at(&mut s, 0, "q20", Mode::Raiding);
    order(
        &mut s,
        "harris",
        "sneak-attack r20; conceal r20 take-chance",
        &[5, 1, 1, 1],
    )
    .unwrap();
    assert!(s
        .markers
        .iter()
        .any(|m| m.sq == sq("r20") && m.kind == MarkerKind::Alert));
}

#[test]
fn conceal_success_disposes_of_the_body_and_take_equipment_follows() {
    let mut s = mission(2);
    at(&mut s, 0, "p20", Mode::Raiding);
    let mut corpse = Marker::new(sq("q20"), MarkerKind::Corpse { of: "link".into() });
    corpse.intel = vec![Card::StrongholdMap];
    corpse.equipment = vec![Equipment::SpyCamera];
    s.markers.push(corpse);
    s.intruders[1].status = Status::Dead;
    s.intruders[1].sq = None;
    order(&mut s, "harris", "conceal q20 take-chance", &[6]).unwrap();
    assert!(s.markers.is_empty());
    assert!(s.intruders[0].intel.contains(&Card::StrongholdMap));
    assert!(s.intruders[0].equipment.contains(&Equipment::SpyCamera));
}

#[test]
fn take_equipment_from_a_commanders_body_gives_the_master_key_which_opens_any_door() {
    let mut s = mission(1);
    at(&mut s, 0, "b17", Mode::Raiding);
    s.markers.push(Marker::new(
        sq("b16"),
        MarkerKind::Corpse {
            of: "commander".into(),
        },
    ));
    order(&mut s, "harris", "conceal b16 take-chance", &[1]).unwrap();
    assert!(s.intruders[0].equipment.contains(&Equipment::MasterKey));
    s.turn = Turn::Intruder(0);
    order(&mut s, "harris", "open door-19", &[]).unwrap();
    assert!(s.door_open(door("door-19")));
}

#[test]
fn the_door_between_rooms_8_and_9_opens_for_anyone() {
    let mut s = mission(1);
    at(&mut s, 0, "f4", Mode::Raiding);
    let e = order(&mut s, "harris", "breach door-1 take-chance", &[]).unwrap_err();
    assert!(e.message.contains("not locked"));
    order(&mut s, "harris", "open door-1", &[]).unwrap();
    assert!(s.door_open(door("door-1")));
}

#[test]
fn close_door_after_moving_through_costs_one_square_of_movement() {
    let mut s = mission(1);
    s.doors_open[door("door-19").index()] = true;
    at(&mut s, 0, "b17", Mode::Raiding);
    // Through the door (1), close it (1 square), 2 more squares, and still an action (breach).
    order(
        &mut s,
        "harris",
        "move d17; close door-19; move d18 e19; breach door-21 take-chance",
        &[6],
    )
    .unwrap();
    assert!(!s.door_open(door("door-19")));
    assert!(s.door_open(door("door-21")));
    s.doors_open[door("door-19").index()] = true;
    s.doors_open[door("door-21").index()] = false;
    at(&mut s, 0, "b17", Mode::Raiding);
    let e = order(
        &mut s,
        "harris",
        "move d17; close door-19; move d18 e19 e20",
        &[],
    )
    .unwrap_err();
    assert!(
        e.message.contains("at most 4"),
        "closing took a square: {e}"
    );
}

#[test]
fn hide_needs_a_room_with_every_door_closed_and_returns_to_raiding() {
    let mut s = mission(1);
    s.doors_open[door("door-24").index()] = true;
    at(&mut s, 0, "g20", Mode::Assault);
    let e = order(&mut s, "harris", "hide", &[]).unwrap_err();
    assert_eq!(e.rule, "Hide");
    s.doors_open[door("door-24").index()] = false;
    order(&mut s, "harris", "hide", &[6, 6, 1]).unwrap();
    assert_eq!(s.intruders[0].mode, Mode::Raiding);
    assert_eq!(s.minutes, 59, "3 minutes, two passes");
}

#[test]
fn fight_rolls_strength_plus_one_with_a_knife_and_a_fatal_wound_kills() {
    let mut s = mission(1);
    at(&mut s, 0, "q20", Mode::Assault);
    // Harris assaulting: Strength 3, +1 knife = 4 dice at Combat 3+; 3 passes: fatal; the
    // Sentry resists with Endurance 1 at Survival 6.
    assert_eq!(
        order(&mut s, "harris", "fight r20", &[6, 6, 6, 1, 1]).unwrap(),
        5
    );
    assert_eq!(s.defenders[defender(&s, "a1")].status, Status::Dead);
}

#[test]
fn resist_effects_reduce_the_wound() {
    let mut s = mission(1);
    at(&mut s, 0, "q20", Mode::Assault);
    // Fatal, resisted by one pass (a 6): severe, so unconscious — and alerted though down.
    order(&mut s, "harris", "fight r20", &[6, 6, 6, 1, 6]).unwrap();
    let a1 = &s.defenders[defender(&s, "a1")];
    assert_eq!(a1.status, Status::Unconscious);
    assert!(
        a1.alert.is_some(),
        "attacked and not killed: alerted even if unconscious"
    );
}

#[test]
fn counterattack_is_a_standing_choice_made_in_advance() {
    let mut s = mission(1);
    at(&mut s, 0, "q20", Mode::Assault);
    // No effect: the Sentry counterattacks unarmed (2 dice).
    assert_eq!(
        order(&mut s, "harris", "fight r20", &[1, 1, 1, 1, 1, 1]).unwrap(),
        6
    );
    let mut s = mission(1);
    s.defender_counterattack = false;
    at(&mut s, 0, "q20", Mode::Assault);
    assert_eq!(
        order(&mut s, "harris", "fight r20", &[1, 1, 1, 1]).unwrap(),
        4
    );
}

#[test]
fn engaged_agents_may_not_move() {
    let mut s = mission(1);
    at(&mut s, 0, "q20", Mode::Assault);
    let e = order(&mut s, "harris", "move p20", &[]).unwrap_err();
    assert_eq!(e.rule, "Fighting");
}

#[test]
fn shoot_removes_dice_whose_total_covers_the_range_keeping_the_passes() {
    let kept = combat::cover_range(&[6, 2, 5, 1], 3, |f| f >= 5).unwrap();
    assert_eq!(
        kept,
        vec![1, 3],
        "the 2 and the 1 cover range 3; the 6 and 5 still hit"
    );
    assert_eq!(
        combat::cover_range(&[1, 1], 3, |f| f >= 5),
        None,
        "out of range"
    );
}

#[test]
fn shooting_alerts_every_sentry_within_twelve_squares() {
    let mut s = mission(1);
    let a1 = defender(&s, "a1");
    s.defenders[a1].status = Status::Dead;
    s.defenders[a1].sq = None;
    commander_at(&mut s, "t20", Dir::North);
    at(&mut s, 0, "o20", Mode::Assault);
    s.intruders[0].selected = Weapon::Handgun;
    assert_eq!(
        order(&mut s, "harris", "shoot t20", &[1, 1, 1, 2]).unwrap(),
        4
    );
    assert!(
        s.defenders[defender(&s, "a2")].alert.is_some(),
        "m10 is 11 squares away"
    );
}

#[test]
fn raiders_may_not_shoot() {
    let mut s = mission(1);
    commander_at(&mut s, "t20", Dir::North);
    at(&mut s, 0, "o20", Mode::Raiding);
    let e = order(&mut s, "harris", "shoot t20", &[]).unwrap_err();
    assert_eq!(e.rule, "Shooting");
}

#[test]
fn coup_de_grace_kills_an_adjacent_unconscious_enemy() {
    let mut s = mission(1);
    let a1 = defender(&s, "a1");
    s.defenders[a1].status = Status::Unconscious;
    at(&mut s, 0, "q20", Mode::Raiding);
    order(&mut s, "harris", "coup-de-grace r20", &[6, 1, 1]).unwrap();
    assert_eq!(s.defenders[a1].status, Status::Dead);
}

#[test]
fn intruder_recovery_failure_costs_the_minutes_rolled() {
    let mut s = mission(1);
    at(&mut s, 0, "l20", Mode::Raiding);
    s.intruders[0].status = Status::Unconscious;
    s.intruders[0].equipment.clear();
    order(&mut s, "harris", "recover raiding", &[2]).unwrap();
    assert_eq!(s.minutes, 58);
    assert_eq!(s.intruders[0].status, Status::Unconscious);
    let e = {
        s.turn = Turn::Intruder(0);
        order(&mut s, "harris", "move l19", &[]).unwrap_err()
    };
    assert_eq!(e.rule, "Wounds");
}

#[test]
fn intruder_recovery_success_stands_him_up_in_the_chosen_mode() {
    let mut s = mission(1);
    at(&mut s, 0, "l20", Mode::Raiding);
    s.intruders[0].status = Status::Unconscious;
    order(&mut s, "harris", "recover assault", &[5]).unwrap();
    assert_eq!(s.intruders[0].status, Status::Standing);
    assert_eq!(s.intruders[0].mode, Mode::Assault);
}

#[test]
fn first_aid_kit_rerolls_a_failed_recovery() {
    let mut s = mission(3);
    at(&mut s, 2, "l20", Mode::Raiding);
    s.intruders[2].status = Status::Unconscious;
    assert!(s.intruders[2].equipment.contains(&Equipment::FirstAidKit));
    assert_eq!(
        order(&mut s, "volkov", "recover raiding", &[1, 5]).unwrap(),
        2
    );
    assert_eq!(s.intruders[2].status, Status::Standing);
}

#[test]
fn heroic_sacrifice_replaces_a_recovery_that_would_run_the_timer_out() {
    let mut s = mission(1);
    at(&mut s, 0, "l20", Mode::Raiding);
    s.intruders[0].status = Status::Unconscious;
    s.intruders[0].equipment.clear();
    s.minutes = 3;
    order(&mut s, "harris", "sacrifice on; recover raiding", &[3]).unwrap();
    assert_eq!(s.intruders[0].status, Status::Dead);
    assert_eq!(s.minutes, 3);
}

#[test]
fn defender_recovery_a_roll_of_one_kills_the_agent() {
    let mut s = mission(1);
    let a1 = defender(&s, "a1");
    s.defenders[a1].status = Status::Unconscious;
    s.turn = Turn::Defender;
    assert_eq!(order(&mut s, "defender", "pass", &[1]).unwrap(), 1);
    assert_eq!(s.defenders[a1].status, Status::Dead);
}

#[test]
fn defender_recovery_a_pass_stands_the_agent_up() {
    let mut s = mission(1);
    let a1 = defender(&s, "a1");
    s.defenders[a1].status = Status::Unconscious;
    s.turn = Turn::Defender;
    order(&mut s, "defender", "pass", &[6]).unwrap();
    assert_eq!(s.defenders[a1].status, Status::Standing);
}

#[test]
fn take_time_deducts_a_minute_and_subversion_another_for_a_failed_stealth_test() {
    let mut s = mission(1);
    at(&mut s, 0, "b10", Mode::Assault);
    s.turn = Turn::Defender;
    assert_eq!(order(&mut s, "defender", "pass", &[1]).unwrap(), 1);
    assert_eq!(s.minutes, 58);
    assert_eq!(s.round, 2);
    assert_eq!(s.turn, Turn::Intruder(0));
}

#[test]
fn investigate_collects_an_adjacent_marker_for_the_alert_state_indicator() {
    let mut s = mission(1);
    commander_at(&mut s, "p20", Dir::East);
    s.markers.push(Marker::new(sq("q20"), MarkerKind::Alert));
    s.turn = Turn::Defender;
    order(&mut s, "defender", "commander investigate q20", &[]).unwrap();
    assert_eq!(s.asi_markers, 2);
    assert!(s.markers.is_empty());
}

#[test]
fn investigating_a_sentrys_alert_marker_returns_him_to_the_ready_position() {
    let mut s = mission(1);
    let a1 = defender(&s, "a1");
    s.defenders[a1].alert = Some(sq("q20"));
    s.defenders[a1].facing = Dir::West;
    commander_at(&mut s, "p20", Dir::East);
    s.turn = Turn::Defender;
    order(&mut s, "defender", "commander investigate q20", &[]).unwrap();
    assert_eq!(s.defenders[a1].alert, None);
    assert_eq!(s.defenders[a1].facing, Dir::East);
}

#[test]
fn raise_alarm_needs_an_assaulter_inside_and_mobilises_a_guard_per_marker() {
    let mut s = mission(1);
    at(&mut s, 0, "b10", Mode::Raiding);
    s.turn = Turn::Defender;
    let e = order(&mut s, "defender", "commander alarm", &[]).unwrap_err();
    assert_eq!(e.rule, "Raise alarm");
    at(&mut s, 0, "b10", Mode::Assault);
    s.doors_open[door("door-25").index()] = true;
    s.asi_markers = 2;
    s.turn = Turn::Defender;
    order(&mut s, "defender", "commander alarm m23 l23", &[1; 30]).unwrap();
    assert!(s.alarm);
    assert_eq!(s.asi_markers, 0);
    assert_eq!(s.guards_in_box, 6);
    let guards: Vec<&Defender> = s
        .defenders
        .iter()
        .filter(|d| d.kind == DefKind::Guard)
        .collect();
    assert_eq!(guards.len(), 2);
    // Mobilised in the entry zone they move 6 squares towards the assaulter at once.
    assert!(
        guards.iter().all(|g| g.sq.is_some_and(|q| q.1 < 22)),
        "{guards:?}"
    );
}

#[test]
fn guards_with_no_assaulter_go_to_the_entrance_and_demobilise_ending_the_alarm() {
    let mut s = mission(1);
    at(&mut s, 0, "b10", Mode::Raiding);
    s.alarm = true;
    s.guards_in_box = 7;
    s.defenders.push(Defender {
        kind: DefKind::Guard,
        label: "g1".into(),
        sq: Some(sq("m19")),
        status: Status::Standing,
        facing: Dir::South,
        ready: Dir::South,
        alert: None,
        first_turn: None,
        captured_intel: vec![],
        captured_equipment: vec![],
        captured_weapons: vec![],
    });
    s.turn = Turn::Defender;
    order(&mut s, "defender", "pass", &[3]).unwrap();
    assert!(!s.alarm);
    assert_eq!(s.guards_in_box, 8);
}

#[test]
fn mobilising_a_replacement_commander_needs_more_than_minutes_over_ten() {
    let mut s = mission(1);
    s.defenders[0].status = Status::Dead;
    s.defenders[0].sq = None;
    s.turn = Turn::Defender;
    order(&mut s, "defender", "pass", &[6]).unwrap();
    assert!(s.commander().is_none(), "6 is not more than 60/10");
    s.minutes = 50;
    s.turn = Turn::Defender;
    order(&mut s, "defender", "replace n23", &[6]).unwrap();
    let c = s.commander().unwrap();
    assert_eq!(s.defenders[c].sq, Some(sq("n23")));
    assert_eq!(s.asi_markers, 2, "he brings an alert marker");
}

#[test]
fn a_defender_moving_onto_a_raider_stops_beside_him_and_exposes_him() {
    let mut s = mission(1);
    commander_at(&mut s, "w20", Dir::West);
    at(&mut s, 0, "x20", Mode::Raiding);
    s.turn = Turn::Defender;
    order(&mut s, "defender", "commander move x20 y20", &[3]).unwrap();
    assert_eq!(s.intruders[0].mode, Mode::Assault);
    assert_eq!(s.defenders[0].sq, Some(sq("w20")));
}

#[test]
fn scoring_three_of_a_colour_is_2_three_of_a_country_1_and_the_map_1() {
    use Colour::*;
    use Country::*;
    let c = |colour, country| Card::Intel { colour, country };
    // The manual's example: the Map, three G.B. cards and three red cards (one red G.B.).
    let cards = vec![
        Card::StrongholdMap,
        c(Red, Gb),
        c(Blue, Gb),
        c(Green, Gb),
        c(Red, Usa),
        c(Red, Ussr),
    ];
    assert_eq!(intel::score(&cards), 4);
    assert_eq!(intel::score(&[c(Blue, Usa), c(Blue, Gb)]), 0);
}

#[test]
fn winning_needs_2_4_or_6_points_for_1_2_or_3_intruders() {
    assert_eq!(intel::needed(1), 2);
    assert_eq!(intel::needed(2), 4);
    assert_eq!(intel::needed(3), 6);
    assert_eq!(
        (
            intel::DEFENDER_WINS,
            intel::DEFENDER_ABORT,
            intel::DEFENDER_LOSES
        ),
        (10, 6, 0)
    );
}

#[test]
fn intelligence_cards_are_dealt_one_to_each_room_face_down() {
    let s = mission(2);
    let mut cards: Vec<Card> = s.rooms.iter().map(|r| r.card.unwrap()).collect();
    cards.sort();
    let mut deck = intel::deck();
    deck.sort();
    assert_eq!(cards, deck);
    assert!(s.rooms.iter().all(|r| !r.explored));
}

#[test]
fn stronghold_map_holder_alone_peeks_at_unexplored_rooms() {
    let mut s = mission(2);
    s.intruders[0].intel.push(Card::StrongholdMap);
    let hidden = serde_json::to_string(&s.rooms[4].card.unwrap()).unwrap();
    let harris = HourOfGlory.view(&s, &Viewer::Seat(Seat::parse("harris").unwrap()));
    assert!(harris["peek"].as_array().is_some_and(|p| !p.is_empty()));
    for viewer in [
        Viewer::Spectator,
        Viewer::Seat(Seat::parse("link").unwrap()),
        Viewer::Seat(Seat::parse("defender").unwrap()),
    ] {
        let v = HourOfGlory.view(&s, &viewer);
        assert!(v.get("peek").is_none());
        assert!(
            !v.to_string().contains(&hidden),
            "{viewer:?} sees a face-down card"
        );
    }
    let all = HourOfGlory.view(&s, &Viewer::Everyone);
    assert!(
        all.to_string().contains(&hidden),
        "after the game everything is shown"
    );
}

#[test]
fn sentries_are_deployed_on_a_posts_for_1_intruder_a_b_for_2_a_b_c_for_3() {
    let count = |n| {
        mission(n)
            .defenders
            .iter()
            .filter(|d| d.kind == DefKind::Sentry)
            .count()
    };
    assert_eq!((count(1), count(2), count(3)), (2, 5, 8));
}

#[test]
fn the_first_intruder_goes_first_and_the_defender_last_each_round() {
    let mut s = mission(2);
    assert_eq!(s.turn, Turn::Intruder(0));
    order(&mut s, "harris", "pass", &[]).unwrap();
    assert_eq!(s.turn, Turn::Intruder(1));
    let e = order(&mut s, "harris", "pass", &[]).unwrap_err();
    assert_eq!(e.rule, "turn order");
    order(&mut s, "link", "pass", &[]).unwrap();
    assert_eq!(s.turn, Turn::Defender);
}

#[test]
fn entering_an_enemy_occupied_room_a_guard_must_react_and_failing_does_nothing_more() {
    let mut s = mission(1);
    // Harris assaulting in room 2, door-24 open; a Guard in the lobby next to it.
    s.doors_open[door("door-24").index()] = true;
    at(&mut s, 0, "h20", Mode::Assault);
    s.alarm = true;
    s.guards_in_box = 7;
    s.defenders.push(Defender {
        kind: DefKind::Guard,
        label: "g1".into(),
        sq: Some(sq("l20")),
        status: Status::Standing,
        facing: Dir::West,
        ready: Dir::West,
        alert: None,
        first_turn: None,
        captured_intel: vec![],
        captured_equipment: vec![],
        captured_weapons: vec![],
    });
    s.turn = Turn::Defender;
    // Guards roll 6 to move; he steps into room 2 (j20) and reacts: 1 fails (Survival 6).
    // Then take time and Harris's subversion test (6 passes).
    assert_eq!(order(&mut s, "defender", "pass", &[6, 1, 6]).unwrap(), 3);
    let g = s.defenders.iter().find(|d| d.label == "g1").unwrap();
    assert_eq!(g.sq, Some(sq("j20")));
    assert_eq!(
        s.intruders[0].status,
        Status::Standing,
        "no attack after a failed reaction"
    );
}

#[test]
fn entering_an_enemy_occupied_room_an_assaulter_must_react_on_a_d6() {
    let mut s = mission(1);
    commander_at(&mut s, "h18", Dir::North);
    s.doors_open[door("door-24").index()] = true;
    at(&mut s, 0, "l20", Mode::Assault);
    // One die can score at most 1: attack, no more movement — so walking on is refused.
    let e = order(&mut s, "harris", "move j20 i20", &[]).unwrap_err();
    assert_eq!(e.rule, "Movement");
    // Too slow (a 1 at Survival 4+): his turn ends just inside.
    assert_eq!(order(&mut s, "harris", "move j20", &[1]).unwrap(), 1);
    assert_eq!(s.intruders[0].sq, Some(sq("j20")));
}

#[test]
fn rifles_after_shooting_an_agent_may_not_move_again_that_turn() {
    let mut s = mission(3);
    let a1 = defender(&s, "a1");
    s.defenders[a1].status = Status::Dead;
    s.defenders[a1].sq = None;
    commander_at(&mut s, "t20", Dir::North);
    at(&mut s, 2, "o20", Mode::Assault);
    s.intruders[2].selected = Weapon::Rifle;
    let e = order(&mut s, "volkov", "shoot t20; move n20", &[]).unwrap_err();
    assert_eq!(e.rule, "Movement");
    order(&mut s, "volkov", "move p20; shoot t20", &[1; 5]).unwrap();
}

#[test]
fn smg_covering_fire_attacks_up_to_three_targets_once_each() {
    let mut s = mission(2);
    let a1 = defender(&s, "a1");
    s.defenders[a1].status = Status::Dead;
    s.defenders[a1].sq = None;
    commander_at(&mut s, "t20", Dir::North);
    s.defenders.push(Defender {
        kind: DefKind::Guard,
        label: "g1".into(),
        sq: Some(sq("r20")),
        status: Status::Standing,
        facing: Dir::North,
        ready: Dir::North,
        alert: None,
        first_turn: None,
        captured_intel: vec![],
        captured_equipment: vec![],
        captured_weapons: vec![],
    });
    at(&mut s, 1, "o20", Mode::Assault);
    s.intruders[1].selected = Weapon::Smg;
    let e = order(&mut s, "link", "shoot r20 r20", &[]).unwrap_err();
    assert_eq!(e.rule, "Covering fire");
    // Two volleys of 4 dice, both missing: 8 dice.
    assert_eq!(order(&mut s, "link", "shoot t20 r20", &[1; 8]).unwrap(), 8);
    s.turn = Turn::Intruder(1);
    s.intruders[1].selected = Weapon::Handgun;
    s.intruders[1].weapons.push(Weapon::Handgun);
    let e = order(&mut s, "link", "shoot t20 r20", &[]).unwrap_err();
    assert!(e.message.contains("need an SMG"), "{e}");
}

/// Link with his SMG on o20, the Commander on t20 (range 5) or s20 (range 4), Sentry A1 out of
/// the way.
fn burst_at(range: u32) -> State {
    let mut s = mission(2);
    let a1 = defender(&s, "a1");
    s.defenders[a1].status = Status::Dead;
    s.defenders[a1].sq = None;
    commander_at(&mut s, if range == 5 { "t20" } else { "s20" }, Dir::North);
    at(&mut s, 1, "o20", Mode::Assault);
    s.intruders[1].selected = Weapon::Smg;
    s
}

#[test]
fn smg_burst_rerolls_up_to_three_dice() {
    let mut s = burst_at(5);
    // 4 dice (6,1,1,1): the 6 covers range 5; three failing attack dice are re-rolled (1,1,1).
    assert_eq!(
        order(&mut s, "link", "shoot t20 burst", &[6, 1, 1, 1, 1, 1, 1]).unwrap(),
        7
    );
    assert_eq!(s.defenders[0].status, Status::Standing);
}

#[test]
fn smg_burst_designates_the_range_dice_once_before_the_re_rolls() {
    let mut s = burst_at(4);
    // 4,1,1,1 at range 4: the 4 is designated. The first re-roll turns a 1 into a 3; 3+1 would
    // now cover the range and free the 4 to pass, but the designation stands, so the other two
    // re-rolls go on the attack dice (1, 1) and no attack die passes: no wound, no resist roll.
    assert_eq!(
        order(&mut s, "link", "shoot s20 burst", &[4, 1, 1, 1, 3, 1, 1]).unwrap(),
        7
    );
    assert_eq!(s.defenders[0].status, Status::Standing);
}

#[test]
fn smg_burst_range_re_rolls_range_dice_until_they_cover_the_range_then_attack_dice() {
    let mut s = burst_at(5);
    // 1,1,1,1 cannot cover range 5: every die but the highest (the last 1) is designated, 2
    // short. `burst` (= `burst range`): a range 1 becomes 4 (range 6, covered), then the failing
    // attack die becomes 6: one pass, a light wound; the Commander resists with 1,1 and falls.
    assert_eq!(
        order(&mut s, "link", "shoot t20 burst", &[1, 1, 1, 1, 4, 6, 1, 1]).unwrap(),
        8
    );
    assert_eq!(s.defenders[0].status, Status::Unconscious);
}

#[test]
fn smg_burst_attack_re_rolls_attack_dice_first_and_leaves_the_range_short() {
    let mut s = burst_at(5);
    // The same roll with `burst attack`: the attack die is re-rolled first (3, then 5, a pass),
    // then the lowest range die (1 becomes 2): range 4 of 5, out of range.
    assert_eq!(
        order(
            &mut s,
            "link",
            "shoot t20 burst attack",
            &[1, 1, 1, 1, 3, 5, 2]
        )
        .unwrap(),
        7
    );
    assert_eq!(s.defenders[0].status, Status::Standing);
}

#[test]
fn smg_burst_attack_designates_the_fewest_range_dice_and_re_rolls_the_attack_dice() {
    // 6,4,3,1 at range 4. `burst`: 3+1 is designated, keeping 6 and 4 (two passes, severe);
    // no attack die fails, so nothing is re-rolled; the Commander resists with 1,1: unconscious.
    let mut s = burst_at(4);
    assert_eq!(
        order(&mut s, "link", "shoot s20 burst", &[6, 4, 3, 1, 1, 1]).unwrap(),
        6
    );
    assert_eq!(s.defenders[0].status, Status::Unconscious);
    // `burst attack`: the 4 alone is designated (one die, the smallest that covers), leaving
    // 6,3,1; the 1 becomes 5 and the 3 becomes 6: three passes, fatal; 1,1 resists nothing.
    let mut s = burst_at(4);
    assert_eq!(
        order(
            &mut s,
            "link",
            "shoot s20 burst attack",
            &[6, 4, 3, 1, 5, 6, 1, 1]
        )
        .unwrap(),
        8
    );
    assert_eq!(s.defenders[0].status, Status::Dead);
}

#[test]
fn wounds_an_unconscious_intruder_is_put_into_raiding_mode() {
    let mut s = mission(1);
    commander_at(&mut s, "p20", Dir::East);
    at(&mut s, 0, "q20", Mode::Assault);
    s.turn = Turn::Defender;
    // The Commander fights: 2 dice, two passes (severe); Harris resists with 2 dice, none.
    assert_eq!(
        order(&mut s, "defender", "commander fight q20", &[6, 6, 1, 1]).unwrap(),
        4
    );
    assert_eq!(s.intruders[0].status, Status::Unconscious);
    assert_eq!(s.intruders[0].mode, Mode::Raiding);
}

#[test]
fn sentries_never_move_and_take_only_fight_or_shoot_orders() {
    let s = mission(1);
    let e = HourOfGlory
        .parse(&s, &Seat::parse("defender").unwrap(), "sentry a1 move q20")
        .unwrap_err();
    assert_eq!(e.rule, "order language");
}

fn guard(label: &str, at: &str) -> Defender {
    Defender {
        kind: DefKind::Guard,
        label: label.into(),
        sq: Some(sq(at)),
        status: Status::Standing,
        facing: Dir::North,
        ready: Dir::North,
        alert: None,
        first_turn: None,
        captured_intel: vec![],
        captured_equipment: vec![],
        captured_weapons: vec![],
    }
}

#[test]
fn smg_covering_fire_targets_must_all_be_in_the_same_line_of_sight() {
    let mut s = mission(2);
    let a1 = defender(&s, "a1");
    s.defenders[a1].status = Status::Dead;
    s.defenders[a1].sq = None;
    commander_at(&mut s, "t20", Dir::North);
    s.defenders.push(guard("g1", "m20"));
    s.defenders.push(guard("g2", "r20"));
    at(&mut s, 1, "o20", Mode::Assault);
    s.intruders[1].selected = Weapon::Smg;
    // East and west of the shooter: two lines of sight, not one.
    let e = order(&mut s, "link", "shoot t20 m20", &[]).unwrap_err();
    assert_eq!(e.rule, "Covering fire");
    assert!(e.message.contains("m20"), "{e}");
    // The Guard at r20 stands between Link and the Commander on the same line: the fire sweeps
    // along it, so the nearer target does not shield the farther one.
    assert_eq!(order(&mut s, "link", "shoot r20 t20", &[1; 8]).unwrap(), 8);
    // The reading "each target in his LOS" is the covering_fire "any" option.
    s.turn = Turn::Intruder(1);
    s.covering_fire = CoveringFire::Any;
    assert_eq!(order(&mut s, "link", "shoot r20 m20", &[1; 8]).unwrap(), 8);
}

#[test]
fn covering_fire_option_any_and_line_are_set_up_and_anything_else_refused() {
    let setup = |opt: serde_json::Value| Setup {
        game_id: "cf".into(),
        scenario: "mission".into(),
        options: json!({ "covering_fire": opt }),
        seats: SeatDef::named_by_id(&["defender", "harris"]).unwrap(),
    };
    let h = || hidden_stream(&[7; 32], "cf", 0);
    let s = HourOfGlory.setup(&setup(json!("any")), &mut h()).unwrap();
    assert_eq!(s.covering_fire, CoveringFire::Any);
    let s = HourOfGlory.setup(&setup(json!(null)), &mut h()).unwrap();
    assert_eq!(s.covering_fire, CoveringFire::Line);
    let e = HourOfGlory
        .setup(&setup(json!("cone")), &mut h())
        .unwrap_err();
    assert!(e.message.contains("covering_fire"), "{e}");
}

#[test]
fn sentries_alerted_to_a_disturbance_in_a_room_place_the_marker_in_the_room_in_front_of_the_doorway(
) {
    let mut s = mission(1);
    s.doors_open[door("door-22").index()] = true;
    at(&mut s, 0, "q16", Mode::Assault);
    // An assaulter moving within 4 squares of Sentry A (r20) alerts him without a test: the
    // trouble is in room 1, so the marker goes on q18, inside door-22.
    order(&mut s, "harris", "move q17", &[6; 6]).unwrap();
    let a1 = &s.defenders[defender(&s, "a1")];
    assert_eq!(a1.alert, Some(sq("q18")));
    assert_eq!(a1.facing, Dir::North);
}

#[test]
fn sentries_alert_marker_in_a_room_moves_beside_the_sentry_when_the_door_is_closed() {
    for (choice, expected) in [(None, "q20"), (Some("alert-side right"), "s20")] {
        let mut s = mission(1);
        s.doors_open[door("door-22").index()] = true;
        let a1 = defender(&s, "a1");
        if let Some(choice) = choice {
            s.turn = Turn::Defender;
            // A standing choice alone does not use the Defender's turn.
            order(&mut s, "defender", choice, &[]).unwrap();
            assert_eq!(s.turn, Turn::Defender);
        }
        at(&mut s, 0, "q16", Mode::Assault);
        order(&mut s, "harris", "move q17 q18; close door-22", &[6; 6]).unwrap();
        assert!(!s.door_open(door("door-22")));
        // Sentry A faces north (towards the trouble): left is west (q20), right is east (s20).
        assert_eq!(s.defenders[a1].alert, Some(sq(expected)), "{choice:?}");
        let view = HourOfGlory.view(&s, &Viewer::Spectator);
        let side = if choice.is_some() { "right" } else { "left" };
        assert_eq!(view["alert_side"], side);
    }
}

#[test]
fn only_the_defender_chooses_the_side_of_the_alert_marker() {
    let mut s = mission(1);
    at(&mut s, 0, "b10", Mode::Raiding);
    let e = order(&mut s, "harris", "alert-side right", &[]).unwrap_err();
    assert_eq!(e.rule, "Sentries");
}

#[test]
fn investigating_a_sentrys_alert_marker_in_a_room_returns_him_to_the_ready_position() {
    let mut s = mission(1);
    s.doors_open[door("door-22").index()] = true;
    at(&mut s, 0, "q16", Mode::Assault);
    order(&mut s, "harris", "move q17", &[6; 6]).unwrap();
    at(&mut s, 0, "b10", Mode::Raiding);
    let a1 = defender(&s, "a1");
    assert_eq!(s.defenders[a1].alert, Some(sq("q18")));
    // The Commander stands at q20, adjacent to q18 through the open door.
    commander_at(&mut s, "q20", Dir::North);
    s.turn = Turn::Defender;
    order(&mut s, "defender", "commander investigate q18", &[6; 6]).unwrap();
    assert_eq!(s.defenders[a1].alert, None);
    assert_eq!(s.defenders[a1].facing, Dir::East);
    assert_eq!(s.asi_markers, 2);
}

#[test]
fn an_alerted_sentry_who_is_killed_loses_his_alert_marker() {
    let mut s = mission(1);
    let a1 = defender(&s, "a1");
    s.defenders[a1].alert = Some(sq("q20"));
    s.defenders[a1].facing = Dir::West;
    at(&mut s, 0, "q20", Mode::Assault);
    s.intruders[0].selected = Weapon::Knife;
    // Harris fights with 4 dice (Strength 3 assaulting, +1 with the knife): a fatal wound;
    // the Sentry resists with 1 die and fails.
    order(&mut s, "harris", "fight r20", &[6, 6, 6, 6, 1]).unwrap();
    assert_eq!(s.defenders[a1].status, Status::Dead);
    assert_eq!(s.defenders[a1].alert, None);
    assert!(!s.markers.iter().any(|m| m.kind == MarkerKind::Alert));
}

#[test]
fn a_recovered_sentry_is_turned_to_face_his_alert_marker() {
    let mut s = mission(1);
    let a1 = defender(&s, "a1");
    s.defenders[a1].status = Status::Unconscious;
    s.defenders[a1].alert = Some(sq("r21"));
    s.turn = Turn::Defender;
    order(&mut s, "defender", "pass", &[6, 6]).unwrap();
    assert_eq!(s.defenders[a1].status, Status::Standing);
    assert_eq!(s.defenders[a1].facing, Dir::South);
}

fn mission_with(options: serde_json::Value) -> Result<State, RuleError> {
    let names = ["defender", "harris", "link", "volkov"];
    let setup = Setup {
        game_id: "loadouts".into(),
        scenario: "mission".into(),
        options,
        seats: SeatDef::named_by_id(&names).unwrap(),
    };
    HourOfGlory.setup(&setup, &mut hidden_stream(&[7; 32], "loadouts", 0))
}

#[test]
fn setup_choose_weapons_and_equipment_for_the_character() {
    // By default the loadouts of data/loadouts.txt.
    let s = mission_with(json!({})).unwrap();
    assert_eq!(s.intruders[0].weapons, vec![Weapon::Knife, Weapon::Handgun]);
    assert_eq!(s.intruders[0].equipment, vec![Equipment::CovertEntryKit]);
    // Chosen: the cards move between agents; the combat knife comes anyway, on top.
    let s = mission_with(json!({"loadouts": {
        "harris": {"weapons": ["smg", "handgun"], "equipment": "first-aid-kit"},
        "link": {"weapons": [], "equipment": "covert-entry-kit"},
        "volkov": {"weapons": ["rifle"], "equipment": "spy-camera"},
    }}))
    .unwrap();
    let harris = &s.intruders[0];
    assert_eq!(
        harris.weapons,
        vec![Weapon::Knife, Weapon::Smg, Weapon::Handgun]
    );
    assert_eq!(harris.selected, Weapon::Knife);
    assert_eq!(harris.equipment, vec![Equipment::FirstAidKit]);
    assert_eq!(s.intruders[1].weapons, vec![Weapon::Knife]);
    assert_eq!(s.intruders[1].equipment, vec![Equipment::CovertEntryKit]);
    // The views show what each agent took.
    let view = HourOfGlory.view(&s, &Viewer::Spectator).to_string();
    assert!(view.contains("first-aid-kit"), "{view}");
}

#[test]
fn setup_chosen_cards_exist_in_the_box_and_no_card_goes_to_two_agents() {
    let refused = |options: serde_json::Value, needle: &str| {
        let e = mission_with(options).unwrap_err();
        assert_eq!(e.rule, "set-up");
        assert!(e.message.contains(needle), "{needle}: {e}");
    };
    // Link keeps his SMG by default: Harris may not take it too.
    refused(
        json!({"loadouts": {"harris": {"weapons": ["smg"]}}}),
        "both Harris and Link",
    );
    refused(
        json!({"loadouts": {"harris": {"weapons": ["bazooka"]}}}),
        "\"bazooka\" is not a weapon card",
    );
    refused(
        json!({"loadouts": {"harris": {"weapons": ["handgun", "handgun"]}}}),
        "handgun twice",
    );
    refused(
        json!({"loadouts": {"harris": {"equipment": "master-key"}}}),
        "the Master Key is the Commander's",
    );
    refused(
        json!({"loadouts": {"bond": {"weapons": []}}}),
        "'bond' is not an agent",
    );
    refused(json!({"loadouts": ["smg"]}), "loadouts must map agents");
    refused(
        json!({"loadouts": {"harris": {"weapon": ["smg"]}}}),
        "unknown key 'weapon'",
    );
    // An agent who is not playing has no cards to choose.
    let names = ["defender", "harris"];
    let setup = Setup {
        game_id: "loadouts".into(),
        scenario: "mission".into(),
        options: json!({"loadouts": {"volkov": {"weapons": ["rifle"]}}}),
        seats: SeatDef::named_by_id(&names).unwrap(),
    };
    let e = HourOfGlory
        .setup(&setup, &mut hidden_stream(&[7; 32], "loadouts", 0))
        .unwrap_err();
    assert!(e.message.contains("Volkov is not playing"), "{e}");
}

/// A mission set up with the `sentries` option.
fn deployed(intruders: usize, sentries: serde_json::Value) -> Result<State, RuleError> {
    let names = ["defender", "harris", "link", "volkov"];
    let setup = Setup {
        game_id: "sentries".into(),
        scenario: "mission".into(),
        options: json!({ "sentries": sentries }),
        seats: SeatDef::named_by_id(&names[..=intruders]).unwrap(),
    };
    HourOfGlory.setup(&setup, &mut hidden_stream(&[7; 32], "sentries", 0))
}

#[test]
fn deploy_your_sentries_in_front_of_whichever_doors_you_wish_facing_away_from_them() {
    // A door alone: its corridor side (door-22, room 1: q20; the entrance: m21 inside). A square
    // straight through a door: that side, here inside room 6 (door-13's w12).
    let s = deployed(1, json!({"a1": "door-25", "a2": "w12"})).unwrap();
    let place = |s: &State, label: &str| {
        let d = &s.defenders[defender(s, label)];
        (d.sq, d.facing, d.ready)
    };
    assert_eq!(place(&s, "a1"), (Some(sq("m21")), Dir::North, Dir::North));
    assert_eq!(place(&s, "a2"), (Some(sq("w12")), Dir::West, Dir::West));
    // Facing away from the entrance, Sentry A1 watches the column-m corridor northwards.
    let a1 = defender(&s, "a1");
    assert!(senses::watch_zone(&s, a1).contains(&sq("m18")));
    // A Sentry not named keeps his post; without the option every Sentry is on his post.
    let s = deployed(2, json!({"b2": "door-22"})).unwrap();
    assert_eq!(place(&s, "b2"), (Some(sq("q20")), Dir::South, Dir::South));
    assert_eq!(place(&s, "a1"), (Some(sq("r20")), Dir::East, Dir::East));
    assert_eq!(place(&s, "b1"), (Some(sq("e8")), Dir::East, Dir::East));
    let s = deployed(1, json!(null)).unwrap();
    assert_eq!(place(&s, "a2"), (Some(sq("m10")), Dir::North, Dir::North));
}

#[test]
fn deploy_your_sentries_a_wrong_door_or_square_is_refused_with_the_place_named() {
    let refused = |n: usize, opt: serde_json::Value, says: &str| {
        let e = deployed(n, opt.clone()).unwrap_err();
        assert_eq!(e.rule, "set-up");
        assert!(e.message.contains(says), "{opt}: {e}");
    };
    // Summary, "Doors": not on either side of the door between rooms 8 and 9.
    refused(1, json!({"a1": "door-1"}), "either side of door-1");
    refused(1, json!({"a1": "f4"}), "either side of door-1");
    refused(1, json!({"a1": "door-30"}), "'door-30' is not a door");
    refused(1, json!({"a1": "o8"}), "o8 is not in front of a door");
    refused(1, json!({"a1": "zz9"}), "'zz9' is neither a door");
    refused(
        1,
        json!({"a1": "door-14"}),
        "door-14 stands between two rooms",
    );
    refused(1, json!({"a1": "m23"}), "m23 is in the entry zone");
    refused(1, json!({"a1": "w18"}), "w18 is the Commander's square");
    // One Sentry to a door and to a square, whether named or on his post.
    refused(
        1,
        json!({"a1": "door-22", "a2": "q18"}),
        "a1 and a2 would both guard door-22",
    );
    refused(
        2,
        json!({"a1": "q20", "b2": "door-22"}),
        "a1 and b2 would both guard door-22",
    );
    refused(
        1,
        json!({"c1": "door-22"}),
        "'c1' is not a Sentry in this mission: a1, a2",
    );
    refused(1, json!({"a1": 22}), "a1 must be given a door");
    refused(1, json!(["door-22"]), "sentries must map Sentries");
}

// ---- Issue 19: the rules as the texts say ----

/// Puts a standing Guard `label` on `at` (the alarm raised).
fn guard_at(s: &mut State, label: &str, at: &str) -> usize {
    s.alarm = true;
    s.guards_in_box -= 1;
    s.defenders.push(Defender {
        kind: DefKind::Guard,
        label: label.into(),
        sq: Some(sq(at)),
        status: Status::Standing,
        facing: Dir::North,
        ready: Dir::North,
        alert: None,
        first_turn: None,
        captured_intel: vec![],
        captured_equipment: vec![],
        captured_weapons: vec![],
    });
    s.defenders.len() - 1
}

/// Takes the Sentries off the board and parks the Commander in room 8 (c3, its doors closed),
/// so that only the Guards act.
fn clear_defenders(s: &mut State) {
    for d in s.defenders.iter_mut().filter(|d| d.kind == DefKind::Sentry) {
        d.status = Status::Dead;
        d.sq = None;
    }
    commander_at(s, "c3", Dir::South);
}

#[test]
fn guards_the_route_does_not_have_to_be_direct_and_the_defender_chooses_it() {
    // Summary, "Guards": "The route does not have to be direct but he must finish his turn no
    // further from the target than he was at the start". Only the Guard acts: the Sentries are
    // dead and the Commander shut in room 8.
    const GUARD_AND_HARRIS: &str = "defender a1 off dead\ndefender a2 off dead\n\
        defender commander at c3 facing south\nintruder harris at b20 assault\n\
        alarm yes\nguard g1 at m19\nturn defender";
    let g1 = |s: &State| s.defenders.iter().find(|d| d.label == "g1").unwrap().sq;
    // l19 and l18 are as far from Harris as m19 (the way runs up column m): a side-step.
    let mut s = from_position(1, GUARD_AND_HARRIS);
    order(&mut s, "defender", "guard g1 move l19 l18", &[2, 6]).unwrap();
    assert_eq!(g1(&s), Some(sq("l18")), "the Defender's route");
    // Without a route he takes the shortest: up column m.
    let mut s = from_position(1, GUARD_AND_HARRIS);
    order(&mut s, "defender", "pass", &[2, 6]).unwrap();
    assert_eq!(g1(&s), Some(sq("m17")));
    // A route square further from the target is refused, with the square named, and no die
    // is drawn; so are a Guard not in play and a route longer than a d6.
    let mut s = from_position(1, GUARD_AND_HARRIS);
    let before = s.clone();
    let e = order(&mut s, "defender", "guard g1 move n20", &[2, 6]).unwrap_err();
    assert_eq!(e.rule, "Guards");
    assert!(e.message.contains("n20 is further from his target"), "{e}");
    assert_eq!(s, before, "a refused order changes nothing");
    let e = order(&mut s, "defender", "guard g7 move m18", &[]).unwrap_err();
    assert!(e.message.contains("no Guard g7"), "{e}");
    let e = order(
        &mut s,
        "defender",
        "guard g1 move m18 m17 m16 m15 m14 m13 m12",
        &[],
    )
    .unwrap_err();
    assert!(e.message.contains("at most a d6"), "{e}");
}

#[test]
fn guards_move_through_a_square_of_a_standing_friendly_agent_but_never_stop_there() {
    // Summary, "Occupied squares": "Agents may move through a square occupied by a standing
    // friendly agent".
    let mut s = mission(1);
    clear_defenders(&mut s);
    at(&mut s, 0, "b10", Mode::Assault);
    let g = guard_at(&mut s, "g1", "b16");
    // The Commander blocks the one-square corridor (and the Guard's LOS to Harris).
    s.defenders[0].status = Status::Standing;
    commander_at(&mut s, "b15", Dir::South);
    s.turn = Turn::Defender;
    // Roll 3: through the Commander to b14, where he sees Harris: he stops and shoots.
    order(
        &mut s,
        "defender",
        "guards chase harris",
        &[3, 1, 1, 1, 1, 1, 6],
    )
    .unwrap();
    assert_eq!(s.defenders[g].sq, Some(sq("b14")));
    // Roll 2 from b17: b16, then b15 is the Commander's: he stops on b16.
    s.defenders[g].sq = Some(sq("b17"));
    s.turn = Turn::Defender;
    order(&mut s, "defender", "pass", &[2, 6]).unwrap();
    assert_eq!(s.defenders[g].sq, Some(sq("b16")));
}

#[test]
fn guards_a_guard_inside_a_room_walks_to_its_closed_door_opens_it_and_goes_on() {
    // Summary, "Guards": "A Guard inside a room and adjacent to a closed door will always open
    // the door. This action ends that Guard's turn." Distance counts that way out.
    let mut s = mission(1);
    clear_defenders(&mut s);
    at(&mut s, 0, "o20", Mode::Assault);
    let g = guard_at(&mut s, "g1", "r16");
    s.turn = Turn::Defender;
    order(&mut s, "defender", "pass", &[2, 6]).unwrap();
    assert_eq!(s.defenders[g].sq, Some(sq("q18")), "beside door-22");
    assert!(s.door_open(door("door-22")), "opened from inside room 1");
    s.turn = Turn::Defender;
    order(&mut s, "defender", "pass", &[1, 1, 1, 1, 1, 1, 6]).unwrap();
    assert_eq!(s.defenders[g].sq, Some(sq("q20")), "out of the room");
}

#[test]
fn guards_on_the_entrance_square_with_no_assaulter_left_demobilise_and_the_alarm_ends() {
    let mut s = mission(1);
    clear_defenders(&mut s);
    at(&mut s, 0, "b10", Mode::Raiding);
    let g = guard_at(&mut s, "g1", "m21");
    let h = guard_at(&mut s, "g2", "l23");
    let boxed = s.guards_in_box;
    s.turn = Turn::Defender;
    order(&mut s, "defender", "pass", &[]).unwrap();
    assert_eq!(s.defenders[g].status, Status::Escaped);
    assert_eq!(
        s.defenders[h].status,
        Status::Escaped,
        "outside, at the entrance"
    );
    assert_eq!(s.guards_in_box, boxed + 2);
    assert!(!s.alarm, "no Guards: the alarm ends");
}

#[test]
fn guards_when_every_guard_is_dead_the_alarm_ends() {
    let mut s = mission(1);
    at(&mut s, 0, "b10", Mode::Assault);
    let g = guard_at(&mut s, "g1", "b20");
    s.defenders[g].status = Status::Dead;
    s.defenders[g].sq = None;
    s.turn = Turn::Defender;
    order(&mut s, "defender", "pass", &[6]).unwrap();
    assert!(!s.alarm);
}

/// Summary, "Guards": with the alarm raised and assaulters inside, a Guard on any square of the
/// stronghold gets on: he never stays where he is for more than two movement rolls in a row
/// that allow a move (one to open a door beside him, one more for a second door), until he
/// stands beside his target. Every door starts closed but the entrance.
#[test]
fn guards_pursuit_no_guard_stays_in_place_more_than_two_rolls_on_any_square() {
    let b = despatch_core::rules::hour_of_glory::board::board();
    let (mut starts, mut rolls) = (0, 0);
    for target in ["b20", "m15", "y8", "x20"] {
        for start in b.squares().filter(|q| b.is_square(*q)) {
            if start == sq(target) || start == sq("c3") {
                continue;
            }
            let mut s = mission(1);
            clear_defenders(&mut s);
            s.minutes = 10_000;
            s.start_minutes = 10_000;
            s.doors_open[door("door-25").index()] = true;
            at(&mut s, 0, target, Mode::Assault);
            let g = guard_at(&mut s, "g1", &start.to_string());
            starts += 1;
            let mut still = 0;
            let mut reached = false;
            for roll in (0..80).map(|k| 1 + k % 6) {
                let here = s.defenders[g].sq.unwrap();
                if senses::adjacent(&s, here, sq(target)) {
                    reached = true;
                    break;
                }
                s.turn = Turn::Defender;
                // The roll, then misses for any shot or REACT, and Harris's subversion.
                let mut dice = vec![roll];
                dice.extend([1; 12]);
                order(&mut s, "defender", "pass", &dice).unwrap();
                rolls += 1;
                let now = s.defenders[g].sq.unwrap();
                still = if now == here { still + 1 } else { 0 };
                assert!(
                    still <= 2,
                    "a Guard from {start} chasing {target} stays at {now} for {still} rolls"
                );
            }
            assert!(reached, "a Guard from {start} never reaches {target}");
        }
    }
    assert!(starts > 1000, "every square, four targets: {starts}");
    assert!(rolls > starts * 3, "{rolls} turns");
}

#[test]
fn sentries_a_sentry_attacked_and_not_killed_is_alerted_whatever_the_resist_roll() {
    // Harris in assault beside Sentry a1 (r20), the Defender's agents not counterattacking.
    const BESIDE_A1: &str =
        "intruder harris at q20 assault\nstanding defender: counterattack off\nturn harris";
    let mut s = from_position(1, BESIDE_A1);
    let a1 = defender(&s, "a1");
    // Harris fights with his knife (4 dice at 3+): no pass, no effect. Engaged or not, the
    // Sentry is alerted: he turns to Harris and his marker goes in front of him.
    order(&mut s, "harris", "fight r20", &[1, 1, 1, 1]).unwrap();
    assert_eq!(s.defenders[a1].alert, Some(sq("q20")));
    assert_eq!(s.defenders[a1].facing, Dir::West);
    // A light wound resisted in full: alerted all the same.
    let mut s = from_position(1, BESIDE_A1);
    order(&mut s, "harris", "fight r20", &[3, 1, 1, 1, 6]).unwrap();
    assert_eq!(s.defenders[a1].status, Status::Standing);
    assert!(s.defenders[a1].alert.is_some());
    // Knocked out: alerted, the marker beside him on Harris's side.
    let mut s = from_position(1, "intruder harris at q20 assault\nturn harris");
    order(&mut s, "harris", "fight r20", &[3, 1, 1, 1, 1]).unwrap();
    assert_eq!(s.defenders[a1].status, Status::Unconscious);
    assert_eq!(s.defenders[a1].alert, Some(sq("q20")));
}

#[test]
fn fighting_engagement_is_judged_at_the_start_of_the_turn() {
    // Summary, "Fighting": "If you are not engaged at the start of your turn, you may move
    // through squares adjacent to an enemy agent without being drawn into a fight."
    let mut s = mission(1);
    commander_at(&mut s, "m20", Dir::South);
    at(&mut s, 0, "l18", Mode::Assault);
    order(&mut s, "harris", "move l19 l20 l21", &[]).unwrap();
    assert_eq!(s.intruders[0].sq, Some(sq("l21")));
    // Engaged at the start, he may not move.
    s.turn = Turn::Intruder(0);
    let e = order(&mut s, "harris", "move l20", &[]).unwrap_err();
    assert_eq!(e.rule, "Fighting");
}

#[test]
fn react_is_tested_once_on_entering_a_watch_zone_not_on_every_square_of_it() {
    // Summary, "Evading and reacting": "An assaulter entering or starting his turn in a watch
    // zone must test to REACT". Sentry A1 on r20 watches row 20 eastwards.
    let mut s = mission(1);
    at(&mut s, 0, "x20", Mode::Assault);
    // Starting in the zone, unmoved: 3 dice, 3 passes: attack and move. Along the zone he does
    // not test again.
    assert_eq!(
        order(&mut s, "harris", "move w20 v20 u20", &[6, 6, 6]).unwrap(),
        3
    );
    assert_eq!(s.intruders[0].sq, Some(sq("u20")));
}

#[test]
fn react_a_score_of_one_allows_an_attack_but_not_a_move() {
    let mut s = mission(1);
    at(&mut s, 0, "x20", Mode::Assault);
    let e = order(&mut s, "harris", "move w20", &[6, 1, 1]).map(|_| ());
    // The check runs with the dice going his way; in play one pass stops him.
    assert!(e.is_ok());
    assert_eq!(s.intruders[0].sq, Some(sq("x20")), "score 1: no movement");
}

#[test]
fn winning_the_mission_timer_never_shows_below_zero_and_orders_after_the_end_say_so() {
    let mut s = from_position(1, "timer 1\nintruder harris at b10 assault\nturn defender");
    // Take time: 1 minute; Harris fails subversion (1): another, but the timer shows 0.
    order(&mut s, "defender", "pass", &[1]).unwrap();
    assert_eq!(s.minutes, 0);
    assert!(s.ended.is_some());
    let e = order(&mut s, "harris", "pass", &[]).unwrap_err();
    assert_eq!(e.rule, "game over");
    assert!(e.message.contains("the game is over"), "{e}");
    // Hiding with 2 minutes left and 3 to spend: 0, not -1.
    let mut s = from_position(1, "timer 2\nintruder harris at h18 assault\nturn harris");
    order(&mut s, "harris", "hide", &[1, 1, 1]).unwrap();
    assert_eq!(s.minutes, 0);
    assert!(s.ended.is_some());
}

#[test]
fn hide_counts_the_guards_in_the_stronghold_not_in_the_entry_zone() {
    let mut s = mission(1);
    at(&mut s, 0, "h18", Mode::Assault);
    guard_at(&mut s, "g1", "b10");
    guard_at(&mut s, "g2", "l23");
    s.turn = Turn::Intruder(0);
    // 3 minutes + 1 for the Guard inside; no pass: 4 minutes.
    order(&mut s, "harris", "hide", &[1, 1, 1]).unwrap();
    assert_eq!(s.minutes, 56);
}

#[test]
fn conceal_and_investigate_are_done_from_a_square_adjacent_to_the_marker() {
    let mut s = from_position(
        1,
        "defender a1 at q20 dead\nintruder harris at q20 raiding\nturn harris",
    );
    let e = order(&mut s, "harris", "conceal q20", &[]).unwrap_err();
    assert!(e.message.contains("q20 is not adjacent to q20"), "{e}");
    at(&mut s, 0, "p20", Mode::Raiding);
    order(&mut s, "harris", "conceal q20", &[6]).unwrap();
    assert!(s.markers.is_empty());
    // The Commander on the marker's square must step off it first.
    let commander_at = |q: &str| {
        from_position(
            1,
            &format!("marker alert w20\ndefender commander at {q} facing west\nturn defender"),
        )
    };
    let mut s = commander_at("w20");
    let e = order(&mut s, "defender", "commander investigate w20", &[]).unwrap_err();
    assert_eq!(e.rule, "Investigate");
    let mut s = commander_at("v20");
    order(&mut s, "defender", "commander investigate w20", &[]).unwrap();
    assert!(s.markers.is_empty());
}

#[test]
fn setup_sentries_face_away_from_the_doors_they_guard_the_default_posts_too() {
    use despatch_core::rules::hour_of_glory::board::{board, faces_away};
    let b = board();
    assert_eq!(b.posts.len(), 8);
    for p in &b.posts {
        let d = &b.doors[p.door.index()];
        assert!(d.adjacent.contains(&p.sq), "{} guards {}", p.sq, p.door);
        assert!(faces_away(d.at, p.sq, p.facing), "{} faces away", p.sq);
    }
    let s = mission(3);
    for d in s.defenders.iter().filter(|d| d.kind == DefKind::Sentry) {
        let p = b.posts.iter().find(|p| Some(p.sq) == d.sq).unwrap();
        assert_eq!((d.facing, d.ready), (p.facing, p.facing));
    }
}

#[test]
fn setup_each_intruder_places_his_figure_on_one_of_the_four_entry_squares() {
    let with = |entry: serde_json::Value| {
        let setup = Setup {
            game_id: "entry".into(),
            scenario: "mission".into(),
            options: json!({ "entry": entry }),
            seats: SeatDef::named_by_id(&["defender", "harris", "link"]).unwrap(),
        };
        HourOfGlory.setup(&setup, &mut hidden_stream(&[7; 32], "entry", 0))
    };
    let s = with(json!({"link": "m24"})).unwrap();
    assert_eq!(s.intruders[1].sq, Some(sq("m24")));
    assert_eq!(s.intruders[0].sq, Some(sq("l23")), "the first free square");
    let s = with(json!({"harris": "n23", "link": "l23"})).unwrap();
    assert_eq!(s.intruders[0].sq, Some(sq("n23")));
    for (bad, says) in [
        (json!({"link": "m21"}), "not one of the 4 squares"),
        (json!({"harris": "m24", "link": "m24"}), "both start on m24"),
        (json!({"volkov": "m24"}), "Volkov is not on this mission"),
        (json!("m24"), "entry must name squares by agent"),
    ] {
        let e = with(bad.clone()).unwrap_err();
        assert!(e.message.contains(says), "{bad}: {e}");
    }
}

#[test]
fn skill_grades_ace_passes_on_a_roll_of_2() {
    // Manual, "Skill grades": Ace (2+). Link is an Ace at Technique when raiding.
    let mut s = mission(2);
    assert_eq!(s.intruders[1].profile().technique.0, 2);
    at(&mut s, 1, "b17", Mode::Raiding);
    order(&mut s, "link", "breach door-19 take-chance", &[2]).unwrap();
    assert!(s.door_open(door("door-19")));
    at(&mut s, 1, "b17", Mode::Raiding);
    s.doors_open[door("door-19").index()] = false;
    order(&mut s, "link", "breach door-19 take-chance", &[1]).unwrap();
    assert!(!s.door_open(door("door-19")));
}

/// A table that records every line, with scripted dice (1 once they run out).
struct Record {
    dice: VecDeque<u32>,
    lines: Vec<String>,
}

impl despatch_core::rules::hour_of_glory::skills::Table for Record {
    fn d6(&mut self, _actor: bool) -> u32 {
        self.dice.pop_front().unwrap_or(1)
    }
    fn say(&mut self, text: std::fmt::Arguments<'_>) {
        self.lines.push(text.to_string());
    }
    fn say_to(&mut self, _seats: &[Seat], text: String) {
        self.lines.push(text);
    }
    fn lines(&self) -> bool {
        true
    }
}

/// Runs one side's order straight through the rules with a recording table: the lines it says.
fn lines_of(s: &mut State, text: &str, dice: &[u32]) -> Vec<String> {
    use despatch_core::rules::hour_of_glory::order::{parse_defender, parse_intruder, Command};
    use despatch_core::rules::hour_of_glory::{defender, intruder};
    let mut t = Record {
        dice: dice.iter().copied().collect(),
        lines: Vec::new(),
    };
    match s.turn {
        Turn::Intruder(i) => {
            let Command::Intruder { steps, .. } = parse_intruder(text).unwrap() else {
                unreachable!()
            };
            intruder::run(s, &mut t, i, &steps).unwrap();
        }
        Turn::Defender => {
            let Command::Defender { steps, .. } = parse_defender(text).unwrap() else {
                unreachable!()
            };
            defender::run(s, &mut t, &steps).unwrap();
        }
    }
    t.lines
}

#[test]
fn lines_subversion_takes_its_minute_before_the_timer_is_printed() {
    let mut s = mission(1);
    at(&mut s, 0, "b10", Mode::Assault);
    s.turn = Turn::Defender;
    let lines = lines_of(&mut s, "pass", &[1]);
    let take = lines.iter().find(|l| l.starts_with("Take time")).unwrap();
    assert_eq!(s.minutes, 58);
    assert!(take.ends_with("58 minutes remain"), "{take}");
    assert!(take.contains("Harris fails subversion (1)"), "{take}");
}

#[test]
fn lines_a_coup_de_grace_that_kills_says_so() {
    let mut s = mission(1);
    let a1 = defender(&s, "a1");
    s.defenders[a1].status = Status::Unconscious;
    at(&mut s, 0, "q20", Mode::Raiding);
    let lines = lines_of(&mut s, "coup-de-grace r20", &[6, 1, 1]);
    assert_eq!(s.defenders[a1].status, Status::Dead);
    assert!(
        lines.iter().any(|l| l.contains("The victim is dead")
            && l.contains("Sentry a1")
            && l.contains("r20")),
        "{lines:?}"
    );
}

#[test]
fn lines_markers_squares_use_square_names_in_the_view() {
    let mut s = mission(1);
    s.markers.push(Marker::new(sq("r20"), MarkerKind::Alert));
    let v = HourOfGlory.view(&s, &Viewer::Everyone);
    assert_eq!(v["markers"][0]["sq"], "r20");
}

#[test]
fn lines_not_carried_out_never_ends_with_an_empty_list() {
    use despatch_core::engine::replay;
    // The manual's first round, then Link's sneak-attack on Sentry A fails as his last clause:
    // his turn ends, and nothing of the order is left to report as not carried out.
    let script = "harris: breach door-25 take-chance; move m23 m21 l20\n\
                  link: sneak spend-time; move m21 n20 o20 p20\n\
                  defender: commander open door-23; commander move w20 x20 y20 y19 y18\n\
                  harris: breach door-24\n\
                  link: move q20; sneak-attack r20\n";
    let setup = Setup {
        game_id: "lines".into(),
        scenario: "mission".into(),
        options: json!({}),
        seats: SeatDef::named_by_id(&["defender", "harris", "link"]).unwrap(),
    };
    let dice = vec![5, 5, 6, 1, 5, 2, 6, 5, 6, 4, 1, 1, 1];
    let t = replay::run(
        despatch_core::rules::find("hour-of-glory").unwrap(),
        setup,
        script,
        dice,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let link = t.steps.last().unwrap();
    assert!(
        link.lines.iter().any(|l| l.text.contains("his turn ends")),
        "{}",
        replay::render(&t)
    );
    for step in &t.steps {
        if let Some(u) = &step.unexecuted {
            assert!(!u.rest.is_empty(), "{}", replay::render(&t));
        }
    }
}

#[test]
fn guards_the_bot_names_routes_the_rules_accept() {
    // The random-legal-move bot also plays Guards' routes (summary, "Guards": "The route does
    // not have to be direct"), and the rules accept them.
    let mut accepted = 0;
    for seed in 0..200u64 {
        let mut s = mission(1);
        clear_defenders(&mut s);
        at(&mut s, 0, "b20", Mode::Assault);
        guard_at(&mut s, "g1", "m19");
        s.turn = Turn::Defender;
        let mut x = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mut rng = |n: usize| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((x >> 33) as usize) % n.max(1)
        };
        let seat = Seat::parse("defender").unwrap();
        let Some(cmd) = HourOfGlory.random_command(&s, &seat, &mut rng) else {
            continue;
        };
        let text = HourOfGlory.describe(&cmd);
        if text.contains("guard g1 move") {
            order(&mut s, "defender", &text, &[6; 12]).unwrap_or_else(|e| panic!("{text}: {e}"));
            accepted += 1;
        }
    }
    assert!(accepted > 0, "the bot never named a route");
}

// ---- Check, then change (STYLE.md habit 1; issue 19) ----

#[test]
fn an_order_is_checked_clause_by_clause_against_the_state_its_earlier_clauses_plan() {
    // Each clause is checked before any die against the state as the clauses before it will
    // have left it: after "breach door-19" the door is open on the order's planned course.
    let mut s = mission(1);
    at(&mut s, 0, "b17", Mode::Raiding);
    let before = s.clone();
    // A clause that fits no course of the order is refused, with the rule and the square named,
    // and no die is drawn.
    let e = order(
        &mut s,
        "harris",
        "breach door-19 take-chance; move d16",
        &[6],
    )
    .unwrap_err();
    assert_eq!(e.rule, "Movement");
    assert!(e.message.contains("d16 is not adjacent to b17"), "{e}");
    assert_eq!(s, before, "a refused order changes nothing");
    // Through the door the breach opens: accepted, and carried out when the breach passes.
    let drawn = order(
        &mut s,
        "harris",
        "breach door-19 take-chance; move d17",
        &[6],
    )
    .unwrap();
    assert_eq!(drawn, 1);
    assert!(s.door_open(door("door-19")));
    assert_eq!(s.intruders[0].sq, Some(sq("d17")));
    // When the breach fails in play the door stays closed and the move is not carried out.
    let mut s = before.clone();
    let drawn = order(
        &mut s,
        "harris",
        "breach door-19 take-chance; move d17",
        &[1],
    )
    .unwrap();
    assert_eq!(drawn, 1);
    assert!(!s.door_open(door("door-19")));
    assert_eq!(
        s.intruders[0].sq,
        Some(sq("b17")),
        "the move was not carried out"
    );
}

#[test]
fn an_order_of_the_commander_is_checked_against_the_doors_his_earlier_clauses_open() {
    // The Commander starts on w18 in room 3 behind door-23 (summary, "The Commander": he opens
    // any door as his action).
    let mut s = mission(1);
    s.turn = Turn::Defender;
    let before = s.clone();
    let e = order(&mut s, "defender", "commander move w20", &[6]).unwrap_err();
    assert_eq!(e.rule, "Doors");
    assert!(
        e.message.contains("door-23 between w18 and w20 is closed"),
        "{e}"
    );
    assert_eq!(s, before, "a refused order changes nothing");
    order(
        &mut s,
        "defender",
        "commander open door-23; commander move w20",
        &[3],
    )
    .unwrap();
    assert!(s.door_open(door("door-23")));
    assert_eq!(s.defenders[0].sq, Some(sq("w20")));
    // One action a turn: closing the door after a square beyond it is a second action, refused
    // before the movement roll is drawn.
    let mut s = before.clone();
    let e = order(
        &mut s,
        "defender",
        "commander open door-23; commander move w20 x20; commander close door-23",
        &[3],
    )
    .unwrap_err();
    assert_eq!(e.rule, "Actions", "{e}");
    assert_eq!(s, before, "a refused order changes nothing");
}

#[test]
fn guards_each_guard_moves_towards_the_assaulter_the_defender_chooses_for_him() {
    // Summary, "Guards": "a Guard must move towards one of them of your choice" — a choice for
    // each Guard (`guard g1 chase harris`), or one for all (`guards chase link`) that a Guard's
    // own target overrides.
    let fresh = || {
        let s = from_position(
            2,
            "defender a1 off dead\ndefender a2 off dead\ndefender b1 off dead\n\
             defender b2 off dead\ndefender b3 off dead\ndefender commander at c3 facing south\n\
             intruder harris at b20 assault\nintruder link at y20 assault\n\
             alarm yes\nguard g1 at m19\nguard g2 at m18\nturn defender",
        );
        let (g1, g2) = (defender(&s, "g1"), defender(&s, "g2"));
        (s, g1, g2)
    };
    let dist = |s: &State, from: Sq, to: &str| senses::dist_at(&senses::pursuit(s, sq(to)), from);
    let dice = [[2].as_slice(), &[1; 30]].concat();
    for text in [
        "guard g1 chase harris; guard g2 chase link",
        "guards chase link; guard g1 chase harris",
    ] {
        let (mut s, g1, g2) = fresh();
        let start = s.clone();
        order(&mut s, "defender", text, &dice).unwrap_or_else(|e| panic!("{text}: {e}"));
        let (a1, a2) = (s.defenders[g1].sq.unwrap(), s.defenders[g2].sq.unwrap());
        assert!(
            dist(&start, a1, "b20") < dist(&start, sq("m19"), "b20"),
            "{text}: g1 closes on Harris, at {a1}"
        );
        assert!(
            dist(&start, a2, "y20") < dist(&start, sq("m18"), "y20"),
            "{text}: g2 closes on Link, at {a2}"
        );
    }
    // Without a choice of his own, a Guard takes the Guards' target.
    let (mut s, _, g2) = fresh();
    let start = s.clone();
    order(
        &mut s,
        "defender",
        "guards chase harris; guard g1 chase link",
        &dice,
    )
    .unwrap();
    let a2 = s.defenders[g2].sq.unwrap();
    assert!(
        dist(&start, a2, "b20") < dist(&start, sq("m18"), "b20"),
        "g2 at {a2}"
    );
    // A Guard's route is checked against his own target.
    let (mut s, g1, _) = fresh();
    order(
        &mut s,
        "defender",
        "guard g1 chase link; guard g1 move m20",
        &dice,
    )
    .unwrap();
    assert_eq!(s.defenders[g1].sq, Some(sq("m20")));
    let (mut s, _, _) = fresh();
    let before = s.clone();
    let e = order(
        &mut s,
        "defender",
        "guard g1 chase harris; guard g1 move m20",
        &dice,
    )
    .unwrap_err();
    assert!(e.message.contains("m20 is further from his target"), "{e}");
    // A Guard not in play, an agent not on the mission, two targets for one Guard: refused,
    // nothing changed, no die drawn.
    for (text, says) in [
        ("guard g7 chase harris", "no Guard g7 in play"),
        ("guard g1 chase volkov", "Volkov is not on this mission"),
        (
            "guard g1 chase harris; guard g1 chase link",
            "Guard g1 has one target a turn",
        ),
    ] {
        let e = order(&mut s, "defender", text, &[]).unwrap_err();
        assert_eq!(e.rule, "Guards", "{text}");
        assert!(e.message.contains(says), "{text}: {e}");
        assert_eq!(s, before, "{text}");
    }
}

/// Summary, "Guards" (issue 39): "A Guard inside a room and adjacent to a closed door will
/// always open the door. This action ends that Guard's turn." A Guard in room 9 beside its
/// door-2, the assaulter he pursues behind another closed door of the room (at f4): the Guards'
/// roll is made (3), but he opens the door beside him and does not move, though that door is
/// not on his way (decision: the text's "always" holds whatever the target,
/// docs/rules/hour-of-glory.md "Guards' movement").
#[test]
fn guards_a_guard_beside_a_closed_door_of_his_room_opens_it_and_does_not_move() {
    let position = "defender a1 off dead\ndefender a2 off dead\n\
        defender commander at c3 facing south\nintruder harris at f4 assault\n\
        alarm yes\nguard g1 at l3\nturn defender";
    let mut s = from_position(1, position);
    let toward_harris: Vec<_> = despatch_core::rules::hour_of_glory::board::board()
        .doors
        .iter()
        .filter(|d| d.sides.contains(&sq("f4")))
        .map(|d| d.id)
        .collect();
    assert!(!toward_harris.is_empty() && toward_harris.iter().all(|d| !s.door_open(*d)));
    order(&mut s, "defender", "pass", &[3, 1, 1, 1, 1, 1, 1]).unwrap();
    let g1 = s.defenders.iter().find(|d| d.label == "g1").unwrap();
    assert_eq!(g1.sq, Some(sq("l3")), "he does not move");
    assert!(s.door_open(door("door-2")), "he opens the door beside him");
    assert!(toward_harris.iter().all(|d| !s.door_open(*d)));
}
