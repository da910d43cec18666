//! Positions set by hand for `despatch replay`, per ruleset (docs/rules/<game>.md, "Positions
//! (despatch replay)"): a position read and checked, a bad one refused naming its line, and a
//! rules example of the rules tests played again from a position, shorter.

use std::sync::Arc;

use despatch_core::engine::dice::hidden_stream;
use despatch_core::engine::position::PositionError;
use despatch_core::engine::replay::{self, Transcript};
use despatch_core::engine::ruleset::{GameState, Ruleset, SeatDef, Setup};
use despatch_core::rules;
use serde_json::json;

fn setup(scenario: &str, seats: &[&str]) -> Setup {
    Setup {
        game_id: "positions".into(),
        scenario: scenario.into(),
        options: json!({}),
        seats: SeatDef::named_by_id(seats).unwrap(),
    }
}

fn ruleset(id: &str) -> Arc<dyn Ruleset> {
    rules::find(id).unwrap()
}

fn position(
    id: &str,
    scenario: &str,
    seats: &[&str],
    text: &str,
) -> Result<GameState, PositionError> {
    ruleset(id)
        .position(
            &setup(scenario, seats),
            text,
            &mut hidden_stream(&[0; 32], "positions", 0),
        )
        .map(|(state, _)| state)
}

/// A script from its position block, every step standing.
fn replay(id: &str, scenario: &str, seats: &[&str], script: &str, dice: &[u32]) -> Transcript {
    replay::run(ruleset(id), setup(scenario, seats), script, dice.to_vec())
        .unwrap_or_else(|e| panic!("{e}"))
}

fn lines(t: &Transcript) -> Vec<String> {
    t.steps
        .iter()
        .flat_map(|s| s.lines.iter().map(|l| l.text.clone()))
        .collect()
}

#[test]
fn every_ruleset_reads_an_empty_position_as_its_set_up() {
    let cases: [(&str, &str, &[&str]); 5] = [
        ("open-table", "default", &["alice", "bob"]),
        ("for-honor-and-glory", "drill", &["american", "british"]),
        ("hour-of-glory", "mission", &["defender", "harris"]),
        (
            "searching-for-glory",
            "danube-1809",
            &["louis", "davout", "charles", "lannes"],
        ),
        (
            "where-eagles-dare",
            "a-ride-in-the-country",
            &["allied", "german"],
        ),
    ];
    for (id, scenario, seats) in cases {
        let rs = ruleset(id);
        assert!(
            !rs.position_format().is_empty(),
            "{id} documents its format"
        );
        let set_up = rs
            .setup(
                &setup(scenario, seats),
                &mut hidden_stream(&[0; 32], "positions", 0),
            )
            .unwrap();
        let read = position(id, scenario, seats, "# nothing changed\n\n").unwrap();
        assert_eq!(rs.state_json(&read), rs.state_json(&set_up), "{id}");
        let e = position(id, scenario, seats, "\n\nno-such-statement 1")
            .err()
            .expect("refused");
        assert_eq!(e.line, 3, "{id}: {e}");
        assert!(e.message.contains("unknown statement"), "{id}: {e}");
    }
}

// The open table

#[test]
fn open_table_a_position_sets_the_turn_resignations_proposals_and_notes() {
    use despatch_core::rules::open_table::State;
    let text = "to-act carol\nmoves 7\nresigned bob\nproposal alice win alice\n\
                note alice revealed: north\nnote carol sealed: south";
    let s = position("open-table", "default", &["alice", "bob", "carol"], text).unwrap();
    let s: &State = s.downcast().unwrap();
    assert_eq!((s.to_act, s.moves), (2, 7));
    assert_eq!(s.resigned.len(), 1);
    assert_eq!(s.notes[0].revealed.as_deref(), Some("north"));
    assert_eq!(s.notes[1].revealed, None);
    assert!(s.finished.is_none(), "carol has not proposed");
}

#[test]
fn open_table_a_bad_position_is_refused_naming_its_line() {
    let seats = ["alice", "bob"];
    let e = position("open-table", "default", &seats, "moves 2\nto-act zoe")
        .err()
        .expect("refused");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("'zoe' is not a seat"), "{e}");
    let e = position("open-table", "default", &seats, "resigned bob\nto-act bob")
        .err()
        .expect("refused");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("resigned"), "{e}");
}

