//! The hash modes of plonky2 and of Polygon's zkProver / pil-stark, over [`Poseidon`].
//!
//! | mode | who | rule |
//! |---|---|---|
//! | [`HashNoPad`] | plonky2 `hash_no_pad` | zero state; each ≤ 8-element chunk overwrites `state[..len]`, permute; digest `state[..4]` (empty input: zeros, no permutation) |
//! | [`HashOrNoop`] | plonky2 `hash_or_noop` | ≤ 4 elements: copied and zero-padded; else `hash_no_pad` |
//! | [`TwoToOne`] | plonky2 `two_to_one`, Polygon Merkle nodes | permute `[L(4), R(4), 0, 0, 0, 0]`, keep 4 |
//! | [`LinearHash`] | Polygon `linear_hash` | ≤ 4 elements: copied and zero-padded; else per 8-element block: `state[..n] = block`, `state[n..8] = 0`, `state[8..12]` = 0 for the first block and the previous `state[..4]` after; digest `state[..4]` |
//!
//! `hash_or_noop` and `linear_hash` agree up to 8 elements (from 5 to 8 both are one
//! permutation of the zero-padded input, as `hash_no_pad` is) and differ above (Polygon
//! zero-pads every block and chains the previous digest through the capacity; plonky2 keeps
//! the whole state and overwrites only the rate elements it absorbs).
//!
//! Each mode has a scalar `hash`, a packed/batched `hash_packed::<P, B>` (`B · P::WIDTH`
//! inputs in lanes, permutations interleaved), and a bulk `hash_rows` over the rows of a
//! row-major matrix, runtime-dispatched and parallel (the shared driver
//! [`aurum_symmetric::hash_rows`], through the [`Hasher`] trait); [`hash_many`] selects the
//! mode by value. Two-to-one
//! compression has `compress`, `compress_packed` and the bulk Merkle-layer `compress_layer`.

use aurum_goldilocks::{Backend, Goldilocks, PackedField};
use aurum_symmetric::{
    Compressor, Hasher, LengthError, PaddingFreeSponge, Permutation, TruncatedPermutation,
    hash_rows_on_kernel, truncate_states,
};

use crate::Poseidon;
use crate::constants::{CAPACITY, DIGEST_LEN, RATE, WIDTH};

/// A digest: four field elements.
pub type Digest = [Goldilocks; DIGEST_LEN];

/// plonky2's `hash_no_pad` (`PoseidonHash::hash_no_pad`): the overwrite-mode sponge.
pub type HashNoPad = PaddingFreeSponge<Poseidon, WIDTH, RATE, DIGEST_LEN>;

/// plonky2's `two_to_one` (`PoseidonHash::two_to_one`), also Polygon's Merkle node hash.
pub type TwoToOne = TruncatedPermutation<Poseidon, WIDTH, DIGEST_LEN>;

/// Copies an input of at most four elements into a zero-padded digest (plain loops inside
/// kernels, see `aurum_goldilocks::dispatch`).
#[inline(always)]
fn copy_short<P: PackedField, const B: usize>(
    len: usize,
    mut element: impl FnMut(usize, usize, usize) -> Goldilocks,
) -> [[P; DIGEST_LEN]; B] {
    debug_assert!(len <= DIGEST_LEN);
    let mut out = [[P::ZERO; DIGEST_LEN]; B];
    for (b, digest) in out.iter_mut().enumerate() {
        for (i, d) in digest[..len].iter_mut().enumerate() {
            for (lane, x) in d.as_slice_mut().iter_mut().enumerate() {
                *x = element(b, lane, i);
            }
        }
    }
    out
}

/// Short rows (at most four elements) as their own zero-padded digests.
fn copy_short_rows(data: &[Goldilocks], row_len: usize, digests: &mut [Digest]) {
    debug_assert!(row_len <= DIGEST_LEN);
    assert_eq!(
        Some(data.len()),
        digests.len().checked_mul(row_len),
        "hash_rows_on: data is not digests × row_len"
    );
    for (r, digest) in digests.iter_mut().enumerate() {
        *digest = copy_short_scalar(&data[r * row_len..(r + 1) * row_len]);
    }
}

/// A short input as its own zero-padded digest.
fn copy_short_scalar(input: &[Goldilocks]) -> Digest {
    let mut out = [Goldilocks::ZERO; DIGEST_LEN];
    out[..input.len()].copy_from_slice(input);
    out
}

/// plonky2's `hash_or_noop`: inputs of at most four elements are their own (zero-padded)
/// digest, longer ones are hashed with `hash_no_pad`.
#[derive(Clone, Debug)]
pub struct HashOrNoop {
    /// The `hash_no_pad` sponge used above four elements.
    pub sponge: HashNoPad,
}

