//! The boards in characters that turn emails and pages show (`Rules::board_text`): pieces where
//! they stand, doors as they are, nothing a viewer may not see, and lines that mail clients do
//! not wrap.

use despatch_core::engine::dice::hidden_stream;
use despatch_core::engine::ruleset::{Rules, Seat, SeatDef, Setup, Viewer};
use despatch_core::rules::for_honor_and_glory::{scenario, ForHonorAndGlory};
use despatch_core::rules::hour_of_glory::agents::DefKind;
use despatch_core::rules::hour_of_glory::board::{board, Cell, DoorId, Sq};
use despatch_core::rules::hour_of_glory::intel::Card;
use despatch_core::rules::hour_of_glory::state::{State, Status};
use despatch_core::rules::hour_of_glory::HourOfGlory;
use serde_json::json;

fn setup(scenario: &str, seats: &[&str]) -> Setup {
    Setup {
        game_id: "boards".into(),
        scenario: scenario.into(),
        options: json!({}),
        seats: SeatDef::named_by_id(seats).unwrap(),
    }
}

/// Hour of Glory's mission with these seats, set up from a fixed hidden seed.
fn mission(seats: &[&str]) -> State {
    HourOfGlory
        .setup(
            &setup("mission", seats),
            &mut hidden_stream(&[7; 32], "boards", 0),
        )
        .unwrap()
}

fn seat(name: &str) -> Viewer {
    Viewer::Seat(Seat::parse(name).unwrap())
}

/// The character drawn for a square of the stronghold: the map starts after a header line, each
/// row after a four-character row number.
fn stronghold_char(text: &str, sq: Sq) -> char {
    let line = text.lines().nth(1 + usize::from(sq.1)).unwrap();
    line.chars().nth(4 + usize::from(sq.0)).unwrap_or(' ')
}

/// The text with every run of white space made one space, so that a wrapped line still reads
/// as one.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn assert_fits_in_mail(text: &str) {
    for line in text.lines() {
        assert!(
            line.chars().count() <= 78,
            "a line longer than 78 characters: {line:?}"
        );
    }
}

#[test]
fn hour_of_glory_board_puts_every_figure_on_its_square() {
    let mut s = mission(&["defender", "harris", "link"]);
    let harris = Sq::parse("m20").unwrap();
    s.intruders[0].sq = Some(harris);
    s.intruders[1].sq = Some(Sq::parse("m21").unwrap());
    s.intruders[1].status = Status::Unconscious;
    let text = HourOfGlory.board_text(&s, &seat("defender")).unwrap();
    assert_eq!(stronghold_char(&text, harris), 'H');
    assert_eq!(
        stronghold_char(&text, Sq::parse("m21").unwrap()),
        'l',
        "an unconscious figure is drawn in lower case"
    );
    assert_eq!(stronghold_char(&text, board().commander), 'C');
    let sentries: Vec<Sq> = s
        .defenders
        .iter()
        .filter(|d| d.kind == DefKind::Sentry)
        .filter_map(|d| d.sq)
        .collect();
    assert!(!sentries.is_empty());
    for sq in sentries {
        assert_eq!(stronghold_char(&text, sq), 'S', "a Sentry on {sq}");
    }
    assert!(
        text.contains(&format!("C commander: {}", board().commander)),
        "{text}"
    );
    assert!(
        text.contains("H Harris (harris): m20, standing, raiding"),
        "{text}"
    );
    assert_fits_in_mail(&text);
}

#[test]
fn hour_of_glory_board_draws_open_doors_open() {
    let mut s = mission(&["defender", "harris"]);
    let door = board().door(DoorId(3));
    let at = Sq(door.at.0, door.at.1);
    assert!(matches!(board().cell(at), Some(Cell::Door(_))));
    let closed = HourOfGlory.board_text(&s, &Viewer::Spectator).unwrap();
    assert_ne!(stronghold_char(&closed, at), '/');
    s.doors_open[door.id.index()] = true;
    let open = HourOfGlory.board_text(&s, &Viewer::Spectator).unwrap();
    assert_eq!(stronghold_char(&open, at), '/');
}

