//! The order language: what a seat writes in an email or on the command line, read into a
//! command and written back out (`describe` ∘ `parse` is the identity on describe's output).
//! Clauses are separated by `;` or new lines and run in the order written. The grammar is in
//! docs/rules/hour-of-glory.md, "The order language".

use std::borrow::Cow;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::agents::{Agent, Mode, Weapon};
use super::board::{Dir, DoorId, Sq};
use super::combat::Burst;
use super::skills::Method;
use super::state::Side;
use crate::engine::ruleset::RuleError;

/// How an order ran: `Ok(None)` in full; `Ok(Some((why, rest)))` stopped early by the rules,
/// with the clauses not carried out; `Err((rule, rest))` refused.
pub type Ran = Result<Option<(String, Vec<String>)>, (RuleError, Vec<String>)>;

/// One clause of an Intruder's turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "do")]
pub enum IStep {
    /// Enter assault mode at the start of the turn, changing weapon as a bonus action.
    Assault {
        weapon: Option<Weapon>,
    },
    Move {
        path: Vec<Sq>,
    },
    /// How to SNEAK for the rest of the turn.
    Sneak {
        method: Method,
    },
    Breach {
        door: DoorId,
        method: Method,
    },
    Open {
        door: DoorId,
    },
    Close {
        door: DoorId,
    },
    Spy {
        method: Method,
    },
    SneakAttack {
        at: Sq,
    },
    Conceal {
        at: Sq,
        method: Method,
    },
    CoupDeGrace {
        at: Sq,
    },
    Fight {
        at: Sq,
    },
    Shoot {
        at: Vec<Sq>,
        /// An SMG burst and the re-roll policy written with it (`None`: no burst).
        burst: Option<Burst>,
    },
    Weapon {
        weapon: Weapon,
    },
    Hide,
    Recover {
        mode: Mode,
    },
    Pass,
}

/// One clause of the Defender's turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "do")]
pub enum DStep {
    CommanderMove {
        path: Vec<Sq>,
    },
    CommanderFace {
        dir: Dir,
    },
    CommanderOpen {
        door: DoorId,
    },
    CommanderClose {
        door: DoorId,
    },
    CommanderInvestigate {
        at: Sq,
    },
    CommanderAlarm {
        at: Vec<Sq>,
    },
    CommanderFight {
        at: Sq,
    },
    CommanderShoot {
        at: Sq,
    },
    SentryFight {
        sentry: String,
        at: Sq,
    },
    SentryShoot {
        sentry: String,
        at: Sq,
    },
    /// Whom every Guard pursues this turn, but those given a target of their own.
    GuardsChase {
        target: Agent,
    },
    /// Whom one Guard pursues this turn (summary, "Guards": "a Guard must move towards one of
    /// them of your choice").
    GuardChase {
        guard: String,
        target: Agent,
    },
    /// The Defender's route for one Guard (summary, "Guards": "The route does not have to be
    /// direct").
    GuardMove {
        guard: String,
        path: Vec<Sq>,
    },
    Replace {
        at: Sq,
    },
    Pass,
}

/// A standing choice (responses left to the victim, decided in advance).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "set")]
pub enum Standing {
    Counterattack {
        on: bool,
    },
    Sacrifice {
        on: bool,
    },
    /// The Defender's: which side of a Sentry his alert marker goes when its door closes.
    AlertSide {
        side: Side,
    },
}

/// A whole order. In JSON (the API, the stored events) it is the order's text in the order
/// language under the side that gives it: `{"intruder": "sneak spend-time; move m21 n20"}`,
/// `{"defender": "commander face north"}`. Every fold reads every command of the game again, and
/// reading a line of text is much quicker than rebuilding nested JSON objects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Intruder {
        standing: Vec<Standing>,
        steps: Vec<IStep>,
    },
    Defender {
        standing: Vec<Standing>,
        steps: Vec<DStep>,
    },
}

impl Serialize for Command {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (index, side) = match self {
            Command::Intruder { .. } => (0, "intruder"),
            Command::Defender { .. } => (1, "defender"),
        };
        s.serialize_newtype_variant("Command", index, side, &describe(self))
    }
}

impl<'de> Deserialize<'de> for Command {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(rename_all = "snake_case")]
        enum Side<'a> {
            Intruder(#[serde(borrow)] Cow<'a, str>),
            Defender(#[serde(borrow)] Cow<'a, str>),
        }
        match Side::deserialize(d)? {
            Side::Intruder(text) => parse_intruder(&text),
            Side::Defender(text) => parse_defender(&text),
        }
        .map_err(D::Error::custom)
    }
}

fn err(message: impl Into<String>) -> RuleError {
    RuleError::new("order language", message)
}

