/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The host-GL renderer's draw state on the chip core against soft: RB, ZB
 * and the clip rule (hw/r500/gl/gl_state.c), the texture levels
 * (gl_tex.c, gl/tx_glsl.c):
 *
 *   depth-only    a depth and stencil pass with every colour channel
 *                 masked (a Z pre-pass, a shadow map) over Z24S8 and Z16
 *                 buffers draws on gl: soft's stencil bytes, its depth
 *                 words within rounding, the colour target untouched, the
 *                 occlusion count soft's; and a draw with neither colour
 *                 nor depth counts its samples on gl;
 *   clip-rects    SC_CLIP_RULE over four overlapping SC_CLIPRECTs, rules
 *                 of one rectangle, any, none and their parity, on gl:
 *                 soft's colour, depth, stencil and occlusion count, bit
 *                 for bit (a pixel the rule drops neither counts nor
 *                 writes depth or stencil);
 *   mip-first     a mipmapped 2D texture sampled from level 0 and from
 *                 MAX_MIP_LEVEL 2 at LODs from magnified to past the
 *                 first level, magnified linearly and minified by point,
 *                 the mip levels nearest or blended, LD and LODBIAS:
 *                 soft's level and filter (GL's own LOD is from its base
 *                 level, the first).
 *
 * The rectangles drawn have pixel-aligned edges, so both renderers cover
 * the same pixels and only depth values and filtering may round apart.
 */
#include <string.h>

#include "gl-host.h"

/* Where the occlusion counts are stored (nothing else is there). */
#define COUNT_AT        T3D_TEX

/* ZB_ZSTENCILCNTL functions and stencil operations (reference 2.12) */
enum { F_LESS = 1, F_ALWAYS = 7 };
enum { S_KEEP = 0, S_INCR = 3, S_INVERT = 5 };

/* A Z24S8 (z24) or Z16 buffer at T3D_ZB whose every word is word. */
static void zb_setup(TestHost *h, bool z24, uint32_t word)
{
    R500Chip *s = &h->chip;
    unsigned bpp = z24 ? 4 : 2;

    r500_reg_write(s, R_ZB_FORMAT, z24 ? 2 : 0);
    r500_reg_write(s, R_ZB_DEPTHOFFSET, T3D_ZB);
    r500_reg_write(s, R_ZB_DEPTHPITCH, T3D_W);
    for (unsigned i = 0; i < T3D_W * T3D_H; i++) {
        memcpy(h->vram + T3D_ZB + i * bpp, &word, bpp);
    }
}

/* Depth word i of the buffer (Z24S8: the whole word, stencil low). */
static uint32_t zb_word(TestHost *h, bool z24, unsigned i)
{
    uint32_t w = 0;

    memcpy(&w, h->vram + T3D_ZB + i * (z24 ? 4 : 2), z24 ? 4 : 2);
    return GUINT32_FROM_LE(w);
}

/*
 * Rectangle (x0, y0)-(x1, y1) as two triangles whose window z goes from
 * z0 at x0 to z1 at x1.
 */
static void z_rect(TestHost *h, float x0, float y0, float x1, float y1,
                   float z0, float z1)
{
    float v[6 * 8];

    rect_verts(v, x0, y0, x1, y1, 0.5f, 0.25f, 0.125f, 1.0f);
    for (unsigned i = 0; i < 6; i++) {
        v[8 * i + 2] = v[8 * i] == x0 ? z0 : z1;
    }
    t3d_draw(h, TRIANGLES, v, 6);
}

/* Reset the occlusion count; after the draws, store it and read it. */
static void count_reset(TestHost *h)
{
    r500_reg_write(&h->chip, R_SU_REG_DEST, 1);
    r500_reg_write(&h->chip, R_ZB_ZPASS_DATA, 0);
}

static uint32_t count_read(TestHost *h)
{
    uint32_t n;

    r500_reg_write(&h->chip, R_ZB_ZPASS_ADDR, COUNT_AT);
    memcpy(&n, h->vram + COUNT_AT, 4);
    return GUINT32_FROM_LE(n);
}

/*
 * Every colour channel masked: the target is not written (rb3d.c), so
 * the draw has no colour target.  Depth LESS and written; on Z24S8 the
 * stencil counts the passes (INCR) and inverts where depth fails.
 */
