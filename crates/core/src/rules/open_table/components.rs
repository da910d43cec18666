//! A table's components (rules version 3): the decks and cups of chits the players give at
//! creation, in a small text format (the option `components`), read here with an error naming
//! the line. docs/rules/open-table.md, "Components".
//!
//! ```text
//! # A card-driven game's strategy deck
//! deck strategy Strategy cards
//! card 3x Reinforcements | Add two steps to one unit in supply
//! card Forced March
//! set late-war
//! card Armistice | The game ends at the end of this turn
//! cup morale
//! chit 4x Steady
//! chit 2x Shaken | Retreat one hex
//! ```

use serde::{Deserialize, Serialize};

/// Decks are drawn from the top; cups at random.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Deck,
    Cup,
}

/// One card (or chit) as given, with its copies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardDef {
    pub name: String,
    pub count: usize,
    pub text: String,
}

/// A pile as given: its cards from the start, and the sets held aside to be added later.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PileDef {
    pub name: String,
    pub kind: Kind,
    pub title: String,
    pub cards: Vec<CardDef>,
    pub sets: Vec<(String, Vec<CardDef>)>,
}

/// Limits that keep a table's state small.
pub const MAX_PILES: usize = 20;
pub const MAX_CARDS: usize = 2_000;
const MAX_NAME: usize = 60;
const MAX_TEXT: usize = 300;

/// Reads a components text. An error names the line and what to write instead.
pub fn parse(text: &str) -> Result<Vec<PileDef>, String> {
    let mut piles: Vec<PileDef> = Vec::new();
    let mut total = 0usize;
    for (n, raw) in text.lines().enumerate() {
        let at = |m: String| format!("components, line {}: {m}", n + 1);
        let line = raw.split_once('#').map_or(raw, |(l, _)| l).trim();
        if line.is_empty() {
            continue;
        }
        let (word, rest) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(w, r)| (w, r.trim()));
        match word {
            "deck" | "cup" => {
                let (name, title) = rest
                    .split_once(char::is_whitespace)
                    .map_or((rest, ""), |(n, t)| (n, t.trim()));
                pile_name(name).map_err(at)?;
                if piles.iter().any(|p| p.name == name) {
                    return Err(at(format!("there is already a pile named '{name}'")));
                }
                if piles.len() == MAX_PILES {
                    return Err(at(format!(
                        "a table holds at most {MAX_PILES} decks and cups"
                    )));
                }
                piles.push(PileDef {
                    name: name.to_owned(),
                    kind: if word == "deck" {
                        Kind::Deck
                    } else {
                        Kind::Cup
                    },
                    title: title.to_owned(),
                    cards: Vec::new(),
                    sets: Vec::new(),
                });
            }
            "set" => {
                let pile = piles.last_mut().ok_or_else(|| {
                    at("'set' starts a group of a deck's cards held aside: write 'deck <name>' first".into())
                })?;
                pile_name(rest).map_err(|e| at(format!("a set's name: {e}")))?;
                if pile.sets.iter().any(|(s, _)| s == rest) {
                    return Err(at(format!(
                        "{} already has a set named '{rest}'",
                        pile.name
                    )));
                }
                pile.sets.push((rest.to_owned(), Vec::new()));
            }
            "card" | "chit" => {
                let pile = piles.last_mut().ok_or_else(|| {
                    at(format!(
                        "a {word} belongs to a pile: write 'deck <name>' or 'cup <name>' before it"
                    ))
                })?;
                let card = card(rest).map_err(at)?;
                total += card.count;
                if total > MAX_CARDS {
                    return Err(at(format!(
                        "a table holds at most {MAX_CARDS} cards and chits"
                    )));
                }
                match pile.sets.last_mut() {
                    Some((_, cards)) => cards.push(card),
                    None => pile.cards.push(card),
                }
            }
            other => {
                return Err(at(format!(
                    "'{other}' is not a statement: write deck <name> [title], cup <name> [title], \
                     card [<n>x] <name> [| <text>], chit [<n>x] <name> [| <text>] or set <name>"
                )))
            }
        }
    }
    if piles.is_empty() {
        return Err(
            "components: no deck or cup is given; write 'deck <name>' and its cards".into(),
        );
    }
    if let Some(p) = piles
        .iter()
        .find(|p| p.cards.is_empty() && p.sets.is_empty())
    {
        return Err(format!(
            "components: {} '{}' has no cards",
            kind_word(p.kind),
            p.name
        ));
    }
    Ok(piles)
}

