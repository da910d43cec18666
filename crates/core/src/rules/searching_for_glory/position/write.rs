//! A state written as a position (issue 39, docs/rules/searching-for-glory.md, "Positions
//! (despatch replay)"): the statements of `position.rs` that, read onto the game's set-up, give
//! the state again, a card battle of option `battle_cards` in the middle of its card play too
//! (`card_battle.rs`). `None` only for a text that would not read back as one line.

use super::super::data::ClKind;
use super::super::order::{describe, Command};
use super::super::state::{BattleSetup, Cu, Phase, Plan, State, WindowKind};

fn seat(state: &State, p: usize) -> &str {
    state.players[p].seat.as_str()
}

/// Cards, a used one marked `*` (a planned card played, an NPC's card played).
fn marked(cards: &[(String, bool)]) -> String {
    cards
        .iter()
        .map(|(c, used)| if *used { format!("{c}*") } else { c.clone() })
        .collect::<Vec<_>>()
        .join(" ")
}

fn cu_line(cu: &Cu) -> String {
    let mut l = format!("cu {} ", cu.character);
    match &cu.lp {
        Some(lp) => l.push_str(&format!("at {lp}")),
        None => l.push_str("off"),
    }
    l.push_str(&format!(
        " sp {} fatigue {} trench {} siege {} glory {} victories {} strategic {}",
        cu.sp, cu.fatigue, cu.trench, cu.siege_points, cu.glory, cu.victories, cu.strategic_used
    ));
    for r in &cu.reached {
        l.push_str(&format!(" reached {r}"));
    }
    l.push_str(if cu.supply {
        " supplied"
    } else {
        " unsupplied"
    });
    if cu.captured {
        l.push_str(" captured");
    }
    l
}

fn cl_name(cl: ClKind) -> &'static str {
    match cl {
        ClKind::Ordinary => "ordinary",
        ClKind::Brown => "brown",
        ClKind::Blue => "blue",
    }
}

/// `battle …`: the battle as the operation set it up; its card play, if any, is
/// `card_battle`'s.
fn battle_line(b: &BattleSetup) -> String {
    let mut l = format!(
        "battle {} {} attackers {}",
        b.lp,
        cl_name(b.cl),
        b.attackers.join(" ")
    );
    if b.decisive {
        l.push_str(" decisive");
    }
    if b.napoleon {
        l.push_str(" napoleon");
    }
    let m = &b.mods;
    if m.bonus != [0, 0] {
        l.push_str(&format!(" bonus {} {}", m.bonus[0], m.bonus[1]));
    }
    let sides = ["attacker", "defender"];
    for (word, flags) in [
        ("lucky", m.lucky),
        ("courage", m.courage),
        ("pursuit", m.pursuit),
    ] {
        for (i, side) in sides.iter().enumerate() {
            if flags[i] {
                l.push_str(&format!(" {word} {side}"));
            }
        }
    }
    if m.no_crossing {
        l.push_str(" no-crossing");
    }
    l
}

fn phase_line(state: &State) -> String {
    match &state.phase {
        Phase::Plan => "phase plan".into(),
        Phase::Initiative => "phase initiative".into(),
        Phase::Ended => "phase ended".into(),
        Phase::Operations { order, next } => {
            let names: Vec<&str> = order.iter().map(|&i| seat(state, i)).collect();
            listed("phase operations", &names, *next)
        }
        Phase::Npcs { order, next } => {
            let names: Vec<&str> = order.iter().map(String::as_str).collect();
            listed("phase npcs", &names, *next)
        }
    }
}

/// `<head> <to act> … [done <done> …]`: `names[next..]`, then `names[..next]`.
fn listed(head: &str, names: &[&str], next: usize) -> String {
    let next = next.min(names.len());
    let mut l = format!("{head} {}", names[next..].join(" "));
    if next > 0 {
        l.push_str(&format!(" done {}", names[..next].join(" ")));
    }
    l
}

