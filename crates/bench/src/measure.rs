//! Timing loops shared by `aurum info` and `aurum bench`: find an iteration count that fills
//! a time budget, then repeat.

use std::time::Duration;

use aurum_goldilocks::{Backend, dispatch_on};

use crate::BenchError;
use crate::microbench::{FieldOp, ThroughputProbe};

/// The most iterations a calibrated run may have (a loop that takes no time stops here).
const MAX_ITERS: u64 = 1 << 40;

/// An iteration count for which one `run(iters)` lasts about `budget`: multiplies the count
/// by 4 from `first` until a run lasts a quarter of the budget, then scales it. `run` returns
/// the time the iterations took.
///
/// # Errors
/// The first error of `run`.
pub fn calibrate<E>(
    budget: Duration,
    first: u64,
    mut run: impl FnMut(u64) -> Result<Duration, E>,
) -> Result<u64, E> {
    let mut iters = first.max(1);
    loop {
        let elapsed = run(iters)?;
        if elapsed >= budget / 4 || iters >= MAX_ITERS {
            let scale = budget.as_secs_f64() / elapsed.as_secs_f64().max(1e-9);
            return Ok(((iters as f64 * scale) as u64).clamp(1, MAX_ITERS));
        }
        iters = iters.saturating_mul(4);
    }
}

/// Work per second of `repetitions` runs of `iters` iterations; `run` returns the time taken
/// and the work done.
///
/// # Errors
/// The first error of `run`.
pub fn rates<E>(
    repetitions: usize,
    iters: u64,
    mut run: impl FnMut(u64) -> Result<(Duration, f64), E>,
) -> Result<Vec<f64>, E> {
    (0..repetitions)
        .map(|_| {
            let (elapsed, work) = run(iters)?;
            Ok(work / elapsed.as_secs_f64().max(1e-9))
        })
        .collect()
}

/// Goldilocks `op` throughput on `backend`, one thread ([`ThroughputProbe`]): the calibrated
/// iteration count and the elements per second of each repetition.
///
/// # Errors
/// This CPU cannot run `backend`.
pub fn field_op_rates(
    backend: Backend,
    op: FieldOp,
    budget: Duration,
    repetitions: usize,
) -> Result<(u64, Vec<f64>), BenchError> {
    let probe = |iters| {
        dispatch_on(backend, ThroughputProbe { op, iters })
            .map_err(|e| BenchError::Measurement(e.to_string()))
    };
    // Each iteration is a few nanoseconds: start at 1024.
    let iters = calibrate(budget, 1 << 10, |iters| probe(iters).map(|t| t.elapsed))?;
    let rates = rates(repetitions, iters, |iters| {
        probe(iters).map(|t| (t.elapsed, t.elements as f64))
    })?;
    Ok((iters, rates))
}
