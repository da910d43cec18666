//! The engine's flows that the open table does not exercise, on a small test-only ruleset:
//! a multi-step order interrupted mid-way (the rest returned unexecuted), simultaneous sealed
//! submissions (each seat commits, then all reveal), and a reaction window in which silence
//! until the deadline is a pass.

use std::sync::Arc;

use despatch_core::engine::bot::{MemorySecrets, TestWorld};
use despatch_core::engine::dice::DiceStream;
use despatch_core::engine::event::Event;
use despatch_core::engine::files::{self, FileRef};
use despatch_core::engine::game::{Game, Move, Played};
use despatch_core::engine::position::{statements, unknown, PositionError, Positioned};
use despatch_core::engine::replay;
use despatch_core::engine::ruleset::{
    BotRng, Ctx, Erased, Outcome, Prompt, PromptKind, RuleError, Rules, RulesetInfo, ScenarioInfo,
    Seat, SeatDef, Setup, Viewer,
};
use despatch_core::engine::verify::verify;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// Two seats, `red` and `blue`. First both seal a plan; when both are in, both are revealed.
/// Then red marches (a multi-step order: each step rolls a d6, a 1 halts the march) or attacks;
/// an attack opens a reaction window for blue, who may counter or let the deadline pass.
struct Skirmish;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Phase {
    Planning,
    RedToAct,
    BlueMayReact,
    Over,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct State {
    phase: Phase,
    sealed: Vec<(String, String)>,
    plans: Vec<(String, String)>,
    position: u32,
    log: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Command {
    Plan { plan: Option<String> },
    March { steps: Vec<String> },
    Attack,
    Counter,
}

fn red() -> Seat {
    Seat::parse("red").unwrap()
}
fn blue() -> Seat {
    Seat::parse("blue").unwrap()
}

impl Rules for Skirmish {
    type State = State;
    type Command = Command;

    fn versions(&self) -> &'static [&'static str] {
        &["1"]
    }

    fn info(&self) -> RulesetInfo {
        RulesetInfo {
            id: "skirmish".into(),
            version: "1".into(),
            title: "test-only".into(),
            scenarios: vec![ScenarioInfo {
                id: "default".into(),
                title: "t".into(),
                seats: vec!["red".into(), "blue".into()],
                min_seats: 2,
                max_seats: 2,
                roles: Vec::new(),
                practice: false,
            }],
            options: Vec::new(),
            grammar: "plan <text> | march <step> <step> … | attack | counter".into(),
        }
    }

    fn setup(&self, _setup: &Setup, _hidden: &mut DiceStream) -> Result<State, RuleError> {
        Ok(State {
            phase: Phase::Planning,
            sealed: Vec::new(),
            plans: Vec::new(),
            position: 0,
            log: Vec::new(),
        })
    }

    fn prompts(&self, s: &State) -> Vec<Prompt> {
        let p = |seat: Seat, kind, pass| Prompt {
            seat,
            kind,
            decision: String::new(),
            options: Vec::new(),
            pass_on_timeout: pass,
        };
        match s.phase {
            Phase::Planning => [red(), blue()]
                .into_iter()
                .filter(|seat| !s.sealed.iter().any(|(who, _)| who == seat.as_str()))
                .map(|seat| p(seat, PromptKind::Sealed, false))
                .collect(),
            Phase::RedToAct => vec![p(red(), PromptKind::Turn, false)],
            Phase::BlueMayReact => vec![p(blue(), PromptKind::Reaction, true)],
            Phase::Over => Vec::new(),
        }
    }

    fn seal(&self, c: &Command) -> Option<(Value, Command)> {
        match c {
            Command::Plan { plan: Some(plan) } => {
                Some((json!({ "plan": plan }), Command::Plan { plan: None }))
            }
            _ => None,
        }
    }

    fn apply(
        &self,
        s: &mut State,
        seat: &Seat,
        c: &Command,
        ctx: &mut Ctx,
    ) -> Result<(), RuleError> {
        match (&s.phase, c) {
            (Phase::Planning, Command::Plan { .. }) => {
                let commitment = ctx
                    .commitment()
                    .ok_or_else(|| RuleError::new("plans", "a plan is sealed"))?
                    .to_owned();
                s.sealed.push((seat.to_string(), commitment));
                if s.sealed.len() == 2 {
                    for (_, c) in &s.sealed {
                        ctx.request_reveal(c.clone());
                    }
                }
                Ok(())
            }
            (Phase::RedToAct, Command::March { steps }) => {
                if steps.is_empty() {
                    return Err(RuleError::new("march", "name at least one step"));
                }
                for (i, step) in steps.iter().enumerate() {
                    if ctx.roll(6) == 1 {
                        ctx.interrupt(
                            format!("the march halts before {step}: a 1 was rolled"),
                            steps[i..].to_vec(),
                        );
                        break;
                    }
                    s.position += 1;
                    ctx.say(format!("red marches to {step}"));
                }
                Ok(())
            }
            (Phase::RedToAct, Command::Attack) => {
                s.phase = Phase::BlueMayReact;
                ctx.say("red attacks; blue may counter until the deadline");
                Ok(())
            }
            (Phase::BlueMayReact, Command::Counter) => {
                let die = ctx.roll(6);
                s.log.push(format!("counter {die}"));
                s.phase = Phase::Over;
                Ok(())
            }
            _ => Err(RuleError::new(
                "sequence",
                format!("{c:?} is not possible now"),
            )),
        }
    }

    fn reveal(
        &self,
        s: &mut State,
        seat: &Seat,
        _c: &str,
        choice: &Value,
        _ctx: &mut Ctx,
    ) -> Result<(), RuleError> {
        s.plans.push((
            seat.to_string(),
            choice["plan"].as_str().unwrap_or_default().to_owned(),
        ));
        if s.plans.len() == 2 {
            s.phase = Phase::RedToAct;
        }
        Ok(())
    }

    fn timeout(&self, s: &mut State, seat: &Seat, ctx: &mut Ctx) -> Result<(), RuleError> {
        s.log.push(format!("{seat} let the window pass"));
        ctx.say("the attack goes in unopposed");
        s.phase = Phase::Over;
        Ok(())
    }

    fn resign(&self, s: &mut State, _seat: &Seat, _ctx: &mut Ctx) -> Result<(), RuleError> {
        s.phase = Phase::Over;
        Ok(())
    }

    fn view(&self, s: &State, _viewer: &Viewer) -> Value {
        json!({ "phase": s.phase, "sealed": s.sealed.len(), "plans": s.plans, "position": s.position })
    }

    fn parse(&self, _s: &State, _seat: &Seat, text: &str) -> Result<Command, RuleError> {
        let mut words = text.split_whitespace();
        match words.next() {
            Some("plan") => Ok(Command::Plan {
                plan: Some(words.collect::<Vec<_>>().join(" ")),
            }),
            Some("march") => Ok(Command::March {
                steps: words.map(str::to_owned).collect(),
            }),
            Some("attack") => Ok(Command::Attack),
            Some("counter") => Ok(Command::Counter),
            _ => Err(RuleError::new("orders", format!("unknown order '{text}'"))),
        }
    }

    fn describe(&self, c: &Command) -> String {
        match c {
            Command::Plan { plan } => format!("plan {}", plan.clone().unwrap_or_default()),
            Command::March { steps } => format!("march {}", steps.join(" ")),
            Command::Attack => "attack".into(),
            Command::Counter => "counter".into(),
        }
    }

    fn outcome(&self, s: &State) -> Outcome {
        match s.phase {
            Phase::Over => Outcome::Finished {
                winners: vec![red()],
                scores: Default::default(),
                summary: "over".into(),
            },
            _ => Outcome::Running,
        }
    }

    fn random_command(&self, _s: &State, _seat: &Seat, _rng: BotRng) -> Option<Command> {
        None
    }

    /// `phase planning|red|blue-may-react|over`, `at <n>` (the march's position), `plan <seat>:
    /// <text>` (a plan already revealed).
    fn position(
        &self,
        setup: &Setup,
        text: &str,
        hidden: &mut DiceStream,
    ) -> Result<Positioned<State>, PositionError> {
        let mut state = self
            .setup(setup, hidden)
            .map_err(|e| PositionError::new(0, e.to_string()))?;
        for s in statements(text) {
            match s.keyword() {
                "phase" => {
                    state.phase = match s.word(1, "a phase")? {
                        "planning" => Phase::Planning,
                        "red" => Phase::RedToAct,
                        "blue-may-react" => Phase::BlueMayReact,
                        "over" => Phase::Over,
                        w => return Err(s.error(format!("'{w}' is not a phase"))),
                    }
                }
                "at" => state.position = s.number(1, "a position")?,
                "plan" => {
                    let seat = s.word(1, "a seat")?.trim_end_matches(':');
                    let plan = s
                        .after_colon()
                        .ok_or_else(|| s.error("write plan <seat>: <text>"))?;
                    state.plans.push((seat.to_owned(), plan.to_owned()));
                }
                _ => return Err(unknown(&s, &["phase", "at", "plan"])),
            }
        }
        Ok(Positioned::new(state))
    }

    fn position_format(&self) -> &'static str {
        "phase planning|red|blue-may-react|over · at <n> · plan <seat>: <text>"
    }
}

