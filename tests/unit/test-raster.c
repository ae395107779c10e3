/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The 3D pipeline end to end, through the CP's draw interface: coverage
 * and the top-left fill rule, points and stuffed texture coordinates,
 * scissor and clip rectangles, shading, culling, depth, stencil, the
 * Hyper-Z fast clear and the ZB colour clear, blending, colour formats,
 * and hostile state.  Expected pixels follow from the definitions in
 * r500-3d-pipeline.md 2.4-2.12, 6 and 7 (pixel centres at +0.5).
 */
#include <math.h>
#include <string.h>

#include "test-3d.h"

enum { POINTS = 1, TRIANGLES = 4, TRI_FAN = 5 };

static uint32_t fbits(float f)
{
    uint32_t v;

    memcpy(&v, &f, 4);
    return v;
}

/* A vertex: window x, y, depth z, and a colour. */
static void vtx(float *v, float x, float y, float z, float r, float g,
                float b, float a)
{
    const float t[8] = { x, y, z, 1.0f, r, g, b, a };

    memcpy(v, t, sizeof(t));
}

static unsigned red(TestHost *h, unsigned x, unsigned y)
{
    return t3d_px(h, x, y) & 0xFF;
}

/* Pixels of [0, w) x [0, ht) are v inside [x0, x1] x [y0, y1], else 0. */
static void assert_box(TestHost *h, unsigned w, unsigned ht, unsigned x0,
                       unsigned y0, unsigned x1, unsigned y1, uint32_t v)
{
    for (unsigned y = 0; y < ht; y++) {
        for (unsigned x = 0; x < w; x++) {
            bool in = x >= x0 && x <= x1 && y >= y0 && y <= y1;

            g_assert_cmphex(t3d_px(h, x, y), ==, in ? v : 0);
        }
    }
}

/*
 * Triangles sharing edges, with vertices off the pixel grid, tile a
 * region: with additive blending every pixel centre inside is counted
 * exactly once and none outside (top-left rule, 1/12 subpixel vertices).
 */
static void test_fill_rule(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    float v[6 * 8];
    const float one = 1.0f / 255.0f;
    /* a 4x4 grid of jittered points over [4.25, 59.75] */
    float gx[4][4], gy[4][4];

    t3d_setup(h);
    t3d_fill(h, 0);
    t3d_blend_add(h);
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 4; i++) {
            gx[j][i] = 4.25f + i * 18.5f + (i % 3 == 1 ? 1.0f / 3 : 0);
            gy[j][i] = 4.25f + j * 18.5f + (j % 3 == 2 ? 0.75f : 0);
            /* interior points move off the lines */
            if (i && i < 3 && j && j < 3) {
                gx[j][i] += (i + j) * 0.6f;
                gy[j][i] -= i * 0.45f;
            }
        }
    }
    for (int j = 0; j < 3; j++) {
        for (int i = 0; i < 3; i++) {
            vtx(v, gx[j][i], gy[j][i], 0, one, 0, 0, 0);
            vtx(v + 8, gx[j][i + 1], gy[j][i + 1], 0, one, 0, 0, 0);
            vtx(v + 16, gx[j + 1][i + 1], gy[j + 1][i + 1], 0, one, 0, 0, 0);
            vtx(v + 24, gx[j][i], gy[j][i], 0, one, 0, 0, 0);
            vtx(v + 32, gx[j + 1][i + 1], gy[j + 1][i + 1], 0, one, 0, 0, 0);
            vtx(v + 40, gx[j + 1][i], gy[j + 1][i], 0, one, 0, 0, 0);
            t3d_draw(h, TRIANGLES, v, 6);
        }
    }
    /* the outer border is straight: [4.25, 59.75] holds centres 4.5..59.5 */
    for (unsigned y = 0; y < T3D_H; y++) {
        for (unsigned x = 0; x < T3D_W; x++) {
            bool inside = x >= 4 && x <= 59 && y >= 4 && y <= 59;

            g_assert_cmpuint(red(h, x, y), ==, inside ? 1 : 0);
        }
    }
    test_host_free(h);
}

/* Centres exactly on edges: left and top edges own them, right and bottom not. */
static void test_top_left(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    float v[6 * 8];

    t3d_setup(h);
    t3d_fill(h, 0);
    /* rectangle x in [2.5, 6.5], y in [1.5, 5.5] as two triangles */
    vtx(v, 2.5f, 1.5f, 0, 1, 1, 1, 1);
    vtx(v + 8, 6.5f, 1.5f, 0, 1, 1, 1, 1);
    vtx(v + 16, 6.5f, 5.5f, 0, 1, 1, 1, 1);
    vtx(v + 24, 2.5f, 1.5f, 0, 1, 1, 1, 1);
    vtx(v + 32, 6.5f, 5.5f, 0, 1, 1, 1, 1);
    vtx(v + 40, 2.5f, 5.5f, 0, 1, 1, 1, 1);
    t3d_draw(h, TRIANGLES, v, 6);
    assert_box(h, 9, 8, 2, 1, 5, 4, 0xFFFFFFFF);
    /* the same with the winding reversed covers the same pixels */
    t3d_fill(h, 0);
    vtx(v + 8, 2.5f, 5.5f, 0, 1, 1, 1, 1);
    vtx(v + 40, 6.5f, 1.5f, 0, 1, 1, 1, 1);
    vtx(v + 16, 6.5f, 5.5f, 0, 1, 1, 1, 1);
    vtx(v + 32, 6.5f, 5.5f, 0, 1, 1, 1, 1);
    t3d_draw(h, TRIANGLES, v, 6);
    assert_box(h, 9, 8, 2, 1, 5, 4, 0xFFFFFFFF);
    test_host_free(h);
}

/* Occlusion counters: samples passed, stored per pipe (reference 2.12). */
static void test_occlusion(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500Chip *s = &h->chip;
    float v[3 * 8];
    uint32_t got;

    t3d_setup(h);
    r500_reg_write(s, R_SU_REG_DEST, 0xF);
    r500_reg_write(s, R_ZB_ZPASS_DATA, 0);
    /*
     * the lower-left half of a 10x10 square: 45 pixel centres strictly
     * below the diagonal; the 10 on it belong to a right edge, not drawn
     */
    vtx(v, 0, 0, 0, 1, 1, 1, 1);
    vtx(v + 8, 0, 10, 0, 1, 1, 1, 1);
    vtx(v + 16, 10, 10, 0, 1, 1, 1, 1);
    t3d_draw(h, TRIANGLES, v, 3);
    r500_reg_write(s, R_SU_REG_DEST, 1);
    r500_reg_write(s, R_ZB_ZPASS_ADDR, T3D_ZB);
    memcpy(&got, h->vram + T3D_ZB, 4);
    g_assert_cmpuint(got, ==, 45);
    /* the model counts in pipe 0: other pipes report 0 */
    r500_reg_write(s, R_SU_REG_DEST, 2);
    r500_reg_write(s, R_ZB_ZPASS_ADDR, T3D_ZB + 4);
    memcpy(&got, h->vram + T3D_ZB + 4, 4);
    g_assert_cmpuint(got, ==, 0);
    test_host_free(h);
}

