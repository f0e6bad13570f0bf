// The host check's driver (tests/host_kernels.rs): reads requests from stdin, answers on
// stdout, every value in hexadecimal.
//   perm NAME N, then N states            -> the N permuted states
//   leaf PRESET ROWS MATS W1 … Wm, then each matrix row-major -> ROWS digests
//   compress PRESET N, then N pairs of digests                -> N digests
//   field - N, then N pairs of 64-bit values a b -> for each pair the FIELD_OUTPUTS values of
//     field_pair (the field's primitives on any 64-bit inputs, checked against integers)
//   lde - LOG_N ADDED WIDTH LOG_TABLE STEPS, the input, then each step of
//     aurum_cuda::kernels::lde (0 powers: BUF COUNT LO_BITS HI_LEN hi… LO_LEN lo…;
//     1 pass: BUF LOW LAYERS LANE_BITS BLOCKS DIT INVERSE SPREAD)
//                                                             -> the output buffer
//     Every kernel body runs as the GPU runs it: each block's threads one after another
//     between its AURUM_SYNC() points, every block of the grid in turn.
#include <cstdio>
#include <cstring>
#include <vector>
#include <cstdint>
#include <cstdlib>

static u64 read_value() {
    u64 x = 0;
    if (scanf("%llx", &x) != 1) {
        fprintf(stderr, "host check: bad input\n");
        std::exit(2);
    }
    return x;
}

static void print_values(const u64 *v, size_t n) {
    for (size_t i = 0; i < n; i++) printf("%llx\n", v[i]);
}

template <class P>
static void perm_states(u64 n) {
    std::vector<u64> s(P::W);
    for (u64 k = 0; k < n; k++) {
        for (int i = 0; i < P::W; i++) s[i] = read_value();
        P::permute(s.data());
        print_values(s.data(), P::W);
    }
}

template <class P, class Mode, bool SHORT>
static void leaf_rows(u64 rows, const std::vector<u64> &desc, u32 mats, u64 total) {
    u64 digest[4];
    for (u64 r = 0; r < rows; r++) {
        hash_leaf<P, Mode, SHORT>(desc.data(), mats, r, total, digest);
        print_values(digest, 4);
    }
}

template <class P>
static void compress_pairs(u64 n) {
    u64 pair[8], out[4];
    for (u64 k = 0; k < n; k++) {
        for (int i = 0; i < 8; i++) pair[i] = read_value();
        compress<P>(pair, pair + 4, out);
        print_values(out, 4);
    }
}

// What tests/host_kernels.rs checks of goldilocks.cuh for a pair of 64-bit values a, b (in
// this order: the Rust side lists the same).
#define FIELD_OUTPUTS 29
static void field_pair(u64 a, u64 b) {
    const u64 bc = gl_canonical(b);
    const gl_wide w = gl_wide_of(a, b);
    const gl_wide w2 = gl_wide_add(w, gl_wide{a, (u32)(b & 0xFF)});
    const gl_wide w3 = gl_wide_add(w, b);
    const gl_wide m3 = gl_mac_wide(a, b, 3);
    const gl_wide mbig = gl_mac_wide(a, b, 0xFFFFFFFDu);
    const u64 sixteen[16] = {a, b, a, b, a, b, a, b, a, b, a, b, a, b, a, b};
    const gl_acc acc1 = gl_acc_mac(gl_acc_of(a), a, b);
    gl_acc acc12 = gl_acc_of(b);
    for (int i = 0; i < 12; i++) acc12 = gl_acc_mac(acc12, a, b);
    const auto low = [](gl_acc c) { return ((u64)c.r1 << 32) | c.r0; };
    const auto mid = [](gl_acc c) { return ((u64)c.r3 << 32) | c.r2; };
    const u64 out[FIELD_OUTPUTS] = {
        gl_mul_lazy(a, b),
        gl_fold(gl_wide{a, (u32)((b >> 32) % 0xFFFFFFFFULL)}),
        w.lo, w.hi, w2.lo, w2.hi, w3.lo, w3.hi,
        m3.lo, m3.hi, mbig.lo, mbig.hi,
        gl_neg_lazy(a),
        gl_add_lazy(a, bc),
        gl_sub(a, bc),
        gl_div_2exp(a, 1), gl_div_2exp(a, 7), gl_div_2exp(a, 32),
        gl_pow7_lazy(a),
        gl_sum_lazy(sixteen, 16),
        gl_mul(a, b),
        gl_acc_reduce(acc1), low(acc1), mid(acc1), acc1.r4,
        gl_acc_reduce(acc12), low(acc12), mid(acc12), acc12.r4,
    };
    print_values(out, FIELD_OUTPUTS);
}

static std::vector<u64> read_vector(u64 n) {
    std::vector<u64> v(n);
    for (auto &x : v) x = read_value();
    return v;
}

