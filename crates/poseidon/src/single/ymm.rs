//! The single-state permutation on x86-64 vector registers: the 12 words in three 4-lane
//! `ymm` registers (words 0–3, 4–7, 8–11), generic over the field arithmetic that differs
//! between instruction sets ([`Ops`]: AVX2 in `avx2.rs`, AVX-512VL with mask registers in
//! `avx512.rs`).
//!
//! * Full rounds: the constants are added as vectors, the S-box `x⁷` is four vector
//!   multiplications per register (`x²`, `x³ = x²·x`, `x⁴ = (x²)²`, `x⁷ = x³·x⁴`), and the MDS
//!   layer is `Σ_j s_j · M[·][j]`: each word broadcast (its low and high 32-bit halves) and
//!   multiplied by the matrix column's small coefficients with `vpmuludq`, summed without
//!   reduction, then reduced once per output.
//! * Partial rounds: word 0 on the scalar unit (its S-box, and the row product over words 1–11
//!   in `words.rs`, with `mulx` inside the entry points), words 1–11 in the registers, where each
//!   round adds the S-box output times the round's column (three vector multiplications instead
//!   of eleven scalar ones with their reductions). The row product reads words 1–11 as they
//!   were [`LOOKBACK`] rounds earlier and adds what the rounds since then added to them as
//!   `LOOKBACK` scalar terms ([`partial_rounds`]), so the vector update and its trip back to the
//!   scalar unit stay off the round-to-round chain.
//!
//! Soundness: everything here is `#[inline(always)]` and runs only inside the `#[target_feature]`
//! entry points of `avx2.rs` and `avx512.rs`, which run only through values that exist once
//! this CPU was found to have AVX2 and BMI2 (and AVX-512F/VL for the second).

use core::arch::x86_64::*;

use aurum_goldilocks::{Goldilocks, PackedField, raw};

use crate::constants::{HALF_FULL_ROUNDS, WIDTH, mds_matrix};
use crate::fast::FastConstants;
use std::sync::OnceLock;

use super::words;
use crate::constants::PARTIAL_ROUNDS;

/// `2^64 mod p = 2^32 − 1`.
const EPSILON: u64 = 0xffff_ffff;

/// Registers per state.
pub(super) const REGS: usize = WIDTH / 4;

pub(super) type State = [__m256i; REGS];

/// How many rounds back the partial rounds' row product reads words 1–11 (see
/// [`partial_rounds`]). Each adds one scalar multiplication per round and takes the vector
/// update one round further off the chain; on a Zen 5 one permutation took 878, 812, 826 and
/// 789 ns for 1 to 4 (the update read in the same round: 961 ns).
const LOOKBACK: usize = 2;

/// The partial rounds' tables, built once per process from [`FastConstants::get`].
#[repr(C, align(32))]
pub(super) struct PartialTables {
    /// Per round, the column `FastConstants::partial_cols` added to words 1–11 (times the S-box
    /// output), by register, with a zero in word 0's lane.
    cols: [[[u64; 4]; REGS]; PARTIAL_ROUNDS],
    /// Per round `j`, `back[j][i] = row_j · col_(j−1−i)` (`partial_rows`, `partial_cols`;
    /// zero where round `j − 1 − i` does not exist).
    back: [[u64; LOOKBACK]; PARTIAL_ROUNDS],
}

impl PartialTables {
    /// The tables, built on first use.
    pub(super) fn get() -> &'static Self {
        static TABLES: OnceLock<PartialTables> = OnceLock::new();
        TABLES.get_or_init(|| {
            let c = FastConstants::get();
            let mut cols = [[[0u64; 4]; REGS]; PARTIAL_ROUNDS];
            for (round, col) in cols.iter_mut().zip(&c.partial_cols) {
                for (i, &x) in raw::words(col).iter().enumerate() {
                    round[(i + 1) / 4][(i + 1) % 4] = x;
                }
            }
            let mut back = [[0u64; LOOKBACK]; PARTIAL_ROUNDS];
            for (j, round) in back.iter_mut().enumerate() {
                for (i, x) in round.iter_mut().enumerate() {
                    if let Some(earlier) = j.checked_sub(i + 1) {
                        *x = Goldilocks::dot_product(&c.partial_rows[j], &c.partial_cols[earlier])
                            .as_canonical_u64();
                    }
                }
            }
            Self { cols, back }
        })
    }
}

