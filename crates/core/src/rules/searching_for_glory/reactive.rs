//! Reactive cards and their windows (1.e, 1.c, 3.2, 3.4). After an operation is announced, and
//! before each battle's dice, a window opens: every player it concerns is prompted at once,
//! whether or not he holds a reactive card, so that nobody learns who does. A card played opens
//! the answers: one player at a time, in seat order from the operating player, may play any
//! reactive card to nullify the last standing one; when every one has passed, the top card
//! stands, the one below it is nullified, the one below that stands, and so on down to the first.
//! If the first stands, its effect (`data/reactive.txt`, reconstructed) applies; then the window
//! prompts everyone again, until every one has passed with no card played. A deadline is a pass.

use super::battle;
use super::data::{self, ClKind, Side, Who};
use super::order::Clause;
use super::state::{Played, State, Window, WindowKind};
use crate::engine::ruleset::{Ctx, RuleError};

fn react_error(message: impl Into<String>) -> RuleError {
    RuleError::new("1.e Reactive cards", message)
}

/// Opens a window of `kind` on the pending operation.
pub fn open(state: &mut State, kind: WindowKind, ctx: &mut Ctx) {
    state.window = Some(Window {
        kind,
        chain: Vec::new(),
        passed: Vec::new(),
    });
    let what = match kind {
        WindowKind::Announcement => "the operation is announced",
        WindowKind::Battle => "the battle is joined",
    };
    ctx.say(format!(
        "{what}: every player may play a reactive card ('react <card>') or pass"
    ));
}

fn actor(state: &State) -> usize {
    state
        .pending
        .as_ref()
        .expect("a window has an operation")
        .player
}

/// The players a window with an empty chain concerns: every player still in, but the operating
/// one after an announcement (he reacts only in answer, 1.e).
fn concerned(state: &State, kind: WindowKind) -> Vec<usize> {
    let me = actor(state);
    state
        .active()
        .filter(|&i| kind == WindowKind::Battle || i != me)
        .collect()
}

/// Seat order from the operating player, players still in.
fn seat_order(state: &State) -> Vec<usize> {
    let me = actor(state);
    let n = state.players.len();
    (0..n)
        .map(|k| (me + k) % n)
        .filter(|&i| !state.players[i].out)
        .collect()
}

/// The players prompted now: all concerned who have not passed, or the one to answer.
pub fn prompted(state: &State) -> Vec<usize> {
    let Some(w) = &state.window else {
        return Vec::new();
    };
    match w.chain.last() {
        None => concerned(state, w.kind)
            .into_iter()
            .filter(|i| !w.passed.contains(i))
            .collect(),
        Some(top) => seat_order(state)
            .into_iter()
            .find(|&i| i != top.player && !w.passed.contains(&i))
            .into_iter()
            .collect(),
    }
}

/// The side of player `p`'s character (an NPC's runner is of the NPC's side, 3.4).
fn side_of(state: &State, p: usize) -> Side {
    state.cu(&state.players[p].character).side
}

/// Does the pending operation cross a CL (March, Force March or an attack)?
fn moves(clauses: &[Clause]) -> bool {
    clauses.iter().any(Clause::moves)
}

/// The CLs the operation's route crosses, in order (exits not included).
fn route(state: &State) -> Vec<(String, String)> {
    let pd = state.pending.as_ref().expect("an operation");
    let mut at = state.cu(&pd.character).lp.clone().unwrap_or_default();
    let mut out = Vec::new();
    for c in &pd.clauses[pd.next..] {
        let steps: Vec<&String> = match c {
            Clause::March(to) => vec![to],
            c if c.attacks().is_some() => c.attacks().into_iter().collect(),
            Clause::ForceMarch(r) => r
                .iter()
                .filter(|e| super::order::route_absorb(e).is_none())
                .collect(),
            _ => Vec::new(),
        };
        for to in steps {
            if state.map().lp(to).is_some() {
                out.push((at.clone(), to.clone()));
            }
            at = to.clone();
        }
    }
    out
}

/// The first intact bridge on the operation's route (Broken Bridge).
fn first_bridge(state: &State) -> Option<(String, String)> {
    route(state).into_iter().find(|(a, b)| {
        state
            .map()
            .cl(a, b)
            .is_some_and(|cl| cl.kind == ClKind::Blue)
            && !state.is_blown(a, b)
    })
}

