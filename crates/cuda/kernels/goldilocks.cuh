// Goldilocks arithmetic, p = 2^64 - 2^32 + 1. Compiled by NVRTC for the GPU and, in the host
// check (tests/host_kernels.rs), by the host's C++ compiler: AURUM_DEV, the 64×64 → 128-bit
// product and the carry chains below come from the prelude's choice.
//
// Two kinds of values: canonical (below p; the functions without "lazy" in their names take
// and return these) and lazy (any 64-bit x, standing for x mod p; each function says which it
// takes). The permutations keep their states lazy between rounds and make them canonical once,
// at the end.
//
// Carry chains. The functions whose work is a chain of 32-bit additions with carries (the
// product's reduction, the wide sums of the linear layers) are PTX on the device, where the
// carry flag is one instruction's output and the next one's input; C cannot say that, and a
// compiler given `s < a` compares both halves and selects, which costs twice the
// instructions. Each such function has a host version beside it that performs the same PTX
// instructions one C statement each (the gl_ptx_* helpers, with the carry flag as a variable),
// so the host check runs the device's sequence of operations.

#define GL_P 0xFFFFFFFF00000001ULL
#define GL_EPSILON 0xFFFFFFFFULL

#ifndef AURUM_PTX
// The PTX instructions the carry chains use, for the host: `cf` is the carry flag (CC.CF), set
// by the `_cc` forms to their carry (additions) or borrow (subtractions) out, and read by the
// `c` forms: addc d = a + b + CF, subc d = a − (b + CF), madc.hi d = hi(a·b) + c + CF.
static inline u32 gl_ptx_add_cc(u32 a, u32 b, u32 &cf) {
    u64 t = (u64)a + b;
    cf = (u32)(t >> 32);
    return (u32)t;
}
static inline u32 gl_ptx_addc_cc(u32 a, u32 b, u32 &cf) {
    u64 t = (u64)a + b + cf;
    cf = (u32)(t >> 32);
    return (u32)t;
}
static inline u32 gl_ptx_addc(u32 a, u32 b, u32 cf) { return a + b + cf; }
static inline u32 gl_ptx_sub_cc(u32 a, u32 b, u32 &cf) {
    cf = a < b ? 1 : 0;
    return a - b;
}
static inline u32 gl_ptx_subc_cc(u32 a, u32 b, u32 &cf) {
    u64 t = (u64)b + cf;
    u32 d = (u32)((u64)a - t);
    cf = (u64)a < t ? 1 : 0;
    return d;
}
static inline u32 gl_ptx_subc(u32 a, u32 b, u32 cf) { return a - b - cf; }
static inline u32 gl_ptx_mul_lo(u32 a, u32 b) { return (u32)((u64)a * b); }
static inline u32 gl_ptx_mul_hi(u32 a, u32 b) { return (u32)(((u64)a * b) >> 32); }
static inline u32 gl_ptx_mad_lo_cc(u32 a, u32 b, u32 c, u32 &cf) {
    return gl_ptx_add_cc(gl_ptx_mul_lo(a, b), c, cf);
}
static inline u32 gl_ptx_madc_hi_cc(u32 a, u32 b, u32 c, u32 &cf) {
    return gl_ptx_addc_cc(gl_ptx_mul_hi(a, b), c, cf);
}
static inline u32 gl_ptx_madc_hi(u32 a, u32 b, u32 c, u32 cf) {
    return gl_ptx_mul_hi(a, b) + c + cf;
}
static inline u32 gl_ptx_madc_lo_cc(u32 a, u32 b, u32 c, u32 &cf) {
    return gl_ptx_addc_cc(gl_ptx_mul_lo(a, b), c, cf);
}
#endif

// x mod p for any 64-bit x (x < 2p always holds).
AURUM_DEV u64 gl_canonical(u64 x) { return x >= GL_P ? x - GL_P : x; }

// a + b mod p. When the sum wraps past 2^64 the true sum minus p is the wrapped sum plus
// 2^32 − 1, which is what subtracting p modulo 2^64 gives; otherwise subtract p at or above p.
AURUM_DEV u64 gl_add(u64 a, u64 b) {
    u64 s = a + b;
    return (s < a || s >= GL_P) ? s - GL_P : s;
}

// a − b mod p for canonical b: canonical for canonical a, lazy for lazy a. A borrow added
// 2^64; the true difference plus p is the wrapped one minus 2^32 − 1 (and it is at least
// 2^64 − p + 1 > 2^32 − 1, so that cannot wrap).
AURUM_DEV u64 gl_sub(u64 a, u64 b) {
    u64 d = a - b;
    return a < b ? d - GL_EPSILON : d;
}

