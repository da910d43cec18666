//! How Searching for Glory's card battles are played by email and on the web (4.f–4.i, issue
//! 17): a sealed battle plan per card battle, asked of each side's commander when the battle's
//! reactive window closes and opened when both are in (`battle_play=sealed`, the default); and
//! `battle_play=interactive`, each card chosen as it is played, one event a choice. Each test
//! plays orders through the ruleset as `despatch replay` does (a position set by hand, sealed
//! choices kept by the sandbox), named after its section; docs/rules/searching-for-glory.md,
//! "Battle cards", says where each rule is enforced.

use std::sync::Arc;

use despatch_core::engine::replay::{self, ReplayError, Sandbox};
use despatch_core::engine::ruleset::{
    PromptKind, RuleError, Ruleset, Seat, SeatDef, Setup, Viewer,
};
use despatch_core::rules;
use despatch_core::rules::searching_for_glory::battle_cards;
use despatch_core::rules::searching_for_glory::state::{
    BattlePlanSlot, BattleSetup, PlansStage, State,
};
use serde_json::{json, Value};

const SEATS: [&str; 4] = ["napoleon", "davout", "charles", "louis"];

fn ruleset() -> Arc<dyn Ruleset> {
    rules::find("searching-for-glory").unwrap()
}

fn setup(options: Value) -> Setup {
    // The plain role cards: no battle characteristics, no personal battle cards.
    let mut opts = json!({"roles": "plain", "battle_cards": "cards"});
    for (k, v) in options.as_object().unwrap() {
        opts[k] = v.clone();
    }
    Setup {
        game_id: "sfg-battle-play".into(),
        scenario: "danube-1809".into(),
        options: opts,
        seats: SeatDef::named_by_id(&SEATS).unwrap(),
    }
}

/// A table set from `position` (one statement a line), as `despatch replay` sets one.
fn table(options: Value, position: &str) -> Sandbox {
    let script = format!(
        "position:\n{}\n",
        position
            .lines()
            .map(|l| format!("  {}", l.trim()))
            .collect::<Vec<_>>()
            .join("\n")
    );
    let script = replay::parse_script(&script).unwrap();
    replay::start(ruleset(), setup(options), &script, None, vec![]).unwrap()
}

/// Plays one script line (`davout: attack kelheim`, `!timeout louis`): its lines, or the
/// rules' refusal (which changes nothing).
fn step(t: &mut Sandbox, line: &str) -> Result<Vec<String>, RuleError> {
    let script = replay::parse_script(line).unwrap();
    match t.play(&script.steps[0]) {
        Ok(r) => Ok(r.lines.into_iter().map(|l| l.text).collect()),
        Err(ReplayError::Rule { error, .. }) => Err(error),
        Err(e) => panic!("{line}: {e}"),
    }
}

/// Plays a line the rules must accept.
fn ok(t: &mut Sandbox, line: &str) -> Vec<String> {
    step(t, line).unwrap_or_else(|e| panic!("{line}: {e}"))
}

/// Plays a line the rules must refuse, and checks the refusal changed nothing.
fn refused(t: &mut Sandbox, line: &str) -> RuleError {
    let before = ruleset().state_json(&t.state);
    let e = step(t, line).expect_err(line);
    assert_eq!(
        ruleset().state_json(&t.state),
        before,
        "{line} changed nothing"
    );
    e
}

fn state(t: &Sandbox) -> &State {
    t.state.downcast().unwrap()
}

fn battle(t: &Sandbox) -> &BattleSetup {
    state(t)
        .pending
        .as_ref()
        .and_then(|pd| pd.battle.as_ref())
        .expect("a battle")
}

fn seat(s: &str) -> Seat {
    Seat::parse(s).unwrap()
}

fn view(t: &Sandbox, viewer: &Viewer) -> Value {
    ruleset().view(&t.state, viewer)
}

fn prompted(t: &Sandbox) -> Vec<String> {
    let mut seats: Vec<String> = ruleset()
        .prompts(&t.state)
        .into_iter()
        .map(|p| p.seat.to_string())
        .collect();
    seats.sort();
    seats
}

