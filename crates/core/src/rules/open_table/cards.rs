//! The card operations of rules version 3 (docs/rules/open-table.md, "Decks, hands and cups"):
//! each a clause of the order language, read and written here, and carried out on the table
//! (`table.rs`). Every shuffle, every draw from a cup and every place a card is shuffled in at
//! comes from the game's hidden stream, so after the game ends `despatch verify` re-makes them.
//! A private result is said to its seat alone; the public line says what was done, not what
//! was drawn.

use serde::{Deserialize, Serialize};

use super::components::Kind;
use super::table::{shuffle, Held, Hidden, Table};
use crate::engine::ruleset::{RuleError, Seat};

/// A card in one's hand: by its place (`#3`, the third card as the hand shows it), or by name.
/// A place tells the table nothing of the card, so the order language writes `give` and
/// `return` with places.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum CardRef {
    Place(usize),
    Name(String),
}

impl std::fmt::Display for CardRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CardRef::Place(n) => write!(f, "#{n}"),
            CardRef::Name(name) => f.write_str(name),
        }
    }
}

/// Where a returned card goes in its deck.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Where {
    Top,
    Bottom,
    /// At a place drawn from the hidden stream.
    Shuffled,
}

/// One card operation of a move. `pile: None` is the table's first pile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum CardOp {
    Shuffle {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pile: Option<String>,
    },
    Draw {
        count: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pile: Option<String>,
        #[serde(default, skip_serializing_if = "is_false")]
        face_up: bool,
    },
    Deal {
        count: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pile: Option<String>,
    },
    Look {
        count: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pile: Option<String>,
    },
    Play {
        card: CardRef,
    },
    Show {
        card: CardRef,
    },
    Discard {
        card: CardRef,
    },
    Return {
        card: CardRef,
        to: Where,
    },
    Reshuffle {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pile: Option<String>,
    },
    Give {
        card: CardRef,
        to: Seat,
    },
    Add {
        set: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pile: Option<String>,
    },
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// The clauses' keywords, known only at a table with components.
pub const KEYWORDS: [&str; 11] = [
    "shuffle",
    "reshuffle",
    "draw",
    "deal",
    "look",
    "play",
    "show",
    "discard",
    "return",
    "give",
    "add",
];

const MAX_COUNT: usize = 100;

