//! Bridges, 2.11–2.18: the four stream bridges that may be unstable (checked on a 9 the first
//! time a vehicle crosses or Club Route is traced across, the southern one by A Ride in the
//! Country) and their Bulldozer repair (2.11); crossing bridges in Column (2.15.1); railroad
//! bridges closed to vehicles until improved, transport lost on an unimproved one (2.15.3,
//! 49.160 never improved); Bailey Bridge units repairing a demolished bridge (2.15.7); ferries
//! across a destroyed bridge's hexside (2.18). Control and wiring (2.15.5–2.15.6) are in
//! `declared.rs`. The bridges are `data/key_hexes.txt`, the Bailey and Bulldozer units
//! `data/oob.txt` (flags `bailey`, `bulldozer`).

use super::data::{southern_hex, DATA};
use super::hex::Hex;
use super::order::Transport;
use super::state::{Bailey, Demolition, Ferry, Side, State};
use super::{d10, rule};
use crate::engine::ruleset::{Ctx, RuleError};

const S2_11: &str = "2.11 Streams";
const S2_15_1: &str = "2.15.1 Crossing Bridges";
const S2_15_3: &str = "2.15.3 Railroad Bridges";
const S2_15_7: &str = "2.15.7 Bridge Repair";
const S2_18: &str = "2.18 Ferries";

fn same_side(pair: (Hex, Hex), a: Hex, b: Hex) -> bool {
    (pair.0 == a && pair.1 == b) || (pair.0 == b && pair.1 == a)
}

/// The 2.15 bridge on the hexside a–b, if any.
pub fn bridge_at(a: Hex, b: Hex) -> Option<&'static super::data::BridgeDef> {
    DATA.bridges.iter().find(|d| same_side(d.hexes, a, b))
}

/// The 2.11 stream bridge on the hexside a–b, if any.
pub fn stream_bridge_at(a: Hex, b: Hex) -> Option<&'static super::data::StreamBridgeDef> {
    DATA.stream_bridges
        .iter()
        .find(|d| same_side(d.hexes, a, b))
}

fn german_on(s: &State, hexes: (Hex, Hex)) -> Option<String> {
    s.units
        .iter()
        .find(|(_, u)| u.side == Side::German && (u.hex == hexes.0 || u.hex == hexes.1))
        .map(|(n, u)| format!("{n} at {}", u.hex))
}

/// The division of the Division Activation chit in play, if that is the chit.
fn division_impulse(s: &State) -> Option<String> {
    s.chit
        .as_deref()
        .and_then(|c| DATA.chit(c))
        .filter(|c| c.kind == super::data::ChitKind::Division)
        .and_then(|c| c.division.clone())
}

/// Checks a move's bridge crossings before anything changes: a bridge is crossed in Column
/// (2.15.1) and not while destroyed or its Bailey out of action (2.15.6–2.15.7); no vehicle
/// crosses an unimproved railroad bridge (2.15.3) or an unstable stream bridge (2.11); a Unit
/// whose transport is abandoned moves on its legs.
pub fn check_move(
    s: &State,
    unit: &str,
    start: Hex,
    steps: &[Hex],
    column: bool,
    transport: Option<Transport>,
) -> Result<(), RuleError> {
    if transport == Some(Transport::Mounted) && s.abandoned.iter().any(|u| u == unit) {
        return Err(rule(
            S2_15_3,
            format!("{unit} has abandoned its transport: it moves on its legs (no 'mounted')"),
        ));
    }
    let vehicle = matches!(transport, Some(Transport::Wheeled | Transport::Tracked));
    let mut at = start;
    for &h in steps {
        // 2.17 (decision 56, version 17): "A Unit must be in Column to use a Culvert", read
        // from the rules' own hexside, as an assault across it is, map or no map.
        if s.version >= 17 && !column && DATA.is_culvert(at, h) {
            return Err(rule(
                "2.17 The Culvert",
                format!(
                    "{at}–{h} is the culvert: a Unit must be in Column to use it (add 'column')"
                ),
            ));
        }
        if let Some(b) = bridge_at(at, h) {
            let x = s.bridges.get(&b.name).cloned().unwrap_or_default();
            if !column {
                return Err(rule(
                    S2_15_1,
                    format!(
                        "{at}–{h} is the {} bridge: a Unit crosses a bridge in Column (add 'column')",
                        b.name
                    ),
                ));
            }
            if !x.open() {
                return Err(rule(
                    S2_15_7,
                    format!(
                        "the {} bridge ({at}–{h}) is {}: no Unit crosses it{}",
                        b.name,
                        if x.destroyed {
                            "destroyed"
                        } else {
                            "a Bailey out of action until it rallies"
                        },
                        if x.ferry.is_some() {
                            "; a Leg Unit in Column may take the ferry (ferry <unit> <bridge>)"
                        } else {
                            ""
                        }
                    ),
                ));
            }
            if b.railroad && !x.improved && vehicle {
                return Err(rule(
                    S2_15_3,
                    format!(
                        "the {} railroad bridge is not improved: no vehicle crosses it",
                        b.name
                    ),
                ));
            }
        }
        if let Some(b) = stream_bridge_at(at, h) {
            let x = s.stream_bridges.get(&b.name).cloned().unwrap_or_default();
            if x.unstable && transport.is_some() {
                return Err(rule(
                    S2_11,
                    format!(
                        "the stream bridge {} ({at}–{h}) is unstable: no vehicle crosses it until a Bulldozer repairs it",
                        b.name
                    ),
                ));
            }
        }
        at = h;
    }
    Ok(())
}

