//! Inbound mail against a corpus of real-world messages (tests/data/mail-corpus, copied with
//! their licences from the public fixtures of mail-parsing projects; see its INDEX.md): replies
//! from many clients and languages trimmed to what the sender wrote, HTML-only replies, every
//! full message read without a panic.

use std::path::{Path, PathBuf};

use despatch::mail_in::message::Inbound;
use despatch::mail_in::trim::visible_reply;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/mail-corpus")
}

fn read(path: &Path) -> String {
    String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned()
}

#[test]
fn replies_are_trimmed_as_discourse_expects_in_every_language() {
    let dir = corpus().join("discourse_email_reply_trimmer");
    let mut failures = Vec::new();
    let mut checked = 0;
    for entry in std::fs::read_dir(dir.join("emails")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_owned();
        let expected_path = dir.join("trimmed").join(&name);
        if !expected_path.exists() {
            continue;
        }
        checked += 1;
        let got = visible_reply(&read(&path));
        let expected = read(&expected_path).replace("\r\n", "\n").trim().to_owned();
        if got != expected {
            failures.push(format!(
                "{}:\n--- expected\n{expected}\n--- got\n{got}\n",
                name.to_string_lossy()
            ));
        }
    }
    assert!(
        checked >= 60,
        "the corpus has its 64 trimmed examples ({checked} found)"
    );
    assert!(
        failures.is_empty(),
        "{} of {checked} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Wraps an HTML body in a message, as an HTML-only mail client sends it.
fn html_message(html: &str) -> Vec<u8> {
    format!(
        "From: Alex <alex@example.org>\r\nTo: play+x@despatch.example\r\nSubject: Re: your turn\r\nMessage-ID: <a@example.org>\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n{html}"
    )
    .into_bytes()
}

fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn html_only_replies_from_common_clients_keep_only_the_reply() {
    let dir = corpus().join("talon/html_replies");
    let mut checked = 0;
    for name in [
        "gmail.html",
        "thunderbird.html",
        "mail_ru.html",
        "yandex_ru.html",
    ] {
        let html = read(&dir.join(name));
        let inbound = Inbound::parse(&html_message(&html)).unwrap();
        assert_eq!(
            squash(&inbound.text),
            "Hi. I am fine. Thanks, Alex",
            "{name}: {}",
            inbound.text
        );
        checked += 1;
    }
    assert_eq!(checked, 4);
}

#[test]
fn every_full_message_in_the_corpus_is_read_without_a_panic() {
    let index = read(&corpus().join("INDEX.md"));
    let mut read_ok = 0;
    let mut total = 0;
    let mut folder = String::new();
    for line in index.lines() {
        if let Some(rest) = line.strip_prefix("## `") {
            folder = rest
                .split('`')
                .next()
                .unwrap()
                .trim_end_matches('/')
                .to_owned();
            continue;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 4 || cells[2] != "message" {
            continue;
        }
        let file = cells[1].trim_matches('`');
        let path = corpus().join(&folder).join(file);
        if !path.exists() {
            continue;
        }
        total += 1;
        let raw = std::fs::read(&path).unwrap();
        if let Ok(m) = Inbound::parse(&raw) {
            read_ok += 1;
            // The visible text never grows beyond the body it came from.
            assert!(m.text.len() <= raw.len() * 4, "{}", path.display());
        }
    }
    assert!(
        total >= 200,
        "the corpus index lists its full messages ({total} found)"
    );
    assert!(
        read_ok * 100 >= total * 95,
        "{read_ok} of {total} messages were read"
    );
}

#[test]
fn quoted_printable_base64_and_legacy_charsets_are_decoded() {
    let qp = b"From: a@example.org\r\nTo: b@example.org\r\nSubject: x\r\nContent-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nAttaque =E0 l'aube=\r\n sur le pont\r\n";
    assert_eq!(
        Inbound::parse(qp).unwrap().text,
        "Attaque à l'aube sur le pont"
    );
    let b64 = b"From: a@example.org\r\nTo: b@example.org\r\nSubject: x\r\nContent-Type: text/plain; charset=koi8-r\r\nContent-Transfer-Encoding: base64\r\n\r\n8NLJ18XU\r\n";
    assert_eq!(Inbound::parse(b64).unwrap().text, "Привет");
    let long = format!(
        "From: a@example.org\r\nTo: b@example.org\r\nSubject: x\r\n\r\nroll 2d6 {}\r\n",
        "x".repeat(5000)
    );
    assert!(Inbound::parse(long.as_bytes())
        .unwrap()
        .text
        .starts_with("roll 2d6 xxx"));
}

#[test]
fn bounces_and_auto_replies_are_recognised_as_automatic() {
    let auto = b"From: a@example.org\r\nTo: b@example.org\r\nAuto-Submitted: auto-replied\r\nSubject: Out of office\r\n\r\nI am away.\r\n";
    assert!(Inbound::parse(auto).unwrap().automatic);
    let bounce = b"From: MAILER-DAEMON@example.org\r\nTo: b@example.org\r\nSubject: Undelivered\r\n\r\nfailed\r\n";
    assert!(Inbound::parse(bounce).unwrap().automatic);
    let person =
        b"From: a@example.org\r\nTo: b@example.org\r\nSubject: Re: turn\r\n\r\nroll 2d6\r\n";
    assert!(!Inbound::parse(person).unwrap().automatic);
}

mod fuzzing {
    use super::*;
    use proptest::prelude::*;

    fn seeds() -> Vec<Vec<u8>> {
        let dir = corpus().join("github_email_reply_parser/emails");
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| std::fs::read(e.unwrap().path()).unwrap())
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn arbitrary_bytes_never_make_the_parser_panic(bytes in proptest::collection::vec(any::<u8>(), 0..4096)) {
            let _ = Inbound::parse(&bytes);
            let _ = visible_reply(&String::from_utf8_lossy(&bytes));
        }

        #[test]
        fn mangled_real_messages_never_make_the_parser_panic(which in 0usize..22, cuts in proptest::collection::vec((0usize..4096, any::<u8>()), 0..16)) {
            let seeds = seeds();
            let mut message = b"From: a@example.org\r\nTo: b@example.org\r\nSubject: x\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n".to_vec();
            message.extend_from_slice(&seeds[which % seeds.len()]);
            for (at, byte) in cuts {
                let at = at % message.len();
                message[at] = byte;
            }
            if let Ok(m) = Inbound::parse(&message) {
                let (_, orders) = despatch::mail_in::split_body(&m.text);
                prop_assert!(orders.len() <= m.text.len());
            }
        }
    }
}
