//! Steps 6–9 of every turn: Dispatch Points buy Formation Activation chits (step 6, with the
//! S6.2 discounts and the S6.4 night restriction), the eligible chits go into the coffee mug
//! (step 8), and the activation phase draws them one by one with a public die over the mug's
//! public contents (step 9). A chit is a turn for its owner. A Division Activation chit first
//! adds the Eindhoven Air Raid's Closed marker (S5.2), then rolls its division's Command and
//! Dispatch Points; the Guards Division chit lets the German ask the status check (4.3.3).
//! The chits, costs and gains are `data/chits.txt` and `data/divisions.txt` (reconstructed).

use super::data::{ChitKind, DATA, TURNS};
use super::in_play::{chit_in_play, in_play};
pub use super::sequence::to_buy;
use super::sequence::NIGHT;
use super::state::{Phase, Side, State, Wait};
use super::turn;
use super::{d10, rule};
use crate::engine::ruleset::{Ctx, RuleError};

const S6_2: &str = "S6.2 Allied Dispatch Point Discounts";
const STEP_6: &str = "step 6, Formation Activation chits";

/// The chits a side could buy now, one by one (for prompts and the bot).
pub fn buyable(s: &State, side: Side) -> Vec<&'static str> {
    DATA.chits
        .iter()
        .filter(|c| c.side == side && c.bought() && !s.bought.contains(&c.id))
        .filter(|c| chit_in_play(s, c))
        .filter(|c| !night_barred(s, &c.id))
        .filter(|c| c.payer().is_some_and(|p| dp(s, p) >= c.cost))
        .map(|c| c.id.as_str())
        .collect()
}

fn dp(s: &State, division: &str) -> u32 {
    s.dp.get(division).copied().unwrap_or(0)
}

/// S6.4: no Guards Armored or 43rd Formation Activation chit is bought for a night turn.
fn night_barred(s: &State, chit: &str) -> bool {
    s.time == NIGHT && guards_or_43rd_bought(chit)
}

fn guards_or_43rd_bought(chit: &str) -> bool {
    DATA.chit(chit).is_some_and(|c| {
        c.bought() && matches!(c.division.as_deref(), Some("guards") | Some("43rd"))
    })
}

/// The cost of each chit of one purchase, S6.2's free chits at 0.
fn prices(chits: &[String]) -> Vec<u32> {
    let formations = |division: &str| {
        chits
            .iter()
            .filter_map(|c| DATA.chit(c))
            .filter(|c| c.kind == ChitKind::Formation && c.division.as_deref() == Some(division))
            .count()
    };
    // S6.2: two 101st Formation chits at once, or both Group Hot and Group Cold.
    let free_101 = formations("101st") >= 2;
    let free_guards = chits.iter().any(|c| c == "f-hot") && chits.iter().any(|c| c == "f-cold");
    chits
        .iter()
        .map(|id| {
            let c = DATA.chit(id).expect("checked");
            let free = matches!(c.kind, ChitKind::Independent | ChitKind::Artillery)
                && match c.division.as_deref() {
                    Some("101st") => free_101,
                    Some("guards") => free_guards,
                    _ => false,
                };
            if free {
                0
            } else {
                c.cost
            }
        })
        .collect()
}

