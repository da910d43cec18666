//! The text's rules with worked numbers of our own (issue 17: "the text has no worked example:
//! 2.l, 2.m, 4.d, 4.j, 4.k with own values via `despatch replay`"). Each test is a replay
//! script — a position set by hand, the orders, the dice — run through the ruleset as
//! `despatch replay` runs it, and checks every number the rules give: the rolls' totals, the
//! SP lost, the glory, the retreat, the attrition, the battle points. The numbers are worked
//! by hand in each test's comment; docs/rules/searching-for-glory.md, "Worked examples",
//! prints them.

use despatch_core::engine::replay::{self, Transcript};
use despatch_core::engine::ruleset::{SeatDef, Setup};
use despatch_core::rules;
use serde_json::{json, Value};

/// The seats of every example: two players a side.
const SEATS: [&str; 4] = ["napoleon", "davout", "charles", "louis"];

/// Runs `script` (its steps after the position) on Danube 1809 with the plain role cards (no
/// battle characteristics: the text's own numbers) and `options`; every step must stand.
fn run(options: Value, script: &str, dice: &[u32]) -> Transcript {
    let mut opts = json!({"roles": "plain"});
    for (k, v) in options.as_object().unwrap() {
        opts[k] = v.clone();
    }
    let setup = Setup {
        game_id: "sfg-worked".into(),
        scenario: "danube-1809".into(),
        options: opts,
        seats: SeatDef::named_by_id(&SEATS).unwrap(),
    };
    let t = replay::run(
        rules::find("searching-for-glory").unwrap(),
        setup,
        script,
        dice.to_vec(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let refused: Vec<String> = t
        .refusals()
        .map(|s| format!("step {} ({}: {}): {:?}", s.step, s.seat, s.order, s.refused))
        .collect();
    assert!(refused.is_empty(), "{refused:#?}\n{:#?}", lines(&t));
    t
}

fn lines(t: &Transcript) -> Vec<String> {
    t.steps
        .iter()
        .flat_map(|s| s.lines.iter().map(|l| l.text.clone()))
        .collect()
}

fn cu<'t>(t: &'t Transcript, who: &str) -> &'t Value {
    t.view["cus"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["character"] == who)
        .unwrap()
}

/// Every seat but the actor passes the announcement's reactive window (1.e).
fn passes(actor: &str) -> String {
    SEATS
        .iter()
        .filter(|s| **s != actor)
        .map(|s| format!("{s}: pass\n"))
        .collect()
}

/// Every seat passes the reactive window before a battle's dice (1.e).
fn battle_passes() -> String {
    SEATS.iter().map(|s| format!("{s}: pass\n")).collect()
}

fn operation(position: &str, actor: &str, order: &str, battle: bool) -> String {
    format!(
        "position:\n{}\n{actor}: {order}\n{}{}",
        position
            .lines()
            .map(|l| format!("  {}", l.trim()))
            .collect::<Vec<_>>()
            .join("\n"),
        passes(actor),
        if battle {
            battle_passes()
        } else {
            String::new()
        }
    )
}

fn check_said(t: &Transcript, expected: &[&str]) {
    let all = lines(t);
    for e in expected {
        assert!(all.iter().any(|l| l == e), "no line '{e}' in {all:#?}");
    }
}

