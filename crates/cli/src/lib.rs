#![doc = include_str!("../README.md")]

use std::process::ExitCode;

/// `aurum_merkle::with_preset!`, in scope in every module of this crate.
macro_rules! with_preset {
    ($($args:tt)*) => {
        aurum_merkle::with_preset!($($args)*)
    };
}

pub mod args;
mod bench;
pub mod error;
pub mod files;
mod flags;
pub mod fri;
mod generate;
pub mod hex;
mod info;
pub mod input;
pub mod merkle;
mod progress;
pub mod rejection;
mod report;

/// The Merkle modules at their earlier paths.
pub use merkle::{part, proof, statement};

/// Runs one `aurum` invocation: exit status 0 on success, 1 for a proof that does not verify
/// (`INVALID: REASON` on stdout), 2 for bad arguments or unreadable or malformed input (with a
/// one-line message on stderr). The one place where an [`error::Error`] becomes a message and
/// an exit status.
#[must_use]
pub fn run(cli: args::Cli) -> ExitCode {
    let command = cli.command.unwrap_or(args::Command::Commit(cli.commit));
    // `AURUM_BACKEND`: every command that computes with the kernels (hashes, NTTs, field
    // throughput) refuses an invalid value before it starts (`commit`, `open` and `info` check
    // it themselves, `bench` for its run); those that compute nothing with them ignore it:
    // `gen` (scalar arithmetic only: the same bytes on every backend), `bench compare` and
    // `bench import-insn` (they read records and counts).
    let result = match command {
        args::Command::Commit(args) => merkle::commit(args),
        args::Command::Gen(args) => generate::gen_file(&args),
        args::Command::Open(args) => merkle::open(args),
        args::Command::Verify(args) => flags::checked_backend().and_then(|_| merkle::verify(args)),
        args::Command::Fri(args) => {
            let args::FriArgs { command, prove } = *args;
            match command {
                Some(args::FriCommand::Verify(verify)) => {
                    flags::checked_backend().and_then(|_| fri::verify(verify))
                }
                None => flags::checked_backend().and_then(|backend| fri::prove(prove, backend)),
            }
        }
        args::Command::Bench(args) => bench::command(*args),
        args::Command::Info { millis } => info::info(std::time::Duration::from_millis(millis)),
    };
    match result {
        Ok(code) => code,
        Err(error::Error::Invalid(rejection)) => {
            println!("INVALID: {rejection}");
            ExitCode::from(1)
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(error.exit_status())
        }
    }
}
