//! One test per section of the Where Eagles Dare exclusive rules implemented so far, named
//! after the section. Each sets a scenario up, puts the state where the rule bites, and plays
//! orders through the ruleset with scripted dice (a d10 face 10 reads 0).

use std::collections::VecDeque;

use despatch::engine::dice::hidden_stream;
use despatch::engine::ruleset::{Ctx, DiceSource, RuleError, Rules, Seat, SeatDef, Setup, Viewer};
use despatch::rules::where_eagles_dare::data::{DropResult, Spur, Weather, DATA};
use despatch::rules::where_eagles_dare::hex::Hex;
use despatch::rules::where_eagles_dare::order;
use despatch::rules::where_eagles_dare::state::{AirDropCounters, Phase, Side, State, Unit};
use despatch::rules::where_eagles_dare::terrain::{fire_modifier, Map, Mobility, Terrain, CHART};
use despatch::rules::where_eagles_dare::{declared, WhereEaglesDare};
use serde_json::json;

fn hex(t: &str) -> Hex {
    Hex::parse(t).unwrap_or_else(|| panic!("{t} is a hex"))
}

fn game(scenario: &str) -> State {
    let setup = Setup {
        game_id: "rules".into(),
        scenario: scenario.into(),
        options: json!({}),
        seats: SeatDef::named_by_id(&["allied", "german"]).unwrap(),
    };
    WhereEaglesDare
        .setup(&setup, &mut hidden_stream(&[7; 32], "rules", 0))
        .unwrap()
}

/// Plays an order with scripted dice; returns how many dice it drew.
fn order(s: &mut State, seat: &str, text: &str, dice: &[u32]) -> Result<usize, RuleError> {
    let seat = Seat::parse(seat).unwrap();
    let cmd = WhereEaglesDare.parse(s, &seat, text)?;
    let mut q: VecDeque<u32> = dice.iter().copied().collect();
    {
        let mut ctx = Ctx::new(DiceSource::Scripted(&mut q), None);
        WhereEaglesDare.apply(s, &seat, &cmd, &mut ctx)?;
    }
    Ok(dice.len() - q.len())
}

fn ok(s: &mut State, seat: &str, text: &str, dice: &[u32]) {
    let used = order(s, seat, text, dice).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(used, dice.len(), "{text} drew {used} of the scripted dice");
}

/// The seats end their impulses until the turn ends (two ends in a row with no action).
fn next_turn(s: &mut State) {
    let now = (s.day, s.time);
    for _ in 0..3 {
        let seat = s.impulse.name();
        ok(s, seat, "end", &[]);
        if (s.day, s.time) != now {
            return;
        }
    }
    panic!("the turn did not end");
}

/// An activation in the German impulse.
fn german_impulse(s: &mut State) {
    s.phase = Phase::Activation;
    s.impulse = Side::German;
    s.window = None;
    s.pending = None;
}

fn walk(from: Hex, to: Hex) -> Vec<Hex> {
    walk_avoiding(from, to, &[])
}

/// A path hex by hex from `from` to `to`, never through `avoid` or back on itself.
fn walk_avoiding(from: Hex, to: Hex, avoid: &[Hex]) -> Vec<Hex> {
    let mut path: Vec<Hex> = Vec::new();
    let mut at = from;
    while at != to {
        at = at
            .neighbours()
            .into_iter()
            .filter(|n| !avoid.contains(n) && !path.contains(n) && *n != from)
            .min_by_key(|n| n.distance(to))
            .unwrap();
        path.push(at);
        assert!(path.len() < 500, "no path");
    }
    path
}

#[test]
fn dice_every_d10_reads_0_to_9_face_10_is_0() {
    let mut s = game("a-ride-in-the-country");
    assert_eq!(s.phase, Phase::Weather);
    ok(&mut s, "allied", "weather", &[10]);
    assert_eq!(s.weather, Some(DATA.weather_for(0)));
    assert_eq!(DATA.weather_for(0), Weather::Clear);
}

