/*
 * Poseidon over Goldilocks as plonky2 / Polygon zkProver define it (width 12, x^7, 4 + 22 + 4
 * rounds, MDS = circ(17, 15, 41, 16, 2, 28, 13, 13, 39, 18, 34, 20) + diag(8, 0, ..., 0)), in
 * the fast form of `aurum_poseidon::Poseidon::permute_batch`: the partial rounds in the sparse
 * form of the Poseidon paper (appendix B), the dense matrix they start with folded into the
 * linear layer of the last initial full round.
 *
 * Lane l of every vector holds state l of the current group: one pass of the rounds permutes
 * svcntd() states, whatever the vector length. States are stored one after another (state k at
 * states[12k .. 12k + 12]); word j of svcntd() states is gathered into one vector, the rounds
 * run in registers (the named vectors s0..s11: SVE vectors cannot live in arrays), and the
 * canonical results are scattered back.
 *
 * The constants are data, derived in Rust (`aurum_poseidon::FastConstants`) and passed as one
 * flat table of canonical u64 values (laid out by `aurum_poseidon::SveKernel`), at these
 * offsets:
 *
 *   PC_FULL     0    8 x 12  round constants of the full rounds 0-3 and 26-29 (those of round
 *                            26 include the constants moved out of the partial rounds)
 *   PC_PARTIAL  96   22      the constant added to s0 before the S-box of each partial round
 *   PC_FIRST    118  11 x 12 rows 1-11 of the linear layer of round 3, diag(1, M^22) . MDS
 *                            (row 0 is the MDS row)
 *   PC_ROWS     250  22 x 11 per partial round, the row giving s0 = 25 s0 + sum_i row[i-1] s_i
 *   PC_COLS     492  22 x 11 per partial round, the column: s_i += col[i-1] s0
 *   PC_LEN      734
 *
 * The permutation:
 *
 *   for r in 0..8:
 *       s_i = S(s_i + full[r][i])                       (S(x) = x^7)
 *       if r != 3: s = MDS s
 *       else:
 *           s0' = MDS[0] . s + partial[0];  s_i' = first[i-1] . s  (i = 1..11)
 *           for j in 0..22:
 *               t = rows[j] . (s1..s11) + partial[j + 1]   (no constant after the last round)
 *               s0 = S(s0);  s_i += cols[j][i-1] s0;  s0 = 25 s0 + t
 *
 * The MDS coefficients are fixed parameters of the instance and compile-time constants here.
 */
#include "goldilocks.h"

#define PC_FULL 0
#define PC_PARTIAL 96
#define PC_FIRST 118
#define PC_ROWS 250
#define PC_COLS 492
#define PC_LEN 734

#define PW 12
#define PARTIAL_ROUNDS 22

#define FOR_WORDS(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11)
#define FOR_REST(M) M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11)
/* The same list again, for use inside an expansion of FOR_REST (a macro does not expand
 * inside its own expansion). */
#define FOR_REST_INNER(M) M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11)

/* The first row of the circulant: out[i] = sum_k s[(k + i) mod 12] CIRC[k] (+ 8 s0 for i = 0),
 * so s_j has the coefficient CIRC[(j - i) mod 12] in out[i]. */
static const uint64_t MDS_CIRC[PW] = {17, 15, 41, 16, 2, 28, 13, 13, 39, 18, 34, 20};
#define MDS_DIAG0 8
#define MDS_COEF(i, j) (MDS_CIRC[((j) + PW - (i)) % PW] + ((i) == 0 && (j) == 0 ? MDS_DIAG0 : 0))

/* ---- Dot products with general (canonical) coefficients ----
 *
 * sum_k c_k x_k for any x_k < 2^64 and c_k < 2^64: each product's 128-bit value (ph, pl) is
 * added to two running sums, the low words and the high words, each counting its wraps
 * (GL_ACC_ADD), so the true value is (lo + wl 2^64) + 2^64 (hi + wh 2^64). Then
 * gl_acc_finish(lo, wl) = lo + wl EPS is congruent to the first bracket and gl_acc_finish(hi, wh)
 * to the second, and gl_reduce128 takes any 64-bit high word: the result is congruent to the
 * sum. 8 instructions a term (mul, umulh, two wrap-counting adds), 20 to finish.
 * Wrap counts stay below the number of terms (<= 13). */