pub fn kind_word(kind: Kind) -> &'static str {
    match kind {
        Kind::Deck => "deck",
        Kind::Cup => "cup",
    }
}

/// A pile's or set's name: one word of letters, digits, `-` and `_`, which orders name it by.
fn pile_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("a name is needed, one word like strategy or late-war".into());
    }
    if name.len() > 30
        || !name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
    {
        return Err(format!(
            "'{name}' is not a name: one word of at most 30 letters, digits, '-' or '_'"
        ));
    }
    if name.chars().all(|c| c.is_ascii_digit()) {
        return Err(format!("'{name}' is a number; a name has a letter"));
    }
    Ok(())
}

/// `[<n>x] <name> [| <text>]`.
fn card(rest: &str) -> Result<CardDef, String> {
    let (head, text) = rest
        .split_once('|')
        .map_or((rest, ""), |(h, t)| (h.trim(), t.trim()));
    let (count, name) = match head.split_once(char::is_whitespace) {
        Some((n, name)) if n.ends_with('x') && n[..n.len() - 1].parse::<usize>().is_ok() => {
            (n[..n.len() - 1].parse::<usize>().unwrap_or(0), name.trim())
        }
        _ => (1, head),
    };
    if count == 0 {
        return Err("a card's count is at least 1, like 3x Reinforcements".into());
    }
    card_name(name)?;
    if text.len() > MAX_TEXT {
        return Err(format!("a card's text is at most {MAX_TEXT} characters"));
    }
    Ok(CardDef {
        name: name.to_owned(),
        count,
        text: text.to_owned(),
    })
}

/// A card's name as orders and positions write it: not empty, on one line, no `|`, `;` or `#`,
/// not beginning with a digit-and-`x` count or a `#` place.
pub fn card_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("a card needs a name, like card Forced March".into());
    }
    if name.len() > MAX_NAME {
        return Err(format!("a card's name is at most {MAX_NAME} characters"));
    }
    if name.contains(['|', ';', '#', '\n', '\r']) {
        return Err(format!(
            "'{name}': a card's name holds no '|', ';' or '#' (write its text after '|')"
        ));
    }
    let lower = name.to_lowercase();
    if lower
        .split_whitespace()
        .any(|w| ["to", "from", "of", "at"].contains(&w))
    {
        return Err(format!(
            "'{name}': a card's name holds none of the words to, from, of, at, which orders use"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decks_cups_counts_texts_and_sets_are_read() {
        let piles = parse(
            "# comment\ndeck strategy Strategy cards\ncard 3x Reinforcements | Add two steps\n\
             card Forced March\nset late-war\ncard Armistice\ncup morale\nchit 2x Shaken",
        )
        .unwrap();
        assert_eq!(piles.len(), 2);
        let s = &piles[0];
        assert_eq!(
            (s.name.as_str(), s.title.as_str()),
            ("strategy", "Strategy cards")
        );
        assert_eq!(s.cards[0].count, 3);
        assert_eq!(s.cards[0].text, "Add two steps");
        assert_eq!(s.cards[1].name, "Forced March");
        assert_eq!(s.sets[0].0, "late-war");
        assert_eq!(s.sets[0].1[0].name, "Armistice");
        assert_eq!((piles[1].kind, piles[1].cards[0].count), (Kind::Cup, 2));
    }

    #[test]
    fn a_bad_components_text_is_refused_naming_its_line() {
        for (text, says) in [
            ("card Ambush", "line 1: a card belongs to a pile"),
            (
                "deck a\ncard 0x Ambush",
                "line 2: a card's count is at least 1",
            ),
            (
                "deck a\ncard A|b\ndeck a",
                "line 3: there is already a pile named 'a'",
            ),
            (
                "deck two words here\ncard x\nshuffle",
                "line 3: 'shuffle' is not a statement",
            ),
            (
                "deck s\ncard Go to Paris",
                "line 2: 'Go to Paris': a card's name holds none",
            ),
            ("deck s t\ncard A\ncup empty", "cup 'empty' has no cards"),
            ("deck 12\ncard A", "line 1: '12' is a number"),
            ("", "no deck or cup is given"),
        ] {
            let e = parse(text).unwrap_err();
            assert!(e.contains(says), "{text:?}: {e}");
        }
    }
}
