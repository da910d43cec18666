//! Fold and play: a game's state is the fold of its events through its ruleset, and a move is
//! played by applying it live (dice drawn from the committed chain) and then folding the
//! events it produced, so that what is stored is exactly what every later fold will see.
//!
//! The fold checks the log's structure (sequence, links between events, chain positions) and
//! the rules; the cryptographic checks of an export (hashes, dice, reveals) are `verify`'s.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::canonical::{hash_json, hex32, sha256_hex};
use super::dice::{hidden_stream, Chain, DiceCommitments, DiceStream};
use super::event::{kind, DiceRecord, Event, GENESIS_HASH, SYSTEM_SEAT};
use super::files::FileRef;
use super::ruleset::{
    hidden_unavailable, newest, Applied, Ctx, DiceSource, GameState, Outcome, Prompt, RuleError,
    Ruleset, Seat, SeatDef, Setup, Viewer,
};
use super::sealed::SealedChoice;

/// The payload of `GameCreated`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Created {
    pub ruleset: String,
    pub ruleset_version: String,
    pub scenario: String,
    pub options: Value,
    pub seats: Vec<SeatDef>,
    pub dice_commitments: DiceCommitments,
}

/// Where the public dice chain stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChainCursor {
    pub chain: u32,
    pub length: u32,
    /// The index the next rolling event reveals.
    pub next_index: u32,
}

impl ChainCursor {
    fn start(commitments: &DiceCommitments) -> Result<Self, String> {
        hex32(&commitments.s0).ok_or("the dice commitment s0 is not 32 bytes of hex")?;
        Ok(ChainCursor {
            chain: commitments.chain,
            length: commitments.length,
            next_index: 1,
        })
    }

    pub fn exhausted(&self) -> bool {
        self.next_index > self.length
    }
}

/// A sealed choice not yet revealed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenSeal {
    pub seat: Seat,
    pub seq: u64,
}

/// How an event is folded: with its outcome lines (a move just played, a notice), quietly
/// (`verify`: every check, no lines), or as an event these rules accepted before (loading a game:
/// no lines, and checks that can only refuse may be skipped).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reading {
    Lines,
    Quiet,
    Accepted,
}

impl Reading {
    fn ctx(self, ctx: Ctx<'_>) -> Ctx<'_> {
        match self {
            Reading::Lines => ctx,
            Reading::Quiet => ctx.quiet(),
            Reading::Accepted => ctx.quiet().accepted(),
        }
    }
}

/// The seat named `name` among the game's seats.
fn seat_named<'s>(seats: &'s [SeatDef], seq: u64, name: &str) -> Result<&'s Seat, FoldError> {
    seats
        .iter()
        .find(|s| s.seat.as_str() == name)
        .map(|s| &s.seat)
        .ok_or_else(|| bad(seq, format!("'{name}' is not a seat of this game")))
}

/// Why a log does not fold: the first bad event and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("seq {seq}: {problem}")]
pub struct FoldError {
    pub seq: u64,
    pub problem: String,
}

/// Which rules versions a fold accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Versions {
    /// Those the ruleset plays (`Rules::versions`): a game folds under the rules it began with.
    Played,
    /// Any, one this build does not play folded under the newest (`verify`'s best effort).
    AnyAsNewest,
}

/// The versions a ruleset plays, for a player: "version 3", "versions 3 and 4", "versions 3, 4
/// and 5".
pub fn versions_text(versions: &[&str]) -> String {
    match versions {
        [one] => format!("version {one}"),
        [] => "no version".into(),
        several => format!("versions {}", super::words::and_list(several)),
    }
}

/// Why a game of a rules version this build does not play is refused.
fn not_played(ruleset: &str, version: &str, played: &[&str]) -> String {
    format!(
        "this game was created under {ruleset} rules version {version}, which this build does not play (it plays {}): a game keeps the rules it began with, so load it with a Despatch build that plays version {version} (docs/operations.md, \"Upgrading a server with running campaigns\")",
        versions_text(played)
    )
}

fn bad(seq: u64, problem: impl Into<String>) -> FoldError {
    FoldError {
        seq,
        problem: problem.into(),
    }
}

