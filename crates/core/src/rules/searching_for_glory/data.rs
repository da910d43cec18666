//! The data files of `data/`, read once: the strategic deck (rules 1), the role cards (III),
//! the scenarios and their map (I, 2.a–2.l), and the attrition table (2.l). Everything but the
//! deck's names, colours, reactive flags and counts and the attrition table is reconstructed
//! (docs/rules/searching-for-glory.md).

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

/// A card's frame colour (IV.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    White,
    Blue,
    Red,
    Green,
}

impl Colour {
    fn parse(t: &str) -> Colour {
        match t {
            "white" => Colour::White,
            "blue" => Colour::Blue,
            "red" => Colour::Red,
            "green" => Colour::Green,
            _ => panic!("data/deck.txt: '{t}' is not a colour"),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Blue => "blue",
            Colour::Red => "red",
            Colour::Green => "green",
        }
    }
}

/// One face of a card: what an order uses it as, and its colour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Face {
    pub name: String,
    pub colour: Colour,
}

/// A kind of strategic card: a row of `data/deck.txt`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardKind {
    pub key: String,
    pub count: usize,
    pub faces: Vec<Face>,
    pub reactive: bool,
    /// For a double card, the single card whose printed count includes it.
    pub within: Option<String>,
    pub name: String,
}

impl CardKind {
    pub fn has_face(&self, face: &str) -> bool {
        self.faces.iter().any(|f| f.name == face)
    }

    pub fn colours(&self) -> impl Iterator<Item = Colour> + '_ {
        self.faces.iter().map(|f| f.colour)
    }
}

static DECK: LazyLock<Vec<CardKind>> = LazyLock::new(|| {
    rows(include_str!("data/deck.txt"))
        .map(|cols| {
            let [key, count, faces, reactive, within, name] = cols[..] else {
                panic!("data/deck.txt: a row has six columns: {cols:?}")
            };
            CardKind {
                key: key.into(),
                count: count.parse().expect("data/deck.txt: a count"),
                faces: faces
                    .split('+')
                    .map(|f| {
                        let (name, colour) = f.split_once(':').expect("face:colour");
                        Face {
                            name: name.into(),
                            colour: Colour::parse(colour),
                        }
                    })
                    .collect(),
                reactive: reactive == "R",
                within: (within != "-").then(|| within.to_owned()),
                name: name.into(),
            }
        })
        .collect()
});

/// Every kind of strategic card, in the order of `data/deck.txt`.
pub fn card_kinds() -> &'static [CardKind] {
    &DECK
}

/// The kind with this key.
pub fn card(key: &str) -> Option<&'static CardKind> {
    DECK.iter().find(|k| k.key == key)
}

/// The strategic deck, one key per card, in the order of `data/deck.txt`: without Napoleon
/// Defeated! when Napoleon is not in the scenario; with `additive`, a double card's count is
/// also added to the single card it was counted within.
pub fn deck(with_napoleon: bool, additive: bool) -> Vec<String> {
    let mut out = Vec::new();
    for kind in DECK.iter() {
        if kind.key == "napoleon-defeated" && !with_napoleon {
            continue;
        }
        let mut n = kind.count;
        if additive {
            n += DECK
                .iter()
                .filter(|d| d.within.as_deref() == Some(&kind.key))
                .map(|d| d.count)
                .sum::<usize>();
        }
        out.extend(std::iter::repeat_n(kind.key.clone(), n));
    }
    out
}

static FACES: LazyLock<Vec<(String, String)>> = LazyLock::new(|| {
    let all: Vec<(String, String)> = rows(include_str!("data/faces.txt"))
        .map(|c| {
            let [face, text] = c[..] else {
                panic!("data/faces.txt: a row has two columns: {c:?}")
            };
            (face.to_owned(), text.to_owned())
        })
        .collect();
    for kind in DECK.iter().filter(|k| !k.reactive) {
        for f in &kind.faces {
            assert!(
                all.iter().any(|(face, _)| *face == f.name),
                "data/faces.txt: no text for the face '{}' of '{}'",
                f.name,
                kind.key
            );
        }
    }
    all
});

