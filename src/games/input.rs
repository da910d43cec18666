//! What a caller's text may hold before it reaches the store, an email header or a log.
//!
//! Every face (the API, the web pages, inbound mail, the command line) hands its values to the
//! games service, so they are checked here, once, and a refusal names the field:
//!
//! - **U+0000 nowhere.** PostgreSQL's `text` and `jsonb` cannot hold it, so a NUL that reached
//!   the store would fail there (an internal error) on one backend and not the other. Refused in
//!   every value, on both backends alike.
//! - **No control characters in a single-line value** — names, email addresses, seat ids,
//!   idempotency keys, webhook URLs — since such a value may end up in an email header (a seat's
//!   name is the display name of its `To:`), a URL or a log line, where CR/LF would forge what
//!   follows. A move's free text may hold line breaks and tabs (an order written over several
//!   lines), but no other control character.
//! - **Lengths are counted in characters**, not bytes, so a name in Cyrillic or Japanese has the
//!   same room as one in ASCII.

use serde_json::Value;

use super::ServiceError;

/// A single-line value: no control character at all, at most `max` characters.
pub fn single_line(field: &str, value: &str, max: usize) -> Result<(), ServiceError> {
    if let Some(c) = value.chars().find(|c| c.is_control()) {
        return Err(ServiceError::BadRequest(format!(
            "{field} contains the control character {}; it must be one line of plain text",
            describe(c)
        )));
    }
    let n = value.chars().count();
    if n > max {
        return Err(ServiceError::BadRequest(format!(
            "{field} is {n} characters long; it may have at most {max}"
        )));
    }
    Ok(())
}

/// Free text (a move, a note): line breaks and tabs are allowed, other control characters and
/// U+0000 are not.
pub fn free_text(field: &str, value: &str) -> Result<(), ServiceError> {
    match value
        .chars()
        .find(|&c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
    {
        Some(c) => Err(ServiceError::BadRequest(format!(
            "{field} contains the control character {}; only line breaks and tabs are allowed",
            describe(c)
        ))),
        None => Ok(()),
    }
}

/// A JSON value (a command sent as JSON): no string in it, nor any key, holds a control
/// character other than a line break or a tab. The refusal names where it was found.
pub fn json(field: &str, value: &Value) -> Result<(), ServiceError> {
    match value {
        Value::String(s) => free_text(field, s),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(i, v)| json(&format!("{field}[{i}]"), v)),
        Value::Object(map) => map.iter().try_for_each(|(k, v)| {
            free_text(&format!("a key of {field}"), k)?;
            json(&format!("{field}.{k}"), v)
        }),
        Value::Null | Value::Bool(_) | Value::Number(_) => Ok(()),
    }
}

/// A character as a player can read it in an error: `U+000A (line feed)`.
fn describe(c: char) -> String {
    let name = match c {
        '\0' => " (NUL)",
        '\n' => " (line feed)",
        '\r' => " (carriage return)",
        '\t' => " (tab)",
        _ => "",
    };
    format!("U+{:04X}{name}", c as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn message(r: Result<(), ServiceError>) -> String {
        r.expect_err("refused").to_string()
    }

    #[test]
    fn a_single_line_refuses_every_control_character_and_names_it() {
        let m = message(single_line("seats[0].name", "Evil\r\nBcc: x@y", 100));
        assert_eq!(
            m,
            "seats[0].name contains the control character U+000D (carriage return); it must be one line of plain text"
        );
        assert!(message(single_line("email", "a\0@b", 254)).contains("U+0000 (NUL)"));
        assert!(message(single_line("name", "a\u{7f}", 100)).contains("U+007F"));
        assert!(single_line("name", "Anna Ng", 100).is_ok());
    }

    #[test]
    fn lengths_are_counted_in_characters_not_bytes() {
        let hundred = "ж".repeat(100);
        assert_eq!(hundred.len(), 200);
        assert!(single_line("name", &hundred, 100).is_ok());
        let m = message(single_line("name", &format!("{hundred}ж"), 100));
        assert_eq!(m, "name is 101 characters long; it may have at most 100");
    }

    #[test]
    fn free_text_keeps_line_breaks_and_tabs_but_not_nul() {
        assert!(free_text("command", "advance\r\n\troll 2d6").is_ok());
        assert!(message(free_text("command", "roll\u{0}")).contains("U+0000 (NUL)"));
        assert!(message(free_text("command", "\u{1b}[31m")).contains("U+001B"));
    }

    #[test]
    fn json_names_the_path_to_the_bad_string() {
        let v = json!({ "orders": [ "fine", { "text": "bad\u{0}" } ] });
        assert_eq!(
            message(json("command", &v)),
            "command.orders[1].text contains the control character U+0000 (NUL); only line breaks and tabs are allowed"
        );
        assert!(message(json("command", &json!({ "k\u{0}": 1 }))).starts_with("a key of command"));
        assert!(json("command", &json!({ "n": 3, "b": true, "x": null })).is_ok());
    }
}
