//! What a notice says. A notice row (`turn`, `reminder`, `deadline`, `game_over`, `talk`) names a game, a
//! seat and the event that caused it; this module gathers what the seat should be told: the
//! decision it faces, its legal moves in the order language, what happened since its last move
//! up to that event (only the lines that seat may read), the result, and the signed links. Email
//! templates and webhook payloads are both built from it.
//!
//! It folds nothing: the game is the one the fold cache holds (`Games::load`), and the lines come
//! from the pages' fold kept beside it (`Games::outcome_lines`), which moves on by the events
//! since it last did; for a game loaded cold from its snapshot, that fold starts at the
//! snapshot when the notice's lines lie after it, and no earlier event is read (only a clocked
//! game's notice reads the whole log, for the seat's vacations). So a notice costs the same at
//! seq 10 as at seq 10,000. The decision, legal
//! moves and board are always the ones the seat faces when the notice is composed. A `turn`
//! notice also stands for the moves made while it waited (no other is written for its seat
//! meanwhile: `Append::once_per_seat`), so its lines and the log's head it witnesses run to the
//! latest event, and it says nothing if the seat has no decision by then; any other notice's
//! lines and head stay those of its own event.

use serde::Serialize;
use serde_json::{json, Value};

use crate::engine::event::{kind, Event};
use crate::engine::files::FileRef;
use crate::engine::ruleset::{Outcome, Seat, Viewer};
use crate::games::links;
use crate::games::links::pending::{Credential, Pending};
use crate::games::outbox::{OutboxRow, DEADLINE, GAME_OVER, INVITATION, REMINDER, TALK, TURN};
use crate::games::Games;

/// How many lines of "since your last move" a notice carries at most.
const MAX_LINES: usize = 60;

/// Everything a template may use. One shape for every template, so strict rendering catches a
/// misspelt name in any of them; values a notice does not have are `null`.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct NoticeContext {
    pub event: String,
    pub game_id: String,
    pub game_short: String,
    /// The last event the notice tells of (a `turn` notice's runs to the log's head).
    pub seq: u64,
    /// The log's head the notice witnesses: the seq and hash of its last event — a `turn`
    /// notice's is the head when it was composed, any other's the event it was written with.
    /// Every email and webhook carries it, so each player holds a witness of the log
    /// (`despatch verify --witness`).
    pub head_seq: u64,
    pub head_hash: String,
    pub title: String,
    /// The game's name (`games::players`): subjects, bodies and webhook bodies carry it.
    pub game_name: String,
    pub seat: String,
    pub seat_name: String,
    /// The names of the game's other seats.
    pub players: Vec<String>,
    pub decision: Option<String>,
    pub options: Vec<String>,
    pub grammar: String,
    pub lines: Vec<String>,
    /// The board as the seat sees it, in plain text, where the game draws one.
    pub board: Option<String>,
    /// The seat's magic link (a signed seat link token in `?token=`).
    pub link: String,
    /// The seat's legal moves through the API, with the same token.
    pub moves_link: String,
    pub unsubscribe_link: String,
    pub reply_to: Option<String>,
    pub deadline: Option<String>,
    /// The seat's time zone (an IANA name): the templates write the deadline in it
    /// (`deadline|when(time_zone)`); `None`: UTC.
    #[serde(default)]
    pub time_zone: Option<String>,
    pub hours_before: Option<u32>,
    pub misses: Option<u32>,
    pub consequence: Option<String>,
    pub result: Option<String>,
    /// What the result is to this seat: "You won", "You lost: Ben won", "A draw" (game over).
    #[serde(default)]
    pub verdict: Option<String>,
    pub export_link: Option<String>,
    /// Table talk (`talk` notices): who said it, what, and whether to the whole table.
    #[serde(default)]
    pub talk_from: Option<String>,
    #[serde(default)]
    pub talk_text: Option<String>,
    #[serde(default)]
    pub talk_to_table: bool,
    /// The files the moves this notice tells of carried (docs/files.md): attached to the email
    /// while they hold at most `DESPATCH_ATTACH_MAX_BYTES` together, else linked.
    #[serde(default)]
    pub files: Vec<NoticeFile>,
}

