//! Positions set by hand, for `despatch replay` (docs/rules/for-honor-and-glory.md, "Positions
//! (despatch replay)"): the scenario's set-up, then one statement a line — the turn and whose
//! part of it, the AP left, each side's VP, lost leaders and command AP, and each of the
//! scenario's units as it stands (hex, MP, formation, what it did this turn) or off the map.
//! The result is checked as a scenario is: every unit on the map, hex limits (4.3), unit sizes
//! (3.4).

use super::battle::Battle;
use super::hex::Hex;
use super::limits;
use super::units::{Kind, Side, Unit};
use super::{ForHonorAndGlory, State};
use crate::engine::dice::DiceStream;
use crate::engine::position::{statements, unknown, PositionError, Positioned, Statement};
use crate::engine::ruleset::{Rules, Setup};

/// The statements, for `despatch replay --list`.
pub const FORMAT: &str = "\
turn <n>                           the game turn (from 1)
active american|british            the side whose order the game waits for
ap <n>                             AP left of a turn handed back (6.2.8); 0: a new turn
vp <side> <n>                      VP earned so far
leaders-lost <side> <n>            leaders lost (9.3.1: each costs a command AP)
command <side> <n>                 command AP before leader losses (6.1)
unit <n|name>: <side> <kind> <hex> [<mp>[/<size>]] [column] [acted] [moved] [fired-on]
                                   the scenario's unit n (1 = its first) or the unit so named
gone <n|name>                      that unit is off the map (eliminated, or a VP unit taken)
others gone                        every unit no `unit` line names is off the map";

const KNOWN: [&str; 8] = [
    "turn",
    "active",
    "ap",
    "vp",
    "leaders-lost",
    "command",
    "unit",
    "gone / others gone",
];

fn side(s: &Statement, i: usize) -> Result<Side, PositionError> {
    let w = s.word(i, "a side (american or british)")?;
    Side::parse(w).ok_or_else(|| s.error(format!("'{w}' is not a side: american or british")))
}

/// The scenario's unit a statement names: by number from 1, or by name.
fn unit_named(b: &Battle, s: &Statement, name: &str) -> Result<usize, PositionError> {
    let name = name.trim();
    if let Ok(n) = name.parse::<usize>() {
        return if (1..=b.units.len()).contains(&n) {
            Ok(n - 1)
        } else {
            Err(s.error(format!(
                "the scenario has units 1 to {}; there is no unit {n}",
                b.units.len()
            )))
        };
    }
    (0..b.units.len())
        .find(|&i| b.name(i).eq_ignore_ascii_case(name))
        .ok_or_else(|| {
            s.error(format!(
                "the scenario {} has no unit named '{name}'; name a unit by its number (1 = the first) or its name",
                b.scenario
            ))
        })
}

/// `<side> <kind> <hex> [<mp>[/<size>]] [flags]` onto the scenario's unit `i`.
fn read_unit(b: &Battle, i: usize, s: &Statement, words: &[&str]) -> Result<Unit, PositionError> {
    let was = b.units[i];
    let form =
        "unit <n|name>: <side> <kind> <hex> [<mp>[/<size>]] [column] [acted] [moved] [fired-on]";
    if words.len() < 3 {
        return Err(s.error(format!("write {form}")));
    }
    let side = Side::parse(words[0])
        .ok_or_else(|| s.error(format!("'{}' is not a side: american or british", words[0])))?;
    let kind = Kind::from_name(words[1]).ok_or_else(|| {
        s.error(format!(
            "'{}' is not a unit type: {}",
            words[1],
            Kind::ALL.map(Kind::name).join(", ")
        ))
    })?;
    if (side, kind) != (was.side, was.kind) {
        return Err(s.error(format!(
            "unit {} of the scenario is {} {} ({}), not {} {}: a position moves the scenario's units, it does not make new ones",
            i + 1,
            was.side.name(),
            was.kind.name(),
            b.name(i),
            side.name(),
            kind.name()
        )));
    }
    let hex = Hex::parse(words[2]).map_err(|e| s.error(e))?;
    if !b.map().contains(hex) {
        return Err(s.error(format!("{hex} is not on the map of {}", b.scenario)));
    }
    let mut u = was;
    u.hex = hex;
    u.gone = false;
    let mut rest = &words[3..];
    if let Some(mp) = rest
        .first()
        .filter(|w| w.starts_with(|c: char| c.is_ascii_digit()))
    {
        let (mp, size) = match mp.split_once('/') {
            Some((mp, size)) => (mp, Some(size)),
            None => (*mp, None),
        };
        let bad = |w: &str| s.error(format!("'{w}' is not a number of MP"));
        u.mp = mp.parse().map_err(|_| bad(mp))?;
        if let Some(size) = size {
            u.start_mp = size.parse().map_err(|_| bad(size))?;
        }
        rest = &rest[1..];
    }
    let (low, high) = kind.mp_range();
    if !kind.is_combat() {
        if u.mp != 0 {
            return Err(s.error(format!(
                "{} has no MP (3.3); leave the MP out",
                kind.a_name()
            )));
        }
    } else {
        if !(low..=high).contains(&u.start_mp) {
            return Err(s.error(format!(
                "{} is {low}-{high} MP in size (3.4), not {}",
                kind.a_name(),
                u.start_mp
            )));
        }
        if u.mp == 0 || u.mp > u.start_mp {
            return Err(s.error(format!(
                "{} of size {} shows 1 to {} MP; a unit at 0 MP is eliminated: write `gone {}`",
                kind.a_name(),
                u.start_mp,
                u.start_mp,
                i + 1
            )));
        }
    }
    (u.column, u.acted, u.moved, u.fired_on) = (false, false, false, false);
    for flag in rest {
        match *flag {
            "column" if kind.is_line_infantry() => u.column = true,
            "column" => {
                return Err(s.error(format!(
                    "only line infantry forms column (7.5), not {}",
                    kind.a_name()
                )))
            }
            "acted" => u.acted = true,
            "moved" => u.moved = true,
            "fired-on" => u.fired_on = true,
            w => {
                return Err(s.error(format!(
                    "'{w}' is not a unit's state: column, acted, moved or fired-on"
                )))
            }
        }
    }
    Ok(u)
}