/* Back faces take colours 2/3 when the VAP outputs them (reference 2.3). */
static void test_two_sided(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500Chip *s = &h->chip;
    float v[3 * 8];
    uint32_t pvs[4] = {
        /* o2 = v1.zyxw: the back colour is the front one with R, B swapped */
        t3d_pvs_dst(3, false, PVS_DO, 2, 0xF),
        t3d_pvs_src(PVS_V, 1, PVS_SWZ(2, 1, 0, 3), 0),
        t3d_pvs_src(PVS_V, 1, PVS_ZERO4, 0),
        t3d_pvs_src(PVS_V, 1, PVS_ZERO4, 0),
    };

    t3d_setup(h);
    r500_reg_write(s, R_VAP_PVS_VECTOR_INDX_REG, 2);
    for (int i = 0; i < 4; i++) {
        r500_reg_write(s, R_VAP_PVS_VECTOR_DATA_REG_128, pvs[i]);
    }
    r500_reg_write(s, R_VAP_PVS_CODE_CNTL_0, 2u << 20);
    /* position, colour 0, colour 2 */
    r500_reg_write(s, R_VAP_OUTPUT_VTX_FMT_0, 1 | 2 | 8);
    vtx(v, 10, 10, 0, 1, 0, 0, 1);      /* d < 0: front with FACE = 0 */
    vtx(v + 8, 10, 30, 0, 1, 0, 0, 1);
    vtx(v + 16, 30, 10, 0, 1, 0, 0, 1);
    t3d_draw(h, TRIANGLES, v, 3);
    g_assert_cmphex(t3d_px(h, 12, 12), ==, 0xFF0000FF);
    r500_reg_write(s, R_SU_CULL_MODE, 4);   /* FACE = 1: now a back face */
    t3d_draw(h, TRIANGLES, v, 3);
    g_assert_cmphex(t3d_px(h, 12, 12), ==, 0xFFFF0000);
    test_host_free(h);
}

/* Gouraud colours are interpolated; flat ones come from the last vertex. */
static void test_shading(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    float v[3 * 8];

    t3d_setup(h);
    t3d_fill(h, 0);
    /* red runs 0 -> 1 across x from 0 to 64 (both top vertices at x = 0) */
    vtx(v, 0, 0, 0, 0, 0, 0, 1);
    vtx(v + 8, 64, 0, 0, 1, 0, 0, 1);
    vtx(v + 16, 0, 64, 0, 0, 0, 1, 1);
    t3d_draw(h, TRIANGLES, v, 3);
    /* pixel (31, 0): centre x 31.5 -> red 31.5 / 64 */
    g_assert_cmpint(abs((int)red(h, 31, 0) - (int)lrintf(31.5f / 64 * 255)),
                    <=, 1);
    /* blue at (0, 47): 47.5 / 64 */
    g_assert_cmpint(abs((int)((t3d_px(h, 0, 47) >> 16) & 0xFF) -
                        (int)lrintf(47.5f / 64 * 255)), <=, 1);
    /* flat: GA_COLOR_CONTROL 1 = flat for colour 0, provoking last */
    r500_reg_write(&h->chip, R_GA_COLOR_CONTROL, 0x5555 | 3u << 16);
    t3d_draw(h, TRIANGLES, v, 3);
    g_assert_cmphex(t3d_px(h, 10, 10), ==, 0xFFFF0000);
    /* provoking first */
    r500_reg_write(&h->chip, R_GA_COLOR_CONTROL, 0x5555);
    t3d_draw(h, TRIANGLES, v, 3);
    g_assert_cmphex(t3d_px(h, 10, 10), ==, 0xFF000000);
    test_host_free(h);
}

/* Facing (reference 2.6): front <-> ((d < 0) == (FACE == 0)). */
static void test_culling(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    float ccw[3 * 8], cw[3 * 8];

    t3d_setup(h);
    /* d = (x0-x2)(y1-y2) - (y0-y2)(x1-x2) */
    vtx(ccw, 10, 10, 0, 1, 1, 1, 1);     /* d < 0 */
    vtx(ccw + 8, 10, 30, 0, 1, 1, 1, 1);
    vtx(ccw + 16, 30, 10, 0, 1, 1, 1, 1);
    memcpy(cw, ccw + 8, 32);             /* swapped: d > 0 */
    memcpy(cw + 8, ccw, 32);
    memcpy(cw + 16, ccw + 16, 32);
    /* FACE = 0, cull back: the d < 0 one is front, drawn */
    r500_reg_write(&h->chip, R_SU_CULL_MODE, 2);
    t3d_fill(h, 0);
    t3d_draw(h, TRIANGLES, ccw, 3);
    g_assert_cmphex(t3d_px(h, 12, 12), ==, 0xFFFFFFFF);
    t3d_fill(h, 0);
    t3d_draw(h, TRIANGLES, cw, 3);
    g_assert_cmphex(t3d_px(h, 12, 12), ==, 0);
    /* FACE = 1 swaps them */
    r500_reg_write(&h->chip, R_SU_CULL_MODE, 2 | 4);
    t3d_draw(h, TRIANGLES, cw, 3);
    g_assert_cmphex(t3d_px(h, 12, 12), ==, 0xFFFFFFFF);
    test_host_free(h);
}

/* Scissor (inclusive) and SC_CLIP_RULE over the clip rectangles. */
static void test_scissor_cliprects(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    float v[3 * 8];
    R500Chip *s = &h->chip;

    t3d_setup(h);
    t3d_fill(h, 0);
    vtx(v, -100, -100, 0, 1, 1, 1, 1);
    vtx(v + 8, 300, -100, 0, 1, 1, 1, 1);
    vtx(v + 16, -100, 300, 0, 1, 1, 1, 1);
    r500_reg_write(s, R_RE_SCISSORS_TL, 10 | 20u << 13);
    r500_reg_write(s, R_RE_SCISSORS_BR, 30 | 25u << 13);
    t3d_draw(h, TRIANGLES, v, 3);
    assert_box(h, T3D_W, T3D_H, 10, 20, 30, 25, 0xFFFFFFFF);
    /* rule 0xAAAA: inside clip rectangle 0 only; 0x5555 outside it */
    t3d_fill(h, 0);
    r500_reg_write(s, R_RE_SCISSORS_TL, 0);
    r500_reg_write(s, R_RE_SCISSORS_BR, 63 | 63u << 13);
    r500_reg_write(s, R_SC_CLIPRECT_TL, 5 | 6u << 13);
    r500_reg_write(s, R_SC_CLIPRECT_BR, 7 | 9u << 13);
    r500_reg_write(s, R_SC_CLIP_RULE, 0xAAAA);
    t3d_draw(h, TRIANGLES, v, 3);
    g_assert_cmphex(t3d_px(h, 5, 6), ==, 0xFFFFFFFF);
    g_assert_cmphex(t3d_px(h, 7, 9), ==, 0xFFFFFFFF);
    g_assert_cmphex(t3d_px(h, 8, 9), ==, 0);
    g_assert_cmphex(t3d_px(h, 5, 10), ==, 0);
    r500_reg_write(s, R_SC_CLIP_RULE, 0x5555);
    t3d_draw(h, TRIANGLES, v, 3);
    g_assert_cmphex(t3d_px(h, 40, 40), ==, 0xFFFFFFFF);
    test_host_free(h);
}

/*
 * A point of GA_POINT_SIZE (half sizes in 1/12 px) covers exactly its
 * pixels; stuffed texture coordinates run from (S0, T0) at the bottom
 * left to (S1, T1) at the top right (reference 2.4), sampled at centres.
 */