/// A file a notice tells of.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct NoticeFile {
    #[serde(flatten)]
    pub file: FileRef,
    /// Its size for a reader ("48 KiB").
    pub size_shown: String,
    /// Its download link, opened by the seat's link token.
    pub link: String,
    /// Whether the email carries it as an attachment.
    pub attached: bool,
}

/// A notice ready to be delivered.
#[derive(Debug, Clone)]
pub struct Composed {
    pub template: &'static str,
    pub email: Option<String>,
    /// The context's links hold placeholders for the seat's credentials (`links::pending`),
    /// minted as each delivery is sent.
    pub context: NoticeContext,
    pub credentials: Pending,
}

/// Builds what notice `row` says, or `None` when it no longer needs saying (a turn or reminder
/// for a seat that has acted since).
pub async fn compose(
    games: &Games,
    row: &OutboxRow,
    reply_domain: Option<&str>,
) -> Result<Option<Composed>, String> {
    let r = &row.record;
    let template = match r.channel.as_str() {
        TURN => "your_turn",
        INVITATION => "invitation",
        REMINDER => "reminder",
        DEADLINE => "deadline_passed",
        GAME_OVER => "game_over",
        TALK => "talk",
        other => {
            return Err(format!(
                "outbox row {} has unknown channel '{other}'",
                row.id
            ))
        }
    };
    let seat_id = r
        .seat
        .clone()
        .ok_or_else(|| format!("notice {} names no seat", row.id))?;
    let game_id = &r.game().map_err(|e| e.to_string())?;
    // What the database says beside the game is read first: while a notice holds the game's
    // log, a move of that game copies the log to extend it (`games::cache`), so the game is
    // held from its load to the end without waiting on another read.
    let key = games.link_key().await.map_err(|e| e.to_string())?;
    let policy = match r.payload.get("deadline").and_then(Value::as_str) {
        None if r.channel == TURN => games
            .clock_policy(game_id)
            .await
            .map_err(|e| e.to_string())?,
        _ => None,
    };
    let time_zone = games
        .seat_time_zone(game_id, &seat_id)
        .await
        .map_err(|e| e.to_string())?;
    let mut loaded = games.load(game_id).await.map_err(|e| e.to_string())?;
    let seat_record = loaded
        .seats
        .iter()
        .find(|s| s.seat == seat_id)
        .cloned()
        .ok_or_else(|| {
            format!(
                "notice {} is for '{seat_id}', not a seat of the game",
                row.id
            )
        })?;
    let game = &loaded.game;
    let seat = Seat::parse(&seat_id)?;
    // The seat's own prompt: its own cards where the public one names a form (a reactive
    // window's `react <card>`, `Rules::own_options`).
    let prompt = game.own_prompts(&seat).into_iter().next();
    // A turn notice stands for every move made since it was written while it waited (an
    // append writes none for a seat one already waits for: `Append::once_per_seat`), so it
    // runs to the log's head, and says nothing if the seat has no decision now.
    let upto = if r.channel == TURN {
        if prompt.is_none() {
            return Ok(None);
        }
        game.next_seq
    } else {
        r.seq.saturating_add(1).min(game.next_seq)
    };
    let acted = |e: &Event| {
        (e.kind == kind::COMMAND || e.kind == kind::RESIGNED) && e.seat == seat_id
            || e.kind == kind::TIMEOUT
                && e.payload.get("seat").and_then(Value::as_str) == Some(&seat_id)
    };
    let viewer = Viewer::Seat(seat.clone());
    // The log is read as far back as the notice needs: the events the load holds (after its
    // snapshot, for a game loaded cold) when they reach the notice's event and either the
    // seat's last move or as many lines as a notice carries; the whole log otherwise, and for
    // a deadline (a seat's vacations are read from the whole log).
    let whole_log = || async { games.whole_log(&loaded).await.map_err(|e| e.to_string()) };
    let held = loaded.held();
    let mut whole = None;
    if policy.is_some() || upto <= held.0 {
        whole = Some(whole_log().await?);
    }
    let (loaded_ref, viewer_ref) = (&loaded, &viewer);
    let lines_since = |since: u64| async move {
        games
            .outcome_lines(loaded_ref, viewer_ref, since..upto, MAX_LINES)
            .await
            .map_err(|e| e.to_string())
    };
    let since = Stretch::of(whole.as_deref(), held, upto).since_own(acted);
    let mut lines = lines_since(since.unwrap_or(held.0)).await?;
    if since.is_none() && lines.len() < MAX_LINES {
        whole = Some(whole_log().await?);
        let stretch = Stretch::of(whole.as_deref(), held, upto);
        lines = lines_since(stretch.since_own(acted).unwrap_or(1)).await?;
    }
    let stretch = Stretch::of(whole.as_deref(), held, upto);
    let head = stretch
        .head()
        .ok_or_else(|| format!("notice {} follows no event", row.id))?;
    if r.channel == REMINDER && stretch.after().iter().any(&acted) {
        return Ok(None);
    }
    let payload = &r.payload;
    // A reminder or a missed deadline names its deadline; a turn notice in a clocked game gets
    // the deadline the new decision has.
    let deadline = match payload.get("deadline").and_then(Value::as_str) {
        Some(d) => Some(d.to_owned()),
        None => policy
            .and_then(|policy| {
                crate::games::clock::seat_deadline(&policy, stretch.before(), &seat_id)
            })
            .map(crate::engine::event::timestamp),
    };
    let (head_seq, head_hash) = (head.seq, head.hash.clone());
    // The files of the other seats' moves since this seat's own (a turn's, the end's).
    let carried: Vec<FileRef> = if r.channel == TURN || r.channel == GAME_OVER {
        let from = stretch.since_own(acted).unwrap_or(0);
        stretch
            .before()
            .iter()
            .filter(|e| e.seq >= from && e.seat != seat_id)
            .flat_map(|e| crate::engine::files::of_event(e).unwrap_or_default())
            .collect()
    } else {
        Vec::new()
    };
    // The log is let go of before the rest is written, so that a move of the game meanwhile
    // extends the cached log in place rather than copying it (`games::cache`).
    drop(whole);
    loaded.let_go_of_log();
    let game = &loaded.game;
    let info = game.ruleset.info();
    // The seat's credentials are placeholders here, minted as each delivery is sent: no
    // outbox row holds a link that opens the seat (`links::pending`).
    let mut credentials = Pending::new();
    let token = credentials.placeholder(Credential::SeatLink {
        game_id: game_id.to_string(),
        seat: seat_id.clone(),
    });
    let unsubscribe = credentials.placeholder(Credential::Unsubscribe {
        game_id: game_id.to_string(),
        seat: seat_id.clone(),
        channel: "email".into(),
    });
    let base = &games.base_url;
    let name_of = |seat: &str| {
        loaded
            .seats
            .iter()
            .find(|s| s.seat == seat)
            .map_or_else(|| seat.to_owned(), |s| s.name.clone())
    };
    let (result, verdict) = match game.outcome() {
        Outcome::Finished {
            summary, winners, ..
        } => {
            let won: Vec<String> = winners.iter().map(|w| name_of(w.as_str())).collect();
            let others: Vec<String> = winners
                .iter()
                .filter(|w| w.as_str() != seat_id)
                .map(|w| name_of(w.as_str()))
                .collect();
            (Some(summary), Some(verdict(won.len(), others)))
        }
        Outcome::Running => (None, None),
    };
    let context = NoticeContext {
        event: r.channel.clone(),
        game_id: game_id.to_string(),
        game_short: game_id.chars().take(8).collect(),
        seq: head_seq,
        head_seq,
        head_hash,
        title: info.title.clone(),
        game_name: crate::games::players::name_of_loaded(&loaded),
        seat: seat_id.clone(),
        seat_name: seat_record.name.clone(),
        players: loaded
            .seats
            .iter()
            .filter(|s| s.seat != seat_id)
            .map(|s| s.name.clone())
            .collect(),
        // An invitation says what the game waits for, though it is not this seat's turn.
        decision: match prompt.as_ref() {
            Some(p) => Some(p.decision.clone()),
            None if r.channel == INVITATION => Some(waiting_for(game, |seat| {
                let record = loaded.seats.iter().find(|s| s.seat == seat)?;
                Some(record.name.clone())
            })),
            None => None,
        },
        options: prompt.map(|p| p.options).unwrap_or_default(),
        grammar: info.grammar.clone(),
        lines,
        board: game.ruleset.board_text(&game.state, &viewer),
        files: notice_files(&carried, games.files().attach_up_to(), |f| {
            format!(
                "{base}/games/{game_id}/files/{}/{}?token={token}",
                f.sha256,
                url::form_urlencoded::byte_serialize(f.name.as_bytes())
                    .collect::<String>()
                    .replace('+', "%20")
            )
        }),
        link: format!("{base}/games/{game_id}?token={token}"),
        moves_link: format!("{base}/api/games/{game_id}/moves?token={token}"),
        unsubscribe_link: format!(
            "{base}/api/games/{game_id}/unsubscribe?seat={seat_id}&channel=email&sig={unsubscribe}"
        ),
        reply_to: reply_domain.and_then(|d| {
            let index = game.created.seats.iter().position(|s| s.seat == seat)?;
            Some(links::address::reply_address(&key, d, game_id, index))
        }),
        deadline,
        time_zone,
        hours_before: payload
            .get("hours_before")
            .and_then(Value::as_u64)
            .map(|h| h as u32),
        misses: payload
            .get("misses")
            .and_then(Value::as_u64)
            .map(|m| m as u32),
        consequence: payload
            .get("consequence")
            .and_then(Value::as_str)
            .map(str::to_owned),
        export_link: result
            .is_some()
            .then(|| format!("{base}/api/games/{game_id}/export")),
        result,
        verdict,
        talk_from: payload
            .get("from_name")
            .and_then(Value::as_str)
            .map(str::to_owned),
        talk_text: payload
            .get("text")
            .and_then(Value::as_str)
            .map(str::to_owned),
        talk_to_table: payload
            .get("to_table")
            .and_then(Value::as_bool)
            .unwrap_or(false),
    };
    Ok(Some(Composed {
        template,
        email: seat_record.email.clone(),
        context,
        credentials,
    }))
}