/// Where player `p`'s CU could come from to the sound of the guns: its LP, one CL from the
/// battle's LP and not over a blown bridge.
fn near_battle(state: &State, p: usize, lp: &str) -> Option<String> {
    let cu = state.cu(&state.players[p].character);
    let at = cu.lp.clone()?;
    if at == lp || super::roles::check_enter(state, &cu.character, lp).is_err() {
        return None;
    }
    let cl = state.map().cl(&at, lp)?;
    if cl.kind == ClKind::Blue && state.is_blown(&at, lp) {
        return None;
    }
    Some(at)
}

/// Checks that player `p` may play `card` as the first card of the open window: its window, who
/// may play it and what it needs (`data/reactive.txt`).
fn check_first(state: &State, p: usize, card: &str) -> Result<(), RuleError> {
    let w = state.window.as_ref().expect("a window");
    let r = data::reactive(card).expect("a reactive card");
    let name = &data::card(card).expect("a card").name;
    let battle_window = w.kind == WindowKind::Battle;
    if r.battle != battle_window {
        let when = if r.battle {
            "before a battle's dice"
        } else {
            "after an operation is announced"
        };
        return Err(react_error(format!(
            "{name} is played {when}, not now; it may still nullify a reactive card in answer"
        )));
    }
    let pd = state.pending.as_ref().expect("an operation");
    let mine = side_of(state, p);
    let actor_side = state.cu(&pd.character).side;
    let need = |ok: bool, why: &str| -> Result<(), RuleError> {
        if ok {
            Ok(())
        } else {
            Err(react_error(format!("{name}: {why}")))
        }
    };
    match r.who {
        Who::Any => {}
        Who::Enemy => need(
            mine != actor_side,
            "only a player of the other side than the operating player may play it",
        )?,
        Who::Attacker => need(
            mine == actor_side,
            "only a player of the attacking side may play it",
        )?,
        Who::Defender => need(
            mine != actor_side,
            "only a player of the defending side may play it",
        )?,
        Who::AtBattle => {
            let b = pd.battle.as_ref().expect("a battle");
            need(
                mine != actor_side
                    && state.cu(&state.players[p].character).lp.as_deref() == Some(&b.lp),
                "only a player whose CU defends at the battle's LP may avoid combat",
            )?
        }
        Who::NearBattle => {
            let b = pd.battle.as_ref().expect("a battle");
            need(
                near_battle(state, p, &b.lp).is_some(),
                &format!("your CU must stand one CL from {} (no blown bridge)", b.lp),
            )?
        }
    }
    let clauses = &pd.clauses[pd.next..];
    let dice_only = [
        "surprise",
        "ambush",
        "patriotism",
        "cowardice",
        "courage",
        "lucky-day",
    ];
    if let Some(b) = &pd.battle {
        if b.decisive && dice_only.contains(&card) {
            return Err(react_error(format!(
                "{name} changes the battle's dice; a Decisive Victory! rolls none"
            )));
        }
    }
    let cu = state.cu(&pd.character);
    match card {
        "bad-weather" | "good-roads" | "local-guide" | "stragglers" | "wrong-road"
        | "peasants-hate" => need(moves(clauses), "the operation does not move")?,
        "poor-roads" => need(
            route(state).len() >= 2,
            "the operation crosses fewer than two CLs",
        )?,
        "broken-bridge" => need(
            first_bridge(state).is_some(),
            "the operation's route crosses no intact bridge",
        )?,
        "supply-depleted" => need(
            cu.supply || clauses.contains(&Clause::Gather),
            "the operating CU has no supply marker and gathers none",
        )?,
        "ruse" => need(
            clauses.iter().any(|c| c.attacks().is_some()),
            "the operation makes no attack",
        )?,
        "indiscipline" => need(
            clauses.len() >= 2,
            "the operation has a single clause: there is nothing to cut short",
        )?,
        _ => {}
    }
    Ok(())
}

/// 2.l: after the first attrition roll the besieged "can not play any card" — from version 6
/// not a reactive card in another player's operation either (version 5 refused only the cards
/// of his own operation).
fn check_not_shut_in(state: &State, p: usize, name: &str) -> Result<(), RuleError> {
    let character = &state.players[p].character;
    if state.version >= 6 && super::sieges::shut_in(state, character) {
        let at = state.cu(character).lp.clone().unwrap_or_default();
        return Err(RuleError::new(
            "2.l Sieges",
            format!(
                "{character} is shut in the fortress of {at} since the first attrition roll: he can not play any card, {name} included; pass"
            ),
        ));
    }
    Ok(())
}