/// Reads the clause `keyword rest`.
pub fn parse(keyword: &str, rest: &str) -> Result<CardOp, String> {
    let rest = rest.trim();
    match keyword {
        "shuffle" => Ok(CardOp::Shuffle {
            pile: pile_word(rest, "shuffle")?,
        }),
        "reshuffle" => Ok(CardOp::Reshuffle {
            pile: pile_word(rest, "reshuffle")?,
        }),
        "draw" => {
            let (count, rest) = count(rest, "draw")?;
            let (face_up, rest) = match rest.strip_prefix("face up") {
                Some(r) if r.is_empty() || r.starts_with(' ') => (true, r.trim()),
                _ => (false, rest),
            };
            let pile = from(rest, "from", "draw [<n>] [face up] [from <deck>]")?;
            Ok(CardOp::Draw {
                count,
                pile,
                face_up,
            })
        }
        "deal" => {
            let (count, rest) = count(rest, "deal")?;
            let pile = from(rest, "from", "deal <n> [from <deck>]")?;
            Ok(CardOp::Deal { count, pile })
        }
        "look" => {
            let rest = rest.strip_prefix("at the top").map_or(rest, str::trim);
            let (count, rest) = count(rest, "look")?;
            let pile = from(rest, "at", "look [<n>] [at <deck>]")
                .or_else(|_| from(rest, "of", "look [<n>] [at <deck>]"))?;
            Ok(CardOp::Look { count, pile })
        }
        "play" => Ok(CardOp::Play {
            card: card_ref(rest, "play")?,
        }),
        "show" => Ok(CardOp::Show {
            card: card_ref(rest, "show")?,
        }),
        "discard" => Ok(CardOp::Discard {
            card: card_ref(rest, "discard")?,
        }),
        "return" => {
            const FORM: &str = "write return <card> to top, to bottom or shuffled";
            let (head, to) = match rest.rsplit_once(' ') {
                Some((head, w)) if ["top", "bottom", "shuffled"].contains(&w) => {
                    let head = head.trim();
                    let head = head.strip_suffix(" to").unwrap_or(head).trim();
                    let to = match w {
                        "top" => Where::Top,
                        "bottom" => Where::Bottom,
                        _ => Where::Shuffled,
                    };
                    (head, to)
                }
                _ if !rest.contains(" to ") && !rest.is_empty() => (rest, Where::Shuffled),
                _ => return Err(format!("'return {rest}': {FORM}")),
            };
            Ok(CardOp::Return {
                card: card_ref(head, "return")?,
                to,
            })
        }
        "give" => {
            let (card, seat) = rest.rsplit_once(" to ").ok_or_else(|| {
                format!("'give {rest}': write give <card> to <seat>, like give #2 to bob")
            })?;
            Ok(CardOp::Give {
                card: card_ref(card.trim(), "give")?,
                to: Seat::parse(seat.trim())?,
            })
        }
        "add" => {
            let (set, pile) = match rest.split_once(" to ") {
                Some((set, pile)) => (set.trim(), Some(pile.trim().to_owned())),
                None => (rest, None),
            };
            if set.is_empty() || set.contains(' ') {
                return Err(format!(
                    "'add {rest}': write add <set> [to <deck>], naming a set the components hold aside"
                ));
            }
            Ok(CardOp::Add {
                set: set.to_owned(),
                pile,
            })
        }
        other => Err(format!("'{other}' is not a card operation")),
    }
}

/// An optional count at the start of `rest`, with an optional `card(s)`/`chit(s)` after it.
fn count<'r>(rest: &'r str, keyword: &str) -> Result<(usize, &'r str), String> {
    let (first, after) = rest
        .split_once(' ')
        .map_or((rest, ""), |(f, a)| (f, a.trim()));
    let (n, after) = match first.parse::<usize>() {
        Ok(n) => (n, after),
        Err(_) => (1, rest),
    };
    if n == 0 || n > MAX_COUNT {
        return Err(format!("'{keyword}' takes 1 to {MAX_COUNT} cards, not {n}"));
    }
    let after = ["cards", "card", "chits", "chit"]
        .iter()
        .find_map(|w| {
            after
                .strip_prefix(w)
                .filter(|r| r.is_empty() || r.starts_with(' '))
        })
        .map_or(after, str::trim);
    Ok((n, after))
}

/// `[<word> <pile>]`.
fn from(rest: &str, word: &str, form: &str) -> Result<Option<String>, String> {
    if rest.is_empty() {
        return Ok(None);
    }
    match rest.strip_prefix(word).map(str::trim) {
        Some(pile) if !pile.is_empty() && !pile.contains(' ') => Ok(Some(pile.to_owned())),
        _ => Err(format!("'{rest}' is not understood here: write {form}")),
    }
}

fn pile_word(rest: &str, keyword: &str) -> Result<Option<String>, String> {
    match rest {
        "" => Ok(None),
        r if !r.contains(' ') => Ok(Some(r.to_owned())),
        r => Err(format!(
            "'{keyword} {r}': write {keyword} [<deck>], one deck's name"
        )),
    }
}

fn card_ref(text: &str, keyword: &str) -> Result<CardRef, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err(format!(
            "'{keyword}' names a card of your hand, like {keyword} #2 or {keyword} Ambush"
        ));
    }
    if let Some(n) = text.strip_prefix('#') {
        return match n.parse::<usize>() {
            Ok(n) if n > 0 => Ok(CardRef::Place(n)),
            _ => Err(format!(
                "'{text}' is not a place in your hand: #1 is its first card"
            )),
        };
    }
    Ok(CardRef::Name(text.to_owned()))
}