/// 2.m, a won attack. Davout, 9 SP with a supply marker, attacks Louis, 4 SP with 2 trench
/// points, from Kelheim into Abensberg along an ordinary CL. Davout rolls 7: 7 + 5 (the SP
/// difference, 9 − 4) + 1 (supply) = 13. Louis rolls 2: 2 + 2 (trench) = 4. The difference
/// is 9: the loser loses ⌊9/3⌋ = 3 SP, the winner ⌊3/3⌋ = 1. The winner's glory is
/// 2 × (3 − 1) = 4. Louis retreats two CLs nearer an Austrian retreat point: from Abensberg (two CLs
/// from Passau) to Passau itself, by Landshut; his trench points stay behind.
#[test]
fn m_2_m_a_won_attack_sp_difference_supply_trench_losses_glory_and_retreat() {
    let t = run(
        json!({}),
        &operation(
            "cu davout at kelheim sp 9 supplied
             cu louis at abensberg sp 4 trench 2
             plan davout: attack
             phase operations davout done napoleon charles louis",
            "davout",
            "attack abensberg",
            true,
        ),
        &[7, 2],
    );
    check_said(
        &t,
        &[
            "battle at abensberg: davout rolls 7 for 13, the defence rolls 2 for 4",
            "the french win at abensberg: the austrian lose 3 SP, the french 1",
            "davout gains 4 glory (the battle's glory)",
            "louis retreats to passau",
        ],
    );
    let (davout, louis) = (cu(&t, "davout"), cu(&t, "louis"));
    assert_eq!(
        (
            &davout["sp"],
            &davout["glory"],
            &davout["lp"],
            &davout["supply"]
        ),
        (&json!(8), &json!(4), &json!("abensberg"), &json!(true))
    );
    assert_eq!(
        (
            &louis["sp"],
            &louis["lp"],
            &louis["trench"],
            &louis["glory"]
        ),
        (&json!(1), &json!("passau"), &json!(0), &json!(0))
    );
    assert!(t.dice_left.is_empty());
}

/// 2.m, a lost attack over a bridge, with a tie. Davout, 6 SP with supply, attacks Louis, 5 SP
/// with supply, from Kelheim into Regensburg across the Danube bridge (a blue CL: −3). First
/// roll: Davout 4 + 1 (SP) + 1 (supply) − 3 = 3, Louis 2 + 1 (supply) = 3: a tie, both roll
/// again. Davout 2 → 1, Louis 9 → 10: Louis wins by 9. Davout loses ⌊9/3⌋ = 3 SP and his
/// supply marker, Louis ⌊3/3⌋ = 1; Louis's glory 2 × (3 − 1) = 4. Davout retreats two CLs
/// nearer a French retreat point: Regensburg is four CLs from Donauwörth and from Augsburg;
/// Abensberg and Ingolstadt are two, Abensberg first by name.
#[test]
fn m_2_m_a_lost_attack_over_a_bridge_a_tie_rerolled_and_the_supply_lost() {
    let t = run(
        json!({}),
        &operation(
            "cu davout at kelheim sp 6 supplied
             cu louis at regensburg sp 5 supplied
             plan davout: attack
             phase operations davout done napoleon charles louis",
            "davout",
            "attack regensburg",
            true,
        ),
        &[4, 2, 2, 9],
    );
    check_said(
        &t,
        &[
            "battle at regensburg: davout rolls 4 for 3, the defence rolls 2 for 3",
            "a tie: both roll again",
            "battle at regensburg: davout rolls 2 for 1, the defence rolls 9 for 10",
            "the austrian win at regensburg: the french lose 3 SP, the austrian 1",
            "louis gains 4 glory (the battle's glory)",
            "davout retreats to abensberg",
        ],
    );
    let (davout, louis) = (cu(&t, "davout"), cu(&t, "louis"));
    assert_eq!(
        (
            &davout["sp"],
            &davout["glory"],
            &davout["lp"],
            &davout["supply"]
        ),
        (&json!(3), &json!(0), &json!("abensberg"), &json!(false))
    );
    assert_eq!(
        (
            &louis["sp"],
            &louis["lp"],
            &louis["glory"],
            &louis["supply"]
        ),
        (&json!(4), &json!("regensburg"), &json!(4), &json!(true))
    );
    assert!(t.dice_left.is_empty());
}

