//! The order language of Searching for Glory: `plan 2 5 6` (hand positions, sealed),
//! `initiative`, and an operation of clauses joined by `;`: `march <lp>`, `force-march <lp>
//! [<lp>]`, `attack <lp>`, `decisive <lp>`, `gather`, `entrench`, `rest`, `blow <a>-<b>`,
//! `repair <a>-<b>`, `pass`, `keep <positions>`; in a reactive window, `react <card>` or `pass`;
//! a card battle's `battle-plan …` (sealed, 4.f) and `fight`, or, played card by card,
//! `play <card>`, `discard <card>` and `pass`.

use serde::{Deserialize, Serialize};

use crate::engine::ruleset::RuleError;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "clause", content = "to", rename_all = "snake_case")]
pub enum Clause {
    March(String),
    ForceMarch(Vec<String>),
    Attack(String),
    Decisive(String),
    Gather,
    Entrench,
    Rest,
    Blow(String, String),
    Repair(String, String),
    Pass,
    /// Result card (reconstructed): harass the enemy at an LP one CL away (2.c–2.d).
    Harass(String),
    /// Result card (reconstructed): a Decisive Victory! that only falls on Napoleon's CU.
    NapoleonDefeated(String),
    /// Variety card (reconstructed): no fatigue roll in this operation.
    GoodWeather,
    /// Variety card (reconstructed): −2 to the defenders of this operation's attack.
    Demoralize,
    /// Special Event (reconstructed): Military Chest Captured.
    Chest,
    /// Result card (reconstructed): no enemy may attack your CU's LP for the rest of the round.
    Parlay,
    /// Result card (reconstructed): Inform the Government / Emperor.
    Inform,
    /// Result card (reconstructed): Offer Enemy Captured Flags, after a battle won.
    Flags,
    /// 2.e: leave this many SP as lone SP at the LP where the CU stands at this point.
    Detach(u32),
    /// 2.e: take own lone SP at the LP where the CU stands at this point (all, or this many).
    Absorb(Option<u32>),
    /// 1.d, 3.5: the hand positions (1-based) of the cards kept for the next round.
    Keep(Vec<usize>),
    /// 2.l: lay SIEGE to the enemy shut in the fortress where the CU stands (no card).
    Siege,
    /// 2.l: the besieged CU makes a SORTIE (no card).
    Sortie,
    /// III: the role's strategic characteristic (no card, limited uses).
    Strategic,
    /// 2.l: the side's standing order for its lone SP and NPCs attacked at a fortress: refuse
    /// battle and go in (`true`), or fight (no card).
    Standing(bool),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Command {
    /// The Planning Phase's sealed choice: the hand positions (1-based). `None` in the log: the
    /// positions stay sealed until every plan is in.
    Plan {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        positions: Option<Vec<usize>>,
    },
    /// 3.1: determine the initiative.
    Initiative,
    /// 4.f: the battle held for its battle plans is fought, once they are open.
    Fight,
    /// 4.f, option `battle_cards`: a side's sealed battle plan for the card battle that asks
    /// its commander for one. `None` in the log until the battle's plans are opened.
    BattlePlan {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        plan: Option<super::battle_cards::BattlePlan>,
    },
    /// 2.l: in a battle window, a defender at a fortress refuses battle and goes into it.
    Refuse,
    /// 4.f–4.i, `battle_play=interactive`: a battle card of the side's hand played for the
    /// step at hand: an attack, an answer, a cancel, a withdrawal.
    Play { card: String },
    /// 4.g–4.h, `battle_play=interactive`: a battle card of the side's hand discarded at its
    /// turn to attack.
    Discard { card: String },
    /// II.1.A.3: an eliminated player re-enters as this character, or (`None`) stays out.
    Enter { character: Option<String> },
    /// 3.2–3.3: one operation. In a reactive window, `pass` passes.
    Operation { clauses: Vec<Clause> },
    /// 1.e: a reactive card from the hand, played in a window (or to nullify the last standing
    /// one).
    React { card: String },
}

fn order_error(message: impl Into<String>) -> RuleError {
    RuleError::new("order language", message)
}

fn lp_word(w: Option<&str>, clause: &str) -> Result<String, RuleError> {
    w.map(str::to_owned).ok_or_else(|| {
        order_error(format!(
            "'{clause}' needs a location point, like '{clause} regensburg'"
        ))
    })
}

fn bridge(w: Option<&str>, clause: &str) -> Result<(String, String), RuleError> {
    let w = w.ok_or_else(|| {
        order_error(format!(
            "'{clause}' needs a bridge, like '{clause} kelheim-regensburg'"
        ))
    })?;
    let (a, b) = w.split_once('-').ok_or_else(|| {
        order_error(format!(
            "'{w}' is not a bridge: name its two LPs, like kelheim-regensburg"
        ))
    })?;
    Ok((a.to_owned(), b.to_owned()))
}

impl Clause {
    /// The LP this clause attacks (Attack, Decisive Victory!, Napoleon Defeated!).
    pub fn attacks(&self) -> Option<&String> {
        match self {
            Clause::Attack(to) | Clause::Decisive(to) | Clause::NapoleonDefeated(to) => Some(to),
            _ => None,
        }
    }

