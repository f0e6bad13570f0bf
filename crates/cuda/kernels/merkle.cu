// The kernels: one thread per leaf, parent or state. Launched by src/backend/launch.rs.

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

#define AURUM_PRESET_KERNELS(NAME, PERM, MODE, SHORT_COPY)                                       \
    extern "C" __global__ void NAME##_leaves(const u64 *desc, u32 n_mats, u64 first,          \
                                             u64 n_rows, u64 total_width, u64 *out) {         \
        leaves<PERM, MODE, SHORT_COPY>(desc,     n_mats, first, n_rows, total_width, out);      \
    }                                                                                         \
    extern "C" __global__ void NAME##_packed_leaves(const u64 *data, u64 width, u64 n_rows,   \
                                                    u64 *out) {                               \
        packed_leaves<PERM, MODE, SHORT_COPY>(data, width, n_rows, out);                      \
    }                                                                                         \
    extern "C" __global__ void NAME##_compress(const u64 *children, u64 count, u64 *parents) { \
        compress_layer<PERM>(children, count, parents);                                       \
    }                                                                                         \
    extern "C" __global__ void NAME##_inject(u64 *parents, const u64 *injected, u64 rows,     \
                                             u64 real) {                                      \
        inject_layer<PERM>(parents, injected, rows, real);                                    \
    }

AURUM_PRESET_KERNELS(poseidon2_w8, Poseidon2W8, OverwriteMode, false)
AURUM_PRESET_KERNELS(poseidon2_w12, Poseidon2W12, OverwriteMode, false)
AURUM_PRESET_KERNELS(poseidon2_w16, Poseidon2W16, OverwriteMode, false)
AURUM_PRESET_KERNELS(plonky2, Poseidon12, OverwriteMode, true)
AURUM_PRESET_KERNELS(polygon, Poseidon12, LinearMode, true)

extern "C" __global__ void poseidon2_w8_permute(u64 *states, u64 count, u32 rounds) {
    permute_states<Poseidon2W8>(states, count, rounds);
}
extern "C" __global__ void poseidon2_w12_permute(u64 *states, u64 count, u32 rounds) {
    permute_states<Poseidon2W12>(states, count, rounds);
}
extern "C" __global__ void poseidon2_w16_permute(u64 *states, u64 count, u32 rounds) {
    permute_states<Poseidon2W16>(states, count, rounds);
}
extern "C" __global__ void poseidon_permute_states(u64 *states, u64 count, u32 rounds) {
    permute_states<Poseidon12>(states, count, rounds);
}
