//! `Field`: what generic code needs from `Goldilocks` and `Goldilocks2` alike (the extension
//! implements it beside its definition).

use core::fmt;
use core::hash::Hash;
use core::iter::{Product, Sum};
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use crate::field::Goldilocks;

/// A field: Goldilocks or its quadratic extension.
pub trait Field:
    'static
    + Copy
    + Send
    + Sync
    + Default
    + fmt::Debug
    + fmt::Display
    + Eq
    + Hash
    + Ord
    + From<Goldilocks>
    + Add<Output = Self>
    + AddAssign
    + Sub<Output = Self>
    + SubAssign
    + Neg<Output = Self>
    + Mul<Output = Self>
    + MulAssign
    + Mul<Goldilocks, Output = Self>
    + Sum
    + Product
{
    /// Zero.
    const ZERO: Self;
    /// One.
    const ONE: Self;
    /// Degree over Goldilocks.
    const DEGREE: usize;

    /// Whether this is zero.
    fn is_zero(self) -> bool;
    /// `self²`.
    fn square(self) -> Self;
    /// `2·self`.
    fn double(self) -> Self;
    /// `self / 2`.
    fn halve(self) -> Self;
    /// `self · 2^exp`.
    fn mul_2exp(self, exp: u64) -> Self;
    /// `self^exp`.
    fn exp_u64(self, exp: u64) -> Self;
    /// The inverse, or `None` for zero.
    fn try_inverse(self) -> Option<Self>;
}

impl Field for Goldilocks {
    const ZERO: Self = Goldilocks::ZERO;
    const ONE: Self = Goldilocks::ONE;
    const DEGREE: usize = 1;

    #[inline(always)]
    fn is_zero(self) -> bool {
        Goldilocks::is_zero(self)
    }
    #[inline(always)]
    fn square(self) -> Self {
        Goldilocks::square(self)
    }
    #[inline(always)]
    fn double(self) -> Self {
        Goldilocks::double(self)
    }
    #[inline(always)]
    fn halve(self) -> Self {
        Goldilocks::halve(self)
    }
    #[inline(always)]
    fn mul_2exp(self, exp: u64) -> Self {
        Goldilocks::mul_2exp(self, exp)
    }
    #[inline]
    fn exp_u64(self, exp: u64) -> Self {
        Goldilocks::exp_u64(self, exp)
    }
    #[inline]
    fn try_inverse(self) -> Option<Self> {
        Goldilocks::try_inverse(self)
    }
}
