// Poseidon2 over Goldilocks with Plonky3's parameters (p3-goldilocks 0.8, `Poseidon2Goldilocks`)
// at widths 8, 12 and 16: 4 external rounds, 22 internal rounds, 4 external rounds, S-box x^7,
// and the external layer applied once before the first round. The state is lazy between the
// steps (goldilocks.cuh) and canonical at the end.
//
// External layer: M4 = [[2,3,1,1],[1,2,3,1],[1,1,2,3],[3,1,1,2]] on each group of four, then
// every s_i gains the sum of the s_j with j ≡ i (mod 4). Internal layer: s_i ← D_i·s_i + Σ s_j.
// The round constants are data, written by the Rust side into the prelude as P2W<W>_EXT (8·W:
// the initial rounds', then the terminal ones') and P2W<W>_INT (22). The internal layer of
// each width is generated there too from the diagonal's values (P2InternalW<W>): Plonky3's
// entries are ±1…4 and ±1/2^k, applied as small multiply-adds (gl_mac_wide) and gl_div_2exp
// instead of full multiplications (an entry of another form would be multiplied).

// The external layer on lazy values, lazy: M4 = [[2,3,1,1],[1,2,3,1],[1,1,2,3],[3,1,1,2]] on each
// group of four with 9 additions and 2 doublings — y0 = 2x0 + 3x1 + x2 + x3 = (x0 + x1 + x2 +
// x3 + x1) + (x0 + x1), y1 = (x0 + 2x1 + x2 + x3) + 2x2, y2 = (x0 + x1 + x2 + 2x3) + (x2 + x3),
// y3 = (x0 + x1 + x2 + 2x3) + 2x0 — then every y_i gains the sum of the y_j with j ≡ i
// (mod 4). Every sum is exact (gl_wide: below 35·2^64 at width 16) and each output is reduced
// once.
AURUM_DEV void p2_m4(const u64 *x, gl_wide *y) {
    gl_wide t01 = gl_wide_of(x[0], x[1]);
    gl_wide t23 = gl_wide_of(x[2], x[3]);
    gl_wide t0123 = gl_wide_add(t01, t23);
    gl_wide t01123 = gl_wide_add(t0123, x[1]);
    gl_wide t01233 = gl_wide_add(t0123, x[3]);
    y[3] = gl_wide_add(t01233, gl_wide_of(x[0], x[0]));
    y[1] = gl_wide_add(t01123, gl_wide_of(x[2], x[2]));
    y[0] = gl_wide_add(t01123, t01);
    y[2] = gl_wide_add(t01233, t23);
}

template <int W>
AURUM_DEV void p2_external(u64 *s) {
    gl_wide y[W];
#pragma unroll
    for (int g = 0; g < W; g += 4) p2_m4(s + g, y + g);
    gl_wide sums[4] = {y[0], y[1], y[2], y[3]};
#pragma unroll
    for (int g = 4; g < W; g += 4) {
#pragma unroll
        for (int k = 0; k < 4; k++) sums[k] = gl_wide_add(sums[k], y[g + k]);
    }
#pragma unroll
    for (int i = 0; i < W; i++) s[i] = gl_fold(gl_wide_add(y[i], sums[i % 4]));
}

// The round loops stay loops (each round's constants indexed by the round): unrolled, the
// three widths' permutations inlined at every call site made NVRTC's compilation take tens
// of seconds. Within a round every state index is a compile-time constant, so the state
// stays in registers.
template <int W>
AURUM_DEV void p2_full_round(u64 *s, const u64 *rc) {
#pragma unroll
    for (int i = 0; i < W; i++) s[i] = gl_pow7_lazy(gl_add_lazy(s[i], rc[i]));
    p2_external<W>(s);
}

// Internal: the generated internal layer of width W (s_i ← D_i·s_i + Σ s_j).
template <int W, class Internal>
AURUM_DEV void p2_permute(u64 *s, const u64 *ext, const u64 *internal) {
    p2_external<W>(s);
#pragma unroll 1
    for (int r = 0; r < 4; r++) p2_full_round<W>(s, ext + r * W);
#pragma unroll 1
    for (int r = 0; r < 22; r++) {
        s[0] = gl_pow7_lazy(gl_add_lazy(s[0], internal[r]));
        Internal::apply(s);
    }
#pragma unroll 1
    for (int r = 4; r < 8; r++) p2_full_round<W>(s, ext + r * W);
#pragma unroll
    for (int i = 0; i < W; i++) s[i] = gl_canonical(s[i]);
}

// One function per width, naming its constants directly (so the compiler sees which memory
// they live in).
AURUM_DEV void p2_permute_w8(u64 *s) { p2_permute<8, P2InternalW8>(s, P2W8_EXT, P2W8_INT); }
AURUM_DEV void p2_permute_w12(u64 *s) { p2_permute<12, P2InternalW12>(s, P2W12_EXT, P2W12_INT); }
AURUM_DEV void p2_permute_w16(u64 *s) { p2_permute<16, P2InternalW16>(s, P2W16_EXT, P2W16_INT); }
