//! One test per section of the Where Eagles Dare exclusive rules implemented so far, named
//! after the section. Each sets a scenario up, puts the state where the rule bites, and plays
//! orders through the ruleset with scripted dice (a d10 face 10 reads 0).

use std::collections::VecDeque;

use despatch_core::engine::dice::hidden_stream;
use despatch_core::engine::ruleset::{
    Ctx, DiceSource, Outcome, RuleError, Rules, Seat, SeatDef, Setup, Viewer,
};
use despatch_core::rules::where_eagles_dare::command;
use despatch_core::rules::where_eagles_dare::data::{DropResult, Spur, Weather, DATA};
use despatch_core::rules::where_eagles_dare::hex::Hex;
use despatch_core::rules::where_eagles_dare::los::{hexes_between, line_of_sight, Sight};
use despatch_core::rules::where_eagles_dare::oob::{Class, Oob, OOB};
use despatch_core::rules::where_eagles_dare::order;
use despatch_core::rules::where_eagles_dare::state::{
    AirDropCounters, Bailey, Bridge, Ferry, Marks, OffMap, Phase, RaidMarker, Side, State, Unit,
};
use despatch_core::rules::where_eagles_dare::terrain::{
    fire_modifier, Map, Mobility, Terrain, CHART,
};
use despatch_core::rules::where_eagles_dare::{
    chits, declared, offmap, supply, victory, WhereEaglesDare,
};
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

/// Plays the turn out: each side buys no chit, the German asks no status check and fires at
/// nothing, each chit's owner ends his impulse, until the clock moves (every chit drawn; the
/// draws and the CP/DP rolls read the script's default die).
fn next_turn(s: &mut State) {
    let now = (s.day, s.time);
    for _ in 0..100 {
        if s.phase == Phase::Huber {
            // KG Huber's master as the server's seal leaves it (S5.5).
            s.huber.commitment = Some("huber".into());
            chits::to_buy(s);
            continue;
        }
        let (seat, text) = match &s.phase {
            Phase::Buy { side } => (side.name(), "buy none"),
            Phase::Activation if s.status_window => ("german", "pass"),
            Phase::Activation if s.window.is_some() => (s.impulse.other().name(), "pass"),
            Phase::Activation => (s.impulse.name(), "end"),
            other => panic!("next_turn: the turn waits for {other:?}"),
        };
        order(s, seat, text, &[]).unwrap_or_else(|e| panic!("{text}: {e}"));
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
    s.demolition = None;
    s.pending = None;
    s.activity.clear();
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
    assert_eq!(
        s.phase,
        Phase::Buy { side: Side::Allied },
        "no fog roll once it cleared: step 6 next"
    );
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
    assert_eq!((s.time, &s.phase), (3, &Phase::Buy { side: Side::Allied }));
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
    assert_eq!(s.phase, Phase::Buy { side: Side::Allied });
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
    ok(&mut s, "allied", "droproll A/327 B glider flak 1", &[4]);
}

/// 3.4.1 with S5.4: on Drop One the flak is still face down when the Allied player writes his
/// roll, so he may name the flak units projecting a Fire Zone into the zone (`fz`) and the
/// engine counts the 88s (+2) and the others (+1) as the flak flips.
#[test]
fn drop_table_3_4_1_flak_named_by_fire_zone_the_engine_counts_the_88s_s5_4() {
    let mut s = game("the-best-laid-plans");
    s.phase = Phase::Activation;
    assert!(!s.flak_flipped);
    let of = |t: bool| {
        s.flak
            .iter()
            .find(|(_, ty)| (*ty == "88") == t)
            .map(|(u, _)| u.clone())
            .expect("both kinds of flak")
    };
    let (heavy, light) = (of(true), of(false));
    let mut named = s.clone();
    ok(
        &mut named,
        "allied",
        &format!("droproll A/327 B glider fz {light},{heavy}"),
        &[4],
    );
    assert!(named.flak_flipped, "the flak flips with Drop One's roll");
    let mut counted = s.clone();
    ok(
        &mut counted,
        "allied",
        "droproll A/327 B glider flak 1 flak88 1",
        &[4],
    );
    assert_eq!(named, counted, "one 88 (+2) and one other (+1), as counted");
    for bad in [
        format!("droproll A/327 B glider fz {light} flak 1"),
        "droproll A/327 B glider fz A/502".to_owned(),
        format!("droproll A/327 B glider fz {heavy},{heavy}"),
    ] {
        refused(&mut s, "allied", &bad, "3.4.1");
    }
}

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
    assert_eq!(s.lost, None);
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
    assert_eq!(
        s.phase,
        Phase::Buy { side: Side::Allied },
        "no release on the 17th: step 6"
    );
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
    ok(&mut s, "german", "result none", &[2]);
    ok(&mut s, "german", "pass", &[]); // Heroic drawn, placed on no unit
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
    next_turn(&mut s);
    assert_eq!(
        s.highway.closed, 2,
        "still on Club Route next turn: another Closed marker"
    );
}