/// Checks a purchase: known chits of the buyer's side, bought kinds, not twice, not barred at
/// night, and the Dispatch Points of each paying division enough for all of them together.
pub fn check_buy(s: &State, side: Side, chits: &[String]) -> Result<Vec<u32>, RuleError> {
    let r = |m: String| rule(STEP_6, m);
    for (i, id) in chits.iter().enumerate() {
        let c = DATA.chit(id).ok_or_else(|| {
            r(format!(
                "there is no chit '{id}'; you may buy: {}",
                buyable(s, side).join(" ")
            ))
        })?;
        if c.side != side {
            return Err(r(format!("{id} is a {} chit", c.side.name())));
        }
        if c.division.as_deref().is_some_and(|d| !in_play(s, d)) {
            return Err(rule(
                "S5.1.1 Eindhoven Regional Command/KG Chill",
                format!("{id}: that command is not in play now (KG Chill replaces the Eindhoven Regional Command at 0700 20 Sept)"),
            ));
        }
        if !chit_in_play(s, c) {
            return Err(rule(
                "S5.5 KG Huber",
                format!("{id}: KG Huber is not in play for that division now"),
            ));
        }
        if !c.bought() {
            return Err(r(format!(
                "{id} goes into the mug every turn by right: buy Formation, Independent or Artillery chits"
            )));
        }
        if chits[..i].contains(id) {
            return Err(r(format!(
                "{id} is named twice: a chit is bought once a turn"
            )));
        }
        if night_barred(s, id) {
            return Err(rule(
                "S6.4 Night Turn Restrictions on Guards Armored and 43rd Infantry",
                format!("{id}: no Guards Armored or 43rd Infantry Formation chit is bought for the night turn"),
            ));
        }
    }
    let prices = prices(chits);
    let mut need: std::collections::BTreeMap<&str, u32> = Default::default();
    for (id, p) in chits.iter().zip(&prices) {
        let payer = DATA.chit(id).and_then(|c| c.payer()).unwrap_or("-");
        *need.entry(payer).or_default() += p;
    }
    for (division, n) in need {
        if dp(s, division) < n {
            return Err(r(format!(
                "the {division} has {} Dispatch Points and this purchase costs it {n}{}",
                dp(s, division),
                if side == Side::Allied {
                    " (S6.2: two 101st Formation chits, or Group Hot and Group Cold, bought together bring their Independent and Artillery chits free)"
                } else {
                    ""
                }
            )));
        }
    }
    Ok(prices)
}

/// `buy <chit> …` or `buy none` at step 6.
pub fn buy(s: &mut State, ctx: &mut Ctx, side: Side, chits: &[String]) -> Result<(), RuleError> {
    let prices = check_buy(s, side, chits)?;
    let mut bought = Vec::new();
    for (id, p) in chits.iter().zip(prices) {
        let payer = DATA.chit(id).and_then(|c| c.payer()).unwrap_or("-");
        *s.dp.entry(payer.to_owned()).or_default() -= p;
        s.bought.push(id.clone());
        bought.push(if p == 0 {
            format!("{id} (free, {S6_2})")
        } else {
            format!("{id} ({p} DP of the {payer})")
        });
    }
    if bought.is_empty() {
        ctx.say(format!("The {} player buys no chit", side.name()));
    } else {
        ctx.say(format!(
            "The {} player buys {}",
            side.name(),
            bought.join(", ")
        ));
    }
    match side {
        Side::Allied => s.phase = Phase::Buy { side: Side::German },
        Side::German => {
            fill_mug(s, ctx);
            start_activation(s, ctx)?;
        }
    }
    Ok(())
}

/// Step 8: the Division and Direct Command chits and the chits bought go into the mug.
fn fill_mug(s: &mut State, ctx: &mut Ctx) {
    let mut mug: Vec<String> = DATA
        .chits
        .iter()
        .filter(|c| !c.bought() && s.held.as_ref() != Some(&c.id))
        .filter(|c| chit_in_play(s, c))
        .map(|c| c.id.clone())
        .collect();
    mug.append(&mut s.bought);
    mug.sort();
    s.mug = mug;
    ctx.say(format!("The mug holds {}", s.mug.join(", ")));
}

/// Step 9 begins: the chit held from the turn before is played first, unless S6.4 wastes it.
fn start_activation(s: &mut State, ctx: &mut Ctx) -> Result<(), RuleError> {
    s.phase = Phase::Activation;
    if let Some(id) = s.held.take() {
        if s.time == NIGHT && guards_or_43rd_bought(&id) {
            ctx.say(format!(
                "{id}, the last chit of 1900, is wasted: no Guards Armored or 43rd Formation chit plays at night (S6.4)"
            ));
        } else {
            ctx.say(format!(
                "{id}, the last chit of the turn before, is played first"
            ));
            play(s, ctx, id);
            return Ok(());
        }
    }
    draw(s, ctx)
}

