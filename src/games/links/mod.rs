//! Signed links and reply addresses: everything the games service hands out that a player later
//! brings back, and how it is checked. Seat tokens are stored only as their hash, so a notice
//! written hours after the game was created cannot carry the token itself. Instead every link a
//! notice carries is signed with the games service's link key (`DESPATCH_SECRET_KEY`, the key
//! file's secret, or a random key an older database keeps):
//!
//! - a **seat link token**, signed over the seat's *link generation* `n`:
//!   `s2.<seat>.<n>.<hex HMAC-SHA256(key, "seat-link:v2:<game>:<seat>:<n>")>`, or for generation
//!   0 the older form `s1.<seat>.<hex HMAC-SHA256(key, "seat-link:v1:<game>:<seat>")>`, which the
//!   API accepts wherever it accepts the seat's token (as a bearer or `?token=`) while the seat's
//!   generation is still `n`. Claiming the seat for another address, asking for a new link and
//!   signing out everywhere move the generation on (`Games::revoke_seat_links`), and with it
//!   every link mailed before stops opening the seat;
//! - an **unsubscribe signature** over `unsubscribe:v1:<game>:<seat>:<channel>`, so a seat can turn
//!   a channel off from the email itself, without logging in;
//! - the **reply-to address** of a seat (`address`), with the same key;
//! - a **one-time token** (a sign-in or claim link), `HMAC-SHA256(key, "one-time:v1:<purpose>:<nonce>")`
//!   over a random nonce: the store keeps the nonce and the token's SHA-256, never the token;
//! - a **notice's Message-ID**, which names the event the notice follows, so that a reply to an
//!   old notice is recognised as one (not signed: it only says what the player saw);
//! - a webhook body's **signature**, with the webhook's own secret.
//!
//! The faces only call these: notify puts links, addresses and ids in its notices, mail_in reads
//! reply addresses and ids back, http checks seat links and unsubscribe signatures through
//! `Games`. No credential is written into the outbox: a message holds placeholders and the
//! recipe of each credential (`pending`), which the dispatcher renders as it sends, so a copy of
//! the database, without the key, opens nothing.

pub mod address;
pub mod pending;

use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};

type HmacSha256 = Hmac<Sha256>;

/// The prefix of a seat link token of generation 0 (the form links had before generations).
const SEAT_PREFIX_V1: &str = "s1.";
/// The prefix of a seat link token of a later generation.
const SEAT_PREFIX_V2: &str = "s2.";

/// A server key from a configured secret: any string, hashed to 32 bytes.
pub fn key_from_secret(secret: &str) -> [u8; 32] {
    Sha256::digest(secret.as_bytes()).into()
}

fn mac(key: &[u8; 32], message: &str) -> HmacSha256 {
    let mut mac = HmacSha256::new_from_slice(key).expect("HMAC takes any key length");
    mac.update(message.as_bytes());
    mac
}

fn sign(key: &[u8; 32], message: &str) -> String {
    hex::encode(mac(key, message).finalize().into_bytes())
}

fn verify(key: &[u8; 32], message: &str, signature: &str) -> bool {
    match hex::decode(signature) {
        Ok(bytes) => mac(key, message).verify_slice(&bytes).is_ok(),
        Err(_) => false,
    }
}

/// The token a seat's magic link carries, signed over the seat's link generation.
pub fn seat_token(key: &[u8; 32], game_id: &str, seat: &str, generation: i64) -> String {
    if generation == 0 {
        format!(
            "{SEAT_PREFIX_V1}{seat}.{}",
            sign(key, &format!("seat-link:v1:{game_id}:{seat}"))
        )
    } else {
        format!(
            "{SEAT_PREFIX_V2}{seat}.{generation}.{}",
            sign(key, &seat_link_v2(game_id, seat, generation))
        )
    }
}

fn seat_link_v2(game_id: &str, seat: &str, generation: i64) -> String {
    format!("seat-link:v2:{game_id}:{seat}:{generation}")
}

