//! For Honor and Glory: tactical land battles of the War of 1812 on hexes (Worthington Games,
//! 2005), one module per chapter of the rules. A game is one scenario, or a campaign (12.) of
//! several played in turn; the seats are `american` and `british`; each player turn is one
//! order — the AP roll, then unit actions until the AP run out. Decisions and interpretations:
//! docs/rules/for-honor-and-glory.md.

/// An outcome line, formatted only when someone will read it: a re-fold asks for none
/// (`Ctx::lines_wanted`), and formatting is most of what lines cost.
macro_rules! say {
    ($ctx:expr, $($arg:tt)*) => {{
        let ctx: &mut $crate::engine::ruleset::Ctx = $ctx;
        if ctx.lines_wanted() {
            ctx.say(format!($($arg)*));
        }
    }};
}

pub mod action_points;
pub mod battle;
pub mod bot;
pub mod campaign;
pub mod close_combat;
pub mod column;
pub mod combat;
pub mod drawn;
pub mod fire;
pub mod hex;
pub mod leaders;
pub mod limits;
pub mod los;
pub mod movement;
pub mod occupancy;
pub mod optional;
pub mod order;
pub mod position;
pub mod retreat;
pub mod scenario;
pub mod terrain;
pub mod text_board;
pub mod turn;
pub mod units;
pub mod victory;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::engine::dice::DiceStream;
use crate::engine::ruleset::{
    newest, BotRng, Ctx, OptionInfo, Outcome, Prompt, PromptKind, RuleError, Rules, RulesetInfo,
    ScenarioInfo, Seat, Setup, Viewer,
};
use battle::{Battle, BattleResult};
use campaign::Campaign;
use optional::Options;
use order::Order;
use units::Side;

pub struct ForHonorAndGlory;

pub const ID: &str = "for-honor-and-glory";

/// The game: the battle being fought, and the campaign it belongs to, if any.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub battle: Battle,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub campaign: Option<Campaign>,
    /// The game's end: the battle's (or the campaign's) result.
    pub finished: Option<BattleResult>,
}

fn side_of(seat: &Seat) -> Result<Side, RuleError> {
    Side::parse(seat.as_str()).ok_or_else(|| {
        RuleError::new(
            "seats",
            format!("'{seat}' is not a seat of this game: american or british"),
        )
    })
}

fn seat(side: Side) -> Seat {
    Seat::parse(side.name()).expect("side names are seat ids")
}

impl State {
    /// The game ends with `result`. The last turn's trails are not kept in the final state, so
    /// that it is the state rules version 3 wrote: its hash is in the log's `GameEnded`, and
    /// logs of games finished before the board drew trails verify as they always did.
    fn finish(&mut self, result: BattleResult) {
        self.battle.trails.clear();
        self.finished = Some(result);
    }

    /// A battle has ended: the next of the campaign, or the end of the game.
    fn settle(&mut self, ctx: &mut Ctx) {
        let Some(result) = self.battle.result.clone() else {
            return;
        };
        match &mut self.campaign {
            None => self.finish(result),
            Some(c) => match c.next(&self.battle) {
                Some(next) => {
                    say!(ctx, "the campaign goes on: {}", next.scen().title);
                    self.battle = next;
                }
                None => {
                    let totals = c.totals();
                    let winner = c.winner();
                    let summary = format!(
                        "{}: {} — campaign VP american {} british {}",
                        c.title,
                        winner.map_or("a draw".to_owned(), |w| format!("{} wins", w.name())),
                        totals[0],
                        totals[1]
                    );
                    ctx.say(summary.clone());
                    self.finish(BattleResult {
                        winner,
                        vp: result.vp,
                        campaign_vp: [totals[0] as u16, totals[1] as u16],
                        summary,
                    });
                }
            },
        }
    }
}

/// What the lobby calls the two seats.
fn sides() -> Vec<String> {
    vec!["American side".into(), "British side".into()]
}