/// A game folded up to some event.
#[derive(Clone)]
pub struct Game {
    pub ruleset: Arc<dyn Ruleset>,
    pub game_id: String,
    pub created: Created,
    pub state: GameState,
    pub next_seq: u64,
    pub last_hash: String,
    pub chain: ChainCursor,
    pub open_seals: BTreeMap<String, OpenSeal>,
    pub hidden_seed: Option<[u8; 32]>,
    pub ended: bool,
}

/// What the server holds secret for a game, as far as a move needs it.
pub trait Secrets {
    /// The tip of public chain `chain`.
    fn chain_tip(&self, chain: u32) -> Option<[u8; 32]>;
    /// Link `index` of chain `chain` (`length` links long). Hashes down from the tip unless the
    /// holder keeps the links.
    fn chain_link(&self, chain: u32, length: u32, index: u32) -> Option<[u8; 32]> {
        Some(Chain::new(self.chain_tip(chain)?, length).link(index))
    }
    /// A sealed choice by its commitment.
    fn sealed(&self, commitment: &str) -> Option<SealedChoice>;
}

/// What a move needs from the world: the time and fresh secrets. Passed in, so that the engine
/// stays pure and tests are deterministic.
pub trait World {
    fn now(&self) -> String;
    fn random32(&mut self) -> [u8; 32];
    fn seal(&mut self, choice: Value) -> SealedChoice;
}

/// The secrets a move creates, for the store's secrets table.
#[derive(Debug, Clone, PartialEq)]
pub enum NewSecret {
    Chain {
        chain: u32,
        tip: [u8; 32],
        length: u32,
    },
    Sealed {
        seat: Seat,
        sealed: SealedChoice,
    },
}

/// What a new game starts with: its first event and its secrets.
pub struct NewGame {
    pub game: Game,
    pub event: Event,
    pub hidden_seed: [u8; 32],
    pub chain_tip: [u8; 32],
}

/// The length of each public dice chain.
pub const CHAIN_LENGTH: u32 = 1024;

/// What a seat (or the clock) asks to do.
#[derive(Debug, Clone)]
pub enum Move {
    Command {
        seat: Seat,
        command: Value,
        client_entropy: String,
    },
    /// The deadline passed with no answer from `seat`.
    Timeout {
        seat: Seat,
    },
    Resign {
        seat: Seat,
    },
}

/// A played move: the events to append, the secrets to keep, what happened.
pub struct Played {
    pub events: Vec<Event>,
    pub secrets: Vec<NewSecret>,
    pub applied: Applied,
    pub game: Game,
}

impl Game {
    /// Creates a game: runs the ruleset's setup and builds `GameCreated`.
    pub fn create(
        ruleset: Arc<dyn Ruleset>,
        setup: Setup,
        world: &mut dyn World,
    ) -> Result<NewGame, RuleError> {
        let info = ruleset.info();
        let hidden_seed = world.random32();
        let chain_tip = world.random32();
        let chain = Chain::new(chain_tip, CHAIN_LENGTH);
        let created = Created {
            ruleset: info.id,
            ruleset_version: info.version,
            scenario: setup.scenario.clone(),
            options: setup.options.clone(),
            seats: setup.seats.clone(),
            dice_commitments: DiceCommitments {
                chain: 0,
                length: CHAIN_LENGTH,
                s0: hex::encode(chain.link(0)),
                hidden: Some(sha256_hex(&hidden_seed)),
            },
        };
        // Run setup once to refuse a bad set-up before anything is written.
        ruleset.setup(&setup, &mut hidden_stream(&hidden_seed, &setup.game_id, 0))?;
        let event = Event::new(
            &setup.game_id,
            0,
            kind::GAME_CREATED,
            SYSTEM_SEAT,
            serde_json::to_value(&created).expect("serialisable"),
            world.now(),
            None,
            GENESIS_HASH,
        );
        let game = Game::fold(ruleset, std::slice::from_ref(&event), Some(hidden_seed))
            .map_err(|e| RuleError::new("set-up", e.to_string()))?;
        Ok(NewGame {
            game,
            event,
            hidden_seed,
            chain_tip,
        })
    }

