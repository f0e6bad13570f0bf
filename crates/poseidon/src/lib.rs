//! Poseidon over Goldilocks, bit-exact with plonky2, Polygon's zkProver / pil-stark and
//! eigen's starky (they all commit with the same instance), packed on every backend of
//! `aurum-goldilocks`, with batched interleaved permutes and both families' hash modes.
//!
//! # The instance
//!
//! Width 12 (rate 8, capacity 4), S-box `x^7`, 4 full + 22 partial + 4 full rounds:
//!
//! ```text
//! for r in 0..30:
//!     state += RC[12r .. 12r + 12]
//!     S-box on all 12 words if r < 4 or r ≥ 26, else on state[0] only
//!     state = MDS · state      // out[i] = Σ_k state[(k+i) mod 12]·CIRC[k] + 8·state[0]·[i = 0]
//! ```
//!
//! with `CIRC = [17, 15, 41, 16, 2, 28, 13, 13, 39, 18, 34, 20]` and plonky2's 360 round
//! constants, carried as data (see [`constants`] for why they are not regenerated).
//! [`reference::permute`] computes exactly this.
//!
//! # The fast permutation
//!
//! * Full rounds: the MDS product uses the small coefficients — per output, a
//!   [`PackedField::linear_combination_small`] (products of 32-bit halves summed unreduced,
//!   one reduction), instead of 12 field multiplications.
//! * Partial rounds: the sparse decomposition of the Poseidon paper (appendix B), derived in
//!   this crate from the round constants and the MDS matrix ([`FastConstants`], computed once
//!   per process): one scalar constant and an S-box on `state[0]`, then a new `state[0]` from a
//!   12-term row and `state[i] += ŵ_i·state[0]`. The dense matrix this leaves in front of the
//!   partial rounds is folded into the last initial full round.
//! * Batching: [`Permutation::permute_batch`] runs `B ∈ {1, 2, 4}` packed states with their
//!   rounds interleaved in one scope; bulk calls pick `B` per backend from a measured table.
//!
//! # Hash modes
//!
//! See [`hash`]: plonky2's `hash_no_pad`, `hash_or_noop` and `two_to_one`, and Polygon's
//! `linear_hash`, each scalar, packed/batched and bulk (runtime-dispatched, parallel).
//!
//! ```
//! use aurum_goldilocks::Goldilocks;
//! use aurum_poseidon::Poseidon;
//! use aurum_symmetric::Permutation;
//!
//! let perm = Poseidon::new();
//! let out = perm.permuted([Goldilocks::ZERO; 12]);
//! assert_eq!(out[0].as_canonical_u64(), 0x3c18a9786cb0b359);
//! ```

pub mod constants;
mod fast;
pub mod hash;
pub mod reference;

use aurum_goldilocks::{Backend, Goldilocks, PackedField};
use aurum_symmetric::Permutation;

use constants::{HALF_FULL_ROUNDS, MDS_CIRC, MDS_DIAG_0, PARTIAL_ROUNDS, WIDTH};
pub use fast::FastConstants;
pub use hash::{Digest, HashMode, HashNoPad, HashOrNoop, LinearHash, TwoToOne, hash_many};

/// The Poseidon permutation of plonky2 / Polygon zkProver (width 12).
#[derive(Clone, Copy, Debug)]
pub struct Poseidon {
    constants: &'static FastConstants,
    batch: BatchTable,
}

impl Default for Poseidon {
    fn default() -> Self {
        Self::new()
    }
}

impl Poseidon {
    /// The permutation. Its derived constants are computed on first use in the process and
    /// shared, so this is cheap.
    #[must_use]
    pub fn new() -> Self {
        Self {
            constants: FastConstants::get(),
            batch: BatchTable::measured(),
        }
    }

    /// The derived constants the fast permutation runs on.
    #[must_use]
    pub fn fast_constants(&self) -> &'static FastConstants {
        self.constants
    }

    /// Overrides the batch size bulk calls use on every backend (benchmarks compare them).
    ///
    /// # Panics
    /// Panics unless `batch` is 1, 2 or 4.
    #[must_use]
    pub fn with_batch_size(mut self, batch: usize) -> Self {
        assert!(
            aurum_symmetric::BATCH_SIZES.contains(&batch),
            "batch size must be 1, 2 or 4"
        );
        self.batch = BatchTable {
            per_backend: [batch; 4],
        };
        self
    }
}

/// The batch size per backend for bulk work.
#[derive(Clone, Copy, Debug)]
struct BatchTable {
    /// Indexed like `Backend::ALL`: scalar, avx2, avx512, neon.
    per_backend: [usize; 4],
}

impl BatchTable {
    /// Measured with `benches/poseidon.rs` (`poseidon/batch/*`) on Zen 4 for x86; NEON from
    /// the batched-permute study in `shared/seeds/001` (B = 2 best on a Pi 5, B = 4 loses to
    /// it), since qemu timings say nothing about Arm cores.
    fn measured() -> Self {
        Self {
            per_backend: [2, 2, 2, 2],
        }
    }

    fn get(self, backend: Backend) -> usize {
        let index = Backend::ALL.iter().position(|b| *b == backend).unwrap_or(0);
        self.per_backend[index]
    }
}

/// Row 0 of the MDS matrix in circulant order (`MDS_CIRC` with the diagonal term folded in).
const MDS_ROW_0: [u32; WIDTH] = {
    let mut row = [0u32; WIDTH];
    let mut k = 0;
    while k < WIDTH {
        row[k] = MDS_CIRC[k] as u32;
        k += 1;
    }
    row[0] += MDS_DIAG_0 as u32;
    row
};

