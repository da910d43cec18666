//! Creating a game: seats checked and named, the ruleset's setup folded, each seat's secret token
//! made and shown once, the first events appended with their secrets and notices.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use utoipa::ToSchema;

use super::clock::{ClockChoice, ClockPolicy};
use crate::engine::canonical::{random32, sha256_hex};
use crate::engine::event::Event;
use crate::engine::game::{Game, CHAIN_LENGTH};
use crate::engine::ruleset::{ScenarioInfo, Seat, SeatDef, Setup};
use crate::store::{Append, GameId, GameRecord, OutboxRecord, SeatRecord};

use super::moves::turn_notices;
use super::{input, links, outbox, players, secrets, Games, Problem, Result, ServiceError};

/// The longest seat name, in characters.
pub const MAX_NAME: usize = 100;

/// A seat asked for at creation.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct NewSeat {
    /// The seat id; for a scenario with fixed seats one of them. Omitted: where the scenario
    /// fixes its seats, the first of them no other seat names (its roles in order); elsewhere
    /// an id made from the name.
    #[serde(default)]
    pub seat: Option<String>,
    #[schema(min_length = 1, max_length = 100)]
    pub name: String,
    #[serde(default)]
    pub email: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct NewGame {
    /// The game's name, as players read it in pages, subjects and webhook bodies (up to 200
    /// characters, any script). Without one: "<ruleset title> — <seat names>".
    #[serde(default)]
    #[schema(max_length = 200)]
    pub name: Option<String>,
    /// A ruleset id (`open-table`, …).
    pub ruleset: String,
    /// The scenario's id; omitted or empty: the ruleset's first (`GET /api/rulesets` lists
    /// them).
    #[serde(default)]
    pub scenario: String,
    /// The ruleset's options (`GET /api/rulesets` lists each with its default). The open table
    /// takes `order` (`fixed` or `free`) and, from its rules version 3, `components`: its decks
    /// and cups of chits as text, one statement a line (`deck strategy`, `card 3x Ambush |
    /// Play before a battle`, `set late-war`, `cup morale`, `chit 2x Shaken`), read with an
    /// error naming the line (docs/rules/open-table.md, "Components").
    #[serde(default)]
    #[schema(value_type = Object, example = json!({"order": "fixed", "components": "deck strategy\ncard 3x Ambush | Play before a battle\ncard Forced March\ncup morale\nchit 2x Shaken"}))]
    pub options: Value,
    pub seats: Vec<NewSeat>,
    /// The game's clock: a preset (`relaxed`, `standard`, `brisk`) or a policy spelled out.
    /// Without one the game has no deadlines.
    #[serde(default)]
    pub clock: Option<ClockChoice>,
}

/// A seat's secret token and link: shown once, at creation.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SeatAccess {
    pub seat: String,
    pub name: String,
    /// The seat's own token: its key for programs that play through the API (a bearer token).
    pub token: String,
    /// The seat's link, for its player: it carries a signed seat link token, which a claim of
    /// the seat, a new link and signing out everywhere revoke (docs/web.md, "Seat links").
    pub link: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct CreatedGame {
    #[schema(value_type = String)]
    pub game_id: GameId,
    pub name: String,
    pub seats: Vec<SeatAccess>,
}

impl Games {
    /// Everything `create` would refuse in `req` before setting the game up (the rules' own
    /// checks of the set-up aside), each naming its field; none when it would go on. For a
    /// face that has found problems of its own, to name them all in one answer.
    pub fn problems_of(req: &NewGame) -> Vec<Problem> {
        match check(req) {
            Ok(_) => Vec::new(),
            Err(ServiceError::Invalid(problems)) => problems,
            Err(e) => vec![Problem::new("", e.to_string())],
        }
    }

