//! The optional battle rules (4., option `battle_cards=cards`): a battle between sides of at
//! least 4 SP each is fought with battle cards instead of dice (4.b: smaller ones are
//! engagements, fought by 2.m). Each side has a battle deck of its nationality
//! (`data/battle_cards.txt`, reconstructed beyond 4.e's six names) and its characters' personal
//! battle cards; the whole battle plays out in the event that begins it, each card drawn from
//! the hidden stream and logged as it is played, by each side's commander's sealed battle plan
//! ([`BattlePlan`], sent in the Planning Phase) where he sent one, else by the standing
//! doctrine below (`battle_play=interactive` is not built: docs, What is missing).
//!
//! Doctrine (decision): the side to attack plays its strongest offensive card; the other side
//! answers with its strongest defeat that fits, else a parry that fits; the attacking side
//! cancels an answer when it holds a cancel; a side holding no offensive card discards one
//! (4.g–4.h); a side whose BP have fallen to a third of its start or below withdraws when it
//! holds a withdraw card (4.i). A battle plan changes each of these choices by card kind.

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

    fn is_personal(&self) -> bool {
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
    /// and the personal battle cards of `character` (4.e). Errors name the card and say what
    /// fits instead.
    pub fn check(&self, nationality: &str, character: Option<&str>) -> Result<(), RuleError> {
        let mine: Vec<&BattleCard> = cards()
            .iter()
            .filter(|c| c.deck == nationality || Some(c.deck.as_str()) == character)
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
    /// Its commander's opened battle plan, if he sent one (else the doctrine plays).
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

struct Side {
    name: String,
    deck: Vec<usize>,
    discard: Vec<usize>,
    hand: Vec<usize>,
    bp: i64,
    start: i64,
    plan: BattlePlan,
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

impl Side {
    fn new(s: &SideIn, deck: Vec<usize>) -> Side {
        let mut hand = Vec::new();
        for c in &s.characters {
            hand.extend(personal(c));
        }
        Side {
            name: s.name.clone(),
            deck,
            discard: Vec::new(),
            hand,
            bp: s.bp,
            start: s.bp,
            plan: s.plan.clone().unwrap_or_default(),
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

    fn offensives(&self) -> usize {
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

/// 4.c–4.i: the battle, `[attacker, defender]`, each side's deck of its nationality shuffled
/// with the hidden stream, played out by the doctrine.
pub fn fight(sides: [SideIn; 2], ctx: &mut Ctx) -> Fought {
    let mut decks = [deck(&sides[0].nationality), deck(&sides[1].nationality)];
    for d in &mut decks {
        shuffle(d, ctx);
    }
    play_out(sides, decks, ctx)
}

/// The battle from decks given in draw order (the first card drawn first): `fight` after its
/// shuffle, and the tests' way to set the hands.
pub fn play_out(sides: [SideIn; 2], decks: [Vec<usize>; 2], ctx: &mut Ctx) -> Fought {
    let [mut d0, mut d1] = decks;
    d0.reverse();
    d1.reverse();
    let mut s = [Side::new(&sides[0], d0), Side::new(&sides[1], d1)];
    let mut plays: Vec<String> = Vec::new();
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
    let mut withdrew = None;
    let mut turn = 0usize;
    for _ in 0..MAX_EXCHANGES {
        let (x, y) = (turn, 1 - turn);
        let mut personal = [false, false];
        match s[x].attack() {
            Some(at) => {
                let attack = s[x].play(at);
                let a = &cards()[attack];
                plays.push(format!("{} {}", s[x].name, a.key));
                personal[x] = a.is_personal();
                let hit = a.hit().expect("an offensive card");
                // 4.f: the answer: the plan's, else the strongest defeat that fits, else a
                // parry.
                let answer = s[y].answer(&a.key, personal[y]);
                let mut answered = answer.map(|at| s[y].play(at));
                if let Some(ans) = answered {
                    plays.push(format!("{} {}", s[y].name, cards()[ans].key));
                    personal[y] |= cards()[ans].is_personal();
                    ctx.say(format!(
                        "{} play {}; {} answer with {}",
                        s[x].name,
                        a.name,
                        s[y].name,
                        cards()[ans].name
                    ));
                    let wanted = match s[x].plan.cancel {
                        Cancel::Always => true,
                        Cancel::Defeats => {
                            matches!(cards()[ans].effect, Effect::Defeat(..))
                        }
                        Cancel::Never => false,
                    };
                    let cancel = if wanted {
                        s[x].best(personal[x], |c| (c.effect == Effect::Cancel).then_some(0))
                    } else {
                        None
                    };
                    if let Some(at) = cancel {
                        let c = s[x].play(at);
                        plays.push(format!("{} {}", s[x].name, cards()[c].key));
                        ctx.say(format!(
                            "{} cancel it with {}: the attack stands",
                            s[x].name,
                            cards()[c].name
                        ));
                        answered = None;
                    }
                } else {
                    ctx.say(format!("{} play {}: unanswered", s[x].name, a.name));
                }
                match answered.map(|c| &cards()[c].effect) {
                    None => {
                        s[y].bp -= hit;
                        ctx.say(format!("{} lose {hit} BP: {} left", s[y].name, s[y].bp));
                    }
                    Some(Effect::Defeat(n, _)) => {
                        let loss = (*n).max(2);
                        s[x].bp -= loss;
                        ctx.say(format!(
                            "the attack is defeated: {} lose {loss} BP: {} left",
                            s[x].name, s[x].bp
                        ));
                    }
                    Some(_) => ctx.say("the attack is parried"),
                }
            }
            None => {
                // 4.g–4.h: no attack card: discard one (the plan's, else one that is not a
                // withdraw card while others are held).
                match s[x].to_discard() {
                    Some(at) => {
                        let c = s[x].play(at);
                        plays.push(format!("{} discards {}", s[x].name, cards()[c].key));
                        ctx.say(format!("{} have no attack card and discard one", s[x].name));
                    }
                    None => ctx.say(format!("{} have no card", s[x].name)),
                }
            }
        }
        if s.iter().any(|side| side.bp <= 0) {
            break;
        }
        // 4.i: a side worn down to its plan's level (else a third of its BP) withdraws if it
        // holds a withdraw card.
        for w in [y, x] {
            if s[w].spent() {
                if let Some(at) = s[w]
                    .hand
                    .iter()
                    .position(|&c| cards()[c].effect == Effect::Withdraw)
                {
                    let c = s[w].play(at);
                    plays.push(format!("{} {}", s[w].name, cards()[c].key));
                    ctx.say(format!(
                        "{} play {} and leave the battlefield",
                        s[w].name,
                        cards()[c].name
                    ));
                    withdrew = Some(w);
                    break;
                }
            }
        }
        if withdrew.is_some() {
            break;
        }
        // 4.i: both out of attack cards, or a hand empty: both draw to 7.
        if (s[0].offensives() == 0 && s[1].offensives() == 0)
            || s.iter().any(|side| side.hand.is_empty())
        {
            ctx.say("both sides draw new battle cards (4.i)");
            for side in &mut s {
                side.replenish(ctx);
            }
        }
        turn = y;
    }
    let lost = [s[0].start - s[0].bp.max(0), s[1].start - s[1].bp.max(0)];
    let attacker_lost = match withdrew {
        Some(w) => w == 0,
        None if s[1].bp <= 0 => false,
        None if s[0].bp <= 0 => true,
        // The safety net: the side with fewer BP left loses, a tie the attacker.
        None => s[0].bp <= s[1].bp,
    };
    Fought {
        attacker_won: !attacker_lost,
        lost,
        withdrew,
        plays,
    }
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
