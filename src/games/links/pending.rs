//! Credentials rendered as a message is sent, never stored. A message in the outbox (an email,
//! a webhook body) carries a *placeholder* where a seat link, an unsubscribe signature or a
//! sign-in or claim token goes, and beside it the recipe of each (`Credential`): which seat of
//! which game, which channel, which one-time nonce. The dispatcher asks the games service to mint
//! them (`Games::mint`) with the key kept outside the database, fills them in, and sends; the row
//! keeps only the placeholders. So neither a queued nor a sent row, nor a copy of the database
//! without the key, holds anything that opens a seat, a session or a subscription.
//!
//! A placeholder is `despatch_credential_<marker>_<n>_`: letters, digits and underscores, which no
//! HTML, URL, JSON or mail encoding the templates apply changes, and a random `marker` per message,
//! so that text a player wrote into a message (table talk) cannot name a placeholder it holds.

use serde::{Deserialize, Serialize};

use crate::engine::canonical::random32;

/// The outbox payload field that holds a message's `Pending` credentials.
pub const FIELD: &str = "credentials";

/// One credential a message carries, as its recipe.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Credential {
    /// The token of a seat's link, at the seat's link generation when it is sent.
    SeatLink { game_id: String, seat: String },
    /// The signature of a seat's one-click unsubscribe link for one channel.
    Unsubscribe {
        game_id: String,
        seat: String,
        channel: String,
    },
    /// A one-time token (`links::one_time_token`): a sign-in or claim link.
    OneTime { purpose: String, nonce: String },
}

/// The credentials of one message and the marker of its placeholders.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    marker: String,
    items: Vec<Credential>,
}

impl Default for Pending {
    fn default() -> Self {
        Pending::new()
    }
}

impl Pending {
    /// No credentials yet, under a new random marker.
    pub fn new() -> Pending {
        Pending {
            marker: hex::encode(&random32()[..8]),
            items: Vec::new(),
        }
    }

    /// The placeholder of `credential` in this message (the same one each time it is asked).
    pub fn placeholder(&mut self, credential: Credential) -> String {
        let index = match self.items.iter().position(|c| *c == credential) {
            Some(i) => i,
            None => {
                self.items.push(credential);
                self.items.len() - 1
            }
        };
        self.name(index)
    }

    fn name(&self, index: usize) -> String {
        format!("despatch_credential_{}_{index}_", self.marker)
    }

    /// The credentials, in the order of their placeholders.
    pub fn items(&self) -> &[Credential] {
        &self.items
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// `text` with each placeholder replaced by its minted value (`values[i]` for the i-th
    /// credential).
    pub fn fill(&self, text: &str, values: &[String]) -> String {
        let mut out = text.to_owned();
        for (i, value) in values.iter().enumerate().take(self.items.len()) {
            let name = self.name(i);
            if out.contains(&name) {
                out = out.replace(&name, value);
            }
        }
        out
    }

    /// Whether any of these placeholders stands in `text`.
    pub fn appear_in(&self, text: &str) -> bool {
        (0..self.items.len()).any(|i| text.contains(&self.name(i)))
    }

    /// The pending credentials an outbox payload carries, if any.
    pub fn of_payload(payload: &serde_json::Value) -> Result<Option<Pending>, String> {
        payload
            .get(FIELD)
            .map(|v| serde_json::from_value(v.clone()))
            .transpose()
            .map_err(|e| format!("the message's credentials are malformed: {e}"))
    }

    /// Puts these credentials into an outbox payload (nothing when there are none).
    pub fn attach(&self, payload: &mut serde_json::Value) {
        if !self.is_empty() {
            payload[FIELD] = serde_json::to_value(self).expect("credentials serialise");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(s: &str) -> Credential {
        Credential::SeatLink {
            game_id: "g".into(),
            seat: s.into(),
        }
    }

    #[test]
    fn a_placeholder_is_filled_wherever_it_stands_and_asked_twice_is_one() {
        let mut p = Pending::new();
        let anna = p.placeholder(seat("anna"));
        let bert = p.placeholder(seat("bert"));
        assert_eq!(p.placeholder(seat("anna")), anna);
        assert_eq!(p.items().len(), 2);
        let text = format!("a {anna} b {bert} c {anna}");
        assert_eq!(
            p.fill(&text, &["A".into(), "B".into()]),
            "a A b B c A".to_owned()
        );
        assert!(p.appear_in(&text) && !p.appear_in("a b c"));
        assert!(anna.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
    }

    #[test]
    fn another_messages_placeholder_is_left_as_it_is() {
        let mut p = Pending::new();
        p.placeholder(seat("anna"));
        let mut other = Pending::new();
        let foreign = other.placeholder(seat("anna"));
        assert_eq!(p.fill(&foreign, &["A".into()]), foreign);
    }

    #[test]
    fn credentials_travel_in_a_payload() {
        let mut p = Pending::new();
        p.placeholder(Credential::OneTime {
            purpose: "sign_in".into(),
            nonce: "n".into(),
        });
        let mut payload = serde_json::json!({"to": "a@example.org"});
        p.attach(&mut payload);
        assert_eq!(Pending::of_payload(&payload).unwrap(), Some(p));
        assert_eq!(Pending::of_payload(&serde_json::json!({})).unwrap(), None);
        assert!(Pending::of_payload(&serde_json::json!({"credentials": 3})).is_err());
    }
}
