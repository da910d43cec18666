//! Declared rolls and the exclusive consequences the engine applies to them. The series
//! decides fire, assault, troop quality, rally and barrage results; the player states the facts
//! and the passing faces or, after the die, the CRT result class, and Despatch applies what
//! the exclusive rules add: a fire "9" draws an event (S3.0), German fire or a light barrage
//! on Club Route is Attacked and a heavy barrage or a German unit on it Closed (4.3.3),
//! artillery "0" on a city or fortified hex makes rubble (2.9, 2.10), bridge wiring and
//! demolition (2.15.5–2.15.6), the Drop Table's modifiers (3.4.1) and the status check (4.3.3).

use super::data::DATA;
use super::hex::Hex;
use super::order::faces_text;
use super::state::{Bridge, Pending, Side, State, Unit, Wait};
use super::terrain::Terrain;
use super::{d10, rule};
use crate::engine::ruleset::{Ctx, RuleError};

use super::highway::{attacked, closed, destroyed_bridge_on_route};

/// Decision 50: an armor Unit of the order of battle is its own vehicle, so it always moves as
/// its organic transport says (`tracked`, or `wheeled` for wheels or a truck), whether the
/// order says so or not; another word is refused. Other Units choose: on their legs, or
/// `mounted` on their organic transport (decision 23).
fn armor_transport(
    unit: &str,
    said: Option<super::order::Transport>,
) -> Result<Option<super::order::Transport>, RuleError> {
    use super::order::Transport;
    let Some(d) = super::oob::OOB
        .unit(unit)
        .filter(|d| d.class == super::oob::Class::Armor)
    else {
        return Ok(said);
    };
    let own = match d.transport.as_deref() {
        Some("wheeled" | "truck") => Transport::Wheeled,
        _ => Transport::Tracked,
    };
    match said {
        Some(t) if t != own => Err(rule(
            "moves",
            format!(
                "{unit} is an armor Unit of the order of battle, {}: it moves {} (leave the word out or say '{}')",
                own.name(),
                own.name(),
                own.name()
            ),
        )),
        _ => Ok(Some(own)),
    }
}

/// `move <unit> <hex> …`: the path is kept as positions; each step must be adjacent. A unit
/// first named is placed on the path's first hex. Bridges are crossed as 2.11–2.18 allow (a
/// vehicle's first crossing of a stream bridge rolls for its stability and may stop it); a
/// German unit entering Club Route closes it. Returns the hex the unit stops in and how many
/// hexes of `path` it went through (a stop before an unstable bridge or a demolition leaves
/// the rest out).
#[allow(clippy::too_many_arguments)]
pub fn move_unit(
    s: &mut State,
    ctx: &mut Ctx,
    side: Side,
    unit: &str,
    path: &[Hex],
    column: bool,
    transport: Option<super::order::Transport>,
    cohesion: bool,
) -> Result<(Hex, usize), RuleError> {
    let r = |m: String| rule("moves", m);
    let transport = armor_transport(unit, transport)?;
    if let Some(own) = super::oob::OOB.side_of(unit).filter(|o| *o != side) {
        return Err(rule(
            "order of battle",
            format!("{unit} is a {} unit of the order of battle", own.name()),
        ));
    }
    // S3.1 Rout: "Once removed, 59th Infantry Division Units never return to play" (decision 43).
    if !s.units.contains_key(unit)
        && s.gone.iter().any(|g| g == unit)
        && super::oob::OOB.division_of(unit) == Some("59th")
    {
        return Err(rule(
            "S3.1 Rout",
            format!("{unit} was removed from play with its routed 59th Formation: 59th Infantry Division Units never return to play; move another unit"),
        ));
    }
    let (start, steps) = match s.units.get(unit) {
        Some(u) if u.side != side => return Err(r(format!("{unit} is a {} unit", u.side.name()))),
        Some(u) => (u.hex, path),
        None => (path[0], &path[1..]),
    };
    let mut at = start;
    for &h in steps {
        if !at.adjacent(h) {
            return Err(r(format!(
                "{at} and {h} are not adjacent: give the path hex by hex"
            )));
        }
        at = h;
    }
    if side == Side::Allied
        && s.units
            .iter()
            .any(|(_, u)| u.side == Side::German && u.hex == at)
    {
        // Entering an enemy hex is an assault, not a move.
        return Err(r(format!(
            "{at} holds a German unit: an Allied unit enters it by assault"
        )));
    }
    if side == Side::German
        && s.units
            .iter()
            .any(|(_, u)| u.side == Side::Allied && u.hex == at && !is_bulldozer(s, u.hex))
    {
        return Err(r(format!(
            "{at} holds an Allied unit: a German unit enters it by assault"
        )));
    }
    super::command::check_231(unit, path)?;
    let dropping = check_dropping(s, side, unit, path, column)?;
    super::release::check_entry(s, side, unit, path[0], column)?;
    let leaving = column_locks(s, unit, start, column, transport)?;
    if cohesion && !leaving.leg_off_raised {
        return Err(rule(
            "2.16 Raised Roads/Railroads",
            format!(
                "'cohesion' takes a Cohesion Hit instead of the movement point a Leg Unit pays to leave Column in a raised hex of the map: {unit} is not leaving Column on a raised road at {start}; drop the word"
            ),
        ));
    }
    check_raised_roadblocks(s, side, start, steps, column)?;
    let cost = map_cost(s, unit, start, steps, column, transport)?.map(|c| {
        c + if leaving.leg_off_raised && !cohesion {
            2
        } else {
            0
        }
    });
    super::events::check_move(s, unit, start, steps)?;
    super::german_lost::check_move(s, side, unit, start, steps)?;
    super::bridges::check_move(s, unit, start, steps, column, transport)?;
    super::units::check_action(s, unit, true, None)?;
    let known = s.units.contains_key(unit);
    let path_len = steps.len();
    let stop = super::bridges::demolition_stop(s, ctx, side, unit, start, !known, steps);
    let steps = &steps[..stop];
    let taken = super::bridges::roll_crossings(s, ctx, side, unit, start, steps, transport);
    let whole = taken == path_len;
    let steps = &steps[..taken];
    let end = steps.last().copied().unwrap_or(start);
    if end != start {
        // Decision 30: the Entrenched marker stays with the unit until it leaves its hex.
        s.entrenched.remove(unit);
    }
    // O3.0: a passed lost check is for the move that follows it.
    if let Some(a) = s.activity.get_mut(unit) {
        a.lost_checked = false;
    }
    s.units.insert(
        unit.to_owned(),
        Unit {
            side,
            hex: end,
            column,
        },
    );
    if let Some(d) = dropping {
        s.drop_awaiting.push(unit.to_owned());
        ctx.say(format!(
            "{unit} drops in {start}, zone {} (Drop {}): it rolls on the Drop Table {} before any other Action (3.4.1)",
            d.1,
            d.0,
            if d.0 == 1 {
                "at once"
            } else {
                "the first time it activates"
            }
        ));
    }
    match transport {
        Some(t) => {
            s.vehicles.insert(unit.to_owned(), t);
        }
        None => {
            s.vehicles.remove(unit);
        }
    }
    // The line names the path from the start hex, so a board can draw the last move
    // (`drawn::last_move` reads it back).
    let shown: Vec<String> = steps.iter().map(|h| h.to_string()).collect();
    ctx.say(format!(
        "{} {} {unit} {}{}{}{}",
        side.name(),
        if known { "moves" } else { "places" },
        if known && shown.is_empty() {
            format!("from {start}, stopped at once")
        } else if known {
            format!("from {start} to {}", shown.join(" "))
        } else {
            std::iter::once(start.to_string())
                .chain(shown)
                .collect::<Vec<_>>()
                .join(" ")
        },
        transport
            .map(|t| format!(" {}", t.name()))
            .unwrap_or_default(),
        if column { " in Column" } else { "" },
        cost.filter(|c| *c > 0 && whole)
            .map(|c| format!(" ({} MP on the map)", half_points(c)))
            .unwrap_or_default()
    ));
    if leaving.leg_off_raised && cohesion {
        let m = s.marks.entry(unit.to_owned()).or_default();
        m.cohesion += 1;
        ctx.say(format!(
            "{unit} leaves Column on the raised road at {start} and takes a Cohesion Hit instead of the movement point ({} on it; 2.16)",
            m.cohesion
        ));
    } else if leaving.leg_off_raised {
        ctx.say(format!(
            "{unit} leaves Column on the raised road at {start}: 1 movement point, counted in the move (2.16; or a Cohesion Hit instead: add 'cohesion')"
        ));
    }
    if leaving.dismounts_on_raised && !s.abandoned.iter().any(|u| u == unit) {
        s.abandoned.push(unit.to_owned());
        ctx.say(format!(
            "{unit} dismounts from its organic transport on the raised road at {start}: the vehicles are lost (abandoned transport marker, 2.16)"
        ));
    }
    super::bridges::after_move(s, ctx, side, unit, start, steps, transport);
    let entries: Vec<Hex> = (!known)
        .then_some(start)
        .into_iter()
        .chain(steps.iter().copied())
        .collect();
    super::bridges::entered(s, ctx, side, unit, &entries);
    super::units::after_move(s, ctx, side, unit, steps);
    super::events::after_move(s, unit);
    if side == Side::German
        && std::iter::once(start)
            .chain(steps.iter().copied())
            .any(|h| s.club_route.contains(&h))
    {
        closed(s, ctx, &format!("the German unit {unit} is on Club Route"));
    }
    Ok((end, usize::from(!known) + taken))
}

