//! The scalar part of the single-state vector forms, on one state's stored words (`u64`, any
//! representation): the last initial round's linear layer, and the word-0 arithmetic of the
//! sparse partial rounds (its S-box, the row products), each dot product's 128-bit products
//! summed unreduced and reduced once. Plain integer code,
//! `#[inline(always)]` so that it compiles inside the vector forms' `#[target_feature]` entry
//! points (with `mulx` and `adc`/`adx` there); the same arithmetic as the generic rounds
//! (`Poseidon::permute_batch`), spelled on words so that no closure of the generic code stays out of
//! line.

use aurum_goldilocks::raw;

use crate::constants::{WIDTH, mds_matrix};
use crate::fast::FastConstants;

/// `2^64 mod p = 2^32 − 1`.
const EPSILON: u64 = 0xffff_ffff;

/// `m00`, the MDS matrix's corner (the partial rounds' multiplier of the S-box output).
pub(super) const M00: u64 = mds_matrix()[0][0];

/// Reduces a 128-bit value to a (possibly non-canonical) word: with `x = lo + 2^64·(hh·2^32 +
/// hl)`, `x ≡ lo − hh + hl·(2^32 − 1)`.
#[inline(always)]
pub(super) fn reduce128(x: u128) -> u64 {
    let lo = x as u64;
    let hi = (x >> 64) as u64;
    let (t0, borrow) = lo.overflowing_sub(hi >> 32);
    // On a borrow t0 ≥ 2^64 − 2^32, so taking EPSILON away cannot underflow.
    let t0 = t0.wrapping_sub(EPSILON * u64::from(borrow));
    // hl·(2^32 − 1) ≤ 2^64 − 2^33 + 1, so the carry fix-up cannot overflow.
    let (sum, carry) = t0.overflowing_add((hi & EPSILON) * EPSILON);
    sum.wrapping_add(EPSILON * u64::from(carry))
}

#[inline(always)]
pub(super) fn mul(a: u64, b: u64) -> u64 {
    reduce128(u128::from(a) * u128::from(b))
}

/// `a + b` for any representations (possibly non-canonical).
#[inline(always)]
pub(super) fn add(a: u64, b: u64) -> u64 {
    let (sum, carry) = a.overflowing_add(b);
    // A carry dropped 2^64 ≡ EPSILON; a second carry leaves a tiny sum, so no third.
    let (sum, carry) = sum.overflowing_add(EPSILON * u64::from(carry));
    sum.wrapping_add(EPSILON * u64::from(carry))
}

#[inline(always)]
pub(super) fn exp7(x: u64) -> u64 {
    let x2 = mul(x, x);
    let x3 = mul(x2, x);
    let x4 = mul(x2, x2);
    mul(x3, x4)
}

/// `Σ xs[k]·cs[k]`: the low and high words of the products summed in two 128-bit
/// accumulators (at most 12 terms, far below 2^64), then `lo + hi·2^64` reduced once.
#[inline(always)]
pub(super) fn dot<const N: usize>(xs: &[u64; N], cs: &[u64]) -> u64 {
    let mut lo = 0u128;
    let mut hi = 0u128;
    for (&x, &c) in xs.iter().zip(cs) {
        let prod = u128::from(x) * u128::from(c);
        lo += u128::from(prod as u64);
        hi += prod >> 64;
    }
    // hi < 2^68, so hi·2^64 mod p is (hi mod 2^64)·2^64 + (hi >> 64)·2^128, 2^128 ≡ −2^32.
    let (sum, carry) = lo.overflowing_add(hi << 64);
    let top = (hi >> 64) as u64 + u64::from(carry);
    // top < 2^5, so top·2^32 < p: subtracting it is one borrow fix-up.
    let r = reduce128(sum);
    let (diff, borrow) = r.overflowing_sub(top << 32);
    diff.wrapping_sub(EPSILON * u64::from(borrow))
}

/// The linear layer of the last initial full round (the MDS matrix followed by the dense
/// matrix the sparse rounds start with, plus the first partial constant), as in the generic
/// rounds.
#[inline(always)]
pub(super) fn first_partial_layer(c: &FastConstants, state: &mut [u64; WIDTH]) {
    let m = mds_matrix();
    let s = *state;
    state[0] = add(dot(&s, &m[0]), raw::words(&c.partial)[0]);
    for (x, row) in state[1..].iter_mut().zip(&c.first_partial_matrix) {
        *x = dot(&s, raw::words(row));
    }
}