impl HashOrNoop {
    /// Wraps a permutation.
    #[must_use]
    pub const fn new(perm: Poseidon) -> Self {
        Self {
            sponge: HashNoPad::new(perm),
        }
    }

    /// Hashes one input.
    #[must_use]
    pub fn hash(&self, input: &[Goldilocks]) -> Digest {
        if input.len() <= DIGEST_LEN {
            copy_short_scalar(input)
        } else {
            self.sponge.hash(input)
        }
    }

    /// Hashes `B · P::WIDTH` inputs of `len` elements held in lanes (see
    /// [`Hasher::hash_packed`]).
    #[inline(always)]
    pub fn hash_packed<P: PackedField, const B: usize>(
        &self,
        len: usize,
        element: impl FnMut(usize, usize, usize) -> Goldilocks,
    ) -> [[P; DIGEST_LEN]; B] {
        if len <= DIGEST_LEN {
            copy_short(len, element)
        } else {
            self.sponge.hash_packed::<P, B>(len, element)
        }
    }

    /// Hashes every row of a row-major matrix (`data.len() = digests.len() · row_len`).
    pub fn hash_rows(
        &self,
        data: &[Goldilocks],
        row_len: usize,
        digests: &mut [Digest],
    ) -> Result<(), LengthError> {
        aurum_symmetric::hash_rows(self, data, row_len, digests)
    }
}

impl Hasher<DIGEST_LEN> for HashOrNoop {
    fn hash(&self, input: &[Goldilocks]) -> Digest {
        HashOrNoop::hash(self, input)
    }

    #[inline(always)]
    fn hash_packed<P: PackedField, const B: usize>(
        &self,
        len: usize,
        element: impl FnMut(usize, usize, usize) -> Goldilocks,
    ) -> [[P; DIGEST_LEN]; B] {
        HashOrNoop::hash_packed::<P, B>(self, len, element)
    }

    fn batch_size(&self, backend: Backend) -> usize {
        self.sponge.perm.batch_size(backend)
    }

    fn permutations(&self, len: usize) -> usize {
        if len <= DIGEST_LEN {
            0
        } else {
            len.div_ceil(RATE)
        }
    }

    /// Short rows are copied; longer ones hashed by the sponge, on its permutation's
    /// whole-permutation kernel where it has one for `backend`.
    fn hash_rows_on(
        &self,
        backend: Backend,
        data: &[Goldilocks],
        row_len: usize,
        digests: &mut [Digest],
    ) {
        if row_len <= DIGEST_LEN {
            copy_short_rows(data, row_len, digests);
        } else {
            self.sponge.hash_rows_on(backend, data, row_len, digests);
        }
    }
}

/// Polygon zkProver's / pil-stark's `linear_hash` (`PoseidonGoldilocks::linear_hash`), the
/// leaf hash of their Merkle trees.
#[derive(Clone, Debug)]
pub struct LinearHash {
    /// The permutation.
    pub perm: Poseidon,
}

impl LinearHash {
    /// Wraps a permutation.
    #[must_use]
    pub const fn new(perm: Poseidon) -> Self {
        Self { perm }
    }

    /// Hashes one input.
    #[must_use]
    pub fn hash(&self, input: &[Goldilocks]) -> Digest {
        if input.len() <= DIGEST_LEN {
            return copy_short_scalar(input);
        }
        let mut state = [Goldilocks::ZERO; WIDTH];
        for (index, block) in input.chunks(RATE).enumerate() {
            if index > 0 {
                state.copy_within(..CAPACITY, RATE);
            }
            state[..block.len()].copy_from_slice(block);
            state[block.len()..RATE].fill(Goldilocks::ZERO);
            self.perm.permute(&mut state);
        }
        let mut out = [Goldilocks::ZERO; DIGEST_LEN];
        out.copy_from_slice(&state[..DIGEST_LEN]);
        out
    }

    /// Hashes `B · P::WIDTH` inputs of `len` elements held in lanes (see
    /// [`Hasher::hash_packed`]); the `B` chains' permutations are interleaved.
    #[inline(always)]
    pub fn hash_packed<P: PackedField, const B: usize>(
        &self,
        len: usize,
        mut element: impl FnMut(usize, usize, usize) -> Goldilocks,
    ) -> [[P; DIGEST_LEN]; B] {
        if len <= DIGEST_LEN {
            return copy_short(len, element);
        }
        let mut states = [[P::ZERO; WIDTH]; B];
        let mut start = 0;
        while start < len {
            let block = RATE.min(len - start);
            for (b, state) in states.iter_mut().enumerate() {
                if start > 0 {
                    state.copy_within(..CAPACITY, RATE);
                }
                for (i, s) in state[..RATE].iter_mut().enumerate() {
                    *s = P::ZERO;
                    if i < block {
                        for (lane, x) in s.as_slice_mut().iter_mut().enumerate() {
                            *x = element(b, lane, start + i);
                        }
                    }
                }
            }
            self.perm.permute_batch::<P, B>(&mut states);
            start += block;
        }
        truncate_states(&states)
    }

