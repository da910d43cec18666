//! S4.0 Piggyback Mode: mounting, riding, dismounting (S4.1–S4.3) and piggyback mode in
//! combat (S4.4).

use despatch_core::engine::ruleset::{Rules, Viewer};
use despatch_core::rules::where_eagles_dare::state::Side;
use despatch_core::rules::where_eagles_dare::WhereEaglesDare;

use super::support::*;

/// S4.4: "perform the Assault procedure as normal, starting with Opportunity Fire from the
/// Units being Assaulted": the assault is declared, the assaulted side's window comes first
/// (the watch list applies, decision 37), then its die; an assaulting unit the fire takes off
/// the map calls it off. Where the engine keeps the assaulting unit's hex, it assaults an
/// adjacent hex across a hexside as it would move: a bridge in Column and not destroyed
/// (2.15.1, 2.15.6), the culvert in Column (2.17).
#[test]
fn assault_s4_4_the_units_assaulted_fire_first_then_the_die_across_a_bridge_2_15_1_or_the_culvert_2_17_in_column(
) {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-101");
    unit_at(&mut s, "A/a", Side::Allied, "56.203");
    unit_at(&mut s, "G/d", Side::German, "56.204");
    let e = refused(&mut s, "allied", "assault A/a 56.206", "assault");
    assert!(e.message.contains("not next to 56.206"), "{e}");
    ok(&mut s, "allied", "assault A/a 56.204", &[]);
    assert_eq!(s.window, Some(hex("56.203")), "the defenders fire first");
    assert!(s.pending.is_none());
    refused(&mut s, "allied", "end", "sequence of play");
    ok(&mut s, "german", "opfire G/d 56.203 small-arms", &[4]);
    ok(&mut s, "german", "result none", &[7]);
    let p = s
        .pending
        .clone()
        .expect("the assault's die, drawn as the window closed");
    assert_eq!((p.side, p.face, p.fire), (Side::Allied, 7, false));
    ok(&mut s, "allied", "result none", &[]);
    // The fire eliminates the assaulting unit: no die.
    unit_at(&mut s, "A/b", Side::Allied, "56.203");
    ok(&mut s, "allied", "assault A/b 56.204", &[]);
    ok(&mut s, "german", "watch none", &[]);
    ok(&mut s, "german", "opfire G/d 56.203 small-arms", &[4]);
    ok(&mut s, "german", "result eliminated", &[]);
    assert!(s.pending.is_none() && s.assault.is_none() && s.window.is_none());
    // Watching no hex, the German has no window: the die comes at once.
    unit_at(&mut s, "A/c", Side::Allied, "56.205");
    ok(&mut s, "allied", "assault A/c 56.204", &[3]);
    assert_eq!(s.pending.as_ref().map(|p| p.face), Some(3));
    ok(&mut s, "allied", "result none", &[]);
    // 2.15.1: across a bridge in Column; 2.15.6: not across a destroyed one.
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-101");
    unit_at(&mut s, "A/e", Side::Allied, "56.202");
    unit_at(&mut s, "G/f", Side::German, "56.201");
    refused(&mut s, "allied", "assault A/e 56.201", "2.15.1");
    s.units.get_mut("A/e").unwrap().column = true;
    ok(&mut s, "allied", "assault A/e 56.201", &[]);
    s.bridges.get_mut("son").unwrap().destroyed = true;
    s.assault = None;
    s.window = None;
    let e = refused(&mut s, "allied", "assault A/e 56.201", "2.15");
    assert!(e.message.contains("destroyed"), "{e}");
    // 2.17: across the culvert in Column.
    unit_at(&mut s, "A/g", Side::Allied, "70.157");
    unit_at(&mut s, "G/h", Side::German, "70.156");
    refused(&mut s, "allied", "assault A/g 70.156", "2.17");
    s.units.get_mut("A/g").unwrap().column = true;
    ok(&mut s, "allied", "assault A/g 70.156", &[]);
    assert!(s.assault.is_some());
}

