//! Where Eagles Dare (GTS, the Battle for Hell's Highway): the exclusive rules refereed on
//! the Despatch core, seats `allied` and `german`. The text is the exclusive rules only: the
//! series results (fire, assault, troop quality, rally, barrage) are declared rolls whose facts
//! the players state, and Despatch draws the dice, keeps the secrets (the Air Drop? counters,
//! free drop plans) and applies every exclusive consequence this slice covers. Decisions and
//! what is not done yet: docs/rules/where-eagles-dare.md.

pub mod activity;
pub mod assault;
pub mod bot;
pub mod bridges;
pub mod chits;
pub mod command;
pub mod data;
pub mod declared;
pub mod drawn;
pub mod events;
pub mod german_lost;
pub mod hex;
pub mod legal;
pub mod los;
pub mod offmap;
pub mod oob;
pub mod options;
pub mod order;
pub mod pointing;
pub mod position;
pub mod prompts;
pub mod release;
pub mod specials;
pub mod state;
pub mod supply;
pub mod terrain;
pub mod text_board;
pub mod turn;
pub mod units;
pub mod victory;
pub mod waiting;

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::engine::dice::DiceStream;
use crate::engine::ruleset::{
    newest, BotRng, Ctx, DiceSource, Outcome, Prompt, RuleError, Rules, RulesetInfo, ScenarioInfo,
    Seat, Setup, Viewer,
};
use data::{Weather, DATA, TURNS};
use hex::Hex;
use order::Command;
use state::{Drop, Highway, Phase, Side, State};

pub struct WhereEaglesDare;

pub const ID: &str = "where-eagles-dare";

/// A d10 read 0–9: face 10 is 0 (decision 1).
pub fn d10(ctx: &mut Ctx) -> u32 {
    ctx.roll(10) % 10
}

pub(crate) fn rule(section: &str, message: impl Into<String>) -> RuleError {
    RuleError::new(section, message)
}

fn not_now(what: &str, s: &State) -> RuleError {
    rule(
        "sequence of play",
        format!(
            "{what} is not an order for now ({}, {})",
            s.clock(),
            phase_name(&s.phase)
        ),
    )
}

pub fn phase_name(p: &Phase) -> String {
    match p {
        Phase::Raids { day } => format!("raid marker for the {day}th"),
        Phase::Plans { next } => format!("free drop plans: Drop {next}"),
        Phase::Weather => "Check Weather".into(),
        Phase::Fog => "fog roll".into(),
        Phase::AirDrop { .. } => "Air Drop? counters".into(),
        Phase::Replan { next } => format!("drop zone change: new plan for Drop {next}"),
        Phase::SupplyDrop { .. } => "supply drop counters".into(),
        Phase::Huber => "KG Huber's master (S5.5)".into(),
        Phase::Route => "1900 step 1, Club Route".into(),
        Phase::Release => "1900 step 2, XXX Corps release".into(),
        Phase::OffMap => "1900 step 4, German off-map moves".into(),
        Phase::Buy { side } => format!("step 6, {} chits", side.name()),
        Phase::Activation => "activation".into(),
        Phase::Over => "the game is over".into(),
    }
}

/// Checks a free drop plan (3.3.2): known zones, one Formation per zone; an independent
/// (`ind-…`) only in a zone another Formation uses.
/// A drop plan sealed now (3.3.2, and again after a change of drop location, 3.6): it is for
/// drop `next` (`drop` is the one named), its sticks (when the server still holds them) are a
/// valid plan, and the server sealed it. Returns its commitment; `section` names the rule.
fn sealed_plan(
    ctx: &Ctx<'_>,
    section: &str,
    (drop, next, what): (u8, u8, &str),
    sticks: Option<&[String]>,
) -> Result<String, RuleError> {
    if drop != next {
        return Err(rule(section, format!("seal {what} for Drop {next} now")));
    }
    if let Some(v) = sticks {
        check_plan(v)?;
    }
    ctx.commitment().map(str::to_owned).ok_or_else(|| {
        rule(
            section,
            "a drop plan is sealed by the server: send it as 'plan <drop> …'",
        )
    })
}

fn check_plan(sticks: &[String]) -> Result<(), RuleError> {
    let r = |m: String| rule("3.3.2 The Free Drop Scenario", m);
    let mut zones: BTreeMap<&str, &str> = BTreeMap::new();
    let mut independents = Vec::new();
    if sticks.len() > 40 {
        return Err(r("at most 40 formations in a plan".into()));
    }
    for s in sticks {
        let (f, z) = s
            .split_once(':')
            .ok_or_else(|| r(format!("'{s}': write formation:zone, e.g. 506:B")))?;
        if f.is_empty() || !DATA.zones.contains_key(z) {
            return Err(r(format!("'{s}': the zones are A1, A, B, C, W")));
        }
        if f.starts_with("ind-") {
            independents.push((f, z));
        } else if let Some(other) = zones.insert(z, f) {
            return Err(r(format!(
                "{other} and {f} both in zone {z}: one Formation per zone per drop"
            )));
        }
    }
    for (f, z) in independents {
        if !zones.contains_key(z) {
            return Err(r(format!("the independent {f} drops only in a zone another Formation of its Division uses this drop, not {z}")));
        }
    }
    Ok(())
}

/// The rules versions this build plays, oldest first (docs/rules/where-eagles-dare.md, "Rules
/// versions"): a game keeps the version it was created under for its whole life.
const VERSIONS: &[&str] = &["16"];