/// What a face of a card that is not reactive does, as its clause and effect
/// (`data/faces.txt`, reconstructed).
pub fn face_text(face: &str) -> Option<&'static str> {
    FACES
        .iter()
        .find(|(f, _)| f == face)
        .map(|(_, t)| t.as_str())
}

/// Who may play a reactive card in its own window (`data/reactive.txt`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Who {
    Any,
    Enemy,
    Attacker,
    Defender,
    AtBattle,
    NearBattle,
}

/// A reactive card's window, who may play it and its effect (1.e), reconstructed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reactive {
    pub key: String,
    /// `true`: before a battle's dice; `false`: after an operation's announcement.
    pub battle: bool,
    pub who: Who,
    pub effect: String,
}

static REACTIVE: LazyLock<Vec<Reactive>> = LazyLock::new(|| {
    let all: Vec<Reactive> = rows(include_str!("data/reactive.txt"))
        .map(|c| {
            let [key, window, who, effect] = c[..] else {
                panic!("data/reactive.txt: a row has four columns: {c:?}")
            };
            assert!(
                card(key).is_some_and(|k| k.reactive),
                "data/reactive.txt: '{key}' is not a reactive card of the deck"
            );
            Reactive {
                key: key.into(),
                battle: match window {
                    "battle" => true,
                    "announcement" => false,
                    w => panic!("data/reactive.txt: '{w}' is not a window"),
                },
                who: match who {
                    "any" => Who::Any,
                    "enemy" => Who::Enemy,
                    "attacker" => Who::Attacker,
                    "defender" => Who::Defender,
                    "at-battle" => Who::AtBattle,
                    "near-battle" => Who::NearBattle,
                    w => panic!("data/reactive.txt: '{w}' is not a player condition"),
                },
                effect: effect.into(),
            }
        })
        .collect();
    for kind in DECK.iter().filter(|k| k.reactive) {
        assert!(
            all.iter().any(|r| r.key == kind.key),
            "data/reactive.txt: no effect for the reactive card '{}'",
            kind.key
        );
    }
    all
});

/// The reactive card with this key (every reactive card of the deck has one).
pub fn reactive(key: &str) -> Option<&'static Reactive> {
    REACTIVE.iter().find(|r| r.key == key)
}

/// Every reactive card, in the order of `data/reactive.txt`.
pub fn reactives() -> &'static [Reactive] {
    &REACTIVE
}

/// The two sides of a scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    French,
    Austrian,
}

impl Side {
    pub fn parse(t: &str) -> Option<Side> {
        match t {
            "french" => Some(Side::French),
            "austrian" => Some(Side::Austrian),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::French => "french",
            Side::Austrian => "austrian",
        }
    }

    pub fn enemy(self) -> Side {
        match self {
            Side::French => Side::Austrian,
            Side::Austrian => Side::French,
        }
    }
}

/// A role card (III), reconstructed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Role {
    pub id: String,
    pub side: Side,
    pub nationality: String,
    pub start: String,
    pub sp: u32,
    pub capture_glory: i64,
    pub initiative: i32,
    pub hand_size: usize,
    pub retention: usize,
    /// III battle characteristic: added to his side's battle roll when he attacks / defends
    /// (the best of a side's characters in the battle), reconstructed.
    pub battle_attack: i64,
    pub battle_defence: i64,
    /// III strategic characteristic and its uses in a game, reconstructed.
    pub strategic: Option<(Strategic, u32)>,
    /// 1.b: the character's own strategic card (a row of `data/deck.txt` with count 0).
    pub personal: Option<String>,
    pub name: String,
}

/// A role's strategic characteristic (III: "can be used a limited number of times during a
/// play"), reconstructed: the order's `strategic` clause, no card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategic {
    /// +2 to the side's roll in the operation's battle (it needs an attack).
    Inspire,
    /// The operation makes no fatigue roll and adds no fatigue (it needs a march).
    Tireless,
    /// A supply marker (2.k).
    Forage,
}

impl Strategic {
    pub fn name(self) -> &'static str {
        match self {
            Strategic::Inspire => "inspire",
            Strategic::Tireless => "tireless",
            Strategic::Forage => "forage",
        }
    }
}

