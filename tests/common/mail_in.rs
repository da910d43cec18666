//! A move by email as a mail server makes it: a real `despatch mail-in` process, its own
//! short-lived process beside the test's server, on the test's database (issue 38: pages hear
//! of moves other processes make).

use std::io::Write;
use std::process::{Command, Stdio};

use despatch::games::links::address::reply_address;
use despatch::games::links::key_from_secret;

use super::TestApp;

/// The reply domain `mail_in` runs with.
pub const DOMAIN: &str = "pipe.test";

/// A reply from `from` (`Name <address>`, the seat's address) with `body`, to seat number
/// `seat`'s reply address, signed with the tests' secret (what `mail_in` checks it with), as
/// a mail client sends it; `id` is its Message-ID.
pub fn reply(game_id: &str, seat: usize, from: &str, id: &str, body: &str) -> Vec<u8> {
    let to = reply_address(&key_from_secret(super::TEST_SECRET), DOMAIN, game_id, seat);
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: Re: Your turn\r\n\
         Message-ID: <{id}>\r\nDate: Sun, 29 Nov 2026 10:00:00 +0000\r\n\r\n{body}\r\n"
    )
    .into_bytes()
}

/// Runs `despatch mail-in` on `app`'s database as a mail server would — a process of its own
/// with `message` on its standard input, ending once it has answered — and returns what it
/// printed. Its secret is the tests' (`TEST_SECRET`), which the tests' stores seal with.
/// Blocks: call it from `tokio::task::block_in_place` in a test on several threads.
pub fn mail_in(app: &TestApp, message: &[u8]) -> String {
    mail_in_with(app, message, &[])
}

/// `mail_in` with more of the environment set (`DESPATCH_FILES_URL`, say).
pub fn mail_in_with(app: &TestApp, message: &[u8], env: &[(&str, &str)]) -> String {
    let folder = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_despatch"))
        .arg("mail-in")
        .env_clear()
        .envs(env.iter().copied())
        .env("DATABASE_URL", app.db.url())
        .env("DESPATCH_SECRET_KEY", super::TEST_SECRET)
        .env("DESPATCH_REPLY_DOMAIN", DOMAIN)
        .env("DESPATCH_BASE_URL", &app.base)
        .env("DESPATCH_DATA_DIR", folder.path())
        .env("RUST_LOG", "warn")
        .current_dir(folder.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().unwrap().write_all(message).unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "mail-in: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.starts_with("answered"), "mail-in: {stdout}");
    stdout
}