/// The stability rolls of a vehicle's crossings (2.11): each stream bridge not yet checked is
/// rolled for the moment it is crossed; on a 9 it is unstable and the vehicle stops before it.
/// Returns how many steps of the path are taken.
pub fn roll_crossings(
    s: &mut State,
    ctx: &mut Ctx,
    side: Side,
    unit: &str,
    start: Hex,
    steps: &[Hex],
    transport: Option<Transport>,
) -> usize {
    if transport.is_none() {
        return steps.len();
    }
    let mut at = start;
    for (i, &h) in steps.iter().enumerate() {
        if let Some(b) = stream_bridge_at(at, h) {
            if !s.stream_bridges.get(&b.name).is_some_and(|x| x.checked) {
                let unstable = check_stability(s, ctx, side, &b.name, &format!("{unit} crosses"));
                if unstable {
                    ctx.say(format!("{unit} stops at {at}, before the unstable bridge"));
                    return i;
                }
            }
        }
        at = h;
    }
    steps.len()
}

/// One stability roll (2.11): a 9 and the bridge is unstable; anything else, a bridge like any
/// other over a stream. No modifiers. Returns whether it is unstable.
fn check_stability(s: &mut State, ctx: &mut Ctx, side: Side, name: &str, why: &str) -> bool {
    let face = d10(ctx);
    let x = s.stream_bridges.entry(name.to_owned()).or_default();
    x.checked = true;
    x.unstable = face == 9;
    ctx.say(format!(
        "Stream bridge {name}: {why}; the {} player rolls for its stability: {face}: {}",
        side.name(),
        if x.unstable {
            "a 9, unstable: no vehicle crosses and no Club Route is traced across it until it is repaired (2.11)"
        } else {
            "stable"
        }
    ));
    x.unstable
}

/// After a move: a Unit riding its transport over an unimproved railroad bridge loses it
/// (2.15.3); an enemy Unit entering a Bulldozer's hex eliminates it (2.11); a ferry's engineer
/// who moves takes the ferry away (2.18.3).
pub fn after_move(
    s: &mut State,
    ctx: &mut Ctx,
    side: Side,
    unit: &str,
    start: Hex,
    steps: &[Hex],
    transport: Option<Transport>,
) {
    let mut at = start;
    for &h in steps {
        if let Some(b) = bridge_at(at, h) {
            let improved = s.bridges.get(&b.name).is_some_and(|x| x.improved);
            if b.railroad
                && !improved
                && transport == Some(Transport::Mounted)
                && !s.abandoned.iter().any(|u| u == unit)
            {
                s.abandoned.push(unit.to_owned());
                ctx.say(format!("{unit} crossed the unimproved {} railroad bridge with its organic transport: the transport is lost for ever (abandoned transport marker, 2.15.3)", b.name));
            }
        }
        at = h;
    }
    if side == Side::German {
        let entered: Vec<Hex> = steps.to_vec();
        for b in &DATA.stream_bridges {
            let Some(dozer) = s
                .stream_bridges
                .get(&b.name)
                .and_then(|x| x.bulldozer.clone())
            else {
                continue;
            };
            if entered.contains(&southern_hex(b.hexes)) {
                let x = s.stream_bridges.get_mut(&b.name).expect("present");
                x.bulldozer = None;
                s.units.remove(&dozer);
                s.gone.push(dozer.clone());
                super::losses::eliminate(s, &dozer);
                ctx.say(format!(
                    "{unit} moves into {}: the Bulldozer {dozer} is eliminated (2.11)",
                    southern_hex(b.hexes)
                ));
            }
        }
    }
    for (name, b) in s.bridges.iter_mut() {
        if b.ferry.as_ref().is_some_and(|f| f.unit == unit) {
            b.ferry = None;
            ctx.say(format!(
                "{unit} moves: the ferry on the {name} bridge is removed (2.18.3)"
            ));
        }
    }
}

/// Would an entry by `side` into `h` make a bridge its enemy wired contested (2.15.6: "when an
/// enemy Unit enters one of the two hexes sharing the bridge hexside and the bridge becomes
/// contested")? The bridge, if so: wired by the other side, not destroyed, and no hex of it
/// entered last by `side` since the wiring.
fn contests(s: &State, side: Side, h: Hex) -> Option<&'static super::data::BridgeDef> {
    DATA.bridges.iter().find(|d| {
        (d.hexes.0 == h || d.hexes.1 == h)
            && s.bridges.get(&d.name).is_some_and(|b| {
                b.wired_by == Some(side.other()) && !b.destroyed && b.contested.is_empty()
            })
    })
}

