//! AVX2 backend: four lanes in a `__m256i`.
//!
//! AVX2 has only *signed* 64-bit compares, so unsigned comparisons go through the
//! "shifted" representation `x_s = x ⊕ 2^63`: `a < b` (unsigned) iff `a_s < b_s` (signed).
//! Values carried shifted are named `*_s`. Adding or subtracting an unshifted value to a
//! shifted one gives the shifted result (xor with 2^63 is addition of 2^63 mod 2^64), so
//! most of the arithmetic stays in the shifted domain and pays for the shift once.
//!
//! Soundness: `PackedAvx2` is crate-private unless the build enables AVX2 statically; the
//! only other way to obtain one is [`run_kernel`], which checks the CPU first. So every
//! intrinsic below executes on an AVX2 CPU.

use core::arch::x86_64::*;
use core::mem::transmute;

use super::{impl_packed_ops, sum_deferred_in_passes};
use crate::backend_id::Backend;
use crate::field::arith::{EPSILON, HALF_P_PLUS_ONE, P};
use crate::field::{Canonical, Goldilocks};
use crate::packed::{DEFERRED_SUM_MAX_TERMS, Kernel, PackedField, check_block_len};
use crate::small_coefficients::SmallCoefficients;

const WIDTH: usize = 4;
const SIGN_BIT: u64 = 1 << 63;

/// Four Goldilocks elements processed with AVX2 instructions.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
#[repr(transparent)]
pub struct PackedAvx2(pub(crate) [Goldilocks; WIDTH]);

const _: () = assert!(size_of::<PackedAvx2>() == size_of::<__m256i>());

/// Whether this CPU runs the AVX2 backend.
#[inline]
pub(crate) fn detected() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

/// Runs `kernel` with `PackedAvx2` if the CPU has AVX2, hands it back otherwise.
#[inline]
pub(crate) fn run_kernel<K: Kernel>(kernel: K) -> Result<K::Output, K> {
    if !detected() {
        return Err(kernel);
    }
    // SAFETY: AVX2 support was detected on this CPU just above.
    Ok(unsafe { run_kernel_avx2(kernel) })
}

/// The kernel body compiled with AVX2 enabled, so the `#[inline(always)]` arithmetic
/// below is inlined into it as AVX2 code even when the crate is built without RUSTFLAGS.
#[target_feature(enable = "avx2")]
fn run_kernel_avx2<K: Kernel>(kernel: K) -> K::Output {
    // Spills and local arrays at the same cache-line offsets on every call path.
    super::frame::align_frame();
    kernel.run::<PackedAvx2>()
}

#[inline(always)]
fn set1(x: u64) -> __m256i {
    // SAFETY: see the module docs (only reachable on AVX2 CPUs).
    unsafe { _mm256_set1_epi64x(x as i64) }
}

impl PackedAvx2 {
    #[inline(always)]
    fn to_vector(self) -> __m256i {
        // SAFETY: `[Goldilocks; 4]` and `__m256i` are both 32 plain bytes (asserted above).
        unsafe { transmute(self) }
    }

    #[inline(always)]
    fn from_vector(v: __m256i) -> Self {
        // SAFETY: as in `to_vector`; every bit pattern is a valid lane.
        unsafe { transmute(v) }
    }

    #[inline(always)]
    fn add_impl(self, rhs: Self) -> Self {
        Self::from_vector(add(self.to_vector(), rhs.to_vector()))
    }

    #[inline(always)]
    fn sub_impl(self, rhs: Self) -> Self {
        Self::from_vector(sub(self.to_vector(), rhs.to_vector()))
    }

    #[inline(always)]
    fn mul_impl(self, rhs: Self) -> Self {
        Self::from_vector(mul(self.to_vector(), rhs.to_vector()))
    }

    #[inline(always)]
    fn neg_impl(self) -> Self {
        Self::from_vector(neg(self.to_vector()))
    }
}

impl_packed_ops!(PackedAvx2);

// SAFETY: `PackedAvx2` is `#[repr(transparent)]` over `[Goldilocks; 4]`, and values exist
// only on AVX2 CPUs (module docs).
unsafe impl PackedField for PackedAvx2 {
    const WIDTH: usize = WIDTH;
    const BACKEND: Backend = Backend::Avx2;
    const ZERO: Self = Self([Goldilocks::ZERO; WIDTH]);
    const ONE: Self = Self([Goldilocks::ONE; WIDTH]);

    #[inline(always)]
    fn broadcast(x: Goldilocks) -> Self {
        Self([x; WIDTH])
    }

    #[inline(always)]
    fn square(self) -> Self {
        Self::from_vector(square(self.to_vector()))
    }

