//! How a card battle (4., option `battle_cards=cards`) asks its sides' commanders
//! (`battle::commanders`, 4.l.2) for their play, once its reactive window has closed:
//!
//! - `battle_play=sealed` (the default; issue 17, "By email"): both commanders are prompted at
//!   once for a sealed battle plan for *this* battle (`battle-plan …`, 4.f), neither shown the
//!   other's; when both are in, the sealed ones are opened, and the operating player's `fight`
//!   plays the battle out by them in one event (the events that open a plan draw no card). A
//!   commander whose deadline passes has the standing doctrine play his side. A plan plays the
//!   battle it was sent for and no other: the next battle asks again.
//! - `battle_play=interactive`: the battle begins at once (its hands dealt from the hidden
//!   stream) and each commander chooses each card as it is played, `play <card>`,
//!   `discard <card>` or `pass`, one event a choice (4.f–4.i); a missed deadline is the
//!   doctrine's choice. His side's hand is in his view and board alone.
//!
//! A side no player commands (NPCs and lone SP) is played by the doctrine in both.

use super::battle;
use super::battle_cards::{self, BattlePlan, CardBattle, Choice, Step};
use super::data;
use super::order::{Clause, Command};
use super::state::{BattlePlanSlot, BattleSetup, PlansStage, State};
use crate::engine::ruleset::{Ctx, PromptKind, RuleError};

fn pending_battle(state: &State) -> Option<&BattleSetup> {
    state.pending.as_ref()?.battle.as_ref()
}

fn pending_battle_mut(state: &mut State) -> Option<&mut BattleSetup> {
    state.pending.as_mut()?.battle.as_mut()
}

fn plan_error(message: impl Into<String>) -> RuleError {
    RuleError::new("4.f Battle plans", message)
}

/// The characters of side `side` (0 the attackers, 1 the defenders) in the battle `b`.
pub fn side_characters(state: &State, b: &BattleSetup, side: usize) -> Vec<String> {
    let at_lp = |c: &super::state::Cu| c.lp.as_deref() == Some(b.lp.as_str()) && c.sp > 0;
    let Some(first) = b.attackers.first() else {
        return Vec::new();
    };
    if side == 0 {
        return b
            .attackers
            .iter()
            .filter(|c| at_lp(state.cu(c)))
            .cloned()
            .collect();
    }
    let enemy = state.cu(first).side.enemy();
    state
        .cus
        .iter()
        .filter(|c| c.side == enemy && at_lp(c))
        .map(|c| c.character.clone())
        .collect()
}

/// The side's name (`french`, `austrian`) in the battle `b`.
fn side_name(state: &State, b: &BattleSetup, side: usize) -> &'static str {
    let attackers = state.cu(&b.attackers[0]).side;
    if side == 0 {
        attackers.name()
    } else {
        attackers.enemy().name()
    }
}

/// 4.f: checks side `side`'s battle plan against the cards it may hold in the battle: its
/// nationality's battle deck (its first character's) and, with the role cards, the personal
/// battle cards of its characters there (4.e, 4.l.3).
fn check_plan(state: &State, side: usize, plan: &BattlePlan) -> Result<(), RuleError> {
    let b = pending_battle(state).expect("a battle");
    let characters = side_characters(state, b, side);
    let nationality = characters
        .first()
        .and_then(|c| data::role(c))
        .map_or(side_name(state, b, side), |r| r.nationality.as_str());
    let personal: Vec<&str> = if state.plain_roles {
        Vec::new()
    } else {
        characters.iter().map(String::as_str).collect()
    };
    plan.check(nationality, &personal)
}

/// The players the pending battle waits for, if it waits: the commanders whose plan is asked
/// and not in; the operating player, to `fight` once the plans are open; the commander whose
/// side chooses now.
pub fn to_act(state: &State) -> Option<Vec<usize>> {
    if state.window.is_some() {
        return None;
    }
    let b = pending_battle(state)?;
    match b.plans {
        PlansStage::Asked => Some(
            (0..2)
                .filter(|&i| b.battle_plans[i] == BattlePlanSlot::Waiting)
                .filter_map(|i| b.commanders[i])
                .collect(),
        ),
        PlansStage::Opened => Some(fighter(state, b).into_iter().collect()),
        PlansStage::Playing => Some(
            b.play
                .as_ref()
                .and_then(|p| p.waiting())
                .and_then(|s| b.commanders[s])
                .into_iter()
                .collect(),
        ),
        _ => None,
    }
}

