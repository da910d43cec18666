//! The 0700 extras: changing the drop location (3.6), the 101st's daily supply drop and its
//! interdiction (3.5, S6.1.1), and KG Chill replacing the Eindhoven Regional Command at 0700
//! 20 September (S5.1.1). The DZ/LZ Changing Table is `data/dz_change.txt` (reconstructed).

use super::data::{ChangeResult, Weather, DATA, TURNS};
pub use super::in_play::{chit_in_play, in_play};
use super::sequence::{T0900, T1100, T1300, T1500, T1700};
use super::state::{AirDropCounters, Phase, Side, State};
use super::{d10, rule};
use crate::engine::ruleset::{Ctx, RuleError};

const S3_5: &str = "3.5 Supply Drop Zones";
const S3_6: &str = "3.6 Changing the Drop Location";

/// The airborne division whose drops and supply this map has (3.5).
pub const AIRBORNE: &str = "101st";

/// The drop of the day, if the weather brings it (3.2); else the supply drop's counters (3.5);
/// then step 6.
pub fn after_dz(s: &mut State, ctx: &mut Ctx) {
    let replanned = s.drop_due().is_some_and(|d| d.replanned_day == Some(s.day));
    match s.weather {
        Some(Weather::Clear) if s.drop_due().is_some() => {
            s.phase = Phase::AirDrop {
                candidates: if replanned {
                    [T1500, T1700]
                } else {
                    [T0900, T1100]
                },
            };
        }
        Some(Weather::Fog { .. }) if s.drop_due().is_some() => super::sequence::to_buy(s),
        _ => {
            if !supply_counters(s, ctx) {
                super::sequence::to_buy(s);
            }
        }
    }
}

/// When the 101st gets no reinforcements today, its supply drop comes at 1300 or 1500, the
/// Allied player's sealed choice (3.5). Returns true when the counters are to be placed.
pub fn supply_counters(s: &mut State, ctx: &mut Ctx) -> bool {
    if !supplied_by_air(s) || s.supply.today == Some(s.day) || s.time > T1100 {
        return false;
    }
    if s.supply.counters.as_ref().is_some_and(|c| c.day == s.day) {
        return false;
    }
    s.phase = Phase::SupplyDrop {
        candidates: [T1300, T1500],
    };
    ctx.say(format!(
        "{}: no reinforcements for the {AIRBORNE} today: its supply drop comes at 1300 or 1500 (3.5)",
        s.clock()
    ));
    true
}

/// Does the 101st still depend on supply drops (3.5: until its Sea Tail arrives)?
pub fn supplied_by_air(s: &State) -> bool {
    !s.drops.is_empty() && !s.supply.ended
}

/// The supply drop's Air Drop? counters placed (sealed, 3.5).
pub fn place_counters(s: &mut State, ctx: &mut Ctx, at: Option<&str>) -> Result<(), RuleError> {
    let Phase::SupplyDrop { candidates } = s.phase else {
        return Err(rule(S3_5, "no supply drop is being placed now"));
    };
    if let Some(t) = at {
        let i = super::data::turn_index(t).unwrap_or(99);
        if !candidates.contains(&i) {
            return Err(rule(
                S3_5,
                format!(
                    "the supply drop comes at {} or {}, not {t}",
                    TURNS[candidates[0]], TURNS[candidates[1]]
                ),
            ));
        }
    }
    let commitment = ctx
        .commitment()
        .ok_or_else(|| {
            rule(
                S3_5,
                "the supply drop's turn is sealed by the server: send it as 'airdrop <turn>'",
            )
        })?
        .to_owned();
    s.supply.counters = Some(AirDropCounters {
        day: s.day,
        candidates,
        commitment,
        revealed: None,
    });
    ctx.say(format!(
        "The Allied player places the supply drop's Air Drop? counters on {} and {}",
        TURNS[candidates[0]], TURNS[candidates[1]]
    ));
    super::sequence::to_buy(s);
    Ok(())
}

/// The supply drop lands (3.5, S6.1.1): a German unit in a hex of the supply drop zone
/// interdicts it (SDZ Closed: the 101st's TQ −1 until a drop that is not interdicted).
pub fn supply_drop(s: &mut State, ctx: &mut Ctx) {
    if !supplied_by_air(s) || s.supply.today == Some(s.day) {
        return;
    }
    s.supply.today = Some(s.day);
    let zone = s.supply.dz.clone();
    let hexes = DATA
        .zones
        .get(&zone)
        .map(|z| z.1.clone())
        .unwrap_or_default();
    let german = s
        .units
        .iter()
        .find(|(_, u)| u.side == Side::German && hexes.contains(&u.hex))
        .map(|(n, u)| format!("{n} at {}", u.hex));
    match german {
        Some(g) => {
            s.supply.interdicted = true;
            ctx.say(format!(
                "{}: the {AIRBORNE} supply drop in zone {zone} is interdicted ({g}): SDZ Closed, every {AIRBORNE} unit's Troop Quality −1 until a supply drop that is not interdicted (3.5, S6.1.1)",
                s.clock()
            ));
        }
        None => {
            ctx.say(format!(
                "{}: the {AIRBORNE} supply drop lands in zone {zone}{}",
                s.clock(),
                if s.supply.interdicted {
                    ": SDZ open again, the Troop Quality penalty ends (S6.1.1)"
                } else {
                    ""
                }
            ));
            s.supply.interdicted = false;
        }
    }
}

