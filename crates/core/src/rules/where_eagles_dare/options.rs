//! The options a game is created with (`Setup::options`): a typed struct read by serde, which
//! refuses a name it does not know, and what the ruleset tells of them (`RulesetInfo::options`).
//!
//! Imports: the map's format (`terrain`) and the rule error only.

use serde::de::{Error as _, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::{json, Map, Value};

use super::rule;
use super::terrain::LoadedMap;
use crate::engine::ruleset::{OptionInfo, RuleError};

/// The scenario that checks the southern stream bridge itself (2.11).
const RIDE: &str = "a-ride-in-the-country";

/// A game's options; a name not sent takes its default (`info` states them).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    /// 3.3.2: the Allied player seals a drop plan for each drop before play.
    pub free_drop: bool,
    /// S6.4: the last chit of a turn is set aside and opens the next turn.
    pub last_chit_held: bool,
    /// 2.11: the southern stream bridge is unstable from the start.
    #[serde(rename = "southern_bridge_unstable")]
    pub southern_unstable: bool,
    /// O1.0 Covering Fire.
    pub covering_fire: bool,
    /// O2.0 Alternate Chit Draw.
    pub alternate_chits: bool,
    /// O3.0 German Lost Rule.
    pub german_lost: bool,
    /// Decision 17: a Leader commands only the units he sees.
    pub command_los: bool,
    /// S3.1 Reinf (decision 21).
    pub reinf_eliminated: bool,
    /// 2.16 (decision 23).
    pub roadblock_bars_own: bool,
    /// 4.3.1 (decision 28).
    pub release_entry: bool,
    /// S3.1 Heroic (decision 29).
    pub heroic_tq: bool,
    /// Decision 42.
    pub tq_modifiers: bool,
    /// O4.0 Airborne Tanks.
    pub airborne_tanks: AirborneTanks,
    /// The map as text, read in the format of docs/rules/where-eagles-dare.md.
    #[serde(deserialize_with = "map_text")]
    pub map: Option<LoadedMap>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            free_drop: false,
            last_chit_held: true,
            southern_unstable: false,
            covering_fire: false,
            alternate_chits: false,
            german_lost: false,
            command_los: false,
            reinf_eliminated: true,
            roadblock_bars_own: true,
            release_entry: true,
            heroic_tq: true,
            tq_modifiers: true,
            airborne_tanks: AirborneTanks::None,
            map: None,
        }
    }
}

/// O4.0: one type of airborne tank, or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AirborneTanks {
    None,
    Tetrarch,
    Locust,
}

impl AirborneTanks {
    /// As the state keeps it: the type's name, or none.
    pub fn name(self) -> Option<String> {
        match self {
            AirborneTanks::None => None,
            AirborneTanks::Tetrarch => Some("tetrarch".into()),
            AirborneTanks::Locust => Some("locust".into()),
        }
    }
}

fn map_text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<LoadedMap>, D::Error> {
    match Value::deserialize(d)? {
        Value::String(text) => LoadedMap::try_from(text).map(Some).map_err(|e| {
            D::Error::custom(format!(
                "map (the format of docs/rules/where-eagles-dare.md): {e}"
            ))
        }),
        _ => Err(D::Error::custom(
            "map is the map's text: hex and side lines",
        )),
    }
}

impl Options {
    /// Reads the options sent for `scenario`; anything but a JSON object is no options. Of
    /// several faults, the one of the first name in the object's order is reported.
    pub fn read(sent: &Value, scenario: &str) -> Result<Options, RuleError> {
        let Some(names) = sent.as_object() else {
            return Ok(Options::default());
        };
        let options: Options =
            serde_json::from_value(sent.clone()).map_err(|_| first_refused(names, scenario))?;
        if names.contains_key("southern_bridge_unstable") && scenario == RIDE {
            return Err(first_refused(names, scenario));
        }
        Ok(options)
    }
}

/// The refusal of the first name refused, each name read alone through `Options`.
fn first_refused(names: &Map<String, Value>, scenario: &str) -> RuleError {
    for (name, value) in names {
        let alone = Value::Object(Map::from_iter([(name.clone(), value.clone())]));
        let read = serde_json::from_value::<Options>(alone);
        if let Err(e) = read {
            return refusal(name, e);
        }
        if name == "southern_bridge_unstable" && scenario == RIDE {
            return rule(
                "2.11 Streams",
                "A Ride in the Country checks the southern bridge itself: no southern_bridge_unstable option there",
            );
        }
    }
    rule("options", "the options are a JSON object")
}

fn refusal(name: &str, e: serde_json::Error) -> RuleError {
    match name {
        "map" => rule("options", e.to_string()),
        "airborne_tanks" => rule(
            "O4.0 Airborne Tanks",
            "airborne_tanks is none, tetrarch or locust: one type of tank",
        ),
        _ if names().contains(&name) => rule("options", format!("{name} is true or false")),
        _ => rule(
            "options",
            format!("no option '{name}': the options are {}", names().join(", ")),
        ),
    }
}

/// The options' names as serde reads them (renames applied), in the order `Options` declares
/// its fields: the derived `Deserialize` is asked for them, so the struct is their one source.
fn names() -> &'static [&'static str] {
    let mut names: &'static [&'static str] = &[];
    // The derived impl hands its field names to `deserialize_struct`, which then stops it.
    let _ = Options::deserialize(FieldNames(&mut names));
    names
}

