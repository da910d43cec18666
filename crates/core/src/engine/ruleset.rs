//! The ruleset contract (DESIGN.md, "The ruleset contract").
//!
//! A game implements [`Rules`] with its own state and command types; the engine and the service
//! see every game through the object-safe [`Ruleset`], which [`Erased`] derives from it. Rules
//! never touch a clock, a socket or a random source: dice come in through [`Ctx`], lines of
//! outcome go out through it.

use std::any::Any;
use std::borrow::Cow;
use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::dice::{hidden_stream, DiceStream};
use super::position::{PositionError, Positioned};

/// A seat's identifier within one game (`defender`, `intruder-1`, `alice`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(String);

impl Seat {
    /// A seat id is 1–32 characters of lowercase ASCII letters, digits, `-` and `_`, starting
    /// with a letter; `system` and `hidden` are reserved.
    pub fn parse(text: &str) -> Result<Seat, String> {
        let ok_chars = text
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
        let starts = text.chars().next().is_some_and(|c| c.is_ascii_lowercase());
        if text.is_empty() || text.len() > 32 || !ok_chars || !starts {
            return Err(format!(
                "'{text}' is not a seat id: use 1-32 lowercase letters, digits, '-' or '_', starting with a letter"
            ));
        }
        if text == "system" || text == "hidden" {
            return Err(format!("'{text}' is reserved and cannot name a seat"));
        }
        Ok(Seat(text.to_owned()))
    }

    /// A seat id derived from a display name: `Anna Ng` → `anna-ng`.
    pub fn from_name(name: &str) -> Result<Seat, String> {
        let mut slug = String::new();
        for c in name.trim().chars() {
            if c.is_ascii_alphanumeric() {
                slug.push(c.to_ascii_lowercase());
            } else if !slug.ends_with('-') && !slug.is_empty() {
                slug.push('-');
            }
        }
        let slug = slug
            .trim_end_matches('-')
            .chars()
            .take(32)
            .collect::<String>();
        let slug = if slug.starts_with(|c: char| c.is_ascii_digit()) {
            format!("p{slug}")
        } else {
            slug
        };
        Seat::parse(slug.trim_end_matches('-'))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Who is looking at a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Viewer {
    /// A player: sees the public board and their own secrets.
    Seat(Seat),
    /// Anyone else while the game runs: the public board only.
    Spectator,
    /// Everyone, once the game is over: everything.
    Everyone,
}

impl Viewer {
    /// May this viewer read something shown to `to` (`None` = to everyone)?
    pub fn may_see(&self, to: Option<&[Seat]>) -> bool {
        match (self, to) {
            (_, None) | (Viewer::Everyone, _) => true,
            (Viewer::Seat(seat), Some(seats)) => seats.contains(seat),
            (Viewer::Spectator, Some(_)) => false,
        }
    }
}

/// A seat in a game being set up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatDef {
    pub seat: Seat,
    pub name: String,
}

impl SeatDef {
    /// Seats named by their own ids (`["american", "british"]`), as the bots, the benchmarks
    /// and the tests set their games up. Says which id is not a seat id.
    pub fn named_by_id(ids: &[impl AsRef<str>]) -> Result<Vec<SeatDef>, String> {
        ids.iter()
            .map(|id| {
                let id = id.as_ref();
                Seat::parse(id).map(|seat| SeatDef {
                    seat,
                    name: id.to_owned(),
                })
            })
            .collect()
    }
}

/// Everything `setup` is given.
#[derive(Debug, Clone)]
pub struct Setup {
    pub game_id: String,
    pub scenario: String,
    pub options: Value,
    pub seats: Vec<SeatDef>,
}

/// A scenario a ruleset offers.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ScenarioInfo {
    pub id: String,
    pub title: String,
    /// The seat ids this scenario plays with; empty means any ids, named by the players.
    pub seats: Vec<String>,
    pub min_seats: usize,
    pub max_seats: usize,
    /// What each seat is called by position, for display only (the lobby's seat rows), where
    /// the ids say nothing: Hour of Glory's seats are named by the players, the first being the
    /// Defender. Empty: the seat ids (or, with free ids, "Seat 1", "Seat 2" …) name the roles.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub roles: Vec<String>,
    /// A set-up for learning the rules (a worked example, a drill ground) rather than a battle
    /// or campaign: the lobby lists these apart.
    #[serde(default)]
    pub practice: bool,
}

/// An option a ruleset accepts at creation, with its default.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct OptionInfo {
    pub name: String,
    pub description: String,
    pub default: Value,
    /// The values the option may take, when it is one of a few (the lobby offers them as a
    /// menu). Empty: a boolean, a number, or anything its description says (the lobby offers a
    /// field that fits its default).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<Value>,
}

