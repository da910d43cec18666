//! The replay sandbox: runs a script of orders against a ruleset with dice given by hand. For
//! rules examples, tutorials and bug reports — and UNVERIFIABLE by design: nothing here is
//! committed in advance, so its dice prove nothing.
//!
//! A script is one order per step, `seat: order`; an indented line continues the order above;
//! `!timeout seat` and `!resign seat` play a missed deadline or a resignation; `#` starts a
//! comment. A header of comments names the ruleset, the scenario and the seats
//! (`# ruleset: hour-of-glory`); a `position:` block, its lines indented, sets the position
//! the steps start from, in the ruleset's position format ([`super::position`]). A step the
//! rules refuse is a step of the transcript, with its error and the position it met.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use super::dice::hidden_stream;
use super::position::{sandbox_commitment, PositionError, SealedAt};
use super::ruleset::{
    Ctx, DiceSource, GameState, Line, Outcome, RuleError, Ruleset, Seat, Setup, Unexecuted, Viewer,
};

/// One step of a script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Order { seat: Seat, text: String },
    Timeout { seat: Seat },
    Resign { seat: Seat },
}

/// A script as read: its header, its position, its steps.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Script {
    /// `# ruleset: for-honor-and-glory`
    pub ruleset: Option<String>,
    /// `# scenario: queenston-heights`
    pub scenario: Option<String>,
    /// `# seats: alice, bob`
    pub seats: Vec<String>,
    /// `# dice: 3, 5, 6`: the faces to use when the command line gives none, so that a worked
    /// example runs as it is written.
    pub dice: Vec<u32>,
    /// The `position:` block: the script line of its first statement, and its text.
    pub position: Option<(usize, String)>,
    pub steps: Vec<Step>,
}

/// Reads a script; errors name the line.
///
/// A header of comment lines names the ruleset, the scenario and the seats (`# ruleset: …`,
/// `# scenario: …`, `# seats: a, b`) and may give the dice (`# dice: 3, 5`; several such lines
/// add up, in order). A line `position:` opens a position block, which holds
/// every indented line below it: the ruleset's position format, set before the first step.
pub fn parse_script(script: &str) -> Result<Script, String> {
    let mut out = Script::default();
    let mut steps: Vec<Step> = Vec::new();
    let mut in_position = false;
    for (n, raw) in script.lines().enumerate() {
        let at = n + 1;
        if in_position {
            let comment = raw.trim_start().starts_with('#');
            if raw.trim().is_empty() || raw.starts_with(char::is_whitespace) || comment {
                let raw = if comment { "" } else { raw };
                if let Some((_, text)) = &mut out.position {
                    text.push_str(raw.trim());
                    text.push('\n');
                }
                continue;
            }
            in_position = false;
        }
        if let Some(comment) = raw.trim_start().strip_prefix('#') {
            if let Some((key, value)) = comment.split_once(':') {
                let value = value.trim().to_owned();
                match key.trim() {
                    "ruleset" => out.ruleset = Some(value),
                    "scenario" => out.scenario = Some(value),
                    "seats" => {
                        out.seats = value
                            .split(',')
                            .map(|s| s.trim().to_owned())
                            .filter(|s| !s.is_empty())
                            .collect()
                    }
                    "dice" => {
                        for face in value.split(',').map(str::trim).filter(|f| !f.is_empty()) {
                            out.dice.push(face.parse().map_err(|_| {
                                format!("line {at}: '{face}' is not a die face (# dice: 3, 5, 6)")
                            })?);
                        }
                    }
                    _ => {}
                }
            }
            continue;
        }
        let line = raw.split_once(" #").map_or(raw, |(l, _)| l);
        if line.trim().is_empty() {
            continue;
        }
        if line.trim() == "position:" && !line.starts_with(char::is_whitespace) {
            if out.position.is_some() {
                return Err(format!("line {at}: a script holds one position block"));
            }
            if !steps.is_empty() {
                return Err(format!(
                    "line {at}: the position block comes before the first step"
                ));
            }
            out.position = Some((at + 1, String::new()));
            in_position = true;
            continue;
        }
        if line.starts_with(char::is_whitespace) {
            match steps.last_mut() {
                Some(Step::Order { text, .. }) => {
                    text.push('\n');
                    text.push_str(line.trim());
                    continue;
                }
                _ => {
                    return Err(format!(
                        "line {at}: an indented line continues an order, but no order is above it"
                    ))
                }
            }
        }
        let line = line.trim();
        if let Some(rest) = line.strip_prefix('!') {
            let (what, seat) = rest.split_once(' ').ok_or(format!(
                "line {at}: write !timeout <seat> or !resign <seat>"
            ))?;
            let seat = Seat::parse(seat.trim()).map_err(|e| format!("line {at}: {e}"))?;
            steps.push(match what {
                "timeout" => Step::Timeout { seat },
                "resign" => Step::Resign { seat },
                _ => {
                    return Err(format!(
                        "line {at}: unknown directive !{what}; use !timeout or !resign"
                    ))
                }
            });
            continue;
        }
        let (seat, text) = line
            .split_once(':')
            .ok_or(format!("line {at}: write 'seat: order'"))?;
        let seat = Seat::parse(seat.trim()).map_err(|e| format!("line {at}: {e}"))?;
        steps.push(Step::Order {
            seat,
            text: text.trim().to_owned(),
        });
    }
    out.steps = steps;
    Ok(out)
}