/// A deserializer that only takes the field names of the struct it is asked to read.
struct FieldNames<'a>(&'a mut &'static [&'static str]);

impl<'de> Deserializer<'de> for FieldNames<'_> {
    type Error = serde::de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(Self::Error::custom("only a struct's field names are read"))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Self::Error> {
        *self.0 = fields;
        Err(Self::Error::custom("the field names are taken"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

/// The options as the ruleset lists them, with their defaults.
pub fn info() -> Vec<OptionInfo> {
    vec![
        OptionInfo {
            name: "free_drop".into(),
            description: "3.3.2: the Allied player seals a drop plan (formation:zone) for each drop before play".into(),
            default: json!(false),
            choices: Vec::new(),
        },
        OptionInfo {
            name: "southern_bridge_unstable".into(),
            description: "2.11: the Allied player did not win A Ride in the Country, so the southern stream bridge (55.202/56.201) is unstable from the start (not in that scenario, which checks it)".into(),
            default: json!(false),
            choices: Vec::new(),
        },
        OptionInfo {
            name: "covering_fire".into(),
            description: "O1.0 Covering Fire: an opportunity fire may state 'covered' (−1 to its Fire Rating)".into(),
            default: json!(false),
            choices: Vec::new(),
        },
        OptionInfo {
            name: "alternate_chits".into(),
            description: "O2.0 Alternate Chit Draw: no Direct Command chit in the mug; Division Activation's restrictions disregarded".into(),
            default: json!(false),
            choices: Vec::new(),
        },
        OptionInfo {
            name: "command_los".into(),
            description: "with a map: a Leader commands only the units he sees (line of sight over the map) within his Command Range (decision 17; off: range counted in hexes only)".into(),
            default: json!(false),
            choices: Vec::new(),
        },
        OptionInfo {
            name: "roadblock_bars_own".into(),
            description: "2.16 (decision 23): with a map, any road block in a raised road's hex bars a Unit in Column from entering it, its owner's too (off: only the enemy's)".into(),
            default: json!(true),
            choices: Vec::new(),
        },
        OptionInfo {
            name: "release_entry".into(),
            description: "4.3.1 (decision 28): a Unit of a Formation on the Club Route line (Group Cold, Guards Art.) is placed only once released, in the Club Route marker's hex, in Column (off: placements are the players', as with a reinforcement schedule's exceptions)".into(),
            default: json!(true),
            choices: Vec::new(),
        },
        OptionInfo {
            name: "heroic_tq".into(),
            description: "S3.1 Heroic (decision 29): a Heroic unit's tq and rally pass on one more face than those stated for its face value (off: the stated faces include Heroic)".into(),
            default: json!(true),
            choices: Vec::new(),
        },
        OptionInfo {
            name: "tq_modifiers".into(),
            description: "S6.1.1, S6.1.2, S5.1.1 (decision 42): the TQ modifiers in force for a unit's division (SDZ Closed −1 for the 101st, Club Route Cut −2 for the Guards Armored, KG Chill +1 for the German) change the faces stated for its face value on its tq and rally (off: the stated faces include them)".into(),
            default: json!(true),
            choices: Vec::new(),
        },
        OptionInfo {
            name: "reinf_eliminated".into(),
            description: "S3.1 Reinf (decision 21): a recovered step may bring an eliminated unit of the formation back, in its Leader's hex (off: an eliminated unit's steps count as the formation's losses but do not come back)".into(),
            default: json!(true),
            choices: Vec::new(),
        },
        OptionInfo {
            name: "german_lost".into(),
            description: "O3.0 German Lost Rule: a German unit failing 'tq <unit> lost' is moved by the Allied player".into(),
            default: json!(false),
            choices: Vec::new(),
        },
        OptionInfo {
            name: "airborne_tanks".into(),
            description: "O4.0 Airborne Tanks: none, tetrarch or locust (two companies land with Drop One)".into(),
            default: json!("none"),
            choices: vec![json!("none"), json!("tetrarch"), json!("locust")],
        },
        OptionInfo {
            name: "map".into(),
            description: "the map, or the part of it the players agree on, as text: 'hex <id> <terrain> [road] [rail] [raised]' and 'side <id> <id> stream|crest|impassable|bridge|culvert|raised' lines (2.1-2.19); moves, set-ups and line of sight are checked where it knows the hexes".into(),
            default: json!(""),
            choices: Vec::new(),
        },
        OptionInfo {
            name: "last_chit_held".into(),
            description: "S6.4: the last chit of a turn is set aside and opens the next turn (off: it is played in its own turn)".into(),
            default: json!(true),
            choices: Vec::new(),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_are_the_fields_in_order_and_each_is_described() {
        assert_eq!(names().first(), Some(&"free_drop"));
        assert_eq!(names()[2], "southern_bridge_unstable", "as renamed");
        assert_eq!(names().last(), Some(&"map"));
        let mut described: Vec<String> = info().into_iter().map(|o| o.name).collect();
        described.sort();
        let mut named: Vec<&str> = names().to_vec();
        named.sort_unstable();
        assert_eq!(described, named);
    }
}
