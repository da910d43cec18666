//! Positions set by hand, for `despatch replay` (docs/rules/for-honor-and-glory.md, "Positions
//! (despatch replay)"): the scenario's set-up, then one statement a line — the turn and whose
//! part of it, the AP left, each side's VP, lost leaders and command AP, and each of the
//! scenario's units as it stands (hex, MP, formation, what it did this turn) or off the map,
//! each side's standing orders (8.1.2, 8.4.1, 8.4.5, 11.12), and in a campaign (12.) the battle
//! being fought and the results of those before it. The result is checked as a scenario is:
//! every unit on the map, hex limits (4.3), unit sizes (3.4); a standing order as an order
//! setting it is.

pub mod write;

use super::battle::{Battle, BattleResult, Trail, Went};
use super::campaign::Fought;
use super::hex::Hex;
use super::limits;
use super::order::{self, Action, Standing};
use super::scenario;
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
unit <n|name>: <side> <kind> <hex> [<mp>[/<size>]] [column] [gone] [acted] [moved] [fired-on]
                                   the scenario's unit n (1 = its first) or the unit so named;
                                   gone: off the map, the hex it left (0 MP if eliminated)
gone <n|name>                      that unit is off the map (eliminated, or a VP unit taken)
others gone                        every unit no `unit` line names is off the map
standing <side>: <standing order>  tied hits to guns|infantry (8.1.2), retreat towards <hex>|edge
                                   (8.4.1), leaders retreat towards <hex>|units (8.4.5),
                                   dragoons evade|stand (11.12, when in force)
battle <n>                         a campaign's battle being fought (1 = its first); the other
                                   lines then set that battle
fought <n> american|british|draw <american VP> <british VP> [<american campaign VP> <british campaign VP>] [: <summary>]
                                   a battle of the campaign already fought: who won it, the VP
                                   each side earned and counts to the campaign (12.; one pair:
                                   both), how it ended
attack <hex> <hex>                 an attack made this player turn: attacker's hex, target (11.9)
trail <n|name> moved|retreated: <hex> <hex> [<hex>...]
                                   a unit's way this player turn, from the hex it stood in
result <winner> <american VP> <british VP> <american campaign VP> <british campaign VP>: <summary>
                                   the battle has ended (winner american|british|draw)
finished <winner> <american VP> <british VP> <american campaign VP> <british campaign VP>: <summary>
                                   the game has ended: its result";

const KNOWN: [&str; 15] = [
    "turn",
    "active",
    "ap",
    "vp",
    "leaders-lost",
    "command",
    "unit",
    "gone / others gone",
    "standing",
    "battle",
    "fought",
    "attack",
    "trail",
    "result",
    "finished",
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
    let form = "unit <n|name>: <side> <kind> <hex> [<mp>[/<size>]] [column] [gone] [acted] [moved] [fired-on]";
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
    // The flags first: a unit off the map (`gone`) may show 0 MP.
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
            "gone" => u.gone = true,
            "acted" => u.acted = true,
            "moved" => u.moved = true,
            "fired-on" => u.fired_on = true,
            w => {
                return Err(s.error(format!(
                    "'{w}' is not a unit's state: column, gone, acted, moved or fired-on"
                )))
            }
        }
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
        if u.mp > u.start_mp || (u.mp == 0 && !u.gone) {
            return Err(s.error(format!(
                "{} of size {} shows 1 to {} MP; a unit at 0 MP is eliminated: write `gone {}` (or add `gone` to keep the hex it left)",
                kind.a_name(),
                u.start_mp,
                u.start_mp,
                i + 1
            )));
        }
    }
    Ok(u)
}

