//! An Intruder's turn: one order — movement and an action, with bonus actions — carried out
//! clause by clause and square by square, testing where the rules demand (SNEAK, EVADE, REACT)
//! and stopping where they end the turn (summary, "Agent activity", "The Intruders", "Raider",
//! "Raider/Assaulter" and "Assaulter" activities; "Watch zones", "Doors", "Intelligence cards").
//!
//! Check, then change: every activity has a `check_…` that reads the state and answers with a
//! `Plan` of what it will do, or the rule it breaks, the square and what to do instead; then
//! `carry` spends the turn's allowance and performs the plan, which cannot be refused. A
//! square of movement is the same: `check_square`, then `step`. [`check`] checks a whole
//! order before any die is drawn, on a projected copy of the state where each clause takes its
//! planned outcome (`skills::Course::Plan`); [`run`] plays it, checking each clause again
//! against the state the dice have made.

use super::agents::{DefKind, Equipment, Grade, Mode, Weapon};
use super::board::{board, DoorId, Sq};
use super::combat::{self, Burst, Who};
use super::order::{describe_istep, IStep};
use super::senses;
use super::skills::{self, faces, Course, Evade, Method, React, Table, EVADE_TABLE, REACT_TABLE};
use super::state::{CoveringFire, MarkerKind, Occupant, State, Status};
use crate::engine::ruleset::RuleError;

/// Why the turn stopped early.
pub type Stop = String;

fn err(rule: &str, message: impl Into<String>) -> RuleError {
    RuleError::new(rule, message)
}

/// What the Intruder may still do this turn.
struct Turn {
    i: usize,
    moved: u32,
    allowance: u32,
    action_used: bool,
    may_move: bool,
    may_act: bool,
    bonus_attack: bool,
    /// EVADE 2 or REACT 2: movement or an action (attack), not both.
    either: bool,
    sneak: Method,
    last_door: Option<DoorId>,
    free_conceal: bool,
    engaged_start: bool,
    will_shoot: bool,
    /// The Defenders whose watch zones he stands in, already tested against (EVADE or REACT).
    zones: Vec<usize>,
}

impl Turn {
    /// Summary, "Movement": may he walk one more square?
    fn check_move(&self) -> Result<(), RuleError> {
        if !self.may_move {
            return Err(err(
                "Movement",
                "you may not move any further this turn (engaged, caught in a watch zone, after a rifle shot, or after your reaction)",
            ));
        }
        if self.moved >= self.allowance {
            return Err(err(
                "Movement",
                format!("you may move at most {} squares this turn", self.allowance),
            ));
        }
        Ok(())
    }

    /// A checked square of movement.
    fn use_move(&mut self) {
        self.moved += 1;
        if self.either {
            self.either = false;
            self.may_act = false;
            self.bonus_attack = false;
        }
    }

    /// Summary, "Agent activity": one action a turn, and the attack a reaction allows.
    fn check_action(&self, attack: bool) -> Result<(), RuleError> {
        if (attack && self.bonus_attack) || (!self.action_used && self.may_act) {
            Ok(())
        } else {
            Err(err(
                "Actions",
                "you have no action left this turn: an agent performs one action per turn",
            ))
        }
    }

    /// A checked action.
    fn use_action(&mut self, attack: bool) {
        if attack && self.bonus_attack {
            self.bonus_attack = false;
        } else {
            self.action_used = true;
        }
        if self.either {
            self.either = false;
            self.may_move = false;
        }
    }
}

/// Summary, "Weapons", SMG covering fire: "All targets must be in the same LOS" — read on this
/// grid as one straight line from the shooter: every target lies in the same direction, the
/// same whole step (columns, rows) taken again and again.
pub(crate) fn same_line(from: Sq, targets: &[Sq]) -> Result<(), RuleError> {
    fn gcd(a: i32, b: i32) -> i32 {
        if b == 0 {
            a.abs()
        } else {
            gcd(b, a % b)
        }
    }
    let step = |q: Sq| {
        let (dx, dy) = (q.0 as i32 - from.0 as i32, q.1 as i32 - from.1 as i32);
        let g = gcd(dx, dy).max(1);
        (dx / g, dy / g)
    };
    let first = step(targets[0]);
    match targets.iter().find(|q| step(**q) != first) {
        None => Ok(()),
        Some(q) => Err(err(
            "Covering fire",
            format!(
                "all targets must be in the same LOS: {q} is not on the line from {from} through {}",
                targets[0]
            ),
        )),
    }
}

/// Plays an Intruder's order: each clause checked against the state as it now is, then carried
/// out with the table's dice. `Ok(Some((reason, rest)))` when the turn stopped early;
/// `Err((rule, rest))` when a clause did not fit the state the dice had made.
pub fn run(s: &mut State, t: &mut dyn Table, i: usize, steps: &[IStep]) -> super::order::Ran {
    carry_out(s, &mut Course::Play(t), i, steps)
}

/// Checks an Intruder's whole order before any die is drawn. `course` is a copy of the state;
/// each clause is checked against it as the clauses before will have left it on their planned
/// outcome (every test of his passes, every roll against him fails), which `course` is left
/// holding. A clause after one that ends the turn on that course is not reached, in play
/// either.
pub fn check(course: &mut State, i: usize, steps: &[IStep]) -> Result<(), RuleError> {
    carry_out(course, &mut Course::plan(), i, steps)
        .map(|_| ())
        .map_err(|(e, _)| e)
}

