//! The quadratic extension `F_p[X] / (X² − 7)`, where FRI challenges live.
//!
//! 7 is a quadratic non-residue modulo p (it generates `F_p^*`), so `X² − 7` is irreducible.
//! This is the degree-2 extension both Plonky3 (`BinomialExtensionField<Goldilocks, 2>`) and
//! plonky2 (`QuadraticExtension<GoldilocksField>`) use, with the same basis `{1, X}`.

use core::fmt;
use core::iter::{Product, Sum};
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use crate::field::Goldilocks;
use crate::field_trait::Field;

/// `W` in `X² = W`.
const W: Goldilocks = Goldilocks2::W;

/// An element `c0 + c1·X` of `F_p[X] / (X² − 7)`.
///
/// `#[repr(C)]` so that a slice of `Goldilocks2` is a slice of `2n` `Goldilocks`
/// (coefficients interleaved), which lets linear maps over the base field (NTTs) treat an
/// extension column as two base columns.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(C)]
pub struct Goldilocks2 {
    /// Coefficients `[c0, c1]` of `c0 + c1·X`.
    pub coeffs: [Goldilocks; 2],
}

impl Goldilocks2 {
    /// Zero.
    pub const ZERO: Self = Self::new(Goldilocks::ZERO, Goldilocks::ZERO);
    /// One.
    pub const ONE: Self = Self::new(Goldilocks::ONE, Goldilocks::ZERO);
    /// Two.
    pub const TWO: Self = Self::new(Goldilocks::TWO, Goldilocks::ZERO);
    /// `−1`.
    pub const NEG_ONE: Self = Self::new(Goldilocks::NEG_ONE, Goldilocks::ZERO);
    /// `X`.
    pub const X: Self = Self::new(Goldilocks::ZERO, Goldilocks::ONE);
    /// The extension degree.
    pub const DEGREE: usize = 2;
    /// `W = 7` in `X² = W`.
    pub const W: Goldilocks = Goldilocks::from_u64(7);

    /// `c0 + c1·X`.
    #[inline]
    #[must_use]
    pub const fn new(c0: Goldilocks, c1: Goldilocks) -> Self {
        Self { coeffs: [c0, c1] }
    }

    /// The base-field element `x` embedded as `x + 0·X`.
    #[inline]
    #[must_use]
    pub const fn from_base(x: Goldilocks) -> Self {
        Self::new(x, Goldilocks::ZERO)
    }

    /// From canonical coefficients; an error names the first coefficient that is `≥ p`.
    pub const fn from_canonical(c0: u64, c1: u64) -> Result<Self, crate::NonCanonical> {
        match (
            Goldilocks::from_canonical(c0),
            Goldilocks::from_canonical(c1),
        ) {
            (Ok(a), Ok(b)) => Ok(Self::new(a, b)),
            (Err(e), _) | (_, Err(e)) => Err(e),
        }
    }

    // The slice views `as_base_slice` and `as_base_slice_mut` are casts: they are defined with
    // the crate's other casts, in `backend/layout.rs`.

    /// Whether this is zero.
    #[inline]
    #[must_use]
    pub const fn is_zero(self) -> bool {
        self.coeffs[0].is_zero() && self.coeffs[1].is_zero()
    }

    /// `2 · self`.
    #[inline]
    #[must_use]
    pub fn double(self) -> Self {
        Self::new(self.coeffs[0].double(), self.coeffs[1].double())
    }

    /// `self / 2`.
    #[inline]
    #[must_use]
    pub const fn halve(self) -> Self {
        Self::new(self.coeffs[0].halve(), self.coeffs[1].halve())
    }

    /// `self · 2^exp`.
    #[inline]
    #[must_use]
    pub const fn mul_2exp(self, exp: u64) -> Self {
        Self::new(self.coeffs[0].mul_2exp(exp), self.coeffs[1].mul_2exp(exp))
    }

    /// `self · x` for a base-field `x` (two multiplications instead of a full product).
    #[inline]
    #[must_use]
    pub const fn mul_base(self, x: Goldilocks) -> Self {
        Self::new(self.coeffs[0].mul_const(x), self.coeffs[1].mul_const(x))
    }

    /// `self · rhs`, usable in `const` contexts.
    #[inline]
    #[must_use]
    pub const fn mul_const(self, rhs: Self) -> Self {
        let [a0, a1] = self.coeffs;
        let [b0, b1] = rhs.coeffs;
        // (a0 + a1 X)(b0 + b1 X) = a0 b0 + 7 a1 b1 + (a0 b1 + a1 b0) X
        let c0 = a0.mul_const(b0).add_const(W.mul_const(a1.mul_const(b1)));
        let c1 = a0.mul_const(b1).add_const(a1.mul_const(b0));
        Self::new(c0, c1)
    }