    /// Creates a game: each seat's token and link are in the answer and nowhere else. A
    /// request with anything wrong is refused with every problem found (`Invalid`), each
    /// naming its field, and nothing is made.
    pub async fn create(&self, req: NewGame) -> Result<CreatedGame> {
        let Checked {
            ruleset,
            scenario,
            name,
            seats,
            options,
            clock,
        } = check(&req)?;
        let info = ruleset.info();
        let game_id = new_game_id();
        let setup = Setup {
            game_id: game_id.to_string(),
            scenario: scenario.id.clone(),
            options,
            seats: seats.clone(),
        };
        let mut world = self.world();
        // What the rules refuse at set-up (an option's value, the seats' order) is a field of
        // the request that is wrong, as the checks' problems are.
        let created = Game::create(ruleset, setup, &mut world).map_err(|e| {
            ServiceError::Invalid(vec![Problem::new(
                e.rule.clone(),
                format!("{}: {}", e.rule, e.message),
            )])
        })?;
        // A clocked game's log opens with its policy, so the log tells the whole story.
        let mut events = vec![created.event.clone()];
        let mut game = created.game.clone();
        if let Some(policy) = &clock {
            let (event, next) =
                game.note_clock(json!({ "clock": "policy", "policy": policy }), &mut world)?;
            events.push(event);
            game = next;
        }
        let key = self.link_key().await?;
        let mut access = Vec::new();
        let mut records = Vec::new();
        for (def, s) in seats.iter().zip(&req.seats) {
            let token = hex::encode(random32());
            records.push(SeatRecord {
                game_id: game_id.clone(),
                seat: def.seat.to_string(),
                name: def.name.clone(),
                email: s.email.clone(),
                token_hash: sha256_hex(token.as_bytes()),
            });
            access.push(SeatAccess {
                seat: def.seat.to_string(),
                name: def.name.clone(),
                // The link carries the seat's signed link token (generation 0), which a new
                // link revokes; the token itself is the seat's key for programs.
                link: self.seat_link(
                    &game_id,
                    &links::seat_token(&key, &game_id, &def.seat.to_string(), 0),
                ),
                token,
            });
        }
        let record = GameRecord {
            game_id: game_id.clone(),
            ruleset: info.id,
            scenario: scenario.id.clone(),
            created_at: created.event.recorded_at.clone(),
            next_seq: events.len() as u64,
            ended: false,
            name: name.unwrap_or_else(|| {
                players::default_name(&info.title, seats.iter().map(|s| s.name.as_str()))
            }),
        };
        if let Some(policy) = &clock {
            // Written first: a clocked game never exists without its policy row (an orphan
            // row, if creation fails, names no game and is never read).
            self.store
                .set_clock(
                    &game_id,
                    &serde_json::to_value(policy).expect("serialisable"),
                )
                .await?;
        }
        let append = Append {
            outbox: [
                turn_notices(&game, &events, self.window_notices),
                invitations(&game, &events),
            ]
            .concat(),
            events,
            secrets: secrets::for_new_game(
                &game_id,
                created.hidden_seed,
                created.chain_tip,
                CHAIN_LENGTH,
            ),
            idempotency: None,
            once_per_seat: Vec::new(),
        };
        self.store.create_game(&record, &records, &append).await?;
        self.announce(&game_id, record.next_seq);
        Ok(CreatedGame {
            game_id,
            name: record.name,
            seats: access,
        })
    }
}

/// A new game's request, checked: what `create` goes on with.
struct Checked {
    ruleset: std::sync::Arc<dyn crate::engine::ruleset::Ruleset>,
    scenario: ScenarioInfo,
    name: Option<String>,
    seats: Vec<SeatDef>,
    options: Value,
    clock: Option<ClockPolicy>,
}

