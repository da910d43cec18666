//! The random-legal-move bot and the prompts' option lists: a plan of random hand positions
//! that passes the colour check, and an operation chosen among those the planned cards allow —
//! attacks where an enemy is one CL away, marches, supplies, trenches, rest, pass; in a
//! reactive window, now and then a reactive card of the hand that may be played, else a pass.

use super::battle_cards::{self, BattlePlan, Cancel, CardBattle, Choice};
use super::data;
use super::operations;
use super::order::{Clause, Command};
use super::plan;
use super::reactive;
use super::state::{Phase, PlansStage, State};
use crate::engine::ruleset::{BotRng, Seat};

/// Operations the player `p` may give now, in the order language.
pub fn options(state: &State, p: usize) -> Vec<String> {
    candidates(state, p)
        .iter()
        .map(|c| super::order::describe(&Command::Operation { clauses: c.clone() }))
        .collect()
}

/// Single-clause operations (and march-then-attack) that pass the checks.
fn candidates(state: &State, p: usize) -> Vec<Vec<Clause>> {
    let cu = state.cu(state.operator(p).0);
    let mut out = vec![vec![Clause::Pass]];
    let Some(at) = cu.lp.clone() else {
        return out;
    };
    let map = state.map();
    let mut tries: Vec<Vec<Clause>> = vec![
        vec![Clause::Rest],
        vec![Clause::Gather],
        vec![Clause::Entrench],
        vec![Clause::Chest],
        vec![Clause::Parlay],
        vec![Clause::Inform],
        vec![Clause::Flags],
        vec![Clause::Rest, Clause::Chest],
        vec![Clause::Detach(1)],
        vec![Clause::Absorb(None)],
        vec![Clause::Siege],
        vec![Clause::Strategic, Clause::Gather],
        vec![Clause::Sortie],
        vec![Clause::Pass, Clause::Standing(true)],
        vec![Clause::Pass, Clause::Standing(false)],
    ];
    let near: Vec<String> = map
        .neighbours(&at)
        .map(str::to_owned)
        .chain(
            map.exits
                .iter()
                .filter(|e| e.from == at)
                .map(|e| e.id.clone()),
        )
        .collect();
    for n in &near {
        tries.push(vec![Clause::March(n.clone())]);
        tries.push(vec![Clause::Attack(n.clone())]);
        tries.push(vec![Clause::Decisive(n.clone())]);
        tries.push(vec![Clause::NapoleonDefeated(n.clone())]);
        tries.push(vec![Clause::Harass(n.clone())]);
        tries.push(vec![Clause::Demoralize, Clause::Attack(n.clone())]);
        tries.push(vec![Clause::Strategic, Clause::Attack(n.clone())]);
        tries.push(vec![Clause::Strategic, Clause::March(n.clone())]);
        tries.push(vec![Clause::GoodWeather, Clause::March(n.clone())]);
        tries.push(vec![Clause::ForceMarch(vec![n.clone()])]);
        tries.push(vec![Clause::March(n.clone()), Clause::Gather]);
        tries.push(vec![Clause::March(n.clone()), Clause::Absorb(None)]);
        for m in map.neighbours(n) {
            tries.push(vec![Clause::ForceMarch(vec![n.clone(), m.to_owned()])]);
            tries.push(vec![Clause::March(n.clone()), Clause::Attack(m.to_owned())]);
        }
    }
    for c in map.cls.iter().filter(|c| c.kind == data::ClKind::Blue) {
        if c.a == at || c.b == at {
            tries.push(vec![Clause::Blow(c.a.clone(), c.b.clone())]);
            tries.push(vec![Clause::Repair(c.a.clone(), c.b.clone())]);
        }
    }
    out.extend(
        tries
            .into_iter()
            .filter(|t| operations::check(state, p, t).is_ok()),
    );
    out
}

/// A random battle plan over player `p`'s battle cards that passes the checks (4.f).
fn random_battle_plan(state: &State, p: usize, rng: BotRng) -> Option<BattlePlan> {
    let character = &state.players[p].character;
    let nationality = data::role(character).map_or("french", |r| r.nationality.as_str());
    let mine: Vec<&battle_cards::BattleCard> = battle_cards::cards()
        .iter()
        .filter(|c| c.deck == nationality)
        .collect();
    let of = |class: battle_cards::Class| -> Vec<String> {
        mine.iter()
            .filter(|c| c.class == class)
            .map(|c| c.key.clone())
            .collect()
    };
    let mut attack = of(battle_cards::Class::Offensive);
    for i in (1..attack.len()).rev() {
        attack.swap(i, rng(i + 1));
    }
    attack.truncate(rng(attack.len() + 1));
    let mut answers = Vec::new();
    for a in ["infantry-attack", "cavalry-attack", "bombardment"] {
        if rng(2) == 0 {
            continue;
        }
        let fits: Vec<&&battle_cards::BattleCard> = mine
            .iter()
            .filter(|c| c.class == battle_cards::Class::Defensive && c.key != a)
            .collect();
        let pick = rng(fits.len() + 1);
        answers.push((a.to_owned(), fits.get(pick).map(|c| c.key.clone())));
    }
    let plan = BattlePlan {
        attack,
        answers,
        cancel: [Cancel::Always, Cancel::Defeats, Cancel::Never][rng(3)],
        discard: of(battle_cards::Class::Defensive)
            .into_iter()
            .take(rng(3))
            .collect(),
        withdraw: (rng(2) == 0).then(|| rng(5) as i64),
    };
    // Answers that do not fit are left out: the checks would refuse them.
    let mut plan = plan;
    plan.answers.retain(|(a, ans)| {
        ans.as_ref().is_none_or(|k| {
            battle_cards::cards()
                .iter()
                .any(|c| c.key == *k && c.deck == nationality && c.answers_attack(a))
        })
    });
    plan.check(nationality, &[]).ok().map(|_| plan)
}

