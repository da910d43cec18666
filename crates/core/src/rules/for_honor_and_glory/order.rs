//! The order language: one turn is one order, the unit actions in the order they are to be
//! carried out, separated by `;` or new lines. Parsed here into [`Order`] and written back by
//! [`describe`], which `parse` reads to the same order.
//!
//! ```text
//! move B2 B3 B4                 move the unit in B2 through B3 to B4 (1 AP)
//! move B2 B3 B4 +leader         … with the leader in B2 going along; one hex over the
//!                               normal rate costs 1 AP more (6.2.5, 9.1)
//! move B2/leader B3 B4          a leader moving alone (9.1)
//! move B2/gun B3                the artillery or rockets in B2, when infantry shares the hex
//! fire A3 at C5 [advance]       fire combat (8.1); advance only with 11.10
//! move-fire B2 B3 at C4         dragoons or Indians: move, then fire (2 AP, 3.4.6-3.4.7)
//! fire-move B2 at C3 then B1    Indians: fire at an adjacent enemy, then move (2 AP)
//!   … +leader                   either with the leader in B2 going along (6.2.6, 9.1.1)
//! close-combat D4 D5 [advance]  close combat (2 AP, 8.3)
//! rally E1                      the leader in E1 rallies the unit there (1 AP, 9.4)
//! column E1 · line E1           change formation (1 AP, 7.5)
//! dragoons evade · dragoons stand   standing choice for 11.12 (no AP)
//! tied hits to guns|infantry    standing order: who takes a hit between equals (8.1.2, no AP)
//! retreat towards G3|edge       standing order: where units that fail morale go (8.4.1, no AP)
//! leaders retreat towards G3|units   standing order: a leader left alone (8.4.5, no AP)
//! pass                          end the turn without acting, or end a turn handed back
//!                               with AP left (6.2.8)
//! ```

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use smallvec::SmallVec;

use super::hex::Hex;
use crate::engine::ruleset::RuleError;

/// Which counter of a hex an action names: `C5` is the infantry or dragoon there (or, if there
/// is none, the gun, then the leader); `C5/gun` and `C5/leader` name those.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnitRef {
    pub hex: Hex,
    pub pick: Pick,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    Main,
    Gun,
    Leader,
}

impl UnitRef {
    pub fn parse(text: &str) -> Result<UnitRef, String> {
        // A unit is named in most actions: '/' is looked for byte by byte.
        let slash = text.bytes().position(|b| b == b'/');
        let (hex, pick) = match slash.map(|i| (&text[..i], &text[i + 1..])) {
            None => (text, Pick::Main),
            Some((h, p)) if p.eq_ignore_ascii_case("gun") => (h, Pick::Gun),
            Some((h, p)) if p.eq_ignore_ascii_case("leader") => (h, Pick::Leader),
            Some((_, other)) => {
                return Err(format!(
                    "'{text}': '/{other}' names no counter; use /gun or /leader"
                ))
            }
        };
        Ok(UnitRef {
            hex: Hex::parse(hex)?,
            pick,
        })
    }
}

impl fmt::Display for UnitRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pick {
            Pick::Main => write!(f, "{}", self.hex),
            Pick::Gun => write!(f, "{}/gun", self.hex),
            Pick::Leader => write!(f, "{}/leader", self.hex),
        }
    }
}

impl Serialize for UnitRef {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for UnitRef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<UnitRef, D::Error> {
        let text = <Cow<'de, str>>::deserialize(d)?;
        UnitRef::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// The hexes a move enters, in order, held inline up to 8: no move goes farther (a longer path
/// goes on the heap until the rules refuse it). A re-fold reads thousands of moves, and a list
/// on the heap for each was 1–2 % of its time (BENCHMARKS.md).
pub type Path = SmallVec<[Hex; 8]>;

/// One unit action. In the log it stands as its order-language text (`describe_action`),
/// within the order's (`Order`'s serde form).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    Move {
        unit: UnitRef,
        path: Path,
        leader: bool,
    },
    /// `leader`: the leader in the unit's hex goes along (6.2.6, 9.1.1), with no extra hex.
    MoveFire {
        unit: UnitRef,
        path: Path,
        target: Hex,
        leader: bool,
    },
    FireMove {
        unit: UnitRef,
        target: Hex,
        path: Path,
        leader: bool,
    },
    Fire {
        unit: UnitRef,
        target: Hex,
        advance: bool,
    },
    CloseCombat {
        unit: UnitRef,
        target: Hex,
        advance: bool,
    },
    Rally {
        unit: UnitRef,
    },
    Column {
        unit: UnitRef,
    },
    Line {
        unit: UnitRef,
    },
    Dragoons {
        evade: bool,
    },
    /// A standing order for the owner's choices in the opponent's turn (8.1.2, 8.4.1, 8.4.5).
    Standing(Standing),
}

