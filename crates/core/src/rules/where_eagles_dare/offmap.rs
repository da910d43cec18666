//! The off-map displays (5.0–5.2), campaign only. At 1900 step 4 the German player moves each
//! off-map formation, whole, to an adjacent box or from its box into the map display (to arrive
//! at 0700 next day at the box's reinforcement hex), or leaves it. His order names every
//! formation on the display and each destination by a private number: the hidden stream
//! re-draws, each 1900 and for each formation, which number names which destination, and only
//! the German view shows it, so the log and the Allied view reveal nothing. At step 5 each
//! flank corps rolls to advance one box (public, 5.0); a reinforcement hex behind a corps
//! takes no arrival (5.2). The displays are `data/offmap.txt` (reconstructed).

use super::data::{ChitKind, DATA};
use super::hex::Hex;
use super::oob::OOB;
use super::order::Command;
use super::state::{Corps, OffMap, Phase, Routing, Side, State, Wait};
use super::{d10, rule};
use crate::engine::ruleset::{Ctx, RuleError};

const S5_1: &str = "5.1 German Formation Movement on the Off-Map Display";

/// The campaign's starting boxes and corps.
pub fn setup(s: &mut State) {
    if !s.campaign {
        return;
    }
    for (_, f, start) in &DATA.offmap.formations {
        s.offmap.insert(f.clone(), OffMap::Box(start.clone()));
    }
    for c in &DATA.offmap.corps {
        s.corps.insert(c.id.clone(), Corps { at: 0, failures: 0 });
    }
}

/// Is entry `letter` of `display` behind a flank corps now (5.2)?
pub fn behind(s: &State, display: &str, letter: &str) -> Option<String> {
    DATA.offmap
        .behind
        .iter()
        .filter(|(d, l, _, _)| d == display && l == letter)
        .find_map(|(_, _, corps, bx)| {
            let track = DATA.offmap.corps.iter().find(|c| &c.id == corps)?;
            let at = s.corps.get(corps)?.at;
            let from = track.boxes.iter().position(|b| b == bx)?;
            (at >= from).then(|| format!("{corps} Corps in {}", track.boxes[at]))
        })
}

/// Every destination of a formation's display, in the file's order: its boxes, then
/// `map <letter>` for each reinforcement hex.
pub fn destinations(display: &str) -> Vec<String> {
    let mut out: Vec<String> = DATA
        .offmap
        .boxes_of(display)
        .map(|b| b.name.clone())
        .collect();
    let mut letters: Vec<&String> = DATA
        .offmap
        .boxes_of(display)
        .flat_map(|b| b.enters.iter())
        .collect();
    letters.sort();
    letters.dedup();
    out.extend(letters.into_iter().map(|l| format!("map {l}")));
    out
}

/// May a formation in `from` go to `to` (5.1)? Stay, an adjacent box, or the map display
/// through an entry of its box that is not behind a corps.
pub fn legal(s: &State, display: &str, from: &str, to: &str) -> Result<(), String> {
    if to == from || DATA.offmap.adjacent(display, from, to) {
        return Ok(());
    }
    if let Some(letter) = to.strip_prefix("map ") {
        let feeds = DATA
            .offmap
            .boxes_of(display)
            .any(|b| b.name == from && b.enters.iter().any(|l| l == letter));
        if !feeds {
            return Err(format!(
                "{from} does not lead to the map display at {letter}"
            ));
        }
        if let Some(corps) = behind(s, display, letter) {
            return Err(format!(
                "reinforcement hex {letter} is behind the {corps} (5.2)"
            ));
        }
        return Ok(());
    }
    Err(format!("{to} is not adjacent to {from}: one box a 1900"))
}

