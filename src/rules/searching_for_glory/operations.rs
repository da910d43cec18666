//! The Operational Phase (3.2–3.3) over the map board (2.a–2.k): one order per player, made of
//! the planned cards' faces. Everything is checked before the first die (2.f's fatigue roll).

use super::battle;
use super::data::{self, ClKind};
use super::order::{describe_clause, Clause};
use super::state::{bridge_key, State};
use crate::engine::ruleset::{Ctx, RuleError};

/// The card face a clause needs, if any (`rest` takes a Rest card when one is planned).
fn face_of(c: &Clause) -> Option<&'static str> {
    match c {
        Clause::March(_) => Some("march"),
        Clause::ForceMarch(_) => Some("force-march"),
        Clause::Attack(_) => Some("attack"),
        Clause::Decisive(_) => Some("decisive-victory"),
        Clause::Gather => Some("gather-supplies"),
        Clause::Entrench => Some("entrench"),
        Clause::Rest => Some("rest"),
        _ => None,
    }
}

/// Matches each face to a different unused planned card, the faces' colours all different.
/// Gives the planned card index per face.
pub fn assign(planned: &[(String, bool)], faces: &[&str]) -> Option<Vec<usize>> {
    fn go(
        planned: &[(String, bool)],
        faces: &[&str],
        taken: &mut Vec<usize>,
        colours: &mut Vec<data::Colour>,
    ) -> bool {
        let Some((face, rest)) = faces.split_first() else {
            return true;
        };
        for (i, (card, used)) in planned.iter().enumerate() {
            if *used || taken.contains(&i) {
                continue;
            }
            let kind = data::card(card).expect("a card");
            let Some(f) = kind.faces.iter().find(|f| f.name == *face) else {
                continue;
            };
            if colours.contains(&f.colour) {
                continue;
            }
            taken.push(i);
            colours.push(f.colour);
            if go(planned, rest, taken, colours) {
                return true;
            }
            taken.pop();
            colours.pop();
        }
        false
    }
    let mut taken = Vec::new();
    go(planned, faces, &mut taken, &mut Vec::new()).then_some(taken)
}

fn map_error(rule: &str, message: impl Into<String>) -> RuleError {
    RuleError::new(rule, message)
}

/// A checked order: the clauses and the planned cards each uses.
pub struct Checked {
    pub clauses: Vec<Clause>,
    /// Per clause, the planned card index it uses.
    pub cards: Vec<Option<usize>>,
}

/// One step from `from` to `to` (an LP or an exit), checked against 2.b–2.d and 2.j; `blown`
/// are the bridges blown at this point of the order.
fn check_step(
    state: &State,
    blown: &[(String, String)],
    character: &str,
    from: &str,
    to: &str,
    attack: bool,
) -> Result<(), RuleError> {
    let map = state.map();
    let side = state.cu(character).side;
    if let Some(exit) = map.exit(to) {
        if attack {
            return Err(map_error(
                "2.c Attack",
                format!("{to} is off the map: there is nobody to attack"),
            ));
        }
        if exit.from != from {
            return Err(map_error(
                "2.i Off-map",
                format!(
                    "the exit to {to} leaves from {}, not from {from}",
                    exit.from
                ),
            ));
        }
        return Ok(());
    }
    if map.lp(to).is_none() {
        return Err(map_error(
            "2.a Location points",
            format!("'{to}' is not a location point of this map"),
        ));
    }
    let cl = map.cl(from, to).ok_or_else(|| {
        let near: Vec<&str> = map.neighbours(from).collect();
        map_error(
            "2.b Lines of communication",
            format!(
                "no CL joins {from} and {to}; from {from} you reach {}",
                near.join(", ")
            ),
        )
    })?;
    if cl.kind == ClKind::Blue && blown.contains(&bridge_key(from, to)) {
        return Err(map_error(
            "2.j Bridges",
            format!("the bridge {from}-{to} is blown: repair it first"),
        ));
    }
    if let Some(e) = state.entries.iter().find(|e| {
        e.lp == from
            && e.from == to
            && state.cu(&e.character).side != side
            && state.cu(&e.character).lp.as_deref() == Some(from)
    }) {
        return Err(map_error(
            "2.b Lines of communication",
            format!(
                "{} entered {from} from {to}: you cannot move back along that CL while it stays",
                e.character
            ),
        ));
    }
    let enemy = state.holds(to, side.enemy());
    if attack && !enemy {
        let why = if state.holds(to, side) {
            "only your own side is there: you never attack your own side (2.d)"
        } else {
            "nobody is there: march instead"
        };
        return Err(map_error(
            "2.c Attack",
            format!("{to} holds no enemy SP; {why}"),
        ));
    }
    if !attack && enemy {
        return Err(map_error(
            "2.c Enemy location points",
            format!("{to} holds enemy SP: you enter it only by attacking ('attack {to}')"),
        ));
    }
    Ok(())
}