impl Rules for WhereEaglesDare {
    fn versions(&self) -> &'static [&'static str] {
        VERSIONS
    }

    type State = State;
    type Command = Command;

    fn id(&self) -> std::borrow::Cow<'static, str> {
        ID.into()
    }

    fn info(&self) -> RulesetInfo {
        RulesetInfo {
            id: ID.into(),
            version: newest(VERSIONS).into(),
            title: "Where Eagles Dare — the Battle for Hell's Highway (exclusive rules refereed)"
                .into(),
            scenarios: DATA
                .scenarios
                .iter()
                .map(|sc| ScenarioInfo {
                    id: sc.id.clone(),
                    title: sc.title.clone(),
                    seats: vec!["allied".into(), "german".into()],
                    min_seats: 2,
                    max_seats: 2,
                    roles: vec!["Allied side".into(), "German side".into()],
                    practice: false,
                })
                .collect(),
            options: options::info(),
            grammar: order::GRAMMAR.into(),
        }
    }

    fn setup(&self, setup: &Setup, hidden: &mut DiceStream) -> Result<State, RuleError> {
        let sc = DATA.scenario(&setup.scenario).ok_or_else(|| {
            let ids: Vec<&str> = DATA.scenarios.iter().map(|s| s.id.as_str()).collect();
            rule(
                "scenario",
                format!("no scenario '{}': {}", setup.scenario, ids.join(", ")),
            )
        })?;
        let seats: Vec<&str> = setup.seats.iter().map(|s| s.seat.as_str()).collect();
        if seats != ["allied", "german"] {
            return Err(rule(
                "seats",
                "Where Eagles Dare seats 'allied' then 'german'",
            ));
        }
        let options::Options {
            free_drop,
            last_chit_held,
            southern_unstable,
            covering_fire,
            alternate_chits,
            german_lost,
            command_los,
            reinf_eliminated,
            roadblock_bars_own,
            release_entry,
            heroic_tq,
            tq_modifiers,
            airborne_tanks,
            map,
        } = options::Options::read(&setup.options, &sc.id)?;
        let drops: Vec<Drop> = sc
            .drop_one
            .map(|d| {
                (1..=3)
                    .map(|n| Drop {
                        number: n,
                        day: d + n - 1,
                        arrived: (n == 1 && !free_drop).then_some(sc.first),
                        plan_commitment: None,
                        plan: None,
                        replanned_day: None,
                    })
                    .collect()
            })
            .unwrap_or_default();
        let mut cups = BTreeMap::new();
        cups.insert(
            Side::Allied,
            DATA.events
                .iter()
                .filter(|e| e.1)
                .map(|e| e.0.clone())
                .collect(),
        );
        cups.insert(
            Side::German,
            DATA.events
                .iter()
                .filter(|e| e.2)
                .map(|e| e.0.clone())
                .collect(),
        );
        let mut s = State {
            scenario: sc.id.clone(),
            campaign: sc.id == "campaign",
            day: sc.first.0,
            time: sc.first.1,
            last: sc.last,
            phase: Phase::Weather,
            weather: (sc.first.1 != turn::T0700).then_some(Weather::Clear),
            fog_cleared: None,
            drops,
            air_drop: None,
            impulse: Side::Allied,
            actions: 0,
            cp: DATA
                .divisions
                .iter()
                .map(|d| (d.id.clone(), d.cp))
                .collect(),
            dp: DATA
                .divisions
                .iter()
                .map(|d| (d.id.clone(), d.dp))
                .collect(),
            mug: Vec::new(),
            bought: Vec::new(),
            chit: None,
            held: None,
            last_chit_held,
            status_window: false,
            air_raid: None,
            intelligence: None,
            raid_markers: Vec::new(),
            released: Vec::new(),
            entries: 0,
            baileys_placed: 0,
            bulldozers_placed: 0,
            offmap: BTreeMap::new(),
            numbering: BTreeMap::new(),
            corps: BTreeMap::new(),
            window: None,
            demolition: None,
            pending: None,
            units: BTreeMap::new(),
            marks: BTreeMap::new(),
            club_route: DATA.club_route.clone(),
            marker: Some(DATA.marker),
            route_cleared_day: None,
            spur: None,
            highway: Highway::default(),
            barrages: Vec::new(),
            rubble: Vec::new(),
            cups,
            held_out: Vec::new(),
            bridges: DATA
                .bridges
                .iter()
                .map(|b| (b.name.clone(), Default::default()))
                .collect(),
            stream_bridges: DATA
                .stream_bridges
                .iter()
                .map(|b| {
                    // 2.11: the southern bridge is checked by A Ride in the Country; elsewhere
                    // its state is that scenario's result (option southern_bridge_unstable).
                    let known = b.southern && sc.id != "a-ride-in-the-country";
                    let sb = state::StreamBridge {
                        checked: known,
                        unstable: known && southern_unstable,
                        ..Default::default()
                    };
                    (b.name.clone(), sb)
                })
                .collect(),
            impulse_no: 0,
            supply: state::Supply {
                dz: DATA.supply_dz.clone(),
                // Drop One's supply drop comes with it, on the first turn, before any German
                // can be in the zone.
                today: sc.drop_one.filter(|d| *d == sc.first.0),
                ..Default::default()
            },
            dz_tried: None,
            superseded: Vec::new(),
            kg_chill: false,
            piggyback: BTreeMap::new(),
            riding: BTreeMap::new(),
            assets_lost: BTreeMap::new(),
            parks: DATA
                .parks
                .iter()
                .map(|(id, side, division, value, entry)| state::Park {
                    id: id.clone(),
                    side: *side,
                    division: division.clone(),
                    value: *value,
                    entry: *entry,
                    hex: None,
                    units: Vec::new(),
                })
                .collect(),
            roadblocks: Vec::new(),
            rearguards: Vec::new(),
            mann: None,
            mann_used: false,
            huber: Default::default(),
            flak: BTreeMap::new(),
            flak_flipped: false,
            covering_fire,
            alternate_chits,
            german_lost,
            command_los,
            reinf_eliminated,
            roadblock_bars_own,
            release_entry,
            heroic_tq,
            tq_modifiers,
            vehicles: BTreeMap::new(),
            drop_markers: BTreeMap::new(),
            drop_rolled: Vec::new(),
            drop_awaiting: Vec::new(),
            eliminated: BTreeMap::new(),
            airborne_tanks: airborne_tanks.name(),
            lost: None,
            rout: None,
            routing: None,
            entrenched: Default::default(),
            map,
            lost_event: None,
            placing: None,
            typhoons: None,
            heroic: BTreeMap::new(),
            dutch: BTreeMap::new(),
            minefields: Vec::new(),
            mine_passed: Vec::new(),
            activity: BTreeMap::new(),
            assault: None,
            lost_82nd_in: Vec::new(),
            reinf_one: None,
            bailey_impulse: None,
            gone: Vec::new(),
            abandoned: Vec::new(),
            disputes: Vec::new(),
            watch: BTreeMap::new(),
            resigned: None,
            over: false,
        };
        offmap::setup(&mut s);
        specials::place_flak(&mut s, hidden);
        if s.campaign {
            s.phase = Phase::Raids { day: 18 };
        } else if free_drop && !s.drops.is_empty() {
            s.phase = Phase::Plans { next: 1 };
        } else {
            let mut ctx = Ctx::new(DiceSource::None, None);
            turn::enter_turn(&mut s, &mut ctx)?;
        }
        Ok(s)
    }

    fn prompts(&self, s: &State) -> Vec<Prompt> {
        prompts::prompts(self, s)
    }

    fn may_act(&self, s: &State, seat: &Seat) -> bool {
        waiting::waiting(s).is_some_and(|w| w.side.seat() == *seat)
    }

    fn seal(&self, command: &Command) -> Option<(Value, Command)> {
        match command {
            Command::AirDrop { at: Some(t) } => {
                Some((json!({ "drop_at": t }), Command::AirDrop { at: None }))
            }
            Command::Raid { day, real: Some(r) } => Some((
                json!({ "raid_marker": if *r { "raid" } else { "decoy" } }),
                Command::Raid {
                    day: *day,
                    real: None,
                },
            )),
            Command::Huber { division: Some(d) } => {
                Some((json!({ "huber": d }), Command::Huber { division: None }))
            }
            Command::Plan {
                drop,
                sticks: Some(v),
            } => Some((
                json!({ "plan": v }),
                Command::Plan {
                    drop: *drop,
                    sticks: None,
                },
            )),
            _ => None,
        }
    }

    fn apply(
        &self,
        s: &mut State,
        seat: &Seat,
        c: &Command,
        ctx: &mut Ctx,
    ) -> Result<(), RuleError> {
        let side = Side::of(seat)
            .ok_or_else(|| rule("seats", format!("{seat} is not a seat of this game")))?;
        if !self.may_act(s, seat) {
            return Err(rule(
                "sequence of play",
                format!(
                    "it is not the {} player's move ({}, {})",
                    side.name(),
                    s.clock(),
                    phase_name(&s.phase)
                ),
            ));
        }
        // A drop that came in with its plan still sealed: open it (3.3.2).
        for d in &s.drops {
            if let (Some(_), Some(c), None) = (d.arrived, &d.plan_commitment, &d.plan) {
                ctx.request_reveal(c.clone());
            }
        }
        if let Command::Dispute { seq, text } = c {
            if *seq == 0 {
                return Err(rule(
                    "disputes",
                    "name the seq of the event you dispute (1 or more)",
                ));
            }
            s.disputes.push(state::Dispute {
                by: side,
                seq: *seq,
                text: text.clone(),
            });
            ctx.say(format!(
                "The {} player disputes event {seq}: {text} (logged; nothing is undone)",
                side.name()
            ));
            return Ok(());
        }
        if let Command::Watch { hexes } = c {
            watch(s, ctx, side, hexes.as_deref());
            return Ok(());
        }
        if let Command::DzChange { zone } = c {
            check_dz_change(s, side)?;
            return supply::dz_change(s, ctx, zone);
        }
        match (&s.phase, c) {
            (Phase::Replan { next }, Command::Plan { drop, sticks }) => {
                let next = *next;
                let commitment = sealed_plan(
                    ctx,
                    "3.6 Changing the Drop Location",
                    (*drop, next, "the new plan"),
                    sticks.as_deref(),
                )?;
                let i = s
                    .drops
                    .iter()
                    .position(|d| d.number == next)
                    .expect("a remaining drop");
                s.drops[i].plan_commitment = Some(commitment);
                ctx.say(format!(
                    "The Allied player seals his new plan for Drop {next}"
                ));
                match s.drops[i + 1..].iter().find(|d| d.arrived.is_none()) {
                    Some(d) => s.phase = Phase::Replan { next: d.number },
                    None => supply::after_dz(s, ctx),
                }
            }
            (Phase::Huber, Command::Huber { .. }) => specials::choose(s, ctx)?,
            (Phase::SupplyDrop { .. }, Command::AirDrop { at }) => {
                supply::place_counters(s, ctx, at.as_deref())?
            }
            (Phase::Plans { next }, Command::Plan { drop, sticks }) => {
                let next = *next;
                let commitment = sealed_plan(
                    ctx,
                    "3.3.2 The Free Drop Scenario",
                    (*drop, next, "the plan"),
                    sticks.as_deref(),
                )?;
                s.drops[usize::from(next) - 1].plan_commitment = Some(commitment);
                ctx.say(format!("The Allied player seals his plan for Drop {next}"));
                if usize::from(next) >= s.drops.len() {
                    turn::enter_turn(s, ctx)?;
                    if s.drops[0].arrived.is_none() && s.drops[0].day == s.day {
                        turn::arrive(s, ctx);
                    }
                } else {
                    s.phase = Phase::Plans { next: next + 1 };
                }
            }
            (Phase::Raids { day }, Command::Raid { day: d, .. }) => {
                let day = *day;
                if *d != day {
                    return Err(rule(
                        "S5.2 The Eindhoven Air Raid",
                        format!("seal the marker for the {day}th now: raid {day} raid|decoy"),
                    ));
                }
                let commitment = ctx
                    .commitment()
                    .ok_or_else(|| {
                        rule(
                            "S5.2 The Eindhoven Air Raid",
                            "a raid marker is sealed by the server: send it as 'raid <day> raid|decoy'",
                        )
                    })?
                    .to_owned();
                s.raid_markers.push(state::RaidMarker {
                    day,
                    commitment,
                    revealed: None,
                });
                ctx.say(format!(
                    "The German player places his raid marker on the {day}th, face down"
                ));
                if day < 20 {
                    s.phase = Phase::Raids { day: day + 1 };
                } else if s.drops.first().is_some_and(|d| d.arrived.is_none()) {
                    s.phase = Phase::Plans { next: 1 };
                } else {
                    turn::enter_turn(s, ctx)?;
                }
            }
            (Phase::Weather, Command::Weather) => turn::weather(s, ctx),
            (Phase::Fog, Command::Fog) => turn::fog(s, ctx)?,
            (Phase::AirDrop { .. }, Command::AirDrop { at }) => {
                turn::air_drop(s, ctx, at.as_deref())?
            }
            (Phase::Route, Command::Route { path }) => turn::route(s, ctx, path)?,
            (Phase::Release, Command::Release { dp }) => {
                if !release::roll(s, ctx, *dp)? {
                    turn::after_release(s, ctx)?;
                }
            }
            (Phase::OffMap, Command::OffMap { moves }) => {
                offmap::order(s, ctx, moves)?;
                turn::after_offmap(s, ctx);
            }
            (Phase::Buy { side: buyer }, Command::Buy { chits }) if *buyer == side => {
                chits::buy(s, ctx, side, chits)?
            }
            (Phase::Activation, c) => self.activation(s, ctx, side, c)?,
            (_, c) => return Err(not_now(&order::describe(c), s)),
        }
        Ok(())
    }

    fn reveal(
        &self,
        s: &mut State,
        _seat: &Seat,
        commitment: &str,
        choice: &Value,
        ctx: &mut Ctx,
    ) -> Result<(), RuleError> {
        if let Some(c) = s.air_drop.as_mut().filter(|c| c.commitment == commitment) {
            let t = choice
                .get("drop_at")
                .and_then(Value::as_str)
                .and_then(data::turn_index);
            let Some(t) = t.filter(|t| c.candidates.contains(t)) else {
                return Err(rule(
                    "3.2 When to Drop",
                    "the sealed Air Drop? choice names no candidate turn",
                ));
            };
            c.revealed = Some(t);
            let (day, now) = (c.day, s.time);
            ctx.say(format!(
                "Air Drop? flipped: {} — the drop comes at {} {day} Sept",
                if t == c.candidates[0] {
                    "Air Drop!"
                } else {
                    "No Drop"
                },
                TURNS[t]
            ));
            if day == s.day && t == now && !s.over {
                turn::arrive(s, ctx);
            }
            return Ok(());
        }
        if s.huber.commitment.as_deref() == Some(commitment) {
            let d = choice.get("huber").and_then(Value::as_str).unwrap_or("");
            return specials::reveal(s, ctx, d);
        }
        if let Some(c) = s
            .supply
            .counters
            .as_mut()
            .filter(|c| c.commitment == commitment)
        {
            let t = choice
                .get("drop_at")
                .and_then(Value::as_str)
                .and_then(data::turn_index);
            let Some(t) = t.filter(|t| c.candidates.contains(t)) else {
                return Err(rule(
                    "3.5 Supply Drop Zones",
                    "the sealed supply drop choice names no candidate turn",
                ));
            };
            c.revealed = Some(t);
            let (day, now) = (c.day, s.time);
            ctx.say(format!(
                "The supply drop's Air Drop? counter flipped: it comes at {} {day} Sept",
                TURNS[t]
            ));
            if day == s.day && t == now && !s.over {
                supply::supply_drop(s, ctx);
            }
            return Ok(());
        }
        if let Some(i) = s
            .raid_markers
            .iter()
            .position(|m| m.commitment == commitment)
        {
            let real = match choice.get("raid_marker").and_then(Value::as_str) {
                Some("raid") => true,
                Some("decoy") => false,
                _ => {
                    return Err(rule(
                        "S5.2 The Eindhoven Air Raid",
                        "the sealed raid marker is neither raid nor decoy",
                    ))
                }
            };
            chits::reveal_raid(s, ctx, i, real);
            return Ok(());
        }
        if let Some(d) = s
            .drops
            .iter_mut()
            .find(|d| d.plan_commitment.as_deref() == Some(commitment))
        {
            let plan: Vec<String> = choice
                .get("plan")
                .and_then(|v| serde_json::from_value(v.clone()).ok())
                .ok_or_else(|| {
                    rule(
                        "3.3.2 The Free Drop Scenario",
                        "the sealed plan is not a list of formation:zone",
                    )
                })?;
            ctx.say(format!("Drop {} plan opened: {}", d.number, plan.join(" ")));
            d.plan = Some(plan);
            return Ok(());
        }
        if s.superseded.iter().any(|c| c == commitment) {
            ctx.say(
                "A drop plan replaced by the drop zone change is opened: it changes nothing (3.6)",
            );
            return Ok(());
        }
        Err(rule(
            "sealed choices",
            "no sealed choice of this game has that commitment",
        ))
    }

    fn timeout(&self, s: &mut State, seat: &Seat, ctx: &mut Ctx) -> Result<(), RuleError> {
        let side = Side::of(seat).ok_or_else(|| rule("seats", "not a seat"))?;
        match s.phase {
            Phase::Buy { side: buyer } if buyer == side && self.may_act(s, seat) => {
                ctx.say(format!(
                    "The {} player missed the deadline and buys nothing",
                    side.name()
                ));
                return chits::buy(s, ctx, side, &[]);
            }
            Phase::OffMap if side == Side::German => {
                offmap::stay(s, ctx);
                turn::after_offmap(s, ctx);
                return Ok(());
            }
            _ => {}
        }
        if s.phase == Phase::Activation
            && s.pending.is_none()
            && s.demolition.as_ref().is_some_and(|d| d.side == side)
        {
            demolition_pass(s, ctx, side, "missed the deadline and ");
            return Ok(());
        }
        if s.phase == Phase::Activation
            && s.pending.is_none()
            && s.placing.as_ref().is_some_and(|(w, _)| *w == side)
        {
            events::pass(s, ctx);
            return Ok(());
        }
        if s.phase == Phase::Activation
            && s.pending.is_none()
            && s.rout.is_none()
            && s.routing.as_ref().is_some_and(|r| r.side == side)
        {
            let r = s.routing.clone().expect("routing");
            return offmap::routing(s, ctx, side, &r, &Command::Pass);
        }
        if s.phase == Phase::Activation && s.pending.is_none() && s.rout == Some(side) {
            s.rout = None;
            ctx.say(format!(
                "The {} player names no routed Formation",
                side.name()
            ));
            return Ok(());
        }
        if s.phase == Phase::Activation
            && s.pending.is_none()
            && side == Side::Allied
            && s.mann.is_some()
        {
            return units::joe_mann(s, ctx, side, false);
        }
        if s.phase == Phase::Activation
            && s.pending.is_none()
            && s.lost.is_some()
            && side == s.lost_mover()
        {
            let l = s.lost.take().expect("checked");
            s.lost_event = None;
            ctx.say(format!(
                "The {} player leaves the lost {l} where it is",
                side.name()
            ));
            return Ok(());
        }
        if s.phase == Phase::Activation && s.status_window && side == Side::German {
            ctx.say("The German player missed the deadline: no status check");
            s.status_window = false;
            return Ok(());
        }
        if s.phase != Phase::Activation
            || s.pending.is_some()
            || s.intelligence.is_some()
            || !self.may_act(s, seat)
        {
            return Err(rule(
                "deadlines",
                format!("the {} player cannot pass here", side.name()),
            ));
        }
        ctx.say(format!(
            "The {} player missed the deadline and passes",
            side.name()
        ));
        if s.window.is_some() {
            close_window(s, ctx);
            Ok(())
        } else {
            chits::draw(s, ctx)
        }
    }

    fn resign(&self, s: &mut State, seat: &Seat, ctx: &mut Ctx) -> Result<(), RuleError> {
        let side = Side::of(seat).ok_or_else(|| rule("seats", "not a seat"))?;
        if s.over || s.resigned.is_some() {
            return Err(rule("resign", "the game is over"));
        }
        s.resigned = Some(side);
        ctx.say(format!("The {} player resigns", side.name()));
        Ok(())
    }

    fn view(&self, s: &State, viewer: &Viewer) -> Value {
        // Sealed choices are commitments until revealed; the off-map display (5.0) is the
        // German's alone.
        text_board::view(s, viewer)
    }

    fn board_text(&self, s: &State, viewer: &Viewer) -> Option<String> {
        Some(text_board::draw(s, viewer))
    }

    fn board(
        &self,
        s: &State,
        viewer: &Viewer,
        context: &crate::engine::ruleset::BoardContext,
    ) -> Option<crate::engine::board::Board> {
        Some(drawn::board(s, viewer, context))
    }

    fn pointing(&self, s: &State, seat: &Seat) -> Vec<crate::engine::board::Pointed> {
        pointing::pointing(self, s, seat)
    }

    fn parse(&self, _s: &State, _seat: &Seat, text: &str) -> Result<Command, RuleError> {
        order::parse(text)
    }

    fn describe(&self, c: &Command) -> String {
        order::describe(c)
    }

    fn outcome(&self, s: &State) -> Outcome {
        if let Some(loser) = s.resigned {
            return Outcome::Finished {
                winners: vec![loser.other().seat()],
                scores: BTreeMap::new(),
                summary: format!("The {} player resigned", loser.name()),
            };
        }
        if s.over {
            // The scenario's last turn is over: victory points and the level (victory.rs).
            let t = victory::tally(s);
            return Outcome::Finished {
                winners: t.winner.map(Side::seat).into_iter().collect(),
                scores: [
                    ("allied".to_owned(), t.allied.total),
                    ("german".to_owned(), t.german.total),
                ]
                .into_iter()
                .collect(),
                summary: format!(
                    "The scenario ended at {}. {}{}",
                    s.clock(),
                    victory::line(s),
                    if s.scenario == "a-ride-in-the-country" && t.winner != Some(Side::Allied) {
                        " The Allied player did not win: the southern stream bridge (55.202/56.201) is unstable in later games (2.11; option southern_bridge_unstable)"
                    } else {
                        ""
                    }
                ),
            };
        }
        Outcome::Running
    }

    fn position(
        &self,
        setup: &Setup,
        text: &str,
        hidden: &mut DiceStream,
    ) -> Result<crate::engine::position::Positioned<State>, crate::engine::position::PositionError>
    {
        position::read(self, setup, text, hidden)
    }

    fn position_format(&self) -> &'static str {
        position::FORMAT
    }

    fn random_command(&self, s: &State, seat: &Seat, rng: BotRng) -> Option<Command> {
        bot::random_command(s, seat, rng)
    }
}

