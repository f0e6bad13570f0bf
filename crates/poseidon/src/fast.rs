//! The constants of the fast permutation, derived from the round constants and the MDS
//! matrix (Poseidon paper, appendix B), once per process.
//!
//! Write `M = [[m00, r], [c, M̂]]` (`r` a 1×11 row, `c` an 11×1 column, `M̂` 11×11). Two
//! rewrites turn the 22 partial rounds `s ← M·S₀(s + RC)` (`S₀`: S-box on `s[0]` only) into
//! cheap ones:
//!
//! 1. **Moving constants forward.** `M·S₀(s + (a, b)) = M·S₀(s + (a, 0)) + M·(0, b)`: only
//!    the constant of `s[0]` must stay before the S-box; the rest becomes a vector added after
//!    the round, i.e. to the next round's constants. Walking forward, each partial round keeps
//!    one scalar constant, and the last leftover joins the constants of the first terminal
//!    full round (which adds 12 constants anyway): no extra additions at all.
//! 2. **Sparse matrices.** `M = S·D` with `D = diag(1, M̂)` and the sparse
//!    `S = [[m00, r·M̂⁻¹], [c, I]]`. `D` leaves `s[0]` alone, so it commutes with `S₀` and
//!    with a constant on `s[0]`, and moves into the previous round, whose matrix becomes `D·M`
//!    and is split the same way. By induction the partial round `j` (of 22) applies
//!    `S_j = [[m00, r·M̂^-k], [M̂^(k-1)·c, I]]` with `k = 22 − j`, and the dense
//!    `diag(1, M̂^22)` left over at the start is folded into the MDS matrix of the last initial
//!    full round (11 rows of 12 general coefficients instead of small ones plus an 11×11
//!    product, as plonky2 has).
//!
//! A sparse round costs 23 multiplications (a 12-term row for the new `s[0]`, 11 products
//! `s0·ŵ_i` added to the other words) instead of a dense 12×12 product.

use std::sync::OnceLock;

use aurum_goldilocks::Goldilocks;

use crate::constants::{HALF_FULL_ROUNDS, PARTIAL_ROUNDS, ROUND_CONSTANTS, WIDTH, mds_matrix};

/// Width minus one: the size of `M̂`.
const N: usize = WIDTH - 1;
type Square = [[Goldilocks; N]; N];

/// The constants the fast permutation runs on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FastConstants {
    /// Round constants of the 8 full rounds (rounds 0–3 and 26–29). Those of round 26 include
    /// the constants moved out of the partial rounds.
    pub full: [[Goldilocks; WIDTH]; 2 * HALF_FULL_ROUNDS],
    /// The constant added to `state[0]` before the S-box of each partial round.
    pub partial: [Goldilocks; PARTIAL_ROUNDS],
    /// Rows 1–11 of the linear layer of round 3, `diag(1, M̂^22)·M` (row 0 is the MDS row).
    pub first_partial_matrix: [[Goldilocks; WIDTH]; N],
    /// `M̂^22`, the dense matrix the partial rounds start with (folded into
    /// `first_partial_matrix`; kept for comparison with plonky2's precomputed tables).
    pub initial_matrix: Square,
    /// Per partial round, the row `r·M̂^-k` giving the new
    /// `state[0] = m00·state[0] + Σ_i row[i − 1]·state[i]` (`m00 = 25`).
    pub partial_rows: [[Goldilocks; N]; PARTIAL_ROUNDS],
    /// Per partial round, the column `M̂^(k-1)·c`: `state[i] += col[i − 1]·state[0]`.
    pub partial_cols: [[Goldilocks; N]; PARTIAL_ROUNDS],
}

fn g(x: u64) -> Goldilocks {
    Goldilocks::from_u64(x)
}

fn identity() -> Square {
    core::array::from_fn(|i| core::array::from_fn(|j| g(u64::from(i == j))))
}

fn mat_mul(a: &Square, b: &Square) -> Square {
    core::array::from_fn(|i| core::array::from_fn(|j| (0..N).map(|k| a[i][k] * b[k][j]).sum()))
}

fn mat_vec(a: &Square, v: &[Goldilocks; N]) -> [Goldilocks; N] {
    core::array::from_fn(|i| (0..N).map(|k| a[i][k] * v[k]).sum())
}

fn vec_mat(v: &[Goldilocks; N], a: &Square) -> [Goldilocks; N] {
    core::array::from_fn(|j| (0..N).map(|k| v[k] * a[k][j]).sum())
}

/// The inverse by Gauss–Jordan elimination, or `None` if the matrix is singular.
fn inverse(a: &Square) -> Option<Square> {
    let mut m = *a;
    let mut inv = identity();
    for col in 0..N {
        let pivot = (col..N).find(|&r| !m[r][col].is_zero())?;
        m.swap(col, pivot);
        inv.swap(col, pivot);
        let scale = m[col][col].try_inverse()?;
        for j in 0..N {
            m[col][j] *= scale;
            inv[col][j] *= scale;
        }
        for r in 0..N {
            if r != col && !m[r][col].is_zero() {
                let f = m[r][col];
                for j in 0..N {
                    let (mc, ic) = (m[col][j], inv[col][j]);
                    m[r][j] -= f * mc;
                    inv[r][j] -= f * ic;
                }
            }
        }
    }
    Some(inv)
}

