//! A game's secrets as the store keeps them, and the world a live move draws from: the clock and
//! the operating system's random source.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use serde_json::{json, Value};

use crate::engine::canonical::{hex32, random16, random32};
use crate::engine::dice::{Chain, KeptLinks};
use crate::engine::event::timestamp;
use crate::engine::game::{NewSecret, Secrets, World};
use crate::engine::sealed::SealedChoice;
use crate::store::SecretRecord;

pub const HIDDEN_SEED: &str = "hidden_seed";

fn chain_name(chain: u32) -> String {
    format!("chain:{chain}")
}

fn sealed_name(commitment: &str) -> String {
    format!("sealed:{commitment}")
}

/// The secrets of one game, read from the store.
#[derive(Debug, Default, Clone)]
pub struct GameSecrets {
    pub hidden_seed: Option<[u8; 32]>,
    chains: BTreeMap<u32, ChainSecret>,
    sealed: BTreeMap<String, (Option<String>, SealedChoice)>,
}

impl GameSecrets {
    pub fn from_records(records: &[SecretRecord]) -> Self {
        let mut out = GameSecrets::default();
        out.add(records);
        out
    }

    /// Adds rows written since these were read (a move's new chain tip or sealed choices), as
    /// reading them all again would.
    pub fn add(&mut self, records: &[SecretRecord]) {
        let out = self;
        for r in records {
            if r.name == HIDDEN_SEED {
                out.hidden_seed = r.value.get("seed").and_then(Value::as_str).and_then(hex32);
            } else if let Some(n) = r.name.strip_prefix("chain:") {
                if let (Ok(n), Some(tip)) = (
                    n.parse(),
                    r.value.get("tip").and_then(Value::as_str).and_then(hex32),
                ) {
                    out.chains.insert(n, ChainSecret::new(tip));
                }
            } else if let Some(c) = r.name.strip_prefix("sealed:") {
                if let Ok(s) = serde_json::from_value::<SealedChoice>(r.value.clone()) {
                    out.sealed.insert(c.to_owned(), (r.seat.clone(), s));
                }
            }
        }
    }

    /// The sealed choices a seat made, by commitment.
    pub fn sealed_by<'a>(&'a self, seat: &'a str) -> impl Iterator<Item = &'a SealedChoice> + 'a {
        self.sealed
            .values()
            .filter(move |(s, _)| s.as_deref() == Some(seat))
            .map(|(_, c)| c)
    }
}

/// A dice chain's secret tip, and the links kept from it once a move first asks for one
/// (`KeptLinks`): shared by the clones of a game's secrets, so the fold cache hashes a chain
/// down once, not on every move.
#[derive(Clone)]
struct ChainSecret {
    tip: [u8; 32],
    kept: Arc<OnceLock<KeptLinks>>,
}

impl ChainSecret {
    fn new(tip: [u8; 32]) -> ChainSecret {
        ChainSecret {
            tip,
            kept: Arc::default(),
        }
    }
}

/// The tip alone: the kept links are a cache of it, whether they were made yet is no part of
/// the secret.
impl std::fmt::Debug for ChainSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.tip.fmt(f)
    }
}

impl Secrets for GameSecrets {
    fn chain_tip(&self, chain: u32) -> Option<[u8; 32]> {
        self.chains.get(&chain).map(|c| c.tip)
    }
    fn chain_link(&self, chain: u32, length: u32, index: u32) -> Option<[u8; 32]> {
        let secret = self.chains.get(&chain)?;
        let kept = secret
            .kept
            .get_or_init(|| KeptLinks::new(&Chain::new(secret.tip, length)));
        Some(if kept.length() == length {
            kept.link(index)
        } else {
            Chain::new(secret.tip, length).link(index)
        })
    }
    fn sealed(&self, commitment: &str) -> Option<SealedChoice> {
        self.sealed.get(commitment).map(|(_, s)| s.clone())
    }
}

/// Secret rows for a new game.
pub fn for_new_game(
    game_id: &str,
    hidden_seed: [u8; 32],
    chain_tip: [u8; 32],
    length: u32,
) -> Vec<SecretRecord> {
    vec![
        SecretRecord {
            game_id: game_id.into(),
            name: HIDDEN_SEED.into(),
            seat: None,
            value: json!({ "seed": hex::encode(hidden_seed) }),
        },
        chain_record(game_id, 0, chain_tip, length),
    ]
}

fn chain_record(game_id: &str, chain: u32, tip: [u8; 32], length: u32) -> SecretRecord {
    SecretRecord {
        game_id: game_id.into(),
        name: chain_name(chain),
        seat: None,
        value: json!({ "tip": hex::encode(tip), "length": length }),
    }
}

/// Secret rows for what a move created.
pub fn records(game_id: &str, secrets: &[NewSecret]) -> Vec<SecretRecord> {
    secrets
        .iter()
        .map(|s| match s {
            NewSecret::Chain { chain, tip, length } => chain_record(game_id, *chain, *tip, *length),
            NewSecret::Sealed { seat, sealed } => SecretRecord {
                game_id: game_id.into(),
                name: sealed_name(&sealed.commitment),
                seat: Some(seat.to_string()),
                value: serde_json::to_value(sealed).expect("serialisable"),
            },
        })
        .collect()
}

/// The real world: the system clock and the OS CSPRNG.
pub struct SystemWorld;

impl World for SystemWorld {
    fn now(&self) -> String {
        timestamp(chrono::Utc::now())
    }
    fn random32(&mut self) -> [u8; 32] {
        random32()
    }
    fn seal(&mut self, choice: Value) -> SealedChoice {
        SealedChoice::with_salt(choice, &random16())
    }
}
