//! The Merkle hash and compression of Plonky3's `MerkleTreeMmcs`, on Aurum's bulk kernels
//! (see [`LANES`]).

use aurum_goldilocks::Goldilocks as AurumGoldilocks;
use aurum_symmetric::{Compressor, Hasher, compress_layer, hash_rows};
use p3_goldilocks::Goldilocks as P3Goldilocks;
use p3_symmetric::{CryptographicHasher, PseudoCompressionFunction};

use crate::convert::{cast, cast_slice, cast_slice_mut};

/// How many messages [`PaddingFreeSponge`] and [`TruncatedPermutation`] report as their
/// `LANES`.
///
/// Plonky3 0.8's `MerkleTree` asks its hasher and compression how many messages they hash
/// best at once. With `LANES > 1` it stops packing rows into its own SIMD type and instead
/// stages whole rows back to back and calls `hash_many` / `compress_many` on them — the
/// shapes of Aurum's `hash_rows` (rows of a row-major matrix) and `compress_layer` (adjacent
/// pairs of digests). Both run Aurum's batched packed permutation on the backend the CPU has
/// (AVX-512, AVX2, NEON — detected at run time, so also in builds without `RUSTFLAGS`) and
/// split large calls over rayon.
///
/// Plonky3 stages this many rows (or a multiple) per `hash_many` call. 16 is a whole number
/// of Aurum's packed batches on every backend (AVX-512: 8 lanes × 2, AVX2: 4 × 4, NEON:
/// 2 × 2, scalar: 1), so no call leaves lanes idle.
pub const LANES: usize = 16;

/// The padding-free overwrite-mode sponge — the drop-in for
/// `p3_symmetric::PaddingFreeSponge<P, WIDTH, RATE, OUT>`, with the same parameters and the
/// same digests, for any Aurum permutation `P` (e.g.
/// [`Poseidon2Goldilocks`](crate::Poseidon2Goldilocks)).
///
/// Start from the zero state; for each block of `RATE` input elements overwrite the first
/// elements of the state with it (a final partial block overwrites only its own length) and
/// permute; the digest is the first `OUT` elements. Batched through `hash_many` (see
/// [`LANES`]).
#[derive(Clone, Debug)]
pub struct PaddingFreeSponge<P, const WIDTH: usize, const RATE: usize, const OUT: usize> {
    sponge: aurum_symmetric::PaddingFreeSponge<P, WIDTH, RATE, OUT>,
}

impl<P, const WIDTH: usize, const RATE: usize, const OUT: usize>
    PaddingFreeSponge<P, WIDTH, RATE, OUT>
where
    P: aurum_symmetric::Permutation<WIDTH>,
{
    /// The sponge over `permutation`. The shape must be one Plonky3 accepts:
    /// `0 < RATE < WIDTH` and `0 < OUT ≤ RATE` (checked at compile time).
    pub const fn new(permutation: P) -> Self {
        const {
            assert!(RATE > 0 && RATE < WIDTH, "need 0 < RATE < WIDTH");
            assert!(OUT > 0 && OUT <= RATE, "need 0 < OUT <= RATE");
        }
        Self {
            sponge: aurum_symmetric::PaddingFreeSponge::new(permutation),
        }
    }

    /// The permutation.
    pub const fn permutation(&self) -> &P {
        &self.sponge.perm
    }

    /// The Aurum sponge underneath (for Aurum's own APIs).
    pub const fn aurum(&self) -> &aurum_symmetric::PaddingFreeSponge<P, WIDTH, RATE, OUT> {
        &self.sponge
    }
}

impl<P, const WIDTH: usize, const RATE: usize, const OUT: usize>
    CryptographicHasher<P3Goldilocks, [P3Goldilocks; OUT]>
    for PaddingFreeSponge<P, WIDTH, RATE, OUT>