/// 2.l, a SIEGE. Davout besieges Louis, shut in Regensburg with 5 SP, and has 4 siege points;
/// no fatigue, so no fatigue roll. The attrition roll is 8: row 8–9, column 4 of the table: 2
/// SP eliminated. Louis has 3 left; Davout gains 1 glory per SP, 2, and a fifth siege point.
#[test]
fn l_2_l_a_siege_rolls_on_the_attrition_table_at_its_points_then_gains_one() {
    let t = run(
        json!({}),
        &operation(
            "cu davout at regensburg sp 6 siege 4
             cu louis at regensburg sp 5
             siege regensburg austrian rolled
             phase operations davout done napoleon charles louis",
            "davout",
            "siege",
            false,
        ),
        &[8],
    );
    check_said(
        &t,
        &[
            "davout lays SIEGE to regensburg: attrition roll 8 at 4 siege point(s): 2 SP eliminated",
            "davout gains 2 glory (the SP eliminated)",
            "davout has 5 siege point(s)",
        ],
    );
    let (davout, louis) = (cu(&t, "davout"), cu(&t, "louis"));
    assert_eq!(
        (&davout["sp"], &davout["glory"], &davout["siege_points"]),
        (&json!(6), &json!(2), &json!(5))
    );
    assert_eq!(
        (&louis["sp"], &louis["lp"]),
        (&json!(3), &json!("regensburg"))
    );
    assert_eq!(t.view["sieges"][0]["lp"], "regensburg");
    assert!(t.dice_left.is_empty());
}

/// 2.l, the fortress taken. Davout, fatigue 2, with 7 siege points, besieges Louis's last 2 SP
/// in Regensburg. SIEGE makes a fatigue roll first (2.f): 5, over the level, no loss. The
/// attrition roll is 10: row 10, column 7: 5 SP — Louis has 2, both eliminated. Davout takes
/// the fortress and captures Louis: 2 glory for the SP and Louis's capture glory, 4 (his role
/// card, reconstructed): 6. His siege points go with the siege.
#[test]
fn l_2_l_the_last_sp_eliminated_takes_the_fortress_and_captures_its_character() {
    let t = run(
        json!({}),
        &operation(
            "cu davout at regensburg sp 6 fatigue 2 siege 7
             cu louis at regensburg sp 2
             siege regensburg austrian rolled
             phase operations davout done napoleon charles louis",
            "davout",
            "siege",
            false,
        ),
        &[5, 10],
    );
    check_said(
        &t,
        &[
            "davout lays SIEGE to regensburg: attrition roll 10 at 7 siege point(s): 5 SP eliminated",
            "louis is captured",
            "davout gains 4 glory (capturing louis)",
            "davout gains 2 glory (the SP eliminated)",
            "davout takes the fortress of regensburg",
        ],
    );
    let (davout, louis) = (cu(&t, "davout"), cu(&t, "louis"));
    assert_eq!(
        (&davout["sp"], &davout["glory"], &davout["siege_points"]),
        (&json!(6), &json!(6), &json!(0))
    );
    assert_eq!(
        (&louis["captured"], &louis["lp"]),
        (&json!(true), &Value::Null)
    );
    assert_eq!(t.view["sieges"], json!([]));
    assert!(t.dice_left.is_empty());
}

