//! S2.0 Road Blocks and Rearguards.

use despatch_core::rules::where_eagles_dare::data::DATA;
use despatch_core::rules::where_eagles_dare::state::Side;

use super::support::*;

#[test]
fn road_blocks_and_rearguards_s2_the_counter_mix_and_never_by_a_bridge_2_15_2() {
    let mut s = game("the-best-laid-plans");
    german_impulse(&mut s);
    refused(&mut s, "german", "roadblock 56.201", "2.15.2");
    let limit = DATA.counter_mix("roadblock", Side::German);
    for i in 0..limit {
        ok(&mut s, "german", &format!("roadblock 30.{}", 100 + i), &[]);
    }
    let e = refused(&mut s, "german", "roadblock 30.150", "S2.0");
    assert!(e.message.contains("counter mix"), "{e}");
    ok(&mut s, "german", "roadblock 30.100 remove", &[]);
    ok(&mut s, "german", "roadblock 30.150", &[]);
    let limit = DATA.counter_mix("rearguard", Side::German);
    for i in 0..limit {
        ok(
            &mut s,
            "german",
            &format!("rearguard G/rg{i} 31.{}", 100 + i),
            &[],
        );
    }
    refused(&mut s, "german", "rearguard G/rgx 31.150", "S2.0");
}
