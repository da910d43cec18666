//! Searching for Glory's set-up: the scenario, the seats and the options a game is created with, read
//! into its first state.

use super::data::{self, Side};
use super::deck;
use super::round;
use super::state::{Cu, LoneSp, Phase, Plan, Player, State};
use crate::engine::dice::DiceStream;
use crate::engine::ruleset::{RuleError, Setup};

fn setup_error(message: impl Into<String>) -> RuleError {
    RuleError::new("set-up", message)
}

pub(super) fn setup(setup: &Setup, hidden: &mut DiceStream) -> Result<State, RuleError> {
    let scenario = data::scenario(&setup.scenario).ok_or_else(|| {
        let known: Vec<&str> = data::scenarios().iter().map(|s| s.id.as_str()).collect();
        setup_error(format!(
            "no scenario '{}': Searching for Glory has {}",
            setup.scenario,
            known.join(", ")
        ))
    })?;
    let mut additive = false;
    let mut npcs_stand = false;
    let mut plain_roles = false;
    let mut battle_cards = false;
    let mut interactive = false;
    if let Some(obj) = setup.options.as_object() {
        for (k, v) in obj {
            match (k.as_str(), v.as_str()) {
                ("roles", Some("plain")) => plain_roles = true,
                ("roles", Some("full")) => {}
                ("roles", _) => {
                    return Err(setup_error(format!(
                        "roles is \"full\" or \"plain\", not {v}"
                    )))
                }
                ("battle_cards", Some("cards")) => battle_cards = true,
                ("battle_cards", Some("dice")) => {}
                ("battle_cards", _) => {
                    return Err(setup_error(format!(
                        "battle_cards is \"dice\" or \"cards\", not {v}"
                    )))
                }
                ("battle_play", Some("interactive")) => interactive = true,
                ("battle_play", Some("sealed")) => {}
                ("battle_play", _) => {
                    return Err(setup_error(format!(
                        "battle_play is \"sealed\" or \"interactive\", not {v}"
                    )))
                }
                ("npcs", Some("stand")) => npcs_stand = true,
                ("npcs", Some("run")) => {}
                ("npcs", _) => {
                    return Err(setup_error(format!(
                        "npcs is \"run\" or \"stand\", not {v}"
                    )))
                }
                ("deck_counts", Some("additive")) => additive = true,
                ("deck_counts", Some("included")) => {}
                ("deck_counts", _) => {
                    return Err(setup_error(format!(
                        "deck_counts is \"included\" or \"additive\", not {v}"
                    )))
                }
                _ => {
                    return Err(setup_error(format!(
                        "Searching for Glory has no option '{k}'; it knows battle_cards, battle_play, deck_counts, npcs and roles"
                    )))
                }
            }
        }
    }
    if !(3..=6).contains(&setup.seats.len()) {
        return Err(setup_error(format!(
            "Searching for Glory seats 3 to 6 players, not {}",
            setup.seats.len()
        )));
    }
    let mut sides = Vec::new();
    for s in &setup.seats {
        let id = s.seat.as_str();
        if !scenario.characters.iter().any(|c| c == id) {
            return Err(setup_error(format!(
                "'{id}' is not a character of {}: seats are {}",
                scenario.id,
                scenario.characters.join(", ")
            )));
        }
        sides.push(round::side_of(id));
    }
    for side in [Side::French, Side::Austrian] {
        if !sides.contains(&side) {
            return Err(setup_error(format!(
                "each side needs at least one player; nobody plays the {} side",
                side.name()
            )));
        }
    }
    let cus: Vec<Cu> = scenario
        .characters
        .iter()
        .map(|ch| {
            let role = data::role(ch).expect("checked when the data was read");
            Cu {
                character: ch.clone(),
                side: role.side,
                lp: Some(role.start.clone()),
                sp: role.sp,
                fatigue: 0,
                supply: false,
                trench: 0,
                captured: false,
                glory: 0,
                victories: 0,
                siege_points: 0,
                strategic_used: 0,
                reached: Vec::new(),
                seat: setup
                    .seats
                    .iter()
                    .find(|s| s.seat.as_str() == ch)
                    .map(|s| s.seat.clone()),
            }
        })
        .collect();
    let lone: Vec<LoneSp> = scenario
        .map
        .garrisons
        .iter()
        .map(|(lp, side, sp)| LoneSp {
            lp: lp.clone(),
            side: *side,
            sp: *sp,
        })
        .collect();
    let mut entered: Vec<String> = cus.iter().filter_map(|c| c.lp.clone()).collect();
    entered.extend(lone.iter().map(|l| l.lp.clone()));
    entered.sort();
    entered.dedup();
    let with_napoleon = scenario.characters.iter().any(|c| c == "napoleon");
    let mut deck = data::deck(with_napoleon, additive);
    let mut draw = |n: u32| Ok(hidden.roll(n));
    deck::shuffle(&mut deck, &mut draw)?;
    let players: Vec<Player> = setup
        .seats
        .iter()
        .map(|s| Player {
            seat: s.seat.clone(),
            character: s.seat.as_str().to_owned(),
            hand: Vec::new(),
            plan: Plan::Waiting,
            planned: Vec::new(),
            out: false,
            intel: Vec::new(),
            keep: Vec::new(),
            eliminated: false,
            entering: false,
        })
        .collect();
    let mut state = State {
        version: super::state::NEWEST_VERSION,
        scenario: scenario.id.clone(),
        round: 1,
        rounds: scenario.rounds,
        additive,
        cus,
        lone,
        draw_order: (0..players.len()).collect(),
        players,
        deck,
        discard: Vec::new(),
        phase: Phase::Plan,
        blown: Vec::new(),
        entries: Vec::new(),
        entered,
        pending: None,
        window: None,
        truce: Vec::new(),
        npc: None,
        npcs_stand,
        victory: None,
        sieges: Vec::new(),
        plain_roles,
        standing_refuse: Vec::new(),
        battle_cards,
        interactive,
    };
    round::draw_phase(&mut state, &mut draw)?;
    Ok(state)
}