#[test]
fn hour_of_glory_board_keeps_face_down_cards_face_down() {
    let mut s = mission(&["defender", "harris", "link"]);
    s.intruders[0].intel.push(Card::StrongholdMap);
    let hidden: Vec<String> = s
        .rooms
        .iter()
        .filter(|r| !r.explored)
        .filter_map(|r| r.card)
        .map(|c| c.to_string())
        .collect();
    assert!(!hidden.is_empty());
    for viewer in [seat("defender"), seat("link"), Viewer::Spectator] {
        let text = flat(&HourOfGlory.board_text(&s, &viewer).unwrap());
        for card in &hidden {
            assert!(
                !text.contains(card.as_str()),
                "{viewer:?} is shown the face-down card {card}:\n{text}"
            );
        }
    }
    let holder = flat(&HourOfGlory.board_text(&s, &seat("harris")).unwrap());
    let everyone = flat(&HourOfGlory.board_text(&s, &Viewer::Everyone).unwrap());
    for card in &hidden {
        assert!(holder.contains(card.as_str()), "the Map holder peeks");
        assert!(
            everyone.contains(card.as_str()),
            "after the end, all is shown"
        );
    }
}

/// The four characters drawn for a hex: rows take two lines each (even columns, then odd
/// columns), after a header line; each hex is four characters after a four-character margin.
fn hex_cell(text: &str, name: &str) -> String {
    let col = usize::from(name.as_bytes()[0] - b'A');
    let row: usize = name[1..].parse().unwrap();
    let line = text.lines().nth(1 + 2 * (row - 1) + col % 2).unwrap();
    line.chars().skip(4 + 4 * col).take(3).collect()
}

#[test]
fn for_honor_and_glory_board_shows_terrain_and_counters_by_hex() {
    let s = ForHonorAndGlory
        .setup(
            &setup("queenston-heights", &["american", "british"]),
            &mut hidden_stream(&[7; 32], "boards", 0),
        )
        .unwrap();
    let text = ForHonorAndGlory.board_text(&s, &seat("british")).unwrap();
    // Queenston Heights (scenarios/queenston_heights.txt): the 13th US Infantry and Van
    // Rensselaer in K6, the 49th Grenadiers and Brock in the town at G3, the 41st Foot and
    // Sheaffe in B3 (an odd column, drawn on the line below row 3), forest at A1, the Niagara in L1.
    assert_eq!(hex_cell(&text, "K6"), ".A2");
    assert_eq!(hex_cell(&text, "G3"), "tB2");
    assert_eq!(hex_cell(&text, "B3"), ".B2");
    assert_eq!(hex_cell(&text, "A1").trim_end(), "f");
    assert_eq!(hex_cell(&text, "L1").trim_end(), "w");
    assert!(
        text.contains("K6  regular 4/4 MP  13th US Infantry"),
        "{text}"
    );
    assert!(text.contains("G3  leader  Brock"), "{text}");
    assert_eq!(
        text,
        ForHonorAndGlory.board_text(&s, &seat("american")).unwrap(),
        "nothing is hidden: both sides see one board"
    );
}

#[test]
fn every_board_fits_a_mail_client() {
    for scen in scenario::shipped() {
        let s = ForHonorAndGlory.setup(
            &setup(&scen.id, &["american", "british"]),
            &mut hidden_stream(&[7; 32], "boards", 0),
        );
        // Test-only scenarios may refuse these seats; the shipped battles take them.
        if let Ok(s) = s {
            assert_fits_in_mail(&ForHonorAndGlory.board_text(&s, &Viewer::Spectator).unwrap());
        }
    }
    let s = mission(&["defender", "harris", "link", "volkov"]);
    assert_fits_in_mail(&HourOfGlory.board_text(&s, &Viewer::Everyone).unwrap());
}