struct Table {
    game: Game,
    events: Vec<Event>,
    secrets: MemorySecrets,
    world: TestWorld,
}

fn setup() -> Setup {
    Setup {
        game_id: "skirmish-1".into(),
        scenario: "default".into(),
        options: json!({}),
        seats: vec![
            SeatDef {
                seat: red(),
                name: "Red".into(),
            },
            SeatDef {
                seat: blue(),
                name: "Blue".into(),
            },
        ],
    }
}

impl Table {
    fn new() -> Table {
        let mut world = TestWorld::new(42);
        let created = Game::create(Arc::new(Erased(Skirmish)), setup(), &mut world).unwrap();
        let mut secrets = MemorySecrets {
            hidden_seed: Some(created.hidden_seed),
            ..Default::default()
        };
        secrets.chains.insert(0, created.chain_tip);
        Table {
            game: created.game,
            events: vec![created.event],
            secrets,
            world,
        }
    }

    fn order(&mut self, seat: Seat, text: &str) -> Result<Played, RuleError> {
        let command = self.game.ruleset.parse(&self.game.state, &seat, text)?;
        self.play(Move::Command {
            seat,
            command,
            client_entropy: "e".into(),
        })
    }

    fn play(&mut self, mv: Move) -> Result<Played, RuleError> {
        self.play_with_files(mv, &[])
    }