    /// Folds a log of the service's own, every event of which these rules accepted when it was
    /// played. Seqs, kinds, seats, turns and the dice's places in the chain are checked; what
    /// the store and the move path guarantee for their own rows (the game id, `prev_hash`
    /// links, dice links as hex) is not, and the rules are told that each command was accepted
    /// before (`Ctx::already_accepted`), so that they may skip checks that can only refuse.
    /// Nobody reads the outcome lines. `verify` folds an export it does not trust event by
    /// event with `fold_event_quietly`, every check made. The bot property tests compare the
    /// two folds' states for every ruleset.
    pub fn fold(
        ruleset: Arc<dyn Ruleset>,
        events: &[Event],
        hidden_seed: Option<[u8; 32]>,
    ) -> Result<Game, FoldError> {
        let first = events.first().ok_or_else(|| bad(0, "the log is empty"))?;
        let mut game = Game::start(ruleset, first, hidden_seed, Versions::Played)?;
        for event in &events[1..] {
            game.fold_event_as(event, Reading::Accepted)?;
        }
        if let Some(last) = events.last() {
            game.last_hash.clone_from(&last.hash);
        }
        Ok(game)
    }

    /// Starts the fold of a log that `verify` checks: as [`Game::fold`]'s start, except that a
    /// log of a rules version this build does not play is folded under the newest, so that its
    /// checks still run (a failure is then reported with both versions named).
    pub(crate) fn start_any_version(
        ruleset: Arc<dyn Ruleset>,
        event: &Event,
        hidden_seed: Option<[u8; 32]>,
    ) -> Result<Game, FoldError> {
        Game::start(ruleset, event, hidden_seed, Versions::AnyAsNewest)
    }

    fn start(
        ruleset: Arc<dyn Ruleset>,
        event: &Event,
        hidden_seed: Option<[u8; 32]>,
        versions: Versions,
    ) -> Result<Game, FoldError> {
        if event.seq != 0 || event.kind != kind::GAME_CREATED {
            return Err(bad(
                event.seq,
                "the first event must be GameCreated with seq 0",
            ));
        }
        if event.prev_hash != GENESIS_HASH {
            return Err(bad(0, "GameCreated's prev_hash must be 64 zeros"));
        }
        let created = Created::deserialize(&event.payload)
            .map_err(|e| bad(0, format!("GameCreated's payload is malformed: {e}")))?;
        let id = ruleset.id();
        if created.ruleset != id {
            return Err(bad(
                0,
                format!("the log is a {} game, not {id}", created.ruleset),
            ));
        }
        if let (Some(seed), Some(commitment)) = (hidden_seed, &created.dice_commitments.hidden) {
            if &sha256_hex(&seed) != commitment {
                return Err(bad(0, "the hidden seed does not match its commitment"));
            }
        }
        let played = ruleset.versions();
        let version = match played.iter().find(|v| **v == created.ruleset_version) {
            Some(v) => *v,
            None if versions == Versions::AnyAsNewest => newest(played),
            None => return Err(bad(0, not_played(&id, &created.ruleset_version, played))),
        };
        let setup = Setup {
            game_id: event.game_id.clone(),
            scenario: created.scenario.clone(),
            options: created.options.clone(),
            seats: created.seats.clone(),
        };
        // Without the seed (a fold that is not the server's), set-up draws from zeros: the
        // hidden stream of a game from before hidden seeds were committed. A game that has one
        // and deals from it at set-up (hands dealt face down) cannot be folded without it.
        let mut hidden = hidden_stream(&hidden_seed.unwrap_or([0; 32]), &event.game_id, 0);
        let state = ruleset
            .setup_version(version, &setup, &mut hidden)
            .map_err(|e| bad(0, format!("set-up failed: {e}")))?;
        if hidden_seed.is_none() && created.dice_commitments.hidden.is_some() && hidden.drawn() {
            return Err(bad(0, hidden_unavailable().to_string()));
        }
        let chain = ChainCursor::start(&created.dice_commitments).map_err(|e| bad(0, e))?;
        Ok(Game {
            ruleset,
            game_id: setup.game_id,
            created,
            state,
            next_seq: 1,
            last_hash: event.hash.clone(),
            chain,
            open_seals: BTreeMap::new(),
            hidden_seed,
            ended: false,
        })
    }

