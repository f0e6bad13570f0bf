//! The scalar Goldilocks field element.
//!
//! # Representation
//!
//! A [`Goldilocks`] stores one `u64` that is *lazily reduced*: any `u64` is a valid
//! representation of its residue modulo `p = 2^64 - 2^32 + 1`. Only the 2^32 − 1 values in
//! `[p, 2^64)` have a second representation (`x` and `x − p`). Arithmetic accepts every
//! representation and may return a non-canonical one; this saves a conditional subtraction
//! per operation, which matters most in the SIMD backends where every instruction counts.
//!
//! Everything observable goes through the canonical value: `Eq`, `Hash`, `Ord`, `Display`,
//! `Debug`, serde and [`Goldilocks::as_canonical_u64`]. Two elements that are equal in the
//! field therefore compare equal and hash alike whatever their stored representation.
//!
//! Constructors are explicit about reduction: [`Goldilocks::from_canonical`] rejects values
//! `≥ p` with an error naming the value (use it for untrusted encodings),
//! [`Goldilocks::from_u64`] and [`Goldilocks::from_u128`] reduce (`from_u64` lazily).

use arith::{EPSILON, add_raw, canonicalize, halve_raw, reduce128, sub_raw};

pub(crate) mod arith;
mod canonical;
mod inverse;
mod ops;
#[cfg(test)]
mod tests;

pub use crate::error::NonCanonical;
pub use arith::P;
pub use canonical::Canonical;

/// An element of the Goldilocks field `F_p`, `p = 2^64 − 2^32 + 1`.
///
/// See the [module documentation](self) for the lazily reduced representation.
#[derive(Clone, Copy, Default)]
#[repr(transparent)]
pub struct Goldilocks {
    value: u64,
}

impl Goldilocks {
    /// The field order `p`.
    pub const ORDER: u64 = P;
    /// A generator of the multiplicative group, 7 (the one Plonky3 and plonky2 use).
    pub const GENERATOR: Self = Self::from_u64(7);
    /// `p − 1 = 2^32 · (2^32 − 1)`: the largest power-of-two subgroup has order `2^32`.
    pub const TWO_ADICITY: usize = 32;
    /// `7^((p−1)/2^32)`, the generator of the order-`2^32` subgroup that Plonky3 uses.
    pub const POWER_OF_TWO_GENERATOR: Self = Self::from_u64(0x1856_29dc_da58_878c);

    /// Zero.
    pub const ZERO: Self = Self::from_u64(0);
    /// One.
    pub const ONE: Self = Self::from_u64(1);
    /// Two.
    pub const TWO: Self = Self::from_u64(2);
    /// `p − 1`.
    pub const NEG_ONE: Self = Self::from_u64(P - 1);

    /// The residue of `x` modulo `p`.
    ///
    /// The reduction is lazy: `x` is stored as is (every `u64` is a valid representation of
    /// its residue, see the module docs), so loading data costs nothing and the result is
    /// indistinguishable from the reduced value through any public operation.
    #[inline]
    #[must_use]
    pub const fn from_u64(x: u64) -> Self {
        Self { value: x }
    }

    /// The residue of `x` modulo `p`.
    #[inline]
    #[must_use]
    pub const fn from_u128(x: u128) -> Self {
        Self {
            value: reduce128(x),
        }
    }

    /// The residue of a signed integer modulo `p`.
    #[inline]
    #[must_use]
    pub const fn from_i64(x: i64) -> Self {
        if x >= 0 {
            Self::from_u64(x as u64)
        } else {
            Self::from_u64(x.unsigned_abs()).neg_const()
        }
    }

    /// `x` itself if it is a canonical encoding (`x < p`), an error naming `x` otherwise.
    #[inline]
    pub const fn from_canonical(x: u64) -> Result<Self, NonCanonical> {
        if x < P {
            Ok(Self { value: x })
        } else {
            Err(NonCanonical { value: x })
        }
    }

    /// Wraps a stored representation as is; any `u64` represents its residue modulo `p`.
    ///
    /// Used by the SIMD backends and by code that reads back what they store.
    #[inline(always)]
    #[must_use]
    pub(crate) const fn from_raw(value: u64) -> Self {
        Self { value }
    }

    /// The stored representation (possibly `≥ p`).
    #[inline(always)]
    #[must_use]
    pub(crate) const fn raw(self) -> u64 {
        self.value
    }

    /// The canonical value in `[0, p)`.
    #[inline]
    #[must_use]
    pub const fn as_canonical_u64(self) -> u64 {
        canonicalize(self.value)
    }

    /// Whether this is the zero element.
    #[inline]
    #[must_use]
    pub const fn is_zero(self) -> bool {
        self.value == 0 || self.value == P
    }

    /// `self + rhs`, usable in `const` contexts.
    #[inline]
    #[must_use]
    pub const fn add_const(self, rhs: Self) -> Self {
        Self::from_raw(add_raw(self.value, rhs.value))
    }

    /// `self − rhs`, usable in `const` contexts.
    #[inline]
    #[must_use]
    pub const fn sub_const(self, rhs: Self) -> Self {
        Self::from_raw(sub_raw(self.value, rhs.value))
    }

    /// `−self`, usable in `const` contexts.
    #[inline]
    #[must_use]
    pub const fn neg_const(self) -> Self {
        Self::from_raw(P - canonicalize(self.value))
    }

