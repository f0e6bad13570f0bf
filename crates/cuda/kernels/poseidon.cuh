// The plonky2 / Polygon Poseidon permutation over Goldilocks, width 12: 4 full rounds, 22
// partial rounds, 4 full rounds, S-box x^7, each round adding its 12 constants and multiplying
// by the MDS matrix, straight from the definition. The constants (POSEIDON_RC, 30·12) and the
// matrix (POSEIDON_MDS, 12·12 small entries) are data, written by the Rust side into the
// prelude.

// M·x for any 64-bit x. The entries are below 2^6, so each row sums the products with the
// low and the high 32-bit halves of x apart — 32 × 32-bit multiply-adds, each sum below 2^42 —
// and combines them once: lo + hi·2^32 < 2^75, then one reduction.
AURUM_DEV void poseidon_mds(u64 *s) {
    u64 out[12];
#pragma unroll
    for (int i = 0; i < 12; i++) {
        u64 lo = 0, hi = 0;
#pragma unroll
        for (int j = 0; j < 12; j++) {
            u64 c = (u32)POSEIDON_MDS[i * 12 + j];
            lo += c * (u32)s[j];
            hi += c * (u32)(s[j] >> 32);
        }
        u64 v_lo = lo + (hi << 32);
        u64 v_hi = (hi >> 32) + (v_lo < lo ? 1 : 0);
        out[i] = gl_reduce128(v_lo, v_hi);
    }
#pragma unroll
    for (int i = 0; i < 12; i++) s[i] = out[i];
}

AURUM_DEV void poseidon_permute(u64 *s) {
#pragma unroll 1
    for (int r = 0; r < 30; r++) {
        // Lazy sums: the S-box and the MDS rows take any 64-bit value.
#pragma unroll
        for (int i = 0; i < 12; i++) s[i] = gl_add_lazy(s[i], POSEIDON_RC[r * 12 + i]);
        if (r >= 4 && r < 26) {
            s[0] = gl_pow7(s[0]);
        } else {
#pragma unroll
            for (int i = 0; i < 12; i++) s[i] = gl_pow7(s[i]);
        }
        poseidon_mds(s);
    }
}
