#![doc = include_str!("../README.md")]

pub mod challenger;
mod frame;
pub mod grain;
pub mod keccak;
mod many;
mod sponge;

pub use challenger::{Challenger, DuplexChallenger};
pub use many::{PERMUTE_MANY_PARALLEL_THRESHOLD, PermuteMany, permute_many};
pub use sponge::{
    CompressLayer, Compressor, HashRows, Hasher, LengthError, PaddingFreeSponge,
    TruncatedPermutation, compress_layer, hash_rows, hash_rows_on_this_thread, truncate_states,
    unpack_digests,
};

use aurum_goldilocks::{Backend, Goldilocks, PackedField};

/// Batch sizes a [`Permutation`] can be run at.
pub const BATCH_SIZES: [usize; 3] = [1, 2, 4];

/// The batch size a permutation's bulk calls use on each backend (what
/// [`Permutation::batch_size`] returns): measured per permutation, overridable for benchmarks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchTable {
    /// Indexed like the first four of `Backend::ALL`: scalar, avx2, avx512, neon (SVE uses
    /// NEON's entry, see [`BatchTable::get`]).
    per_backend: [usize; 4],
}

impl BatchTable {
    /// Sizes indexed like `Backend::ALL` (scalar, AVX2, AVX-512, NEON).
    ///
    /// # Panics
    /// Panics (at compile time in a `const`) unless every size is one of [`BATCH_SIZES`].
    #[must_use]
    pub const fn new(per_backend: [usize; 4]) -> Self {
        let mut i = 0;
        while i < per_backend.len() {
            assert!(
                matches!(per_backend[i], 1 | 2 | 4),
                "batch size must be 1, 2 or 4"
            );
            i += 1;
        }
        Self { per_backend }
    }

    /// The same size on every backend (benchmarks compare batch sizes with it).
    ///
    /// # Panics
    /// Panics unless `batch` is 1, 2 or 4.
    #[must_use]
    pub const fn uniform(batch: usize) -> Self {
        Self::new([batch; 4])
    }

    /// The size for `backend` (for SVE, the size of NEON, whose packed type it runs generic
    /// code with).
    #[must_use]
    pub fn get(self, backend: Backend) -> usize {
        let backend = backend.packed();
        let index = Backend::ALL.iter().position(|b| *b == backend).unwrap_or(0);
        self.per_backend[index]
    }
}

/// A permutation of `[Goldilocks; W]`.
///
/// Implementations provide one generic, batched, packed form; everything else (scalar calls,
/// bulk calls, sponges, compression) is built on it.
pub trait Permutation<const W: usize>: Send + Sync {
    /// Permutes `B` independent states of packed lanes (`B · P::WIDTH` states in all).
    ///
    /// The round structure must be written once with the `B` states interleaved inside each
    /// round (all states' constant additions, then all S-boxes, then all linear layers), and
    /// the whole body must be `#[inline(always)]` so that it runs inside the backend's
    /// `#[target_feature]` entry point (see the
    /// [`aurum_goldilocks::dispatch`](mod@aurum_goldilocks::dispatch) module).
    fn permute_batch<P: PackedField, const B: usize>(&self, states: &mut [[P; W]; B]);

    /// The batch size bulk calls use on `backend` (one of [`BATCH_SIZES`]); implementations
    /// return the size measured fastest there.
    fn batch_size(&self, backend: Backend) -> usize {
        let _ = backend;
        1
    }

    /// Permutes `states` in place with a kernel of its own for `backend` outside the packed
    /// design, and returns `true`; or returns `false`, touching nothing, where it has none.
    ///
    /// This is how the SVE backend runs: its vector length is known only at run time, so it
    /// cannot be a [`PackedField`], and a permutation with SVE code (Poseidon2 with Plonky3's
    /// layers, plonky2's Poseidon) calls it here for [`Backend::Sve`]. The bulk entry points
    /// ([`permute_many`], [`hash_rows`], [`compress_layer`]) try this first for the selected
    /// backend; where it returns `false` they run [`Permutation::permute_batch`]. A call with
    /// an empty `states` asks whether the kernel exists.
    fn permute_native(&self, backend: Backend, states: &mut [[Goldilocks; W]]) -> bool {
        let _ = (backend, states);
        false
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

/// Gathers `P::WIDTH` states (lane `l` = `states[l]`) into packed form.
///
/// # Panics
/// Panics with both lengths unless `states.len() == P::WIDTH`: a shorter slice would leave
/// lanes silently zero. (A fixed-size `&[_; P::WIDTH]` parameter would make this a type error,
/// but stable Rust cannot name that array type in generic code.) The check is one compare
/// per `W · P::WIDTH` elements copied.
#[inline(always)]
pub fn pack_states<P: PackedField, const W: usize>(states: &[[Goldilocks; W]]) -> [P; W] {
    assert_eq!(
        states.len(),
        P::WIDTH,
        "pack_states: need exactly P::WIDTH = {} states",
        P::WIDTH
    );
    // Plain loops rather than `core::array::from_fn` inside kernels: see `aurum_goldilocks::dispatch`.
    let mut packed = [P::ZERO; W];
    for (lane, state) in states.iter().enumerate() {
        for (p, x) in packed.iter_mut().zip(state) {
            p.as_slice_mut()[lane] = *x;
        }
    }
    packed
}

/// Scatters a packed state back to `P::WIDTH` states (the inverse of [`pack_states`]).
///
/// # Panics
/// Panics with both lengths unless `states.len() == P::WIDTH`: a longer slice would keep
/// stale states past the lanes (see [`pack_states`] for why this is not a type).
#[inline(always)]
pub fn unpack_states<P: PackedField, const W: usize>(
    packed: &[P; W],
    states: &mut [[Goldilocks; W]],
) {
    assert_eq!(
        states.len(),
        P::WIDTH,
        "unpack_states: need exactly P::WIDTH = {} states",
        P::WIDTH
    );
    for (i, p) in packed.iter().enumerate() {
        for (lane, x) in p.as_slice().iter().enumerate() {
            states[lane][i] = *x;
        }
    }
}
