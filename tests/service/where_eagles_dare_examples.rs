//! The worked examples of the Where Eagles Dare exclusive rules (issue 18, "Checks"), each a
//! replay script kept in `docs/rules/where-eagles-dare/examples/`, run as a player runs it:
//! `despatch replay <script>` (its dice in the script's `# dice:` header). Each test checks
//! every roll, modifier and outcome the text's example states, from the transcript's lines and
//! the position after the last step; a refused step in a script is the example's own bad
//! input, shown with its error and changing nothing.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

fn script(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("docs/rules/where-eagles-dare/examples")
        .join(name)
}

/// `despatch replay [flags] <script>` in a folder of its own, as a player runs it.
fn run(name: &str, flags: &[&str]) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    Command::new(env!("CARGO_BIN_EXE_despatch"))
        .arg("replay")
        .args(flags)
        .arg(script(name))
        .current_dir(dir.path())
        .env(
            "DATABASE_URL",
            format!("sqlite:{}/despatch.db?mode=rwc", dir.path().display()),
        )
        .env("RUST_LOG", "warn")
        .output()
        .expect("the binary runs")
}

/// `despatch replay --json <script>`: the transcript, which must use every die of the header.
fn replay(name: &str) -> Value {
    let out = run(name, &["--json"]);
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let t: Value = serde_json::from_slice(&out.stdout).expect("the transcript is JSON");
    assert_eq!(t["unverifiable"], true);
    assert_eq!(
        t["dice_left"],
        serde_json::json!([]),
        "{name}: every die of the script is used"
    );
    t
}

