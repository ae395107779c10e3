/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fill path of the soft renderer (pipe/soft.c, rb3d.c, tiling.c): a
 * rectangle of one colour is stored at memory speed instead of quad by
 * quad.  It must change nothing but the speed, so every case draws the
 * same points twice, on a chip with the fill path and on one without
 * (R500Soft.no_fill), over the same noise in VRAM, and compares all of
 * VRAM and the counters.  The cases are what Mesa r300's clears and
 * blits program (point sprites with a constant colour; the CBZB clear,
 * ZB_CB_CLEAR; depth and stencil written through tests that always
 * pass) and what must not fill (a depth test, a temporary the RS does not
 * write), over linear, micro- and macro-tiled targets, odd edges and a
 * depth pitch narrower than the rectangle.  Split draws and two threads
 * must give the same memory as one unsplit draw.
 */
#include <string.h>

#include "test-3d.h"

#define VRAM_MB         16
enum { POINTS = 1 };

typedef struct FillCase {
    const char *name;
    uint32_t colorpitch;        /* RB3D_COLORPITCH; 0: linear ARGB8888 */
    uint32_t zformat, zpitch;   /* zpitch 0: no depth buffer */
    uint32_t zcntl, zstencil, zref, zbw;
    unsigned temp;              /* the program outputs this temporary */
    float x, y, w, h, z;        /* the point: centre, size, depth */
    unsigned fills;             /* rectangles the fill path must take */
} FillCase;

static const FillCase cases[] = {
    { "linear-argb8888", 0, .x = 21, .y = 13.5f, .w = 17, .h = 9,
      .fills = 2 },
    { "tiled-argb8888", 64 | 6u << 21 | 1u << 16 | 1u << 17,
      .x = 23, .y = 24, .w = 45, .h = 38, .fills = 2 },
    { "macro-linear-argb8888", 64 | 6u << 21 | 1u << 16,
      .x = 33, .y = 20, .w = 63, .h = 27, .fills = 2 },
    { "micro-rgb565", 64 | 4u << 21 | 1u << 17,
      .x = 30, .y = 31, .w = 41, .h = 21, .fills = 2 },
    /* Mesa's CBZB clear: the depth unit writes ZB_DEPTHCLEARVALUE */
    { "cbzb-narrow-pitch", 0, 2, 16 | 3u << 16, .zbw = 1u << 5,
      .x = 16, .y = 8, .w = 32, .h = 16, .fills = 2 },
    /* depth ALWAYS with writes: the stencil byte is kept */
    { "depth-always-z24", 0, 2, 64 | 3u << 16, 6, 7,
      .x = 30, .y = 29, .w = 50, .h = 41, .z = 0.25f, .fills = 2 },
    /* stencil REPLACE through write mask 0x0F */
    { "depth-stencil-replace", 64 | 6u << 21 | 1u << 17, 2, 64, 7,
      7 | 7u << 3 | 2u << 9, 0x5A | 0xFFu << 8 | 0x0Fu << 16,
      .x = 19, .y = 40, .w = 27, .h = 33, .z = 0.75f, .fills = 2 },
    { "depth-z16-micro", 0, 0, 64 | 1u << 17, 6, 7,
      .x = 32, .y = 32, .w = 64, .h = 64, .z = 0.5f, .fills = 2 },
    /* depth enabled, no write, ALWAYS: colour only */
    { "depth-nowrite", 0, 2, 64, 2, 7,
      .x = 12, .y = 12, .w = 20, .h = 20, .z = 0.5f, .fills = 2 },
    /* the outcome depends on the stored depth: quad by quad */
    { "depth-less", 0, 2, 64, 6, 1,
      .x = 30, .y = 29, .w = 50, .h = 41, .z = 0.25f, .fills = 0 },
    /* a temporary the RS does not write varies: quad by quad */
    { "leftover-temp", 0, .temp = 5,
      .x = 21, .y = 13.5f, .w = 17, .h = 9, .fills = 0 },
};

#define NOISE_BYTES     (T3D_ZB + 0x100000u - T3D_CB)

/* The same noise on every chip, over colour and depth buffers. */
static void noise(uint8_t *p)
{
    uint32_t v = 12345;

    for (uint32_t i = 0; i < NOISE_BYTES; i++) {
        v = v * 1103515245u + 12345u;
        p[i] = v >> 24;
    }
}

