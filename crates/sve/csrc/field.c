/* Bulk Goldilocks arithmetic over slices, and the vector length. */
#include "goldilocks.h"

/* 64-bit lanes per vector (the vector length / 64). */
size_t AURUM_FN(lanes)(void) { return svcntd(); }

/* out[i] = a[i] op b[i] for i < n, canonical results. `out` may alias `a` or `b`. */
#define AURUM_BINARY(name, op)                                                          \
    void AURUM_FN(name)(const uint64_t *a, const uint64_t *b, uint64_t *out, size_t n) { \
        for (size_t i = 0; i < n; i += svcntd()) {                                       \
            svbool_t pg = svwhilelt_b64_u64(i, n);                                       \
            gl_t x = svld1_u64(pg, a + i);                                               \
            gl_t y = svld1_u64(pg, b + i);                                               \
            svst1_u64(pg, out + i, gl_canon(op(x, y)));                                  \
        }                                                                                \
    }

AURUM_BINARY(add_slices, gl_add)
AURUM_BINARY(sub_slices, gl_sub)
AURUM_BINARY(mul_slices, gl_mul)