/// Step 4 begins: the private numbering is drawn from the hidden stream. Returns true when the
/// German has formations to move.
pub fn begin(s: &mut State, ctx: &mut Ctx) -> Result<bool, RuleError> {
    s.numbering.clear();
    if !s.campaign {
        return Ok(false);
    }
    let in_boxes: Vec<String> = s
        .offmap
        .iter()
        .filter(|(_, p)| match p {
            OffMap::Box(_) => true,
            OffMap::Routed { back } => *back <= s.day,
            _ => false,
        })
        .map(|(f, _)| f.clone())
        .collect();
    if in_boxes.is_empty() {
        return Ok(false);
    }
    for f in in_boxes {
        let display = DATA.offmap.display_of(&f).unwrap_or_default();
        let mut d = destinations(display);
        if matches!(s.offmap.get(&f), Some(OffMap::Routed { .. })) {
            d.retain(|x| !x.starts_with("map "));
        }
        for i in (1..d.len()).rev() {
            let j = ctx.hidden(i as u32 + 1)? as usize - 1;
            d.swap(i, j);
        }
        s.numbering.insert(f, d);
    }
    s.phase = Phase::OffMap;
    ctx.say("1900 step 4: the German player moves his off-map formations (secret, 5.1)");
    Ok(true)
}

/// `offmap <formation>:<number> …`: every formation on the display, each to the destination its
/// private number names this 1900. The public line says nothing; the German's own says all.
pub fn order(s: &mut State, ctx: &mut Ctx, moves: &[(String, u32)]) -> Result<(), RuleError> {
    let r = |m: String| rule(S5_1, m);
    let mut plan = Vec::new();
    for (f, list) in &s.numbering {
        let Some((_, n)) = moves.iter().find(|(g, _)| g == f) else {
            return Err(r(format!(
                "name every formation on the display, {f} too (its number for staying is in your view)"
            )));
        };
        let to = usize::try_from(*n)
            .ok()
            .and_then(|n| n.checked_sub(1))
            .and_then(|i| list.get(i))
            .ok_or_else(|| {
                r(format!(
                    "{f}: number {n} names nothing; your view lists 1 to {}",
                    list.len()
                ))
            })?;
        let display = DATA.offmap.display_of(f).unwrap_or_default();
        let from = match s.offmap.get(f) {
            Some(OffMap::Box(from)) => {
                legal(s, display, from, to).map_err(|m| r(format!("{f} ({n}): {m}")))?;
                from.clone()
            }
            // S3.1: a routed formation re-enters any box of its display.
            Some(OffMap::Routed { .. }) => "routed".to_owned(),
            _ => return Err(r(format!("{f} is not in a box"))),
        };
        plan.push((f.clone(), from, to.clone()));
    }
    if let Some((g, _)) = moves.iter().find(|(g, _)| !s.numbering.contains_key(g)) {
        return Err(r(format!("{g} is not a formation on the off-map display")));
    }
    if moves.len() != plan.len() {
        return Err(r("name each formation once".into()));
    }
    let mut lines = Vec::new();
    for (f, from, to) in plan {
        let at = match to.strip_prefix("map ") {
            Some(letter) => OffMap::Entering {
                letter: letter.to_owned(),
                from: from.clone(),
            },
            None => OffMap::Box(to.clone()),
        };
        lines.push(format!("{f}: {from} → {to}"));
        s.offmap.insert(f, at);
    }
    s.numbering.clear();
    ctx.say("The German player has moved on his off-map display");
    ctx.say_to(
        &[Side::German.seat()],
        format!("Your off-map moves: {}", lines.join("; ")),
    );
    Ok(())
}

/// The German missed the deadline: every formation stays.
pub fn stay(s: &mut State, ctx: &mut Ctx) {
    s.numbering.clear();
    ctx.say("The German player has moved on his off-map display");
}