#[test]
fn open_table_a_note_sealed_in_a_position_is_revealed_by_its_owner() {
    // docs/rules/open-table.md: a note is sealed now and revealed later.
    let t = replay(
        "open-table",
        "default",
        &["alice", "bob"],
        "position:\n  to-act bob\n  note alice sealed: the ambush is at the ford\n\
         bob: roll 2d6 to cross\nalice: reveal 1",
        &[3, 4],
    );
    let l = lines(&t);
    assert!(l.iter().any(|x| x.contains("3 + 4 = 7")), "{l:?}");
    assert!(
        l.contains(&"alice reveals note 1: the ambush is at the ford".to_owned()),
        "{l:?}"
    );
}

// For Honor and Glory

#[test]
fn for_honor_and_glory_a_position_places_units_and_sets_the_turn() {
    use despatch_core::rules::for_honor_and_glory::State;
    let text = "turn 3\nactive british\nvp american 2\nleaders-lost british 1\n\
                unit 1: american regular C5 2/4 column acted\nunit UK light: british light C4\n\
                gone 2\nunit 11: american leader C5";
    let s = position(
        "for-honor-and-glory",
        "drill",
        &["american", "british"],
        text,
    )
    .unwrap();
    let b = &s.downcast::<State>().unwrap().battle;
    assert_eq!((b.turn, b.active.name()), (3, "british"));
    assert_eq!((b.sides[0].vp, b.sides[1].leaders_lost), (2, 1));
    let u = serde_json::to_value(b.units[0]).unwrap();
    assert_eq!(u, "american regular C5 2/4 column acted");
    assert_eq!(
        b.units[10].hex.to_string(),
        "C5",
        "a leader stacks with his unit"
    );
    assert!(b.units[1].gone);
    assert_eq!(b.units[15].hex.to_string(), "C4");
}

#[test]
fn for_honor_and_glory_a_bad_position_is_refused_naming_its_line() {
    let seats = ["american", "british"];
    let bad = |text: &str| {
        position("for-honor-and-glory", "drill", &seats, text)
            .err()
            .expect("refused")
    };
    // 4.3: two infantry units in one hex; the line that placed the second is named.
    let e = bad("turn 2\nunit 1: american regular C5\nunit 2: american regular C5");
    assert_eq!(e.line, 3, "{e}");
    assert!(e.message.contains("4.3"), "{e}");
    // 3.4.1: an elite is 4 MP in size.
    let e = bad("unit US elite: american elite E11 2/3");
    assert_eq!(e.line, 1);
    assert!(e.message.contains("3.4"), "{e}");
    // A position moves the scenario's units; it does not make new ones.
    let e = bad("\nunit 1: british regular A11");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("american regular"), "{e}");
    let e = bad("unit 1: american regular Z99");
    assert!(e.message.contains("not on the map"), "{e}");
}

#[test]
fn for_honor_and_glory_6_2_8_a_turn_handed_back_goes_on_from_a_position() {
    // s6_2_8_a_refused_action_hands_the_turn_back_with_its_ap_left (for_honor_and_glory_rules),
    // second part, without playing into the hand-back: 1 AP left; the player sends the rest,
    // rolls no new AP die, and the turn ends when the AP are spent.
    let t = replay(
        "for-honor-and-glory",
        "drill",
        &["american", "british"],
        "position:\n  active american\n  ap 1\namerican: column C11\nbritish: pass",
        &[6],
    );
    assert!(t.steps[0].dice_used.is_empty(), "no AP roll");
    assert!(t.steps[0].unexecuted.is_none());
    assert_eq!(t.view["turn"], 2);
    assert_eq!(t.dice_left, [6]);
}

#[test]
fn for_honor_and_glory_a_position_sets_each_sides_standing_orders() {
    use despatch_core::rules::for_honor_and_glory::State;
    let text = "standing british: tied hits to guns\nstanding british: retreat towards G3\n\
                standing american: leaders retreat towards C6\n\
                standing british: leaders retreat towards units";
    let s = position(
        "for-honor-and-glory",
        "drill",
        &["american", "british"],
        text,
    )
    .unwrap();
    let b = &s.downcast::<State>().unwrap().battle;
    assert!(b.sides[1].tied_hits_to_guns);
    assert!(
        !b.sides[0].tied_hits_to_guns,
        "the other side keeps the default"
    );
    assert_eq!(
        b.sides[1].retreat_towards.map(|h| h.to_string()).as_deref(),
        Some("G3")
    );
    assert_eq!(
        b.sides[0].leaders_towards.map(|h| h.to_string()).as_deref(),
        Some("C6")
    );
    assert_eq!(b.sides[1].leaders_towards, None);
    // The view shows them as the orders that set them would.
    let orders = b.sides[1].standing_orders(false);
    assert!(
        orders.contains(&"retreat towards G3".to_owned()),
        "{orders:?}"
    );
}

