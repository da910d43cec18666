//! The optional battle rules (4., option `battle_cards=cards`): a battle between sides of at
//! least 4 SP each is fought with battle cards instead of dice (4.b: smaller ones are
//! engagements, fought by 2.m). Each side has a battle deck of its nationality
//! (`data/battle_cards.txt`, reconstructed beyond 4.e's six names) and its characters' personal
//! battle cards, drawn from the hidden stream. A battle is a [`CardBattle`]: with
//! `battle_play=sealed` (the default) it plays out in one event by each side's sealed
//! [`BattlePlan`] for that battle, sent by its commander when the battle asked for it; with
//! `battle_play=interactive` each commander chooses each card as it is played, one event a
//! choice (`battle_play.rs`). Every card played is a line.
//!
//! Doctrine (decision): the side to attack plays its strongest offensive card; the other side
//! answers with its strongest defeat that fits, else a parry that fits; the attacking side
//! cancels an answer when it holds a cancel; a side holding no offensive card discards one
//! (4.g–4.h); a side whose BP have fallen to a third of its start or below withdraws when it
//! holds a withdraw card (4.i). A battle plan changes each of these choices by card kind; the
//! doctrine also plays a side no player commands, and a commander's choice when his deadline
//! passes.

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use crate::engine::ruleset::{Ctx, RuleError};

/// A battle card's class (IV.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Offensive,
    Defensive,
    Special,
}

/// What a battle card does (4.f, 4.i), reconstructed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// An attack: the enemy loses this many BP if it stands.
    Hit(i64),
    /// Answers an attack (of these keys; any if empty): no effect.
    Parry(Vec<String>),
    /// Answers an attack (of these keys; any if empty): the attacker loses this many BP, at
    /// least 2.
    Defeat(i64, Vec<String>),
    /// Cancels the answer to one's attack.
    Cancel,
    /// The side leaves the battlefield and loses.
    Withdraw,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BattleCard {
    pub key: String,
    /// A nationality's deck, or the character whose personal card it is.
    pub deck: String,
    pub count: u32,
    pub class: Class,
    pub effect: Effect,
    pub name: String,
}

impl BattleCard {
    /// Does this answer fit an attack with the card `attack`?
    fn answers(&self, attack: &str) -> bool {
        match &self.effect {
            Effect::Parry(vs) | Effect::Defeat(_, vs) => {
                vs.is_empty() || vs.iter().any(|k| k == attack)
            }
            _ => false,
        }
    }

    /// Does this card answer the attack card `attack` (4.f)?
    pub fn answers_attack(&self, attack: &str) -> bool {
        self.answers(attack)
    }

    fn hit(&self) -> Option<i64> {
        match self.effect {
            Effect::Hit(n) => Some(n),
            _ => None,
        }
    }

    pub fn is_personal(&self) -> bool {
        super::data::role(&self.deck).is_some()
    }
}

static CARDS: LazyLock<Vec<BattleCard>> = LazyLock::new(|| {
    include_str!("data/battle_cards.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let c: Vec<&str> = l.split('|').map(str::trim).collect();
            let [key, deck, count, class, effect, name] = c[..] else {
                panic!("data/battle_cards.txt: a row has six columns: {c:?}")
            };
            let class = match class {
                "offensive" => Class::Offensive,
                "defensive" => Class::Defensive,
                "special" => Class::Special,
                k => panic!("data/battle_cards.txt: '{k}' is not a class"),
            };
            let words: Vec<&str> = effect.split_whitespace().collect();
            let vs = |rest: &[&str]| -> Vec<String> {
                match rest {
                    [] => Vec::new(),
                    ["vs", keys @ ..] if !keys.is_empty() => {
                        keys.iter().map(|k| k.to_string()).collect()
                    }
                    _ => panic!("data/battle_cards.txt: '{effect}': write vs <key>…"),
                }
            };
            let n = |w: &str| -> i64 { w.parse().expect("data/battle_cards.txt: a number") };
            let effect = match words[..] {
                ["hit", v] => Effect::Hit(n(v)),
                ["parry", ref rest @ ..] => Effect::Parry(vs(rest)),
                ["defeat", v, ref rest @ ..] => Effect::Defeat(n(v), vs(rest)),
                ["cancel"] => Effect::Cancel,
                ["withdraw"] => Effect::Withdraw,
                _ => panic!("data/battle_cards.txt: '{effect}' is not an effect"),
            };
            let expected = match &effect {
                Effect::Hit(_) => Class::Offensive,
                Effect::Parry(_) | Effect::Defeat(..) => Class::Defensive,
                Effect::Cancel | Effect::Withdraw => Class::Special,
            };
            assert_eq!(class, expected, "data/battle_cards.txt: {key}'s class");
            BattleCard {
                key: key.into(),
                deck: deck.into(),
                count: count.parse().expect("data/battle_cards.txt: a count"),
                class,
                effect,
                name: name.into(),
            }
        })
        .collect()
});