fn sq(word: &str) -> Result<Sq, RuleError> {
    Sq::parse(word).ok_or_else(|| {
        err(format!(
            "'{word}' is not a square of the stronghold: write a column letter and a row number, like m20"
        ))
    })
}

fn door(word: &str) -> Result<DoorId, RuleError> {
    DoorId::parse(word)
        .ok_or_else(|| err(format!("'{word}' is not a door: write door-1 to door-25")))
}

fn method(word: Option<&&str>) -> Result<Method, RuleError> {
    match word {
        None => Ok(Method::TakeChance),
        Some(w) => Method::parse(w).ok_or_else(|| {
            err(format!(
                "'{w}' is not a method: write take-chance or spend-time"
            ))
        }),
    }
}

fn on_off(word: Option<&&str>) -> Result<bool, RuleError> {
    match word.copied() {
        Some("on") => Ok(true),
        Some("off") => Ok(false),
        _ => Err(err("write 'on' or 'off'")),
    }
}

/// The order in lower case, copied only when it has capitals.
fn lower(text: &str) -> Cow<'_, str> {
    if text.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(text.to_ascii_lowercase())
    } else {
        Cow::Borrowed(text)
    }
}

/// The clauses of an order (lower case), each as its words.
fn clauses(text: &str) -> impl Iterator<Item = Vec<&str>> {
    text.split([';', '\n'])
        .map(|c| {
            c.split_whitespace()
                .map(|w| w.trim_end_matches(','))
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
        })
        .filter(|c| !c.is_empty())
}

pub(crate) fn standing(words: &[&str]) -> Option<Result<Standing, RuleError>> {
    match words.first().copied() {
        Some("counterattack") => {
            Some(on_off(words.get(1)).map(|on| Standing::Counterattack { on }))
        }
        Some("sacrifice") => Some(on_off(words.get(1)).map(|on| Standing::Sacrifice { on })),
        Some("alert-side") => Some(match words.get(1..) {
            Some(["left"]) => Ok(Standing::AlertSide { side: Side::Left }),
            Some(["right"]) => Ok(Standing::AlertSide { side: Side::Right }),
            _ => Err(err("write alert-side left or alert-side right")),
        }),
        _ => None,
    }
}

fn expect_len(words: &[&str], n: usize, usage: &str) -> Result<(), RuleError> {
    if words.len() == n {
        Ok(())
    } else {
        Err(err(format!("'{}': write {usage}", words.join(" "))))
    }
}

pub fn parse_intruder(text: &str) -> Result<Command, RuleError> {
    let mut steps = Vec::new();
    let mut stand = Vec::new();
    let text = lower(text);
    for w in clauses(&text) {
        if let Some(s) = standing(&w) {
            stand.push(s?);
            continue;
        }
        let step = match w[0] {
            "assault" => match w.as_slice() {
                ["assault"] => IStep::Assault { weapon: None },
                ["assault", "with", wp] => IStep::Assault {
                    weapon: Some(weapon(wp)?),
                },
                _ => return Err(err("write 'assault' or 'assault with <weapon>'")),
            },
            "move" => {
                if w.len() < 2 {
                    return Err(err("write 'move' and the squares of the path, like move m21 n20"));
                }
                IStep::Move {
                    path: w[1..].iter().map(|s| sq(s)).collect::<Result<_, _>>()?,
                }
            }
            "sneak" => {
                expect_len(&w, 2, "sneak take-chance or sneak spend-time")?;
                IStep::Sneak {
                    method: method(w.get(1))?,
                }
            }
            "breach" => {
                if !(2..=3).contains(&w.len()) {
                    return Err(err("write breach door-N [take-chance|spend-time]"));
                }
                IStep::Breach {
                    door: door(w[1])?,
                    method: method(w.get(2))?,
                }
            }
            "open" => {
                expect_len(&w, 2, "open door-N")?;
                IStep::Open { door: door(w[1])? }
            }
            "close" => {
                expect_len(&w, 2, "close door-N")?;
                IStep::Close { door: door(w[1])? }
            }
            "spy" => {
                if w.len() > 2 {
                    return Err(err("write spy [take-chance|spend-time]"));
                }
                IStep::Spy {
                    method: method(w.get(1))?,
                }
            }
            "sneak-attack" => {
                expect_len(&w, 2, "sneak-attack <square>")?;
                IStep::SneakAttack { at: sq(w[1])? }
            }
            "conceal" => {
                if !(2..=3).contains(&w.len()) {
                    return Err(err("write conceal <square> [take-chance|spend-time]"));
                }
                IStep::Conceal {
                    at: sq(w[1])?,
                    method: method(w.get(2))?,
                }
            }
            "coup-de-grace" => {
                expect_len(&w, 2, "coup-de-grace <square>")?;
                IStep::CoupDeGrace { at: sq(w[1])? }
            }
            "fight" => {
                expect_len(&w, 2, "fight <square>")?;
                IStep::Fight { at: sq(w[1])? }
            }
            "shoot" => {
                let usage = "write shoot <square> [<square> <square>] [burst [range|attack]]";
                let at_burst = w.iter().position(|x| *x == "burst");
                let burst = match at_burst.map(|k| &w[k + 1..]) {
                    None => None,
                    Some([] | ["range"]) => Some(Burst::Range),
                    Some(["attack"]) => Some(Burst::Attack),
                    Some(other) => {
                        return Err(err(format!(
                            "'burst {}': write burst, burst range or burst attack",
                            other.join(" ")
                        )))
                    }
                };
                let targets = &w[1..at_burst.unwrap_or(w.len())];
                if targets.is_empty() || targets.len() > 3 {
                    return Err(err(usage));
                }
                IStep::Shoot {
                    at: targets.iter().map(|s| sq(s)).collect::<Result<_, _>>()?,
                    burst,
                }
            }
            "weapon" => {
                expect_len(&w, 2, "weapon knife|handgun|smg|rifle")?;
                IStep::Weapon {
                    weapon: weapon(w[1])?,
                }
            }
            "hide" => {
                expect_len(&w, 1, "hide")?;
                IStep::Hide
            }
            "recover" => IStep::Recover {
                mode: match w.get(1).copied() {
                    None | Some("raiding") => Mode::Raiding,
                    Some("assault") => Mode::Assault,
                    Some(other) => {
                        return Err(err(format!(
                            "'{other}': write recover raiding or recover assault"
                        )))
                    }
                },
            },
            "pass" => IStep::Pass,
            other => {
                return Err(err(format!(
                    "'{other}' is not an Intruder's order: use assault, move, sneak, breach, open, close, spy, sneak-attack, conceal, coup-de-grace, fight, shoot, weapon, hide, recover, pass, counterattack on|off or sacrifice on|off"
                )))
            }
        };
        steps.push(step);
    }
    if steps.is_empty() && stand.is_empty() {
        return Err(err("an empty order: write at least one clause, or 'pass'"));
    }
    Ok(Command::Intruder {
        standing: stand,
        steps,
    })
}