/// Davout, 9 SP with supply (10 BP), at Kelheim with an Attack planned, Louis (5 SP) at
/// Abensberg: Davout has announced his attack on Louis, the windows still open.
fn davout_attacks_louis(options: Value) -> Sandbox {
    let mut t = table(
        options,
        "cu davout at kelheim sp 9 supplied
         cu louis at abensberg sp 5
         plan davout: attack
         phase operations davout done napoleon charles louis",
    );
    ok(&mut t, "davout: attack abensberg");
    t
}

/// Every seat a reactive window prompts passes, until none is open (1.e).
fn pass_windows(t: &mut Sandbox) {
    while state(t).window.is_some() {
        let seat = ruleset().prompts(&t.state)[0].seat.clone();
        ok(t, &format!("{seat}: pass"));
    }
}

#[test]
fn battle_cards_4_f_each_card_battle_asks_its_commanders_for_a_plan_of_its_own() {
    // Louis (4 SP) and then Charles (8 SP) attack Davout (20 SP with supply) at Kelheim in one
    // round: two card battles, Davout commanding the French in both.
    let mut t = table(
        json!({}),
        "cu davout at kelheim sp 20 supplied
         cu louis at abensberg sp 4
         cu charles at abensberg sp 8
         plan louis: attack
         plan charles: attack
         phase operations louis charles done napoleon davout",
    );
    ok(&mut t, "louis: attack kelheim");
    pass_windows(&mut t);
    // The battle's window closed: both commanders are asked at once for a sealed plan for this
    // battle, and nobody else.
    let b = battle(&t);
    assert_eq!(b.plans, PlansStage::Asked);
    assert_eq!(
        b.battle_plans,
        [BattlePlanSlot::Waiting, BattlePlanSlot::Waiting]
    );
    assert_eq!(prompted(&t), ["davout", "louis"]);
    assert!(ruleset()
        .prompts(&t.state)
        .iter()
        .all(|p| p.kind == PromptKind::Sealed && p.decision.contains("battle at kelheim")));
    let said = ok(&mut t, "davout: battle-plan answer infantry-attack=none");
    assert_eq!(
        said,
        ["davout has sealed a battle plan for the battle at kelheim"]
    );
    // Sealed: no other seat reads it; the battle still waits for Louis's.
    for who in [
        Viewer::Seat(seat("louis")),
        Viewer::Seat(seat("charles")),
        Viewer::Spectator,
    ] {
        let v = view(&t, &who);
        assert_eq!(
            v["battle"]["plans"],
            json!(["waiting", "sealed"]),
            "{who:?}"
        );
        assert!(
            !v.to_string().contains("infantry-attack"),
            "{who:?} reads the plan"
        );
    }
    assert_eq!(prompted(&t), ["louis"]);
    let board = ruleset()
        .board_text(&t.state, &Viewer::Seat(seat("charles")))
        .unwrap();
    assert!(
        board.contains("Battle at kelheim (4.f): waiting for the sealed battle plans of louis"),
        "{board}"
    );
    let e = refused(&mut t, "louis: fight");
    assert_eq!(e.rule, "4.f Battle plans", "{e}");
    // Both in: both open (the log gives each), and the operating player fights.
    let said = ok(&mut t, "louis: battle-plan");
    assert!(said.contains(
        &"the battle at kelheim waits for 2 sealed battle plan(s) to open (4.f)".to_owned()
    ));
    assert!(
        said.contains(
            &"davout's battle plan is opened: battle-plan answer infantry-attack=none".to_owned()
        ),
        "{said:#?}"
    );
    assert!(said.contains(&"louis's battle plan is opened: battle-plan".to_owned()));
    assert_eq!(battle(&t).plans, PlansStage::Opened);
    assert_eq!(prompted(&t), ["louis"]);
    let first = ok(&mut t, "louis: fight");
    assert!(
        first.contains(&"a battle with battle cards (4.): austrian 4 BP, french 21 BP".to_owned())
    );
    // Davout's plan lets every Austrian Infantry Attack stand.
    assert!(
        first.contains(&"austrian play Infantry Attack: unanswered".to_owned()),
        "{first:#?}"
    );
    assert!(
        !first
            .iter()
            .any(|l| l.starts_with("austrian play Infantry Attack; french answer")),
        "{first:#?}"
    );
    assert!(state(&t).pending.is_none(), "the first battle is over");

    // The second battle asks Davout again: the plan opened for the first plays no other.
    ok(&mut t, "charles: attack kelheim");
    pass_windows(&mut t);
    let b = battle(&t);
    assert_eq!(b.plans, PlansStage::Asked);
    assert_eq!(
        b.battle_plans,
        [BattlePlanSlot::Waiting, BattlePlanSlot::Waiting],
        "no plan of the first battle is kept for the second"
    );
    assert_eq!(prompted(&t), ["charles", "davout"]);
    let e = refused(&mut t, "charles: fight");
    assert!(e.message.contains("sealed battle plans"), "{e}");
    // Davout lets his deadline pass: the doctrine plays the French, not his first plan.
    let said = ok(&mut t, "!timeout davout");
    assert_eq!(
        said,
        ["davout missed the deadline: the standing doctrine plays his side in the battle at kelheim (4.f)"]
    );
    assert_eq!(
        battle(&t).battle_plans,
        [BattlePlanSlot::Waiting, BattlePlanSlot::None]
    );
    let opened = ok(&mut t, "charles: battle-plan withdraw 0");
    assert_eq!(
        opened.last().unwrap(),
        "charles's battle plan is opened: battle-plan withdraw 0"
    );
    let b = battle(&t);
    assert_eq!(b.plans, PlansStage::Opened);
    assert!(matches!(
        b.battle_plans,
        [BattlePlanSlot::Open { .. }, BattlePlanSlot::None]
    ));
    let second = ok(&mut t, "charles: fight");
    assert!(
        second
            .iter()
            .any(|l| l.starts_with("a battle with battle cards (4.): austrian 8 BP, french ")),
        "{second:#?}"
    );
    assert!(
        !opened
            .iter()
            .chain(&second)
            .any(|l| l.starts_with("davout's battle plan")),
        "the first battle's plan is not opened again for the second"
    );
}

