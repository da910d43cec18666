//! What the chapters' tests share: a scenario set up, orders played with scripted dice, the
//! turn played out, positions put where a rule bites.

use std::collections::VecDeque;

use despatch_core::engine::dice::hidden_stream;
use despatch_core::engine::ruleset::{
    Ctx, DiceSource, RuleError, Rules, Seat, SeatDef, Setup, Viewer,
};
use despatch_core::rules::where_eagles_dare::data::DATA;
use despatch_core::rules::where_eagles_dare::hex::Hex;
use despatch_core::rules::where_eagles_dare::los::{line_of_sight, Sight};
use despatch_core::rules::where_eagles_dare::state::{
    AirDropCounters, Marks, Phase, Side, State, Unit,
};
use despatch_core::rules::where_eagles_dare::terrain::Map;
use despatch_core::rules::where_eagles_dare::{chits, WhereEaglesDare};
use serde_json::json;

pub(super) fn hex(t: &str) -> Hex {
    Hex::parse(t).unwrap_or_else(|| panic!("{t} is a hex"))
}

pub(super) fn game(scenario: &str) -> State {
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
pub(super) fn order(
    s: &mut State,
    seat: &str,
    text: &str,
    dice: &[u32],
) -> Result<usize, RuleError> {
    let seat = Seat::parse(seat).unwrap();
    let cmd = WhereEaglesDare.parse(s, &seat, text)?;
    let mut q: VecDeque<u32> = dice.iter().copied().collect();
    {
        let mut ctx = Ctx::new(DiceSource::Scripted(&mut q), None);
        WhereEaglesDare.apply(s, &seat, &cmd, &mut ctx)?;
    }
    Ok(dice.len() - q.len())
}

pub(super) fn ok(s: &mut State, seat: &str, text: &str, dice: &[u32]) {
    let used = order(s, seat, text, dice).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(used, dice.len(), "{text} drew {used} of the scripted dice");
}

/// Plays the turn out: each side buys no chit, the German asks no status check and fires at
/// nothing, each chit's owner ends his impulse, until the clock moves (every chit drawn; the
/// draws and the CP/DP rolls read the script's default die).
pub(super) fn next_turn(s: &mut State) {
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
            Phase::Activation if s.status_window() => ("german", "pass"),
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
pub(super) fn german_impulse(s: &mut State) {
    s.phase = Phase::Activation;
    s.impulse = Side::German;
    s.window = None;
    s.demolition = None;
    s.pending = None;
    s.activity.clear();
}

pub(super) fn walk(from: Hex, to: Hex) -> Vec<Hex> {
    walk_avoiding(from, to, &[])
}

/// A path hex by hex from `from` to `to`, never through `avoid` or back on itself.
pub(super) fn walk_avoiding(from: Hex, to: Hex, avoid: &[Hex]) -> Vec<Hex> {
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

/// Plays the Best Laid Plans to 0700 18 Sept.
pub(super) fn morning_of_the_18th() -> State {
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

/// The spectator's board in text, its wrapped lines joined by single spaces.
pub(super) fn one_line(s: &State) -> String {
    let board = WhereEaglesDare.board_text(s, &Viewer::Spectator).unwrap();
    board.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub(super) const SYNTHETIC: &str = "
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

/// Plays an order with scripted dice and the hidden stream (campaign 1900s draw from it).
pub(super) fn ok_hidden(s: &mut State, seat: &str, text: &str, dice: &[u32]) {
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
pub(super) fn refused(s: &mut State, seat: &str, text: &str, rule: &str) -> RuleError {
    let before = s.clone();
    let e = order(s, seat, text, &[]).expect_err(text);
    assert!(e.rule.contains(rule), "{text}: {e:?}");
    assert_eq!(*s, before, "{text} changed the state");
    e
}

pub(super) const NIGHT: usize = 7;

/// An activation phase whose mug holds `mug`, the Allied impulse ending.
pub(super) fn mug_of(mug: &[&str]) -> State {
    let mut s = game("the-best-laid-plans");
    s.phase = Phase::Activation;
    s.impulse = Side::Allied;
    s.mug = mug.iter().map(|c| c.to_string()).collect();
    s
}

/// The end of the 1700 turn of `day`: the next `end` brings the 1900 turn.
pub(super) fn before_1900(scenario: &str, day: u8) -> State {
    let mut s = game(scenario);
    s.day = day;
    s.last = (25, NIGHT);
    s.time = 5;
    s.phase = Phase::Activation;
    s.impulse = Side::Allied;
    s.mug.clear();
    s
}

pub(super) fn ids(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

/// The campaign at 1900 of `day`, the release over: the German's off-map step.
pub(super) fn off_map_step(day: u8) -> State {
    let mut s = before_1900("campaign", day);
    s.released = DATA.release_line.iter().map(|e| e.id.clone()).collect();
    ok(&mut s, "allied", "end", &[]);
    ok_hidden(&mut s, "allied", "route stay", &[]);
    assert_eq!(s.phase, Phase::OffMap);
    s
}

pub(super) fn number(s: &State, formation: &str, to: &str) -> usize {
    1 + s.numbering[formation]
        .iter()
        .position(|d| d == to)
        .unwrap_or_else(|| panic!("{to} is not numbered for {formation}"))
}

pub(super) fn reveal(s: &mut State, seat: &str, commitment: &str, choice: serde_json::Value) {
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

pub(super) fn route_off_points(day: u8) -> i64 {
    DATA.victory
        .route_off
        .iter()
        .find(|r| r.0 == day)
        .map_or(0, |r| r.1)
}

pub(super) fn game_with(scenario: &str, options: serde_json::Value) -> Result<State, RuleError> {
    let setup = Setup {
        game_id: "rules".into(),
        scenario: scenario.into(),
        options,
        seats: SeatDef::named_by_id(&["allied", "german"]).unwrap(),
    };
    WhereEaglesDare.setup(&setup, &mut hidden_stream(&[7; 32], "rules", 0))
}

/// An Allied impulse of the chit `chit` (a fresh impulse number).
pub(super) fn allied_impulse(s: &mut State, chit: &str) {
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
pub(super) fn no_opfire(s: &mut State) {
    if s.window.is_some() && s.demolition.is_none() {
        let watcher = s.impulse.other().name();
        ok(s, watcher, "pass", &[]);
    }
}

pub(super) fn play(s: &mut State, seat: &str, text: &str, dice: &[u32]) {
    ok(s, seat, text, dice);
    no_opfire(s);
}

/// The Best Laid Plans at 1100 17 Sept with the Son bridge demolished at 0900.
pub(super) fn son_demolished() -> State {
    let mut s = game("the-best-laid-plans");
    s.time = 2;
    let b = s.bridges.get_mut("son").unwrap();
    b.destroyed = true;
    b.destroyed_at = Some((17, 1));
    s
}

/// Plays the Best Laid Plans to 0700 19 Sept (Drop Two delayed to the 19th by rain on the 18th).
pub(super) fn morning_of_the_19th() -> State {
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

/// An Allied unit of the OOB where the players put it.
pub(super) fn put(s: &mut State, unit: &str, at: &str) {
    s.units.insert(
        unit.into(),
        Unit {
            side: Side::Allied,
            hex: hex(at),
            column: false,
        },
    );
}

pub(super) fn unit_at(s: &mut State, unit: &str, side: Side, at: &str) {
    s.units.insert(
        unit.into(),
        Unit {
            side,
            hex: hex(at),
            column: false,
        },
    );
}

/// A clear field of columns 8–14, rows 6–16, then `extra` lines on top.
pub(super) fn field(extra: &str) -> Map {
    let mut text = String::new();
    for c in 8..=14 {
        for r in 6..=16 {
            text.push_str(&format!("hex {c}.{r} clear\n"));
        }
    }
    text.push_str(extra);
    Map::parse(&text).unwrap()
}

pub(super) fn sight(map: &Map, a: &str, b: &str) -> Sight {
    line_of_sight(map, hex(a), hex(b))
}

pub(super) fn blocked_by(map: &Map, a: &str, b: &str, rule: &str) {
    match sight(map, a, b) {
        Sight::Blocked(why) => assert!(why.contains(rule), "{a}->{b}: {why}"),
        other => panic!("{a}->{b}: {other:?}, not blocked by {rule}"),
    }
}

/// Fires G/1 on `at` (a 2: no event) and states the result.
pub(super) fn german_result(s: &mut State, at: &str, result: &str) {
    german_impulse(s);
    ok(s, "german", &format!("fire G/1 {at} small-arms"), &[2]);
    ok(s, "german", &format!("result {result}"), &[]);
}

/// The Allied fire that draws `event` from the Allied cup: A/502 fires from 50.150 and rolls
/// a 9; the result none draws the only chit in the cup (then `extra` dice).
pub(super) fn allied_draws(s: &mut State, event: &str, extra: &[u32]) {
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

/// A position of The Best Laid Plans set by `text` (`despatch replay --position`).
pub(super) fn read_position(
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

/// `unit` has lost `n` steps (the stated results, decision 15).
pub(super) fn lose(s: &mut State, unit: &str, n: u32) {
    s.marks.insert(
        unit.into(),
        Marks {
            lost: n,
            ..Marks::default()
        },
    );
}

pub(super) fn lost_of(s: &State, unit: &str) -> u32 {
    s.marks.get(unit).map_or(0, |m| m.lost)
}

/// The Allied player's fire draws Reinf (the only chit in his cup).
pub(super) fn allied_draws_reinf(s: &mut State) {
    s.cups.insert(Side::Allied, ids(&["reinf"]));
    allied_impulse(s, "f-502");
    ok(s, "allied", "fire A/502 56.210 small-arms", &[9]);
    ok(s, "allied", "result none", &[1]);
    assert_eq!(s.placing(), Some((Side::Allied, "reinf")));
}

/// The Best Laid Plans with `options`: A/502 and the 502's Leader on the map, B/502 eliminated
/// by a German fire's stated result (Joe Mann kept).
pub(super) fn b_502_eliminated(options: serde_json::Value) -> State {
    let mut s = game_with("the-best-laid-plans", options).unwrap();
    put(&mut s, "A/502", "56.203");
    put(&mut s, "B/502", "56.205");
    put(&mut s, "ldr-502", "56.204");
    german_result(&mut s, "56.205", "eliminated B/502");
    ok(&mut s, "allied", "pass", &[]);
    s
}

/// A map for the Column locks: a road north from 30.10 through woods, town, city, fortified
/// and village hexes, clear hexes beside it; a raised road 40.11–40.12 between 40.10 and 40.13,
/// clear hexes beside it.
pub(super) const LOCKS_MAP: &str =
    "hex 30.10 clear road\nhex 30.11 woods road\nhex 30.12 town road\n\
     hex 30.13 city road\nhex 30.14 fortified road\nhex 30.15 village road\n\
     hex 31.11 clear\nhex 31.12 clear\nhex 31.13 clear\nhex 31.14 clear\nhex 31.15 clear\n\
     hex 31.16 clear\nhex 40.10 clear road\nhex 40.11 clear road raised\n\
     hex 40.12 clear road raised\nhex 40.13 clear road\nhex 41.11 clear\nhex 41.12 clear\n\
     hex 41.13 clear\nside 40.10 40.11 raised\nside 40.11 40.12 raised\nside 40.12 40.13 raised\n";

pub(super) fn locks_game(options: serde_json::Value) -> State {
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

/// A hex of airborne zone `zone` that is in no other zone.
pub(super) fn only_in(zone: &str) -> String {
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

/// A unit of `side` with its Suppression marker, for a rally.
pub(super) fn suppressed(s: &mut State, unit: &str) {
    s.marks.insert(
        unit.into(),
        Marks {
            suppressed: true,
            ..Marks::default()
        },
    );
}
