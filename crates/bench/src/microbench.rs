//! Field-arithmetic throughput and latency probes, shared by the criterion benchmarks and
//! the `aurum` CLI's backend table so both measure exactly the same loop.
//!
//! *Throughput*: [`LANES_IN_FLIGHT`] independent packed accumulators, each updated
//! `iters` times (`acc = acc ∘ c`), so the loop is bound by instruction throughput.
//! *Latency*: one accumulator, so every operation waits for the previous one.

use std::hint::black_box;
use std::ops::{Add, AddAssign, Mul, MulAssign};
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

/// The loop of [`ThroughputProbe`], on any packed type (the criterion benchmarks run it on
/// Plonky3's packing too): `iters` rounds of `acc[j] = acc[j] ∘ c[j]` over the
/// [`LANES_IN_FLIGHT`] independent accumulators; `square` is the type's squaring.
#[inline(always)]
pub fn throughput_loop<T>(
    op: FieldOp,
    acc: &mut [T; LANES_IN_FLIGHT],
    c: &[T; LANES_IN_FLIGHT],
    iters: u64,
    square: impl Fn(T) -> T,
) where
    T: Copy + Add<Output = T> + Mul<Output = T>,
{
    // Spelled out per accumulator (not a loop over `j`) so that every build keeps the
    // eight accumulators in registers rather than round-tripping them through memory.
    macro_rules! eight {
        ($body:expr) => {
            for _ in 0..iters {
                acc[0] = $body(acc[0], c[0]);
                acc[1] = $body(acc[1], c[1]);
                acc[2] = $body(acc[2], c[2]);
                acc[3] = $body(acc[3], c[3]);
                acc[4] = $body(acc[4], c[4]);
                acc[5] = $body(acc[5], c[5]);
                acc[6] = $body(acc[6], c[6]);
                acc[7] = $body(acc[7], c[7]);
            }
        };
    }
    match op {
        FieldOp::Mul => eight!(|a: T, c: T| a * c),
        FieldOp::Add => eight!(|a: T, c: T| a + c),
        FieldOp::Square => eight!(|a: T, _: T| square(a)),
    }
}

/// The loop of [`LatencyProbe`], on any packed type: `iters` dependent operations
/// `acc = acc ∘ c`; `square` is the type's squaring.
#[inline(always)]
pub fn latency_loop<T>(op: FieldOp, acc: &mut T, c: T, iters: u64, square: impl Fn(T) -> T)
where
    T: Copy + AddAssign + MulAssign,
{
    match op {
        FieldOp::Mul => {
            for _ in 0..iters {
                *acc *= c;
            }
        }
        FieldOp::Add => {
            for _ in 0..iters {
                *acc += c;
            }
        }
        FieldOp::Square => {
            for _ in 0..iters {
                *acc = square(*acc);
            }
        }
    }
}

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
        throughput_loop(self.op, &mut acc, &c, self.iters, |a: P| a.square());
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
        latency_loop(self.op, &mut acc, c, self.iters, |a: P| a.square());
        let acc = black_box(acc);
        let elapsed = start.elapsed();
        Timing {
            elapsed,
            elements: self.iters * P::WIDTH as u64,
            checksum: acc.sum_lanes(),
        }
    }
}
