//! One test per rule of Searching for Glory that the first slice plays, named after the rule's
//! section (docs/rules/searching-for-glory.md). Each sets up a Danube 1809 game, puts the pieces
//! where the rule bites, and plays orders through the ruleset with scripted dice. The text has
//! no worked example: the numbers are the project's own, worked by hand in the comments.

use std::collections::VecDeque;

use crate::scripted;
use despatch_core::engine::bot::{MemorySecrets, TestWorld};
use despatch_core::engine::dice::hidden_stream;
use despatch_core::engine::game::{Game, Move};
use despatch_core::engine::ruleset::{
    Ctx, DiceSource, RuleError, Rules, Seat, SeatDef, Setup, Viewer,
};
use despatch_core::rules;
use despatch_core::rules::searching_for_glory::data::{self, ClKind, Colour, Side};
use despatch_core::rules::searching_for_glory::order::{self, Clause, Command};
use despatch_core::rules::searching_for_glory::state::{Phase, Plan, State};
use despatch_core::rules::searching_for_glory::{
    self, battle, operations, plan, SearchingForGlory,
};
use serde_json::json;

fn setup(scenario: &str, seats: &[&str], options: serde_json::Value) -> Setup {
    Setup {
        game_id: "sfg-rules".into(),
        scenario: scenario.into(),
        options,
        seats: SeatDef::named_by_id(seats).unwrap(),
    }
}

/// A Danube 1809 game with the plain role cards (no characteristics, no personal cards), so
/// that the tests of the standard rules keep the text's numbers; the role cards' own tests
/// use `full()`.
fn game(seats: &[&str]) -> State {
    SearchingForGlory
        .setup(
            &setup("danube-1809", seats, json!({"roles": "plain"})),
            &mut hidden_stream(&[7; 32], "sfg-rules", 0),
        )
        .unwrap()
}

fn seat(s: &str) -> Seat {
    Seat::parse(s).unwrap()
}

fn idx(s: &State, who: &str) -> usize {
    s.player_of(&seat(who)).unwrap()
}

/// Gives `who` the planned cards and the operation now.
fn operating(s: &mut State, who: &str, planned: &[&str]) {
    let p = idx(s, who);
    s.players[p].planned = planned.iter().map(|c| (c.to_string(), false)).collect();
    s.players[p].plan = Plan::Open;
    s.phase = Phase::Operations {
        order: vec![p],
        next: 0,
    };
}

/// Plays an order with scripted dice, every reactive window it opens passed by all (1.e);
/// returns how many dice it drew.
fn order(s: &mut State, who: &str, text: &str, dice: &[u32]) -> Result<usize, RuleError> {
    let mut hidden = hidden_stream(&[9; 32], "sfg-rules", 1);
    let used = scripted::order_then(
        &SearchingForGlory,
        s,
        who,
        text,
        dice,
        Some(&mut hidden),
        pass_windows,
    )?;
    assert_eq!(used, dice.len(), "dice left over: {:?}", &dice[used..]);
    Ok(used)
}

/// Every seat prompted by the open reactive windows passes, until none is open.
fn pass_windows(s: &mut State, ctx: &mut Ctx) {
    let pass = Command::Operation {
        clauses: vec![Clause::Pass],
    };
    while s.window.is_some() {
        let seat = SearchingForGlory.prompts(s)[0].seat.clone();
        SearchingForGlory.apply(s, &seat, &pass, ctx).unwrap();
    }
}

fn fight(
    s: &mut State,
    attacker: &str,
    lp: &str,
    cl: ClKind,
    decisive: bool,
    dice: &[u32],
) -> battle::Result {
    let mut q: VecDeque<u32> = dice.iter().copied().collect();
    s.cu_mut(attacker).lp = Some(lp.into());
    let r = {
        let mut ctx = Ctx::new(DiceSource::Scripted(&mut q), None);
        battle::fight(s, attacker, lp, cl, decisive, &mut ctx)
    };
    assert!(q.is_empty(), "dice left over: {q:?}");
    r
}

const FOUR: [&str; 4] = ["napoleon", "davout", "charles", "louis"];

#[test]
fn cards_1_deck_counts_by_name_colour_and_reactive_flag_in_both_readings() {
    assert_eq!(data::deck(true, false).len(), 95);
    assert_eq!(data::deck(false, false).len(), 94);
    assert_eq!(data::deck(true, true).len(), 104);
    assert_eq!(data::deck(false, true).len(), 103);
    let count = |deck: &[String], key: &str| deck.iter().filter(|k| *k == key).count();
    let d = data::deck(true, false);
    for (key, n) in [
        ("march", 10),
        ("march-attack", 6),
        ("force-march", 10),
        ("rest", 5),
        ("avoid-combat", 3),
        ("gather-supplies", 4),
        ("entrench", 2),
        ("sound-of-the-guns", 2),
        ("supply-depleted", 2),
        ("initiative", 1),
        ("attack", 10),
        ("harass", 4),
        ("gather-supplies-green", 1),
        ("gather-force-march", 3),
        ("inform-government", 3),
        ("battle-terrain", 3),
        ("napoleon-defeated", 1),
        ("decisive-victory", 1),
    ] {
        assert_eq!(count(&d, key), n, "{key}");
    }
    // The printed counts: March 16 (6 of them March/Attack), green Gather Supplies 4 (3 double).
    assert_eq!(count(&d, "march") + count(&d, "march-attack"), 16);
    assert_eq!(
        count(&d, "gather-supplies-green") + count(&d, "gather-force-march"),
        4
    );
    let a = data::deck(true, true);
    assert_eq!(count(&a, "march"), 16);
    assert_eq!(count(&a, "march-attack"), 6);
    assert_eq!(count(&a, "gather-supplies-green"), 4);
    assert_eq!(count(&data::deck(false, false), "napoleon-defeated"), 0);
    // Colours by each card's first face: white 40, blue 13, red 14, green 28.
    for (colour, n) in [
        (Colour::White, 40),
        (Colour::Blue, 13),
        (Colour::Red, 14),
        (Colour::Green, 28),
    ] {
        let got = d
            .iter()
            .filter(|k| data::card(k).unwrap().faces[0].colour == colour)
            .count();
        assert_eq!(got, n, "{colour:?}");
    }
    let reactive = d.iter().filter(|k| data::card(k).unwrap().reactive).count();
    assert_eq!(reactive, 26);
    assert!(!data::card("initiative").unwrap().reactive);
    assert!(data::card("wrong-road").unwrap().reactive);
    let ma = data::card("march-attack").unwrap();
    assert_eq!(
        ma.colours().collect::<Vec<_>>(),
        [Colour::White, Colour::Green]
    );
}

#[test]
fn l_attrition_table_cell_by_cell() {
    // Rows: die 1, 2-3, 4-5, 6, 7, 8-9, 10; columns: points 1, 2-3, 4, 5-6, 7, 8-9, 10+.
    let table = [
        [0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 1, 1, 1, 1],
        [0, 0, 1, 1, 1, 1, 2],
        [0, 0, 1, 1, 1, 2, 3],
        [0, 1, 1, 2, 2, 3, 3],
        [1, 1, 2, 2, 3, 3, 5],
        [1, 1, 3, 3, 5, 5, 5],
    ];
    let rows: [&[u32]; 7] = [&[1], &[2, 3], &[4, 5], &[6], &[7], &[8, 9], &[10]];
    let cols: [&[u32]; 7] = [&[1], &[2, 3], &[4], &[5, 6], &[7], &[8, 9], &[10, 11, 25]];
    for (r, rolls) in rows.iter().enumerate() {
        for (c, points) in cols.iter().enumerate() {
            for &roll in *rolls {
                for &p in *points {
                    assert_eq!(
                        data::attrition(roll, p),
                        table[r][c],
                        "roll {roll}, {p} points"
                    );
                }
            }
        }
    }
    for roll in 1..=10 {
        assert_eq!(data::attrition(roll, 0), 0, "the first SIEGE kills nothing");
    }
}

#[test]
fn setup_three_to_six_characters_each_side_at_least_one_the_rest_npcs() {
    let s = game(&["napoleon", "davout", "charles"]);
    assert_eq!(s.cus.len(), 7);
    let npcs: Vec<&str> = s
        .cus
        .iter()
        .filter(|c| c.seat.is_none())
        .map(|c| c.character.as_str())
        .collect();
    assert_eq!(npcs, ["lannes", "massena", "hiller", "louis"]);
    assert_eq!(s.cu("davout").lp.as_deref(), Some("regensburg"));
    assert_eq!(s.cu("charles").sp, 10);
    let refuse = |scenario: &str, seats: &[&str], options| {
        SearchingForGlory
            .setup(
                &setup(scenario, seats, options),
                &mut hidden_stream(&[1; 32], "x", 0),
            )
            .unwrap_err()
            .message
    };
    assert!(refuse("danube-1809", &["napoleon", "davout"], json!({})).contains("3 to 6"));
    assert!(
        refuse("danube-1809", &["napoleon", "davout", "lannes"], json!({})).contains("austrian")
    );
    assert!(
        refuse("danube-1809", &["berthier", "davout", "charles"], json!({}))
            .contains("not a character")
    );
    assert!(refuse("danube-1809", &FOUR, json!({"deck_counts": "double"})).contains("additive"));
    assert!(refuse("danube-1809", &FOUR, json!({"reactive": true})).contains("no option"));
    assert!(refuse("nowhere", &FOUR, json!({})).contains("danube-1809"));
    let b = SearchingForGlory
        .setup(
            &setup(
                "danube-1809-berthier",
                &["berthier", "davout", "charles"],
                json!({"deck_counts": "additive"}),
            ),
            &mut hidden_stream(&[1; 32], "x", 0),
        )
        .unwrap();
    let held: usize = b
        .players
        .iter()
        .flat_map(|p| &p.hand)
        .filter(|c| !data::is_personal(c))
        .count();
    assert_eq!(
        b.deck.len() + held,
        103,
        "no Napoleon Defeated! without Napoleon"
    );
}

#[test]
fn draw_phase_1_a_hands_of_the_roles_size_in_draw_order_from_the_hidden_stream() {
    let s = game(&["napoleon", "davout", "charles", "louis"]);
    let sizes: Vec<usize> = s.players.iter().map(|p| p.hand.len()).collect();
    assert_eq!(sizes, [6, 6, 6, 5], "Louis' role draws 5");
    assert_eq!(s.deck.len(), 95 - 23);
    // The same hidden stream deals the same hands; another deals others.
    assert_eq!(s, game(&["napoleon", "davout", "charles", "louis"]));
    let other = SearchingForGlory
        .setup(
            &setup(
                "danube-1809",
                &["napoleon", "davout", "charles", "louis"],
                json!({}),
            ),
            &mut hidden_stream(&[8; 32], "sfg-rules", 0),
        )
        .unwrap();
    assert_ne!(s.players[0].hand, other.players[0].hand);
    // Draw order: the first seat takes the top cards.
    let mut deck = data::deck(true, false);
    let mut h = hidden_stream(&[7; 32], "sfg-rules", 0);
    for i in (1..deck.len()).rev() {
        let j = h.roll(i as u32 + 1) as usize - 1;
        deck.swap(i, j);
    }
    let top: Vec<String> = deck.iter().rev().take(6).cloned().collect();
    assert_eq!(s.players[0].hand, top);
}

#[test]
fn planning_1_b_at_most_four_cards_one_colour_each() {
    let hand: Vec<String> = [
        "march",
        "attack",
        "rest",
        "march-attack",
        "good-weather",
        "ruse",
        "initiative",
    ]
    .iter()
    .map(|c| c.to_string())
    .collect();
    let e = plan::check(&hand, &[1, 2, 5, 6, 4]).unwrap_err();
    assert!(e.message.contains("at most 4"), "{e}");
    let e = plan::check(&hand, &[1, 3]).unwrap_err();
    assert!(e.message.contains("different colour"), "two whites: {e}");
    // March (white), March/Attack (white/green), Attack (green): the double card has no colour left.
    let e = plan::check(&hand, &[1, 4, 2]).unwrap_err();
    assert!(e.message.contains("March / Attack (white/green)"), "{e}");
    assert_eq!(
        plan::check(&hand, &[1, 4]).unwrap(),
        ["march", "march-attack"]
    );
    assert_eq!(
        plan::check(&hand, &[4, 2]).unwrap(),
        ["march-attack", "attack"]
    );
    assert!(plan::check(&hand, &[1, 2, 5, 6]).is_ok());
    assert!(plan::check(&hand, &[]).is_ok());
    assert!(plan::check(&hand, &[9])
        .unwrap_err()
        .message
        .contains("no position 9"));
    assert!(plan::check(&hand, &[2, 2])
        .unwrap_err()
        .message
        .contains("twice"));
    assert!(plan::check(&hand, &[7])
        .unwrap_err()
        .message
        .contains("never planned"));
}

/// Plays a move through the engine, keeping the secrets.
fn play(
    game: Game,
    secrets: &mut MemorySecrets,
    world: &mut TestWorld,
    who: &str,
    text: &str,
) -> Game {
    let who = seat(who);
    let command = game.ruleset.parse(&game.state, &who, text).unwrap();
    let played = game
        .play(
            Move::Command {
                seat: who,
                command,
                client_entropy: "t".into(),
            },
            secrets,
            world,
        )
        .unwrap();
    secrets.keep(&played.secrets);
    played.game
}

#[test]
fn planning_2_plans_are_sealed_and_opened_when_the_last_is_in() {
    let mut world = TestWorld::new(3);
    let ruleset = rules::find("searching-for-glory").unwrap();
    let created = Game::create(
        ruleset,
        setup(
            "danube-1809",
            &["davout", "charles", "louis"],
            json!({"roles": "plain"}),
        ),
        &mut world,
    )
    .unwrap();
    let mut secrets = MemorySecrets {
        hidden_seed: Some(created.hidden_seed),
        ..Default::default()
    };
    secrets.chains.insert(0, created.chain_tip);
    let g = created.game;
    let s: &State = g.state.downcast().unwrap();
    // A plan refused on submission changes nothing.
    let e = g
        .play(
            Move::Command {
                seat: seat("davout"),
                command: json!({"type": "plan", "positions": [1, 2, 3, 4, 5]}),
                client_entropy: "t".into(),
            },
            &secrets,
            &mut world,
        )
        .err()
        .expect("a plan of five cards is refused");
    assert!(e.message.contains("at most 4"), "{e}");
    let davout_hand = s.players[0].hand.clone();
    let pick = (1..=6)
        .find(|&i| davout_hand[i - 1] != "initiative")
        .unwrap();
    let g = play(
        g,
        &mut secrets,
        &mut world,
        "davout",
        &format!("plan {pick}"),
    );
    let s: &State = g.state.downcast().unwrap();
    assert!(matches!(s.players[0].plan, Plan::Sealed { .. }));
    assert_eq!(
        s.players[0].hand, davout_hand,
        "nothing leaves the hand before the opening"
    );
    let view = serde_json::to_string(&g.view(&Viewer::Seat(seat("charles")))).unwrap();
    assert!(view.contains("\"plan\":\"sealed\""));
    let g = play(g, &mut secrets, &mut world, "charles", "plan none");
    let g = play(g, &mut secrets, &mut world, "louis", "plan");
    let s: &State = g.state.downcast().unwrap();
    assert_eq!(s.phase, Phase::Initiative);
    assert_eq!(
        s.players[0].planned,
        [(davout_hand[pick - 1].clone(), false)]
    );
    assert_eq!(s.players[0].hand.len(), 5);
    assert!(g.open_seals.is_empty(), "every plan is opened");
}

fn initiative(s: &mut State, dice: &[u32]) -> Vec<String> {
    let first = s.active().next().unwrap();
    let who = s.players[first].seat.clone();
    s.phase = Phase::Initiative;
    order(s, who.as_str(), "initiative", dice).unwrap();
    match &s.phase {
        Phase::Operations { order, .. } => order
            .iter()
            .map(|&i| s.players[i].character.clone())
            .collect(),
        p => panic!("{p:?}"),
    }
}

#[test]
fn initiative_3_1_reap_the_initiative_acts_first_then_napoleon_then_the_dice() {
    let mut s = game(&FOUR);
    for p in &mut s.players {
        p.hand.retain(|c| c != "initiative");
    }
    s.players[2].hand.push("initiative".into());
    assert_eq!(
        initiative(&mut s, &[]),
        ["charles", "louis", "napoleon", "davout"]
    );
    assert!(
        !s.players[2].hand.contains(&"initiative".to_string()),
        "shown and discarded"
    );
    assert!(s.discard.contains(&"initiative".to_string()));
    // Without the card, Napoleon in play acts first.
    assert_eq!(
        initiative(&mut s, &[]),
        ["napoleon", "davout", "charles", "louis"]
    );
}

#[test]
fn initiative_3_1_d10_plus_modifiers_and_tied_leaders_reroll() {
    let seats = ["berthier", "davout", "charles", "hiller"];
    let mut s = SearchingForGlory
        .setup(
            &setup("danube-1809-berthier", &seats, json!({})),
            &mut hidden_stream(&[2; 32], "i", 0),
        )
        .unwrap();
    for p in &mut s.players {
        p.hand.retain(|c| c != "initiative");
    }
    // Berthier 6+0, Davout 5+1, Charles 3+0, Hiller 7-1: three lead at 6 and roll again:
    // Berthier 2, Davout 8+1, Hiller 9-1 — Davout 9 leads.
    assert_eq!(
        initiative(&mut s, &[6, 5, 3, 7, 2, 8, 9]),
        ["davout", "charles", "hiller", "berthier"]
    );
}

#[test]
fn map_2_b_march_moves_one_cl_along_the_lines_of_communication() {
    let mut s = game(&FOUR);
    operating(&mut s, "louis", &["march"]);
    let e = order(&mut s, "louis", "march regensburg", &[]).unwrap_err();
    assert!(
        e.message.contains("no CL joins abensberg and regensburg"),
        "{e}"
    );
    assert!(e.message.contains("kelheim"), "names the LPs in reach: {e}");
    let e = order(&mut s, "louis", "march kelheim; march ingolstadt", &[]).unwrap_err();
    assert_eq!(e.rule, "1.b Cards");
    order(&mut s, "louis", "march kelheim", &[]).unwrap();
    assert_eq!(s.cu("louis").lp.as_deref(), Some("kelheim"));
    assert_eq!(s.cu("louis").glory, 1, "first to enter Kelheim");
}