static TestHost *fill_host(const FillCase *c, bool fill, unsigned threads)
{
    TestHost *h = test_host_new(R500_MODEL_RV515, VRAM_MB);
    R500Chip *s = &h->chip;

    t3d_setup(h);
    noise(h->vram + T3D_CB);
    s->soft.no_fill = !fill;
    r500_soft_set_threads(s, threads);
    if (c->colorpitch) {
        r500_reg_write(s, R_RB3D_COLORPITCH, c->colorpitch);
    }
    if (c->zpitch) {
        r500_reg_write(s, R_ZB_FORMAT, c->zformat);
        r500_reg_write(s, R_ZB_DEPTHOFFSET, T3D_ZB);
        r500_reg_write(s, R_ZB_DEPTHPITCH, c->zpitch);
        r500_reg_write(s, R_ZB_CNTL, c->zcntl);
        r500_reg_write(s, R_ZB_ZSTENCILCNTL, c->zstencil);
        r500_reg_write(s, R_ZB_STENCILREFMASK, c->zref);
        r500_reg_write(s, R_ZB_BW_CNTL, c->zbw);
        r500_reg_write(s, R_ZB_DEPTHCLEARVALUE, 0xA5C3E1F0);
    }
    if (c->temp) {
        /* OUT: rgb = t[temp].rgb, a = t[temp].a */
        T3DAlu a = {
            .out = true, .rgb_omask = 7, .alpha_omask = 1,
            .addr = { c->temp, 0x80, 0x80 },
            .swz = { { 0, 1, 2 }, { 6, 6, 6 }, { 4, 4, 4 } },
            .aswz = { 3, 6, 4 },
        };
        uint32_t w[6];

        t3d_us_alu(&a, w);
        t3d_us_program(h, w, 1);
    }
    r500_reg_write(s, R_GA_POINT_SIZE,
                   (uint32_t)(c->w * 6) << 16 | (uint32_t)(c->h * 6));
    return h;
}

/* Two overlapping points of different colours, one draw each. */
static void fill_draw(TestHost *h, const FillCase *c)
{
    const float v[2][8] = {
        { c->x, c->y, c->z, 1, 0.3f, 0.6f, 0.9f, 0.5f },
        { c->x + 3, c->y + 2, c->z, 1, 0.8f, 0.1f, 0.45f, 1.0f },
    };

    t3d_draw(h, POINTS, v[0], 1);
    t3d_draw(h, POINTS, v[1], 1);
}

static void assert_same(TestHost *a, TestHost *b)
{
    g_assert_true(memcmp(a->vram, b->vram, VRAM_MB << 20) == 0);
    g_assert_cmpuint(a->chip.rb3d.zpass, ==, b->chip.rb3d.zpass);
    g_assert_cmpuint(a->chip.rb3d.pixels, ==, b->chip.rb3d.pixels);
    g_assert_cmpuint(a->chip.rast.pixels, ==, b->chip.rast.pixels);
}

static void test_case(gconstpointer data)
{
    const FillCase *c = data;
    TestHost *a = fill_host(c, true, 1), *b = fill_host(c, false, 1);

    fill_draw(a, c);
    fill_draw(b, c);
    g_assert_cmpuint(a->chip.soft.fills, ==, c->fills);
    g_assert_cmpuint(b->chip.soft.fills, ==, 0);
    /* the quad path wrote something: the comparison means something */
    {
        uint8_t *n = g_malloc(NOISE_BYTES);

        noise(n);
        g_assert_cmpuint(b->chip.rb3d.pixels, >, 0);
        g_assert_true(memcmp(b->vram + T3D_CB, n, NOISE_BYTES) != 0);
        g_free(n);
    }
    assert_same(a, b);
    /* each quad the fill path did not shade is not counted as shaded */
    if (c->fills) {
        g_assert_cmpuint(a->chip.us.quads, ==, c->fills);
        g_assert_cmpuint(b->chip.us.quads, >, 10 * c->fills);
    }
    test_host_free(a);
    test_host_free(b);
}

/*
 * A draw of overlapping points split as the CP splits it, on one and two
 * threads: a call declines a fill once its work is spent, a resumed call
 * draws the rest of that rectangle quad by quad (batched on two threads)
 * and fills the next one, so order between the two paths matters.
 */
static void test_split(void)
{
    static const uint64_t budgets[] = { 1, 7, 40, 100, 300, 1000, 5000, 0 };
    const FillCase *c = &cases[5];      /* depth-always-z24: two targets */
    float v[6 * 8];
    TestHost *ref = fill_host(c, false, 1);

    for (int i = 0; i < 6; i++) {
        const float p[8] = { 10.0f + 8 * i, 12.0f + 6 * i, 0.1f * i, 1,
                             0.15f * i, 1 - 0.15f * i, 0.5f, 1 };

        memcpy(v + 8 * i, p, sizeof(p));
    }
    t3d_draw(ref, POINTS, v, 6);
    for (unsigned k = 0; k < G_N_ELEMENTS(budgets); k++) {
        for (unsigned threads = 1; threads <= 2; threads++) {
            TestHost *h = fill_host(c, true, threads);
            unsigned calls = t3d_draw_split(h, POINTS, v, 6, budgets[k],
                                            NULL);

            g_test_message("budget %" G_GUINT64_FORMAT ", %u threads: %u "
                           "calls, %" G_GUINT64_FORMAT " fills", budgets[k],
                           threads, calls, h->chip.soft.fills);
            assert_same(h, ref);
            if (!budgets[k] || budgets[k] >= 5000) {
                g_assert_cmpuint(h->chip.soft.fills, ==, 6);
            }
            if (budgets[k] && budgets[k] <= 40) {
                g_assert_cmpuint(calls, >, 6);
            }
            test_host_free(h);
        }
    }
    test_host_free(ref);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        char *path = g_strdup_printf("/fill/%s", cases[i].name);

        g_test_add_data_func(path, &cases[i], test_case);
        g_free(path);
    }
    g_test_add_func("/fill/split", test_split);
    return g_test_run();
}
