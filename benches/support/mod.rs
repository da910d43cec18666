//! What the benchmarks share: for the PostgreSQL ones (`store_append`, `http_moves`), pgbench's
//! raw INSERT rate as the baseline measured in the same run, latencies' percentiles, and a
//! database URL of the run's own; for the fold's (`fold`, `verify_process`), a long game
//! (`long_game`). Each bench includes it with `mod support;`.

// Each bench uses only some of it.
#![allow(dead_code)]

pub mod long_game;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// A rate and its latencies.
pub struct Measured {
    pub per_second: f64,
    pub p50: Duration,
    pub p99: Duration,
}

/// Runs pgbench with `clients` clients; rate from its summary, latencies from its per-transaction
/// log.
pub fn pgbench(
    url: &str,
    script: &Path,
    clients: usize,
    seconds: u64,
    work: &Path,
    round: usize,
) -> Measured {
    let prefix = work.join(format!("pgbench-{clients}-{round}"));
    let out = Command::new("pgbench")
        .args(["-n", "-M", "prepared", "-l", "--log-prefix"])
        .arg(&prefix)
        .arg("-f")
        .arg(script)
        .args([
            "-c",
            &clients.to_string(),
            "-j",
            &clients.min(cpus()).to_string(),
            "-T",
            &seconds.to_string(),
        ])
        .arg(url)
        .output()
        .expect("run pgbench (apt-get install postgresql-client)");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "pgbench failed: {}{}",
        report,
        String::from_utf8_lossy(&out.stderr)
    );
    let tps = report
        .lines()
        .find_map(|line| line.strip_prefix("tps = "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no tps in pgbench's report:\n{report}"));
    // Log lines: client_id transaction_no latency_us script_no epoch epoch_us.
    // Files are named `<prefix>.<pid>` and `<prefix>.<pid>.<thread>`.
    let log_name = format!("pgbench-{clients}-{round}.");
    let mut latencies = Vec::new();
    for entry in std::fs::read_dir(work).unwrap().flatten() {
        let file = entry.path();
        if entry.file_name().to_string_lossy().starts_with(&log_name) {
            for line in std::fs::read_to_string(&file).unwrap().lines() {
                if let Some(us) = line
                    .split_whitespace()
                    .nth(2)
                    .and_then(|n| n.parse::<u64>().ok())
                {
                    latencies.push(Duration::from_micros(us));
                }
            }
        }
    }
    let (p50, p99) = percentiles(&mut latencies);
    Measured {
        per_second: tps,
        p50,
        p99,
    }
}

pub fn percentiles(latencies: &mut [Duration]) -> (Duration, Duration) {
    assert!(!latencies.is_empty(), "nothing was measured");
    latencies.sort_unstable();
    let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q).round() as usize];
    (at(0.50), at(0.99))
}

pub fn cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A port nothing listens on now (bound, then released).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `admin_url` with its database name replaced by `name`.
pub fn with_database(admin_url: &str, name: &str) -> String {
    let (base, query) = match admin_url.split_once('?') {
        Some((base, query)) => (base, format!("?{query}")),
        None => (admin_url, String::new()),
    };
    let after_scheme = base.find("://").map_or(0, |i| i + 3);
    let host_part = match base[after_scheme..].find('/') {
        Some(slash) => &base[..after_scheme + slash],
        None => base,
    };
    format!("{host_part}/{name}{query}")
}
