//! Issue 22's check, with the real mail server: Debian's Postfix (installed by `scripts/test`),
//! configured as docs/mail.md's recipe says — the reply domain routed to a `pipe(8)` transport
//! that runs `despatch --config FILE mail-in` as an unprivileged user — takes a player's reply
//! by SMTP and plays it; the answer reaches the player's mailbox. With the database cut off the
//! message is deferred (exit 75), and played once the database is back and Postfix retries.
//!
//! Postfix runs as an instance of its own: its own configuration folder, queue and log under a
//! temporary folder, listening on a free loopback port, relaying nothing off the machine.

use crate::common;

use std::net::{SocketAddr, TcpListener, ToSocketAddrs};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use common::notify::{smtp_addr, wait_for_mail};
use common::proxy::Proxy;
use common::TestDb;
use despatch::store::Store;

const KEY: &str = "postfix-test-secret-key";
const DOMAIN: &str = "play.example.org";

/// A Postfix instance: stopped when dropped.
struct Postfix {
    etc: PathBuf,
    log: PathBuf,
    port: u16,
}

impl Postfix {
    /// Starts Postfix with the recipe's transport for `DOMAIN`, piping to `argv`.
    fn start(dir: &Path, argv: &str) -> Postfix {
        let etc = dir.join("etc");
        let lib = dir.join("lib");
        for d in [&etc, &lib, &dir.join("spool")] {
            std::fs::create_dir_all(d).unwrap();
        }
        let port = free_port();
        let log = dir.join("maillog");
        let services = [
            "pickup    unix  n - n 60 1 pickup",
            "cleanup   unix  n - n - 0 cleanup",
            "qmgr      unix  n - n 300 1 qmgr",
            "rewrite   unix  - - n - - trivial-rewrite",
            "bounce    unix  - - n - 0 bounce",
            "defer     unix  - - n - 0 bounce",
            "trace     unix  - - n - 0 bounce",
            "verify    unix  - - n - 1 verify",
            "flush     unix  n - n 1000? 0 flush",
            "proxymap  unix  - - n - - proxymap",
            "showq     unix  n - n - - showq",
            "error     unix  - - n - - error",
            "retry     unix  - - n - - error",
            "discard   unix  - - n - - discard",
            "smtp      unix  - - n - - smtp",
            "anvil     unix  - - n - 1 anvil",
            "scache    unix  - - n - 1 scache",
            "postlog   unix-dgram n - n - 1 postlogd",
        ];
        // docs/mail.md, step 3: the transport, as the service user (here `nobody`).
        let master = format!(
            "127.0.0.1:{port} inet n - n - - smtpd\n{}\n\
             despatch  unix  -       n       n       -       -       pipe\n  \
             flags=Rq user=nobody argv={argv}\n",
            services.join("\n")
        );
        std::fs::write(etc.join("master.cf"), master).unwrap();
        // docs/mail.md, step 4: the reply domain routed to the transport, `+` as delimiter.
        let main = format!(
            "compatibility_level = 3.6\n\
             queue_directory = {spool}\n\
             data_directory = {lib}\n\
             command_directory = /usr/sbin\n\
             daemon_directory = /usr/lib/postfix/sbin\n\
             meta_directory = /etc/postfix\n\
             shlib_directory = /usr/lib/postfix\n\
             mail_owner = postfix\n\
             setgid_group = postdrop\n\
             myhostname = mx.{DOMAIN}\n\
             mydestination =\n\
             inet_interfaces = loopback-only\n\
             inet_protocols = ipv4\n\
             mynetworks = 127.0.0.0/8\n\
             relay_domains = {DOMAIN}\n\
             transport_maps = inline:{{ {DOMAIN}=despatch: }}\n\
             recipient_delimiter = +\n\
             default_transport = discard\n\
             maillog_file = {log}\n\
             maillog_file_prefixes = {dir}\n\
             smtputf8_enable = no\n\
             alias_maps =\n\
             alias_database =\n\
             smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination\n\
             queue_run_delay = 1s\n\
             minimal_backoff_time = 1s\n\
             maximal_backoff_time = 2s\n\
             biff = no\n",
            spool = dir.join("spool").display(),
            lib = lib.display(),
            log = log.display(),
            dir = dir.display(),
        );
        std::fs::write(etc.join("main.cf"), main).unwrap();
        run(Command::new("chown").args(["postfix", lib.to_str().unwrap()]));
        let postfix = Postfix { etc, log, port };
        let started = postfix.command(&["start"]);
        assert!(
            started.status.success(),
            "postfix would not start: {}{}\n{}",
            String::from_utf8_lossy(&started.stdout),
            String::from_utf8_lossy(&started.stderr),
            postfix.log()
        );
        let until = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < until,
                "postfix never listened:\n{}",
                postfix.log()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        postfix
    }