#[test]
fn battle_cards_4_f_a_battle_plan_is_checked_for_its_battle_and_a_bad_one_changes_nothing() {
    let mut t = davout_attacks_louis(json!({}));
    pass_windows(&mut t);
    assert_eq!(prompted(&t), ["davout", "louis"]);
    // Against the side's battle deck: each refusal names the rule and the card, and changes
    // nothing.
    let e = refused(&mut t, "davout: battle-plan attack squares");
    assert_eq!(e.rule, "4.f Battle plans");
    assert!(
        e.message.contains("'squares' is not an offensive card"),
        "{e}"
    );
    let e = refused(
        &mut t,
        "davout: battle-plan answer infantry-attack=grenadier-reserve",
    );
    assert!(
        e.message
            .contains("'grenadier-reserve' is not a defensive card"),
        "{e}"
    );
    let e = refused(
        &mut t,
        "louis: battle-plan answer cavalry-attack=stand-and-fire",
    );
    assert!(
        e.message
            .contains("Stand and Fire does not answer cavalry-attack"),
        "{e}"
    );
    let e = refused(&mut t, "louis: attack kelheim");
    assert!(e.message.contains("battle-plan"), "{e}");
    // Only the commanders send one.
    let e = refused(&mut t, "napoleon: battle-plan");
    assert_eq!(e.rule, "turn order", "{e}");
    ok(&mut t, "davout: battle-plan withdraw 2");
    let e = refused(&mut t, "davout: battle-plan withdraw 3");
    assert_eq!(e.rule, "turn order", "one plan a side a battle: {e}");

    // No battle asks in the Planning Phase.
    let mut t = table(json!({}), "cu davout at kelheim sp 9");
    let e = refused(&mut t, "davout: battle-plan withdraw 2");
    assert_eq!(e.rule, "4.f Battle plans");
    assert!(e.message.contains("no battle asks now"), "{e}");
    // Nor with dice, nor played card by card.
    let mut t = table(json!({"battle_cards": "dice"}), "cu davout at kelheim sp 9");
    let e = refused(&mut t, "davout: battle-plan");
    assert!(e.message.contains("battle_cards=dice"), "{e}");
    let mut t = table(
        json!({"battle_play": "interactive"}),
        "cu davout at kelheim sp 9",
    );
    let e = refused(&mut t, "davout: battle-plan");
    assert!(e.message.contains("battle_play=interactive"), "{e}");
}

