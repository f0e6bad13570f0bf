/*
 * Poseidon2 over Goldilocks with Plonky3's linear layers (p3-goldilocks 0.8) at widths 8, 12
 * and 16, on SVE vectors: lane l of every vector holds state l of the current group, so one
 * pass of the rounds permutes svcntd() states whatever the vector length.
 *
 * States are stored one after another (state k at states[k*W .. k*W + W]); the loop gathers
 * word j of svcntd() states into one vector, runs the 30 rounds in registers, and scatters
 * the canonical results back. Round constants arrive canonical from Rust (constants are data).
 *
 * The width-specific parts (the M4 groups, the column sums, the internal diagonal) are
 * macros defined before each inclusion of poseidon2_width.h, which spells the rounds out on
 * scalar-named vectors s0..s{W-1} (SVE vectors cannot live in arrays).
 */
#include "goldilocks.h"

/* Plonky3's M4 on (a, b, c, d): y0 = s + a + 2b, y1 = s + b + 2c, y2 = s + c + 2d,
 * y3 = s + d + 2a with s = a + b + c + d. */
#define M4(a, b, c, d)                                   \
    do {                                                 \
        gl_t t01 = gl_add(a, b), t23 = gl_add(c, d);     \
        gl_t t0123 = gl_add(t01, t23);                   \
        gl_t t01123 = gl_add(t0123, b);                  \
        gl_t t01233 = gl_add(t0123, d);                  \
        d = gl_add(t01233, gl_double(a));                \
        b = gl_add(t01123, gl_double(c));                \
        a = gl_add(t01123, t01);                         \
        c = gl_add(t01233, t23);                         \
    } while (0)

static inline gl_t triple(gl_t x) { return gl_add(gl_double(x), x); }
static inline gl_t quadruple(gl_t x) { return gl_double(gl_double(x)); }
static inline gl_t div8(gl_t x) { return gl_halve(gl_halve(gl_halve(x))); }

/* ---- width 8 ---- */
#define W 8
#define FOR_WORDS(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7)
#define FOR_REST(M) M(1) M(2) M(3) M(4) M(5) M(6) M(7)
#define M4_GROUPS() M4(s0, s1, s2, s3); M4(s4, s5, s6, s7)
#define COLUMN_SUMS()            \
    gl_t c0 = gl_add(s0, s4);    \
    gl_t c1 = gl_add(s1, s5);    \
    gl_t c2 = gl_add(s2, s6);    \
    gl_t c3 = gl_add(s3, s7)
/* [-2, 1, 2, 1/2, 3, -1/2, -3, -4] */
#define INTERNAL_DIAGONAL(sum, plus)         \
    s0 = gl_sub(sum, gl_double(s0));         \
    s1 = gl_add_c(s1, plus);                 \
    s2 = gl_add_c(gl_double(s2), plus);      \
    s3 = gl_add_c(gl_halve(s3), plus);       \
    s4 = gl_add_c(triple(s4), plus);         \
    s5 = gl_sub(sum, gl_halve(s5));          \
    s6 = gl_sub(sum, triple(s6));            \
    s7 = gl_sub(sum, quadruple(s7))
#include "poseidon2_width.h"

/* ---- width 12 ---- */
#define W 12
#define FOR_WORDS(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11)
#define FOR_REST(M) M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11)
#define M4_GROUPS() M4(s0, s1, s2, s3); M4(s4, s5, s6, s7); M4(s8, s9, s10, s11)
#define COLUMN_SUMS()                        \
    gl_t c0 = gl_add(gl_add(s0, s4), s8);    \
    gl_t c1 = gl_add(gl_add(s1, s5), s9);    \
    gl_t c2 = gl_add(gl_add(s2, s6), s10);   \
    gl_t c3 = gl_add(gl_add(s3, s7), s11)
/* [-2, 1, 2, 1/2, 3, 4, -1/2, -3, -4, 1/2^2, -1/2^2, 1/2^3] */
#define INTERNAL_DIAGONAL(sum, plus)                  \
    s0 = gl_sub(sum, gl_double(s0));                  \
    s1 = gl_add_c(s1, plus);                          \
    s2 = gl_add_c(gl_double(s2), plus);               \
    s3 = gl_add_c(gl_halve(s3), plus);                \
    s4 = gl_add_c(triple(s4), plus);                  \
    s5 = gl_add_c(quadruple(s5), plus);               \
    s6 = gl_sub(sum, gl_halve(s6));                   \
    s7 = gl_sub(sum, triple(s7));                     \
    s8 = gl_sub(sum, quadruple(s8));                  \
    s9 = gl_add_c(gl_halve(gl_halve(s9)), plus);      \
    s10 = gl_sub(sum, gl_halve(gl_halve(s10)));       \
    s11 = gl_add_c(div8(s11), plus)
#include "poseidon2_width.h"

/* ---- width 16 ---- */
#define W 16
#define FOR_WORDS(M) \
    M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11) M(12) M(13) M(14) M(15)
#define FOR_REST(M) \
    M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11) M(12) M(13) M(14) M(15)
#define M4_GROUPS() \
    M4(s0, s1, s2, s3); M4(s4, s5, s6, s7); M4(s8, s9, s10, s11); M4(s12, s13, s14, s15)
#define COLUMN_SUMS()                                      \
    gl_t c0 = gl_add(gl_add(s0, s4), gl_add(s8, s12));     \
    gl_t c1 = gl_add(gl_add(s1, s5), gl_add(s9, s13));     \
    gl_t c2 = gl_add(gl_add(s2, s6), gl_add(s10, s14));    \
    gl_t c3 = gl_add(gl_add(s3, s7), gl_add(s11, s15))
/* [-2, 1, 2, 1/2, 3, 4, -1/2, -3, -4, 1/2^3, 1/2^4, 1/2^5, -1/2^3, -1/2^4, -1/2^5, 1/2^32];
 * x / 2^32 = x - x * 2^32 because 2^-32 = 1 - 2^32 (mod p). */
#define INTERNAL_DIAGONAL(sum, plus)                                        \
    s0 = gl_sub(sum, gl_double(s0));                                        \
    s1 = gl_add_c(s1, plus);                                                \
    s2 = gl_add_c(gl_double(s2), plus);                                     \
    s3 = gl_add_c(gl_halve(s3), plus);                                      \
    s4 = gl_add_c(triple(s4), plus);                                        \
    s5 = gl_add_c(quadruple(s5), plus);                                     \
    s6 = gl_sub(sum, gl_halve(s6));                                         \
    s7 = gl_sub(sum, triple(s7));                                           \
    s8 = gl_sub(sum, quadruple(s8));                                        \
    s9 = gl_add_c(div8(s9), plus);                                          \
    s10 = gl_add_c(gl_halve(div8(s10)), plus);                              \
    s11 = gl_add_c(gl_halve(gl_halve(div8(s11))), plus);                    \
    s12 = gl_sub(sum, div8(s12));                                           \
    s13 = gl_sub(sum, gl_halve(div8(s13)));                                 \
    s14 = gl_sub(sum, gl_halve(gl_halve(div8(s14))));                       \
    s15 = gl_add_c(gl_sub(s15, gl_mul(s15, svdup_n_u64(1ull << 32))), plus)
#include "poseidon2_width.h"
