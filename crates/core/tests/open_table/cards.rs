//! Decks, hands and cups at the open table (rules version 3, issue 40): each operation as a seat
//! sends it, what the table and each seat are told, and each refusal, which names what was
//! wrong and changes nothing.

use std::collections::VecDeque;

use despatch_core::engine::dice::{hidden_stream, DiceStream};
use despatch_core::engine::ruleset::{
    Ctx, DiceSource, Line, RuleError, Rules, Seat, SeatDef, Setup, Viewer,
};
use despatch_core::rules::open_table::{OpenTable, State};
use serde_json::{json, Value};

const DECK: &str = "\
deck strategy Strategy cards
card Ambush | Play before a battle
card Blockade
card Coup
card Duel
card Envoy
set late-war
card Famine
card Glory
cup morale
chit 3x Steady
chit Shaken | Retreat one hex
";

fn setup(components: &str) -> Setup {
    Setup {
        game_id: "cards".into(),
        scenario: "default".into(),
        options: json!({ "components": components }),
        seats: SeatDef::named_by_id(&["anna", "ben", "cy"]).unwrap(),
    }
}

fn table_with(components: &str) -> State {
    OpenTable
        .setup(&setup(components), &mut hidden_stream(&[7; 32], "cards", 0))
        .unwrap()
}

fn table() -> State {
    table_with(DECK)
}

fn seat(s: &str) -> Seat {
    Seat::parse(s).unwrap()
}

/// Plays `who`'s order `text`, its hidden draws from the stream of event `seq`: the lines it
/// wrote, each with the seats it is for.
fn order(state: &mut State, who: &str, text: &str, seq: u64) -> Result<Vec<Line>, RuleError> {
    let s = seat(who);
    let command = OpenTable.parse(state, &s, text)?;
    let mut dice = VecDeque::new();
    let mut hidden: DiceStream = hidden_stream(&[7; 32], "cards", seq);
    let mut ctx = Ctx::new(DiceSource::Scripted(&mut dice), Some(&mut hidden));
    OpenTable.apply(state, &s, &command, &mut ctx)?;
    Ok(ctx.lines().to_vec())
}

/// The order is refused saying `says`, and the table is as it was.
fn refused(state: &State, who: &str, text: &str, says: &str) {
    let mut after = state.clone();
    let e = order(&mut after, who, text, 99).expect_err("refused");
    assert!(e.to_string().contains(says), "{text}: {e}");
    assert_eq!(&after, state, "a refused order changes nothing");
}

fn public(lines: &[Line]) -> Vec<&str> {
    lines
        .iter()
        .filter(|l| l.to.is_none())
        .map(|l| l.text.as_str())
        .collect()
}

fn private_to<'l>(lines: &'l [Line], who: &str) -> Vec<&'l str> {
    lines
        .iter()
        .filter(|l| l.to.as_ref().is_some_and(|to| to.contains(&seat(who))))
        .map(|l| l.text.as_str())
        .collect()
}

fn hand(state: &State, who: &str) -> Vec<String> {
    state
        .table
        .hand(&seat(who))
        .iter()
        .map(|h| h.card.clone())
        .collect()
}

fn view_of(state: &State, who: &str) -> Value {
    OpenTable.view(state, &Viewer::Seat(seat(who)))
}

#[test]
fn components_set_up_each_deck_shuffled_from_the_hidden_stream_and_each_cup_as_given() {
    let t = table();
    let strategy = &t.table.piles[0];
    assert_eq!(strategy.draw.len(), 5);
    let mut sorted = strategy.draw.clone();
    sorted.sort();
    assert_eq!(sorted, ["Ambush", "Blockade", "Coup", "Duel", "Envoy"]);
    assert_eq!(strategy.aside[0].cards, ["Famine", "Glory"]);
    assert_eq!(
        t.table.piles[1].draw,
        ["Steady", "Steady", "Steady", "Shaken"]
    );
    let other = OpenTable
        .setup(&setup(DECK), &mut hidden_stream(&[8; 32], "cards", 0))
        .unwrap();
    let orders: Vec<_> = [&t, &other]
        .iter()
        .map(|s| s.table.piles[0].draw.clone())
        .collect();
    assert_ne!(
        orders[0], orders[1],
        "another hidden seed shuffles otherwise"
    );
    assert_eq!(t.version, 3);
}