#[test]
fn attacking_club_route_4_3_3_status_check_2_closed_and_3_attacked_cut_on_7_or_less() {
    for (die, cut) in [(7, true), (8, false), (9, false), (10, true)] {
        let mut s = game("the-best-laid-plans");
        s.phase = Phase::Activation;
        s.chit = Some("div-guards".into());
        s.status_window = true;
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
    s.status_window = true;
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
    ok(&mut s, "german", "assault G/1 50.150", &[]);
    // S4.4: the Units assaulted fire first; the assault's die follows their pass.
    ok(&mut s, "allied", "pass", &[9]);
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
    ok(&mut s, "german", "place heroic G/1", &[]);
    ok(&mut s, "german", "fire G/1 50.150 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[3]);
    assert!(s.heroic.is_empty(), "the marker comes off with the chit");
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
    // Three Typhoons to place (their attacks: the test named after S3.1's Typhoons below).
    assert_eq!(s.typhoons.as_ref().map(|t| t.left), Some(3));
    ok(&mut s, "allied", "pass", &[]);
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

/// 2.9, 2.10 on a game's map: the target hex's terrain is the map's where it knows the hex, so
/// an artillery "0" on a city or fortified hex of the map makes rubble with no terrain stated,
/// and a stated terrain the map contradicts is refused, changing nothing.
#[test]
fn cities_2_9_and_fortified_2_10_the_game_s_map_gives_the_target_hex_s_terrain() {
    let text = "hex 50.150 city\nhex 50.151 fortified\nhex 50.152 woods\n";
    let mut s = game_with("the-best-laid-plans", json!({ "map": text })).unwrap();
    s.phase = Phase::Activation;
    let e = refused(
        &mut s,
        "allied",
        "fire A/art 50.152 indirect-he on city",
        "2.1-2.19",
    );
    assert!(
        e.message.contains("woods at 50.152") && e.message.contains("on woods"),
        "{e}"
    );
    ok(&mut s, "allied", "fire A/art 50.152 indirect-he", &[10]);
    ok(&mut s, "allied", "result none", &[]);
    assert!(s.rubble.is_empty(), "woods make no rubble");
    ok(&mut s, "allied", "fire A/art 50.150 indirect-he", &[10]);
    ok(&mut s, "allied", "result none", &[]);
    assert_eq!(s.rubble, vec![hex("50.150")], "the map's city");
    ok(
        &mut s,
        "allied",
        "fire A/art 50.151 indirect-he on fortified",
        &[10],
    );
    ok(&mut s, "allied", "result none", &[]);
    assert_eq!(s.rubble, vec![hex("50.150"), hex("50.151")]);
    // A hex the map does not know: the stated terrain, as without a map.
    ok(
        &mut s,
        "allied",
        "fire A/art 50.153 indirect-he on city",
        &[10],
    );
    ok(&mut s, "allied", "result none", &[]);
    assert_eq!(s.rubble.len(), 3);
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
    // The roll comes when an enemy Unit enters one of its hexes (decision 40).
    allied_impulse(&mut s, "div-101");
    play(&mut s, "allied", "move A/x 56.203 56.202", &[]);
    ok(&mut s, "german", "demolish son", &[6]);
    assert!(
        !s.bridges["son"].destroyed && s.bridges["son"].wired_by.is_none(),
        "6 misses without a Fire Zone; unwired"
    );
    no_opfire(&mut s);
    // Control regained (decision 39): German units the last to enter both hexes since.
    play(&mut s, "allied", "move A/x 56.203", &[]);
    german_impulse(&mut s);
    play(&mut s, "german", "move G/a 56.201 56.202 column", &[]);
    ok(&mut s, "german", "tq G/eng wire son pass 0-6", &[1]);
    no_opfire(&mut s);
    allied_impulse(&mut s, "div-101");
    play(&mut s, "allied", "move A/y 56.200 56.201", &[]);
    ok(&mut s, "german", "demolish son fz", &[6]);
    assert!(s.bridges["son"].destroyed);
}

#[test]
fn bridge_demolition_2_15_6_the_engineer_wiring_a_bridge_cannot_be_in_column() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    s.units.insert(
        "G/eng".into(),
        Unit {
            side: Side::German,
            hex: hex("56.201"),
            column: true,
        },
    );
    let e = refused(
        &mut s,
        "german",
        "tq G/eng wire son pass 0-6",
        "2.15.6 Bridge Demolition",
    );
    assert!(
        e.message.contains("in Column at 56.201") && e.message.contains("without 'column'"),
        "{e}"
    );
    s.units.get_mut("G/eng").unwrap().column = false;
    ok(&mut s, "german", "tq G/eng wire son pass 0-6", &[2]);
    assert_eq!(s.bridges["son"].wired_by, Some(Side::German));
}

/// 2.15.6: "Your engineer Unit must begin its Action in one of the two hexes that share the
/// bridge hexside"; 2.15.3 (improve) and 2.18.1 (ferry) ask the same. Where the engine keeps
/// the engineer's position; a counter with none is the players' (decision 12) for wiring and
/// improving, while a ferry's marker goes in the engineer's hex, so a ferry needs one.
#[test]
fn bridge_demolition_2_15_6_the_engineer_begins_its_action_in_one_of_the_bridge_s_two_hexes() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    unit_at(&mut s, "pi/59-a", Side::German, "56.204");
    let e = refused(
        &mut s,
        "german",
        "tq pi/59-a wire son pass 0-6",
        "2.15.6 Bridge Demolition",
    );
    assert!(
        e.message.contains("pi/59-a is at 56.204")
            && e.message.contains("56.201 or 56.202")
            && e.message.contains("move it there first"),
        "{e}"
    );
    // In either hex of the hexside it wires; a counter with no position kept, as before.
    unit_at(&mut s, "pi/59-a", Side::German, "56.201");
    ok(&mut s, "german", "tq pi/59-a wire son pass 0-6", &[2]);
    assert_eq!(s.bridges["son"].wired_by, Some(Side::German));
    german_impulse(&mut s);
    ok(&mut s, "german", "tq G/eng wire best pass 0-6", &[2]);
    assert_eq!(s.bridges["best"].wired_by, Some(Side::German));
    // 2.15.3: improving, in one of the railroad bridge's hexes.
    german_impulse(&mut s);
    let e = refused(
        &mut s,
        "german",
        "tq pi/59-a improve dommel-rail pass 0-6",
        "2.15.3",
    );
    assert!(
        e.message.contains("pi/59-a is at 56.201") && e.message.contains("58.196 or 58.197"),
        "{e}"
    );
    // 2.18.1: "An engineer Unit must begin an activation in the applicable hex".
    s.bridges.get_mut("son").unwrap().destroyed = true;
    s.bridges.get_mut("son").unwrap().wired_by = None;
    unit_at(&mut s, "pi/59-a", Side::German, "56.204");
    let e = refused(&mut s, "german", "tq pi/59-a ferry son pass 0-6", "2.18");
    assert!(
        e.message.contains("56.201 or 56.202") && e.message.contains("move it there first"),
        "{e}"
    );
}

/// The spectator's board in text, its wrapped lines joined by single spaces.
fn one_line(s: &State) -> String {
    let board = WhereEaglesDare.board_text(s, &Viewer::Spectator).unwrap();
    board.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// 2.15.6: "you may try to demolish it when an enemy Unit enters one of the two hexes sharing
/// the bridge hexside and the bridge becomes contested" (decision 40). The entry that contests
/// a bridge the enemy wired opens his demolition window first (whatever his watch list), the
/// opportunity fire window after; a move stops before crossing it; `demolish` at any other
/// time is refused; the deadline passes.
#[test]
fn bridge_demolition_2_15_6_the_wiring_side_rolls_when_an_enemy_entry_makes_the_bridge_contested() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    ok(&mut s, "german", "tq G/eng wire son pass 0-6", &[2]);
    let e = refused(&mut s, "german", "demolish son", "2.15.6");
    assert!(
        e.message.contains("enters 56.201 or 56.202")
            && e.message.contains("'demolish son [fz]' or 'pass' then"),
        "{e}"
    );
    // The German watches elsewhere: no opportunity fire window, the demolition window still.
    ok(&mut s, "german", "watch 56.190", &[]);
    allied_impulse(&mut s, "div-101");
    ok(
        &mut s,
        "allied",
        "move A/x 56.203 56.202 56.201 column",
        &[],
    );
    assert_eq!(
        s.units["A/x"].hex,
        hex("56.202"),
        "it stops before crossing the wired bridge"
    );
    let d = s
        .demolition
        .clone()
        .expect("the German's demolition window");
    assert_eq!((d.side, d.bridges.clone()), (Side::German, ids(&["son"])));
    assert_eq!(s.window, None, "56.202 is not watched");
    let prompts = WhereEaglesDare.prompts(&s);
    assert_eq!(prompts.len(), 1);
    assert_eq!(
        prompts[0].options,
        ids(&["demolish son", "demolish son fz", "pass"])
    );
    assert!(
        order(&mut s, "allied", "end", &[]).is_err(),
        "the German first"
    );
    let e = refused(&mut s, "german", "opfire G/1 56.202 small-arms", "2.15.6");
    assert!(e.message.contains("demolish son [fz] or pass"), "{e}");
    ok(&mut s, "german", "pass", &[]);
    assert_eq!(s.demolition, None);
    assert_eq!(s.bridges["son"].wired_by, Some(Side::German));
    assert_eq!(s.bridges["son"].contested, vec![hex("56.202")]);
    let board = one_line(&s);
    assert!(
        board.contains("Bridge son: wired by german; contested (the enemy entered 56.202 last)"),
        "{board}"
    );
    // Contested already: another entry, and the crossing, open no window.
    ok(&mut s, "allied", "move A/x 56.201 column", &[]);
    assert_eq!(
        (s.units["A/x"].hex, s.demolition.clone()),
        (hex("56.201"), None)
    );
    // The German is the last to enter both again: he controls it; the next entry opens it,
    // and now the opportunity fire window follows in the watched hex.
    s.units.remove("A/x");
    german_impulse(&mut s);
    ok(&mut s, "german", "watch all", &[]);
    play(&mut s, "german", "move G/a 56.201 56.202 column", &[]);
    assert!(s.bridges["son"].contested.is_empty());
    allied_impulse(&mut s, "div-101");
    ok(&mut s, "allied", "move A/y 56.200 56.201", &[]);
    assert!(s.demolition.is_some() && s.window == Some(hex("56.201")));
    ok(&mut s, "german", "demolish son", &[3]);
    assert!(s.bridges["son"].destroyed);
    assert_eq!(s.demolition, None);
    assert_eq!(s.window, Some(hex("56.201")), "opportunity fire next");
    ok(&mut s, "german", "pass", &[]);
    // The deadline passes: the bridge stays wired.
    german_impulse(&mut s);
    ok(&mut s, "german", "tq G/eng wire best pass 0-6", &[2]);
    allied_impulse(&mut s, "div-101");
    ok(&mut s, "allied", "move A/z 50.162 50.161", &[]);
    assert!(s.demolition.is_some());
    let mut q: VecDeque<u32> = VecDeque::new();
    let mut ctx = Ctx::new(DiceSource::Scripted(&mut q), None);
    WhereEaglesDare
        .timeout(&mut s, &Seat::parse("german").unwrap(), &mut ctx)
        .unwrap();
    assert_eq!(s.demolition, None);
    assert_eq!(s.bridges["best"].wired_by, Some(Side::German));
}

/// 2.15.6: "If you miss the roll … you can only wire the bridge again if you regain control of
/// the bridge"; 2.15.5: "one of your Units must have been the last to enter both of the two
/// hexes" (decision 39). After the miss, that side's entries mark the hexes and the enemy's
/// clear them; the board says what is still to enter.
#[test]
fn bridge_demolition_2_15_6_after_a_missed_roll_the_bridge_is_wired_again_only_once_control_is_regained(
) {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    ok(&mut s, "german", "tq G/eng wire son pass 0-6", &[2]);
    allied_impulse(&mut s, "div-101");
    ok(&mut s, "allied", "move A/x 56.203 56.202", &[]);
    ok(&mut s, "german", "demolish son fz", &[8]);
    no_opfire(&mut s);
    assert_eq!(s.bridges["son"].wired_by, None);
    let board = one_line(&s);
    assert!(
        board.contains("Bridge son: german demolition missed; german units to enter 56.201 and 56.202 to regain control before wiring again"),
        "{board}"
    );
    german_impulse(&mut s);
    let e = refused(
        &mut s,
        "german",
        "tq G/eng wire son pass 0-6",
        "2.15.6 Bridge Demolition",
    );
    assert!(
        e.message.contains("demolition of the son bridge missed")
            && e.message.contains("still to enter: 56.201 and 56.202")
            && e.message.contains("move a unit there first"),
        "{e}"
    );
    // Units already there count only once they enter again; one hex is not enough.
    play(&mut s, "german", "move G/a 56.200 56.201", &[]);
    let e = refused(
        &mut s,
        "german",
        "tq G/eng wire son pass 0-6",
        "2.15.6 Bridge Demolition",
    );
    assert!(e.message.contains("still to enter: 56.202"), "{e}");
    // The enemy's entry after clears the German's mark.
    play(&mut s, "german", "move G/a 56.200", &[]);
    allied_impulse(&mut s, "div-101");
    play(&mut s, "allied", "move A/x 56.201 column", &[]);
    german_impulse(&mut s);
    play(&mut s, "german", "move G/b 56.203 56.202", &[]);
    let e = refused(
        &mut s,
        "german",
        "tq G/eng wire son pass 0-6",
        "2.15.6 Bridge Demolition",
    );
    assert!(e.message.contains("still to enter: 56.201"), "{e}");
    // A/x gone, a German unit enters 56.201 again: control regained.
    s.units.remove("A/x");
    play(&mut s, "german", "move G/a 56.201", &[]);
    let board = one_line(&s);
    assert!(
        board.contains("german demolition missed; control regained, it may wire again"),
        "{board}"
    );
    ok(&mut s, "german", "tq G/eng wire son pass 0-6", &[3]);
    assert_eq!(s.bridges["son"].wired_by, Some(Side::German));
    assert_eq!(s.bridges["son"].regain, None);
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
    ok(&mut s, "allied", "move A/502 56.202 56.203", &[]);
    assert!(
        order(&mut s, "allied", "end", &[]).is_err(),
        "the German's window first"
    );
    ok(&mut s, "german", "opfire G/1 56.203 small-arms", &[5]);
    ok(&mut s, "german", "result s?", &[]);
    assert_eq!(s.window, None);
    ok(&mut s, "allied", "end", &[]);
}

/// Issue 18: "after an action in a hex the opponent watches (a public standing list, default
/// all) he gets a window for opportunity fire". `watch` sets the seat's list; it stands until
/// changed, is shown on every board, and a move opens the window when any hex it enters is
/// watched.
#[test]
fn opportunity_fire_the_watch_list_opens_the_window_only_in_a_watched_hex() {
    let mut s = game("the-best-laid-plans");
    s.phase = Phase::Activation;
    ok(&mut s, "allied", "move A/502 56.202 56.203", &[]);
    assert_eq!(
        s.window,
        Some(hex("56.203")),
        "every hex is watched by default"
    );
    // In his window the German sets his list; the window stays open.
    ok(&mut s, "german", "watch 56.206 56.205", &[]);
    assert_eq!(s.window, Some(hex("56.203")));
    assert_eq!(
        s.watch[&Side::German].iter().copied().collect::<Vec<_>>(),
        [hex("56.205"), hex("56.206")]
    );
    ok(&mut s, "german", "pass", &[]);
    ok(&mut s, "allied", "move A/502 56.204", &[]);
    assert_eq!(s.window, None, "56.204 is not on the German's list");
    ok(&mut s, "allied", "move A/502 56.205", &[]);
    assert_eq!(s.window, Some(hex("56.205")));
    let board = WhereEaglesDare.board_text(&s, &Viewer::Spectator).unwrap();
    assert!(
        board.contains("german watch list (opportunity fire windows): 56.205 56.206"),
        "{board}"
    );
    ok(&mut s, "german", "watch none", &[]);
    ok(&mut s, "german", "pass", &[]);
    ok(&mut s, "allied", "move A/502 56.206", &[]);
    assert_eq!(s.window, None, "the German watches no hex");
    // Bad lists are refused and change nothing.
    for bad in ["watch", "watch 99", "watch all 56.201", "watch none 56.201"] {
        let before = s.clone();
        assert!(order(&mut s, "allied", bad, &[]).is_err(), "{bad}");
        assert_eq!(s, before, "{bad}");
    }
    ok(&mut s, "allied", "watch all", &[]);
    assert!(!s.watch.contains_key(&Side::Allied));
}

/// S4.4: "perform the Assault procedure as normal, starting with Opportunity Fire from the
/// Units being Assaulted": the assault is declared, the assaulted side's window comes first
/// (the watch list applies, decision 37), then its die; an assaulting unit the fire takes off
/// the map calls it off. Where the engine keeps the assaulting unit's hex, it assaults an
/// adjacent hex across a hexside as it would move: a bridge in Column and not destroyed
/// (2.15.1, 2.15.6), the culvert in Column (2.17).
#[test]
fn assault_s4_4_the_units_assaulted_fire_first_then_the_die_across_a_bridge_2_15_1_or_the_culvert_2_17_in_column(
) {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-101");
    unit_at(&mut s, "A/a", Side::Allied, "56.203");
    unit_at(&mut s, "G/d", Side::German, "56.204");
    let e = refused(&mut s, "allied", "assault A/a 56.206", "assault");
    assert!(e.message.contains("not next to 56.206"), "{e}");
    ok(&mut s, "allied", "assault A/a 56.204", &[]);
    assert_eq!(s.window, Some(hex("56.203")), "the defenders fire first");
    assert!(s.pending.is_none());
    refused(&mut s, "allied", "end", "sequence of play");
    ok(&mut s, "german", "opfire G/d 56.203 small-arms", &[4]);
    ok(&mut s, "german", "result none", &[7]);
    let p = s
        .pending
        .clone()
        .expect("the assault's die, drawn as the window closed");
    assert_eq!((p.side, p.face, p.fire), (Side::Allied, 7, false));
    ok(&mut s, "allied", "result none", &[]);
    // The fire eliminates the assaulting unit: no die.
    unit_at(&mut s, "A/b", Side::Allied, "56.203");
    ok(&mut s, "allied", "assault A/b 56.204", &[]);
    ok(&mut s, "german", "watch none", &[]);
    ok(&mut s, "german", "opfire G/d 56.203 small-arms", &[4]);
    ok(&mut s, "german", "result eliminated", &[]);
    assert!(s.pending.is_none() && s.assault.is_none() && s.window.is_none());
    // Watching no hex, the German has no window: the die comes at once.
    unit_at(&mut s, "A/c", Side::Allied, "56.205");
    ok(&mut s, "allied", "assault A/c 56.204", &[3]);
    assert_eq!(s.pending.as_ref().map(|p| p.face), Some(3));
    ok(&mut s, "allied", "result none", &[]);
    // 2.15.1: across a bridge in Column; 2.15.6: not across a destroyed one.
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-101");
    unit_at(&mut s, "A/e", Side::Allied, "56.202");
    unit_at(&mut s, "G/f", Side::German, "56.201");
    refused(&mut s, "allied", "assault A/e 56.201", "2.15.1");
    s.units.get_mut("A/e").unwrap().column = true;
    ok(&mut s, "allied", "assault A/e 56.201", &[]);
    s.bridges.get_mut("son").unwrap().destroyed = true;
    s.assault = None;
    s.window = None;
    let e = refused(&mut s, "allied", "assault A/e 56.201", "2.15");
    assert!(e.message.contains("destroyed"), "{e}");
    // 2.17: across the culvert in Column.
    unit_at(&mut s, "A/g", Side::Allied, "70.157");
    unit_at(&mut s, "G/h", Side::German, "70.156");
    refused(&mut s, "allied", "assault A/g 70.156", "2.17");
    s.units.get_mut("A/g").unwrap().column = true;
    ok(&mut s, "allied", "assault A/g 70.156", &[]);
    assert!(s.assault.is_some());
}

#[test]
fn disputes_are_logged_and_undo_nothing() {
    let mut s = game("the-best-laid-plans");
    s.phase = Phase::Activation;
    ok(&mut s, "allied", "move A/502 56.202 56.203", &[]);
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
        "move A/44rtr 63.186 63.185 tracked column",
        "move A/inf 58.196 58.197 mounted",
        "move A/502 56.201 cohesion",
        "fire A/502 56.203 small-arms",
        "opfire G/1 41.231 mortar on city -- range 3",
        "assault A/502 56.203",
        "watch all",
        "watch none",
        "watch 56.201 56.202",
        "droproll A/502 B fz flak-a,flak-c",
        "result s?",
        "result suppressed 11-bridge-re",
        "bulldozer dozer-1 sb-63",
        "bulldoze sb-63",
        "bailey 11-bridge-re son",
        "ferry A/502 son",
        "ferry A/inf son abandon",
        "tq A/eng improve dommel-rail pass 0-5",
        "tq A/326 wire son pass 0-6",
        "rally A/502 pass 0,2,4-5",
        "barrage G/art 41.231 heavy pass 0-4",
        "demolish son fz",
        "droproll A/502 B glider flak 1 flak88 2",
        "unmark A/502",
        "status",
        "route 42.228 43.228",
        "route stay",
        "release",
        "raid 19 decoy",
        "release dp 3",
        "offmap erc-fj-ersatz:3 kg-walther:1",
        "buy f-501 f-502 ind-101",
        "buy none",
        "spend 2 cp -- a second action",
        "spend 1 dp guards",
        "stopraid 2",
        "intelligence guards",
        "end",
        "pass",
        "dispute 12 out of range",
        "mount A/inf A/tank",
        "dismount A/inf",
        "dismount A/inf abandon",
        "dismount A/inf cohesion",
        "truck A/502 101st",
        "jeep A/502 101st",
        "park p1 41.230",
        "enterpark G/art p1",
        "roadblock 41.231",
        "roadblock 41.231 remove",
        "rearguard G/1 41.231",
        "entrench A/502",
        "joemann",
        "rout erc-fj-ersatz",
        "rout erc-fj-ersatz none",
        "rout erc-fj-ersatz G/1 G/2",
        "huber 59th",
        "huber chill",
        "dzchange B",
        "command A/502",
        "command A/502 by A/ldr phone from guards",
        "opfire G/1 41.231 small-arms covered",
        "opfire A/502 56.203 mortar on woods covered -- range 2",
        "assault A/502 56.203 -- across the culvert",
        "place heroic A/502",
        "place dutch 41.231",
        "place minefield 41.231",
        "place reinf f-501 A/502",
        "move A/jeep 56.201 56.202 wheeled",
        "move A/inf 56.201 56.202 mounted column",
        "tq A/eng repair son pass 0-5",
        "tq A/eng ferry son pass 0-5",
        "tq A/eng mines 41.231 pass 0-3",
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

/// The board in text names each bridge that carries a marker (2.15.3, 2.15.6, 2.15.7, 2.18):
/// destroyed, wired (by which side), improved, its Bailey's side and state, a ferry with its
/// hexes; a bridge with none is not listed.
#[test]
fn board_in_text_names_each_marked_bridge_and_its_markers() {
    let mut s = son_demolished();
    {
        let son = s.bridges.get_mut("son").unwrap();
        son.bailey = Some(Bailey {
            unit: "11-bridge-re".into(),
            bridged: false,
            disabled: false,
        });
        son.ferry = Some(Ferry {
            unit: "A/326".into(),
            side: Side::Allied,
            at: hex("56.201"),
            to: hex("56.202"),
            suppressed: true,
        });
    }
    s.bridges.get_mut("best").unwrap().wired_by = Some(Side::German);
    s.bridges.get_mut("dommel-rail").unwrap().improved = true;
    let text = WhereEaglesDare.board_text(&s, &Viewer::Spectator).unwrap();
    // A line longer than a mail's width goes on, indented, on the next ones.
    let line = |name: &str| {
        let mut lines = text
            .lines()
            .skip_while(|l| !l.starts_with(&format!("Bridge {name}:")));
        let first = lines
            .next()
            .unwrap_or_else(|| panic!("no line for the {name} bridge:\n{text}"));
        lines
            .take_while(|l| l.starts_with("      "))
            .fold(first.to_owned(), |all, l| format!("{all} {}", l.trim()))
    };
    let son = line("son");
    assert!(
        son.contains("destroyed")
            && son.contains("Bailey 11-bridge-re")
            && son.contains("allied ferry A/326 at 56.201 to 56.202, Suppressed"),
        "{son}"
    );
    assert_eq!(line("best"), "Bridge best: wired by german");
    assert_eq!(line("dommel-rail"), "Bridge dommel-rail: improved");
    let unmarked = s
        .bridges
        .iter()
        .find(|(_, b)| **b == Bridge::default())
        .map(|(n, _)| n.clone())
        .expect("a bridge with no marker");
    assert!(
        !text.contains(&format!("Bridge {unmarked}:")),
        "an unmarked bridge is listed:\n{text}"
    );
}

/// Plays an order with scripted dice and the hidden stream (campaign 1900s draw from it).
fn ok_hidden(s: &mut State, seat: &str, text: &str, dice: &[u32]) {
    let seat = Seat::parse(seat).unwrap();
    let cmd = WhereEaglesDare
        .parse(s, &seat, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut q: VecDeque<u32> = dice.iter().copied().collect();
    let mut hidden = hidden_stream(&[9; 32], "rules", 1);
    let mut ctx = Ctx::new(DiceSource::Scripted(&mut q), Some(&mut hidden));
    WhereEaglesDare
        .apply(s, &seat, &cmd, &mut ctx)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    assert!(q.is_empty(), "{text} left {q:?} of the scripted dice");
}

/// A refused order names its rule and changes nothing.
fn refused(s: &mut State, seat: &str, text: &str, rule: &str) -> RuleError {
    let before = s.clone();
    let e = order(s, seat, text, &[]).expect_err(text);
    assert!(e.rule.contains(rule), "{text}: {e:?}");
    assert_eq!(*s, before, "{text} changed the state");
    e
}

const NIGHT: usize = 7;

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
        if s.status_window {
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
fn s6_2_discounts_two_101st_formations_or_hot_and_cold_bring_independent_and_artillery_free() {
    let mut s = game("the-best-laid-plans");
    s.dp.insert("101st".into(), 3);
    refused(&mut s, "allied", "buy f-501 ind-101", "step 6");
    s.dp.insert("101st".into(), 4);
    ok(&mut s, "allied", "buy f-501 f-502 ind-101 art-101", &[]);
    assert_eq!(
        s.dp["101st"], 0,
        "the Independent and Artillery chits are free"
    );
    assert_eq!(s.bought.len(), 4);

    let mut s = game("the-best-laid-plans");
    s.dp.insert("guards".into(), 4);
    refused(
        &mut s,
        "allied",
        "buy f-hot ind-guards art-guards",
        "step 6",
    );
    ok(
        &mut s,
        "allied",
        "buy f-hot f-cold ind-guards art-guards",
        &[],
    );
    assert_eq!(s.dp["guards"], 0);

    // S6.10: the Guards pay for the 231st Brigade.
    let mut s = game("the-best-laid-plans");
    ok(&mut s, "allied", "buy f-231", &[]);
    assert_eq!((s.dp["guards"], s.dp["43rd"]), (2, 0));
}

#[test]
fn s6_4_no_guards_or_43rd_chit_bought_for_the_night_and_the_last_1900_chit_is_wasted() {
    let mut s = game("the-best-laid-plans");
    s.time = NIGHT;
    s.phase = Phase::Buy { side: Side::Allied };
    let e = refused(&mut s, "allied", "buy f-hot", "S6.4");
    assert!(e.message.contains("night"), "{e}");
    refused(&mut s, "allied", "buy f-231", "S6.4");
    s.held = Some("f-hot".into());
    ok(&mut s, "allied", "buy f-501", &[]);
    ok(&mut s, "german", "buy none", &[1]);
    assert_eq!(s.held, None);
    assert_eq!(
        s.chit.as_deref(),
        Some("dc-allied"),
        "f-hot is wasted: the first chit is the first drawn"
    );

    let mut s = game("the-best-laid-plans");
    s.held = Some("f-hot".into());
    ok(&mut s, "allied", "buy none", &[]);
    ok(&mut s, "german", "buy none", &[]);
    assert_eq!(s.chit.as_deref(), Some("f-hot"), "by day it opens the turn");
}

/// An activation phase whose mug holds `mug`, the Allied impulse ending.
fn mug_of(mug: &[&str]) -> State {
    let mut s = game("the-best-laid-plans");
    s.phase = Phase::Activation;
    s.impulse = Side::Allied;
    s.mug = mug.iter().map(|c| c.to_string()).collect();
    s
}

#[test]
fn s5_2_divisional_chits_add_the_air_raid_marker_first_then_roll_cp_and_dp() {
    let mut s = mug_of(&["div-101", "div-guards", "f-501"]);
    s.air_raid = Some(Default::default());
    // Die 2 of 3: div-guards. The raid's Closed marker comes first, so the Guards chit finds
    // a marker in the box and opens the German's status window; then CP 10 (0: +3), DP 4 (+1).
    ok(&mut s, "allied", "end", &[2, 10, 4]);
    assert_eq!(s.highway.closed, 1);
    assert!(s.status_window);
    assert_eq!((s.cp["guards"], s.dp["guards"]), (5, 5));
    ok(&mut s, "german", "pass", &[]);
    assert!(!s.status_window);
    s.highway.closed_this_turn = true;
    s.highway.closed = 0;
    refused(&mut s, "allied", "stopraid 5", "S5.2");
    ok(&mut s, "allied", "stopraid 3", &[]);
    ok(&mut s, "allied", "stopraid 1", &[]);
    assert_eq!(
        (s.dp["guards"], s.air_raid.as_ref().unwrap().dp_paid),
        (1, 4)
    );
    refused(&mut s, "allied", "stopraid 1", "S5.2");
    // Stopped: the next Division chit adds no marker, the per-turn cap notwithstanding.
    ok(&mut s, "allied", "end", &[1, 1, 1]);
    assert_eq!(s.chit.as_deref(), Some("div-101"));
    assert_eq!(s.highway.closed, 0);
    refused(&mut s, "allied", "stopraid 1", "S5.2");

    // Not stopped: each 101st or Guards Division chit adds one, beyond the cap of one a turn.
    let mut s = mug_of(&["div-101", "div-guards", "f-501"]);
    s.air_raid = Some(Default::default());
    s.highway.closed_this_turn = true;
    ok(&mut s, "allied", "end", &[1, 1, 1]);
    assert_eq!(s.highway.closed, 1, "the raid's marker is uncapped");
    ok(&mut s, "allied", "stopraid 1", &[]);
    assert_eq!(s.air_raid.as_ref().unwrap().dp_paid, 1);
    ok(&mut s, "allied", "end", &[2]);
    assert_eq!(s.chit.as_deref(), Some("f-501"));
    refused(&mut s, "allied", "stopraid 1", "S5.2");
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

#[test]
fn status_check_4_3_3_the_german_asks_it_when_the_guards_division_chit_comes_up() {
    let mut s = mug_of(&["div-guards", "f-501"]);
    s.highway.attacked = 3;
    s.highway.closed = 2;
    ok(&mut s, "allied", "end", &[1, 1, 1]);
    assert!(s.status_window);
    refused(&mut s, "allied", "move A/1 56.201", "sequence of play");
    refused(&mut s, "allied", "status", "sequence of play");
    ok(&mut s, "german", "status", &[7]);
    assert!(s.highway.cut);
    assert_eq!((s.highway.used_attacked, s.highway.used_closed), (3, 2));
    // In his own impulse, the German may not ask.
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    s.highway.attacked = 1;
    let e = refused(&mut s, "german", "status", "4.3.3");
    assert!(
        e.message.contains("Guards Armored Division Activation"),
        "{e}"
    );
    // An empty box opens no window.
    let mut s = mug_of(&["div-guards", "f-501"]);
    ok(&mut s, "allied", "end", &[1, 1, 1]);
    assert!(!s.status_window);
}

/// The end of the 1700 turn of `day`: the next `end` brings the 1900 turn.
fn before_1900(scenario: &str, day: u8) -> State {
    let mut s = game(scenario);
    s.day = day;
    s.last = (25, NIGHT);
    s.time = 5;
    s.phase = Phase::Activation;
    s.impulse = Side::Allied;
    s.mug.clear();
    s
}

fn ids(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

#[test]
fn release_4_3_1_not_on_the_17th_then_the_first_automatic_and_rolls_until_a_failure() {
    let mut s = before_1900("the-best-laid-plans", 17);
    ok(&mut s, "allied", "end", &[]);
    ok(&mut s, "allied", "route stay", &[]);
    assert!(s.released.is_empty(), "no release on the 17th");
    assert_eq!(s.phase, Phase::Buy { side: Side::Allied });

    let mut s = before_1900("the-best-laid-plans", 18);
    ok(&mut s, "allied", "end", &[]);
    ok(&mut s, "allied", "route stay", &[]);
    assert_eq!(
        s.released,
        ids(&["group-hot"]),
        "the first in line is automatic"
    );
    assert_eq!((s.phase.clone(), s.entries), (Phase::Release, 1));
    refused(&mut s, "allied", "end", "sequence of play");
    // Group Cold (6): 5 + 1 entry = 6, released.
    ok(&mut s, "allied", "release", &[5]);
    // Guards Art. (5): 5 + 2 entries − 2 DP = 5, released; 44 RTR is Auto; the Sherwood
    // Foresters suspend the line while the marker is on the map.
    ok(&mut s, "allied", "release dp 2", &[5]);
    assert_eq!(s.dp["guards"], 2);
    assert_eq!(
        s.released,
        ids(&["group-hot", "group-cold", "guards-art", "44-rtr"])
    );
    assert_eq!(s.phase, Phase::Buy { side: Side::Allied });

    let mut s = before_1900("the-best-laid-plans", 18);
    ok(&mut s, "allied", "end", &[]);
    ok(&mut s, "allied", "route stay", &[]);
    ok(&mut s, "allied", "release", &[6]);
    assert_eq!(
        s.released,
        ids(&["group-hot"]),
        "6 + 1 fails: wait for the next 1900"
    );
    assert_eq!(s.phase, Phase::Buy { side: Side::Allied });
}

#[test]
fn release_4_3_2_modifiers_bailey_bulldozer_cut_entries_dp_up_to_4_and_the_43rd() {
    for (face, released) in [(4, true), (5, false)] {
        let mut s = before_1900("the-best-laid-plans", 18);
        s.baileys_placed = 1;
        s.bulldozers_placed = 1;
        s.highway.cut = true;
        ok(&mut s, "allied", "end", &[]);
        ok(&mut s, "allied", "route stay", &[]);
        let e = refused(&mut s, "allied", "release dp 5", "4.3.2");
        assert!(e.message.contains("at most 4"), "{e}");
        // Group Cold (6): face +2 Bailey +1 Bulldozer +2 Cut +1 entry −4 DP = face + 2.
        ok(&mut s, "allied", "release dp 4", &[face]);
        assert_eq!(s.dp["guards"], 0, "paid whatever the roll");
        assert_eq!(
            s.released.contains(&"group-cold".into()),
            released,
            "face {face}"
        );
        if !released {
            assert_eq!(s.baileys_placed, 0, "counted for one release step");
        }
    }
    let mut s = before_1900("the-best-laid-plans", 18);
    s.dp.insert("guards".into(), 2);
    ok(&mut s, "allied", "end", &[]);
    ok(&mut s, "allied", "route stay", &[]);
    refused(&mut s, "allied", "release dp 3", "4.3.2");

    // The 43rd: no DP of its own, always −4.
    let mut s = before_1900("the-best-laid-plans", 21);
    s.released = ids(&[
        "group-hot",
        "group-cold",
        "guards-art",
        "44-rtr",
        "sherwood",
        "royal-dragoons",
    ]);
    s.marker = None;
    ok(&mut s, "allied", "end", &[]);
    assert_eq!(s.released.last().unwrap(), "101-sea-tail", "first in line");
    let e = refused(&mut s, "allied", "release dp 1", "4.3.2");
    assert!(e.message.contains("43rd"), "{e}");
    ok(&mut s, "allied", "release", &[8]); // 8 + 1 − 4 = 5: the 129th released
    ok(&mut s, "allied", "release", &[8]); // 8 + 2 − 4 = 6: the 130th not
    assert_eq!(s.released.last().unwrap(), "129-bde");
}

#[test]
fn release_4_3_1_the_example_20_sept_on_and_off_the_map() {
    // On the map: Guards Art. automatically, 44 RTR Auto, then the Sherwood Foresters wait.
    let mut s = before_1900("the-best-laid-plans", 20);
    s.released = ids(&["group-hot", "group-cold"]);
    ok(&mut s, "allied", "end", &[]);
    ok(&mut s, "allied", "route stay", &[]);
    assert_eq!(
        s.released,
        ids(&["group-hot", "group-cold", "guards-art", "44-rtr"])
    );
    assert_eq!(s.phase, Phase::Buy { side: Side::Allied }, "no roll at all");

    // Off the map: the four come in, and the 101st Sea Tail is rolled for with +4 (read as
    // the +1 per entry of 4.3.2; the example prints "−4").
    for (face, released) in [(2, true), (3, false)] {
        let mut s = before_1900("the-best-laid-plans", 20);
        s.released = ids(&["group-hot", "group-cold"]);
        s.marker = None;
        ok(&mut s, "allied", "end", &[]);
        assert_eq!(
            s.released,
            ids(&[
                "group-hot",
                "group-cold",
                "guards-art",
                "44-rtr",
                "sherwood",
                "royal-dragoons"
            ])
        );
        assert_eq!((s.phase.clone(), s.entries), (Phase::Release, 4));
        ok(&mut s, "allied", "release", &[face]);
        assert_eq!(
            s.released.contains(&"101-sea-tail".into()),
            released,
            "{face} + 4 against 6"
        );
    }
}

#[test]
fn release_4_3_1_the_1st_ab_sea_tail_is_always_bypassed() {
    let mut s = before_1900("the-best-laid-plans", 22);
    s.released = DATA.release_line[..DATA.release_line.len() - 2]
        .iter()
        .map(|e| e.id.clone())
        .collect();
    s.marker = None;
    ok(&mut s, "allied", "end", &[]);
    assert_eq!(s.released.len(), DATA.release_line.len());
    assert_eq!(
        s.released[s.released.len() - 2..],
        ids(&["82-sea-tail", "1-sea-tail"])
    );
    assert_eq!(s.entries, 1, "the 82nd counted, the 1st bypassed");
}

/// The campaign at 1900 of `day`, the release over: the German's off-map step.
fn off_map_step(day: u8) -> State {
    let mut s = before_1900("campaign", day);
    s.released = DATA.release_line.iter().map(|e| e.id.clone()).collect();
    ok(&mut s, "allied", "end", &[]);
    ok_hidden(&mut s, "allied", "route stay", &[]);
    assert_eq!(s.phase, Phase::OffMap);
    s
}

fn number(s: &State, formation: &str, to: &str) -> usize {
    1 + s.numbering[formation]
        .iter()
        .position(|d| d == to)
        .unwrap_or_else(|| panic!("{to} is not numbered for {formation}"))
}

#[test]
fn off_map_5_1_private_numbers_drawn_each_1900_shown_only_to_the_german_and_moves_enforced() {
    let mut s = off_map_step(18);
    let mut all: Vec<String> = s.numbering["erc-fj-ersatz"].clone();
    all.sort();
    assert_eq!(
        all,
        ids(&[
            "Best-West",
            "Geldrop",
            "Helmond",
            "Oirschot",
            "Tilburg",
            "map A",
            "map B",
            "map C"
        ])
    );
    let german = Viewer::Seat(Seat::parse("german").unwrap());
    let allied = Viewer::Seat(Seat::parse("allied").unwrap());
    let gv = WhereEaglesDare.view(&s, &german);
    assert_eq!(
        gv["off_map"]["numbering"]["kg-walther"]
            .as_object()
            .unwrap()
            .len(),
        6
    );
    for viewer in [&allied, &Viewer::Spectator] {
        let v = WhereEaglesDare.view(&s, viewer).to_string();
        let board = WhereEaglesDare.board_text(&s, viewer).unwrap();
        for secret in [
            "Tilburg",
            "Helmond",
            "Geldrop",
            "numbering",
            "erc-fj-ersatz",
        ] {
            assert!(
                !v.contains(secret) && !board.contains(secret),
                "{secret} in {v}"
            );
        }
    }
    let fj = |s: &State, to| number(s, "erc-fj-ersatz", to);
    let (oirschot, best_west) = (fj(&s, "Oirschot"), fj(&s, "Best-West"));
    let stiller_c = number(&s, "erc-kg-stiller", "map C");
    let (stiller, walther) = (
        number(&s, "erc-kg-stiller", "Geldrop"),
        number(&s, "kg-walther", "Weert"),
    );
    let e = refused(
        &mut s,
        "german",
        &format!("offmap erc-fj-ersatz:{oirschot} erc-kg-stiller:{stiller}"),
        "5.1",
    );
    assert!(e.message.contains("kg-walther"), "{e}");
    let e = refused(
        &mut s,
        "german",
        &format!("offmap erc-fj-ersatz:{best_west} erc-kg-stiller:{stiller} kg-walther:{walther}"),
        "5.1",
    );
    assert!(e.message.contains("not adjacent"), "{e}");
    let e = refused(
        &mut s,
        "german",
        &format!("offmap erc-fj-ersatz:{oirschot} erc-kg-stiller:{stiller_c} kg-walther:{walther}"),
        "5.1",
    );
    assert!(
        e.message.contains("does not lead to the map display"),
        "{e}"
    );
    refused(
        &mut s,
        "german",
        "offmap erc-fj-ersatz:99 erc-kg-stiller:1 kg-walther:1",
        "5.1",
    );
    // The corps roll after the move: XII 6 into Reusel (6) advances; VIII 6 into Weert,
    // where KG Walther stays (+1), fails.
    let order =
        format!("offmap erc-fj-ersatz:{oirschot} erc-kg-stiller:{stiller} kg-walther:{walther}");
    ok_hidden(&mut s, "german", &order, &[6, 6]);
    assert_eq!(s.offmap["erc-fj-ersatz"], OffMap::Box("Oirschot".into()));
    assert_eq!(s.offmap["erc-kg-stiller"], OffMap::Box("Geldrop".into()));
    assert_eq!(s.offmap["kg-walther"], OffMap::Box("Weert".into()));
    assert!(s.numbering.is_empty());
    assert_eq!(
        (
            s.corps["xii"].at,
            s.corps["viii"].at,
            s.corps["viii"].failures
        ),
        (1, 0, 1)
    );
    assert_eq!(s.phase, Phase::Buy { side: Side::Allied });
    let v = WhereEaglesDare.view(&s, &allied).to_string();
    assert!(
        v.contains("Reusel") && !v.contains("Oirschot"),
        "the corps is public: {v}"
    );
}

#[test]
fn off_map_5_1_the_map_display_arrives_at_0700_and_5_2_not_behind_a_corps() {
    let mut s = off_map_step(18);
    let stiller = number(&s, "erc-kg-stiller", "Geldrop");
    let fj = number(&s, "erc-fj-ersatz", "Tilburg");
    let walther = number(&s, "kg-walther", "Weert");
    ok_hidden(
        &mut s,
        "german",
        &format!("offmap erc-fj-ersatz:{fj} erc-kg-stiller:{stiller} kg-walther:{walther}"),
        &[9, 9],
    );
    // Next 1900: Geldrop into the map display at C.
    s.day = 19;
    s.time = 5;
    s.phase = Phase::Activation;
    s.mug.clear();
    ok(&mut s, "allied", "end", &[]);
    ok_hidden(&mut s, "allied", "route stay", &[]);
    let order = format!(
        "offmap erc-fj-ersatz:{} erc-kg-stiller:{} kg-walther:{}",
        number(&s, "erc-fj-ersatz", "Tilburg"),
        number(&s, "erc-kg-stiller", "map C"),
        number(&s, "kg-walther", "Weert")
    );
    ok_hidden(&mut s, "german", &order, &[9, 9]);
    assert_eq!(
        s.offmap["erc-kg-stiller"],
        OffMap::Entering {
            letter: "C".into(),
            from: "Geldrop".into()
        }
    );
    // KG Walther bound for D, now behind VIII Corps in Asten: it stays in its box.
    s.offmap.insert(
        "kg-walther".into(),
        OffMap::Entering {
            letter: "D".into(),
            from: "Asten".into(),
        },
    );
    s.corps.get_mut("viii").unwrap().at = 2;
    let e = offmap::legal(&s, "walther", "Asten", "map D").unwrap_err();
    assert!(e.contains("behind the viii Corps"), "{e}");
    s.time = NIGHT;
    s.phase = Phase::Activation;
    s.mug.clear();
    ok(&mut s, "allied", "end", &[]);
    assert_eq!((s.day, s.time), (20, 0));
    assert_eq!(s.offmap["erc-kg-stiller"], OffMap::OnMap);
    assert_eq!(s.offmap["kg-walther"], OffMap::Box("Asten".into()));
    // The arrived formation's units come onto the map; those still in a box do not.
    german_impulse(&mut s);
    s.chit = None;
    ok(&mut s, "german", "move 1/erc-kg-stiller 30.100", &[]);
    no_opfire(&mut s);
    let e = refused(&mut s, "german", "move 1/kg-walther 30.101", "5.1");
    assert!(e.message.contains("in box Asten"), "{e}");
}

#[test]
fn flank_corps_5_2_failures_help_german_formations_hinder_and_club_route_off_the_map_helps() {
    let mut s = off_map_step(18);
    s.corps.get_mut("viii").unwrap().failures = 2;
    s.marker = None;
    let order = format!(
        "offmap erc-fj-ersatz:{} erc-kg-stiller:{} kg-walther:{}",
        number(&s, "erc-fj-ersatz", "Tilburg"),
        number(&s, "erc-kg-stiller", "Helmond"),
        number(&s, "kg-walther", "Weert")
    );
    // XII: 9 − 4 = 5 ≤ 6 advances. VIII: 9 − 2 failures + 1 (KG Walther in Weert) − 4 = 4.
    ok_hidden(&mut s, "german", &order, &[9, 9]);
    assert_eq!((s.corps["xii"].at, s.corps["viii"].at), (1, 1));
    // Campaign only: no corps and no off-map step in the scenarios.
    let s = game("the-best-laid-plans");
    assert!(s.corps.is_empty() && s.offmap.is_empty());
}

#[test]
fn board_in_text_shows_points_mug_releases_corps_and_the_off_map_display_to_the_german_only() {
    let mut s = off_map_step(18);
    s.mug = ids(&[
        "div-101",
        "div-guards",
        "f-501",
        "f-502",
        "f-506",
        "f-327",
        "ind-101",
    ]);
    let german = Viewer::Seat(Seat::parse("german").unwrap());
    let allied = Viewer::Seat(Seat::parse("allied").unwrap());
    let g = WhereEaglesDare.board_text(&s, &german).unwrap();
    let a = WhereEaglesDare.board_text(&s, &allied).unwrap();
    for text in [&g, &a] {
        assert!(
            text.contains("CP/DP: 101st 2/4")
                && text.contains("mug: div-101 div-guards")
                && text.contains("Released: group-hot")
                && text.contains("XII Corps: Turnhout"),
            "{text}"
        );
        assert!(text.lines().all(|l| l.chars().count() <= 78), "{text}");
    }
    let tilburg = number(&s, "erc-fj-ersatz", "Tilburg");
    assert!(
        g.contains("Off map erc-fj-ersatz: Tilburg")
            && g.contains(&format!("{tilburg}=Tilburg (stay)")),
        "{g}"
    );
    assert!(!a.contains("Off map") && !a.contains("Tilburg"), "{a}");
}

fn reveal(s: &mut State, seat: &str, commitment: &str, choice: serde_json::Value) {
    let mut q = VecDeque::new();
    let mut ctx = Ctx::new(DiceSource::Scripted(&mut q), None);
    WhereEaglesDare
        .reveal(
            s,
            &Seat::parse(seat).unwrap(),
            commitment,
            &choice,
            &mut ctx,
        )
        .unwrap();
}

#[test]
fn s5_2_raid_markers_sealed_before_play_the_first_revealed_raid_counts_the_20th_implied() {
    let mut s = game("campaign");
    assert_eq!(s.phase, Phase::Raids { day: 18 });
    refused(&mut s, "german", "raid 19 raid", "S5.2");
    let e = refused(&mut s, "german", "raid 18 raid", "S5.2");
    assert!(e.message.contains("sealed by the server"), "{e}");
    refused(&mut s, "allied", "raid 18 raid", "sequence of play");
    // The markers as the server's seal leaves them: commitments only.
    let sealed = |s: &mut State| {
        s.raid_markers = [18, 19, 20]
            .into_iter()
            .map(|day| RaidMarker {
                day,
                commitment: format!("c{day}"),
                revealed: None,
            })
            .collect();
    };
    sealed(&mut s);
    let allied = WhereEaglesDare
        .view(&s, &Viewer::Seat(Seat::parse("allied").unwrap()))
        .to_string();
    assert_eq!(allied.matches("face down").count(), 3, "{allied}");
    reveal(&mut s, "german", "c18", json!({"raid_marker": "decoy"}));
    reveal(&mut s, "german", "c19", json!({"raid_marker": "decoy"}));
    assert_eq!(s.air_raid, None);
    reveal(&mut s, "german", "c20", json!({"raid_marker": "decoy"}));
    assert!(s.air_raid.is_some(), "two decoys: the 20th is the raid");

    let mut s = game("campaign");
    sealed(&mut s);
    reveal(&mut s, "german", "c18", json!({"raid_marker": "raid"}));
    s.air_raid.as_mut().unwrap().dp_paid = 2;
    reveal(&mut s, "german", "c19", json!({"raid_marker": "raid"}));
    assert_eq!(
        s.air_raid.as_ref().unwrap().dp_paid,
        2,
        "the first revealed raid counts; a second is a decoy"
    );
    assert_eq!(s.raid_markers[1].revealed, Some(true));
}

#[test]
fn intelligence_s3_1_the_drawing_side_names_a_division_for_6_cp_and_2_dp() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    s.cups.insert(Side::German, ids(&["intelligence"]));
    ok(&mut s, "german", "fire G/1 56.203 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[1]);
    assert_eq!(s.intelligence, Some(Side::German));
    refused(&mut s, "german", "end", "S3.1");
    let e = refused(&mut s, "german", "intelligence 101st", "S3.1");
    assert!(e.message.contains("erc, 59th, walther"), "{e}");
    ok(&mut s, "german", "intelligence 59th", &[]);
    assert_eq!((s.cp["59th"], s.dp["59th"], s.intelligence), (8, 5, None));
}

fn route_off_points(day: u8) -> i64 {
    DATA.victory
        .route_off
        .iter()
        .find(|r| r.0 == day)
        .map_or(0, |r| r.1)
}

#[test]
fn victory_4_3_1_released_formations_count_auto_ones_do_not_and_the_day_club_route_came_off() {
    let mut s = game("the-best-laid-plans");
    assert_eq!(victory::tally(&s).allied.total, 0);
    s.released = ids(&[
        "group-hot",
        "group-cold",
        "guards-art",
        "44-rtr",
        "sherwood",
        "royal-dragoons",
        "101-sea-tail",
        "129-bde",
    ]);
    // Five with a marker (the 43rd's 129th counted); 44 RTR, the Sherwood Foresters and the
    // Royal Dragoons are Auto and do not count.
    assert_eq!(victory::counted_releases(&s), 5);
    let v = &DATA.victory;
    assert_eq!(victory::tally(&s).allied.total, 5 * v.released);
    s.route_cleared_day = Some(19);
    let t = victory::tally(&s);
    assert_eq!(t.allied.total, 5 * v.released + route_off_points(19));
    assert!(
        route_off_points(19) > route_off_points(21),
        "earlier is worth more"
    );
    assert!(
        t.allied.text().contains("Club Route off the map 19 Sept"),
        "{:?}",
        t.allied
    );
    // The 1st AB Sea Tail is bypassed, never released: it scores nothing.
    s.released.push("1-sea-tail".into());
    assert_eq!(victory::counted_releases(&s), 5);
}

#[test]
fn victory_4_3_3_attacked_and_closed_markers_score_for_the_german_set_aside_or_not() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    // German fire at Club Route (not a 9): an Attacked marker; a German unit on it: Closed.
    ok(&mut s, "german", "fire G/1 41.231 small-arms", &[4]);
    ok(&mut s, "german", "result none", &[]);
    ok(&mut s, "german", "move G/2 41.230", &[]);
    let v = &DATA.victory;
    assert_eq!(victory::tally(&s).german.total, v.attacked + v.closed);
    // A status check sets the markers aside; they still count.
    s.highway.closed += 1;
    s.status_window = true;
    ok(&mut s, "german", "status", &[9]);
    assert_eq!((s.highway.attacked, s.highway.closed), (0, 0));
    let t = victory::tally(&s);
    assert_eq!(t.german.total, v.attacked + 2 * v.closed);
    assert_eq!(t.margin, -t.german.total);
}

#[test]
fn victory_levels_the_game_ends_after_the_last_turn_with_points_level_and_winner() {
    let mut s = before_1900("the-best-laid-plans", 18);
    s.last = (18, 5);
    assert_eq!(WhereEaglesDare.outcome(&s), Outcome::Running);
    s.highway.used_closed = 10;
    ok(&mut s, "allied", "end", &[]);
    assert!(s.over && s.phase == Phase::Over, "the last turn is over");
    let Outcome::Finished {
        winners,
        scores,
        summary,
    } = WhereEaglesDare.outcome(&s)
    else {
        panic!("the game is over");
    };
    let german = 10 * DATA.victory.closed;
    assert_eq!((scores["allied"], scores["german"]), (0, german));
    let level = DATA.victory.levels.iter().find(|l| -german >= l.0).unwrap();
    assert_eq!(winners, vec![Seat::parse("german").unwrap()]);
    assert!(summary.contains(&level.2), "{summary}");
    // An even game is a draw: no winner.
    let mut s = before_1900("the-best-laid-plans", 18);
    s.last = (18, 5);
    ok(&mut s, "allied", "end", &[]);
    let Outcome::Finished { winners, .. } = WhereEaglesDare.outcome(&s) else {
        panic!("over");
    };
    assert!(winners.is_empty(), "margin 0 is a draw");
}

#[test]
fn board_in_text_and_view_show_the_victory_points_so_far() {
    let mut s = game("the-best-laid-plans");
    s.released = ids(&["group-hot"]);
    s.highway.attacked = 1;
    let allied = Viewer::Seat(Seat::parse("allied").unwrap());
    let text = WhereEaglesDare.board_text(&s, &allied).unwrap();
    assert!(
        text.contains("Victory points: Allied") && text.contains("(so far)"),
        "{text}"
    );
    assert!(text.lines().all(|l| l.chars().count() <= 78), "{text}");
    let view = WhereEaglesDare.view(&s, &allied);
    assert_eq!(
        view["victory"]["margin"],
        json!(DATA.victory.released - DATA.victory.attacked)
    );
}

/// The options are a typed struct: a name it does not know is refused, naming it; a value of
/// the wrong kind is refused with the name's own text; of several faults, the first name's.
#[test]
fn options_unknown_names_and_wrong_values_are_refused_with_the_same_texts() {
    let refusal = |options: serde_json::Value| {
        let e = game_with("the-best-laid-plans", options).unwrap_err();
        (e.rule, e.message)
    };
    assert_eq!(
        refusal(json!({ "fog_of_war": true })),
        (
            "options".into(),
            "no option 'fog_of_war': the options are free_drop, last_chit_held, southern_bridge_unstable, covering_fire, alternate_chits, german_lost, command_los, reinf_eliminated, roadblock_bars_own, release_entry, heroic_tq, tq_modifiers, airborne_tanks, map".into()
        )
    );
    assert_eq!(
        refusal(json!({ "free_drop": "yes" })),
        ("options".into(), "free_drop is true or false".into())
    );
    assert_eq!(
        refusal(json!({ "covering_fire": null })),
        ("options".into(), "covering_fire is true or false".into())
    );
    assert_eq!(
        refusal(json!({ "map": 3 })),
        (
            "options".into(),
            "map is the map's text: hex and side lines".into()
        )
    );
    assert!(refusal(json!({ "map": "hex 1.1 lava" }))
        .1
        .starts_with("map (the format of docs/rules/where-eagles-dare.md): "));
    assert_eq!(
        refusal(json!({ "airborne_tanks": true })),
        (
            "O4.0 Airborne Tanks".into(),
            "airborne_tanks is none, tetrarch or locust: one type of tank".into()
        )
    );
    // serde_json's objects are in the names' order: the first refused is reported.
    assert_eq!(
        refusal(json!({ "zzz": 1, "heroic_tq": 2 })),
        ("options".into(), "heroic_tq is true or false".into())
    );
    let e = game_with(
        "a-ride-in-the-country",
        json!({ "southern_bridge_unstable": false, "tq_modifiers": 1 }),
    )
    .unwrap_err();
    assert_eq!(e.rule, "2.11 Streams");
    // Not an object: no options, as before.
    let s = game_with("the-best-laid-plans", json!(null)).unwrap();
    assert!(s.last_chit_held && s.roadblock_bars_own && s.airborne_tanks.is_none());
}

fn game_with(scenario: &str, options: serde_json::Value) -> Result<State, RuleError> {
    let setup = Setup {
        game_id: "rules".into(),
        scenario: scenario.into(),
        options,
        seats: SeatDef::named_by_id(&["allied", "german"]).unwrap(),
    };
    WhereEaglesDare.setup(&setup, &mut hidden_stream(&[7; 32], "rules", 0))
}

/// An Allied impulse of the chit `chit` (a fresh impulse number).
fn allied_impulse(s: &mut State, chit: &str) {
    s.phase = Phase::Activation;
    s.impulse = Side::Allied;
    s.window = None;
    s.demolition = None;
    s.pending = None;
    s.chit = Some(chit.into());
    s.impulse_no += 1;
    // A new impulse: no unit has acted in it yet (chits::play clears the record).
    s.activity.clear();
}

/// The watching seat lets an action go without opportunity fire (a demolition window first is
/// left for the test to answer).
fn no_opfire(s: &mut State) {
    if s.window.is_some() && s.demolition.is_none() {
        let watcher = s.impulse.other().name();
        ok(s, watcher, "pass", &[]);
    }
}

fn play(s: &mut State, seat: &str, text: &str, dice: &[u32]) {
    ok(s, seat, text, dice);
    no_opfire(s);
}

#[test]
fn streams_2_11_a_vehicle_s_first_crossing_rolls_and_a_9_makes_the_bridge_unstable() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-101");
    // A 9: unstable; the vehicle stops before the bridge.
    play(
        &mut s,
        "allied",
        "move A/44rtr 63.186 63.185 tracked column",
        &[9],
    );
    assert_eq!(s.units["A/44rtr"].hex, hex("63.186"));
    assert!(s.stream_bridges["sb-63"].checked && s.stream_bridges["sb-63"].unstable);
    // No vehicle crosses it now, of either side; a Leg Unit does, with no roll.
    let e = refused(
        &mut s,
        "allied",
        "move A/44rtr 63.185 tracked column",
        "2.11",
    );
    assert!(e.message.contains("unstable"), "{e}");
    refused(
        &mut s,
        "allied",
        "move A/jeep 63.186 63.185 mounted column",
        "2.11",
    );
    german_impulse(&mut s);
    refused(
        &mut s,
        "german",
        "move G/pz 63.185 63.186 63.187 tracked column",
        "2.11",
    );
    allied_impulse(&mut s, "f-502");
    play(&mut s, "allied", "move A/502 63.186 63.185", &[]);
    // Any other roll: a stream bridge like any other, never rolled for again.
    allied_impulse(&mut s, "div-guards");
    play(
        &mut s,
        "allied",
        "move A/irish 76.127 77.127 tracked column",
        &[8],
    );
    assert_eq!(s.units["A/irish"].hex, hex("77.127"));
    assert!(s.stream_bridges["sb-76"].checked && !s.stream_bridges["sb-76"].unstable);
    play(&mut s, "allied", "move A/irish 76.127 tracked column", &[]);
    assert_eq!(s.units["A/irish"].hex, hex("76.127"));
}

#[test]
fn streams_2_11_the_southern_bridge_is_checked_in_a_ride_in_the_country_an_option_elsewhere() {
    let s = game("a-ride-in-the-country");
    assert!(
        !s.stream_bridges["sb-55"].checked,
        "A Ride in the Country checks it"
    );
    let s = game("the-best-laid-plans");
    assert!(s.stream_bridges["sb-55"].checked && !s.stream_bridges["sb-55"].unstable);
    let s = game_with(
        "the-best-laid-plans",
        json!({ "southern_bridge_unstable": true }),
    )
    .unwrap();
    assert!(
        s.stream_bridges["sb-55"].unstable,
        "A Ride in the Country was lost"
    );
    assert!(
        !s.stream_bridges["sb-63"].checked,
        "the other three are rolled for"
    );
    let e = game_with(
        "a-ride-in-the-country",
        json!({ "southern_bridge_unstable": true }),
    )
    .unwrap_err();
    assert!(e.rule.contains("2.11"), "{e:?}");
    // A Ride in the Country lost by the Allied player says so.
    let mut s = before_1900("a-ride-in-the-country", 18);
    s.last = (18, 5);
    s.highway.used_closed = 5;
    ok(&mut s, "allied", "end", &[]);
    let Outcome::Finished { summary, .. } = WhereEaglesDare.outcome(&s) else {
        panic!("over");
    };
    assert!(summary.contains("southern stream bridge"), "{summary}");
}

#[test]
fn streams_2_11_club_route_traced_across_a_9_goes_back_to_the_last_stop_hex() {
    let son = hex("56.201");
    let mut path = walk(DATA.marker, hex("55.202"));
    path.push(son);
    let trace = |p: &[Hex]| {
        let t: Vec<String> = p.iter().map(|h| h.to_string()).collect();
        format!("route {}", t.join(" "))
    };
    // A 9 and no Stop hex before the bridge on the trace: the marker stays.
    let mut s = before_1900("a-ride-in-the-country", 18);
    ok(&mut s, "allied", "end", &[]);
    assert_eq!(s.phase, Phase::Route);
    ok(&mut s, "allied", &trace(&path), &[9]);
    assert_eq!(s.marker, Some(DATA.marker));
    assert!(s.stream_bridges["sb-55"].unstable);
    // Unstable, it refuses the trace.
    let mut s = before_1900("a-ride-in-the-country", 18);
    s.stream_bridges.get_mut("sb-55").unwrap().checked = true;
    s.stream_bridges.get_mut("sb-55").unwrap().unstable = true;
    ok(&mut s, "allied", "end", &[]);
    let e = refused(&mut s, "allied", &trace(&path), "4.2");
    assert!(e.message.contains("unstable"), "{e}");
    // Any other roll: the marker goes on to the Stop hex.
    let mut s = before_1900("a-ride-in-the-country", 18);
    ok(&mut s, "allied", "end", &[]);
    ok(&mut s, "allied", &trace(&path), &[4]);
    assert_eq!(s.marker, Some(son));
    assert!(!s.stream_bridges["sb-55"].unstable);
}

#[test]
fn bulldozers_2_11_a_guards_division_impulse_places_one_and_rolls_2_or_less_with_men_at_work() {
    let mut s = game("the-best-laid-plans");
    let sb = s.stream_bridges.get_mut("sb-63").unwrap();
    sb.checked = true;
    sb.unstable = true;
    allied_impulse(&mut s, "div-101");
    refused(&mut s, "allied", "bulldozer dozer-1 sb-63", "2.11");
    allied_impulse(&mut s, "div-guards");
    refused(&mut s, "allied", "bulldozer dozer-9 sb-63", "2.11");
    refused(&mut s, "allied", "bulldozer dozer-1 sb-76", "2.11");
    refused(&mut s, "allied", "bulldoze sb-63", "2.11");
    s.units.insert(
        "G/1".into(),
        Unit {
            side: Side::German,
            hex: hex("63.185"),
            column: false,
        },
    );
    let e = refused(&mut s, "allied", "bulldozer dozer-1 sb-63", "2.11");
    assert!(e.message.contains("G/1"), "{e}");
    s.units.remove("G/1");
    play(&mut s, "allied", "bulldozer dozer-1 sb-63", &[]);
    assert_eq!(s.units["dozer-1"].hex, hex("63.186"), "the southern hex");
    assert_eq!(
        s.bulldozers_placed, 1,
        "+1 to the next release rolls (4.3.2)"
    );
    refused(&mut s, "allied", "bulldozer dozer-2 sb-63", "2.11");
    // 5 fails: a Men at Work marker; one roll an impulse.
    play(&mut s, "allied", "bulldoze sb-63", &[5]);
    assert_eq!(s.stream_bridges["sb-63"].men_at_work, 1);
    refused(&mut s, "allied", "bulldoze sb-63", "2.11");
    // The next Guards Division impulse: 3 − 1 Men at Work = 2, repaired for the game.
    allied_impulse(&mut s, "div-guards");
    play(&mut s, "allied", "bulldoze sb-63", &[3]);
    assert!(!s.stream_bridges["sb-63"].unstable);
    assert!(!s.units.contains_key("dozer-1"), "it leaves the map");

    // It may not be attacked, and an enemy Unit moving into its hex eliminates it.
    let sb = s.stream_bridges.get_mut("sb-76").unwrap();
    sb.checked = true;
    sb.unstable = true;
    play(&mut s, "allied", "bulldozer dozer-2 sb-76", &[]);
    let south = s.units["dozer-2"].hex;
    german_impulse(&mut s);
    ok(
        &mut s,
        "german",
        &format!("fire G/1 {south} small-arms"),
        &[3],
    );
    refused(&mut s, "german", "result eliminated dozer-2", "2.11");
    ok(&mut s, "german", "result eliminated", &[]);
    assert!(s.units.contains_key("dozer-2"), "not attacked");
    ok(&mut s, "german", &format!("move G/2 76.126 {south}"), &[]);
    assert!(s.gone.contains(&"dozer-2".to_owned()));
    assert_eq!(s.stream_bridges["sb-76"].bulldozer, None);
}

/// The Best Laid Plans at 1100 17 Sept with the Son bridge demolished at 0900.
fn son_demolished() -> State {
    let mut s = game("the-best-laid-plans");
    s.time = 2;
    let b = s.bridges.get_mut("son").unwrap();
    b.destroyed = true;
    b.destroyed_at = Some((17, 1));
    s
}

#[test]
fn bridge_repair_2_15_7_a_bailey_a_turn_after_the_demolition_then_a_tq_repairs_it() {
    let mut s = son_demolished();
    s.bridges.get_mut("son").unwrap().destroyed_at = Some((17, 2));
    allied_impulse(&mut s, "div-guards");
    let e = refused(&mut s, "allied", "bailey 11-bridge-re son", "2.15.7");
    assert!(e.message.contains("this turn"), "{e}");
    let mut s = son_demolished();
    allied_impulse(&mut s, "div-101");
    refused(&mut s, "allied", "bailey 11-bridge-re son", "2.15.7");
    allied_impulse(&mut s, "div-guards");
    let e = refused(&mut s, "allied", "bailey 128-bridge-re son", "2.15.7");
    assert!(e.message.contains("43rd"), "{e}");
    refused(&mut s, "allied", "bailey 11-bridge-re best", "2.15.7");
    refused(
        &mut s,
        "allied",
        "tq 11-bridge-re repair son pass 0-5",
        "2.15.7",
    );
    play(&mut s, "allied", "bailey 11-bridge-re son", &[]);
    assert_eq!(
        s.units["11-bridge-re"].hex,
        hex("56.202"),
        "the southern hex"
    );
    assert_eq!(s.baileys_placed, 1, "+2 to the next release rolls (4.3.2)");
    // One Bailey an impulse.
    let best = s.bridges.get_mut("best").unwrap();
    best.destroyed = true;
    best.destroyed_at = Some((17, 1));
    refused(&mut s, "allied", "bailey 14-field-sqn-re best", "2.15.7");
    // A failed check, then a pass: the bridge is repaired.
    play(
        &mut s,
        "allied",
        "tq 11-bridge-re repair son pass 0-5",
        &[7],
    );
    assert!(s.bridges["son"].destroyed);
    play(
        &mut s,
        "allied",
        "tq 11-bridge-re repair son pass 0-5",
        &[2],
    );
    assert!(!s.bridges["son"].destroyed && s.bridges["son"].bailey.as_ref().unwrap().bridged);
    play(&mut s, "allied", "move A/3ig 56.202 56.201 column", &[]);
    // Suppressed, it is no bridge until it rallies.
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 56.202 mortar", &[4]);
    ok(&mut s, "german", "result suppressed 11-bridge-re", &[]);
    assert!(!s.bridges["son"].open());
    allied_impulse(&mut s, "div-guards");
    refused(&mut s, "allied", "move A/3ig 56.202 column", "2.15.7");
    play(&mut s, "allied", "rally 11-bridge-re pass 0-5", &[3]);
    assert!(s.bridges["son"].open());
    // Eliminated, it leaves play and the destroyed marker returns.
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 56.202 direct-he", &[1]);
    ok(&mut s, "german", "result eliminated 11-bridge-re", &[]);
    assert!(s.bridges["son"].destroyed && s.bridges["son"].bailey.is_none());
    assert!(s.gone.contains(&"11-bridge-re".to_owned()));
}

#[test]
fn bridge_repair_2_15_7_the_example_a_43rd_bailey_placed_and_rolled_in_one_impulse() {
    // Demolished at 0900; at 1100, in a 43rd Division impulse, the 128th Bridge comes in and
    // rolls for the repair as a second action.
    let mut s = son_demolished();
    s.released = ids(&["group-hot", "129-bde"]);
    allied_impulse(&mut s, "div-43rd");
    play(&mut s, "allied", "bailey 128-bridge-re son", &[]);
    play(
        &mut s,
        "allied",
        "spend 1 cp guards -- second action, Direct Command",
        &[],
    );
    play(
        &mut s,
        "allied",
        "tq 128-bridge-re repair son pass 0-6",
        &[6],
    );
    assert!(!s.bridges["son"].destroyed);
}

#[test]
fn railroad_bridges_2_15_3_vehicles_wait_for_improvement_transport_is_lost_49_160_never() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-guards");
    let e = refused(
        &mut s,
        "allied",
        "move A/t 58.196 58.197 tracked column",
        "2.15.3",
    );
    assert!(e.message.contains("not improved"), "{e}");
    refused(&mut s, "allied", "move A/t 58.196 58.197 tracked", "2.15.1");
    play(
        &mut s,
        "allied",
        "move A/inf 58.196 58.197 mounted column",
        &[],
    );
    assert_eq!(s.abandoned, ids(&["A/inf"]));
    refused(
        &mut s,
        "allied",
        "move A/inf 58.196 mounted column",
        "2.15.3",
    );
    play(&mut s, "allied", "move A/inf 58.196 column", &[]);
    refused(
        &mut s,
        "allied",
        "tq A/eng improve best-rail pass 0-6",
        "2.15.3",
    );
    refused(&mut s, "allied", "tq A/eng improve son pass 0-6", "2.15.3");
    play(&mut s, "allied", "move A/eng 58.197", &[]);
    ok(
        &mut s,
        "allied",
        "tq A/eng improve dommel-rail pass 0-6",
        &[3],
    );
    assert_eq!(
        s.window,
        Some(hex("58.197")),
        "an Engineer Action triggers opportunity fire"
    );
    no_opfire(&mut s);
    assert!(s.bridges["dommel-rail"].improved);
    play(
        &mut s,
        "allied",
        "move A/t 58.196 58.197 tracked column",
        &[],
    );
    assert_eq!(s.units["A/t"].hex, hex("58.197"));
}

#[test]
fn engineers_2_15_3_2_15_6_2_18_only_an_engineer_unit_of_the_order_of_battle_wires_improves_or_ferries(
) {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    // 1/erc-kg-stiller is infantry, pi/59-a an engineer (oob.txt); both in a hex of each bridge.
    unit_at(&mut s, "1/erc-kg-stiller", Side::German, "56.202");
    unit_at(&mut s, "pi/59-a", Side::German, "56.202");
    let e = refused(
        &mut s,
        "german",
        "tq 1/erc-kg-stiller wire son pass 0-6",
        "2.15.6 Bridge Demolition",
    );
    assert!(
        e.message
            .contains("1/erc-kg-stiller is not an engineer Unit")
            && e.message
                .contains("only an engineer Unit may wire a bridge"),
        "{e}"
    );
    ok(&mut s, "german", "tq pi/59-a wire son pass 0-6", &[2]);
    assert_eq!(s.bridges["son"].wired_by, Some(Side::German));
    s.window = None;
    unit_at(&mut s, "1/erc-kg-stiller", Side::German, "58.197");
    unit_at(&mut s, "pi/59-a", Side::German, "58.197");
    let e = refused(
        &mut s,
        "german",
        "tq 1/erc-kg-stiller improve dommel-rail pass 0-6",
        "2.15.3",
    );
    assert!(e.message.contains("may improve a railroad bridge"), "{e}");
    ok(
        &mut s,
        "german",
        "tq pi/59-a improve dommel-rail pass 0-6",
        &[3],
    );
    assert!(s.bridges["dommel-rail"].improved);
    s.window = None;
    // 2.18: the son bridge destroyed, a ferry is an engineer's.
    let b = s.bridges.get_mut("son").unwrap();
    b.destroyed = true;
    b.wired_by = None;
    unit_at(&mut s, "1/erc-kg-stiller", Side::German, "56.202");
    unit_at(&mut s, "pi/59-a", Side::German, "56.202");
    let e = refused(
        &mut s,
        "german",
        "tq 1/erc-kg-stiller ferry son pass 0-6",
        "2.18",
    );
    assert!(e.message.contains("may be a ferry"), "{e}");
    ok(&mut s, "german", "tq pi/59-a ferry son pass 0-6", &[3]);
    assert_eq!(s.bridges["son"].ferry.as_ref().unwrap().unit, "pi/59-a");
    // A counter outside the order of battle is the players': unchecked.
    s.window = None;
    s.bridges.get_mut("dommel-rail").unwrap().improved = false;
    unit_at(&mut s, "G/x", Side::German, "58.196");
    ok(
        &mut s,
        "german",
        "tq G/x improve dommel-rail pass 0-6",
        &[9],
    );
}

#[test]
fn ferries_2_18_an_engineer_on_a_destroyed_bridge_ferries_leg_units_in_column() {
    let mut s = son_demolished();
    allied_impulse(&mut s, "div-101");
    let e = refused(
        &mut s,
        "allied",
        "move A/502 56.202 56.201 column",
        "2.15.7",
    );
    assert!(e.message.contains("destroyed"), "{e}");
    refused(&mut s, "allied", "tq A/326 ferry son pass 0-6", "2.18");
    play(&mut s, "allied", "move A/326 56.203 56.202", &[]);
    refused(&mut s, "allied", "tq A/326 ferry best pass 0-6", "2.18");
    // 2.18.1: "An engineer Unit must begin an activation in the applicable hex".
    let e = refused(&mut s, "allied", "tq A/326 ferry son pass 0-6", "2.18.1");
    assert!(e.message.contains("has moved this impulse"), "{e}");
    allied_impulse(&mut s, "div-101");
    // An Engineer Action: not in Column (2.15.7, as any other).
    s.units.get_mut("A/326").unwrap().column = true;
    let e = refused(&mut s, "allied", "tq A/326 ferry son pass 0-6", "2.18");
    assert!(e.message.contains("in Column"), "{e}");
    s.units.get_mut("A/326").unwrap().column = false;
    play(&mut s, "allied", "tq A/326 ferry son pass 0-6", &[4]);
    // "The engineer Unit has now completed its Action for that activation."
    refused(&mut s, "allied", "move A/326 56.203", "2.18.1");
    let f = s.bridges["son"].ferry.clone().unwrap();
    assert_eq!((f.at, f.to), (hex("56.202"), hex("56.201")));
    // A Unit in Column that begins in a ferry hex crosses; not out of Column.
    play(&mut s, "allied", "move A/502 56.203 56.202", &[]);
    refused(&mut s, "allied", "ferry A/502 son", "2.18.2");
    play(&mut s, "allied", "move A/506 56.203 56.202 column", &[]);
    // 2.18.2: the ferry is the Unit's entire activation, begun in the ferry's hex.
    let e = refused(&mut s, "allied", "ferry A/506 son", "2.18.2");
    assert!(e.message.contains("has already acted this impulse"), "{e}");
    allied_impulse(&mut s, "div-101");
    // A Leg Unit with no organic transport has nothing to abandon.
    let e = refused(&mut s, "allied", "ferry A/506 son abandon", "2.18.2");
    assert!(e.message.contains("no organic transport to abandon"), "{e}");
    ok(&mut s, "allied", "ferry A/506 son", &[]);
    assert_eq!(
        s.window,
        Some(hex("56.202")),
        "opportunity fire as it leaves"
    );
    no_opfire(&mut s);
    assert_eq!(s.units["A/506"].hex, hex("56.201"));
    assert!(!s.abandoned.contains(&"A/506".to_owned()));
    refused(&mut s, "allied", "fire A/506 56.200 small-arms", "2.18.2");
    // Not into an enemy hex; not while Suppressed.
    s.units.insert(
        "G/1".into(),
        Unit {
            side: Side::German,
            hex: hex("56.201"),
            column: false,
        },
    );
    play(&mut s, "allied", "move A/501 56.203 56.202 column", &[]);
    refused(&mut s, "allied", "ferry A/501 son", "2.18.2");
    s.units.remove("G/1");
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/2 56.202 mortar", &[5]);
    ok(&mut s, "german", "result suppressed A/326", &[]);
    allied_impulse(&mut s, "div-101");
    let e = refused(&mut s, "allied", "ferry A/501 son", "2.18.2");
    assert!(e.message.contains("Suppressed"), "{e}");
    play(&mut s, "allied", "rally A/326 pass 0-4", &[1]);
    play(&mut s, "allied", "ferry A/501 son", &[]);
    assert_eq!(s.units["A/501"].hex, hex("56.201"));
    // The engineer moves: the ferry is gone.
    play(&mut s, "allied", "move A/326 56.203", &[]);
    assert_eq!(s.bridges["son"].ferry, None);
}

/// 2.18: "Only Leg Units can use a ferry"; 2.18.2: "Units that have Wheeled or Tracked Organic
/// Transport may use a ferry but they must abandon their vehicles to do so" (decision 38). A
/// Vehicle Unit is refused, `abandon` or not; a rider dismounts first; a Unit with organic
/// transport crosses only with `abandon`.
#[test]
fn ferries_2_18_only_leg_units_a_vehicle_unit_never_organic_transport_abandoned() {
    use order::Transport;
    let mut s = son_demolished();
    allied_impulse(&mut s, "div-101");
    play(&mut s, "allied", "move A/326 56.203 56.202", &[]);
    allied_impulse(&mut s, "div-101");
    play(&mut s, "allied", "tq A/326 ferry son pass 0-6", &[4]);
    // No chit in play: every Unit of the order of battle may act (the activation is not tested).
    s.chit = None;
    // A Vehicle Unit of the order of battle (armor), and a counter whose move said 'tracked'.
    play(&mut s, "allied", "move 1/2ig 56.203 56.202 column", &[]);
    for text in ["ferry 1/2ig son", "ferry 1/2ig son abandon"] {
        let e = refused(&mut s, "allied", text, "2.18.2");
        assert!(
            e.message
                .contains("1/2ig is a Vehicle Unit of the order of battle")
                && e.message.contains("only Leg Units use a ferry")
                && e.message.contains("by a bridge"),
            "{e}"
        );
    }
    play(
        &mut s,
        "allied",
        "move A/t 56.203 56.202 tracked column",
        &[],
    );
    let e = refused(&mut s, "allied", "ferry A/t son abandon", "2.18.2");
    assert!(
        e.message.contains("its move into its hex said 'tracked'"),
        "{e}"
    );
    // A Leg Unit riding a divisional truck dismounts first.
    play(&mut s, "allied", "move A/r 56.203 56.202 column", &[]);
    s.riding
        .insert("A/r".into(), ("truck".into(), "101st".into()));
    let e = refused(&mut s, "allied", "ferry A/r son abandon", "2.18.2");
    assert!(
        e.message.contains("dismount it first (dismount A/r)"),
        "{e}"
    );
    // Organic transport: the order of battle's truck, or a move that said 'mounted'.
    play(&mut s, "allied", "move A/3ig 56.203 56.202 column", &[]);
    let e = refused(&mut s, "allied", "ferry A/3ig son", "2.18.2");
    assert!(
        e.message.contains("organic transport (truck)")
            && e.message.contains("ferry A/3ig son abandon"),
        "{e}"
    );
    allied_impulse(&mut s, "div-101");
    s.chit = None;
    ok(&mut s, "allied", "ferry A/3ig son abandon", &[]);
    no_opfire(&mut s);
    assert_eq!(s.units["A/3ig"].hex, hex("56.201"));
    assert!(s.abandoned.contains(&"A/3ig".to_owned()));
    play(
        &mut s,
        "allied",
        "move A/m 56.203 56.202 mounted column",
        &[],
    );
    assert_eq!(s.vehicles.get("A/m"), Some(&Transport::Mounted));
    let e = refused(&mut s, "allied", "ferry A/m son", "2.18.2");
    assert!(
        e.message.contains("'mounted'") && e.message.contains("ferry A/m son abandon"),
        "{e}"
    );
    allied_impulse(&mut s, "div-101");
    s.chit = None;
    ok(&mut s, "allied", "ferry A/m son abandon", &[]);
    no_opfire(&mut s);
    assert_eq!(s.units["A/m"].hex, hex("56.201"));
    // A Leg Unit with no transport crosses as before; one abandoned already needs no word.
    ok(&mut s, "allied", "ferry A/3ig son", &[]);
    assert_eq!(s.units["A/3ig"].hex, hex("56.202"));
}

/// Plays the Best Laid Plans to 0700 19 Sept (Drop Two delayed to the 19th by rain on the 18th).
fn morning_of_the_19th() -> State {
    let mut s = morning_of_the_18th();
    ok(&mut s, "allied", "weather", &[9]);
    assert_eq!(s.phase, Phase::SupplyDrop { candidates: [3, 4] });
    s.supply.counters = Some(AirDropCounters {
        day: 18,
        candidates: [3, 4],
        commitment: "s18".into(),
        revealed: Some(3),
    });
    s.supply.today = Some(18);
    s.phase = Phase::Buy { side: Side::Allied };
    s.last = (25, NIGHT);
    while (s.day, s.time) != (19, 0) {
        if s.phase == Phase::Route {
            ok(&mut s, "allied", "route stay", &[]);
            continue;
        }
        if s.phase == Phase::Release {
            ok(&mut s, "allied", "release", &[9]);
            continue;
        }
        next_turn(&mut s);
    }
    s
}

#[test]
fn dz_change_3_6_success_replans_every_remaining_drop_sealed_and_today_s_comes_at_1500_or_1700() {
    let mut s = morning_of_the_18th();
    refused(&mut s, "allied", "dzchange B", "3.6");
    ok(&mut s, "allied", "weather", &[1]);
    assert_eq!(s.phase, Phase::AirDrop { candidates: [1, 2] });
    refused(&mut s, "german", "dzchange B", "sequence of play");
    refused(&mut s, "allied", "dzchange Q", "3.6");
    // 0-3 succeeds (reconstructed table): B becomes the supply drop zone, both drops replanned.
    ok(&mut s, "allied", "dzchange B", &[2]);
    assert_eq!(s.supply.dz, "B");
    assert_eq!(s.phase, Phase::Replan { next: 2 });
    let e = refused(&mut s, "allied", "plan 2 506:B 502:A", "3.6");
    assert!(e.message.contains("sealed by the server"), "{e}");
    // The plans as the server's seal leaves them (the bot games play the sealed orders).
    assert!(s.drops[1..].iter().all(|d| d.plan_commitment.is_none()));
    s.drops[1].plan_commitment = Some("p2".into());
    s.drops[2].plan_commitment = Some("p3".into());
    let mut q = VecDeque::new();
    supply::after_dz(&mut s, &mut Ctx::new(DiceSource::Scripted(&mut q), None));
    assert_eq!(
        s.phase,
        Phase::AirDrop { candidates: [4, 5] },
        "today's replanned drop at 1500 or 1700"
    );
    refused(&mut s, "allied", "dzchange A", "3.6");
    let german = WhereEaglesDare
        .view(&s, &Viewer::Seat(Seat::parse("german").unwrap()))
        .to_string();
    assert!(
        !german.contains("506:B") && german.contains("sealed"),
        "{german}"
    );
}

#[test]
fn dz_change_3_6_abort_delays_every_drop_a_day_and_no_effect_changes_nothing() {
    let mut s = morning_of_the_18th();
    ok(&mut s, "allied", "weather", &[1]);
    ok(&mut s, "allied", "dzchange A", &[9]);
    assert_eq!((s.drops[1].day, s.drops[2].day), (19, 20));
    assert_eq!(s.supply.dz, DATA.supply_dz, "no change");
    assert_eq!(
        s.phase,
        Phase::SupplyDrop { candidates: [3, 4] },
        "no reinforcements today: the supply drop at 1300 or 1500"
    );
    let mut s = morning_of_the_18th();
    ok(&mut s, "allied", "weather", &[1]);
    ok(&mut s, "allied", "dzchange A", &[5]);
    assert_eq!(s.drops[1].day, 18);
    assert_eq!(s.phase, Phase::AirDrop { candidates: [1, 2] });
    refused(&mut s, "allied", "dzchange A", "3.6");
}

#[test]
fn supply_drops_3_5_come_with_the_drop_or_at_1300_or_1500_and_a_german_in_the_zone_interdicts() {
    // With the day's drop: the supply drop lands when the drop comes.
    let mut s = morning_of_the_18th();
    ok(&mut s, "allied", "weather", &[1]);
    s.units.insert(
        "G/1".into(),
        Unit {
            side: Side::German,
            hex: hex("57.150"),
            column: false,
        },
    );
    s.air_drop = Some(AirDropCounters {
        day: 18,
        candidates: [1, 2],
        commitment: "d18".into(),
        revealed: Some(1),
    });
    s.phase = Phase::Buy { side: Side::Allied };
    next_turn(&mut s);
    assert_eq!(s.drops[1].arrived, Some((18, 1)));
    assert_eq!(s.supply.today, Some(18));
    assert!(s.supply.interdicted, "G/1 in zone W: SDZ Closed");
    // No reinforcements (rain): the counters go on 1300 and 1500, sealed; flipped at 1300.
    let mut s = morning_of_the_19th();
    assert!(!s.supply.interdicted);
    ok(&mut s, "allied", "weather", &[9]);
    assert_eq!(s.phase, Phase::SupplyDrop { candidates: [3, 4] });
    let e = refused(&mut s, "allied", "airdrop 0900", "3.5");
    assert!(e.message.contains("1300 or 1500"), "{e}");
    let e = refused(&mut s, "allied", "airdrop 1500", "3.5");
    assert!(e.message.contains("sealed by the server"), "{e}");
    // The counters as the server's seal leaves them: the commitment only.
    s.supply.counters = Some(AirDropCounters {
        day: 19,
        candidates: [3, 4],
        commitment: "s19".into(),
        revealed: None,
    });
    chits::to_buy(&mut s);
    let commitment = "s19".to_owned();
    let allied = Viewer::Seat(Seat::parse("german").unwrap());
    assert_eq!(
        WhereEaglesDare.view(&s, &allied)["supply"]["counters"]["real_drop"],
        json!("sealed")
    );
    next_turn(&mut s);
    next_turn(&mut s);
    next_turn(&mut s); // 1300: the counter flips
    assert_eq!(s.time, 3);
    reveal(&mut s, "allied", &commitment, json!({"drop_at": "1500"}));
    assert_eq!(s.supply.today, Some(18), "not yet");
    s.units.insert(
        "G/1".into(),
        Unit {
            side: Side::German,
            hex: hex("58.148"),
            column: false,
        },
    );
    next_turn(&mut s); // 1500
    assert_eq!(s.supply.today, Some(19));
    assert!(s.supply.interdicted);
}

#[test]
fn interdicted_drop_zones_s6_1_1_tq_minus_1_until_a_clean_drop_and_none_after_the_sea_tail() {
    let mut s = morning_of_the_19th();
    s.supply.interdicted = true;
    let board = WhereEaglesDare.board_text(&s, &Viewer::Spectator).unwrap();
    assert!(board.contains("101st −1 (SDZ Closed, S6.1.1)"), "{board}");
    // A clean drop ends it.
    ok(&mut s, "allied", "weather", &[9]);
    s.supply.counters = Some(AirDropCounters {
        day: 19,
        candidates: [3, 4],
        commitment: "s19".into(),
        revealed: Some(3),
    });
    s.phase = Phase::Buy { side: Side::Allied };
    for _ in 0..3 {
        next_turn(&mut s);
    }
    assert_eq!((s.time, s.supply.today), (3, Some(19)));
    assert!(!s.supply.interdicted, "a clean drop: the penalty ends");
    // S6.1.2 on the board too.
    s.highway.cut = true;
    let board = WhereEaglesDare.board_text(&s, &Viewer::Spectator).unwrap();
    assert!(
        board.contains("Guards Armored −2 (Club Route Cut, S6.1.2)"),
        "{board}"
    );
    // The Sea Tail arrived: always in supply, no supply drop.
    let mut s = before_1900("the-best-laid-plans", 19);
    s.released = ids(&[
        "group-hot",
        "group-cold",
        "guards-art",
        "44-rtr",
        "sherwood",
        "royal-dragoons",
    ]);
    s.marker = None;
    s.supply.interdicted = true;
    ok(&mut s, "allied", "end", &[]);
    ok(&mut s, "allied", "release", &[0]);
    assert!(s.released.contains(&"101-sea-tail".to_owned()));
    assert!(s.supply.ended && !s.supply.interdicted);
}

#[test]
fn kg_chill_s5_1_1_replaces_the_erc_display_at_0700_20_sept_with_its_points_and_chits() {
    let mut s = before_1900("campaign", 19);
    s.phase = Phase::Activation;
    s.time = NIGHT;
    s.held = Some("f-erc-a".into());
    s.dp.insert("erc".into(), 5);
    assert!(!s.kg_chill);
    ok(&mut s, "allied", "end", &[]);
    assert_eq!((s.day, s.time), (20, 0));
    assert!(s.kg_chill);
    assert_eq!(s.dp.get("erc"), None);
    assert_eq!(s.dp["chill"], 5);
    assert_eq!(s.held.as_deref(), Some("f-chill-a"));
    ok(&mut s, "allied", "weather", &[9]);
    chits::to_buy(&mut s);
    ok(&mut s, "allied", "buy none", &[]);
    let e = refused(&mut s, "german", "buy f-erc-b", "S5.1.1");
    assert!(e.message.contains("KG Chill"), "{e}");
    // The held chit, now KG Chill's, opens the turn: no draw yet.
    ok(&mut s, "german", "buy f-chill-b", &[]);
    assert_eq!(s.chit.as_deref(), Some("f-chill-a"));
    assert!(s.mug.contains(&"div-chill".to_owned()) && !s.mug.contains(&"div-erc".to_owned()));
    let board = WhereEaglesDare.board_text(&s, &Viewer::Spectator).unwrap();
    assert!(
        board.contains("German +1, white assault +1 (KG Chill, S5.1.1)"),
        "{board}"
    );
}

#[test]
fn piggyback_s4_mount_in_one_hex_ride_along_no_actions_and_dismount_on_a_fire_result() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-guards");
    play(&mut s, "allied", "move A/inf 41.230", &[]);
    play(&mut s, "allied", "move A/tank 42.229", &[]);
    refused(&mut s, "allied", "mount A/inf A/tank", "S4.0");
    play(&mut s, "allied", "move A/tank 41.230 column", &[]);
    play(&mut s, "allied", "mount A/inf A/tank", &[]);
    refused(&mut s, "allied", "mount A/x A/tank", "S4.0");
    // The pair moves as one; the rider acts not; the vehicle only moves and dismounts.
    play(&mut s, "allied", "move A/tank 42.229 column", &[]);
    assert_eq!(s.units["A/inf"].hex, hex("42.229"));
    refused(&mut s, "allied", "move A/inf 42.228", "S4.0");
    refused(&mut s, "allied", "fire A/inf 42.227 small-arms", "S4.0");
    refused(&mut s, "allied", "fire A/tank 42.227 direct-he", "S4.0");
    play(&mut s, "allied", "dismount A/tank", &[]);
    assert!(s.piggyback.is_empty() && !s.units["A/inf"].column);
    // S4.2: the rider put down acts at its next Activation, not in this impulse.
    refused(&mut s, "allied", "mount A/inf A/tank", "S4.2");
    refused(&mut s, "allied", "move A/inf 41.230", "S4.2");
    allied_impulse(&mut s, "div-guards");
    // A fire result other than none or S? dismounts the rider at once.
    play(&mut s, "allied", "mount A/inf A/tank", &[]);
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 42.229 small-arms", &[5]);
    ok(&mut s, "german", "result s?", &[]);
    assert_eq!(s.piggyback.len(), 1, "S? passed is no effect");
    ok(&mut s, "german", "fire G/1 42.229 small-arms", &[5]);
    ok(&mut s, "german", "result suppressed", &[]);
    assert!(s.piggyback.is_empty());
    // In the pair's own impulse, "this mandatory dismount ends the Activation of the Vehicle
    // Unit"; the rider put down acts at its next Activation.
    allied_impulse(&mut s, "div-guards");
    unit_at(&mut s, "A/i2", Side::Allied, "42.229");
    unit_at(&mut s, "A/t2", Side::Allied, "42.229");
    play(&mut s, "allied", "mount A/i2 A/t2", &[]);
    ok(&mut s, "allied", "move A/t2 42.228", &[]);
    ok(&mut s, "german", "opfire G/1 42.228 small-arms", &[5]);
    ok(&mut s, "german", "result suppressed", &[]);
    assert!(s.piggyback.is_empty());
    refused(&mut s, "allied", "move A/t2 42.229", "S4.4");
    refused(&mut s, "allied", "move A/i2 42.229", "S4.2");
    let board = WhereEaglesDare.board_text(&s, &Viewer::Spectator).unwrap();
    assert!(
        board.contains("Activation over this impulse: A/i2 (S4.2 Exiting Piggyback Mode),"),
        "{board}"
    );
    allied_impulse(&mut s, "div-guards");
    play(&mut s, "allied", "move A/t2 42.229", &[]);
}

#[test]
fn trucks_s5_3_and_jeeps_s6_3_the_counter_mix_is_the_limit_and_an_eliminated_rider_loses_one() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-101");
    for u in ["A/1", "A/2", "A/3"] {
        play(&mut s, "allied", &format!("move {u} 50.150"), &[]);
    }
    refused(&mut s, "allied", "truck A/1 59th", "S5.3");
    refused(&mut s, "allied", "jeep A/1 101st", "S5.3"); // jeeps from the 18th
    play(&mut s, "allied", "truck A/1 101st", &[]);
    play(&mut s, "allied", "truck A/2 101st", &[]);
    let e = refused(&mut s, "allied", "truck A/3 101st", "S5.3");
    assert!(e.message.contains("counter mix"), "{e}");
    // Dismounted, the truck is free again at once.
    play(&mut s, "allied", "dismount A/2", &[]);
    play(&mut s, "allied", "truck A/3 101st", &[]);
    // Eliminated with its truck: the truck leaves the game.
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 50.150 mortar", &[1]);
    ok(&mut s, "german", "result eliminated A/3", &[]);
    assert_eq!(s.assets_lost["truck:101st"], 1);
    allied_impulse(&mut s, "div-101");
    play(&mut s, "allied", "dismount A/1 abandon", &[]);
    assert_eq!(s.assets_lost["truck:101st"], 2);
    refused(&mut s, "allied", "truck A/2 101st", "S5.3");
}

#[test]
fn artillery_parks_s1_placed_once_units_enter_the_box_and_an_enemy_in_the_hex_eliminates_them() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-guards");
    let e = refused(&mut s, "allied", "park park-guards 50.150", "S1.0");
    assert!(e.message.contains("41.232"), "{e}");
    play(&mut s, "allied", "park park-guards 41.232", &[]);
    refused(&mut s, "allied", "park park-guards 41.232", "S1.0");
    play(&mut s, "allied", "move A/art 41.231", &[]);
    refused(&mut s, "allied", "enterpark A/art park-guards", "S1.0");
    play(&mut s, "allied", "move A/art 41.232", &[]);
    play(&mut s, "allied", "enterpark A/art park-guards", &[]);
    assert!(!s.units.contains_key("A/art"));
    // Only Indirect HE Units enter the box: an infantry Unit of the order of battle does not.
    unit_at(&mut s, "A/3ig", Side::Allied, "41.232");
    let e = refused(&mut s, "allied", "enterpark A/3ig park-guards", "S1.0");
    assert!(e.message.contains("infantry"), "{e}");
    s.units.remove("A/3ig");
    refused(&mut s, "allied", "fire A/art 43.220 direct-he", "S1.0");
    play(&mut s, "allied", "fire A/art 43.220 indirect-he", &[4]);
    ok(&mut s, "allied", "result none", &[]);
    german_impulse(&mut s);
    ok(&mut s, "german", "move G/1 42.231 41.232", &[]);
    assert!(s.gone.contains(&"A/art".to_owned()));
}

