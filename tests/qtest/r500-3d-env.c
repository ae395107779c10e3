/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * 3D state for the qtests: see r500-3d-env.h.  The state itself is
 * r500_seq_3d_minimal() of r500-driver-seq.h, shared with the unit tests.
 */
#include "r500-3d-env.h"
#include "r500-driver-seq.h"

/* US FC: JUMP (op 0), JUMP_FUNC 0xFF (always), to instruction 1. */
static const uint32_t us_jump_to_1[6] = { 2, 0, 0xFFu << 8, 1u << 16, 0, 0 };

static uint32_t fbits(float f)
{
    uint32_t v;

    memcpy(&v, &f, 4);
    return v;
}

void d3_setup(CpEnv *e, uint32_t cb, unsigned w, unsigned h)
{
    r500_seq_3d_minimal(cp_env_w, &e->t, cb, w, h);
    /* ALPHA_BLEND_ENABLE, add and clamp, ONE, ONE */
    r500_wreg(&e->t, R_RB3D_BLENDCNTL, 1 | 33u << 16 | 33u << 24);
}

void d3_us_endless(CpEnv *e)
{
    uint32_t w[12];

    memcpy(w, r500_seq_us_out, sizeof(r500_seq_us_out));
    memcpy(w + 6, us_jump_to_1, sizeof(us_jump_to_1));
    r500_seq_us_program(cp_env_w, &e->t, w, 2);
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

void d3_emit_layers(CpEnv *e, unsigned w, unsigned n, float r, float g,
                    float b, float a)
{
    float *v = g_new(float, n * 6 * 8);

    for (unsigned l = 0; l < n; l++) {
        float *p = v + l * 6 * 8;

        d3_vtx(p, 0, 0, r, g, b, a);
        d3_vtx(p + 8, w, 0, r, g, b, a);
        d3_vtx(p + 16, 0, w, r, g, b, a);
        d3_vtx(p + 24, w, 0, r, g, b, a);
        d3_vtx(p + 32, w, w, r, g, b, a);
        d3_vtx(p + 40, 0, w, r, g, b, a);
    }
    d3_emit_triangles(e, v, 2 * n);
    g_free(v);
}

void d3_emit_triangles(CpEnv *e, const float *v, unsigned n)
{
    unsigned verts = 3 * n;

    /* 3D_DRAW_IMMD_2: VAP_VF_CNTL (triangles, walk 3 = data), the data */
    cp_emit(e, R500_PM4_PACKET3(R500_PM4_OP_3D_DRAW_IMMD_2, verts * 8));
    cp_emit(e, 4 | 3u << 4 | verts << 16);
    for (unsigned i = 0; i < verts * 8; i++) {
        cp_emit(e, fbits(v[i]));
    }
}