/// A game's rules version as the number a ruleset keeps in its state (`Rules::setup_version`),
/// for the rules gated on it.
pub fn version_number<T: std::str::FromStr>(version: &str) -> Result<T, RuleError> {
    version.parse().map_err(|_| {
        RuleError::new(
            "rules versions",
            format!("'{version}' is not a rules version of this ruleset"),
        )
    })
}

/// The newest of a ruleset's [`Rules::versions`]: the version new games get.
pub const fn newest(versions: &'static [&'static str]) -> &'static str {
    versions[versions.len() - 1]
}

/// What a ruleset is.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RulesetInfo {
    pub id: String,
    pub version: String,
    pub title: String,
    pub scenarios: Vec<ScenarioInfo>,
    pub options: Vec<OptionInfo>,
    /// A short guide to the order language, shown in emails and on pages.
    pub grammar: String,
}

/// The kind of decision a prompt asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PromptKind {
    /// The seat's turn: the game waits for it.
    Turn,
    /// A sealed submission: every prompted seat commits, then all reveal.
    Sealed,
    /// A reaction window: the seat may answer; silence until the deadline is a pass.
    Reaction,
}

/// Who may act now and what they may do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Prompt {
    pub seat: Seat,
    pub kind: PromptKind,
    /// What is being decided, for a player ("Your turn: one order for Harris").
    pub decision: String,
    /// Legal commands in the order language; where there are too many to list, examples.
    pub options: Vec<String>,
    /// Whether a missed deadline may be played as a pass (the ruleset's `timeout`).
    pub pass_on_timeout: bool,
}

/// Whether the game goes on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Outcome {
    Running,
    Finished {
        /// The winning seats; empty for a draw.
        winners: Vec<Seat>,
        /// Points per seat, where the game scores.
        #[serde(default)]
        scores: std::collections::BTreeMap<String, i64>,
        summary: String,
    },
}

impl Outcome {
    pub fn is_finished(&self) -> bool {
        matches!(self, Outcome::Finished { .. })
    }
}

/// A command refused by the rules. It names the rule so that a player can see why, and it
/// changes nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{rule}: {message}")]
pub struct RuleError {
    /// The rule, by section where the rules text numbers them ("4.3 Hex limits").
    pub rule: String,
    /// What was wrong and what to do instead, written for the player.
    pub message: String,
}

impl RuleError {
    pub fn new(rule: impl Into<String>, message: impl Into<String>) -> Self {
        RuleError {
            rule: rule.into(),
            message: message.into(),
        }
    }
}

/// A line of outcome, shown to everyone or to some seats only.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Line {
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub to: Option<Vec<Seat>>,
}

/// The part of an order that was not carried out, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unexecuted {
    pub reason: String,
    /// The steps not carried out, in the order language.
    pub rest: Vec<String>,
}

