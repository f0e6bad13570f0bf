// The NTT and coset LDE kernels (bodies in ntt.cuh). Launched by src/backend/mod.rs in the
// order aurum_cuda::kernels::lde plans.

// flags: bit 0 decimation in time, bit 1 the inverse root, bit 2 the tile read through the
// LDE's spread from src and scale (2^log_n rows and entries).
extern "C" __global__ void __launch_bounds__(NTT_THREADS)
    ntt_pass(u64 *data, const u64 *table, u32 log_table, u32 low, u32 layers, u64 width,
             u32 lane_bits, u32 flags, const u64 *src, const u64 *scale, u32 log_n) {
    __shared__ u64 tile[NTT_TILE];
    __shared__ u64 lane_lo[NTT_MAX_LANES];
    ntt_pass_block(data, table, log_table, low, layers, width, lane_bits, (flags & 1) != 0,
                   (flags & 2) != 0, (flags & 4) != 0, src, scale, log_n, blockIdx.x, tile,
                   lane_lo);
}

extern "C" __global__ void powers(u64 *out, const u64 *hi, const u64 *lo, u32 lo_bits,
                                  u64 count) {
    u64 t = thread_index();
    if (t < count) powers_element(out, hi, lo, lo_bits, t);
}
