//! Hour of Glory's orders by pointing for the Defender (`pointing.rs`; docs/web.md, "Orders by
//! pointing"): each of his figures — the Commander, every Sentry, every Guard — offers the orders
//! of the summary's section for it that name a square, a door or an enemy, each at the place a
//! tap on the board makes it. Every test plays every order offered (on a copy, with scripted
//! dice) to show the rules accept it, and checks the places offered against the section.

use std::collections::VecDeque;

use despatch_core::engine::board::Pointed;
use despatch_core::engine::dice::hidden_stream;
use despatch_core::engine::ruleset::{Ctx, DiceSource, RuleError, Rules, Seat, SeatDef, Setup};
use despatch_core::rules::hour_of_glory::board::Sq;
use despatch_core::rules::hour_of_glory::state::State;
use despatch_core::rules::hour_of_glory::{senses, HourOfGlory};
use serde_json::json;

fn sq(t: &str) -> Sq {
    Sq::parse(t).unwrap_or_else(|| panic!("{t} is a square"))
}

fn seat(name: &str) -> Seat {
    Seat::parse(name).unwrap()
}

/// The mission with one Intruder (Harris), set from a position (docs/rules/hour-of-glory.md,
/// "Positions (despatch replay)"). Sentry a1's post is r20 facing east, a2's m10 facing north.
fn position(text: &str) -> State {
    let setup = Setup {
        game_id: "pointing".into(),
        scenario: "mission".into(),
        options: json!({}),
        seats: SeatDef::named_by_id(&["defender", "harris"]).unwrap(),
    };
    HourOfGlory
        .position(&setup, text, &mut hidden_stream(&[7; 32], "pointing", 0))
        .unwrap_or_else(|e| panic!("{e}"))
        .state
}

/// Plays `text` as the Defender's order on a copy of `s`, with plenty of scripted dice.
fn play(s: &State, text: &str) -> Result<State, RuleError> {
    let mut s = s.clone();
    let cmd = HourOfGlory.parse(&s, &seat("defender"), text)?;
    let mut dice: VecDeque<u32> = std::iter::repeat_n(3, 200).collect();
    let mut ctx = Ctx::new(DiceSource::Scripted(&mut dice), None);
    HourOfGlory.apply(&mut s, &seat("defender"), &cmd, &mut ctx)?;
    Ok(s)
}

/// The Defender's pointing table; each order in it parses and is played without refusal, and
/// no other seat has one (it is not their turn).
fn defender_pointing(s: &State) -> Vec<Pointed> {
    let pointed = HourOfGlory.pointing(s, &seat("defender"));
    assert!(
        HourOfGlory.pointing(s, &seat("harris")).is_empty(),
        "the Intruder is offered orders in the Defender's turn"
    );
    for p in &pointed {
        play(s, &p.order).unwrap_or_else(|e| panic!("{p:?} is refused: {e}"));
    }
    pointed
}

/// The orders offered for `piece` at `cell`.
fn at<'a>(pointed: &'a [Pointed], piece: &str, cell: &str) -> Vec<&'a str> {
    pointed
        .iter()
        .filter(|p| p.piece == piece && p.cell == cell)
        .map(|p| p.order.as_str())
        .collect()
}

fn of<'a>(pointed: &'a [Pointed], piece: &str) -> Vec<&'a Pointed> {
    pointed.iter().filter(|p| p.piece == piece).collect()
}

/// Sentries dead, the Commander shut in room 8: only the figures a test names act.
const QUIET: &str =
    "defender a1 off dead\ndefender a2 off dead\ndefender commander at c3 facing south\n";

#[test]
fn sentries_a_sentry_shoots_an_assaulter_in_his_line_of_sight_by_pointing_at_him() {
    // Summary, "Sentries": FIGHT or SHOOT; "Combat: Shooting": a clear LOS, the target not
    // engaged. Harris two squares in front of a1 at r20: a shot, no fight.
    let s = position(
        "defender commander at c3 facing south\nintruder harris at t20 assault\nturn defender",
    );
    let pointed = defender_pointing(&s);
    assert_eq!(at(&pointed, "a1", "t20"), ["sentry a1 shoot t20"]);
    // A Sentry never moves: his only places are the assaulters he may attack.
    assert!(of(&pointed, "a1").iter().all(|p| p.cell == "t20"));
    // a2 at m10 sees nobody.
    assert!(of(&pointed, "a2").is_empty(), "{pointed:?}");
}

