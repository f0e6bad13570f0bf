// The NTT and coset LDE kernels' bodies: column-batched transforms of a row-major matrix
// (`width` columns, element (i, c) at i·width + c), the LDE's scaling and zero padding, and
// tables of powers. Each body takes its block or thread index as an argument, so the host
// check (tests/host_kernels.rs) runs the same text by looping over the indices: threads of a
// block share memory only between AURUM_SYNC() points (__syncthreads() on the device, nothing
// on the host, where the block's threads run one after another between those points), and a
// thread keeps nothing in registers across them. The launch sequence is aurum_cuda::kernels::lde.

// Elements of a pass's tile in shared memory (32 KiB), and the most lanes of one.
#define NTT_TILE 4096
#define NTT_MAX_LANES 16
// Threads per block of the pass kernel.
#define NTT_THREADS 256

// The bit reversal of the low `bits` bits of x (bits ≤ 32).
AURUM_DEV u64 ntt_bit_reverse(u64 x, u32 bits) {
    return bits == 0 ? 0 : AURUM_BREV64(x) >> (64 - bits);
}

// ω^e, for the table of ω^t (t < 2^(log_table − 1)) of a root ω of order 2^log_table, where
// t = e · 2^(log_table − log_order) for e below half the order 2^log_order; `inverse` gives
// ω^−t = −ω^(2^(log_table−1) − t) (ω^(2^(log_table−1)) = −1) from the same table.
AURUM_DEV u64 ntt_twiddle(const u64 *table, u32 log_table, u64 t, bool inverse) {
    if (!inverse) return table[t];
    if (t == 0) return 1;
    return gl_sub(0, table[(1ULL << (log_table - 1)) - t]);
}

// The value of row `row`, column c of the LDE's forward transform's input, from the inverse
// transform's output `src` (2^log_n rows in bit-reversed order: row r holds coefficient rev(r)):
// each coefficient k times scale[k] (scale[k] = shift^k / 2^log_n), the rest zero:
//   natural (for a DIT forward transform, which wants its input bit-reversed): row o holds
//   coefficient rev'(o) in the larger size, which is rev(o >> added) for o a multiple of
//   2^added and a padding zero otherwise — so row o is src's row o >> added;
//   bit-reversed (for a DIF forward transform, natural order in): row o < 2^log_n holds
//   coefficient o, from src's row rev(o); the rows above are zero.
// Zeros are not read.
AURUM_DEV u64 lde_spread_value(const u64 *src, const u64 *scale, u32 log_n, u32 added, u64 width,
                               bool bit_reversed, u64 row, u64 c) {
    if (bit_reversed) {
        if (row >= (1ULL << log_n)) return 0;
        u64 r = ntt_bit_reverse(row, log_n);
        return gl_mul(gl_canonical(src[r * width + c]), scale[row]);
    }
    if ((row & ((1ULL << added) - 1)) != 0) return 0;
    u64 r = row >> added;
    return gl_mul(gl_canonical(src[r * width + c]), scale[ntt_bit_reverse(r, log_n)]);
}

