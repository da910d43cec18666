//! The state of a game of Searching for Glory: the characters' combat units, lone SP, the
//! deck, the players' hands and plans, and where the round stands. Hands, plans and the deck
//! order are secrets: `view` shows each seat only its own.

use serde::{Deserialize, Serialize};

use super::data::{self, ClKind, Side};
use super::order::Clause;
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
    /// Battles won (Offer Enemy Captured Flags needs one).
    #[serde(default)]
    pub victories: u32,
    /// Siege points (2.l), kept while the CU stays at the fortress it besieges.
    #[serde(default)]
    pub siege_points: u32,
    /// Uses of the role's strategic characteristic so far (III).
    #[serde(default)]
    pub strategic_used: u32,
    /// LPs whose `enter` glory condition of his role card he has had (III, once each).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reached: Vec<String>,
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

/// A side's battle plan for one card battle (4.f–4.i, option `battle_cards`, issue 17 "By
/// email"): its commander is asked for it when the battle's reactive window closes, sends it
/// sealed, and it is opened when both sides' plans are in. It plays that battle only.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "battle_plan", rename_all = "snake_case")]
pub enum BattlePlanSlot {
    /// No plan: the side has no player to command it, or its commander missed the deadline;
    /// the standing doctrine plays it.
    #[default]
    None,
    /// Asked of the side's commander, not in yet.
    Waiting,
    Sealed {
        commitment: String,
    },
    Open {
        plan: super::battle_cards::BattlePlan,
    },
}

impl BattlePlanSlot {
    pub fn is_none(&self) -> bool {
        *self == BattlePlanSlot::None
    }

    /// The opened plan, if there is one.
    pub fn plan(&self) -> Option<&super::battle_cards::BattlePlan> {
        match self {
            BattlePlanSlot::Open { plan } => Some(plan),
            _ => None,
        }
    }
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
    /// What this player alone has learned (Intercepted Enemy Message, 1.e): his view only.
    #[serde(default)]
    pub intel: Vec<String>,
    /// The cards this player keeps at the end of the round (1.d, `keep`), chosen in his order.
    #[serde(default)]
    pub keep: Vec<String>,
    /// Eliminated under II.1.A.3 (captured, or no SP and no lone SP to join): he may re-enter
    /// as another character at a round's start.
    #[serde(default)]
    pub eliminated: bool,
    /// Asked this round whether he re-enters, and which character he takes (II.1.A.3, 3.4).
    #[serde(default)]
    pub entering: bool,
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
    /// 3.4 Non-player characters' operations: the NPCs (characters) in order; `next` is the one
    /// to act, run by `State::npc`'s runner.
    Npcs { order: Vec<String>, next: usize },
    /// The last round is over.
    Ended,
}

/// An operation announced and being carried out (3.2): the checked clauses, the planned card
/// each uses, how far it has gone, and the reactive cards standing against it (1.e).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    /// The player who gives the order: the CU's own player, or an NPC's runner (3.4).
    pub player: usize,
    /// The character whose CU operates.
    pub character: String,
    pub clauses: Vec<Clause>,
    /// Per clause, whether it plays a planned card (a `rest` may go without one).
    pub carded: Vec<bool>,
    /// The next clause to carry out.
    pub next: usize,
    /// Reactive cards of the announcement window that stand (keys).
    pub effects: Vec<String>,
    /// CLs crossed so far (Poor Roads, Stragglers).
    pub crossed: u32,
    /// The battle the operation's attack has begun, waiting for its window to close.
    pub battle: Option<BattleSetup>,
}

impl Pending {
    pub fn has(&self, card: &str) -> bool {
        self.effects.iter().any(|e| e == card)
    }
}

/// A battle whose dice wait for its reactive window (2.m, 1.e).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleSetup {
    pub lp: String,
    pub cl: ClKind,
    pub decisive: bool,
    /// Napoleon Defeated!: 5 glory to the attacker for the victory (reconstructed).
    #[serde(default)]
    pub napoleon: bool,
    /// The attacking characters: the operating CU and those that came to the sound of the guns.
    pub attackers: Vec<String>,
    pub mods: Mods,
    /// Option `battle_cards`: where the battle's card play stands (4.f).
    #[serde(default, skip_serializing_if = "PlansStage::is_unasked")]
    pub plans: PlansStage,
    /// 4.f, 4.l.2: the commanders of `[attackers, defenders]` (player indices), who send the
    /// side's battle plan or choose its cards; `None`: the doctrine plays the side.
    #[serde(default, skip_serializing_if = "no_commanders")]
    pub commanders: [Option<usize>; 2],
    /// 4.f (`battle_play=sealed`): the sides' battle plans for this battle.
    #[serde(default, skip_serializing_if = "no_plans")]
    pub battle_plans: [BattlePlanSlot; 2],
    /// 4.f–4.i (`battle_play=interactive`): the battle being played, card by card.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub play: Option<Box<super::battle_cards::CardBattle>>,
}

fn no_commanders(c: &[Option<usize>; 2]) -> bool {
    c.iter().all(Option::is_none)
}

fn no_plans(p: &[BattlePlanSlot; 2]) -> bool {
    p.iter().all(BattlePlanSlot::is_none)
}