// a / 2^k mod p for 1 ≤ k ≤ 32 and lazy a, canonical: with a = h·2^k + l (l < 2^k),
// a / 2^k = h + l·2^−k, and 2^−k ≡ −(p − 1)/2^k = −2^(32−k)·(2^32 − 1), so
// a / 2^k = h − (l·2^(32−k))·(2^32 − 1), where m = l·2^(32−k) < 2^32 makes
// m·(2^32 − 1) = m·2^32 − m < p: one subtraction (h < 2^63, so the result is below p), no product.
AURUM_DEV u64 gl_div_2exp(u64 a, int k) {
    u64 h = a >> k;
    u64 m = (a & ((1ULL << k) - 1)) << (32 - k);
    return gl_sub(h, (m << 32) - m);
}

// a + b for lazy a and canonical b, lazy: a wrap past 2^64 adds back 2^32 − 1 ≡ 2^64; the sum
// is then below b < p, so that cannot wrap again.
AURUM_DEV u64 gl_add_lazy(u64 a, u64 b) {
    u64 s = a + b;
    return s < a ? s + GL_EPSILON : s;
}

// a·b for lazy a, b, lazy. The 128-bit product r3·2^96 + r2·2^64 + r1·2^32 + r0 (32-bit limbs)
// is congruent to X − r3 + r2·(2^32 − 1) with X = r1·2^32 + r0 (2^64 ≡ 2^32 − 1, 2^96 ≡ −1):
// 1. X − r3; a borrow added 2^64 ≡ 2^32 − 1, so take 2^32 − 1 off again — X was at least
//    2^64 − 2^32 + 1 then, so that cannot borrow;
// 2. + r2·(2^32 − 1) (a 32 × 32-bit product); a carry dropped 2^64 ≡ 2^32 − 1, so add it
//    back — the sum left is at most (2^32 − 1)^2 − 1 then, so that cannot carry.
#ifdef AURUM_PTX
AURUM_DEV u64 gl_mul_lazy(u64 a, u64 b) {
    u32 r0, r1, r2, r3, m;
    // Register arithmetic only: no memory, no side effects.
    asm("mul.lo.u32 %0, %6, %8;\n\t"
        "mul.hi.u32 %1, %6, %8;\n\t"
        "mul.lo.u32 %2, %7, %9;\n\t"
        "mul.hi.u32 %3, %7, %9;\n\t"
        "mad.lo.cc.u32 %1, %6, %9, %1;\n\t"
        "madc.hi.cc.u32 %2, %6, %9, %2;\n\t"
        "addc.u32 %3, %3, 0;\n\t"
        "mad.lo.cc.u32 %1, %7, %8, %1;\n\t"
        "madc.hi.cc.u32 %2, %7, %8, %2;\n\t"
        "addc.u32 %3, %3, 0;\n\t"
        "sub.cc.u32 %0, %0, %3;\n\t"
        "subc.cc.u32 %1, %1, 0;\n\t"
        "subc.u32 %4, 0, 0;\n\t"
        "sub.cc.u32 %0, %0, %4;\n\t"
        "subc.u32 %1, %1, 0;\n\t"
        "mad.lo.cc.u32 %0, %2, %5, %0;\n\t"
        "madc.hi.cc.u32 %1, %2, %5, %1;\n\t"
        "subc.u32 %4, 0, 0;\n\t"
        "add.cc.u32 %0, %0, %4;\n\t"
        "addc.u32 %1, %1, 0;"
        : "=&r"(r0), "=&r"(r1), "=&r"(r2), "=&r"(r3), "=&r"(m)
        : "r"(0xFFFFFFFFu), "r"((u32)a), "r"((u32)(a >> 32)), "r"((u32)b), "r"((u32)(b >> 32)));
    return ((u64)r1 << 32) | r0;
}
#else
AURUM_DEV u64 gl_mul_lazy(u64 a, u64 b) {
    const u32 a0 = (u32)a, a1 = (u32)(a >> 32), b0 = (u32)b, b1 = (u32)(b >> 32);
    const u32 e = 0xFFFFFFFFu;
    u32 cf, r0, r1, r2, r3, m;
    r0 = gl_ptx_mul_lo(a0, b0);
    r1 = gl_ptx_mul_hi(a0, b0);
    r2 = gl_ptx_mul_lo(a1, b1);
    r3 = gl_ptx_mul_hi(a1, b1);
    r1 = gl_ptx_mad_lo_cc(a0, b1, r1, cf);
    r2 = gl_ptx_madc_hi_cc(a0, b1, r2, cf);
    r3 = gl_ptx_addc(r3, 0, cf);
    r1 = gl_ptx_mad_lo_cc(a1, b0, r1, cf);
    r2 = gl_ptx_madc_hi_cc(a1, b0, r2, cf);
    r3 = gl_ptx_addc(r3, 0, cf);
    r0 = gl_ptx_sub_cc(r0, r3, cf);
    r1 = gl_ptx_subc_cc(r1, 0, cf);
    m = gl_ptx_subc(0, 0, cf);
    r0 = gl_ptx_sub_cc(r0, m, cf);
    r1 = gl_ptx_subc(r1, 0, cf);
    r0 = gl_ptx_mad_lo_cc(r2, e, r0, cf);
    r1 = gl_ptx_madc_hi_cc(r2, e, r1, cf);
    m = gl_ptx_subc(0, 0, cf);
    r0 = gl_ptx_add_cc(r0, m, cf);
    r1 = gl_ptx_addc(r1, 0, cf);
    return ((u64)r1 << 32) | r0;
}
#endif

