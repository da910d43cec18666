//! Position statements of a card battle in the middle of its card play (option
//! `battle_cards`, 4.c–4.i; issue 39), read and written here, after the pending operation's
//! `battle` line: where the card play stands and its commanders, each side's battle plan
//! (waiting, sealed or open), and the battle as fought so far — each side's battle deck, hand,
//! discards, BP and plan, the exchange's step, and every card played.
//!
//! A battle card is written `<key>/<deck>` (`infantry-attack/french`, `march/davout`): a key
//! names cards of two decks, the pair one row of `data/battle_cards.txt`.

use super::super::battle_cards::{cards, BattlePlan, BattleSide, CardBattle, Step};
use super::super::state::{BattlePlanSlot, BattleSetup, PlansStage, State};
use super::player;
use super::under_way::side_index;
use crate::engine::position::{PositionError, Statement};

/// The keywords read here.
pub const KNOWN: [&str; 9] = [
    "battle-cards",
    "battle-plan",
    "card-battle",
    "card-side",
    "card-deck",
    "card-hand",
    "card-discard",
    "card-plan",
    "card-plays",
];

const SIDES: [&str; 2] = ["attacker", "defender"];

const STAGES: [(&str, PlansStage); 6] = [
    ("unasked", PlansStage::Unasked),
    ("asked", PlansStage::Asked),
    ("opening", PlansStage::Opening),
    ("opened", PlansStage::Opened),
    ("playing", PlansStage::Playing),
    ("ready", PlansStage::Ready),
];

const CARD_BATTLE: &str = "write card-battle <attacker|defender> attack|answer <card>|cancel <card> <card>|over [personal attacker|defender] ... [opened] exchanges <n> [withdrew attacker|defender]";