#[test]
fn sentries_a_sentry_fights_an_adjacent_assaulter_and_may_not_shoot_him_engaged() {
    // Summary, "Fighting": adjacent agents are engaged; an engaged target may not be shot.
    let s = position(
        "defender commander at c3 facing south\nintruder harris at s20 assault\nturn defender",
    );
    let pointed = defender_pointing(&s);
    assert_eq!(at(&pointed, "a1", "s20"), ["sentry a1 fight s20"]);
    let after = play(&s, "sentry a1 fight s20").unwrap();
    assert_ne!(after, s, "the fight was carried out");
}

#[test]
fn sentries_raiders_are_not_offered_as_targets() {
    // Summary, "The Intruders": raiders are hidden and cannot be attacked.
    let s = position(
        "defender commander at c3 facing south\nintruder harris at s20 raiding\nturn defender",
    );
    let pointed = defender_pointing(&s);
    assert!(of(&pointed, "a1").is_empty(), "{pointed:?}");
    assert!(pointed.iter().all(|p| p.cell != "s20"), "{pointed:?}");
}

const GUARD_AND_HARRIS: &str =
    "intruder harris at b20 assault\nalarm yes\nguard g1 at m19\nturn defender";

#[test]
fn guards_a_guards_route_is_pointed_at_and_every_square_is_no_further_from_his_target() {
    // Summary, "Guards": "The route does not have to be direct but he must finish his turn no
    // further from the target than he was at the start, and cannot step on the same square
    // twice" — at most a d6 of squares.
    let s = position(&format!("{QUIET}{GUARD_AND_HARRIS}"));
    let pointed = defender_pointing(&s);
    let dist = senses::pursuit(&s, sq("b20"));
    let start = senses::dist_at(&dist, sq("m19"));
    let moves: Vec<&Pointed> = of(&pointed, "g1")
        .into_iter()
        .filter(|p| p.order.starts_with("guard g1 move "))
        .collect();
    assert!(!moves.is_empty(), "{pointed:?}");
    for p in &moves {
        let route: Vec<Sq> = p.order["guard g1 move ".len()..]
            .split(' ')
            .map(sq)
            .collect();
        assert_eq!(route.last().unwrap().to_string(), p.cell, "{p:?}");
        assert!(route.len() <= 6, "{p:?}");
        for q in &route {
            assert!(senses::dist_at(&dist, *q) <= start, "{p:?}: {q}");
        }
    }
    // The side-step of the rules test (l18, as far from Harris as m19) and the way up column m
    // are offered; n20, further from him, is not.
    let cells: Vec<&str> = moves.iter().map(|p| p.cell.as_str()).collect();
    for near in ["l19", "l18", "m18", "m17", "m14"] {
        assert!(cells.contains(&near), "{near} not in {cells:?}");
    }
    assert!(!cells.contains(&"n20"), "{cells:?}");
    // The square pointed at is where the Guard stands when the roll (3, scripted) is his
    // route's length.
    let route = at(&pointed, "g1", "m16")[0];
    assert_eq!(route.split(' ').count(), 3 + 3, "{route}");
    let after = play(&s, route).unwrap();
    let g1 = after.defenders.iter().find(|d| d.label == "g1").unwrap();
    assert_eq!(g1.sq, Some(sq("m16")), "{route}");
}

#[test]
fn guards_a_guard_chases_the_assaulter_pointed_at() {
    // Summary, "Guards": "a Guard must move towards one of them of your choice".
    let s = position(&format!(
        "{QUIET}intruder harris at b20 assault\nalarm yes\nguard g1 at m19\nguard g2 at m18\nturn defender"
    ));
    let pointed = defender_pointing(&s);
    assert_eq!(at(&pointed, "g1", "b20"), ["guard g1 chase harris"]);
    assert_eq!(at(&pointed, "g2", "b20"), ["guard g2 chase harris"]);
}

