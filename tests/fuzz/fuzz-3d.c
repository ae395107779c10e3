/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <string.h>

#include "fuzz-3d.h"
#include "../qtest/r500-driver-seq.h"

/*
 * One test host per model, made at its first input and reused after a
 * reset (test_host_reuse(): the chip as new, what it wrote cleaned), so
 * the 32 MiB of VRAM and RAM, and a renderer's thread and context, are
 * made once per model rather than per input.
 */
TestHost *fuzz_3d_begin(FuzzInput *in)
{
    static TestHost *hosts[R500_MODEL__COUNT];
    unsigned m = fuzz_u8(in) % R500_MODEL__COUNT;

    if (hosts[m]) {
        test_host_reuse(hosts[m]);
    } else {
        hosts[m] = test_host_new(m, 16);
    }
    t3d_setup(hosts[m]);
    return hosts[m];
}

/*
 * The pipeline byte's state (3d-format.h), written over t3d_setup()'s
 * window-space set-up.  The TCL state is what a driver with hardware TCL
 * programs, and what the host-GL renderer's vertex stage takes
 * (gl/gl_vertex.c vtx_state()).
 */
static void fuzz_3d_pipeline(R500Chip *s, FuzzInput *in)
{
    uint8_t p = fuzz_u8(in);

    if (p & FUZZ_3D_TCL) {
        r500_seq_3d_tcl(r500_seq_chip_w, s, T3D_W, T3D_H, p & FUZZ_3D_FLIP);
    }
    r500_reg_write(s, R_SU_CULL_MODE, (p & FUZZ_3D_CULL) >> 2);
    if (p & FUZZ_3D_VPORT) {
        /* any values: NaN, fractions, past GL's viewport bounds */
        r500_reg_write(s, R_SE_VPORT_XSCALE, fuzz_u32(in));
        r500_reg_write(s, R_SE_VPORT_XOFFSET, fuzz_u32(in));
        r500_reg_write(s, R_SE_VPORT_YSCALE, fuzz_u32(in));
        r500_reg_write(s, R_SE_VPORT_YOFFSET, fuzz_u32(in));
    }
    if (p & FUZZ_3D_UCP) {
        /* user clip plane 0, of the input's coefficients */
        r500_reg_write(s, R_VAP_PVS_VECTOR_INDX_REG, R500_PVS_UCP_BASE);
        for (int i = 0; i < 4; i++) {
            r500_reg_write(s, R_VAP_PVS_VECTOR_DATA_REG_128, fuzz_u32(in));
        }
        r500_reg_write(s, R_VAP_CLIP_CNTL,
                       R500_FSET(s->regs[R_VAP_CLIP_CNTL / 4], VAP_CLIP_CNTL,
                                 UCP_ENA, 1));
    }
    if (p & FUZZ_3D_ZB) {
        /* a depth buffer of the input's format and tests at T3D_ZB */
        r500_reg_write(s, R_ZB_DEPTHOFFSET, T3D_ZB);
        r500_reg_write(s, R_ZB_DEPTHPITCH, T3D_W);
        r500_reg_write(s, R_ZB_FORMAT, fuzz_u32(in));
        r500_reg_write(s, R_ZB_CNTL, fuzz_u32(in));
        r500_reg_write(s, R_ZB_ZSTENCILCNTL, fuzz_u32(in));
        r500_reg_write(s, R_ZB_STENCILREFMASK, fuzz_u32(in));
    }
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
    fuzz_3d_pipeline(&h->chip, in);
    if (prim != 11) {
        t3d_draw(h, prim, v, n);
    }
    /* the end of the run: what gl holds goes to memory (r500.c) */
    r500_pipe_sync(&h->chip, R500_SYNC_IDLE);
    fuzz_gl_tally(&h->chip);
}