/// The owner's choices made in advance, since an email game cannot stop to ask them in the
/// opponent's turn. Each stays in force until changed; the defaults are the rules as played
/// before (docs/rules/for-honor-and-glory.md, "Standing orders").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// 8.1.2 Between a unit and a gun of equal MP, the gun takes the hit (else the infantry).
    TiedHitsToGuns(bool),
    /// 8.4.1 Units retreat towards this hex (their "main group") rather than their edge.
    RetreatTowards(Option<Hex>),
    /// 8.4.5 A leader left alone retreats towards this hex rather than to the nearest unit.
    LeadersTowards(Option<Hex>),
}

/// A whole turn's order; no actions is a pass. The actions of most orders are held inline.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Order {
    pub actions: SmallVec<[Action; TYPICAL_ACTIONS]>,
}

/// In JSON (the API's `command`, the stored events) an order is its order text, as
/// [`describe`] writes it: `"fire A3 at C5; move B2 B3 B4"`, read back by [`parse`], so that a
/// log reads like the orders sent and a re-fold reads one string per turn (ruleset version 2).
/// Version 1 kept `{"actions": ["fire A3 at C5", …]}`, which is still read.
impl Serialize for Order {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&describe(self))
    }
}

impl<'de> Deserialize<'de> for Order {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Order, D::Error> {
        struct Text;
        impl<'de> serde::de::Visitor<'de> for Text {
            type Value = Order;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an order in the order language, like \"fire A3 at C5; move B2 B3\"")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Order, E> {
                parse(text).map_err(|e| E::custom(e.message))
            }
            /// Version 1: `{"actions": [action text, …]}`.
            fn visit_map<M: serde::de::MapAccess<'de>>(self, mut m: M) -> Result<Order, M::Error> {
                let mut actions = None;
                while let Some(key) = m.next_key::<Cow<'de, str>>()? {
                    if key == "actions" {
                        let texts = m.next_value::<Vec<Cow<'de, str>>>()?;
                        let read = texts.iter().map(|t| parse_action(t));
                        let read = read.collect::<Result<Vec<_>, _>>();
                        actions = Some(read.map_err(|e| serde::de::Error::custom(e.message))?);
                    } else {
                        m.next_value::<serde::de::IgnoredAny>()?;
                    }
                }
                let actions = actions.ok_or_else(|| serde::de::Error::missing_field("actions"))?;
                Ok(Order {
                    actions: actions.into(),
                })
            }
        }
        d.deserialize_any(Text)
    }
}

fn lang(message: impl Into<String>) -> RuleError {
    RuleError::new("order language", message)
}

/// The longest order accepted: far more actions than any turn's AP allow.
pub const MAX_ACTIONS: usize = 40;

/// The actions an order holds inline, with no list on the heap: 96 % of the orders of the
/// bot's games, whose AP seldom allow more (a re-fold reads one order per event).
const TYPICAL_ACTIONS: usize = 6;

pub fn parse(text: &str) -> Result<Order, RuleError> {
    let mut clauses = Clauses::new(text);
    let mut words = Words::default();
    let Some(first) = clauses.next(&mut words) else {
        return Err(lang("an empty order: write unit actions, or 'pass'"));
    };
    let lone_pass = words.get().len() == 1 && words.get()[0].eq_ignore_ascii_case("pass");
    let first = parse_words(first, words.get());
    if lone_pass && clauses.clone().next(&mut words).is_none() {
        return Ok(Order::default());
    }
    let mut actions = SmallVec::new();
    actions.push(first?);
    while let Some(clause) = clauses.next(&mut words) {
        actions.push(parse_words(clause, words.get())?);
    }
    if actions.len() > MAX_ACTIONS {
        return Err(lang(format!("at most {MAX_ACTIONS} actions in one order")));
    }
    Ok(Order { actions })
}

/// The clauses of an order, split at `;` and new lines, each trimmed and split into words at
/// any white space. Every order of a re-fold is read here: text all in ASCII (as the service
/// writes it) is split byte by byte, which measured faster than `str::split_whitespace`.
#[derive(Clone)]
struct Clauses<'t> {
    text: &'t str,
    at: usize,
    ascii: bool,
}