#[test]
fn a_bad_components_text_refuses_the_game_naming_the_line() {
    let e = OpenTable
        .setup(
            &setup("deck strategy\ncard Ambush\nchit 0x Steady"),
            &mut hidden_stream(&[7; 32], "c", 0),
        )
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("components, line 3: a card's count is at least 1"),
        "{e}"
    );
    let e = OpenTable
        .setup(
            &Setup {
                options: json!({ "components": 5 }),
                ..setup("")
            },
            &mut hidden_stream(&[7; 32], "c", 0),
        )
        .unwrap_err();
    assert!(e.to_string().contains("components is a text"), "{e}");
}

#[test]
fn components_need_rules_version_3() {
    for version in ["1", "2"] {
        let e = OpenTable
            .setup_version(version, &setup(DECK), &mut hidden_stream(&[7; 32], "c", 0))
            .unwrap_err();
        assert!(
            e.to_string().contains("need open-table rules version 3"),
            "{e}"
        );
    }
}

#[test]
fn a_line_starting_with_draw_is_text_at_a_table_without_components() {
    let mut t = table_with("");
    let lines = order(&mut t, "anna", "draw the line at the river", 1).unwrap();
    assert_eq!(public(&lines), ["anna: draw the line at the river"]);
}

#[test]
fn a_private_draw_tells_the_table_how_many_and_the_seat_which() {
    let mut t = table();
    let top: Vec<String> = t.table.piles[0].draw[..2].to_vec();
    let lines = order(&mut t, "anna", "draw 2 from strategy", 1).unwrap();
    assert_eq!(public(&lines), ["anna draws 2 cards from strategy"]);
    assert_eq!(
        private_to(&lines, "anna"),
        [format!("You draw from strategy: {}", top.join(", "))]
    );
    assert!(private_to(&lines, "ben").is_empty());
    assert_eq!(hand(&t, "anna"), top);
    let ben = view_of(&t, "ben");
    assert_eq!(ben["table"]["hands"]["anna"]["count"], 2);
    assert!(ben["table"]["hands"]["anna"].get("cards").is_none());
    for card in &top {
        assert!(
            !ben.to_string().contains(card.as_str()),
            "ben sees {card}: {ben}"
        );
    }
    let anna = view_of(&t, "anna");
    assert_eq!(
        anna["table"]["hands"]["anna"]["cards"][0]["card"],
        top[0].as_str()
    );
    assert_eq!(anna["table"]["piles"][0]["draw"], 3, "the pile's count");
}

#[test]
fn a_face_up_draw_is_seen_by_all() {
    let mut t = table();
    let top = t.table.piles[0].draw[0].clone();
    let lines = order(&mut t, "anna", "draw face up", 1).unwrap();
    assert_eq!(
        public(&lines),
        [format!("anna draws 1 card face up from strategy: {top}")]
    );
    assert_eq!(
        view_of(&t, "ben")["table"]["hands"]["anna"]["shown"][0],
        top.as_str()
    );
}

#[test]
fn deal_gives_each_seat_still_playing_its_cards_privately() {
    let mut t = table();
    let lines = order(&mut t, "anna", "deal 1", 1).unwrap();
    assert_eq!(
        public(&lines),
        ["anna deals 1 card from strategy to each seat"]
    );
    for who in ["anna", "ben", "cy"] {
        assert_eq!(hand(&t, who).len(), 1);
        assert_eq!(
            private_to(&lines, who),
            [format!("You are dealt from strategy: {}", hand(&t, who)[0])]
        );
    }
    refused(
        &t,
        "ben",
        "deal 1",
        "strategy holds 2 cards, not 3 to deal 1 to each of 3 seats",
    );
}

#[test]
fn look_shows_the_top_cards_to_the_seat_alone_and_leaves_them() {
    let mut t = table();
    let before = t.table.piles[0].draw.clone();
    let lines = order(&mut t, "anna", "look at the top 2 of strategy", 1).unwrap();
    assert_eq!(
        public(&lines),
        ["anna looks at the top 2 cards of strategy"]
    );
    assert_eq!(
        private_to(&lines, "anna"),
        [format!(
            "The top 2 cards of strategy (top first): {}, {}",
            before[0], before[1]
        )]
    );
    assert_eq!(t.table.piles[0].draw, before);
    refused(
        &t,
        "anna",
        "look at morale",
        "morale is a cup: it has no top",
    );
}

