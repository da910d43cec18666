//! Not a chapter of the text: the game as Despatch plays it by email — the order language,
//! the board in text, the options and the game's end with its victory level.

use despatch_core::engine::ruleset::{Outcome, Rules, Seat, Viewer};
use despatch_core::rules::where_eagles_dare::data::DATA;
use despatch_core::rules::where_eagles_dare::order;
use despatch_core::rules::where_eagles_dare::state::{Bailey, Bridge, Ferry, Phase, Side};
use despatch_core::rules::where_eagles_dare::WhereEaglesDare;
use serde_json::json;

use super::support::*;

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