#[test]
fn fog_1_2_a_weather_roll_of_3_gives_fog_with_clear_number_5() {
    let mut s = game("a-ride-in-the-country");
    ok(&mut s, "allied", "weather", &[3]);
    assert_eq!(s.weather, Some(Weather::Fog { clear: 5 }));
}

#[test]
fn fog_1_2_clears_at_0900_on_the_fog_number_or_less() {
    let mut s = game("a-ride-in-the-country");
    ok(&mut s, "allied", "weather", &[3]);
    next_turn(&mut s);
    assert_eq!((s.time, &s.phase), (1, &Phase::Fog));
    ok(&mut s, "allied", "fog", &[5]);
    assert_eq!(s.weather, Some(Weather::Clear));
    next_turn(&mut s);
    assert_eq!(s.phase, Phase::Activation, "no fog roll once it cleared");
}

#[test]
fn fog_1_2_stays_at_0900_above_the_number_and_at_1100_turns_the_day_overcast() {
    let mut s = game("a-ride-in-the-country");
    ok(&mut s, "allied", "weather", &[3]);
    next_turn(&mut s);
    ok(&mut s, "allied", "fog", &[6]);
    assert_eq!(s.weather, Some(Weather::Fog { clear: 5 }));
    next_turn(&mut s);
    assert_eq!((s.time, &s.phase), (2, &Phase::Fog));
    ok(&mut s, "allied", "fog", &[8]);
    assert_eq!(s.weather, Some(Weather::Overcast));
    next_turn(&mut s);
    assert_eq!((s.time, &s.phase), (3, &Phase::Activation));
}

#[test]
fn night_1_1_the_night_turn_follows_1900_and_0700_follows_night() {
    let mut s = game("the-best-laid-plans");
    assert_eq!((s.day, s.time), (17, 3));
    next_turn(&mut s); // 1500
    next_turn(&mut s); // 1700
    next_turn(&mut s); // 1900: Club Route first
    assert_eq!((s.time, &s.phase), (6, &Phase::Route));
    ok(&mut s, "allied", "route stay", &[]);
    next_turn(&mut s);
    assert_eq!((s.day, s.time), (17, 7), "Night");
    next_turn(&mut s);
    assert_eq!((s.day, s.time, &s.phase), (18, 0, &Phase::Weather));
}

/// Plays the Best Laid Plans to 0700 18 Sept.
fn morning_of_the_18th() -> State {
    let mut s = game("the-best-laid-plans");
    for _ in 0..3 {
        next_turn(&mut s);
    }
    ok(&mut s, "allied", "route stay", &[]);
    next_turn(&mut s);
    next_turn(&mut s);
    assert_eq!((s.day, s.time), (18, 0));
    s
}

#[test]
fn drops_3_1_drop_one_comes_on_the_first_turn_and_the_rest_are_scheduled() {
    let s = game("the-best-laid-plans");
    assert_eq!(s.drops[0].arrived, Some((17, 3)));
    assert_eq!((s.drops[1].day, s.drops[1].arrived), (18, None));
}

#[test]
fn when_to_drop_3_2_clear_weather_offers_0900_or_1100() {
    let mut s = morning_of_the_18th();
    ok(&mut s, "allied", "weather", &[1]);
    assert_eq!(s.phase, Phase::AirDrop { candidates: [1, 2] });
    let e = order(&mut s, "allied", "airdrop 1300", &[]).unwrap_err();
    assert!(e.message.contains("0900 or 1100"), "{e}");
    // Unsealed, the choice is refused: only the server seals it.
    let e = order(&mut s, "allied", "airdrop 1100", &[]).unwrap_err();
    assert!(e.message.contains("sealed"), "{e}");
}

#[test]
fn when_to_drop_3_2_fog_cleared_at_0900_offers_1300_or_1500() {
    let mut s = morning_of_the_18th();
    ok(&mut s, "allied", "weather", &[3]);
    assert_eq!(s.phase, Phase::Activation);
    next_turn(&mut s);
    ok(&mut s, "allied", "fog", &[2]);
    assert_eq!(s.phase, Phase::AirDrop { candidates: [3, 4] });
}

