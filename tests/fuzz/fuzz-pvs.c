/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: R500 vertex-shader (PVS) programs with arbitrary
 * inputs: up to 511 instructions, uploaded from 0 or from near the end of
 * the 1024-slot store (so they run past it), first/last instruction
 * fields pointing anywhere, the 16 flow-control slots (JUMPs backwards,
 * LOOPs with any count and step, JSR without return), constants with
 * NaN/Inf, and vertices of any value.  Loaded through
 * VAP_PVS_VECTOR_INDX_REG / VAP_PVS_VECTOR_DATA_REG_128 (reference
 * r500-3d-pipeline.md 2.2) and run by a draw (fuzz-3d.h).
 *
 * Input: byte 0 model; byte 1 instruction count (x 2 + 1); u32s:
 * VAP_PVS_CODE_CNTL_0, _1, VAP_PVS_CONST_CNTL, VAP_CNTL,
 * VAP_PVS_FLOW_CNTL_OPC, 16 x (ADDRS_LW, ADDRS_UW, LOOP_INDEX), 8
 * constants (x 4), the instructions (4 dwords each); then the draw.
 */
#include "fuzz-3d.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzInput in = { data, size };
    TestHost *h = fuzz_3d_begin(&in);
    R500Chip *s = &h->chip;
    uint32_t insts = fuzz_u8(&in) * 2 + 1;

    r500_reg_write(s, R_VAP_PVS_CODE_CNTL_0, fuzz_u32(&in));
    r500_reg_write(s, R_VAP_PVS_CODE_CNTL_1, fuzz_u32(&in));
    r500_reg_write(s, R_VAP_PVS_CONST_CNTL, fuzz_u32(&in));
    r500_reg_write(s, R_VAP_CNTL, fuzz_u32(&in));
    r500_reg_write(s, R_VAP_PVS_FLOW_CNTL_OPC, fuzz_u32(&in));
    for (unsigned i = 0; i < 16; i++) {
        r500_reg_write(s, R500_REGA_AT(VAP_PVS_FLOW_CNTL_ADDRS_LW, i),
                       fuzz_u32(&in));
        r500_reg_write(s, R500_REGA_AT(VAP_PVS_FLOW_CNTL_ADDRS_UW, i),
                       fuzz_u32(&in));
        r500_reg_write(s, R500_REGA_AT(VAP_PVS_FLOW_CNTL_LOOP_INDEX, i),
                       fuzz_u32(&in));
    }
    /* Constants from octword 1024; code from 0 or from 1000 (past the
     * end of the store for the longer programs). */
    r500_reg_write(s, R_VAP_PVS_VECTOR_INDX_REG, 1024);
    for (int i = 0; i < 32; i++) {
        r500_reg_write(s, R_VAP_PVS_VECTOR_DATA_REG_128, fuzz_u32(&in));
    }
    r500_reg_write(s, R_VAP_PVS_VECTOR_INDX_REG, insts & 2 ? 1000 : 0);
    for (uint32_t i = 0; i < insts * 4; i++) {
        r500_reg_write(s, R_VAP_PVS_VECTOR_DATA_REG_128, fuzz_u32(&in));
    }
    fuzz_3d_draw_end(h, &in);
    return 0;
}
