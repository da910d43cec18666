//! The position statements of what is under way (issue 39): the NPC operating, the operation
//! announced and held, its battle waiting for the dice, the open reactive window. The rest of
//! the format is read in `position.rs`.

use super::super::data::{self, ClKind};
use super::super::order::{self, Command};
use super::super::state::{BattleSetup, Mods, NpcTurn, Pending, Played, State, Window, WindowKind};
use super::{character, player};
use crate::engine::position::{PositionError, Statement};

/// Cards after the line's `:`, a used one marked `*` (`march* attack`).
pub fn marked_cards(s: &Statement) -> Result<Vec<(String, bool)>, PositionError> {
    s.after_colon()
        .ok_or_else(|| s.error(format!("write {} ...: <card> <card> ...", s.keyword())))?
        .split_whitespace()
        .map(|w| {
            let (k, used) = match w.strip_suffix('*') {
                Some(k) => (k, true),
                None => (w, false),
            };
            data::card(k)
                .map(|c| (c.key.clone(), used))
                .ok_or_else(|| {
                    s.error(format!(
                        "'{k}' is not a card of the strategic deck (data/deck.txt names them); mark a card played with '*'"
                    ))
                })
        })
        .collect()
}

/// `npc <character> runner <seat>: <card>[*] …`: the NPC operating now (3.4), its runner, and
/// the hand drawn for it.
pub fn npc(st: &mut State, s: &Statement) -> Result<(), PositionError> {
    let form = "npc <character> runner <seat>: <card>[*] ...";
    let w = s.before_colon();
    if w.len() != 4 || w[2] != "runner" || s.after_colon().is_none() {
        return Err(s.error(format!("write {form}")));
    }
    let ch = character(st, s, w[1])?;
    if st.cus.iter().any(|c| c.character == ch && c.seat.is_some()) {
        return Err(s.error(format!("{ch} is a player's character, not an NPC (3.4)")));
    }
    let runner = player(st, s, w[3])?;
    st.npc = Some(NpcTurn {
        character: ch,
        runner,
        hand: marked_cards(s)?,
    });
    Ok(())
}

/// `operation <seat> <character> next <n> crossed <n> [uncarded <k> …] [effects <card> …]:
/// <order>`: the operation announced and held (3.2).
pub fn operation(st: &mut State, s: &Statement) -> Result<(), PositionError> {
    let form = "operation <seat> <character> [next <n>] [crossed <n>] [uncarded <clause> ...] [effects <card> ...]: <order>";
    let w = s.before_colon();
    let text = s
        .after_colon()
        .filter(|t| !t.is_empty())
        .ok_or_else(|| s.error(format!("write {form}")))?;
    if w.len() < 3 {
        return Err(s.error(format!("write {form}")));
    }
    let p = player(st, s, w[1])?;
    let ch = character(st, s, w[2])?;
    let clauses = match order::parse(text) {
        Ok(Command::Operation { clauses }) if !clauses.is_empty() => clauses,
        Ok(_) => return Err(s.error(format!("'{text}' is not an operation's clauses"))),
        Err(e) => return Err(s.error(format!("the order '{text}': {}", e.message))),
    };
    let mut pd = Pending {
        player: p,
        character: ch,
        carded: vec![true; clauses.len()],
        clauses,
        next: 0,
        effects: Vec::new(),
        crossed: 0,
        battle: None,
    };
    let mut list = "";
    for word in &w[3..] {
        let number = |what: &str| {
            word.parse::<u32>()
                .map_err(|_| s.error(format!("'{word}' is not a number of {what}")))
        };
        match *word {
            "next" | "crossed" | "uncarded" | "effects" => list = *word,
            _ if list == "next" => pd.next = number("the next clause")? as usize,
            _ if list == "crossed" => pd.crossed = number("CLs crossed")?,
            _ if list == "uncarded" => {
                let k = number("a clause")? as usize;
                if k == 0 || k > pd.carded.len() {
                    return Err(s.error(format!(
                        "clause {k}: the order has clauses 1 to {}",
                        pd.carded.len()
                    )));
                }
                pd.carded[k - 1] = false;
            }
            _ if list == "effects" => match data::card(word) {
                Some(c) => pd.effects.push(c.key.clone()),
                None => return Err(s.error(format!("'{word}' is not a card"))),
            },
            _ => return Err(s.error(format!("'{word}': write {form}"))),
        }
    }
    if pd.next > pd.clauses.len() {
        return Err(s.error(format!(
            "next {}: the order has {} clauses",
            pd.next,
            pd.clauses.len()
        )));
    }
    st.pending = Some(pd);
    Ok(())
}