#[test]
fn battle_cards_4_f_battle_play_is_an_option_sealed_by_default() {
    let info = ruleset().info();
    let option = info
        .options
        .iter()
        .find(|o| o.name == "battle_play")
        .expect("battle_play in /api/rulesets");
    assert_eq!(option.default, json!("sealed"));
    assert!(info.grammar.contains("play <card>"));
    let t = table(json!({}), "cu davout at kelheim sp 9");
    assert!(!state(&t).interactive);
    let e = ruleset()
        .setup(
            &setup(json!({"battle_play": "by-pigeon"})),
            &mut despatch_core::engine::dice::hidden_stream(&[1; 32], "x", 0),
        )
        .err()
        .expect("a bad value");
    assert!(e.message.contains("\"sealed\" or \"interactive\""), "{e}");
}

/// The index of `key` in `deck`'s battle cards.
fn card(deck: &str, key: &str) -> usize {
    battle_cards::cards()
        .iter()
        .position(|c| c.deck == deck && c.key == key)
        .unwrap()
}

/// Sets the hands of the battle being played (the test's deal).
fn deal(t: &mut Sandbox, french: &[&str], austrian: &[&str]) {
    let mut j = ruleset().state_json(&t.state);
    let sides = &mut j["pending"]["battle"]["play"]["sides"];
    sides[0]["hand"] = french.iter().map(|k| card("french", k)).collect();
    sides[1]["hand"] = austrian.iter().map(|k| card("austrian", k)).collect();
    t.state = ruleset().state_from_json(j).unwrap();
}

