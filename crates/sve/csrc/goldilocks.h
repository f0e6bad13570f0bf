/*
 * Goldilocks arithmetic on SVE vectors (p = 2^64 - 2^32 + 1), vector-length agnostic.
 *
 * Representation: every lane holds a u64 that stands for its residue mod p, canonical or not
 * (the values in [p, 2^64) are the second representations of [0, 2^32 - 1)), exactly as the
 * Rust `Goldilocks` type stores it. Every operation below accepts any representation and
 * returns some representation; `gl_canon` makes it canonical. Operations whose name ends in
 * `_c` additionally require one operand to be canonical (`< p`), which saves a correction.
 *
 * Unsigned compares give predicates and predicated adds apply the corrections, so no signed
 * "shift by 2^63" trick is needed: an add costs 3 instructions (one operand canonical) or 5.
 * `umulh` gives the high half of the 64x64 product; it exists predicated in SVE and
 * unpredicated in SVE2, so the same source serves both (compiled once per -march).
 *
 * Arithmetic runs on all lanes (predicate all-true); only loads and stores are predicated
 * by the active-lane mask, so a partial final vector computes garbage in its inactive lanes
 * and never stores it.
 */
#ifndef AURUM_GOLDILOCKS_SVE_H
#define AURUM_GOLDILOCKS_SVE_H

#include <arm_sve.h>
#include <stddef.h>
#include <stdint.h>

#if !defined(__ARM_FEATURE_SVE)
#error "compile with -march=...+sve or +sve2"
#endif

/* One symbol set per flavour: the build compiles every source twice (+sve, +sve2). */
#define AURUM_CAT2(a, b) a##b
#define AURUM_CAT(a, b) AURUM_CAT2(a, b)
#if defined(__ARM_FEATURE_SVE2)
#define AURUM_FN(name) AURUM_CAT(aurum_sve2_, name)
#else
#define AURUM_FN(name) AURUM_CAT(aurum_sve_, name)
#endif

#define GL_P 0xFFFFFFFF00000001ull
/* 2^64 mod p = 2^32 - 1. */
#define GL_EPS 0xFFFFFFFFull
/* (p + 1) / 2: x / 2 = (x >> 1) + HALF_P1 for odd x. */
#define GL_HALF_P1 0x7FFFFFFF80000001ull

typedef svuint64_t gl_t;

#define GL_PT svptrue_b64()

/* x reduced to [0, p). 2 instructions. */
static inline gl_t gl_canon(gl_t x) {
    svbool_t ge = svcmpge_n_u64(GL_PT, x, GL_P);
    return svsub_n_u64_m(ge, x, GL_P);
}

/* a + b, c < p. The sum wraps at most once, and after adding 2^64 mod p back it cannot wrap
 * again: a + c - 2^64 + EPS < p + EPS - 1 < 2^64. 3 instructions. */
static inline gl_t gl_add_c(gl_t a, gl_t c) {
    gl_t s = svadd_u64_x(GL_PT, a, c);
    svbool_t carry = svcmplt_u64(GL_PT, s, c);
    return svadd_n_u64_m(carry, s, GL_EPS);
}

/* a + b, any representations: the correction for a wrap can wrap once more (both operands
 * near 2^64); then s < EPS and one more EPS is due. 5 instructions. */
static inline gl_t gl_add(gl_t a, gl_t b) {
    gl_t s = svadd_u64_x(GL_PT, a, b);
    svbool_t carry = svcmplt_u64(GL_PT, s, b);
    s = svadd_n_u64_m(carry, s, GL_EPS);
    svbool_t carry2 = svcmplt_n_u64(carry, s, GL_EPS);
    return svadd_n_u64_m(carry2, s, GL_EPS);
}

/* a - c, c < p: on a borrow a - c + 2^64 >= EPS + 1, so subtracting EPS cannot borrow again.
 * 3 instructions. */
static inline gl_t gl_sub_c(gl_t a, gl_t c) {
    svbool_t borrow = svcmplt_u64(GL_PT, a, c);
    gl_t d = svsub_u64_x(GL_PT, a, c);
    return svsub_n_u64_m(borrow, d, GL_EPS);
}