fn weapon(word: &str) -> Result<Weapon, RuleError> {
    Weapon::parse(word).ok_or_else(|| {
        err(format!(
            "'{word}' is not a weapon: knife, handgun, smg or rifle"
        ))
    })
}

pub fn parse_defender(text: &str) -> Result<Command, RuleError> {
    let mut steps = Vec::new();
    let mut stand = Vec::new();
    let text = lower(text);
    for w in clauses(&text) {
        if let Some(s) = standing(&w) {
            stand.push(s?);
            continue;
        }
        let step = match w.as_slice() {
            ["commander", "move", path @ ..] if !path.is_empty() => DStep::CommanderMove {
                path: path.iter().map(|s| sq(s)).collect::<Result<_, _>>()?,
            },
            ["commander", "face", d] => DStep::CommanderFace {
                dir: Dir::parse(d).ok_or_else(|| err("face north, east, south or west"))?,
            },
            ["commander", "open", d] => DStep::CommanderOpen { door: door(d)? },
            ["commander", "close", d] => DStep::CommanderClose { door: door(d)? },
            ["commander", "investigate", s] => DStep::CommanderInvestigate { at: sq(s)? },
            ["commander", "alarm", at @ ..] => DStep::CommanderAlarm {
                at: at.iter().map(|s| sq(s)).collect::<Result<_, _>>()?,
            },
            ["commander", "fight", s] => DStep::CommanderFight { at: sq(s)? },
            ["commander", "shoot", s] => DStep::CommanderShoot { at: sq(s)? },
            ["sentry", label, "fight", s] => DStep::SentryFight {
                sentry: label.to_string(),
                at: sq(s)?,
            },
            ["sentry", label, "shoot", s] => DStep::SentryShoot {
                sentry: label.to_string(),
                at: sq(s)?,
            },
            ["guards", "chase", a] => DStep::GuardsChase {
                target: Agent::parse(a)
                    .ok_or_else(|| err(format!("'{a}' is not an Intruder: harris, link or volkov")))?,
            },
            ["guard", label, "chase", a] => DStep::GuardChase {
                guard: label.to_string(),
                target: Agent::parse(a)
                    .ok_or_else(|| err(format!("'{a}' is not an Intruder: harris, link or volkov")))?,
            },
            ["guard", label, "move", path @ ..] if !path.is_empty() => DStep::GuardMove {
                guard: label.to_string(),
                path: path.iter().map(|s| sq(s)).collect::<Result<_, _>>()?,
            },
            ["replace", s] => DStep::Replace { at: sq(s)? },
            ["pass"] => DStep::Pass,
            _ => {
                return Err(err(format!(
                    "'{}' is not a Defender's order: use commander move|face|open|close|investigate|alarm|fight|shoot, sentry <post> fight|shoot <square>, guards chase <intruder>, guard <label> chase <intruder>, guard <label> move <square>…, replace <square>, counterattack on|off, alert-side left|right, or pass",
                    w.join(" ")
                )))
            }
        };
        steps.push(step);
    }
    if steps.is_empty() && stand.is_empty() {
        return Err(err("an empty order: write at least one clause, or 'pass'"));
    }
    Ok(Command::Defender {
        standing: stand,
        steps,
    })
}