#[test]
fn decision_35_a_unit_s_remembered_transport_goes_with_it_into_a_park_s1_off_the_map_by_a_rout_s3_1_or_across_a_ferry_2_18(
) {
    use order::Transport;
    // S1.0: into the Artillery Park box, which it never leaves.
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-guards");
    play(&mut s, "allied", "park park-guards 41.232", &[]);
    play(&mut s, "allied", "move A/art 41.232 wheeled", &[]);
    assert_eq!(s.vehicles.get("A/art"), Some(&Transport::Wheeled));
    play(&mut s, "allied", "enterpark A/art park-guards", &[]);
    assert!(!s.vehicles.contains_key("A/art"));
    // S3.1: a routed German unit taken off the map to the side of its display.
    let mut s = before_1900("campaign", 18);
    s.time = 3;
    s.phase = Phase::Activation;
    s.offmap.insert("erc-kg-stiller".into(), OffMap::OnMap);
    unit_at(&mut s, "G/st1", Side::German, "30.100");
    s.vehicles.insert("G/st1".into(), Transport::Tracked);
    lose(&mut s, "1/erc-kg-stiller", 1);
    s.cups.insert(Side::Allied, ids(&["rout"]));
    allied_impulse(&mut s, "f-501");
    ok(&mut s, "allied", "fire A/1 30.100 small-arms", &[9]);
    ok(&mut s, "allied", "result none", &[1]);
    ok(&mut s, "german", "rout erc-kg-stiller G/st1", &[]);
    assert!(!s.vehicles.contains_key("G/st1"));
    // 2.18: only Leg Units use a ferry; across, it came into its hex on its legs.
    let mut s = son_demolished();
    allied_impulse(&mut s, "div-101");
    play(&mut s, "allied", "move A/326 56.203 56.202", &[]);
    allied_impulse(&mut s, "div-101");
    play(&mut s, "allied", "tq A/326 ferry son pass 0-6", &[4]);
    play(&mut s, "allied", "move A/x 56.203 56.202 column", &[]);
    s.vehicles.insert("A/x".into(), Transport::Mounted);
    allied_impulse(&mut s, "div-101");
    ok(&mut s, "allied", "ferry A/x son abandon", &[]);
    assert_eq!(s.units["A/x"].hex, hex("56.201"));
    assert!(!s.vehicles.contains_key("A/x"));
}

