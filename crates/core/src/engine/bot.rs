//! The random-legal-move bot and the world it plays in: a deterministic clock and random
//! source, and secrets kept in memory. Property tests drive every ruleset with it (no panic,
//! identical re-fold, the export verifies, no sealed secret in another seat's view), and the
//! benchmarks use it to make long games.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::Value;

use super::dice::Chain;
use super::event::Event;
use super::export::{self, Header};
use super::game::{Game, Move, NewSecret, Played, Secrets, World};
use super::ruleset::{Ruleset, Setup, Viewer};
use super::sealed::SealedChoice;
use super::verify;

/// SplitMix64: small, fast, and plenty for bots and test worlds.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    pub fn bytes32(&mut self) -> [u8; 32] {
        let mut out = [0u8; 32];
        for chunk in out.chunks_mut(8) {
            chunk.copy_from_slice(&self.next_u64().to_le_bytes());
        }
        out
    }
}

/// A deterministic world: a clock that ticks a second per event and seeded randomness.
pub struct TestWorld {
    pub rng: Rng,
    pub tick: i64,
}

impl TestWorld {
    pub fn new(seed: u64) -> Self {
        TestWorld {
            rng: Rng::new(seed),
            tick: 0,
        }
    }
}

impl World for TestWorld {
    fn now(&self) -> String {
        let start = chrono::DateTime::parse_from_rfc3339("2026-11-22T07:00:00Z")
            .expect("valid")
            .to_utc();
        super::event::timestamp(start + chrono::Duration::seconds(self.tick))
    }
    fn random32(&mut self) -> [u8; 32] {
        self.tick += 1;
        self.rng.bytes32()
    }
    fn seal(&mut self, choice: Value) -> SealedChoice {
        let salt = self.rng.bytes32();
        SealedChoice::with_salt(choice, &salt[..16])
    }
}

/// Secrets kept in memory. Each chain's links are computed once and kept, so that a bot's
/// thousands of moves do not hash down from the tip every time.
#[derive(Debug, Clone, Default)]
pub struct MemorySecrets {
    pub chains: BTreeMap<u32, [u8; 32]>,
    pub sealed: BTreeMap<String, (String, SealedChoice)>,
    pub hidden_seed: Option<[u8; 32]>,
    /// A cache of each chain's links, filled on first use.
    pub links: std::cell::RefCell<BTreeMap<u32, Vec<[u8; 32]>>>,
}

impl MemorySecrets {
    pub fn keep(&mut self, secrets: &[NewSecret]) {
        for s in secrets {
            match s {
                NewSecret::Chain { chain, tip, .. } => {
                    self.chains.insert(*chain, *tip);
                }
                NewSecret::Sealed { seat, sealed } => {
                    self.sealed.insert(
                        sealed.commitment.clone(),
                        (seat.to_string(), sealed.clone()),
                    );
                }
            }
        }
    }
}

impl MemorySecrets {
    /// The secrets as JSON (seeds and tips in hex), to keep beside a log that will be played on.
    pub fn to_json(&self) -> Value {
        serde_json::json!({
            "hidden_seed": self.hidden_seed.map(hex::encode),
            "chains": self.chains.iter().map(|(c, tip)| (c.to_string(), hex::encode(tip))).collect::<BTreeMap<_, _>>(),
            "sealed": self.sealed,
        })
    }

    /// Reads back [`MemorySecrets::to_json`].
    pub fn from_json(json: &Value) -> Result<MemorySecrets, String> {
        let hex32 = |v: &Value| {
            v.as_str()
                .and_then(super::canonical::hex32)
                .ok_or_else(|| format!("{v} is not 32 bytes of hex"))
        };
        let hidden_seed = match &json["hidden_seed"] {
            Value::Null => None,
            v => Some(hex32(v)?),
        };
        let mut chains = BTreeMap::new();
        for (chain, tip) in json["chains"].as_object().ok_or("no chains")? {
            let chain = chain.parse().map_err(|_| format!("chain {chain:?}"))?;
            chains.insert(chain, hex32(tip)?);
        }
        let sealed = serde_json::from_value(json["sealed"].clone())
            .map_err(|e| format!("sealed choices: {e}"))?;
        Ok(MemorySecrets {
            chains,
            sealed,
            hidden_seed,
            links: Default::default(),
        })
    }
}