#define DOT_DECLARE() gl_t dot_lo, dot_hi, dot_wl, dot_wh
#define DOT_FIRST(x, c)                                  \
    do {                                                 \
        gl_t dot_c_ = (c);                               \
        dot_lo = svmul_u64_x(GL_PT, (x), dot_c_);        \
        dot_hi = svmulh_u64_x(GL_PT, (x), dot_c_);       \
        dot_wl = svdup_n_u64(0);                         \
        dot_wh = svdup_n_u64(0);                         \
    } while (0)
#define DOT_TERM(x, c)                                   \
    do {                                                 \
        gl_t dot_c_ = (c), dot_x_ = (x);                 \
        GL_ACC_ADD(dot_lo, dot_wl, svmul_u64_x(GL_PT, dot_x_, dot_c_));  \
        GL_ACC_ADD(dot_hi, dot_wh, svmulh_u64_x(GL_PT, dot_x_, dot_c_)); \
    } while (0)
/* A 64-bit addend (any value) joins the low words. */
#define DOT_ADD(x) GL_ACC_ADD(dot_lo, dot_wl, (x))
#define DOT_FINISH() gl_reduce128(gl_acc_finish(dot_hi, dot_wh), gl_acc_finish(dot_lo, dot_wl))

/* a + x c for any a, x, c < 2^64: the product's high word is floor(x c / 2^64) <= c - 1, so
 * the carry of adding a to the low word fits. 15 instructions. */
static inline gl_t gl_mul_add(gl_t a, gl_t x, gl_t c) {
    gl_t lo = svmul_u64_x(GL_PT, x, c);
    gl_t hi = svmulh_u64_x(GL_PT, x, c);
    lo = svadd_u64_x(GL_PT, lo, a);
    svbool_t carry = svcmplt_u64(GL_PT, lo, a);
    hi = svadd_n_u64_m(carry, hi, 1);
    return gl_reduce128(hi, lo);
}

/* ---- The MDS product with small coefficients ----
 *
 * Each word is split once into 32-bit halves, l_j = s_j mod 2^32 and h_j = s_j >> 32 (both
 * < 2^32). For output i, L = sum_j m_ij l_j and H = sum_j m_ij h_j by multiply-adds; a row sums
 * to 256 (264 for row 0), so L, H < 264 * 2^32 < 2^41: no wrap. The output is
 * L + H 2^32 = L + (H mod 2^32) 2^32 + (H >> 32) 2^64, congruent to A + B with
 * A = H << 32 (mod 2^64, the high bits shift out) and B = L + (H >> 32) EPS
 * < 2^41 + 2^9 2^32 < 2^42. A + B wraps at most once, and then the wrapped sum is below 2^42,
 * so adding 2^64 mod p = EPS back cannot wrap again. */
static inline __attribute__((always_inline)) gl_t mds_fold(gl_t L, gl_t H) {
    gl_t a = svlsl_n_u64_x(GL_PT, H, 32);
    gl_t b = svmla_n_u64_x(GL_PT, L, svlsr_n_u64_x(GL_PT, H, 32), GL_EPS);
    gl_t r = svadd_u64_x(GL_PT, a, b);
    svbool_t carry = svcmplt_u64(GL_PT, r, b);
    return svadd_n_u64_m(carry, r, GL_EPS);
}

#define MDS_SPLIT(j)                                      \
    gl_t l##j = svand_n_u64_x(GL_PT, s##j, 0xFFFFFFFFull); \
    gl_t h##j = svlsr_n_u64_x(GL_PT, s##j, 32);

#define MDS_HALVES_PARAMS                                                                  \
    gl_t l0, gl_t l1, gl_t l2, gl_t l3, gl_t l4, gl_t l5, gl_t l6, gl_t l7, gl_t l8, gl_t l9, \
        gl_t l10, gl_t l11, gl_t h0, gl_t h1, gl_t h2, gl_t h3, gl_t h4, gl_t h5, gl_t h6,   \
        gl_t h7, gl_t h8, gl_t h9, gl_t h10, gl_t h11
#define MDS_HALVES_ARGS l0, l1, l2, l3, l4, l5, l6, l7, l8, l9, l10, l11, \
    h0, h1, h2, h3, h4, h5, h6, h7, h8, h9, h10, h11