/// Every battle card row of `data/battle_cards.txt`.
pub fn cards() -> &'static [BattleCard] {
    &CARDS
}

/// A nationality's battle deck (4.e): card indices, each as often as its count.
pub fn deck(nationality: &str) -> Vec<usize> {
    cards()
        .iter()
        .enumerate()
        .filter(|(_, c)| c.deck == nationality)
        .flat_map(|(i, c)| std::iter::repeat_n(i, c.count as usize))
        .collect()
}

/// A character's personal battle cards (4.e).
pub fn personal(character: &str) -> Vec<usize> {
    cards()
        .iter()
        .enumerate()
        .filter(|(_, c)| c.deck == character)
        .map(|(i, _)| i)
        .collect()
}

/// When a side cancels the enemy's answer to its attack (4.f).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cancel {
    /// Every answer, holding a cancel card (the doctrine).
    #[default]
    Always,
    /// Only an answer that defeats the attack.
    Defeats,
    /// Never: cancel cards are kept (or discarded).
    Never,
}

impl Cancel {
    fn word(self) -> &'static str {
        match self {
            Cancel::Always => "always",
            Cancel::Defeats => "defeats",
            Cancel::Never => "never",
        }
    }
}

/// A side's sealed battle plan (4.f–4.i, issue 17 "By email"): how its commander plays every
/// card battle of the round, by card kind, so that one event plays the battle out. What it
/// leaves out, the doctrine decides.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattlePlan {
    /// 4.f: the offensive cards to attack with, first held first; unlisted ones after, the
    /// strongest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attack: Vec<String>,
    /// 4.f: the answer to an enemy attack card: a defensive card of the side that fits it, or
    /// `None` to let it stand. Attacks not listed: the doctrine's answer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answers: Vec<(String, Option<String>)>,
    /// 4.f: when to cancel the enemy's answer.
    #[serde(default)]
    pub cancel: Cancel,
    /// 4.g–4.h: the cards to discard when holding no attack, first held first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub discard: Vec<String>,
    /// 4.i: withdraw (holding a withdraw card) once the side's BP are at or below this;
    /// `None`: at a third of its start (the doctrine).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withdraw: Option<i64>,
}

fn plan_error(message: impl Into<String>) -> RuleError {
    RuleError::new("4.f Battle plans", message)
}

