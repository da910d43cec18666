//! What an operator watches: counters, gauges and histograms in Prometheus' text format, served
//! at `/metrics` only when configured (`DESPATCH_METRICS=on` on the API port, or
//! `DESPATCH_METRICS_BIND` on an address of its own; docs/operations.md).
//!
//! The parts record into one registry of this process with one-line calls — a move's outcome
//! (`games`), an append's time (`games`), a request's time (`http`), a delivery sent or failed
//! and a dispatcher panic caught (`notify`), an inbound message handled (`mail_in`). Recording
//! is a few atomic operations, so it runs whether or not anything is exposed. The outbox gauges
//! are read from the store when the page is scraped (`games` reads them and hands them to
//! `render`), so they hold for every dispatcher on the database, not just this process's.
//!
//! This module is a leaf: it imports no part of the service. A caller maps what happened to
//! the labels defined here (`MoveOutcome`, `MailIn`, `OutboxGauges`); this module only counts.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{LazyLock, Mutex};
use std::time::{Duration, Instant};

use prometheus::{
    Encoder, Gauge, Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge,
    Opts, Registry, TextEncoder,
};

/// Bucket bounds, in seconds, of the latency histograms: 1 ms to 10 s.
const LATENCY_BUCKETS: &[f64] = &[
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// Games whose ruleset this process remembers for the `ruleset` label; past this many it
/// starts again (a move refused before its game is read finds its ruleset here).
const REMEMBERED_GAMES: usize = 4096;

struct Metrics {
    registry: Registry,
    moves: IntCounterVec,
    append: Histogram,
    append_batches: IntCounterVec,
    requests: HistogramVec,
    deliveries: IntCounterVec,
    dispatcher_panics: IntCounter,
    mail_in: IntCounterVec,
    outbox_waiting: IntGauge,
    outbox_due: IntGauge,
    outbox_oldest_due: Gauge,
    rulesets: Mutex<HashMap<String, String>>,
}

fn counter_vec(registry: &Registry, name: &str, help: &str, labels: &[&str]) -> IntCounterVec {
    let c = IntCounterVec::new(Opts::new(name, help), labels).expect("a valid metric");
    registry
        .register(Box::new(c.clone()))
        .expect("registered once");
    c
}

fn latency(name: &str, help: &str) -> HistogramOpts {
    HistogramOpts::new(name, help).buckets(LATENCY_BUCKETS.to_vec())
}

impl Metrics {
    fn new() -> Metrics {
        let registry = Registry::new();
        let r = &registry;
        let moves = counter_vec(
            r,
            "despatch_moves_total",
            "Moves submitted by seats, by ruleset and outcome (accepted, replayed, stale, rule, rate_limited, bad_request, error).",
            &["ruleset", "outcome"],
        );
        let append = Histogram::with_opts(latency(
            "despatch_append_seconds",
            "Time to append a move's events, secrets and outbox rows in one transaction.",
        ))
        .expect("a valid metric");
        r.register(Box::new(append.clone()))
            .expect("registered once");
        let append_batches = counter_vec(
            r,
            "despatch_append_batches_total",
            "Group-commit statements on PostgreSQL, by result: written, or failed (each of its appends then written on its own; a steady rate of failed means every move pays for two statements).",
            &["result"],
        );
        let requests = HistogramVec::new(
            latency(
                "despatch_http_request_duration_seconds",
                "Time to answer an HTTP request (to the first byte of a stream), by method, route and status.",
            ),
            &["method", "route", "status"],
        )
        .expect("a valid metric");
        r.register(Box::new(requests.clone()))
            .expect("registered once");
        let deliveries = counter_vec(
            r,
            "despatch_deliveries_total",
            "Outbox rows handled by this process's dispatcher, by channel (email, webhook, notice) and result (sent, failed, superseded).",
            &["channel", "result"],
        );
        let dispatcher_panics = IntCounter::new(
            "despatch_dispatcher_panics_total",
            "Panics the dispatcher caught while handling a row (the row is marked failed and the others go on).",
        )
        .expect("a valid metric");
        r.register(Box::new(dispatcher_panics.clone()))
            .expect("registered once");
        let mail_in = counter_vec(
            r,
            "despatch_mail_in_total",
            "Inbound messages handled, by result (answered, refused: answered without a game, ignored).",
            &["result"],
        );
        let gauge = |name: &str, help: &str| {
            let g = IntGauge::new(name, help).expect("a valid metric");
            r.register(Box::new(g.clone())).expect("registered once");
            g
        };
        let outbox_waiting = gauge(
            "despatch_outbox_depth",
            "Outbox rows not yet delivered (read from the database when scraped).",
        );
        let outbox_due = gauge(
            "despatch_outbox_due",
            "Outbox rows due now and not yet taken by a dispatcher (read when scraped).",
        );
        let outbox_oldest_due = Gauge::new(
            "despatch_outbox_oldest_due_age_seconds",
            "How long the longest-waiting due outbox row has been due; 0 when none is (read when scraped).",
        )
        .expect("a valid metric");
        r.register(Box::new(outbox_oldest_due.clone()))
            .expect("registered once");
        Metrics {
            registry,
            moves,
            append,
            append_batches,
            requests,
            deliveries,
            dispatcher_panics,
            mail_in,
            outbox_waiting,
            outbox_due,
            outbox_oldest_due,
            rulesets: Mutex::new(HashMap::new()),
        }
    }
}

static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);