#[test]
fn when_to_drop_3_2_rain_moves_the_drop_a_day_later() {
    let mut s = morning_of_the_18th();
    ok(&mut s, "allied", "weather", &[9]);
    assert_eq!(s.weather, Some(Weather::Rain));
    assert_eq!(s.drops[1].day, 19);
    assert_eq!(s.drops[2].day, 20);
}

#[test]
fn when_to_drop_3_2_fog_not_cleared_by_1100_moves_the_drop_a_day_later() {
    let mut s = morning_of_the_18th();
    ok(&mut s, "allied", "weather", &[3]);
    next_turn(&mut s);
    ok(&mut s, "allied", "fog", &[7]);
    next_turn(&mut s);
    ok(&mut s, "allied", "fog", &[7]);
    assert_eq!(s.drops[1].day, 19);
}

#[test]
fn when_to_drop_3_2_the_counters_flip_at_the_first_candidate_turn_and_the_drop_comes() {
    let mut s = morning_of_the_18th();
    ok(&mut s, "allied", "weather", &[1]);
    // The counters as the server's seal leaves them: the commitment only.
    s.air_drop = Some(AirDropCounters {
        day: 18,
        candidates: [1, 2],
        commitment: "c0ffee".into(),
        revealed: None,
    });
    s.phase = Phase::Activation;
    let view = serde_json::to_string(
        &WhereEaglesDare.view(&s, &Viewer::Seat(Seat::parse("german").unwrap())),
    )
    .unwrap();
    assert!(view.contains("\"real_drop\":\"sealed\""), "{view}");
    next_turn(&mut s); // 0900: the first candidate
    let mut q = VecDeque::new();
    let mut ctx = Ctx::new(DiceSource::Scripted(&mut q), None);
    WhereEaglesDare
        .reveal(
            &mut s,
            &Seat::parse("allied").unwrap(),
            "c0ffee",
            &json!({"drop_at": "1100"}),
            &mut ctx,
        )
        .unwrap();
    assert_eq!(s.drops[1].arrived, None, "No Drop at 0900");
    next_turn(&mut s); // 1100
    assert_eq!(s.drops[1].arrived, Some((18, 2)));
}

#[test]
fn free_drop_3_3_2_one_formation_per_zone_independents_only_with_their_division() {
    let setup = Setup {
        game_id: "rules".into(),
        scenario: "the-best-laid-plans".into(),
        options: json!({"free_drop": true}),
        seats: SeatDef::named_by_id(&["allied", "german"]).unwrap(),
    };
    let mut s = WhereEaglesDare
        .setup(&setup, &mut hidden_stream(&[7; 32], "rules", 0))
        .unwrap();
    assert_eq!(s.phase, Phase::Plans { next: 1 });
    let e = order(&mut s, "allied", "plan 1 506:B 502:B", &[]).unwrap_err();
    assert!(e.message.contains("one Formation per zone"), "{e}");
    let e = order(&mut s, "allied", "plan 1 506:B ind-101:C", &[]).unwrap_err();
    assert!(e.message.contains("independent"), "{e}");
    let e = order(&mut s, "allied", "plan 1 506:Q", &[]).unwrap_err();
    assert!(e.message.contains("zones"), "{e}");
    let e = order(&mut s, "allied", "plan 1 506:B 502:A ind-101:B", &[]).unwrap_err();
    assert!(
        e.message.contains("sealed"),
        "a valid plan still needs the server's seal: {e}"
    );
}

#[test]
fn where_to_drop_3_3_the_zones_as_read() {
    assert!(
        DATA.zones["A1"].1.contains(&hex("71.125")),
        "71.25 read as 71.125"
    );
    for h in ["57.150", "57.151"] {
        assert!(DATA.zones["B"].1.contains(&hex(h)) && DATA.zones["C"].1.contains(&hex(h)));
    }
    let w = &DATA.zones["W"].1;
    assert_eq!(w.len(), 15 + 13 - 2);
    assert!(!DATA.zones["W"].0, "W is a landing zone");
}