/// Step 5: each flank corps rolls to advance one box (5.2), campaign only.
pub fn corps(s: &mut State, ctx: &mut Ctx) {
    if !s.campaign {
        return;
    }
    for track in &DATA.offmap.corps {
        let Some(c) = s.corps.get(&track.id).cloned() else {
            continue;
        };
        let Some(arrow) = track.arrows.get(c.at) else {
            continue;
        };
        let into = &track.boxes[c.at + 1];
        let germans = s
            .offmap
            .values()
            .filter(|p| matches!(p, OffMap::Box(b) if b == into))
            .count() as i32;
        let off_map = if s.marker.is_none() { -4 } else { 0 };
        let face = d10(ctx);
        let total = face as i32 - c.failures as i32 + germans + off_map;
        let advances = total <= *arrow as i32;
        let corps = s.corps.get_mut(&track.id).expect("present");
        if advances {
            corps.at += 1;
            ctx.say(format!(
                "{} Corps rolls {face}: it advances into {into} (5.2)",
                track.id.to_uppercase()
            ));
        } else {
            corps.failures += 1;
            ctx.say(format!(
                "{} Corps rolls {face}: it stays in {} ({} failed attempts, −1 each, 5.2)",
                track.id.to_uppercase(),
                track.boxes[c.at],
                corps.failures
            ));
        }
        ctx.say_to(
            &[Side::German.seat()],
            format!(
                "{}: {face} −{} failures {:+} German formations in {into}{} = {total} against {arrow}",
                track.id.to_uppercase(),
                c.failures,
                germans,
                if off_map != 0 { " −4 Club Route off the map" } else { "" }
            ),
        );
    }
}

/// 0700: formations in the map display arrive at their reinforcement hex, unless a corps now
/// stands in front of it (5.2): then the formation stays in the box it came from.
pub fn arrive(s: &mut State, ctx: &mut Ctx) {
    let entering: Vec<(String, String, String)> = s
        .offmap
        .iter()
        .filter_map(|(f, p)| match p {
            OffMap::Entering { letter, from } => Some((f.clone(), letter.clone(), from.clone())),
            _ => None,
        })
        .collect();
    for (f, letter, from) in entering {
        let display = DATA.offmap.display_of(&f).unwrap_or_default();
        if let Some(corps) = behind(s, display, &letter) {
            ctx.say_to(
                &[Side::German.seat()],
                format!("{f} may not arrive at {letter}: it is behind the {corps} (5.2); it stays in {from}"),
            );
            s.offmap.insert(f, OffMap::Box(from));
        } else {
            ctx.say(format!(
                "{}: {f} arrives at reinforcement hex {letter} from the off-map display (5.1)",
                s.clock()
            ));
            s.offmap.insert(f, OffMap::OnMap);
        }
    }
}

/// An Independent Unit: its formation is activated by an Independent chit (S3.1 Rout's
/// "Independent Units").
fn is_independent(u: &super::oob::UnitDef) -> bool {
    OOB.formation(&u.formation)
        .and_then(|g| g.chit.as_deref())
        .and_then(|c| DATA.chit(c))
        .is_some_and(|c| c.kind == ChitKind::Independent)
}

/// 5.1: a formation on its off-map display (in a box, on the map display waiting for 0700, or
/// routed beside it) has no unit on the map: its units act once it has arrived. The refusal
/// goes to the German alone, who moves them; it names nothing the Allied player may see.
pub fn check_unit_on_map(s: &State, unit: &str) -> Result<(), RuleError> {
    let Some(f) = super::oob::OOB.formation_of(unit) else {
        return Ok(());
    };
    let at = match s.offmap.get(&f.id) {
        None | Some(OffMap::OnMap) => return Ok(()),
        Some(OffMap::Box(b)) => format!("in box {b} of its off-map display"),
        Some(OffMap::Entering { letter, .. }) => {
            format!("on the map display, arriving at reinforcement hex {letter} at 0700")
        }
        Some(OffMap::Routed { back }) => {
            format!("routed beside its display until 0700 {back} Sept")
        }
    };
    Err(rule(
        "5.1 German Formation Movement on the Off-Map Display",
        format!(
            "{unit} is of {}, which is {at}: its units are not on the map",
            f.id
        ),
    ))
}