/// 4.f–4.i, `battle_play=interactive`: a commander's card: half the time the doctrine's,
/// else any legal choice (an attack, an answer, a cancel, a discard, a withdrawal, a pass).
fn random_card(play: &CardBattle, rng: BotRng) -> Command {
    let legal = play.legal();
    let doctrine = play.doctrine();
    let choice = if (rng(2) == 0 && legal.contains(&doctrine)) || legal.is_empty() {
        doctrine
    } else {
        legal[rng(legal.len())]
    };
    let s = play.chooser().unwrap_or(0);
    let key = |at: usize| battle_cards::cards()[play.sides[s].hand[at]].key.clone();
    match choice {
        Choice::Play(at) => Command::Play { card: key(at) },
        Choice::Discard(at) => Command::Discard { card: key(at) },
        Choice::Pass => Command::Operation {
            clauses: vec![Clause::Pass],
        },
    }
}

pub fn random_command(state: &State, seat: &Seat, rng: BotRng) -> Option<Command> {
    let p = state.player_of(seat)?;
    if state.players[p].entering {
        // II.1.A.3: re-enter as a free character, now and then stay out.
        let free = super::reentry::free(state);
        let at = rng(free.len() + 1);
        return Some(Command::Enter {
            character: free.get(at).cloned(),
        });
    }
    if state.players[p].out {
        return None;
    }
    if super::battle_held(state) {
        return Some(Command::Fight);
    }
    // 4.f: a card battle asks this commander for his sealed plan, or his next card.
    if state.window.is_none() {
        if let Some(b) = state.pending.as_ref().and_then(|pd| pd.battle.as_ref()) {
            if b.plans == PlansStage::Asked {
                let plan = if rng(3) == 0 {
                    Some(BattlePlan::default())
                } else {
                    random_battle_plan(state, p, rng)
                };
                return Some(Command::BattlePlan {
                    plan: Some(plan.unwrap_or_default()),
                });
            }
        }
        if let Some(play) = super::battle_play::playing(state) {
            return Some(random_card(play, rng));
        }
    }
    if state.window.is_some() {
        // Play a reactive card now and then where one is legal, else pass.
        // 2.l: a defender at a fortress now and then refuses the battle.
        if super::sieges::check_refuse(state, p).is_ok() && rng(2) == 0 {
            return Some(Command::Refuse);
        }
        let cards = reactive::playable(state, p);
        if !cards.is_empty() && rng(3) == 0 {
            return Some(Command::React {
                card: cards[rng(cards.len())].clone(),
            });
        }
        return Some(Command::Operation {
            clauses: vec![Clause::Pass],
        });
    }
    match &state.phase {
        Phase::Plan => {
            let hand = &state.players[p].hand;
            for _ in 0..20 {
                let want = rng(plan::MAX_PLANNED + 1).min(hand.len());
                let mut positions: Vec<usize> = Vec::new();
                while positions.len() < want {
                    let at = rng(hand.len()) + 1;
                    if !positions.contains(&at) {
                        positions.push(at);
                    }
                }
                if plan::check(hand, &positions).is_ok() {
                    return Some(Command::Plan {
                        positions: Some(positions),
                    });
                }
            }
            Some(Command::Plan {
                positions: Some(Vec::new()),
            })
        }
        Phase::Initiative => Some(Command::Initiative),
        Phase::Operations { .. } | Phase::Npcs { .. } => {
            let all = candidates(state, p);
            // Fighting and moving are what the game is about: prefer them to passing.
            let lively: Vec<&Vec<Clause>> = all
                .iter()
                .filter(|c| c.first() != Some(&Clause::Pass))
                .collect();
            let mut clauses = if !lively.is_empty() && rng(5) != 0 {
                lively[rng(lively.len())].clone()
            } else {
                all[rng(all.len())].clone()
            };
            // 1.d: now and then keep a card of the hand, where the role keeps any.
            let hand = state.players[p].hand.len();
            let retention = data::role(&state.players[p].character).map_or(0, |r| r.retention);
            if retention > 0 && hand > 0 && !state.runs_npc(p) && rng(2) == 0 {
                clauses.push(Clause::Keep(vec![rng(hand) + 1]));
            }
            Some(Command::Operation { clauses })
        }
        Phase::Ended => None,
    }
}
