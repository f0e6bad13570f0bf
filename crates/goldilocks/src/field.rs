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

use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::iter::{Product, Sum};
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

/// The field order `p = 2^64 − 2^32 + 1`.
pub const P: u64 = 0xFFFF_FFFF_0000_0001;

/// `2^64 mod p = 2^32 − 1`; adding it is the same as subtracting `p` modulo `2^64`.
pub(crate) const EPSILON: u64 = 0xFFFF_FFFF;

/// `(p + 1) / 2`, the inverse of two.
pub(crate) const HALF_P_PLUS_ONE: u64 = P.div_ceil(2);

/// An element of the Goldilocks field `F_p`, `p = 2^64 − 2^32 + 1`.
///
/// See the [module documentation](self) for the lazily reduced representation.
#[derive(Clone, Copy, Default)]
#[repr(transparent)]
pub struct Goldilocks {
    value: u64,
}

/// A value whose every lane is stored canonically (`< p`): a `Goldilocks` or a packed vector.
///
/// `+` must canonicalise an arbitrary operand before adding; an operand known to be canonical
/// skips that ([`crate::PackedField::add_canonical`]). Round constants are kept as
/// `Canonical<Goldilocks>` and broadcast; a sum added to many elements is canonicalised once
/// ([`crate::PackedField::canonicalize`]). The wrapper can only be built canonical.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Canonical<T = Goldilocks>(T);

impl Canonical<Goldilocks> {
    /// `x`, reduced to its canonical representation.
    #[inline]
    #[must_use]
    pub const fn new(x: Goldilocks) -> Self {
        Self(Goldilocks::from_raw(x.as_canonical_u64()))
    }
}

impl<T: Copy> Canonical<T> {
    /// The value.
    #[inline(always)]
    #[must_use]
    pub const fn get(self) -> T {
        self.0
    }

    /// Wraps a value the caller has just made canonical (backends only).
    #[inline(always)]
    pub(crate) const fn new_unchecked(value: T) -> Self {
        Self(value)
    }
}

impl<P: crate::PackedField> Canonical<P> {
    /// A canonical constant in every lane.
    #[inline(always)]
    #[must_use]
    pub fn broadcast(c: Canonical<Goldilocks>) -> Self {
        Self(P::broadcast(c.0))
    }
}

impl From<Goldilocks> for Canonical<Goldilocks> {
    fn from(x: Goldilocks) -> Self {
        Self::new(x)
    }
}

/// A value that is not the canonical encoding of a field element (it is `≥ p`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NonCanonical {
    /// The rejected value.
    pub value: u64,
}

impl fmt::Display for NonCanonical {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (0x{:016x}) is not a canonical Goldilocks element: it is not below p = 0x{P:016x}",
            self.value, self.value
        )
    }
}

