//! `verify` against tampered exports: every kind of change is caught and named by its seq.

use despatch_core::engine::bot;
use despatch_core::engine::event::Event;
use despatch_core::engine::export;
use despatch_core::engine::ruleset::{SeatDef, Setup};
use despatch_core::engine::verify::{verify, verify_witnessed};
use despatch_core::rules;
use serde_json::json;

/// A finished open-table game with rolls, a sealed note and its reveal.
fn finished_game() -> String {
    let setup = Setup {
        game_id: "g-tamper".into(),
        scenario: "default".into(),
        options: json!({}),
        seats: SeatDef::named_by_id(&["a", "b"]).unwrap(),
    };
    for seed in 0..100 {
        let game = bot::play(
            rules::find("open-table").unwrap(),
            setup.clone(),
            seed,
            300,
            &mut |_, _| Ok(()),
        )
        .unwrap();
        let text = game.export();
        if game.game.ended && text.contains("\"Revealed\"") && text.contains("\"dice\"") {
            return text;
        }
    }
    panic!("no bot game had rolls, a reveal and an end");
}

fn lines(text: &str) -> (String, Vec<Event>) {
    let mut it = text.lines();
    let header = it.next().unwrap().to_owned();
    (
        header,
        it.map(|l| serde_json::from_str(l).unwrap()).collect(),
    )
}

/// Rewrites the export after changing events, re-hashing from `from` on so that only the
/// changed content, not the hash chain, gives the change away.
fn rehashed(header: &str, mut events: Vec<Event>, from: usize) -> String {
    for i in from..events.len() {
        if i > 0 {
            events[i].prev_hash = events[i - 1].hash.clone();
        }
        events[i].hash = events[i].compute_hash();
    }
    let mut out = format!("{header}\n");
    for e in &events {
        out.push_str(&serde_json::to_string(e).unwrap());
        out.push('\n');
    }
    out
}

#[test]
fn an_untouched_export_verifies_completely() {
    let text = finished_game();
    let report = verify(&text, &rules::find);
    assert!(report.ok(), "{}", report.render());
    assert!(report.complete && report.refolded);
    assert!(report.rolls_checked > 0 && report.reveals_checked > 0);
    assert!(report.render().ends_with("VERIFIED\n"));
}

#[test]
fn one_byte_changed_names_the_seq_of_the_changed_event() {
    let text = finished_game();
    let (header, events) = lines(&text);
    let target = events
        .iter()
        .find(|e| e.kind == "Command" && e.seq > 2)
        .unwrap()
        .seq;
    let original = serde_json::to_string(&events[target as usize]).unwrap();
    let changed = original.replacen("move ", "mova ", 1);
    assert_ne!(original, changed);
    let tampered = text.replacen(&original, &changed, 1);
    assert_eq!(tampered.len(), text.len());
    let report = verify(&tampered, &rules::find);
    let failure = report.failure.clone().expect("a changed byte is caught");
    assert_eq!(failure.seq, target, "{}", failure.problem);
    assert!(failure.problem.contains("hash"), "{}", failure.problem);
    assert!(report.render().contains(&format!("FAILED at seq {target}")));
    assert!(header.contains("despatch-log"));
}

#[test]
fn a_truncated_export_is_refused() {
    let text = finished_game();
    let kept: Vec<&str> = text.lines().collect();
    let truncated = kept[..kept.len() - 2].join("\n");
    let report = verify(&truncated, &rules::find);
    let failure = report.failure.expect("truncation is caught");
    assert!(failure.problem.contains("truncated"), "{}", failure.problem);
    // A line cut in the middle is caught too.
    let cut = &text[..text.len() - 40];
    assert!(!verify(cut, &rules::find).ok());
}

#[test]
fn a_changed_die_face_is_caught_even_with_the_hashes_recomputed() {
    let text = finished_game();
    let (header, mut events) = lines(&text);
    let i = events.iter().position(|e| e.dice.is_some()).unwrap();
    let roll = &mut events[i].dice.as_mut().unwrap().rolls[0];
    roll.face = if roll.face == 1 { 2 } else { 1 };
    let report = verify(&rehashed(&header, events, i), &rules::find);
    let failure = report.failure.expect("a forged face is caught");
    assert_eq!(failure.seq, i as u64);
    assert!(failure.problem.contains("die 1"), "{}", failure.problem);
}

