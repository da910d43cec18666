//! The Operational Phase (3.2–3.3) over the map board (2.a–2.k): one order per player, made of
//! the planned cards' faces. Everything is checked before the first die (2.f's fatigue roll).

use super::battle;
use super::data::{self, ClKind};
use super::order::{describe_clause, Clause};
use super::state::{bridge_key, BattleSetup, Mods, Pending, State};
use crate::engine::ruleset::{Ctx, RuleError};

/// The card face a clause needs, if any (`rest` takes a Rest card when one is planned).
fn face_of(c: &Clause) -> Option<&'static str> {
    match c {
        Clause::March(_) => Some("march"),
        Clause::ForceMarch(_) => Some("force-march"),
        Clause::Attack(_) => Some("attack"),
        Clause::Decisive(_) => Some("decisive-victory"),
        Clause::NapoleonDefeated(_) => Some("napoleon-defeated"),
        Clause::Harass(_) => Some("harass"),
        Clause::GoodWeather => Some("good-weather"),
        Clause::Demoralize => Some("demoralization"),
        Clause::Chest => Some("military-chest"),
        Clause::Parlay => Some("parlay"),
        Clause::Inform => Some("inform-government"),
        Clause::Flags => Some("captured-flags"),
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
    /// The cards of the hand kept for the next round (`keep`).
    pub kept: Vec<String>,
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
    super::roles::check_enter(state, character, to)?;
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
    if attack {
        if let Some(c) = state
            .truce
            .iter()
            .find(|c| state.cu(c).lp.as_deref() == Some(to) && state.cu(c).side != side)
        {
            return Err(map_error(
                "1 Result cards",
                format!("{c} at {to} is under a Parlay: no attack on it until the round ends"),
            ));
        }
    }
    // 2.l: the enemy shut in a fortress is besieged, not attacked; its LP may be entered.
    if state.holds(to, side.enemy()) && super::sieges::besieged_at(state, to) == Some(side.enemy())
    {
        if attack {
            return Err(map_error(
                "2.l Sieges",
                format!("the enemy at {to} is shut in the fortress: march there and lay SIEGE"),
            ));
        }
        return Ok(());
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

/// 2.c–2.d Harass: the enemy at `to`, one CL of any kind (a blown bridge too) from `at`.
fn check_harass(state: &State, character: &str, at: &str, to: &str) -> Result<(), RuleError> {
    let side = state.cu(character).side;
    if state.map().cl(at, to).is_none() {
        return Err(map_error(
            "2.c Harass",
            format!(
                "no CL joins {at} and {to}: you harass only from an LP connected to the enemy's"
            ),
        ));
    }
    if !state.holds(to, side.enemy()) {
        let why = if state.holds(to, side) {
            "only your own side is there: you never harass your own side (2.d)"
        } else {
            "nobody is there"
        };
        return Err(map_error(
            "2.c Harass",
            format!("{to} holds no enemy SP; {why}"),
        ));
    }
    Ok(())
}

/// Checks an order for the player `p` in full, before any die: for his own CU, or in an NPC's
/// operation for the NPC he runs (3.4, with the NPC's hand as its planned cards).
pub fn check(state: &State, p: usize, clauses: &[Clause]) -> Result<Checked, RuleError> {
    let (character, planned) = state.operator(p);
    let cu = state.cu(character);
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
    let keeps: Vec<&Vec<usize>> = clauses
        .iter()
        .filter_map(|c| match c {
            Clause::Keep(p) => Some(p),
            _ => None,
        })
        .collect();
    if state.runs_npc(p) && !keeps.is_empty() {
        return Err(map_error(
            "1.d Retention",
            format!(
                "{character} is an NPC: its hand is drawn for this operation and kept by nobody (3.4)"
            ),
        ));
    }
    let kept = check_keep(state, p, &keeps)?;
    // 2.l: after the first attrition roll the besieged play no card and stay: a sortie or a pass.
    if super::sieges::shut_in(state, character) {
        if let Some(c) = clauses
            .iter()
            .find(|c| !matches!(c, Clause::Sortie | Clause::Pass | Clause::Keep(_)))
        {
            return Err(map_error(
                "2.l Sieges",
                format!(
                    "{character} is shut in the fortress of {at} since the first attrition roll: it plays no card and cannot leave ('{}'); make a 'sortie' or 'pass'",
                    describe_clause(c)
                ),
            ));
        }
    }
    let free = clauses
        .iter()
        .filter(|c| {
            matches!(
                c,
                Clause::Keep(_) | Clause::Detach(_) | Clause::Absorb(_) | Clause::Standing(_)
            )
        })
        .count();
    let acting = clauses.len() - free;
    let alone = |what: &str| -> Result<(), RuleError> {
        if acting > 1 {
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
    // III: the role card's restrictions (reconstructed).
    super::roles::check_faces(state, character, &faces)?;
    let mut cards = vec![None; clauses.len()];
    match assign(planned, &faces) {
        Some(idx) => {
            for (k, i) in idx.into_iter().enumerate() {
                cards[face_clause[k]] = Some(i);
            }
        }
        None => {
            // A rest without a Rest card is the cardless rest (2.g): alone.
            let without_rest: Vec<&str> = faces.iter().copied().filter(|f| *f != "rest").collect();
            let rest_at = clauses.iter().position(|c| *c == Clause::Rest);
            match (rest_at, assign(planned, &without_rest)) {
                (Some(_), Some(_)) => alone("rest")?,
                _ => {
                    let mut planned: Vec<&str> = planned
                        .iter()
                        .filter(|(_, used)| !used)
                        .map(|(k, _)| data::card(k).expect("a card").name.as_str())
                        .collect();
                    if planned.is_empty() {
                        planned.push("none");
                    }
                    let whose = if state.runs_npc(p) {
                        format!("{character}'s hand holds")
                    } else {
                        "you planned".to_owned()
                    };
                    return Err(map_error(
                        "1.b Cards",
                        format!(
                            "the order needs {}, each from a different planned card of a different colour; {whose} {}",
                            faces.join(", "),
                            planned.join(", ")
                        ),
                    ));
                }
            }
        }
    }
    let moves_after = |i: usize| clauses[i + 1..].iter().any(Clause::moves);
    let mut moved = false;
    let mut gone = false;
    // 2.e: the CU's SP as detaching and absorbing change them along the order.
    let mut sp = cu.sp;
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
            Clause::Keep(_) => {}
            Clause::Standing(_) => {
                if clauses
                    .iter()
                    .filter(|c| matches!(c, Clause::Standing(_)))
                    .count()
                    > 1
                {
                    return Err(map_error("2.l Sieges", "one 'standing' clause an order"));
                }
            }
            Clause::Detach(n) => {
                if *n == 0 || *n >= sp {
                    return Err(map_error(
                        "2.e Detach",
                        format!(
                            "your CU carries {sp} SP at {at}: it may detach 1 to {} and keep at least 1",
                            sp.saturating_sub(1)
                        ),
                    ));
                }
                sp -= n;
            }
            Clause::Absorb(n) => sp += check_absorb(state, cu.side, &at, *n)?,
            Clause::Rest | Clause::Gather | Clause::Entrench => {}
            Clause::Strategic => check_strategic(state, character, clauses)?,
            Clause::Siege => {
                alone("siege")?;
                super::sieges::check_siege(state, character)?;
            }
            Clause::Sortie => {
                alone("sortie")?;
                super::sieges::check_sortie(state, character)?;
            }
            Clause::Chest | Clause::Parlay | Clause::Inform => {}
            Clause::GoodWeather => {
                if !clauses
                    .iter()
                    .any(|c| matches!(c, Clause::March(_) | Clause::ForceMarch(_)))
                {
                    return Err(map_error(
                        "1 Variety cards",
                        "Good Weather adds to a March or Force March: the order has none",
                    ));
                }
            }
            Clause::Demoralize => {
                if !clauses.iter().any(|c| c.attacks().is_some()) {
                    return Err(map_error(
                        "1 Variety cards",
                        "Demoralization adds to an attack: the order makes none",
                    ));
                }
            }
            Clause::Flags => {
                if cu.victories == 0 {
                    return Err(map_error(
                        "1 Result cards",
                        "Offer Enemy Captured Flags: your CU has won no battle yet, so it has no flags to offer",
                    ));
                }
            }
            Clause::Harass(to) => check_harass(state, &cu.character, &at, to)?,
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
                    // 2.e: absorbing at the force march's middle LP.
                    if let Some(n) = super::order::route_absorb(to) {
                        sp += check_absorb(state, cu.side, &at, n)?;
                        continue;
                    }
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
            Clause::Attack(to) | Clause::Decisive(to) | Clause::NapoleonDefeated(to) => {
                if matches!(c, Clause::NapoleonDefeated(_))
                    && state.cu("napoleon").lp.as_deref() != Some(to.as_str())
                {
                    return Err(map_error(
                        "1 Result cards",
                        format!(
                            "Napoleon Defeated! falls only on Napoleon's CU, and it is not at {to}"
                        ),
                    ));
                }
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
                super::roles::check_odds(state, &cu.character, sp, to)?;
                moved = true;
            }
        }
    }
    Ok(Checked {
        clauses: clauses.to_vec(),
        cards,
        kept,
    })
}

/// 2.e: `n` (or all) of the side's lone SP at `at`, at that point of the order; gives how many.
fn check_absorb(
    state: &State,
    side: data::Side,
    at: &str,
    n: Option<u32>,
) -> Result<u32, RuleError> {
    let here: u32 = state
        .lone
        .iter()
        .filter(|l| l.side == side && l.lp == at)
        .map(|l| l.sp)
        .sum();
    let want = n.unwrap_or(here);
    if here == 0 || want == 0 || want > here {
        return Err(map_error(
            "2.e Absorb",
            format!(
                "{at} holds {here} lone SP of your side at that point of the order: absorb takes them as the CU passes"
            ),
        ));
    }
    Ok(want)
}

/// III: the role's strategic characteristic: uses left, once an order, and what its kind needs.
fn check_strategic(state: &State, character: &str, clauses: &[Clause]) -> Result<(), RuleError> {
    let rule = |m: String| RuleError::new("III Role cards", m);
    if state.plain_roles {
        return Err(rule(
            "this game plays the plain role cards (roles=plain): no strategic characteristic"
                .into(),
        ));
    }
    let Some((kind, uses)) = data::role(character).expect("a role").strategic else {
        return Err(rule(format!("{character} has no strategic characteristic")));
    };
    let used = state.cu(character).strategic_used;
    if used >= uses {
        return Err(rule(format!(
            "{character}'s strategic characteristic ({}) is used up: {uses} use(s) a game",
            kind.name()
        )));
    }
    if clauses.iter().filter(|c| **c == Clause::Strategic).count() > 1 {
        return Err(rule("one 'strategic' clause an order".into()));
    }
    let need = match kind {
        data::Strategic::Inspire if !clauses.iter().any(|c| c.attacks().is_some()) => {
            Some("an attack")
        }
        data::Strategic::Tireless
            if !clauses
                .iter()
                .any(|c| matches!(c, Clause::March(_) | Clause::ForceMarch(_))) =>
        {
            Some("a March or Force March")
        }
        _ => None,
    };
    if let Some(need) = need {
        return Err(rule(format!(
            "{character}'s strategic characteristic ({}) goes with {need}: the order has none",
            kind.name()
        )));
    }
    Ok(())
}

/// The strategic characteristic the pending operation uses, if any (III).
fn strategic(pd: &Pending) -> Option<data::Strategic> {
    if !pd.clauses.contains(&Clause::Strategic) {
        return None;
    }
    data::role(&pd.character)
        .and_then(|r| r.strategic)
        .map(|(k, _)| k)
}

/// 1.d, 3.5: `keep` names hand positions, each once, at most the role's retention number, in
/// one clause. Gives the kept cards' keys.
fn check_keep(state: &State, p: usize, keeps: &[&Vec<usize>]) -> Result<Vec<String>, RuleError> {
    let rule = |m: String| RuleError::new("1.d Retention", m);
    let player = &state.players[p];
    let Some(positions) = keeps.first() else {
        return Ok(Vec::new());
    };
    if keeps.len() > 1 {
        return Err(rule("one 'keep' clause names every card you keep".into()));
    }
    let role = data::role(&player.character).expect("a role");
    if positions.len() > role.retention {
        return Err(rule(format!(
            "{} keeps at most {} card(s) from round to round, not {}",
            role.id,
            role.retention,
            positions.len()
        )));
    }
    let mut out = Vec::new();
    for (i, &at) in positions.iter().enumerate() {
        if positions[..i].contains(&at) {
            return Err(rule(format!("hand position {at} is named twice")));
        }
        let card = player.hand.get(at.wrapping_sub(1)).ok_or_else(|| {
            rule(format!(
                "your hand has {} card(s) left: there is no position {at}",
                player.hand.len()
            ))
        })?;
        out.push(card.clone());
    }
    Ok(out)
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
            battle::eliminate(state, character);
        }
    }
}