#[test]
fn drop_table_3_4_1_modifiers_glider_in_a_dz_germans_in_the_zone_flak_and_88s() {
    let mut s = game("the-best-laid-plans");
    s.units.insert(
        "G/1".into(),
        Unit {
            side: Side::German,
            hex: hex("58.149"),
            column: false,
        },
    );
    s.units.insert(
        "G/2".into(),
        Unit {
            side: Side::German,
            hex: hex("60.148"),
            column: false,
        },
    );
    s.units.insert(
        "G/3".into(),
        Unit {
            side: Side::German,
            hex: hex("71.130"),
            column: false,
        },
    );
    let (m, _) = declared::drop_modifier(&s, "B", true, 1, 1).unwrap();
    assert_eq!(m, 2 + 2 + 1 + 2);
    let (m, _) = declared::drop_modifier(&s, "W", true, 0, 0).unwrap();
    assert_eq!(
        m, 2,
        "W is an LZ: no +2 for the glider; +1 for each of the two Germans in B"
    );
    assert_eq!(DATA.drop_result(0), DropResult::NoEffect);
    s.phase = Phase::Activation;
    ok(&mut s, "allied", "droproll A/502 B glider flak 1", &[4]);
}

#[test]
fn establishing_club_route_4_2_to_a_stop_hex_never_back_and_one_spur() {
    let mut s = game("the-best-laid-plans");
    s.phase = Phase::Route;
    assert!(order(&mut s, "allied", "route 42.228", &[])
        .unwrap_err()
        .message
        .contains("Stop hex"));
    let path = walk(hex("42.229"), hex("61.141"));
    let text: Vec<String> = path.iter().map(Hex::to_string).collect();
    ok(&mut s, "allied", &format!("route {}", text.join(" ")), &[]);
    assert_eq!(s.marker, Some(hex("61.141")));
    assert!(s.on_club_route(hex("42.229")) && !s.on_club_route(hex("61.141")));
    assert_eq!(s.phase, Phase::Activation);
    // The Son spur, then the Best spur is closed for ever.
    s.phase = Phase::Route;
    let son: Vec<String> = walk_avoiding(hex("61.141"), hex("56.201"), &s.club_route)
        .iter()
        .map(Hex::to_string)
        .collect();
    ok(&mut s, "allied", &format!("route {}", son.join(" ")), &[]);
    assert_eq!(s.spur, Some(Spur::Son));
    s.phase = Phase::Route;
    let best: Vec<String> = walk_avoiding(hex("56.201"), hex("49.160"), &s.club_route)
        .iter()
        .map(Hex::to_string)
        .collect();
    let e = order(&mut s, "allied", &format!("route {}", best.join(" ")), &[]).unwrap_err();
    assert!(e.message.contains("spur not chosen"), "{e}");
    // Never back over Club Route.
    let back = order(
        &mut s,
        "allied",
        &format!(
            "route {}",
            walk(hex("56.201"), hex("61.141"))
                .iter()
                .map(Hex::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        ),
        &[],
    );
    assert!(back.is_err());
}

#[test]
fn establishing_club_route_4_2_a_german_unit_stops_the_trace() {
    let mut s = game("the-best-laid-plans");
    s.phase = Phase::Route;
    let path = walk(hex("42.229"), hex("61.141"));
    s.units.insert(
        "G/1".into(),
        Unit {
            side: Side::German,
            hex: path[3],
            column: false,
        },
    );
    let text: Vec<String> = path.iter().map(Hex::to_string).collect();
    let e = order(&mut s, "allied", &format!("route {}", text.join(" ")), &[]).unwrap_err();
    assert!(e.message.contains("German unit G/1"), "{e}");
}

#[test]
fn attacking_club_route_4_3_3_german_fire_not_a_9_is_attacked_once_a_turn() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 41.231 small-arms", &[4]);
    ok(&mut s, "german", "result none", &[]);
    assert_eq!(
        s.highway.attacked, 1,
        "the act of firing matters, not the result"
    );
    ok(&mut s, "german", "fire G/1 41.230 mortar", &[2]);
    ok(&mut s, "german", "result none", &[]);
    assert_eq!(s.highway.attacked, 1, "one Attacked marker a turn");
    next_turn(&mut s);
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 41.231 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[1]);
    assert_eq!(s.highway.attacked, 1, "a 9 is no attack on Club Route");
    ok(&mut s, "german", "fire G/1 42.228 small-arms", &[3]);
    ok(&mut s, "german", "result none", &[]);
    assert_eq!(
        s.highway.attacked, 1,
        "potential Club Route is not Club Route"
    );
}

