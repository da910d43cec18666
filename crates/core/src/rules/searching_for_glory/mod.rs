//! Searching for Glory (version 1.03): a card-driven Napoleonic campaign where each player is a
//! general after personal glory. The specification is `../shared/seeds/002_…`; every decision
//! where the text is silent, every reconstructed value, and what this first slice does not yet
//! play: docs/rules/searching-for-glory.md.
//!
//! Seats are characters of the scenario (`napoleon`, `davout`, …): 3 to 6 of them, each side
//! at least one; the others are NPCs. A round: the Draw Phase (hidden stream), a sealed plan per
//! player (`plan 2 5 6`), the initiative (`initiative`), one operation per player in initiative
//! order (`march pfaffenhofen; attack abensberg`), the end of the round. Each operation is
//! announced, then held while a reactive window (1.e, `reactive.rs`) is open; its attack holds
//! again for a window before the battle's dice.

pub mod battle;
pub mod battle_cards;
pub mod battle_play;
pub mod bot;
pub mod data;
pub mod deck;
pub mod drawn;
pub mod hand;
pub mod npc;
pub mod operations;
pub mod order;
pub mod plan;
pub mod pointing;
pub mod position;
pub mod reactive;
pub mod reentry;
pub mod roles;
pub mod round;
pub mod setup;
pub mod sieges;
pub mod state;
pub mod talk;
pub mod text_board;
pub mod victory;
pub mod view;

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::engine::dice::DiceStream;
use crate::engine::ruleset::{
    newest, BotRng, Ctx, OptionInfo, Outcome, Prompt, PromptKind, RuleError, Rules, RulesetInfo,
    ScenarioInfo, Seat, Setup, Viewer,
};
use data::Side;
use order::Command;
use state::{Phase, Plan, State};

pub const ID: &str = "searching-for-glory";

pub struct SearchingForGlory;

/// The orders' grammar in brief, for emails and pages.
/// The options of an NPC's runner's prompt (3.4): the order's forms, the same whatever the
/// NPC's hand, which only its runner sees.
pub const NPC_OPERATION_FORMS: &[&str] = &[
    "march <lp>",
    "force-march <lp> [<lp>]",
    "attack <lp>",
    "harass <lp>",
    "rest",
    "gather",
    "entrench",
    "siege",
    "pass",
];

pub const GRAMMAR: &str = "plan <hand positions, at most 4, one colour each> (sealed) · with battle_cards=cards, when a card battle asks its commanders: battle-plan [attack <card>…] [; answer <enemy attack>=<card>|none …] [; cancel always|defeats|never] [; discard <card>…] [; withdraw <bp>] (sealed, for that battle, 4.f) · fight (a battle waiting, its battle plans open) · with battle_play=interactive, in a card battle: play <card> · discard <card> · pass (4.f–4.i) · initiative · enter <character> | enter none (an eliminated player, at a round's start) · an operation of clauses joined by ';': march <lp> · force-march <lp> [<lp>] · attack <lp> · decisive <lp> · gather · entrench · rest · blow <a>-<b> · repair <a>-<b> · harass <lp> · napoleon-defeated <lp> · good-weather · demoralize · chest · parlay · inform · flags · detach <n> · absorb [<n>] · pass · keep <hand positions, up to the role's retention> · siege · sortie (2.l) · strategic (the role's characteristic, III) · standing refuse|fight (your side's lone SP and NPCs attacked at a fortress, 2.l) · force-march <lp> absorb [<n>] <lp> (2.e) · in a reactive window: react <card> · pass · refuse (a defender at a fortress, before the battle's dice)";

impl SearchingForGlory {
    /// The players whose prompt is open now.
    fn to_act(&self, state: &State) -> Vec<usize> {
        if state.window.is_some() {
            return reactive::prompted(state);
        }
        // 4.f: a card battle waiting for its commanders.
        if let Some(waiting) = battle_play::to_act(state) {
            return waiting;
        }
        match &state.phase {
            // II.1.A.3: the eliminated who may re-enter are asked too.
            Phase::Plan => (0..state.players.len())
                .filter(|&i| {
                    let p = &state.players[i];
                    p.entering || (!p.out && p.plan == Plan::Waiting)
                })
                .collect(),
            Phase::Initiative => state.active().take(1).collect(),
            Phase::Operations { order, next } => order.get(*next).copied().into_iter().collect(),
            Phase::Npcs { .. } => state
                .npc
                .as_ref()
                .map(|n| n.runner)
                .filter(|&r| !state.players[r].out)
                .into_iter()
                .collect(),
            Phase::Ended => Vec::new(),
        }
    }