impl BattlePlan {
    /// The plan in the order language, after `battle-plan`: `attack a b; answer x=y z=none;
    /// cancel defeats; discard c; withdraw 2` (sections left out are the doctrine's).
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if !self.attack.is_empty() {
            parts.push(format!("attack {}", self.attack.join(" ")));
        }
        if !self.answers.is_empty() {
            let a: Vec<String> = self
                .answers
                .iter()
                .map(|(k, a)| format!("{k}={}", a.as_deref().unwrap_or("none")))
                .collect();
            parts.push(format!("answer {}", a.join(" ")));
        }
        if self.cancel != Cancel::Always {
            parts.push(format!("cancel {}", self.cancel.word()));
        }
        if !self.discard.is_empty() {
            parts.push(format!("discard {}", self.discard.join(" ")));
        }
        if let Some(n) = self.withdraw {
            parts.push(format!("withdraw {n}"));
        }
        parts.join("; ")
    }

    /// Reads what follows `battle-plan`; [`BattlePlan::describe`] writes it back.
    pub fn parse(text: &str) -> Result<BattlePlan, RuleError> {
        let mut plan = BattlePlan::default();
        let mut seen: Vec<&str> = Vec::new();
        for part in text.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            let mut w = part.split_whitespace();
            let section = w.next().unwrap_or_default();
            if seen.contains(&section) {
                return Err(plan_error(format!(
                    "'{section}' is given twice: write each section once"
                )));
            }
            seen.push(section);
            let rest: Vec<&str> = w.collect();
            match section {
                "attack" => plan.attack = rest.iter().map(|k| k.to_string()).collect(),
                "answer" => {
                    for pair in &rest {
                        let (k, a) = pair.split_once('=').ok_or_else(|| {
                            plan_error(format!(
                                "'{pair}' is not an answer: write <enemy attack>=<your card> or <enemy attack>=none, like cavalry-attack=squares"
                            ))
                        })?;
                        plan.answers
                            .push((k.to_owned(), (a != "none").then(|| a.to_owned())));
                    }
                }
                "cancel" => {
                    plan.cancel = match rest[..] {
                        ["always"] => Cancel::Always,
                        ["defeats"] => Cancel::Defeats,
                        ["never"] => Cancel::Never,
                        _ => {
                            return Err(plan_error(
                                "'cancel always', 'cancel defeats' or 'cancel never'",
                            ))
                        }
                    }
                }
                "discard" => plan.discard = rest.iter().map(|k| k.to_string()).collect(),
                "withdraw" => {
                    let n = match rest[..] {
                        [n] => n.parse::<u32>().ok(),
                        _ => None,
                    };
                    plan.withdraw = Some(i64::from(n.ok_or_else(|| {
                        plan_error("'withdraw' names the BP at or below which the side leaves the battlefield, like 'withdraw 2'")
                    })?));
                }
                other => {
                    return Err(plan_error(format!(
                        "'{other}' is not a section of a battle plan: attack, answer, cancel, discard, withdraw"
                    )))
                }
            }
        }
        Ok(plan)
    }

    /// Checks the plan against the cards its side may hold: the battle deck of `nationality`
    /// and the personal battle cards of `characters`, the side's in the battle (4.e, 4.l.3).
    /// Errors name the card and say what fits instead.
    pub fn check(&self, nationality: &str, characters: &[&str]) -> Result<(), RuleError> {
        let mine: Vec<&BattleCard> = cards()
            .iter()
            .filter(|c| c.deck == nationality || characters.contains(&c.deck.as_str()))
            .collect();
        let find = |key: &str| mine.iter().find(|c| c.key == key).copied();
        let names = |class: Class| -> String {
            let mut keys: Vec<&str> = mine
                .iter()
                .filter(|c| c.class == class)
                .map(|c| c.key.as_str())
                .collect();
            keys.dedup();
            keys.join(", ")
        };
        for (i, k) in self.attack.iter().enumerate() {
            match find(k) {
                Some(c) if c.class == Class::Offensive => {}
                _ => {
                    return Err(plan_error(format!(
                        "'{k}' is not an offensive card of your battle cards: the attack order lists {}",
                        names(Class::Offensive)
                    )))
                }
            }
            if self.attack[..i].contains(k) {
                return Err(plan_error(format!("'{k}' is twice in the attack order")));
            }
        }
        for (i, (attack, answer)) in self.answers.iter().enumerate() {
            if !cards()
                .iter()
                .any(|c| c.key == *attack && c.class == Class::Offensive)
            {
                return Err(plan_error(format!(
                    "'{attack}' is not an attack card: answers are given to the enemy's offensive cards"
                )));
            }
            if self.answers[..i].iter().any(|(a, _)| a == attack) {
                return Err(plan_error(format!("'{attack}' is answered twice")));
            }
            if let Some(answer) = answer {
                match find(answer) {
                    Some(c) if c.answers(attack) => {}
                    Some(c) if c.class == Class::Defensive => {
                        return Err(plan_error(format!(
                            "{} does not answer {attack}: choose a card that does, or none",
                            c.name
                        )))
                    }
                    _ => {
                        return Err(plan_error(format!(
                        "'{answer}' is not a defensive card of your battle cards: answers are {}",
                        names(Class::Defensive)
                    )))
                    }
                }
            }
        }
        for k in &self.discard {
            if find(k).is_none() {
                return Err(plan_error(format!(
                    "'{k}' is not one of your battle cards: you may discard {}",
                    mine.iter()
                        .map(|c| c.key.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
        }
        Ok(())
    }
}

/// One side of a card battle, as it goes in.
#[derive(Debug, Clone)]
pub struct SideIn {
    pub name: String,
    pub nationality: String,
    pub characters: Vec<String>,
    /// Battle points at the start (4.d).
    pub bp: i64,
    /// Its commander's opened battle plan for this battle, if he sent one (else the doctrine
    /// plays).
    pub plan: Option<BattlePlan>,
}

/// What a card battle came to: `[attacker, defender]` BP lost, who won, who withdrew.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fought {
    pub attacker_won: bool,
    pub lost: [i64; 2],
    pub withdrew: Option<usize>,
    /// Every card played or discarded, in order: `<side> <card key>` (`… discards <key>`).
    pub plays: Vec<String>,
}

/// One side of a card battle as it is fought: its battle deck (top last), discards and hand,
/// as indices of [`cards`] — the hand its commander's secret, the deck's order everyone's —
/// its BP, and who chooses its cards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleSide {
    pub name: String,
    pub deck: Vec<usize>,
    pub discard: Vec<usize>,
    pub hand: Vec<usize>,
    pub bp: i64,
    pub start: i64,
    /// Its battle plan (4.f, sealed play); the doctrine where it says nothing.
    #[serde(default, skip_serializing_if = "is_doctrine")]
    pub plan: BattlePlan,
    /// Its commander chooses each card as it is played (`battle_play=interactive`); else its
    /// plan and the doctrine choose.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub chooses: bool,
}

fn is_doctrine(plan: &BattlePlan) -> bool {
    *plan == BattlePlan::default()
}

/// Where an exchange stands (4.f–4.h): side `turn` attacks (or discards, or withdraws); the
/// other side answers the attack card or lets it stand; side `turn` cancels the answer or lets
/// it stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Step {
    Attack,
    Answer { attack: usize },
    Cancel { attack: usize, answer: usize },
    Over,
}

/// A choice of the side whose turn it is: a card of its hand (by position) played for the
/// step at hand (an attack, an answer, a cancel, a withdrawal), a card discarded (4.g–4.h), or
/// none (no answer, no cancel; at its attack, no card left to play).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    Play(usize),
    Discard(usize),
    Pass,
}

