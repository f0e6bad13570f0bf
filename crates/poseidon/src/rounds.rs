//! The rounds of the permutation, written once, generic over the packed type and the batch
//! size: the MDS layer with its small coefficients, the full rounds' S-box layer, and the
//! sparse partial rounds. [`Poseidon`](crate::Poseidon)'s batched form runs them, and the
//! single-state vector forms (`single`) run the partial rounds with them.

use aurum_goldilocks::{Goldilocks, PackedField, SmallCoefficients};

use crate::constants::{self, PARTIAL_ROUNDS, WIDTH};
use crate::fast::FastConstants;

/// The MDS matrix as small-coefficient rows, `MDS_U32[i].get()[j]` multiplying `state[j]` in
/// `out[i]`.
const MDS_U32: [SmallCoefficients<WIDTH>; WIDTH] = {
    let m = constants::mds_matrix();
    let mut out = [SmallCoefficients::new([0; WIDTH]); WIDTH];
    let mut i = 0;
    while i < WIDTH {
        let mut row = [0u32; WIDTH];
        let mut j = 0;
        while j < WIDTH {
            row[j] = m[i][j] as u32;
            j += 1;
        }
        // A row summing to 2^31 or more fails to compile here.
        out[i] = SmallCoefficients::new(row);
        i += 1;
    }
    out
};

// Hot-path code below uses plain loops, never closures (`array::from_fn`, `map`): a closure
// is compiled as its own function without the backend's target features, so the SIMD
// intrinsics inside would not inline into it (100× slower on AVX2/AVX-512).

/// `MDS · state` with the small coefficients: one deferred-reduction linear combination per
/// output, over the unrotated state with the matrix row as coefficients (so the rows share
/// every operand and its split into 32-bit halves). A loop over the constant rows, which LLVM
/// unrolls (each row's coefficients then become constants); spelling the 12 rows out
/// measured no faster and multiplied the unoptimised code and stack by 12.
#[inline(always)]
pub fn mds_layer<P: PackedField>(state: &mut [P; WIDTH]) {
    let mut out = [P::ZERO; WIDTH];
    for (o, row) in out.iter_mut().zip(&MDS_U32) {
        *o = P::linear_combination_small(state, row);
    }
    // Written back word by word (a whole-array assignment may become a `memcpy` call).
    for (s, o) in state.iter_mut().zip(out) {
        *s = o;
    }
}

/// Adds a round's constants to every state, then applies the S-box to every word of every
/// state, stage by stage across all `B·12` words (all squares, then all `x³` and `x⁴`, then all
/// `x⁷`), so that each stage is `B·12` independent multiplications side by side.
///
/// Each stage is a plain loop with one operation in its body: small enough for LLVM to unroll,
/// and one copy of each operation in unoptimised builds, where every inlined copy keeps stack
/// slots of its own. (Measured against twelve spelled-out S-boxes per state: 10–17 % faster
/// on AVX2 and AVX-512, the same on scalar.)
#[inline(always)]
pub(crate) fn full_sbox_layer<P: PackedField, const B: usize>(
    states: &mut [[P; WIDTH]; B],
    constants: &[Goldilocks; WIDTH],
) {
    for state in states.iter_mut() {
        for (s, &c) in state.iter_mut().zip(constants) {
            *s += c;
        }
    }
    let mut x2 = *states;
    for state in x2.iter_mut() {
        for x in state.iter_mut() {
            *x = x.square();
        }
    }
    let mut x3 = x2;
    let mut x4 = x2;
    for b in 0..B {
        for i in 0..WIDTH {
            x3[b][i] *= states[b][i];
            x4[b][i] = x4[b][i].square();
        }
    }
    for b in 0..B {
        for i in 0..WIDTH {
            states[b][i] = x3[b][i] * x4[b][i];
        }
    }
}

/// The linear layer of the last initial full round: the MDS matrix followed by the dense
/// matrix the sparse partial rounds start with, plus the first partial constant.
#[inline(always)]
pub(crate) fn first_partial_layer<P: PackedField, const B: usize>(
    c: &FastConstants,
    states: &mut [[P; WIDTH]; B],
) {
    for state in states.iter_mut() {
        let s = *state;
        state[0] = P::linear_combination_small(&s, &MDS_U32[0]) + c.partial[0];
        for (x, row) in state[1..].iter_mut().zip(&c.first_partial_matrix) {
            *x = P::linear_combination(&s, row);
        }
    }
}

/// The 22 partial rounds in sparse form. On entry `state[0]` already holds the first
/// partial constant; each round adds the next one off the critical path.
#[inline(always)]
pub(crate) fn partial_rounds<P: PackedField, const B: usize>(
    c: &FastConstants,
    states: &mut [[P; WIDTH]; B],
) {
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
            // Products, then sums: two one-operation loops LLVM unrolls. A multiply-add
            // body it left rolled, with the state in memory (scalar latency +3 %).
            let mut products = [P::ZERO; WIDTH - 1];
            for (p, &col) in products.iter_mut().zip(&c.partial_cols[j]) {
                *p = s0 * col;
            }
            for (x, p) in state[1..].iter_mut().zip(products) {
                *x += p;
            }
            state[0] = s0.mul_small(MDS_U32[0].get()[0]) + sum;
        }
    }
}