#[test]
fn play_and_discard_put_a_card_of_the_hand_face_up_on_its_discard_pile() {
    let mut t = table();
    order(&mut t, "anna", "draw 2", 1).unwrap();
    let held = hand(&t, "anna");
    let lines = order(
        &mut t,
        "anna",
        &format!("play {}", held[0].to_lowercase()),
        2,
    )
    .unwrap();
    assert_eq!(
        public(&lines),
        [format!("anna plays {} (strategy)", held[0])]
    );
    let lines = order(&mut t, "anna", "discard #1", 3).unwrap();
    assert_eq!(
        public(&lines),
        [format!("anna discards {} (strategy)", held[1])]
    );
    assert_eq!(t.table.piles[0].discard, held);
    assert!(hand(&t, "anna").is_empty());
}

#[test]
fn a_card_drawn_in_a_move_is_named_from_the_next_so_a_refusal_tells_nothing() {
    let t = table();
    let top = t.table.piles[0].draw[0].clone();
    refused(
        &t,
        "anna",
        &format!("draw 1\nplay {top}"),
        &format!("your hand holds no {top} (a card drawn in this move counts from your next move)"),
    );
    refused(
        &t,
        "anna",
        "draw 1\nplay Zeppelin",
        "your hand holds no Zeppelin (a card drawn in this move",
    );
    refused(
        &t,
        "anna",
        "draw 1\nplay #1",
        "#1 came into your hand in this move",
    );
}

#[test]
fn return_puts_a_card_on_top_at_the_bottom_or_shuffled_in_and_tells_the_table_no_name() {
    let mut t = table();
    order(&mut t, "anna", "draw 3", 1).unwrap();
    let held = hand(&t, "anna");
    let lines = order(&mut t, "anna", &format!("return {} to top", held[1]), 2).unwrap();
    assert_eq!(
        public(&lines),
        ["anna returns a card to strategy (to the top)"]
    );
    assert_eq!(
        private_to(&lines, "anna"),
        [format!("You return {} to strategy", held[1])]
    );
    assert_eq!(t.table.piles[0].draw[0], held[1]);
    order(&mut t, "anna", "return #1 to bottom", 3).unwrap();
    assert_eq!(t.table.piles[0].draw.last(), Some(&held[0]));
    order(&mut t, "anna", "return #1 shuffled", 4).unwrap();
    assert!(t.table.piles[0].draw.contains(&held[2]));
    assert_eq!(t.table.piles[0].draw.len(), 5);
}

#[test]
fn return_and_give_are_written_with_the_cards_place_so_the_log_keeps_the_name_private() {
    let mut t = table();
    order(&mut t, "anna", "draw 2", 1).unwrap();
    let held = hand(&t, "anna");
    let command = OpenTable
        .parse(
            &t,
            &seat("anna"),
            &format!("play {}\ngive {} to ben", held[0], held[1]),
        )
        .unwrap();
    assert_eq!(
        OpenTable.describe(&command),
        format!("play {}\ngive #1 to ben", held[0])
    );
    let lines = order(&mut t, "anna", &format!("give {} to ben", held[1]), 2).unwrap();
    assert_eq!(public(&lines), ["anna gives a card to ben"]);
    assert_eq!(
        private_to(&lines, "ben"),
        [format!("anna gives {} to ben", held[1])]
    );
    assert!(private_to(&lines, "cy").is_empty());
    assert_eq!(hand(&t, "ben"), [held[1].clone()]);
    refused(&t, "ben", "give #1 to ben", "give a card to another seat");
    refused(
        &t,
        "ben",
        "give #1 to zed",
        "'zed' is not a seat at this table",
    );
}

#[test]
fn show_reveals_a_card_that_stays_in_the_hand() {
    let mut t = table();
    order(&mut t, "anna", "draw 1", 1).unwrap();
    let card = hand(&t, "anna")[0].clone();
    let lines = order(&mut t, "anna", "show #1", 2).unwrap();
    assert_eq!(
        public(&lines),
        [format!("anna shows {card} (strategy) from their hand")]
    );
    assert_eq!(
        view_of(&t, "cy")["table"]["hands"]["anna"]["shown"][0],
        card.as_str()
    );
    refused(&t, "anna", "show #1", "is already shown to the table");
}

#[test]
fn reshuffle_takes_the_discard_pile_back_into_its_deck() {
    let mut t = table();
    order(&mut t, "anna", "draw 5", 1).unwrap();
    refused(&t, "anna", "draw 1", "strategy holds 0 cards, not 1");
    refused(
        &t,
        "anna",
        "reshuffle",
        "the discard pile of strategy is empty",
    );
    order(&mut t, "anna", "play #1\nplay #1", 2).unwrap();
    refused(
        &t,
        "anna",
        "draw 1",
        "strategy holds 0 cards, not 1; reshuffle strategy to take its 2 discarded back first",
    );
    let lines = order(&mut t, "anna", "reshuffle strategy", 3).unwrap();
    assert_eq!(
        public(&lines),
        ["anna reshuffles 2 cards discarded into strategy, which holds 2 cards"]
    );
    assert!(t.table.piles[0].discard.is_empty());
}