/// A card battle being fought (4.c–4.i): the one-event play-out of a sealed plan or the
/// doctrine, and the card-by-card play of `battle_play=interactive`, are this one machine, so
/// that both play by the same rules; [`CardBattle::run`] plays every choice that is not a
/// commander's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardBattle {
    /// `[attackers, defenders]`.
    pub sides: [BattleSide; 2],
    /// The side whose attack the exchange is.
    pub turn: usize,
    pub step: Step,
    /// Whether each side has played a personal card this exchange (4.l.3).
    pub personal: [bool; 2],
    /// The first attack is played (4.f: the attacking side opens with an offensive card).
    pub opened: bool,
    pub exchanges: usize,
    pub withdrew: Option<usize>,
    /// Every card played or discarded, in order: `<side> <card key>` (`… discards <key>`).
    pub plays: Vec<String>,
}

/// A hidden draw in `1..=n`. A fold without the hidden seed cannot re-make any hidden draw
/// (the Draw Phase's fail first), so the fallback is never reached by a fold that completes.
fn hidden(ctx: &mut Ctx, n: u32) -> usize {
    ctx.hidden(n).unwrap_or(1) as usize
}

fn shuffle(cards: &mut [usize], ctx: &mut Ctx) {
    for i in (1..cards.len()).rev() {
        let j = hidden(ctx, i as u32 + 1) - 1;
        cards.swap(i, j);
    }
}

fn battle_error(rule: &str, message: impl Into<String>) -> RuleError {
    RuleError::new(rule, message)
}

impl BattleSide {
    fn new(s: &SideIn, deck: Vec<usize>, chooses: bool) -> BattleSide {
        let mut hand = Vec::new();
        for c in &s.characters {
            hand.extend(personal(c));
        }
        BattleSide {
            name: s.name.clone(),
            deck,
            discard: Vec::new(),
            hand,
            bp: s.bp,
            start: s.bp,
            plan: s.plan.clone().unwrap_or_default(),
            chooses,
        }
    }

    /// The hand position of the first held card of `keys` (in their order) that `ok` allows.
    fn first_of(&self, keys: &[String], ok: impl Fn(&BattleCard) -> bool) -> Option<usize> {
        keys.iter().find_map(|k| {
            self.hand
                .iter()
                .position(|&c| cards()[c].key == *k && ok(&cards()[c]))
        })
    }

    /// 4.f: the attack to play: the plan's order first, then the strongest.
    fn attack(&self) -> Option<usize> {
        self.first_of(&self.plan.attack, |c| c.class == Class::Offensive)
            .or_else(|| self.best(false, BattleCard::hit))
    }

    /// 4.f: the answer to `attack`: the plan's (`Some(None)`: let it stand), else the
    /// strongest defeat that fits, else a parry.
    fn answer(&self, attack: &str, personal_played: bool) -> Option<usize> {
        if let Some((_, planned)) = self.plan.answers.iter().find(|(a, _)| a == attack) {
            let Some(key) = planned else { return None };
            let held = self.first_of(std::slice::from_ref(key), |c| {
                c.answers(attack) && !(personal_played && c.is_personal())
            });
            if held.is_some() {
                return held;
            }
        }
        self.best(personal_played, |c| match &c.effect {
            Effect::Defeat(n, _) if c.answers(attack) => Some(100 + n),
            Effect::Parry(_) if c.answers(attack) => Some(0),
            _ => None,
        })
    }

    /// 4.g–4.h: the card to discard holding no attack: the plan's order first, then the first
    /// held that is not a withdraw card, else any.
    fn to_discard(&self) -> Option<usize> {
        self.first_of(&self.plan.discard, |_| true).or_else(|| {
            self.hand
                .iter()
                .position(|&c| cards()[c].effect != Effect::Withdraw)
                .or(if self.hand.is_empty() { None } else { Some(0) })
        })
    }

    /// 4.i: worn down enough to withdraw.
    fn spent(&self) -> bool {
        match self.plan.withdraw {
            Some(n) => self.bp <= n,
            None => self.bp * 3 <= self.start,
        }
    }

    /// 4.e, 4.i: draws up to 7 cards of the deck (personal cards not counted); an empty deck
    /// takes the discards reshuffled.
    fn replenish(&mut self, ctx: &mut Ctx) {
        while self
            .hand
            .iter()
            .filter(|&&c| !cards()[c].is_personal())
            .count()
            < 7
        {
            if self.deck.is_empty() {
                if self.discard.is_empty() {
                    return;
                }
                self.deck = std::mem::take(&mut self.discard);
                shuffle(&mut self.deck, ctx);
            }
            let c = self.deck.pop().expect("a card");
            self.hand.push(c);
        }
    }