/// The plain transcript a player reads: it runs, and says the dice are scripted.
fn replay_text(name: &str) -> String {
    let out = run(name, &[]);
    assert!(out.status.success(), "{name}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The lines step `n` (1-based) said, to everyone or to a seat.
fn said(t: &Value, n: usize) -> Vec<String> {
    t["steps"][n - 1]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap().to_owned())
        .collect()
}

fn says(t: &Value, n: usize, expected: &str) {
    let lines = said(t, n);
    assert!(
        lines.iter().any(|l| l.contains(expected)),
        "step {n} does not say '{expected}': {lines:#?}"
    );
}

/// Step `n` was refused under `rule`, its message holding `text`.
fn refused(t: &Value, n: usize, rule: &str, text: &str) {
    let r = &t["steps"][n - 1]["refused"];
    assert!(
        r["rule"].as_str().unwrap_or_default().contains(rule)
            && r["message"].as_str().unwrap_or_default().contains(text),
        "step {n} is not refused under {rule} with '{text}': {r}"
    );
    assert_eq!(t["steps"][n - 1]["dice_used"], serde_json::json!([]));
}

fn accepted(t: &Value, except: &[usize]) {
    for (i, s) in t["steps"].as_array().unwrap().iter().enumerate() {
        if !except.contains(&(i + 1)) {
            assert!(
                s.get("refused").is_none(),
                "step {} ({}) refused: {}",
                i + 1,
                s["order"],
                s["refused"]
            );
        }
    }
}

fn dice(t: &Value, n: usize) -> Vec<u64> {
    t["steps"][n - 1]["dice_used"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_u64().unwrap())
        .collect()
}

#[test]
fn fog_1_2_the_example_0700_roll_of_3_then_the_0900_and_1100_rolls() {
    let t = replay("1.2-fog.txt");
    accepted(&t, &[]);
    let text = replay_text("1.2-fog.txt");
    assert!(text.contains("UNVERIFIABLE"), "{text}");
    // "The 0700 weather die roll is a 3, which produces fog with a 'clear number' of 5."
    says(
        &t,
        1,
        "0700 18 Sept: the weather roll is 3: fog (clears on 5 or less)",
    );
    let all: Vec<String> = (1..=t["steps"].as_array().unwrap().len())
        .flat_map(|n| said(&t, n))
        .collect();
    // "If the roll is greater than 5, the fog stays for that turn ... another roll is made on
    // the 1100 turn"; there, a roll that does not clear it makes the day overcast.
    for line in [
        "0900 18 Sept: fog roll 6, more than 5: the fog stays this turn",
        "1100 18 Sept: fog roll 7, more than 5: the fog stays; the day is overcast",
    ] {
        assert!(all.iter().any(|l| l == line), "no '{line}' in {all:#?}");
    }
    assert_eq!(t["view"]["weather"], "overcast");
}

#[test]
fn fog_1_2_the_example_a_roll_of_5_or_less_at_0900_clears_it_for_the_day() {
    let t = replay("1.2-fog-clears.txt");
    accepted(&t, &[]);
    says(
        &t,
        1,
        "0900 18 Sept: fog roll 5, 5 or less: the fog clears; clear for the rest of the day",
    );
    assert_eq!(t["view"]["weather"], "clear");
}

#[test]
fn when_to_drop_3_2_the_play_example_clear_weather_0900_or_1100() {
    let t = replay("3.2-when-to-drop-clear.txt");
    accepted(&t, &[2]);
    says(&t, 1, "0700 18 Sept: the weather roll is 1: clear");
    refused(
        &t,
        2,
        "3.2 When to Drop",
        "the drop may come at 0900 or 1100, not 1300",
    );
    says(
        &t,
        3,
        "The Allied player places his Air Drop? counters on 0900 and 1100",
    );
    let drop = &t["view"]["air_drop"];
    assert_eq!(drop["counters_on"], serde_json::json!(["0900", "1100"]));
    assert_eq!(drop["real_drop"], "sealed", "the choice stays sealed");
}

#[test]
fn when_to_drop_3_2_the_play_example_fog_cleared_at_0900_1300_or_1500() {
    let t = replay("3.2-when-to-drop-fog.txt");
    accepted(&t, &[2]);
    says(&t, 1, "0900 18 Sept: fog roll 2, 5 or less: the fog clears");
    refused(
        &t,
        2,
        "3.2 When to Drop",
        "the drop may come at 1300 or 1500, not 1100",
    );
    says(
        &t,
        3,
        "The Allied player places his Air Drop? counters on 1300 and 1500",
    );
    assert_eq!(
        t["view"]["air_drop"]["counters_on"],
        serde_json::json!(["1300", "1500"])
    );
}

#[test]
fn when_to_drop_3_2_the_play_example_rain_waits_for_the_third_day() {
    let t = replay("3.2-when-to-drop-rain.txt");
    accepted(&t, &[]);
    says(&t, 1, "0700 18 Sept: the weather roll is 9: rain");
    says(&t, 1, "Drop 2 is delayed a day, to 19 Sept");
    let drops = t["view"]["drops"].as_array().unwrap();
    let two = drops.iter().find(|d| d["number"] == 2).unwrap();
    assert_eq!(two["due_day"], 19, "the third day of the game");
    assert!(t["view"]["air_drop"].is_null(), "no counters placed today");
}

#[test]
fn bridge_repair_2_15_7_the_example_the_128th_placed_and_rolled_in_one_43rd_impulse() {
    let t = replay("2.15.7-bailey.txt");
    accepted(&t, &[1]);
    refused(&t, 1, "2.15.7", "best");
    // Placed truck side up on the southern hex of the demolished bridge: a movement action.
    says(&t, 2, "128-bridge-re");
    says(&t, 2, "56.202");
    assert_eq!(dice(&t, 5), vec![6]);
    says(&t, 5, "128-bridge-re");
    let son = &t["view"]["bridges"]["son"];
    assert_eq!(son["destroyed"], false, "repaired: {son}");
    assert_eq!(son["bailey"]["bridged"], true, "{son}");
    assert_eq!(t["view"]["units"]["128-bridge-re"]["hex"], "56.202");
    assert_eq!(
        t["view"]["command_points"]["guards"], 1,
        "the Direct Command's point paid"
    );
}

#[test]
fn release_4_3_1_the_example_20_sept_on_the_map_guards_art_then_44_rtr_then_the_line_waits() {
    let t = replay("4.3.1-release-20-sept-on-the-map.txt");
    accepted(&t, &[]);
    says(
        &t,
        2,
        "Guards Art. is released (the first in line, released automatically)",
    );
    says(
        &t,
        2,
        "44 RTR is released (Auto): its units enter at their reinforcement hex",
    );
    says(
        &t,
        2,
        "Sherwood Foresters waits: the release is suspended until the Club Route marker is off the map (4.3.1)",
    );
    assert!(
        !said(&t, 2).iter().any(|l| l.contains("Release roll")),
        "no die is rolled"
    );
    assert_eq!(
        t["view"]["released"],
        serde_json::json!(["group-hot", "group-cold", "guards-art", "44-rtr"])
    );
}

#[test]
fn release_4_3_1_the_example_20_sept_off_the_map_the_101st_sea_tail_with_4_entries() {
    let t = replay("4.3.1-release-20-sept-off-the-map.txt");
    accepted(&t, &[]);
    for name in [
        "Guards Art.",
        "44 RTR",
        "Sherwood Foresters",
        "Royal Dragoons",
    ] {
        says(&t, 1, &format!("{name} is released"));
    }
    assert_eq!(t["view"]["entries_this_turn"], 5);
    // The example's "−4" read as the +1 per successful entry of 4.3.2 (decision 4).
    says(
        &t,
        2,
        "Release roll for 101st Sea Tail: 2 +4 4 entries this turn = 6, needs 6 or less: released",
    );
    says(&t, 2, "101st Sea Tail is released (rolled)");
    let t = replay("4.3.1-release-20-sept-sea-tail-fails.txt");
    accepted(&t, &[]);
    says(
        &t,
        2,
        "Release roll for 101st Sea Tail: 3 +4 4 entries this turn = 7, needs 6 or less: not released; no more releases until the next 1900",
    );
    assert!(!t["view"]["released"]
        .as_array()
        .unwrap()
        .contains(&Value::from("101-sea-tail")));
}

#[test]
fn attacking_club_route_4_3_3_the_firing_example_one_attacked_and_one_closed() {
    let t = replay("4.3.3-attacking-club-route.txt");
    accepted(&t, &[]);
    says(
        &t,
        1,
        "Club Route Closed marker to the Hell's Highway box (the German unit G/1 is on Club Route)",
    );
    assert_eq!(dice(&t, 3), vec![4]);
    says(
        &t,
        3,
        "Club Route Attacked marker to the Hell's Highway box (German fire at 41.230)",
    );
    says(&t, 4, "result none");
    says(&t, 5, "one Attacked marker a turn, this one is ignored");
    let h = &t["view"]["hells_highway"];
    assert_eq!(
        (&h["attacked"], &h["closed"]),
        (&Value::from(1), &Value::from(1)),
        "one of each a Game Turn: {h}"
    );
}

#[test]
fn attacking_club_route_4_3_3_the_status_check_example_2_closed_and_3_attacked_is_7() {
    let t = replay("4.3.3-status-check.txt");
    accepted(&t, &[]);
    says(&t, 1, "div-guards");
    says(
        &t,
        2,
        "German status check on Club Route: 3 Attacked + 2 x 2 Closed = 7: the die reads 7: Club Route is Cut until 1900",
    );
    let h = &t["view"]["hells_highway"];
    assert_eq!(h["cut"], true);
    assert_eq!(
        (&h["attacked"], &h["closed"]),
        (&Value::from(0), &Value::from(0))
    );
    assert_eq!(
        (&h["used_attacked"], &h["used_closed"]),
        (&Value::from(3), &Value::from(2)),
        "all the markers set aside"
    );
    let t = replay("4.3.3-status-check-fails.txt");
    accepted(&t, &[]);
    says(
        &t,
        2,
        "German status check on Club Route: 3 Attacked + 2 x 2 Closed = 7: the die reads 8: no effect",
    );
    let h = &t["view"]["hells_highway"];
    assert_eq!(h["cut"], false);
    assert_eq!(
        (&h["used_attacked"], &h["used_closed"]),
        (&Value::from(3), &Value::from(2)),
        "set aside whether he succeeds or fails"
    );
}

#[test]
fn air_strike_s3_1_a_6_halved_three_typhoons_placed_then_each_attacks() {
    let t = replay("S3.1-air-strike.txt");
    accepted(&t, &[3]);
    assert_eq!(dice(&t, 2), vec![1, 6]);
    says(&t, 2, "Air Strike: the die reads 6: 3 Typhoon(s)");
    refused(
        &t,
        3,
        "S3.1 Events (Air Strike)",
        "70.152 is 20 hexes from ldr-502 at 50.152",
    );
    says(&t, 4, "a Typhoon is placed on 51.150");
    assert_eq!(
        dice(&t, 4),
        Vec::<u64>::new(),
        "no attack before all are placed"
    );
    assert_eq!(dice(&t, 6), vec![4]);
    says(
        &t,
        6,
        "the Typhoon attacks 51.150, 6 white Fire Power, no modifiers: the die reads 4",
    );
    says(&t, 7, "G/1 is Suppressed");
    says(
        &t,
        7,
        "the Typhoon attacks 51.151, 6 white Fire Power, no modifiers: the die reads 7",
    );
    says(
        &t,
        8,
        "the Typhoon attacks 51.150, 6 white Fire Power, no modifiers: the die reads 2",
    );
    says(&t, 9, "G/1 takes a Cohesion Hit");
    let g = &t["view"]["units"]["G/1"];
    assert_eq!(
        (g["suppressed"].clone(), g["cohesion_hits"].clone()),
        (Value::from(true), Value::from(1))
    );
    assert!(t["view"]["air_strike"].is_null(), "every Typhoon attacked");
}

#[test]
fn air_strike_s3_1_at_night_no_event() {
    let t = replay("S3.1-air-strike-night.txt");
    accepted(&t, &[]);
    assert_eq!(dice(&t, 2), vec![1], "no die for Typhoons");
    says(&t, 2, "Air Strike at night, overcast or in fog: no event");
    assert!(t["view"]["air_strike"].is_null());
}