static ROLES: LazyLock<Vec<Role>> = LazyLock::new(|| {
    rows(include_str!("data/roles.txt"))
        .map(|c| {
            let [id, side, nationality, start, sp, capture, init, hand, retain, battle, strategic, personal, name] =
                c[..]
            else {
                panic!("data/roles.txt: a row has thirteen columns: {c:?}")
            };
            let (att, def) = battle.split_once('/').expect("data/roles.txt: battle a/d");
            let modifier = |t: &str| -> i64 { t.trim_start_matches('+').parse().expect("a modifier") };
            let strategic = (strategic != "-").then(|| {
                let (kind, uses) = strategic.split_once(':').expect("kind:uses");
                let kind = match kind {
                    "inspire" => Strategic::Inspire,
                    "tireless" => Strategic::Tireless,
                    "forage" => Strategic::Forage,
                    k => panic!("data/roles.txt: '{k}' is not a strategic characteristic"),
                };
                (kind, uses.parse().expect("uses"))
            });
            let personal = (personal != "-").then(|| {
                assert!(
                    card(personal).is_some_and(|k| k.count == 0),
                    "data/roles.txt: '{personal}' is not a personal card of data/deck.txt"
                );
                personal.to_owned()
            });
            Role {
                id: id.into(),
                side: Side::parse(side).expect("data/roles.txt: a side"),
                nationality: nationality.into(),
                start: start.into(),
                sp: sp.parse().expect("SP"),
                capture_glory: capture.parse().expect("capture glory"),
                initiative: init.trim_start_matches('+').parse().expect("modifier"),
                hand_size: hand.parse().expect("hand size"),
                retention: retain.parse().expect("retention"),
                battle_attack: modifier(att),
                battle_defence: modifier(def),
                strategic,
                personal,
                name: name.into(),
            }
        })
        .collect()
});

/// Is this card a character's own (1.b)? It never goes to the discard pile.
pub fn is_personal(key: &str) -> bool {
    ROLES.iter().any(|r| r.personal.as_deref() == Some(key))
}

/// The role card with this id.
pub fn role(id: &str) -> Option<&'static Role> {
    ROLES.iter().find(|r| r.id == id)
}

/// A line of communication's kind (I, 2.f, 2.j).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClKind {
    Ordinary,
    /// Mountain: +1 fatigue, −3 to an attack along it.
    Brown,
    /// A bridge: may be blown; −3 to an attack along it.
    Blue,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lp {
    pub id: String,
    pub name: String,
    pub fortress: bool,
    pub glory: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cl {
    pub a: String,
    pub b: String,
    pub kind: ClKind,
}

/// An off-map exit (2.i): reached from `from` by one CL; glory per side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exit {
    pub id: String,
    pub from: String,
    pub glory: BTreeMap<Side, i64>,
}

/// A scenario's map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Map {
    pub lps: Vec<Lp>,
    pub cls: Vec<Cl>,
    pub exits: Vec<Exit>,
    pub retreat: BTreeMap<Side, Vec<String>>,
    /// Lone SP at the start: LP, side, SP.
    pub garrisons: Vec<(String, Side, u32)>,
    /// The drawn board's size in map units (reconstructed).
    pub extent: (u16, u16),
    /// Where the drawn board puts each LP and exit, in map units (reconstructed).
    pub at: BTreeMap<String, (u16, u16)>,
}

impl Map {
    pub fn lp(&self, id: &str) -> Option<&Lp> {
        self.lps.iter().find(|l| l.id == id)
    }

    pub fn exit(&self, id: &str) -> Option<&Exit> {
        self.exits.iter().find(|e| e.id == id)
    }

    /// The CL between two LPs, either way round.
    pub fn cl(&self, a: &str, b: &str) -> Option<&Cl> {
        self.cls
            .iter()
            .find(|c| (c.a == a && c.b == b) || (c.a == b && c.b == a))
    }