/// How many steps of a move are taken before a wired bridge (2.15.6: "If you demolish a
/// bridge … the enemy Unit cannot get across"): a step that makes a bridge the enemy wired
/// contested stops the move there when the next step would cross that bridge, so the wiring
/// side's demolition window comes first (decision 40). `placed`: the move places the unit on
/// `start`, an entry too.
pub fn demolition_stop(
    s: &State,
    ctx: &mut Ctx,
    side: Side,
    unit: &str,
    start: Hex,
    placed: bool,
    steps: &[Hex],
) -> usize {
    let entries = std::iter::once((start, placed)).chain(steps.iter().map(|h| (*h, true)));
    for (i, (h, entered)) in entries.enumerate() {
        let Some(next) = steps.get(i) else { break };
        if let Some(d) = contests(s, side, h).filter(|_| entered) {
            if bridge_at(h, *next).is_some_and(|b| b.name == d.name) {
                ctx.say(format!(
                    "{unit} stops at {h}: its entry contests the {} bridge the {} player wired, who may demolish it before it is crossed (2.15.6); the unit crosses with another move",
                    d.name,
                    side.other().name()
                ));
                return i;
            }
        }
    }
    steps.len()
}

/// Units of `side` entered `hexes` (a move's path, a placement, a ferry): each bridge's marks
/// follow the last to enter its two hexes (2.15.5). After a missed demolition, the side that
/// missed marks the hexes its units enter and the enemy clears them (decision 39); on a wired
/// bridge, the wiring side's entries clear the hexes the enemy entered, and the enemy entry
/// that makes it contested opens the wiring side's demolition window (2.15.6, decision 40).
pub fn entered(s: &mut State, ctx: &mut Ctx, side: Side, unit: &str, hexes: &[Hex]) {
    let mut window: Vec<(String, Hex, Side)> = Vec::new();
    for def in &DATA.bridges {
        let hit: Vec<Hex> = [def.hexes.0, def.hexes.1]
            .into_iter()
            .filter(|h| hexes.contains(h))
            .collect();
        let Some(b) = s.bridges.get_mut(&def.name).filter(|_| !hit.is_empty()) else {
            continue;
        };
        if let Some(r) = b.regain.as_mut() {
            for h in &hit {
                if r.side == side && !r.entered.contains(h) {
                    r.entered.push(*h);
                } else if r.side != side {
                    r.entered.retain(|x| x != h);
                }
            }
        }
        let Some(wirer) = b.wired_by.filter(|_| !b.destroyed) else {
            continue;
        };
        if wirer == side {
            b.contested.retain(|h| !hit.contains(h));
            continue;
        }
        let controlled = b.contested.is_empty();
        for h in &hit {
            if !b.contested.contains(h) {
                b.contested.push(*h);
            }
        }
        if controlled {
            window.push((def.name.clone(), hit[0], wirer));
        }
    }
    for (name, h, wirer) in window {
        ctx.say(format!(
            "{unit} enters {h}: the {name} bridge the {} player wired is contested; he may demolish it now (demolish {name} [fz]) or pass (2.15.6)",
            wirer.name()
        ));
        match s.demolition.as_mut().filter(|d| d.side == wirer) {
            Some(d) => d.bridges.push(name),
            None => {
                s.demolition = Some(Demolition {
                    side: wirer,
                    bridges: vec![name],
                    unit: unit.to_owned(),
                    hex: h,
                })
            }
        }
    }
}

/// Club Route's trace (4.2): refused across a destroyed bridge or an unstable stream bridge.
pub fn check_route(s: &State, from: Hex, path: &[Hex]) -> Result<(), RuleError> {
    let r = |m: String| rule("4.2 Establishing Club Route", m);
    let mut at = from;
    for &h in path {
        if let Some(b) = bridge_at(at, h) {
            if !s.bridges.get(&b.name).cloned().unwrap_or_default().open() {
                return Err(r(format!(
                    "the trace meets the destroyed {} bridge ({at}–{h}): stop at the last Stop hex before it",
                    b.name
                )));
            }
        }
        if let Some(b) = stream_bridge_at(at, h) {
            if s.stream_bridges.get(&b.name).is_some_and(|x| x.unstable) {
                return Err(r(format!(
                    "the trace meets the unstable stream bridge {} ({at}–{h}): stop at the last Stop hex before it",
                    b.name
                )));
            }
        }
        at = h;
    }
    Ok(())
}

/// The instant Club Route is traced across a stream bridge not yet checked, the Allied player
/// rolls (2.11); on a 9 the marker goes back to the last Stop hex before it (4.2). Returns how
/// many hexes of the trace stand (0: the marker stays).
pub fn roll_route(s: &mut State, ctx: &mut Ctx, from: Hex, path: &[Hex]) -> usize {
    let mut at = from;
    for (i, &h) in path.iter().enumerate() {
        if let Some(b) = stream_bridge_at(at, h) {
            if !s.stream_bridges.get(&b.name).is_some_and(|x| x.checked)
                && check_stability(s, ctx, Side::Allied, &b.name, "Club Route is traced across")
            {
                let back = path[..i].iter().rposition(|x| DATA.stop(*x).is_some());
                return back.map_or(0, |j| j + 1);
            }
        }
        at = h;
    }
    path.len()
}

