//! The game turn (5.) and its actions (6.), played as one order per player turn: the AP roll
//! (6.1.1), then each unit action in the order given (5.1), each unit activated once (6.1.3–
//! 6.1.4), until the AP run out (6.2.8) or an action cannot be carried out — the rest is handed
//! back unexecuted with the reason, and with AP left the turn is handed back as it stands
//! (6.2.8: the turn ends when its AP are spent): the player's next order goes on with it, or
//! `pass` ends it. The whole order is first tried on a copy of the board with
//! no dice (every action must be legal on the board as the moves before it leave it, as if no
//! fire had any effect), so a malformed or impossible order is refused before a die is drawn.

use super::action_points as ap;
use super::battle::Battle;
use super::close_combat;
use super::column;
use super::fire::{self, FirePlan};
use super::hex::Hex;
use super::leaders;
use super::movement::{self, kind_and_name, MovePlan};
use super::order::{describe_action, describe_standing, Action, Order, Pick, Standing, UnitRef};
use super::terrain::Map;
use super::units::{Kind, Side, Slot};
use super::victory;
use crate::engine::ruleset::{Ctx, RuleError};

/// An action found legal, ready to carry out.
#[derive(Debug, Clone)]
pub enum Plan<'p> {
    Move(MovePlan<'p>),
    MoveFire(MovePlan<'p>, Hex),
    FireMove(FirePlan, &'p [Hex], bool),
    Fire(FirePlan, bool),
    Close(usize, Hex, bool),
    Rally(usize, usize),
    Formation(usize, bool),
    Dragoons(bool),
    Standing(Standing),
}

/// The unit an action names (see `order::UnitRef`).
pub fn resolve(map: &Map, b: &Battle, side: Side, r: UnitRef) -> Result<usize, RuleError> {
    let err = |m: String| RuleError::new("5.1 Unit actions", m);
    if !map.contains(r.hex) {
        return Err(err(format!("{} is off the map", r.hex)));
    }
    let slot = |s: Slot| b.in_slot(r.hex, side, s);
    let found = match r.pick {
        Pick::Main => slot(Slot::Line)
            .or_else(|| slot(Slot::Gun))
            .or_else(|| slot(Slot::Leader)),
        Pick::Gun => slot(Slot::Gun),
        Pick::Leader => slot(Slot::Leader),
    };
    let what = match r.pick {
        Pick::Main => "unit",
        Pick::Gun => "artillery or rocket unit",
        Pick::Leader => "leader",
    };
    if found.is_none() && r.pick == Pick::Main && b.in_slot(r.hex, side, Slot::Vp).is_some() {
        return Err(RuleError::new(
            "3.4.11 Victory point units",
            format!(
                "the {} VP unit in {} cannot move or act: VP units stay where the scenario puts them",
                side.name(),
                r.hex
            ),
        ));
    }
    found.ok_or_else(|| {
        err(format!(
            "there is no {} {what} in {} to act",
            side.name(),
            r.hex
        ))
    })
}

fn fresh(b: &Battle, u: usize) -> Result<(), RuleError> {
    if b.units[u].acted {
        return Err(RuleError::new(
            "6.1.4 Actions",
            format!("{} has already been activated this turn", b.label(u)),
        ));
    }
    Ok(())
}

/// Checks one action against the board as it stands; returns its plan and AP cost.
pub fn check<'p>(
    map: &Map,
    b: &Battle,
    side: Side,
    a: &'p Action,
) -> Result<(Plan<'p>, u8), RuleError> {
    match a {
        Action::Move { unit, path, leader } => {
            let u = resolve(map, b, side, *unit)?;
            fresh(b, u)?;
            let plan = movement::check(map, b, u, path, *leader, false)?;
            let cost = plan.cost();
            Ok((Plan::Move(plan), cost))
        }
        Action::MoveFire {
            unit,
            path,
            target,
            leader,
        } => {
            let u = resolve(map, b, side, *unit)?;
            fresh(b, u)?;
            let kind = b.units[u].kind;
            if !matches!(kind, Kind::Dragoon | Kind::Indian) {
                return Err(RuleError::new(
                    "6.2.1 Actions allowed",
                    format!("{} may move or fire, not both; only dragoons and Indians move and fire (6.2.3-6.2.4)", b.label(u)),
                ));
            }
            let plan = movement::check(map, b, u, path, *leader, true)?;
            if plan.waterway {
                return Err(RuleError::new(
                    "2.3.3 Waterway",
                    format!(
                        "{} may do nothing more after entering a waterway",
                        b.label(u)
                    ),
                ));
            }
            let mut after = b.clone();
            movement::perform(&mut after, &plan, None);
            fire::check(map, &after, u, *target, kind == Kind::Indian)?;
            Ok((Plan::MoveFire(plan, *target), ap::MOVE_AND_FIRE))
        }
        Action::FireMove {
            unit,
            target,
            path,
            leader,
        } => {
            let u = resolve(map, b, side, *unit)?;
            fresh(b, u)?;
            if b.units[u].kind != Kind::Indian {
                return Err(RuleError::new(
                    "6.2.3 Dragoons",
                    format!(
                        "{} may not fire and then move; only Indians do (6.2.4)",
                        b.label(u)
                    ),
                ));
            }
            let shot = fire::check(map, b, u, *target, true)?;
            let plan = movement::check(map, b, u, path, *leader, true)?;
            Ok((
                Plan::FireMove(shot, path, *leader),
                ap::MOVE_AND_FIRE + if plan.waterway { ap::WATERWAY } else { 0 },
            ))
        }
        Action::Fire {
            unit,
            target,
            advance,
        } => {
            let u = resolve(map, b, side, *unit)?;
            fresh(b, u)?;
            let shot = fire::check(map, b, u, *target, false)?;
            if *advance && !b.options.has(10) {
                return Err(RuleError::new("11.10 Advance after fire", "advancing after fire combat needs optional rule 11.10, not in force in this game"));
            }
            if *advance && !b.units[u].hex.is_adjacent(*target) {
                return Err(RuleError::new(
                    "11.10 Advance after fire",
                    format!("only a unit adjacent to {target} may advance into it"),
                ));
            }
            Ok((Plan::Fire(shot, *advance), ap::ACTION))
        }
        Action::CloseCombat {
            unit,
            target,
            advance,
        } => {
            let u = resolve(map, b, side, *unit)?;
            fresh(b, u)?;
            close_combat::check(map, b, u, *target)?;
            // 3.4.6 / 6.2.4 Indians "may not move in the turn they conduct close combat".
            if *advance && b.units[u].kind == Kind::Indian && !b.options.indians_advance {
                return Err(RuleError::new(
                    "3.4.6 Indians",
                    format!(
                        "{} may not move in the turn it closes, so it does not advance: write 'close-combat {} {target}' (the option indians_advance lets them)",
                        b.label(u),
                        b.units[u].hex
                    ),
                ));
            }
            Ok((Plan::Close(u, *target, *advance), ap::CLOSE_COMBAT))
        }
        Action::Rally { unit } => {
            let u = resolve(map, b, side, *unit)?;
            let l = leaders::check_rally(b, u)?;
            Ok((Plan::Rally(u, l), ap::ACTION))
        }
        Action::Column { unit } | Action::Line { unit } => {
            let u = resolve(map, b, side, *unit)?;
            fresh(b, u)?;
            let to_column = matches!(a, Action::Column { .. });
            column::check(b, u, to_column)?;
            Ok((Plan::Formation(u, to_column), ap::ACTION))
        }
        Action::Dragoons { evade } => {
            if !b.options.has(12) {
                return Err(RuleError::new("11.12 Dragoons retreat", "the dragoons' retreat before close combat is optional rule 11.12, not in force in this game"));
            }
            Ok((Plan::Dragoons(*evade), 0))
        }
        Action::Standing(s) => {
            let (rule, hex) = match *s {
                Standing::TiedHitsToGuns(_) => return Ok((Plan::Standing(*s), 0)),
                Standing::RetreatTowards(h) => ("8.4.1 Retreat", h),
                Standing::LeadersTowards(h) => ("8.4.5 Leader retreat", h),
            };
            if let Some(h) = hex.filter(|&h| !map.contains(h)) {
                return Err(RuleError::new(
                    rule,
                    format!(
                        "{h} is off the map ({} columns, {} rows): a retreat goes towards a hex of the board",
                        map.cols, map.rows
                    ),
                ));
            }
            Ok((Plan::Standing(*s), 0))
        }
    }
}

/// Carries out a checked plan. With no `ctx` (the dry run) only what needs no dice happens:
/// moves, formation changes, rallies and activations. A part that can no longer be carried
/// out (an Indian's move after its fire) stops the order with the reason.
pub fn perform(
    map: &Map,
    b: &mut Battle,
    side: Side,
    plan: Plan<'_>,
    ctx: Option<&mut Ctx>,
) -> Result<(), String> {
    match (plan, ctx) {
        (Plan::Move(p), ctx) => movement::perform(b, &p, ctx),
        (Plan::MoveFire(p, target), ctx) => {
            let from = b.units[p.unit].hex;
            movement::perform(b, &p, None);
            if let Some(ctx) = ctx {
                say!(
                    ctx,
                    "{} {} moves {from}-{}{} and fires (2 AP)",
                    side.name(),
                    kind_and_name(b, p.unit),
                    path_text(p.path),
                    with_leader(b, p.leader)
                );
                let shot =
                    fire::check(map, b, p.unit, target, b.units[p.unit].kind == Kind::Indian)
                        .map_err(|e| e.to_string())?;
                fire::perform(map, b, shot, false, ctx);
            }
        }
        (Plan::FireMove(shot, path, leader), ctx) => {
            let u = shot.unit;
            if let Some(ctx) = ctx {
                fire::perform(map, b, shot, false, ctx);
                let plan = movement::check(map, b, u, path, leader, true)
                    .map_err(|e| format!("after its fire, {}", e))?;
                say!(
                    ctx,
                    "{} {} moves {}-{}{} after firing (2 AP)",
                    side.name(),
                    kind_and_name(b, u),
                    b.units[u].hex,
                    path_text(path),
                    with_leader(b, plan.leader)
                );
                movement::perform(b, &plan, None);
            } else {
                let plan =
                    movement::check(map, b, u, path, leader, true).map_err(|e| e.to_string())?;
                movement::perform(b, &plan, None);
            }
        }
        (Plan::Fire(shot, advance), Some(ctx)) => {
            fire::perform(map, b, shot, advance, ctx);
        }
        (Plan::Close(u, target, advance), Some(ctx)) => {
            close_combat::perform(map, b, u, target, advance, ctx);
        }
        (Plan::Fire(shot, _), None) => b.units[shot.unit].acted = true,
        (Plan::Close(u, _, _), None) => b.units[u].acted = true,
        (Plan::Rally(u, l), ctx) => {
            leaders::rally(b, u, l);
            if let Some(ctx) = ctx {
                say!(ctx, "{}", leaders::rally_line(b, u, l));
            }
        }
        (Plan::Formation(u, to_column), ctx) => {
            column::perform(b, u, to_column);
            if let Some(ctx) = ctx {
                say!(ctx, "{}", column::line(b, u, to_column));
            }
        }
        (Plan::Dragoons(evade), ctx) => {
            b.sides[usize::from(side.0)].evade = evade;
            if let Some(ctx) = ctx {
                say!(
                    ctx,
                    "{} dragoons will {} close combat (11.12)",
                    side.name(),
                    if evade {
                        "retreat before"
                    } else {
                        "stand and face"
                    }
                );
            }
        }
        (Plan::Standing(s), ctx) => {
            let st = &mut b.sides[usize::from(side.0)];
            match s {
                Standing::TiedHitsToGuns(g) => st.tied_hits_to_guns = g,
                Standing::RetreatTowards(h) => st.retreat_towards = h,
                Standing::LeadersTowards(h) => st.leaders_towards = h,
            }
            if let Some(ctx) = ctx {
                say!(
                    ctx,
                    "{} standing order: {}",
                    side.name(),
                    describe_standing(s)
                );
            }
        }
    }
    Ok(())
}

/// " with <leader>" when a leader goes along (6.2.6, 9.1.1).
fn with_leader(b: &Battle, leader: Option<usize>) -> String {
    leader
        .map(|l| format!(" with {}", b.label(l)))
        .unwrap_or_default()
}

fn path_text(path: &[Hex]) -> String {
    path.iter()
        .map(Hex::to_string)
        .collect::<Vec<_>>()
        .join("-")
}

/// The start of a player turn: the side's units may act again; at the start of a game turn,
/// nobody has been fired on yet (11.2). The last turn's attacks and trails are forgotten.
pub fn begin(b: &mut Battle, side: Side) {
    let new_game_turn = side == b.first;
    for u in &mut b.units {
        if u.side == side {
            u.acted = false;
            u.moved = false;
        }
        if new_game_turn {
            u.fired_on = false;
        }
    }
    b.attacks.clear();
    b.trails.clear();
}

/// Whether unit `u` has moved or acted in the player turn as its side to act meets it: the
/// flags `begin` clears are kept until that side's next order is played, so a side about to
/// start a new turn (not one handed back, 6.2.8) has every unit fresh (6.1.4). What the boards
/// draw and list, as the prompts and pointing see the turn.
pub fn spent_as_met(b: &Battle, u: &super::units::Unit) -> bool {
    let fresh = u.side == b.active && !b.held;
    (u.acted || u.moved) && !fresh
}

/// Whether unit `u` has been fired on this game turn as the side to act meets it (11.2): no
/// one has yet when a game turn is about to start.
pub fn fired_on_as_met(b: &Battle, u: &super::units::Unit) -> bool {
    let new_game_turn = b.active == b.first && !b.held;
    u.fired_on && !new_game_turn
}

/// Tries the whole order on a copy of the board, with no dice: the errors a player gets
/// before anything happens.
pub fn validate(b: &Battle, side: Side, order: &Order) -> Result<(), RuleError> {
    validate_plans(b, side, order).map(drop)
}

/// Does carrying out this plan roll dice, so that the board after it differs between the dry
/// run and the turn?
fn rolls_dice(plan: &Plan<'_>) -> bool {
    matches!(
        plan,
        Plan::Fire(..) | Plan::Close(..) | Plan::MoveFire(..) | Plan::FireMove(..)
    )
}

/// Does the order need action points at all? An order of standing orders only (8.1.2, 8.4.1,
/// 8.4.5, 11.12), which cost none, rolls no AP die (6.1.1).
fn spends_ap(order: &Order) -> bool {
    order
        .actions
        .iter()
        .any(|a| !matches!(a, Action::Standing(_) | Action::Dragoons { .. }))
}

/// `validate`, which also hands back the plans of the order's first actions, up to and
/// including the first that rolls dice. Until that action is carried out the turn meets the
/// board exactly as the dry run did (the same `begin`, then the same moves, formation changes,
/// rallies and standing orders; `check` reads neither the AP nor the result), so its checks
/// would find the same plans at the same cost: `play_checked` takes them instead of checking
/// those actions twice. In a turn handed back with AP left (6.2.8) the AP are known, so an
/// order that needs more than are left is refused here.
pub fn validate_plans<'p>(
    b: &Battle,
    side: Side,
    order: &'p Order,
) -> Result<Vec<(Plan<'p>, u8)>, RuleError> {
    let map = b.map();
    let mut sim = b.clone();
    if !b.held {
        begin(&mut sim, side);
    }
    let mut plans = Vec::new();
    let mut same = true;
    let mut spent = 0u8;
    for (n, a) in order.actions.iter().enumerate() {
        let name = |e: RuleError| {
            RuleError::new(
                e.rule,
                format!("action {} ({}): {}", n + 1, describe_action(a), e.message),
            )
        };
        let (plan, cost) = check(map, &sim, side, a).map_err(name)?;
        spent = spent.saturating_add(cost);
        if b.held && spent > b.ap {
            return Err(RuleError::new(
                "6.2.8 Action points",
                format!(
                    "action {} ({}): the order needs {spent} AP by then and {} are left of this turn; leave out actions, or 'pass' to end the turn",
                    n + 1,
                    describe_action(a),
                    b.ap
                ),
            ));
        }
        if same {
            same = !rolls_dice(&plan);
            plans.push((plan.clone(), cost));
        }
        perform(map, &mut sim, side, plan, None).map_err(|m| {
            RuleError::new(
                "5.1 Unit actions",
                format!("action {} ({}): {m}", n + 1, describe_action(a)),
            )
        })?;
    }
    Ok(plans)
}