#[test]
fn battle_cards_4_f_to_4_i_interactive_a_whole_battle_card_by_card() {
    // Davout, 9 SP with supply (10 BP), attacks Louis, 5 SP (5 BP), over an ordinary CL.
    let mut t = davout_attacks_louis(json!({"battle_play": "interactive"}));
    while state(&t).window.is_some() {
        let seat = ruleset().prompts(&t.state)[0].seat.clone();
        let said = ok(&mut t, &format!("{seat}: pass"));
        if state(&t).window.is_none() {
            // The window's last pass begins the battle: hands dealt, no card chosen yet.
            assert!(said.contains(&"the battle at abensberg is fought card by card (4.f–4.i), commanded by davout and louis".to_owned()), "{said:#?}");
            assert!(said.contains(
                &"a battle with battle cards (4.): french 10 BP, austrian 5 BP".to_owned()
            ));
        }
    }
    assert_eq!(battle(&t).plans, PlansStage::Playing);
    deal(
        &mut t,
        &[
            "cavalry-attack",
            "infantry-attack",
            "reserves",
            "reverse-slope",
            "orderly-withdrawal",
            "bombardment",
            "squares",
        ],
        &[
            "squares",
            "stand-and-fire",
            "reverse-slope",
            "infantry-attack",
            "orderly-withdrawal",
            "bombardment",
            "reserves",
        ],
    );
    // 4.f: the French open with an offensive card; every wrong card is refused, naming it and
    // the rule, and changes nothing.
    assert_eq!(prompted(&t), ["davout"]);
    let e = refused(&mut t, "davout: discard squares");
    assert_eq!(e.rule, "4.f Battle cards");
    assert!(
        e.message
            .contains("opens the battle with an offensive card"),
        "{e}"
    );
    let e = refused(&mut t, "davout: play squares");
    assert_eq!(e.rule, "4.g–4.h Battle cards");
    assert!(
        e.message.contains("Squares is not an offensive card"),
        "{e}"
    );
    let e = refused(&mut t, "davout: play orderly-withdrawal");
    assert!(e.message.contains("withdraw at a later turn"), "{e}");
    let e = refused(&mut t, "davout: play grand-battery");
    assert!(
        e.message.contains("your side holds no 'grand-battery'"),
        "{e}"
    );
    let e = refused(&mut t, "louis: pass");
    assert_eq!(e.rule, "turn order");
    assert_eq!(
        ok(&mut t, "davout: play cavalry-attack"),
        ["french play Cavalry Attack: the austrian answer it or let it stand (4.f)"]
    );
    // The Austrians answer: Stand and Fire fits only infantry; Squares defeats cavalry.
    assert_eq!(prompted(&t), ["louis"]);
    let e = refused(&mut t, "louis: play stand-and-fire");
    assert!(
        e.message
            .contains("Stand and Fire does not answer Cavalry Attack"),
        "{e}"
    );
    let e = refused(&mut t, "louis: discard reserves");
    assert!(
        e.message.contains("only at your side's turn to attack"),
        "{e}"
    );
    assert_eq!(
        ok(&mut t, "louis: play squares"),
        ["french play Cavalry Attack; austrian answer with Squares"]
    );
    // The French cancel it (a cancel card only): the attack stands, the Austrians lose 3 BP.
    let e = refused(&mut t, "davout: play reverse-slope");
    assert!(
        e.message.contains("Reverse Slope is not a cancel card"),
        "{e}"
    );
    assert_eq!(
        ok(&mut t, "davout: play reserves"),
        [
            "french cancel it with Reserves: the attack stands",
            "austrian lose 3 BP: 2 left"
        ]
    );
    // 4.g: the Austrians' turn: attack or discard, not pass. Louis lets his deadline pass:
    // the doctrine attacks with his strongest, Infantry Attack.
    assert_eq!(prompted(&t), ["louis"]);
    let e = refused(&mut t, "louis: pass");
    assert_eq!(e.rule, "4.g–4.h Battle cards");
    assert_eq!(
        ok(&mut t, "!timeout louis"),
        [
            "louis missed the deadline: the doctrine chooses (play infantry-attack)",
            "austrian play Infantry Attack: the french answer it or let it stand (4.f)"
        ]
    );
    assert_eq!(
        ok(&mut t, "davout: pass"),
        [
            "austrian play Infantry Attack: unanswered",
            "french lose 2 BP: 8 left"
        ]
    );
    // 4.h: the French discard rather than attack.
    assert_eq!(
        ok(&mut t, "davout: discard bombardment"),
        ["french discard a card (4.g–4.h)"]
    );
    // 4.i: the Austrians withdraw: the battle is over and 4.j gives its losses. The loser
    // lost 3 BP, the winner 2: N = 1, the loser 1 SP, the winner ⌊1/3⌋ = 0; the side with
    // fewer losses gains twice the other's: 2 glory.
    let said = ok(&mut t, "louis: play orderly-withdrawal");
    for line in [
        "austrian play Orderly Withdrawal and leave the battlefield",
        "the battle at abensberg is over: the french lost 2 BP, the austrian 3",
        "the french win at abensberg: the austrian lose 1 SP, the french 0",
        "davout gains 2 glory (the battle's glory (4.j))",
    ] {
        assert!(said.contains(&line.to_owned()), "{line}: {said:#?}");
    }
    let s = state(&t);
    assert!(s.pending.is_none());
    assert_eq!(s.cu("louis").sp, 4);
    assert_eq!(s.cu("davout").sp, 9);
    assert_eq!(s.cu("davout").lp.as_deref(), Some("abensberg"));
    assert_ne!(s.cu("louis").lp.as_deref(), Some("abensberg"));
}