/// `bulldozer <unit> <stream bridge>` (2.11): in a Guards Division Activation impulse, on an
/// unstable bridge's southern hex, one Bulldozer a bridge, no German on either hex.
pub fn check_bulldozer(s: &State, side: Side, unit: &str, bridge: &str) -> Result<(), RuleError> {
    let r = |m: String| rule(S2_11, m);
    if side != Side::Allied {
        return Err(r("only the Allied player has Bulldozers".into()));
    }
    if !DATA.bulldozers.iter().any(|(u, _)| u == unit) {
        let names: Vec<&str> = DATA.bulldozers.iter().map(|(u, _)| u.as_str()).collect();
        return Err(r(format!(
            "{unit} is not a Bulldozer: {}",
            names.join(", ")
        )));
    }
    if s.gone.iter().any(|u| u == unit) {
        return Err(r(format!("{unit} was eliminated")));
    }
    if s.stream_bridges
        .values()
        .any(|x| x.bulldozer.as_deref() == Some(unit))
    {
        return Err(r(format!("{unit} is on a bridge already")));
    }
    if division_impulse(s).as_deref() != Some("guards") {
        return Err(r(
            "a Bulldozer is placed during a Guards Divisional Activation impulse".into(),
        ));
    }
    let def = DATA.stream_bridge(bridge).ok_or_else(|| {
        let names: Vec<&str> = DATA
            .stream_bridges
            .iter()
            .map(|b| b.name.as_str())
            .collect();
        r(format!("no stream bridge '{bridge}': {}", names.join(", ")))
    })?;
    let x = s.stream_bridges.get(bridge).cloned().unwrap_or_default();
    if !x.unstable {
        return Err(r(format!("the stream bridge {bridge} is not unstable")));
    }
    if let Some(d) = &x.bulldozer {
        return Err(r(format!(
            "{d} is on {bridge} already: one Bulldozer a bridge"
        )));
    }
    if let Some(g) = german_on(s, def.hexes) {
        return Err(r(format!(
            "a German unit ({g}) is on the bridge's hexes: no Bulldozer under German Fire Zones"
        )));
    }
    Ok(())
}

pub fn bulldozer(s: &mut State, ctx: &mut Ctx, unit: &str, bridge: &str) -> Hex {
    let def = DATA.stream_bridge(bridge).expect("checked");
    let at = southern_hex(def.hexes);
    s.stream_bridges
        .entry(bridge.to_owned())
        .or_default()
        .bulldozer = Some(unit.to_owned());
    s.units.insert(
        unit.to_owned(),
        super::state::Unit {
            side: Side::Allied,
            hex: at,
            column: false,
        },
    );
    s.bulldozers_placed += 1;
    ctx.say(format!(
        "The Bulldozer {unit} is placed on {at}, the southern hex of the unstable bridge {bridge} (2.11; +1 to the next release rolls, 4.3.2)"
    ));
    entered(s, ctx, Side::Allied, unit, &[at]);
    at
}

/// `bulldoze <stream bridge>` (2.11): the repair roll, once a Guards Division impulse.
pub fn check_bulldoze(s: &State, side: Side, bridge: &str) -> Result<(), RuleError> {
    let r = |m: String| rule(S2_11, m);
    if side != Side::Allied || division_impulse(s).as_deref() != Some("guards") {
        return Err(r(
            "the Allied player rolls for the repair during a Guards Divisional Activation impulse"
                .into(),
        ));
    }
    let def = DATA
        .stream_bridge(bridge)
        .ok_or_else(|| r(format!("no stream bridge '{bridge}'")))?;
    let x = s.stream_bridges.get(bridge).cloned().unwrap_or_default();
    if !x.unstable || x.bulldozer.is_none() {
        return Err(r(format!(
            "no Bulldozer stands on an unstable {bridge}: bulldozer <unit> {bridge} first"
        )));
    }
    if x.rolled == Some(s.impulse_no) {
        return Err(r(format!(
            "{bridge} was rolled for this impulse: again in the next Guards Division impulse"
        )));
    }
    if let Some(g) = german_on(s, def.hexes) {
        return Err(r(format!("a German unit ({g}) is on the bridge's hexes")));
    }
    Ok(())
}

/// 2, 1 or 0 repairs it for the game; each failure adds a Men at Work marker, −1 to the next
/// rolls (the marker's modifier is reconstructed).
pub fn bulldoze(s: &mut State, ctx: &mut Ctx, bridge: &str) -> Hex {
    let face = d10(ctx);
    let now = s.impulse_no;
    let x = s.stream_bridges.entry(bridge.to_owned()).or_default();
    let total = face as i32 - x.men_at_work as i32;
    x.rolled = Some(now);
    let fixed = total <= 2;
    let dozer = x.bulldozer.clone().unwrap_or_default();
    ctx.say(format!(
        "{dozer} repairs the stream bridge {bridge}: the die reads {face}{} = {total}, needs 2 or less: {}",
        if x.men_at_work > 0 {
            format!(" −{} Men at Work", x.men_at_work)
        } else {
            String::new()
        },
        if fixed {
            "the bridge is stable for the rest of the game; the Bulldozer leaves the map"
        } else {
            "not yet; a Men at Work marker is added, roll again next Guards Division impulse"
        }
    ));
    if fixed {
        x.unstable = false;
        x.bulldozer = None;
        x.men_at_work = 0;
        s.units.remove(&dozer);
        s.vehicles.remove(&dozer);
    } else {
        x.men_at_work += 1;
    }
    DATA.stream_bridge(bridge)
        .map_or(Hex { col: 1, row: 1 }, |d| southern_hex(d.hexes))
}

