//! Any bytes handed to the inbound mail parser: it answers or refuses, and never panics.
#![no_main]

use despatch::mail_in::message::Inbound;
use despatch::mail_in::{split_body, trim::visible_reply};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(message) = Inbound::parse(data) {
        let _ = split_body(&message.text);
    }
    let _ = visible_reply(&String::from_utf8_lossy(data));
});