/// A stretch of the game's log running to its head, and the notice's event in it.
struct Stretch<'a> {
    /// The seq of `events[0]`.
    from: u64,
    events: &'a [Event],
    /// The seq after the notice's event.
    upto: u64,
}

impl<'a> Stretch<'a> {
    /// The whole log if it was read, else the events a load holds (and the first one's seq),
    /// with the notice's event at seq `upto - 1`.
    fn of(whole: Option<&'a Vec<Event>>, held: (u64, &'a [Event]), upto: u64) -> Stretch<'a> {
        let (from, events) = whole.map_or(held, |log| (0, log.as_slice()));
        Stretch { from, events, upto }
    }

    fn split(&self) -> usize {
        usize::try_from(self.upto.saturating_sub(self.from))
            .unwrap_or(usize::MAX)
            .min(self.events.len())
    }

    /// The events up to the notice's, from `from` on.
    fn before(&self) -> &'a [Event] {
        &self.events[..self.split()]
    }

    /// The events after the notice's.
    fn after(&self) -> &'a [Event] {
        &self.events[self.split()..]
    }

    /// The notice's event.
    fn head(&self) -> Option<&'a Event> {
        self.before().last()
    }

    /// The seq after the seat's last move (`acted`) up to the notice's event: 1 when it never
    /// moved, `None` when the stretch does not reach back far enough to tell.
    fn since_own(&self, acted: impl Fn(&Event) -> bool) -> Option<u64> {
        match self.before().iter().rposition(acted) {
            Some(i) => Some(self.from + i as u64 + 1),
            None if self.from == 0 => Some(1),
            None => None,
        }
    }
}

