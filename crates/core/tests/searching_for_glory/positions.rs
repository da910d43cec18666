//! Positions that round-trip (issue 39): the position Searching for Glory writes from a state
//! reads back to the same state, and each statement the writer needs reads, and a bad one is
//! refused naming its line and what was wrong (docs/rules/searching-for-glory.md, "Positions
//! (despatch replay)").

use std::sync::Arc;

use despatch_core::engine::dice::hidden_stream;
use despatch_core::engine::position::PositionError;
use despatch_core::engine::ruleset::{Ruleset, Seat, SeatDef, Setup};
use despatch_core::rules;
use despatch_core::rules::searching_for_glory::data::Side;
use despatch_core::rules::searching_for_glory::order::Clause;
use despatch_core::rules::searching_for_glory::state::{Phase, Plan, State, WindowKind};
use serde_json::json;

const FOUR: [&str; 4] = ["louis", "davout", "charles", "lannes"];

fn ruleset() -> Arc<dyn Ruleset> {
    rules::find("searching-for-glory").unwrap()
}

fn read(text: &str) -> Result<State, PositionError> {
    let setup = Setup {
        game_id: "positions".into(),
        scenario: "danube-1809".into(),
        options: json!({}),
        seats: SeatDef::named_by_id(&FOUR).unwrap(),
    };
    ruleset()
        .position(&setup, text, &mut hidden_stream(&[0; 32], "positions", 0))
        .map(|(state, _)| state.downcast::<State>().unwrap().clone())
}

fn refused(text: &str) -> PositionError {
    read(text).expect_err("the position is refused")
}

fn p(s: &State, seat: &str) -> usize {
    s.player_of(&Seat::parse(seat).unwrap()).unwrap()
}

#[test]
fn a_cu_states_the_uses_of_its_strategic_characteristic() {
    let s = read("cu louis at kelheim sp 4 strategic 2").unwrap();
    assert_eq!(s.cu("louis").strategic_used, 2);
    let e = refused("round 1\ncu louis at kelheim strategic many");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("'many' is not a number of uses"), "{e}");
}

#[test]
fn a_player_who_re_entered_plays_another_character() {
    let s = read("player louis as hiller").unwrap();
    assert_eq!(s.players[p(&s, "louis")].character, "hiller");
    assert_eq!(
        s.cu("hiller").seat.as_ref().map(Seat::as_str),
        Some("louis")
    );
    assert_eq!(s.cu("louis").seat, None);
    let e = refused("round 1\nplayer louis as davout");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("davout is played by davout"), "{e}");
    assert!(refused("player louis hiller")
        .message
        .contains("write player <seat> as <character>"));
}

#[test]
fn eliminated_and_entering_players_are_stated() {
    let s = read("out louis\neliminated louis\nentering louis").unwrap();
    let l = &s.players[p(&s, "louis")];
    assert!(l.out && l.eliminated && l.entering);
    let e = refused("eliminated nobody");
    assert_eq!(e.line, 1);
    assert!(e.message.contains("'nobody' plays no character"), "{e}");
}

#[test]
fn the_draw_order_is_stated() {
    let s = read("draw charles louis lannes davout").unwrap();
    let order: Vec<usize> = ["charles", "louis", "lannes", "davout"]
        .iter()
        .map(|x| p(&s, x))
        .collect();
    assert_eq!(s.draw_order, order);
    let e = refused("round 1\ndraw louis louis");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("named twice in the draw order"), "{e}");
}

#[test]
fn the_lps_entered_already_are_stated_and_replace_the_derived_ones() {
    let s = read("entered landshut kelheim").unwrap();
    assert_eq!(s.entered, ["landshut", "kelheim"]);
    let s = read("entered").unwrap();
    assert!(s.entered.is_empty());
    let e = refused("entered landshut nowhere");
    assert!(e.message.contains("'nowhere' is not an LP"), "{e}");
}

