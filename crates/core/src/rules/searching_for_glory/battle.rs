//! Battles without the optional battle cards (2.m), captures (II.1.A.3) and retreats. The
//! attacking CU has already moved into the battle's LP.

use std::collections::{BTreeMap, VecDeque};

use super::data::{self, ClKind, Side};
use super::state::{Mods, State};
use crate::engine::ruleset::Ctx;

/// A unit in a battle: a CU (by character) or lone SP (by index).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Unit {
    Cu(String),
    Lone(usize),
}

fn units(state: &State, lp: &str, side: Side, attackers: Option<&[String]>) -> Vec<Unit> {
    let mut out: Vec<Unit> = state
        .cus
        .iter()
        .filter(|c| c.side == side && c.lp.as_deref() == Some(lp) && c.sp > 0)
        .filter(|c| attackers.is_none_or(|a| a.contains(&c.character)))
        .map(|c| Unit::Cu(c.character.clone()))
        .collect();
    if attackers.is_none() {
        out.extend(
            state
                .lone
                .iter()
                .enumerate()
                .filter(|(_, l)| l.side == side && l.lp == lp)
                .map(|(i, _)| Unit::Lone(i)),
        );
    }
    out
}

fn sp(state: &State, u: &Unit) -> u32 {
    match u {
        Unit::Cu(c) => state.cu(c).sp,
        Unit::Lone(i) => state.lone[*i].sp,
    }
}

fn total(state: &State, us: &[Unit]) -> u32 {
    us.iter().map(|u| sp(state, u)).sum()
}

/// Takes `loss` SP off a side, the largest unit first (ties: the first listed). Gives the
/// characters whose CU lost its last SP.
fn take_losses(state: &mut State, us: &[Unit], mut loss: u32) -> Vec<String> {
    let mut emptied = Vec::new();
    while loss > 0 {
        let Some(u) = us.iter().filter(|u| sp(state, u) > 0).max_by_key(|u| {
            (
                sp(state, u),
                std::cmp::Reverse(us.iter().position(|x| x == *u)),
            )
        }) else {
            break;
        };
        let have = sp(state, u);
        let take = have.min(loss);
        loss -= take;
        match u {
            Unit::Cu(c) => {
                state.cu_mut(c).sp -= take;
                if take == have {
                    emptied.push(c.clone());
                }
            }
            Unit::Lone(i) => state.lone[*i].sp -= take,
        }
    }
    emptied
}

/// Gives `glory` split evenly (rounded down) among `characters`.
fn share_glory(state: &mut State, characters: &[String], glory: i64, ctx: &mut Ctx, why: &str) {
    if characters.is_empty() || glory == 0 {
        return;
    }
    let each = glory / characters.len() as i64;
    for c in characters {
        state.cu_mut(c).glory += each;
        ctx.say(format!("{c} gains {each} glory ({why})"));
    }
}

/// The LP a beaten force at `from` of `side` retreats to (2.m): two CLs away, else one, nearer
/// one of the side's retreat points than `from`, never into or through enemy SP nor over a
/// blown bridge; the nearest to a retreat point, then by id. `None`: it cannot retreat.
pub fn retreat_to(state: &State, from: &str, side: Side) -> Option<String> {
    let map = state.map();
    let points = map.retreat.get(&side).cloned().unwrap_or_default();
    let to_point = |lp: &str| -> usize {
        points
            .iter()
            .filter_map(|p| map.distances(p).get(lp).copied())
            .min()
            .unwrap_or(usize::MAX)
    };
    let here = to_point(from);
    // Breadth-first from `from`, two steps at most, through LPs free of the enemy.
    let mut reach: BTreeMap<String, usize> = BTreeMap::new();
    let mut queue = VecDeque::from([(from.to_owned(), 0usize)]);
    while let Some((lp, d)) = queue.pop_front() {
        if d == 2 {
            continue;
        }
        for n in map.neighbours(&lp) {
            if n == from || reach.contains_key(n) || state.holds(n, side.enemy()) {
                continue;
            }
            let cl = map.cl(&lp, n).expect("a CL");
            if cl.kind == ClKind::Blue && state.is_blown(&lp, n) {
                continue;
            }
            reach.insert(n.to_owned(), d + 1);
            queue.push_back((n.to_owned(), d + 1));
        }
    }
    for want in [2, 1] {
        let best = reach
            .iter()
            .filter(|(lp, &d)| d == want && to_point(lp) < here)
            .min_by_key(|(lp, _)| (to_point(lp), (*lp).clone()));
        if let Some((lp, _)) = best {
            return Some(lp.clone());
        }
    }
    None
}