/// 3.4 (decision 24): an airborne Unit of the order of battle (`para` or `glider`) that has not
/// rolled, placed by the Allied player on a hex of an airborne zone on the turn the last drop
/// came, drops there: it is placed only (no further hexes) and not in Column, and waits for its
/// Drop Table roll. Returns the drop's number and the zone.
fn check_dropping(
    s: &State,
    side: Side,
    unit: &str,
    path: &[Hex],
    column: bool,
) -> Result<Option<(u8, String)>, RuleError> {
    let airborne = super::oob::OOB
        .unit(unit)
        .is_some_and(|u| u.para || u.glider);
    if side != Side::Allied
        || !airborne
        || s.units.contains_key(unit)
        || s.drop_rolled.iter().any(|u| u == unit)
    {
        return Ok(None);
    }
    let Some(d) = s
        .drops
        .iter()
        .filter(|d| d.arrived.is_some())
        .max_by_key(|d| d.number)
        .filter(|d| d.arrived == Some((s.day, s.time)))
    else {
        return Ok(None);
    };
    let at = path[0];
    let zones: Vec<String> = DATA
        .zones
        .iter()
        .filter(|(_, (_, hexes))| hexes.contains(&at))
        .map(|(z, _)| z.clone())
        .collect();
    let Some(first) = zones.first().cloned() else {
        return Ok(None);
    };
    // A hex of two zones (57.150, 57.151): the one the opened plan gives it.
    let zone = check_plan_zone(s, unit, d.number, &zones)?.unwrap_or(first);
    let r = |m: String| rule("3.4 How to Drop", m);
    if column {
        return Err(r(format!(
            "{unit} drops in {at} (zone {zone}, Drop {}): Units cannot drop in Column; place it without 'column'",
            d.number
        )));
    }
    if path.len() > 1 {
        return Err(r(format!(
            "{unit} drops in {at} (zone {zone}, Drop {}): it is placed there and rolls on the Drop Table before it moves; place it with 'move {unit} {at}'",
            d.number
        )));
    }
    Ok(Some((d.number, zone)))
}

/// What a move from a raised road's hex brings (2.16): a Leg Unit leaving Column there pays 1
/// movement point (or takes a Cohesion Hit, the player's choice); a Unit that rode its organic
/// transport in and walks out has dismounted there and loses its vehicles.
#[derive(Debug, Default)]
struct Leaving {
    leg_off_raised: bool,
    dismounts_on_raised: bool,
}

