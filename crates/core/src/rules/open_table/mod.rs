//! The open table: a verifiable dice and turn service for any wargame that has no ruleset here
//! yet — the email dice server wargamers use beside VASSAL. Seats take turns in a set order (or
//! in any order, an option); a move is free text with any dice rolled and proven; a seat may seal
//! a hidden note now and reveal it later, and may pass the turn to a named seat. The game ends
//! when every seat still playing proposes the same result. From rules version 3 a table may
//! have components (decks, cups of chits) given at creation, and hands kept private to each
//! seat (`components.rs`, `table.rs`, `cards.rs`). Decisions: docs/rules/open-table.md.

pub mod board;
mod bot;
pub mod cards;
pub mod components;
pub mod dice_expr;
mod hand;
pub mod order;
pub mod position;
pub mod table;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::engine::dice::DiceStream;
use crate::engine::ruleset::{
    newest, BoardContext, BotRng, Ctx, OptionInfo, Outcome, Prompt, PromptKind, RuleError, Rules,
    RulesetInfo, ScenarioInfo, Seat, Setup, Viewer,
};
use cards::{Acting, CardOp};
use dice_expr::DiceExpr;
use order::{Move, Proposal, RollRequest};
use table::Table;

pub struct OpenTable;

pub const ID: &str = "open-table";

/// Turn order, chosen at creation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    /// Seats act in the order they were listed, one after another.
    Fixed,
    /// Any seat may move at any time.
    Free,
}

/// A note sealed at the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Note {
    pub number: usize,
    pub owner: Seat,
    pub commitment: String,
    pub sealed_at_move: u64,
    pub revealed: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub seats: Vec<Seat>,
    pub order: Order,
    /// Index into `seats` of the seat to act (fixed order).
    pub to_act: usize,
    pub moves: u64,
    pub notes: Vec<Note>,
    pub proposals: BTreeMap<Seat, Proposal>,
    pub resigned: Vec<Seat>,
    pub finished: Option<Proposal>,
    /// The expressions of the latest move that rolled, in the order rolled, so that the dice
    /// tray sums each expression on its own (`roll 3d6+1; roll d100` is two sums, not one).
    #[serde(default)]
    pub last_rolls: Vec<RolledExpression>,
    /// The players' names, seat by seat (rules version 2): what the log, the prompts, the result
    /// and the board call a seat. Empty in a game of version 1, which calls seats by their ids.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
    /// The rules version from version 3 on; 0 in a game of version 1 or 2 (which `names`
    /// tells apart), so that their states stay as they were.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub version: u8,
    /// The decks, cups and hands (version 3, a table with components); empty otherwise.
    #[serde(default, skip_serializing_if = "Table::is_empty")]
    pub table: Table,
}

fn is_zero(v: &u8) -> bool {
    *v == 0
}

/// One dice expression of a move as rolled: what was asked, how many dice it took, its total.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RolledExpression {
    /// The expression with its label, as the log line writes it: `3d6+1 (attack)`.
    pub asked: String,
    pub dice: usize,
    pub total: i64,
}

impl State {
    /// What the table calls `seat`: its player's name (version 2), or its id (version 1, or a
    /// seat not at the table).
    pub fn name<'s>(&'s self, seat: &'s Seat) -> &'s str {
        self.seats
            .iter()
            .position(|s| s == seat)
            .and_then(|i| self.names.get(i))
            .map_or(seat.as_str(), String::as_str)
    }

    /// The names of `seats` joined as a sentence says them: "Anna", "Anna and Ben", "Anna, Ben and Cy".
    fn names_of(&self, seats: &[Seat]) -> String {
        let names: Vec<&str> = seats.iter().map(|s| self.name(s)).collect();
        crate::engine::words::and_list(&names)
    }

    fn playing(&self) -> impl Iterator<Item = &Seat> {
        self.seats.iter().filter(|s| !self.resigned.contains(s))
    }

    fn advance_from(&mut self, index: usize) {
        let n = self.seats.len();
        for step in 1..=n {
            let i = (index + step) % n;
            if !self.resigned.contains(&self.seats[i]) {
                self.to_act = i;
                return;
            }
        }
    }

    fn settle(&mut self) {
        let playing: Vec<Seat> = self.playing().cloned().collect();
        if playing.len() == 1 && self.seats.len() > 1 {
            self.finished = Some(Proposal::Win { winners: playing });
            return;
        }
        let mut standing = playing.iter().map(|s| self.proposals.get(s));
        if let Some(Some(first)) = standing.next() {
            if standing.all(|p| p == Some(first)) {
                self.finished = Some(first.clone());
            }
        }
    }
}

