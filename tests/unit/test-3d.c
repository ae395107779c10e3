/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A minimal 3D pipeline for the unit tests (test-3d.h). */
#include <string.h>

#include "test-3d.h"
#include "../qtest/r500-driver-seq.h"

uint32_t t3d_pvs_dst(unsigned op, bool math, unsigned file, unsigned idx,
                     unsigned wmask)
{
    /* [5:0] opcode, [6] MATH, [11:8] type, [19:13] offset, [23:20] WE */
    return op | (math ? 1u << 6 : 0) | file << 8 | idx << 13 | wmask << 20;
}

uint32_t t3d_pvs_src(unsigned file, unsigned idx, unsigned swz, unsigned neg)
{
    /* [1:0] type, [12:5] offset, [24:13] swizzles, [28:25] negate */
    return file | idx << 5 | swz << 13 | neg << 25;
}

void t3d_us_alu(const T3DAlu *a, uint32_t w[6])
{
    uint32_t addr = 0;

    for (int i = 0; i < 3; i++) {
        addr |= (a->addr[i] & 0x1FF) << (10 * i);
    }
    addr |= a->srcp << 30;
    w[0] = (a->out ? 1 : 0) | a->rgb_wmask << 11 | a->alpha_wmask << 14 |
           a->rgb_omask << 15 | a->alpha_omask << 18 |
           (a->clamp ? 3u << 19 : 0) | a->extra_cmn;
    w[1] = addr;
    w[2] = addr;
    w[3] = a->sel[0] | a->swz[0][0] << 2 | a->swz[0][1] << 5 |
           a->swz[0][2] << 8 | a->mod[0] << 11 | a->sel[1] << 13 |
           a->swz[1][0] << 15 | a->swz[1][1] << 18 | a->swz[1][2] << 21 |
           a->mod[1] << 24 | a->omod << 26 | a->extra_rgb_inst;
    w[4] = a->alpha_op | a->dst << 4 | a->asel[0] << 12 | a->aswz[0] << 14 |
           a->amod[0] << 17 | a->asel[1] << 19 | a->aswz[1] << 21 |
           a->amod[1] << 24 | a->omod << 26;
    w[5] = a->rgb_op | a->dst << 4 | a->sel[2] << 12 | a->swz[2][0] << 14 |
           a->swz[2][1] << 17 | a->swz[2][2] << 20 | a->mod[2] << 23 |
           a->asel[2] << 25 | a->aswz[2] << 27 | (uint32_t)a->amod[2] << 30;
}

void t3d_us_program(TestHost *h, const uint32_t *words, unsigned n)
{
    r500_seq_us_program(r500_seq_chip_w, &h->chip, words, n);
}

uint32_t t3d_fbits(float f)
{
    uint32_t v;

    memcpy(&v, &f, 4);
    return v;
}

void t3d_pvs_upload(TestHost *h, unsigned vec, const uint32_t *w,
                    unsigned n)
{
    r500_reg_write(&h->chip, R_VAP_PVS_VECTOR_INDX_REG, vec);
    for (unsigned i = 0; i < n; i++) {
        r500_reg_write(&h->chip, R_VAP_PVS_VECTOR_DATA_REG_128, w[i]);
    }
}

void t3d_depth(TestHost *h, unsigned format, uint32_t cntl,
               uint32_t zs_cntl)
{
    R500Chip *s = &h->chip;

    r500_reg_write(s, R_ZB_FORMAT, format);
    r500_reg_write(s, R_ZB_DEPTHOFFSET, T3D_ZB);
    r500_reg_write(s, R_ZB_DEPTHPITCH, T3D_W);
    r500_reg_write(s, R_ZB_CNTL, cntl);
    r500_reg_write(s, R_ZB_ZSTENCILCNTL, zs_cntl);
}

void t3d_us_const(TestHost *h, unsigned idx, float r, float g, float b,
                  float a)
{
    R500Chip *s = &h->chip;

    /* [16] TYPE = constants */
    r500_reg_write(s, R_GA_US_VECTOR_INDEX, 1u << 16 | idx);
    r500_reg_write(s, R_GA_US_VECTOR_DATA, t3d_fbits(r));
    r500_reg_write(s, R_GA_US_VECTOR_DATA, t3d_fbits(g));
    r500_reg_write(s, R_GA_US_VECTOR_DATA, t3d_fbits(b));
    r500_reg_write(s, R_GA_US_VECTOR_DATA, t3d_fbits(a));
}