    /// Does this clause cross a CL?
    pub fn moves(&self) -> bool {
        matches!(self, Clause::March(_) | Clause::ForceMarch(_)) || self.attacks().is_some()
    }
}

pub fn parse(text: &str) -> Result<Command, RuleError> {
    let text = text.trim().to_lowercase();
    let mut words = text.split_whitespace();
    match words.next() {
        Some("plan") => {
            let mut positions = Vec::new();
            for w in words {
                if w == "none" {
                    continue;
                }
                let n: usize = w.trim_end_matches(',').parse().map_err(|_| {
                    order_error(format!(
                        "'{w}' is not a hand position: plan names positions, like 'plan 1 4 5'"
                    ))
                })?;
                positions.push(n);
            }
            return Ok(Command::Plan {
                positions: Some(positions),
            });
        }
        Some("battle-plan") => {
            let rest = text.trim_start().trim_start_matches("battle-plan");
            return Ok(Command::BattlePlan {
                plan: Some(super::battle_cards::BattlePlan::parse(rest)?),
            });
        }
        Some("initiative") | Some("roll") if words.next().is_none() => {
            return Ok(Command::Initiative)
        }
        Some("refuse") if words.next().is_none() => return Ok(Command::Refuse),
        Some(verb @ ("play" | "discard")) => {
            let card = words.next().ok_or_else(|| {
                order_error(format!(
                    "'{verb}' names a battle card of your side's hand, like '{verb} infantry-attack'"
                ))
            })?;
            if let Some(extra) = words.next() {
                return Err(order_error(format!(
                    "'{extra}' is left over after '{verb} {card}'"
                )));
            }
            let card = card.to_owned();
            return Ok(if verb == "play" {
                Command::Play { card }
            } else {
                Command::Discard { card }
            });
        }
        Some("fight") if words.next().is_none() => return Ok(Command::Fight),
        Some("enter") => {
            let who = words.next().ok_or_else(|| {
                order_error("'enter' names a free character, like 'enter hiller', or 'enter none'")
            })?;
            if let Some(extra) = words.next() {
                return Err(order_error(format!(
                    "'{extra}' is left over after 'enter {who}'"
                )));
            }
            return Ok(Command::Enter {
                character: (who != "none").then(|| who.to_owned()),
            });
        }
        Some("react") => {
            let card = words.next().ok_or_else(|| {
                order_error("'react' names a reactive card of your hand, like 'react ambush'")
            })?;
            if let Some(extra) = words.next() {
                return Err(order_error(format!(
                    "'{extra}' is left over after 'react {card}'"
                )));
            }
            return Ok(Command::React {
                card: card.to_owned(),
            });
        }
        None => return Err(order_error("an empty order: try 'march <lp>' or 'pass'")),
        _ => {}
    }
    let mut clauses = Vec::new();
    for part in text
        .split([';', '\n'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let mut w = part.split_whitespace();
        let verb = w.next().unwrap_or_default();
        let clause = match verb {
            "march" | "m" => Clause::March(lp_word(w.next(), "march")?),
            "force-march" | "fm" => {
                // 2.e: `absorb [<n>]` between the two LPs absorbs at the middle LP.
                let words: Vec<&str> = w.by_ref().collect();
                let mut route: Vec<String> = Vec::new();
                let mut i = 0;
                while i < words.len() {
                    if words[i] == "absorb" {
                        let n = words.get(i + 1).and_then(|x| x.parse::<u32>().ok());
                        let lps = route.iter().filter(|e| route_absorb(e).is_none()).count();
                        if lps != 1 || i + 1 + usize::from(n.is_some()) >= words.len() {
                            return Err(order_error(
                                "'absorb' in a force march goes between its two location points, like 'force-march kelheim absorb regensburg' (at its start or end, write an 'absorb' clause)",
                            ));
                        }
                        route.push(match n {
                            Some(n) => format!("absorb:{n}"),
                            None => "absorb".to_owned(),
                        });
                        i += 1 + usize::from(n.is_some());
                        continue;
                    }
                    route.push(words[i].to_owned());
                    i += 1;
                }
                let lps = route.iter().filter(|e| route_absorb(e).is_none()).count();
                if lps == 0 || lps > 2 {
                    return Err(order_error(
                        "'force-march' names one or two location points, like 'force-march pfaffenhofen abensberg'",
                    ));
                }
                Clause::ForceMarch(route)
            }
            "attack" | "a" => Clause::Attack(lp_word(w.next(), "attack")?),
            "decisive" => Clause::Decisive(lp_word(w.next(), "decisive")?),
            "gather" => Clause::Gather,
            "entrench" => Clause::Entrench,
            "rest" => Clause::Rest,
            "blow" => {
                let (a, b) = bridge(w.next(), "blow")?;
                Clause::Blow(a, b)
            }
            "repair" => {
                let (a, b) = bridge(w.next(), "repair")?;
                Clause::Repair(a, b)
            }
            "pass" => Clause::Pass,
            "siege" => Clause::Siege,
            "sortie" => Clause::Sortie,
            "strategic" => Clause::Strategic,
            "standing" => match w.next() {
                Some("refuse") => Clause::Standing(true),
                Some("fight") => Clause::Standing(false),
                _ => {
                    return Err(order_error(
                        "'standing refuse' or 'standing fight': your side's lone SP and NPCs attacked at a fortress (2.l)",
                    ))
                }
            },
            "harass" => Clause::Harass(lp_word(w.next(), "harass")?),
            "napoleon-defeated" => {
                Clause::NapoleonDefeated(lp_word(w.next(), "napoleon-defeated")?)
            }
            "good-weather" => Clause::GoodWeather,
            "demoralize" => Clause::Demoralize,
            "chest" => Clause::Chest,
            "parlay" => Clause::Parlay,
            "inform" => Clause::Inform,
            "flags" => Clause::Flags,
            "detach" => {
                let n = w.next().and_then(|n| n.parse().ok()).ok_or_else(|| {
                    order_error("'detach' names a number of SP, like 'detach 2'")
                })?;
                Clause::Detach(n)
            }
            "absorb" => match w.next() {
                None => Clause::Absorb(None),
                Some(n) => Clause::Absorb(Some(n.parse().map_err(|_| {
                    order_error(format!(
                        "'{n}' is not a number of SP: 'absorb' or 'absorb 2'"
                    ))
                })?)),
            },
            "keep" => {
                let mut positions = Vec::new();
                for p in w.by_ref() {
                    positions.push(p.trim_end_matches(',').parse().map_err(|_| {
                        order_error(format!(
                            "'{p}' is not a hand position: keep names positions, like 'keep 2'"
                        ))
                    })?);
                }
                Clause::Keep(positions)
            }
            other => {
                return Err(order_error(format!(
                    "'{other}' is not an order: march, force-march, attack, decisive, gather, entrench, rest, blow, repair, pass, harass, napoleon-defeated, good-weather, demoralize, chest, parlay, inform, flags, detach, absorb, keep, siege, sortie, strategic, standing"
                )))
            }
        };
        if let Some(extra) = w.next() {
            return Err(order_error(format!(
                "'{extra}' is left over after '{verb}'"
            )));
        }
        clauses.push(clause);
    }
    Ok(Command::Operation { clauses })
}

pub fn describe(command: &Command) -> String {
    match command {
        Command::Plan { positions: None } => "plan (sealed)".into(),
        Command::Plan { positions: Some(p) } if p.is_empty() => "plan none".into(),
        Command::Plan { positions: Some(p) } => {
            let p: Vec<String> = p.iter().map(usize::to_string).collect();
            format!("plan {}", p.join(" "))
        }
        Command::Initiative => "initiative".into(),
        Command::Fight => "fight".into(),
        Command::BattlePlan { plan: None } => "battle-plan (sealed)".into(),
        Command::BattlePlan { plan: Some(p) } => format!("battle-plan {}", p.describe())
            .trim_end()
            .to_owned(),
        Command::Refuse => "refuse".into(),
        Command::Play { card } => format!("play {card}"),
        Command::Discard { card } => format!("discard {card}"),
        Command::Enter { character } => {
            format!("enter {}", character.as_deref().unwrap_or("none"))
        }
        Command::React { card } => format!("react {card}"),
        Command::Operation { clauses } => clauses
            .iter()
            .map(describe_clause)
            .collect::<Vec<_>>()
            .join("; "),
    }
}

pub fn describe_clause(c: &Clause) -> String {
    match c {
        Clause::March(lp) => format!("march {lp}"),
        Clause::ForceMarch(route) => format!(
            "force-march {}",
            route
                .iter()
                .map(|e| match route_absorb(e) {
                    Some(Some(n)) => format!("absorb {n}"),
                    Some(None) => "absorb".to_owned(),
                    None => e.clone(),
                })
                .collect::<Vec<_>>()
                .join(" ")
        ),
        Clause::Attack(lp) => format!("attack {lp}"),
        Clause::Decisive(lp) => format!("decisive {lp}"),
        Clause::Gather => "gather".into(),
        Clause::Entrench => "entrench".into(),
        Clause::Rest => "rest".into(),
        Clause::Blow(a, b) => format!("blow {a}-{b}"),
        Clause::Repair(a, b) => format!("repair {a}-{b}"),
        Clause::Pass => "pass".into(),
        Clause::Siege => "siege".into(),
        Clause::Sortie => "sortie".into(),
        Clause::Strategic => "strategic".into(),
        Clause::Standing(true) => "standing refuse".into(),
        Clause::Standing(false) => "standing fight".into(),
        Clause::Harass(lp) => format!("harass {lp}"),
        Clause::NapoleonDefeated(lp) => format!("napoleon-defeated {lp}"),
        Clause::GoodWeather => "good-weather".into(),
        Clause::Demoralize => "demoralize".into(),
        Clause::Chest => "chest".into(),
        Clause::Parlay => "parlay".into(),
        Clause::Inform => "inform".into(),
        Clause::Flags => "flags".into(),
        Clause::Detach(n) => format!("detach {n}"),
        Clause::Absorb(None) => "absorb".into(),
        Clause::Absorb(Some(n)) => format!("absorb {n}"),
        Clause::Keep(p) => {
            let p: Vec<String> = p.iter().map(usize::to_string).collect();
            format!("keep {}", p.join(" ")).trim_end().to_owned()
        }
    }
}

/// 2.e: a force march's route element that absorbs lone SP at the LP reached so far (`absorb`,
/// all; `absorb:<n>`, n), rather than an LP to move to.
pub fn route_absorb(element: &str) -> Option<Option<u32>> {
    match element.split_once(':') {
        _ if element == "absorb" => Some(None),
        Some(("absorb", n)) => n.parse().ok().map(Some),
        _ => None,
    }
}