    fn command(&self, args: &[&str]) -> Output {
        Command::new("postfix")
            .arg("-c")
            .arg(&self.etc)
            .args(args)
            .output()
            .expect("postfix runs (scripts/test installs Debian's postfix)")
    }

    /// Asks Postfix to try every deferred message again now.
    fn flush(&self) {
        run(Command::new("postqueue").arg("-c").arg(&self.etc).arg("-f"));
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Sends `raw` to `to` by SMTP, as a player's mail server would.
    fn send(&self, from: &str, to: &str, raw: &str) {
        use std::io::{BufRead, BufReader, Write};
        let stream = std::net::TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut writer = stream;
        let mut expect = |code: &str| loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            assert!(line.starts_with(code), "SMTP: wanted {code}, got {line}");
            if line.as_bytes().get(3) != Some(&b'-') {
                break;
            }
        };
        expect("220");
        for (command, code) in [
            ("EHLO player.example.org".to_owned(), "250"),
            (format!("MAIL FROM:<{from}>"), "250"),
            (format!("RCPT TO:<{to}>"), "250"),
            ("DATA".to_owned(), "354"),
        ] {
            write!(writer, "{command}\r\n").unwrap();
            expect(code);
        }
        write!(writer, "{raw}\r\n.\r\n").unwrap();
        expect("250");
        write!(writer, "QUIT\r\n").unwrap();
    }
}

