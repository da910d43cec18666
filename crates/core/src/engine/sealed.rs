//! Sealed choices: a choice is committed now as `SHA-256(salt ‖ canonical JSON of the choice)`
//! and opened later by revealing the choice and the salt.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::canonical::{canonical_json, random16, sha256_hex};

/// The commitment to a choice under a salt.
pub fn commitment(choice: &Value, salt: &[u8]) -> String {
    let mut bytes = salt.to_vec();
    bytes.extend_from_slice(canonical_json(choice).as_bytes());
    sha256_hex(&bytes)
}

/// What the server keeps secret until the reveal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SealedChoice {
    pub choice: Value,
    /// Lowercase hex, 16 bytes or more.
    pub salt: String,
    pub commitment: String,
}

impl SealedChoice {
    /// Seals a choice under a fresh random salt.
    pub fn seal(choice: Value) -> Self {
        Self::with_salt(choice, &random16())
    }

    pub fn with_salt(choice: Value, salt: &[u8]) -> Self {
        let commitment = commitment(&choice, salt);
        SealedChoice {
            choice,
            salt: hex::encode(salt),
            commitment,
        }
    }

    /// Does this choice and salt open the commitment it names?
    pub fn opens(&self) -> Result<(), SealError> {
        let salt = hex::decode(&self.salt).map_err(|_| SealError::SaltNotHex)?;
        if salt.len() < 16 {
            return Err(SealError::SaltTooShort(salt.len()));
        }
        let actual = commitment(&self.choice, &salt);
        if actual == self.commitment {
            Ok(())
        } else {
            Err(SealError::Mismatch {
                expected: self.commitment.clone(),
                actual,
            })
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SealError {
    #[error("the reveal's salt is not hex")]
    SaltNotHex,
    #[error("the reveal's salt has {0} bytes; a salt has at least 16")]
    SaltTooShort(usize),
    #[error("the revealed choice and salt hash to {actual}, not to the commitment {expected}")]
    Mismatch { expected: String, actual: String },
}
