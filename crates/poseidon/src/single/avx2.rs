//! The single-state permutation on x86-64 vector registers: the 12 words in three 4-lane
//! `ymm` registers (words 0–3, 4–7, 8–11).
//!
//! * Full rounds: the constants are added as vectors, the S-box `x⁷` is four vector
//!   multiplications per register (`x²`, `x³ = x²·x`, `x⁴ = (x²)²`, `x⁷ = x³·x⁴`), and the MDS
//!   layer is `Σ_j s_j · M[·][j]`: each word broadcast (its low and high 32-bit halves) and
//!   multiplied by the matrix column's small coefficients with `vpmuludq`, summed without
//!   reduction (each sum stays below 2^41), then reduced once per output.
//! * Partial rounds: the scalar sparse form ([`crate::rounds`]), compiled inside the same
//!   `#[target_feature]` entry point (so with `mulx` from BMI2): one state's partial round is
//!   one S-box on word 0 and 22 multiplications, which 64-bit vector multiplication (four
//!   32-bit products and a reduction per lane) does not do faster than the scalar unit.
//!
//! The same code runs in two entry points: AVX2 with BMI2, and AVX-512F/VL, where the compiler
//! uses the EVEX encodings, mask compares and 32 vector registers.
//!
//! Soundness: the entry points run only through [`Avx2`] and [`Avx512`], whose values exist
//! only once [`Avx2::detect`] / [`Avx512::detect`] found the instruction sets on this CPU. Every
//! intrinsic below is inlined into one of them.

use core::arch::x86_64::*;

use aurum_goldilocks::{Goldilocks, P, raw};

use crate::constants::{HALF_FULL_ROUNDS, WIDTH, mds_matrix};
use crate::fast::FastConstants;
use std::sync::OnceLock;

use super::words;
use crate::constants::PARTIAL_ROUNDS;

/// `2^64 mod p = 2^32 − 1`.
const EPSILON: u64 = 0xffff_ffff;
const SIGN_BIT: u64 = 1 << 63;

/// Registers per state.
const REGS: usize = WIDTH / 4;

type State = [__m256i; REGS];

/// The AVX2 + BMI2 form; a value exists only on a CPU that has both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Avx2(&'static PartialColumns);

/// The AVX-512F/VL (+ AVX2, BMI2) form; a value exists only on a CPU that has them all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Avx512(&'static PartialColumns);

impl Avx2 {
    /// The form, if this CPU runs it.
    pub(super) fn detect() -> Option<Self> {
        (std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("bmi2"))
            .then(|| Self(PartialColumns::get()))
    }

    /// Permutes one state.
    #[inline]
    pub(super) fn permute(self, constants: &FastConstants, state: &mut [Goldilocks; WIDTH]) {
        // SAFETY: `self` exists, so `detect` found AVX2 and BMI2 on this CPU.
        unsafe { permute_avx2(constants, self.0, state) }
    }
}

impl Avx512 {
    /// The form, if this CPU runs it.
    pub(super) fn detect() -> Option<Self> {
        (Avx2::detect().is_some()
            && std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vl"))
        .then(|| Self(PartialColumns::get()))
    }

    /// Permutes one state.
    #[inline]
    pub(super) fn permute(self, constants: &FastConstants, state: &mut [Goldilocks; WIDTH]) {
        // SAFETY: `self` exists, so `detect` found AVX2, BMI2, AVX-512F and AVX-512VL on this
        // CPU.
        unsafe { permute_avx512(constants, self.0, state) }
    }
}

#[target_feature(enable = "avx2,bmi2")]
fn permute_avx2(c: &FastConstants, cols: &PartialColumns, state: &mut [Goldilocks; WIDTH]) {
    permute(c, cols, state);
}

#[target_feature(enable = "avx2,bmi2,avx512f,avx512vl")]
fn permute_avx512(c: &FastConstants, cols: &PartialColumns, state: &mut [Goldilocks; WIDTH]) {
    permute(c, cols, state);
}

/// Per partial round, the column `FastConstants::partial_cols` added to words 1–11 (times the
/// S-box output), by register, with a zero in word 0's lane.
#[repr(C, align(32))]
pub(super) struct PartialColumns([[[u64; 4]; REGS]; PARTIAL_ROUNDS]);

impl PartialColumns {
    /// The table, built once per process from [`FastConstants::get`].
    fn get() -> &'static Self {
        static TABLE: OnceLock<PartialColumns> = OnceLock::new();
        TABLE.get_or_init(|| {
            let c = FastConstants::get();
            let mut out = [[[0u64; 4]; REGS]; PARTIAL_ROUNDS];
            for (round, col) in out.iter_mut().zip(&c.partial_cols) {
                for (i, &x) in raw::words(col).iter().enumerate() {
                    round[(i + 1) / 4][(i + 1) % 4] = x;
                }
            }
            Self(out)
        })
    }
}

