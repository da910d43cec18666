//! Where Eagles Dare's written positions read back to the state they were written from, and
//! play on identically (issue 39; the harness: `tests/common/written.rs`): bot games of every
//! scenario, with and without the free drop, the optional rules and a map, as the bot test sets
//! them up; and a test per statement (docs/rules/where-eagles-dare.md, "Positions (despatch
//! replay)").

use despatch_core::engine::dice::hidden_stream;
use despatch_core::engine::position::PositionError;
use despatch_core::engine::ruleset::{SeatDef, Setup};
use despatch_core::rules;
use despatch_core::rules::where_eagles_dare::state::State;
use serde_json::json;

use crate::written::positions_round_trip_with;

/// Game `n`: the scenarios in turn, the free drop every other round, and the bot test's
/// options and map (`bot::setup`), but for the map's impassable hex: a unit entering from off
/// the map is not checked against the map's terrain (the bot enters one onto 40.232), and a
/// position refuses a unit on an impassable hex (2.14), so that hex would end the round trip
/// on a divergence of the rules, not of the position.
fn setup(n: u64) -> Setup {
    let scenarios = ["a-ride-in-the-country", "the-best-laid-plans", "campaign"];
    let scenario = scenarios[n as usize % scenarios.len()];
    let mut s = crate::bot::setup(scenario, n / 3 % 2 == 1, n);
    s.game_id = format!("written-wed-{n}");
    if let Some(map) = s.options.get("map").and_then(|m| m.as_str()) {
        let map = map.replace("hex 40.232 impassable\n", "");
        s.options["map"] = json!(map);
    }
    s
}

#[test]
fn where_eagles_dare_positions_written_from_bot_games_read_back_and_play_on_identically() {
    positions_round_trip_with("where-eagles-dare", 36, 800, 2, &setup);
}

fn read(text: &str) -> Result<State, PositionError> {
    let setup = Setup {
        game_id: "positions".into(),
        scenario: "a-ride-in-the-country".into(),
        options: json!({}),
        seats: SeatDef::named_by_id(&["allied", "german"]).unwrap(),
    };
    rules::find("where-eagles-dare")
        .unwrap()
        .position(&setup, text, &mut hidden_stream(&[0; 32], "positions", 0))
        .map(|(state, _)| state.downcast::<State>().unwrap().clone())
}

#[test]
fn highway_states_the_markers_set_aside_and_this_turn_s_attacked_and_closed() {
    let s = read("highway open attacked 1 closed 2 used-attacked 3 used-closed 4 attacked-this-turn closed-this-turn").unwrap();
    let h = &s.highway;
    assert_eq!(
        (h.attacked, h.closed, h.used_attacked, h.used_closed),
        (1, 2, 3, 4)
    );
    assert!(h.attacked_this_turn && h.closed_this_turn);
    let e = read("day 18\nhighway used-closed many").expect_err("refused");
    assert_eq!(e.line, 2);
    assert!(
        e.message.contains("'many' is not a number of markers"),
        "{e}"
    );
    let e = read("highway used-attacked").expect_err("refused");
    assert!(e.message.contains("used-attacked needs a number"), "{e}");
}

/// S6.4: the chit held from the turn before opens the turn while a bought copy of it waits in
/// the mug; a Division chit, never bought, is in one place only.
#[test]
fn a_bought_chit_may_be_drawn_and_in_the_mug_but_a_division_chit_not() {
    let chits = &despatch_core::rules::where_eagles_dare::data::DATA.chits;
    let bought = chits.iter().find(|c| c.bought()).unwrap().id.clone();
    let division = chits.iter().find(|c| !c.bought()).unwrap().id.clone();
    let s = read(&format!("mug: {bought}\nchit {bought}")).unwrap();
    assert_eq!(s.chit.as_deref(), Some(bought.as_str()));
    let e = read(&format!("mug: {division}\nchit {division}")).expect_err("refused");
    assert!(e.message.contains("is drawn and in the mug at once"), "{e}");
}

#[test]
fn the_impulse_count_fog_cleared_entries_and_drop_zone_try_are_stated() {
    let s = read("impulse-no 7\nfog-cleared 0900\nentries 2\ndz-tried 18").unwrap();
    assert_eq!(
        (s.impulse_no, s.fog_cleared, s.entries, s.dz_tried),
        (7, Some(1), 2, Some(18))
    );
    let s = read("fog-cleared none\ndz-tried none").unwrap();
    assert_eq!((s.fog_cleared, s.dz_tried), (None, None));
    let e = read("day 18\nfog-cleared noon").expect_err("refused");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("'noon' is not a turn"), "{e}");
    assert!(read("impulse-no many")
        .expect_err("refused")
        .message
        .contains("not a number of impulses"));
}