    fn play_with_files(&mut self, mv: Move, files: &[FileRef]) -> Result<Played, RuleError> {
        let played = self
            .game
            .play_with_files(mv, files, &self.secrets, &mut self.world)?;
        self.secrets.keep(&played.secrets);
        self.events.extend(played.events.clone());
        self.game = played.game.clone();
        Ok(played)
    }

    fn export(&self) -> String {
        let header = json!({ "format": "despatch-log", "version": 1, "game_id": "skirmish-1", "ruleset": "skirmish",
            "ruleset_version": "1", "exported_at": "2026-11-22T07:00:00Z", "complete": self.game.ended, "events": self.events.len() });
        let mut out = format!("{header}\n");
        for e in &self.events {
            out.push_str(&serde_json::to_string(e).unwrap());
            out.push('\n');
        }
        out
    }
}

fn find(id: &str) -> Option<Arc<dyn despatch_core::engine::ruleset::Ruleset>> {
    (id == "skirmish")
        .then(|| Arc::new(Erased(Skirmish)) as Arc<dyn despatch_core::engine::ruleset::Ruleset>)
}

#[test]
fn sealed_submissions_are_committed_then_all_revealed_together() {
    let mut t = Table::new();
    let first = t.order(red(), "plan flank left").unwrap();
    assert_eq!(first.events.len(), 1);
    assert!(first.events[0].payload.get("commitment").is_some());
    let log = serde_json::to_string(&t.events).unwrap();
    assert!(
        !log.contains("flank left"),
        "the log holds only the commitment"
    );
    assert!(!t
        .game
        .view(&Viewer::Seat(blue()))
        .to_string()
        .contains("flank left"));
    // Red cannot submit twice; blue's submission closes the round and both are revealed.
    assert_eq!(
        t.order(red(), "plan again").err().expect("refused").rule,
        "turn order"
    );
    let second = t.order(blue(), "plan hold the ford").unwrap();
    let kinds: Vec<&str> = second.events.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(kinds, ["Command", "Revealed", "Revealed"]);
    let view = t.game.view(&Viewer::Spectator).to_string();
    assert!(
        view.contains("flank left") && view.contains("hold the ford"),
        "{view}"
    );
    let report = verify(&t.export(), &find);
    assert!(
        report.ok() && report.reveals_checked == 2,
        "{}",
        report.render()
    );
}

