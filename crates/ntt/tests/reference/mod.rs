//! Independent reference transforms for the tests: written for clarity, not speed, and
//! sharing no code with the crate (only the field arithmetic).

#![allow(dead_code)]

use aurum_goldilocks::{Goldilocks, P};

/// `x` with its low `bits` bits reversed.
pub fn rev(x: usize, bits: usize) -> usize {
    (0..bits).fold(0, |acc, b| acc | (((x >> b) & 1) << (bits - 1 - b)))
}

/// The subgroup generator of order `2^log_n` from a generator of order `2^32`, by squaring.
pub fn root(generator_2_32: Goldilocks, log_n: usize) -> Goldilocks {
    (log_n..32).fold(generator_2_32, |g, _| g * g)
}

/// Evaluations of each column (coefficients, natural order) at `shift·ω^i`, `i < height`,
/// by Horner's rule: O(n²) per column.
pub fn naive_coset_dft(
    coeffs: &[Goldilocks],
    width: usize,
    omega: Goldilocks,
    shift: Goldilocks,
) -> Vec<Goldilocks> {
    let n = coeffs.len() / width;
    let mut out = vec![Goldilocks::ZERO; coeffs.len()];
    let mut point = shift;
    for i in 0..n {
        for c in 0..width {
            let mut acc = Goldilocks::ZERO;
            for j in (0..n).rev() {
                acc = acc * point + coeffs[j * width + c];
            }
            out[i * width + c] = acc;
        }
        point *= omega;
    }
    out
}

/// Textbook recursive radix-2 FFT of one column (natural in, natural out), O(n log n):
/// `p(x) = e(x²) + x·o(x²)`.
pub fn fft(coeffs: &[Goldilocks], omega: Goldilocks) -> Vec<Goldilocks> {
    let n = coeffs.len();
    if n == 1 {
        return coeffs.to_vec();
    }
    let even: Vec<_> = coeffs.iter().step_by(2).copied().collect();
    let odd: Vec<_> = coeffs.iter().skip(1).step_by(2).copied().collect();
    let (e, o) = (fft(&even, omega * omega), fft(&odd, omega * omega));
    let mut out = vec![Goldilocks::ZERO; n];
    let mut w = Goldilocks::ONE;
    for i in 0..n / 2 {
        out[i] = e[i] + w * o[i];
        out[i + n / 2] = e[i] - w * o[i];
        w *= omega;
    }
    out
}

/// [`fft`] on every column of a row-major matrix, at points `shift·ω^i`.
pub fn coset_fft_matrix(
    coeffs: &[Goldilocks],
    width: usize,
    omega: Goldilocks,
    shift: Goldilocks,
) -> Vec<Goldilocks> {
    let n = coeffs.len() / width;
    let mut out = vec![Goldilocks::ZERO; coeffs.len()];
    for c in 0..width {
        let mut power = Goldilocks::ONE;
        let column: Vec<_> = (0..n)
            .map(|j| {
                let x = coeffs[j * width + c] * power;
                power *= shift;
                x
            })
            .collect();
        for (i, y) in fft(&column, omega).into_iter().enumerate() {
            out[i * width + c] = y;
        }
    }
    out
}

/// Coefficients (natural order) from evaluations on `H` (natural order).
pub fn interpolate(values: &[Goldilocks], width: usize, omega: Goldilocks) -> Vec<Goldilocks> {
    let n = values.len() / width;
    let inv_n = Goldilocks::from_u64(n as u64).inverse();
    coset_fft_matrix(values, width, omega.inverse(), Goldilocks::ONE)
        .into_iter()
        .map(|x| x * inv_n)
        .collect()
}

/// Rows permuted into bit-reversed order.
pub fn bit_reverse(values: &[Goldilocks], width: usize) -> Vec<Goldilocks> {
    let n = values.len() / width;
    let bits = n.trailing_zeros() as usize;
    (0..n)
        .flat_map(|i| {
            let j = rev(i, bits);
            values[j * width..(j + 1) * width].to_vec()
        })
        .collect()
}

/// Pseudo-random elements (SplitMix64), including non-canonical representations `≥ p`.
pub fn random_matrix(len: usize, seed: u64) -> Vec<Goldilocks> {
    let mut state = seed;
    (0..len)
        .map(|i| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            // Every 7th element in [p, 2^64): the lazily reduced representations.
            if i % 7 == 3 {
                Goldilocks::from_u64(P + (z % (u64::MAX - P)))
            } else {
                Goldilocks::from_u64(z)
            }
        })
        .collect()
}