/// Who sends the `fight` of a battle whose plans are open: the operating player, or, if he
/// has left the game, a commander still in.
fn fighter(state: &State, b: &BattleSetup) -> Option<usize> {
    let operating = state.pending.as_ref()?.player;
    std::iter::once(operating)
        .chain(b.commanders.iter().flatten().copied())
        .find(|&p| !state.players[p].out)
}

/// Does the pending battle wait for the operating player's `fight`, its plans open (4.f)?
pub fn held_for_fight(state: &State) -> bool {
    state.window.is_none() && pending_battle(state).is_some_and(|b| b.plans == PlansStage::Opened)
}

/// The card battle being played card by card, if one is.
pub fn playing(state: &State) -> Option<&CardBattle> {
    let b = pending_battle(state)?;
    (b.plans == PlansStage::Playing)
        .then_some(b.play.as_deref())
        .flatten()
}

/// Holds the pending battle, its window closed, for its card play where it needs it: asks its
/// commanders for their plans, or begins it card by card. True while it holds (mod.rs
/// `proceed`); false when it is fought now (by dice, by the plans, or played out).
pub fn hold(state: &mut State, ctx: &mut Ctx) -> bool {
    if !state.battle_cards {
        return false;
    }
    let Some(b) = pending_battle(state) else {
        return false;
    };
    match b.plans {
        PlansStage::Ready => false,
        PlansStage::Asked | PlansStage::Opening | PlansStage::Opened => true,
        PlansStage::Playing => {
            let b = pending_battle_mut(state).expect("a battle");
            let play = b.play.as_mut().expect("a battle being played");
            // A side whose commander has left is played by the doctrine.
            play.run(ctx);
            if play.over() {
                b.plans = PlansStage::Ready;
                false
            } else {
                true
            }
        }
        PlansStage::Unasked => {
            if !super::operations::is_card_battle(state, b) {
                pending_battle_mut(state).expect("a battle").plans = PlansStage::Ready;
                return false;
            }
            let pd = state.pending.as_ref().expect("a battle");
            let operating =
                (state.cu(&pd.character).lp.as_deref() == Some(b.lp.as_str())).then_some(pd.player);
            let commanders = battle::commanders(state, &b.attackers, &b.lp, operating);
            let names: Vec<String> = commanders
                .iter()
                .flatten()
                .map(|&p| state.players[p].character.clone())
                .collect();
            let lp = b.lp.clone();
            let interactive = state.interactive;
            let b = pending_battle_mut(state).expect("a battle");
            b.commanders = commanders;
            if interactive {
                b.plans = PlansStage::Playing;
                ctx.say(format!(
                    "the battle at {lp} is fought card by card (4.f–4.i){}",
                    if names.is_empty() {
                        String::new()
                    } else {
                        format!(", commanded by {}", names.join(" and "))
                    }
                ));
                super::operations::begin_card_battle(state, ctx);
                return hold(state, ctx);
            }
            if names.is_empty() {
                b.plans = PlansStage::Ready;
                return false;
            }
            b.battle_plans = commanders.map(|c| {
                if c.is_some() {
                    BattlePlanSlot::Waiting
                } else {
                    BattlePlanSlot::None
                }
            });
            b.plans = PlansStage::Asked;
            ctx.say(format!(
                "the battle at {lp} is fought with battle cards (4.): {} send a sealed battle plan for it (4.f)",
                names.join(" and ")
            ));
            true
        }
    }
}