/// Whether `token` looks like a seat link token (rather than a seat's own token).
pub fn is_seat_token(token: &str) -> bool {
    token.starts_with(SEAT_PREFIX_V1) || token.starts_with(SEAT_PREFIX_V2)
}

/// The seat a seat link token opens in `game_id` and the link generation it was signed over,
/// if its signature holds. Whether that generation is still the seat's is the caller's to check.
pub fn open_seat_token(key: &[u8; 32], game_id: &str, token: &str) -> Option<(String, i64)> {
    if let Some(rest) = token.strip_prefix(SEAT_PREFIX_V1) {
        let (seat, signature) = rest.rsplit_once('.')?;
        return verify(key, &format!("seat-link:v1:{game_id}:{seat}"), signature)
            .then(|| (seat.to_owned(), 0));
    }
    let rest = token.strip_prefix(SEAT_PREFIX_V2)?;
    let (rest, signature) = rest.rsplit_once('.')?;
    let (seat, generation) = rest.rsplit_once('.')?;
    let generation: i64 = generation.parse().ok().filter(|g| *g > 0)?;
    verify(key, &seat_link_v2(game_id, seat, generation), signature)
        .then(|| (seat.to_owned(), generation))
}

/// A one-time token for `purpose` (`sign_in`, `claim`) from its random `nonce`: the store keeps
/// the nonce (in the message that will carry the link) and the token's SHA-256 (to take it once),
/// and only a holder of the key can tell the token from the nonce.
pub fn one_time_token(key: &[u8; 32], purpose: &str, nonce: &str) -> String {
    sign(key, &format!("one-time:v1:{purpose}:{nonce}"))
}

/// The signature of a seat's unsubscribe link for one channel.
pub fn unsubscribe_signature(key: &[u8; 32], game_id: &str, seat: &str, channel: &str) -> String {
    sign(key, &format!("unsubscribe:v1:{game_id}:{seat}:{channel}"))
}

pub fn check_unsubscribe(
    key: &[u8; 32],
    game_id: &str,
    seat: &str,
    channel: &str,
    signature: &str,
) -> bool {
    verify(
        key,
        &format!("unsubscribe:v1:{game_id}:{seat}:{channel}"),
        signature,
    )
}

/// `sha256=<hex HMAC-SHA256(secret, body)>`: the `X-Despatch-Signature` of a webhook body.
pub fn webhook_signature(secret: &str, body: &[u8]) -> String {
    let mut mac = HmacSha256::new_from_slice(secret.as_bytes()).expect("HMAC takes any key length");
    mac.update(body);
    format!("sha256={}", hex::encode(mac.finalize().into_bytes()))
}

/// The message id of a turn notice names the event it follows:
/// `<despatch.{game_id}.{seq}.{unique}@{domain}>`.
pub fn notice_message_id(game_id: &str, seq: u64, unique: &str, domain: &str) -> String {
    format!("<{}>", notice_id(game_id, seq, unique, domain))
}

/// A notice's message id without its angle brackets. An email about no game (an answer to a
/// message that reached none) is `despatch.{unique}@{domain}`: a valid id has no empty part.
pub fn notice_id(game_id: &str, seq: u64, unique: &str, domain: &str) -> String {
    if game_id.is_empty() {
        format!("despatch.{unique}@{domain}")
    } else {
        format!("despatch.{game_id}.{seq}.{unique}@{domain}")
    }
}

/// The thread every notice to a seat of a game belongs to: named by each notice's `In-Reply-To`
/// and `References`, so that a mail client shows a seat's invitation, turn notices, reminders and
/// result as one conversation. No message carries it as its own id, and it names no event
/// (`notice_seq` reads nothing from it), so a reply that cites it is never taken for a reply to
/// an old notice.
pub fn thread_id(game_id: &str, seat: &str, domain: &str) -> String {
    format!("despatch-thread.{game_id}.{seat}@{domain}")
}

/// The game and seq a turn notice's message id names.
pub fn notice_seq(message_id: &str) -> Option<(String, u64)> {
    let id = message_id.trim().trim_start_matches('<');
    let rest = id.strip_prefix("despatch.")?;
    let mut parts = rest.splitn(3, '.');
    let game = parts.next()?;
    let seq = parts.next()?.parse().ok()?;
    Some((game.to_owned(), seq))
}

