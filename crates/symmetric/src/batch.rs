//! Batch sizes: the one helper that runs a kernel written for every batch size at the size
//! chosen for a call (how a permutation chooses it: [`crate::BatchChoice`]).
//!
//! A bulk call picks its batch size `B` at run time, before it enters the backend: the backend's
//! entry point then holds the loop for that `B` alone, the permutation inlined into it. Each
//! `B` is a function of its own, so in an unoptimised build (a dependent's `dev` or `test`
//! build of this crate), where every inlined copy of a permutation keeps stack slots of its
//! own, only one batch size's frame is on the stack at a time: megabytes for Poseidon on
//! AVX-512 otherwise, more than the 2 MiB of a rayon or test thread.

use aurum_goldilocks::{Backend, Kernel, PackedField, in_own_frame};

/// Rows (or pairs) per rayon task in the bulk entry points.
pub(crate) const ROWS_PER_TASK: usize = 256;
/// Below this many rows the bulk entry points stay on the calling thread.
pub(crate) const PARALLEL_ROWS: usize = 512;

/// Batch sizes a [`Permutation`](crate::Permutation) can be run at.
pub const BATCH_SIZES: [usize; 3] = [1, 2, 4];

/// Work written once for every packed type `P` and every batch size `B` (one of
/// [`BATCH_SIZES`]), run by [`run_batched`]: the bulk kernels' form of
/// [`Kernel`](aurum_goldilocks::Kernel).
pub trait BatchedKernel {
    /// What the kernel returns.
    type Output;

    /// Does the work with packed type `P`, `B` packed states at a time. Implementations
    /// should be `#[inline(always)]` (see the
    /// [`aurum_goldilocks::dispatch`](mod@aurum_goldilocks::dispatch) module).
    fn run<P: PackedField, const B: usize>(self) -> Self::Output;
}

/// Runs `kernel` on `backend` at batch size `batch` (a size other than 2 or 4 runs at 1): the
/// size is chosen first, then the backend is entered once, its entry point running that
/// size's body in a stack frame of its own ([`in_own_frame`]; see the module docs).
///
/// # Panics
/// If this machine cannot run `backend`: pass [`aurum_goldilocks::backend()`], the backend a
/// running kernel was entered on, or one checked as supported.
#[inline]
pub fn run_batched<K: BatchedKernel>(backend: Backend, batch: usize, kernel: K) -> K::Output {
    match batch {
        4 => in_own_frame(backend, AtBatch::<K, 4>(kernel)),
        2 => in_own_frame(backend, AtBatch::<K, 2>(kernel)),
        _ => in_own_frame(backend, AtBatch::<K, 1>(kernel)),
    }
}

/// A [`BatchedKernel`] at batch size `B`, as a [`Kernel`] to enter a backend with.
struct AtBatch<K, const B: usize>(K);

impl<K: BatchedKernel, const B: usize> Kernel for AtBatch<K, B> {
    type Output = K::Output;

    #[inline(always)]
    fn run<P: PackedField>(self) -> K::Output {
        self.0.run::<P, B>()
    }
}