static void test_point_sprite(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500Chip *s = &h->chip;
    float v[8];

    t3d_setup(h);
    t3d_fill(h, 0);
    /* 8 px wide, 4 px high around (20, 30): pixels 16..23 x 28..31 */
    r500_reg_write(s, R_GA_POINT_SIZE, 48u << 16 | 24);
    /* texcoord 0 stuffed (S, T) and routed to temp 0 instead of colour */
    r500_reg_write(s, R_GB_ENABLE, 1 | 1u << 16);
    r500_reg_write(s, R_VAP_OUTPUT_VTX_FMT_0, 1);
    r500_reg_write(s, R_RS_IP, 0 | 1u << 6 | 62u << 12 | 63u << 18);
    r500_reg_write(s, R_RS_COUNT, 2);
    r500_reg_write(s, R_RS_INST, 1u << 4);
    r500_reg_write(s, R_GA_POINT_S0, fbits(0.0f));
    r500_reg_write(s, R_GA_POINT_T0, fbits(1.0f));
    r500_reg_write(s, R_GA_POINT_S1, fbits(1.0f));
    r500_reg_write(s, R_GA_POINT_T1, fbits(0.0f));
    vtx(v, 20, 30, 0, 0, 0, 0, 0);
    t3d_draw(h, POINTS, v, 1);
    for (unsigned y = 26; y < 34; y++) {
        for (unsigned x = 14; x < 26; x++) {
            bool in = x >= 16 && x <= 23 && y >= 28 && y <= 31;
            uint32_t p = t3d_px(h, x, y);

            if (!in) {
                g_assert_cmphex(p, ==, 0);
                continue;
            }
            /* S = (x - 16 + 0.5) / 8, T = (y - 28 + 0.5) / 4, Q = 1 */
            g_assert_cmpuint(p & 0xFF, ==, lrintf((x - 15.5f) / 8 * 255));
            g_assert_cmpuint((p >> 8) & 0xFF, ==, lrintf((y - 27.5f) / 4 * 255));
            g_assert_cmpuint(p >> 24, ==, 255);
        }
    }
    test_host_free(h);
}

/* Z24S8 (linear here): LESS with writes, then stencil REPLACE / EQUAL. */
static void test_depth_stencil(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500Chip *s = &h->chip;
    float v[6 * 8];
    uint32_t zs;

    t3d_setup(h);
    t3d_fill(h, 0);
    r500_reg_write(s, R_ZB_FORMAT, 2);
    r500_reg_write(s, R_ZB_DEPTHOFFSET, T3D_ZB);
    r500_reg_write(s, R_ZB_DEPTHPITCH, T3D_W);
    memset(h->vram + T3D_ZB, 0xFF, T3D_W * T3D_H * 4);
    /* Z_ENABLE | Z_WRITE_ENABLE, ZFUNC LESS */
    r500_reg_write(s, R_ZB_CNTL, 6);
    r500_reg_write(s, R_ZB_ZSTENCILCNTL, 1);
    vtx(v, 0, 0, 0.5f, 1, 0, 0, 1);
    vtx(v + 8, 64, 0, 0.5f, 1, 0, 0, 1);
    vtx(v + 16, 0, 64, 0.5f, 1, 0, 0, 1);
    t3d_draw(h, TRIANGLES, v, 3);
    memcpy(&zs, h->vram + T3D_ZB + (2 * T3D_W + 2) * 4, 4);
    /* 0.5 * 16777215 rounded, in bits 31:8; stencil kept */
    g_assert_cmphex(zs, ==, (8388608u << 8) | 0xFF);
    /* farther: hidden; nearer: drawn */
    for (int i = 0; i < 3; i++) {
        v[8 * i + 2] = 0.75f;
        v[8 * i + 5] = 1;
    }
    t3d_draw(h, TRIANGLES, v, 3);
    g_assert_cmphex(t3d_px(h, 2, 2), ==, 0xFF0000FF);
    for (int i = 0; i < 3; i++) {
        v[8 * i + 2] = 0.25f;
    }
    t3d_draw(h, TRIANGLES, v, 3);
    g_assert_cmphex(t3d_px(h, 2, 2), ==, 0xFF00FFFF);

    /* stencil: ALWAYS, ZPASS REPLACE with ref 0x5A, write mask 0xFF */
    r500_reg_write(s, R_ZB_CNTL, 1);
    r500_reg_write(s, R_ZB_ZSTENCILCNTL, 7u << 3 | 2u << 9);
    r500_reg_write(s, R_ZB_STENCILREFMASK, 0x5A | 0xFFu << 8 | 0xFFu << 16);
    vtx(v, 0, 0, 0, 1, 1, 1, 1);
    vtx(v + 8, 8, 0, 0, 1, 1, 1, 1);
    vtx(v + 16, 0, 8, 0, 1, 1, 1, 1);
    t3d_draw(h, TRIANGLES, v, 3);
    memcpy(&zs, h->vram + T3D_ZB + (2 * T3D_W + 2) * 4, 4);
    g_assert_cmphex(zs & 0xFF, ==, 0x5A);
    g_assert_cmphex(zs >> 8, ==, 4194304u);       /* depth untouched */
    /* EQUAL 0x5A passes only where it was written */
    t3d_fill(h, 0);
    r500_reg_write(s, R_ZB_ZSTENCILCNTL, 3u << 3);
    vtx(v, 0, 0, 0, 1, 1, 1, 1);
    vtx(v + 8, 64, 0, 0, 1, 1, 1, 1);
    vtx(v + 16, 0, 64, 0, 1, 1, 1, 1);
    t3d_draw(h, TRIANGLES, v, 3);
    g_assert_cmphex(t3d_px(h, 1, 1), ==, 0xFFFFFFFF);
    g_assert_cmphex(t3d_px(h, 20, 1), ==, 0);
    test_host_free(h);
}

/*
 * Hyper-Z (reference 6.6): 3D_CLEAR_ZMASK writes no depth; the next draw
 * with FAST_FILL expands ZB_DEPTHCLEARVALUE over the framebuffer first.
 */
static void test_fast_clear(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500Chip *s = &h->chip;
    R500ClearCmd zmask = { .opcode = 0x32, .start = 0, .count = 4 };
    R500ClearCmd hiz = { .opcode = 0x37, .start = 0, .count = 64,
                         .value = 0x7F7F7F7F };
    float v[3 * 8];
    uint32_t zs;

    t3d_setup(h);
    r500_reg_write(s, R_ZB_FORMAT, 2);
    r500_reg_write(s, R_ZB_DEPTHOFFSET, T3D_ZB);
    r500_reg_write(s, R_ZB_DEPTHPITCH, T3D_W);
    memset(h->vram + T3D_ZB, 0x11, T3D_W * T3D_H * 4);
    r500_3d_clear(s, &hiz);
    r500_3d_clear(s, &zmask);
    g_assert_cmphex(s->rb3d.hiz_ram[63], ==, 0x7F7F7F7F);
    memcpy(&zs, h->vram + T3D_ZB, 4);
    g_assert_cmphex(zs, ==, 0x11111111);
    /* the RAM port reads what the clear wrote */
    r500_reg_write(s, R_ZB_HIZ_RDINDEX, 5);
    g_assert_cmphex(r500_reg_read(s, R_ZB_HIZ_DWORD), ==, 0x7F7F7F7F);
    /* a draw without FAST_FILL leaves the mark */
    r500_reg_write(s, R_ZB_DEPTHCLEARVALUE, 0x8000005A);
    r500_reg_write(s, R_ZB_CNTL, 0);
    vtx(v, 0, 0, 0, 1, 1, 1, 1);
    vtx(v + 8, 4, 0, 0, 1, 1, 1, 1);
    vtx(v + 16, 0, 4, 0, 1, 1, 1, 1);
    t3d_draw(h, TRIANGLES, v, 3);
    memcpy(&zs, h->vram + T3D_ZB + (63 * T3D_W + 63) * 4, 4);
    g_assert_cmphex(zs, ==, 0x11111111);
    /* the decompress pass: FAST_FILL | RD_COMP, Z_WRITE_ENABLE only */
    r500_reg_write(s, R_ZB_BW_CNTL, 4 | 8);
    r500_reg_write(s, R_ZB_CNTL, 4);
    t3d_draw(h, TRIANGLES, v, 3);
    for (unsigned i = 0; i < T3D_W * T3D_H; i += 97) {
        memcpy(&zs, h->vram + T3D_ZB + i * 4, 4);
        g_assert_cmphex(zs, ==, 0x8000005A);
    }
    test_host_free(h);
}

