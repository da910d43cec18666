//! Creating a game: seats checked and named, the ruleset's setup folded, each seat's secret token
//! made and shown once, the first events appended with their secrets and notices.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use utoipa::ToSchema;

use super::clock::{ClockChoice, ClockPolicy};
use crate::engine::canonical::{random32, sha256_hex};
use crate::engine::event::Event;
use crate::engine::game::{Game, CHAIN_LENGTH};
use crate::engine::ruleset::{Seat, SeatDef, Setup};
use crate::store::{Append, GameRecord, OutboxRecord, SeatRecord};

use super::moves::turn_notices;
use super::{input, links, outbox, players, secrets, Games, Result, ServiceError};

/// The longest seat name, in characters.
pub const MAX_NAME: usize = 100;

/// A seat asked for at creation.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct NewSeat {
    /// The seat id; for rulesets with fixed seats one of the scenario's seats. Derived from the
    /// name when omitted.
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
    #[serde(default = "default_scenario")]
    pub scenario: String,
    #[serde(default)]
    #[schema(value_type = Object)]
    pub options: Value,
    pub seats: Vec<NewSeat>,
    /// The game's clock: a preset (`relaxed`, `standard`, `brisk`) or a policy spelled out.
    /// Without one the game has no deadlines.
    #[serde(default)]
    pub clock: Option<ClockChoice>,
}

fn default_scenario() -> String {
    "default".into()
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
    pub game_id: String,
    pub name: String,
    pub seats: Vec<SeatAccess>,
}

impl Games {
    /// Creates a game: each seat's token and link are in the answer and nowhere else.
    pub async fn create(&self, req: NewGame) -> Result<CreatedGame> {
        let ruleset = Self::ruleset(&req.ruleset)?;
        let info = ruleset.info();
        let scenario = info
            .scenarios
            .iter()
            .find(|s| s.id == req.scenario)
            .ok_or_else(|| {
                let ids: Vec<&str> = info.scenarios.iter().map(|s| s.id.as_str()).collect();
                ServiceError::BadRequest(format!(
                    "{} has no scenario '{}'; choose one of {}",
                    info.id,
                    req.scenario,
                    ids.join(", ")
                ))
            })?;
        let name = players::check_game_name(req.name.as_deref())?;
        let n = req.seats.len();
        if n < scenario.min_seats || n > scenario.max_seats {
            return Err(ServiceError::BadRequest(format!(
                "{} / {} seats {} to {} players; {n} were given",
                info.id, scenario.id, scenario.min_seats, scenario.max_seats
            )));
        }
        let mut seats = Vec::new();
        for (i, s) in req.seats.iter().enumerate() {
            let name = s.name.trim();
            if name.is_empty() {
                return Err(ServiceError::BadRequest(format!(
                    "seats[{i}].name is empty: every seat needs a name of 1 to {MAX_NAME} characters"
                )));
            }
            input::single_line(&format!("seats[{i}].name"), name, MAX_NAME)?;
            if let Some(id) = &s.seat {
                input::single_line(&format!("seats[{i}].seat"), id, 32)?;
            }
            let seat = match &s.seat {
                Some(id) => Seat::parse(id),
                // A name with no ASCII letter or digit (李雷) makes no slug: the seat is named
                // by its position instead.
                None => Seat::from_name(name).or_else(|_| Seat::parse(&format!("seat-{}", i + 1))),
            }
            .map_err(ServiceError::BadRequest)?;
            if !scenario.seats.is_empty() && !scenario.seats.iter().any(|s| s == seat.as_str()) {
                return Err(ServiceError::BadRequest(format!(
                    "'{seat}' is not a seat of {} / {}; its seats are {}",
                    info.id,
                    scenario.id,
                    scenario.seats.join(", ")
                )));
            }
            if seats.iter().any(|d: &SeatDef| d.seat == seat) {
                return Err(ServiceError::BadRequest(format!(
                    "two seats are both '{seat}'; give each seat its own id or name"
                )));
            }
            if let Some(email) = &s.email {
                input::single_line(&format!("seats[{i}].email"), email, 254)?;
                if !email.contains('@') || email.contains(char::is_whitespace) {
                    return Err(ServiceError::BadRequest(format!(
                        "'{email}' is not an email address"
                    )));
                }
            }
            seats.push(SeatDef {
                seat,
                name: name.to_owned(),
            });
        }
        let game_id = new_game_id();
        let options = if req.options.is_null() {
            json!({})
        } else {
            req.options.clone()
        };
        if !options.is_object() {
            return Err(ServiceError::BadRequest(
                "options must be a JSON object".into(),
            ));
        }
        let setup = Setup {
            game_id: game_id.clone(),
            scenario: scenario.id.clone(),
            options,
            seats: seats.clone(),
        };
        let clock = req
            .clock
            .as_ref()
            .map(ClockPolicy::choose)
            .transpose()
            .map_err(ServiceError::BadRequest)?;
        let mut world = self.world();
        let created = Game::create(ruleset, setup, &mut world)?;
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
            outbox: [turn_notices(&game, &events), invitations(&game, &events)].concat(),
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

/// A new game id: a random UUID (version 4).
fn new_game_id() -> String {
    let mut b = random32();
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h = hex::encode(&b[..16]);
    format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
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
        })
        .collect()
}
