// The host check's driver (tests/host_kernels.rs): reads requests from stdin, answers on
// stdout, every value in hexadecimal.
//   perm NAME N, then N states            -> the N permuted states
//   leaf PRESET ROWS MATS W1 … Wm, then each matrix row-major -> ROWS digests
//   compress PRESET N, then N pairs of digests                -> N digests
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
        } else {
            return 3;
        }
    }
    return 0;
}