// a·b mod p for lazy a, b, canonical.
AURUM_DEV u64 gl_mul(u64 a, u64 b) { return gl_canonical(gl_mul_lazy(a, b)); }

// x^7 for lazy x, lazy: the S-box of both permutations.
AURUM_DEV u64 gl_pow7_lazy(u64 x) {
    u64 x2 = gl_mul_lazy(x, x);
    u64 x3 = gl_mul_lazy(x2, x);
    u64 x4 = gl_mul_lazy(x2, x2);
    return gl_mul_lazy(x3, x4);
}

// A sum of lazy values kept exact: lo + hi·2^64, for the linear layers, which add a few terms
// with small coefficients and reduce each result once (gl_fold). hi stays far below 2^32.
struct gl_wide {
    u64 lo;
    u32 hi;
};

// (lo + hi·2^64) mod p for hi ≤ 2^32 − 2, lazy: lo + hi·(2^32 − 1) (2^64 ≡ 2^32 − 1), and a carry
// past 2^64 added back as 2^32 − 1 — what is left after the carry is at most
// hi·(2^32 − 1) − 1 < 2^64 − 2^32, so that cannot carry again.
#ifdef AURUM_PTX
AURUM_DEV u64 gl_fold(gl_wide w) {
    u32 r0, r1, m;
    // Register arithmetic only.
    asm("mad.lo.cc.u32 %0, %3, %6, %4;\n\t"
        "madc.hi.cc.u32 %1, %3, %6, %5;\n\t"
        "subc.u32 %2, 0, 0;\n\t"
        "add.cc.u32 %0, %0, %2;\n\t"
        "addc.u32 %1, %1, 0;"
        : "=&r"(r0), "=&r"(r1), "=&r"(m)
        : "r"(w.hi), "r"((u32)w.lo), "r"((u32)(w.lo >> 32)), "r"(0xFFFFFFFFu));
    return ((u64)r1 << 32) | r0;
}
#else
AURUM_DEV u64 gl_fold(gl_wide w) {
    const u32 e = 0xFFFFFFFFu;
    u32 cf, r0, r1, m;
    r0 = gl_ptx_mad_lo_cc(w.hi, e, (u32)w.lo, cf);
    r1 = gl_ptx_madc_hi_cc(w.hi, e, (u32)(w.lo >> 32), cf);
    m = gl_ptx_subc(0, 0, cf);
    r0 = gl_ptx_add_cc(r0, m, cf);
    r1 = gl_ptx_addc(r1, 0, cf);
    return ((u64)r1 << 32) | r0;
}
#endif


