//! The hash and compression shapes of Merkle trees — scalar, packed/batched and bulk — behind
//! two small traits, so that every leaf-hash mode (Plonky3's sponge, plonky2's `hash_or_noop`,
//! Polygon's `linear_hash`, …) and every node compression shares one dispatched bulk driver.

use core::fmt;

use aurum_goldilocks::{Backend, Goldilocks, PackedField, backend};
use rayon::prelude::*;

use crate::batch::{BatchedKernel, run_batched};
use crate::{Permutation, StateKernel};

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
    /// `backend` runs that instead ([`hash_rows_on_kernel`]).
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

/// States per call of a whole-permutation kernel from the sponge and compression drivers:
/// several vectors even at 2048 bits (32 lanes), 8 KiB of stack at width 16.
const KERNEL_STATES: usize = 64;

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

/// Hashes every row on this thread with a sponge on a whole-permutation kernel (see
/// [`Permutation::state_kernel`]), [`KERNEL_STATES`] rows at a time: every state starts at
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
    assert_eq!(
        Some(data.len()),
        digests.len().checked_mul(row_len),
        "hash_rows_on_kernel: data is not digests × row_len"
    );
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
    assert_eq!(
        Some(data.len()),
        digests.len().checked_mul(row_len),
        "hash_rows_on_this_thread: data is not digests × row_len"
    );
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
    assert_eq!(
        Some(data.len()),
        digests.len().checked_mul(row_len),
        "hash_rows_packed: data is not digests × row_len"
    );
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