/// Reads `s` if it is one of these statements: `Ok(true)`; `Ok(false)` if it is not.
pub fn read(st: &mut State, s: &Statement) -> Result<bool, PositionError> {
    if !KNOWN.contains(&s.keyword().trim_end_matches(':')) {
        return Ok(false);
    }
    let seats: Vec<Option<usize>> = match s.keyword() {
        "battle-cards" => s
            .words
            .iter()
            .skip_while(|w| **w != "commanders")
            .skip(1)
            .map(|w| match *w {
                "none" => Ok(None),
                seat => player(st, s, seat).map(Some),
            })
            .collect::<Result<_, _>>()?,
        _ => Vec::new(),
    };
    let b = battle(st, s)?;
    let w = &s.words;
    match s.keyword() {
        "battle-cards" => {
            let form = "write battle-cards unasked|asked|opening|opened|playing|ready [commanders <seat>|none <seat>|none]";
            b.plans = STAGES
                .iter()
                .find(|(name, _)| Some(name) == w.get(1))
                .map(|(_, stage)| *stage)
                .ok_or_else(|| s.error(form))?;
            match (w.len(), seats.as_slice()) {
                (2, []) => b.commanders = [None, None],
                (5, [a, d]) if w[2] == "commanders" => b.commanders = [*a, *d],
                _ => return Err(s.error(form)),
            }
        }
        "battle-plan" => {
            let form =
                "write battle-plan attacker|defender waiting|sealed <commitment>|open: <plan>";
            let head = s.before_colon();
            let x = side_index(s, head.get(1))?;
            b.battle_plans[x] = match head[2..] {
                ["waiting"] => BattlePlanSlot::Waiting,
                ["sealed", c] => BattlePlanSlot::Sealed {
                    commitment: c.to_owned(),
                },
                ["open"] => BattlePlanSlot::Open {
                    plan: plan(s, s.after_colon().ok_or_else(|| s.error(form))?)?,
                },
                _ => return Err(s.error(form)),
            };
        }
        "card-battle" => {
            let turn = side_index(s, w.get(1))?;
            let (step, mut i) = match w.get(2).copied() {
                Some("attack") => (Step::Attack, 3),
                Some("answer") => (
                    Step::Answer {
                        attack: card(s, w.get(3))?,
                    },
                    4,
                ),
                Some("cancel") => (
                    Step::Cancel {
                        attack: card(s, w.get(3))?,
                        answer: card(s, w.get(4))?,
                    },
                    5,
                ),
                Some("over") => (Step::Over, 3),
                _ => return Err(s.error(CARD_BATTLE)),
            };
            let mut play = CardBattle {
                sides: [empty_side(), empty_side()],
                turn,
                step,
                personal: [false, false],
                opened: false,
                exchanges: 0,
                withdrew: None,
                plays: Vec::new(),
            };
            if let Some(old) = b.play.take() {
                play.sides = old.sides;
                play.plays = old.plays;
            }
            while i < w.len() {
                match w[i] {
                    "personal" => {
                        play.personal[side_index(s, w.get(i + 1))?] = true;
                        i += 1;
                    }
                    "opened" => play.opened = true,
                    "exchanges" => {
                        play.exchanges = s.number(i + 1, "a number of exchanges")?;
                        i += 1;
                    }
                    "withdrew" => {
                        play.withdrew = Some(side_index(s, w.get(i + 1))?);
                        i += 1;
                    }
                    other => return Err(s.error(format!("'{other}': {CARD_BATTLE}"))),
                }
                i += 1;
            }
            b.play = Some(Box::new(play));
        }
        "card-plays" | "card-plays:" => {
            let text = s
                .after_colon()
                .ok_or_else(|| s.error("write card-plays: <play>, <play>, ..."))?;
            fighting(b, s)?.plays = text
                .split(',')
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(str::to_owned)
                .collect();
        }
        _ => {
            let head = s.before_colon();
            let x = side_index(s, head.get(1))?;
            let keyword = s.keyword();
            let text = s.after_colon();
            let side = &mut fighting(b, s)?.sides[x];
            match keyword {
                "card-side" => {
                    let form =
                        "write card-side attacker|defender bp <n> start <n> [chooses]: <name>";
                    let name = text
                        .filter(|t| !t.is_empty())
                        .ok_or_else(|| s.error(form))?;
                    let number = |i: usize, what: &str| -> Result<i64, PositionError> {
                        head.get(i)
                            .and_then(|v| v.parse().ok())
                            .ok_or_else(|| s.error(format!("{what}: {form}")))
                    };
                    if head.get(2) != Some(&"bp") || head.get(4) != Some(&"start") {
                        return Err(s.error(form));
                    }
                    side.bp = number(3, "the side's BP")?;
                    side.start = number(5, "its BP at the start")?;
                    side.chooses = match head[6..] {
                        [] => false,
                        ["chooses"] => true,
                        _ => return Err(s.error(form)),
                    };
                    side.name = name.to_owned();
                }
                "card-plan" => {
                    let text =
                        text.ok_or_else(|| s.error("write card-plan attacker|defender: <plan>"))?;
                    side.plan = plan(s, text)?;
                }
                _ => {
                    let text = text.ok_or_else(|| {
                        s.error(format!(
                            "write {keyword} attacker|defender: <card> ... (a card as <key>/<deck>)"
                        ))
                    })?;
                    let list: Vec<usize> = text
                        .split_whitespace()
                        .map(|c| card(s, Some(&c)))
                        .collect::<Result<_, _>>()?;
                    match keyword {
                        "card-deck" => side.deck = list,
                        "card-hand" => side.hand = list,
                        _ => side.discard = list,
                    }
                }
            }
        }
    }
    Ok(true)
}

/// The pending operation's battle, which these statements follow.
fn battle<'a>(st: &'a mut State, s: &Statement) -> Result<&'a mut BattleSetup, PositionError> {
    st.pending
        .as_mut()
        .and_then(|p| p.battle.as_mut())
        .ok_or_else(|| {
            s.error(format!(
                "{} states a battle's card play: write its 'battle' line first",
                s.keyword().trim_end_matches(':')
            ))
        })
}

fn fighting<'a>(
    b: &'a mut BattleSetup,
    s: &Statement,
) -> Result<&'a mut CardBattle, PositionError> {
    b.play.as_deref_mut().ok_or_else(|| {
        s.error("the battle is not being fought: write its 'card-battle' line first")
    })
}

fn empty_side() -> BattleSide {
    BattleSide {
        name: String::new(),
        deck: Vec::new(),
        discard: Vec::new(),
        hand: Vec::new(),
        bp: 0,
        start: 0,
        plan: BattlePlan::default(),
        chooses: false,
    }
}

fn plan(s: &Statement, text: &str) -> Result<BattlePlan, PositionError> {
    BattlePlan::parse(text).map_err(|e| s.error(format!("the battle plan '{text}': {}", e.message)))
}