/// `rout <formation> [<unit> …|none]` (S3.1 Rout). A German formation of an off-map display, on
/// the map: its routed units (those of the order of battle on the map, and the German
/// Independent Units stacked with them) move one hex out of the enemy's Fire Zones and "are
/// then taken off the map and placed to the side of the respective Division Display"; "any
/// German Units remaining from the routed Formation on the map (those that couldn't retreat one
/// hex and not be in an enemy Fire Zone) are now eliminated from the game". The units named are
/// those taken off (decision 33: a bare `rout <formation>` takes every routed unit off, `none`
/// names none), every other routed unit is eliminated (its steps kept, decision 21); a counter
/// outside the order of battle is taken off only if named (decision 12). The formation waits
/// beside its display until the next 0700 (the second, if it routs at 1700, 1900 or Night),
/// then re-enters a box of the German's choosing by his next off-map order (the 1900 step 4 of
/// that day). A 59th Formation rolls (`rout_59th`, decision 43); an Allied one is settled by
/// `routing` (decision 30); any other German Formation: the players carry the rout out, and the
/// engine takes the named German units off the map.
pub fn rout(
    s: &mut State,
    ctx: &mut Ctx,
    formation: &str,
    units: &[String],
) -> Result<(), RuleError> {
    let r = |m: String| rule("S3.1 Rout", m);
    let routs_off = DATA.offmap.display_of(formation).is_some();
    // Decision 33: `none` alone names no unit taken off.
    let none = units.len() == 1 && units[0] == "none" && !s.units.contains_key("none");
    let named: &[String] = if none { &[] } else { units };
    for u in named {
        match s.units.get(u) {
            Some(x) if x.side == Side::German => {}
            _ => return Err(r(format!("{u} is not a German unit on the map"))),
        }
    }
    if routs_off && s.offmap.get(formation) != Some(&OffMap::OnMap) {
        return Err(r(format!("{formation} is not on the map")));
    }
    let lost = rout_condition(s, formation)?;
    if is_59th(formation) {
        return rout_59th(s, ctx, formation, named, &lost);
    }
    let routed = if routs_off {
        routed_units(s, formation).unwrap_or_default()
    } else {
        Vec::new()
    };
    if routs_off {
        if let Some(u) = named
            .iter()
            .find(|u| OOB.unit(u).is_some() && !routed.contains(u))
        {
            return Err(r(format!(
                "{u} is neither a unit of {formation} on the map nor an Independent Unit stacked with one: only the routed units are taken off the map ({})",
                if routed.is_empty() { "none on the map".to_owned() } else { routed.join(", ") }
            )));
        }
    }
    let taken: Vec<String> = if routs_off && units.is_empty() {
        routed.clone()
    } else {
        named.to_vec()
    };
    let eliminated: Vec<String> = routed
        .iter()
        .filter(|u| !taken.contains(u))
        .cloned()
        .collect();
    for u in &taken {
        s.units.remove(u);
        // Decision 35: beside the display, it came into no hex; it re-enters by a new move.
        s.vehicles.remove(u);
        // S3.1: they leave with their losses, without their Cohesion or Suppression markers.
        if let Some(m) = s.marks.get_mut(u) {
            m.suppressed = false;
            m.cohesion = 0;
        }
    }
    s.marks.retain(|_, m| !m.is_clear());
    for u in &eliminated {
        s.units.remove(u);
        super::losses::eliminate(s, u);
    }
    s.end_wait(Wait::is_rout);
    if routs_off {
        let back = s.day
            + if s.time >= super::sequence::T1700 {
                2
            } else {
                1
            };
        s.offmap
            .insert(formation.to_owned(), OffMap::Routed { back });
        let mut what = Vec::new();
        if !taken.is_empty() {
            what.push(format!(
                "{} move one hex out of the enemy's Fire Zones, with no opportunity fire, and are taken off the map to the side of its Division Display, with their losses, without Cohesion or Suppression markers",
                taken.join(", ")
            ));
        }
        if !eliminated.is_empty() {
            what.push(format!(
                "{} could not leave the enemy's Fire Zones by one hex and are eliminated from the game",
                eliminated.join(", ")
            ));
        }
        if what.is_empty() {
            what.push("no unit of it is on the map, none is taken off".to_owned());
        }
        ctx.say(format!(
            "{formation} routs (S3.1; {lost}): {}; it may re-enter its off-map display from 0700 {back} Sept",
            what.join("; ")
        ));
    } else if let Some(routed) = allied_routed(s, formation) {
        ctx.say(format!(
            "{formation} routs (S3.1; {lost}): the Allied player moves each of its units in an enemy Fire Zone one hex out of the Fire Zones, with no opportunity fire (move <unit> <hex>), places an Entrenched marker on each that cannot leave them by one hex (entrench <unit>), and passes for the rest, not in a Fire Zone: {}",
            if routed.is_empty() { "no unit of it is on the map".to_owned() } else { routed.join(", ") }
        ));
        if !routed.is_empty() {
            s.ask(Wait::Routing(Routing {
                side: Side::Allied,
                formation: formation.to_owned(),
                units: routed,
            }));
        }
    } else {
        ctx.say(format!(
            "{formation} routs (S3.1; {lost}): the players carry it out{}",
            if units.is_empty() {
                String::new()
            } else {
                format!("; {} leave the map", units.join(", "))
            }
        ));
    }
    Ok(())
}