#[test]
fn an_entry_along_a_cl_is_stated() {
    let s = read("entry louis kelheim from abensberg").unwrap();
    assert_eq!(s.entries.len(), 1);
    assert_eq!(
        (s.entries[0].character.as_str(), s.entries[0].from.as_str()),
        ("louis", "abensberg")
    );
    let e = refused("entry louis kelheim from augsburg");
    assert!(
        e.message.contains("no CL joins augsburg and kelheim"),
        "{e}"
    );
}

#[test]
fn a_truce_keep_intel_and_victory_are_stated() {
    let set_up = read("").unwrap();
    let card = set_up.deck[0].clone();
    let s = read(&format!(
        "truce charles\nkeep louis: {card}\nintel louis: round 1: the intercepted message: none\n\
         victory french: Vienna is held"
    ))
    .unwrap();
    assert_eq!(s.truce, ["charles"]);
    assert_eq!(s.players[p(&s, "louis")].keep, [card]);
    assert_eq!(
        s.players[p(&s, "louis")].intel,
        ["round 1: the intercepted message: none"]
    );
    let v = s.victory.unwrap();
    assert_eq!(
        (v.side, v.reason.as_str()),
        (Side::French, "Vienna is held")
    );
    assert!(refused("truce nobody").message.contains("not a character"));
    assert!(refused("keep louis: nothing")
        .message
        .contains("not a card of the strategic deck"));
    assert!(refused("victory prussian: because")
        .message
        .contains("not a side"));
    assert!(refused("intel louis").message.contains("write intel"));
}

#[test]
fn a_plan_marks_its_cards_played_and_a_sealed_plan_its_commitment() {
    let set_up = read("").unwrap();
    let (a, b) = (set_up.deck[0].clone(), set_up.deck[1].clone());
    let s = read(&format!("plan louis: {a}* {b}\nplan davout sealed c0ffee")).unwrap();
    assert_eq!(s.players[p(&s, "louis")].planned, [(a, true), (b, false)]);
    assert_eq!(
        s.players[p(&s, "davout")].plan,
        Plan::Sealed {
            commitment: "c0ffee".into()
        }
    );
    assert!(refused("plan davout sealed")
        .message
        .contains("write plan <seat> sealed <commitment>"));
}

#[test]
fn no_lone_sp_is_stated() {
    assert!(!read("").unwrap().lone.is_empty(), "the scenario garrisons");
    assert!(read("lone none").unwrap().lone.is_empty());
}

#[test]
fn the_npcs_operations_and_the_end_are_phases() {
    let s = read("phase npcs hiller done massena").unwrap();
    assert_eq!(
        s.phase,
        Phase::Npcs {
            order: vec!["massena".into(), "hiller".into()],
            next: 1
        }
    );
    assert_eq!(read("phase ended").unwrap().phase, Phase::Ended);
    let e = refused("phase npcs nobody");
    assert!(e.message.contains("'nobody' is not a character"), "{e}");
}

#[test]
fn the_npc_operating_is_stated_with_its_runner_and_hand() {
    let set_up = read("").unwrap();
    let card = set_up.deck[0].clone();
    let s = read(&format!("npc hiller runner charles: {card}*")).unwrap();
    let n = s.npc.clone().unwrap();
    assert_eq!(
        (n.character.as_str(), n.hand),
        ("hiller", vec![(card, true)])
    );
    assert_eq!(n.runner, p(&s, "charles"));
    let e = refused("round 1\nnpc louis runner davout: march");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("louis is a player's character"), "{e}");
}

