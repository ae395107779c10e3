/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <string.h>

#include "fuzz-3d.h"
#include "pm4-format.h"

R500Chip *fuzz_3d_begin(FuzzHost *h, R500Model model)
{
    R500Chip *s = fuzz_begin(h, model);

    fuzz_gart_enable(s, false);
    fuzz_cp_init(s, PM4_RING_GTT, 12, PM4_WB_GTT);
    /*
     * TODO(3D merge): the smallest state that makes a draw reach the
     * shaders: RB3D_COLOROFFSET0/COLORPITCH0 = FUZZ_3D_RT, 64 pixels,
     * ARGB8888; viewport scale/offset to 64x64; VAP_PROG_STREAM_CNTL and
     * VAP_VTX_STATE for one float4 position; RS_COUNT/RS_INST routing one
     * texcoord; US_OUT_FMT_0; ZB off.  Take them from the engines' own
     * unit tests (one helper, not a copy).
     */
    return s;
}

void fuzz_3d_draw(FuzzHost *h, const uint32_t *vtx, uint32_t n,
                  uint32_t vtx_dwords)
{
    R500Chip *s = &h->chip;
    uint32_t ring[4 + 4096];
    uint32_t len = 0;

    n = MIN(n, (G_N_ELEMENTS(ring) - 4) / MAX(vtx_dwords, 1));
    ring[len++] = PM4_PACKET0(R_VAP_VTX_SIZE, 0);
    ring[len++] = vtx_dwords;
    ring[len++] = PM4_PACKET3(0x35, n * vtx_dwords);    /* 3D_DRAW_IMMD_2 */
    /* Triangle strip, vertex data in the packet, n vertices. */
    ring[len++] = R500_FSET(R500_FSET(R500_FSET(0, VAP_VF_CNTL, PRIM_TYPE, 6),
                                      VAP_VF_CNTL, PRIM_WALK, 3),
                            VAP_VF_CNTL, NUM_VERTICES, n);
    memcpy(ring + len, vtx, 4ull * n * vtx_dwords);
    len += n * vtx_dwords;
    fuzz_mc_put(h, PM4_RING_GTT, ring, len);
    r500_reg_write(s, R_CP_RB_WPTR, len);
    fuzz_run(h, 64);
}
