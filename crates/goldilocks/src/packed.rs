//! `PackedField`: `WIDTH` independent Goldilocks elements in SIMD lanes.
//!
//! Lanes never interact (except in [`PackedField::interleave`]), so generic code written
//! once over `P: PackedField` processes `P::WIDTH` independent problems per instruction —
//! the "vertical" layout the Poseidon, Poseidon2, Merkle and NTT crates build on.
//!
//! Every implementation accepts lazily reduced lanes (any `u64`, see [`crate::field`]) and
//! is bit-for-bit equal, lane by lane and after canonicalisation, to the scalar
//! [`Goldilocks`] arithmetic; the test suite checks this per backend.

use core::fmt;
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use crate::backend::layout;
use crate::backend_id::Backend;
use crate::error::LengthError;
use crate::field::{Canonical, Goldilocks};
use crate::small_coefficients::SmallCoefficients;

/// `WIDTH` independent Goldilocks elements processed together.
///
/// # Safety
///
/// Implementors must have the layout of `[Goldilocks; WIDTH]` (be `#[repr(transparent)]`
/// over it): the provided slice-casting methods rely on it. A SIMD implementor must also
/// guarantee that a value of the type only ever exists on a CPU that has the instructions it
/// uses (the backends here are crate-private and reachable only through runtime dispatch,
/// or through [`crate::PackedGoldilocks`] when the build enables the feature statically).
pub unsafe trait PackedField:
    'static
    + Copy
    + Send
    + Sync
    + Default
    + fmt::Debug
    + PartialEq
    + Eq
    + From<Goldilocks>
    + Add<Output = Self>
    + Add<Goldilocks, Output = Self>
    + AddAssign
    + AddAssign<Goldilocks>
    + Sub<Output = Self>
    + Sub<Goldilocks, Output = Self>
    + SubAssign
    + SubAssign<Goldilocks>
    + Neg<Output = Self>
    + Mul<Output = Self>
    + Mul<Goldilocks, Output = Self>
    + MulAssign
    + MulAssign<Goldilocks>
{
    /// Number of lanes.
    const WIDTH: usize;
    /// The backend this implementation belongs to.
    const BACKEND: Backend;
    /// All lanes zero.
    const ZERO: Self;
    /// All lanes one.
    const ONE: Self;

    /// `x` in every lane.
    fn broadcast(x: Goldilocks) -> Self;

    /// `x²` per lane.
    #[inline(always)]
    fn square(self) -> Self {
        self * self
    }

    /// `2x` per lane.
    #[inline(always)]
    fn double(self) -> Self {
        self + self
    }

    /// `x / 2` per lane.
    fn halve(self) -> Self;

    /// Every lane reduced to its canonical representation.
    #[inline(always)]
    fn canonicalize(self) -> Canonical<Self> {
        let mut out = self;
        for x in out.as_slice_mut() {
            *x = Goldilocks::from_u64(x.as_canonical_u64());
        }
        Canonical::new_unchecked(out)
    }

    /// `x + c` per lane for an operand known to be canonical: cheaper than `+`, which must
    /// canonicalise an arbitrary operand first.
    #[inline(always)]
    fn add_canonical(self, c: Canonical<Self>) -> Self {
        self + c.get()
    }

    /// `x · c` per lane for a small constant `c < 2^32`; backends make this much cheaper than
    /// a full multiplication (a 64×32-bit product needs a lighter reduction).
    #[inline(always)]
    fn mul_small(self, c: u32) -> Self {
        self * Goldilocks::from(c)
    }

    /// `x · 2^exp` per lane.
    #[inline(always)]
    fn mul_2exp(self, exp: u64) -> Self {
        self * Goldilocks::ONE.mul_2exp(exp)
    }

    /// `x / 2^k` per lane, for any `k`.
    ///
    /// The default halves `k` times for `k ≤ 8`, uses `2^-32 ≡ 1 − 2^32` for `k = 32`, and
    /// `2^-k ≡ 2^(192 − k)` otherwise; backends where a direct division by `2^k` is cheaper
    /// than a few halvings override it (the Poseidon2 internal diagonals of widths 12 and 16
    /// divide by `2^2 … 2^5` and `2^32`).
    #[inline(always)]
    fn div_2exp(self, k: u64) -> Self {
        match k % 192 {
            0 => self,
            k @ 1..=8 => {
                let mut x = self;
                for _ in 0..k {
                    x = x.halve();
                }
                x
            }
            32 => self - self.mul_2exp(32),
            k => self.mul_2exp(192 - k),
        }
    }

    /// `x^7` per lane (the Poseidon/Poseidon2 S-box): 4 multiplications.
    #[inline(always)]
    fn exp7(self) -> Self {
        let x2 = self.square();
        let x3 = x2 * self;
        let x4 = x2.square();
        x3 * x4
    }

    /// `x^7` of every element (a full round's S-box layer), four elements at a time computed
    /// stage by stage: four squares, then four `x³` and four `x⁴`, then four `x⁷`. Each stage
    /// is four independent multiplications side by side, where one S-box at a time would
    /// leave the core waiting on a three-multiplication dependency chain.
    ///
    /// Spelt out per group of four rather than as one loop per stage over all `N` elements:
    /// LLVM keeps such loops rolled, and every stage's values then go through the stack
    /// (Poseidon2 W8 on AVX2: 7–10 % slower).
    #[inline(always)]
    fn exp7_each<const N: usize>(xs: &mut [Self; N]) {
        let (groups, rest) = xs.as_chunks_mut::<4>();
        for group in groups {
            let [a, b, c, d] = *group;
            let (a2, b2, c2, d2) = (a.square(), b.square(), c.square(), d.square());
            let (a3, b3, c3, d3) = (a2 * a, b2 * b, c2 * c, d2 * d);
            let (a4, b4, c4, d4) = (a2.square(), b2.square(), c2.square(), d2.square());
            *group = [a3 * a4, b3 * b4, c3 * c4, d3 * d4];
        }
        for x in rest {
            *x = x.exp7();
        }
    }

    /// `x^exp` per lane by square-and-multiply.
    #[inline]
    fn exp_u64(self, exp: u64) -> Self {
        let mut result = Self::ONE;
        let mut base = self;
        let mut e = exp;
        while e > 0 {
            if e & 1 == 1 {
                result *= base;
            }
            base = base.square();
            e >>= 1;
        }
        result
    }

    /// Views both vectors as blocks of `block_len` lanes and swaps the odd blocks of `self`
    /// with the even blocks of `other` (a 2×2 block transpose), as radix-2 butterflies need.
    ///
    /// With `WIDTH = 4`, `a = [a0 a1 a2 a3]`, `b = [b0 b1 b2 b3]`:
    /// `block_len = 1 → ([a0 b0 a2 b2], [a1 b1 a3 b3])`,
    /// `block_len = 2 → ([a0 a1 b0 b1], [a2 a3 b2 b3])`, `block_len = 4 → (a, b)`.
    ///
    /// # Panics
    /// Panics unless `block_len` is a power of two no larger than `WIDTH`.
    fn interleave(self, other: Self, block_len: usize) -> (Self, Self);

    /// `Σ_k xs[k]·cs[k]` per lane, for small coefficients whose sum is below `2^31` (e.g. the
    /// entries of a Poseidon MDS row; [`SmallCoefficients`] guarantees the bound). The products
    /// are accumulated unreduced and reduced once: on AVX2/AVX-512 each term is two 32×32-bit
    /// multiplies and two additions (low and high halves of `x`), instead of a `mul_small` and
    /// a field addition.
    #[inline(always)]
    fn linear_combination_small<const N: usize>(xs: &[Self; N], cs: &SmallCoefficients<N>) -> Self {
        Self::from_fn(|lane| {
            let mut acc = 0u128;
            for (x, &c) in xs.iter().zip(cs.get()) {
                acc += u128::from(x.as_slice()[lane].raw()) * u128::from(c);
            }
            Goldilocks::from_u128(acc)
        })
    }

    /// `Σ_k xs[k]·cs[k]` per lane for arbitrary field coefficients (a row of a dense matrix
    /// times a vector), with the reduction deferred where the backend can do it cheaply.
    ///
    /// The default works lane by lane on machine integers, accumulating the 128-bit products
    /// in 160 bits and reducing once (the fastest form for the scalar and NEON backends,
    /// whose multiplications are scalar `mul`/`umulh`); AVX2/AVX-512 override it with packed
    /// multiplications and a tree of additions.
    #[inline(always)]
    fn linear_combination<const N: usize>(xs: &[Self; N], cs: &[Goldilocks; N]) -> Self {
        Self::from_fn(|lane| {
            let terms = xs.iter().zip(cs).map(|(x, c)| (x.as_slice()[lane], *c));
            crate::field::linear_combination_u160(terms)
        })
    }

    /// `Σ values` per lane, for any number of values, reducing once at the end instead of after
    /// every addition (the SIMD backends count carries and fold them in with one
    /// multiplication, in passes of at most `2^32 − 1` values so the count fits in 32 bits).
    #[inline(always)]
    fn sum_deferred(values: &[Self]) -> Self {
        let mut sum = Self::ZERO;
        for x in values {
            sum += *x;
        }
        sum
    }

    /// The sum of all lanes.
    #[inline]
    fn sum_lanes(self) -> Goldilocks {
        self.as_slice().iter().copied().sum()
    }

    /// Builds a vector from a function of the lane index.
    #[inline(always)]
    fn from_fn<F: FnMut(usize) -> Goldilocks>(mut f: F) -> Self {
        let mut out = Self::ZERO;
        for (i, lane) in out.as_slice_mut().iter_mut().enumerate() {
            *lane = f(i);
        }
        out
    }

    /// The lanes as a slice.
    #[inline(always)]
    fn as_slice(&self) -> &[Goldilocks] {
        layout::lanes::<Self>(self)
    }

    /// The lanes as a mutable slice.
    #[inline(always)]
    fn as_slice_mut(&mut self) -> &mut [Goldilocks] {
        layout::lanes_mut::<Self>(self)
    }

    /// Views `WIDTH` elements as a vector.
    ///
    /// # Panics
    /// Panics with the lengths if `slice.len() != WIDTH`.
    #[inline(always)]
    fn from_slice(slice: &[Goldilocks]) -> &Self {
        assert_eq!(
            slice.len(),
            Self::WIDTH,
            "PackedField::from_slice: need exactly WIDTH = {} elements",
            Self::WIDTH
        );
        &layout::pack::<Self>(slice)[0]
    }

    /// Views `WIDTH` elements as a mutable vector.
    ///
    /// # Panics
    /// Panics with the lengths if `slice.len() != WIDTH`.
    #[inline(always)]
    fn from_slice_mut(slice: &mut [Goldilocks]) -> &mut Self {
        assert_eq!(
            slice.len(),
            Self::WIDTH,
            "PackedField::from_slice_mut: need exactly WIDTH = {} elements",
            Self::WIDTH
        );
        &mut layout::pack_mut::<Self>(slice)[0]
    }

    /// Loads `WIDTH` elements, or says how many were expected.
    #[inline]
    fn try_load(slice: &[Goldilocks]) -> Result<Self, LengthError> {
        if slice.len() == Self::WIDTH {
            Ok(*Self::from_slice(slice))
        } else {
            Err(LengthError {
                what: "PackedField::try_load",
                expected: Self::WIDTH,
                found: slice.len(),
            })
        }
    }

    /// Loads `WIDTH` elements.
    ///
    /// # Panics
    /// Panics with the lengths if `slice.len() != WIDTH`.
    #[inline(always)]
    fn load(slice: &[Goldilocks]) -> Self {
        *Self::from_slice(slice)
    }

    /// Stores the lanes into `out`.
    ///
    /// # Panics
    /// Panics with the lengths if `out.len() != WIDTH`.
    #[inline(always)]
    fn store(self, out: &mut [Goldilocks]) {
        *Self::from_slice_mut(out) = self;
    }

    /// Views a slice whose length is a multiple of `WIDTH` as vectors.
    ///
    /// # Panics
    /// Panics with the length if it is not a multiple of `WIDTH`.
    #[inline(always)]
    fn pack_slice(slice: &[Goldilocks]) -> &[Self] {
        assert!(
            slice.len().is_multiple_of(Self::WIDTH),
            "PackedField::pack_slice: length {} is not a multiple of WIDTH = {}",
            slice.len(),
            Self::WIDTH
        );
        layout::pack::<Self>(slice)
    }

    /// Views a slice whose length is a multiple of `WIDTH` as mutable vectors.
    ///
    /// # Panics
    /// Panics with the length if it is not a multiple of `WIDTH`.
    #[inline(always)]
    fn pack_slice_mut(slice: &mut [Goldilocks]) -> &mut [Self] {
        assert!(
            slice.len().is_multiple_of(Self::WIDTH),
            "PackedField::pack_slice_mut: length {} is not a multiple of WIDTH = {}",
            slice.len(),
            Self::WIDTH
        );
        layout::pack_mut::<Self>(slice)
    }

    /// Splits a slice into as many whole vectors as fit and the remaining scalars.
    #[inline(always)]
    fn pack_slice_with_suffix(slice: &[Goldilocks]) -> (&[Self], &[Goldilocks]) {
        let (packed, suffix) = slice.split_at(slice.len() - slice.len() % Self::WIDTH);
        (layout::pack::<Self>(packed), suffix)
    }

    /// Splits a mutable slice into as many whole vectors as fit and the remaining scalars.
    #[inline(always)]
    fn pack_slice_with_suffix_mut(slice: &mut [Goldilocks]) -> (&mut [Self], &mut [Goldilocks]) {
        let split = slice.len() - slice.len() % Self::WIDTH;
        let (packed, suffix) = slice.split_at_mut(split);
        (layout::pack_mut::<Self>(packed), suffix)
    }

    /// Views vectors as their lanes, in order.
    #[inline(always)]
    fn unpack_slice(packed: &[Self]) -> &[Goldilocks] {
        layout::unpack::<Self>(packed)
    }

    /// Views mutable vectors as their lanes, in order.
    #[inline(always)]
    fn unpack_slice_mut(packed: &mut [Self]) -> &mut [Goldilocks] {
        layout::unpack_mut::<Self>(packed)
    }
}