fn carry_out(s: &mut State, c: &mut Course, i: usize, steps: &[IStep]) -> super::order::Ran {
    let rest = |k: usize| steps[k..].iter().map(describe_istep).collect::<Vec<_>>();
    let a = &s.intruders[i];
    if a.status == Status::Unconscious
        && (steps.len() != 1 || !matches!(steps[0], IStep::Recover { .. } | IStep::Pass))
    {
        return Err((
            err(
                "Wounds",
                "an unconscious agent may take no part in the game until he recovers: order 'recover raiding', 'recover assault' or 'pass'",
            ),
            rest(0),
        ));
    }
    let mut turn = Turn {
        i,
        moved: 0,
        allowance: if a.mode == Mode::Assault { 6 } else { 4 },
        action_used: false,
        may_move: true,
        may_act: true,
        bonus_attack: false,
        either: false,
        sneak: Method::TakeChance,
        last_door: None,
        free_conceal: false,
        engaged_start: false,
        will_shoot: steps.iter().any(|s| matches!(s, IStep::Shoot { .. })),
        zones: Vec::new(),
    };
    let extended = steps
        .iter()
        .any(|s| matches!(s, IStep::Hide | IStep::Recover { .. }));
    if extended && steps.iter().filter(|s| !matches!(s, IStep::Pass)).count() > 1 {
        return Err((
            err(
                "Extended actions",
                "hide and recover take the whole turn: order them alone",
            ),
            rest(0),
        ));
    }
    let mut k = 0;
    if let Some(IStep::Assault { weapon }) = steps.first() {
        if let Err(e) = check_assault(s, i, *weapon) {
            return Err((e, rest(0)));
        }
        assault(s, c.table(), i, *weapon);
        turn.allowance = 6;
        k = 1;
    } else if let Some(pos) = steps
        .iter()
        .position(|s| matches!(s, IStep::Assault { .. }))
    {
        return Err((
            err(
                "Assault",
                "you enter assault mode voluntarily only at the start of your turn: put 'assault' first",
            ),
            rest(pos),
        ));
    }
    if s.intruders[i].status == Status::Standing {
        if senses::intruder_engaged(s, i) {
            turn.engaged_start = true;
            turn.may_move = false;
        } else if let Some(stop) = resolve_zone(s, c, &mut turn, true) {
            return Ok(Some((stop, rest(k))));
        }
    }
    while k < steps.len() {
        let step = &steps[k];
        if let IStep::Move { path } = step {
            match walk(s, c, &mut turn, path) {
                Ok(None) => {}
                Ok(Some((stop, done))) => {
                    let mut r = Vec::new();
                    if done < path.len() {
                        r.push(describe_istep(&IStep::Move {
                            path: path[done..].to_vec(),
                        }));
                    }
                    r.extend(rest(k + 1));
                    return Ok(Some((stop, r)));
                }
                Err((e, done)) => {
                    let mut r = vec![describe_istep(&IStep::Move {
                        path: path[done..].to_vec(),
                    })];
                    r.extend(rest(k + 1));
                    return Err((e, r));
                }
            }
        } else {
            let plan = match check_clause(s, &turn, step) {
                Ok(plan) => plan,
                Err(e) => return Err((e, rest(k))),
            };
            if let Some(stop) = carry(s, c, &mut turn, plan) {
                return Ok(Some((stop, rest(k + 1))));
            }
        }
        k += 1;
        if s.minutes <= 0 && k < steps.len() {
            return Ok(Some(("the Mission Timer has run out".into(), rest(k))));
        }
    }
    Ok(None)
}

/// Summary, "Assault": "You can enter assault mode voluntarily at the start of your turn if you
/// are not in a watch zone or in an enemy occupied room"; changing weapon is then a bonus action.
fn check_assault(s: &State, i: usize, weapon: Option<Weapon>) -> Result<(), RuleError> {
    let a = &s.intruders[i];
    if a.status != Status::Standing || a.mode != Mode::Raiding {
        return Err(err(
            "Assault",
            "only a standing raider can choose to assault",
        ));
    }
    if let Some(sq) = a.sq {
        if !senses::watchers(s, sq).is_empty() {
            return Err(err(
                "Assault",
                format!("you are in a watch zone at {sq}, so you may not choose to assault: you must evade"),
            ));
        }
        if board()
            .room_of(sq)
            .is_some_and(|r| senses::enemy_room_for_intruders(s, r))
        {
            return Err(err(
                "Assault",
                "you are in an enemy occupied room, so you may not choose to assault",
            ));
        }
    }
    if let Some(w) = weapon {
        if !a.weapons.contains(&w) {
            return Err(err("Change weapon", format!("you do not carry a {w}")));
        }
    }
    Ok(())
}

fn assault(s: &mut State, t: &mut dyn Table, i: usize, weapon: Option<Weapon>) {
    let a = &mut s.intruders[i];
    a.mode = Mode::Assault;
    if let Some(w) = weapon {
        a.selected = w;
    }
    t.say(format_args!(
        "{} goes into assault mode with his {}",
        a.agent.title(),
        a.selected
    ));
}

/// The watch zones and enemy-occupied rooms an Intruder finds himself in (summary, "Watch
/// zones": "always resolved in the Intruder's turn; as soon as the Intruder finds himself in a
/// zone"; "Evade"; "React"). `start` is the start of the turn (or a recovery).
fn resolve_zone(s: &mut State, c: &mut Course, turn: &mut Turn, start: bool) -> Option<Stop> {
    let i = turn.i;
    let a = &s.intruders[i];
    let sq = a.sq?;
    // Summary, "Fighting": an engaged agent "is not affected by enemy watch zones" — engaged at
    // the start of his turn ("If you enter a watch zone and are adjacent to the enemy agent
    // imposing it, you must test to REACT before fighting").
    if a.status != Status::Standing
        || board().is_entry(sq)
        || (turn.engaged_start && senses::intruder_engaged(s, i))
    {
        turn.zones.clear();
        return None;
    }
    let watchers = senses::watchers(s, sq);
    // Summary, "Evading and reacting": a test on *entering* (or starting the turn in) a watch
    // zone — once for a zone, not again on each square of it.
    let entered = watchers.iter().any(|d| !turn.zones.contains(d));
    turn.zones.clone_from(&watchers);
    let enemy_room = start
        && board()
            .room_of(sq)
            .is_some_and(|r| senses::enemy_room_for_intruders(s, r));
    let evade_in_room = enemy_room && a.mode == Mode::Raiding;
    if !(entered || evade_in_room) {
        return None;
    }
    let dice = skills::evade_dice(turn.moved > 0);
    let who = a.agent.title();
    if a.mode == Mode::Raiding {
        let grade = a.profile().stealth;
        let (f, passes) = c.test(dice, grade);
        let mut result = EVADE_TABLE[passes.min(3) as usize];
        let stubborn = watchers.iter().any(|&d| {
            s.defenders[d]
                .sq
                .is_some_and(|q| senses::sees_assaulter(s, q).is_some())
        });
        if stubborn && matches!(result, Evade::StandDownMoveOrAct | Evade::StandDownFull) {
            // Exception: a Defender with an assaulter in his LOS does not stand down.
            result = Evade::TurnEnds;
        }
        c.table().say(format_args!(
            "{who} must EVADE at {sq} ({dice}d6: {}): {passes} passes",
            faces(&f)
        ));
        match result {
            Evade::Exposed => {
                combat::expose(s, c.table(), i, watchers.first().copied());
                Some(format!(
                    "{who} failed to evade and is exposed; his turn ends"
                ))
            }
            Evade::TurnEnds => Some(format!("{who} stays hidden but his turn ends")),
            Evade::StandDownMoveOrAct | Evade::StandDownFull => {
                stand_down(s, c.table(), &watchers);
                if result == Evade::StandDownMoveOrAct {
                    turn.either = true;
                }
                None
            }
        }
    } else {
        react(s, c, turn, dice, "a watch zone")
    }
}

