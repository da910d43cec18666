//! Components and Counter Symbols: the dice (four d10, decision 1) and the counters as the
//! order of battle reconstructs them.

use despatch_core::rules::where_eagles_dare::data::{Weather, DATA};
use despatch_core::rules::where_eagles_dare::oob::{Class, Oob, OOB};
use despatch_core::rules::where_eagles_dare::state::{Phase, Side};

use super::support::*;

#[test]
fn dice_every_d10_reads_0_to_9_face_10_is_0() {
    let mut s = game("a-ride-in-the-country");
    assert_eq!(s.phase, Phase::Weather);
    ok(&mut s, "allied", "weather", &[10]);
    assert_eq!(s.weather, Some(DATA.weather_for(0)));
    assert_eq!(DATA.weather_for(0), Weather::Clear);
}

#[test]
fn oob_data_sides_divisions_formations_classes_and_flags() {
    // Every formation's chit is a chit of its side and division (chits.txt).
    for f in &OOB.formations {
        if let Some(c) = &f.chit {
            let chit = DATA.chit(c).unwrap_or_else(|| panic!("{}: chit {c}", f.id));
            assert_eq!(chit.side, f.side, "{}", f.id);
            assert_eq!(
                chit.division.as_deref(),
                Some(f.division.as_str()),
                "{}",
                f.id
            );
        }
        assert!(
            DATA.division(&f.division).is_some(),
            "{}: division {}",
            f.id,
            f.division
        );
    }
    // The units the text names, with the facts it gives.
    let u = |id: &str| OOB.unit(id).unwrap_or_else(|| panic!("{id} in the OOB"));
    for b in [
        "11-bridge-re",
        "14-field-sqn-re",
        "128-bridge-re",
        "15-bridge-re",
    ] {
        assert!(u(b).bailey && u(b).engineer, "2.15.7: {b}");
    }
    assert_eq!(OOB.division_of("128-bridge-re"), Some("43rd"));
    assert_eq!(
        DATA.baileys.len(),
        4,
        "the Bailey units are the OOB's bailey flags"
    );
    assert!(DATA.bulldozers.iter().all(|(b, _)| u(b).bulldozer));
    for sc in ["A/2hhc", "B/2hhc", "C/2hhc", "D/2hhc", "101-recon"] {
        assert!(u(sc).self_command, "S6.8: {sc}");
    }
    for i in ["A/44rtr", "B/44rtr", "C/44rtr", "A/15-19krh", "B/15-19krh"] {
        assert_eq!(
            OOB.formation_of(i).map(|f| f.id.as_str()),
            Some("ind-101"),
            "S6.5: {i}"
        );
    }
    assert_eq!(
        OOB.formation_of("A/502").map(|f| f.side),
        Some(Side::Allied)
    );
    assert!(u("A/502").para && u("A/327").glider && u("A/326").engineer);
    assert!(OOB.units.iter().any(|u| u.lost_82nd) && OOB.american("lost82-1"));
    assert!(!OOB.american("A/3ig"));
    // The 88s of the OOB are the flak types S5.4 places face down.
    let n88 = OOB.units.iter().filter(|u| u.flak88).count();
    assert_eq!(n88, DATA.flak_types.iter().filter(|t| *t == "88").count());
    // Every formation with units has a Leader with a Command Range; only Leaders have one.
    for f in &OOB.formations {
        if !["flak", "lost-82nd", "43-eng", "art-101", "art-guards"].contains(&f.id.as_str()) {
            assert!(
                OOB.leaders_of(&f.id).next().is_some(),
                "{} has a Leader",
                f.id
            );
        }
    }
    assert!(OOB
        .units
        .iter()
        .all(|u| u.range.is_some() == (u.class == Class::Leader)));
    assert!(u("ldr-502").telephone && !u("ldr-327").telephone);
    assert_eq!(u("A/3ig").transport.as_deref(), Some("truck"));
    assert_eq!(u("1/2ig").steps, 2);
    // A malformed file is refused, naming the line.
    let e = Oob::parse("formation x allied 101st -\nunit a y infantry 2\n").unwrap_err();
    assert!(e.contains("line 2") && e.contains("no formation y"), "{e}");
    let e = Oob::parse("formation x allied 101st -\nunit a x infantry 2 wings\n").unwrap_err();
    assert!(e.contains("wings"), "{e}");
}