// a + b exactly (the sum's hi below 2^32).
#ifdef AURUM_PTX
AURUM_DEV gl_wide gl_wide_add(gl_wide a, gl_wide b) {
    u32 r0, r1;
    gl_wide w;
    // Register arithmetic only.
    asm("add.cc.u32 %0, %3, %6;\n\t"
        "addc.cc.u32 %1, %4, %7;\n\t"
        "addc.u32 %2, %5, %8;"
        : "=&r"(r0), "=&r"(r1), "=r"(w.hi)
        : "r"((u32)a.lo), "r"((u32)(a.lo >> 32)), "r"(a.hi), "r"((u32)b.lo),
          "r"((u32)(b.lo >> 32)), "r"(b.hi));
    w.lo = ((u64)r1 << 32) | r0;
    return w;
}
#else
AURUM_DEV gl_wide gl_wide_add(gl_wide a, gl_wide b) {
    u32 cf, r0, r1;
    gl_wide w;
    r0 = gl_ptx_add_cc((u32)a.lo, (u32)b.lo, cf);
    r1 = gl_ptx_addc_cc((u32)(a.lo >> 32), (u32)(b.lo >> 32), cf);
    w.hi = gl_ptx_addc(a.hi, b.hi, cf);
    w.lo = ((u64)r1 << 32) | r0;
    return w;
}
#endif

// a + x exactly.
AURUM_DEV gl_wide gl_wide_add(gl_wide a, u64 x) { return gl_wide_add(a, gl_wide{x, 0}); }

// a + b exactly, for lazy a, b.
AURUM_DEV gl_wide gl_wide_of(u64 a, u64 b) { return gl_wide_add(gl_wide{a, 0}, gl_wide{b, 0}); }

// s + n·x exactly, for lazy s, x and n < 2^32 − 2: s + n·x0 + n·x1·2^32 (x = x1·2^32 + x0), the
// 32 × 32-bit products' halves added with carries. hi ≤ n.
#ifdef AURUM_PTX
AURUM_DEV gl_wide gl_mac_wide(u64 s, u64 x, u32 n) {
    u32 r0, r1, r2;
    // Register arithmetic only.
    asm("mad.lo.cc.u32 %0, %5, %7, %3;\n\t"
        "madc.hi.cc.u32 %1, %5, %7, %4;\n\t"
        "madc.hi.u32 %2, %6, %7, 0;\n\t"
        "mad.lo.cc.u32 %1, %6, %7, %1;\n\t"
        "addc.u32 %2, %2, 0;"
        : "=&r"(r0), "=&r"(r1), "=&r"(r2)
        : "r"((u32)s), "r"((u32)(s >> 32)), "r"((u32)x), "r"((u32)(x >> 32)), "r"(n));
    return gl_wide{((u64)r1 << 32) | r0, r2};
}
#else
AURUM_DEV gl_wide gl_mac_wide(u64 s, u64 x, u32 n) {
    const u32 x0 = (u32)x, x1 = (u32)(x >> 32);
    u32 cf, r0, r1, r2;
    r0 = gl_ptx_mad_lo_cc(x0, n, (u32)s, cf);
    r1 = gl_ptx_madc_hi_cc(x0, n, (u32)(s >> 32), cf);
    r2 = gl_ptx_madc_hi(x1, n, 0, cf);
    r1 = gl_ptx_mad_lo_cc(x1, n, r1, cf);
    r2 = gl_ptx_addc(r2, 0, cf);
    return gl_wide{((u64)r1 << 32) | r0, r2};
}
#endif

// −x for lazy x, lazy: p − x; a borrow (x > p) added 2^64 ≡ 2^32 − 1, so take that off — the
// difference was at least p + 1 then, so that cannot borrow.
#ifdef AURUM_PTX
AURUM_DEV u64 gl_neg_lazy(u64 x) {
    u32 r0, r1, m;
    // Register arithmetic only.
    asm("sub.cc.u32 %0, %5, %3;\n\t"
        "subc.cc.u32 %1, %6, %4;\n\t"
        "subc.u32 %2, 0, 0;\n\t"
        "sub.cc.u32 %0, %0, %2;\n\t"
        "subc.u32 %1, %1, 0;"
        : "=&r"(r0), "=&r"(r1), "=&r"(m)
        : "r"((u32)x), "r"((u32)(x >> 32)), "r"(1u), "r"(0xFFFFFFFFu));
    return ((u64)r1 << 32) | r0;
}
#else
AURUM_DEV u64 gl_neg_lazy(u64 x) {
    u32 cf, r0, r1, m;
    r0 = gl_ptx_sub_cc(1u, (u32)x, cf);
    r1 = gl_ptx_subc_cc(0xFFFFFFFFu, (u32)(x >> 32), cf);
    m = gl_ptx_subc(0, 0, cf);
    r0 = gl_ptx_sub_cc(r0, m, cf);
    r1 = gl_ptx_subc(r1, 0, cf);
    return ((u64)r1 << 32) | r0;
}
#endif

