//! The actions a side may take, for prompts (in the order language) and for the random-legal-
//! move bot, which builds an order action by action on a copy of the board with the same dry
//! run `turn::validate` uses, so every order it sends is accepted.

use super::battle::Battle;
use super::hex::Hex;
use super::order::{Action, Order, Pick, Standing, UnitRef};
use super::turn;
use super::units::{Kind, Side};
use crate::engine::ruleset::BotRng;

/// How an order names unit `u`: its hex, and which of the hex's counters it is.
pub fn unit_ref(b: &Battle, u: usize) -> UnitRef {
    let unit = &b.units[u];
    let pick = match unit.kind {
        Kind::Leader => Pick::Leader,
        k if k.is_gun()
            && b.in_slot(unit.hex, unit.side, super::units::Slot::Line)
                .is_some() =>
        {
            Pick::Gun
        }
        _ => Pick::Main,
    };
    UnitRef {
        hex: unit.hex,
        pick,
    }
}

/// Single actions a side may take now: fires, close combats, one-hex moves, rallies and
/// formation changes (longer moves are written by the player hex by hex). With `every_move`
/// false (for prompts) each unit's moves are shown by one example, the first hex it may enter.
pub fn legal_actions(b: &Battle, side: Side, every_move: bool) -> Vec<Action> {
    let map = b.map();
    let mut out = Vec::new();
    let enemy_hexes: Vec<Hex> = {
        let mut v: Vec<Hex> = b
            .units
            .iter()
            .filter(|u| u.side != side && u.is_combat())
            .map(|u| u.hex)
            .collect();
        v.sort();
        v.dedup();
        v
    };
    // In a turn handed back with AP left (6.2.8) only what those AP pay for.
    let try_push = |a: Action, out: &mut Vec<Action>| {
        if let Ok((_, cost)) = turn::check(map, b, side, &a) {
            if !b.held || cost <= b.ap {
                out.push(a);
            }
        }
    };
    for (u, unit) in b.units.iter().enumerate() {
        if unit.side != side || !unit.on_map() || unit.acted || unit.kind == Kind::Vp {
            continue;
        }
        let r = unit_ref(b, u);
        if unit.kind.is_combat() {
            for &t in &enemy_hexes {
                let d = unit.hex.distance(t);
                if d <= u32::from(unit.kind.chart().range) + 1 {
                    try_push(
                        Action::Fire {
                            unit: r,
                            target: t,
                            advance: false,
                        },
                        &mut out,
                    );
                }
                if d == 1 {
                    // Indians do not advance (3.4.6) unless the option lets them.
                    let before = out.len();
                    try_push(
                        Action::CloseCombat {
                            unit: r,
                            target: t,
                            advance: true,
                        },
                        &mut out,
                    );
                    if out.len() == before {
                        try_push(
                            Action::CloseCombat {
                                unit: r,
                                target: t,
                                advance: false,
                            },
                            &mut out,
                        );
                    }
                }
            }
            try_push(Action::Rally { unit: r }, &mut out);
            try_push(Action::Column { unit: r }, &mut out);
            try_push(Action::Line { unit: r }, &mut out);
        }
        let mut moves = 0;
        for n in map.neighbours(unit.hex) {
            if every_move || moves == 0 {
                let before = out.len();
                try_push(
                    Action::Move {
                        unit: r,
                        path: smallvec::smallvec![n],
                        leader: false,
                    },
                    &mut out,
                );
                moves += out.len() - before;
            }
            if matches!(unit.kind, Kind::Dragoon | Kind::Indian) {
                for &t in &enemy_hexes {
                    if n.distance(t) == 1 {
                        try_push(
                            Action::MoveFire {
                                unit: r,
                                path: smallvec::smallvec![n],
                                target: t,
                                leader: false,
                            },
                            &mut out,
                        );
                    }
                    // 6.2.4 Indians may also fire at an adjacent enemy and then move.
                    if unit.kind == Kind::Indian && unit.hex.distance(t) == 1 && n.distance(t) > 1 {
                        try_push(
                            Action::FireMove {
                                unit: r,
                                target: t,
                                path: smallvec::smallvec![n],
                                leader: false,
                            },
                            &mut out,
                        );
                    }
                }
            }
        }
    }
    out
}

