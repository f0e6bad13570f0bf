//! The runtime arithmetic of [`Goldilocks`] (the operators, with the reductions tuned for speed
//! rather than `const`), its comparisons, formatting and conversions, all through the
//! canonical value.

use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::iter::{Product, Sum};
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use super::arith::EPSILON;
use super::{Goldilocks, NonCanonical};
use crate::backend::asm::{add_then_fold_carry, branch_hint};

/// `a · b mod p` (possibly non-canonical) for the runtime `Mul` of `Goldilocks`.
///
/// Built on `add_then_fold_carry`: with `-C target-cpu=native`, LLVM's SLP vectoriser
/// otherwise moves independent scalar reductions into AVX-512 registers, which made scalar
/// multiplication 2.6× slower (`aurum info`: 0.57 vs 1.49 elements/ns on Zen 4).
#[inline(always)]
pub(crate) fn mul(a: u64, b: u64) -> u64 {
    let prod = u128::from(a) * u128::from(b);
    let (lo, hi) = (prod as u64, (prod >> 64) as u64);
    // The same steps as `field::reduce128`, with the rare borrow (probability ~2^-32 for
    // random operands) as a predictable branch off the dependency chain, and an opaque
    // add-with-carry at the end.
    let (mut t0, borrow) = lo.overflowing_sub(hi >> 32);
    if borrow {
        branch_hint();
        t0 = t0.wrapping_sub(EPSILON);
    }
    let t1 = (hi & EPSILON) * EPSILON;
    add_then_fold_carry(t0, t1)
}

/// `a + b mod p` for any representations (the runtime `Add` of `Goldilocks`).
///
/// Same arithmetic as `field::add_raw`, but the second carry, which needs
/// `a + b > 2^65 − 2^32` and is therefore rare, is a predictable branch instead of a
/// data dependency: this shortens the latency chain (2.0 → 4.6 elements/ns in the
/// `throughput/add` benchmark). The first carry is a coin toss on random operands, so its
/// fix-up is a `select_unpredictable`: inside loops LLVM's x86 "cmov conversion" otherwise
/// turns the `cmov` into a branch that mispredicts half the time (it did in the rolled
/// round loops of scalar Poseidon2 W12/W16).
#[inline(always)]
pub(crate) fn add(a: u64, b: u64) -> u64 {
    let (sum, carry) = a.overflowing_add(b);
    let (mut sum, carry) = sum.overflowing_add(core::hint::select_unpredictable(carry, EPSILON, 0));
    if carry {
        branch_hint();
        sum += EPSILON;
    }
    sum
}

/// `a − b mod p` for any representations (the runtime `Sub` of `Goldilocks`); the rare
/// second borrow is a branch, as in [`add`].
#[inline(always)]
pub(crate) fn sub(a: u64, b: u64) -> u64 {
    let (diff, borrow) = a.overflowing_sub(b);
    let (mut diff, borrow) =
        diff.overflowing_sub(core::hint::select_unpredictable(borrow, EPSILON, 0));
    if borrow {
        branch_hint();
        diff -= EPSILON;
    }
    diff
}

impl PartialEq for Goldilocks {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.as_canonical_u64() == other.as_canonical_u64()
    }
}

impl Eq for Goldilocks {}

impl Hash for Goldilocks {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_canonical_u64().hash(state);
    }
}

impl PartialOrd for Goldilocks {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Goldilocks {
    /// Orders by canonical value.
    fn cmp(&self, other: &Self) -> Ordering {
        self.as_canonical_u64().cmp(&other.as_canonical_u64())
    }
}

impl fmt::Display for Goldilocks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.as_canonical_u64(), f)
    }
}

impl fmt::Debug for Goldilocks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.as_canonical_u64(), f)
    }
}

impl fmt::LowerHex for Goldilocks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::LowerHex::fmt(&self.as_canonical_u64(), f)
    }
}

impl From<u32> for Goldilocks {
    fn from(x: u32) -> Self {
        Self::from_raw(u64::from(x))
    }
}

impl From<u16> for Goldilocks {
    fn from(x: u16) -> Self {
        Self::from_raw(u64::from(x))
    }
}

impl From<u8> for Goldilocks {
    fn from(x: u8) -> Self {
        Self::from_raw(u64::from(x))
    }
}

impl From<bool> for Goldilocks {
    fn from(x: bool) -> Self {
        Self::from_raw(u64::from(x))
    }
}

impl TryFrom<u64> for Goldilocks {
    type Error = NonCanonical;
    /// Same as [`Goldilocks::from_canonical`]: values `≥ p` are rejected, not reduced.
    fn try_from(x: u64) -> Result<Self, NonCanonical> {
        Self::from_canonical(x)
    }
}

impl From<Goldilocks> for u64 {
    /// The canonical value.
    fn from(x: Goldilocks) -> u64 {
        x.as_canonical_u64()
    }
}

impl Add for Goldilocks {
    type Output = Self;
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        Self::from_raw(add(self.value, rhs.value))
    }
}

impl Sub for Goldilocks {
    type Output = Self;
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        Self::from_raw(sub(self.value, rhs.value))
    }
}

impl Mul for Goldilocks {
    type Output = Self;
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        Self::from_raw(mul(self.value, rhs.value))
    }
}

impl Neg for Goldilocks {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        self.neg_const()
    }
}

impl AddAssign for Goldilocks {
    #[inline(always)]
    fn add_assign(&mut self, rhs: Self) {
        *self = *self + rhs;
    }
}

impl SubAssign for Goldilocks {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: Self) {
        *self = *self - rhs;
    }
}

impl MulAssign for Goldilocks {
    #[inline(always)]
    fn mul_assign(&mut self, rhs: Self) {
        *self = *self * rhs;
    }
}

impl Sum for Goldilocks {
    /// Accumulates in a `u128` and reduces once at the end.
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        // Each term is < 2^64, so 2^64 terms fit before the u128 could overflow.
        Self::from_u128(iter.map(|x| u128::from(x.value)).sum())
    }
}

impl<'a> Sum<&'a Goldilocks> for Goldilocks {
    fn sum<I: Iterator<Item = &'a Self>>(iter: I) -> Self {
        iter.copied().sum()
    }
}

impl Product for Goldilocks {
    fn product<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::ONE, |acc, x| acc * x)
    }
}

impl<'a> Product<&'a Goldilocks> for Goldilocks {
    fn product<I: Iterator<Item = &'a Self>>(iter: I) -> Self {
        iter.copied().product()
    }
}