impl core::fmt::Debug for PartialTables {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("PartialTables")
    }
}

impl PartialEq for PartialTables {
    fn eq(&self, other: &Self) -> bool {
        self.cols == other.cols && self.back == other.back
    }
}

impl Eq for PartialTables {}

/// The field arithmetic that differs between the instruction sets (AVX2 compares are signed
/// and produce vector masks; AVX-512 compares unsigned into mask registers).
pub(super) trait Ops {
    /// `x + y` for any `x` and a `y` whose sum with it cannot carry twice (`y` canonical, or
    /// below `2^64 − 2^33`).
    fn add_no_double_overflow(x: __m256i, y: __m256i) -> __m256i;
    /// `x + y` for any representations.
    fn add(x: __m256i, y: __m256i) -> __m256i;
    /// `hi·2^64 + lo mod p` for any 128-bit value (possibly non-canonical).
    fn reduce128(hi: __m256i, lo: __m256i) -> __m256i;
    /// `lo + hi·2^32 mod p` for `lo, hi < 2^55` (the MDS layer's unreduced sums).
    fn reduce_split(lo: __m256i, hi: __m256i) -> __m256i;
}

/// The whole permutation (see the module docs); inlined into each entry point.
#[inline(always)]
pub(super) fn permute<O: Ops>(
    c: &FastConstants,
    tables: &PartialTables,
    state: &mut [Goldilocks; WIDTH],
) {
    let mut v = load(state);
    for r in 0..HALF_FULL_ROUNDS {
        v = sbox::<O>(add_constants::<O>(v, &c.full[r]));
        if r + 1 < HALF_FULL_ROUNDS {
            v = mds::<O>(v);
        }
    }
    v = partial_rounds::<O>(c, tables, v);
    for constants in &c.full[HALF_FULL_ROUNDS..] {
        v = mds::<O>(sbox::<O>(add_constants::<O>(v, constants)));
    }
    store(state, v);
}

