//! Dice that anyone can check: the public hash chain, the HMAC dice stream with rejection
//! sampling, and the hidden stream (DESIGN.md, "Dice" and "Wire formats").
//!
//! The server draws a secret tip `s_N`, publishes `s_0 = SHA-256^N(s_N)` when the chain is
//! committed, and reveals `s_1`, `s_2`, … one per rolling event. Faces come from
//! `HMAC-SHA256(s_k, "{game_id}:{seq}:{seat}:{client_entropy}:{j}")` read as big-endian u32s.

use hmac::{Hmac, KeyInit, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

use super::canonical::sha256;

type HmacSha256 = Hmac<Sha256>;

/// The `dice_commitments` object of `GameCreated` (and of an event that starts a new chain).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceCommitments {
    pub chain: u32,
    pub length: u32,
    pub s0: String,
    /// SHA-256 of the hidden seed; present on chain 0 only.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub hidden: Option<String>,
}

/// A public dice chain held by the server: the secret tip and its length.
#[derive(Debug, Clone)]
pub struct Chain {
    tip: [u8; 32],
    length: u32,
}

impl Chain {
    pub fn new(tip: [u8; 32], length: u32) -> Self {
        assert!(length > 0, "a dice chain has at least one link");
        Chain { tip, length }
    }

    pub fn tip(&self) -> [u8; 32] {
        self.tip
    }

    pub fn length(&self) -> u32 {
        self.length
    }

    /// The link `s_k`, 0 ≤ k ≤ length: the tip hashed `length - k` times.
    pub fn link(&self, k: u32) -> [u8; 32] {
        assert!(
            k <= self.length,
            "link {k} is beyond the chain's length {}",
            self.length
        );
        let mut s = self.tip;
        for _ in k..self.length {
            s = sha256(&s);
        }
        s
    }

    /// Every link from `s_0` to `s_length`, in that order.
    pub fn links(&self) -> Vec<[u8; 32]> {
        let mut out = vec![self.tip];
        for _ in 0..self.length {
            let next = sha256(out.last().expect("not empty"));
            out.push(next);
        }
        out.reverse();
        out
    }
}

/// A chain with every [`KEPT_EVERY`]th link kept, from the tip down: any link costs at most
/// `KEPT_EVERY - 1` hashes instead of up to `length` ([`Chain::link`]). The service keeps one per
/// cached game, so a move does not hash down its chain from the tip (half of 1,024 hashes on
/// average); the kept links take 33 × 32 bytes for a chain of 1,024.
#[derive(Debug, Clone)]
pub struct KeptLinks {
    length: u32,
    /// `kept[i]` is the link `s_(i × KEPT_EVERY)`; the last is the tip when `length` is not a
    /// multiple of `KEPT_EVERY`.
    kept: Vec<[u8; 32]>,
}

/// How far apart the links a [`KeptLinks`] keeps are.
pub const KEPT_EVERY: u32 = 32;

impl KeptLinks {
    /// Hashes the chain down once (`length` hashes), keeping every `KEPT_EVERY`th link.
    pub fn new(chain: &Chain) -> KeptLinks {
        let length = chain.length();
        let mut kept = vec![[0; 32]; (length / KEPT_EVERY + 1) as usize];
        let mut s = chain.tip();
        let mut k = length;
        loop {
            if k.is_multiple_of(KEPT_EVERY) {
                kept[(k / KEPT_EVERY) as usize] = s;
            }
            if k == 0 {
                break;
            }
            s = sha256(&s);
            k -= 1;
        }
        if !length.is_multiple_of(KEPT_EVERY) {
            kept.push(chain.tip());
        }
        KeptLinks { length, kept }
    }

    pub fn length(&self) -> u32 {
        self.length
    }

    /// The link `s_k`, 0 ≤ k ≤ length, as [`Chain::link`] gives it: the nearest kept link at
    /// or above `k`, hashed down to it.
    pub fn link(&self, k: u32) -> [u8; 32] {
        let above = k.div_ceil(KEPT_EVERY);
        let (kept, at) = match self.kept.get(above as usize) {
            Some(s) if above * KEPT_EVERY <= self.length => (*s, above * KEPT_EVERY),
            _ => (*self.kept.last().expect("the tip is kept"), self.length),
        };
        if at == k {
            kept
        } else {
            Chain::new(kept, at).link(k)
        }
    }
}