impl std::error::Error for NonCanonical {}

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

    /// The multiplicative inverse, or `None` for zero.
    ///
    /// A binary extended GCD in the style of Pornin's "optimized binary GCD": the loop runs
    /// on the 64-bit integers only, accumulating small update factors, and touches field
    /// arithmetic just once at the end. Its running time depends on the input (fine for the
    /// public data of hashing and proving); [`Goldilocks::try_inverse_constant_time`] is the
    /// constant-time alternative. `benches/field.rs` (`inverse/single`) compares them.
    #[must_use]
    pub fn try_inverse(self) -> Option<Self> {
        let x = self.as_canonical_u64();
        if x == 0 {
            return None;
        }
        // Invariant over a round of k steps: a·2^k = f0·A + g0·B and b·2^k = f1·A + g1·B,
        // where (A, B) are the round's inputs. B starts as p, so b·2^k ≡ f1·A (mod p).
        // Each step shortens len(a) + len(b) by at least one bit while a > 0, so two rounds of
        // 63 steps bring it from ≤ 128 down to ≤ 2: b = gcd = 1 and a ∈ {0, 1}.
        const STEPS: u32 = 63;
        let (mut a, mut b) = (x, P);
        let (f00, _, f10, _) = binary_gcd_round::<STEPS>(&mut a, &mut b);
        let (_, _, f11, g11) = binary_gcd_round::<STEPS>(&mut a, &mut b);
        debug_assert!(
            b == 1 && a <= 1,
            "binary GCD did not converge: a = {a}, b = {b}"
        );
        // 1·2^126 ≡ (f11·f00 + g11·f10)·x, and 2^-126 = 2^66 because 2^192 ≡ 1.
        let inv = gcd_factor(f11) * gcd_factor(f00) + gcd_factor(g11) * gcd_factor(f10);
        Some(inv.mul_2exp(66))
    }

    /// The multiplicative inverse in constant time, or `None` for zero.
    ///
    /// Computes `self^(p−2)` with a 73-multiplication addition chain (64 squarings and
    /// 9 multiplications) instead of the ~125 of plain square-and-multiply.
    #[must_use]
    pub const fn try_inverse_constant_time(self) -> Option<Self> {
        if self.is_zero() {
            return None;
        }
        // p − 2 = (2^31 − 1)·2^33 + (2^32 − 1); t_k below is self^(2^k − 1).
        let t1 = self;
        let t2 = t1.square_const().mul_const(t1);
        let t3 = t2.square_const().mul_const(t1);
        let t6 = t3.exp_power_of_2(3).mul_const(t3);
        let t12 = t6.exp_power_of_2(6).mul_const(t6);
        let t24 = t12.exp_power_of_2(12).mul_const(t12);
        let t30 = t24.exp_power_of_2(6).mul_const(t6);
        let t31 = t30.square_const().mul_const(t1);
        let t32 = t31.square_const().mul_const(t1);
        Some(t31.exp_power_of_2(33).mul_const(t32))
    }

    /// The multiplicative inverse.
    ///
    /// # Panics
    /// Panics if `self` is zero; use [`Goldilocks::try_inverse`] to get an `Option`.
    #[must_use]
    pub fn inverse(self) -> Self {
        self.try_inverse()
            .expect("the inverse of zero does not exist in the Goldilocks field")
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

    /// Replaces every element by its inverse (Montgomery's trick: 3 multiplications per
    /// element and one inversion), or reports the first zero and leaves `values` unchanged.
    pub fn batch_inverse_in_place(values: &mut [Self]) -> Result<(), crate::ZeroElement> {
        crate::kernels::batch_inverse_generic::<Self>(values)
    }
}

/// `STEPS` steps of the binary GCD on `(a, b)` (`b` odd), returning the update factors
/// `(f0, g0, f1, g1)` with `a_out·2^STEPS = f0·a_in + g0·b_in` and
/// `b_out·2^STEPS = f1·a_in + g1·b_in`.
///
/// Each step subtracts the smaller odd value from the larger, then halves `a`; instead of
/// halving `a`'s factors, `b`'s are doubled, which is where the `2^STEPS` comes from. The
/// factors lie in `(−2^STEPS, 2^STEPS]`, so for `STEPS = 63` they fit an `i64` except for
/// `+2^63`, which wraps to `i64::MIN` and is read back by [`gcd_factor`].
#[inline]
fn binary_gcd_round<const STEPS: u32>(a: &mut u64, b: &mut u64) -> (i64, i64, i64, i64) {
    let (mut f0, mut g0, mut f1, mut g1) = (1i64, 0i64, 0i64, 1i64);
    for _ in 0..STEPS {
        if *a & 1 == 1 {
            if *a < *b {
                core::mem::swap(a, b);
                core::mem::swap(&mut f0, &mut f1);
                core::mem::swap(&mut g0, &mut g1);
            }
            *a -= *b;
            f0 = f0.wrapping_sub(f1);
            g0 = g0.wrapping_sub(g1);
        }
        *a >>= 1;
        f1 = f1.wrapping_shl(1);
        g1 = g1.wrapping_shl(1);
    }
    (f0, g0, f1, g1)
}

/// A binary-GCD update factor as a field element (`i64::MIN` stands for `+2^63`).
#[inline]
fn gcd_factor(f: i64) -> Goldilocks {
    if f >= 0 || f == i64::MIN {
        Goldilocks::from_u64(f as u64)
    } else {
        Goldilocks::from_u64(P - f.unsigned_abs())
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
        Self::from_raw(crate::backend::scalar::add(self.value, rhs.value))
    }
}

impl Sub for Goldilocks {
    type Output = Self;
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        Self::from_raw(crate::backend::scalar::sub(self.value, rhs.value))
    }
}