/// Summary, "Evade" score 2–3: the enemy stands down. Sentry: his alert marker is removed and he
/// returns to the ready position; Commander: he turns to face the opposite direction.
fn stand_down(s: &mut State, t: &mut dyn Table, watchers: &[usize]) {
    for &d in watchers {
        let a = &mut s.defenders[d];
        match a.kind {
            DefKind::Sentry => {
                a.alert = None;
                a.facing = a.ready;
                t.say(format_args!("Sentry {} stands down", a.label));
            }
            _ => {
                a.facing = a.facing.opposite();
                t.say(format_args!(
                    "The Commander stands down and turns to face {}",
                    a.facing.name()
                ));
            }
        }
    }
}

/// REACT (summary, "React"); a handgun re-rolls one die when the order shoots.
fn react(s: &mut State, c: &mut Course, turn: &mut Turn, dice: usize, why: &str) -> Option<Stop> {
    let i = turn.i;
    let a = &s.intruders[i];
    let grade = a.profile().survival;
    let who = a.agent.title();
    let (mut f, mut passes) = c.test(dice, grade);
    if a.selected == Weapon::Handgun && turn.will_shoot {
        if let (Some(k), Course::Play(t)) = (f.iter().position(|&x| !grade.passes(x)), &mut *c) {
            f[k] = t.d6(true);
            passes = f.iter().filter(|&&x| grade.passes(x)).count() as u32;
        }
    }
    c.table().say(format_args!(
        "{who} must REACT to {why} ({}): {passes} passes",
        faces(&f)
    ));
    match REACT_TABLE[passes.min(3) as usize] {
        React::TooSlow => Some(format!("{who} was too slow to react; his turn ends")),
        React::AttackOnly => {
            turn.may_move = false;
            turn.bonus_attack = true;
            turn.may_act = false;
            None
        }
        React::AttackOrMove => {
            turn.bonus_attack = true;
            turn.may_act = false;
            turn.either = true;
            None
        }
        React::AttackAndMove => {
            turn.bonus_attack = true;
            turn.may_act = false;
            None
        }
    }
}

/// Movement, square by square (summary, "Movement", "Occupied squares", "Sneak", "Raiding",
/// "Assault", "Intelligence cards"). Returns the stop and how many squares were walked.
fn walk(
    s: &mut State,
    c: &mut Course,
    turn: &mut Turn,
    path: &[Sq],
) -> Result<Option<(Stop, usize)>, (RuleError, usize)> {
    let i = turn.i;
    let who = s.intruders[i].agent.title();
    let mut from = None;
    let mut walked = Vec::new();
    let mut went = Ok(None);
    for (n, &to) in path.iter().enumerate() {
        let square = match check_square(s, turn, to, n + 1 == path.len()) {
            Ok(square) => square,
            Err(e) => {
                went = Err((e, n));
                break;
            }
        };
        from.get_or_insert(square.from);
        let stop = step(s, c, turn, square);
        if s.intruders[i].sq == Some(to) {
            walked.push(to);
        }
        if let Some(stop) = stop {
            went = Ok(Some((stop, n + 1)));
            break;
        }
    }
    if let Some(from) = from {
        skills::say_moved(c.table(), who, from, &walked);
    }
    went
}

/// A square of movement, checked.
struct Square {
    from: Sq,
    to: Sq,
    door: Option<DoorId>,
    /// Out through the entrance: he leaves the mission.
    escaping: bool,
    /// Summary, "Entering a room": occupation as it stood before he came in.
    entering_enemy_room: bool,
}

/// May the Intruder walk on to `to`? `last`: the last square of his move.
fn check_square(s: &State, turn: &Turn, to: Sq, last: bool) -> Result<Square, RuleError> {
    let i = turn.i;
    let b = board();
    let a = &s.intruders[i];
    let from = a.sq.expect("a standing Intruder is on the board");
    if a.status != Status::Standing {
        return Err(err("Movement", "an unconscious agent may not move"));
    }
    // Summary, "Fighting": "If you are not engaged at the start of your turn, you may move
    // through squares adjacent to an enemy" — engagement is judged at the turn's start.
    if turn.engaged_start && senses::intruder_engaged(s, i) {
        return Err(err(
            "Fighting",
            format!(
                "{} is engaged in a fight at {from} and may not move",
                a.agent.title()
            ),
        ));
    }
    let Some(link) = b.links(from).iter().find(|l| l.to == to).copied() else {
        return Err(err("Movement", format!("{to} is not adjacent to {from}")));
    };
    if let Some(d) = link.door {
        if !s.door_open(d) {
            return Err(err(
                "Doors",
                format!("{d} between {from} and {to} is closed: breach or open it first"),
            ));
        }
    }
    let escaping = b.is_entry(to) && !b.is_entry(from);
    if b.is_entry(from) && b.is_entry(to) && a.inside {
        return Err(err(
            "Movement",
            "an Intruder who has left cannot walk about outside",
        ));
    }
    if !escaping {
        if let Some(occ) = s.occupant(to) {
            let passable = match occ {
                Occupant::Intruder(j) => j != i,
                Occupant::Defender(d) => !s.defenders[d].standing(),
            };
            let watched = !senses::watchers(s, to).is_empty()
                || !senses::sentries_hearing(s, to, 4).is_empty()
                || b.room_of(to)
                    .is_some_and(|r| senses::enemy_room_for_intruders(s, r));
            if last || !passable || watched {
                return Err(err(
                    "Occupied squares",
                    format!(
                        "{to} is occupied: you may pass through a standing friend or a prone agent, but not stop there, and not pass where an enemy watches or a Sentry can hear"
                    ),
                ));
            }
        }
        if a.mode == Mode::Raiding {
            if let Some(r) = b.room_of(to) {
                if b.room_of(from) != Some(r) && senses::enemy_room_for_intruders(s, r) {
                    return Err(err(
                        "Raiding",
                        format!("room {r} is occupied by the enemy: a raider may not enter it"),
                    ));
                }
            }
        }
    }
    turn.check_move()?;
    let entering_enemy_room = b
        .room_of(to)
        .filter(|&r| b.room_of(from) != Some(r))
        .is_some_and(|r| senses::enemy_room_for_intruders(s, r));
    Ok(Square {
        from,
        to,
        door: link.door,
        escaping,
        entering_enemy_room,
    })
}

