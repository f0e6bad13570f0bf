//! The [`Compressor`] trait — two `OUT`-element digests compressed into one, the node hash of a
//! Merkle tree — and its bulk form: one layer of a tree, dispatched and parallel
//! ([`compress_layer`]).

use aurum_goldilocks::{Backend, Goldilocks, PackedField, backend};
use rayon::prelude::*;

use crate::batch::{BatchedKernel, PARALLEL_ROWS, ROWS_PER_TASK, run_batched};
use crate::error::{LengthError, expect_len};
use crate::lanes::unpack_digests;

/// Compresses two `OUT`-element digests into one.
pub trait Compressor<const OUT: usize>: Send + Sync {
    /// Compresses one pair.
    fn compress(&self, pair: [[Goldilocks; OUT]; 2]) -> [Goldilocks; OUT];

    /// Compresses `B · P::WIDTH` pairs held in lanes. Must be `#[inline(always)]`.
    fn compress_packed<P: PackedField, const B: usize>(
        &self,
        pairs: &[[[P; OUT]; 2]; B],
    ) -> [[P; OUT]; B];

    /// The batch size bulk calls use on `backend`.
    fn batch_size(&self, backend: Backend) -> usize;

    /// `parents[i] = compress(children[2i], children[2i + 1])` on this thread on `backend`:
    /// the bulk driver's call per task. The default runs the packed form
    /// ([`compress_layer_packed`]); a compression over a permutation with a whole-permutation
    /// kernel for `backend` runs that instead.
    ///
    /// # Panics
    /// Unless `children.len() == 2 · parents.len()`, or if this machine cannot run `backend`.
    fn compress_layer_on(
        &self,
        backend: Backend,
        children: &[[Goldilocks; OUT]],
        parents: &mut [[Goldilocks; OUT]],
    ) {
        compress_layer_packed(self, backend, children, parents);
    }
}

/// One Merkle layer: `parents[i] = compress(children[2i], children[2i + 1])`, on the backend
/// selected at run time and in parallel for wide layers.
pub fn compress_layer<C: Compressor<OUT>, const OUT: usize>(
    compressor: &C,
    children: &[[Goldilocks; OUT]],
    parents: &mut [[Goldilocks; OUT]],
) -> Result<(), LengthError> {
    expect_len(
        "compress_layer: children (2 × parents)",
        2 * parents.len(),
        children.len(),
    )?;
    let backend = backend();
    let run = |children: &[[Goldilocks; OUT]], parents: &mut [[Goldilocks; OUT]]| {
        compressor.compress_layer_on(backend, children, parents);
    };
    if parents.len() < PARALLEL_ROWS {
        run(children, parents);
    } else {
        parents
            .par_chunks_mut(ROWS_PER_TASK)
            .zip(children.par_chunks(2 * ROWS_PER_TASK))
            .for_each(|(parents, children)| run(children, parents));
    }
    Ok(())
}

/// Compresses a layer on this thread with the compressor's packed form on `backend`, at the
/// batch size it uses there (the default [`Compressor::compress_layer_on`]).
///
/// # Panics
/// Unless `children.len() == 2 · parents.len()`, or if this machine cannot run `backend`.
pub fn compress_layer_packed<C: Compressor<OUT> + ?Sized, const OUT: usize>(
    compressor: &C,
    backend: Backend,
    children: &[[Goldilocks; OUT]],
    parents: &mut [[Goldilocks; OUT]],
) {
    assert_eq!(
        children.len(),
        2 * parents.len(),
        "compress_layer_packed: children are not 2 × parents"
    );
    run_batched(
        backend,
        compressor.batch_size(backend),
        CompressLayer {
            compressor,
            children,
            parents,
        },
    );
}

/// One thread's share of [`compress_layer`] on the packed form (see
/// [`compress_layer_packed`]).
#[derive(Debug)]
pub struct CompressLayer<'a, C: ?Sized, const OUT: usize> {
    /// The compression.
    pub compressor: &'a C,
    /// `2 · parents.len()` digests.
    pub children: &'a [[Goldilocks; OUT]],
    /// The compressed pairs.
    pub parents: &'a mut [[Goldilocks; OUT]],
}

impl<C: Compressor<OUT> + ?Sized, const OUT: usize> BatchedKernel for CompressLayer<'_, C, OUT> {
    type Output = ();

    #[inline(always)]
    fn run<P: PackedField, const B: usize>(self) {
        let CompressLayer {
            compressor,
            children,
            parents,
        } = self;
        let group = P::WIDTH * B;
        let full = parents.len() - parents.len() % group;
        for (g, out) in parents[..full].chunks_exact_mut(group).enumerate() {
            let base = 2 * g * group;
            let mut pairs = [[[P::ZERO; OUT]; 2]; B];
            for (b, pair) in pairs.iter_mut().enumerate() {
                for lane in 0..P::WIDTH {
                    let child = base + 2 * (b * P::WIDTH + lane);
                    for (side, digest) in pair.iter_mut().enumerate() {
                        for (p, x) in digest.iter_mut().zip(&children[child + side]) {
                            p.as_slice_mut()[lane] = *x;
                        }
                    }
                }
            }
            let digests = compressor.compress_packed::<P, B>(&pairs);
            unpack_digests(&digests, out);
        }
        for (j, out) in parents.iter_mut().enumerate().skip(full) {
            *out = compressor.compress([children[2 * j], children[2 * j + 1]]);
        }
    }
}
