//! `despatch mail-in` as a mail server runs it (issue 22): with no environment but a config
//! file, from a folder of its own, answering once, threading its answers, and telling the mail
//! server by its exit code whether to deliver the message again.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use mail_parser::MessageParser;

const KEY: &str = "pipe-test-secret-key";

/// A deployment: a config file in its own folder, and the folder holding it.
struct Site {
    dir: tempfile::TempDir,
}

impl Site {
    /// A config file naming everything by paths relative to itself.
    fn new(extra: &str) -> Site {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("despatch.env"),
            format!(
                "# Despatch, as docs/mail.md sets it up\n\
                 DATABASE_URL=sqlite:state/despatch.db?mode=rwc\n\
                 DESPATCH_DATA_DIR=state\n\
                 DESPATCH_SECRET_KEY={KEY}\n\
                 DESPATCH_REPLY_DOMAIN=play.example.org\n\
                 DESPATCH_BASE_URL=https://despatch.example.org\n\
                 DESPATCH_MAIL_FROM=\"Despatch <despatch@play.example.org>\"\n\
                 DESPATCH_LOG_FILE=despatch.log\n\
                 {extra}"
            ),
        )
        .unwrap();
        std::fs::create_dir_all(dir.path().join("state")).unwrap();
        Site { dir }
    }

    fn config(&self) -> PathBuf {
        self.dir.path().join("despatch.env")
    }

    /// Runs `despatch --config <file> args…` as a mail server would: an empty environment and
    /// a working folder that is not the site's.
    fn run(&self, args: &[&str], stdin: Option<&[u8]>) -> Output {
        let elsewhere = tempfile::tempdir().unwrap();
        let config = self.config();
        let mut all = vec!["--config", config.to_str().unwrap()];
        all.extend_from_slice(args);
        let mut child = Command::new(env!("CARGO_BIN_EXE_despatch"))
            .args(&all)
            .env_clear()
            .current_dir(elsewhere.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let mut input = child.stdin.take().unwrap();
        if let Some(bytes) = stdin {
            input.write_all(bytes).unwrap();
        }
        drop(input);
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            std::fs::read_dir(elsewhere.path()).unwrap().count(),
            0,
            "nothing is written in the folder it was started in"
        );
        out
    }

    fn ok(&self, args: &[&str], stdin: Option<&[u8]>) -> String {
        let out = self.run(args, stdin);
        assert!(
            out.status.success(),
            "despatch {args:?}: {}\n{}",
            String::from_utf8_lossy(&out.stderr),
            self.log()
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("despatch.log")).unwrap_or_default()
    }

    /// Every email written to the mail folder (no SMTP configured), parsed.
    fn mail(&self) -> Vec<Mail> {
        let Ok(dir) = std::fs::read_dir(self.dir.path().join("state/mail")) else {
            return Vec::new();
        };
        dir.map(|e| {
            let raw = std::fs::read(e.unwrap().path()).unwrap();
            let m = MessageParser::default().parse(&raw).unwrap();
            let first = |a: Option<&mail_parser::Address>| {
                a.and_then(|a| a.first())
                    .and_then(|a| a.address())
                    .unwrap_or_default()
                    .to_owned()
            };
            Mail {
                to: first(m.to()),
                reply_to: first(m.reply_to()),
                message_id: m.message_id().unwrap_or_default().to_owned(),
                references: match m.references() {
                    mail_parser::HeaderValue::Text(t) => vec![t.to_string()],
                    mail_parser::HeaderValue::TextList(l) => {
                        l.iter().map(|t| t.to_string()).collect()
                    }
                    _ => Vec::new(),
                },
                text: m.body_text(0).map(|t| t.into_owned()).unwrap_or_default(),
                raw: String::from_utf8_lossy(&raw).into_owned(),
            }
        })
        .collect()
    }

    /// A game of the open table between Anna and Ben, both with addresses, and Anna's turn
    /// notice, sent.
    fn game(&self) -> (String, Mail) {
        self.ok(&["migrate"], None);
        let created = self.ok(
            &[
                "new-game",
                "--seat",
                "Anna <anna@example.org>",
                "--seat",
                "Ben <ben@example.org>",
            ],
            None,
        );
        let game = created
            .lines()
            .find_map(|l| l.strip_prefix("game "))
            .expect("the game's id")
            .trim()
            .to_owned();
        self.ok(&["dispatch", "--once"], None);
        let notice = self
            .mail()
            .into_iter()
            .find(|m| m.to == "anna@example.org")
            .expect("Anna's turn notice");
        (game, notice)
    }
}