/// White space in ASCII as `char::is_whitespace` has it, which counts the vertical tab.
fn is_space(b: u8) -> bool {
    b.is_ascii_whitespace() || b == b'\x0b'
}

impl<'t> Clauses<'t> {
    fn new(text: &'t str) -> Clauses<'t> {
        Clauses {
            text,
            at: 0,
            ascii: text.is_ascii(),
        }
    }

    /// The next clause with words in it, its words put in `words`.
    fn next(&mut self, words: &mut Words<'t>) -> Option<&'t str> {
        let (text, bytes) = (self.text, self.text.as_bytes());
        while self.at <= bytes.len() {
            words.clear();
            let start = self.at;
            if !self.ascii {
                // `;` and new line are ASCII, so they never fall inside a longer character.
                let end = bytes[start..]
                    .iter()
                    .position(|&b| b == b';' || b == b'\n')
                    .map_or(bytes.len(), |i| start + i);
                self.at = end + 1;
                let clause = text[start..end].trim();
                clause.split_whitespace().for_each(|w| words.push(w));
                if !clause.is_empty() {
                    return Some(clause);
                }
                continue;
            }
            // One pass in ASCII: the clause's end, its words, and where they begin and end.
            let (mut word, mut first, mut last) = (None, None, start);
            let mut i = start;
            while let Some(&b) = bytes.get(i) {
                if b == b';' || b == b'\n' {
                    break;
                }
                match (is_space(b), word) {
                    (true, Some(w)) => {
                        words.push(&text[w..i]);
                        word = None;
                        last = i;
                    }
                    (false, None) => {
                        word = Some(i);
                        first = first.or(Some(i));
                    }
                    _ => {}
                }
                i += 1;
            }
            if let Some(w) = word {
                words.push(&text[w..i]);
                last = i;
            }
            self.at = i + 1;
            if let Some(first) = first {
                return Some(&text[first..last]);
            }
        }
        None
    }
}

/// The words of one clause, on the stack unless the clause is unusually long.
#[derive(Default)]
struct Words<'t> {
    stack: [&'t str; Words::ON_STACK],
    n: usize,
    spill: Vec<&'t str>,
}

impl<'t> Words<'t> {
    const ON_STACK: usize = 24;

    fn clear(&mut self) {
        self.n = 0;
        self.spill.clear();
    }

    fn push(&mut self, w: &'t str) {
        if self.n < Words::ON_STACK {
            self.stack[self.n] = w;
        } else {
            if self.spill.is_empty() {
                self.spill.extend_from_slice(&self.stack);
            }
            self.spill.push(w);
        }
        self.n += 1;
    }

    fn get(&self) -> &[&'t str] {
        if self.n <= Words::ON_STACK {
            &self.stack[..self.n]
        } else {
            &self.spill
        }
    }
}

/// The verbs of the order language.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verb {
    Move,
    MoveFire,
    FireMove,
    Fire,
    CloseCombat,
    Rally,
    Column,
    Line,
    Dragoons,
    Tied,
    Retreat,
    Leaders,
    Pass,
}

impl Verb {
    const ALL: &'static [(&'static str, Verb)] = &[
        ("move", Verb::Move),
        ("move-fire", Verb::MoveFire),
        ("fire-move", Verb::FireMove),
        ("fire", Verb::Fire),
        ("close-combat", Verb::CloseCombat),
        ("rally", Verb::Rally),
        ("column", Verb::Column),
        ("line", Verb::Line),
        ("dragoons", Verb::Dragoons),
        ("tied", Verb::Tied),
        ("retreat", Verb::Retreat),
        ("leaders", Verb::Leaders),
        ("pass", Verb::Pass),
    ];

    /// The verb a word names, in any case.
    fn read(word: &str) -> Option<(&'static str, Verb)> {
        Verb::ALL
            .iter()
            .find(|(name, _)| word.eq_ignore_ascii_case(name))
            .copied()
    }
}

/// One action, as version 1 of the log kept each.
fn parse_action(text: &str) -> Result<Action, RuleError> {
    let mut words = Words::default();
    text.split_whitespace().for_each(|w| words.push(w));
    parse_words(text.trim(), words.get())
}