/// Walks a checked square: escaping, exploring, sneaking, and the tests the square calls for.
fn step(s: &mut State, c: &mut Course, turn: &mut Turn, q: Square) -> Option<Stop> {
    let i = turn.i;
    let b = board();
    turn.use_move();
    turn.last_door = q.door;
    let Square { from, to, .. } = q;
    let a = &mut s.intruders[i];
    let who = a.agent.title();
    if q.escaping {
        a.status = Status::Escaped;
        a.sq = None;
        c.table().say(format_args!(
            "{who} escapes through the entrance with {} intelligence card(s)",
            a.intel.len()
        ));
        return Some(format!("{who} has escaped"));
    }
    a.sq = Some(to);
    if !b.is_entry(to) {
        a.inside = true;
    }
    let entered_room = b.room_of(to).filter(|&r| b.room_of(from) != Some(r));
    if let Some(r) = entered_room {
        explore(s, c.table(), i, r);
    }
    sneak(s, c, turn, to);
    if let Some(stop) = resolve_zone(s, c, turn, false) {
        return Some(stop);
    }
    if entered_room.is_some() && s.intruders[i].mode == Mode::Assault && q.entering_enemy_room {
        return react(s, c, turn, 1, "entering an enemy occupied room");
    }
    None
}

/// Sneaking and hearing range (summary, "Sneak"; "Sentries"): a raider within 4 squares of a
/// Sentry not yet alerted sneaks (a failed take-chance alerts them); an assaulter alerts them.
fn sneak(s: &mut State, c: &mut Course, turn: &Turn, to: Sq) {
    let i = turn.i;
    let hearing: Vec<usize> = senses::sentries_hearing(s, to, 4)
        .into_iter()
        .filter(|&d| s.defenders[d].alert.is_none())
        .collect();
    if hearing.is_empty() {
        return;
    }
    let who = s.intruders[i].agent.title();
    if s.intruders[i].mode == Mode::Raiding {
        let grade = s.intruders[i].profile().stealth;
        let ok = match turn.sneak {
            Method::TakeChance => {
                let (f, p) = c.test(1, grade);
                c.table()
                    .say(format_args!("{who} sneaks to {to} ({})", faces(&f)));
                p >= 1
            }
            Method::SpendTime => {
                let (f, minutes) =
                    c.spend_time(skills::SPEND_TIME_BASE, skills::SPEND_TIME_DICE, grade);
                s.take_minutes(minutes);
                c.table().say(format_args!(
                    "{who} sneaks to {to} taking time ({}): {minutes} minute(s)",
                    faces(&f)
                ));
                true
            }
        };
        if ok {
            return;
        }
    }
    for d in hearing {
        combat::alert_sentry(s, c.table(), d, to);
    }
}

/// Summary, "Intelligence cards": the first time an Intruder enters a room its card is turned
/// over and the room is explored.
fn explore(s: &mut State, t: &mut dyn Table, i: usize, room: u8) {
    let rc = &mut s.rooms[room as usize - 1];
    if rc.explored {
        return;
    }
    rc.explored = true;
    let who = s.intruders[i].agent.title();
    match rc.card {
        Some(c) => t.say(format_args!(
            "{who} enters room {room} and turns its card over: {c}"
        )),
        None => t.say(format_args!("{who} enters room {room}: it is explored")),
    }
}

fn adjacent_to_door(s: &State, i: usize, d: DoorId) -> Result<(), RuleError> {
    let sq = s.intruders[i].sq.expect("on the board");
    if board().door(d).adjacent.contains(&sq) {
        Ok(())
    } else {
        Err(err(
            "Doors",
            format!("to work {d} you must stand in one of the 3 squares along either face of it, not {sq}"),
        ))
    }
}

fn adjacent_sq(s: &State, i: usize, at: Sq) -> Result<Sq, RuleError> {
    let sq = s.intruders[i].sq.expect("on the board");
    if senses::adjacent(s, sq, at) {
        Ok(sq)
    } else {
        Err(err(
            "Adjacent squares",
            format!("{at} is not adjacent to {sq}"),
        ))
    }
}

fn spend_ok(s: &State, i: usize, method: Method, what: &str) -> Result<(), RuleError> {
    if method == Method::SpendTime && s.intruders[i].mode != Mode::Raiding {
        return Err(err(
            "Skills: spend time",
            format!("only raiders can spend time on {what}: assaulters take a chance"),
        ));
    }
    Ok(())
}

/// A take-chance or spend-time test that scores 0 or 1.
fn method_test(
    s: &mut State,
    c: &mut Course,
    i: usize,
    method: Method,
    grade: Grade,
    time_dice: usize,
    what: &str,
) -> bool {
    let who = s.intruders[i].agent.title();
    match method {
        Method::TakeChance => {
            let (f, p) = c.test(1, grade);
            c.table().say(format_args!(
                "{who} takes a chance on {what} ({})",
                faces(&f)
            ));
            p >= 1
        }
        Method::SpendTime => {
            let (f, minutes) = c.spend_time(skills::SPEND_TIME_BASE, time_dice, grade);
            s.take_minutes(minutes);
            c.table().say(format_args!(
                "{who} spends time on {what} ({}): {minutes} minute(s) off the Mission Timer",
                faces(&f)
            ));
            true
        }
    }
}

