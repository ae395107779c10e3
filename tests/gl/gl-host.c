/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The host-GL renderer tests' hosts, scenes and comparisons (gl-host.h). */
#include <string.h>

#include "gl-host.h"

/* The draws h's gl renderer drew, and those it left to soft. */
void assert_gl_draws(TestHost *h, uint64_t want, uint64_t soft)
{
    uint64_t draws, fallbacks;

    draws = r500_chip_stat(&h->chip, "render-gl-draws");

    fallbacks = r500_chip_stat(&h->chip, "render-gl-fallbacks");
    g_assert_cmpuint(draws, ==, want);
    g_assert_cmpuint(fallbacks, ==, soft);
}

void vtx(float *v, float x, float y, float r, float g, float b, float a)
{
    const float in[8] = { x, y, 0.5f, 1.0f, r, g, b, a };

    memcpy(v, in, sizeof(in));
}

/* A host on renderer w (soft or gl), the usual 3D set-up, cleared. */
TestHost *host(const char *w)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, 64);
    const char *why;

    if (!r500_pipe_set_renderer(&h->chip, w, &why)) {
        g_error("renderer %s: %s", w, why);
    }
    t3d_setup(h);
    t3d_fill(h, 0);
    t3d_blend_add(h);
    return h;
}

/* Two triangles over pixels (x0, y0) to (x1, y1), one flat colour. */
void rect_verts(float *v, float x0, float y0, float x1, float y1,
                float r, float g, float b, float a)
{
    const float c[6][2] = {
        { x0, y0 }, { x1, y0 }, { x0, y1 }, { x1, y0 }, { x1, y1 }, { x0, y1 },
    };

    for (unsigned i = 0; i < 6; i++) {
        vtx(v + 8 * i, c[i][0], c[i][1], r, g, b, a);
    }
}

/* Two overlapping smooth triangles and a third crossing both. */
void scene(TestHost *h)
{
    float v[9 * 8];

    vtx(v, 3.2f, 2.7f, 0.2f, 0.1f, 0.0f, 0.3f);
    vtx(v + 8, 60.4f, 9.1f, 0.0f, 0.4f, 0.1f, 0.3f);
    vtx(v + 16, 20.6f, 58.3f, 0.3f, 0.0f, 0.5f, 0.3f);
    vtx(v + 24, 10.0f, 40.0f, 0.25f, 0.25f, 0.25f, 0.2f);
    vtx(v + 32, 55.0f, 61.5f, 0.1f, 0.2f, 0.3f, 0.2f);
    vtx(v + 40, 62.0f, 20.0f, 0.3f, 0.2f, 0.1f, 0.2f);
    vtx(v + 48, 1.0f, 30.0f, 0.2f, 0.2f, 0.2f, 0.1f);
    vtx(v + 56, 63.0f, 33.0f, 0.2f, 0.2f, 0.2f, 0.1f);
    vtx(v + 64, 32.0f, 5.0f, 0.2f, 0.2f, 0.2f, 0.1f);
    t3d_draw(h, TRIANGLES, v, 9);
}

unsigned chan_diff(uint32_t a, uint32_t b)
{
    unsigned d = 0;

    for (int c = 0; c < 32; c += 8) {
        int x = (int)((a >> c) & 0xFF) - (int)((b >> c) & 0xFF);

        d = MAX(d, (unsigned)ABS(x));
    }
    return d;
}

unsigned differ(TestHost *a, TestHost *b, unsigned tol, unsigned min)
{
    unsigned n = 0, drawn = 0;

    for (unsigned y = 0; y < T3D_H; y++) {
        for (unsigned x = 0; x < T3D_W; x++) {
            uint32_t pa = t3d_px(a, x, y), pb = t3d_px(b, x, y);

            drawn += pa != 0;
            n += chan_diff(pa, pb) > tol;
        }
    }
    g_test_message("%u pixels drawn, %u differ by more than %u", drawn, n,
                   tol);
    g_assert_cmpuint(drawn, >=, min);
    return n;
}

/*
 * Each blended pass may round one LSB the other way, so tol is the
 * passes.
 */
unsigned compare_tol(TestHost *a, TestHost *b, unsigned tol)
{
    return differ(a, b, tol, T3D_W * T3D_H / 2 + 1);
}

unsigned compare(TestHost *a, TestHost *b)
{
    return compare_tol(a, b, 1);
}

/* Pixels whose stored bits differ, and the drawn pixels' count. */
unsigned compare_bits(TestHost *a, TestHost *b, uint32_t fill,
                      unsigned *drawn)
{
    unsigned diff = 0;

    *drawn = 0;
    for (unsigned y = 0; y < T3D_H; y++) {
        for (unsigned x = 0; x < T3D_W; x++) {
            *drawn += t3d_px(a, x, y) != fill;
            diff += t3d_px(a, x, y) != t3d_px(b, x, y);
        }
    }
    return diff;
}

void tex_program(TestHost *h, unsigned op)
{
    uint32_t w[12] = { 0 };

    /* TEX (RGB and alpha written), op, t0.xyzw -> t1.xyzw */
    w[0] = R500_US_TEX | 7u << 11 | 1u << 14;
    w[1] = op << 22;
    w[2] = 0 | 0u << 8 | 1u << 10 | 2u << 12 | 3u << 14 | 1u << 16 |
           0u << 24 | 1u << 26 | 2u << 28 | 3u << 30;
    t3d_us_out(1, w + 6);
    t3d_us_program(h, w, 2);
}