/// Remembers the ruleset of a game a move was loaded for.
pub fn note_ruleset(game_id: &str, ruleset: &str) {
    if let Ok(mut map) = METRICS.rulesets.lock() {
        if map.len() >= REMEMBERED_GAMES && !map.contains_key(game_id) {
            map.clear();
        }
        if !map.contains_key(game_id) {
            map.insert(game_id.to_owned(), ruleset.to_owned());
        }
    }
}

/// What became of a submitted move: the `outcome` label of `despatch_moves_total`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveOutcome {
    Accepted,
    Replayed,
    Stale,
    Rule,
    RateLimited,
    BadRequest,
    Error,
}

impl MoveOutcome {
    /// The label's value.
    pub fn label(self) -> &'static str {
        match self {
            MoveOutcome::Accepted => "accepted",
            MoveOutcome::Replayed => "replayed",
            MoveOutcome::Stale => "stale",
            MoveOutcome::Rule => "rule",
            MoveOutcome::RateLimited => "rate_limited",
            MoveOutcome::BadRequest => "bad_request",
            MoveOutcome::Error => "error",
        }
    }
}

/// Counts a submitted move by its game's ruleset and its outcome. A move refused before its
/// game was read (rate-limited) is counted under the ruleset this process last loaded the game
/// with: the rate limits are per process, so a seat is only limited where its earlier moves were
/// made.
pub fn moved(game_id: &str, outcome: MoveOutcome) {
    let ruleset = METRICS
        .rulesets
        .lock()
        .ok()
        .and_then(|map| map.get(game_id).cloned())
        .unwrap_or_else(|| "unknown".into());
    METRICS
        .moves
        .with_label_values(&[ruleset.as_str(), outcome.label()])
        .inc();
}

/// Runs an append and records how long it took.
pub async fn timed_append<F: Future>(append: F) -> F::Output {
    let started = Instant::now();
    let out = append.await;
    METRICS.append.observe(started.elapsed().as_secs_f64());
    out
}

/// Records an answered HTTP request. `route` is the route's pattern (`/games/{game_id}`), never
/// the path itself, so ids and tokens never become labels.
pub fn request(method: &str, route: &str, status: u16, took: Duration) {
    METRICS
        .requests
        .with_label_values(&[method, route, &status.to_string()])
        .observe(took.as_secs_f64());
}

/// Counts a group-commit statement of appends (`store::pg_batch`), written or failed.
pub fn append_batch(written: bool) {
    METRICS
        .append_batches
        .with_label_values(&[if written { "written" } else { "failed" }])
        .inc();
}

/// Counts an outbox row handled: a delivery (`email`, `webhook`) or a notice expanded into its
/// deliveries (any other channel counts as `notice`).
pub fn delivery(channel: &str, sent: bool) {
    let channel = match channel {
        "email" | "webhook" => channel,
        _ => "notice",
    };
    let result = if sent { "sent" } else { "failed" };
    METRICS
        .deliveries
        .with_label_values(&[channel, result])
        .inc();
}