/// A CU out of play: its player is out (3 / II.1.A.3).
pub fn take_out(state: &mut State, character: &str) {
    let cu = state.cu_mut(character);
    cu.lp = None;
    cu.supply = false;
    cu.trench = 0;
    if let Some(seat) = cu.seat.clone() {
        if let Some(i) = state.player_of(&seat) {
            state.players[i].out = true;
        }
    }
}

/// A CU eliminated under II.1.A.3 (captured, or no SP and no lone SP to join): out of play, and
/// its player out of the game — he may re-enter at the next round's start (`reentry.rs`).
pub fn eliminate(state: &mut State, character: &str) {
    take_out(state, character);
    if let Some(i) = state
        .cu(character)
        .seat
        .clone()
        .and_then(|s| state.player_of(&s))
    {
        state.players[i].eliminated = true;
    }
}

/// A CU captured: out of play, and its capture glory to the enemy characters in the battle.
fn capture(state: &mut State, character: &str, captors: &[String], ctx: &mut Ctx) {
    let glory = data::role(character).expect("a role").capture_glory;
    ctx.say(format!("{character} is captured"));
    state.cu_mut(character).captured = true;
    eliminate(state, character);
    share_glory(
        state,
        captors,
        glory,
        ctx,
        &format!("capturing {character}"),
    );
    super::roles::on_capture(state, character, captors, ctx);
}

/// 2.l: `loss` SP of `side` shut in the fortress at `lp` are eliminated (the largest unit
/// first); a CU that loses its last SP is captured by `captors`. Gives the SP eliminated.
pub fn lose_inside(
    state: &mut State,
    lp: &str,
    side: Side,
    loss: u32,
    captors: &[String],
    ctx: &mut Ctx,
) -> u32 {
    let inside = units(state, lp, side, None);
    let lost = loss.min(total(state, &inside));
    for c in take_losses(state, &inside, lost) {
        capture(state, &c, captors, ctx);
    }
    state.lone.retain(|l| l.sp > 0);
    lost
}

/// 4.f, 4.l.2: the commanders of a battle's `[attackers, defenders]` at `lp` (player
/// indices): for the attackers the player who gave the operation (a CU's own player, or the
/// NPC's runner, 3.4) while his CU or the NPC attacks, else the first attacker a player still
/// in plays; for the defenders the first CU at the LP (in the scenario's order) a player still
/// in plays. `None`: no player commands the side (NPCs and lone SP), and the doctrine plays it.
pub fn commanders(
    state: &State,
    attackers: &[String],
    lp: &str,
    operating: Option<usize>,
) -> [Option<usize>; 2] {
    let player = |c: &str| -> Option<usize> {
        let seat = state.cu(c).seat.as_ref()?;
        state.player_of(seat).filter(|&p| !state.players[p].out)
    };
    let at_lp = |c: &super::state::Cu| c.lp.as_deref() == Some(lp) && c.sp > 0;
    let present: Vec<&String> = attackers.iter().filter(|c| at_lp(state.cu(c))).collect();
    let Some(first) = present.first() else {
        return [None, None];
    };
    let side = state.cu(first).side;
    let attack = operating
        .filter(|&p| !state.players[p].out)
        .or_else(|| present.iter().find_map(|c| player(c)));
    let defence = state
        .cus
        .iter()
        .filter(|c| c.side == side.enemy() && at_lp(c))
        .find_map(|c| player(&c.character));
    [attack, defence]
}

/// How a card battle (4.c–4.j) is played: by the sides' opened battle plans (`None`: the
/// doctrine) in the event that fights it, or already played card by card
/// (`battle_play=interactive`).
pub enum CardPlay<'a> {
    Plans([Option<super::battle_cards::BattlePlan>; 2]),
    Played(&'a super::battle_cards::Fought),
}

/// What a battle's sides bring to it (2.m, 4.d).
struct Totals {
    a_sp: u32,
    d_sp: u32,
    a_supply: i64,
    d_supply: i64,
    /// The defenders' trench points.
    trench: i64,
    /// −3 to the attackers after a brown or blue CL.
    crossing: i64,
    /// III: the best battle characteristic of each side's characters in the battle.
    a_role: i64,
    d_role: i64,
}