/* a - b, any representations. 5 instructions. */
static inline gl_t gl_sub(gl_t a, gl_t b) {
    svbool_t borrow = svcmplt_u64(GL_PT, a, b);
    gl_t d = svsub_u64_x(GL_PT, a, b);
    svbool_t borrow2 = svcmplt_n_u64(borrow, d, GL_EPS);
    d = svsub_n_u64_m(borrow, d, GL_EPS);
    return svsub_n_u64_m(borrow2, d, GL_EPS);
}

/* hi * 2^64 + lo mod p. With hi = hh * 2^32 + hl: 2^64 = EPS and 2^96 = -1 (mod p), so the
 * value is lo - hh + hl * EPS, and hl * EPS = (hi << 32) - hl (the high bits of hi shift out).
 * lo - hh borrows only when lo < hh < 2^32, and then lo - hh + 2^64 - EPS does not borrow
 * again; t0 + t1 carries at most once (t1 <= (2^32 - 1)^2). hl is taken as
 * (hi << 32) >> 32: SVE's shifts by an immediate have constructive forms, its AND with an
 * immediate only a destructive one (a register copy, movprfx, to keep hi). 10 instructions. */
static inline gl_t gl_reduce128(gl_t hi, gl_t lo) {
    gl_t hh = svlsr_n_u64_x(GL_PT, hi, 32);
    svbool_t borrow = svcmplt_u64(GL_PT, lo, hh);
    gl_t t0 = svsub_u64_x(GL_PT, lo, hh);
    t0 = svsub_n_u64_m(borrow, t0, GL_EPS);
    gl_t hl_high = svlsl_n_u64_x(GL_PT, hi, 32);
    gl_t t1 = svsub_u64_x(GL_PT, hl_high, svlsr_n_u64_x(GL_PT, hl_high, 32));
    gl_t r = svadd_u64_x(GL_PT, t0, t1);
    svbool_t carry = svcmplt_u64(GL_PT, r, t1);
    return svadd_n_u64_m(carry, r, GL_EPS);
}

/* a * b. 12 instructions. */
static inline gl_t gl_mul(gl_t a, gl_t b) {
    return gl_reduce128(svmulh_u64_x(GL_PT, a, b), svmul_u64_x(GL_PT, a, b));
}

static inline gl_t gl_square(gl_t a) { return gl_mul(a, a); }

/* x^7 as x^3 * x^4: 4 multiplications, depth 3. */
static inline gl_t gl_exp7(gl_t x) {
    gl_t x2 = gl_square(x);
    gl_t x3 = gl_mul(x2, x);
    gl_t x4 = gl_square(x2);
    return gl_mul(x3, x4);
}

static inline gl_t gl_double(gl_t x) { return gl_add(x, x); }

/* x / 2: x >> 1 if x is even, else (x + p) / 2 = (x >> 1) + (p + 1) / 2 (no wrap:
 * (2^63 - 1) + HALF_P1 < 2^64). Valid for every representation because x + p = x (mod p).
 * 4 instructions. */
static inline gl_t gl_halve(gl_t x) {
    svbool_t odd = svcmpne_n_u64(GL_PT, svand_n_u64_x(GL_PT, x, 1), 0);
    gl_t h = svlsr_n_u64_x(GL_PT, x, 1);
    return svadd_n_u64_m(odd, h, GL_HALF_P1);
}

/* A running sum that counts its wraps instead of correcting each (3 instructions a term):
 * `sum` and `wraps` are two gl_t variables (SVE types cannot be struct fields), started as
 * (first term, 0); GL_ACC_FINISH adds wraps * EPS once. Exact for fewer than 2^32 terms. */
#define GL_ACC_ADD(sum, wraps, x)                               \
    do {                                                        \
        gl_t acc_x_ = (x);                                      \
        sum = svadd_u64_x(GL_PT, sum, acc_x_);                  \
        wraps = svadd_n_u64_m(svcmplt_u64(GL_PT, sum, acc_x_), wraps, 1); \
    } while (0)

/* sum + wraps * EPS, with wraps * EPS = (wraps << 32) - wraps < p. 5 instructions. */
static inline gl_t gl_acc_finish(gl_t sum, gl_t wraps) {
    gl_t fix = svsub_u64_x(GL_PT, svlsl_n_u64_x(GL_PT, wraps, 32), wraps);
    return gl_add_c(sum, fix);
}

#endif
