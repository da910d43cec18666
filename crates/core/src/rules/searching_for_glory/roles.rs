//! The role cards' restrictions and glory conditions (III, 3 Victory; `data/role_rules.txt`,
//! reconstructed). Restrictions are checked with the order (before any die) and with a reactive
//! play; glory conditions pay at the moment they name: a capture, a battle won, an LP entered,
//! a round's end. None of this holds with `roles=plain`.

use super::data::{self, GloryCondition, Restriction};
use super::state::State;
use crate::engine::ruleset::{Ctx, RuleError};

fn role_error(message: impl Into<String>) -> RuleError {
    RuleError::new("III Role cards", message)
}

fn restrictions(state: &State, character: &str) -> &'static [Restriction] {
    if state.plain_roles {
        return &[];
    }
    &data::role_rules(character).restrictions
}

fn conditions(state: &State, character: &str) -> &'static [GloryCondition] {
    if state.plain_roles {
        return &[];
    }
    &data::role_rules(character).glory
}

/// III `never <face>`: the order of `character` uses none of his role's forbidden faces.
pub fn check_faces(state: &State, character: &str, faces: &[&str]) -> Result<(), RuleError> {
    for r in restrictions(state, character) {
        if let Restriction::Never(face) = r {
            if faces.contains(&face.as_str()) {
                return Err(role_error(format!(
                    "{character}'s role card forbids '{face}': his orders never use it (reconstructed restriction)"
                )));
            }
        }
    }
    Ok(())
}

/// III `never <face>`: `character` never plays a reactive card with a forbidden face.
pub fn check_reactive(state: &State, character: &str, card: &str) -> Result<(), RuleError> {
    let Some(kind) = data::card(card) else {
        return Ok(());
    };
    for r in restrictions(state, character) {
        if let Restriction::Never(face) = r {
            if kind.has_face(face) {
                return Err(role_error(format!(
                    "{character}'s role card forbids {}: he never plays it (reconstructed restriction)",
                    kind.name
                )));
            }
        }
    }
    Ok(())
}

/// III `no-enter`: may `character`'s own order take his CU into `to` (an LP or an exit)?
pub fn check_enter(state: &State, character: &str, to: &str) -> Result<(), RuleError> {
    for r in restrictions(state, character) {
        if let Restriction::NoEnter(lps) = r {
            if lps.iter().any(|l| l == to) {
                return Err(role_error(format!(
                    "{character}'s role card forbids him {to}: his orders never take him there (reconstructed restriction)"
                )));
            }
        }
    }
    Ok(())
}

/// III `outnumbered`: `character`, carrying `sp`, never attacks more enemy SP than that at `to`.
pub fn check_odds(state: &State, character: &str, sp: u32, to: &str) -> Result<(), RuleError> {
    if !restrictions(state, character).contains(&Restriction::Outnumbered) {
        return Ok(());
    }
    let enemy = state.cu(character).side.enemy();
    let theirs: u32 = state
        .cus
        .iter()
        .filter(|c| c.side == enemy && c.lp.as_deref() == Some(to))
        .map(|c| c.sp)
        .sum::<u32>()
        + state
            .lone
            .iter()
            .filter(|l| l.side == enemy && l.lp == to)
            .map(|l| l.sp)
            .sum::<u32>();
    if theirs > sp {
        return Err(role_error(format!(
            "{character}'s role card forbids attacking a stronger enemy: {to} holds {theirs} enemy SP, his CU {sp} (reconstructed restriction)"
        )));
    }
    Ok(())
}

/// Glory `capture`: the captors whose role names the captured character.
pub fn on_capture(state: &mut State, captured: &str, captors: &[String], ctx: &mut Ctx) {
    for c in captors {
        for g in conditions(state, c) {
            if let GloryCondition::Capture(whom, n) = g {
                if whom == captured {
                    state.cu_mut(c).glory += n;
                    ctx.say(format!(
                        "{c} has captured {captured}, as his role card asks: {n} glory"
                    ));
                }
            }
        }
    }
}

/// Glory `battle`: every winner of the battle whose role pays for a victory.
pub fn on_battle_won(state: &mut State, winners: &[String], ctx: &mut Ctx) {
    for c in winners {
        if state.cu(c).lp.is_none() {
            continue;
        }
        for g in conditions(state, c) {
            if let GloryCondition::Battle(n) = g {
                state.cu_mut(c).glory += n;
                ctx.say(format!("{c}'s role card pays a battle won: {n} glory"));
            }
        }
    }
}

/// Glory `enter`: `character`'s CU has entered its LP by its own march or attack.
pub fn on_enter(state: &mut State, character: &str, ctx: &mut Ctx) {
    let Some(lp) = state.cu(character).lp.clone() else {
        return;
    };
    for g in conditions(state, character) {
        if let GloryCondition::Enter(at, n) = g {
            if *at == lp && !state.cu(character).reached.contains(&lp) {
                let cu = state.cu_mut(character);
                cu.reached.push(lp.clone());
                cu.glory += n;
                ctx.say(format!(
                    "{character} enters {lp}, as his role card asks: {n} glory"
                ));
            }
        }
    }
}

/// Glory `hold`: at a round's end, every CU on the map at the LP its role names.
pub fn at_round_end(state: &mut State, ctx: &mut Ctx) {
    for i in 0..state.cus.len() {
        let character = state.cus[i].character.clone();
        let Some(lp) = state.cus[i].lp.clone() else {
            continue;
        };
        for g in conditions(state, &character) {
            if let GloryCondition::Hold(at, n) = g {
                if *at == lp {
                    state.cus[i].glory += n;
                    ctx.say(format!(
                        "{character} holds {lp} at the round's end, as his role card asks: {n} glory"
                    ));
                }
            }
        }
    }
}