static void depth_pass(TestHost *h, bool z24)
{
    R500Chip *s = &h->chip;

    r500_reg_write(s, R_RB3D_COLOR_CHANNEL_MASK, 0);
    r500_reg_write(s, R_ZB_CNTL, (z24 ? 1 : 0) | 2 | 4);
    r500_reg_write(s, R_ZB_ZSTENCILCNTL, F_LESS | F_ALWAYS << 3 |
                   S_KEEP << 6 | S_INCR << 9 | S_INVERT << 12 |
                   F_ALWAYS << 15 | S_KEEP << 18 | S_INCR << 21 |
                   S_INVERT << 24);
    /* ref 0x40, compare mask and write mask 0xFF */
    r500_reg_write(s, R_ZB_STENCILREFMASK, 0x40 | 0xFF << 8 | 0xFF << 16);
    count_reset(h);
    /* flat z 0.25 over the stored 0.5: passes, writes 0.25 */
    z_rect(h, 8, 8, 40, 40, 0.25f, 0.25f);
    /*
     * z from 0 to 0.75 across x 24..56: passes left of x 34.2 (over 0.25)
     * and of x 45.3 (over 0.5), the crossings between pixel centres
     */
    z_rect(h, 24, 24, 56, 56, 0.0f, 0.75f);
}

static void test_depth_only(void)
{
    const uint32_t fill = 0x00FF8040;

    for (unsigned z24 = 0; z24 < 2; z24++) {
        TestHost *soft = host("soft"), *gl = host("gl");
        TestHost *hs[2] = { soft, gl };
        /* z 0.5, stencil 0x10 */
        uint32_t word = z24 ? 0x80000010u : 0x8000u;
        uint32_t n[2];
        unsigned changed = 0, off = 0, drawn;

        for (unsigned k = 0; k < 2; k++) {
            t3d_fill(hs[k], fill);
            zb_setup(hs[k], z24, word);
            depth_pass(hs[k], z24);
            n[k] = count_read(hs[k]);
        }
        assert_gl_draws(gl, 2, 0);
        /* the colour target untouched on both */
        g_assert_cmpuint(compare_bits(soft, gl, fill, &drawn), ==, 0);
        g_assert_cmpuint(drawn, ==, 0);
        /* both rectangles' pixels, but where the second one's z fails */
        g_assert_cmpuint(n[0], >, 32 * 32 + 16 * 32);
        g_assert_cmpuint(n[1], ==, n[0]);
        for (unsigned i = 0; i < T3D_W * T3D_H; i++) {
            uint32_t a = zb_word(soft, z24, i), b = zb_word(gl, z24, i);
            int64_t da = z24 ? a >> 8 : a, db = z24 ? b >> 8 : b;

            changed += a != word;
            /*
             * Depth: soft's plane through vertices snapped to 1/12 pixel
             * against GL's interpolation, a few steps of the sloped
             * rectangle's 0.75 / 32 a pixel at most; the stencil exact.
             */
            off += ABS(da - db) > (z24 ? 1 << 12 : 1 << 4);
            if (z24) {
                g_assert_cmphex(a & 0xFF, ==, b & 0xFF);
            }
        }
        /* the first rectangle and part of the second beside it */
        g_assert_cmpuint(changed, >, 32 * 32 + 16 * 16);
        g_assert_cmpuint(off, ==, 0);
        test_host_free(soft);
        test_host_free(gl);
    }
}

/*
 * Neither colour nor depth: only the occlusion count sees the draw, on
 * gl as on soft.
 */
static void test_count_only(void)
{
    TestHost *soft = host("soft"), *gl = host("gl");
    TestHost *hs[2] = { soft, gl };
    uint32_t n[2];

    for (unsigned k = 0; k < 2; k++) {
        r500_reg_write(&hs[k]->chip, R_RB3D_COLOR_CHANNEL_MASK, 0);
        count_reset(hs[k]);
        z_rect(hs[k], 8, 8, 40, 40, 0.5f, 0.5f);
        z_rect(hs[k], 24, 24, 56, 56, 0.5f, 0.5f);
        n[k] = count_read(hs[k]);
    }
    g_assert_cmpuint(n[0], ==, 2 * 32 * 32);
    g_assert_cmpuint(n[1], ==, n[0]);
    assert_gl_draws(gl, 2, 0);
    test_host_free(soft);
    test_host_free(gl);
}