/// A checked clause: what it will do when carried out.
enum Plan {
    Pass,
    Sneak(Method),
    Breach {
        door: DoorId,
        method: Method,
        dice: usize,
    },
    Open(DoorId),
    /// Closing a door right after moving through it costs a square of movement, not the action.
    Close {
        door: DoorId,
        as_move: bool,
    },
    Spy {
        room: u8,
        method: Method,
        dice: usize,
    },
    SneakAttack {
        d: usize,
        at: Sq,
        from: Sq,
    },
    /// `free`: the bonus conceal after a sneak-attack.
    Conceal {
        marker: usize,
        at: Sq,
        method: Method,
        free: bool,
    },
    CoupDeGrace {
        d: usize,
        at: Sq,
    },
    Fight {
        d: usize,
    },
    Shoot {
        weapon: Weapon,
        /// Each target and its range, in the order written.
        targets: Vec<(usize, u32)>,
        burst: Option<Burst>,
    },
    Weapon(Weapon),
    Hide {
        base: u32,
    },
    Recover(Mode),
}

/// Checks one clause (not `assault` or `move`) against the state and what is left of the turn.
fn check_clause(s: &State, turn: &Turn, step: &IStep) -> Result<Plan, RuleError> {
    let i = turn.i;
    let who = s.intruders[i].agent.title();
    let standing = s.intruders[i].status == Status::Standing;
    if !standing && !matches!(step, IStep::Recover { .. } | IStep::Pass) {
        return Err(err("Wounds", format!("{who} is unconscious")));
    }
    if turn.engaged_start
        && senses::intruder_engaged(s, i)
        && !matches!(step, IStep::Fight { .. } | IStep::Pass)
    {
        return Err(err(
            "Fighting",
            "an engaged agent may not move or perform any action other than fight",
        ));
    }
    match step {
        IStep::Pass => Ok(Plan::Pass),
        IStep::Assault { .. } | IStep::Move { .. } => unreachable!("checked by carry_out"),
        IStep::Sneak { method } => {
            spend_ok(s, i, *method, "sneaking")?;
            Ok(Plan::Sneak(*method))
        }
        IStep::Breach { door, method } => check_breach(s, turn, *door, *method),
        IStep::Open { door } => check_open(s, turn, *door),
        IStep::Close { door } => check_close(s, turn, *door),
        IStep::Spy { method } => check_spy(s, turn, *method),
        IStep::SneakAttack { at } => check_sneak_attack(s, turn, *at),
        IStep::Conceal { at, method } => check_conceal(s, turn, *at, *method),
        IStep::CoupDeGrace { at } => check_coup_de_grace(s, turn, *at),
        IStep::Fight { at } => check_fight(s, turn, *at),
        IStep::Shoot { at, burst } => check_shoot(s, turn, at, *burst),
        IStep::Weapon { weapon } => check_weapon(s, turn, *weapon),
        IStep::Hide => check_hide(s, turn),
        IStep::Recover { .. } if s.intruders[i].status != Status::Unconscious => {
            Err(err("Recover", "only an unconscious agent recovers"))
        }
        IStep::Recover { mode } => {
            turn.check_action(false)?;
            Ok(Plan::Recover(*mode))
        }
    }
}

/// Carries out a checked clause: spends what it takes of the turn and performs it, with the
/// dice in play or its planned outcome on the order's course. Cannot be refused.
fn carry(s: &mut State, c: &mut Course, turn: &mut Turn, plan: Plan) -> Option<Stop> {
    let i = turn.i;
    match plan {
        Plan::Pass => None,
        Plan::Sneak(method) => {
            turn.sneak = method;
            None
        }
        Plan::Breach { door, method, dice } => {
            turn.use_action(false);
            breach(s, c, i, door, method, dice);
            None
        }
        Plan::Open(door) => {
            turn.use_action(false);
            s.doors_open[door.index()] = true;
            let who = s.intruders[i].agent.title();
            c.table().say(format_args!("{who} opens {door}"));
            None
        }
        Plan::Close { door, as_move } => {
            if as_move {
                turn.moved += 1;
            } else {
                turn.use_action(false);
            }
            s.doors_open[door.index()] = false;
            let who = s.intruders[i].agent.title();
            c.table().say(format_args!("{who} closes {door}"));
            combat::door_closed(s, c.table(), door);
            None
        }
        Plan::Spy { room, method, dice } => {
            turn.use_action(false);
            spy(s, c, i, room, method, dice);
            None
        }
        Plan::SneakAttack { d, at, from } => {
            turn.use_action(false);
            sneak_attack(s, c, turn, d, at, from)
        }
        Plan::Conceal {
            marker,
            at,
            method,
            free,
        } => {
            if free {
                turn.free_conceal = false;
            } else {
                turn.use_action(false);
            }
            conceal(s, c, i, marker, at, method);
            None
        }
        Plan::CoupDeGrace { d, at } => {
            turn.use_action(false);
            coup_de_grace(s, c, i, d, at);
            None
        }
        Plan::Fight { d } => {
            turn.use_action(true);
            fight(s, c, turn, d)
        }
        Plan::Shoot {
            weapon,
            targets,
            burst,
        } => {
            turn.use_action(true);
            shoot(s, c, i, weapon, &targets, burst);
            if weapon == Weapon::Rifle {
                turn.may_move = false;
            }
            None
        }
        Plan::Weapon(weapon) => {
            turn.use_action(true);
            s.intruders[i].selected = weapon;
            let who = s.intruders[i].agent.title();
            c.table().say(format_args!("{who} takes up his {weapon}"));
            None
        }
        Plan::Hide { base } => {
            turn.use_action(false);
            hide(s, c, i, base);
            None
        }
        Plan::Recover(to) => {
            turn.use_action(false);
            recover(s, c, turn, to)
        }
    }
}

/// BREACH (summary, "Doors"; "Breach"): from a square along a face of a locked door.
fn check_breach(s: &State, turn: &Turn, door: DoorId, method: Method) -> Result<Plan, RuleError> {
    let i = turn.i;
    adjacent_to_door(s, i, door)?;
    spend_ok(s, i, method, "a breach")?;
    if s.door_open(door) {
        return Err(err("Breach", format!("{door} is already open")));
    }
    if board().door(door).unlocked {
        return Err(err(
            "Doors",
            format!("{door} is not locked: order 'open {door}'"),
        ));
    }
    turn.check_action(false)?;
    let kit = s.intruders[i]
        .equipment
        .contains(&Equipment::CovertEntryKit);
    let dice = if kit {
        skills::KIT_DICE
    } else {
        skills::SPEND_TIME_DICE
    };
    Ok(Plan::Breach { door, method, dice })
}