/// The reactive cards player `p` could play now, for the bot.
pub fn playable(state: &State, p: usize) -> Vec<String> {
    let Some(w) = &state.window else {
        return Vec::new();
    };
    let mut out: Vec<String> = state.players[p]
        .hand
        .iter()
        .filter(|k| data::card(k).is_some_and(|c| c.reactive))
        .filter(|k| super::roles::check_reactive(state, &state.players[p].character, k).is_ok())
        .filter(|_| check_not_shut_in(state, p, "").is_ok())
        .filter(|k| !w.chain.is_empty() || check_first(state, p, k).is_ok())
        .cloned()
        .collect();
    out.dedup();
    out
}

/// Player `p` plays `card` from his hand in the open window (1.c, 1.e).
pub fn play(state: &mut State, p: usize, card: &str, ctx: &mut Ctx) -> Result<(), RuleError> {
    let kind = data::card(card).ok_or_else(|| {
        react_error(format!(
            "'{card}' is not a card: name a reactive card by its key, like 'react ambush'"
        ))
    })?;
    if !kind.reactive {
        return Err(react_error(format!(
            "{} is not a reactive card (no R): it is played only in your own operation",
            kind.name
        )));
    }
    let at = state.players[p]
        .hand
        .iter()
        .position(|k| k == card)
        .ok_or_else(|| {
            react_error(format!(
                "{} is not in your hand (planned cards have no other use, 1.b)",
                kind.name
            ))
        })?;
    // III: a role card's restriction holds for answers too.
    super::roles::check_reactive(state, &state.players[p].character, card)?;
    check_not_shut_in(state, p, &kind.name)?;
    let w = state.window.as_ref().expect("a window");
    let answer = w.chain.last().map(|top| top.card.clone());
    if answer.is_none() {
        check_first(state, p, card)?;
    }
    state.players[p].hand.remove(at);
    state.discard.push(card.to_owned());
    let who = state.players[p].character.clone();
    match answer {
        Some(top) => ctx.say(format!(
            "{who} plays {} to nullify {}",
            kind.name,
            data::card(&top).expect("a card").name
        )),
        None => ctx.say(format!(
            "{who} plays {}: {}",
            kind.name,
            data::reactive(card).expect("an effect").effect
        )),
    }
    let w = state.window.as_mut().expect("a window");
    w.chain.push(Played {
        card: card.to_owned(),
        player: p,
    });
    w.passed.clear();
    Ok(())
}

/// Player `p` passes in the open window. When the last answer is in, the chain resolves; when
/// every one concerned has passed with no card played, the window closes (`state.window` is
/// `None` afterwards).
pub fn pass(state: &mut State, p: usize, ctx: &mut Ctx) {
    let w = state.window.as_mut().expect("a window");
    w.passed.push(p);
    settle(state, ctx);
}

/// With nobody left to prompt (every one passed, or the last to answer left the game): the
/// chain resolves, or, with no chain, the window closes.
pub fn settle(state: &mut State, ctx: &mut Ctx) {
    if !prompted(state).is_empty() {
        return;
    }
    let Some(w) = state.window.as_mut() else {
        return;
    };
    if w.chain.is_empty() {
        state.window = None;
        return;
    }
    let chain = std::mem::take(&mut w.chain);
    w.passed.clear();
    // The top card stands; each standing card nullifies the one below it.
    let first_stands = chain.len() % 2 == 1;
    for (i, c) in chain.iter().enumerate().skip(1).rev() {
        if (chain.len() - 1 - i) % 2 == 1 {
            ctx.say(format!(
                "{} is nullified",
                data::card(&c.card).expect("a card").name
            ));
        }
    }
    let base = &chain[0];
    let name = &data::card(&base.card).expect("a card").name;
    if first_stands {
        ctx.say(format!("{name} stands"));
        resolve(state, base, ctx);
    } else {
        ctx.say(format!("{name} is nullified: it has no effect"));
    }
}

