//! Sieges (2.l): an attacked force at a fortress may refuse battle and go into the fortress; the
//! attackers then stand in the same LP and lay SIEGE, an action that replaces cards: a fatigue
//! roll (2.f), an attrition roll at the CU's siege points (the attrition table; none the first
//! time), then one siege point more. Each enemy SP eliminated gives the besieger 1 glory; a
//! character whose CU loses its last SP is captured; with every SP inside gone the fortress is
//! taken. Before the first attrition roll the besieged CU may leave; after it, it stays while
//! enemy SP remain there, plays no card, and may make a SORTIE each round (even: the besiegers
//! lose a siege point; odd: the besieged lose 1 SP). A besieging CU that leaves the LP loses
//! all its siege points.

use super::battle;
use super::data::{self, Side};
use super::state::{Siege, State, WindowKind};
use crate::engine::ruleset::{Ctx, RuleError};

fn siege_error(message: impl Into<String>) -> RuleError {
    RuleError::new("2.l Sieges", message)
}

/// The siege at `lp`, if there is one.
pub fn at<'s>(state: &'s State, lp: &str) -> Option<&'s Siege> {
    state.sieges.iter().find(|s| s.lp == lp)
}

/// Is `character`'s CU besieged inside a fortress after the first attrition roll (it may
/// neither leave nor play cards, only sortie)?
pub fn shut_in(state: &State, character: &str) -> bool {
    let cu = state.cu(character);
    cu.lp
        .as_deref()
        .and_then(|lp| at(state, lp))
        .is_some_and(|s| s.besieged == cu.side && s.rolled)
}

/// Checks a SIEGE by `character`: its CU stands at a fortress whose enemy is inside.
pub fn check_siege(state: &State, character: &str) -> Result<(), RuleError> {
    let cu = state.cu(character);
    let lp = cu.lp.as_deref().unwrap_or_default();
    match at(state, lp) {
        Some(s) if s.besieged != cu.side => Ok(()),
        Some(_) => Err(siege_error(format!(
            "your side is the one besieged at {lp}: make a 'sortie' instead"
        ))),
        None => Err(siege_error(format!(
            "no enemy is shut in a fortress at {lp}: a SIEGE is laid where enemy SP refused battle and went into the fortress"
        ))),
    }
}

/// Checks a SORTIE by `character`: its CU is besieged.
pub fn check_sortie(state: &State, character: &str) -> Result<(), RuleError> {
    let cu = state.cu(character);
    let lp = cu.lp.as_deref().unwrap_or_default();
    match at(state, lp) {
        Some(s) if s.besieged == cu.side => Ok(()),
        _ => Err(siege_error(format!(
            "your CU is not besieged at {lp}: only the besieged make a SORTIE"
        ))),
    }
}

/// Player `p` refuses the battle in the open battle window: the defending side at the
/// fortress goes into it and the attackers stay in the LP, stacked with them (2.l). Gives an
/// error naming the rule when it does not fit.
pub fn refuse(state: &mut State, p: usize, ctx: &mut Ctx) -> Result<(), RuleError> {
    check_refuse(state, p)?;
    let pd = state.pending.as_mut().expect("an operation");
    let b = pd.battle.take().expect("a battle");
    let side = state.cu(&state.players[p].character).side;
    state.window = None;
    state.sieges.push(Siege {
        lp: b.lp.clone(),
        besieged: side,
        rolled: false,
    });
    ctx.say(format!(
        "{} refuses battle: the {} at {} go into the fortress, and {} stands before it (2.l)",
        state.players[p].character,
        side.name(),
        b.lp,
        b.attackers.join(" and ")
    ));
    Ok(())
}

/// 2.l, the standing order (`standing refuse`): when a battle's window closes with nobody
/// refusing, at a fortress whose defenders are only lone SP and NPCs (no CU of a player still
/// in), does the defending side's standing order send it into the fortress?
pub fn standing_refuses(state: &State, b: &super::state::BattleSetup) -> bool {
    let Some(first) = b.attackers.first() else {
        return false;
    };
    let side = state.cu(first).side.enemy();
    if !state.standing_refuse.contains(&side)
        || !state.map().lp(&b.lp).is_some_and(|l| l.fortress)
        || !state.holds(&b.lp, side)
        || besieged_at(state, &b.lp).is_some()
    {
        return false;
    }
    !state.players.iter().any(|p| {
        !p.out && {
            let cu = state.cu(&p.character);
            cu.side == side && cu.lp.as_deref() == Some(b.lp.as_str())
        }
    })
}

/// 2.l: the standing order applied (`standing_refuses`): the defence goes into the fortress.
/// Gives true if it did.
pub fn standing_refusal(state: &mut State, b: &super::state::BattleSetup, ctx: &mut Ctx) -> bool {
    if !standing_refuses(state, b) {
        return false;
    }
    let side = state.cu(&b.attackers[0]).side.enemy();
    state.sieges.push(Siege {
        lp: b.lp.clone(),
        besieged: side,
        rolled: false,
    });
    ctx.say(format!(
        "by their side's standing order the {} at {} refuse battle and go into the fortress, and {} stands before it (2.l)",
        side.name(),
        b.lp,
        b.attackers.join(" and ")
    ));
    true
}