/// What one step did.
#[derive(Debug, Clone, Serialize)]
pub struct StepReport {
    pub step: usize,
    pub seat: String,
    pub order: String,
    pub lines: Vec<Line>,
    pub unexecuted: Option<Unexecuted>,
    pub dice_used: Vec<u32>,
    /// The rules refused the step: it changed nothing, and the script went on from the same
    /// position (or stopped, with `--stop-on-refusal`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<RuleError>,
    /// The position when the step was refused: the board in text, where the ruleset draws one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// The view (everything shown) after the step, when the replay keeps every step's view.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub view: Option<Value>,
}

/// A replay's whole transcript.
#[derive(Debug, Clone, Serialize)]
pub struct Transcript {
    pub unverifiable: bool,
    /// The position the replay started from was set by hand (`--position`, `position:`).
    pub from_position: bool,
    pub steps: Vec<StepReport>,
    /// The step the replay stopped at, refused, with `--stop-on-refusal`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_at: Option<usize>,
    pub outcome: Outcome,
    pub view: Value,
    pub dice_left: Vec<u32>,
}

impl Transcript {
    /// The steps the rules refused.
    pub fn refusals(&self) -> impl Iterator<Item = &StepReport> {
        self.steps.iter().filter(|s| s.refused.is_some())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    #[error("set-up: {0}")]
    Setup(RuleError),
    #[error("position: {0}")]
    Position(PositionError),
    #[error("script: {0}")]
    Script(String),
    #[error("step {step} ({seat}): {error}")]
    Rule {
        step: usize,
        seat: String,
        error: RuleError,
    },
    #[error("step {step} ({seat}): {problem}")]
    Dice {
        step: usize,
        seat: String,
        problem: String,
    },
}

/// How a replay runs.
#[derive(Debug, Clone, Copy, Default)]
pub struct RunOptions {
    /// Stop at the first refused step (else a refusal is a step and the script goes on).
    pub stop_on_refusal: bool,
    /// Keep the view after every step (`--json`).
    pub views: bool,
}

/// The sandbox: a state, the dice still to use, and the sealed choices made so far.
pub struct Sandbox {
    ruleset: Arc<dyn Ruleset>,
    pub state: GameState,
    game_id: String,
    hidden_seed: [u8; 32],
    dice: VecDeque<u32>,
    sealed: BTreeMap<String, (Seat, Value)>,
    step: usize,
    from_position: bool,
}

impl Sandbox {
    pub fn new(
        ruleset: Arc<dyn Ruleset>,
        setup: Setup,
        dice: Vec<u32>,
        hidden_seed: [u8; 32],
    ) -> Result<Self, ReplayError> {
        let state = ruleset
            .setup(&setup, &mut hidden_stream(&hidden_seed, &setup.game_id, 0))
            .map_err(ReplayError::Setup)?;
        Ok(Sandbox {
            ruleset,
            state,
            game_id: setup.game_id,
            hidden_seed,
            dice: dice.into(),
            sealed: BTreeMap::new(),
            step: 0,
            from_position: false,
        })
    }

