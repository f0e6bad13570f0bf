// The plonky2 / Polygon Poseidon permutation over Goldilocks, width 12: 4 full rounds, 22
// partial rounds, 4 full rounds, S-box x^7, in the fast form plonky2 and the CPU
// (`aurum_poseidon::FastConstants`) use: the partial rounds' constants moved forward, so each
// keeps one on state[0], and their dense MDS products replaced by sparse ones — a 12-term row
// for the new state[0] and 11 products state[0]·col_i added to the other words (23
// multiplications instead of 144, their products summed exactly and reduced once per output,
// gl_acc) — after the last initial full round's linear layer, which carries the dense matrix
// they start with. The constants are data, written by the Rust side
// into the prelude: POSEIDON_MDS (12·12 small entries), POSEIDON_FULL_RC (8·12),
// POSEIDON_PARTIAL_RC (22), POSEIDON_FIRST_MATRIX (rows 1–11 of the last initial full
// round's layer, 11·12), POSEIDON_PARTIAL_ROWS and POSEIDON_PARTIAL_COLS (22·11).

// M·x for lazy x, lazy. The entries are below 2^6, so each row sums the products with the low
// and the high 32-bit halves of x apart — 32 × 32-bit multiply-adds, each sum below 2^42 — and
// combines them once: lo + hi·2^32 < 2^75, exact as a gl_wide, then one fold.
AURUM_DEV u64 poseidon_mds_row(const u64 *s, int i) {
    u64 lo = 0, hi = 0;
#pragma unroll
    for (int j = 0; j < 12; j++) {
        u64 c = (u32)POSEIDON_MDS[i * 12 + j];
        lo += c * (u32)s[j];
        hi += c * (u32)(s[j] >> 32);
    }
    gl_wide v = gl_wide_of(lo, hi << 32);
    v.hi += (u32)(hi >> 32);
    return gl_fold(v);
}

AURUM_DEV void poseidon_mds(u64 *s) {
    u64 out[12];
#pragma unroll
    for (int i = 0; i < 12; i++) out[i] = poseidon_mds_row(s, i);
#pragma unroll
    for (int i = 0; i < 12; i++) s[i] = out[i];
}

// start + Σ x_i·c_i for lazy start and x and canonical c (n ≤ 12), lazy: the full products
// summed exactly (gl_acc), one reduction.
AURUM_DEV u64 poseidon_dot(u64 start, const u64 *x, const u64 *c, int n) {
    gl_acc acc = gl_acc_of(start);
#pragma unroll
    for (int i = 0; i < n; i++) acc = gl_acc_mac(acc, x[i], c[i]);
    return gl_acc_reduce(acc);
}

// A full round's constants added (each canonical: one correction keeps the sums lazy) and the
// S-box on every word.
AURUM_DEV void poseidon_full_sbox(u64 *s, const u64 *rc) {
#pragma unroll
    for (int i = 0; i < 12; i++) s[i] = gl_pow7_lazy(gl_add_lazy(s[i], rc[i]));
}

// The last initial full round's linear layer: the MDS row for state[0] (plus the first partial
// round's constant) and the dense rows that start the sparse partial rounds for the others.
AURUM_DEV void poseidon_first_partial_layer(u64 *s) {
    u64 t[12];
#pragma unroll
    for (int i = 0; i < 12; i++) t[i] = s[i];
    s[0] = gl_add_lazy(poseidon_mds_row(t, 0), POSEIDON_PARTIAL_RC[0]);
#pragma unroll
    for (int i = 1; i < 12; i++)
        s[i] = poseidon_dot(0, t, POSEIDON_FIRST_MATRIX + (i - 1) * 12, 12);
}

// Partial round j in sparse form (state[0] already holds its constant): the row over
// state[1..] plus the next round's constant (none after the last), the S-box on state[0],
// state[i] += state[0]·col_i, and state[0] ← m00·state[0] + the row's sum.
AURUM_DEV void poseidon_partial_round(u64 *s, int j) {
    const u64 next = j + 1 < 22 ? POSEIDON_PARTIAL_RC[j + 1] : 0;
    const u64 sum = poseidon_dot(next, s + 1, POSEIDON_PARTIAL_ROWS + j * 11, 11);
    const u64 s0 = gl_pow7_lazy(s[0]);
#pragma unroll
    for (int i = 1; i < 12; i++) {
        const u64 col = POSEIDON_PARTIAL_COLS[j * 11 + i - 1];
        s[i] = gl_acc_reduce(gl_acc_mac(gl_acc_of(s[i]), s0, col));
    }
    s[0] = gl_fold(gl_mac_wide(sum, s0, (u32)POSEIDON_MDS[0]));
}

// The round loops stay loops, as Poseidon2's (poseidon2.cuh): three full rounds, the last
// initial one with the partial rounds' first layer, the 22 partial rounds, four full rounds.
// The state is lazy between rounds and canonical at the end.
AURUM_DEV void poseidon_permute(u64 *s) {
#pragma unroll 1
    for (int r = 0; r < 3; r++) {
        poseidon_full_sbox(s, POSEIDON_FULL_RC + r * 12);
        poseidon_mds(s);
    }
    poseidon_full_sbox(s, POSEIDON_FULL_RC + 3 * 12);
    poseidon_first_partial_layer(s);
#pragma unroll 1
    for (int j = 0; j < 22; j++) poseidon_partial_round(s, j);
#pragma unroll 1
    for (int r = 4; r < 8; r++) {
        poseidon_full_sbox(s, POSEIDON_FULL_RC + r * 12);
        poseidon_mds(s);
    }
#pragma unroll
    for (int i = 0; i < 12; i++) s[i] = gl_canonical(s[i]);
}