fn totals(state: &State, att: &[Unit], def: &[Unit], cl: ClKind, mods: &Mods) -> Totals {
    let supply = |us: &[Unit]| {
        i64::from(
            us.iter()
                .any(|u| matches!(u, Unit::Cu(c) if state.cu(c).supply)),
        )
    };
    let trench: i64 = def
        .iter()
        .map(|u| match u {
            Unit::Cu(c) => i64::from(state.cu(c).trench),
            Unit::Lone(_) => 0,
        })
        .sum();
    let crossing = if matches!(cl, ClKind::Brown | ClKind::Blue) && !mods.no_crossing {
        -3
    } else {
        0
    };
    let role_mod = |us: &[Unit], attack: bool| -> i64 {
        if state.plain_roles {
            return 0;
        }
        us.iter()
            .filter_map(|u| match u {
                Unit::Cu(c) => data::role(c).map(|r| {
                    if attack {
                        r.battle_attack
                    } else {
                        r.battle_defence
                    }
                }),
                Unit::Lone(_) => None,
            })
            .max()
            .unwrap_or(0)
    };
    Totals {
        a_sp: total(state, att),
        d_sp: total(state, def),
        a_supply: supply(att),
        d_supply: supply(def),
        trench,
        crossing,
        a_role: role_mod(att, true),
        d_role: role_mod(def, false),
    }
}

/// 4.b–4.d: with the optional battle rules, sides of 4 SP or more fight with cards: the two
/// sides as they go in, `[attackers, defenders]`, with their BP. `None`: a battle of dice
/// (the option off, or an engagement).
fn sides_in(
    state: &State,
    att: &[Unit],
    def: &[Unit],
    a_side: Side,
    t: &Totals,
    mods: &Mods,
) -> Option<[super::battle_cards::SideIn; 2]> {
    if !(state.battle_cards && t.a_sp >= 4 && t.d_sp >= 4) {
        return None;
    }
    // 4.d: BP = SP + trench (never more than the SP) + 1 supply − 3 after a brown or blue CL;
    // the standing reactive cards and the role cards add as they add to a roll.
    let a_bp = i64::from(t.a_sp) + t.a_supply + t.crossing + mods.bonus[0] + t.a_role;
    let d_bp =
        i64::from(t.d_sp) + t.trench.min(i64::from(t.d_sp)) + t.d_supply + mods.bonus[1] + t.d_role;
    let side_in = |us: &[Unit], side: Side, bp: i64| {
        let characters: Vec<String> = us
            .iter()
            .filter_map(|u| match u {
                Unit::Cu(c) => Some(c.clone()),
                Unit::Lone(_) => None,
            })
            .collect();
        let nationality = characters
            .first()
            .and_then(|c| data::role(c))
            .map_or(side.name().to_owned(), |r| r.nationality.clone());
        super::battle_cards::SideIn {
            name: side.name().to_owned(),
            nationality,
            characters: if state.plain_roles {
                Vec::new()
            } else {
                characters
            },
            bp: bp.max(1),
            plan: None,
        }
    };
    Some([
        side_in(att, a_side, a_bp),
        side_in(def, a_side.enemy(), d_bp),
    ])
}

/// The sides of the card battle `attackers` fight at `lp` (4.b–4.d), or `None` if it is
/// fought with dice.
pub fn card_sides(
    state: &State,
    attackers: &[String],
    lp: &str,
    cl: ClKind,
    mods: &Mods,
) -> Option<[super::battle_cards::SideIn; 2]> {
    let a_side = state.cu(attackers.first()?).side;
    let att = units(state, lp, a_side, Some(attackers));
    let def = units(state, lp, a_side.enemy(), None);
    sides_in(
        state,
        &att,
        &def,
        a_side,
        &totals(state, &att, &def, cl, mods),
        mods,
    )
}

/// The result of a battle, for the tests and the lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Result {
    pub attacker_won: bool,
    pub attacker_total: i64,
    pub defender_total: i64,
    pub loser_loss: u32,
    pub winner_loss: u32,
    /// Fought with battle cards (4.c–4.j): the totals are the BP each side lost.
    pub cards: bool,
    /// In a battle with cards, the loser withdrew (4.i) before its BP reached 0.
    pub withdrew: bool,
}