/// Plays a validated order: the AP roll, then the actions until the AP or the order runs out
/// or an action cannot be carried out; then the end of the player turn (5.), unless the turn
/// is handed back with AP left (6.2.8).
pub fn play(b: &mut Battle, side: Side, order: &Order, ctx: &mut Ctx) {
    play_checked(b, side, order, Vec::new(), ctx);
}

/// 11.9 The attacks the order's actions from the `from`th on name: (attacker's hex, target).
fn planned_attacks(order: &Order, from: usize) -> Vec<(Hex, Hex)> {
    order.actions[from.min(order.actions.len())..]
        .iter()
        .filter_map(|a| match a {
            Action::Fire { unit, target, .. }
            | Action::CloseCombat { unit, target, .. }
            | Action::FireMove { unit, target, .. } => Some((unit.hex, *target)),
            Action::MoveFire { path, target, .. } => path.last().map(|&h| (h, *target)),
            _ => None,
        })
        .collect()
}

/// `play`, given the plans `validate_plans` found for the order's first actions.
pub fn play_checked(
    b: &mut Battle,
    side: Side,
    order: &Order,
    plans: Vec<(Plan<'_>, u8)>,
    ctx: &mut Ctx,
) {
    let map = b.map();
    if !b.held {
        begin(b, side);
    }
    if order.actions.is_empty() {
        if b.held {
            say!(
                ctx,
                "{} ends the turn with {} AP unspent",
                side.name(),
                b.ap
            );
        } else {
            say!(ctx, "{} passes", side.name());
        }
        end(b, side, ctx);
        return;
    }
    if !b.held && spends_ap(order) {
        let s = &b.sides[usize::from(side.0)];
        let command = ap::command_ap(s.command, s.leaders_lost);
        let die = ctx.roll(6);
        let random = ap::random_ap(die);
        b.ap = random + command;
        say!(
            ctx,
            "{} rolls {die} on the random action point chart: {random} + {command} command = {} AP",
            side.name(),
            b.ap
        );
    }
    b.held = false;
    let mut plans = plans.into_iter();
    let mut refused = None;
    for (n, a) in order.actions.iter().enumerate() {
        if b.result.is_some() {
            hand_back(ctx, order, n, || "the battle is over".into());
            break;
        }
        let checked = match plans.next() {
            Some(p) => Ok(p),
            None => check(map, b, side, a),
        };
        let (plan, cost) = match checked {
            Ok(p) => p,
            Err(e) => {
                refused = Some((n, e.to_string()));
                break;
            }
        };
        if cost > b.ap {
            let why = if ctx.lines_wanted() {
                format!(
                    "6.2.8 Action points: {} needs {cost} AP and {} left",
                    describe_action(a),
                    b.ap
                )
            } else {
                String::new()
            };
            refused = Some((n, why));
            break;
        }
        b.ap -= cost;
        if b.options.has(9) {
            b.planned = planned_attacks(order, n + 1);
        }
        let done = perform(map, b, side, plan, Some(ctx));
        b.planned.clear();
        if let Err(why) = done {
            refused = Some((n + 1, why));
            break;
        }
        b.result = victory::check_armies(b);
    }
    if let Some((from, why)) = refused {
        // 6.2.8 The turn ends when its AP are spent: with AP left, the refused action hands
        // the turn back as it stands, and the player's next order goes on with it.
        if b.result.is_none() && b.ap > 0 {
            b.held = true;
            let left = b.ap;
            hand_back(ctx, order, from, || {
                format!(
                    "{why} — {left} AP left of this turn: send the rest of your turn, or 'pass' to end it"
                )
            });
            return;
        }
        hand_back(ctx, order, from, || why);
    }
    end(b, side, ctx);
}

/// Hands back the order's actions from the `from`th on, unexecuted, for the reason `why`;
/// both are written only when they will be read.
fn hand_back(ctx: &mut Ctx, order: &Order, from: usize, why: impl FnOnce() -> String) {
    if ctx.lines_wanted() {
        let rest = order.actions[from..].iter().map(describe_action).collect();
        ctx.interrupt(why(), rest);
    }
}

/// The end of a player turn: the other side's turn, or step 5 (check victory) and the next
/// game turn.
pub fn end(b: &mut Battle, side: Side, ctx: &mut Ctx) {
    b.ap = 0;
    b.held = false;
    if b.result.is_none() {
        b.result = victory::check_armies(b);
    }
    if b.result.is_none() {
        if side == b.first {
            b.active = side.other();
        } else {
            b.result = victory::check_turn_end(b);
            if b.result.is_none() {
                b.turn += 1;
                b.active = b.first;
                say!(ctx, "turn {} of {}", b.turn, b.turns);
            }
        }
    }
    if let Some(r) = &b.result {
        ctx.say(r.summary.clone());
    }
}
