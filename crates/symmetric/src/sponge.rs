//! The hash and compression shapes of Merkle trees — scalar, packed/batched and bulk — behind
//! two small traits, so that every leaf-hash mode (Plonky3's sponge, plonky2's `hash_or_noop`,
//! Polygon's `linear_hash`, …) and every node compression shares one dispatched bulk driver.

use aurum_goldilocks::{Backend, Goldilocks, Kernel, PackedField, backend, dispatch};
use rayon::prelude::*;

use crate::Permutation;
use crate::frame::in_own_frame;

/// Inputs whose lengths do not fit together: the field crate's error type, one for both crates
/// (`aurum_symmetric::LengthError` and `aurum_goldilocks::LengthError` are the same type).
pub use aurum_goldilocks::LengthError;

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

    /// Hashes every row of `data` (`digests.len()` rows of `row_len`) with the permutation's
    /// kernel for `backend` outside the packed design (see [`Permutation::permute_native`])
    /// and returns `true`, or returns `false`, touching nothing, where there is none.
    fn hash_rows_native(
        &self,
        backend: Backend,
        data: &[Goldilocks],
        row_len: usize,
        digests: &mut [[Goldilocks; OUT]],
    ) -> bool {
        let _ = (backend, data, row_len, digests);
        false
    }
}

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

    /// `parents[i] = compress(children[2i], children[2i + 1])` with the permutation's kernel
    /// for `backend` outside the packed design (see [`Permutation::permute_native`]), returning
    /// `true`; or `false`, touching nothing, where there is none.
    fn compress_native(
        &self,
        backend: Backend,
        children: &[[Goldilocks; OUT]],
        parents: &mut [[Goldilocks; OUT]],
    ) -> bool {
        let _ = (backend, children, parents);
        false
    }
}

/// States per call of a native kernel from the sponge and compression drivers: several
/// vectors even at 2048 bits (32 lanes), 8 KiB of stack at width 16.
const NATIVE_STATES: usize = 64;

/// The first `OUT` elements of each state (plain loops, not `core::array::from_fn`, inside
/// kernels: see `aurum_goldilocks::dispatch`).
#[inline(always)]
pub fn truncate_states<P: PackedField, const W: usize, const OUT: usize, const B: usize>(
    states: &[[P; W]; B],
) -> [[P; OUT]; B] {
    let mut out = [[P::ZERO; OUT]; B];
    for (o, s) in out.iter_mut().zip(states) {
        o.copy_from_slice(&s[..OUT]);
    }
    out
}

/// Writes packed digests back to per-lane digests: `out[b · WIDTH + lane] = digests[b][·][lane]`.
#[inline(always)]
pub fn unpack_digests<P: PackedField, const OUT: usize, const B: usize>(
    digests: &[[P; OUT]; B],
    out: &mut [[Goldilocks; OUT]],
) {
    for (b, digest) in digests.iter().enumerate() {
        for (i, p) in digest.iter().enumerate() {
            for (lane, x) in p.as_slice().iter().enumerate() {
                out[b * P::WIDTH + lane][i] = *x;
            }
        }
    }
}

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

    fn hash_rows_native(
        &self,
        backend: Backend,
        data: &[Goldilocks],
        row_len: usize,
        digests: &mut [[Goldilocks; OUT]],
    ) -> bool {
        // An empty call asks whether the kernel exists.
        if !self.perm.permute_native(backend, &mut []) {
            return false;
        }
        let mut buffer = [[Goldilocks::ZERO; W]; NATIVE_STATES];
        for (g, out) in digests.chunks_mut(NATIVE_STATES).enumerate() {
            let rows = &data[g * NATIVE_STATES * row_len..][..out.len() * row_len];
            let states = &mut buffer[..out.len()];
            states.fill([Goldilocks::ZERO; W]);
            let mut start = 0;
            while start < row_len {
                let block = RATE.min(row_len - start);
                for (state, row) in states.iter_mut().zip(rows.chunks_exact(row_len)) {
                    state[..block].copy_from_slice(&row[start..start + block]);
                }
                let ran = self.perm.permute_native(backend, states);
                debug_assert!(ran, "a native kernel that exists runs");
                start += block;
            }
            for (digest, state) in out.iter_mut().zip(states.iter()) {
                digest.copy_from_slice(&state[..OUT]);
            }
        }
        true
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

    fn compress_native(
        &self,
        backend: Backend,
        children: &[[Goldilocks; OUT]],
        parents: &mut [[Goldilocks; OUT]],
    ) -> bool {
        // An empty call asks whether the kernel exists.
        if !self.perm.permute_native(backend, &mut []) {
            return false;
        }
        let mut buffer = [[Goldilocks::ZERO; W]; NATIVE_STATES];
        for (g, out) in parents.chunks_mut(NATIVE_STATES).enumerate() {
            let pairs = &children[2 * g * NATIVE_STATES..][..2 * out.len()];
            let states = &mut buffer[..out.len()];
            for (state, pair) in states.iter_mut().zip(pairs.chunks_exact(2)) {
                state[..OUT].copy_from_slice(&pair[0]);
                state[OUT..2 * OUT].copy_from_slice(&pair[1]);
                state[2 * OUT..].fill(Goldilocks::ZERO);
            }
            let ran = self.perm.permute_native(backend, states);
            debug_assert!(ran, "a native kernel that exists runs");
            for (parent, state) in out.iter_mut().zip(states.iter()) {
                parent.copy_from_slice(&state[..OUT]);
            }
        }
        true
    }
}