#[test]
fn battle_cards_4_f_interactive_a_sides_hand_is_its_commanders_alone() {
    let mut t = davout_attacks_louis(json!({"battle_play": "interactive"}));
    pass_windows(&mut t);
    deal(
        &mut t,
        &["cavalry-attack", "grand-battery", "reserves"],
        &["squares", "stand-and-fire", "reverse-slope"],
    );
    let hand = |v: &Value, side: usize| v["battle"]["play"]["sides"][side].get("hand").cloned();
    let davout = view(&t, &Viewer::Seat(seat("davout")));
    assert_eq!(
        hand(&davout, 0).unwrap()[1],
        json!({"card": "grand-battery", "name": "Grand Battery"})
    );
    assert!(hand(&davout, 1).is_none());
    assert!(davout["battle"]["play"]["sides"][0]["choices"]
        .as_array()
        .unwrap()
        .contains(&json!("play grand-battery")));
    let louis = view(&t, &Viewer::Seat(seat("louis")));
    assert!(hand(&louis, 0).is_none() && hand(&louis, 1).is_some());
    assert_eq!(louis["battle"]["play"]["sides"][0]["hand_count"], json!(3));
    for who in [Viewer::Seat(seat("charles")), Viewer::Spectator] {
        let v = view(&t, &who);
        assert!(hand(&v, 0).is_none() && hand(&v, 1).is_none(), "{who:?}");
    }
    // The text boards: the hand to its commander.
    let board = |who: &str| {
        ruleset()
            .board_text(&t.state, &Viewer::Seat(seat(who)))
            .unwrap()
    };
    assert!(board("davout")
        .contains("Your side's battle cards: Cavalry Attack, Grand Battery, Reserves"));
    assert!(board("davout").contains("You may: play cavalry-attack | play grand-battery"));
    assert!(!board("louis").contains("Grand Battery"));
    assert!(board("louis").contains("Your side's battle cards: Squares, Stand and Fire"));
    assert!(!board("charles").contains("Your side's battle cards"));
    // The prompt (public: the game's summary lists it) names no card of a hand.
    ok(&mut t, "davout: play grand-battery");
    for p in ruleset().prompts(&t.state) {
        assert_eq!(p.seat.as_str(), "louis");
        assert_eq!(p.options, ["play <card>", "pass"]);
        assert!(!p.decision.contains("Squares"), "{}", p.decision);
    }
    // A discarded card is played face down: the others see that a card was discarded.
    ok(&mut t, "louis: pass");
    ok(&mut t, "louis: discard reverse-slope");
    let v = view(&t, &Viewer::Seat(seat("davout")));
    let played = v["battle"]["play"]["played"].to_string();
    assert!(played.contains("austrian discards a card"), "{played}");
    assert!(!played.contains("reverse-slope"), "{played}");
}

#[test]
fn battle_cards_4_f_interactive_a_commander_who_leaves_has_the_doctrine_play_his_side() {
    let mut t = davout_attacks_louis(json!({"battle_play": "interactive"}));
    pass_windows(&mut t);
    assert_eq!(battle(&t).commanders.map(|c| c.is_some()), [true, true]);
    ok(&mut t, "!resign louis");
    assert_eq!(battle(&t).commanders[1], None);
    // Davout chooses each of his cards (the first legal one); the Austrians' are the
    // doctrine's, played at once, until the battle is over.
    let mut choices = 0;
    while state(&t).pending.is_some() {
        assert_eq!(
            prompted(&t),
            ["davout"],
            "only the French commander is asked"
        );
        let v = view(&t, &Viewer::Seat(seat("davout")));
        let first = v["battle"]["play"]["sides"][0]["choices"][0]
            .as_str()
            .expect("a legal choice")
            .to_owned();
        ok(&mut t, &format!("davout: {first}"));
        choices += 1;
        assert!(choices < 400, "the battle ends");
    }
    assert!(choices > 0);
}