    /// The LPs one CL from `lp` (exits not included).
    pub fn neighbours<'m>(&'m self, lp: &'m str) -> impl Iterator<Item = &'m str> + 'm {
        self.cls.iter().filter_map(move |c| {
            if c.a == lp {
                Some(c.b.as_str())
            } else if c.b == lp {
                Some(c.a.as_str())
            } else {
                None
            }
        })
    }

    /// CLs from `from` to every LP, by breadth-first search.
    pub fn distances(&self, from: &str) -> BTreeMap<String, usize> {
        let mut dist = BTreeMap::from([(from.to_owned(), 0)]);
        let mut queue = std::collections::VecDeque::from([from.to_owned()]);
        while let Some(lp) = queue.pop_front() {
            let d = dist[&lp];
            for n in self.neighbours(&lp) {
                if !dist.contains_key(n) {
                    dist.insert(n.to_owned(), d + 1);
                    queue.push_back(n.to_owned());
                }
            }
        }
        dist
    }
}

fn parse_map(text: &str) -> Map {
    let mut map = Map {
        lps: Vec::new(),
        cls: Vec::new(),
        exits: Vec::new(),
        retreat: BTreeMap::new(),
        garrisons: Vec::new(),
        extent: (0, 0),
        at: BTreeMap::new(),
    };
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let w: Vec<&str> = line.split_whitespace().collect();
        match w[0] {
            "lp" => {
                let mut i = 2;
                let mut fortress = false;
                let mut glory = 0;
                loop {
                    match w[i] {
                        "fortress" => fortress = true,
                        "glory" => {
                            i += 1;
                            glory = w[i].parse().expect("glory");
                        }
                        _ => break,
                    }
                    i += 1;
                }
                map.lps.push(Lp {
                    id: w[1].into(),
                    name: w[i..].join(" "),
                    fortress,
                    glory,
                });
            }
            "cl" => map.cls.push(Cl {
                a: w[1].into(),
                b: w[2].into(),
                kind: match w[3] {
                    "ordinary" => ClKind::Ordinary,
                    "brown" => ClKind::Brown,
                    "blue" => ClKind::Blue,
                    k => panic!("map: '{k}' is not a CL kind"),
                },
            }),
            "exit" => map.exits.push(Exit {
                id: w[1].into(),
                from: w[2].into(),
                glory: w[3..]
                    .iter()
                    .map(|g| {
                        let (side, n) = g.split_once('=').expect("side=glory");
                        (
                            Side::parse(side).expect("a side"),
                            n.parse().expect("glory"),
                        )
                    })
                    .collect(),
            }),
            "retreat" => {
                map.retreat.insert(
                    Side::parse(w[1]).expect("a side"),
                    w[2..].iter().map(|s| s.to_string()).collect(),
                );
            }
            "garrison" => map.garrisons.push((
                w[1].into(),
                Side::parse(w[2]).expect("a side"),
                w[3].parse().expect("SP"),
            )),
            "extent" => map.extent = (w[1].parse().expect("cols"), w[2].parse().expect("rows")),
            "at" => {
                let xy = (w[2].parse().expect("x"), w[3].parse().expect("y"));
                map.at.insert(w[1].into(), xy);
            }
            k => panic!("map: unknown line kind '{k}'"),
        }
    }
    for c in &map.cls {
        assert!(
            map.lp(&c.a).is_some() && map.lp(&c.b).is_some(),
            "map: CL {c:?}"
        );
    }
    // The drawn board: every LP and exit has its place inside the extent, and no two share one.
    let places: Vec<&String> = map
        .lps
        .iter()
        .map(|l| &l.id)
        .chain(map.exits.iter().map(|e| &e.id))
        .collect();
    for id in &places {
        let &(x, y) = map
            .at
            .get(*id)
            .unwrap_or_else(|| panic!("map: no 'at' line for {id}"));
        assert!(
            x <= map.extent.0 && y <= map.extent.1,
            "map: {id} is off the board"
        );
    }
    for id in map.at.keys() {
        assert!(places.contains(&id), "map: 'at {id}' names no LP or exit");
    }
    let mut spots: Vec<&(u16, u16)> = map.at.values().collect();
    spots.sort();
    spots.dedup();
    assert_eq!(spots.len(), map.at.len(), "map: two places share a point");
    map
}

static DANUBE: LazyLock<Map> = LazyLock::new(|| parse_map(include_str!("data/danube.txt")));

/// A scenario: its map, rounds and characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scenario {
    pub id: String,
    pub map: &'static Map,
    pub rounds: u32,
    pub characters: Vec<String>,
    pub title: String,
}

