//! 1900 step 2: the release of XXX Corps Formations from the Club Route line on the Guards
//! Armored display (4.3.1) with the die roll modifiers of 4.3.2. Not on the 17 September turn.
//! The first Formation in line is released automatically; each next one is rolled for (the
//! Allied player states the Dispatch Points he pays, `release [dp <n>]`) until a roll fails;
//! "Auto" Formations need no roll but count as entries; Formations of The Devil's Cauldron
//! suspend the release until the Club Route marker is off this map; the 1st AB Sea Tail is
//! always bypassed; a Sea Tail released before the marker reached its stop is ignored (3.5).
//! The line is `data/release_line.txt`.

use super::data::{ReleaseDef, DATA};
use super::state::{Phase, State};
use super::{d10, rule};
use crate::engine::ruleset::{Ctx, RuleError};

const R: &str = "4.3.2 Die Roll Modifiers for Release";

/// The next Formation on the line not yet released.
pub fn next(s: &State) -> Option<&'static ReleaseDef> {
    DATA.release_line
        .iter()
        .find(|e| !s.released.contains(&e.id))
}

/// Step 2 begins: no release on 17 September; else the first in line comes automatically and
/// the line advances to the first roll. Returns true when a roll awaits the Allied player.
pub fn begin(s: &mut State, ctx: &mut Ctx) -> bool {
    s.entries = 0;
    if s.day == 17 {
        return false;
    }
    advance(s, ctx, true)
}

/// Releases what needs no roll; true when the next Formation waits for its roll.
fn advance(s: &mut State, ctx: &mut Ctx, mut first: bool) -> bool {
    while let Some(e) = next(s) {
        if e.bypassed {
            s.released.push(e.id.clone());
            ctx.say(format!(
                "{} is bypassed: not used in Where Eagles Dare (4.3.1)",
                e.name
            ));
            continue;
        }
        if e.tdc && s.marker.is_some() {
            ctx.say(format!(
                "{} waits: the release is suspended until the Club Route marker is off the map (4.3.1)",
                e.name
            ));
            return false;
        }
        if first || e.number.is_none() {
            let why = if first {
                "the first in line, released automatically"
            } else {
                "Auto"
            };
            enter(s, ctx, e, why);
            first = false;
            continue;
        }
        s.phase = Phase::Release;
        return true;
    }
    ctx.say("The Club Route line is empty: every Formation is released");
    false
}

/// A Formation released: it counts as an entry (+1 to the next roll, 4.3.2).
fn enter(s: &mut State, ctx: &mut Ctx, e: &ReleaseDef, why: &str) {
    s.released.push(e.id.clone());
    s.entries += 1;
    let placed = if let Some(division) = &e.sea_tail {
        let stops = DATA.sea_tails.get(division).cloned().unwrap_or_default();
        let reached = s.marker.is_none()
            || stops
                .iter()
                .any(|h| s.club_route.contains(h) || s.marker == Some(*h));
        if reached {
            super::supply::sea_tail_arrived(s, division);
            format!("the {division} Sea Tail: that Division is always in supply (3.5)")
        } else {
            format!(
                "but the marker has not reached {}: the Sea Tail is ignored and never arrives (3.5)",
                stops.first().map_or("its stop".into(), |h| h.to_string())
            )
        }
    } else if e.tdc || e.is_43rd {
        "counted for victory; its units play on The Devil's Cauldron's maps (4.3.1)".into()
    } else if e.number.is_none() {
        "its units enter at their reinforcement hex".into()
    } else if let Some(h) = s.marker {
        format!("placed on the Club Route marker at {h}, in Column (stacking suspended)")
    } else {
        "the marker is off the map: its units no longer appear on this map (4.3.1)".into()
    };
    ctx.say(format!("{} is released ({why}): {placed}", e.name));
}