/// A battle card, `<key>/<deck>`.
fn card(s: &Statement, w: Option<&&str>) -> Result<usize, PositionError> {
    let w = w.copied().unwrap_or("");
    w.split_once('/')
        .and_then(|(key, deck)| cards().iter().position(|c| c.key == key && c.deck == deck))
        .ok_or_else(|| {
            s.error(format!(
                "'{w}' is not a battle card: write it <key>/<deck>, as infantry-attack/french (data/battle_cards.txt)"
            ))
        })
}

fn card_name(c: usize) -> String {
    format!("{}/{}", cards()[c].key, cards()[c].deck)
}

fn card_list(list: &[usize]) -> String {
    list.iter()
        .map(|&c| card_name(c))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The statements of `b`'s card play, after its `battle` line; `None` if a text of it would
/// not read back (a play naming a `,` or `#`, a plan or name with a `#`).
pub fn write(state: &State, b: &BattleSetup, out: &mut Vec<String>) -> Option<()> {
    let seat = |p: Option<usize>| p.map_or("none", |p| state.players[p].seat.as_str());
    let stage = STAGES.iter().find(|(_, x)| *x == b.plans)?.0;
    if b.plans.is_unasked() && b.commanders.iter().all(Option::is_none) {
        // The set-up's: nothing to state.
    } else if b.commanders.iter().all(Option::is_none) {
        out.push(format!("battle-cards {stage}"));
    } else {
        out.push(format!(
            "battle-cards {stage} commanders {} {}",
            seat(b.commanders[0]),
            seat(b.commanders[1])
        ));
    }
    let clean = |t: &str| !t.contains('#') && !t.contains('\n');
    for (x, slot) in b.battle_plans.iter().enumerate() {
        let side = SIDES[x];
        match slot {
            BattlePlanSlot::None => {}
            BattlePlanSlot::Waiting => out.push(format!("battle-plan {side} waiting")),
            BattlePlanSlot::Sealed { commitment } => {
                out.push(format!("battle-plan {side} sealed {commitment}"))
            }
            BattlePlanSlot::Open { plan } => {
                let text = plan.describe();
                if !clean(&text) {
                    return None;
                }
                out.push(
                    format!("battle-plan {side} open: {text}")
                        .trim_end()
                        .to_owned(),
                );
            }
        }
    }
    let Some(play) = &b.play else {
        return Some(());
    };
    let mut l = format!("card-battle {} ", SIDES[play.turn.min(1)]);
    l.push_str(&match play.step {
        Step::Attack => "attack".to_owned(),
        Step::Answer { attack } => format!("answer {}", card_name(attack)),
        Step::Cancel { attack, answer } => {
            format!("cancel {} {}", card_name(attack), card_name(answer))
        }
        Step::Over => "over".to_owned(),
    });
    for (x, p) in play.personal.iter().enumerate() {
        if *p {
            l.push_str(&format!(" personal {}", SIDES[x]));
        }
    }
    if play.opened {
        l.push_str(" opened");
    }
    l.push_str(&format!(" exchanges {}", play.exchanges));
    if let Some(x) = play.withdrew {
        l.push_str(&format!(" withdrew {}", SIDES[x.min(1)]));
    }
    out.push(l);
    for (x, side) in play.sides.iter().enumerate() {
        let name = SIDES[x];
        if !clean(&side.name) || side.name.trim() != side.name || side.name.is_empty() {
            return None;
        }
        out.push(format!(
            "card-side {name} bp {} start {}{}: {}",
            side.bp,
            side.start,
            if side.chooses { " chooses" } else { "" },
            side.name
        ));
        for (keyword, list) in [
            ("card-deck", &side.deck),
            ("card-hand", &side.hand),
            ("card-discard", &side.discard),
        ] {
            out.push(
                format!("{keyword} {name}: {}", card_list(list))
                    .trim_end()
                    .to_owned(),
            );
        }
        if side.plan != BattlePlan::default() {
            let text = side.plan.describe();
            if !clean(&text) {
                return None;
            }
            out.push(format!("card-plan {name}: {text}"));
        }
    }
    if play
        .plays
        .iter()
        .any(|p| !clean(p) || p.contains(',') || p.trim() != p || p.is_empty())
    {
        return None;
    }
    out.push(
        format!("card-plays: {}", play.plays.join(", "))
            .trim_end()
            .to_owned(),
    );
    Some(())
}