/// `bailey <unit> <bridge>` (2.15.7).
pub fn check_bailey(s: &State, side: Side, unit: &str, bridge: &str) -> Result<(), RuleError> {
    let r = |m: String| rule(S2_15_7, m);
    if side != Side::Allied {
        return Err(r("only the Allied player repairs demolished bridges".into()));
    }
    let (_, division) = DATA
        .baileys
        .iter()
        .find(|(u, _)| u == unit)
        .ok_or_else(|| {
            let names: Vec<&str> = DATA.baileys.iter().map(|(u, _)| u.as_str()).collect();
            r(format!(
                "{unit} is not a Bailey Bridge unit: {}",
                names.join(", ")
            ))
        })?;
    if s.gone.iter().any(|u| u == unit) {
        return Err(r(format!("{unit} was eliminated: removed from play")));
    }
    if division == "43rd"
        && !DATA
            .release_line
            .iter()
            .any(|e| e.is_43rd && s.released.contains(&e.id))
    {
        return Err(r(format!(
            "{unit} is a 43rd Bailey: usable once a 43rd Infantry Formation is released"
        )));
    }
    if division_impulse(s).as_deref() != Some(division.as_str()) {
        return Err(r(format!(
            "{unit} comes in during a {} Divisional Activation impulse",
            if division == "guards" {
                "Guards Armored"
            } else {
                "43rd Infantry"
            }
        )));
    }
    if s.bridges
        .values()
        .any(|b| b.bailey.as_ref().is_some_and(|x| x.unit == unit))
    {
        return Err(r(format!("{unit} is on a bridge already")));
    }
    if s.bailey_impulse == Some(s.impulse_no) {
        return Err(r("one Bailey Bridge an impulse".into()));
    }
    let def = DATA
        .bridge(bridge)
        .ok_or_else(|| r(format!("no bridge '{bridge}'")))?;
    let x = s.bridges.get(bridge).cloned().unwrap_or_default();
    if !x.destroyed {
        return Err(r(format!("the {bridge} bridge is not demolished")));
    }
    if x.bailey.is_some() {
        return Err(r(format!("a Bailey is on the {bridge} bridge already")));
    }
    if x.destroyed_at.is_some_and(|t| t >= (s.day, s.time)) {
        return Err(r(format!(
            "the {bridge} bridge was demolished this turn: a Bailey comes on a turn after"
        )));
    }
    if let Some(g) = german_on(s, def.hexes) {
        return Err(r(format!(
            "a German unit ({g}) is on the bridge's hexes: no Bailey under German Fire Zones"
        )));
    }
    Ok(())
}

pub fn bailey(s: &mut State, ctx: &mut Ctx, unit: &str, bridge: &str) -> Hex {
    let def = DATA.bridge(bridge).expect("checked");
    let at = southern_hex(def.hexes);
    s.bridges.entry(bridge.to_owned()).or_default().bailey = Some(Bailey {
        unit: unit.to_owned(),
        bridged: false,
        disabled: false,
    });
    s.units.insert(
        unit.to_owned(),
        super::state::Unit {
            side: Side::Allied,
            hex: at,
            column: false,
        },
    );
    s.baileys_placed += 1;
    s.bailey_impulse = Some(s.impulse_no);
    ctx.say(format!(
        "The Bailey Bridge {unit} is placed truck side up on {at}, the southern hex of the demolished {bridge} bridge (2.15.7, a movement action; +2 to the next release rolls, 4.3.2)"
    ));
    entered(s, ctx, Side::Allied, unit, &[at]);
    at
}

/// The Engineer Actions of 2.15.3 ("an engineer Unit must pass"), 2.15.6 ("by one of your
/// engineer Units") and 2.18 ("Engineer Units can ferry"): a Unit of the order of battle without
/// the engineer symbol (its flag `engineer`, or the class) is refused (section 1: "the only
/// Unit counter symbol that has any effect on the game is the engineer symbol"). A counter
/// outside the order of battle is the players' (decision 12), unchecked as elsewhere.
pub fn check_engineer(section: &str, unit: &str, what: &str) -> Result<(), RuleError> {
    use super::oob::{Class, OOB};
    match OOB.unit(unit) {
        Some(u) if !u.engineer && u.class != Class::Engineer => Err(rule(
            section,
            format!(
                "{unit} is not an engineer Unit (no engineer symbol in the order of battle): only an engineer Unit may {what}; name one of your engineers"
            ),
        )),
        _ => Ok(()),
    }
}