fn breach(s: &mut State, c: &mut Course, i: usize, door: DoorId, method: Method, dice: usize) {
    let grade = s.intruders[i].profile().technique;
    if method_test(s, c, i, method, grade, dice, &format!("breaching {door}")) {
        s.doors_open[door.index()] = true;
        c.table().say(format_args!("{door} is unlocked and opened"));
    } else {
        c.table().say(format_args!("{door} stays closed"));
    }
}

/// Summary, "Doors": an unlocked door, or any with the Stronghold Master Key.
fn check_open(s: &State, turn: &Turn, door: DoorId) -> Result<Plan, RuleError> {
    let i = turn.i;
    adjacent_to_door(s, i, door)?;
    if s.door_open(door) {
        return Err(err("Doors", format!("{door} is already open")));
    }
    let key = s.intruders[i].equipment.contains(&Equipment::MasterKey);
    if !board().door(door).unlocked && !key {
        return Err(err(
            "Doors",
            format!("{door} is locked: breach it, or carry the Stronghold Master Key"),
        ));
    }
    turn.check_action(false)?;
    Ok(Plan::Open(door))
}

/// Summary, "Doors": close as an action, or for a square of movement right after moving
/// through; the breached entrance stays open.
fn check_close(s: &State, turn: &Turn, door: DoorId) -> Result<Plan, RuleError> {
    adjacent_to_door(s, turn.i, door)?;
    if !s.door_open(door) {
        return Err(err("Doors", format!("{door} is already closed")));
    }
    if board().door(door).entrance {
        return Err(err(
            "Doors",
            "the breached stronghold entrance may not be closed",
        ));
    }
    let as_move = turn.last_door == Some(door) && turn.may_move && turn.moved < turn.allowance;
    if !as_move {
        turn.check_action(false)?;
    }
    Ok(Plan::Close { door, as_move })
}

/// SPY (summary, "Spy"): in a room that still holds its card; a Spy Camera rolls 4 dice when
/// spending time.
fn check_spy(s: &State, turn: &Turn, method: Method) -> Result<Plan, RuleError> {
    let i = turn.i;
    let sq = s.intruders[i].sq.expect("on the board");
    let room = board()
        .room_of(sq)
        .ok_or_else(|| err("Spy", "you must stand in a room to spy"))?;
    if s.room_card(room).card.is_none() {
        return Err(err(
            "Spy",
            format!("room {room} holds no intelligence card"),
        ));
    }
    spend_ok(s, i, method, "spying")?;
    turn.check_action(false)?;
    let camera = s.intruders[i].equipment.contains(&Equipment::SpyCamera);
    let dice = if camera {
        skills::KIT_DICE
    } else {
        skills::SPEND_TIME_DICE
    };
    Ok(Plan::Spy { room, method, dice })
}

fn spy(s: &mut State, c: &mut Course, i: usize, room: u8, method: Method, dice: usize) {
    let who = s.intruders[i].agent.title();
    let grade = s.intruders[i].profile().technique;
    if method_test(
        s,
        c,
        i,
        method,
        grade,
        dice,
        &format!("spying in room {room}"),
    ) {
        let card = s.rooms[room as usize - 1].card.take().expect("checked");
        s.intruders[i].intel.push(card);
        c.table()
            .say(format_args!("{who} takes the intelligence card: {card}"));
    } else {
        c.table().say(format_args!("{who} finds nothing yet"));
    }
}

/// SNEAK-ATTACK (summary, "Sneak-attack"): a raider, on an adjacent standing Sentry whose watch
/// zone he is not in.
fn check_sneak_attack(s: &State, turn: &Turn, at: Sq) -> Result<Plan, RuleError> {
    let i = turn.i;
    let from = adjacent_sq(s, i, at)?;
    if s.intruders[i].mode != Mode::Raiding {
        return Err(err("Sneak-attack", "only a raider can sneak-attack"));
    }
    let d = sentry_at(s, at)?;
    if senses::in_watch_zone(s, d, from) {
        return Err(err(
            "Sneak-attack",
            format!("the Sentry at {at} has you in his watch zone"),
        ));
    }
    turn.check_action(false)?;
    Ok(Plan::SneakAttack { d, at, from })
}

fn sneak_attack(
    s: &mut State,
    c: &mut Course,
    turn: &mut Turn,
    d: usize,
    at: Sq,
    from: Sq,
) -> Option<Stop> {
    let i = turn.i;
    let who = s.intruders[i].agent.title();
    let grade = s.intruders[i].profile().combat;
    let (f, p) = c.test(skills::ATTACK_3D6, grade);
    c.table().say(format_args!(
        "{who} sneak-attacks the Sentry at {at} ({})",
        faces(&f)
    ));
    if p >= 1 {
        combat::kill(s, c.table(), Who::D(d));
        c.table()
            .say(format_args!("The Sentry at {at} is eliminated"));
        turn.free_conceal = true;
        None
    } else {
        combat::alert_sentry(s, c.table(), d, from);
        combat::expose(s, c.table(), i, Some(d));
        Some(format!(
            "{who}'s sneak-attack failed; he is exposed and his turn ends"
        ))
    }
}

/// CONCEAL (summary, "Conceal"): "a corpse marker in an adjacent square"; free after a
/// sneak-attack.
fn check_conceal(s: &State, turn: &Turn, at: Sq, method: Method) -> Result<Plan, RuleError> {
    let i = turn.i;
    adjacent_sq(s, i, at)?;
    let marker = s
        .markers
        .iter()
        .position(|m| m.sq == at && matches!(m.kind, MarkerKind::Corpse { .. }))
        .ok_or_else(|| err("Conceal", format!("there is no corpse marker at {at}")))?;
    spend_ok(s, i, method, "concealing")?;
    let free = turn.free_conceal;
    if !free {
        turn.check_action(false)?;
    }
    Ok(Plan::Conceal {
        marker,
        at,
        method,
        free,
    })
}

fn conceal(s: &mut State, c: &mut Course, i: usize, m: usize, at: Sq, method: Method) {
    let grade = s.intruders[i].profile().stealth;
    let ok = method_test(
        s,
        c,
        i,
        method,
        grade,
        skills::SPEND_TIME_DICE,
        &format!("concealing the body at {at}"),
    );
    let marker = s.markers[m].clone();
    take_equipment(s, c.table(), i, &marker);
    if ok {
        s.markers.remove(m);
        c.table().say(format_args!("The body is disposed of"));
    } else {
        let mk = &mut s.markers[m];
        mk.kind = MarkerKind::Alert;
        mk.intel.clear();
        mk.equipment.clear();
        mk.weapons.clear();
        c.table().say(format_args!(
            "Some gory detail was overlooked: an alert marker lies at {at}"
        ));
    }
}

