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
fn replay_takes_the_dice_from_the_script_s_header_unless_the_command_line_gives_them() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("s.txt"),
        "# seats: alice, bob\n# dice: 3, 4\n# dice: 6\nalice: roll 2d6 to hit\nbob: roll d6\n",
    )
    .unwrap();
    let out = despatch(&["replay", "s.txt"], dir.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert!(
        text.contains("alice rolls 2d6 (to hit): 3 + 4 = 7"),
        "{text}"
    );
    assert!(text.contains("bob rolls 1d6: 6"), "{text}");
    let out = despatch(&["replay", "--dice", "1,1,2", "s.txt"], dir.path());
    let text = stdout(&out);
    assert!(
        text.contains("alice rolls 2d6 (to hit): 1 + 1 = 2"),
        "{text}"
    );
    assert!(text.contains("bob rolls 1d6: 2"), "{text}");
    // A face that is no number is named with its line.
    std::fs::write(
        dir.path().join("bad.txt"),
        "# seats: alice, bob\n# dice: 3, x\n",
    )
    .unwrap();
    let out = despatch(&["replay", "bad.txt"], dir.path());
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 2: 'x' is not a die face"), "{err}");
}

#[test]
fn replay_shows_a_refused_step_and_goes_on_or_stops_with_stop_on_refusal() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("s.txt"),
        "alice: roll 2d6\nalice: out of turn\nbob: roll d6\n",
    )
    .unwrap();
    let out = despatch(
        &["replay", "--seats", "alice,bob", "--dice", "1,2,3", "s.txt"],
        dir.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert!(
        text.contains("[2] alice: out of turn\n    REFUSED — turn order: it is not alice's turn"),
        "{text}"
    );
    assert!(
        text.contains("bob rolls 1d6: 3"),
        "the script goes on: {text}"
    );
    assert!(text.contains("refused steps: 2"), "{text}");
    let out = despatch(
        &[
            "replay",
            "--seats",
            "alice,bob",
            "--dice",
            "1,2,3",
            "--stop-on-refusal",
            "s.txt",
        ],
        dir.path(),
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("stopped at step 2"), "{err}");
    let text = stdout(&out);
    assert!(
        text.contains("REFUSED") && !text.contains("bob rolls"),
        "{text}"
    );
    // A die the rules cannot roll is the script's own mistake: the replay stops, naming it.
    let out = despatch(
        &["replay", "--seats", "alice,bob", "--dice", "9", "s.txt"],
        dir.path(),
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("step 1") && err.contains("scripted die 9"),
        "{err}"
    );
}

#[test]
fn replay_reads_the_ruleset_and_scenario_from_the_header_and_starts_from_a_position() {
    let dir = tempfile::tempdir().unwrap();
    // 6.2.8: a turn handed back with 1 AP left; no AP die is rolled for the rest.
    std::fs::write(
        dir.path().join("example.txt"),
        "# ruleset: for-honor-and-glory\n# scenario: drill\nposition:\n  active american\n  ap 1\n\
         american: column C11\nbritish: pass\n",
    )
    .unwrap();
    let out = despatch(&["replay", "--dice", "6", "example.txt"], dir.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert!(
        text.contains("Started from a position set by hand"),
        "{text}"
    );
    assert!(text.contains("dice not used: [6]"), "{text}");
    // The same position from a file, with --position.
    std::fs::write(dir.path().join("p.txt"), "active american\nap 1\n").unwrap();
    std::fs::write(
        dir.path().join("s.txt"),
        "# ruleset: for-honor-and-glory\n# scenario: drill\namerican: column C11\nbritish: pass\n",
    )
    .unwrap();
    let out = despatch(
        &["replay", "--position", "p.txt", "--dice", "6", "s.txt"],
        dir.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout(&out), text);
    // A bad position names its line: of the file, or of the script holding the block.
    std::fs::write(dir.path().join("bad.txt"), "active american\nap lots\n").unwrap();
    let out = despatch(&["replay", "--position", "bad.txt", "s.txt"], dir.path());
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("position: line 2: 'lots' is not a number of AP"),
        "{err}"
    );
    std::fs::write(
        dir.path().join("block.txt"),
        "# ruleset: for-honor-and-glory\n# scenario: drill\nposition:\n  active american\n  unit 1: american regular Q99\namerican: pass\n",
    )
    .unwrap();
    let out = despatch(&["replay", "block.txt"], dir.path());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("position: line 5: Q99 is not on the map"),
        "{err}"
    );
}