impl Drop for Postfix {
    fn drop(&mut self) {
        let _ = self.command(&["stop"]);
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn run(command: &mut Command) -> Output {
    let out = command.output().expect("the command runs");
    assert!(
        out.status.success(),
        "{command:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The address of a `postgres://user@host:port/db` URL's server.
fn server_of(url: &str) -> SocketAddr {
    let host = url.split_once('@').unwrap().1.split_once('/').unwrap().0;
    host.to_socket_addrs().unwrap().next().unwrap()
}

/// The URL with its server's address replaced by `at`.
fn through(url: &str, at: SocketAddr) -> String {
    let (before, rest) = url.split_once('@').unwrap();
    let (_, path) = rest.split_once('/').unwrap();
    format!("{before}@{at}/{path}")
}

/// `despatch --config FILE args…`, as the operator runs it: as the service user (docs/mail.md,
/// step 2), so that the files it makes are the service user's.
fn despatch(config: &Path, env: &[(&str, &str)], args: &[&str]) -> String {
    let out = run(Command::new("runuser")
        .args(["-u", "nobody", "--", env!("CARGO_BIN_EXE_despatch")])
        .arg("--config")
        .arg(config)
        .args(args)
        .envs(env.iter().copied()));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

async fn events(store: &Store, game: &str) -> usize {
    store.events(game, 0, None).await.unwrap().len()
}

async fn wait_for_events(store: &Store, game: &str, n: usize, postfix: &Postfix) {
    let until = Instant::now() + Duration::from_secs(60);
    while events(store, game).await < n {
        assert!(
            Instant::now() < until,
            "the game never reached {n} events; Postfix's log:\n{}",
            postfix.log()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// A reply as a mail client writes it, to a notice read from the mailbox.
fn reply(from: &str, notice: &common::notify::Delivered, id: &str, body: &str) -> String {
    format!(
        "From: <{from}>\r\nTo: {to}\r\nSubject: Re: {subject}\r\nMessage-ID: <{id}>\r\n\
         In-Reply-To: <{notice}>\r\nReferences: <{notice}>\r\n\
         Date: Tue, 24 Nov 2026 09:00:00 +0000\r\n\r\n{body}",
        to = notice.reply_to[0],
        subject = notice.subject,
        notice = notice.message_id,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postfix_set_up_as_the_docs_say_plays_a_reply_and_defers_it_while_the_database_is_down() {
    let (store, db): (Store, TestDb) = common::fresh_postgres().await;
    // The service reaches its database through a proxy the test can cut.
    let proxy = Proxy::start(server_of(db.url())).await;
    let url = through(db.url(), proxy.addr());

    // docs/mail.md, steps 1–2: a folder the service user can use, and the config file.
    let site = tempfile::tempdir().unwrap();
    std::fs::set_permissions(site.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let shared = site.path().join("var");
    std::fs::create_dir_all(&shared).unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o777)).unwrap();
    let config = site.path().join("despatch.env");
    std::fs::write(
        &config,
        format!(
            "DATABASE_URL={url}\n\
             DESPATCH_DATA_DIR={data}\n\
             DESPATCH_SECRET_KEY={KEY}\n\
             DESPATCH_REPLY_DOMAIN={DOMAIN}\n\
             DESPATCH_BASE_URL=https://despatch.example.org\n\
             DESPATCH_MAIL_FROM=\"Despatch <despatch@{DOMAIN}>\"\n\
             DESPATCH_SMTP_URL=smtp://{smtp}\n\
             DESPATCH_LOG_FILE={log}\n",
            data = shared.display(),
            smtp = smtp_addr(),
            log = shared.join("mail-in.log").display(),
        ),
    )
    .unwrap();
    std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o644)).unwrap();
    despatch(&config, &[], &["migrate"]);
    let tag = format!("pf{}", free_port());
    let created = despatch(
        &config,
        &[],
        &[
            "new-game",
            "--seat",
            &format!("Anna <anna.{tag}@example.org>"),
            "--seat",
            &format!("Ben <ben.{tag}@example.org>"),
        ],
    );
    let game = created
        .lines()
        .find_map(|l| l.strip_prefix("game "))
        .unwrap()
        .trim()
        .to_owned();
    despatch(&config, &[], &["dispatch", "--once"]);
    let notice = wait_for_mail(&format!("anna.{tag}"), 1).await.remove(0);

    let argv = format!(
        "{} --config {} mail-in",
        env!("CARGO_BIN_EXE_despatch"),
        config.display()
    );
    let postfix = Postfix::start(&site.path().join("postfix"), &argv);

    // Anna's reply, by SMTP into Postfix: played, and answered in her mailbox.
    let anna = format!("anna.{tag}@example.org");
    postfix.send(
        &anna,
        &notice.reply_to[0],
        &reply(
            &anna,
            &notice,
            &format!("first.{tag}@example.org"),
            "roll 2d6",
        ),
    );
    wait_for_events(&store, &game, 2, &postfix).await;
    assert!(
        postfix
            .log()
            .contains("status=sent (delivered via despatch service"),
        "{}",
        postfix.log()
    );
    despatch(&config, &[], &["dispatch", "--once"]);
    let mail = wait_for_mail(&format!("anna.{tag}"), 2).await;
    assert!(
        mail.iter().any(|m| m
            .raw
            .contains(&format!("In-Reply-To: <first.{tag}@example.org>"))),
        "no answer to Anna's reply: {mail:?}"
    );
    // Ben has his invitation from the game's creation and now his turn notice: he answers
    // the turn notice.
    let ben_notice = wait_for_mail(&format!("ben.{tag}"), 2)
        .await
        .into_iter()
        .find(|m| m.subject.starts_with("[Despatch] Your turn, Ben"))
        .expect("Ben's turn notice");

    // The database goes away: Ben's reply is deferred, not bounced and not lost.
    proxy.cut();
    let ben = format!("ben.{tag}@example.org");
    postfix.send(
        &ben,
        &ben_notice.reply_to[0],
        &reply(
            &ben,
            &ben_notice,
            &format!("second.{tag}@example.org"),
            "roll 1d6",
        ),
    );
    let until = Instant::now() + Duration::from_secs(30);
    while !postfix.log().contains("status=deferred") {
        assert!(Instant::now() < until, "not deferred:\n{}", postfix.log());
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(
        !postfix.log().contains("status=bounced"),
        "{}",
        postfix.log()
    );
    assert_eq!(events(&store, &game).await, 2, "nothing played while down");

    // The database is back: Postfix delivers the message again, and it is played once.
    proxy.restore();
    postfix.flush();
    wait_for_events(&store, &game, 3, &postfix).await;
    let log = std::fs::read_to_string(shared.join("mail-in.log")).unwrap_or_default();
    assert!(log.contains("cannot open the database"), "{log}");
}