/// `standing <side>: <standing order>`: the clause in the order language, checked as the order
/// that sets it is (a hex on the map; 11.12 only when in force), set as that order sets it.
fn standing(b: &mut Battle, s: &Statement) -> Result<(), PositionError> {
    let form = "standing <side>: <standing order> (tied hits to guns|infantry, retreat towards <hex>|edge, leaders retreat towards <hex>|units, dragoons evade|stand)";
    let (head, clause) = s
        .text
        .split_once(':')
        .ok_or_else(|| s.error(format!("write {form}")))?;
    let head: Vec<&str> = head.split_whitespace().collect();
    if head.len() != 2 {
        return Err(s.error(format!("write {form}")));
    }
    let who = Side::parse(head[1])
        .ok_or_else(|| s.error(format!("'{}' is not a side: american or british", head[1])))?;
    let parsed = order::parse(clause).map_err(|e| s.error(e.message))?;
    let [action] = parsed.actions.as_slice() else {
        return Err(s.error(format!("one standing order a line: write {form}")));
    };
    let dragoons_in_force = b.options.has(12);
    let side = &mut b.sides[usize::from(who.0)];
    match *action {
        Action::Standing(Standing::TiedHitsToGuns(g)) => side.tied_hits_to_guns = g,
        Action::Standing(Standing::RetreatTowards(h) | Standing::LeadersTowards(h)) => {
            let map = b.map();
            if let Some(h) = h.filter(|&h| !map.contains(h)) {
                return Err(s.error(format!(
                    "{h} is off the map of {} ({} columns, {} rows): a retreat goes towards a hex of the board",
                    b.scenario, map.cols, map.rows
                )));
            }
            let side = &mut b.sides[usize::from(who.0)];
            match *action {
                Action::Standing(Standing::RetreatTowards(h)) => side.retreat_towards = h,
                _ => side.leaders_towards = h,
            }
        }
        Action::Dragoons { evade } => {
            if !dragoons_in_force {
                return Err(s.error(
                    "11.12 Dragoons retreat: the dragoons' retreat before close combat is optional rule 11.12, not in force in this game",
                ));
            }
            side.evade = evade;
        }
        _ => {
            return Err(s.error(format!(
                "'{}' is an action, not a standing order: write {form}",
                clause.trim()
            )))
        }
    }
    Ok(())
}

/// The campaign's battles: its id and the scenario of each, or an error naming the line.
fn campaign_of<'a>(
    state: &'a State,
    s: &Statement,
) -> Result<&'a super::campaign::Campaign, PositionError> {
    state.campaign.as_ref().ok_or_else(|| {
        s.error(format!(
            "'{}' is for a campaign (12.); {} is a single battle",
            s.keyword(),
            state.battle.scenario
        ))
    })
}

/// A battle's number in its campaign (from 1).
fn battle_number(
    c: &super::campaign::Campaign,
    s: &Statement,
    i: usize,
) -> Result<usize, PositionError> {
    let n: usize = s.number(i, "a battle's number in the campaign (1 = its first)")?;
    if (1..=c.scenarios.len()).contains(&n) {
        Ok(n)
    } else {
        Err(s.error(format!(
            "the campaign {} has battles 1 to {} ({}); there is no battle {n}",
            c.id,
            c.scenarios.len(),
            c.scenarios.join(", ")
        )))
    }
}

/// `battle <n>`: the campaign's battle `n` as its scenario sets it up, the ones before it to be
/// given by `fought` lines.
fn start_battle(state: &mut State, s: &Statement) -> Result<usize, PositionError> {
    s.expect_words(2, "battle <n>")?;
    let c = campaign_of(state, s)?;
    let n = battle_number(c, s, 1)?;
    let scen = scenario::find(&c.scenarios[n - 1]).expect("campaigns name shipped scenarios");
    state.battle = Battle::new(scen, state.battle.options)
        .map_err(|e| s.error(format!("the set-up of {}: {e}", scen.id)))?;
    Ok(n)
}

