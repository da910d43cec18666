//! Makes the golden logs of the rules versions this build gives new games
//! (tests/golden/<ruleset>/v<version>/; see `engine::golden`).
//!
//! `cargo run -p despatch-core --release --example golden_logs [ruleset …]`
//!
//! Run it once when a ruleset's version is raised, and commit what it writes. A released
//! version's corpus is never remade: it is what every later build is checked against.

use std::path::PathBuf;

use despatch_core::engine::golden;
use despatch_core::engine::ruleset::{ScenarioInfo, Seat, SeatDef};
use despatch_core::rules;

/// Who sits at a golden game: Searching for Glory's scenarios list every commander, of whom a
/// game seats three to six; three of each side's, as its bot tests seat them. The open table
/// calls seats by their players' names (version 2): names that are not their ids, as the lobby
/// makes them (李雷 has no letter an id takes, and sits as `seat-2`).
fn seats(ruleset: &str, scenario: &ScenarioInfo) -> Vec<SeatDef> {
    if ruleset == "open-table" {
        return [("alice", "Alice Ångström"), ("seat-2", "李雷")]
            .iter()
            .map(|(seat, name)| SeatDef {
                seat: Seat::parse(seat).expect("a seat id"),
                name: (*name).to_owned(),
            })
            .collect();
    }
    let ids: &[&str] = match (ruleset, scenario.id.as_str()) {
        ("searching-for-glory", "danube-1809-berthier") => &["lannes", "hiller", "louis"],
        ("searching-for-glory", _) => &["napoleon", "davout", "charles"],
        _ => return golden::default_seats(scenario),
    };
    SeatDef::named_by_id(ids).expect("seat ids")
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/golden");
    let wanted: Vec<String> = std::env::args().skip(1).collect();
    for ruleset in rules::all() {
        let info = ruleset.info();
        if !wanted.is_empty() && !wanted.contains(&info.id) {
            continue;
        }
        let dir = golden::folder(&root, &info.id, &info.version);
        if dir.exists() && wanted.is_empty() {
            println!(
                "{}: kept as it is (name the ruleset to remake it)",
                dir.display()
            );
            continue;
        }
        match golden::make(&ruleset, &root, &|s| seats(&info.id, s)) {
            Ok(files) => println!("{}: {} files", dir.display(), files.len()),
            Err(e) => {
                eprintln!("{}: {e}", info.id);
                std::process::exit(1);
            }
        }
    }
}
