//! The lobby (`GET /`, `POST /games`): a new game from menus and fields. The reader first
//! chooses the rules and scenario (a GET form, sent on by `static/lobby.js` as soon as the menu
//! changes, by its button without JavaScript); the page then names the seats that scenario
//! needs by role (Defender, Intruder 1 …; american, british), offers the ruleset's options as
//! fields made from its option metadata (`OptionInfo`: a box for a yes/no option, a menu for one
//! of a few values, a number, a text, or JSON for a structured one), and the clock as a named
//! preset or a policy of one's own in fields. A refused form comes back filled in, with the
//! reason, and nothing is made.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use minijinja::context;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::pages::{error_page, rendered, v};
use crate::engine::ruleset::{OptionInfo, RulesetInfo, ScenarioInfo};
use crate::games::clock::{ClockChoice, ClockPolicy, OnDeadline, PRESETS};
use crate::games::{Games, NewGame, NewSeat, ServiceError};
use crate::rules;

/// Seat rows of a scenario whose seat ids are free, by default, and at most.
const SEAT_ROWS: usize = 4;
const MAX_SEAT_ROWS: usize = 16;
/// The prefix of an option's form field: `opt_<name>`.
const OPTION_FIELD: &str = "opt_";

/// One seat row of the form.
#[derive(Debug, Clone, Default, Serialize)]
struct SeatRow {
    /// What the seat is, for the reader: the scenario's role, or its seat id.
    role: String,
    /// The seat id the scenario fixes (then sent as a hidden field), or empty.
    fixed: String,
    name: String,
    email: String,
    seat: String,
}

/// One of the ruleset's options as a form field.
#[derive(Debug, Clone, Serialize)]
struct OptionField {
    name: String,
    /// What the reader sees: the name in words ("Covering fire").
    label: String,
    description: String,
    /// `checkbox`, `select`, `number`, `text` or `json`.
    kind: &'static str,
    /// What the field holds now (a menu's chosen value, a number, a text, JSON).
    value: String,
    checked: bool,
    choices: Vec<String>,
    /// The default as the field would hold it.
    default: String,
    /// Texts the field may be filled with, each with its title, shown beside it to copy (the
    /// open table's example components).
    examples: Vec<(String, String)>,
}

/// The example components shipped in examples/, offered beside the open table's `components`.
const COMPONENT_EXAMPLES: [(&str, &str); 2] = [
    (
        "A card-driven game's decks",
        include_str!("../../examples/open-table-card-driven.txt"),
    ),
    (
        "A chit-pull game's cups",
        include_str!("../../examples/open-table-chit-cup.txt"),
    ),
];

/// The custom clock's fields.
#[derive(Debug, Clone, Serialize)]
struct ClockFields {
    hours: String,
    reminders: String,
    weekends: bool,
    time_zone: String,
    vacation_days: String,
    on_deadline: String,
    forfeit_after: String,
}

impl Default for ClockFields {
    fn default() -> Self {
        ClockFields {
            hours: "48".into(),
            reminders: "12, 2".into(),
            weekends: false,
            time_zone: "UTC".into(),
            vacation_days: "14".into(),
            on_deadline: "remind".into(),
            forfeit_after: "3".into(),
        }
    }
}

#[derive(Debug, Clone, Serialize)]
struct LobbyForm {
    /// The game's name (empty: "<rules> — <seats>").
    name: String,
    /// `<ruleset>/<scenario>`.
    game: String,
    seats: Vec<SeatRow>,
    options: Vec<OptionField>,
    /// The ruleset the option fields were offered for (a hidden field): fields of another are
    /// not read.
    options_of: String,
    /// More options as a JSON object (the folded "as JSON" box).
    options_json: String,
    /// The clock menu's choice: a preset's name, `custom`, or empty for no clock.
    clock: String,
    custom: ClockFields,
    /// What is wrong with the form as it was sent: every problem, each with the field it is
    /// about (empty when it was not sent, or was fine).
    problems: Vec<FormProblem>,
}

/// One thing wrong with the form: the id of the field it is about (`name_1`, `opt-minutes`;
/// empty when it is about no one field) and what is wrong, in words.
#[derive(Debug, Clone, Serialize)]
struct FormProblem {
    field: String,
    message: String,
}