    /// Folds one more event, with the outcome lines it produced.
    pub fn fold_event(&mut self, event: &Event) -> Result<Applied, FoldError> {
        self.fold_event_as(event, Reading::Lines)
    }

    /// Folds one more event for its state alone: the rules are told that no outcome line will be
    /// read (`Ctx::lines_wanted`), which spares a long re-fold most of its string formatting.
    pub fn fold_event_quietly(&mut self, event: &Event) -> Result<(), FoldError> {
        self.fold_event_as(event, Reading::Quiet).map(drop)
    }

    fn fold_event_as(&mut self, event: &Event, reading: Reading) -> Result<Applied, FoldError> {
        FOLDED_HERE.with(|n| n.set(n.get() + 1));
        let seq = event.seq;
        if self.ended {
            return Err(bad(seq, "the game already ended"));
        }
        // Which game and which event came before are the log's structure: checked in every
        // fold but the service's re-fold of its own log, whose rows the store keys by game and
        // seq and whose links it wrote itself (verify checks them in an export).
        let checked = reading != Reading::Accepted;
        if checked && event.game_id != self.game_id {
            return Err(bad(
                seq,
                format!(
                    "the event belongs to game {}, not {}",
                    event.game_id, self.game_id
                ),
            ));
        }
        if seq != self.next_seq {
            return Err(bad(seq, format!("expected seq {}", self.next_seq)));
        }
        if checked && event.prev_hash != self.last_hash {
            return Err(bad(seq, "prev_hash is not the hash of the event before it"));
        }
        if event.dice.is_some() && event.kind != kind::COMMAND && event.kind != kind::TIMEOUT {
            return Err(bad(seq, format!("a {} event cannot roll dice", event.kind)));
        }
        let applied = match event.kind.as_str() {
            kind::COMMAND | kind::TIMEOUT | kind::RESIGNED => self.fold_move(event, reading)?,
            kind::REVEALED => self.fold_reveal(event, reading)?,
            kind::DICE_CHAIN_COMMITTED => {
                let commitments: DiceCommitments = serde_json::from_value(
                    event
                        .payload
                        .get("dice_commitments")
                        .cloned()
                        .unwrap_or(Value::Null),
                )
                .map_err(|e| bad(seq, format!("dice_commitments is malformed: {e}")))?;
                if commitments.chain != self.chain.chain + 1 {
                    return Err(bad(
                        seq,
                        format!("the new chain must be chain {}", self.chain.chain + 1),
                    ));
                }
                self.chain = ChainCursor::start(&commitments).map_err(|e| bad(seq, e))?;
                Applied::default()
            }
            kind::GAME_ENDED => {
                if let Some(seed) = event.payload.get("hidden_seed").and_then(Value::as_str) {
                    let seed = hex32(seed)
                        .ok_or_else(|| bad(seq, "hidden_seed is not 32 bytes of hex"))?;
                    let commitment = self
                        .created
                        .dice_commitments
                        .hidden
                        .as_deref()
                        .unwrap_or_default();
                    if sha256_hex(&seed) != commitment {
                        return Err(bad(
                            seq,
                            "the revealed hidden seed does not match its commitment in GameCreated",
                        ));
                    }
                    self.hidden_seed = Some(seed);
                }
                self.ended = true;
                Applied::default()
            }
            kind::CLOCK => {
                if event.seat != SYSTEM_SEAT {
                    return Err(bad(seq, "a Clock event is the system's, not a seat's"));
                }
                if event.payload.get("clock").and_then(Value::as_str).is_none() {
                    return Err(bad(
                        seq,
                        "a Clock event names what happened in payload.clock",
                    ));
                }
                Applied::default()
            }
            other => return Err(bad(seq, format!("unknown event kind '{other}'"))),
        };
        self.next_seq += 1;
        if checked {
            self.last_hash.clone_from(&event.hash);
        }
        Ok(applied)
    }

    fn seat_of(&self, seq: u64, name: &str) -> Result<Seat, FoldError> {
        seat_named(&self.created.seats, seq, name).cloned()
    }