/*
 * Full-target passes through four clip rectangles (inclusive corners,
 * one reaching past the target) under a rule each: inside rectangle 0
 * (0xAAAA), inside any (0xFFFE), outside all (0x0001), inside an odd
 * number (0x6996).  Each pass is nearer (LESS passes) and adds its
 * colour; the stencil counts the pixels' passes.
 */
static void clip_passes(TestHost *h)
{
    static const uint32_t rect[4][4] = {
        { 4, 4, 35, 35 }, { 20, 10, 50, 40 }, { 10, 30, 60, 60 },
        { 0, 50, 100, 63 },
    };
    static const uint16_t rule[4] = { 0xAAAA, 0xFFFE, 0x0001, 0x6996 };
    R500Chip *s = &h->chip;
    float v[6 * 8];

    for (unsigned i = 0; i < 4; i++) {
        r500_reg_write(s, R500_REGA_AT(SC_CLIPRECT_TL, i),
                       rect[i][0] | rect[i][1] << 13);
        r500_reg_write(s, R500_REGA_AT(SC_CLIPRECT_BR, i),
                       rect[i][2] | rect[i][3] << 13);
    }
    r500_reg_write(s, R_ZB_CNTL, 1 | 2 | 4);
    r500_reg_write(s, R_ZB_ZSTENCILCNTL, F_LESS | F_ALWAYS << 3 |
                   S_KEEP << 6 | S_INCR << 9 | S_KEEP << 12 |
                   F_ALWAYS << 15 | S_KEEP << 18 | S_INCR << 21 |
                   S_KEEP << 24);
    r500_reg_write(s, R_ZB_STENCILREFMASK, 0xFF << 8 | 0xFF << 16);
    count_reset(h);
    for (unsigned p = 0; p < 4; p++) {
        r500_reg_write(s, R_SC_CLIP_RULE, rule[p]);
        rect_verts(v, 0, 0, T3D_W, T3D_H, 0.25f * (p & 1), 0.125f,
                   0.0625f * p, 0.25f);
        for (unsigned k = 0; k < 6; k++) {
            v[8 * k + 2] = 0.8f - 0.2f * p;
        }
        t3d_draw(h, TRIANGLES, v, 6);
    }
}

static void test_clip_rects(void)
{
    TestHost *soft = host("soft"), *gl = host("gl");
    TestHost *hs[2] = { soft, gl };
    uint32_t n[2];
    unsigned drawn, changed = 0;

    for (unsigned k = 0; k < 2; k++) {
        /* z 1.0, stencil 0 */
        zb_setup(hs[k], true, 0xFFFFFF00u);
        clip_passes(hs[k]);
        n[k] = count_read(hs[k]);
    }
    assert_gl_draws(gl, 4, 0);
    /*
     * Each pass keeps some pixels and drops others (a rule ignored would
     * add its colour everywhere); the second and third together cover
     * the target, and the others overlap them.
     */
    g_assert_cmpuint(compare_bits(soft, gl, 0, &drawn), ==, 0);
    g_assert_cmpuint(drawn, ==, T3D_W * T3D_H);
    g_assert_cmpuint(n[0], >, T3D_W * T3D_H);
    g_assert_cmpuint(n[0], <, 2 * T3D_W * T3D_H);
    g_assert_cmpuint(n[1], ==, n[0]);
    for (unsigned i = 0; i < T3D_W * T3D_H; i++) {
        g_assert_cmphex(zb_word(gl, true, i), ==, zb_word(soft, true, i));
        changed += zb_word(soft, true, i) != 0xFFFFFF00u;
    }
    g_assert_cmpuint(changed, ==, drawn);
    test_host_free(soft);
    test_host_free(gl);
}

/*
 * Unit 0: a 64 x 64 RGBA8 texture at T3D_TEX with levels 0..5 of random
 * texels (the same in both hosts), repeating; magnified linearly,
 * minified by point, mip levels nearest or blended, from MAX_MIP_LEVEL
 * first.
 */