impl FastConstants {
    /// Derives the constants from [`ROUND_CONSTANTS`] and the MDS matrix.
    #[must_use]
    pub fn derive() -> Self {
        let m = mds_matrix().map(|row| row.map(g));
        let round = |r: usize| -> [Goldilocks; WIDTH] {
            core::array::from_fn(|i| g(ROUND_CONSTANTS[WIDTH * r + i]))
        };
        let m_hat: Square = core::array::from_fn(|i| core::array::from_fn(|j| m[i + 1][j + 1]));
        let m_row: [Goldilocks; N] = core::array::from_fn(|j| m[0][j + 1]);
        let m_col: [Goldilocks; N] = core::array::from_fn(|i| m[i + 1][0]);
        let m_hat_inv = inverse(&m_hat).expect("M̂ of an MDS matrix is invertible");

        // 1. Constants moved forward through the partial rounds.
        let mut full = [[Goldilocks::ZERO; WIDTH]; 2 * HALF_FULL_ROUNDS];
        for r in 0..HALF_FULL_ROUNDS {
            full[r] = round(r);
            full[HALF_FULL_ROUNDS + r] = round(HALF_FULL_ROUNDS + PARTIAL_ROUNDS + r);
        }
        let mut partial = [Goldilocks::ZERO; PARTIAL_ROUNDS];
        let mut carried = round(HALF_FULL_ROUNDS);
        for (j, constant) in partial.iter_mut().enumerate() {
            *constant = carried[0];
            // M·(0, carried[1..]) is added after this round.
            let leftover: [Goldilocks; WIDTH] =
                core::array::from_fn(|i| (1..WIDTH).map(|k| m[i][k] * carried[k]).sum());
            let next = if j + 1 < PARTIAL_ROUNDS {
                round(HALF_FULL_ROUNDS + j + 1)
            } else {
                full[HALF_FULL_ROUNDS]
            };
            carried = core::array::from_fn(|i| next[i] + leftover[i]);
        }
        full[HALF_FULL_ROUNDS] = carried;

        // 2. Sparse matrices: partial round j uses M̂^k, k = 22 − j.
        let mut partial_rows = [[Goldilocks::ZERO; N]; PARTIAL_ROUNDS];
        let mut partial_cols = [[Goldilocks::ZERO; N]; PARTIAL_ROUNDS];
        let mut power = identity(); // M̂^(k−1)
        let mut inverse_power = m_hat_inv; // M̂^−k
        for j in (0..PARTIAL_ROUNDS).rev() {
            partial_cols[j] = mat_vec(&power, &m_col);
            partial_rows[j] = vec_mat(&m_row, &inverse_power);
            power = mat_mul(&power, &m_hat);
            inverse_power = mat_mul(&inverse_power, &m_hat_inv);
        }
        // Now power = M̂^22.
        let initial_matrix = power;
        let first_col = mat_vec(&initial_matrix, &m_col);
        let first_rest = mat_mul(&initial_matrix, &m_hat);
        let first_partial_matrix = core::array::from_fn(|i| {
            core::array::from_fn(|j| {
                if j == 0 {
                    first_col[i]
                } else {
                    first_rest[i][j - 1]
                }
            })
        });
        Self {
            full,
            partial,
            first_partial_matrix,
            initial_matrix,
            partial_rows,
            partial_cols,
        }
        .canonical()
    }

    /// The same constants with every element stored canonically.
    fn canonical(mut self) -> Self {
        let canon = |x: &mut Goldilocks| *x = Goldilocks::from_u64(x.as_canonical_u64());
        self.full.iter_mut().flatten().for_each(canon);
        self.partial.iter_mut().for_each(canon);
        self.first_partial_matrix
            .iter_mut()
            .flatten()
            .for_each(canon);
        self.initial_matrix.iter_mut().flatten().for_each(canon);
        self.partial_rows.iter_mut().flatten().for_each(canon);
        self.partial_cols.iter_mut().flatten().for_each(canon);
        self
    }

    /// The constants, derived on first use and shared by every [`crate::Poseidon`].
    pub fn get() -> &'static Self {
        static CONSTANTS: OnceLock<FastConstants> = OnceLock::new();
        CONSTANTS.get_or_init(Self::derive)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_of_m_hat() {
        let m = mds_matrix().map(|row| row.map(g));
        let m_hat: Square = core::array::from_fn(|i| core::array::from_fn(|j| m[i + 1][j + 1]));
        let inv = inverse(&m_hat).unwrap();
        assert_eq!(mat_mul(&m_hat, &inv), identity());
        assert_eq!(mat_mul(&inv, &m_hat), identity());
        let mut singular = m_hat;
        singular[3] = singular[2];
        assert!(inverse(&singular).is_none());
    }

    #[test]
    fn derived_constants_are_canonical_and_shared() {
        let c = FastConstants::derive();
        assert_eq!(FastConstants::get(), &c);
        // The last partial round's matrix is M itself: its column is M's first column.
        let m = mds_matrix();
        assert_eq!(
            c.partial_cols[PARTIAL_ROUNDS - 1],
            core::array::from_fn(|i| g(m[i + 1][0]))
        );
    }
}
