//! FRI folding: a codeword of `n` points, stored in bit-reversed order, becomes one of
//! `n / 2^k` points by `k` binary folds with `β, β², β⁴, …` — which, on each group of `2^k`
//! adjacent values (a coset of the `2^k`-th roots of unity), is the interpolating polynomial
//! evaluated at `β` (Plonky3's `fold_matrix` and `fold_row` compute the same values).
//!
//! A binary fold of the pair `(f(x), f(−x))` at pair index `t` of a codeword of length `n` is
//! `(f(x) + f(−x))/2 + β·(f(x) − f(−x))/(2x)` with `x = ω_n^rev(t)` (`rev` over `log n − 1`
//! bits). The values `1/(2x)` come from one table for the first fold, which also serves the
//! later ones: fold `r` of pair `t` needs `ω_{n/2^r}^(−rev(t))/2`, and in bit-reversed order
//! that is entry `t` of the first table (squaring every point keeps the prefix).

use aurum_goldilocks::{Goldilocks, Goldilocks2, Kernel, PackedField, dispatch};
use rayon::prelude::*;

use crate::domain::{BitReversedPowers, reverse_bits, root_of_unity};

/// The largest arity (`2^MAX_LOG_ARITY` values per group).
const MAX_ARITY: usize = 1 << crate::limits::MAX_LOG_ARITY;

/// Output rows per rayon task.
const ROWS_PER_TASK: usize = 1 << 12;

/// One binary fold: `(lo + hi)/2 + β·(lo − hi)·h`, `h = 1/(2x)`.
#[inline(always)]
fn fold_pair(lo: Goldilocks2, hi: Goldilocks2, beta: Goldilocks2, h: Goldilocks) -> Goldilocks2 {
    (lo + hi).halve() + (lo - hi) * h * beta
}

/// Folds one group of `2^log_arity` values in place and returns the result; `half_inverse(r, k)`
/// is `1/(2x)` for pair `k` of the group in fold `r`.
#[inline(always)]
fn fold_group(
    group: &mut [Goldilocks2],
    log_arity: usize,
    beta: Goldilocks2,
    mut half_inverse: impl FnMut(usize, usize) -> Goldilocks,
) -> Goldilocks2 {
    let mut beta = beta;
    for round in 0..log_arity {
        let pairs = group.len() >> (round + 1);
        for k in 0..pairs {
            group[k] = fold_pair(group[2 * k], group[2 * k + 1], beta, half_inverse(round, k));
        }
        beta = beta.square();
    }
    group[0]
}

/// Folds a whole codeword (length `2^log_n`, bit-reversed order) by `2^log_arity`.
///
/// Each task folds `ROWS_PER_TASK` output rows; fold `r` of its rows reads the aligned range of
/// `ROWS_PER_TASK · arity / 2^(r+1)` entries of the `1/(2x)` table starting at
/// `first row · arity / 2^(r+1)`, which the task computes as one chunk of
/// `ω_n^(−rev(t)) / 2` (`rev` over `log_n − 1` bits) — the table is never stored whole.
pub(crate) fn fold_codeword(
    codeword: &[Goldilocks2],
    log_arity: usize,
    beta: Goldilocks2,
) -> Result<Vec<Goldilocks2>, crate::error::NoMemory> {
    let arity = 1usize << log_arity;
    let log_n = codeword.len().trailing_zeros() as usize;
    let rows = codeword.len() >> log_arity;
    let rows_per_task = ROWS_PER_TASK.min(rows);
    let log_task = rows_per_task.trailing_zeros() as usize;
    let inverse_root = root_of_unity(log_n).inverse();
    // Fold r of a task reads 2^(log_task + log_arity − r − 1) table entries.
    let tables: Vec<BitReversedPowers> = (0..log_arity)
        .map(|r| {
            BitReversedPowers::new(
                inverse_root,
                Goldilocks::ONE.halve(),
                log_n - 1,
                log_task + log_arity - r - 1,
            )
        })
        .collect();
    let mut folded = crate::error::try_zeroed_ext(rows, "the folded codeword")?;
    folded
        .par_chunks_mut(rows_per_task)
        .enumerate()
        .for_each(|(task, out)| {
            let halves: Vec<Vec<Goldilocks>> = tables
                .iter()
                .map(|table| {
                    let mut chunk = Vec::with_capacity(table.chunk_len());
                    table.chunk(task, &mut chunk);
                    chunk
                })
                .collect();
            let first = task * rows_per_task;
            dispatch(FoldRows {
                codeword: &codeword[first * arity..(first + out.len()) * arity],
                out,
                halves: &halves,
                log_arity,
                beta,
            });
        });
    Ok(folded)
}

