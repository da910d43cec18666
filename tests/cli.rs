//! The `despatch` command line, run as a user runs it.

use std::process::{Command, Output};

fn despatch(args: &[&str], dir: &std::path::Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_despatch"))
        .args(args)
        .current_dir(dir)
        .env(
            "DATABASE_URL",
            format!("sqlite:{}/despatch.db?mode=rwc", dir.display()),
        )
        .env("RUST_LOG", "warn")
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn replay_runs_a_script_with_scripted_dice_and_says_it_is_unverifiable() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("script.txt"),
        "# a tutorial\nalice: Fire on the bridge\n  roll 2d6 to hit\nbob: roll d6+1 morale\n",
    )
    .unwrap();
    let out = despatch(
        &[
            "replay",
            "--seats",
            "alice,bob",
            "--dice",
            "3,4,6",
            "script.txt",
        ],
        dir.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert!(text.contains("UNVERIFIABLE"));
    assert!(
        text.contains("alice rolls 2d6 (to hit): 3 + 4 = 7"),
        "{text}"
    );
    assert!(
        text.contains("bob rolls 1d6+1 (morale): 6 + 1 = 7"),
        "{text}"
    );
}

#[test]
fn replay_names_the_step_that_fails() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("s.txt"),
        "alice: roll 2d6\nalice: out of turn\n",
    )
    .unwrap();
    let out = despatch(
        &["replay", "--seats", "alice,bob", "--dice", "1,2", "s.txt"],
        dir.path(),
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("step 2 (alice)") && err.contains("not alice's turn"),
        "{err}"
    );
    let out = despatch(
        &["replay", "--seats", "alice,bob", "--dice", "9", "s.txt"],
        dir.path(),
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("step 1") && err.contains("scripted die 9"),
        "{err}"
    );
}

#[test]
fn new_game_export_and_verify_work_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = despatch(
        &[
            "new-game",
            "--seat",
            "Anna <anna@example.org>",
            "--seat",
            "ben=Ben",
        ],
        dir.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    let game = text
        .lines()
        .next()
        .unwrap()
        .strip_prefix("game ")
        .unwrap()
        .trim()
        .to_owned();
    assert!(text.contains("anna (Anna): token "), "{text}");
    assert!(text.contains("ben (Ben): token "), "{text}");

    let out = despatch(&["export", &game, "--out", "game.jsonl"], dir.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = despatch(&["verify", "game.jsonl"], dir.path());
    assert!(out.status.success(), "{}", stdout(&out));
    assert!(stdout(&out).contains("VERIFIED"));

    let exported = std::fs::read_to_string(dir.path().join("game.jsonl")).unwrap();
    std::fs::write(
        dir.path().join("bad.jsonl"),
        exported.replacen("\"anna\"", "\"anne\"", 1),
    )
    .unwrap();
    let out = despatch(&["verify", "bad.jsonl"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("FAILED at seq 0"), "{}", stdout(&out));
}

#[test]
fn verify_with_a_witness_checks_the_export_against_what_the_player_was_shown() {
    let dir = tempfile::tempdir().unwrap();
    let out = despatch(&["new-game", "--seat", "Anna", "--seat", "Ben"], dir.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let game = stdout(&out).lines().next().unwrap()["game ".len()..]
        .trim()
        .to_owned();
    let out = despatch(&["export", &game, "--out", "game.jsonl"], dir.path());
    assert!(out.status.success());
    let exported = std::fs::read_to_string(dir.path().join("game.jsonl")).unwrap();
    let created: serde_json::Value =
        serde_json::from_str(exported.lines().nth(1).unwrap()).unwrap();
    let hash = created["hash"].as_str().unwrap();

    std::fs::write(
        dir.path().join("seen.txt"),
        format!("# my notes\n0 {hash}\n"),
    )
    .unwrap();
    let out = despatch(
        &["verify", "game.jsonl", "--witness", "seen.txt"],
        dir.path(),
    );
    assert!(out.status.success(), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("witnesses: the export holds all 1"),
        "{}",
        stdout(&out)
    );

    // Shown another history: refused, naming the seq.
    std::fs::write(
        dir.path().join("other.txt"),
        format!("0 {}\n", "ab".repeat(32)),
    )
    .unwrap();
    let out = despatch(
        &["verify", "game.jsonl", "--witness", "other.txt"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("FAILED at seq 0"), "{}", stdout(&out));
    assert!(stdout(&out).contains("rewritten"), "{}", stdout(&out));

    // A witness file that is not one says which line and why, and checks nothing.
    std::fs::write(dir.path().join("bad.txt"), "0 not-a-hash\n").unwrap();
    let out = despatch(
        &["verify", "game.jsonl", "--witness", "bad.txt"],
        dir.path(),
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.txt line 1") && err.contains("64 hex digits"),
        "{err}"
    );
    assert!(
        stdout(&out).is_empty(),
        "nothing was verified: {}",
        stdout(&out)
    );
}

#[test]
fn verify_of_a_missing_file_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let out = despatch(&["verify", "nowhere.jsonl"], dir.path());
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read nowhere.jsonl"));
}

#[test]
fn dispatch_once_writes_the_turn_email_to_the_mail_folder_without_smtp() {
    let dir = tempfile::tempdir().unwrap();
    let created = despatch(
        &[
            "new-game",
            "--seat",
            "Anna <anna@example.org>",
            "--seat",
            "Ben",
            "--clock",
            "relaxed",
        ],
        dir.path(),
    );
    assert!(
        created.status.success(),
        "{}",
        String::from_utf8_lossy(&created.stderr)
    );
    let out = despatch(&["dispatch", "--once"], dir.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout(&out).contains("outbox row(s) handled"),
        "{}",
        stdout(&out)
    );
    let mail: Vec<_> = std::fs::read_dir(dir.path().join("data/mail"))
        .expect("./data/mail/ holds the email")
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(
        mail.len(),
        1,
        "one turn notice, for anna (ben has no address)"
    );
    let text = std::fs::read_to_string(&mail[0]).unwrap();
    assert!(
        text.contains("To: \"Anna\" <anna@example.org>")
            || text.contains("To: Anna <anna@example.org>"),
        "{text}"
    );
    assert!(text.contains("Your turn, Anna"), "{text}");
    assert!(
        text.contains("Deadline: "),
        "a clocked game's turn notice names the deadline: {text}"
    );
}
