//! What the game waits for now: whose decision it is, of what kind, what is decided (for a
//! player, naming the section) and whether a missed deadline passes. `prompts` adds the
//! examples (`legal`), `may_act` reads the seat alone.
//!
//! Imports: the data and state below it, and the chapters' read-only helpers it names
//! (`release::next`, `supply::in_play`).

use crate::engine::ruleset::PromptKind;

use super::data::{DATA, TURNS};
use super::release;
use super::state::{Phase, Side, State};
use super::supply;

/// The one decision the game waits for.
#[derive(Debug, Clone)]
pub struct Waiting {
    pub side: Side,
    pub kind: PromptKind,
    /// What is being decided, for a player.
    pub decision: String,
    /// Whether a missed deadline may be played as a pass (`timeout`).
    pub pass: bool,
}

/// The decision the game waits for, or none (the game is over).
pub fn waiting(s: &State) -> Option<Waiting> {
    if s.over || s.resigned.is_some() {
        return None;
    }
    let w = |side: Side, kind, decision: String, pass| {
        Some(Waiting {
            side,
            kind,
            decision,
            pass,
        })
    };
    let clock = s.clock();
    match &s.phase {
        Phase::Over => None,
        Phase::Raids { day } => w(
            Side::German,
            PromptKind::Sealed,
            format!("Seal your raid marker for the {day}th (S5.2): one of the three is the Eindhoven Air Raid, two are decoys"),
            false,
        ),
        Phase::Plans { next } => w(
            Side::Allied,
            PromptKind::Sealed,
            format!("Seal your free drop plan for Drop {next} (3.3.2): formation:zone for each Formation"),
            false,
        ),
        Phase::Weather => w(Side::Allied, PromptKind::Turn, format!("{clock}: roll the weather (1.2; the Weather Table's rows but 3 = fog 5 are reconstructed)"), false),
        Phase::Fog => w(Side::Allied, PromptKind::Turn, format!("{clock}: roll to clear the fog (1.2)"), false),
        Phase::AirDrop { candidates } => w(
            Side::Allied,
            PromptKind::Sealed,
            format!("{clock}: place your Air Drop? counters: the real drop at {} or {} (3.2), sealed", TURNS[candidates[0]], TURNS[candidates[1]]),
            false,
        ),
        Phase::SupplyDrop { candidates } => w(
            Side::Allied,
            PromptKind::Sealed,
            format!("{clock}: place the supply drop's Air Drop? counters: the real supply drop at {} or {} (3.5), sealed", TURNS[candidates[0]], TURNS[candidates[1]]),
            false,
        ),
        Phase::Replan { next } => w(
            Side::Allied,
            PromptKind::Sealed,
            format!("The drop zone change succeeded: seal your new plan for Drop {next} (3.6, 3.3.2): formation:zone for each Formation"),
            false,
        ),
        Phase::Huber => w(
            Side::German,
            PromptKind::Sealed,
            format!("{clock}: choose, sealed, which division controls KG Huber (S5.5): the 59th (enters 0700 18 Sept) or KG Chill (enters Night 21 Sept)"),
            false,
        ),
        Phase::Route => w(
            Side::Allied,
            PromptKind::Turn,
            format!("{clock}, step 1: advance the Club Route marker to a Stop hex, or stay (4.2)"),
            false,
        ),
        Phase::Release => {
            let e = release::next(s).map_or("the next Formation".into(), |e| match e.number {
                Some(n) => format!("{} (its number {n} is reconstructed)", e.name),
                None => e.name.clone(),
            });
            w(
                Side::Allied,
                PromptKind::Turn,
                format!("{clock}, step 2: roll for the release of {e}, paying up to 4 Dispatch Points of its Parent Formation (4.3.1–4.3.2)"),
                false,
            )
        }
        Phase::OffMap => w(
            Side::German,
            PromptKind::Turn,
            format!("{clock}, step 4: move your off-map formations, each by the private number of its destination in your view (5.1)"),
            true,
        ),
        Phase::Buy { side } => w(
            *side,
            PromptKind::Turn,
            format!(
                "{clock}, step 6: buy Formation Activation chits with Dispatch Points (DP: {})",
                s.dp
                    .iter()
                    .filter(|(d, _)| DATA.division(d).is_some_and(|d| d.side == *side && supply::in_play(s, &d.id)))
                    .map(|(d, n)| format!("{d} {n}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            true,
        ),
        Phase::Activation => activation(s, &clock),
    }
}

/// In the activation phase: the window that answers first, else the impulse's owner.
fn activation(s: &State, clock: &str) -> Option<Waiting> {
    let w = |side: Side, kind, decision: String, pass| {
        Some(Waiting {
            side,
            kind,
            decision,
            pass,
        })
    };
    if let Some(pending) = &s.pending {
        w(
            pending.side,
            PromptKind::Turn,
            format!(
                "{clock}: state the CRT result class of die {} for {} at {}",
                pending.face, pending.unit, pending.hex
            ),
            false,
        )
    } else if let Some(d) = &s.demolition {
        w(
            d.side,
            PromptKind::Reaction,
            format!(
                "{clock}: {} entered {}: the {} bridge you wired is contested: demolish it (5 or less, 6 or less with a Fire Zone on its hexes: fz) or pass (2.15.6)",
                d.unit,
                d.hex,
                d.bridges.join(" and ")
            ),
            true,
        )
    } else if let Some(who) = s.rout() {
        w(
            who,
            PromptKind::Reaction,
            format!("{clock}: Rout: name a Formation that routs (S3.1), with the German units taken off the map (alone: all its routed units; none: every one eliminated), or pass"),
            true,
        )
    } else if let Some(r) = s.routing() {
        w(
            r.side,
            PromptKind::Reaction,
            format!(
                "{clock}: Rout of {} (S3.1): move each of its units in an enemy Fire Zone one hex out of them, no opportunity fire; entrench a unit that cannot; pass for the rest: {}",
                r.formation,
                r.units.join(", ")
            ),
            true,
        )
    } else if let Some(m) = &s.mann {
        w(
            Side::Allied,
            PromptKind::Reaction,
            format!(
                "{clock}: {} takes a {}: play PFC Joe Mann (S6.9), or pass",
                m.unit, m.class
            ),
            true,
        )
    } else if let Some(l) = s.lost() {
        w(
            s.lost_mover(),
            PromptKind::Turn,
            format!(
                "{clock}: the {} {l} is lost ({}): move it up to its full movement allowance, or pass",
                s.lost_mover().other().name(),
                if s.lost_event().is_some() { "S3.1 Lost" } else { "O3.0" }
            ),
            true,
        )
    } else if let Some((who, event)) = s.placing() {
        w(
            who,
            PromptKind::Reaction,
            format!("{clock}: place the {event} marker (S3.1), or pass"),
            true,
        )
    } else if let Some(who) = s.intelligence() {
        w(
            who,
            PromptKind::Turn,
            format!("{clock}: Intelligence: name the division that gains 6 CP and 2 DP (S3.1)"),
            false,
        )
    } else if s.status_window() {
        w(
            Side::German,
            PromptKind::Reaction,
            format!(
                "{clock}: the Guards Armored Division chit is up: a status check on Club Route ({} Attacked + 2 × {} Closed), or pass (4.3.3)",
                s.highway.attacked, s.highway.closed
            ),
            true,
        )
    } else if let Some(h) = s.window {
        w(
            s.impulse.other(),
            PromptKind::Reaction,
            match &s.assault {
                Some(a) => format!("{clock}: the enemy declares an assault by {} into {}: the Units assaulted fire first at {h} (S4.4): opportunity fire or pass", a.unit, a.hex),
                None => format!("{clock}: the enemy acted in {h}: opportunity fire or pass"),
            },
            true,
        )
    } else {
        w(
            s.impulse,
            PromptKind::Turn,
            format!(
                "{clock}: your impulse ({}): actions, then end",
                s.chit.as_deref().unwrap_or("no chit")
            ),
            true,
        )
    }
}
