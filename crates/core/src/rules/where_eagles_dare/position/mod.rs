//! Positions set by hand, for `despatch replay` (docs/rules/where-eagles-dare.md, "Positions
//! (despatch replay)"): the scenario as set up, then one statement a line — the clock and
//! phase, the weather, the units as the players moved them, each division's CP and DP, the
//! chits in the mug and the one drawn, the face-down event cups, bridges, the Club Route
//! marker, Hell's Highway, rubble. Checked as a set-up is: days of the scenario, chits, events,
//! divisions and bridges of the game's data.

pub mod air;
pub mod bridge;
pub mod clock;
pub mod german;
pub mod impulse;
pub mod more;
pub mod supply;
pub mod under_way;
pub mod write;

use super::command;
use super::data::{turn_index, Spur, Weather, DATA, TURNS};
use super::hex::Hex;
use super::oob::OOB;
use super::state::{Bridge, Marks, Phase, Side, State, Unit, Wait};
use super::WhereEaglesDare;
use crate::engine::dice::DiceStream;
use crate::engine::position::{statements, unknown, PositionError, Positioned, Statement};
use crate::engine::ruleset::{Rules, Setup};

/// The statements, for `despatch replay --list`.
pub const FORMAT: &str = "\
day <n>                            the day of September
time 0700|0900|...|1900|night      the turn on the track
phase weather|fog|route|release|activation|buy allied|buy german
impulse allied|german              whose impulse it is
actions <n>                        actions taken in the impulse
weather clear|overcast|rain|fog <n>|none    (fog clears on n or less; none: not rolled yet)
unit <name> <side> at <hex> [column] [wheeled|tracked|mounted]   a unit as moved on the map
                                   (hexes like 56.201; how it came in: decision 23)
unit <name> off                    the unit is off the map
marks <unit> [suppressed] [cohesion <n>] [lost <n>]   its stated results (decision 15)
cp <division> <n>|off | dp <division> <n>|off   command and dispatch points (off: none kept)
mug: <chit> ...                    the chits in the mug (the face-down draw)
chit <chit>|none                   the chit drawn, its owner's impulse
cup <side>: <event> ...            the face-down event cup
bridge <name> intact|wired <side>|destroyed [at <day> <turn>]
released <formation> ...           the Club Route line's Formations released, in order (4.3.1)
marker <hex>|off                   the Club Route marker: its start (42.229) or a Stop hex (4.1)
route <hex> ...                    Club Route hexes the marker's trace made, south to north (4.2)
starred <zone> ...                 airborne zones marked \"*\" on the map (3.4.1: gliders +1)
corps <corps> at <box> [failures <n>]   a flank corps' box and its failed attempts (5.2)
highway open|cut [attacked <n>] [closed <n>] [used-attacked <n>] [used-closed <n>]
   [attacked-this-turn] [closed-this-turn]   the box (4.3.3): markers, those a status check set
                                   aside, and this turn's one Attacked and one Closed placed
rubble <hex>
heroic <side> <unit> | dutch <side> <hex> | minefield <hex>   event markers (S3.1)
entrenched <unit>                  an Entrenched marker on a unit (S3.1 Rout, decision 30)
placing <side> <event>             an event the side places or attacks with now (S3.1)
passed-mines <unit>                the unit passed its check to leave a Minefield
lost <unit> [by <side>]            a lost unit the side moves now (S3.1 Lost), or with no side
                                   its own player after a failed check (O3.0)