/// Rows 1–11 of the MDS matrix in circulant order.
const MDS_ROW_REST: [u32; WIDTH] = {
    let mut row = [0u32; WIDTH];
    let mut k = 0;
    while k < WIDTH {
        row[k] = MDS_CIRC[k] as u32;
        k += 1;
    }
    row
};

// Hot-path code below uses plain loops, never closures (`array::from_fn`, `map`): a closure
// is compiled as its own function without the backend's target features, so the SIMD
// intrinsics inside would not inline into it (100× slower on AVX2/AVX-512).

/// `state[(k + i) mod 12]` for `k = 0..12`: the operand of MDS row `i`.
#[inline(always)]
fn rotated<P: PackedField>(state: &[P; WIDTH], i: usize) -> [P; WIDTH] {
    let mut out = [P::ZERO; WIDTH];
    for (k, o) in out.iter_mut().enumerate() {
        *o = state[(k + i) % WIDTH];
    }
    out
}

/// `MDS · state` with the small coefficients: one deferred-reduction linear combination per
/// output.
#[inline(always)]
pub fn mds_layer<P: PackedField>(state: &[P; WIDTH]) -> [P; WIDTH] {
    let mut out = [P::ZERO; WIDTH];
    for (i, o) in out.iter_mut().enumerate() {
        let row = if i == 0 { &MDS_ROW_0 } else { &MDS_ROW_REST };
        *o = P::linear_combination_small(&rotated(state, i), row);
    }
    out
}

/// Adds a round's constants to every state, then applies the S-box to every word of every
/// state (stage by stage across all `B·12` words, so the S-boxes' dependent multiplications
/// overlap).
#[inline(always)]
fn full_sbox_layer<P: PackedField, const B: usize>(
    states: &mut [[P; WIDTH]; B],
    constants: &[Goldilocks; WIDTH],
) {
    for state in states.iter_mut() {
        for (s, &c) in state.iter_mut().zip(constants) {
            *s += c;
        }
    }
    for state in states.iter_mut() {
        for s in state.iter_mut() {
            *s = s.exp7();
        }
    }
}

impl Poseidon {
    /// The four initial full rounds; the last one's linear layer also applies the dense
    /// matrix the sparse partial rounds start with, and the first partial constant.
    #[inline(always)]
    fn initial_full_rounds<P: PackedField, const B: usize>(&self, states: &mut [[P; WIDTH]; B]) {
        let c = self.constants;
        for constants in &c.full[..HALF_FULL_ROUNDS - 1] {
            full_sbox_layer(states, constants);
            for state in states.iter_mut() {
                *state = mds_layer(state);
            }
        }
        full_sbox_layer(states, &c.full[HALF_FULL_ROUNDS - 1]);
        for state in states.iter_mut() {
            let s = *state;
            state[0] = P::linear_combination_small(&s, &MDS_ROW_0) + c.partial[0];
            for (out, row) in state[1..].iter_mut().zip(&c.first_partial_matrix) {
                *out = P::linear_combination(&s, row);
            }
        }
    }

    /// The 22 partial rounds in sparse form. On entry `state[0]` already holds the first
    /// partial constant; each round adds the next one off the critical path.
    #[inline(always)]
    fn partial_rounds<P: PackedField, const B: usize>(&self, states: &mut [[P; WIDTH]; B]) {
        let c = self.constants;
        for j in 0..PARTIAL_ROUNDS {
            // Independent of this round's S-box: the row product over state[1..] plus the
            // next round's constant.
            let mut partial_sums = [P::ZERO; B];
            for (sum, state) in partial_sums.iter_mut().zip(states.iter()) {
                let rest: &[P; WIDTH - 1] = state[1..].try_into().expect("11 words");
                *sum = P::linear_combination(rest, &c.partial_rows[j]);
                if j + 1 < PARTIAL_ROUNDS {
                    *sum += c.partial[j + 1];
                }
            }
            for state in states.iter_mut() {
                state[0] = state[0].exp7();
            }
            for (state, sum) in states.iter_mut().zip(partial_sums) {
                let s0 = state[0];
                for (s, &w) in state[1..].iter_mut().zip(&c.partial_cols[j]) {
                    *s += s0 * w;
                }
                state[0] = s0.mul_small(MDS_ROW_0[0]) + sum;
            }
        }
    }

    /// The four terminal full rounds.
    #[inline(always)]
    fn terminal_full_rounds<P: PackedField, const B: usize>(&self, states: &mut [[P; WIDTH]; B]) {
        for constants in &self.constants.full[HALF_FULL_ROUNDS..] {
            full_sbox_layer(states, constants);
            for state in states.iter_mut() {
                *state = mds_layer(state);
            }
        }
    }
}

impl Permutation<WIDTH> for Poseidon {
    #[inline(always)]
    fn permute_batch<P: PackedField, const B: usize>(&self, states: &mut [[P; WIDTH]; B]) {
        self.initial_full_rounds(states);
        self.partial_rounds(states);
        self.terminal_full_rounds(states);
    }

    fn batch_size(&self, backend: Backend) -> usize {
        self.batch.get(backend)
    }
}

/// Permutes every state in place on the backend selected at run time, in parallel for many
/// states (`aurum_symmetric::permute_many` with the shared default instance).
pub fn permute_many(states: &mut [[Goldilocks; WIDTH]]) {
    aurum_symmetric::permute_many(&Poseidon::new(), states);
}
