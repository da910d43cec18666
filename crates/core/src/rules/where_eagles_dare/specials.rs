//! German special rules with secrets: the flak placed face down at random (S5.4) and KG
//! Huber's sealed choice of master (S5.5).

use super::data::DATA;
pub use super::in_play::huber_chit_in_play;
use super::in_play::huber_entry;
use super::rule;
use super::state::{Phase, State};
use crate::engine::dice::DiceStream;
use crate::engine::ruleset::{Ctx, RuleError};

const S5_5: &str = "S5.5 KG Huber";

/// S5.4: the scenario's flak units go face down, at random, on its flak hexes (the hidden
/// stream draws the placement; the German knows it, the Allied sees only face-down counters).
pub fn place_flak(s: &mut State, hidden: &mut DiceStream) {
    if s.drops.is_empty() {
        return;
    }
    let mut types = DATA.flak_types.clone();
    for i in (1..types.len()).rev() {
        let j = hidden.roll(i as u32 + 1) as usize - 1;
        types.swap(i, j);
    }
    for (k, (hex, t)) in DATA.flak_hexes.iter().zip(types).enumerate() {
        let unit = format!("flak-{}", (b'a' + k as u8) as char);
        s.units.insert(
            unit.clone(),
            super::state::Unit {
                side: super::state::Side::German,
                hex: *hex,
                column: false,
            },
        );
        s.flak.insert(unit, t);
    }
}

/// S5.4: the flak flips over on the first turn (when Drop One is rolled, or the first turn
/// ends): from then on every seat sees which is an 88.
pub fn flip_flak(s: &mut State, ctx: &mut Ctx) {
    if s.flak_flipped || s.flak.is_empty() {
        return;
    }
    s.flak_flipped = true;
    let shown: Vec<String> = s
        .flak
        .iter()
        .map(|(u, t)| {
            format!(
                "{u} at {} is {t}",
                s.units.get(u).map_or("-".into(), |x| x.hex.to_string())
            )
        })
        .collect();
    ctx.say(format!(
        "The German flak is flipped over (S5.4): {}",
        shown.join("; ")
    ));
}

/// Does the scenario cover the night of 17 September, when KG Huber's master is chosen?
pub fn huber_in_scenario(s: &State) -> bool {
    DATA.scenario(&s.scenario)
        .is_some_and(|sc| sc.first <= (17, super::sequence::NIGHT))
        && s.last >= (18, super::sequence::T0700)
}

/// `huber 59th|chill` on the night of 17 September, sealed (S5.5).
pub fn choose(s: &mut State, ctx: &mut Ctx) -> Result<(), RuleError> {
    let commitment = ctx
        .commitment()
        .ok_or_else(|| {
            rule(
                S5_5,
                "KG Huber's master is sealed by the server: send it as 'huber 59th|chill'",
            )
        })?
        .to_owned();
    s.huber.commitment = Some(commitment);
    ctx.say("The German player chooses, face down, which division controls KG Huber (S5.5)");
    super::sequence::to_buy(s);
    Ok(())
}

/// Opened at 0700 18 September: 59th, it enters now as a 59th Infantry Formation (read for the
/// text's "0700, September 17th"); KG Chill, it enters on the Night 21 September turn.
pub fn reveal(s: &mut State, ctx: &mut Ctx, division: &str) -> Result<(), RuleError> {
    if !matches!(division, "59th" | "chill") {
        return Err(rule(
            S5_5,
            "KG Huber's sealed master is neither 59th nor chill",
        ));
    }
    s.huber.chosen = Some(division.to_owned());
    if division == "59th" {
        ctx.say("KG Huber's counter is flipped: the 59th Infantry Division controls it; it enters now, 0700 18 Sept, a 59th Infantry Formation (S5.5); the KG Chill set is put aside");
    } else {
        ctx.say("KG Huber's counter is flipped: KG Chill controls it; it enters on the Night 21 Sept turn, a KG Chill Formation (S5.5); the 59th's set is put aside");
    }
    Ok(())
}

/// S5.5: "There are two sets of Units for KG Huber … Place the not chosen Formation to the side
/// and it is not used in the game." A unit of either set acts only once its master is revealed,
/// from its entry turn (0700 18 Sept for the 59th, Night 21 Sept for KG Chill), and the set
/// not chosen never acts. Where the scenario does not cover the choice, the players' set-up.
pub fn check_huber_unit(s: &State, unit: &str) -> Result<(), RuleError> {
    let Some(set) = super::oob::OOB
        .formation_of(unit)
        .and_then(|f| match f.id.as_str() {
            "huber-59" => Some("59th"),
            "huber-chill" => Some("chill"),
            _ => None,
        })
    else {
        return Ok(());
    };
    if !huber_in_scenario(s) {
        return Ok(());
    }
    let entry = huber_entry(set);
    match s.huber.chosen.as_deref() {
        None => Err(rule(
            S5_5,
            format!("{unit} is of KG Huber, whose master is not revealed yet (0700 18 Sept): it does not act before"),
        )),
        Some(chosen) if chosen != set => Err(rule(
            S5_5,
            format!("{unit} is of the KG Huber set the German did not choose ({chosen} controls KG Huber): that set is put aside and not used in the game"),
        )),
        Some(_) if (s.day, s.time) < entry.0 => Err(rule(
            S5_5,
            format!("{unit} is of KG Huber, which enters on the {} turn", entry.1),
        )),
        Some(_) => Ok(()),
    }
}

/// The phase at the start of the night of the 17th: KG Huber's choice.
pub fn huber_phase(s: &mut State) -> bool {
    if s.day == 17
        && s.time == super::sequence::NIGHT
        && huber_in_scenario(s)
        && s.huber.commitment.is_none()
    {
        s.phase = Phase::Huber;
        return true;
    }
    false
}
