//! AVX-512 backend: eight lanes in a `__m512i`, using only `avx512f` intrinsics.
//!
//! AVX-512F has unsigned 64-bit compares into mask registers and masked add/sub, so the
//! carry/borrow fix-ups are a compare plus one masked instruction, with no shifted domain.
//!
//! The kernel entry point is compiled with the features every AVX-512 CPU since Skylake-SP
//! and Zen 4 has (F, DQ, BW, VL, BMI1, BMI2), not F alone: the intrinsics stay F-only, but
//! the code LLVM generates around them may use the rest, which made a plain build's packed
//! Poseidon2 W12 2.5–3 % faster on Zen 4 (within 4 % of `-C target-cpu=native`; measured,
//! the instruction-level cause not traced). The backend is selected only where all six are
//! present (a CPU with AVX-512F alone, Xeon Phi, gets AVX2).
//!
//! Soundness: `PackedAvx512` is crate-private unless the build enables AVX-512F statically;
//! the only other way to obtain one is [`run_kernel`], which checks the CPU first. So every
//! intrinsic below executes on an AVX-512F CPU.

use core::arch::x86_64::*;
use core::mem::transmute;

use super::{impl_packed_ops, sum_deferred_in_passes};
use crate::backend_id::Backend;
use crate::field::arith::{EPSILON, HALF_P_PLUS_ONE, P};
use crate::field::{Canonical, Goldilocks};
use crate::packed::{DEFERRED_SUM_MAX_TERMS, Kernel, PackedField, check_block_len};
use crate::small_coefficients::SmallCoefficients;

const WIDTH: usize = 8;

/// Eight Goldilocks elements processed with AVX-512F instructions.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
#[repr(transparent)]
pub struct PackedAvx512(pub(crate) [Goldilocks; WIDTH]);

const _: () = assert!(size_of::<PackedAvx512>() == size_of::<__m512i>());

/// Whether this CPU (and OS) runs the AVX-512 backend: every feature its entry point is
/// compiled with.
#[inline]
pub(crate) fn detected() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512dq")
        && std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx512vl")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
}

/// Runs `kernel` with `PackedAvx512` if the CPU has the backend's features ([`detected`]),
/// hands it back otherwise.
#[inline]
pub(crate) fn run_kernel<K: Kernel>(kernel: K) -> Result<K::Output, K> {
    if !detected() {
        return Err(kernel);
    }
    // SAFETY: every feature `run_kernel_avx512` enables was detected on this CPU just above.
    Ok(unsafe { run_kernel_avx512(kernel) })
}

/// The kernel body compiled with AVX-512 enabled (see `avx2::run_kernel_avx2` and the module
/// docs for the feature list, which `detected` checks).
#[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vl,bmi1,bmi2")]
fn run_kernel_avx512<K: Kernel>(kernel: K) -> K::Output {
    // Spills and local arrays at the same cache-line offsets on every call path.
    super::frame::align_frame();
    kernel.run::<PackedAvx512>()
}

#[inline(always)]
fn set1(x: u64) -> __m512i {
    // SAFETY: see the module docs (only reachable on AVX-512F CPUs).
    unsafe { _mm512_set1_epi64(x as i64) }
}

impl PackedAvx512 {
    #[inline(always)]
    fn to_vector(self) -> __m512i {
        // SAFETY: `[Goldilocks; 8]` and `__m512i` are both 64 plain bytes (asserted above).
        unsafe { transmute(self) }
    }

