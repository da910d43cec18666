//! Advanced/optional rules (11.), chosen at creation: `optional_rules` lists the sections in use
//! (`["11.1", "11.9"]`, or `"all"` for 11.1–11.13), and `command_ap` (11.14) sets a side's
//! command action points by hand (`{"american": 4}`); three switches choose the other reading
//! where the text allows two (`hits_one_at_a_time` for 8.1.2, `indians_advance` for 3.4.6,
//! `flat_line_of_sight` for 8.2). Each rule is enforced where the rule it changes lives; this
//! module only says which are on.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::ruleset::RuleError;

/// The optional rules in force, as a set of section numbers 11.1–11.14.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Options {
    /// Bit n set: rule 11.n is in force.
    pub rules: u16,
    /// 11.14 Command AP set by hand, per side (american, british).
    #[serde(default, skip_serializing_if = "no_overrides")]
    pub command: [Option<u8>; 2],
    /// Readings of the rules where the text allows another (docs/rules/for-honor-and-glory.md,
    /// "Interpretations"), each off by default.
    /// 8.1.2 the other reading: each hit of a fire goes to the unit then highest in MP, so
    /// hits left over when a unit is eliminated go on to the next one.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hits_one_at_a_time: bool,
    /// 3.4.6 the other reading: Indians may advance after close combat (an advance is not a
    /// move).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub indians_advance: bool,
    /// 8.2 the other reading: no elevation; a hill between blocks, and nothing is seen over.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub flat_line_of_sight: bool,
}

fn no_overrides(c: &[Option<u8>; 2]) -> bool {
    c.iter().all(Option::is_none)
}

/// The optional rules by number, with a line each for the option list.
pub const RULES: [(u8, &str); 14] = [
    (1, "attackers pass a morale check before close combat"),
    (2, "only units not fired on this turn may rally"),
    (3, "elite units at 3-4 MP roll 4 dice"),
    (4, "Indians are -2 attacking entrenchments and towns"),
    (
        5,
        "artillery/rockets on a hill gain +1 range, hitting on 6 there",
    ),
    (6, "artillery is -2 firing into forest"),
    (7, "+1 to the attacker's dice against units on a waterway"),
    (8, "leaders add a die to their unit's combat"),
    (
        9,
        "flank/rear attacks: +1 to hit, -1 to the defender's morale",
    ),
    (10, "advance after eliminating an adjacent unit by fire"),
    (11, "hills do not stop movement"),
    (12, "dragoons may retreat before close combat"),
    (13, "both sides use the higher command AP"),
    (14, "command AP set by hand (command_ap)"),
];

impl Options {
    pub fn has(&self, rule: u8) -> bool {
        self.rules & (1 << rule) != 0
    }

    pub fn with(mut self, rule: u8) -> Options {
        self.rules |= 1 << rule;
        self
    }

    /// Reads the creation options.
    pub fn from_json(options: &Value) -> Result<Options, RuleError> {
        let bad = |m: String| RuleError::new("11. Optional rules", m);
        let mut out = Options::default();
        let obj = match options {
            Value::Null => return Ok(out),
            Value::Object(o) => o,
            _ => return Err(bad("options are a JSON object".into())),
        };
        for (key, value) in obj {
            match key.as_str() {
                "optional_rules" => match value {
                    Value::String(s) if s == "all" => {
                        for (n, _) in RULES.iter().take(13) {
                            out = out.with(*n);
                        }
                    }
                    Value::Array(items) => {
                        for item in items {
                            let text = item.as_str().unwrap_or_default();
                            let n = text
                                .strip_prefix("11.")
                                .and_then(|n| n.parse::<u8>().ok())
                                .filter(|n| (1..=13).contains(n))
                                .ok_or_else(|| {
                                    bad(format!("'{item}' is not an optional rule: use \"11.1\" to \"11.13\" (11.14 is command_ap)"))
                                })?;
                            out = out.with(n);
                        }
                    }
                    other => {
                        return Err(bad(format!(
                            "optional_rules is a list like [\"11.1\", \"11.9\"] or \"all\", not {other}"
                        )))
                    }
                },
                "command_ap" => {
                    let o = value
                        .as_object()
                        .ok_or_else(|| bad("command_ap is an object like {\"american\": 4}".into()))?;
                    for (side, ap) in o {
                        let i = match side.as_str() {
                            "american" => 0,
                            "british" => 1,
                            _ => return Err(bad(format!("command_ap: '{side}' is not a side"))),
                        };
                        let ap = ap
                            .as_u64()
                            .filter(|a| *a <= 10)
                            .ok_or_else(|| bad(format!("command_ap: {side} takes 0-10 AP")))?;
                        out.command[i] = Some(ap as u8);
                    }
                    out = out.with(14);
                }
                "hits_one_at_a_time" | "indians_advance" | "flat_line_of_sight" => {
                    let on = value
                        .as_bool()
                        .ok_or_else(|| bad(format!("{key} is true or false, not {value}")))?;
                    match key.as_str() {
                        "hits_one_at_a_time" => out.hits_one_at_a_time = on,
                        "indians_advance" => out.indians_advance = on,
                        _ => out.flat_line_of_sight = on,
                    }
                }
                other => {
                    return Err(bad(format!(
                        "there is no option '{other}'; the options are optional_rules, command_ap, hits_one_at_a_time, indians_advance and flat_line_of_sight"
                    )))
                }
            }
        }
        Ok(out)
    }
}