/* ZB_CB_CLEAR (reference 6.5): the depth unit writes the clear word. */
static void test_cb_clear(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500Chip *s = &h->chip;
    float v[8];
    uint32_t w;

    t3d_setup(h);
    t3d_fill(h, 0);
    memset(h->vram + T3D_ZB, 0, T3D_W * T3D_H * 4);
    r500_reg_write(s, R_ZB_FORMAT, 2);
    r500_reg_write(s, R_ZB_DEPTHOFFSET, T3D_ZB);
    r500_reg_write(s, R_ZB_DEPTHPITCH, T3D_W);
    r500_reg_write(s, R_ZB_BW_CNTL, 1u << 5);
    r500_reg_write(s, R_ZB_DEPTHCLEARVALUE, 0xFF8040BF);
    r500_reg_write(s, R_GA_POINT_SIZE, (32u * 6) << 16 | 16u * 6);
    vtx(v, 16, 8, 1, 0, 1, 0, 1);       /* 32 x 16 from (0, 0) */
    t3d_draw(h, POINTS, v, 1);
    memcpy(&w, h->vram + T3D_ZB + (15 * T3D_W + 31) * 4, 4);
    g_assert_cmphex(w, ==, 0xFF8040BF);
    memcpy(&w, h->vram + T3D_ZB + (16 * T3D_W + 31) * 4, 4);
    g_assert_cmphex(w, ==, 0);
    g_assert_cmphex(t3d_px(h, 31, 15), ==, 0xFF00FF00);
    test_host_free(h);
}

/*
 * A surface is PITCH pixels wide: pixels right of the pitch are not
 * written.  The kernel's CS checker (r100_cs_track_check) accepts a depth
 * buffer of pitch x rows for a clear this wide, so the pixels at x >= 16
 * of the last row must not land behind those rows; Mesa's CBZB clear
 * asks for exactly this (width aligned to 64 over a narrower pitch).
 */
static void test_cb_clear_pitch(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500Chip *s = &h->chip;
    float v[8];
    uint32_t w;

    t3d_setup(h);
    t3d_fill(h, 0);
    memset(h->vram + T3D_ZB, 0, T3D_W * T3D_H * 4);
    r500_reg_write(s, R_ZB_FORMAT, 2);
    r500_reg_write(s, R_ZB_DEPTHOFFSET, T3D_ZB);
    r500_reg_write(s, R_ZB_DEPTHPITCH, 16);
    r500_reg_write(s, R_ZB_BW_CNTL, 1u << 5);
    r500_reg_write(s, R_ZB_DEPTHCLEARVALUE, 0xFF8040BF);
    r500_reg_write(s, R_GA_POINT_SIZE, (32u * 6) << 16 | 16u * 6);
    vtx(v, 16, 8, 1, 0, 1, 0, 1);       /* 32 x 16 from (0, 0) */
    t3d_draw(h, POINTS, v, 1);
    memcpy(&w, h->vram + T3D_ZB + (15 * 16 + 15) * 4, 4);
    g_assert_cmphex(w, ==, 0xFF8040BF);     /* last pixel of the surface */
    for (int i = 0; i < 16; i++) {          /* the row after it: untouched */
        memcpy(&w, h->vram + T3D_ZB + (16 * 16 + i) * 4, 4);
        g_assert_cmphex(w, ==, 0);
    }
    test_host_free(h);
}

/*
 * A draw split across CP slices (pipe/draw.h) gives exactly the pixels of
 * the same draw done in one call: every call stops after about its
 * budget, the next goes on where it stopped, and nothing is drawn twice
 * (additive blending would show it) or left out: triangles, fans sharing
 * edges, points (rectangles), at several budgets.
 */
static void test_split_draw(void)
{
    static const uint64_t budgets[] = { 1, 40, 300, 5000 };
    float tri[9 * 8], pts[4 * 8];
    TestHost *one = test_host_new(R500_MODEL_RV515, 64);

    vtx(tri, 0.5f, 0, 0, 0.10f, 0.05f, 0.02f, 0.1f);
    vtx(tri + 8, 64, 3.25f, 0, 0.02f, 0.10f, 0.05f, 0.1f);
    vtx(tri + 16, 5, 60, 0, 0.05f, 0.02f, 0.10f, 0.1f);
    vtx(tri + 24, 60, 0.5f, 0, 0.07f, 0.03f, 0.01f, 0.2f);
    vtx(tri + 32, 63, 63.5f, 0, 0.01f, 0.07f, 0.03f, 0.2f);
    vtx(tri + 40, 0.25f, 40, 0, 0.03f, 0.01f, 0.07f, 0.2f);
    vtx(tri + 48, 10.5f, 10, 0, 0.04f, 0.04f, 0.04f, 0.3f);
    vtx(tri + 56, 50, 20.75f, 0, 0.04f, 0.04f, 0.04f, 0.3f);
    vtx(tri + 64, 30, 55, 0, 0.04f, 0.04f, 0.04f, 0.3f);
    for (int i = 0; i < 4; i++) {
        vtx(pts + 8 * i, 8 + 14 * i, 50 - 12 * i, 0, 0.1f, 0.1f, 0.1f, 0.1f);
    }
    t3d_setup(one);
    t3d_blend_add(one);
    t3d_fill(one, 0xFF102030);
    r500_reg_write(&one->chip, R_GA_POINT_SIZE, (8u * 6) << 16 | 8u * 6);
    t3d_draw(one, TRIANGLES, tri, 9);
    t3d_draw(one, TRI_FAN, tri, 9);
    t3d_draw(one, POINTS, pts, 4);

    for (unsigned k = 0; k < G_N_ELEMENTS(budgets); k++) {
        TestHost *h = test_host_new(R500_MODEL_RV515, 64);
        uint64_t most, worst = 0, quads;
        unsigned calls = 0;

        t3d_setup(h);
        t3d_blend_add(h);
        t3d_fill(h, 0xFF102030);
        r500_reg_write(&h->chip, R_GA_POINT_SIZE, (8u * 6) << 16 | 8u * 6);
        calls += t3d_draw_split(h, TRIANGLES, tri, 9, budgets[k], &most);
        worst = MAX(worst, most);
        calls += t3d_draw_split(h, TRI_FAN, tri, 9, budgets[k], &most);
        worst = MAX(worst, most);
        calls += t3d_draw_split(h, POINTS, pts, 4, budgets[k], &most);
        worst = MAX(worst, most);
        quads = h->chip.rast.quads;
        g_test_message("budget %" G_GUINT64_FORMAT ": %u calls, at most %"
                       G_GUINT64_FORMAT " units", budgets[k], calls, worst);
        /*
         * The budget, plus the last quad and the vertices it needed, plus
         * the vertices shaded again when a call resumes inside a
         * primitive: that repeated work does not count against the
         * budget, so each call still draws about a budget of quads (here
         * two or more of about 34 units, where the three vertices of a
         * triangle cost 66).
         */
        g_assert_cmpuint(worst, <=, budgets[k] + 200);
        g_assert_cmpuint(calls, >, budgets[k] < 1000 ? 20 : 3);
        if (budgets[k] >= 40) {
            g_assert_cmpuint(calls * 10, <, quads * 6);
        }
        g_assert_cmpmem(h->vram + T3D_CB, T3D_W * T3D_H * 4,
                        one->vram + T3D_CB, T3D_W * T3D_H * 4);
        test_host_free(h);
    }
    test_host_free(one);
}

