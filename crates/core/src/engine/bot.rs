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
use super::game::{Game, Move, NewSecret, Secrets, World};
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
    let created = Game::create(ruleset, setup, &mut world).map_err(|e| format!("set-up: {e}"))?;
    let mut secrets = MemorySecrets {
        hidden_seed: Some(created.hidden_seed),
        ..Default::default()
    };
    secrets.chains.insert(0, created.chain_tip);
    let mut game = created.game;
    let mut events = vec![created.event];
    let mut rng = Rng::new(seed ^ 0x5EED);
    let mut moves = 0;
    check(&game, &secrets)?;
    while moves < max_moves && !game.ended {
        let prompts = game.prompts();
        if prompts.is_empty() {
            return Err(format!(
                "the game is stuck at seq {}: nobody may act and it has not ended",
                game.next_seq
            ));
        }
        let prompt = &prompts[rng.below(prompts.len())];
        let seat = prompt.seat.clone();
        let mut played = None;
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
            match game.play(mv.clone(), &secrets, &mut world) {
                Ok(p) => {
                    played = Some(p);
                    break;
                }
                Err(e) => last_error = format!("{mv:?} refused: {e}"),
            }
        }
        let played = played.ok_or_else(|| {
            format!(
                "the bot found no legal move for {seat} at seq {} in 50 tries; last: {last_error}",
                game.next_seq
            )
        })?;
        secrets.keep(&played.secrets);
        events.extend(played.events);
        game = played.game;
        moves += 1;
        check(&game, &secrets)?;
    }
    Ok(BotGame {
        game,
        events,
        secrets,
        moves,
    })
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
