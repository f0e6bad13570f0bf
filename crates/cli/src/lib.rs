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
mod commands;
#[cfg(feature = "mpi")]
mod distributed;
pub mod files;
pub mod fri;
pub mod hex;
pub mod input;
pub mod part;
mod progress;
pub mod proof;
mod report;
pub mod statement;

/// Runs one `aurum` invocation: exit status 0 on success, 1 for a proof that does not verify,
/// 2 for bad arguments or unreadable or malformed input (with a one-line message on stderr).
#[must_use]
pub fn run(cli: args::Cli) -> ExitCode {
    let command = cli.command.unwrap_or(args::Command::Commit(cli.commit));
    // `AURUM_BACKEND`: every command that computes with the kernels (hashes, NTTs, field
    // throughput) refuses an invalid value before it starts (`commit`, `open` and `info` check
    // it themselves, `bench` for its run); those that compute nothing with them ignore it:
    // `gen` (scalar arithmetic only: the same bytes on every backend), `bench compare` and
    // `bench import-insn` (they read records and counts).
    let result = match command {
        args::Command::Commit(args) => commands::commit(args),
        args::Command::Gen(args) => commands::gen_file(&args),
        args::Command::Open(args) => commands::open(args),
        args::Command::Verify(args) => {
            commands::checked_backend().and_then(|_| commands::verify(args))
        }
        args::Command::Fri(args) => {
            let args::FriArgs { command, prove } = *args;
            match command {
                Some(args::FriCommand::Verify(verify)) => {
                    commands::checked_backend().and_then(|_| fri::verify(verify))
                }
                None => commands::checked_backend().and_then(|backend| fri::prove(prove, backend)),
            }
        }
        args::Command::Bench(args) => bench::command(*args),
        args::Command::Info { millis } => commands::info(std::time::Duration::from_millis(millis)),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}