    pub fn offensives(&self) -> usize {
        self.hand
            .iter()
            .filter(|&&c| cards()[c].class == Class::Offensive)
            .count()
    }

    /// Plays (removes) the card at hand position `at`; personal cards are spent, others go to
    /// the discards.
    fn play(&mut self, at: usize) -> usize {
        let c = self.hand.remove(at);
        if !cards()[c].is_personal() {
            self.discard.push(c);
        }
        c
    }

    /// The hand position of the best card `score` ranks (highest first; ties, the first held),
    /// no more than one personal card an exchange (4.l.3).
    fn best(
        &self,
        personal_played: bool,
        score: impl Fn(&BattleCard) -> Option<i64>,
    ) -> Option<usize> {
        let mut best: Option<(i64, usize)> = None;
        for (at, &c) in self.hand.iter().enumerate() {
            let card = &cards()[c];
            if personal_played && card.is_personal() {
                continue;
            }
            if let Some(s) = score(card) {
                if best.is_none_or(|(b, _)| s > b) {
                    best = Some((s, at));
                }
            }
        }
        best.map(|(_, at)| at)
    }
}

/// The most exchanges a battle runs (a safety net: each exchange's cards come round again).
const MAX_EXCHANGES: usize = 400;

impl CardBattle {
    /// 4.c–4.e: each side's deck of its nationality shuffled with the hidden stream, the hands
    /// dealt; `chooses`: which sides' commanders choose their cards as they are played.
    pub fn begin(sides: [SideIn; 2], chooses: [bool; 2], ctx: &mut Ctx) -> CardBattle {
        let mut decks = [deck(&sides[0].nationality), deck(&sides[1].nationality)];
        for d in &mut decks {
            shuffle(d, ctx);
        }
        CardBattle::deal(sides, decks, chooses, ctx)
    }

    /// 4.e: the hands dealt from decks given in draw order (the first card drawn first); the
    /// attacker redraws until his hand holds two offensive cards.
    pub fn deal(
        sides: [SideIn; 2],
        decks: [Vec<usize>; 2],
        chooses: [bool; 2],
        ctx: &mut Ctx,
    ) -> CardBattle {
        let [mut d0, mut d1] = decks;
        d0.reverse();
        d1.reverse();
        let mut s = [
            BattleSide::new(&sides[0], d0, chooses[0]),
            BattleSide::new(&sides[1], d1, chooses[1]),
        ];
        for side in &mut s {
            side.replenish(ctx);
        }
        // 4.e: the attacker redraws until his hand holds two offensive cards.
        for _ in 0..50 {
            if s[0].offensives() >= 2 {
                break;
            }
            let drawn: Vec<usize> = s[0]
                .hand
                .iter()
                .copied()
                .filter(|&c| !cards()[c].is_personal())
                .collect();
            s[0].hand.retain(|&c| cards()[c].is_personal());
            s[0].discard.extend(drawn);
            ctx.say(format!(
                "{} hold fewer than two offensive battle cards: they draw a new hand (4.e)",
                s[0].name
            ));
            s[0].replenish(ctx);
        }
        ctx.say(format!(
            "a battle with battle cards (4.): {} {} BP, {} {} BP",
            s[0].name, s[0].bp, s[1].name, s[1].bp
        ));
        CardBattle {
            sides: s,
            turn: 0,
            step: Step::Attack,
            personal: [false, false],
            opened: false,
            exchanges: 0,
            withdrew: None,
            plays: Vec::new(),
        }
    }

    pub fn over(&self) -> bool {
        self.step == Step::Over
    }

    /// The side whose choice it is now: the attacking side of the exchange at its attack and
    /// its cancel, the other at its answer.
    pub fn chooser(&self) -> Option<usize> {
        match self.step {
            Step::Attack | Step::Cancel { .. } => Some(self.turn),
            Step::Answer { .. } => Some(1 - self.turn),
            Step::Over => None,
        }
    }

    /// The side whose commander must choose now (`battle_play=interactive`); `None` while the
    /// doctrine plays, or the battle is over. A side with no card left at its attack has
    /// nothing to choose.
    pub fn waiting(&self) -> Option<usize> {
        let s = self.chooser()?;
        let side = &self.sides[s];
        if !side.chooses || (self.step == Step::Attack && side.hand.is_empty()) {
            return None;
        }
        Some(s)
    }

