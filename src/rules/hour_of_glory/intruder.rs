//! An Intruder's turn: one order — movement and an action, with bonus actions — carried out
//! clause by clause and square by square, testing where the rules demand (SNEAK, EVADE, REACT)
//! and stopping where they end the turn (summary, "Agent activity", "The Intruders", "Raider",
//! "Raider/Assaulter" and "Assaulter" activities; "Watch zones", "Doors", "Intelligence cards").

use super::agents::{DefKind, Equipment, Mode, Weapon};
use super::board::{board, DoorId, Sq};
use super::combat::{self, Who};
use super::order::{describe_istep, IStep};
use super::senses;
use super::skills::{self, faces, Evade, Method, React, Table, EVADE_TABLE, REACT_TABLE};
use super::state::{CoveringFire, MarkerKind, State, Status};
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
    fn use_move(&mut self) -> Result<(), RuleError> {
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
        self.moved += 1;
        if self.either {
            self.either = false;
            self.may_act = false;
            self.bonus_attack = false;
        }
        Ok(())
    }

    fn use_action(&mut self, attack: bool) -> Result<(), RuleError> {
        if attack && self.bonus_attack {
            self.bonus_attack = false;
        } else if self.action_used || !self.may_act {
            return Err(err(
                "Actions",
                "you have no action left this turn: an agent performs one action per turn",
            ));
        } else {
            self.action_used = true;
        }
        if self.either {
            self.either = false;
            self.may_move = false;
        }
        Ok(())
    }
}

/// Runs an Intruder's order. `Ok(Some(reason, rest))` when the turn stopped early.
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