/// Is this a Formation of the 59th Infantry Division of the order of battle (KG Huber too, when
/// the 59th controls it: S5.5 "is considered a 59th Infantry Formation")?
pub fn is_59th(formation: &str) -> bool {
    OOB.formation(formation)
        .is_some_and(|f| f.side == Side::German && f.division == "59th")
}

/// The units a 59th Formation's rout removes from play (S3.1): its units of the order of
/// battle, and the German Independent Units of the order of battle on the map within the
/// Command Range of one of its Leaders on the map (decision 43). The second list: the Leaders
/// on the map, as the line says them.
fn removed_59th(s: &State, formation: &str) -> (Vec<String>, Vec<String>) {
    let mut out: Vec<String> = OOB.units_of(formation).map(|u| u.id.clone()).collect();
    let leaders: Vec<(String, Hex, u32)> = OOB
        .leaders_of(formation)
        .filter_map(|l| {
            s.units
                .get(&l.id)
                .map(|u| (l.id.clone(), u.hex, l.range.unwrap_or(0)))
        })
        .collect();
    for u in &OOB.units {
        let independent = is_independent(u);
        let in_range = s.units.get(&u.id).is_some_and(|x| {
            x.side == Side::German
                && leaders
                    .iter()
                    .any(|(_, at, range)| at.distance(x.hex) <= *range)
        });
        if independent && in_range && !out.contains(&u.id) {
            out.push(u.id.clone());
        }
    }
    let said = leaders
        .iter()
        .map(|(l, at, range)| format!("{l} at {at}, range {range}"))
        .collect();
    (out, said)
}

/// S3.1 Rout of a Formation of the 59th Infantry Division: "Count up the number of step losses
/// that Formation has suffered to this point and roll a die. If you roll that number or less,
/// the Formation has routed and is removed from play. All Independent Units within range of
/// the Leader of that Formation are also removed from play. Once removed, 59th Infantry
/// Division Units never return to play" (decision 43). The engine counts the losses (the marks
/// and the eliminated units' steps, decisions 15, 21) and draws the die; on that or less every
/// unit of the Formation and every German Independent Unit of the order of battle within a
/// Leader's Command Range leave play (`State::gone`), and the counters outside the order of
/// battle the German named with them (decision 12: which are Independents in range is his to
/// say). A unit of the order of battle named that the rout does not remove is refused before
/// the die.
fn rout_59th(
    s: &mut State,
    ctx: &mut Ctx,
    formation: &str,
    named: &[String],
    lost: &str,
) -> Result<(), RuleError> {
    let (removed, leaders) = removed_59th(s, formation);
    if let Some(u) = named
        .iter()
        .find(|u| OOB.unit(u).is_some() && !removed.contains(u))
    {
        return Err(rule(
            "S3.1 Rout",
            format!(
                "{u} is neither a unit of {formation} nor an Independent Unit within range of its Leader{}: a routed 59th Formation removes only those; name the counters outside the order of battle that are Independents in range, or none",
                if leaders.is_empty() {
                    " (none of its Leaders is on the map)".to_owned()
                } else {
                    format!(" ({})", leaders.join("; "))
                }
            ),
        ));
    }
    let losses = super::losses::formation_losses(s, formation);
    s.end_wait(Wait::is_rout);
    let face = d10(ctx);
    if face > losses {
        ctx.say(format!(
            "{formation} of the 59th Infantry Division: {losses} step{} lost ({lost}); the die reads {face}, more: it does not rout and stays in play (S3.1 Rout)",
            if losses == 1 { "" } else { "s" }
        ));
        return Ok(());
    }
    let mut out: Vec<String> = removed
        .iter()
        .filter(|u| !s.gone.contains(u))
        .cloned()
        .collect();
    for u in named {
        if !out.contains(u) {
            out.push(u.clone());
        }
    }
    let mut left_map = Vec::new();
    for u in &out {
        if s.units.remove(u).is_some() {
            left_map.push(u.clone());
        }
        super::losses::clear_markers(s, u);
        s.entrenched.remove(u);
        if let Some((kind, division)) = s.riding.remove(u) {
            *s.assets_lost
                .entry(format!("{kind}:{division}"))
                .or_default() += 1;
            ctx.say(format!(
                "{u}'s {division} {kind} leaves the game with it (S5.3)"
            ));
        }
        s.gone.push(u.clone());
    }
    s.piggyback
        .retain(|v, i| s.units.contains_key(v) && s.units.contains_key(i));
    ctx.say(format!(
        "{formation} of the 59th Infantry Division: {losses} step{} lost ({lost}); the die reads {face}, that or less: it routs and is removed from play, with the Independent Units within range of its Leader ({}), never to return (S3.1 Rout): {}",
        if losses == 1 { "" } else { "s" },
        if leaders.is_empty() {
            "none of its Leaders on the map".to_owned()
        } else {
            leaders.join("; ")
        },
        if left_map.is_empty() {
            "no unit of it is on the map".to_owned()
        } else {
            format!("{} leave the map", left_map.join(", "))
        }
    ));
    Ok(())
}

