/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the 2D engine through its registers.  Every record is
 * one register write from the list below (the engine's whole programming
 * interface: datatypes, ROP, directions, surfaces, clip, colours, brush,
 * host data, the triggers), so nearly every input starts operations with
 * hostile pitches, offsets near and past the end of VRAM or in the GTT,
 * coordinates that wrap, reversed directions and half-fed host-data blits.
 * Operations queue in the engine's FIFO: a "run" record draws 1-8 slices
 * of them (so registers, resets and host data meet half-drawn work), and
 * whatever is left is drawn at the end.
 *
 * Input: byte 0 picks the model (bits 1:0) and whether the GART table is
 * in guest RAM (bit 2); then records of a selector byte and a u32 value.
 */
#include "fuzz-host.h"

/* Not a register: run the chip for 1 + (value & 7) slices. */
#define RB2D_RUN    UINT32_MAX
/* Enough slices to drain a FIFO of operations as large as VRAM. */
#define RB2D_DRAIN  1024

static const uint32_t rb2d_regs[] = {
    R_DP_GUI_MASTER_CNTL, R_DP_DATATYPE, R_DP_MIX, R_DP_CNTL,
    R_DP_WRITE_MASK, R_DST_PITCH_OFFSET, R_SRC_PITCH_OFFSET,
    R_DEFAULT_PITCH_OFFSET, R_SC_TOP_LEFT, R_SC_BOTTOM_RIGHT,
    R_DEFAULT_SC_BOTTOM_RIGHT, R_SRC_SC_BOTTOM_RIGHT, R_SRC_Y_X, R_DST_Y_X,
    R_SRC_X_Y, R_DST_X_Y, R_DST_HEIGHT_WIDTH, R_DST_WIDTH_HEIGHT,
    R_DP_BRUSH_FRGD_CLR, R_DP_BRUSH_BKGD_CLR, R_DP_SRC_FRGD_CLR,
    R_DP_SRC_BKGD_CLR, R_BRUSH_Y_X, R500_REGA_AT(BRUSH_DATA, 0),
    R500_REGA_AT(BRUSH_DATA, 1), R_CLR_CMP_CNTL, R_HOST_DATA,
    R500_REGA_AT(HOST_DATA, 1), R500_REGA_AT(HOST_DATA, 7),
    R_HOST_DATA_LAST, R_RBBM_SOFT_RESET, R_RBBM_GUICNTL,
    R_DST_OFFSET, R_DST_PITCH,
    RB2D_RUN,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzHost *h = fuzz_host();
    FuzzInput in = { data, size };
    uint8_t flags = fuzz_u8(&in);
    R500Chip *s = fuzz_begin(h, flags & 3);

    fuzz_gart_enable(s, flags & 4);
    while (fuzz_more(&in)) {
        uint32_t reg = rb2d_regs[fuzz_u8(&in) % G_N_ELEMENTS(rb2d_regs)];
        uint32_t v = fuzz_u32(&in);

        if (reg == RB2D_RUN) {
            fuzz_run(h, 1 + (v & 7));
        } else {
            r500_reg_write(s, reg, v);
        }
    }
    for (unsigned i = 0; i < RB2D_DRAIN && r500_rb2d_busy(s); i++) {
        fuzz_run(h, 1);
    }
    fuzz_end(h);
    return 0;
}