/// The Column locks, where the loaded map knows the unit's hex: a Wheeled or Tracked Unit in
/// a woods (2.4), town (2.8), city (2.9) or fortified (2.10) hex, or a Vehicle Unit in a raised
/// road's or railroad's hex (2.16), may not leave Column. The unit is Wheeled or Tracked when
/// the move stated it (`wheeled`, `tracked`, `mounted`) or it came into its hex so (decision
/// 23): a `wheeled` or `tracked` Unit is a Vehicle Unit whatever the next move says; a
/// `mounted` Leg Unit that moves on its legs has dismounted from its organic transport and is
/// a Leg Unit again (on a raised road, its vehicles are lost). A unit placed by the move, or not
/// in Column, leaves nothing.
fn column_locks(
    s: &State,
    unit: &str,
    start: Hex,
    column: bool,
    transport: Option<super::order::Transport>,
) -> Result<Leaving, RuleError> {
    use super::order::Transport;
    use super::terrain::Mobility;
    let mut leaving = Leaving::default();
    let (Some(m), Some(u)) = (&s.map, s.units.get(unit)) else {
        return Ok(leaving);
    };
    let came = s.vehicles.get(unit).copied();
    leaving.dismounts_on_raised = came == Some(Transport::Mounted)
        && transport.is_none()
        && m.map.hexes.get(&start).is_some_and(|x| x.raised);
    if column || !u.column {
        return Ok(leaving);
    }
    let vehicle = match (transport, came) {
        (Some(t), _) => Some(t),
        (None, Some(t @ (Transport::Wheeled | Transport::Tracked))) => Some(t),
        _ => None,
    };
    let mobility = match vehicle {
        None => Mobility::Leg,
        Some(Transport::Tracked) => Mobility::Tracked,
        // A Leg Unit riding its organic transport is a vehicle here, whichever its transport.
        Some(_) => Mobility::Wheeled,
    };
    match m.map.leave_column(mobility, start) {
        Ok(0) => {}
        Ok(_) => leaving.leg_off_raised = true,
        Err((section, what)) => {
            let kind = match vehicle {
                Some(Transport::Wheeled) => "a Wheeled Unit",
                Some(Transport::Tracked) => "a Tracked Unit",
                _ => "riding its organic transport",
            };
            let walk = if vehicle != Some(Transport::Mounted) {
                ""
            } else if section.starts_with("2.16") {
                ", or dismount it by moving it on its legs (its vehicles are lost)"
            } else {
                ", or dismount it by moving it on its legs"
            };
            return Err(rule(
                section,
                format!(
                    "{unit} is {kind} in Column in the {what} hex {start}: a Wheeled or Tracked Unit there may not leave Column; move it on in Column (add 'column'){walk}"
                ),
            ));
        }
    }
    Ok(leaving)
}

/// 2.16: a Unit in Column enters a raised road's or railroad's hex only if no road block stands
/// in it (option `roadblock_bars_own`, default on: any road block; off: the enemy's); a Leg
/// Unit not in Column enters it even so. Where the loaded map knows the hex.
fn check_raised_roadblocks(
    s: &State,
    side: Side,
    start: Hex,
    steps: &[Hex],
    column: bool,
) -> Result<(), RuleError> {
    let Some(m) = &s.map else {
        return Ok(());
    };
    if !column {
        return Ok(());
    }
    let mut at = start;
    for &h in steps {
        let raised = m.map.hexes.get(&h).is_some_and(|x| x.raised);
        let block = s
            .roadblocks
            .iter()
            .find(|(b, o)| *b == h && (s.roadblock_bars_own || *o != side));
        if let Some((_, owner)) = block.filter(|_| raised) {
            return Err(rule(
                "2.16 Raised Roads/Railroads",
                format!(
                    "a {} road block stands in the raised hex {h}: a Unit in Column may not enter it from {at}; a Leg Unit not in Column may (paying double), or remove the road block first",
                    owner.name()
                ),
            ));
        }
        at = h;
    }
    Ok(())
}

/// Does a Bulldozer stand in this hex (2.11: it is no obstacle to the enemy; it is eliminated)?
fn is_bulldozer(s: &State, hex: Hex) -> bool {
    s.units.iter().filter(|(_, u)| u.hex == hex).all(|(n, _)| {
        s.stream_bridges
            .values()
            .any(|x| x.bulldozer.as_deref() == Some(n.as_str()))
    })
}

/// The terrain of a fire's target hex (2.9, 2.10: what an artillery "0" makes rubble of): the
/// loaded map's where it knows the hex — a stated `on <terrain>` that differs is refused —, else
/// the one the order states, if any.
fn target_terrain(s: &State, hex: Hex, on: Option<Terrain>) -> Result<Option<Terrain>, RuleError> {
    let Some(known) = s
        .map
        .as_ref()
        .and_then(|m| m.map.hexes.get(&hex))
        .map(|x| x.terrain)
    else {
        return Ok(on);
    };
    match on {
        Some(stated) if stated != known => Err(rule(
            "2.1-2.19 Terrain",
            format!(
                "the game's map has {} at {hex}, not {}: state 'on {}', or leave the terrain out and the map's is used",
                known.name(),
                stated.name(),
                known.name()
            ),
        )),
        _ => Ok(Some(known)),
    }
}

/// `fire` and `opfire`: the die, the consequences of the act of firing, then the roller states
/// the result class.
#[allow(clippy::too_many_arguments)]
pub fn fire(
    s: &mut State,
    ctx: &mut Ctx,
    side: Side,
    unit: &str,
    hex: Hex,
    class: &str,
    on: Option<Terrain>,
    opportunity: bool,
    facts: &str,
) -> Result<(), RuleError> {
    check_sight(s, unit, hex, class)?;
    let on = target_terrain(s, hex, on)?;
    let face = d10(ctx);
    let what = if opportunity {
        "opportunity fire"
    } else {
        "fire"
    };
    let on_text = on.map(|t| format!(" on {}", t.name())).unwrap_or_default();
    let facts_text = if facts.is_empty() {
        String::new()
    } else {
        format!(" ({facts})")
    };
    ctx.say(format!(
        "{} {what}: {unit} at {hex}, {class}{on_text}{facts_text}: the die reads {face}",
        side.name()
    ));
    if side == Side::German && face != 9 && s.on_club_route(hex) {
        attacked(s, ctx, &format!("German fire at {hex}"));
    }
    if class == "indirect-he"
        && face == 0
        && matches!(on, Some(Terrain::City | Terrain::Fortified))
        && !s.rubble.contains(&hex)
    {
        s.rubble.push(hex);
        ctx.say(format!("Artillery rolled a 0 on a {} hex: rubble at {hex}; any OP or Strongpoint there is no longer in the hex; +1 to its defensive terrain (2.9-2.10)", on.map_or("", Terrain::name)));
    }
    s.pending = Some(Pending {
        side,
        unit: unit.to_owned(),
        hex,
        face,
        fire: true,
    });
    Ok(())
}