#[test]
fn an_operation_held_its_battle_and_window_are_stated() {
    let s = read(
        "operation louis louis next 1 crossed 1 uncarded 2 effects poor-roads: march kelheim; attack regensburg\n\
         battle regensburg blue attackers louis davout decisive bonus 1 -2 lucky defender\n\
         window battle react charles ambush passed lannes",
    );
    let s = match s {
        Ok(s) => s,
        // The card keys are the deck's: the test names two reactive cards it holds.
        Err(e) => panic!("{e}"),
    };
    let pd = s.pending.clone().unwrap();
    assert_eq!(
        pd.clauses,
        [
            Clause::March("kelheim".into()),
            Clause::Attack("regensburg".into())
        ]
    );
    assert_eq!((pd.next, pd.crossed, pd.carded), (1, 1, vec![true, false]));
    assert_eq!(pd.effects, ["poor-roads"]);
    let b = pd.battle.unwrap();
    assert_eq!(b.attackers, ["louis", "davout"]);
    assert!(b.decisive && !b.napoleon);
    assert_eq!((b.mods.bonus, b.mods.lucky), ([1, -2], [false, true]));
    let w = s.window.clone().unwrap();
    assert_eq!(w.kind, WindowKind::Battle);
    assert_eq!(w.chain[0].player, p(&s, "charles"));
    assert_eq!(w.passed, [p(&s, "lannes")]);
    let e = refused("operation louis louis: fly");
    assert!(e.message.contains("the order 'fly'"), "{e}");
    let e = refused("battle regensburg blue attackers louis");
    assert!(
        e.message.contains("write its 'operation' line first"),
        "{e}"
    );
    let e = refused("window announcement");
    assert!(
        e.message.contains("write its 'operation' line first"),
        "{e}"
    );
    let e =
        refused("operation louis louis: march kelheim\nbattle regensburg green attackers louis");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("'green' is not a CL's kind"), "{e}");
}

/// Issue 39: every state of bot games at 3 and 6 players, both scenarios, written as a
/// position, reads back onto the game's set-up to the same state, which plays on identically
/// (the harness, `tests/common/written.rs`).
#[test]
fn the_written_position_of_every_state_of_bot_games_reads_back_and_plays_on_identically() {
    crate::written::positions_round_trip_with("searching-for-glory", 6, 2000, 1, &|n| {
        let (scenario, seats) = crate::sfg_seats::danube(if n < 3 { 3 } else { 6 }, n);
        Setup {
            game_id: format!("sfg-written-{n}"),
            scenario: scenario.into(),
            options: json!({}),
            seats: SeatDef::named_by_id(seats).unwrap(),
        }
    });
}

const CARD_BATTLE: &str = "operation louis louis: march kelheim; attack regensburg
battle regensburg ordinary attackers louis";

