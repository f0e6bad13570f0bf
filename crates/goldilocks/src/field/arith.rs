//! The field's arithmetic on stored words (`u64`, any representation): the constants, and the
//! `const` reduction, addition, subtraction and halving every other part builds on.

/// The field order `p = 2^64 − 2^32 + 1`.
pub const P: u64 = 0xFFFF_FFFF_0000_0001;

/// `2^64 mod p = 2^32 − 1`; adding it is the same as subtracting `p` modulo `2^64`.
pub(crate) const EPSILON: u64 = 0xFFFF_FFFF;

/// `(p + 1) / 2`, the inverse of two.
pub(crate) const HALF_P_PLUS_ONE: u64 = P.div_ceil(2);

/// `x mod p` for any `u64`.
#[inline(always)]
pub(crate) const fn canonicalize(x: u64) -> u64 {
    if x >= P { x - P } else { x }
}

/// `a + b mod p` for any representations; the result may be non-canonical.
#[inline(always)]
pub(crate) const fn add_raw(a: u64, b: u64) -> u64 {
    let (sum, carry) = a.overflowing_add(b);
    // A carry dropped 2^64 ≡ EPSILON: add it back. This can carry once more only if
    // a + b > 2^65 − 2^32, and then the sum is tiny, so the second fix-up cannot overflow.
    let (sum, carry) = sum.overflowing_add(EPSILON * carry as u64);
    sum + EPSILON * carry as u64
}

/// `a − b mod p` for any representations; the result may be non-canonical.
#[inline(always)]
pub(crate) const fn sub_raw(a: u64, b: u64) -> u64 {
    let (diff, borrow) = a.overflowing_sub(b);
    // A borrow added 2^64 ≡ EPSILON: take it away (mirror image of `add_raw`).
    let (diff, borrow) = diff.overflowing_sub(EPSILON * borrow as u64);
    diff - EPSILON * borrow as u64
}

/// `x / 2 mod p` for any representation: odd `x` becomes `(x + p) / 2`, computed without
/// overflow as `(x >> 1) + (p + 1) / 2`.
#[inline(always)]
pub(crate) const fn halve_raw(x: u64) -> u64 {
    (x >> 1) + (x & 1) * HALF_P_PLUS_ONE
}

/// Reduces a 128-bit value to a (possibly non-canonical) 64-bit representation.
///
/// With `x = lo + 2^64·(hh·2^32 + hl)`: `2^64 ≡ 2^32 − 1` and `2^96 ≡ −1`, so
/// `x ≡ lo − hh + hl·(2^32 − 1)`.
#[inline(always)]
pub(crate) const fn reduce128(x: u128) -> u64 {
    let lo = x as u64;
    let hi = (x >> 64) as u64;
    let hi_hi = hi >> 32;
    let hi_lo = hi & EPSILON;
    let (t0, borrow) = lo.overflowing_sub(hi_hi);
    // On a borrow t0 ≥ 2^64 − 2^32, so taking EPSILON away cannot underflow.
    let t0 = t0.wrapping_sub(EPSILON * borrow as u64);
    // hl·(2^32 − 1) ≤ 2^64 − 2^33 + 1, so the carry fix-up below cannot overflow.
    let t1 = hi_lo * EPSILON;
    let (sum, carry) = t0.overflowing_add(t1);
    sum + EPSILON * carry as u64
}
