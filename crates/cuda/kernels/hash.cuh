// The tree hashes of every preset on top of the permutations: leaf sponges and the 2-to-1
// compression, per thread and state. Host-compilable (the host check runs them against the
// Rust implementation).

// The permutations with their sponge rates.
struct Poseidon2W8 {
    enum { W = 8, RATE = 4 };
    AURUM_METHOD static void permute(u64 *s) { p2_permute_w8(s); }
};
struct Poseidon2W12 {
    enum { W = 12, RATE = 8 };
    AURUM_METHOD static void permute(u64 *s) { p2_permute_w12(s); }
};
struct Poseidon2W16 {
    enum { W = 16, RATE = 12 };
    AURUM_METHOD static void permute(u64 *s) { p2_permute_w16(s); }
};
struct Poseidon12 {
    enum { W = 12, RATE = 8 };
    AURUM_METHOD static void permute(u64 *s) { poseidon_permute(s); }
};

// Reads the concatenated row of several matrices element by element (`desc`: pairs of an
// element pointer and a width), reducing each element (inputs need not be canonical).
struct RowReader {
    const u64 *desc;
    u32 n_mats;
    u64 row;
    u32 m;
    u64 c;
    const u64 *r;
    u64 w;
    AURUM_METHOD void start(const u64 *d, u32 n, u64 row_index) {
        desc = d;
        n_mats = n;
        row = row_index;
        m = 0;
        c = 0;
        r = 0;
        w = 0;
        open();
    }
    // Points at the first element of matrix m's row (skipping empty ones: none exist, widths
    // are at least 1, but the reader does not rely on it).
    AURUM_METHOD void open() {
        while (m < n_mats && desc[2 * m + 1] == 0) m++;
        if (m < n_mats) {
            w = desc[2 * m + 1];
            r = (const u64 *)desc[2 * m] + row * w;
        }
    }
    AURUM_METHOD u64 next() {
        u64 x = gl_canonical(r[c]);
        if (++c == w) {
            m++;
            c = 0;
            open();
        }
        return x;
    }
};

// The overwrite-mode sponge without padding: Plonky3's PaddingFreeSponge and plonky2's
// hash_no_pad. Each rate-long chunk overwrites the first elements of the state, then the
// state is permuted (a last, shorter chunk too); the digest is the state's first four. Every
// state index is a compile-time constant (unrolled), so the state stays in registers.
template <class P>
AURUM_DEV void overwrite_sponge(RowReader &in, u64 total, u64 *digest) {
    u64 s[P::W];
#pragma unroll
    for (int i = 0; i < P::W; i++) s[i] = 0;
    for (u64 start = 0; start < total; start += P::RATE) {
#pragma unroll
        for (int i = 0; i < P::RATE; i++) {
            if (start + i < total) s[i] = in.next();
        }
        P::permute(s);
    }
#pragma unroll
    for (int i = 0; i < 4; i++) digest[i] = s[i];
}

// Polygon's linear_hash above four elements: blocks of 8, each zero-padded to 8, with the
// previous block's digest in the capacity (state[8..12]) from the second block on.
template <class P>
AURUM_DEV void linear_sponge(RowReader &in, u64 total, u64 *digest) {
    u64 s[12];
#pragma unroll
    for (int i = 0; i < 12; i++) s[i] = 0;
    for (u64 start = 0; start < total; start += 8) {
        if (start > 0) {
#pragma unroll
            for (int i = 0; i < 4; i++) s[8 + i] = s[i];
        }
#pragma unroll
        for (int i = 0; i < 8; i++) s[i] = start + i < total ? in.next() : 0;
        P::permute(s);
    }
#pragma unroll
    for (int i = 0; i < 4; i++) digest[i] = s[i];
}

struct OverwriteMode {
    template <class P>
    AURUM_METHOD static void hash(RowReader &in, u64 total, u64 *digest) {
        overwrite_sponge<P>(in, total, digest);
    }
};
struct LinearMode {
    template <class P>
    AURUM_METHOD static void hash(RowReader &in, u64 total, u64 *digest) {
        linear_sponge<P>(in, total, digest);
    }
};

// The leaf digest of row `row` of the matrices in `desc` (pairs: element pointer, width),
// their rows concatenated in order; `total_width` is the sum of the widths. With `SHORT_COPY`
// (plonky2's hash_or_noop, Polygon's linear_hash) a leaf of at most four elements is its own
// zero-padded digest.
template <class P, class Mode, bool SHORT_COPY>
AURUM_DEV void hash_leaf(const u64 *desc, u32 n_mats, u64 row, u64 total_width, u64 *digest) {
    RowReader in;
    in.start(desc, n_mats, row);
    if (SHORT_COPY && total_width <= 4) {
#pragma unroll
        for (int k = 0; k < 4; k++) digest[k] = (u64)k < total_width ? in.next() : 0;
        return;
    }
    Mode::template hash<P>(in, total_width, digest);
}

// The 2-to-1 compression of every preset: permute [left, right, 0, …] and keep four
// (Plonky3's TruncatedPermutation, plonky2's two_to_one).
template <class P>
AURUM_DEV void compress(const u64 *left, const u64 *right, u64 *out) {
    u64 s[P::W];
#pragma unroll
    for (int i = 0; i < 4; i++) {
        s[i] = left[i];
        s[4 + i] = right[i];
    }
#pragma unroll
    for (int i = 8; i < P::W; i++) s[i] = 0;
    P::permute(s);
#pragma unroll
    for (int i = 0; i < 4; i++) out[i] = s[i];
}