/// The 101st Sea Tail arrived: always in supply from now on (3.5).
pub fn sea_tail_arrived(s: &mut State, division: &str) {
    if division == AIRBORNE {
        s.supply.ended = true;
        s.supply.interdicted = false;
    }
}

/// `dzchange <zone>` (3.6): the roll on the DZ/LZ Changing Table. Success: every remaining
/// drop is planned again (sealed, as a free drop, 3.3.2) and `zone` becomes the supply drop
/// zone; today's replanned drop comes at 1500 or 1700. Abort: every scheduled drop a day
/// later. No effect: nothing.
pub fn dz_change(s: &mut State, ctx: &mut Ctx, zone: &str) -> Result<(), RuleError> {
    if !DATA.zones.contains_key(zone) {
        return Err(rule(
            S3_6,
            format!("no airborne zone '{zone}': the new supply drop zone is A1, A, B, C or W"),
        ));
    }
    let face = d10(ctx);
    let result = DATA.change_result(face);
    s.dz_tried = Some(s.day);
    match result {
        ChangeResult::Success => {
            s.supply.dz = zone.to_owned();
            let day = s.day;
            let mut first = None;
            for d in s.drops.iter_mut().filter(|d| d.arrived.is_none()) {
                d.plan = None;
                if let Some(c) = d.plan_commitment.take() {
                    s.superseded.push(c);
                }
                d.replanned_day = Some(day);
                first.get_or_insert(d.number);
            }
            ctx.say(format!(
                "Drop zone change, the die reads {face}: success. The Allied player plans every remaining drop again, sealed (3.3.2); the {AIRBORNE} supply drop zone is now {zone}; a replanned drop due today comes at 1500 or 1700 (3.6)"
            ));
            s.phase = Phase::Replan {
                next: first.unwrap_or(1),
            };
        }
        ChangeResult::Abort => {
            for d in s.drops.iter_mut().filter(|d| d.arrived.is_none()) {
                d.day += 1;
            }
            ctx.say(format!(
                "Drop zone change, the die reads {face}: abort. Nothing changes and every scheduled drop of the {AIRBORNE} is delayed 24 hours (3.6)"
            ));
            after_dz(s, ctx);
        }
        ChangeResult::NoEffect => {
            ctx.say(format!(
                "Drop zone change, the die reads {face}: no effect; the drops come as planned (3.6)"
            ));
            after_dz(s, ctx);
        }
    }
    Ok(())
}

/// S5.1.1: at the start of the 0700 20 September turn the KG Chill display replaces the
/// Eindhoven Regional Command's; its formations keep their places, its points and chits pass
/// to KG Chill.
pub fn kg_chill(s: &mut State, ctx: &mut Ctx) {
    if s.kg_chill || s.day < 20 {
        return;
    }
    s.kg_chill = true;
    let cp = s.cp.remove("erc").unwrap_or(0);
    let dp = s.dp.remove("erc").unwrap_or(0);
    *s.cp.entry("chill".into()).or_default() += cp;
    *s.dp.entry("chill".into()).or_default() += dp;
    if let Some(h) = s.held.as_mut() {
        if let Some(rest) = h.strip_suffix("-erc") {
            *h = format!("{rest}-chill");
        } else if let Some(rest) = h.strip_prefix("f-erc-") {
            *h = format!("f-chill-{rest}");
        }
    }
    ctx.say("0700 20 Sept: the KG Chill display replaces the Eindhoven Regional Command's; its formations stay where they are, its Command and Dispatch Points and chits pass to KG Chill. From now on every German TQ rating on this map is one higher, and every white assault rating (S5.1.1)");
}

/// The Troop Quality modifiers in force that the exclusive rules give (for the board and the
/// players' passing faces).
pub fn tq_modifiers(s: &State) -> Vec<String> {
    let mut out = Vec::new();
    if s.supply.interdicted {
        out.push(format!("{AIRBORNE} −1 (SDZ Closed, S6.1.1)"));
    }
    if s.highway.cut {
        out.push("Guards Armored −2 (Club Route Cut, S6.1.2)".into());
    }
    if s.kg_chill {
        out.push("German +1, white assault +1 (KG Chill, S5.1.1)".into());
    }
    out
}