#[test]
fn piggyback_s4_mount_in_one_hex_ride_along_no_actions_and_dismount_on_a_fire_result() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-guards");
    play(&mut s, "allied", "move A/inf 41.230", &[]);
    play(&mut s, "allied", "move A/tank 42.229", &[]);
    refused(&mut s, "allied", "mount A/inf A/tank", "S4.0");
    play(&mut s, "allied", "move A/tank 41.230 column", &[]);
    play(&mut s, "allied", "mount A/inf A/tank", &[]);
    refused(&mut s, "allied", "mount A/x A/tank", "S4.0");
    // The pair moves as one; the rider acts not; the vehicle only moves and dismounts.
    play(&mut s, "allied", "move A/tank 42.229 column", &[]);
    assert_eq!(s.units["A/inf"].hex, hex("42.229"));
    refused(&mut s, "allied", "move A/inf 42.228", "S4.0");
    refused(&mut s, "allied", "fire A/inf 42.227 small-arms", "S4.0");
    refused(&mut s, "allied", "fire A/tank 42.227 direct-he", "S4.0");
    play(&mut s, "allied", "dismount A/tank", &[]);
    assert!(s.piggyback.is_empty() && !s.units["A/inf"].column);
    // S4.2: the rider put down acts at its next Activation, not in this impulse.
    refused(&mut s, "allied", "mount A/inf A/tank", "S4.2");
    refused(&mut s, "allied", "move A/inf 41.230", "S4.2");
    allied_impulse(&mut s, "div-guards");
    // A fire result other than none or S? dismounts the rider at once.
    play(&mut s, "allied", "mount A/inf A/tank", &[]);
    german_impulse(&mut s);
    ok(&mut s, "german", "fire G/1 42.229 small-arms", &[5]);
    ok(&mut s, "german", "result s?", &[]);
    assert_eq!(s.piggyback.len(), 1, "S? passed is no effect");
    ok(&mut s, "german", "fire G/1 42.229 small-arms", &[5]);
    ok(&mut s, "german", "result suppressed", &[]);
    assert!(s.piggyback.is_empty());
    // In the pair's own impulse, "this mandatory dismount ends the Activation of the Vehicle
    // Unit"; the rider put down acts at its next Activation.
    allied_impulse(&mut s, "div-guards");
    unit_at(&mut s, "A/i2", Side::Allied, "42.229");
    unit_at(&mut s, "A/t2", Side::Allied, "42.229");
    play(&mut s, "allied", "mount A/i2 A/t2", &[]);
    ok(&mut s, "allied", "move A/t2 42.228", &[]);
    ok(&mut s, "german", "opfire G/1 42.228 small-arms", &[5]);
    ok(&mut s, "german", "result suppressed", &[]);
    assert!(s.piggyback.is_empty());
    refused(&mut s, "allied", "move A/t2 42.229", "S4.4");
    refused(&mut s, "allied", "move A/i2 42.229", "S4.2");
    let board = WhereEaglesDare.board_text(&s, &Viewer::Spectator).unwrap();
    assert!(
        board.contains("Activation over this impulse: A/i2 (S4.2 Exiting Piggyback Mode),"),
        "{board}"
    );
    allied_impulse(&mut s, "div-guards");
    play(&mut s, "allied", "move A/t2 42.229", &[]);
}

#[test]
fn piggyback_s4_0_to_s4_3_decision_45_infantry_without_transport_on_a_vehicle_of_its_formation_with_as_many_steps(
) {
    let mut s = game("the-best-laid-plans");
    for u in [
        "A/326",
        "B/326",
        "A/44rtr",
        "101-recon",
        "ldr-101",
        "A/501",
        "A/3ig",
        "1/2ig",
        "A/x",
    ] {
        unit_at(&mut s, u, Side::Allied, "50.150");
    }
    allied_impulse(&mut s, "div-101");
    // S4.0: "Infantry Units … may 'piggyback ride' on Vehicle Units of their Formation".
    let e = refused(&mut s, "allied", "mount ldr-101 A/44rtr", "S4.0");
    assert!(e.message.contains("leader Unit"), "{e}");
    let e = refused(&mut s, "allied", "mount A/501 A/44rtr", "S4.0");
    assert!(
        e.message.contains("A/501 is of 501 and A/44rtr of ind-101")
            && e.message.contains("501 has none"),
        "{e}"
    );
    let e = refused(&mut s, "allied", "mount A/326 B/326", "S4.0");
    assert!(e.message.contains("not a Vehicle Unit"), "{e}");
    // S4.3: "Infantry Units with an Organic Transport can never piggyback".
    allied_impulse(&mut s, "div-guards");
    let e = refused(&mut s, "allied", "mount A/3ig 1/2ig", "S4.3");
    assert!(e.message.contains("Organic Transport (truck)"), "{e}");
    // S4.1: "an entire movement action by both units": the chit activates the vehicle too.
    allied_impulse(&mut s, "f-502");
    refused(&mut s, "allied", "mount A/x A/44rtr", "S6.5");
    allied_impulse(&mut s, "ind-101");
    play(&mut s, "allied", "mount A/326 A/44rtr", &[]);
    // S4.3: the rider performs no Action, the vehicle only moves and dismounts: no ferry.
    refused(&mut s, "allied", "ferry A/326 son", "S4.0");
    refused(&mut s, "allied", "ferry A/44rtr son", "S4.0");
    play(&mut s, "allied", "dismount A/44rtr", &[]);
    play(&mut s, "allied", "mount B/326 101-recon", &[]);
    // S4.3: "at least as many Steps as the Infantry Unit", the steps left on the marks.
    german_impulse(&mut s);
    s.chit = Some("div-59th".into());
    for u in ["1/59-a", "pz/59-a"] {
        unit_at(&mut s, u, Side::German, "30.100");
    }
    let e = refused(&mut s, "german", "mount 1/59-a pz/59-a", "S4.3");
    assert!(e.message.contains("pz/59-a has 1 step and 1/59-a 2"), "{e}");
    lose(&mut s, "1/59-a", 1);
    play(&mut s, "german", "mount 1/59-a pz/59-a", &[]);
    assert_eq!(s.piggyback["pz/59-a"], "1/59-a");
}