/// The CRT result class stated for the die `p` (taken off the state by the caller), and the
/// unit it strikes, when named; a fire (not assault) "9" then draws from the roller's cup.
pub fn result(s: &mut State, ctx: &mut Ctx, p: Pending, class: &str, target: Option<&str>) {
    let before = s.units.clone();
    let marks_before = s.marks.clone();
    ctx.say(format!(
        "{}: {} at {}, die {}: result {class}{}",
        p.side.name(),
        p.unit,
        p.hex,
        p.face,
        target.map(|t| format!(" on {t}")).unwrap_or_default()
    ));
    if class == "eliminated" {
        match target {
            Some(t) => {
                s.units.remove(t);
            }
            None => {
                let dozers: Vec<String> = s
                    .stream_bridges
                    .values()
                    .filter_map(|x| x.bulldozer.clone())
                    .collect();
                s.units
                    .retain(|n, u| u.hex != p.hex || u.side == p.side || dozers.contains(n));
            }
        }
    }
    super::bridges::result(s, ctx, p.hex, class, target, p.fire);
    super::units::mark_result(s, ctx, &p, class, target, &before);
    super::units::result(s, ctx, &p, class);
    super::units::record_eliminated(s, &before);
    super::units::mann_chance(s, ctx, &p, class, target, &before, &marks_before);
    if p.fire && p.face == 9 {
        draw_event(s, ctx, p.side);
    }
}

/// S3.0: the roller draws an event chit from his cup with a public die (the cup's contents are
/// public). In a scenario the chit leaves the game; in the campaign it goes back, but Heroic
/// and Dutch stay out until the owner's next draw, when they go back first.
pub fn draw_event(s: &mut State, ctx: &mut Ctx, side: Side) {
    let back: Vec<String> = s
        .held_out
        .iter()
        .filter(|(x, _)| *x == side)
        .map(|(_, e)| e.clone())
        .collect();
    s.held_out.retain(|(x, _)| *x != side);
    super::events::lift(s, ctx, side);
    let cup = s.cups.entry(side).or_default();
    for e in back {
        ctx.say(format!(
            "{e} goes back into the {} cup before the draw",
            side.name()
        ));
        cup.push(e);
    }
    cup.sort_by_key(|e| DATA.events.iter().position(|(n, _, _)| n == e));
    if cup.is_empty() {
        ctx.say(format!(
            "A 9: the {} event cup is empty, no event",
            side.name()
        ));
        return;
    }
    let n = cup.len() as u32;
    let i = ctx.roll(n) as usize - 1;
    let event = cup.remove(i);
    ctx.say(format!(
        "A 9: {} draws {event} from the event cup (d{n}: {})",
        side.name(),
        i + 1
    ));
    let night_or_cloud = s.time == super::sequence::NIGHT
        || !matches!(s.weather, None | Some(super::data::Weather::Clear));
    if event == "air-strike" {
        if night_or_cloud {
            ctx.say("Air Strike at night, overcast or in fog: no event");
        } else {
            let face = d10(ctx);
            ctx.say(format!("Air Strike: the die reads {face}: {} Typhoon(s), each a 6 white Fire Power attack on a hex within 10 hexes of the chosen Formation's leader, no modifiers (S3.1)", face / 2));
            super::events::ask_air_strike(s, ctx, face / 2);
        }
    }
    if event == "rout" {
        ctx.say(format!(
            "Rout: the {} player names a Formation in an enemy Fire Zone with a step lost that routs (rout <formation> [<units taken off>]), or passes (S3.1)",
            side.other().name()
        ));
        s.ask(Wait::Rout { side: side.other() });
    }
    if event == "rally" {
        super::events::ask(s, ctx, side, &event);
    }
    if super::events::PLACED.contains(&event.as_str()) {
        super::events::ask(s, ctx, side, &event);
    }
    if event == "reinf" {
        super::events::ask_reinf(s, ctx, side);
    }
    if event == "lost" {
        super::events::ask_lost(s, ctx, side.other());
    }
    if event == "ambush" || event == "explosion" {
        super::events::ask_attack(s, ctx, side.other(), &event);
    }
    if event == "intelligence" {
        ctx.say(format!(
            "Intelligence: the {} player names the division that gains 6 Command and 2 Dispatch Points (S3.1): intelligence <division>",
            side.name()
        ));
        s.ask(Wait::Intelligence { side });
    }
    if s.campaign {
        if event == "heroic" || event == "dutch" {
            s.held_out.push((side, event));
        } else {
            s.cups.entry(side).or_default().push(event);
        }
    }
}

/// Is `face` among `pass`? Says so.
fn check(ctx: &mut Ctx, who: &str, pass: &[u32]) -> bool {
    let face = d10(ctx);
    let ok = pass.contains(&face);
    ctx.say(format!(
        "{who}, passing on {}: the die reads {face}: {}",
        faces_text(pass),
        if ok { "passed" } else { "failed" }
    ));
    ok
}

/// Refuses a `tq` whose reason the exclusive rules forbid, before the die.
pub fn check_tq(s: &State, side: Side, unit: &str, reason: &[String]) -> Result<(), RuleError> {
    if reason.first().map(String::as_str) == Some("wire") {
        let name = reason
            .get(1)
            .ok_or_else(|| rule("2.15.6 Bridge Demolition", "wire <bridge>"))?;
        super::bridges::check_engineer("2.15.6 Bridge Demolition", unit, "wire a bridge")?;
        let def = DATA.bridge(name).ok_or_else(|| {
            let names: Vec<&str> = DATA.bridges.iter().map(|b| b.name.as_str()).collect();
            rule(
                "2.15.6 Bridge Demolition",
                format!("no bridge '{name}': the bridges are {}", names.join(", ")),
            )
        })?;
        if def.hexes.0 == Hex::parse("49.160").expect("a hex") {
            return Err(rule(
                "2.15.6 Bridge Demolition",
                "the Best Railroad Bridge (49.160) may never be wired",
            ));
        }
        let b = s.bridges.get(name).cloned().unwrap_or_default();
        if b.destroyed {
            return Err(rule(
                "2.15.6 Bridge Demolition",
                format!("the {name} bridge is destroyed"),
            ));
        }
        if b.wired_by.is_some() {
            return Err(rule(
                "2.15.6 Bridge Demolition",
                format!("the {name} bridge is wired already"),
            ));
        }
        // 2.15.6: "If you miss the roll … you can only wire the bridge again if you regain
        // control of the bridge" (decision 39).
        if let Some(r) = b.regain.as_ref().filter(|r| r.side == side) {
            let missing: Vec<String> = r
                .still_to_enter(def.hexes)
                .iter()
                .map(Hex::to_string)
                .collect();
            if !missing.is_empty() {
                return Err(rule(
                    "2.15.6 Bridge Demolition",
                    format!(
                        "your demolition of the {name} bridge missed: you wire it again only once you regain control, your units the last to enter both {} and {} since (2.15.5); still to enter: {}; move a unit there first",
                        def.hexes.0,
                        def.hexes.1,
                        missing.join(" and ")
                    ),
                ));
            }
        }
        // 2.15.6: "Your engineer Unit must begin its Action in one of the two hexes that share
        // the bridge hexside", where the engine keeps its position (decision 12: a counter with
        // none is the players').
        if let Some(u) = s
            .units
            .get(unit)
            .filter(|u| u.hex != def.hexes.0 && u.hex != def.hexes.1)
        {
            return Err(rule(
                "2.15.6 Bridge Demolition",
                format!(
                    "{unit} is at {}: the engineer Unit wiring the {name} bridge begins its Action in one of the two hexes sharing its hexside, {} or {}; move it there first",
                    u.hex, def.hexes.0, def.hexes.1
                ),
            ));
        }
        // 2.15.6: "Your engineer Unit must pass a Troop Quality Check (…; the Unit cannot be in
        // Column; …)".
        if let Some(u) = s.units.get(unit).filter(|u| u.column) {
            return Err(rule(
                "2.15.6 Bridge Demolition",
                format!(
                    "{unit} is in Column at {}: the engineer Unit wiring the {name} bridge cannot be in Column; move it out of Column first (move {unit} {} without 'column')",
                    u.hex, u.hex
                ),
            ));
        }
    }
    Ok(())
}

