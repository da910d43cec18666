//! The Hell's Highway box (4.3.3): the Attacked and Closed markers the chapters add, one of
//! each a turn, and whether a destroyed bridge stands on Club Route. A leaf under the chapters.

use super::data::DATA;
use super::state::State;
use crate::engine::ruleset::Ctx;

/// A Club Route Attacked marker into the Hell's Highway box, one a turn (4.3.3).
pub fn attacked(s: &mut State, ctx: &mut Ctx, why: &str) {
    if s.highway.attacked_this_turn {
        ctx.say(format!(
            "Club Route is attacked again ({why}): one Attacked marker a turn, this one is ignored"
        ));
        return;
    }
    s.highway.attacked_this_turn = true;
    s.highway.attacked += 1;
    ctx.say(format!(
        "Club Route Attacked marker to the Hell's Highway box ({why})"
    ));
}

/// A Club Route Closed marker, one a turn (4.3.3).
pub fn closed(s: &mut State, ctx: &mut Ctx, why: &str) {
    if s.highway.closed_this_turn {
        return;
    }
    s.highway.closed_this_turn = true;
    s.highway.closed += 1;
    ctx.say(format!(
        "Club Route Closed marker to the Hell's Highway box ({why})"
    ));
}

/// Is a destroyed bridge on Club Route (both its hexes Club Route, or one and the marker)?
pub fn destroyed_bridge_on_route(s: &State) -> bool {
    DATA.bridges.iter().any(|b| {
        s.bridges.get(&b.name).is_some_and(|x| !x.open())
            && s.club_route.contains(&b.hexes.0)
            && s.club_route.contains(&b.hexes.1)
    })
}