/// S3.1 Rout of a 101st Airborne or Guards Armored Formation (decision 30: any Allied Formation
/// of the order of battle): its units on the map, and the Independent Units stacked with them
/// ("treated as Units of that Formation"), in the order of battle's order. `None` for a
/// Formation that is not an Allied one of the order of battle.
pub fn allied_routed(s: &State, formation: &str) -> Option<Vec<String>> {
    OOB.formation(formation)
        .filter(|f| f.side == Side::Allied)?;
    routed_units(s, formation)
}

/// S3.1 Rout: a Formation of the order of battle's routed units: its units on the map, and the
/// Independent Units of its side stacked with them ("treated as Units of that Formation"), in
/// the order of battle's order. `None` for a Formation outside the order of battle.
pub fn routed_units(s: &State, formation: &str) -> Option<Vec<String>> {
    let f = OOB.formation(formation)?;
    let mut out: Vec<String> = OOB
        .units_of(&f.id)
        .filter(|u| s.units.contains_key(&u.id))
        .map(|u| u.id.clone())
        .collect();
    let hexes: Vec<Hex> = out.iter().map(|u| s.units[u].hex).collect();
    for u in &OOB.units {
        let independent = is_independent(u);
        if independent
            && !out.contains(&u.id)
            && s.units
                .get(&u.id)
                .is_some_and(|x| x.side == f.side && hexes.contains(&x.hex))
        {
            out.push(u.id.clone());
        }
    }
    Some(out)
}

