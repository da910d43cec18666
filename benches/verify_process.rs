//! `despatch verify` as a player runs it: the whole process — start, read the file, parse every
//! line, fold every event with every check, print the report — timed from outside on an export of
//! a 10,000-event open-table game (every move a line of text and a `2d6` roll, so every event
//! carries dice). Issue 16 asks for this figure in events/s; the in-memory fold benches cannot
//! give it, since they fold events already parsed.
//!
//! ```text
//! cargo build --profile dist --bin despatch
//! cargo bench --bench verify_process
//! cargo bench --bench verify_process -- old/despatch target/dist/despatch
//! ```
//! With no binary named, it times `target/dist/despatch`, the build that is shipped (or `DESPATCH_BENCH_BIN`). With
//! several, it runs them in turn, round after round, so that each figure meets the same load:
//! that is how two builds are compared. `DESPATCH_BENCH_EVENTS` (default 10,000) sets the game's
//! length, `DESPATCH_BENCH_RUNS` (default 21) the timed runs of each binary, after one untimed.
//! The export is written to a temporary file, removed at the end. The load average is printed
//! before and after: read figures of one run against each other.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use despatch::engine::export::{self, Header};

mod support;

/// The service's allocator (src/main.rs).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let events_wanted = env_number("DESPATCH_BENCH_EVENTS", 10_000);
    let runs = env_number("DESPATCH_BENCH_RUNS", 21).max(1);
    let binaries = binaries();

    let file = tempfile::NamedTempFile::new().expect("a temporary file");
    let events = write_export(events_wanted, file.path());
    println!(
        "export: {events} events, {} bytes, {}",
        std::fs::metadata(file.path()).map_or(0, |m| m.len()),
        file.path().display()
    );
    println!("load average before: {}", load());

    // One untimed run each: the file and the binary in the page cache, and a check that the
    // export verifies (a verify that stops early would time nothing worth reading).
    for bin in &binaries {
        run_verify(bin, file.path());
    }
    let mut times: Vec<Vec<Duration>> = vec![Vec::with_capacity(runs); binaries.len()];
    for _ in 0..runs {
        for (bin, times) in binaries.iter().zip(&mut times) {
            times.push(run_verify(bin, file.path()));
        }
    }
    println!("load average after: {}", load());
    for (bin, mut times) in binaries.iter().zip(times) {
        times.sort();
        let median = times[times.len() / 2];
        println!(
            "{}: median {:.2} ms (min {:.2}, max {:.2}; {} runs): {:.0} events/s",
            bin.display(),
            ms(median),
            ms(times[0]),
            ms(times[times.len() - 1]),
            times.len(),
            events as f64 / median.as_secs_f64()
        );
    }
}

/// The binaries named on the command line (cargo's own `--bench` flag skipped), else one.
fn binaries() -> Vec<PathBuf> {
    let named: Vec<PathBuf> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .map(PathBuf::from)
        .collect();
    let binaries = if named.is_empty() {
        vec![std::env::var_os("DESPATCH_BENCH_BIN")
            .map_or_else(|| PathBuf::from("target/dist/despatch"), PathBuf::from)]
    } else {
        named
    };
    for bin in &binaries {
        assert!(
            bin.is_file(),
            "{} is not there: build it with `cargo build --profile dist --bin despatch`, or name \
             the binary to time",
            bin.display()
        );
    }
    binaries
}

/// Plays a long open-table game through the real move path (`support::long_game`) and writes
/// its spectator's export to `path`. Returns the number of events.
fn write_export(events_wanted: usize, path: &Path) -> usize {
    let support::long_game::LongGame { game, events, .. } =
        support::long_game::open_table("bench-verify", events_wanted);
    let header = Header {
        format: export::FORMAT.into(),
        version: export::VERSION,
        game_id: game.game_id.clone(),
        ruleset: game.created.ruleset.clone(),
        ruleset_version: game.created.ruleset_version.clone(),
        exported_at: "2026-11-24T00:00:00.000Z".into(),
        complete: game.ended,
        redacted_for: (!game.ended).then(|| "spectator".into()),
        events: events.len() as u64,
    };
    std::fs::write(path, export::write(&header, &events)).expect("write the export");
    events.len()
}

/// Runs `bin verify file` once and times it; panics with its output unless it verified.
fn run_verify(bin: &Path, file: &Path) -> Duration {
    let started = Instant::now();
    let out = Command::new(bin)
        .arg("verify")
        .arg(file)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin.display()));
    let took = started.elapsed();
    assert!(
        out.status.success(),
        "{} verify failed ({}):\n{}{}",
        bin.display(),
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    took
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}
