//! Setting a game up (1.0, the scenarios of `data/scenarios.txt`): the scenario's clock,
//! drops, units, Club Route, cups, parks and options (`options.rs`), then the first step of
//! the sequence of play — the raid markers in the campaign, the free drop plans, or the first
//! turn.
//!
//! Imports: the data, the state and the chapters that place what a game starts with.

use std::collections::BTreeMap;

use crate::engine::dice::DiceStream;
use crate::engine::ruleset::{Ctx, DiceSource, RuleError, Setup};

use super::data::{Weather, DATA};
use super::rule;
use super::state::{self, Drop, Highway, Phase, Side, State};
use super::{offmap, options, specials, turn};

/// The state a new game starts from.
pub fn state(setup: &Setup, hidden: &mut DiceStream) -> Result<State, RuleError> {
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
        version: state::NEWEST_VERSION,
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
        wait: None,
        air_raid: None,
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
        starred: DATA.starred.clone(),
        drop_rolled: Vec::new(),
        drop_awaiting: Vec::new(),
        eliminated: BTreeMap::new(),
        airborne_tanks: airborne_tanks.name(),
        entrenched: Default::default(),
        map,
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