/// Work written once for every packed field, entered through [`dispatch()`](crate::dispatch()) or
/// [`dispatch_on`](crate::dispatch_on); see the [dispatch module docs](mod@crate::dispatch) for the rules that keep it fast.
pub trait Kernel {
    /// What the kernel returns.
    type Output;

    /// Does the work with packed type `P`. Implementations should be `#[inline(always)]`.
    fn run<P: PackedField>(self) -> Self::Output;
}

impl<P: PackedField> Canonical<P> {
    /// A canonical constant in every lane.
    #[inline(always)]
    #[must_use]
    pub fn broadcast(c: Canonical<Goldilocks>) -> Self {
        Self::new_unchecked(P::broadcast(c.get()))
    }
}

/// Panics unless `block_len` is a valid `interleave` block length for `width` lanes.
#[inline(always)]
pub(crate) fn check_block_len(block_len: usize, width: usize) {
    assert!(
        block_len.is_power_of_two() && block_len <= width,
        "interleave: block_len {block_len} must be a power of two no larger than WIDTH = {width}"
    );
}

/// Most values a carry-counting `sum_deferred` adds in one pass: each addition carries at
/// most once, and the fold multiplies the carry count as a 32-bit number, so a pass of
/// `2^32 − 1` values (at most `2^32 − 2` carries) is exact.
#[cfg(not(test))]
pub(crate) const DEFERRED_SUM_MAX_TERMS: usize = u32::MAX as usize;
/// Unit tests use passes of three values, so the multi-pass path of the SIMD `sum_deferred`
/// runs (`2^32` vectors do not fit in a test's memory).
#[cfg(test)]
pub(crate) const DEFERRED_SUM_MAX_TERMS: usize = 3;
