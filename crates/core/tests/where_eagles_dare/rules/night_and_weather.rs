//! 1.0 Night and Weather: the night turn (1.1) and fog (1.2).

use despatch_core::rules::where_eagles_dare::data::Weather;
use despatch_core::rules::where_eagles_dare::state::{Phase, Side};

use super::support::*;

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