#[derive(Debug, Clone)]
struct Mail {
    to: String,
    reply_to: String,
    message_id: String,
    /// The References header's ids, in order.
    references: Vec<String>,
    text: String,
    raw: String,
}

/// A reply as a mail client writes it.
fn reply(notice: &Mail, id: &str, body: &str) -> Vec<u8> {
    format!(
        "From: Anna <anna@example.org>\r\nTo: {}\r\nSubject: Re: Your turn\r\n\
         Message-ID: <{id}>\r\nIn-Reply-To: <{}>\r\nReferences: <{}>\r\n\
         Date: Tue, 24 Nov 2026 09:00:00 +0000\r\n\r\n{body}\r\n",
        notice.reply_to, notice.message_id, notice.message_id
    )
    .into_bytes()
}

/// Whether the export holds a move made by the message `id` (its id is the move's client
/// entropy).
fn played(export: &str, id: &str) -> bool {
    export.contains(&format!("\"client_entropy\":\"{id}\""))
}

fn code(out: &Output) -> i32 {
    out.status.code().expect("an exit code")
}

/// A message id as RFC 5322's dot-atom allows it: no empty part around a dot.
fn valid_id(id: &str) -> bool {
    let Some((left, right)) = id.split_once('@') else {
        return false;
    };
    [left, right]
        .iter()
        .all(|side| !side.is_empty() && side.split('.').all(|part| !part.is_empty()))
}

#[test]
fn a_reply_is_played_with_the_config_file_alone_and_answered_in_its_thread() {
    let site = Site::new("");
    let (game, notice) = site.game();
    assert!(notice.reply_to.starts_with("play+"), "{}", notice.raw);
    let out = site.ok(
        &["mail-in"],
        Some(&reply(&notice, "first-reply@example.org", "roll 2d6")),
    );
    assert!(out.starts_with("answered anna@example.org"), "{out}");
    // The move is in the game: the message's id is its client entropy.
    let export = site.ok(&["export", &game], None);
    assert!(played(&export, "first-reply@example.org"), "{export}");
    // The answer goes out with the dispatcher, in Anna's thread, with a valid Message-ID.
    site.ok(&["dispatch", "--once"], None);
    let answer = site
        .mail()
        .into_iter()
        .find(|m| m.raw.contains("In-Reply-To: <first-reply@example.org>"))
        .expect("the answer to Anna, in her thread");
    assert_eq!(answer.to, "anna@example.org");
    assert!(answer.text.contains("2d6"), "{}", answer.text);
    assert_eq!(
        answer.references,
        [
            notice.message_id.clone(),
            "first-reply@example.org".to_owned()
        ],
        "{}",
        answer.raw
    );
    assert!(valid_id(&answer.message_id), "{}", answer.message_id);
    // The data stayed where the config file put it.
    assert!(site.dir.path().join("state/despatch.db").exists());
}

#[test]
fn the_same_reply_delivered_twice_is_played_and_answered_once() {
    let site = Site::new("");
    let (game, notice) = site.game();
    let message = reply(&notice, "twice@example.org", "roll 1d6");
    let first = site.ok(&["mail-in"], Some(&message));
    assert!(first.starts_with("answered"), "{first}");
    let second = site.ok(&["mail-in"], Some(&message));
    assert!(
        second.starts_with("ignored: message twice@example.org was already handled"),
        "{second}"
    );
    let export = site.ok(&["export", &game], None);
    assert_eq!(
        export
            .matches("\"client_entropy\":\"twice@example.org\"")
            .count(),
        1,
        "{export}"
    );
    site.ok(&["dispatch", "--once"], None);
    let answers = site
        .mail()
        .into_iter()
        .filter(|m| m.raw.contains("In-Reply-To: <twice@example.org>"))
        .count();
    assert_eq!(answers, 1);
}