/// `<winner> <american VP> <british VP> [<american campaign VP> <british campaign VP>]`, the
/// words of `s` from `i` up to a colon, and the summary after it (`made` when there is none).
fn battle_result(
    s: &Statement,
    i: usize,
    campaign_vp_needed: bool,
    made: &dyn Fn(Option<Side>, [u16; 2]) -> String,
) -> Result<BattleResult, PositionError> {
    let (head, summary) = match s.text.split_once(':') {
        Some((head, summary)) => (head, Some(summary.trim())),
        None => (s.text, None),
    };
    let words: Vec<&str> = head.split_whitespace().collect();
    let form = format!(
        "{} american|british|draw <american VP> <british VP>{}: <summary>",
        words[..i].join(" "),
        if campaign_vp_needed {
            " <american campaign VP> <british campaign VP>"
        } else {
            " [<american campaign VP> <british campaign VP>]"
        }
    );
    let counts = words.len() - i;
    if !(counts == 5 || (counts == 3 && !campaign_vp_needed))
        || (campaign_vp_needed && summary.is_none())
        || summary == Some("")
    {
        return Err(s.error(format!("write {form}")));
    }
    let winner = match words[i] {
        "draw" => None,
        w => Some(
            Side::parse(w)
                .ok_or_else(|| s.error(format!("'{w}' is not american, british or draw")))?,
        ),
    };
    let number = |j: usize| -> Result<u16, PositionError> {
        words[j]
            .parse()
            .map_err(|_| s.error(format!("'{}' is not a number of VP", words[j])))
    };
    let vp = [number(i + 1)?, number(i + 2)?];
    let campaign_vp = if counts == 5 {
        [number(i + 3)?, number(i + 4)?]
    } else {
        vp
    };
    Ok(BattleResult {
        winner,
        vp,
        campaign_vp,
        summary: summary.map_or_else(|| made(winner, campaign_vp), str::to_owned),
    })
}

/// `fought <n> <winner> <american VP> <british VP> [...]`: the result of an earlier battle, or
/// (once the game has ended, `finished`) of the one being fought.
fn fought(
    state: &State,
    s: &Statement,
    current: usize,
    ended: bool,
) -> Result<(usize, Fought), PositionError> {
    let c = campaign_of(state, s)?;
    let n = battle_number(c, s, 1)?;
    if n > current || (n == current && !ended) {
        return Err(s.error(format!(
            "battle {n} ({}) is not fought before battle {current} ({}), the one being fought: a `fought` line gives an earlier battle (or, once the game has ended, the last); `battle <n>` chooses the one being fought",
            c.scenarios[n - 1],
            c.scenarios[current - 1]
        )));
    }
    let result = battle_result(s, 2, false, &|winner, vp| {
        format!(
            "{} (set in a position); campaign VP american {} british {}",
            winner.map_or("a draw".to_owned(), |w| format!("{} wins", w.name())),
            vp[0],
            vp[1]
        )
    })?;
    Ok((
        n,
        Fought {
            scenario: c.scenarios[n - 1].clone(),
            result,
        },
    ))
}

/// `attack <hex> <hex>`: 11.9 an attack made this player turn.
fn attack(b: &Battle, s: &Statement) -> Result<(Hex, Hex), PositionError> {
    s.expect_words(3, "attack <attacker's hex> <target hex>")?;
    let [from, to] = [1, 2].map(|i| on_map(b, s, s.words[i]));
    Ok((from?, to?))
}

/// A hex of the battle's map, written on line `s`.
fn on_map(b: &Battle, s: &Statement, w: &str) -> Result<Hex, PositionError> {
    let hex = Hex::parse(w).map_err(|e| s.error(e))?;
    if b.map().contains(hex) {
        Ok(hex)
    } else {
        Err(s.error(format!("{hex} is not on the map of {}", b.scenario)))
    }
}