#[test]
fn a_wrong_reveal_salt_is_caught() {
    let text = finished_game();
    let (header, mut events) = lines(&text);
    let i = events.iter().position(|e| e.kind == "Revealed").unwrap();
    events[i].payload["salt"] = json!("00000000000000000000000000000000");
    let report = verify(&rehashed(&header, events, i), &rules::find);
    let failure = report.failure.expect("a wrong salt is caught");
    assert_eq!(failure.seq, i as u64);
    assert!(
        failure.problem.contains("does not open"),
        "{}",
        failure.problem
    );
}

#[test]
fn a_forged_hidden_seed_is_caught() {
    let text = finished_game();
    let (header, mut events) = lines(&text);
    let last = events.len() - 1;
    events[last].payload["hidden_seed"] = json!("11".repeat(32));
    let report = verify(&rehashed(&header, events, last), &rules::find);
    let failure = report.failure.expect("a forged seed is caught");
    assert_eq!(failure.seq, last as u64);
    assert!(
        failure.problem.contains("hidden seed"),
        "{}",
        failure.problem
    );
}

#[test]
fn a_forged_final_state_hash_is_caught_by_the_re_fold() {
    let text = finished_game();
    let (header, mut events) = lines(&text);
    let last = events.len() - 1;
    events[last].payload["state_hash"] = json!("22".repeat(32));
    let report = verify(&rehashed(&header, events, last), &rules::find);
    let failure = report.failure.expect("a forged state hash is caught");
    assert!(
        failure.problem.contains("re-folded state"),
        "{}",
        failure.problem
    );
}

#[test]
fn an_illegal_move_inserted_into_the_log_fails_the_re_fold() {
    let text = finished_game();
    let (header, mut events) = lines(&text);
    // Give seat b's first command to seat a: out of turn under the rules.
    let i = events
        .iter()
        .position(|e| e.kind == "Command" && e.seat == "b" && e.dice.is_none())
        .unwrap();
    events[i].seat = "a".into();
    let report = verify(&rehashed(&header, events, i), &rules::find);
    let failure = report.failure.expect("an illegal event is caught");
    assert_eq!(failure.seq, i as u64, "{}", failure.problem);
}

/// A log played under another version of its rules that does not fold under this one says so:
/// the failure names both versions, so that a player checks it with a build of the version it
/// was played under. The same failure under this version says nothing of versions.
#[test]
fn a_log_of_another_rules_version_that_does_not_fold_names_both_versions() {
    let text = finished_game();
    let (header, mut events) = lines(&text);
    let i = events
        .iter()
        .position(|e| e.kind == "Command" && e.seat == "b" && e.dice.is_none())
        .unwrap();
    events[i].seat = "a".into();
    let played =
        despatch_core::engine::game::versions_text(rules::find("open-table").unwrap().versions());

    let same = verify(&rehashed(&header, events.clone(), i), &rules::find);
    let problem = same.failure.expect("an illegal event is caught").problem;
    assert!(!problem.contains("rules version"), "{problem}");

    events[0].payload["ruleset_version"] = json!("0");
    let mut older: serde_json::Value = serde_json::from_str(&header).unwrap();
    older["ruleset_version"] = json!("0");
    let report = verify(&rehashed(&older.to_string(), events, 0), &rules::find);
    let failure = report.failure.expect("an illegal event is caught");
    assert_eq!(failure.seq, i as u64, "{}", failure.problem);
    assert!(
        failure.problem.contains(&format!(
            "played under open-table rules version 0; this verifier plays {played}"
        )),
        "{}",
        failure.problem
    );
}

#[test]
fn a_header_that_is_not_a_despatch_log_is_refused() {
    let report = verify("{\"format\":\"something-else\"}\n", &rules::find);
    assert!(!report.ok());
    assert!(export::read("").is_err());
}

