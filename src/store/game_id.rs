//! A game's id, parsed once where it enters (a path segment, a reply address, a command-line
//! argument, a stored row) and passed on as a `GameId`, never as a bare string.
//!
//! **A game id is 1–64 ASCII letters, digits, `-` and `_`.** The server makes each one a
//! lowercase UUID (`games::create`), which a reply address carries as its 32 hex digits
//! (`games::links::address`). Everything else an id is written into needs no more than the
//! rule: it is one path segment of the API and the pages (never `/`, `?`, `#` nor `%`); it is
//! one dot-separated part of a notice's Message-ID (`despatch.<game>.<seq>.<notice>@…`, read
//! back by `games::links::notice_seq`, which splits at the first `.`) and of a webhook's
//! `X-Despatch-Delivery`; it is one colon-separated field of every signed message
//! (`seat-link:v2:<game>:<seat>:<n>`); it is a cookie's name and an export's file name. No
//! control character reaches the store, an email header or a log line through it.
//!
//! The wire formats do not change: a `GameId` is written (`Display`, `AsRef<str>`, serde) as
//! the text it was parsed from, and bound into SQL as that text. It reads as that text too
//! (`Deref<Target = str>`), so a function that only reads an id's text takes it as it is; none
//! can make one but `parse`.

use std::fmt;
use std::ops::Deref;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The longest game id, in characters (a UUID is 36).
pub const MAX_GAME_ID: usize = 64;

/// A game's id, valid by construction: made only by [`GameId::parse`].
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameId(String);

/// Why a text is not a game id; it says what one is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{text}' is not a game id: a game id is 1-{MAX_GAME_ID} ASCII letters, digits, '-' or '_' (the server's are UUIDs)")]
pub struct GameIdError {
    /// The text refused, with any control character written as `\u{…}` so that it can be shown.
    pub text: String,
}

impl GameId {
    /// Reads a game id (see the module's rule).
    pub fn parse(text: &str) -> Result<GameId, GameIdError> {
        let ok = !text.is_empty()
            && text.len() <= MAX_GAME_ID
            && text
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if ok {
            Ok(GameId(text.to_owned()))
        } else {
            Err(GameIdError {
                text: text.escape_debug().to_string(),
            })
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Deref for GameId {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for GameId {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl FromStr for GameId {
    type Err = GameIdError;

    fn from_str(text: &str) -> Result<GameId, GameIdError> {
        GameId::parse(text)
    }
}

impl TryFrom<String> for GameId {
    type Error = GameIdError;

    fn try_from(text: String) -> Result<GameId, GameIdError> {
        GameId::parse(&text)
    }
}

impl From<GameId> for String {
    fn from(id: GameId) -> String {
        id.0
    }
}

impl PartialEq<str> for GameId {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for GameId {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl Serialize for GameId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for GameId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<GameId, D::Error> {
        let text = String::deserialize(d)?;
        GameId::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// Bound into SQL as its text. (Read back from a row it is parsed: `store::rows::stored_id`,
/// or `#[sqlx(try_from = "String")]` on a record's field — never decoded unchecked.)
impl<DB: sqlx::Database> sqlx::Type<DB> for GameId
where
    str: sqlx::Type<DB>,
{
    fn type_info() -> DB::TypeInfo {
        <str as sqlx::Type<DB>>::type_info()
    }

    fn compatible(ty: &DB::TypeInfo) -> bool {
        <str as sqlx::Type<DB>>::compatible(ty)
    }
}

impl<'q, DB: sqlx::Database> sqlx::Encode<'q, DB> for GameId
where
    for<'s> &'s str: sqlx::Encode<'q, DB>,
{
    fn encode_by_ref(
        &self,
        buf: &mut <DB as sqlx::Database>::ArgumentBuffer,
    ) -> Result<sqlx::encode::IsNull, sqlx::error::BoxDynError> {
        <&str as sqlx::Encode<'q, DB>>::encode_by_ref(&self.0.as_str(), buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_server_s_ids_and_short_ones_parse_and_write_back_the_same() {
        for text in [
            "5b6f1f3c-0000-4000-8000-000000000001",
            "g1",
            "no-such-game",
            "A_b-9",
            &"x".repeat(MAX_GAME_ID),
        ] {
            let id = GameId::parse(text).unwrap();
            assert_eq!(id.to_string(), text);
            assert_eq!(id.as_ref(), text);
            assert_eq!(serde_json::to_string(&id).unwrap(), format!("\"{text}\""));
            assert_eq!(
                serde_json::from_str::<GameId>(&format!("\"{text}\"")).unwrap(),
                id
            );
        }
    }

    #[test]
    fn an_id_that_would_break_a_path_a_message_id_or_a_header_is_refused_and_the_error_says_what_an_id_is(
    ) {
        for text in [
            "",
            "a.b",
            "a/b",
            "a b",
            "a:b",
            "a%2Fb",
            "é",
            "a\nb",
            "a\u{0}",
            &"x".repeat(MAX_GAME_ID + 1),
        ] {
            assert!(GameId::parse(text).is_err(), "{text:?}");
            assert!(serde_json::from_str::<GameId>(&serde_json::to_string(text).unwrap()).is_err());
        }
        assert_eq!(
            GameId::parse("a.b").unwrap_err().to_string(),
            "'a.b' is not a game id: a game id is 1-64 ASCII letters, digits, '-' or '_' (the server's are UUIDs)"
        );
        assert_eq!(GameId::parse("a\nb").unwrap_err().text, "a\\nb");
    }
}
