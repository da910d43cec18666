//! The turn (1.1, 1.2, 3.2, the 1900 sequence): the clock, the weather roll at 0700, the fog
//! rolls at 0900 and 1100, the Air Drop? counters and the drops they bring, Club Route at
//! 1900 (4.2), and the end of a turn (barrages off, the clock moves on).

use super::data::{Spur, Weather, DATA, TURNS};
use super::hex::Hex;
use super::state::{AirDropCounters, Phase, State, Wait};
use super::{d10, rule};
use crate::engine::ruleset::{Ctx, RuleError};

pub use super::sequence::{NIGHT, T0700, T0900, T1100, T1300, T1500, T1700, T1900};

/// Starts the turn the clock shows: reveals and drops due, off-map arrivals at 0700, then the
/// turn's first phase.
pub fn enter_turn(s: &mut State, ctx: &mut Ctx) -> Result<(), RuleError> {
    if s.time == T0700 {
        s.weather = None;
        s.fog_cleared = None;
        super::supply::kg_chill(s, ctx);
        super::offmap::arrive(s, ctx);
    }
    // 3.5: the supply drop's counters flip at the first candidate turn; it lands on its turn.
    if let Some(c) = &s.supply.counters {
        if c.day == s.day && c.revealed.is_none() && c.candidates[0] == s.time {
            ctx.say(format!(
                "{}: the Allied player flips the supply drop's Air Drop? counter",
                s.clock()
            ));
            ctx.request_reveal(c.commitment.clone());
        }
        if c.day == s.day && c.revealed == Some(s.time) {
            super::supply::supply_drop(s, ctx);
        }
    }
    if let Some(c) = &s.air_drop {
        if c.day == s.day && c.revealed.is_none() && c.candidates[0] == s.time {
            ctx.say(format!(
                "{}: the Allied player flips his Air Drop? counter",
                s.clock()
            ));
            ctx.request_reveal(c.commitment.clone());
        }
    }
    if let Some(c) = &s.air_drop {
        if c.day == s.day && c.revealed == Some(s.time) {
            arrive(s, ctx);
        }
    }
    // S5.5: KG Huber's master is opened at 0700 18 Sept; under KG Chill it enters Night 21.
    if (s.day, s.time) == (18, T0700) {
        if let (Some(c), None) = (&s.huber.commitment, &s.huber.chosen) {
            ctx.request_reveal(c.clone());
        }
    }
    if (s.day, s.time) == (21, NIGHT) && s.huber.chosen.as_deref() == Some("chill") {
        ctx.say("Night 21 Sept: KG Huber enters, a KG Chill Formation (S5.5)");
    }
    // S5.2: the raid marker of this night turns up.
    if s.time == NIGHT {
        if let Some(m) = s
            .raid_markers
            .iter()
            .find(|m| m.day == s.day && m.revealed.is_none())
        {
            ctx.request_reveal(m.commitment.clone());
        }
    }
    s.impulse = super::state::Side::Allied;
    s.actions = 0;
    s.chit = None;
    s.end_wait(Wait::is_status_check);
    s.window = None;
    s.pending = None;
    s.highway.attacked_this_turn = false;
    s.highway.closed_this_turn = false;
    // A German unit on Club Route at any time of the turn closes it (4.3.3).
    if s.units
        .iter()
        .any(|(_, u)| u.side == super::state::Side::German && s.club_route.contains(&u.hex))
    {
        super::highway::closed(s, ctx, "a German unit is on Club Route");
    }
    if s.time == T0700 {
        s.phase = Phase::Weather;
    } else if matches!(s.weather, Some(Weather::Fog { .. })) && (s.time == T0900 || s.time == T1100)
    {
        s.phase = Phase::Fog;
    } else if s.time == T1900 && s.marker.is_some() {
        s.phase = Phase::Route;
    } else if s.time == T1900 {
        after_route(s, ctx)?;
    } else if !super::specials::huber_phase(s) {
        super::sequence::to_buy(s);
    }
    Ok(())
}

/// 1900 steps 2 to 5 after the Club Route marker: releases (not on the 17th), the status set
/// Open, the German off-map moves and the flank corps (campaign), then step 6.
pub fn after_route(s: &mut State, ctx: &mut Ctx) -> Result<(), RuleError> {
    if super::release::begin(s, ctx) {
        return Ok(());
    }
    after_release(s, ctx)
}

/// 1900 steps 3 to 5, then step 6.
pub fn after_release(s: &mut State, ctx: &mut Ctx) -> Result<(), RuleError> {
    s.baileys_placed = 0;
    s.bulldozers_placed = 0;
    status_open(s, ctx);
    if super::offmap::begin(s, ctx)? {
        return Ok(());
    }
    after_offmap(s, ctx);
    Ok(())
}