static void mip_unit(TestHost **hs, unsigned first, bool mip_linear)
{
    GRand *r = g_rand_new_with_seed(7 + first);

    for (unsigned k = 0; k < 2; k++) {
        R500Chip *s = &hs[k]->chip;
        const R500TxUnit *t = &s->tx.unit[0];

        r500_reg_write(s, R_TX_ENABLE, 1);
        /* CLAMP_S/T repeat; MAG linear (2), MIN point (1), MIP_FILTER */
        r500_reg_write(s, R_TX_FILTER0, 2u << 9 | 1u << 11 |
                       (mip_linear ? 2u : 1u) << 13 | first << 17);
        r500_reg_write(s, R_TX_FILTER1, 0);
        r500_reg_write(s, R_TX_FORMAT0, 63 | 63u << 11 | 5u << 26);
        /* 8_8_8_8, SEL_A/R/G/B: components 3, 0, 1, 2 */
        r500_reg_write(s, R_TX_FORMAT1, R500_TXF_8_8_8_8 | 3u << 9 |
                       0u << 12 | 1u << 15 | 2u << 18);
        r500_reg_write(s, R_TX_FORMAT2, 0);
        r500_reg_write(s, R_TX_OFFSET, T3D_TEX);
        r500_tx_prepare(s);
        g_assert_true(t->valid);
        g_assert_cmpuint(t->first, ==, first);
        g_assert_cmpuint(t->last, ==, 5);
        for (uint64_t a = T3D_TEX; a < t->chain_end; a++) {
            hs[k]->vram[a] = k ? hs[0]->vram[a] : g_rand_int(r);
        }
    }
    g_rand_free(r);
}

/*
 * Bands across the target, each of k texels of level 0 a pixel in both
 * directions: LOD log2(k) -0.4 (magnified), 0.8, 1.8, 2.2 and 3.2, each a
 * fifth of a level or more from where the level or the filter changes
 * (GL's own LOD is approximate); alpha 1 (LODBIAS: a level more).
 */
static void mip_bands(TestHost *h)
{
    static const float k[5] = { 0.758f, 1.741f, 3.482f, 4.595f, 9.19f };
    static const float y[6] = { 0, 12, 24, 36, 48, 64 };
    float v[5 * 6 * 8], *p = v;

    for (unsigned b = 0; b < 5; b++) {
        /* corners 0, 1, 2 and 1, 3, 2: x0, x1 by y0, y1 */
        static const int tri[6] = { 0, 1, 2, 1, 3, 2 };

        for (unsigned i = 0; i < 6; i++) {
            unsigned c = tri[i];
            float x = c & 1 ? T3D_W : 0, yy = c & 2 ? y[b + 1] : y[b];

            /* texture coordinates 1.0 per 64 texels, from (0.1, 0.2) */
            vtx(p, x, yy, 0.1f + x * k[b] / 64.0f,
                0.2f + (yy - y[b]) * k[b] / 64.0f, 0.0f, 1.0f);
            p += 8;
        }
    }
    t3d_draw(h, TRIANGLES, v, 5 * 6);
}

static void test_mip_first(void)
{
    for (unsigned c = 0; c < 8; c++) {
        unsigned first = c & 1 ? 2 : 0;
        bool mip_linear = c & 2;
        unsigned op = c & 4 ? R500_TEX_LODBIAS : R500_TEX_LD;
        TestHost *soft = host("soft"), *gl = host("gl");
        TestHost *hs[2] = { soft, gl };

        mip_unit(hs, first, mip_linear);
        for (unsigned k = 0; k < 2; k++) {
            r500_reg_write(&hs[k]->chip, R_RB3D_BLENDCNTL, 0);
            tex_program(hs[k], op);
            mip_bands(hs[k]);
        }
        r500_pipe_sync(&gl->chip, R500_SYNC_FENCE);
        assert_gl_draws(gl, 1, 0);
        /*
         * The level and filter soft takes (its LOD, in the shader): point
         * sampling exact, levels blended too, the magnified band's
         * bilinear filter within 1/255 (GL's fixed point); another level
         * or filter is other random texels
         */
        if (compare_tol(soft, gl, 1)) {
            g_error("case %u (first %u, mip %s, op %u): %u pixels differ",
                    c, first, mip_linear ? "linear" : "point", op,
                    compare_tol(soft, gl, 1));
        }
        test_host_free(soft);
        test_host_free(gl);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/gl/state/depth-only", test_depth_only);
    g_test_add_func("/gl/state/count-only", test_count_only);
    g_test_add_func("/gl/state/clip-rects", test_clip_rects);
    g_test_add_func("/gl/state/mip-first", test_mip_first);
    return g_test_run();
}