/// Where the public dice of one apply come from.
pub enum DiceSource<'a> {
    /// A live move: faces drawn from the keyed stream and recorded.
    Stream(&'a mut DiceStream),
    /// A fold: the faces recorded in the event, checked against the sides asked for.
    Recorded(&'a [super::dice::Roll]),
    /// `despatch replay`: faces given by hand, whatever the sides.
    Scripted(&'a mut std::collections::VecDeque<u32>),
    /// No dice may be drawn here.
    None,
}

/// Where the hidden draws of one apply come from.
enum Hidden<'a> {
    None,
    Stream(&'a mut DiceStream),
    /// A fold's hidden stream, keyed on the first draw: most events draw nothing hidden, and a
    /// long re-fold would otherwise format a key for every event.
    Seed {
        seed: [u8; 32],
        game_id: &'a str,
        seq: u64,
        stream: Option<DiceStream>,
    },
}

/// The context of one apply: dice in, lines out.
pub struct Ctx<'a> {
    dice: DiceSource<'a>,
    hidden: Hidden<'a>,
    /// The dice drawn from a stream or a script; a fold's are the event's own, not copied.
    rolls: Vec<super::dice::Roll>,
    /// Every die drawn, from any source.
    drawn: usize,
    pub(crate) dice_problem: Option<String>,
    lines: Vec<Line>,
    unexecuted: Option<Unexecuted>,
    commitment: Option<String>,
    reveal_requests: Vec<String>,
    quiet: bool,
    accepted: bool,
}

impl<'a> Ctx<'a> {
    pub fn new(dice: DiceSource<'a>, hidden: Option<&'a mut DiceStream>) -> Self {
        Ctx {
            dice,
            hidden: match hidden {
                Some(stream) => Hidden::Stream(stream),
                None => Hidden::None,
            },
            rolls: Vec::new(),
            drawn: 0,
            dice_problem: None,
            lines: Vec::new(),
            unexecuted: None,
            commitment: None,
            reveal_requests: Vec::new(),
            quiet: false,
            accepted: false,
        }
    }

    /// Hidden draws from the hidden stream of event `seq`, keyed by `seed` when first drawn.
    pub(crate) fn with_hidden_seed(mut self, seed: [u8; 32], game_id: &'a str, seq: u64) -> Self {
        self.hidden = Hidden::Seed {
            seed,
            game_id,
            seq,
            stream: None,
        };
        self
    }

    /// A context for a command that these rules accepted before, re-folded from the game's own
    /// log (loading a game). See [`Ctx::already_accepted`].
    pub(crate) fn accepted(mut self) -> Self {
        self.accepted = true;
        self
    }

    /// Was this command accepted by these rules before? True only when the service re-folds its
    /// own log; never in a live move, `verify` or `replay`. A ruleset may then skip a check whose
    /// only effect is to refuse the command (a dry run on a copy of the state): the command
    /// passed it when it was played, the rules are deterministic, and the state comes out the
    /// same. Rules must never branch on it for anything else.
    pub fn already_accepted(&self) -> bool {
        self.accepted
    }

    /// A context whose outcome lines nobody reads: a re-fold that only wants the state (verify,
    /// loading a game). `say` drops its lines and `interrupt` its account of the actions left
    /// unexecuted; a ruleset may ask [`Ctx::lines_wanted`] to skip writing either at all.
    /// Nothing else changes: the state must come out the same.
    pub(crate) fn quiet(mut self) -> Self {
        self.quiet = true;
        self
    }

    /// Will the lines of this apply be read? False in a quiet re-fold, where a ruleset may skip
    /// formatting them (and the account of an interrupted order). Rules must never branch on it
    /// for anything but those.
    pub fn lines_wanted(&self) -> bool {
        !self.quiet
    }

    /// The lines written so far (none in a quiet re-fold): what a rules test reads back.
    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    pub(crate) fn with_commitment(mut self, commitment: Option<String>) -> Self {
        self.commitment = commitment;
        self
    }

    /// Rolls one public die with `sides` faces.
    pub fn roll(&mut self, sides: u32) -> u32 {
        let pos = self.drawn;
        let (face, problem) = match &mut self.dice {
            DiceSource::Stream(stream) => (stream.roll(sides), None),
            DiceSource::Recorded(rolls) => match rolls.get(pos) {
                Some(r) if r.sides == sides => (r.face, None),
                Some(r) => (
                    r.face.clamp(1, sides),
                    Some(format!(
                        "die {} was recorded as a d{} but the rules asked for a d{sides}",
                        pos + 1,
                        r.sides
                    )),
                ),
                None => (
                    1,
                    Some(format!(
                        "the rules asked for die {} but the event records only {}",
                        pos + 1,
                        rolls.len()
                    )),
                ),
            },
            DiceSource::Scripted(queue) => match queue.pop_front() {
                Some(face) if (1..=sides).contains(&face) => (face, None),
                Some(face) => (
                    1,
                    Some(format!(
                        "scripted die {face} cannot be a face of a d{sides}"
                    )),
                ),
                None => (
                    1,
                    Some(format!(
                        "the script ran out of dice (a d{sides} was needed)"
                    )),
                ),
            },
            DiceSource::None => (1, Some("a die was rolled where none may be".to_owned())),
        };
        if let Some(problem) = problem {
            self.dice_problem.get_or_insert(problem);
        }
        self.drawn += 1;
        if !matches!(self.dice, DiceSource::Recorded(_)) {
            self.rolls.push(super::dice::Roll { sides, face });
        }
        face
    }

    /// Rolls `count` public dice with `sides` faces each.
    pub fn roll_many(&mut self, count: usize, sides: u32) -> Vec<u32> {
        let mut faces = vec![0; count];
        self.roll_into(&mut faces, sides);
        faces
    }

    /// Rolls one public die with `sides` faces for each of `faces`, in order: `roll_many` into
    /// a buffer the caller keeps (on the stack, where a ruleset rolls on every move).
    pub fn roll_into(&mut self, faces: &mut [u32], sides: u32) {
        for face in faces {
            *face = self.roll(sides);
        }
    }

    /// Draws from the hidden stream (face-down cards, secret shuffles). Unavailable when a
    /// redacted log is re-folded without the hidden seed.
    pub fn hidden(&mut self, sides: u32) -> Result<u32, RuleError> {
        match &mut self.hidden {
            Hidden::Stream(stream) => Ok(stream.roll(sides)),
            Hidden::Seed {
                seed,
                game_id,
                seq,
                stream,
            } => Ok(stream
                .get_or_insert_with(|| hidden_stream(seed, game_id, *seq))
                .roll(sides)),
            Hidden::None => Err(hidden_unavailable()),
        }
    }

    /// Has this apply drawn any public die yet?
    pub fn rolled(&self) -> bool {
        self.drawn > 0
    }

    /// A line everyone may read.
    pub fn say(&mut self, text: impl Into<String>) {
        if self.quiet {
            return;
        }
        self.lines.push(Line {
            text: text.into(),
            to: None,
        });
    }

    /// A line only `seats` may read.
    pub fn say_to(&mut self, seats: &[Seat], text: impl Into<String>) {
        if self.quiet {
            return;
        }
        self.lines.push(Line {
            text: text.into(),
            to: Some(seats.to_vec()),
        });
    }

    /// Ends a multi-step order early: `rest` was not carried out, for `reason`.
    pub fn interrupt(&mut self, reason: impl Into<String>, rest: Vec<String>) {
        if self.quiet {
            return;
        }
        self.unexecuted = Some(Unexecuted {
            reason: reason.into(),
            rest,
        });
    }

    /// The commitment of the sealed part of this command, if it has one.
    pub fn commitment(&self) -> Option<&str> {
        self.commitment.as_deref()
    }

    /// Asks the service to reveal a sealed choice right after this event (for instance when the
    /// last of a round's sealed submissions is in).
    pub fn request_reveal(&mut self, commitment: impl Into<String>) {
        self.reveal_requests.push(commitment.into());
    }

    pub(crate) fn finish(self) -> Applied {
        Applied {
            lines: self.lines,
            unexecuted: self.unexecuted,
            rolls: self.rolls,
            drawn: self.drawn,
            reveal_requests: self.reveal_requests,
            dice_problem: self.dice_problem,
        }
    }
}

/// What one apply produced.
#[derive(Debug, Clone, Default)]
pub struct Applied {
    pub lines: Vec<Line>,
    pub unexecuted: Option<Unexecuted>,
    /// The dice drawn live (a stream) or by hand (a script). A fold's dice are the event's
    /// own (`Event::dice`): they are counted in `drawn`, not copied here.
    pub rolls: Vec<super::dice::Roll>,
    /// How many dice this apply drew, from any source.
    pub drawn: usize,
    pub reveal_requests: Vec<String>,
    pub dice_problem: Option<String>,
}

/// The error a ruleset gives when it needs the hidden stream and the fold has no hidden seed.
pub fn hidden_unavailable() -> RuleError {
    RuleError::new(
        "hidden draws",
        "the hidden seed is not revealed yet, so hidden draws cannot be re-made",
    )
}

/// What a board drawing may use besides the state: the latest outcome lines this viewer may
/// read (oldest first) and the dice of the latest event that rolled. The service fills it from
/// the log, already filtered for the viewer, so a ruleset need not keep a log in its state.
#[derive(Debug, Clone, Default)]
pub struct BoardContext {
    pub recent_lines: Vec<String>,
    /// The seq, seat and dice of the latest event that rolled public dice.
    pub last_roll: Option<(u64, String, Vec<super::dice::Roll>)>,
}

/// A source of randomness for bots: any function giving a uniform value in `0..n`.
pub type BotRng<'a> = &'a mut dyn FnMut(usize) -> usize;

/// The contract each game implements, with its own types.
pub trait Rules: Send + Sync + 'static {
    type State: Clone + Serialize + DeserializeOwned + Send + Sync + 'static;
    type Command: Clone + Serialize + DeserializeOwned + Send + Sync + 'static;

    fn info(&self) -> RulesetInfo;

    /// `info().id`, which every fold checks the log's against: a ruleset may give it without
    /// building the rest of its info.
    fn id(&self) -> Cow<'static, str> {
        Cow::Owned(self.info().id)
    }

    /// The rules versions this build plays, oldest first: every released version since the
    /// first, each game under the version it was created with (`GameCreated`'s
    /// `ruleset_version`). The last is `info().version`, which new games get. A version leaves
    /// this list never: a campaign begun under it plays on under it after every upgrade
    /// (docs/rules/<game>.md, "Rules versions").
    fn versions(&self) -> &'static [&'static str];

    /// The starting state. Hidden draws (face-down cards) come from `hidden`, the hidden stream
    /// of event 0. New games and positions are set up under the newest version.
    fn setup(&self, setup: &Setup, hidden: &mut DiceStream) -> Result<Self::State, RuleError>;

    /// The starting state of a game created under `version`, one of [`Rules::versions`]. A
    /// ruleset whose rules changed between the versions it plays keeps `version` in its state
    /// here and gates each change on it, so that a game folds under the rules it began with;
    /// the default (one version, or no change that needs it) is [`Rules::setup`].
    fn setup_version(
        &self,
        version: &str,
        setup: &Setup,
        hidden: &mut DiceStream,
    ) -> Result<Self::State, RuleError> {
        let _ = version;
        self.setup(setup, hidden)
    }

    /// Who may act now and what they may do.
    fn prompts(&self, state: &Self::State) -> Vec<Prompt>;

    /// May `seat` act now? The same answer as `prompts`, which a ruleset may give faster: every
    /// fold asks it once per event.
    fn may_act(&self, state: &Self::State, seat: &Seat) -> bool {
        self.prompts(state).iter().any(|p| &p.seat == seat)
    }

    /// Carries out a command. The command must be validated in full before the first die is
    /// drawn: once a die is drawn, the move stands, so an error after that is a bug.
    fn apply(
        &self,
        state: &mut Self::State,
        seat: &Seat,
        command: &Self::Command,
        ctx: &mut Ctx,
    ) -> Result<(), RuleError>;

    /// Splits a command that carries a sealed choice into the choice (kept secret) and the
    /// public command that goes into the log. `apply` sees the full command when it is
    /// submitted and the public one on every later fold, and must reach the same state.
    fn seal(&self, _command: &Self::Command) -> Option<(Value, Self::Command)> {
        None
    }

    /// A sealed choice is opened.
    fn reveal(
        &self,
        _state: &mut Self::State,
        _seat: &Seat,
        _commitment: &str,
        _choice: &Value,
        _ctx: &mut Ctx,
    ) -> Result<(), RuleError> {
        Ok(())
    }

    /// The deadline of a prompt passed with no answer from `seat`: play it as a pass where the
    /// rules allow one.
    fn timeout(
        &self,
        _state: &mut Self::State,
        seat: &Seat,
        _ctx: &mut Ctx,
    ) -> Result<(), RuleError> {
        Err(RuleError::new(
            "deadlines",
            format!("{seat} cannot pass: the rules allow no pass here"),
        ))
    }

    /// A seat leaves the game.
    fn resign(&self, state: &mut Self::State, seat: &Seat, ctx: &mut Ctx) -> Result<(), RuleError>;

    /// What `viewer` may see.
    fn view(&self, state: &Self::State, viewer: &Viewer) -> Value;

    /// A command from the order language.
    fn parse(
        &self,
        state: &Self::State,
        seat: &Seat,
        text: &str,
    ) -> Result<Self::Command, RuleError>;

    /// The order language text of a command; `parse` reads it back to the same command.
    fn describe(&self, command: &Self::Command) -> String;

    fn outcome(&self, state: &Self::State) -> Outcome;

    /// The board drawn for `viewer` as one self-contained SVG element (no scripts, no external
    /// references), shown on the game, spectator and replay pages. It must draw only what
    /// `viewer` may see, like [`Rules::view`]. The default draws [`Rules::board`]; with no
    /// board either, the page shows no drawing but still the view, the log and the legal
    /// moves. See docs/web.md, "Drawing a board".
    fn board_svg(
        &self,
        state: &Self::State,
        viewer: &Viewer,
        context: &BoardContext,
    ) -> Option<String> {
        self.board(state, viewer, context)
            .map(|b| super::board::render(&b))
    }

    /// The board for `viewer` as a description for the board toolkit (`engine::board`): the
    /// grid, the ground of each cell, the pieces with their state, highlights and a legend.
    /// The default [`Rules::board_svg`] draws it. Like [`Rules::view`] it holds only what
    /// `viewer` may see. `None` (the default) when the game draws no board.
    fn board(
        &self,
        _state: &Self::State,
        _viewer: &Viewer,
        _context: &BoardContext,
    ) -> Option<super::board::Board> {
        None
    }

    /// Orders by pointing at the drawn board for `seat` now (`engine::board::Pointed`): each a
    /// piece of [`Rules::board`], a cell, and the legal order in the game's language that the
    /// click on the piece, then on the cell, makes. Only orders the rules accept as they stand;
    /// empty (the default) when the seat has nothing to decide or the ruleset offers none.
    fn pointing(&self, _state: &Self::State, _seat: &Seat) -> Vec<super::board::Pointed> {
        Vec::new()
    }

    /// `seat`'s hand as cards (`engine::board::Hand`), for its own page alone: each card's
    /// name, colour, reactive mark, what it does, and the orders pointing at it makes now (only
    /// orders the rules accept as the game stands). Never shown to another seat, a spectator,
    /// mail or the export. Empty (the default) for a game without cards in hand.
    fn hand(&self, _state: &Self::State, _seat: &Seat) -> super::board::Hand {
        super::board::Hand::default()
    }

    /// The options of `seat`'s own `prompt` as the seat itself is told them (its page, its
    /// turn mail, its legal moves): a prompt is public, so where its options are forms
    /// (`react <card>`) because the seat's own choices would tell the table what it holds,
    /// this gives the seat its own orders in their place. The default: the prompt's options.
    fn own_options(&self, _state: &Self::State, _seat: &Seat, prompt: &Prompt) -> Vec<String> {
        prompt.options.clone()
    }

    /// The pass the server plays at once for `seat` when the seat asked it to ("pass reactive
    /// windows for me when I hold no card that can answer", its settings) and its open prompt
    /// is a reaction it holds nothing to answer with, so that a pass is all it could do: the
    /// command, played as the seat's own ordinary event. `None` (the default) in every other
    /// case, and for a game with no such windows.
    fn auto_pass(&self, _state: &Self::State, _seat: &Seat) -> Option<Self::Command> {
        None
    }

    /// Whether `from` may tell `to` something privately now (table talk's `tell`, which never
    /// touches the game's state or log): a ruleset whose rules limit who may talk to whom, and
    /// when, refuses here naming the rule. Talk to the whole table is always allowed. `Ok` (the
    /// default): any seat may tell any other at any time.
    fn may_tell(&self, _state: &Self::State, _from: &Seat, _to: &Seat) -> Result<(), RuleError> {
        Ok(())
    }

    /// The board for `viewer` as plain text (a map in characters, a key, the pieces), for turn
    /// emails and pages: what a player needs to play from a mail client with nothing else on the
    /// table. Like [`Rules::view`] it shows only what `viewer` may see. `None` (the default)
    /// when the game has no board to draw. Lines are at most 78 characters, so that mail clients
    /// do not wrap them.
    fn board_text(&self, _state: &Self::State, _viewer: &Viewer) -> Option<String> {
        None
    }

    /// A random legal command for `seat`, for the bot; `None` if the seat has nothing to do.
    fn random_command(
        &self,
        state: &Self::State,
        seat: &Seat,
        rng: BotRng,
    ) -> Option<Self::Command>;

    /// A position set by hand, for `despatch replay` (`--position`, or a `position:` block):
    /// the set-up of `setup`'s scenario, changed by the statements of `text`, and checked as a
    /// scenario is checked. The format is the ruleset's own, one statement a line, documented
    /// in docs/rules/<game>.md under "Positions (despatch replay)"; an error names the line.
    /// Every ruleset sets positions: rules examples and bug reports start from one.
    fn position(
        &self,
        setup: &Setup,
        text: &str,
        hidden: &mut DiceStream,
    ) -> Result<Positioned<Self::State>, PositionError>;

    /// The position format in a few lines, for `despatch replay --list`.
    fn position_format(&self) -> &'static str;

    /// `state` written as a position of this ruleset's format (see [`Rules::position`]): read
    /// back onto the set-up it came from, it gives `state` again, so that a position can set
    /// whatever a game can reach (issue 39). `None` from a ruleset that cannot write its
    /// positions yet.
    fn write_position(&self, _state: &Self::State) -> Option<String> {
        None
    }
}

