//! Command over the OOB (`oob.rs`): which units a chit activates, who is In Command and what a
//! command action costs, as the exclusive rules bend the series' command rules — S6.5 (44 RTR
//! and the 15/19 KRH are Independents of the 101st), S6.6 (a 101st Unit commanded by another
//! 101st Leader pays 2 CP, and is not activated by that Leader's chit), S6.7 (American
//! telephones), S6.8 (self command) — and the 231st Brigade's deployment line (S6.10).
//!
//! Only units of the OOB are checked: a unit the OOB does not list is the players' own counter.

use super::data::{ChitKind, DATA};
use super::hex::Hex;
use super::oob::{Class, UnitDef, OOB};
use super::rule;
use super::state::{Side, State};
use crate::engine::ruleset::{Ctx, RuleError};

/// Does the chit `chit` activate the OOB unit `unit`? `None` for a unit outside the OOB.
/// A Formation, Independent or Artillery chit activates its formation only (S6.5: 44 RTR and
/// the 15/19 KRH are the 101st Independent Formation's; S6.6: a 101st Unit in the Command Range
/// of another 101st Leader is not activated by that Leader's chit); a Division Activation chit
/// every formation of its division (the Eindhoven Regional Command's are KG Chill's once it
/// has replaced it, S5.1.1); Direct Command any unit of its side.
pub fn activates(s: &State, chit: &str, unit: &str) -> Option<bool> {
    let f = OOB.formation_of(unit)?;
    let c = DATA.chit(chit)?;
    if c.side != f.side {
        return Some(false);
    }
    let division = |d: &str| d == f.division || (s.kg_chill && d == "chill" && f.division == "erc");
    Some(match c.kind {
        ChitKind::Direct => true,
        ChitKind::Division => c.division.as_deref().is_some_and(division),
        // S5.3, S6.3: on a divisional truck or jeep "the Unit is now treated as an Independent
        // Formation Unit until it dismounts" (decision 44): its division's Independent chit,
        // not its own Formation's.
        ChitKind::Independent if s.riding.contains_key(unit) => {
            c.division.as_deref().is_some_and(division)
        }
        _ if s.riding.contains_key(unit) => false,
        _ => f.chit.as_deref() == Some(chit),
    })
}

/// A unit of the OOB acts in its own side's impulse only when the chit in play activates it
/// (S6.5, S6.6). No chit in play (a position set by hand) or a unit outside the OOB: no check.
pub fn check_active(s: &State, side: Side, unit: &str) -> Result<(), RuleError> {
    let Some(f) = OOB.formation_of(unit) else {
        return Ok(());
    };
    if f.side != side {
        return Err(rule(
            "order of battle",
            format!(
                "{unit} is a {} unit ({}, {})",
                f.side.name(),
                f.id,
                f.division
            ),
        ));
    }
    let Some(chit) = s.chit.as_deref() else {
        return Ok(());
    };
    if activates(s, chit, unit) == Some(false) {
        let by = match f.chit.as_deref() {
            Some(c) => format!("its Formation chit {c}, "),
            None => String::new(),
        };
        if let Some((kind, division)) = s.riding.get(unit) {
            return Err(rule(
                "S5.3 Divisional Trucks / S6.3 Divisional Jeeps",
                format!(
                    "{unit} rides a {division} {kind}: it is an Independent Formation Unit until it dismounts, and {chit} does not activate it; it acts with {}the {} Division Activation chit or Direct Command",
                    DATA.chits
                        .iter()
                        .find(|c| c.kind == ChitKind::Independent
                            && c.division.as_deref() == Some(f.division.as_str()))
                        .map_or(String::new(), |c| format!("the {} Independent Formation chit {}, ", f.division, c.id)),
                    f.division
                ),
            ));
        }
        let section = if f.id == "ind-101"
            && OOB
                .unit(unit)
                .is_some_and(|u| u.id.contains("44rtr") || u.id.contains("15-19krh"))
        {
            "S6.5 44 RTR and the 15/19 KRH"
        } else if f.division == "101st" {
            "S6.6 101st Airborne Non-Formation Command"
        } else {
            "activation"
        };
        return Err(rule(
            section,
            format!(
                "{unit} ({} of the {}) is not activated by {chit}: it acts with {by}the {} Division Activation chit or Direct Command",
                f.id, f.division, f.division
            ),
        ));
    }
    Ok(())
}

/// How a unit is In Command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InCommand {
    /// Within Command Range of a Leader of its own formation (or a Leader itself).
    Own(String),
    /// S6.6: within Command Range of another 101st Leader: an Action costing 1 CP costs 2.
    Other101(String),
    /// S6.7: by telephone, any distance.
    Telephone(String),
    /// S6.8: always.
    SelfCommand,
}

