//! The proof of one event's dice: everything a player needs to recompute the roll alone.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::engine::canonical::{hex32, sha256_hex};
use crate::engine::dice::{faces, DiceStream};
use crate::engine::event::{kind, Event};

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Proof {
    pub game_id: String,
    pub seq: u64,
    pub seat: String,
    pub event_hash: String,
    pub chain: u32,
    pub index: u32,
    /// `s_k`, revealed by this event.
    pub link: String,
    /// `s_{k-1}`: `SHA-256(link)` must equal it. For index 1 it is the `s0` committed before.
    pub previous_link: String,
    /// Where `previous_link` was published (the seq of the event that committed or revealed it).
    pub previous_link_seq: u64,
    pub link_checks: bool,
    pub client_entropy: String,
    /// The HMAC message of the first block; block j ends in `:j`.
    pub first_block_message: String,
    pub first_block_hmac: String,
    #[schema(value_type = Vec<Object>)]
    pub rolls: Vec<crate::engine::dice::Roll>,
    pub recomputed_faces: Vec<u32>,
    pub faces_check: bool,
    pub how_to_check: String,
}

/// Why an event's proof cannot be given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProofError {
    /// The asker's mistake: no such event.
    #[error("there is no event {0}")]
    NoEvent(u64),
    /// The asker's mistake: the event drew no public die, so there is nothing to prove.
    #[error("event {0} rolled no public dice")]
    NoDice(u64),
    /// The log's fault: the chain the event's dice came from was never committed before it.
    #[error("the chain's commitment is missing from the log")]
    NoCommitment,
    /// The log's fault: the event's revealed link cannot be read.
    #[error("the link is not 32 bytes of hex")]
    BadLink,
}

impl ProofError {
    /// Whether the log itself is at fault (not the question asked of it).
    pub fn is_corrupt_log(&self) -> bool {
        matches!(self, ProofError::NoCommitment | ProofError::BadLink)
    }
}

/// Builds the proof of event `seq` from the events up to it.
pub fn prove(events: &[Event], seq: u64) -> Result<Proof, ProofError> {
    let event = events
        .iter()
        .find(|e| e.seq == seq)
        .ok_or(ProofError::NoEvent(seq))?;
    let dice = event.dice.as_ref().ok_or(ProofError::NoDice(seq))?;
    // The previous link: the last event of the same chain with dice, or the chain's commitment.
    let mut previous = None;
    for e in events.iter().filter(|e| e.seq < seq).rev() {
        if let Some(d) = &e.dice {
            if d.chain == dice.chain {
                previous = Some((d.link.clone(), e.seq));
                break;
            }
        }
        let commits = e.payload.get("dice_commitments");
        if (e.kind == kind::GAME_CREATED || e.kind == kind::DICE_CHAIN_COMMITTED)
            && commits
                .and_then(|c| c.get("chain"))
                .and_then(|c| c.as_u64())
                == Some(u64::from(dice.chain))
        {
            let s0 = commits
                .and_then(|c| c.get("s0"))
                .and_then(|s| s.as_str())
                .unwrap_or_default();
            previous = Some((s0.to_owned(), e.seq));
            break;
        }
    }
    let (previous_link, previous_link_seq) = previous.ok_or(ProofError::NoCommitment)?;
    let link = hex32(&dice.link).ok_or(ProofError::BadLink)?;
    let stream = DiceStream::new(
        &link,
        &event.game_id,
        event.seq,
        &event.seat,
        &dice.client_entropy,
    );
    let sides: Vec<u32> = dice.rolls.iter().map(|r| r.sides).collect();
    let recomputed = faces(
        &link,
        &event.game_id,
        event.seq,
        &event.seat,
        &dice.client_entropy,
        &sides,
    );
    Ok(Proof {
        game_id: event.game_id.clone(),
        seq,
        seat: event.seat.clone(),
        event_hash: event.hash.clone(),
        chain: dice.chain,
        index: dice.index,
        link: dice.link.clone(),
        link_checks: sha256_hex(&link) == previous_link,
        previous_link,
        previous_link_seq,
        client_entropy: dice.client_entropy.clone(),
        first_block_message: stream.block_message(0),
        first_block_hmac: hex::encode(stream.block_bytes(0)),
        faces_check: recomputed == dice.rolls.iter().map(|r| r.face).collect::<Vec<_>>(),
        recomputed_faces: recomputed,
        rolls: dice.rolls.clone(),
        how_to_check: "1. SHA-256 of `link` (as 32 raw bytes) must equal `previous_link`, which was published at `previous_link_seq` before this move was made. \
2. Compute HMAC-SHA256 with key = `link` (raw bytes) over the UTF-8 text `{game_id}:{seq}:{seat}:{client_entropy}:{j}` for j = 0, 1, 2, …; read the output as big-endian 32-bit numbers. \
3. For a die with n sides take the next number v; if v >= floor(2^32 / n) * n skip it, else the face is 1 + (v mod n). The faces must equal `rolls`."
            .into(),
    })
}
