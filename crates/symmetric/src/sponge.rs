//! [`PaddingFreeSponge`], the overwrite-mode sponge of Plonky3 and plonky2, and the sponge loop
//! every hash mode runs on a whole-permutation kernel ([`hash_rows_on_kernel`]).

use aurum_goldilocks::{Backend, Goldilocks, PackedField};

use crate::error::LengthError;
use crate::hasher::{Hasher, assert_rows, hash_rows, hash_rows_packed};
use crate::lanes::truncate_states;
use crate::permutation::{KERNEL_STATES, Permutation, StateKernel};

/// An overwrite-mode sponge without padding, for fixed-length inputs: start from the zero
/// state; for each block of `RATE` elements overwrite `state[..len]` with it and permute (a
/// final partial block overwrites only its own length); output `state[..OUT]`. An empty
/// input is not permuted at all and hashes to zeros.
///
/// This is Plonky3's `PaddingFreeSponge<_, W, RATE, OUT>`, and at `W = 12, RATE = 8, OUT = 4`
/// plonky2's `hash_no_pad`.
#[derive(Clone, Debug)]
pub struct PaddingFreeSponge<Perm, const W: usize, const RATE: usize, const OUT: usize> {
    /// The permutation.
    pub perm: Perm,
}

impl<Perm: Permutation<W>, const W: usize, const RATE: usize, const OUT: usize>
    PaddingFreeSponge<Perm, W, RATE, OUT>
{
    const VALID: () = assert!(
        RATE > 0 && RATE <= W && OUT <= W,
        "sponge shape must fit the width"
    );

    /// Wraps a permutation.
    pub const fn new(perm: Perm) -> Self {
        let () = Self::VALID;
        Self { perm }
    }

    /// Hashes every row of a row-major matrix (see [`hash_rows`]).
    pub fn hash_rows(
        &self,
        data: &[Goldilocks],
        row_len: usize,
        digests: &mut [[Goldilocks; OUT]],
    ) -> Result<(), LengthError> {
        hash_rows(self, data, row_len, digests)
    }
}

impl<Perm: Permutation<W>, const W: usize, const RATE: usize, const OUT: usize> Hasher<OUT>
    for PaddingFreeSponge<Perm, W, RATE, OUT>
{
    fn hash(&self, input: &[Goldilocks]) -> [Goldilocks; OUT] {
        let mut state = [Goldilocks::ZERO; W];
        for block in input.chunks(RATE) {
            state[..block.len()].copy_from_slice(block);
            self.perm.permute(&mut state);
        }
        let mut out = [Goldilocks::ZERO; OUT];
        out.copy_from_slice(&state[..OUT]);
        out
    }

    #[inline(always)]
    fn hash_packed<P: PackedField, const B: usize>(
        &self,
        len: usize,
        mut element: impl FnMut(usize, usize, usize) -> Goldilocks,
    ) -> [[P; OUT]; B] {
        let mut states = [[P::ZERO; W]; B];
        let mut start = 0;
        while start < len {
            let block = RATE.min(len - start);
            for (b, state) in states.iter_mut().enumerate() {
                for (i, s) in state[..block].iter_mut().enumerate() {
                    *s = P::from_fn(|lane| element(b, lane, start + i));
                }
            }
            self.perm.permute_batch::<P, B>(&mut states);
            start += block;
        }
        truncate_states(&states)
    }

    fn batch_size(&self, backend: Backend) -> usize {
        self.perm.batch_size(backend)
    }

    fn permutations(&self, len: usize) -> usize {
        len.div_ceil(RATE)
    }

    fn hash_rows_on(
        &self,
        backend: Backend,
        data: &[Goldilocks],
        row_len: usize,
        digests: &mut [[Goldilocks; OUT]],
    ) {
        match self.perm.state_kernel(backend) {
            Some(kernel) => hash_rows_on_kernel(
                kernel,
                RATE,
                |state: &mut [Goldilocks; W], block: &[Goldilocks], _start| {
                    state[..block.len()].copy_from_slice(block);
                },
                data,
                row_len,
                digests,
            ),
            None => hash_rows_packed(self, backend, data, row_len, digests),
        }
    }
}

/// Hashes every row on this thread with a sponge on a whole-permutation kernel (see
/// [`Permutation::state_kernel`]), 64 rows at a time: every state starts at
/// zero; for each block of up to `rate` elements, `absorb(state, block, start)` writes the block
/// of a row starting at its element `start` into the row's state, then the kernel permutes all
/// the states; the digest is a state's first `OUT` elements.
///
/// This is the sponge loop of every hash mode on a whole-permutation kernel (their
/// [`Hasher::hash_rows_on`]); `absorb` is what the modes differ in.
///
/// # Panics
/// Unless `data.len() == digests.len() · row_len`.
pub fn hash_rows_on_kernel<K: StateKernel<W>, const W: usize, const OUT: usize>(
    kernel: &K,
    rate: usize,
    absorb: impl Fn(&mut [Goldilocks; W], &[Goldilocks], usize),
    data: &[Goldilocks],
    row_len: usize,
    digests: &mut [[Goldilocks; OUT]],
) {
    assert_rows("hash_rows_on_kernel", data, row_len, digests);
    let mut buffer = [[Goldilocks::ZERO; W]; KERNEL_STATES];
    for (g, out) in digests.chunks_mut(KERNEL_STATES).enumerate() {
        let rows = &data[g * KERNEL_STATES * row_len..][..out.len() * row_len];
        let states = &mut buffer[..out.len()];
        states.fill([Goldilocks::ZERO; W]);
        let mut start = 0;
        while start < row_len {
            let block = rate.min(row_len - start);
            for (state, row) in states.iter_mut().zip(rows.chunks_exact(row_len)) {
                absorb(state, &row[start..start + block], start);
            }
            kernel.permute_states(states);
            start += block;
        }
        for (digest, state) in out.iter_mut().zip(states.iter()) {
            digest.copy_from_slice(&state[..OUT]);
        }
    }
}