    #[inline(always)]
    fn double(self) -> Self {
        Self::from_vector(double(self.to_vector()))
    }

    #[inline(always)]
    fn halve(self) -> Self {
        Self::from_vector(halve(self.to_vector()))
    }

    #[inline(always)]
    fn mul_small(self, c: u32) -> Self {
        Self::from_vector(mul_small(self.to_vector(), c))
    }

    #[inline(always)]
    fn linear_combination_small<const N: usize>(xs: &[Self; N], cs: &SmallCoefficients<N>) -> Self {
        Self::from_vector(linear_combination_small(xs, cs))
    }

    #[inline(always)]
    fn linear_combination<const N: usize>(xs: &[Self; N], cs: &[Goldilocks; N]) -> Self {
        // Multiplications with per-term reduction, then one carry-counting sum: without carry
        // flags, deferring the reduction of the 128-bit products costs as much as doing it.
        let mut terms = [Self::ZERO; N];
        for ((t, x), c) in terms.iter_mut().zip(xs).zip(cs) {
            *t = *x * *c;
        }
        Self::sum_deferred(&terms)
    }

    #[inline(always)]
    fn mul_2exp(self, exp: u64) -> Self {
        // 2^96 ≡ −1 and 2^64 ≡ 2^32 − 1: bring the exponent below 64, then shift.
        let mut exp = exp % 192;
        let mut x = self;
        if exp >= 96 {
            x = -x;
            exp -= 96;
        }
        if exp >= 64 {
            let y = Self::from_vector(mul_2exp_below_64(x.to_vector(), exp - 64));
            return Self::from_vector(mul_2exp_below_64(y.to_vector(), 32)) - y;
        }
        Self::from_vector(mul_2exp_below_64(x.to_vector(), exp))
    }

    #[inline(always)]
    fn div_2exp(self, k: u64) -> Self {
        match k % 192 {
            // Below 3, halving is as cheap (5 instructions a halving, 11 for the direct form).
            k @ 3..=32 => Self::from_vector(div_2exp_direct(self.to_vector(), k)),
            k => {
                let mut x = self;
                if k <= 2 {
                    for _ in 0..k {
                        x = x.halve();
                    }
                    x
                } else {
                    x.mul_2exp(192 - k)
                }
            }
        }
    }

    #[inline(always)]
    fn sum_deferred(values: &[Self]) -> Self {
        sum_deferred_in_passes!(values, sum_deferred_one_pass)
    }

    #[inline(always)]
    fn canonicalize(self) -> Canonical<Self> {
        Canonical::new_unchecked(Self::from_vector(shift(canonicalize_s(shift(
            self.to_vector(),
        )))))
    }

    #[inline(always)]
    fn add_canonical(self, c: Canonical<Self>) -> Self {
        // A canonical operand cannot make the sum carry twice.
        let c_s = shift(c.get().to_vector());
        Self::from_vector(shift(add_no_double_overflow_s(self.to_vector(), c_s)))
    }

    #[inline(always)]
    fn interleave(self, other: Self, block_len: usize) -> (Self, Self) {
        check_block_len(block_len, WIDTH);
        let (a, b) = (self.to_vector(), other.to_vector());
        // SAFETY: see the module docs (only reachable on AVX2 CPUs).
        let (x, y) = unsafe {
            match block_len {
                1 => (_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b)),
                2 => (
                    _mm256_permute2x128_si256::<0x20>(a, b),
                    _mm256_permute2x128_si256::<0x31>(a, b),
                ),
                _ => (a, b),
            }
        };
        (Self::from_vector(x), Self::from_vector(y))
    }
}

/// `Σ values` for at most [`DEFERRED_SUM_MAX_TERMS`] values: one unreduced sum and a carry
/// count, folded in at the end.
#[inline(always)]
fn sum_deferred_one_pass(values: &[PackedAvx2]) -> PackedAvx2 {
    debug_assert!(values.len() <= DEFERRED_SUM_MAX_TERMS);
    let Some((first, rest)) = values.split_first() else {
        return PackedAvx2::ZERO;
    };
    // SAFETY: see the module docs (only reachable on AVX2 CPUs).
    unsafe {
        // The running sum is kept shifted, so each carry test is one signed compare.
        let mut sum_s = shift(first.to_vector());
        let mut carries = _mm256_setzero_si256();
        for x in rest {
            let x = x.to_vector();
            let prev_s = sum_s;
            sum_s = _mm256_add_epi64(sum_s, x);
            // Wrapped iff the new sum is below the old one; the mask is −1 per carry.
            carries = _mm256_sub_epi64(carries, _mm256_cmpgt_epi64(prev_s, sum_s));
        }
        // Each carry dropped 2^64 ≡ EPSILON; at most 2^32 − 2 carries (a pass of
        // DEFERRED_SUM_MAX_TERMS values) keep the fold < p and the count exact in 32 bits.
        let fold = _mm256_mul_epu32(carries, set1(EPSILON));
        PackedAvx2::from_vector(shift(add_no_double_overflow_s(fold, sum_s)))
    }
}