/// Draws the next chit with a public die over the mug's public contents. The last chit of the
/// turn is set aside to open the next turn (S6.4); an empty mug ends the turn.
pub fn draw(s: &mut State, ctx: &mut Ctx) -> Result<(), RuleError> {
    s.chit = None;
    s.end_wait(Wait::is_status_check);
    s.window = None;
    match s.mug.len() {
        0 => turn::end_turn(s, ctx),
        1 if s.last_chit_held => {
            let id = s.mug.remove(0);
            ctx.say(format!(
                "{id} is the last chit in the mug: it is set aside and opens the next turn"
            ));
            s.held = Some(id);
            turn::end_turn(s, ctx)
        }
        n => {
            let face = ctx.roll(n as u32);
            let id = s.mug.remove(face as usize - 1);
            ctx.say(format!("Chit drawn ({face} of {n}): {id}"));
            play(s, ctx, id);
            Ok(())
        }
    }
}

/// A chit in play: its owner's impulse. A Division chit: the air raid's marker, then CP/DP.
fn play(s: &mut State, ctx: &mut Ctx, id: String) {
    let c = DATA.chit(&id).expect("chits in the mug are in the data");
    s.impulse = c.side;
    s.actions = 0;
    // A new impulse: no unit has acted (and an O3.0 lost check passed is spent).
    s.activity.clear();
    s.impulse_no += 1;
    s.chit = Some(id.clone());
    if c.kind == ChitKind::Division {
        let division = c.division.clone().unwrap_or_default();
        if let Some(raid) = &s.air_raid {
            if raid.dp_paid < 4 && (division == "101st" || division == "guards") {
                s.highway.closed += 1;
                ctx.say(format!(
                    "Eindhoven Air Raid: a Club Route Closed marker to the Hell's Highway box (S5.2; {} of 4 DP paid to stop it)",
                    raid.dp_paid
                ));
            }
        }
        if let Some(d) = DATA.division(&division) {
            let (f1, f2) = (d10(ctx), d10(ctx));
            let (cp, dp) = (d.cp_for(f1), d.dp_for(f2));
            *s.cp.entry(division.clone()).or_default() += cp;
            *s.dp.entry(division.clone()).or_default() += dp;
            ctx.say(format!(
                "The {division} rolls {f1} for Command Points (+{cp}, now {}) and {f2} for Dispatch Points (+{dp}, now {})",
                s.cp[&division], s.dp[&division]
            ));
        }
        if id == "div-guards" && s.highway.attacked + s.highway.closed > 0 {
            s.ask(Wait::StatusCheck);
        }
    }
    ctx.say(format!(
        "{} {}: the {} player's impulse ({})",
        TURNS[s.time],
        s.day,
        c.side.name(),
        id
    ));
}

/// A raid marker turned up on its night (S5.2): the first revealed raid counts; if the 18th and
/// 19th were decoys the 20th is the raid, whatever it shows; a later "raid" is a decoy.
pub fn reveal_raid(s: &mut State, ctx: &mut Ctx, i: usize, real: bool) {
    let day = s.raid_markers[i].day;
    s.raid_markers[i].revealed = Some(real);
    let already = s.air_raid.is_some();
    let last = s.raid_markers.iter().all(|m| m.day <= day);
    let raid = !already && (real || last);
    ctx.say(format!(
        "Night {day} Sept: the German raid marker turns up {}",
        match (real, raid) {
            (true, true) => "the Eindhoven Air Raid (S5.2): until 4 Dispatch Points stop it, each 101st or Guards Division chit adds a Club Route Closed marker".to_owned(),
            (false, true) => "a decoy, but the raid was on neither night before: the Eindhoven Air Raid comes now (S5.2)".to_owned(),
            (true, false) => "a second raid: only the first revealed counts, a decoy".to_owned(),
            (false, false) => "a decoy".to_owned(),
        }
    ));
    if raid {
        s.air_raid = Some(Default::default());
    }
}

/// `status` or `pass` when the Guards Division chit comes up (4.3.3).
pub fn status_window(s: &mut State, ctx: &mut Ctx, side: Side, ask: bool) -> Result<(), RuleError> {
    if side != Side::German {
        return Err(rule(
            "4.3.3 Attacking Club Route",
            "the German player answers first: status, or pass",
        ));
    }
    s.end_wait(Wait::is_status_check);
    if ask {
        super::declared::status_check(s, ctx)?;
    } else {
        ctx.say("The German player asks no status check");
    }
    Ok(())
}