/// When no commander's plan is waiting any more: the sealed ones are opened (the engine
/// reveals them after this event), or, none sealed, the battle is ready to be fought now.
fn plans_in(state: &mut State, ctx: &mut Ctx) {
    let Some(b) = pending_battle_mut(state) else {
        return;
    };
    if b.plans != PlansStage::Asked || b.battle_plans.contains(&BattlePlanSlot::Waiting) {
        return;
    }
    let sealed: Vec<String> = b
        .battle_plans
        .iter()
        .filter_map(|s| match s {
            BattlePlanSlot::Sealed { commitment } => Some(commitment.clone()),
            _ => None,
        })
        .collect();
    if sealed.is_empty() {
        b.plans = PlansStage::Ready;
        return;
    }
    ctx.say(format!(
        "the battle at {} waits for {} sealed battle plan(s) to open (4.f)",
        b.lp,
        sealed.len()
    ));
    for c in sealed {
        ctx.request_reveal(c);
    }
    b.plans = PlansStage::Opening;
}

/// A command of player `p` while the pending battle waits for its card play. `None`: the
/// battle does not wait, and the command is the phase's.
pub fn apply(
    state: &mut State,
    p: usize,
    command: &Command,
    ctx: &mut Ctx,
) -> Option<Result<(), RuleError>> {
    if state.window.is_some() {
        return None;
    }
    let b = pending_battle(state)?;
    match b.plans {
        PlansStage::Asked => Some(send_plan(state, p, command, ctx)),
        PlansStage::Opened => Some(match command {
            Command::Fight => {
                pending_battle_mut(state).expect("a battle").plans = PlansStage::Ready;
                Ok(())
            }
            _ => Err(plan_error(format!(
                "the plans of the battle at {} are open: send 'fight' to fight it",
                b.lp
            ))),
        }),
        PlansStage::Playing => Some(choose(state, command, ctx)),
        _ => None,
    }
}

/// 4.f: a commander's sealed battle plan for the pending battle.
fn send_plan(
    state: &mut State,
    p: usize,
    command: &Command,
    ctx: &mut Ctx,
) -> Result<(), RuleError> {
    let b = pending_battle(state).expect("a battle");
    let Command::BattlePlan { plan } = command else {
        return Err(plan_error(format!(
            "the battle at {} waits for its commanders' sealed battle plans: send 'battle-plan …', or 'battle-plan' alone for the standing doctrine",
            b.lp
        )));
    };
    let side = (0..2)
        .find(|&i| b.commanders[i] == Some(p) && b.battle_plans[i] == BattlePlanSlot::Waiting)
        .ok_or_else(|| plan_error("your side's battle plan for this battle is in already"))?;
    if let Some(plan) = plan {
        check_plan(state, side, plan)?;
    }
    let commitment = ctx.commitment().map(str::to_owned).ok_or_else(|| {
        plan_error("a battle plan is sealed by the server: send it as 'battle-plan attack …'")
    })?;
    let lp = b.lp.clone();
    pending_battle_mut(state).expect("a battle").battle_plans[side] =
        BattlePlanSlot::Sealed { commitment };
    ctx.say(format!(
        "{} has sealed a battle plan for the battle at {lp}",
        state.players[p].character
    ));
    plans_in(state, ctx);
    Ok(())
}

/// 4.f–4.i, `battle_play=interactive`: the commander's choice for the step at hand.
fn choose(state: &mut State, command: &Command, ctx: &mut Ctx) -> Result<(), RuleError> {
    let b = pending_battle(state).expect("a battle");
    let play = b.play.as_deref().expect("a battle being played");
    let choice = match command {
        Command::Play { card } => Choice::Play(play.position(card)?),
        Command::Discard { card } => Choice::Discard(play.position(card)?),
        Command::Operation { clauses } if clauses[..] == [Clause::Pass] => Choice::Pass,
        _ => {
            return Err(RuleError::new(
                "4.f Battle cards",
                format!(
                    "the battle at {} is fought card by card: 'play <card>', 'discard <card>' or 'pass' (your side's battle cards are in your view and on your board)",
                    b.lp
                ),
            ))
        }
    };
    play.check(choice)?;
    let play = pending_battle_mut(state)
        .and_then(|b| b.play.as_deref_mut())
        .expect("a battle being played");
    play.apply(choice, ctx);
    Ok(())
}

