//! `aurum info`: the selected backend, the backends this CPU supports, the batch sizes the
//! permutations measured fastest here, and the field's throughput on each backend.

use std::process::ExitCode;
use std::time::Duration;

use aurum_bench::microbench::FieldOp;
use aurum_bench::record::Stats;
use aurum_goldilocks::Backend;
use aurum_poseidon::Poseidon;
use aurum_poseidon2::Poseidon2Goldilocks;
use aurum_symmetric::{BATCH_ENV, BATCH_SIZES, BatchChoice, Permutation};

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
    println!(
        "large buffers: huge pages {} ({})",
        aurum_goldilocks::raw::huge_pages(),
        aurum_goldilocks::raw::HUGE_PAGES_ENV
    );
    device()?;
    println!();
    batch_sizes(selected);
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

/// The `device:` line: what `AURUM_DEVICE` selects and the GPU (opened, its kernels compiled),
/// or why there is none.
fn device() -> Result<(), Error> {
    let choice = crate::flags::checked_device()?;
    let env = aurum_cuda::DEVICE_ENV;
    if choice == aurum_cuda::DeviceChoice::Cpu {
        println!("device: cpu ({env}=cpu)");
        return Ok(());
    }
    match aurum_cuda::Gpu::shared() {
        Ok(gpu) => {
            println!(
                "device: {choice} ({env}); GPU: {}; commitments from {} elements on run on it \
                 under auto",
                gpu.info(),
                aurum_cuda::AUTO_MIN_ELEMENTS
            );
            // A group of kernels that failed its known-answer check: its jobs stay on the CPU
            // under auto and are this error under cuda.
            for refused in gpu.refused() {
                println!("device refused: {refused}");
            }
        }
        Err(e) if choice == aurum_cuda::DeviceChoice::Cuda => {
            return Err(Error::Backend(format!("{env}=cuda: {e}")));
        }
        Err(e) => println!("device: cpu ({env}=auto; no GPU: {e})"),
    }
    Ok(())
}

/// The batch size each permutation's bulk calls use on `backend`, and how it was decided:
/// measured at first use (this process measures them now), or forced by `AURUM_BATCH`.
fn batch_sizes(backend: Backend) {
    println!(
        "batch sizes on {backend} (measured at first use in each process, fastest kept, \
         checked once more 200 ms later in longer runs; {BATCH_ENV} forces one):"
    );
    print!("{:<24}{:>7}", "permutation", "batch");
    for b in BATCH_SIZES {
        print!("{:>12}", format!("B={b} ns/st"));
    }
    println!("{:>10}", "took");
    batch_row("poseidon2-w8", &Poseidon2Goldilocks::<8>::new(), backend);
    batch_row("poseidon2-w12", &Poseidon2Goldilocks::<12>::new(), backend);
    batch_row("poseidon2-w16", &Poseidon2Goldilocks::<16>::new(), backend);
    batch_row("poseidon (plonky2) w12", &Poseidon::new(), backend);
    let single = Poseidon::new().single_state_backend();
    println!(
        "one state at a time (latency): poseidon (plonky2) w12 runs on {single}{}",
        if single == Backend::Scalar {
            ""
        } else {
            ", its 12 words across vector registers"
        }
    );
}

fn batch_row<Perm: Permutation<W> + 'static, const W: usize>(
    name: &str,
    perm: &Perm,
    backend: Backend,
) {
    print!("{name:<24}");
    if perm.state_kernel(backend).is_some() {
        println!("{:>7}  (its own {backend} kernel: no batches)", "-");
        return;
    }
    let batch = perm.batch_size(backend);
    let Some(m) = BatchChoice::of::<Perm>().decided(backend) else {
        println!("{batch:>7}");
        return;
    };
    print!("{batch:>7}");
    if m.forced {
        println!("  (forced by {BATCH_ENV})");
        return;
    }
    for ns in m.ns_per_state {
        print!("{ns:>12.0}");
    }
    println!("{:>8.2} ms", m.took.as_secs_f64() * 1e3);
}
