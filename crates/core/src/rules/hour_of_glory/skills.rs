//! Skill tests and the results tables (summary, "Skills" and the play reference): take a
//! chance (each pass scores 1), spend time (each pass takes a minute off the base time, then
//! score 1), rerolls. Every table the summary prints is a const here, in the summary's order.
//!
//! Dice come through [`Table`] in play. An order is checked before any die is drawn: each
//! clause by its own `check_…`, against the state as the order's earlier clauses will have left
//! it — a projected copy on which every clause takes its planned outcome ([`Course::Plan`]):
//! every test the acting side takes passes and every roll against it fails, and no die is drawn.

use crate::engine::ruleset::{Ctx, Seat};

use super::agents::Grade;

/// Where dice and lines go while rules run.
pub trait Table {
    /// A d6; `actor` is true when the side whose turn it is rolls it.
    fn d6(&mut self, actor: bool) -> u32;
    /// A line of outcome, formatted only when it will be read (`lines`).
    fn say(&mut self, text: std::fmt::Arguments<'_>);
    fn say_to(&mut self, seats: &[Seat], text: String);
    /// Will the lines be read? Not on an order's planned course or in a quiet re-fold, where
    /// hot paths may skip writing them. Rules must never branch on it for anything but lines.
    fn lines(&self) -> bool;
}

/// The line that tells a move: "Harris moves D4-D5-D6", from the square `from` over each square
/// `walked` in turn; nothing when no square was walked.
pub fn say_moved(
    t: &mut dyn Table,
    who: &str,
    from: super::board::Sq,
    walked: &[super::board::Sq],
) {
    if walked.is_empty() || !t.lines() {
        return;
    }
    let squares: Vec<String> = std::iter::once(from)
        .chain(walked.iter().copied())
        .map(|q| q.to_string())
        .collect();
    t.say(format_args!("{who} moves {}", squares.join("-")));
}

/// The live table: dice from the engine.
pub struct Live<'c, 'a> {
    pub ctx: &'c mut Ctx<'a>,
}

impl Table for Live<'_, '_> {
    fn d6(&mut self, _actor: bool) -> u32 {
        self.ctx.roll(6)
    }
    fn say(&mut self, text: std::fmt::Arguments<'_>) {
        if self.ctx.lines_wanted() {
            self.ctx.say(std::fmt::format(text))
        }
    }
    fn say_to(&mut self, seats: &[Seat], text: String) {
        self.ctx.say_to(seats, text)
    }
    fn lines(&self) -> bool {
        self.ctx.lines_wanted()
    }
}

/// The table of an order's planned course: its lines go nowhere, and it never draws a die (the
/// course resolves each test by its planned outcome, [`Course::test`]).
pub struct Silent;

impl Table for Silent {
    fn d6(&mut self, _actor: bool) -> u32 {
        unreachable!("an order's planned course draws no die")
    }
    fn say(&mut self, _text: std::fmt::Arguments<'_>) {}
    fn say_to(&mut self, _seats: &[Seat], _text: String) {}
    fn lines(&self) -> bool {
        false
    }
}

/// How the rules carry out a checked clause: in play, with the table's dice and lines; or
/// along the order's planned course, on a projected copy of the state, to check the clauses
/// after it against the state as it will be. On the course every test the acting side takes
/// passes and every roll against it fails (the outcome the order's writer plans for, and the
/// one that lets the most of his order run), so an order is refused only when a clause breaks
/// a rule on that course; where the dice go otherwise in play, a clause that no longer fits
/// stops the order there.
pub enum Course<'t> {
    Play(&'t mut dyn Table),
    Plan(Silent),
}

impl Course<'_> {
    /// The order's planned course.
    pub fn plan() -> Course<'static> {
        Course::Plan(Silent)
    }
    /// Where lines go (nowhere on the course).
    pub fn table(&mut self) -> &mut dyn Table {
        match self {
            Course::Play(t) => &mut **t,
            Course::Plan(t) => t,
        }
    }
    pub fn planned(&self) -> bool {
        matches!(self, Course::Plan(_))
    }
    /// A test of `n` dice by the acting side: rolled in play; on the course every die passes
    /// (no faces are shown).
    pub fn test(&mut self, n: usize, grade: Grade) -> (Vec<u32>, u32) {
        match self {
            Course::Play(t) => test(&mut **t, n, grade, true),
            Course::Plan(_) => (Vec::new(), n as u32),
        }
    }
    /// Spend time by the acting side (see [`spend_time`]); on the course every die passes.
    pub fn spend_time(&mut self, base: u32, dice: usize, grade: Grade) -> (Vec<u32>, u32) {
        match self {
            Course::Play(t) => spend_time(&mut **t, base, dice, grade),
            Course::Plan(_) => (Vec::new(), base.saturating_sub(dice as u32)),
        }
    }
}

/// Rolls `n` dice against a grade; returns the faces and the passes.
pub fn test(t: &mut dyn Table, n: usize, grade: Grade, actor: bool) -> (Vec<u32>, u32) {
    let faces: Vec<u32> = (0..n).map(|_| t.d6(actor)).collect();
    let passes = faces.iter().filter(|&&f| grade.passes(f)).count() as u32;
    (faces, passes)
}