#[test]
fn attacking_club_route_4_3_3_light_barrage_attacked_heavy_barrage_closed() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    ok(
        &mut s,
        "german",
        "barrage G/art 41.231 heavy pass 0-4",
        &[7],
    );
    assert_eq!(s.highway.closed, 0, "a barrage not placed closes nothing");
    ok(
        &mut s,
        "german",
        "barrage G/art 41.231 heavy pass 0-4",
        &[4],
    );
    assert_eq!(s.highway.closed, 1);
    ok(
        &mut s,
        "german",
        "barrage G/art 41.230 light pass 0-4",
        &[10],
    );
    assert_eq!(s.highway.attacked, 1);
    assert_eq!(s.barrages.len(), 2);
    next_turn(&mut s);
    assert!(s.barrages.is_empty(), "step 10: barrage markers come off");
}

#[test]
fn attacking_club_route_4_3_3_a_german_unit_on_club_route_closes_it() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    ok(&mut s, "german", "move G/1 42.230 41.231", &[]);
    assert_eq!(s.highway.closed, 1);
    assert_eq!(
        s.window,
        Some(hex("41.231")),
        "the Allied player may fire at the move"
    );
    ok(&mut s, "allied", "pass", &[]);
    ok(&mut s, "german", "end", &[]);
    ok(&mut s, "allied", "end", &[]);
    ok(&mut s, "german", "end", &[]);
    assert_eq!(
        s.highway.closed, 2,
        "still on Club Route next turn: another Closed marker"
    );
}

#[test]
fn attacking_club_route_4_3_3_status_check_2_closed_and_3_attacked_cut_on_7_or_less() {
    for (die, cut) in [(7, true), (8, false), (9, false), (10, true)] {
        let mut s = game("the-best-laid-plans");
        german_impulse(&mut s);
        s.highway.attacked = 3;
        s.highway.closed = 2;
        ok(&mut s, "german", "status", &[die]);
        assert_eq!(s.highway.cut, cut, "die {die}");
        assert_eq!(
            (s.highway.attacked, s.highway.closed),
            (0, 0),
            "all markers set aside"
        );
        assert_eq!((s.highway.used_attacked, s.highway.used_closed), (3, 2));
    }
    let mut s = game("the-best-laid-plans");
    s.phase = Phase::Activation;
    s.highway.attacked = 1;
    assert!(
        order(&mut s, "allied", "status", &[]).is_err(),
        "only the German asks"
    );
}

#[test]
fn random_events_s3_0_a_fire_9_draws_from_the_rollers_cup_not_an_assault() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    assert_eq!(
        s.cups[&Side::German].len(),
        10,
        "the German cup: all but Air Strike"
    );
    assert_eq!(s.cups[&Side::Allied].len(), 11);
    ok(&mut s, "german", "assault G/1 50.150", &[9]);
    ok(&mut s, "german", "result step-loss", &[]);
    assert_eq!(
        s.cups[&Side::German].len(),
        10,
        "an assault 9 draws nothing"
    );
    ok(&mut s, "german", "fire G/1 50.150 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[1]);
    assert_eq!(
        s.cups[&Side::German].len(),
        9,
        "scenario: the chit leaves the game"
    );
    assert!(!s.cups[&Side::German].contains(&"rout".to_owned()));
}

