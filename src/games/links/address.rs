//! Signed reply addresses: `play+<game>.<seat>.<mac>@<domain>`. A player answers a turn notice
//! by replying to it; the address alone says which game and seat the reply is for, and its HMAC
//! says the server made it, so a reply needs no password.
//!
//! The local part stays within RFC 5321's 64 octets: the game id is a UUID written without its
//! dashes (32 hex digits), the seat is its position in the game (the seat ids can be 32
//! characters long), and the MAC is the first 8 bytes of HMAC-SHA256 in hex.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use crate::store::GameId;

pub const PREFIX: &str = "play+";

/// The game and seat a reply address names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplyTarget {
    pub game_id: GameId,
    pub seat_index: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AddressError {
    #[error("the message was not sent to a Despatch reply address (play+…@{0})")]
    NotOurs(String),
    #[error("the reply address {0} is malformed")]
    Malformed(String),
    #[error("the reply address {0} is not signed by this server; reply to the turn notice itself")]
    BadSignature(String),
}

fn mac(key: &[u8], game_id: &str, seat_index: usize) -> String {
    let mut m = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key length");
    m.update(format!("reply-address:{game_id}:{seat_index}").as_bytes());
    hex::encode(&m.finalize().into_bytes()[..8])
}

fn compact(game_id: &str) -> String {
    game_id.replace('-', "")
}

fn expand(compact: &str) -> Option<GameId> {
    if compact.len() != 32 || !compact.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let c = compact.to_ascii_lowercase();
    GameId::parse(&format!(
        "{}-{}-{}-{}-{}",
        &c[0..8],
        &c[8..12],
        &c[12..16],
        &c[16..20],
        &c[20..32]
    ))
    .ok()
}

/// The signed reply address of a seat.
pub fn reply_address(key: &[u8], domain: &str, game_id: &str, seat_index: usize) -> String {
    format!(
        "{PREFIX}{}.{seat_index}.{}@{domain}",
        compact(game_id),
        mac(key, game_id, seat_index)
    )
}

/// Reads and checks a reply address.
pub fn parse(key: &[u8], domain: &str, address: &str) -> Result<ReplyTarget, AddressError> {
    let address = address
        .trim()
        .trim_matches(|c| c == '<' || c == '>')
        .to_ascii_lowercase();
    let (local, host) = address
        .rsplit_once('@')
        .ok_or_else(|| AddressError::NotOurs(domain.into()))?;
    let rest = local
        .strip_prefix(PREFIX)
        .ok_or_else(|| AddressError::NotOurs(domain.into()))?;
    if !host.eq_ignore_ascii_case(domain) {
        return Err(AddressError::NotOurs(domain.into()));
    }
    let mut parts = rest.split('.');
    let (Some(game), Some(seat), Some(tag), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(AddressError::Malformed(address.clone()));
    };
    let game_id = expand(game).ok_or_else(|| AddressError::Malformed(address.clone()))?;
    let seat_index: usize = seat
        .parse()
        .map_err(|_| AddressError::Malformed(address.clone()))?;
    let expected = mac(key, game_id.as_str(), seat_index);
    // Constant-time comparison of the tags.
    let same = expected.len() == tag.len()
        && expected
            .bytes()
            .zip(tag.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0;
    if !same {
        return Err(AddressError::BadSignature(address));
    }
    Ok(ReplyTarget {
        game_id,
        seat_index,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &[u8] = b"test key";
    const GAME: &str = "5b6f1f3c-0000-4000-8000-000000000001";

    #[test]
    fn a_signed_address_reads_back_to_its_game_and_seat() {
        let a = reply_address(KEY, "despatch.example", GAME, 3);
        assert!(a.starts_with("play+5b6f1f3c000040008000000000000001.3."));
        assert!(
            a.split('@').next().unwrap().len() <= 64,
            "RFC 5321 limits a local part to 64 octets"
        );
        assert_eq!(
            parse(KEY, "despatch.example", &a),
            Ok(ReplyTarget {
                game_id: GameId::parse(GAME).unwrap(),
                seat_index: 3
            })
        );
        assert_eq!(
            parse(KEY, "despatch.example", &format!("<{}>", a.to_uppercase()))
                .unwrap()
                .seat_index,
            3
        );
    }

    #[test]
    fn a_forged_or_foreign_address_is_refused() {
        let a = reply_address(KEY, "despatch.example", GAME, 1);
        let other_seat = a.replacen(".1.", ".2.", 1);
        assert!(matches!(
            parse(KEY, "despatch.example", &other_seat),
            Err(AddressError::BadSignature(_))
        ));
        assert!(matches!(
            parse(b"other key", "despatch.example", &a),
            Err(AddressError::BadSignature(_))
        ));
        assert!(matches!(
            parse(KEY, "elsewhere.example", &a),
            Err(AddressError::NotOurs(_))
        ));
        assert!(matches!(
            parse(KEY, "despatch.example", "anna@despatch.example"),
            Err(AddressError::NotOurs(_))
        ));
        assert!(matches!(
            parse(KEY, "despatch.example", "play+zz.1.00@despatch.example"),
            Err(AddressError::Malformed(_))
        ));
    }
}