/// COUP-DE-GRACE (summary, "Coup-de-grace"): on an adjacent unconscious enemy.
fn check_coup_de_grace(s: &State, turn: &Turn, at: Sq) -> Result<Plan, RuleError> {
    adjacent_sq(s, turn.i, at)?;
    let d = s
        .defenders
        .iter()
        .position(|d| d.sq == Some(at) && d.status == Status::Unconscious)
        .ok_or_else(|| {
            err(
                "Coup-de-grace",
                format!("there is no unconscious enemy at {at}"),
            )
        })?;
    turn.check_action(false)?;
    Ok(Plan::CoupDeGrace { d, at })
}

fn coup_de_grace(s: &mut State, c: &mut Course, i: usize, d: usize, at: Sq) {
    let who = s.intruders[i].agent.title();
    let grade = s.intruders[i].profile().combat;
    let (f, p) = c.test(skills::ATTACK_3D6, grade);
    let weapon = s.intruders[i].selected;
    c.table().say(format_args!(
        "{who} administers a coup-de-grace with his {weapon} ({})",
        faces(&f)
    ));
    if p >= 1 {
        let victim = combat::name(s, Who::D(d));
        combat::kill(s, c.table(), Who::D(d));
        c.table().say(format_args!(
            "The victim is dead: {victim} is replaced by a corpse marker at {at}"
        ));
    } else {
        c.table().say(format_args!(
            "What are you, squeamish? The victim is still alive"
        ));
        combat::attacked(s, c.table(), Who::D(d), Who::I(i));
    }
    if weapon.is_firearm() {
        let sq = s.intruders[i].sq.expect("on the board");
        combat::gunshot(s, c.table(), sq);
    }
}

/// FIGHT (summary, "Fight"): an assaulter, on an adjacent standing enemy.
fn check_fight(s: &State, turn: &Turn, at: Sq) -> Result<Plan, RuleError> {
    let i = turn.i;
    if s.intruders[i].mode != Mode::Assault {
        return Err(err(
            "Combat",
            "to engage an enemy in combat you must be in assault mode",
        ));
    }
    adjacent_sq(s, i, at)?;
    let d = standing_defender_at(s, at)?;
    turn.check_action(true)?;
    Ok(Plan::Fight { d })
}

fn fight(s: &mut State, c: &mut Course, turn: &mut Turn, d: usize) -> Option<Stop> {
    let i = turn.i;
    match c {
        Course::Play(t) => combat::fight(s, &mut **t, Who::I(i), Who::D(d), false, true, true),
        Course::Plan(t) => combat::planned_fight(s, t, Who::I(i), Who::D(d)),
    }
    if s.intruders[i].status != Status::Standing {
        return Some(format!("{} is down", s.intruders[i].agent.title()));
    }
    if turn.engaged_start && !senses::intruder_engaged(s, i) {
        // Disengaged: movement as normal, and watch zones resolve at once.
        turn.engaged_start = false;
        turn.may_move = true;
        return resolve_zone(s, c, turn, false);
    }
    None
}

/// SHOOT (summary, "Shoot", "Weapons"): an assaulter with a firearm selected, at standing enemies
/// in clear LOS and not engaged; several targets (covering fire) or a burst need an SMG.
fn check_shoot(s: &State, turn: &Turn, at: &[Sq], burst: Option<Burst>) -> Result<Plan, RuleError> {
    let i = turn.i;
    if s.intruders[i].mode != Mode::Assault {
        return Err(err("Shooting", "raiders may not shoot: assault first"));
    }
    let weapon = s.intruders[i].selected;
    if !weapon.is_firearm() {
        return Err(err(
            "Weapons",
            "your selected weapon is your combat knife: change weapon to shoot",
        ));
    }
    if (at.len() > 1 || burst.is_some()) && weapon != Weapon::Smg {
        return Err(err("Weapons", "covering fire and bursts need an SMG"));
    }
    if at.len() > 1 && burst.is_some() {
        return Err(err(
            "Weapons",
            "an SMG fires either covering fire or a burst, not both",
        ));
    }
    let sq = s.intruders[i].sq.expect("on the board");
    let line = at.len() > 1 && s.covering_fire == CoveringFire::Line;
    if line {
        same_line(sq, at)?;
    }
    let mut targets = Vec::new();
    for (n, target) in at.iter().enumerate() {
        if at[..n].contains(target) {
            return Err(err(
                "Covering fire",
                "you may not attack the same target more than once",
            ));
        }
        let d = standing_defender_at(s, *target)?;
        if senses::defender_engaged(s, d) {
            return Err(err(
                "Shooting",
                format!("the target at {target} is engaged in a fight and may not be shot"),
            ));
        }
        let past: &[Sq] = if line { at } else { &[] };
        let range = senses::los_past(s, sq, *target, past).ok_or_else(|| {
            err(
                "Line of sight",
                format!("you have no clear LOS from {sq} to {target}"),
            )
        })?;
        targets.push((d, range));
    }
    turn.check_action(true)?;
    Ok(Plan::Shoot {
        weapon,
        targets,
        burst,
    })
}

fn shoot(
    s: &mut State,
    c: &mut Course,
    i: usize,
    weapon: Weapon,
    targets: &[(usize, u32)],
    burst: Option<Burst>,
) {
    for &(d, range) in targets {
        if s.defenders[d].status != Status::Standing {
            continue;
        }
        let shot = combat::Shot {
            dice: weapon.shoot_dice() as usize,
            range,
            burst,
        };
        match c {
            Course::Play(t) => combat::shoot(s, &mut **t, Who::I(i), Who::D(d), shot, true),
            Course::Plan(t) => combat::planned_shot(s, t, Who::I(i), Who::D(d), shot),
        }
    }
}

