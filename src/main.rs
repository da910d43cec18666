//! The `despatch` binary: reads the command line, starts logging, and hands over to the library.

use std::process::ExitCode;

use clap::Parser;

/// The service's allocator: loading a game folds its log through many small, short-lived
/// allocations, which mimalloc serves faster than the system's (BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> ExitCode {
    despatch::cli::init_logging();
    despatch::cli::run(despatch::cli::Cli::parse()).await
}
