// The FRI fold (aurum-fri's CommitEngine::fold): a codeword of n = rows · 2^log_arity extension
// elements (c0, c1 word pairs, x = c0 + c1·X with X² = 7), bit-reversed, becomes one of `rows`
// by log_arity binary folds with β, β², β⁴, …: in fold r the pair (lo, hi) at global pair index
// t becomes (lo + hi)/2 + β·(lo − hi)·h, h = 1/(2x) = ω_n^−rev(t)/2 (rev over log n − 1 bits),
// which is half[rev(t)] of the table half[k] = ω_n^−k / 2, k < n/2 (the same table serves
// every fold: squaring the points keeps the bit-reversed prefix). Values are read reduced and
// written canonical (ext_mul: goldilocks.cuh). One thread per output row, in blocks of
// TREE_THREADS.

#define FOLD_MAX_ARITY 16

AURUM_DEV void fri_fold_row(const u64 *codeword, u64 row, u32 log_arity, u32 log_n, u64 b0,
                            u64 b1, const u64 *half, u64 *out) {
    const u32 arity = 1u << log_arity;
    u64 c0[FOLD_MAX_ARITY], c1[FOLD_MAX_ARITY];
    for (u32 k = 0; k < arity; k++) {
        c0[k] = gl_canonical(codeword[2 * (row * arity + k)]);
        c1[k] = gl_canonical(codeword[2 * (row * arity + k) + 1]);
    }
    for (u32 r = 0; r < log_arity; r++) {
        const u32 pairs = arity >> (r + 1);
        for (u32 k = 0; k < pairs; k++) {
            const u64 h = half[ntt_bit_reverse(row * pairs + k, log_n - 1)];
            const u64 lo0 = c0[2 * k], lo1 = c1[2 * k], hi0 = c0[2 * k + 1], hi1 = c1[2 * k + 1];
            u64 t0, t1;
            ext_mul(gl_mul(gl_sub(lo0, hi0), h), gl_mul(gl_sub(lo1, hi1), h), b0, b1, &t0, &t1);
            c0[k] = gl_add(gl_div_2exp(gl_add(lo0, hi0), 1), t0);
            c1[k] = gl_add(gl_div_2exp(gl_add(lo1, hi1), 1), t1);
        }
        u64 s0, s1;
        ext_mul(b0, b1, b0, b1, &s0, &s1);
        b0 = s0;
        b1 = s1;
    }
    out[2 * row] = c0[0];
    out[2 * row + 1] = c1[0];
}

extern "C" __global__ void __launch_bounds__(TREE_THREADS)
    fri_fold(const u64 *codeword, u64 rows, u32 log_arity, u32 log_n, u64 b0, u64 b1,
             const u64 *half, u64 *out) {
    u64 row = thread_index();
    if (row < rows) fri_fold_row(codeword, row, log_arity, log_n, b0, b1, half, out);
}
