//! Orders by pointing at the drawn map (docs/web.md, "Orders by pointing"): the player to give
//! an operation clicks the CU he gives it for — his character's, or the NPC's he runs (3.4) —
//! then an LP or exit one CL away (or two, for a force march or a march and an attack), and the
//! order box fills with the operation in the order language. Each order is one the checks of
//! the Operations Phase accept as the game stands (`operations::check`, the same checks an
//! order meets when it is sent): the planned cards it needs (March, Force March, Attack,
//! Decisive Victory!, Harass …, 3.2), the CLs (2.a–2.c, 2.j), the enemy LPs only attacked
//! (2.c). Cards are named by the clause, as the grammar spells them; a double card's face is
//! the clause's.

use crate::engine::board::Pointed;

use super::drawn::cu_piece;
use super::operations;
use super::order::{describe, Clause, Command};
use super::state::State;

/// The orders player `p` may point at now: empty unless it is his operation (no reactive
/// window open).
pub fn orders(state: &State, p: usize) -> Vec<Pointed> {
    let character = state.operator(p).0.to_owned();
    let cu = state.cu(&character);
    let Some(here) = cu.lp.clone() else {
        return Vec::new();
    };
    let map = state.map();
    let one_cl: Vec<String> = map
        .neighbours(&here)
        .map(str::to_owned)
        .chain(
            map.exits
                .iter()
                .filter(|e| e.from == here)
                .map(|e| e.id.clone()),
        )
        .collect();
    let mut tries: Vec<(String, Vec<Clause>)> = Vec::new();
    for n in &one_cl {
        for clauses in [
            vec![Clause::March(n.clone())],
            vec![Clause::ForceMarch(vec![n.clone()])],
            vec![Clause::Attack(n.clone())],
            vec![Clause::Decisive(n.clone())],
            vec![Clause::NapoleonDefeated(n.clone())],
            vec![Clause::Harass(n.clone())],
        ] {
            tries.push((n.clone(), clauses));
        }
        for m in map.neighbours(n).filter(|m| *m != here) {
            tries.push((
                m.to_owned(),
                vec![Clause::ForceMarch(vec![n.clone(), m.to_owned()])],
            ));
            tries.push((
                m.to_owned(),
                vec![Clause::March(n.clone()), Clause::Attack(m.to_owned())],
            ));
        }
    }
    let piece = cu_piece(&character);
    tries
        .into_iter()
        .filter(|(_, clauses)| operations::check(state, p, clauses).is_ok())
        .map(|(cell, clauses)| Pointed {
            piece: piece.clone(),
            cell,
            order: describe(&Command::Operation { clauses }),
            path: None,
        })
        .collect()
}