/// Checks an order for the player `p` in full, before any die.
pub fn check(state: &State, p: usize, clauses: &[Clause]) -> Result<Checked, RuleError> {
    let player = &state.players[p];
    let cu = state.cu(&player.character);
    let Some(mut at) = cu.lp.clone() else {
        return Err(map_error(
            "3.2 Operations",
            "your CU is out of play: you can only pass",
        ));
    };
    if clauses.is_empty() {
        return Err(map_error(
            "3.2 Operations",
            "an empty order: write 'pass' to do nothing (1.f)",
        ));
    }
    let alone = |what: &str| -> Result<(), RuleError> {
        if clauses.len() > 1 {
            return Err(map_error(
                "1.f Pass and rest",
                format!("'{what}' is an order on its own, with no other clause"),
            ));
        }
        Ok(())
    };
    // Faces: every card clause needs a different planned card; `rest` may go without one.
    let mut faces: Vec<&str> = Vec::new();
    let mut face_clause: Vec<usize> = Vec::new();
    for (i, c) in clauses.iter().enumerate() {
        if let Some(f) = face_of(c) {
            faces.push(f);
            face_clause.push(i);
        }
    }
    let mut cards = vec![None; clauses.len()];
    match assign(&player.planned, &faces) {
        Some(idx) => {
            for (k, i) in idx.into_iter().enumerate() {
                cards[face_clause[k]] = Some(i);
            }
        }
        None => {
            // A rest without a Rest card is the cardless rest (2.g): alone.
            let without_rest: Vec<&str> = faces.iter().copied().filter(|f| *f != "rest").collect();
            let rest_at = clauses.iter().position(|c| *c == Clause::Rest);
            match (rest_at, assign(&player.planned, &without_rest)) {
                (Some(_), Some(_)) => alone("rest")?,
                _ => {
                    let mut planned: Vec<&str> = player
                        .planned
                        .iter()
                        .filter(|(_, used)| !used)
                        .map(|(k, _)| data::card(k).expect("a card").name.as_str())
                        .collect();
                    if planned.is_empty() {
                        planned.push("none");
                    }
                    return Err(map_error(
                        "1.b Cards",
                        format!(
                            "the order needs {}, each from a different planned card of a different colour; you planned {}",
                            faces.join(", "),
                            planned.join(", ")
                        ),
                    ));
                }
            }
        }
    }
    let moves_after = |i: usize| {
        clauses[i + 1..].iter().any(|c| {
            matches!(
                c,
                Clause::March(_) | Clause::ForceMarch(_) | Clause::Attack(_) | Clause::Decisive(_)
            )
        })
    };
    let mut moved = false;
    let mut gone = false;
    // Bridges blown or repaired by earlier clauses count for the later ones.
    let mut blown = state.blown.clone();
    for (i, c) in clauses.iter().enumerate() {
        if gone {
            return Err(map_error(
                "2.i Off-map",
                format!("'{}' comes after your CU left the map", describe_clause(c)),
            ));
        }
        match c {
            Clause::Pass => alone("pass")?,
            Clause::Rest | Clause::Gather | Clause::Entrench => {}
            Clause::Blow(a, b) | Clause::Repair(a, b) => {
                let blow = matches!(c, Clause::Blow(..));
                let cl = state.map().cl(a, b).filter(|cl| cl.kind == ClKind::Blue);
                if cl.is_none() {
                    return Err(map_error(
                        "2.j Bridges",
                        format!("{a}-{b} is not a bridge (a blue CL)"),
                    ));
                }
                if at != *a && at != *b {
                    return Err(map_error(
                        "2.j Bridges",
                        format!("your CU is at {at}, not at an end of the bridge {a}-{b}"),
                    ));
                }
                if moved && moves_after(i) {
                    return Err(map_error(
                        "2.j Bridges",
                        "a bridge is blown or repaired at the start or the end of an operation, not between moves",
                    ));
                }
                let key = bridge_key(a, b);
                let is_blown = blown.contains(&key);
                if blow && is_blown {
                    return Err(map_error(
                        "2.j Bridges",
                        format!("the bridge {a}-{b} is already blown"),
                    ));
                }
                if !blow && !is_blown {
                    return Err(map_error(
                        "2.j Bridges",
                        format!("the bridge {a}-{b} is intact"),
                    ));
                }
                if blow {
                    blown.push(key);
                } else {
                    blown.retain(|k| *k != key);
                }
            }
            Clause::March(to) => {
                check_step(state, &blown, &cu.character, &at, to, false)?;
                at = to.clone();
                moved = true;
                gone = state.map().exit(to).is_some();
            }
            Clause::ForceMarch(route) => {
                for to in route {
                    if gone {
                        return Err(map_error(
                            "2.i Off-map",
                            "the route goes on after leaving the map",
                        ));
                    }
                    check_step(state, &blown, &cu.character, &at, to, false)?;
                    at = to.clone();
                    gone = state.map().exit(to).is_some();
                }
                moved = true;
            }
            Clause::Attack(to) | Clause::Decisive(to) => {
                if i + 1 != clauses.len() {
                    return Err(map_error(
                        "2.m Battles",
                        format!(
                            "'{}' must be the last clause: the battle ends the operation",
                            describe_clause(c)
                        ),
                    ));
                }
                check_step(state, &blown, &cu.character, &at, to, true)?;
                moved = true;
            }
        }
    }
    Ok(Checked {
        clauses: clauses.to_vec(),
        cards,
    })
}