/// The statements that set `state` on its set-up.
pub fn write(state: &State) -> Option<String> {
    let mut out: Vec<String> = vec![format!("round {}", state.round), phase_line(state)];
    let draw: Vec<&str> = state.draw_order.iter().map(|&i| seat(state, i)).collect();
    out.push(format!("draw {}", draw.join(" ")).trim_end().to_owned());
    for p in &state.players {
        if p.character != p.seat.as_str() {
            out.push(format!("player {} as {}", p.seat, p.character));
        }
    }
    out.extend(state.cus.iter().map(cu_line));
    if state.lone.is_empty() {
        out.push("lone none".into());
    }
    for l in &state.lone {
        out.push(format!("lone {} {} {}", l.side.name(), l.lp, l.sp));
    }
    for (a, b) in &state.blown {
        out.push(format!("blown {a} {b}"));
    }
    for s in &state.sieges {
        let rolled = if s.rolled { " rolled" } else { "" };
        out.push(format!("siege {} {}{rolled}", s.lp, s.besieged.name()));
    }
    for side in &state.standing_refuse {
        out.push(format!("standing {} refuse", side.name()));
    }
    out.push(
        format!("entered {}", state.entered.join(" "))
            .trim_end()
            .to_owned(),
    );
    for e in &state.entries {
        out.push(format!("entry {} {} from {}", e.character, e.lp, e.from));
    }
    for t in &state.truce {
        out.push(format!("truce {t}"));
    }
    for p in &state.players {
        let s = p.seat.as_str();
        if p.out {
            out.push(format!("out {s}"));
        }
        if p.eliminated {
            out.push(format!("eliminated {s}"));
        }
        if p.entering {
            out.push(format!("entering {s}"));
        }
        out.push(
            format!("hand {s}: {}", p.hand.join(" "))
                .trim_end()
                .to_owned(),
        );
        match &p.plan {
            Plan::Waiting => {}
            Plan::Sealed { commitment } => out.push(format!("plan {s} sealed {commitment}")),
            Plan::Open => out.push(
                format!("plan {s}: {}", marked(&p.planned))
                    .trim_end()
                    .to_owned(),
            ),
        }
        if !p.keep.is_empty() {
            out.push(format!("keep {s}: {}", p.keep.join(" ")));
        }
        for i in &p.intel {
            out.push(format!("intel {s}: {i}"));
        }
    }
    out.push(
        format!("discard: {}", state.discard.join(" "))
            .trim_end()
            .to_owned(),
    );
    out.push(
        format!("deck: {}", state.deck.join(" "))
            .trim_end()
            .to_owned(),
    );
    if let Some(n) = &state.npc {
        out.push(
            format!(
                "npc {} runner {}: {}",
                n.character,
                seat(state, n.runner),
                marked(&n.hand)
            )
            .trim_end()
            .to_owned(),
        );
    }
    if let Some(pd) = &state.pending {
        let mut l = format!(
            "operation {} {} next {} crossed {}",
            seat(state, pd.player),
            pd.character,
            pd.next,
            pd.crossed
        );
        let uncarded: Vec<String> = (0..pd.carded.len())
            .filter(|&i| !pd.carded[i])
            .map(|i| (i + 1).to_string())
            .collect();
        if !uncarded.is_empty() {
            l.push_str(&format!(" uncarded {}", uncarded.join(" ")));
        }
        if !pd.effects.is_empty() {
            l.push_str(&format!(" effects {}", pd.effects.join(" ")));
        }
        l.push_str(&format!(
            ": {}",
            describe(&Command::Operation {
                clauses: pd.clauses.clone()
            })
        ));
        out.push(l);
        if let Some(b) = &pd.battle {
            out.push(battle_line(b));
            super::card_battle::write(state, b, &mut out)?;
        }
    }
    if let Some(w) = &state.window {
        let kind = match w.kind {
            WindowKind::Announcement => "announcement",
            WindowKind::Battle => "battle",
        };
        let mut l = format!("window {kind}");
        for c in &w.chain {
            l.push_str(&format!(" react {} {}", seat(state, c.player), c.card));
        }
        if !w.passed.is_empty() {
            let passed: Vec<&str> = w.passed.iter().map(|&i| seat(state, i)).collect();
            l.push_str(&format!(" passed {}", passed.join(" ")));
        }
        out.push(l);
    }
    if let Some(v) = &state.victory {
        out.push(format!("victory {}: {}", v.side.name(), v.reason));
    }
    Some(out.join("\n") + "\n")
}