#[test]
fn for_honor_and_glory_a_bad_standing_order_is_refused_naming_its_line() {
    let seats = ["american", "british"];
    let bad = |text: &str| {
        position("for-honor-and-glory", "drill", &seats, text)
            .err()
            .expect("refused")
    };
    // 8.4.1: a hex off the map, as the order that sets it is refused.
    let e = bad("turn 2\nstanding british: retreat towards Z40");
    assert_eq!(e.line, 2, "{e}");
    assert!(e.message.contains("Z40 is off the map"), "{e}");
    // An action is not a standing order.
    let e = bad("standing american: fire A3 at C5");
    assert_eq!(e.line, 1, "{e}");
    assert!(e.message.contains("not a standing order"), "{e}");
    // 11.12 only when it is in force.
    let e = bad("standing british: dragoons stand");
    assert!(e.message.contains("11.12"), "{e}");
    let e = bad("standing prussian: tied hits to guns");
    assert!(e.message.contains("not a side"), "{e}");
    let e = bad("standing british tied hits to guns");
    assert!(e.message.contains("write standing <side>:"), "{e}");
}

#[test]
fn for_honor_and_glory_a_position_sets_a_campaigns_battle_and_the_totals_so_far() {
    use despatch_core::rules::for_honor_and_glory::State;
    // 12.: the Niagara campaign (chippawa, lundys-lane) at its second battle, the first won by
    // the British on time with 4 VP to 2.
    let text = "battle 2\nfought 1 british 2 4\nturn 3\nvp american 1";
    let seats = ["american", "british"];
    let s = position("for-honor-and-glory", "niagara-campaign", &seats, text).unwrap();
    let s = s.downcast::<State>().unwrap();
    assert_eq!(s.battle.scenario, "lundys-lane");
    assert_eq!((s.battle.turn, s.battle.sides[0].vp), (3, 1));
    let c = s.campaign.as_ref().unwrap();
    assert_eq!(c.fought.len(), 1);
    assert_eq!(c.fought[0].scenario, "chippawa");
    assert_eq!(c.totals(), [2, 4]);
    assert_eq!(c.winner().map(|w| w.name()), Some("british"));

    let bad = |scenario: &str, text: &str| {
        position("for-honor-and-glory", scenario, &seats, text)
            .err()
            .expect("refused")
    };
    // Every earlier battle needs its result; the `battle` line is named.
    let e = bad("niagara-campaign", "turn 2\nbattle 2");
    assert_eq!(e.line, 2, "{e}");
    assert!(e.message.contains("fought 1"), "{e}");
    // A result of the battle being fought, or a later one, is refused.
    let e = bad("niagara-campaign", "fought 2 british 1 0");
    assert_eq!(e.line, 1, "{e}");
    assert!(e.message.contains("not fought before battle 1"), "{e}");
    let e = bad("niagara-campaign", "battle 3");
    assert!(e.message.contains("battles 1 to 2"), "{e}");
    let e = bad("niagara-campaign", "battle 2\nfought 1 french 1 0");
    assert_eq!(e.line, 2, "{e}");
    assert!(e.message.contains("'french'"), "{e}");
    // A single battle has no campaign.
    let e = bad("drill", "\nbattle 1");
    assert_eq!(e.line, 2, "{e}");
    assert!(e.message.contains("single battle"), "{e}");
}

#[test]
fn for_honor_and_glory_12_a_campaign_played_on_from_a_position_totals_its_vp() {
    // s12_campaign_plays_its_battles_in_turn_and_totals_vp (for_honor_and_glory_rules), from a
    // position: the New Orleans campaign's last turn of its last battle, Jackson's Night Attack
    // given as won by the British with the 6 VP they needed. Both sides pass: New Orleans goes
    // to its time side, the Americans, who are given their 8 VP target (12.), and the campaign
    // to the higher total.
    let t = replay(
        "for-honor-and-glory",
        "new-orleans-campaign",
        &["american", "british"],
        "position:\n  battle 2\n  fought 1 british 0 6\n  turn 10\n\
         british: pass\namerican: pass",
        &[],
    );
    let l = lines(&t);
    assert!(
        l.iter()
            .any(|x| x.contains("american wins") && x.contains("campaign VP american 8 british 6")),
        "{l:?}"
    );
}

// Hour of Glory

