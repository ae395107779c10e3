/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <string.h>

#include "fuzz-3d.h"

TestHost *fuzz_3d_begin(FuzzInput *in)
{
    TestHost *h = test_host_new(fuzz_u8(in) % R500_MODEL__COUNT, 16);

    t3d_setup(h);
    return h;
}

void fuzz_3d_draw_end(TestHost *h, FuzzInput *in)
{
    /* VAP_VF_CNTL.PRIM_TYPE 1..15 (11 is reserved: the CP refuses it). */
    unsigned prim = 1 + fuzz_u8(in) % 15;
    unsigned n = 1 + fuzz_u8(in) % 8;
    float v[8 * 8];

    for (unsigned i = 0; i < 8 * n; i++) {
        uint32_t bits = fuzz_u32(in);

        memcpy(&v[i], &bits, 4);
    }
    if (prim != 11) {
        t3d_draw(h, prim, v, n);
    }
    test_host_free(h);
}