    #[inline(always)]
    fn from_vector(v: __m512i) -> Self {
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

impl_packed_ops!(PackedAvx512);

// SAFETY: `PackedAvx512` is `#[repr(transparent)]` over `[Goldilocks; 8]`, and values exist
// only on AVX-512F CPUs (module docs).
unsafe impl PackedField for PackedAvx512 {
    const WIDTH: usize = WIDTH;
    const BACKEND: Backend = Backend::Avx512;
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
    fn sum_deferred(values: &[Self]) -> Self {
        sum_deferred_in_passes!(values, sum_deferred_one_pass)
    }

    #[inline(always)]
    fn canonicalize(self) -> Canonical<Self> {
        Canonical::new_unchecked(Self::from_vector(canonicalize(self.to_vector())))
    }

    #[inline(always)]
    fn add_canonical(self, c: Canonical<Self>) -> Self {
        // A canonical operand cannot make the sum carry twice.
        Self::from_vector(add_no_double_overflow(
            self.to_vector(),
            c.get().to_vector(),
        ))
    }

    #[inline(always)]
    fn interleave(self, other: Self, block_len: usize) -> (Self, Self) {
        check_block_len(block_len, WIDTH);
        let (a, b) = (self.to_vector(), other.to_vector());
        // SAFETY: see the module docs (only reachable on AVX-512F CPUs).
        let (x, y) = unsafe {
            match block_len {
                1 => (_mm512_unpacklo_epi64(a, b), _mm512_unpackhi_epi64(a, b)),
                2 => (
                    _mm512_permutex2var_epi64(a, _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13), b),
                    _mm512_permutex2var_epi64(a, _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15), b),
                ),
                4 => (
                    _mm512_shuffle_i64x2::<0b01_00_01_00>(a, b),
                    _mm512_shuffle_i64x2::<0b11_10_11_10>(a, b),
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
fn sum_deferred_one_pass(values: &[PackedAvx512]) -> PackedAvx512 {
    debug_assert!(values.len() <= DEFERRED_SUM_MAX_TERMS);
    let Some((first, rest)) = values.split_first() else {
        return PackedAvx512::ZERO;
    };
    // SAFETY: see the module docs (only reachable on AVX-512F CPUs).
    unsafe {
        let mut sum = first.to_vector();
        let mut carries = _mm512_setzero_si512();
        for x in rest {
            let x = x.to_vector();
            sum = _mm512_add_epi64(sum, x);
            let carry = _mm512_cmplt_epu64_mask(sum, x);
            carries = _mm512_mask_add_epi64(carries, carry, carries, set1(1));
        }
        // Each carry dropped 2^64 ≡ EPSILON; at most 2^32 − 2 carries (a pass of
        // DEFERRED_SUM_MAX_TERMS values) keep the fold < p and the count exact in 32 bits.
        PackedAvx512::from_vector(add_no_double_overflow(
            sum,
            _mm512_mul_epu32(carries, opaque_epsilon()),
        ))
    }
}

/// `x mod p` for any u64 (one conditional subtraction).
#[inline(always)]
fn canonicalize(x: __m512i) -> __m512i {
    // SAFETY: see the module docs (only reachable on AVX-512F CPUs).
    unsafe {
        let ge_p = _mm512_cmpge_epu64_mask(x, set1(P));
        _mm512_mask_sub_epi64(x, ge_p, x, set1(P))
    }
}

/// `x + y` where the sum cannot carry twice (true when `y < 2^64 − 2^33`, e.g. canonical).
#[inline(always)]
fn add_no_double_overflow(x: __m512i, y: __m512i) -> __m512i {
    // SAFETY: see the module docs (only reachable on AVX-512F CPUs).
    unsafe {
        let sum = _mm512_add_epi64(x, y);
        let carry = _mm512_cmplt_epu64_mask(sum, y);
        // A carry dropped 2^64 ≡ EPSILON.
        _mm512_mask_add_epi64(sum, carry, sum, set1(EPSILON))
    }
}

/// `x − y` where the difference cannot borrow twice (true when `y` is canonical).
#[inline(always)]
fn sub_no_double_underflow(x: __m512i, y: __m512i) -> __m512i {
    // SAFETY: see the module docs (only reachable on AVX-512F CPUs).
    unsafe {
        let diff = _mm512_sub_epi64(x, y);
        let borrow = _mm512_cmplt_epu64_mask(x, y);
        // A borrow added 2^64 ≡ EPSILON.
        _mm512_mask_sub_epi64(diff, borrow, diff, set1(EPSILON))
    }
}

#[inline(always)]
fn add(x: __m512i, y: __m512i) -> __m512i {
    add_no_double_overflow(x, canonicalize(y))
}

#[inline(always)]
fn sub(x: __m512i, y: __m512i) -> __m512i {
    sub_no_double_underflow(x, canonicalize(y))
}

#[inline(always)]
fn neg(y: __m512i) -> __m512i {
    // SAFETY: see the module docs (only reachable on AVX-512F CPUs).
    unsafe { _mm512_sub_epi64(set1(P), canonicalize(y)) }
}

#[inline(always)]
fn double(x: __m512i) -> __m512i {
    let x = canonicalize(x);
    add_no_double_overflow(x, x)
}

#[inline(always)]
fn halve(x: __m512i) -> __m512i {
    // SAFETY: see the module docs (only reachable on AVX-512F CPUs).
    unsafe {
        // Odd x: (x + p) / 2 = (x >> 1) + (p + 1) / 2, which cannot overflow.
        let odd = _mm512_test_epi64_mask(x, set1(1));
        let half = _mm512_srli_epi64::<1>(x);
        _mm512_mask_add_epi64(half, odd, half, set1(HALF_P_PLUS_ONE))
    }
}

/// The high 32 bits of each lane copied into its low half (the multiplier reads only the low
/// half); a shuffle, so it does not compete with the shifts for ports.
#[inline(always)]
fn high_halves(x: __m512i) -> __m512i {
    // SAFETY: see the module docs (only reachable on AVX-512F CPUs).
    unsafe { _mm512_castps_si512(_mm512_movehdup_ps(_mm512_castsi512_ps(x))) }
}

/// Full 64×64 → 128-bit products, returned as `(hi, lo)`.
#[inline(always)]
fn mul64_64(x: __m512i, y: __m512i) -> (__m512i, __m512i) {
    // SAFETY: see the module docs (only reachable on AVX-512F CPUs).
    unsafe {
        let x_hi = high_halves(x);
        let y_hi = high_halves(y);
        let ll = _mm512_mul_epu32(x, y);
        let lh = _mm512_mul_epu32(x, y_hi);
        let hl = _mm512_mul_epu32(x_hi, y);
        let hh = _mm512_mul_epu32(x_hi, y_hi);
        // Schoolbook with 32-bit limbs; each partial sum stays below 2^64.
        let mid0 = _mm512_add_epi64(hl, _mm512_srli_epi64::<32>(ll));
        let mid1 = _mm512_add_epi64(lh, _mm512_and_si512(mid0, set1(EPSILON)));
        let hi = _mm512_add_epi64(
            _mm512_add_epi64(hh, _mm512_srli_epi64::<32>(mid0)),
            _mm512_srli_epi64::<32>(mid1),
        );
        // Low word: low half of ll, high half = low half of mid1.
        let mid1_up = _mm512_castps_si512(_mm512_moveldup_ps(_mm512_castsi512_ps(mid1)));
        let lo = _mm512_mask_blend_epi32(0xAAAA, ll, mid1_up);
        (hi, lo)
    }
}

/// `x²` as `(hi, lo)` with three partial products (the cross term appears twice).
#[inline(always)]
fn square64(x: __m512i) -> (__m512i, __m512i) {
    // SAFETY: see the module docs (only reachable on AVX-512F CPUs).
    unsafe {
        let x_hi = high_halves(x);
        let ll = _mm512_mul_epu32(x, x);
        let lh = _mm512_mul_epu32(x, x_hi);
        let hh = _mm512_mul_epu32(x_hi, x_hi);
        // x² = hh·2^64 + lh·2^33 + ll.
        let mid = _mm512_add_epi64(lh, _mm512_srli_epi64::<33>(ll));
        let hi = _mm512_add_epi64(hh, _mm512_srli_epi64::<31>(mid));
        let lo = _mm512_add_epi64(ll, _mm512_slli_epi64::<33>(lh));
        (hi, lo)
    }
}

/// `EPSILON` in every lane, hidden from LLVM's constant folding.
///
/// LLVM rewrites `vpmuludq` by the constant 2^32 − 1 into `and` + `shift` + `sub`: three
/// vector ALU instructions instead of one multiplication. On Zen 4 the vector ALUs are the
/// bottleneck of Poseidon2 while the multiplier has room, and keeping the multiplication made
/// the width-12 permutation 11% faster (`benches/poseidon2.rs`). The constant passes through
/// an empty `asm!` ([`opaque_u64`](super::asm::opaque_u64)), which LLVM hoists out of loops:
/// a register, not the store and memory operand per multiplication of `black_box`.
#[inline(always)]
fn opaque_epsilon() -> __m512i {
    set1(super::asm::opaque_u64(EPSILON))
}

/// `hi·2^64 + lo mod p` (possibly non-canonical): `lo − hi_hi + hi_lo·(2^32 − 1)`.
#[inline(always)]
fn reduce128(hi: __m512i, lo: __m512i) -> __m512i {
    // SAFETY: see the module docs (only reachable on AVX-512F CPUs).
    unsafe {
        let hi_hi = _mm512_srli_epi64::<32>(hi);
        // hi_hi < 2^32, so the subtraction borrows at most once.
        let t0 = sub_no_double_underflow(lo, hi_hi);
        // hi_lo·EPSILON < p: one carry fix-up at most.
        let t1 = _mm512_mul_epu32(hi, opaque_epsilon());
        add_no_double_overflow(t0, t1)
    }
}

/// `x · 2^exp` for `exp < 64`: the 128-bit product is two shifts, then one reduction (which
/// LLVM trims further for small `exp`, where the high word has fewer than 32 bits).
#[inline(always)]
fn mul_2exp_below_64(x: __m512i, exp: u64) -> __m512i {
    debug_assert!(exp < 64);
    // SAFETY: see the module docs (only reachable on AVX-512F CPUs).
    unsafe {
        let lo = _mm512_sllv_epi64(x, set1(exp));
        // A shift count of 64 (exp = 0) yields 0, as the high word must be.
        let hi = _mm512_srlv_epi64(x, set1(64 - exp));
        reduce128(hi, lo)
    }
}

#[inline(always)]
fn mul(x: __m512i, y: __m512i) -> __m512i {
    let (hi, lo) = mul64_64(x, y);
    reduce128(hi, lo)
}

#[inline(always)]
fn square(x: __m512i) -> __m512i {
    let (hi, lo) = square64(x);
    reduce128(hi, lo)
}

/// `x·c` for `c < 2^32`: the product is below 2^96, so its high word is below 2^32 and the
/// reduction is a single `hi·EPSILON` addition.
#[inline(always)]
fn mul_small(x: __m512i, c: u32) -> __m512i {
    // SAFETY: see the module docs (only reachable on AVX-512F CPUs).
    unsafe {
        let c = set1(u64::from(c));
        let lo_prod = _mm512_mul_epu32(x, c);
        let hi_prod = _mm512_mul_epu32(high_halves(x), c);
        // x·c = hi_prod·2^32 + lo_prod.
        let lo = _mm512_add_epi64(lo_prod, _mm512_slli_epi64::<32>(hi_prod));
        let carry = _mm512_cmplt_epu64_mask(lo, lo_prod);
        // (hi_prod >> 32) ≤ 2^32 − 2, so its EPSILON multiple plus one more EPSILON for the
        // carry stays below 2^64 − 2^33.
        let fold = _mm512_mul_epu32(_mm512_srli_epi64::<32>(hi_prod), set1(EPSILON));
        let fold = _mm512_mask_add_epi64(fold, carry, fold, set1(EPSILON));
        add_no_double_overflow(lo, fold)
    }
}

/// `Σ xs[k]·cs[k]` with `Σ cs < 2^31` (what `SmallCoefficients` guarantees): the low and
/// high 32-bit halves of every `x` are multiplied by `c` and summed separately (neither sum
/// can overflow 64 bits), then the total `lo + hi·2^32 < 2^96` is reduced once.
#[inline(always)]
fn linear_combination_small<const N: usize>(
    xs: &[PackedAvx512; N],
    cs: &SmallCoefficients<N>,
) -> __m512i {
    // SAFETY: see the module docs (only reachable on AVX-512F CPUs).
    unsafe {
        let mut lo = _mm512_setzero_si512();
        let mut hi = _mm512_setzero_si512();
        for (x, &c) in xs.iter().zip(cs.get()) {
            let x = x.to_vector();
            let c = set1(u64::from(c));
            lo = _mm512_add_epi64(lo, _mm512_mul_epu32(x, c));
            hi = _mm512_add_epi64(hi, _mm512_mul_epu32(_mm512_srli_epi64::<32>(x), c));
        }
        // lo + hi·2^32 = (hi >> 32)·2^64 + (lo + (hi << 32)), the inner sum with a carry.
        let t = _mm512_add_epi64(lo, _mm512_slli_epi64::<32>(hi));
        let carry = _mm512_cmplt_epu64_mask(t, lo);
        let top = _mm512_srli_epi64::<32>(hi);
        // top < 2^31, so top + carry < 2^32 and its EPSILON multiple is below 2^64 − 2^33.
        let top = _mm512_mask_add_epi64(top, carry, top, set1(1));
        add_no_double_overflow(t, _mm512_mul_epu32(top, set1(EPSILON)))
    }
}