where
    P: aurum_symmetric::Permutation<WIDTH> + Clone,
{
    const LANES: usize = LANES;

    fn hash_iter<I>(&self, input: I) -> [P3Goldilocks; OUT]
    where
        I: IntoIterator<Item = P3Goldilocks>,
    {
        let input: Vec<P3Goldilocks> = input.into_iter().collect();
        self.hash_slice(&input)
    }

    fn hash_slice(&self, input: &[P3Goldilocks]) -> [P3Goldilocks; OUT] {
        cast(self.sponge.hash(cast_slice(input)))
    }

    /// Hashes `out.len()` equal-length messages laid out back to back in `input` with
    /// Aurum's `hash_rows`.
    ///
    /// # Panics
    /// If `input.len()` is not a multiple of `out.len()` (Plonky3's contract for this method).
    fn hash_many(&self, input: &[P3Goldilocks], out: &mut [[P3Goldilocks; OUT]]) {
        if out.is_empty() {
            return;
        }
        assert!(
            input.len().is_multiple_of(out.len()),
            "hash_many: input length ({}) must be a whole multiple of the digest count ({})",
            input.len(),
            out.len()
        );
        let row_len = input.len() / out.len();
        let digests: &mut [[AurumGoldilocks; OUT]] = cast_slice_mut(out);
        // The lengths fit by construction (`input.len() == out.len() · row_len`).
        if let Err(err) = hash_rows(&self.sponge, cast_slice(input), row_len, digests) {
            unreachable!("hash_many: {err}");
        }
    }
}

/// Two-to-one compression by a truncated permutation — the drop-in for
/// `p3_symmetric::TruncatedPermutation<P, 2, CHUNK, WIDTH>`: the two `CHUNK`-element inputs
/// side by side, zero-padded to `WIDTH`, permuted, truncated to `CHUNK` elements. Only arity
/// `N = 2` exists (checked at compile time); `N` is a parameter so that Plonky3's type alias
/// keeps its shape. Batched through `compress_many` (see [`LANES`]).
#[derive(Clone, Debug)]
pub struct TruncatedPermutation<P, const N: usize, const CHUNK: usize, const WIDTH: usize> {
    compression: aurum_symmetric::TruncatedPermutation<P, WIDTH, CHUNK>,
}

impl<P, const N: usize, const CHUNK: usize, const WIDTH: usize>
    TruncatedPermutation<P, N, CHUNK, WIDTH>
where
    P: aurum_symmetric::Permutation<WIDTH>,
{
    /// The compression by `permutation`; needs `N = 2`, `CHUNK > 0` and `2·CHUNK ≤ WIDTH`
    /// (checked at compile time).
    pub const fn new(permutation: P) -> Self {
        const {
            assert!(
                N == 2,
                "Aurum's truncated permutation compresses two inputs (N = 2)"
            );
            assert!(
                CHUNK > 0 && N * CHUNK <= WIDTH,
                "need 0 < CHUNK and N·CHUNK <= WIDTH"
            );
        }
        Self {
            compression: aurum_symmetric::TruncatedPermutation::new(permutation),
        }
    }

    /// The permutation.
    pub const fn permutation(&self) -> &P {
        &self.compression.perm
    }

    /// The Aurum compression underneath (for Aurum's own APIs).
    pub const fn aurum(&self) -> &aurum_symmetric::TruncatedPermutation<P, WIDTH, CHUNK> {
        &self.compression
    }
}

impl<P, const CHUNK: usize, const WIDTH: usize> PseudoCompressionFunction<[P3Goldilocks; CHUNK], 2>
    for TruncatedPermutation<P, 2, CHUNK, WIDTH>
where
    P: aurum_symmetric::Permutation<WIDTH> + Clone,
{
    const LANES: usize = LANES;

    fn compress(&self, input: [[P3Goldilocks; CHUNK]; 2]) -> [P3Goldilocks; CHUNK] {
        cast(self.compression.compress(cast(input)))
    }

    /// Compresses every pair with Aurum's `compress_layer` (pairs of adjacent digests are
    /// exactly a Merkle layer's children).
    ///
    /// # Panics
    /// If `inputs.len() != out.len()` (Plonky3's contract for this method).
    fn compress_many(
        &self,
        inputs: &[[[P3Goldilocks; CHUNK]; 2]],
        out: &mut [[P3Goldilocks; CHUNK]],
    ) {
        assert_eq!(
            inputs.len(),
            out.len(),
            "compress_many: the group count must equal the output count"
        );
        let children: &[[AurumGoldilocks; CHUNK]] = cast_slice(inputs.as_flattened());
        // The lengths fit by construction (two children per parent).
        if let Err(err) = compress_layer(&self.compression, children, cast_slice_mut(out)) {
            unreachable!("compress_many: {err}");
        }
    }
}