/// Checks a `tq` for an engineering reason of 2.15.3, 2.15.7 or 2.18 before its die.
pub fn check_tq(s: &State, side: Side, unit: &str, reason: &[String]) -> Result<(), RuleError> {
    let what = reason.first().map(String::as_str).unwrap_or("");
    if !matches!(what, "improve" | "repair" | "ferry") {
        return Ok(());
    }
    let section = match what {
        "improve" => S2_15_3,
        "repair" => S2_15_7,
        _ => S2_18,
    };
    let r = |m: String| rule(section, m);
    let name = reason
        .get(1)
        .ok_or_else(|| r(format!("tq <unit> {what} <bridge> pass <faces>")))?;
    match what {
        "improve" => check_engineer(section, unit, "improve a railroad bridge")?,
        "ferry" => check_engineer(section, unit, "be a ferry")?,
        // 2.15.7: the Bailey Bridge Unit itself (checked below) repairs.
        _ => {}
    }
    let def = DATA
        .bridge(name)
        .ok_or_else(|| r(format!("no bridge '{name}'")))?;
    let x = s.bridges.get(name).cloned().unwrap_or_default();
    let pos = s.units.get(unit);
    // 2.15.7: "just like any other Engineer Action … the engineer Unit can't be in Column"
    // (2.18.1: becoming a ferry "is an Engineer Action").
    if pos.is_some_and(|u| u.column) {
        return Err(r(format!(
            "{unit} is in Column: an engineer Unit can't be in Column for an Engineer Action"
        )));
    }
    match what {
        "improve" => {
            if !def.railroad {
                return Err(r(format!("the {name} bridge is not a railroad bridge")));
            }
            let best = Hex { col: 49, row: 160 };
            if def.hexes.0 == best || def.hexes.1 == best {
                return Err(r(
                    "the Best Railroad Bridge (49.160) may never be improved".into()
                ));
            }
            if x.improved || x.destroyed {
                return Err(r(format!(
                    "the {name} bridge is {}",
                    if x.improved {
                        "improved already"
                    } else {
                        "destroyed"
                    }
                )));
            }
            if let Some(u) = pos.filter(|u| u.hex != def.hexes.0 && u.hex != def.hexes.1) {
                return Err(r(format!(
                    "{unit} is at {}: the engineer is in one of the bridge's hexes, {} or {}",
                    u.hex, def.hexes.0, def.hexes.1
                )));
            }
        }
        "repair" => {
            if side != Side::Allied
                || !x
                    .bailey
                    .as_ref()
                    .is_some_and(|b| b.unit == unit && !b.bridged)
            {
                return Err(r(format!(
                    "{unit} is not a Bailey truck side up on the {name} bridge: bailey {unit} {name} first"
                )));
            }
        }
        _ => {
            if !x.destroyed {
                return Err(r(format!(
                    "only a destroyed bridge's hexside takes a ferry; the {name} bridge is not"
                )));
            }
            if x.ferry.is_some() {
                return Err(r(format!("a ferry is on the {name} bridge already")));
            }
            let Some(u) = pos.filter(|u| u.hex == def.hexes.0 || u.hex == def.hexes.1) else {
                return Err(r(format!(
                    "{unit} begins its activation in {} or {}: move it there first",
                    def.hexes.0, def.hexes.1
                )));
            };
            if u.side != side {
                return Err(r(format!("{unit} is not yours")));
            }
        }
    }
    Ok(())
}

/// A passed engineering check: the bridge improved, repaired (the Bailey flipped, the
/// destroyed marker and any ferry removed), or a ferry made.
pub fn passed(s: &mut State, ctx: &mut Ctx, side: Side, unit: &str, reason: &[String]) {
    let what = reason.first().map(String::as_str).unwrap_or("");
    let Some(name) = reason.get(1) else { return };
    let Some(def) = DATA.bridge(name) else { return };
    let b = s.bridges.entry(name.clone()).or_default();
    match what {
        "improve" => {
            b.improved = true;
            ctx.say(format!(
                "The {name} railroad bridge is improved: vehicles may cross it (2.15.3)"
            ));
        }
        "repair" => {
            b.destroyed = false;
            b.destroyed_at = None;
            if let Some(x) = b.bailey.as_mut() {
                x.bridged = true;
            }
            ctx.say(format!("The {name} bridge is repaired: the destroyed marker comes off and {unit} flips to its Bridge side; it is a Unit and may be fired on (2.15.7)"));
            if b.ferry.take().is_some() {
                ctx.say(format!(
                    "The ferry on the {name} bridge is removed: a Bailey is in place (2.18.3)"
                ));
            }
        }
        "ferry" => {
            let at = s.units.get(unit).map_or(def.hexes.0, |u| u.hex);
            let to = if at == def.hexes.0 {
                def.hexes.1
            } else {
                def.hexes.0
            };
            b.ferry = Some(Ferry {
                unit: unit.to_owned(),
                side,
                at,
                to,
                suppressed: false,
            });
            ctx.say(format!("{unit} is now a ferry on the destroyed {name} bridge: marker at {at}, arrow to {to} (2.18.1)"));
        }
        _ => {}
    }
}