    fn fold_move(&mut self, event: &Event, reading: Reading) -> Result<Applied, FoldError> {
        let seq = event.seq;
        let no_rolls = Vec::new();
        let rolls = match &event.dice {
            Some(dice) => {
                self.check_dice(event, dice, reading)?;
                &dice.rolls
            }
            None => &no_rolls,
        };
        let commitment = event
            .payload
            .get("commitment")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let mut ctx =
            reading.ctx(Ctx::new(DiceSource::Recorded(rolls), None).with_commitment(commitment));
        if let Some(seed) = self.hidden_seed {
            ctx = ctx.with_hidden_seed(seed, &self.game_id, seq);
        }
        let result = match event.kind.as_str() {
            kind::COMMAND => {
                let seat = seat_named(&self.created.seats, seq, &event.seat)?;
                if !self.ruleset.may_act(&self.state, seat) {
                    return Err(bad(seq, format!("it was not {seat}'s turn to act")));
                }
                let command = event
                    .payload
                    .get("command")
                    .ok_or_else(|| bad(seq, "a Command event has no command"))?;
                let r = self.ruleset.apply(&mut self.state, seat, command, &mut ctx);
                if let (Some(c), Ok(())) = (ctx.commitment(), &r) {
                    let seat = seat.clone();
                    self.open_seals.insert(c.to_owned(), OpenSeal { seat, seq });
                }
                r
            }
            kind::TIMEOUT => {
                let name = event
                    .payload
                    .get("seat")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let seat = self.seat_of(seq, name)?;
                if !self
                    .ruleset
                    .prompts(&self.state)
                    .iter()
                    .any(|p| p.seat == seat && p.pass_on_timeout)
                {
                    return Err(bad(
                        seq,
                        format!("{seat} had no decision that a deadline could pass"),
                    ));
                }
                self.ruleset.timeout(&mut self.state, &seat, &mut ctx)
            }
            _ => {
                let seat = self.seat_of(seq, &event.seat)?;
                self.ruleset.resign(&mut self.state, &seat, &mut ctx)
            }
        };
        result.map_err(|e| bad(seq, format!("the rules refuse this event: {e}")))?;
        let applied = ctx.finish();
        if let Some(problem) = &applied.dice_problem {
            return Err(bad(seq, format!("dice do not match the rules: {problem}")));
        }
        if applied.drawn != rolls.len() {
            return Err(bad(
                seq,
                format!(
                    "the event records {} dice but the rules drew {}",
                    rolls.len(),
                    applied.drawn
                ),
            ));
        }
        if event.dice.is_some() {
            self.chain.next_index += 1;
        }
        Ok(applied)
    }

    /// Checks the dice's place in the chain, and that their link is a link (whether it is the
    /// right one is `verify`'s to check, with the hashes).
    fn check_dice(
        &self,
        event: &Event,
        dice: &DiceRecord,
        reading: Reading,
    ) -> Result<(), FoldError> {
        let seq = event.seq;
        if dice.chain != self.chain.chain || dice.index != self.chain.next_index {
            return Err(bad(
                seq,
                format!(
                    "the dice use chain {} link {}, but the next link is chain {} link {}",
                    dice.chain, dice.index, self.chain.chain, self.chain.next_index
                ),
            ));
        }
        if self.chain.exhausted() {
            return Err(bad(
                seq,
                "the dice chain is used up and no new chain was committed",
            ));
        }
        if reading != Reading::Accepted && hex32(&dice.link).is_none() {
            return Err(bad(seq, "the dice link is not 32 bytes of hex"));
        }
        Ok(())
    }

    fn fold_reveal(&mut self, event: &Event, reading: Reading) -> Result<Applied, FoldError> {
        let seq = event.seq;
        let sealed: SealedChoice = serde_json::from_value(event.payload.clone()).map_err(|e| {
            bad(
                seq,
                format!("a Revealed event needs commitment, choice and salt: {e}"),
            )
        })?;
        sealed.opens().map_err(|e| bad(seq, e.to_string()))?;
        let open = self.open_seals.remove(&sealed.commitment).ok_or_else(|| {
            bad(
                seq,
                format!(
                    "commitment {} was never sealed, or is already revealed",
                    sealed.commitment
                ),
            )
        })?;
        let mut ctx = reading.ctx(Ctx::new(DiceSource::None, None));
        if let Some(seed) = self.hidden_seed {
            ctx = ctx.with_hidden_seed(seed, &self.game_id, seq);
        }
        self.ruleset
            .reveal(
                &mut self.state,
                &open.seat,
                &sealed.commitment,
                &sealed.choice,
                &mut ctx,
            )
            .map_err(|e| bad(seq, format!("the rules refuse this reveal: {e}")))?;
        let applied = ctx.finish();
        if let Some(problem) = &applied.dice_problem {
            return Err(bad(seq, problem.clone()));
        }
        Ok(applied)
    }

