// The plonky2 / Polygon Poseidon permutation over Goldilocks, width 12: 4 full rounds, 22
// partial rounds, 4 full rounds, S-box x^7, each round adding its 12 constants and multiplying
// by the MDS matrix, straight from the definition. The constants (POSEIDON_RC, 30·12) and the
// matrix (POSEIDON_MDS, 12·12 small entries) are data, written by the Rust side into the
// prelude.

// M·x for lazy x, lazy. The entries are below 2^6, so each row sums the products with the low
// and the high 32-bit halves of x apart — 32 × 32-bit multiply-adds, each sum below 2^42 — and
// combines them once: lo + hi·2^32 < 2^75, exact as a gl_wide, then one fold.
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
        gl_wide v = gl_wide_of(lo, hi << 32);
        v.hi += (u32)(hi >> 32);
        out[i] = gl_fold(v);
    }
#pragma unroll
    for (int i = 0; i < 12; i++) s[i] = out[i];
}

// A round on the lazy state: its 12 constants added (each canonical, so the sums stay below
// 2^64 + p and one correction keeps them lazy), the S-box on every word (full) or the first
// (partial), then the MDS matrix.
template <bool FULL>
AURUM_DEV void poseidon_round(u64 *s, const u64 *rc) {
#pragma unroll
    for (int i = 0; i < 12; i++) s[i] = gl_add_lazy(s[i], rc[i]);
    if (FULL) {
#pragma unroll
        for (int i = 0; i < 12; i++) s[i] = gl_pow7_lazy(s[i]);
    } else {
        s[0] = gl_pow7_lazy(s[0]);
    }
    poseidon_mds(s);
}

// The round loops stay loops, as Poseidon2's (poseidon2.cuh); the state is lazy between rounds
// and canonical at the end.
AURUM_DEV void poseidon_permute(u64 *s) {
#pragma unroll 1
    for (int r = 0; r < 4; r++) poseidon_round<true>(s, POSEIDON_RC + r * 12);
#pragma unroll 1
    for (int r = 4; r < 26; r++) poseidon_round<false>(s, POSEIDON_RC + r * 12);
#pragma unroll 1
    for (int r = 26; r < 30; r++) poseidon_round<true>(s, POSEIDON_RC + r * 12);
#pragma unroll
    for (int i = 0; i < 12; i++) s[i] = gl_canonical(s[i]);
}