/// The deadline of player `p`'s battle prompt passed: the doctrine plays his side's plan or
/// his choice; the operating player's `fight` is made. False when no battle prompt was his.
pub fn timeout(state: &mut State, p: usize, ctx: &mut Ctx) -> bool {
    if state.window.is_some() {
        return false;
    }
    let seat = state.players[p].seat.clone();
    let Some(b) = pending_battle_mut(state) else {
        return false;
    };
    match b.plans {
        PlansStage::Asked => {
            let Some(side) = (0..2).find(|&i| {
                b.commanders[i] == Some(p) && b.battle_plans[i] == BattlePlanSlot::Waiting
            }) else {
                return false;
            };
            b.battle_plans[side] = BattlePlanSlot::None;
            ctx.say(format!(
                "{seat} missed the deadline: the standing doctrine plays his side in the battle at {} (4.f)",
                b.lp
            ));
            plans_in(state, ctx);
            true
        }
        PlansStage::Opened => {
            b.plans = PlansStage::Ready;
            ctx.say(format!("{seat} missed the deadline: the battle is fought"));
            true
        }
        PlansStage::Playing => {
            let play = b.play.as_deref_mut().expect("a battle being played");
            let choice = play.doctrine();
            ctx.say(format!(
                "{seat} missed the deadline: the doctrine chooses ({})",
                play.describe(choice)
            ));
            play.apply(choice, ctx);
            true
        }
        _ => false,
    }
}

/// Player `p` leaves the game: the doctrine plays the sides he commanded (his plan, asked and
/// not in, will not come); a battle waiting for his `fight` is fought.
pub fn resign(state: &mut State, p: usize, ctx: &mut Ctx) {
    let operating = state.pending.as_ref().map(|pd| pd.player);
    let Some(b) = pending_battle_mut(state) else {
        return;
    };
    for i in 0..2 {
        if b.commanders[i] != Some(p) {
            continue;
        }
        b.commanders[i] = None;
        if b.battle_plans[i] == BattlePlanSlot::Waiting {
            b.battle_plans[i] = BattlePlanSlot::None;
        }
        if let Some(play) = b.play.as_deref_mut() {
            play.sides[i].chooses = false;
        }
    }
    if b.plans == PlansStage::Opened && operating == Some(p) {
        b.plans = PlansStage::Ready;
    }
    plans_in(state, ctx);
}

/// A sealed battle plan of the pending battle is opened. `None`: the commitment is not one of
/// its plans.
pub fn reveal(
    state: &mut State,
    commitment: &str,
    choice: &serde_json::Value,
    ctx: &mut Ctx,
) -> Option<Result<(), RuleError>> {
    let b = pending_battle(state)?;
    let sealed = BattlePlanSlot::Sealed {
        commitment: commitment.to_owned(),
    };
    let side = (0..2).find(|&i| b.battle_plans[i] == sealed)?;
    let who = b.commanders[side].map_or_else(
        || side_name(state, b, side).to_owned(),
        |p| state.players[p].character.clone(),
    );
    let plan: BattlePlan = match serde_json::from_value(choice["battle_plan"].clone()) {
        Ok(plan) => plan,
        Err(_) => return Some(Err(plan_error("a battle plan's choice holds the plan"))),
    };
    // It was checked when it was sent.
    if let Err(e) = check_plan(state, side, &plan) {
        return Some(Err(e));
    }
    ctx.say(format!(
        "{who}'s battle plan is opened: {}",
        super::order::describe(&Command::BattlePlan {
            plan: Some(plan.clone())
        })
    ));
    let b = pending_battle_mut(state).expect("a battle");
    b.battle_plans[side] = BattlePlanSlot::Open { plan };
    if b.plans == PlansStage::Opening
        && !b
            .battle_plans
            .iter()
            .any(|s| matches!(s, BattlePlanSlot::Sealed { .. }))
    {
        b.plans = PlansStage::Opened;
    }
    Some(Ok(()))
}

