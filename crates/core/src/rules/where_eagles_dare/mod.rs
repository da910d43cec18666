//! Where Eagles Dare (GTS, the Battle for Hell's Highway): the exclusive rules refereed on
//! the Despatch core, seats `allied` and `german`. The text is the exclusive rules only: the
//! series results (fire, assault, troop quality, rally, barrage) are declared rolls whose facts
//! the players state, and Despatch draws the dice, keeps the secrets (the Air Drop? counters,
//! free drop plans) and applies every exclusive consequence this slice covers. Decisions and
//! what is not done yet: docs/rules/where-eagles-dare.md.

pub mod activity;
pub mod assault;
pub mod bot;
pub mod bridges;
pub mod chits;
pub mod command;
pub mod data;
pub mod declared;
pub mod drawn;
pub mod events;
pub mod first_activation;
pub mod german_lost;
pub mod hex;
pub mod highway;
pub mod impulse;
pub mod in_play;
pub mod legal;
pub mod los;
pub mod losses;
pub mod offmap;
pub mod oob;
pub mod options;
pub mod order;
pub mod places;
pub mod pointing;
pub mod position;
pub mod prompts;
pub mod release;
pub mod sealed;
pub mod sequence;
pub mod setup;
pub mod side;
pub mod specials;
pub mod state;
pub mod supply;
pub mod terrain;
pub mod text_board;
pub mod turn;
pub mod units;
pub mod victory;
pub mod wait;
pub mod waiting;
mod window;

use std::collections::BTreeMap;

use serde_json::Value;

use crate::engine::dice::DiceStream;
use crate::engine::ruleset::{
    newest, BotRng, Ctx, Outcome, Prompt, RuleError, Rules, RulesetInfo, ScenarioInfo, Seat, Setup,
    Viewer,
};
use data::DATA;
use order::Command;
use state::{Phase, Side, State, Wait};

pub struct WhereEaglesDare;

pub const ID: &str = "where-eagles-dare";

/// A d10 read 0–9: face 10 is 0 (decision 1).
pub fn d10(ctx: &mut Ctx) -> u32 {
    ctx.roll(10) % 10
}

pub(crate) fn rule(section: &str, message: impl Into<String>) -> RuleError {
    RuleError::new(section, message)
}

pub(crate) fn not_now(what: &str, s: &State) -> RuleError {
    rule(
        "sequence of play",
        format!(
            "{what} is not an order for now ({}, {})",
            s.clock(),
            phase_name(&s.phase)
        ),
    )
}

pub fn phase_name(p: &Phase) -> String {
    match p {
        Phase::Raids { day } => format!("raid marker for the {day}th"),
        Phase::Plans { next } => format!("free drop plans: Drop {next}"),
        Phase::Weather => "Check Weather".into(),
        Phase::Fog => "fog roll".into(),
        Phase::AirDrop { .. } => "Air Drop? counters".into(),
        Phase::Replan { next } => format!("drop zone change: new plan for Drop {next}"),
        Phase::SupplyDrop { .. } => "supply drop counters".into(),
        Phase::Huber => "KG Huber's master (S5.5)".into(),
        Phase::Route => "1900 step 1, Club Route".into(),
        Phase::Release => "1900 step 2, XXX Corps release".into(),
        Phase::OffMap => "1900 step 4, German off-map moves".into(),
        Phase::Buy { side } => format!("step 6, {} chits", side.name()),
        Phase::Activation => "activation".into(),
        Phase::Over => "the game is over".into(),
    }
}

/// The rules versions this build plays, oldest first (docs/rules/where-eagles-dare.md, "Rules
/// versions"): a game keeps the version it was created under for its whole life
/// (`State::version`, set at set-up).
const VERSIONS: &[&str] = &["16", "17"];

