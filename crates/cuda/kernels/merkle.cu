// The kernels: one thread per leaf, parent or state. Launched by src/backend/mod.rs, in blocks
// of TREE_THREADS threads (its BLOCK).
//
// Each kernel is bounded to leave room for TREE_MIN_BLOCKS blocks per SM: at most
// 65536 / (128 · 4) = 128 registers per thread. Left free, ptxas spends registers for
// scheduling freedom — Poseidon with dense partial rounds took all 255, two blocks (eight
// warps) per SM, and Poseidon2 width 16's leaves take 142 with room for one block — while under
// the bound none spills (compute 9.0: Poseidon2 48–92, Poseidon 92–106 registers).
// `KernelTuning` (src/kernels.rs) compiles them with another bound, to measure it.
#define TREE_THREADS 128
#ifndef TREE_MIN_BLOCKS
#define TREE_MIN_BLOCKS 4
#endif
#define AURUM_TREE_KERNEL extern "C" __global__ void __launch_bounds__(TREE_THREADS, TREE_MIN_BLOCKS)

// Thread index over a 1-D grid.
AURUM_DEV u64 thread_index() { return (u64)blockIdx.x * blockDim.x + threadIdx.x; }

// out[4·i..] = leaf digest of row first + i, for i < n_rows.
template <class P, class Mode, bool SHORT_COPY>
AURUM_DEV void leaves(const u64 *desc, u32 n_mats, u64 first, u64 n_rows, u64 total_width,
                      u64 *out) {
    u64 i = thread_index();
    if (i >= n_rows) return;
    hash_leaf<P, Mode, SHORT_COPY>(desc, n_mats, first + i, total_width, out + 4 * i);
}

// The same for the rows of one packed matrix of `width` (a staged chunk): out[4·i..] = leaf
// digest of row i, for i < n_rows.
template <class P, class Mode, bool SHORT_COPY>
AURUM_DEV void packed_leaves(const u64 *data, u64 width, u64 n_rows, u64 *out) {
    u64 i = thread_index();
    if (i >= n_rows) return;
    const u64 desc[2] = {(u64)data, width};
    hash_leaf<P, Mode, SHORT_COPY>(desc, 1, i, width, out + 4 * i);
}

// parents[i] = compress(children[2i], children[2i + 1]), for i < count.
template <class P>
AURUM_DEV void compress_layer(const u64 *children, u64 count, u64 *parents) {
    u64 i = thread_index();
    if (i >= count) return;
    compress<P>(children + 8 * i, children + 8 * i + 4, parents + 4 * i);
}

// parents[i] = compress(parents[i], injected[i] or zero past `rows`), for i < real.
template <class P>
AURUM_DEV void inject_layer(u64 *parents, const u64 *injected, u64 rows, u64 real) {
    u64 i = thread_index();
    if (i >= real) return;
    const u64 zero[4] = {0, 0, 0, 0};
    compress<P>(parents + 4 * i, i < rows ? injected + 4 * i : zero, parents + 4 * i);
}

// Each of `count` states (W consecutive elements, canonical) permuted `rounds` times in place:
// the throughput benchmark and the permutation test.
template <class P>
AURUM_DEV void permute_states(u64 *states, u64 count, u32 rounds) {
    u64 i = thread_index();
    if (i >= count) return;
    u64 s[P::W];
#pragma unroll
    for (int k = 0; k < P::W; k++) s[k] = gl_canonical(states[i * P::W + k]);
    for (u32 r = 0; r < rounds; r++) P::permute(s);
#pragma unroll
    for (int k = 0; k < P::W; k++) states[i * P::W + k] = s[k];
}

#define AURUM_PRESET_KERNELS(NAME, PERM, MODE, SHORT_COPY)                                   \
    AURUM_TREE_KERNEL NAME##_leaves(const u64 *desc, u32 n_mats, u64 first, u64 n_rows,      \
                                    u64 total_width, u64 *out) {                             \
        leaves<PERM, MODE, SHORT_COPY>(desc, n_mats, first, n_rows, total_width, out);       \
    }                                                                                        \
    AURUM_TREE_KERNEL NAME##_packed_leaves(const u64 *data, u64 width, u64 n_rows,           \
                                           u64 *out) {                                       \
        packed_leaves<PERM, MODE, SHORT_COPY>(data, width, n_rows, out);                     \
    }                                                                                        \
    AURUM_TREE_KERNEL NAME##_compress(const u64 *children, u64 count, u64 *parents) {        \
        compress_layer<PERM>(children, count, parents);                                      \
    }                                                                                        \
    AURUM_TREE_KERNEL NAME##_inject(u64 *parents, const u64 *injected, u64 rows, u64 real) { \
        inject_layer<PERM>(parents, injected, rows, real);                                   \
    }

AURUM_PRESET_KERNELS(poseidon2_w8, Poseidon2W8, OverwriteMode, false)
AURUM_PRESET_KERNELS(poseidon2_w12, Poseidon2W12, OverwriteMode, false)
AURUM_PRESET_KERNELS(poseidon2_w16, Poseidon2W16, OverwriteMode, false)
AURUM_PRESET_KERNELS(plonky2, Poseidon12, OverwriteMode, true)
AURUM_PRESET_KERNELS(polygon, Poseidon12, LinearMode, true)

AURUM_TREE_KERNEL poseidon2_w8_permute(u64 *states, u64 count, u32 rounds) {
    permute_states<Poseidon2W8>(states, count, rounds);
}
AURUM_TREE_KERNEL poseidon2_w12_permute(u64 *states, u64 count, u32 rounds) {
    permute_states<Poseidon2W12>(states, count, rounds);
}
AURUM_TREE_KERNEL poseidon2_w16_permute(u64 *states, u64 count, u32 rounds) {
    permute_states<Poseidon2W16>(states, count, rounds);
}
AURUM_TREE_KERNEL poseidon_permute_states(u64 *states, u64 count, u32 rounds) {
    permute_states<Poseidon12>(states, count, rounds);
}
