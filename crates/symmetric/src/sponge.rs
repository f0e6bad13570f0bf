//! The sponge and compression shapes of Merkle trees, scalar, packed/batched and bulk.

use core::fmt;

use aurum_goldilocks::{Backend, Goldilocks, Kernel, PackedField, dispatch};
use rayon::prelude::*;

use crate::Permutation;

/// Inputs whose lengths do not fit together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LengthError {
    /// The operation.
    pub what: &'static str,
    /// The length required.
    pub expected: usize,
    /// The length given.
    pub found: usize,
}

impl fmt::Display for LengthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: expected {} elements, got {}",
            self.what, self.expected, self.found
        )
    }
}

impl std::error::Error for LengthError {}

fn expect_len(what: &'static str, expected: usize, found: usize) -> Result<(), LengthError> {
    if expected == found {
        Ok(())
    } else {
        Err(LengthError {
            what,
            expected,
            found,
        })
    }
}

/// Rows (or pairs) per rayon task in the bulk entry points.
const ROWS_PER_TASK: usize = 256;
/// Below this many rows the bulk entry points stay on the calling thread.
const PARALLEL_ROWS: usize = 512;

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

    /// Hashes one input.
    #[must_use]
    pub fn hash(&self, input: &[Goldilocks]) -> [Goldilocks; OUT] {
        let mut state = [Goldilocks::ZERO; W];
        for block in input.chunks(RATE) {
            state[..block.len()].copy_from_slice(block);
            self.perm.permute(&mut state);
        }
        core::array::from_fn(|i| state[i])
    }

    /// Hashes `B · P::WIDTH` inputs of `len` elements at once, input `(b, lane)` in lane `lane`
    /// of batch `b`; `element(b, lane, k)` returns its `k`-th element. Used by Merkle leaf
    /// hashing, where the inputs are matrix rows.
    #[inline(always)]
    pub fn hash_packed<P: PackedField, const B: usize>(
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
        core::array::from_fn(|b| core::array::from_fn(|i| states[b][i]))
    }

    /// Hashes every row of a row-major matrix (`data.len() = digests.len() · row_len`), on the
    /// backend selected at run time and in parallel for many rows (see [`hash_rows`]).
    pub fn hash_rows(
        &self,
        data: &[Goldilocks],
        row_len: usize,
        digests: &mut [[Goldilocks; OUT]],
    ) -> Result<(), LengthError> {
        hash_rows(self, data, row_len, digests)
    }
}

impl<Perm: Permutation<W>, const W: usize, const RATE: usize, const OUT: usize> RowHasher<OUT>
    for PaddingFreeSponge<Perm, W, RATE, OUT>
{
    fn hash_row(&self, row: &[Goldilocks]) -> [Goldilocks; OUT] {
        self.hash(row)
    }

    #[inline(always)]
    fn hash_rows_packed<P: PackedField, const B: usize>(
        &self,
        len: usize,
        element: impl FnMut(usize, usize, usize) -> Goldilocks,
    ) -> [[P; OUT]; B] {
        self.hash_packed::<P, B>(len, element)
    }

    fn batch_size(&self, backend: Backend) -> usize {
        self.perm.batch_size(backend)
    }
}

/// A hash of equal-length rows into `OUT`-element digests, with a batched packed form: what
/// the bulk driver [`hash_rows`] needs. Implemented by [`PaddingFreeSponge`]; other absorb
/// rules (e.g. plonky2's `hash_or_noop`, Polygon's `linear_hash`) implement it in their crates
/// and share the driver.
pub trait RowHasher<const OUT: usize>: Sync {
    /// Hashes one row (scalar).
    fn hash_row(&self, row: &[Goldilocks]) -> [Goldilocks; OUT];

    /// Hashes `B · P::WIDTH` rows of `len` elements at once, row `(b, lane)` in lane `lane` of
    /// batch `b`; `element(b, lane, k)` returns its `k`-th element. Must be `#[inline(always)]`
    /// (it runs inside the backend's entry point, see `aurum_goldilocks::dispatch`).
    fn hash_rows_packed<P: PackedField, const B: usize>(
        &self,
        len: usize,
        element: impl FnMut(usize, usize, usize) -> Goldilocks,
    ) -> [[P; OUT]; B];

    /// The batch size (one of [`crate::BATCH_SIZES`]) to use on `backend`.
    fn batch_size(&self, backend: Backend) -> usize;
}

/// Hashes every row of a row-major matrix (`data.len() = digests.len() · row_len`) with any
/// [`RowHasher`]: `B · WIDTH` rows at a time in the lanes of the backend selected at run time,
/// the hasher's batch size `B`, in parallel (rayon) for many rows. Wrong lengths are an error.
pub fn hash_rows<H: RowHasher<OUT>, const OUT: usize>(
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
    if digests.len() < PARALLEL_ROWS || row_len == 0 {
        dispatch(HashRows {
            hasher,
            data,
            row_len,
            digests,
        });
    } else {
        digests
            .par_chunks_mut(ROWS_PER_TASK)
            .zip(data.par_chunks(ROWS_PER_TASK * row_len))
            .for_each(|(digests, data)| {
                dispatch(HashRows {
                    hasher,
                    data,
                    row_len,
                    digests,
                })
            });
    }
    Ok(())
}

/// One thread's share of [`hash_rows`].
struct HashRows<'a, H, const OUT: usize> {
    hasher: &'a H,
    data: &'a [Goldilocks],
    row_len: usize,
    digests: &'a mut [[Goldilocks; OUT]],
}