/// `trail <n|name> moved|retreated: <hex> <hex> ...`: a unit's way this player turn.
fn trail(b: &Battle, s: &Statement) -> Result<Trail, PositionError> {
    let form = "trail <n|name> moved|retreated: <hex> <hex> [<hex>...]";
    let (head, hexes) = s
        .text
        .split_once(':')
        .ok_or_else(|| s.error(format!("write {form}")))?;
    let head = head.trim_start_matches("trail").trim();
    let (name, went) = head
        .rsplit_once(' ')
        .ok_or_else(|| s.error(format!("write {form}")))?;
    let went = match went {
        "moved" => Went::Moved,
        "retreated" => Went::Retreated,
        w => {
            return Err(s.error(format!(
                "'{w}': a unit's trail is moved (its move or advance) or retreated (8.4)"
            )))
        }
    };
    let unit = unit_named(b, s, name)?;
    let hexes = hexes
        .split_whitespace()
        .map(|w| on_map(b, s, w))
        .collect::<Result<Vec<_>, _>>()?;
    if hexes.len() < 2 {
        return Err(s.error(format!(
            "a trail runs from the hex the unit stood in to at least one more: write {form}"
        )));
    }
    Ok(Trail { unit, went, hexes })
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
    let all = statements(text);
    // A campaign's battle first, since the other lines set that battle's units.
    let mut current = 1;
    let mut battle_line = 0;
    for s in all.iter().filter(|s| s.keyword() == "battle") {
        if battle_line > 0 {
            return Err(s.error(format!(
                "line {battle_line} chose the battle already: one `battle` line a position"
            )));
        }
        current = start_battle(&mut state, s)?;
        battle_line = s.line;
    }
    let ended = all.iter().any(|s| s.keyword() == "finished");
    let mut results: Vec<Option<Fought>> = vec![None; current];
    for s in all.iter().filter(|s| s.keyword() == "fought") {
        let (n, f) = fought(&state, s, current, ended)?;
        if results[n - 1].is_some() {
            return Err(s.error(format!(
                "battle {n} is given twice: one `fought` line a battle"
            )));
        }
        results[n - 1] = Some(f);
    }
    if let Some(n) = results[..current - 1].iter().position(Option::is_none) {
        let c = state
            .campaign
            .as_ref()
            .expect("a battle after the first is a campaign's");
        return Err(PositionError::new(
            battle_line,
            format!(
                "battle {current} is fought after battle {} ({}): give its result, fought {} american|british|draw <american VP> <british VP>",
                n + 1,
                c.scenarios[n],
                n + 1
            ),
        ));
    }
    if let Some(c) = state.campaign.as_mut() {
        c.fought = results.into_iter().flatten().collect();
    }
    let b = &mut state.battle;
    let mut finished = None;
    // The line that placed each unit, for the checks after the last statement.
    let mut placed = vec![0usize; b.units.len()];
    let mut others_gone = 0;
    for s in all {
        match s.keyword() {
            "battle" | "fought" => {}
            "attack" => {
                let a = attack(b, &s)?;
                b.attacks.push(a);
            }
            "trail" => {
                let t = trail(b, &s)?;
                b.trails.push(t);
            }
            "result" => {
                b.result = Some(battle_result(&s, 1, true, &|_, _| String::new())?);
            }
            "finished" => {
                finished = Some(battle_result(&s, 1, true, &|_, _| String::new())?);
            }
            "standing" => standing(b, &s)?,
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
    state.finished = finished;
    Ok(Positioned::new(state))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ruleset::SeatDef;
    use serde_json::json;

    fn read_in(scenario: &str, text: &str) -> Result<State, PositionError> {
        let setup = Setup {
            game_id: "t".into(),
            scenario: scenario.into(),
            options: json!({}),
            seats: SeatDef::named_by_id(&["american", "british"]).unwrap(),
        };
        let mut hidden = crate::engine::dice::hidden_stream(&[0; 32], "t", 0);
        read(&ForHonorAndGlory, &setup, text, &mut hidden).map(|p| p.state)
    }

    fn refused(scenario: &str, text: &str, line: usize, says: &str) {
        let e = read_in(scenario, text).expect_err("refused");
        assert_eq!(e.line, line, "{e}");
        assert!(e.message.contains(says), "{e}");
    }

    #[test]
    fn a_unit_gone_keeps_the_hex_it_left_and_may_show_0_mp() {
        let s = read_in("drill", "unit 1: american regular C5 0/4 gone acted").unwrap();
        let u = serde_json::to_value(s.battle.units[0]).unwrap();
        assert_eq!(u, "american regular C5 0/4 gone acted");
        refused(
            "drill",
            "turn 2\nunit 1: american regular C5 0/4",
            2,
            "a unit at 0 MP is eliminated",
        );
        refused(
            "drill",
            "unit 1: american regular C5 3/4 lost",
            1,
            "'lost' is not a unit's state: column, gone, acted",
        );
    }

    #[test]
    fn attack_and_trail_lines_set_the_player_turns_attacks_and_ways() {
        let s = read_in(
            "drill",
            "attack C5 C4\ntrail 1 moved: C6 C5\ntrail 2 retreated: C4 C3 C2",
        )
        .unwrap();
        let b = &s.battle;
        let hex = |w: &str| Hex::parse(w).unwrap();
        assert_eq!(b.attacks, [(hex("C5"), hex("C4"))]);
        assert_eq!((b.trails[0].unit, b.trails[0].went), (0, Went::Moved));
        assert_eq!(b.trails[1].hexes, [hex("C4"), hex("C3"), hex("C2")]);
        assert_eq!(b.trails[1].went, Went::Retreated);
    }

    #[test]
    fn bad_attack_and_trail_lines_are_refused_naming_their_line() {
        refused("drill", "attack C5", 1, "write attack <attacker's hex>");
        refused("drill", "turn 1\nattack C5 Z99", 2, "Z99 is not on the map");
        refused(
            "drill",
            "trail 1 marched: C6 C5",
            1,
            "'marched': a unit's trail",
        );
        refused("drill", "trail 1 moved: C6", 1, "at least one more");
        refused("drill", "trail 99 moved: C6 C5", 1, "there is no unit 99");
    }

    #[test]
    fn result_and_finished_lines_end_the_battle_and_the_game() {
        let s = read_in(
            "drill",
            "result british 1 3 1 5: british wins on time\n\
             finished british 1 3 1 5: british wins on time",
        )
        .unwrap();
        let r = s.battle.result.as_ref().unwrap();
        assert_eq!(
            (r.winner.map(Side::name), r.vp, r.campaign_vp),
            (Some("british"), [1, 3], [1, 5])
        );
        assert_eq!(r.summary, "british wins on time");
        assert_eq!(s.finished.as_ref(), Some(r));
        refused(
            "drill",
            "result british 1 3: on time",
            1,
            "write result american|british|draw <american VP> <british VP> <american campaign VP>",
        );
        refused(
            "drill",
            "finished prussia 1 3 1 5: x",
            1,
            "'prussia' is not american",
        );
        refused("drill", "finished draw 1 3 1 5", 1, "write finished");
    }

    #[test]
    fn fought_gives_the_campaign_vp_and_summary_and_the_last_battle_once_the_game_ended() {
        let s = read_in(
            "niagara-campaign",
            "battle 2\nfought 1 british 2 3 2 6: british wins on time\n\
             fought 2 draw 1 1: even\nfinished british 1 1 3 7: the campaign is British",
        )
        .unwrap();
        let c = s.campaign.as_ref().unwrap();
        assert_eq!(c.fought[0].result.vp, [2, 3]);
        assert_eq!(c.fought[0].result.campaign_vp, [2, 6]);
        assert_eq!(c.fought[0].result.summary, "british wins on time");
        assert_eq!(c.fought[1].result.campaign_vp, [1, 1]);
        assert_eq!(c.totals(), [3, 7]);
        refused(
            "niagara-campaign",
            "battle 2\nfought 1 british 2 3\nfought 2 draw 1 1",
            3,
            "once the game has ended, the last",
        );
        refused(
            "niagara-campaign",
            "battle 2\nfought 1 british 2 3 2",
            2,
            "write fought 1 american|british|draw",
        );
    }
}