/// Checks that `link` is the successor of `previous` in a chain: `SHA-256(link) = previous`.
pub fn link_follows(previous: &[u8; 32], link: &[u8; 32]) -> bool {
    &sha256(link) == previous
}

/// One die as an event lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    pub sides: u32,
    pub face: u32,
}

/// The stream of uniformly distributed faces for one event.
pub struct DiceStream {
    key: [u8; 32],
    prefix: String,
    block: usize,
    buffer: [u8; 32],
    offset: usize,
}

impl DiceStream {
    /// The stream keyed by `key` for the event `seq` submitted by `seat` with `client_entropy`.
    pub fn new(key: &[u8; 32], game_id: &str, seq: u64, seat: &str, client_entropy: &str) -> Self {
        let prefix = format!("{game_id}:{seq}:{seat}:{client_entropy}:");
        // The first block is computed on the first draw: most events draw nothing.
        DiceStream {
            key: *key,
            prefix,
            block: 0,
            buffer: [0; 32],
            offset: 32,
        }
    }

    /// Whether anything was drawn from the stream.
    pub fn drawn(&self) -> bool {
        self.block > 0
    }

    /// The message of block `j`, as the wire format fixes it.
    pub fn block_message(&self, j: usize) -> String {
        format!("{}{}", self.prefix, j)
    }

    /// `B_j = HMAC-SHA256(key, message_j)`.
    pub fn block_bytes(&self, j: usize) -> [u8; 32] {
        let mut mac = HmacSha256::new_from_slice(&self.key).expect("HMAC takes any key length");
        mac.update(self.block_message(j).as_bytes());
        mac.finalize().into_bytes().into()
    }

    fn next_u32(&mut self) -> u32 {
        if self.offset == 32 {
            self.buffer = self.block_bytes(self.block);
            self.block += 1;
            self.offset = 0;
        }
        let word = &self.buffer[self.offset..self.offset + 4];
        self.offset += 4;
        u32::from_be_bytes(word.try_into().expect("four bytes"))
    }

    /// One die with `sides` faces, by rejection sampling: values at or above
    /// `floor(2^32 / n) * n` are skipped so that every face is equally likely.
    pub fn roll(&mut self, sides: u32) -> u32 {
        assert!(sides > 0, "a die has at least one side");
        let limit = (1u64 << 32) / u64::from(sides) * u64::from(sides);
        loop {
            let value = u64::from(self.next_u32());
            if value < limit {
                return 1 + (value % u64::from(sides)) as u32;
            }
        }
    }
}

/// The faces a stream gives for the listed dice, in order.
pub fn faces(
    key: &[u8; 32],
    game_id: &str,
    seq: u64,
    seat: &str,
    client_entropy: &str,
    sides: &[u32],
) -> Vec<u32> {
    let mut stream = DiceStream::new(key, game_id, seq, seat, client_entropy);
    sides.iter().map(|&n| stream.roll(n)).collect()
}

/// The seat name the hidden stream is keyed with.
pub const HIDDEN_SEAT: &str = "hidden";

/// The hidden stream of event `seq`: keyed by the hidden seed, seat `hidden`, and an empty
/// client entropy (no player influences hidden draws).
pub fn hidden_stream(seed: &[u8; 32], game_id: &str, seq: u64) -> DiceStream {
    DiceStream::new(seed, game_id, seq, HIDDEN_SEAT, "")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every link a `KeptLinks` gives is the one the chain hashes down to, for lengths that are
    /// and are not multiples of `KEPT_EVERY`.
    #[test]
    fn kept_links_give_the_chains_links() {
        for length in [1, 5, KEPT_EVERY - 1, KEPT_EVERY, KEPT_EVERY + 1, 100, 1024] {
            let chain = Chain::new(sha256(&length.to_be_bytes()), length);
            let kept = KeptLinks::new(&chain);
            let all = chain.links();
            for k in 0..=length {
                assert_eq!(kept.link(k), all[k as usize], "length {length}, link {k}");
            }
        }
    }
}
