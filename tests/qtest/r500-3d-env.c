/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * 3D state for the qtests: see r500-3d-env.h.  The state itself is
 * r500-3d-state.h, shared with the unit tests.
 */
#include "r500-3d-env.h"
#include "r500-3d-state.h"

/* US FC: JUMP (op 0), JUMP_FUNC 0xFF (always), to instruction 1. */
static const uint32_t us_jump_to_1[6] = { 2, 0, 0xFFu << 8, 1u << 16, 0, 0 };

static uint32_t fbits(float f)
{
    uint32_t v;

    memcpy(&v, &f, 4);
    return v;
}

static void us_program(CpEnv *e, const uint32_t *words, unsigned n)
{
    r500_wreg(&e->t, R_US_CODE_OFFSET, 0);
    r500_wreg(&e->t, R_US_CODE_RANGE, (n - 1) << 16);
    r500_wreg(&e->t, R_US_CODE_ADDR, (n - 1) << 16);
    r500_wreg(&e->t, R_GA_US_VECTOR_INDEX, 0);
    for (unsigned i = 0; i < n * 6; i++) {
        r500_wreg(&e->t, R_GA_US_VECTOR_DATA, words[i]);
    }
}

void d3_setup(CpEnv *e, uint32_t cb, unsigned w, unsigned h)
{
    R500Test *t = &e->t;

#define W(reg, val) r500_wreg(t, (reg), (val));
    R500_3D_STATE(W, cb, w, h)
#undef W
    /* ALPHA_BLEND_ENABLE, add and clamp, ONE, ONE */
    r500_wreg(t, R_RB3D_BLENDCNTL, 1 | 33u << 16 | 33u << 24);
    r500_wreg(t, R_VAP_PVS_VECTOR_INDX_REG, 0);
    for (int i = 0; i < 8; i++) {
        r500_wreg(t, R_VAP_PVS_VECTOR_DATA_REG_128,
                  r500_3d_pvs_passthrough[i]);
    }
    r500_wreg(t, R_VAP_PVS_CODE_CNTL_0, R500_3D_PVS_CODE_CNTL_0);
    us_program(e, r500_3d_us_out, 1);
}

void d3_us_endless(CpEnv *e)
{
    uint32_t w[12];

    memcpy(w, r500_3d_us_out, sizeof(r500_3d_us_out));
    memcpy(w + 6, us_jump_to_1, sizeof(us_jump_to_1));
    us_program(e, w, 2);
}

void d3_pvs_endless(CpEnv *e)
{
    /* flow-control slot 0: JUMP after instruction 1 to instruction 1 */
    r500_wreg(&e->t, R_VAP_PVS_FLOW_CNTL_OPC, 1);
    r500_wreg(&e->t, R_VAP_PVS_FLOW_CNTL_ADDRS_LW, 1 | 1u << 16);
}

void d3_vtx(float *v, float x, float y, float r, float g, float b, float a)
{
    const float t[8] = { x, y, 0, 1, r, g, b, a };

    memcpy(v, t, sizeof(t));
}

void d3_emit_triangles(CpEnv *e, const float *v, unsigned n)
{
    unsigned verts = 3 * n;

    /* 3D_DRAW_IMMD_2: VAP_VF_CNTL (triangles, walk 3 = data), the data */
    cp_emit(e, PACKET3(0x35, verts * 8));
    cp_emit(e, 4 | 3u << 4 | verts << 16);
    for (unsigned i = 0; i < verts * 8; i++) {
        cp_emit(e, fbits(v[i]));
    }
}