impl Secrets for MemorySecrets {
    fn chain_tip(&self, chain: u32) -> Option<[u8; 32]> {
        self.chains.get(&chain).copied()
    }
    fn chain_link(&self, chain: u32, length: u32, index: u32) -> Option<[u8; 32]> {
        let tip = self.chain_tip(chain)?;
        let mut links = self.links.borrow_mut();
        let links = links
            .entry(chain)
            .or_insert_with(|| Chain::new(tip, length).links());
        links.get(index as usize).copied()
    }
    fn sealed(&self, commitment: &str) -> Option<SealedChoice> {
        self.sealed.get(commitment).map(|(_, s)| s.clone())
    }
}

/// A game the bot played.
pub struct BotGame {
    pub game: Game,
    pub events: Vec<Event>,
    pub secrets: MemorySecrets,
    pub moves: usize,
}

impl BotGame {
    /// The export of the game as it stands (complete once it has ended).
    pub fn export(&self) -> String {
        let header = Header {
            format: export::FORMAT.into(),
            version: export::VERSION,
            game_id: self.game.game_id.clone(),
            ruleset: self.game.created.ruleset.clone(),
            ruleset_version: self.game.created.ruleset_version.clone(),
            exported_at: "2026-11-22T07:00:00.000Z".into(),
            complete: self.game.ended,
            redacted_for: (!self.game.ended).then(|| "spectator".into()),
            events: self.events.len() as u64,
        };
        export::write(&header, &self.events)
    }
}

/// Plays random legal moves until the game ends or `max_moves` moves were made. A seat with
/// nothing to do whose prompt may pass on a deadline is timed out. `check` runs after every
/// event with the game as it stands, for property checks.
pub fn play(
    ruleset: Arc<dyn Ruleset>,
    setup: Setup,
    seed: u64,
    max_moves: usize,
    check: &mut dyn FnMut(&Game, &MemorySecrets) -> Result<(), String>,
) -> Result<BotGame, String> {
    let mut world = TestWorld::new(seed);
    let mut bot = BotGame::start(ruleset, setup, &mut world)?;
    check(&bot.game, &bot.secrets)?;
    bot.play_on(&mut world, &mut Rng::new(seed ^ 0x5EED), max_moves, check)?;
    Ok(bot)
}

impl BotGame {
    /// A new game of `setup`, made in `world`, with the secrets the server would keep for it
    /// (the hidden seed and the first dice chain's tip): no move made yet.
    pub fn start(
        ruleset: Arc<dyn Ruleset>,
        setup: Setup,
        world: &mut TestWorld,
    ) -> Result<BotGame, String> {
        let created = Game::create(ruleset, setup, world).map_err(|e| format!("set-up: {e}"))?;
        let mut secrets = MemorySecrets {
            hidden_seed: Some(created.hidden_seed),
            ..Default::default()
        };
        secrets.chains.insert(0, created.chain_tip);
        Ok(BotGame {
            game: created.game,
            events: vec![created.event],
            secrets,
            moves: 0,
        })
    }

    /// Picks up a game from its log and the secrets the server kept for it (the hidden seed,
    /// the dice chains' tips, sealed choices not yet revealed), folded under the rules version
    /// it was created with, to play on.
    pub fn resume(
        ruleset: Arc<dyn Ruleset>,
        events: Vec<Event>,
        secrets: MemorySecrets,
    ) -> Result<BotGame, String> {
        let game = Game::fold(ruleset, &events, secrets.hidden_seed)
            .map_err(|e| format!("the log does not fold: {e}"))?;
        Ok(BotGame {
            game,
            events,
            secrets,
            moves: 0,
        })
    }