#[test]
fn random_events_s3_0_campaign_chits_go_back_heroic_and_dutch_before_the_next_draw() {
    let mut s = game("campaign");
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 50.150 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[2]);
    assert_eq!(s.held_out, vec![(Side::German, "heroic".to_owned())]);
    assert_eq!(s.cups[&Side::German].len(), 9);
    ok(&mut s, "german", "fire G/1 50.150 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[3]);
    assert_eq!(
        s.cups[&Side::German].len(),
        10,
        "Heroic back, Intelligence returned"
    );
}

#[test]
fn air_strike_s3_1_halved_die_typhoons_and_none_at_night() {
    let mut s = game("the-best-laid-plans");
    s.phase = Phase::Activation;
    ok(&mut s, "allied", "fire A/1 50.150 small-arms", &[9]);
    ok(&mut s, "allied", "result none", &[1, 7]);
    s.cups.insert(Side::Allied, vec!["air-strike".into()]);
    s.time = 7;
    ok(&mut s, "allied", "fire A/1 50.150 small-arms", &[9]);
    ok(&mut s, "allied", "result none", &[1]);
}

#[test]
fn cities_2_9_and_fortified_2_10_artillery_0_makes_rubble() {
    let mut s = game("the-best-laid-plans");
    s.phase = Phase::Activation;
    ok(
        &mut s,
        "allied",
        "fire A/art 50.150 small-arms on city",
        &[10],
    );
    ok(&mut s, "allied", "result none", &[]);
    assert!(s.rubble.is_empty(), "not artillery");
    ok(
        &mut s,
        "allied",
        "fire A/art 50.150 indirect-he on woods",
        &[10],
    );
    ok(&mut s, "allied", "result none", &[]);
    assert!(s.rubble.is_empty(), "not a city");
    ok(
        &mut s,
        "allied",
        "fire A/art 50.150 indirect-he on city",
        &[1],
    );
    ok(&mut s, "allied", "result none", &[]);
    assert!(s.rubble.is_empty(), "not a 0");
    ok(
        &mut s,
        "allied",
        "fire A/art 50.150 indirect-he on fortified",
        &[10],
    );
    ok(&mut s, "allied", "result suppressed", &[]);
    assert_eq!(s.rubble, vec![hex("50.150")]);
}

#[test]
fn bridge_demolition_2_15_6_wire_on_a_pass_demolish_on_5_or_6_with_a_fire_zone() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    let e = order(&mut s, "german", "tq G/eng wire best-rail pass 0-6", &[]).unwrap_err();
    assert!(e.message.contains("49.160"), "{e}");
    assert!(
        order(&mut s, "german", "demolish son", &[]).is_err(),
        "not wired"
    );
    ok(&mut s, "german", "tq G/eng wire son pass 0-6", &[7]);
    assert_eq!(s.bridges["son"].wired_by, None, "7 fails 0-6");
    ok(&mut s, "german", "tq G/eng wire son pass 0-6", &[6]);
    assert_eq!(s.bridges["son"].wired_by, Some(Side::German));
    ok(&mut s, "german", "demolish son", &[6]);
    assert!(
        !s.bridges["son"].destroyed && s.bridges["son"].wired_by.is_none(),
        "6 misses without a Fire Zone; unwired"
    );
    ok(&mut s, "german", "tq G/eng wire son pass 0-6", &[1]);
    ok(&mut s, "german", "demolish son fz", &[6]);
    assert!(s.bridges["son"].destroyed);
}

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
    ok(&mut s, "allied", "move A/502 56.201 56.202", &[]);
    assert!(
        order(&mut s, "allied", "end", &[]).is_err(),
        "the German's window first"
    );
    ok(&mut s, "german", "opfire G/1 56.202 small-arms", &[5]);
    ok(&mut s, "german", "result s?", &[]);
    assert_eq!(s.window, None);
    ok(&mut s, "allied", "end", &[]);
}