/// 4.d and 4.j, a battle with battle cards (option `battle_cards=cards`). Davout, 9 SP with
/// supply, attacks Louis, 5 SP with 7 trench points, across the bridge into Regensburg; both
/// have 4 SP or more, so it is a battle, not an engagement (4.b–4.c). The battle asks both
/// commanders for a sealed battle plan (4.f); both send `battle-plan`, leaving every choice to
/// the doctrine, and Davout fights it. 4.d: Davout's BP are 9 + 1 (supply) − 3 (a blue CL) = 7;
/// Louis's 5 + 5 (his trench points, never more than his SP) = 10. The hands come from the
/// replay's hidden stream, every card played a line: the French Infantry Attacks stand (Louis
/// 8, 6, 4), Louis's Infantry Attack answered by Stand and Fire is cancelled by Reserves
/// (Davout 5), his Bombardments parried or standing (Davout 4, 3), and the French Grand
/// Battery stands: Louis, down to 1 BP of 10 (a third or less), withdraws (Orderly
/// Withdrawal) and loses. 4.j: the loser lost 9 BP, the winner 4: N = 9 − 4 = 5, positive: the
/// loser loses 5 SP — all Louis's: he is captured (II.1.A.3, his capture glory 4 to Davout) —
/// and the winner ⌊5/3⌋ = 1. The side with fewer losses, Davout's, gains twice the other's:
/// 2 × 5 = 10 glory.
#[test]
fn d_4_d_and_j_4_j_battle_points_and_the_losses_from_the_bp_lost() {
    // 4.f: the battle asks both commanders for a sealed battle plan; both leave every choice
    // to the doctrine, and Davout fights it.
    let script = format!(
        "{}davout: battle-plan\nlouis: battle-plan\ndavout: fight\n",
        operation(
            "cu davout at kelheim sp 9 supplied
             cu louis at regensburg sp 5 trench 7
             plan davout: attack
             phase operations davout done napoleon charles louis",
            "davout",
            "attack regensburg",
            true,
        )
    );
    let t = run(json!({"battle_cards": "cards"}), &script, &[]);
    check_said(
        &t,
        &[
            "a battle with battle cards (4.): french 7 BP, austrian 10 BP",
            "french play Infantry Attack: unanswered",
            "austrian lose 2 BP: 8 left",
            "austrian play Infantry Attack; french answer with Stand and Fire",
            "austrian cancel it with Reserves: the attack stands",
            "french lose 2 BP: 5 left",
            "austrian play Bombardment; french answer with Reverse Slope",
            "the attack is parried",
            "french lose 1 BP: 3 left",
            "french play Grand Battery: unanswered",
            "austrian lose 3 BP: 1 left",
            "austrian play Orderly Withdrawal and leave the battlefield",
            "the battle at regensburg is over: the french lost 4 BP, the austrian 9",
            "the french win at regensburg: the austrian lose 5 SP, the french 1",
            "louis is captured",
            "davout gains 4 glory (capturing louis)",
            "davout gains 10 glory (the battle's glory (4.j))",
        ],
    );
    let (davout, louis) = (cu(&t, "davout"), cu(&t, "louis"));
    assert_eq!(
        (&davout["sp"], &davout["lp"], &davout["supply"]),
        (&json!(8), &json!("regensburg"), &json!(true))
    );
    assert_eq!(
        davout["glory"],
        json!(14),
        "4 + 10; Regensburg was entered before (Louis held it)"
    );
    assert_eq!(
        (&louis["sp"], &louis["captured"], &louis["lp"]),
        (&json!(0), &json!(true), &Value::Null)
    );
    // No die is rolled in a battle with cards: its cards are hidden draws.
    assert!(t.steps.iter().all(|s| s.dice_used.is_empty()));
}

/// 4.k, Decisive Victory! with the battle cards: none of 4.d–4.j. Davout, 9 SP, plays Decisive
/// Victory! on Louis, 7 SP, at Abensberg: Louis loses half his SP, ⌊7/2⌋ = 3, and retreats (to
/// Passau, as in 2.m); Davout loses 1 per 3 the loser lost, at most 1: 1. Davout's glory is 2 ×
/// (3 − 1) = 4. No die, no battle card.
#[test]
fn k_4_k_decisive_victory_half_the_losers_sp_the_winner_at_most_one() {
    let t = run(
        json!({"battle_cards": "cards"}),
        &operation(
            "cu davout at kelheim sp 9
             cu louis at abensberg sp 7
             plan davout: decisive-victory
             phase operations davout done napoleon charles louis",
            "davout",
            "decisive abensberg",
            true,
        ),
        &[],
    );
    check_said(
        &t,
        &[
            "the french win at abensberg: the austrian lose 3 SP, the french 1",
            "davout gains 4 glory (the battle's glory)",
            "louis retreats to passau",
        ],
    );
    assert!(!lines(&t).iter().any(|l| l.contains("battle cards")));
    let (davout, louis) = (cu(&t, "davout"), cu(&t, "louis"));
    assert_eq!(
        (&davout["sp"], &davout["glory"], &davout["lp"]),
        (&json!(8), &json!(4), &json!("abensberg"))
    );
    assert_eq!((&louis["sp"], &louis["lp"]), (&json!(4), &json!("passau")));
    assert!(t.steps.iter().all(|s| s.dice_used.is_empty()));
}

