//! Splitting a kernel into stack frames of its own, one per batch size.
//!
//! The bulk kernels ([`crate::PermuteMany`], [`crate::HashRows`], [`crate::CompressLayer`])
//! pick a batch size `B` at run time, so their body holds the whole batched loop — the
//! permutation inlined into it — once per `B`. Optimised, that costs nothing: the copies never
//! run together. Unoptimised (a dependent's `dev` or `test` build of this crate), every inlined
//! copy keeps stack slots of its own for all its temporaries, and they all add up in the entry
//! function's frame: megabytes for Poseidon on AVX-512, more than the 2 MiB of a rayon or test
//! thread.
//!
//! So each kernel runs the loop for its chosen `B` as a second kernel, entered through
//! [`in_own_frame`]: the entry point of the backend already running, a real call. Only one
//! batch size's frame is on the stack at a time, and the code inside is what it was (the
//! optimiser sees the same inlined loop; the call costs nanoseconds per chunk of rows).

use aurum_goldilocks::{Kernel, PackedField, dispatch_on};

/// Runs `kernel` on `P`'s backend — the one the calling kernel runs on — through that
/// backend's `#[target_feature]` entry point, i.e. in a stack frame of its own.
///
/// `kernel` is generic over the packed type like any kernel, so this is correct whatever `P`
/// is; for the backends' own packed types it runs with `P` itself.
///
/// # Panics
/// Panics if this machine cannot run `P::BACKEND`, which cannot happen while a value of `P`
/// exists (the contract of [`PackedField`]).
#[inline(always)]
pub(crate) fn in_own_frame<P: PackedField, K: Kernel>(kernel: K) -> K::Output {
    dispatch_on(P::BACKEND, kernel).expect("a packed type's backend runs wherever its values exist")
}