#[test]
fn disputes_are_logged_and_undo_nothing() {
    let mut s = game("the-best-laid-plans");
    s.phase = Phase::Activation;
    ok(&mut s, "allied", "move A/502 56.201 56.202", &[]);
    let before = s.units.clone();
    ok(&mut s, "german", "dispute 5 56.202 is in my fire zone", &[]);
    assert_eq!(s.units, before);
    assert_eq!(s.disputes.len(), 1);
    assert_eq!(s.disputes[0].text, "56.202 is in my fire zone");
}

#[test]
fn terrain_2_1_to_2_19_the_chart_cell_by_cell() {
    let cell = |t: Terrain| CHART[&t].cost;
    let n = None;
    let s = |v: u32| Some(v);
    assert_eq!(
        cell(Terrain::Clear),
        [[s(2), s(1)], [s(3), s(2)], [s(2), s(1)]]
    );
    assert_eq!(
        cell(Terrain::Polder),
        [[s(2), s(1)], [s(5), s(3)], [s(3), s(2)]]
    );
    assert_eq!(
        cell(Terrain::Orchard),
        [[s(2), s(1)], [s(8), s(2)], [s(4), s(1)]]
    );
    assert_eq!(cell(Terrain::Woods), [[s(3), s(2)], [n, n], [n, n]]);
    assert_eq!(
        cell(Terrain::Village),
        [[s(2), s(1)], [s(6), s(1)], [s(4), s(1)]]
    );
    assert_eq!(cell(Terrain::Town), [[s(2), s(1)], [n, s(1)], [n, s(1)]]);
    assert_eq!(cell(Terrain::City), [[s(2), s(1)], [n, s(1)], [n, s(1)]]);
    assert_eq!(
        cell(Terrain::Fortified),
        [[s(2), s(1)], [n, s(3)], [n, s(2)]]
    );
    assert_eq!(
        cell(Terrain::Dunes),
        [[s(2), s(1)], [s(4), s(3)], [s(3), s(2)]]
    );
    let fire: Vec<i32> = [
        Terrain::Clear,
        Terrain::Polder,
        Terrain::Orchard,
        Terrain::Woods,
        Terrain::Village,
        Terrain::Town,
        Terrain::City,
        Terrain::Fortified,
        Terrain::Dunes,
    ]
    .iter()
    .map(|t| CHART[t].fire)
    .collect();
    assert_eq!(fire, [0, 0, -1, -2, -1, -2, -3, -4, -1]);
    assert_eq!(fire_modifier(Terrain::Woods, "small-arms"), -2);
    for c in ["mortar", "indirect-he", "direct-he"] {
        assert_eq!(
            fire_modifier(Terrain::Woods, c),
            0,
            "2.4: woods' -2 ignored by {c}"
        );
    }
    assert_eq!(fire_modifier(Terrain::City, "indirect-he"), -3);
    assert!(
        CHART[&Terrain::Woods].blocking
            && CHART[&Terrain::City].blocking
            && !CHART[&Terrain::Orchard].blocking
    );
}

const SYNTHETIC: &str = "
hex 10.10 clear road rail
hex 10.11 clear road rail
hex 10.12 woods road
hex 10.13 woods
hex 11.11 polder
hex 11.12 clear raised
hex 9.10 impassable
side 10.11 11.11 stream
side 10.10 10.11 bridge
side 10.12 10.13 culvert
";