#[test]
fn hour_of_glory_a_position_sets_agents_doors_markers_timer_and_the_deal() {
    use despatch_core::rules::hour_of_glory::state::{State, Status, Turn};
    let text = "timer 31\nround 4\nalarm yes\nasi 2\ndoor door-25 open\n\
                intruder harris at q20 assault\nintruder harris intel: red-gb map\n\
                defender a1 at r20 unconscious\nguard g1 at m19 facing west\n\
                marker alert m20\nroom 3 red-usa explored\nroom 4 none\nturn defender";
    let seats = ["defender", "harris"];
    let s = position("hour-of-glory", "mission", &seats, text).unwrap();
    let s: &State = s.downcast().unwrap();
    assert_eq!(
        (s.minutes, s.round, s.alarm, s.asi_markers),
        (31, 4, true, 2)
    );
    assert_eq!(s.turn, Turn::Defender);
    let h = &s.intruders[0];
    assert_eq!(h.sq.map(|q| q.to_string()).as_deref(), Some("q20"));
    assert!(h.inside, "q20 is inside the stronghold");
    assert_eq!(h.intel.len(), 2);
    let a1 = s.defenders.iter().find(|d| d.label == "a1").unwrap();
    assert_eq!(a1.status, Status::Unconscious);
    assert!(s.defenders.iter().any(|d| d.label == "g1"));
    assert_eq!(s.guards_in_box, 7);
    assert_eq!(s.markers.len(), 1);
    assert!(s.rooms[2].explored && s.rooms[3].card.is_none());
}

#[test]
fn hour_of_glory_a_bad_position_is_refused_naming_its_line() {
    let seats = ["defender", "harris"];
    let bad = |text: &str| {
        position("hour-of-glory", "mission", &seats, text)
            .err()
            .expect("refused")
    };
    let e = bad("timer 20\nintruder harris at zz99");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("not a square"), "{e}");
    // Two agents on one square: the line that put the second there.
    let e = bad("intruder harris at q20\n# the Sentry's post\ndefender a1 at q20");
    assert_eq!(e.line, 3, "{e}");
    assert!(e.message.contains("two agents"), "{e}");
    // The deal: a card is in one place.
    let e = bad("intruder harris intel: map\nroom 1 map");
    assert!(e.message.contains("dealt twice"), "{e}");
    let e = bad("timer 99");
    assert!(e.message.contains("0 to 60"), "{e}");
}

#[test]
fn hour_of_glory_a_coup_de_grace_that_kills_says_so_from_a_position() {
    // lines_a_coup_de_grace_that_kills_says_so (hour_of_glory_rules), from a position.
    let t = replay(
        "hour-of-glory",
        "mission",
        &["defender", "harris"],
        "position:\n  defender a1 at r20 unconscious\n  intruder harris at q20 raiding\n  turn harris\n\
         harris: coup-de-grace r20",
        &[6, 1, 1],
    );
    let l = lines(&t);
    assert!(
        l.iter().any(|x| x.contains("The victim is dead")
            && x.contains("Sentry a1")
            && x.contains("r20")),
        "{l:?}"
    );
}

#[test]
fn hour_of_glory_a_position_sets_the_commanders_captures_and_the_standing_choices() {
    use despatch_core::rules::hour_of_glory::intel::{Card, Colour, Country};
    use despatch_core::rules::hour_of_glory::state::{Side, State};
    let red_gb = Card::Intel {
        colour: Colour::Red,
        country: Country::Gb,
    };
    let text = "defender commander captured: red-gb spy-camera smg\n\
                standing harris: counterattack off\nstanding harris: sacrifice on\n\
                standing defender: counterattack off\nstanding defender: alert-side right";
    let seats = ["defender", "harris"];
    let set_up = position("hour-of-glory", "mission", &seats, "").unwrap();
    let set_up: &State = set_up.downcast().unwrap();
    // Each choice is set against its default.
    let h0 = &set_up.intruders[0];
    assert_eq!((h0.counterattack, h0.sacrifice), (true, false));
    assert!(set_up.defender_counterattack);
    let s = position("hour-of-glory", "mission", &seats, text).unwrap();
    let s: &State = s.downcast().unwrap();
    let h = &s.intruders[0];
    assert_eq!((h.counterattack, h.sacrifice), (false, true));
    assert!(!s.defender_counterattack);
    assert_eq!(s.alert_side, Side::Right);
    let c = s.defenders.iter().find(|d| d.label == "commander").unwrap();
    assert_eq!(c.captured_intel, [red_gb]);
    assert_eq!(
        serde_json::to_value(&c.captured_equipment).unwrap(),
        json!(["spy-camera"])
    );
    assert_eq!(
        serde_json::to_value(&c.captured_weapons).unwrap(),
        json!(["smg"])
    );
    // The captured card left the room the set-up dealt it to: it is in one place.
    assert!(s.rooms.iter().all(|r| r.card != Some(red_gb)));
    // A dead Commander's captures lie on his corpse marker.
    let s = position(
        "hour-of-glory",
        "mission",
        &seats,
        "defender commander at w20 dead\ndefender commander captured: map rifle",
    )
    .unwrap();
    let s: &State = s.downcast().unwrap();
    let corpse = s
        .markers
        .iter()
        .find(|m| m.sq.to_string() == "w20")
        .unwrap();
    assert_eq!(corpse.intel, [Card::StrongholdMap]);
    assert_eq!(
        serde_json::to_value(&corpse.weapons).unwrap(),
        json!(["rifle"])
    );
}

