#![doc = include_str!("../README.md")]

mod batch;
pub mod challenger;
pub mod grain;
pub mod keccak;
mod many;
mod permutation;
mod sponge;

pub use batch::{BATCH_SIZES, BatchTable, BatchedKernel, run_batched};
pub use challenger::{Challenger, DuplexChallenger};
pub use many::{PERMUTE_MANY_PARALLEL_THRESHOLD, PermuteMany, permute_many};
pub use permutation::{NoStateKernel, Permutation, StateKernel};
pub use sponge::{
    CompressLayer, Compressor, HashRows, Hasher, LengthError, PaddingFreeSponge,
    TruncatedPermutation, compress_layer, compress_layer_packed, hash_rows, hash_rows_on_kernel,
    hash_rows_on_this_thread, hash_rows_packed, truncate_states, unpack_digests,
};

use aurum_goldilocks::{Goldilocks, PackedField};

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