/// 1900 step 5 (the flank corps), then step 6.
pub fn after_offmap(s: &mut State, ctx: &mut Ctx) {
    super::offmap::corps(s, ctx);
    super::sequence::to_buy(s);
}

/// The drop due today comes in now (3.2, 3.4).
pub fn arrive(s: &mut State, ctx: &mut Ctx) {
    let (day, time) = (s.day, s.time);
    if let Some(d) = s
        .drops
        .iter_mut()
        .find(|d| d.arrived.is_none() && d.day == day)
    {
        d.arrived = Some((day, time));
        let n = d.number;
        if let Some(c) = &d.plan_commitment {
            if d.plan.is_none() {
                ctx.request_reveal(c.clone());
            }
        }
        super::supply::supply_drop(s, ctx);
        ctx.say(format!(
            "{}: Drop {n} comes in. Place each unit in any hex of its zone, not in Column, with a glider/paradrop marker (+1 per delay); roll each on the Drop Table at its first activation (droproll)",
            s.clock()
        ));
    }
}

/// No drop today: every drop not yet in moves a day later (3.2 step 2, "move all drops
/// forward 1 day"), so there is still never more than one a day.
fn delay_drops(s: &mut State, ctx: &mut Ctx, why: &str) {
    if s.drop_due().is_none() {
        return;
    }
    for d in s.drops.iter_mut().filter(|d| d.arrived.is_none()) {
        d.day += 1;
        ctx.say(format!(
            "Drop {} is delayed a day, to {} Sept ({why})",
            d.number, d.day
        ));
    }
}

/// 0700: the weather roll (1.2, 3.2).
pub fn weather(s: &mut State, ctx: &mut Ctx) {
    let face = d10(ctx);
    let w = DATA.weather_for(face);
    s.weather = Some(w);
    ctx.say(format!(
        "{}: the weather roll is {face}: {}",
        s.clock(),
        w.name()
    ));
    if matches!(w, Weather::Rain | Weather::Overcast) {
        delay_drops(s, ctx, "no drop in rain or overcast");
    }
    super::supply::after_dz(s, ctx);
}

/// 0900 or 1100 in fog: roll the clear number or less to clear it (1.2).
pub fn fog(s: &mut State, ctx: &mut Ctx) -> Result<(), RuleError> {
    let Some(Weather::Fog { clear }) = s.weather else {
        return Err(rule("1.2 Fog", "there is no fog to roll for"));
    };
    let face = d10(ctx);
    if face <= clear {
        s.weather = Some(Weather::Clear);
        s.fog_cleared = Some(s.time);
        ctx.say(format!(
            "{}: fog roll {face}, {clear} or less: the fog clears; clear for the rest of the day",
            s.clock()
        ));
        if let Some(d) = s.drop_due() {
            // 3.6: a drop replanned today comes at 1500 or 1700.
            s.phase = Phase::AirDrop {
                candidates: if d.replanned_day == Some(s.day) {
                    [T1500, T1700]
                } else {
                    [s.time + 2, s.time + 3]
                },
            };
            return Ok(());
        }
    } else if s.time == T1100 {
        s.weather = Some(Weather::Overcast);
        ctx.say(format!(
            "{}: fog roll {face}, more than {clear}: the fog stays; the day is overcast",
            s.clock()
        ));
        delay_drops(s, ctx, "the fog did not clear");
        if super::supply::supply_counters(s, ctx) {
            return Ok(());
        }
    } else {
        ctx.say(format!(
            "{}: fog roll {face}, more than {clear}: the fog stays this turn",
            s.clock()
        ));
    }
    super::sequence::to_buy(s);
    Ok(())
}

/// The Air Drop? counters placed (3.2): the choice is sealed; the state keeps its commitment.
pub fn air_drop(s: &mut State, ctx: &mut Ctx, at: Option<&str>) -> Result<(), RuleError> {
    let Phase::AirDrop { candidates } = s.phase else {
        return Err(rule("3.2 When to Drop", "no drop is being placed now"));
    };
    if let Some(t) = at {
        let i = super::data::turn_index(t).unwrap_or(99);
        if !candidates.contains(&i) {
            return Err(rule(
                "3.2 When to Drop",
                format!(
                    "the drop may come at {} or {}, not {t}",
                    TURNS[candidates[0]], TURNS[candidates[1]]
                ),
            ));
        }
    }
    let commitment = ctx
        .commitment()
        .ok_or_else(|| {
            rule(
                "3.2 When to Drop",
                "the Air Drop? choice is sealed by the server: send it as 'airdrop <turn>'",
            )
        })?
        .to_owned();
    s.air_drop = Some(AirDropCounters {
        day: s.day,
        candidates,
        commitment,
        revealed: None,
    });
    ctx.say(format!(
        "The Allied player places his Air Drop? counters on {} and {}",
        TURNS[candidates[0]], TURNS[candidates[1]]
    ));
    super::sequence::to_buy(s);
    Ok(())
}