    /// `self · rhs`, usable in `const` contexts.
    #[inline]
    #[must_use]
    pub const fn mul_const(self, rhs: Self) -> Self {
        Self::from_raw(reduce128(self.value as u128 * rhs.value as u128))
    }

    /// `self²`.
    #[inline]
    #[must_use]
    pub fn square(self) -> Self {
        self * self
    }

    /// `self²`, usable in `const` contexts.
    #[inline]
    #[must_use]
    pub const fn square_const(self) -> Self {
        self.mul_const(self)
    }

    /// `2 · self`.
    #[inline]
    #[must_use]
    pub fn double(self) -> Self {
        self + self
    }

    /// `self / 2`.
    #[inline]
    #[must_use]
    pub const fn halve(self) -> Self {
        Self::from_raw(halve_raw(self.value))
    }

    /// `self · 2^exp` for any `exp`; cheaper than a multiplication for `exp < 64`.
    #[inline]
    #[must_use]
    pub const fn mul_2exp(self, exp: u64) -> Self {
        // 2^96 ≡ −1, so 2^192 ≡ 1: the exponent only matters modulo 192.
        let mut exp = exp % 192;
        let mut x = self;
        if exp >= 96 {
            x = x.neg_const();
            exp -= 96;
        }
        if exp >= 64 {
            // 2^64 ≡ 2^32 − 1.
            x = x.mul_const(Self::from_raw(EPSILON));
            exp -= 64;
        }
        Self::from_raw(reduce128((x.value as u128) << exp))
    }

    /// `self / 2^exp` for any `exp`.
    #[inline]
    #[must_use]
    pub const fn div_2exp(self, exp: u64) -> Self {
        // 2^-k = 2^(192 - k mod 192).
        self.mul_2exp(192 - exp % 192)
    }

    /// `self^exp` by square-and-multiply.
    #[must_use]
    pub const fn exp_u64(self, exp: u64) -> Self {
        let mut result = Self::ONE;
        let mut base = self;
        let mut e = exp;
        while e > 0 {
            if e & 1 == 1 {
                result = result.mul_const(base);
            }
            base = base.square_const();
            e >>= 1;
        }
        result
    }

    /// `self^(2^k)`.
    #[inline]
    #[must_use]
    pub const fn exp_power_of_2(self, k: usize) -> Self {
        let mut x = self;
        let mut i = 0;
        while i < k {
            x = x.square_const();
            i += 1;
        }
        x
    }

    /// `self^7`, the S-box of Poseidon and Poseidon2 over Goldilocks.
    #[inline]
    #[must_use]
    pub fn exp7(self) -> Self {
        let x2 = self.square();
        let x3 = x2 * self;
        let x4 = x2.square();
        x3 * x4
    }

    /// A generator of the subgroup of order `2^bits`, or `None` if `bits > 32`.
    ///
    /// These are powers of Plonky3's `7^((p−1)/2^32) = 0x185629dcda58878c`, so domains built
    /// from them match `p3-dft`.
    #[must_use]
    pub const fn two_adic_generator(bits: usize) -> Option<Self> {
        if bits > Self::TWO_ADICITY {
            return None;
        }
        Some(Self::POWER_OF_TWO_GENERATOR.exp_power_of_2(Self::TWO_ADICITY - bits))
    }

    /// `Σ aᵢ·bᵢ` with one reduction at the end instead of one per term.
    ///
    /// Products are accumulated as unreduced 128-bit halves in two `u128` sums; only the
    /// final ~192-bit total is reduced.
    ///
    /// # Panics
    /// Panics if the slices differ in length (a programming error, not a data error).
    #[must_use]
    pub fn dot_product(a: &[Self], b: &[Self]) -> Self {
        assert_eq!(
            a.len(),
            b.len(),
            "dot_product: slices of different lengths ({} and {})",
            a.len(),
            b.len()
        );
        let mut lo_acc: u128 = 0;
        let mut hi_acc: u128 = 0;
        for (x, y) in a.iter().zip(b) {
            let prod = u128::from(x.value) * u128::from(y.value);
            lo_acc += u128::from(prod as u64);
            hi_acc += prod >> 64;
        }
        // total = hi_acc·2^64 + lo_acc, and 2^64 ≡ EPSILON.
        Self::from_u128(hi_acc) * Self::from_raw(EPSILON) + Self::from_u128(lo_acc)
    }
}

/// `Σ x·c` over the pairs with one reduction: the low and high 64-bit halves of the 128-bit
/// products are summed in two `u128`s (an `add`/`adc` pair each, no carry tracking that LLVM
/// could turn into compare chains), then `lo + hi·2^64` is reduced. Fewer than 2^32 terms.
#[inline(always)]
pub(crate) fn linear_combination_u160(
    terms: impl Iterator<Item = (Goldilocks, Goldilocks)>,
) -> Goldilocks {
    let mut lo = 0u128;
    let mut hi = 0u128;
    for (x, c) in terms {
        let prod = u128::from(x.value) * u128::from(c.value);
        lo += u128::from(prod as u64);
        hi += prod >> 64;
    }
    // lo + hi·2^64 = sum + top·2^128 with sum < 2^128, and 2^128 ≡ −2^32 (mod p).
    let (sum, carry) = lo.overflowing_add(hi << 64);
    let top = (hi >> 64) as u64 + u64::from(carry);
    Goldilocks::from_raw(reduce128(sum)) - Goldilocks::from_raw(top << 32)
}