impl InCommand {
    /// The CP an Action costs that would otherwise cost `base`.
    pub fn cost(&self, base: u32) -> u32 {
        match self {
            InCommand::Other101(_) if base == 1 => 2,
            _ => base,
        }
    }
}

/// Who commands `unit`: the Leader named (`by`), else its formation's; `phone`: the player
/// states that unit and Leader are both in a town, city, fortified hex, strongpoint or
/// observation post (S6.7; the hexes' terrain is the players' until the map is loaded).
/// Positions the engine knows are checked against the Leader's Command Range.
pub fn in_command(
    s: &State,
    side: Side,
    unit: &str,
    by: Option<&str>,
    phone: bool,
) -> Result<InCommand, RuleError> {
    let u = OOB.unit(unit).ok_or_else(|| {
        rule(
            "order of battle",
            format!("{unit} is not in the order of battle (data/oob.txt): spend the points with 'spend <n> cp -- <what for>'"),
        )
    })?;
    check_side(u, side)?;
    if u.self_command && by.is_none() {
        return Ok(InCommand::SelfCommand);
    }
    if u.class == Class::Leader && by.is_none() {
        return Ok(InCommand::Own(u.id.clone()));
    }
    let leader = match by {
        Some(l) => OOB
            .unit(l)
            .filter(|l| l.class == Class::Leader)
            .ok_or_else(|| {
                rule(
                    "command",
                    format!("{l} is not a Leader of the order of battle"),
                )
            })?,
        None => OOB.leaders_of(&u.formation).next().ok_or_else(|| {
            rule(
                "command",
                format!(
                    "the {} formation has no Leader: name one with 'by <leader>'",
                    u.formation
                ),
            )
        })?,
    };
    check_side(leader, side)?;
    let lf = OOB.formation_of(&leader.id).expect("a leader's formation");
    let uf = OOB.formation_of(unit).expect("a unit's formation");
    if phone {
        if !OOB.american(unit) {
            return Err(rule(
                "S6.7 American Telephones",
                format!("{unit} is not an American unit"),
            ));
        }
        if !leader.telephone {
            return Err(rule(
                "S6.7 American Telephones",
                format!("{} has no telephone symbol on his counter", leader.id),
            ));
        }
        if lf.id != uf.id && !(lf.division == "101st" && OOB.american(unit)) {
            return Err(rule(
                "S6.7 American Telephones",
                format!("{} cannot command {unit}", leader.id),
            ));
        }
        return Ok(InCommand::Telephone(leader.id.clone()));
    }
    let kind = if lf.id == uf.id {
        InCommand::Own(leader.id.clone())
    } else if lf.division == "101st" && uf.division == "101st" {
        InCommand::Other101(leader.id.clone())
    } else {
        return Err(rule(
            "S6.6 101st Airborne Non-Formation Command",
            format!(
                "{} (of {}) does not command {unit} (of {}): only a 101st Unit may be In Command by a Leader of another formation, a 101st Leader",
                leader.id, lf.id, uf.id
            ),
        ));
    };
    if let (Some(a), Some(b)) = (position(s, unit), position(s, &leader.id)) {
        let range = leader.range.unwrap_or(0);
        let d = a.distance(b);
        if d > range {
            return Err(rule(
                "command",
                format!(
                    "{unit} at {a} is {d} hexes from {} at {b}, beyond his Command Range of {range}: not In Command{}",
                    leader.id,
                    if OOB.american(unit) && leader.telephone { " (by telephone, S6.7, add 'phone')" } else { "" }
                ),
            ));
        }
        // Decision 17 (option command_los): over a loaded map, the Leader must see the unit.
        if let (true, Some(m)) = (s.command_los, &s.map) {
            if let super::los::Sight::Blocked(why) = super::los::line_of_sight(&m.map, b, a) {
                return Err(rule(
                    "command",
                    format!(
                        "{} at {b} does not see {unit} at {a} ({why}): not In Command (option command_los)",
                        leader.id
                    ),
                ));
            }
        }
    }
    Ok(kind)
}

fn check_side(u: &UnitDef, side: Side) -> Result<(), RuleError> {
    match OOB.side_of(&u.id) {
        Some(x) if x != side => Err(rule(
            "order of battle",
            format!("{} is a {} unit", u.id, x.name()),
        )),
        _ => Ok(()),
    }
}

fn position(s: &State, unit: &str) -> Option<Hex> {
    s.units.get(unit).map(|u| u.hex)
}