#[test]
fn hour_of_glory_a_bad_capture_or_standing_choice_is_refused_naming_its_line() {
    let seats = ["defender", "harris"];
    let bad = |text: &str| {
        position("hour-of-glory", "mission", &seats, text)
            .err()
            .expect("refused")
    };
    let e = bad("timer 30\nstanding defender: sacrifice on");
    assert_eq!(e.line, 2, "{e}");
    assert!(e.message.contains("an Intruder's choice"), "{e}");
    let e = bad("standing harris: alert-side left");
    assert!(e.message.contains("the Defender's choice"), "{e}");
    let e = bad("standing volkov: counterattack on");
    assert!(e.message.contains("not in play"), "{e}");
    let e = bad("standing harris: hide");
    assert!(e.message.contains("not a standing choice"), "{e}");
    let e = bad("\ndefender a1 captured: map");
    assert_eq!(e.line, 2, "{e}");
    assert!(e.message.contains("only the Commander"), "{e}");
    let e = bad("defender commander captured: banana");
    assert!(e.message.contains("'banana'"), "{e}");
    // A card the Commander holds is in no other place.
    let e = bad("intruder harris intel: red-gb\ndefender commander captured: red-gb");
    assert_eq!(e.line, 2, "{e}");
    assert!(e.message.contains("dealt twice"), "{e}");
    // A dead Commander off the board has no body to hold his captures.
    let e = bad("defender commander off dead\ndefender commander captured: map");
    assert_eq!(e.line, 2, "{e}");
    assert!(e.message.contains("lies nowhere"), "{e}");
}

#[test]
fn hour_of_glory_take_equipment_from_the_commanders_body_takes_what_he_captured() {
    // take_equipment_from_a_commanders_body_gives_the_master_key_which_opens_any_door
    // (hour_of_glory_rules), from a position where the dead Commander had taken Link's cards:
    // concealing his body, Harris takes the Master Key and everything the body carried.
    let t = replay(
        "hour-of-glory",
        "mission",
        &["defender", "harris"],
        "position:\n  defender commander at b16 dead\n  defender commander captured: map first-aid-kit\n\
         \x20 intruder harris at b17 raiding\n  turn harris\n\
         harris: conceal b16 take-chance",
        &[1],
    );
    let l = lines(&t);
    assert!(
        l.iter()
            .any(|x| x.contains("takes the Stronghold Master Key")),
        "{l:?}"
    );
    assert!(
        l.iter().any(|x| x.contains("takes what the body carried")),
        "{l:?}"
    );
}

// Searching for Glory

const FOUR: [&str; 4] = ["louis", "davout", "charles", "lannes"];

#[test]
fn searching_for_glory_a_position_sets_cus_lone_sp_and_the_deal() {
    use despatch_core::rules::searching_for_glory::state::{Phase, State};
    let set_up = position("searching-for-glory", "danube-1809", &FOUR, "").unwrap();
    let set_up: &State = set_up.downcast().unwrap();
    let card = set_up.deck[0].clone();
    let text = format!(
        "round 2\ncu louis at kelheim sp 4 fatigue 2 glory 3 supplied\n\
         cu massena at augsburg reached landshut\n\
         standing french refuse\n\
         hand louis: {card}\nphase initiative"
    );
    let s = position("searching-for-glory", "danube-1809", &FOUR, &text).unwrap();
    let s: &State = s.downcast().unwrap();
    assert_eq!((s.round, &s.phase), (2, &Phase::Initiative));
    let louis = s.cu("louis");
    assert_eq!(louis.lp.as_deref(), Some("kelheim"));
    assert_eq!(
        (louis.sp, louis.fatigue, louis.glory, louis.supply),
        (4, 2, 3, true)
    );
    // III: the LP of Masséna's `enter` glory condition is had already.
    assert_eq!(s.cu("massena").reached, ["landshut"]);
    // 2.l: the French side's standing order at fortresses.
    assert_eq!(
        s.standing_refuse,
        [despatch_core::rules::searching_for_glory::data::Side::French]
    );
    let p = s
        .player_of(&despatch_core::engine::ruleset::Seat::parse("louis").unwrap())
        .unwrap();
    assert_eq!(s.players[p].hand, std::slice::from_ref(&card));
    // The cards louis held go back to the deck; the one dealt him leaves it.
    let total = |s: &State| s.deck.len() + s.players.iter().map(|p| p.hand.len()).sum::<usize>();
    assert_eq!(total(s), total(set_up));
}