/// `x ⊕ 2^63`: into or out of the shifted domain.
#[inline(always)]
fn shift(x: __m256i) -> __m256i {
    // SAFETY: see the module docs (only reachable on AVX2 CPUs).
    unsafe { _mm256_xor_si256(x, set1(SIGN_BIT)) }
}

/// Shifted `x` → shifted `x mod p` (subtracts p once, which suffices for any u64).
#[inline(always)]
fn canonicalize_s(x_s: __m256i) -> __m256i {
    // SAFETY: see the module docs (only reachable on AVX2 CPUs).
    unsafe {
        let below_p = _mm256_cmpgt_epi64(set1(P ^ SIGN_BIT), x_s);
        // x ≥ p: x − p = x + EPSILON (mod 2^64).
        _mm256_add_epi64(x_s, _mm256_andnot_si256(below_p, set1(EPSILON)))
    }
}

/// `x + y` for any `x` and a shifted `y_s` whose sum cannot carry twice (true when `y` is
/// canonical or below 2^64 − 2^33); the result is shifted.
#[inline(always)]
fn add_no_double_overflow_s(x: __m256i, y_s: __m256i) -> __m256i {
    // SAFETY: see the module docs (only reachable on AVX2 CPUs).
    unsafe {
        let sum_s = _mm256_add_epi64(x, y_s);
        // The sum wrapped iff it is below the addend.
        let carry = _mm256_cmpgt_epi64(y_s, sum_s);
        // A carry dropped 2^64 ≡ EPSILON; all-ones >> 32 is EPSILON.
        _mm256_add_epi64(sum_s, _mm256_srli_epi64::<32>(carry))
    }
}

#[inline(always)]
fn add(x: __m256i, y: __m256i) -> __m256i {
    shift(add_no_double_overflow_s(x, canonicalize_s(shift(y))))
}

#[inline(always)]
fn sub(x: __m256i, y: __m256i) -> __m256i {
    // SAFETY: see the module docs (only reachable on AVX2 CPUs).
    unsafe {
        let y_s = canonicalize_s(shift(y));
        let x_s = shift(x);
        let borrow = _mm256_cmpgt_epi64(y_s, x_s);
        // Shifted minus shifted is the unshifted difference. A borrow added 2^64 ≡ EPSILON;
        // with y canonical the difference is then ≥ 2^32, so taking EPSILON cannot wrap.
        let diff = _mm256_sub_epi64(x_s, y_s);
        _mm256_sub_epi64(diff, _mm256_srli_epi64::<32>(borrow))
    }
}

#[inline(always)]
fn neg(y: __m256i) -> __m256i {
    // SAFETY: see the module docs (only reachable on AVX2 CPUs).
    unsafe {
        // p − canonical(y), computed between shifted values (p ⊕ 2^63) − y_s.
        _mm256_sub_epi64(set1(P ^ SIGN_BIT), canonicalize_s(shift(y)))
    }
}

#[inline(always)]
fn double(x: __m256i) -> __m256i {
    // SAFETY: see the module docs (only reachable on AVX2 CPUs).
    unsafe {
        let x_cs = canonicalize_s(shift(x));
        // 2·x_c carries iff x_c ≥ 2^63, i.e. iff the shifted x_c is non-negative.
        let no_carry = _mm256_cmpgt_epi64(_mm256_setzero_si256(), x_cs);
        let doubled = _mm256_slli_epi64::<1>(x_cs);
        // x_c < p, so 2·x_c − 2^64 + EPSILON < p: one fix-up suffices.
        _mm256_add_epi64(doubled, _mm256_andnot_si256(no_carry, set1(EPSILON)))
    }
}

#[inline(always)]
fn halve(x: __m256i) -> __m256i {
    // SAFETY: see the module docs (only reachable on AVX2 CPUs).
    unsafe {
        // Odd x: (x + p) / 2 = (x >> 1) + (p + 1) / 2, which cannot overflow.
        let odd = _mm256_and_si256(x, set1(1));
        let odd_mask = _mm256_sub_epi64(_mm256_setzero_si256(), odd);
        let half = _mm256_srli_epi64::<1>(x);
        _mm256_add_epi64(half, _mm256_and_si256(odd_mask, set1(HALF_P_PLUS_ONE)))
    }
}

