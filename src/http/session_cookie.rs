//! The session cookie of a player signed in by email (`games::players`, `account`):
//!
//! ```text
//! despatch_session=<token>; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax[; Secure]
//! ```
//!
//! HttpOnly (no script reads it), SameSite=Lax (another site's form cannot post with it, a link
//! from an email still opens My games), Secure when the base URL is https, kept as long as the
//! session (`players::SESSION_LIFETIME`). The server keeps only the token's SHA-256. It opens a
//! player's list of games and nothing else: a seat is still opened by its own link.

use actix_web::HttpRequest;

use super::seat_cookie::secure_for;
use crate::games::players::SESSION_LIFETIME;

/// The cookie's name.
pub const NAME: &str = "despatch_session";

/// The `Set-Cookie` value that keeps a session (its token is hex).
pub fn set(token: &str, base_url: &str) -> String {
    format!(
        "{NAME}={token}; Path=/; Max-Age={}; HttpOnly; SameSite=Lax{}",
        SESSION_LIFETIME.as_secs(),
        if secure_for(base_url) { "; Secure" } else { "" }
    )
}

/// The `Set-Cookie` value that removes it.
pub fn clear(base_url: &str) -> String {
    format!(
        "{NAME}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax{}",
        if secure_for(base_url) { "; Secure" } else { "" }
    )
}

/// The session token a request carries, if any.
pub fn read(req: &HttpRequest) -> Option<String> {
    super::seat_cookie::cookie_value(req, NAME)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_session_cookie_is_hidden_from_scripts_and_secure_over_https() {
        assert_eq!(
            set("ab12", "http://127.0.0.1:8080"),
            "despatch_session=ab12; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax"
        );
        assert!(set("ab12", "https://despatch.example").ends_with("; SameSite=Lax; Secure"));
        assert!(clear("https://x").contains("Max-Age=0"));
        let req = actix_web::test::TestRequest::default()
            .insert_header(("Cookie", "despatch_seat=x; despatch_session=ab12"))
            .to_http_request();
        assert_eq!(read(&req).as_deref(), Some("ab12"));
    }
}