/// A random order for `side`: up to six actions, favouring combat so that battles end. In a
/// turn handed back with AP left (6.2.8) it spends no more than those.
pub fn random_order(b: &Battle, side: Side, rng: BotRng) -> Order {
    let map = b.map();
    let mut sim = b.clone();
    if !b.held {
        turn::begin(&mut sim, side);
    }
    let mut budget = b.ap;
    let mut order = Order::default();
    let wanted = 1 + rng(6);
    // The choices are listed once; each is checked again on the board as the order so far
    // leaves it before it is taken.
    let actions = legal_actions(&sim, side, true);
    let enemies: Vec<Hex> = sim
        .units
        .iter()
        .filter(|u| u.side != side && u.is_combat())
        .map(|u| u.hex)
        .collect();
    let nearest = |h: Hex| enemies.iter().map(|e| e.distance(h)).min().unwrap_or(0);
    let closing: Vec<&Action> = actions
        .iter()
        .filter(|a| match a {
            Action::Move { unit, path, .. } => nearest(path[0]) < nearest(unit.hex),
            _ => false,
        })
        .collect();
    let combat: Vec<&Action> = actions
        .iter()
        .filter(|a| {
            matches!(
                a,
                Action::Fire { .. } | Action::CloseCombat { .. } | Action::MoveFire { .. }
            )
        })
        .collect();
    for _ in 0..wanted {
        if actions.is_empty() {
            break;
        }
        let mut a = if !combat.is_empty() && rng(10) < 6 {
            combat[rng(combat.len())].clone()
        } else if !closing.is_empty() && rng(10) < 6 {
            closing[rng(closing.len())].clone()
        } else {
            actions[rng(actions.len())].clone()
        };
        if matches!(
            a,
            Action::Move { .. } | Action::MoveFire { .. } | Action::FireMove { .. }
        ) && rng(2) == 0
        {
            // Now and then the leader goes along (6.2.6, 9.1.1).
            let mut with = a.clone();
            if let Action::Move { leader, .. }
            | Action::MoveFire { leader, .. }
            | Action::FireMove { leader, .. } = &mut with
            {
                *leader = true;
            }
            if turn::check(map, &sim, side, &with).is_ok() {
                a = with;
            }
        }
        if matches!(a, Action::Move { .. }) {
            // Now and then moves grow longer where they may.
            for _ in 0..3 {
                let mut longer = a.clone();
                if let Action::Move { path, .. } = &mut longer {
                    let last = *path.last().expect("a move has a path");
                    let mut next: Vec<Hex> = map.neighbours(last).collect();
                    next.sort_by_key(|&h| nearest(h));
                    // Towards the enemy more often than not.
                    let pick = if rng(3) == 0 {
                        rng(next.len())
                    } else {
                        rng(2.min(next.len()))
                    };
                    path.push(next[pick]);
                }
                if turn::check(map, &sim, side, &longer).is_ok() {
                    a = longer;
                }
            }
        }
        // 11.10 advances after fire, and 11.12's standing choice, now and then.
        if let Action::Fire { advance, .. } = &mut a {
            *advance = rng(2) == 0;
            if turn::check(map, &sim, side, &a).is_err() {
                if let Action::Fire { advance, .. } = &mut a {
                    *advance = false;
                }
            }
        }
        if sim.options.has(12) && rng(8) == 0 {
            order.actions.push(Action::Dragoons { evade: rng(2) == 0 });
        }
        // The standing orders for the owner's choices (8.1.2, 8.4.1, 8.4.5), now and then:
        // a hex of the board, or back to the rules' default.
        if rng(12) == 0 {
            let which = rng(3);
            let hex = if rng(3) > 0 {
                Some(Hex {
                    col: rng(usize::from(map.cols)) as u8,
                    row: rng(usize::from(map.rows)) as u8,
                })
            } else {
                None
            };
            order.actions.push(Action::Standing(match which {
                0 => Standing::TiedHitsToGuns(hex.is_some()),
                1 => Standing::RetreatTowards(hex),
                _ => Standing::LeadersTowards(hex),
            }));
        }
        let Ok((plan, cost)) = turn::check(map, &sim, side, &a) else {
            continue;
        };
        if b.held {
            if cost > budget {
                continue;
            }
            budget -= cost;
        }
        if turn::perform(map, &mut sim, side, plan, None).is_err() {
            continue;
        }
        order.actions.push(a);
    }
    order
}