/// The position statements the sieges above use (`siege <lp> <side> [rolled]`, `cu … siege
/// <n>`): a siege only at a fortress, a side named, both sides at the besieged LP; a bad line
/// is refused naming it.
#[test]
fn positions_a_siege_is_set_at_a_fortress_and_a_bad_one_is_refused_naming_its_line() {
    use despatch_core::engine::replay::ReplayError;
    let bad = |position: &str| -> String {
        let setup = Setup {
            game_id: "sfg-worked".into(),
            scenario: "danube-1809".into(),
            options: json!({}),
            seats: SeatDef::named_by_id(&SEATS).unwrap(),
        };
        let script = format!(
            "position:\n{}\ndavout: siege",
            position
                .lines()
                .map(|l| format!("  {}", l.trim()))
                .collect::<Vec<_>>()
                .join("\n")
        );
        match replay::run(
            rules::find("searching-for-glory").unwrap(),
            setup,
            &script,
            vec![],
        ) {
            Err(ReplayError::Position(e)) => format!("line {}: {}", e.line, e.message),
            other => panic!("{position}: {other:?}"),
        }
    };
    // The script's lines: `position:` is line 1, its statements from line 2.
    let e = bad("cu davout at abensberg\ncu louis at abensberg\nsiege abensberg austrian");
    assert!(
        e.starts_with("line 4: ") && e.contains("not a fortress"),
        "{e}"
    );
    let e = bad("siege regensburg prussian");
    assert!(
        e.starts_with("line 2: ") && e.contains("siege <lp> <side>"),
        "{e}"
    );
    let e = bad("siege regensburg austrian shut");
    assert!(e.starts_with("line 2: "), "{e}");
    let e = bad("cu davout at regensburg siege many");
    assert!(e.contains("'many' is not a number of siege points"), "{e}");
    // Without a siege, both sides at one LP are refused, naming the line.
    let e = bad("cu davout at regensburg\ncu louis at regensburg");
    assert!(e.contains("holds both sides"), "{e}");
}