    /// Once every plan is in: the sealed ones are opened (the engine reveals them); with none
    /// sealed, straight to the initiative.
    fn plans_in(&self, state: &mut State, ctx: &mut Ctx) {
        if state.phase != Phase::Plan
            || state
                .active()
                .any(|i| state.players[i].plan == Plan::Waiting)
            || state.players.iter().any(|p| p.entering)
        {
            return;
        }
        let mut sealed = false;
        for p in &state.players {
            if let Plan::Sealed { commitment } = &p.plan {
                ctx.request_reveal(commitment.clone());
                sealed = true;
            }
        }
        if !sealed {
            self.all_open(state, ctx);
        }
    }

    fn all_open(&self, state: &mut State, ctx: &mut Ctx) {
        if state
            .players
            .iter()
            .any(|p| matches!(p.plan, Plan::Sealed { .. }))
        {
            return;
        }
        ctx.say("every plan is in and opened: determine the initiative");
        state.phase = Phase::Initiative;
    }

    /// Moves the operations on past the player (or NPC) who just acted (and any who are out);
    /// after the players' order come the NPCs' operations (3.4), then the round ends.
    fn next_operation(&self, state: &mut State, ctx: &mut Ctx) -> Result<(), RuleError> {
        // 3: an immediate victory (a capture) ends the game after the operation.
        if victory::check(state, false, ctx) {
            return Ok(());
        }
        loop {
            match &mut state.phase {
                Phase::Operations { order, next } => {
                    *next += 1;
                    match order.get(*next) {
                        Some(&i) if state.players[i].out => continue,
                        Some(_) => return Ok(()),
                        None => return npc::begin(state, ctx),
                    }
                }
                Phase::Npcs { .. } => return npc::advance(state, ctx),
                _ => return Ok(()),
            }
        }
    }

    /// Carries the pending operation on while no reactive window holds it: an open window that
    /// prompts nobody closes; a battle opens its window (1.e); a finished operation passes the
    /// turn on.
    fn proceed(&self, state: &mut State, ctx: &mut Ctx) -> Result<(), RuleError> {
        loop {
            if state.window.is_some() {
                if !reactive::prompted(state).is_empty() {
                    return Ok(());
                }
                // Nobody left to answer: the chain resolves (and prompts again) or it closes.
                reactive::settle(state, ctx);
                continue;
            }
            if state.pending.is_none() {
                return Ok(());
            }
            if battle_play::hold(state, ctx) {
                return Ok(());
            }
            if operations::resume(state, ctx) {
                return self.next_operation(state, ctx);
            }
            reactive::open(state, state::WindowKind::Battle, ctx);
        }
    }

    /// A play or a pass in the open reactive window (1.e).
    fn in_window(
        &self,
        state: &mut State,
        p: usize,
        command: &Command,
        ctx: &mut Ctx,
    ) -> Result<(), RuleError> {
        match command {
            Command::React { card } => {
                reactive::play(state, p, card, ctx)?;
                // 1.e: with nobody left to answer (every other player out), the card stands.
                self.proceed(state, ctx)
            }
            Command::Refuse => {
                sieges::refuse(state, p, ctx)?;
                self.proceed(state, ctx)
            }
            Command::Operation { clauses } if clauses[..] == [order::Clause::Pass] => {
                reactive::pass(state, p, ctx);
                self.proceed(state, ctx)
            }
            _ => Err(RuleError::new(
                "1.e Reactive cards",
                "a reactive window is open: play a reactive card of your hand ('react <card>') or 'pass'",
            )),
        }
    }

    /// If the phase's player to act is out (resigned, captured), moves on.
    fn skip_out(&self, state: &mut State, ctx: &mut Ctx) -> Result<(), RuleError> {
        if let Phase::Operations { order, next } = &state.phase {
            if order.get(*next).is_some_and(|&i| state.players[i].out) {
                return self.next_operation(state, ctx);
            }
        }
        Ok(())
    }
}