/// 2.f: a CU with fatigue rolls when it uses a March or Force March card: a roll at or under its
/// level costs 1 SP. Gives false if the CU is gone or joined lone SP elsewhere.
fn fatigue_roll(state: &mut State, character: &str, ctx: &mut Ctx) -> bool {
    let level = state.cu(character).fatigue;
    if level == 0 {
        return true;
    }
    let before = state.cu(character).lp.clone();
    let roll = ctx.roll(10);
    if roll <= level {
        ctx.say(format!(
            "{character} rolls {roll} against fatigue {level}: 1 SP lost"
        ));
        lose_sp_outside_combat(state, character, ctx);
    } else {
        ctx.say(format!(
            "{character} rolls {roll} against fatigue {level}: no loss"
        ));
    }
    // A CU that joined lone SP elsewhere cannot go on with the route it was given.
    state.cu(character).lp.is_some() && state.cu(character).lp == before
}

/// II.1.A.3: a CU losing its last SP outside combat joins the nearest lone SP of its side, or is
/// out.
pub fn lose_sp_outside_combat(state: &mut State, character: &str, ctx: &mut Ctx) {
    let cu = state.cu_mut(character);
    cu.sp = cu.sp.saturating_sub(1);
    if cu.sp > 0 {
        return;
    }
    let side = cu.side;
    let at = cu.lp.clone().expect("in play");
    let dist = state.map().distances(&at);
    let nearest = state
        .lone
        .iter()
        .enumerate()
        .filter(|(_, l)| l.side == side)
        .min_by_key(|(_, l)| (dist.get(&l.lp).copied().unwrap_or(usize::MAX), l.lp.clone()))
        .map(|(i, _)| i);
    match nearest {
        Some(i) => {
            let lone = state.lone.remove(i);
            let cu = state.cu_mut(character);
            cu.lp = Some(lone.lp.clone());
            cu.sp = lone.sp;
            cu.trench = 0;
            ctx.say(format!(
                "{character} has no SP left and joins the {} SP at {}",
                lone.sp, lone.lp
            ));
        }
        None => {
            ctx.say(format!(
                "{character} has no SP left and no lone SP to join: out of play"
            ));
            battle::take_out(state, character);
        }
    }
}

/// A CU crosses one CL into `to` (not an exit).
fn cross(state: &mut State, character: &str, to: &str, ctx: &mut Ctx) -> ClKind {
    let from = state.cu(character).lp.clone().expect("in play");
    let kind = state.map().cl(&from, to).expect("checked").kind;
    let cu = state.cu_mut(character);
    cu.lp = Some(to.to_owned());
    cu.trench = 0;
    if kind == ClKind::Brown {
        cu.fatigue += 1;
        ctx.say(format!(
            "{character} crosses the hills to {to}: fatigue {}",
            cu.fatigue
        ));
    } else {
        ctx.say(format!("{character} marches to {to}"));
    }
    kind
}