impl Rules for WhereEaglesDare {
    fn versions(&self) -> &'static [&'static str] {
        VERSIONS
    }

    type State = State;
    type Command = Command;

    fn id(&self) -> std::borrow::Cow<'static, str> {
        ID.into()
    }

    fn info(&self) -> RulesetInfo {
        RulesetInfo {
            id: ID.into(),
            version: newest(VERSIONS).into(),
            title: "Where Eagles Dare — the Battle for Hell's Highway (exclusive rules refereed)"
                .into(),
            scenarios: DATA
                .scenarios
                .iter()
                .map(|sc| ScenarioInfo {
                    id: sc.id.clone(),
                    title: sc.title.clone(),
                    seats: vec!["allied".into(), "german".into()],
                    min_seats: 2,
                    max_seats: 2,
                    roles: vec!["Allied side".into(), "German side".into()],
                    practice: false,
                })
                .collect(),
            options: options::info(),
            grammar: order::GRAMMAR.into(),
        }
    }

    fn setup(&self, setup: &Setup, hidden: &mut DiceStream) -> Result<State, RuleError> {
        setup::state(setup, hidden)
    }

    /// The set-up reads no version; the game's version is kept in the state for the rules
    /// gated on it later in the game.
    fn setup_version(
        &self,
        version: &str,
        setup: &Setup,
        hidden: &mut DiceStream,
    ) -> Result<State, RuleError> {
        let mut s = setup::state(setup, hidden)?;
        s.version = crate::engine::ruleset::version_number(version)?;
        Ok(s)
    }

    fn prompts(&self, s: &State) -> Vec<Prompt> {
        prompts::prompts(self, s)
    }

    fn may_act(&self, s: &State, seat: &Seat) -> bool {
        waiting::waiting(s).is_some_and(|w| w.side.seat() == *seat)
    }

    fn seal(&self, command: &Command) -> Option<(Value, Command)> {
        sealed::seal(command)
    }

    fn apply(
        &self,
        s: &mut State,
        seat: &Seat,
        c: &Command,
        ctx: &mut Ctx,
    ) -> Result<(), RuleError> {
        let side = Side::of(seat)
            .ok_or_else(|| rule("seats", format!("{seat} is not a seat of this game")))?;
        if !self.may_act(s, seat) {
            return Err(rule(
                "sequence of play",
                format!(
                    "it is not the {} player's move ({}, {})",
                    side.name(),
                    s.clock(),
                    phase_name(&s.phase)
                ),
            ));
        }
        // A drop that came in with its plan still sealed: open it (3.3.2).
        for d in &s.drops {
            if let (Some(_), Some(c), None) = (d.arrived, &d.plan_commitment, &d.plan) {
                ctx.request_reveal(c.clone());
            }
        }
        if let Command::Dispute { seq, text } = c {
            if *seq == 0 {
                return Err(rule(
                    "disputes",
                    "name the seq of the event you dispute (1 or more)",
                ));
            }
            s.disputes.push(state::Dispute {
                by: side,
                seq: *seq,
                text: text.clone(),
            });
            ctx.say(format!(
                "The {} player disputes event {seq}: {text} (logged; nothing is undone)",
                side.name()
            ));
            return Ok(());
        }
        if let Command::Watch { hexes } = c {
            impulse::watch(s, ctx, side, hexes.as_deref());
            return Ok(());
        }
        if let Command::DzChange { zone } = c {
            check_dz_change(s, side)?;
            return supply::dz_change(s, ctx, zone);
        }
        match (&s.phase, c) {
            (Phase::Replan { next }, Command::Plan { drop, sticks }) => {
                sealed::replan(s, ctx, *next, *drop, sticks.as_deref())?
            }
            (Phase::Huber, Command::Huber { .. }) => specials::choose(s, ctx)?,
            (Phase::SupplyDrop { .. }, Command::AirDrop { at }) => {
                supply::place_counters(s, ctx, at.as_deref())?
            }
            (Phase::Plans { next }, Command::Plan { drop, sticks }) => {
                sealed::plan(s, ctx, *next, *drop, sticks.as_deref())?
            }
            (Phase::Raids { day }, Command::Raid { day: d, .. }) => sealed::raid(s, ctx, *day, *d)?,
            (Phase::Weather, Command::Weather) => turn::weather(s, ctx),
            (Phase::Fog, Command::Fog) => turn::fog(s, ctx)?,
            (Phase::AirDrop { .. }, Command::AirDrop { at }) => {
                turn::air_drop(s, ctx, at.as_deref())?
            }
            (Phase::Route, Command::Route { path }) => turn::route(s, ctx, path)?,
            (Phase::Release, Command::Release { dp }) => {
                if !release::roll(s, ctx, *dp)? {
                    turn::after_release(s, ctx)?;
                }
            }
            (Phase::OffMap, Command::OffMap { moves }) => {
                offmap::order(s, ctx, moves)?;
                turn::after_offmap(s, ctx);
            }
            (Phase::Buy { side: buyer }, Command::Buy { chits }) if *buyer == side => {
                chits::buy(s, ctx, side, chits)?
            }
            (Phase::Activation, c) => impulse::play(s, ctx, side, c)?,
            (_, c) => return Err(not_now(&order::describe(c), s)),
        }
        Ok(())
    }

    fn reveal(
        &self,
        s: &mut State,
        _seat: &Seat,
        commitment: &str,
        choice: &Value,
        ctx: &mut Ctx,
    ) -> Result<(), RuleError> {
        sealed::reveal(s, commitment, choice, ctx)
    }

    fn timeout(&self, s: &mut State, seat: &Seat, ctx: &mut Ctx) -> Result<(), RuleError> {
        let side = Side::of(seat).ok_or_else(|| rule("seats", "not a seat"))?;
        match s.phase {
            Phase::Buy { side: buyer } if buyer == side && self.may_act(s, seat) => {
                ctx.say(format!(
                    "The {} player missed the deadline and buys nothing",
                    side.name()
                ));
                return chits::buy(s, ctx, side, &[]);
            }
            Phase::OffMap if side == Side::German => {
                offmap::stay(s, ctx);
                turn::after_offmap(s, ctx);
                return Ok(());
            }
            _ => {}
        }
        if s.phase == Phase::Activation
            && s.pending.is_none()
            && s.demolition.as_ref().is_some_and(|d| d.side == side)
        {
            impulse::demolition_pass(s, ctx, side, "missed the deadline and ");
            return Ok(());
        }
        if s.phase == Phase::Activation
            && s.pending.is_none()
            && s.placing().is_some_and(|(w, _)| w == side)
        {
            events::pass(s, ctx);
            return Ok(());
        }
        if let (Phase::Activation, None, Some(Wait::Routing(r))) = (&s.phase, &s.pending, &s.wait) {
            if r.side == side {
                let r = r.clone();
                return offmap::routing(s, ctx, side, &r, &Command::Pass);
            }
        }
        if s.phase == Phase::Activation && s.pending.is_none() && s.rout() == Some(side) {
            s.wait = None;
            ctx.say(format!(
                "The {} player names no routed Formation",
                side.name()
            ));
            return Ok(());
        }
        if s.phase == Phase::Activation
            && s.pending.is_none()
            && side == Side::Allied
            && s.mann.is_some()
        {
            return units::joe_mann(s, ctx, side, false);
        }
        if let (Phase::Activation, None, Some(Wait::Lost { unit, .. })) =
            (&s.phase, &s.pending, &s.wait)
        {
            if side == s.lost_mover() {
                let l = unit.clone();
                s.wait = None;
                ctx.say(format!(
                    "The {} player leaves the lost {l} where it is",
                    side.name()
                ));
                return Ok(());
            }
        }
        if s.phase == Phase::Activation && s.status_window() && side == Side::German {
            ctx.say("The German player missed the deadline: no status check");
            s.wait = None;
            return Ok(());
        }
        if s.phase != Phase::Activation
            || s.pending.is_some()
            || s.intelligence().is_some()
            || !self.may_act(s, seat)
        {
            return Err(rule(
                "deadlines",
                format!("the {} player cannot pass here", side.name()),
            ));
        }
        ctx.say(format!(
            "The {} player missed the deadline and passes",
            side.name()
        ));
        if s.window.is_some() {
            impulse::close_window(s, ctx);
            Ok(())
        } else {
            first_activation::roll_due(s, ctx)?;
            chits::draw(s, ctx)
        }
    }

    fn resign(&self, s: &mut State, seat: &Seat, ctx: &mut Ctx) -> Result<(), RuleError> {
        let side = Side::of(seat).ok_or_else(|| rule("seats", "not a seat"))?;
        if s.over || s.resigned.is_some() {
            return Err(rule("resign", "the game is over"));
        }
        s.resigned = Some(side);
        ctx.say(format!("The {} player resigns", side.name()));
        Ok(())
    }

    fn view(&self, s: &State, viewer: &Viewer) -> Value {
        // Sealed choices are commitments until revealed; the off-map display (5.0) is the
        // German's alone.
        text_board::view(s, viewer)
    }

    fn board_text(&self, s: &State, viewer: &Viewer) -> Option<String> {
        Some(text_board::draw(s, viewer))
    }

    fn board(
        &self,
        s: &State,
        viewer: &Viewer,
        context: &crate::engine::ruleset::BoardContext,
    ) -> Option<crate::engine::board::Board> {
        Some(drawn::board(s, viewer, context))
    }

    fn pointing(&self, s: &State, seat: &Seat) -> Vec<crate::engine::board::Pointed> {
        pointing::pointing(self, s, seat)
    }

    fn parse(&self, _s: &State, _seat: &Seat, text: &str) -> Result<Command, RuleError> {
        order::parse(text)
    }

    fn describe(&self, c: &Command) -> String {
        order::describe(c)
    }

    fn outcome(&self, s: &State) -> Outcome {
        if let Some(loser) = s.resigned {
            return Outcome::Finished {
                winners: vec![loser.other().seat()],
                scores: BTreeMap::new(),
                summary: format!("The {} player resigned", loser.name()),
            };
        }
        if s.over {
            // The scenario's last turn is over: victory points and the level (victory.rs).
            let t = victory::tally(s);
            return Outcome::Finished {
                winners: t.winner.map(Side::seat).into_iter().collect(),
                scores: [
                    ("allied".to_owned(), t.allied.total),
                    ("german".to_owned(), t.german.total),
                ]
                .into_iter()
                .collect(),
                summary: format!(
                    "The scenario ended at {}. {}{}",
                    s.clock(),
                    victory::line(s),
                    if s.scenario == "a-ride-in-the-country" && t.winner != Some(Side::Allied) {
                        " The Allied player did not win: the southern stream bridge (55.202/56.201) is unstable in later games (2.11; option southern_bridge_unstable)"
                    } else {
                        ""
                    }
                ),
            };
        }
        Outcome::Running
    }

    fn position(
        &self,
        setup: &Setup,
        text: &str,
        hidden: &mut DiceStream,
    ) -> Result<crate::engine::position::Positioned<State>, crate::engine::position::PositionError>
    {
        position::read(self, setup, text, hidden)
    }

    fn position_format(&self) -> &'static str {
        position::FORMAT
    }

    fn write_position(&self, state: &State) -> Option<String> {
        position::write::write(state)
    }

    fn random_command(&self, s: &State, seat: &Seat, rng: BotRng) -> Option<Command> {
        bot::random_command(s, seat, rng)
    }
}

/// `dzchange <zone>` (3.6): the Allied player, in the 0700 turn after the weather, once a day,
/// while drops are to come and before today's Air Drop? counters are placed.
fn check_dz_change(s: &State, side: Side) -> Result<(), RuleError> {
    let r = |m: &str| rule("3.6 Changing the Drop Location", m);
    if side != Side::Allied {
        return Err(r("only the Allied player changes his drop locations"));
    }
    if dz_option(s).is_none() {
        return Err(r(
            "the drop location is changed once, in the 0700 turn after the weather roll, while drops are to come and before today's Air Drop? counters are placed",
        ));
    }
    Ok(())
}

/// The `dzchange` option when 3.6 allows it now.
pub(crate) fn dz_option(s: &State) -> Option<String> {
    let open = s.time == turn::T0700
        && s.weather.is_some()
        && s.dz_tried != Some(s.day)
        && s.drops.iter().any(|d| d.arrived.is_none())
        && s.air_drop.as_ref().is_none_or(|c| c.day != s.day)
        && matches!(
            s.phase,
            Phase::AirDrop { .. } | Phase::SupplyDrop { .. } | Phase::Buy { side: Side::Allied }
        );
    open.then(|| format!("dzchange {}", s.supply.dz))
}