/// The clause that [`parse`] reads back to `op`.
pub fn describe(op: &CardOp) -> String {
    let of = |word: &str, pile: &Option<String>| {
        pile.as_ref()
            .map_or(String::new(), |p| format!(" {word} {p}"))
    };
    match op {
        CardOp::Shuffle { pile } => format!("shuffle{}", of("", pile).replacen("  ", " ", 1)),
        CardOp::Reshuffle { pile } => format!("reshuffle{}", of("", pile).replacen("  ", " ", 1)),
        CardOp::Draw {
            count,
            pile,
            face_up,
        } => format!(
            "draw {count}{}{}",
            if *face_up { " face up" } else { "" },
            of("from", pile)
        ),
        CardOp::Deal { count, pile } => format!("deal {count}{}", of("from", pile)),
        CardOp::Look { count, pile } => format!("look {count}{}", of("at", pile)),
        CardOp::Play { card } => format!("play {card}"),
        CardOp::Show { card } => format!("show {card}"),
        CardOp::Discard { card } => format!("discard {card}"),
        CardOp::Return { card, to } => format!(
            "return {card} {}",
            match to {
                Where::Top => "to top",
                Where::Bottom => "to bottom",
                Where::Shuffled => "shuffled",
            }
        ),
        CardOp::Give { card, to } => format!("give {card} to {to}"),
        CardOp::Add { set, pile } => format!("add {set}{}", of("to", pile)),
    }
}

/// Names the cards that `give` and `return` would tell the table by their places in `seat`'s
/// hand instead, as the hand stands when each is carried out (a clause before it may have taken
/// a card out; drawn cards come in behind the ones held). A name the hand does not hold stays,
/// for the operation to refuse.
pub fn by_place(ops: &mut [CardOp], table: &Table, seat: &Seat) {
    let mut hand: Vec<&str> = table.hand(seat).iter().map(|h| h.card.as_str()).collect();
    for op in ops {
        match op {
            CardOp::Give { card, .. } | CardOp::Return { card, .. } => {
                let place = match card {
                    CardRef::Name(name) => hand.iter().position(|c| c.eq_ignore_ascii_case(name)),
                    CardRef::Place(n) => n.checked_sub(1).filter(|&i| i < hand.len()),
                };
                if let Some(i) = place {
                    *card = CardRef::Place(i + 1);
                    hand.remove(i);
                }
            }
            CardOp::Play { card } | CardOp::Discard { card } => {
                let place = match card {
                    CardRef::Name(name) => hand.iter().position(|c| c.eq_ignore_ascii_case(name)),
                    CardRef::Place(n) => n.checked_sub(1).filter(|&i| i < hand.len()),
                };
                if let Some(i) = place {
                    hand.remove(i);
                }
            }
            _ => {}
        }
    }
}

/// A line of the outcome: to everyone (`to: None`) or to some seats alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    pub to: Option<Vec<Seat>>,
    pub text: String,
}

/// What carrying out an operation needs besides the table.
pub struct Acting<'a, 'h> {
    pub seat: &'a Seat,
    /// The seats still playing, in the table's order (`deal`), and each seat's name.
    pub playing: &'a [Seat],
    pub seats: &'a [Seat],
    pub name: &'a dyn Fn(&Seat) -> String,
    pub hidden: &'a mut Hidden<'h>,
    pub said: Vec<Said>,
}

impl Acting<'_, '_> {
    fn say(&mut self, text: String) {
        self.said.push(Said { to: None, text });
    }
    fn say_to(&mut self, seats: &[Seat], text: String) {
        self.said.push(Said {
            to: Some(seats.to_vec()),
            text,
        });
    }
}