    /// A sandbox that starts from a position set by hand: the ruleset's position format
    /// (docs/rules/<game>.md, "Positions (despatch replay)") read onto the scenario's set-up.
    pub fn from_position(
        ruleset: Arc<dyn Ruleset>,
        setup: Setup,
        position: &str,
        dice: Vec<u32>,
        hidden_seed: [u8; 32],
    ) -> Result<Self, ReplayError> {
        let (state, sealed) = ruleset
            .position(
                &setup,
                position,
                &mut hidden_stream(&hidden_seed, &setup.game_id, 0),
            )
            .map_err(ReplayError::Position)?;
        let sealed = sealed
            .into_iter()
            .enumerate()
            .map(|(n, (seat, choice))| {
                let at = SealedAt::Position(n);
                (sandbox_commitment(&seat, at, &choice), (seat, choice))
            })
            .collect();
        Ok(Sandbox {
            ruleset,
            state,
            game_id: setup.game_id,
            hidden_seed,
            dice: dice.into(),
            sealed,
            step: 0,
            from_position: true,
        })
    }

    /// Plays one step; a rule error leaves the sandbox unchanged.
    pub fn play(&mut self, step: &Step) -> Result<StepReport, ReplayError> {
        self.step += 1;
        let n = self.step;
        let (seat, order) = match step {
            Step::Order { seat, text } => (seat, text.clone()),
            Step::Timeout { seat } => (seat, "!timeout".to_owned()),
            Step::Resign { seat } => (seat, "!resign".to_owned()),
        };
        let rule_err = |error| ReplayError::Rule {
            step: n,
            seat: seat.to_string(),
            error,
        };
        let before = self.dice.clone();
        let mut state = self.state.clone();
        let mut hidden = hidden_stream(&self.hidden_seed, &self.game_id, n as u64);
        let mut dice = self.dice.clone();
        let mut reveals = Vec::new();
        let mut report_lines;
        let unexecuted;
        {
            let command = match step {
                Step::Order { text, .. } => {
                    Some(self.ruleset.parse(&state, seat, text).map_err(rule_err)?)
                }
                _ => None,
            };
            let sealed = match &command {
                Some(c) => self.ruleset.seal(c).map_err(rule_err)?,
                None => None,
            };
            let commitment = sealed
                .as_ref()
                .map(|(choice, _)| sandbox_commitment(seat, SealedAt::Step(n), choice));
            let mut ctx = Ctx::new(DiceSource::Scripted(&mut dice), Some(&mut hidden));
            ctx = ctx.with_commitment(commitment.clone());
            if self.ruleset.prompts(&state).iter().all(|p| &p.seat != seat)
                && !matches!(step, Step::Resign { .. })
            {
                return Err(rule_err(RuleError::new(
                    "turn order",
                    format!("it is not {seat}'s turn"),
                )));
            }
            match (step, &command) {
                (Step::Order { .. }, Some(c)) => self.ruleset.apply(&mut state, seat, c, &mut ctx),
                (Step::Timeout { .. }, _) => self.ruleset.timeout(&mut state, seat, &mut ctx),
                _ => self.ruleset.resign(&mut state, seat, &mut ctx),
            }
            .map_err(rule_err)?;
            let applied = ctx.finish();
            if let Some(problem) = applied.dice_problem {
                return Err(ReplayError::Dice {
                    step: n,
                    seat: seat.to_string(),
                    problem,
                });
            }
            if let (Some(c), Some((choice, _))) = (commitment, sealed) {
                self.sealed.insert(c, (seat.clone(), choice));
            }
            report_lines = applied.lines;
            unexecuted = applied.unexecuted;
            reveals.extend(applied.reveal_requests);
        }
        let mut opened = Vec::new();
        for commitment in reveals {
            let (owner, choice) = self.sealed.get(&commitment).cloned().ok_or_else(|| {
                ReplayError::Script(format!("step {n}: no sealed choice {commitment}"))
            })?;
            let mut ctx = Ctx::new(DiceSource::None, None);
            self.ruleset
                .reveal(&mut state, &owner, &commitment, &choice, &mut ctx)
                .map_err(rule_err)?;
            report_lines.extend(ctx.finish().lines);
            opened.push(commitment);
        }
        for commitment in opened {
            self.sealed.remove(&commitment);
        }
        self.state = state;
        let used = before.len() - dice.len();
        self.dice = dice;
        Ok(StepReport {
            step: n,
            seat: seat.to_string(),
            order,
            lines: report_lines,
            unexecuted,
            dice_used: before.into_iter().take(used).collect(),
            refused: None,
            position: None,
            view: None,
        })
    }