impl FormProblem {
    fn new(field: impl Into<String>, message: impl Into<String>) -> FormProblem {
        FormProblem {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// The form's field a problem of the games service names (`seats[1].email`, `clock`), given
/// which row of the form each seat of the request came from.
fn field_of(field: &str, rows: &[usize]) -> String {
    let seat = |rest: &str| -> Option<String> {
        let (index, part) = rest.split_once(']')?;
        let row = rows.get(index.parse::<usize>().ok()?)?;
        Some(match part {
            ".email" => format!("email_{row}"),
            ".seat" => format!("seat_{row}"),
            _ => format!("name_{row}"),
        })
    };
    match field {
        "name" => "game-name".into(),
        "ruleset" | "scenario" => "ruleset".into(),
        "clock" => "clock".into(),
        "seats" => "name_0".into(),
        f => f
            .strip_prefix("seats[")
            .and_then(seat)
            .or_else(|| f.strip_prefix("options.").map(|o| format!("opt-{o}")))
            .unwrap_or_else(|| "options-json".into()),
    }
}

/// An option's name in words: `covering_fire` → "Covering fire", `command_ap` → "Command AP".
fn label(name: &str) -> String {
    let words: Vec<String> = name
        .split('_')
        .filter(|w| !w.is_empty())
        .map(|w| match w {
            "ap" | "vp" | "sp" | "lp" | "los" | "npc" | "cl" => w.to_uppercase(),
            _ => w.to_owned(),
        })
        .collect();
    let text = words.join(" ");
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => name.to_owned(),
    }
}

/// A form's fields by name (the last one of a name wins, as a checkbox's hidden twin needs).
struct Fields(Vec<(String, String)>);

impl Fields {
    fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
    fn text(&self, name: &str) -> String {
        self.get(name).unwrap_or_default().to_owned()
    }
    fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }
}

/// The rules and scenario `game` names (`<ruleset>/<scenario>`), or `None`.
fn chosen(game: &str) -> Option<(RulesetInfo, ScenarioInfo)> {
    let (ruleset, scenario) = game.split_once('/')?;
    let info = rules::find(ruleset)?.info();
    let scenario = info.scenarios.iter().find(|s| s.id == scenario)?.clone();
    Some((info, scenario))
}

/// The first scenario of the first ruleset: what the lobby shows before a choice.
fn first_game() -> String {
    rules::all()
        .first()
        .map(|r| {
            let info = r.info();
            let scenario = info.scenarios.first().map(|s| s.id.clone());
            format!("{}/{}", info.id, scenario.unwrap_or_default())
        })
        .unwrap_or_default()
}

/// What row `i` of `scenario` is called.
fn role(scenario: &ScenarioInfo, i: usize) -> String {
    scenario
        .roles
        .get(i)
        .or_else(|| scenario.seats.get(i))
        .cloned()
        .unwrap_or_else(|| format!("Seat {}", i + 1))
}

/// The seat rows of `scenario`: one per seat it fixes, else `wanted` rows (at least its
/// minimum, at most its maximum), each named by role.
fn seat_rows(scenario: &ScenarioInfo, wanted: usize) -> Vec<SeatRow> {
    let count = if scenario.seats.is_empty() {
        wanted
            .max(scenario.min_seats)
            .min(scenario.max_seats.min(MAX_SEAT_ROWS))
    } else {
        scenario.seats.len()
    };
    (0..count)
        .map(|i| SeatRow {
            role: role(scenario, i),
            fixed: scenario.seats.get(i).cloned().unwrap_or_default(),
            ..SeatRow::default()
        })
        .collect()
}

/// A JSON value as a field shows it: a string as it is, anything else as JSON.
fn shown(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// The field an option gets, from its default and choices.
fn option_field(o: &OptionInfo) -> OptionField {
    let kind = if !o.choices.is_empty() {
        "select"
    } else {
        match &o.default {
            Value::Bool(_) => "checkbox",
            Value::Number(_) => "number",
            Value::String(_) => "text",
            _ => "json",
        }
    };
    OptionField {
        name: o.name.clone(),
        label: label(&o.name),
        description: o.description.clone(),
        kind,
        value: shown(&o.default),
        checked: o.default == Value::Bool(true),
        choices: o.choices.iter().map(shown).collect(),
        default: shown(&o.default),
        examples: if o.name == "components" {
            COMPONENT_EXAMPLES
                .iter()
                .map(|(title, text)| ((*title).to_owned(), (*text).to_owned()))
                .collect()
        } else {
            Vec::new()
        },
    }
}

/// The ruleset's options as fields, holding what `fields` sent for them (when they were sent
/// for this ruleset) or their defaults.
fn option_fields(info: &RulesetInfo, fields: Option<&Fields>) -> Vec<OptionField> {
    let sent = fields.filter(|f| f.get("options_of") == Some(info.id.as_str()));
    info.options
        .iter()
        .map(|o| {
            let mut field = option_field(o);
            if let Some(f) = sent {
                let key = format!("{OPTION_FIELD}{}", o.name);
                if field.kind == "checkbox" {
                    field.checked = f.get(&key).is_some_and(|v| v == "on");
                } else if let Some(value) = f.get(&key) {
                    field.value = value.to_owned();
                }
            }
            field
        })
        .collect()
}

/// The value an option's field holds, or what is wrong with it.
fn option_value(o: &OptionInfo, f: &OptionField) -> Result<Value, String> {
    Ok(match f.kind {
        "checkbox" => Value::Bool(f.checked),
        "select" => o
            .choices
            .iter()
            .find(|c| shown(c) == f.value)
            .cloned()
            .ok_or_else(|| {
                format!(
                    "option {}: '{}' is not one of {}; choose one from its menu",
                    f.label,
                    f.value,
                    f.choices.join(", ")
                )
            })?,
        "number" => {
            let text = f.value.trim();
            if text.is_empty() {
                o.default.clone()
            } else {
                serde_json::from_str::<serde_json::Number>(text)
                    .map(Value::Number)
                    .map_err(|_| {
                        format!(
                            "option {}: '{text}' is not a number; write one such as {}",
                            f.label, f.default
                        )
                    })?
            }
        }
        "text" => Value::String(f.value.clone()),
        _ => {
            let text = f.value.trim();
            if text.is_empty() {
                o.default.clone()
            } else {
                serde_json::from_str(text).map_err(|e| {
                        format!(
                            "option {}: not valid JSON ({e}); write it as its description shows, or leave it empty for the default",
                            f.label
                        )
                    })?
            }
        }
    })
}

/// The options the fields set: only those that differ from their defaults, so that a game
/// made with the defaults names no option. Says which fields are wrong and how, every one.
fn options_from_fields(
    info: &RulesetInfo,
    fields: &[OptionField],
) -> Result<Map<String, Value>, Vec<FormProblem>> {
    let mut out = Map::new();
    let mut problems = Vec::new();
    for (o, f) in info.options.iter().zip(fields) {
        let value = option_value(o, f);
        match value {
            Ok(value) if value != o.default => {
                out.insert(o.name.clone(), value);
            }
            Ok(_) => {}
            Err(message) => problems.push(FormProblem::new(format!("opt-{}", o.name), message)),
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

/// The custom clock's fields as a policy, checked; says which field is wrong.
fn custom_clock(c: &ClockFields) -> Result<ClockPolicy, String> {
    let number = |what: &str, text: &str| {
        text.trim()
            .parse::<u32>()
            .map_err(|_| format!("clock: {what} '{}' is not a whole number", text.trim()))
    };
    let reminders = c
        .reminders
        .split([',', ' '])
        .filter(|r| !r.trim().is_empty())
        .map(|r| number("a reminder", r))
        .collect::<Result<Vec<_>, _>>()?;
    let on_deadline = match c.on_deadline.as_str() {
        "remind" => OnDeadline::Remind,
        "pass" => OnDeadline::Pass,
        "pause" => OnDeadline::Pause,
        "forfeit" => OnDeadline::Forfeit,
        other => {
            return Err(format!(
                "clock: '{other}' is not what a missed deadline can do; choose remind, pass, pause or forfeit"
            ))
        }
    };
    let policy = ClockPolicy {
        move_deadline_hours: number("the hours a move", &c.hours)?,
        reminders_hours: reminders,
        pause_weekends: c.weekends,
        time_zone: c.time_zone.trim().to_owned(),
        vacation_days_per_year: number("the vacation days", &c.vacation_days)?,
        on_deadline,
        forfeit_after: number("the missed deadlines before a forfeit", &c.forfeit_after)?,
    };
    policy.check().map_err(|e| format!("clock: {e}"))?;
    Ok(policy)
}

/// A request read from the form, and the form's row of each of its seats.
struct FromForm {
    request: NewGame,
    rows: Vec<usize>,
}

/// Reads the new-game form into the service's request, and says what is wrong with the form:
/// every field that is, each by its id — those the games service would refuse too, so that
/// one answer names them all. The request is only for the service when nothing is wrong.
fn new_game(form: &LobbyForm) -> (FromForm, Vec<FormProblem>) {
    let mut problems = Vec::new();
    let (ruleset, scenario) = form.game.split_once('/').unwrap_or_else(|| {
        problems.push(FormProblem::new(
            "ruleset",
            "choose the rules and scenario from the list",
        ));
        ("", "")
    });
    // Rules this build does not have are refused by the games service, which names them.
    let info = chosen(&form.game).map(|(info, _)| info);
    let json_text = form.options_json.trim();
    let mut options = if json_text.is_empty() {
        Map::new()
    } else {
        match serde_json::from_str(json_text) {
            Ok(Value::Object(map)) => map,
            Ok(_) => {
                problems.push(FormProblem::new(
                    "options-json",
                    "the options as JSON must be an object such as {}",
                ));
                Map::new()
            }
            Err(e) => {
                problems.push(FormProblem::new(
                    "options-json",
                    format!(
                        "the options are not valid JSON ({e}); write a JSON object such as {{}}"
                    ),
                ));
                Map::new()
            }
        }
    };
    if let Some(info) = info.filter(|i| i.id == form.options_of) {
        match options_from_fields(&info, &form.options) {
            Ok(set) => {
                for (name, value) in set {
                    if options.contains_key(&name) {
                        problems.push(FormProblem::new(
                            format!("opt-{name}"),
                            format!("option {} is given twice, in its field and in the JSON box; keep one", label(&name)),
                        ));
                    }
                    options.insert(name, value);
                }
            }
            Err(wrong) => problems.extend(wrong),
        }
    }
    let mut seats = Vec::new();
    let mut rows = Vec::new();
    for (i, row) in form.seats.iter().enumerate() {
        let (name, email) = (row.name.trim(), row.email.trim());
        let seat = if row.fixed.is_empty() {
            row.seat.trim()
        } else {
            row.fixed.as_str()
        };
        if name.is_empty() {
            if !email.is_empty() || (!seat.is_empty() && row.fixed.is_empty()) {
                problems.push(FormProblem::new(
                    format!("name_{i}"),
                    format!(
                        "seat {} ({}) has no player name; give one or empty the row",
                        i + 1,
                        row.role
                    ),
                ));
            }
            continue;
        }
        seats.push(NewSeat {
            seat: (!seat.is_empty()).then(|| seat.to_owned()),
            name: name.to_owned(),
            email: (!email.is_empty()).then(|| email.to_owned()),
        });
        rows.push(i);
    }
    if seats.is_empty() {
        problems.push(FormProblem::new("name_0", "name at least one seat"));
    }
    // The clock comes from its menu (a preset, or custom from its fields), or the JSON box
    // carries a policy under "clock"; not both.
    let written = match options
        .remove("clock")
        .map(serde_json::from_value)
        .transpose()
    {
        Ok(written) => written,
        Err(e) => {
            problems.push(FormProblem::new(
                "options-json",
                format!("the clock policy is not valid: {e}"),
            ));
            None
        }
    };
    let chosen = match form.clock.trim() {
        "" => None,
        "custom" => match custom_clock(&form.custom) {
            Ok(policy) => Some(ClockChoice::Policy(policy)),
            Err(message) => {
                problems.push(FormProblem::new("clock-hours", message));
                None
            }
        },
        preset if PRESETS.contains(&preset) => Some(ClockChoice::Preset(preset.to_owned())),
        other => {
            problems.push(FormProblem::new(
                "clock",
                format!(
                    "'{other}' is not a clock; choose one from the menu ({}, or custom)",
                    PRESETS.join(", ")
                ),
            ));
            None
        }
    };
    let clock = match (chosen, written) {
        (Some(_), Some(_)) => {
            problems.push(FormProblem::new("clock", "the clock is chosen twice: pick it from the menu, or write a policy of your own under \"clock\" in the options and leave the menu at \"No clock\""));
            None
        }
        (chosen, written) => chosen.or(written),
    };
    let request = NewGame {
        name: Some(form.name.trim().to_owned()).filter(|n| !n.is_empty()),
        ruleset: ruleset.to_owned(),
        scenario: scenario.to_owned(),
        options: Value::Object(options),
        seats,
        clock,
    };
    if !problems.is_empty() {
        // What the service would refuse besides, each at its field, unless the form has said
        // it already.
        for p in Games::problems_of(&request) {
            let field = field_of(&p.field, &rows);
            if !problems.iter().any(|q: &FormProblem| q.field == field) {
                problems.push(FormProblem::new(field, p.message));
            }
        }
    }
    (FromForm { request, rows }, problems)
}

fn lobby(status: StatusCode, form: &LobbyForm, error: Option<String>) -> HttpResponse {
    let infos: Vec<_> = rules::all().iter().map(|r| r.info()).collect();
    let picked = chosen(&form.game);
    let (ruleset, scenario) = match &picked {
        Some((r, s)) => (Some(r), Some(s)),
        None => (None, None),
    };
    rendered(
        status,
        "lobby.html",
        context! {
            rulesets => v(&infos),
            ruleset => ruleset.map(v),
            scenario => scenario.map(v),
            form => v(form),
            error,
            problems => v(&form.problems),
            flash => None::<String>,
        },
    )
}

#[derive(Debug, Deserialize)]
pub struct LobbyQuery {
    /// `<ruleset>/<scenario>`, as the chooser sends it.
    game: Option<String>,
    /// Seat rows, for a scenario whose seat ids are free.
    seats: Option<usize>,
}

pub async fn lobby_page(query: web::Query<LobbyQuery>) -> HttpResponse {
    let game = query
        .game
        .clone()
        .filter(|g| chosen(g).is_some())
        .unwrap_or_else(first_game);
    let (info, scenario) = chosen(&game).expect("a ruleset is registered");
    let form = LobbyForm {
        name: String::new(),
        seats: seat_rows(&scenario, query.seats.unwrap_or(SEAT_ROWS)),
        options: option_fields(&info, None),
        options_of: info.id.clone(),
        game,
        options_json: "{}".into(),
        clock: String::new(),
        custom: ClockFields::default(),
        problems: Vec::new(),
    };
    lobby(StatusCode::OK, &form, None)
}

/// The form as it was sent, the seat rows named by the chosen scenario's roles.
fn form_of(fields: &Fields) -> LobbyForm {
    let game = fields.text("game");
    let picked = chosen(&game);
    let rows = (0..MAX_SEAT_ROWS)
        .take_while(|i| fields.has(&format!("name_{i}")))
        .map(|i| {
            let (role, fixed) = match &picked {
                Some((_, s)) => (role(s, i), s.seats.get(i).cloned().unwrap_or_default()),
                None => (format!("Seat {}", i + 1), String::new()),
            };
            SeatRow {
                role,
                fixed,
                name: fields.text(&format!("name_{i}")),
                email: fields.text(&format!("email_{i}")),
                seat: fields.text(&format!("seat_{i}")),
            }
        })
        .collect::<Vec<_>>();
    let seats = match (&picked, rows.is_empty()) {
        (Some((_, s)), true) => seat_rows(s, SEAT_ROWS),
        (None, true) => vec![SeatRow::default(); SEAT_ROWS],
        (_, false) => rows,
    };
    let custom = ClockFields {
        hours: fields.text("clock_hours"),
        reminders: fields.text("clock_reminders"),
        weekends: fields.get("clock_weekends") == Some("on"),
        time_zone: fields.text("clock_time_zone"),
        vacation_days: fields.text("clock_vacation_days"),
        on_deadline: fields.text("clock_on_deadline"),
        forfeit_after: fields.text("clock_forfeit_after"),
    };
    LobbyForm {
        name: fields.text("name"),
        options: picked
            .as_ref()
            .map(|(info, _)| option_fields(info, Some(fields)))
            .unwrap_or_default(),
        options_of: fields.text("options_of"),
        game,
        seats,
        // The box's old name, `options`, is read too (scripts that post the form).
        options_json: fields
            .get("options_json")
            .or_else(|| fields.get("options"))
            .unwrap_or_default()
            .to_owned(),
        clock: fields.text("clock"),
        custom: if fields.has("clock_hours") {
            custom
        } else {
            ClockFields::default()
        },
        problems: Vec::new(),
    }
}

pub async fn create_game(
    games: web::Data<Games>,
    proxies: web::Data<super::limits::TrustedProxies>,
    req: HttpRequest,
    body: web::Form<Vec<(String, String)>>,
) -> HttpResponse {
    let mut form = form_of(&Fields(body.into_inner()));
    let (FromForm { request, rows }, problems) = new_game(&form);
    if !problems.is_empty() {
        return refused(form, problems);
    }
    if let Err(refused) = super::limits::check_create(&games, &proxies, &req) {
        let mut page = lobby(
            StatusCode::TOO_MANY_REQUESTS,
            &form,
            Some(refused.message()),
        );
        page.headers_mut().insert(
            actix_web::http::header::RETRY_AFTER,
            refused.limited.retry_after_secs().into(),
        );
        return page;
    }
    match games.create(request).await {
        Ok(created) => rendered(
            StatusCode::CREATED,
            "created.html",
            context! { game_id => created.game_id.as_str(), name => created.name, seats => v(&created.seats), flash => None::<String>, error => None::<String> },
        ),
        Err(ServiceError::Invalid(problems)) => {
            let problems = problems
                .into_iter()
                .map(|p| FormProblem::new(field_of(&p.field, &rows), p.message))
                .collect();
            refused(form, problems)
        }
        Err(ServiceError::BadRequest(m)) => {
            form.problems = Vec::new();
            lobby(StatusCode::BAD_REQUEST, &form, Some(m))
        }
        Err(e) => error_page(&e, ""),
    }
}

/// The form again, filled in as it was sent, with every problem found: a line each above it,
/// and each field that is wrong marked beside its label.
fn refused(mut form: LobbyForm, problems: Vec<FormProblem>) -> HttpResponse {
    let summary = match problems.len() {
        1 => problems[0].message.clone(),
        n => format!(
            "{n} things are wrong with the form; each is listed below and marked at its field"
        ),
    };
    form.problems = problems;
    lobby(StatusCode::BAD_REQUEST, &form, Some(summary))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(pairs: &[(&str, &str)]) -> Fields {
        Fields(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
    }

    #[test]
    fn hour_of_glory_names_its_seats_by_role() {
        let (_, scenario) = chosen("hour-of-glory/mission").unwrap();
        let rows = seat_rows(&scenario, 1);
        let roles: Vec<&str> = rows.iter().map(|r| r.role.as_str()).collect();
        // At least the scenario's two seats, named as the rules name them.
        assert_eq!(roles, ["Defender", "Intruder 1"]);
        let rows = seat_rows(&scenario, 16);
        assert_eq!(rows.len(), 4, "at most its four seats");
        assert_eq!(rows[3].role, "Intruder 3");
        assert!(rows.iter().all(|r| r.fixed.is_empty()), "ids are free");
    }

    #[test]
    fn fixed_seats_are_named_by_their_sides_and_sent_as_their_ids() {
        let (_, scenario) = chosen("for-honor-and-glory/chippawa").unwrap();
        let rows = seat_rows(&scenario, 4);
        let fixed: Vec<&str> = rows.iter().map(|r| r.fixed.as_str()).collect();
        assert_eq!(fixed, ["american", "british"]);
        assert_eq!(rows[0].role, "American side");
        assert_eq!(rows[1].role, "British side");
    }

    #[test]
    fn options_are_labelled_in_words() {
        assert_eq!(label("covering_fire"), "Covering fire");
        assert_eq!(label("command_ap"), "Command AP");
        assert_eq!(label("minutes"), "Minutes");
    }

    #[test]
    fn option_fields_set_only_what_differs_from_the_defaults() {
        let form = form_of(&fields(&[
            ("game", "where-eagles-dare/the-best-laid-plans"),
            ("options_of", "where-eagles-dare"),
            ("opt_covering_fire", "on"),
            ("opt_airborne_tanks", "locust"),
            // last_chit_held defaults to on: unticked, it is sent as nothing.
            ("name_0", "Ann"),
            ("name_1", "Bob"),
        ]));
        let (info, _) = chosen(&form.game).expect("a scenario of Where Eagles Dare");
        let set = options_from_fields(&info, &form.options).unwrap();
        assert_eq!(set.get("covering_fire"), Some(&Value::Bool(true)));
        assert_eq!(set.get("airborne_tanks"), Some(&Value::from("locust")));
        assert_eq!(set.get("last_chit_held"), Some(&Value::Bool(false)));
        assert!(!set.contains_key("free_drop"), "{set:?}");
    }
}