/* Colour formats of table 6.1: C0..C3 to bits. */
static void test_formats(void)
{
    const float c[4] = { 1.0f, 0.0f, 0.5f, 1.0f };
    uint8_t p[16];
    float back[4];

    /* RGB565: C0 [4:0], C1 [10:5], C2 [15:11] */
    r500_rb3d_pack(4, 0, c, p);
    g_assert_cmphex(p[0] | p[1] << 8, ==, 0x1F | 16u << 11);
    /* ARGB1555 and ARGB4444 */
    r500_rb3d_pack(3, 0, c, p);
    g_assert_cmphex(p[0] | p[1] << 8, ==, 0x1F | 16u << 10 | 1u << 15);
    r500_rb3d_pack(15, 0, c, p);
    g_assert_cmphex(p[0] | p[1] << 8, ==, 0xF | 8u << 8 | 0xFu << 12);
    /* UV88: C2 in the low byte, C0 in the high one; I8: C2 */
    r500_rb3d_pack(13, 0, c, p);
    g_assert_cmphex(p[0] | p[1] << 8, ==, 128 | 255u << 8);
    r500_rb3d_pack(9, 0, c, p);
    g_assert_cmphex(p[0], ==, 128);
    /* ARGB2101010 (C4_10) */
    r500_rb3d_pack(5, 1, c, p);
    g_assert_cmphex(p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24, ==,
                    1023u | 512u << 20 | 3u << 30);
    /* FP16 x 4 and FP32 x 4 */
    r500_rb3d_pack(10, 18, c, p);
    g_assert_cmphex(p[0] | p[1] << 8, ==, 0x3C00);
    g_assert_cmphex(p[4] | p[5] << 8, ==, 0x3800);
    r500_rb3d_pack(7, 21, c, p);
    g_assert_cmpmem(p, 16, c, 16);
    /* round trips */
    r500_rb3d_pack(6, 0, c, p);
    r500_rb3d_unpack(6, 0, p, back);
    g_assert_cmpfloat_with_epsilon(back[2], 128.0f / 255, 1e-6);
    g_assert_cmphex(r500_rb3d_bytes(10, 18), ==, 8);
    /* I8 is an intensity: its byte reads back as all four components */
    p[0] = 51;
    r500_rb3d_unpack(9, 0, p, back);
    for (int i = 0; i < 4; i++) {
        g_assert_cmpfloat_with_epsilon(back[i], 0.2f, 1e-6);
    }
    /* UV88: the high byte (C0) reads back as C1 and C3 too */
    p[0] = 51;
    p[1] = 102;
    r500_rb3d_unpack(13, 0, p, back);
    g_assert_cmpfloat_with_epsilon(back[2], 0.2f, 1e-6);
    g_assert_cmpfloat_with_epsilon(back[0], 0.4f, 1e-6);
    g_assert_cmpfloat_with_epsilon(back[1], 0.4f, 1e-6);
    g_assert_cmpfloat_with_epsilon(back[3], 0.4f, 1e-6);
}

/* Blending SRC_ALPHA, ONE_MINUS_SRC_ALPHA over a grey destination. */
static void test_blend(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    float v[3 * 8];

    t3d_setup(h);
    t3d_fill(h, 0xFF808080);
    r500_reg_write(&h->chip, R_RB3D_BLENDCNTL, 1 | 38u << 16 | 39u << 24);
    vtx(v, 0, 0, 0, 1, 0, 0, 0.25f);
    vtx(v + 8, 64, 0, 0, 1, 0, 0, 0.25f);
    vtx(v + 16, 0, 64, 0, 1, 0, 0, 0.25f);
    t3d_draw(h, TRIANGLES, v, 3);
    /* red 0.25 + 0.75 * 128/255, green and blue 0.75 * 128/255 */
    g_assert_cmpint(abs((int)red(h, 1, 1) - 160), <=, 1);
    g_assert_cmpint(abs((int)((t3d_px(h, 1, 1) >> 8) & 0xFF) - 96), <=, 1);
    /* the channel mask keeps masked components */
    r500_reg_write(&h->chip, R_RB3D_BLENDCNTL, 0);
    r500_reg_write(&h->chip, R_RB3D_COLOR_CHANNEL_MASK, 0x2);
    t3d_fill(h, 0x11223344);
    t3d_draw(h, TRIANGLES, v, 3);
    g_assert_cmphex(t3d_px(h, 1, 1), ==, 0x11220044);
    test_host_free(h);
}

/*
 * US_OUT_FMT.OUT_SIGN (reference 6.1: signed components are clamped to
 * [-1, 1], scaled by 2^(n-1) - 1 and stored two's complement): 0.25 is
 * stored as 32 (0.25 * 127 = 31.75), not as the unsigned 64, and 1.0 as
 * 127, -1.0 as -127; a masked component keeps its stored bits.
 */
static void test_out_sign(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    float v[3 * 8];
    /* C4_8, C0..C3 = R, G, B, A, all four signed */
    uint32_t of = 1u << 8 | 2u << 10 | 3u << 12 | 0u << 14 | 0xFu << 16;

    t3d_setup(h);
    t3d_fill(h, 0x80808080);
    r500_reg_write(&h->chip, R500_REGA_AT(US_OUT_FMT, 0), of);
    vtx(v, 0, 0, 0, 0.25f, 1, 0, 0.5f);
    vtx(v + 8, 64, 0, 0, 0.25f, 1, 0, 0.5f);
    vtx(v + 16, 0, 64, 0, 0.25f, 1, 0, 0.5f);
    t3d_draw(h, TRIANGLES, v, 3);
    g_assert_cmphex(t3d_px(h, 1, 1), ==, 0x40007F20);
    /* masked: C1 kept (0x7F), the others written */
    r500_reg_write(&h->chip, R_RB3D_COLOR_CHANNEL_MASK, 0xD);
    vtx(v, 0, 0, 0, 1, 0, 0.25f, 1);
    vtx(v + 8, 64, 0, 0, 1, 0, 0.25f, 1);
    vtx(v + 16, 0, 64, 0, 1, 0, 0.25f, 1);
    t3d_draw(h, TRIANGLES, v, 3);
    g_assert_cmphex(t3d_px(h, 1, 1), ==, 0x7F207F7F);
    /*
     * -1.0 is -127 (0x81), -0.5 rounds to even (-64); C1 and C3 masked
     * keep -128 (0x80) as stored, not the -127 it reads back as
     */
    t3d_fill(h, 0x80808080);
    r500_reg_write(&h->chip, R_RB3D_COLOR_CHANNEL_MASK, 0x5);
    vtx(v, 0, 0, 0, -1, 0, -0.5f, 0);
    vtx(v + 8, 64, 0, 0, -1, 0, -0.5f, 0);
    vtx(v + 16, 0, 64, 0, -1, 0, -0.5f, 0);
    t3d_draw(h, TRIANGLES, v, 3);
    g_assert_cmphex(t3d_px(h, 1, 1), ==, 0x80C08081);
    test_host_free(h);
}