    /// Plays one step as a transcript shows it: a step the rules refuse is a step too, with its
    /// error and the position it met, and the sandbox stays as it was. Only a script's own
    /// mistakes (a die that cannot be rolled, dice run out) are errors.
    pub fn step(&mut self, step_of: &Step, views: bool) -> Result<StepReport, ReplayError> {
        let mut report = match self.play(step_of) {
            Ok(report) => report,
            Err(ReplayError::Rule { step, seat, error }) => StepReport {
                step,
                order: describe_step(step_of),
                seat,
                lines: Vec::new(),
                unexecuted: None,
                dice_used: Vec::new(),
                refused: Some(error),
                position: Some(self.position_text()),
                view: None,
            },
            Err(e) => return Err(e),
        };
        if views {
            report.view = Some(self.ruleset.view(&self.state, &Viewer::Everyone));
        }
        Ok(report)
    }

    /// The position as it stands, for a reader: the board in text, or the view where the
    /// ruleset draws no board.
    pub fn position_text(&self) -> String {
        self.ruleset
            .board_text(&self.state, &Viewer::Everyone)
            .unwrap_or_else(|| {
                serde_json::to_string_pretty(&self.ruleset.view(&self.state, &Viewer::Everyone))
                    .expect("serialisable")
            })
    }