/// The high 32 bits of each lane copied into its low half (the multiplier reads only the low
/// half); a shuffle, so it does not compete with the shifts for ports.
#[inline(always)]
fn high_halves(x: __m256i) -> __m256i {
    // SAFETY: see the module docs (only reachable on AVX2 CPUs).
    unsafe { _mm256_castps_si256(_mm256_movehdup_ps(_mm256_castsi256_ps(x))) }
}

/// Full 64×64 → 128-bit products, returned as `(hi, lo)`.
#[inline(always)]
fn mul64_64(x: __m256i, y: __m256i) -> (__m256i, __m256i) {
    // SAFETY: see the module docs (only reachable on AVX2 CPUs).
    unsafe {
        let x_hi = high_halves(x);
        let y_hi = high_halves(y);
        let ll = _mm256_mul_epu32(x, y);
        let lh = _mm256_mul_epu32(x, y_hi);
        let hl = _mm256_mul_epu32(x_hi, y);
        let hh = _mm256_mul_epu32(x_hi, y_hi);
        // Schoolbook with 32-bit limbs; each partial sum stays below 2^64.
        let mid0 = _mm256_add_epi64(hl, _mm256_srli_epi64::<32>(ll));
        let mid1 = _mm256_add_epi64(lh, _mm256_and_si256(mid0, set1(EPSILON)));
        let hi = _mm256_add_epi64(
            _mm256_add_epi64(hh, _mm256_srli_epi64::<32>(mid0)),
            _mm256_srli_epi64::<32>(mid1),
        );
        // Low word: low half of ll, high half = low half of mid1.
        let mid1_up = _mm256_castps_si256(_mm256_moveldup_ps(_mm256_castsi256_ps(mid1)));
        let lo = _mm256_blend_epi32::<0b1010_1010>(ll, mid1_up);
        (hi, lo)
    }
}

/// `x²` as `(hi, lo)` with three partial products (the cross term appears twice).
#[inline(always)]
fn square64(x: __m256i) -> (__m256i, __m256i) {
    // SAFETY: see the module docs (only reachable on AVX2 CPUs).
    unsafe {
        let x_hi = high_halves(x);
        let ll = _mm256_mul_epu32(x, x);
        let lh = _mm256_mul_epu32(x, x_hi);
        let hh = _mm256_mul_epu32(x_hi, x_hi);
        // x² = hh·2^64 + lh·2^33 + ll.
        let mid = _mm256_add_epi64(lh, _mm256_srli_epi64::<33>(ll));
        let hi = _mm256_add_epi64(hh, _mm256_srli_epi64::<31>(mid));
        let lo = _mm256_add_epi64(ll, _mm256_slli_epi64::<33>(lh));
        (hi, lo)
    }
}

/// `hi·2^64 + lo mod p` (possibly non-canonical): `lo − hi_hi + hi_lo·(2^32 − 1)`.
#[inline(always)]
fn reduce128(hi: __m256i, lo: __m256i) -> __m256i {
    // SAFETY: see the module docs (only reachable on AVX2 CPUs).
    unsafe {
        let hi_hi = _mm256_srli_epi64::<32>(hi);
        let lo_s = shift(lo);
        let t0_s = _mm256_sub_epi64(lo_s, hi_hi);
        let borrow = _mm256_cmpgt_epi64(t0_s, lo_s);
        let t0_s = _mm256_sub_epi64(t0_s, _mm256_srli_epi64::<32>(borrow));
        // hi_lo·EPSILON < p, so the sum below needs one carry fix-up at most.
        // EPSILON opaque, so that LLVM keeps the multiplication (see `avx512::opaque_epsilon`).
        let t1 = _mm256_mul_epu32(hi, set1(super::asm::opaque_u64(EPSILON)));
        shift(add_no_double_overflow_s(t1, t0_s))
    }
}

/// `x · 2^exp` for `exp < 64`: the 128-bit product is two shifts, then one reduction.
#[inline(always)]
fn mul_2exp_below_64(x: __m256i, exp: u64) -> __m256i {
    debug_assert!(exp < 64);
    // SAFETY: see the module docs (only reachable on AVX2 CPUs).
    unsafe {
        let lo = _mm256_sllv_epi64(x, set1(exp));
        // A shift count of 64 (exp = 0) yields 0, as the high word must be.
        let hi = _mm256_srlv_epi64(x, set1(64 - exp));
        reduce128(hi, lo)
    }
}