#[test]
fn an_interrupted_multi_step_order_returns_the_rest_unexecuted() {
    // Scripted dice: the third step rolls a 1.
    let script = "red: plan a\nblue: plan b\nred: march ford mill bridge wood";
    let t = replay::run(Arc::new(Erased(Skirmish)), setup(), script, vec![4, 6, 1]).unwrap();
    let march = &t.steps[2];
    let unexecuted = march.unexecuted.as_ref().expect("the march was halted");
    assert_eq!(unexecuted.rest, ["bridge", "wood"]);
    assert!(unexecuted.reason.contains("a 1 was rolled"));
    assert_eq!(t.view["position"], 2);
    // Through the real move path the halted order is one event that re-folds and verifies.
    let mut table = Table::new();
    table.order(red(), "plan a").unwrap();
    table.order(blue(), "plan b").unwrap();
    let played = table.order(red(), "march a b c d e f g h").unwrap();
    let rolled = played.events[0].dice.as_ref().unwrap().rolls.len();
    let moved = table.game.view(&Viewer::Spectator)["position"]
        .as_u64()
        .unwrap() as usize;
    match &played.applied.unexecuted {
        Some(u) => assert_eq!(moved + u.rest.len(), 8, "every step ran or was returned"),
        None => assert_eq!((moved, rolled), (8, 8)),
    }
    assert!(verify(&table.export(), &find).ok());
}

#[test]
fn silence_until_the_deadline_is_a_pass_in_a_reaction_window() {
    let mut t = Table::new();
    t.order(red(), "plan a").unwrap();
    t.order(blue(), "plan b").unwrap();
    // No pass is allowed on red's own turn.
    assert_eq!(
        t.play(Move::Timeout { seat: red() })
            .err()
            .expect("refused")
            .rule,
        "deadlines"
    );
    t.order(red(), "attack").unwrap();
    let prompts = t.game.prompts();
    assert_eq!(
        (
            prompts[0].seat.clone(),
            prompts[0].kind,
            prompts[0].pass_on_timeout
        ),
        (blue(), PromptKind::Reaction, true)
    );
    let passed = t.play(Move::Timeout { seat: blue() }).unwrap();
    assert_eq!(passed.events[0].kind, "Timeout");
    assert_eq!(passed.events[0].seat, "system");
    assert!(passed
        .applied
        .lines
        .iter()
        .any(|l| l.text.contains("unopposed")));
    assert!(t.game.ended, "the window closed and the game is over");
    let report = verify(&t.export(), &find);
    assert!(report.ok() && report.refolded, "{}", report.render());
}

#[test]
fn a_reaction_within_the_window_is_played_instead_of_the_pass() {
    let mut t = Table::new();
    t.order(red(), "plan a").unwrap();
    t.order(blue(), "plan b").unwrap();
    t.order(red(), "attack").unwrap();
    let countered = t.order(blue(), "counter").unwrap();
    assert!(
        countered.events[0].dice.is_some(),
        "the counter rolls its die from the committed chain"
    );
    assert_eq!(
        t.play(Move::Timeout { seat: blue() })
            .err()
            .expect("refused")
            .rule,
        "game over"
    );
    assert!(verify(&t.export(), &find).ok());
}

#[test]
fn a_replay_starts_from_a_position_and_shows_a_refused_step_then_goes_on() {
    // The march of the test above, from a position: no plans to seal first.
    let script = "position:\n  phase red\n  at 5\n  # a comment inside the block\n  plan red: a\nblue: counter\nred: march ford mill";
    let parsed = replay::parse_script(script).unwrap();
    assert_eq!(parsed.position.as_ref().map(|p| p.0), Some(2));
    let t = replay::run_script(
        Arc::new(Erased(Skirmish)),
        setup(),
        &parsed,
        None,
        vec![4, 6],
        replay::RunOptions {
            stop_on_refusal: false,
            views: true,
        },
    )
    .unwrap();
    assert!(t.from_position);
    let refused = t.steps[0].refused.as_ref().expect("blue may not act now");
    assert_eq!(refused.rule, "turn order");
    assert!(t.steps[0]
        .position
        .as_deref()
        .unwrap()
        .contains("\"position\": 5"));
    assert_eq!(
        t.steps[0].view.as_ref().unwrap()["position"],
        5,
        "nothing changed"
    );
    assert_eq!(t.steps[1].refused, None);
    assert_eq!(t.view["position"], 7, "the march went on from the position");
    assert!(replay::render(&t).contains("REFUSED — turn order"));
    // Stopping at the refusal keeps the march from being played.
    let stopped = replay::run_script(
        Arc::new(Erased(Skirmish)),
        setup(),
        &parsed,
        None,
        vec![4, 6],
        replay::RunOptions {
            stop_on_refusal: true,
            views: false,
        },
    )
    .unwrap();
    assert_eq!((stopped.stopped_at, stopped.steps.len()), (Some(1), 1));
    assert_eq!(stopped.view["position"], 5);
    // A bad statement names its line of the script.
    let bad =
        replay::parse_script("# ruleset: skirmish\nposition:\n  at 1\n  at many\nred: attack")
            .unwrap();
    let e = replay::run_script(
        Arc::new(Erased(Skirmish)),
        setup(),
        &bad,
        None,
        vec![],
        replay::RunOptions::default(),
    )
    .err()
    .unwrap();
    assert_eq!(bad.ruleset.as_deref(), Some("skirmish"));
    assert_eq!(e.to_string(), "position: line 4: 'many' is not a position");
}