/// May player `p` refuse the battle now? Only first in the battle window (no card played), a
/// defender whose CU stands at the battle's LP, and the LP a fortress.
pub fn check_refuse(state: &State, p: usize) -> Result<(), RuleError> {
    let (Some(w), Some(pd)) = (&state.window, &state.pending) else {
        return Err(siege_error("there is no battle to refuse now"));
    };
    let Some(b) = pd.battle.as_ref().filter(|_| w.kind == WindowKind::Battle) else {
        return Err(siege_error("there is no battle to refuse now"));
    };
    if !w.chain.is_empty() {
        return Err(siege_error(
            "reactive cards are being played: refuse battle before any card, or answer with a card or 'pass'",
        ));
    }
    if !state.map().lp(&b.lp).is_some_and(|l| l.fortress) {
        return Err(siege_error(format!(
            "{} is no fortress: battle is refused only by going into a fortress",
            b.lp
        )));
    }
    let cu = state.cu(&state.players[p].character);
    if cu.side == state.cu(&pd.character).side || cu.lp.as_deref() != Some(b.lp.as_str()) {
        return Err(siege_error(format!(
            "only a defender whose CU stands at {} may refuse the battle",
            b.lp
        )));
    }
    Ok(())
}

/// A SIEGE by `character` (checked): the fatigue roll has been made; the attrition roll at its
/// siege points, then a point more.
pub fn siege(state: &mut State, character: &str, ctx: &mut Ctx) {
    let cu = state.cu(character);
    let Some(lp) = cu.lp.clone() else { return };
    let side = cu.side;
    let points = cu.siege_points;
    let Some(i) = state
        .sieges
        .iter()
        .position(|s| s.lp == lp && s.besieged != side)
    else {
        return;
    };
    let roll = ctx.roll(10);
    let kill = data::attrition(roll, points);
    state.sieges[i].rolled = true;
    ctx.say(format!(
        "{character} lays SIEGE to {lp}: attrition roll {roll} at {points} siege point(s): {kill} SP eliminated"
    ));
    let lost = battle::lose_inside(state, &lp, side.enemy(), kill, &[character.to_owned()], ctx);
    if lost > 0 {
        state.cu_mut(character).glory += i64::from(lost);
        ctx.say(format!(
            "{character} gains {lost} glory (the SP eliminated)"
        ));
    }
    if !state.holds(&lp, side.enemy()) {
        ctx.say(format!("{character} takes the fortress of {lp}"));
        state.sieges.retain(|s| s.lp != lp);
        state.cu_mut(character).siege_points = 0;
        return;
    }
    let cu = state.cu_mut(character);
    cu.siege_points += 1;
    ctx.say(format!(
        "{character} has {} siege point(s)",
        cu.siege_points
    ));
}

/// A SORTIE by `character` (checked): a d10; even, the besieger with the most siege points
/// loses one; odd, the besieged lose 1 SP (a CU's last SP so lost is lost in combat).
pub fn sortie(state: &mut State, character: &str, ctx: &mut Ctx) {
    let Some(lp) = state.cu(character).lp.clone() else {
        return;
    };
    let side = state.cu(character).side;
    let roll = ctx.roll(10);
    let besiegers: Vec<String> = state
        .cus
        .iter()
        .filter(|c| c.side != side && c.lp.as_deref() == Some(lp.as_str()))
        .map(|c| c.character.clone())
        .collect();
    if roll.is_multiple_of(2) {
        let most = besiegers
            .iter()
            .filter(|c| state.cu(c).siege_points > 0)
            .max_by_key(|c| state.cu(c).siege_points)
            .cloned();
        match most {
            Some(c) => {
                state.cu_mut(&c).siege_points -= 1;
                ctx.say(format!(
                    "{character} sorties from {lp}: {roll}, even: {c} loses a siege point"
                ));
            }
            None => ctx.say(format!(
                "{character} sorties from {lp}: {roll}, even: the besiegers have no siege point to lose"
            )),
        }
    } else {
        ctx.say(format!(
            "{character} sorties from {lp}: {roll}, odd: the besieged lose 1 SP"
        ));
        battle::lose_inside(state, &lp, side, 1, &besiegers, ctx);
    }
}

/// After every operation: a besieging CU no longer at its siege loses its points; a siege with
/// no besieged SP or no besieging CU left is over.
pub fn tidy(state: &mut State, ctx: &mut Ctx) {
    let sieges = state.sieges.clone();
    for cu in &mut state.cus {
        if cu.siege_points == 0 {
            continue;
        }
        let still = cu
            .lp
            .as_deref()
            .is_some_and(|lp| sieges.iter().any(|s| s.lp == lp && s.besieged != cu.side));
        if !still {
            cu.siege_points = 0;
            ctx.say(format!(
                "{} has left its siege: its siege points are lost",
                cu.character
            ));
        }
    }
    let mut over = Vec::new();
    for s in &sieges {
        let inside = state.holds(&s.lp, s.besieged);
        let outside = state
            .cus
            .iter()
            .any(|c| c.side != s.besieged && c.lp.as_deref() == Some(s.lp.as_str()));
        if !inside || !outside {
            over.push(s.lp.clone());
        }
    }
    for lp in over {
        ctx.say(format!("the siege of {lp} is over"));
        state.sieges.retain(|s| s.lp != lp);
    }
}

/// The side besieged at `lp`, if any.
pub fn besieged_at(state: &State, lp: &str) -> Option<Side> {
    at(state, lp).map(|s| s.besieged)
}