static SCENARIOS: LazyLock<Vec<Scenario>> = LazyLock::new(|| {
    rows(include_str!("data/scenarios.txt"))
        .map(|c| {
            let [id, map, rounds, chars, title] = c[..] else {
                panic!("data/scenarios.txt: a row has five columns: {c:?}")
            };
            let map: &'static Map = match map {
                "danube" => &DANUBE,
                m => panic!("data/scenarios.txt: no map '{m}'"),
            };
            let characters: Vec<String> = chars.split_whitespace().map(str::to_owned).collect();
            for ch in &characters {
                let r = role(ch).unwrap_or_else(|| panic!("no role card '{ch}'"));
                assert!(map.lp(&r.start).is_some(), "{ch} starts off the map");
            }
            Scenario {
                id: id.into(),
                map,
                rounds: rounds.parse().expect("rounds"),
                characters,
                title: title.into(),
            }
        })
        .collect()
});

pub fn scenarios() -> &'static [Scenario] {
    &SCENARIOS
}

pub fn scenario(id: &str) -> Option<&'static Scenario> {
    SCENARIOS.iter().find(|s| s.id == id)
}

/// The attrition table (2.l): `(die rolls, [losses per siege-point column])`.
static ATTRITION: LazyLock<Vec<[u32; 7]>> = LazyLock::new(|| {
    include_str!("data/attrition.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let cells: Vec<u32> = l
                .split_whitespace()
                .skip(1)
                .map(|c| {
                    if c == "-" {
                        0
                    } else {
                        c.parse().expect("a cell")
                    }
                })
                .collect();
            cells.try_into().expect("seven columns")
        })
        .collect()
});

/// Enemy SP eliminated by an attrition roll of `roll` (1–10) at `points` siege points (2.l);
/// 0 points (the first SIEGE) eliminate none.
pub fn attrition(roll: u32, points: u32) -> u32 {
    let row = match roll {
        0 | 1 => 0,
        2 | 3 => 1,
        4 | 5 => 2,
        6 => 3,
        7 => 4,
        8 | 9 => 5,
        _ => 6,
    };
    let col = match points {
        0 => return 0,
        1 => 0,
        2 | 3 => 1,
        4 => 2,
        5 | 6 => 3,
        7 => 4,
        8 | 9 => 5,
        _ => 6,
    };
    ATTRITION[row][col]
}

/// The `|`-separated rows of a data file, trimmed, without comments and blank lines.
fn rows(text: &'static str) -> impl Iterator<Item = Vec<&'static str>> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split('|').map(str::trim).collect())
}

/// An immediate victory condition of a scenario (3 Victory), reconstructed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Condition {
    /// The side wins at once when this character is captured.
    Capture(String),
    /// The side wins when, at the end of a round, it holds every one of these LPs alone.
    Hold(Vec<String>),
}

/// A scenario's immediate victory: the side that wins and on what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImmediateVictory {
    pub scenario: String,
    pub side: Side,
    pub condition: Condition,
}

static VICTORIES: LazyLock<Vec<ImmediateVictory>> = LazyLock::new(|| {
    rows(include_str!("data/victory.txt"))
        .map(|c| {
            let [scenario, side, condition] = c[..] else {
                panic!("data/victory.txt: a row has three columns: {c:?}")
            };
            let s = self::scenario(scenario)
                .unwrap_or_else(|| panic!("data/victory.txt: no scenario '{scenario}'"));
            let words: Vec<&str> = condition.split_whitespace().collect();
            let condition = match words[..] {
                ["capture", who] => {
                    assert!(
                        s.characters.iter().any(|c| c == who),
                        "data/victory.txt: '{who}' is not in {scenario}"
                    );
                    Condition::Capture(who.into())
                }
                ["hold", ref lps @ ..] if !lps.is_empty() => {
                    for lp in lps {
                        assert!(s.map.lp(lp).is_some(), "data/victory.txt: no LP '{lp}'");
                    }
                    Condition::Hold(lps.iter().map(|l| l.to_string()).collect())
                }
                _ => panic!("data/victory.txt: '{condition}' is not a condition"),
            };
            ImmediateVictory {
                scenario: scenario.into(),
                side: Side::parse(side).expect("data/victory.txt: a side"),
                condition,
            }
        })
        .collect()
});

