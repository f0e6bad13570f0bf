//! A deliberately naive Poseidon2, straight from the definition with explicit matrices and
//! general multiplications. The optimised permutation is tested against it (and both
//! against the published known answers), so a mistake in the add/double/halve linear layers
//! cannot hide behind a matching mistake elsewhere.

use aurum_goldilocks::Goldilocks;

use crate::{HALF_EXTERNAL_ROUNDS, RoundConstants};

/// Plonky3's `M4`.
pub const PLONKY3_M4: [[u64; 4]; 4] = [[2, 3, 1, 1], [1, 2, 3, 1], [1, 1, 2, 3], [3, 1, 1, 2]];
/// Horizen Labs' `M4`.
pub const HORIZEN_LABS_M4: [[u64; 4]; 4] = [[5, 7, 1, 3], [4, 6, 1, 1], [1, 3, 5, 7], [1, 1, 4, 6]];

/// The external matrix `circ(2·M4, M4, …, M4)` as a full `W × W` matrix.
#[must_use]
pub fn external_matrix<const W: usize>(m4: &[[u64; 4]; 4]) -> [[Goldilocks; W]; W] {
    core::array::from_fn(|i| {
        core::array::from_fn(|j| {
            let factor = if i / 4 == j / 4 { 2 } else { 1 };
            Goldilocks::from_u64(m4[i % 4][j % 4] * factor)
        })
    })
}

fn mat_vec<const W: usize>(m: &[[Goldilocks; W]; W], v: &[Goldilocks; W]) -> [Goldilocks; W] {
    core::array::from_fn(|i| (0..W).map(|j| m[i][j] * v[j]).sum())
}

fn sbox(x: Goldilocks) -> Goldilocks {
    x * x * x * x * x * x * x
}

/// The permutation, computed naively.
#[must_use]
pub fn permute<const W: usize>(
    constants: &RoundConstants<W>,
    m4: &[[u64; 4]; 4],
    diagonal: &[Goldilocks; W],
    input: [Goldilocks; W],
) -> [Goldilocks; W] {
    let external = external_matrix::<W>(m4);
    // Internal matrix: all ones plus diag(D).
    let internal: [[Goldilocks; W]; W] = core::array::from_fn(|i| {
        core::array::from_fn(|j| {
            if i == j {
                Goldilocks::ONE + diagonal[i]
            } else {
                Goldilocks::ONE
            }
        })
    });
    let mut state = mat_vec(&external, &input);
    for r in 0..HALF_EXTERNAL_ROUNDS {
        for i in 0..W {
            state[i] = sbox(state[i] + constants.initial[r][i]);
        }
        state = mat_vec(&external, &state);
    }
    for c in constants.internal {
        state[0] = sbox(state[0] + c);
        state = mat_vec(&internal, &state);
    }
    for r in 0..HALF_EXTERNAL_ROUNDS {
        for i in 0..W {
            state[i] = sbox(state[i] + constants.terminal[r][i]);
        }
        state = mat_vec(&external, &state);
    }
    state
}