/// The battle's prompt for player `p`, if the battle waits for him: the same for both
/// commanders in a like place, and never naming a card of a hand (prompts are public: the
/// game's summary lists them; the hand is in the commander's view and board).
pub fn prompt(state: &State, p: usize) -> Option<(PromptKind, String, Vec<String>)> {
    if state.window.is_some() {
        return None;
    }
    let b = pending_battle(state)?;
    let round = state.round;
    match b.plans {
        PlansStage::Asked => {
            let side = (0..2).find(|&i| b.commanders[i] == Some(p))?;
            Some((
                PromptKind::Sealed,
                format!(
                    "Round {round}: the battle at {} is fought with battle cards (4.): send the {} side's sealed battle plan for it (4.f)",
                    b.lp,
                    side_name(state, b, side)
                ),
                vec![
                    "battle-plan attack cavalry-attack infantry-attack; answer cavalry-attack=squares; withdraw 2".into(),
                    "battle-plan".into(),
                ],
            ))
        }
        PlansStage::Opened => Some((
            PromptKind::Turn,
            format!(
                "Round {round}: the battle plans are open (4.f): fight the battle at {}",
                b.lp
            ),
            vec!["fight".into()],
        )),
        PlansStage::Playing => {
            let play = b.play.as_deref()?;
            let side = play.waiting()?;
            let mine = side_name(state, b, side);
            let (what, options): (String, Vec<&str>) = match play.step {
                Step::Attack if !play.opened => (
                    format!("the {mine} open the battle: play an offensive card (4.f)"),
                    vec!["play <card>"],
                ),
                Step::Attack => (
                    format!(
                        "the {mine} attack: play an offensive card, discard a card (4.g–4.h) or play a withdraw card (4.i)"
                    ),
                    vec!["play <card>", "discard <card>"],
                ),
                Step::Answer { attack } => (
                    format!(
                        "the {mine} answer {}: play a parry or a defeat that fits it, or pass to let it stand (4.f)",
                        battle_cards::cards()[attack].name
                    ),
                    vec!["play <card>", "pass"],
                ),
                Step::Cancel { answer, .. } => (
                    format!(
                        "the {mine} may cancel the answer {}: play a cancel card, or pass to let it stand (4.f)",
                        battle_cards::cards()[answer].name
                    ),
                    vec!["play <card>", "pass"],
                ),
                Step::Over => return None,
            };
            let s = &play.sides;
            Some((
                PromptKind::Turn,
                format!(
                    "Round {round}: the battle at {} ({} {} BP, {} {} BP): {what}; your side's battle cards are on your board",
                    b.lp, s[0].name, s[0].bp, s[1].name, s[1].bp
                ),
                options.into_iter().map(str::to_owned).collect(),
            ))
        }
        _ => None,
    }
}

/// The pending battle's card play as `viewer_player` may see it (`None`: a spectator;
/// `everyone`: after the end): the stage, the commanders, whether each plan is in, and,
/// played card by card, the BP, the step, the cards played (a discarded card face down) and
/// the hand sizes; the hand of the side he commands, and its legal choices, to him alone.
pub fn view(state: &State, viewer_player: Option<usize>, everyone: bool) -> serde_json::Value {
    use serde_json::json;
    let Some(b) = pending_battle(state).filter(|b| !b.plans.is_unasked()) else {
        return serde_json::Value::Null;
    };
    let seat = |p: &Option<usize>| p.map(|p| state.players[p].seat.clone());
    let plans: Vec<&str> = b
        .battle_plans
        .iter()
        .map(|s| match s {
            BattlePlanSlot::None => "doctrine",
            BattlePlanSlot::Waiting => "waiting",
            BattlePlanSlot::Sealed { .. } => "sealed",
            BattlePlanSlot::Open { .. } => "open",
        })
        .collect();
    let mut v = json!({
        "lp": b.lp,
        "stage": b.plans,
        "commanders": [seat(&b.commanders[0]), seat(&b.commanders[1])],
        "plans": plans,
    });
    if let Some(play) = b.play.as_deref() {
        let card = |c: usize| {
            let k = &battle_cards::cards()[c];
            json!({"card": k.key, "name": k.name})
        };
        let played: Vec<String> = play
            .plays
            .iter()
            .map(|l| match l.split_once(" discards ") {
                Some((side, _)) => format!("{side} discards a card"),
                None => l.clone(),
            })
            .collect();
        let sides: Vec<serde_json::Value> = play
            .sides
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let mut side = json!({
                    "side": s.name,
                    "bp": s.bp,
                    "start": s.start,
                    "hand_count": s.hand.len(),
                    "deck_count": s.deck.len(),
                    "discard_count": s.discard.len(),
                });
                let commands = viewer_player.is_some() && b.commanders[i] == viewer_player;
                if everyone || commands {
                    side["hand"] = s.hand.iter().map(|&c| card(c)).collect();
                }
                if commands && play.waiting() == Some(i) {
                    side["choices"] = play
                        .legal()
                        .into_iter()
                        .map(|c| json!(play.describe(c)))
                        .collect();
                }
                side
            })
            .collect();
        let (attack, answer) = match play.step {
            Step::Answer { attack } => (Some(card(attack)), None),
            Step::Cancel { attack, answer } => (Some(card(attack)), Some(card(answer))),
            _ => (None, None),
        };
        v["play"] = json!({
            "sides": sides,
            "step": match play.step {
                Step::Attack => "attack",
                Step::Answer { .. } => "answer",
                Step::Cancel { .. } => "cancel",
                Step::Over => "over",
            },
            "turn": play.sides[play.turn].name,
            "to_choose": play.waiting().map(|s| play.sides[s].name.clone()),
            "attack": attack,
            "answer": answer,
            "played": played,
        });
    }
    v
}