// ---------------------------------------------------------------------------------------------
// The tamper suite over every ruleset: each kind of change to a finished game's export and to a
// running game's export is refused, naming the first bad seq; the browser's verifier
// (static/verify.js, run by node) refuses each one too.

/// A bot game of `ruleset`, finished (`max_moves` large) or stopped mid-way.
fn bot_game(ruleset: &str, max_moves: usize) -> bot::BotGame {
    let (scenario, seats): (&str, &[&str]) = match ruleset {
        "open-table" => ("default", &["a", "b"]),
        "for-honor-and-glory" => ("queenston-heights", &["american", "british"]),
        "hour-of-glory" => ("mission", &["defender", "harris", "link"]),
        other => panic!("no set-up for {other}"),
    };
    let setup = Setup {
        game_id: format!("g-tamper-{ruleset}"),
        scenario: scenario.into(),
        options: json!({}),
        seats: SeatDef::named_by_id(seats).unwrap(),
    };
    for seed in 0..100 {
        let game = bot::play(
            rules::find(ruleset).unwrap(),
            setup.clone(),
            seed,
            max_moves,
            &mut |_, _| Ok(()),
        )
        .unwrap();
        let rolls = game.events.iter().filter(|e| e.dice.is_some()).count();
        let commands = game.events.iter().filter(|e| e.kind == "Command").count();
        if game.game.ended == (max_moves >= 2_000) && rolls >= 2 && commands >= 4 {
            return game;
        }
    }
    panic!("no {ruleset} bot game of {max_moves} moves fit the suite");
}

/// Changes the header line's JSON.
fn with_header(text: &str, change: impl FnOnce(&mut serde_json::Value)) -> String {
    let (first, rest) = text.split_once('\n').unwrap();
    let mut header: serde_json::Value = serde_json::from_str(first).unwrap();
    change(&mut header);
    format!("{header}\n{rest}")
}

/// The export of `events` (as they are, hashes untouched) under `header`, its count set to
/// `count`.
fn written(header: &str, events: &[Event], count: usize) -> String {
    let mut out = with_header(&format!("{header}\n"), |h| h["events"] = json!(count));
    for e in events {
        out.push_str(&serde_json::to_string(e).unwrap());
        out.push('\n');
    }
    out
}

/// One tampered export, the seq its refusal must name and a word its message must hold.
struct Tamper {
    what: String,
    text: String,
    seq: u64,
    says: &'static str,
}