/// The flow of the sealed battle plans (4.f, issue 17 "By email"), played from the Planning
/// Phase: Napoleon acts first (3.1) and rests; Davout attacks Louis in Regensburg across the
/// bridge. Once the battle's window closes, the battle asks its two commanders, Davout and
/// Louis, for a sealed battle plan for it; when both are in they open, and Davout's `fight`
/// plays it out by them: Davout
/// attacks with Cavalry Attack first as his plan orders, Louis answers nothing as his plan
/// says; every card is a line. 4.d: 9 + 1 − 3 = 7 BP against 5. The French lose 3 BP, the
/// Austrians 5 (to 0): N = 5 − 3 = 2: Louis loses 2 SP, Davout ⌊2/3⌋ = 0; Davout's glory 2 ×
/// 2 = 4. With plans that leave every choice to it, the doctrine plays the same battle otherwise.
#[test]
fn f_4_f_sealed_battle_plans_open_at_the_battle_and_one_event_plays_it_out() {
    let with_plans = |plans: bool| -> Transcript {
        let script = format!(
            "position:
  cu davout at kelheim sp 9 supplied
  cu louis at regensburg sp 5
  hand davout: march rest attack
  hand napoleon: rest
  hand charles: march entrench
  hand louis: rest
davout: plan 3
napoleon: plan 1
charles: plan 2
louis: plan none
napoleon: initiative
napoleon: rest
{}davout: attack regensburg
{}{}{}davout: fight
",
            passes("napoleon"),
            passes("davout"),
            battle_passes(),
            if plans {
                "davout: battle-plan attack cavalry-attack grand-battery; cancel never; withdraw 0
louis: battle-plan answer cavalry-attack=none grand-battery=none infantry-attack=none; withdraw 0
"
            } else {
                "davout: battle-plan\nlouis: battle-plan\n"
            },
        );
        run(json!({"battle_cards": "cards"}), &script, &[])
    };
    let t = with_plans(true);
    check_said(
        &t,
        &[
            "the battle at regensburg is fought with battle cards (4.): davout and louis send a sealed battle plan for it (4.f)",
            "davout has sealed a battle plan for the battle at regensburg",
            "louis has sealed a battle plan for the battle at regensburg",
            "the battle at regensburg waits for 2 sealed battle plan(s) to open (4.f)",
            "davout's battle plan is opened: battle-plan attack cavalry-attack grand-battery; cancel never; withdraw 0",
            "louis's battle plan is opened: battle-plan answer cavalry-attack=none grand-battery=none infantry-attack=none; withdraw 0",
            "a battle with battle cards (4.): french 7 BP, austrian 5 BP",
            "french play Cavalry Attack: unanswered",
            "the battle at regensburg is over: the french lost 3 BP, the austrian 5",
            "the french win at regensburg: the austrian lose 2 SP, the french 0",
            "davout gains 4 glory (the battle's glory (4.j))",
        ],
    );
    // The plans open only when the battle needs them: after the battle window's last pass.
    let all = lines(&t);
    let opened = all
        .iter()
        .position(|l| l.starts_with("davout's battle plan is opened"))
        .unwrap();
    let joined = all
        .iter()
        .position(|l| l.starts_with("the battle is joined"))
        .unwrap();
    assert!(joined < opened);
    // The plans' choices: no answer from Louis, Davout's cavalry first.
    assert!(!all
        .iter()
        .any(|l| l.starts_with("french play") && l.contains("answer with")));
    let fight = t.steps.last().unwrap();
    assert_eq!(
        (fight.seat.as_str(), fight.order.as_str()),
        ("davout", "fight")
    );
    assert!(fight
        .lines
        .iter()
        .any(|l| l.text.starts_with("a battle with battle cards")));
    let (davout, louis) = (cu(&t, "davout"), cu(&t, "louis"));
    assert_eq!((&davout["sp"], &davout["glory"]), (&json!(9), &json!(4)));
    assert_eq!((&louis["sp"], &louis["lp"]), (&json!(3), &json!("passau")));
    // With empty plans the doctrine fights the same battle (the same hands: `fight` is the same
    // step) otherwise.
    let d = with_plans(false);
    let doctrine = lines(&d);
    assert!(doctrine.contains(&"davout's battle plan is opened: battle-plan".to_owned()));
    let cards = |ls: &[String]| -> Vec<String> {
        ls.iter()
            .filter(|l| l.contains(" play ") || l.contains("answer with"))
            .cloned()
            .collect()
    };
    assert_ne!(cards(&all), cards(&doctrine), "{doctrine:#?}");
}

/// The sandbox seals as a live game does (issue 39): every seat's choice under its own salt, so
/// two seats that seal the same plan (`plan none`, 2.) make two commitments, and each opens for
/// its own seat. With one salt for every choice the commitments collided and the replay stopped
/// at the opening with "no such sealed plan".
#[test]
fn sandbox_2_planning_identical_sealed_plans_of_two_seats_open_each_for_its_seat() {
    let t = run(
        json!({}),
        "position:
  hand davout: march rest attack
  hand napoleon: rest
  hand charles: march entrench
  hand louis: rest
davout: plan none
napoleon: plan none
charles: plan none
louis: plan none
",
        &[],
    );
    let mut opened: Vec<String> = t
        .steps
        .iter()
        .flat_map(|s| s.lines.iter())
        .filter(|l| l.text.starts_with("your plan is opened"))
        .flat_map(|l| l.to.clone().unwrap_or_default())
        .map(|seat| seat.to_string())
        .collect();
    opened.sort();
    assert_eq!(
        opened,
        ["charles", "davout", "louis", "napoleon"],
        "{:#?}",
        lines(&t)
    );
}
