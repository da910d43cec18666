//! What is in play now: the divisions (the Eindhoven Regional Command until KG Chill replaces
//! it, S5.1.1), KG Huber under its chosen master from its entry (S5.5), and the chits of both
//! (O2.0 takes the Direct Command chits out). A leaf under the chapters: the chits, supply,
//! the special rules and the prompts all ask it.

use super::data::{ChitDef, ChitKind};
use super::sequence::{NIGHT, T0700};
use super::state::State;

/// Is this chit in play now: its command in play (S5.1.1), KG Huber's only for the chosen
/// master from its entry (S5.5), no Direct Command chit under O2.0?
pub fn chit_in_play(s: &State, c: &ChitDef) -> bool {
    if c.id.starts_with("f-huber") {
        return huber_chit_in_play(s, &c.id);
    }
    if s.alternate_chits && c.kind == ChitKind::Direct {
        return false;
    }
    c.division.as_deref().is_none_or(|d| in_play(s, d))
}

/// The divisions in play for a side: the Eindhoven Regional Command until KG Chill replaces
/// it (S5.1.1), then KG Chill.
pub fn in_play(s: &State, division: &str) -> bool {
    match division {
        "erc" => !s.kg_chill,
        "chill" => s.kg_chill,
        _ => true,
    }
}

/// S5.5: when KG Huber enters under each master — "If he chooses the 59th Infantry Division,
/// KG Huber enters on the 0700, September 17th" (read as the 18th, decision 4), "If he chooses
/// KG Chill, KG Huber enters on the Night, September 21st Turn" — and that turn as said.
pub fn huber_entry(set: &str) -> ((u8, usize), &'static str) {
    if set == "59th" {
        ((18, T0700), "0700 18 Sept")
    } else {
        ((21, NIGHT), "Night 21 Sept")
    }
}

/// Is the KG Huber chit `f-huber-59` or `f-huber-chill` in play now?
pub fn huber_chit_in_play(s: &State, chit: &str) -> bool {
    let set = match chit {
        "f-huber-59" => "59th",
        "f-huber-chill" => "chill",
        _ => return false,
    };
    s.huber.chosen.as_deref() == Some(set) && (s.day, s.time) >= huber_entry(set).0
}