/// One clause, read into its words: keywords and hexes alike without regard to case. Inlined
/// into `parse`, which would otherwise copy each action it hands back.
#[inline(always)]
fn parse_words(clause: &str, words: &[&str]) -> Result<Action, RuleError> {
    let bad = |why: &str| lang(format!("'{clause}': {why}"));
    let is = |i: usize, keyword: &str| {
        words
            .get(i)
            .is_some_and(|w| w.eq_ignore_ascii_case(keyword))
    };
    let hex = |i: usize| Hex::parse(words[i]).map_err(|e| bad(&e));
    let unit = |i: usize| -> Result<UnitRef, RuleError> {
        let w = words
            .get(i)
            .ok_or_else(|| bad("name the unit by its hex, like C5"))?;
        UnitRef::parse(w).map_err(|e| bad(&e))
    };
    let hexes = |ws: &[&str]| -> Result<Path, RuleError> {
        let mut path = Path::with_capacity(ws.len());
        for w in ws {
            path.push(Hex::parse(w).map_err(|e| bad(&e))?);
        }
        Ok(path)
    };
    let Some(&first) = words.first() else {
        return Err(bad(
            "an empty action: write a unit action, like 'fire A3 at C5'",
        ));
    };
    let Some((name, verb)) = Verb::read(first) else {
        return Err(bad(
            "not an action; use move, move-fire, fire-move, fire, close-combat, rally, column, line, dragoons, tied hits, retreat towards, leaders retreat or pass",
        ));
    };
    let action = match verb {
        Verb::Move => {
            let u = unit(1)?;
            let leader = words.len() > 2 && is(words.len() - 1, "+leader");
            let end = words.len() - usize::from(leader);
            let path = hexes(&words[2.min(end)..end])?;
            if path.is_empty() {
                return Err(bad("give the hexes to move through, like 'move B2 B3 B4'"));
            }
            Action::Move {
                unit: u,
                path,
                leader,
            }
        }
        Verb::MoveFire => {
            let u = unit(1)?;
            let leader = words.len() > 2 && is(words.len() - 1, "+leader");
            let end = words.len() - usize::from(leader);
            let at = (0..end)
                .find(|&i| is(i, "at"))
                .ok_or_else(|| bad("write 'move-fire B2 B3 at C4'"))?;
            if at + 2 != end || at < 3 {
                return Err(bad(
                    "write 'move-fire B2 B3 at C4 [+leader]': the path, 'at', one target hex",
                ));
            }
            let path = hexes(&words[2..at])?;
            let target = hex(at + 1)?;
            Action::MoveFire {
                unit: u,
                path,
                target,
                leader,
            }
        }
        Verb::FireMove => {
            let u = unit(1)?;
            let leader = words.len() > 2 && is(words.len() - 1, "+leader");
            let end = words.len() - usize::from(leader);
            if !is(2, "at") || !is(4, "then") || end < 6 {
                return Err(bad("write 'fire-move B2 at C3 then B1 [+leader]'"));
            }
            let target = hex(3)?;
            let path = hexes(&words[5..end])?;
            Action::FireMove {
                unit: u,
                target,
                path,
                leader,
            }
        }
        Verb::Fire | Verb::CloseCombat => {
            let u = unit(1)?;
            let (t, adv) = if verb == Verb::Fire {
                if !is(2, "at") {
                    return Err(bad("write 'fire A3 at C5'"));
                }
                (3, 4)
            } else {
                (2, 3)
            };
            if words.len() <= t {
                return Err(bad("name the target hex"));
            }
            let target = hex(t)?;
            let advance = match words.len() {
                n if n == adv => false,
                n if n == adv + 1 && is(adv, "advance") => true,
                _ => return Err(bad("only 'advance' may follow the target hex")),
            };
            if verb == Verb::Fire {
                Action::Fire {
                    unit: u,
                    target,
                    advance,
                }
            } else {
                Action::CloseCombat {
                    unit: u,
                    target,
                    advance,
                }
            }
        }
        Verb::Rally | Verb::Column | Verb::Line => {
            if words.len() != 2 {
                return Err(bad(&format!("write '{name} E1'")));
            }
            let u = unit(1)?;
            match verb {
                Verb::Rally => Action::Rally { unit: u },
                Verb::Column => Action::Column { unit: u },
                _ => Action::Line { unit: u },
            }
        }
        Verb::Dragoons => match words.len() {
            2 if is(1, "evade") => Action::Dragoons { evade: true },
            2 if is(1, "stand") => Action::Dragoons { evade: false },
            _ => return Err(bad("write 'dragoons evade' or 'dragoons stand'")),
        },
        Verb::Tied => match words.len() {
            4 if is(1, "hits") && is(2, "to") && (is(3, "guns") || is(3, "gun")) => {
                Action::Standing(Standing::TiedHitsToGuns(true))
            }
            4 if is(1, "hits") && is(2, "to") && is(3, "infantry") => {
                Action::Standing(Standing::TiedHitsToGuns(false))
            }
            _ => return Err(bad("write 'tied hits to guns' or 'tied hits to infantry'")),
        },
        Verb::Retreat => match words.len() {
            3 if is(1, "towards") && is(2, "edge") => {
                Action::Standing(Standing::RetreatTowards(None))
            }
            3 if is(1, "towards") => Action::Standing(Standing::RetreatTowards(Some(hex(2)?))),
            _ => return Err(bad("write 'retreat towards G3' or 'retreat towards edge'")),
        },
        Verb::Leaders => match words.len() {
            4 if is(1, "retreat") && is(2, "towards") && is(3, "units") => {
                Action::Standing(Standing::LeadersTowards(None))
            }
            4 if is(1, "retreat") && is(2, "towards") => {
                Action::Standing(Standing::LeadersTowards(Some(hex(3)?)))
            }
            _ => {
                return Err(bad(
                    "write 'leaders retreat towards G3' or 'leaders retreat towards units'",
                ))
            }
        },
        Verb::Pass => {
            return Err(bad(
                "'pass' stands alone; leave it out of an order with actions",
            ))
        }
    };
    Ok(action)
}

