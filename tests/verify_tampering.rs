//! `verify` against tampered exports: every kind of change is caught and named by its seq.

use despatch::engine::bot;
use despatch::engine::event::Event;
use despatch::engine::export;
use despatch::engine::ruleset::{SeatDef, Setup};
use despatch::engine::verify::verify;
use despatch::rules;
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

#[test]
fn a_header_that_is_not_a_despatch_log_is_refused() {
    let report = verify("{\"format\":\"something-else\"}\n", &rules::find);
    assert!(!report.ok());
    assert!(export::read("").is_err());
}
