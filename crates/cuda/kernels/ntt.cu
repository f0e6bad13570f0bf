// The NTT and coset LDE kernels (bodies in ntt.cuh). Launched by src/backend/mod.rs in the
// order aurum_cuda::kernels::lde plans.

extern "C" __global__ void __launch_bounds__(NTT_THREADS)
    ntt_pass(u64 *data, const u64 *table, u32 log_table, u32 low, u32 layers, u64 width,
             u32 lane_bits, u32 flags) {
    __shared__ u64 tile[NTT_TILE];
    __shared__ u64 lane_lo[NTT_MAX_LANES];
    ntt_pass_block(data, table, log_table, low, layers, width, lane_bits, (flags & 1) != 0,
                   (flags & 2) != 0, blockIdx.x, tile, lane_lo);
}

extern "C" __global__ void lde_spread(const u64 *src, u64 *dst, const u64 *scale, u32 log_n,
                                      u32 added, u64 width, u32 bit_reversed, u64 count) {
    u64 i = thread_index();
    if (i < count) lde_spread_element(src, dst, scale, log_n, added, width, bit_reversed != 0, i);
}

extern "C" __global__ void powers(u64 *out, const u64 *hi, const u64 *lo, u32 lo_bits,
                                  u64 count) {
    u64 t = thread_index();
    if (t < count) powers_element(out, hi, lo, lo_bits, t);
}
