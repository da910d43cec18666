//! Any text as the body of a reply: trimmed to what the player wrote, split into mail commands
//! and orders, and read as a reply address and as a notice's message id. Faster than going
//! through the MIME parser, so the fuzzer reaches deeper into the trimmer's patterns.
#![no_main]

use despatch::mail_in::trim::visible_reply;
use despatch::games::links::{address, notice_seq};
use despatch::mail_in::split_body;
use libfuzzer_sys::fuzz_target;

const KEY: &[u8] = b"fuzz key";
const DOMAIN: &str = "despatch.example";

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let visible = visible_reply(&text);
    let _ = split_body(&visible);
    let _ = address::parse(KEY, DOMAIN, &text);
    let _ = notice_seq(&text);
});
