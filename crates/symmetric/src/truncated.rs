//! [`TruncatedPermutation`], the two-to-one compression of Plonky3 and plonky2.

use aurum_goldilocks::{Backend, Goldilocks, PackedField};

use crate::compressor::{Compressor, compress_layer, compress_layer_packed};
use crate::error::LengthError;
use crate::lanes::truncate_states;
use crate::permutation::{KERNEL_STATES, Permutation, StateKernel};

/// Two-to-one compression by a truncated permutation: `state = [left, right, 0, …]`, permute,
/// keep the first `OUT` elements. Plonky3's `TruncatedPermutation<_, 2, OUT, W>`; at
/// `W = 12, OUT = 4` plonky2's `two_to_one`.
#[derive(Clone, Debug)]
pub struct TruncatedPermutation<Perm, const W: usize, const OUT: usize> {
    /// The permutation.
    pub perm: Perm,
}

impl<Perm: Permutation<W>, const W: usize, const OUT: usize> TruncatedPermutation<Perm, W, OUT> {
    const VALID: () = assert!(2 * OUT <= W, "two digests must fit the width");

    /// Wraps a permutation.
    pub const fn new(perm: Perm) -> Self {
        let () = Self::VALID;
        Self { perm }
    }

    /// One Merkle layer (see [`compress_layer`]).
    pub fn compress_layer(
        &self,
        children: &[[Goldilocks; OUT]],
        parents: &mut [[Goldilocks; OUT]],
    ) -> Result<(), LengthError> {
        compress_layer(self, children, parents)
    }
}

impl<Perm: Permutation<W>, const W: usize, const OUT: usize> Compressor<OUT>
    for TruncatedPermutation<Perm, W, OUT>
{
    fn compress(&self, [left, right]: [[Goldilocks; OUT]; 2]) -> [Goldilocks; OUT] {
        let mut state = [Goldilocks::ZERO; W];
        state[..OUT].copy_from_slice(&left);
        state[OUT..2 * OUT].copy_from_slice(&right);
        self.perm.permute(&mut state);
        let mut out = [Goldilocks::ZERO; OUT];
        out.copy_from_slice(&state[..OUT]);
        out
    }

    #[inline(always)]
    fn compress_packed<P: PackedField, const B: usize>(
        &self,
        pairs: &[[[P; OUT]; 2]; B],
    ) -> [[P; OUT]; B] {
        let mut states = [[P::ZERO; W]; B];
        for (state, [left, right]) in states.iter_mut().zip(pairs) {
            state[..OUT].copy_from_slice(left);
            state[OUT..2 * OUT].copy_from_slice(right);
        }
        self.perm.permute_batch::<P, B>(&mut states);
        truncate_states(&states)
    }

    fn batch_size(&self, backend: Backend) -> usize {
        self.perm.batch_size(backend)
    }

    fn compress_layer_on(
        &self,
        backend: Backend,
        children: &[[Goldilocks; OUT]],
        parents: &mut [[Goldilocks; OUT]],
    ) {
        match self.perm.state_kernel(backend) {
            Some(kernel) => compress_layer_on_kernel::<_, W, OUT>(kernel, children, parents),
            None => compress_layer_packed(self, backend, children, parents),
        }
    }
}

/// [`Compressor::compress_layer_on`] on a whole-permutation kernel, [`KERNEL_STATES`] pairs per
/// kernel call.
fn compress_layer_on_kernel<K: StateKernel<W>, const W: usize, const OUT: usize>(
    kernel: &K,
    children: &[[Goldilocks; OUT]],
    parents: &mut [[Goldilocks; OUT]],
) {
    assert_eq!(
        children.len(),
        2 * parents.len(),
        "compress_layer_on_kernel: children are not 2 × parents"
    );
    let mut buffer = [[Goldilocks::ZERO; W]; KERNEL_STATES];
    for (g, out) in parents.chunks_mut(KERNEL_STATES).enumerate() {
        let pairs = &children[2 * g * KERNEL_STATES..][..2 * out.len()];
        let states = &mut buffer[..out.len()];
        for (state, pair) in states.iter_mut().zip(pairs.chunks_exact(2)) {
            state[..OUT].copy_from_slice(&pair[0]);
            state[OUT..2 * OUT].copy_from_slice(&pair[1]);
            state[2 * OUT..].fill(Goldilocks::ZERO);
        }
        kernel.permute_states(states);
        for (parent, state) in out.iter_mut().zip(states.iter()) {
            parent.copy_from_slice(&state[..OUT]);
        }
    }
}
