//! The scalar part of the single-state vector forms, on one state's stored words (`u64`, any
//! representation): the last initial round's linear layer, and the partial rounds' row
//! products, each dot product's 128-bit products summed unreduced and reduced once.
//! `#[inline(always)]`, so that it compiles inside the vector forms' `#[target_feature]` entry
//! points (with `mulx` and `adc`/`adx` there); the same arithmetic as the generic rounds
//! (`Poseidon::permute_batch`), spelled on words so that no closure of the generic code stays
//! out of line. Single field operations (the S-box, `m00·u + sum`) are `Goldilocks`'s own,
//! whose reductions are tuned for the scalar unit.

use aurum_goldilocks::{Goldilocks, raw};

use crate::constants::{WIDTH, mds_matrix};
use crate::fast::FastConstants;

/// `m00`, the MDS matrix's corner (the partial rounds' multiplier of the S-box output), as
/// the small factor of `PackedField::mul_small`.
pub(super) const M00: u32 = {
    let m = mds_matrix()[0][0];
    assert!(m < 1 << 32);
    m as u32
};

/// The stored word of `x` (any representation).
#[inline(always)]
pub(super) fn word(x: Goldilocks) -> u64 {
    raw::words(core::slice::from_ref(&x))[0]
}

/// `Σ xs[k]·cs[k]` (as [`dot_plus`] with no extra terms).
#[inline(always)]
fn dot<const N: usize>(xs: &[u64; N], cs: &[u64]) -> u64 {
    dot_plus(xs, cs, 0, &[], &[])
}

/// `base + Σ xs[k]·cs[k] + Σ ys[i]·ds[i]`: the low and high words of the 128-bit products
/// summed in two 128-bit accumulators (at most 16 terms, far below 2^64), then `lo + hi·2^64`
/// reduced once. The `ys` terms are added last: in the partial rounds they are the most
/// recent S-box outputs, the last inputs to arrive.
#[inline(always)]
pub(super) fn dot_plus<const N: usize, const K: usize>(
    xs: &[u64; N],
    cs: &[u64],
    base: u64,
    ys: &[u64; K],
    ds: &[u64; K],
) -> u64 {
    let mut lo = u128::from(base);
    let mut hi = 0u128;
    // Two loops, not one over a chained iterator, which LLVM leaves rolled.
    for (&x, &c) in xs.iter().zip(cs) {
        let prod = u128::from(x) * u128::from(c);
        lo += u128::from(prod as u64);
        hi += prod >> 64;
    }
    for (&y, &d) in ys.iter().zip(ds) {
        let prod = u128::from(y) * u128::from(d);
        lo += u128::from(prod as u64);
        hi += prod >> 64;
    }
    // hi < 2^68, so hi·2^64 mod p is (hi mod 2^64)·2^64 + (hi >> 64)·2^128, 2^128 ≡ −2^32.
    let (sum, carry) = lo.overflowing_add(hi << 64);
    let top = (hi >> 64) as u64 + u64::from(carry);
    // top < 2^6, so top·2^32 < p.
    word(Goldilocks::from_u128(sum) - Goldilocks::from_u64(top << 32))
}

/// The linear layer of the last initial full round (the MDS matrix followed by the dense
/// matrix the sparse rounds start with, plus the first partial constant), as in the generic
/// rounds.
#[inline(always)]
pub(super) fn first_partial_layer(c: &FastConstants, state: &mut [u64; WIDTH]) {
    let m = mds_matrix();
    let s = *state;
    state[0] = dot_plus(&s, &m[0], raw::words(&c.partial)[0], &[], &[]);
    for (x, row) in state[1..].iter_mut().zip(&c.first_partial_matrix) {
        *x = dot(&s, raw::words(row));
    }
}