// A sum of full products kept exact, for dot products with general (64-bit) coefficients:
// r0 + r1·2^32 + r2·2^64 + r3·2^96 + r4·2^128, r4 counting the carries past 2^128 (below the
// number of products added, which gl_acc_reduce wants below 2^31).
struct gl_acc {
    u32 r0, r1, r2, r3, r4;
};

// The accumulator holding lazy x.
AURUM_DEV gl_acc gl_acc_of(u64 x) { return gl_acc{(u32)x, (u32)(x >> 32), 0, 0, 0}; }

// acc + a·b exactly, for lazy a, b: the four 32 × 32-bit products added into their limbs with
// carries, a0·b0 and a1·b1 in one chain (they share no limb), then a0·b1 and a1·b0, each
// carrying up into r4.
#ifdef AURUM_PTX
AURUM_DEV gl_acc gl_acc_mac(gl_acc acc, u64 a, u64 b) {
    // Register arithmetic only.
    asm("mad.lo.cc.u32 %0, %5, %7, %0;\n\t"
        "madc.hi.cc.u32 %1, %5, %7, %1;\n\t"
        "madc.lo.cc.u32 %2, %6, %8, %2;\n\t"
        "madc.hi.cc.u32 %3, %6, %8, %3;\n\t"
        "addc.u32 %4, %4, 0;\n\t"
        "mad.lo.cc.u32 %1, %5, %8, %1;\n\t"
        "madc.hi.cc.u32 %2, %5, %8, %2;\n\t"
        "addc.cc.u32 %3, %3, 0;\n\t"
        "addc.u32 %4, %4, 0;\n\t"
        "mad.lo.cc.u32 %1, %6, %7, %1;\n\t"
        "madc.hi.cc.u32 %2, %6, %7, %2;\n\t"
        "addc.cc.u32 %3, %3, 0;\n\t"
        "addc.u32 %4, %4, 0;"
        : "+r"(acc.r0), "+r"(acc.r1), "+r"(acc.r2), "+r"(acc.r3), "+r"(acc.r4)
        : "r"((u32)a), "r"((u32)(a >> 32)), "r"((u32)b), "r"((u32)(b >> 32)));
    return acc;
}
#else
AURUM_DEV gl_acc gl_acc_mac(gl_acc acc, u64 a, u64 b) {
    const u32 a0 = (u32)a, a1 = (u32)(a >> 32), b0 = (u32)b, b1 = (u32)(b >> 32);
    u32 cf;
    acc.r0 = gl_ptx_mad_lo_cc(a0, b0, acc.r0, cf);
    acc.r1 = gl_ptx_madc_hi_cc(a0, b0, acc.r1, cf);
    acc.r2 = gl_ptx_madc_lo_cc(a1, b1, acc.r2, cf);
    acc.r3 = gl_ptx_madc_hi_cc(a1, b1, acc.r3, cf);
    acc.r4 = gl_ptx_addc(acc.r4, 0, cf);
    acc.r1 = gl_ptx_mad_lo_cc(a0, b1, acc.r1, cf);
    acc.r2 = gl_ptx_madc_hi_cc(a0, b1, acc.r2, cf);
    acc.r3 = gl_ptx_addc_cc(acc.r3, 0, cf);
    acc.r4 = gl_ptx_addc(acc.r4, 0, cf);
    acc.r1 = gl_ptx_mad_lo_cc(a1, b0, acc.r1, cf);
    acc.r2 = gl_ptx_madc_hi_cc(a1, b0, acc.r2, cf);
    acc.r3 = gl_ptx_addc_cc(acc.r3, 0, cf);
    acc.r4 = gl_ptx_addc(acc.r4, 0, cf);
    return acc;
}
#endif