/// `spend <n> cp|dp [division]`: points of the chit's division, or a named one of the side.
pub fn spend(
    s: &mut State,
    ctx: &mut Ctx,
    side: Side,
    points: u32,
    dispatch: bool,
    division: Option<&str>,
    note: &str,
) -> Result<(), RuleError> {
    let r = |m: String| rule("Command and Dispatch Points", m);
    let own = s
        .chit
        .as_deref()
        .and_then(|c| DATA.chit(c))
        .and_then(|c| c.division.clone());
    let division = division
        .map(str::to_owned)
        .or(own)
        .ok_or_else(|| r("name the division whose points you spend: spend 1 cp guards".into()))?;
    let d = DATA
        .division(&division)
        .filter(|d| d.side == side && in_play(s, &d.id))
        .ok_or_else(|| r(format!("{division} is not one of your divisions in play")))?;
    let pool = if dispatch { &mut s.dp } else { &mut s.cp };
    let have = pool.get(&d.id).copied().unwrap_or(0);
    let what = if dispatch { "Dispatch" } else { "Command" };
    if points == 0 || points > have {
        return Err(r(format!(
            "the {division} has {have} {what} Points: spend 1 to {have}"
        )));
    }
    *pool.entry(d.id.clone()).or_default() -= points;
    ctx.say(format!(
        "The {} player spends {points} {what} Point{} of the {division}{}",
        side.name(),
        if points == 1 { "" } else { "s" },
        if note.is_empty() {
            String::new()
        } else {
            format!(": {note}")
        }
    ));
    Ok(())
}

/// `intelligence <division>`: the Intelligence event's 6 CP and 2 DP to one of the drawing
/// side's divisions (S3.1; "parent formation" read as the division).
pub fn intelligence(
    s: &mut State,
    ctx: &mut Ctx,
    side: Side,
    division: &str,
) -> Result<(), RuleError> {
    let d = DATA
        .division(division)
        .filter(|d| d.side == side && in_play(s, &d.id))
        .ok_or_else(|| {
            let own: Vec<&str> = DATA
                .divisions
                .iter()
                .filter(|d| d.side == side && in_play(s, &d.id))
                .map(|d| d.id.as_str())
                .collect();
            rule(
                "S3.1 Intelligence",
                format!(
                    "{division} is not one of your divisions: {}",
                    own.join(", ")
                ),
            )
        })?;
    *s.cp.entry(d.id.clone()).or_default() += 6;
    *s.dp.entry(d.id.clone()).or_default() += 2;
    s.end_wait(Wait::is_intelligence);
    ctx.say(format!(
        "Intelligence: the {} gains 6 Command and 2 Dispatch Points (now {} and {})",
        d.id, s.cp[&d.id], s.dp[&d.id]
    ));
    Ok(())
}

/// `stopraid <n>`: Dispatch Points against the air raid, in an Allied Division chit's impulse,
/// after its roll (S5.2). Four in all stop it.
pub fn stop_raid(s: &mut State, ctx: &mut Ctx, side: Side, points: u32) -> Result<(), RuleError> {
    let r = |m: String| rule("S5.2 The Eindhoven Air Raid", m);
    let Some(raid) = &s.air_raid else {
        return Err(r("there is no air raid to stop".into()));
    };
    if raid.dp_paid >= 4 {
        return Err(r("the raid is stopped already".into()));
    }
    let chit = s.chit.as_deref().and_then(|c| DATA.chit(c));
    let division =
        match chit {
            Some(c) if side == Side::Allied && c.kind == ChitKind::Division => {
                c.division.clone().unwrap_or_default()
            }
            _ => return Err(r(
                "Dispatch Points stop the raid when an Allied Division Activation chit is picked"
                    .into(),
            )),
        };
    let left = 4 - raid.dp_paid;
    if points == 0 || points > left || points > dp(s, &division) {
        return Err(r(format!(
            "pay 1 to {} (the {division} has {} DP; {left} more stop the raid)",
            left.min(dp(s, &division)),
            dp(s, &division)
        )));
    }
    *s.dp.entry(division.clone()).or_default() -= points;
    let raid = s.air_raid.as_mut().expect("checked");
    raid.dp_paid += points;
    ctx.say(format!(
        "The {division} pays {points} DP against the air raid ({} of 4){}",
        raid.dp_paid,
        if raid.dp_paid >= 4 {
            ": the raid is stopped"
        } else {
            ""
        }
    ));
    Ok(())
}