#[test]
fn road_blocks_and_rearguards_s2_the_counter_mix_and_never_by_a_bridge_2_15_2() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    refused(&mut s, "german", "roadblock 56.201", "2.15.2");
    let limit = DATA.counter_mix("roadblock", Side::German);
    for i in 0..limit {
        ok(&mut s, "german", &format!("roadblock 30.{}", 100 + i), &[]);
    }
    let e = refused(&mut s, "german", "roadblock 30.150", "S2.0");
    assert!(e.message.contains("counter mix"), "{e}");
    ok(&mut s, "german", "roadblock 30.100 remove", &[]);
    ok(&mut s, "german", "roadblock 30.150", &[]);
    let limit = DATA.counter_mix("rearguard", Side::German);
    for i in 0..limit {
        ok(
            &mut s,
            "german",
            &format!("rearguard G/rg{i} 31.{}", 100 + i),
            &[],
        );
    }
    refused(&mut s, "german", "rearguard G/rgx 31.150", "S2.0");
}

#[test]
fn german_flak_s5_4_face_down_at_random_and_flipped_when_drop_one_is_rolled() {
    let mut s = game("the-best-laid-plans");
    assert_eq!(s.flak.len(), DATA.flak_types.len());
    let allied = Viewer::Seat(Seat::parse("allied").unwrap());
    let german = Viewer::Seat(Seat::parse("german").unwrap());
    assert_eq!(
        WhereEaglesDare.view(&s, &allied)["flak"],
        json!("secret until flipped (S5.4)")
    );
    assert!(WhereEaglesDare.view(&s, &german)["flak"].is_object());
    let board = WhereEaglesDare.board_text(&s, &allied).unwrap();
    assert!(
        board.contains("counters face down") && !board.contains(" 88"),
        "{board}"
    );
    allied_impulse(&mut s, "div-101");
    ok(&mut s, "allied", "droproll A/502 B", &[3]);
    assert!(s.flak_flipped);
    assert!(WhereEaglesDare.view(&s, &allied)["flak"].is_object());
    // A Ride in the Country has no drop and no flak.
    assert!(game("a-ride-in-the-country").flak.is_empty());
}

#[test]
fn kg_huber_s5_5_sealed_on_the_night_of_the_17th_opened_at_0700_18th() {
    let mut s = game("the-best-laid-plans");
    s.phase = Phase::Activation;
    s.mug.clear();
    s.time = 6;
    // The Night turn begins with KG Huber's choice.
    ok(&mut s, "allied", "end", &[]);
    assert_eq!((s.time, &s.phase), (NIGHT, &Phase::Huber));
    let e = refused(&mut s, "german", "huber 59th", "S5.5");
    assert!(e.message.contains("sealed by the server"), "{e}");
    refused(&mut s, "allied", "huber 59th", "sequence of play");
    s.huber.commitment = Some("h".into());
    let allied = Viewer::Seat(Seat::parse("allied").unwrap());
    assert_eq!(
        WhereEaglesDare.view(&s, &allied)["kg_huber"],
        json!("sealed")
    );
    chits::to_buy(&mut s);
    ok(&mut s, "allied", "buy none", &[]);
    refused(&mut s, "german", "buy f-huber-59", "S5.5");
    reveal(&mut s, "german", "h", json!({"huber": "59th"}));
    s.day = 18;
    s.time = 0;
    assert!(chits::buyable(&s, Side::German).contains(&"f-huber-59"));
    assert!(!chits::buyable(&s, Side::German).contains(&"f-huber-chill"));
}

/// S5.5: "Place the not chosen Formation to the side and it is not used in the game"; the chosen
/// set enters on its turn (0700 18 Sept as a 59th Formation, Night 21 Sept under KG Chill).
#[test]
fn kg_huber_s5_5_the_set_not_chosen_is_put_aside_and_the_chosen_one_enters_on_its_turn() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    s.chit = None;
    s.time = NIGHT;
    let e = refused(&mut s, "german", "move 1/huber-59 30.100", "S5.5");
    assert!(e.message.contains("not revealed"), "{e}");
    s.huber.commitment = Some("h".into());
    reveal(&mut s, "german", "h", json!({"huber": "59th"}));
    german_impulse(&mut s);
    s.chit = None;
    let e = refused(&mut s, "german", "move 1/huber-59 30.100", "S5.5");
    assert!(e.message.contains("0700 18 Sept"), "{e}");
    s.day = 18;
    s.time = 0;
    ok(&mut s, "german", "move 1/huber-59 30.100", &[]);
    no_opfire(&mut s);
    let e = refused(&mut s, "german", "move 1/huber-chill 30.101", "S5.5");
    assert!(e.message.contains("put aside"), "{e}");
}

#[test]
fn joe_mann_s6_9_negates_a_502_pir_loss_once_in_the_best_laid_plans() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "f-502");
    play(&mut s, "allied", "move B/502 50.150", &[]);
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 50.150 small-arms", &[2]);
    ok(&mut s, "german", "result eliminated B/502", &[]);
    assert!(!s.units.contains_key("B/502") && s.mann.is_some());
    refused(&mut s, "german", "end", "sequence of play");
    ok(&mut s, "allied", "joemann", &[]);
    assert!(s.units.contains_key("B/502") && s.mann_used);
    // Spent: no second chance.
    ok(&mut s, "german", "fire G/1 50.150 small-arms", &[2]);
    ok(&mut s, "german", "result step-loss B/502", &[]);
    assert!(s.mann.is_none());
    // Not in A Ride in the Country, not for another regiment.
    let mut s = game("a-ride-in-the-country");
    s.units.insert(
        "B/502".into(),
        Unit {
            side: Side::Allied,
            hex: hex("50.150"),
            column: false,
        },
    );
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 50.150 small-arms", &[2]);
    ok(&mut s, "german", "result eliminated", &[]);
    assert!(s.mann.is_none());
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
    assert_eq!(s.lost.as_deref(), Some("G/1"));
    refused(&mut s, "german", "end", "sequence of play");
    ok(&mut s, "allied", "move G/1 30.101 30.102", &[]);
    assert_eq!((s.units["G/1"].hex, s.lost.clone()), (hex("30.102"), None));
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

#[test]
fn rout_s3_1_a_routed_german_formation_leaves_the_map_and_reenters_its_display_by_a_private_number()
{
    let mut s = before_1900("campaign", 18);
    s.time = 3;
    s.phase = Phase::Activation;
    s.offmap.insert("erc-kg-stiller".into(), OffMap::OnMap);
    s.units.insert(
        "G/st1".into(),
        Unit {
            side: Side::German,
            hex: hex("30.100"),
            column: false,
        },
    );
    // An Allied fire 9 draws Rout (the first in the Allied cup after Air Strike): the German
    // names the Formation.
    s.cups.insert(Side::Allied, ids(&["rout"]));
    allied_impulse(&mut s, "f-501");
    ok(&mut s, "allied", "fire A/1 30.100 small-arms", &[9]);
    ok(&mut s, "allied", "result none", &[1]);
    assert_eq!(s.rout, Some(Side::German));
    refused(&mut s, "allied", "end", "sequence of play");
    refused(&mut s, "german", "rout kg-walther", "S3.1");
    lose(&mut s, "1/erc-kg-stiller", 1);
    ok(&mut s, "german", "rout erc-kg-stiller G/st1", &[]);
    assert_eq!(s.offmap["erc-kg-stiller"], OffMap::Routed { back: 19 });
    assert!(!s.units.contains_key("G/st1"));
    let allied = WhereEaglesDare
        .view(&s, &Viewer::Seat(Seat::parse("allied").unwrap()))
        .to_string();
    assert!(!allied.contains("routed, back"), "the display is secret");
    // Back on the 19th: at that 1900 the German names a box of its display by a private
    // number, like any off-map move; no map entry.
    for (day, back) in [(18, false), (19, true)] {
        let mut s = before_1900("campaign", day);
        s.released = DATA.release_line.iter().map(|e| e.id.clone()).collect();
        s.offmap
            .insert("erc-kg-stiller".into(), OffMap::Routed { back: 19 });
        ok(&mut s, "allied", "end", &[]);
        ok_hidden(&mut s, "allied", "route stay", &[]);
        assert_eq!(
            s.numbering.contains_key("erc-kg-stiller"),
            back,
            "day {day}"
        );
        if back {
            let list = &s.numbering["erc-kg-stiller"];
            assert!(list.iter().all(|d| !d.starts_with("map ")), "{list:?}");
            let moves: Vec<String> = s
                .numbering
                .keys()
                .map(|f| {
                    let to = match &s.offmap[f] {
                        OffMap::Box(b) => b.clone(),
                        _ => "Geldrop".to_owned(),
                    };
                    format!("{f}:{}", number(&s, f, &to))
                })
                .collect();
            ok(
                &mut s,
                "german",
                &format!("offmap {}", moves.join(" ")),
                &[],
            );
            assert_eq!(s.offmap["erc-kg-stiller"], OffMap::Box("Geldrop".into()));
        }
    }
}