/// The TQ modifiers in force on a unit's checks, each with its reason: S3.1 Heroic (+1 while
/// the side's marker is on the unit, option `heroic_tq`, decision 29) and, for a unit of the
/// order of battle (option `tq_modifiers`, decision 42), those the exclusive rules give its
/// division: S6.1.1 (−1 for the 101st while SDZ Closed), S6.1.2 (−2 for the Guards Armored
/// while Club Route is Cut: 4.3.3 "considered out of supply for rule S6.1.2"), S5.1.1 (+1 for
/// every German unit once KG Chill has replaced the Eindhoven Regional Command).
pub fn unit_tq_modifiers(s: &State, side: Side, unit: &str) -> Vec<(i32, String)> {
    let mut out = Vec::new();
    if s.heroic_tq && s.heroic.get(&side).map(String::as_str) == Some(unit) {
        out.push((1, "Heroic +1 (S3.1)".to_owned()));
    }
    let Some(f) = super::oob::OOB
        .formation_of(unit)
        .filter(|_| s.tq_modifiers)
    else {
        return out;
    };
    if f.division == super::supply::AIRBORNE && s.supply.interdicted {
        out.push((-1, "the 101st's SDZ Closed −1 (S6.1.1)".to_owned()));
    }
    if f.division == "guards" && s.highway.cut {
        out.push((
            -2,
            "Guards Armored with Club Route Cut −2 (S6.1.2)".to_owned(),
        ));
    }
    if f.side == Side::German && s.kg_chill {
        out.push((1, "German with KG Chill +1 (S5.1.1)".to_owned()));
    }
    out
}

/// A check passes on the faces equal to or less than the TQ (decision 1), so each point of TQ
/// is one passing face. The player states the faces for the counter's **face value** (S3.1's
/// words); the modifiers in force (`unit_tq_modifiers`) then change them: each point more
/// passes on the face after the highest stated (0 if none is; nothing past 9), each point less
/// takes off the highest stated face, never the 0 (decision 1: a 0 always passes). The line
/// names the modifiers and the faces they give.
fn modified_faces(s: &State, ctx: &mut Ctx, side: Side, unit: &str, pass: &[u32]) -> Vec<u32> {
    let mut faces = pass.to_vec();
    let mods = unit_tq_modifiers(s, side, unit);
    if mods.is_empty() {
        return faces;
    }
    let net: i32 = mods.iter().map(|(n, _)| n).sum();
    for _ in 0..net.max(0) {
        let next = faces.iter().max().map_or(0, |m| m + 1);
        if next <= 9 && !faces.contains(&next) {
            faces.push(next);
        }
    }
    for _ in 0..(-net).max(0) {
        if let Some(top) = faces.iter().copied().filter(|f| *f > 0).max() {
            faces.retain(|f| *f != top);
        }
    }
    faces.sort_unstable();
    let reasons: Vec<&str> = mods.iter().map(|(_, r)| r.as_str()).collect();
    let text = |f: &[u32]| {
        if f.is_empty() {
            "none".to_owned()
        } else {
            faces_text(f)
        }
    };
    ctx.say(format!(
        "{unit}'s TQ modifiers in force: {}; net {}: the faces stated for its face value ({}) are {} (decision 42)",
        reasons.join(", "),
        match net {
            0 => "0".to_owned(),
            n if n > 0 => format!("+{n}"),
            n => format!("−{}", -n),
        },
        text(pass),
        text(&faces)
    ));
    faces
}

pub fn tq(s: &mut State, ctx: &mut Ctx, side: Side, unit: &str, reason: &[String], pass: &[u32]) {
    let faces = modified_faces(s, ctx, side, unit, pass);
    let pass = faces.as_slice();
    let ok = check(
        ctx,
        &format!(
            "{} troop quality check: {unit} {}",
            side.name(),
            reason.join(" ")
        ),
        pass,
    );
    if ok {
        super::bridges::passed(s, ctx, side, unit, reason);
    }
    super::events::after_tq(s, ctx, unit, reason, ok);
    if side == Side::German && reason.first().map(String::as_str) == Some("lost") {
        if ok {
            s.activity.entry(unit.to_owned()).or_default().lost_checked = true;
        } else {
            s.ask(Wait::Lost {
                unit: unit.to_owned(),
                event: None,
            });
            ctx.say(format!(
                "{unit} fails: it is lost, and the Allied player moves it (O3.0)"
            ));
        }
    }
    if ok && reason.first().map(String::as_str) == Some("wire") {
        let name = &reason[1];
        let b = s.bridges.entry(name.clone()).or_default();
        b.wired_by = Some(side);
        // Wired under control (2.15.5): no hex contested, nothing left to regain.
        b.contested.clear();
        b.regain = None;
        ctx.say(format!(
            "The {name} bridge is wired for demolition by the {} player",
            side.name()
        ));
    }
}

pub fn rally(s: &mut State, ctx: &mut Ctx, side: Side, unit: &str, pass: &[u32]) {
    let faces = modified_faces(s, ctx, side, unit, pass);
    let pass = faces.as_slice();
    if check(ctx, &format!("{} rally: {unit}", side.name()), pass) {
        super::bridges::rallied(s, ctx, unit);
        super::units::rallied(s, ctx, unit);
    }
}