impl Mul for Goldilocks {
    type Output = Self;
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        Self::from_raw(crate::backend::scalar::mul(self.value, rhs.value))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants() {
        assert_eq!(Goldilocks::ORDER, 18446744069414584321);
        assert_eq!(Goldilocks::NEG_ONE + Goldilocks::ONE, Goldilocks::ZERO);
        assert_eq!(
            Goldilocks::GENERATOR.exp_u64((P - 1) >> 32),
            Goldilocks::POWER_OF_TWO_GENERATOR
        );
        let g = Goldilocks::two_adic_generator(32).unwrap();
        assert_eq!(g.exp_power_of_2(31), Goldilocks::NEG_ONE);
        assert_eq!(g.exp_power_of_2(32), Goldilocks::ONE);
        assert_eq!(Goldilocks::two_adic_generator(0), Some(Goldilocks::ONE));
        assert_eq!(Goldilocks::two_adic_generator(1), Some(Goldilocks::NEG_ONE));
        assert_eq!(Goldilocks::two_adic_generator(33), None);
        // 7 generates F_p^*: 7^((p-1)/q) ≠ 1 for each prime q | p − 1.
        for q in [2u64, 3, 5, 17, 257, 65537] {
            assert_ne!(Goldilocks::GENERATOR.exp_u64((P - 1) / q), Goldilocks::ONE);
        }
    }

    #[test]
    fn from_canonical_rejects_and_names_the_value() {
        assert!(Goldilocks::from_canonical(P - 1).is_ok());
        let err = Goldilocks::from_canonical(P).unwrap_err();
        assert_eq!(err.value, P);
        assert!(err.to_string().contains("18446744069414584321"));
        assert!(Goldilocks::from_canonical(u64::MAX).is_err());
    }

    #[test]
    fn reduction_of_extremes() {
        assert_eq!(Goldilocks::from_u64(P).as_canonical_u64(), 0);
        assert_eq!(Goldilocks::from_u64(P + 1), Goldilocks::ONE);
        assert_eq!(
            Goldilocks::from_u64(u64::MAX).as_canonical_u64(),
            EPSILON - 1
        );
        assert_eq!(
            Goldilocks::from_u128(u128::MAX).as_canonical_u64(),
            (u128::MAX % P as u128) as u64
        );
        assert_eq!(Goldilocks::from_i64(-1), Goldilocks::NEG_ONE);
        assert_eq!(
            Goldilocks::from_i64(i64::MIN).as_canonical_u64(),
            P - (1u64 << 63)
        );
    }

    #[test]
    fn raw_representations_are_equal_in_the_field() {
        let a = Goldilocks::from_raw(P + 5);
        let b = Goldilocks::from_u64(5);
        assert_eq!(a, b);
        assert_eq!(a.cmp(&b), Ordering::Equal);
        use std::collections::hash_map::DefaultHasher;
        let h = |x: Goldilocks| {
            let mut s = DefaultHasher::new();
            x.hash(&mut s);
            s.finish()
        };
        assert_eq!(h(a), h(b));
        assert_eq!(format!("{a} {a:?}"), "5 5");
    }

    #[test]
    fn inverse_gcd_and_chain_agree() {
        let powers_of_two = (0..64).map(|k| 1u64 << k);
        let near = [
            1u64,
            2,
            7,
            P - 1,
            P - 2,
            (P - 1) / 2,
            P.div_ceil(2),
            1 << 32,
            (1 << 32) - 1,
            0x1234_5678_9abc_def0,
        ];
        for x in powers_of_two.chain(near) {
            let x = Goldilocks::from_u64(x);
            let inv = x.try_inverse().unwrap();
            assert_eq!(x * inv, Goldilocks::ONE, "{x}");
            assert_eq!(x.try_inverse_constant_time(), Some(inv), "{x}");
        }
        assert_eq!(Goldilocks::ZERO.try_inverse(), None);
        assert_eq!(Goldilocks::from_raw(P).try_inverse(), None);
        assert_eq!(Goldilocks::ZERO.try_inverse_constant_time(), None);
        assert_eq!(Goldilocks::from_raw(P).try_inverse_constant_time(), None);
    }

    #[test]
    fn mul_2exp_matches_multiplication() {
        let x = Goldilocks::from_u64(0xdead_beef_1234_5678);
        for k in [
            0u64, 1, 31, 32, 33, 63, 64, 65, 95, 96, 97, 150, 191, 192, 1000,
        ] {
            let two_k = Goldilocks::TWO.exp_u64(k);
            assert_eq!(x.mul_2exp(k), x * two_k, "k = {k}");
            assert_eq!(x.div_2exp(k) * two_k, x, "k = {k}");
        }
    }
}