#[test]
fn map_2_b_never_back_along_the_cl_an_enemy_cu_entered_by() {
    let mut s = game(&FOUR);
    s.cu_mut("louis").lp = Some("pfaffenhofen".into());
    s.entries
        .push(despatch_core::rules::searching_for_glory::state::Entry {
            lp: "pfaffenhofen".into(),
            from: "ingolstadt".into(),
            character: "louis".into(),
        });
    s.cu_mut("davout").lp = Some("pfaffenhofen".into());
    s.lone.retain(|l| l.lp != "ingolstadt");
    s.cu_mut("lannes").lp = Some("neuburg".into());
    operating(&mut s, "davout", &["march"]);
    let e = order(&mut s, "davout", "march ingolstadt", &[]).unwrap_err();
    assert_eq!(e.rule, "2.b Lines of communication");
    assert!(
        e.message
            .contains("louis entered pfaffenhofen from ingolstadt"),
        "{e}"
    );
    order(&mut s, "davout", "march freising", &[]).unwrap();
}

#[test]
fn map_2_c_an_enemy_lp_is_entered_only_by_attacking_and_2_d_never_your_own_side() {
    let mut s = game(&FOUR);
    s.cu_mut("davout").lp = Some("kelheim".into());
    operating(&mut s, "davout", &["march", "attack"]);
    let e = order(&mut s, "davout", "march abensberg", &[]).unwrap_err();
    assert_eq!(e.rule, "2.c Enemy location points");
    assert!(e.message.contains("attack abensberg"), "{e}");
    let e = order(&mut s, "davout", "attack ingolstadt", &[]).unwrap_err();
    assert!(e.message.contains("own side"), "{e}");
    let e = order(&mut s, "davout", "attack neuburg", &[]).unwrap_err();
    assert!(e.message.contains("no CL"), "{e}");
}

#[test]
fn map_2_f_fatigue_roll_at_or_under_the_level_costs_one_sp() {
    let mut s = game(&FOUR);
    s.cu_mut("louis").fatigue = 3;
    operating(&mut s, "louis", &["march"]);
    assert_eq!(order(&mut s, "louis", "march kelheim", &[3]).unwrap(), 1);
    assert_eq!(s.cu("louis").sp, 4, "3 is at the level: 1 SP lost");
    let mut s = game(&FOUR);
    s.cu_mut("louis").fatigue = 3;
    operating(&mut s, "louis", &["march"]);
    order(&mut s, "louis", "march kelheim", &[4]).unwrap();
    assert_eq!(s.cu("louis").sp, 5);
    // No fatigue: no roll.
    let mut s = game(&FOUR);
    operating(&mut s, "louis", &["march"]);
    assert_eq!(order(&mut s, "louis", "march kelheim", &[]).unwrap(), 0);
}

#[test]
fn map_2_f_a_brown_cl_and_a_force_march_add_fatigue() {
    let mut s = game(&FOUR);
    s.cu_mut("davout").lp = Some("straubing".into());
    s.cu_mut("louis").lp = Some("landshut".into());
    s.cu_mut("charles").lp = Some("landshut".into());
    s.cu_mut("davout").lp = Some("regensburg".into());
    operating(&mut s, "louis", &["force-march"]);
    // Landshut → Abensberg → Eckmühl (brown): +1 force march, +1 brown.
    order(&mut s, "louis", "force-march abensberg eckmuhl", &[]).unwrap();
    assert_eq!(s.cu("louis").lp.as_deref(), Some("eckmuhl"));
    assert_eq!(s.cu("louis").fatigue, 2);
}

#[test]
fn map_2_g_rest_lowers_fatigue_by_one_without_a_card_two_with_rest() {
    let mut s = game(&FOUR);
    s.cu_mut("louis").fatigue = 3;
    operating(&mut s, "louis", &[]);
    order(&mut s, "louis", "rest", &[]).unwrap();
    assert_eq!(s.cu("louis").fatigue, 2);
    operating(&mut s, "louis", &["rest", "good-weather"]);
    order(&mut s, "louis", "rest", &[]).unwrap();
    assert_eq!(s.cu("louis").fatigue, 0);
    operating(&mut s, "louis", &["march"]);
    let e = order(&mut s, "louis", "rest; march kelheim", &[]).unwrap_err();
    assert!(
        e.message.contains("on its own"),
        "a cardless rest is all the order: {e}"
    );
}

#[test]
fn map_2_h_entrench_gives_two_trench_points_while_the_cu_stays() {
    let mut s = game(&FOUR);
    operating(&mut s, "louis", &["entrench"]);
    order(&mut s, "louis", "entrench", &[]).unwrap();
    assert_eq!(s.cu("louis").trench, 2);
    operating(&mut s, "louis", &["march"]);
    order(&mut s, "louis", "march kelheim", &[]).unwrap();
    assert_eq!(s.cu("louis").trench, 0);
}

#[test]
fn map_2_i_off_map_the_cu_leaves_play_with_the_exits_glory() {
    let mut s = game(&FOUR);
    s.cu_mut("charles").lp = Some("passau".into());
    operating(&mut s, "charles", &["march"]);
    let e = order(&mut s, "charles", "march bohemia", &[]).unwrap_err();
    assert!(e.message.contains("leaves from cham"), "{e}");
    order(&mut s, "charles", "march vienna", &[]).unwrap();
    assert_eq!(s.cu("charles").lp, None);
    assert_eq!(s.cu("charles").glory, -3);
    assert!(s.players[idx(&s, "charles")].out);
}

#[test]
fn map_2_j_a_blown_bridge_cannot_be_crossed_and_is_blown_or_repaired_at_either_end() {
    let mut s = game(&FOUR);
    operating(&mut s, "davout", &["march"]);
    let e = order(
        &mut s,
        "davout",
        "march straubing; blow kelheim-regensburg",
        &[],
    )
    .unwrap_err();
    assert!(e.message.contains("not at an end"), "{e}");
    let e = order(&mut s, "davout", "blow regensburg-straubing", &[]).unwrap_err();
    assert!(e.message.contains("not a bridge"), "{e}");
    order(&mut s, "davout", "blow kelheim-regensburg", &[]).unwrap();
    assert!(s.is_blown("regensburg", "kelheim"));
    operating(&mut s, "davout", &["march"]);
    let e = order(&mut s, "davout", "march kelheim", &[]).unwrap_err();
    assert_eq!(e.rule, "2.j Bridges");
    order(
        &mut s,
        "davout",
        "repair regensburg-kelheim; march kelheim",
        &[],
    )
    .unwrap();
    assert_eq!(s.cu("davout").lp.as_deref(), Some("kelheim"));
}

#[test]
fn map_2_k_one_supply_marker() {
    let mut s = game(&FOUR);
    operating(&mut s, "louis", &["gather-supplies"]);
    order(&mut s, "louis", "gather", &[]).unwrap();
    assert!(s.cu("louis").supply);
    operating(&mut s, "louis", &["gather-force-march"]);
    order(&mut s, "louis", "gather", &[]).unwrap();
    assert!(s.cu("louis").supply);
}

#[test]
fn operations_3_2_each_face_from_its_own_planned_card_of_its_own_colour() {
    let mut s = game(&FOUR);
    s.cu_mut("davout").lp = Some("kelheim".into());
    // March/Attack is one card: march or attack, not both.
    operating(&mut s, "davout", &["march-attack"]);
    let e = order(
        &mut s,
        "davout",
        "march ingolstadt; attack pfaffenhofen",
        &[],
    )
    .unwrap_err();
    assert_eq!(e.rule, "1.b Cards");
    // Gather Supplies/Forced March as a force march, then a green Gather Supplies: colours differ.
    // Gather Supplies/Forced March and a white Gather Supplies: either way two faces of one colour.
    operating(&mut s, "davout", &["gather-force-march", "gather-supplies"]);
    let e = order(&mut s, "davout", "force-march ingolstadt; gather", &[]).unwrap_err();
    assert!(e.message.contains("different colour"), "{e}");
    operating(
        &mut s,
        "davout",
        &["gather-force-march", "gather-supplies-green"],
    );
    order(&mut s, "davout", "force-march ingolstadt; gather", &[]).unwrap();
    assert!(s.cu("davout").supply);
}

#[test]
fn battle_2_m_d10_plus_the_sp_difference_and_supply_losses_retreat_and_glory() {
    let mut s = game(&FOUR);
    // Davout 8 SP with supply attacks Louis 5 SP at Abensberg from Pfaffenhofen.
    s.cu_mut("davout").lp = Some("pfaffenhofen".into());
    s.cu_mut("davout").supply = true;
    operating(&mut s, "davout", &["attack"]);
    // Davout 6 + 3 (SP) + 1 (supply) = 10, Louis 2: 8 apart — Louis loses ⌊8/3⌋ = 2 SP, Davout
    // ⌊2/3⌋ = 0; glory 2 × (2 − 0) = 4.
    order(&mut s, "davout", "attack abensberg", &[6, 2]).unwrap();
    assert_eq!(s.cu("louis").sp, 3);
    assert_eq!(s.cu("davout").sp, 8);
    assert_eq!(s.cu("davout").glory, 4);
    assert_eq!(s.cu("davout").lp.as_deref(), Some("abensberg"));
    // Louis retreats two CLs nearer his retreat point: Abensberg → Landshut → Passau.
    assert_eq!(s.cu("louis").lp.as_deref(), Some("passau"));
}

#[test]
fn battle_2_m_ties_are_rerolled_and_the_defender_adds_its_trench_points() {
    let mut s = game(&FOUR);
    s.cu_mut("davout").sp = 5;
    s.cu_mut("louis").trench = 2;
    // 4 vs 2 + 2 = 4: a tie; then 9 vs 1 + 2: 6 apart, Louis loses 2.
    let r = fight(
        &mut s,
        "davout",
        "abensberg",
        ClKind::Ordinary,
        false,
        &[4, 2, 9, 1],
    );
    assert_eq!((r.attacker_total, r.defender_total), (9, 3));
    assert_eq!((r.loser_loss, r.winner_loss), (2, 0));
    assert!(r.attacker_won);
}

#[test]
fn battle_2_m_attacking_over_a_brown_or_blue_cl_costs_three() {
    let mut s = game(&FOUR);
    s.cu_mut("davout").lp = Some("eckmuhl".into());
    // Louis 5 attacks Davout 8 over the brown hills: 9 − 3 = 6 against 1 + 3 = 4.
    let r = fight(&mut s, "louis", "eckmuhl", ClKind::Brown, false, &[9, 1]);
    assert_eq!((r.attacker_total, r.defender_total), (6, 4));
    assert_eq!(r.loser_loss, 0);
}

#[test]
fn battle_2_m_the_loser_loses_its_supply_and_is_eliminated_if_it_cannot_retreat() {
    let mut s = game(&FOUR);
    // Lannes attacks Louis at Kelheim from Abensberg; Ingolstadt (French garrison) and
    // Regensburg (Davout) are closed to Louis.
    s.cu_mut("louis").lp = Some("kelheim".into());
    s.cu_mut("louis").supply = true;
    s.cu_mut("lannes").lp = Some("abensberg".into());
    s.cu_mut("charles").lp = Some("regensburg".into());
    s.cu_mut("davout").lp = Some("regensburg".into());
    let r = fight(
        &mut s,
        "lannes",
        "kelheim",
        ClKind::Ordinary,
        false,
        &[10, 1],
    );
    assert!(r.attacker_won);
    assert!(!s.cu("louis").supply);
    // Abensberg → Landshut is nearer Passau, so Louis goes there, two CLs away.
    assert_eq!(s.cu("louis").lp.as_deref(), Some("landshut"));
    // Now block every way out of Kelheim.
    let mut s = game(&FOUR);
    s.cu_mut("louis").lp = Some("kelheim".into());
    s.cu_mut("lannes").lp = Some("abensberg".into());
    s.cu_mut("napoleon").lp = Some("abensberg".into());
    s.cu_mut("davout").lp = Some("regensburg".into());
    let r = fight(
        &mut s,
        "lannes",
        "kelheim",
        ClKind::Ordinary,
        false,
        &[10, 1],
    );
    assert!(r.attacker_won);
    assert_eq!(s.cu("louis").lp, None, "no way out: eliminated");
    assert!(s.cu("louis").captured);
}

#[test]
fn battle_2_m_all_sp_lost_in_combat_the_character_is_captured_with_its_glory() {
    let mut s = game(&FOUR);
    s.cu_mut("louis").sp = 1;
    // Davout 5 + 7 = 12 against 1: Louis loses ⌊11/3⌋ = 3, capped at his 1 SP: captured.
    let r = fight(
        &mut s,
        "davout",
        "abensberg",
        ClKind::Ordinary,
        false,
        &[5, 1],
    );
    assert_eq!(r.loser_loss, 1);
    assert!(s.cu("louis").captured);
    assert!(s.players[idx(&s, "louis")].out);
    // Capture glory 4 (Louis' role) + battle glory 2 × 1.
    assert_eq!(s.cu("davout").glory, 6);
}

#[test]
fn battle_2_m_decisive_victory_the_loser_loses_half_and_retreats_the_winner_at_most_one() {
    let mut s = game(&FOUR);
    s.cu_mut("charles").lp = Some("abensberg".into());
    // Louis 5 + Charles 10 = 15: half is 7; the winner loses ⌊7/3⌋ = 2, at most 1. No dice.
    let r = fight(&mut s, "davout", "abensberg", ClKind::Ordinary, true, &[]);
    assert_eq!((r.loser_loss, r.winner_loss), (7, 1));
    assert_eq!(s.cu("charles").sp + s.cu("louis").sp, 8);
    assert_eq!(s.cu("charles").sp, 3, "the largest unit loses first");
    assert_eq!(s.cu("davout").sp, 7);
    assert_eq!(s.cu("davout").glory, 12);
    assert_ne!(s.cu("charles").lp.as_deref(), Some("abensberg"));
    // Through an order: the Decisive Victory! card attacks alone.
    let mut s = game(&FOUR);
    s.cu_mut("davout").lp = Some("pfaffenhofen".into());
    operating(&mut s, "davout", &["decisive-victory"]);
    order(&mut s, "davout", "decisive abensberg", &[]).unwrap();
    assert_eq!(s.cu("louis").sp, 3);
}

#[test]
fn end_of_round_3_5_all_but_retained_cards_discarded_and_the_next_draw() {
    let mut s = game(&FOUR);
    let before: usize = s.deck.len();
    operating(&mut s, "charles", &["attack", "march"]);
    // Charles acts last of the four.
    s.phase = Phase::Operations {
        order: vec![0, 1, 3, 2],
        next: 3,
    };
    let second = s.players[idx(&s, "charles")].hand[1].clone();
    order(&mut s, "charles", "pass; keep 2", &[]).unwrap();
    // The NPCs (Lannes, Masséna, Hiller) operate after the players (3.4) and pass.
    npcs_pass(&mut s);
    assert_eq!(s.round, 2);
    assert_eq!(s.phase, Phase::Plan);
    // Charles keeps the card he named (his role keeps 1); Napoleon, who keeps 1 too but named
    // none, keeps nothing; everyone draws his hand size again.
    assert_eq!(s.players[idx(&s, "charles")].hand.len(), 7);
    assert!(s.players[idx(&s, "charles")].hand.contains(&second));
    assert_eq!(s.players[idx(&s, "napoleon")].hand.len(), 6);
    assert_eq!(s.players[idx(&s, "davout")].hand.len(), 6);
    assert_eq!(s.players[idx(&s, "louis")].hand.len(), 5);
    // The NPCs' hands (6 each) were drawn and discarded, then the players' 23.
    assert_eq!(s.deck.len(), before - 18 - 23);
    assert!(s.discard.contains(&"attack".to_string()));
}

#[test]
fn victory_3_the_highest_glory_after_the_last_round_ties_share() {
    let mut s = game(&FOUR);
    s.round = s.rounds;
    s.cu_mut("davout").glory = 7;
    s.cu_mut("louis").glory = 7;
    operating(&mut s, "charles", &[]);
    order(&mut s, "charles", "pass", &[]).unwrap();
    npcs_pass(&mut s);
    assert_eq!(s.phase, Phase::Ended);
    match SearchingForGlory.outcome(&s) {
        despatch_core::engine::ruleset::Outcome::Finished {
            winners, scores, ..
        } => {
            assert_eq!(winners, [seat("davout"), seat("louis")]);
            assert_eq!(scores["napoleon"], 0);
        }
        o => panic!("{o:?}"),
    }
}

#[test]
fn hidden_a_seat_sees_only_its_own_hand_and_plan() {
    let mut s = game(&FOUR);
    s.players[1].planned = vec![("ruse".into(), false), ("attack".into(), true)];
    let charles = idx(&s, "charles");
    s.players[charles].hand.retain(|c| c != "ruse");
    for viewer in FOUR {
        let v = SearchingForGlory.view(&s, &Viewer::Seat(seat(viewer)));
        for p in v["players"].as_array().unwrap() {
            let mine = p["seat"] == viewer;
            assert_eq!(p.get("hand").is_some(), mine, "{viewer} and {}", p["seat"]);
            assert_eq!(p.get("planned").is_some(), mine);
        }
        assert!(v.get("deck").is_none());
    }
    let v = SearchingForGlory.view(&s, &Viewer::Spectator);
    assert!(v["players"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p.get("hand").is_none()));
    // A played card is public; an unplayed planned one is not.
    let text =
        serde_json::to_string(&SearchingForGlory.view(&s, &Viewer::Seat(seat("charles")))).unwrap();
    assert!(text.contains("\"card\":\"attack\""));
    assert!(!text.contains("ruse"));
}

#[test]
fn order_language_round_trips_and_errors_name_the_lp_card_and_rule() {
    for text in [
        "plan 1 4 5",
        "plan none",
        "initiative",
        "march kelheim; attack regensburg",
        "pass; keep 2",
        "react ambush",
        "enter hiller",
        "enter none",
        "siege",
        "sortie; keep 1",
        "refuse",
        "harass abensberg",
        "demoralize; attack abensberg",
        "good-weather; march kelheim",
        "napoleon-defeated pfaffenhofen",
        "chest; parlay; inform; flags",
        "detach 2; march kelheim; absorb; absorb 1",
        "force-march pfaffenhofen abensberg",
        "decisive abensberg",
        "blow kelheim-regensburg; march kelheim; gather",
        "repair a-b",
        "entrench",
        "rest",
        "pass",
    ] {
        let c = order::parse(text).unwrap();
        assert_eq!(order::describe(&c), text);
        assert_eq!(order::parse(&order::describe(&c)).unwrap(), c);
    }
    assert_eq!(
        order::parse("march kelheim").unwrap(),
        Command::Operation {
            clauses: vec![Clause::March("kelheim".into())]
        }
    );
    assert!(order::parse("plan one")
        .unwrap_err()
        .message
        .contains("'one'"));
    assert!(order::parse("charge abensberg")
        .unwrap_err()
        .message
        .contains("'charge'"));
    assert!(order::parse("force-march a b c").is_err());
    assert!(order::parse("march")
        .unwrap_err()
        .message
        .contains("location point"));
    assert_eq!(Side::French.enemy(), Side::Austrian);
}

