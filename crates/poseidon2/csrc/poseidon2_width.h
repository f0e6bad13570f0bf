/*
 * One width of poseidon2.c: defines AURUM_FN(poseidon2_plonky3_wW) from the macros W,
 * FOR_WORDS, FOR_REST, M4_GROUPS, COLUMN_SUMS and INTERNAL_DIAGONAL, then undefines them.
 *
 *   state = E(state)
 *   4 x  { s_i = S(s_i + RC_ext[r][i]);  state = E(state) }
 *   22 x { s_0 = S(s_0 + RC_int[r]);     s_i = D_i s_i + sum_j s_j }
 *   4 x  { s_i = S(s_i + RC_ext[4 + r][i]);  state = E(state) }
 *
 * rc_external: 8 rounds of W canonical constants (the 4 initial, then the 4 terminal ones);
 * rc_internal: 22 canonical constants.
 */
#define P2_NAME AURUM_CAT(poseidon2_plonky3_w, W)

#define P2_DECLARE(i) gl_t s##i;
#define P2_LOAD(i) s##i = svld1_gather_u64index_u64(pg, base + i, index);
#define P2_STORE(i) svst1_scatter_u64index_u64(pg, base + i, index, gl_canon(s##i));
#define P2_ADD_RC_SBOX(i) s##i = gl_exp7(gl_add_c(s##i, svdup_n_u64(rc[i])));
#define P2_SUM_REST(i) GL_ACC_ADD(sum_rest, wraps, s##i);
#define P2_ADD_COLUMN(i) s##i = gl_add_c(s##i, i % 4 == 0 ? c0 : i % 4 == 1 ? c1 : i % 4 == 2 ? c2 : c3);

#define P2_EXTERNAL_LAYER()                           \
    do {                                              \
        M4_GROUPS();                                  \
        COLUMN_SUMS();                                \
        c0 = gl_canon(c0);                            \
        c1 = gl_canon(c1);                            \
        c2 = gl_canon(c2);                            \
        c3 = gl_canon(c3);                            \
        FOR_WORDS(P2_ADD_COLUMN)                      \
    } while (0)

void AURUM_FN(P2_NAME)(const uint64_t *rc_external, const uint64_t *rc_internal,
                       uint64_t *states, size_t n) {
    const svuint64_t index = svindex_u64(0, W);
    for (size_t k = 0; k < n; k += svcntd()) {
        const svbool_t pg = svwhilelt_b64_u64(k, n);
        uint64_t *base = states + k * W;
        FOR_WORDS(P2_DECLARE)
        FOR_WORDS(P2_LOAD)
        P2_EXTERNAL_LAYER();
        for (int r = 0; r < 8; r++) {
            const uint64_t *rc = rc_external + r * W;
            FOR_WORDS(P2_ADD_RC_SBOX)
            P2_EXTERNAL_LAYER();
            if (r == 3) {
                for (int i = 0; i < 22; i++) {
                    /* The sum of s_1.. does not depend on the S-box of s_0. */
                    gl_t sum_rest = svdup_n_u64(0), wraps = svdup_n_u64(0);
                    FOR_REST(P2_SUM_REST)
                    gl_t rest = gl_acc_finish(sum_rest, wraps);
                    s0 = gl_exp7(gl_add_c(s0, svdup_n_u64(rc_internal[i])));
                    gl_t sum = gl_add(rest, s0);
                    gl_t plus = gl_canon(sum);
                    INTERNAL_DIAGONAL(sum, plus);
                }
            }
        }
        FOR_WORDS(P2_STORE)
    }
}

#undef P2_NAME
#undef P2_DECLARE
#undef P2_LOAD
#undef P2_STORE
#undef P2_ADD_RC_SBOX
#undef P2_SUM_REST
#undef P2_ADD_COLUMN
#undef P2_EXTERNAL_LAYER
#undef W
#undef FOR_WORDS
#undef FOR_REST
#undef M4_GROUPS
#undef COLUMN_SUMS
#undef INTERNAL_DIAGONAL