// ---- The order of battle and command (S6.5–S6.8, S6.10) ----

/// An Allied unit of the OOB where the players put it.
fn put(s: &mut State, unit: &str, at: &str) {
    s.units.insert(
        unit.into(),
        Unit {
            side: Side::Allied,
            hex: hex(at),
            column: false,
        },
    );
}

#[test]
fn oob_data_sides_divisions_formations_classes_and_flags() {
    // Every formation's chit is a chit of its side and division (chits.txt).
    for f in &OOB.formations {
        if let Some(c) = &f.chit {
            let chit = DATA.chit(c).unwrap_or_else(|| panic!("{}: chit {c}", f.id));
            assert_eq!(chit.side, f.side, "{}", f.id);
            assert_eq!(
                chit.division.as_deref(),
                Some(f.division.as_str()),
                "{}",
                f.id
            );
        }
        assert!(
            DATA.division(&f.division).is_some(),
            "{}: division {}",
            f.id,
            f.division
        );
    }
    // The units the text names, with the facts it gives.
    let u = |id: &str| OOB.unit(id).unwrap_or_else(|| panic!("{id} in the OOB"));
    for b in [
        "11-bridge-re",
        "14-field-sqn-re",
        "128-bridge-re",
        "15-bridge-re",
    ] {
        assert!(u(b).bailey && u(b).engineer, "2.15.7: {b}");
    }
    assert_eq!(OOB.division_of("128-bridge-re"), Some("43rd"));
    assert_eq!(
        DATA.baileys.len(),
        4,
        "the Bailey units are the OOB's bailey flags"
    );
    assert!(DATA.bulldozers.iter().all(|(b, _)| u(b).bulldozer));
    for sc in ["A/2hhc", "B/2hhc", "C/2hhc", "D/2hhc", "101-recon"] {
        assert!(u(sc).self_command, "S6.8: {sc}");
    }
    for i in ["A/44rtr", "B/44rtr", "C/44rtr", "A/15-19krh", "B/15-19krh"] {
        assert_eq!(
            OOB.formation_of(i).map(|f| f.id.as_str()),
            Some("ind-101"),
            "S6.5: {i}"
        );
    }
    assert_eq!(
        OOB.formation_of("A/502").map(|f| f.side),
        Some(Side::Allied)
    );
    assert!(u("A/502").para && u("A/327").glider && u("A/326").engineer);
    assert!(OOB.units.iter().any(|u| u.lost_82nd) && OOB.american("lost82-1"));
    assert!(!OOB.american("A/3ig"));
    // The 88s of the OOB are the flak types S5.4 places face down.
    let n88 = OOB.units.iter().filter(|u| u.flak88).count();
    assert_eq!(n88, DATA.flak_types.iter().filter(|t| *t == "88").count());
    // Every formation with units has a Leader with a Command Range; only Leaders have one.
    for f in &OOB.formations {
        if !["flak", "lost-82nd", "43-eng", "art-101", "art-guards"].contains(&f.id.as_str()) {
            assert!(
                OOB.leaders_of(&f.id).next().is_some(),
                "{} has a Leader",
                f.id
            );
        }
    }
    assert!(OOB
        .units
        .iter()
        .all(|u| u.range.is_some() == (u.class == Class::Leader)));
    assert!(u("ldr-502").telephone && !u("ldr-327").telephone);
    assert_eq!(u("A/3ig").transport.as_deref(), Some("truck"));
    assert_eq!(u("1/2ig").steps, 2);
    // A malformed file is refused, naming the line.
    let e = Oob::parse("formation x allied 101st -\nunit a y infantry 2\n").unwrap_err();
    assert!(e.contains("line 2") && e.contains("no formation y"), "{e}");
    let e = Oob::parse("formation x allied 101st -\nunit a x infantry 2 wings\n").unwrap_err();
    assert!(e.contains("wings"), "{e}");
}

#[test]
fn s6_5_44_rtr_and_the_15_19_krh_are_independents_of_the_101st() {
    let mut s = game("the-best-laid-plans");
    put(&mut s, "A/44rtr", "60.160");
    put(&mut s, "A/15-19krh", "60.162");
    // Not the Guards': neither their Independent chit nor their Division chit moves them.
    allied_impulse(&mut s, "ind-guards");
    refused(&mut s, "allied", "move A/44rtr 60.161", "S6.5");
    allied_impulse(&mut s, "div-guards");
    refused(&mut s, "allied", "move A/15-19krh 60.161", "S6.5");
    // The 101st's Independent chit and Division chit do.
    allied_impulse(&mut s, "ind-101");
    play(&mut s, "allied", "move A/44rtr 60.161", &[]);
    allied_impulse(&mut s, "div-101");
    play(&mut s, "allied", "move A/15-19krh 60.163", &[]);
    // Its Command Points are the 101st's.
    s.cp.insert("101st".into(), 3);
    s.cp.insert("guards".into(), 3);
    ok(&mut s, "allied", "command A/44rtr by ldr-101", &[]);
    assert_eq!((s.cp["101st"], s.cp["guards"]), (2, 3));
    refused(&mut s, "allied", "command A/44rtr from guards", "S6.10");
}

#[test]
fn s6_6_a_101st_unit_in_command_by_another_101st_leader_pays_2_cp_and_is_not_activated() {
    let mut s = game("the-best-laid-plans");
    put(&mut s, "A/502", "60.160");
    put(&mut s, "ldr-502", "60.170");
    put(&mut s, "ldr-506", "60.162");
    // The 506's chit does not activate a 502 unit, though its Leader is near.
    allied_impulse(&mut s, "f-506");
    let e = refused(&mut s, "allied", "move A/502 60.161", "S6.6");
    assert!(e.message.contains("f-502"), "{e}");
    s.cp.insert("101st".into(), 3);
    // Its own Leader is 10 hexes off, beyond his Command Range of 4.
    let e = refused(&mut s, "allied", "command A/502", "command");
    assert!(e.message.contains("beyond"), "{e}");
    // The 506's Leader commands it at 2 CP for a 1 CP Action.
    ok(&mut s, "allied", "command A/502 by ldr-506", &[]);
    assert_eq!(s.cp["101st"], 1);
    refused(&mut s, "allied", "command A/502 by ldr-506", "S6.6");
    // Its own Leader, once in range: 1 CP.
    put(&mut s, "ldr-502", "60.161");
    ok(&mut s, "allied", "command A/502", &[]);
    assert_eq!(s.cp["101st"], 0);
    // Only the 101st: a Guards unit is not commanded by another formation's Leader.
    s.cp.insert("guards".into(), 3);
    allied_impulse(&mut s, "div-guards");
    refused(&mut s, "allied", "command 1/2ig by ldr-cold", "S6.6");
    // A 101st Unit is not commanded by a Guards Leader either.
    allied_impulse(&mut s, "div-101");
    s.cp.insert("101st".into(), 3);
    refused(&mut s, "allied", "command A/502 by ldr-hot", "S6.6");
    // The enemy's units are not the player's to command or move.
    refused(&mut s, "german", "move A/502 60.161", "sequence of play");
    refused(&mut s, "allied", "command 1/59-a", "order of battle");
}

#[test]
fn s6_7_american_telephones_command_at_any_distance() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-101");
    s.cp.insert("101st".into(), 5);
    s.cp.insert("guards".into(), 5);
    put(&mut s, "A/502", "50.150");
    put(&mut s, "ldr-502", "70.190");
    refused(&mut s, "allied", "command A/502", "command");
    // Both in a town, city, fortified hex, strongpoint or observation post (stated), and the
    // Leader has a telephone: In Command anywhere.
    ok(&mut s, "allied", "command A/502 phone", &[]);
    assert_eq!(s.cp["101st"], 4);
    // The 327's Leader has no telephone.
    put(&mut s, "A/327", "50.150");
    put(&mut s, "ldr-327", "70.190");
    let e = refused(&mut s, "allied", "command A/327 phone", "S6.7");
    assert!(e.message.contains("telephone"), "{e}");
    // A British unit is not American.
    allied_impulse(&mut s, "div-guards");
    refused(&mut s, "allied", "command A/3ig phone", "S6.7");
    // A telephone call to another 101st Leader is still S6.6's 2 CP.
    allied_impulse(&mut s, "div-101");
    ok(&mut s, "allied", "command A/327 by ldr-502 phone", &[]);
    assert_eq!(s.cp["101st"], 3, "by telephone: 1 CP");
    // The order round-trips.
    let c = order::parse("command A/327 by ldr-502 phone from 101st").unwrap();
    assert_eq!(
        order::describe(&c),
        "command A/327 by ldr-502 phone from 101st"
    );
    assert!(order::parse("command A/327 by").is_err());
}

#[test]
fn s6_8_self_command_units_are_always_in_command() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-guards");
    s.cp.insert("guards".into(), 2);
    s.cp.insert("101st".into(), 2);
    put(&mut s, "A/2hhc", "30.100");
    put(&mut s, "ldr-guards", "60.200");
    ok(&mut s, "allied", "command A/2hhc", &[]);
    assert_eq!(s.cp["guards"], 1);
    // Not so the Guards' other units far from their Leader.
    put(&mut s, "1/2ig", "30.100");
    put(&mut s, "ldr-hot", "60.200");
    refused(&mut s, "allied", "command 1/2ig", "command");
    allied_impulse(&mut s, "div-101");
    put(&mut s, "101-recon", "10.10");
    ok(&mut s, "allied", "command 101-recon", &[]);
    assert_eq!(s.cp["101st"], 1);
}

#[test]
fn s6_10_the_231st_never_moves_north_of_its_deployment_line_and_the_guards_may_pay() {
    let mut s = game("the-best-laid-plans");
    let row = command::limit_231(41).expect("the line crosses column 41");
    allied_impulse(&mut s, "f-231");
    put(&mut s, "A/2devon", &format!("41.{}", row + 1));
    // Onto the line's row: allowed; one more row north: refused, nothing changes.
    play(&mut s, "allied", &format!("move A/2devon 41.{row}"), &[]);
    let e = refused(
        &mut s,
        "allied",
        &format!("move A/2devon 41.{}", row - 1),
        "S6.10",
    );
    assert!(e.message.contains("north"), "{e}");
    // Other units go north freely.
    allied_impulse(&mut s, "div-guards");
    put(&mut s, "1/2ig", &format!("41.{row}"));
    play(&mut s, "allied", &format!("move 1/2ig 41.{}", row - 1), &[]);
    // A 231st unit found north of the line for any reason is eliminated.
    put(&mut s, "B/2devon", &format!("41.{}", row - 2));
    let mut q = VecDeque::new();
    let mut ctx = Ctx::new(DiceSource::Scripted(&mut q), None);
    command::eliminate_north_231(&mut s, &mut ctx);
    assert!(!s.units.contains_key("B/2devon") && s.gone.contains(&"B/2devon".into()));
    assert!(s.units.contains_key("A/2devon"));
    // The Guards may pay the 231st's Command Points (the 43rd's are its own).
    allied_impulse(&mut s, "f-231");
    put(&mut s, "ldr-231", &format!("42.{row}"));
    s.cp.insert("guards".into(), 1);
    s.cp.insert("43rd".into(), 0);
    refused(
        &mut s,
        "allied",
        "command A/2devon",
        "Command and Dispatch Points",
    );
    ok(&mut s, "allied", "command A/2devon from guards", &[]);
    assert_eq!(s.cp["guards"], 0);
    refused(&mut s, "allied", "command A/2devon from 101st", "S6.10");
}

// ---- Event markers (S3.1): Heroic, Dutch, Minefield ----

fn unit_at(s: &mut State, unit: &str, side: Side, at: &str) {
    s.units.insert(
        unit.into(),
        Unit {
            side,
            hex: hex(at),
            column: false,
        },
    );
}

#[test]
fn heroic_s3_1_on_one_friendly_unit_until_its_side_draws_again() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    unit_at(&mut s, "G/1", Side::German, "56.210");
    s.cups.insert(Side::German, ids(&["heroic", "rally"]));
    ok(&mut s, "german", "fire G/1 56.203 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[1]);
    assert_eq!(s.placing, Some((Side::German, "heroic".into())));
    refused(&mut s, "german", "end", "S3.1");
    refused(&mut s, "german", "place dutch 56.210", "S3.1");
    let e = refused(&mut s, "german", "place heroic A/502", "S3.1");
    assert!(e.message.contains("friendly"), "{e}");
    ok(&mut s, "german", "place heroic G/1", &[]);
    assert_eq!(s.heroic.get(&Side::German).map(String::as_str), Some("G/1"));
    assert!(s.placing.is_none());
    // The German's next event takes it off, before the draw.
    ok(&mut s, "german", "fire G/1 56.203 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[1]);
    assert!(s.heroic.is_empty());
    // The order round-trips.
    let c = order::parse("place minefield 56.201").unwrap();
    assert_eq!(order::describe(&c), "place minefield 56.201");
}

#[test]
fn dutch_s3_1_no_unit_leaves_its_hex_by_movement() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-101");
    put(&mut s, "A/502", "56.203");
    put(&mut s, "B/502", "56.205");
    s.cups.insert(Side::Allied, ids(&["dutch"]));
    ok(&mut s, "allied", "fire A/502 56.210 small-arms", &[9]);
    ok(&mut s, "allied", "result none", &[1]);
    // Silence passes for the placing side; here it places.
    ok(&mut s, "allied", "place dutch 56.203", &[]);
    let e = refused(&mut s, "allied", "move A/502 56.202", "Dutch");
    assert!(e.message.contains("56.203"), "{e}");
    // Entering is allowed; going on through is not.
    refused(&mut s, "allied", "move B/502 56.204 56.203 56.202", "Dutch");
    play(&mut s, "allied", "move B/502 56.204 56.203", &[]);
    refused(&mut s, "allied", "move B/502 56.204", "Dutch");
    let text = WhereEaglesDare.board_text(&s, &Viewer::Spectator).unwrap();
    assert!(text.contains("Dutch (allied) 56.203"), "{text}");
}

/// S3.1 Dutch on a game's map: "any city or town hex" — a hex the map knows as other terrain is
/// refused, changing nothing; a town of the map, or a hex the map does not know, takes it.
#[test]
fn dutch_s3_1_goes_in_a_city_or_town_hex_of_the_game_s_map() {
    let text = "hex 56.203 clear\nhex 56.204 town\n";
    let mut s = game_with("the-best-laid-plans", json!({ "map": text })).unwrap();
    allied_impulse(&mut s, "div-101");
    put(&mut s, "A/502", "56.205");
    s.cups.insert(Side::Allied, ids(&["dutch"]));
    ok(&mut s, "allied", "fire A/502 56.210 small-arms", &[9]);
    ok(&mut s, "allied", "result none", &[1]);
    let e = refused(
        &mut s,
        "allied",
        "place dutch 56.203",
        "S3.1 Events (Dutch)",
    );
    assert!(
        e.message.contains("clear at 56.203") && e.message.contains("city or town"),
        "{e}"
    );
    ok(&mut s, "allied", "place dutch 56.204", &[]);
    assert_eq!(s.dutch.get(&Side::Allied), Some(&hex("56.204")));
}

#[test]
fn minefield_s3_1_within_3_hexes_a_tq_check_to_leave_an_engineer_removes_it() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    unit_at(&mut s, "G/1", Side::German, "41.228");
    s.cups.insert(Side::German, ids(&["minefield"]));
    ok(&mut s, "german", "fire G/1 41.226 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[1]);
    let e = refused(&mut s, "german", "place minefield 41.220", "S3.1");
    assert!(e.message.contains("within 3"), "{e}");
    // On Club Route: a Closed marker for the German.
    let closed = s.highway.closed;
    ok(&mut s, "german", "place minefield 41.230", &[]);
    assert_eq!(s.minefields, [hex("41.230")]);
    assert_eq!(s.highway.closed, closed + 1);
    // A unit in it leaves only after a passed TQ check.
    allied_impulse(&mut s, "div-101");
    put(&mut s, "A/502", "41.230");
    refused(&mut s, "allied", "move A/502 41.231", "Minefield");
    play(&mut s, "allied", "tq A/502 minefield pass 0-5", &[7]);
    refused(&mut s, "allied", "move A/502 41.231", "Minefield");
    play(&mut s, "allied", "tq A/502 minefield pass 0-5", &[3]);
    play(&mut s, "allied", "move A/502 41.231", &[]);
    // Back in, the check is needed again.
    play(&mut s, "allied", "move A/502 41.230", &[]);
    refused(&mut s, "allied", "move A/502 41.231", "Minefield");
    // Only an engineer removes it, by an engineering action in its hex.
    refused(&mut s, "allied", "tq A/502 mines pass 0-5", "Minefield");
    put(&mut s, "A/326", "41.229");
    refused(&mut s, "allied", "tq A/326 mines pass 0-5", "Minefield");
    put(&mut s, "A/326", "41.230");
    ok(&mut s, "allied", "tq A/326 mines pass 0-5", &[2]);
    assert!(s.minefields.is_empty());
    assert_eq!(
        s.window,
        Some(hex("41.230")),
        "the engineering action opens the opportunity fire window"
    );
    no_opfire(&mut s);
    play(&mut s, "allied", "move A/502 41.231", &[]);
}

// ---- Line of sight (2.3, 2.13, 2.15.4, 2.16) on a synthetic map ----

/// A clear field of columns 8–14, rows 6–16, then `extra` lines on top.
fn field(extra: &str) -> Map {
    let mut text = String::new();
    for c in 8..=14 {
        for r in 6..=16 {
            text.push_str(&format!("hex {c}.{r} clear\n"));
        }
    }
    text.push_str(extra);
    Map::parse(&text).unwrap()
}

fn sight(map: &Map, a: &str, b: &str) -> Sight {
    line_of_sight(map, hex(a), hex(b))
}

fn blocked_by(map: &Map, a: &str, b: &str, rule: &str) {
    match sight(map, a, b) {
        Sight::Blocked(why) => assert!(why.contains(rule), "{a}->{b}: {why}"),
        other => panic!("{a}->{b}: {other:?}, not blocked by {rule}"),
    }
}

#[test]
fn line_of_sight_2_3_2_13_2_15_4_2_16_on_a_synthetic_map() {
    // The traced line runs hex by hex.
    let line = hexes_between(hex("10.10"), hex("13.12"));
    assert!(line.windows(2).all(|w| w[0].adjacent(w[1])), "{line:?}");
    assert_eq!(line.len() as u32, hex("10.10").distance(hex("13.12")) + 1);
    let clear = field("");
    assert_eq!(sight(&clear, "10.10", "10.14"), Sight::Clear);
    // Blocking Terrain between firer and target blocks; in the target's hex it does not.
    let woods = field("hex 10.12 woods\n");
    blocked_by(&woods, "10.10", "10.14", "Blocking Terrain");
    assert_eq!(sight(&woods, "10.10", "10.12"), Sight::Clear);
    // 2.3: through one orchard and into a second: clear; through two: blocked.
    let orchards = field("hex 10.11 orchard\nhex 10.12 orchard\n");
    assert_eq!(sight(&orchards, "10.10", "10.12"), Sight::Clear);
    blocked_by(&orchards, "10.10", "10.13", "2.3");
    // 2.13: a crest hexside blocks unless it is a side of the firer's or the target's hex.
    let crest = field("side 10.12 10.13 crest\n");
    blocked_by(&crest, "10.10", "10.15", "2.13");
    assert_eq!(sight(&crest, "10.12", "10.15"), Sight::Clear);
    assert_eq!(sight(&crest, "10.10", "10.13"), Sight::Clear);
    // 2.16: a raised road hex blocks; 2.15.4: so does a hex with a bridge hexside.
    blocked_by(
        &field("hex 10.12 clear road raised\n"),
        "10.10",
        "10.14",
        "2.16",
    );
    blocked_by(
        &field("side 10.12 11.12 bridge\n"),
        "10.10",
        "10.14",
        "2.15.4",
    );
    // Impassable hexsides and streams do not block (2.14).
    assert_eq!(
        sight(
            &field("side 10.11 10.12 impassable stream\n"),
            "10.10",
            "10.14"
        ),
        Sight::Clear
    );
    // Along a hexside (10.10 to 12.10 runs between 11.10 and 11.11): blocked only when both
    // sides block.
    assert_eq!(
        sight(&field("hex 11.10 woods\n"), "10.10", "12.10"),
        Sight::Clear
    );
    assert_eq!(
        sight(&field("hex 11.11 town\n"), "10.10", "12.10"),
        Sight::Clear
    );
    blocked_by(
        &field("hex 11.10 woods\nhex 11.11 town\n"),
        "10.10",
        "12.10",
        "Blocking Terrain",
    );
    // A hex the map does not know: nothing known blocks, the sight is not known.
    let partial = Map::parse("hex 30.10 clear\nhex 30.12 clear\n").unwrap();
    assert_eq!(
        sight(&partial, "30.10", "30.12"),
        Sight::Unknown(vec![hex("30.11")])
    );
}

/// 2.12 Rivers: "can only be crossed at bridges or with ferries". On a loaded map a river
/// hexside refuses every step across it, in Column or not, leg or vehicle, naming the hexside
/// and the ferry; a bridge on the same hexside (the map's, or a 2.15 bridge of the key hexes)
/// is crossed by the bridge rules.
#[test]
fn rivers_2_12_a_river_is_crossed_only_at_a_bridge_or_by_ferry() {
    let text = "hex 30.10 clear road\nhex 30.11 clear road\nhex 30.12 clear road\n\
                side 30.10 30.11 river\nside 30.11 30.12 river bridge\n\
                hex 56.201 clear road\nhex 56.202 clear road\nside 56.201 56.202 river\n";
    let map = Map::parse(text).unwrap();
    for mobility in [Mobility::Leg, Mobility::Wheeled, Mobility::Tracked] {
        for column in [false, true] {
            let e = map
                .step_cost(mobility, column, hex("30.10"), hex("30.11"))
                .unwrap_err();
            assert!(
                e.starts_with("2.12 Rivers") && e.contains("30.10/30.11") && e.contains("ferry"),
                "{e}"
            );
        }
    }
    assert!(map
        .step_cost(Mobility::Wheeled, true, hex("30.11"), hex("30.12"))
        .unwrap()
        .is_some());
    let e = map
        .step_cost(Mobility::Leg, false, hex("30.11"), hex("30.12"))
        .unwrap_err();
    assert!(
        e.starts_with("2.15.1"),
        "a bridge is crossed in Column: {e}"
    );
    // The son bridge of the key hexes spans the river on the map.
    assert!(map
        .step_cost(Mobility::Leg, true, hex("56.201"), hex("56.202"))
        .unwrap()
        .is_some());

    let mut s = game_with("the-best-laid-plans", json!({ "map": text })).unwrap();
    allied_impulse(&mut s, "div-guards");
    let e = refused(&mut s, "allied", "move A/3ig 30.10 30.11", "2.12");
    assert!(e.message.contains("30.10/30.11"), "{e}");
    refused(&mut s, "allied", "move A/3ig 30.10 30.11 column", "2.12");
    refused(
        &mut s,
        "allied",
        "move 1/2ig 30.12 30.11 30.10 tracked column",
        "2.12",
    );
    play(&mut s, "allied", "move B/3ig 30.12 30.11 column", &[]);
    assert_eq!(s.units["B/3ig"].hex, hex("30.11"));
}

#[test]
fn terrain_2_1_to_2_19_a_game_s_map_checks_moves_set_ups_and_line_of_sight() {
    let text = "hex 20.10 clear road\nhex 20.11 woods road\nhex 20.12 woods\n\
                hex 20.13 clear\nhex 20.14 impassable\nside 20.12 20.13 crest\n\
                hex 21.10 clear\nhex 21.11 clear\nside 20.10 21.10 stream\n";
    assert!(game_with("the-best-laid-plans", json!({ "map": "hex 1.1 lava" })).is_err());
    let mut s = game_with("the-best-laid-plans", json!({ "map": text })).unwrap();
    allied_impulse(&mut s, "div-guards");
    // 2.4: a vehicle enters woods only in Column along a Road.
    let e = refused(
        &mut s,
        "allied",
        "move 1/2ig 20.10 20.11 tracked",
        "2.1-2.19",
    );
    assert!(e.message.contains("woods"), "{e}");
    play(
        &mut s,
        "allied",
        "move 1/2ig 20.10 20.11 tracked column",
        &[],
    );
    refused(
        &mut s,
        "allied",
        "move 1/2ig 20.12 tracked column",
        "2.1-2.19",
    );
    // 2.14: an impassable hex; 2.11: a vehicle crosses a stream only by Road.
    refused(&mut s, "allied", "move A/3ig 20.13 20.14", "2.14");
    refused(
        &mut s,
        "allied",
        "move 2/2ig 20.10 21.10 tracked column",
        "2.11",
    );
    // A leg unit in the woods, counted on the map: 3 MP.
    play(&mut s, "allied", "move A/3ig 20.13 20.12", &[]);
    // Off the map's hexes, nothing is checked.
    play(&mut s, "allied", "move B/3ig 40.40 40.41", &[]);
    // Line of sight: the woods between them block direct fire, not a mortar.
    put(&mut s, "C/3ig", "20.10");
    put(&mut s, "A/3ig", "20.13");
    refused(
        &mut s,
        "allied",
        "fire C/3ig 20.13 small-arms",
        "line of sight",
    );
    refused(
        &mut s,
        "allied",
        "fire A/3ig 20.10 small-arms",
        "line of sight",
    );
    ok(&mut s, "allied", "fire C/3ig 21.11 small-arms", &[4]);
    ok(&mut s, "allied", "result none", &[]);
    german_impulse(&mut s);
    unit_at(&mut s, "G/1", Side::German, "20.12");
    // A crest hexside of the firer's own hex does not block.
    ok(&mut s, "german", "fire G/1 20.13 small-arms", &[4]);
}

#[test]
fn reinf_s3_1_a_lost_82nd_ab_unit_comes_in_at_a_101st_leader_finite() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-101");
    put(&mut s, "A/502", "56.203");
    put(&mut s, "ldr-502", "56.204");
    s.cups.insert(Side::Allied, ids(&["reinf", "reinf"]));
    ok(&mut s, "allied", "fire A/502 56.210 small-arms", &[9]);
    ok(&mut s, "allied", "result none", &[1]);
    assert_eq!(s.placing, Some((Side::Allied, "reinf".into())));
    // Not where no 101st Leader is; not a unit that is not a Lost 82nd AB.
    refused(&mut s, "allied", "place reinf lost82-1 56.203", "Reinf");
    refused(&mut s, "allied", "place reinf A/501 56.204", "Reinf");
    ok(&mut s, "allied", "place reinf lost82-1 56.204", &[]);
    assert_eq!(s.units["lost82-1"].hex, hex("56.204"));
    // Finite: the same unit never comes in twice, even once it is gone.
    s.units.remove("lost82-1");
    ok(&mut s, "allied", "fire A/502 56.210 small-arms", &[9]);
    ok(&mut s, "allied", "result none", &[1]);
    let e = refused(&mut s, "allied", "place reinf lost82-1 56.204", "Reinf");
    assert!(e.message.contains("lost82-2"), "{e}");
    ok(&mut s, "allied", "pass", &[]);
    // The German's Reinf brings no Lost 82nd AB.
    german_impulse(&mut s);
    unit_at(&mut s, "G/1", Side::German, "56.220");
    s.cups.insert(Side::German, ids(&["reinf"]));
    ok(&mut s, "german", "fire G/1 56.210 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[1]);
    assert!(s.placing.is_none());
    let c = order::parse("place reinf lost82-2 56.204").unwrap();
    assert_eq!(order::describe(&c), "place reinf lost82-2 56.204");
}