/// The files a notice tells of: all attached while they hold at most `attach_up_to` bytes
/// together, else all linked (`link` gives each one's link).
fn notice_files(
    files: &[FileRef],
    attach_up_to: u64,
    link: impl Fn(&FileRef) -> String,
) -> Vec<NoticeFile> {
    let attached = files.iter().map(|f| f.size).sum::<u64>() <= attach_up_to;
    files
        .iter()
        .map(|f| NoticeFile {
            size_shown: crate::games::files::bytes(f.size),
            link: link(f),
            attached,
            file: f.clone(),
        })
        .collect()
}

/// Who the game waits for, by the names `name_of` gives their seats: for a seat that is not
/// among them.
fn waiting_for(
    game: &crate::engine::game::Game,
    name_of: impl Fn(&str) -> Option<String>,
) -> String {
    let names: Vec<String> = game
        .prompts()
        .iter()
        .map(|p| name_of(p.seat.as_str()).unwrap_or_else(|| p.seat.to_string()))
        .collect();
    names.join(", ")
}

/// One line saying what happened, for chat-style hooks. `for_seat` hooks may carry the link.
pub fn summary_line(c: &NoticeContext, for_seat: bool) -> String {
    let what = match c.event.as_str() {
        TURN => format!("{}'s turn in {}", c.seat_name, c.title),
        INVITATION => format!("{} has a seat in {}", c.seat_name, c.title),
        REMINDER => format!(
            "Reminder: {} must move in {} by {}",
            c.seat_name,
            c.title,
            c.deadline.as_deref().unwrap_or("the deadline")
        ),
        DEADLINE => format!(
            "{} missed the deadline in {}. {}",
            c.seat_name,
            c.title,
            c.consequence.as_deref().unwrap_or_default()
        ),
        TALK => format!(
            "{} {} {}: {}",
            c.talk_from.as_deref().unwrap_or("A seat"),
            if c.talk_to_table {
                "to the table in"
            } else {
                "to you in"
            },
            c.title,
            c.talk_text.as_deref().unwrap_or_default()
        ),
        _ => format!(
            "Game over in {}: {}",
            c.title,
            c.result.as_deref().unwrap_or_default()
        ),
    };
    let mut line = format!(
        "{what} — {} (game {}, event {})",
        c.game_name, c.game_short, c.seq
    );
    if let (true, Some(decision)) = (for_seat, &c.decision) {
        line.push_str(&format!(" — {decision}"));
    }
    if for_seat {
        line.push_str(&format!(" {}", c.link));
    }
    line
}