/// The last initial round's linear layer (the MDS matrix and the dense matrix the sparse rounds
/// start with) and the 22 sparse partial rounds: word 0 on the scalar unit, words 1–11 (`x`) in
/// the registers.
///
/// Round `j` takes the S-box output `u_j = s0⁷`, adds `u_j·col_j` to `x`, and sets word 0 to
/// `m00·u_j + row_j·x⁽ʲ⁾ + c_(j+1)`, where `x⁽ʲ⁾` is `x` at the start of round `j`. Read as
/// written, `x⁽ʲ⁾` waits for round `j − 1`'s vector update and its move to the scalar unit,
/// which put both (with the 11-term product) on the chain from `u_(j−1)` to `u_(j+1)`. Since
/// `x⁽ʲ⁾ = x⁽ʲ⁻ᴸ⁾ + Σ_(i=1..L) u_(j−i)·col_(j−i)` (`L` = [`LOOKBACK`]), the product is
/// `row_j·x⁽ʲ⁻ᴸ⁾ + Σ_i u_(j−i)·(row_j·col_(j−i))`: the 11-term product reads words `L` rounds
/// old, and only `L` scalar products with constants from [`PartialTables`] wait for the recent
/// S-box outputs. The same field elements either way.
#[inline(always)]
fn partial_rounds<O: Ops>(c: &FastConstants, tables: &PartialTables, v: State) -> State {
    let mut buffer = [Goldilocks::ZERO; WIDTH];
    store(&mut buffer, v);
    let first: &mut [u64; WIDTH] = raw::words_mut(&mut buffer).try_into().expect("12 words");
    words::first_partial_layer(c, first);
    let mut s0 = Goldilocks::from_u64(first[0]);
    let mut v = load(&buffer);
    let partial = raw::words(&c.partial);
    // kept[j % LOOKBACK] holds x⁽ʲ⁾ from round j until round j + LOOKBACK reads it (x⁽⁰⁾ for
    // the first rounds); recent[i] = u_(j−1−i) (zero before the first round, whose table
    // entries are zero too).
    let mut kept = [buffer; LOOKBACK];
    let mut recent = [0u64; LOOKBACK];
    for j in 0..PARTIAL_ROUNDS {
        let old = &kept[j.saturating_sub(LOOKBACK) % LOOKBACK];
        let old: &[u64; WIDTH - 1] = raw::words(old)[1..].try_into().expect("11 words");
        let next_constant = partial.get(j + 1).copied().unwrap_or(0);
        let sum = words::dot_plus(
            old,
            raw::words(&c.partial_rows[j]),
            next_constant,
            &recent,
            &tables.back[j],
        );
        store(&mut kept[j % LOOKBACK], v);
        let u = s0.exp7();
        let u_all = set1(words::word(u));
        for (x, col) in v.iter_mut().zip(&tables.cols[j]) {
            // SAFETY: `PartialTables` is 32-byte aligned with `cols` first, and each `[u64; 4]`
            // is 32 bytes (an aligned load); AVX2 as in the module docs.
            let col = unsafe { _mm256_load_si256(col.as_ptr().cast()) };
            *x = O::add(*x, mul::<O>(u_all, col));
        }
        recent.rotate_right(1);
        recent[0] = words::word(u);
        s0 = u.mul_small(words::M00) + Goldilocks::from_u64(sum);
    }
    store(&mut buffer, v);
    raw::words_mut(&mut buffer)[0] = words::word(s0);
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
pub(super) fn set1(x: u64) -> __m256i {
    // SAFETY: only reachable on AVX2 CPUs (module docs).
    unsafe { _mm256_set1_epi64x(x as i64) }
}

/// The high 32 bits of each lane copied into its low half (what `vpmuludq` reads).
#[inline(always)]
fn high_halves(x: __m256i) -> __m256i {
    // SAFETY: only reachable on AVX2 CPUs (module docs).
    unsafe { _mm256_castps_si256(_mm256_movehdup_ps(_mm256_castsi256_ps(x))) }
}

/// `x·y mod p` (any representations in, possibly non-canonical out).
#[inline(always)]
fn mul<O: Ops>(x: __m256i, y: __m256i) -> __m256i {
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
        O::reduce128(hi, lo)
    }
}

/// `x² mod p` with three partial products (the cross term appears twice).
#[inline(always)]
fn square<O: Ops>(x: __m256i) -> __m256i {
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
        O::reduce128(hi, lo)
    }
}

/// Adds a round's (canonical) constants.
#[inline(always)]
fn add_constants<O: Ops>(v: State, constants: &[Goldilocks; WIDTH]) -> State {
    let c = load(constants);
    let mut out = v;
    for (o, c) in out.iter_mut().zip(c) {
        // A canonical addend cannot make the sum carry twice.
        *o = O::add_no_double_overflow(*o, c);
    }
    out
}

/// `x⁷` on every word, stage by stage across the three registers.
#[inline(always)]
fn sbox<O: Ops>(v: State) -> State {
    let mut x2 = v;
    for x in &mut x2 {
        *x = square::<O>(*x);
    }
    let mut x3 = x2;
    let mut x4 = x2;
    for b in 0..REGS {
        x3[b] = mul::<O>(x3[b], v[b]);
        x4[b] = square::<O>(x4[b]);
    }
    let mut out = v;
    for b in 0..REGS {
        out[b] = mul::<O>(x3[b], x4[b]);
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
fn mds<O: Ops>(v: State) -> State {
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
        out[b] = O::reduce_split(lo[b], hi[b]);
    }
    out
}