// acc mod p, lazy, as gl_mul_lazy reduces its product: with X = r1·2^32 + r0 and
// T = r4·2^32 + r3 (2^96 ≡ −1, 2^128 ≡ −2^32), acc ≡ X − T + r2·(2^32 − 1).
// 1. X − T; a borrow added 2^64 ≡ 2^32 − 1, so take 2^32 − 1 off again — what a borrow leaves
//    is above 2^64 − T > 2^63 (r4 < 2^31), so that cannot borrow;
// 2. + r2·(2^32 − 1); a carry dropped 2^64 ≡ 2^32 − 1, so add it back — the sum left is at
//    most (2^32 − 1)^2 − 1 then, so that cannot carry.
#ifdef AURUM_PTX
AURUM_DEV u64 gl_acc_reduce(gl_acc acc) {
    u32 r0, r1, m;
    // Register arithmetic only.
    asm("sub.cc.u32 %0, %3, %6;\n\t"
        "subc.cc.u32 %1, %4, %7;\n\t"
        "subc.u32 %2, 0, 0;\n\t"
        "sub.cc.u32 %0, %0, %2;\n\t"
        "subc.u32 %1, %1, 0;\n\t"
        "mad.lo.cc.u32 %0, %5, %8, %0;\n\t"
        "madc.hi.cc.u32 %1, %5, %8, %1;\n\t"
        "subc.u32 %2, 0, 0;\n\t"
        "add.cc.u32 %0, %0, %2;\n\t"
        "addc.u32 %1, %1, 0;"
        : "=&r"(r0), "=&r"(r1), "=&r"(m)
        : "r"(acc.r0), "r"(acc.r1), "r"(acc.r2), "r"(acc.r3), "r"(acc.r4), "r"(0xFFFFFFFFu));
    return ((u64)r1 << 32) | r0;
}
#else
AURUM_DEV u64 gl_acc_reduce(gl_acc acc) {
    const u32 e = 0xFFFFFFFFu;
    u32 cf, r0, r1, m;
    r0 = gl_ptx_sub_cc(acc.r0, acc.r3, cf);
    r1 = gl_ptx_subc_cc(acc.r1, acc.r4, cf);
    m = gl_ptx_subc(0, 0, cf);
    r0 = gl_ptx_sub_cc(r0, m, cf);
    r1 = gl_ptx_subc(r1, 0, cf);
    r0 = gl_ptx_mad_lo_cc(acc.r2, e, r0, cf);
    r1 = gl_ptx_madc_hi_cc(acc.r2, e, r1, cf);
    m = gl_ptx_subc(0, 0, cf);
    r0 = gl_ptx_add_cc(r0, m, cf);
    r1 = gl_ptx_addc(r1, 0, cf);
    return ((u64)r1 << 32) | r0;
}
#endif

// The sum of n ≤ 16 lazy values, lazy: one exact sum, one fold.
AURUM_DEV u64 gl_sum_lazy(const u64 *x, int n) {
    gl_wide w = gl_wide_of(x[0], x[1]);
#pragma unroll
    for (int i = 2; i < n; i++) w = gl_wide_add(w, x[i]);
    return gl_fold(w);
}

// x^(2^k) for lazy x, canonical.
AURUM_DEV u64 gl_square_n(u64 x, int k) {
    for (int i = 0; i < k; i++) x = gl_mul_lazy(x, x);
    return gl_canonical(x);
}

// 1/x = x^(p − 2) for lazy x (0 for 0), canonical. p − 2 = (2^31 − 1)·2^33 + (2^32 − 1), and
// x^(2^32 − 1) = (x^(2^31 − 1))^2 · x: an addition chain of 2^k − 1 exponents to 2^31 − 1
// (30 squarings, 7 products), then 34 squarings and 2 products.
AURUM_DEV u64 gl_inverse(u64 x) {
    const u64 t2 = gl_mul(gl_square_n(x, 1), x);        // 2^2 − 1
    const u64 t3 = gl_mul(gl_square_n(t2, 1), x);       // 2^3 − 1
    const u64 t6 = gl_mul(gl_square_n(t3, 3), t3);      // 2^6 − 1
    const u64 t12 = gl_mul(gl_square_n(t6, 6), t6);     // 2^12 − 1
    const u64 t24 = gl_mul(gl_square_n(t12, 12), t12);  // 2^24 − 1
    const u64 t30 = gl_mul(gl_square_n(t24, 6), t6);    // 2^30 − 1
    const u64 t31 = gl_mul(gl_square_n(t30, 1), x);     // 2^31 − 1
    const u64 t32 = gl_mul(gl_square_n(t31, 1), x);     // 2^32 − 1
    return gl_mul(gl_square_n(t31, 33), t32);
}

// The quadratic extension: a0 + a1·X with X² = 7 (Goldilocks2 on the CPU), as word pairs.
// (a0 + a1·X)·(b0 + b1·X), canonical.
AURUM_DEV void ext_mul(u64 a0, u64 a1, u64 b0, u64 b1, u64 *r0, u64 *r1) {
    *r0 = gl_add(gl_mul(a0, b0), gl_mul(gl_mul(a1, b1), 7));
    *r1 = gl_add(gl_mul(a0, b1), gl_mul(a1, b0));
}