impl<H: RowHasher<OUT>, const OUT: usize> Kernel for HashRows<'_, H, OUT> {
    type Output = ();

    #[inline(always)]
    fn run<P: PackedField>(self) {
        match self.hasher.batch_size(P::BACKEND) {
            4 => hash_rows_batched::<P, H, OUT, 4>(self),
            2 => hash_rows_batched::<P, H, OUT, 2>(self),
            _ => hash_rows_batched::<P, H, OUT, 1>(self),
        }
    }
}

#[inline(always)]
fn hash_rows_batched<P: PackedField, H: RowHasher<OUT>, const OUT: usize, const B: usize>(
    job: HashRows<'_, H, OUT>,
) {
    let HashRows {
        hasher,
        data,
        row_len,
        digests,
    } = job;
    let group = P::WIDTH * B;
    let full = digests.len() - digests.len() % group;
    for (g, out) in digests[..full].chunks_exact_mut(group).enumerate() {
        let base = g * group;
        let hashed = hasher.hash_rows_packed::<P, B>(row_len, |b, lane, k| {
            data[(base + b * P::WIDTH + lane) * row_len + k]
        });
        for (b, digest) in hashed.iter().enumerate() {
            for (i, p) in digest.iter().enumerate() {
                for (lane, x) in p.as_slice().iter().enumerate() {
                    out[b * P::WIDTH + lane][i] = *x;
                }
            }
        }
    }
    for (r, out) in digests.iter_mut().enumerate().skip(full) {
        *out = hasher.hash_row(&data[r * row_len..(r + 1) * row_len]);
    }
}

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

    /// Compresses two digests into one.
    #[must_use]
    pub fn compress(&self, [left, right]: [[Goldilocks; OUT]; 2]) -> [Goldilocks; OUT] {
        let mut state = [Goldilocks::ZERO; W];
        state[..OUT].copy_from_slice(&left);
        state[OUT..2 * OUT].copy_from_slice(&right);
        self.perm.permute(&mut state);
        core::array::from_fn(|i| state[i])
    }

    /// Compresses `B · P::WIDTH` pairs held in lanes.
    #[inline(always)]
    pub fn compress_packed<P: PackedField, const B: usize>(
        &self,
        pairs: &[[[P; OUT]; 2]; B],
    ) -> [[P; OUT]; B] {
        let mut states = [[P::ZERO; W]; B];
        for (state, [left, right]) in states.iter_mut().zip(pairs) {
            state[..OUT].copy_from_slice(left);
            state[OUT..2 * OUT].copy_from_slice(right);
        }
        self.perm.permute_batch::<P, B>(&mut states);
        core::array::from_fn(|b| core::array::from_fn(|i| states[b][i]))
    }

    /// One Merkle layer: `parents[i] = compress(children[2i], children[2i + 1])`, on the
    /// backend selected at run time and in parallel for wide layers.
    pub fn compress_layer(
        &self,
        children: &[[Goldilocks; OUT]],
        parents: &mut [[Goldilocks; OUT]],
    ) -> Result<(), LengthError> {
        expect_len(
            "compress_layer: children (2 × parents)",
            2 * parents.len(),
            children.len(),
        )?;
        if parents.len() < PARALLEL_ROWS {
            dispatch(CompressLayer {
                compression: self,
                children,
                parents,
            });
        } else {
            parents
                .par_chunks_mut(ROWS_PER_TASK)
                .zip(children.par_chunks(2 * ROWS_PER_TASK))
                .for_each(|(parents, children)| {
                    dispatch(CompressLayer {
                        compression: self,
                        children,
                        parents,
                    })
                });
        }
        Ok(())
    }
}

/// One thread's share of [`TruncatedPermutation::compress_layer`].
struct CompressLayer<'a, Perm, const W: usize, const OUT: usize> {
    compression: &'a TruncatedPermutation<Perm, W, OUT>,
    children: &'a [[Goldilocks; OUT]],
    parents: &'a mut [[Goldilocks; OUT]],
}

impl<Perm: Permutation<W>, const W: usize, const OUT: usize> Kernel
    for CompressLayer<'_, Perm, W, OUT>
{
    type Output = ();

    #[inline(always)]
    fn run<P: PackedField>(self) {
        match self.compression.perm.batch_size(P::BACKEND) {
            4 => compress_layer_batched::<P, Perm, W, OUT, 4>(self),
            2 => compress_layer_batched::<P, Perm, W, OUT, 2>(self),
            _ => compress_layer_batched::<P, Perm, W, OUT, 1>(self),
        }
    }
}

#[inline(always)]
fn compress_layer_batched<
    P: PackedField,
    Perm: Permutation<W>,
    const W: usize,
    const OUT: usize,
    const B: usize,
>(
    job: CompressLayer<'_, Perm, W, OUT>,
) {
    let CompressLayer {
        compression,
        children,
        parents,
    } = job;
    let group = P::WIDTH * B;
    let full = parents.len() - parents.len() % group;
    for (g, out) in parents[..full].chunks_exact_mut(group).enumerate() {
        let base = 2 * g * group;
        let pairs: [[[P; OUT]; 2]; B] = core::array::from_fn(|b| {
            core::array::from_fn(|side| {
                core::array::from_fn(|i| {
                    P::from_fn(|lane| children[base + 2 * (b * P::WIDTH + lane) + side][i])
                })
            })
        });
        let digests = compression.compress_packed::<P, B>(&pairs);
        for (b, digest) in digests.iter().enumerate() {
            for (i, p) in digest.iter().enumerate() {
                for (lane, x) in p.as_slice().iter().enumerate() {
                    out[b * P::WIDTH + lane][i] = *x;
                }
            }
        }
    }
    for (j, out) in parents.iter_mut().enumerate().skip(full) {
        *out = compression.compress([children[2 * j], children[2 * j + 1]]);
    }
}