/// Does the pending battle wait for the operating player's `fight`, its plans open (4.f)?
pub(crate) fn battle_held(state: &State) -> bool {
    battle_play::held_for_fight(state)
}

/// Is the pending operation's battle at a fortress (2.l: the defence may refuse it)?
fn at_fortress(state: &State) -> bool {
    state
        .pending
        .as_ref()
        .and_then(|pd| pd.battle.as_ref())
        .is_some_and(|b| state.map().lp(&b.lp).is_some_and(|l| l.fortress))
}

/// The characters with the sides alternating (French, Austrian, French, …), so that the first
/// seats of the list, which a client may take as they come, play both sides.
/// What the lobby calls a character's seat: his name as the role card gives it (before its
/// title) and his side, "Napoleon Bonaparte (French side)".
fn role_and_side(character: &str) -> String {
    let Some(role) = data::role(character) else {
        return character.to_owned();
    };
    let name = role.name.split(',').next().unwrap_or(&role.name).trim();
    let side = match role.side {
        Side::French => "French",
        Side::Austrian => "Austrian",
    };
    format!("{name} ({side} side)")
}

fn interleaved(characters: &[String]) -> Vec<String> {
    let (french, austrian): (Vec<&String>, Vec<&String>) = characters
        .iter()
        .partition(|c| round::side_of(c) == Side::French);
    let mut out = Vec::new();
    for i in 0..french.len().max(austrian.len()) {
        out.extend(french.get(i).map(|c| (*c).clone()));
        out.extend(austrian.get(i).map(|c| (*c).clone()));
    }
    out
}

/// The rules versions this build plays, oldest first (docs/rules/searching-for-glory.md, "Rules
/// versions"): a game keeps the version it was created under for its whole life.
const VERSIONS: &[&str] = &["5", "6"];