/// A game's state behind the object-safe contract.
pub struct GameState(Box<dyn AnyState>);

trait AnyState: Any + Send + Sync {
    fn clone_box(&self) -> Box<dyn AnyState>;
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: Clone + Send + Sync + 'static> AnyState for T {
    fn clone_box(&self) -> Box<dyn AnyState> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

impl Clone for GameState {
    fn clone(&self) -> Self {
        GameState(self.0.clone_box())
    }
}

impl GameState {
    /// The typed state, for a ruleset's own tests.
    pub fn downcast<T: 'static>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref()
    }
}

/// The object-safe face of a ruleset that the engine and the service use. Commands travel as
/// JSON; [`Erased`] derives this from [`Rules`].
pub trait Ruleset: Send + Sync {
    fn info(&self) -> RulesetInfo;
    fn id(&self) -> Cow<'static, str>;
    fn versions(&self) -> &'static [&'static str];
    fn setup(&self, setup: &Setup, hidden: &mut DiceStream) -> Result<GameState, RuleError>;
    fn setup_version(
        &self,
        version: &str,
        setup: &Setup,
        hidden: &mut DiceStream,
    ) -> Result<GameState, RuleError>;
    fn prompts(&self, state: &GameState) -> Vec<Prompt>;
    fn may_act(&self, state: &GameState, seat: &Seat) -> bool;
    /// Reads a command given as JSON into its canonical JSON form, or fails naming what is wrong.
    fn check_json(&self, command: &Value) -> Result<Value, RuleError>;
    fn parse(&self, state: &GameState, seat: &Seat, text: &str) -> Result<Value, RuleError>;
    fn describe(&self, command: &Value) -> Result<String, RuleError>;
    fn seal(&self, command: &Value) -> Result<Option<(Value, Value)>, RuleError>;
    fn apply(
        &self,
        state: &mut GameState,
        seat: &Seat,
        command: &Value,
        ctx: &mut Ctx,
    ) -> Result<(), RuleError>;
    fn reveal(
        &self,
        state: &mut GameState,
        seat: &Seat,
        commitment: &str,
        choice: &Value,
        ctx: &mut Ctx,
    ) -> Result<(), RuleError>;
    fn timeout(&self, state: &mut GameState, seat: &Seat, ctx: &mut Ctx) -> Result<(), RuleError>;
    fn resign(&self, state: &mut GameState, seat: &Seat, ctx: &mut Ctx) -> Result<(), RuleError>;
    fn view(&self, state: &GameState, viewer: &Viewer) -> Value;
    fn outcome(&self, state: &GameState) -> Outcome;
    fn board_svg(
        &self,
        state: &GameState,
        viewer: &Viewer,
        context: &BoardContext,
    ) -> Option<String>;
    fn board_text(&self, state: &GameState, viewer: &Viewer) -> Option<String>;
    fn pointing(&self, state: &GameState, seat: &Seat) -> Vec<super::board::Pointed>;
    /// See [`Rules::hand`].
    fn hand(&self, state: &GameState, seat: &Seat) -> super::board::Hand;
    /// See [`Rules::own_options`].
    fn own_options(&self, state: &GameState, seat: &Seat, prompt: &Prompt) -> Vec<String>;
    /// See [`Rules::auto_pass`].
    fn auto_pass(&self, state: &GameState, seat: &Seat) -> Option<Value>;
    /// See [`Rules::may_tell`].
    fn may_tell(&self, state: &GameState, from: &Seat, to: &Seat) -> Result<(), RuleError>;
    fn state_json(&self, state: &GameState) -> Value;
    /// Reads back a state that `state_json` wrote (a snapshot's), or says why it does not read.
    /// Caches a state keeps beside its JSON (`#[serde(skip)]`) are rebuilt on first use.
    fn state_from_json(&self, state: Value) -> Result<GameState, String>;
    fn random_command(&self, state: &GameState, seat: &Seat, rng: BotRng) -> Option<Value>;

    /// A position set by hand (see [`Rules::position`]), with the sealed choices it holds.
    #[allow(clippy::type_complexity)]
    fn position(
        &self,
        setup: &Setup,
        text: &str,
        hidden: &mut DiceStream,
    ) -> Result<(GameState, Vec<(Seat, Value)>), PositionError>;
    fn position_format(&self) -> &'static str;
    /// See [`Rules::write_position`].
    fn write_position(&self, state: &GameState) -> Option<String>;
}