/// Counts notices let go unsent because a later notice to the same seat says all of them
/// (`notify::dispatcher`): `despatch_deliveries_total{channel="notice",result="superseded"}`.
pub fn notices_superseded(n: u64) {
    METRICS
        .deliveries
        .with_label_values(&["notice", "superseded"])
        .inc_by(n);
}

/// Counts a panic the dispatcher caught while handling a row.
pub fn dispatcher_panic() {
    METRICS.dispatcher_panics.inc();
}

/// What became of an inbound message: the `result` label of `despatch_mail_in_total`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MailIn {
    /// Answered, and it reached a game.
    Answered,
    /// Answered, but it reached no game.
    Refused,
    Ignored,
}

impl MailIn {
    /// The label's value.
    pub fn label(self) -> &'static str {
        match self {
            MailIn::Answered => "answered",
            MailIn::Refused => "refused",
            MailIn::Ignored => "ignored",
        }
    }
}

/// Counts an inbound message handled: `answered`, `refused` (answered, but it reached no game)
/// or `ignored`.
pub fn mail_in(result: MailIn) {
    METRICS.mail_in.with_label_values(&[result.label()]).inc();
}

/// The outbox as the store reads it when the page is scraped, for its gauges.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OutboxGauges {
    /// Rows not yet delivered.
    pub waiting: i64,
    /// Rows due now and not yet taken by a dispatcher.
    pub due: i64,
    /// How long the longest-waiting due row has been due, in seconds (0 or less: none is).
    pub oldest_due_secs: f64,
}

/// The page Prometheus scrapes: the outbox's gauges as the caller read them, then every metric
/// of this process in the text format.
pub fn render(outbox: OutboxGauges) -> Result<String, RenderError> {
    METRICS.outbox_waiting.set(outbox.waiting);
    METRICS.outbox_due.set(outbox.due);
    METRICS
        .outbox_oldest_due
        .set(outbox.oldest_due_secs.max(0.0));
    let mut out = Vec::new();
    TextEncoder::new().encode(&METRICS.registry.gather(), &mut out)?;
    Ok(String::from_utf8(out)?)
}

/// Why the metrics page could not be written.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("cannot encode the metrics: {0}")]
    Encode(#[from] prometheus::Error),
    #[error("the metrics are not UTF-8: {0}")]
    Utf8(#[from] std::string::FromUtf8Error),
}

/// A metrics setting that is not understood, and what to write instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("DESPATCH_METRICS={0} is not understood: write on or off (or set DESPATCH_METRICS_BIND=host:port to serve /metrics on an address of its own)")]
pub struct ExposureError(pub String);

/// The content type of `render`'s page.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// Where `/metrics` is served, from the environment: `DESPATCH_METRICS=on` serves it on the API
/// port; `DESPATCH_METRICS_BIND=host:port` serves it on an address of its own (and not on the
/// API port). Neither: not served (the default).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Exposure {
    pub on_api_port: bool,
    pub bind: Option<String>,
}

impl Exposure {
    pub fn from_env() -> Result<Exposure, ExposureError> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let bind = var("DESPATCH_METRICS_BIND").map(|b| b.trim().to_owned());
        let on = match var("DESPATCH_METRICS").map(|v| v.trim().to_ascii_lowercase()) {
            None => false,
            Some(v) if matches!(v.as_str(), "on" | "1" | "true" | "yes") => true,
            Some(v) if matches!(v.as_str(), "off" | "0" | "false" | "no") => false,
            Some(v) => return Err(ExposureError(v)),
        };
        Ok(Exposure {
            on_api_port: on && bind.is_none(),
            bind,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_delivery_row_of_a_notice_counts_as_a_notice() {
        delivery("turn", true);
        delivery("email", false);
        let text = TextEncoder::new()
            .encode_to_string(&METRICS.registry.gather())
            .unwrap();
        assert!(
            text.contains("despatch_deliveries_total{channel=\"notice\",result=\"sent\"}"),
            "{text}"
        );
        assert!(
            text.contains("despatch_deliveries_total{channel=\"email\",result=\"failed\"}"),
            "{text}"
        );
    }
}