#[test]
fn replay_json_keeps_every_steps_view() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("s.txt"),
        "# seats: alice, bob\nalice: roll 2d6\nalice: again\nbob: roll d6\n",
    )
    .unwrap();
    let out = despatch(
        &["replay", "--json", "--dice", "1,2,3", "s.txt"],
        dir.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let t: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let steps = t["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 3);
    for s in steps {
        assert!(s["view"].is_object(), "every step keeps its view: {s}");
    }
    assert_eq!(steps[1]["refused"]["rule"], "turn order");
    assert_eq!(
        steps[0]["view"]["moves"], steps[1]["view"]["moves"],
        "a refusal changes nothing"
    );
}

#[test]
fn replay_list_shows_the_rulesets_their_scenarios_and_position_formats() {
    let dir = tempfile::tempdir().unwrap();
    let out = despatch(&["replay", "--list"], dir.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    for needle in [
        "open-table",
        "for-honor-and-glory",
        "queenston-heights",
        "hour-of-glory",
        "mission",
        "searching-for-glory",
        "where-eagles-dare",
        "position format:",
        "leaders-lost <side> <n>",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
    let out = despatch(&["replay", "--help"], dir.path());
    let help = stdout(&out);
    assert!(
        help.contains("--position") && help.contains("position formats"),
        "{help}"
    );
    assert!(help.contains("room <n> <card>|none"), "{help}");
    assert!(
        help.contains("hour-of-glory (scenarios: mission)"),
        "{help}"
    );
}

#[test]
fn replay_to_a_closed_pipe_exits_quietly() {
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    // Enough output to fill a pipe nobody reads.
    let mut script = String::from("# seats: alice, bob\n");
    for i in 0..3000 {
        script.push_str(&format!("alice: move {i}\nbob: move {i}\n"));
    }
    std::fs::write(dir.path().join("long.txt"), script).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_despatch"))
        .args(["replay", "--json", "long.txt"])
        .current_dir(dir.path())
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("panicked"), "{err}");
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

/// Issue 35: a real mailbox holds more than notices. `--witness` on a maildir sets aside what
/// carries no head (a sign-in mail, an answer, the mail program's own files) and the notices of
/// other games, says how many, and checks the rest; a head that contradicts the log still fails.
#[test]
fn verify_with_a_whole_maildir_sets_aside_mail_without_a_head_and_other_games() {
    let dir = tempfile::tempdir().unwrap();
    let new_game = |dir: &std::path::Path| {
        let out = despatch(
            &[
                "new-game",
                "--seat",
                "Anna <anna@example.org>",
                "--seat",
                "Ben <ben@example.org>",
            ],
            dir,
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        stdout(&out).lines().next().unwrap()["game ".len()..]
            .trim()
            .to_owned()
    };
    let game = new_game(dir.path());
    let other = new_game(dir.path());
    let out = despatch(&["dispatch", "--once"], dir.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Anna's mailbox, as a maildir: every notice she was sent (of both games) ...
    let cur = dir.path().join("anna").join("cur");
    std::fs::create_dir_all(&cur).unwrap();
    std::fs::create_dir_all(dir.path().join("anna").join("new")).unwrap();
    let mut notices = 0;
    for entry in std::fs::read_dir(dir.path().join("data").join("mail")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        if text.contains("anna@example.org") {
            assert!(text.contains("X-Despatch-Head: "), "{text}");
            std::fs::copy(&path, cur.join(path.file_name().unwrap())).unwrap();
            notices += 1;
        }
    }
    assert_eq!(notices, 2, "one turn notice per game");
    // ... a sign-in mail and an answer to one of her replies, which carry no head, and the
    // mail program's own index file.
    std::fs::write(
        cur.join("1.signin:2,S"),
        "From: Despatch <despatch@localhost>\r\nTo: anna@example.org\r\nSubject: Sign in to Despatch\r\n\r\nhttps://despatch.example/login/confirm?t=x\r\n",
    )
    .unwrap();
    std::fs::write(
        cur.join("2.answer:2,S"),
        format!("From: Despatch <despatch@localhost>\r\nTo: anna@example.org\r\nSubject: Re: Your turn\r\nMessage-ID: <despatch.{game}.0.answer-1@play.example.org>\r\n\r\nYour orders were carried out.\r\n"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("anna").join("dovecot-uidlist"),
        "3 V1700000000 N3 G0123\n",
    )
    .unwrap();

    let out = despatch(&["export", &game, "--out", "game.jsonl"], dir.path());
    assert!(out.status.success());
    let out = despatch(&["verify", "game.jsonl", "--witness", "anna"], dir.path());
    let text = stdout(&out);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("witnesses: the export holds all 1"), "{text}");
    assert!(
        text.contains("set aside: 3 messages without an X-Despatch-Head header")
            && text.contains("1 witness of another game"),
        "{text}"
    );
    assert!(text.contains("VERIFIED"), "{text}");

    // A notice whose head contradicts the log fails, naming the seq, however much else the
    // mailbox holds.
    let exported = std::fs::read_to_string(dir.path().join("game.jsonl")).unwrap();
    let created: serde_json::Value =
        serde_json::from_str(exported.lines().nth(1).unwrap()).unwrap();
    let hash = created["hash"].as_str().unwrap();
    let ours = std::fs::read_dir(&cur)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| std::fs::read_to_string(p).unwrap().contains(hash))
        .expect("the game's notice");
    let notice = std::fs::read_to_string(&ours).unwrap();
    std::fs::write(&ours, notice.replace(hash, &"ab".repeat(32))).unwrap();
    let out = despatch(&["verify", "game.jsonl", "--witness", "anna"], dir.path());
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).contains("FAILED at seq 0"), "{}", stdout(&out));
    assert!(stdout(&out).contains("rewritten"), "{}", stdout(&out));
    assert!(!other.is_empty());
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

/// `despatch --version` names the service's version and, for every ruleset, the rules versions
/// this build plays (CHANGELOG.md); `despatch verify --help` says which it checks.
#[test]
fn version_lists_the_rules_versions_this_build_plays() {
    let dir = tempfile::tempdir().unwrap();
    let out = despatch(&["--version"], dir.path());
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(
        text.starts_with(&format!("despatch {}\n", env!("CARGO_PKG_VERSION"))),
        "{text}"
    );
    let help = stdout(&despatch(&["verify", "--help"], dir.path()));
    for ruleset in despatch::rules::all() {
        let line = format!(
            "  {:<22}{}",
            ruleset.id(),
            despatch::engine::game::versions_text(ruleset.versions())
        );
        assert!(text.contains(&format!("{line}\n")), "{line:?} in {text}");
        assert!(help.contains(&line), "{line:?} in {help}");
    }
    let changelog =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/CHANGELOG.md")).unwrap();
    let release = changelog
        .split(&format!("## {} — ", env!("CARGO_PKG_VERSION")))
        .nth(1)
        .unwrap_or_else(|| {
            panic!(
                "CHANGELOG.md names no release {}",
                env!("CARGO_PKG_VERSION")
            )
        });
    let release = release.split("\n## ").next().unwrap();
    for ruleset in despatch::rules::all() {
        let row = format!("| {} | {} |", ruleset.id(), ruleset.versions().join(", "));
        assert!(
            release.contains(&row),
            "CHANGELOG.md's release lacks {row:?}"
        );
    }
}