/// A CU crosses one CL into `to` (not an exit); a brown CL adds fatigue unless `easy`.
fn cross(state: &mut State, character: &str, to: &str, easy: bool, ctx: &mut Ctx) -> ClKind {
    let from = state.cu(character).lp.clone().expect("in play");
    let kind = state.map().cl(&from, to).expect("checked").kind;
    let cu = state.cu_mut(character);
    cu.lp = Some(to.to_owned());
    cu.trench = 0;
    if kind == ClKind::Brown && !easy {
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
fn step(state: &mut State, character: &str, to: &str, easy: bool, ctx: &mut Ctx) -> bool {
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
    cross(state, character, to, easy, ctx);
    first_entry(state, character, ctx);
    super::roles::on_enter(state, character, ctx);
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

/// 3.2: a checked order is announced: its cards are played (public) and it waits, as the
/// pending operation, for the announcement window (1.e). In an NPC's operation the cards come
/// from the NPC's hand (3.4).
pub fn announce(state: &mut State, p: usize, checked: Checked, ctx: &mut Ctx) {
    let npc = state.runs_npc(p);
    let character = state.operator(p).0.to_owned();
    if !npc {
        state.players[p].keep = checked.kept.clone();
    }
    let used: Vec<String> = checked
        .cards
        .iter()
        .flatten()
        .map(|&i| {
            let planned = match &mut state.npc {
                Some(n) if npc => &mut n.hand,
                _ => &mut state.players[p].planned,
            };
            planned[i].1 = true;
            data::card(&planned[i].0).expect("a card").name.clone()
        })
        .collect();
    let order = super::order::describe(&super::order::Command::Operation {
        clauses: checked.clauses.clone(),
    });
    let who = if npc {
        format!("{character} (NPC, run by {})", state.players[p].character)
    } else {
        character.clone()
    };
    if used.is_empty() {
        ctx.say(format!("{who} announces: {order}"));
    } else {
        ctx.say(format!(
            "{who} plays {} and announces: {order}",
            used.join(", ")
        ));
    }
    state.pending = Some(Pending {
        player: p,
        character,
        carded: checked.cards.iter().map(Option::is_some).collect(),
        clauses: checked.clauses,
        next: 0,
        effects: Vec::new(),
        crossed: 0,
        battle: None,
    });
}

/// Carries out a checked order at once, with no reactive window (for tests of the map rules).
pub fn execute(state: &mut State, p: usize, checked: Checked, ctx: &mut Ctx) {
    announce(state, p, checked, ctx);
    while !resume(state, ctx) {}
}

/// Stops the operation at clause `i`: the rest is returned unexecuted, for `why`.
fn stop(pd: &mut Pending, i: usize, why: String, ctx: &mut Ctx) {
    let rest: Vec<String> = pd.clauses[i..].iter().map(describe_clause).collect();
    ctx.say(format!("{why}: {} not carried out", rest.join("; ")));
    ctx.interrupt(why, rest);
    pd.next = pd.clauses.len();
}

/// Is the step from `from` to `to` over a bridge blown since the order was checked?
fn broken(state: &State, from: &str, to: &str) -> bool {
    state
        .map()
        .cl(from, to)
        .is_some_and(|cl| cl.kind == ClKind::Blue && state.is_blown(from, to))
}

/// Carries the pending operation on from where it stands, with the reactive cards standing
/// against it. Gives false when its attack has begun a battle that waits for its window (the
/// battle is in `pending.battle`); true when the operation is over (`pending` is `None`).
pub fn resume(state: &mut State, ctx: &mut Ctx) -> bool {
    let mut pd = state.pending.take().expect("an operation to resume");
    let character = pd.character.clone();
    if let Some(b) = pd.battle.take() {
        if super::sieges::standing_refusal(state, &b, ctx) {
            finish(state, &pd, &character, ctx);
            return true;
        }
        fight(state, &character, &b, ctx);
        finish(state, &pd, &character, ctx);
        return true;
    }
    let tireless = strategic(&pd) == Some(data::Strategic::Tireless);
    let easy_hills = pd.has("good-roads") || pd.has("local-guide") || tireless;
    while pd.next < pd.clauses.len() {
        let i = pd.next;
        pd.next += 1;
        if state.cu(&character).lp.is_none() {
            break;
        }
        if i > 0 && pd.has("indiscipline") {
            stop(
                &mut pd,
                i,
                "Indiscipline: only the first clause is carried out".into(),
                ctx,
            );
            break;
        }
        let c = pd.clauses[i].clone();
        match &c {
            Clause::Pass => ctx.say(format!("{character} passes")),
            Clause::Keep(_) | Clause::GoodWeather | Clause::Demoralize => {}
            Clause::Detach(n) => detach(state, &character, *n, ctx),
            Clause::Absorb(n) => absorb(state, &character, *n, ctx),
            Clause::Blow(..) | Clause::Repair(..) => bridge(state, &c, &character, ctx),
            Clause::Chest => {
                let cu = state.cu_mut(&character);
                cu.supply = true;
                cu.glory += 1;
                ctx.say(format!(
                    "{character} captures a military chest: a supply marker and 1 glory"
                ));
            }
            Clause::Parlay => {
                state.truce.push(character.clone());
                ctx.say(format!(
                    "{character} parleys: no enemy attacks it until the round ends"
                ));
            }
            Clause::Inform => {
                state.cu_mut(&character).glory += 1;
                ctx.say(format!(
                    "{character} informs the government of his deeds: 1 glory"
                ));
            }
            Clause::Flags => {
                state.cu_mut(&character).glory += 3;
                ctx.say(format!(
                    "{character} offers the captured enemy flags: 3 glory"
                ));
            }
            Clause::Harass(to) => harass(state, &character, to, ctx),
            Clause::Siege => {
                // 2.f: a SIEGE makes the fatigue roll as a march does.
                if !fatigue_roll(state, &character, ctx) {
                    stop(&mut pd, i, format!("{character} is out of play"), ctx);
                    break;
                }
                super::sieges::siege(state, &character, ctx);
            }
            Clause::Sortie => super::sieges::sortie(state, &character, ctx),
            Clause::Standing(refuse) => {
                let side = state.cu(&character).side;
                state.standing_refuse.retain(|s| *s != side);
                if *refuse {
                    state.standing_refuse.push(side);
                }
                ctx.say(format!(
                    "the {} side's standing order: its lone SP and NPCs attacked at a fortress {} (2.l)",
                    side.name(),
                    if *refuse { "refuse battle and go in" } else { "fight" }
                ));
            }
            Clause::Strategic => {
                let kind = strategic(&pd).expect("checked");
                let cu = state.cu_mut(&character);
                cu.strategic_used += 1;
                ctx.say(format!(
                    "{character} uses his strategic characteristic ({}, {} used)",
                    kind.name(),
                    cu.strategic_used
                ));
                if kind == data::Strategic::Forage {
                    cu.supply = true;
                    ctx.say(format!("{character} forages: a supply marker"));
                }
            }
            Clause::Gather => {
                let cu = state.cu_mut(&character);
                if pd.has("supply-depleted") {
                    ctx.say(format!(
                        "{character} finds nothing to gather: supplies are depleted"
                    ));
                } else if cu.supply {
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
                let by = if pd.carded[i] { 2 } else { 1 };
                let cu = state.cu_mut(&character);
                cu.fatigue = cu.fatigue.saturating_sub(by);
                ctx.say(format!("{character} rests: fatigue {}", cu.fatigue));
            }
            Clause::March(_) | Clause::ForceMarch(_) => {
                if pd.has("wrong-road") {
                    stop(
                        &mut pd,
                        i,
                        format!("Wrong Road!: {character} loses its way"),
                        ctx,
                    );
                    break;
                }
                if tireless {
                    ctx.say(format!("{character} is tireless: no fatigue roll"));
                } else if pd.clauses.contains(&Clause::GoodWeather) {
                    ctx.say(format!("good weather: {character} makes no fatigue roll"));
                } else if !fatigue_roll(state, &character, ctx) {
                    stop(&mut pd, i, format!("{character} is out of play"), ctx);
                    break;
                }
                let route = match &c {
                    Clause::March(to) => vec![to.clone()],
                    Clause::ForceMarch(r) => {
                        if !pd.has("good-roads") && !tireless {
                            state.cu_mut(&character).fatigue += 1;
                        }
                        r.clone()
                    }
                    _ => unreachable!("a march"),
                };
                if pd.has("bad-weather") {
                    let cu = state.cu_mut(&character);
                    cu.fatigue += 1;
                    ctx.say(format!("bad weather: {character}'s fatigue {}", cu.fatigue));
                }
                let mut ended = false;
                for (k, to) in route.iter().enumerate() {
                    if let Some(n) = super::order::route_absorb(to) {
                        absorb(state, &character, n, ctx);
                        continue;
                    }
                    let from = state.cu(&character).lp.clone().expect("in play");
                    let why = if pd.has("poor-roads") && pd.crossed >= 1 {
                        Some("Poor Roads: one CL at most".to_owned())
                    } else if broken(state, &from, to) {
                        Some(format!("the bridge {from}-{to} is broken"))
                    } else {
                        None
                    };
                    if let Some(why) = why {
                        if matches!(c, Clause::ForceMarch(_)) {
                            pd.clauses[i] = Clause::ForceMarch(route[k..].to_vec());
                        }
                        stop(&mut pd, i, why, ctx);
                        ended = true;
                        break;
                    }
                    pd.crossed += 1;
                    if !step(state, &character, to, easy_hills, ctx) {
                        ended = true;
                        break;
                    }
                }
                if ended {
                    break;
                }
            }
            Clause::Attack(to) | Clause::Decisive(to) | Clause::NapoleonDefeated(to) => {
                let from = state.cu(&character).lp.clone().expect("in play");
                let why = if pd.has("ruse") {
                    Some("Ruse: the enemy is not where the attack falls".to_owned())
                } else if pd.has("poor-roads") && pd.crossed >= 1 {
                    Some("Poor Roads: one CL at most".to_owned())
                } else if broken(state, &from, to) {
                    Some(format!("the bridge {from}-{to} is broken"))
                } else if !state.holds(to, state.cu(&character).side.enemy()) {
                    Some(format!("nobody is left at {to} to attack"))
                } else {
                    None
                };
                if let Some(why) = why {
                    stop(&mut pd, i, why, ctx);
                    break;
                }
                ctx.say(format!("{character} attacks {to} from {from}"));
                let kind = cross(state, &character, to, easy_hills, ctx);
                pd.crossed += 1;
                state.entries.push(super::state::Entry {
                    lp: to.clone(),
                    from,
                    character: character.clone(),
                });
                pd.battle = Some(BattleSetup {
                    lp: to.clone(),
                    cl: kind,
                    decisive: matches!(c, Clause::Decisive(_) | Clause::NapoleonDefeated(_)),
                    napoleon: matches!(c, Clause::NapoleonDefeated(_)),
                    attackers: vec![character.clone()],
                    plans: super::state::PlansStage::Unasked,
                    commanders: [None, None],
                    battle_plans: Default::default(),
                    play: None,
                    mods: Mods {
                        no_crossing: pd.has("local-guide"),
                        bonus: [
                            if strategic(&pd) == Some(data::Strategic::Inspire) {
                                2
                            } else {
                                0
                            },
                            if pd.clauses.contains(&Clause::Demoralize) {
                                -2
                            } else {
                                0
                            },
                        ],
                        ..Mods::default()
                    },
                });
                state.pending = Some(pd);
                return false;
            }
        }
    }
    finish(state, &pd, &character, ctx);
    true
}

/// The attackers of the battle `b` still at its LP.
fn present(state: &State, b: &BattleSetup) -> Vec<String> {
    b.attackers
        .iter()
        .filter(|c| state.cu(c).lp.as_deref() == Some(b.lp.as_str()))
        .cloned()
        .collect()
}

/// 4.b–4.c: is the battle `b`, its window closed, fought with the battle cards? Its attackers
/// still at its LP, an enemy there to fight (no Avoid Combat took it away), no standing order
/// sending the defence into a fortress (2.l), no Decisive Victory! (4.k), and both sides of 4
/// SP or more.
pub fn is_card_battle(state: &State, b: &BattleSetup) -> bool {
    if !state.battle_cards || b.decisive {
        return false;
    }
    let attackers = present(state, b);
    let Some(first) = attackers.first() else {
        return false;
    };
    state.holds(&b.lp, state.cu(first).side.enemy())
        && !super::sieges::standing_refuses(state, b)
        && battle::card_sides(state, &attackers, &b.lp, b.cl, &b.mods).is_some()
}

/// `battle_play=interactive`: the pending card battle begins (4.c–4.e): Choose Battle Terrain
/// for the defence, the sides' BP (4.d), the decks shuffled and the hands dealt with the
/// hidden stream; then the doctrine plays every choice that is not a commander's, until one
/// is (`b.commanders`).
pub fn begin_card_battle(state: &mut State, ctx: &mut Ctx) {
    let mut pd = state.pending.take().expect("an operation");
    let side = state.cu(&pd.character).side;
    let b = pd.battle.as_mut().expect("a battle");
    let attackers = present(state, b);
    choose_battle_terrain(state, &b.lp, side.enemy(), &mut b.mods, ctx);
    let sides = battle::card_sides(state, &attackers, &b.lp, b.cl, &b.mods).expect("a card battle");
    let chooses = [b.commanders[0].is_some(), b.commanders[1].is_some()];
    let mut play = super::battle_cards::CardBattle::begin(sides, chooses, ctx);
    play.run(ctx);
    b.play = Some(Box::new(play));
    state.pending = Some(pd);
}

/// The battle of the operation's attack, once its window has closed (2.m with 1.e's cards),
/// and, with the battle cards, once its card play is done (4.f).
fn fight(state: &mut State, character: &str, b: &BattleSetup, ctx: &mut Ctx) {
    let side = state.cu(character).side;
    let attackers = present(state, b);
    if attackers.is_empty() {
        return;
    }
    if !state.holds(&b.lp, side.enemy()) {
        ctx.say(format!(
            "the defence of {} has avoided combat: {character} holds it without a battle",
            b.lp
        ));
        first_entry(state, character, ctx);
        return;
    }
    let mut mods = b.mods.clone();
    // Played card by card, the battle chose its terrain when it began.
    if !b.decisive && b.play.is_none() {
        choose_battle_terrain(state, &b.lp, side.enemy(), &mut mods, ctx);
    }
    let played = b.play.as_ref().map(|p| p.fought());
    let cards = match &played {
        Some(f) => battle::CardPlay::Played(f),
        None => battle::CardPlay::Plans([
            b.battle_plans[0].plan().cloned(),
            b.battle_plans[1].plan().cloned(),
        ]),
    };
    let r = battle::fight_with(
        state, &attackers, &b.lp, b.cl, b.decisive, &mods, &cards, ctx,
    );
    if r.attacker_won && state.cu(character).lp.as_deref() == Some(b.lp.as_str()) {
        first_entry(state, character, ctx);
    }
    if r.attacker_won {
        for c in &attackers {
            if state.cu(c).lp.as_deref() == Some(b.lp.as_str()) {
                super::roles::on_enter(state, c, ctx);
            }
        }
    }
    if b.napoleon && r.attacker_won {
        state.cu_mut(character).glory += 5;
        ctx.say(format!("{character} has defeated Napoleon: 5 glory"));
    }
}

/// Choose Battle Terrain (reconstructed): a defending player's planned, unplayed Choose Battle
/// Terrain card gives his side +2 in a battle at his CU's LP; it is then played (one a battle).
fn choose_battle_terrain(
    state: &mut State,
    lp: &str,
    side: data::Side,
    mods: &mut Mods,
    ctx: &mut Ctx,
) {
    for i in 0..state.players.len() {
        let cu = state.cu(&state.players[i].character);
        if cu.side != side || cu.lp.as_deref() != Some(lp) {
            continue;
        }
        let Some(at) = state.players[i]
            .planned
            .iter()
            .position(|(k, used)| k == "battle-terrain" && !used)
        else {
            continue;
        };
        state.players[i].planned[at].1 = true;
        mods.bonus[1] += 2;
        ctx.say(format!(
            "{} plays Choose Battle Terrain: +2 to the defence",
            state.players[i].character
        ));
        return;
    }
}

/// Harass (reconstructed): a d10; on 6 or more the largest enemy unit at `to` loses 1 SP (a CU
/// losing its last SP so is treated as losing it outside combat, II.1.A.3) and the harasser
/// gains 1 glory.
fn harass(state: &mut State, character: &str, to: &str, ctx: &mut Ctx) {
    let enemy = state.cu(character).side.enemy();
    let roll = ctx.roll(10);
    if roll < 6 {
        ctx.say(format!("{character} harasses {to}: {roll}, no effect"));
        return;
    }
    let cu = state
        .cus
        .iter()
        .filter(|c| c.side == enemy && c.lp.as_deref() == Some(to) && c.sp > 0)
        .max_by_key(|c| c.sp)
        .map(|c| (c.character.clone(), c.sp));
    let lone = state
        .lone
        .iter()
        .enumerate()
        .filter(|(_, l)| l.side == enemy && l.lp == to)
        .max_by_key(|(_, l)| l.sp)
        .map(|(i, l)| (i, l.sp));
    ctx.say(format!(
        "{character} harasses {to}: {roll}, 1 enemy SP lost and 1 glory"
    ));
    state.cu_mut(character).glory += 1;
    match (cu, lone) {
        (Some((c, sp)), l) if l.is_none_or(|(_, lsp)| sp >= lsp) => {
            lose_sp_outside_combat(state, &c, ctx);
        }
        (_, Some((i, _))) => {
            state.lone[i].sp -= 1;
            state.lone.retain(|l| l.sp > 0);
        }
        _ => {}
    }
}

/// The operation is over: Stragglers cost the CU that crossed a CL 1 SP.
fn finish(state: &mut State, pd: &Pending, character: &str, ctx: &mut Ctx) {
    if pd.has("stragglers") && pd.crossed > 0 && state.cu(character).lp.is_some() {
        ctx.say(format!("{character} leaves stragglers behind: 1 SP lost"));
        lose_sp_outside_combat(state, character, ctx);
    }
    super::sieges::tidy(state, ctx);
}

/// 2.e: `n` SP of the CU stay as lone SP at its LP (joining any of its side already there).
fn detach(state: &mut State, character: &str, n: u32, ctx: &mut Ctx) {
    let cu = state.cu(character);
    let (Some(lp), side) = (cu.lp.clone(), cu.side) else {
        return;
    };
    // A reactive card may have cost SP since the order was checked: keep at least 1.
    let n = n.min(cu.sp.saturating_sub(1));
    if n == 0 {
        return;
    }
    state.cu_mut(character).sp -= n;
    match state.lone.iter_mut().find(|l| l.side == side && l.lp == lp) {
        Some(l) => l.sp += n,
        None => state.lone.push(super::state::LoneSp {
            lp: lp.clone(),
            side,
            sp: n,
        }),
    }
    ctx.say(format!("{character} detaches {n} SP at {lp}"));
}

/// 2.e: the CU takes its side's lone SP at its LP (all, or `n`).
fn absorb(state: &mut State, character: &str, n: Option<u32>, ctx: &mut Ctx) {
    let cu = state.cu(character);
    let (Some(lp), side) = (cu.lp.clone(), cu.side) else {
        return;
    };
    let mut want = n.unwrap_or(u32::MAX);
    let mut taken = 0;
    for l in state
        .lone
        .iter_mut()
        .filter(|l| l.side == side && l.lp == lp)
    {
        let t = l.sp.min(want);
        l.sp -= t;
        want -= t;
        taken += t;
    }
    state.lone.retain(|l| l.sp > 0);
    if taken > 0 {
        state.cu_mut(character).sp += taken;
        ctx.say(format!("{character} absorbs {taken} SP at {lp}"));
    }
}