#[test]
fn ambush_and_explosion_s3_1_the_enemy_attacks_and_states_the_result() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-101");
    put(&mut s, "A/502", "56.203");
    put(&mut s, "377-pfab", "56.206");
    unit_at(&mut s, "G/1", Side::German, "56.208");
    s.cups.insert(Side::Allied, ids(&["ambush", "explosion"]));
    ok(&mut s, "allied", "fire A/502 56.210 small-arms", &[9]);
    // The cup in the order of the text: explosion, ambush; die 2 of 2.
    ok(&mut s, "allied", "result none", &[2]);
    // Ambush: the German attacks a friendly (Allied) unit within 3 hexes of one of his.
    assert_eq!(s.placing, Some((Side::German, "ambush".into())));
    refused(&mut s, "allied", "place ambush 56.203", "sequence of play");
    refused(&mut s, "german", "place ambush 56.203", "Ambush");
    refused(&mut s, "german", "place ambush 56.207", "Ambush");
    ok(&mut s, "german", "place ambush 56.206", &[4]);
    assert!(s
        .pending
        .as_ref()
        .is_some_and(|p| p.side == Side::German && p.face == 4));
    refused(&mut s, "allied", "end", "sequence of play");
    ok(&mut s, "german", "result eliminated 377-pfab", &[]);
    assert!(!s.units.contains_key("377-pfab"));
    // Explosion: only an Artillery Unit; a heavy barrage in its hex.
    put(&mut s, "377-pfab", "56.206");
    ok(&mut s, "allied", "fire A/502 56.210 small-arms", &[9]);
    ok(&mut s, "allied", "result none", &[1]);
    assert_eq!(s.placing, Some((Side::German, "explosion".into())));
    refused(&mut s, "german", "place explosion A/502", "Explosion");
    ok(&mut s, "german", "place explosion 377-pfab", &[2]);
    assert!(s.barrages.contains(&(hex("56.206"), true, Side::German)));
    ok(&mut s, "german", "result suppressed", &[]);
    assert!(s.pending.is_none() && s.placing.is_none());
}

#[test]
fn lost_s3_1_the_enemy_picks_a_friendly_unit_and_moves_it() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-101");
    put(&mut s, "A/502", "56.203");
    unit_at(&mut s, "G/1", Side::German, "56.208");
    s.cups.insert(Side::Allied, ids(&["lost"]));
    ok(&mut s, "allied", "fire A/502 56.210 small-arms", &[9]);
    ok(&mut s, "allied", "result none", &[1]);
    assert_eq!(s.placing, Some((Side::German, "lost".into())));
    // The German picks an Allied unit, not his own.
    refused(&mut s, "german", "place lost G/1", "Lost");
    ok(&mut s, "german", "place lost A/502", &[]);
    assert_eq!(
        (s.lost.as_deref(), s.lost_mover()),
        (Some("A/502"), Side::German)
    );
    refused(&mut s, "allied", "end", "sequence of play");
    refused(&mut s, "german", "move G/1 56.207", "Lost");
    ok(&mut s, "german", "move A/502 56.204 56.205", &[]);
    assert_eq!(s.units["A/502"].hex, hex("56.205"));
    assert!(s.lost.is_none() && s.lost_event.is_none());
    // The lost unit stays an Allied unit.
    assert_eq!(s.units["A/502"].side, Side::Allied);
}

/// Fires G/1 on `at` (a 2: no event) and states the result.
fn german_result(s: &mut State, at: &str, result: &str) {
    german_impulse(s);
    ok(s, "german", &format!("fire G/1 {at} small-arms"), &[2]);
    ok(s, "german", &format!("result {result}"), &[]);
}

#[test]
fn steps_suppression_and_cohesion_decision_15_stated_results_mark_the_units_and_a_rally_removes_them(
) {
    let mut s = game("a-ride-in-the-country");
    allied_impulse(&mut s, "f-502");
    play(&mut s, "allied", "move A/502 50.150", &[]);
    play(&mut s, "allied", "move B/502 50.150", &[]);
    // No unit named: Suppressed falls on every unit in the hex.
    german_result(&mut s, "50.150", "suppressed");
    assert!(s.marks["A/502"].suppressed && s.marks["B/502"].suppressed);
    german_result(&mut s, "50.150", "cohesion-hit B/502");
    assert_eq!(
        (s.marks["A/502"].cohesion, s.marks["B/502"].cohesion),
        (0, 1)
    );
    // A stack's Step Loss with no unit named is the players' to mark.
    german_result(&mut s, "50.150", "step-loss");
    assert_eq!((s.marks["A/502"].lost, s.marks["B/502"].lost), (0, 0));
    german_result(&mut s, "50.150", "step-loss B/502");
    assert_eq!(s.marks["B/502"].lost, 1);
    // Shown in the view, the board in text and the drawn board.
    let view = WhereEaglesDare.view(&s, &Viewer::Spectator);
    let b = &view["units"]["B/502"];
    assert_eq!(
        (
            &b["steps"],
            &b["steps_lost"],
            &b["suppressed"],
            &b["cohesion_hits"]
        ),
        (&json!(1), &json!(1), &json!(true), &json!(1))
    );
    let text = WhereEaglesDare.board_text(&s, &Viewer::Spectator).unwrap();
    assert!(
        text.contains("B/502      allied  50.150, 1/2 steps, Suppressed, 1 Cohesion Hit"),
        "{text}"
    );
    let svg = WhereEaglesDare
        .board_svg(&s, &Viewer::Spectator, &Default::default())
        .unwrap();
    assert!(svg.contains(r#"s-fired-on" data-piece="B/502""#));
    assert!(svg.contains(r#"data-piece="m-cohesion-B/502""#));
    // A rally passed removes the Suppression, then a Cohesion Hit; a failed one nothing.
    allied_impulse(&mut s, "f-502");
    play(&mut s, "allied", "rally B/502 pass 0-5", &[8]);
    assert!(s.marks["B/502"].suppressed);
    play(&mut s, "allied", "rally B/502 pass 0-5", &[3]);
    assert!(!s.marks["B/502"].suppressed && s.marks["B/502"].cohesion == 1);
    play(&mut s, "allied", "rally B/502 pass 0-5", &[3]);
    assert_eq!(s.marks["B/502"].cohesion, 0);
    assert_eq!(s.marks["B/502"].lost, 1, "a rally recovers no step");
    // The last step of the order of battle's two lost: eliminated.
    german_result(&mut s, "50.150", "step-loss B/502");
    assert!(!s.units.contains_key("B/502") && !s.marks.contains_key("B/502"));
    // Eliminated clears the marks of the units it removes.
    german_result(&mut s, "50.150", "eliminated A/502");
    assert!(s.marks.is_empty(), "{:?}", s.marks);
}

#[test]
fn steps_s6_9_joe_mann_gives_the_step_back_and_clears_the_hex_s_suppressions_and_cohesion_hits() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "f-502");
    play(&mut s, "allied", "move A/502 50.150", &[]);
    play(&mut s, "allied", "move B/502 50.150", &[]);
    german_result(&mut s, "50.150", "suppressed");
    german_result(&mut s, "50.150", "cohesion-hit A/502");
    german_result(&mut s, "50.150", "step-loss B/502");
    assert!(s.mann.is_some() && s.marks["B/502"].lost == 1);
    ok(&mut s, "allied", "joemann", &[]);
    assert!(s.marks.is_empty(), "{:?}", s.marks);
}

#[test]
fn steps_s3_1_lost_and_o3_0_the_lost_unit_is_suppressed_after_its_lost_move() {
    let mut s = game_with("the-best-laid-plans", json!({"german_lost": true})).unwrap();
    german_impulse(&mut s);
    ok(&mut s, "german", "move G/1 30.100", &[]);
    no_opfire(&mut s);
    ok(&mut s, "german", "tq G/1 lost pass 0-5", &[8]);
    ok(&mut s, "allied", "move G/1 30.101 30.102", &[]);
    assert!(s.marks["G/1"].suppressed);
}

/// The Allied fire that draws `event` from the Allied cup: A/502 fires from 50.150 and rolls
/// a 9; the result none draws the only chit in the cup (then `extra` dice).
fn allied_draws(s: &mut State, event: &str, extra: &[u32]) {
    s.cups.insert(Side::Allied, vec![event.into()]);
    allied_impulse(s, "f-502");
    if !s.units.contains_key("A/502") {
        play(s, "allied", "move A/502 50.150", &[]);
    }
    ok(s, "allied", "fire A/502 51.150 small-arms", &[9]);
    let mut dice = vec![1];
    dice.extend_from_slice(extra);
    ok(s, "allied", "result none", &dice);
}

#[test]
fn air_strike_s3_1_typhoons_within_10_hexes_of_the_formation_leader_all_placed_then_each_attacks() {
    let mut s = game("a-ride-in-the-country");
    s.weather = Some(Weather::Clear);
    allied_impulse(&mut s, "f-502");
    play(&mut s, "allied", "move ldr-502 50.152", &[]);
    play(&mut s, "allied", "move B/502 52.150", &[]);
    // A 6 halved: three Typhoons for the Allied player.
    allied_draws(&mut s, "air-strike", &[6]);
    assert_eq!(s.placing, Some((Side::Allied, "air-strike".into())));
    assert_eq!(s.typhoons.as_ref().map(|t| t.left), Some(3));
    // Within 10 hexes of the chosen Formation's Leader; one Formation for them all.
    refused(
        &mut s,
        "allied",
        "place air-strike 502 70.152",
        "S3.1 Events (Air Strike)",
    );
    refused(
        &mut s,
        "allied",
        "place air-strike 59-a 51.150",
        "S3.1 Events (Air Strike)",
    );
    ok(&mut s, "allied", "place air-strike 502 51.150", &[]);
    ok(&mut s, "allied", "place air-strike 502 51.151", &[]);
    assert!(
        s.pending.is_none(),
        "no attack before every Typhoon is placed"
    );
    // Shown: the view, the board in text, the drawn board.
    assert_eq!(
        WhereEaglesDare.view(&s, &Viewer::Spectator)["air_strike"]["hexes"],
        json!(["51.150", "51.151"])
    );
    let text = WhereEaglesDare.board_text(&s, &Viewer::Spectator).unwrap();
    assert!(
        text.contains("Air Strike (S3.1): 1 Typhoon(s) to place for 502; to attack: 51.150 51.151"),
        "{text}"
    );
    let svg = WhereEaglesDare
        .board_svg(&s, &Viewer::Spectator, &Default::default())
        .unwrap();
    assert!(svg.contains(r#"data-piece="m-typhoon-0" data-at="51.150""#));
    ok(&mut s, "allied", "place air-strike 502 51.150", &[4]);
    // Then each is a die whose result the Allied player states, in the order placed.
    let p = s.pending.clone().expect("the first Typhoon attacks");
    assert_eq!(
        (p.unit.as_str(), p.hex, p.face),
        ("typhoon", hex("51.150"), 4)
    );
    s.units.insert(
        "G/1".into(),
        Unit {
            side: Side::German,
            hex: hex("51.150"),
            column: false,
        },
    );
    ok(&mut s, "allied", "result suppressed", &[7]);
    assert!(s.marks["G/1"].suppressed);
    assert_eq!(
        s.pending.as_ref().map(|p| (p.hex, p.face)),
        Some((hex("51.151"), 7))
    );
    ok(&mut s, "allied", "result none", &[2]);
    ok(&mut s, "allied", "result cohesion-hit G/1", &[]);
    assert!(s.pending.is_none() && s.typhoons.is_none());
    assert_eq!(s.marks["G/1"].cohesion, 1);
    // At night, overcast or in fog: no event; a 0 or 1: no Typhoon.
    let mut s = game("a-ride-in-the-country");
    s.weather = Some(Weather::Overcast);
    allied_draws(&mut s, "air-strike", &[]);
    assert!(s.placing.is_none() && s.typhoons.is_none());
    let mut s = game("a-ride-in-the-country");
    s.weather = Some(Weather::Clear);
    allied_draws(&mut s, "air-strike", &[1]);
    assert!(s.placing.is_none() && s.typhoons.is_none());
    // Passing after one Typhoon attacks with that one.
    let mut s = game("a-ride-in-the-country");
    s.weather = Some(Weather::Clear);
    allied_draws(&mut s, "air-strike", &[8]);
    ok(&mut s, "allied", "place air-strike 502 51.150", &[]);
    ok(&mut s, "allied", "pass", &[5]);
    assert_eq!(s.pending.as_ref().map(|p| p.hex), Some(hex("51.150")));
}

#[test]
fn rally_s3_1_removes_any_4_suppression_or_cohesion_steps_from_one_formation() {
    let mut s = game("a-ride-in-the-country");
    allied_impulse(&mut s, "f-502");
    play(&mut s, "allied", "move A/502 50.150", &[]);
    play(&mut s, "allied", "move B/502 50.150", &[]);
    play(&mut s, "allied", "move C/502 50.151", &[]);
    german_result(&mut s, "50.150", "suppressed");
    german_result(&mut s, "50.150", "cohesion-hit");
    german_result(&mut s, "50.150", "cohesion-hit A/502");
    german_result(&mut s, "50.151", "suppressed");
    german_result(&mut s, "50.150", "step-loss B/502");
    // Six steps on the 502: A Suppressed and 2 Cohesion Hits, B Suppressed and 1, C Suppressed.
    allied_draws(&mut s, "rally", &[]);
    assert_eq!(s.placing, Some((Side::Allied, "rally".into())));
    refused(&mut s, "allied", "place rally 59-a", "S3.1 Events (Rally)");
    refused(
        &mut s,
        "allied",
        "place rally no-such",
        "S3.1 Events (Rally)",
    );
    ok(&mut s, "allied", "place rally 502", &[]);
    // Four removed, the Suppressions first: A's Cohesion Hit is left (the excess ignored).
    assert!(s.marks.values().all(|m| !m.suppressed));
    let left: u32 = s.marks.values().map(|m| m.cohesion).sum();
    assert_eq!(left, 2, "{:?}", s.marks);
    assert_eq!(s.marks["B/502"].lost, 1, "a Rally recovers no step");
    assert!(s.placing.is_none());
}

#[test]
fn command_range_decision_17_option_command_los_a_leader_commands_only_the_units_he_sees() {
    // A clear map, woods at 50.151 between the Leader at 50.152 and A/502 at 50.150.
    let mut map = String::new();
    for c in 48..=52 {
        for r in 148..=154 {
            let t = if (c, r) == (50, 151) {
                "woods"
            } else {
                "clear"
            };
            map.push_str(&format!("hex {c}.{r} {t}\n"));
        }
    }
    for (options, blocked) in [
        (json!({ "map": map, "command_los": true }), true),
        (json!({ "map": map }), false),
        (json!({ "command_los": true }), false),
    ] {
        let mut s = game_with("the-best-laid-plans", options.clone()).unwrap();
        allied_impulse(&mut s, "div-101");
        s.cp.insert("101st".into(), 5);
        put(&mut s, "A/502", "50.150");
        put(&mut s, "ldr-502", "50.152");
        if blocked {
            let e = refused(&mut s, "allied", "command A/502", "command");
            assert!(e.message.contains("does not see"), "{e}");
            // In sight (around the woods), In Command.
            put(&mut s, "A/502", "49.151");
        }
        ok(&mut s, "allied", "command A/502", &[]);
        assert_eq!(s.cp["101st"], 4, "{options}");
    }
    assert!(game_with("the-best-laid-plans", json!({ "command_los": "yes" })).is_err());
}

/// A position of The Best Laid Plans set by `text` (`despatch replay --position`).
fn read_position(
    text: &str,
) -> Result<
    despatch_core::engine::position::Positioned<State>,
    despatch_core::engine::position::PositionError,
> {
    let setup = Setup {
        game_id: "rules".into(),
        scenario: "the-best-laid-plans".into(),
        options: json!({}),
        seats: SeatDef::named_by_id(&["allied", "german"]).unwrap(),
    };
    WhereEaglesDare.position(&setup, text, &mut hidden_stream(&[7; 32], "rules", 0))
}

#[test]
fn positions_decision_15_marks_set_a_unit_s_stated_results() {
    let p = read_position("unit A/502 allied at 50.150\nmarks A/502 suppressed cohesion 2 lost 1")
        .unwrap();
    let m = &p.state.marks["A/502"];
    assert_eq!((m.suppressed, m.cohesion, m.lost), (true, 2, 1));
    // Two steps lost of two is no unit; a word the statement does not know is named.
    let Err(e) = read_position("marks A/502 lost 2") else {
        panic!("two steps lost of two is accepted");
    };
    assert!(e.to_string().contains("no unit left"), "{e}");
    assert!(read_position("marks A/502 shaken").is_err());
}

/// `unit` has lost `n` steps (the stated results, decision 15).
fn lose(s: &mut State, unit: &str, n: u32) {
    s.marks.insert(
        unit.into(),
        Marks {
            lost: n,
            ..Marks::default()
        },
    );
}

fn lost_of(s: &State, unit: &str) -> u32 {
    s.marks.get(unit).map_or(0, |m| m.lost)
}

/// The Allied player's fire draws Reinf (the only chit in his cup).
fn allied_draws_reinf(s: &mut State) {
    s.cups.insert(Side::Allied, ids(&["reinf"]));
    allied_impulse(s, "f-502");
    ok(s, "allied", "fire A/502 56.210 small-arms", &[9]);
    ok(s, "allied", "result none", &[1]);
    assert_eq!(s.placing, Some((Side::Allied, "reinf".into())));
}

#[test]
fn reinf_s3_1_two_recovered_steps_come_off_the_marks_of_one_formation_s_units() {
    let mut s = game("the-best-laid-plans");
    put(&mut s, "A/502", "56.203");
    put(&mut s, "ldr-502", "56.204");
    lose(&mut s, "A/502", 1);
    lose(&mut s, "B/502", 1);
    lose(&mut s, "C/502", 1);
    lose(&mut s, "A/501", 1);
    allied_draws_reinf(&mut s);
    // Bad input changes nothing: another side's formation, one with no step lost, a unit of
    // another formation, a unit named twice with one step lost, a name that is no formation.
    let e = refused(&mut s, "allied", "place reinf 59-a", "S3.1 Events (Reinf)");
    assert!(e.message.contains("german formation"), "{e}");
    let e = refused(&mut s, "allied", "place reinf 506", "S3.1 Events (Reinf)");
    assert!(
        e.message.contains("506 has no step lost on its units"),
        "{e}"
    );
    assert!(e.message.contains("two-step Lost 82nd AB unit"), "{e}");
    let e = refused(
        &mut s,
        "allied",
        "place reinf 502 A/501",
        "S3.1 Events (Reinf)",
    );
    assert!(e.message.contains("A/501 is not a unit of 502"), "{e}");
    let e = refused(
        &mut s,
        "allied",
        "place reinf 502 C/502 C/502",
        "S3.1 Events (Reinf)",
    );
    assert!(e.message.contains("C/502 has no more lost step"), "{e}");
    let e = refused(
        &mut s,
        "allied",
        "place reinf 502 D/502",
        "S3.1 Events (Reinf)",
    );
    assert!(
        e.message
            .contains("A/502 1 lost, B/502 1 lost, C/502 1 lost"),
        "{e}"
    );
    refused(
        &mut s,
        "allied",
        "place reinf no-such",
        "S3.1 Events (Reinf)",
    );
    // Two steps: the unit named first, then the order of battle's order.
    let n = order(&mut s, "allied", "place reinf 502 C/502", &[]).unwrap();
    assert_eq!(n, 0);
    assert_eq!(
        (
            lost_of(&s, "A/502"),
            lost_of(&s, "B/502"),
            lost_of(&s, "C/502")
        ),
        (0, 1, 0)
    );
    assert!(!s.marks.contains_key("C/502"), "a clear mark is dropped");
    assert_eq!(
        lost_of(&s, "A/501"),
        1,
        "another formation's step stays lost"
    );
    assert!(s.placing.is_none() && s.reinf_one.is_none());
    // The order reads back as written.
    let c = order::parse("place reinf 502 C/502 A/502").unwrap();
    assert_eq!(order::describe(&c), "place reinf 502 C/502 A/502");
}

#[test]
fn reinf_s3_1_one_step_lost_then_one_step_of_a_lost_82nd_ab_unit_with_the_formation_leader() {
    let mut s = game("the-best-laid-plans");
    put(&mut s, "A/502", "56.203");
    put(&mut s, "ldr-502", "56.204");
    put(&mut s, "ldr-501", "56.206");
    lose(&mut s, "B/502", 1);
    allied_draws_reinf(&mut s);
    // With a step lost, the formation's two-step Lost 82nd AB unit is refused: recover first.
    let e = refused(
        &mut s,
        "allied",
        "place reinf lost82-1 56.204",
        "S3.1 Events (Reinf)",
    );
    assert!(e.message.contains("502 has 1 step(s) lost"), "{e}");
    ok(&mut s, "allied", "place reinf 502", &[]);
    assert_eq!(lost_of(&s, "B/502"), 0);
    assert_eq!(s.reinf_one.as_deref(), Some("502"));
    assert_eq!(s.placing, Some((Side::Allied, "reinf".into())));
    // One step of a Lost 82nd AB unit, with the 502's Leader only.
    refused(&mut s, "allied", "place reinf 501", "S3.1 Events (Reinf)");
    let e = refused(
        &mut s,
        "allied",
        "place reinf lost82-1 56.206",
        "S3.1 Events (Reinf)",
    );
    assert!(e.message.contains("502's Leader at 56.204"), "{e}");
    ok(&mut s, "allied", "place reinf lost82-1 56.204", &[]);
    assert_eq!(s.units["lost82-1"].hex, hex("56.204"));
    assert_eq!(lost_of(&s, "lost82-1"), 1, "one step of its two");
    assert!(s.placing.is_none() && s.reinf_one.is_none());
    // A formation that lost none: a two-step unit with its Leader.
    let mut s = game("the-best-laid-plans");
    put(&mut s, "A/502", "56.203");
    put(&mut s, "ldr-502", "56.204");
    allied_draws_reinf(&mut s);
    ok(&mut s, "allied", "place reinf lost82-2 56.204", &[]);
    assert_eq!(lost_of(&s, "lost82-2"), 0, "both steps");
    // A Guards formation's short step is lost: the Lost 82nd AB come with the 101st.
    let mut s = game("the-best-laid-plans");
    put(&mut s, "A/502", "56.203");
    let guards = OOB
        .units_of("hot")
        .find(|u| u.class != Class::Leader)
        .unwrap()
        .id
        .clone();
    lose(&mut s, &guards, 1);
    allied_draws_reinf(&mut s);
    ok(&mut s, "allied", "place reinf hot", &[]);
    assert_eq!(lost_of(&s, &guards), 0);
    assert!(s.placing.is_none() && s.reinf_one.is_none());
}

#[test]
fn reinf_s3_1_the_german_recovers_two_steps_and_loses_the_excess() {
    let mut s = game("the-best-laid-plans");
    unit_at(&mut s, "G/1", Side::German, "56.220");
    lose(&mut s, "1/59-a", 1);
    s.cups.insert(Side::German, ids(&["reinf"]));
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 56.210 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[1]);
    assert_eq!(s.placing, Some((Side::German, "reinf".into())));
    refused(&mut s, "german", "place reinf 502", "S3.1 Events (Reinf)");
    let e = refused(
        &mut s,
        "german",
        "place reinf lost82-1 56.204",
        "S3.1 Events (Reinf)",
    );
    assert!(e.message.contains("only the 101st player"), "{e}");
    ok(&mut s, "german", "place reinf 59-a", &[]);
    assert_eq!(lost_of(&s, "1/59-a"), 0);
    assert!(
        s.placing.is_none() && s.reinf_one.is_none(),
        "the other step is lost"
    );
    // With no German step lost, there is nothing to recover: no one is asked.
    s.cups.insert(Side::German, ids(&["reinf"]));
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 56.210 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[1]);
    assert!(s.placing.is_none());
}

#[test]
fn rout_s3_1_decision_33_a_routed_german_formation_s_units_not_taken_off_the_map_are_eliminated() {
    let routing = |named: &str| {
        let mut s = before_1900("campaign", 18);
        s.time = 3;
        s.phase = Phase::Activation;
        s.offmap.insert("erc-kg-stiller".into(), OffMap::OnMap);
        unit_at(&mut s, "1/erc-kg-stiller", Side::German, "30.100");
        unit_at(&mut s, "2/erc-kg-stiller", Side::German, "30.101");
        unit_at(&mut s, "3/erc-kg-stiller", Side::German, "30.102");
        unit_at(&mut s, "1/erc-fj-ersatz", Side::German, "30.103");
        unit_at(&mut s, "G/st1", Side::German, "30.104");
        lose(&mut s, "2/erc-kg-stiller", 1);
        s.marks.get_mut("2/erc-kg-stiller").unwrap().cohesion = 1;
        s.cups.insert(Side::Allied, ids(&["rout"]));
        allied_impulse(&mut s, "f-501");
        ok(&mut s, "allied", "fire A/1 30.100 small-arms", &[9]);
        ok(&mut s, "allied", "result none", &[1]);
        assert_eq!(s.rout, Some(Side::German));
        if !named.is_empty() {
            ok(
                &mut s,
                "german",
                &format!("rout erc-kg-stiller {named}"),
                &[],
            );
        }
        s
    };
    // Bad input changes nothing: a unit of another Formation is not routed with it.
    let mut s = routing("");
    let e = refused(
        &mut s,
        "german",
        "rout erc-kg-stiller 1/erc-kg-stiller 1/erc-fj-ersatz",
        "S3.1 Rout",
    );
    assert!(
        e.message
            .contains("1/erc-fj-ersatz is neither a unit of erc-kg-stiller"),
        "{e}"
    );
    // Those named are taken off (losses kept, Cohesion gone); the others routed are eliminated.
    let s = routing("2/erc-kg-stiller G/st1");
    for u in [
        "1/erc-kg-stiller",
        "2/erc-kg-stiller",
        "3/erc-kg-stiller",
        "G/st1",
    ] {
        assert!(!s.units.contains_key(u), "{u} is off the map");
    }
    assert!(s.units.contains_key("1/erc-fj-ersatz"));
    assert_eq!(s.marks["2/erc-kg-stiller"].lost, 1);
    assert_eq!(s.marks["2/erc-kg-stiller"].cohesion, 0);
    assert!(!s.eliminated.contains_key("2/erc-kg-stiller"));
    assert_eq!(s.eliminated.get("1/erc-kg-stiller"), Some(&2));
    assert_eq!(s.eliminated.get("3/erc-kg-stiller"), Some(&2));
    assert_eq!(s.offmap["erc-kg-stiller"], OffMap::Routed { back: 19 });
    // A bare rout takes every routed unit off the map, none eliminated; `none` eliminates them.
    let mut s = routing("");
    ok(&mut s, "german", "rout erc-kg-stiller", &[]);
    assert!(s.eliminated.is_empty(), "{:?}", s.eliminated);
    assert!(!s.units.contains_key("3/erc-kg-stiller"));
    assert!(
        s.units.contains_key("G/st1"),
        "a counter outside the OOB only if named"
    );
    let s = routing("none");
    assert_eq!(s.eliminated.len(), 3, "{:?}", s.eliminated);
    assert!(s.units.contains_key("G/st1"));
}

#[test]
fn rout_s3_1_the_formation_needs_a_step_lost_on_its_units_checked_against_the_marks() {
    let mut s = before_1900("campaign", 18);
    s.time = 3;
    s.phase = Phase::Activation;
    s.offmap.insert("erc-kg-stiller".into(), OffMap::OnMap);
    unit_at(&mut s, "G/st1", Side::German, "30.100");
    s.cups.insert(Side::Allied, ids(&["rout"]));
    allied_impulse(&mut s, "f-501");
    ok(&mut s, "allied", "fire A/1 30.100 small-arms", &[9]);
    ok(&mut s, "allied", "result none", &[1]);
    assert_eq!(s.rout, Some(Side::German));
    // Bad input changes nothing: no step lost; an Independent Formation; a step lost only on
    // an Independent Unit does not count for its Formation either.
    let e = refused(&mut s, "german", "rout erc-kg-stiller G/st1", "S3.1 Rout");
    assert!(
        e.message
            .contains("erc-kg-stiller has no step lost on its units")
            && e.message
                .contains("name a Formation with a step lost, or pass"),
        "{e}"
    );
    lose(&mut s, "A/326", 1);
    let e = refused(&mut s, "german", "rout ind-101", "S3.1 Rout");
    assert!(
        e.message.contains("ind-101 is an Independent Formation"),
        "{e}"
    );
    let e = refused(&mut s, "german", "rout 501", "S3.1 Rout");
    assert!(e.message.contains("501 has no step lost"), "{e}");
    // A step lost on one unit of the Formation: it routs.
    lose(&mut s, "2/erc-kg-stiller", 1);
    ok(&mut s, "german", "rout erc-kg-stiller G/st1", &[]);
    assert_eq!(s.offmap["erc-kg-stiller"], OffMap::Routed { back: 19 });
    // An Allied Formation: its marks too (the German may name a friendly or an enemy one).
    let mut s = game("the-best-laid-plans");
    put(&mut s, "A/502", "56.203");
    lose(&mut s, "B/502", 1);
    s.cups.insert(Side::German, ids(&["rout"]));
    unit_at(&mut s, "G/1", Side::German, "56.220");
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 56.210 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[1]);
    assert_eq!(s.rout, Some(Side::Allied));
    refused(&mut s, "allied", "rout 501", "S3.1 Rout");
    ok(&mut s, "allied", "rout 502", &[]);
    assert!(s.rout.is_none());
}

/// The Best Laid Plans with `options`: A/502 and the 502's Leader on the map, B/502 eliminated
/// by a German fire's stated result (Joe Mann kept).
fn b_502_eliminated(options: serde_json::Value) -> State {
    let mut s = game_with("the-best-laid-plans", options).unwrap();
    put(&mut s, "A/502", "56.203");
    put(&mut s, "B/502", "56.205");
    put(&mut s, "ldr-502", "56.204");
    german_result(&mut s, "56.205", "eliminated B/502");
    ok(&mut s, "allied", "pass", &[]);
    s
}

#[test]
fn reinf_s3_1_decision_21_an_eliminated_unit_s_steps_are_kept_and_come_back_with_its_leader() {
    // Eliminated, a unit of the order of battle keeps its two steps as the 502's losses.
    let mut s = b_502_eliminated(json!({}));
    assert!(!s.units.contains_key("B/502") && !s.marks.contains_key("B/502"));
    assert_eq!(s.eliminated.get("B/502"), Some(&2));
    assert_eq!(
        despatch_core::rules::where_eagles_dare::units::formation_losses(&s, "502"),
        2
    );
    // A step lost on a unit in play comes back first, then the eliminated unit with the
    // other, in its formation Leader's hex.
    lose(&mut s, "A/502", 1);
    allied_draws_reinf(&mut s);
    // Bad input changes nothing: with no Leader of the 502 on the map, B/502 has nowhere to
    // come back to.
    let leader = s.units.remove("ldr-502").unwrap();
    let e = refused(
        &mut s,
        "allied",
        "place reinf 502 B/502",
        "S3.1 Events (Reinf)",
    );
    assert!(
        e.message
            .contains("B/502 is eliminated and cannot come back")
            && e.message.contains("no Leader of 502 is on the map"),
        "{e}"
    );
    s.units.insert("ldr-502".into(), leader);
    ok(&mut s, "allied", "place reinf 502", &[]);
    assert_eq!(lost_of(&s, "A/502"), 0);
    assert_eq!(s.units["B/502"].hex, hex("56.204"));
    assert_eq!(lost_of(&s, "B/502"), 1, "one step of its two came back");
    assert!(s.eliminated.is_empty());
    assert!(s.placing.is_none() && s.reinf_one.is_none());

    // Named twice, both of its steps come back.
    let mut s = b_502_eliminated(json!({}));
    allied_draws_reinf(&mut s);
    ok(&mut s, "allied", "place reinf 502 B/502 B/502", &[]);
    assert_eq!(s.units["B/502"].hex, hex("56.204"));
    assert!(!s.marks.contains_key("B/502") && s.eliminated.is_empty());

    // Its steps are losses: the 502 may not bring a two-step Lost 82nd AB unit in.
    let mut s = b_502_eliminated(json!({}));
    allied_draws_reinf(&mut s);
    let e = refused(
        &mut s,
        "allied",
        "place reinf lost82-2 56.204",
        "S3.1 Events (Reinf)",
    );
    assert!(e.message.contains("502 has 2 step(s) lost"), "{e}");

    // Option reinf_eliminated off: the steps count but do not come back; the excess is lost.
    let mut s = b_502_eliminated(json!({ "reinf_eliminated": false }));
    lose(&mut s, "A/502", 1);
    allied_draws_reinf(&mut s);
    let e = refused(
        &mut s,
        "allied",
        "place reinf 502 B/502",
        "S3.1 Events (Reinf)",
    );
    assert!(e.message.contains("option reinf_eliminated is off"), "{e}");
    ok(&mut s, "allied", "place reinf 502", &[]);
    assert_eq!(lost_of(&s, "A/502"), 0);
    assert!(!s.units.contains_key("B/502"));
    assert_eq!(s.eliminated.get("B/502"), Some(&2));
    assert!(s.placing.is_none() && s.reinf_one.is_none());
    assert!(game_with("the-best-laid-plans", json!({ "reinf_eliminated": 1 })).is_err());

    // Joe Mann negates the elimination: nothing is kept.
    let mut s = game("the-best-laid-plans");
    put(&mut s, "B/502", "56.205");
    german_result(&mut s, "56.205", "eliminated B/502");
    assert_eq!(s.eliminated.get("B/502"), Some(&2));
    ok(&mut s, "allied", "joemann", &[]);
    assert!(s.units.contains_key("B/502") && s.eliminated.is_empty());
}

#[test]
fn reinf_s3_1_decision_21_a_unit_s_last_step_lost_is_kept_as_its_formation_s_loss() {
    let mut s = game("a-ride-in-the-country");
    put(&mut s, "A/502", "56.203");
    lose(&mut s, "A/502", 1);
    german_result(&mut s, "56.203", "step-loss A/502");
    assert!(!s.units.contains_key("A/502") && !s.marks.contains_key("A/502"));
    assert_eq!(s.eliminated.get("A/502"), Some(&2));
    // A unit outside the order of battle leaves nothing to keep.
    unit_at(&mut s, "X/1", Side::Allied, "56.206");
    german_result(&mut s, "56.206", "eliminated X/1");
    assert!(!s.eliminated.contains_key("X/1"));
}

#[test]
fn rout_s3_1_decision_21_an_eliminated_unit_s_steps_count_for_its_formation() {
    let mut s = b_502_eliminated(json!({}));
    s.cups.insert(Side::German, ids(&["rout"]));
    unit_at(&mut s, "G/1", Side::German, "56.220");
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 56.210 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[1]);
    assert_eq!(s.rout, Some(Side::Allied));
    let e = refused(&mut s, "allied", "rout 501", "S3.1 Rout");
    assert!(e.message.contains("501 has no step lost"), "{e}");
    ok(&mut s, "allied", "rout 502", &[]);
    assert!(s.rout.is_none());
}