    pub fn transcript(self, steps: Vec<StepReport>) -> Transcript {
        Transcript {
            unverifiable: true,
            from_position: self.from_position,
            stopped_at: None,
            outcome: self.ruleset.outcome(&self.state),
            view: self.ruleset.view(&self.state, &Viewer::Everyone),
            dice_left: self.dice.into(),
            steps,
        }
    }
}

/// A step as the script wrote it.
fn describe_step(step: &Step) -> String {
    match step {
        Step::Order { text, .. } => text.clone(),
        Step::Timeout { .. } => "!timeout".to_owned(),
        Step::Resign { .. } => "!resign".to_owned(),
    }
}

/// Runs a whole script, strictly: the first refused step is an error. The position block, if
/// the script has one, is the start. For tests that want every order to stand.
pub fn run(
    ruleset: Arc<dyn Ruleset>,
    setup: Setup,
    script: &str,
    dice: Vec<u32>,
) -> Result<Transcript, ReplayError> {
    let script = parse_script(script).map_err(ReplayError::Script)?;
    let mut sandbox = start(ruleset, setup, &script, None, dice)?;
    let mut reports = Vec::new();
    for step in &script.steps {
        reports.push(sandbox.play(step)?);
    }
    Ok(sandbox.transcript(reports))
}

/// The sandbox a script starts in: from `position` (a file's text) or the script's position
/// block, else from the scenario's set-up.
pub fn start(
    ruleset: Arc<dyn Ruleset>,
    setup: Setup,
    script: &Script,
    position: Option<&str>,
    dice: Vec<u32>,
) -> Result<Sandbox, ReplayError> {
    match (position, &script.position) {
        (Some(_), Some((first, _))) => Err(ReplayError::Script(format!(
            "line {}: the script has a position block and --position names another; keep one",
            first - 1
        ))),
        (Some(text), None) => Sandbox::from_position(ruleset, setup, text, dice, [0; 32]),
        (None, Some((first, text))) => Sandbox::from_position(ruleset, setup, text, dice, [0; 32])
            .map_err(|e| match e {
                ReplayError::Position(p) => ReplayError::Position(p.shifted(*first)),
                e => e,
            }),
        (None, None) => Sandbox::new(ruleset, setup, dice, [0; 32]),
    }
}

/// Runs a whole script as `despatch replay` does: a refused step is a step of the transcript,
/// and the script goes on (or stops there, with `stop_on_refusal`).
pub fn run_script(
    ruleset: Arc<dyn Ruleset>,
    setup: Setup,
    script: &Script,
    position: Option<&str>,
    dice: Vec<u32>,
    options: RunOptions,
) -> Result<Transcript, ReplayError> {
    let mut sandbox = start(ruleset, setup, script, position, dice)?;
    let mut reports = Vec::new();
    let mut stopped_at = None;
    for step in &script.steps {
        let report = sandbox.step(step, options.views)?;
        let refused = report.refused.is_some();
        reports.push(report);
        if refused && options.stop_on_refusal {
            stopped_at = Some(reports.len());
            break;
        }
    }
    let mut t = sandbox.transcript(reports);
    t.stopped_at = stopped_at;
    Ok(t)
}

/// The transcript for a reader, marked as unverifiable.
pub fn render(t: &Transcript) -> String {
    let mut out = String::from(
        "REPLAY SANDBOX — scripted dice, UNVERIFIABLE: nothing here was committed in advance.\n",
    );
    if t.from_position {
        out.push_str("Started from a position set by hand.\n");
    }
    for s in &t.steps {
        out.push_str(&format!(
            "\n[{}] {}: {}\n",
            s.step,
            s.seat,
            s.order.replace('\n', " / ")
        ));
        if let Some(e) = &s.refused {
            out.push_str(&format!(
                "    REFUSED — {e}\n    nothing changed; the position:\n"
            ));
            for l in s.position.as_deref().unwrap_or_default().lines() {
                out.push_str(&format!("      {l}\n"));
            }
            continue;
        }
        if !s.dice_used.is_empty() {
            let d: Vec<String> = s.dice_used.iter().map(u32::to_string).collect();
            out.push_str(&format!("    dice: {}\n", d.join(",")));
        }
        for l in &s.lines {
            match &l.to {
                None => out.push_str(&format!("    {}\n", l.text)),
                Some(to) => {
                    let to: Vec<&str> = to.iter().map(Seat::as_str).collect();
                    out.push_str(&format!("    (to {}) {}\n", to.join(", "), l.text));
                }
            }
        }
        if let Some(u) = &s.unexecuted {
            out.push_str(&format!(
                "    stopped: {}; not carried out: {}\n",
                u.reason,
                u.rest.join("; ")
            ));
        }
    }
    if let Some(n) = t.stopped_at {
        out.push_str(&format!(
            "\nstopped at step {n}, refused (--stop-on-refusal)\n"
        ));
    }
    let refused: Vec<String> = t.refusals().map(|s| s.step.to_string()).collect();
    if !refused.is_empty() {
        out.push_str(&format!("refused steps: {}\n", refused.join(", ")));
    }
    out.push_str(&format!(
        "\noutcome: {}\n",
        serde_json::to_string(&t.outcome).expect("serialisable")
    ));
    if !t.dice_left.is_empty() {
        out.push_str(&format!("dice not used: {:?}\n", t.dice_left));
    }
    out
}