/// What a finished game's result is to one seat, from how many seats won and which of the
/// winners are others: "You won", "You won, with Ben", "You lost: Ben won", "A draw: no one
/// won".
pub fn verdict(winners: usize, other_winners: Vec<String>) -> String {
    let names = crate::engine::words::and_list::<String>;
    if winners == 0 {
        "A draw: no one won".to_owned()
    } else if other_winners.len() < winners {
        match other_winners.as_slice() {
            [] => "You won".to_owned(),
            others => format!("You won, with {}", names(others)),
        }
    } else {
        format!("You lost: {} won", names(&other_winners))
    }
}

/// The JSON body of a webhook delivery. A game-wide hook is read by anyone watching the game,
/// so it never carries a seat's links or its private lines.
pub fn webhook_body(c: &NoticeContext, delivery_id: &str, for_seat: bool, format: &str) -> Value {
    if format == "discord" {
        let mut content = summary_line(c, for_seat);
        content.truncate(1900);
        return json!({ "username": "Despatch", "content": content });
    }
    let mut body = json!({
        "delivery_id": delivery_id,
        "event": c.event,
        "game_id": c.game_id,
        "seq": c.seq,
        "head": { "seq": c.head_seq, "hash": c.head_hash },
        "seat": c.seat,
        "seat_name": c.seat_name,
        "title": c.title,
        "game_name": c.game_name,
        "decision": c.decision,
        "deadline": c.deadline,
        "result": c.result,
        "text": summary_line(c, for_seat),
    });
    if for_seat {
        body["verdict"] = json!(c.verdict);
        body["options"] = json!(c.options);
        body["lines"] = json!(c.lines);
        body["link"] = json!(c.link);
        body["moves_link"] = json!(c.moves_link);
    }
    body
}
