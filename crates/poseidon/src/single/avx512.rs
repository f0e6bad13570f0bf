//! The AVX-512 single-state form: the same three `ymm` registers as the AVX2 form, with
//! AVX-512VL's unsigned compares into mask registers and masked additions in the field
//! arithmetic of [`Ops`] (no shifted domain, fewer instructions per reduction), and the EVEX
//! encodings' 32 vector registers.
//!
//! Soundness: [`permute_avx512`] runs only through [`Avx512`], whose values exist only once
//! [`Avx512::detect`] found AVX2, BMI2, AVX-512F and AVX-512VL on this CPU; every intrinsic below
//! is inlined into it.

use core::arch::x86_64::*;

use aurum_goldilocks::{Goldilocks, P};

use super::ymm::{Ops, PartialTables, permute, set1};
use crate::constants::WIDTH;
use crate::fast::FastConstants;

/// `2^64 mod p = 2^32 − 1`.
const EPSILON: u64 = 0xffff_ffff;

/// The AVX-512F/VL (+ AVX2, BMI2) form; a value exists only on a CPU that has them all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Avx512(&'static PartialTables);

impl Avx512 {
    /// The form, if this CPU runs it.
    pub(super) fn detect() -> Option<Self> {
        (std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vl"))
        .then(|| Self(PartialTables::get()))
    }

    /// Permutes one state.
    #[inline]
    pub(super) fn permute(self, constants: &FastConstants, state: &mut [Goldilocks; WIDTH]) {
        // SAFETY: `self` exists, so `detect` found AVX2, BMI2, AVX-512F and AVX-512VL on this
        // CPU.
        unsafe { permute_avx512(constants, self.0, state) }
    }
}

#[target_feature(enable = "avx2,bmi2,avx512f,avx512vl")]
fn permute_avx512(c: &FastConstants, tables: &PartialTables, state: &mut [Goldilocks; WIDTH]) {
    permute::<Avx512Ops>(c, tables, state);
}

/// [`Ops`] with AVX-512VL instructions.
struct Avx512Ops;

impl Ops for Avx512Ops {
    #[inline(always)]
    fn add_no_double_overflow(x: __m256i, y: __m256i) -> __m256i {
        // SAFETY: only reachable on AVX-512VL CPUs (module docs).
        unsafe {
            let sum = _mm256_add_epi64(x, y);
            // Wrapped iff the sum is below the addend; a carry dropped 2^64 ≡ EPSILON.
            let carry = _mm256_cmplt_epu64_mask(sum, y);
            _mm256_mask_add_epi64(sum, carry, sum, set1(EPSILON))
        }
    }

    #[inline(always)]
    fn add(x: __m256i, y: __m256i) -> __m256i {
        // SAFETY: only reachable on AVX-512VL CPUs (module docs).
        let y = unsafe {
            // y mod p: subtract p once where y ≥ p.
            let above = _mm256_cmpge_epu64_mask(y, set1(P));
            _mm256_mask_sub_epi64(y, above, y, set1(P))
        };
        Self::add_no_double_overflow(x, y)
    }

    #[inline(always)]
    fn reduce128(hi: __m256i, lo: __m256i) -> __m256i {
        // SAFETY: only reachable on AVX-512VL CPUs (module docs).
        unsafe {
            // lo − hi_hi + hi_lo·(2^32 − 1).
            let hi_hi = _mm256_srli_epi64::<32>(hi);
            let t0 = _mm256_sub_epi64(lo, hi_hi);
            // A borrow added 2^64 ≡ EPSILON: take it away (t0 ≥ 2^64 − 2^32 then, no wrap).
            let borrow = _mm256_cmplt_epu64_mask(lo, hi_hi);
            let t0 = _mm256_mask_sub_epi64(t0, borrow, t0, set1(EPSILON));
            // hi_lo·EPSILON < p: one carry fix-up at most.
            let t1 = _mm256_mul_epu32(hi, set1(EPSILON));
            Self::add_no_double_overflow(t0, t1)
        }
    }

    #[inline(always)]
    fn reduce_split(lo: __m256i, hi: __m256i) -> __m256i {
        // SAFETY: only reachable on AVX-512VL CPUs (module docs).
        unsafe {
            // lo + hi·2^32 = (hi >> 32)·2^64 + (lo + (hi << 32)), the inner sum with a carry.
            let t = _mm256_add_epi64(lo, _mm256_slli_epi64::<32>(hi));
            let carry = _mm256_cmplt_epu64_mask(t, lo);
            let top = _mm256_srli_epi64::<32>(hi);
            let top = _mm256_mask_add_epi64(top, carry, top, set1(1));
            // top < 2^23, so top times EPSILON stays below 2^64 − 2^33.
            Self::add_no_double_overflow(t, _mm256_mul_epu32(top, set1(EPSILON)))
        }
    }
}