/// What the ruleset is: its scenarios, campaigns and options.
fn info() -> RulesetInfo {
    let mut scenarios: Vec<ScenarioInfo> = scenario::shipped()
        .iter()
        .map(|s| ScenarioInfo {
            id: s.id.clone(),
            title: s.title.clone(),
            seats: vec!["american".into(), "british".into()],
            min_seats: 2,
            max_seats: 2,
            roles: sides(),
            // The rules text's worked examples and the drill ground (scenarios/examples.txt).
            practice: s.id == "drill" || s.id.starts_with("example-"),
        })
        .collect();
    scenarios.extend(scenario::campaigns().iter().map(|c| ScenarioInfo {
        id: c.id.clone(),
        title: format!("{} (campaign: {})", c.title, c.scenarios.join(", ")),
        seats: vec!["american".into(), "british".into()],
        min_seats: 2,
        max_seats: 2,
        roles: sides(),
        practice: false,
    }));
    RulesetInfo {
        id: ID.into(),
        version: newest(VERSIONS).into(),
        title: "For Honor and Glory — War of 1812 land battles".into(),
        scenarios,
        options: vec![
            OptionInfo {
                name: "optional_rules".into(),
                description: format!(
                    "the advanced/optional rules in force, e.g. [\"11.1\", \"11.9\"] or \"all\" (11.1-11.13): {}",
                    optional::RULES.iter().map(|(n, d)| format!("11.{n} {d}")).collect::<Vec<_>>().join("; ")
                ),
                default: json!([]),
                choices: Vec::new(),
            },
            OptionInfo {
                name: "command_ap".into(),
                description: "11.14: command action points set by hand, e.g. {\"american\": 4, \"british\": 3}".into(),
                default: json!({}),
                choices: Vec::new(),
            },
            OptionInfo {
                name: "hits_one_at_a_time".into(),
                description: "8.1.2 read the other way: each hit of a fire goes to the unit then highest in MP, so hits left over when a unit is eliminated go on to the next (default: all of a fire's hits go to the unit highest when it hit)".into(),
                default: json!(false),
                choices: Vec::new(),
            },
            OptionInfo {
                name: "indians_advance".into(),
                description: "3.4.6 read the other way: Indians may advance after close combat (default: they may not move in a turn they close, so they do not advance)".into(),
                default: json!(false),
                choices: Vec::new(),
            },
            OptionInfo {
                name: "flat_line_of_sight".into(),
                description: "8.2 without elevation: a hill between always blocks and a unit on a hill sees over nothing (default: hills see over lower hexes)".into(),
                default: json!(false),
                choices: Vec::new(),
            },
        ],
        grammar: GRAMMAR.into(),
    }
}

const GRAMMAR: &str = "One order per turn, actions separated by ';' or new lines: \
move B2 B3 B4 [+leader] · move B2/leader B3 · move B2/gun B3 · fire A3 at C5 [advance] · \
move-fire B2 B3 at C4 [+leader] · fire-move B2 at C3 then B1 [+leader] · close-combat D4 D5 [advance] · rally E1 · \
column E1 · line E1 · dragoons evade|stand · standing orders (no AP): tied hits to guns|infantry · \
retreat towards G3|edge · leaders retreat towards G3|units · pass (also ends a turn handed back with AP left)";

/// The rules versions this build plays, oldest first (docs/rules/for-honor-and-glory.md, "Rules
/// versions"): a game keeps the version it was created under for its whole life.
const VERSIONS: &[&str] = &["3"];

