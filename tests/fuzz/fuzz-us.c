/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: R500 fragment-shader (US) programs with arbitrary
 * inputs.  The input is an instruction stream of up to 520 slots (past
 * the 512 of the store), code range, offset and address registers that
 * may point anywhere, flow control (US_FC_CTRL, loop constants: loops
 * without end, JUMPs backwards), float constants including NaN and Inf;
 * the vertices give the interpolated inputs.  The program is loaded
 * through GA_US_VECTOR_INDEX/DATA (reference r500-3d-pipeline.md 2.9) and
 * run by a draw of the unit tests' 3D set-up (fuzz-3d.h).
 *
 * Input: byte 0 model; byte 1 instruction count (x 2 + 1, modulo 520);
 * u32s: US_CONFIG, US_CODE_RANGE, US_CODE_OFFSET, US_CODE_ADDR,
 * US_FC_CTRL, US_FC_BOOL_CONST, US_FC_INT_CONST_0/1, 4 constants of 4
 * floats, the instructions (6 dwords each); then the draw (fuzz-3d.c).
 */
#include "fuzz-3d.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzInput in = { data, size };
    TestHost *h = fuzz_3d_begin(&in);
    R500Chip *s = &h->chip;
    uint32_t insts = (fuzz_u8(&in) * 2 + 1) % 520;

    r500_reg_write(s, R_US_CONFIG, fuzz_u32(&in));
    r500_reg_write(s, R_US_CODE_RANGE, fuzz_u32(&in));
    r500_reg_write(s, R_US_CODE_OFFSET, fuzz_u32(&in));
    r500_reg_write(s, R_US_CODE_ADDR, fuzz_u32(&in));
    r500_reg_write(s, R_US_FC_CTRL, fuzz_u32(&in));
    r500_reg_write(s, R_US_FC_BOOL_CONST, fuzz_u32(&in));
    r500_reg_write(s, R500_REGA_AT(US_FC_INT_CONST, 0), fuzz_u32(&in));
    r500_reg_write(s, R500_REGA_AT(US_FC_INT_CONST, 1), fuzz_u32(&in));
    /* Constants: TYPE 1 at index 0, four floats each. */
    r500_reg_write(s, R_GA_US_VECTOR_INDEX, 1u << 16);
    for (int i = 0; i < 16; i++) {
        r500_reg_write(s, R_GA_US_VECTOR_DATA, fuzz_u32(&in));
    }
    /* Instructions: TYPE 0 at index 0, six dwords each, auto-increment. */
    r500_reg_write(s, R_GA_US_VECTOR_INDEX, 0);
    for (uint32_t i = 0; i < insts * 6; i++) {
        r500_reg_write(s, R_GA_US_VECTOR_DATA, fuzz_u32(&in));
    }
    fuzz_3d_draw_end(h, &in);
    return 0;
}
