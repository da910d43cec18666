//! Any bytes handed to the inbound mail path, up to the database: the MIME parse (mail-parser,
//! with HTML parts turned into text), reply trimming, the reply addresses among the recipients,
//! the notices the message answers, and the split into mail commands and orders. Each step
//! answers or refuses, and never panics.
#![no_main]

use despatch::mail_in::message::Inbound;
use despatch::games::links::{address, notice_seq};
use despatch::mail_in::split_body;
use libfuzzer_sys::fuzz_target;

const KEY: &[u8] = b"fuzz key";
const DOMAIN: &str = "despatch.example";

fuzz_target!(|data: &[u8]| {
    let Ok(message) = Inbound::parse(data) else {
        return;
    };
    for recipient in &message.recipients {
        let _ = address::parse(KEY, DOMAIN, recipient);
    }
    for id in &message.answers {
        let _ = notice_seq(id);
    }
    let _ = split_body(&message.text);
});
