//! The AVX2 (+ BMI2) single-state form: the entry point, and the field arithmetic of
//! [`Ops`] on AVX2, whose compares are signed, so unsigned comparisons compare values shifted
//! by `2^63` (named `*_s`).
//!
//! Soundness: [`permute_avx2`] runs only through [`Avx2`], whose values exist only once
//! [`Avx2::detect`] found AVX2 and BMI2 on this CPU; every intrinsic below is inlined into it.

use core::arch::x86_64::*;

use aurum_goldilocks::{Goldilocks, P};

use super::ymm::{Ops, PartialTables, permute, set1};
use crate::constants::WIDTH;
use crate::fast::FastConstants;

/// `2^64 mod p = 2^32 − 1`.
const EPSILON: u64 = 0xffff_ffff;
const SIGN_BIT: u64 = 1 << 63;

/// The AVX2 + BMI2 form; a value exists only on a CPU that has both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Avx2(&'static PartialTables);

impl Avx2 {
    /// The form, if this CPU runs it.
    pub(super) fn detect() -> Option<Self> {
        (std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("bmi2"))
            .then(|| Self(PartialTables::get()))
    }

    /// Permutes one state.
    #[inline]
    pub(super) fn permute(self, constants: &FastConstants, state: &mut [Goldilocks; WIDTH]) {
        // SAFETY: `self` exists, so `detect` found AVX2 and BMI2 on this CPU.
        unsafe { permute_avx2(constants, self.0, state) }
    }
}

#[target_feature(enable = "avx2,bmi2")]
fn permute_avx2(c: &FastConstants, tables: &PartialTables, state: &mut [Goldilocks; WIDTH]) {
    permute::<Avx2Ops>(c, tables, state);
}

/// [`Ops`] with AVX2 instructions.
struct Avx2Ops;

impl Ops for Avx2Ops {
    #[inline(always)]
    fn add_no_double_overflow(x: __m256i, y: __m256i) -> __m256i {
        shift(add_no_double_overflow_s(x, shift(y)))
    }

    #[inline(always)]
    fn add(x: __m256i, y: __m256i) -> __m256i {
        shift(add_no_double_overflow_s(x, canonicalize_s(shift(y))))
    }

    #[inline(always)]
    fn reduce128(hi: __m256i, lo: __m256i) -> __m256i {
        // SAFETY: only reachable on AVX2 CPUs (module docs).
        unsafe {
            // lo − hi_hi + hi_lo·(2^32 − 1).
            let hi_hi = _mm256_srli_epi64::<32>(hi);
            let lo_s = shift(lo);
            let t0_s = _mm256_sub_epi64(lo_s, hi_hi);
            let borrow = _mm256_cmpgt_epi64(t0_s, lo_s);
            let t0_s = _mm256_sub_epi64(t0_s, _mm256_srli_epi64::<32>(borrow));
            // hi_lo·EPSILON < p: one carry fix-up at most.
            let t1 = _mm256_mul_epu32(hi, set1(EPSILON));
            shift(add_no_double_overflow_s(t1, t0_s))
        }
    }

    #[inline(always)]
    fn reduce_split(lo: __m256i, hi: __m256i) -> __m256i {
        // SAFETY: only reachable on AVX2 CPUs (module docs).
        unsafe {
            // lo + hi·2^32 = (hi >> 32)·2^64 + (lo + (hi << 32)), the inner sum with a carry.
            let t = _mm256_add_epi64(lo, _mm256_slli_epi64::<32>(hi));
            let t_s = shift(t);
            let carry = _mm256_cmpgt_epi64(shift(lo), t_s);
            // top < 2^23, so top + carry times EPSILON stays below 2^64 − 2^33.
            let top = _mm256_sub_epi64(_mm256_srli_epi64::<32>(hi), carry);
            shift(add_no_double_overflow_s(
                _mm256_mul_epu32(top, set1(EPSILON)),
                t_s,
            ))
        }
    }
}

/// `x ⊕ 2^63`: into or out of the shifted domain.
#[inline(always)]
fn shift(x: __m256i) -> __m256i {
    // SAFETY: only reachable on AVX2 CPUs (module docs).
    unsafe { _mm256_xor_si256(x, set1(SIGN_BIT)) }
}

/// `x + y` for any `x` and a shifted `y_s` whose sum cannot carry twice; the result is shifted.
#[inline(always)]
fn add_no_double_overflow_s(x: __m256i, y_s: __m256i) -> __m256i {
    // SAFETY: only reachable on AVX2 CPUs (module docs).
    unsafe {
        let sum_s = _mm256_add_epi64(x, y_s);
        // Wrapped iff the sum is below the addend; a carry dropped 2^64 ≡ EPSILON.
        let carry = _mm256_cmpgt_epi64(y_s, sum_s);
        _mm256_add_epi64(sum_s, _mm256_srli_epi64::<32>(carry))
    }
}

/// Shifted `x` → shifted `x mod p` (subtracts p once, which suffices for any `u64`).
#[inline(always)]
fn canonicalize_s(x_s: __m256i) -> __m256i {
    // SAFETY: only reachable on AVX2 CPUs (module docs).
    unsafe {
        let below_p = _mm256_cmpgt_epi64(set1(P ^ SIGN_BIT), x_s);
        // x ≥ p: x − p = x + EPSILON (mod 2^64).
        _mm256_add_epi64(x_s, _mm256_andnot_si256(below_p, set1(EPSILON)))
    }
}