fn err(message: impl Into<String>) -> RuleError {
    RuleError::new("open table: cards", message)
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

fn noun(kind: Kind, n: usize) -> String {
    match kind {
        Kind::Deck => plural(n, "card", "cards"),
        Kind::Cup => plural(n, "chit", "chits"),
    }
}

/// Carries out `op` on `table` for `a.seat`. A refusal depends only on what the seat knows
/// (its hand as the move began, the piles' counts), never on a card drawn in this move.
pub fn perform(table: &mut Table, op: &CardOp, a: &mut Acting<'_, '_>) -> Result<(), RuleError> {
    let who = (a.name)(a.seat);
    match op {
        CardOp::Shuffle { pile } => {
            let p = pile_at(table, pile)?;
            let pile = &mut table.piles[p];
            if pile.kind == Kind::Cup {
                return Err(err(format!(
                    "{} is a cup: its chits are drawn at random, so it needs no shuffle",
                    pile.name
                )));
            }
            shuffle(&mut pile.draw, a.hidden)?;
            let line = format!(
                "{who} shuffles {} ({})",
                pile.name,
                noun(pile.kind, pile.draw.len())
            );
            a.say(line);
        }
        CardOp::Reshuffle { pile } => {
            let p = pile_at(table, pile)?;
            let pile = &mut table.piles[p];
            if pile.discard.is_empty() {
                return Err(err(format!(
                    "the discard pile of {} is empty: there is nothing to reshuffle",
                    pile.name
                )));
            }
            let back = pile.discard.len();
            pile.draw.append(&mut pile.discard);
            if pile.kind == Kind::Deck {
                shuffle(&mut pile.draw, a.hidden)?;
            }
            let line = format!(
                "{who} reshuffles {} discarded into {}, which holds {}",
                noun(pile.kind, back),
                pile.name,
                noun(pile.kind, pile.draw.len())
            );
            a.say(line);
        }
        CardOp::Draw {
            count,
            pile,
            face_up,
        } => {
            let p = pile_at(table, pile)?;
            enough(table, p, *count)?;
            let drawn = take(table, p, *count, a.hidden)?;
            let (name, kind) = (table.piles[p].name.clone(), table.piles[p].kind);
            let hand = table.hand_mut(a.seat);
            for card in &drawn {
                hand.push(Held {
                    card: card.clone(),
                    pile: name.clone(),
                    shown: *face_up,
                    fresh: true,
                });
            }
            if *face_up {
                a.say(format!(
                    "{who} draws {} face up from {name}: {}",
                    noun(kind, drawn.len()),
                    drawn.join(", ")
                ));
            } else {
                a.say(format!(
                    "{who} draws {} from {name}",
                    noun(kind, drawn.len())
                ));
                let line = format!("You draw from {name}: {}", drawn.join(", "));
                a.say_to(std::slice::from_ref(a.seat), line);
            }
        }
        CardOp::Deal { count, pile } => {
            let p = pile_at(table, pile)?;
            let seats = a.playing.to_vec();
            enough(table, p, count * seats.len()).map_err(|e| {
                err(format!(
                    "{} to deal {count} to each of {} seats",
                    e.message,
                    seats.len()
                ))
            })?;
            let (name, kind) = (table.piles[p].name.clone(), table.piles[p].kind);
            let mut dealt: Vec<Vec<String>> = vec![Vec::new(); seats.len()];
            for _ in 0..*count {
                for (i, seat) in seats.iter().enumerate() {
                    let card = take(table, p, 1, a.hidden)?.remove(0);
                    table.hand_mut(seat).push(Held {
                        card: card.clone(),
                        pile: name.clone(),
                        shown: false,
                        fresh: true,
                    });
                    dealt[i].push(card);
                }
            }
            a.say(format!(
                "{who} deals {} from {name} to each seat",
                noun(kind, *count)
            ));
            for (seat, cards) in seats.iter().zip(dealt) {
                a.say_to(
                    std::slice::from_ref(seat),
                    format!("You are dealt from {name}: {}", cards.join(", ")),
                );
            }
        }
        CardOp::Look { count, pile } => {
            let p = pile_at(table, pile)?;
            let pile = &table.piles[p];
            if pile.kind == Kind::Cup {
                return Err(err(format!(
                    "{} is a cup: it has no top to look at; draw a chit instead",
                    pile.name
                )));
            }
            enough(table, p, *count)?;
            let top: Vec<&str> = pile.draw[..*count].iter().map(String::as_str).collect();
            let line = format!(
                "The top {} of {} (top first): {}",
                noun(pile.kind, *count),
                pile.name,
                top.join(", ")
            );
            let public = format!(
                "{who} looks at the top {} of {}",
                noun(pile.kind, *count),
                pile.name
            );
            a.say(public);
            a.say_to(std::slice::from_ref(a.seat), line);
        }
        CardOp::Play { card } | CardOp::Discard { card } => {
            let i = held(table, a.seat, card, false)?;
            let h = table.hand_mut(a.seat).remove(i);
            let p = table.pile_index(&h.pile).map_err(err)?;
            table.piles[p].discard.push(h.card.clone());
            let verb = if matches!(op, CardOp::Play { .. }) {
                "plays"
            } else {
                "discards"
            };
            a.say(format!("{who} {verb} {} ({})", h.card, h.pile));
        }
        CardOp::Show { card } => {
            let i = held(table, a.seat, card, true)?;
            let h = &mut table.hand_mut(a.seat)[i];
            if h.shown {
                return Err(err(format!("{} is already shown to the table", h.card)));
            }
            h.shown = true;
            let line = format!("{who} shows {} ({}) from their hand", h.card, h.pile);
            a.say(line);
        }
        CardOp::Return { card, to } => {
            let i = held(table, a.seat, card, false)?;
            let h = table.hand_mut(a.seat).remove(i);
            let p = table.pile_index(&h.pile).map_err(err)?;
            let pile = &mut table.piles[p];
            let place = match (pile.kind, to) {
                (Kind::Deck, Where::Top) => 0,
                (Kind::Deck, Where::Bottom) => pile.draw.len(),
                _ => (a.hidden)(pile.draw.len() as u32 + 1)? as usize - 1,
            };
            pile.draw.insert(place, h.card.clone());
            let whereto = match (pile.kind, to) {
                (Kind::Cup, _) => "to the cup".to_owned(),
                (_, Where::Top) => "to the top".to_owned(),
                (_, Where::Bottom) => "to the bottom".to_owned(),
                (_, Where::Shuffled) => "shuffled in".to_owned(),
            };
            let what = if h.shown {
                h.card.clone()
            } else {
                noun(pile.kind, 1).replace("1 ", "a ")
            };
            let line = format!("{who} returns {what} to {} ({whereto})", pile.name);
            a.say(line);
            if !h.shown {
                a.say_to(
                    std::slice::from_ref(a.seat),
                    format!("You return {} to {}", h.card, pile.name),
                );
            }
        }
        CardOp::Give { card, to } => {
            if to == a.seat {
                return Err(err(
                    "give a card to another seat; it is in your hand already",
                ));
            }
            if !a.seats.contains(to) {
                return Err(err(format!("'{to}' is not a seat at this table")));
            }
            let i = held(table, a.seat, card, false)?;
            let mut h = table.hand_mut(a.seat).remove(i);
            h.fresh = true;
            let card = h.card.clone();
            let shown = h.shown;
            table.hand_mut(to).push(h);
            let them = (a.name)(to);
            if shown {
                a.say(format!("{who} gives {card} to {them}"));
            } else {
                a.say(format!("{who} gives a card to {them}"));
                a.say_to(
                    &[a.seat.clone(), to.clone()],
                    format!("{who} gives {card} to {them}"),
                );
            }
        }
        CardOp::Add { set, pile } => {
            let p = match pile {
                Some(_) => pile_at(table, pile)?,
                None => table
                    .piles
                    .iter()
                    .position(|p| p.aside.iter().any(|a| a.set.eq_ignore_ascii_case(set)))
                    .ok_or_else(|| {
                        err(format!(
                            "no set '{set}' is held aside at this table{}",
                            aside_list(table)
                        ))
                    })?,
            };
            let pile = &mut table.piles[p];
            let s = pile
                .aside
                .iter()
                .position(|a| a.set.eq_ignore_ascii_case(set))
                .ok_or_else(|| err(format!("{} holds no set '{set}' aside", pile.name)))?;
            let added = pile.aside.remove(s);
            let n = added.cards.len();
            pile.draw.extend(added.cards);
            if pile.kind == Kind::Deck {
                shuffle(&mut pile.draw, a.hidden)?;
            }
            let line = format!(
                "{who} adds {} ({}) to {} and shuffles it: it holds {}",
                added.set,
                noun(pile.kind, n),
                pile.name,
                noun(pile.kind, pile.draw.len())
            );
            a.say(line);
        }
    }
    Ok(())
}

fn aside_list(table: &Table) -> String {
    let sets: Vec<String> = table
        .piles
        .iter()
        .flat_map(|p| {
            p.aside
                .iter()
                .map(move |a| format!("{} ({})", a.set, p.name))
        })
        .collect();
    if sets.is_empty() {
        "; none is left aside".into()
    } else {
        format!("; aside are {}", crate::engine::words::and_list(&sets))
    }
}

fn pile_at(table: &Table, pile: &Option<String>) -> Result<usize, RuleError> {
    match pile {
        None => Ok(0),
        Some(name) => table.pile_index(name).map_err(err),
    }
}

/// Refuses a draw of more than the pile holds, saying what to do instead.
fn enough(table: &Table, p: usize, n: usize) -> Result<(), RuleError> {
    let pile = &table.piles[p];
    if pile.draw.len() >= n {
        return Ok(());
    }
    let instead = if pile.discard.is_empty() {
        String::new()
    } else {
        format!(
            "; reshuffle {} to take its {} discarded back first",
            pile.name,
            pile.discard.len()
        )
    };
    Err(err(format!(
        "{} holds {}, not {n}{instead}",
        pile.name,
        noun(pile.kind, pile.draw.len())
    )))
}

/// `n` cards off pile `p`: a deck's from the top, a cup's each at a place drawn from the
/// hidden stream.
fn take(
    table: &mut Table,
    p: usize,
    n: usize,
    hidden: &mut Hidden,
) -> Result<Vec<String>, RuleError> {
    let pile = &mut table.piles[p];
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let at = match pile.kind {
            Kind::Deck => 0,
            Kind::Cup => hidden(pile.draw.len() as u32)? as usize - 1,
        };
        out.push(pile.draw.remove(at));
    }
    Ok(out)
}