/*
 * RB3D_CCTL.NUM_MULTIWRITES = n: output 0 is written to buffers 0..n in
 * output 0's US_OUT_FMT, as Mesa programs a broadcast gl_FragColor (US_OUT_FMT
 * 1-3 UNUSED; piglit fbo-drawbuffers-fragcolor); buffer 2 (past n) is not.
 */
static void test_multiwrite(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500Chip *s = &h->chip;
    const uint32_t cb1 = T3D_CB + 0x40000, cb2 = T3D_CB + 0x80000;
    uint32_t pitch, p1, p2;
    float v[3 * 8];

    t3d_setup(h);
    pitch = s->regs[R_RB3D_COLORPITCH / 4];
    r500_reg_write(s, R_RB3D_CCTL, 1u << 5 | 1u << 14);
    r500_reg_write(s, R500_REGA_AT(RB3D_COLOROFFSET, 1), cb1);
    r500_reg_write(s, R500_REGA_AT(RB3D_COLORPITCH, 1), pitch);
    r500_reg_write(s, R500_REGA_AT(RB3D_COLOROFFSET, 2), cb2);
    r500_reg_write(s, R500_REGA_AT(RB3D_COLORPITCH, 2), pitch);
    for (int i = 1; i < 4; i++) {
        r500_reg_write(s, R500_REGA_AT(US_OUT_FMT, i), 0xF);
    }
    vtx(v, 0, 0, 0, 1, 0.5f, 0, 1);
    vtx(v + 8, 64, 0, 0, 1, 0.5f, 0, 1);
    vtx(v + 16, 0, 64, 0, 1, 0.5f, 0, 1);
    t3d_draw(h, TRIANGLES, v, 3);
    memcpy(&p1, h->vram + cb1 + (T3D_W + 1) * 4, 4);
    memcpy(&p2, h->vram + cb2 + (T3D_W + 1) * 4, 4);
    g_assert_cmphex(t3d_px(h, 1, 1), ==, 0xFF0080FF);
    g_assert_cmphex(p1, ==, t3d_px(h, 1, 1));
    g_assert_cmphex(p2, ==, 0);
    test_host_free(h);
}

/* SU_POLY_OFFSET_ENABLE.PARA is not modelled: said once, per draw. */
static void test_poly_offset_para(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    float v[3 * 8];

    t3d_setup(h);
    r500_reg_write(&h->chip, R_SU_POLY_OFFSET_ENABLE, 4);
    vtx(v, 0, 0, 0, 1, 1, 1, 1);
    vtx(v + 8, 64, 0, 0, 1, 1, 1, 1);
    vtx(v + 16, 0, 64, 0, 1, 1, 1, 1);
    t3d_draw(h, TRIANGLES, v, 3);
    t3d_draw(h, TRIANGLES, v, 3);
    g_assert_cmpuint(test_host_count_logs(h, "PARA"), ==, 1);
    test_host_free(h);
}

/*
 * An I8 target stores C2 but blends it with the green blend constant:
 * Mesa gives an A8 target its constant alpha in that slot only
 * (r300_set_blend_color; piglit fbo-blending-format-quirks).  CONSTANT_COLOR
 * x 1: 0.4 (G), not 0.9 (R).
 */
static void test_i8_blend_constant(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500Chip *s = &h->chip;
    float v[3 * 8];

    t3d_setup(h);
    r500_reg_write(s, R_RB3D_COLORPITCH, T3D_W | 9u << 21);    /* I8 */
    r500_reg_write(s, R500_REGA_AT(US_OUT_FMT, 0), 0);        /* C4_8, AAAA */
    /* CONSTANT_COLOR, ZERO (the stream of piglit's A8 case) */
    r500_reg_write(s, R_RB3D_BLENDCNTL, 0x202b0001);
    r500_reg_write(s, R_RB3D_CONSTANT_COLOR_AR, 409u << 16 | 921u);
    r500_reg_write(s, R_RB3D_CONSTANT_COLOR_GB, 409u << 16 | 255u);
    vtx(v, 0, 0, 0, 0, 0, 0, 1);
    vtx(v + 8, 64, 0, 0, 0, 0, 0, 1);
    vtx(v + 16, 0, 64, 0, 0, 0, 0, 1);
    t3d_draw(h, TRIANGLES, v, 3);
    g_assert_cmpuint(h->vram[T3D_CB + T3D_W + 1], ==,
                     lrintf(409 / 1023.0f * 255));
    test_host_free(h);
}

/*
 * A macro- and micro-tiled colour buffer read back through the texture
 * unit into a linear one, as Mesa's glReadPixels does: identical pixels.
 */