/// `ferry <unit> <bridge> [abandon]` (2.18.2).
pub fn check_ferry(
    s: &State,
    side: Side,
    unit: &str,
    bridge: &str,
    abandon: bool,
) -> Result<(Hex, Hex), RuleError> {
    let r = |m: String| rule("2.18.2 Using Ferries", m);
    let x = s.bridges.get(bridge).cloned().unwrap_or_default();
    let f = x
        .ferry
        .filter(|f| f.side == side)
        .ok_or_else(|| r(format!("you have no ferry on the {bridge} bridge")))?;
    if f.suppressed {
        return Err(r(format!(
            "the ferry ({}) is Suppressed: it ferries no Unit until it rallies",
            f.unit
        )));
    }
    if f.unit == unit {
        return Err(r(format!("{unit} is the ferry")));
    }
    let u = s.units.get(unit).ok_or_else(|| {
        r(format!(
            "{unit} begins its activation in {} or {}",
            f.at, f.to
        ))
    })?;
    if u.side != side {
        return Err(r(format!("{unit} is not yours")));
    }
    let (from, to) = if u.hex == f.at {
        (f.at, f.to)
    } else if u.hex == f.to {
        (f.to, f.at)
    } else {
        return Err(r(format!(
            "{unit} is at {}: a ferried Unit begins its activation in {} or {}",
            u.hex, f.at, f.to
        )));
    };
    check_leg_unit(s, unit, bridge, abandon)?;
    if !u.column {
        return Err(r(format!(
            "{unit} is not in Column: only a Unit in Column takes the ferry"
        )));
    }
    if let Some((n, _)) = s.units.iter().find(|(_, e)| e.side != side && e.hex == to) {
        return Err(r(format!(
            "{to} holds the enemy unit {n}: no ferrying into it"
        )));
    }
    Ok((from, to))
}

/// 2.18: "Only Leg Units can use a ferry"; 2.18.2: "Units that have Wheeled or Tracked Organic
/// Transport may use a ferry but they must abandon their vehicles to do so" (decision 38). A
/// Vehicle Unit — class `armor` in the order of battle, or a Unit whose move into its hex said
/// `wheeled` or `tracked` (decision 23) — is refused, `abandon` or not: it is the vehicle. A
/// Unit on a divisional truck or jeep (S5.3) dismounts first; a piggyback pair is refused
/// before, by S4.3 (`units::check_action`, decision 45). A Unit with organic transport (the
/// order of battle's `transport:`, or a move into its hex said `mounted`) not yet abandoned
/// crosses only with `abandon`; `abandon` with nothing to abandon is refused.
fn check_leg_unit(s: &State, unit: &str, bridge: &str, abandon: bool) -> Result<(), RuleError> {
    use super::oob::{Class, OOB};
    let r = |m: String| rule("2.18.2 Using Ferries", m);
    let def = OOB.unit(unit);
    let came = s.vehicles.get(unit).copied();
    // An armor Unit is its vehicle; a Unit that is a Vehicle Unit by its organic transport
    // (`units::is_vehicle`: recon, anti-tank, artillery, HQ) abandons it like any other.
    let vehicle = if def.is_some_and(|d| d.class == Class::Armor) {
        Some("a Vehicle Unit of the order of battle".to_owned())
    } else if let Some(t @ (Transport::Wheeled | Transport::Tracked)) = came {
        Some(format!(
            "a Vehicle Unit (its move into its hex said '{}')",
            t.name()
        ))
    } else {
        None
    };
    if let Some(what) = vehicle {
        return Err(r(format!(
            "{unit} is {what}: only Leg Units use a ferry (2.18), and a Vehicle Unit has no vehicles to abandon; it crosses the river by a bridge"
        )));
    }
    if let Some((kind, division)) = s.riding.get(unit) {
        return Err(r(format!(
            "{unit} rides a {division} {kind}: only Leg Units use a ferry; dismount it first (dismount {unit}), then ferry it"
        )));
    }
    let organic = if came == Some(Transport::Mounted) {
        Some("it came into its hex riding its organic transport ('mounted')".to_owned())
    } else {
        def.and_then(|d| d.transport.as_deref())
            .map(|t| format!("it has organic transport ({t}) in the order of battle"))
    };
    let abandoned = s.abandoned.iter().any(|a| a == unit);
    match organic {
        Some(why) if !abandon && !abandoned => Err(r(format!(
            "{unit}: {why}; a Unit with Wheeled or Tracked Organic Transport uses a ferry only by abandoning its vehicles for ever: ferry {unit} {bridge} abandon"
        ))),
        _ if abandon && abandoned => Err(r(format!(
            "{unit} abandoned its vehicles before: it has none to abandon; ferry {unit} {bridge}"
        ))),
        None if abandon => Err(r(format!(
            "{unit} has no organic transport to abandon (none in the order of battle, and its move did not say 'mounted'): ferry {unit} {bridge}"
        ))),
        _ => Ok(()),
    }
}

pub fn ferry(s: &mut State, ctx: &mut Ctx, unit: &str, bridge: &str, abandon: bool, to: Hex) {
    if let Some(u) = s.units.get_mut(unit) {
        u.hex = to;
    }
    // Decision 35: "Only Leg Units can use a ferry": it came into this hex on its legs.
    s.vehicles.remove(unit);
    if abandon && !s.abandoned.iter().any(|a| a == unit) {
        s.abandoned.push(unit.to_owned());
    }
    ctx.say(format!(
        "{unit} is ferried across the {bridge} bridge's hexside to {to}, its whole activation{} (2.18.2; opportunity fire as it leaves: +2 for being ferried)",
        if abandon {
            "; it abandons its vehicles for ever"
        } else {
            ""
        }
    ));
    if let Some(side) = s.units.get(unit).map(|u| u.side) {
        entered(s, ctx, side, unit, &[to]);
    }
}