/// Any [`Rules`] as a [`Ruleset`].
pub struct Erased<R>(pub R);

impl<R: Rules> Erased<R> {
    fn state<'s>(&self, state: &'s GameState) -> &'s R::State {
        state
            .0
            .as_any()
            .downcast_ref()
            .expect("a state is only ever folded by its own ruleset")
    }
    fn state_mut<'s>(&self, state: &'s mut GameState) -> &'s mut R::State {
        state
            .0
            .as_any_mut()
            .downcast_mut()
            .expect("a state is only ever folded by its own ruleset")
    }
    fn command(&self, command: &Value) -> Result<R::Command, RuleError> {
        R::Command::deserialize(command).map_err(|e| {
            RuleError::new(
                "command format",
                format!("the command is not one this game knows: {e}"),
            )
        })
    }
    fn to_json(command: &R::Command) -> Value {
        serde_json::to_value(command).expect("commands serialise to JSON")
    }
}

impl<R: Rules> Ruleset for Erased<R> {
    fn info(&self) -> RulesetInfo {
        self.0.info()
    }
    fn id(&self) -> Cow<'static, str> {
        self.0.id()
    }
    fn versions(&self) -> &'static [&'static str] {
        self.0.versions()
    }
    fn setup(&self, setup: &Setup, hidden: &mut DiceStream) -> Result<GameState, RuleError> {
        Ok(GameState(Box::new(self.0.setup(setup, hidden)?)))
    }
    fn setup_version(
        &self,
        version: &str,
        setup: &Setup,
        hidden: &mut DiceStream,
    ) -> Result<GameState, RuleError> {
        Ok(GameState(Box::new(
            self.0.setup_version(version, setup, hidden)?,
        )))
    }
    fn prompts(&self, state: &GameState) -> Vec<Prompt> {
        self.0.prompts(self.state(state))
    }
    fn may_act(&self, state: &GameState, seat: &Seat) -> bool {
        self.0.may_act(self.state(state), seat)
    }
    fn check_json(&self, command: &Value) -> Result<Value, RuleError> {
        Ok(Self::to_json(&self.command(command)?))
    }
    fn parse(&self, state: &GameState, seat: &Seat, text: &str) -> Result<Value, RuleError> {
        Ok(Self::to_json(&self.0.parse(
            self.state(state),
            seat,
            text,
        )?))
    }
    fn describe(&self, command: &Value) -> Result<String, RuleError> {
        Ok(self.0.describe(&self.command(command)?))
    }
    fn seal(&self, command: &Value) -> Result<Option<(Value, Value)>, RuleError> {
        Ok(self
            .0
            .seal(&self.command(command)?)
            .map(|(choice, public)| (choice, Self::to_json(&public))))
    }
    fn apply(
        &self,
        state: &mut GameState,
        seat: &Seat,
        command: &Value,
        ctx: &mut Ctx,
    ) -> Result<(), RuleError> {
        let command = self.command(command)?;
        self.0.apply(self.state_mut(state), seat, &command, ctx)
    }
    fn reveal(
        &self,
        state: &mut GameState,
        seat: &Seat,
        commitment: &str,
        choice: &Value,
        ctx: &mut Ctx,
    ) -> Result<(), RuleError> {
        self.0
            .reveal(self.state_mut(state), seat, commitment, choice, ctx)
    }
    fn timeout(&self, state: &mut GameState, seat: &Seat, ctx: &mut Ctx) -> Result<(), RuleError> {
        self.0.timeout(self.state_mut(state), seat, ctx)
    }
    fn resign(&self, state: &mut GameState, seat: &Seat, ctx: &mut Ctx) -> Result<(), RuleError> {
        self.0.resign(self.state_mut(state), seat, ctx)
    }
    fn view(&self, state: &GameState, viewer: &Viewer) -> Value {
        self.0.view(self.state(state), viewer)
    }
    fn outcome(&self, state: &GameState) -> Outcome {
        self.0.outcome(self.state(state))
    }
    fn board_svg(
        &self,
        state: &GameState,
        viewer: &Viewer,
        context: &BoardContext,
    ) -> Option<String> {
        self.0.board_svg(self.state(state), viewer, context)
    }
    fn board_text(&self, state: &GameState, viewer: &Viewer) -> Option<String> {
        self.0.board_text(self.state(state), viewer)
    }
    fn pointing(&self, state: &GameState, seat: &Seat) -> Vec<super::board::Pointed> {
        self.0.pointing(self.state(state), seat)
    }
    fn hand(&self, state: &GameState, seat: &Seat) -> super::board::Hand {
        self.0.hand(self.state(state), seat)
    }
    fn own_options(&self, state: &GameState, seat: &Seat, prompt: &Prompt) -> Vec<String> {
        self.0.own_options(self.state(state), seat, prompt)
    }
    fn auto_pass(&self, state: &GameState, seat: &Seat) -> Option<Value> {
        self.0
            .auto_pass(self.state(state), seat)
            .map(|c| Self::to_json(&c))
    }
    fn may_tell(&self, state: &GameState, from: &Seat, to: &Seat) -> Result<(), RuleError> {
        self.0.may_tell(self.state(state), from, to)
    }
    fn state_json(&self, state: &GameState) -> Value {
        serde_json::to_value(self.state(state)).expect("states serialise to JSON")
    }
    fn state_from_json(&self, state: Value) -> Result<GameState, String> {
        let state = R::State::deserialize(state).map_err(|e| e.to_string())?;
        Ok(GameState(Box::new(state)))
    }
    fn random_command(&self, state: &GameState, seat: &Seat, rng: BotRng) -> Option<Value> {
        self.0
            .random_command(self.state(state), seat, rng)
            .map(|c| Self::to_json(&c))
    }
    fn position(
        &self,
        setup: &Setup,
        text: &str,
        hidden: &mut DiceStream,
    ) -> Result<(GameState, Vec<(Seat, Value)>), PositionError> {
        let p = self.0.position(setup, text, hidden)?;
        Ok((GameState(Box::new(p.state)), p.sealed))
    }
    fn position_format(&self) -> &'static str {
        self.0.position_format()
    }
    fn write_position(&self, state: &GameState) -> Option<String> {
        self.0.write_position(self.state(state))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_named_by_their_ids_keep_the_order_and_refuse_a_bad_id() {
        let seats = SeatDef::named_by_id(&["american", "british"]).unwrap();
        let ids: Vec<(&str, &str)> = seats
            .iter()
            .map(|s| (s.seat.as_str(), s.name.as_str()))
            .collect();
        assert_eq!(ids, [("american", "american"), ("british", "british")]);
        let e = SeatDef::named_by_id(&["american", "British"]).unwrap_err();
        assert!(e.contains("'British' is not a seat id"), "{e}");
    }
}