#[test]
fn the_chit_held_and_the_chits_bought_are_stated() {
    let chits = &despatch_core::rules::where_eagles_dare::data::DATA.chits;
    let c = chits.iter().find(|c| c.bought()).unwrap().id.clone();
    let s = read(&format!("held {c}\nbought: {c} {c}")).unwrap();
    assert_eq!(s.held.as_deref(), Some(c.as_str()));
    assert_eq!(s.bought, [c.clone(), c]);
    assert!(read("held none").unwrap().held.is_none());
    let e = read("bought: nothing").expect_err("refused");
    assert!(
        e.message
            .contains("'nothing' is not a Formation Activation chit"),
        "{e}"
    );
}

#[test]
fn abandoned_gone_rearguards_roadblocks_barrages_flak_and_disputes_are_stated() {
    let s = read(
        "abandoned a b\ngone c\nrearguard none\nrearguard x german\nroadblock 44.228 allied\n\
         barrage 43.228 german heavy\nbarrage 43.229 allied\nflak f1 light\nflak-flipped\n\
         dispute allied 12: the roll was wrong",
    )
    .unwrap();
    assert_eq!(s.abandoned, ["a", "b"]);
    assert_eq!(s.gone, ["c"]);
    assert_eq!(s.rearguards.len(), 1);
    assert_eq!(s.roadblocks.len(), 1);
    assert_eq!(s.barrages.len(), 2);
    assert!(s.barrages[0].1 && !s.barrages[1].1);
    assert_eq!(s.flak.get("f1").map(String::as_str), Some("light"));
    assert!(s.flak_flipped);
    assert_eq!(
        (s.disputes[0].seq, s.disputes[0].text.as_str()),
        (12, "the roll was wrong")
    );
    assert!(read("flak none").unwrap().flak.is_empty());
    let e = read("day 18\nbarrage 43.228 german light").expect_err("refused");
    assert_eq!(e.line, 2);
    assert!(
        e.message.contains("write barrage <hex> <side> [heavy]"),
        "{e}"
    );
    let e = read("roadblock 44.228 french").expect_err("refused");
    assert!(e.message.contains("'french' is not a side"), "{e}");
    let e = read("dispute allied twelve: why").expect_err("refused");
    assert!(e.message.contains("'twelve' is not a seq"), "{e}");
    let e = read("rearguard x").expect_err("refused");
    assert!(e.message.contains("write rearguard <unit> <side>"), "{e}");
}

#[test]
fn activity_watch_stream_bridges_riders_piggyback_and_huber_are_stated() {
    let s = read(
        "activity none\nactivity u1 moved lost-checked over: 2.18.2 Using Ferries\n\
         watch allied 44.228 44.229\nwatch german\n\
         stream-bridge dommel checked unstable bulldozer dz1 men-at-work 2 rolled 5\n\
         riding u2 truck 43rd\npiggyback t1 i1\nhuber sealed abc chosen north",
    )
    .unwrap();
    let a = &s.activity["u1"];
    assert!(a.moved && a.lost_checked);
    assert_eq!(a.over.as_deref(), Some("2.18.2 Using Ferries"));
    assert_eq!(s.watch.len(), 2);
    assert!(s.watch.values().any(|w| w.is_empty()));
    let b = &s.stream_bridges["dommel"];
    assert!(b.checked && b.unstable);
    assert_eq!(
        (b.bulldozer.as_deref(), b.men_at_work, b.rolled),
        (Some("dz1"), 2, Some(5))
    );
    assert_eq!(s.riding["u2"], ("truck".to_owned(), "43rd".to_owned()));
    assert_eq!(s.piggyback["t1"], "i1");
    assert_eq!(
        (s.huber.commitment.as_deref(), s.huber.chosen.as_deref()),
        (Some("abc"), Some("north"))
    );
    let e = read("day 18\nactivity u1 flew").expect_err("refused");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("'flew'"), "{e}");
    let e = read("watch allied 44").expect_err("refused");
    assert!(e.message.contains("'44' is not a hex"), "{e}");
    let e = read("stream-bridge dommel men-at-work lots").expect_err("refused");
    assert!(e.message.contains("'lots' is not a number"), "{e}");
    let e = read("riding u2 cart 43rd").expect_err("refused");
    assert!(e.message.contains("not a ride: truck or jeep"), "{e}");
    let e = read("piggyback t1").expect_err("refused");
    assert!(e.message.contains("write piggyback"), "{e}");
    let e = read("huber sealed").expect_err("refused");
    assert!(e.message.contains("write huber"), "{e}");
}

