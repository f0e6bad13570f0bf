//! The [`Permutation`] trait, and the whole-permutation kernels ([`StateKernel`]) a
//! permutation may run its bulk calls on instead of its packed form.

use aurum_goldilocks::{Backend, Goldilocks, PackedField};

/// A permutation of `[Goldilocks; W]`.
///
/// Implementations provide one generic, batched, packed form; everything else (scalar calls,
/// bulk calls, sponges, compression) is built on it.
pub trait Permutation<const W: usize>: Send + Sync {
    /// Its whole-permutation kernel ([`NoStateKernel`] for a permutation without one).
    type StateKernel: StateKernel<W>;

    /// Permutes `B` independent states of packed lanes (`B · P::WIDTH` states in all).
    ///
    /// The round structure must be written once with the `B` states interleaved inside each
    /// round (all states' constant additions, then all S-boxes, then all linear layers), and
    /// the whole body must be `#[inline(always)]` so that it runs inside the backend's
    /// `#[target_feature]` entry point (see the
    /// [`aurum_goldilocks::dispatch`](mod@aurum_goldilocks::dispatch) module).
    fn permute_batch<P: PackedField, const B: usize>(&self, states: &mut [[P; W]; B]);

    /// The batch size bulk calls use on `backend` (one of
    /// [`BATCH_SIZES`](crate::BATCH_SIZES)); implementations return the size measured fastest
    /// there, with a [`BatchChoice`](crate::BatchChoice). `backend` is one this machine runs.
    fn batch_size(&self, backend: Backend) -> usize {
        let _ = backend;
        1
    }

    /// The whole-permutation kernel bulk calls on `backend` run instead of
    /// [`Permutation::permute_batch`]: `Some` only where the permutation has one for that
    /// backend and this CPU runs it, which the permutation decides when it is built.
    ///
    /// This is how the SVE backend runs: its vector length is known only at run time, so it
    /// cannot be a [`PackedField`], and a permutation with SVE code (Poseidon2 with Plonky3's
    /// layers, plonky2's Poseidon) returns its kernel here for [`Backend::Sve`]. The bulk
    /// entry points ([`permute_many`](crate::permute_many), [`PaddingFreeSponge`]'s and
    /// [`TruncatedPermutation`]'s bulk forms) ask once per call, for the backend they run on.
    ///
    /// [`PaddingFreeSponge`]: crate::PaddingFreeSponge
    /// [`TruncatedPermutation`]: crate::TruncatedPermutation
    fn state_kernel(&self, backend: Backend) -> Option<&Self::StateKernel> {
        let _ = backend;
        None
    }

    /// Permutes one state in place (scalar).
    #[inline]
    fn permute(&self, state: &mut [Goldilocks; W]) {
        let mut states = [*state];
        self.permute_batch::<Goldilocks, 1>(&mut states);
        *state = states[0];
    }

    /// Returns the permutation of `state` (scalar).
    #[inline]
    #[must_use]
    fn permuted(&self, state: [Goldilocks; W]) -> [Goldilocks; W] {
        let mut state = state;
        self.permute(&mut state);
        state
    }

    /// Permutes one packed state (`P::WIDTH` states in lanes).
    #[inline(always)]
    fn permute_packed<P: PackedField>(&self, state: &mut [P; W]) {
        let mut states = [*state];
        self.permute_batch::<P, 1>(&mut states);
        *state = states[0];
    }
}

/// States per call of a whole-permutation kernel from the sponge and compression drivers:
/// several vectors even at 2048 bits (32 lanes), 8 KiB of stack at width 16.
pub(crate) const KERNEL_STATES: usize = 64;

/// A whole-permutation kernel: permutes any number of consecutive states in place, every round
/// of every state, on a backend outside the packed design — SVE today, whose vector length is
/// known only at run time (an accelerator would be another). See
/// [`Permutation::state_kernel`].
pub trait StateKernel<const W: usize>: Send + Sync {
    /// Permutes every state in place.
    fn permute_states(&self, states: &mut [[Goldilocks; W]]);
}

/// The [`Permutation::StateKernel`] of a permutation without a whole-permutation kernel (it
/// has no values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoStateKernel {}

impl<const W: usize> StateKernel<W> for NoStateKernel {
    fn permute_states(&self, _: &mut [[Goldilocks; W]]) {
        match *self {}
    }
}
