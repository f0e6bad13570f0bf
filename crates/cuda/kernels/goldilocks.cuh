// Goldilocks arithmetic, p = 2^64 - 2^32 + 1, on canonical values (every function takes and
// returns values below p). Compiled by NVRTC for the GPU and, in the host check
// (tests/host_kernels.rs), by the host's C++ compiler: AURUM_DEV and the 64×64 → 128-bit
// product are the only differences, and both come from the prelude.

#define GL_P 0xFFFFFFFF00000001ULL
#define GL_EPSILON 0xFFFFFFFFULL

// x mod p for any 64-bit x (x < 2p always holds).
AURUM_DEV u64 gl_canonical(u64 x) { return x >= GL_P ? x - GL_P : x; }

// a + b mod p. When the sum wraps past 2^64 the true sum minus p is the wrapped sum plus
// 2^32 − 1, which is what subtracting p modulo 2^64 gives; otherwise subtract p at or above p.
AURUM_DEV u64 gl_add(u64 a, u64 b) {
    u64 s = a + b;
    return (s < a || s >= GL_P) ? s - GL_P : s;
}

// a − b mod p. A borrow added 2^64; the true difference plus p is the wrapped one minus
// 2^32 − 1 (and it is at least 2^64 − p + 1 > 2^32 − 1, so that cannot wrap).
AURUM_DEV u64 gl_sub(u64 a, u64 b) {
    u64 d = a - b;
    return a < b ? d - GL_EPSILON : d;
}

// a / 2^k mod p for 1 ≤ k ≤ 32: with a = h·2^k + l (l < 2^k), a / 2^k = h + l·2^−k, and
// 2^−k ≡ −(p − 1)/2^k = −2^(32−k)·(2^32 − 1), so a / 2^k = h − (l·2^(32−k))·(2^32 − 1), where
// m = l·2^(32−k) < 2^32 makes m·(2^32 − 1) = m·2^32 − m < p: one subtraction, no product.
AURUM_DEV u64 gl_div_2exp(u64 a, int k) {
    u64 h = a >> k;
    u64 m = (a & ((1ULL << k) - 1)) << (32 - k);
    return gl_sub(h, (m << 32) - m);
}

// 2a mod p.
AURUM_DEV u64 gl_double(u64 a) { return gl_add(a, a); }

// a + b for canonical a, b, as a 64-bit value congruent to it (not always below p): a wrap
// past 2^64 adds back 2^32 − 1 ≡ 2^64; the sum is then below 2^64 − 2^32 + 2, so that cannot
// wrap again. For inputs of a multiplication, which takes any 64-bit value.
AURUM_DEV u64 gl_add_lazy(u64 a, u64 b) {
    u64 s = a + b;
    return s < a ? s + GL_EPSILON : s;
}

// The 128-bit value hi·2^64 + lo mod p, using 2^64 ≡ 2^32 − 1 and 2^96 ≡ −1, as a 64-bit
// value congruent to it (not always below p).
AURUM_DEV u64 gl_reduce128_lazy(u64 lo, u64 hi) {
    u64 hi_hi = hi >> 32;
    u64 hi_lo = hi & GL_EPSILON;
    u64 t0 = lo - hi_hi;
    // A borrow added 2^64 ≡ 2^32 − 1: take it back. t0 ≥ 2^64 − 2^32 then, so no underflow.
    if (lo < hi_hi) t0 -= GL_EPSILON;
    u64 t1 = hi_lo * GL_EPSILON;
    u64 t2 = t0 + t1;
    // A carry dropped 2^64 ≡ 2^32 − 1: add it back. t1 ≤ (2^32 − 1)^2, so this cannot wrap.
    if (t2 < t1) t2 += GL_EPSILON;
    return t2;
}

// The same, canonical.
AURUM_DEV u64 gl_reduce128(u64 lo, u64 hi) { return gl_canonical(gl_reduce128_lazy(lo, hi)); }

// a·b for any 64-bit a, b, as a 64-bit value congruent to it (not always below p).
AURUM_DEV u64 gl_mul_lazy(u64 a, u64 b) { return gl_reduce128_lazy(a * b, AURUM_MULHI(a, b)); }

// a·b mod p (any 64-bit a, b).
AURUM_DEV u64 gl_mul(u64 a, u64 b) { return gl_canonical(gl_mul_lazy(a, b)); }

// x^7 mod p for any 64-bit x, the S-box of both permutations: the products in between need
// not be canonical, only the result is.
AURUM_DEV u64 gl_pow7(u64 x) {
    u64 x2 = gl_mul_lazy(x, x);
    u64 x3 = gl_mul_lazy(x2, x);
    u64 x4 = gl_mul_lazy(x2, x2);
    return gl_mul(x3, x4);
}

// The sum of n ≤ 16 canonical values mod p, with one reduction: the wraps past 2^64 are
// counted (each is 2^64 ≡ 2^32 − 1) and added back at the end. Their total is below 2^36, so
// if adding it wraps, what is left is below 2^36 and adding 2^32 − 1 cannot wrap again.
AURUM_DEV u64 gl_sum(const u64 *x, int n) {
    u64 lo = x[0];
    u64 wraps = 0;
#pragma unroll
    for (int i = 1; i < n; i++) {
        lo += x[i];
        wraps += lo < x[i] ? 1 : 0;
    }
    return gl_canonical(gl_add_lazy(lo, wraps * GL_EPSILON));
}