    /// Plays on with random legal moves until the game ends or `max_moves` more moves were
    /// made, in `world` and with `rng` (see [`play`]).
    pub fn play_on(
        &mut self,
        world: &mut TestWorld,
        rng: &mut Rng,
        max_moves: usize,
        check: &mut dyn FnMut(&Game, &MemorySecrets) -> Result<(), String>,
    ) -> Result<(), String> {
        let mut moves = 0;
        while moves < max_moves && !self.game.ended {
            let played = self.one_move(world, rng)?;
            self.secrets.keep(&played.secrets);
            self.events.extend(played.events);
            self.game = played.game;
            self.moves += 1;
            moves += 1;
            check(&self.game, &self.secrets)?;
        }
        Ok(())
    }

    /// One random legal move of a seat that may act, not yet kept.
    fn one_move(&self, world: &mut TestWorld, rng: &mut Rng) -> Result<Played, String> {
        let game = &self.game;
        let prompts = game.prompts();
        if prompts.is_empty() {
            return Err(format!(
                "the game is stuck at seq {}: nobody may act and it has not ended",
                game.next_seq
            ));
        }
        let prompt = &prompts[rng.below(prompts.len())];
        let seat = prompt.seat.clone();
        let mut last_error = String::new();
        for _ in 0..50 {
            let command = game
                .ruleset
                .random_command(&game.state, &seat, &mut |n| rng.below(n));
            let mv = match command {
                Some(command) => Move::Command {
                    seat: seat.clone(),
                    command,
                    client_entropy: format!("bot-{}", rng.below(1 << 20)),
                },
                None if prompt.pass_on_timeout => Move::Timeout { seat: seat.clone() },
                None => {
                    return Err(format!(
                        "the bot has no move for {seat} at seq {}, and the prompt cannot pass",
                        game.next_seq
                    ))
                }
            };
            match game.play(mv.clone(), &self.secrets, world) {
                Ok(p) => return Ok(p),
                Err(e) => last_error = format!("{mv:?} refused: {e}"),
            }
        }
        Err(format!(
            "the bot found no legal move for {seat} at seq {} in 50 tries; last: {last_error}",
            game.next_seq
        ))
    }
}

/// The properties every ruleset's bot games must have: the log re-folds to the same state, the
/// export verifies, and no seat's view (nor a spectator's) shows a sealed choice of another
/// seat before it is revealed.
pub fn check_properties(bot: &BotGame) -> Result<(), String> {
    let refold = Game::fold(
        bot.game.ruleset.clone(),
        &bot.events,
        bot.secrets.hidden_seed,
    )
    .map_err(|e| format!("re-fold: {e}"))?;
    if refold.state_hash() != bot.game.state_hash() {
        return Err("re-folding the log gives a different state".into());
    }
    let report = verify::verify(&bot.export(), &|id| {
        (id == bot.game.created.ruleset).then(|| bot.game.ruleset.clone())
    });
    if !report.ok() {
        return Err(format!("the export does not verify:\n{}", report.render()));
    }
    Ok(())
}

/// Checks that no unrevealed sealed choice shows in a view of anyone but its author.
pub fn check_no_sealed_leak(game: &Game, secrets: &MemorySecrets) -> Result<(), String> {
    for (commitment, (author, sealed)) in &secrets.sealed {
        if !game.open_seals.contains_key(commitment) {
            continue;
        }
        let needle = serde_json::to_string(&sealed.choice).expect("serialisable");
        let needle = needle.trim_matches(|c| c == '{' || c == '}');
        let mut viewers = vec![Viewer::Spectator];
        viewers.extend(
            game.created
                .seats
                .iter()
                .filter(|s| s.seat.as_str() != author)
                .map(|s| Viewer::Seat(s.seat.clone())),
        );
        for viewer in viewers {
            let view = serde_json::to_string(&game.view(&viewer)).expect("serialisable");
            if view.contains(needle) {
                return Err(format!(
                    "{viewer:?} sees {author}'s sealed choice {needle} at seq {}",
                    game.next_seq - 1
                ));
            }
        }
    }
    Ok(())
}