/// S3.1 Rout's condition, checked against the marks (decision 15) and the eliminated units
/// (decision 21: every step of theirs is lost): the Formation "must have at least one Step
/// Loss on any one of its Units (not including Independent Units)". An
/// Independent Formation is never chosen (its units' losses do not count); a Formation of the
/// order of battle with no step lost on its units' marks is refused. A Formation outside the
/// order of battle is the players' own (decision 12): its losses are theirs to check. Its Fire
/// Zone condition is the series' and stated. Returns the losses, as the line says them.
pub fn rout_condition(s: &State, formation: &str) -> Result<String, RuleError> {
    let r = |m: String| rule("S3.1 Rout", m);
    let Some(f) = OOB.formation(formation) else {
        return Ok(
            "a Formation outside the order of battle: its step losses are the players'".into(),
        );
    };
    let independent = f
        .chit
        .as_deref()
        .and_then(|c| DATA.chit(c))
        .is_some_and(|c| c.kind == ChitKind::Independent);
    if independent {
        return Err(r(format!(
            "{formation} is an Independent Formation: a Formation routs with a Step Loss on one of its Units, not counting Independent Units; name another Formation (the Independent Units stacked with it rout with it), or pass"
        )));
    }
    let hurt: Vec<String> = OOB
        .units_of(formation)
        .filter_map(|u| match s.eliminated.get(&u.id) {
            Some(n) => Some(format!("{} {n} (eliminated)", u.id)),
            None => s
                .marks
                .get(&u.id)
                .filter(|m| m.lost > 0)
                .map(|m| format!("{} {}", u.id, m.lost)),
        })
        .collect();
    if hurt.is_empty() {
        return Err(r(format!(
            "{formation} has no step lost on its units (the stated results mark none): a Formation routs only with at least one Step Loss on one of its Units; name a Formation with a step lost, or pass"
        )));
    }
    Ok(format!("steps lost: {}", hurt.join(", ")))
}

/// The routed Allied units' moves (S3.1 Rout, decision 30), before anything else: the
/// Formation's owner moves each unit still to settle exactly one hex (`move <unit> <hex>`, the
/// moves' checks, no opportunity fire window: "The enemy may not Opportunity Fire at the Allied
/// units during this one hex move"), or leaves it in its hex under an Entrenched marker
/// (`entrench <unit>`, no opportunity fire either), or passes: the rest are not in an enemy Fire
/// Zone and "nothing is placed on them". Fire Zones are the series' and the players': which
/// units must move is stated by the moves. The rout ends when no unit is left to settle.
pub fn routing(
    s: &mut State,
    ctx: &mut Ctx,
    side: Side,
    r: &Routing,
    c: &Command,
) -> Result<(), RuleError> {
    let refuse = |m: String| rule("S3.1 Rout", m);
    let what = format!(
        "the {} player settles the routed units of {} first: move <unit> <hex> (one hex, out of the enemy's Fire Zones), entrench <unit> (one that cannot leave them), or pass ({})",
        r.side.name(),
        r.formation,
        r.units.join(", ")
    );
    if side != r.side {
        return Err(refuse(what));
    }
    let settle = |s: &mut State, ctx: &mut Ctx, unit: &str| {
        if let Some(Wait::Routing(x)) = s.wait.as_mut() {
            x.units.retain(|u| u != unit);
            if x.units.is_empty() {
                s.wait = None;
                ctx.say(format!(
                    "Every routed unit of {} has moved or entrenched: the rout is over (S3.1)",
                    r.formation
                ));
            }
        }
    };
    if let Command::Move { unit, .. } | Command::Entrench { unit } = c {
        if !r.units.contains(unit) {
            return Err(refuse(format!(
                "{unit} is not a routed unit of {} still to move: {what}",
                r.formation
            )));
        }
    }
    match c {
        Command::Move {
            unit,
            path,
            column,
            transport,
            cohesion,
        } => {
            if path.len() != 1 {
                return Err(refuse(format!(
                    "a routed unit moves one hex, out of the enemy's Fire Zones: move {unit} <hex>, one hex next to it"
                )));
            }
            super::declared::move_unit(s, ctx, side, unit, path, *column, *transport, *cohesion)?;
            ctx.say(format!(
                "{unit} routs one hex: no opportunity fire at it (S3.1 Rout)"
            ));
            settle(s, ctx, unit);
            Ok(())
        }
        Command::Entrench { unit } => {
            s.entrenched.insert(unit.clone());
            ctx.say(format!(
                "{unit} cannot leave the enemy's Fire Zones by one hex: it stays, under an Entrenched marker; no opportunity fire on it (S3.1 Rout)"
            ));
            settle(s, ctx, unit);
            Ok(())
        }
        Command::Pass => {
            s.end_wait(Wait::is_routing);
            ctx.say(format!(
                "The other routed units of {} ({}) are not in an enemy Fire Zone: they stay, and nothing is placed on them (S3.1 Rout)",
                r.formation,
                r.units.join(", ")
            ));
            Ok(())
        }
        _ => Err(refuse(what)),
    }
}