impl Rules for SearchingForGlory {
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
            // 2: NPCs operate (3.4).
            // 3: the role cards' restrictions and glory conditions (III, data/role_rules.txt)
            // hold with roles=full: a version-2 log with such an order, or a battle, capture,
            // entry or round's end they pay for, folds differently. Also the option
            // battle_cards (4.), off by default.
            // 4: the sealed battle plans (`battle-plan`, 4.f). A version-3 log has none, and
            // with none every card battle plays by the doctrine as before: it folds the same.
            // 5: a battle plan per card battle, asked of the commanders when its window
            // closes (a version-4 log sent them in the Planning Phase and does not fold), and
            // option battle_play=interactive.
            // 6: a player besieged since the first attrition roll plays no reactive card
            // either (2.l: "can not play any card"); a version-5 log where one did does not
            // fold.
            version: newest(VERSIONS).into(),
            title: "Searching for Glory — generals of the Napoleonic Wars".into(),
            scenarios: data::scenarios()
                .iter()
                .map(|s| {
                    let seats = interleaved(&s.characters);
                    ScenarioInfo {
                        id: s.id.clone(),
                        title: s.title.clone(),
                        roles: seats.iter().map(|c| role_and_side(c)).collect(),
                        seats,
                        min_seats: 3,
                        max_seats: 6,
                        practice: false,
                    }
                })
                .collect(),
            options: vec![
                OptionInfo {
                    name: "deck_counts".into(),
                    description: "included: the slash counts are part of the first card's count (95 cards); additive: they are extra cards (104)".into(),
                    default: json!("included"),
                    choices: vec![json!("included"), json!("additive")],
                },
                OptionInfo {
                    name: "roles".into(),
                    description: "full: the role cards' battle and strategic characteristics, personal cards, restrictions and glory conditions (III, 1.b; reconstructed); plain: none of them".into(),
                    default: json!("full"),
                    choices: vec![json!("full"), json!("plain")],
                },
                OptionInfo {
                    name: "battle_cards".into(),
                    description: "dice: every battle by 2.m's dice; cards: the optional battle rules (4.), sides of 4 SP or more fighting with their nationality's battle deck (reconstructed)".into(),
                    default: json!("dice"),
                    choices: vec![json!("dice"), json!("cards")],
                },
                OptionInfo {
                    name: "battle_play".into(),
                    description: "with battle_cards=cards: sealed, each side's commander sends a sealed battle plan for each card battle, played out in one event (4.f); interactive, each commander chooses each card as it is played, one event a choice (4.f–4.i); the standing doctrine plays a side no player commands and a missed deadline".into(),
                    default: json!("sealed"),
                    choices: vec![json!("sealed"), json!("interactive")],
                },
                OptionInfo {
                    name: "npcs".into(),
                    description: "run: after the players, each NPC operates, run by the farthest player of its side from a hand drawn for it (3.4); stand: NPCs never operate and only fight when attacked".into(),
                    default: json!("run"),
                    choices: vec![json!("run"), json!("stand")],
                },
            ],
            grammar: GRAMMAR.into(),
        }
    }

    fn setup(&self, setup: &Setup, hidden: &mut DiceStream) -> Result<State, RuleError> {
        setup::setup(setup, hidden)
    }

    /// The set-up reads no version; the game's version is kept in the state for the rules
    /// gated on it later in the game.
    fn setup_version(
        &self,
        version: &str,
        setup: &Setup,
        hidden: &mut DiceStream,
    ) -> Result<State, RuleError> {
        let mut state = setup::setup(setup, hidden)?;
        state.version = crate::engine::ruleset::version_number(version)?;
        Ok(state)
    }

    fn prompts(&self, state: &State) -> Vec<Prompt> {
        self.to_act(state)
            .into_iter()
            .map(|i| {
                let p = &state.players[i];
                let (kind, decision, options) = match (&state.window, &state.phase) {
                    // The same prompt for every seat, holding a reactive card or not (1.e).
                    (Some(w), _) => (
                        PromptKind::Reaction,
                        format!(
                            "Round {}: reactive window ({}{}): play a reactive card of your hand or pass",
                            state.round,
                            match w.kind {
                                state::WindowKind::Announcement => "an operation is announced",
                                state::WindowKind::Battle => "before the battle's dice",
                            },
                            if w.chain.is_empty() { "" } else { "; a card may be nullified" }
                        ),
                        // 2.l: at a fortress, a defender may refuse; every seat is told alike.
                        if w.kind == state::WindowKind::Battle && w.chain.is_empty() && at_fortress(state) {
                            vec!["pass".into(), hand::REACT_FORM.into(), "refuse".into()]
                        } else {
                            vec!["pass".into(), hand::REACT_FORM.into()]
                        },
                    ),
                    // 4.f: a card battle waiting for its commanders.
                    (None, _) if battle_play::prompt(state, i).is_some() => {
                        battle_play::prompt(state, i).expect("a battle prompt")
                    }
                    (None, phase) => match phase {
                    Phase::Plan if p.entering => (
                        PromptKind::Turn,
                        format!(
                            "Round {}: your character was eliminated (II.1.A.3): re-enter as a character no player controls, beginning anew with no glory, or stay out",
                            state.round
                        ),
                        reentry::free(state)
                            .into_iter()
                            .map(|c| format!("enter {c}"))
                            .chain(["enter none".to_owned()])
                            .collect(),
                    ),
                    Phase::Plan => (
                        PromptKind::Sealed,
                        format!(
                            "Round {}: plan {}'s operations — up to 4 hand positions, one colour each (sealed)",
                            state.round, p.character
                        ),
                        // The hand is the seat's own: its page and mail offer plans of it
                        // (`hand::own_options`); the public prompt gives the form.
                        vec![hand::PLAN_FORM.into(), "plan none".into()],
                    ),
                    Phase::Initiative => (
                        PromptKind::Turn,
                        format!("Round {}: determine the initiative", state.round),
                        vec!["initiative".into()],
                    ),
                    // 3.4: the operations an NPC's hand allows would show that hand, and
                    // prompts are public (the game's summary): the runner is given the
                    // order's forms here, the legal operations in his own view and board.
                    Phase::Npcs { .. } => (
                        PromptKind::Turn,
                        format!(
                            "Round {}: run the NPC {}'s operation (3.4) from the hand drawn for it (the operations it allows are on your board)",
                            state.round,
                            state.operator(i).0
                        ),
                        NPC_OPERATION_FORMS.iter().map(|&f| f.to_owned()).collect(),
                    ),
                    _ => (
                        PromptKind::Turn,
                        format!("Round {}: {}'s operation", state.round, p.character),
                        bot::options(state, i),
                    ),
                    },
                };
                Prompt {
                    seat: p.seat.clone(),
                    kind,
                    decision,
                    options,
                    pass_on_timeout: true,
                }
            })
            .collect()
    }

    fn may_act(&self, state: &State, seat: &Seat) -> bool {
        self.to_act(state)
            .into_iter()
            .any(|i| &state.players[i].seat == seat)
    }

    fn seal(&self, command: &Command) -> Option<(Value, Command)> {
        match command {
            Command::Plan { positions: Some(p) } => {
                Some((json!({ "positions": p }), Command::Plan { positions: None }))
            }
            Command::BattlePlan { plan: Some(p) } => Some((
                json!({ "battle_plan": p }),
                Command::BattlePlan { plan: None },
            )),
            _ => None,
        }
    }

    fn apply(
        &self,
        state: &mut State,
        seat: &Seat,
        command: &Command,
        ctx: &mut Ctx,
    ) -> Result<(), RuleError> {
        let p = state.player(seat)?;
        if !self.to_act(state).contains(&p) {
            return Err(RuleError::new(
                "sequence of play",
                format!("it is not {seat}'s turn to act"),
            ));
        }
        if state.window.is_some() {
            return self.in_window(state, p, command, ctx);
        }
        // 4.f: a card battle waiting for its commanders' plans, `fight` or cards.
        if let Some(r) = battle_play::apply(state, p, command, ctx) {
            r?;
            return self.proceed(state, ctx);
        }
        match (command, &state.phase) {
            (Command::Fight, _) => Err(RuleError::new(
                "4.f Battle plans",
                "no battle waits to be fought: 'fight' follows the opening of a battle's plans",
            )),
            (Command::Play { .. } | Command::Discard { .. }, _) => Err(RuleError::new(
                "4.f Battle cards",
                "no battle is being played card by card now: 'play <card>' and 'discard <card>' answer a card battle's prompt (battle_play=interactive)",
            )),
            (Command::Enter { character }, Phase::Plan) => {
                reentry::enter(state, p, character.as_deref(), ctx)?;
                self.plans_in(state, ctx);
                Ok(())
            }
            (Command::BattlePlan { .. }, _) => Err(RuleError::new(
                if state.battle_cards {
                    "4.f Battle plans"
                } else {
                    "4. Optional battle rules"
                },
                match (state.battle_cards, state.interactive) {
                    (false, _) => "this game fights its battles with dice (battle_cards=dice): it has no battle plans",
                    (true, true) => "this game's card battles are played card by card (battle_play=interactive): it has no battle plans",
                    (true, false) => "a battle plan is sent for one card battle, when it asks its commanders (its reactive window closed); no battle asks now",
                },
            )),
            (Command::Plan { .. }, Phase::Plan) if state.players[p].entering => {
                Err(RuleError::new(
                    "II.1.A.3 Re-entry",
                    "your character was eliminated: first 'enter <character>' (or 'enter none'), then plan",
                ))
            }
            (Command::Plan { positions }, Phase::Plan) => {
                if let Some(positions) = positions {
                    plan::check(&state.players[p].hand, positions)?;
                }
                let commitment = ctx.commitment().map(str::to_owned).ok_or_else(|| {
                    RuleError::new(
                        "2. Planning",
                        "a plan is sealed by the server: send it as 'plan 1 4 5'",
                    )
                })?;
                state.players[p].plan = Plan::Sealed { commitment };
                ctx.say(format!("{} has planned", state.players[p].character));
                self.plans_in(state, ctx);
                Ok(())
            }
            (Command::Initiative, Phase::Initiative) => {
                let order = round::initiative(state, ctx);
                state.phase = Phase::Operations { order, next: 0 };
                Ok(())
            }
            (Command::Operation { clauses }, Phase::Operations { .. } | Phase::Npcs { .. }) => {
                let checked = operations::check(state, p, clauses)?;
                operations::announce(state, p, checked, ctx);
                reactive::open(state, state::WindowKind::Announcement, ctx);
                self.proceed(state, ctx)
            }
            (_, phase) => {
                let now = match phase {
                    Phase::Plan => "the Planning Phase: send 'plan <positions>'",
                    Phase::Initiative => "the initiative: send 'initiative'",
                    Phase::Operations { .. } => "your operation: march, attack, rest, pass …",
                    Phase::Npcs { .. } => "the NPC's operation: march, attack, rest, pass …",
                    Phase::Ended => "the end: the campaign is over",
                };
                Err(RuleError::new(
                    "sequence of play",
                    format!("that order does not fit now; it is {now}"),
                ))
            }
        }
    }

    fn reveal(
        &self,
        state: &mut State,
        seat: &Seat,
        commitment: &str,
        choice: &Value,
        ctx: &mut Ctx,
    ) -> Result<(), RuleError> {
        let p = state.player(seat)?;
        // 4.f: a battle plan opened for its battle.
        if let Some(r) = battle_play::reveal(state, commitment, choice, ctx) {
            return r;
        }
        if choice.get("battle_plan").is_some() {
            // A battle plan its battle never opened (the game ended first), opened at the end.
            ctx.say(format!(
                "{}'s unopened battle plan is opened at the end",
                state.players[p].character
            ));
            return Ok(());
        }
        if state.players[p].plan
            != (Plan::Sealed {
                commitment: commitment.to_owned(),
            })
        {
            return Err(RuleError::new("2. Planning", "no such sealed plan"));
        }
        let positions: Vec<usize> = serde_json::from_value(choice["positions"].clone())
            .map_err(|_| RuleError::new("2. Planning", "a plan's choice lists positions"))?;
        let cards = plan::check(&state.players[p].hand, &positions)?;
        let player = &mut state.players[p];
        let mut sorted = positions.clone();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        for at in sorted {
            player.hand.remove(at - 1);
        }
        player.planned = cards.into_iter().map(|c| (c, false)).collect();
        player.plan = Plan::Open;
        ctx.say_to(
            std::slice::from_ref(seat),
            format!(
                "your plan is opened: {}",
                player
                    .planned
                    .iter()
                    .map(|(k, _)| data::card(k).expect("a card").name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
        ctx.say(format!(
            "{} sets aside {} card(s)",
            player.character,
            player.planned.len()
        ));
        self.all_open(state, ctx);
        Ok(())
    }

    fn timeout(&self, state: &mut State, seat: &Seat, ctx: &mut Ctx) -> Result<(), RuleError> {
        let p = state.player(seat)?;
        if !self.to_act(state).contains(&p) {
            return Err(RuleError::new(
                "deadlines",
                format!("{seat} has nothing to do now"),
            ));
        }
        if state.window.is_some() {
            ctx.say(format!("{seat} missed the deadline and passes"));
            reactive::pass(state, p, ctx);
            return self.proceed(state, ctx);
        }
        // 4.f: the doctrine plays a commander who misses his deadline.
        if battle_play::timeout(state, p, ctx) {
            return self.proceed(state, ctx);
        }
        match &state.phase {
            Phase::Plan if state.players[p].entering => {
                ctx.say(format!(
                    "{seat} missed the deadline: no re-entry this round"
                ));
                reentry::enter(state, p, None, ctx)?;
                self.plans_in(state, ctx);
                Ok(())
            }
            Phase::Plan => {
                state.players[p].plan = Plan::Open;
                ctx.say(format!("{} missed the deadline: no plan", seat));
                self.plans_in(state, ctx);
                Ok(())
            }
            Phase::Initiative => self.apply(state, seat, &Command::Initiative, ctx),
            _ => {
                ctx.say(format!("{seat} missed the deadline and passes"));
                self.next_operation(state, ctx)
            }
        }
    }

    fn resign(&self, state: &mut State, seat: &Seat, ctx: &mut Ctx) -> Result<(), RuleError> {
        let p = state.player(seat)?;
        if state.players[p].out && state.players[p].eliminated {
            // II.1.A.3: an eliminated player gives up re-entering.
            let player = &mut state.players[p];
            player.eliminated = false;
            player.entering = false;
            ctx.say(format!("{seat} resigns: he will not re-enter"));
            self.plans_in(state, ctx);
            return Ok(());
        }
        if state.players[p].out {
            return Err(RuleError::new("resign", format!("{seat} is already out")));
        }
        state.players[p].out = true;
        let character = state.players[p].character.clone();
        state.cu_mut(&character).seat = None;
        ctx.say(format!("{seat} resigns: {character} is an NPC now"));
        // 4.f: the doctrine plays the sides he commanded in a card battle.
        battle_play::resign(state, p, ctx);
        if state.active().next().is_none() {
            state.phase = Phase::Ended;
            return Ok(());
        }
        match state.phase {
            Phase::Plan => self.plans_in(state, ctx),
            Phase::Operations { .. } | Phase::Npcs { .. } if state.pending.is_some() => {
                self.proceed(state, ctx)?
            }
            Phase::Operations { .. } => self.skip_out(state, ctx)?,
            Phase::Npcs { .. } if state.npc.as_ref().is_some_and(|n| n.runner == p) => {
                npc::rerun(state, ctx)?
            }
            _ => {}
        }
        Ok(())
    }

    fn view(&self, state: &State, viewer: &Viewer) -> Value {
        view::view(state, viewer)
    }

    fn board_text(&self, state: &State, viewer: &Viewer) -> Option<String> {
        Some(text_board::draw(state, viewer))
    }

    /// The drawn campaign map (`drawn.rs`): public, the same for every viewer.
    fn board(
        &self,
        state: &State,
        _viewer: &Viewer,
        _context: &crate::engine::ruleset::BoardContext,
    ) -> Option<crate::engine::board::Board> {
        Some(drawn::board(state))
    }

    /// Orders by pointing (`pointing.rs`): the operation's marches and attacks, for the player
    /// giving it, while no reactive window is open.
    fn pointing(&self, state: &State, seat: &Seat) -> Vec<crate::engine::board::Pointed> {
        let Some(p) = state.player_of(seat) else {
            return Vec::new();
        };
        let operating = matches!(state.phase, Phase::Operations { .. } | Phase::Npcs { .. });
        // Nothing to point at while a battle waits for its `fight` (4.f).
        if state.window.is_some()
            || state.pending.is_some()
            || !operating
            || !self.to_act(state).contains(&p)
        {
            return Vec::new();
        }
        pointing::orders(state, p)
    }

    /// The seat's own hand as cards (`hand.rs`): what pointing at each makes now.
    fn hand(&self, state: &State, seat: &Seat) -> crate::engine::board::Hand {
        let Some(p) = state.player_of(seat) else {
            return crate::engine::board::Hand::default();
        };
        if state.phase == Phase::Ended {
            return crate::engine::board::Hand::default();
        }
        hand::hand(state, p, self.to_act(state).contains(&p))
    }

    /// In a reactive window, the seat's own answering cards in place of `react <card>` (1.e:
    /// the public prompt is the same for every seat; `hand.rs`).
    fn own_options(&self, state: &State, seat: &Seat, prompt: &Prompt) -> Vec<String> {
        match state.player_of(seat) {
            Some(p) if &prompt.seat == seat => hand::own_options(state, p, prompt),
            _ => prompt.options.clone(),
        }
    }

    /// 1.e: a seat prompted in a reactive window that holds no card that can answer it passes,
    /// when it asked for that. Not before a battle at a fortress with no card played yet: a
    /// defender there may still refuse the battle (2.l), which is his to decide.
    fn auto_pass(&self, state: &State, seat: &Seat) -> Option<Command> {
        let p = state.player_of(seat)?;
        let w = state.window.as_ref()?;
        let may_refuse =
            w.kind == state::WindowKind::Battle && w.chain.is_empty() && at_fortress(state);
        (reactive::prompted(state).contains(&p)
            && reactive::playable(state, p).is_empty()
            && !may_refuse)
            .then(|| Command::Operation {
                clauses: vec![order::Clause::Pass],
            })
    }

    fn may_tell(&self, state: &State, from: &Seat, to: &Seat) -> Result<(), RuleError> {
        talk::may_tell(state, from, to)
    }

    fn parse(&self, _state: &State, _seat: &Seat, text: &str) -> Result<Command, RuleError> {
        order::parse(text)
    }

    fn describe(&self, command: &Command) -> String {
        order::describe(command)
    }

    fn outcome(&self, state: &State) -> Outcome {
        if state.phase != Phase::Ended {
            return Outcome::Running;
        }
        let scores = state.scores();
        let (won, summary) = victory::winners(state);
        let winners: Vec<Seat> = won.iter().map(|&i| state.players[i].seat.clone()).collect();
        Outcome::Finished {
            summary,
            winners,
            scores: scores
                .into_iter()
                .map(|(s, g)| (s.as_str().to_owned(), g))
                .collect::<BTreeMap<_, _>>(),
        }
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

    fn random_command(&self, state: &State, seat: &Seat, rng: BotRng) -> Option<Command> {
        bot::random_command(state, seat, rng)
    }
}