/// The signature of the seat page's flash cookie (`http::flash`) over `message`, which names
/// the game and holds the seat and the answer it carries.
pub fn flash_signature(key: &[u8; 32], message: &str) -> String {
    sign(key, message)
}

/// Whether `signature` is `flash_signature` of `message` (compared in constant time).
pub fn check_flash_signature(key: &[u8; 32], message: &str, signature: &str) -> bool {
    verify(key, message, signature)
}

/// The token of a web form (`http::csrf`): an HMAC of the form's action and of the credential
/// it acts with (a seat cookie, a session cookie, or a random form cookie, named by `binding`),
/// so that another site can neither read nor make one for its visitor.
pub fn form_token(key: &[u8; 32], action: &str, binding: &str, credential: &str) -> String {
    sign(key, &format!("form:v1:{binding}:{action}:{credential}"))
}

/// Whether `token` is `form_token` of the same form and credential (compared in constant time).
pub fn check_form_token(
    key: &[u8; 32],
    action: &str,
    binding: &str,
    credential: &str,
    token: &str,
) -> bool {
    verify(
        key,
        &format!("form:v1:{binding}:{action}:{credential}"),
        token,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_token_opens_its_seat_in_its_game_only() {
        let key = key_from_secret("k");
        let token = seat_token(&key, "g1", "anna", 0);
        assert!(token.starts_with("s1.anna."), "{token}");
        assert_eq!(
            open_seat_token(&key, "g1", &token),
            Some(("anna".to_owned(), 0))
        );
        assert_eq!(open_seat_token(&key, "g2", &token), None);
        assert_eq!(
            open_seat_token(&key_from_secret("other"), "g1", &token),
            None
        );
        let forged = token.replace("anna", "bert");
        assert_eq!(open_seat_token(&key, "g1", &forged), None);
    }

    #[test]
    fn a_seat_token_names_the_generation_it_was_signed_over() {
        let key = key_from_secret("k");
        let token = seat_token(&key, "g1", "seat.1", 3);
        assert!(token.starts_with("s2.seat.1.3."), "{token}");
        assert_eq!(
            open_seat_token(&key, "g1", &token),
            Some(("seat.1".to_owned(), 3))
        );
        // The generation is signed: a link cannot be moved to another one.
        let moved = token.replacen(".3.", ".4.", 1);
        assert_eq!(open_seat_token(&key, "g1", &moved), None);
        // Generation 0 is only ever the older form.
        let zero = format!("s2.anna.0.{}", sign(&key, &seat_link_v2("g1", "anna", 0)));
        assert_eq!(open_seat_token(&key, "g1", &zero), None);
        assert_eq!(open_seat_token(&key, "g1", "s2.anna.x.ff"), None);
    }

    #[test]
    fn a_one_time_token_needs_the_key_and_names_its_purpose() {
        let key = key_from_secret("k");
        let t = one_time_token(&key, "sign_in", "n1");
        assert_eq!(t.len(), 64);
        assert_ne!(t, one_time_token(&key, "claim", "n1"));
        assert_ne!(
            t,
            one_time_token(&key_from_secret("other"), "sign_in", "n1")
        );
    }

    #[test]
    fn an_unsubscribe_signature_covers_the_channel() {
        let key = key_from_secret("k");
        let sig = unsubscribe_signature(&key, "g", "anna", "email");
        assert!(check_unsubscribe(&key, "g", "anna", "email", &sig));
        assert!(!check_unsubscribe(&key, "g", "anna", "webhooks", &sig));
    }

    #[test]
    fn a_notice_id_reads_back_to_its_game_and_seq() {
        let id = notice_message_id("g-1", 7, "row-3", "despatch.example");
        assert_eq!(id, "<despatch.g-1.7.row-3@despatch.example>");
        assert_eq!(notice_seq(&id), Some(("g-1".to_owned(), 7)));
        assert_eq!(notice_seq("<someone@example.org>"), None);
    }
}