#[test]
fn searching_for_glory_a_bad_position_is_refused_naming_its_line() {
    let bad = |text: &str| {
        position("searching-for-glory", "danube-1809", &FOUR, text)
            .err()
            .expect("refused")
    };
    let e = bad("round 1\ncu louis at nowhere");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("not an LP"), "{e}");
    let e = bad("hand louis: initiative # davout holds the one Initiative card");
    assert_eq!(e.line, 1);
    assert!(
        e.message.contains("more often than the deck holds it"),
        "{e}"
    );
    let e = bad("cu massena at augsburg reached nowhere");
    assert!(e.message.contains("not an LP"), "{e}");
    let e = bad("cu louis at kelheim\ncu davout at kelheim");
    assert_eq!(e.line, 2, "{e}");
    assert!(e.message.contains("both sides"), "{e}");
}

/// 1.a, 3.1 (issue 39): the operations order of a position is the next round's draw order, so
/// it names every player still in, once — those who operated already after `done`. A position
/// that left seats out dealt them no cards at the next Draw Phase, silently; now it is refused,
/// naming them.
#[test]
fn searching_for_glory_1_a_a_position_s_operations_order_names_every_player_still_in() {
    let read = |text: &str| position("searching-for-glory", "danube-1809", &FOUR, text);
    let e = read("round 1\nphase operations louis charles")
        .err()
        .expect("refused");
    assert_eq!(e.line, 2);
    assert!(
        e.message.contains("leaves out davout, lannes") && e.message.contains("done"),
        "{e}"
    );
    let e = read("phase operations louis done louis davout charles lannes")
        .err()
        .expect("refused");
    assert!(e.message.contains("named twice"), "{e}");
    let e = read("phase operations done louis davout charles lannes")
        .err()
        .expect("refused");
    assert!(e.message.contains("acting now first"), "{e}");
    assert!(read("phase operations louis charles done lannes davout").is_ok());
}

#[test]
fn searching_for_glory_2_f_a_fatigue_roll_at_the_level_costs_one_sp_from_a_position() {
    // map_2_f_fatigue_roll_at_or_under_the_level_costs_one_sp (searching_for_glory_rules): no
    // round of plans and initiative to play first. The announcement's reactive window (1.e)
    // is passed by the others, and the march goes on: a fatigue roll of 3 at level 3.
    let t = replay(
        "searching-for-glory",
        "danube-1809",
        &FOUR,
        "position:\n  cu louis at abensberg fatigue 3\n  plan louis: march\n  \
         phase operations louis done davout charles lannes\nlouis: march kelheim\n\
         davout: pass\ncharles: pass\nlannes: pass",
        &[3],
    );
    assert_eq!(t.steps.last().unwrap().dice_used, [3]);
    let cus = t.view["cus"].as_array().unwrap();
    let louis = cus.iter().find(|c| c["character"] == "louis").unwrap();
    assert_eq!(louis["lp"], "kelheim");
    assert_eq!(louis["sp"], 4, "3 is at the level: 1 SP lost");
}

// Where Eagles Dare

#[test]
fn where_eagles_dare_a_position_sets_the_clock_units_chits_and_cups() {
    use despatch_core::rules::where_eagles_dare::state::{Phase, Side, State};
    let seats = ["allied", "german"];
    let set_up = position("where-eagles-dare", "a-ride-in-the-country", &seats, "").unwrap();
    let set_up: &State = set_up.downcast().unwrap();
    let event = set_up.cups[&Side::German][0].clone();
    let text = format!(
        "time 1300\nphase activation\nimpulse german\nweather overcast\n\
         unit 1/506 allied at 56.201 column\ncup german: {event}\nhighway cut attacked 2"
    );
    let s = position("where-eagles-dare", "a-ride-in-the-country", &seats, &text).unwrap();
    let s: &State = s.downcast().unwrap();
    assert_eq!(
        (s.time, &s.phase, s.impulse),
        (3, &Phase::Activation, Side::German)
    );
    assert!(s.units["1/506"].column);
    assert_eq!(s.cups[&Side::German], [event]);
    assert!(s.highway.cut && s.highway.attacked == 2);
}