/// One task's rows of [`fold_codeword`] as a kernel, lanes across rows: each group's values
/// are held as two coefficient vectors per value, and every binary fold of [`fold_pair`] runs
/// on the packed field (the rows after the last full vector run [`fold_group`]). As a
/// kernel, a build without `RUSTFLAGS` runs it on the selected backend's vectors: written as
/// plain extension-field code in the rayon closure, it took 2.5 times as long there as in a
/// build for AVX-512 (56 against 23 ms for the first fold of a 2^21 codeword, one thread).
struct FoldRows<'a> {
    /// The task's groups, `out.len() · 2^log_arity` values.
    codeword: &'a [Goldilocks2],
    out: &'a mut [Goldilocks2],
    /// Per fold `r`, the task's `1/(2x)` values, `out.len() · 2^(log_arity − r − 1)` of them.
    halves: &'a [Vec<Goldilocks>],
    log_arity: usize,
    beta: Goldilocks2,
}

impl Kernel for FoldRows<'_> {
    type Output = ();

    #[inline(always)]
    fn run<P: PackedField>(self) {
        let Self {
            codeword,
            out,
            halves,
            log_arity,
            beta,
        } = self;
        let arity = 1usize << log_arity;
        let lanes = P::WIDTH;
        let packed_rows = out.len() / lanes * lanes;
        let mut betas = [Goldilocks2::ZERO; crate::limits::MAX_LOG_ARITY];
        let mut power = beta;
        for b in betas.iter_mut().take(log_arity) {
            *b = power;
            power = power.square();
        }
        for first in (0..packed_rows).step_by(lanes) {
            let mut c0 = [P::ZERO; MAX_ARITY];
            let mut c1 = [P::ZERO; MAX_ARITY];
            for k in 0..arity {
                c0[k] = P::from_fn(|lane| codeword[(first + lane) * arity + k].coeffs[0]);
                c1[k] = P::from_fn(|lane| codeword[(first + lane) * arity + k].coeffs[1]);
            }
            for (round, b) in betas.iter().take(log_arity).enumerate() {
                // After `round` folds each row holds `arity >> round` values.
                let pairs = arity >> (round + 1);
                let [b0, b1] = b.coeffs;
                let (b0, b1, w_b1) = (
                    P::broadcast(b0),
                    P::broadcast(b1),
                    P::broadcast(Goldilocks2::W * b1),
                );
                for k in 0..pairs {
                    let h = P::from_fn(|lane| halves[round][(first + lane) * pairs + k]);
                    let (lo0, lo1, hi0, hi1) = (c0[2 * k], c1[2 * k], c0[2 * k + 1], c1[2 * k + 1]);
                    // (lo + hi)/2 + β·(lo − hi)·h, with (d0 + d1·X)·β = d0·b0 + W·b1·d1 +
                    // (d0·b1 + d1·b0)·X.
                    let d0 = (lo0 - hi0) * h;
                    let d1 = (lo1 - hi1) * h;
                    c0[k] = (lo0 + hi0).halve() + d0 * b0 + d1 * w_b1;
                    c1[k] = (lo1 + hi1).halve() + d0 * b1 + d1 * b0;
                }
            }
            for (lane, value) in out[first..first + lanes].iter_mut().enumerate() {
                *value = Goldilocks2::new(c0[0].as_slice()[lane], c1[0].as_slice()[lane]);
            }
        }
        let mut group = [Goldilocks2::ZERO; MAX_ARITY];
        for (offset, value) in out.iter_mut().enumerate().skip(packed_rows) {
            group[..arity].copy_from_slice(&codeword[offset * arity..(offset + 1) * arity]);
            // After `r` folds the task's rows are row-major with `arity >> r` values each.
            *value = fold_group(&mut group[..arity], log_arity, beta, |round, k| {
                halves[round][offset * (arity >> (round + 1)) + k]
            });
        }
    }
}

/// Folds the group of `2^log_arity` values at row `row` of a committed codeword whose folded
/// length is `2^log_folded` (the verifier's per-query fold; `evals` is overwritten).
pub(crate) fn fold_row(
    row: usize,
    log_folded: usize,
    log_arity: usize,
    beta: Goldilocks2,
    evals: &mut [Goldilocks2],
) -> Goldilocks2 {
    let log_n = log_folded + log_arity;
    let inverse_root = root_of_unity(log_n).inverse();
    let arity = 1usize << log_arity;
    fold_group(evals, log_arity, beta, |round, k| {
        let t = row * (arity >> (round + 1)) + k;
        inverse_root
            .exp_u64(reverse_bits(t, log_n - 1) as u64)
            .halve()
    })
}

/// Whether a codeword of `len` extension elements can be folded by `2^log_arity` (the folds
/// [`CommitEngine::fold`](crate::CommitEngine::fold) is asked for): `log_arity` 1 to
/// [`MAX_LOG_ARITY`](crate::MAX_LOG_ARITY), `len` a power of two of at least one group and at
/// most `2^MAX_LOG_DOMAIN`.
#[must_use]
pub fn foldable(len: usize, log_arity: usize) -> bool {
    (1..=crate::limits::MAX_LOG_ARITY).contains(&log_arity)
        && len.is_power_of_two()
        && len >= 1 << log_arity
        && len <= 1 << crate::limits::MAX_LOG_DOMAIN
}