static void test_tiled_readback(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500Chip *s = &h->chip;
    const uint32_t tiled = T3D_TEX;
    float v[3 * 8];
    uint32_t tex[4 * 6];
    /* TEX: t0 = sample(unit 0, t0), then OUT t0 */
    T3DAlu out = {
        .out = true, .rgb_omask = 7, .alpha_omask = 1,
        .addr = { 0, 0x80, 0x80 },
        .swz = { { 0, 1, 2 }, { 6, 6, 6 }, { 4, 4, 4 } },
        .aswz = { 3, 6, 4 },
    };

    t3d_setup(h);
    /* draw a gradient into the tiled buffer */
    r500_reg_write(s, R_RB3D_COLOROFFSET, tiled);
    r500_reg_write(s, R_RB3D_COLORPITCH, T3D_W | 1u << 16 | 1u << 17 | 6u << 21);
    vtx(v, 0, 0, 0, 0, 0, 1, 1);
    vtx(v + 8, 128, 0, 0, 1, 0, 1, 1);
    vtx(v + 16, 0, 128, 0, 0, 1, 0, 0);
    t3d_draw(h, TRIANGLES, v, 3);
    /*
     * 4x2 micro tiles of 32 bytes (reference 6.4): bytes 16..19 hold pixel
     * (0, 1), not (4, 0) as a linear buffer would
     */
    {
        uint32_t p01;

        memcpy(&p01, h->vram + tiled + 16, 4);
        g_assert_cmpuint(p01 & 0xFF, ==, lrintf(0.5f / 128 * 255));
        g_assert_cmpuint((p01 >> 8) & 0xFF, ==, lrintf(1.5f / 128 * 255));
    }

    /* copy it to the linear buffer with a textured point sprite */
    r500_reg_write(s, R_RB3D_COLOROFFSET, T3D_CB);
    r500_reg_write(s, R_RB3D_COLORPITCH, T3D_W | 6u << 21);
    r500_reg_write(s, R_TX_ENABLE, 1);
    r500_reg_write(s, R_TX_FILTER0, 2 | 2u << 3 | 1u << 9 | 1u << 11);
    r500_reg_write(s, R_TX_FILTER1, 0);
    r500_reg_write(s, R_TX_FORMAT0, (T3D_W - 1) | (T3D_H - 1) << 11);
    /* 8_8_8_8, SEL R=0 G=1 B=2 A=3 */
    r500_reg_write(s, R_TX_FORMAT1, 0xC | 3u << 9 | 0u << 12 | 1u << 15 |
                   2u << 18);
    r500_reg_write(s, R_TX_FORMAT2, 0);
    r500_reg_write(s, R_TX_OFFSET, tiled | 1u << 2 | 1u << 3);
    r500_reg_write(s, R_GA_POINT_SIZE, (32u * 12) << 16 | 32u * 12);
    r500_reg_write(s, R_GB_ENABLE, 1 | 2u << 16);
    r500_reg_write(s, R_GA_POINT_S0, fbits(0.0f));
    r500_reg_write(s, R_GA_POINT_T0, fbits(1.0f));
    r500_reg_write(s, R_GA_POINT_S1, fbits(1.0f));
    r500_reg_write(s, R_GA_POINT_T1, fbits(0.0f));
    r500_reg_write(s, R_VAP_OUTPUT_VTX_FMT_0, 1);
    r500_reg_write(s, R_RS_IP, 0 | 1u << 6 | 62u << 12 | 63u << 18);
    r500_reg_write(s, R_RS_COUNT, 2);
    r500_reg_write(s, R_RS_INST, 1u << 4);
    memset(tex, 0, sizeof(tex));
    tex[0] = 3 | 0xFu << 11;                /* TEX, write RGBA */
    tex[1] = 1u << 22;                      /* unit 0, LD */
    tex[2] = 0 | 1u << 10 | 2u << 12 | 3u << 14 | 0u << 16 |
             0u << 24 | 1u << 26 | 2u << 28 | 3u << 30;
    t3d_us_alu(&out, tex + 6);
    t3d_us_program(h, tex, 2);
    t3d_fill(h, 0);
    vtx(v, 32, 32, 0, 0, 0, 0, 0);
    t3d_draw(h, POINTS, v, 1);
    /* every linear pixel equals the tiled pixel the gradient put there */
    for (unsigned y = 0; y < T3D_H; y++) {
        for (unsigned x = 0; x < T3D_W; x++) {
            uint32_t want = lrintf((x + 0.5f) / 128 * 255) |
                            lrintf((y + 0.5f) / 128 * 255) << 8;
            uint32_t got = t3d_px(h, x, y) & 0xFFFF;

            g_assert_cmpint(abs((int)(got & 0xFF) - (int)(want & 0xFF)), <=, 1);
            g_assert_cmpint(abs((int)(got >> 8) - (int)(want >> 8)), <=, 1);
        }
    }
    test_host_free(h);
}

/* Hostile state: unreachable buffers, bad programs, degenerate input. */
static void test_hostile(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500Chip *s = &h->chip;
    float v[3 * 8];
    R500DrawCmd cmd = {
        .opcode = 0x34, .source = R500_DRAW_ARRAYS, .prim_type = TRIANGLES,
        .num_vertices = 3, .num_arrays = 1,
        .arrays = { { .addr = 0xFFFFFF00u, .size = 8, .stride = 8 } },
    };

    t3d_setup(h);
    vtx(v, 0, 0, 0, 1, 1, 1, 1);
    vtx(v + 8, 64, 0, 0, 1, 1, 1, 1);
    vtx(v + 16, 0, 64, 0, 1, 1, 1, 1);
    /* a colour buffer past the end of every mapping */
    r500_reg_write(s, R_RB3D_COLOROFFSET, 0xF0000000u);
    t3d_draw(h, TRIANGLES, v, 3);
    g_assert_cmpuint(test_host_count_logs(h, "not reachable"), >=, 1);
    /* a huge pitch and a huge point stay inside the scissor and budget */
    r500_reg_write(s, R_RB3D_COLOROFFSET, T3D_CB);
    r500_reg_write(s, R_RB3D_COLORPITCH, 0x3FFE | 6u << 21);
    r500_reg_write(s, R_GA_POINT_SIZE, 0xFFFFFFFF);
    t3d_draw(h, POINTS, v, 1);
    /* vertex arrays that cannot be read read as zero */
    r500_reg_write(s, R_RB3D_COLORPITCH, T3D_W | 6u << 21);
    r500_3d_draw(s, &cmd);
    g_assert_cmpuint(test_host_count_logs(h, "unreadable"), >=, 1);
    /* NaN and infinite positions are dropped */
    v[0] = NAN;
    v[9] = INFINITY;
    t3d_draw(h, TRIANGLES, v, 3);
    /* no position output: the draw is skipped with an error */
    r500_reg_write(s, R_VAP_OUTPUT_VTX_FMT_0, 2);
    t3d_draw(h, TRIANGLES, v, 3);
    g_assert_cmpuint(test_host_count_logs(h, "declares no position"), ==, 1);
    test_host_free(h);
}

/*
 * Clears of 2^32 - 1 dwords (CLEAR_HIZ, CLEAR_ZMASK, CLEAR_CMASK), and
 * from past the end: clamped to the RAM with a guest error each, charged
 * to the CP's budget by the dwords written, nothing written outside.
 */
static void test_huge_clears(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500Chip *s = &h->chip;
    R500ClearCmd hiz = { .opcode = 0x37, .count = 0xFFFFFFFF,
                         .value = 0x12345678 };
    R500ClearCmd zmask = { .opcode = 0x32, .start = 0xFFFFFFFF,
                           .count = 0xFFFFFFFF, .value = 0 };

    g_assert_cmpuint(r500_3d_clear(s, &hiz), ==, 1 + R500_HIZ_DWORDS / 64);
    for (unsigned i = 0; i < R500_HIZ_DWORDS; i++) {
        g_assert_cmphex(s->rb3d.hiz_ram[i], ==, 0x12345678);
    }
    g_assert_cmpuint(test_host_count_logs(h, "clamped"), ==, 1);
    g_assert_cmpuint(r500_3d_clear(s, &zmask), ==, 1);
    g_assert_cmpuint(test_host_count_logs(h, "clamped"), ==, 2);
    zmask.opcode = 0x38;
    zmask.start = R500_CMASK_DWORDS - 1;
    zmask.value = 0xA5A5A5A5;
    g_assert_cmpuint(r500_3d_clear(s, &zmask), ==, 1);
    g_assert_cmphex(s->rb3d.cmask_ram[R500_CMASK_DWORDS - 1], ==,
                    0xA5A5A5A5);
    g_assert_cmpuint(test_host_count_logs(h, "clamped"), ==, 3);
    test_host_free(h);
}

/*
 * The soft renderer on worker threads (pipe/soft.h) writes the same bytes
 * as one thread: overlapping triangles with additive blending over a
 * depth test (the order of the quads on a pixel matters twice), a fan
 * sharing edges, points, each whole and split as the CP splits them at
 * budgets 1..5000; the occlusion count is the same too, and the draws
 * did go to the pool of workers.
 */