#[test]
fn where_eagles_dare_a_bad_position_is_refused_naming_its_line() {
    let seats = ["allied", "german"];
    let bad = |text: &str| {
        position("where-eagles-dare", "a-ride-in-the-country", &seats, text)
            .err()
            .expect("refused")
    };
    let e = bad("time 0900\nunit x allied at 56-201");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("56.201"), "{e}");
    let e = bad("\n\ncup allied: no-such-event");
    assert_eq!(e.line, 3);
    let e = bad("day 30");
    assert_eq!(e.line, 1);
    assert!(e.message.contains("is played from"), "{e}");
}

#[test]
fn where_eagles_dare_1_2_fog_clears_at_0900_on_the_fog_number_from_a_position() {
    // fog_1_2_clears_at_0900_on_the_fog_number_or_less (where_eagles_dare_rules), without
    // playing the 0700 turn out first.
    let t = replay(
        "where-eagles-dare",
        "a-ride-in-the-country",
        &["allied", "german"],
        "position:\n  time 0900\n  weather fog 5\n  phase fog\nallied: fog",
        &[5],
    );
    assert_eq!(t.steps[0].dice_used, [5]);
    assert_eq!(t.view["weather"], "clear", "{}", replay::render(&t));
}

#[test]
fn where_eagles_dare_positions_check_the_oob_s_sides_and_the_231st_line_s6_10() {
    let seats = ["allied", "german"];
    let bad = |text: &str| {
        position("where-eagles-dare", "the-best-laid-plans", &seats, text)
            .err()
            .expect("refused")
    };
    let e = bad("unit A/502 german at 56.201");
    assert!(e.message.contains("allied unit"), "{e}");
    let e = bad("\nunit A/2devon allied at 41.200");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("S6.10"), "{e}");
    assert!(position(
        "where-eagles-dare",
        "the-best-laid-plans",
        &seats,
        "unit A/2devon allied at 41.230"
    )
    .is_ok());
}

#[test]
fn where_eagles_dare_positions_release_the_club_route_line_in_order_and_date_a_demolition() {
    let seats = ["allied", "german"];
    let bad = |text: &str| {
        position("where-eagles-dare", "campaign", &seats, text)
            .err()
            .expect("refused")
    };
    // 4.3.1: the line is released from its head, in its order.
    let e = bad("released group-hot guards-art");
    assert!(
        e.message
            .contains("Formation 2 is group-cold, not 'guards-art'"),
        "{e}"
    );
    // The Devil's Cauldron's Formations only once the marker is off the map.
    let e = bad("\nreleased group-hot group-cold guards-art 44-rtr sherwood");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("write marker off"), "{e}");
    let e = bad("bridge son destroyed at 19 2100");
    assert!(e.message.contains("'2100' is not a turn"), "{e}");
    assert!(position(
        "where-eagles-dare",
        "campaign",
        &seats,
        "marker off\nreleased group-hot group-cold guards-art 44-rtr sherwood\nbridge son destroyed at 19 0900",
    )
    .is_ok());
    // A Bailey comes on a turn after the demolition (2.15.7): the turn stated is kept.
    let script = "position:\n  day 19\n  time 0900\n  phase activation\n  impulse allied\n  \
                  chit div-guards\n  bridge son destroyed at 19 0900\nallied: bailey 11-bridge-re son\n";
    let t = replay::run(
        ruleset("where-eagles-dare"),
        setup("campaign", &seats),
        script,
        vec![],
    );
    let Err(e) = t else {
        panic!("a Bailey the turn of the demolition is accepted");
    };
    assert!(e.to_string().contains("2.15.7"), "{e}");
}

#[test]
fn where_eagles_dare_s6_6_another_101st_leader_commands_at_2_cp_from_a_position() {
    // s6_6_a_101st_unit_in_command_by_another_101st_leader_pays_2_cp_and_is_not_activated
    // (where_eagles_dare_rules), from a position: the 506's chit, its Leader beside A/502.
    let t = replay(
        "where-eagles-dare",
        "the-best-laid-plans",
        &["allied", "german"],
        "position:\n  time 1300\n  phase activation\n  impulse allied\n  chit f-506\n  \
         cp 101st 3\n  unit A/502 allied at 60.160\n  unit ldr-506 allied at 60.162\n\
         allied: command A/502 by ldr-506",
        &[],
    );
    assert_eq!(
        t.view["command_points"]["101st"],
        1,
        "{}",
        replay::render(&t)
    );
}