pub fn run(s: &mut State, t: &mut dyn Table, i: usize, steps: &[IStep]) -> super::order::Ran {
    let rest = |k: usize| steps[k..].iter().map(describe_istep).collect::<Vec<_>>();
    let a = &s.intruders[i];
    if a.status == Status::Unconscious
        && (steps.len() != 1 || !matches!(steps[0], IStep::Recover { .. } | IStep::Pass))
    {
        {
            return Err((
                err(
                    "Wounds",
                    "an unconscious agent may take no part in the game until he recovers: order 'recover raiding', 'recover assault' or 'pass'",
                ),
                rest(0),
            ));
        }
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
        if let Err(e) = go_assault(s, t, i, *weapon) {
            return Err((e, rest(0)));
        }
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
        } else if let Some(stop) = resolve_zone(s, t, &mut turn, true) {
            return Ok(Some((stop, rest(k))));
        }
    }
    while k < steps.len() {
        let step = &steps[k];
        let r = match step {
            IStep::Move { path } => match walk(s, t, &mut turn, path) {
                Ok(None) => Ok(None),
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
            },
            _ => act(s, t, &mut turn, step),
        };
        match r {
            Ok(None) => {}
            Ok(Some(stop)) => return Ok(Some((stop, rest(k + 1)))),
            Err(e) => return Err((e, rest(k))),
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
fn go_assault(
    s: &mut State,
    t: &mut dyn Table,
    i: usize,
    weapon: Option<Weapon>,
) -> Result<(), RuleError> {
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
    Ok(())
}

/// The watch zones and enemy-occupied rooms an Intruder finds himself in (summary, "Watch
/// zones": "always resolved in the Intruder's turn; as soon as the Intruder finds himself in a
/// zone"; "Evade"; "React"). `start` is the start of the turn (or a recovery).
fn resolve_zone(s: &mut State, t: &mut dyn Table, turn: &mut Turn, start: bool) -> Option<Stop> {
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
        let (f, passes) = skills::test(t, dice, grade, true);
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
        t.say(format_args!(
            "{who} must EVADE at {sq} ({dice}d6: {}): {passes} passes",
            faces(&f)
        ));
        match result {
            Evade::Exposed => {
                combat::expose(s, t, i, watchers.first().copied());
                Some(format!(
                    "{who} failed to evade and is exposed; his turn ends"
                ))
            }
            Evade::TurnEnds => Some(format!("{who} stays hidden but his turn ends")),
            Evade::StandDownMoveOrAct | Evade::StandDownFull => {
                stand_down(s, t, &watchers);
                if result == Evade::StandDownMoveOrAct {
                    turn.either = true;
                }
                None
            }
        }
    } else {
        react(s, t, turn, dice, "a watch zone")
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
fn react(
    s: &mut State,
    t: &mut dyn Table,
    turn: &mut Turn,
    dice: usize,
    why: &str,
) -> Option<Stop> {
    let i = turn.i;
    let a = &s.intruders[i];
    let grade = a.profile().survival;
    let who = a.agent.title();
    let (mut f, mut passes) = skills::test(t, dice, grade, true);
    if a.selected == Weapon::Handgun && turn.will_shoot {
        if let Some(k) = f.iter().position(|&x| !grade.passes(x)) {
            f[k] = t.d6(true);
            passes = f.iter().filter(|&&x| grade.passes(x)).count() as u32;
        }
    }
    t.say(format_args!(
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
    t: &mut dyn Table,
    turn: &mut Turn,
    path: &[Sq],
) -> Result<Option<(Stop, usize)>, (RuleError, usize)> {
    let i = turn.i;
    let b = board();
    for (n, &to) in path.iter().enumerate() {
        let from = s.intruders[i]
            .sq
            .expect("a standing Intruder is on the board");
        let a = &s.intruders[i];
        if a.status != Status::Standing {
            return Err((err("Movement", "an unconscious agent may not move"), n));
        }
        // Summary, "Fighting": "If you are not engaged at the start of your turn, you may move
        // through squares adjacent to an enemy" — engagement is judged at the turn's start.
        if turn.engaged_start && senses::intruder_engaged(s, i) {
            return Err((
                err(
                    "Fighting",
                    format!(
                        "{} is engaged in a fight at {from} and may not move",
                        a.agent.title()
                    ),
                ),
                n,
            ));
        }
        let link = b.links(from).iter().find(|l| l.to == to).copied();
        let Some(link) = link else {
            return Err((
                err("Movement", format!("{to} is not adjacent to {from}")),
                n,
            ));
        };
        if let Some(d) = link.door {
            if !s.door_open(d) {
                return Err((
                    err(
                        "Doors",
                        format!("{d} between {from} and {to} is closed: breach or open it first"),
                    ),
                    n,
                ));
            }
        }
        let escaping = b.is_entry(to) && !b.is_entry(from);
        if b.is_entry(from) && b.is_entry(to) && a.inside {
            return Err((
                err(
                    "Movement",
                    "an Intruder who has left cannot walk about outside",
                ),
                n,
            ));
        }
        let last = n + 1 == path.len();
        if !escaping {
            if let Some(occ) = s.occupant(to) {
                let passable = match occ {
                    super::state::Occupant::Intruder(j) => j != i,
                    super::state::Occupant::Defender(d) => !s.defenders[d].standing(),
                };
                let watched = !senses::watchers(s, to).is_empty()
                    || !senses::sentries_hearing(s, to, 4).is_empty()
                    || b.room_of(to)
                        .is_some_and(|r| senses::enemy_room_for_intruders(s, r));
                if last || !passable || watched {
                    return Err((
                        err(
                            "Occupied squares",
                            format!(
                                "{to} is occupied: you may pass through a standing friend or a prone agent, but not stop there, and not pass where an enemy watches or a Sentry can hear"
                            ),
                        ),
                        n,
                    ));
                }
            }
            if a.mode == Mode::Raiding {
                if let Some(r) = b.room_of(to) {
                    if b.room_of(from) != Some(r) && senses::enemy_room_for_intruders(s, r) {
                        return Err((
                            err(
                                "Raiding",
                                format!(
                                    "room {r} is occupied by the enemy: a raider may not enter it"
                                ),
                            ),
                            n,
                        ));
                    }
                }
            }
        }
        turn.use_move().map_err(|e| (e, n))?;
        turn.last_door = link.door;
        // Summary, "Entering a room": occupation as it stood before he came in.
        let entering_enemy_room = b
            .room_of(to)
            .filter(|&r| b.room_of(from) != Some(r))
            .is_some_and(|r| senses::enemy_room_for_intruders(s, r));
        let a = &mut s.intruders[i];
        let who = a.agent.title();
        if escaping {
            a.status = Status::Escaped;
            a.sq = None;
            t.say(format_args!(
                "{who} escapes through the entrance with {} intelligence card(s)",
                a.intel.len()
            ));
            return Ok(Some((format!("{who} has escaped"), n + 1)));
        }
        a.sq = Some(to);
        if !b.is_entry(to) {
            a.inside = true;
        }
        let entered_room = b.room_of(to).filter(|&r| b.room_of(from) != Some(r));
        if let Some(r) = entered_room {
            explore(s, t, i, r);
        }
        // Sneaking and hearing range (summary, "Sneak"; "Sentries").
        let hearing: Vec<usize> = senses::sentries_hearing(s, to, 4)
            .into_iter()
            .filter(|&d| s.defenders[d].alert.is_none())
            .collect();
        if !hearing.is_empty() {
            if s.intruders[i].mode == Mode::Raiding {
                let grade = s.intruders[i].profile().stealth;
                let ok = match turn.sneak {
                    Method::TakeChance => {
                        let (f, p) = skills::test(t, 1, grade, true);
                        t.say(format_args!("{who} sneaks to {to} ({})", faces(&f)));
                        p >= 1
                    }
                    Method::SpendTime => {
                        let (f, minutes) = skills::spend_time(
                            t,
                            skills::SPEND_TIME_BASE,
                            skills::SPEND_TIME_DICE,
                            grade,
                        );
                        s.take_minutes(minutes);
                        t.say(format_args!(
                            "{who} sneaks to {to} taking time ({}): {minutes} minute(s)",
                            faces(&f)
                        ));
                        true
                    }
                };
                if !ok {
                    for d in hearing {
                        combat::alert_sentry(s, t, d, to);
                    }
                }
            } else {
                for d in hearing {
                    combat::alert_sentry(s, t, d, to);
                }
            }
        }
        if let Some(stop) = resolve_zone(s, t, turn, false) {
            return Ok(Some((stop, n + 1)));
        }
        if entered_room.is_some() && s.intruders[i].mode == Mode::Assault && entering_enemy_room {
            if let Some(stop) = react(s, t, turn, 1, "entering an enemy occupied room") {
                return Ok(Some((stop, n + 1)));
            }
        }
    }
    Ok(None)
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
    t: &mut dyn Table,
    i: usize,
    method: Method,
    grade: super::agents::Grade,
    time_dice: usize,
    what: &str,
) -> bool {
    let who = s.intruders[i].agent.title();
    match method {
        Method::TakeChance => {
            let (f, p) = skills::test(t, 1, grade, true);
            t.say(format_args!(
                "{who} takes a chance on {what} ({})",
                faces(&f)
            ));
            p >= 1
        }
        Method::SpendTime => {
            let (f, minutes) = skills::spend_time(t, skills::SPEND_TIME_BASE, time_dice, grade);
            s.take_minutes(minutes);
            t.say(format_args!(
                "{who} spends time on {what} ({}): {minutes} minute(s) off the Mission Timer",
                faces(&f)
            ));
            true
        }
    }
}

fn act(
    s: &mut State,
    t: &mut dyn Table,
    turn: &mut Turn,
    step: &IStep,
) -> Result<Option<Stop>, RuleError> {
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
    let mode = s.intruders[i].mode;
    match step {
        IStep::Pass => Ok(None),
        IStep::Assault { .. } | IStep::Move { .. } => unreachable!("handled by run"),
        IStep::Sneak { method } => {
            spend_ok(s, i, *method, "sneaking")?;
            turn.sneak = *method;
            Ok(None)
        }
        IStep::Breach { door, method } => {
            adjacent_to_door(s, i, *door)?;
            spend_ok(s, i, *method, "a breach")?;
            if s.door_open(*door) {
                return Err(err("Breach", format!("{door} is already open")));
            }
            if board().door(*door).unlocked {
                return Err(err(
                    "Doors",
                    format!("{door} is not locked: order 'open {door}'"),
                ));
            }
            turn.use_action(false)?;
            let kit = s.intruders[i]
                .equipment
                .contains(&Equipment::CovertEntryKit);
            let grade = s.intruders[i].profile().technique;
            let dice = if kit {
                skills::KIT_DICE
            } else {
                skills::SPEND_TIME_DICE
            };
            if method_test(s, t, i, *method, grade, dice, &format!("breaching {door}")) {
                s.doors_open[door.index()] = true;
                t.say(format_args!("{door} is unlocked and opened"));
            } else {
                t.say(format_args!("{door} stays closed"));
            }
            Ok(None)
        }
        IStep::Open { door } => {
            adjacent_to_door(s, i, *door)?;
            if s.door_open(*door) {
                return Err(err("Doors", format!("{door} is already open")));
            }
            let d = board().door(*door);
            let key = s.intruders[i].equipment.contains(&Equipment::MasterKey);
            if !d.unlocked && !key {
                return Err(err(
                    "Doors",
                    format!("{door} is locked: breach it, or carry the Stronghold Master Key"),
                ));
            }
            turn.use_action(false)?;
            s.doors_open[door.index()] = true;
            t.say(format_args!("{who} opens {door}"));
            Ok(None)
        }
        IStep::Close { door } => {
            adjacent_to_door(s, i, *door)?;
            if !s.door_open(*door) {
                return Err(err("Doors", format!("{door} is already closed")));
            }
            if board().door(*door).entrance {
                return Err(err(
                    "Doors",
                    "the breached stronghold entrance may not be closed",
                ));
            }
            if turn.last_door == Some(*door) && turn.may_move && turn.moved < turn.allowance {
                turn.moved += 1;
            } else {
                turn.use_action(false)?;
            }
            s.doors_open[door.index()] = false;
            t.say(format_args!("{who} closes {door}"));
            combat::door_closed(s, t, *door);
            Ok(None)
        }
        IStep::Spy { method } => {
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
            spend_ok(s, i, *method, "spying")?;
            turn.use_action(false)?;
            let camera = s.intruders[i].equipment.contains(&Equipment::SpyCamera);
            let grade = s.intruders[i].profile().technique;
            let dice = if camera {
                skills::KIT_DICE
            } else {
                skills::SPEND_TIME_DICE
            };
            if method_test(
                s,
                t,
                i,
                *method,
                grade,
                dice,
                &format!("spying in room {room}"),
            ) {
                let card = s.rooms[room as usize - 1].card.take().expect("checked");
                s.intruders[i].intel.push(card);
                t.say(format_args!("{who} takes the intelligence card: {card}"));
            } else {
                t.say(format_args!("{who} finds nothing yet"));
            }
            Ok(None)
        }
        IStep::SneakAttack { at } => {
            let sq = adjacent_sq(s, i, *at)?;
            if mode != Mode::Raiding {
                return Err(err("Sneak-attack", "only a raider can sneak-attack"));
            }
            let d = sentry_at(s, *at)?;
            if senses::in_watch_zone(s, d, sq) {
                return Err(err(
                    "Sneak-attack",
                    format!("the Sentry at {at} has you in his watch zone"),
                ));
            }
            turn.use_action(false)?;
            let grade = s.intruders[i].profile().combat;
            let (f, p) = skills::test(t, skills::ATTACK_3D6, grade, true);
            t.say(format_args!(
                "{who} sneak-attacks the Sentry at {at} ({})",
                faces(&f)
            ));
            if p >= 1 {
                combat::kill(s, t, Who::D(d));
                t.say(format_args!("The Sentry at {at} is eliminated"));
                turn.free_conceal = true;
                Ok(None)
            } else {
                combat::alert_sentry(s, t, d, sq);
                combat::expose(s, t, i, Some(d));
                Ok(Some(format!(
                    "{who}'s sneak-attack failed; he is exposed and his turn ends"
                )))
            }
        }
        IStep::Conceal { at, method } => {
            // Summary, "Conceal": "a corpse marker in an adjacent square".
            adjacent_sq(s, i, *at)?;
            let m = s
                .markers
                .iter()
                .position(|m| m.sq == *at && matches!(m.kind, MarkerKind::Corpse { .. }))
                .ok_or_else(|| err("Conceal", format!("there is no corpse marker at {at}")))?;
            spend_ok(s, i, *method, "concealing")?;
            if turn.free_conceal {
                turn.free_conceal = false;
            } else {
                turn.use_action(false)?;
            }
            let grade = s.intruders[i].profile().stealth;
            let ok = method_test(
                s,
                t,
                i,
                *method,
                grade,
                skills::SPEND_TIME_DICE,
                &format!("concealing the body at {at}"),
            );
            let marker = s.markers[m].clone();
            take_equipment(s, t, i, &marker);
            if ok {
                s.markers.remove(m);
                t.say(format_args!("The body is disposed of"));
            } else {
                let mk = &mut s.markers[m];
                mk.kind = MarkerKind::Alert;
                mk.intel.clear();
                mk.equipment.clear();
                mk.weapons.clear();
                t.say(format_args!(
                    "Some gory detail was overlooked: an alert marker lies at {at}"
                ));
            }
            Ok(None)
        }
        IStep::CoupDeGrace { at } => {
            adjacent_sq(s, i, *at)?;
            let d = s
                .defenders
                .iter()
                .position(|d| d.sq == Some(*at) && d.status == Status::Unconscious)
                .ok_or_else(|| {
                    err(
                        "Coup-de-grace",
                        format!("there is no unconscious enemy at {at}"),
                    )
                })?;
            turn.use_action(false)?;
            let grade = s.intruders[i].profile().combat;
            let (f, p) = skills::test(t, skills::ATTACK_3D6, grade, true);
            let weapon = s.intruders[i].selected;
            t.say(format_args!(
                "{who} administers a coup-de-grace with his {weapon} ({})",
                faces(&f)
            ));
            if p >= 1 {
                let victim = combat::name(s, Who::D(d));
                combat::kill(s, t, Who::D(d));
                t.say(format_args!(
                    "The victim is dead: {victim} is replaced by a corpse marker at {at}"
                ));
            } else {
                t.say(format_args!(
                    "What are you, squeamish? The victim is still alive"
                ));
                combat::attacked(s, t, Who::D(d), Who::I(i));
            }
            if weapon.is_firearm() {
                let sq = s.intruders[i].sq.expect("on the board");
                combat::gunshot(s, t, sq);
            }
            Ok(None)
        }
        IStep::Fight { at } => {
            if mode != Mode::Assault {
                return Err(err(
                    "Combat",
                    "to engage an enemy in combat you must be in assault mode",
                ));
            }
            adjacent_sq(s, i, *at)?;
            let d = standing_defender_at(s, *at)?;
            turn.use_action(true)?;
            combat::fight(s, t, Who::I(i), Who::D(d), false, true, true);
            if s.intruders[i].status != Status::Standing {
                return Ok(Some(format!("{who} is down")));
            }
            if turn.engaged_start && !senses::intruder_engaged(s, i) {
                // Disengaged: movement as normal, and watch zones resolve at once.
                turn.engaged_start = false;
                turn.may_move = true;
                if let Some(stop) = resolve_zone(s, t, turn, false) {
                    return Ok(Some(stop));
                }
            }
            Ok(None)
        }
        IStep::Shoot { at, burst } => {
            if mode != Mode::Assault {
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
            turn.use_action(true)?;
            for (d, range) in targets {
                if s.defenders[d].status == Status::Standing {
                    let shot = combat::Shot {
                        dice: weapon.shoot_dice() as usize,
                        range,
                        burst: *burst,
                    };
                    combat::shoot(s, t, Who::I(i), Who::D(d), shot, true);
                }
            }
            if weapon == Weapon::Rifle {
                turn.may_move = false;
            }
            Ok(None)
        }
        IStep::Weapon { weapon } => {
            if !s.intruders[i].weapons.contains(weapon) {
                return Err(err("Change weapon", format!("you do not carry a {weapon}")));
            }
            if mode == Mode::Raiding && weapon.is_firearm() {
                return Err(err(
                    "Change weapon",
                    "when raiding your selected weapon must be your combat knife",
                ));
            }
            turn.use_action(true)?;
            s.intruders[i].selected = *weapon;
            t.say(format_args!("{who} takes up his {weapon}"));
            Ok(None)
        }
        IStep::Hide => {
            if mode != Mode::Assault {
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
            turn.use_action(false)?;
            // Summary, "Hide": "+1 minute for each Guard in the stronghold" — not those
            // still outside it in the entry zone.
            let base = skills::HIDE_BASE + s.guards_in_stronghold() as u32;
            let grade = s.intruders[i].profile().stealth;
            let (f, minutes) = skills::spend_time(t, base, skills::HIDE_DICE, grade);
            s.take_minutes(minutes);
            let a = &mut s.intruders[i];
            a.mode = Mode::Raiding;
            a.selected = Weapon::Knife;
            t.say(format_args!(
                "{who} hides ({}): {minutes} minute(s) off the Mission Timer; he is raiding again",
                faces(&f)
            ));
            Ok(None)
        }
        IStep::Recover { mode: to } => recover(s, t, turn, *to),
    }
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
/// would run the Mission Timer out.
fn recover(
    s: &mut State,
    t: &mut dyn Table,
    turn: &mut Turn,
    to: Mode,
) -> Result<Option<Stop>, RuleError> {
    let i = turn.i;
    if s.intruders[i].status != Status::Unconscious {
        return Err(err("Recover", "only an unconscious agent recovers"));
    }
    turn.use_action(false)?;
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
    if grade.passes(face) {
        let a = &mut s.intruders[i];
        a.status = Status::Standing;
        a.mode = to;
        t.say(format_args!(
            "{who} recovers in {} mode",
            if to == Mode::Raiding {
                "raiding"
            } else {
                "assault"
            }
        ));
        turn.may_move = false;
        return Ok(resolve_zone(s, t, turn, true));
    }
    if s.intruders[i].sacrifice && s.minutes - face as i32 <= 0 {
        combat::kill(s, t, Who::I(i));
        t.say(format_args!(
            "{who} makes an heroic sacrifice rather than run the Mission Timer out"
        ));
        return Ok(None);
    }
    s.take_minutes(face);
    t.say(format_args!(
        "{who} stays down: {face} minute(s) off the Mission Timer"
    ));
    Ok(None)
}