#define MDS_ROW_TERM(j)                                          \
    L = svmla_n_u64_x(GL_PT, L, l##j, MDS_COEF(i, j));         \
    H = svmla_n_u64_x(GL_PT, H, h##j, MDS_COEF(i, j));

/* Output i of the MDS product from the split state, row by row (used for row 0 of round 3's
 * linear layer; whole layers go through MDS_LAYER below); `i` is a constant after inlining. */
static inline __attribute__((always_inline)) gl_t mds_row(int i, MDS_HALVES_PARAMS) {
    gl_t L = svmul_n_u64_x(GL_PT, l0, MDS_COEF(i, 0));
    gl_t H = svmul_n_u64_x(GL_PT, h0, MDS_COEF(i, 0));
    FOR_REST(MDS_ROW_TERM)
    return mds_fold(L, H);
}

/* ---- The whole MDS layer: the circulant product in the frequency domain ----
 *
 * The circulant part of the 12 x 12 product on 32-bit halves, exactly as plonky2's
 * `mds_multiply_freq` (after Rescue-Prime Optimized / winterfell): the words are taken in three
 * groups of four by index mod 3, each group gets a real 4-point FFT, the three frequency
 * blocks are multiplied by the (pre-scaled, integral) transforms of the circulant row with
 * the 3-point transforms folded in (block 1 real, block 2 complex, block 3 real), and real
 * 4-point inverse FFTs give the outputs, already scaled: only additions, subtractions and
 * multiplications by small constants (shifts). The intermediates are signed and small for
 * inputs below 2^32 (plonky2 runs them in i64); here they are u64 lanes computing modulo
 * 2^64, a ring homomorphic image of the integers, so every output equals the exact sum
 * sum_j CIRC[(j - i) mod 12] x_j, which lies in [0, 2^41): no information is lost.
 * About 105 instructions per half (against 144 multiply-adds row by row, whose 24 split
 * halves plus 12 outputs plus coefficients overflowed the 32 vector registers into spills),
 * in place on the 12 variables. */
static inline gl_t v_add(gl_t a, gl_t b) { return svadd_u64_x(GL_PT, a, b); }
static inline gl_t v_sub(gl_t a, gl_t b) { return svsub_u64_x(GL_PT, a, b); }
#define V_SHL(a, k) svlsl_n_u64_x(GL_PT, (a), (k))

/* Real 4-point FFT of (x0, x1, x2, x3): y0, y1 = (y1r, y1i), y2 (plonky2's fft4_real, with
 * y1i = -(x1 - x3) written as x3 - x1). */
#define FFT4(x0, x1, x2, x3, y0, y1r, y1i, y2)          \
    do {                                                \
        gl_t z0_ = v_add(x0, x2), z1_ = v_add(x1, x3);  \
        y1r = v_sub(x0, x2);                            \
        y1i = v_sub(x3, x1);                            \
        y0 = v_add(z0_, z1_);                           \
        y2 = v_sub(z0_, z1_);                           \
    } while (0)

/* Unscaled real inverse 4-point FFT (plonky2's ifft4_real_unreduced) into (x0, x1, x2, x3). */
#define IFFT4(y0, y1r, y1i, y2, x0, x1, x2, x3)         \
    do {                                                \
        gl_t z0_ = v_add(y0, y2), z1_ = v_sub(y0, y2);  \
        x0 = v_add(z0_, y1r);                           \
        x2 = v_sub(z0_, y1r);                           \
        x1 = v_sub(z1_, y1i);                           \
        x3 = v_add(z1_, y1i);                           \
    } while (0)

/* Block 2 multiplies complex values by y0 = 2 - i, y1 = -4 + i and y2 = 16 + i. With
 *   P(x) = x y0   = (2 xr + xi, 2 xi - xr)
 *   N(x) = -x y1  = (4 xr + xi, 4 xi - xr)
 *   R(x) = x y2   = (16 xr - xi, 16 xi + xr)
 * and -i (u + iv) = v - iu, plonky2's block 2 on (a, b, c) is, with w = R(b) - N(c):
 *   z0 = a y0 - i (b y2 + c y1) = (P(a)r + wi, P(a)i - wr)
 *   z1 = a y1 + b y0 - i c y2   = (P(b)r - N(a)r + R(c)i, P(b)i - N(a)i - R(c)r)
 *   z2 = a y2 + b y1 + c y0     = R(a) - N(b) + P(c)
 * CPLX_PNR(xr, xi, k) defines k_pr, k_pi, k_nr, k_ni, k_rr, k_ri. */
#define CPLX_PNR(xr, xi, p)                                                         \
    gl_t p##_pr = v_add(V_SHL(xr, 1), xi), p##_pi = v_sub(V_SHL(xi, 1), xr);        \
    gl_t p##_nr = v_add(V_SHL(xr, 2), xi), p##_ni = v_sub(V_SHL(xi, 2), xr);        \
    gl_t p##_rr = v_sub(V_SHL(xr, 4), xi), p##_ri = v_add(V_SHL(xi, 4), xr);

/* The circulant product on v0..v11 (values below 2^32) in place. */
#define MDS_CIRCULANT(v)                                                                 \
    do {                                                                                 \
        gl_t a0, a1r, a1i, a2, b0, b1r, b1i, b2, c0, c1r, c1i, c2;                       \
        FFT4(v##0, v##3, v##6, v##9, a0, a1r, a1i, a2);                                  \
        FFT4(v##1, v##4, v##7, v##10, b0, b1r, b1i, b2);                                 \
        FFT4(v##2, v##5, v##8, v##11, c0, c1r, c1i, c2);                                 \
        /* Block 1 (y = 16, 32, 16): z0 = 16 (t + c), z1 = 16 (t + a), z2 = 16 (t + b). */ \
        gl_t t_ = v_add(v_add(a0, b0), c0);                                              \
        gl_t e0 = V_SHL(v_add(t_, c0), 4);                                               \
        gl_t e1 = V_SHL(v_add(t_, a0), 4);                                               \
        gl_t e2 = V_SHL(v_add(t_, b0), 4);                                               \
        /* Block 3 (y = -1, -8, 2): z0 = 8c - a - 2b, z1 = -(8a + b + 2c),                \
         * z2 = 2a - 8b - c. */                                                          \
        gl_t g0 = v_sub(v_sub(V_SHL(c2, 3), a2), V_SHL(b2, 1));                          \
        gl_t g1 = v_sub(v_sub(v_sub(svdup_n_u64(0), V_SHL(a2, 3)), b2), V_SHL(c2, 1));   \
        gl_t g2 = v_sub(v_sub(V_SHL(a2, 1), V_SHL(b2, 3)), c2);                          \
        /* Block 2. */                                                                   \
        CPLX_PNR(a1r, a1i, ka)                                                           \
        CPLX_PNR(b1r, b1i, kb)                                                           \
        CPLX_PNR(c1r, c1i, kc)                                                           \
        gl_t wr = v_sub(kb_rr, kc_nr), wi = v_sub(kb_ri, kc_ni);                         \
        gl_t f0r = v_add(ka_pr, wi), f0i = v_sub(ka_pi, wr);                             \
        gl_t f1r = v_add(v_sub(kb_pr, ka_nr), kc_ri);                                    \
        gl_t f1i = v_sub(v_sub(kb_pi, ka_ni), kc_rr);                                    \
        gl_t f2r = v_add(v_sub(ka_rr, kb_nr), kc_pr);                                    \
        gl_t f2i = v_add(v_sub(ka_ri, kb_ni), kc_pi);                                    \
        IFFT4(e0, f0r, f0i, g0, v##0, v##3, v##6, v##9);                                 \
        IFFT4(e1, f1r, f1i, g1, v##1, v##4, v##7, v##10);                                \
        IFFT4(e2, f2r, f2i, g2, v##2, v##5, v##8, v##11);                                \
    } while (0)

#define MDS_FOLD_OUT(i) s##i = mds_fold(l##i, h##i);

/* s = MDS s: the circulant product on each half, the diagonal 8 s0 added to output 0's
 * halves (row 0 then sums to 264: the bounds of mds_fold hold), and the fold. */
#define MDS_LAYER()                                                     \
    do {                                                                \
        FOR_WORDS(MDS_SPLIT)                                            \
        gl_t diag_l = V_SHL(l0, 3), diag_h = V_SHL(h0, 3);              \
        MDS_CIRCULANT(l);                                               \
        MDS_CIRCULANT(h);                                               \
        l0 = v_add(l0, diag_l);                                         \
        h0 = v_add(h0, diag_h);                                         \
        FOR_WORDS(MDS_FOLD_OUT)                                         \
    } while (0)

/* ---- Rounds ---- */

#define P_DECLARE(i) gl_t s##i;
#define P_LOAD(i) s##i = svld1_gather_u64index_u64(pg, base + i, index);
#define P_STORE(i) svst1_scatter_u64index_u64(pg, base + i, index, gl_canon(s##i));
#define P_ADD_RC_SBOX(i) s##i = gl_exp7(gl_add_c(s##i, svdup_n_u64(rc[i])));

/* Rows 1..11 of the first partial layer: 12-term dot products with the state before it. */
#define P_FIRST_DOT_TERM(j) DOT_TERM(s##j, svdup_n_u64(row[j]));
#define P_FIRST_ROW(i)                                      \
    gl_t n##i;                                              \
    {                                                       \
        const uint64_t *row = first + ((i) - 1) * PW;       \
        DOT_DECLARE();                                      \
        DOT_FIRST(s0, svdup_n_u64(row[0]));                 \
        FOR_REST_INNER(P_FIRST_DOT_TERM)                    \
        n##i = DOT_FINISH();                                \
    }
#define P_FIRST_ASSIGN(i) s##i = n##i;

/* The partial rounds' row (over s1..s11) and column (into s1..s11). */
#define P_ROW_TERM(i) DOT_TERM(s##i, svdup_n_u64(row[(i) - 1]));
#define P_COL_TERM(i) s##i = gl_mul_add(s##i, s0, svdup_n_u64(col[(i) - 1]));

void AURUM_FN(poseidon_plonky2_w12)(const uint64_t *constants, uint64_t *states, size_t n) {
    const uint64_t *first = constants + PC_FIRST;
    const svuint64_t index = svindex_u64(0, PW);
    for (size_t k = 0; k < n; k += svcntd()) {
        const svbool_t pg = svwhilelt_b64_u64(k, n);
        uint64_t *base = states + k * PW;
        FOR_WORDS(P_DECLARE)
        FOR_WORDS(P_LOAD)
        for (int r = 0; r < 8; r++) {
            const uint64_t *rc = constants + PC_FULL + r * PW;
            FOR_WORDS(P_ADD_RC_SBOX)
            if (r != 3) {
                MDS_LAYER();
                continue;
            }
            /* The linear layer of round 3: row 0 is the MDS row (plus the first partial
             * constant, canonical), rows 1..11 the dense matrix. */
            {
                FOR_REST(P_FIRST_ROW)
                FOR_WORDS(MDS_SPLIT)
                s0 = gl_add_c(mds_row(0, MDS_HALVES_ARGS),
                              svdup_n_u64(constants[PC_PARTIAL]));
                FOR_REST(P_FIRST_ASSIGN)
            }
            for (int j = 0; j < PARTIAL_ROUNDS; j++) {
                const uint64_t *row = constants + PC_ROWS + j * (PW - 1);
                const uint64_t *col = constants + PC_COLS + j * (PW - 1);
                /* The row product over s1..s11 and the next round's constant do not depend on
                 * this round's S-box. */
                DOT_DECLARE();
                DOT_FIRST(s1, svdup_n_u64(row[0]));
                P_ROW_TERM(2) P_ROW_TERM(3) P_ROW_TERM(4) P_ROW_TERM(5) P_ROW_TERM(6)
                P_ROW_TERM(7) P_ROW_TERM(8) P_ROW_TERM(9) P_ROW_TERM(10) P_ROW_TERM(11)
                DOT_ADD(svdup_n_u64(j + 1 < PARTIAL_ROUNDS ? constants[PC_PARTIAL + j + 1] : 0));
                s0 = gl_exp7(s0);
                FOR_REST(P_COL_TERM)
                DOT_TERM(s0, svdup_n_u64(MDS_COEF(0, 0)));
                s0 = DOT_FINISH();
            }
        }
        FOR_WORDS(P_STORE)
    }
}