/// The effect of a standing reactive card (`data/reactive.txt`, reconstructed).
fn resolve(state: &mut State, played: &Played, ctx: &mut Ctx) {
    let p = played.player;
    let card = played.card.as_str();
    let mine = side_of(state, p);
    let pd = state.pending.as_ref().expect("an operation");
    let actor = pd.player;
    let operating = pd.character.clone();
    let actor_side = state.cu(&operating).side;
    // Battle cards act for the player's side: 0 the attackers, 1 the defenders.
    let own = usize::from(mine != actor_side);
    let other = 1 - own;
    match card {
        "surprise" | "ambush" => battle_mods(state).bonus[own] += 3,
        "patriotism" => battle_mods(state).bonus[own] += 2,
        "cowardice" => battle_mods(state).bonus[other] -= 2,
        "courage" => {
            let m = battle_mods(state);
            m.bonus[own] += 1;
            m.courage[own] = true;
        }
        "pursuit" => battle_mods(state).pursuit[own] = true,
        "lucky-day" => battle_mods(state).lucky[own] = true,
        "avoid-combat" => {
            let character = state.players[p].character.clone();
            let lp = state
                .pending
                .as_ref()
                .and_then(|pd| pd.battle.as_ref())
                .map(|b| b.lp.clone());
            let Some(lp) = lp else { return };
            if state.cu(&character).lp.as_deref() != Some(lp.as_str()) {
                return;
            }
            match battle::retreat_to(state, &lp, mine) {
                Some(to) => {
                    let cu = state.cu_mut(&character);
                    cu.lp = Some(to.clone());
                    cu.trench = 0;
                    ctx.say(format!("{character} avoids combat and withdraws to {to}"));
                }
                None => ctx.say(format!(
                    "{character} finds no way to withdraw (2.m) and must fight"
                )),
            }
        }
        "sound-of-the-guns" => {
            let character = state.players[p].character.clone();
            let lp = state
                .pending
                .as_ref()
                .and_then(|pd| pd.battle.as_ref())
                .map(|b| b.lp.clone());
            let Some(lp) = lp else { return };
            if near_battle(state, p, &lp).is_none() {
                return;
            }
            let cu = state.cu_mut(&character);
            cu.lp = Some(lp.clone());
            cu.trench = 0;
            ctx.say(format!(
                "{character} marches to the sound of the guns and joins the battle at {lp}"
            ));
            if mine == actor_side {
                let b = state
                    .pending
                    .as_mut()
                    .and_then(|pd| pd.battle.as_mut())
                    .expect("a battle");
                b.attackers.push(character);
            }
        }
        "broken-bridge" => {
            if let Some((a, b)) = first_bridge(state) {
                state.blown.push(super::state::bridge_key(&a, &b));
                ctx.say(format!("the bridge {a}-{b} is broken"));
            }
        }
        "supply-depleted" => {
            state.cu_mut(&operating).supply = false;
            effect(state, card);
            ctx.say(format!("{operating}'s supplies are depleted"));
        }
        "peasants-hate" => {
            let cu = state.cu_mut(&operating);
            cu.fatigue += 1;
            ctx.say(format!(
                "the peasants harry {operating}: fatigue {}",
                cu.fatigue
            ));
        }
        "plunder" => {
            let cu = state.cu_mut(&operating);
            cu.supply = true;
            cu.glory -= 1;
            ctx.say(format!(
                "{operating}'s men plunder: a supply marker, and 1 glory lost"
            ));
        }
        "intercepted-message" => {
            // 3.4: an NPC's unplayed cards are its hand's.
            let planned = match &state.npc {
                Some(n) if state.runs_npc(actor) => &n.hand,
                _ => &state.players[actor].planned,
            };
            let cards: Vec<&str> = planned
                .iter()
                .filter(|(_, used)| !used)
                .map(|(k, _)| data::card(k).expect("a card").name.as_str())
                .collect();
            let seat = state.players[p].seat.clone();
            let list = if cards.is_empty() {
                "none".to_owned()
            } else {
                cards.join(", ")
            };
            let text = format!(
                "round {}: the intercepted message: {operating}'s planned cards not yet played are {list}",
                state.round
            );
            ctx.say_to(std::slice::from_ref(&seat), text.clone());
            state.players[p].intel.push(text);
        }
        // Cards whose effect is read while the operation is carried out.
        _ => effect(state, card),
    }
}

fn effect(state: &mut State, card: &str) {
    state
        .pending
        .as_mut()
        .expect("an operation")
        .effects
        .push(card.to_owned());
}

fn battle_mods(state: &mut State) -> &mut super::state::Mods {
    &mut state
        .pending
        .as_mut()
        .and_then(|pd| pd.battle.as_mut())
        .expect("a battle card resolves in a battle window")
        .mods
}