static void threads_scene(TestHost *h, uint64_t budget)
{
    R500Chip *s = &h->chip;
    float tri[9 * 8], pts[4 * 8];

    vtx(tri, 0.5f, 0, 0.2f, 0.10f, 0.05f, 0.02f, 0.1f);
    vtx(tri + 8, 64, 3.25f, 0.8f, 0.02f, 0.10f, 0.05f, 0.1f);
    vtx(tri + 16, 5, 60, 0.5f, 0.05f, 0.02f, 0.10f, 0.1f);
    vtx(tri + 24, 60, 0.5f, 0.9f, 0.07f, 0.03f, 0.01f, 0.2f);
    vtx(tri + 32, 63, 63.5f, 0.1f, 0.01f, 0.07f, 0.03f, 0.2f);
    vtx(tri + 40, 0.25f, 40, 0.4f, 0.03f, 0.01f, 0.07f, 0.2f);
    vtx(tri + 48, 10.5f, 10, 0.3f, 0.04f, 0.04f, 0.04f, 0.3f);
    vtx(tri + 56, 50, 20.75f, 0.6f, 0.04f, 0.04f, 0.04f, 0.3f);
    vtx(tri + 64, 30, 55, 0.45f, 0.04f, 0.04f, 0.04f, 0.3f);
    for (int i = 0; i < 4; i++) {
        vtx(pts + 8 * i, 8 + 14 * i, 50 - 12 * i, 0.05f, 0.1f, 0.1f, 0.1f,
            0.1f);
    }
    t3d_setup(h);
    t3d_blend_add(h);
    t3d_fill(h, 0xFF102030);
    r500_reg_write(s, R_ZB_FORMAT, 2);
    r500_reg_write(s, R_ZB_DEPTHOFFSET, T3D_ZB);
    r500_reg_write(s, R_ZB_DEPTHPITCH, T3D_W);
    memset(h->vram + T3D_ZB, 0xFF, T3D_W * T3D_H * 4);
    /* Z_ENABLE | Z_WRITE_ENABLE, ZFUNC LESS */
    r500_reg_write(s, R_ZB_CNTL, 6);
    r500_reg_write(s, R_ZB_ZSTENCILCNTL, 1);
    r500_reg_write(s, R_ZB_ZPASS_DATA, 0);
    r500_reg_write(s, R_GA_POINT_SIZE, (8u * 6) << 16 | 8u * 6);
    t3d_draw_split(h, TRIANGLES, tri, 9, budget, NULL);
    /* the fan over them with the depth test off: blending order only */
    r500_reg_write(s, R_ZB_CNTL, 0);
    t3d_draw_split(h, TRI_FAN, tri, 9, budget, NULL);
    r500_reg_write(s, R_ZB_CNTL, 6);
    t3d_draw_split(h, POINTS, pts, 4, budget, NULL);
}

static void test_threads(void)
{
    static const uint64_t budgets[] = { 0, 1, 40, 300, 5000 };

    for (unsigned k = 0; k < G_N_ELEMENTS(budgets); k++) {
        TestHost *one = test_host_new(R500_MODEL_RV515, 64);

        r500_soft_set_threads(&one->chip, 1);
        threads_scene(one, budgets[k]);
        g_assert_cmpuint(one->chip.soft.threaded_draws, ==, 0);
        for (unsigned n = 2; n <= 4; n++) {
            TestHost *h = test_host_new(R500_MODEL_RV515, 64);

            r500_soft_set_threads(&h->chip, n);
            threads_scene(h, budgets[k]);
            g_assert_cmpuint(h->chip.soft.threaded_draws, >=, 3);
            g_assert_cmpuint(h->chip.soft.batches, >=, 3);
            g_assert_cmpmem(h->vram + T3D_CB, T3D_W * T3D_H * 4,
                            one->vram + T3D_CB, T3D_W * T3D_H * 4);
            g_assert_cmpmem(h->vram + T3D_ZB, T3D_W * T3D_H * 4,
                            one->vram + T3D_ZB, T3D_W * T3D_H * 4);
            g_assert_cmpuint(h->chip.rb3d.zpass, ==, one->chip.rb3d.zpass);
            test_host_free(h);
        }
        /* something was drawn, and depth-tested */
        g_assert_cmpuint(one->chip.rb3d.zpass, >, 1000);
        g_assert_cmpuint(one->chip.rb3d.zfail, >, 100);
        test_host_free(one);
    }
    /*
     * A target outside VRAM (here: unreachable) is drawn by the caller
     * alone: staged pages are written back whole, and workers never reach
     * the host's DMA.
     */
    {
        TestHost *h = test_host_new(R500_MODEL_RV515, 64);
        float tri[3 * 8];

        r500_soft_set_threads(&h->chip, 2);
        vtx(tri, 0, 0, 0, 1, 1, 1, 1);
        vtx(tri + 8, 64, 0, 0, 1, 1, 1, 1);
        vtx(tri + 16, 0, 64, 0, 1, 1, 1, 1);
        t3d_setup(h);
        t3d_draw(h, TRIANGLES, tri, 3);
        g_assert_cmpuint(h->chip.soft.threaded_draws, ==, 1);
        r500_reg_write(&h->chip, R500_REGA_AT(RB3D_COLOROFFSET, 0),
                       0xF0000000u);
        t3d_draw(h, TRIANGLES, tri, 3);
        g_assert_cmpuint(h->chip.soft.threaded_draws, ==, 1);
        g_assert_cmpuint(h->chip.rast.quads, >, 1000);
        test_host_free(h);
    }
}

/*
 * Each 3D block resets its own state: an unmodelled feature the rasteriser
 * reports (PVS bypass) is reported once until the chip is reset.
 */
static void test_reset_reports(void)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    R500Chip *s = &h->chip;
    float v[3 * 8];

    vtx(v, 0, 0, 0, 1, 1, 1, 1);
    vtx(v + 8, 32, 0, 0, 1, 1, 1, 1);
    vtx(v + 16, 0, 32, 0, 1, 1, 1, 1);
    for (int round = 1; round <= 2; round++) {
        t3d_setup(h);
        r500_reg_write(s, R_VAP_CNTL_STATUS,
                       R500_FMASK(VAP_CNTL_STATUS, PVS_BYPASS));
        t3d_draw(h, TRIANGLES, v, 3);
        t3d_draw(h, TRIANGLES, v, 3);
        g_assert_cmpuint(test_host_count_logs(h, "PVS_BYPASS"), ==, round);
        r500_chip_reset(s);
    }
    test_host_free(h);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/3d/reset-reports", test_reset_reports);
    g_test_add_func("/3d/fill-rule", test_fill_rule);
    g_test_add_func("/3d/top-left", test_top_left);
    g_test_add_func("/3d/shading", test_shading);
    g_test_add_func("/3d/occlusion", test_occlusion);
    g_test_add_func("/3d/two-sided", test_two_sided);
    g_test_add_func("/3d/culling", test_culling);
    g_test_add_func("/3d/scissor-cliprects", test_scissor_cliprects);
    g_test_add_func("/3d/point-sprite", test_point_sprite);
    g_test_add_func("/3d/depth-stencil", test_depth_stencil);
    g_test_add_func("/3d/fast-clear", test_fast_clear);
    g_test_add_func("/3d/cb-clear", test_cb_clear);
    g_test_add_func("/3d/cb-clear-pitch", test_cb_clear_pitch);
    g_test_add_func("/3d/formats", test_formats);
    g_test_add_func("/3d/blend", test_blend);
    g_test_add_func("/3d/out-sign", test_out_sign);
    g_test_add_func("/3d/multiwrite", test_multiwrite);
    g_test_add_func("/3d/poly-offset-para", test_poly_offset_para);
    g_test_add_func("/3d/i8-blend-constant", test_i8_blend_constant);
    g_test_add_func("/3d/split-draw", test_split_draw);
    g_test_add_func("/3d/threads", test_threads);
    g_test_add_func("/3d/tiled-readback", test_tiled_readback);
    g_test_add_func("/3d/hostile", test_hostile);
    g_test_add_func("/3d/contract/huge-clears", test_huge_clears);
    return g_test_run();
}