impl WhereEaglesDare {
    fn activation(
        &self,
        s: &mut State,
        ctx: &mut Ctx,
        side: Side,
        c: &Command,
    ) -> Result<(), RuleError> {
        if s.pending.is_some() {
            let Command::Result { class, target } = c else {
                return Err(rule(
                    "declared rolls",
                    "state the CRT result class of the die first: result <class>",
                ));
            };
            let hex = s.pending.as_ref().map(|p| p.hex).expect("pending");
            bridges::check_result(s, hex, target.as_deref())?;
            declared::result(s, ctx, class, target.as_deref());
            events::next_typhoon(s, ctx);
            if side != s.impulse {
                close_window(s, ctx);
            }
            return Ok(());
        }
        if let Some(d) = s.demolition.clone() {
            return match c {
                Command::Demolish { bridge, fire_zone } if side == d.side => {
                    declared::check_demolish(s, side, bridge)?;
                    declared::demolish(s, ctx, side, bridge, *fire_zone);
                    if let Some(w) = s.demolition.as_mut() {
                        w.bridges.retain(|b| b != bridge);
                        if w.bridges.is_empty() {
                            s.demolition = None;
                        }
                    }
                    Ok(())
                }
                Command::Pass if side == d.side => {
                    demolition_pass(s, ctx, side, "");
                    Ok(())
                }
                _ => Err(rule(
                    "2.15.6 Bridge Demolition",
                    format!(
                        "{} entered {}: the {} player answers first, demolish {} [fz] or pass",
                        d.unit,
                        d.hex,
                        d.side.name(),
                        d.bridges.join("|")
                    ),
                )),
            };
        }
        if let Some(who) = s.rout {
            return match c {
                Command::Rout { formation, units } if side == who => {
                    offmap::rout(s, ctx, formation, units)
                }
                Command::Pass if side == who => {
                    s.rout = None;
                    ctx.say(format!(
                        "The {} player names no routed Formation",
                        side.name()
                    ));
                    Ok(())
                }
                _ => Err(rule(
                    "S3.1 Rout",
                    format!(
                        "the {} player names the routed Formation first, or passes",
                        who.name()
                    ),
                )),
            };
        }
        if let Some(r) = s.routing.clone() {
            return offmap::routing(s, ctx, side, &r, c);
        }
        if s.mann.is_some() {
            return match c {
                Command::JoeMann => units::joe_mann(s, ctx, side, true),
                Command::Pass => units::joe_mann(s, ctx, side, false),
                _ => Err(rule(
                    "S6.9 Heroes (PFC Joe Mann)",
                    "the Allied player answers first: joemann, or pass",
                )),
            };
        }
        if let Some(lost) = s.lost.clone() {
            return match c {
                Command::Move {
                    unit,
                    path,
                    column,
                    transport,
                    cohesion,
                } if side == s.lost_mover() && *unit == lost => {
                    declared::move_unit(
                        s,
                        ctx,
                        side.other(),
                        unit,
                        path,
                        *column,
                        *transport,
                        *cohesion,
                    )?;
                    s.lost = None;
                    s.lost_event = None;
                    s.marks.entry(lost.clone()).or_default().suppressed = true;
                    ctx.say(format!("The lost {lost} is Suppressed at the end of its lost movement (S3.1 Lost)"));
                    Ok(())
                }
                Command::Pass if side == s.lost_mover() => {
                    s.lost = None;
                    s.lost_event = None;
                    ctx.say(format!("The {} player leaves the lost {lost} where it is", side.name()));
                    Ok(())
                }
                _ => Err(rule(
                    if s.lost_event.is_some() { "S3.1 Events (Lost)" } else { "O3.0 German Lost Rule" },
                    format!("the {} player moves the lost {lost} first (move {lost} <hex> …), or passes", s.lost_mover().name()),
                )),
            };
        }
        if let Some((who, event)) = s.placing.clone() {
            return match c {
                Command::Place {
                    event: e,
                    target,
                    at,
                    units,
                } if side == who => events::place(s, ctx, side, e, target, *at, units),
                Command::Pass if side == who => {
                    events::pass(s, ctx);
                    Ok(())
                }
                _ => Err(rule(
                    "S3.1 Events",
                    format!(
                        "the {} player places {event} first (place {event} …), or passes",
                        who.name()
                    ),
                )),
            };
        }
        if let Some(who) = s.intelligence {
            return match c {
                Command::Intelligence { division } if side == who => {
                    chits::intelligence(s, ctx, side, division)
                }
                _ => Err(rule(
                    "S3.1 Intelligence",
                    "name the division that gains the Intelligence event's points first: intelligence <division>",
                )),
            };
        }
        if s.status_window {
            return match c {
                Command::Status => chits::status_window(s, ctx, side, true),
                Command::Pass => chits::status_window(s, ctx, side, false),
                _ => Err(rule(
                    "4.3.3 Attacking Club Route",
                    "the Guards Division chit is up: the German answers first, status or pass",
                )),
            };
        }
        if s.window.is_some() {
            match c {
                Command::Fire {
                    unit,
                    hex,
                    class,
                    opportunity: true,
                    on,
                    facts,
                    covered,
                } => {
                    check_unit(s, side, unit)?;
                    units::check_action(s, unit, false, Some(class))?;
                    if *covered && !s.covering_fire {
                        return Err(rule(
                            "O1.0 Covering Fire",
                            "covering fire is an optional rule not in play in this game",
                        ));
                    }
                    if *covered {
                        ctx.say("O1.0 Covering Fire: a friendly non-Mortar unit is adjacent to the firer: −1 to its Fire Rating");
                    }
                    declared::fire(s, ctx, side, unit, *hex, class, *on, true, facts)?;
                }
                Command::Pass => {
                    ctx.say(format!("The {} player does not fire", side.name()));
                    close_window(s, ctx);
                }
                _ => {
                    return Err(rule(
                        "opportunity fire",
                        "in the opportunity fire window: opfire <unit> <hex> <class>, or pass",
                    ))
                }
            }
            return Ok(());
        }
        if let Some(unit) = acting_unit(c) {
            // S6.5, S6.6: the chit in play activates the unit (units of the OOB).
            command::check_active(s, side, unit)?;
            if !matches!(c, Command::Unmark { .. }) {
                units::check_markers(s, unit)?;
            }
            activity::check(s, unit)?;
            specials::check_huber_unit(s, unit)?;
            offmap::check_unit_on_map(s, unit)?;
        }
        match c {
            Command::End => return chits::draw(s, ctx),
            Command::Spend {
                points,
                dispatch,
                division,
                facts,
            } => return chits::spend(s, ctx, side, *points, *dispatch, division.as_deref(), facts),
            Command::StopRaid { points } => return chits::stop_raid(s, ctx, side, *points),
            Command::CommandAction {
                unit,
                by,
                phone,
                from,
            } => {
                return command::command(s, ctx, side, unit, by.as_deref(), *phone, from.as_deref())
            }
            Command::Move {
                unit,
                path,
                column,
                transport,
                cohesion,
            } => {
                let awaiting = s.drop_awaiting.len();
                let end =
                    declared::move_unit(s, ctx, side, unit, path, *column, *transport, *cohesion)?;
                // 3.4: "the drop itself does not trigger Opportunity Fire". A move acts in
                // every hex it enters: a watched one opens the window at the move's end.
                if s.drop_awaiting.len() == awaiting {
                    s.window = Some(end);
                    match path.iter().find(|&&h| s.watches(side.other(), h)) {
                        Some(&h) if h != end => ctx.say(format!(
                            "The move passed {h}, on the {} player's watch list",
                            side.other().name()
                        )),
                        Some(_) => {}
                        None => unwatched(s, ctx, side),
                    }
                }
            }
            Command::Bulldozer { unit, bridge } => {
                bridges::check_bulldozer(s, side, unit, bridge)?;
                s.window = Some(bridges::bulldozer(s, ctx, unit, bridge));
            }
            Command::Bulldoze { bridge } => {
                bridges::check_bulldoze(s, side, bridge)?;
                s.window = Some(bridges::bulldoze(s, ctx, bridge));
            }
            Command::Bailey { unit, bridge } => {
                bridges::check_bailey(s, side, unit, bridge)?;
                s.window = Some(bridges::bailey(s, ctx, unit, bridge));
            }
            Command::Mount { infantry, vehicle } => {
                units::check_mount(s, side, infantry, vehicle)?;
                // S4.1: "it takes an entire movement action by both units".
                activity::acted(s, vehicle, true);
                s.window = Some(units::mount(s, ctx, infantry, vehicle));
            }
            Command::Dismount {
                unit,
                abandon,
                cohesion,
            } => {
                units::check_dismount(s, side, unit, *cohesion)?;
                s.window = Some(units::dismount(s, ctx, unit, *abandon, *cohesion));
            }
            Command::Ride {
                asset,
                unit,
                division,
            } => {
                units::check_ride(s, side, asset, unit, division)?;
                s.window = Some(units::ride(s, ctx, asset, unit, division));
            }
            Command::Park { park, hex } => {
                units::check_park(s, side, park, *hex)?;
                units::park(s, ctx, park, *hex);
            }
            Command::EnterPark { unit, park } => {
                units::check_enter_park(s, side, unit, park)?;
                units::enter_park(s, ctx, unit, park);
            }
            Command::RoadBlock { hex, remove } => {
                units::check_roadblock(s, side, *hex, *remove)?;
                units::roadblock(s, ctx, side, *hex, *remove);
            }
            Command::Rearguard { unit, hex } => {
                units::check_rearguard(s, side, unit, *hex)?;
                units::rearguard(s, ctx, side, unit, *hex);
            }
            Command::Ferry {
                unit,
                bridge,
                abandon,
            } => {
                // S4.3: a piggyback rider performs no Action; its vehicle only moves and
                // dismounts (a ferry takes Leg Units, 2.18.2).
                units::check_action(s, unit, false, None)?;
                let (from, to) = bridges::check_ferry(s, side, unit, bridge, *abandon)?;
                activity::check_fresh(
                    s,
                    unit,
                    "2.18.2 Using Ferries",
                    "a Unit uses a ferry as its entire activation, begun in the ferry's hex (it cannot move into it and then use the ferry); ferry it when a chit activates it next",
                )?;
                bridges::ferry(s, ctx, unit, bridge, *abandon, to);
                command::eliminate_north_231(s, ctx);
                s.window = Some(from);
            }
            Command::Fire {
                opportunity: true, ..
            } => {
                return Err(rule(
                    "opportunity fire",
                    "opportunity fire comes in the enemy's impulse, after his action",
                ));
            }
            Command::Fire {
                unit,
                hex,
                class,
                on,
                facts,
                ..
            } => {
                check_unit(s, side, unit)?;
                units::check_action(s, unit, false, Some(class))?;
                declared::fire(s, ctx, side, unit, *hex, class, *on, false, facts)?;
            }
            Command::Assault { unit, hex, facts } => {
                check_unit(s, side, unit)?;
                units::check_action(s, unit, false, None)?;
                let from = assault::check_assault(s, unit, *hex)?;
                assault::assault(s, ctx, side, unit, *hex, from, facts);
                // S4.4: the assault "starting with Opportunity Fire from the Units being
                // Assaulted", at the assaulting unit.
                s.window = Some(from.unwrap_or(*hex));
            }
            Command::Tq { unit, reason, pass } => {
                check_unit(s, side, unit)?;
                units::check_action(s, unit, false, None)?;
                if reason.first().map(String::as_str) == Some("lost")
                    && (!s.german_lost || side != Side::German)
                {
                    return Err(rule(
                        "O3.0 German Lost Rule",
                        "'tq <unit> lost' is the German's, with option german_lost",
                    ));
                }
                declared::check_tq(s, side, unit, reason)?;
                events::check_tq(s, unit, reason)?;
                bridges::check_tq(s, side, unit, reason)?;
                if reason.first().map(String::as_str) == Some("ferry") {
                    activity::check_not_moved(
                        s,
                        unit,
                        "2.18.1 Creating a Ferry",
                        "an engineer Unit must begin an activation in the hex to become a ferry; try when a chit activates it next",
                    )?;
                }
                declared::tq(s, ctx, side, unit, reason, pass);
                // An Engineer Action triggers opportunity fire (2.15.3, 2.15.6, 2.15.7, 2.18.1;
                // S3.1: a Minefield is removed "by performing an engineering action").
                if matches!(
                    reason.first().map(String::as_str),
                    Some("wire" | "improve" | "repair" | "ferry" | "mines")
                ) {
                    s.window = s.units.get(unit).map(|u| u.hex);
                }
            }
            Command::Rally { unit, pass } => {
                check_unit(s, side, unit)?;
                units::check_action(s, unit, false, None)?;
                declared::rally(s, ctx, side, unit, pass);
            }
            Command::Barrage {
                unit,
                hex,
                heavy,
                pass,
            } => {
                check_unit(s, side, unit)?;
                units::check_action(s, unit, false, None)?;
                declared::barrage(s, ctx, side, unit, *hex, *heavy, pass);
            }
            Command::Demolish { bridge, fire_zone } => {
                declared::check_demolish(s, side, bridge)?;
                declared::demolish(s, ctx, side, bridge, *fire_zone);
            }
            Command::DropRoll {
                unit,
                zone,
                glider,
                flak,
                flak88,
                fz,
            } => {
                if side != Side::Allied {
                    return Err(rule(
                        "3.4.1 The Drop Table",
                        "only Allied airborne units roll on the Drop Table",
                    ));
                }
                let drop = declared::check_drop_roll(s, unit, zone)?;
                if drop > 1 {
                    // 3.4.1: a later drop's unit rolls the first time it activates.
                    command::check_active(s, side, unit)?;
                }
                let glider = declared::lands_by_glider(unit, *glider)?;
                let (flak, flak88) = declared::flak_fire_zones(s, *flak, *flak88, fz)?;
                declared::drop_modifier(s, zone, glider, flak, flak88)?;
                specials::flip_flak(s, ctx);
                if !fz.is_empty() {
                    ctx.say(format!(
                        "Flak projecting a Fire Zone into zone {zone}: {}",
                        fz.iter()
                            .map(|u| format!("{u} ({})", s.flak[u]))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
                declared::drop_roll(s, ctx, unit, drop, zone, glider, flak, flak88)?;
            }
            Command::Unmark { unit } => {
                declared::check_unmark(s, side, unit)?;
                declared::unmark(s, ctx, unit);
            }
            Command::Status => {
                return Err(rule(
                    "4.3.3 Attacking Club Route",
                    if side == Side::German {
                        "the German asks the status check when the Guards Armored Division Activation chit comes up, before the Allied impulse"
                    } else {
                        "only the German player asks for the status check"
                    },
                ));
            }
            Command::Result { .. } => {
                return Err(rule(
                    "declared rolls",
                    "there is no die waiting for a result",
                ))
            }
            Command::Pass => {
                return Err(rule("sequence of play", "in your impulse, 'end' ends it"))
            }
            other => return Err(not_now(&order::describe(other), s)),
        }
        // An assault acts in both hexes: the assaulted hex or the assaulting unit's.
        let watched = |h: Hex| {
            s.watches(side.other(), h)
                || matches!(c, Command::Assault { hex, .. } if s.watches(side.other(), *hex))
        };
        if !matches!(c, Command::Move { .. }) && s.window.is_some_and(|h| !watched(h)) {
            unwatched(s, ctx, side);
        }
        if let Some(unit) = acting_unit(c) {
            activity::acted(
                s,
                unit,
                matches!(
                    c,
                    Command::Move { .. } | Command::Mount { .. } | Command::Dismount { .. }
                ),
            );
        }
        match c {
            Command::Ferry { unit, .. } => activity::end(s, unit, "2.18.2 Using Ferries"),
            Command::Tq { unit, reason, .. }
                if reason.first().map(String::as_str) == Some("ferry") =>
            {
                activity::end(s, unit, "2.18.1 Creating a Ferry")
            }
            _ => {}
        }
        s.actions += 1;
        Ok(())
    }
}

/// `watch all|none|<hex>…`: the seat's public standing watch list (issue 18: "after an action
/// in a hex the opponent watches … he gets a window for opportunity fire"). Fire Zones are the
/// series', so the player says where he would fire; the list stands until he changes it.
fn watch(s: &mut State, ctx: &mut Ctx, side: Side, hexes: Option<&[Hex]>) {
    match hexes {
        None => {
            s.watch.remove(&side);
            ctx.say(format!("The {} player watches every hex", side.name()));
        }
        Some(h) => {
            s.watch.insert(side, h.iter().copied().collect());
            ctx.say(if h.is_empty() {
                format!("The {} player watches no hex: no opportunity fire window until he watches again", side.name())
            } else {
                format!(
                    "The {} player watches {}",
                    side.name(),
                    h.iter().map(Hex::to_string).collect::<Vec<_>>().join(" ")
                )
            });
        }
    }
}

/// The wiring side lets the contested bridges stand (2.15.6): they stay wired and contested.
fn demolition_pass(s: &mut State, ctx: &mut Ctx, side: Side, how: &str) {
    if let Some(d) = s.demolition.take() {
        ctx.say(format!(
            "The {} player {how}does not demolish the {} bridge: it stays wired, contested",
            side.name(),
            d.bridges.join(" and ")
        ));
    }
}

/// The action was in no hex the enemy watches: no opportunity fire window.
fn unwatched(s: &mut State, ctx: &mut Ctx, side: Side) {
    if let Some(h) = s.window.take() {
        ctx.say(format!(
            "{h} is not on the {} player's watch list: no opportunity fire window",
            side.other().name()
        ));
    }
    assault::roll_assault(s, ctx);
}

/// The opportunity fire window closes (a pass, the deadline, the fire's result stated): a
/// declared assault goes on to its die (S4.4).
fn close_window(s: &mut State, ctx: &mut Ctx) {
    s.window = None;
    assault::roll_assault(s, ctx);
}

/// `dzchange <zone>` (3.6): the Allied player, in the 0700 turn after the weather, once a day,
/// while drops are to come and before today's Air Drop? counters are placed.
fn check_dz_change(s: &State, side: Side) -> Result<(), RuleError> {
    let r = |m: &str| rule("3.6 Changing the Drop Location", m);
    if side != Side::Allied {
        return Err(r("only the Allied player changes his drop locations"));
    }
    if dz_option(s).is_none() {
        return Err(r(
            "the drop location is changed once, in the 0700 turn after the weather roll, while drops are to come and before today's Air Drop? counters are placed",
        ));
    }
    Ok(())
}

/// The `dzchange` option when 3.6 allows it now.
pub(crate) fn dz_option(s: &State) -> Option<String> {
    let open = s.time == turn::T0700
        && s.weather.is_some()
        && s.dz_tried != Some(s.day)
        && s.drops.iter().any(|d| d.arrived.is_none())
        && s.air_drop.as_ref().is_none_or(|c| c.day != s.day)
        && matches!(
            s.phase,
            Phase::AirDrop { .. } | Phase::SupplyDrop { .. } | Phase::Buy { side: Side::Allied }
        );
    open.then(|| format!("dzchange {}", s.supply.dz))
}

/// The unit that takes an action in its side's impulse, for the activation check (S6.5, S6.6).
/// A Bailey or Bulldozer placed is not here: 2.11 and 2.15.7 name the impulses they come in.
fn acting_unit(c: &Command) -> Option<&str> {
    match c {
        Command::Move { unit, .. }
        | Command::Fire {
            unit,
            opportunity: false,
            ..
        }
        | Command::Assault { unit, .. }
        | Command::Tq { unit, .. }
        | Command::Rally { unit, .. }
        | Command::Barrage { unit, .. }
        | Command::Dismount { unit, .. }
        | Command::Ride { unit, .. }
        | Command::Ferry { unit, .. }
        | Command::EnterPark { unit, .. }
        | Command::Unmark { unit } => Some(unit),
        Command::Mount { infantry, .. } => Some(infantry),
        _ => None,
    }
}

/// A unit named in a declared roll must not be the enemy's.
fn check_unit(s: &State, side: Side, unit: &str) -> Result<(), RuleError> {
    match s.units.get(unit) {
        Some(u) if u.side != side => Err(rule(
            "declared rolls",
            format!("{unit} is a {} unit", u.side.name()),
        )),
        _ => Ok(()),
    }
}
