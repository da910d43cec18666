//! Hour of Glory (Warm Acre, 2004): a covert raid on a 1944 stronghold, one Defender against one
//! to three co-operating Intruders. The specification is the UniversalHead rules summary
//! (`../shared/seeds/001_…`); the manual's first half (`000_…`) adds the worked "Starting
//! play" rounds. Every rule, where it is enforced and tested, and every interpretation where the
//! texts are silent: docs/rules/hour-of-glory.md.
//!
//! Seats: the first seat is the Defender; the others are the Intruders in their permanent order
//! of play, playing Harris, Link and Volkov in that order unless the `agents` option names
//! others. A turn is one order; see `order` for the language.

pub mod agents;
pub mod board;
pub mod bot;
pub mod combat;
pub mod defender;
pub mod drawn;
pub mod guards;
pub mod intel;
pub mod intruder;
pub mod order;
pub mod pointing;
pub mod position;
pub mod senses;
pub mod setup;
pub mod skills;
pub mod state;
pub mod text_board;
pub mod view;

use std::cell::RefCell;
use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::engine::dice::DiceStream;
use crate::engine::ruleset::{
    newest, BotRng, Ctx, OptionInfo, Outcome, Prompt, PromptKind, RuleError, Rules, RulesetInfo,
    ScenarioInfo, Seat, Setup, Viewer,
};
use crate::engine::words::capitalised;
use agents::Mode;
use order::{Command, Standing};
use skills::{Live, Table};
use state::{Ending, Intruder, State, Status, Turn};

pub const ID: &str = "hour-of-glory";

pub struct HourOfGlory;

/// The orders' grammar in brief, for emails and pages.
pub const GRAMMAR: &str = "Intruder: clauses separated by ';' — assault [with <weapon>] · move <sq> <sq>… · sneak take-chance|spend-time · breach door-N [take-chance|spend-time] · open door-N · close door-N · spy [method] · sneak-attack <sq> · conceal <sq> [method] · coup-de-grace <sq> · fight <sq> · shoot <sq> [<sq> <sq>] [burst [range|attack]] · weapon <knife|handgun|smg|rifle> · hide · recover raiding|assault · pass · counterattack on|off · sacrifice on|off. Defender: commander move <sq>… · commander face n|e|s|w · commander open|close door-N · commander investigate <sq> · commander alarm [<sq>…] · commander fight|shoot <sq> · sentry <post> fight|shoot <sq> · guards chase <intruder> · guard <label> chase <intruder> · guard <label> move <sq>… · replace <sq> · counterattack on|off · alert-side left|right · pass";

impl HourOfGlory {
    fn advance(&self, s: &mut State) {
        let next = match s.turn {
            Turn::Intruder(i) => (i + 1..s.intruders.len()).find(|&j| active(&s.intruders[j])),
            Turn::Defender => None,
        };
        s.turn = match (s.turn, next) {
            (Turn::Intruder(_), Some(j)) => Turn::Intruder(j),
            (Turn::Intruder(_), None) => Turn::Defender,
            (Turn::Defender, _) => {
                s.round += 1;
                match (0..s.intruders.len()).find(|&j| active(&s.intruders[j])) {
                    Some(j) => Turn::Intruder(j),
                    None => Turn::Defender,
                }
            }
        };
    }

    /// Summary, "Winning the game"; manual, "Objective".
    fn settle(&self, s: &mut State) {
        if s.ended.is_some() {
            return;
        }
        let all_gone = !s.intruders.iter().any(active);
        if s.minutes > 0 && !all_gone {
            return;
        }
        let escaped: Vec<intel::Card> = s
            .intruders
            .iter()
            .filter(|a| a.status == Status::Escaped)
            .flat_map(|a| a.intel.iter().copied())
            .collect();
        let points = intel::score(&escaped);
        let needed = intel::needed(s.intruders.len());
        let win = points >= needed;
        let any_escaped = s.intruders.iter().any(|a| a.status == Status::Escaped);
        let aborted =
            !win && all_gone && any_escaped && s.minutes > 0 && s.start_minutes - s.minutes >= 30;
        let defender_points = if win {
            intel::DEFENDER_LOSES
        } else if aborted {
            intel::DEFENDER_ABORT
        } else {
            intel::DEFENDER_WINS
        };
        let summary = if win {
            format!("Mission accomplished: the Intruders escaped with {points} point(s) of intelligence (needed {needed})")
        } else if aborted {
            format!("The Intruders aborted with {points} point(s) (needed {needed}): the Defender wins with 6 points")
        } else if s.minutes <= 0 {
            format!("The Mission Timer reached zero: the Intruders escaped with {points} point(s) of {needed} needed; the Defender wins")
        } else {
            format!("No Intruder remains in the mission: {points} point(s) of {needed} needed; the Defender wins")
        };
        s.ended = Some(Ending {
            intruders_win: win,
            points,
            needed,
            defender_points,
            summary,
        });
    }