    /// The choice of the side's plan, else the doctrine, for the step at hand (module doc).
    pub fn doctrine(&self) -> Choice {
        let (x, y) = (self.turn, 1 - self.turn);
        match self.step {
            Step::Attack => {
                let side = &self.sides[x];
                match (side.attack(), side.to_discard()) {
                    (Some(at), _) => Choice::Play(at),
                    (None, Some(at)) => Choice::Discard(at),
                    (None, None) => Choice::Pass,
                }
            }
            Step::Answer { attack } => self.sides[y]
                .answer(&cards()[attack].key, self.personal[y])
                .map_or(Choice::Pass, Choice::Play),
            Step::Cancel { answer, .. } => {
                let side = &self.sides[x];
                let wanted = match side.plan.cancel {
                    Cancel::Always => true,
                    Cancel::Defeats => matches!(cards()[answer].effect, Effect::Defeat(..)),
                    Cancel::Never => false,
                };
                let at = side.best(self.personal[x], |c| {
                    (c.effect == Effect::Cancel).then_some(0)
                });
                match at {
                    Some(at) if wanted => Choice::Play(at),
                    _ => Choice::Pass,
                }
            }
            Step::Over => Choice::Pass,
        }
    }

    /// Plays the plans' and the doctrine's choices until a commander must choose or the battle
    /// is over.
    pub fn run(&mut self, ctx: &mut Ctx) {
        while !self.over() && self.waiting().is_none() {
            let c = self.doctrine();
            self.apply(c, ctx);
        }
    }

    /// The hand position of the card `key` in the hand of the side to choose, for a command
    /// naming it; an error names the card and what the hand holds.
    pub fn position(&self, key: &str) -> Result<usize, RuleError> {
        let s = self
            .chooser()
            .ok_or_else(|| battle_error("4.i Battle cards", "the battle is over"))?;
        let hand = &self.sides[s].hand;
        hand.iter()
            .position(|&c| cards()[c].key == key)
            .ok_or_else(|| {
                let held: Vec<&str> = hand.iter().map(|&c| cards()[c].key.as_str()).collect();
                battle_error(
                    "4.f Battle cards",
                    format!(
                        "your side holds no '{key}': its battle cards are {}",
                        if held.is_empty() {
                            "none".to_owned()
                        } else {
                            held.join(", ")
                        }
                    ),
                )
            })
    }

