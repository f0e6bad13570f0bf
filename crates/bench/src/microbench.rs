//! Field-arithmetic throughput and latency probes, shared by the criterion benchmarks and
//! the `aurum` CLI's backend table so both measure exactly the same loop.
//!
//! *Throughput*: [`LANES_IN_FLIGHT`] independent packed accumulators, each updated
//! `iters` times (`acc = acc ∘ c`), so the loop is bound by instruction throughput.
//! *Latency*: one accumulator, so every operation waits for the previous one.

use std::hint::black_box;
use std::time::{Duration, Instant};

use aurum_goldilocks::{Goldilocks, Kernel, PackedField};

/// Independent accumulators in the throughput loop (enough to cover the latency of a
/// packed multiplication on current x86 and Arm cores).
pub const LANES_IN_FLIGHT: usize = 8;
const _: () = assert!(LANES_IN_FLIGHT == 8, "the probe loop is spelled out for 8");

/// The operation being measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FieldOp {
    /// `acc · c`
    Mul,
    /// `acc + c`
    Add,
    /// `acc²`
    Square,
}

impl FieldOp {
    /// All probed operations.
    pub const ALL: [FieldOp; 3] = [FieldOp::Mul, FieldOp::Add, FieldOp::Square];

    /// Short name for tables and benchmark ids.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            FieldOp::Mul => "mul",
            FieldOp::Add => "add",
            FieldOp::Square => "square",
        }
    }
}

/// A timed run: wall time and a value derived from every accumulator (so the work cannot be
/// optimised away).
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// Time for the whole loop.
    pub elapsed: Duration,
    /// Field elements processed (`iters × accumulators × WIDTH`).
    pub elements: u64,
    /// Sum of the final accumulators.
    pub checksum: Goldilocks,
}

impl Timing {
    /// Elements per nanosecond.
    #[must_use]
    pub fn elements_per_ns(&self) -> f64 {
        self.elements as f64 / self.elapsed.as_nanos().max(1) as f64
    }
}

fn seed(i: usize) -> Goldilocks {
    // Arbitrary full-width values (deliberately including non-canonical ones).
    Goldilocks::from_u64(
        0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1) ^ 0xFFFF_FFFF_0000_0000,
    )
}

/// The loop of [`ThroughputProbe`], for any packed type `$ty` (the criterion benchmarks run
/// it on Plonky3's packing too): `$iters` rounds of `$acc[j] = $acc[j] ∘ $c[j]` over
/// [`LANES_IN_FLIGHT`] independent accumulators (arrays of `$ty` named `$acc` and `$c`), for
/// the [`FieldOp`] `$op`; `square` must be in scope for `$ty`. A macro, so that the loop is
/// compiled in the caller's own body, inside its backend's target features.
#[macro_export]
macro_rules! throughput_loop {
    ($op:expr, $acc:ident, $c:ident, $iters:expr, $ty:ty) => {
        match $op {
            $crate::microbench::FieldOp::Mul => {
                $crate::eight_chains!($acc, $c, $iters, |a: $ty, c: $ty| a * c)
            }
            $crate::microbench::FieldOp::Add => {
                $crate::eight_chains!($acc, $c, $iters, |a: $ty, c: $ty| a + c)
            }
            $crate::microbench::FieldOp::Square => {
                $crate::eight_chains!($acc, $c, $iters, |a: $ty, _: $ty| a.square())
            }
        }
    };
}

/// [`throughput_loop!`]'s rounds: spelled out per accumulator (not a loop over `j`) so that
/// every build keeps the eight accumulators in registers rather than round-tripping them
/// through memory.
#[doc(hidden)]
#[macro_export]
macro_rules! eight_chains {
    ($acc:ident, $c:ident, $iters:expr, $body:expr) => {
        for _ in 0..$iters {
            $acc[0] = $body($acc[0], $c[0]);
            $acc[1] = $body($acc[1], $c[1]);
            $acc[2] = $body($acc[2], $c[2]);
            $acc[3] = $body($acc[3], $c[3]);
            $acc[4] = $body($acc[4], $c[4]);
            $acc[5] = $body($acc[5], $c[5]);
            $acc[6] = $body($acc[6], $c[6]);
            $acc[7] = $body($acc[7], $c[7]);
        }
    };
}

pub use crate::throughput_loop;

/// Throughput probe: `iters` rounds over [`LANES_IN_FLIGHT`] independent accumulators.
#[derive(Clone, Copy, Debug)]
pub struct ThroughputProbe {
    /// Operation to measure.
    pub op: FieldOp,
    /// Rounds.
    pub iters: u64,
}

impl Kernel for ThroughputProbe {
    type Output = Timing;

    #[inline(always)]
    fn run<P: PackedField>(self) -> Timing {
        let mut acc: [P; LANES_IN_FLIGHT] =
            core::array::from_fn(|j| P::from_fn(|lane| seed(j * 8 + lane)));
        let c: [P; LANES_IN_FLIGHT] = black_box(core::array::from_fn(|j| {
            P::from_fn(|lane| seed(100 + j * 8 + lane))
        }));
        let start = Instant::now();
        throughput_loop!(self.op, acc, c, self.iters, P);
        let acc = black_box(acc);
        let elapsed = start.elapsed();
        Timing {
            elapsed,
            elements: self.iters * (LANES_IN_FLIGHT * P::WIDTH) as u64,
            checksum: acc.iter().map(|a| a.sum_lanes()).sum(),
        }
    }
}

/// Latency probe: `iters` dependent operations on one accumulator.
#[derive(Clone, Copy, Debug)]
pub struct LatencyProbe {
    /// Operation to measure.
    pub op: FieldOp,
    /// Chain length.
    pub iters: u64,
}

impl Kernel for LatencyProbe {
    type Output = Timing;

    #[inline(always)]
    fn run<P: PackedField>(self) -> Timing {
        let mut acc = P::from_fn(seed);
        let c = black_box(P::from_fn(|lane| seed(100 + lane)));
        let start = Instant::now();
        match self.op {
            FieldOp::Mul => {
                for _ in 0..self.iters {
                    acc *= c;
                }
            }
            FieldOp::Add => {
                for _ in 0..self.iters {
                    acc += c;
                }
            }
            FieldOp::Square => {
                for _ in 0..self.iters {
                    acc = acc.square();
                }
            }
        }
        let acc = black_box(acc);
        let elapsed = start.elapsed();
        Timing {
            elapsed,
            elements: self.iters * P::WIDTH as u64,
            checksum: acc.sum_lanes(),
        }
    }
}