/// Refuses a result that names a unit the rules protect or that is elsewhere (2.11: the
/// Bulldozer may not be attacked).
pub fn check_result(s: &State, hex: Hex, target: Option<&str>) -> Result<(), RuleError> {
    let Some(t) = target else { return Ok(()) };
    if s.stream_bridges
        .values()
        .any(|x| x.bulldozer.as_deref() == Some(t))
    {
        return Err(rule(
            S2_11,
            format!("{t} is a Bulldozer: it may not be attacked"),
        ));
    }
    if let Some(u) = s.units.get(t).filter(|u| u.hex != hex) {
        return Err(rule(
            "declared rolls",
            format!("{t} is at {}, not at {hex}", u.hex),
        ));
    }
    Ok(())
}

/// The consequences of a result for bridge units: a Bailey Suppressed or hit is no bridge until
/// it rallies (2.15.7); a ferry Suppressed ferries nobody, a Step Loss removes it (2.18.3); an
/// assault's loss eliminates ferry and engineer; a Bailey eliminated leaves the destroyed marker
/// back; a ferry's engineer eliminated takes the ferry with him.
pub fn result(
    s: &mut State,
    ctx: &mut Ctx,
    hex: Hex,
    class: &str,
    target: Option<&str>,
    fire: bool,
) {
    let hit = |unit: &str| target == Some(unit);
    for (name, b) in s.bridges.iter_mut() {
        if let Some(x) = b.bailey.as_mut().filter(|x| hit(&x.unit)) {
            if matches!(class, "suppressed" | "cohesion-hit") && !x.disabled {
                x.disabled = true;
                ctx.say(format!("The Bailey {} is {class}: it cannot act as the {name} bridge until it rallies (2.15.7)", x.unit));
            }
        }
        if let Some(f) = b.ferry.as_mut() {
            let loss = matches!(class, "step-loss" | "eliminated");
            if !fire && f.at == hex && loss {
                let unit = f.unit.clone();
                b.ferry = None;
                s.units.remove(&unit);
                ctx.say(format!(
                    "The ferry on the {name} bridge is assaulted: ferry and engineer {unit} are eliminated (2.18.3)"
                ));
            } else if hit(&f.unit.clone()) && loss {
                ctx.say(format!(
                    "The ferry {} takes a {class}: the ferry marker is removed (2.18.3)",
                    f.unit
                ));
                b.ferry = None;
            } else if hit(&f.unit.clone()) && class == "suppressed" {
                f.suppressed = true;
                ctx.say(format!(
                    "The ferry {} is Suppressed: it stays but ferries nobody until it rallies (2.18.3)",
                    f.unit
                ));
            }
        }
    }
    reconcile(s, ctx);
}

/// Bridge units no longer on the map: an eliminated Bailey leaves play and a repaired bridge is
/// destroyed again; an eliminated ferry's marker goes.
pub fn reconcile(s: &mut State, ctx: &mut Ctx) {
    let now = (s.day, s.time);
    let mut cut = false;
    for (name, b) in s.bridges.iter_mut() {
        if let Some(x) = b.bailey.clone().filter(|x| !s.units.contains_key(&x.unit)) {
            b.bailey = None;
            s.gone.push(x.unit.clone());
            if x.bridged {
                b.destroyed = true;
                b.destroyed_at = Some(now);
                cut = true;
            }
            ctx.say(format!(
                "The Bailey {} is eliminated and removed from play{} (2.15.7)",
                x.unit,
                if x.bridged {
                    format!("; the {name} bridge's destroyed marker returns")
                } else {
                    String::new()
                }
            ));
        }
        if b.ferry
            .as_ref()
            .is_some_and(|f| !s.units.contains_key(&f.unit))
        {
            b.ferry = None;
            ctx.say(format!(
                "The ferry on the {name} bridge is gone with its engineer (2.18.3)"
            ));
        }
    }
    if cut && super::highway::destroyed_bridge_on_route(s) && !s.highway.cut {
        s.highway.cut = true;
        ctx.say("A bridge on Club Route is destroyed: the Club Route marker goes to its Cut side (4.3.3)");
    }
}

/// A rally passed: a Bailey acts as a bridge again, a ferry ferries again.
pub fn rallied(s: &mut State, ctx: &mut Ctx, unit: &str) {
    for (name, b) in s.bridges.iter_mut() {
        if let Some(x) = b.bailey.as_mut().filter(|x| x.unit == unit && x.disabled) {
            x.disabled = false;
            ctx.say(format!(
                "{unit} rallies: it acts as the {name} bridge again"
            ));
        }
        if let Some(f) = b.ferry.as_mut().filter(|f| f.unit == unit && f.suppressed) {
            f.suppressed = false;
            ctx.say(format!(
                "{unit} rallies: the ferry on the {name} bridge works again"
            ));
        }
    }
}
