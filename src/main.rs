//! The `despatch` binary: reads the command line and the config file, starts logging, and hands
//! over to the library.

use std::process::ExitCode;

use clap::Parser;
use despatch::config::EX_CONFIG;

/// The service's allocator: loading a game folds its log through many small, short-lived
/// allocations, which mimalloc serves faster than the system's (BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = despatch::cli::Cli::parse();
    // The config file goes into the environment before the runtime starts its threads.
    let started = match cli.load_config() {
        Ok(()) => despatch::cli::init_logging().map_err(|e| e.to_string()),
        Err(e) => Err(e.to_string()),
    };
    if let Err(why) = started {
        eprintln!("despatch: {why}");
        return ExitCode::from(EX_CONFIG);
    }
    match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime.block_on(despatch::cli::run(cli)),
        Err(e) => {
            eprintln!("despatch: cannot start: {e}");
            ExitCode::from(despatch::config::EX_TEMPFAIL)
        }
    }
}