/// CHANGE WEAPON (summary, "Weapons"): a weapon he carries; a raider keeps his knife.
fn check_weapon(s: &State, turn: &Turn, weapon: Weapon) -> Result<Plan, RuleError> {
    let a = &s.intruders[turn.i];
    if !a.weapons.contains(&weapon) {
        return Err(err("Change weapon", format!("you do not carry a {weapon}")));
    }
    if a.mode == Mode::Raiding && weapon.is_firearm() {
        return Err(err(
            "Change weapon",
            "when raiding your selected weapon must be your combat knife",
        ));
    }
    turn.check_action(true)?;
    Ok(Plan::Weapon(weapon))
}

/// HIDE (summary, "Hide"): an assaulter, the whole turn, in a room not occupied by the enemy
/// with every door closed.
fn check_hide(s: &State, turn: &Turn) -> Result<Plan, RuleError> {
    let i = turn.i;
    if s.intruders[i].mode != Mode::Assault {
        return Err(err(
            "Hide",
            "only an assaulter hides (to return to raiding mode)",
        ));
    }
    let sq = s.intruders[i].sq.expect("on the board");
    let room = board()
        .room_of(sq)
        .ok_or_else(|| err("Hide", "you can only hide in a room"))?;
    if senses::enemy_room_for_intruders(s, room) {
        return Err(err("Hide", format!("room {room} is occupied by the enemy")));
    }
    if let Some(d) = board().room_doors(room).find(|d| s.door_open(d.id)) {
        return Err(err(
            "Hide",
            format!("every door of room {room} must be closed; {} is open", d.id),
        ));
    }
    if !turn.may_move || !turn.may_act {
        return Err(err("Hide", "hiding takes your whole turn"));
    }
    turn.check_action(false)?;
    // Summary, "Hide": "+1 minute for each Guard in the stronghold" — not those still outside
    // it in the entry zone.
    Ok(Plan::Hide {
        base: skills::HIDE_BASE + s.guards_in_stronghold() as u32,
    })
}

fn hide(s: &mut State, c: &mut Course, i: usize, base: u32) {
    let grade = s.intruders[i].profile().stealth;
    let (f, minutes) = c.spend_time(base, skills::HIDE_DICE, grade);
    s.take_minutes(minutes);
    let a = &mut s.intruders[i];
    a.mode = Mode::Raiding;
    a.selected = Weapon::Knife;
    let who = a.agent.title();
    c.table().say(format_args!(
        "{who} hides ({}): {minutes} minute(s) off the Mission Timer; he is raiding again",
        faces(&f)
    ));
}

fn sentry_at(s: &State, at: Sq) -> Result<usize, RuleError> {
    s.defenders
        .iter()
        .position(|d| d.sq == Some(at) && d.kind == DefKind::Sentry && d.standing())
        .ok_or_else(|| {
            err(
                "Sneak-attack",
                format!("there is no standing Sentry at {at}"),
            )
        })
}

fn standing_defender_at(s: &State, at: Sq) -> Result<usize, RuleError> {
    s.defenders
        .iter()
        .position(|d| d.sq == Some(at) && d.standing())
        .ok_or_else(|| err("Combat", format!("there is no standing enemy at {at}")))
}

/// Summary, "Take equipment": after attempting to conceal a friendly body take what it held;
/// after a Commander's body, the Master Key and whatever he captured.
fn take_equipment(s: &mut State, t: &mut dyn Table, i: usize, m: &super::state::Marker) {
    let MarkerKind::Corpse { of } = &m.kind else {
        return;
    };
    let a = &mut s.intruders[i];
    let who = a.agent.title();
    if of == "commander" && !a.equipment.contains(&Equipment::MasterKey) {
        a.equipment.push(Equipment::MasterKey);
        t.say(format_args!("{who} takes the Stronghold Master Key"));
    }
    if !m.intel.is_empty() || !m.equipment.is_empty() || !m.weapons.is_empty() {
        a.intel.extend(m.intel.iter().copied());
        for e in &m.equipment {
            if !a.equipment.contains(e) {
                a.equipment.push(*e);
            }
        }
        for w in &m.weapons {
            if !a.weapons.contains(w) {
                a.weapons.push(*w);
            }
        }
        t.say(format_args!("{who} takes what the body carried"));
    }
}

/// INTRUDER RECOVER (summary): d6 Survival; a First Aid Kit (his own, or an adjacent friend's)
/// re-rolls a failure; failing costs minutes equal to the die, or an heroic sacrifice when that
/// would run the Mission Timer out. On the order's course he recovers.
fn recover(s: &mut State, c: &mut Course, turn: &mut Turn, to: Mode) -> Option<Stop> {
    let i = turn.i;
    let who = s.intruders[i].agent.title();
    if let Course::Play(t) = c {
        let face = recovery_roll(s, &mut **t, i);
        if !s.intruders[i].profile().survival.passes(face) {
            if s.intruders[i].sacrifice && s.minutes - face as i32 <= 0 {
                combat::kill(s, &mut **t, Who::I(i));
                t.say(format_args!(
                    "{who} makes an heroic sacrifice rather than run the Mission Timer out"
                ));
                return None;
            }
            s.take_minutes(face);
            t.say(format_args!(
                "{who} stays down: {face} minute(s) off the Mission Timer"
            ));
            return None;
        }
    }
    let a = &mut s.intruders[i];
    a.status = Status::Standing;
    a.mode = to;
    c.table().say(format_args!(
        "{who} recovers in {} mode",
        if to == Mode::Raiding {
            "raiding"
        } else {
            "assault"
        }
    ));
    turn.may_move = false;
    resolve_zone(s, c, turn, true)
}

/// The recovery die, re-rolled once with a First Aid Kit at hand.
fn recovery_roll(s: &State, t: &mut dyn Table, i: usize) -> u32 {
    let who = s.intruders[i].agent.title();
    let sq = s.intruders[i].sq.expect("on the board");
    let grade = s.intruders[i].profile().survival;
    let mut face = t.d6(true);
    let kit = s.intruders.iter().enumerate().any(|(j, a)| {
        a.equipment.contains(&Equipment::FirstAidKit)
            && a.sq.is_some()
            && (j == i || (a.standing() && a.sq.is_some_and(|q| senses::adjacent(s, q, sq))))
    });
    let mut text = format!("{who} tries to recover ({face}");
    if !grade.passes(face) && kit {
        face = t.d6(true);
        text.push_str(&format!(", First Aid Kit re-roll {face}"));
    }
    text.push(')');
    t.say(format_args!("{text}"));
    face
}
