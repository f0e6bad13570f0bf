//! The [`Hasher`] trait — a hash of a sequence of field elements to an `OUT`-element digest,
//! the leaf hash of a Merkle tree — and its bulk form: every row of a matrix, dispatched and
//! parallel ([`hash_rows`]).

use aurum_goldilocks::{Backend, Goldilocks, PackedField, backend};
use rayon::prelude::*;

use crate::batch::{BatchedKernel, PARALLEL_ROWS, ROWS_PER_TASK, run_batched};
use crate::error::{LengthError, expect_len};
use crate::lanes::unpack_digests;

/// Hashes a sequence of field elements to an `OUT`-element digest.
pub trait Hasher<const OUT: usize>: Send + Sync {
    /// Hashes one input.
    fn hash(&self, input: &[Goldilocks]) -> [Goldilocks; OUT];

    /// Hashes `B · P::WIDTH` inputs of `len` elements at once, input `(b, lane)` in lane `lane`
    /// of batch `b`; `element(b, lane, k)` returns its `k`-th element. Must be
    /// `#[inline(always)]` (it runs inside dispatched kernels).
    fn hash_packed<P: PackedField, const B: usize>(
        &self,
        len: usize,
        element: impl FnMut(usize, usize, usize) -> Goldilocks,
    ) -> [[P; OUT]; B];

    /// The batch size bulk calls use on `backend`.
    fn batch_size(&self, backend: Backend) -> usize;

    /// Permutations one hash of `len` elements costs (for throughput reports).
    fn permutations(&self, len: usize) -> usize;

    /// Hashes every row of `data` (`digests.len()` rows of `row_len`) on this thread on
    /// `backend`: the bulk drivers' call per task. The default runs the packed form
    /// ([`hash_rows_packed`]); a sponge over a permutation with a whole-permutation kernel for
    /// `backend` runs that instead (`hash_rows_on_kernel`).
    ///
    /// # Panics
    /// Unless `data.len() == digests.len() · row_len`, or if this machine cannot run `backend`.
    fn hash_rows_on(
        &self,
        backend: Backend,
        data: &[Goldilocks],
        row_len: usize,
        digests: &mut [[Goldilocks; OUT]],
    ) {
        hash_rows_packed(self, backend, data, row_len, digests);
    }
}

/// Hashes every row of a row-major matrix (`data.len() = digests.len() · row_len`): rows are
/// packed into the lanes of the backend selected at run time and batched (or run on the
/// permutation's whole-permutation kernel there, see [`Hasher::hash_rows_on`]), and spread
/// over rayon's threads for many rows.
pub fn hash_rows<H: Hasher<OUT>, const OUT: usize>(
    hasher: &H,
    data: &[Goldilocks],
    row_len: usize,
    digests: &mut [[Goldilocks; OUT]],
) -> Result<(), LengthError> {
    expect_len(
        "hash_rows: data (rows × row_len)",
        digests.len().saturating_mul(row_len),
        data.len(),
    )?;
    let backend = backend();
    let run = |data: &[Goldilocks], digests: &mut [[Goldilocks; OUT]]| {
        hasher.hash_rows_on(backend, data, row_len, digests);
    };
    if digests.len() < PARALLEL_ROWS || row_len == 0 {
        run(data, digests);
    } else {
        digests
            .par_chunks_mut(ROWS_PER_TASK)
            .zip(data.par_chunks(ROWS_PER_TASK * row_len))
            .for_each(|(digests, data)| run(data, digests));
    }
    Ok(())
}

/// [`hash_rows`] on the calling thread only, for callers that split the work themselves:
/// [`Hasher::hash_rows_on`] the selected backend (the permutation's whole-permutation kernel
/// where it has one there, else the dispatched packed kernel).
///
/// # Panics
/// Unless `data.len() == digests.len() · row_len`.
pub fn hash_rows_on_this_thread<H: Hasher<OUT>, const OUT: usize>(
    hasher: &H,
    data: &[Goldilocks],
    row_len: usize,
    digests: &mut [[Goldilocks; OUT]],
) {
    assert_rows("hash_rows_on_this_thread", data, row_len, digests);
    hasher.hash_rows_on(backend(), data, row_len, digests);
}

/// Hashes every row on this thread with the hasher's packed form on `backend`, at the batch
/// size it uses there (the default [`Hasher::hash_rows_on`]).
///
/// # Panics
/// Unless `data.len() == digests.len() · row_len`, or if this machine cannot run `backend`.
pub fn hash_rows_packed<H: Hasher<OUT> + ?Sized, const OUT: usize>(
    hasher: &H,
    backend: Backend,
    data: &[Goldilocks],
    row_len: usize,
    digests: &mut [[Goldilocks; OUT]],
) {
    assert_rows("hash_rows_packed", data, row_len, digests);
    run_batched(
        backend,
        hasher.batch_size(backend),
        HashRows {
            hasher,
            data,
            row_len,
            digests,
        },
    );
}

/// One thread's share of [`hash_rows`] on the packed form (see [`hash_rows_packed`]).
#[derive(Debug)]
pub struct HashRows<'a, H: ?Sized, const OUT: usize> {
    /// The hasher.
    pub hasher: &'a H,
    /// `digests.len()` rows of `row_len` elements.
    pub data: &'a [Goldilocks],
    /// Row length.
    pub row_len: usize,
    /// One digest per row.
    pub digests: &'a mut [[Goldilocks; OUT]],
}

impl<H: Hasher<OUT> + ?Sized, const OUT: usize> BatchedKernel for HashRows<'_, H, OUT> {
    type Output = ();

    #[inline(always)]
    fn run<P: PackedField, const B: usize>(self) {
        let HashRows {
            hasher,
            data,
            row_len,
            digests,
        } = self;
        let group = P::WIDTH * B;
        let full = digests.len() - digests.len() % group;
        for (g, out) in digests[..full].chunks_exact_mut(group).enumerate() {
            let base = g * group;
            let hashed = hasher.hash_packed::<P, B>(row_len, |b, lane, k| {
                data[(base + b * P::WIDTH + lane) * row_len + k]
            });
            unpack_digests(&hashed, out);
        }
        for (r, out) in digests.iter_mut().enumerate().skip(full) {
            *out = hasher.hash(&data[r * row_len..(r + 1) * row_len]);
        }
    }
}

/// Panics, naming `what`, unless `data` holds `digests.len()` rows of `row_len` elements.
pub(crate) fn assert_rows<const OUT: usize>(
    what: &str,
    data: &[Goldilocks],
    row_len: usize,
    digests: &[[Goldilocks; OUT]],
) {
    assert_eq!(
        Some(data.len()),
        digests.len().checked_mul(row_len),
        "{what}: data is not digests × row_len"
    );
}