    /// Checks a commander's choice for the step at hand (4.f–4.i, 4.l.3). Errors name the card
    /// and the rule and say what fits instead.
    pub fn check(&self, choice: Choice) -> Result<(), RuleError> {
        let s = self
            .chooser()
            .ok_or_else(|| battle_error("4.i Battle cards", "the battle is over"))?;
        let side = &self.sides[s];
        let card = |at: usize| -> Result<&'static BattleCard, RuleError> {
            side.hand
                .get(at)
                .map(|&c| &cards()[c])
                .ok_or_else(|| battle_error("4.f Battle cards", "no such card in your hand"))
        };
        // 4.f: the attacking side opens the battle with an offensive card (4.e saw that it
        // holds two).
        let must_open = !self.opened && side.offensives() > 0;
        if let Choice::Play(at) = choice {
            let c = card(at)?;
            if c.is_personal() && self.personal[s] {
                return Err(battle_error(
                    "4.l.3 Shared sides",
                    format!(
                        "{}: one personal card a side an exchange, and your side has played one",
                        c.name
                    ),
                ));
            }
        }
        match (self.step, choice) {
            (Step::Attack, Choice::Play(at)) => {
                let c = card(at)?;
                match (&c.effect, c.class) {
                    (_, Class::Offensive) => Ok(()),
                    (Effect::Withdraw, _) if must_open => Err(battle_error(
                        "4.f Battle cards",
                        format!(
                            "{}: the attacking side opens the battle with an offensive card; withdraw at a later turn",
                            c.name
                        ),
                    )),
                    (Effect::Withdraw, _) => Ok(()),
                    _ => Err(battle_error(
                        "4.g–4.h Battle cards",
                        format!(
                            "{} is not an offensive card: at your side's turn play an offensive card, discard a card ('discard <card>') or play a withdraw card (4.i)",
                            c.name
                        ),
                    )),
                }
            }
            (Step::Attack, Choice::Discard(at)) => {
                let c = card(at)?;
                if must_open {
                    return Err(battle_error(
                        "4.f Battle cards",
                        format!(
                            "the attacking side opens the battle with an offensive card: play one rather than discard {}",
                            c.name
                        ),
                    ));
                }
                Ok(())
            }
            (Step::Attack, Choice::Pass) if side.hand.is_empty() => Ok(()),
            (Step::Attack, Choice::Pass) => Err(battle_error(
                "4.g–4.h Battle cards",
                "at your side's turn it plays an offensive card or discards one ('play <card>' or 'discard <card>'); 'pass' lets an attack or an answer stand",
            )),
            (Step::Answer { attack }, Choice::Play(at)) => {
                let c = card(at)?;
                let a = &cards()[attack];
                if c.answers(&a.key) {
                    Ok(())
                } else {
                    Err(battle_error(
                        "4.f Battle cards",
                        format!(
                            "{} does not answer {}: play a parry or a defeat that fits it, or 'pass' to let it stand",
                            c.name, a.name
                        ),
                    ))
                }
            }
            (Step::Cancel { answer, .. }, Choice::Play(at)) => {
                let c = card(at)?;
                if c.effect == Effect::Cancel {
                    Ok(())
                } else {
                    Err(battle_error(
                        "4.f Battle cards",
                        format!(
                            "{} is not a cancel card: cancel {} with a cancel card, or 'pass' to let it stand",
                            c.name,
                            cards()[answer].name
                        ),
                    ))
                }
            }
            (Step::Answer { .. } | Step::Cancel { .. }, Choice::Discard(at)) => {
                Err(battle_error(
                    "4.g–4.h Battle cards",
                    format!(
                        "{} may be discarded only at your side's turn to attack; now play a card or 'pass'",
                        card(at)?.name
                    ),
                ))
            }
            (Step::Answer { .. } | Step::Cancel { .. }, Choice::Pass) => Ok(()),
            (Step::Over, _) => Err(battle_error("4.i Battle cards", "the battle is over")),
        }
    }

    /// Every legal choice of the side to choose, a card of a kind once (the bot's and the
    /// view's list).
    pub fn legal(&self) -> Vec<Choice> {
        let Some(s) = self.chooser() else {
            return Vec::new();
        };
        let hand = &self.sides[s].hand;
        let mut out = Vec::new();
        for at in 0..hand.len() {
            if hand[..at].contains(&hand[at]) {
                continue;
            }
            for c in [Choice::Play(at), Choice::Discard(at)] {
                if self.check(c).is_ok() {
                    out.push(c);
                }
            }
        }
        if self.check(Choice::Pass).is_ok() {
            out.push(Choice::Pass);
        }
        out
    }

    /// The choice in the order language: `play <card>`, `discard <card>`, `pass`.
    pub fn describe(&self, choice: Choice) -> String {
        let s = self.chooser().unwrap_or(0);
        let key = |at: usize| cards()[self.sides[s].hand[at]].key.clone();
        match choice {
            Choice::Play(at) => format!("play {}", key(at)),
            Choice::Discard(at) => format!("discard {}", key(at)),
            Choice::Pass => "pass".into(),
        }
    }

    /// Carries out a checked choice (or the doctrine's), each card a line.
    pub fn apply(&mut self, choice: Choice, ctx: &mut Ctx) {
        let (x, y) = (self.turn, 1 - self.turn);
        let (xn, yn) = (self.sides[x].name.clone(), self.sides[y].name.clone());
        match (self.step, choice) {
            (Step::Over, _) => {}
            (Step::Attack, Choice::Play(at)) => {
                let c = self.sides[x].play(at);
                let card = &cards()[c];
                self.plays.push(format!("{xn} {}", card.key));
                if card.effect == Effect::Withdraw {
                    ctx.say(format!("{xn} play {} and leave the battlefield", card.name));
                    self.withdrew = Some(x);
                    self.step = Step::Over;
                    return;
                }
                self.personal[x] = card.is_personal();
                self.opened = true;
                if self.sides[y].chooses {
                    ctx.say(format!(
                        "{xn} play {}: the {yn} answer it or let it stand (4.f)",
                        card.name
                    ));
                }
                self.step = Step::Answer { attack: c };
            }
            (Step::Attack, Choice::Discard(at)) => {
                let none = self.sides[x].offensives() == 0;
                let c = self.sides[x].play(at);
                self.plays.push(format!("{xn} discards {}", cards()[c].key));
                if none {
                    ctx.say(format!("{xn} have no attack card and discard one"));
                } else {
                    ctx.say(format!("{xn} discard a card (4.g–4.h)"));
                }
                self.end_exchange(ctx);
            }
            (Step::Attack, Choice::Pass) => {
                ctx.say(format!("{xn} have no card"));
                self.end_exchange(ctx);
            }
            (Step::Answer { attack }, Choice::Play(at)) => {
                let answer = self.sides[y].play(at);
                let card = &cards()[answer];
                self.plays.push(format!("{yn} {}", card.key));
                self.personal[y] |= card.is_personal();
                ctx.say(format!(
                    "{xn} play {}; {yn} answer with {}",
                    cards()[attack].name,
                    card.name
                ));
                self.step = Step::Cancel { attack, answer };
            }
            (Step::Answer { attack }, _) => {
                ctx.say(format!("{xn} play {}: unanswered", cards()[attack].name));
                self.hit(attack, ctx);
                self.end_exchange(ctx);
            }
            (Step::Cancel { attack, .. }, Choice::Play(at)) => {
                let c = self.sides[x].play(at);
                self.plays.push(format!("{xn} {}", cards()[c].key));
                self.personal[x] |= cards()[c].is_personal();
                ctx.say(format!(
                    "{xn} cancel it with {}: the attack stands",
                    cards()[c].name
                ));
                self.hit(attack, ctx);
                self.end_exchange(ctx);
            }
            (Step::Cancel { answer, .. }, _) => {
                match cards()[answer].effect {
                    Effect::Defeat(n, _) => {
                        let loss = n.max(2);
                        self.sides[x].bp -= loss;
                        ctx.say(format!(
                            "the attack is defeated: {xn} lose {loss} BP: {} left",
                            self.sides[x].bp
                        ));
                    }
                    _ => ctx.say("the attack is parried"),
                }
                self.end_exchange(ctx);
            }
        }
    }

    /// The attack card `attack` stands: the other side loses its BP.
    fn hit(&mut self, attack: usize, ctx: &mut Ctx) {
        let y = 1 - self.turn;
        let hit = cards()[attack].hit().expect("an offensive card");
        self.sides[y].bp -= hit;
        ctx.say(format!(
            "{} lose {hit} BP: {} left",
            self.sides[y].name, self.sides[y].bp
        ));
    }

    /// The exchange is over: 0 BP ends the battle; a side played by its plan or the doctrine,
    /// worn down to its plan's level (else a third of its BP), withdraws if it holds a withdraw
    /// card (4.i; a commander who chooses withdraws at his side's turn); both out of attack
    /// cards, or a hand empty, both draw to 7 (4.i); the other side attacks next.
    fn end_exchange(&mut self, ctx: &mut Ctx) {
        let (x, y) = (self.turn, 1 - self.turn);
        if self.sides.iter().any(|side| side.bp <= 0) {
            self.step = Step::Over;
            return;
        }
        for w in [y, x] {
            let side = &self.sides[w];
            if side.chooses || !side.spent() {
                continue;
            }
            if let Some(at) = side
                .hand
                .iter()
                .position(|&c| cards()[c].effect == Effect::Withdraw)
            {
                let c = self.sides[w].play(at);
                let name = self.sides[w].name.clone();
                self.plays.push(format!("{name} {}", cards()[c].key));
                ctx.say(format!(
                    "{name} play {} and leave the battlefield",
                    cards()[c].name
                ));
                self.withdrew = Some(w);
                self.step = Step::Over;
                return;
            }
        }
        if (self.sides[0].offensives() == 0 && self.sides[1].offensives() == 0)
            || self.sides.iter().any(|side| side.hand.is_empty())
        {
            ctx.say("both sides draw new battle cards (4.i)");
            for side in &mut self.sides {
                side.replenish(ctx);
            }
        }
        self.turn = y;
        self.step = Step::Attack;
        self.personal = [false, false];
        self.exchanges += 1;
        if self.exchanges >= MAX_EXCHANGES {
            self.step = Step::Over;
        }
    }

    /// What the battle came to, once over.
    pub fn fought(&self) -> Fought {
        let s = &self.sides;
        let lost = [s[0].start - s[0].bp.max(0), s[1].start - s[1].bp.max(0)];
        let attacker_lost = match self.withdrew {
            Some(w) => w == 0,
            None if s[1].bp <= 0 => false,
            None if s[0].bp <= 0 => true,
            // The safety net: the side with fewer BP left loses, a tie the attacker.
            None => s[0].bp <= s[1].bp,
        };
        Fought {
            attacker_won: !attacker_lost,
            lost,
            withdrew: self.withdrew,
            plays: self.plays.clone(),
        }
    }
}