fn squares(path: &[Sq]) -> String {
    path.iter().map(Sq::to_string).collect::<Vec<_>>().join(" ")
}

pub fn describe_standing(s: &Standing) -> String {
    let on = |b: bool| if b { "on" } else { "off" };
    match s {
        Standing::Counterattack { on: b } => format!("counterattack {}", on(*b)),
        Standing::Sacrifice { on: b } => format!("sacrifice {}", on(*b)),
        Standing::AlertSide { side: Side::Left } => "alert-side left".into(),
        Standing::AlertSide { side: Side::Right } => "alert-side right".into(),
    }
}

pub fn describe_istep(s: &IStep) -> String {
    match s {
        IStep::Assault { weapon: None } => "assault".into(),
        IStep::Assault { weapon: Some(w) } => format!("assault with {w}"),
        IStep::Move { path } => format!("move {}", squares(path)),
        IStep::Sneak { method } => format!("sneak {}", method.name()),
        IStep::Breach { door, method } => format!("breach {door} {}", method.name()),
        IStep::Open { door } => format!("open {door}"),
        IStep::Close { door } => format!("close {door}"),
        IStep::Spy { method } => format!("spy {}", method.name()),
        IStep::SneakAttack { at } => format!("sneak-attack {at}"),
        IStep::Conceal { at, method } => format!("conceal {at} {}", method.name()),
        IStep::CoupDeGrace { at } => format!("coup-de-grace {at}"),
        IStep::Fight { at } => format!("fight {at}"),
        IStep::Shoot { at, burst } => {
            format!(
                "shoot {}{}",
                squares(at),
                match burst {
                    None => "",
                    Some(Burst::Range) => " burst",
                    Some(Burst::Attack) => " burst attack",
                }
            )
        }
        IStep::Weapon { weapon } => format!("weapon {weapon}"),
        IStep::Hide => "hide".into(),
        IStep::Recover {
            mode: Mode::Raiding,
        } => "recover raiding".into(),
        IStep::Recover {
            mode: Mode::Assault,
        } => "recover assault".into(),
        IStep::Pass => "pass".into(),
    }
}

pub fn describe_dstep(s: &DStep) -> String {
    match s {
        DStep::CommanderMove { path } => format!("commander move {}", squares(path)),
        DStep::CommanderFace { dir } => format!("commander face {}", dir.name()),
        DStep::CommanderOpen { door } => format!("commander open {door}"),
        DStep::CommanderClose { door } => format!("commander close {door}"),
        DStep::CommanderInvestigate { at } => format!("commander investigate {at}"),
        DStep::CommanderAlarm { at } if at.is_empty() => "commander alarm".into(),
        DStep::CommanderAlarm { at } => format!("commander alarm {}", squares(at)),
        DStep::CommanderFight { at } => format!("commander fight {at}"),
        DStep::CommanderShoot { at } => format!("commander shoot {at}"),
        DStep::SentryFight { sentry, at } => format!("sentry {sentry} fight {at}"),
        DStep::SentryShoot { sentry, at } => format!("sentry {sentry} shoot {at}"),
        DStep::GuardsChase { target } => format!("guards chase {}", target.name()),
        DStep::GuardChase { guard, target } => format!("guard {guard} chase {}", target.name()),
        DStep::GuardMove { guard, path } => format!("guard {guard} move {}", squares(path)),
        DStep::Replace { at } => format!("replace {at}"),
        DStep::Pass => "pass".into(),
    }
}

pub fn describe(c: &Command) -> String {
    let (stand, steps): (Vec<String>, Vec<String>) = match c {
        Command::Intruder { standing, steps } => (
            standing.iter().map(describe_standing).collect(),
            steps.iter().map(describe_istep).collect(),
        ),
        Command::Defender { standing, steps } => (
            standing.iter().map(describe_standing).collect(),
            steps.iter().map(describe_dstep).collect(),
        ),
    };
    stand
        .into_iter()
        .chain(steps)
        .collect::<Vec<_>>()
        .join("; ")
}
