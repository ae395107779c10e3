/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: texture descriptors against small VRAM.  Every field
 * of the TX registers of the units is the fuzzer's: impossible sizes
 * (2048 + the high bits, 0, NPOT with mip levels), formats valid and
 * reserved, pitches, offsets at the end of the 16 MiB VRAM or in the GTT
 * or nowhere, tiling, filters, border colours and LOD bias; a US program
 * samples each enabled unit, so every fetch is address arithmetic on
 * those values (reference r500-3d-pipeline.md 2.10, 5).
 *
 * Input: byte 0 model; then u32s: TX_ENABLE, 16 units x (TX_FILTER0,
 * TX_FILTER1, TX_FORMAT0, TX_FORMAT1, TX_FORMAT2, TX_OFFSET,
 * TX_BORDER_COLOR), 4 vertices of 8 dwords (the texture coordinates).
 * Built when 'tx' is in r500_engines (hw/r500/meson.build).
 */
#include "fuzz-3d.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzHost *h = fuzz_host();
    FuzzInput in = { data, size };
    R500Chip *s = fuzz_3d_begin(h, fuzz_u8(&in));
    uint32_t vtx[4 * 8];

    /*
     * TODO(TX merge): register names as Mesa's; use the merged .def's.
     * Load a fixed US program that samples units 0-15 with the
     * interpolated texcoord (TEX instructions, reference 3.9), from the
     * US engine's tests.
     */
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
    for (unsigned i = 0; i < G_N_ELEMENTS(vtx); i++) {
        vtx[i] = fuzz_u32(&in);
    }
    fuzz_3d_draw(h, vtx, 4, 8);
    fuzz_end(h);
    return 0;
}