/// First entry into an LP (3 Victory): its printed glory, once per game.
fn first_entry(state: &mut State, character: &str, ctx: &mut Ctx) {
    let Some(lp) = state.cu(character).lp.clone() else {
        return;
    };
    if state.entered.contains(&lp) {
        return;
    }
    state.entered.push(lp.clone());
    let glory = state.map().lp(&lp).map_or(0, |l| l.glory);
    if glory != 0 {
        state.cu_mut(character).glory += glory;
        ctx.say(format!(
            "{character} is the first to enter {lp}: {glory} glory"
        ));
    }
}

/// One step of a march; false if the CU left the map.
fn step(state: &mut State, character: &str, to: &str, ctx: &mut Ctx) -> bool {
    if let Some(exit) = state.map().exit(to) {
        let side = state.cu(character).side;
        let glory = exit.glory.get(&side).copied().unwrap_or(0);
        state.cu_mut(character).glory += glory;
        ctx.say(format!(
            "{character} leaves the map towards {to}: {glory:+} glory"
        ));
        battle::take_out(state, character);
        return false;
    }
    cross(state, character, to, ctx);
    first_entry(state, character, ctx);
    true
}

fn bridge(state: &mut State, c: &Clause, character: &str, ctx: &mut Ctx) {
    match c {
        Clause::Blow(a, b) => {
            state.blown.push(bridge_key(a, b));
            ctx.say(format!("{character} blows the bridge {a}-{b}"));
        }
        Clause::Repair(a, b) => {
            let key = bridge_key(a, b);
            state.blown.retain(|k| *k != key);
            ctx.say(format!("{character} repairs the bridge {a}-{b}"));
        }
        _ => {}
    }
}

/// Carries out a checked order.
pub fn execute(state: &mut State, p: usize, checked: Checked, ctx: &mut Ctx) {
    let character = state.players[p].character.clone();
    let used: Vec<String> = checked
        .cards
        .iter()
        .flatten()
        .map(|&i| {
            state.players[p].planned[i].1 = true;
            data::card(&state.players[p].planned[i].0)
                .expect("a card")
                .name
                .clone()
        })
        .collect();
    if !used.is_empty() {
        ctx.say(format!("{character} plays {}", used.join(", ")));
    }
    let mut rest_of: Vec<String> = checked.clauses.iter().map(describe_clause).collect();
    for (i, c) in checked.clauses.iter().enumerate() {
        rest_of.remove(0);
        match c {
            Clause::Pass => ctx.say(format!("{character} passes")),
            Clause::Blow(..) | Clause::Repair(..) => bridge(state, c, &character, ctx),
            Clause::Gather => {
                let cu = state.cu_mut(&character);
                if cu.supply {
                    ctx.say(format!(
                        "{character} already has a supply marker (2.k): no effect"
                    ));
                } else {
                    cu.supply = true;
                    ctx.say(format!("{character} gathers supplies"));
                }
            }
            Clause::Entrench => {
                let cu = state.cu_mut(&character);
                cu.trench += 2;
                ctx.say(format!(
                    "{character} entrenches: {} trench points",
                    cu.trench
                ));
            }
            Clause::Rest => {
                let by = if checked.cards[i].is_some() { 2 } else { 1 };
                let cu = state.cu_mut(&character);
                cu.fatigue = cu.fatigue.saturating_sub(by);
                ctx.say(format!("{character} rests: fatigue {}", cu.fatigue));
            }
            Clause::March(to) => {
                if !fatigue_roll(state, &character, ctx) {
                    ctx.interrupt(format!("{character} is out of play"), rest_of.clone());
                    return;
                }
                if !step(state, &character, to, ctx) {
                    return;
                }
            }
            Clause::ForceMarch(route) => {
                if !fatigue_roll(state, &character, ctx) {
                    ctx.interrupt(format!("{character} is out of play"), rest_of.clone());
                    return;
                }
                state.cu_mut(&character).fatigue += 1;
                for to in route {
                    if !step(state, &character, to, ctx) {
                        return;
                    }
                }
            }
            Clause::Attack(to) | Clause::Decisive(to) => {
                let from = state.cu(&character).lp.clone().expect("in play");
                ctx.say(format!("{character} attacks {to} from {from}"));
                let kind = cross(state, &character, to, ctx);
                state.entries.push(super::state::Entry {
                    lp: to.clone(),
                    from,
                    character: character.clone(),
                });
                let decisive = matches!(c, Clause::Decisive(_));
                let r = battle::fight(state, &character, to, kind, decisive, ctx);
                if r.attacker_won && state.cu(&character).lp.as_deref() == Some(to.as_str()) {
                    first_entry(state, &character, ctx);
                }
            }
        }
    }
}
