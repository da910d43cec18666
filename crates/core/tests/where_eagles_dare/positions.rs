//! Positions that round-trip (issue 39), as far as the format states Where Eagles Dare's state
//! yet: every state of bot games whose phase, awaited answer and bridges the format can state is
//! written, read back onto the game's set-up, and compared on every field but those
//! `position::write::UNWRITTEN` names (docs/rules/where-eagles-dare.md, "Positions (despatch
//! replay)": what a position cannot state yet).

use despatch_core::engine::bot;
use despatch_core::engine::dice::hidden_stream;
use despatch_core::engine::game::Game;
use despatch_core::engine::position::PositionError;
use despatch_core::engine::ruleset::{SeatDef, Setup};
use despatch_core::rules;
use despatch_core::rules::where_eagles_dare::position::write::UNWRITTEN;
use despatch_core::rules::where_eagles_dare::state::State;
use serde_json::{json, Value};

fn without_unwritten(mut v: Value) -> Value {
    if let Some(o) = v.as_object_mut() {
        for k in UNWRITTEN {
            o.remove(*k);
        }
    }
    v
}

/// Plays a bot game of `scenario`; returns how many states were written and compared, and how
/// many the format cannot state yet.
fn round_trip(scenario: &str, n: u64, moves: usize) -> (usize, usize) {
    let rs = rules::find("where-eagles-dare").unwrap();
    let setup = Setup {
        game_id: format!("wed-positions-{scenario}-{n}"),
        scenario: scenario.into(),
        options: json!({ "free_drop": n % 2 == 1 }),
        seats: SeatDef::named_by_id(&["allied", "german"]).unwrap(),
    };
    let (mut written, mut not) = (0, 0);
    let read_onto = setup.clone();
    let mut check = |g: &Game, _: &bot::MemorySecrets| {
        let Some(text) = rs.write_position(&g.state) else {
            not += 1;
            return Ok(());
        };
        let (back, _) = rs
            .position(
                &read_onto,
                &text,
                &mut hidden_stream(&[7; 32], "positions", 0),
            )
            .map_err(|e| format!("the written position does not read: {e}\n{text}"))?;
        let (a, b) = (
            without_unwritten(rs.state_json(&g.state)),
            without_unwritten(rs.state_json(&back)),
        );
        if a != b {
            let (a, b) = (a.as_object().unwrap(), b.as_object().unwrap());
            let diff: Vec<String> = a
                .iter()
                .filter(|(k, v)| b.get(*k) != Some(v))
                .map(|(k, v)| format!("{k}: {v} read back as {:?}", b.get(k)))
                .collect();
            return Err(format!(
                "at seq {}, the position reads back otherwise:\n{}\n{text}",
                g.next_seq,
                diff.join("\n")
            ));
        }
        written += 1;
        Ok(())
    };
    bot::play(rs.clone(), setup, n * 31 + 5, moves, &mut check)
        .unwrap_or_else(|e| panic!("{scenario}, game {n}: {e}"));
    (written, not)
}

#[test]
fn the_written_position_of_a_bot_game_s_states_reads_back_to_them_on_every_stated_fact() {
    let (mut written, mut not) = (0, 0);
    for (scenario, n) in [
        ("a-ride-in-the-country", 0),
        ("a-ride-in-the-country", 1),
        ("the-best-laid-plans", 0),
        ("the-best-laid-plans", 1),
        ("campaign", 0),
    ] {
        let (w, x) = round_trip(scenario, n, 600);
        written += w;
        not += x;
    }
    eprintln!("{written} states written and read back, {not} not written yet");
    assert!(written > 500, "only {written} states were written");
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
