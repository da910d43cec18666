//! The state of a game of Searching for Glory: the characters' combat units, lone SP, the
//! deck, the players' hands and plans, and where the round stands. Hands, plans and the deck
//! order are secrets: `view` shows each seat only its own.

use serde::{Deserialize, Serialize};

use super::data::{self, Side};
use crate::engine::ruleset::{RuleError, Seat};

/// A character's combat unit (II.1.A).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cu {
    pub character: String,
    pub side: Side,
    /// Its LP; `None` once it is out of play (captured, off the map, no SP left).
    pub lp: Option<String>,
    pub sp: u32,
    pub fatigue: u32,
    pub supply: bool,
    /// Trench points (2.h), kept while the CU stays at its LP.
    pub trench: u32,
    pub captured: bool,
    pub glory: i64,
    /// The seat that plays this character; `None` for an NPC.
    pub seat: Option<Seat>,
}

/// Strength points left alone at an LP (II.1.B).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoneSp {
    pub lp: String,
    pub side: Side,
    pub sp: u32,
}

/// An enemy CU entered `lp` along the CL from `from` (2.b).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub lp: String,
    pub from: String,
    pub character: String,
}

/// Where a player's plan for the round stands (Planning Phase).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "plan", rename_all = "snake_case")]
pub enum Plan {
    /// Not submitted yet.
    Waiting,
    /// Submitted and sealed under this commitment.
    Sealed { commitment: String },
    /// Opened: the planned cards are out of the hand, in `Player::planned`.
    Open,
}

/// A player: a seat playing one character.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub seat: Seat,
    pub character: String,
    /// Card keys in draw order.
    pub hand: Vec<String>,
    pub plan: Plan,
    /// The planned cards, once the plans are opened, with whether each was used.
    pub planned: Vec<(String, bool)>,
    /// Resigned, captured or off the map: no more plans or operations.
    pub out: bool,
}

/// Where the round stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// 2. Planning: every player still in seals a plan.
    Plan,
    /// 3.1 Determining initiative.
    Initiative,
    /// 3.2–3.3 Operations: players (indices) in order; `next` is the one to act.
    Operations { order: Vec<usize>, next: usize },
    /// The last round is over.
    Ended,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub scenario: String,
    pub round: u32,
    pub rounds: u32,
    pub additive: bool,
    pub cus: Vec<Cu>,
    pub lone: Vec<LoneSp>,
    pub players: Vec<Player>,
    /// Face-down deck, top last.
    pub deck: Vec<String>,
    pub discard: Vec<String>,
    /// Players (indices) in the order they draw: last round's order of operations.
    pub draw_order: Vec<usize>,
    pub phase: Phase,
    /// Blown bridges, each as its two LPs in id order.
    pub blown: Vec<(String, String)>,
    pub entries: Vec<Entry>,
    /// LPs entered already (first-entry glory is given once).
    pub entered: Vec<String>,
}

impl State {
    pub fn map(&self) -> &'static data::Map {
        data::scenario(&self.scenario)
            .expect("a state is only made for a known scenario")
            .map
    }

    pub fn cu(&self, character: &str) -> &Cu {
        self.cus
            .iter()
            .find(|c| c.character == character)
            .expect("every character has a CU")
    }

    pub fn cu_mut(&mut self, character: &str) -> &mut Cu {
        self.cus
            .iter_mut()
            .find(|c| c.character == character)
            .expect("every character has a CU")
    }

    pub fn player_of(&self, seat: &Seat) -> Option<usize> {
        self.players.iter().position(|p| &p.seat == seat)
    }

    pub fn player(&self, seat: &Seat) -> Result<usize, RuleError> {
        self.player_of(seat)
            .ok_or_else(|| RuleError::new("seats", format!("{seat} plays no character here")))
    }

    /// Does `lp` hold SP of `side` (a CU in play or lone SP)?
    pub fn holds(&self, lp: &str, side: Side) -> bool {
        self.cus
            .iter()
            .any(|c| c.side == side && c.lp.as_deref() == Some(lp) && c.sp > 0)
            || self.lone.iter().any(|l| l.side == side && l.lp == lp)
    }

    pub fn is_blown(&self, a: &str, b: &str) -> bool {
        let key = bridge_key(a, b);
        self.blown.contains(&key)
    }

    /// Players still playing.
    pub fn active(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.players.len()).filter(|&i| !self.players[i].out)
    }

    /// The glory of every seat's character.
    pub fn scores(&self) -> Vec<(Seat, i64)> {
        self.players
            .iter()
            .map(|p| (p.seat.clone(), self.cu(&p.character).glory))
            .collect()
    }
}

/// A bridge named by its two LPs in id order.
pub fn bridge_key(a: &str, b: &str) -> (String, String) {
    if a <= b {
        (a.to_owned(), b.to_owned())
    } else {
        (b.to_owned(), a.to_owned())
    }
}