/// 4.f: where a card battle stands: not asked yet (its reactive window just closed); its
/// commanders asked for their sealed battle plans (`Asked`), the sealed ones being opened
/// (`Opening`), all opened and waiting for the operating player's `fight` (`Opened`: the
/// events that open them draw no card); played card by card (`Playing`, option
/// `battle_play=interactive`); ready to be fought (or over, when played).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlansStage {
    #[default]
    Unasked,
    Asked,
    Opening,
    Opened,
    Playing,
    Ready,
}

impl PlansStage {
    pub fn is_unasked(&self) -> bool {
        *self == PlansStage::Unasked
    }
}

/// What the standing battle cards change, per side: `[attacker, defender]`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mods {
    pub bonus: [i64; 2],
    pub lucky: [bool; 2],
    pub courage: [bool; 2],
    pub pursuit: [bool; 2],
    /// Local Guide: no −3 for the CL attacked along.
    pub no_crossing: bool,
}

/// An NPC's operation (3.4): the player of its side whose CU is farthest from it runs it, from a
/// hand drawn for it that he alone sees.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NpcTurn {
    pub character: String,
    /// The runner (a player index).
    pub runner: usize,
    /// The NPC's hand, drawn for this operation, with whether each card was played.
    pub hand: Vec<(String, bool)>,
}

/// A fortress under siege (2.l): the side shut in it, and whether the first attrition roll
/// has been made (after it the besieged may not leave).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Siege {
    pub lp: String,
    pub besieged: Side,
    pub rolled: bool,
}

/// An immediate victory (3 Victory, the scenario's conditions): the side and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Victory {
    pub side: Side,
    pub reason: String,
}

/// What a reactive window answers (1.e).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WindowKind {
    /// After an operation's announcement.
    Announcement,
    /// Before a battle's dice.
    Battle,
}

/// A reactive card played in a window: the card and the player who played it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Played {
    pub card: String,
    pub player: usize,
}

/// An open reactive window (1.e). With no card played it prompts every player it concerns at
/// once; once a card is played, the players answer one at a time in seat order from the
/// operating player, each card nullifying the one below it, until every one has passed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Window {
    pub kind: WindowKind,
    /// The cards played and not yet resolved, the last on top.
    pub chain: Vec<Played>,
    /// With an empty chain: the players who passed. With a chain: the players who passed
    /// since the top card.
    pub passed: Vec<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The rules version the game was created under (`Rules::setup_version`), which the
    /// changes since the first released one are gated on (docs/rules/searching-for-glory.md,
    /// "Rules versions"). A state of version 5 leaves it out, as version 5 wrote its states.
    #[serde(default = "first_version", skip_serializing_if = "is_first_version")]
    pub version: u32,
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
    /// The operation being carried out, while a reactive window holds it (3.2, 1.e).
    #[serde(default)]
    pub pending: Option<Pending>,
    /// The open reactive window (1.e).
    #[serde(default)]
    pub window: Option<Window>,
    /// Characters under a Parlay this round: no enemy attacks their LP.
    #[serde(default)]
    pub truce: Vec<String>,
    /// The NPC operating now (3.4), while `phase` is `Npcs`.
    #[serde(default)]
    pub npc: Option<NpcTurn>,
    /// Option `npcs=stand`: NPCs never operate (they stand and fight when attacked).
    #[serde(default)]
    pub npcs_stand: bool,
    /// The immediate victory that ended the game, if one did (3).
    #[serde(default)]
    pub victory: Option<Victory>,
    /// Fortresses under siege (2.l).
    #[serde(default)]
    pub sieges: Vec<Siege>,
    /// Option `roles=plain`: no battle or strategic characteristics, no personal cards.
    #[serde(default)]
    pub plain_roles: bool,
    /// 2.l: the sides whose standing order has their lone SP and NPCs, attacked at a fortress
    /// with no player's CU among them, refuse battle and go in (`standing refuse`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub standing_refuse: Vec<Side>,
    /// Option `battle_cards=cards`: the optional battle rules (4.) for sides of 4 SP or more.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub battle_cards: bool,
    /// Option `battle_play=interactive`: each battle card chosen as it is played (4.f–4.i),
    /// rather than a sealed battle plan a side.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub interactive: bool,
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

    /// Who player `p` gives orders for now, and the cards he gives them with: the NPC he runs
    /// in its operation (3.4, its hand), else his own character (his planned cards).
    pub fn operator(&self, p: usize) -> (&str, &[(String, bool)]) {
        match (&self.npc, &self.phase) {
            (Some(n), Phase::Npcs { .. }) if n.runner == p => (&n.character, &n.hand),
            _ => (&self.players[p].character, &self.players[p].planned),
        }
    }

    /// Is player `p` giving an NPC's order now (3.4)?
    pub fn runs_npc(&self, p: usize) -> bool {
        matches!((&self.npc, &self.phase), (Some(n), Phase::Npcs { .. }) if n.runner == p)
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

/// The first released version (Despatch 1.0.0).
pub const FIRST_VERSION: u32 = 5;
/// The version new games get: 6 (Despatch 1.2.0) bars a besieged player's reactive cards
/// once the first attrition roll is behind his CU (2.l).
pub const NEWEST_VERSION: u32 = 6;

fn first_version() -> u32 {
    FIRST_VERSION
}

fn is_first_version(v: &u32) -> bool {
    *v == FIRST_VERSION
}