#[test]
fn where_eagles_dare_s3_1_a_minefield_from_a_position_asks_a_tq_check_to_leave() {
    // minefield_s3_1_within_3_hexes_a_tq_check_to_leave_an_engineer_removes_it
    // (where_eagles_dare_rules), from a position with the marker already down.
    let t = replay(
        "where-eagles-dare",
        "the-best-laid-plans",
        &["allied", "german"],
        "position:\n  time 1300\n  phase activation\n  impulse allied\n  chit div-101\n  \
         unit A/502 allied at 41.230\n  minefield 41.230\n  dutch german 56.201\n  \
         heroic allied A/502\n\
         allied: tq A/502 minefield pass 0-5\nallied: move A/502 41.231",
        &[3],
    );
    let v = &t.view;
    assert_eq!(
        v["units"]["A/502"]["hex"],
        "41.231",
        "{}",
        replay::render(&t)
    );
    assert_eq!(v["event_markers"]["minefields"][0], "41.230");
    assert_eq!(v["event_markers"]["heroic"]["allied"], "A/502");
}

#[test]
fn where_eagles_dare_s3_1_decision_30_an_entrenched_marker_from_a_position_leaves_with_its_unit() {
    // rout_s3_1_decision_30_… (where_eagles_dare_rules), from a position with the marker down.
    let t = replay(
        "where-eagles-dare",
        "the-best-laid-plans",
        &["allied", "german"],
        "position:\n  time 1300\n  phase activation\n  impulse allied\n  chit div-101\n  \
         unit A/502 allied at 41.230\n  unit B/502 allied at 41.232\n  entrenched A/502\n  \
         entrenched B/502\n\
         allied: move A/502 41.231",
        &[],
    );
    let v = &t.view;
    assert_eq!(
        v["units"]["A/502"]["hex"],
        "41.231",
        "{}",
        replay::render(&t)
    );
    assert_eq!(
        v["entrenched"],
        serde_json::json!(["B/502"]),
        "{}",
        replay::render(&t)
    );
}

#[test]
fn where_eagles_dare_a_position_on_a_game_s_map_refuses_an_impassable_hex() {
    let mut setup = setup("the-best-laid-plans", &["allied", "german"]);
    setup.options = json!({ "map": "hex 20.14 impassable\nhex 20.13 clear\n" });
    let at = |text: &str| {
        ruleset("where-eagles-dare")
            .position(&setup, text, &mut hidden_stream(&[0; 32], "positions", 0))
            .map(|_| ())
    };
    let e = at("unit A/3ig allied at 20.14").unwrap_err();
    assert!(e.message.contains("2.14"), "{e}");
    assert!(at("unit A/3ig allied at 20.13").is_ok());
    assert!(
        at("unit A/3ig allied at 30.30").is_ok(),
        "off the map's hexes"
    );
}

#[test]
fn where_eagles_dare_s3_1_a_lost_unit_and_a_placement_set_from_a_position() {
    // lost_s3_1_the_enemy_picks_a_friendly_unit_and_moves_it (where_eagles_dare_rules), from
    // the moment the German has picked the lost unit.
    let t = replay(
        "where-eagles-dare",
        "the-best-laid-plans",
        &["allied", "german"],
        "position:\n  time 1300\n  phase activation\n  impulse allied\n  chit div-101\n  \
         unit A/502 allied at 56.203\n  lost A/502 by german\n  lost82-in lost82-1\n\
         german: move A/502 56.204",
        &[],
    );
    assert_eq!(
        t.view["units"]["A/502"]["hex"],
        "56.204",
        "{}",
        replay::render(&t)
    );
    let seats = ["allied", "german"];
    let s = position(
        "where-eagles-dare",
        "the-best-laid-plans",
        &seats,
        "placing german ambush\npassed-mines A/502",
    )
    .unwrap();
    let s: &despatch_core::rules::where_eagles_dare::state::State = s.downcast().unwrap();
    assert_eq!(s.placing().map(|p| p.1), Some("ambush"));
    assert!(position(
        "where-eagles-dare",
        "the-best-laid-plans",
        &seats,
        "lost82-in A/502"
    )
    .is_err());
    assert!(position(
        "where-eagles-dare",
        "the-best-laid-plans",
        &seats,
        "placing german tea"
    )
    .is_err());
    // One event answer awaited at a time (docs/rules/where-eagles-dare.md, "What the game
    // waits for"): a position stating both is refused at the second, naming them.
    let e = position(
        "where-eagles-dare",
        "the-best-laid-plans",
        &seats,
        "unit A/502 allied at 56.203\nplacing allied heroic\nlost A/502 by german",
    )
    .err()
    .expect("refused");
    assert_eq!(e.line, 3);
    assert!(e.message.contains("placing or lost, not both"), "{e}");
}