#[test]
fn an_oversized_reply_is_answered_with_the_limit_and_plays_nothing() {
    let site = Site::new("");
    let (game, notice) = site.game();
    let mut message = reply(&notice, "big@example.org", "roll 3d6");
    // A large attachment-like tail after the orders: more than the 10 MB Despatch reads.
    message.extend(std::iter::repeat_n(b'x', 11 * 1024 * 1024));
    let out = site.ok(&["mail-in"], Some(&message));
    assert!(out.starts_with("answered anna@example.org"), "{out}");
    let export = site.ok(&["export", &game], None);
    assert!(!played(&export, "big@example.org"), "{export}");
    site.ok(&["dispatch", "--once"], None);
    let answer = site
        .mail()
        .into_iter()
        .find(|m| m.raw.contains("In-Reply-To: <big@example.org>"))
        .expect("an answer to the oversized message");
    assert!(
        answer.text.contains("larger than 10 MB") && answer.text.contains("Nothing was changed"),
        "{}",
        answer.text
    );
}

#[test]
fn a_message_that_reaches_no_game_is_answered_with_a_valid_message_id() {
    let site = Site::new("");
    site.game();
    let stray = b"From: Carl <carl@example.org>\r\nTo: play@play.example.org\r\n\
        Subject: hello\r\nMessage-ID: <stray@example.org>\r\n\r\nroll 2d6\r\n";
    let out = site.ok(&["mail-in"], Some(stray));
    assert!(out.starts_with("answered carl@example.org"), "{out}");
    site.ok(&["dispatch", "--once"], None);
    let answer = site
        .mail()
        .into_iter()
        .find(|m| m.to == "carl@example.org")
        .expect("an answer to Carl");
    assert!(valid_id(&answer.message_id), "{}", answer.message_id);
    assert!(
        answer.text.contains("Nothing was changed"),
        "{}",
        answer.text
    );
}

#[test]
fn exit_codes_tell_the_mail_server_to_retry_or_that_the_set_up_is_wrong() {
    let message = b"From: Anna <anna@example.org>\r\nTo: play@play.example.org\r\n\
        Subject: x\r\nMessage-ID: <x@example.org>\r\n\r\nroll 2d6\r\n";

    // The database is unreachable: 75, deliver again later; the details go to the log only.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let site = Site::new(&format!(
        "DATABASE_URL=postgres://despatch@127.0.0.1:{port}/despatch\n"
    ));
    let out = site.run(&["mail-in"], Some(message));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(code(&out), 75, "{stderr}");
    assert!(
        stderr.contains("the message will be delivered again later"),
        "{stderr}"
    );
    assert!(
        !stderr.to_lowercase().contains("refused") && !stderr.contains("127.0.0.1"),
        "no internal detail where a bounce could quote it: {stderr}"
    );
    assert!(
        site.log().contains("cannot open the database"),
        "{}",
        site.log()
    );

    // A database never migrated: 78, and it is not migrated by mail-in.
    let site = Site::new("");
    let out = site.run(&["mail-in"], Some(message));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(code(&out), 78, "{stderr}");
    assert!(stderr.contains("run `despatch migrate`"), "{stderr}");

    // No reply domain: 78, before any database work (no database file appears).
    let site = Site::new("");
    let config = std::fs::read_to_string(site.config()).unwrap();
    std::fs::write(
        site.config(),
        config.replace("DESPATCH_REPLY_DOMAIN=play.example.org\n", ""),
    )
    .unwrap();
    let out = site.run(&["mail-in"], Some(message));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(code(&out), 78, "{stderr}");
    assert!(
        stderr.contains("DESPATCH_REPLY_DOMAIN is not set"),
        "{stderr}"
    );
    assert!(!site.dir.path().join("state/despatch.db").exists());

    // No key: 78, before any database work.
    let site = Site::new("");
    let config = std::fs::read_to_string(site.config()).unwrap();
    std::fs::write(
        site.config(),
        config.replace(&format!("DESPATCH_SECRET_KEY={KEY}\n"), ""),
    )
    .unwrap();
    let out = site.run(&["mail-in"], Some(message));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(code(&out), 78, "{stderr}");
    assert!(
        stderr.contains("no key to check reply addresses"),
        "{stderr}"
    );
    assert!(!site.dir.path().join("state/despatch.db").exists());

    // A config file that cannot be read: 78, naming it.
    let missing = Path::new("/nonexistent/despatch.env");
    let out = Command::new(env!("CARGO_BIN_EXE_despatch"))
        .args(["--config", missing.to_str().unwrap(), "mail-in"])
        .env_clear()
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(code(&out), 78, "{stderr}");
    assert!(
        stderr.contains("cannot read the config file /nonexistent/despatch.env"),
        "{stderr}"
    );
}