/// `command <unit> [by <leader>] [phone] [from <division>]`: the Command Points of an Action
/// that costs 1 CP for an In Command unit, in its side's impulse: 2 under S6.6. The points are
/// its division's (44 RTR's and the 15/19 KRH's the 101st's, S6.5), or the Guards' for the 231st
/// Brigade (S6.10).
pub fn command(
    s: &mut State,
    ctx: &mut Ctx,
    side: Side,
    unit: &str,
    by: Option<&str>,
    phone: bool,
    from: Option<&str>,
) -> Result<(), RuleError> {
    let how = in_command(s, side, unit, by, phone)?;
    let f = OOB.formation_of(unit).expect("in_command found the unit");
    let payer = match from {
        None => f.division.clone(),
        Some(d) if d == f.division => f.division.clone(),
        Some("guards") if f.id == "231" => "guards".to_owned(),
        Some(d) => {
            return Err(rule(
                "S6.10 231st Brigade",
                format!(
                    "{unit}'s Command Points are the {}'s{}, not the {d}'s",
                    f.division,
                    if f.id == "231" { " or the Guards'" } else { "" }
                ),
            ))
        }
    };
    let payer = if s.kg_chill && payer == "erc" {
        "chill".to_owned()
    } else {
        payer
    };
    let cost = how.cost(1);
    let have = s.cp.get(&payer).copied().unwrap_or(0);
    if cost > have {
        return Err(rule(
            match how {
                InCommand::Other101(_) => "S6.6 101st Airborne Non-Formation Command",
                _ => "Command and Dispatch Points",
            },
            format!("{unit}'s Action costs {cost} CP and the {payer} has {have}"),
        ));
    }
    *s.cp.entry(payer.clone()).or_default() -= cost;
    let why = match &how {
        InCommand::Own(l) => format!("In Command by {l}"),
        InCommand::Other101(l) => {
            format!("In Command by {l}, not its Formation Leader: 2 CP for a 1 CP Action (S6.6)")
        }
        InCommand::Telephone(l) => format!("In Command by telephone to {l} (S6.7)"),
        InCommand::SelfCommand => "always In Command (S6.8)".to_owned(),
    };
    ctx.say(format!(
        "The {} player spends {cost} Command Point{} of the {payer} for {unit}'s Action: {why}",
        side.name(),
        if cost == 1 { "" } else { "s" }
    ));
    Ok(())
}

/// The row north of which the 231st Brigade may never be in column `col` (S6.10, the
/// "Deployment Limit 231st Brigade" line, `data/key_hexes.txt`): rows count up southwards.
pub fn limit_231(col: u16) -> Option<u16> {
    DATA.line_231
        .iter()
        .find(|(a, b, _)| (*a..=*b).contains(&col))
        .map(|r| r.2)
}

/// Is `hex` north of the 231st's deployment line?
pub fn north_of_231(hex: Hex) -> bool {
    limit_231(hex.col).is_some_and(|row| hex.row < row)
}

/// Is `unit` of the 231st Brigade?
pub fn of_231(unit: &str) -> bool {
    OOB.unit(unit).is_some_and(|u| u.formation == "231")
}

/// S6.10: a 231st unit may never move north of its line: a path that crosses it is refused.
pub fn check_231(unit: &str, path: &[Hex]) -> Result<(), RuleError> {
    if !of_231(unit) {
        return Ok(());
    }
    if let Some(h) = path.iter().find(|h| north_of_231(**h)) {
        return Err(rule(
            "S6.10 231st Brigade",
            format!(
                "{unit} is of the 231st Brigade and may never move north of the Deployment Limit line: {h} is north of it (row {} in column {})",
                limit_231(h.col).unwrap_or(0),
                h.col
            ),
        ));
    }
    Ok(())
}

/// S6.10: a 231st unit that is north of the line for any reason (a ferry, a retreat the players
/// state by a move of the enemy) is eliminated at once.
pub fn eliminate_north_231(s: &mut State, ctx: &mut Ctx) {
    let north: Vec<String> = s
        .units
        .iter()
        .filter(|(n, u)| of_231(n) && north_of_231(u.hex))
        .map(|(n, _)| n.clone())
        .collect();
    for n in north {
        let at = s.units.remove(&n).map(|u| u.hex).expect("listed");
        s.gone.push(n.clone());
        super::losses::eliminate(s, &n);
        ctx.say(format!(
            "{n} of the 231st Brigade is north of its Deployment Limit line at {at}: eliminated (S6.10)"
        ));
    }
}