/// 1900 steps 1 and 3: the Club Route marker (4.2) and the status set Open.
pub fn route(s: &mut State, ctx: &mut Ctx, path: &[Hex]) -> Result<(), RuleError> {
    let r = |m: String| rule("4.2 Establishing Club Route", m);
    let marker = s
        .marker
        .ok_or_else(|| r("the Club Route marker is off the map".into()))?;
    if !path.is_empty() {
        let mut at = marker;
        for &h in path {
            if !at.adjacent(h) {
                return Err(r(format!(
                    "{at} and {h} are not adjacent: trace Club Route hex by hex"
                )));
            }
            if s.club_route.contains(&h) || path.iter().filter(|&&x| x == h).count() > 1 {
                return Err(r(format!(
                    "{h} is Club Route already: the marker never goes back"
                )));
            }
            if let Some((name, _)) = s
                .units
                .iter()
                .find(|(_, u)| u.side == super::state::Side::German && u.hex == h)
            {
                return Err(r(format!("the trace meets the German unit {name} at {h}: stop at the last Stop hex before it")));
            }
            at = h;
        }
        super::bridges::check_route(s, marker, path)?;
        let end = *path.last().expect("not empty");
        let spur = DATA.stop(end).ok_or_else(|| {
            r(format!(
                "{end} is not a Club Route Stop hex: the marker stops on one"
            ))
        })?;
        for &h in path {
            if let (Some(chosen), Some(other @ (Spur::Best | Spur::Son))) = (s.spur, DATA.stop(h)) {
                if chosen != other {
                    return Err(r(format!(
                        "{h} is on the spur not chosen: it may never be Club Route"
                    )));
                }
            }
        }
        // 2.11: a stream bridge not yet checked is rolled for as the trace crosses it; on a 9
        // the marker goes back to the last Stop hex before it.
        let n = super::bridges::roll_route(s, ctx, marker, path);
        if n == 0 {
            ctx.say("The Club Route marker stays: no Stop hex before the unstable bridge");
            return after_route(s, ctx);
        }
        let path = &path[..n];
        let end = *path.last().expect("not empty");
        let spur = DATA.stop(end).unwrap_or(spur);
        if spur != Spur::Common {
            s.spur = Some(spur);
        }
        s.club_route.push(marker);
        s.club_route.extend(&path[..path.len() - 1]);
        if end == DATA.route_end {
            s.club_route.push(end);
            s.marker = None;
            s.route_cleared_day = Some(s.day);
            ctx.say(format!(
                "Club Route is clear to {end}: the marker comes off the map on {} Sept (4.3.1)",
                s.day
            ));
        } else {
            s.marker = Some(end);
            ctx.say(format!("The Club Route marker advances to {end}"));
        }
    } else {
        ctx.say("The Club Route marker stays");
    }
    after_route(s, ctx)
}

/// 1900 step 3: the status marker goes to Open unless a bridge on Club Route is destroyed.
fn status_open(s: &mut State, ctx: &mut Ctx) {
    if super::highway::destroyed_bridge_on_route(s) {
        s.highway.cut = true;
        ctx.say("Club Route stays Cut: a bridge on it is destroyed (4.3.3)");
    } else if s.highway.cut {
        s.highway.cut = false;
        ctx.say("The Club Route status marker is set to Open");
    }
}

/// The mug is empty: step 10 (barrages off) and 11 (the clock moves on).
pub fn end_turn(s: &mut State, ctx: &mut Ctx) -> Result<(), RuleError> {
    if !s.barrages.is_empty() {
        s.barrages.clear();
        ctx.say("All barrage markers come off");
    }
    super::specials::flip_flak(s, ctx);
    if (s.day, s.time) >= s.last {
        s.over = true;
        s.phase = Phase::Over;
        ctx.say(format!(
            "{}: the scenario ends. {}",
            s.clock(),
            super::victory::line(s)
        ));
        return Ok(());
    }
    if s.time == NIGHT {
        s.day += 1;
        s.time = T0700;
    } else {
        s.time += 1;
    }
    enter_turn(s, ctx)
}