#[test]
fn the_phases_around_the_turn_drops_the_fire_window_and_the_game_s_counts_are_stated() {
    let s = read(
        "phase air-drop 1 2\nweather none\ndrop none\ndrop 2 day 18 arrived 18 0900 replanned 18 sealed c1: 0900 1100\n\
         window 44.228\nfire german g1 at 44.229 face 4 fire\nroute-cleared 19\n\
         placed baileys 1 bulldozers 2\nbailey-impulse 3\nsuperseded c0\nkg-chill\nmann-used\n\
         reinf-one 43rd\nasset-lost truck:43rd 2\nheld-out allied heroic\nresigned german\nover",
    )
    .unwrap();
    assert_eq!(
        s.phase,
        despatch_core::rules::where_eagles_dare::state::Phase::AirDrop { candidates: [1, 2] }
    );
    assert!(s.weather.is_none());
    let d = &s.drops[0];
    assert_eq!(
        (d.number, d.day, d.arrived, d.replanned_day),
        (2, 18, Some((18, 1)), Some(18))
    );
    assert_eq!(d.plan_commitment.as_deref(), Some("c1"));
    assert_eq!(
        d.plan.as_deref(),
        Some(&["0900".to_owned(), "1100".to_owned()][..])
    );
    assert_eq!(s.drops.len(), 1);
    assert!(s.window.is_some());
    let f = s.pending.clone().unwrap();
    assert_eq!((f.unit.as_str(), f.face, f.fire), ("g1", 4, true));
    assert_eq!(s.route_cleared_day, Some(19));
    assert_eq!(
        (s.baileys_placed, s.bulldozers_placed, s.bailey_impulse),
        (1, 2, Some(3))
    );
    assert_eq!(s.superseded, ["c0"]);
    assert!(s.kg_chill && s.mann_used && s.over);
    assert_eq!(s.reinf_one.as_deref(), Some("43rd"));
    assert_eq!(s.assets_lost["truck:43rd"], 2);
    assert_eq!(s.held_out.len(), 1);
    assert!(s.resigned.is_some());
    let e = read("day 18\nphase raids someday").expect_err("refused");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("'someday' is not a day"), "{e}");
    let e = read("drop 2 on 18").expect_err("refused");
    assert!(e.message.contains("write drop <n> day <d>"), "{e}");
    let e = read("fire german g1 at 44.229").expect_err("refused");
    assert!(e.message.contains("write fire none or fire"), "{e}");
    let e = read("placed baileys 1").expect_err("refused");
    assert!(e.message.contains("write placed baileys"), "{e}");
    let e = read("resigned french").expect_err("refused");
    assert!(e.message.contains("'french' is not a side"), "{e}");
}

#[test]
fn the_air_drop_counters_raid_markers_and_units_awaiting_their_drop_roll_are_stated() {
    let s = read(
        "air-drop day 18 candidates 1 2 sealed c1 revealed 2\nraid-marker none\n\
         raid-marker day 19 sealed c2 decoy\nawaiting-drop u1 u2",
    )
    .unwrap();
    let a = s.air_drop.clone().unwrap();
    assert_eq!(
        (a.day, a.candidates, a.commitment.as_str(), a.revealed),
        (18, [1, 2], "c1", Some(2))
    );
    assert_eq!(s.raid_markers.len(), 1);
    assert_eq!(s.raid_markers[0].revealed, Some(false));
    assert_eq!(s.drop_awaiting, ["u1", "u2"]);
    assert!(read("air-drop none").unwrap().air_drop.is_none());
    let e = read("day 18\nair-drop day 18 candidates 1").expect_err("refused");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("write air-drop day"), "{e}");
    let e = read("raid-marker day 19 sealed c2 maybe").expect_err("refused");
    assert!(e.message.contains("'maybe'"), "{e}");
}

