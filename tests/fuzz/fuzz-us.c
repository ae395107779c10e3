/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: R500 fragment-shader (US) programs with arbitrary
 * inputs.  The input is an instruction stream of up to 512 slots and more
 * (a program past the instruction store), code range and offset registers
 * that may point anywhere, flow-control constants (loops that never end:
 * US_FC_INT_CONST loop counts, JUMPs backwards) and float constants
 * including NaN and Inf; vertices give the interpolated inputs.  The
 * program is loaded through GA_US_VECTOR_INDEX/DATA (reference
 * r500-3d-pipeline.md 2.9) and run by a draw.
 *
 * Input: byte 0 model; byte 1 instruction count - 1 (x 2 + 1: up to 511,
 * and count 0 run with the previous program); then u32s:
 *   US_CONFIG, US_CODE_RANGE, US_CODE_OFFSET, US_CODE_ADDR, US_FC_CTRL,
 *   US_FC_INT_CONST_0, 4 constants (x 4 floats), the instructions (6
 *   dwords each), then the vertex data (4 vertices of 8 dwords).
 * Built when 'us' is in r500_engines (hw/r500/meson.build).
 */
#include "fuzz-3d.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzHost *h = fuzz_host();
    FuzzInput in = { data, size };
    R500Chip *s = fuzz_3d_begin(h, fuzz_u8(&in));
    uint32_t insts = (fuzz_u8(&in) * 2 + 1) % 520;
    uint32_t vtx[4 * 8];

    /*
     * TODO(US merge): the register names below are Mesa's (r300_reg.h,
     * R500_ prefix dropped); use the ones the engine adds to
     * regs/r500_regs.def.
     */
    r500_reg_write(s, R_US_CONFIG, fuzz_u32(&in));
    r500_reg_write(s, R_US_CODE_RANGE, fuzz_u32(&in));
    r500_reg_write(s, R_US_CODE_OFFSET, fuzz_u32(&in));
    r500_reg_write(s, R_US_CODE_ADDR, fuzz_u32(&in));
    r500_reg_write(s, R_US_FC_CTRL, fuzz_u32(&in));
    r500_reg_write(s, R_US_FC_INT_CONST_0, fuzz_u32(&in));
    /* Constants: TYPE 1 at index 0. */
    r500_reg_write(s, R_GA_US_VECTOR_INDEX, 1u << 16);
    for (int i = 0; i < 16; i++) {
        r500_reg_write(s, R_GA_US_VECTOR_DATA, fuzz_u32(&in));
    }
    /* Instructions: TYPE 0 at index 0, six dwords each, auto-increment. */
    r500_reg_write(s, R_GA_US_VECTOR_INDEX, 0);
    for (uint32_t i = 0; i < insts * 6; i++) {
        r500_reg_write(s, R_GA_US_VECTOR_DATA, fuzz_u32(&in));
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(vtx); i++) {
        vtx[i] = fuzz_u32(&in);
    }
    fuzz_3d_draw(h, vtx, 4, 8);
    fuzz_end(h);
    return 0;
}