/// Hashes every row of a row-major matrix (`data.len() = digests.len() · row_len`): rows are
/// packed into the lanes of the backend selected at run time, batched, and spread over rayon's
/// threads for many rows.
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
    let run = |data: &[Goldilocks], digests: &mut [[Goldilocks; OUT]]| {
        hash_rows_on_this_thread(hasher, data, row_len, digests);
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

/// [`hash_rows`] on the calling thread only, for callers that split the work themselves: the
/// selected backend's native kernel if the hasher has one, else the dispatched packed kernel.
///
/// # Panics
/// Unless `data.len() == digests.len() · row_len`.
pub fn hash_rows_on_this_thread<H: Hasher<OUT>, const OUT: usize>(
    hasher: &H,
    data: &[Goldilocks],
    row_len: usize,
    digests: &mut [[Goldilocks; OUT]],
) {
    assert_eq!(
        Some(data.len()),
        digests.len().checked_mul(row_len),
        "hash_rows_on_this_thread: data is not digests × row_len"
    );
    if !hasher.hash_rows_native(backend(), data, row_len, digests) {
        dispatch(HashRows {
            hasher,
            data,
            row_len,
            digests,
        });
    }
}

/// One thread's share of [`hash_rows`].
#[derive(Debug)]
pub struct HashRows<'a, H, const OUT: usize> {
    /// The hasher.
    pub hasher: &'a H,
    /// `digests.len()` rows of `row_len` elements.
    pub data: &'a [Goldilocks],
    /// Row length.
    pub row_len: usize,
    /// One digest per row.
    pub digests: &'a mut [[Goldilocks; OUT]],
}

impl<H: Hasher<OUT>, const OUT: usize> Kernel for HashRows<'_, H, OUT> {
    type Output = ();

    #[inline(always)]
    fn run<P: PackedField>(self) {
        // Each batch size in a frame of its own (see `crate::frame`).
        match self.hasher.batch_size(P::BACKEND) {
            4 => in_own_frame::<P, _>(HashRowsBatched::<_, OUT, 4>(self)),
            2 => in_own_frame::<P, _>(HashRowsBatched::<_, OUT, 2>(self)),
            _ => in_own_frame::<P, _>(HashRowsBatched::<_, OUT, 1>(self)),
        }
    }
}

/// [`HashRows`] at batch size `B`.
struct HashRowsBatched<'a, H, const OUT: usize, const B: usize>(HashRows<'a, H, OUT>);

impl<H: Hasher<OUT>, const OUT: usize, const B: usize> Kernel for HashRowsBatched<'_, H, OUT, B> {
    type Output = ();

    #[inline(always)]
    fn run<P: PackedField>(self) {
        hash_rows_batched::<P, H, OUT, B>(self.0);
    }
}

#[inline(always)]
fn hash_rows_batched<P: PackedField, H: Hasher<OUT>, const OUT: usize, const B: usize>(
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
        let hashed = hasher.hash_packed::<P, B>(row_len, |b, lane, k| {
            data[(base + b * P::WIDTH + lane) * row_len + k]
        });
        unpack_digests(&hashed, out);
    }
    for (r, out) in digests.iter_mut().enumerate().skip(full) {
        *out = hasher.hash(&data[r * row_len..(r + 1) * row_len]);
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
    let run = |children: &[[Goldilocks; OUT]], parents: &mut [[Goldilocks; OUT]]| {
        if !compressor.compress_native(backend(), children, parents) {
            dispatch(CompressLayer {
                compressor,
                children,
                parents,
            });
        }
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

/// One thread's share of [`compress_layer`].
#[derive(Debug)]
pub struct CompressLayer<'a, C, const OUT: usize> {
    /// The compression.
    pub compressor: &'a C,
    /// `2 · parents.len()` digests.
    pub children: &'a [[Goldilocks; OUT]],
    /// The compressed pairs.
    pub parents: &'a mut [[Goldilocks; OUT]],
}

impl<C: Compressor<OUT>, const OUT: usize> Kernel for CompressLayer<'_, C, OUT> {
    type Output = ();

    #[inline(always)]
    fn run<P: PackedField>(self) {
        // Each batch size in a frame of its own (see `crate::frame`).
        match self.compressor.batch_size(P::BACKEND) {
            4 => in_own_frame::<P, _>(CompressLayerBatched::<_, OUT, 4>(self)),
            2 => in_own_frame::<P, _>(CompressLayerBatched::<_, OUT, 2>(self)),
            _ => in_own_frame::<P, _>(CompressLayerBatched::<_, OUT, 1>(self)),
        }
    }
}

/// [`CompressLayer`] at batch size `B`.
struct CompressLayerBatched<'a, C, const OUT: usize, const B: usize>(CompressLayer<'a, C, OUT>);

impl<C: Compressor<OUT>, const OUT: usize, const B: usize> Kernel
    for CompressLayerBatched<'_, C, OUT, B>
{
    type Output = ();

    #[inline(always)]
    fn run<P: PackedField>(self) {
        compress_layer_batched::<P, C, OUT, B>(self.0);
    }
}

#[inline(always)]
fn compress_layer_batched<P: PackedField, C: Compressor<OUT>, const OUT: usize, const B: usize>(
    job: CompressLayer<'_, C, OUT>,
) {
    let CompressLayer {
        compressor,
        children,
        parents,
    } = job;
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
