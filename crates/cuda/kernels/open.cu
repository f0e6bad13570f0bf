// The reduced openings (aurum-fri's CommitEngine::reduced_openings): for one matrix of an LDE of
// n = 2^log_n rows of `width` values, adds to out[i] (c0, c1 word pairs, X² = 7) its terms
// (c − w·r)/(z − x) at row i, where x = points[rev(i)] (rev over log_n bits: the table holds
// 7·ω_n^t in natural order t) and r = Σ_j coefficients[j]·row_i[j] (coefficients as word
// pairs). A term is six words: z0, z1, c0, c1, w0, w1. With e = z0 − x and the base-field norm
// m = e² − 7·z1² of z − x, 1/(z − x) = (e − z1·X)/m, so s/(z − x) with s = c − w·r is
// ((s0·e − 7·s1·z1) + (s1·e − s0·z1)·X)/m: one base-field inversion per row and term. The
// caller keeps every z off the domain (m ≠ 0). Values are read reduced and written canonical.
// One thread per row, in blocks of TREE_THREADS.

// Products added exactly before one reduction: far below the 2^31 gl_acc allows.
#define OPEN_COLUMNS_PER_REDUCTION (1u << 20)

AURUM_DEV void reduced_opening_row(const u64 *lde, u64 width, u32 log_n, const u64 *points,
                                   const u64 *coefficients, const u64 *terms, u32 n_terms,
                                   u64 row, u64 *out) {
    const u64 x = points[ntt_bit_reverse(row, log_n)];
    const u64 *values = lde + row * width;
    gl_acc a0 = gl_acc_of(0), a1 = gl_acc_of(0);
    for (u64 j = 0; j < width; j++) {
        const u64 y = values[j];
        a0 = gl_acc_mac(a0, y, coefficients[2 * j]);
        a1 = gl_acc_mac(a1, y, coefficients[2 * j + 1]);
        if ((j + 1) % OPEN_COLUMNS_PER_REDUCTION == 0) {
            a0 = gl_acc_of(gl_acc_reduce(a0));
            a1 = gl_acc_of(gl_acc_reduce(a1));
        }
    }
    const u64 r0 = gl_canonical(gl_acc_reduce(a0)), r1 = gl_canonical(gl_acc_reduce(a1));
    u64 o0 = out[2 * row], o1 = out[2 * row + 1];
    for (u32 k = 0; k < n_terms; k++) {
        const u64 *t = terms + 6 * k;
        const u64 z0 = t[0], z1 = t[1];
        u64 wr0, wr1;
        ext_mul(t[4], t[5], r0, r1, &wr0, &wr1);
        const u64 s0 = gl_sub(t[2], wr0), s1 = gl_sub(t[3], wr1);
        const u64 e = gl_sub(z0, x);
        const u64 m = gl_sub(gl_mul(e, e), gl_mul(gl_mul(z1, z1), 7));
        const u64 inv = gl_inverse(m);
        const u64 q0 = gl_sub(gl_mul(s0, e), gl_mul(gl_mul(s1, z1), 7));
        const u64 q1 = gl_sub(gl_mul(s1, e), gl_mul(s0, z1));
        o0 = gl_add(o0, gl_mul(q0, inv));
        o1 = gl_add(o1, gl_mul(q1, inv));
    }
    out[2 * row] = o0;
    out[2 * row + 1] = o1;
}

extern "C" __global__ void __launch_bounds__(TREE_THREADS)
    reduced_opening(const u64 *lde, u64 width, u32 log_n, const u64 *points,
                    const u64 *coefficients, const u64 *terms, u32 n_terms, u64 *out) {
    u64 row = thread_index();
    if (row >> log_n == 0)
        reduced_opening_row(lde, width, log_n, points, coefficients, terms, n_terms, row, out);
}
