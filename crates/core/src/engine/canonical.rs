//! The one byte encoding everything is hashed over: RFC 8785 (JSON Canonicalization Scheme),
//! and the SHA-256 helpers the wire formats use. Bytes travel as lowercase hex.

use serde::Serialize;
use sha2::{Digest, Sha256};

/// RFC 8785 canonical JSON of any serialisable value.
pub fn canonical_json<T: Serialize>(value: &T) -> String {
    serde_json_canonicalizer::to_string(value)
        .expect("values hashed by Despatch are plain JSON and always canonicalise")
}

/// SHA-256 of raw bytes.
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// Lowercase hex SHA-256 of raw bytes. (Written into a buffer: `hex::encode` collects its
/// digits one `char` at a time, which took five times as long as the hash of a short text.)
pub fn sha256_hex(bytes: &[u8]) -> String {
    let mut digits = [0u8; 64];
    hex::encode_to_slice(sha256(bytes), &mut digits).expect("32 bytes are 64 hex digits");
    String::from_utf8(digits.to_vec()).expect("hex digits are ASCII")
}

/// Lowercase hex SHA-256 of the canonical JSON of a value: how states and events are hashed.
pub fn hash_json<T: Serialize>(value: &T) -> String {
    sha256_hex(canonical_json(value).as_bytes())
}

/// Decodes a 32-byte value written as 64 hex digits.
pub fn hex32(text: &str) -> Option<[u8; 32]> {
    let mut out = [0u8; 32];
    hex::decode_to_slice(text, &mut out).ok()?;
    Some(out)
}

/// 32 bytes from the operating system's CSPRNG.
pub fn random32() -> [u8; 32] {
    let mut out = [0u8; 32];
    getrandom::fill(&mut out).expect("the operating system's random source is available");
    out
}

/// 16 bytes from the operating system's CSPRNG (salts).
pub fn random16() -> [u8; 16] {
    let mut out = [0u8; 16];
    getrandom::fill(&mut out).expect("the operating system's random source is available");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_hex_is_the_lowercase_hex_of_the_hash() {
        // FIPS 180-2's first example.
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(hex32(&sha256_hex(b"abc")), Some(sha256(b"abc")));
    }

    #[test]
    fn hex32_reads_64_hex_digits_in_either_case_and_nothing_else() {
        let low = "00ff".repeat(16);
        let mut bytes = [0u8; 32];
        for pair in bytes.chunks_mut(2) {
            pair[1] = 0xff;
        }
        assert_eq!(hex32(&low), Some(bytes));
        assert_eq!(hex32(&low.to_uppercase()), Some(bytes));
        for bad in [&low[..62], &format!("{low}00"), &low.replace('f', "g"), ""] {
            assert_eq!(hex32(bad), None, "{bad}");
        }
    }
}