#[test]
fn a_bridge_s_works_and_a_status_check_or_intelligence_awaited_are_stated() {
    let s = read(
        "bridge son destroyed\nbridge-works son improved bailey b128 bridge disabled \
         ferry f1 allied 44.228 44.229 suppressed contested 44.228 regain german 44.229\n\
         waiting intelligence german",
    )
    .unwrap();
    let b = &s.bridges["son"];
    assert!(b.improved && b.destroyed);
    let y = b.bailey.clone().unwrap();
    assert_eq!(
        (y.unit.as_str(), y.bridged, y.disabled),
        ("b128", true, true)
    );
    let f = b.ferry.clone().unwrap();
    assert_eq!((f.unit.as_str(), f.suppressed), ("f1", true));
    assert_eq!(b.contested.len(), 1);
    assert_eq!(b.regain.clone().unwrap().entered.len(), 1);
    assert!(s.wait.is_some());
    assert!(read("waiting status-check").unwrap().wait.is_some());
    let e = read("day 18\nbridge-works son bailey b128 sideways").expect_err("refused");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("truck or bridge side up"), "{e}");
    let e = read("bridge-works nowhere improved").expect_err("refused");
    assert!(e.message.contains("there is no bridge 'nowhere'"), "{e}");
    let e = read("waiting for-godot").expect_err("refused");
    assert!(e.message.contains("write waiting status-check"), "{e}");
}

#[test]
fn the_air_raid_the_off_map_formations_and_their_numbering_are_stated() {
    use despatch_core::rules::where_eagles_dare::state::OffMap;
    let s = read(
        "air-raid paid 2\noffmap none\noffmap erc-fj-ersatz box Oirschot\n\
         offmap erc-kg-stiller entering C from Geldrop\noffmap kg-walther routed 20\n\
         numbering erc-fj-ersatz: Tilburg, map B, Best-West",
    )
    .unwrap();
    assert_eq!(s.air_raid.clone().unwrap().dp_paid, 2);
    assert_eq!(s.offmap["erc-fj-ersatz"], OffMap::Box("Oirschot".into()));
    assert_eq!(
        s.offmap["erc-kg-stiller"],
        OffMap::Entering {
            letter: "C".into(),
            from: "Geldrop".into()
        }
    );
    assert_eq!(s.offmap["kg-walther"], OffMap::Routed { back: 20 });
    assert_eq!(
        s.numbering["erc-fj-ersatz"],
        ["Tilburg", "map B", "Best-West"]
    );
    let s = read("air-raid none\noffmap none\nnumbering none").unwrap();
    assert!(s.air_raid.is_none() && s.offmap.is_empty() && s.numbering.is_empty());
    let e = read("day 18\nair-raid paid lots").expect_err("refused");
    assert_eq!(e.line, 2);
    assert!(
        e.message
            .contains("'lots' is not a number of Dispatch Points"),
        "{e}"
    );
    let e = read("offmap erc-fj-ersatz box Weert").expect_err("refused");
    assert!(
        e.message
            .contains("'Weert' is not a box of the erc display"),
        "{e}"
    );
    let e = read("offmap kg-nobody on-map").expect_err("refused");
    assert!(
        e.message
            .contains("'kg-nobody' is not a German off-map formation"),
        "{e}"
    );
    let e = read("offmap erc-fj-ersatz entering D from Tilburg").expect_err("refused");
    assert!(e.message.contains("'D' is not a reinforcement hex"), "{e}");
    let e = read("numbering erc-fj-ersatz: Tilburg, Weert").expect_err("refused");
    assert!(
        e.message
            .contains("'Weert' is not a destination of the erc display"),
        "{e}"
    );
}

#[test]
fn the_101st_s_supply_and_the_artillery_parks_are_stated() {
    let s = read(
        "supply dz W interdicted ended today 18\n\
         supply-counters day 19 candidates 3 4 sealed c9 revealed 4\n\
         park park-guards at 41.232 units a b\npark park-59 off",
    )
    .unwrap();
    let p = &s.supply;
    assert_eq!(
        (p.dz.as_str(), p.interdicted, p.ended, p.today),
        ("W", true, true, Some(18))
    );
    let c = p.counters.clone().unwrap();
    assert_eq!((c.day, c.candidates, c.revealed), (19, [3, 4], Some(4)));
    let g = s.parks.iter().find(|p| p.id == "park-guards").unwrap();
    assert_eq!(g.hex.map(|h| h.to_string()).as_deref(), Some("41.232"));
    assert_eq!(g.units, ["a", "b"]);
    assert!(s
        .parks
        .iter()
        .find(|p| p.id == "park-59")
        .unwrap()
        .hex
        .is_none());
    let s = read("supply dz W\nsupply-counters none").unwrap();
    assert!(!s.supply.interdicted && s.supply.today.is_none() && s.supply.counters.is_none());
    let e = read("day 18\nsupply dz Q").expect_err("refused");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("'Q' is not an airborne zone"), "{e}");
    let e = read("supply dz W soon").expect_err("refused");
    assert!(e.message.contains("'soon': write supply dz"), "{e}");
    let e = read("supply-counters day 19").expect_err("refused");
    assert!(e.message.contains("write supply-counters day"), "{e}");
    let e = read("park park-99 off").expect_err("refused");
    assert!(
        e.message.contains("'park-99' is not an artillery park"),
        "{e}"
    );
    let e = read("park park-59 at 30.120 guns x").expect_err("refused");
    assert!(e.message.contains("write park <park>"), "{e}");
}