/// 2.m: `attacker` has entered `lp` along a CL of kind `cl`; `decisive` with Decisive Victory!.
pub fn fight(
    state: &mut State,
    attacker: &str,
    lp: &str,
    cl: ClKind,
    decisive: bool,
    ctx: &mut Ctx,
) -> Result {
    fight_with(
        state,
        &[attacker.to_owned()],
        lp,
        cl,
        decisive,
        &Mods::default(),
        &CardPlay::Plans([None, None]),
        ctx,
    )
}

/// One side's battle roll: a d10, or with A Lucky Day! the better of two (1.e, reconstructed).
fn side_roll(lucky: bool, ctx: &mut Ctx) -> u32 {
    let r = ctx.roll(10);
    if lucky {
        r.max(ctx.roll(10))
    } else {
        r
    }
}

/// 2.m with the standing battle cards (1.e): `attackers` (the operating CU and any that came to
/// the sound of the guns) have entered `lp`, the first along a CL of kind `cl`; a card battle
/// (4.) is played as `cards` says.
#[allow(clippy::too_many_arguments)]
pub fn fight_with(
    state: &mut State,
    attackers: &[String],
    lp: &str,
    cl: ClKind,
    decisive: bool,
    mods: &Mods,
    cards: &CardPlay,
    ctx: &mut Ctx,
) -> Result {
    let attacker = attackers[0].as_str();
    let a_side = state.cu(attacker).side;
    let d_side = a_side.enemy();
    let att = units(state, lp, a_side, Some(attackers));
    let def = units(state, lp, d_side, None);
    let t = totals(state, &att, &def, cl, mods);
    let (a_sp, d_sp) = (t.a_sp, t.d_sp);
    let card_sides = if decisive {
        None
    } else {
        sides_in(state, &att, &def, a_side, &t, mods)
    };
    let mut result = if decisive {
        let loss = d_sp / 2;
        Result {
            attacker_won: true,
            attacker_total: 0,
            defender_total: 0,
            loser_loss: loss,
            winner_loss: (loss / 3).min(1),
            cards: false,
            withdrew: false,
        }
    } else if let Some(mut sides) = card_sides {
        // 4.c–4.i: played out now by the sides' plans (4.f), or card by card already.
        let f = match cards {
            CardPlay::Played(f) => (*f).clone(),
            CardPlay::Plans(plans) => {
                for (side, plan) in sides.iter_mut().zip(plans) {
                    side.plan = plan.clone();
                }
                super::battle_cards::fight(sides, ctx)
            }
        };
        let (lost_w, lost_l) = if f.attacker_won {
            (f.lost[0], f.lost[1])
        } else {
            (f.lost[1], f.lost[0])
        };
        let (loser_loss, winner_loss) = super::battle_cards::losses(lost_l, lost_w);
        ctx.say(format!(
            "the battle at {lp} is over: the {} lost {} BP, the {} {}",
            a_side.name(),
            f.lost[0],
            d_side.name(),
            f.lost[1]
        ));
        Result {
            attacker_won: f.attacker_won,
            attacker_total: f.lost[0],
            defender_total: f.lost[1],
            loser_loss,
            winner_loss,
            cards: true,
            withdrew: f.withdrew.is_some(),
        }
    } else {
        let diff = i64::from(a_sp) - i64::from(d_sp);
        loop {
            let ra = side_roll(mods.lucky[0], ctx);
            let rd = side_roll(mods.lucky[1], ctx);
            let ta =
                i64::from(ra) + diff.max(0) + t.a_supply + t.crossing + mods.bonus[0] + t.a_role;
            let td =
                i64::from(rd) + (-diff).max(0) + t.d_supply + t.trench + mods.bonus[1] + t.d_role;
            ctx.say(format!(
                "battle at {lp}: {attacker} rolls {ra} for {ta}, the defence rolls {rd} for {td}"
            ));
            if ta != td {
                let gap = (ta - td).unsigned_abs() as u32;
                let loser_sp = if ta > td { d_sp } else { a_sp };
                let loser_loss = (gap / 3).min(loser_sp);
                break Result {
                    attacker_won: ta > td,
                    attacker_total: ta,
                    defender_total: td,
                    loser_loss,
                    winner_loss: loser_loss / 3,
                    cards: false,
                    withdrew: false,
                };
            }
            ctx.say("a tie: both roll again");
        }
    };
    // Pursuit and Courage (1.e, reconstructed) change the losses the dice gave.
    let (w, l) = if result.attacker_won { (0, 1) } else { (1, 0) };
    let loser_sp = if result.attacker_won { d_sp } else { a_sp };
    if mods.pursuit[w] {
        result.loser_loss = (result.loser_loss + 1).min(loser_sp);
        ctx.say("the pursuit costs the beaten side 1 SP more");
    }
    if mods.courage[l] && result.loser_loss > 0 {
        result.loser_loss -= 1;
        ctx.say("courage saves the beaten side 1 SP");
    }
    if (mods.pursuit[w] || mods.courage[l]) && !result.cards {
        result.winner_loss = if decisive {
            (result.loser_loss / 3).min(1)
        } else {
            result.loser_loss / 3
        };
    }
    let (winners, losers, w_side, l_side) = if result.attacker_won {
        (att, def, a_side, d_side)
    } else {
        (def, att, d_side, a_side)
    };
    let winner_loss = result.winner_loss.min(total(state, &winners));
    let win_chars: Vec<String> = winners
        .iter()
        .filter_map(|u| match u {
            Unit::Cu(c) => Some(c.clone()),
            Unit::Lone(_) => None,
        })
        .collect();
    let lose_chars: Vec<String> = losers
        .iter()
        .filter_map(|u| match u {
            Unit::Cu(c) => Some(c.clone()),
            Unit::Lone(_) => None,
        })
        .collect();
    ctx.say(format!(
        "the {} win at {lp}: the {} lose {} SP, the {} {}",
        w_side.name(),
        l_side.name(),
        result.loser_loss,
        w_side.name(),
        winner_loss
    ));
    let lost_l = take_losses(state, &losers, result.loser_loss);
    let lost_w = take_losses(state, &winners, winner_loss);
    for c in lost_w {
        capture(state, &c, &lose_chars, ctx);
    }
    for c in &lost_l {
        capture(state, c, &win_chars, ctx);
    }
    for c in &win_chars {
        if state.cu(c).lp.is_some() {
            state.cu_mut(c).victories += 1;
        }
    }
    super::roles::on_battle_won(state, &win_chars, ctx);
    let margin = i64::from(result.loser_loss) - i64::from(winner_loss);
    if result.cards {
        // 4.j: no losses: 2 glory to every character in the battle; else the side with fewer
        // losses gains twice the other's, split evenly (4.l.4).
        let on_map = |cs: &[String], state: &State| -> Vec<String> {
            cs.iter()
                .filter(|c| state.cu(c).lp.is_some())
                .cloned()
                .collect()
        };
        let (w_now, l_now) = (on_map(&win_chars, state), on_map(&lose_chars, state));
        if result.loser_loss == 0 && winner_loss == 0 {
            for c in w_now.iter().chain(&l_now) {
                state.cu_mut(c).glory += 2;
                ctx.say(format!("{c} gains 2 glory (a battle without losses, 4.j)"));
            }
        } else if winner_loss < result.loser_loss {
            share_glory(
                state,
                &w_now,
                2 * i64::from(result.loser_loss),
                ctx,
                "the battle's glory (4.j)",
            );
        } else if result.loser_loss < winner_loss {
            share_glory(
                state,
                &l_now,
                2 * i64::from(winner_loss),
                ctx,
                "the battle's glory (4.j)",
            );
        }
    } else if margin > 0 {
        let still: Vec<String> = win_chars
            .iter()
            .filter(|c| state.cu(c).lp.is_some())
            .cloned()
            .collect();
        share_glory(state, &still, 2 * margin, ctx, "the battle's glory");
    }
    // The loser loses supply and retreats; what cannot retreat is eliminated.
    let dest = retreat_to(state, lp, l_side);
    for u in &losers {
        match u {
            Unit::Cu(c) if !lost_l.contains(c) => {
                let cu = state.cu_mut(c);
                if cu.lp.is_none() {
                    continue;
                }
                cu.supply = false;
                cu.trench = 0;
                match &dest {
                    Some(to) => {
                        cu.lp = Some(to.clone());
                        ctx.say(format!("{c} retreats to {to}"));
                    }
                    None => {
                        ctx.say(format!("{c} cannot retreat and is eliminated"));
                        let captors = win_chars.clone();
                        capture(state, c, &captors, ctx);
                    }
                }
            }
            Unit::Lone(i) => match &dest {
                Some(to) => state.lone[*i].lp = to.clone(),
                None => state.lone[*i].sp = 0,
            },
            Unit::Cu(_) => {}
        }
    }
    state.lone.retain(|l| l.sp > 0);
    result
}
