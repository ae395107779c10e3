/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * 3D state for the qtests: see r500-3d-env.h.  Instruction words are the
 * encodings tests/unit/test-3d.c builds field by field (its t3d_pvs_*,
 * t3d_us_alu), written out here because the qtests do not link the core.
 */
#include "r500-3d-env.h"

/* PVS: o0 = v0 + 0, o1 = v1 + 0 (VE_ADD; reference 2.2). */
static const uint32_t pvs_passthrough[8] = {
    0x00f00203, 0x00d10001, 0x01248001, 0x01248001,
    0x00f02203, 0x00d10021, 0x01248021, 0x01248021,
};

/* US ALU + OUT: rgb = t0.rgb * 1 + 0, a = t0.a * 1 + 0 (reference 3.7). */
static const uint32_t us_out[6] = {
    0x00078001, 0x08020000, 0x08020000, 0x00db0220, 0x00c0c000, 0x20490000,
};

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

    r500_wreg(t, R_RB3D_CCTL, R500_FMASK(RB3D_CCTL,
                                         INDEPENDENT_COLORFORMAT_ENABLE));
    r500_wreg(t, R_RB3D_COLOROFFSET, cb);
    r500_wreg(t, R_RB3D_COLORPITCH, w | 6u << 21);      /* ARGB8888 */
    r500_wreg(t, R_RB3D_COLOR_CHANNEL_MASK, 0xF);
    /* ALPHA_BLEND_ENABLE, add and clamp, ONE, ONE */
    r500_wreg(t, R_RB3D_BLENDCNTL, 1 | 33u << 16 | 33u << 24);
    r500_wreg(t, R_RB3D_ROPCNTL, 0);
    r500_wreg(t, R_US_OUT_FMT, 1u << 8 | 2u << 10 | 3u << 12);
    for (int i = 1; i < 4; i++) {
        r500_wreg(t, R500_REGA_AT(US_OUT_FMT, i), 15);
    }
    r500_wreg(t, R_ZB_CNTL, 0);
    r500_wreg(t, R_ZB_BW_CNTL, 0);
    r500_wreg(t, R_FG_ALPHA_FUNC, 0);
    r500_wreg(t, R_SU_CULL_MODE, 0);
    r500_wreg(t, R_RE_SCISSORS_TL, 0);
    r500_wreg(t, R_RE_SCISSORS_BR, (w - 1) | (h - 1) << 13);
    r500_wreg(t, R_SC_CLIP_RULE, 0xFFFF);
    r500_wreg(t, R_VAP_CLIP_CNTL, R500_FMASK(VAP_CLIP_CNTL, CLIP_DISABLE));
    r500_wreg(t, R_VAP_VTE_CNTL, R500_FMASK(VAP_VTE_CNTL, VTX_XY_FMT) |
              R500_FMASK(VAP_VTE_CNTL, VTX_Z_FMT));
    r500_wreg(t, R_VAP_CNTL, 0);
    r500_wreg(t, R_VAP_CNTL_STATUS, 0);
    /* PSC: FLOAT_4 -> v0, FLOAT_4 -> v1 (last), xyzw, all written */
    r500_wreg(t, R_VAP_PROG_STREAM_CNTL, 3 | (3 | 1u << 8 | 1u << 13) << 16);
    r500_wreg(t, R_VAP_PROG_STREAM_CNTL_EXT, 0xF688u * 0x10001u);
    r500_wreg(t, R_VAP_VTX_SIZE, 8);
    r500_wreg(t, R_VAP_VF_MAX_VTX_INDX, 0xFFFFFF);
    r500_wreg(t, R_VAP_VF_MIN_VTX_INDX, 0);
    r500_wreg(t, R_VAP_PVS_VECTOR_INDX_REG, 0);
    for (int i = 0; i < 8; i++) {
        r500_wreg(t, R_VAP_PVS_VECTOR_DATA_REG_128, pvs_passthrough[i]);
    }
    r500_wreg(t, R_VAP_PVS_CODE_CNTL_0, 1u << 20 | 1u << 10);
    r500_wreg(t, R_VAP_PVS_CONST_CNTL, 0);
    r500_wreg(t, R_VAP_PVS_FLOW_CNTL_OPC, 0);
    r500_wreg(t, R_VAP_OUTPUT_VTX_FMT_0, 3);        /* position, colour 0 */
    r500_wreg(t, R_VAP_OUTPUT_VTX_FMT_1, 0);
    r500_wreg(t, R_GB_ENABLE, 0);
    r500_wreg(t, R_RS_IP, 0);
    r500_wreg(t, R_RS_COUNT, 1u << 7);
    r500_wreg(t, R_RS_INST_COUNT, 0);
    r500_wreg(t, R_RS_INST, 1u << 16);
    r500_wreg(t, R_GA_COLOR_CONTROL, 0xAAAA | 3u << 16);
    r500_wreg(t, R_GA_POLY_MODE, 0);
    r500_wreg(t, R_TX_ENABLE, 0);
    r500_wreg(t, R_US_CONFIG, 0);
    us_program(e, us_out, 1);
}

void d3_us_endless(CpEnv *e)
{
    uint32_t w[12];

    memcpy(w, us_out, sizeof(us_out));
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