pub fn faces(f: &[u32]) -> Faces<'_> {
    Faces(f)
}

/// Dice faces as a line shows them (`6,1,3`), written only when the line is (an order's
/// planned course and a quiet re-fold never write it).
pub struct Faces<'a>(&'a [u32]);

impl std::fmt::Display for Faces<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (k, face) in self.0.iter().enumerate() {
            if k > 0 {
                f.write_str(",")?;
            }
            write!(f, "{face}")?;
        }
        Ok(())
    }
}

/// How a test is taken (summary, "Skills").
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    TakeChance,
    SpendTime,
}

impl Method {
    pub fn name(self) -> &'static str {
        match self {
            Method::TakeChance => "take-chance",
            Method::SpendTime => "spend-time",
        }
    }
    pub fn parse(text: &str) -> Option<Method> {
        match text {
            "take-chance" | "chance" => Some(Method::TakeChance),
            "spend-time" | "time" => Some(Method::SpendTime),
            _ => None,
        }
    }
}

/// Spend time: `dice` dice against the grade take minutes off `base` (minimum 0); the minutes
/// left are the time the activity took. The activity then scores 1.
pub fn spend_time(t: &mut dyn Table, base: u32, dice: usize, grade: Grade) -> (Vec<u32>, u32) {
    let (f, passes) = test(t, dice, grade, true);
    (f, base.saturating_sub(passes))
}

/// SNEAK, BREACH, SPY, CONCEAL spend-time base (summary: "Base time: 2 minutes. Roll 2d6").
pub const SPEND_TIME_BASE: u32 = 2;
pub const SPEND_TIME_DICE: usize = 2;
/// Covert Entry Kit (BREACH) and Spy Camera (SPY): "Roll 4 dice when spending time".
pub const KIT_DICE: usize = 4;
/// HIDE: "Base time: 3 minutes (+1 minute for each Guard in the stronghold). Roll 3d6".
pub const HIDE_BASE: u32 = 3;
pub const HIDE_DICE: usize = 3;

/// EVADE results (summary, "Evade").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Evade {
    /// 0: exposed, turn ends.
    Exposed,
    /// 1: turn ends, still hidden.
    TurnEnds,
    /// 2: the enemy stands down; move/sneak or take an action.
    StandDownMoveOrAct,
    /// 3: the enemy stands down; normal movement and action.
    StandDownFull,
}

pub const EVADE_TABLE: [Evade; 4] = [
    Evade::Exposed,
    Evade::TurnEnds,
    Evade::StandDownMoveOrAct,
    Evade::StandDownFull,
];

/// REACT results (summary, "React").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum React {
    /// 0: too slow, the turn ends.
    TooSlow,
    /// 1: fight or shoot, no moving.
    AttackOnly,
    /// 2: fight/shoot or move.
    AttackOrMove,
    /// 3: fight/shoot and move.
    AttackAndMove,
}

pub const REACT_TABLE: [React; 4] = [
    React::TooSlow,
    React::AttackOnly,
    React::AttackOrMove,
    React::AttackAndMove,
];

/// Dice for EVADE and REACT: "If you have not moved this turn, roll 3d6. If you have moved this
/// turn, roll d6."
pub fn evade_dice(moved: bool) -> usize {
    if moved {
        1
    } else {
        3
    }
}

/// Wound levels (summary, "Fight").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wound {
    None,
    Light,
    Severe,
    Fatal,
}

impl Wound {
    pub fn name(self) -> &'static str {
        match self {
            Wound::None => "no effect",
            Wound::Light => "a light wound",
            Wound::Severe => "a severe wound",
            Wound::Fatal => "a fatal wound",
        }
    }
}

/// FIGHT and SHOOT: score 0–3 (3 or more) gives the wound.
pub const FIGHT_TABLE: [Wound; 4] = [Wound::None, Wound::Light, Wound::Severe, Wound::Fatal];

/// RESIST EFFECTS: `RESIST_TABLE[passes][wound]` (passes 0–3, wound None..Fatal).
pub const RESIST_TABLE: [[Wound; 4]; 4] = [
    [Wound::None, Wound::Light, Wound::Severe, Wound::Fatal],
    [Wound::None, Wound::None, Wound::Light, Wound::Severe],
    [Wound::None, Wound::None, Wound::None, Wound::Light],
    [Wound::None, Wound::None, Wound::None, Wound::None],
];

pub fn fight_result(passes: u32) -> Wound {
    FIGHT_TABLE[passes.min(3) as usize]
}

pub fn resist(wound: Wound, passes: u32) -> Wound {
    RESIST_TABLE[passes.min(3) as usize][wound as usize]
}

/// SNEAK-ATTACK and COUP-DE-GRACE roll 3d6; one pass or more succeeds.
pub const ATTACK_3D6: usize = 3;

/// An agent's Combat and Survival grades together.
pub type Profile2 = (Grade, Grade);