/// `release [dp <n>]`: the roll for the next Formation, every modifier of 4.3.2. Returns true
/// when another roll awaits.
pub fn roll(s: &mut State, ctx: &mut Ctx, dp: u32) -> Result<bool, RuleError> {
    let e = next(s).ok_or_else(|| rule(R, "no Formation waits for its roll"))?;
    let number = e
        .number
        .ok_or_else(|| rule(R, "an Auto Formation needs no roll"))?;
    if dp > 0 {
        let Some(parent) = &e.dp else {
            return Err(rule(
                R,
                if e.is_43rd {
                    format!("{}: the 43rd has no Dispatch Points to spend; it always has −4 (roll: release)", e.name)
                } else {
                    format!(
                        "{}: its Parent Formation has no Dispatch Points here (roll: release)",
                        e.name
                    )
                },
            ));
        };
        let have = s.dp.get(parent).copied().unwrap_or(0);
        if dp > 4 || dp > have {
            return Err(rule(
                R,
                format!(
                    "the {parent} may pay at most 4 Dispatch Points and has {have}: release dp 0 to {}",
                    have.min(4)
                ),
            ));
        }
        *s.dp.entry(parent.clone()).or_default() -= dp;
    }
    let mut mods: Vec<(i32, String)> = Vec::new();
    if s.baileys_placed > 0 {
        mods.push((
            2 * s.baileys_placed as i32,
            format!("{} Bailey", s.baileys_placed),
        ));
    }
    if s.bulldozers_placed > 0 {
        mods.push((
            s.bulldozers_placed as i32,
            format!("{} Bulldozer", s.bulldozers_placed),
        ));
    }
    if s.highway.cut {
        mods.push((2, "Club Route Cut".into()));
    }
    if s.entries > 0 {
        mods.push((s.entries as i32, format!("{} entries this turn", s.entries)));
    }
    if dp > 0 {
        mods.push((-(dp as i32), format!("{dp} DP paid")));
    }
    if e.is_43rd {
        mods.push((-4, "43rd, assumed DP".into()));
    }
    let face = d10(ctx);
    let total = face as i32 + mods.iter().map(|m| m.0).sum::<i32>();
    let released = total <= number as i32;
    let shown: Vec<String> = mods.iter().map(|(n, w)| format!("{n:+} {w}")).collect();
    ctx.say(format!(
        "Release roll for {}: {face}{}{} = {total}, needs {number} or less: {}",
        e.name,
        if shown.is_empty() { "" } else { " " },
        shown.join(" "),
        if released {
            "released"
        } else {
            "not released; no more releases until the next 1900"
        }
    ));
    if !released {
        return Ok(false);
    }
    enter(s, ctx, e, "rolled");
    Ok(advance(s, ctx, false))
}

/// 4.3.1: where a Unit of a Formation on the Club Route line enters (option `release_entry`,
/// decision 28). Checked when the Allied player first places it (`move`): before its Formation
/// is released it is not placed at all; once released, "that entire Formation is placed on the
/// Club Route Marker" — "All units must enter the game in the furthest advanced Club Route hex
/// (the current hex in which the Club Route marker is placed)" and "They must arrive in
/// column". With the marker off the map its Units "no longer appear on the Where Eagles Dare
/// maps"; Formations of The Devil's Cauldron never do. "Auto" Formations enter at their
/// reinforcement hex (the schedule, not in the text: not checked), and a Formation part of
/// which starts on the map (Group Hot) is not checked.
pub fn check_entry(
    s: &State,
    side: super::state::Side,
    unit: &str,
    at: super::hex::Hex,
    column: bool,
) -> Result<(), RuleError> {
    if side != super::state::Side::Allied || !s.release_entry || s.units.contains_key(unit) {
        return Ok(());
    }
    let Some(f) = super::oob::OOB.formation_of(unit) else {
        return Ok(());
    };
    let Some(e) = DATA
        .release_line
        .iter()
        .find(|e| e.formation.as_deref() == Some(f.id.as_str()))
    else {
        return Ok(());
    };
    if e.on_map {
        return Ok(());
    }
    let r = |m: String| rule("4.3.1 Release of new units", m);
    if !s.released.contains(&e.id) {
        return Err(r(format!(
            "{unit} is of {}, still on the Club Route line of the Guards Armored display: its Units enter when it is released (1900, step 2), in the Club Route marker's hex",
            e.name
        )));
    }
    if e.tdc || e.is_43rd {
        return Err(r(format!(
            "{unit} is of {}: its Units are placed on The Devil's Cauldron's maps only",
            e.name
        )));
    }
    if e.number.is_none() {
        return Ok(());
    }
    let Some(m) = s.marker else {
        return Err(r(format!(
            "the Club Route marker is off the map: {}'s Units no longer appear on the Where Eagles Dare map",
            e.name
        )));
    };
    if at != m {
        return Err(r(format!(
            "{unit} of {} enters in the Club Route marker's hex {m}, not {at}: 'move {unit} {m} column'",
            e.name
        )));
    }
    if !column {
        return Err(r(format!(
            "released units arrive in Column: 'move {unit} {m} column'"
        )));
    }
    Ok(())
}