/// Checks every field of `req`, and says what is wrong with each field that is (every one,
/// not only the first), or names the seats: a seat given without an id takes, where the
/// scenario fixes its seats, the first of them no other seat names (its roles in order, as
/// the lobby lists them); elsewhere an id made from the player's name. A request without a
/// scenario plays the ruleset's first.
fn check(req: &NewGame) -> Result<Checked> {
    let mut problems = Vec::new();
    let ruleset = match Games::ruleset(&req.ruleset) {
        Ok(r) => Some(r),
        Err(e) => {
            problems.push(Problem::new("ruleset", format!("ruleset: {e}")));
            None
        }
    };
    let info = ruleset.as_ref().map(|r| r.info());
    let scenario = info.as_ref().and_then(|info| {
        let wanted = req.scenario.trim();
        let found = if wanted.is_empty() {
            info.scenarios.first()
        } else {
            info.scenarios.iter().find(|s| s.id == wanted)
        };
        if found.is_none() {
            let ids: Vec<&str> = info.scenarios.iter().map(|s| s.id.as_str()).collect();
            problems.push(Problem::new(
                "scenario",
                format!(
                    "scenario: {} has no scenario '{wanted}'; choose one of {} (or none, for the first)",
                    info.id,
                    ids.join(", ")
                ),
            ));
        }
        found.cloned()
    });
    let name = players::check_game_name(req.name.as_deref()).unwrap_or_else(|e| {
        problems.push(Problem::new("name", e.to_string()));
        None
    });
    let n = req.seats.len();
    if let (Some(info), Some(scenario)) = (&info, &scenario) {
        if n < scenario.min_seats || n > scenario.max_seats {
            problems.push(Problem::new(
                "seats",
                format!(
                    "seats: {} / {} takes {}; {}",
                    info.id,
                    scenario.id,
                    players_wanted(scenario.min_seats, scenario.max_seats),
                    match n {
                        0 => "none was given".to_owned(),
                        1 => "1 was given".to_owned(),
                        n => format!("{n} were given"),
                    }
                ),
            ));
        }
    }
    // Where the scenario fixes the seats, a seat with no id takes the first its ids leave.
    let fixed: &[String] = scenario.as_ref().map_or(&[], |s| &s.seats);
    let named: Vec<&str> = req.seats.iter().filter_map(|s| s.seat.as_deref()).collect();
    let mut free = fixed.iter().filter(|id| !named.contains(&id.as_str()));
    let mut seats: Vec<SeatDef> = Vec::new();
    for (i, s) in req.seats.iter().enumerate() {
        let name = s.name.trim();
        let mut fine = true;
        if name.is_empty() {
            problems.push(Problem::new(
                format!("seats[{i}].name"),
                format!("seats[{i}].name is empty: every seat needs a name of 1 to {MAX_NAME} characters"),
            ));
            fine = false;
        } else if let Err(e) = input::single_line(&format!("seats[{i}].name"), name, MAX_NAME) {
            problems.push(Problem::new(format!("seats[{i}].name"), e.to_string()));
            fine = false;
        }
        if let Some(email) = &s.email {
            let field = format!("seats[{i}].email");
            if let Err(e) = input::single_line(&field, email, 254) {
                problems.push(Problem::new(field, e.to_string()));
            } else if !email.contains('@') || email.contains(char::is_whitespace) {
                problems.push(Problem::new(
                    field.clone(),
                    format!(
                        "{field}: '{email}' is not an email address; write it as name@example.org"
                    ),
                ));
            }
        }
        let seat = match &s.seat {
            Some(id) => {
                let field = format!("seats[{i}].seat");
                input::single_line(&field, id, 32)
                    .map_err(|e| e.to_string())
                    .and_then(|()| Seat::parse(id).map_err(|e| format!("{field}: {e}")))
                    .and_then(|seat| match (&info, &scenario) {
                        (Some(info), Some(sc))
                            if !sc.seats.is_empty()
                                && !sc.seats.iter().any(|f| f == seat.as_str()) =>
                        {
                            Err(format!(
                                "{field}: '{seat}' is not a seat of {} / {}; its seats are {}",
                                info.id,
                                sc.id,
                                sc.seats.join(", ")
                            ))
                        }
                        _ => Ok(seat),
                    })
                    .map_err(|m| Problem::new(field, m))
            }
            None if !fixed.is_empty() => match free.next() {
                Some(id) => Seat::parse(id).map_err(|e| Problem::new(format!("seats[{i}]"), e)),
                // More seats than the scenario has: the count's problem says so.
                None => continue,
            },
            // A name with no ASCII letter or digit (李雷) makes no slug: the seat is named by
            // its position instead.
            None if fine => Seat::from_name(name)
                .or_else(|_| Seat::parse(&format!("seat-{}", i + 1)))
                .map_err(|e| Problem::new(format!("seats[{i}].name"), e)),
            None => continue,
        };
        let seat = match seat {
            Ok(seat) => seat,
            Err(problem) => {
                problems.push(problem);
                continue;
            }
        };
        if seats.iter().any(|d| d.seat == seat) {
            problems.push(Problem::new(
                format!("seats[{i}]"),
                format!(
                    "seats[{i}]: two seats are both '{seat}'; give each seat its own id or name"
                ),
            ));
            continue;
        }
        seats.push(SeatDef {
            seat,
            name: name.to_owned(),
        });
    }
    let options = if req.options.is_null() {
        json!({})
    } else {
        req.options.clone()
    };
    if !options.is_object() {
        problems.push(Problem::new(
            "options",
            format!(
                "options must be a JSON object such as {{\"order\": \"free\"}}, not {}",
                kind_of(&options)
            ),
        ));
    }
    let clock = req
        .clock
        .as_ref()
        .map(ClockPolicy::choose)
        .transpose()
        .unwrap_or_else(|e| {
            problems.push(Problem::new("clock", format!("clock: {e}")));
            None
        });
    match (ruleset, scenario) {
        (Some(ruleset), Some(scenario)) if problems.is_empty() => Ok(Checked {
            ruleset,
            scenario,
            name,
            seats,
            options,
            clock,
        }),
        _ => Err(ServiceError::Invalid(problems)),
    }
}

/// "2 players", "3 to 6 players", "1 player".
fn players_wanted(min: usize, max: usize) -> String {
    match (min, max) {
        (1, 1) => "1 player".into(),
        (min, max) if min == max => format!("{min} players"),
        (min, max) => format!("{min} to {max} players"),
    }
}

/// What a JSON value is, in words.
fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "true or false",
        Value::Number(_) => "a number",
        Value::String(_) => "a text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// A new game id: a random UUID (version 4).
fn new_game_id() -> GameId {
    let mut b = random32();
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h = hex::encode(&b[..16]);
    GameId::parse(&format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    ))
    .expect("a UUID is a game id")
}

/// An invitation for every seat that does not act first, so that each player hears of the game
/// when it is made, not only those whose turn it is: they get their turn notice instead. A seat
/// with no email or hook hears nothing of it (the dispatcher lets such notices go).
fn invitations(game: &Game, events: &[Event]) -> Vec<OutboxRecord> {
    let seq = events.last().expect("a game begins with events").seq;
    let first: Vec<_> = game.prompts().into_iter().map(|p| p.seat).collect();
    game.created
        .seats
        .iter()
        .filter(|s| !first.contains(&s.seat))
        .map(|s| OutboxRecord {
            game_id: game.game_id.clone(),
            seq,
            channel: outbox::INVITATION.into(),
            seat: Some(s.seat.to_string()),
            payload: json!({}),
            delay: std::time::Duration::ZERO,
        })
        .collect()
}