#[test]
fn positions_decision_21_eliminated_keeps_a_unit_s_steps() {
    let p = read_position("unit B/502 allied at 50.150\neliminated B/502").unwrap();
    assert!(!p.state.units.contains_key("B/502"));
    assert_eq!(p.state.eliminated.get("B/502"), Some(&2));
    let Err(e) = read_position("eliminated X/1") else {
        panic!("a unit outside the order of battle is accepted");
    };
    assert!(e.to_string().contains("not a unit of data/oob.txt"), "{e}");
}

#[test]
fn raised_roads_2_16_in_column_only_through_the_hexsides_the_raised_road_touches() {
    // A raised road through 20.20 from 20.19 to 20.21; 21.20 beside it is clear.
    let map = Map::parse(
        "hex 20.19 clear road\nhex 20.20 clear road raised\nhex 20.21 clear road\nhex 21.20 clear\n\
         side 20.19 20.20 raised\nside 20.20 20.21 raised\n",
    )
    .unwrap();
    let (n, r, s, e) = (hex("20.19"), hex("20.20"), hex("20.21"), hex("21.20"));
    assert_eq!(map.raised_sides(r), vec![n, s]);
    // In Column: in and out along the raised road, not across its side.
    assert!(map.path_cost(Mobility::Wheeled, true, n, &[r, s]).is_ok());
    let err = map.step_cost(Mobility::Leg, true, e, r).unwrap_err();
    assert!(
        err.starts_with("2.16 Raised Roads")
            && err.contains("enters 20.20 only through a hexside its raised road touches")
            && err.contains("20.20/20.19, 20.20/20.21"),
        "{err}"
    );
    let err = map.step_cost(Mobility::Tracked, true, r, e).unwrap_err();
    assert!(err.contains("leaves 20.20"), "{err}");
    // Not in Column, a Leg Unit uses any hexside (paying double in).
    assert!(map.step_cost(Mobility::Leg, false, e, r).unwrap().is_some());
    assert!(map.step_cost(Mobility::Leg, false, r, e).unwrap().is_some());
    // A raised hex whose hexsides the map does not give is not checked (the older format).
    let old = Map::parse("hex 20.20 clear road raised\nhex 21.20 clear\n").unwrap();
    assert!(old.step_cost(Mobility::Leg, true, hex("21.20"), r).is_ok());
    assert!(Map::parse("side 20.20 20.22 raised\n").is_err());
}

/// A map for the Column locks: a road north from 30.10 through woods, town, city, fortified
/// and village hexes, clear hexes beside it; a raised road 40.11–40.12 between 40.10 and 40.13,
/// clear hexes beside it.
const LOCKS_MAP: &str = "hex 30.10 clear road\nhex 30.11 woods road\nhex 30.12 town road\n\
     hex 30.13 city road\nhex 30.14 fortified road\nhex 30.15 village road\n\
     hex 31.11 clear\nhex 31.12 clear\nhex 31.13 clear\nhex 31.14 clear\nhex 31.15 clear\n\
     hex 31.16 clear\nhex 40.10 clear road\nhex 40.11 clear road raised\n\
     hex 40.12 clear road raised\nhex 40.13 clear road\nhex 41.11 clear\nhex 41.12 clear\n\
     hex 41.13 clear\nside 40.10 40.11 raised\nside 40.11 40.12 raised\nside 40.12 40.13 raised\n";

fn locks_game(options: serde_json::Value) -> State {
    // Group Cold's units stand in for any vehicles here: where released units enter (4.3.1,
    // decision 28) is tested on its own.
    let mut o = json!({ "map": LOCKS_MAP, "release_entry": false });
    for (k, v) in options.as_object().unwrap() {
        o[k] = v.clone();
    }
    let mut s = game_with("the-best-laid-plans", o).unwrap();
    allied_impulse(&mut s, "div-guards");
    s
}

#[test]
fn s2_4_a_wheeled_or_tracked_unit_in_woods_may_not_leave_column() {
    let mut s = locks_game(json!({}));
    // A tank enters the woods in Column along the Road (2.4) and may not leave Column there,
    // whether the move says it is tracked or not: it came in as a Tracked Unit.
    play(
        &mut s,
        "allied",
        "move 1/2ig 30.10 30.11 tracked column",
        &[],
    );
    for text in ["move 1/2ig 31.11 tracked", "move 1/2ig 31.11"] {
        let e = refused(&mut s, "allied", text, "2.4 Woods");
        assert!(
            e.message.contains("30.11")
                && e.message.contains("may not leave Column")
                && e.message.contains("add 'column'"),
            "{e}"
        );
    }
    // In Column it goes on along the Road.
    play(&mut s, "allied", "move 1/2ig 30.10 tracked column", &[]);
    assert_eq!(s.units["1/2ig"].hex, hex("30.10"));
    // A Leg Unit in Column in the woods leaves Column as it likes.
    play(&mut s, "allied", "move A/3ig 31.12 30.11 column", &[]);
    play(&mut s, "allied", "move A/3ig 31.11", &[]);
    assert!(!s.units["A/3ig"].column);
    // A Leg Unit riding its organic transport is a vehicle while it rides: it may not leave
    // Column mounted, and walks out once dismounted (a Leg Unit again).
    play(
        &mut s,
        "allied",
        "move B/3ig 30.10 30.11 mounted column",
        &[],
    );
    let e = refused(&mut s, "allied", "move B/3ig 31.11 mounted", "2.4 Woods");
    assert!(
        e.message.contains("dismount it by moving it on its legs"),
        "{e}"
    );
    play(&mut s, "allied", "move B/3ig 31.11", &[]);
    assert!(!s.units["B/3ig"].column && !s.vehicles.contains_key("B/3ig"));
    assert!(!s.abandoned.iter().any(|u| u == "B/3ig"));
    // The map's check: a vehicle may not leave Column in the woods, a Leg Unit pays nothing.
    let map = Map::parse(LOCKS_MAP).unwrap();
    assert_eq!(
        map.leave_column(Mobility::Wheeled, hex("30.11")),
        Err(("2.4 Woods", "woods".to_owned()))
    );
    assert_eq!(map.leave_column(Mobility::Leg, hex("30.11")), Ok(0));
    // Without a map nothing is known of the hex: nothing is checked.
    let mut bare = game("the-best-laid-plans");
    allied_impulse(&mut bare, "div-guards");
    play(
        &mut bare,
        "allied",
        "move 1/2ig 30.10 30.11 tracked column",
        &[],
    );
    play(&mut bare, "allied", "move 1/2ig 31.11 tracked", &[]);
}

/// Decision 50: an armor Unit of the order of battle is its own vehicle: it moves as its organic
/// transport says, with or without the word; another word is refused. Other Units choose.
#[test]
fn decision_50_an_armor_unit_of_the_order_of_battle_moves_as_its_transport_said_or_not() {
    use order::Transport;
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-guards");
    s.chit = None;
    unit_at(&mut s, "1/2ig", Side::Allied, "41.232");
    play(&mut s, "allied", "move 1/2ig 41.231 column", &[]);
    assert_eq!(s.vehicles.get("1/2ig"), Some(&Transport::Tracked));
    for word in ["wheeled", "mounted"] {
        let e = refused(
            &mut s,
            "allied",
            &format!("move 1/2ig 41.230 {word} column"),
            "moves",
        );
        assert!(e.message.contains("it moves tracked"), "{e}");
    }
    play(&mut s, "allied", "move 1/2ig 41.230 tracked column", &[]);
    // An infantry Unit with a truck walks unless it says 'mounted'.
    unit_at(&mut s, "A/3ig", Side::Allied, "41.232");
    play(&mut s, "allied", "move A/3ig 41.231", &[]);
    assert_eq!(s.vehicles.get("A/3ig"), None);
}

#[test]
fn s2_8_s2_9_s2_10_a_wheeled_or_tracked_unit_in_a_town_city_or_fortified_hex_may_not_leave_column()
{
    let mut s = locks_game(json!({}));
    for (unit, path, out, section) in [
        (
            "A/2hhc",
            "30.11 30.12 wheeled",
            "31.13 wheeled",
            "2.8 Towns",
        ),
        ("2/2ig", "30.12 30.13 tracked", "31.14", "2.9 Cities"),
        (
            "3/2ig",
            "30.13 30.14 tracked",
            "31.15 tracked",
            "2.10 Fortified",
        ),
    ] {
        play(&mut s, "allied", &format!("move {unit} {path} column"), &[]);
        let e = refused(&mut s, "allied", &format!("move {unit} {out}"), section);
        assert!(e.message.contains("may not leave Column"), "{e}");
        assert!(s.units[unit].column);
    }
    // The text gives villages (2.7) and railroads (2.6) no such lock.
    play(
        &mut s,
        "allied",
        "move 1/2gg 30.14 30.15 tracked column",
        &[],
    );
    play(&mut s, "allied", "move 1/2gg 31.16 tracked", &[]);
    assert!(!s.units["1/2gg"].column);
    let map = Map::parse(LOCKS_MAP).unwrap();
    for (h, section) in [
        ("30.12", "2.8 Towns"),
        ("30.13", "2.9 Cities"),
        ("30.14", "2.10 Fortified"),
    ] {
        assert_eq!(
            map.leave_column(Mobility::Tracked, hex(h)).unwrap_err().0,
            section
        );
    }
    assert_eq!(map.leave_column(Mobility::Tracked, hex("30.15")), Ok(0));
}

#[test]
fn s2_16_a_vehicle_on_a_raised_road_may_not_leave_column_a_leg_unit_may() {
    let mut s = locks_game(json!({}));
    play(
        &mut s,
        "allied",
        "move 1/2ig 40.10 40.11 tracked column",
        &[],
    );
    for text in ["move 1/2ig 41.11 tracked", "move 1/2ig 41.11"] {
        let e = refused(&mut s, "allied", text, "2.16 Raised Roads");
        assert!(
            e.message.contains("raised road or railroad hex 40.11"),
            "{e}"
        );
    }
    play(&mut s, "allied", "move 1/2ig 40.12 tracked column", &[]);
    // A Leg Unit gets off the raised road by leaving Column: 1 movement point (counted in the
    // move's cost on the map) or a Cohesion Hit, the player's; then any hexside.
    play(&mut s, "allied", "move A/3ig 40.10 40.11 column", &[]);
    play(&mut s, "allied", "move A/3ig 41.12", &[]);
    assert!(!s.units["A/3ig"].column);
    assert!(s.marks.get("A/3ig").is_none_or(|m| m.is_clear()));
    // ... or takes a Cohesion Hit instead of the movement point (`cohesion`, his choice).
    play(&mut s, "allied", "move A/1gg 40.10 40.11 column", &[]);
    play(&mut s, "allied", "move A/1gg 41.11 cohesion", &[]);
    assert_eq!(s.marks["A/1gg"].cohesion, 1);
    assert!(!s.units["A/1gg"].column);
    // That price is for leaving Column on a raised road only.
    let e = refused(&mut s, "allied", "move A/1gg 41.12 cohesion", "2.16");
    assert!(e.message.contains("drop the word"), "{e}");
    let map = Map::parse(LOCKS_MAP).unwrap();
    assert_eq!(map.leave_column(Mobility::Leg, hex("40.11")), Ok(2));
    assert_eq!(map.leave_column(Mobility::Leg, hex("40.10")), Ok(0));
    assert_eq!(
        map.leave_column(Mobility::Wheeled, hex("40.11")),
        Err((
            "2.16 Raised Roads/Railroads",
            "raised road or railroad".to_owned()
        ))
    );
    // Riding its organic transport it may not leave Column; walking off, it has dismounted on
    // the raised road and its vehicles are lost (abandoned transport marker).
    play(
        &mut s,
        "allied",
        "move B/3ig 40.10 40.11 mounted column",
        &[],
    );
    refused(
        &mut s,
        "allied",
        "move B/3ig 41.11 mounted",
        "2.16 Raised Roads",
    );
    play(&mut s, "allied", "move B/3ig 41.11", &[]);
    assert!(s.abandoned.iter().any(|u| u == "B/3ig"));
    refused(&mut s, "allied", "move B/3ig 41.12 mounted", "2.15.3");
    // Dismounting in Column on the raised road loses them too.
    play(
        &mut s,
        "allied",
        "move C/3ig 40.10 40.11 mounted column",
        &[],
    );
    play(&mut s, "allied", "move C/3ig 40.12 column", &[]);
    assert!(s.abandoned.iter().any(|u| u == "C/3ig"));
}

#[test]
fn s2_16_and_s4_2_decision_34_a_piggyback_rider_put_down_on_a_raised_road_pays_a_movement_point_or_a_cohesion_hit(
) {
    let mut s = locks_game(json!({}));
    // Each pair mounts at 40.10 and rides in Column onto the raised road at 40.11.
    for x in ["A", "B", "C", "D"] {
        play(&mut s, "allied", &format!("move {x}/inf 40.10"), &[]);
        play(
            &mut s,
            "allied",
            &format!("move {x}/tank 40.10 tracked column"),
            &[],
        );
        play(&mut s, "allied", &format!("mount {x}/inf {x}/tank"), &[]);
        if x != "C" {
            play(
                &mut s,
                "allied",
                &format!("move {x}/tank 40.11 tracked column"),
                &[],
            );
            assert!(s.units[&format!("{x}/inf")].column);
        }
    }
    // S4.2: put down out of Column; leaving Column on the raised road costs the movement
    // point, counted in the vehicle's dismount …
    play(&mut s, "allied", "dismount A/tank", &[]);
    assert!(!s.units["A/inf"].column);
    assert!(!s.marks.contains_key("A/inf"));
    // … or, the player's choice, a Cohesion Hit on the rider.
    play(&mut s, "allied", "dismount B/tank cohesion", &[]);
    assert!(!s.units["B/inf"].column);
    assert_eq!(s.marks["B/inf"].cohesion, 1);
    // Off the raised road there is nothing to pay: 'cohesion' is refused, nothing changed.
    let e = refused(
        &mut s,
        "allied",
        "dismount C/tank cohesion",
        "2.16 Raised Roads/Railroads",
    );
    assert!(e.message.contains("dismount C/tank"), "{e}");
    assert!(s.piggyback.contains_key("C/tank"));
    // S4.4: a fire result dismounts the rider with no movement made: the Cohesion Hit.
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 40.11 small-arms", &[5]);
    ok(&mut s, "german", "result suppressed", &[]);
    assert!(!s.piggyback.contains_key("D/tank"));
    assert!(!s.units["D/inf"].column);
    assert_eq!(s.marks["D/inf"].cohesion, 1);
}

#[test]
fn s2_16_a_road_block_in_a_raised_hex_bars_a_column_not_a_leg_unit_out_of_it() {
    let mut s = locks_game(json!({}));
    play(
        &mut s,
        "allied",
        "move 1/2ig 40.10 40.11 tracked column",
        &[],
    );
    play(&mut s, "allied", "move A/3ig 41.12", &[]);
    play(&mut s, "allied", "move B/3ig 40.10 column", &[]);
    german_impulse(&mut s);
    ok(&mut s, "german", "roadblock 40.12", &[]);
    allied_impulse(&mut s, "div-guards");
    // In Column, no Unit enters the raised hex with the road block.
    let e = refused(
        &mut s,
        "allied",
        "move 1/2ig 40.12 40.13 tracked column",
        "2.16",
    );
    assert!(
        e.message.contains("german road block") && e.message.contains("40.12"),
        "{e}"
    );
    refused(&mut s, "allied", "move B/3ig 40.11 40.12 column", "2.16");
    // A Leg Unit not in Column enters it even so.
    play(&mut s, "allied", "move A/3ig 40.12", &[]);
    assert_eq!(s.units["A/3ig"].hex, hex("40.12"));
    // A road block in a hex that is not raised bars nothing here (the series' road blocks).
    german_impulse(&mut s);
    ok(&mut s, "german", "roadblock 40.10", &[]);
    allied_impulse(&mut s, "div-guards");
    play(&mut s, "allied", "move C/3ig 41.11 40.10 column", &[]);
    // Decision 23: the player's own road block bars his Column too, unless the option is off.
    let mut s = locks_game(json!({}));
    ok(&mut s, "allied", "roadblock 40.12", &[]);
    play(
        &mut s,
        "allied",
        "move 1/2ig 40.10 40.11 tracked column",
        &[],
    );
    refused(&mut s, "allied", "move 1/2ig 40.12 tracked column", "2.16");
    let mut s = locks_game(json!({ "roadblock_bars_own": false }));
    ok(&mut s, "allied", "roadblock 40.11", &[]);
    play(
        &mut s,
        "allied",
        "move 1/2ig 40.10 40.11 tracked column",
        &[],
    );
    german_impulse(&mut s);
    ok(&mut s, "german", "roadblock 40.12", &[]);
    allied_impulse(&mut s, "div-guards");
    refused(
        &mut s,
        "allied",
        "move 1/2ig 40.12 40.13 tracked column",
        "2.16",
    );
    assert!(game_with(
        "the-best-laid-plans",
        json!({ "roadblock_bars_own": "yes" })
    )
    .is_err());
}

#[test]
fn drops_3_4_1_drop_one_rolls_at_once_a_later_drop_at_first_activation_once_a_unit() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-101");
    // Drop One came on the first turn: its Units roll now, and get no glider/paradrop marker
    // of their own (3.4); a delay is one marker all the same.
    ok(&mut s, "allied", "droproll A/502 B", &[0]);
    assert!(s.drop_markers.is_empty());
    ok(&mut s, "allied", "droproll B/502 B", &[6]);
    assert_eq!(s.drop_markers.get("B/502"), Some(&1));
    // Once a unit; a zone that is not one refuses and changes nothing.
    refused(&mut s, "allied", "droproll A/502 B", "3.4.1");
    refused(&mut s, "allied", "droproll C/502 Q", "3.3");
    // 3.4: a Unit on the map dropped in a hex of the zone it names, not in Column.
    put(&mut s, "C/502", "58.149");
    let e = refused(&mut s, "allied", "droproll C/502 A", "3.4 How to Drop");
    assert!(e.message.contains("not in airborne zone A"), "{e}");
    s.units.get_mut("C/502").unwrap().column = true;
    let e = refused(&mut s, "allied", "droproll C/502 B", "3.4 How to Drop");
    assert!(e.message.contains("cannot drop in Column"), "{e}");
    s.units.get_mut("C/502").unwrap().column = false;
    ok(&mut s, "allied", "droproll C/502 B", &[0]);
    // An airborne Unit placed in its zone on its drop's turn has dropped (3.4): placed only,
    // not in Column, and it rolls before any other Action.
    let e = refused(
        &mut s,
        "allied",
        "move E/502 58.149 58.150",
        "3.4 How to Drop",
    );
    assert!(e.message.contains("move E/502 58.149"), "{e}");
    refused(
        &mut s,
        "allied",
        "move E/502 58.149 column",
        "3.4 How to Drop",
    );
    ok(&mut s, "allied", "move E/502 58.149", &[]);
    assert_eq!(s.drop_awaiting, vec!["E/502".to_owned()]);
    assert_eq!(
        s.window, None,
        "3.4: the drop itself does not trigger Opportunity Fire"
    );
    let allied = Viewer::Seat(Seat::parse("allied").unwrap());
    assert_eq!(
        WhereEaglesDare.view(&s, &allied)["drop_awaiting"],
        json!(["E/502"])
    );
    assert!(WhereEaglesDare
        .board_text(&s, &allied)
        .unwrap()
        .contains("Dropped, to roll on the Drop Table (3.4.1): E/502"));
    let e = refused(&mut s, "allied", "move E/502 58.150", "3.4.1");
    assert!(e.message.contains("droproll E/502"), "{e}");
    ok(&mut s, "allied", "droproll E/502 B", &[0]);
    assert!(s.drop_awaiting.is_empty());
    ok(&mut s, "allied", "move E/502 58.150", &[]);
    assert_eq!(
        s.window,
        Some(hex("58.150")),
        "a move after the drop opens the window as any move does"
    );
    no_opfire(&mut s);
    // Drop One's rolls are made as they drop: on a later turn none is left.
    s.time += 1;
    let e = refused(&mut s, "allied", "droproll D/502 B", "3.4.1");
    assert!(e.message.contains("as soon as they drop"), "{e}");
    // Drop Two came: its Units roll the first time they activate, so the chit in play must
    // activate the unit (the 506's does not activate a 501 unit).
    s.drops[1].arrived = Some((s.day, s.time));
    allied_impulse(&mut s, "f-506");
    refused(&mut s, "allied", "droproll A/501 B", "S6.6");
    allied_impulse(&mut s, "f-501");
    put(&mut s, "A/501", "58.149");
    // No effect: the drop's own marker; a delay: one more (3.4).
    ok(&mut s, "allied", "droproll D/501 B", &[0]);
    assert_eq!(s.drop_markers.get("D/501"), Some(&1));
    ok(&mut s, "allied", "droproll A/501 B", &[6]);
    assert_eq!(s.drop_markers.get("A/501"), Some(&2));
    // A German unit in the zone: +1; 9 + 1 = 10 is a step lost on landing (decision 15's marks).
    unit_at(&mut s, "G/1", Side::German, "60.148");
    put(&mut s, "B/501", "58.148");
    ok(&mut s, "allied", "droproll B/501 B", &[9]);
    assert_eq!(s.marks["B/501"].lost, 1);
    assert!(s.units.contains_key("B/501"));
    // The order of battle says who lands by glider (3.4.1): not a 501 PIR unit.
    put(&mut s, "C/501", "58.148");
    let e = refused(&mut s, "allied", "droproll C/501 B glider", "3.4.1");
    assert!(e.message.contains("parachute"), "{e}");
    // A glider in a DZ +2 as well: 12, eliminated on landing, its steps kept (decision 21). A
    // 327th GIR unit lands by glider, the word said or not.
    allied_impulse(&mut s, "f-327");
    put(&mut s, "A/327", "58.148");
    ok(&mut s, "allied", "droproll A/327 B", &[9]);
    assert!(!s.units.contains_key("A/327") && !s.drop_markers.contains_key("A/327"));
    assert_eq!(s.eliminated.get("A/327"), Some(&2));
}

