//! The board as plain text for turn emails and pages: each LP with its CLs (`~` a bridge, `^`
//! hills, `x` a blown bridge) and the forces on it, then the glory, and the viewer's own hand
//! and plan, an open reactive window (1.e) with the cards played in it, and a card battle
//! waiting for its commanders (4.f, its hand to its commander). Only what `view` shows the
//! viewer.

use std::fmt::Write;

use super::data::{self, ClKind};
use super::state::State;
use crate::engine::ruleset::Viewer;

pub fn draw(state: &State, viewer: &Viewer) -> String {
    let map = state.map();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} — round {} of {}",
        state.scenario, state.round, state.rounds
    );
    for lp in &map.lps {
        let mut forces: Vec<String> = state
            .cus
            .iter()
            .filter(|c| c.lp.as_deref() == Some(lp.id.as_str()))
            .map(|c| {
                let mut f = format!("{} {}SP", c.character, c.sp);
                if c.fatigue > 0 {
                    let _ = write!(f, " fat{}", c.fatigue);
                }
                if c.supply {
                    f.push_str(" sup");
                }
                if c.trench > 0 {
                    let _ = write!(f, " tr{}", c.trench);
                }
                f
            })
            .collect();
        forces.extend(
            state
                .lone
                .iter()
                .filter(|l| l.lp == lp.id)
                .map(|l| format!("{} {}SP", l.side.name(), l.sp)),
        );
        let ways: Vec<String> = map
            .neighbours(&lp.id)
            .map(|n| {
                let kind = map.cl(&lp.id, n).expect("a CL").kind;
                let mark = match kind {
                    ClKind::Ordinary => "",
                    ClKind::Brown => "^",
                    ClKind::Blue if state.is_blown(&lp.id, n) => "x",
                    ClKind::Blue => "~",
                };
                format!("{mark}{n}")
            })
            .chain(
                map.exits
                    .iter()
                    .filter(|e| e.from == lp.id)
                    .map(|e| format!(">{}", e.id)),
            )
            .collect();
        let fort = if lp.fortress { " (fortress)" } else { "" };
        let _ = writeln!(out, "{}{fort}: {}", lp.id, ways.join(" "));
        if !forces.is_empty() {
            let _ = writeln!(out, "    {}", forces.join("; "));
        }
    }
    let glory: Vec<String> = state
        .cus
        .iter()
        .map(|c| format!("{} {}", c.character, c.glory))
        .collect();
    let _ = writeln!(out, "Glory: {}", glory.join(", "));
    // 2.l: sieges, and the besiegers' siege points.
    for s in &state.sieges {
        let points: Vec<String> = state
            .cus
            .iter()
            .filter(|c| c.siege_points > 0 && c.lp.as_deref() == Some(s.lp.as_str()))
            .map(|c| format!("{} {}", c.character, c.siege_points))
            .collect();
        let _ = writeln!(
            out,
            "Siege of {}: {} inside{}; siege points: {}",
            s.lp,
            s.besieged.name(),
            if s.rolled { ", shut in" } else { "" },
            if points.is_empty() {
                "none".to_owned()
            } else {
                points.join(", ")
            }
        );
    }
    // 1.e: the open window, the same for every viewer (who holds a reactive card never shows).
    if let (Some(w), Some(pd)) = (&state.window, &state.pending) {
        let what = match &pd.battle {
            Some(b) => format!("before the battle at {}", b.lp),
            None => format!(
                "{} announces: {}",
                pd.character,
                super::order::describe(&super::order::Command::Operation {
                    clauses: pd.clauses.clone()
                })
            ),
        };
        let _ = writeln!(out, "Reactive window ({what}): react <card> or pass");
        if !w.chain.is_empty() {
            let chain: Vec<String> = w
                .chain
                .iter()
                .map(|c| {
                    format!(
                        "{} by {}",
                        data::card(&c.card).expect("a card").name,
                        state.players[c.player].character
                    )
                })
                .collect();
            let _ = writeln!(out, "    played: {}", chain.join(" <- "));
        }
    }
    // 4.f: a card battle waiting for its commanders; a battle hand to its commander alone.
    let me = match viewer {
        Viewer::Seat(seat) => state.player_of(seat),
        _ => None,
    };
    for line in super::battle_play::board_lines(state, me) {
        let _ = writeln!(out, "{line}");
    }
    // 3.4: the NPC operating now and its runner; its hand to the runner alone (below).
    if let Some(n) = &state.npc {
        let _ = writeln!(
            out,
            "NPC operating: {} (run by {}, {} card(s))",
            n.character,
            state.players[n.runner].character,
            n.hand.len()
        );
    }
    if let Viewer::Seat(seat) = viewer {
        if let Some(n) = state
            .npc
            .as_ref()
            .filter(|n| state.players[n.runner].seat == *seat)
        {
            let hand: Vec<String> = n
                .hand
                .iter()
                .enumerate()
                .filter(|(_, (_, used))| !used)
                .map(|(i, (k, _))| format!("{} {}", i + 1, data::card(k).expect("a card").name))
                .collect();
            let _ = writeln!(out, "{}'s hand (NPC): {}", n.character, hand.join(", "));
            if state.runs_npc(n.runner) {
                let _ = writeln!(
                    out,
                    "Its operations now: {}",
                    super::bot::options(state, n.runner).join(" · ")
                );
            }
        }
        if let Some(p) = state.player_of(seat).map(|i| &state.players[i]) {
            let hand: Vec<String> = p
                .hand
                .iter()
                .enumerate()
                .map(|(i, k)| format!("{} {}", i + 1, data::card(k).expect("a card").name))
                .collect();
            let _ = writeln!(out, "Your hand: {}", hand.join(", "));
            if !p.planned.is_empty() {
                let planned: Vec<&str> = p
                    .planned
                    .iter()
                    .filter(|(_, used)| !used)
                    .map(|(k, _)| data::card(k).expect("a card").name.as_str())
                    .collect();
                let _ = writeln!(out, "Your planned cards: {}", planned.join(", "));
            }
        }
    }
    crate::rules::fit_for_mail(&out)
}
