/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The four pixels of a 2x2 quad side by side: the per-quad engines (US,
 * RB) work on one channel of a quad at a time.
 */
#ifndef HW_R500_V4_H
#define HW_R500_V4_H

#include <stdint.h>
#include <string.h>

/*
 * One channel of the quad as a vector of four floats (GCC/clang vector
 * extensions: one SSE or NEON instruction per operation where the host
 * has them, four scalar ones elsewhere).  Every lane does exactly the
 * IEEE operation the scalar code would, so results are bit-identical.
 */
typedef float V4 __attribute__((vector_size(16)));
typedef int32_t V4i __attribute__((vector_size(16)));

static inline V4 ld4(const float *p)
{
    V4 v;

    memcpy(&v, p, sizeof(v));
    return v;
}

static inline void st4(float *p, V4 v)
{
    memcpy(p, &v, sizeof(v));
}

static inline V4 splat(float f)
{
    return (V4){ f, f, f, f };
}

/* mask ? a : b, lane by lane (mask lanes all ones or all zeros) */
static inline V4 sel4(V4i mask, V4 a, V4 b)
{
    return (V4)(((V4i)a & mask) | ((V4i)b & ~mask));
}

/* v > 1 ? 1 : v > 0 ? v : 0 (NaN -> 0), lane by lane */
static inline V4 clamp4(V4 v)
{
    return sel4(v > 1.0f, splat(1.0f), sel4(v > 0.0f, v, splat(0.0f)));
}

#endif
