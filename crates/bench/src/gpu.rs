//! The GPU's figures, where `aurum bench` runs with a GPU (`AURUM_DEVICE`): permutation rates
//! on device-resident states, Merkle commitments (the kernels alone, and host matrix → root
//! with the copies), and coset LDEs (the kernels alone, and host → host), at the suite's sizes
//! so that they stand beside the CPU's figures of the same ids' shapes. Their statistics are
//! the record's `all_threads` values (the whole device), with no one-thread value. A group of
//! kernels the device's known-answer check refused is not measured: the record names it.

use std::time::{Duration, Instant};

use aurum_cuda::{
    Gpu, GpuKernel, GpuPermutation, commit_on_device, coset_lde_timed, hash_resident,
};
use aurum_goldilocks::Goldilocks;
use aurum_merkle::Matrix;
use aurum_ntt::{Domain, Order};

use crate::BenchError;
use crate::host::Host;
use crate::record::{Figure, GpuDevice, Stats, Unit};
use crate::suite::Plan;

/// States permuted per launch (each `ROUNDS` times): enough to fill any current GPU.
const STATES: usize = 1 << 22;
/// Permutations of each state per launch, so that memory traffic is negligible.
const ROUNDS: u32 = 16;

/// The record's description of `gpu`.
pub(crate) fn device(gpu: &Gpu) -> GpuDevice {
    let info = gpu.info();
    GpuDevice {
        name: info.name.clone(),
        memory_bytes: info.memory as u64,
        multiprocessors: info.multiprocessors,
        compute_capability: format!(
            "{}.{}",
            info.compute_capability.0, info.compute_capability.1
        ),
        refused: gpu.refused().iter().map(ToString::to_string).collect(),
    }
}

fn failed(what: &str, e: &dyn std::fmt::Display) -> BenchError {
    BenchError::Measurement(format!("GPU {what}: {e}"))
}

fn figure(id: String, name: String, unit: Unit, samples: &[f64]) -> Result<Figure, BenchError> {
    let stats = Stats::of(samples).ok_or_else(|| failed(&name, &"no finite measurement"))?;
    Ok(Figure {
        id,
        name,
        unit,
        detail: false,
        one_thread: None,
        all_threads: Some(stats),
        scaling: None,
    })
}

fn seconds(times: &[Duration]) -> Vec<f64> {
    times.iter().map(Duration::as_secs_f64).collect()
}

/// Every GPU figure of `plan` on `gpu`.
pub(crate) fn figures<H: Host>(
    host: &H,
    plan: &Plan,
    gpu: &Gpu,
) -> Result<Vec<Figure>, BenchError> {
    let repetitions = plan.repetitions;
    let mut out = Vec::new();
    let states = if plan.states < 1024 { 1 << 12 } else { STATES };
    let usable = |kernel| gpu.kernel_usable(kernel).is_ok();
    for perm in GpuPermutation::ALL {
        if !usable(GpuKernel::Permutation(perm)) {
            continue;
        }
        let rates = gpu
            .permutation_rates(perm, states, ROUNDS, repetitions)
            .map_err(|e| failed("permutations", &e))?;
        let name = match perm {
            GpuPermutation::Poseidon => "poseidon-w12",
            other => other.name(),
        };
        out.push(figure(
            format!("gpu/perm/{name}"),
            format!("GPU permutations, {}", perm.name()),
            Unit::PermutationsPerSecond,
            &rates,
        )?);
    }
    for &(preset, log_rows, cols) in &plan.merkle {
        if !usable(GpuKernel::Tree(preset)) {
            continue;
        }
        let values = host.random_matrix(1 << log_rows, cols, 0)?;
        let matrix = Matrix::new(&values, cols).map_err(|e| failed("matrix", &e))?;
        let shape = format!("2^{log_rows}x{cols}");
        let mut kernels = Vec::new();
        let mut to_root = Vec::new();
        for _ in 0..repetitions {
            let (_, t) =
                hash_resident(gpu, preset, &[matrix]).map_err(|e| failed("commitment", &e))?;
            kernels.push(t);
            let start = Instant::now();
            let tree =
                commit_on_device(gpu, preset, &[matrix]).map_err(|e| failed("commitment", &e))?;
            tree.root().map_err(|e| failed("commitment", &e))?;
            to_root.push(start.elapsed());
        }
        out.push(figure(
            format!("gpu/merkle/{preset}/{shape}/kernels"),
            format!("GPU Merkle commit {shape} {preset}, kernels (input on the device)"),
            Unit::Seconds,
            &seconds(&kernels),
        )?);
        out.push(figure(
            format!("gpu/merkle/{preset}/{shape}/host-to-root"),
            format!("GPU Merkle commit {shape} {preset}, host matrix to root (copies overlapped)"),
            Unit::Seconds,
            &seconds(&to_root),
        )?);
    }
    let shift = Domain::PLONKY3.shift();
    let ldes: &[_] = if usable(GpuKernel::Lde) {
        &plan.lde
    } else {
        &[]
    };
    for &(log_rows, cols) in ldes {
        let values: Vec<Goldilocks> = host.random_matrix(1 << log_rows, cols, 0)?;
        let shape = format!("2^{log_rows}x{cols}");
        let mut kernels = Vec::new();
        let mut host_to_host = Vec::new();
        for _ in 0..repetitions {
            let start = Instant::now();
            let (lde, timings) = coset_lde_timed(
                gpu,
                Domain::PLONKY3,
                &values,
                cols,
                1,
                shift,
                Order::BitReversed,
            )
            .map_err(|e| failed("LDE", &e))?;
            lde.to_host().map_err(|e| failed("LDE", &e))?;
            host_to_host.push(start.elapsed());
            kernels.push(timings.transform);
        }
        out.push(figure(
            format!("gpu/lde/{shape}/kernels"),
            format!("GPU coset LDE {shape} by 2, kernels (input on the device)"),
            Unit::Seconds,
            &seconds(&kernels),
        )?);
        out.push(figure(
            format!("gpu/lde/{shape}/host-to-host"),
            format!("GPU coset LDE {shape} by 2, host to host"),
            Unit::Seconds,
            &seconds(&host_to_host),
        )?);
    }
    Ok(out)
}
