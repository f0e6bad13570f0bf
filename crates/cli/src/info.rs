//! `aurum info`: the selected backend, the backends this CPU supports, and the field's
//! throughput on each.

use std::process::ExitCode;
use std::time::Duration;

use aurum_bench::microbench::FieldOp;
use aurum_bench::record::Stats;
use aurum_goldilocks::Backend;

use crate::error::Error;
use crate::flags::checked_backend;

/// Median elements/ns of `op` on `backend`, measuring for about `budget` per run.
fn measure(backend: Backend, op: FieldOp, budget: Duration) -> Result<f64, Error> {
    let (_, rates) = aurum_bench::measure::field_op_rates(backend, op, budget, 5)
        .map_err(|e| Error::Failed(e.to_string()))?;
    Ok(Stats::of(&rates).map_or(0.0, |s| s.median) / 1e9)
}

pub(crate) fn info(budget: Duration) -> Result<ExitCode, Error> {
    let selected = checked_backend()?;
    let supported = Backend::supported();
    println!("backend: {}", selected.describe());
    match (aurum_sve::cpu_has_sve(), aurum_sve::detect()) {
        (_, Some(sve)) => println!(
            "sve: {}, {}-bit vectors ({} lanes); selected by default: {}",
            sve.flavour,
            sve.vector_bits(),
            sve.lanes,
            if aurum_goldilocks::dispatch::sve_preferred() {
                "yes"
            } else {
                "no"
            }
        ),
        (true, None) => println!("sve: the CPU has it, but this build has no SVE kernels"),
        (false, None) => {}
    }
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
    Ok(ExitCode::SUCCESS)
}
