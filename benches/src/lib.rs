//! Criterion benchmarks for Aurum (see `benches/`) and `bench-table`, which prints their
//! medians side by side with the peer libraries and the ratios; and the pieces the benches
//! and examples share.

use std::hint::black_box;
use std::time::{Duration, Instant};

use aurum_goldilocks::{Backend, BackendError, Goldilocks, Kernel, PackedField, dispatch_on};
use aurum_symmetric::Permutation;

/// The benchmark input element `i` (full-width values, some of them non-canonical).
#[must_use]
pub fn seed(i: usize) -> Goldilocks {
    Goldilocks::from_u64(0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1))
}

/// Permutes `B` packed states `iters` times in place, kept in registers/arrays (no packing or
/// transposition): the permutation's own throughput.
struct PackedProbe<'a, Perm, const W: usize, const B: usize> {
    perm: &'a Perm,
    iters: u64,
}

impl<Perm: Permutation<W>, const W: usize, const B: usize> Kernel for PackedProbe<'_, Perm, W, B> {
    type Output = Duration;

    #[inline(always)]
    fn run<P: PackedField>(self) -> Duration {
        let mut states: [[P; W]; B] = core::array::from_fn(|b| {
            core::array::from_fn(|i| P::from_fn(|lane| seed((b * 8 + lane) * W + i)))
        });
        let start = Instant::now();
        for _ in 0..self.iters {
            self.perm.permute_batch::<P, B>(&mut states);
        }
        let elapsed = start.elapsed();
        black_box(&states);
        elapsed
    }
}

/// The time of `iters` rounds of `batch` packed states (`batch ∈ {1, 2, 4}`, anything else
/// runs 1) permuted on `backend`: `iters · batch · backend.lanes()` permutations.
///
/// # Errors
/// When this CPU cannot run `backend`.
pub fn time_packed<Perm: Permutation<W>, const W: usize>(
    perm: &Perm,
    backend: Backend,
    batch: usize,
    iters: u64,
) -> Result<Duration, BackendError> {
    match batch {
        4 => dispatch_on(backend, PackedProbe::<Perm, W, 4> { perm, iters }),
        2 => dispatch_on(backend, PackedProbe::<Perm, W, 2> { perm, iters }),
        _ => dispatch_on(backend, PackedProbe::<Perm, W, 1> { perm, iters }),
    }
}

/// User + system CPU time of this process in milliseconds (Linux; 0 elsewhere): what the
/// noise-tolerant comparisons (`ntt_quick`, `p3_commit_quick`, `fri`) report next to wall
/// time, since other processes on a shared machine disturb it much less.
#[must_use]
pub fn process_cpu_ms() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the parenthesised command name; utime and stime are the 14th and 15th.
    let rest = stat.rsplit(')').next().unwrap_or("");
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let field = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (field(11) + field(12)) * 10.0 // USER_HZ = 100 on Linux
}