/// `x / 2^k` for `1 ≤ k ≤ 32`, any `x`: with `x = hi·2^k + lo` (`lo < 2^k`) and
/// `2^-k ≡ 2^(32−k) − 2^(64−k)`, it is `(hi + lo·2^(32−k)) − lo·2^(64−k)`: the first term is
/// below `2^(64−k) + 2^32` (no overflow), the second below `2^64`, and a borrow of the
/// difference (which added `2^64 ≡ EPSILON`) is taken back once, as the wrapped difference is
/// then at least `2^(64−k) ≥ 2^32`.
#[inline(always)]
fn div_2exp_direct(x: __m256i, k: u64) -> __m256i {
    debug_assert!((1..=32).contains(&k));
    // SAFETY: see the module docs (only reachable on AVX2 CPUs).
    unsafe {
        let lo = _mm256_and_si256(x, set1((1 << k) - 1));
        let hi = _mm256_srlv_epi64(x, set1(k));
        let a = _mm256_add_epi64(hi, _mm256_sllv_epi64(lo, set1(32 - k)));
        let b = _mm256_sllv_epi64(lo, set1(64 - k));
        let borrow = _mm256_cmpgt_epi64(shift(b), shift(a));
        let diff = _mm256_sub_epi64(a, b);
        _mm256_sub_epi64(diff, _mm256_srli_epi64::<32>(borrow))
    }
}

#[inline(always)]
fn mul(x: __m256i, y: __m256i) -> __m256i {
    let (hi, lo) = mul64_64(x, y);
    reduce128(hi, lo)
}

#[inline(always)]
fn square(x: __m256i) -> __m256i {
    let (hi, lo) = square64(x);
    reduce128(hi, lo)
}

/// `x·c` for `c < 2^32`: the product is below 2^96, so its high word is below 2^32 and the
/// reduction is a single `hi·EPSILON` addition.
#[inline(always)]
fn mul_small(x: __m256i, c: u32) -> __m256i {
    // SAFETY: see the module docs (only reachable on AVX2 CPUs).
    unsafe {
        let c = set1(u64::from(c));
        let lo_prod = _mm256_mul_epu32(x, c);
        let hi_prod = _mm256_mul_epu32(high_halves(x), c);
        // x·c = hi_prod·2^32 + lo_prod.
        let lo = _mm256_add_epi64(lo_prod, _mm256_slli_epi64::<32>(hi_prod));
        let lo_s = shift(lo);
        let carry = _mm256_cmpgt_epi64(shift(lo_prod), lo_s);
        // (hi_prod >> 32) ≤ 2^32 − 2, so its EPSILON multiple plus one more EPSILON for the
        // carry stays below 2^64 − 2^33.
        let hi = _mm256_srli_epi64::<32>(hi_prod);
        let fold = _mm256_add_epi64(
            _mm256_mul_epu32(hi, set1(EPSILON)),
            _mm256_srli_epi64::<32>(carry),
        );
        shift(add_no_double_overflow_s(fold, lo_s))
    }
}

/// `Σ xs[k]·cs[k]` with `Σ cs < 2^31` (what `SmallCoefficients` guarantees): the low and
/// high 32-bit halves of every `x` are multiplied by `c` and summed separately (neither sum
/// can overflow 64 bits), then the total `lo + hi·2^32 < 2^96` is reduced once.
#[inline(always)]
fn linear_combination_small<const N: usize>(
    xs: &[PackedAvx2; N],
    cs: &SmallCoefficients<N>,
) -> __m256i {
    // SAFETY: see the module docs (only reachable on AVX2 CPUs).
    unsafe {
        let mut lo = _mm256_setzero_si256();
        let mut hi = _mm256_setzero_si256();
        for (x, &c) in xs.iter().zip(cs.get()) {
            let x = x.to_vector();
            let c = set1(u64::from(c));
            lo = _mm256_add_epi64(lo, _mm256_mul_epu32(x, c));
            hi = _mm256_add_epi64(hi, _mm256_mul_epu32(_mm256_srli_epi64::<32>(x), c));
        }
        // lo + hi·2^32 = (hi >> 32)·2^64 + (lo + (hi << 32)), the inner sum with a carry.
        let t = _mm256_add_epi64(lo, _mm256_slli_epi64::<32>(hi));
        let t_s = shift(t);
        let carry = _mm256_cmpgt_epi64(shift(lo), t_s);
        // top < 2^31, so top + carry < 2^32 and its EPSILON multiple is below 2^64 − 2^33.
        let top = _mm256_sub_epi64(_mm256_srli_epi64::<32>(hi), carry);
        shift(add_no_double_overflow_s(
            _mm256_mul_epu32(top, set1(EPSILON)),
            t_s,
        ))
    }
}