void t3d_us_out(unsigned temp, uint32_t w[6])
{
    /* rgb = temp.rgb * 1.0 + 0.0, a = temp.a * 1.0 + 0.0 (swizzles 6, 4) */
    T3DAlu a = {
        .out = true, .rgb_omask = 7, .alpha_omask = 1,
        .addr = { temp, temp, temp },
        .swz = { { 0, 1, 2 }, { 6, 6, 6 }, { 4, 4, 4 } },
        .aswz = { 3, 6, 4 },
    };

    t3d_us_alu(&a, w);
}

void t3d_us_passthrough(TestHost *h)
{
    /* OUT: rgb = t0.rgb * 1 + 0, a = t0.a * 1 + 0 */
    T3DAlu a = {
        .out = true, .rgb_omask = 7, .alpha_omask = 1,
        .addr = { 0, 0x80, 0x80 },          /* t0, inline 0.0, 0.0 */
        .swz = { { 0, 1, 2 }, { 6, 6, 6 }, { 4, 4, 4 } },
        .aswz = { 3, 6, 4 },
    };
    uint32_t w[6];

    t3d_us_alu(&a, w);
    /* the words r500-driver-seq.h writes encode the same */
    g_assert_cmpmem(w, sizeof(w), r500_seq_us_out, sizeof(r500_seq_us_out));
    t3d_us_program(h, w, 1);
}

void t3d_setup(TestHost *h)
{
    uint32_t pvs[8];

    r500_seq_3d_minimal(r500_seq_chip_w, &h->chip, T3D_CB, T3D_W, T3D_H);
    /* its vertex program: o0 = v0 + 0, o1 = v1 + 0 (VE_ADD = 3) */
    pvs[0] = t3d_pvs_dst(3, false, PVS_DO, 0, 0xF);
    pvs[1] = t3d_pvs_src(PVS_V, 0, PVS_XYZW, 0);
    pvs[2] = t3d_pvs_src(PVS_V, 0, PVS_ZERO4, 0);
    pvs[3] = pvs[2];
    pvs[4] = t3d_pvs_dst(3, false, PVS_DO, 1, 0xF);
    pvs[5] = t3d_pvs_src(PVS_V, 1, PVS_XYZW, 0);
    pvs[6] = t3d_pvs_src(PVS_V, 1, PVS_ZERO4, 0);
    pvs[7] = pvs[6];
    g_assert_cmpmem(pvs, sizeof(pvs), r500_seq_pvs_passthrough,
                    sizeof(r500_seq_pvs_passthrough));
    t3d_us_passthrough(h);
}

unsigned t3d_draw_split(TestHost *h, unsigned prim, const float *v,
                        unsigned n, uint64_t budget, uint64_t *max_work)
{
    uint32_t *data = g_new(uint32_t, 8 * n);
    R500DrawCmd cmd = {
        .opcode = 0x35, .source = R500_DRAW_EMBEDDED, .prim_type = prim,
        .num_vertices = n, .data = data, .data_dwords = 8 * n,
        .vtx_size = 8, .budget = budget,
    };
    unsigned calls = 0;
    uint64_t most = 0;

    g_assert_cmpuint(n, <=, 65535);
    for (unsigned i = 0; i < 8 * n; i++) {
        data[i] = t3d_fbits(v[i]);
    }
    cmd.vf_cntl = prim | 3u << 4 | n << 16;
    do {
        uint64_t work = r500_3d_draw(&h->chip, &cmd);

        most = MAX(most, work);
        cmd.resume = true;
        g_assert_cmpuint(++calls, <, 1u << 24);
        if (!r500_3d_draw_stopped(&h->chip)) {
            break;
        }
        /* the run of the chip ends with the slice (r500.c) */
        r500_pipe_sync(&h->chip, R500_SYNC_CPU);
    } while (true);
    g_free(data);
    if (max_work) {
        *max_work = most;
    }
    return calls;
}

void t3d_draw(TestHost *h, unsigned prim, const float *v, unsigned n)
{
    g_assert_cmpuint(t3d_draw_split(h, prim, v, n, 0, NULL), ==, 1);
}

uint32_t t3d_px(TestHost *h, unsigned x, unsigned y)
{
    uint32_t v;

    memcpy(&v, h->vram + T3D_CB + (y * T3D_W + x) * 4, 4);
    return GUINT32_FROM_LE(v);
}

void t3d_fill(TestHost *h, uint32_t v)
{
    for (unsigned i = 0; i < T3D_W * T3D_H; i++) {
        memcpy(h->vram + T3D_CB + i * 4, &v, 4);
    }
}

void t3d_blend_add(TestHost *h)
{
    /* ALPHA_BLEND_ENABLE, COMB_FCN add+clamp, SRCBLEND ONE, DESTBLEND ONE */
    r500_reg_write(&h->chip, R_RB3D_BLENDCNTL, 1 | 33u << 16 | 33u << 24);
}
