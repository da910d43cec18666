//! S1.0 Artillery Parks.

use despatch_core::rules::where_eagles_dare::order;
use despatch_core::rules::where_eagles_dare::state::{OffMap, Phase, Side};

use super::support::*;

#[test]
fn artillery_parks_s1_placed_once_units_enter_the_box_and_an_enemy_in_the_hex_eliminates_them() {
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-guards");
    let e = refused(&mut s, "allied", "park park-guards 50.150", "S1.0");
    assert!(e.message.contains("41.232"), "{e}");
    play(&mut s, "allied", "park park-guards 41.232", &[]);
    refused(&mut s, "allied", "park park-guards 41.232", "S1.0");
    play(&mut s, "allied", "move A/art 41.231", &[]);
    refused(&mut s, "allied", "enterpark A/art park-guards", "S1.0");
    play(&mut s, "allied", "move A/art 41.232", &[]);
    play(&mut s, "allied", "enterpark A/art park-guards", &[]);
    assert!(!s.units.contains_key("A/art"));
    // Only Indirect HE Units enter the box: an infantry Unit of the order of battle does not.
    unit_at(&mut s, "A/3ig", Side::Allied, "41.232");
    let e = refused(&mut s, "allied", "enterpark A/3ig park-guards", "S1.0");
    assert!(e.message.contains("infantry"), "{e}");
    s.units.remove("A/3ig");
    refused(&mut s, "allied", "fire A/art 43.220 direct-he", "S1.0");
    play(&mut s, "allied", "fire A/art 43.220 indirect-he", &[4]);
    ok(&mut s, "allied", "result none", &[]);
    german_impulse(&mut s);
    ok(&mut s, "german", "move G/1 42.231 41.232", &[]);
    assert!(s.gone.contains(&"A/art".to_owned()));
}

#[test]
fn decision_35_a_unit_s_remembered_transport_goes_with_it_into_a_park_s1_off_the_map_by_a_rout_s3_1_or_across_a_ferry_2_18(
) {
    use order::Transport;
    // S1.0: into the Artillery Park box, which it never leaves.
    let mut s = game("the-best-laid-plans");
    allied_impulse(&mut s, "div-guards");
    play(&mut s, "allied", "park park-guards 41.232", &[]);
    play(&mut s, "allied", "move A/art 41.232 wheeled", &[]);
    assert_eq!(s.vehicles.get("A/art"), Some(&Transport::Wheeled));
    play(&mut s, "allied", "enterpark A/art park-guards", &[]);
    assert!(!s.vehicles.contains_key("A/art"));
    // S3.1: a routed German unit taken off the map to the side of its display.
    let mut s = before_1900("campaign", 18);
    s.time = 3;
    s.phase = Phase::Activation;
    s.offmap.insert("erc-kg-stiller".into(), OffMap::OnMap);
    unit_at(&mut s, "G/st1", Side::German, "30.100");
    s.vehicles.insert("G/st1".into(), Transport::Tracked);
    lose(&mut s, "1/erc-kg-stiller", 1);
    s.cups.insert(Side::Allied, ids(&["rout"]));
    allied_impulse(&mut s, "f-501");
    ok(&mut s, "allied", "fire A/1 30.100 small-arms", &[9]);
    ok(&mut s, "allied", "result none", &[1]);
    ok(&mut s, "german", "rout erc-kg-stiller G/st1", &[]);
    assert!(!s.vehicles.contains_key("G/st1"));
    // 2.18: only Leg Units use a ferry; across, it came into its hex on its legs.
    let mut s = son_demolished();
    allied_impulse(&mut s, "div-101");
    play(&mut s, "allied", "move A/326 56.203 56.202", &[]);
    allied_impulse(&mut s, "div-101");
    play(&mut s, "allied", "tq A/326 ferry son pass 0-6", &[4]);
    play(&mut s, "allied", "move A/x 56.203 56.202 column", &[]);
    s.vehicles.insert("A/x".into(), Transport::Mounted);
    allied_impulse(&mut s, "div-101");
    ok(&mut s, "allied", "ferry A/x son abandon", &[]);
    assert_eq!(s.units["A/x"].hex, hex("56.201"));
    assert!(!s.vehicles.contains_key("A/x"));
}