pub fn barrage(
    s: &mut State,
    ctx: &mut Ctx,
    side: Side,
    unit: &str,
    hex: Hex,
    heavy: bool,
    pass: &[u32],
) {
    let kind = if heavy { "heavy" } else { "light" };
    if check(
        ctx,
        &format!("{} {kind} barrage: {unit} on {hex}", side.name()),
        pass,
    ) {
        s.barrages.push((hex, heavy, side));
        ctx.say(format!("A {kind} barrage marker is placed on {hex}"));
        if side == Side::German && s.on_club_route(hex) {
            if heavy {
                closed(s, ctx, &format!("a heavy barrage on {hex}"));
            } else {
                attacked(s, ctx, &format!("a light barrage on {hex}"));
            }
        }
    }
}

pub fn check_demolish(s: &State, side: Side, bridge: &str) -> Result<(), RuleError> {
    let r = |m: String| rule("2.15.6 Bridge Demolition", m);
    DATA.bridge(bridge)
        .ok_or_else(|| r(format!("no bridge '{bridge}'")))?;
    let b = s.bridges.get(bridge).cloned().unwrap_or_default();
    if b.destroyed {
        return Err(r(format!("the {bridge} bridge is destroyed already")));
    }
    if b.wired_by != Some(side) {
        return Err(r(format!(
            "only the side that wired the {bridge} bridge can demolish it"
        )));
    }
    // "you may try to demolish it when an enemy Unit enters one of the two hexes sharing the
    // bridge hexside and the bridge becomes contested" (decision 40).
    if !s
        .demolition
        .as_ref()
        .is_some_and(|d| d.side == side && d.bridges.iter().any(|x| x == bridge))
    {
        let def = DATA.bridge(bridge).expect("checked");
        return Err(r(format!(
            "the {bridge} bridge is demolished when an enemy Unit enters {} or {} and it becomes contested: the engine offers you 'demolish {bridge} [fz]' or 'pass' then, not now",
            def.hexes.0, def.hexes.1
        )));
    }
    Ok(())
}

/// 2.15.6: 5 or less, 6 or less with a Fire Zone on the bridge's hexes; a miss unwires it.
pub fn demolish(s: &mut State, ctx: &mut Ctx, side: Side, bridge: &str, fire_zone: bool) {
    let need = if fire_zone { 6 } else { 5 };
    let face = d10(ctx);
    let b: &mut Bridge = s.bridges.entry(bridge.to_owned()).or_default();
    b.contested.clear();
    if face <= need {
        b.destroyed = true;
        b.destroyed_at = Some((s.day, s.time));
        b.wired_by = None;
        ctx.say(format!(
            "{} demolition of the {bridge} bridge, {need} or less: the die reads {face}: destroyed",
            side.name()
        ));
        if destroyed_bridge_on_route(s) {
            s.highway.cut = true;
            ctx.say("A bridge on Club Route is destroyed: the Club Route marker goes to its Cut side (4.3.3)");
        }
    } else {
        b.wired_by = None;
        b.regain = Some(super::state::Regain {
            side,
            entered: Vec::new(),
        });
        ctx.say(format!("{} demolition of the {bridge} bridge, {need} or less: the die reads {face}: missed; the bridge is no longer wired, and the {} player wires it again only once his units have been the last to enter both its hexes (2.15.6)", side.name(), side.name()));
    }
}

/// 3.4.1's flak modifiers: the counts stated (`flak N`, `flak88 N`), or the flak units named
/// (`fz <unit>,…`; Fire Zones are the series', so the player says which reach the zone), whose
/// types the engine reads (S5.4: on Drop One the flak is still face down when the Allied
/// player writes his order; it flips with the roll). Not both.
pub fn flak_fire_zones(
    s: &State,
    flak: u32,
    flak88: u32,
    named: &[String],
) -> Result<(u32, u32), RuleError> {
    if named.is_empty() {
        return Ok((flak, flak88));
    }
    let r = |m: String| rule("3.4.1 The Drop Table", m);
    if flak > 0 || flak88 > 0 {
        return Err(r(
            "name the flak units (fz <unit>,…) or count them (flak N flak88 N), not both".into(),
        ));
    }
    let mut seen = std::collections::BTreeSet::new();
    let (mut light, mut heavy) = (0, 0);
    for u in named {
        let Some(t) = s.flak.get(u) else {
            return Err(r(format!(
                "{u} is not a German flak unit (S5.4): the flak units are {}",
                s.flak.keys().cloned().collect::<Vec<_>>().join(", ")
            )));
        };
        if !s.units.contains_key(u) {
            return Err(r(format!(
                "{u} is no longer on the map: it projects no Fire Zone"
            )));
        }
        if !seen.insert(u) {
            return Err(r(format!("{u} is named twice")));
        }
        if t == "88" {
            heavy += 1;
        } else {
            light += 1;
        }
    }
    Ok((light, heavy))
}

/// 3.4.1: the Drop Table modifiers and what each is: glider in a DZ +2, glider in a starred
/// zone +1, +1 per German unit in the zone (counted from the positions kept), +1 per non-88
/// flak projecting a Fire Zone into it, +2 per 88 (`flak_fire_zones`).
pub fn drop_modifier(
    s: &State,
    zone: &str,
    glider: bool,
    flak: u32,
    flak88: u32,
) -> Result<(i32, Vec<String>), RuleError> {
    let (dz, hexes) = DATA.zones.get(zone).ok_or_else(|| {
        rule(
            "3.3 Where to Drop",
            format!("no airborne zone '{zone}': A1, A, B, C, W"),
        )
    })?;
    let germans = s
        .units
        .values()
        .filter(|u| u.side == Side::German && hexes.contains(&u.hex))
        .count() as i32;
    let mut parts = Vec::new();
    let mut m = 0;
    if glider && *dz {
        m += 2;
        parts.push("glider in a DZ +2".to_owned());
    }
    if glider && s.starred.iter().any(|z| z == zone) {
        m += 1;
        parts.push("starred zone +1".to_owned());
    }
    if germans > 0 {
        m += germans;
        parts.push(format!("{germans} German unit(s) in the zone +{germans}"));
    }
    if flak > 0 {
        m += flak as i32;
        parts.push(format!("flak +{flak}"));
    }
    if flak88 > 0 {
        m += 2 * flak88 as i32;
        parts.push(format!("88 flak +{}", 2 * flak88));
    }
    Ok((m, parts))
}