/// Option `battle_cards` (4.c–4.i): a battle in the middle of its card play — its stage and
/// commanders, the sides' plans sealed or open, the decks, hands, discards, BP, the
/// exchange's step and the cards played — is stated after its `battle` line.
#[test]
fn a_card_battle_in_the_middle_of_its_card_play_is_stated() {
    use despatch_core::rules::searching_for_glory::battle_cards::{cards, Step};
    use despatch_core::rules::searching_for_glory::state::{BattlePlanSlot, PlansStage};
    let s = read(&format!(
        "{CARD_BATTLE}\nbattle-cards playing commanders louis charles\n\
         battle-plan attacker sealed c1\nbattle-plan defender open: attack cavalry-attack; withdraw 2\n\
         card-battle defender answer infantry-attack/french personal attacker opened exchanges 2\n\
         card-side attacker bp 10 start 12 chooses: French\n\
         card-deck attacker: infantry-attack/french bombardment/french\n\
         card-hand attacker: reverse-slope/french\ncard-discard attacker:\n\
         card-side defender bp -1 start 9: Austrian\ncard-plan defender: attack bombardment\n\
         card-plays: French infantry-attack, Austrian discards bombardment"
    ))
    .unwrap();
    let b = s.pending.as_ref().unwrap().battle.clone().unwrap();
    assert_eq!(b.plans, PlansStage::Playing);
    assert_eq!(b.commanders, [Some(p(&s, "louis")), Some(p(&s, "charles"))]);
    assert_eq!(
        b.battle_plans[0],
        BattlePlanSlot::Sealed {
            commitment: "c1".into()
        }
    );
    let open = b.battle_plans[1].plan().unwrap();
    assert_eq!((open.attack.len(), open.withdraw), (1, Some(2)));
    let play = b.play.unwrap();
    let key = |c: usize| (cards()[c].key.as_str(), cards()[c].deck.as_str());
    let Step::Answer { attack } = play.step else {
        panic!("not an answer: {:?}", play.step)
    };
    assert_eq!(key(attack), ("infantry-attack", "french"));
    assert_eq!(
        (play.turn, play.personal, play.opened, play.exchanges),
        (1, [true, false], true, 2)
    );
    let a = &play.sides[0];
    assert_eq!(
        (a.name.as_str(), a.bp, a.start, a.chooses),
        ("French", 10, 12, true)
    );
    assert_eq!(key(a.deck[1]), ("bombardment", "french"));
    assert_eq!(key(a.hand[0]), ("reverse-slope", "french"));
    assert!(a.discard.is_empty());
    assert_eq!((play.sides[1].bp, play.sides[1].plan.attack.len()), (-1, 1));
    assert_eq!(
        play.plays,
        ["French infantry-attack", "Austrian discards bombardment"]
    );

    let e = refused("round 1\nbattle-cards asked");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("write its 'battle' line first"), "{e}");
    let e = refused(&format!("{CARD_BATTLE}\nbattle-cards thinking"));
    assert_eq!(e.line, 3);
    assert!(
        e.message.contains("write battle-cards unasked|asked"),
        "{e}"
    );
    let e = refused(&format!(
        "{CARD_BATTLE}\nbattle-cards asked commanders louis nobody"
    ));
    assert!(e.message.contains("'nobody' plays no character"), "{e}");
    let e = refused(&format!(
        "{CARD_BATTLE}\nbattle-plan attacker open: charge everything"
    ));
    assert!(
        e.message.contains("the battle plan 'charge everything'"),
        "{e}"
    );
    let e = refused(&format!(
        "{CARD_BATTLE}\ncard-battle attacker attack\ncard-hand attacker: reverse-slope"
    ));
    assert!(
        e.message
            .contains("'reverse-slope' is not a battle card: write it <key>/<deck>"),
        "{e}"
    );
    let e = refused(&format!(
        "{CARD_BATTLE}\ncard-battle attacker attack\ncard-side attacker bp many start 3: French"
    ));
    assert_eq!(e.line, 4);
    assert!(e.message.contains("the side's BP"), "{e}");
    let e = refused(&format!(
        "{CARD_BATTLE}\ncard-hand attacker: reverse-slope/french"
    ));
    assert!(
        e.message.contains("write its 'card-battle' line first"),
        "{e}"
    );
    let e = refused(&format!(
        "{CARD_BATTLE}\ncard-battle attacker attack exchanges 1 fled"
    ));
    assert!(e.message.contains("'fled': write card-battle"), "{e}");
}

/// Issue 39: every state of bot games with option `battle_cards`, its plans sealed or played
/// card by card, written as a position, reads back onto the game's set-up to the same state,
/// which plays on identically: the card battles in the middle of their card play too.
#[test]
fn the_written_position_of_card_battles_reads_back_and_plays_on_identically() {
    crate::written::positions_round_trip_with("searching-for-glory", 6, 2000, 1, &|n| {
        let (scenario, seats) = crate::sfg_seats::danube(if n < 3 { 3 } else { 6 }, n);
        let play = if n % 2 == 0 { "sealed" } else { "interactive" };
        Setup {
            game_id: format!("sfg-written-cards-{n}"),
            scenario: scenario.into(),
            options: json!({"battle_cards": "cards", "battle_play": play}),
            seats: SeatDef::named_by_id(seats).unwrap(),
        }
    });
}