impl Rules for ForHonorAndGlory {
    fn versions(&self) -> &'static [&'static str] {
        VERSIONS
    }

    type State = State;
    type Command = Order;

    fn id(&self) -> std::borrow::Cow<'static, str> {
        ID.into()
    }

    fn info(&self) -> RulesetInfo {
        // Built once: every fold of a log asks for it.
        static INFO: std::sync::OnceLock<RulesetInfo> = std::sync::OnceLock::new();
        INFO.get_or_init(info).clone()
    }

    fn setup(&self, setup: &Setup, _hidden: &mut DiceStream) -> Result<State, RuleError> {
        let options = Options::from_json(&setup.options)?;
        let mut names: Vec<&str> = setup.seats.iter().map(|s| s.seat.as_str()).collect();
        names.sort_unstable();
        if names != ["american", "british"] {
            return Err(RuleError::new(
                "seats",
                "For Honor and Glory is played by two seats, american and british",
            ));
        }
        if let Some(started) = Campaign::start(&setup.scenario, options) {
            let (campaign, battle) = started?;
            return Ok(State {
                battle,
                campaign: Some(campaign),
                finished: None,
            });
        }
        let scen = scenario::find(&setup.scenario).ok_or_else(|| {
            RuleError::new(
                "4.2 Scenarios",
                format!(
                    "there is no scenario '{}'; see the ruleset's scenario list",
                    setup.scenario
                ),
            )
        })?;
        Ok(State {
            battle: Battle::new(scen, options)?,
            campaign: None,
            finished: None,
        })
    }

    fn prompts(&self, state: &State) -> Vec<Prompt> {
        if state.finished.is_some() {
            return Vec::new();
        }
        let b = &state.battle;
        // The board as the turn will meet it: a new turn starts with every unit fresh (6.1.4).
        let mut fresh = b.clone();
        if !b.held {
            turn::begin(&mut fresh, b.active);
        }
        let mut options: Vec<String> = bot::legal_actions(&fresh, b.active, false)
            .iter()
            .map(order::describe_action)
            .collect();
        options.truncate(60);
        options.push("pass".into());
        let decision = if b.held {
            format!(
                "{}, turn {} of {}: {} AP left of your turn (6.2.8) — the rest of your unit actions in order, or pass to end the turn",
                b.scen().title,
                b.turn,
                b.turns,
                b.ap
            )
        } else {
            format!(
                "{}, turn {} of {}: your order — the AP roll, then your unit actions in order",
                b.scen().title,
                b.turn,
                b.turns
            )
        };
        vec![Prompt {
            seat: seat(b.active),
            kind: PromptKind::Turn,
            decision,
            options,
            pass_on_timeout: true,
        }]
    }

    /// The side whose order the game waits for, as `prompts` says, without listing the
    /// actions it may take (a fold asks this for every event).
    fn may_act(&self, state: &State, seat: &Seat) -> bool {
        state.finished.is_none() && Side::parse(seat.as_str()) == Some(state.battle.active)
    }

    fn apply(
        &self,
        state: &mut State,
        seat: &Seat,
        order: &Order,
        ctx: &mut Ctx,
    ) -> Result<(), RuleError> {
        let side = side_of(seat)?;
        if state.finished.is_some() {
            return Err(RuleError::new("10. Victory", "the game is over"));
        }
        if side != state.battle.active {
            return Err(RuleError::new(
                "5. Sequence of play",
                format!("it is the {} player's turn", state.battle.active.name()),
            ));
        }
        // The whole order is checked on a copy of the battle before the AP die is rolled, so a
        // refused order changes nothing; the turn reuses the plans the check found up to the
        // first dice. An order re-folded from the game's own log passed this check when it was
        // played, and the check changes nothing but its copy: skipped then.
        if ctx.already_accepted() {
            turn::play(&mut state.battle, side, order, ctx);
        } else {
            let plans = turn::validate_plans(&state.battle, side, order)?;
            turn::play_checked(&mut state.battle, side, order, plans, ctx);
        }
        state.settle(ctx);
        Ok(())
    }

    fn timeout(&self, state: &mut State, seat: &Seat, ctx: &mut Ctx) -> Result<(), RuleError> {
        let side = side_of(seat)?;
        if state.finished.is_some() || side != state.battle.active {
            return Err(RuleError::new(
                "deadlines",
                format!("{seat} has no turn to pass"),
            ));
        }
        say!(ctx, "{seat} missed the deadline");
        turn::play(&mut state.battle, side, &Order::default(), ctx);
        state.settle(ctx);
        Ok(())
    }

    fn resign(&self, state: &mut State, seat: &Seat, ctx: &mut Ctx) -> Result<(), RuleError> {
        let side = side_of(seat)?;
        if state.finished.is_some() {
            return Err(RuleError::new("resign", "the game is already over"));
        }
        let b = &state.battle;
        let summary = format!("{} resigns; {} wins", side.name(), side.other().name());
        ctx.say(summary.clone());
        let result = BattleResult {
            winner: Some(side.other()),
            vp: [b.sides[0].vp, b.sides[1].vp],
            campaign_vp: [b.sides[0].vp, b.sides[1].vp],
            summary,
        };
        state.finish(result);
        Ok(())
    }

    fn board(
        &self,
        state: &State,
        _viewer: &Viewer,
        _context: &crate::engine::ruleset::BoardContext,
    ) -> Option<crate::engine::board::Board> {
        Some(drawn::board(state))
    }

    fn board_text(&self, state: &State, _viewer: &Viewer) -> Option<String> {
        Some(crate::rules::fit_for_mail(&text_board::text_board(state)))
    }

    /// Orders by pointing: the side to act's legal unit actions as its turn meets the board
    /// (a new turn starts with every unit fresh, 6.1.4, as for the prompts).
    fn pointing(&self, state: &State, seat_asking: &Seat) -> Vec<crate::engine::board::Pointed> {
        let b = &state.battle;
        if state.finished.is_some() || seat(b.active) != *seat_asking {
            return Vec::new();
        }
        let mut fresh = b.clone();
        if !b.held {
            turn::begin(&mut fresh, b.active);
        }
        drawn::pointing(&fresh, b.active)
    }

    fn view(&self, state: &State, _viewer: &Viewer) -> Value {
        // Everything on the table is open: there is nothing hidden to strip. The standing
        // orders too: at the table the owner makes these choices aloud, and the orders that
        // set them are in the game's log, which both seats read.
        let b = &state.battle;
        let map = b.map();
        let rows: Vec<String> = map
            .tiles
            .as_bytes()
            .chunks(usize::from(map.cols))
            .map(|r| String::from_utf8_lossy(r).into_owned())
            .collect();
        let units: Vec<Value> = b
            .units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.on_map())
            .map(|(i, u)| {
                json!({
                    "side": u.side.name(), "kind": u.kind.name(), "name": b.name(i), "hex": u.hex,
                    "mp": u.mp, "start_mp": u.start_mp, "face": u.face(), "column": u.column,
                })
            })
            .collect();
        json!({
            "scenario": b.scenario,
            "title": b.scen().title,
            "reconstructed": b.scen().reconstructed,
            "turn": b.turn,
            "turns": b.turns,
            "active": b.active.name(),
            "ap_left": if b.held { Some(b.ap) } else { None },
            "vp": { "american": b.sides[0].vp, "british": b.sides[1].vp },
            "targets": { "american": b.sides[0].target, "british": b.sides[1].target },
            "leaders_lost": { "american": b.sides[0].leaders_lost, "british": b.sides[1].leaders_lost },
            "standing_orders": { "american": b.sides[0].standing_orders(b.options.has(12)),
                                 "british": b.sides[1].standing_orders(b.options.has(12)) },
            "map": { "cols": map.cols, "rows": map.rows, "tiles": rows,
                     "legend": terrain::Terrain::ALL.iter().map(|t| format!("{} {}", t.effects().code, t.name())).collect::<Vec<_>>() },
            "units": units,
            "campaign": state.campaign,
            "finished": state.finished,
        })
    }

    fn parse(&self, _state: &State, _seat: &Seat, text: &str) -> Result<Order, RuleError> {
        order::parse(text)
    }

    fn describe(&self, command: &Order) -> String {
        order::describe(command)
    }

    fn outcome(&self, state: &State) -> Outcome {
        match &state.finished {
            None => Outcome::Running,
            Some(r) => Outcome::Finished {
                winners: r.winner.map(seat).into_iter().collect(),
                scores: BTreeMap::from([
                    ("american".to_owned(), i64::from(r.campaign_vp[0])),
                    ("british".to_owned(), i64::from(r.campaign_vp[1])),
                ]),
                summary: r.summary.clone(),
            },
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

    fn random_command(&self, state: &State, seat: &Seat, rng: BotRng) -> Option<Order> {
        let side = Side::parse(seat.as_str())?;
        if state.finished.is_some() || side != state.battle.active {
            return None;
        }
        Some(bot::random_order(&state.battle, side, rng))
    }
}