#[test]
fn drops_3_4_2_one_action_removes_each_glider_paradrop_marker_and_nothing_else_before() {
    let mut s = game("the-best-laid-plans");
    s.time += 1;
    s.drops[1].arrived = Some((s.day, s.time));
    allied_impulse(&mut s, "f-501");
    put(&mut s, "A/501", "58.149");
    ok(&mut s, "allied", "droproll A/501 B", &[6]);
    assert_eq!(s.drop_markers.get("A/501"), Some(&2));
    let allied = Viewer::Seat(Seat::parse("allied").unwrap());
    assert_eq!(
        WhereEaglesDare.view(&s, &allied)["drop_markers"]["A/501"],
        json!(2)
    );
    let board = WhereEaglesDare.board_text(&s, &allied).unwrap();
    assert!(
        board.contains("Glider/paradrop markers (3.4.2): A/501 x2"),
        "{board}"
    );
    // Under a marker the unit performs no other Action.
    for text in [
        "move A/501 58.150",
        "fire A/501 58.151 small-arms",
        "assault A/501 58.150",
        "rally A/501 pass 0-5",
    ] {
        let e = refused(&mut s, "allied", text, "3.4.2");
        assert!(e.message.contains("unmark A/501"), "{e}");
    }
    // Each marker is an Action of the unit, without opportunity fire; not another unit's.
    allied_impulse(&mut s, "f-502");
    refused(&mut s, "allied", "unmark A/501", "S6.6");
    allied_impulse(&mut s, "f-501");
    ok(&mut s, "allied", "unmark A/501", &[]);
    assert_eq!(s.drop_markers.get("A/501"), Some(&1));
    assert!(s.window.is_none());
    ok(&mut s, "allied", "unmark A/501", &[]);
    assert!(!s.drop_markers.contains_key("A/501"));
    refused(&mut s, "allied", "unmark A/501", "3.4.2");
    play(&mut s, "allied", "move A/501 58.150", &[]);
    // Before any drop has come, no Unit rolls.
    let mut s = game("the-best-laid-plans");
    for d in s.drops.iter_mut() {
        d.arrived = None;
    }
    allied_impulse(&mut s, "div-101");
    refused(&mut s, "allied", "droproll A/502 B", "3.4.1");
}

#[test]
fn positions_decisions_23_and_24_how_a_unit_came_in_and_its_drop_markers() {
    let p = read_position(
        "unit 1/2ig allied at 30.11 column tracked\ndropped A/501 markers 2\ndropped B/501",
    )
    .unwrap();
    assert_eq!(
        p.state.vehicles.get("1/2ig"),
        Some(&order::Transport::Tracked)
    );
    assert_eq!(p.state.drop_markers.get("A/501"), Some(&2));
    assert!(p.state.drop_rolled.iter().any(|u| u == "B/501"));
    assert!(!p.state.drop_markers.contains_key("B/501"));
    for bad in [
        "unit 1/2ig allied at 30.11 column column",
        "unit 1/2ig allied at 30.11 tracked wheeled",
        "dropped A/501 markers x",
        "dropped pz/59-a",
    ] {
        assert!(read_position(bad).is_err(), "{bad}");
    }
    // Set so on a game's map, the tank is locked in Column in the woods (2.4) and the dropped
    // unit performs no Action but removing its markers (3.4.2).
    let setup = Setup {
        game_id: "rules".into(),
        scenario: "the-best-laid-plans".into(),
        options: json!({ "map": LOCKS_MAP }),
        seats: SeatDef::named_by_id(&["allied", "german"]).unwrap(),
    };
    let mut s = WhereEaglesDare
        .position(
            &setup,
            "unit 1/2ig allied at 30.11 column tracked\nunit A/501 allied at 31.11\ndropped A/501 markers 1",
            &mut hidden_stream(&[7; 32], "rules", 0),
        )
        .unwrap()
        .state;
    allied_impulse(&mut s, "div-guards");
    refused(&mut s, "allied", "move 1/2ig 31.11", "2.4 Woods");
    allied_impulse(&mut s, "div-101");
    refused(&mut s, "allied", "move A/501 31.12", "3.4.2");
    ok(&mut s, "allied", "unmark A/501", &[]);
    play(&mut s, "allied", "move A/501 31.12", &[]);
}

/// A hex of airborne zone `zone` that is in no other zone.
fn only_in(zone: &str) -> String {
    DATA.zones[zone]
        .1
        .iter()
        .find(|h| {
            DATA.zones
                .iter()
                .all(|(z, (_, hexes))| z == zone || !hexes.contains(h))
        })
        .expect("a hex of the zone alone")
        .to_string()
}

#[test]
fn free_drop_3_3_2_an_opened_plan_s_zone_binds_its_formation_s_drop_rolls_and_placements() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-101");
    // Drop One's plan, opened: 502 in B, 501 in A, 506 in C; no zone for the independents.
    s.drops[0].plan = Some(vec!["502:B".into(), "501:A".into(), "506:C".into()]);
    // A roll in another zone is refused, naming the plan's zone, and changes nothing.
    let e = refused(&mut s, "allied", "droproll A/502 A", "3.3.2");
    assert!(
        e.message.contains("zone B") && e.message.contains("A/502"),
        "{e}"
    );
    ok(&mut s, "allied", "droproll A/502 B", &[0]);
    // Placed as dropped in another zone: refused too; in its own, it has dropped.
    let a = only_in("A");
    let e = refused(&mut s, "allied", &format!("move B/502 {a}"), "3.3.2");
    assert!(e.message.contains("zone B"), "{e}");
    play(&mut s, "allied", &format!("move A/501 {a}"), &[]);
    assert_eq!(s.drop_awaiting, vec!["A/501".to_owned()]);
    ok(&mut s, "allied", "droproll A/501 A", &[0]);
    // A Formation the plan does not name is not in this drop.
    let e = refused(&mut s, "allied", "droproll A/327 B", "3.3.2");
    assert!(e.message.contains("names no zone for 327"), "{e}");
    // Independents (decision 26): with no zone of their own in the plan, any zone another
    // Formation of their Division uses this drop; not one nobody uses.
    ok(&mut s, "allied", "droproll A/326 C", &[0]);
    let e = refused(&mut s, "allied", "droproll B/326 A1", "3.3.2");
    assert!(e.message.contains("ind-101"), "{e}");
    // Named in the plan, only the zones it names.
    s.drops[0].plan = Some(vec![
        "502:B".into(),
        "501:A".into(),
        "506:C".into(),
        "ind-101:A".into(),
    ]);
    refused(&mut s, "allied", "droproll B/326 C", "3.3.2");
    ok(&mut s, "allied", "droproll B/326 A", &[0]);
    // A hex of both B and C is in the zone C the plan gives the 506.
    play(&mut s, "allied", "move A/506 57.150", &[]);
    assert_eq!(s.drop_awaiting, vec!["A/506".to_owned()]);
    ok(&mut s, "allied", "droproll A/506 C", &[0]);
    // Drop Two: a Formation of Drop One's plan does not drop again; the refusal says where its
    // plan put it.
    s.time += 1;
    s.drops[1].arrived = Some((s.day, s.time));
    s.drops[1].plan = Some(vec!["327:B".into()]);
    allied_impulse(&mut s, "f-502");
    let e = refused(&mut s, "allied", "droproll C/502 B", "3.3.2");
    assert!(e.message.contains("Drop 1 in zone B"), "{e}");
    allied_impulse(&mut s, "f-327");
    ok(&mut s, "allied", "droproll A/327 B", &[0]);
    // A plan still sealed is not read: the rolls are checked as without a free drop.
    s.drops[1].plan = None;
    ok(&mut s, "allied", "droproll B/327 C", &[0]);
}

#[test]
fn release_4_3_1_a_released_formation_enters_in_the_club_route_marker_s_hex_in_column_not_before() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-guards");
    let m = s.marker.expect("the marker starts on the map").to_string();
    // Group Cold and Guards Art. are still on the Club Route line: none of their Units is placed.
    let e = refused(&mut s, "allied", &format!("move 1/2gg {m} column"), "4.3.1");
    assert!(
        e.message.contains("Group Cold") && e.message.contains("released"),
        "{e}"
    );
    let e = refused(
        &mut s,
        "allied",
        &format!("move 55-fd-rgt {m} column"),
        "4.3.1",
    );
    assert!(e.message.contains("Guards Art."), "{e}");
    // Group Hot, part of which starts on the map (the set-up is not in the text), is the players'.
    play(&mut s, "allied", "move 1/2ig 41.232 column", &[]);
    // Released: in the Club Route marker's hex, in Column, nowhere else.
    s.released
        .extend(["group-hot".to_owned(), "group-cold".to_owned()]);
    let e = refused(&mut s, "allied", "move 2/2gg 41.231 column", "4.3.1");
    assert!(e.message.contains(&format!("move 2/2gg {m} column")), "{e}");
    let e = refused(&mut s, "allied", &format!("move 2/2gg {m}"), "4.3.1");
    assert!(e.message.contains("arrive in Column"), "{e}");
    play(&mut s, "allied", &format!("move 2/2gg {m} column"), &[]);
    assert!(s.units["2/2gg"].column && s.units["2/2gg"].hex.to_string() == m);
    // Once placed it moves as any unit (its first hex was the marker's).
    play(&mut s, "allied", &format!("move 1/2gg {m} column"), &[]);
    // The marker off the map: the released Formation's Units no longer appear on this map.
    s.marker = None;
    let e = refused(&mut s, "allied", "move 3/2gg 41.232 column", "4.3.1");
    assert!(e.message.contains("off the map"), "{e}");
    // Option off: placements are the players'.
    let mut s = game_with("the-best-laid-plans", json!({ "release_entry": false })).unwrap();
    allied_impulse(&mut s, "div-guards");
    play(&mut s, "allied", "move 1/2gg 41.231 column", &[]);
    assert!(game_with("the-best-laid-plans", json!({ "release_entry": 1 })).is_err());
}

#[test]
fn heroic_s3_1_decision_29_a_heroic_unit_s_tq_and_rally_pass_on_one_more_face() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    // Without Heroic, a 7 fails the faces 0-6 stated for the counter's TQ.
    ok(&mut s, "german", "tq G/x wire son pass 0-6", &[7]);
    assert_eq!(s.bridges["son"].wired_by, None);
    // Heroic: "a TQ of one more … than its face value": 0-6 passes on 7 too, not on 8.
    s.heroic.insert(Side::German, "G/eng".into());
    ok(&mut s, "german", "tq G/eng wire son pass 0-6", &[7]);
    assert_eq!(s.bridges["son"].wired_by, Some(Side::German));
    s.marks.insert(
        "G/eng".into(),
        Marks {
            suppressed: true,
            ..Marks::default()
        },
    );
    ok(&mut s, "german", "rally G/eng pass 0-3", &[5]);
    assert!(
        s.marks["G/eng"].suppressed,
        "5 fails 0-3 and its one more face"
    );
    ok(&mut s, "german", "rally G/eng pass 0-3", &[4]);
    assert!(!s.marks.contains_key("G/eng"), "4 passes a Heroic 0-3");
    // Another unit of the side is not Heroic.
    s.marks.insert(
        "G/x".into(),
        Marks {
            suppressed: true,
            ..Marks::default()
        },
    );
    ok(&mut s, "german", "rally G/x pass 0-3", &[4]);
    assert!(s.marks["G/x"].suppressed);
    // Option off: the stated faces already include Heroic.
    let mut s = game_with("the-best-laid-plans", json!({ "heroic_tq": false })).unwrap();
    german_impulse(&mut s);
    s.heroic.insert(Side::German, "G/eng".into());
    ok(&mut s, "german", "tq G/eng wire son pass 0-6", &[7]);
    assert_eq!(s.bridges["son"].wired_by, None);
    assert!(game_with("the-best-laid-plans", json!({ "heroic_tq": "on" })).is_err());
}

#[test]
fn rout_s3_1_decision_30_a_routed_allied_formation_moves_one_hex_without_opportunity_fire_or_entrenches(
) {
    let mut s = game("the-best-laid-plans");
    s.units.retain(|_, u| u.side == Side::German);
    put(&mut s, "A/502", "56.203");
    put(&mut s, "C/502", "56.230");
    // An Independent Unit stacked with the Formation routs with it; one elsewhere does not.
    put(&mut s, "A/326", "56.203");
    put(&mut s, "B/326", "56.231");
    lose(&mut s, "B/502", 1);
    s.cups.insert(Side::German, ids(&["rout"]));
    unit_at(&mut s, "G/1", Side::German, "56.220");
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 56.210 small-arms", &[9]);
    ok(&mut s, "german", "result none", &[1]);
    ok(&mut s, "allied", "rout 502", &[]);
    let r = s.routing.clone().expect("the routed units to settle");
    assert_eq!(r.side, Side::Allied);
    assert_eq!(r.units, vec!["A/502", "C/502", "A/326"]);
    // Bad input changes nothing: a move of more than one hex, a unit not routed, another
    // action, the German acting.
    let e = refused(&mut s, "allied", "move A/502 56.204 56.205", "S3.1 Rout");
    assert!(e.message.contains("one hex"), "{e}");
    let e = refused(&mut s, "allied", "move B/326 56.232", "S3.1 Rout");
    assert!(
        e.message.contains("B/326 is not a routed unit of 502"),
        "{e}"
    );
    refused(
        &mut s,
        "allied",
        "fire A/502 56.220 small-arms",
        "S3.1 Rout",
    );
    refused(&mut s, "allied", "entrench B/326", "S3.1 Rout");
    refused(
        &mut s,
        "german",
        "fire G/1 56.203 small-arms",
        "sequence of play",
    );
    // One hex, and no opportunity fire window for the German.
    ok(&mut s, "allied", "move A/502 56.204", &[]);
    assert_eq!(s.units["A/502"].hex, hex("56.204"));
    assert_eq!(
        s.window, None,
        "no opportunity fire at a routed unit's move"
    );
    // A unit that cannot leave the Fire Zones stays under an Entrenched marker.
    ok(&mut s, "allied", "entrench A/326", &[]);
    assert!(s.entrenched.contains("A/326"));
    assert_eq!(s.window, None);
    let seat = Seat::parse("allied").unwrap();
    let text = WhereEaglesDare.board_text(&s, &Viewer::Seat(seat)).unwrap();
    assert!(text.contains("Entrenched"), "{text}");
    assert_eq!(s.routing.as_ref().unwrap().units, vec!["C/502"]);
    // The Allied player is asked, and only he; a missed deadline passes.
    let prompts = WhereEaglesDare.prompts(&s);
    assert_eq!(prompts.len(), 1);
    assert_eq!(prompts[0].seat.as_str(), "allied");
    assert!(prompts[0].options.iter().any(|o| o == "entrench C/502"));
    let mut late = s.clone();
    let mut q = VecDeque::new();
    WhereEaglesDare
        .timeout(
            &mut late,
            &Seat::parse("allied").unwrap(),
            &mut Ctx::new(DiceSource::Scripted(&mut q), None),
        )
        .unwrap();
    assert!(late.routing.is_none());
    // The rest are not in an enemy Fire Zone: they stay, nothing placed on them.
    ok(&mut s, "allied", "pass", &[]);
    assert!(s.routing.is_none());
    assert_eq!(s.units["C/502"].hex, hex("56.230"));
    assert!(!s.entrenched.contains("C/502"));
    // The marker stays with the unit until it leaves its hex.
    allied_impulse(&mut s, "div-101");
    ok(&mut s, "allied", "move A/326 56.202", &[]);
    assert!(!s.entrenched.contains("A/326"));
    // A German Formation not of an off-map display is still the players' to carry out.
    assert_eq!(
        despatch_core::rules::where_eagles_dare::offmap::allied_routed(&s, "59-a"),
        None
    );
}

/// A unit of `side` with its Suppression marker, for a rally.
fn suppressed(s: &mut State, unit: &str) {
    s.marks.insert(
        unit.into(),
        Marks {
            suppressed: true,
            ..Marks::default()
        },
    );
}

#[test]
fn tq_modifiers_s6_1_1_s6_1_2_s5_1_1_decision_42_change_the_stated_faces_of_tq_and_rally() {
    // S6.1.1: SDZ Closed, every 101st unit's TQ −1: 0-5 stated for the face value passes on
    // 0-4 only; a Heroic 101st unit gets its face back (net 0).
    let mut s = game("the-best-laid-plans");
    s.supply.interdicted = true;
    allied_impulse(&mut s, "div-101");
    suppressed(&mut s, "A/502");
    ok(&mut s, "allied", "rally A/502 pass 0-5", &[5]);
    assert!(s.marks["A/502"].suppressed, "5 fails a 0-5 with −1");
    ok(&mut s, "allied", "rally A/502 pass 0-5", &[4]);
    assert!(!s.marks.contains_key("A/502"), "4 passes");
    suppressed(&mut s, "A/502");
    s.heroic.insert(Side::Allied, "A/502".into());
    ok(&mut s, "allied", "rally A/502 pass 0-5", &[5]);
    assert!(!s.marks.contains_key("A/502"), "Heroic +1 and −1: net 0");
    // The engineer's TQ check too.
    s.heroic.clear();
    ok(&mut s, "allied", "tq A/326 wire son pass 0-6", &[6]);
    assert_eq!(s.bridges["son"].wired_by, None, "6 fails a 0-6 with −1");
    // A unit outside the order of battle: its division is not known, the faces stand.
    suppressed(&mut s, "A/x");
    ok(&mut s, "allied", "rally A/x pass 0-5", &[5]);
    assert!(!s.marks.contains_key("A/x"));
    // S6.1.2: Club Route Cut, the Guards Armored −2; the 0 is never taken off (decision 1).
    let mut s = game("the-best-laid-plans");
    s.highway.cut = true;
    allied_impulse(&mut s, "div-guards");
    suppressed(&mut s, "A/3ig");
    ok(&mut s, "allied", "rally A/3ig pass 0-5", &[4]);
    assert!(s.marks["A/3ig"].suppressed, "4 fails a 0-5 with −2");
    ok(&mut s, "allied", "rally A/3ig pass 0-1", &[10]);
    assert!(!s.marks.contains_key("A/3ig"), "a 0 always passes");
    // The 101st is not the Guards: no modifier.
    allied_impulse(&mut s, "div-101");
    suppressed(&mut s, "A/502");
    ok(&mut s, "allied", "rally A/502 pass 0-5", &[5]);
    assert!(!s.marks.contains_key("A/502"));
    // S5.1.1: KG Chill, every German TQ +1: 0-6 passes on 7 too.
    let mut s = game("the-best-laid-plans");
    s.kg_chill = true;
    german_impulse(&mut s);
    s.chit = Some("div-59th".into());
    ok(&mut s, "german", "tq pi/59-a wire son pass 0-6", &[7]);
    assert_eq!(s.bridges["son"].wired_by, Some(Side::German));
    let board = WhereEaglesDare.board_text(&s, &Viewer::Spectator).unwrap();
    assert!(
        board.contains("German +1") && board.contains("decision 42"),
        "{board}"
    );
    assert!(board.lines().all(|l| l.chars().count() <= 78), "{board}");
    // Option off: the stated faces include the modifiers, as before.
    let mut s = game_with("the-best-laid-plans", json!({ "tq_modifiers": false })).unwrap();
    s.supply.interdicted = true;
    allied_impulse(&mut s, "div-101");
    suppressed(&mut s, "A/502");
    ok(&mut s, "allied", "rally A/502 pass 0-5", &[5]);
    assert!(!s.marks.contains_key("A/502"));
    let board = WhereEaglesDare.board_text(&s, &Viewer::Spectator).unwrap();
    assert!(board.contains("option tq_modifiers off"), "{board}");
    assert!(game_with("the-best-laid-plans", json!({ "tq_modifiers": 1 })).is_err());
}

#[test]
fn rout_s3_1_decision_43_a_routed_59th_formation_rolls_its_step_losses_or_less_and_leaves_play() {
    // The German names 59-a (three steps lost: one on 1/59-a's marks, 3/59-a eliminated).
    let drawn = || {
        let mut s = before_1900("campaign", 18);
        s.time = 3;
        unit_at(&mut s, "ldr-59-a", Side::German, "30.100");
        unit_at(&mut s, "1/59-a", Side::German, "30.101");
        unit_at(&mut s, "1/59-b", Side::German, "30.102");
        unit_at(&mut s, "G/ind", Side::German, "30.103");
        lose(&mut s, "1/59-a", 1);
        s.eliminated.insert("3/59-a".into(), 2);
        s.cups.insert(Side::Allied, ids(&["rout"]));
        allied_impulse(&mut s, "f-501");
        ok(&mut s, "allied", "fire A/1 30.101 small-arms", &[9]);
        ok(&mut s, "allied", "result none", &[1]);
        assert_eq!(s.rout, Some(Side::German));
        s
    };
    // KG Huber under the 59th is a 59th Formation (S5.5); under KG Chill it is not.
    assert!(offmap::is_59th("59-a") && offmap::is_59th("huber-59"));
    assert!(!offmap::is_59th("huber-chill") && !offmap::is_59th("erc-kg-stiller"));
    // Bad input changes nothing: a unit of another Formation is not removed with it.
    let mut s = drawn();
    let e = refused(&mut s, "german", "rout 59-a 1/59-b", "S3.1 Rout");
    assert!(
        e.message.contains("1/59-b is neither a unit of 59-a"),
        "{e}"
    );
    assert!(e.message.contains("ldr-59-a at 30.100, range 3"), "{e}");
    // The engine rolls: a 4 is more than 3 steps lost: no rout, all stay.
    ok(&mut s, "german", "rout 59-a", &[4]);
    assert!(s.rout.is_none());
    assert!(s.units.contains_key("ldr-59-a") && s.units.contains_key("1/59-a"));
    assert!(s.gone.is_empty());
    // A 3, that number: the Formation is removed from play, with the counters named.
    let mut s = drawn();
    ok(&mut s, "german", "rout 59-a G/ind", &[3]);
    for u in ["ldr-59-a", "1/59-a", "G/ind"] {
        assert!(!s.units.contains_key(u), "{u} left the map");
    }
    assert!(s.units.contains_key("1/59-b"), "another Formation stays");
    for u in [
        "ldr-59-a", "1/59-a", "2/59-a", "3/59-a", "pz/59-a", "pi/59-a",
    ] {
        assert!(s.gone.contains(&u.to_owned()), "{u} is out of play");
    }
    // "Once removed, 59th Infantry Division Units never return to play."
    german_impulse(&mut s);
    s.chit = Some("div-59th".into());
    let e = refused(&mut s, "german", "move 2/59-a 30.110", "S3.1 Rout");
    assert!(e.message.contains("never return"), "{e}");
    ok(&mut s, "german", "move 1/59-b 30.103", &[]);
}

#[test]
fn trucks_s5_3_and_jeeps_s6_3_decision_44_a_leg_unit_of_the_owning_division_rides_as_an_independent(
) {
    let mut s = game("the-best-laid-plans");
    for u in ["A/502", "A/44rtr", "A/3ig"] {
        unit_at(&mut s, u, Side::Allied, "50.150");
    }
    // "A Unit of the owning Division may use these assets".
    allied_impulse(&mut s, "f-502");
    let e = refused(&mut s, "allied", "truck A/502 guards", "S5.3");
    assert!(
        e.message.contains("of the 101st") && e.message.contains("truck A/502 101st"),
        "{e}"
    );
    // "the Leg Unit may mount": not an armor unit, not one with its own Organic Transport
    // (until it has abandoned it).
    allied_impulse(&mut s, "ind-101");
    let e = refused(&mut s, "allied", "truck A/44rtr 101st", "S5.3");
    assert!(e.message.contains("not a Leg Unit"), "{e}");
    allied_impulse(&mut s, "f-hot");
    let e = refused(&mut s, "allied", "truck A/3ig guards", "S5.3");
    assert!(e.message.contains("Organic Transport"), "{e}");
    s.abandoned.push("A/3ig".into());
    play(&mut s, "allied", "truck A/3ig guards", &[]);
    // "The Unit is now treated as an Independent Formation Unit until it dismounts": its own
    // Formation chit no longer activates it; the division's Independent chit does.
    allied_impulse(&mut s, "f-502");
    play(&mut s, "allied", "truck A/502 101st", &[]);
    allied_impulse(&mut s, "f-502");
    let e = refused(&mut s, "allied", "move A/502 50.151", "S5.3");
    assert!(e.message.contains("ind-101"), "{e}");
    allied_impulse(&mut s, "ind-101");
    play(&mut s, "allied", "move A/502 50.151", &[]);
    play(&mut s, "allied", "dismount A/502", &[]);
    // Dismounted, it is of its Formation again.
    allied_impulse(&mut s, "f-502");
    play(&mut s, "allied", "move A/502 50.150", &[]);
    allied_impulse(&mut s, "ind-101");
    refused(&mut s, "allied", "move A/502 50.151", "S6.6");
}

#[test]
fn piggyback_s4_0_to_s4_3_decision_45_infantry_without_transport_on_a_vehicle_of_its_formation_with_as_many_steps(
) {
    let mut s = game("the-best-laid-plans");
    for u in [
        "A/326",
        "B/326",
        "A/44rtr",
        "101-recon",
        "ldr-101",
        "A/501",
        "A/3ig",
        "1/2ig",
        "A/x",
    ] {
        unit_at(&mut s, u, Side::Allied, "50.150");
    }
    allied_impulse(&mut s, "div-101");
    // S4.0: "Infantry Units … may 'piggyback ride' on Vehicle Units of their Formation".
    let e = refused(&mut s, "allied", "mount ldr-101 A/44rtr", "S4.0");
    assert!(e.message.contains("leader Unit"), "{e}");
    let e = refused(&mut s, "allied", "mount A/501 A/44rtr", "S4.0");
    assert!(
        e.message.contains("A/501 is of 501 and A/44rtr of ind-101")
            && e.message.contains("501 has none"),
        "{e}"
    );
    let e = refused(&mut s, "allied", "mount A/326 B/326", "S4.0");
    assert!(e.message.contains("not a Vehicle Unit"), "{e}");
    // S4.3: "Infantry Units with an Organic Transport can never piggyback".
    allied_impulse(&mut s, "div-guards");
    let e = refused(&mut s, "allied", "mount A/3ig 1/2ig", "S4.3");
    assert!(e.message.contains("Organic Transport (truck)"), "{e}");
    // S4.1: "an entire movement action by both units": the chit activates the vehicle too.
    allied_impulse(&mut s, "f-502");
    refused(&mut s, "allied", "mount A/x A/44rtr", "S6.5");
    allied_impulse(&mut s, "ind-101");
    play(&mut s, "allied", "mount A/326 A/44rtr", &[]);
    // S4.3: the rider performs no Action, the vehicle only moves and dismounts: no ferry.
    refused(&mut s, "allied", "ferry A/326 son", "S4.0");
    refused(&mut s, "allied", "ferry A/44rtr son", "S4.0");
    play(&mut s, "allied", "dismount A/44rtr", &[]);
    play(&mut s, "allied", "mount B/326 101-recon", &[]);
    // S4.3: "at least as many Steps as the Infantry Unit", the steps left on the marks.
    german_impulse(&mut s);
    s.chit = Some("div-59th".into());
    for u in ["1/59-a", "pz/59-a"] {
        unit_at(&mut s, u, Side::German, "30.100");
    }
    let e = refused(&mut s, "german", "mount 1/59-a pz/59-a", "S4.3");
    assert!(e.message.contains("pz/59-a has 1 step and 1/59-a 2"), "{e}");
    lose(&mut s, "1/59-a", 1);
    play(&mut s, "german", "mount 1/59-a pz/59-a", &[]);
    assert_eq!(s.piggyback["pz/59-a"], "1/59-a");
}