fn rule(message: impl Into<String>) -> RuleError {
    RuleError::new("open table", message)
}

/// The rules versions this build plays, oldest first (docs/rules/open-table.md, "Rules
/// versions"): a game keeps the version it was created under for its whole life.
/// Version 2 calls seats by their players' names (`State::names`); version 3 adds components
/// (decks, cups, hands) and their operations to the order language.
const VERSIONS: &[&str] = &["1", "2", "3"];

impl Rules for OpenTable {
    fn versions(&self) -> &'static [&'static str] {
        VERSIONS
    }

    type State = State;
    type Command = Move;

    fn id(&self) -> std::borrow::Cow<'static, str> {
        ID.into()
    }

    fn info(&self) -> RulesetInfo {
        RulesetInfo {
            id: ID.into(),
            version: newest(VERSIONS).into(),
            title: "Open table — dice and turns for any wargame".into(),
            scenarios: vec![ScenarioInfo {
                id: "default".into(),
                title: "Any wargame: seats named by the players".into(),
                seats: Vec::new(),
                min_seats: 1,
                max_seats: 16,
                roles: Vec::new(),
                practice: false,
            }],
            options: vec![
                OptionInfo {
                    name: "order".into(),
                    description: "fixed: seats act in the order listed; free: any seat may move at any time".into(),
                    default: json!("fixed"),
                    choices: vec![json!("fixed"), json!("free")],
                },
                OptionInfo {
                    name: "components".into(),
                    description: "decks and cups of chits, one statement a line: deck <name> [title] · card [<n>x] <name> [| <text>] · set <name> (cards held aside) · cup <name> · chit [<n>x] <name> (docs/rules/open-table.md, \"Components\")".into(),
                    default: json!(""),
                    choices: Vec::new(),
                },
            ],
            grammar: "Free text, then one clause per line: roll 2d6 [label] · seal <note> · reveal <n> · next <seat> · result win <seat…> | result draw; with components: shuffle [deck] · draw [n] [face up] [from deck] · deal n [from deck] · look [n] [at deck] · play|show|discard <card> · return <card> to top|to bottom|shuffled · reshuffle [deck] · give <card> to <seat> · add <set> [to deck]".into(),
        }
    }

    fn setup(&self, setup: &Setup, hidden: &mut DiceStream) -> Result<State, RuleError> {
        if setup.scenario != "default" {
            return Err(RuleError::new(
                "scenario",
                format!(
                    "the open table has one scenario, 'default', not '{}'",
                    setup.scenario
                ),
            ));
        }
        let order = match setup.options.get("order") {
            None | Some(Value::Null) => Order::Fixed,
            Some(v) => serde_json::from_value(v.clone()).map_err(|_| {
                RuleError::new(
                    "options",
                    format!("order must be \"fixed\" or \"free\", not {v}"),
                )
            })?,
        };
        if let Some(obj) = setup.options.as_object() {
            if let Some(unknown) = obj
                .keys()
                .find(|k| k.as_str() != "order" && k.as_str() != "components")
            {
                return Err(RuleError::new(
                    "options",
                    format!(
                        "the open table has no option '{unknown}'; it knows 'order' and 'components'"
                    ),
                ));
            }
        }
        let table = match setup.options.get("components") {
            None | Some(Value::Null) => Table::default(),
            Some(Value::String(text)) if text.trim().is_empty() => Table::default(),
            Some(Value::String(text)) => {
                let defs = components::parse(text).map_err(|e| RuleError::new("options", e))?;
                let mut draw = |n: u32| -> Result<u32, RuleError> { Ok(hidden.roll(n)) };
                Table::set_up(&defs, &mut draw)?
            }
            Some(v) => {
                return Err(RuleError::new(
                    "options",
                    format!("components is a text (decks and cups, one statement a line), not {v}"),
                ))
            }
        };
        if setup.seats.is_empty() || setup.seats.len() > 16 {
            return Err(RuleError::new(
                "seats",
                "the open table seats 1 to 16 players",
            ));
        }
        Ok(State {
            seats: setup.seats.iter().map(|s| s.seat.clone()).collect(),
            order,
            to_act: 0,
            moves: 0,
            notes: Vec::new(),
            proposals: BTreeMap::new(),
            resigned: Vec::new(),
            finished: None,
            last_rolls: Vec::new(),
            names: setup.seats.iter().map(|s| s.name.clone()).collect(),
            version: 3,
            table,
        })
    }

    /// Version 1 names seats by their ids; versions 1 and 2 have no components.
    fn setup_version(
        &self,
        version: &str,
        setup: &Setup,
        hidden: &mut DiceStream,
    ) -> Result<State, RuleError> {
        if version == "1" || version == "2" {
            if let Some(Value::String(text)) = setup.options.get("components") {
                if !text.trim().is_empty() {
                    return Err(RuleError::new(
                        "options",
                        format!("components need open-table rules version 3; this game is of version {version}"),
                    ));
                }
            }
        }
        let mut state = self.setup(setup, hidden)?;
        if version == "1" || version == "2" {
            state.version = 0;
        }
        if version == "1" {
            state.names.clear();
        }
        Ok(state)
    }

    fn prompts(&self, state: &State) -> Vec<Prompt> {
        if state.finished.is_some() {
            return Vec::new();
        }
        let seats: Vec<Seat> = match state.order {
            Order::Fixed => vec![state.seats[state.to_act].clone()],
            Order::Free => state.playing().cloned().collect(),
        };
        seats
            .into_iter()
            .map(|seat| Prompt {
                decision: format!(
                    "{} to move: free text, dice, sealed notes",
                    state.name(&seat)
                ),
                // Orders as they stand, each accepted as it is (a page offers them as buttons);
                // the grammar tells the rest (free text, `seal <note>`, `next <seat>` …).
                options: vec![
                    "roll 2d6".into(),
                    "roll 1d6 to hit".into(),
                    "result draw".into(),
                ],
                kind: PromptKind::Turn,
                pass_on_timeout: true,
                seat,
            })
            .collect()
    }

    fn may_act(&self, state: &State, seat: &Seat) -> bool {
        state.finished.is_none()
            && match state.order {
                Order::Fixed => &state.seats[state.to_act] == seat,
                Order::Free => !state.resigned.contains(seat),
            }
    }

    fn seal(&self, command: &Move) -> Option<(Value, Move)> {
        let note = command.seal.as_ref()?;
        let public = Move {
            seal: None,
            sealed_note: true,
            ..command.clone()
        };
        Some((json!({ "note": note }), public))
    }

    fn apply(
        &self,
        state: &mut State,
        seat: &Seat,
        m: &Move,
        ctx: &mut Ctx,
    ) -> Result<(), RuleError> {
        // Everything is checked before the first die is drawn.
        if m.text.is_empty()
            && m.rolls.is_empty()
            && m.seal.is_none()
            && !m.sealed_note
            && m.reveal.is_empty()
            && m.result.is_none()
            && m.next.is_none()
            && m.cards.is_empty()
        {
            return Err(rule("an empty move: write what you do, roll dice, seal or reveal a note, or propose a result"));
        }
        if m.text.len() > 20_000 {
            return Err(rule("a move's text is at most 20,000 characters"));
        }
        if m.rolls.len() > 50 {
            return Err(rule("roll at most 50 expressions in one move"));
        }
        for r in &m.rolls {
            r.dice.checked().map_err(rule)?;
        }
        for n in &m.reveal {
            let note = state
                .notes
                .get(n.wrapping_sub(1))
                .ok_or_else(|| rule(format!("there is no note {n}")))?;
            if &note.owner != seat {
                return Err(rule(format!(
                    "note {n} is {}'s; only the seat that sealed a note reveals it",
                    note.owner
                )));
            }
            if note.revealed.is_some() {
                return Err(rule(format!("note {n} is already revealed")));
            }
        }
        if let Some(next) = &m.next {
            if state.order == Order::Free {
                return Err(rule(
                    "in free order every seat may move at any time; there is no turn to pass",
                ));
            }
            if !state.seats.contains(next) || state.resigned.contains(next) {
                return Err(rule(format!(
                    "'{next}' is not a seat still playing at this table"
                )));
            }
        }
        if let Some(Proposal::Win { winners }) = &m.result {
            if let Some(w) = winners.iter().find(|w| !state.seats.contains(w)) {
                return Err(rule(format!("'{w}' is not a seat at this table")));
            }
        }
        let sealing = m.seal.is_some() || m.sealed_note;
        let commitment = ctx.commitment().map(str::to_owned);
        if sealing && commitment.is_none() {
            return Err(rule(
                "a sealed note must be sealed by the server; send it as 'seal <note>'",
            ));
        }

        if !m.cards.is_empty() && state.table.is_empty() {
            return Err(rule(
                "this table has no decks or cups: they are given as the game's components when it is created",
            ));
        }
        if m.cards.len() > 20 {
            return Err(rule("at most 20 card operations in one move"));
        }
        // The card operations come before any die: a refusal of one leaves the move unplayed.
        let (table, said) = carry_out(state, seat, &m.cards, ctx)?;

        state.moves += 1;
        let who = state.name(seat).to_owned();
        if !m.text.is_empty() {
            ctx.say(format!("{who}: {}", m.text));
        }
        if let Some(table) = table {
            state.table = table;
        }
        for line in said {
            match line.to {
                None => ctx.say(line.text),
                Some(to) => ctx.say_to(&to, line.text),
            }
        }
        if !m.rolls.is_empty() {
            state.last_rolls.clear();
        }
        for RollRequest { dice, label } in &m.rolls {
            let faces = ctx.roll_many(dice.count as usize, dice.sides);
            ctx.say(roll_line(&who, dice, label, &faces));
            state.last_rolls.push(RolledExpression {
                asked: if label.is_empty() {
                    dice.to_string()
                } else {
                    format!("{dice} ({label})")
                },
                dice: faces.len(),
                total: faces.iter().map(|&f| i64::from(f)).sum::<i64>() + dice.modifier,
            });
        }
        if let Some(commitment) = commitment.filter(|_| sealing) {
            let number = state.notes.len() + 1;
            state.notes.push(Note {
                number,
                owner: seat.clone(),
                commitment: commitment.clone(),
                sealed_at_move: state.moves,
                revealed: None,
            });
            ctx.say(format!(
                "{who} seals note {number} (commitment {})",
                &commitment[..16]
            ));
        }
        for n in &m.reveal {
            ctx.request_reveal(state.notes[n - 1].commitment.clone());
        }
        if let Some(p) = &m.result {
            ctx.say(format!("{who} proposes {}", describe_proposal(state, p)));
            state.proposals.insert(seat.clone(), p.clone());
        }
        match (&m.next, state.order) {
            (Some(next), _) => {
                state.to_act = state
                    .seats
                    .iter()
                    .position(|s| s == next)
                    .expect("checked above");
                ctx.say(format!("{who} passes the turn to {}", state.name(next)));
            }
            (None, Order::Fixed) => {
                let me = state
                    .seats
                    .iter()
                    .position(|s| s == seat)
                    .expect("a seat of the game");
                state.advance_from(me);
            }
            (None, Order::Free) => {}
        }
        state.settle();
        Ok(())
    }

    fn reveal(
        &self,
        state: &mut State,
        seat: &Seat,
        commitment: &str,
        choice: &Value,
        ctx: &mut Ctx,
    ) -> Result<(), RuleError> {
        let note = state
            .notes
            .iter_mut()
            .find(|n| n.commitment == commitment)
            .ok_or_else(|| rule("no such sealed note"))?;
        let text = choice
            .get("note")
            .and_then(Value::as_str)
            .ok_or_else(|| rule("a note's choice has a 'note' text"))?;
        note.revealed = Some(text.to_owned());
        let number = note.number;
        ctx.say(format!(
            "{} reveals note {number}: {text}",
            state.name(seat)
        ));
        Ok(())
    }

    fn timeout(&self, state: &mut State, seat: &Seat, ctx: &mut Ctx) -> Result<(), RuleError> {
        if state.order == Order::Fixed {
            let me = state
                .seats
                .iter()
                .position(|s| s == seat)
                .expect("a seat of the game");
            state.advance_from(me);
        }
        ctx.say(format!(
            "{} missed the deadline and passes",
            state.name(seat)
        ));
        Ok(())
    }

    fn resign(&self, state: &mut State, seat: &Seat, ctx: &mut Ctx) -> Result<(), RuleError> {
        if state.resigned.contains(seat) {
            return Err(rule(format!("{} has already resigned", state.name(seat))));
        }
        state.resigned.push(seat.clone());
        state.proposals.remove(seat);
        ctx.say(format!("{} resigns", state.name(seat)));
        if state.seats.get(state.to_act) == Some(seat) {
            let me = state.to_act;
            state.advance_from(me);
        }
        state.settle();
        Ok(())
    }

    fn view(&self, state: &State, viewer: &Viewer) -> Value {
        // A sealed note's text stays in the server's secrets until it is revealed; a hand's
        // cards are shown to their seat alone (`Table::view`).
        let to_act: Vec<&Seat> = match state.order {
            Order::Fixed if state.finished.is_none() => vec![&state.seats[state.to_act]],
            Order::Free if state.finished.is_none() => state.playing().collect(),
            _ => Vec::new(),
        };
        let mut view = json!({
            "seats": state.seats,
            "order": state.order,
            "to_act": to_act,
            "moves": state.moves,
            "notes": state.notes,
            "proposals": state.proposals,
            "resigned": state.resigned,
            "finished": state.finished,
        });
        if !state.table.is_empty() {
            view["table"] = state.table.view(viewer);
        }
        view
    }

    fn hand(&self, state: &State, seat: &Seat) -> crate::engine::board::Hand {
        hand::hand_of(state, seat)
    }

    fn board_svg(&self, state: &State, _viewer: &Viewer, context: &BoardContext) -> Option<String> {
        Some(board::draw(state, context))
    }

    fn parse(&self, state: &State, seat: &Seat, text: &str) -> Result<Move, RuleError> {
        let mut m = order::parse_with(text, !state.table.is_empty())?;
        cards::by_place(&mut m.cards, &state.table, seat);
        Ok(m)
    }

    fn describe(&self, command: &Move) -> String {
        order::describe(command)
    }

    fn outcome(&self, state: &State) -> Outcome {
        match &state.finished {
            None => Outcome::Running,
            Some(p) => Outcome::Finished {
                winners: match p {
                    Proposal::Win { winners } => winners.clone(),
                    Proposal::Draw => Vec::new(),
                },
                scores: BTreeMap::new(),
                summary: format!("The table agreed on {}", describe_proposal(state, p)),
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
        position::write(state)
    }

    fn random_command(&self, state: &State, seat: &Seat, rng: BotRng) -> Option<Move> {
        if state.finished.is_some() || state.resigned.contains(seat) {
            return None;
        }
        let mut m = Move {
            text: format!("move {}", rng(1000)),
            ..Move::default()
        };
        for _ in 0..rng(3) {
            let sides = [2, 6, 10, 20, 100][rng(5)];
            m.rolls.push(RollRequest {
                dice: DiceExpr {
                    count: 1 + rng(4) as u32,
                    sides,
                    modifier: rng(3) as i64 - 1,
                },
                label: String::new(),
            });
        }
        if rng(5) == 0 {
            m.seal = Some(format!("secret {}", rng(1000)));
        }
        let mine: Vec<usize> = state
            .notes
            .iter()
            .filter(|n| &n.owner == seat && n.revealed.is_none())
            .map(|n| n.number)
            .collect();
        if !mine.is_empty() && rng(3) == 0 {
            m.reveal.push(mine[rng(mine.len())]);
        }
        if state.order == Order::Fixed && rng(6) == 0 {
            let playing: Vec<&Seat> = state.playing().collect();
            m.next = Some(playing[rng(playing.len())].clone());
        }
        if rng(20) == 0 {
            m.result = Some(Proposal::Draw);
        }
        if !state.table.is_empty() {
            bot::random_cards(state, seat, &mut m, rng);
        }
        Some(m)
    }
}

fn describe_proposal(state: &State, p: &Proposal) -> String {
    match p {
        Proposal::Draw => "a draw".into(),
        // Version 1 joins the winners' ids with "and" only.
        Proposal::Win { winners } if state.names.is_empty() => {
            let names: Vec<_> = winners.iter().map(Seat::as_str).collect();
            format!("a win for {}", names.join(" and "))
        }
        Proposal::Win { winners } => format!("a win for {}", state.names_of(winners)),
    }
}

fn roll_line(who: &str, dice: &DiceExpr, label: &str, faces: &[u32]) -> String {
    let total: i64 = faces.iter().map(|&f| i64::from(f)).sum::<i64>() + dice.modifier;
    let shown: Vec<String> = faces.iter().map(u32::to_string).collect();
    let modifier = match dice.modifier {
        0 => String::new(),
        m if m > 0 => format!(" + {m}"),
        m => format!(" - {}", -m),
    };
    let label = if label.is_empty() {
        String::new()
    } else {
        format!(" ({label})")
    };
    format!(
        "{who} rolls {dice}{label}: {}{modifier} = {total}",
        shown.join(" + ")
    )
}

/// Carries out a move's card operations on a copy of the table: the table they leave and the
/// lines they say, or the refusal of the first that cannot be carried out.
fn carry_out(
    state: &State,
    seat: &Seat,
    ops: &[CardOp],
    ctx: &mut Ctx,
) -> Result<(Option<Table>, Vec<cards::Said>), RuleError> {
    if ops.is_empty() {
        return Ok((None, Vec::new()));
    }
    let mut table = state.table.clone();
    let playing: Vec<Seat> = state.playing().cloned().collect();
    let name = |s: &Seat| state.name(s).to_owned();
    let mut hidden = |n: u32| ctx.hidden(n);
    let mut acting = Acting {
        seat,
        playing: &playing,
        seats: &state.seats,
        name: &name,
        hidden: &mut hidden,
        said: Vec::new(),
    };
    for op in ops {
        cards::perform(&mut table, op, &mut acting)?;
    }
    let said = acting.said;
    table.settle();
    Ok((Some(table), said))
}