/// 3.3.2: once a free drop's plan is opened, an airborne Unit of the order of battle drops in
/// the zone the plan names for its Formation on that drop (`zones`: the zones it would drop in;
/// a hex of both B and C is in both). A Formation the drop's plan does not name is not in that
/// drop. An Independent Formation's Units may drop in any zone the plan names for it or, if it
/// names none, in any zone another Formation of its Division uses that drop (decision 26). The
/// Lost 82nd AB comes by the Reinf event, not by a drop, and a sealed plan is not read.
/// Returns the zone of `zones` the plan gives it, when a plan was read.
pub fn check_plan_zone(
    s: &State,
    unit: &str,
    drop: u8,
    zones: &[String],
) -> Result<Option<String>, RuleError> {
    let Some(u) = super::oob::OOB.unit(unit) else {
        return Ok(None);
    };
    let Some(plan) = s
        .drops
        .iter()
        .find(|d| d.number == drop)
        .and_then(|d| d.plan.as_ref())
    else {
        return Ok(None);
    };
    if !(u.para || u.glider) || u.lost_82nd {
        return Ok(None);
    }
    let f = u.formation.as_str();
    let named: Vec<&str> = plan
        .iter()
        .filter_map(|p| p.split_once(':'))
        .filter(|(pf, _)| *pf == f)
        .map(|(_, z)| z)
        .collect();
    let independent = f.starts_with("ind-");
    let allowed: Vec<&str> = if named.is_empty() && independent {
        let division = super::oob::OOB.formation(f).map(|d| d.division.as_str());
        plan.iter()
            .filter_map(|p| p.split_once(':'))
            .filter(|(pf, _)| {
                !pf.starts_with("ind-")
                    && super::oob::OOB.formation(pf).map(|d| d.division.as_str()) == division
            })
            .map(|(_, z)| z)
            .collect()
    } else {
        named
    };
    let r = |m: String| rule("3.3.2 The Free Drop Scenario", m);
    let here = zones.join(" or ");
    if allowed.is_empty() {
        let elsewhere: Vec<String> = s
            .drops
            .iter()
            .filter(|d| d.number != drop)
            .filter_map(|d| {
                let z = d
                    .plan
                    .as_ref()?
                    .iter()
                    .filter_map(|p| p.split_once(':'))
                    .find(|(pf, _)| *pf == f)?
                    .1;
                Some(format!("Drop {} in zone {z}", d.number))
            })
            .collect();
        return Err(r(format!(
            "Drop {drop}'s plan names no zone for {f}: {unit} is not in this drop{}",
            if elsewhere.is_empty() {
                String::new()
            } else {
                format!(" (the plans put {f} in {})", elsewhere.join(", "))
            }
        )));
    }
    match zones.iter().find(|z| allowed.contains(&z.as_str())) {
        Some(z) => Ok(Some(z.clone())),
        None => Err(r(format!(
            "Drop {drop}'s plan puts {f} in zone {}: {unit} drops there, not in {here}",
            allowed.join(" or ")
        ))),
    }
}

/// 3.4.1: may `unit` roll on the Drop Table now? Where it stands on the map, in a hex of the
/// zone and not in Column (3.4). Once a unit, for the last drop that came (decision 24): Drop One's units as soon as they drop, so on the turn Drop One came; a later
/// drop's the first time they activate after it (the caller checks that the chit in play
/// activates the unit). Returns the drop's number.
pub fn check_drop_roll(s: &State, unit: &str, zone: &str) -> Result<u8, RuleError> {
    let r = |m: String| rule("3.4.1 The Drop Table", m);
    if let (Some(u), Some((_, hexes))) = (s.units.get(unit), DATA.zones.get(zone)) {
        // 3.4: placed in any hex of the zone, not in Column.
        if !hexes.contains(&u.hex) {
            return Err(rule(
                "3.4 How to Drop",
                format!(
                    "{unit} stands at {}, not in airborne zone {zone}: a Unit drops in a hex of its zone; name the zone it dropped in",
                    u.hex
                ),
            ));
        }
        if u.column {
            return Err(rule(
                "3.4 How to Drop",
                format!(
                    "{unit} stands in Column at {}: Units cannot drop in Column; place it out of Column (move it without 'column') and roll",
                    u.hex
                ),
            ));
        }
    }
    if s.drop_rolled.iter().any(|u| u == unit) {
        return Err(r(format!(
            "{unit} has rolled on the Drop Table already: a Unit rolls once, when it drops"
        )));
    }
    let Some(d) = s
        .drops
        .iter()
        .filter(|d| d.arrived.is_some())
        .max_by_key(|d| d.number)
    else {
        return Err(r(
            "no drop has come yet: a Unit rolls on the Drop Table when its drop comes".into(),
        ));
    };
    if d.number == 1 && d.arrived != Some((s.day, s.time)) {
        let (day, time) = d.arrived.expect("arrived");
        return Err(r(format!(
            "Drop One's Units roll as soon as they drop, on its turn ({} {day} Sept); no roll is left for Drop One now",
            super::data::TURNS[time]
        )));
    }
    check_plan_zone(s, unit, d.number, &[zone.to_owned()])?;
    Ok(d.number)
}

/// 3.4.1: whether a Unit lands by glider, for the glider modifiers. The order of battle says so
/// for its Units: a glider Unit rolls as a glider with or without the word, and `glider` for a
/// parachute Unit is refused; for a unit outside it (decision 12), the order's word.
pub fn lands_by_glider(unit: &str, said: bool) -> Result<bool, RuleError> {
    match super::oob::OOB.unit(unit) {
        Some(u) if u.glider && !u.para => Ok(true),
        Some(u) if u.para && !u.glider && said => Err(rule(
            "3.4.1 The Drop Table",
            format!(
                "{unit} is a parachute Unit of the order of battle ({}): it does not land by glider; roll without 'glider'",
                u.formation
            ),
        )),
        _ => Ok(said),
    }
}