/// 4.c–4.i: the battle, `[attacker, defender]`, each side's deck of its nationality shuffled
/// with the hidden stream, played out in one go by the plans and the doctrine.
pub fn fight(sides: [SideIn; 2], ctx: &mut Ctx) -> Fought {
    let mut b = CardBattle::begin(sides, [false, false], ctx);
    b.run(ctx);
    b.fought()
}

/// The battle from decks given in draw order (the first card drawn first), played out by the
/// plans and the doctrine: `fight` after its shuffle, and the tests' way to set the hands.
pub fn play_out(sides: [SideIn; 2], decks: [Vec<usize>; 2], ctx: &mut Ctx) -> Fought {
    let mut b = CardBattle::deal(sides, decks, [false, false], ctx);
    b.run(ctx);
    b.fought()
}

/// 4.j: the SP lost, `(loser, winner)`, from the BP each lost: N = the loser's − the
/// winner's; 0: none; N > 0: the loser N, the winner ⌊N/3⌋; N < 0: the winner |N|, the loser
/// ⌊|N|/2⌋.
pub fn losses(loser_bp_lost: i64, winner_bp_lost: i64) -> (u32, u32) {
    let n = loser_bp_lost - winner_bp_lost;
    match n.cmp(&0) {
        std::cmp::Ordering::Equal => (0, 0),
        std::cmp::Ordering::Greater => (n as u32, (n / 3) as u32),
        std::cmp::Ordering::Less => ((-n / 2) as u32, (-n) as u32),
    }
}
