/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: texture descriptors against small VRAM.  Every field
 * of the TX registers of the 16 units is the input's: impossible sizes,
 * formats valid and reserved, pitches, offsets at the end of the 16 MiB
 * of VRAM, in the GTT or nowhere, tiling, filters, border colours, LOD
 * bias (reference r500-3d-pipeline.md 2.10, 5).  A fixed fragment
 * program samples every unit with the interpolated vertex colour as the
 * coordinates (TEX unit k: t0 -> t(k+1)), so each fetch is address
 * arithmetic on those values; the vertices come from the input too.
 *
 * Input: byte 0 model; u32s: TX_ENABLE, 16 units x (TX_FILTER0,
 * TX_FILTER1, TX_FORMAT0, TX_FORMAT1, TX_FORMAT2, TX_OFFSET,
 * TX_BORDER_COLOR); then the draw (fuzz-3d.c).
 */
#include "fuzz-3d.h"

/* TEX unit k, LD, coordinates t0.xyzw, result to t(k + 1).rgba. */
static void tex_inst(uint32_t w[6], unsigned k)
{
    w[0] = 3 | 0xFu << 11;                  /* TYPE TEX, write RGBA */
    w[1] = k << 16 | 1u << 22;              /* TEX_ID, LD */
    w[2] = 0 | 1u << 10 | 2u << 12 | 3u << 14 | (k + 1) << 16 |
           0u << 24 | 1u << 26 | 2u << 28 | 3u << 30;
    w[3] = w[4] = w[5] = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzInput in = { data, size };
    TestHost *h = fuzz_3d_begin(&in);
    R500Chip *s = &h->chip;
    T3DAlu out = {
        .out = true, .rgb_omask = 7, .alpha_omask = 1,
        .addr = { 1, 0x80, 0x80 },          /* t1, inline 0.0, 0.0 */
        .swz = { { 0, 1, 2 }, { 6, 6, 6 }, { 4, 4, 4 } },
        .aswz = { 3, 6, 4 },
    };
    uint32_t prog[17 * 6];

    for (unsigned k = 0; k < 16; k++) {
        tex_inst(prog + 6 * k, k);
    }
    t3d_us_alu(&out, prog + 6 * 16);
    t3d_us_program(h, prog, 17);
    r500_reg_write(s, R_TX_ENABLE, fuzz_u32(&in));
    for (unsigned u = 0; u < 16; u++) {
        r500_reg_write(s, R500_REGA_AT(TX_FILTER0, u), fuzz_u32(&in));
        r500_reg_write(s, R500_REGA_AT(TX_FILTER1, u), fuzz_u32(&in));
        r500_reg_write(s, R500_REGA_AT(TX_FORMAT0, u), fuzz_u32(&in));
        r500_reg_write(s, R500_REGA_AT(TX_FORMAT1, u), fuzz_u32(&in));
        r500_reg_write(s, R500_REGA_AT(TX_FORMAT2, u), fuzz_u32(&in));
        r500_reg_write(s, R500_REGA_AT(TX_OFFSET, u), fuzz_u32(&in));
        r500_reg_write(s, R500_REGA_AT(TX_BORDER_COLOR, u), fuzz_u32(&in));
    }
    fuzz_3d_draw_end(h, &in);
    return 0;
}