pub(super) fn side_index(s: &Statement, w: Option<&&str>) -> Result<usize, PositionError> {
    match w.copied() {
        Some("attacker") => Ok(0),
        Some("defender") => Ok(1),
        other => Err(s.error(format!(
            "'{}' is not a side of the battle: attacker or defender",
            other.unwrap_or("")
        ))),
    }
}

/// `battle <lp> ordinary|brown|blue attackers <character> … [decisive] [napoleon] [bonus <a>
/// <d>] [lucky|courage|pursuit attacker|defender] … [no-crossing]`: the pending operation's
/// battle, waiting for its window to close (2.m, 1.e).
pub fn battle(st: &mut State, s: &Statement) -> Result<(), PositionError> {
    let form = "battle <lp> ordinary|brown|blue attackers <character> ... [decisive] [napoleon] [bonus <a> <d>] [lucky|courage|pursuit attacker|defender] [no-crossing]";
    let w = &s.words;
    if w.len() < 5 || w[3] != "attackers" {
        return Err(s.error(format!("write {form}")));
    }
    if st.pending.is_none() {
        return Err(s.error("a battle is an operation's: write its 'operation' line first"));
    }
    let lp = super::lp(st, s, w[1])?;
    let cl = match w[2] {
        "ordinary" => ClKind::Ordinary,
        "brown" => ClKind::Brown,
        "blue" => ClKind::Blue,
        other => {
            return Err(s.error(format!(
                "'{other}' is not a CL's kind: ordinary, brown or blue"
            )))
        }
    };
    let mut b = BattleSetup {
        lp,
        cl,
        decisive: false,
        napoleon: false,
        attackers: Vec::new(),
        mods: Mods::default(),
        plans: Default::default(),
        commanders: [None, None],
        battle_plans: Default::default(),
        play: None,
    };
    let mut rest = w[4..].iter();
    let mut attackers = true;
    while let Some(word) = rest.next() {
        match *word {
            "decisive" => b.decisive = true,
            "napoleon" => b.napoleon = true,
            "no-crossing" => b.mods.no_crossing = true,
            "bonus" => {
                for i in 0..2 {
                    let v = rest
                        .next()
                        .ok_or_else(|| s.error("bonus needs two numbers"))?;
                    b.mods.bonus[i] = v
                        .parse()
                        .map_err(|_| s.error(format!("'{v}' is not a bonus")))?;
                }
            }
            "lucky" => b.mods.lucky[side_index(s, rest.next())?] = true,
            "courage" => b.mods.courage[side_index(s, rest.next())?] = true,
            "pursuit" => b.mods.pursuit[side_index(s, rest.next())?] = true,
            ch if attackers => {
                b.attackers.push(character(st, s, ch)?);
                continue;
            }
            other => return Err(s.error(format!("'{other}': write {form}"))),
        }
        attackers = false;
    }
    if b.attackers.is_empty() {
        return Err(s.error("a battle has an attacking character"));
    }
    if let Some(pd) = st.pending.as_mut() {
        pd.battle = Some(b);
    }
    Ok(())
}

/// `window announcement|battle [react <seat> <card>] … [passed <seat> …]`: the open reactive
/// window (1.e), its cards played bottom first, and who passed.
pub fn window(st: &mut State, s: &Statement) -> Result<(), PositionError> {
    let form = "window announcement|battle [react <seat> <card>] ... [passed <seat> ...]";
    let w = &s.words;
    let kind = match w.get(1) {
        Some(&"announcement") => WindowKind::Announcement,
        Some(&"battle") => WindowKind::Battle,
        _ => return Err(s.error(format!("write {form}"))),
    };
    if st.pending.is_none() {
        return Err(
            s.error("a window is opened on an operation: write its 'operation' line first (1.e)")
        );
    }
    let mut win = Window {
        kind,
        chain: Vec::new(),
        passed: Vec::new(),
    };
    let mut rest = w[2..].iter();
    let mut passing = false;
    while let Some(word) = rest.next() {
        match *word {
            "react" if !passing => {
                let (who, card) = match (rest.next(), rest.next()) {
                    (Some(p), Some(c)) => (p, c),
                    _ => return Err(s.error("write react <seat> <card>")),
                };
                let p = player(st, s, who)?;
                let card = data::card(card)
                    .ok_or_else(|| s.error(format!("'{card}' is not a card")))?
                    .key
                    .clone();
                win.chain.push(Played { card, player: p });
            }
            "passed" if !passing => passing = true,
            who if passing => win.passed.push(player(st, s, who)?),
            other => return Err(s.error(format!("'{other}': write {form}"))),
        }
    }
    st.window = Some(win);
    Ok(())
}