/// The immediate victory conditions of a scenario, in the order of `data/victory.txt`.
pub fn immediate_victories(scenario: &str) -> impl Iterator<Item = &'static ImmediateVictory> {
    let scenario = scenario.to_owned();
    VICTORIES.iter().filter(move |v| v.scenario == scenario)
}

/// A role card's restriction (III: "Every player must play the game obeying the rules
/// concerning the character he/she roles"), reconstructed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Restriction {
    /// His orders never use this card face, nor does he play a reactive card with it.
    Never(String),
    /// He never attacks an LP holding more enemy SP than his CU carries.
    Outnumbered,
    /// His orders never take his CU into these LPs or exits.
    NoEnter(Vec<String>),
}

/// A role card's glory condition (3 Victory: "other events stated in the Role Cards"),
/// reconstructed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GloryCondition {
    /// Glory more when he shares in capturing this character.
    Capture(String, i64),
    /// Glory at every round's end that finds his CU at this LP.
    Hold(String, i64),
    /// Glory more for every battle his side wins with him in it.
    Battle(i64),
    /// Glory the first time his CU enters this LP by his own march or attack.
    Enter(String, i64),
}

/// The restrictions and glory conditions of one role card.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RoleRules {
    pub restrictions: Vec<Restriction>,
    pub glory: Vec<GloryCondition>,
}

static ROLE_RULES: LazyLock<BTreeMap<String, RoleRules>> = LazyLock::new(|| {
    let known_place = |id: &str| {
        scenarios()
            .iter()
            .any(|s| s.map.lp(id).is_some() || s.map.exit(id).is_some())
    };
    let mut out: BTreeMap<String, RoleRules> = BTreeMap::new();
    for c in rows(include_str!("data/role_rules.txt")) {
        let [who, what, rule] = c[..] else {
            panic!("data/role_rules.txt: a row has three columns: {c:?}")
        };
        assert!(role(who).is_some(), "data/role_rules.txt: no role '{who}'");
        let words: Vec<&str> = rule.split_whitespace().collect();
        let glory = |n: &str| -> i64 { n.parse().expect("data/role_rules.txt: glory") };
        let place = |lp: &str| -> String {
            assert!(known_place(lp), "data/role_rules.txt: no LP or exit '{lp}'");
            lp.to_owned()
        };
        let entry = out.entry(who.to_owned()).or_default();
        match (what, &words[..]) {
            ("restriction", ["never", face]) => {
                assert!(
                    card_kinds().iter().any(|k| k.has_face(face)),
                    "data/role_rules.txt: no card face '{face}'"
                );
                entry.restrictions.push(Restriction::Never((*face).into()));
            }
            ("restriction", ["outnumbered"]) => entry.restrictions.push(Restriction::Outnumbered),
            ("restriction", ["no-enter", lps @ ..]) if !lps.is_empty() => entry
                .restrictions
                .push(Restriction::NoEnter(lps.iter().map(|l| place(l)).collect())),
            ("glory", ["capture", whom, n]) => {
                assert!(
                    role(whom).is_some(),
                    "data/role_rules.txt: no role '{whom}'"
                );
                entry
                    .glory
                    .push(GloryCondition::Capture((*whom).into(), glory(n)));
            }
            ("glory", ["hold", lp, n]) => {
                entry.glory.push(GloryCondition::Hold(place(lp), glory(n)))
            }
            ("glory", ["battle", n]) => entry.glory.push(GloryCondition::Battle(glory(n))),
            ("glory", ["enter", lp, n]) => {
                entry.glory.push(GloryCondition::Enter(place(lp), glory(n)))
            }
            _ => panic!(
                "data/role_rules.txt: '{what} | {rule}' is not a restriction or glory condition"
            ),
        }
    }
    out
});

/// The restrictions and glory conditions of a character's role card (`data/role_rules.txt`).
pub fn role_rules(character: &str) -> &'static RoleRules {
    static NONE: LazyLock<RoleRules> = LazyLock::new(RoleRules::default);
    ROLE_RULES.get(character).unwrap_or(&NONE)
}