    /// Who may act now.
    pub fn prompts(&self) -> Vec<Prompt> {
        if self.ended {
            return Vec::new();
        }
        self.ruleset.prompts(&self.state)
    }

    /// `seat`'s own prompts, their options as the seat itself is told them
    /// (`Rules::own_options`: its own cards where the public prompt names a form).
    pub fn own_prompts(&self, seat: &Seat) -> Vec<Prompt> {
        self.prompts()
            .into_iter()
            .filter(|p| &p.seat == seat)
            .map(|mut p| {
                p.options = self.ruleset.own_options(&self.state, seat, &p);
                p
            })
            .collect()
    }

    pub fn outcome(&self) -> Outcome {
        self.ruleset.outcome(&self.state)
    }

    pub fn view(&self, viewer: &Viewer) -> Value {
        self.ruleset.view(&self.state, viewer)
    }

    /// SHA-256 of the canonical JSON of the full state.
    pub fn state_hash(&self) -> String {
        hash_json(&self.ruleset.state_json(&self.state))
    }

    pub fn seat(&self, name: &str) -> Option<&SeatDef> {
        self.created.seats.iter().find(|s| s.seat.as_str() == name)
    }

    /// Records what the game's clock did (a reminder, a missed deadline, a vacation, a pause) as
    /// a `Clock` event, and the game folded past it. The ruleset never sees it.
    pub fn note_clock(
        &self,
        payload: Value,
        world: &mut dyn World,
    ) -> Result<(Event, Game), RuleError> {
        if self.ended {
            return Err(RuleError::new(
                "game over",
                "the game has ended; its clock has stopped",
            ));
        }
        if payload.get("clock").and_then(Value::as_str).is_none() {
            return Err(RuleError::new(
                "clock",
                "a clock event must say what happened",
            ));
        }
        let event = self.append(kind::CLOCK, SYSTEM_SEAT, payload, None, world);
        let mut next = self.clone();
        next.fold_event(&event)
            .map_err(|e| RuleError::new("clock", e.to_string()))?;
        Ok((event, next))
    }

    /// Plays a move: validates it, draws its dice, and returns the events to append (the move,
    /// any reveals it triggers, a new dice chain if this one is used up, and `GameEnded` if the
    /// game is over), with the game folded past them. Nothing changes on a rule error.
    pub fn play(
        &self,
        mv: Move,
        secrets: &dyn Secrets,
        world: &mut dyn World,
    ) -> Result<Played, RuleError> {
        self.play_with_files(mv, &[], secrets, world)
    }