#[test]
fn a_set_held_aside_is_added_later_and_the_deck_shuffled() {
    let mut t = table();
    let lines = order(&mut t, "anna", "add late-war", 1).unwrap();
    assert_eq!(
        public(&lines),
        ["anna adds late-war (2 cards) to strategy and shuffles it: it holds 7 cards"]
    );
    assert!(t.table.piles[0].aside.is_empty());
    refused(
        &t,
        "anna",
        "add late-war",
        "no set 'late-war' is held aside at this table; none is left aside",
    );
}

#[test]
fn a_chit_is_drawn_from_its_cup_at_random_and_returned() {
    let mut t = table();
    let lines = order(&mut t, "anna", "draw 1 chit from morale", 1).unwrap();
    assert_eq!(public(&lines), ["anna draws 1 chit from morale"]);
    assert_eq!(t.table.piles[1].draw.len(), 3);
    let lines = order(&mut t, "anna", "return #1", 2).unwrap();
    assert_eq!(
        public(&lines),
        ["anna returns a chit to morale (to the cup)"]
    );
    assert_eq!(t.table.piles[1].draw.len(), 4);
    let lines = order(&mut t, "anna", "draw face up from morale", 3).unwrap();
    assert!(
        public(&lines)[0].starts_with("anna draws 1 chit face up from morale: "),
        "{lines:?}"
    );
    refused(
        &t,
        "anna",
        "shuffle morale",
        "morale is a cup: its chits are drawn at random",
    );
}

#[test]
fn an_unknown_deck_or_a_card_not_held_is_refused_saying_what_there_is() {
    let t = table();
    refused(
        &t,
        "anna",
        "draw 2 from tactics",
        "there is no deck or cup 'tactics' at this table; it has strategy and morale",
    );
    refused(&t, "anna", "play Ambush", "your hand holds no Ambush");
    refused(
        &t,
        "anna",
        "discard #3",
        "your hand holds 0 cards, so there is no #3",
    );
    refused(
        &t,
        "anna",
        "draw 101",
        "'draw' takes 1 to 100 cards, not 101",
    );
    refused(
        &t,
        "anna",
        "return Ambush to sideways",
        "write return <card> to top, to bottom or shuffled",
    );
}

#[test]
fn the_hand_on_the_page_is_the_seats_own_with_its_texts_and_orders() {
    let mut t = table();
    order(&mut t, "anna", "draw 5", 1).unwrap();
    let h = OpenTable.hand(&t, &seat("anna"));
    let ambush = h
        .cards
        .iter()
        .find(|c| c.name == "Ambush")
        .expect("in hand");
    assert_eq!(ambush.text, "Play before a battle");
    assert_eq!(ambush.orders[0], "play Ambush");
    assert!(OpenTable.hand(&t, &seat("ben")).is_empty());
}

#[test]
fn every_card_clause_is_written_as_it_reads_back() {
    let t = table();
    for text in [
        "shuffle",
        "shuffle strategy",
        "draw 2 face up from morale",
        "deal 3 from strategy",
        "look 2 at strategy",
        "play Ambush",
        "show #2",
        "discard Coup",
        "return #1 to bottom",
        "give #2 to ben",
        "reshuffle strategy",
        "add late-war to strategy",
    ] {
        let m = OpenTable.parse(&t, &seat("cy"), text).unwrap();
        assert_eq!(OpenTable.describe(&m), text);
        assert_eq!(
            OpenTable
                .parse(&t, &seat("cy"), &OpenTable.describe(&m))
                .unwrap(),
            m
        );
    }
}

#[test]
fn the_shipped_example_components_set_up_a_table() {
    for (name, text) in [
        (
            "open-table-card-driven.txt",
            include_str!("../../../../examples/open-table-card-driven.txt"),
        ),
        (
            "open-table-chit-cup.txt",
            include_str!("../../../../examples/open-table-chit-cup.txt"),
        ),
    ] {
        let t = OpenTable
            .setup(&setup(text), &mut hidden_stream(&[7; 32], "cards", 0))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(t.table.piles.len() >= 2, "{name}");
    }
}