fn attack(t: &Table) -> Move {
    Move::Command {
        seat: red(),
        command: t
            .game
            .ruleset
            .parse(&t.game.state, &red(), "attack")
            .unwrap(),
        client_entropy: "e".into(),
    }
}

fn planned() -> Table {
    let mut t = Table::new();
    t.order(red(), "plan a").unwrap();
    t.order(blue(), "plan b").unwrap();
    t
}

#[test]
fn a_move_without_files_hashes_exactly_as_before_files_existed() {
    let (mut with_none, mut plain) = (planned(), planned());
    let a = with_none.play_with_files(attack(&with_none), &[]).unwrap();
    let b = plain.play(attack(&plain)).unwrap();
    assert_eq!(a.events[0].hash, b.events[0].hash);
    assert!(
        a.events[0].payload.get("files").is_none(),
        "no `files` key when the move carries none: {}",
        a.events[0].payload
    );
    // The hash is the one the envelope without any `files` field computes.
    assert_eq!(a.events[0].compute_hash(), a.events[0].hash);
}

#[test]
fn a_move_s_files_are_listed_in_its_command_event_under_the_hash_chain() {
    let mut t = planned();
    let log = FileRef::of(
        "turn 3.vlog",
        "application/octet-stream",
        b"vassal log bytes",
    );
    let played = t
        .play_with_files(attack(&t), std::slice::from_ref(&log))
        .unwrap();
    let event = &played.events[0];
    assert_eq!(event.payload["files"], json!([log]));
    assert_eq!(files::of_event(event).unwrap(), vec![log.clone()]);
    let report = verify(&t.export(), &find);
    assert!(
        report.ok() && report.files_listed == 1,
        "{}",
        report.render()
    );
    assert!(
        report.render().contains("files: 1 file listed"),
        "{}",
        report.render()
    );
    // A listed file's hash changed in the export breaks the chain at its seq.
    let tampered = t.export().replace(&log.sha256, &"0".repeat(64));
    let report = verify(&tampered, &find);
    assert_eq!(report.failure.map(|f| f.seq), Some(event.seq));
}

#[test]
fn only_an_order_carries_files() {
    let mut t = planned();
    t.order(red(), "attack").unwrap();
    let before = t.events.len();
    let file = FileRef::of("a.png", "image/png", b"png");
    let refused = t
        .play_with_files(Move::Timeout { seat: blue() }, &[file])
        .err()
        .expect("refused");
    assert_eq!(refused.rule, "files");
    assert_eq!(t.events.len(), before, "nothing was played");
}

#[test]
fn the_files_check_names_the_seq_and_file_of_a_changed_or_missing_file() {
    let mut t = planned();
    let bytes = b"vassal save".to_vec();
    let save = FileRef::of("game.vsav", "application/octet-stream", &bytes);
    let seq = t
        .play_with_files(attack(&t), std::slice::from_ref(&save))
        .unwrap()
        .events[0]
        .seq;
    let good = files::check(&t.events, &mut |h| {
        (h == save.sha256).then(|| bytes.clone())
    });
    assert_eq!(good, Ok(1));
    let changed = files::check(&t.events, &mut |_| Some(b"vassal savE".to_vec())).unwrap_err();
    assert_eq!(changed.seq, seq);
    assert!(
        changed.problem.contains("game.vsav does not match"),
        "{}",
        changed.problem
    );
    let missing = files::check(&t.events, &mut |_| None).unwrap_err();
    assert_eq!(missing.seq, seq);
    assert!(missing.problem.contains("game.vsav") && missing.problem.contains("missing"));
}