    /// `self²`.
    #[inline]
    #[must_use]
    pub const fn square(self) -> Self {
        let [a0, a1] = self.coeffs;
        let c0 = a0.square_const().add_const(W.mul_const(a1.square_const()));
        let c1 = a0.mul_const(a1).add_const(a0.mul_const(a1));
        Self::new(c0, c1)
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
            base = base.square();
            e >>= 1;
        }
        result
    }

    /// The Frobenius map `x ↦ x^p`; on this extension it is conjugation `c0 − c1·X`
    /// (because `X^(p−1) = 7^((p−1)/2) = −1`).
    #[inline]
    #[must_use]
    pub const fn frobenius(self) -> Self {
        Self::new(self.coeffs[0], self.coeffs[1].neg_const())
    }

    /// The norm `self · frobenius(self) = c0² − 7·c1²`, an element of the base field.
    #[inline]
    #[must_use]
    pub const fn norm(self) -> Goldilocks {
        let [a0, a1] = self.coeffs;
        a0.square_const().sub_const(W.mul_const(a1.square_const()))
    }

    /// The multiplicative inverse `conj / norm`, or `None` for zero.
    #[must_use]
    pub fn try_inverse(self) -> Option<Self> {
        self.norm()
            .try_inverse()
            .map(|n_inv| self.frobenius().mul_base(n_inv))
    }

    /// The multiplicative inverse.
    ///
    /// # Panics
    /// Panics if `self` is zero; use [`Goldilocks2::try_inverse`] to get an `Option`.
    #[must_use]
    pub fn inverse(self) -> Self {
        self.try_inverse()
            .expect("the inverse of zero does not exist in the Goldilocks quadratic extension")
    }

    /// `Σ aᵢ·bᵢ`, with each coefficient of the result accumulated by
    /// [`Goldilocks::dot_product`]-style deferred reduction.
    ///
    /// # Panics
    /// Panics if the slices differ in length.
    #[must_use]
    pub fn dot_product(a: &[Self], b: &[Self]) -> Self {
        assert_eq!(
            a.len(),
            b.len(),
            "dot_product: slices of different lengths ({} and {})",
            a.len(),
            b.len()
        );
        // c0 = Σ a0 b0 + 7 Σ a1 b1, c1 = Σ a0 b1 + Σ a1 b0: four base dot products.
        let mut acc = [DeferredSum::default(); 4];
        for (x, y) in a.iter().zip(b) {
            let [a0, a1] = x.coeffs;
            let [b0, b1] = y.coeffs;
            acc[0].add_product(a0, b0);
            acc[1].add_product(a1, b1);
            acc[2].add_product(a0, b1);
            acc[3].add_product(a1, b0);
        }
        let [s00, s11, s01, s10] = acc.map(DeferredSum::reduce);
        Self::new(s00 + W * s11, s01 + s10)
    }

    /// Replaces every element by its inverse, or reports the first zero and leaves
    /// `values` unchanged.
    pub fn batch_inverse_in_place(values: &mut [Self]) -> Result<(), crate::ZeroElement> {
        crate::batch_inverse::batch_inverse_generic::<Self>(values)
    }
}

impl Field for Goldilocks2 {
    const ZERO: Self = Goldilocks2::ZERO;
    const ONE: Self = Goldilocks2::ONE;
    const DEGREE: usize = 2;

    #[inline(always)]
    fn is_zero(self) -> bool {
        Goldilocks2::is_zero(self)
    }
    #[inline(always)]
    fn square(self) -> Self {
        Goldilocks2::square(self)
    }
    #[inline(always)]
    fn double(self) -> Self {
        Goldilocks2::double(self)
    }
    #[inline(always)]
    fn halve(self) -> Self {
        Goldilocks2::halve(self)
    }
    #[inline(always)]
    fn mul_2exp(self, exp: u64) -> Self {
        Goldilocks2::mul_2exp(self, exp)
    }
    #[inline]
    fn exp_u64(self, exp: u64) -> Self {
        Goldilocks2::exp_u64(self, exp)
    }
    #[inline]
    fn try_inverse(self) -> Option<Self> {
        Goldilocks2::try_inverse(self)
    }
}

/// A sum of 128-bit products kept unreduced until the end.
#[derive(Clone, Copy, Default)]
struct DeferredSum {
    lo: u128,
    hi: u128,
}

impl DeferredSum {
    #[inline(always)]
    fn add_product(&mut self, a: Goldilocks, b: Goldilocks) {
        let prod = u128::from(a.raw()) * u128::from(b.raw());
        self.lo += u128::from(prod as u64);
        self.hi += prod >> 64;
    }