    /// Is it this seat's turn, with its side's kind of order, and standing choices its side
    /// may make?
    fn check_seat(&self, s: &State, seat: &Seat, command: &Command) -> Result<(), RuleError> {
        let (standing, is_intruder) = match command {
            Command::Intruder { standing, .. } => (standing, true),
            Command::Defender { standing, .. } => (standing, false),
        };
        let mine = match s.turn {
            Turn::Intruder(i) => is_intruder && &s.intruders[i].seat == seat,
            Turn::Defender => !is_intruder && &s.defender_seat == seat,
        };
        if !mine {
            return Err(RuleError::new(
                "turn order",
                format!(
                    "it is not {}'s turn, or that is the other side's kind of order",
                    s.role(seat)
                ),
            ));
        }
        for st in standing {
            match (st, s.turn) {
                (Standing::AlertSide { .. }, Turn::Intruder(_)) => {
                    return Err(RuleError::new(
                        "Sentries",
                        "only the Defender places the Sentries' alert markers",
                    ))
                }
                (Standing::Sacrifice { .. }, Turn::Defender) => {
                    return Err(RuleError::new(
                        "Heroic sacrifice",
                        "only Intruders make an heroic sacrifice",
                    ))
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Sets the standing choices an order makes (checked by `check_seat`).
    fn set_standing(&self, s: &mut State, t: &mut dyn Table, seat: &Seat, standing: &[Standing]) {
        for st in standing {
            match (st, s.turn) {
                (Standing::Counterattack { on }, Turn::Intruder(i)) => {
                    s.intruders[i].counterattack = *on
                }
                (Standing::Sacrifice { on }, Turn::Intruder(i)) => s.intruders[i].sacrifice = *on,
                (Standing::Counterattack { on }, Turn::Defender) => s.defender_counterattack = *on,
                (Standing::AlertSide { side }, Turn::Defender) => s.alert_side = *side,
                _ => unreachable!("checked by check_seat"),
            }
            t.say(format_args!(
                "{} sets {}",
                capitalised(&s.role(seat)),
                order::describe_standing(st)
            ));
        }
    }

    /// Checks a whole order before any die is drawn, on `course`, a copy of the state that the
    /// check leaves at the order's planned end.
    fn check_command(
        &self,
        course: &mut State,
        seat: &Seat,
        command: &Command,
    ) -> Result<(), RuleError> {
        self.check_seat(course, seat, command)?;
        match (command, course.turn) {
            (Command::Intruder { standing, steps }, Turn::Intruder(i)) => {
                self.set_standing(course, &mut skills::Silent, seat, standing);
                if steps.is_empty() {
                    return Ok(());
                }
                intruder::check(course, i, steps)
            }
            (Command::Defender { standing, steps }, Turn::Defender) => {
                self.set_standing(course, &mut skills::Silent, seat, standing);
                if steps.is_empty() {
                    return Ok(());
                }
                defender::check(course, steps)
            }
            _ => unreachable!("checked by check_seat"),
        }
    }

    fn run_command(
        &self,
        s: &mut State,
        seat: &Seat,
        command: &Command,
        t: &mut dyn Table,
    ) -> order::Ran {
        if let Err(e) = self.check_seat(s, seat, command) {
            return Err((e, Vec::new()));
        }
        let ran = match (command, s.turn) {
            (Command::Intruder { standing, steps }, Turn::Intruder(i)) => {
                self.set_standing(s, t, seat, standing);
                if steps.is_empty() {
                    // Only standing choices: the turn is not used.
                    return Ok(None);
                }
                intruder::run(s, t, i, steps)
            }
            (Command::Defender { standing, steps }, Turn::Defender) => {
                self.set_standing(s, t, seat, standing);
                if steps.is_empty() {
                    return Ok(None);
                }
                defender::run(s, t, steps)
            }
            _ => unreachable!("checked by check_seat"),
        };
        if ran.is_ok() {
            self.advance(s);
        }
        // Summary, "Winning the game": "As soon as the Mission Timer reaches 0, the game ends"
        // — also when part of the order was refused in play after the minutes ran out.
        self.settle(s);
        ran
    }
}

fn active(a: &Intruder) -> bool {
    matches!(a.status, Status::Standing | Status::Unconscious)
}

/// The rules versions this build plays, oldest first (docs/rules/hour-of-glory.md, "Rules
/// versions"): a game keeps the version it was created under for its whole life.
const VERSIONS: &[&str] = &["5"];

impl Rules for HourOfGlory {
    fn versions(&self) -> &'static [&'static str] {
        VERSIONS
    }

    type State = State;
    type Command = Command;

    fn id(&self) -> std::borrow::Cow<'static, str> {
        ID.into()
    }

    fn info(&self) -> RulesetInfo {
        RulesetInfo {
            id: ID.into(),
            // 2: a command's JSON is its text in the order language (`{"intruder": "move m21"}`);
            // the state keeps the alert-marker side and the covering-fire reading.
            // 3: an SMG burst designates its range dice once and re-rolls by the policy in the
            // order (`burst`, `burst attack`); a version-2 `shoot … burst` re-designated after
            // each re-roll, so its logs would fold differently.
            // 4: issue 19 — Guards' pursuit (the Defender's routes, doors opened from inside,
            // friends passed through, demobilising at the entrance), Sentries alerted whatever
            // the resist roll, engagement judged at the turn's start, REACT once a watch zone,
            // the timer floored at 0, the Sentry posts and Link's Ace: a version-3 log folds
            // differently.
            // 5: issue 19 — an order is checked clause by clause against the course its earlier
            // clauses plan, not played on a copy with favoured dice: the fold of every event is
            // unchanged, but two checks are stricter (a Guard's route is checked to its last
            // square, a replacement Commander's square before the Guards move), so a version-4
            // order that passed the old check could be refused by verify's re-check; the number
            // tells the two apart (docs/rules/hour-of-glory.md, Interpretation 25).
            version: newest(VERSIONS).into(),
            title: "Hour of Glory — covert raid on a 1944 stronghold".into(),
            scenarios: vec![ScenarioInfo {
                id: "mission".into(),
                title: "The mission: the Defender (first seat) against 1-3 Intruders".into(),
                seats: Vec::new(),
                min_seats: 2,
                max_seats: 4,
                // Seat ids are the players' to choose; the first seat is the Defender (2.).
                roles: ["Defender", "Intruder 1", "Intruder 2", "Intruder 3"]
                    .map(String::from)
                    .to_vec(),
                practice: false,
            }],
            options: vec![
                OptionInfo {
                    name: "agents".into(),
                    description: "the Intruders' agents in seat order (harris, link, volkov); by default Harris, Link, Volkov as the manual's first game".into(),
                    default: json!(null),
                    choices: Vec::new(),
                },
                OptionInfo {
                    name: "loadouts".into(),
                    description: "weapons and equipment chosen at set-up, e.g. {\"harris\": {\"weapons\": [\"smg\"], \"equipment\": \"first-aid-kit\"}}: firearms handgun, smg, rifle and one of covert-entry-kit, spy-camera, first-aid-kit, each card to one agent, the combat knife always; by default data/loadouts.txt (Harris handgun + Covert Entry Kit, Link SMG + Spy Camera, Volkov rifle + First Aid Kit)".into(),
                    default: json!(null),
                    choices: Vec::new(),
                },
                OptionInfo {
                    name: "covering_fire".into(),
                    description: "how SMG covering fire reads \"all targets in the same LOS\": \"line\" (default: on one straight line from the shooter) or \"any\" (each target in his LOS)".into(),
                    default: json!("line"),
                    choices: vec![json!("line"), json!("any")],
                },
                OptionInfo {
                    name: "sentries".into(),
                    description: "Sentries deployed in front of the doors the Defender chooses, facing away from them, e.g. {\"a1\": \"door-22\", \"a2\": \"q15\"}: a door (its corridor side) or the square straight in front of one, one Sentry to a door; not the door between rooms 8 and 9; Sentries not named keep their posts (the default)".into(),
                    default: json!(null),
                    choices: Vec::new(),
                },
                OptionInfo {
                    name: "entry".into(),
                    description: "the entry-zone square each Intruder starts on, e.g. {\"link\": \"m24\"}: one of l23, m23, n23, m24, one agent to a square; agents not named take the free squares in seat order".into(),
                    default: json!(null),
                    choices: Vec::new(),
                },
                OptionInfo {
                    name: "minutes".into(),
                    description: "minutes on the Mission Timer at the start (60 in the rules; a longer timer is a variant)".into(),
                    default: json!(60),
                    choices: Vec::new(),
                },
            ],
            grammar: GRAMMAR.into(),
        }
    }

    fn setup(&self, setup: &Setup, hidden: &mut DiceStream) -> Result<State, RuleError> {
        setup::setup(setup, hidden)
    }

    fn prompts(&self, s: &State) -> Vec<Prompt> {
        if s.ended.is_some() {
            return Vec::new();
        }
        let (seat, decision) = match s.turn {
            Turn::Intruder(i) => {
                let a = &s.intruders[i];
                (
                    a.seat.clone(),
                    format!(
                        "Round {}, {} minutes left: your turn, one order for {} ({})",
                        s.round,
                        s.minutes,
                        a.agent.title(),
                        match (a.status, a.mode) {
                            (Status::Unconscious, _) => "unconscious",
                            (_, Mode::Raiding) => "raiding",
                            (_, Mode::Assault) => "assaulting",
                        }
                    ),
                )
            }
            Turn::Defender => (
                s.defender_seat.clone(),
                format!(
                    "Round {}, {} minutes left: the Defender's turn, one order for the Commander, Sentries and Guards",
                    s.round, s.minutes
                ),
            ),
        };
        vec![Prompt {
            options: bot::options(s),
            seat,
            kind: PromptKind::Turn,
            decision,
            pass_on_timeout: true,
        }]
    }

    /// The seat whose turn it is, as `prompts` says, without listing its legal orders.
    fn may_act(&self, s: &State, seat: &Seat) -> bool {
        s.ended.is_none()
            && match s.turn {
                Turn::Intruder(i) => &s.intruders[i].seat == seat,
                Turn::Defender => &s.defender_seat == seat,
            }
    }

    fn apply(
        &self,
        s: &mut State,
        seat: &Seat,
        command: &Command,
        ctx: &mut Ctx,
    ) -> Result<(), RuleError> {
        if let Some(e) = &s.ended {
            return Err(RuleError::new(
                "game over",
                format!("the game is over, no more orders: {}", e.summary),
            ));
        }
        // Check, then change: the whole order is checked before any die is drawn, each clause
        // by its own check against the state as the clauses before it will have left it — a
        // projected copy of the state on which each clause takes its planned outcome
        // (`skills::Course`). A refused order leaves no trace. An order re-folded from the
        // game's own log passed this check when it was played, and the check changes nothing
        // but the copy, so it is skipped then. The copy is kept for the next order (per
        // thread), whose check overwrites it in place.
        if !ctx.already_accepted() {
            thread_local! {
                static COURSE: RefCell<Option<State>> = const { RefCell::new(None) };
            }
            let mut course = match COURSE.with(|d| d.borrow_mut().take()) {
                Some(mut d) => {
                    d.copy_from(s);
                    d
                }
                None => s.clone(),
            };
            let checked = self.check_command(&mut course, seat, command);
            COURSE.with(|d| *d.borrow_mut() = Some(course));
            checked?;
        }
        let mut live = Live { ctx };
        // "Not carried out" names what was left: an order stopped after its last clause is
        // told as a line, not as an interruption with nothing in it.
        let (reason, rest) = match self.run_command(s, seat, command, &mut live) {
            Ok(None) => return Ok(()),
            Ok(Some((reason, rest))) => (reason, rest),
            Err((e, rest)) => (format!("{}: {}", e.rule, e.message), rest),
        };
        if rest.is_empty() {
            live.ctx.say(reason);
        } else {
            live.ctx.interrupt(reason, rest);
        }
        Ok(())
    }

    fn timeout(&self, s: &mut State, seat: &Seat, ctx: &mut Ctx) -> Result<(), RuleError> {
        let command = match s.turn {
            Turn::Intruder(_) => Command::Intruder {
                standing: Vec::new(),
                steps: vec![order::IStep::Pass],
            },
            Turn::Defender => Command::Defender {
                standing: Vec::new(),
                steps: vec![order::DStep::Pass],
            },
        };
        ctx.say(format!(
            "{} missed the deadline: the turn passes",
            capitalised(&s.role(seat))
        ));
        self.apply(s, seat, &command, ctx)
    }

    fn resign(&self, s: &mut State, seat: &Seat, ctx: &mut Ctx) -> Result<(), RuleError> {
        if s.ended.is_some() {
            return Err(RuleError::new("game over", "the mission is over"));
        }
        if &s.defender_seat == seat {
            ctx.say("The Defender resigns: the Intruders win");
            s.ended = Some(Ending {
                intruders_win: true,
                points: 0,
                needed: intel::needed(s.intruders.len()),
                defender_points: intel::DEFENDER_LOSES,
                summary: "The Defender resigned".into(),
            });
            return Ok(());
        }
        let i = s
            .seat_intruder(seat)
            .ok_or_else(|| RuleError::new("seats", format!("{seat} is not in this game")))?;
        if !active(&s.intruders[i]) {
            return Err(RuleError::new(
                "resign",
                format!("{} is already out of the mission", s.role(seat)),
            ));
        }
        let role = s.role(seat);
        let a = &mut s.intruders[i];
        a.status = Status::Dead;
        a.sq = None;
        ctx.say(format!("{role} resigns and leaves the mission"));
        if s.turn == Turn::Intruder(i) {
            self.advance(s);
        }
        self.settle(s);
        Ok(())
    }

    fn board(
        &self,
        s: &State,
        viewer: &Viewer,
        _: &crate::engine::ruleset::BoardContext,
    ) -> Option<crate::engine::board::Board> {
        Some(drawn::board(s, viewer))
    }

    fn pointing(&self, s: &State, seat: &Seat) -> Vec<crate::engine::board::Pointed> {
        pointing::pointing(s, seat)
    }

    fn board_text(&self, s: &State, viewer: &Viewer) -> Option<String> {
        Some(crate::rules::fit_for_mail(&text_board::text_board(
            s, viewer,
        )))
    }

    fn view(&self, s: &State, viewer: &Viewer) -> Value {
        view::view(s, viewer)
    }

    fn parse(&self, s: &State, seat: &Seat, text: &str) -> Result<Command, RuleError> {
        if &s.defender_seat == seat {
            order::parse_defender(text)
        } else {
            order::parse_intruder(text)
        }
    }

    fn describe(&self, command: &Command) -> String {
        order::describe(command)
    }

    fn outcome(&self, s: &State) -> Outcome {
        match &s.ended {
            None => Outcome::Running,
            Some(e) => {
                let mut scores = BTreeMap::new();
                scores.insert(s.defender_seat.to_string(), i64::from(e.defender_points));
                for a in &s.intruders {
                    scores.insert(a.seat.to_string(), i64::from(e.points));
                }
                let winners = if e.intruders_win {
                    s.intruders.iter().map(|a| a.seat.clone()).collect()
                } else {
                    vec![s.defender_seat.clone()]
                };
                Outcome::Finished {
                    winners,
                    scores,
                    summary: e.summary.clone(),
                }
            }
        }
    }

    fn position(
        &self,
        setup: &Setup,
        text: &str,
        hidden: &mut DiceStream,
    ) -> Result<crate::engine::position::Positioned<State>, crate::engine::position::PositionError>
    {
        position::read(self, setup, text, hidden)
    }

    fn position_format(&self) -> &'static str {
        position::FORMAT
    }

    fn write_position(&self, state: &State) -> Option<String> {
        position::write::write(state)
    }

    fn random_command(&self, s: &State, seat: &Seat, rng: BotRng) -> Option<Command> {
        bot::random_command(s, seat, rng)
    }
}