    /// Hashes every row of a row-major matrix (`data.len() = digests.len() · row_len`).
    pub fn hash_rows(
        &self,
        data: &[Goldilocks],
        row_len: usize,
        digests: &mut [Digest],
    ) -> Result<(), LengthError> {
        aurum_symmetric::hash_rows(self, data, row_len, digests)
    }
}

impl Hasher<DIGEST_LEN> for LinearHash {
    fn hash(&self, input: &[Goldilocks]) -> Digest {
        LinearHash::hash(self, input)
    }

    #[inline(always)]
    fn hash_packed<P: PackedField, const B: usize>(
        &self,
        len: usize,
        element: impl FnMut(usize, usize, usize) -> Goldilocks,
    ) -> [[P; DIGEST_LEN]; B] {
        LinearHash::hash_packed::<P, B>(self, len, element)
    }

    fn batch_size(&self, backend: Backend) -> usize {
        self.perm.batch_size(backend)
    }

    fn permutations(&self, len: usize) -> usize {
        if len <= DIGEST_LEN {
            0
        } else {
            len.div_ceil(RATE)
        }
    }

    /// Short rows are copied; longer ones hashed on the permutation's whole-permutation
    /// kernel where it has one for `backend`, else with the packed form.
    fn hash_rows_on(
        &self,
        backend: Backend,
        data: &[Goldilocks],
        row_len: usize,
        digests: &mut [Digest],
    ) {
        if row_len <= DIGEST_LEN {
            copy_short_rows(data, row_len, digests);
            return;
        }
        // The capacity starts at zero; later blocks chain the previous digest into it.
        let absorb = |state: &mut [Goldilocks; WIDTH], block: &[Goldilocks], start: usize| {
            if start > 0 {
                state.copy_within(..CAPACITY, RATE);
            }
            state[..block.len()].copy_from_slice(block);
            state[block.len()..RATE].fill(Goldilocks::ZERO);
        };
        match self.perm.state_kernel(backend) {
            Some(kernel) => hash_rows_on_kernel(kernel, RATE, absorb, data, row_len, digests),
            None => aurum_symmetric::hash_rows_packed(self, backend, data, row_len, digests),
        }
    }
}

/// A hash mode, for [`hash_many`] and [`Poseidon::hash`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HashMode {
    /// plonky2 `hash_no_pad`.
    NoPad,
    /// plonky2 `hash_or_noop`.
    OrNoop,
    /// Polygon `linear_hash`.
    Linear,
}

/// Hashes every row of a row-major matrix (`data.len() = digests.len() · row_len`) with the
/// given mode: runtime-dispatched (packed lanes, the measured batch size) and parallel for
/// many rows. Wrong lengths are an error, never a panic.
pub fn hash_many(
    mode: HashMode,
    data: &[Goldilocks],
    row_len: usize,
    digests: &mut [Digest],
) -> Result<(), LengthError> {
    let perm = Poseidon::new();
    match mode {
        HashMode::NoPad => HashNoPad::new(perm).hash_rows(data, row_len, digests),
        HashMode::OrNoop => HashOrNoop::new(perm).hash_rows(data, row_len, digests),
        HashMode::Linear => LinearHash::new(perm).hash_rows(data, row_len, digests),
    }
}

impl Poseidon {
    /// plonky2's `hash_no_pad`.
    #[must_use]
    pub fn hash_no_pad(&self, input: &[Goldilocks]) -> Digest {
        HashNoPad::new(*self).hash(input)
    }

    /// plonky2's `hash_or_noop`.
    #[must_use]
    pub fn hash_or_noop(&self, input: &[Goldilocks]) -> Digest {
        HashOrNoop::new(*self).hash(input)
    }

    /// plonky2's `two_to_one`.
    #[must_use]
    pub fn two_to_one(&self, left: Digest, right: Digest) -> Digest {
        TwoToOne::new(*self).compress([left, right])
    }

    /// Polygon's `linear_hash`.
    #[must_use]
    pub fn linear_hash(&self, input: &[Goldilocks]) -> Digest {
        LinearHash::new(*self).hash(input)
    }

    /// Hashes one input with the given mode.
    #[must_use]
    pub fn hash(&self, mode: HashMode, input: &[Goldilocks]) -> Digest {
        match mode {
            HashMode::NoPad => self.hash_no_pad(input),
            HashMode::OrNoop => self.hash_or_noop(input),
            HashMode::Linear => self.linear_hash(input),
        }
    }
}
