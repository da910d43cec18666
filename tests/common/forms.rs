//! Forms as a browser sends them (src/http/csrf.rs): a page's form carries a token signed for
//! its action and bound to the reader's cookie, and the page may set the form cookie
//! (`despatch_csrf`) the token of an anonymous form is bound to. A test that posts a form
//! opens the page the form is on first, as a reader does, and sends what the page gave.

use super::TestApp;

/// The page the form that posts to `action` is on; `fields` give a sign-in or claim link's
/// `token`, which is in the address of its page.
pub fn page_of(action: &str, fields: &[(String, String)]) -> String {
    let token = || {
        fields
            .iter()
            .find(|(k, _)| k == "token")
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let segments: Vec<&str> = action.trim_start_matches('/').split('/').collect();
    match segments.as_slice() {
        ["games"] => "/".into(),
        ["games", id, "claim", "confirm"] => format!("/games/{id}/claim/confirm?token={}", token()),
        ["games", id, "settings", ..] => format!("/games/{id}/settings"),
        ["games", id, ..] => format!("/games/{id}"),
        ["login", "confirm"] => format!("/login/confirm?token={}", token()),
        ["login"] => "/login".into(),
        ["logout"] | ["logout", "everywhere"] => "/me".into(),
        ["me", ..] => "/me/settings".into(),
        // Its form carries no token: it reads no cookie and changes nothing.
        ["verify"] => "/verify".into(),
        _ => panic!("which page is the form posting to {action} on?"),
    }
}

/// The `csrf` field of the form whose action is `action` in a page's HTML, if the page has it.
pub fn token_in(body: &str, action: &str) -> Option<String> {
    let at = body.find(&format!("action=\"{action}\""))?;
    let rest = &body[at..];
    let form_end = rest.find("</form>").unwrap_or(rest.len());
    let field = rest[..form_end].find("name=\"csrf\" value=\"")?;
    let value = &rest[field + "name=\"csrf\" value=\"".len()..];
    Some(value[..value.find('"')?].to_owned())
}

/// A page with every form's token blanked: two visitors' pages compared.
pub fn without_tokens(body: &str) -> String {
    let marker = "name=\"csrf\" value=\"";
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(at) = rest.find(marker) {
        out.push_str(&rest[..at + marker.len()]);
        rest = &rest[at + marker.len()..];
        rest = &rest[rest.find('"').unwrap_or(0)..];
    }
    out.push_str(rest);
    out
}

/// A `Cookie` header with the form cookie a response set added (or replaced).
pub fn with_form_cookie(
    cookie: Option<&str>,
    response: &reqwest::header::HeaderMap,
) -> Option<String> {
    let set = response
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("despatch_csrf="))
        .map(|v| v.split(';').next().unwrap().to_owned());
    match (cookie, set) {
        (Some(c), Some(set)) => {
            let kept: Vec<&str> = c
                .split(';')
                .map(str::trim)
                .filter(|p| !p.starts_with("despatch_csrf=") && !p.is_empty())
                .collect();
            Some(if kept.is_empty() {
                set
            } else {
                format!("{}; {set}", kept.join("; "))
            })
        }
        (Some(c), None) => Some(c.to_owned()),
        (None, set) => set,
    }
}

impl TestApp {
    /// The token and the `Cookie` header a reader's browser sends with the form posting to
    /// `action`: the form's page is opened with `cookie` and read. No token when the page has
    /// no such form (a seat cookie that opens no seat): the form is then sent without one.
    pub async fn form_token(
        &self,
        action: &str,
        fields: &[(String, String)],
        cookie: Option<&str>,
    ) -> (Option<String>, Option<String>) {
        let mut req = self.http.get(self.url(&page_of(action, fields)));
        if let Some(c) = cookie {
            req = req.header("Cookie", c);
        }
        let resp = req.send().await.unwrap();
        let cookie = with_form_cookie(cookie, resp.headers());
        let body = resp.text().await.unwrap();
        (token_in(&body, action), cookie)
    }

    /// `fields` with the `csrf` field of the form's page, and the cookie to send them with.
    pub async fn as_the_page_sends(
        &self,
        action: &str,
        fields: &[(String, String)],
        cookie: Option<&str>,
    ) -> (Vec<(String, String)>, Option<String>) {
        let (token, cookie) = self.form_token(action, fields, cookie).await;
        let mut fields = fields.to_vec();
        if let Some(token) = token {
            if !fields.iter().any(|(k, _)| k == "csrf") {
                fields.push(("csrf".into(), token));
            }
        }
        (fields, cookie)
    }
}