fn join(path: &[Hex]) -> String {
    path.iter()
        .map(Hex::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// One action in the order language.
pub fn describe_action(a: &Action) -> String {
    match a {
        Action::Move { unit, path, leader } => {
            format!(
                "move {unit} {}{}",
                join(path),
                if *leader { " +leader" } else { "" }
            )
        }
        Action::MoveFire {
            unit,
            path,
            target,
            leader,
        } => {
            format!(
                "move-fire {unit} {} at {target}{}",
                join(path),
                if *leader { " +leader" } else { "" }
            )
        }
        Action::FireMove {
            unit,
            target,
            path,
            leader,
        } => {
            format!(
                "fire-move {unit} at {target} then {}{}",
                join(path),
                if *leader { " +leader" } else { "" }
            )
        }
        Action::Fire {
            unit,
            target,
            advance,
        } => {
            format!(
                "fire {unit} at {target}{}",
                if *advance { " advance" } else { "" }
            )
        }
        Action::CloseCombat {
            unit,
            target,
            advance,
        } => {
            format!(
                "close-combat {unit} {target}{}",
                if *advance { " advance" } else { "" }
            )
        }
        Action::Rally { unit } => format!("rally {unit}"),
        Action::Column { unit } => format!("column {unit}"),
        Action::Line { unit } => format!("line {unit}"),
        Action::Dragoons { evade } => {
            format!("dragoons {}", if *evade { "evade" } else { "stand" })
        }
        Action::Standing(s) => describe_standing(*s),
    }
}

/// A standing order in the order language.
pub fn describe_standing(s: Standing) -> String {
    match s {
        Standing::TiedHitsToGuns(true) => "tied hits to guns".into(),
        Standing::TiedHitsToGuns(false) => "tied hits to infantry".into(),
        Standing::RetreatTowards(Some(h)) => format!("retreat towards {h}"),
        Standing::RetreatTowards(None) => "retreat towards edge".into(),
        Standing::LeadersTowards(Some(h)) => format!("leaders retreat towards {h}"),
        Standing::LeadersTowards(None) => "leaders retreat towards units".into(),
    }
}

pub fn describe(order: &Order) -> String {
    if order.actions.is_empty() {
        return "pass".into();
    }
    order
        .actions
        .iter()
        .map(describe_action)
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every clause and word of `text`, as `Clauses` reads them.
    fn read(mut clauses: Clauses<'_>) -> Vec<(String, Vec<String>)> {
        let mut words = Words::default();
        let mut out = Vec::new();
        while let Some(clause) = clauses.next(&mut words) {
            out.push((
                clause.to_owned(),
                words.get().iter().map(|w| w.to_string()).collect(),
            ));
        }
        out
    }

    proptest! {
        /// Text in ASCII is read byte by byte; it must read as the general way reads it.
        #[test]
        fn ascii_clauses_read_as_any_text_does(
            text in "[a-cA-C1-3/+;\\- \t\n\r\x0b\x0c\x1c\x1f\x00]{0,80}"
        ) {
            let general = Clauses { ascii: false, ..Clauses::new(&text) };
            prop_assert_eq!(read(Clauses::new(&text)), read(general));
        }
    }
}
