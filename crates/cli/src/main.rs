//! `aurum`: Aurum's command-line tool.
//!
//! With no arguments it prints the backend this machine uses and a short table of field
//! throughput per backend (`aurum info`).

use std::process::ExitCode;
use std::time::Duration;

use aurum_goldilocks::microbench::{FieldOp, ThroughputProbe};
use aurum_goldilocks::{Backend, dispatch_on, selected_backend};
use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "aurum",
    version,
    about = "Fast Goldilocks hashing and commitments for STARK provers"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the selected backend and field throughput on every backend this CPU has.
    Info {
        /// Milliseconds to spend per measurement (the median of 5 runs is shown).
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=10_000))]
        millis: u64,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command.unwrap_or(Command::Info { millis: 20 }) {
        Command::Info { millis } => info(Duration::from_millis(millis)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

/// Median elements/ns of `op` on `backend`, measuring for about `budget` per run.
fn measure(backend: Backend, op: FieldOp, budget: Duration) -> Result<f64, String> {
    let run =
        |iters| dispatch_on(backend, ThroughputProbe { op, iters }).map_err(|e| e.to_string());
    // Calibrate the iteration count to the time budget.
    let mut iters = 1u64 << 10;
    loop {
        let t = run(iters)?;
        if t.elapsed >= budget / 4 || iters >= 1 << 40 {
            let scale = budget.as_secs_f64() / t.elapsed.as_secs_f64().max(1e-9);
            iters = ((iters as f64 * scale) as u64).max(1);
            break;
        }
        iters *= 4;
    }
    let mut rates = Vec::with_capacity(5);
    for _ in 0..5 {
        rates.push(run(iters)?.elements_per_ns());
    }
    rates.sort_by(f64::total_cmp);
    Ok(rates[rates.len() / 2])
}

fn info(budget: Duration) -> Result<(), String> {
    let selected =
        selected_backend().map_err(|e| format!("{}: {e}", aurum_goldilocks::BACKEND_ENV))?;
    let supported = Backend::supported();
    println!("backend: {selected} ({} lanes)", selected.lanes());
    let names: Vec<&str> = supported.iter().map(|b| b.name()).collect();
    println!("supported here: {}", names.join(", "));
    println!("threads: {}", rayon::current_num_threads());
    println!();
    println!("field throughput, elements per ns (single thread, median of 5):");
    print!("{:<8}", "backend");
    for op in FieldOp::ALL {
        print!("{:>10}", op.name());
    }
    println!("{:>16}", "mul vs scalar");
    let scalar_mul = measure(Backend::Scalar, FieldOp::Mul, budget)?;
    for backend in supported {
        print!("{:<8}", backend.name());
        let mut mul = 0.0;
        for op in FieldOp::ALL {
            let rate = measure(backend, op, budget)?;
            if op == FieldOp::Mul {
                mul = rate;
            }
            print!("{rate:>10.3}");
        }
        println!("{:>15.2}x", mul / scalar_mul);
    }
    Ok(())
}