#[test]
fn the_pipe_holds_each_seat_to_the_move_limit_counted_in_the_database() {
    let site = Site::new("DESPATCH_MOVE_BURST=1\nDESPATCH_MOVE_RATE=1/h\n");
    let (game, notice) = site.game();
    let first = site.ok(
        &["mail-in"],
        Some(&reply(&notice, "limit-1@example.org", "roll 2d6")),
    );
    assert!(first.starts_with("answered"), "{first}");
    // A second message from Anna at once, naming no notice: over her limit of one move an
    // hour, whatever the rules would say of it. Each run of the pipe is a new process, so the
    // limit can only come from the database.
    let second = format!(
        "From: Anna <anna@example.org>\r\nTo: {}\r\nSubject: more\r\n\
         Message-ID: <limit-2@example.org>\r\n\r\nroll 1d6\r\n",
        notice.reply_to
    );
    site.ok(&["mail-in"], Some(second.as_bytes()));
    let export = site.ok(&["export", &game], None);
    assert!(played(&export, "limit-1@example.org"), "{export}");
    assert!(!played(&export, "limit-2@example.org"), "{export}");
    site.ok(&["dispatch", "--once"], None);
    let answer = site
        .mail()
        .into_iter()
        .find(|m| m.raw.contains("In-Reply-To: <limit-2@example.org>"))
        .expect("an answer to the second message");
    assert!(
        answer.text.contains("Your orders were not applied") && answer.text.contains("at most 1"),
        "{}",
        answer.text
    );
}

/// `serve` stores the base URL it was given; `mail-in`, run by the mail server without
/// `DESPATCH_BASE_URL`, writes its links with it, so that they match the notices'.
#[test]
fn mail_in_writes_the_links_of_the_base_url_the_service_stored() {
    let site = Site::new("DESPATCH_BIND=127.0.0.1:0\nDESPATCH_DISPATCHER=off\n");
    // The mail server's configuration does not name the base URL …
    let config = std::fs::read_to_string(site.config()).unwrap();
    let without: String = config
        .lines()
        .filter(|l| !l.starts_with("DESPATCH_BASE_URL="))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(site.config(), without).unwrap();
    let (_, notice) = site.game();
    // … the service's own environment does: it stores it when it starts.
    let elsewhere = tempfile::tempdir().unwrap();
    let mut serve = Command::new(env!("CARGO_BIN_EXE_despatch"))
        .args(["--config", site.config().to_str().unwrap(), "serve"])
        .env_clear()
        .env("DESPATCH_BASE_URL", "https://served.example.org")
        .current_dir(elsewhere.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("serve runs");
    let mut out = std::io::BufReader::new(serve.stdout.take().unwrap());
    let mut line = String::new();
    std::io::BufRead::read_line(&mut out, &mut line).unwrap();
    serve.kill().unwrap();
    serve.wait().unwrap();
    assert!(line.contains("listening on"), "{line}");
    let out = site.ok(
        &["mail-in"],
        Some(&reply(&notice, "stored-base@example.org", "roll 2d6")),
    );
    assert!(out.starts_with("answered anna@example.org"), "{out}");
    site.ok(&["dispatch", "--once"], None);
    let answer = site
        .mail()
        .into_iter()
        .find(|m| m.raw.contains("In-Reply-To: <stored-base@example.org>"))
        .expect("the answer to Anna");
    assert!(
        answer
            .text
            .contains("Proof: https://served.example.org/games/"),
        "{}",
        answer.text
    );
    // Ben's turn notice, sent by `dispatch` without the variable either, links there too;
    // his invitation, sent before the service stored its address, did not.
    let bens: Vec<Mail> = site
        .mail()
        .into_iter()
        .filter(|m| m.to == "ben@example.org")
        .collect();
    let served = bens
        .iter()
        .filter(|m| m.text.contains("https://served.example.org/games/"))
        .count();
    assert_eq!((bens.len(), served), (2, 1), "{bens:?}");
}