static int lde() {
    u64 log_n = read_value(), added = read_value(), width = read_value();
    u64 log_table = read_value(), steps = read_value();
    // Input, Output, Twiddles, Scale (aurum_cuda::kernels::lde::Buffer's numbers).
    // The GPU allocates them unset: here they start as a poison pattern (not canonical, so a
    // word read before it is written spoils the output instead of passing as zero).
    const u64 poison = 0xFFFFFFFFDEADBEEFULL;
    std::vector<u64> buffers[4];
    buffers[0] = read_vector((1ULL << log_n) * width);
    buffers[1].assign((1ULL << (log_n + added)) * width, poison);
    buffers[2].assign(1ULL << (log_table - 1), poison);
    buffers[3].assign(1ULL << log_n, poison);
    std::vector<u64> tile(NTT_TILE, poison), lane_lo(NTT_MAX_LANES, poison);
    for (u64 s = 0; s < steps; s++) {
        u64 kind = read_value();
        if (kind == 0) {
            u64 buf = read_value(), count = read_value(), lo_bits = read_value();
            std::vector<u64> hi = read_vector(read_value());
            std::vector<u64> lo = read_vector(read_value());
            if (buf > 3 || buffers[buf].size() < count) return 4;
            for (u64 t = 0; t < count; t++)
                powers_element(buffers[buf].data(), hi.data(), lo.data(), (u32)lo_bits, t);
        } else if (kind == 1) {
            u64 buf = read_value(), low = read_value(), layers = read_value();
            u64 lane_bits = read_value(), blocks = read_value();
            bool dit = read_value() != 0, inverse = read_value() != 0;
            bool spread = read_value() != 0;
            if (buf > 1 || (1ULL << (layers + lane_bits)) > NTT_TILE ||
                (1ULL << lane_bits) > NTT_MAX_LANES || blocks >> 32 != 0 ||
                (spread && buf != 1))
                return 4;
            for (u64 b = 0; b < blocks; b++)
                ntt_pass_block(buffers[buf].data(), buffers[2].data(), (u32)log_table, (u32)low,
                               (u32)layers, width, (u32)lane_bits, dit, inverse, spread,
                               buffers[0].data(), buffers[3].data(), (u32)log_n, (u32)b,
                               tile.data(), lane_lo.data());
        } else {
            return 4;
        }
    }
    print_values(buffers[1].data(), buffers[1].size());
    return 0;
}

int main() {
    char op[32], name[32];
    while (scanf("%31s", op) == 1) {
        if (scanf("%31s", name) != 1) return 2;
        if (!strcmp(op, "perm")) {
            u64 n = read_value();
            if (!strcmp(name, "poseidon2-w8")) perm_states<Poseidon2W8>(n);
            else if (!strcmp(name, "poseidon2-w12")) perm_states<Poseidon2W12>(n);
            else if (!strcmp(name, "poseidon2-w16")) perm_states<Poseidon2W16>(n);
            else if (!strcmp(name, "poseidon")) perm_states<Poseidon12>(n);
            else return 3;
        } else if (!strcmp(op, "leaf")) {
            u64 rows = read_value();
            u32 mats = (u32)read_value();
            std::vector<u64> widths(mats);
            u64 total = 0;
            for (u32 m = 0; m < mats; m++) total += (widths[m] = read_value());
            std::vector<std::vector<u64>> data(mats);
            std::vector<u64> desc(2 * mats);
            for (u32 m = 0; m < mats; m++) {
                data[m].resize(rows * widths[m]);
                for (auto &x : data[m]) x = read_value();
                desc[2 * m] = (u64)(uintptr_t)data[m].data();
                desc[2 * m + 1] = widths[m];
            }
            if (!strcmp(name, "poseidon2-w8")) leaf_rows<Poseidon2W8, OverwriteMode, false>(rows, desc, mats, total);
            else if (!strcmp(name, "poseidon2-w12")) leaf_rows<Poseidon2W12, OverwriteMode, false>(rows, desc, mats, total);
            else if (!strcmp(name, "poseidon2-w16")) leaf_rows<Poseidon2W16, OverwriteMode, false>(rows, desc, mats, total);
            else if (!strcmp(name, "plonky2")) leaf_rows<Poseidon12, OverwriteMode, true>(rows, desc, mats, total);
            else if (!strcmp(name, "polygon")) leaf_rows<Poseidon12, LinearMode, true>(rows, desc, mats, total);
            else return 3;
        } else if (!strcmp(op, "compress")) {
            u64 n = read_value();
            if (!strcmp(name, "poseidon2-w8")) compress_pairs<Poseidon2W8>(n);
            else if (!strcmp(name, "poseidon2-w12")) compress_pairs<Poseidon2W12>(n);
            else if (!strcmp(name, "poseidon2-w16")) compress_pairs<Poseidon2W16>(n);
            else if (!strcmp(name, "plonky2") || !strcmp(name, "polygon")) compress_pairs<Poseidon12>(n);
            else return 3;
        } else if (!strcmp(op, "field")) {
            u64 n = read_value();
            for (u64 k = 0; k < n; k++) {
                u64 a = read_value();
                field_pair(a, read_value());
            }
        } else if (!strcmp(op, "lde")) {
            int status = lde();
            if (status != 0) return status;
        } else {
            return 3;
        }
    }
    return 0;
}