    fn reduce(self) -> Goldilocks {
        Goldilocks::from_u128(self.hi) * Goldilocks::from_u64(crate::field::arith::EPSILON)
            + Goldilocks::from_u128(self.lo)
    }
}

impl fmt::Debug for Goldilocks2 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({:?} + {:?}·X)", self.coeffs[0], self.coeffs[1])
    }
}

impl fmt::Display for Goldilocks2 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} + {}·X", self.coeffs[0], self.coeffs[1])
    }
}

impl From<Goldilocks> for Goldilocks2 {
    fn from(x: Goldilocks) -> Self {
        Self::from_base(x)
    }
}

impl Add for Goldilocks2 {
    type Output = Self;
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        Self::new(
            self.coeffs[0] + rhs.coeffs[0],
            self.coeffs[1] + rhs.coeffs[1],
        )
    }
}

impl Sub for Goldilocks2 {
    type Output = Self;
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        Self::new(
            self.coeffs[0] - rhs.coeffs[0],
            self.coeffs[1] - rhs.coeffs[1],
        )
    }
}

impl Neg for Goldilocks2 {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Self::new(-self.coeffs[0], -self.coeffs[1])
    }
}

impl Mul for Goldilocks2 {
    type Output = Self;
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        self.mul_const(rhs)
    }
}

impl Add<Goldilocks> for Goldilocks2 {
    type Output = Self;
    #[inline(always)]
    fn add(self, rhs: Goldilocks) -> Self {
        Self::new(self.coeffs[0] + rhs, self.coeffs[1])
    }
}

impl Sub<Goldilocks> for Goldilocks2 {
    type Output = Self;
    #[inline(always)]
    fn sub(self, rhs: Goldilocks) -> Self {
        Self::new(self.coeffs[0] - rhs, self.coeffs[1])
    }
}

impl Mul<Goldilocks> for Goldilocks2 {
    type Output = Self;
    #[inline(always)]
    fn mul(self, rhs: Goldilocks) -> Self {
        self.mul_base(rhs)
    }
}

impl AddAssign for Goldilocks2 {
    #[inline(always)]
    fn add_assign(&mut self, rhs: Self) {
        *self = *self + rhs;
    }
}

impl SubAssign for Goldilocks2 {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: Self) {
        *self = *self - rhs;
    }
}

impl MulAssign for Goldilocks2 {
    #[inline(always)]
    fn mul_assign(&mut self, rhs: Self) {
        *self = *self * rhs;
    }
}

impl MulAssign<Goldilocks> for Goldilocks2 {
    #[inline(always)]
    fn mul_assign(&mut self, rhs: Goldilocks) {
        *self = *self * rhs;
    }
}

impl Sum for Goldilocks2 {
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::ZERO, |acc, x| acc + x)
    }
}

impl<'a> Sum<&'a Goldilocks2> for Goldilocks2 {
    fn sum<I: Iterator<Item = &'a Self>>(iter: I) -> Self {
        iter.copied().sum()
    }
}

impl Product for Goldilocks2 {
    fn product<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::ONE, |acc, x| acc * x)
    }
}

impl<'a> Product<&'a Goldilocks2> for Goldilocks2 {
    fn product<I: Iterator<Item = &'a Self>>(iter: I) -> Self {
        iter.copied().product()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seven_is_a_non_residue() {
        // Euler's criterion: 7^((p−1)/2) = −1, so X² − 7 is irreducible.
        assert_eq!(W.exp_u64((crate::P - 1) / 2), Goldilocks::NEG_ONE);
    }

    #[test]
    fn x_squared_is_seven() {
        assert_eq!(Goldilocks2::X.square(), Goldilocks2::from_base(W));
        assert_eq!(Goldilocks2::X * Goldilocks2::X, Goldilocks2::from_base(W));
    }

    #[test]
    fn frobenius_is_the_p_th_power() {
        let a = Goldilocks2::new(
            Goldilocks::from_u64(123456789),
            Goldilocks::from_u64(987654321),
        );
        assert_eq!(a.exp_u64(crate::P), a.frobenius());
    }

    #[test]
    fn inverse() {
        let a = Goldilocks2::new(Goldilocks::from_u64(5), Goldilocks::from_u64(u64::MAX));
        assert_eq!(a * a.inverse(), Goldilocks2::ONE);
        assert_eq!(Goldilocks2::ZERO.try_inverse(), None);
        assert_eq!(Goldilocks2::X.inverse() * Goldilocks2::X, Goldilocks2::ONE);
    }
}