#[test]
fn text_board_shows_the_map_the_forces_and_only_the_viewers_hand() {
    let mut s = game(&FOUR);
    s.blown.push(("kelheim".into(), "regensburg".into()));
    let board = SearchingForGlory
        .board_text(&s, &Viewer::Seat(seat("charles")))
        .unwrap();
    assert!(board.lines().all(|l| l.chars().count() <= 78), "{board}");
    assert!(board.contains("regensburg (fortress): xkelheim"), "{board}");
    assert!(
        board.contains("abensberg: pfaffenhofen kelheim ^eckmuhl landshut"),
        "{board}"
    );
    assert!(board.contains("charles 10SP"), "{board}");
    assert!(board.contains("french 2SP"), "the garrisons: {board}");
    assert_eq!(board.matches("Your hand").count(), 1);
    let spectator = SearchingForGlory
        .board_text(&s, &Viewer::Spectator)
        .unwrap();
    assert!(!spectator.contains("Your hand"));
}

/// The drawn board (issue 20): a siege with its points, a supply marker, trench points, a
/// blown bridge crossed out, lone SP, and every CU with its SP, for every viewer alike; no
/// card of any hand by name.
#[test]
fn drawn_board_marks_a_siege_its_points_supply_trench_and_a_blown_bridge() {
    use despatch_core::engine::board::render;
    use despatch_core::engine::ruleset::BoardContext;
    use despatch_core::rules::searching_for_glory::state::Siege;
    let mut s = game(&FOUR);
    s.blown.push(("kelheim".into(), "regensburg".into()));
    s.cu_mut("davout").lp = Some("regensburg".into());
    s.cu_mut("davout").siege_points = 2;
    s.cu_mut("davout").supply = true;
    s.cu_mut("louis").lp = Some("regensburg".into());
    s.cu_mut("louis").sp = 3;
    s.cu_mut("charles").trench = 4;
    s.sieges.push(Siege {
        lp: "regensburg".into(),
        besieged: Side::Austrian,
        rolled: true,
    });
    let draw = |v: &Viewer| {
        render(
            &SearchingForGlory
                .board(&s, v, &BoardContext::default())
                .expect("a board"),
        )
    };
    let svg = draw(&Viewer::Spectator);
    assert!(svg.contains(r#"data-piece="siege-davout" data-at="regensburg""#));
    assert!(svg.contains(">P2</text>"), "two siege points");
    assert!(svg.contains(r#"data-piece="supply-davout" data-at="regensburg""#));
    assert!(svg.contains(r#"data-piece="trench-charles""#) && svg.contains(">T4</text>"));
    assert!(svg.contains(r#"data-piece="cu-louis" data-at="regensburg""#));
    assert!(svg.contains("under siege: the austrian inside, shut in"));
    assert!(
        svg.contains(r#"data-highlight="cells""#),
        "the besieged fortress is ringed"
    );
    assert!(svg.contains(r#"data-link="kelheim-regensburg" data-kind="blown bridge""#));
    assert_eq!(svg.matches(r#"class="l-blown-x""#).count(), 1);
    assert!(svg.contains(r#"data-link="abensberg-eckmuhl" data-kind="mountain""#));
    assert!(svg.contains(r#"data-link="regensburg-cham" data-kind="bridge""#));
    assert!(svg.contains(r#"data-link="passau-vienna" data-kind="exit""#));
    assert!(svg.contains(r#"data-cell="ingolstadt" data-ground="fortress""#));
    assert!(svg.contains(r#"data-piece="lone-munich-french" data-at="munich""#));
    // Every viewer is shown the same public board, and it names no card of any hand.
    for who in FOUR {
        assert_eq!(draw(&Viewer::Seat(seat(who))), svg, "{who}");
    }
    for p in &s.players {
        for k in &p.hand {
            let name = &data::card(k).unwrap().name;
            assert!(!svg.contains(name.as_str()), "{name} in the board");
        }
    }
}

// ---- 1.e Reactive windows and reactive cards ----

/// One command with scripted dice and no window passed for anyone: every die must be drawn.
fn act(s: &mut State, who: &str, text: &str, dice: &[u32]) -> Result<(), RuleError> {
    let who = seat(who);
    let cmd = SearchingForGlory.parse(s, &who, text)?;
    let mut q: VecDeque<u32> = dice.iter().copied().collect();
    let mut hidden = hidden_stream(&[9; 32], "sfg-rules", 1);
    {
        let mut ctx = Ctx::new(DiceSource::Scripted(&mut q), Some(&mut hidden));
        SearchingForGlory.apply(s, &who, &cmd, &mut ctx)?;
    }
    assert!(q.is_empty(), "dice left over: {q:?}");
    Ok(())
}

/// Every seat prompted passes, with scripted dice, until no window is open.
fn pass_all(s: &mut State, dice: &[u32]) {
    let mut q: VecDeque<u32> = dice.iter().copied().collect();
    let mut hidden = hidden_stream(&[9; 32], "sfg-rules", 2);
    {
        let mut ctx = Ctx::new(DiceSource::Scripted(&mut q), Some(&mut hidden));
        pass_windows(s, &mut ctx);
    }
    assert!(q.is_empty(), "dice left over: {q:?}");
}

fn prompted(s: &State) -> Vec<String> {
    SearchingForGlory
        .prompts(s)
        .iter()
        .map(|p| p.seat.as_str().to_owned())
        .collect()
}

/// The FOUR game with every hand emptied, `who` holding `cards`.
fn hands(s: &mut State, deal: &[(&str, &[&str])]) {
    for p in &mut s.players {
        p.hand.clear();
    }
    for (who, cards) in deal {
        let p = idx(s, who);
        s.players[p].hand = cards.iter().map(|c| c.to_string()).collect();
    }
}

/// `who` plays `card` as the first card of the open window and everyone passes: the card
/// stands and its effect applies; `dice` are those the rest of the operation draws.
fn react_and_pass(s: &mut State, who: &str, card: &str, dice: &[u32]) {
    act(s, who, &format!("react {card}"), &[]).unwrap();
    pass_all(s, dice);
}

/// Davout at Pfaffenhofen with an Attack card planned, Louis (5 SP) at Abensberg.
fn davout_attacks_louis(deal: &[(&str, &[&str])]) -> State {
    let mut s = game(&FOUR);
    s.cu_mut("davout").lp = Some("pfaffenhofen".into());
    hands(&mut s, deal);
    operating(&mut s, "davout", &["attack"]);
    act(&mut s, "davout", "attack abensberg", &[]).unwrap();
    // The announcement window: nobody plays.
    let mut ctx_q = VecDeque::new();
    let mut hidden = hidden_stream(&[9; 32], "sfg-rules", 3);
    let mut ctx = Ctx::new(DiceSource::Scripted(&mut ctx_q), Some(&mut hidden));
    let pass = Command::Operation {
        clauses: vec![Clause::Pass],
    };
    while s.window.as_ref().unwrap().kind
        == despatch_core::rules::searching_for_glory::state::WindowKind::Announcement
    {
        let seat = SearchingForGlory.prompts(&s)[0].seat.clone();
        SearchingForGlory
            .apply(&mut s, &seat, &pass, &mut ctx)
            .unwrap();
    }
    s
}

#[test]
fn reactive_1_e_the_announcement_window_prompts_every_other_seat_at_once_and_hides_who_holds_one() {
    let mut s = game(&FOUR);
    hands(
        &mut s,
        &[("charles", &["ambush", "march"]), ("louis", &["attack"])],
    );
    operating(&mut s, "davout", &["march"]);
    act(&mut s, "davout", "march eckmuhl", &[]).unwrap();
    assert_eq!(
        s.cu("davout").lp.as_deref(),
        Some("regensburg"),
        "not yet carried out"
    );
    let prompts = SearchingForGlory.prompts(&s);
    assert_eq!(
        prompted(&s),
        ["napoleon", "charles", "louis"],
        "all but the actor, at once"
    );
    for p in &prompts {
        assert_eq!(p.kind, despatch_core::engine::ruleset::PromptKind::Reaction);
        assert!(p.pass_on_timeout);
        // A holder's prompt and a non-holder's say the same.
        assert_eq!(p.decision, prompts[0].decision);
        assert_eq!(p.options, prompts[0].options);
    }
    // No view but Charles's own shows that he holds a reactive card.
    for viewer in ["napoleon", "davout", "louis"] {
        let v = SearchingForGlory.view(&s, &Viewer::Seat(seat(viewer)));
        let text = serde_json::to_string(&v).unwrap();
        assert!(!text.contains("ambush"), "{viewer} sees Charles's Ambush!");
        let charles = &v["players"].as_array().unwrap()[idx(&s, "charles")];
        assert_eq!(charles.get("hand"), None);
    }
    let w = &SearchingForGlory.view(&s, &Viewer::Spectator)["window"];
    assert_eq!(w["kind"], "announcement");
    assert_eq!(w["prompted"], json!(["napoleon", "charles", "louis"]));
    // An operation order is refused while the window is open.
    let e = act(&mut s, "napoleon", "march neuburg", &[]).unwrap_err();
    assert_eq!(e.rule, "1.e Reactive cards");
    // A pass closes the window for that seat; a deadline is a pass.
    act(&mut s, "napoleon", "pass", &[]).unwrap();
    assert_eq!(prompted(&s), ["charles", "louis"]);
    let mut q = VecDeque::new();
    let mut ctx = Ctx::new(DiceSource::Scripted(&mut q), None);
    SearchingForGlory
        .timeout(&mut s, &seat("charles"), &mut ctx)
        .unwrap();
    assert_eq!(prompted(&s), ["louis"]);
    act(&mut s, "louis", "pass", &[]).unwrap();
    assert!(s.window.is_none());
    assert_eq!(
        s.cu("davout").lp.as_deref(),
        Some("eckmuhl"),
        "carried out once all passed"
    );
}

#[test]
fn reactive_1_e_answers_go_in_seat_order_from_the_actor_and_each_card_nullifies_the_last_standing()
{
    // Seats: napoleon, davout, charles, louis. Davout marches; Charles plays Wrong Road!.
    let mut s = game(&FOUR);
    hands(
        &mut s,
        &[
            ("charles", &["wrong-road"]),
            ("davout", &["ruse"]),
            ("louis", &["stragglers"]),
            ("napoleon", &["ambush"]),
        ],
    );
    operating(&mut s, "davout", &["march"]);
    act(&mut s, "davout", "march eckmuhl", &[]).unwrap();
    act(&mut s, "charles", "react wrong-road", &[]).unwrap();
    assert_eq!(prompted(&s), ["davout"], "the actor answers first");
    assert!(s.players[idx(&s, "charles")].hand.is_empty());
    // Davout nullifies it with any reactive card, whatever its window.
    act(&mut s, "davout", "react ruse", &[]).unwrap();
    assert_eq!(
        prompted(&s),
        ["charles"],
        "then seat order from the actor, the player on top skipped"
    );
    act(&mut s, "charles", "pass", &[]).unwrap();
    assert_eq!(prompted(&s), ["louis"]);
    // Louis nullifies Davout's card: Wrong Road! stands again.
    act(&mut s, "louis", "react stragglers", &[]).unwrap();
    assert_eq!(prompted(&s), ["davout"]);
    act(&mut s, "davout", "pass", &[]).unwrap();
    act(&mut s, "charles", "pass", &[]).unwrap();
    assert_eq!(prompted(&s), ["napoleon"]);
    act(&mut s, "napoleon", "pass", &[]).unwrap();
    // The chain resolved (Wrong Road! stands: 3 cards); the window prompts everyone again.
    let w = s.window.as_ref().unwrap();
    assert!(w.chain.is_empty());
    assert_eq!(s.pending.as_ref().unwrap().effects, ["wrong-road"]);
    assert_eq!(prompted(&s), ["napoleon", "charles", "louis"]);
    pass_all(&mut s, &[]);
    assert_eq!(
        s.cu("davout").lp.as_deref(),
        Some("regensburg"),
        "Wrong Road!: no move"
    );
    assert_eq!(
        s.cu("davout").sp,
        8,
        "Stragglers only nullified, never resolved"
    );

    // Two cards: the second nullifies the first, and the march goes ahead.
    let mut s = game(&FOUR);
    hands(
        &mut s,
        &[("charles", &["wrong-road"]), ("davout", &["ruse"])],
    );
    operating(&mut s, "davout", &["march"]);
    act(&mut s, "davout", "march eckmuhl", &[]).unwrap();
    act(&mut s, "charles", "react wrong-road", &[]).unwrap();
    act(&mut s, "davout", "react ruse", &[]).unwrap();
    pass_all(&mut s, &[]);
    assert_eq!(s.cu("davout").lp.as_deref(), Some("eckmuhl"));
    assert_eq!(
        s.discard
            .iter()
            .filter(|c| *c == "wrong-road" || *c == "ruse")
            .count(),
        2
    );
}

#[test]
fn reactive_1_e_a_refused_play_names_the_rule_and_changes_nothing() {
    let mut s = game(&FOUR);
    hands(
        &mut s,
        &[
            ("charles", &["ambush", "march", "broken-bridge"]),
            ("louis", &["intercepted-message"]),
        ],
    );
    let louis = idx(&s, "louis");
    s.players[louis].planned = vec![("plunder".into(), false)];
    operating(&mut s, "davout", &["march"]);
    act(&mut s, "davout", "march eckmuhl", &[]).unwrap();
    let before = s.clone();
    for (who, text, says) in [
        ("charles", "react march", "not a reactive card"),
        ("charles", "react ambush", "before a battle's dice"),
        ("charles", "react broken-bridge", "no intact bridge"),
        ("charles", "react plunder", "not in your hand"),
        ("louis", "react plunder", "planned cards have no other use"),
        ("charles", "react nonsense", "not a card"),
    ] {
        let e = act(&mut s, who, text, &[]).unwrap_err();
        assert_eq!(e.rule, "1.e Reactive cards", "{text}");
        assert!(e.message.contains(says), "{text}: {e}");
        assert_eq!(s, before, "{text} changed nothing");
    }
    // Intercepted Enemy Message is for the other side only.
    let mut s = game(&FOUR);
    hands(&mut s, &[("napoleon", &["intercepted-message"])]);
    operating(&mut s, "davout", &["march"]);
    act(&mut s, "davout", "march eckmuhl", &[]).unwrap();
    let e = act(&mut s, "napoleon", "react intercepted-message", &[]).unwrap_err();
    assert!(e.message.contains("other side"), "{e}");
}

#[test]
fn reactive_1_e_every_reactive_card_has_a_window_and_an_effect() {
    let reactive: Vec<&str> = data::card_kinds()
        .iter()
        .filter(|k| k.reactive)
        .map(|k| k.key.as_str())
        .collect();
    assert_eq!(reactive.len(), 22, "22 kinds, 26 cards");
    for k in reactive {
        let r = data::reactive(k).unwrap_or_else(|| panic!("{k} has no effect"));
        assert!(!r.effect.is_empty());
    }
    assert_eq!(data::reactives().len(), 22);
}

/// Davout at Regensburg plans `planned` and announces `text`; `card` is played by `who` and
/// stands; `dice` are what the operation then draws.
fn announced(planned: &[&str], text: &str, who: &str, card: &str, dice: &[u32]) -> State {
    let mut s = game(&FOUR);
    hands(&mut s, &[(who, &[card])]);
    operating(&mut s, "davout", planned);
    act(&mut s, "davout", text, &[]).unwrap();
    react_and_pass(&mut s, who, card, dice);
    s
}

#[test]
fn reactive_bad_weather_adds_fatigue_per_march() {
    let s = announced(&["march"], "march eckmuhl", "charles", "bad-weather", &[]);
    assert_eq!(s.cu("davout").lp.as_deref(), Some("eckmuhl"));
    assert_eq!(s.cu("davout").fatigue, 1);
}

#[test]
fn reactive_poor_roads_one_cl_at_most() {
    let s = announced(
        &["force-march"],
        "force-march straubing passau",
        "charles",
        "poor-roads",
        &[],
    );
    assert_eq!(s.cu("davout").lp.as_deref(), Some("straubing"));
}

#[test]
fn reactive_good_roads_no_fatigue_from_the_operation() {
    let s = announced(
        &["force-march"],
        "force-march straubing passau",
        "napoleon",
        "good-roads",
        &[],
    );
    assert_eq!(s.cu("davout").lp.as_deref(), Some("passau"));
    assert_eq!(s.cu("davout").fatigue, 0, "no Force March fatigue");
}

#[test]
fn reactive_local_guide_no_hill_fatigue_and_no_minus_three() {
    // Davout (8) at Eckmühl attacks Louis (5) at Abensberg over the brown hills: 5 + 3 against 5.
    let mut s = game(&FOUR);
    s.cu_mut("davout").lp = Some("eckmuhl".into());
    hands(&mut s, &[("napoleon", &["local-guide"])]);
    operating(&mut s, "davout", &["attack"]);
    act(&mut s, "davout", "attack abensberg", &[]).unwrap();
    react_and_pass(&mut s, "napoleon", "local-guide", &[5, 5]);
    assert_eq!(s.cu("davout").fatigue, 0);
    assert_eq!(s.cu("louis").sp, 4, "8 against 5: Louis loses 1");
    assert_eq!(s.cu("davout").lp.as_deref(), Some("abensberg"));
}

#[test]
fn reactive_broken_bridge_blows_the_first_bridge_on_the_route() {
    let s = announced(&["march"], "march kelheim", "charles", "broken-bridge", &[]);
    assert!(s.is_blown("kelheim", "regensburg"));
    assert_eq!(s.cu("davout").lp.as_deref(), Some("regensburg"));
}

#[test]
fn reactive_supply_depleted_takes_the_supply_marker_and_gathering() {
    let mut s = game(&FOUR);
    s.cu_mut("davout").supply = true;
    hands(&mut s, &[("louis", &["supply-depleted"])]);
    operating(&mut s, "davout", &["march", "gather-supplies-green"]);
    act(&mut s, "davout", "march eckmuhl; gather", &[]).unwrap();
    react_and_pass(&mut s, "louis", "supply-depleted", &[]);
    assert!(!s.cu("davout").supply);
    assert_eq!(s.cu("davout").lp.as_deref(), Some("eckmuhl"));
}

#[test]
fn reactive_ruse_the_attack_is_not_made() {
    let mut s = game(&FOUR);
    s.cu_mut("davout").lp = Some("pfaffenhofen".into());
    hands(&mut s, &[("charles", &["ruse"])]);
    operating(&mut s, "davout", &["attack"]);
    act(&mut s, "davout", "attack abensberg", &[]).unwrap();
    react_and_pass(&mut s, "charles", "ruse", &[]);
    assert_eq!(s.cu("davout").lp.as_deref(), Some("pfaffenhofen"));
    assert_eq!(s.cu("louis").sp, 5);
    assert!(s.pending.is_none() && s.window.is_none());
}

#[test]
fn reactive_indiscipline_only_the_first_clause() {
    let s = announced(
        &["march", "gather-supplies-green"],
        "march eckmuhl; gather",
        "charles",
        "indiscipline",
        &[],
    );
    assert_eq!(s.cu("davout").lp.as_deref(), Some("eckmuhl"));
    assert!(!s.cu("davout").supply, "the gather was cut off");
}

#[test]
fn reactive_stragglers_cost_one_sp_after_the_moves() {
    let s = announced(&["march"], "march eckmuhl", "louis", "stragglers", &[]);
    assert_eq!(s.cu("davout").lp.as_deref(), Some("eckmuhl"));
    assert_eq!(s.cu("davout").sp, 7);
}

#[test]
fn reactive_peasants_hate_adds_fatigue_before_the_march() {
    // Fatigue 1 now: the march rolls (5: no loss).
    let s = announced(
        &["march"],
        "march eckmuhl",
        "charles",
        "peasants-hate",
        &[5],
    );
    assert_eq!(s.cu("davout").fatigue, 1);
    assert_eq!(s.cu("davout").sp, 8);
}

#[test]
fn reactive_plunder_supply_for_a_glory() {
    let s = announced(&["march"], "march eckmuhl", "charles", "plunder", &[]);
    assert!(s.cu("davout").supply);
    assert_eq!(
        s.cu("davout").glory,
        2 - 1,
        "Eckmühl's 2, less 1 for the plunder"
    );
}

#[test]
fn reactive_wrong_road_the_march_is_lost() {
    let s = announced(&["march"], "march eckmuhl", "charles", "wrong-road", &[]);
    assert_eq!(s.cu("davout").lp.as_deref(), Some("regensburg"));
}

#[test]
fn reactive_intercepted_message_shows_the_actors_unplayed_plan_to_that_seat_only() {
    let s = announced(
        &["march", "attack"],
        "march eckmuhl",
        "charles",
        "intercepted-message",
        &[],
    );
    let c = SearchingForGlory.view(&s, &Viewer::Seat(seat("charles")));
    let text = c["players"][idx(&s, "charles")]["intel"][0]
        .as_str()
        .unwrap();
    assert!(
        text.contains("davout's planned cards not yet played are Attack"),
        "{text}"
    );
    for other in ["napoleon", "davout", "louis"] {
        let v = SearchingForGlory.view(&s, &Viewer::Seat(seat(other)));
        assert!(
            !serde_json::to_string(&v).unwrap().contains("intercepted"),
            "{other}"
        );
    }
}

#[test]
fn reactive_battle_window_opens_before_the_dice_for_every_seat() {
    let s = davout_attacks_louis(&[("louis", &["ambush"])]);
    assert_eq!(s.cu("davout").lp.as_deref(), Some("abensberg"), "moved in");
    assert_eq!(prompted(&s), ["napoleon", "davout", "charles", "louis"]);
    assert_eq!(s.cu("louis").sp, 5, "no dice yet");
    let mut s = s;
    // Surprise! is the attacker's: Louis may not; nothing changes.
    let louis = idx(&s, "louis");
    s.players[louis].hand.push("surprise".into());
    let before = s.clone();
    let e = act(&mut s, "louis", "react surprise", &[]).unwrap_err();
    assert!(e.message.contains("attacking side"), "{e}");
    assert_eq!(s, before);
}

#[test]
fn reactive_surprise_three_for_the_attackers() {
    // 4 + 3 (SP) = 7 against 9: Louis would win; Surprise! makes it 10 against 9.
    let mut s = davout_attacks_louis(&[("napoleon", &["surprise"])]);
    react_and_pass(&mut s, "napoleon", "surprise", &[4, 9]);
    assert_eq!(s.cu("davout").lp.as_deref(), Some("abensberg"));
    assert_eq!(
        s.cu("louis").lp.as_deref(),
        Some("passau"),
        "beaten, he retreats"
    );
}

#[test]
fn reactive_ambush_three_for_the_defenders() {
    // 4 + 3 = 7 against 5 + 3 = 8: Louis wins and Davout retreats.
    let mut s = davout_attacks_louis(&[("charles", &["ambush"])]);
    react_and_pass(&mut s, "charles", "ambush", &[4, 5]);
    assert_eq!(s.cu("louis").lp.as_deref(), Some("abensberg"));
    assert_ne!(s.cu("davout").lp.as_deref(), Some("abensberg"));
}

#[test]
fn reactive_1_e_a_card_nobody_is_left_to_answer_stands_at_once() {
    // Every other player is out of the game (captured, resigned): nobody may answer Davout's
    // Surprise!, so it stands at once — the window does not wait for nobody — and Davout, the
    // one player still in, plays again or passes to the battle's dice.
    let mut s = davout_attacks_louis(&[("davout", &["surprise"])]);
    for who in ["napoleon", "charles", "louis"] {
        let i = idx(&s, who);
        s.players[i].out = true;
    }
    act(&mut s, "davout", "react surprise", &[]).unwrap();
    let w = s.window.as_ref().expect("the battle's window, open again");
    assert!(w.chain.is_empty(), "Surprise! stands: {w:?}");
    assert_eq!(
        prompted(&s),
        ["davout"],
        "the one player still in may play again or pass"
    );
    act(&mut s, "davout", "pass", &[4, 9]).unwrap();
    assert!(s.window.is_none(), "the window closed: {:?}", s.window);
    assert_eq!(s.cu("davout").lp.as_deref(), Some("abensberg"));
    assert_eq!(
        s.cu("louis").lp.as_deref(),
        Some("passau"),
        "10 against 9: beaten, he retreats"
    );
}

#[test]
fn reactive_patriotism_two_for_your_side() {
    // 5 + 3 = 8 against 7: Davout would win; Louis's Patriotism makes it 8 against 9.
    let mut s = davout_attacks_louis(&[("louis", &["patriotism"])]);
    react_and_pass(&mut s, "louis", "patriotism", &[5, 7]);
    assert_eq!(s.cu("louis").lp.as_deref(), Some("abensberg"));
}

#[test]
fn reactive_cowardice_two_off_the_other_side() {
    // 3 + 3 = 6 against 7: Louis would win; Napoleon's Cowardice makes it 6 against 5.
    let mut s = davout_attacks_louis(&[("napoleon", &["cowardice"])]);
    react_and_pass(&mut s, "napoleon", "cowardice", &[3, 7]);
    assert_eq!(s.cu("davout").lp.as_deref(), Some("abensberg"));
}

#[test]
fn reactive_courage_one_more_and_one_sp_fewer_lost() {
    // 9 + 3 = 12 against 1 + 1 = 2: 10 apart, Louis would lose 3; Courage saves 1.
    let mut s = davout_attacks_louis(&[("louis", &["courage"])]);
    react_and_pass(&mut s, "louis", "courage", &[9, 1]);
    assert_eq!(s.cu("louis").sp, 3);
}

#[test]
fn reactive_pursuit_one_sp_more_for_the_beaten() {
    // 12 against 1: 11 apart, Louis loses 3, and 1 more in the pursuit.
    let mut s = davout_attacks_louis(&[("napoleon", &["pursuit"])]);
    react_and_pass(&mut s, "napoleon", "pursuit", &[9, 1]);
    assert_eq!(s.cu("louis").sp, 1);
    assert_eq!(s.cu("davout").sp, 7, "the winner loses ⌊4/3⌋ = 1");
}

#[test]
fn reactive_a_lucky_day_two_dice_the_better_kept() {
    // Davout rolls 5 (+3 = 8); Louis rolls 2 and 9, keeps 9: Louis wins.
    let mut s = davout_attacks_louis(&[("louis", &["lucky-day"])]);
    react_and_pass(&mut s, "louis", "lucky-day", &[5, 2, 9]);
    assert_eq!(s.cu("louis").lp.as_deref(), Some("abensberg"));
}

#[test]
fn reactive_to_the_sound_of_the_guns_a_cu_one_cl_away_joins_the_battle() {
    // Napoleon (4) at Kelheim joins Davout: 12 against 5, 4 + 7 = 11 against 10.
    let mut s = game(&FOUR);
    s.cu_mut("napoleon").lp = Some("kelheim".into());
    s.cu_mut("davout").lp = Some("pfaffenhofen".into());
    let mut s = {
        hands(&mut s, &[("napoleon", &["sound-of-the-guns"])]);
        operating(&mut s, "davout", &["attack"]);
        act(&mut s, "davout", "attack abensberg", &[]).unwrap();
        // Nobody plays after the announcement.
        for who in ["napoleon", "charles", "louis"] {
            act(&mut s, who, "pass", &[]).unwrap();
        }
        s
    };
    react_and_pass(&mut s, "napoleon", "sound-of-the-guns", &[4, 10]);
    assert_eq!(s.cu("napoleon").lp.as_deref(), Some("abensberg"));
    assert_eq!(
        s.cu("davout").lp.as_deref(),
        Some("abensberg"),
        "won together"
    );
    // A CU two CLs away may not come.
    let mut s = davout_attacks_louis(&[("napoleon", &["sound-of-the-guns"])]);
    let e = act(&mut s, "napoleon", "react sound-of-the-guns", &[]).unwrap_err();
    assert!(e.message.contains("one CL from abensberg"), "{e}");
}

#[test]
fn reactive_avoid_combat_the_defender_withdraws_before_the_dice() {
    let mut s = davout_attacks_louis(&[("louis", &["avoid-combat"])]);
    react_and_pass(&mut s, "louis", "avoid-combat", &[]);
    assert_eq!(
        s.cu("louis").lp.as_deref(),
        Some("passau"),
        "withdrawn, no loss"
    );
    assert_eq!(s.cu("louis").sp, 5);
    assert_eq!(s.cu("davout").lp.as_deref(), Some("abensberg"));
    assert_eq!(s.cu("davout").glory, 0, "no battle, no battle glory");
    // Only a defender at the battle's LP may avoid combat.
    let mut s = davout_attacks_louis(&[("charles", &["avoid-combat"])]);
    let e = act(&mut s, "charles", "react avoid-combat", &[]).unwrap_err();
    assert!(e.message.contains("defends at the battle's LP"), "{e}");
}

#[test]
fn reactive_dice_cards_have_nothing_to_change_in_a_decisive_victory() {
    let mut s = game(&FOUR);
    s.cu_mut("davout").lp = Some("pfaffenhofen".into());
    hands(&mut s, &[("louis", &["patriotism"])]);
    operating(&mut s, "davout", &["decisive-victory"]);
    act(&mut s, "davout", "decisive abensberg", &[]).unwrap();
    for who in ["napoleon", "charles", "louis"] {
        act(&mut s, who, "pass", &[]).unwrap();
    }
    let e = act(&mut s, "louis", "react patriotism", &[]).unwrap_err();
    assert!(e.message.contains("Decisive Victory!"), "{e}");
}

#[test]
fn retention_1_d_keep_names_the_cards_up_to_the_roles_number_and_a_refusal_changes_nothing() {
    let mut s = game(&FOUR);
    hands(
        &mut s,
        &[
            ("charles", &["ambush", "march", "rest"]),
            ("davout", &["rest"]),
        ],
    );
    operating(&mut s, "charles", &["march"]);
    let before = s.clone();
    for (text, says) in [
        ("pass; keep 1 2", "at most 1 card"),
        ("pass; keep 4", "no position 4"),
        ("pass; keep 1; keep 2", "one 'keep' clause"),
    ] {
        let e = order(&mut s, "charles", text, &[]).unwrap_err();
        assert_eq!(e.rule, "1.d Retention", "{text}");
        assert!(e.message.contains(says), "{text}: {e}");
        assert_eq!(s, before);
    }
    // Davout's role keeps none.
    operating(&mut s, "davout", &["march"]);
    let e = order(&mut s, "davout", "keep 1", &[]).unwrap_err();
    assert!(e.message.contains("at most 0"), "{e}");
    // A keep goes with an operation, and the card is kept at the end of the round.
    let mut s = before;
    order(&mut s, "charles", "march eckmuhl; keep 2", &[]).unwrap();
    npcs_pass(&mut s);
    assert_eq!(s.round, 2);
    let hand = &s.players[idx(&s, "charles")].hand;
    assert!(hand.contains(&"march".to_string()), "{hand:?}");
    assert!(s.discard.contains(&"ambush".to_string()) && s.discard.contains(&"rest".to_string()));
}

// ---- The non-reactive Variety, Special Event and Result cards (reconstructed) ----

#[test]
fn harass_2_c_from_one_cl_away_a_d10_of_six_costs_the_largest_enemy_unit_one_sp() {
    // Davout at Pfaffenhofen harasses Louis at Abensberg.
    let mut s = game(&FOUR);
    s.cu_mut("davout").lp = Some("pfaffenhofen".into());
    operating(&mut s, "davout", &["harass"]);
    order(&mut s, "davout", "harass abensberg", &[6]).unwrap();
    assert_eq!(s.cu("louis").sp, 4);
    assert_eq!(s.cu("davout").glory, 1);
    assert_eq!(
        s.cu("davout").lp.as_deref(),
        Some("pfaffenhofen"),
        "harassing never moves"
    );
    let mut s = game(&FOUR);
    s.cu_mut("davout").lp = Some("pfaffenhofen".into());
    operating(&mut s, "davout", &["harass"]);
    order(&mut s, "davout", "harass abensberg", &[5]).unwrap();
    assert_eq!(s.cu("louis").sp, 5, "5: no effect");
    // Over a blown bridge too (any kind of CL); never two CLs away nor one's own side.
    let mut s = game(&FOUR);
    s.cu_mut("louis").lp = Some("kelheim".into());
    s.cu_mut("charles").lp = Some("abensberg".into());
    s.blown.push(("kelheim".into(), "regensburg".into()));
    operating(&mut s, "louis", &["harass"]);
    let before = s.clone();
    let e = order(&mut s, "louis", "harass abensberg", &[]).unwrap_err();
    assert!(e.message.contains("own side"), "{e}");
    let e = order(&mut s, "louis", "harass augsburg", &[]).unwrap_err();
    assert_eq!(e.rule, "2.c Harass");
    assert!(
        e.message.contains("no CL joins kelheim and augsburg"),
        "{e}"
    );
    assert_eq!(s, before);
    order(&mut s, "louis", "harass regensburg", &[9]).unwrap();
    assert_eq!(s.cu("davout").sp, 7);
}

#[test]
fn result_cards_chest_inform_and_flags_give_glory() {
    let mut s = game(&FOUR);
    operating(&mut s, "davout", &["military-chest", "inform-government"]);
    order(&mut s, "davout", "chest; inform", &[]).unwrap();
    assert!(s.cu("davout").supply);
    assert_eq!(s.cu("davout").glory, 2);
    // Flags need a battle won first.
    let mut s = game(&FOUR);
    operating(&mut s, "davout", &["captured-flags"]);
    let e = order(&mut s, "davout", "flags", &[]).unwrap_err();
    assert!(e.message.contains("won no battle"), "{e}");
    s.cu_mut("davout").victories = 1;
    order(&mut s, "davout", "flags", &[]).unwrap();
    assert_eq!(s.cu("davout").glory, 3);
}

#[test]
fn result_cards_a_won_battle_counts_for_the_flags() {
    let mut s = game(&FOUR);
    s.cu_mut("davout").lp = Some("pfaffenhofen".into());
    operating(&mut s, "davout", &["attack"]);
    order(&mut s, "davout", "attack abensberg", &[6, 2]).unwrap();
    assert_eq!(s.cu("davout").victories, 1);
    assert_eq!(s.cu("louis").victories, 0);
}

#[test]
fn result_cards_parlay_no_enemy_attacks_until_the_round_ends() {
    let mut s = game(&FOUR);
    operating(&mut s, "louis", &["parlay"]);
    s.phase = Phase::Operations {
        order: vec![idx(&s, "louis"), idx(&s, "davout")],
        next: 0,
    };
    order(&mut s, "louis", "parlay", &[]).unwrap();
    assert_eq!(s.truce, ["louis"]);
    let davout = idx(&s, "davout");
    s.players[davout].planned = vec![("attack".into(), false)];
    s.cu_mut("davout").lp = Some("pfaffenhofen".into());
    let e = order(&mut s, "davout", "attack abensberg", &[]).unwrap_err();
    assert!(e.message.contains("Parlay"), "{e}");
    order(&mut s, "davout", "pass", &[]).unwrap();
    assert_eq!(
        s.truce,
        ["louis"],
        "the NPCs operate before the round ends (3.4)"
    );
    npcs_pass(&mut s);
    assert!(s.truce.is_empty(), "the round ended");
}

#[test]
fn result_cards_napoleon_defeated_is_a_decisive_victory_on_napoleon_alone() {
    let mut s = game(&FOUR);
    s.cu_mut("napoleon").lp = Some("pfaffenhofen".into());
    operating(&mut s, "louis", &["napoleon-defeated"]);
    let e = order(&mut s, "louis", "napoleon-defeated kelheim", &[]).unwrap_err();
    assert!(e.message.contains("Napoleon's CU"), "{e}");
    order(&mut s, "louis", "napoleon-defeated pfaffenhofen", &[]).unwrap();
    // Napoleon 4 SP: loses 2 and retreats; Louis gains 2 × (2 − 0) + 5 and the first entry.
    assert_eq!(s.cu("napoleon").sp, 2);
    assert_ne!(s.cu("napoleon").lp.as_deref(), Some("pfaffenhofen"));
    assert_eq!(s.cu("louis").glory, 4 + 5 + 1);
}

#[test]
fn variety_cards_good_weather_no_fatigue_roll_and_demoralization_minus_two() {
    let mut s = game(&FOUR);
    s.cu_mut("louis").fatigue = 5;
    operating(&mut s, "louis", &["march", "good-weather"]);
    assert_eq!(
        order(&mut s, "louis", "good-weather; march kelheim", &[]).unwrap(),
        0
    );
    assert_eq!(s.cu("louis").sp, 5);
    let mut s = game(&FOUR);
    operating(&mut s, "louis", &["good-weather"]);
    let e = order(&mut s, "louis", "good-weather", &[]).unwrap_err();
    assert_eq!(e.rule, "1 Variety cards");
    // Davout 5 + 3 = 8 against Louis 9: Louis would win; demoralized, 9 − 2 = 7.
    let mut s = game(&FOUR);
    s.cu_mut("davout").lp = Some("pfaffenhofen".into());
    operating(&mut s, "davout", &["attack", "demoralization"]);
    order(&mut s, "davout", "demoralize; attack abensberg", &[5, 9]).unwrap();
    assert_eq!(s.cu("davout").lp.as_deref(), Some("abensberg"));
    assert_eq!(s.cu("louis").sp, 5, "1 apart: no loss");
}

#[test]
fn result_cards_choose_battle_terrain_two_for_a_defender_who_planned_it() {
    // Davout 4 + 3 = 7 against Louis 5 + 2 = 7: a tie; then 9 + 3 = 12 against 1 + 2 = 3.
    let mut s = game(&FOUR);
    s.cu_mut("davout").lp = Some("pfaffenhofen".into());
    let louis = idx(&s, "louis");
    s.players[louis].planned = vec![("battle-terrain".into(), false)];
    operating(&mut s, "davout", &["attack"]);
    order(&mut s, "davout", "attack abensberg", &[4, 5, 9, 1]).unwrap();
    assert_eq!(s.cu("louis").sp, 2, "9 apart: 3 lost");
}

#[test]
fn map_2_e_a_cu_detaches_sp_anywhere_and_absorbs_its_sides_lone_sp_as_it_passes() {
    // Lannes's garrison: 2 French SP alone at Ingolstadt. Davout at Kelheim marches through.
    let mut s = game(&FOUR);
    s.cu_mut("davout").lp = Some("neuburg".into());
    s.cu_mut("lannes").lp = Some("augsburg".into());
    operating(&mut s, "davout", &["force-march", "gather-supplies-green"]);
    // Detach 3 at Neuburg, march to Ingolstadt, absorb its 2 SP, gather.
    order(
        &mut s,
        "davout",
        "detach 3; force-march ingolstadt; absorb; gather",
        &[],
    )
    .unwrap();
    assert_eq!(s.cu("davout").sp, 8 - 3 + 2);
    assert!(s
        .lone
        .iter()
        .any(|l| l.lp == "neuburg" && l.side == Side::French && l.sp == 3));
    assert!(!s.lone.iter().any(|l| l.lp == "ingolstadt"));
    // The lone SP left behind never move, and hold the LP against the enemy (2.c).
    let mut s2 = s.clone();
    s2.cu_mut("louis").lp = Some("ingolstadt".into());
    operating(&mut s2, "louis", &["march"]);
    let e = order(&mut s2, "louis", "march neuburg", &[]).unwrap_err();
    assert_eq!(e.rule, "2.c Enemy location points");

    // Errors name 2.e and change nothing.
    let mut s = game(&FOUR);
    operating(&mut s, "louis", &["march"]);
    let before = s.clone();
    for (text, rule, says) in [
        ("detach 5", "2.e Detach", "keep at least 1"),
        ("detach 0", "2.e Detach", "detach 1 to 4"),
        ("absorb", "2.e Absorb", "abensberg holds 0 lone SP"),
        ("march kelheim; absorb 1", "2.e Absorb", "kelheim holds 0"),
    ] {
        let e = order(&mut s, "louis", text, &[]).unwrap_err();
        assert_eq!(e.rule, rule, "{text}");
        assert!(e.message.contains(says), "{text}: {e}");
        assert_eq!(s, before);
    }
    // Part of the lone SP: `absorb 1`.
    let mut s = game(&FOUR);
    s.cu_mut("napoleon").lp = Some("munich".into());
    operating(&mut s, "napoleon", &[]);
    order(&mut s, "napoleon", "absorb 1; pass", &[]).unwrap();
    assert_eq!(s.cu("napoleon").sp, 5);
    assert!(s.lone.iter().any(|l| l.lp == "munich" && l.sp == 1));
}

#[test]
fn reactive_1_e_the_last_to_answer_resigning_resolves_the_chain() {
    let mut s = game(&FOUR);
    hands(&mut s, &[("charles", &["wrong-road"])]);
    operating(&mut s, "davout", &["march"]);
    act(&mut s, "davout", "march eckmuhl", &[]).unwrap();
    act(&mut s, "charles", "react wrong-road", &[]).unwrap();
    act(&mut s, "davout", "pass", &[]).unwrap();
    act(&mut s, "louis", "pass", &[]).unwrap();
    assert_eq!(prompted(&s), ["napoleon"]);
    let mut q = VecDeque::new();
    let mut ctx = Ctx::new(DiceSource::Scripted(&mut q), None);
    SearchingForGlory
        .resign(&mut s, &seat("napoleon"), &mut ctx)
        .unwrap();
    assert_eq!(
        s.pending.as_ref().unwrap().effects,
        ["wrong-road"],
        "it stands"
    );
    assert_eq!(prompted(&s), ["charles", "louis"]);
    pass_all(&mut s, &[]);
    assert_eq!(s.cu("davout").lp.as_deref(), Some("regensburg"));
}

#[test]
fn reactive_1_e_the_text_board_shows_the_open_window_alike_to_every_seat() {
    let mut s = game(&FOUR);
    hands(&mut s, &[("charles", &["wrong-road", "ambush"])]);
    operating(&mut s, "davout", &["march"]);
    act(&mut s, "davout", "march eckmuhl", &[]).unwrap();
    act(&mut s, "charles", "react wrong-road", &[]).unwrap();
    let board = |who: &str| {
        SearchingForGlory
            .board_text(&s, &Viewer::Seat(seat(who)))
            .unwrap()
    };
    for who in ["napoleon", "davout", "louis"] {
        let b = board(who);
        assert!(
            b.contains("Reactive window (davout announces: march eckmuhl)"),
            "{b}"
        );
        assert!(b.contains("played: Wrong Road! by charles"), "{b}");
        assert!(!b.contains("Ambush"), "{who} sees Charles's hand: {b}");
    }
    assert!(board("charles").contains("Ambush!"), "his own hand");
}

// ---- 3.4 Non-player characters' operations ----

/// Every NPC's runner passes until the NPCs' operations are over (3.4).
fn npcs_pass(s: &mut State) {
    while matches!(s.phase, Phase::Npcs { .. }) && s.window.is_none() {
        let runner = SearchingForGlory.prompts(s)[0].seat.clone();
        order(s, runner.as_str(), "pass", &[]).unwrap();
    }
}

/// The FOUR game (NPCs: Lannes at Ingolstadt, Masséna at Augsburg, Hiller at Moosburg) with
/// Davout moved to Eckmühl, every hand emptied, and the last player's operation (Charles's
/// pass) done: the NPCs' operations begin.
fn npcs_begin() -> State {
    let mut s = game(&FOUR);
    s.cu_mut("davout").lp = Some("eckmuhl".into());
    hands(&mut s, &[]);
    operating(&mut s, "charles", &[]);
    order(&mut s, "charles", "pass", &[]).unwrap();
    s
}

/// The NPC operating now is given `cards` as its hand.
fn npc_hand(s: &mut State, cards: &[&str]) {
    s.npc.as_mut().unwrap().hand = cards.iter().map(|c| (c.to_string(), false)).collect();
}

fn npc_now(s: &State) -> (String, String) {
    let n = s.npc.as_ref().expect("an NPC operates");
    (n.character.clone(), s.players[n.runner].character.clone())
}

#[test]
fn npc_operations_3_4_after_the_players_each_npc_is_run_by_the_farthest_player_of_its_side() {
    let mut s = npcs_begin();
    assert_eq!(
        s.phase,
        Phase::Npcs {
            order: vec!["lannes".into(), "massena".into(), "hiller".into()],
            next: 0
        }
    );
    // Lannes at Ingolstadt: Napoleon (Donauwörth) is 2 CLs away, Davout (Eckmühl) 3: Davout
    // runs him, with a hand of Lannes's size drawn for him.
    assert_eq!(npc_now(&s), ("lannes".into(), "davout".into()));
    assert_eq!(s.npc.as_ref().unwrap().hand.len(), 6);
    assert_eq!(prompted(&s), ["davout"]);
    let p = &SearchingForGlory.prompts(&s)[0];
    assert!(p.decision.contains("run the NPC lannes"), "{}", p.decision);
    npc_hand(&mut s, &["march", "attack", "rest"]);
    order(&mut s, "davout", "march pfaffenhofen", &[]).unwrap();
    assert_eq!(s.cu("lannes").lp.as_deref(), Some("pfaffenhofen"));
    assert_eq!(s.cu("lannes").glory, 1, "first entry: the NPC's own glory");
    assert!(
        s.discard.iter().filter(|c| *c == "rest").count() >= 1,
        "the NPC's hand is discarded after its operation"
    );
    // Masséna at Augsburg: Napoleon 1 CL, Davout 3: Davout again.
    assert_eq!(npc_now(&s), ("massena".into(), "davout".into()));
    order(&mut s, "davout", "rest", &[]).unwrap();
    // Hiller at Moosburg: Charles (Landshut) 1 CL, Louis (Abensberg) 2: Louis runs him.
    assert_eq!(npc_now(&s), ("hiller".into(), "louis".into()));
    npc_hand(&mut s, &["march"]);
    order(&mut s, "louis", "march freising", &[]).unwrap();
    assert_eq!(s.cu("hiller").lp.as_deref(), Some("freising"));
    // After the last NPC, the round ends.
    assert_eq!(s.round, 2);
    assert_eq!(s.phase, Phase::Plan);
    assert!(s.npc.is_none());
}

#[test]
fn npc_operations_3_4_the_order_comes_from_the_npcs_hand_which_its_runner_alone_sees() {
    let mut s = npcs_begin();
    npc_hand(&mut s, &["march", "ambush", "gather-supplies"]);
    let before = s.clone();
    // White March and white Gather Supplies: one colour a card (1.b).
    let e = order(&mut s, "davout", "march pfaffenhofen; gather", &[]).unwrap_err();
    assert_eq!(e.rule, "1.b Cards");
    assert!(e.message.contains("lannes's hand holds"), "{e}");
    let e = order(&mut s, "davout", "attack kelheim", &[]).unwrap_err();
    assert_eq!(e.rule, "1.b Cards");
    let e = order(&mut s, "davout", "pass; keep 1", &[]).unwrap_err();
    assert_eq!(e.rule, "1.d Retention", "an NPC keeps no card");
    // Davout's own CU is not what he orders now.
    let e = order(&mut s, "davout", "march regensburg", &[]).unwrap_err();
    assert!(e.message.contains("ingolstadt"), "{e}");
    assert_eq!(s, before, "refusals change nothing");
    let e = order(&mut s, "napoleon", "pass", &[]).unwrap_err();
    assert_eq!(e.rule, "sequence of play");
    // The hand shows in Davout's view and board only.
    for who in FOUR {
        let v = SearchingForGlory.view(&s, &Viewer::Seat(seat(who)));
        assert_eq!(v["npc"]["character"], "lannes");
        assert_eq!(v["npc"]["runner"], "davout");
        assert_eq!(v["npc"]["hand_count"], 3);
        assert_eq!(v["npc"].get("hand").is_some(), who == "davout", "{who}");
        let b = SearchingForGlory
            .board_text(&s, &Viewer::Seat(seat(who)))
            .unwrap();
        assert!(b.contains("NPC operating: lannes (run by davout"), "{b}");
        assert_eq!(b.contains("Ambush!"), who == "davout", "{who}: {b}");
    }
    let spectator = serde_json::to_string(&SearchingForGlory.view(&s, &Viewer::Spectator)).unwrap();
    assert!(!spectator.contains("ambush"));
    // The operations the hand allows are Davout's to read: the prompt, public in the game's
    // summary, lists the order's forms whatever the hand holds.
    let prompt = &SearchingForGlory.prompts(&s)[0];
    assert_eq!(prompt.options, searching_for_glory::NPC_OPERATION_FORMS);
    let mut other = s.clone();
    npc_hand(&mut other, &["attack"]);
    assert_eq!(SearchingForGlory.prompts(&other)[0].options, prompt.options);
    let ops = |s: &State, who: &str| {
        SearchingForGlory.view(s, &Viewer::Seat(seat(who)))["npc"]
            .get("operations")
            .cloned()
    };
    let davouts = ops(&s, "davout").expect("the runner reads the NPC's operations");
    assert!(
        davouts
            .as_array()
            .unwrap()
            .iter()
            .any(|o| o == "march pfaffenhofen"),
        "{davouts}"
    );
    assert_ne!(ops(&other, "davout"), Some(davouts), "they follow the hand");
    for who in FOUR.iter().filter(|w| **w != "davout") {
        assert_eq!(ops(&s, who), None, "{who} reads the NPC's operations");
    }
    assert!(SearchingForGlory
        .board_text(&s, &Viewer::Seat(seat("davout")))
        .unwrap()
        .contains("Its operations now: pass"));
    // The reactive card in the NPC's hand is no use in a window: it is the NPC's, not Davout's.
    order(&mut s, "davout", "march pfaffenhofen", &[]).unwrap();
    assert_eq!(s.cu("lannes").lp.as_deref(), Some("pfaffenhofen"));
    assert!(s.discard.contains(&"ambush".to_string()));
}

#[test]
fn npc_operations_3_4_other_players_play_reactive_cards_at_an_npc_operation() {
    let mut s = npcs_begin();
    let charles = idx(&s, "charles");
    s.players[charles].hand = vec!["wrong-road".into()];
    npc_hand(&mut s, &["march"]);
    act(&mut s, "davout", "march pfaffenhofen", &[]).unwrap();
    assert_eq!(
        prompted(&s),
        ["napoleon", "charles", "louis"],
        "every player but the runner, at once (1.e)"
    );
    let text = SearchingForGlory
        .board_text(&s, &Viewer::Seat(seat("louis")))
        .unwrap();
    assert!(
        text.contains("Reactive window (lannes announces: march pfaffenhofen)"),
        "{text}"
    );
    react_and_pass(&mut s, "charles", "wrong-road", &[]);
    assert_eq!(
        s.cu("lannes").lp.as_deref(),
        Some("ingolstadt"),
        "Wrong Road! holds the NPC where it stood"
    );
    assert_eq!(npc_now(&s), ("massena".into(), "davout".into()));
}

#[test]
fn npc_operations_3_4_with_nobody_of_its_side_the_npc_stands_a_runner_who_leaves_is_replaced_and_the_stand_option(
) {
    let mut s = npcs_begin();
    // Davout leaves while he runs Lannes: Napoleon runs him with the same hand.
    let hand = s.npc.as_ref().unwrap().hand.clone();
    let mut q = VecDeque::new();
    let mut hidden = hidden_stream(&[9; 32], "sfg-rules", 4);
    let mut ctx = Ctx::new(DiceSource::Scripted(&mut q), Some(&mut hidden));
    SearchingForGlory
        .resign(&mut s, &seat("davout"), &mut ctx)
        .unwrap();
    assert_eq!(npc_now(&s), ("lannes".into(), "napoleon".into()));
    assert_eq!(s.npc.as_ref().unwrap().hand, hand);
    drop(ctx);
    order(&mut s, "napoleon", "pass", &[]).unwrap();
    order(&mut s, "napoleon", "pass", &[]).unwrap();
    // Masséna next, run by Napoleon, the only French player left; Davout, an NPC now, operates
    // from the next round on (this round's NPCs were fixed when they began).
    assert_eq!(npc_now(&s).0, "hiller");
    assert!(s.cu("davout").seat.is_none());
    // With no Austrian in play, Hiller stands.
    let mut t = npcs_begin();
    for who in ["charles", "louis"] {
        let p = idx(&t, who);
        t.players[p].out = true;
    }
    order(&mut t, "davout", "pass", &[]).unwrap();
    order(&mut t, "davout", "pass", &[]).unwrap();
    assert_eq!(t.round, 2, "Hiller stands: the round ends");
    // Option npcs=stand: no NPC operates.
    let mut u = SearchingForGlory
        .setup(
            &setup("danube-1809", &FOUR, json!({"npcs": "stand"})),
            &mut hidden_stream(&[7; 32], "sfg-rules", 0),
        )
        .unwrap();
    operating(&mut u, "charles", &[]);
    order(&mut u, "charles", "pass", &[]).unwrap();
    assert_eq!(u.round, 2);
    assert!(SearchingForGlory
        .setup(
            &setup("danube-1809", &FOUR, json!({"npcs": "sometimes"})),
            &mut hidden_stream(&[7; 32], "sfg-rules", 0),
        )
        .unwrap_err()
        .message
        .contains("stand"));
}

// ---- II.1.A.3 Re-entry of the eliminated ----

/// Davout (1 SP) attacks Louis at Abensberg and loses every SP: captured (II.1.A.3).
fn davout_captured(s: &mut State) {
    s.cu_mut("davout").sp = 1;
    s.cu_mut("davout").lp = Some("pfaffenhofen".into());
    operating(s, "davout", &["attack"]);
    // Davout 1 + 0; Louis 10 + 4 (5 SP against 1): Davout loses ⌊13/3⌋ = 4, at most his 1.
    order(s, "davout", "attack abensberg", &[1, 10]).unwrap();
}

#[test]
fn reentry_ii_1_a_3_a_captured_player_re_enters_next_round_as_a_free_character_with_no_glory() {
    let mut s = game(&FOUR);
    davout_captured(&mut s);
    assert!(s.cu("davout").captured);
    let d = idx(&s, "davout");
    assert!(s.players[d].out && s.players[d].eliminated);
    assert_eq!(s.cu("louis").glory, 6 + 2, "capture glory and the battle's");
    npcs_pass(&mut s);
    assert_eq!(s.round, 2);
    // Round 2: Davout's seat is asked first whether he re-enters; the others plan.
    assert!(s.players[d].entering);
    let prompt = SearchingForGlory
        .prompts(&s)
        .into_iter()
        .find(|p| p.seat == seat("davout"))
        .expect("the eliminated player is prompted");
    assert_eq!(
        prompt.kind,
        despatch_core::engine::ruleset::PromptKind::Turn
    );
    assert_eq!(
        prompt.options,
        [
            "enter lannes",
            "enter massena",
            "enter hiller",
            "enter none"
        ]
    );
    let before = s.clone();
    let e = order(&mut s, "davout", "enter charles", &[]).unwrap_err();
    assert_eq!(e.rule, "II.1.A.3 Re-entry");
    assert!(e.message.contains("lannes, massena, hiller"), "{e}");
    let e = order(&mut s, "davout", "enter davout", &[]).unwrap_err();
    assert!(e.message.contains("not free"), "a captured character: {e}");
    let e = act(&mut s, "davout", "plan 1", &[]).unwrap_err();
    assert_eq!(e.rule, "II.1.A.3 Re-entry");
    let e = order(&mut s, "charles", "enter lannes", &[]).unwrap_err();
    assert_eq!(e.rule, "II.1.A.3 Re-entry", "Charles was not eliminated");
    assert_eq!(s, before, "refusals change nothing");
    s.cu_mut("hiller").glory = 5;
    order(&mut s, "davout", "enter hiller", &[]).unwrap();
    let p = &s.players[d];
    assert_eq!(p.character, "hiller");
    assert!(!p.out && !p.eliminated && !p.entering);
    assert_eq!(p.hand.len(), 6, "Hiller's hand, drawn on entry");
    assert_eq!(p.plan, Plan::Waiting);
    assert_eq!(s.cu("hiller").seat, Some(seat("davout")));
    assert_eq!(s.cu("hiller").glory, 0, "he begins anew with no glory");
    assert_eq!(s.cu("davout").seat, None);
    assert!(prompted(&s).contains(&"davout".to_string()), "now he plans");
    match SearchingForGlory.outcome(&State {
        phase: Phase::Ended,
        ..s.clone()
    }) {
        despatch_core::engine::ruleset::Outcome::Finished { scores, .. } => {
            assert_eq!(scores["davout"], 0, "his score is Hiller's glory");
            assert_eq!(scores["louis"], 8);
        }
        o => panic!("{o:?}"),
    }
}

#[test]
fn reentry_ii_1_a_3_enter_none_or_a_missed_deadline_stays_out_and_an_exit_off_the_map_is_final() {
    let mut s = game(&FOUR);
    davout_captured(&mut s);
    npcs_pass(&mut s);
    let d = idx(&s, "davout");
    order(&mut s, "davout", "enter none", &[]).unwrap();
    assert!(s.players[d].out && !s.players[d].entering);
    assert!(!prompted(&s).contains(&"davout".to_string()));
    // Next round he is asked again; a missed deadline is 'enter none'.
    let mut t = game(&FOUR);
    davout_captured(&mut t);
    npcs_pass(&mut t);
    let mut q = VecDeque::new();
    let mut ctx = Ctx::new(DiceSource::Scripted(&mut q), None);
    SearchingForGlory
        .timeout(&mut t, &seat("davout"), &mut ctx)
        .unwrap();
    assert!(t.players[d].out && !t.players[d].entering);
    // 2.i: a CU off the map is out of play, its player's game over with his glory: not asked.
    let mut u = game(&FOUR);
    u.cu_mut("napoleon").lp = Some("donauworth".into());
    operating(&mut u, "napoleon", &["march"]);
    order(&mut u, "napoleon", "march rhine", &[]).unwrap();
    let n = idx(&u, "napoleon");
    assert!(u.players[n].out && !u.players[n].eliminated);
    assert_eq!(u.cu("napoleon").glory, -3);
}

// ---- 3 Victory: immediate victories ----

#[test]
fn victory_3_immediate_victory_a_capture_ends_the_game_at_once_for_that_sides_best() {
    assert_eq!(
        data::immediate_victories("danube-1809").count(),
        4,
        "data/victory.txt"
    );
    let mut s = game(&FOUR);
    s.cu_mut("napoleon").sp = 1;
    s.cu_mut("napoleon").lp = Some("pfaffenhofen".into());
    s.cu_mut("louis").glory = 3;
    operating(&mut s, "napoleon", &["attack"]);
    // Napoleon 1; Louis 10 + 4: Napoleon loses his last SP and is captured.
    order(&mut s, "napoleon", "attack abensberg", &[1, 10]).unwrap();
    assert!(s.cu("napoleon").captured);
    assert_eq!(s.phase, Phase::Ended, "at once, not at the round's end");
    let v = s.victory.as_ref().unwrap();
    assert_eq!(v.side, Side::Austrian);
    assert!(v.reason.contains("napoleon is captured"));
    match SearchingForGlory.outcome(&s) {
        despatch_core::engine::ruleset::Outcome::Finished {
            winners, summary, ..
        } => {
            // Louis: 3 + 10 (Napoleon's capture) + 2 (the battle); Charles 0.
            assert_eq!(winners, [seat("louis")]);
            assert!(
                summary.contains("immediate victory of the austrian side"),
                "{summary}"
            );
        }
        o => panic!("{o:?}"),
    }
}

#[test]
fn victory_3_immediate_victory_holding_the_scenarios_lps_at_a_rounds_end() {
    let mut s = game(&FOUR);
    // The French hold Landshut and Passau alone; Charles has gone to Cham.
    s.cu_mut("charles").lp = Some("cham".into());
    s.cu_mut("hiller").lp = Some("straubing".into());
    s.cu_mut("davout").lp = Some("landshut".into());
    s.cu_mut("napoleon").lp = Some("passau".into());
    s.cu_mut("davout").glory = 4;
    operating(&mut s, "charles", &[]);
    order(&mut s, "charles", "pass", &[]).unwrap();
    assert!(
        matches!(s.phase, Phase::Npcs { .. }),
        "a hold is checked at the round's end, not before"
    );
    npcs_pass(&mut s);
    assert_eq!(s.phase, Phase::Ended);
    assert_eq!(s.victory.as_ref().unwrap().side, Side::French);
    match SearchingForGlory.outcome(&s) {
        despatch_core::engine::ruleset::Outcome::Finished { winners, .. } => {
            assert_eq!(winners, [seat("davout")])
        }
        o => panic!("{o:?}"),
    }
}

// ---- 2.l Sieges ----

/// Louis at Eckmühl attacks Davout (8 SP) in the fortress of Regensburg; the announcement
/// window passes; the battle window is open.
fn louis_attacks_regensburg() -> State {
    let mut s = game(&FOUR);
    hands(&mut s, &[]);
    s.cu_mut("louis").lp = Some("eckmuhl".into());
    operating(&mut s, "louis", &["attack"]);
    act(&mut s, "louis", "attack regensburg", &[]).unwrap();
    for who in ["napoleon", "davout", "charles"] {
        act(&mut s, who, "pass", &[]).unwrap();
    }
    assert_eq!(
        s.window.as_ref().unwrap().kind,
        despatch_core::rules::searching_for_glory::state::WindowKind::Battle
    );
    s
}

#[test]
fn sieges_2_l_a_defender_at_a_fortress_refuses_battle_and_goes_into_it() {
    let mut s = louis_attacks_regensburg();
    let p = SearchingForGlory.prompts(&s);
    assert!(p.iter().all(|p| p.options.contains(&"refuse".to_string())
        && p.options == SearchingForGlory.prompts(&s)[0].options));
    let before = s.clone();
    let e = act(&mut s, "charles", "refuse", &[]).unwrap_err();
    assert_eq!(e.rule, "2.l Sieges");
    assert!(e.message.contains("defender"), "{e}");
    assert_eq!(s, before);
    act(&mut s, "davout", "refuse", &[]).unwrap();
    assert!(
        s.window.is_none() && s.pending.is_none(),
        "no battle, no dice"
    );
    assert_eq!(s.cu("louis").lp.as_deref(), Some("regensburg"));
    assert_eq!(s.cu("davout").lp.as_deref(), Some("regensburg"));
    assert_eq!(s.cu("davout").sp, 8);
    assert_eq!(s.sieges.len(), 1);
    assert_eq!(s.sieges[0].besieged, Side::French);
    let board = SearchingForGlory
        .board_text(&s, &Viewer::Spectator)
        .unwrap();
    assert!(
        board.contains("Siege of regensburg: french inside"),
        "{board}"
    );
    // Not at a fortress: no refusal.
    let mut t = davout_attacks_louis(&[]);
    let e = act(&mut t, "louis", "refuse", &[]).unwrap_err();
    assert!(e.message.contains("no fortress"), "{e}");
}

#[test]
fn sieges_2_l_siege_attrition_roll_at_the_points_then_a_point_more_and_the_besieged_shut_in() {
    let mut s = louis_attacks_regensburg();
    act(&mut s, "davout", "refuse", &[]).unwrap();
    // Before the first attrition roll the besieged may leave.
    operating(&mut s, "davout", &["march"]);
    assert!(operations_check(&s, "davout", "march straubing").is_ok());
    // Louis lays SIEGE: no card; 0 points: the roll eliminates nothing; then 1 point.
    operating(&mut s, "louis", &[]);
    order(&mut s, "louis", "siege", &[10]).unwrap();
    assert_eq!(s.cu("davout").sp, 8);
    assert_eq!(s.cu("louis").siege_points, 1);
    assert!(s.sieges[0].rolled);
    // Now Davout is shut in: no card, no leaving; only a sortie (or pass).
    operating(&mut s, "davout", &["march"]);
    let e = operations_check(&s, "davout", "march straubing").unwrap_err();
    assert_eq!(e.rule, "2.l Sieges");
    // Fatigue: Louis rolls against it first (2.f); then the attrition roll at 1 point:
    // a 9 eliminates 1 SP, and Louis gains 1 glory; 2 points.
    s.cu_mut("louis").fatigue = 2;
    operating(&mut s, "louis", &[]);
    order(&mut s, "louis", "siege", &[5, 9]).unwrap();
    assert_eq!(s.cu("davout").sp, 7);
    assert_eq!(s.cu("louis").glory, 1);
    assert_eq!(s.cu("louis").siege_points, 2);
    // A SIEGE where no enemy is shut in is refused.
    operating(&mut s, "charles", &[]);
    let e = operations_check(&s, "charles", "siege").unwrap_err();
    assert_eq!(e.rule, "2.l Sieges");
}

/// 2.l: after the first attrition roll the besieged "can not play any card" — from rules
/// version 6 not a reactive card in another player's operation either. Version 5 refused only
/// the cards of his own operation, and a game of version 5 keeps that.
#[test]
fn sieges_2_l_the_besieged_shut_in_plays_no_reactive_card_either() {
    let shut_in = |version: u32| {
        let mut s = louis_attacks_regensburg();
        s.version = version;
        act(&mut s, "davout", "refuse", &[]).unwrap();
        operating(&mut s, "louis", &[]);
        order(&mut s, "louis", "siege", &[10]).unwrap();
        assert!(s.sieges[0].rolled);
        // Louis marches off; Davout holds Wrong Road!, a card against a moving operation.
        hands(&mut s, &[("davout", &["wrong-road"])]);
        operating(&mut s, "louis", &["march"]);
        act(&mut s, "louis", "march eckmuhl", &[]).unwrap();
        assert!(s.window.is_some());
        s
    };
    let mut s = shut_in(6);
    let before = s.clone();
    let e = act(&mut s, "davout", "react wrong-road", &[]).unwrap_err();
    assert_eq!(e.rule, "2.l Sieges");
    assert!(
        e.message.contains("can not play any card") && e.message.contains("regensburg"),
        "{e}"
    );
    assert_eq!(s, before, "a refused card changes nothing");
    let mut s = shut_in(5);
    act(&mut s, "davout", "react wrong-road", &[]).unwrap();
    assert!(s.players[idx(&s, "davout")].hand.is_empty());
}

#[test]
fn sieges_2_l_sortie_even_costs_a_siege_point_odd_an_sp_and_the_fortress_falls() {
    let mut s = louis_attacks_regensburg();
    act(&mut s, "davout", "refuse", &[]).unwrap();
    operating(&mut s, "louis", &[]);
    order(&mut s, "louis", "siege", &[1]).unwrap();
    s.cu_mut("louis").siege_points = 3;
    operating(&mut s, "davout", &[]);
    order(&mut s, "davout", "sortie", &[4]).unwrap();
    assert_eq!(s.cu("louis").siege_points, 2, "even: a siege point lost");
    operating(&mut s, "davout", &[]);
    order(&mut s, "davout", "sortie", &[7]).unwrap();
    assert_eq!(s.cu("davout").sp, 7, "odd: the besieged lose 1 SP");
    // At 10 points a 10 eliminates 5: Davout's last 2 SP go, he is captured, the fortress
    // falls; Louis gains 2 glory for the SP and 6 for Davout.
    s.cu_mut("davout").sp = 2;
    s.cu_mut("louis").siege_points = 10;
    operating(&mut s, "louis", &[]);
    order(&mut s, "louis", "siege", &[10]).unwrap();
    assert!(s.cu("davout").captured);
    assert_eq!(s.cu("louis").glory, 2 + 6);
    assert!(s.sieges.is_empty());
    assert_eq!(s.cu("louis").siege_points, 0);
}

#[test]
fn sieges_2_l_a_besieger_that_leaves_loses_its_siege_points() {
    let mut s = louis_attacks_regensburg();
    act(&mut s, "davout", "refuse", &[]).unwrap();
    operating(&mut s, "louis", &[]);
    order(&mut s, "louis", "siege", &[1]).unwrap();
    assert_eq!(s.cu("louis").siege_points, 1);
    operating(&mut s, "louis", &["march"]);
    order(&mut s, "louis", "march eckmuhl", &[]).unwrap();
    assert_eq!(s.cu("louis").siege_points, 0);
    assert!(s.sieges.is_empty(), "nobody besieges Regensburg any more");
}

/// Checks an operation for `who` as the rules would, without carrying it out.
fn operations_check(s: &State, who: &str, text: &str) -> Result<(), RuleError> {
    let Command::Operation { clauses } = order::parse(text)? else {
        panic!("an operation")
    };
    operations::check(s, idx(s, who), &clauses).map(|_| ())
}

// ---- III Role cards: characteristics and personal cards (reconstructed) ----

/// The FOUR game with the full role cards (the default).
fn full() -> State {
    SearchingForGlory
        .setup(
            &setup("danube-1809", &FOUR, json!({"roles": "full"})),
            &mut hidden_stream(&[7; 32], "sfg-rules", 0),
        )
        .unwrap()
}

#[test]
fn role_cards_iii_battle_characteristics_the_best_of_each_side_adds_to_its_roll() {
    let mut s = full();
    hands(&mut s, &[]);
    s.cu_mut("davout").lp = Some("pfaffenhofen".into());
    operating(&mut s, "davout", &["attack"]);
    // Davout (attack +1), 8 SP against Louis (defence 0), 5 SP: 4 + 3 + 1 = 8 against 8, a tie
    // (without his +1 he would have lost); then 10 + 4 = 14 against 1: Louis loses 4 SP.
    order(&mut s, "davout", "attack abensberg", &[4, 8, 10, 1]).unwrap();
    assert_eq!(s.cu("louis").sp, 1);
    assert_eq!(s.cu("davout").lp.as_deref(), Some("abensberg"));
    // The plain role cards add nothing: the same first dice, and Louis wins 8 to 7.
    let mut p = game(&FOUR);
    hands(&mut p, &[]);
    p.cu_mut("davout").lp = Some("pfaffenhofen".into());
    operating(&mut p, "davout", &["attack"]);
    order(&mut p, "davout", "attack abensberg", &[4, 8]).unwrap();
    assert_eq!(p.cu("louis").lp.as_deref(), Some("abensberg"));
}

#[test]
fn role_cards_iii_a_strategic_characteristic_has_limited_uses_and_its_effect() {
    let mut s = full();
    hands(&mut s, &[]);
    // Davout is tireless (2 uses): over the hills at fatigue 5, no fatigue roll and no fatigue.
    s.cu_mut("louis").lp = Some("landshut".into());
    s.cu_mut("davout").lp = Some("eckmuhl".into());
    s.cu_mut("davout").fatigue = 5;
    operating(&mut s, "davout", &["march"]);
    order(&mut s, "davout", "strategic; march abensberg", &[]).unwrap();
    assert_eq!(s.cu("davout").lp.as_deref(), Some("abensberg"));
    assert_eq!(s.cu("davout").fatigue, 5);
    assert_eq!(s.cu("davout").strategic_used, 1);
    s.cu_mut("davout").strategic_used = 2;
    operating(&mut s, "davout", &["march"]);
    let e = order(&mut s, "davout", "strategic; march kelheim", &[]).unwrap_err();
    assert_eq!(e.rule, "III Role cards");
    assert!(e.message.contains("used up"), "{e}");
    s.cu_mut("davout").strategic_used = 0;
    let e = order(&mut s, "davout", "strategic", &[]).unwrap_err();
    assert!(e.message.contains("March or Force March"), "{e}");
    // Napoleon inspires (+2) his attack, with his battle characteristic (+2): 4 SP against
    // Louis's 5 at Abensberg: 5 + 2 + 2 = 9 against 7 + 1 = 8: Louis is beaten.
    let mut s = full();
    hands(&mut s, &[]);
    s.cu_mut("napoleon").lp = Some("kelheim".into());
    operating(&mut s, "napoleon", &["attack"]);
    order(&mut s, "napoleon", "strategic; attack abensberg", &[5, 7]).unwrap();
    assert_eq!(s.cu("napoleon").lp.as_deref(), Some("abensberg"));
    assert_ne!(s.cu("louis").lp.as_deref(), Some("abensberg"));
    // Plain role cards: no strategic characteristic.
    let mut p = game(&FOUR);
    operating(&mut p, "napoleon", &["attack"]);
    let e = order(&mut p, "napoleon", "strategic; attack neuburg", &[]).unwrap_err();
    assert!(e.message.contains("roles=plain"), "{e}");
}

#[test]
fn role_cards_1_b_a_characters_own_card_is_in_his_hand_every_round_and_never_discarded() {
    let mut s = full();
    let sizes: Vec<usize> = s.players.iter().map(|p| p.hand.len()).collect();
    assert_eq!(
        sizes,
        [7, 7, 7, 6],
        "the hand size and the character's own card"
    );
    for (who, card) in [
        ("napoleon", "imperial-guard"),
        ("davout", "iron-marshal"),
        ("charles", "generalissimus"),
        ("louis", "archducal-escort"),
    ] {
        assert!(
            s.players[idx(&s, who)].hand.contains(&card.to_string()),
            "{who}"
        );
        assert!(!data::deck(true, false).contains(&card.to_string()));
        assert!(!s.deck.contains(&card.to_string()));
    }
    // Davout's Iron Marshal is a blue Force March: with a white March he moves twice.
    hands(&mut s, &[]);
    operating(&mut s, "davout", &["march", "iron-marshal"]);
    order(&mut s, "davout", "march straubing; force-march passau", &[]).unwrap();
    assert_eq!(s.cu("davout").lp.as_deref(), Some("passau"));
    npcs_pass(&mut s);
    assert_eq!(s.round, 2);
    assert!(
        !s.discard.contains(&"iron-marshal".to_string()),
        "never discarded"
    );
    assert!(s.players[idx(&s, "davout")]
        .hand
        .contains(&"iron-marshal".to_string()));
    // An NPC's hand holds its own card too.
    let mut t = full();
    operating(&mut t, "charles", &[]);
    order(&mut t, "charles", "pass", &[]).unwrap();
    let n = t.npc.as_ref().unwrap();
    assert_eq!(n.character, "lannes");
    assert!(n.hand.iter().any(|(c, _)| c == "bayard"));
    // The plain role cards: no personal card.
    let g = game(&FOUR);
    assert!(!g.players[idx(&g, "davout")]
        .hand
        .contains(&"iron-marshal".to_string()));
}

// ---- III Role cards: restrictions and glory conditions (data/role_rules.txt, reconstructed) ----

/// A Danube 1809 game with the full role cards and these seats, every hand emptied.
fn full_with(seats: &[&str]) -> State {
    let mut s = SearchingForGlory
        .setup(
            &setup("danube-1809", seats, json!({"roles": "full"})),
            &mut hidden_stream(&[7; 32], "sfg-rules", 0),
        )
        .unwrap();
    for p in &mut s.players {
        p.hand.clear();
    }
    s
}

const SIX: [&str; 6] = [
    "napoleon", "lannes", "massena", "charles", "hiller", "louis",
];

#[test]
fn role_cards_iii_every_role_has_a_restriction_and_a_glory_condition() {
    for s in data::scenarios() {
        for c in &s.characters {
            let r = data::role_rules(c);
            assert!(!r.restrictions.is_empty(), "{c} has a restriction");
            assert!(!r.glory.is_empty(), "{c} has a glory condition");
        }
    }
    assert_eq!(
        data::role_rules("napoleon").restrictions,
        [data::Restriction::Never("parlay".into())]
    );
    assert_eq!(
        data::role_rules("hiller").restrictions,
        [data::Restriction::NoEnter(vec![
            "cham".into(),
            "bohemia".into()
        ])]
    );
}

#[test]
fn role_cards_iii_restriction_never_a_face_refuses_the_order_and_changes_nothing() {
    let mut s = full_with(&SIX);
    // Napoleon never parleys; Lannes never harasses; Louis never plays Decisive Victory!.
    operating(&mut s, "napoleon", &["parlay"]);
    let before = s.clone();
    let e = order(&mut s, "napoleon", "parlay", &[]).unwrap_err();
    assert_eq!(e.rule, "III Role cards");
    assert!(
        e.message.contains("napoleon") && e.message.contains("parlay"),
        "{e}"
    );
    assert_eq!(s, before, "a refused order changes nothing");
    s.cu_mut("lannes").lp = Some("pfaffenhofen".into());
    operating(&mut s, "lannes", &["harass"]);
    let e = order(&mut s, "lannes", "harass abensberg", &[]).unwrap_err();
    assert_eq!(e.rule, "III Role cards");
    s.cu_mut("lannes").lp = Some("kelheim".into());
    operating(&mut s, "louis", &["decisive-victory"]);
    let e = order(&mut s, "louis", "decisive kelheim", &[]).unwrap_err();
    assert!(e.message.contains("decisive-victory"), "{e}");
    // Louis's attack with an Attack card is his to make (a restriction names one face only).
    operating(&mut s, "louis", &["attack"]);
    order(&mut s, "louis", "attack kelheim", &[9, 1]).unwrap();
    assert_eq!(s.cu("louis").lp.as_deref(), Some("kelheim"));
    // The plain role cards have no restriction: Napoleon parleys.
    let mut p = game(&FOUR);
    operating(&mut p, "napoleon", &["parlay"]);
    order(&mut p, "napoleon", "parlay", &[]).unwrap();
    assert!(p.truce.contains(&"napoleon".to_string()));
}

#[test]
fn role_cards_iii_restriction_never_a_face_holds_for_reactive_cards() {
    // Davout never avoids combat: Charles attacks him at Abensberg and his Avoid Combat is
    // refused, and not offered among the cards he may play.
    let mut s = full_with(&FOUR);
    s.cu_mut("louis").lp = Some("kelheim".into());
    s.cu_mut("davout").lp = Some("abensberg".into());
    let d = idx(&s, "davout");
    s.players[d].hand = vec!["avoid-combat".into()];
    operating(&mut s, "charles", &["attack"]);
    act(&mut s, "charles", "attack abensberg", &[]).unwrap();
    let mut q = VecDeque::new();
    let mut hidden = hidden_stream(&[9; 32], "sfg-rules", 3);
    let mut ctx = Ctx::new(DiceSource::Scripted(&mut q), Some(&mut hidden));
    let pass = Command::Operation {
        clauses: vec![Clause::Pass],
    };
    while s.window.as_ref().unwrap().kind
        == despatch_core::rules::searching_for_glory::state::WindowKind::Announcement
    {
        let seat = SearchingForGlory.prompts(&s)[0].seat.clone();
        SearchingForGlory
            .apply(&mut s, &seat, &pass, &mut ctx)
            .unwrap();
    }
    assert!(
        despatch_core::rules::searching_for_glory::reactive::playable(&s, d).is_empty(),
        "Avoid Combat is not Davout's to play"
    );
    let before = s.clone();
    let e = act(&mut s, "davout", "react avoid-combat", &[]).unwrap_err();
    assert_eq!(e.rule, "III Role cards");
    assert!(e.message.contains("Avoid Combat"), "{e}");
    assert_eq!(s, before);
}

#[test]
fn role_cards_iii_restriction_outnumbered_never_attacks_a_stronger_enemy() {
    // Charles never attacks more enemy SP than he carries: 7 SP against Davout's 8 is refused;
    // absorbing 1 lone SP first (2.e) makes it 8 against 8, which he may attack.
    let mut s = full_with(&FOUR);
    s.cu_mut("charles").sp = 7;
    s.cu_mut("charles").lp = Some("eckmuhl".into());
    s.lone
        .push(despatch_core::rules::searching_for_glory::state::LoneSp {
            lp: "eckmuhl".into(),
            side: Side::Austrian,
            sp: 1,
        });
    operating(&mut s, "charles", &["attack"]);
    let before = s.clone();
    let e = order(&mut s, "charles", "attack regensburg", &[]).unwrap_err();
    assert_eq!(e.rule, "III Role cards");
    assert!(
        e.message.contains("8 enemy SP") && e.message.contains("7"),
        "{e}"
    );
    assert_eq!(s, before);
    let p = idx(&s, "charles");
    let absorb_first = order::parse("absorb; attack regensburg").unwrap();
    let Command::Operation { clauses } = absorb_first else {
        panic!("an operation")
    };
    assert!(operations::check(&s, p, &clauses).is_ok());
    // Louis (no such restriction) attacks Davout's 8 SP with his 5.
    s.cu_mut("louis").lp = Some("eckmuhl".into());
    operating(&mut s, "louis", &["attack"]);
    let n = idx(&s, "louis");
    assert!(operations::check(&s, n, &[Clause::Attack("regensburg".into())]).is_ok());
}

#[test]
fn role_cards_iii_restriction_no_enter_keeps_the_cu_out_of_the_roles_lps_and_exits() {
    let mut s = full_with(&SIX);
    // Masséna never goes back over the Rhine; Hiller never crosses to Cham.
    s.cu_mut("massena").lp = Some("donauworth".into());
    operating(&mut s, "massena", &["march"]);
    let e = order(&mut s, "massena", "march rhine", &[]).unwrap_err();
    assert_eq!(e.rule, "III Role cards");
    assert!(e.message.contains("rhine"), "{e}");
    s.cu_mut("hiller").lp = Some("regensburg".into());
    s.cu_mut("napoleon").lp = Some("augsburg".into());
    operating(&mut s, "hiller", &["march"]);
    let e = order(&mut s, "hiller", "march cham", &[]).unwrap_err();
    assert_eq!(e.rule, "III Role cards");
    order(&mut s, "hiller", "march straubing", &[]).unwrap();
    assert_eq!(s.cu("hiller").lp.as_deref(), Some("straubing"));
    // With the plain role cards Masséna may leave by the Rhine.
    let mut p = SearchingForGlory
        .setup(
            &setup("danube-1809", &SIX, json!({"roles": "plain"})),
            &mut hidden_stream(&[7; 32], "sfg-rules", 0),
        )
        .unwrap();
    p.cu_mut("massena").lp = Some("donauworth".into());
    operating(&mut p, "massena", &["march"]);
    order(&mut p, "massena", "march rhine", &[]).unwrap();
    assert_eq!(p.cu("massena").lp, None);
}

#[test]
fn role_cards_iii_glory_capture_of_the_character_the_role_names() {
    // Charles (10 SP, attack +1) catches Napoleon (1 SP, defence +2) at Donauwörth: 5 + 9 + 1 =
    // 15 against 1 + 2 = 3; Napoleon loses his last SP and is captured: Charles gains the
    // battle's 2, Napoleon's capture glory 10 and his role card's 5.
    let mut s = full_with(&FOUR);
    s.cu_mut("napoleon").sp = 1;
    let r = fight(
        &mut s,
        "charles",
        "donauworth",
        ClKind::Ordinary,
        false,
        &[5, 1],
    );
    assert!(r.attacker_won);
    assert!(s.cu("napoleon").captured);
    assert_eq!(s.cu("charles").glory, 2 + 10 + 5);
    // Capturing Louis is worth only his capture glory to Napoleon's side (Davout's role names
    // nobody): 2 + 4.
    let mut s = full_with(&FOUR);
    s.cu_mut("louis").sp = 1;
    s.cu_mut("davout").sp = 5;
    let r = fight(
        &mut s,
        "davout",
        "abensberg",
        ClKind::Ordinary,
        false,
        &[6, 1],
    );
    assert!(r.attacker_won && s.cu("louis").captured);
    assert_eq!(s.cu("davout").glory, 2 + 4);
}

#[test]
fn role_cards_iii_glory_battle_for_every_battle_won() {
    // Lannes (5 SP, attack +2) beats Louis (5 SP) at Abensberg: 8 + 2 = 10 against 1: Louis
    // loses 3, Lannes 1: the battle's 2 × 2 = 4 and his role card's 1.
    let mut s = full_with(&SIX);
    let r = fight(
        &mut s,
        "lannes",
        "abensberg",
        ClKind::Ordinary,
        false,
        &[8, 1],
    );
    assert!(r.attacker_won);
    assert_eq!((r.loser_loss, r.winner_loss), (3, 1));
    assert_eq!(s.cu("lannes").glory, 4 + 1);
    // A battle Lannes loses pays nothing.
    let mut s = full_with(&SIX);
    let r = fight(
        &mut s,
        "lannes",
        "abensberg",
        ClKind::Ordinary,
        false,
        &[1, 10],
    );
    assert!(!r.attacker_won);
    assert_eq!(s.cu("lannes").glory, 0);
}

#[test]
fn role_cards_iii_glory_enter_the_roles_lp_once() {
    // Masséna marches into Landshut (held by Charles at the start, so no first-entry glory):
    // his role card's 3; he leaves and comes back: nothing more.
    let mut s = full_with(&SIX);
    s.cu_mut("charles").lp = Some("passau".into());
    s.cu_mut("louis").lp = Some("straubing".into());
    s.cu_mut("massena").lp = Some("abensberg".into());
    operating(&mut s, "massena", &["march"]);
    order(&mut s, "massena", "march landshut", &[]).unwrap();
    assert_eq!(s.cu("massena").glory, 3);
    assert_eq!(s.cu("massena").reached, ["landshut"]);
    operating(&mut s, "massena", &["march"]);
    order(&mut s, "massena", "march abensberg", &[]).unwrap();
    operating(&mut s, "massena", &["march"]);
    order(&mut s, "massena", "march landshut", &[]).unwrap();
    assert_eq!(s.cu("massena").lp.as_deref(), Some("landshut"));
    assert_eq!(s.cu("massena").glory, 3);
    // Another character entering Landshut has no such glory.
    let mut s = full_with(&SIX);
    s.cu_mut("charles").lp = Some("passau".into());
    s.cu_mut("louis").lp = Some("straubing".into());
    s.cu_mut("napoleon").lp = Some("abensberg".into());
    operating(&mut s, "napoleon", &["march"]);
    order(&mut s, "napoleon", "march landshut", &[]).unwrap();
    assert_eq!(s.cu("napoleon").lp.as_deref(), Some("landshut"));
    assert_eq!(s.cu("napoleon").glory, 0);
}

#[test]
fn role_cards_iii_glory_hold_the_roles_lp_at_each_rounds_end() {
    // Davout starts at Regensburg and stays: 1 glory at the round's end; Louis is not at
    // Landshut: none. With the plain role cards, nothing.
    let mut s = full_with(&FOUR);
    operating(&mut s, "davout", &[]);
    order(&mut s, "davout", "pass", &[]).unwrap();
    npcs_pass(&mut s);
    assert_eq!(s.round, 2);
    assert_eq!(s.cu("davout").glory, 1);
    assert_eq!(s.cu("louis").glory, 0);
    let mut p = game(&FOUR);
    hands(&mut p, &[]);
    operating(&mut p, "davout", &[]);
    order(&mut p, "davout", "pass", &[]).unwrap();
    npcs_pass(&mut p);
    assert_eq!(p.round, 2);
    assert_eq!(p.cu("davout").glory, 0);
}

// ---- 4. Optional battle rules (option battle_cards=cards; data/battle_cards.txt) ----

fn with_cards(seats: &[&str]) -> State {
    SearchingForGlory
        .setup(
            &setup(
                "danube-1809",
                seats,
                json!({"roles": "plain", "battle_cards": "cards"}),
            ),
            &mut hidden_stream(&[7; 32], "sfg-rules", 0),
        )
        .unwrap()
}

/// A battle with scripted dice and the hidden stream `seed` for the battle cards.
fn card_fight(s: &mut State, attacker: &str, lp: &str, seed: u8, dice: &[u32]) -> battle::Result {
    let mut q: VecDeque<u32> = dice.iter().copied().collect();
    let mut hidden = hidden_stream(&[seed; 32], "sfg-rules", 5);
    s.cu_mut(attacker).lp = Some(lp.into());
    let mut ctx = Ctx::new(DiceSource::Scripted(&mut q), Some(&mut hidden));
    let r = battle::fight(s, attacker, lp, ClKind::Ordinary, false, &mut ctx);
    drop(ctx);
    assert!(q.is_empty(), "dice left over: {q:?}");
    r
}

#[test]
fn battle_cards_4_e_a_deck_per_nationality_with_the_six_named_cards_and_personal_cards() {
    use despatch_core::rules::searching_for_glory::battle_cards::{self, Class};
    for nation in ["french", "austrian"] {
        let deck = battle_cards::deck(nation);
        let keys: Vec<&str> = deck
            .iter()
            .map(|&i| battle_cards::cards()[i].key.as_str())
            .collect();
        for named in [
            "infantry-attack",
            "cavalry-attack",
            "bombardment",
            "reverse-slope",
            "squares",
            "stand-and-fire",
        ] {
            assert!(keys.contains(&named), "{nation} has {named}");
        }
        // "+ Marked cards are Offensive Cards" (4.e): the three attacks.
        for &i in &deck {
            let c = &battle_cards::cards()[i];
            let offensive =
                ["infantry-attack", "cavalry-attack", "bombardment"].contains(&c.key.as_str());
            if offensive {
                assert_eq!(c.class, Class::Offensive, "{}", c.key);
            }
        }
        // Parry, defeat, cancel and withdraw are all in each deck.
        use battle_cards::Effect;
        let has =
            |f: &dyn Fn(&Effect) -> bool| deck.iter().any(|&i| f(&battle_cards::cards()[i].effect));
        assert!(has(&|e| matches!(e, Effect::Parry(_))));
        assert!(has(&|e| matches!(e, Effect::Defeat(..))));
        assert!(has(&|e| *e == Effect::Cancel));
        assert!(has(&|e| *e == Effect::Withdraw));
    }
    for c in [
        "napoleon", "berthier", "davout", "lannes", "massena", "charles", "hiller", "louis",
    ] {
        assert_eq!(
            battle_cards::personal(c).len(),
            1,
            "{c}'s personal battle card"
        );
    }
}

#[test]
fn battle_cards_4_j_sp_losses_from_the_battle_points_lost() {
    use despatch_core::rules::searching_for_glory::battle_cards::losses;
    // N = loser's BP lost − winner's: 0 → none; 7 → loser 7, winner 2; −6 → winner 6, loser 3.
    assert_eq!(losses(4, 4), (0, 0));
    assert_eq!(losses(9, 2), (7, 2));
    assert_eq!(losses(2, 8), (3, 6));
    assert_eq!(losses(5, 4), (1, 0));
}

#[test]
fn battle_cards_4_b_an_engagement_of_three_sp_or_fewer_is_fought_with_dice() {
    // Louis with 3 SP: an engagement, by 2.m's dice even with the battle cards.
    let mut s = with_cards(&FOUR);
    s.cu_mut("louis").sp = 3;
    let r = card_fight(&mut s, "davout", "abensberg", 1, &[5, 4]);
    assert!(!r.cards);
    assert!(r.attacker_won);
    assert_eq!(r.loser_loss, (5 + 5 - 4) / 3);
    // The default is the dice (the text makes the cards optional).
    assert!(!game(&FOUR).battle_cards);
}

#[test]
fn battle_cards_4_c_to_4_j_a_battle_of_four_sp_or_more_is_played_with_cards_to_its_losses() {
    for seed in 1..=12u8 {
        let mut s = with_cards(&FOUR);
        let (davout, louis) = (s.cu("davout").sp, s.cu("louis").sp);
        let r = card_fight(&mut s, "davout", "abensberg", seed, &[]);
        assert!(r.cards, "no dice drawn: the cards decide");
        // 4.j from the BP each side lost (the totals).
        let (lost_w, lost_l) = if r.attacker_won {
            (r.attacker_total, r.defender_total)
        } else {
            (r.defender_total, r.attacker_total)
        };
        let (l, w) =
            despatch_core::rules::searching_for_glory::battle_cards::losses(lost_l, lost_w);
        assert_eq!((r.loser_loss, r.winner_loss), (l, w), "seed {seed}");
        // The loser reached 0 BP, or withdrew with a card that says so.
        let loser_start = if r.attacker_won { 5 } else { 8 };
        assert!(lost_l >= loser_start || r.withdrew, "seed {seed}: {r:?}");
        // SP follow the losses (capped at what a side has), and the winner's glory 4.j.
        let (w_char, l_char, w_sp, l_sp) = if r.attacker_won {
            ("davout", "louis", davout, louis)
        } else {
            ("louis", "davout", louis, davout)
        };
        assert_eq!(s.cu(w_char).sp, w_sp.saturating_sub(w));
        if s.cu(l_char).lp.is_some() {
            assert_eq!(s.cu(l_char).sp, l_sp - l);
        }
        let (wl, ll) = (w.min(w_sp), l.min(l_sp));
        if wl == 0 && ll == 0 {
            assert_eq!(s.cu(w_char).glory, 2);
        } else if wl < ll {
            assert!(s.cu(w_char).glory >= 2 * i64::from(ll));
        } else if ll < wl && s.cu(l_char).lp.is_some() {
            assert_eq!(s.cu(l_char).glory, 2 * i64::from(wl));
        }
        // The same hidden stream plays the same battle (a fold is deterministic).
        let mut again = with_cards(&FOUR);
        let r2 = card_fight(&mut again, "davout", "abensberg", seed, &[]);
        assert_eq!(r2, r);
        assert_eq!(again, s);
    }
}

#[test]
fn battle_cards_4_f_to_4_i_attack_answer_cancel_discard_and_withdraw() {
    use despatch_core::rules::searching_for_glory::battle_cards::{self, play_out, SideIn};
    let find = |deck: &str, key: &str| {
        battle_cards::cards()
            .iter()
            .position(|c| c.deck == deck && c.key == key)
            .unwrap()
    };
    let hand =
        |deck: &str, keys: &[&str]| -> Vec<usize> { keys.iter().map(|k| find(deck, k)).collect() };
    let side = |name: &str, bp: i64| SideIn {
        name: name.into(),
        nationality: name.into(),
        characters: Vec::new(),
        bp,
        plan: None,
    };
    let mut q = VecDeque::new();
    let mut hidden = hidden_stream(&[3; 32], "sfg-rules", 6);
    let mut ctx = Ctx::new(DiceSource::Scripted(&mut q), Some(&mut hidden));
    // 4.f: the French attack with their strongest card, Cavalry Attack (3); the Austrians
    // answer with Squares (defeat 3 against cavalry); the French cancel it with Reserves: the
    // attack stands and the Austrians fall from 4 to 1 BP, a third of their start or less:
    // they play Orderly Withdrawal and leave (4.i). 4.j: N = 3 − 0: the loser 3 SP, the
    // winner 1.
    let f = play_out(
        [side("french", 5), side("austrian", 4)],
        [
            hand(
                "french",
                &[
                    "bombardment",
                    "infantry-attack",
                    "reserves",
                    "reverse-slope",
                    "reverse-slope",
                    "reverse-slope",
                    "cavalry-attack",
                ],
            ),
            hand(
                "austrian",
                &[
                    "squares",
                    "stand-and-fire",
                    "reverse-slope",
                    "orderly-withdrawal",
                    "reverse-slope",
                    "reverse-slope",
                    "reverse-slope",
                ],
            ),
        ],
        &mut ctx,
    );
    assert_eq!(
        f.plays,
        [
            "french cavalry-attack",
            "austrian squares",
            "french reserves",
            "austrian orderly-withdrawal"
        ]
    );
    assert!(f.attacker_won);
    assert_eq!((f.lost, f.withdrew), ([0, 3], Some(1)));
    assert_eq!(battle_cards::losses(3, 0), (3, 1));
    // A defeated attack costs the attacker the card's number, at least 2 (Stand and Fire
    // against Infantry Attack: 2); the defender with no attack card discards one (4.g); a
    // parried attack does nothing (Reverse Slope against Bombardment).
    let f = play_out(
        [side("french", 6), side("austrian", 6)],
        [
            hand(
                "french",
                &[
                    "infantry-attack",
                    "bombardment",
                    "reverse-slope",
                    "reverse-slope",
                    "reverse-slope",
                    "reverse-slope",
                    "reverse-slope",
                ],
            ),
            hand(
                "austrian",
                &[
                    "stand-and-fire",
                    "reverse-slope",
                    "reverse-slope",
                    "reverse-slope",
                    "reverse-slope",
                    "reverse-slope",
                    "reverse-slope",
                ],
            ),
        ],
        &mut ctx,
    );
    assert_eq!(
        f.plays[..5],
        [
            "french infantry-attack",
            "austrian stand-and-fire",
            "austrian discards reverse-slope",
            "french bombardment",
            "austrian reverse-slope",
        ]
    );
}

#[test]
fn map_2_e_absorb_in_the_middle_of_a_force_march() {
    // Davout force-marches Neuburg → Ingolstadt → Kelheim and takes the Bavarian garrison (2
    // lone SP) at Ingolstadt as he passes through it.
    let mut s = game(&FOUR);
    s.cu_mut("davout").lp = Some("neuburg".into());
    operating(&mut s, "davout", &["force-march"]);
    let text = "force-march ingolstadt absorb kelheim";
    let cmd = order::parse(text).unwrap();
    assert_eq!(order::describe(&cmd), text, "round trip");
    order(&mut s, "davout", text, &[]).unwrap();
    assert_eq!(s.cu("davout").lp.as_deref(), Some("kelheim"));
    assert_eq!(s.cu("davout").sp, 10);
    assert!(!s.lone.iter().any(|l| l.lp == "ingolstadt"));
    // `absorb <n>` takes n and leaves the rest.
    let mut s = game(&FOUR);
    s.cu_mut("davout").lp = Some("neuburg".into());
    operating(&mut s, "davout", &["force-march"]);
    order(
        &mut s,
        "davout",
        "force-march ingolstadt absorb 1 kelheim",
        &[],
    )
    .unwrap();
    assert_eq!(s.cu("davout").sp, 9);
    assert!(s.lone.iter().any(|l| l.lp == "ingolstadt" && l.sp == 1));
    // Refused: at the route's end (an 'absorb' clause does that), and where no lone SP of the
    // side stand; a refusal changes nothing.
    assert_eq!(
        order::parse("force-march ingolstadt absorb")
            .unwrap_err()
            .rule,
        "order language"
    );
    let mut s = game(&FOUR);
    s.cu_mut("davout").lp = Some("neuburg".into());
    s.lone.retain(|l| l.lp != "ingolstadt");
    operating(&mut s, "davout", &["force-march"]);
    let before = s.clone();
    let e = order(
        &mut s,
        "davout",
        "force-march ingolstadt absorb kelheim",
        &[],
    )
    .unwrap_err();
    assert_eq!(e.rule, "2.e Absorb");
    assert!(e.message.contains("ingolstadt"), "{e}");
    assert_eq!(s, before);
}

#[test]
fn sieges_2_l_a_standing_order_has_lone_sp_and_npcs_refuse_battle_at_a_fortress() {
    // Lannes (an NPC) and the Bavarian garrison hold Ingolstadt. Napoleon gives the French
    // side's standing order to refuse; Louis attacks: no dice, they go into the fortress.
    let mut s = game(&FOUR);
    hands(&mut s, &[]);
    operating(&mut s, "napoleon", &[]);
    let text = "pass; standing refuse";
    assert_eq!(order::describe(&order::parse(text).unwrap()), text);
    order(&mut s, "napoleon", text, &[]).unwrap();
    assert_eq!(s.standing_refuse, [Side::French]);
    s.cu_mut("louis").lp = Some("kelheim".into());
    operating(&mut s, "louis", &["attack"]);
    let drawn = order(&mut s, "louis", "attack ingolstadt", &[]).unwrap();
    assert_eq!(drawn, 0, "no battle, no dice");
    assert!(s
        .sieges
        .iter()
        .any(|g| g.lp == "ingolstadt" && g.besieged == Side::French));
    assert_eq!(s.cu("louis").lp.as_deref(), Some("ingolstadt"));
    assert_eq!(s.cu("lannes").sp, 5, "Lannes went in with his SP");
    // By default (or after `standing fight`) they fight.
    let mut s = game(&FOUR);
    hands(&mut s, &[]);
    s.cu_mut("louis").lp = Some("kelheim".into());
    operating(&mut s, "louis", &["attack"]);
    order(&mut s, "louis", "attack ingolstadt", &[9, 1]).unwrap();
    assert!(s.sieges.is_empty());
    // A player's CU among the defenders decides for himself: Davout at Regensburg fights.
    let mut s = game(&FOUR);
    hands(&mut s, &[]);
    s.standing_refuse.push(Side::French);
    s.cu_mut("louis").lp = Some("eckmuhl".into());
    s.cu_mut("louis").sp = 9;
    operating(&mut s, "louis", &["attack"]);
    order(&mut s, "louis", "attack regensburg", &[9, 1]).unwrap();
    assert!(s.sieges.is_empty());
}

// ---- 4.f Sealed battle plans (issue 17, "By email") ----

#[test]
fn battle_cards_4_f_a_battle_plan_is_checked_against_the_sides_cards_and_round_trips() {
    use despatch_core::rules::searching_for_glory::battle_cards::{BattlePlan, Cancel};
    let plan = BattlePlan::parse(
        "attack grand-battery cavalry-attack; answer cavalry-attack=squares infantry-attack=none; \
         cancel defeats; discard bombardment reverse-slope; withdraw 2",
    )
    .unwrap();
    assert_eq!(plan.attack, ["grand-battery", "cavalry-attack"]);
    assert_eq!(
        plan.answers,
        [
            ("cavalry-attack".to_owned(), Some("squares".to_owned())),
            ("infantry-attack".to_owned(), None)
        ]
    );
    assert_eq!((plan.cancel, plan.withdraw), (Cancel::Defeats, Some(2)));
    plan.check("french", &[]).unwrap();
    assert_eq!(BattlePlan::parse(&plan.describe()).unwrap(), plan);
    // In the order language, sealed in the log.
    let text = format!("battle-plan {}", plan.describe());
    let command = order::parse(&text).unwrap();
    assert_eq!(order::describe(&command), text);
    assert_eq!(
        order::describe(&SearchingForGlory.seal(&command).unwrap().1),
        "battle-plan (sealed)"
    );
    assert_eq!(BattlePlan::parse("").unwrap(), BattlePlan::default());
    // Refusals name the rule and the card, and say what fits.
    let refused = |text: &str, nationality: &str, characters: &[&str]| -> String {
        let e = BattlePlan::parse(text)
            .and_then(|p| p.check(nationality, characters))
            .expect_err(text);
        assert_eq!(e.rule, "4.f Battle plans", "{e}");
        e.message
    };
    assert!(refused("attack squares", "french", &[]).contains("not an offensive card"));
    assert!(refused("attack grenadier-reserve", "french", &[]).contains("infantry-attack"));
    assert!(refused("attack cavalry-attack cavalry-attack", "french", &[]).contains("twice"));
    assert!(
        refused("answer cavalry-attack=stand-and-fire", "austrian", &[])
            .contains("Stand and Fire does not answer cavalry-attack")
    );
    assert!(refused("answer squares=reverse-slope", "french", &[]).contains("not an attack card"));
    assert!(refused("answer cavalry-attack", "french", &[]).contains("cavalry-attack=squares"));
    assert!(refused("discard guard-charge", "french", &[]).contains("not one of your"));
    assert!(refused("cancel sometimes", "french", &[]).contains("cancel never"));
    assert!(refused("withdraw -1", "french", &[]).contains("withdraw 2"));
    assert!(refused("attack x; attack y", "french", &[]).contains("twice"));
    assert!(refused("retreat 2", "french", &[]).contains("not a section"));
    // A character's personal battle card is his side's only with his role (4.e).
    let iron = "answer infantry-attack=iron-discipline";
    BattlePlan::parse(iron)
        .unwrap()
        .check("french", &["davout"])
        .unwrap();
    assert!(refused(iron, "french", &["lannes"]).contains("not a defensive card"));
    // In a battle of several characters a side, each one's personal card is the side's (4.l.3).
    BattlePlan::parse(iron)
        .unwrap()
        .check("french", &["lannes", "davout"])
        .unwrap();
}

/// The seat's hand as cards (`Rules::hand`, docs/rules/searching-for-glory.md, "The hand on
/// the seat's page"): its own cards alone, in hand order, each by name, colour(s), reactive
/// mark and what it does; nobody else's, and a spectator or a seat not in the game none.
#[test]
fn hand_1_a_seat_sees_its_own_cards_by_name_colour_reactive_mark_and_text() {
    let mut s = game(&FOUR);
    hands(
        &mut s,
        &[
            ("charles", &["ambush", "march-attack", "initiative"]),
            ("louis", &["rest", "bad-weather"]),
        ],
    );
    let h = SearchingForGlory.hand(&s, &seat("charles"));
    let names: Vec<&str> = h.cards.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["Ambush!", "March / Attack", "Reap the Initiative!"]);
    let ids: Vec<&str> = h.cards.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["1", "2", "3"], "hand positions, as `plan` names them");
    assert_eq!(h.cards[0].colours, ["blue"]);
    assert!(h.cards[0].reactive);
    assert!(
        h.cards[0]
            .text
            .contains("+3 to the defending side's battle roll")
            && h.cards[0].text.contains("before a battle's dice"),
        "{}",
        h.cards[0].text
    );
    assert_eq!(h.cards[1].colours, ["white", "green"], "a double card");
    assert!(!h.cards[1].reactive);
    assert!(
        h.cards[1].text.contains("march <lp>") && h.cards[1].text.contains("attack <lp>"),
        "both faces: {}",
        h.cards[1].text
    );
    assert!(h.cards[2].text.contains("never planned"));
    // Every card of the deck says what it does.
    for kind in data::card_kinds() {
        let mut t = game(&FOUR);
        hands(&mut t, &[("louis", &[kind.key.as_str()])]);
        let card = &SearchingForGlory.hand(&t, &seat("louis")).cards[0];
        assert!(card.text.len() > 10, "{}: '{}'", kind.key, card.text);
    }
    // Louis's hand is his; nobody sees another's.
    let louis = SearchingForGlory.hand(&s, &seat("louis"));
    let names: Vec<&str> = louis.cards.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["Rest", "Bad Weather"]);
    assert!(SearchingForGlory.hand(&s, &seat("davout")).is_empty());
    assert!(SearchingForGlory.hand(&s, &seat("lannes")).is_empty());
}

/// 2., 1.b in the hand: while the seat plans, its cards are gathered into `plan <positions>`,
/// and the sets offered are exactly the plans the rules accept (at most 4, one colour each,
/// never Reap the Initiative!); a seat whose plan is in, or any seat outside the Planning
/// Phase, gathers nothing.
#[test]
fn hand_2_planning_gathers_only_the_plans_of_one_colour_each_the_rules_accept() {
    let mut s = game(&FOUR);
    hands(
        &mut s,
        &[(
            "charles",
            &[
                "march",
                "attack",
                "rest",
                "initiative",
                "ambush",
                "local-guide",
            ],
        )],
    );
    assert_eq!(s.phase, Phase::Plan);
    let h = SearchingForGlory.hand(&s, &seat("charles"));
    let g = h.gather.expect("a seat planning gathers its cards");
    assert_eq!(g.head, "plan");
    let set = |ids: &[&str]| ids.iter().map(|i| i.to_string()).collect::<Vec<_>>();
    assert!(
        g.sets.contains(&set(&["1", "2", "5", "6"])),
        "one of each colour"
    );
    assert!(!g.sets.contains(&set(&["1", "3"])), "two white cards");
    assert!(
        g.sets.iter().all(|s| !s.contains(&"4".to_owned())),
        "Reap the Initiative! is never planned"
    );
    let hand = s.players[idx(&s, "charles")].hand.clone();
    let mut accepted = 0;
    for n in 1..=4usize {
        for combo in combinations(hand.len(), n) {
            let ok = plan::check(&hand, &combo).is_ok();
            let ids: Vec<String> = combo.iter().map(usize::to_string).collect();
            assert_eq!(g.sets.contains(&ids), ok, "{combo:?}");
            accepted += usize::from(ok);
        }
    }
    assert_eq!(g.sets.len(), accepted);
    // Each offered set is a plan the ruleset takes.
    for ids in &g.sets {
        let text = format!("plan {}", ids.join(" "));
        SearchingForGlory
            .parse(&s, &seat("charles"), &text)
            .unwrap_or_else(|e| panic!("{text}: {e:?}"));
    }
    // Not planning: nothing gathered, no orders on the cards.
    operating(&mut s, "davout", &["march"]);
    let h = SearchingForGlory.hand(&s, &seat("charles"));
    assert!(h.gather.is_none());
    assert!(h.cards.iter().all(|c| c.orders.is_empty()));
}

fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for first in 1..=n {
        for mut rest in combinations(n, k - 1) {
            if rest.iter().all(|&r| r > first) {
                rest.insert(0, first);
                out.push(rest);
            }
        }
    }
    out
}

/// 1.e for the seat itself: in a reactive window, its hand's cards that can answer now carry
/// `react <card>` and its own options are `pass` and those orders — never the `react <card>`
/// form — while the public prompt stays the same for every seat. Each order offered is
/// accepted; a card of the wrong window, or a seat not prompted, offers none.
#[test]
fn reactive_1_e_a_seats_own_answering_cards_are_offered_to_it_alone() {
    let mut s = game(&FOUR);
    hands(
        &mut s,
        &[
            ("charles", &["ambush", "bad-weather", "march"]),
            ("louis", &["attack"]),
            ("davout", &["good-roads"]),
        ],
    );
    operating(&mut s, "davout", &["march"]);
    act(&mut s, "davout", "march eckmuhl", &[]).unwrap();
    let prompts = SearchingForGlory.prompts(&s);
    for p in &prompts {
        assert_eq!(p.options, ["pass", "react <card>"], "the public prompt");
    }
    let own = |s: &State, who: &str| {
        let p = SearchingForGlory
            .prompts(s)
            .into_iter()
            .find(|p| p.seat == seat(who))
            .unwrap();
        SearchingForGlory.own_options(s, &seat(who), &p)
    };
    assert_eq!(own(&s, "charles"), ["pass", "react bad-weather"]);
    assert_eq!(own(&s, "louis"), ["pass"], "no card that can answer");
    let h = SearchingForGlory.hand(&s, &seat("charles"));
    let orders: Vec<Vec<String>> = h.cards.iter().map(|c| c.orders.clone()).collect();
    assert_eq!(
        orders,
        [vec![], vec!["react bad-weather".to_owned()], vec![]],
        "Ambush! is for a battle's window, March is not reactive"
    );
    // The operating seat is not prompted after its own announcement: its card offers nothing.
    let d = SearchingForGlory.hand(&s, &seat("davout"));
    assert!(d.cards.iter().all(|c| c.orders.is_empty()));
    // Every order offered is accepted.
    for o in own(&s, "charles") {
        let mut t = s.clone();
        act(&mut t, "charles", &o, &[]).unwrap_or_else(|e| panic!("{o}: {e:?}"));
    }
}

/// 1.e and the seat's setting "pass reactive windows for me when I hold no card that can
/// answer" (`Rules::auto_pass`): the server's pass is offered only for a seat prompted in a
/// window that holds no card that can answer it now — not for one holding such a card, not
/// outside a window, not for a seat not prompted — and the pass is an ordinary order the rules
/// accept.
#[test]
fn reactive_1_e_a_seat_with_no_card_that_can_answer_may_be_passed_for() {
    let mut s = game(&FOUR);
    hands(
        &mut s,
        &[
            ("charles", &["bad-weather", "march"]),
            ("louis", &["ambush", "attack"]),
        ],
    );
    operating(&mut s, "davout", &["march"]);
    assert!(
        SearchingForGlory.auto_pass(&s, &seat("louis")).is_none(),
        "no window open"
    );
    act(&mut s, "davout", "march eckmuhl", &[]).unwrap();
    assert!(
        SearchingForGlory.auto_pass(&s, &seat("charles")).is_none(),
        "Bad Weather can answer"
    );
    assert!(
        SearchingForGlory.auto_pass(&s, &seat("davout")).is_none(),
        "the operating seat is not prompted after its own announcement"
    );
    let pass = SearchingForGlory
        .auto_pass(&s, &seat("louis"))
        .expect("Ambush! is for a battle's window: Louis holds nothing that can answer");
    assert_eq!(order::describe(&pass), "pass");
    let mut q = VecDeque::new();
    let mut ctx = Ctx::new(DiceSource::Scripted(&mut q), None);
    SearchingForGlory
        .apply(&mut s, &seat("louis"), &pass, &mut ctx)
        .unwrap();
    assert!(!prompted(&s).contains(&"louis".to_owned()));
}
