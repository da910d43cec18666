//! The seat cookie: where a magic link's token goes once the link has been opened, so that it
//! does not stay in the address bar, the browser's history, bookmarks or Referer headers.
//!
//! `GET /games/{id}?token=T` with a token that opens a seat answers `303 See Other` to
//! `/games/{id}` and sets `despatch_seat=T` scoped to that game (`Path=/games/{id}`), `HttpOnly`
//! (no script reads it), `SameSite=Lax` (another site's form cannot move with it) and `Secure`
//! when the server is reached over https. The seat page and its move form then authenticate from
//! the cookie. A token that opens no seat is never set. Each game has its own path, so one
//! browser holds a seat in many games at once; opening another seat's link of the same game
//! replaces the cookie, as a browser shared by two players of one game would expect.

use actix_web::HttpRequest;

/// The cookie's name.
pub const NAME: &str = "despatch_seat";

/// How long a browser keeps the cookie: a campaign may run for months, and each new link
/// opened renews it.
const MAX_AGE_SECS: u64 = 180 * 24 * 3600;

/// Whether `text` needs no quoting in a cookie's value or path: tokens are hex or
/// `s1.<seat>.<hex>`, game ids are UUIDs.
fn plain(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'~'))
}

/// Whether cookies of a server at `base_url` are marked `Secure`.
pub fn secure_for(base_url: &str) -> bool {
    base_url
        .trim_start()
        .get(..8)
        .is_some_and(|s| s.eq_ignore_ascii_case("https://"))
}

/// The `Set-Cookie` value that keeps `token` for `game_id`, or `None` if either holds a
/// character a cookie cannot carry plainly (then the page still works, from the form).
pub fn set(game_id: &str, token: &str, secure: bool) -> Option<String> {
    let token = token.trim();
    (plain(game_id) && plain(token)).then(|| {
        format!(
            "{NAME}={token}; Path=/games/{game_id}; Max-Age={MAX_AGE_SECS}; HttpOnly; SameSite=Lax{}",
            if secure { "; Secure" } else { "" }
        )
    })
}

/// The `Set-Cookie` value that removes the cookie of `game_id`.
pub fn clear(game_id: &str, secure: bool) -> Option<String> {
    plain(game_id).then(|| {
        format!(
            "{NAME}=; Path=/games/{game_id}; Max-Age=0; HttpOnly; SameSite=Lax{}",
            if secure { "; Secure" } else { "" }
        )
    })
}

/// The seat token a request carries in its cookie, if any.
pub fn read(req: &HttpRequest) -> Option<String> {
    cookie_value(req, NAME)
}

/// The value of the cookie `name` a request carries, if any and not empty (the seat cookie's
/// and the session cookie's reader).
pub(super) fn cookie_value(req: &HttpRequest, name: &str) -> Option<String> {
    req.headers()
        .get_all(actix_web::http::header::COOKIE)
        .filter_map(|h| h.to_str().ok())
        .flat_map(|h| h.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(n, value)| *n == name && !value.trim().is_empty())
        .map(|(_, value)| value.trim().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cookie_is_scoped_to_the_game_and_hidden_from_scripts() {
        let c = set("g-1", "s1.anna.ff", false).unwrap();
        assert_eq!(
            c,
            "despatch_seat=s1.anna.ff; Path=/games/g-1; Max-Age=15552000; HttpOnly; SameSite=Lax"
        );
        assert!(set("g-1", "ab", true).unwrap().ends_with("; Secure"));
        assert_eq!(set("g;1", "ab", false), None);
        assert_eq!(set("g", "a b", false), None);
        assert!(clear("g", false).unwrap().contains("Max-Age=0"));
    }

    #[test]
    fn secure_follows_the_base_url() {
        assert!(secure_for("https://despatch.example"));
        assert!(secure_for("HTTPS://x"));
        assert!(!secure_for("http://127.0.0.1:8080"));
        assert!(!secure_for(""));
    }

    #[test]
    fn the_token_is_read_from_among_other_cookies() {
        let req = actix_web::test::TestRequest::default()
            .insert_header(("Cookie", "a=1; despatch_seat=abc ; b=2"))
            .to_http_request();
        assert_eq!(read(&req).as_deref(), Some("abc"));
        let none = actix_web::test::TestRequest::default()
            .insert_header(("Cookie", "despatch_seat=; x=y"))
            .to_http_request();
        assert_eq!(read(&none), None);
    }
}