lost82-in <unit>                   a Lost 82nd AB unit already brought in by Reinf
eliminated <unit>                  a unit of the order of battle eliminated (decision 21)
dropped <unit> [markers <n>]       it rolled on the Drop Table; its glider/paradrop markers (decision 24)
impulse-no <n>                     impulses played so far (one Bailey, one repair an impulse)
fog-cleared <turn>|none            the turn today's fog cleared
entries <n>                        successful entries this 1900 (4.3.2)
held <chit>|none                   the last chit of the turn before, opening this one (S6.4)
bought: <chit> ...                 the chits bought this turn, not yet in the mug
dz-tried <day>|none                the day a drop zone change was last tried (3.6)
abandoned <unit> ...               units whose organic transport is abandoned (all of them)
gone <unit> ...                    units removed from play (all of them)
rearguard <unit> <side>            a Rearguard (the first line replaces the set-up's; 'none')
roadblock <hex> <side>             a Roadblock (likewise)
barrage <hex> <side> [heavy]       a barrage marker (likewise)
flak <counter> <type>              a Flak counter's type (likewise); flak-flipped: turned up
dispute <side> <seq>: <text>       a dispute raised (likewise)
activity <unit> [moved] [lost-checked] [over: <rule>]   its doings this impulse (likewise)
watch <side> <hex> ...             the side's watch list (likewise; a side not named watches all)
stream-bridge <name> [checked] [unstable] [bulldozer <unit>] [men-at-work <n>] [rolled <impulse>]
                                   a stream bridge (2.11; likewise)
riding <unit> truck|jeep <division>   a unit on a divisional truck or jeep (likewise)
piggyback <vehicle> <infantry>     a piggyback pair (S4; likewise)
huber [sealed <commitment>] [chosen <choice>]   Huber's choice, sealed or made
phase raids <day>|plans <n>|air-drop <a> <b>|replan <n>|supply-drop <a> <b>|huber|off-map|over
                                   the phases around the turn's (the drops' plans, the Air
                                   Drop? and supply counters' candidate turns, by index)
drop <n> day <d> [arrived <day> <turn>] [replanned <day>] [sealed <commitment>] [plan: <turn> ...]
                                   a drop (the first line replaces the set-up's; 'none')
window <hex>|none                  the opportunity fire window: the hex acted in
fire <side> <unit> at <hex> face <n> [fire] | fire none   the fire it holds
route-cleared <day>|none           the day the Club Route marker came off the map
placed baileys <n> bulldozers <n>  placed during the preceding game day (4.3.2)
bailey-impulse <n>|none            the impulse a Bailey was last brought in (2.15.7)
superseded <commitment> ...        sealed drop plans a drop zone change replaced (3.6)
kg-chill | mann-used | over        KG Chill replaced the ERC; Mann's chance used; the game over
reinf-one <formation>|none         Reinf's one step recovered (S3.1)
asset-lost <kind:division> <n>     trucks and jeeps removed (likewise; 'none')
held-out <side> <event>            Heroic and Dutch out of their cup (likewise; 'none')
resigned <side>|none               the side that resigned
air-drop day <d> candidates <a> <b> sealed <commitment> [revealed <n>] | air-drop none
                                   the Air Drop? counters (3.2)
raid-marker day <d> sealed <commitment> [real|decoy]   a raid marker (S5.2; the first line
                                   replaces the set-up's; 'none')
awaiting-drop <unit> ...           the units still to roll on the Drop Table (all of them)
bridge-works <name> [improved] [bailey <unit> truck|bridge [disabled]]
   [ferry <unit> <side> <hex> <hex> [suppressed]] [contested <hex> ...] [regain <side> <hex> ...]
                                   a bridge's works, after its `bridge` line (2.15, 2.18)
waiting status-check|intelligence <side>|rout <side>   an answer awaited (4.3.3, S3.1)
waiting routing <side> <formation> <unit> ...   a routing Formation's units still to move (S3.1)
air-raid paid <n>|none             the Eindhoven Air Raid revealed, DP paid to stop it (S5.2)
offmap <formation> box <box>|entering <letter> from <box>|on-map|routed <day>
                                   a German off-map formation (5.1; the first line replaces
                                   the set-up's; 'none')
numbering <formation>: <destination>, ...   this 1900's private numbering (5.1; likewise)
supply dz <zone> [interdicted] [ended] [today <day>]   the 101st's supply (3.5)
supply-counters day <d> candidates <a> <b> sealed <commitment> [revealed <n>] | supply-counters none
                                   a supply drop's Air Drop? counters (3.5)
park <park> off|at <hex> [units <unit> ...]   an artillery park's marker and its box (S1)
demolition <side> <unit> at <hex>: <bridge> ... | demolition none
                                   the demolition window the unit's entry opened (2.15.6)
assault <side> <unit> at <hex> [from <hex>] [facts: <text>] | assault none
                                   an assault declared, its die still to come (S4.4)
typhoons left <n> [formation <formation>] [at <hex> ...] | typhoons none
                                   an Air Strike's Typhoons to place and placed (S3.1)
mann <unit> step-loss|eliminated was <side> at <hex> [column] [marks [suppressed] [cohesion <n>]
   [lost <n>]] | mann none         Joe Mann's chance: the 502 PIR unit before its loss (S6.9)";

const KNOWN: [&str; 30] = [
    "day",
    "time",
    "phase",
    "impulse",
    "actions",
    "weather",
    "unit",
    "cp",
    "dp",
    "mug",
    "chit",
    "cup",
    "bridge",
    "released",
    "marker",
    "route",
    "starred",
    "corps",
    "highway",
    "rubble",
    "heroic",
    "dutch",
    "minefield",
    "placing",
    "passed-mines",
    "lost",
    "lost82-in",
    "eliminated",
    "dropped",
    "entrenched",
];

fn side(s: &Statement, w: &str) -> Result<Side, PositionError> {
    match w {
        "allied" => Ok(Side::Allied),
        "german" => Ok(Side::German),
        _ => Err(s.error(format!("'{w}' is not a side: allied or german"))),
    }
}

fn hex(s: &Statement, w: &str) -> Result<Hex, PositionError> {
    Hex::parse(w).ok_or_else(|| s.error(format!("'{w}' is not a hex: write it as 56.201")))
}

/// A side as a statement writes it.
fn side_name(x: Side) -> &'static str {
    match x {
        Side::Allied => "allied",
        Side::German => "german",
    }
}

/// Whether this is the first statement of its kind in the position (which replaces the
/// set-up's list), marking it given.
fn first(flag: &mut bool) -> bool {
    !std::mem::replace(flag, true)
}

fn chit(s: &Statement, w: &str) -> Result<String, PositionError> {
    DATA.chit(w).map(|c| c.id.clone()).ok_or_else(|| {
        s.error(format!(
            "'{w}' is not a Formation Activation chit (data/chits.txt names them)"
        ))
    })
}

/// A position states one event answer awaited at a time (`placing` or `lost`).
const ONE_WAIT: &str =
    "a position waits for one event answer at a time: state placing or lost, not both";

/// The scenario of `setup`, then the statements of `text`.
pub fn read(
    rules: &WhereEaglesDare,
    setup: &Setup,
    text: &str,
    hidden: &mut DiceStream,
) -> Result<Positioned<State>, PositionError> {
    let mut st = rules
        .setup(setup, hidden)
        .map_err(|e| PositionError::new(0, format!("the set-up: {e}")))?;
    let sc = DATA
        .scenario(&st.scenario)
        .expect("set up from a scenario of the data");
    let mut clock_line = 0;
    let mut released_line = 0;
    let mut more = more::Given::default();
    let mut impulse = impulse::Given::default();
    let mut clock = clock::Given::default();
    let mut air = air::Given::default();
    let mut german = german::Given::default();
    for s in statements(text) {
        let w = &s.words;
        match s.keyword() {
            "day" => {
                s.expect_words(2, "day <n>")?;
                st.day = s.number(1, "a day of September")?;
                clock_line = s.line;
            }
            "time" => {
                s.expect_words(2, "time <turn>")?;
                st.time = turn_index(w[1]).ok_or_else(|| {
                    s.error(format!("'{}' is not a turn: {}", w[1], TURNS.join(", ")))
                })?;
                clock_line = s.line;
            }
            "phase" => {
                st.phase = match &w[1..] {
                    ["weather"] => Phase::Weather,
                    ["fog"] => Phase::Fog,
                    ["route"] => Phase::Route,
                    ["release"] => Phase::Release,
                    ["activation"] => Phase::Activation,
                    ["buy", x] => Phase::Buy { side: side(&s, x)? },
                    rest if clock::phase(&s, rest)?.is_some() => {
                        clock::phase(&s, rest)?.expect("just read")
                    }
                    _ => return Err(s.error(
                        "write phase weather|fog|route|release|activation|buy allied|buy german|raids <day>|plans <n>|air-drop <a> <b>|replan <n>|supply-drop <a> <b>|huber|off-map|over",
                    )),
                };
            }
            "impulse" => {
                s.expect_words(2, "impulse allied|german")?;
                st.impulse = side(&s, w[1])?;
            }
            "actions" => {
                s.expect_words(2, "actions <n>")?;
                st.actions = s.number(1, "a number of actions")?;
            }
            "weather" if w.len() == 2 && w[1] == "none" => st.weather = None,
            "weather" => {
                st.weather = Some(match &w[1..] {
                    ["clear"] => Weather::Clear,
                    ["overcast"] => Weather::Overcast,
                    ["rain"] => Weather::Rain,
                    ["fog", _] => Weather::Fog {
                        clear: s.number(2, "the roll that clears the fog")?,
                    },
                    _ => return Err(s.error("write weather clear|overcast|rain|fog <n>")),
                });
            }
            "marks" => marks(&mut st, &s)?,
            "unit" => unit_line(&mut st, &s)?,
            "cp" | "dp" => points(&mut st, &s)?,
            "mug" | "mug:" => {
                st.mug = s
                    .after_colon()
                    .ok_or_else(|| s.error("write mug: <chit> ..."))?
                    .split_whitespace()
                    .map(|c| chit(&s, c))
                    .collect::<Result<_, _>>()?;
            }
            "chit" => {
                s.expect_words(2, "chit <chit>|none")?;
                st.chit = match w[1] {
                    "none" => None,
                    c => Some(chit(&s, c)?),
                };
            }
            "cup" => cup(&mut st, &s)?,
            "bridge" => bridge(&mut st, &s)?,
            "released" => {
                // The line is released in its order (4.3.1): the statement names its head.
                let line = &DATA.release_line;
                if w.len() - 1 > line.len() {
                    return Err(s.error("more Formations than the Club Route line holds"));
                }
                for (i, id) in w[1..].iter().enumerate() {
                    let e = &line[i];
                    if e.id != *id {
                        return Err(s.error(format!(
                            "the Club Route line is released in its order (data/release_line.txt): Formation {} is {}, not '{id}'",
                            i + 1,
                            e.id
                        )));
                    }
                }
                st.released = w[1..].iter().map(|x| x.to_string()).collect();
                released_line = s.line;
            }
            "marker" => {
                s.expect_words(2, "marker <hex>|off")?;
                st.marker = match w[1] {
                    "off" => None,
                    h => Some(marker_hex(&mut st, &s, hex(&s, h)?)?),
                };
            }
            "route" => route(&mut st, &s)?,
            "starred" => starred(&mut st, &s)?,
            "corps" => corps(&mut st, &s)?,
            "highway" => highway(&mut st, &s)?,
            "rubble" => {
                s.expect_words(2, "rubble <hex>")?;
                let h = hex(&s, w[1])?;
                if !st.rubble.contains(&h) {
                    st.rubble.push(h);
                }
            }
            "heroic" => {
                s.expect_words(3, "heroic <side> <unit>")?;
                let x = side(&s, w[1])?;
                if OOB.side_of(w[2]).is_some_and(|o| o != x) {
                    return Err(s.error(format!(
                        "Heroic goes on a friendly unit: {} is not {}",
                        w[2], w[1]
                    )));
                }
                st.heroic.insert(x, w[2].to_owned());
            }
            "entrenched" => {
                s.expect_words(2, "entrenched <unit>")?;
                st.entrenched.insert(w[1].to_owned());
            }
            "dutch" => {
                s.expect_words(3, "dutch <side> <hex>")?;
                let x = side(&s, w[1])?;
                let h = hex(&s, w[2])?;
                st.dutch.insert(x, h);
            }
            "placing" => placing(&mut st, &s)?,
            "passed-mines" => {
                s.expect_words(2, "passed-mines <unit>")?;
                st.mine_passed.push(w[1].to_owned());
            }
            "lost" if w.len() == 2 => {
                // O3.0: a failed check's lost unit, which its own player moves (the German's
                // too, with option german_lost).
                if st.wait.as_ref().is_some_and(|w| !w.is_lost()) {
                    return Err(s.error(ONE_WAIT));
                }
                st.wait = Some(Wait::Lost {
                    unit: w[1].to_owned(),
                    event: None,
                });
            }
            "lost" => {
                s.expect_words(4, "lost <unit> [by <side>]")?;
                if w[2] != "by" {
                    return Err(s.error("write lost <unit> [by <side>]"));
                }
                let by = side(&s, w[3])?;
                if st.units.get(w[1]).is_some_and(|u| u.side == by) {
                    return Err(s.error(format!(
                        "{} is the {} player's own unit: the enemy moves a lost unit",
                        w[1], w[3]
                    )));
                }
                if st.wait.as_ref().is_some_and(|w| !w.is_lost()) {
                    return Err(s.error(ONE_WAIT));
                }
                st.wait = Some(Wait::Lost {
                    unit: w[1].to_owned(),
                    event: Some(by),
                });
            }
            "lost82-in" => {
                s.expect_words(2, "lost82-in <unit>")?;
                if !OOB.unit(w[1]).is_some_and(|u| u.lost_82nd) {
                    return Err(s.error(format!(
                        "{} is not a Lost 82nd AB unit of data/oob.txt",
                        w[1]
                    )));
                }
                st.lost_82nd_in.push(w[1].to_owned());
            }
            "eliminated" => {
                s.expect_words(2, "eliminated <unit>")?;
                if OOB.unit(w[1]).is_none() {
                    return Err(s.error(format!(
                        "{} is not a unit of data/oob.txt: only its units' steps are kept (decision 21)",
                        w[1]
                    )));
                }
                st.units.remove(w[1]);
                super::units::eliminate(&mut st, w[1]);
            }
            "dropped" => dropped(&mut st, &s)?,
            "minefield" => {
                s.expect_words(2, "minefield <hex>")?;
                let h = hex(&s, w[1])?;
                if !st.minefields.contains(&h) {
                    st.minefields.push(h);
                }
            }
            _ if more::read(&mut st, &s, &mut more)? => {}
            _ if impulse::read(&mut st, &s, &mut impulse)? => {}
            _ if clock::read(&mut st, &s, &mut clock)? => {}
            _ if air::read(&mut st, &s, &mut air)? => {}
            _ if bridge::read(&mut st, &s)? => {}
            _ if german::read(&mut st, &s, &mut german)? => {}
            _ if supply::read(&mut st, &s)? => {}
            _ if under_way::read(&mut st, &s)? => {}
            _ => {
                let known: Vec<&str> = KNOWN
                    .iter()
                    .chain(more::KNOWN.iter())
                    .chain(impulse::KNOWN.iter())
                    .chain(clock::KNOWN.iter())
                    .chain(air::KNOWN.iter())
                    .chain(bridge::KNOWN.iter())
                    .chain(german::KNOWN.iter())
                    .chain(supply::KNOWN.iter())
                    .chain(under_way::KNOWN.iter())
                    .copied()
                    .collect();
                return Err(unknown(&s, &known));
            }
        }
    }
    // Checked as a set-up is: the clock within the scenario, the drawn chit not in the mug.
    if (st.day, st.time) < sc.first || (st.day, st.time) > sc.last {
        return Err(PositionError::new(
            clock_line,
            format!(
                "{} is played from {} {} Sept to {} {} Sept",
                sc.id, TURNS[sc.first.1], sc.first.0, TURNS[sc.last.1], sc.last.0
            ),
        ));
    }
    if let Some(e) = DATA
        .release_line
        .iter()
        .find(|e| e.tdc && st.marker.is_some() && st.released.contains(&e.id))
    {
        return Err(PositionError::new(
            released_line,
            format!(
                "{} is released only once the Club Route marker is off the map (4.3.1): write marker off",
                e.name
            ),
        ));
    }
    if let Some(m) = st.marker.filter(|m| st.club_route.contains(m)) {
        return Err(PositionError::new(
            0,
            format!("the Club Route marker at {m} stands on a hex the route statements make Club Route: the marker stands north of Club Route (4.0)"),
        ));
    }
    if let Some(c) = &st.chit {
        // A Formation chit bought this turn goes in the mug though the same chit, held from
        // the turn before, opens the turn (S6.4): only a chit not bought is in one place.
        if st.mug.contains(c) && !DATA.chit(c).is_some_and(|d| d.bought()) {
            return Err(PositionError::new(
                0,
                format!("the chit {c} is drawn and in the mug at once"),
            ));
        }
    }
    Ok(Positioned::new(st))
}

/// 4.0, 4.1, 4.2: the Club Route marker stands where it starts (42.229) or on a Club Route Stop
/// hex, which the Allied player moves it to; it is not itself a Club Route hex ("Club Route
/// starts the first hex south of the marker"). A Stop hex of a spur chooses that spur.
fn marker_hex(st: &mut State, s: &Statement, h: Hex) -> Result<Hex, PositionError> {
    if st.club_route.contains(&h) {
        return Err(s.error(format!(
            "{h} is Club Route: the marker is not a Club Route hex but stands north of it (4.0); put it at its start {} or on a Club Route Stop hex ({}) north of the route",
            DATA.marker,
            stop_list()
        )));
    }
    if h == DATA.marker {
        return Ok(h);
    }
    match DATA.stop(h) {
        Some(spur @ (Spur::Best | Spur::Son)) => {
            st.spur = Some(spur);
            Ok(h)
        }
        Some(_) => Ok(h),
        None => Err(s.error(format!(
            "{h} is not where the Club Route marker can stand: it starts at {} and moves to Club Route Stop hexes (4.1, 4.2: {})",
            DATA.marker,
            stop_list()
        ))),
    }
}

fn stop_list() -> String {
    DATA.stops
        .iter()
        .map(|(_, h)| h.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `route <hex> …` (4.2): Club Route hexes the marker's trace established, south to north, each
/// next to the one before, the first next to the last Club Route hex (41.230, then the
/// marker's start 42.229 and on); the marker stands north of them.
fn route(st: &mut State, s: &Statement) -> Result<(), PositionError> {
    if s.words.len() < 2 {
        return Err(s.error("write route <hex> …, south to north"));
    }
    for w in &s.words[1..] {
        let h = hex(s, w)?;
        let last = *st.club_route.last().expect("the route has its start");
        if st.club_route.contains(&h) {
            return Err(s.error(format!("{h} is Club Route already")));
        }
        if !last.adjacent(h) {
            return Err(s.error(format!(
                "{h} is not next to {last}, the last Club Route hex: give the route hex by hex, south to north"
            )));
        }
        st.club_route.push(h);
    }
    Ok(())
}

/// `starred <zone> …` (3.4.1): airborne zones marked "*" on the map, where glider troops
/// landing suffer +1 more. The game's data marks none (the map is not in the text).
fn starred(st: &mut State, s: &Statement) -> Result<(), PositionError> {
    if s.words.len() < 2 {
        return Err(s.error("write starred <zone> …"));
    }
    for z in &s.words[1..] {
        if !DATA.zones.contains_key(*z) {
            return Err(s.error(format!(
                "'{z}' is not an airborne zone: {}",
                DATA.zones.keys().cloned().collect::<Vec<_>>().join(", ")
            )));
        }
        if !st.starred.iter().any(|x| x == z) {
            st.starred.push(z.to_string());
        }
    }
    Ok(())
}

/// `corps <corps> at <box> [failures <n>]` (5.2): a flank corps' box on its track and its
/// unsuccessful attempts to advance (Men at Work counters, −1 each).
fn corps(st: &mut State, s: &Statement) -> Result<(), PositionError> {
    let w = &s.words;
    let form = "corps <corps> at <box> [failures <n>]";
    if !st.campaign {
        return Err(s.error("the flank corps are the campaign's (5.2): this scenario has none"));
    }
    if !(w.len() == 4 || w.len() == 6) || w[2] != "at" || (w.len() == 6 && w[4] != "failures") {
        return Err(s.error(format!("write {form}")));
    }
    let track = DATA
        .offmap
        .corps
        .iter()
        .find(|c| c.id == w[1])
        .ok_or_else(|| {
            s.error(format!(
                "'{}' is not a flank corps: {}",
                w[1],
                DATA.offmap
                    .corps
                    .iter()
                    .map(|c| c.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?;
    let at = track
        .boxes
        .iter()
        .position(|b| b.eq_ignore_ascii_case(w[3]))
        .ok_or_else(|| {
            s.error(format!(
                "'{}' is not a box of the {} corps' track: {}",
                w[3],
                track.id,
                track.boxes.join(", ")
            ))
        })?;
    let failures = if w.len() == 6 {
        s.number(5, "a number of failed attempts")?
    } else {
        0
    };
    st.corps
        .insert(track.id.clone(), super::state::Corps { at, failures });
    Ok(())
}

/// `cup <side>: <event> …` (S3.0).
fn cup(st: &mut State, s: &Statement) -> Result<(), PositionError> {
    let x = side(s, s.word(1, "a side")?.trim_end_matches(':'))?;
    let events = s
        .after_colon()
        .ok_or_else(|| s.error("write cup <side>: <event> ..."))?
        .split_whitespace()
        .map(|e| {
            DATA.events
                .iter()
                .find(|(id, allied, german)| {
                    id == e && if x == Side::Allied { *allied } else { *german }
                })
                .map(|(id, _, _)| id.clone())
                .ok_or_else(|| s.error(format!("'{e}' is not an event of the {} cup", x.name())))
        })
        .collect::<Result<_, _>>()?;
    st.cups.insert(x, events);
    Ok(())
}

/// `marks <unit> …`.
fn marks(st: &mut State, s: &Statement) -> Result<(), PositionError> {
    let w = &s.words;
    let name = s.word(1, "a unit's name")?;
    let mut m = Marks::default();
    let mut i = 2;
    while i < w.len() {
        match w[i] {
            "suppressed" => m.suppressed = true,
            "cohesion" => {
                m.cohesion = s.number(i + 1, "a number of Cohesion Hits")?;
                i += 1;
            }
            "lost" => {
                m.lost = s.number(i + 1, "a number of steps lost")?;
                i += 1;
            }
            _ => return Err(s.error("write marks <unit> [suppressed] [cohesion <n>] [lost <n>]")),
        }
        i += 1;
    }
    if let Some(k) = super::units::steps_of(name).filter(|k| m.lost >= *k) {
        return Err(s.error(format!(
                "{name} has {k} steps in the order of battle: {} lost is no unit left (write unit {name} off)",
                m.lost
            )));
    }
    if m.is_clear() {
        st.marks.remove(name);
    } else {
        st.marks.insert(name.to_owned(), m);
    }
    Ok(())
}

/// `unit <unit> <side> <hex> …`.
fn unit_line(st: &mut State, s: &Statement) -> Result<(), PositionError> {
    let w = &s.words;
    let name = s.word(1, "a unit's name")?;
    match &w[2..] {
            ["off"] => {
                st.units.remove(name);
                st.vehicles.remove(name);
            }
            [x, "at", h, rest @ ..] => {
                let mut column = false;
                let mut vehicle = None;
                for r in rest {
                    match (*r, super::order::Transport::parse(r)) {
                        ("column", _) if !column => column = true,
                        (_, Some(t)) if vehicle.is_none() => vehicle = Some(t),
                        _ => {
                            return Err(s.error(
                                "write unit <name> <side> at <hex> [column] [wheeled|tracked|mounted]",
                            ))
                        }
                    }
                }
                let u = Unit {
                    side: side(s, x)?,
                    hex: hex(s, h)?,
                    column,
                };
                if let Some(own) = OOB.side_of(name).filter(|o| *o != u.side) {
                    return Err(s.error(format!(
                        "{name} is a {} unit of the order of battle (data/oob.txt)",
                        own.name()
                    )));
                }
                if let Some(t) = st.map.as_ref().and_then(|m| m.map.hexes.get(&u.hex)) {
                    if t.terrain
                        == crate::rules::where_eagles_dare::terrain::Terrain::Impassable
                    {
                        return Err(s.error(format!("{} is impassable on the game's map (2.14): no unit stands there", u.hex)));
                    }
                }
                if command::of_231(name) && command::north_of_231(u.hex) {
                    return Err(s.error(format!(
                        "{name} is of the 231st Brigade: never north of its Deployment Limit line (S6.10), and {} is",
                        u.hex
                    )));
                }
                st.units.insert(name.to_owned(), u);
                match vehicle {
                    Some(t) => {
                        st.vehicles.insert(name.to_owned(), t);
                    }
                    None => {
                        st.vehicles.remove(name);
                    }
                }
            }
            _ => {
                return Err(s.error(
                    "write unit <name> <side> at <hex> [column] [wheeled|tracked|mounted] or unit <name> off",
                ))
            }
        }
    Ok(())
}

/// `cp|dp <division> <n>`.
fn points(st: &mut State, s: &Statement) -> Result<(), PositionError> {
    let w = &s.words;
    s.expect_words(3, &format!("{} <division> <n>|off", s.keyword()))?;
    let d = DATA
        .division(w[1])
        .ok_or_else(|| {
            s.error(format!(
                "'{}' is not a division: {}",
                w[1],
                DATA.divisions
                    .iter()
                    .map(|d| d.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?
        .id
        .clone();
    if w[2] == "off" {
        // The division keeps no points: the ERC's passed to KG Chill (S5.1.1).
        if s.keyword() == "cp" {
            st.cp.remove(&d);
        } else {
            st.dp.remove(&d);
        }
        return Ok(());
    }
    let n = s.number(2, "a number of points")?;
    if s.keyword() == "cp" {
        st.cp.insert(d, n);
    } else {
        st.dp.insert(d, n);
    }
    Ok(())
}

/// `bridge <name> …`.
fn bridge(st: &mut State, s: &Statement) -> Result<(), PositionError> {
    let w = &s.words;
    let name = s.word(1, "a bridge's name")?;
    if DATA.bridge(name).is_none() {
        return Err(s.error(format!("there is no bridge '{name}' in the game's data")));
    }
    let b = match &w[2..] {
        ["intact"] => Bridge::default(),
        ["destroyed"] => Bridge {
            destroyed: true,
            ..Bridge::default()
        },
        ["destroyed", "at", _, t] => Bridge {
            destroyed: true,
            destroyed_at: Some((
                s.number(4, "the day of September it was destroyed")?,
                turn_index(t)
                    .ok_or_else(|| s.error(format!("'{t}' is not a turn: {}", TURNS.join(", "))))?,
            )),
            ..Bridge::default()
        },
        ["wired", x] => Bridge {
            wired_by: Some(side(s, x)?),
            ..Bridge::default()
        },
        _ => {
            return Err(
                s.error("write bridge <name> intact|wired <side>|destroyed [at <day> <turn>]")
            )
        }
    };
    st.bridges.insert(name.to_owned(), b);
    Ok(())
}

/// `highway …` (4.3.3).
fn highway(st: &mut State, s: &Statement) -> Result<(), PositionError> {
    let w = &s.words;
    let mut rest = w[1..].iter();
    while let Some(word) = rest.next() {
        match *word {
            "open" => st.highway.cut = false,
            "cut" => st.highway.cut = true,
            "attacked-this-turn" => st.highway.attacked_this_turn = true,
            "closed-this-turn" => st.highway.closed_this_turn = true,
            "used-attacked" | "used-closed" | "attacked" | "closed" => {
                let v = rest
                    .next()
                    .ok_or_else(|| s.error(format!("{word} needs a number")))?;
                let n: u32 = v
                    .parse()
                    .map_err(|_| s.error(format!("'{v}' is not a number of markers")))?;
                let h = &mut st.highway;
                *match *word {
                    "used-attacked" => &mut h.used_attacked,
                    "used-closed" => &mut h.used_closed,
                    "attacked" => &mut h.attacked,
                    _ => &mut h.closed,
                } = n;
            }
            x => {
                return Err(s.error(format!(
                    "'{x}': write highway open|cut [attacked <n>] [closed <n>] [used-attacked <n>] [used-closed <n>] [attacked-this-turn] [closed-this-turn]"
                )))
            }
        }
    }
    Ok(())
}

/// The events a `placing` statement can await.
pub const PLACED: [&str; 9] = [
    "heroic",
    "dutch",
    "minefield",
    "rally",
    "reinf",
    "ambush",
    "explosion",
    "lost",
    "air-strike",
];

/// `placing <side> <event>`.
fn placing(st: &mut State, s: &Statement) -> Result<(), PositionError> {
    let w = &s.words;
    s.expect_words(3, "placing <side> <event>")?;
    let x = side(s, w[1])?;
    let events = PLACED;
    if !events.contains(&w[2]) {
        return Err(s.error(format!(
            "'{}' is not an event placed: {}",
            w[2],
            events.join(", ")
        )));
    }
    if st.wait.as_ref().is_some_and(|w| !w.is_placing()) {
        return Err(s.error(ONE_WAIT));
    }
    st.wait = Some(Wait::Placing {
        side: x,
        event: w[2].to_owned(),
    });
    Ok(())
}

/// `dropped <unit> …`.
fn dropped(st: &mut State, s: &Statement) -> Result<(), PositionError> {
    let w = &s.words;
    let n = match &w[1..] {
        [_] => 0,
        [_, "markers", n] => n
            .parse::<u32>()
            .ok()
            .filter(|n| *n <= 9)
            .ok_or_else(|| s.error(format!("'{n}': markers 0 to 9")))?,
        _ => return Err(s.error("write dropped <unit> [markers <n>]")),
    };
    if OOB.side_of(w[1]) == Some(Side::German) {
        return Err(s.error(format!(
            "{} is a German unit: only Allied airborne Units drop (3.1)",
            w[1]
        )));
    }
    if !st.drop_rolled.iter().any(|u| u == w[1]) {
        st.drop_rolled.push(w[1].to_owned());
    }
    if n > 0 {
        st.drop_markers.insert(w[1].to_owned(), n);
    } else {
        st.drop_markers.remove(w[1]);
    }
    Ok(())
}