    /// `play`, with the files the move carries (`files`, docs/files.md) listed in its
    /// `Command` event's payload beside the command: the hash chain covers them, the rules never
    /// see them. Only an order carries files; none leaves the payload as `play` writes it.
    pub fn play_with_files(
        &self,
        mv: Move,
        files: &[FileRef],
        secrets: &dyn Secrets,
        world: &mut dyn World,
    ) -> Result<Played, RuleError> {
        if !files.is_empty() && !matches!(mv, Move::Command { .. }) {
            return Err(RuleError::new(
                "files",
                "only an order carries files; a timeout or a resignation cannot",
            ));
        }
        if self.ended {
            return Err(RuleError::new(
                "game over",
                "the game has ended; no more moves can be made",
            ));
        }
        let (seat, event_kind) = match &mv {
            Move::Command { seat, .. } => (seat, kind::COMMAND),
            Move::Timeout { seat } => (seat, kind::TIMEOUT),
            Move::Resign { seat } => (seat, kind::RESIGNED),
        };
        if self.seat(seat.as_str()).is_none() {
            return Err(RuleError::new(
                "seats",
                format!("'{seat}' is not a seat of this game"),
            ));
        }
        // `may_act` answers as `prompts` does, without the prompts' examples.
        if matches!(mv, Move::Command { .. } | Move::Timeout { .. })
            && !self.ruleset.may_act(&self.state, seat)
        {
            let waiting: Vec<_> = self.prompts().iter().map(|p| p.seat.to_string()).collect();
            return Err(RuleError::new(
                "turn order",
                format!(
                    "it is not {seat}'s turn to act; the game waits for {}",
                    list_or_none(&waiting)
                ),
            ));
        }
        if let Move::Timeout { seat } = &mv {
            if !self
                .prompts()
                .iter()
                .any(|p| &p.seat == seat && p.pass_on_timeout)
            {
                return Err(RuleError::new(
                    "deadlines",
                    format!("{seat}'s decision cannot be passed when its deadline runs out"),
                ));
            }
        }

        let mut secrets_out = Vec::new();
        let mut payload = json!({});
        let mut live = self.state.clone();
        let mut hidden = self
            .hidden_seed
            .map(|s| hidden_stream(&s, &self.game_id, self.next_seq));
        let link = secrets
            .chain_link(
                self.chain.chain,
                self.chain.length,
                self.chain.next_index.min(self.chain.length),
            )
            .ok_or_else(|| RuleError::new("dice", "the server lost this game's dice chain"))?;
        // The dice stream is keyed with the event's own seat, so timeouts roll as `system`.
        let (event_seat, entropy) = match &mv {
            Move::Command {
                seat,
                client_entropy,
                ..
            } => (seat.as_str(), client_entropy.as_str()),
            Move::Timeout { .. } => (SYSTEM_SEAT, ""),
            Move::Resign { seat } => (seat.as_str(), ""),
        };
        let mut stream = DiceStream::new(&link, &self.game_id, self.next_seq, event_seat, entropy);
        let result = {
            let commitment;
            let mut ctx;
            match &mv {
                Move::Command { command, .. } => {
                    let public = match self.ruleset.seal(command)? {
                        Some((choice, public)) => {
                            let sealed = world.seal(choice);
                            payload["commitment"] = json!(sealed.commitment);
                            commitment = Some(sealed.commitment.clone());
                            secrets_out.push(NewSecret::Sealed {
                                seat: seat.clone(),
                                sealed,
                            });
                            public
                        }
                        None => {
                            commitment = None;
                            command.clone()
                        }
                    };
                    payload["command"] = public;
                    if !files.is_empty() {
                        payload["files"] = json!(files);
                    }
                    ctx = Ctx::new(DiceSource::Stream(&mut stream), hidden.as_mut())
                        .with_commitment(commitment);
                    let r = self.ruleset.apply(&mut live, seat, command, &mut ctx);
                    (r, ctx)
                }
                Move::Timeout { seat } => {
                    payload["seat"] = json!(seat);
                    ctx = Ctx::new(DiceSource::Stream(&mut stream), hidden.as_mut());
                    let r = self.ruleset.timeout(&mut live, seat, &mut ctx);
                    (r, ctx)
                }
                Move::Resign { seat } => {
                    ctx = Ctx::new(DiceSource::Stream(&mut stream), hidden.as_mut());
                    let r = self.ruleset.resign(&mut live, seat, &mut ctx);
                    (r, ctx)
                }
            }
        };
        let (result, ctx) = result;
        if let Err(e) = result {
            debug_assert!(
                !ctx.rolled(),
                "ruleset bug: a rule error after dice were drawn ({e})"
            );
            return Err(e);
        }
        let live_applied = ctx.finish();
        let dice = (!live_applied.rolls.is_empty()).then(|| DiceRecord {
            chain: self.chain.chain,
            index: self.chain.next_index,
            link: hex::encode(link),
            client_entropy: entropy.to_owned(),
            rolls: live_applied.rolls.clone(),
        });

        let mut game = self.clone();
        let mut events = Vec::new();
        let first = game.append(event_kind, event_seat, payload, dice, world);
        let applied = game.fold_event(&first).map_err(internal)?;
        debug_assert_eq!(
            hash_json(&self.ruleset.state_json(&live)),
            game.state_hash(),
            "ruleset bug: the live apply and the fold of its event disagree"
        );
        events.push(first);

        // Reveals the move asked for.
        let mut new_sealed: BTreeMap<String, SealedChoice> = secrets_out
            .iter()
            .filter_map(|s| match s {
                NewSecret::Sealed { sealed, .. } => {
                    Some((sealed.commitment.clone(), sealed.clone()))
                }
                _ => None,
            })
            .collect();
        let mut lookup = |c: &str| new_sealed.remove(c).or_else(|| secrets.sealed(c));
        for commitment in &applied.reveal_requests {
            game.reveal(commitment, &mut lookup, world, &mut events)?;
        }
        if game.chain.exhausted() && !game.outcome().is_finished() {
            let tip = world.random32();
            let chain = Chain::new(tip, CHAIN_LENGTH);
            let commitments = DiceCommitments {
                chain: game.chain.chain + 1,
                length: CHAIN_LENGTH,
                s0: hex::encode(chain.link(0)),
                hidden: None,
            };
            let e = game.append(
                kind::DICE_CHAIN_COMMITTED,
                SYSTEM_SEAT,
                json!({"dice_commitments": commitments}),
                None,
                world,
            );
            game.fold_event(&e).map_err(internal)?;
            events.push(e);
            secrets_out.push(NewSecret::Chain {
                chain: commitments.chain,
                tip,
                length: CHAIN_LENGTH,
            });
        }
        if let Outcome::Finished { .. } = game.outcome() {
            game.end(&mut lookup, world, &mut events)?;
        }
        Ok(Played {
            events,
            secrets: secrets_out,
            applied,
            game,
        })
    }

