//! The seat page's answer to its own form, carried across the redirect (POST → 303 → GET).
//!
//! A refused order (its reason and its text) or a recorded one (its event and what it did not
//! carry out), and a table-talk message sent or refused (the reason, the message and its
//! addressee), is set in a cookie, `despatch_flash`, on the `303` that sends the browser back to
//! the seat page; the page shows it beside the form it answers and removes the cookie, so that a
//! reload shows the page alone. The cookie is scoped to the game (`Path=/games/{id}`),
//! `HttpOnly`, lives two minutes, and is signed with the link key over the game and the seat it
//! was set for: a page shows it only to that seat (a browser that opened another seat's link
//! meanwhile drops it), and no one can make one up. An answer too large for a cookie (an order
//! of some kilobytes) is answered with the page itself, as before the redirect.

use actix_web::HttpRequest;
use serde::{Deserialize, Serialize};

use super::seat_cookie::{cookie_value, secure_for};
use crate::games::links;

/// The cookie's name.
pub const NAME: &str = "despatch_flash";

/// How long a browser keeps the cookie: the redirect follows at once.
const MAX_AGE_SECS: u64 = 120;

/// The longest cookie value set; browsers keep at least 4096 bytes per cookie, name and
/// attributes included.
const MAX_VALUE: usize = 3800;

/// What the seat page says once after a form of its own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Answer {
    /// The order was not recorded: why (`status` as the form's answer would have had it), and
    /// the order, kept for the order box.
    Refused {
        status: u16,
        message: String,
        order: String,
    },
    /// The order was recorded: what the page says, and what of it was not carried out (the
    /// answering mail's text, `mail_in::answer::not_carried_out`).
    Recorded {
        notice: String,
        not_done: Option<String>,
    },
    /// A table-talk message was not sent: why, and the message and its addressee, kept for the
    /// talk form.
    TalkRefused {
        status: u16,
        message: String,
        to: String,
        text: String,
    },
    /// A table-talk message was sent.
    Said,
}

#[derive(Serialize, Deserialize)]
struct Carried {
    seat: String,
    answer: Answer,
}

fn signed(game_id: &str, payload: &str) -> String {
    format!("flash:v1:{game_id}:{payload}")
}

/// The `Set-Cookie` value carrying `answer` for `seat` of `game_id`, or `None` when it is too
/// large for a cookie (or the game id cannot be a cookie's path).
pub fn set(
    key: &[u8; 32],
    base_url: &str,
    game_id: &str,
    seat: &str,
    answer: Answer,
) -> Option<String> {
    let plain_id = game_id
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'~'));
    if game_id.is_empty() || !plain_id {
        return None;
    }
    let carried = Carried {
        seat: seat.to_owned(),
        answer,
    };
    let payload = hex::encode(serde_json::to_vec(&carried).ok()?);
    let value = format!(
        "{payload}.{}",
        links::flash_signature(key, &signed(game_id, &payload))
    );
    (value.len() <= MAX_VALUE).then(|| {
        format!(
            "{NAME}={value}; Path=/games/{game_id}; Max-Age={MAX_AGE_SECS}; HttpOnly; SameSite=Lax{}",
            if secure_for(base_url) { "; Secure" } else { "" }
        )
    })
}

/// Whether the request carries a flash cookie (to be removed, whatever it holds).
pub fn present(req: &HttpRequest) -> bool {
    cookie_value(req, NAME).is_some()
}

/// The answer the request's cookie carries for `seat` of `game_id`, if its signature holds.
pub fn read(key: &[u8; 32], req: &HttpRequest, game_id: &str, seat: &str) -> Option<Answer> {
    let value = cookie_value(req, NAME)?;
    let (payload, signature) = value.rsplit_once('.')?;
    if !links::check_flash_signature(key, &signed(game_id, payload), signature) {
        return None;
    }
    let carried: Carried = serde_json::from_slice(&hex::decode(payload).ok()?).ok()?;
    (carried.seat == seat).then_some(carried.answer)
}

/// The `Set-Cookie` value that removes the cookie of `game_id`.
pub fn clear(base_url: &str, game_id: &str) -> String {
    format!(
        "{NAME}=; Path=/games/{game_id}; Max-Age=0; HttpOnly; SameSite=Lax{}",
        if secure_for(base_url) { "; Secure" } else { "" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(cookie: &str) -> HttpRequest {
        actix_web::test::TestRequest::default()
            .insert_header(("Cookie", cookie))
            .to_http_request()
    }

    fn cookie_of(set_cookie: &str) -> String {
        set_cookie.split(';').next().unwrap().to_owned()
    }

    #[test]
    fn an_answer_is_read_back_by_its_own_seat_only() {
        let key = links::key_from_secret("k");
        let answer = Answer::Refused {
            status: 422,
            message: "no such hex".into(),
            order: "move A1 Z9\n李雷 \"quoted\"; x".into(),
        };
        let set = set(&key, "http://h", "g-1", "anna", answer.clone()).unwrap();
        assert!(set.contains("; Path=/games/g-1; Max-Age=120; HttpOnly; SameSite=Lax"));
        assert!(!set.contains("Secure"));
        let req = request(&format!("a=b; {}", cookie_of(&set)));
        assert_eq!(read(&key, &req, "g-1", "anna"), Some(answer));
        assert!(present(&req));
        assert_eq!(read(&key, &req, "g-1", "ben"), None, "another seat");
        assert_eq!(read(&key, &req, "g-2", "anna"), None, "another game");
        let other_key = links::key_from_secret("other");
        assert_eq!(read(&other_key, &req, "g-1", "anna"), None, "another key");
    }

    #[test]
    fn a_changed_cookie_is_not_read() {
        let key = links::key_from_secret("k");
        let answer = Answer::Recorded {
            notice: "recorded".into(),
            not_done: None,
        };
        let set = set(&key, "https://h", "g", "anna", answer).unwrap();
        assert!(set.ends_with("; Secure"));
        let value = cookie_of(&set);
        let (_, signature) = value.rsplit_once('.').unwrap();
        let forged = hex::encode(
            serde_json::to_vec(&serde_json::json!({
                "seat": "anna",
                "answer": {"Recorded": {"notice": "forged", "not_done": null}}
            }))
            .unwrap(),
        );
        let req = request(&format!("despatch_flash={forged}.{signature}"));
        assert_eq!(read(&key, &req, "g", "anna"), None);
        assert!(read(&key, &request(&value), "g", "anna").is_some());
    }

    #[test]
    fn an_answer_too_large_for_a_cookie_is_not_set() {
        let key = links::key_from_secret("k");
        let answer = Answer::Refused {
            status: 422,
            message: "too long".into(),
            order: "x".repeat(2000),
        };
        assert_eq!(set(&key, "http://h", "g", "anna", answer), None);
        assert!(clear("http://h", "g").contains("Max-Age=0"));
    }
}
