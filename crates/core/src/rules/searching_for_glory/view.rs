//! What each viewer sees: the board is public; a seat sees its own hand and plan only, and in
//! a card battle its side's battle hand if it commands the side; the deck order and the others'
//! hands and plans show as counts.

use serde_json::{json, Value};

use super::data;
use super::state::{Phase, Plan, State};
use crate::engine::ruleset::Viewer;

fn card_json(key: &str) -> Value {
    let kind = data::card(key).expect("a card");
    let colours: Vec<&str> = kind.colours().map(data::Colour::name).collect();
    json!({"card": key, "name": kind.name, "colours": colours, "reactive": kind.reactive})
}

pub fn view(state: &State, viewer: &Viewer) -> Value {
    let players: Vec<Value> = state
        .players
        .iter()
        .map(|p| {
            let mine = match viewer {
                Viewer::Seat(s) => *s == p.seat,
                Viewer::Everyone => true,
                Viewer::Spectator => false,
            };
            let plan = match &p.plan {
                Plan::Waiting => "waiting",
                Plan::Sealed { .. } => "sealed",
                Plan::Open => "open",
            };
            let played: Vec<Value> = p
                .planned
                .iter()
                .filter(|(_, used)| *used)
                .map(|(k, _)| card_json(k))
                .collect();
            let mut v = json!({
                "seat": p.seat,
                "character": p.character,
                "out": p.out,
                "eliminated": p.eliminated,
                "entering": p.entering,
                "hand_count": p.hand.len(),
                "plan": plan,
                "planned_count": p.planned.len(),
                "played": played,
            });
            if mine {
                v["intel"] = json!(p.intel);
                v["hand"] = p.hand.iter().map(|k| card_json(k)).collect();
                v["planned"] = p
                    .planned
                    .iter()
                    .map(|(k, used)| {
                        let mut c = card_json(k);
                        c["used"] = json!(used);
                        c
                    })
                    .collect();
            }
            v
        })
        .collect();
    let cus: Vec<Value> = state
        .cus
        .iter()
        .map(|c| {
            json!({
                "character": c.character,
                "side": c.side,
                "lp": c.lp,
                "sp": c.sp,
                "fatigue": c.fatigue,
                "supply": c.supply,
                "trench": c.trench,
                "captured": c.captured,
                "glory": c.glory,
                "siege_points": c.siege_points,
                "strategic_used": c.strategic_used,
                "seat": c.seat,
            })
        })
        .collect();
    let (phase, to_act) = match &state.phase {
        Phase::Plan => ("plan", Value::Null),
        Phase::Initiative => ("initiative", Value::Null),
        Phase::Operations { order, next } => (
            "operations",
            json!(order.get(*next).map(|&i| state.players[i].seat.clone())),
        ),
        Phase::Npcs { .. } => (
            "npcs",
            json!(state
                .npc
                .as_ref()
                .map(|n| state.players[n.runner].seat.clone())),
        ),
        Phase::Ended => ("ended", Value::Null),
    };
    json!({
        "scenario": state.scenario,
        "round": state.round,
        "rounds": state.rounds,
        "phase": phase,
        "to_act": to_act,
        "players": players,
        "cus": cus,
        "lone_sp": state.lone,
        "blown": state.blown,
        "sieges": state.sieges,
        "standing_refuse": state.standing_refuse,
        "deck_count": state.deck.len(),
        "window": window(state),
        // 4.f: the card battle waiting for its commanders, its hands to their commanders.
        "battle": super::battle_play::view(
            state,
            match viewer {
                Viewer::Seat(s) => state.player_of(s),
                _ => None,
            },
            *viewer == Viewer::Everyone,
        ),
        "npc": npc(state, viewer),
        "victory": state.victory,
        "discard_count": state.discard.len(),
    })
}

/// The NPC operating now (3.4): who runs it and how many cards it holds; its hand and the
/// operations it allows to its runner alone (and to everyone after the end).
fn npc(state: &State, viewer: &Viewer) -> Value {
    let Some(n) = &state.npc else {
        return Value::Null;
    };
    let runner = &state.players[n.runner].seat;
    let mine = match viewer {
        Viewer::Seat(s) => s == runner,
        Viewer::Everyone => true,
        Viewer::Spectator => false,
    };
    let played: Vec<Value> = n
        .hand
        .iter()
        .filter(|(_, used)| *used)
        .map(|(k, _)| card_json(k))
        .collect();
    let mut v = json!({
        "character": n.character,
        "runner": runner,
        "hand_count": n.hand.len(),
        "played": played,
    });
    if mine {
        // The operations its hand allows now, which the public prompt does not list.
        if state.runs_npc(n.runner) {
            v["operations"] = json!(super::bot::options(state, n.runner));
        }
        v["hand"] = n
            .hand
            .iter()
            .map(|(k, used)| {
                let mut c = card_json(k);
                c["used"] = json!(used);
                c
            })
            .collect();
    }
    v
}

/// The open reactive window (1.e): its kind, the cards played (public once played) and the seats
/// prompted — every seat it concerns, whether or not it holds a reactive card.
fn window(state: &State) -> Value {
    let Some(w) = &state.window else {
        return Value::Null;
    };
    let chain: Vec<Value> = w
        .chain
        .iter()
        .map(|c| {
            let mut v = card_json(&c.card);
            v["played_by"] = json!(state.players[c.player].seat);
            v
        })
        .collect();
    let prompted: Vec<Value> = super::reactive::prompted(state)
        .into_iter()
        .map(|i| json!(state.players[i].seat))
        .collect();
    json!({
        "kind": w.kind,
        "chain": chain,
        "prompted": prompted,
        "operation": state.pending.as_ref().map(|pd| super::order::describe(
            &super::order::Command::Operation { clauses: pd.clauses.clone() }
        )),
        "battle": state.pending.as_ref().and_then(|pd| pd.battle.as_ref()).map(|b| b.lp.clone()),
    })
}