    fn append(
        &self,
        event_kind: &str,
        seat: &str,
        payload: Value,
        dice: Option<DiceRecord>,
        world: &mut dyn World,
    ) -> Event {
        Event::new(
            &self.game_id,
            self.next_seq,
            event_kind,
            seat,
            payload,
            world.now(),
            dice,
            &self.last_hash,
        )
    }

    fn reveal(
        &mut self,
        commitment: &str,
        lookup: &mut dyn FnMut(&str) -> Option<SealedChoice>,
        world: &mut dyn World,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let sealed = lookup(commitment).ok_or_else(|| {
            RuleError::new(
                "sealed choices",
                format!("no sealed choice {commitment} to reveal"),
            )
        })?;
        let e = self.append(
            kind::REVEALED,
            SYSTEM_SEAT,
            serde_json::to_value(&sealed).expect("serialisable"),
            None,
            world,
        );
        self.fold_event(&e).map_err(internal)?;
        events.push(e);
        Ok(())
    }

    /// Opens every sealed choice still closed and reveals the hidden seed: the game's last event.
    fn end(
        &mut self,
        lookup: &mut dyn FnMut(&str) -> Option<SealedChoice>,
        world: &mut dyn World,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let open: Vec<String> = self.open_seals.keys().cloned().collect();
        for commitment in open {
            self.reveal(&commitment, lookup, world, events)?;
        }
        let payload = json!({
            "outcome": self.outcome(),
            "hidden_seed": self.hidden_seed.map(hex::encode),
            "state_hash": self.state_hash(),
        });
        let e = self.append(kind::GAME_ENDED, SYSTEM_SEAT, payload, None, world);
        self.fold_event(&e).map_err(internal)?;
        events.push(e);
        Ok(())
    }
}

fn internal(e: FoldError) -> RuleError {
    RuleError::new("internal", format!("the move could not be folded: {e}"))
}

fn list_or_none(items: &[String]) -> String {
    if items.is_empty() {
        "nobody".into()
    } else {
        items.join(", ")
    }
}

thread_local! {
    /// Events folded on this thread (`events_folded_here`).
    static FOLDED_HERE: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many events this thread has folded onto a game so far (every event after a log's first,
/// by any fold). For tests that a path reads a cached state instead of folding the log: a
/// counter of the thread's own, so that work on other threads does not blur it.
pub fn events_folded_here() -> u64 {
    FOLDED_HERE.with(|n| n.get())
}
