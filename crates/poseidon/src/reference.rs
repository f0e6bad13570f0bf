//! A deliberately naive Poseidon, straight from the definition: every round adds its 12
//! constants, applies the S-box to all words (full rounds) or to `state[0]` (partial rounds)
//! and multiplies by the full MDS matrix with general field multiplications.
//!
//! The optimised permutation (moved constants, sparse partial rounds, small-coefficient MDS)
//! is tested against it, and both against the published known answers.

use aurum_goldilocks::Goldilocks;

use crate::constants::{
    HALF_FULL_ROUNDS, PARTIAL_ROUNDS, ROUND_CONSTANTS, ROUNDS, WIDTH, mds_matrix,
};

/// `x^7` by repeated multiplication.
fn sbox(x: Goldilocks) -> Goldilocks {
    x * x * x * x * x * x * x
}

/// `M · state` with the full matrix.
#[must_use]
pub fn mds(state: &[Goldilocks; WIDTH]) -> [Goldilocks; WIDTH] {
    let m = mds_matrix();
    core::array::from_fn(|i| {
        (0..WIDTH)
            .map(|j| Goldilocks::from_u64(m[i][j]) * state[j])
            .sum()
    })
}

/// The permutation, computed naively.
#[must_use]
pub fn permute(input: [Goldilocks; WIDTH]) -> [Goldilocks; WIDTH] {
    let mut state = input;
    for r in 0..ROUNDS {
        for i in 0..WIDTH {
            state[i] += Goldilocks::from_u64(ROUND_CONSTANTS[WIDTH * r + i]);
        }
        let partial = (HALF_FULL_ROUNDS..HALF_FULL_ROUNDS + PARTIAL_ROUNDS).contains(&r);
        if partial {
            state[0] = sbox(state[0]);
        } else {
            state = state.map(sbox);
        }
        state = mds(&state);
    }
    state
}