// One block of a pass: `layers` consecutive layers of the radix-2 network of a transform of
// the matrix's rows, those whose butterfly spans are 2^low … 2^(low + layers − 1) rows. Those
// layers only combine rows that agree outside bits low … low + layers − 1 of the row index, so
// with i = hi·2^(low+layers) + j·2^low + lo and the lane m = lo·width + c (m < L = 2^low·width),
// the element (i, c) is at hi·2^layers·L + j·L + m: for each hi, a 2^layers × L matrix whose
// rows are j. A block takes one hi and 2^lane_bits consecutive lanes from m0 (every j of them:
// a tile of 2^(layers + lane_bits) ≤ NTT_TILE elements), runs the layers in shared memory and
// writes it back; `lane_lo` (shared, 2^lane_bits entries) holds each lane's lo. With `spread`
// (the LDE's forward transform's first pass) the tile is read through lde_spread_value from
// `src` and `scale` instead of from `data` — natural order for decimation in time, bit-reversed
// for decimation in frequency — so the spread costs no pass of its own and its zeros are never
// read.
//   DIF (dit = false): spans from the largest down, u, v ← u + v, (u − v)·ω (natural order in,
//   bit-reversed out); DIT: spans from the smallest up, u, v ← u + ω·v, u − ω·v (bit-reversed
//   in, natural out); ω = ω_(2·span)^(i mod span), from `table` (a root of order 2^log_table,
//   log_table > low + layers − 1), inverted when `inverse`. Values are read reduced and
//   written canonical.
AURUM_DEV void ntt_pass_block(u64 *data, const u64 *table, u32 log_table, u32 low, u32 layers,
                              u64 width, u32 lane_bits, bool dit, bool inverse, bool spread,
                              const u64 *src, const u64 *scale, u32 log_n, u32 block,
                              u64 *tile, u64 *lane_lo) {
    const u32 lanes = 1u << lane_bits, lane_mask = lanes - 1;
    const u64 L = width << low;
    const u32 tiles = (u32)((L + lanes - 1) >> lane_bits);
    const u32 hi = block / tiles;
    const u64 m0 = (u64)(block - hi * tiles) << lane_bits;
    const u32 active = (u32)(L - m0 < lanes ? L - m0 : lanes);
    u64 *base = data + (u64)hi * (L << layers) + m0;
    const u32 elements = 1u << (layers + lane_bits);

    AURUM_FOR_THREADS(mm, lanes) lane_lo[mm] = (m0 + mm) / width;
    AURUM_SYNC();
    AURUM_FOR_THREADS(e, elements) {
        u32 j = e >> lane_bits, mm = e & lane_mask;
        if (mm < active) {
            if (spread) {
                u64 lo = lane_lo[mm];
                u64 row = ((u64)hi << (low + layers)) + ((u64)j << low) + lo;
                tile[e] = lde_spread_value(src, scale, log_n, log_table - log_n, width, !dit,
                                           row, m0 + mm - lo * width);
            } else {
                tile[e] = gl_canonical(base[j * L + mm]);
            }
        }
    }
    AURUM_SYNC();
    for (u32 step = 0; step < layers; step++) {
        // The layer's span is 2^q rows of the tile: 2^(low + q) rows of the matrix.
        const u32 q = dit ? step : layers - 1 - step;
        const u32 shift = log_table - (low + q) - 1;
        const u32 below = (1u << q) - 1;
        AURUM_FOR_THREADS(u, elements / 2) {
            u32 v = u >> lane_bits, mm = u & lane_mask;
            if (mm < active) {
                u32 jj = ((v & ~below) << 1) | (v & below);
                u64 e = ((u64)(jj & below) << low) | lane_lo[mm];
                u64 w = ntt_twiddle(table, log_table, e << shift, inverse);
                u64 *x = tile + (jj << lane_bits) + mm;
                u64 *y = x + (lanes << q);
                if (dit) {
                    u64 t = gl_mul(*y, w);
                    u64 a = *x;
                    *x = gl_add(a, t);
                    *y = gl_sub(a, t);
                } else {
                    u64 a = *x, c = *y;
                    *x = gl_add(a, c);
                    *y = gl_mul(gl_sub(a, c), w);
                }
            }
        }
        AURUM_SYNC();
    }
    AURUM_FOR_THREADS(e, elements) {
        u32 j = e >> lane_bits, mm = e & lane_mask;
        if (mm < active) base[j * L + mm] = tile[e];
    }
}

// out[t] = hi[t >> lo_bits] · lo[t mod 2^lo_bits]: a table of powers from two short ones.
AURUM_DEV void powers_element(u64 *out, const u64 *hi, const u64 *lo, u32 lo_bits, u64 t) {
    out[t] = gl_mul(hi[t >> lo_bits], lo[t & ((1ULL << lo_bits) - 1)]);
}