/// The set-up of `setup`, then the statements of `text`.
pub fn read(
    rules: &ForHonorAndGlory,
    setup: &Setup,
    text: &str,
    hidden: &mut DiceStream,
) -> Result<Positioned<State>, PositionError> {
    let mut state = rules
        .setup(setup, hidden)
        .map_err(|e| PositionError::new(0, format!("the set-up: {e}")))?;
    let b = &mut state.battle;
    // The line that placed each unit, for the checks after the last statement.
    let mut placed = vec![0usize; b.units.len()];
    let mut others_gone = 0;
    for s in statements(text) {
        match s.keyword() {
            "turn" => {
                s.expect_words(2, "turn <n>")?;
                let turn: u16 = s.number(1, "a turn number")?;
                if turn == 0 || turn > b.turns {
                    return Err(s.error(format!(
                        "{} is played in turns 1 to {}",
                        b.scenario, b.turns
                    )));
                }
                b.turn = turn;
            }
            "active" => {
                s.expect_words(2, "active american|british")?;
                b.active = side(&s, 1)?;
            }
            "ap" => {
                s.expect_words(2, "ap <n>")?;
                b.ap = s.number(1, "a number of AP")?;
                b.held = b.ap > 0;
            }
            "vp" | "leaders-lost" | "command" => {
                s.expect_words(3, &format!("{} <side> <n>", s.keyword()))?;
                let i = usize::from(side(&s, 1)?.0);
                let n: u16 = s.number(2, "a number")?;
                let small = || {
                    u8::try_from(n).map_err(|_| s.error(format!("{n} is more than the game has")))
                };
                match s.keyword() {
                    "vp" => b.sides[i].vp = n,
                    "leaders-lost" => b.sides[i].leaders_lost = small()?,
                    _ => b.sides[i].command = small()?,
                }
            }
            "unit" => {
                let (head, body) = s
                    .text
                    .split_once(':')
                    .ok_or_else(|| s.error("write unit <n|name>: <side> <kind> <hex> ..."))?;
                let i = unit_named(b, &s, head.trim_start_matches("unit"))?;
                let words: Vec<&str> = body.split_whitespace().collect();
                b.units[i] = read_unit(b, i, &s, &words)?;
                placed[i] = s.line;
            }
            "gone" => {
                let name = s.text.trim_start_matches("gone").trim();
                if name.is_empty() {
                    return Err(s.error("write gone <n|name>"));
                }
                let i = unit_named(b, &s, name)?;
                b.units[i].gone = true;
                placed[i] = s.line;
            }
            "others" => {
                s.expect_words(2, "others gone")?;
                if s.words[1] != "gone" {
                    return Err(s.error("write others gone"));
                }
                others_gone = s.line;
            }
            _ => return Err(unknown(&s, &KNOWN)),
        }
    }
    if others_gone > 0 {
        for (u, line) in b.units.iter_mut().zip(&placed) {
            if *line == 0 {
                u.gone = true;
            }
        }
    }
    b.units_changed();
    // Checked as a scenario is: hex limits (4.3) over every unit on the map.
    // The units a statement placed are checked first, the latest first, so that a clash
    // names the line that made it.
    let mut order: Vec<usize> = (0..b.units.len()).collect();
    order.sort_by_key(|&i| (placed[i] == 0, std::cmp::Reverse(placed[i])));
    for i in order {
        let u = b.units[i];
        if u.gone {
            continue;
        }
        if let Err(e) = limits::may_hold(b, u.hex, u.side, u.kind, Some(i)) {
            return Err(PositionError::new(
                placed[i],
                format!("4.3 Unit hex limits: {e}"),
            ));
        }
    }
    if b.held && b.ap == 0 {
        b.held = false;
    }
    Ok(Positioned::new(state))
}
