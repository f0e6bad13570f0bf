//! `aurum`: Merkle commitments over Goldilocks from the command line.
//!
//! With no arguments it commits a seeded pseudo-random 2^20 × 8 matrix with the
//! `poseidon2-w8` preset and reports the root, the time and the throughput (`aurum commit`).

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    aurum_cli::files::remove_partial_outputs_on_interrupt();
    aurum_cli::files::exit_quietly_when_stdout_closes();
    aurum_cli::run(aurum_cli::args::Cli::parse())
}