#[test]
fn a_demolition_an_assault_typhoons_and_mann_s_chance_under_way_are_stated() {
    let s = read(
        "demolition german g1 at 44.228: son\n\
         assault allied a1 at 44.229 from 44.228 facts: second action\n\
         typhoons left 2 formation 1/501 at 44.228 44.229\n\
         mann x/502 step-loss was allied at 44.230 column marks suppressed lost 1",
    )
    .unwrap();
    let d = s.demolition.clone().unwrap();
    assert_eq!((d.unit.as_str(), d.bridges.len()), ("g1", 1));
    let a = s.assault.clone().unwrap();
    assert_eq!((a.unit.as_str(), a.facts.as_str()), ("a1", "second action"));
    assert!(a.from.is_some());
    let t = s.typhoons.clone().unwrap();
    assert_eq!(
        (t.left, t.formation.as_deref(), t.hexes.len()),
        (2, Some("1/501"), 2)
    );
    let m = s.mann.clone().unwrap();
    assert!(m.was.column);
    assert_eq!(m.class, "step-loss");
    let k = m.was_marks.unwrap();
    assert!(k.suppressed && k.lost == 1 && k.cohesion == 0);
    let s = read("assault german g1 at 44.229\nmann x/502 eliminated was allied at 44.230 marks")
        .unwrap();
    assert!(s.assault.unwrap().facts.is_empty());
    assert_eq!(s.mann.unwrap().was_marks, Some(Default::default()));
    let s = read("demolition none\nassault none\ntyphoons none\nmann none").unwrap();
    assert!(
        s.demolition.is_none() && s.assault.is_none() && s.typhoons.is_none() && s.mann.is_none()
    );
    let e = read("day 18\ndemolition german g1 at 44.228: nowhere").expect_err("refused");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("there is no bridge 'nowhere'"), "{e}");
    let e = read("demolition german g1 at 44.228").expect_err("refused");
    assert!(e.message.contains("write demolition"), "{e}");
    let e = read("assault allied a1 into 44.229").expect_err("refused");
    assert!(e.message.contains("write assault"), "{e}");
    let e = read("typhoons left 2 at").expect_err("refused");
    assert!(e.message.contains("write typhoons"), "{e}");
    let e = read("mann x/502 suppression was allied at 44.230").expect_err("refused");
    assert!(e.message.contains("Step Loss or an Eliminated"), "{e}");
    let e = read("mann x/502 step-loss was allied at 44.230 marks cohesion").expect_err("refused");
    assert!(e.message.contains("cohesion needs a number"), "{e}");
}

#[test]
fn a_rout_a_routing_formation_a_lost_unit_after_its_check_and_an_air_strike_are_awaited() {
    use despatch_core::rules::where_eagles_dare::state::{Side, Wait};
    let s = read("waiting rout german").unwrap();
    assert_eq!(s.wait, Some(Wait::Rout { side: Side::German }));
    let s = read("waiting routing allied 1/501 a b").unwrap();
    let Some(Wait::Routing(r)) = s.wait else {
        panic!("not a routing: {:?}", s.wait)
    };
    assert_eq!((r.formation.as_str(), r.units.len()), ("1/501", 2));
    let s = read("lost a1").unwrap();
    assert_eq!(
        s.wait,
        Some(Wait::Lost {
            unit: "a1".into(),
            event: None
        })
    );
    for e in ["air-strike", "rally"] {
        assert!(read(&format!("placing allied {e}")).unwrap().wait.is_some());
    }
    let e = read("day 18\nwaiting routing allied").expect_err("refused");
    assert_eq!(e.line, 2);
    assert!(
        e.message.contains("waiting routing <side> <formation>"),
        "{e}"
    );
    let e = read("waiting rout french").expect_err("refused");
    assert!(e.message.contains("'french' is not a side"), "{e}");
    let e = read("placing allied rally\nlost a1").expect_err("refused");
    assert!(e.message.contains("one event answer at a time"), "{e}");
}
