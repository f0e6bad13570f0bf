//! Permutations of many states on the GPU: the throughput `aurum bench` reports, and the
//! permutation tests.

use std::time::Duration;

use aurum_goldilocks::Goldilocks;

use crate::error::CudaError;
use crate::gpu::Gpu;
use crate::parts::{GpuKernel, GpuPermutation};

/// A measured permutation rate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PermutationRate {
    /// Permutations per second (the median repetition).
    pub per_second: f64,
    /// The slowest and fastest repetitions' rates.
    pub range: (f64, f64),
}

impl Gpu {
    /// Permutes each state of `states` (consecutive groups of `perm.width()` elements) once:
    /// the same results as the CPU's permutation. A length that is not a whole number of
    /// states is left unchanged and reported.
    pub fn permute(
        &self,
        perm: GpuPermutation,
        states: &mut [Goldilocks],
    ) -> Result<(), CudaError> {
        let width = perm.width();
        if !states.len().is_multiple_of(width) {
            return Err(CudaError::NotWholeStates {
                len: states.len(),
                width,
            });
        }
        self.kernel_usable(GpuKernel::Permutation(perm))?;
        let count = states.len() / width;
        let words = aurum_goldilocks::raw::words(states);
        let mut buffer = self.device.upload(words)?;
        self.device
            .permute(perm.kernel(), width, &mut buffer, count, 1)?;
        let out = self.device.download(&buffer, states.len())?;
        for (s, w) in states.iter_mut().zip(out) {
            *s = Goldilocks::from_u64(w);
        }
        Ok(())
    }

    /// The rate of `perm` on `states` device-resident states, each permuted `rounds` times per
    /// launch (so the memory traffic is negligible), median of `repeats` launches after one
    /// warm-up.
    pub fn permutation_rate(
        &self,
        perm: GpuPermutation,
        states: usize,
        rounds: u32,
        repeats: usize,
    ) -> Result<PermutationRate, CudaError> {
        let mut rates = self.permutation_rates(perm, states, rounds, repeats)?;
        rates.sort_by(f64::total_cmp);
        Ok(PermutationRate {
            per_second: rates[rates.len() / 2],
            range: (rates[0], rates[rates.len() - 1]),
        })
    }

    /// The rate of each of `repeats` (at least one) launches of [`Gpu::permutation_rate`]'s
    /// measurement, in permutations per second.
    pub fn permutation_rates(
        &self,
        perm: GpuPermutation,
        states: usize,
        rounds: u32,
        repeats: usize,
    ) -> Result<Vec<f64>, CudaError> {
        self.kernel_usable(GpuKernel::Permutation(perm))?;
        let width = perm.width();
        let values: Vec<u64> = (0..states * width)
            .map(|i| (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) % aurum_goldilocks::P)
            .collect();
        let mut buffer = self.device.upload(&values)?;
        let mut run = || -> Result<Duration, CudaError> {
            let ((), t) = self.device.timed(|| {
                self.device
                    .permute(perm.kernel(), width, &mut buffer, states, rounds)
            })?;
            Ok(t)
        };
        run()?;
        let mut rates = Vec::with_capacity(repeats.max(1));
        for _ in 0..repeats.max(1) {
            let t = run()?;
            rates.push((states as f64 * f64::from(rounds)) / t.as_secs_f64());
        }
        Ok(rates)
    }
}