/// Every kind of tampering the suite makes to `text`, the export of a finished game (`ended`)
/// or of one still running.
fn tampers(text: &str, ended: bool) -> Vec<Tamper> {
    let (header, events) = lines(text);
    let n = events.len();
    let mut out = Vec::new();
    let mut add = |what: &str, text: String, seq: usize, says: &'static str| {
        out.push(Tamper {
            what: what.into(),
            text,
            seq: seq as u64,
            says,
        })
    };

    // A die's face, with every hash after it recomputed: the dice check names the event.
    let rolled = events.iter().position(|e| e.dice.is_some()).unwrap();
    let mut forged = events.clone();
    let roll = &mut forged[rolled].dice.as_mut().unwrap().rolls[0];
    roll.face = if roll.face == 1 { 2 } else { 1 };
    add(
        "a die's face",
        rehashed(&header, forged, rolled),
        rolled,
        "shows",
    );

    // A command's payload, its hash left as written.
    let command = events.iter().rposition(|e| e.kind == "Command").unwrap();
    let mut forged = events.clone();
    forged[command].payload["forged"] = json!(true);
    add("a payload", written(&header, &forged, n), command, "hash");

    // An event dropped, the count fixed to match.
    let dropped = n / 2;
    let mut forged = events.clone();
    forged.remove(dropped);
    add(
        "an event dropped",
        written(&header, &forged, n - 1),
        dropped,
        "seq",
    );

    // Two events swapped.
    let (i, j) = (n / 3, n / 3 + 1);
    let mut forged = events.clone();
    forged.swap(i, j);
    add("two events swapped", written(&header, &forged, n), i, "seq");

    // Truncated, the count left as it was: the first missing seq is named.
    let cut = n - 2;
    add(
        "truncated, count unchanged",
        written(&header, &events[..cut], n),
        cut,
        "truncated",
    );

    // The count changed, up and down.
    add(
        "the count raised",
        written(&header, &events, n + 1),
        n,
        "truncated",
    );
    add(
        "the count lowered",
        written(&header, &events, n - 1),
        n - 1,
        "padded",
    );

    if ended {
        // Cut before GameEnded with the count fixed: complete no more.
        add(
            "truncated before GameEnded, count fixed",
            written(&header, &events[..n - 1], n - 1),
            n - 1,
            "without GameEnded",
        );
        // Marked as running although it ended.
        let flipped = with_header(text, |h| {
            h["complete"] = json!(false);
            h["redacted_for"] = json!("spectator");
        });
        add("complete flag cleared", flipped, n - 1, "still running");
        // The hidden seed changed, or withheld, with the last hash recomputed.
        let mut forged = events.clone();
        forged[n - 1].payload["hidden_seed"] = json!("11".repeat(32));
        add(
            "the hidden seed changed",
            rehashed(&header, forged, n - 1),
            n - 1,
            "hidden seed",
        );
        let mut forged = events.clone();
        forged[n - 1].payload["hidden_seed"] = serde_json::Value::Null;
        add(
            "the hidden seed withheld",
            rehashed(&header, forged, n - 1),
            n - 1,
            "hidden seed",
        );
    } else {
        // A running game's export that says it is complete.
        let flipped = with_header(text, |h| {
            h["complete"] = json!(true);
            h.as_object_mut().unwrap().remove("redacted_for");
        });
        add("complete flag set", flipped, n, "without GameEnded");
    }
    out
}

/// The suite for one ruleset: the untouched exports verify, every tampered one is refused at
/// the seq it names, by the Rust verifier and by the browser's.
fn tamper_suite(ruleset: &str) {
    let finished = bot_game(ruleset, 2_000);
    let running = bot_game(ruleset, 12);
    let mut js_cases = Vec::new();
    for (game, ended) in [(&finished, true), (&running, false)] {
        let text = game.export();
        let report = verify(&text, &rules::find);
        assert!(report.ok(), "{ruleset}: {}", report.render());
        assert_eq!(report.complete, ended);
        js_cases.push((format!("{ruleset}, untouched"), text.clone(), None));
        for t in tampers(&text, ended) {
            let what = format!(
                "{ruleset} ({}), {}",
                if ended { "finished" } else { "running" },
                t.what
            );
            let report = verify(&t.text, &rules::find);
            let failure = report
                .failure
                .clone()
                .unwrap_or_else(|| panic!("{what}: accepted\n{}", report.render()));
            assert_eq!(failure.seq, t.seq, "{what}: {}", failure.problem);
            assert!(
                failure.problem.contains(t.says),
                "{what}: the message should say '{}': {}",
                t.says,
                failure.problem
            );
            assert!(
                report
                    .render()
                    .contains(&format!("FAILED at seq {}", t.seq)),
                "{what}"
            );
            js_cases.push((what, t.text, Some(t.seq)));
        }
    }
    browser_verifier_agrees(&js_cases);
}