#[test]
fn guards_a_guard_who_will_not_move_is_offered_nothing() {
    // Summary, "Guards": engaged, he fights; "A Guard inside a room and adjacent to a closed
    // door will always open the door. This action ends that Guard's turn."
    let engaged = position(&format!(
        "{QUIET}intruder harris at m20 assault\nalarm yes\nguard g1 at m19\nturn defender"
    ));
    assert!(of(&defender_pointing(&engaged), "g1").is_empty());
    // j20 is in room 2, beside the closed door at k20.
    let in_room = position(&format!(
        "{QUIET}intruder harris at b20 assault\nalarm yes\nguard g1 at j20\nturn defender"
    ));
    assert!(of(&defender_pointing(&in_room), "g1").is_empty());
}

#[test]
fn the_commander_fights_or_shoots_an_assaulter_and_investigates_a_marker_by_pointing() {
    // Summary, "The Commander": FIGHT (adjacent), SHOOT (clear LOS), INVESTIGATE from a square
    // adjacent to the marker; his facing is chosen at his own square. Engaged with Harris at
    // v20 ("Fighting": engaged agents may not move), he may only fight him, and face.
    let engaged = position(
        "defender a1 off dead\ndefender a2 off dead\ndefender commander at w20 facing west\n\
         intruder harris at v20 assault\nmarker alert x20\nasi 1\nturn defender",
    );
    let pointed = defender_pointing(&engaged);
    assert_eq!(at(&pointed, "commander", "v20"), ["commander fight v20"]);
    let mut faces = at(&pointed, "commander", "w20");
    faces.sort();
    assert_eq!(
        faces,
        [
            "commander face east",
            "commander face north",
            "commander face south",
            "commander face west"
        ]
    );
    assert_eq!(pointed.len(), 5, "{pointed:?}");
    // Harris three squares off: a shot; the marker beside him: a walk on to it, or INVESTIGATE.
    let far = position(
        "defender a1 off dead\ndefender a2 off dead\ndefender commander at w20 facing west\n\
         intruder harris at t20 assault\nmarker alert x20\nasi 1\nturn defender",
    );
    let pointed = defender_pointing(&far);
    assert_eq!(at(&pointed, "commander", "t20"), ["commander shoot t20"]);
    // A marker is no figure: he may walk on to it, or investigate it from beside it.
    assert_eq!(
        at(&pointed, "commander", "x20"),
        ["commander move x20", "commander investigate x20"]
    );
}

#[test]
fn raise_alarm_the_commander_names_the_first_guards_square_by_pointing_at_it() {
    // Summary, "Raise alarm": an assaulter inside and an alert marker on the ASI; a Guard comes
    // into play for each marker, in an unexplored room or the entry zone.
    const ALARM: &str = "defender a1 off dead\ndefender a2 off dead\n\
        defender commander at w20 facing west\nintruder harris at t20 assault\nturn defender\n";
    let s = position(&format!("{ALARM}asi 1"));
    let pointed = defender_pointing(&s);
    let alarms: Vec<&str> = pointed
        .iter()
        .filter(|p| p.order.starts_with("commander alarm "))
        .map(|p| p.cell.as_str())
        .collect();
    // The entry zone and a square of room 6 (unexplored); no corridor square.
    assert_eq!(at(&pointed, "commander", "m23"), ["commander alarm m23"]);
    assert!(alarms.contains(&"p11"), "{alarms:?}");
    assert!(!alarms.contains(&"p20"), "{alarms:?}");
    let after = play(&s, "commander alarm m23").unwrap();
    let g1 = after.defenders.iter().find(|d| d.label == "g1").unwrap();
    assert_eq!(g1.sq.map(|q| q.to_string()).as_deref(), Some("m23"));
    // No alert marker on the ASI: no alarm to point at.
    let none = position(&format!("{ALARM}asi 0"));
    assert!(defender_pointing(&none)
        .iter()
        .all(|p| !p.order.starts_with("commander alarm")));
}

#[test]
fn pointing_belongs_to_the_seat_to_act_only() {
    // Summary, "Sequence of play": the Intruders' turns, then the Defender's. In an Intruder's
    // turn the Defender has nothing to point at, and the Intruder only his own agent.
    let s = position(
        "defender commander at c3 facing south\nintruder harris at t20 assault\nturn harris",
    );
    assert!(HourOfGlory.pointing(&s, &seat("defender")).is_empty());
    let harris = HourOfGlory.pointing(&s, &seat("harris"));
    assert!(!harris.is_empty());
    assert!(harris.iter().all(|p| p.piece == "harris"), "{harris:?}");
}