/// The place in `seat`'s hand of the card `r` names, among the cards it held as the move began
/// (`show` prefers a copy not yet shown).
fn held(table: &Table, seat: &Seat, r: &CardRef, unshown_first: bool) -> Result<usize, RuleError> {
    let hand = table.hand(seat);
    match r {
        CardRef::Place(n) => match n.checked_sub(1).and_then(|i| hand.get(i)) {
            Some(h) if !h.fresh => Ok(n - 1),
            Some(_) => Err(err(format!(
                "#{n} came into your hand in this move: name it in your next move"
            ))),
            None => Err(err(format!(
                "your hand holds {}, so there is no #{n}",
                plural(hand.len(), "card", "cards")
            ))),
        },
        CardRef::Name(name) => {
            let old = |h: &&Held| !h.fresh && h.card.eq_ignore_ascii_case(name);
            let found = if unshown_first {
                hand.iter()
                    .position(|h| old(&h) && !h.shown)
                    .or_else(|| hand.iter().position(|h| old(&h)))
            } else {
                hand.iter().position(|h| old(&h))
            };
            found.ok_or_else(|| {
                err(format!(
                    "your hand holds no {name} (a card drawn in this move counts from your next move); your page lists your hand, and #<n> names a card by its place"
                ))
            })
        }
    }
}