/// Runs static/verify.js under node over each export: it accepts the untouched ones and refuses
/// each tampered one with a finding at the seq the Rust verifier named.
fn browser_verifier_agrees(cases: &[(String, String, Option<u64>)]) {
    let dir = tempfile::tempdir().unwrap();
    for (i, (_, text, _)) in cases.iter().enumerate() {
        std::fs::write(dir.path().join(format!("{i}.jsonl")), text).unwrap();
    }
    let script = format!(
        "const v = require({:?}); const fs = require('fs');
         (async () => {{ const out = [];
           for (let i = 0; i < {}; i++) {{
             const r = await v.verifyExport(fs.readFileSync({:?} + '/' + i + '.jsonl', 'utf8'));
             out.push({{ ok: r.ok, seqs: r.findings.map(f => f.seq) }});
           }}
           console.log(JSON.stringify(out)); }})();",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../static/verify.js"),
        cases.len(),
        dir.path().to_str().unwrap()
    );
    let node = std::env::var("DESPATCH_NODE").unwrap_or_else(|_| "node".into());
    let out = std::process::Command::new(&node)
        .arg("-e")
        .arg(script)
        .output()
        .unwrap_or_else(|e| panic!("the browser verifier's tests need node ({node}): {e}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let verdicts: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(verdicts.len(), cases.len());
    for ((what, _, seq), verdict) in cases.iter().zip(&verdicts) {
        match seq {
            None => assert_eq!(verdict["ok"], true, "verify.js refuses {what}: {verdict}"),
            Some(seq) => {
                assert_eq!(verdict["ok"], false, "verify.js accepts {what}");
                assert!(
                    verdict["seqs"].as_array().unwrap().contains(&json!(seq)),
                    "verify.js names no finding at seq {seq} for {what}: {verdict}"
                );
            }
        }
    }
}

#[test]
fn every_tampering_of_an_open_table_export_is_refused_at_its_seq() {
    tamper_suite("open-table");
}

#[test]
fn every_tampering_of_a_for_honor_and_glory_export_is_refused_at_its_seq() {
    tamper_suite("for-honor-and-glory");
}

#[test]
fn every_tampering_of_an_hour_of_glory_export_is_refused_at_its_seq() {
    tamper_suite("hour-of-glory");
}

// ---------------------------------------------------------------------------------------------
// Witnessed logs: the (seq, hash) pairs notices showed a player, against a rewritten history.

/// A running game's export and the same history rewritten from `seq` on: the move there is
/// back-dated (as a server would to put it before a deadline) and every hash after it
/// recomputed. The rewrite is one intact hash chain.
fn rewritten_history() -> (String, String, u64) {
    let game = bot_game("open-table", 40);
    let text = game.export();
    let (header, mut events) = lines(&text);
    let seq = events.len() / 2;
    events[seq].recorded_at = "2026-01-01T00:00:00.000Z".into();
    (text, rehashed(&header, events, seq), seq as u64)
}

fn witness(lines: &str) -> Vec<despatch_core::engine::witness::Witnessed> {
    despatch_core::engine::witness::parse(lines, "witness.txt").unwrap()
}

#[test]
fn a_history_rewritten_and_rehashed_passes_plain_verify_but_not_the_witness() {
    let (original, rewritten, seq) = rewritten_history();
    let (_, events) = lines(&original);
    let report = verify(&rewritten, &rules::find);
    assert!(
        report.ok(),
        "the chain alone cannot tell: {}",
        report.render()
    );

    // The player was shown event seq + 2 in a notice, and event seq - 1 before that.
    let shown = witness(&format!(
        "{} {}\n{} {}\n",
        seq - 1,
        events[seq as usize - 1].hash,
        seq + 2,
        events[seq as usize + 2].hash
    ));
    let honest = verify_witnessed(&original, &rules::find, &shown);
    assert!(honest.ok(), "{}", honest.render());
    assert_eq!(honest.witnessed, 2);
    assert!(honest
        .render()
        .contains("witnesses: the export holds all 2"));

    let report = verify_witnessed(&rewritten, &rules::find, &shown);
    let failure = report
        .failure
        .clone()
        .expect("the witness catches the rewrite");
    assert_eq!(failure.seq, seq + 2, "{}", failure.problem);
    assert!(failure.problem.contains("rewritten"), "{}", failure.problem);
    assert!(report
        .render()
        .contains(&format!("FAILED at seq {}", seq + 2)));

    // A witness covers only what it saw: one from before the rewrite cannot see it.
    let early = witness(&format!("{} {}\n", seq - 1, events[seq as usize - 1].hash));
    assert!(verify_witnessed(&rewritten, &rules::find, &early).ok());
}

#[test]
fn an_export_that_stops_short_of_a_witnessed_seq_is_refused() {
    let (original, _, _) = rewritten_history();
    let (header, events) = lines(&original);
    let last = events.len() - 1;
    // Cut with the count fixed: a running game's export that is simply older passes alone.
    let cut = written(&header, &events[..last - 3], last - 3);
    assert!(verify(&cut, &rules::find).ok());
    let shown = witness(&format!("{last} {}\n", events[last].hash));
    let failure = verify_witnessed(&cut, &rules::find, &shown)
        .failure
        .expect("the export does not reach what the player saw");
    assert_eq!(failure.seq, last as u64);
    assert!(
        failure.problem.contains("does not extend"),
        "{}",
        failure.problem
    );
}

#[test]
fn two_different_hashes_shown_for_one_seq_are_refused_and_other_games_are_set_aside() {
    let (original, _, _) = rewritten_history();
    let (_, events) = lines(&original);
    let forked = witness(&format!("3 {}\n3 {}\n", events[3].hash, "ee".repeat(32)));
    let failure = verify_witnessed(&original, &rules::find, &forked)
        .failure
        .unwrap();
    assert_eq!(failure.seq, 3);
    assert!(
        failure.problem.contains("two different hashes"),
        "{}",
        failure.problem
    );

    let game = &events[0].game_id;
    let mixed = witness(&format!(
        "other-game 3 {}\n{game} 3 {}\n",
        "ee".repeat(32),
        events[3].hash
    ));
    let report = verify_witnessed(&original, &rules::find, &mixed);
    assert!(report.ok(), "{}", report.render());
    assert_eq!(report.witnessed, 1);
    let elsewhere = witness(&format!("other-game 3 {}\n", events[3].hash));
    let failure = verify_witnessed(&original, &rules::find, &elsewhere)
        .failure
        .unwrap();
    assert!(
        failure.problem.contains("no witness is for game"),
        "{}",
        failure.problem
    );
}

/// A log of a rules version this build does not play, which folds under the newest, verifies,
/// and the report says under which version it was checked.
#[test]
fn a_log_of_a_version_this_build_does_not_play_is_checked_under_the_newest_and_says_so() {
    let text = finished_game();
    let (header, mut events) = lines(&text);
    events[0].payload["ruleset_version"] = json!("0");
    let mut older: serde_json::Value = serde_json::from_str(&header).unwrap();
    older["ruleset_version"] = json!("0");
    let report = verify(&rehashed(&older.to_string(), events, 0), &rules::find);
    assert!(report.ok(), "{}", report.render());
    let current = rules::find("open-table").unwrap().info().version;
    assert_eq!(
        report.refold_note.as_deref(),
        Some(
            format!(
                "every event is legal under open-table rules version {current}; the log was played under version 0, which this verifier does not play"
            )
            .as_str()
        )
    );
    assert!(report
        .render()
        .starts_with("game g-tamper (open-table rules version 0), "));
}

/// A running game whose set-up deals cards face down (Searching for Glory's hands) cannot be
/// re-folded before its hidden seed is revealed: its export verifies everything else — the
/// hash chain, every roll, every reveal — and says the re-fold waits for the game's end,
/// rather than failing on hands dealt from the wrong seed. A changed die still fails it.
#[test]
fn a_running_game_dealt_face_down_verifies_all_but_its_refold_until_the_end() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/golden/searching-for-glory/v5/danube-1809-berthier-midway.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    let report = verify(&text, &rules::find);
    assert!(report.ok(), "{}", report.render());
    assert!(!report.refolded);
    assert!(report.rolls_checked > 0 && report.reveals_checked > 0);
    assert!(
        report
            .refold_note
            .as_deref()
            .is_some_and(|n| n.starts_with("not run: the set-up deals from the hidden stream")),
        "{}",
        report.render()
    );

    let (header, mut events) = lines(&text);
    let i = events.iter().position(|e| e.dice.is_some()).unwrap();
    let roll = &mut events[i].dice.as_mut().unwrap().rolls[0];
    roll.face = roll.face % roll.sides + 1;
    let report = verify(&rehashed(&header, events, i), &rules::find);
    assert_eq!(
        report.failure.expect("a changed die is caught").seq,
        i as u64
    );
}