impl core::fmt::Debug for PartialColumns {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("PartialColumns")
    }
}

impl PartialEq for PartialColumns {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl Eq for PartialColumns {}

/// The whole permutation (see the module docs); inlined into each entry point.
#[inline(always)]
fn permute(c: &FastConstants, cols: &PartialColumns, state: &mut [Goldilocks; WIDTH]) {
    let mut v = load(state);
    for r in 0..HALF_FULL_ROUNDS {
        v = sbox(add_constants(v, &c.full[r]));
        if r + 1 < HALF_FULL_ROUNDS {
            v = mds(v);
        }
    }
    v = partial_rounds(c, cols, v);
    for constants in &c.full[HALF_FULL_ROUNDS..] {
        v = mds(sbox(add_constants(v, constants)));
    }
    store(state, v);
}

/// The last initial round's linear layer (the MDS matrix and the dense matrix the sparse rounds
/// start with) and the 22 sparse partial rounds: word 0 on the scalar unit (its S-box, the row
/// product over words 1–11, plus `m00` times the S-box output), words 1–11 in the registers,
/// where each round adds the S-box output times its column.
#[inline(always)]
fn partial_rounds(c: &FastConstants, cols: &PartialColumns, v: State) -> State {
    let mut buffer = [Goldilocks::ZERO; WIDTH];
    store(&mut buffer, v);
    let first: &mut [u64; WIDTH] = raw::words_mut(&mut buffer).try_into().expect("12 words");
    words::first_partial_layer(c, first);
    let mut s0 = first[0];
    let mut v = load(&buffer);
    let partial = raw::words(&c.partial);
    for j in 0..PARTIAL_ROUNDS {
        // Independent of this round's S-box: the row product over words 1–11 plus the next
        // round's constant.
        store(&mut buffer, v);
        let rest: &[u64; WIDTH - 1] = raw::words(&buffer)[1..].try_into().expect("11 words");
        let mut sum = words::dot(rest, raw::words(&c.partial_rows[j]));
        if j + 1 < PARTIAL_ROUNDS {
            sum = words::add(sum, partial[j + 1]);
        }
        let u = words::exp7(s0);
        let u_all = set1(u);
        for (x, col) in v.iter_mut().zip(&cols.0[j]) {
            // SAFETY: `PartialColumns` is 32-byte aligned and each `[u64; 4]` is 32 bytes (an
            // aligned load); AVX2 as in the module docs.
            let col = unsafe { _mm256_load_si256(col.as_ptr().cast()) };
            *x = add(*x, mul(u_all, col));
        }
        s0 = words::add(
            words::reduce128(u128::from(u) * u128::from(words::M00)),
            sum,
        );
    }
    store(&mut buffer, v);
    raw::words_mut(&mut buffer)[0] = s0;
    load(&buffer)
}

#[inline(always)]
fn load(state: &[Goldilocks; WIDTH]) -> State {
    let words = raw::words(state);
    let mut v = [zero(); REGS];
    for (b, x) in v.iter_mut().enumerate() {
        // SAFETY: `words` has 12 elements, so words 4b..4b + 4 are in bounds (unaligned load).
        *x = unsafe { _mm256_loadu_si256(words.as_ptr().add(4 * b).cast()) };
    }
    v
}

#[inline(always)]
fn store(state: &mut [Goldilocks; WIDTH], v: State) {
    let words = raw::words_mut(state);
    for (b, x) in v.into_iter().enumerate() {
        // SAFETY: as in `load` (unaligned store).
        unsafe { _mm256_storeu_si256(words.as_mut_ptr().add(4 * b).cast(), x) };
    }
}

#[inline(always)]
fn zero() -> __m256i {
    // SAFETY: only reachable on AVX2 CPUs (module docs).
    unsafe { _mm256_setzero_si256() }
}

#[inline(always)]
fn set1(x: u64) -> __m256i {
    // SAFETY: only reachable on AVX2 CPUs (module docs).
    unsafe { _mm256_set1_epi64x(x as i64) }
}

/// `x ⊕ 2^63`: AVX2 compares are signed, so unsigned comparisons compare shifted values.
#[inline(always)]
fn shift(x: __m256i) -> __m256i {
    // SAFETY: only reachable on AVX2 CPUs (module docs).
    unsafe { _mm256_xor_si256(x, set1(SIGN_BIT)) }
}

/// `x + y` for any `x` and a shifted `y_s` whose sum cannot carry twice (`y` canonical or
/// below `2^64 − 2^33`); the result is shifted.
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

/// `x + y` for any representations.
#[inline(always)]
fn add(x: __m256i, y: __m256i) -> __m256i {
    shift(add_no_double_overflow_s(x, canonicalize_s(shift(y))))
}

/// The high 32 bits of each lane copied into its low half (what `vpmuludq` reads).
#[inline(always)]
fn high_halves(x: __m256i) -> __m256i {
    // SAFETY: only reachable on AVX2 CPUs (module docs).
    unsafe { _mm256_castps_si256(_mm256_movehdup_ps(_mm256_castsi256_ps(x))) }
}

/// `hi·2^64 + lo mod p` (possibly non-canonical): `lo − hi_hi + hi_lo·(2^32 − 1)`.
#[inline(always)]
fn reduce128(hi: __m256i, lo: __m256i) -> __m256i {
    // SAFETY: only reachable on AVX2 CPUs (module docs).
    unsafe {
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

/// `x·y mod p` (any representations in, possibly non-canonical out).
#[inline(always)]
fn mul(x: __m256i, y: __m256i) -> __m256i {
    // SAFETY: only reachable on AVX2 CPUs (module docs).
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
        let mid1_up = _mm256_castps_si256(_mm256_moveldup_ps(_mm256_castsi256_ps(mid1)));
        let lo = _mm256_blend_epi32::<0b1010_1010>(ll, mid1_up);
        reduce128(hi, lo)
    }
}

/// `x² mod p` with three partial products (the cross term appears twice).
#[inline(always)]
fn square(x: __m256i) -> __m256i {
    // SAFETY: only reachable on AVX2 CPUs (module docs).
    unsafe {
        let x_hi = high_halves(x);
        let ll = _mm256_mul_epu32(x, x);
        let lh = _mm256_mul_epu32(x, x_hi);
        let hh = _mm256_mul_epu32(x_hi, x_hi);
        // x² = hh·2^64 + lh·2^33 + ll.
        let mid = _mm256_add_epi64(lh, _mm256_srli_epi64::<33>(ll));
        let hi = _mm256_add_epi64(hh, _mm256_srli_epi64::<31>(mid));
        let lo = _mm256_add_epi64(ll, _mm256_slli_epi64::<33>(lh));
        reduce128(hi, lo)
    }
}

/// Adds a round's (canonical) constants.
#[inline(always)]
fn add_constants(v: State, constants: &[Goldilocks; WIDTH]) -> State {
    let c = load(constants);
    let mut out = v;
    for (o, c) in out.iter_mut().zip(c) {
        // A canonical addend cannot make the sum carry twice.
        *o = shift(add_no_double_overflow_s(*o, shift(c)));
    }
    out
}

/// `x⁷` on every word, stage by stage across the three registers.
#[inline(always)]
fn sbox(v: State) -> State {
    let mut x2 = v;
    for x in &mut x2 {
        *x = square(*x);
    }
    let mut x3 = x2;
    let mut x4 = x2;
    for b in 0..REGS {
        x3[b] = mul(x3[b], v[b]);
        x4[b] = square(x4[b]);
    }
    let mut out = v;
    for b in 0..REGS {
        out[b] = mul(x3[b], x4[b]);
    }
    out
}

/// The MDS matrix's columns by register: `MDS_COLUMNS.0[j][b]` holds `M[4b..4b + 4][j]`.
#[repr(C, align(32))]
struct Columns([[[u64; 4]; REGS]; WIDTH]);

static MDS_COLUMNS: Columns = {
    let m = mds_matrix();
    let mut out = [[[0u64; 4]; REGS]; WIDTH];
    let mut j = 0;
    while j < WIDTH {
        let mut i = 0;
        while i < WIDTH {
            out[j][i / 4][i % 4] = m[i][j];
            i += 1;
        }
        j += 1;
    }
    Columns(out)
};

// The MDS rows' coefficient sums stay below 2^23, so the unreduced sums of `vpmuludq`
// products below (at most 2^32 · Σ row) cannot overflow 64 bits.
const _: () = {
    let m = mds_matrix();
    let mut i = 0;
    while i < WIDTH {
        let mut sum = 0;
        let mut j = 0;
        while j < WIDTH {
            sum += m[i][j];
            j += 1;
        }
        assert!(sum < 1 << 23);
        i += 1;
    }
};

/// `M · state`: each word's low and high halves broadcast and multiplied by the column's small
/// coefficients, summed per output without reduction, then `lo + hi·2^32` reduced once.
#[inline(always)]
fn mds(v: State) -> State {
    let mut words = [Goldilocks::ZERO; WIDTH];
    store(&mut words, v);
    let words = raw::words(&words);
    let mut lo = [zero(); REGS];
    let mut hi = [zero(); REGS];
    for (&w, column) in words.iter().zip(&MDS_COLUMNS.0) {
        let w_lo = set1(w);
        let w_hi = set1(w >> 32);
        for b in 0..REGS {
            // SAFETY: `Columns` is 32-byte aligned and each `[u64; 4]` is 32 bytes, so every
            // register's column block is an aligned 32-byte load; AVX2 as in the module docs.
            unsafe {
                let c = _mm256_load_si256(column[b].as_ptr().cast());
                lo[b] = _mm256_add_epi64(lo[b], _mm256_mul_epu32(w_lo, c));
                hi[b] = _mm256_add_epi64(hi[b], _mm256_mul_epu32(w_hi, c));
            }
        }
    }
    let mut out = v;
    for b in 0..REGS {
        // SAFETY: only reachable on AVX2 CPUs (module docs).
        out[b] = unsafe {
            // lo + hi·2^32 = (hi >> 32)·2^64 + (lo + (hi << 32)), the inner sum with a carry.
            let t = _mm256_add_epi64(lo[b], _mm256_slli_epi64::<32>(hi[b]));
            let t_s = shift(t);
            let carry = _mm256_cmpgt_epi64(shift(lo[b]), t_s);
            // top < 2^23, so top + carry times EPSILON stays below 2^64 − 2^33.
            let top = _mm256_sub_epi64(_mm256_srli_epi64::<32>(hi[b]), carry);
            shift(add_no_double_overflow_s(
                _mm256_mul_epu32(top, set1(EPSILON)),
                t_s,
            ))
        };
    }
    out
}