/// 3.4.1–3.4.2: one die plus the modifiers on the Drop Table, and its result applied (decision
/// 24): a step loss marks the unit (decision 15; its last step eliminates it), eliminated takes
/// it off the map, each delay is one more glider/paradrop marker; a Unit of a drop after Drop
/// One also gets its own marker.
#[allow(clippy::too_many_arguments)]
pub fn drop_roll(
    s: &mut State,
    ctx: &mut Ctx,
    unit: &str,
    drop: u8,
    zone: &str,
    glider: bool,
    flak: u32,
    flak88: u32,
) -> Result<(), RuleError> {
    use super::data::DropResult;
    let (m, parts) = drop_modifier(s, zone, glider, flak, flak88)?;
    let face = d10(ctx);
    let total = face as i32 + m;
    let result = DATA.drop_result(total);
    ctx.say(format!(
        "Drop Table for {unit} in {zone}: the die reads {face}{}{} = {total}: {}",
        if parts.is_empty() { "" } else { ", " },
        parts.join(", "),
        result.name()
    ));
    s.drop_rolled.push(unit.to_owned());
    s.drop_awaiting.retain(|u| u != unit);
    let delays = match result {
        DropResult::Delay1 => 1,
        DropResult::Delay2 => 2,
        _ => 0,
    };
    match result {
        DropResult::Eliminated => {
            s.units.remove(unit);
            super::losses::eliminate(s, unit);
            s.drop_markers.remove(unit);
            ctx.say(format!("{unit} is eliminated on landing (3.4.1)"));
            return Ok(());
        }
        DropResult::StepLoss => {
            let m = s.marks.entry(unit.to_owned()).or_default();
            m.lost += 1;
            let lost = m.lost;
            match super::losses::steps_of(unit) {
                Some(steps) if lost >= steps => {
                    s.units.remove(unit);
                    super::losses::eliminate(s, unit);
                    s.drop_markers.remove(unit);
                    ctx.say(format!(
                        "{unit} loses its last step on landing and is eliminated (3.4.1)"
                    ));
                    return Ok(());
                }
                Some(steps) => ctx.say(format!(
                    "{unit} loses a step on landing: {} of {steps} left (3.4.1)",
                    steps - lost
                )),
                None => ctx.say(format!("{unit} loses a step on landing ({lost} lost)")),
            }
        }
        _ => {}
    }
    let markers = delays + u32::from(drop > 1);
    if markers > 0 {
        let n = s.drop_markers.entry(unit.to_owned()).or_default();
        *n += markers;
        ctx.say(format!(
            "{unit} is under {n} glider/paradrop marker{}: one Action removes each (unmark {unit}), and it performs no other Action until all are off (3.4.2)",
            if *n == 1 { "" } else { "s" }
        ));
    }
    Ok(())
}

/// `unmark <unit>` (3.4.2): an Action of the unit removes one glider/paradrop marker; it opens
/// no opportunity fire window.
pub fn check_unmark(s: &State, side: Side, unit: &str) -> Result<(), RuleError> {
    if side != Side::Allied || s.drop_markers.get(unit).copied().unwrap_or(0) == 0 {
        return Err(rule(
            "3.4.2 Glider/Paradrop Markers",
            format!("{unit} has no glider/paradrop marker to remove"),
        ));
    }
    Ok(())
}

pub fn unmark(s: &mut State, ctx: &mut Ctx, unit: &str) {
    let n = s.drop_markers.get_mut(unit).expect("checked");
    *n -= 1;
    let left = *n;
    if left == 0 {
        s.drop_markers.remove(unit);
    }
    ctx.say(format!(
        "{unit} removes a glider/paradrop marker (an Action, no opportunity fire; 3.4.2): {}",
        if left == 0 {
            "none left, it may act".to_owned()
        } else {
            format!("{left} left")
        }
    ));
}

/// 4.3.3: the German adds the Attacked markers and twice the Closed ones and rolls that or
/// less to Cut Club Route; all the markers are then set aside.
pub fn status_check(s: &mut State, ctx: &mut Ctx) -> Result<(), RuleError> {
    let h = &s.highway;
    if h.attacked == 0 && h.closed == 0 {
        return Err(rule(
            "4.3.3 Attacking Club Route",
            "the Hell's Highway box is empty: there is nothing to check with",
        ));
    }
    let need = h.attacked + 2 * h.closed;
    let face = d10(ctx);
    let h = &mut s.highway;
    let cut = face <= need;
    ctx.say(format!(
        "German status check on Club Route: {} Attacked + 2 x {} Closed = {need}: the die reads {face}: {}",
        h.attacked,
        h.closed,
        if cut { "Club Route is Cut until 1900; Guards Armored units out of supply (S6.1.2)" } else { "no effect" }
    ));
    if cut {
        h.cut = true;
    }
    h.used_attacked += h.attacked;
    h.used_closed += h.closed;
    h.attacked = 0;
    h.closed = 0;
    Ok(())
}

/// Movement points counted in halves, as text: `3½`.
fn half_points(h: u32) -> String {
    format!("{}{}", h / 2, if h % 2 == 1 { "½" } else { "" })
}

/// The move's cost on the loaded map (2.1–2.19), in half movement points, or the refusal of
/// its first step the terrain forbids. `None` without a map, or off the hexes it knows. How
/// the unit moves: the move's `wheeled`/`tracked`, `mounted` on its OOB transport (tracked, or
/// else wheeled), leg otherwise.
pub(super) fn map_cost(
    s: &State,
    unit: &str,
    start: Hex,
    steps: &[Hex],
    column: bool,
    transport: Option<super::order::Transport>,
) -> Result<Option<u32>, RuleError> {
    use super::order::Transport;
    use super::terrain::Mobility;
    let Some(m) = &s.map else {
        return Ok(None);
    };
    let mobility = match transport {
        None => Mobility::Leg,
        Some(Transport::Wheeled) => Mobility::Wheeled,
        Some(Transport::Tracked) => Mobility::Tracked,
        Some(Transport::Mounted) => match super::oob::OOB
            .unit(unit)
            .and_then(|u| u.transport.as_deref())
        {
            Some("tracked") => Mobility::Tracked,
            _ => Mobility::Wheeled,
        },
    };
    m.map
        .path_cost(mobility, column, start, steps)
        .map_err(super::terrain::refusal)
}

/// Direct fire needs a line of sight the loaded map does not block (2.3, 2.13, 2.15.4, 2.16);
/// mortar and indirect HE fire are spotted, the players' business. Unknown positions or hexes:
/// the stated facts stand.
pub fn check_sight(s: &State, unit: &str, target: Hex, class: &str) -> Result<(), RuleError> {
    if matches!(class, "mortar" | "indirect-he") {
        return Ok(());
    }
    let (Some(m), Some(from)) = (&s.map, s.units.get(unit).map(|u| u.hex)) else {
        return Ok(());
    };
    match super::los::line_of_sight(&m.map, from, target) {
        super::los::Sight::Blocked(why) => Err(rule(
            "line of sight",
            format!("{unit} at {from} has no line of sight to {target}: {why}"),
        )),
        _ => Ok(()),
    }
}