/// The pending battle's lines of the text board for `viewer_player` (as [`view`]).
pub fn board_lines(state: &State, viewer_player: Option<usize>) -> Vec<String> {
    let Some(b) = pending_battle(state).filter(|b| !b.plans.is_unasked()) else {
        return Vec::new();
    };
    let who = |p: Option<usize>| {
        p.map_or_else(
            || "the doctrine".to_owned(),
            |p| state.players[p].character.clone(),
        )
    };
    let mut out = Vec::new();
    match b.plans {
        PlansStage::Asked | PlansStage::Opening => {
            let waiting: Vec<String> = (0..2)
                .filter(|&i| b.battle_plans[i] == BattlePlanSlot::Waiting)
                .map(|i| who(b.commanders[i]))
                .collect();
            out.push(format!(
                "Battle at {} (4.f): waiting for the sealed battle plans of {}",
                b.lp,
                if waiting.is_empty() {
                    "nobody".to_owned()
                } else {
                    waiting.join(", ")
                }
            ));
        }
        PlansStage::Opened => out.push(format!(
            "Battle at {} (4.f): the plans are open; {} sends 'fight'",
            b.lp,
            who(fighter(state, b))
        )),
        _ => {}
    }
    if let Some(play) = b.play.as_deref().filter(|p| !p.over()) {
        let s = &play.sides;
        out.push(format!(
            "Battle at {}, card by card (4.f–4.i): {} {} BP ({} cards, {}), {} {} BP ({} cards, {})",
            b.lp,
            s[0].name,
            s[0].bp,
            s[0].hand.len(),
            who(b.commanders[0]),
            s[1].name,
            s[1].bp,
            s[1].hand.len(),
            who(b.commanders[1]),
        ));
        let name = |c: usize| battle_cards::cards()[c].name.clone();
        let now = match play.step {
            Step::Attack => format!("the {} attack", s[play.turn].name),
            Step::Answer { attack } => {
                format!("the {} answer {}", s[1 - play.turn].name, name(attack))
            }
            Step::Cancel { answer, .. } => format!(
                "the {} may cancel the answer {}",
                s[play.turn].name,
                name(answer)
            ),
            Step::Over => "over".into(),
        };
        out.push(format!("    now: {now}"));
        for (i, side) in s.iter().enumerate() {
            if viewer_player.is_none() || b.commanders[i] != viewer_player {
                continue;
            }
            let hand: Vec<String> = side.hand.iter().map(|&c| name(c)).collect();
            out.push(format!("Your side's battle cards: {}", hand.join(", ")));
            if play.waiting() == Some(i) {
                let choices: Vec<String> =
                    play.legal().into_iter().map(|c| play.describe(c)).collect();
                out.push(format!("You may: {}", choices.join(" | ")));
            }
        }
    }
    out
}
