//! The replay sandbox: runs a script of orders against a ruleset with dice given by hand. For
//! rules examples, tutorials and bug reports — and UNVERIFIABLE by design: nothing here is
//! committed in advance, so its dice prove nothing.
//!
//! A script is one order per step, `seat: order`; an indented line continues the order above;
//! `!timeout seat` and `!resign seat` play a missed deadline or a resignation; `#` starts a
//! comment.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use super::dice::hidden_stream;
use super::ruleset::{
    Ctx, DiceSource, GameState, Line, Outcome, RuleError, Ruleset, Seat, Setup, Unexecuted, Viewer,
};
use super::sealed::SealedChoice;

/// One step of a script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Order { seat: Seat, text: String },
    Timeout { seat: Seat },
    Resign { seat: Seat },
}

/// Reads a script; errors name the line.
pub fn parse_script(script: &str) -> Result<Vec<Step>, String> {
    let mut steps: Vec<Step> = Vec::new();
    for (n, raw) in script.lines().enumerate() {
        let line = raw.split_once(" #").map_or(raw, |(l, _)| l);
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let at = n + 1;
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
    Ok(steps)
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
}

/// A replay's whole transcript.
#[derive(Debug, Clone, Serialize)]
pub struct Transcript {
    pub unverifiable: bool,
    pub steps: Vec<StepReport>,
    pub outcome: Outcome,
    pub view: Value,
    pub dice_left: Vec<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    #[error("set-up: {0}")]
    Setup(RuleError),
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

/// The sandbox: a state, the dice still to use, and the sealed choices made so far.
pub struct Sandbox {
    ruleset: Arc<dyn Ruleset>,
    pub state: GameState,
    game_id: String,
    hidden_seed: [u8; 32],
    dice: VecDeque<u32>,
    sealed: BTreeMap<String, (Seat, Value)>,
    step: usize,
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
                .map(|(choice, _)| SealedChoice::with_salt(choice.clone(), &[0; 16]).commitment);
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
        for commitment in reveals {
            let (owner, choice) = self.sealed.remove(&commitment).ok_or_else(|| {
                ReplayError::Script(format!("step {n}: no sealed choice {commitment}"))
            })?;
            let mut ctx = Ctx::new(DiceSource::None, None);
            self.ruleset
                .reveal(&mut state, &owner, &commitment, &choice, &mut ctx)
                .map_err(rule_err)?;
            report_lines.extend(ctx.finish().lines);
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
        })
    }

    pub fn transcript(self, steps: Vec<StepReport>) -> Transcript {
        Transcript {
            unverifiable: true,
            outcome: self.ruleset.outcome(&self.state),
            view: self.ruleset.view(&self.state, &Viewer::Everyone),
            dice_left: self.dice.into(),
            steps,
        }
    }
}

/// Runs a whole script.
pub fn run(
    ruleset: Arc<dyn Ruleset>,
    setup: Setup,
    script: &str,
    dice: Vec<u32>,
) -> Result<Transcript, ReplayError> {
    let steps = parse_script(script).map_err(ReplayError::Script)?;
    let mut sandbox = Sandbox::new(ruleset, setup, dice, [0; 32])?;
    let mut reports = Vec::new();
    for step in &steps {
        reports.push(sandbox.play(step)?);
    }
    Ok(sandbox.transcript(reports))
}

/// The transcript for a reader, marked as unverifiable.
pub fn render(t: &Transcript) -> String {
    let mut out = String::from(
        "REPLAY SANDBOX — scripted dice, UNVERIFIABLE: nothing here was committed in advance.\n",
    );
    for s in &t.steps {
        out.push_str(&format!(
            "\n[{}] {}: {}\n",
            s.step,
            s.seat,
            s.order.replace('\n', " / ")
        ));
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
    out.push_str(&format!(
        "\noutcome: {}\n",
        serde_json::to_string(&t.outcome).expect("serialisable")
    ));
    if !t.dice_left.is_empty() {
        out.push_str(&format!("dice not used: {:?}\n", t.dice_left));
    }
    out
}