#[test]
fn terrain_2_5_to_2_17_path_costs_on_a_synthetic_map() {
    let map = Map::parse(SYNTHETIC).unwrap();
    let (a, b, c, d) = (hex("10.10"), hex("10.11"), hex("10.12"), hex("10.13"));
    // 2.5 Road: ½ in Column along the road (half points).
    assert_eq!(
        map.path_cost(Mobility::Wheeled, true, b, &[c]).unwrap(),
        Some(1)
    );
    // 2.4: a vehicle off the road may not enter woods.
    assert!(map.path_cost(Mobility::Tracked, false, b, &[c]).is_err());
    // 2.15.1: a bridge only in Column.
    assert!(map
        .step_cost(Mobility::Leg, false, a, b)
        .unwrap_err()
        .contains("Column"));
    assert_eq!(map.step_cost(Mobility::Leg, true, a, b).unwrap(), Some(1));
    // 2.6: railroad for a wheeled Unit in Column, 2 MP (road first when both).
    // 2.11: a stream costs a leg Unit +2, +1 in Column; closed to vehicles off Road.
    assert_eq!(
        map.step_cost(Mobility::Leg, false, b, hex("11.11"))
            .unwrap(),
        Some(4 + 4)
    );
    assert_eq!(
        map.step_cost(Mobility::Leg, true, b, hex("11.11")).unwrap(),
        Some(2 + 2)
    );
    assert!(map
        .step_cost(Mobility::Wheeled, true, b, hex("11.11"))
        .is_err());
    // 2.14: impassable.
    assert!(map.step_cost(Mobility::Leg, true, a, hex("9.10")).is_err());
    // 2.16: a leg Unit not in Column pays double into a raised road hex; a vehicle not in Column never enters.
    assert_eq!(
        map.step_cost(Mobility::Leg, false, b, hex("11.12"))
            .unwrap(),
        Some(8)
    );
    assert!(map
        .step_cost(Mobility::Wheeled, false, b, hex("11.12"))
        .is_err());
    // 2.17: the culvert, in Column, +2 leg on top of the hex.
    assert_eq!(
        map.step_cost(Mobility::Leg, true, c, d).unwrap(),
        Some(4 + 4)
    );
    assert!(map.step_cost(Mobility::Leg, false, c, d).is_err());
    // A hex the map does not know is not checked.
    assert_eq!(
        map.path_cost(Mobility::Leg, false, a, &[hex("10.9")])
            .unwrap(),
        None
    );
    assert!(Map::parse("side 10.10 12.12 stream").is_err());
}

#[test]
fn hexes_adjacency_reconstructed_from_the_hexsides_the_text_names() {
    for (a, b) in [
        ("55.202", "56.201"),
        ("75.130", "76.130"),
        ("76.127", "77.127"),
        ("86.118", "87.118"),
        ("70.156", "70.157"),
        ("63.185", "63.186"),
    ] {
        assert!(
            hex(a).adjacent(hex(b)) && hex(b).adjacent(hex(a)),
            "{a}/{b}"
        );
        assert_eq!(hex(a).distance(hex(b)), 1);
    }
    for h in ["55.202", "56.201"] {
        for n in hex(h).neighbours() {
            assert!(hex(h).adjacent(n) && n.adjacent(hex(h)));
        }
    }
}

#[test]
fn order_language_round_trips() {
    for text in [
        "weather",
        "fog",
        "airdrop 1100",
        "plan 2 506:B 502:A ind-101:B",
        "move A/502 56.201 56.202 column",
        "fire A/502 56.203 small-arms",
        "opfire G/1 41.231 mortar on city -- range 3",
        "assault A/502 56.203",
        "result s?",
        "tq A/326 wire son pass 0-6",
        "rally A/502 pass 0,2,4-5",
        "barrage G/art 41.231 heavy pass 0-4",
        "demolish son fz",
        "droproll A/502 B glider flak 1 flak88 2",
        "status",
        "route 42.228 43.228",
        "route stay",
        "end",
        "pass",
        "dispute 12 out of range",
    ] {
        let c = order::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(order::describe(&c), text);
        assert_eq!(order::parse(&order::describe(&c)).unwrap(), c);
    }
}

#[test]
fn board_in_text_shows_clock_weather_club_route_and_no_line_over_78() {
    let mut s = game("the-best-laid-plans");
    s.phase = Phase::Activation;
    ok(&mut s, "allied", "move A/502 56.201 56.202 column", &[]);
    let text = WhereEaglesDare.board_text(&s, &Viewer::Spectator).unwrap();
    assert!(
        text.contains("1300 17 Sept")
            && text.contains("Club Route: 41.232")
            && text.contains("A/502"),
        "{text}"
    );
    assert!(text.lines().all(|l| l.chars().count() <= 78), "{text}");
}