/// `codeword` (`2^k` extension elements, bit-reversed) folded by `2^log_arity` with `beta` as
/// [`CommitEngine::fold`](crate::CommitEngine::fold) defines it, one group at a time the way
/// the verifier folds a queried group (an exponentiation per pair: slow), independently of the
/// prover's fold — for checking an engine's folds. `None` where the codeword is not
/// [`foldable`] by `2^log_arity`.
#[must_use]
pub fn fold_as_verifier(
    codeword: &[Goldilocks2],
    log_arity: usize,
    beta: Goldilocks2,
) -> Option<Vec<Goldilocks2>> {
    if !foldable(codeword.len(), log_arity) {
        return None;
    }
    let log_folded = codeword.len().trailing_zeros() as usize - log_arity;
    let mut evals = vec![Goldilocks2::ZERO; 1 << log_arity];
    Some(
        codeword
            .chunks_exact(1 << log_arity)
            .enumerate()
            .map(|(row, group)| {
                evals.copy_from_slice(group);
                fold_row(row, log_folded, log_arity, beta, &mut evals)
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::coset_point;

    fn ext(a: u64, b: u64) -> Goldilocks2 {
        Goldilocks2::new(Goldilocks::from_u64(a), Goldilocks::from_u64(b))
    }

    /// Lagrange interpolation through `(xs[i], ys[i])`, evaluated at `z`.
    fn interpolate(xs: &[Goldilocks], ys: &[Goldilocks2], z: Goldilocks2) -> Goldilocks2 {
        let mut sum = Goldilocks2::ZERO;
        for (i, (&xi, &yi)) in xs.iter().zip(ys).enumerate() {
            let mut term = yi;
            for (j, &xj) in xs.iter().enumerate() {
                if i != j {
                    term = term * (z - Goldilocks2::from(xj)) * (xi - xj).inverse();
                }
            }
            sum += term;
        }
        sum
    }

    #[test]
    fn folding_in_many_tasks_equals_the_per_row_fold() {
        let beta = ext(5, 11);
        for log_arity in [1, 4] {
            let log_n = 14 + log_arity;
            let codeword: Vec<Goldilocks2> =
                (0..1u64 << log_n).map(|i| ext(i ^ 0x5555, i * 3)).collect();
            let folded = fold_codeword(&codeword, log_arity, beta).unwrap();
            let arity = 1 << log_arity;
            for row in [0, 1, 4095, 4096, 9000, (1 << 14) - 1] {
                let mut evals = codeword[row * arity..(row + 1) * arity].to_vec();
                assert_eq!(fold_row(row, 14, log_arity, beta, &mut evals), folded[row]);
            }
        }
    }

    #[test]
    fn the_verifiers_fold_of_a_codeword_is_the_provers() {
        let beta = ext(17, 4);
        for log_arity in 1..=4 {
            let codeword: Vec<Goldilocks2> = (0..1u64 << (log_arity + 5))
                .map(|i| ext(i * 7 + 1, i ^ 9))
                .collect();
            assert_eq!(
                fold_as_verifier(&codeword, log_arity, beta),
                Some(fold_codeword(&codeword, log_arity, beta).unwrap())
            );
        }
        let one = [Goldilocks2::ONE; 8];
        for (len, log_arity) in [(8, 0), (8, 5), (6, 1), (4, 3), (0, 1)] {
            assert_eq!(fold_as_verifier(&one[..len], log_arity, beta), None);
        }
    }

    #[test]
    fn folding_a_group_interpolates_it_at_beta() {
        // A group at row `row` of a codeword of length 2^log_n holds the evaluations at the
        // points ω_n^rev(row·a + j) (the subgroup: folding ignores the coset shift).
        let beta = ext(123_456_789, 987_654_321);
        for log_arity in 1..=4 {
            for log_folded in 0..4 {
                let log_n = log_folded + log_arity;
                let n = 1usize << log_n;
                let codeword: Vec<Goldilocks2> =
                    (0..n as u64).map(|i| ext(i * i + 3, 7 * i + 1)).collect();
                let folded = fold_codeword(&codeword, log_arity, beta).unwrap();
                let arity = 1 << log_arity;
                for row in 0..n >> log_arity {
                    let xs: Vec<Goldilocks> = (0..arity)
                        .map(|j| {
                            coset_point(log_n, row * arity + j) * crate::domain::SHIFT.inverse()
                        })
                        .collect();
                    let group = &codeword[row * arity..(row + 1) * arity];
                    assert_eq!(
                        folded[row],
                        interpolate(&xs, group, beta),
                        "arity 2^{log_arity} row {row}"
                    );
                    let mut evals = group.to_vec();
                    assert_eq!(
                        fold_row(row, log_folded, log_arity, beta, &mut evals),
                        folded[row]
                    );
                }
            }
        }
    }
}
